"""The logic family (Q5xx, questc.rules.logic): victory, chest chart, encounters, player counts, conquest,
printed text. The family is its table: a code added there is tested here with no edit."""

from __future__ import annotations

import pytest
from conftest import SHARED
from helpers import assert_codes, dedent, render, span_text

from questc.api import check_source
from questc.diagnostics import Severity
from questc.options import Options
from questc.rules import descriptors, family_rules
from questc.rules.logic import conquest_on_the_map as q507
from questc.rules.logic import text_overflows_box as q508
from questc.rules.logic.text_overflows_box import BOX_LINES, BOX_WIDTH

Q5 = Options(select=("Q5",), verbose=True)
SPEC = SHARED / "spec" / "DIAGNOSTICS.md"


def check5(source: str, *codes: str):
    """Only this family's codes (and syntax and name errors), Q507's note left out unless asked for."""
    result = check_source(dedent(source), "<quest>", Q5)
    got = sorted(d.code for d in result.diagnostics if d.code != "Q507" or "Q507" in codes)
    assert got == sorted(codes), f"expected {sorted(codes)}, got {got}:\n{render(result)}"
    return result


def only(result, code):
    found = [d for d in result.diagnostics if d.code == code]
    assert len(found) == 1, render(result)
    return found[0]


HEAD = """\
    quest "Q" {
      conquest 3
    }
    """

HALL = (
    HEAD
    + """\
    piece R1 room_6x6 at 0,0
    area A "Hall" start {
      pieces R1
      glyph at 0,0 active
      named chief at 5,5
    """
)


def hall(area: str = "", tail: str = "", win: str = "victory heroes when killed chief\n") -> str:
    """A one-room quest: `area` lines go into the hall (indented 6), `tail` after the named monster."""
    return (
        HALL
        + "".join(f"      {line}\n" for line in area.splitlines() if line)
        + "    }\n"
        + '    named chief "Chief" beastman { conquest 1 }\n'
        + "".join(f"    {line}\n" for line in tail.splitlines())
        + "".join(f"    {w}\n" for w in win.splitlines())
    )


# ---- Q501 ----------------------------------------------------------------------------------------


def test_q501_only_the_overlord_can_win():
    result = check5(hall(win="victory overlord when conquest 0"), "Q501")
    d = only(result, "Q501")
    assert span_text(result.source, d.span) == '"Q"'
    assert [span_text(result.source, label.span) for label in d.labels] == ["overlord"]
    assert "victory heroes" in d.help and "killed chief" in d.help


def test_q501_no_victory_at_all_suggests_an_area_when_there_is_no_named_monster():
    source = (
        HEAD
        + """\
    piece R1 room_4x4 at 0,0
    piece R2 room_4x4 at 4,0
    area A "Hall" start { pieces R1; glyph at 0,0 active }
    area B "Vault" { pieces R2 }
    """
    )
    d = only(check5(source, "Q501"), "Q501")
    assert "revealed B" in d.help


def test_q501_fixed():
    check5(hall(win="victory heroes when killed chief\nvictory overlord when conquest 0"))


# ---- Q502, Q503 ------------------------------------------------------------------------------------


def test_q502_two_copper_chests_one_copper_row():
    result = check5(hall("chest copper at 2,2 4,4", "chests {\n  copper 1: coins 50\n}"), "Q502")
    d = only(result, "Q502")
    assert d.message == "2 copper chests are placed, but the chest chart has 1 copper row"
    assert span_text(result.source, d.span) == "4,4"  # the chest left without a row
    assert [span_text(result.source, label.span) for label in d.labels] == ["copper"]
    assert "`copper 2: ...`" in d.help


def test_q502_without_any_chart():
    result = check5(hall("chest gold at 2,2"), "Q502")
    d = only(result, "Q502")
    # one chest: singular, and "no rows" rather than "0 rows"
    assert d.message == "1 gold chest is placed, but the chest chart has no gold rows"
    assert d.labels[0].message == "this quest has no `chests` chart"


def test_q502_missing_numbers_are_named_and_a_number_written_twice_counts_once():
    chart = "chests {\n  silver 2: coins 50\n  silver 2: coins 100\n}"
    d = only(check5(hall("chest silver at 1,1 2,2 3,3", chart), "Q502"), "Q502")
    assert "1 silver row" in d.message
    assert "`silver 1: ...` and `silver 3: ...`" in d.help


def test_q502_fixed():
    check5(hall("chest copper at 2,2 4,4", "chests {\n  copper 1: coins 50\n  copper 2: copper\n}"))


def test_q503_rows_for_a_chest_type_never_placed():
    chart = "chests {\n  copper 1: coins 50\n  gold 1: gold, conquest 3\n  gold 2: gold\n}"
    result = check5(hall("chest copper at 2,2", chart), "Q503")
    d = only(result, "Q503")
    assert d.severity is Severity.WARNING
    assert d.message == "the chest chart has 2 gold rows, but no gold chest is placed"
    assert (
        span_text(result.source, d.span) == "gold"
        and d.span.line == result.source.splitlines().index("  gold 1: gold, conquest 3") + 1
    )
    assert len(d.labels) == 1


