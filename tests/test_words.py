"""Counting words: the helper, every message that counts at one and at many, and a sweep of every
message questc prints over every quest in the repository for "1 chests" and its kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import dedent

from questc.api import check_source
from questc.catalog.model import Count
from questc.diagnostics.core import Span
from questc.options import Options
from questc.words import noun, plural, plural_of, verb

REPO = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    "singular, expected",
    [
        ("chest", "chests"),
        ("gold chest", "gold chests"),
        ("copy", "copies"),
        ("day", "days"),
        ("box", "boxes"),
        ("dead end piece", "dead end pieces"),
        ("glyph", "glyphs"),
        ("floor cell", "floor cells"),
        ("match", "matches"),
        ("runekey", "runekeys"),
    ],
)
def test_plural_of(singular, expected):
    assert plural_of(singular) == expected


def test_plural_noun_and_verb():
    assert plural(1, "gold chest") == "1 gold chest"
    assert plural(2, "gold chest") == "2 gold chests"
    assert plural(0, "gold row") == "0 gold rows"
    assert plural(0, "gold row", zero="no") == "no gold rows"
    assert plural(1, "gold row", zero="no") == "1 gold row"
    assert plural(3, "foot", "feet") == "3 feet" and plural(1, "foot", "feet") == "1 foot"
    assert plural(12000, "cell") == "12,000 cells"
    assert noun(1, "row") == "row" and noun(5, "row") == "rows"
    assert verb(1) == "is" and verb(2) == "are" and verb(0) == "are"
    assert verb(1, "starts", "start") == "starts" and verb(3, "starts", "start") == "start"


# ---- each counting message, at one ----------------------------------------------------------------

HEAD = 'quest "Q" {\n  conquest 5\n}\n'


def codes_and_messages(source: str, *codes: str):
    result = check_source(dedent(source), "q.quest", Options(verbose=True))
    return result, [d for d in result.diagnostics if d.code in codes]


def test_q403_q404_q405_count_one_item_in_the_singular():
    from questc.catalog.owned import Held
    from questc.rules.components.counting import too_many
    from questc.rules.components.too_many_figures import Q403
    from questc.rules.components.too_many_map_pieces import Q404
    from questc.rules.components.too_many_markers import Q405

    span = Span("q.quest", 1, 1, 1, 2)

    def held(count: int, source: str = "rulebook") -> Held:
        return Held(Count(count, source), "base", None, "`x = N`")

    d = too_many(Q403, held(0), [(span, 1)], "another", "master golem figure", players="3")
    assert d.message == "1 master golem figure is on the map with 3 players, but the sets owned (base) hold 0"
    d = too_many(Q404, held(0), [(span, 1)], "another", "dead end piece", kind="dead end")
    assert d.message == "the map uses 1 dead end piece, but the sets owned (base) hold 0"
    assert d.help.startswith("replace 1 dead end piece with pieces of another kind")
    d = too_many(Q405, held(1), [(span, 1), (span, 1)], "one more", "relic marker")
    assert d.message == "the quest places 2 relic markers, but the sets owned (base) hold 1"
    d = too_many(Q405, held(1), [(span, 2)], "one more", "staircase marker")
    assert d.message == "the quest places 2 staircase markers, but the sets owned (base) hold 1"
    d = too_many(Q405, held(1, "estimate"), [(span, 2)], "one more", "runekey")
    assert d.message == "the quest places 2 runekeys, but the sets owned (base) hold an estimated 1"


def test_q404_one_piece_too_many_from_its_own_example():
    from questc.rules.components.too_many_map_pieces import Q404

    result = check_source(Q404.example.failing, "q.quest")
    (d,) = [d for d in result.diagnostics if d.code == "Q404"]
    assert d.message == "the map uses 11 room pieces, but the sets owned (base) hold 10"
    assert d.help.startswith("replace 1 room piece with pieces of another kind")


def test_q309_is_one_report_with_one_snippet():
    _, found = codes_and_messages(
        HEAD
        + """
        piece R1 room_4x4 at 0,0
        piece R2 room_4x4 at 4,0
        door d between R1 R2
        area A "Hall" start { pieces R1; glyph at 0,0 active }
        area B "Beyond" { pieces R2 }
        victory heroes when revealed B
    """.replace("\n        ", "\n"),
        "Q309",
    )
    (d,) = found
    assert d.message == "the areas are revealed in 2 waves: wave 0 A (Hall); wave 1 B (Beyond) from A"
    assert d.labels == () and d.span.line == 1
    _, (one,) = codes_and_messages(
        HEAD + "piece R1 room_4x4 at 0,0\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        "victory heroes when revealed A\n",
        "Q309",
    )
    assert one.message == "the areas are revealed in 1 wave: wave 0 A (Hall)"


def test_q309_prints_one_snippet_on_the_command_line(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.quest").write_text((REPO / "quests" / "chandlers_cellar.quest").read_text("utf-8"), "utf-8")
    out = CliRunner().invoke(cli, ["lint", "-v", "--select", "Q309", "q.quest"]).stdout
    assert out.count("info[Q309]") == 1
    assert out.count(' | quest "The Chandler') == 1


WALLED = (
    HEAD
    + """\
