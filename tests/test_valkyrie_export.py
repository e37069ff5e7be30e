"""`questc build --only valkyrie` (questc/emit/valkyrie): every shipped second edition quest exported,
loaded by Valkyrie's own loader and played by a port of its event engine; what Valkyrie cannot
carry (Q7xx); the folder written all or nothing, the same bytes each time."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from helpers import dedent
from valkyrie_play import EVENT_KINDS, Play
from valkyrie_tools import load

from questc.api import build, check_file, check_source
from questc.build import BuildError
from questc.cli import cli
from questc.emit.valkyrie import export, read
from questc.valkyrie import content
from questc.valkyrie.ini import read_ini

QUESTS = REPO / "quests"
SECOND = sorted(p for p in QUESTS.glob("*.quest") if re.search(r"^\s*edition second\b", p.read_text(), re.M))


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    """Every shipped quest built with --only valkyrie, once."""
    out = tmp_path_factory.mktemp("valkyrie")
    report = build([QUESTS], out, kinds=["valkyrie"])
    assert not report.problems and not report.failed, report.problems
    return out


def folders_of(paths: list[Path]) -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for path in paths:
        model = check_file(path).model
        out.setdefault(model.part_of or model.id, []).append(path)
    return out


def test_the_shipped_second_edition_quests_are_there():
    assert {p.name for p in SECOND} == {
        "greywater_ferry.quest",
        "lantern_road_1.quest",
        "lantern_road_2.quest",
        "ember_reliquary_1.quest",
        "ember_reliquary_2a.quest",
        "ember_reliquary_2b.quest",
        "ember_reliquary_3.quest",
    }


def expected_sides(paths: list[Path]) -> list[str]:
    """The tile sides a quest's pieces are in Valkyrie: each piece's, 13A's two parts as one."""
    sides = []
    for path in paths:
        for piece in check_file(path).model.pieces.values():
            if piece.type.name == "tile_13a1":
                continue
            name = "tile_13a" if piece.type.name == "tile_13a2" else piece.type.name
            side = next(
                s
                for s, p in content.SIDE_PIECES.items()
                if p == name and (p in content.SMALL_PIECES or s[-1] == (piece.type.tile or "A")[-1])
            )
            sides.append(side if name not in content.SMALL_PIECES else side[:-1])
    return sorted(sides)


@pytest.mark.parametrize("folder", sorted(folders_of(SECOND)))
@pytest.mark.slow
def test_valkyries_loader_loads_every_exported_quest(exported, folder):
    paths = folders_of(SECOND)[folder]
    loaded = load(exported / folder)
    assert loaded.code == 0 and loaded.problems == 0, loaded.output
    assert "valid=True" in loaded.output and "type=D2E" in loaded.output
    # tiles: one per piece (13A's parts as one), each on its side (a small piece on either of its two)
    got = sorted(
        side if content.SIDE_PIECES[side] not in content.SMALL_PIECES else side[:-1] for side in loaded.tile_sides
    )
    assert got == expected_sides(paths)
    doors = sum(len(check_file(p).model.doors) for p in paths)
    assert len(loaded.doors) == doors
    # every token the export wrote is loaded: one per token at a point, and those the overlord places
    # (on pieces, among points, by `place` and `replace` effects), which are more
    tokens = sum(1 for p in paths for m in check_file(p).model.markers if m.kind in ("search", "objective", "villager"))
    written = (
        read_ini((exported / folder / "tokens.ini").read_text(encoding="utf-8")).sections
        if (exported / folder / "tokens.ini").exists()
        else {}
    )
    assert loaded.counts.get("Token", 0) == len(written) >= tokens


