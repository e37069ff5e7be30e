"""The engine JSON: valid against its schema for every quest that compiles, complete (every
statement's meaning is in it), deterministic, and kept as a reviewed snapshot.

Regenerate the snapshot after a reviewed change with QUESTC_UPDATE_SNAPSHOTS=1.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ACCEPTANCE
from jsonschema import Draft202012Validator

from questc.api import check_file, check_source
from questc.emit.engine_json import canonical_bytes, engine_document, engine_json
from questc.options import Options

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "snapshots" / "json"
SCHEMA = json.loads((ROOT / "schemas" / "quest.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)
SUNKEN = SNAPSHOTS / "sunken_crypt.quest"
DROWNED = SNAPSHOTS / "clean_drowned_reliquary.quest"


def quest_files() -> list[Path]:
    """Every quest the tests build: shipped ones, the acceptance cases, and the fixtures here."""
    files = sorted((ROOT / "quests").rglob("*.quest")) + sorted(SNAPSHOTS.glob("*.quest"))
    if ACCEPTANCE.is_dir():
        files += sorted(ACCEPTANCE.glob("*.quest"))
    return files


def schema_errors(document: dict) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(document)]


def quest(source: str, path: str = "inline.quest"):
    result = check_source(textwrap.dedent(source).lstrip("\n"), path, Options(verbose=True))
    assert result.buildable(), [f"{d.code} {d.message}" for d in result.errors]
    return result


def doc_of(result) -> dict:
    """The engine document of a quest that compiled clean, with the diagnostics it compiled with."""
    assert result.buildable() and result.compiled is not None, [f"{d.code} {d.message}" for d in result.errors]
    return engine_document(result.compiled, result.diagnostics)


def json_of(result) -> bytes:
    """The engine JSON's bytes of a quest that compiled clean (as `questc build` writes them)."""
    assert result.buildable() and result.compiled is not None, [f"{d.code} {d.message}" for d in result.errors]
    return engine_json(result.compiled, result.diagnostics)


# ---- the schema ----------------------------------------------------------------------------


def test_schema_is_a_strict_versioned_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert SCHEMA["$id"].endswith("/quest/3.json")
    assert SCHEMA["properties"]["format"] == {"const": "questc.quest"}
    assert SCHEMA["properties"]["format_version"]["enum"] == [1, 2, 3]
    assert SCHEMA["additionalProperties"] is False
    # Every key is required: of a version 1 document all but the second edition's, which
    # version 2 requires too, and version 3 (what questc writes) the sections it added.
    version_2, version_3 = SCHEMA["allOf"]
    assert version_2["if"]["properties"]["format_version"] == {"const": 2}
    assert version_3["if"]["properties"]["format_version"] == {"const": 3}
    assert set(SCHEMA["required"]) | set(version_2["then"]["required"]) < set(SCHEMA["properties"])
    assert set(SCHEMA["required"]) | set(version_3["then"]["required"]) == set(SCHEMA["properties"])
    for key in ("quest", "map", "analysis"):
        assert SCHEMA["properties"][key]["additionalProperties"] is False, key
    for key in ("areas", "doors", "figures", "encounters", "victory"):
        assert SCHEMA["properties"][key]["items"]["additionalProperties"] is False, key


@pytest.mark.slow
def test_schema_rejects_what_it_should():
    document = doc_of(check_file(DROWNED))
    assert schema_errors(document) == []
    for broken in (
        {**document, "extra": 1},
        {**document, "format_version": 4},
        {key: value for key, value in document.items() if key != "start"},
        {key: value for key, value in document.items() if key != "groups"},
        {**document, "quest": {k: v for k, v in document["quest"].items() if k != "alternative"}},
        {**document, "victory": [{k: v for k, v in x.items() if k != "next"} for x in document["victory"]]},
        {
            **document,
            "triggers": [
                {
                    "event": "each",
                    "target": None,
                    "round": None,
                    "phase": "noon",
                    "every": "round",
                    "condition": None,
                    "effects": [],
                }
            ],
        },
        {**document, "quest": {k: v for k, v in document["quest"].items() if k != "encounter"}},
        {**document, "obstacles": [{k: v for k, v in o.items() if k != "piece"} for o in document["obstacles"]]},
        {**document, "quest": {**document["quest"], "edition": "third"}},
        {**document, "areas": [{**document["areas"][0], "reveal_wave": "0"}]},
        {**document, "victory": [{"side": "heroes", "label": None, "when": {"op": "xor", "args": []}}]},
        {**document, "map": {**document["map"], "cells": [[0, 0, 0]]}},
    ):
        assert schema_errors(broken), broken


