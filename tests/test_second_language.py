"""The second edition as its quest guides write it (issue 25): the statements the guides need (groups,
open groups, tokens placed by the overlord or carried, roles, counters, recurring rules, the new effects
and conditions), what the resolver says of their names, the board's pit rule, the analysis of what the
heroes can defeat, carry and raise, and how the checks and the outputs read them. The codes' own
examples are run by tests/test_rules.py; these are the cases around them."""

from __future__ import annotations

import json

import pytest
from helpers import assert_codes, compile_source, render

from questc.api import check_source
from questc.emit.engine_json import engine_document
from questc.fmt import format_source
from questc.rules.second_examples import HEAD, MAP, second

# The example map with tile 3B west of tile 9A instead of the end cap (both capped): two areas.
TWO = (
    "piece T tile_9a at 0,0\npiece In entrance at 1,-2 turn 180\npiece Out exit at 4,1 turn 270\n"
    "piece Yard tile_3b at -6,0\npiece YardEnd end_cap at -7,1 turn 90\npiece YardCap end_cap at -4,4\n"
)


def two_areas(
    a: str = "", b: str = "", win: str = "victory heroes when exited\n", head: str = HEAD, tail: str = ""
) -> str:
    return (
        head + TWO + tail + f'area A "Hall" start {{\n  pieces T, In, Out\n{a}}}\n'
        f'area B "Yard" {{\n  pieces Yard, YardEnd, YardCap\n{b}}}\n' + win
    )


# ---- the statements, resolved ------------------------------------------------------------


def test_groups_are_sized_by_the_card_for_the_heroes_or_as_written():
    compiled = compile_source(
        two_areas(
            b="  group goblin_archer on Yard\n  group barghest minions heroes -1 "
            "masters 0\n  open group cult on Yard\n",
            head=HEAD.replace("  edition second\n", "  edition second\n  traits cave\n"),
        ),
        "q.quest",
    )
    groups = compiled.model.groups
    assert [(g.id, g.kind, g.pieces) for g in groups.values()] == [
        ("goblin_archer", "monster", ("Yard",)),
        ("barghest", "monster", ()),
        ("cult", "open", ("Yard",)),
    ]
    assert [groups["goblin_archer"].size(h) for h in (2, 3, 4)] == [(2, 1), (3, 1), (4, 1)]
    assert [groups["barghest"].size(h) for h in (2, 4)] == [(1, 0), (3, 0)]
    assert groups["barghest"].cells == compiled.model.areas["B"].cells  # no `on`: anywhere in the area
    assert compiled.model.heroes() == (2, 4)


def test_the_names_the_new_statements_take_are_looked_up():
    result = assert_codes(
        two_areas(
            b="  group goblin_archr on Yard\n  group zombie on Yrd {\n    all +1 helth\n  }\n",
            head=HEAD.replace("  edition second\n", "  edition second\n  traits cavern\n"),
            tail="counter alarm\n",
            win="victory heroes when carried ky to edge or alarm2 > 1 or defeated zombee\n"
            "at end of each round {\n  remove nothing\n  alarm +1\n}\n",
        ),
        "Q101",
        "Q101",
        "Q101",
        "Q103",
        "Q103",
        "Q103",
        "Q103",
        "Q103",
    )
    messages = render(result)
    for words in (
        "unknown trait `cavern`",
        "did you mean `goblin_archer`",
        "no piece `Yrd`",
        "monster characteristic `helth`",
        "no token `ky`",
        "no counter `alarm2`",
        "no token `nothing`",
        "`zombee`",
    ):
        assert words in messages, words


def test_each_monster_group_once_and_each_token_name_once():
    result = assert_codes(
        two_areas(
            a='  objective key at 1,1\n  objective red key "Again" at 2,2\n',
            b="  group zombie on Yard\n  group zombie\n",
        ),
        "Q101",
        "Q102",
    )
    assert "monster group `zombie`" in render(result)
    result = assert_codes(two_areas(a='  objective key "K" at 1,1\n  villager key "V" at 2,2\n'), "Q102")
    assert "token `key`" in render(result)


