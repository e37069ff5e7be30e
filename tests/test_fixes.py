"""Machine-applicable fixes: each fix where its diagnostic is made, with a near miss that gets
none; the applier (questc.fixes); applying a fix keeps a formatted quest formatted."""

from __future__ import annotations

import pytest
from helpers import dedent, render, span_text

from questc.api import check_source
from questc.catalog.lookup import closest_match
from questc.diagnostics.core import Applicability, Diagnostic, Edit, Fix, Severity, Span
from questc.diagnostics.edits import SourceText
from questc.fixes import apply_fixes, chosen_fixes, fix_source
from questc.fmt import format_source

SAFE, UNSAFE = Applicability.SAFE, Applicability.UNSAFE

# A small formatted quest every test edits: two rooms, a door, a skeleton and a chest.
BASE = dedent("""
    quest "Fixes" {
      conquest 3
    }

    piece R1 room_4x4 at 0,0
    piece R2 room_4x4 at 4,0

    door d between R1 R2

    area A "Hall" start {
      pieces R1
      glyph at 0,0 active
      monster skeleton at 2,2
    }

    area B "East" {
      pieces R2
      chest copper at 5,1
    }

    chests {
      copper 1: coins 25
    }

    victory heroes when revealed B
""")


def formatted(text: str) -> bool:
    result = format_source(text, "q.quest")
    return result.output is not None and not result.changed


def fixable(text: str, code: str) -> tuple[Diagnostic, Fix]:
    """The one diagnostic of `code` in the quest, which must carry a fix; its edits' spans checked."""
    result = check_source(text, "q.quest")
    found = [d for d in result.diagnostics if d.code == code]
    assert len(found) == 1, f"expected one {code}:\n{render(result)}"
    assert found[0].fixes, f"{code} has no fix:\n{render(result)}"
    fix = found[0].fixes[0]
    body = text.removeprefix("\ufeff")
    for edit in fix.edits:
        span_text(body, edit.span)  # lines and columns agree with the offsets (editors use the former)
        assert edit.span.file == "q.quest"
    return found[0], fix


def assert_fix(before: str, code: str, after: str, applicability: Applicability) -> Fix:
    """The quest's `code` diagnostic has a fix of that applicability turning `before` into `after`,
    which no longer has the problem; a formatted quest stays formatted."""
    diagnostic, fix = fixable(before, code)
    assert fix.applicability is applicability
    text, applied = apply_fixes(before, [(diagnostic, fix)])
    assert applied == [(diagnostic, fix)]
    assert text == after, f"got:\n{text}"
    remaining = check_source(text, "q.quest")
    assert code not in {d.code for d in remaining.diagnostics}, render(remaining)
    if formatted(before) or code.startswith("Q0"):
        assert formatted(after), "the fix spoiled the quest's layout"
    return fix


def assert_no_fix(text: str, code: str) -> None:
    """The near miss: the diagnostic is there, with no fix."""
    result = check_source(text, "q.quest")
    found = [d for d in result.diagnostics if d.code == code]
    assert found, f"expected {code}:\n{render(result)}"
    assert all(not d.fixes for d in found), [f.message for d in found for f in d.fixes]


# ---- did you mean (Q101, Q103) --------------------------------------------------------------


def test_q101_misspelt_monster_is_an_unsafe_rename():
    before = BASE.replace("monster skeleton", "monster skeletn")
    fix = assert_fix(before, "Q101", BASE, UNSAFE)
    assert fix.message == "replace `skeletn` with `skeleton`"


def test_q101_catalog_name_differing_only_in_case_is_a_safe_rename():
    assert_fix(BASE.replace("monster skeleton", "monster Skeleton"), "Q101", BASE, SAFE)


def test_q101_near_miss_nothing_close():
    assert_no_fix(BASE.replace("monster skeleton", "monster zeppelin"), "Q101")


def test_q101_word_from_a_fixed_list():
    assert_fix(BASE.replace("chest copper", "chest coper"), "Q101", BASE, UNSAFE)
    assert_no_fix(BASE.replace("chest copper", "chest diamond"), "Q101")


