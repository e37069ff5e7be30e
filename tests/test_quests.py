"""The example quests (quests/) and the writer's documentation (docs/) kept honest.

- every quest in quests/ compiles with no error and no warning, and together they
  show every statement and every base-game and Well of Darkness component;
- every ```quest example in docs/*.md parses, and those that are whole quests compile
  with no error;
- docs/language.md names every keyword of the grammar;
- docs/diagnostics.md is what docs/gen_diagnostics.py generates today;
- the tutorial's final listing is quests/chandlers_cellar.quest.
"""

from __future__ import annotations

import importlib.util
import re
from collections import defaultdict
from functools import cache
from pathlib import Path

import pytest

from questc.api import check_file, check_source
from questc.diagnostics.core import Severity
from questc.syntax import nodes as n
from questc.syntax import parse_source

ROOT = Path(__file__).resolve().parent.parent
QUESTS = sorted((ROOT / "quests").glob("*.quest"))
DOCS = ROOT / "docs"
GRAMMAR = ROOT / "grammar" / "quest.lark"


def _problems(result, severities=(Severity.ERROR, Severity.WARNING)) -> str:
    return "\n".join(
        f"{d.span.line}:{d.span.column} {d.severity.value}[{d.code}] {d.message}"
        for d in result.diagnostics
        if d.severity in severities
    )


@cache
def _checked(path: Path):
    return check_file(path)


# ---- the quests ------------------------------------------------------------------------


def test_there_are_at_least_eight_example_quests():
    assert len(QUESTS) >= 8, [p.name for p in QUESTS]


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.name)
def test_example_quest_compiles_with_no_error_and_no_warning(path):
    result = _checked(path)
    assert result.compiled, _problems(result) or "a stage did not run"
    assert not result.errors and not result.warnings, _problems(result)


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.name)
def test_example_quest_names_what_its_sheet_prints(path):
    """Every door, encounter and relic has a name players read (the opt-in Q520 finds none)."""
    from questc.api import Options, check_file

    result = check_file(path, Options(extend_select=("Q520",)))
    assert [d for d in result.diagnostics if d.code == "Q520"] == [], _problems(result)


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.name)
def test_example_quest_reveals_every_area_and_reaches_every_cell(path):
    result = _checked(path)
    analysis = result.compiled.analysis
    assert [a for a, wave in analysis.reveal_wave.items() if wave is None] == []
    floor = set(result.compiled.board.cells)
    blocked = {c for c in floor if result.compiled.board.blocks_movement(c)}
    assert floor - blocked - set(analysis.reached) == set()


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.name)
def test_example_quest_treachery_is_in_the_published_range(path):
    model = _checked(path).model
    if model.treachery is not None:
        assert 9 <= sum(model.treachery.values()) <= 12, model.treachery
        assert model.edition.has("treachery")


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.name)
def test_example_quest_hides_every_area_behind_a_door_at_the_start(path):
    """Nothing but the start area is seen before the first turn (sight-revealed quests)."""
    result = _checked(path)
    model = result.model
    if model.reveal != "sight":
        return
    start = model.start_areas[0]
    board = result.compiled.board
    seen = board.visible_cells(start.cells, model.edition.sight, frozenset(), stairs=True)
    assert {model.area_of(c) for c in seen} == {start.id}


# ---- what the library shows, all together ---------------------------------------------


def _walk_conditions(condition, out: set[str]) -> None:
    if isinstance(condition, n.EventCondition):
        out.add(condition.event)
    elif isinstance(condition, n.CompareCondition):
        out.add(f"{condition.counter} {condition.op}")
    elif isinstance(condition, n.NotCondition):
        out.add("not")
        if isinstance(condition.operand, (n.AllCondition, n.AnyCondition)):
            out.add("parentheses")
        _walk_conditions(condition.operand, out)
    elif isinstance(condition, (n.AllCondition, n.AnyCondition)):
        out.add("and" if isinstance(condition, n.AllCondition) else "or")
        for operand in condition.operands:
            if isinstance(operand, (n.AllCondition, n.AnyCondition)):
                out.add("parentheses")
            _walk_conditions(operand, out)