def test_second_edition_rules_in_a_first_edition_quest_are_q509():
    first = (
        'quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\nentrance R1\n'
        "area A start {\n  pieces R1\n  glyph at 0,0 active\n  group beastman on R1\n}\n"
        "victory heroes when defeated beastman\n"
    )
    result = assert_codes(first, "Q509", "Q509", "Q509")
    assert sorted(d.message.split(":")[0] for d in result.diagnostics) == [
        "`defeated` is a second edition victory condition",
        "`entrance` is a second edition rule",
        "`group` is a second edition rule",
    ]
    # Counters and rules of each round are any edition's.
    assert_codes(
        'quest "Q" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\ncounter bells\n'
        "at end of each round {\n  bells +1\n}\narea A start { pieces R1; glyph at 0,0 active }\n"
        "victory heroes when bells >= 3\n"
    )


def test_the_formatter_keeps_every_new_form():
    source = two_areas(
        a='  objective white acolyte "The Acolyte" carried\n  search among 1,1 2,2 count heroes -1\n',
        b="  group barghest on Yard minions 2 {\n    all: +2 health\n  }\n  open group\n  lieutenant splig on Yard\n",
        tail="counter alarm\nentrance In\n",
        win="victory heroes when carried acolyte to edge or defeated all then encounter 2A\n"
        "at start of each hero turn if splig in B or round > 3 {\n  alarm 2\n"
        "  place 2 zombie master on Yard up to limit\n  replace acolyte with search\n}\n"
        "on defeated splig {\n  alarm -1\n}\n",
    )
    formatted = format_source(source, "q.quest").output
    assert format_source(formatted, "q.quest").output == formatted
    for line in (
        "    all +2 health",
        "victory heroes when carried acolyte to edge or defeated all then encounter 2a",
        "at start of each hero turn if splig in B or round > 3 {",
        "  place 2 zombie master on Yard up to limit",
        "  search among 1,1 2,2 count heroes -1",
        "  group barghest on Yard minions 2 {",
    ):
        assert line in formatted.splitlines(), line


# ---- the board and the analysis ---------------------------------------------------------------------


PITS = HEAD + (
    "piece T tile_4b at 0,0\npiece In entrance at 2,-2 turn 180\npiece W end_cap at -1,2 turn 90\n"
    'area A "Pits" start {\n  pieces T, In, W\n%s}\nvictory heroes when round > 3\n'
)


def test_no_step_from_pit_to_pit_but_a_pit_is_crossed_by_climbing_out():
    """Tile 4B (as revised) has pits along its north row: x 0-3 and 5, y 0."""
    compiled = compile_source(PITS % "", "q.quest")
    board = compiled.board
    assert set(board.pits) == {(0, 0), (1, 0), (2, 0), (3, 0), (5, 0)}
    assert (1, 0) not in board.steps_from((0, 0)) and (0, 1) in board.steps_from((0, 0))
    assert (0, 0) in compiled.analysis.reached  # stepped into from below, never along the row


def test_roles_choose_where_the_heroes_start_and_leave():
    """`entrance Out`: the heroes start on the exit piece; `exit In`: they leave by the entrance piece."""
    source = second(map_=MAP + "entrance Out\nexit In\n")
    compiled = compile_source(source, "q.quest")
    document = engine_document(compiled)
    assert document["start"]["cells"] == [[4, 1], [4, 2], [5, 1], [5, 2]]
    assert [(r["piece"], r["declared"]) for r in document["roles"]["exits"]] == [("In", True)]
    assert_codes(second(map_=MAP + "exit T\n"))  # a tile may be the exit: its spaces beside the outside


def test_counters_range_over_the_effects_that_can_run():
    compiled = compile_source(
        second(
            win="victory heroes when exited\nvictory overlord when alarm >= 3\n"
            "counter alarm\non round 2 {\n  alarm +1\n}\n"
            "at end of each round {\n  alarm +2\n}\n"
        ),
        "q.quest",
    )
    assert engine_document(compiled)["counters"] == [{"id": "alarm", "name": "alarm", "min": 0, "max": None}]
    result = assert_codes(
        second(
            win="victory heroes when exited\nvictory overlord when alarm >= 3\n"
            "counter alarm\non round 2 {\n  alarm +2\n}\n"
        ),
        "Q307",
    )
    assert "the counter `alarm` goes no higher than 2" in render(result)
    result = assert_codes(second(win="victory heroes when exited\ncounter alarm\n"), "Q511")
    assert "the counter `alarm` is never raised" in render(result) and "nothing raises it" in render(result)


