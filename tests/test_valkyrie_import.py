"""`questc import valkyrie` (questc/importer/valkyrie): the two community quests imported and linted,
round trips through Valkyrie's own loader, and bad input as a clear error (exit 1), fuzzed."""

from __future__ import annotations

import random
import shutil
import zipfile
from collections import Counter
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import REPO
from valkyrie_tools import COMMUNITY, load

from questc.api import ImportFailed, build, check_source, import_quest
from questc.cli import cli
from questc.valkyrie.ini import read_ini

QUESTS = REPO / "quests"
FIRST_BLOOD = COMMUNITY / "01_FirstBlood"
CASTLE = COMMUNITY / "CastleDaerion"


def lint_codes(text: str) -> Counter:
    return Counter(d.code for d in check_source(text, "imported.quest").diagnostics)


def test_first_blood_imports_and_lints_clean():
    imported = import_quest("valkyrie", FIRST_BLOOD)
    result = check_source(imported.text, "first_blood.quest")
    assert result.compiled is not None and not result.diagnostics, [d.message for d in result.diagnostics]
    model = result.model
    assert model.title == "The Shadow Rune - Introduction - First Blood" and model.edition.name == "second"
    assert len(model.pieces) == 10 and model.players == (3, 5)
    assert [m.kind for m in model.markers].count("search") == 4
    assert list(model.named) == ["mauler"]
    assert [(v.side.value, v.when.target.value) for v in model.victories] == [("heroes", "mauler")]
    # what could not be said is kept, each with its reason
    assert any("[EventLose]" in line and "NoMorale" in line for line in imported.summary)
    assert "# [SpawnReinforceGoblins] (spawns.ini:50)" in imported.text


def test_castle_daerion_imports_with_its_second_map_unreachable():
    imported = import_quest("valkyrie", CASTLE)
    assert any("2 separate maps" in line for line in imported.summary)
    assert any("MonsterIronbound" in line for line in imported.summary)  # an expansion's monster
    # The second map (the castle, after the Stalker falls) is in the same file: lint says what that means.
    assert lint_codes(imported.text) == Counter({"Q306": 3, "Q310": 3, "Q307": 1, "Q404": 1})


def valkyrie_tiles(folder: Path) -> Counter:
    loaded = load(folder)
    assert loaded.code == 0 and loaded.problems == 0, loaded.output
    return Counter((side, at, rotation % 360) for _, side, at, rotation in loaded.tiles)


def sections(folder: Path) -> dict:
    quest = read_ini((folder / "quest.ini").read_text(encoding="utf-8"))
    out = {}
    for name in quest.sections["QuestData"].entries:
        out.update({k: v.entries for k, v in read_ini((folder / name).read_text(encoding="utf-8")).sections.items()})
    return out


def tokens(folder: Path) -> Counter:
    return Counter(
        (s.get("type"), int(float(s["xposition"])), int(float(s["yposition"])))
        for n, s in sections(folder).items()
        if n.startswith("Token")
    )


def figures(folder: Path) -> Counter:
    """Each figure of a base game monster a spawn places: (monster, x, y, master, hero count)."""
    found = sections(folder)
    out: Counter = Counter()
    for name, spawn in found.items():
        if not name.startswith("Spawn"):
            continue
        monster = spawn.get("monster", "")
        base = found.get(monster, {}).get("base", monster)
        conditions = spawn.get("conditions", "") + " " + spawn.get("vartests", "")
        for heroes in range(1, 5):
            if "#heroes,==" in conditions and f"#heroes,==,{heroes}" not in conditions:
                continue
            for place in spawn.get(f"placement{heroes}", "").split():
                mplace = found[place]
                out[
                    (base, int(mplace["xposition"]), int(mplace["yposition"]), mplace.get("master") == "true", heroes)
                ] += 1
    return out


def round_trip(source: Path, tmp_path: Path) -> Path:
    quest = tmp_path / "imported.quest"
    quest.write_text(import_quest("valkyrie", source).text, encoding="utf-8")
    report = build([quest], tmp_path / "out", kinds=["valkyrie"])
    assert not report.failed, [d.message for r in report.results for d in r.diagnostics]
    return next(p for p in (tmp_path / "out").iterdir() if p.is_dir())


def test_first_blood_round_trip_keeps_every_tile_token_and_monster(tmp_path):
    again = round_trip(FIRST_BLOOD, tmp_path)
    assert valkyrie_tiles(again) == valkyrie_tiles(FIRST_BLOOD)
    assert tokens(again) == tokens(FIRST_BLOOD)
    assert figures(again) == {f: n for f, n in figures(FIRST_BLOOD).items() if f[0] == "MonsterEttin"} and figures(
        again
    )


