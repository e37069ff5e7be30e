"""Every syntax feature of LANGUAGE.md §2-§8 parses with no diagnostic into the right nodes,
each with exactly the right span (1-based lines and columns, end column exclusive)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from conftest import SHARED
from helpers import span_text, where

from questc.diagnostics.core import Span
from questc.syntax import nodes as n
from questc.syntax import parse_source

FIXTURES = Path(__file__).parent / "fixtures" / "syntax"
FEATURES = FIXTURES / "features"
SPEC = SHARED / "spec" / "LANGUAGE.md"


def load(name: str):
    """Parse a feature fixture; it must give no diagnostic. Returns (text, QuestFile)."""
    path = FEATURES / name if not name.startswith("/") else Path(name)
    text = path.read_text(encoding="utf-8")
    result = parse_source(text, str(path))
    assert result.diagnostics == (), [d.message for d in result.diagnostics]
    assert result.tree is not None
    return text, result.tree


def spans_of(value, path="tree"):
    """Every (path, Span) inside a node, depth first, parents before children."""
    if isinstance(value, Span):
        yield path, value
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from spans_of(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, tuple):
        for i, item in enumerate(value):
            yield from spans_of(item, f"{path}[{i}]")


ALL = sorted(p.name for p in FEATURES.glob("*.quest"))


def test_there_is_a_fixture_per_feature():
    assert set(ALL) >= {
        "header_full.quest",
        "separators.quest",
        "comments.quest",
        "pieces.quest",
        "doors.quest",
        "areas.quest",
        "monsters.quest",
        "named.quest",
        "effects.quest",
        "triggers.quest",
        "chests.quest",
        "overlord.quest",
        "victory.quest",
    }


@pytest.mark.parametrize("name", ALL + ["../language_example.quest"])
def test_every_span_agrees_with_its_offsets_and_nests(name):
    """Lines/columns and offsets of every span say the same, and children lie inside their node."""
    text, tree = load(name)
    for path, span in spans_of(tree):
        covered = span_text(text, span)
        if path == "tree.span":  # the file: all of it, comments and line breaks around the items too
            assert (span.start, span.end) == (0, len(text))
            continue
        assert covered == covered.strip(), f"{path} starts or ends with white space: {covered!r}"
        assert span.file == str(FEATURES / name)
    for item in ([tree.header] if tree.header else []) + list(tree.items):
        outer = item.span
        for path, span in spans_of(item):
            assert outer.start <= span.start <= span.end <= outer.end, f"{path} is outside its statement"


# ---- §1 the whole example ------------------------------------------------------


def test_language_example_is_the_spec_one_and_parses_clean():
    text, tree = load(str(FIXTURES / "language_example.quest"))
    if SPEC.exists():
        spec = SPEC.read_text(encoding="utf-8")
        example = re.search(r"## 1\. A whole quest first\n\n```\n(.*?)```", spec, re.S).group(1)
        assert text == example, "the fixture is no longer LANGUAGE.md §1's example"
    assert tree.header.title.value == "The Drowned Reliquary"
    assert [type(i).__name__ for i in tree.items] == (
        ["Piece"] * 5 + ["Door"] * 2 + ["Area"] * 3 + ["NamedMonster", "ChestChart", "Trigger", "Victory", "Victory"]
    )
    b = tree.items[8]
    assert b.id.value == "B" and b.name.value == "Flooded Passage" and not b.start
    encounter = b.statements[-1]
    assert isinstance(encounter, n.Encounter)
    assert span_text(text, encounter.span).startswith("encounter well at 14,2 {")
    assert span_text(text, encounter.span).endswith("conquest +2\n  }")
    assert [type(e).__name__ for e in encounter.effects] == ["Read", "ConquestEffect"]
    assert tree.header.get("intro").value.value == "Cold water drips from the vaulted ceiling..."


# ---- §3 the header ----------------------------------------------------------------


def test_header_with_every_field():
    text, tree = load("header_full.quest")
    header = tree.header
    assert where(header.span) == (1, 1, 20, 2)
    assert span_text(text, header.span).startswith('quest "The') and span_text(text, header.span).endswith("}")
    assert header.title.value == 'The "Cold" Vault\\Crypt'
    assert where(header.title.span) == (1, 7, 1, 34) and not header.title.long
    assert [f.keyword for f in header.fields] == [
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
        "use",
    ]
    ident = header.get("id")
    assert where(ident.span) == (2, 3, 2, 16) and span_text(text, ident.span) == "id cold_vault"
    assert ident.value.value == "cold_vault" and where(ident.value.span) == (2, 6, 2, 16)
    assert header.get("edition").value.value == "second"
    assert where(header.get("edition").value.span) == (3, 11, 3, 17)
    expansions = header.get("expansions").value
    assert [e.value for e in expansions] == ["base", "well_of_darkness", "tomb_of_ice"]
    assert [where(e.span) for e in expansions] == [(4, 14, 4, 18), (4, 20, 4, 36), (4, 38, 4, 49)]
    players = header.get("players").value
    assert (players.low, players.high) == (3, 4) and where(players.span) == (5, 11, 5, 15)
    assert header.get("conquest").value == 7 and where(header.get("conquest").span) == (6, 3, 6, 13)
    parts = header.get("treachery").value
    assert [(p.colour.value, p.amount) for p in parts] == [("event", 3), ("trap", 4), ("monster", 2)]
    assert [span_text(text, p.span) for p in parts] == ["event 3", "trap 4", "monster 2"]
    assert where(parts[2].span) == (7, 30, 7, 39) and where(parts[2].colour.span) == (7, 30, 7, 37)
    assert header.get("reveal").value.value == "door"
    author = header.get("author").value
    assert author.value == "A. Writer\nand a friend" and not author.long
    assert where(author.span) == (9, 10, 9, 35)
    assert header.get("version").value.value == "1.2"


def test_header_long_strings_dedent_and_escapes():
    text, tree = load("header_full.quest")
    intro = tree.header.get("intro")
    # Common indentation and the line breaks next to the quotes go; inner indentation,
    # blank lines and quotes stay; `\t` is no escape of the language, so it stays as written.
    assert intro.value.value == 'Cold water drips.\n  An indented line.\n\nA "quoted" word and a tab\\there.'
    assert intro.value.long
    assert where(intro.span) == (11, 3, 16, 6)
    assert where(intro.value.span) == (11, 9, 16, 6)
    assert (
        span_text(text, intro.value.span).startswith('"""\n    Cold')
        and text[intro.value.span.end - 3 : intro.value.span.end] == '"""'
    )
    special = tree.header.get("special")
    assert special.value.value == "One line, triple-quoted." and special.value.long
    assert where(special.value.span) == (17, 11, 17, 41)
    uses = tree.header.all("use")
    assert [u.value.value for u in uses] == ["packs/crypt.yaml", "packs/more.yaml"]
    assert [where(u.span) for u in uses] == [(18, 3, 18, 25), (19, 3, 19, 24)]


