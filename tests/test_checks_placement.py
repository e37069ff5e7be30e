"""Placement checks Q201-Q210: a failing and a fixed quest per code, near misses that must
stay silent, spans and labels on the right names, concrete help, and no cascades."""

from __future__ import annotations

import re

import pytest
from helpers import assert_codes, dedent, span_text

from questc.api import check_source
from questc.diagnostics.core import Severity
from questc.rules import descriptors, family_rules

HEAD = 'quest "T" {\n  conquest 3\n}\n'
TWO_ROOMS = HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"


def hall(
    lines: str = "", glyph: str = "glyph at 0,0 active", tail: str = "", win: str = "victory heroes when revealed A\n"
) -> str:
    """A one-room quest (room_4x4 at 0,0, start area A) with `lines` inside the area."""
    return (
        HEAD
        + 'piece R1 room_4x4 at 0,0\narea A "Hall" start {\n  pieces R1\n  '
        + glyph
        + "\n"
        + lines
        + "}\n"
        + tail
        + win
    )


def only(result, code: str):
    """The one diagnostic of `code` in a result."""
    found = [d for d in result.diagnostics if d.code == code]
    assert len(found) == 1, found
    return found[0]


def run(source: str):
    return check_source(dedent(source))


def placement_codes(source: str) -> list[str]:
    """The Q2xx codes a quest draws, sorted (for quests whose reveal draws warnings of its own)."""
    return sorted(d.code for d in run(source).diagnostics if d.code.startswith("Q2"))


# ---- the descriptors ----------------------------------------------------------------

DESCRIPTORS = [rule.descriptor for rule in family_rules("placement")]


def test_the_family_is_its_table():
    """Every Q2 code is in the placement family's table, in code order (the table says which)."""
    codes = [d.code for d in DESCRIPTORS]
    assert codes and codes == sorted(codes) and codes == [c for c in descriptors() if c.startswith("Q2")]


@pytest.mark.parametrize("entry", DESCRIPTORS, ids=lambda d: d.code)
def test_descriptor_examples_fail_and_are_fixed(entry):
    assert entry.placeholders() == set(entry.fields)
    failing = check_source(entry.example.failing)
    assert entry.code in {d.code for d in failing.diagnostics}
    fixed = check_source(entry.example.fixed)
    assert [d.code for d in fixed.diagnostics if d.severity is not Severity.INFO] == []


# ---- Q201 ---------------------------------------------------------------------------


def test_q201_overlap_points_at_the_later_piece_and_labels_the_other():
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 2,2\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Other" { pieces R2 }\n'
        + "victory heroes when revealed B\n"
    )
    result = assert_codes(source, "Q201")
    d = only(result, "Q201")
    assert span_text(result.source, d.span) == "R2"
    assert [span_text(result.source, label.span) for label in d.labels] == ["R1"]
    assert "2,2..3,3" in d.message
    # The help's position really is free of every other piece.
    spot = re.search(r"at (\d+),(\d+)", d.help).groups()
    assert not (
        {(x, y) for x in range(4) for y in range(4)}
        & {(int(spot[0]) + x, int(spot[1]) + y) for x in range(4) for y in range(4)}
    )


def test_q201_is_one_cause_not_a_cascade_of_area_and_marker_problems():
    # The overlap puts the cells 2..3 in both areas and the chest on A's floor; only Q201.
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 2,2\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "Other" { pieces R2; treasure healing at 2,2 }\n'
        + "victory heroes when revealed B\n"
    )
    assert_codes(source, "Q201")


def test_q201_pieces_side_by_side_do_not_overlap():
    assert_codes(
        TWO_ROOMS + 'area A "W" start { pieces R1; glyph at 0,0 active }\narea B "E" { pieces R2 }\n'
        "victory heroes when revealed B\n"
    )


# ---- Q202 ---------------------------------------------------------------------------

LOOSE_END = HEAD + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,1\ndoor d between R1 C1\n"
LOOSE_AREAS = (
    'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1%s }\n'
    + "victory heroes when revealed B\n"
)