def test_q103_look_alike_characters():
    """`Cl` (the letter l) for the piece `C1`: the help says which character it is."""
    before = BASE.replace("piece R2 room_4x4 at 4,0", "piece R2 room_4x4 at 4,0\npiece C1 corridor_2x2 at 8,1")
    before = before.replace("  pieces R2\n", "  pieces R2, Cl\n")
    result = check_source(before, "q.quest")
    (q103,) = [d for d in result.diagnostics if d.code == "Q103"]
    assert q103.help == "did you mean `C1` (the digit 1, not the letter l)?"
    assert_fix(before, "Q103", before.replace("R2, Cl", "R2, C1"), UNSAFE)


@pytest.mark.parametrize(
    "written, known, want",
    [
        ("Cl", ["C1", "R1"], "C1"),
        ("RO", ["R0"], "R0"),
        ("S1", ["51"], "51"),
        ("gate_l", ["gate_1"], "gate_1"),
    ],
)
def test_look_alikes(written, known, want):
    match = closest_match(written, known)
    assert match is not None and match.name == want and match.kind == "look-alike"


def test_identifier_renames_are_unsafe_even_for_case():
    """`b` for the area `B`: the writer may mean an area not written yet."""
    before = BASE.replace("victory heroes when revealed B", "victory heroes when revealed b")
    assert_fix(before, "Q103", BASE, UNSAFE)


def test_q103_near_miss_no_similar_name():
    assert_no_fix(BASE.replace("victory heroes when revealed B", "victory heroes when revealed phantom"), "Q103")


# ---- unused suppressions (Q601) -------------------------------------------------------------


def test_q601_removes_a_comment_on_its_own_line():
    before = BASE.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes")
    fix = assert_fix(before, "Q601", BASE, SAFE)
    assert fix.message == "remove the unused suppression"


def test_q601_removes_a_trailing_comment_and_the_spaces_before_it():
    before = BASE.replace("  chest copper at 5,1\n", "  chest copper at 5,1  # questc: ignore[Q207] the lid is stuck\n")
    assert_fix(before, "Q601", BASE, SAFE)


EMPTY_ENCOUNTER = BASE.replace("  monster skeleton at 2,2\n", "  monster skeleton at 2,2\n  encounter e at 3,3 {}\n")


def test_q601_removes_only_the_unused_codes():
    """The encounter really is empty: Q504 is used, Q305 is not."""
    before = EMPTY_ENCOUNTER.replace("  encounter", "  # questc: ignore[Q504, Q305]\n  encounter")
    after = EMPTY_ENCOUNTER.replace("  encounter", "  # questc: ignore[Q504]\n  encounter")
    fix = assert_fix(before, "Q601", after, SAFE)
    assert fix.message == "remove `Q305` from the suppression"


def test_q601_near_miss_a_used_suppression_is_kept():
    text = EMPTY_ENCOUNTER.replace("  encounter", "  # questc: ignore[Q504]\n  encounter")
    assert {d.code for d in check_source(text, "q.quest").diagnostics} == set()


def test_q601_last_line_without_a_newline():
    before = BASE + "# questc: ignore-file[Q305]"
    assert_fix(before, "Q601", BASE, SAFE)


# ---- syntax: commas, keywords, ranges, repeated fields -----------------------------------


def test_missing_comma_in_a_piece_list():
    before = BASE.replace("  pieces R2\n", "  pieces R2 R1\n")
    d, fix = fixable(before, "Q001")
    assert d.help == "separate the names with commas: `R2, R1`"
    text, _ = apply_fixes(before, [(d, fix)])
    assert "  pieces R2, R1\n" in text and fix.applicability is SAFE
    assert not [x for x in check_source(text, "q.quest").diagnostics if x.code.startswith("Q0")]