@pytest.mark.parametrize(
    "written, value",
    [
        ('"""\n    Line one\\nstill\n    two\n  """', "Line one\nstill\ntwo"),  # escape after the dedent
        ('"""x\\"y"""', 'x"y'),
        ('"""\n  a\n    b\n"""', "a\n  b"),
        ('"""\r\n    crlf\r\n    lines\r\n  """', "crlf\nlines"),
        ('"a\\"b\\\\c\\nd"', 'a"b\\c\nd'),
        ('"\\t stays"', "\\t stays"),
        ('""', ""),
    ],
)
def test_string_values(written, value):
    text = f"quest {written} {{ conquest 3 }}\n"
    result = parse_source(text)
    assert result.diagnostics == ()
    title = result.tree.header.title
    assert title.value == value
    assert span_text(text, title.span).replace("\r\n", "\n") == written.replace("\r\n", "\n")


def test_crlf_and_byte_order_mark_give_the_same_lines_and_columns():
    text = (FEATURES / "areas.quest").read_text(encoding="utf-8")
    plain = parse_source(text).tree
    for variant in (text.replace("\n", "\r\n"), "\ufeff" + text):
        result = parse_source(variant)
        assert result.diagnostics == ()
        assert [where(s) for _, s in spans_of(result.tree)] == [where(s) for _, s in spans_of(plain)]


