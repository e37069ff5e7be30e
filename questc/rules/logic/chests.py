"""The chests a quest places and the rows of its chest chart, for the chest rules (Q502, Q503)."""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from questc.model.quest import Marker, QuestModel
    from questc.syntax import nodes as n

# Labels after the first: enough to find the others, not a wall of them.
MAX_LABELS = 8


def placed_chests(model: QuestModel) -> dict[str, list[Marker]]:
    """Chest type -> its markers on the map, in source order."""
    placed: dict[str, list[Marker]] = defaultdict(list)
    for marker in model.markers:
        if marker.kind == "chest" and marker.variant is not None:  # a chest always has its type
            placed[marker.variant].append(marker)
    return placed


def chart_rows(model: QuestModel) -> dict[str, list[n.ChestRow]]:
    """Chest type -> the chart's rows for it, in source order."""
    rows: dict[str, list[n.ChestRow]] = defaultdict(list)
    chart = model.chest_chart
    for row in chart.rows if chart is not None else ():
        rows[row.kind.value].append(row)
    return rows