def test_missing_commas_to_the_end_of_the_list():
    before = BASE.replace("  pieces R2\n", "  pieces R2 R1 C3 C4\n")
    d, fix = fixable(before, "Q001")
    assert len(fix.edits) == 3
    assert "  pieces R2, R1, C3, C4\n" in apply_fixes(before, [(d, fix)])[0]


def test_missing_comma_near_miss_a_number_after_the_name():
    assert_no_fix(BASE.replace("  pieces R2\n", "  pieces R2 3\n"), "Q001")


def test_capitalised_keyword():
    before = BASE.replace("  monster skeleton", "  Monster skeleton")
    d, fix = fixable(before, "Q001")
    assert d.help == "keywords are lower case: write `monster`"
    assert_fix(before, "Q001", BASE, SAFE)


@pytest.mark.parametrize(
    "old, new",
    [
        ("victory heroes", "Victory heroes"),
        ("victory heroes", "victory Heroes"),
        ('"East" {', '"East" Start {'),
    ],
)
def test_capitalised_keywords_of_every_kind(old, new):
    before = BASE.replace(old, new)
    after = BASE if new != '"East" Start {' else BASE.replace('"East" {', '"East" start {')
    assert fix_source(before, "q.quest").source == after


def test_capitalised_header_field():
    before = BASE.replace("  conquest 3", "  Conquest 3")
    d, fix = fixable(before, "Q004")
    assert d.help == "keywords are lower case: write `conquest`"
    assert_fix(before, "Q004", BASE, SAFE)


def test_capitalised_keyword_near_miss_no_such_keyword():
    assert_no_fix(BASE.replace("  monster skeleton", "  Monstr skeleton"), "Q001")
    assert_no_fix(BASE.replace("  conquest 3", "  Conquer 3"), "Q004")


def test_backwards_range():
    before = BASE.replace("  conquest 3\n", "  players 5..2\n  conquest 3\n")
    assert_fix(before, "Q003", before.replace("5..2", "2..5"), SAFE)


def test_backwards_range_near_miss_open_range():
    assert_no_fix(BASE.replace("  conquest 3\n", "  players 3..\n  conquest 3\n"), "Q003")


def test_repeated_header_field_line_is_removed():
    before = BASE.replace("  conquest 3\n", "  conquest 3\n  conquest 4\n")
    fix = assert_fix(before, "Q004", BASE, UNSAFE)
    assert fix.message == "remove the second `conquest` line"


def test_repeated_header_field_near_miss_on_one_line():
    assert_no_fix(BASE.replace('quest "Fixes" {\n  conquest 3\n}', 'quest "Fixes" { conquest 3; conquest 4 }'), "Q004")


# ---- placement: moves to the free cell the help names ---------------------------------------


def test_q204_marker_outside_its_area_moves_to_a_free_cell_of_it():
    before = BASE.replace("  glyph at 0,0 active\n", "  glyph at 0,0 active\n  treasure healing at 5,2\n")
    d, fix = fixable(before, "Q204")
    assert "such as 3,2" in d.help
    assert_fix(before, "Q204", before.replace("healing at 5,2", "healing at 3,2"), UNSAFE)


def test_q204_near_miss_an_obstacle_is_not_moved():
    assert_no_fix(
        BASE.replace("  glyph at 0,0 active\n", "  glyph at 0,0 active\n  obstacle rubble at 5,1..5,2\n"), "Q204"
    )


def test_q207_monster_on_an_active_glyph():
    before = BASE.replace("monster skeleton at 2,2", "monster skeleton at 0,0")
    assert_fix(before, "Q207", before.replace("skeleton at 0,0", "skeleton at 1,0"), UNSAFE)


def test_q207_a_point_on_a_piece_keeps_its_piece():
    before = BASE.replace("monster skeleton at 2,2", "monster skeleton at R1:0,0")
    assert_fix(before, "Q207", before.replace("skeleton at R1:0,0", "skeleton at R1:1,0"), UNSAFE)