def test_q202_open_corridor_end_is_a_warning_with_the_dead_end_that_caps_it():
    result = assert_codes(LOOSE_END + LOOSE_AREAS % "", "Q202")
    d = only(result, "Q202")
    assert d.severity is Severity.WARNING
    assert span_text(result.source, d.span) == "C1"
    assert "east end" in d.message and "joins nothing" in d.message
    statement = re.search(r"`(piece \S+ dead_end at [^`]+)`", d.help).group(1)
    cap_id = statement.split()[1]
    # Following the help silences the warning.
    assert_codes(LOOSE_END + statement + "\n" + LOOSE_AREAS % f", {cap_id}")


def test_q202_corridor_end_meeting_a_rooms_wall_labels_the_room():
    # The corridor's west end (rows 0-1) meets the room's east wall beside its opening (rows 1-2).
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,0\npiece E1 dead_end at 6,0\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1, E1 }\n'
        + "victory heroes when revealed A\n"
    )
    result = run(source)
    d = only(result, "Q202")
    assert "west end" in d.message and "wall of `R1`" in d.message
    assert [span_text(result.source, label.span) for label in d.labels] == ["R1"]


def test_q202_an_open_intersection_end_warns_too():
    source = (
        HEAD
        + "piece T1 intersection_t at 0,0\npiece W dead_end at -1,0 turn 180\npiece E dead_end at 6,0\n"
        + 'area A "Junction" start { pieces T1, W, E; glyph at 0,0 active }\nvictory heroes when revealed A\n'
    )
    result = assert_codes(source, "Q202")
    assert "south end of intersection `T1`" in only(result, "Q202").message


def test_q202_a_rooms_unjoined_opening_is_wall_not_a_warning():
    assert_codes(hall())


def test_q202_a_door_at_a_real_joint_joins_the_corridor():
    source = (
        LOOSE_END.replace("door d between R1 C1", "door d at 3,1 east")
        + "piece E1 dead_end at 6,1\n"
        + LOOSE_AREAS % ", E1"
    )
    assert_codes(source)


def test_q202_is_not_repeated_for_the_end_a_misplaced_door_was_meant_for():
    # C1 stands one row too low to meet R1's opening: the door is the cause (Q205). The
    # west end runs into R1's wall (that is what is wrong), the east end is capped.
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x2 at 4,2\npiece E1 dead_end at 6,2\n"
        + "door d between R1 C1\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Passage" { pieces C1, E1 }\n'
        + "victory heroes when revealed A\n"
    )
    assert_codes(source, "Q205")


# ---- Q203 ---------------------------------------------------------------------------


def test_q203_a_piece_in_no_area_is_one_diagnostic_not_one_per_cell():
    source = TWO_ROOMS + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\nvictory heroes when revealed A\n'
    result = assert_codes(source, "Q203")
    d = only(result, "Q203")
    assert span_text(result.source, d.span) == "R2"
    assert d.message == "piece `R2` is in no area"
    assert "area `A`" in d.help  # R2 is joined to R1, whose area is the likely home


def test_q203_a_piece_in_two_areas_points_at_the_second_claim():
    source = (
        TWO_ROOMS
        + 'area A "W" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "E" { pieces R2 }\narea C "Again" { pieces R2 }\nvictory heroes when revealed B\n'
    )
    result = assert_codes(source, "Q203")
    d = only(result, "Q203")
    assert "in two areas, `B` and `C`" in d.message
    assert d.span.line == 9 and span_text(result.source, d.span) == "R2"
    assert [label.span.line for label in d.labels] == [8]


def test_q203_a_room_split_with_cells_is_fine_and_a_gap_is_one_diagnostic():
    split = (
        HEAD
        + "piece R1 room_6x6 at 0,0\n"
        + 'area A "West" start {\n  cells 0,0..2,5\n  glyph at 0,0 active\n}\n'
        + 'area B "East" {\n  cells 3,0..5,5\n}\nvictory heroes when revealed B\n'
    )
    assert placement_codes(split) == []  # (B is in sight of the start area: Q305, not ours)
    gap = split.replace("cells 3,0..5,5", "cells 4,0..5,5")
    assert placement_codes(gap) == ["Q203"]
    assert "3,0..3,5" in only(run(gap), "Q203").message


def test_q203_overlapping_cells_rectangles_are_reported_once():
    source = (
        HEAD
        + "piece R1 room_6x6 at 0,0\n"
        + 'area A "West" start {\n  cells 0,0..3,5\n  glyph at 0,0 active\n}\n'
        + 'area B "East" {\n  cells 2,0..5,5\n}\nvictory heroes when revealed B\n'
    )
    result = assert_codes(source, "Q203")
    d = only(result, "Q203")
    assert "cells 2,0..3,5" in d.message
    assert span_text(result.source, d.span) == "2,0..5,5"