# ---- §2 separators and comments ------------------------------------------------------


def test_semicolons_and_one_line_blocks():
    text, tree = load("separators.quest")
    header = tree.header
    assert where(header.span) == (1, 1, 1, 45)
    assert [span_text(text, f.span) for f in header.fields] == ["id q", "conquest 3", "players 2..5"]
    r1, r2 = tree.of(n.Piece)
    assert (r1.id.value, r2.id.value) == ("R1", "R2")
    assert where(r1.span) == (2, 1, 2, 25) and where(r2.span) == (2, 27, 2, 51)
    hall, b = tree.of(n.Area)
    assert where(hall.span) == (3, 1, 3, 55)
    assert [span_text(text, s.span) for s in hall.statements] == ["pieces R1", "glyph at 0,0 active"]
    assert hall.statements[1].active and where(hall.statements[1].span) == (3, 34, 3, 53)
    # `; ;` is an empty statement, not an error.
    assert [span_text(text, s.span) for s in b.statements] == ["pieces R2", "monster beastman at 5,1"]
    (trigger,) = tree.of(n.Trigger)
    assert [span_text(text, e.span) for e in trigger.effects] == ["threat 1", "conquest -1"]
    assert trigger.effects[1].amount == -1
    (plan,) = tree.of(n.OverlordPlan)
    assert [(c.name.value, c.copies) for c in plan.cards] == [("Danger", 2)]
    assert [g.name.value for g in plan.glyphs] == ["power"]
    first, second = tree.of(n.Victory)
    assert where(first.span) == (8, 1, 8, 31) and where(second.span) == (8, 33, 8, 65)
    assert (second.when.counter, second.when.op, second.when.value) == ("conquest", "<=", 0)


def test_comments_everywhere():
    text = (FEATURES / "comments.quest").read_text(encoding="utf-8")
    result = parse_source(text, "comments.quest")
    assert result.diagnostics == ()
    tree = result.tree
    assert tree.header.get("conquest").value == 3 and where(tree.header.span) == (2, 1, 5, 2)
    assert [type(i).__name__ for i in tree.items] == ["Piece", "Area", "ChestChart", "Victory"]
    area = tree.items[1]
    assert [type(s).__name__ for s in area.statements] == ["Pieces", "Glyph", "Encounter"]
    read = area.statements[2].effects[0]
    assert read.text.value == "a # is not a comment in a string"
    assert span_text(text, read.span) == 'read "a # is not a comment in a string"'
    # Every comment is kept, with its span, for the formatter; none is inside a string.
    comments = result.comments
    assert len(comments) == 15
    for span, comment in comments:
        assert span_text(text, span) == comment and comment.startswith("#")
    assert where(comments[0][0]) == (1, 1, 1, 30)
    assert comments[-1][1] == "# the very last line"
    assert "# but this is" in [c for _, c in comments]
    assert not any("is not a comment" in c for _, c in comments)


# ---- §4 the map ------------------------------------------------------------------


def test_pieces_with_every_turn():
    text, tree = load("pieces.quest")
    pieces = tree.of(n.Piece)
    assert [(p.id.value, p.type.value, p.at.x, p.at.y, p.turn) for p in pieces] == [
        ("R1", "room_6x6", 0, 0, 0),
        ("C1", "corridor_2x4", 6, 2, 0),
        ("C2", "corridor_2x4", 10, 2, 90),
        ("T1", "intersection_t", 14, 2, 180),
        ("E1", "dead_end", -2, -3, 270),
    ]
    t1 = pieces[3]
    assert where(t1.span) == (5, 1, 5, 41) and span_text(text, t1.span) == "piece T1 intersection_t at 14,2 turn 180"
    assert where(t1.id.span) == (5, 7, 5, 9)
    assert where(t1.type.span) == (5, 10, 5, 24)
    assert where(t1.at.span) == (5, 28, 5, 32) and t1.at.piece is None
    assert span_text(text, pieces[4].at.span) == "-2,-3"


