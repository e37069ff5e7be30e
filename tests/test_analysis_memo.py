"""The reveal analysis a board keeps (QuestBoard.memo, for the language server's keystrokes) is
the one a fresh analysis gives, after edits that change what it reads and after edits that do not."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from questc.analysis import reveal
from questc.api import Options, check_source

QUESTS = Path(__file__).resolve().parents[1] / "quests"


def _variants(text: str, edits: list[tuple[str, str]]) -> list[str]:
    """The quest, then each edit on top of the one before (every `old` must be there)."""
    out = [text]
    for old, new in edits:
        assert old in out[-1], old
        out.append(out[-1].replace(old, new, 1))
    return out


# Edits of what the fixed point reads (a rune key moved away, a door's rune, the reveal rule, an
# effect's target), each between edits that change only what it does not (a comment above
# everything, which moves every span; an area's name for players).
CASES = {
    "three_seals": [
        ("# The Three", "#\n# The Three"),
        ("runekey red at 28,16", "runekey yellow at 28,16"),
        ("# The Three", "## The Three"),
        ("rune blue", "rune red"),
        ("door red_seal", "door  red_seal"),
    ],
    "tinker_dukes_house": [
        ("  reveal door", "  reveal sight"),
        ("# The Tinker", "#\n# The Tinker"),
        ("    reveal V", "    reveal W"),
        ("    unlock blue", "    unlock red"),
        ("    open vault", "    close vault"),
        ("  reveal sight", "  reveal door"),
    ],
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_kept_analysis_is_a_fresh_one(name):
    import questc.board.quest_board as boards

    options = Options(verbose=True)
    texts = _variants((QUESTS / f"{name}.quest").read_text(encoding="utf-8"), CASES[name])
    boards.remember(2)
    try:
        results = [check_source(text, f"{name}.quest", options) for text in texts]
        analyses = [r.compiled.analysis for r in results]
    finally:
        boards.remember(0)
    for text, result, analysis in zip(texts, results, analyses):
        fresh = check_source(text, f"{name}.quest", options)
        assert analysis == reveal._analyse(fresh.compiled.model, fresh.compiled.quest_board, reveal.NO_SCENARIO)
        assert result.all_diagnostics == fresh.all_diagnostics
    # The edits that change nothing the analysis reads give the same one back; the others do not.
    assert len({id(a) for a in analyses}) < len(analyses)
    assert len({repr(a) for a in analyses}) > 1


def test_positions_and_names_for_players_are_not_part_of_the_key():
    text = (QUESTS / "three_seals.quest").read_text(encoding="utf-8")
    moved = "\n\n" + text.replace('"', '"x', 1)
    one, two = (check_source(t, "q.quest").compiled for t in (text, moved))
    key = reveal.analysis_key
    assert key(one.model, reveal.NO_SCENARIO) == key(two.model, reveal.NO_SCENARIO)
    assert key(one.model, reveal.NO_SCENARIO) != key(one.model, reveal.Scenario(unlocked=frozenset({"red"})))


def test_the_second_editions_inputs_are_part_of_the_key():
    """The quest's entrances (`entrance PIECE`) and lieutenants placed on pieces are read by the
    fixed point (the heroes' start, `on killed`): another value of either is another key."""
    import dataclasses

    model = check_source((QUESTS / "three_seals.quest").read_text(encoding="utf-8"), "q.quest").compiled.model
    key = reveal.analysis_key(model, reveal.NO_SCENARIO)
    piece = next(iter(model.pieces))
    assert reveal.analysis_key(dataclasses.replace(model, roles={"entrance": (piece,)}), reveal.NO_SCENARIO) != key
    area = next(iter(model.areas))
    group = reveal.analysis_key(
        dataclasses.replace(model, groups={"splig": _Group("splig", "lieutenant", area)}), reveal.NO_SCENARIO
    )
    assert group != key


@dataclass(frozen=True)
class _Group:
    """As much of a GroupModel as the key reads."""

    id: str
    kind: str
    area: str
    cells: frozenset = frozenset({(0, 0)})