# ---- every quest that compiles validates ---------------------------------------------------


@pytest.mark.parametrize("path", quest_files(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_json_of_every_compiled_quest_validates(path):
    result = check_file(path, Options(verbose=True))
    if not result.buildable():
        return
    data = json_of(result)
    document = json.loads(data)
    assert schema_errors(document) == []
    # Every area reveal_wave agrees with the reveal waves list.
    waves = document["analysis"]["reveal_waves"]
    for area in document["areas"]:
        wave = area["reveal_wave"]
        if wave is None:
            assert all(area["id"] not in w for w in waves)
        else:
            assert area["id"] in waves[wave]


@pytest.mark.slow
def test_at_least_the_clean_quests_compile():
    compiled = [p.name for p in quest_files() if check_file(p).buildable()]
    assert "clean_drowned_reliquary.quest" in compiled and "sunken_crypt.quest" in compiled


def _version_2(document: dict) -> dict:
    """A version 3 document as version 2 wrote it: without what version 3 added."""
    old = {key: value for key, value in document.items() if key not in ("roles", "groups", "tokens", "counters")}
    old["format_version"] = 2
    old["quest"] = {k: v for k, v in document["quest"].items() if k not in ("alternative", "act", "traits")}
    old["map"] = {
        **document["map"],
        "blocking": [{k: v for k, v in b.items() if k != "pit"} for b in document["map"]["blocking"]],
    }
    old["triggers"] = [
        {k: v for k, v in t.items() if k not in ("phase", "every", "condition")} for t in document["triggers"]
    ]
    old["victory"] = [{k: v for k, v in v.items() if k != "next"} for v in document["victory"]]
    return old


def test_a_version_1_document_is_still_valid():
    """A document written before the second edition fields (format_version 1) still validates."""
    document = _version_2(doc_of(check_file(DROWNED)))
    old = {key: value for key, value in document.items() if key != "start"}
    old["format_version"] = 1
    old["quest"] = {k: v for k, v in document["quest"].items() if k not in ("encounter", "part_of")}
    old["map"] = {
        **document["map"],
        "pieces": [{k: v for k, v in p.items() if k not in ("tile", "edge")} for p in document["map"]["pieces"]],
    }
    old["obstacles"] = [{k: v for k, v in o.items() if k != "piece"} for o in document["obstacles"]]
    assert schema_errors(old) == []


def test_a_version_2_document_is_still_valid_and_loads():
    """A second edition document written by questc before version 3 validates and loads."""
    from questc.loader import load_quest_json

    document = _version_2(doc_of(check_file(ROOT / "quests" / "greywater_ferry.quest")))
    assert schema_errors(document) == []
    assert load_quest_json(document).board.cells


def test_second_edition_json_carries_tiles_terrain_tokens_and_the_start():
    result = check_file(ROOT / "quests" / "lantern_road_2.quest")
    assert result.buildable(), [d.message for d in result.errors]
    document = doc_of(result)
    assert schema_errors(document) == []
    q = document["quest"]
    assert (q["edition"], q["reveal"], q["encounter"], q["part_of"]) == ("second", "all", 2, "lantern_road")
    assert q["conquest"] is None and q["treachery"] is None and q["expansions"] == ["second_edition"]
    assert document["analysis"]["reveal_waves"] == [["A", "B", "C", "D", "E"]]
    pieces = {p["id"]: p for p in document["map"]["pieces"]}
    assert (pieces["Crypt"]["kind"], pieces["Crypt"]["tile"], pieces["Crypt"]["edge"]) == ("tile", "2A", [])
    assert pieces["In"]["kind"] == "entrance" and pieces["In"]["edge"] == [[6, 0], [7, 0]]
    water = [o for o in document["obstacles"] if o["piece"] == "Crypt"]
    assert [(o["kind"], o["area"], o["blocks_movement"], o["movement_cost"]) for o in water] == [
        ("water", "C", False, 2)
    ]
    assert len(water[0]["cells"]) == 9
    markers = document["markers"]
    assert {"kind": "lieutenant", "at": [13, 10], "area": "C", "lieutenant": "splig", "facing": "west"} in markers
    assert {"kind": "objective", "at": [14, 11], "area": "C", "colour": "red"} in markers
    assert {"kind": "villager", "at": [3, 5], "area": "D"} in markers
    assert sum(m["kind"] == "search" for m in markers) == 3
    assert document["start"] == {"area": "A", "from": "entrance", "cells": [[6, 0], [6, 1], [7, 0], [7, 1]]}
    heroes = document["victory"][0]["when"]
    assert heroes == {
        "op": "or",
        "args": [{"counter": "objectives", "op": ">=", "value": 3}, {"event": "killed", "target": "splig"}],
    }


# ---- the snapshot ----------------------------------------------------------------------------


def test_snapshot_of_the_drowned_reliquary():
    if ACCEPTANCE.is_dir():
        # The fixture is the acceptance case itself, kept in the repository so the test
        # does not depend on a folder outside it; a drift between the two is a bug.
        assert DROWNED.read_bytes() == (ACCEPTANCE / DROWNED.name).read_bytes()
    from questc import __version__

    data = json_of(check_file(DROWNED, Options(verbose=True)))
    assert json.loads(data)["generator"] == {"name": "questc", "version": __version__}
    # the snapshot holds the version as `(version)`, so a release does not rewrite it
    written = f'"generator": {{\n    "name": "questc",\n    "version": "{__version__}"\n  }}'
    assert data.decode("utf-8").count(written) == 1
    data = data.replace(written.encode("utf-8"), written.replace(__version__, "(version)").encode("utf-8"))
    snapshot = SNAPSHOTS / "drowned_reliquary.json"
    if os.environ.get("QUESTC_UPDATE_SNAPSHOTS"):
        snapshot.write_bytes(data)
    assert snapshot.exists(), "no snapshot yet: run with QUESTC_UPDATE_SNAPSHOTS=1 and review it"
    assert data.decode("utf-8") == snapshot.read_text(encoding="utf-8")


# ---- determinism -------------------------------------------------------------------------------


def test_same_bytes_twice_and_from_any_folder(tmp_path, monkeypatch):
    first = json_of(check_file(SUNKEN))
    assert json_of(check_file(SUNKEN)) == first
    for folder in (tmp_path / "a", tmp_path / "deep" / "b" / "c"):
        folder.mkdir(parents=True)
        shutil.copy(SUNKEN, folder / SUNKEN.name)
        assert json_of(check_file(folder / SUNKEN.name)) == first
        monkeypatch.chdir(folder)
        assert json_of(check_file(Path(SUNKEN.name))) == first
        assert json_of(check_file(os.path.relpath(SUNKEN, folder))) == first


def test_no_absolute_paths_and_canonical_form(tmp_path):
    copy = tmp_path / "somewhere" / "quest_file.quest"
    copy.parent.mkdir()
    shutil.copy(SUNKEN, copy)
    data = json_of(check_file(copy))
    text = data.decode("utf-8")
    assert str(tmp_path) not in text and "somewhere" not in text
    assert json.loads(text)["quest"]["source"] == "quest_file.quest"
    assert text.endswith("}\n") and not text.endswith("\n\n")
    assert data == canonical_bytes(json.loads(text))  # re-serialising changes nothing
    assert list(json.loads(text)) == list(SCHEMA["properties"])  # top-level keys in the documented order


def test_non_ascii_text_is_written_as_utf8():
    result = quest("""
        quest "Ælfwine's Crypt" {
          conquest 3
          intro "Ünter der Erde — 地下"
        }
        piece R1 room_4x4 at 0,0
        area A start { pieces R1; glyph at 0,0 active; named boss at 2,2 }
        named boss "Dür" skeleton { conquest 1 }
        victory heroes when killed boss
    """)
    data = json_of(result)
    assert "Ünter der Erde — 地下".encode() in data and b"\\u" not in data
    assert json.loads(data)["quest"]["id"] == "lfwine_s_crypt"


# ---- the meaning is all there ----------------------------------------------------------------


def test_drowned_reliquary_contents():
    d = doc_of(check_file(DROWNED))
    q = d["quest"]
    assert q == {
        "id": "drowned_reliquary",
        "title": "The Drowned Reliquary",
        "edition": "first",
        "expansions": ["base", "well_of_darkness"],
        "players": {"min": 2, "max": 5},
        "encounter": None,
        "alternative": None,
        "part_of": None,
        "act": None,
        "traits": [],
        "conquest": 5,
        "treachery": {"event": 3, "trap": 4, "monster": 3},
        "reveal": "sight",
        "intro": "Cold water drips from the vaulted ceiling.",
        "special": None,
        "author": "questc acceptance",
        "version": None,
        "source": "clean_drowned_reliquary.quest",
    }
    m = d["map"]
    assert (m["width"], m["height"], m["origin"]) == (17, 12, [0, 0])
    assert len(m["cells"]) == 36 + 8 + 16 + 2 + 24 and m["cells"] == sorted(m["cells"])
    assert m["walls"] == sorted(m["walls"]) and [6, 2, 6, 3] not in m["walls"]  # the door `entry` is no wall
    assert [5, 0, 5, 1] not in m["walls"] and [6, 0, 6, 1] in m["walls"] and [5, 0, 6, 0] in m["walls"]
    assert m["obstacle_walls"] == []
    assert [p["id"] for p in m["pieces"]] == ["R1", "C1", "T1", "E1", "R2"]
    assert m["pieces"][2] == {
        **m["pieces"][2],
        "type": "intersection_t",
        "kind": "intersection",
        "at": [10, 2],
        "turn": 0,
    }
    assert {tuple(b["cell"]): b["kind"] for b in m["blocking"]} == {
        (2, 3): "rubble",
        (2, 4): "rubble",
        (7, 2): "water",
        (8, 2): "water",
    }

    areas = {a["id"]: a for a in d["areas"]}
    assert {a: (x["reveal_wave"], x["visible_from"]) for a, x in areas.items()} == {
        "A": (0, []),
        "B": (1, ["A"]),
        "C": (2, ["B"]),
    }
    assert areas["A"]["start"] and not areas["B"]["start"]
    assert areas["B"]["read"] == ["The corridor ends in black water."] and areas["B"]["pieces"] == ["C1", "T1", "E1"]
    assert d["doors"] == [
        {
            "id": "entry",
            "name": "entry",
            "rune": None,
            "edge": [[6, 2, 6, 3], [6, 3, 6, 4]],
            "cells": [[5, 2], [5, 3], [6, 2], [6, 3]],
            "areas": ["A", "B"],
        },
        {
            "id": "vault",
            "name": "vault",
            "rune": "red",
            "edge": [[12, 6, 13, 6], [13, 6, 14, 6]],
            "cells": [[12, 5], [12, 6], [13, 5], [13, 6]],
            "areas": ["B", "C"],
        },
    ]
    assert d["obstacles"][2] == {
        "kind": "water",
        "cells": [[7, 2], [8, 2]],
        "area": "B",
        "blocks_movement": True,
        "blocks_sight": False,
        "sight_rule": None,
        "wall_like": False,
        "movement_cost": 1,
        "facing": None,
        "piece": None,
    }
    # Heroes start on or next to the active glyph at 1,1.
    assert d["start"] == {"area": "A", "from": "glyph", "cells": [[x, y] for x in range(3) for y in range(3)]}
    assert d["traps"] == []
    assert d["markers"][0] == {"kind": "glyph", "at": [1, 1], "area": "A", "active": True}
    assert {"kind": "runekey", "at": [16, 3], "area": "B", "colour": "red"} in d["markers"]
    assert {"kind": "encounter", "at": [14, 2], "area": "B", "encounter": "well"} in d["markers"]
    assert {"kind": "chest", "at": [14, 11], "area": "C", "chest": "gold", "number": 1} in d["markers"]
    figures = d["figures"]
    assert [(f["type"], f["rank"]) for f in figures] == [
        ("beastman", "normal"),
        ("beastman", "normal"),
        ("beastman", "master"),
        ("razorwing", "normal"),
        ("giant", "named"),
    ]
    assert figures[2]["players"] == {"min": 4, "max": 5} and figures[0]["players"] is None
    assert figures[4] == {
        "type": "giant",
        "rank": "named",
        "named": "narthak",
        "at": [12, 8],
        "cells": [[12, 8], [12, 9], [13, 8], [13, 9]],
        "facing": None,
        "area": "C",
        "players": None,
    }
    assert d["named"] == [
        {
            "id": "narthak",
            "name": "Narthak",
            "type": "giant",
            "changes": [
                {"stat": "wounds", "value": 10, "relative": True},
                {"stat": "armor", "value": 1, "relative": True},
            ],
            "abilities": [{"name": "command", "rank": None}, {"name": "fear", "rank": 1}],
            "conquest": 3,
        }
    ]
    assert d["encounters"] == [
        {
            "id": "well",
            "name": "well",
            "at": [14, 2],
            "area": "B",
            "effects": [
                {"effect": "read", "text": "A rope hangs into a dry well. Something glitters below."},
                {"effect": "conquest", "amount": 2},
            ],
        }
    ]
    assert d["triggers"] == [
        {
            "event": "reveal",
            "target": "C",
            "round": None,
            "phase": None,
            "every": None,
            "condition": None,
            "effects": [{"effect": "read", "text": "A giant turns from the altar, smiling."}],
        }
    ]
    assert d["chests"][1] == {
        "type": "silver",
        "number": 2,
        "contents": [{"kind": "coins", "amount": 100, "potion": None}, {"kind": "curse", "amount": 1, "potion": None}],
    }
    assert d["overlord"] is None
    assert d["victory"] == [
        {"side": "heroes", "label": "Slay Narthak", "when": {"event": "killed", "target": "narthak"}, "next": None},
        {"side": "overlord", "label": None, "when": {"counter": "conquest", "op": "<=", "value": 0}, "next": None},
    ]
    assert (d["roles"], d["groups"], d["tokens"], d["counters"]) == ({"entrances": [], "exits": []}, [], [], [])
    a = d["analysis"]
    assert a["reveal_waves"] == [["A"], ["B"], ["C"]]
    assert a["unreachable_cells"] == [] and a["unlockable"] == ["red"] and a["passable_doors"] == ["entry", "vault"]
    # glyph at 11,11 (3) + chest rows silver 1 and gold 1 (2 + 3; silver 2 has no chest) + well (2) + Narthak (3)
    assert a["conquest"] == {
        "start": 5,
        "available": 13,
        "glyphs": 3,
        "chests": 5,
        "encounters": 2,
        "triggers": 0,
        "named": 3,
    }
    assert d["diagnostics"] == []


def test_every_effect_and_condition_as_data():
    d = doc_of(check_file(SUNKEN))
    effects = d["encounters"][0]["effects"]
    assert effects == [
        {"effect": "read", "text": "An altar."},
        {"effect": "conquest", "amount": 2},
        {"effect": "conquest", "amount": -1},
        {"effect": "coins", "amount": 50},
        {"effect": "treasure", "kind": "silver", "count": 2},
        {"effect": "threat", "amount": 3},
        # R2:1,1 is counted from R2's corner at 10,6; an ogre fills 2x2 cells.
        {
            "effect": "spawn",
            "type": "ogre",
            "rank": "master",
            "figures": [{"at": [11, 7], "cells": [[11, 7], [11, 8], [12, 7], [12, 8]]}],
        },
        {
            "effect": "spawn",
            "type": "skeleton",
            "rank": "normal",
            "figures": [{"at": [11, 3], "cells": [[11, 3]]}, {"at": [14, 3], "cells": [[14, 3]]}],
        },
        {"effect": "open", "door": "vault"},
        {"effect": "close", "door": "entry"},
        {"effect": "unlock", "colour": "blue"},
        {"effect": "reveal", "area": "D"},
        {"effect": "instruct", "text": "Shuffle the overlord's discard pile."},
        {"effect": "win", "side": "heroes"},
    ]
    assert [(t["event"], t["target"], t["round"]) for t in d["triggers"]] == [
        ("reveal", "C", None),
        ("killed", "lich", None),
        ("open", "vault", None),
        ("round", None, 12),
    ]
    assert d["triggers"][3]["effects"] == [{"effect": "win", "side": "overlord"}]
    assert d["victory"][0]["when"] == {
        "op": "and",
        "args": [
            {"event": "killed", "target": "lich"},
            {
                "op": "not",
                "args": [
                    {
                        "op": "or",
                        "args": [
                            {"counter": "round", "op": ">", "value": 20},
                            {"counter": "conquest", "op": "<", "value": 2},
                        ],
                    }
                ],
            },
        ],
    }
    assert d["victory"][1]["when"] == {
        "op": "and",
        "args": [
            {"event": "opened", "target": "vault"},
            {"event": "triggered", "target": "altar"},
            {"event": "revealed", "target": "D"},
        ],
    }


def test_sunken_crypt_map_setup_and_plan():
    d = doc_of(check_file(SUNKEN))
    q = d["quest"]
    assert (q["players"], q["version"], q["special"]) == ({"min": 3, "max": 5}, "1.2", "Fog hides the hall's far end.")
    doors = {door["id"]: door for door in d["doors"]}
    assert doors["side"]["edge"] == [[16, 2, 16, 3], [16, 3, 16, 4]] and doors["side"]["areas"] == ["B", "B"]
    assert d["stairs"] == [{"colour": "blue", "name": "blue stairs", "ends": [[14, 12], [21, 1]], "areas": ["C", "D"]}]
    assert [(o["kind"], o["sight_rule"]) for o in d["obstacles"]] == [
        ("rubble", None),
        ("fog", "fog"),
        ("pit", "pit"),
        ("water", None),
    ]
    boulder = d["traps"][1]
    assert boulder == {
        "kind": "boulder",
        "cells": [[11, 9]],
        "area": "C",
        "blocks_movement": True,
        "blocks_sight": True,
        "sight_rule": None,
        "wall_like": True,
        "movement_cost": 1,
        "facing": "south",
        "piece": None,
    }
    # The boulder walls its cell in on all four sides.
    assert d["map"]["obstacle_walls"] == [[11, 9, 11, 10], [11, 9, 12, 9], [11, 10, 12, 10], [12, 9, 12, 10]]
    assert {
        "cell": [3, 1],
        "kind": "fog",
        "blocks_movement": False,
        "blocks_sight": True,
        "fog": True,
        "wall_like": False,
        "pit": False,
    } in d["map"]["blocking"]
    assert d["figures"][0]["cells"] == [[4, 4], [5, 4]] and d["figures"][0]["facing"] == "east"
    assert {"kind": "relic", "at": [5, 5], "area": "A", "relic": "crown", "name": "crown"} in d["markers"]
    assert {"kind": "treasure", "at": [0, 5], "area": "A", "treasure": "healing"} in d["markers"]
    chests = [m for m in d["markers"] if m["kind"] == "chest"]
    assert [(c["chest"], c["number"]) for c in chests] == [("copper", 1), ("copper", 2), ("gold", 1)]
    assert d["chests"][1]["contents"][1] == {"kind": "potion", "amount": 1, "potion": "healing"}
    assert d["areas"][0]["note"] == ["The overlord may move the fog."]
    assert d["areas"][1]["read"] == ["Water drips.", "A second line."]
    assert d["named"][0]["changes"][0] == {"stat": "wounds", "value": 12, "relative": False}
    assert d["overlord"] == {
        "cards": [{"name": "Rolling Stone", "copies": 1, "type": None, "budget": "trap", "cost": 3}],
        "dark_glyphs": [{"name": "summoning", "budget": "monster", "cost": 2}],
        "spent": {"event": 0, "trap": 3, "monster": 2},
    }
    areas = {a["id"]: (a["reveal_wave"], a["visible_from"]) for a in d["areas"]}
    assert areas == {"A": (0, []), "B": (1, ["A"]), "C": (2, ["B"]), "D": (2, ["effect"])}
    assert d["analysis"]["conquest"] == {
        "start": 6,
        "available": 16,
        "glyphs": 3,
        "chests": 4,
        "encounters": 2,
        "triggers": 3,
        "named": 4,
    }


def test_unreachable_cells_leave_out_cells_no_one_may_enter():
    result = quest("""
        quest "Moat" { conquest 3 }
        piece R1 room_4x4 at 0,0
        piece R2 room_4x4 at 4,0
        area A start { pieces R1; glyph at 0,0 active; named keeper at 0,2 }
        area B "Far side" { pieces R2; obstacle water at 5,0..5,3 }
        named keeper "Keeper" skeleton { conquest 1 }
        victory heroes when killed keeper
    """)
    d = doc_of(result)
    # The water column itself is not listed: nobody may enter it, by the rules, not by mistake.
    assert d["analysis"]["unreachable_cells"] == [[x, y] for x in (6, 7) for y in range(4)]
    assert [a["reveal_wave"] for a in d["areas"]] == [0, 1]


def test_diagnostics_are_recorded_with_file_names_only(tmp_path):
    folder = tmp_path / "nested"
    folder.mkdir()
    path = folder / "alcove.quest"
    path.write_text(
        textwrap.dedent("""
        quest "Alcove" { conquest 3 }
        piece R1 room_4x4 at 0,0
        piece C1 corridor_2x2 at 4,1
        piece E1 dead_end at 6,1
        area A "Hall" start { pieces R1; glyph at 0,0 active; named boss at 1,1 }
        area B "Alcove" { pieces C1, E1 }
        named boss "Boss" skeleton { conquest 1 }
        victory heroes when killed boss
    """).lstrip(),
        encoding="utf-8",
    )
    result = check_file(path, Options(verbose=True))
    assert result.buildable()
    d = doc_of(result)
    codes = {x["code"]: x for x in d["diagnostics"]}
    assert "Q305" in codes, d["diagnostics"]
    assert codes["Q305"]["severity"] == "warning" and codes["Q305"]["file"] == "alcove.quest"
    assert {x["severity"] for x in d["diagnostics"]} <= {"warning", "info"}
    assert str(tmp_path) not in json_of(result).decode("utf-8")
    # By default the result's own (policy-filtered) diagnostics are recorded; infos only when kept.
    plain = doc_of(check_file(path))
    assert all(x["severity"] == "warning" for x in plain["diagnostics"])


def test_a_quest_with_errors_has_no_engine_json(tmp_path):
    from questc.api import build

    result = check_source('quest "Broken" { conquest 3 }\npiece R1 room_4x4 at 0,0\n', "broken.quest")
    assert result.errors and not result.buildable()
    assert not build([result], tmp_path / "out", kinds=["json"]).written


@pytest.mark.slow
def test_lint_start_up_does_not_import_jsonschema():
    code = textwrap.dedent(f"""
        import sys
        from questc.api import check_file
        import questc.cli.lint, questc.cli.build, questc.emit.engine_json, questc.loader
        result = check_file({str(DROWNED)!r})
        from questc.emit.engine_json import engine_json
        engine_json(result.compiled, result.diagnostics)
        assert "jsonschema" not in sys.modules, "jsonschema imported"
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