def test_castle_daerion_round_trip_keeps_the_tiles_and_what_questc_can_place(tmp_path):
    shutil.copytree(CASTLE, tmp_path / "castle")
    # the quest needs its second map reachable to export: lint would stop it, so export its text as it is
    quest = tmp_path / "imported.quest"
    quest.write_text(import_quest("valkyrie", CASTLE).text, encoding="utf-8")
    from questc.api import check_file
    from questc.emit.valkyrie import export, read

    result = check_file(quest)
    result.diagnostics = [d for d in result.diagnostics if d.severity.value != "error"]
    result.all_diagnostics = result.diagnostics
    made = export([read(result.compiled)])[0]
    folder = tmp_path / "again"
    folder.mkdir()
    for name, data in made.files.items():
        (folder / name).write_bytes(data)
    assert valkyrie_tiles(folder) == valkyrie_tiles(CASTLE)
    original = tokens(CASTLE)
    # TokenSafePalamon appears in play (when Sir Palamon is safe): questc places tokens from the start
    original[("TokenObjectiveWhite", 14, 17)] -= 1
    assert tokens(folder) == +original
    base = {f: n for f, n in figures(CASTLE).items() if f[0] in ("MonsterEttin", "MonsterSirAlricFarrow")}
    assert figures(folder) == base


@pytest.mark.parametrize("name", ["greywater_ferry.quest", "lantern_road_1.quest"])
def test_questcs_own_exports_import_back(name, tmp_path):
    build([QUESTS / name], tmp_path, kinds=["valkyrie"])
    folder = next(p for p in tmp_path.iterdir() if p.is_dir())
    imported = import_quest("valkyrie", folder)
    result = check_source(imported.text, "back.quest")
    assert result.compiled is not None and not result.errors, [d.message for d in result.diagnostics]
    original = check_source((QUESTS / name).read_text(encoding="utf-8"), name).model
    back = result.model
    assert sorted((p.type.name, p.at, p.turn) for p in back.pieces.values()) == sorted(
        (p.type.name, p.at, p.turn) for p in original.pieces.values()
    )
    assert sorted((m.kind, m.variant, m.at) for m in back.markers) == sorted(
        (m.kind, m.variant, m.at) for m in original.markers
    )
    assert sorted((f.type.name, f.rank, f.at) for f in back.figures) == sorted(
        (f.type.name, f.rank, f.at) for f in original.figures
    )
    assert sorted(v.side.value for v in back.victories) == sorted(v.side.value for v in original.victories)


# ---- bad input -----------------------------------------------------------------------------------


def broken(tmp_path: Path, change) -> Path:
    folder = tmp_path / "quest"
    shutil.copytree(FIRST_BLOOD, folder)
    change(folder)
    return folder


def _edit(name: str, old: str, new: str, count: int = 1):
    def change(folder: Path) -> None:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, count), encoding="utf-8")

    return change