@cache
def _features() -> dict[str, set]:
    """Everything the quests use, by kind of feature."""
    seen: dict[str, set] = defaultdict(set)
    for path in QUESTS:
        result = _checked(path)
        tree, model = result.tree, result.model
        for field in tree.header.fields:
            seen["header"].add(field.keyword)
        seen["edition"].add(model.edition.name)
        seen["reveal"].add(model.reveal)
        seen["expansions"].update(model.expansions)
        colours_keyed = {m.variant for m in model.markers if m.kind == "runekey"}
        for item in tree.items:
            kind = type(item).__name__
            seen["item"].add(kind)
            if isinstance(item, n.Piece):
                seen["turn"].add(item.turn)
                seen["piece type"].add(item.type.value)
                if item.at.piece is not None:
                    seen["piece-relative point"].add("piece")
            elif isinstance(item, n.Door):
                seen["door form"].add("between" if item.between else "at")
                if item.rune is not None and item.rune.value in colours_keyed:
                    seen["rune door with key"].add(item.rune.value)
            elif isinstance(item, n.Area):
                for stmt in item.statements:
                    seen["area statement"].add(type(stmt).__name__)
                    if isinstance(stmt, n.Monster):
                        seen["monster"].add(stmt.type.value)
                        if stmt.master:
                            seen["monster option"].add("master")
                        if stmt.facing:
                            seen["monster option"].add("facing")
                        if stmt.players:
                            seen["monster option"].add("players")
                    for point in getattr(stmt, "at", ()) if isinstance(getattr(stmt, "at", ()), tuple) else [stmt.at]:
                        if getattr(point, "piece", None) is not None:
                            seen["piece-relative point"].add("piece")
                    if isinstance(stmt, n.Encounter):
                        for effect in stmt.effects:
                            seen["effect"].add(_effect_word(effect))
            elif isinstance(item, n.NamedMonster):
                seen["monster"].add(item.type.value)
                for change in item.changes:
                    seen["stat form"].add(f"{change.stat} {'+N' if change.relative else 'N'}")
                if any(a.rank is not None for a in item.abilities):
                    seen["named option"].add("ability rank")
                if item.conquest is not None:
                    seen["named option"].add("conquest")
            elif isinstance(item, n.Trigger):
                seen["trigger"].add(item.event)
                for effect in item.effects:
                    seen["effect"].add(_effect_word(effect))
            elif isinstance(item, n.ChestChart):
                for row in item.rows:
                    for content in row.contents:
                        kind = (
                            content.kind if content.kind in ("coins", "conquest", "potion", "curse", "feat") else "card"
                        )
                        seen[f"{row.kind.value} chest content"].add(kind)
            elif isinstance(item, n.OverlordPlan):
                seen["plan"].update(c.name.value for c in item.cards)
                seen["plan"].update(f"dark glyph {g.name.value}" for g in item.glyphs)
            elif isinstance(item, n.Victory):
                _walk_conditions(item.when, seen["condition"])
        for marker in model.markers:
            seen["marker"].add(marker.kind)
            if marker.kind == "glyph":
                seen["glyph"].add("active" if marker.active else "inactive")
            if marker.kind == "chest":
                seen["chest"].add(marker.variant)
            if marker.kind == "treasure":
                seen["treasure"].add(marker.variant)
        for obstacle in model.obstacles:
            seen["obstacle"].add(obstacle.kind.name)
        if model.stairs:
            seen["item"].add("Stairs")
    return seen


def _effect_word(effect) -> str:
    if isinstance(effect, n.DoorEffect):
        return effect.action
    if isinstance(effect, n.Read):
        return "read"
    return type(effect).__name__.removesuffix("Effect").lower()


HEADER_FIELDS = {
    "id",
    "edition",
    "expansions",
    "players",
    "conquest",
    "treachery",
    "reveal",
    "author",
    "version",
    "intro",
    "special",
    "use",
}
AREA_STATEMENTS = {
    "Pieces",
    "Cells",
    "Read",
    "Note",
    "Glyph",
    "Monster",
    "PlaceNamed",
    "Chest",
    "Obstacle",
    "Trap",
    "Treasure",
    "Relic",
    "Runekey",
    "Encounter",
}
EFFECTS = {
    "read",
    "conquest",
    "coins",
    "treasure",
    "threat",
    "spawn",
    "open",
    "close",
    "unlock",
    "reveal",
    "win",
    "instruct",
}
CHEST_CONTENTS = {"coins", "card", "conquest", "curse", "feat", "potion"}


def _catalog():
    return _checked(QUESTS[0]).model.catalog


