"""The second edition as a game of its own: its catalog set (tiles with real geometry, terrain,
monsters, tokens), its statements and victory conditions, its checks, its outputs and its guide.

The tile tests hold the catalog to tests/corpus/SECOND-EDITION-TILES.md (the repository's copy of
../shared/rules/SECOND-EDITION-TILES.md, the tile data it was transcribed from) and build every tile as a map: alone, and with an end cap on each of its
connections, at every turn.
"""

from __future__ import annotations

import json
import re
from collections import Counter

import pytest
from conftest import REPO, TILES_DATA
from helpers import assert_codes, compile_file, render, span_text

from questc.api import check_file, check_source
from questc.catalog import builtin_catalog
from questc.catalog.shapes import SIDES
from questc.diagnostics import Severity
from questc.options import Options
from questc.rules.second_examples import HEAD, MAP, second

CATALOG = builtin_catalog()
SECOND = sorted(name for name, piece in CATALOG.pieces.items() if piece.set == "second_edition")
TILES_DOC = TILES_DATA  # the repository's copy of ../shared/rules/SECOND-EDITION-TILES.md
# The data's names for the pieces that are not numbered tiles.
DOC_NAMES = {
    "endcap1A": "end_cap",
    "entrance1A": "entrance",
    "exit1A": "exit",
    "extender1A": "extender",
    "transition1A": "transition",
}
QUESTS = REPO / "quests"
OPPOSITE = {side: SIDES[(i + 2) % 4] for i, side in enumerate(SIDES)}


# Tiles the catalog takes from the tile data's later version, where the published maps show the
# earlier one wrong (cards/second_edition.yaml says why): the later rows, as the data writes them
# (GAIGResearch/TabletopGames, data/descent2e/tiles.json at 7f41dae14).
REVISED = {
    "tile_4b": (36, ["###oo###", "#pppp.p#", "#......#", "o......#", "o......#", "#......#", "#......#", "########"]),
}


def doc_tiles() -> dict[str, tuple[int, list[str]]]:
    """Catalog piece name -> (the spaces the data counts, its rows with the border ring)."""
    text = TILES_DOC.read_text(encoding="utf-8")
    found = {}
    for m in re.finditer(r"^## (\S+)\s+\(size (\d+) x (\d+), (\d+) spaces\)\s*\n\s*```\n(.*?)```", text, re.M | re.S):
        code, _w, _h, spaces, body = m.groups()
        name = DOC_NAMES.get(code, f"tile_{code.lower()}")
        found[name] = (int(spaces), body.strip("\n").split("\n"))
    return {**found, **REVISED}


# ---- the catalog ---------------------------------------------------------------------------


def test_the_set_holds_every_tile_both_sides_and_the_small_pieces():
    tiles = [f"tile_{n}{side}" for n in range(1, 31) for side in "ab" if n != 13] + [
        "tile_13a1",
        "tile_13a2",
        "tile_13b",
    ]
    assert sorted(tiles + ["end_cap", "extender", "transition", "entrance", "exit"]) == SECOND
    for name in tiles:
        piece = CATALOG.pieces[name]
        assert piece.kind == "tile" and piece.tile == name[5:].rstrip("12").upper(), name
    assert {CATALOG.pieces[n].kind for n in ("end_cap", "extender", "transition", "entrance", "exit")} == {
        "end_cap",
        "extender",
        "transition",
        "entrance",
        "exit",
    }
    info = CATALOG.sets["second_edition"]
    assert info.edition == "second" and info.totals["map_pieces"].count == 48
    # 30 numbered tiles and an estimated split of the other 18 pieces.
    assert 30 + sum(c.count for c in info.pieces.values()) == 48
    assert all(c.source == "estimate" for c in info.pieces.values())


