"""Benchmark for questc.board (plain script; prints timings).

Generates maps of about 500, 2,000 and 8,000 floor cells, each a 5 x 4 grid of 20 rooms
(one area each) joined by two-cell-wide corridors through joints, with doors on some
joints and rubble, water and fog scattered over about 4 % of the floor.  For each map
it times: building the board; bulk visibility from all floor cells (first and second
edition, doors closed and all open); and the reveal analysis's pattern, one bulk query
per area's cells.  Run: ``python bench/bench_board.py [--quick]``.
"""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from questc.board import Door, PlacedPiece, build_board, bulk
from questc.board.geometry import hedge, vedge
from questc.board.testing import FOG, RUBBLE, WATER

COLS, ROWS = 5, 4


def generate(room_w: int, room_h: int, seed: int = 1):
    """Pieces, doors, obstacles and area cell sets of one generated map."""
    rng = random.Random(seed)
    gap = 2  # corridor length between rooms
    pieces: list[PlacedPiece] = []
    openings: dict[str, list] = {}
    areas: dict[str, set] = {}
    doors: list[Door] = []
    for r in range(ROWS):
        for c in range(COLS):
            x0, y0 = c * (room_w + gap), r * (room_h + gap)
            pid = f"R{r}{c}"
            cells = {(x, y) for x in range(x0, x0 + room_w) for y in range(y0, y0 + room_h)}
            pieces.append(PlacedPiece(pid, frozenset(cells)))
            openings[pid] = []
            areas[pid] = set(cells)
    result = []
    for r in range(ROWS):
        for c in range(COLS):
            x0, y0 = c * (room_w + gap), r * (room_h + gap)
            pid = f"R{r}{c}"
            if c + 1 < COLS:  # corridor east
                my = y0 + room_h // 2 - 1
                xs = x0 + room_w
                cells = {(x, y) for x in range(xs, xs + gap) for y in (my, my + 1)}
                west = (vedge(xs, my), vedge(xs, my + 1))
                east = (vedge(xs + gap, my), vedge(xs + gap, my + 1))
                cid = f"C{r}{c}e"
                pieces.append(PlacedPiece(cid, frozenset(cells), (west, east)))
                openings[pid].append(west)
                openings[f"R{r}{c + 1}"].append(east)
                areas[pid] |= cells
                if rng.random() < 0.3:
                    doors.append(Door(f"door_{cid}", east))
            if r + 1 < ROWS:  # corridor south
                mx = x0 + room_w // 2 - 1
                ys = y0 + room_h
                cells = {(x, y) for x in (mx, mx + 1) for y in range(ys, ys + gap)}
                north = (hedge(mx, ys), hedge(mx + 1, ys))
                south = (hedge(mx, ys + gap), hedge(mx + 1, ys + gap))
                cid = f"C{r}{c}s"
                pieces.append(PlacedPiece(cid, frozenset(cells), (north, south)))
                openings[pid].append(north)
                openings[f"R{r + 1}{c}"].append(south)
                areas[pid] |= cells
                if rng.random() < 0.3:
                    doors.append(Door(f"door_{cid}", south))
    for p in pieces:
        if p.id.startswith("R"):
            result.append(PlacedPiece(p.id, p.cells, tuple(openings[p.id])))
        else:
            result.append(p)
    blocking = {}
    floor = sorted(set().union(*(p.cells for p in result)))
    for cell in floor:
        roll = rng.random()
        if roll < 0.025:
            blocking[cell] = RUBBLE
        elif roll < 0.035:
            blocking[cell] = WATER
        elif roll < 0.04:
            blocking[cell] = FOG
    return result, doors, blocking, areas


def timed(fn, repeat: int = 1):
    best = None
    out = None
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best, out


def clear_templates() -> None:
    """Forget the per-process tree of beams and ray templates, for a cold figure."""
    bulk.forget_rays()


def main() -> None:
    quick = "--quick" in sys.argv
    sizes = [(5, 4), (10, 10)] if quick else [(5, 4), (10, 10), (20, 20)]
    print("CPU seconds (time.process_time).  cold: first query in the process (ray")
    print("templates generated); warm: a fresh board, templates kept; open: all doors open;")
    print("per area: 20 queries, one per area's cells (the reveal analysis's pattern).")
    print(
        f"{'floor':>6} {'box':>7} {'build':>6} | {'1st cold':>8} {'warm':>6} {'open':>6} "
        f"{'/area':>6} | {'2nd cold':>8} {'warm':>6} {'open':>6} {'/area':>6}"
    )
    for room_w, room_h in sizes:
        pieces, doors, blocking, areas = generate(room_w, room_h)
        t_build, built = timed(lambda: build_board(pieces, doors, [], blocking), repeat=3)
        board = built.board
        all_open = frozenset(board.doors)
        everything = board.cells
        row = [t_build]
        for edition in ("first", "second"):
            clear_templates()
            fresh = build_board(pieces, doors, [], blocking).board
            row.append(timed(lambda: fresh.visible_cells(everything, edition))[0])
            fresh = build_board(pieces, doors, [], blocking).board
            row.append(timed(lambda: fresh.visible_cells(everything, edition))[0])
            fresh = build_board(pieces, doors, [], blocking).board
            row.append(timed(lambda: fresh.visible_cells(everything, edition, all_open))[0])
            fresh = build_board(pieces, doors, [], blocking).board
            row.append(timed(lambda: [fresh.visible_cells(cells, edition, all_open) for cells in areas.values()])[0])
        box = f"{board.width}x{board.height}"
        print(
            f"{len(board.cells):>6} {box:>7} {row[0]:>6.3f} | {row[1]:>8.3f} {row[2]:>6.3f} "
            f"{row[3]:>6.3f} {row[4]:>6.3f} | {row[5]:>8.3f} {row[6]:>6.3f} {row[7]:>6.3f} "
            f"{row[8]:>6.3f}"
        )


if __name__ == "__main__":
    main()
