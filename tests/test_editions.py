"""The editions (questc.editions): one interface holding what differs between the rule sets, chosen
by name; no test on an edition's name anywhere else; and a third rule set is a module and its data.
"""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest

from questc import editions
from questc.api import build, check_source
from questc.editions import Edition, edition
from questc.emit.sheet import sheet_data
from questc.rules import all_rules

ROOT = Path(__file__).resolve().parent.parent
SEAM = ROOT / "questc" / "editions"
BUILT_IN = ("first", "second")
SPECIFIC = {"first_edition", "second_edition"}  # names that mean one edition (a property, a flag)


def python_tests(source: str, where: str) -> list[str]:
    """Tests on an edition's name in Python source: a comparison with an edition's name (`== "second"`,
    `in ("first", ...)`), a table keyed by one (`{"first": ...}`, `[...]["second"]`), or a name
    meaning one edition (`model.second_edition`)."""
    found = []

    def named(node: ast.AST) -> bool:
        if isinstance(node, ast.Constant):
            return node.value in BUILT_IN
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(named(e) for e in node.elts)
        return False

    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.Compare) and any(named(n) for n in (node.left, *node.comparators)):
            found.append(f"{where}:{line}: compares with an edition's name")
        elif isinstance(node, ast.Dict) and any(k is not None and named(k) for k in node.keys):
            found.append(f"{where}:{line}: a table keyed by editions' names")
        elif isinstance(node, ast.Subscript) and named(node.slice):
            found.append(f"{where}:{line}: looks up an edition's name")
        elif isinstance(node, ast.Attribute) and node.attr in SPECIFIC:
            found.append(f"{where}:{line}: `.{node.attr}`")
        elif isinstance(node, ast.Name) and node.id in SPECIFIC:
            found.append(f"{where}:{line}: `{node.id}`")
    return found


_TEMPLATE = re.compile(r"""edition\s*(?:==|!=|in\b)|(?:==|!=)\s*["'](?:first|second)["']""")


def template_tests(text: str, where: str) -> list[str]:
    """Tests on an edition's name in a template: `q.edition == "second"` and the like."""
    return [f"{where}:{text.count(chr(10), 0, m.start()) + 1}: {m.group(0)}" for m in _TEMPLATE.finditer(text)]