@pytest.mark.parametrize("name", SECOND)
def test_tile_matches_the_data_cell_for_cell(name):
    """Spaces, terrain and connections are the data's: the ring dropped, each connection an opening."""
    spaces, rows = doc_tiles()[name]
    piece = CATALOG.pieces[name]
    assert len(piece.cells) == spaces
    marks = {"~": "water", "p": "pit", "L": "lava", "X": "blocked"}
    inner = {(x - 1, y - 1): ch for y, row in enumerate(rows) for x, ch in enumerate(row) if ch not in "#o"}
    assert set(inner) == set(piece.cells)
    terrain = {(cell, kind) for kind, cells in piece.terrain.items() for cell in cells}
    assert terrain == {(cell, marks[ch]) for cell, ch in inner.items() if ch in marks}
    # Each connection cell lies just outside an opening of the piece.
    connections = {(x - 1, y - 1) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch == "o"}
    outside = {cell for opening in piece.openings for cell in opening.outside()}
    assert outside == connections and len(piece.openings) * 2 == len(connections)
    assert not any(o.end for o in piece.openings)


def test_doubtful_layouts_are_marked_estimates_with_a_reason():
    doubted = {n for n in SECOND if CATALOG.pieces[n].source == "estimate"}
    assert {"tile_4a", "tile_4b", "tile_13a1", "tile_13a2", "end_cap", "entrance", "exit"} == doubted
    assert all(CATALOG.pieces[n].note for n in doubted)


def test_monsters_tokens_and_terrain_are_the_rule_book_s():
    monsters = {
        n: (m.footprint, m.normal.count, m.master.count)
        for n, m in CATALOG.monsters.items()
        if m.set == "second_edition"
    }
    assert monsters == {
        "zombie": ((1, 1), 4, 1),
        "goblin_archer": ((1, 1), 4, 1),
        "cave_spider": ((1, 1), 4, 1),
        "flesh_moulder": ((1, 1), 3, 1),
        "barghest": ((1, 2), 3, 1),
        "ettin": ((2, 2), 1, 1),
        "elemental": ((2, 2), 1, 1),
        "merriod": ((2, 2), 1, 1),
        "shadow_dragon": ((2, 3), 1, 1),
    }
    assert sum(n + m for _f, n, m in monsters.values()) == 31
    owned = {
        kind: CATALOG.markers_owned(kind, ["second_edition"]).count
        for kind in ("search", "objective", "villager", "lieutenant", "door")
    }
    assert owned == {"search": 9, "objective": 10, "villager": 8, "lieutenant": 6, "door": 7}
    assert len(CATALOG.markers["lieutenant"].variants) == 6
    water, blocked = CATALOG.terrain["water"], CATALOG.terrain["blocked"]
    assert (water.blocks_movement, water.blocks_sight, water.movement_cost) == (False, False, 2)
    assert (blocked.blocks_movement, blocked.blocks_sight) == (True, True)
    assert CATALOG.terrain["pit"].sight_rule == "pit" and not CATALOG.terrain["lava"].blocks_movement


def test_a_pack_s_shape_with_an_unknown_terrain_mark_is_refused(tmp_path):
    (tmp_path / "pyproject.toml").write_text("", encoding="utf-8")
    (tmp_path / "pack.yaml").write_text(
        "set: mine\npieces:\n  odd:\n    kind: room\n    shape: [oq, oo]\n    openings: []\n", encoding="utf-8"
    )
    source = (
        'quest "Q" {\n  expansions base, mine\n  conquest 3\n  use "pack.yaml"\n}\n'
        "piece R1 room_4x4 at 0,0\narea A start { pieces R1; glyph at 0,0 active }\nvictory heroes when revealed A\n"
    )
    result = check_source(source, str(tmp_path / "q.quest"))
    (d,) = [d for d in result.diagnostics if d.code == "Q106"]
    assert "`q` is no terrain mark" in d.message and "`~` water" in d.message


def test_catalog_pieces_draws_the_tiles_with_their_terrain():
    from questc.catalog.draw import catalog_listing

    text = catalog_listing(CATALOG, "pieces")
    assert "tile_12b: tile 12B, second_edition, 5x5\n" in text
    assert "o o L L o >" in text and "edge spaces: 0,1 1,1" in text
    assert "terrain: X blocked, L lava, p pit, ~ water" in text
    rows = {row["name"]: row for row in json.loads(catalog_listing(CATALOG, "pieces", as_json=True))["pieces"]}
    assert rows["tile_1a"]["tile"] == "1A" and len(rows["tile_1a"]["terrain"]["water"]) == 12
    assert rows["exit"]["edge"] == [[0, 1], [1, 1]] and "tile" not in rows["room_4x4"]