def test_a_group_the_heroes_cannot_reach_cannot_be_defeated():
    island = MAP + "piece R tile_10a at 8,0\n"
    result = assert_codes(
        second(
            "  group zombie on R\n  group cave_spider on T\n",
            map_=island,
            pieces="T, In, Out, Cap, R",
            win="victory heroes when defeated cave_spider\nvictory overlord when defeated all\n",
        ),
        "Q312",
        "Q215",
        "Q215",
        "Q306",
    )
    assert "needs every monster defeated" in render(result) and "`zombie`" in render(result)
    assert_codes(second("  group zombie on T\n", win="victory heroes when not defeated zombie and exited\n"))


def test_a_token_to_carry_must_be_an_objective_within_reach():
    result = assert_codes(
        second('  villager boy "The Boy" at 1,1\n', win="victory heroes when carried boy to In\n"), "Q313"
    )
    assert "only objective tokens are carried" in render(result)
    assert_codes(
        second('  objective acolyte "The Acolyte" carried\n', win="victory heroes when carried acolyte to edge\n")
    )


def test_setup_and_reinforcements_need_room():
    # The end cap holds two spaces: a zombie group of four heroes is five figures.
    assert_codes(second("  group zombie on Cap\n"), "Q216")
    assert_codes(second("  group zombie on Cap minions 1 masters 1\n"))
    result = assert_codes(
        second(win="victory heroes when exited\nat end of each round {\n  place heroes zombie on Cap\n}\n"), "Q217"
    )
    assert "with 4 heroes" in render(result)
    assert_codes(second("  villager on Cap count 3\n"), "Q216")


def test_a_group_counts_its_figures_for_the_most_heroes():
    from questc.diagnostics.core import Severity

    # With five players a zombie group is four minions and a master: the box holds four and one.
    result = assert_codes(second("  group zombie on T\n  monster zombie at 0,0\n"), "Q403")
    (diagnostic,) = result.diagnostics
    assert diagnostic.severity is Severity.WARNING  # the group's size is the card's estimate
    assert "5 normal zombie figures are on the map with 5 players" in render(result)
    assert "4 of 4" in render(result)  # the group's label
    assert_codes(
        second(
            "  group zombie on T\n  monster zombie at 0,0\n",
            head=HEAD.replace("  edition second\n", "  edition second\n  players 2..4\n"),
        )
    )
    # Sizes written are no estimate: an error; a lieutenant is no zombie.
    result = assert_codes(
        second("  group zombie on T minions heroes masters 0\n  monster zombie at 0,0\n  lieutenant splig on T\n"),
        "Q403",
    )
    assert result.diagnostics[0].severity is Severity.ERROR


def test_an_open_group_needs_the_quest_s_traits_and_a_monster_left():
    head = HEAD.replace("  edition second\n", "  edition second\n  traits mountain\n")
    # ettin is the one monster with the mountain trait: one open group, not two
    assert_codes(second("  open group on T\n", head=head))
    result = assert_codes(second("  open group on T\n  open group on T\n", head=head), "Q412")
    assert "only 1 monster has one of the quest's traits (mountain)" in render(result)
    assert_codes(second("  group ettin on T\n  open group on T\n", head=head), "Q412")


def test_what_the_overlord_places_is_on_the_cells_it_may_go_to():
    compiled = compile_source(
        two_areas(a='  villager clergy "Wounded Clergy" on T count heroes\n', b="  group zombie on Yard\n"), "q.quest"
    )
    here = compiled.contents_of((1, 1))
    assert [t.id for t in here.tokens] == ["clergy"] and not here.groups
    assert [g.words for g in compiled.contents_of((-5, 1)).groups] == ["the zombie group"]


def test_a_group_on_another_area_s_piece_is_q204():
    result = assert_codes(two_areas(a="  group zombie on Yard\n"), "Q204")
    assert "the zombie group at piece `Yard` is in area `B`, not in its own area `A`" in render(result)


# ---- the engine JSON ---------------------------------------------------------------------------------


