"""A door state's sight table built from a smaller state's (recasting only the sources in the regions the
newly opened doors join, over their box) is the table a full cast gives."""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from questc.api import Options, check_source

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))
from generate import generated_quest  # noqa: E402


def _quests():
    yield "generated_4x4", generated_quest(300, areas=19, room=4, seed=5), "generated_4x4.quest"
    yield "generated_6x6", generated_quest(500, areas=14, seed=6), "generated_6x6.quest"
    for path in sorted((REPO / "quests").glob("*.quest")):
        yield path.stem, path.read_text(encoding="utf-8"), str(path)


@pytest.mark.parametrize("name, text, path", list(_quests()), ids=[q[0] for q in _quests()])
@pytest.mark.slow
def test_recast_tables_equal_full_casts(name: str, text: str, path: str):
    result = check_source(text, path, Options(ignore=("Q404", "Q405")))
    assert result.compiled is not None
    board = result.compiled.board
    if not board.doors:
        pytest.skip("no doors: one door state")
    rng = random.Random(name)
    doors = sorted(board.doors)
    for _ in range(3):
        board._tables.clear()
        order = doors[:]
        rng.shuffle(order)
        opened: frozenset[str] = frozenset()
        for door in order:   # states growing one or two doors at a time, as the reveal waves open them
            opened |= {door}
            if rng.random() < 0.5:
                continue
            table = board._sight_table(opened)
            full = board._bitboard(opened).sight_table()
            assert table == full, (name, sorted(opened))
