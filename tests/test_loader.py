"""The reference loader: it refuses what it must, and, rebuilding the board from the JSON
alone, answers movement and line-of-sight questions exactly as the compiler does."""

from __future__ import annotations

import copy
import json
import random
import shlex
import subprocess
import sys
import textwrap
from itertools import product
from pathlib import Path

import pytest
from conftest import ACCEPTANCE
from helpers import compile_file

from questc.api import check_file
from questc.emit.engine_json import engine_document, engine_json
from questc.loader import EngineQuest, QuestJSONError, UnsupportedFormatVersion, load_quest_json

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "tests" / "snapshots" / "json"
DROWNED = SNAPSHOTS / "clean_drowned_reliquary.quest"
SUNKEN = SNAPSHOTS / "sunken_crypt.quest"


def as_edition(result, edition: str) -> dict:
    """A compiled quest's engine JSON, its sight rules set to `edition`: the sunken crypt's
    first edition map (fog, pit, a boulder) is also asked second edition sight questions."""
    document = engine_document(result)
    document["quest"]["edition"] = edition
    return document


def compiled(path: Path):
    return compile_file(path)


def small_quests() -> list:
    """Quests small enough to compare every pair of cells, with the sight rules to ask them under:
    the acceptance clean cases, the fixtures, and second edition tiles (a shipped encounter)."""
    sunken = compiled(SUNKEN)
    found = [
        ("drowned", compiled(DROWNED), "first"),
        ("sunken", sunken, "first"),
        ("sunken-second", sunken, "second"),
        ("tiles-second", compiled(ROOT / "quests" / "lantern_road_2.quest"), "second"),
    ]
    if ACCEPTANCE.is_dir():
        for path in sorted(ACCEPTANCE.glob("clean_*.quest")):
            if path.name != DROWNED.name:
                found.append((path.stem, compiled(path), "first"))
    return found


SMALL = small_quests()


def door_states(board) -> list[frozenset[str]]:
    """All doors closed, all open, and the first door open alone."""
    ids = list(board.doors)
    return [frozenset(), frozenset(ids)] + [frozenset(ids[:1])] * bool(ids)


# ---- answers like the compiler --------------------------------------------------------------


@pytest.mark.parametrize("name,result,edition", SMALL, ids=[n for n, _, _ in SMALL])
def test_loader_rebuilds_the_same_board(name, result, edition):
    compiler = result.board
    loaded = load_quest_json(as_edition(result, edition)).board
    assert loaded.cells == compiler.cells and loaded.walls == compiler.walls
    assert loaded.obstacle_walls == compiler.obstacle_walls and loaded.doors == compiler.doors
    assert loaded.stairs == compiler.stairs
    assert {c: b for c, b in loaded.blocking.items()} == compiler.blocking
    assert all(loaded.piece_of(c) == compiler.piece_of(c) for c in compiler.cells)


@pytest.mark.parametrize("name,result,edition", SMALL, ids=[n for n, _, _ in SMALL])
@pytest.mark.slow
def test_loader_answers_like_the_compiler_for_every_pair(name, result, edition):
    compiler = result.board
    loaded = load_quest_json(as_edition(result, edition))
    assert loaded.edition == edition and loaded.cells == compiler.cells
    cells = list(compiler.cells)
    rng = random.Random(name)
    for doors in door_states(compiler):
        for a, b in product(cells, cells):
            assert loaded.can_step(a, b, doors) == compiler.can_step(a, b, doors), (a, b, sorted(doors))
        if edition == "first":
            # Exact sight for every pair (centre to centre is cheap).
            pairs = list(product(cells, cells))
        else:
            # Corner-to-corner sight tries 16 lines a pair: every pair goes through the bulk
            # (bitset) path below, and a fixed sample through the exact one.
            pairs = [(rng.choice(cells), rng.choice(cells)) for _ in range(400)]
        for a, b in pairs:
            assert loaded.sees(a, b, doors) == compiler.sees(a, b, edition, doors), (a, b, sorted(doors))
        for a in cells:
            assert loaded.visible_cells([a], doors, stairs=False) == compiler.visible_cells(
                [a], edition, doors, stairs=False
            ), (a, sorted(doors))
        start = cells[:1]
        assert loaded.reachable(start, doors) == compiler.reachable(start, None, doors, True)
        assert loaded.reachable(start, doors, stairs=False) == compiler.reachable(start, None, doors, None)
        assert loaded.visible_cells(start, doors) == compiler.visible_cells(start, edition, doors, stairs=True)