piece R1 room_4x4 at 0,0
piece R2 room_6x6 at 4,-1
door d between R1 R2
area A "Hall" start {
  pieces R1
  glyph at 0,0 active
}
area B "Store" {
  pieces R2
  obstacle rubble at 7,-1..7,4
  chest gold at 9,3
}
chests {
  gold 1: conquest 1
}
victory heroes when revealed B
"""
)


def test_q306_counts_every_lost_cell_and_says_which_are_reported_elsewhere():
    result, (d,) = codes_and_messages(WALLED, "Q306")
    # 8..9 x -1..4 is 12 cells behind the rubble; the chest's cell is one of them
    assert d.message == (
        "12 floor cells of area `B` can never be reached (the gold chest at 9,3 on one of them is reported on its own)"
    )
    assert [x.code for x in result.diagnostics if x.code == "Q302"] == ["Q302"]
    assert "9,3" in [x for x in result.diagnostics if x.code == "Q302"][0].message
    two = WALLED.replace("  chest gold at 9,3\n", "  chest gold at 9,3\n  relic crown at 8,0\n")
    _, (d,) = codes_and_messages(two, "Q306")
    assert d.message.endswith("(the relic at 8,0 and gold chest at 9,3 on 2 of them are reported on their own)")
    # no marker: just the count
    _, (d,) = codes_and_messages(
        WALLED.replace("  chest gold at 9,3\n", "").replace("chests {\n  gold 1: conquest 1\n}\n", ""), "Q306"
    )
    assert d.message == "12 floor cells of area `B` can never be reached"


def test_q306_one_cell_and_a_marker_alone_is_left_to_q302():
    one = WALLED.replace("obstacle rubble at 7,-1..7,4", "obstacle rubble at 8,2..8,4 9,2 9,4")
    result, found = codes_and_messages(one, "Q306", "Q302")
    # 9,3 is boxed in by rubble and the east wall (diagonals too): only the chest cell is lost, Q302 says so
    assert [d.code for d in found] == ["Q302"]
    no_chest = one.replace("  chest gold at 9,3\n", "").replace("chests {\n  gold 1: conquest 1\n}\n", "")
    _, (d,) = codes_and_messages(no_chest, "Q306")
    assert d.message == "1 floor cell of area `B` can never be reached"
    assert d.help == "clear a path to 9,3, or remove what walls it off"


# ---- the sweep -------------------------------------------------------------------------------------

_WRONG = [
    re.compile(r"(?<![0-9.,+-])\b1 (?!of\b)(?:[a-z]+ ){0,3}?(?:[a-z]*[^s\W]s|[a-z]+ies)\b(?! of\b)"),  # 1 chests
    re.compile(r"(?<![0-9.,+-])\b1 (?!of\b)(?:[a-z`]+ ){0,3}?(?:are|were|have|start)\b"),  # 1 ... are
    re.compile(r"(?<![0-9.,+-])\b(?:[2-9]|[1-9][0-9]+) (?:[a-z]+ ){0,2}?(?:is|was|has|starts)\b"),  # 2 ... is
]
# Singular words that end in s and may follow a 1 legitimately; an article means the number
# does not count what follows it ("weigh that against the 1 the map gives").
_SINGULAR_IN_S = {"less", "was", "is", "has", "its", "this", "across", "plus", "bonus", "status", "the", "a", "an"}


def _texts(d):
    yield d.message
    if d.help:
        yield d.help
    if d.label:
        yield d.label
    for label in d.labels:
        yield label.message


def _corpus():
    files = sorted((REPO / "quests").glob("*.quest")) + sorted((REPO / "tests" / "fixtures").rglob("*.quest"))
    files += sorted((REPO / "tests" / "corpus" / "acceptance").glob("*.quest"))
    sources = [(str(path), path.read_text(encoding="utf-8", errors="replace")) for path in files]
    from questc.rules import descriptors

    for code, entry in descriptors().items():
        sources.append((f"{code}-failing.quest", entry.example.failing))
        sources.append((f"{code}-fixed.quest", entry.example.fixed))
    return sources


@pytest.mark.slow
def test_no_message_counts_wrongly():
    """Every diagnostic questc gives on every quest in the repository (examples, fixtures, the
    acceptance cases, every code's examples): no `1 chests`, `1 ... are`, `2 ... is`."""
    wrong = []
    checked = 0
    for path, source in _corpus():
        result = check_source(source, path, Options(verbose=True))
        for d in result.all_diagnostics:
            for text in _texts(d):
                checked += 1
                for pattern in _WRONG:
                    for match in pattern.finditer(text):
                        words = set(match.group(0).split()[1:])
                        if not words & _SINGULAR_IN_S:
                            wrong.append(f"{path}: {d.code}: {text!r} ({match.group(0)!r})")
    assert checked > 500
    assert wrong == []


def test_hand_made_plurals_are_gone():
    """Counting goes through questc.words: no `'s' if n > 1` or `'' if n == 1 else 's'` left in the code."""
    idiom = re.compile(r"""['"]s['"] if |['"]['"] if [^\n]*== 1 else ['"]s['"]|'copy' if|"copy" if""")
    found = [
        f"{path.relative_to(REPO)}:{number}"
        for path in sorted((REPO / "questc").rglob("*.py"))
        if path.name != "words.py"
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1)
        if idiom.search(line)
    ]
    assert found == []


def test_one_plural_for_messages_and_sheets():
    """questc.words words every count, in messages and in the sheet's templates alike (their
    Jinja globals): no second plural rule in a template."""
    from questc.emit.sheet import environment
    from questc.paths import data_dir
    from questc.words import noun, plural

    assert plural(2, "beastman") == "2 beastmen" and noun(1, "beastman") == "beastman"
    assert noun(2, "hell hound") == "hell hounds" and noun(3, "dark glyph") == "dark glyphs"
    env = environment()
    assert env.globals["plural"] is plural and env.globals["noun"] is noun
    for template in (data_dir("templates") / "sheet").glob("*.j2"):
        assert "macro plural" not in template.read_text(encoding="utf-8"), template.name
    assert (
        env.from_string('{{ noun(2, "beastman") }}, {{ plural(1, "conquest token") }}').render()
        == "beastmen, 1 conquest token"
    )