# ---- Q204 ---------------------------------------------------------------------------

WEST_EAST = (
    TWO_ROOMS
    + 'area A "West" start {\n  pieces R1\n  glyph at 0,0 active\n%s}\n'
    + 'area B "East" { pieces R2 }\nvictory heroes when revealed B\n'
)


def test_q204_marker_in_the_neighbouring_area_labels_its_own_area():
    result = assert_codes(WEST_EAST % "  treasure healing at 5,1\n", "Q204")
    d = only(result, "Q204")
    assert span_text(result.source, d.span) == "5,1"
    assert "outside its area `A` (in area `B`)" in d.message
    assert [span_text(result.source, label.span) for label in d.labels] == ["A"]
    assert "such as 3,1" in d.help and "area `B`" in d.help


def test_q204_things_off_the_map():
    result = assert_codes(
        WEST_EAST % "  treasure healing at 9,9\n  obstacle rubble at 2,2..2,5\n  monster skeleton at -1,0\n",
        "Q204",
        "Q204",
        "Q204",
    )
    messages = sorted(d.message for d in result.diagnostics)
    assert messages == [
        "healing treasure at 9,9 is off the map",
        "rubble at 2,2..2,5 is partly off the map (2,4..2,5)",
        "skeleton at -1,0 is off the map",
    ]


def test_q204_marker_on_its_own_area_is_fine():
    assert_codes(WEST_EAST % "  treasure healing at 3,1\n")


def test_q204_cells_rectangle_off_the_map():
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\n"
        + 'area A "Hall" start {\n  cells 0,0..4,3\n  glyph at 0,0 active\n}\nvictory heroes when revealed A\n'
    )
    result = assert_codes(source, "Q204")
    assert span_text(result.source, only(result, "Q204").span) == "0,0..4,3"


# ---- Q205 ---------------------------------------------------------------------------


def test_q205_door_inside_a_room_points_at_the_door_name():
    source = (
        TWO_ROOMS.replace("door d between R1 R2", "door d at 1,1 north")
        + 'area A "W" start { pieces R1; glyph at 0,0 active }\narea B "E" { pieces R2 }\n'
        + "victory heroes when revealed B\n"
    )
    result = assert_codes(source, "Q205")
    d = only(result, "Q205")
    assert span_text(result.source, d.span) == "d"
    assert "open floor inside piece `R1`" in d.message
    assert d.help == "the nearest joint is between `R1` and `R2`: `door d between R1 R2`"


def test_q205_door_between_pieces_that_do_not_meet():
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 5,0\ndoor d between R1 R2\n"
        + 'area A "W" start { pieces R1; glyph at 0,0 active }\narea B "E" { pieces R2 }\n'
        + "victory heroes when revealed A\n"
    )
    result = run(source)
    d = only(result, "Q205")
    assert "share no joint" in d.message and "move `R2`" in d.help


def test_q205_door_at_on_the_real_joint_is_fine():
    source = (
        TWO_ROOMS.replace("door d between R1 R2", "door d at 3,1 east")
        + 'area A "W" start { pieces R1; glyph at 0,0 active }\narea B "E" { pieces R2 }\n'
        + "victory heroes when revealed B\n"
    )
    assert_codes(source)


# ---- Q206 ---------------------------------------------------------------------------

STAIRS = (
    HEAD
    + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\npiece R3 room_4x4 at 10,0\n"
    + "door d between R1 R2\n%s"
    + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Stair" { pieces R2 }\n'
    + 'area C "Loft" { pieces R3 }\nvictory heroes when revealed C\n'
)


def test_q206_stairs_end_off_the_floor():
    result = assert_codes(STAIRS % "stairs red at 7,3 19,9\n", "Q206")
    d = only(result, "Q206")
    assert span_text(result.source, d.span) == "19,9"
    assert "such as 13,3" in d.help


def test_q206_colour_used_for_two_pairs_labels_the_first():
    result = assert_codes(STAIRS % "stairs red at 7,3 10,3\nstairs red at 7,0 10,0\n", "Q206")
    d = only(result, "Q206")
    assert d.span.line == 9 and span_text(result.source, d.span) == "red"
    assert [label.span.line for label in d.labels] == [8]
    assert "red2" in d.help