@pytest.mark.parametrize(
    "kind, wanted",
    [
        ("header", HEADER_FIELDS),
        ("edition", {"first", "second"}),
        ("reveal", {"sight", "door", "all"}),
        ("turn", {0, 90, 180, 270}),
        ("door form", {"between", "at"}),
        ("rune door with key", {"red", "yellow", "blue"}),
        (
            "item",
            {"Piece", "Door", "Stairs", "Area", "NamedMonster", "Trigger", "ChestChart", "OverlordPlan", "Victory"},
        ),
        ("area statement", AREA_STATEMENTS),
        ("piece-relative point", {"piece"}),
        ("monster option", {"master", "facing", "players"}),
        ("stat form", {"wounds +N", "wounds N", "armor +N", "armor N", "speed +N", "speed N", "damage +N"}),
        ("named option", {"ability rank", "conquest"}),
        ("effect", EFFECTS),
        ("trigger", {"reveal", "killed", "open", "round"}),
        ("copper chest content", CHEST_CONTENTS),
        ("silver chest content", CHEST_CONTENTS),
        ("gold chest content", CHEST_CONTENTS),
        ("plan", {"Rolling Stone", "Danger", "Empower", "dark glyph summoning"}),
        (
            "condition",
            {
                "killed",
                "revealed",
                "triggered",
                "and",
                "or",
                "not",
                "parentheses",
                "round >",
                "round >=",
                "conquest <=",
            },
        ),
        ("glyph", {"active", "inactive"}),
        ("chest", {"copper", "silver", "gold"}),
        ("marker", {"glyph", "chest", "treasure", "relic", "runekey", "encounter"}),
        ("expansions", {"base", "well_of_darkness", "altar_of_despair", "tomb_of_ice"}),
    ],
)
def test_the_quests_together_show_every_feature(kind, wanted):
    assert wanted - _features()[kind] == set()


@pytest.mark.parametrize("kind", ["piece", "monster", "obstacle", "trap", "treasure"])
def test_the_quests_together_use_every_base_and_well_of_darkness_component(kind):
    catalog = _catalog()
    wanted = {name for name in catalog.names(kind) if catalog.lookup(kind, name).set in ("base", "well_of_darkness")}
    assert wanted, f"the catalog lists no base {kind}"
    used = {
        "piece": _features()["piece type"],
        "monster": _features()["monster"],
        "obstacle": _features()["obstacle"],
        "trap": _features()["obstacle"],
        "treasure": _features()["treasure"],
    }[kind]
    assert wanted - used == set()


# ---- the documentation's examples ---------------------------------------------------------


def _quest_blocks(include_tested_steps: bool = False):
    """(file name, line, text) of every fenced ```quest block in docs/*.md.

    The tutorial's listings and excerpts (a `<!-- file: ... -->` or `<!-- excerpt: ... -->`
    comment above the block) are left out unless asked for: tests/test_tutorial.py follows
    them step by step, with what questc must print for each (an error, on purpose, too).
    """
    found = []
    for path in sorted(DOCS.glob("*.md")):
        lines = path.read_text(encoding="utf-8").split("\n")
        i = 0
        while i < len(lines):
            stepped = i > 0 and lines[i - 1].startswith(("<!-- file: ", "<!-- excerpt: "))
            if lines[i].strip() == "```quest" and stepped and not include_tested_steps:
                i += 1
                continue
            if lines[i].strip() == "```quest":
                start = i + 1
                j = start
                while j < len(lines) and lines[j].strip() != "```":
                    j += 1
                found.append((path.name, start + 1, "\n".join(lines[start:j]) + "\n"))
                i = j
            i += 1
    return found


BLOCKS = _quest_blocks()


def test_the_docs_have_quest_examples():
    assert len(BLOCKS) >= 20, "docs/*.md should be full of ```quest examples"


@pytest.mark.parametrize("name, line, text", BLOCKS, ids=[f"{b[0]}:{b[1]}" for b in BLOCKS])
def test_doc_example_compiles(name, line, text):
    """A whole quest (it has a `quest` header) compiles with no error; a fragment parses."""
    path = str(DOCS / name)
    parsed = parse_source(text, path)
    if parsed.tree is not None and parsed.tree.header is not None:
        result = check_source(text, path)
        assert not result.errors, _problems(result, (Severity.ERROR,))
        assert result.compiled is not None, "a stage did not run"
    else:
        syntax = [d for d in parsed.diagnostics if d.code != "Q005"]
        assert syntax == [], "\n".join(f"{d.span.line}:{d.span.column} {d.code} {d.message}" for d in syntax)


def test_the_tutorial_ends_with_the_example_quest():
    tutorial = [text for name, _line, text in _quest_blocks(include_tested_steps=True) if name == "tutorial.md"]
    assert tutorial, "docs/tutorial.md has no ```quest block"
    assert tutorial[-1] == (ROOT / "quests" / "chandlers_cellar.quest").read_text(encoding="utf-8")


# ---- the language reference covers the grammar ------------------------------------------