def test_q207_two_figures_never_get_the_same_cell():
    """Both skeletons stand on the glyph: their fixes take two different cells."""
    before = BASE.replace("monster skeleton at 2,2", "monster skeleton at 0,0 0,0")
    result = check_source(before, "q.quest")
    moves = [d.fixes[0].edits[0].text for d in result.diagnostics if d.code == "Q207"]
    assert len(moves) == len(set(moves)) >= 1


def test_q207_marker_on_a_blocking_obstacle():
    before = BASE.replace("  chest copper at 5,1\n", "  obstacle rubble at 5,1\n  chest copper at 5,1\n")
    assert_fix(before, "Q207", before.replace("chest copper at 5,1", "chest copper at 5,0"), UNSAFE)


def test_spawned_figures_move_too():
    """A spawn off the map (Q204) and one on rubble (Q207): the help's cell, as the fix."""
    lever = "  encounter lever at 3,3 {\n    spawn skeleton at {at}\n  }\n"
    off = BASE.replace("  monster skeleton at 2,2\n", "  monster skeleton at 2,2\n" + lever.replace("{at}", "9,9"))
    d, fix = fixable(off, "Q204")
    assert "such as at 7,3" in d.help and fix.edits[0].text == "7,3"
    on = BASE.replace(
        "  monster skeleton at 2,2\n",
        "  monster skeleton at 2,2\n  obstacle rubble at 1,2\n" + lever.replace("{at}", "1,2"),
    )
    assert_fix(on, "Q207", on.replace("spawn skeleton at 1,2", "spawn skeleton at 1,1"), UNSAFE)


def test_q207_near_miss_two_obstacles_in_one_cell():
    assert_no_fix(
        BASE.replace(
            "  glyph at 0,0 active\n", "  glyph at 0,0 active\n  obstacle rubble at 3,3\n  obstacle water at 3,3\n"
        ),
        "Q207",
    )


def test_q208_large_figure_moves_where_it_fits():
    before = BASE.replace("  monster skeleton at 2,2\n", "  monster ogre at 3,3\n")
    assert_fix(before, "Q208", before.replace("ogre at 3,3", "ogre at 2,2"), UNSAFE)


def test_q208_near_miss_a_turn_is_needed():
    """A hell hound across the door: only turning it fits, which would turn every figure of the statement."""
    text = BASE.replace("  monster skeleton at 2,2\n", "  monster hell_hound at 3,0 facing east\n")
    result = check_source(text, "q.quest")
    q208 = [d for d in result.diagnostics if d.code == "Q208"]
    assert q208 and "facing" in (q208[0].help or "")
    assert not q208[0].fixes


# ---- pieces and areas: caps, areas, start -------------------------------------------------


CORRIDOR = dedent("""
    quest "Loose End" {
      conquest 3
    }

    piece R1 room_4x4 at 0,0
    piece C1 corridor_2x2 at 4,1

    door d between R1 C1

    area A "Hall" start {
      pieces R1
      glyph at 0,0 active
    }

    area B "Passage" {
      pieces C1
    }

    victory heroes when revealed B
""")


def test_q202_cap_adds_the_dead_end_and_puts_it_in_the_area():
    after = CORRIDOR.replace(
        "piece C1 corridor_2x2 at 4,1\n", "piece C1 corridor_2x2 at 4,1\npiece C1_end dead_end at 6,1\n"
    )
    after = after.replace("  pieces C1\n", "  pieces C1, C1_end\n")
    assert_fix(CORRIDOR, "Q202", after, UNSAFE)


def test_q202_in_a_one_line_area_and_a_file_without_final_newline():
    before = CORRIDOR.replace('area B "Passage" {\n  pieces C1\n}', 'area B "Passage" { cells 4,1..5,2; pieces C1 }')
    _, fix = fixable(before.rstrip("\n"), "Q202")
    assert [e.text for e in fix.edits] == ["piece C1_end dead_end at 6,1\n", ", C1_end"]