def test_q206_stairs_on_the_floor_with_own_colours_are_fine():
    assert_codes(STAIRS % "stairs red at 7,3 10,3\nstairs blue at 7,0 10,0\n")


# ---- Q207 ---------------------------------------------------------------------------


def test_q207_monster_on_an_active_glyph():
    result = assert_codes(hall("  monster skeleton at 0,0\n"), "Q207")
    d = only(result, "Q207")
    assert "active glyph" in d.message
    assert d.span.line == 8 and [label.span.line for label in d.labels] == [7]


def test_q207_two_figures_in_one_space_unless_their_player_counts_never_meet():
    result = assert_codes(hall("  monster skeleton at 2,2\n  monster beastman at 2,2\n"), "Q207")
    assert "shares 2,2 with the skeleton" in only(result, "Q207").message
    assert_codes(hall("  monster skeleton at 2,2 players 2..3\n  monster beastman at 2,2 players 4..5\n"))


def test_q207_a_large_figure_over_a_small_one():
    result = assert_codes(hall("  monster ogre at 1,1\n  monster beastman at 2,2\n"), "Q207")
    assert "beastman" in only(result, "Q207").message


def test_q207_figure_and_chest_on_obstacles_that_block_movement():
    source = hall(
        "  obstacle rubble at 2,2\n  obstacle water at 3,3\n  monster skeleton at 2,2\n  chest copper at 3,3\n",
        tail="chests {\n  copper 1: coins 50\n}\n",
    )
    result = assert_codes(source, "Q207", "Q207")
    assert sorted(d.message for d in result.diagnostics) == [
        "copper chest at 3,3 lies on water, which blocks movement",
        "skeleton at 2,2 stands on rubble, which blocks movement",
    ]


def test_q207_figure_on_a_pit_is_fine():
    assert_codes(hall("  obstacle pit at 2,2\n  monster skeleton at 2,2\n"))


# ---- Q208 ---------------------------------------------------------------------------


def named(line: str, kind: str = "giant") -> str:
    return hall(
        f"  named big at {line}\n",
        tail=f'named big "Big" {kind} {{ conquest 2 }}\n',
        win="victory heroes when killed big\n",
    )


def test_q208_giant_off_the_floor_suggests_where_it_fits():
    result = assert_codes(named("3,3"), "Q208")
    d = only(result, "Q208")
    assert span_text(result.source, d.span) == "3,3"
    assert "off the floor" in d.message
    assert d.help == "move it to 2,2, where its whole 2x2 footprint fits"
    assert_codes(named("2,2"))


def test_q208_giant_across_the_wall_between_two_rooms():
    # R2 is one row lower than a join needs: the rooms touch along a wall, with no joint.
    source = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,1\n"
        + 'area A "W" start {\n  pieces R1\n  glyph at 0,0 active\n  monster ogre at %s\n}\n'
        + 'area B "E" { pieces R2 }\nvictory heroes when revealed B\n'
    )
    assert placement_codes(source % "1,1") == []
    result = assert_codes(source % "3,1", "Q208")  # not also Q204 for the cells in B: one cause
    d = only(result, "Q208")
    assert "across the wall between 3,1 and 4,1" in d.message
    assert d.help == "move it to 2,1, where its whole 2x2 footprint fits"


def test_q208_giant_across_a_closed_door():
    source = (
        TWO_ROOMS
        + 'area A "W" start {\n  pieces R1\n  glyph at 0,0 active\n  monster ogre at 3,1\n}\n'
        + 'area B "E" { pieces R2 }\nvictory heroes when revealed B\n'
    )
    result = run(source)
    d = only(result, "Q208")
    assert "across the door `d`" in d.message
    assert not [x for x in result.diagnostics if x.code == "Q204"]  # one cause, one diagnostic


def test_q208_giant_on_rubble():
    result = assert_codes(hall("  obstacle rubble at 2,2\n  monster ogre at 1,1\n"), "Q208")
    assert "rubble" in only(result, "Q208").message


