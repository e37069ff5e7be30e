"""Large dungeons joined from the base game's pieces, for the big-map benchmarks.

A dungeon grows from one room by accretion, as a writer's map would: rooms of every
base size (4x4, 4x6, 6x6, 6x8, 8x8) stand on a 10-cell grid of slots, centred so their
middle openings line up, and each new room is joined to a room already placed by the
corridor pieces that fill the gap (2x1, 2x2, 2x4, 2x6, end to end, turned for north-south
runs); about one new room in four is also joined to a second neighbour, so the dungeon
has loops. The pieces are then cut into `areas` areas of neighbouring pieces (grown
from random seeds, so each area is connected), with a door on most joints where two
areas meet. Rubble and water are scattered over the rooms. Area counts grow with the
map (by default one area per 18.6 floor cells, the density of the 2,118-cell, 114-area
map of issue 29).

    python bench/dungeon.py 2118 > big.quest     # prints a quest and, on stderr, its size

`dungeon(cells, areas=None, seed=1)` returns (quest text, floor cells, areas).
"""

from __future__ import annotations

import random
import sys
from collections import deque

PITCH = 10
# Room kind -> (width, height), with weights: small rooms are the commonest.
ROOMS = {"room_4x4": (4, 4), "room_4x6": (4, 6), "room_6x6": (6, 6), "room_6x8": (6, 8), "room_8x8": (8, 8)}
ROOM_WEIGHTS = (4, 3, 2, 1, 1)
# A gap of n cells between two rooms' openings, as corridor pieces (lengths).
FILL = {2: (2,), 3: (2, 1), 4: (4,), 5: (4, 1), 6: (6,)}
DENSITY = 18.6  # floor cells per area


