"""Generated quests of a given size, for benchmarks and robustness tests.

A grid of square rooms (6x6, or 4x4 for many small areas), joined room to room through their middle openings, split into
`areas` areas of neighbouring rooms with a door wherever two areas meet, a glyph in
the start area, rubble and water scattered for line of sight to work on.
"""

from __future__ import annotations

import math


def generated_quest(floor_cells: int, areas: int = 20, seed: int = 1, room: int = 6) -> str:
    """`room`: the rooms' side, 6 (room_6x6) or 4 (room_4x4: more, smaller rooms, so more areas)."""
    rooms = max(1, round(floor_cells / (room * room)))
    columns = max(1, math.ceil(math.sqrt(rooms)))
    lines = ['quest "Generated" {', "  conquest 5", "}"]
    positions = []
    for index in range(rooms):
        col, row = index % columns, index // columns
        positions.append((col, row))
        lines.append(f"piece R{index} room_{room}x{room} at {col * room},{row * room}")
    per_area = max(1, math.ceil(rooms / areas))
    area_of = {i: i // per_area for i in range(rooms)}
    index_at = {p: i for i, p in enumerate(positions)}
    doors = 0
    for index, (col, row) in enumerate(positions):
        for other in (index_at.get((col + 1, row)), index_at.get((col, row + 1))):
            if other is not None and area_of[other] != area_of[index]:
                lines.append(f"door d{doors} between R{index} R{other}")
                doors += 1
    for area in sorted(set(area_of.values())):
        members = [i for i, a in area_of.items() if a == area]
        head = f'area A{area} "Area {area}"' + (" start" if area == 0 else "") + " {"
        lines.append(head)
        lines.append("  pieces " + ", ".join(f"R{i}" for i in members))
        if area == 0:
            lines.append("  glyph at 0,0 active")
        for i in members:
            col, row = positions[i]
            x, y = col * room, row * room
            if (i + seed) % 3 == 0:
                lines.append(f"  obstacle rubble at {x + 1},{y + room - 2}")
            if (i + seed) % 5 == 0:
                lines.append(f"  obstacle water at {x + room - 2},{y + 1}")
        lines.append("}")
    lines.append("victory heroes when revealed A0")
    return "\n".join(lines) + "\n"
