"""A victory that can never come true is an error (Q307, or the error that causes it), whatever
makes it so; a near miss that can come true gives none. `questc.analysis.conditions` decides
whether a condition can hold at all; the rule says why not."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from helpers import assert_codes, span_text

from questc.cli import cli

HEAD = 'quest "T" {\n  conquest 5\n}\n'
ROOMS = "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n"


def quest(
    victory: str,
    *,
    door: str = "door d between R1 R2",
    start: str = "",
    beyond: str = "",
    head: str = HEAD,
    tail: str = "",
) -> str:
    return (
        head
        + ROOMS
        + door
        + "\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active'
        + start
        + " }\n"
        + 'area B "Lair" { pieces R2; named boss at 6,1'
        + beyond
        + " }\n"
        + 'named boss "The Boss" ogre { conquest 2 }\n'
        + tail
        + victory
        + "\n"
    )


def q307(source: str, *codes: str):
    result = assert_codes(source, *codes)
    return [d for d in result.diagnostics if d.code == "Q307"], result


# ---- the reproducer, and what a key can do -----------------------------------------------


def test_the_only_victory_behind_a_red_door_with_only_a_blue_key_is_an_error(tmp_path):
    source = quest(
        "victory heroes when killed boss", door="door vault between R1 R2 rune red", start="; runekey blue at 2,2"
    )
    (found,), result = q307(source, "Q304", "Q307")
    assert span_text(result.source, found.span) == "killed boss"
    assert "nothing on the map unlocks red" in found.message
    path = tmp_path / "wrong_key.quest"
    path.write_text(source, encoding="utf-8")
    done = CliRunner().invoke(cli, ["lint", str(path)])
    assert done.exit_code == 1 and "error[Q307]" in done.output


def test_the_right_key_makes_it_winnable():
    assert_codes(
        quest("victory heroes when killed boss", door="door vault between R1 R2 rune red", start="; runekey red at 2,2")
    )


def test_a_key_behind_its_own_door_is_q303_not_again_q307():
    q307(
        quest(
            "victory heroes when killed boss", door="door vault between R1 R2 rune red", beyond="; runekey red at 5,2"
        ),
        "Q303",
    )


def test_another_victory_that_needs_no_door_does_not_excuse_this_one():
    source = quest(
        "victory heroes when killed boss\nvictory heroes when revealed A", door="door vault between R1 R2 rune red"
    )
    (found,), result = q307(source, "Q304", "Q307")
    assert span_text(result.source, found.span) == "killed boss"


# ---- never revealed, out of reach: reported once, by the cause ---------------------------------------


def test_a_sealed_area_is_q301_with_the_victory_as_a_label():
    source = quest("victory heroes when killed boss", door="").replace("R2 room_4x4 at 4,0", "R2 room_4x4 at 9,0")
    result = assert_codes(source.replace("6,1", "11,1"), "Q301")
    (d,) = result.diagnostics
    assert [span_text(result.source, label.span) for label in d.labels] == ["boss"]


def test_a_door_no_hero_can_open():
    source = quest("victory heroes when opened d", start="; obstacle rubble at 3,0..3,3")
    (found,), result = q307(source, "Q301", "Q307")  # the rubble walls off the door, and B behind it
    assert span_text(result.source, found.span) == "d"


# ---- counts no game reaches ------------------------------------------------------------------------


@pytest.mark.parametrize("condition", ["round < 1", "round <= 0", "round = 0", "not round >= 1"])
def test_a_round_before_the_first(condition):
    (found,), _ = q307(quest(f"victory heroes when killed boss and {condition}"), "Q307")
    assert "rounds are counted from 1" in found.message


def test_a_round_after_the_overlord_has_won():
    tail = "on round 12 {\n  win overlord\n}\n"
    (found,), result = q307(quest("victory heroes when round > 12", tail=tail), "Q307")
    assert span_text(result.source, found.span) == "round > 12"
    assert "the overlord wins at the start of round 12" in found.message
    assert_codes(quest("victory heroes when round >= 12 or killed boss", tail=tail))
    assert_codes(quest("victory heroes when round > 11", tail=tail))


def test_a_round_after_the_overlords_own_victory():
    overlord = "victory overlord when round > 15\n"
    (found,), _ = q307(quest(overlord + "victory heroes when round > 16"), "Q307")
    assert "ends the game in round 16" in found.message
    assert_codes(quest(overlord + "victory heroes when round >= 16"))  # a tie: not called impossible


@pytest.mark.parametrize("condition", ["conquest 0", "conquest <= 0", "conquest < 1", "conquest = 0"])
def test_no_conquest_left_is_the_overlords_victory_not_the_heroes(condition):
    (found,), _ = q307(quest(f"victory heroes when killed boss and {condition}"), "Q307")
    assert "the overlord wins as soon as the heroes' conquest reaches 0" in found.message
    assert_codes(quest(f"victory overlord when {condition}\nvictory heroes when killed boss"))


def test_more_conquest_than_the_map_can_give():
    # 5 at the start + 2 for the boss: 7 at most.
    (found,), _ = q307(quest("victory heroes when conquest >= 8"), "Q307")
    assert "start with 5 conquest and can gain 2 more at most" in found.message
    assert_codes(quest("victory heroes when conquest >= 7"))


def test_special_rules_may_give_conquest_so_no_ceiling_is_claimed():
    head = 'quest "T" {\n  conquest 5\n  special "Each rescued villager gives 2 conquest."\n}\n'
    assert_codes(quest("victory heroes when conquest >= 20", head=head))
    tail = 'on round 2 {\n  instruct "The heroes gain 5 conquest for each altar."\n}\n'
    assert_codes(quest("victory heroes when conquest >= 20", tail=tail))


# ---- parts that exclude each other ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "condition",
    [
        "round > 5 and round < 3",
        "killed boss and not killed boss",
        "(round > 5 or conquest >= 3) and round <= 5 and conquest < 3",
        "round = 4 and not round = 4",
    ],
)
def test_a_condition_that_contradicts_itself(condition):
    (found,), result = q307(quest(f"victory heroes when {condition}"), "Q307")
    assert span_text(result.source, found.span) == condition
    assert "its parts can never all be true at once" in found.message


def test_the_start_area_is_never_unrevealed():
    (found,), result = q307(quest("victory heroes when killed boss and not revealed A"), "Q307")
    assert span_text(result.source, found.span) == "not revealed A"
    assert "revealed from the start" in found.message


@pytest.mark.parametrize(
    "condition",
    [
        "round > 5 or round < 3",
        "killed boss or not killed boss",
        "round >= 3 and round <= 3",
        "not (round > 5 and round < 3)",
        "killed boss and not revealed B",
        "conquest >= 3 and round < 9",
    ],
)
def test_near_misses_that_can_hold(condition):
    assert_codes(quest(f"victory heroes when {condition}"))


def test_a_condition_too_large_to_expand_is_never_called_impossible_by_guessing():
    wide = " and ".join(f"(round >= {k} or killed boss)" for k in range(1, 30))  # 2^29 alternatives
    assert_codes(quest(f"victory heroes when {wide}"))


def test_a_chain_of_overlapping_rounds_that_cannot_all_hold():
    chain = " and ".join(f"(round = {k} or round = {k + 1})" for k in range(1, 40))
    (found,), _ = q307(quest(f"victory heroes when killed boss and ({chain})"), "Q307")
    assert "its parts can never all be true at once" in found.message


# ---- the second edition ------------------------------------------------------------------------------------


def test_more_heroes_leaving_than_play():
    from questc.rules.second_examples import second

    (found,), result = q307(second(win="victory heroes when exited >= 5\n"), "Q307")
    assert span_text(result.source, found.span) == "exited >= 5"
    assert "at most 4 heroes play" in found.message
    assert_codes(second(win="victory heroes when exited >= 4\n"))