def grammar_literals() -> set[str]:
    """Every string literal of grammar/quest.lark: keywords, operators and punctuation."""
    found: set[str] = set()
    for line in GRAMMAR.read_text(encoding="utf-8").split("\n"):
        line = re.sub(r"^\s*//.*$", "", line)
        line = re.sub(r"/(?:[^/\\\n]|\\.)+/[imslux]*", " ", line)  # regular expressions
        found.update(re.findall(r'"((?:[^"\\]|\\.)+)"', line))
    return found


def test_grammar_literals_are_found():
    literals = grammar_literals()
    assert {"quest", "dark_glyph", "between", "when", "<=", "edition", "door", "on", "rune"} <= literals
    assert not any('"' in literal for literal in literals), literals


def _code_text(markdown: str) -> str:
    """The text of every code span and fenced block of a Markdown page."""
    blocks = re.findall(r"^```[^\n]*\n(.*?)^```", markdown, flags=re.S | re.M)
    rest = re.sub(r"^```[^\n]*\n.*?^```", "", markdown, flags=re.S | re.M)
    spans = re.findall(r"`([^`\n]+)`", rest)
    return "\n".join(blocks + spans)


@pytest.mark.parametrize("literal", sorted(grammar_literals()))
def test_language_reference_shows_every_keyword(literal):
    code = _code_text((DOCS / "language.md").read_text(encoding="utf-8"))
    if re.fullmatch(r"[A-Za-z_]+", literal):
        assert re.search(rf"(?<![A-Za-z0-9_]){literal}(?![A-Za-z0-9_])", code), (
            f"docs/language.md never shows `{literal}` in code"
        )
    else:
        assert literal in code, f"docs/language.md never shows `{literal}` in code"


def _reference_examples() -> tuple[list[str], str]:
    """The text of every ```quest example of docs/language.md, and a header to put before fragments."""
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    return re.findall(r"^```quest\n(.*?)^```", text, flags=re.S | re.M), 'quest "X" { conquest 1 }\n'


def _grammar_coverage():
    """(what the grammar can build, what the reference's examples build).

    What the grammar can build: for every rule of grammar/quest.lark, each rule or named
    terminal that can stand directly in it (Lark's inlined `_rules` and repetition
    helpers looked through, aliases as the rules they build), as a set of (rule, part)
    pairs any one of which shows it: a `?rule` collapses to its one child, so a part
    that is one is shown by anything it may collapse to. What the examples build: the
    (rule, part) pairs of the parse trees of docs/language.md's examples, fragments
    parsed after a header or inside an area.
    """
    from collections import defaultdict

    from lark import Token, Tree

    from questc.syntax.parser import quest_parser

    parser = quest_parser()
    expansions = defaultdict(list)
    for rule in parser.rules:
        expansions[str(rule.origin.name)].append(rule)

    def collapsing(name):  # a `?rule`: built only with more than one child
        return any(r.options.expand1 for r in expansions.get(name, ()))

    def parts(symbol, seen=()) -> list[frozenset]:
        """What may stand in a tree where `symbol` is written, as groups of alternatives."""
        name = symbol.name
        if name in seen:
            return []
        if symbol.is_term:
            return [] if symbol.filter_out or name.startswith("_") else [frozenset({name})]
        rules = expansions[name]
        if name.startswith("_"):  # inlined: its parts stand in its place
            return [group for rule in rules for each in rule.expansion for group in parts(each, seen + (name,))]
        if all(r.alias for r in rules):  # only ever built as its aliases: each one must be shown
            return [frozenset({str(r.alias)}) for r in rules]
        if collapsing(name):
            group = {name}
            for rule in rules:
                if len(rule.expansion) == 1 and not rule.alias:
                    for inner in parts(rule.expansion[0], seen + (name,)):
                        group |= inner
            return [frozenset(group)]
        return [frozenset({name})]

    possible = set()
    for name, rules in expansions.items():
        if name.startswith("_"):
            continue
        for rule in rules:
            if rule.options.expand1 and len(rule.expansion) == 1 and not rule.alias:
                continue  # never built with one child: the child stands in its place
            built = str(rule.alias or name)
            for symbol in rule.expansion:
                possible |= {frozenset((built, part) for part in group) for group in parts(symbol)}
    blocks, header = _reference_examples()
    shown = set()
    for block in blocks:
        for source in (block, header + block, header + "area Z {\n" + block + "}\n"):
            try:
                tree = parser.parse(source)
            except Exception:  # noqa: BLE001 - not this way round: try the next wrapping
                continue
            for node in tree.iter_subtrees():
                for child in node.children:
                    if isinstance(child, Tree):
                        shown.add((str(node.data), str(child.data)))
                    elif isinstance(child, Token):
                        shown.add((str(node.data), child.type))
            break
    return possible, shown