def test_the_engine_json_carries_groups_tokens_counters_and_rules(tmp_path):
    from jsonschema import Draft202012Validator

    from questc.emit.engine_json import schema_text

    compiled = compile_source(
        two_areas(
            a='  objective white acolyte "The Acolyte" carried\n',
            b="  group barghest on Yard {\n    all +2 health\n  }\n",
            tail='counter alarm "the alarm"\n',
            win="victory heroes when carried acolyte to edge then encounter 2\n"
            "victory overlord when alarm >= 2\nat end of each overlord turn if barghest in A {\n  alarm +1\n}\n",
        ),
        "q.quest",
    )
    document = json.loads(json.dumps(engine_document(compiled)))
    assert list(Draft202012Validator(json.loads(schema_text())).iter_errors(document)) == []
    (group,) = document["groups"]
    assert group["changes"] == [{"who": "all", "stat": "health", "amount": 2, "relative": True}]
    assert group["sizes"][-1] == {"heroes": 4, "minions": 3, "masters": 1}
    assert document["tokens"][0]["placement"] == "carried" and document["tokens"][0]["name"] == "The Acolyte"
    (rule,) = document["triggers"]
    assert (rule["event"], rule["phase"], rule["every"]) == ("each", "end", "overlord turn")
    assert rule["condition"] == {"event": "in", "target": "barghest", "destination": "A"}
    assert document["victory"][0]["next"] == "2"
    assert document["victory"][1]["when"] == {"counter": "alarm", "op": ">=", "value": 2, "declared": True}


@pytest.mark.parametrize("written,label", [("2", "2"), ("2A", "2a"), ("12b", "12b")])
def test_encounter_numbers_and_alternatives(written, label):
    head = HEAD.replace("  edition second\n", f"  edition second\n  encounter {written}\n  part_of toll\n")
    model = check_source(second(head=head), "q.quest").model
    assert model.encounter_label == label and model.encounter_header().label == label


# ---- the guide -----------------------------------------------------------------------------------------


@pytest.mark.slow
def test_the_guide_prints_a_quest_of_several_encounters_under_one_heading(tmp_path):
    """`questc guide`: one contents entry for the quest (the words its encounters' titles share), its
    encounters listed under its heading, each sheet after it; the title page counts quests, not files."""
    import shutil
    from pathlib import Path

    from pypdf import PdfReader

    from questc.api import guide

    root = Path(__file__).resolve().parent.parent / "quests"
    for name in (
        "ember_reliquary_1",
        "ember_reliquary_2a",
        "ember_reliquary_2b",
        "ember_reliquary_3",
        "greywater_ferry",
    ):
        shutil.copy(root / f"{name}.quest", tmp_path)
    report = guide([tmp_path], tmp_path / "guide.pdf")
    assert report.written is not None
    reader = PdfReader(str(tmp_path / "guide.pdf"))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert "2 quests, 5 encounters" in text
    contents = " ".join(reader.pages[1].extract_text().split())
    # one entry for the quest, its encounters under it by their numbers, then the other quest
    assert contents.count("The Ember Reliquary for 2–5 players") == 1
    assert (
        contents.index("The Ember Reliquary for")
        < contents.index("Encounter 1: The Ember Reliquary I: The Smugglers' Stair")
        < contents.index("Encounter 2a: ")
        < contents.index("Encounter 2b: ")
        < contents.index("Encounter 3: ")
        < contents.index("The Greywater Ferry")
    )
    outline = reader.outline
    bookmarks = [item.title for item in outline if not isinstance(item, list)]
    assert bookmarks == ["The Ember Reliquary", "The Greywater Ferry", "Index"]
    # pypdf lists an item's children as the list after it
    assert [item.title for item in outline[1] if not isinstance(item, list)][:4] == [
        "The Ember Reliquary I: The Smugglers' Stair",
        "The Ember Reliquary IIa: The Abbey Cellars",
        "The Ember Reliquary IIb: The Burning Chapel",
        "The Ember Reliquary III: The Vault of Embers",
    ]
    heading = text.index("Encounter 1: The Ember Reliquary I: The Smugglers' Stair")
    assert (
        heading
        < text.index("Encounter 2a: The Ember Reliquary IIa")
        < text.index("Encounter 2b: The Ember Reliquary IIb")
        < text.index("Encounter 3: The Ember Reliquary III")
    )


@pytest.mark.slow
def test_questc_guide_says_how_many_quests_and_encounters_it_wrote(tmp_path):
    from pathlib import Path

    from click.testing import CliRunner

    from questc.cli import cli

    root = Path(__file__).resolve().parent.parent / "quests"
    files = [
        str(root / f"{name}.quest")
        for name in (
            "ember_reliquary_1",
            "ember_reliquary_2a",
            "ember_reliquary_2b",
            "ember_reliquary_3",
            "greywater_ferry",
        )
    ]
    target = tmp_path / "guide.pdf"
    result = CliRunner().invoke(cli, ["guide", *files, "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert f"wrote {target.as_posix()} (2 quests, 5 encounters)" in result.output