def test_doors_both_forms_with_and_without_rune_and_stairs():
    text, tree = load("doors.quest")
    entry, vault, side, gate, back, low = tree.of(n.Door)
    assert [d.id.value for d in (entry, vault, side, gate, back, low)] == [
        "entry",
        "vault",
        "side",
        "gate",
        "back",
        "low",
    ]
    assert [b.value for b in entry.between] == ["R1", "C1"] and entry.rune is None and entry.at is None
    assert where(entry.span) == (2, 1, 2, 25)
    assert vault.rune.value == "red" and where(vault.rune.span) == (3, 31, 3, 34)
    assert [where(b.span) for b in vault.between] == [(3, 20, 3, 22), (3, 23, 3, 25)]
    assert side.between is None and (side.at.x, side.at.y, side.side.value, side.rune) == (3, 1, "east", None)
    assert where(side.side.span) == (4, 18, 4, 22)
    assert (gate.at.x, gate.at.y, gate.side.value, gate.rune.value) == (12, 5, "south", "yellow")
    assert where(gate.span) == (5, 1, 5, 36) and span_text(text, gate.span) == "door gate at 12,5 south rune yellow"
    assert (back.side.value, low.side.value, low.rune.value) == ("north", "west", "blue")
    green, purple = tree.of(n.Stairs)
    assert green.colour.value == "green" and [(e.x, e.y) for e in green.ends] == [(1, 1), (14, 9)]
    assert where(green.span) == (8, 1, 8, 25) and where(green.ends[1].span) == (8, 21, 8, 25)
    start, end = purple.ends
    assert (start.x, start.y, start.piece) == (-1, 0, None)
    assert (end.x, end.y, end.piece.value) == (1, 1, "R2")
    assert where(end.span) == (9, 23, 9, 29) and where(end.piece.span) == (9, 23, 9, 25)


# ---- §5 areas ---------------------------------------------------------------------


def test_areas_with_every_statement():
    text, tree = load("areas.quest")
    a, b, c = tree.of(n.Area)
    assert (a.id.value, a.name.value, a.start) == ("A", "Entry Hall", True)
    assert where(a.span) == (2, 1, 25, 2)
    assert (b.name, b.start, c.name.value, c.start, c.statements) == (None, False, "Unnamed start", False, ())
    assert where(c.span) == (29, 1, 29, 27)
    kinds = [type(s).__name__ for s in a.statements]
    assert kinds == [
        "Pieces",
        "Cells",
        "Read",
        "Note",
        "Glyph",
        "Glyph",
        "Monster",
        "PlaceNamed",
        "PlaceNamed",
        "Chest",
        "Obstacle",
        "Trap",
        "Trap",
        "Treasure",
        "Relic",
        "Runekey",
        "Encounter",
    ]
    (
        pieces,
        cells,
        read,
        note,
        glyph,
        glyph2,
        monster,
        named,
        named2,
        chest,
        obstacle,
        trap,
        trap2,
        treasure,
        relic,
        runekey,
        encounter,
    ) = a.statements
    assert [p.value for p in pieces.pieces] == ["R1", "C1", "T1"]
    assert [where(p.span) for p in pieces.pieces] == [(3, 10, 3, 12), (3, 14, 3, 16), (3, 18, 3, 20)]
    # cells: a rectangle, a cell, a cell on a piece.
    rect, cell, relative = cells.cells
    assert (rect.x1, rect.y1, rect.x2, rect.y2, rect.is_rect) == (0, 0, 3, 5, True)
    assert where(rect.span) == (4, 9, 4, 17)
    assert (cell.x1, cell.y1, cell.x2, cell.y2, cell.is_rect, cell.piece) == (4, 4, 4, 4, False, None)
    assert (relative.x1, relative.y1, relative.piece.value) == (1, 2, "R2")
    assert where(relative.span) == (4, 22, 4, 28) and where(relative.piece.span) == (4, 22, 4, 24)
    assert read.text.value == "Dust everywhere." and read.text.long and where(read.span) == (5, 3, 7, 6)
    assert note.text.value == "The overlord knows." and where(note.span) == (8, 3, 8, 29)
    assert glyph.active and (glyph.at.x, glyph.at.y) == (1, 1) and where(glyph.span) == (9, 3, 9, 22)
    assert not glyph2.active and glyph2.at.piece.value == "R1" and (glyph2.at.x, glyph2.at.y) == (2, 3)
    assert span_text(text, monster.span) == "monster beastman at 4,1 4,2"
    assert [(p.x, p.y) for p in monster.at] == [(4, 1), (4, 2)]
    assert (named.id.value, named.at.x, named.at.y, named.facing.value) == ("narthak", 12, 8, "east")
    assert where(named.facing.span) == (12, 32, 12, 36)
    assert named2.facing is None and named2.at.piece.value == "R1"
    assert chest.kind.value == "copper" and [(p.x, p.y) for p in chest.at] == [(1, 2), (2, 2)]
    assert obstacle.kind.value == "rubble"
    assert [(s.x1, s.y1, s.x2, s.y2) for s in obstacle.at] == [(2, 3, 2, 3), (2, 4, 3, 5), (0, 1, 0, 1)]
    assert [span_text(text, s.span) for s in obstacle.at] == ["2,3", "2,4..3,5", "R1:0,1"]
    assert obstacle.at[2].piece.value == "R1"
    assert (trap.kind.value, len(trap.at), trap.facing.value) == ("dart_field", 2, "north")
    assert where(trap.span) == (16, 3, 16, 42)
    assert (trap2.kind.value, trap2.facing) == ("pit", None)
    assert treasure.kind.value == "healing" and len(treasure.at) == 2
    assert (relic.name.value, relic.at.x, relic.at.y) == ("ancient_crown", 5, 5)
    assert (runekey.colour.value, runekey.at.x, runekey.at.y) == ("red", 16, 3)
    assert where(runekey.span) == (20, 3, 20, 22)
    assert encounter.id.value == "well" and (encounter.at.x, encounter.at.y) == (14, 2)
    assert where(encounter.span) == (21, 3, 24, 4)
    assert [span_text(text, e.span) for e in encounter.effects] == ['read "A rope."', "conquest +2"]