def test_q208_hell_hound_facing_east_fits_a_corridor_and_turning_it_is_suggested():
    corridor = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x4 at 4,1\npiece E1 dead_end at 8,1\n"
        + "door d between R1 C1\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "Run" {\n  pieces C1, E1\n  monster hell_hound at %s\n}\nvictory heroes when revealed B\n'
    )
    assert_codes(corridor % "5,1 facing east")
    assert_codes(corridor % "5,1")  # unturned: 1x2, down the corridor's width
    result = run(corridor % "8,1 facing east")  # 9,1 is off the floor
    d = only(result, "Q208")
    assert "off the floor at 9,1" in d.message
    assert d.help == "turn it: `facing north` fits at 8,1"


# ---- spawn points (Q204, Q207, Q208) --------------------------------------------------


def spawning(effects: str, area: str = "") -> str:
    """Two rooms (R1 0..3 and R2 4..7, joined by door d); `effects` run `on round 2`."""
    return (
        TWO_ROOMS
        + 'area A "W" start {\n  pieces R1\n  glyph at 0,0 active\n'
        + area
        + "}\n"
        + 'area B "E" { pieces R2 }\n'
        + "on round 2 { "
        + effects
        + " }\n"
        + "victory heroes when revealed B\n"
    )


def test_spawn_off_the_map_is_q204_with_the_nearest_floor():
    result = assert_codes(spawning("spawn beastman at 40,40"), "Q204")
    d = only(result, "Q204")
    assert span_text(result.source, d.span) == "40,40"
    assert d.message == "spawned beastman at 40,40 is off the map"
    assert d.help == "spawn it on the floor, such as at 7,3"
    assert_codes(spawning("spawn beastman at 6,2"))  # fixed


def test_spawned_large_figure_that_does_not_fit_is_q208():
    result = assert_codes(spawning("spawn ogre at 7,3"), "Q208")  # 8,3 .. 8,4 are off the floor
    d = only(result, "Q208")
    assert span_text(result.source, d.span) == "7,3"
    assert d.message == "spawned ogre at 7,3 does not fit: its 2x2 footprint reaches off the floor at 8,3 7,4 8,4"
    assert d.help == "spawn it at 6,2, where its whole footprint fits"
    assert "across the door `d`" in only(run(spawning("spawn ogre master at 3,1")), "Q208").message
    assert "across the wall between 3,0 and 4,0" in only(run(spawning("spawn ogre at 3,0")), "Q208").message
    result = run(spawning("spawn ogre at 1,1", area="  obstacle rubble at 2,2\n"))
    assert "covers rubble at 2,2" in only(result, "Q208").message
    assert_codes(spawning("spawn ogre at 6,2; spawn ogre master at 0,2"))  # fixed: both fit


def test_spawn_in_an_encounter_is_checked_too():
    source = TWO_ROOMS + (
        'area A "W" start {\n  pieces R1\n  glyph at 0,0 active\n'
        "  encounter well at 1,3 { spawn ogre at 3,3 }\n}\n"
        'area B "E" { pieces R2 }\nvictory heroes when revealed B\n'
    )
    result = assert_codes(source, "Q208")
    assert span_text(result.source, only(result, "Q208").span) == "3,3"
    assert_codes(source.replace("spawn ogre at 3,3", "spawn ogre at 2,2"))


def test_spawned_hell_hound_fits_when_either_way_round_fits():
    corridor = (
        HEAD
        + "piece R1 room_4x4 at 0,0\npiece C1 corridor_2x4 at 4,1\npiece E1 dead_end at 8,1\n"
        + "door d between R1 C1\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "Run" { pieces C1, E1 }\non round 2 { spawn hell_hound at %s }\nvictory heroes when revealed B\n'
    )
    assert_codes(corridor % "5,1")  # 1x2 across the corridor
    assert_codes(corridor % "5,2")  # 5,2..5,3 does not fit down (5,3 is off), but 5,2..6,2 does
    result = assert_codes(corridor % "8,2", "Q208")  # a dead end is one wide: neither way fits
    assert "off the floor at 8,3" in only(result, "Q208").message


def test_small_spawn_on_a_blocking_obstacle_is_q207():
    result = assert_codes(spawning("spawn beastman at 2,2", area="  obstacle rubble at 2,2\n"), "Q207")
    d = only(result, "Q207")
    assert d.message == "spawned beastman at 2,2 would stand on rubble, which blocks movement"
    assert [span_text(result.source, label.span) for label in d.labels] == ["2,2"]
    assert d.help.startswith("spawn it off the rubble, such as at ")
    assert_codes(spawning("spawn beastman at 2,2", area="  obstacle pit at 2,2\n"))  # a pit may be entered