# Only reached when a string never closes: the grammar accepts them so that Q002 is reported once.
_ERROR_RECOVERY = {("string", "UNCLOSED_STRING"), ("string", "UNCLOSED_LONG_STRING")}


def test_language_reference_examples_build_every_construct_of_the_grammar():
    """Every rule of the grammar, with each of its optional and alternative parts, is built by
    some example of docs/language.md: a construct the grammar accepts is documented with an example."""
    possible, shown = _grammar_coverage()
    assert len(possible) > 150
    missing = sorted(sorted(group) for group in possible if not group & shown and not group <= _ERROR_RECOVERY)
    assert missing == [], "docs/language.md has no example of: " + "; ".join(
        " or ".join(f"{rule} with {part}" for rule, part in group) for group in missing
    )


def test_language_reference_shows_what_the_lexer_skips():
    """The grammar's %ignore patterns (spaces and tabs, a backslash that continues a line) and
    its comments: each occurs in an example, and the line continuation is explained."""
    from questc.syntax.parser import quest_parser

    parser = quest_parser()
    blocks, _ = _reference_examples()
    examples = "".join(blocks)
    ignored = [parser.get_terminal(name).pattern.to_regexp() for name in parser.lexer_conf.ignore]
    assert len(ignored) == 2
    for pattern in ignored:
        assert re.search(pattern, examples), f"no example of docs/language.md has {pattern!r}"
    comment = re.search(r"^COMMENT: /(.*)/$", GRAMMAR.read_text(encoding="utf-8"), flags=re.M).group(1)
    assert re.search(comment, examples)
    prose = (DOCS / "language.md").read_text(encoding="utf-8")
    assert re.search(r"backslash[^.]*(end of (a|the) line|line's end)", prose), "explain the `\\` continuation"


def test_grammar_coverage_notices_a_missing_example(monkeypatch):
    """The check itself: the examples of a reference without its door section build no door_between."""
    text = (DOCS / "language.md").read_text(encoding="utf-8")
    crippled = re.sub(r"door \w+ (?:\"[^\"\n]*\" )?between[^\n]*\n", "", text)
    real = Path.read_text

    def read_text(self, *args, **kwargs):
        return crippled if self.name == "language.md" else real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "read_text", read_text)
    possible, shown = _grammar_coverage()
    assert frozenset({("door_between", "NAME")}) in possible and ("door_between", "NAME") not in shown


# ---- the diagnostics reference is generated ---------------------------------------------


def _generator():
    spec = importlib.util.spec_from_file_location("gen_diagnostics", DOCS / "gen_diagnostics.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_diagnostics_reference_is_up_to_date():
    expected = _generator().render()
    actual = (DOCS / "diagnostics.md").read_text(encoding="utf-8")
    assert actual == expected, "docs/diagnostics.md is stale: run `python docs/gen_diagnostics.py`"


def test_diagnostics_reference_has_every_code_page():
    from questc.rules import descriptors

    text = _generator().render()
    for code, descriptor in descriptors().items():
        assert f'<a id="{code.lower()}"></a>' in text
        assert descriptor.page().split("\n")[0] in text


@pytest.mark.parametrize("path", QUESTS, ids=lambda p: p.name)
def test_example_quest_is_in_the_canonical_layout(path):
    """`questc fmt --check quests` would change nothing: the examples show the house style."""
    from questc.fmt import format_source

    source = path.read_text(encoding="utf-8")
    formatted = format_source(source, str(path))
    assert formatted.output is not None and not formatted.changed, "run `questc fmt quests`"


# ---- the JSON reference covers the schema ------------------------------------------------


def _schema_keys(node, found: set[str]) -> None:
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            found.add(key)
            _schema_keys(value, found)
        for key, value in node.items():
            if key != "properties":
                _schema_keys(value, found)
    elif isinstance(node, list):
        for value in node:
            _schema_keys(value, found)


def _schema_property_names() -> list[str]:
    import json

    path = ROOT / "schemas" / "quest.schema.json"
    if not path.exists():
        return []
    found: set[str] = set()
    _schema_keys(json.loads(path.read_text(encoding="utf-8")), found)
    return sorted(found)


@pytest.mark.parametrize("key", _schema_property_names())
def test_json_reference_names_every_key_of_the_schema(key):
    code = _code_text((DOCS / "json-format.md").read_text(encoding="utf-8"))
    assert re.search(rf"(?<![A-Za-z0-9_]){re.escape(key)}(?![A-Za-z0-9_])", code), (
        f"docs/json-format.md never mentions the key `{key}` of schemas/quest.schema.json"
    )