# ---- every tile makes a map ------------------------------------------------------------------


def tile_quest(name: str, turn: int, capped: bool) -> tuple[str, int]:
    """A second edition quest of one tile (turned), with an end cap on each connection when
    `capped`; and how many end caps it has."""
    piece = CATALOG.pieces[name]
    shape = piece.placed((0, 0), turn)
    lines = [f"piece T {name} at 0,0 turn {turn}"]
    caps = 0
    if capped:
        for opening in shape.openings:
            at = min(opening.outside())
            cap_turn = {"north": 0, "east": 90, "south": 180, "west": 270}[OPPOSITE[opening.side]]
            caps += 1
            lines.append(f"piece C{caps} end_cap at {at[0]},{at[1]} turn {cap_turn}")
    free = min(
        c for c in shape.cells if all(c not in cells for kind, cells in shape.terrain.items() if kind == "blocked")
    )
    pieces = ", ".join(["T"] + [f"C{i}" for i in range(1, caps + 1)])
    return (
        HEAD
        + "\n".join(lines)
        + f'\narea A "All" start {{\n  pieces {pieces}\n  start at {free[0]},{free[1]}\n}}\n'
        + "victory heroes when round > 1\n"
    ), caps


@pytest.mark.parametrize("turn", (0, 90, 180, 270))
@pytest.mark.parametrize("name", [n for n in SECOND if n != "end_cap"])
def test_every_tile_alone_and_capped_is_a_closed_map(name, turn):
    piece = CATALOG.pieces[name]
    for capped in (False, True):
        source, caps = tile_quest(name, turn, capped)
        result = check_source(source, f"{name}.quest")
        codes = {d.code for d in result.all_diagnostics}
        assert "Q202" not in codes and not result.errors, render(result)
        board = result.compiled.board
        assert len(board.cells) == len(piece.cells) + 2 * caps
        # Each cap meets its connection exactly: one joint apiece, nothing left open.
        assert len(board.joints) == caps and (not capped or caps == len(piece.openings))
        if capped:
            assert not result.compiled.quest_board.build.unjoined_openings


def test_an_end_cap_alone_is_a_map_too():
    source, _ = tile_quest("end_cap", 0, False)
    result = check_source(source, "cap.quest")
    assert not result.errors and len(result.compiled.board.cells) == 2


def test_the_two_parts_of_13a_join_as_the_notes_say():
    source = (
        HEAD + "piece P2 tile_13a2 at 0,1\npiece P1 tile_13a1 at 1,0\n"
        "area A start {\n  pieces P1, P2\n  start at 1,0\n}\nvictory heroes when round > 1\n"
    )
    result = check_source(source, "13a.quest")
    assert not result.errors, render(result)
    assert [(a, b) for a, b, _ in result.compiled.board.joints] == [("P2", "P1")]
    assert len(result.compiled.board.cells) == 26 == len(CATALOG.pieces["tile_13b"].cells)


# ---- terrain on the board --------------------------------------------------------------------


def test_terrain_is_on_the_board_with_second_edition_rules():
    # Tile 1B: blocked spaces in its third column; tile 12B: lava.
    source = second(
        map_="piece T tile_1b at 0,0\npiece In entrance at 3,-2 turn 180\n",
        pieces="T, In",
        win="victory heroes when round > 6\n",
    )
    result = check_source(source, "t.quest")
    assert not result.errors, render(result)
    board = result.compiled.board
    assert board.blocks_movement((2, 0)) and board.blocks_sight((2, 0))
    assert not board.can_step((1, 0), (2, 0))
    obstacles = [o for o in result.model.obstacles if o.piece == "T"]
    assert [(o.kind.name, o.area, len(o.cells)) for o in obstacles] == [("blocked", "A", 4)]
    water = check_source(
        second(
            map_="piece T tile_1a at 0,0\npiece In entrance at 3,-2 turn 180\n",
            pieces="T, In",
            win="victory heroes when round > 6\n",
        ),
        "w.quest",
    )
    board = water.compiled.board
    # Water costs 2 movement points but may be entered and seen across.
    assert board.can_step((2, 0), (1, 0)) and board.sees((7, 5), (0, 0), "second")
    assert (0, 0) in water.compiled.analysis.reached


