"""Measuring a print-and-play map in its PDF (tests/test_play.py, tests/test_guide.py): each map page's
window, the grid's spacing, the crosshairs, and whether the pages tape together into the whole map."""

from __future__ import annotations

import io
import re

import pytest
from pdf_layout import hex_rgb, near, painted
from pypdf import PdfReader

from questc.draw.map import draw_map
from questc.emit.play import plan

GRID = hex_rgb("#b9ad95")  # legend.yaml's grid colour
MARK = hex_rgb("#c2185b")  # sheet.typ's mark-ink: crosshairs and cut lines
INCH = 72.0


def map_pages(data: bytes) -> list[tuple[str, object]]:
    """(label, page) of each map page, found by its bookmark ("Map page B1": each page's heading)."""
    reader = PdfReader(io.BytesIO(data))
    out = []

    def walk(items):
        for item in items:
            if isinstance(item, list):
                walk(item)
                continue
            found = re.fullmatch(r"Map page ([A-Z]+\d+)", item.title)
            if found:
                out.append((found.group(1), reader.pages[reader.get_destination_page_number(item)]))

    walk(reader.outline)
    return out


def measure(page, map_size: tuple[float, float]) -> dict:
    """What a map page shows, measured from its content: its window (the clip the size of a window
    and its overlap), where the whole map's picture stands (the clip the picture's size), the
    crosshairs' centres and the vertical grid lines' x positions (page space)."""
    paths, clips = painted(page)
    width, height = map_size
    # the whole map's picture: the clip of the map's size (else the largest, for the caller to reject)
    picture = next(
        (c for c in clips if abs((c[2] - c[0]) - width) < 0.5 and abs((c[3] - c[1]) - height) < 0.5),
        max(clips, key=lambda c: (c[2] - c[0]) * (c[3] - c[1])),
    )
    # the window: the largest other clip (narrower than a map wider than a page; wider than a small one)
    windows = [c for c in clips if any(abs(a - b) > 0.5 for a, b in zip(c, picture))]
    window = max(windows, key=lambda c: (c[2] - c[0]) * (c[3] - c[1]))
    marks = [p for p in paths if near(p.stroke, MARK)]
    # a crosshair's vertical stroke: its x is the crosshair's centre
    centres = sorted(
        {
            (round(p.box[0], 1), round((p.box[1] + p.box[3]) / 2, 1))
            for p in marks
            if p.size[0] < 0.01 and 16 < p.size[1] < 18
        }
    )
    grid = sorted(
        {
            round(p.box[0], 2)
            for p in paths
            if near(p.stroke, GRID) and p.size[0] < 0.01 and window[0] <= p.box[0] <= window[2]
        }
    )
    return {"window": window, "picture": picture, "crosshairs": centres, "grid": grid}


def assert_measures_and_assembles(quest, data: bytes, paper: str = "a4", square: float = INCH) -> None:
    """Measured from the PDF, on every map page: the grid's lines stand `square` points apart (so a
    square is an inch at the default) and the window starts on one of them; each window is whole
    squares and its overlap; crosshairs stand at its corners; it lies where the plan puts it, so a
    page's window follows its neighbour's by exactly one window; and the printed windows hold every
    square of floor: the pages tape together into the whole map."""
    md = draw_map(quest, square, pieces=True)
    layout = plan(md, paper, square)
    windows = {}
    name = quest.model.title
    pages = map_pages(data)
    assert pages, name
    measured = 0
    for label, page in pages:
        found = measure(page, (md.width, md.height))
        x0, y0, x1, y1 = found["window"]
        picture = found["picture"]
        assert (picture[2] - picture[0], picture[3] - picture[1]) == pytest.approx((md.width, md.height), abs=0.5)
        steps = [b - a for a, b in zip(found["grid"], found["grid"][1:])]
        # (a page whose floor is one column by a wall has no two lines of the grid to measure between)
        assert not steps or min(steps) == pytest.approx(square, abs=0.02), (name, paper, label, steps[:5])
        measured += bool(steps)
        assert all(abs(step / square - round(step / square)) < 0.001 for step in steps), (name, label)
        assert all(abs((x - x0) / square - round((x - x0) / square)) < 0.001 for x in found["grid"]), (name, label)
        assert (x1 - x0) == pytest.approx(layout.width + layout.overlap, abs=0.05)
        assert (y1 - y0) == pytest.approx(layout.height + layout.overlap, abs=0.05)
        assert round(layout.width / square) * square == pytest.approx(layout.width)  # whole squares
        assert round(layout.height / square) * square == pytest.approx(layout.height)
        top = y1  # PDF space grows upwards: the window's top edge
        corners = {
            (round(x0, 1), round(top, 1)),
            (round(x0 + layout.width, 1), round(top, 1)),
            (round(x0, 1), round(top - layout.height, 1)),
            (round(x0 + layout.width, 1), round(top - layout.height, 1)),
        }
        crosshairs = {(round(x, 1), round(y, 1)) for x, y in found["crosshairs"]}
        assert all(any(abs(x - cx) <= 0.1 and abs(y - cy) <= 0.1 for cx, cy in crosshairs) for x, y in corners), (
            name,
            label,
            found["crosshairs"],
        )
        # where the window lies on the map: from the picture's corner, measured
        picture = found["picture"]
        windows[label] = (x0 - picture[0], picture[3] - top)
    assert measured >= (len(pages) + 1) // 2, (name, paper, measured, len(pages))
    for label, (x, y) in windows.items():
        column, row = re.match(r"([A-Z]+)(\d+)", label).groups()
        index = ord(column) - ord("A")
        assert x == pytest.approx(layout.x0 + index * layout.width, abs=0.05), (name, label)
        assert y == pytest.approx(layout.y0 + (int(row) - 1) * layout.height, abs=0.05), (name, label)
    for cell in quest.board.cells:
        x, y, _w, _h = md.cell_rect(cell)
        assert any(
            wx <= x + 1 and x + square - 1 <= wx + layout.width and wy <= y + 1 and y + square - 1 <= wy + layout.height
            for wx, wy in windows.values()
        ), (name, paper, cell)