def reachable(folder: Path) -> tuple[set[str], set[str]]:
    """Every event of an exported quest, and those reachable from the start: from the events the
    app triggers itself (the start, rounds, defeats), along every button's list, into the tokens
    and doors an event adds (a player clicks them), and to `Var<name>` events once an event reached
    sets `@<name>`."""
    quest = read_ini((folder / "quest.ini").read_text(encoding="utf-8"))
    sections = {}
    for name in quest.sections["QuestData"].entries:
        sections.update(read_ini((folder / name).read_text(encoding="utf-8")).sections)
    events = {n for n in sections if n.startswith(EVENT_KINDS)}
    roots = {
        n
        for n in events
        if sections[n].entries.get("trigger", "") in ("EventStart", "StartRound", "EndRound")
        or sections[n].entries.get("trigger", "").startswith("Defeated")
    }
    seen, todo, requested = set(), list(roots), set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        entries = sections[name].entries
        following = [n for key, value in entries.items() if re.fullmatch(r"event\d+", key) for n in value.split()]
        following += [n for n in entries.get("add", "").split() if n.startswith(("Token", "Door"))]
        for operation in entries.get("operations", "").split():
            if operation.startswith("@"):
                requested.add("Var" + operation.split(",")[0][1:])
        following += [n for n in events if sections[n].entries.get("trigger") in requested]
        todo += [n for n in following if n in events]
        if not todo:  # a request made late may wake an event seen before it
            todo += [n for n in events - seen if sections[n].entries.get("trigger") in requested]
    return events, seen


@pytest.mark.parametrize("folder", sorted(folders_of(SECOND)))
def test_every_event_is_reachable_from_the_start(exported, folder):
    events, seen = reachable(exported / folder)
    assert events and events == seen, sorted(events - seen)


@pytest.mark.slow
def test_the_same_quests_give_the_same_bytes(exported, tmp_path):
    again = tmp_path / "again"
    build(SECOND, again, kinds=["valkyrie"], jobs=2)
    for folder in folders_of(SECOND):
        for file in sorted((exported / folder).iterdir()):
            assert (again / folder / file.name).read_bytes() == file.read_bytes(), file.name
        assert sorted(p.name for p in (again / folder).iterdir()) == sorted(
            p.name for p in (exported / folder).iterdir()
        )


# ---- playing the exported quests --------------------------------------------------------------


def test_greywater_ferry_plays_to_the_heroes_victory(exported):
    play = Play.of(exported / "greywater_ferry")
    play.continue_all()
    tiles = [c for c in play.board if c.startswith("Tile")]
    assert len(tiles) == 8 and "Door_toll_door" in play.board  # the whole map from the start
    assert play.vars["encounter"] == 1 and play.vars["round"] == 1
    assert "MonsterSplig" in play.monsters and "MonsterGoblinArcher" in play.monsters
    play.click("Token_Objective1")  # a hero picks up the bell
    assert "Token_Objective1" not in play.board and play.vars["e1_objectives"] == 1
    assert not play.ended
    play.end_round(answer=1)  # one hero left the map by the exit
    assert play.current == "Event_Victory1" and play.vars.get("$end") == 1
    play.press()
    assert play.ended


def test_greywater_ferry_is_lost_after_round_8(exported):
    play = Play.of(exported / "greywater_ferry")
    play.continue_all()
    for _ in range(7):
        play.end_round()
        assert not play.ended and play.current is None
    play.end_round()  # round 8 ends: round 9 starts and the overlord has won
    assert play.current == "Event_Victory2"
    play.press()
    assert play.ended


def test_the_lantern_road_moves_from_encounter_1_to_2(exported):
    play = Play.of(exported / "lantern_road")
    play.continue_all()
    assert play.vars["encounter"] == 1
    assert {"Tile_E1_Mill", "Door_E1_mill_gate"} <= set(play.board)
    play.click("Door_E1_mill_gate")
    assert "Door_E1_mill_gate" not in play.board and play.vars["e1_opened_mill_gate"] == 1
    play.end_round(answer=1)  # a hero carried word to the chapel
    assert play.current == "Event_E1_Victory1" and not play.vars.get("$end")
    play.press()  # on to encounter 2
    assert play.shown[-1] == "Event_E2_Intro"
    play.continue_all()
    assert play.vars["encounter"] == 2 and not play.ended
    assert all("E1" not in c for c in play.board) and "Tile_E2_Nave" in play.board
    assert "MonsterSplig" in play.monsters and "MonsterZombie" in play.monsters
    play.defeat("DefeatedMonsterSplig")
    assert play.current == "Event_E2_Victory1"
    play.press()
    assert play.ended