# ---- the language ----------------------------------------------------------------------------


def test_tokens_lieutenants_and_start_points_reach_the_model():
    source = second(
        "  search at 0,0 1,0\n  objective at 2,0\n  objective blue at 3,0\n  villager at 0,3\n"
        "  lieutenant belthir at 3,3 facing north\n"
    )
    result = check_source(source, "q.quest")
    assert not result.errors, render(result)
    markers = [(m.kind, m.at, m.variant, m.facing) for m in result.model.markers]
    assert markers == [
        ("search", (0, 0), None, None),
        ("search", (1, 0), None, None),
        ("objective", (2, 0), None, None),
        ("objective", (3, 0), "blue", None),
        ("villager", (0, 3), None, None),
        ("lieutenant", (3, 3), "belthir", "north"),
    ]
    assert result.model.expansions == ("second_edition",) and result.model.conquest is None


def test_header_encounter_fields():
    source = second(head='quest "Q" {\n  edition second\n  encounter 2\n  part_of long_road\n}\n')
    model = check_source(source, "q.quest").model
    assert (model.encounter, model.part_of) == (2, "long_road")
    model = check_source(
        second(head='quest "Q" {\n  edition second\n  encounter 2B\n  part_of x\n}\n'), "q.quest"
    ).model
    assert (model.encounter, model.alternative, model.encounter_label) == (2, "b", "2b")
    assert (
        check_source(second(head='quest "Q" {\n  edition second\n  encounter 12\n}\n'), "q.quest").model.encounter == 12
    )
    wrong = assert_codes(second(head='quest "Q" {\n  edition second\n  encounter 0\n}\n'), "Q003")
    assert "encounters are numbered from 1" in wrong.diagnostics[0].message
    first = (
        'quest "Q" {\n  encounter 1\n  part_of x\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
        "area A start { pieces R1; glyph at 0,0 active }\nvictory heroes when revealed A\n"
    )
    result = assert_codes(first, "Q004", "Q004")
    assert [span_text(first, d.span) for d in result.diagnostics] == ["encounter", "part_of"]
    assert "belongs to an `edition second` quest" in result.diagnostics[0].message


def test_unknown_lieutenants_and_colours_are_q101_with_a_suggestion():
    result = assert_codes(second("  lieutenant spig at 0,0\n  objective purple at 1,1\n"), "Q101", "Q101")
    lieutenant, colour = sorted(result.diagnostics, key=lambda d: d.span.line)
    assert "unknown lieutenant `spig`" in lieutenant.message and lieutenant.help.startswith("did you mean `splig`")
    assert "objective colour `purple`" in colour.message and "`red`, `blue`, `green`, `white`" in colour.help


def test_killed_names_a_lieutenant_on_the_map():
    assert_codes(second("  lieutenant splig at 3,3\n", win="victory heroes when killed splig\n"))
    result = assert_codes(second("  lieutenant splig at 3,3\n", win="victory heroes when killed spilg\n"), "Q103")
    assert "named monster or lieutenant" in result.diagnostics[0].message
    assert result.diagnostics[0].help.startswith("did you mean `splig`")


@pytest.mark.parametrize(
    "source, kind, name",
    [
        (second(map_=MAP + "piece R room_4x4 at 0,4\n", pieces="T, In, Out, Cap, R"), "piece type", "room_4x4"),
        (second("  monster beastman at 0,0\n"), "monster", "beastman"),
        (second("  glyph at 0,0 active\n"), "marker", "glyph"),
        (second("  chest gold at 0,0\n"), "marker", "chest"),
        (second("  treasure healing at 0,0\n"), "treasure", "healing"),
        (second("  obstacle rubble at 0,0\n"), "obstacle", "rubble"),
    ],
)
def test_a_first_edition_component_in_a_second_edition_quest_is_q104_with_a_hint(source, kind, name):
    found = [d for d in check_source(source, "q.quest").diagnostics if d.code == "Q104"]
    assert found, source
    d = found[0]
    assert d.message.startswith(
        f"{kind} `{name}` comes from the `base` set, a first edition set, and this quest is `edition second`"
    )
    assert "belongs to the first edition" in d.help and d.label == "a first edition component"