def dungeon(cells: int, areas: int | None = None, seed: int = 1) -> tuple[str, int, int]:
    """A quest of about `cells` floor cells (the first room that reaches it ends the growth)."""
    rng = random.Random(seed)
    slots: dict[tuple[int, int], str] = {}  # (col, row) -> room kind
    links: list[tuple[tuple[int, int], tuple[int, int]]] = []
    floor = 0

    def place(slot: tuple[int, int]) -> None:
        nonlocal floor
        kind = rng.choices(list(ROOMS), ROOM_WEIGHTS)[0]
        slots[slot] = kind
        w, h = ROOMS[kind]
        floor += w * h

    def link(a: tuple[int, int], b: tuple[int, int]) -> None:
        nonlocal floor
        links.append((a, b))
        floor += 2 * _gap(slots, a, b)

    place((0, 0))
    frontier = [(0, 0)]
    while floor < cells:
        base = rng.choice(frontier)
        free = [s for s in _around(base) if s not in slots]
        if not free:
            frontier.remove(base)
            continue
        slot = rng.choice(free)
        place(slot)
        link(base, slot)
        frontier.append(slot)
        others = [s for s in _around(slot) if s in slots and s != base]
        if others and rng.random() < 0.25:
            link(rng.choice(others), slot)

    # Pieces: rooms, then each link's corridors.
    min_col = min(c for c, _ in slots)
    min_row = min(r for _, r in slots)
    pieces: list[tuple[str, str, int, int, int]] = []  # id, kind, x, y, turn
    piece_of_slot: dict[tuple[int, int], str] = {}
    size: dict[str, int] = {}
    for index, (slot, kind) in enumerate(sorted(slots.items(), key=lambda item: (item[0][1], item[0][0]))):
        cx, cy = _centre(slot, min_col, min_row)
        w, h = ROOMS[kind]
        name = f"R{index}"
        pieces.append((name, kind, cx - w // 2, cy - h // 2, 0))
        piece_of_slot[slot] = name
        size[name] = w * h
    joined: list[tuple[str, str]] = []  # pieces sharing one joint
    corridor = 0
    for a, b in links:
        a, b = sorted((a, b), key=lambda s: (s[1], s[0]))  # west or north first
        (ax, ay), (_bx, by) = _centre(a, min_col, min_row), _centre(b, min_col, min_row)
        wa, ha = ROOMS[slots[a]]
        previous = piece_of_slot[a]
        if ay == by:  # west to east, the corridor on rows cy-1 and cy
            x = ax + wa // 2
            for length in FILL[_gap(slots, a, b)]:
                name = f"C{corridor}"
                corridor += 1
                pieces.append((name, f"corridor_2x{length}", x, ay - 1, 0))
                size[name] = 2 * length
                joined.append((previous, name))
                previous = name
                x += length
        else:  # north to south, turned, on columns cx-1 and cx
            y = ay + ha // 2
            for length in FILL[_gap(slots, a, b)]:
                name = f"C{corridor}"
                corridor += 1
                pieces.append((name, f"corridor_2x{length}", ax - 1, y, 90))
                size[name] = 2 * length
                joined.append((previous, name))
                previous = name
                y += length
        joined.append((previous, piece_of_slot[b]))

    # Areas: grown from random seeds over the pieces' joints, a piece at a time, each
    # area taking a neighbour in turn (so they stay connected and of similar size).
    names = [p[0] for p in pieces]
    count = max(1, min(len(names), round(floor / DENSITY) if areas is None else areas))
    neighbours: dict[str, list[str]] = {name: [] for name in names}
    for a, b in joined:
        neighbours[a].append(b)
        neighbours[b].append(a)
    area_of: dict[str, int] = {}
    queues: list[deque[str]] = []
    for number, seed_piece in enumerate(rng.sample(names, count)):
        area_of[seed_piece] = number
        queues.append(deque([seed_piece]))
    grown = True
    while grown:
        grown = False
        for number, queue in enumerate(queues):
            while queue:
                piece = queue[0]
                free = [n for n in neighbours[piece] if n not in area_of]
                if not free:
                    queue.popleft()
                    continue
                area_of[free[0]] = number
                queue.append(free[0])
                grown = True
                break
    start = area_of["R0"]

    lines = ['quest "Dungeon" {', "  expansions base", "  conquest 5", "}"]
    for name, kind, x, y, turn in pieces:
        lines.append(f"piece {name} {kind} at {x},{y}" + (f" turn {turn}" if turn else ""))
    doors = 0
    for a, b in joined:
        if area_of[a] != area_of[b] and rng.random() < 0.8:
            lines.append(f"door d{doors} between {a} {b}")
            doors += 1
    by_area: dict[int, list[str]] = {}
    for name in names:
        by_area.setdefault(area_of[name], []).append(name)
    placed = {p[0]: p for p in pieces}
    for number in sorted(by_area):
        lines.append(f'area A{number} "Area {number}"' + (" start" if number == start else "") + " {")
        lines.append("  pieces " + ", ".join(by_area[number]))
        if number == start:
            _, kind, x, y, _ = placed["R0"]
            lines.append(f"  glyph at {x + 1},{y + 1} active")
        for name in by_area[number]:
            _, kind, x, y, _ = placed[name]
            if not name.startswith("R") or name == "R0":
                continue
            w, h = ROOMS[kind]
            roll = rng.random()
            if roll < 0.35:
                lines.append(f"  obstacle rubble at {x + rng.randrange(w)},{y + rng.randrange(h)}")
            elif roll < 0.55:
                lines.append(f"  obstacle water at {x + rng.randrange(w)},{y + rng.randrange(h)}")
        lines.append("}")
    lines.append(f"victory heroes when revealed A{start}")
    return "\n".join(lines) + "\n", floor, count


def _around(slot: tuple[int, int]) -> list[tuple[int, int]]:
    c, r = slot
    return [(c + 1, r), (c - 1, r), (c, r + 1), (c, r - 1)]


def _centre(slot: tuple[int, int], min_col: int, min_row: int) -> tuple[int, int]:
    # Rooms of every size have their middle openings on cells centre-1 and centre.
    return (slot[0] - min_col) * PITCH + 4, (slot[1] - min_row) * PITCH + 4


def _gap(slots: dict[tuple[int, int], str], a: tuple[int, int], b: tuple[int, int]) -> int:
    """The corridor cells between the facing openings of two neighbouring slots."""
    (wa, ha), (wb, hb) = ROOMS[slots[a]], ROOMS[slots[b]]
    if a[1] == b[1]:
        return PITCH - (wa + wb) // 2
    return PITCH - (ha + hb) // 2


if __name__ == "__main__":
    text, floor, count = dungeon(int(sys.argv[1]) if len(sys.argv) > 1 else 2118)
    sys.stdout.write(text)
    print(f"{floor} floor cells, {count} areas", file=sys.stderr)