def test_monsters_master_facing_players():
    text, tree = load("monsters.quest")
    plain, master, facing, everything = tree.of(n.Area)[0].statements
    assert (plain.master, plain.facing, plain.players) == (False, None, None)
    assert where(plain.span) == (3, 3, 3, 26) and where(plain.type.span) == (3, 11, 3, 19)
    assert master.master and (master.players.low, master.players.high) == (4, 5)
    assert where(master.players.span) == (4, 42, 4, 46) and where(master.span) == (4, 3, 4, 46)
    assert facing.facing.value == "south" and len(facing.at) == 2 and facing.players is None
    assert span_text(text, facing.facing.span) == "south"
    assert everything.master and everything.type.value == "dragon"
    assert everything.at[0].piece.value == "R1" and everything.facing.value == "west"
    assert (everything.players.low, everything.players.high) == (3, 3)
    assert span_text(text, everything.players.span) == "3"
    assert span_text(text, everything.span) == "monster dragon master at R1:1,1 facing west players 3"


# ---- §6 named monsters ----------------------------------------------------------


def test_named_monster_definitions():
    text, tree = load("named.quest")
    narthak, quiet, short = tree.of(n.NamedMonster)
    assert (narthak.id.value, narthak.display.value, narthak.type.value) == ("narthak", 'Narthak the "Giant"', "giant")
    assert where(narthak.span) == (2, 1, 9, 2)
    assert where(narthak.display.span) == (2, 15, 2, 38)
    assert [(c.stat, c.value, c.relative) for c in narthak.changes] == [
        ("wounds", 10, True),
        ("armor", 3, False),
        ("speed", -1, True),
        ("damage", 2, True),
    ]
    assert [span_text(text, c.span) for c in narthak.changes] == ["wounds +10", "armor 3", "speed -1", "damage +2"]
    assert [(a.name.value, a.rank) for a in narthak.abilities] == [("command", None), ("fear", 1), ("knockback", None)]
    assert [span_text(text, a.span) for a in narthak.abilities] == ["command", "fear 1", "knockback"]
    assert where(narthak.abilities[1].span) == (7, 22, 7, 28)
    assert narthak.conquest == 3
    assert (quiet.changes, quiet.abilities, quiet.conquest) == ((), (), None)
    assert [(c.stat, c.value, c.relative) for c in short.changes] == [("wounds", 4, False)]
    assert short.conquest == 1 and where(short.span) == (11, 1, 11, 52)