@pytest.mark.parametrize(
    "statement, kind, name",
    [
        ("piece T tile_9a at 4,0", "piece type", "tile_9a"),
        ("area B { search at 0,0 }", "marker", "search"),
        ("area B { lieutenant splig at 0,0 }", "marker", "lieutenant"),
        ("area B { monster zombie at 0,0 }", "monster", "zombie"),
    ],
)
def test_a_second_edition_component_in_a_first_edition_quest_is_q104_with_a_hint(statement, kind, name):
    source = (
        'quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
        f"area A start {{ pieces R1; glyph at 0,0 active }}\n{statement}\nvictory heroes when revealed A\n"
    )
    found = [d for d in check_source(source, "q.quest").diagnostics if d.code == "Q104"]
    assert found and found[0].message.startswith(
        f"{kind} `{name}` comes from the `second_edition` set, a second edition set, and this quest is `edition first`"
    )
    assert "write `edition second`" in found[0].help


def test_fmt_prints_second_edition_statements_in_their_short_forms():
    from questc.fmt import format_source

    source = (
        'quest "Q" {\n  part_of road\n  edition second\n  encounter 1\n}\n'
        + MAP
        + 'area A "Hall" start {\n  pieces T,In,Out,Cap\n  objective   red at 0,0\n  start at 1,1  2,2\n'
        "  lieutenant splig at 3,3   facing west\n}\n"
        + "victory heroes when objectives >= 2 and exited >= 1 or exited >= 3\n"
    )
    out = format_source(source).output
    assert "  edition second\n  encounter 1\n  part_of road\n" in out
    assert "  objective red at 0,0\n  start at 1,1 2,2\n  lieutenant splig at 3,3 facing west\n" in out
    assert "victory heroes when objectives 2 and exited or exited 3\n" in out
    assert format_source(out).output == out


# ---- the checks ------------------------------------------------------------------------------


def test_q509_reports_every_conquest_of_a_second_edition_quest():
    source = second(
        head=HEAD.replace("edition second\n", "edition second\n  conquest 4\n"),
        win="on round 2 {\n  conquest +2\n}\nvictory heroes when exited\nvictory overlord when conquest 0\n",
    )
    result = check_source(source, "q.quest")
    found = [d for d in result.diagnostics if d.code == "Q509"]
    assert [span_text(source, d.span) for d in found] == ["conquest", "conquest +2", "conquest 0"]
    assert not any(d.code in ("Q506", "Q507", "Q210") for d in result.all_diagnostics)


def test_q509_reports_second_edition_rules_in_a_first_edition_quest():
    source = (
        'quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
        "area A start { pieces R1; glyph at 0,0 active; start at 1,1 }\n"
        "victory heroes when objectives 2 or exited\n"
    )
    result = check_source(source, "q.quest")
    found = sorted(span_text(source, d.span) for d in result.diagnostics if d.code == "Q509")
    assert found == ["1,1", "exited", "objectives 2"]


def test_q212_a_token_off_the_map_is_not_also_q204():
    result = assert_codes(second("  villager at 9,9\n"), "Q212")
    assert result.diagnostics[0].message == "villager at 9,9 is off the map"
    assert result.diagnostics[0].help.startswith("put it on a space of area `A`, such as ")


def test_q213_the_parts_of_13a_go_together_but_not_twice():
    def quest(more: str, pieces: str) -> str:
        return (
            HEAD
            + "piece P2 tile_13a2 at 0,1\npiece P1 tile_13a1 at 1,0\n"
            + more
            + f"area A start {{\n  pieces {pieces}\n  start at 1,0\n}}\nvictory heroes when round > 1\n"
        )

    assert_codes(quest("", "P1, P2"), "Q215", "Q215")  # 13A's own two connections, left open here
    again = assert_codes(quest("piece P3 tile_13a1 at 20,0\n", "P1, P2, P3"), "Q213", "Q215", "Q215", "Q215", "Q215")
    assert (
        next(d for d in again.diagnostics if d.code == "Q213").message
        == "tile 13A is placed twice: the box holds one tile 13"
    )
    both = assert_codes(quest("piece P3 tile_13b at 20,0\n", "P1, P2, P3"), "Q213", "Q215", "Q215", "Q215", "Q215")
    assert "tile 13 is used on both sides: 13A and 13B" in next(d for d in both.diagnostics if d.code == "Q213").message