def edition_name_tests() -> list[str]:
    found = []
    for path in sorted((ROOT / "questc").rglob("*.py")):
        if SEAM not in path.parents:
            found += python_tests(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "templates").rglob("*")):
        if path.is_file() and path.suffix in (".j2", ".typ"):
            found += template_tests(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    for path in sorted((ROOT / "questc" / "preview" / "static").rglob("*.js")):
        found += template_tests(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return found


@pytest.mark.slow
def test_no_test_on_an_editions_name_outside_the_seam():
    found = edition_name_tests()
    assert len(found) == 0, "ask the quest's Edition (questc.editions) instead:\n" + "\n".join(found)


def test_the_count_sees_each_kind_of_test():
    source = (
        'if model.edition.name == "second": pass\n'
        'if name in ("first", "second"): pass\n'
        'SETS = {"first": ("base",)}\n'
        'x = SETS["second"]\n'
        "if model.second_edition: pass\n"
        'if rule == CENTRE_LINE and model.edition.has("conquest"): pass\n'
    )
    assert len(python_tests(source, "x.py")) == 5
    assert (
        len(
            template_tests(
                '{% if q.edition == "first" %}{{ "a" if q.edition != x }}{% if q.plays_by.conquest %}', "x.j2"
            )
        )
        == 2
    )


# ---- the registry ----------------------------------------------------------------------------


def test_editions_are_chosen_by_name():
    assert editions.names()[:2] == BUILT_IN
    first, second = edition("first"), edition("second")
    assert edition() is first and editions.find("second") is second and editions.find("third") is None
    with pytest.raises(ValueError, match="the editions are first, second"):
        edition("third")
    assert (first.default_sets, second.default_sets) == (("base",), ("second_edition",))
    assert (first.sight, second.sight) == ("first", "second") and (first.reveal, second.reveal) == ("sight", "all")
    assert first.has("conquest") and first.has("glyph start") and not second.has("conquest")
    assert second.has("entrance start") and second.header_fields == {"encounter", "part_of", "act", "traits"}
    assert editions.having("treachery") == (first,)


def test_an_edition_names_only_the_games_rules():
    with pytest.raises(ValueError, match="unknown game rules"):
        replace(edition("first"), name="odd", rules=frozenset({"conquest", "flying"}))
    with pytest.raises(ValueError, match="built in"):
        editions.register(replace(edition("first"), title="Other"))


def test_rules_say_which_editions_they_apply_to():
    rules = all_rules()
    first, second = edition("first"), edition("second")
    assert rules["Q506"].needs == {"conquest"} and rules["Q506"].applies_to(first)
    assert not rules["Q506"].applies_to(second) and not rules["Q210"].applies_to(second)
    assert rules["Q214"].applies_to(second) and not rules["Q214"].applies_to(first)
    assert rules["Q509"].applies_to(first) and rules["Q509"].applies_to(second)


# ---- a third rule set: a module and its data -------------------------------------------------

# A house rule set on the first edition's components: corner-to-corner sight, areas revealed when
# a door into them opens, no treachery, and only the engine JSON built.
HOUSE = Edition(
    name="house",
    title="House",
    default_sets=("base",),
    sight="second",
    reveal="door",
    start="glyph",
    rules=frozenset({"conquest", "rune doors", "stairs", "corridors", "chests", "encounters"}),
    conditions=("killed", "revealed", "opened", "conquest", "round"),
    exports=("json",),
    components="first",
)

QUEST = """quest "House Rules" {
  edition house
  conquest 3
}
piece R1 room_4x4 at 0,0
area A "Hall" start {
  pieces R1
  glyph at 0,0 active
  monster beastman at 2,2
}
victory heroes when revealed A
"""


@pytest.fixture()
def house():
    editions.register(HOUSE)
    yield HOUSE
    editions.unregister("house")


def test_a_registered_edition_is_played_end_to_end(house, tmp_path):
    result = check_source(QUEST, "house.quest")
    assert result.buildable(), [d.message for d in result.errors]
    quest = result.compiled
    assert quest is not None and quest.model.edition is house
    assert quest.model.reveal == "door" and quest.model.expansions == ("base",) and quest.sets == ("base",)
    assert sheet_data(quest)["edition_title"] == "House"
    written = build([result], tmp_path / "out").written
    assert [p.name for p in written] == ["house_rules.json"]  # its exports: the JSON alone


def test_a_registered_editions_rules_apply_and_others_do_not(house):
    treachery = QUEST.replace("  conquest 3\n", "  conquest 3\n  treachery event 5, trap 4, monster 4\n")
    result = check_source(treachery, "house.quest")
    (q408,) = [d for d in result.diagnostics if d.code == "Q408"]
    assert q408.message == "treachery is a first edition rule: a `house` edition quest has none"
    assert "Q406" not in {d.code for d in result.all_diagnostics}  # a treachery rule: not run here
    no_conquest = check_source(QUEST.replace("  conquest 3\n", ""), "house.quest")
    assert "Q506" in {d.code for d in no_conquest.diagnostics}  # it has conquest tokens


def test_an_edition_questc_does_not_know_is_a_header_error(house):
    result = check_source(QUEST.replace("edition house", "edition hose"), "q.quest")
    (d,) = result.errors
    assert d.code == "Q004" and d.message == "`hose` is not an edition questc knows"
    every = ", ".join(f"`{name}`" for name in editions.names())  # the built-in ones, then `house`
    assert d.help == f"did you mean `house`? the editions are {every}"
    assert every.startswith("`first`, `second`, ") and every.endswith(", `house`")
    assert result.model is None
