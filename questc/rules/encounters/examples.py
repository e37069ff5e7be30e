"""Building blocks of the encounter rules' examples: quests of several files, each after a
`# file: NAME.quest` line (questc.quest_sets.example_files splits them)."""

from __future__ import annotations

_BODY = (
    "piece T tile_9a at 0,0\npiece In entrance at 1,-2 turn 180\npiece Out exit at 4,1 turn 270\n"
    "piece Cap end_cap at -1,1 turn 90\n"
    'area A "Hall" start {\n  pieces T, In, Out, Cap\n}\n'
)


def encounter(name: str, number: str, *, part_of: str = "toll", extra: str = "", win: str = "") -> str:
    """One file of a quest: `# file: NAME.quest`, then an encounter of a second edition quest."""
    return (
        f"# file: {name}.quest\n"
        f'quest "The Toll, encounter {number}" {{\n  edition second\n  encounter {number}\n'
        f"  part_of {part_of}\n{extra}}}\n" + _BODY + (win or "victory heroes when exited\n")
    )