def test_q214_start_points_must_be_free_spaces_of_the_start_area():
    bad = second("  start at 9,9\n")
    result = assert_codes(bad, "Q214")
    assert "not a space of the start area" in result.diagnostics[0].message
    blocked = second(
        "  start at 2,0\n",
        map_="piece T tile_1b at 0,0\npiece In entrance at 3,-2 turn 180\n",
        pieces="T, In",
        win="victory heroes when round > 6\n",
    )
    found = assert_codes(blocked, "Q214", "Q215", "Q215")
    assert "blocked space" in next(d for d in found.diagnostics if d.code == "Q214").message


def test_q310_a_wall_keeps_a_token_from_the_space_beside_it():
    """Tile 11A set against tile 9A's east side without joining it: the villager on its west
    edge is beside a space the heroes reach, but a wall stands between them."""
    unjoined = MAP.replace("piece Out exit at 4,1 turn 270\n", "") + "piece R tile_11a at 4,-1\n"
    source = second("  villager at 4,1\n", pieces="T, In, Cap, R", map_=unjoined, win="victory heroes when round > 6\n")
    result = assert_codes(source, "Q310", "Q306", "Q215", "Q215")
    d = next(d for d in result.diagnostics if d.code == "Q310")
    assert d.message == "no hero can reach the villager at 4,1" and span_text(source, d.span) == "4,1"
    assert_codes(second("  villager at 3,1\n"))


def test_q307_objectives_and_lieutenants():
    two = second("  objective at 0,0 1,1\n", win="victory heroes when objectives 3\n")
    d = assert_codes(two, "Q307").diagnostics[0]
    assert "only 2 objective tokens the heroes can reach, and it needs >= 3" in d.message
    assert_codes(second("  objective at 0,0 1,1 2,2\n", win="victory heroes when objectives 3\n"))
    # A lieutenant on a tile no hero reaches cannot be killed.
    far = second(
        "  lieutenant splig at 9,1\n",
        pieces="T, In, Out, Cap, R",
        map_=MAP + "piece R tile_10a at 8,0\n",
        win="victory heroes when killed splig\n",
    )
    assert "Q307" in {d.code for d in check_source(far, "q.quest").diagnostics}


def test_q311_the_exit_must_be_reached_not_only_placed():
    # The exit joins a room that joins nothing the heroes reach.
    source = second(
        pieces="T, In, Cap, R, Out",
        map_=MAP.replace("piece Out exit at 4,1 turn 270\n", "")
        + "piece R tile_10a at 8,0\npiece Out exit at 12,1 turn 270\n",
    )
    result = check_source(source, "q.quest")
    (d,) = [d for d in result.diagnostics if d.code == "Q311"]
    assert d.message == "a victory needs a hero to leave by the exit, but no hero can reach the exit's edge spaces"
    assert [lab.message for lab in d.labels] == ["this exit", "the heroes' victory"]
    # Not needed: `not exited` or `exited < 1` ask for no exit.
    assert_codes(
        second(
            pieces="T, In, Cap",
            map_=MAP.replace("piece Out exit at 4,1 turn 270\n", ""),
            win="victory heroes when round > 3 and not exited\n",
        ),
        "Q215",
    )  # 9A's east side


def test_q410_and_q411_count_tokens_and_lieutenants():
    names = CATALOG.markers["lieutenant"].variants
    six = "".join(f"  lieutenant {name} at {i % 4},{i // 4}\n" for i, name in enumerate(names))
    assert_codes(second(six))
    twice = assert_codes(second(six + "  lieutenant splig at 3,3\n"), "Q410", "Q411")
    q411 = next(d for d in twice.diagnostics if d.code == "Q411")
    assert (
        q411.message == "lieutenant `splig` is placed more than once" and q411.labels[0].message == "first placed here"
    )
    searches = "  search at " + " ".join(f"{x},{y}" for y in range(4) for x in range(4))[:-4] + "\n"
    d = assert_codes(second(searches), "Q410").diagnostics[0]
    assert d.message == "the quest places 15 search tokens, but the sets owned (second_edition) hold 9"
    assert d.severity is Severity.ERROR


