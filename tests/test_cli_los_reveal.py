"""`questc los` and `questc reveal`: answers, plain and JSON output, and exit statuses."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from questc.cli import cli
from questc.cli.reveal import render_text

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "Q2_cli"
DROWNED = str(FIXTURES / "drowned.quest")
DOOR_MODE = str(FIXTURES / "door_mode.quest")
BROKEN = str(FIXTURES / "broken.quest")


def questc(*args: str):
    return CliRunner().invoke(cli, list(args))


# ---- los ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "origin, target, opened, answer",
    [
        ("1,1", "4,4", (), "visible"),
        ("0,3", "5,3", (), "blocked"),  # rubble at 2,3
        ("12,2", "13,5", (), "visible"),  # down the T junction's stem
        ("10,2", "12,5", (), "blocked"),  # round the stem's corner
        ("5,2", "6,2", (), "blocked"),  # the closed door `entry`
        ("5,2", "6,2", ("entry",), "visible"),
        ("5,0", "6,2", ("entry",), "blocked"),
    ],
)
def test_los_answers_on_the_first_line(origin, target, opened, answer):
    args = ["los", DROWNED, origin, target]
    for door in opened:
        args += ["--open", door]
    result = questc(*args)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[0] == answer


def test_los_says_what_blocks_and_nothing_when_visible():
    blocked = questc("los", DROWNED, "5,2", "6,2").stdout.splitlines()
    assert blocked[1] == "  in the way: the closed door `entry`"
    assert "first edition; open doors: none" in blocked[2]
    visible = questc("los", DROWNED, "5,2", "6,2", "--open", "entry").stdout.splitlines()
    assert len(visible) == 2 and "open doors: `entry`" in visible[1]


def test_los_json():
    result = questc("los", DROWNED, "0,3", "5,3", "--json")
    data = json.loads(result.stdout)
    assert data["visible"] is False and "rubble" in data["blocked_by"]
    assert data["from"] == [0, 3] and data["to"] == [5, 3]
    assert (data["from_area"], data["to_area"], data["edition"]) == ("A", "A", "first")


def test_los_unknown_door_lists_the_doors_and_exits_2():
    result = questc("los", DROWNED, "5,2", "6,2", "--open", "gate")
    assert result.exit_code == 2
    assert "no door `gate`" in result.stderr and "`entry`, `vault`" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize(
    "origin, target, message",
    [
        ("5,2", "60,2", "60,2 is not a floor cell"),
        ("5", "6,2", "`5` is not a cell"),
    ],
)
def test_los_bad_cells_exit_2(origin, target, message):
    result = questc("los", DROWNED, origin, target)
    assert result.exit_code == 2 and message in result.stderr


def test_los_on_a_quest_with_errors_prints_them_and_exits_1():
    result = questc("los", BROKEN, "1,1", "2,2")
    assert result.exit_code == 1
    assert "error[Q201]" in result.stdout and "visible" not in result.stdout.splitlines()[0]


def test_los_missing_file_exits_2():
    result = questc("los", str(FIXTURES / "missing.quest"), "1,1", "2,2")
    assert result.exit_code == 2 and "cannot read" in result.stderr


# ---- reveal ---------------------------------------------------------------------------


def test_reveal_sight_waves_and_where_each_area_is_first_seen():
    result = questc("reveal", DROWNED)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "reveal mode: sight (an area is revealed when a hero can see into it); first edition",
        "wave 0:",
        '  A  "Entry Hall"  start area',
        "wave 1:",
        '  B  "Flooded Passage"  seen from A',
        "wave 2:",
        '  C  "The Reliquary"  seen from B',
        "never revealed: none",
    ]


def test_reveal_door_mode():
    lines = questc("reveal", DOOR_MODE).stdout.splitlines()
    assert lines[0].startswith("reveal mode: door")
    assert '  B  "Gallery"  entered from A' in lines and '  C  "Vault"  entered from B' in lines


def test_reveal_json():
    data = json.loads(questc("reveal", DOOR_MODE, "--json").stdout)
    assert data["reveal"] == "door"
    assert [[a["id"] for a in w["areas"]] for w in data["waves"]] == [["A"], ["B"], ["C"]]
    assert data["waves"][2]["areas"][0] == {"id": "C", "name": "Vault", "start": False, "visible_from": ["B"]}
    assert data["never_revealed"] == []


def test_reveal_on_a_quest_with_errors_prints_them_and_exits_1():
    result = questc("reveal", BROKEN)
    assert result.exit_code == 1 and "error[Q201]" in result.stdout


def test_reveal_text_lists_unrevealed_areas_and_effect_reveals():
    report = {
        "reveal": "sight",
        "edition": "first",
        "never_revealed": [{"id": "D", "name": "Crypt"}],
        "waves": [
            {"wave": 0, "areas": [{"id": "A", "name": "Hall", "start": True, "visible_from": []}]},
            {
                "wave": 1,
                "areas": [
                    {"id": "B", "name": "Well", "start": False, "visible_from": ["effect"]},
                    {"id": "CC", "name": "Nave", "start": False, "visible_from": ["A", "effect"]},
                ],
            },
        ],
    }
    assert render_text(report).splitlines()[4:] == [
        '  B   "Well"  revealed by an effect',
        '  CC  "Nave"  seen from A; revealed by an effect',
        'never revealed: D "Crypt"',
    ]


def test_los_takes_cells_with_negative_coordinates(tmp_path):
    """language.md section 12 puts an end cap at -1,1; `questc los Q -1,1 3,3` said "No such option '-1'"."""
    from click.testing import CliRunner

    from questc.cli import cli

    quest = tmp_path / "side_door.quest"
    quest.write_text(
        'quest "A Side Door" {\n  edition second\n}\n\npiece Hall tile_9a at 0,0\n'
        'piece Cap end_cap at -1,1 turn 90\narea A "Hall" start {\n  pieces Hall, Cap\n'
        "  start at 0,0 1,0\n}\nvictory heroes when round > 4\n",
        encoding="utf-8",
    )
    for args in (["-1,1", "3,3"], ["3,3", "-1,1", "--json"], ["--json", "-1,1", "-1,2"]):
        done = CliRunner().invoke(cli, ["los", str(quest), *args])
        assert done.exit_code == 0, done.output
        assert "visible" in done.output