def test_every_cell_of_the_compiler_steps_the_same_way_off_the_map():
    """Stepping onto non-floor cells (one beyond the map's edge) is refused by both."""
    result = compiled(DROWNED)
    compiler = result.board
    loaded = load_quest_json(engine_json(result))
    for cell in compiler.cells:
        for dx, dy in product((-1, 0, 1), repeat=2):
            other = (cell[0] + dx, cell[1] + dy)
            assert loaded.can_step(cell, other) == compiler.can_step(cell, other)


def shipped_quests() -> list[Path]:
    return sorted((ROOT / "quests").rglob("*.quest"))


@pytest.mark.parametrize("path", shipped_quests(), ids=lambda p: p.name)
@pytest.mark.slow
def test_loader_answers_like_the_compiler_on_a_sample_of_a_shipped_quest(path):
    result = check_file(path)
    if not result.buildable() or result.compiled is None:
        pytest.skip(f"{path.name} does not compile at the moment")
    compiler = result.compiled.board
    edition = result.compiled.model.edition.sight
    loaded = load_quest_json(engine_json(result.compiled))
    cells = list(compiler.cells)
    rng = random.Random(path.name)  # a fixed sample per quest, so failures repeat
    pairs = [(rng.choice(cells), rng.choice(cells)) for _ in range(1500)]
    neighbours = [
        (a, (a[0] + dx, a[1] + dy))
        for a in rng.sample(cells, min(len(cells), 200))
        for dx, dy in product((-1, 0, 1), repeat=2)
    ]
    for doors in (frozenset(), frozenset(compiler.doors)):
        for a, b in pairs:
            assert loaded.sees(a, b, doors) == compiler.sees(a, b, edition, doors), (a, b)
        for a, b in neighbours:
            assert loaded.can_step(a, b, doors) == compiler.can_step(a, b, doors), (a, b)


def test_loader_answers_the_acceptance_line_of_sight_questions():
    questions = ACCEPTANCE / "los.txt"
    if not questions.exists():
        pytest.skip("no acceptance folder here")
    loaded: dict[str, EngineQuest] = {}
    asked = 0
    for line in questions.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        question, _, answer = line.partition("=>")
        words = shlex.split(question)
        file, a, b, rest = words[0], words[1], words[2], words[3:]
        opened = {rest[i + 1] for i, w in enumerate(rest) if w == "--open"}
        if file not in loaded:
            result = check_file(ACCEPTANCE / file)
            if not result.buildable() or result.compiled is None:
                continue
            loaded[file] = load_quest_json(engine_json(result.compiled))
        cell = lambda text: tuple(int(v) for v in text.split(","))  # noqa: E731
        seen = loaded[file].sees(cell(a), cell(b), opened)
        assert ("visible" if seen else "blocked") == answer.strip(), line
        asked += 1
    assert asked > 0


def test_doors_block_until_opened():
    loaded = load_quest_json(engine_json(compiled(DROWNED)))
    assert not loaded.can_step((5, 2), (6, 2)) and loaded.can_step((5, 2), (6, 2), {"entry"})
    assert not loaded.sees((5, 2), (6, 2)) and loaded.sees((5, 2), (6, 2), {"entry"})
    assert "entry" in loaded.why_blocked((5, 2), (6, 2)) and loaded.why_blocked((5, 2), (6, 2), {"entry"}) is None
    assert not loaded.can_step((1, 3), (2, 3))  # rubble keeps figures out
    assert loaded.can_step((1, 2), (2, 2))
    assert loaded.area_of((12, 8)) == "C" and loaded.area_of((30, 30)) is None
    inside = loaded.reachable([(0, 0)])
    assert (6, 2) not in inside and (6, 2) in loaded.reachable([(0, 0)], {"entry"})
    assert loaded.door_ids == ["entry", "vault"]


