"""quest_board.remember: the boards the language server keeps between checks give exactly the
diagnostics a fresh board gives."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from questc.api import check_source

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.slow
def test_a_remembered_board_gives_the_same_diagnostics():
    """The server keeps boards between checks (quest_board.remember): a quest whose map did not change
    gets the same board back, and every check still reports exactly what a fresh check reports."""
    import questc.board.quest_board as boards
    from questc.api import Options

    sys.path.insert(0, str(REPO / "bench"))
    from generate import generated_quest

    options = Options(ignore=("Q404", "Q405"), verbose=True)
    base = generated_quest(300, areas=6)
    variants = [
        base,
        base.replace('"Area 1"', '"Hall"'),
        base.replace("obstacle rubble", "obstacle water", 1),
        base.replace("victory heroes when revealed A0", "victory heroes when revealed A1"),
        base,
    ]
    fresh = [check_source(text, "g.quest", options).all_diagnostics for text in variants]
    boards.remember(2)
    try:
        kept = []
        for text in variants:
            result = check_source(text, "g.quest", options)
            kept.append((result.all_diagnostics, result.compiled.quest_board))
    finally:
        boards.remember(0)
    assert [d for d, _ in kept] == fresh
    assert kept[1][1] is kept[0][1] and kept[3][1] is kept[0][1]  # map unchanged: the same board
    assert kept[2][1] is not kept[0][1]  # an obstacle changed: built again