def test_q503_fixed():
    check5(hall("chest copper at 2,2\nchest gold at 3,3", "chests {\n  copper 1: coins 50\n  gold 1: gold\n}"))


# ---- Q504 ------------------------------------------------------------------------------------------


def test_q504_an_empty_encounter():
    result = check5(hall("encounter well at 2,2 { }"), "Q504")
    d = only(result, "Q504")
    assert span_text(result.source, d.span) == "well"


@pytest.mark.parametrize("body", ['read "The well is dry."', "conquest +1", 'instruct "Roll a power die."'])
def test_q504_text_or_any_effect_is_enough(body):
    check5(hall(f"encounter well at 2,2 {{ {body} }}"))


# ---- Q505 ------------------------------------------------------------------------------------------


def test_q505_the_quest_for_more_players_than_the_game_has():
    source = HEAD.replace("conquest 3", "players 2..6\n      conquest 3") + hall()[len(HEAD) :]
    result = check5(source, "Q505")
    d = only(result, "Q505")
    assert span_text(result.source, d.span) == "2..6"
    assert d.help == "write `players 2..5`"


def test_q505_a_figure_for_player_counts_the_quest_does_not_have():
    source = (
        HEAD.replace("conquest 3", "players 2..4\n      conquest 3")
        + hall("monster beastman at 2,2 players 4..5")[len(HEAD) :]
    )
    result = check5(source, "Q505")
    d = only(result, "Q505")
    assert span_text(result.source, d.span) == "4..5"
    assert d.help == "write `players 4`"
    assert [span_text(result.source, label.span) for label in d.labels] == ["2..4"]


def test_q505_a_figure_that_never_appears():
    source = (
        HEAD.replace("conquest 3", "players 2..3\n      conquest 3")
        + hall("monster beastman at 2,2 players 5")[len(HEAD) :]
    )
    d = only(check5(source, "Q505"), "Q505")
    assert "never appears" in d.message


def test_q505_fixed():
    check5(
        HEAD.replace("conquest 3", "players 2..4\n      conquest 3")
        + hall("monster beastman at 2,2 players 3..4")[len(HEAD) :]
    )


# ---- Q506 ------------------------------------------------------------------------------------------


def test_q506_no_starting_conquest():
    result = check5(hall().replace("conquest 3\n", "conquest 0\n", 1), "Q506")
    d = only(result, "Q506")
    assert span_text(result.source, d.span) == "conquest 0"


def test_q506_conquest_is_a_required_header_field():
    result = check5(hall().replace("      conquest 3\n", "      players 2..5\n", 1), "Q506")
    d = only(result, "Q506")
    assert span_text(result.source, d.span) == '"Q"'
    assert "required" in d.message


def test_q506_fixed():
    check5(hall())


# ---- Q507 ------------------------------------------------------------------------------------------


RICH = hall(
    "glyph at 2,0\nglyph at 3,0\nchest silver at 2,2 3,3\nencounter well at 1,4 { conquest +2; conquest -1 }",
    "chests {\n  silver 1: conquest 2\n  silver 2: coins 50\n  silver 3: conquest 4\n}\n"
    "on killed chief { conquest +1 }",
)


def test_q507_sums_glyphs_chests_encounters_triggers_and_named_monsters():
    result = check5(RICH, "Q507")
    d = only(result, "Q507")
    assert d.severity is Severity.INFO
    # glyphs 2x3; the two best silver rows of three (4 + 2); encounter gains only; trigger 1; chief 1
    assert "start with 3 conquest and can gain up to 16" in d.message
    assert "(glyphs 6, chests 6, encounters 2, triggers 1, named monsters 1)" in d.message
    assert span_text(result.source, d.span) == "conquest 3"


def test_q507_counts_only_what_the_heroes_reach():
    result = check_source(dedent(RICH), "<quest>", Q5)
    model = result.model
    glyph = next(m for m in model.markers if m.kind == "glyph" and not m.active)
    everything = frozenset((x, y) for x in range(6) for y in range(6))
    # One glyph, one chest and the encounter out of reach; the chief stands next to reached cells.
    cut = everything - {glyph.at, (2, 2), (1, 4)}
    reach = q507.Reach(cut, frozenset({"A"}), frozenset())
    d = q507.conquest_available(model, reach)[0]
    assert "can gain up to 9 where they can reach" in d.message  # glyph 3, chest 4, trigger 1, chief 1
    whole = q507.conquest_available(model, None)[0]
    assert "can gain up to 16 on the map" in whole.message


def test_q507_without_an_analysis_the_whole_map_counts():
    class NoAnalysis:
        model = None

        @property
        def analysis(self):
            raise ImportError("questc.analysis is not built yet")

    assert q507.reach_of(NoAnalysis()) is None


def test_q507_not_reported_without_a_starting_conquest():
    result = check_source(dedent(hall().replace("conquest 3\n", "conquest 0\n", 1)), "<quest>", Q5)
    assert "Q507" not in {d.code for d in result.diagnostics}