def test_stairs_and_wall_like_obstacles_come_through():
    loaded = load_quest_json(engine_json(compiled(SUNKEN)))
    # The blue stairs join 14,12 in the crypt to 21,1 in the tomb.
    assert (21, 1) in loaded.reachable([(14, 12)])
    assert (21, 1) not in loaded.reachable([(14, 12)], stairs=False)
    assert (21, 1) in loaded.visible_cells([(14, 12)])
    # The boulder at 11,9 walls its cell in.
    assert loaded.board.edge_blocked((11, 9, 12, 9))
    assert not loaded.can_step((11, 8), (11, 9)) and not loaded.sees((11, 8), (11, 10))


# ---- what the loader refuses -------------------------------------------------------------------


@pytest.fixture(scope="module")
def document() -> dict:
    return engine_document(compiled(DROWNED))


def test_a_newer_format_version_is_refused_clearly(document):
    newer = {**document, "format_version": 4, "something_new": True}
    with pytest.raises(UnsupportedFormatVersion, match=r"format_version 4 is newer .* \(at most 3\)"):
        load_quest_json(newer)
    with pytest.raises(UnsupportedFormatVersion):
        load_quest_json({**document, "format_version": 0})
    with pytest.raises(QuestJSONError, match="must be an integer"):
        load_quest_json({**document, "format_version": "1"})


def test_other_documents_are_refused(document, tmp_path):
    with pytest.raises(QuestJSONError, match="not a questc quest"):
        load_quest_json({**document, "format": "something.else"})
    with pytest.raises(QuestJSONError, match="not a questc quest"):
        load_quest_json(b"[1, 2]")
    with pytest.raises(QuestJSONError, match="not JSON"):
        load_quest_json(b"{nope")
    with pytest.raises(QuestJSONError, match="cannot read"):
        load_quest_json(tmp_path / "missing.json")
    with pytest.raises(QuestJSONError, match="invalid quest JSON at quest"):
        load_quest_json({**document, "quest": {**document["quest"], "surprise": 1}})
    with pytest.raises(QuestJSONError, match="invalid quest JSON at map/cells/0"):
        load_quest_json({**document, "map": {**document["map"], "cells": [[0, "0"]] + document["map"]["cells"][1:]}})


def test_parts_that_repeat_each_other_must_agree(document):
    broken = copy.deepcopy(document)
    broken["map"]["cells"].pop()
    with pytest.raises(QuestJSONError, match="disagree"):
        load_quest_json(broken)
    broken = copy.deepcopy(document)
    broken["map"]["obstacle_walls"] = [[0, 0, 1, 0]]
    with pytest.raises(QuestJSONError, match="obstacle_walls"):
        load_quest_json(broken)


def test_loads_from_a_path_bytes_text_or_dict(tmp_path, document):
    data = engine_json(compiled(DROWNED))
    path = tmp_path / "q.json"
    path.write_bytes(data)
    for source in (path, str(path), data, data.decode("utf-8"), document):
        loaded = load_quest_json(source)
        assert loaded.id == "drowned_reliquary" and len(loaded.cells) == 86
    with pytest.raises(TypeError):
        load_quest_json(42)


def test_the_loader_needs_neither_the_catalog_nor_the_source(tmp_path):
    """Loaded in a fresh interpreter, nothing of the catalog, the model or the parser is imported."""
    path = tmp_path / "q.json"
    path.write_bytes(engine_json(compiled(SUNKEN)))
    code = textwrap.dedent(f"""
        import sys
        from questc.loader import load_quest_json
        quest = load_quest_json({str(path)!r})
        assert quest.sees((0, 0), (1, 1)) and quest.can_step((0, 0), (1, 1))
        leaked = [m for m in sys.modules if m.startswith(("questc.catalog", "questc.model", "questc.syntax",
                                                            "questc.analysis", "questc.rules", "lark", "yaml"))]
        assert not leaked, leaked
    """)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_validation_can_be_skipped_but_the_version_check_cannot(document):
    loose = {**document, "extra": True}
    assert load_quest_json(loose, validate_schema=False).id == "drowned_reliquary"
    with pytest.raises(UnsupportedFormatVersion):
        load_quest_json({**document, "format_version": 9}, validate_schema=False)


def test_json_round_trip_keeps_the_document(document):
    loaded = load_quest_json(json.dumps(document))
    assert loaded.data == document