def test_counts_use_only_the_quest_s_edition_s_sets():
    """A user who owns both editions still has 7 doors for a second edition quest."""
    doors = "".join(f"door d{i} at 1,{i} north\n" for i in range(1, 4))
    source = second(map_=MAP + doors)
    owned = Options(owned_sets=("base", "well_of_darkness", "second_edition"))
    result = check_source(source, "q.quest", owned)
    assert not [d for d in result.diagnostics if d.code.startswith("Q4")], render(result)


# ---- outputs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["lantern_road_1", "lantern_road_2", "greywater_ferry"])
def test_the_second_edition_examples_compile_clean_strict(name):
    result = check_file(QUESTS / f"{name}.quest", Options(strict=True, verbose=True))
    assert result.compiled and not result.failed(strict=True), render(result)
    model = result.model
    assert model.edition.name == "second" and model.conquest is None
    assert {p.type.set for p in model.pieces.values() if p is not None} == {"second_edition"}
    assert Counter(p.type.kind for p in model.pieces.values() if p is not None)["entrance"] == 1


def test_the_lantern_road_is_two_encounters_of_one_quest():
    first, second_ = (check_file(QUESTS / f"lantern_road_{i}.quest").model for i in (1, 2))
    assert (first.encounter, second_.encounter) == (1, 2)
    assert first.part_of == second_.part_of == "lantern_road"


@pytest.mark.slow
def test_the_guide_keeps_a_quest_s_encounters_together(tmp_path):
    from questc.build import encounters_together, guide

    paths = [QUESTS / "lantern_road_2.quest", QUESTS / "greywater_ferry.quest", QUESTS / "lantern_road_1.quest"]
    results = [check_file(p) for p in paths]
    ordered = [r.summary.id for r in encounters_together(results)]
    assert ordered == ["lantern_road_1", "lantern_road_2", "greywater_ferry"]
    report = guide(paths, tmp_path / "guide.pdf")
    assert [r.summary.id for r in report.included] == ordered
    from pypdf import PdfReader

    text = "\n".join(page.extract_text() for page in PdfReader(str(tmp_path / "guide.pdf")).pages)
    # each sheet's title, over its byline (the quest's heading lists its encounters before them)
    first, second_, ferry = (
        text.index(f"{t}\nby ")
        for t in ("The Lantern Road I: The Burned Mill", "The Lantern Road II: Harrow Chapel", "The Greywater Ferry")
    )
    assert first < second_ < ferry
    assert "Second edition, encounter 1 · components" in text  # the quest's id is no words for players


def test_the_sheet_words_second_edition_contents(tmp_path):
    from questc.emit.sheet import sheet_data

    data = sheet_data(compile_file(QUESTS / "lantern_road_2.quest"), "text")
    crypt = next(a for a in data["areas"] if a["id"] == "C")
    words = [i["words"] for i in crypt["contents"]]
    assert "9 water spaces printed on tile 2A" in words
    assert "the lieutenant Splig at 13,10, facing west" in words
    assert "a red objective token at 14,11" in words
    assert data["victories"][0]["condition"]["words"] == "3 or more objective tokens are held or Splig is killed"