# ---- Q508 ------------------------------------------------------------------------------------------


def test_printed_lines_wrap_at_the_box_width():
    assert q508.printed_lines("short") == 1
    assert q508.printed_lines("word " * 30) == 3  # 150 characters at 60 a line
    assert q508.printed_lines("a\n\nb") == 3  # a blank line takes a line too
    assert q508.printed_lines("x" * (BOX_WIDTH + 1)) == 2  # a word wider than the box is broken


def long_text(lines: int) -> str:
    return '"""\n' + "".join(f"  Line {i} of the tale.\n" for i in range(lines)) + '"""'


def test_q508_an_area_text_longer_than_a_box():
    source = hall("read " + long_text(BOX_LINES + 1))
    d = only(check5(source, "Q508"), "Q508")
    assert d.severity is Severity.WARNING
    assert (
        d.message == f"this read-aloud text of area A needs {BOX_LINES + 1} printed lines, but a box holds {BOX_LINES}"
    )
    assert "shorten it by about 1 line," in d.help  # one line: singular


def test_q508_a_text_that_just_fits():
    check5(hall("read " + long_text(BOX_LINES)))


def test_q508_intro_special_and_effect_texts():
    text = "word " * (BOX_WIDTH * BOX_LINES // 4)  # one line of 1,500 characters: 25 printed lines
    source = dedent(hall(f'encounter well at 2,2 {{ read "{text}" }}', f'on round 3 {{ read "{text}" }}'))
    source = source.replace("conquest 3\n", f'conquest 3\n  intro "{text}"\n  special "{text}"\n', 1)
    result = check_source(source, "<quest>", Q5)
    whats = sorted(d.message.split(" needs")[0] for d in result.diagnostics if d.code == "Q508")
    assert whats == [
        "this intro",
        "this read-aloud text",
        "this read-aloud text of encounter `well`",
        "this special rules text",
    ], render(result)


# ---- acceptance-style whole quests, and the pages ---------------------------------------------------


def test_a_clean_quest_has_no_logic_problem():
    assert_codes(hall(win="victory heroes when killed chief"), options=Options(select=("Q5",)))


FAMILY = [rule.descriptor for rule in family_rules("logic")]


def test_the_family_is_its_table():
    """Every Q5 code is in the logic family's table (the table, not a range written here, says which
    codes the family has), and the contract's Q5 codes are among them."""
    codes = [d.code for d in FAMILY]
    assert codes and codes == sorted(codes) and codes == [c for c in descriptors() if c.startswith("Q5")]
    if SPEC.is_file():
        import re

        assert set(re.findall(r"^\| (Q5\d\d) \|", SPEC.read_text(encoding="utf-8"), re.M)) <= set(codes)


def test_q520_is_opt_in_and_names_what_would_print_as_an_identifier():
    """Q520 shows only when named (not by default, not by its family's prefix); its message quotes
    the words the sheet would print, and its fix (a guess: unsafe) adds a name made from them."""
    source = dedent("""
        quest "Q" {
          conquest 3
        }
        piece R1 room_6x6 at 0,0
        piece C1 corridor_2x4 at 6,2
        door front between R1 C1
        door back_gate "The Back Gate" between C1 R1
        area A "Hall" start {
          pieces R1, C1
          glyph at 0,0 active
          named chief at 5,5
        }
        named chief "Chief" beastman { conquest 1 }
        victory heroes when killed chief
    """)
    assert "Q520" not in {d.code for d in check_source(source, "<quest>").diagnostics}
    assert "Q520" not in {d.code for d in check_source(source, "<quest>", Q5).diagnostics}
    result = check_source(source, "<quest>", Options(extend_select=("Q520",)))
    found = [d for d in result.diagnostics if d.code == "Q520"]
    assert [d.message for d in found] == ["the door `front` prints as “the door front” on the sheet"]
    assert span_text(source, found[0].span) == "front"
    assert found[0].fixes and found[0].fixes[0].applicability == "unsafe"
    assert found[0].fixes[0].edits[0].text == ' "The Front Door"'


@pytest.mark.parametrize("descriptor", FAMILY, ids=lambda d: d.code)
def test_q5_pages_failing_example_reports_the_code_and_fixed_does_not(descriptor):
    # (an opt-in code shows only when named, whole: its family's prefix does not select it)
    options = Options(select=("Q5", descriptor.code), verbose=True)
    failing = check_source(descriptor.example.failing, "failing.quest", options)
    assert descriptor.code in {d.code for d in failing.diagnostics}, render(failing)
    fixed = check_source(descriptor.example.fixed, "fixed.quest", options)
    if descriptor.code != "Q507":  # a note, not a fault: it shows for every quest
        assert descriptor.code not in {d.code for d in fixed.diagnostics}, render(fixed)
    assert not fixed.errors, render(fixed)


@pytest.mark.parametrize("descriptor", FAMILY, ids=lambda d: d.code)
def test_q5_templates_use_exactly_their_fields(descriptor):
    assert descriptor.placeholders() == set(descriptor.fields)
    assert descriptor.code in descriptor.page()