def test_q202_near_miss_the_corridor_is_in_no_area_list():
    """Claimed by `cells` only: which area the cap belongs to is not written anywhere."""
    assert_no_fix(CORRIDOR.replace("  pieces C1\n", "  cells 4,1..5,2\n"), "Q202")


# The corridor in no area: the hall it is joined to (by the door) is the likely one.
NO_PASSAGE = CORRIDOR.replace('area B "Passage" {\n  pieces C1\n}\n\n', "").replace("revealed B", "revealed A")


def test_q203_a_piece_in_no_area_joins_the_area_of_its_neighbour():
    after = NO_PASSAGE.replace("  pieces R1\n", "  pieces R1, C1\n")
    assert_fix(NO_PASSAGE, "Q203", after, UNSAFE)


def test_q203_adds_a_pieces_statement_to_an_area_without_one():
    before = NO_PASSAGE.replace("  pieces R1\n", "  cells 0,0..3,3\n")
    after = before.replace("  glyph at 0,0 active\n", "  glyph at 0,0 active\n  pieces C1\n")
    assert_fix(before, "Q203", after, UNSAFE)


def test_q203_near_miss_a_piece_joined_to_nothing():
    text = CORRIDOR.replace(
        "piece C1 corridor_2x2 at 4,1\n", "piece C1 corridor_2x2 at 4,1\npiece R9 room_4x4 at 20,20\n"
    )
    assert_no_fix(text, "Q203")


def test_q209_second_start_area_loses_start():
    before = BASE.replace('area B "East" {', 'area B "East" start {')
    assert_fix(before, "Q209", BASE, UNSAFE)


def test_q209_no_start_area_gets_one():
    before = BASE.replace('area A "Hall" start {', 'area A "Hall" {')
    assert_fix(before, "Q209", BASE, UNSAFE)


def test_q209_near_miss_one_start_area():
    assert "Q209" not in {d.code for d in check_source(BASE, "q.quest").diagnostics}


def test_q210_an_inactive_glyph_is_made_active():
    assert_fix(BASE.replace("glyph at 0,0 active", "glyph at 0,0"), "Q210", BASE, UNSAFE)


def test_q210_a_glyph_is_added_on_a_free_cell():
    before = BASE.replace("  glyph at 0,0 active\n", "")
    after = BASE.replace("  glyph at 0,0 active\n", "").replace(
        "  monster skeleton at 2,2\n", "  monster skeleton at 2,2\n  glyph at 0,0 active\n"
    )
    assert_fix(before, "Q210", after, UNSAFE)


def test_q210_near_miss_no_free_cell():
    """A start area whose every cell is taken: the help has no cell to name, and there is no fix."""
    text = BASE.replace("  glyph at 0,0 active\n  monster skeleton at 2,2\n", "  obstacle rubble at 0,0..3,3\n")
    assert_no_fix(text, "Q210")


# ---- the applier -------------------------------------------------------------------------


def _edit(start: int, end: int, text: str) -> Edit:
    return Edit(Span("f", 1, start + 1, 1, end + 1, start, end), text)


def _fixes(*edit_lists, safe=True):
    out = []
    for number, edits in enumerate(edit_lists):
        d = Diagnostic("Q999", Severity.ERROR, f"m{number}", Span("f", 1, 1, 1, 2, 0, 1))
        out.append((d, Fix(f"fix {number}", tuple(edits), SAFE if safe else UNSAFE)))
    return out


def test_apply_takes_fixes_in_order_of_position_whatever_their_order():
    fixes = _fixes([_edit(6, 9, "XYZ")], [_edit(0, 3, "abc")])
    assert apply_fixes("012345678", fixes) == ("abc345XYZ", fixes[::-1])


def test_overlapping_fixes_the_first_wins():
    fixes = _fixes([_edit(0, 4, "a")], [_edit(2, 6, "b")])
    assert apply_fixes("0123456", fixes) == ("a456", fixes[:1])


def test_a_fix_is_applied_whole_or_not_at_all():
    fixes = _fixes([_edit(0, 2, "a")], [_edit(1, 3, "b"), _edit(5, 6, "c")])
    assert apply_fixes("0123456", fixes)[0] == "a23456"