# ---- §7 effects, triggers, chests -------------------------------------------------


def test_every_effect():
    text, tree = load("effects.quest")
    (encounter,) = tree.of(n.Area)[0].statements
    effects = encounter.effects
    assert [type(e).__name__ for e in effects] == [
        "Read",
        "ConquestEffect",
        "ConquestEffect",
        "ConquestEffect",
        "CoinsEffect",
        "TreasureEffect",
        "TreasureEffect",
        "ThreatEffect",
        "SpawnEffect",
        "SpawnEffect",
        "DoorEffect",
        "DoorEffect",
        "UnlockEffect",
        "RevealEffect",
        "WinEffect",
        "WinEffect",
        "InstructEffect",
    ]
    (
        read,
        gain,
        lose,
        plain,
        coins,
        copper,
        gold,
        threat,
        spawn,
        spawn_master,
        open_,
        close,
        unlock,
        reveal,
        win_heroes,
        win_overlord,
        instruct,
    ) = effects
    assert read.text.value == "Text\\twith an escape"
    assert (gain.amount, lose.amount, plain.amount) == (2, -3, 4)
    assert where(lose.span) == (6, 5, 6, 16)
    assert coins.amount == 100
    assert (copper.kind.value, copper.count, gold.kind.value, gold.count) == ("copper", 1, "gold", 2)
    assert where(gold.span) == (10, 5, 10, 20)
    assert threat.amount == 5
    assert (spawn.type.value, spawn.master, [(p.x, p.y) for p in spawn.at]) == ("skeleton", False, [(1, 2), (2, 2)])
    assert spawn.at[1].piece.value == "R1" and where(spawn.at[1].span) == (12, 27, 12, 33)
    assert spawn_master.master and span_text(text, spawn_master.span) == "spawn skeleton master at 3,3"
    assert (open_.action, open_.door.value, close.action, close.door.value) == ("open", "vault", "close", "entry")
    assert where(open_.door.span) == (14, 10, 14, 15)
    assert unlock.colour.value == "red" and reveal.area.value == "B"
    assert (win_heroes.side.value, win_overlord.side.value) == ("heroes", "overlord")
    assert instruct.text.value == "Shuffle the deck." and where(instruct.span) == (20, 5, 20, 33)


def test_every_trigger_kind():
    text, tree = load("triggers.quest")
    reveal, killed, opened, empty, round_ = tree.of(n.Trigger)
    assert (reveal.event, reveal.target.value, reveal.round) == ("reveal", "C", None)
    assert where(reveal.span) == (2, 1, 4, 2) and where(reveal.target.span) == (2, 11, 2, 12)
    assert [type(e).__name__ for e in reveal.effects] == ["Read"]
    assert (killed.event, killed.target.value) == ("killed", "narthak")
    assert span_text(text, killed.span) == "on killed narthak { win heroes }"
    assert (opened.event, opened.target.value) == ("open", "vault")
    assert opened.effects[0].master and opened.effects[0].type.value == "beastman"
    assert (empty.event, empty.target, empty.round, empty.effects) == ("round", None, 3, ())
    assert (round_.round, len(round_.effects)) == (10, 1) and where(round_.span) == (11, 1, 11, 25)


def test_chest_chart_with_every_content_kind():
    text, tree = load("chests.quest")
    chart, empty = tree.of(n.ChestChart)
    assert empty.rows == () and where(empty.span) == (7, 1, 7, 11)
    copper, silver, gold = chart.rows
    assert (copper.kind.value, copper.number) == ("copper", 1)
    assert [(c.kind, c.amount) for c in copper.contents] == [("coins", 50), ("conquest", 1)]
    assert where(copper.span) == (3, 3, 3, 33)
    assert [(c.kind, c.amount) for c in silver.contents] == [("silver", 1), ("curse", 1)]
    assert [(c.kind, c.amount, c.name.value if c.name else None) for c in gold.contents] == [
        ("gold", 2, "gold"),
        ("conquest", 4, None),
        ("curse", 2, "curse"),
        ("feat", 1, "feat"),
        ("feat", 3, "feat"),
        ("potion", 1, "vitality"),
        ("copper", 1, "copper"),
    ]
    assert [span_text(text, c.span) for c in gold.contents] == [
        "gold 2",
        "conquest 4",
        "curse 2",
        "feat",
        "feat 3",
        "potion vitality",
        "copper",
    ]
    assert where(gold.contents[5].span) == (5, 54, 5, 69)
    assert where(gold.contents[5].name.span) == (5, 61, 5, 69)


