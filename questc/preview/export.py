"""`questc preview QUEST --export page.html`: the page as one self-contained file.

The same page script and scene as the live preview, with the sight of every floor
cell computed beforehand (the page has no server to ask): for every combination of
open doors when the map has at most EXACT_DOORS doors, else with every door closed
(the page then keeps every door closed). Each cell's
sight is a bitset over the floor cells; identical bitsets are stored once. The file
loads nothing: the map is an SVG with its picture inline, and a Content-Security-Policy
forbids the page any request.
"""

from __future__ import annotations

from itertools import combinations

EXACT_DOORS = 7  # 2**7 door states: every shipped quest's doors, about a second of sight


def door_states(doors: list[str]) -> list[tuple[str, ...]]:
    """The door states the export holds, each as its sorted open doors."""
    doors = sorted(doors)
    if len(doors) <= EXACT_DOORS:
        return [combo for k in range(len(doors) + 1) for combo in combinations(doors, k)]
    return [()]


def sight_tables(snapshot) -> dict:
    """Every floor cell's sight for each door state: {"rows": [bitset...], "states": {"a,b": [row per cell]}}."""
    from questc.preview.scene import bitset

    size = len(snapshot.cells)
    rows: list[str] = []
    row_of: dict[str, int] = {}
    states: dict[str, list[int]] = {}
    for state in door_states(sorted(snapshot.door_ids)):
        per_cell = []
        for cell in snapshot.cells:
            bits = bitset(snapshot.sight(cell, state), size)
            if bits not in row_of:
                row_of[bits] = len(rows)
                rows.append(bits)
            per_cell.append(row_of[bits])
        states[",".join(state)] = per_cell
    return {"rows": rows, "states": states, "exact": len(snapshot.door_ids) <= EXACT_DOORS}


def export_html(preview) -> str:
    """A refreshed Preview in; the self-contained page out (QuestcError if the quest has no map)."""
    from questc.api import QuestcError
    from questc.preview.server import page_html

    snap = preview.snapshot
    if snap is None or preview.stale:
        raise QuestcError(
            f"{preview.path}: no map to export: "
            + (preview.problem or "the quest has syntax or name errors (see `questc lint`)")
        )
    state = preview.state()
    state["version"] = state["scene_version"] = 1  # the same bytes for the same quest
    state["session"] = "export"
    return page_html(snap.data["title"], inline={"state": state, "sight": sight_tables(snap)})