def test_spawn_points_relative_to_a_piece():
    assert_codes(spawning("spawn beastman at R2:2,1"))
    result = assert_codes(spawning("spawn beastman at R2:9,9"), "Q204")
    assert "at 13,9 is off the map" in only(result, "Q204").message


# ---- Q211 ---------------------------------------------------------------------------


def wod_hall(lines: str) -> str:
    return hall(lines).replace(
        "  conquest 3\n", "  expansions base, well_of_darkness, altar_of_despair\n  conquest 3\n", 1
    )


def test_q211_a_trap_that_takes_no_direction_given_one():
    result = assert_codes(wod_hall("  trap dart_field at 2,2 facing north\n"), "Q211")
    d = only(result, "Q211")
    assert d.severity is Severity.WARNING
    assert span_text(result.source, d.span) == "north"
    assert d.message == "trap `dart_field` takes no direction: `facing north` means nothing"
    assert d.help == "remove it: `trap dart_field at 2,2`"
    assert_codes(wod_hall("  trap dart_field at 2,2\n"))


@pytest.mark.parametrize("kind", ["boulder", "boulder_ramp", "crushing_wall"])
def test_q211_a_trap_that_needs_a_direction_given_none(kind):
    result = assert_codes(wod_hall(f"  trap {kind} at 1,2 2,3\n"), "Q211")
    d = only(result, "Q211")
    assert span_text(result.source, d.span) == kind
    assert d.message == f"trap `{kind}` needs a direction, and none is given"
    assert d.help.startswith(f"add the way its arrow points: `trap {kind} at 1,2 2,3 facing north`")
    assert_codes(wod_hall(f"  trap {kind} at 1,2 2,3 facing east\n"))


def test_q211_facing_on_a_one_space_or_square_monster():
    result = assert_codes(hall("  monster beastman at 2,2 facing east\n"), "Q211")
    d = only(result, "Q211")
    assert span_text(result.source, d.span) == "east"
    assert d.message == "monster `beastman` fills one space: `facing east` changes nothing"
    result = assert_codes(hall("  monster ogre at 1,1 facing south\n"), "Q211")
    assert only(result, "Q211").message == "monster `ogre` is square (2x2): `facing south` changes nothing"
    result = assert_codes(named("2,2 facing west"), "Q211")
    assert only(result, "Q211").message == (
        "named monster `big` (giant) is square (2x2): `facing west` changes nothing"
    )
    # Near misses: no facing, and a long figure turned on its side.
    assert_codes(hall("  monster beastman at 2,2\n  monster ogre at 1,0\n"))
    assert_codes(hall("  monster hell_hound at 1,1 facing east\n"))


# ---- Q209, Q210 ---------------------------------------------------------------------


def test_q209_two_start_areas():
    source = (
        TWO_ROOMS
        + 'area A "W" start { pieces R1; glyph at 0,0 active }\n'
        + 'area B "E" start { pieces R2; glyph at 7,3 active }\nvictory heroes when revealed B\n'
    )
    result = assert_codes(source, "Q209")
    d = only(result, "Q209")
    assert span_text(result.source, d.span) == "B"
    assert [span_text(result.source, label.span) for label in d.labels] == ["A"]


def test_q209_no_start_area_points_at_the_title():
    result = run(hall().replace(" start {", " {"))
    d = only(result, "Q209")
    assert span_text(result.source, d.span) == '"T"'
    assert 'area A "Hall" start' in d.help
    assert "Q210" not in {x.code for x in result.diagnostics}


def test_q210_start_area_with_an_inactive_glyph_and_with_none():
    result = assert_codes(hall(glyph="glyph at 0,0"), "Q210")
    d = only(result, "Q210")
    assert span_text(result.source, d.span) == "A"
    assert d.help == "make it active: `glyph at 0,0 active`"
    result = assert_codes(hall(glyph="monster skeleton at 0,0"), "Q210")
    assert only(result, "Q210").help == "add `glyph at 1,0 active` to area `A`"


def test_q210_an_active_glyph_is_enough():
    assert_codes(hall(glyph="glyph at 1,1 active"))