# ---- §7b the deck plan --------------------------------------------------------------


def test_overlord_deck_plan():
    text, tree = load("overlord.quest")
    (plan,) = tree.of(n.OverlordPlan)
    assert where(plan.span) == (2, 1, 8, 2)
    assert [(c.name.value, c.copies) for c in plan.cards] == [("Rolling Stone", 1), ("Danger", 2), ('Trap "Pit"', 12)]
    assert [span_text(text, c.span) for c in plan.cards] == [
        'card "Rolling Stone"',
        'card "Danger" x2',
        'card "Trap \\"Pit\\"" x12',
    ]
    assert where(plan.cards[1].name.span) == (4, 8, 4, 16)
    assert [g.name.value for g in plan.glyphs] == ["summoning", "sundered"]
    assert where(plan.glyphs[0].span) == (6, 3, 6, 23) and where(plan.glyphs[0].name.span) == (6, 14, 6, 23)


# ---- §8 victory ----------------------------------------------------------------------


def test_victory_conditions():
    text, tree = load("victory.quest")
    slay, zero, both, mixed, slow, nots, compare = tree.of(n.Victory)
    assert (slay.side.value, slay.label.value) == ("heroes", "Slay Narthak")
    assert where(slay.label.span) == (2, 16, 2, 30)
    assert isinstance(slay.when, n.EventCondition) and (slay.when.event, slay.when.target.value) == (
        "killed",
        "narthak",
    )
    assert where(slay.when.span) == (2, 36, 2, 50)
    # `conquest 0` is short for `conquest <= 0`.
    assert (zero.side.value, zero.label) == ("overlord", None)
    assert (zero.when.counter, zero.when.op, zero.when.value) == ("conquest", "<=", 0)
    assert where(zero.when.span) == (3, 23, 3, 33)
    assert isinstance(both.when, n.AllCondition)
    assert [(o.event, o.target.value) for o in both.when.operands] == [("revealed", "C"), ("triggered", "well")]
    assert span_text(text, both.when.span) == "revealed C and triggered well"
    # `and` binds tighter than `or`; `not` tighter than `and`; parentheses group.
    assert isinstance(mixed.when, n.AnyCondition)
    opened, rest = mixed.when.operands
    assert (opened.event, opened.target.value) == ("opened", "vault")
    assert isinstance(rest, n.AllCondition)
    negated, late = rest.operands
    assert isinstance(negated, n.NotCondition) and isinstance(negated.operand, n.AnyCondition)
    assert [o.target.value for o in negated.operand.operands] == ["a", "b"]
    assert span_text(text, negated.span) == "not (killed a or killed b)"
    assert span_text(text, negated.operand.span) == "killed a or killed b"  # the parentheses are not the node
    assert (late.counter, late.op, late.value) == ("round", ">=", 10)
    assert where(late.span) == (5, 68, 5, 79)
    assert isinstance(slow.when, n.AnyCondition) and slow.label.value == "Slow"
    assert [(o.counter, o.op, o.value) for o in slow.when.operands] == [
        ("round", ">", 12),
        ("conquest", "<", 3),
        ("conquest", "<=", 2),
    ]
    assert isinstance(nots.when, n.AllCondition)
    double, inner = nots.when.operands
    assert isinstance(double, n.NotCondition) and isinstance(double.operand, n.NotCondition)
    assert (double.operand.operand.op, double.operand.operand.value) == ("=", 1)
    assert where(double.span) == (7, 23, 7, 43) and where(double.operand.span) == (7, 27, 7, 43)
    assert (inner.counter, inner.op) == ("round", ">=") and span_text(text, inner.span) == "round >= 1"
    assert (compare.when.counter, compare.when.op, compare.when.value) == ("conquest", ">=", 20)