@pytest.mark.parametrize(
    "first, second, clash",
    [
        ((2, 2), (2, 2), True),  # two insertions at one point: which first?
        ((2, 2), (1, 4), True),  # an insertion inside a replaced range
        ((1, 2), (2, 2), False),  # an insertion where a replacement ends
        ((1, 2), (2, 3), False),  # touching replacements
    ],
)
def test_what_clashes(first, second, clash):
    fixes = _fixes([_edit(*first, "x")], [_edit(*second, "y")])
    assert len(apply_fixes("0123456", fixes)[1]) == (1 if clash else 2)


def test_identical_fixes_are_applied_once_and_both_count():
    fixes = _fixes([_edit(1, 2, "x")], [_edit(1, 2, "x")])
    text, applied = apply_fixes("0123", fixes)
    assert text == "0x23" and len(applied) == 2


def test_edits_outside_the_text_are_refused():
    assert apply_fixes("012", _fixes([_edit(2, 9, "x")])) == ("012", [])


def test_a_byte_order_mark_is_kept_and_not_counted():
    before = "\ufeff" + BASE.replace("monster skeleton", "monster Skeleton")
    run = fix_source(before, "q.quest")
    assert run.source == "\ufeff" + BASE and run.writable


def test_crlf_line_endings_are_kept_by_line_edits():
    before = BASE.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes").replace("\n", "\r\n")
    run = fix_source(before, "q.quest")
    assert run.source == BASE.replace("\n", "\r\n")
    cap = CORRIDOR.replace("\n", "\r\n")
    run = fix_source(cap, "q.quest", unsafe=True)
    assert "piece C1_end dead_end at 6,1\r\n" in run.source and "\n" not in run.source.replace("\r\n", "")


def test_source_text_positions():
    text = SourceText("ab\ncd\n\nef", "f")
    assert text.position(0) == (1, 1) and text.position(4) == (2, 2) and text.position(7) == (4, 1)
    assert text.span(3, 7) == Span("f", 2, 1, 4, 1, 3, 7)


# ---- fix_source: passes, safety ------------------------------------------------------------


def test_safe_only_unless_asked():
    before = BASE.replace("monster skeleton", "monster skeletn").replace("  conquest 3\n", "  Conquest 3\n")
    assert chosen_fixes(check_source(before, "q.quest").diagnostics) != []
    run = fix_source(before, "q.quest")
    assert run.writable and "  conquest 3\n" in run.source  # the keyword: safe
    assert "skeletn" in run.source  # the guess waits for --unsafe-fixes
    assert fix_source(before, "q.quest", unsafe=True).source == BASE


def test_passes_go_on_until_nothing_is_left():
    """The typo hides the glyph problem (names first); fixing it lets the checks run; the next pass moves it."""
    before = BASE.replace("monster skeleton at 2,2", "monster skeletn at 0,0")
    run = fix_source(before, "q.quest", unsafe=True)
    assert run.passes == 2 and run.converged
    assert "monster skeleton at 1,0" in run.source
    assert not run.result.diagnostics


def test_syntax_errors_get_only_their_own_fixes_and_block_writing_unless_all_cured():
    before = BASE.replace("  pieces R2\n", "  pieces R2 R1\n").replace("  monster skeleton", "  monster skeleton {")
    run = fix_source(before, "q.quest", unsafe=True)
    assert run.changed and not run.writable  # the comma was fixed, the brace is still wrong


def test_a_pass_that_breaks_the_syntax_is_undone():
    real = lambda text: check_source(text, "q.quest")  # noqa: E731
    calls = []

    def check(text):
        result = real(text)
        calls.append(text)
        if len(calls) == 1:  # a bad fix: delete the header's closing brace
            brace = text.index("}")
            d = Diagnostic(
                "Q504",
                Severity.WARNING,
                "bad",
                Span("q.quest", 3, 1, 3, 2, brace, brace + 1),
                fixes=(Fix("break it", (Edit(Span("q.quest", 3, 1, 3, 2, brace, brace + 1), ""),)),),
            )
            result.diagnostics = [d]
        return result

    run = fix_source(BASE, "q.quest", check=check)
    assert run.broke and not run.changed and run.source == BASE