BAD = {
    "no quest.ini": (lambda f: (f / "quest.ini").unlink(), "has no quest.ini"),
    "no [Quest]": (_edit("quest.ini", "[Quest]", "[Quests]"), "has no [Quest] section"),
    "a Mansions quest": (_edit("quest.ini", "type=D2E", "type=MoM"), "a Mansions of Madness quest"),
    "an unknown format": (_edit("quest.ini", "format=6", "format=99"), "format `99` is not one Valkyrie loads"),
    "a missing file": (lambda f: (f / "events.ini").unlink(), "lists `events.ini`, which is not in the quest"),
    "a line of spaces": (_edit("tiles.ini", "[Tile12AWater]", "   \n[Tile12AWater]"), "tiles.ini:9: a line of nothing"),
    "an unknown section": (_edit("events.ini", "[EventLose]", "[EvnetLose]"), "unknown section [EvnetLose]"),
    "a component twice": (
        _edit("events.ini", "[EventLose]", "[TokenWoundedGuard]\ntype=TokenSearch\n\n[EventLose]"),
        "a second component [TokenWoundedGuard]",
    ),
    "a tile without side": (_edit("tiles.ini", "side=TileSide12A", "rotation=0"), "has no `side`"),
    "a broken operation": (_edit("events.ini", "FoundGold,+,5", "FoundGold+5"), "not `variable,operator,value`"),
    "texts without a language": (_edit("Localization.English.txt", ".,English", "English"), "first line must be"),
    "a file outside the quest": (_edit("quest.ini", "tiles.ini", "../tiles.ini"), "outside its folder"),
    "no tile questc knows": (_edit("tiles.ini", "TileSide", "TileSideZ", -1), "no map to import"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_input_is_a_clear_error_and_exit_1(case, tmp_path):
    change, message = BAD[case]
    folder = broken(tmp_path, change)
    with pytest.raises(ImportFailed, match=message.replace("[", r"\[").replace("]", r"\]").replace("(", r"\(")):
        import_quest("valkyrie", folder)
    done = CliRunner().invoke(cli, ["import", "valkyrie", str(folder), "-o", str(tmp_path / "out.quest")])
    assert done.exit_code == 1 and "questc: error:" in done.output and "Traceback" not in done.output
    assert not (tmp_path / "out.quest").exists()


def test_what_valkyrie_ignores_is_noted(tmp_path):
    """A section twice in one file: Valkyrie keeps the first and logs the second; so does the import."""
    folder = broken(tmp_path, _edit("tokens.ini", "[TokenSearch12AWater]", "[TokenWoundedGuard]"))
    imported = import_quest("valkyrie", folder)
    assert any("second section [TokenWoundedGuard]" in w for w in imported.warnings)
    done = CliRunner().invoke(cli, ["import", "valkyrie", str(folder)])
    assert done.exit_code == 0 and "Valkyrie would ignore: tokens.ini:" in done.output


def test_what_is_not_a_quest_is_said_so(tmp_path):
    (tmp_path / "notes.txt").write_text("hello")
    for given, message in (
        (tmp_path / "missing", "no such folder"),
        (tmp_path, "has no quest.ini"),
        (tmp_path / "notes.txt", "is not a Valkyrie quest"),
    ):
        done = CliRunner().invoke(cli, ["import", "valkyrie", str(given)])
        assert done.exit_code == 1 and message in done.output, done.output


def test_a_valkyrie_package_imports_as_its_folder(tmp_path):
    package = tmp_path / "first_blood.valkyrie"
    with zipfile.ZipFile(package, "w") as archive:
        for path in sorted(FIRST_BLOOD.iterdir()):
            archive.write(path, path.name)
    assert (
        import_quest("valkyrie", package).text.split("\n", 1)[1]
        == import_quest("valkyrie", FIRST_BLOOD).text.split("\n", 1)[1]
    )


def test_the_command_writes_the_quest_and_says_what_it_left(tmp_path):
    out = tmp_path / "first_blood.quest"
    done = CliRunner().invoke(cli, ["import", "valkyrie", str(FIRST_BLOOD), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert f"wrote {out.as_posix()}" in done.output and "not carried into questc's language" in done.output
    assert "questc lint" in done.output and out.read_text(encoding="utf-8").startswith("# Imported from")
    lint = CliRunner().invoke(cli, ["lint", str(out)])
    assert lint.exit_code == 0, lint.output
    folder = broken(tmp_path, lambda f: None)
    done = CliRunner().invoke(cli, ["import", "valkyrie", str(folder), "-o", str(folder / "events.ini")])
    assert done.exit_code == 1 and "refusing to overwrite" in done.output  # the output named: exit 1


@pytest.mark.slow
def test_fuzzed_quests_import_or_fail_clearly(tmp_path):
    """Lines dropped, doubled, cut or swapped in the community quests' files: the import either works
    (and its text parses) or says why not; never anything else."""
    rng = random.Random(31)
    sources = [FIRST_BLOOD, CASTLE]
    outcomes = Counter()
    for round_ in range(120):
        folder = tmp_path / f"q{round_}"
        shutil.copytree(rng.choice(sources), folder)
        for _ in range(rng.randint(1, 4)):
            path = rng.choice(sorted(folder.iterdir()))
            lines = path.read_text(encoding="utf-8").split("\n")
            i = rng.randrange(len(lines))
            action = rng.choice(["drop", "double", "cut", "swap", "garble", "blank"])
            if action == "drop":
                del lines[i]
            elif action == "double":
                lines.insert(i, lines[i])
            elif action == "cut":
                lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
            elif action == "swap":
                j = rng.randrange(len(lines))
                lines[i], lines[j] = lines[j], lines[i]
            elif action == "garble":
                lines[i] = "".join(rng.choice('[]=,"#;| x9-.') for _ in range(rng.randint(1, 12)))
            else:
                lines[i] = " "
            path.write_text("\n".join(lines), encoding="utf-8")
        try:
            imported = import_quest("valkyrie", folder)
        except ImportFailed as error:
            assert str(error)
            outcomes["refused"] += 1
            continue
        result = check_source(imported.text, "fuzzed.quest")
        assert not [d for d in result.diagnostics if d.code.startswith("Q0")], imported.text
        outcomes["imported"] += 1
    assert outcomes["refused"] and outcomes["imported"], outcomes