def test_the_lantern_road_encounter_2_by_objectives(exported):
    play = Play.of(exported / "lantern_road")
    play.continue_all()
    for _ in range(8):
        play.end_round()
    assert play.current == "Event_E1_Victory2"  # the overlord won encounter 1 after round 8
    play.press()
    play.continue_all()
    assert play.vars["encounter"] == 2 and play.vars["round"] == 1
    objectives = [c for c in play.board if c.startswith("Token_E2_Objective")]
    assert len(objectives) == 3
    for token in objectives[:2]:
        play.click(token)
        assert not play.ended and play.current is None
    play.click(objectives[2])
    assert play.current == "Event_E2_Victory1"


DOOR_QUEST = """
quest "Doors" {
  edition second
  reveal door
  players 2..4
}
piece In entrance at 1,-2 turn 180
piece Hall tile_9a at 0,0
piece West tile_10a at -4,0
piece Cap end_cap at -5,1 turn 90
piece Out exit at 4,1 turn 270
door d1 between Hall West
area A "Hall" start {
  pieces In, Hall, Out
  search at 0,0
  monster zombie at 2,2
  monster zombie at 3,3 players 4
}
area B "West Wing" {
  pieces West, Cap
  read "Cold air."
  named bob at -3,1
  objective red at -2,2
}
named bob "Bob the Ettin" ettin {
  wounds +4
  speed -1
}
on killed bob {
  read "Bob falls."
  threat 2
}
on open d1 { read "The door creaks." }
on round 2 { spawn goblin_archer at 1,1 }
victory heroes "Kill Bob" when killed bob or (revealed B and not round < 3)
victory overlord "Too late" when round > 8
"""


def export_source(source: str, tmp_path: Path, name: str = "q.quest"):
    path = tmp_path / name
    path.write_text(dedent(source), encoding="utf-8")
    out = tmp_path / "out"
    report = build([path], out, kinds=["valkyrie"])
    return report, out


def test_reveal_door_shows_an_area_when_its_door_opens(tmp_path):
    report, out = export_source(DOOR_QUEST, tmp_path)
    folder = out / "doors"
    codes = [d.code for r in report.results for d in r.diagnostics]
    assert codes == ["Q703"]  # the threat of `on killed bob`
    loaded = load(folder)
    assert loaded.code == 0 and loaded.problems == 0, loaded.output
    play = Play.of(folder, heroes=2)
    play.continue_all()
    assert "Tile_West" not in play.board and "Door_d1" in play.board
    assert play.monsters == ["MonsterZombie"]
    play.click("Door_d1")
    assert "Tile_West" in play.board and "Token_Objective1" in play.board
    assert "Event_Reveal_B" in play.shown and "Event_OnOpen_d1_Step1" in play.shown
    assert play.monsters[-1] == "CustomMonster_bob" and not play.ended and play.current is None
    play.end_round()
    assert play.current is None  # round 2: B is revealed, but not yet round 3
    play.end_round()
    assert play.current == "Event_Victory1"  # round 3 with B revealed: the heroes win
    # the fourth zombie comes only with three heroes (players 4)
    spawn = read_ini((folder / "spawns.ini").read_text()).sections["Spawn_A_zombie"].entries
    assert spawn["placement3"] == "MPlace_A_zombie_1 MPlace_A_zombie_2" and spawn["placement1"] == "MPlace_A_zombie_1"


def test_on_round_and_on_killed(tmp_path):
    source = DOOR_QUEST.replace("(revealed B and not round < 3)", "round > 20")
    _, out = export_source(source, tmp_path)
    play = Play.of(out / "doors")
    play.continue_all()
    play.end_round()
    assert "Spawn_OnRound2_Step1" in play.shown and play.monsters[-1] == "MonsterGoblinArcher"
    play.click("Door_d1")
    play.defeat("DefeatedUniqueCustomMonster_bob")
    assert "Event_OnKilled_bob_Step1" in play.shown and play.current == "Event_Victory1"