def test_a_fix_that_never_settles_stops_after_the_last_pass():
    def check(text):
        result = check_source(text, "q.quest")
        d = Diagnostic(
            "Q504",
            Severity.WARNING,
            "again",
            Span("q.quest", 1, 1, 1, 1, 0, 0),
            fixes=(Fix("add a comment", (Edit(Span("q.quest", 1, 1, 1, 1, 0, 0), "# x\n"),)),),
        )
        result.diagnostics = [d]
        return result

    run = fix_source(BASE, "q.quest", check=check, max_passes=3)
    assert run.passes == 3 and not run.converged and run.source.startswith("# x\n# x\n# x\n")


# ---- fixes that must not make the real problem worse ----------------------------------------------

GAP = dedent("""
    quest "Gap" {
      conquest 5
    }

    piece R1 room_4x4 at 0,0
    piece C1 corridor_2x4 at 4,1
    piece R2 room_4x4 at 9,0
    door d between R1 C1

    area A "Hall" start { pieces R1; glyph at 0,0 active }
    area B "Passage" { pieces C1 }
    area C "Lair" { pieces R2; named boss at 10,1 }

    named boss "The Boss" ogre { conquest 2 }
    victory heroes when killed boss
""")


def test_an_open_end_a_room_one_cell_away_should_meet_is_not_capped():
    """Capping the corridor would cut the room off for good (it was offered: the dead end at 8,1);
    the fix moves the room onto the end instead, and the quest is then clean."""
    d, fix = fixable(GAP, "Q202")
    assert "move `R2` to 8,0 (1 west), where it joins `C1`" in d.help and "dead_end" not in str(fix)
    fixed = fix_source(GAP, "q.quest", unsafe=True).source
    assert "piece R2 room_4x4 at 8,0" in fixed and "dead_end" not in fixed
    assert [x.code for x in check_source(fixed, "q.quest").diagnostics] == []


def test_a_truly_loose_end_is_still_capped():
    source = (
        GAP.replace("piece R2 room_4x4 at 9,0", "piece R2 room_4x4 at 0,4")
        .replace("named boss at 10,1", "named boss at 1,5")
        .replace("door d between R1 C1", "door d between R1 C1\ndoor e between R1 R2")
    )
    d, fix = fixable(source, "Q202")
    assert "dead_end at 8,1" in d.help


def test_a_misplaced_corridor_is_moved_not_the_monsters_on_it():
    """A corridor typed one row off: its door has no joint, its end meets a wall and its monsters
    are off the map. The fix moves the corridor (the monsters then stand on it), never the monsters."""
    source = (
        GAP.replace("piece C1 corridor_2x4 at 4,1", "piece C1 corridor_2x4 at 4,2")
        .replace("piece R2 room_4x4 at 9,0", "piece R2 room_4x4 at 8,0")
        .replace('area B "Passage" { pieces C1 }', 'area B "Passage" { pieces C1; monster beastman at 5,1 6,1 }')
    )
    result = check_source(source, "q.quest")
    off = [d for d in result.diagnostics if d.code == "Q204"]
    assert len(off) == 2 and all(not d.fixes and "move `C1`, not this" in d.help for d in off)
    door = next(d for d in result.diagnostics if d.code == "Q205")
    assert "move `C1` to 4,1 (1 north), where it joins `R1`, `R2`" in door.help and door.fixes
    fixed = fix_source(source, "q.quest", unsafe=True).source
    assert "piece C1 corridor_2x4 at 4,1" in fixed and "monster beastman at 5,1 6,1" in fixed
    assert [x.code for x in check_source(fixed, "q.quest").diagnostics] == []
