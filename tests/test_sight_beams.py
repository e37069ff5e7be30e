"""First-edition sight by beams (questc/board/beams.py) against what came before it and against the
per-pair check, on generated dungeons (bench/dungeon.py) large enough for long lines of sight.

- Old against new: tests/snapshots/sight/beams.json holds what questc computed with one ray per
  direction (the sight tables of commit a28144d): for each map, digests of every floor cell's
  sight in three door states, and the reveal analysis (waves, where each area is first seen
  from, the cells reached). The beams must give the same.  Regenerate it only from a checkout
  of that algorithm: `PYTHONPATH=<that checkout> python tests/test_sight_beams.py`.
- Beams against `sight.check` (the features of one line, tested one by one) for every pair from
  sampled sources, and the reveal analysis's cast from groups against one query per group.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from dungeon import dungeon  # noqa: E402

from questc.board.sight import CENTRE_LINE  # noqa: E402

SNAPSHOT = REPO / "tests" / "snapshots" / "sight" / "beams.json"
# (floor cells, seed) of the maps: small enough for the old algorithm to record in seconds.
MAPS = [(400, 3), (900, 5), (1500, 8), (2118, 1)]


def _board(cells: int, seed: int):
    from questc.api import Options, check_source

    result = check_source(dungeon(cells, seed=seed)[0], "dungeon.quest", Options(ignore=("Q404", "Q405")))
    assert result.compiled is not None and not result.errors, result.diagnostics
    return result


def _states(board, seed: int) -> dict[str, frozenset[str]]:
    ids = sorted(board.doors)
    rng = random.Random(seed)
    return {"closed": frozenset(), "open": frozenset(ids), "half": frozenset(d for d in ids if rng.random() < 0.5)}


def _sight_digest(board, doors: frozenset[str]) -> str:
    """A digest of every floor cell's first-edition sight in one door state."""
    digest = hashlib.sha256()
    for cell in board.cells:
        seen = sorted(board.visible_cells([cell], CENTRE_LINE, doors))
        digest.update(repr((cell, seen)).encode())
    return digest.hexdigest()[:16]


def _analysis(result) -> dict:
    analysis = result.compiled.analysis
    reached = hashlib.sha256(repr(sorted(analysis.reached)).encode()).hexdigest()[:16]
    return {
        "waves": analysis.waves,
        "visible_from": analysis.visible_from,
        "reached": reached,
        "opened": sorted(analysis.opened_doors),
    }


def record() -> dict:
    out = {}
    for cells, seed in MAPS:
        result = _board(cells, seed)
        board = result.compiled.board
        out[f"{cells}/{seed}"] = {
            "sight": {name: _sight_digest(board, doors) for name, doors in _states(board, seed).items()},
            "analysis": _analysis(result),
        }
    return out


@pytest.fixture(scope="module")
def snapshot() -> dict:
    return json.loads(SNAPSHOT.read_text(encoding="utf-8"))


@pytest.mark.slow
@pytest.mark.parametrize("cells, seed", MAPS)
def test_every_cells_sight_is_what_the_rays_per_direction_gave(snapshot, cells, seed):
    board = _board(cells, seed).compiled.board
    expected = snapshot[f"{cells}/{seed}"]["sight"]
    got = {name: _sight_digest(board, doors) for name, doors in _states(board, seed).items()}
    assert got == expected


@pytest.mark.parametrize("cells, seed", MAPS)
def test_the_reveal_analysis_is_what_the_rays_per_direction_gave(snapshot, cells, seed):
    assert _analysis(_board(cells, seed)) == snapshot[f"{cells}/{seed}"]["analysis"]


@pytest.mark.slow
@pytest.mark.parametrize("seed", [11, 12])
def test_beams_agree_with_the_check_of_each_line(seed):
    """Every floor cell's answer from sampled sources, against `sight.check` of that one line."""
    from questc.board.sight import check

    board = _board(700, seed).compiled.board
    rng = random.Random(seed)
    for doors in _states(board, seed).values():
        state = board.state(doors)
        for source in rng.sample(board.cells, 12):
            seen = board.visible_cells([source], CENTRE_LINE, doors)
            expected = {b for b in board.cells if check(state, source, b, CENTRE_LINE) is None}
            assert seen == expected, (source, sorted(doors))


@pytest.mark.parametrize("seed", [21, 22])
def test_one_cast_from_many_groups_is_one_query_per_group(seed):
    """`Board.labels_seen`, as the reveal analysis asks it, against `visible_cells` of each group."""
    result = _board(900, seed)
    board, model = result.compiled.board, result.compiled.model
    labels = {c: area.id for area in model.areas.values() for c in area.cells}
    rng = random.Random(seed)
    area_ids = sorted(model.areas)
    for doors in _states(board, seed).values():
        chosen = rng.sample(area_ids, len(area_ids) // 3)
        groups = {a: [c for c in model.areas[a].cells if board.is_floor(c)] for a in chosen}
        sources = {c for a in area_ids if a not in chosen for c in model.areas[a].cells if board.is_floor(c)}
        got = board.labels_seen(groups, sources, labels, CENTRE_LINE, doors)
        for area, cells in groups.items():
            expected = {labels[c] for c in board.visible_cells(cells, CENTRE_LINE, doors) & sources}
            assert got[area] == expected, (area, sorted(doors))


if __name__ == "__main__":
    SNAPSHOT.parent.mkdir(parents=True, exist_ok=True)
    SNAPSHOT.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {SNAPSHOT}")