@pytest.mark.slow
def test_the_map_draws_terrain_tokens_lieutenants_and_the_way_out_with_a_legend():
    import io
    import xml.etree.ElementTree as ET

    from PIL import Image

    from questc.draw import draw_map, map_png, map_svg

    result = compile_file(QUESTS / "greywater_ferry.quest")
    md = draw_map(result, 20.0)
    legend = [entry.label for entry in md.legend]
    for words in (
        "Search token",
        "Objective (plain side)",
        "Villager",
        "Splig (lieutenant)",
        "Blocked",
        "Water",
        "Entrance (edge spaces)",
        "Exit (edge spaces)",
    ):
        assert words in legend, legend
    assert any(label.text == "Splig" and label.owner.startswith("marker:") for label in md.labels)
    root = ET.fromstring(map_svg(result, 20.0))
    groups = [g.attrib for g in root.iter("{http://www.w3.org/2000/svg}g")]
    markers = Counter(g.get("data-marker") for g in groups if g.get("class") == "marker")
    assert markers == {"search": 3, "objective": 1, "villager": 1, "lieutenant": 1}
    obstacles = Counter(g.get("data-obstacle") for g in groups if g.get("class") == "obstacle")
    assert obstacles == {"water": 11, "blocked": 4}  # the ford (tile 21A) 5, the quay (3A) 6
    # The way off the map: the entrance's two edge spaces and the exit's (the raft), one side each.
    edges = sorted((g.get("data-edge"), g.get("data-cell")) for g in groups if g.get("class") == "edge")
    assert edges == [("entrance", "0,2"), ("entrance", "0,3"), ("exit", "25,1"), ("exit", "25,2")]
    # The PNG paints a search token in its own green (left of its question mark).
    scale = 160 / 20.0
    image = Image.open(io.BytesIO(map_png(result, 20.0, px_per_cell=160))).convert("RGB")
    x, y, w, h = md.cell_rect((7, 2))  # `search at Road:5,0`
    assert image.getpixel((int((x + w * 0.32) * scale), int((y + h / 2) * scale))) == (0x2F, 0x7D, 0x4A)


def test_fixes_move_a_misplaced_token_and_remove_a_second_edition_conquest():
    from questc.diagnostics.core import Applicability
    from questc.fixes import apply_fixes

    source = second("  search at 9,9\n")
    result = check_source(source, "q.quest")
    (d,) = [d for d in result.diagnostics if d.code == "Q212"]
    (fix,) = d.fixes
    assert fix.applicability is Applicability.UNSAFE and fix.edits[0].text == d.help.rsplit(" ", 1)[1]
    text, _ = apply_fixes(source, [(d, fix)])
    assert "Q212" not in {x.code for x in check_source(text, "q.quest").diagnostics}
    source = second(head=HEAD.replace("edition second\n", "edition second\n  conquest 4\n"))
    (d,) = [d for d in check_source(source, "q.quest").diagnostics if d.code == "Q509"]
    text, _ = apply_fixes(source, [(d, d.fixes[0])])
    assert d.fixes[0].applicability is Applicability.SAFE and text == second()


def test_the_language_server_completes_second_edition_words(tmp_path):
    pytest.importorskip("lsprotocol")
    from lsprotocol import types

    from questc.server.completion import complete
    from questc.server.document import QuestDocument

    def labels(text: str, marker: str) -> set[str]:
        offset = text.index(marker) + len(marker)
        line = text.count("\n", 0, offset)
        column = offset - (text.rfind("\n", 0, offset) + 1)
        document = QuestDocument((tmp_path / "q.quest").as_uri(), text, 1)
        return {item.label for item in complete(document, types.Position(line, column))}

    text = second("  lieutenant \n  objective \n  monster \n", win="victory heroes when killed \n")
    assert {"splig", "belthir"} <= labels(text, "lieutenant ")
    assert {"red", "blue", "green", "white"} <= labels(text, "objective ")
    monsters = labels(text, "  monster ")
    assert "zombie" in monsters and "beastman" not in monsters  # the second edition's by default
    assert "splig" in labels(text, "killed ")
    statements = labels(second("  \n"), "pieces T, In, Out, Cap\n  ")
    assert {"search", "objective", "villager", "lieutenant", "start"} <= statements


def test_the_headers_first_edition_fields_are_reported_with_the_name_errors():
    """`conquest` (Q509) and `treachery` (Q408) in a second edition header came only once every
    name resolved; the header alone says them, so they come at once."""
    head = 'quest "Q" {\n  edition second\n  conquest 5\n  treachery event 2\n}\n'
    source = second(win="victory heroes when round > 4\n", head=head).replace(
        "piece Cap end_cap", "piece Extra tile_99z at 10,10\npiece Cap end_cap"
    )
    assert_codes(source, "Q101", "Q509", "Q408")
    assert_codes(source.replace("piece Extra tile_99z at 10,10\n", ""), "Q509", "Q408")