def test_a_win_effect_ends_the_quest(tmp_path):
    source = DOOR_QUEST.replace(
        'on open d1 { read "The door creaks." }', 'on open d1 {\n  read "Trap!"\n  win overlord\n  read "never"\n}'
    )
    _, out = export_source(source, tmp_path)
    play = Play.of(out / "doors")
    play.continue_all()
    play.click("Door_d1")
    assert play.ended or play.shown[-1].endswith("_Step2")
    text = (out / "doors" / "Localization.English.txt").read_text()
    assert "never" not in text and "The overlord wins." in text


# ---- what Valkyrie cannot carry, and what the build does --------------------------------------


def test_first_edition_quests_are_said_to_have_no_valkyrie(tmp_path):
    runner = CliRunner()
    done = runner.invoke(cli, ["build", str(QUESTS / "three_seals.quest"), "--format", "valkyrie", "-o", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "first edition quest not exported to Valkyrie, which plays second edition quests only" in done.output
    assert not list(tmp_path.iterdir())


def test_a_missing_encounter_stops_the_quest_only(tmp_path):
    report = build(
        [QUESTS / "lantern_road_2.quest", QUESTS / "greywater_ferry.quest"], tmp_path, kinds=["valkyrie", "json"]
    )
    codes = {r.path: [d.code for d in r.diagnostics] for r in report.results}
    assert codes[str(QUESTS / "lantern_road_2.quest")] == ["Q705"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "greywater_ferry",
        "greywater_ferry.json",
        "lantern_road_2.json",
    ]
    assert report.failed


def test_the_export_replaces_its_own_folder_and_nothing_else(tmp_path):
    greywater = QUESTS / "greywater_ferry.quest"
    build([greywater], tmp_path, kinds=["valkyrie"])
    stale = tmp_path / "greywater_ferry" / "old.ini"
    stale.write_text("left over")
    build([greywater], tmp_path, kinds=["valkyrie"])
    assert not stale.exists() and (tmp_path / "greywater_ferry" / "quest.ini").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]  # no temporary folders left
    shutil.rmtree(tmp_path / "greywater_ferry")
    (tmp_path / "greywater_ferry").mkdir()
    (tmp_path / "greywater_ferry" / "notes.txt").write_text("mine")
    with pytest.raises(BuildError, match="is in the way"):
        build([greywater], tmp_path, kinds=["valkyrie"])
    assert (tmp_path / "greywater_ferry" / "notes.txt").read_text() == "mine"


def test_the_export_never_replaces_a_folder_holding_an_input(tmp_path):
    folder = tmp_path / "greywater_ferry"
    folder.mkdir()
    source = folder / "greywater_ferry.quest"
    shutil.copy(QUESTS / "greywater_ferry.quest", source)
    with pytest.raises(BuildError, match="holds the source"):
        build([source], tmp_path, kinds=["valkyrie"])
    assert source.exists()


def test_a_quest_with_an_error_is_not_exported(tmp_path):
    path = tmp_path / "bad.quest"
    path.write_text(DOOR_QUEST.replace("tile_10a", "tile_10z"), encoding="utf-8")
    report = build([path], tmp_path / "out", kinds=["valkyrie"])
    assert report.failed and not (tmp_path / "out").exists()


def test_strict_stops_an_export_with_a_warning(tmp_path):
    from questc.options import Options

    path = tmp_path / "q.quest"
    path.write_text(dedent(DOOR_QUEST), encoding="utf-8")
    report = build([path], tmp_path / "out", kinds=["valkyrie"], options=Options(strict=True))
    assert report.failed and not (tmp_path / "out" / "doors").exists()
    report = build([path], tmp_path / "out", kinds=["valkyrie"], options=Options(ignore=("Q703",)))
    assert not report.failed and (tmp_path / "out" / "doors" / "quest.ini").exists()


def test_13a_exports_as_one_tile_or_not_at_all(tmp_path):
    base = (
        'quest "T" {{\n  edition second\n}}\npiece In entrance at 1,-2 turn 180\npiece T tile_9a at 0,0\n'
        "piece B tile_13a2 at 4,1 turn 90\n{strip}"
        'area A "A" start {{\n  pieces In, T, B{more}\n}}\nvictory heroes when round > 3\n'
    )
    from questc.valkyrie import geometry

    whole = geometry.whole_13a("tile_13a2", (4, 1), 90)
    strip_at = geometry.part_of_13a("tile_13a1", whole, 90)
    good = base.format(strip=f"piece S tile_13a1 at {strip_at[0]},{strip_at[1]} turn 90\n", more=", S")
    result = check_source(good, str(tmp_path / "t.quest"))
    made = export([read(result.compiled)])[0]
    assert made.diagnostics == [] and b"side=TileSide13A" in made.files["tiles.ini"]
    assert made.files["tiles.ini"].count(b"[Tile_") == 3
    lone = check_source(base.format(strip="", more=""), str(tmp_path / "t.quest"))
    made = export([read(lone.compiled)])[0]
    assert [d.code for d in made.diagnostics] == ["Q702"] and not made.files
    assert f"tile_13a1 at {strip_at[0]},{strip_at[1]} turn 90" in made.diagnostics[0].help


def test_reveal_sight_is_revealed_by_doors_with_a_warning(tmp_path):
    report, out = export_source(DOOR_QUEST.replace("reveal door", "reveal sight"), tmp_path)
    codes = sorted(d.code for r in report.results for d in r.diagnostics)
    assert codes == ["Q703", "Q704"]
    assert (out / "doors" / "quest.ini").exists()


# ---- victory conditions as Valkyrie's tests ------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from questc.emit.valkyrie.source import Combined, Compare, Occurrence  # noqa: E402
from questc.emit.valkyrie.translate import _tests  # noqa: E402

_SPAN = check_source('quest "Q" {\n  edition second\n}\n', "q.quest").model.header_span()
_atoms = st.one_of(
    st.builds(lambda t: Occurrence("killed", t, _SPAN), st.sampled_from(["a", "b"])),
    st.builds(
        lambda c, op, v: Compare(c, op, v, _SPAN),
        st.sampled_from(["round", "objectives"]),
        st.sampled_from(["<", "<=", "=", ">=", ">"]),
        st.integers(0, 4),
    ),
)
_conditions = st.recursive(
    _atoms,
    lambda inner: st.one_of(
        st.builds(lambda x: Combined("not", (x,)), inner),
        st.builds(lambda xs: Combined("and", tuple(xs)), st.lists(inner, min_size=2, max_size=3)),
        st.builds(lambda xs: Combined("or", tuple(xs)), st.lists(inner, min_size=2, max_size=3)),
    ),
    max_leaves=8,
)


def _holds(condition, state) -> bool:
    if isinstance(condition, Combined):
        values = [_holds(c, state) for c in condition.operands]
        return {"not": lambda: not values[0], "and": lambda: all(values), "or": lambda: any(values)}[condition.op]()
    if isinstance(condition, Occurrence):
        return state[condition.target] == 1
    left = state[condition.counter]
    return {
        "<": left < condition.value,
        "<=": left <= condition.value,
        "=": left == condition.value,
        ">=": left >= condition.value,
        ">": left > condition.value,
    }[condition.op]


@given(
    _conditions,
    st.fixed_dictionaries(
        {"a": st.integers(0, 1), "b": st.integers(0, 1), "round": st.integers(0, 5), "objectives": st.integers(0, 5)}
    ),
)
@settings(max_examples=400, deadline=None)
@pytest.mark.slow
def test_a_victory_condition_is_valkyries_test_of_it(condition, state):
    """questc's precedence (not, and, or) against Valkyrie's left-to-right reading with parentheses
    (a port of VarManager.Test): the tests the export writes hold exactly when the condition does."""

    def var(atom):
        if isinstance(atom, Occurrence):
            return atom.target, "=", 1
        return atom.counter, atom.op, atom.value

    play = Play({})
    play.vars.update({k: float(v) for k, v in state.items()})
    assert play.test(_tests(condition, var)) == _holds(condition, state)


@pytest.mark.slow
@pytest.mark.skipif(__import__("os").name != "posix", reason="SIGKILL")
@pytest.mark.parametrize("point, whole", [("staged", "old"), ("journal", "new"), ("rename", "new")])
def test_an_export_killed_while_it_writes_leaves_one_whole_folder(tmp_path, point, whole):
    """A real `questc build --only valkyrie` killed by SIGKILL at each step of replacing the quest's
    folder (its files on disk; the swap journalled; the old folder moved aside): the next write
    into the output folder finishes or undoes it, so the folder is wholly old or wholly new and
    no hidden folder is left."""
    import os
    import subprocess
    import sys

    quest = tmp_path / "ferry.quest"
    quest.write_text((QUESTS / "greywater_ferry.quest").read_text(encoding="utf-8"), encoding="utf-8")

    def export_it(kill_at=None):
        env = {k: v for k, v in os.environ.items() if k != "QUESTC_TEST_KILL_AT"}
        if kill_at:
            env["QUESTC_TEST_KILL_AT"] = kill_at
        return subprocess.run(
            [sys.executable, "-m", "questc", "build", "--only", "valkyrie", "-o", "out", "ferry.quest"],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )

    assert export_it().returncode == 0
    folder = tmp_path / "out" / "greywater_ferry"
    old = {p.name: p.read_bytes() for p in folder.iterdir()}
    quest.write_text(quest.read_text(encoding="utf-8").replace('version "2.0"', 'version "3.0"'), encoding="utf-8")
    assert export_it(point).returncode == -9
    from questc.emit.atomic import recover

    recover(tmp_path / "out")  # what the next questc write into the folder does first
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["greywater_ferry"]
    now = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert sorted(now) == sorted(old)
    version = read_ini(now["quest.ini"].decode()).sections["Quest"].entries["version"]
    assert version == ("3.0" if whole == "new" else "2.0")
    assert export_it().returncode == 0  # and an export after it makes the new folder
    assert "version=3.0" in (folder / "quest.ini").read_text(encoding="utf-8")


def _round(play: Play, yes: tuple[str, ...] = ()) -> None:
    """End a round, answering Yes to the EndRound questions whose event's name holds one of `yes`."""
    play.trigger_type("EndRound")
    play.trigger_next()
    for _ in range(50):
        if play.current is None or play.ended or play.ending():
            return
        play.press(1 if any(word in play.current for word in yes) else 0)
    play.vars["#round"] = play.vars.get("#round", 1) + 1
    play.trigger_type("StartRound")
    play.trigger_next()
    play.continue_all()


def test_the_ember_reliquary_branches_on_who_wins_encounter_1(exported):
    """Encounter 1's victories name their next encounter: the heroes' (the reliquary carried off the map,
    which Valkyrie asks about at the end of each round) 2a, the overlord's (the alarm, a counter raised by
    a recurring rule whose condition the players are asked) 2b; both lead on to encounter 3."""
    heroes = Play.of(exported / "ember_reliquary")
    heroes.continue_all()
    assert "MonsterGoblinArcher" in heroes.monsters and "MonsterSplig" in heroes.monsters
    _round(heroes, ("Carried_reliquary",))
    assert heroes.current == "Event_E1_Victory1"
    heroes.press()
    heroes.continue_all()
    assert heroes.vars["encounter"] == 2 and "Tile_E2_Vault" in heroes.board  # 2a: the abbey cellars
    _round(heroes, ("Carried_reliquary",))
    heroes.press()
    heroes.continue_all()
    assert heroes.vars["encounter"] == 4 and "MonsterElemental" in heroes.monsters  # encounter 3
    for trigger in ("DefeatedMonsterFleshMoulder", "DefeatedMonsterElemental", "DefeatedMonsterSplig"):
        heroes.defeat(trigger)
    assert heroes.current == "Event_E4_Victory1"  # every monster defeated
    heroes.press()
    assert heroes.ended

    overlord = Play.of(exported / "ember_reliquary")
    overlord.continue_all()
    for alarm in range(1, 5):
        _round(overlord, ("EndOfOverlordTurn",))  # a goblin archer stands in the tannery
        assert overlord.vars["e1_alarm"] == alarm
    assert overlord.current == "Event_E1_Victory2"
    overlord.press()
    overlord.continue_all()
    assert overlord.vars["encounter"] == 3 and "Tile_E3_Chapel" in overlord.board  # 2b: the burning chapel
