"""Where the map's words go (questc.draw.labels) and the PNG's map under its title.

- Placer.find works out each candidate row's and column's distance once and the direction only
  at the distances it tries: it must choose what the search over every candidate chose (the
  search as it was is kept here, `reference_find`), on every label of the shipped quests, the
  sheets' fixtures and a generated dungeon, at several scales.
- with_title: the page's map under a title is what draw_map(title=True) draws.
- Whether a box stands on floor is looked up in a summed-area table of the floor (CellCounts):
  it must say what testing the cells one by one said (`reference_on_floor`, as it was before),
  for every box the shipped quests' labels try.
"""

from __future__ import annotations

import math
import random
import sys
from pathlib import Path

import pytest
from helpers import compile_file

from questc.draw import labels
from questc.draw.labels import _nearest_points, gap_between, intersects
from questc.draw.map import draw_map, with_title
from questc.draw.page import map_page
from questc.draw.raster import to_image

ROOT = Path(__file__).resolve().parent.parent
SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
PATHS = sorted((ROOT / "quests").glob("*.quest")) + [SHEETS / "everything.quest", SHEETS / "drowned_reliquary.quest"]


# The search before it worked out rows and columns once (commit 8423744), for comparison.
def reference_find(self, anchor, width, height, *, owner, reach, cells=None, centre_ok=False, clearance=0.0):
    """A free box `width` x `height` near `anchor`, no further than `reach`: (box, needs a leader) or None.

    Candidates on a quarter-cell lattice around the anchor, nearest first; ties prefer below,
    then right, above and left (the order a reader looks). `centre_ok`: the box may sit over
    the anchor itself (an area's badge on its middle).
    """
    s = self.s
    step = s / 4
    b = self.bounds
    if width > b[2] - b[0] or height > b[3] - b[1]:
        return None  # wider than the map: no place can hold it (the legend's key will)
    ax, ay = (anchor[0] + anchor[2]) / 2, (anchor[1] + anchor[3]) / 2
    steps = int(math.ceil((reach + max(width, height)) / step))
    # Only the candidates whose box lies within the map's bounds: the search stays bounded by
    # the map, however long the words (a 3,000-character name took 51 s, quadratically).
    i_range = range(
        max(-steps, math.ceil((b[0] + width / 2 - ax) / step)),
        min(steps, math.floor((b[2] - width / 2 - ax) / step)) + 1,
    )
    j_range = range(
        max(-steps, math.ceil((b[1] + height / 2 - ay) / step)),
        min(steps, math.floor((b[3] - height / 2 - ay) / step)) + 1,
    )
    candidates = []
    for i in i_range:
        for j in j_range:
            cx, cy = ax + i * step, ay + j * step
            box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
            if not centre_ok and intersects(box, anchor):
                continue
            gap = gap_between(box, anchor) if not centre_ok else math.hypot(cx - ax, cy - ay)
            if gap > reach:
                continue
            angle = math.atan2(cy - ay, cx - ax)  # below (pi/2) first, then right, above, left
            preference = (angle - math.pi / 2) % (2 * math.pi)
            candidates.append((round(gap, 3), round(preference, 3), j, i, box))
    candidates.sort(key=lambda c: c[:4])
    for gap, _pref, _j, _i, box in candidates:
        if not self.free(box, cells, clearance):
            continue
        leader = not centre_ok and gap > s * 0.35
        if leader:
            p, q = _nearest_points(anchor, box)
            if not self.line_clear(p, q, owner, box):
                continue
        return box, leader
    return None


# Whether a box lies over floor, cell by cell, as before the summed-area table (commit 7d6afa3).
def reference_on_floor(self, box, cells=None):
    allowed = cells if cells is not None else self.floor
    eps = 0.01
    x0, y0 = self.to_cell(box[0] + eps, box[1] + eps)
    x1, y1 = self.to_cell(box[2] - eps, box[3] - eps)
    return all((x, y) in allowed for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))


@pytest.fixture(scope="module")
def quests():
    found = [compile_file(path) for path in PATHS]
    sys.path.insert(0, str(ROOT / "bench"))
    from dungeon import dungeon

    from questc.api import Options, check_source

    result = check_source(dungeon(600, seed=4)[0], "dungeon.quest", Options(ignore=("Q404", "Q405")))
    assert result.compiled is not None
    return found + [result.compiled]


@pytest.mark.slow
def test_the_placer_chooses_what_the_search_over_every_candidate_chose(quests, monkeypatch):
    calls = []
    find = labels.Placer.find

    def both(self, anchor, width, height, **options):
        got = find(self, anchor, width, height, **options)
        assert got == reference_find(self, anchor, width, height, **options), (anchor, width, height, options)
        calls.append(got)
        return got

    monkeypatch.setattr(labels.Placer, "find", both)
    for quest in quests:
        for cell in (9.0, 18.0, 26.45, 40.0):
            draw_map(quest, cell)
    assert len(calls) > 500
    assert sum(c is None for c in calls) > 10 and sum(c is not None and c[1] for c in calls) > 10  # keys, leaders


@pytest.mark.slow
@pytest.mark.parametrize("index", range(len(PATHS)))
def test_the_pages_map_under_its_title_is_the_map_drawn_with_it(quests, index):
    """The PNG's map is the printed page's, under a title: the same frame, labels and pixels as
    draw_map(title=True) at the page's scale (placing the labels again, a map moved down by the
    title could break a tie between two places the other way: it does not on these quests)."""
    quest = quests[index]
    page = map_page(quest)
    titled, drawn = with_title(page.map, quest), draw_map(quest, page.map.cell, title=True)
    assert (titled.width, titled.height, titled.top, titled.left) == (drawn.width, drawn.height, drawn.top, drawn.left)
    assert [e.label for e in titled.legend] == [e.label for e in drawn.legend]
    assert [(lab.text, lab.how) for lab in titled.labels] == [(lab.text, lab.how) for lab in drawn.labels]
    for a, b in zip(titled.labels, drawn.labels):
        assert all(math.isclose(x, y, abs_tol=1e-9) for x, y in zip(a.box, b.box))
    assert [layer.offset for layer in titled.drawing.layers][:-1] == [(0.0, titled.top - page.map.top)] * len(
        page.map.drawing.layers
    )
    scale = 160 / page.map.cell  # the PNG's (at other scales a text may fall a rounding apart, a pixel off)
    assert to_image(titled.drawing, scale).tobytes() == to_image(drawn.drawing, scale).tobytes()


def test_a_pill_pillow_refuses_to_outline_is_painted(quests):
    """burning_well's page map at 2 px a point: Pillow's rounded_rectangle refused a label's pill (a
    ValueError, an internal error for `questc build`); it is painted round instead."""
    quest = next(q for q in quests if q.model.id == "burning_well")
    image = to_image(map_page(quest).map.drawing, 2.0)
    assert image.getbbox() is not None


def test_with_title_takes_an_untitled_map_only(quests):
    with pytest.raises(ValueError):
        with_title(draw_map(quests[0], 20.0, title=True), quests[0])


def test_cell_counts_hold_a_rectangle_exactly_when_every_cell_of_it_is_in_the_set():
    chance = random.Random(29)
    for trial in range(60):
        cells = {(x, y) for x in range(-3, 9) for y in range(2, 11) if chance.random() < 0.2 + trial / 80}
        counts = labels.CellCounts(cells)
        for _ in range(200):
            x0, x1 = sorted(chance.randint(-6, 12) for _ in range(2))
            y0, y1 = sorted(chance.randint(-1, 14) for _ in range(2))
            if chance.random() < 0.1:
                x0, x1 = x1 + 1, x0  # an empty rectangle: every cell of it (none) is in the set
            expected = all((x, y) in cells for x in range(x0, x1 + 1) for y in range(y0, y1 + 1))
            assert counts.holds(x0, y0, x1, y1) is expected, (cells, x0, y0, x1, y1)
    assert labels.CellCounts(set()).holds(0, 0, 0, 0) is False
    assert labels.CellCounts(set()).holds(1, 0, 0, 0) is True


def test_a_box_is_on_floor_as_testing_its_cells_one_by_one_says(quests):
    """Boxes of every size and place over the maps of the shipped quests and a dungeon, at two
    scales (edges on the lines between squares and between them): the table of the floor, and of
    one area's cells, says what the cells one by one say."""
    chance = random.Random(7)
    seen = {True: 0, False: 0}
    for quest in quests:
        board = quest.board
        for cell in (18.0, 26.45):
            left, top = 30.0, 41.5
            bounds = (left, top, left + board.width * cell, top + board.height * cell)
            placer = labels.Placer(labels.Grid(left, top, board.origin, cell), set(board.cells), bounds)
            area = max(quest.model.areas.values(), key=lambda a: len(a.cells))
            counts = labels.CellCounts(area.cells)
            for _ in range(300):
                x0 = chance.uniform(bounds[0], bounds[2])
                y0 = chance.uniform(bounds[1], bounds[3])
                if chance.random() < 0.3:  # an edge on a line between squares
                    x0 = left + round((x0 - left) / cell) * cell
                width, height = chance.choice([cell * 0.5, cell, cell * 2.3]), chance.choice([cell * 0.4, cell])
                box = (x0, y0, x0 + width, y0 + height)
                got = placer.on_floor(box)
                assert got == reference_on_floor(placer, box), box
                assert placer.on_floor(box, counts) == reference_on_floor(placer, box, area.cells), box
                seen[got] += 1
    assert seen[True] > 300 and seen[False] > 300


# An area's badge on its own cells before the candidates off them were left out (commit 171d067).
def reference_find_in(self, cells, centre, width, height, *, clearance=0.0):
    s = self.s
    cells = list(cells)
    allowed = set(cells)
    cx0, cy0 = centre
    candidates = []
    for cell in cells:
        x, y = self.cell_origin(cell)
        for fx in (0.5, 0.25, 0.75):
            for fy in (0.5, 0.25, 0.75):
                cx, cy = x + fx * s, y + fy * s
                candidates.append((round(math.hypot(cx - cx0, cy - cy0), 3), cy, cx))
    candidates.sort()
    for _d, cy, cx in candidates:
        box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
        if self.free(box, allowed, clearance):
            return box, False
    return None


def test_a_badge_on_its_area_is_where_trying_every_candidate_put_it(quests, monkeypatch):
    """find_in leaves out the candidates off the area before sorting: every area's badge of the
    shipped quests and a dungeon, at two scales, is where trying each candidate put it."""
    calls = []
    find_in = labels.Placer.find_in

    def both(self, cells, centre, width, height, **options):
        cells = list(cells)
        got = find_in(self, cells, centre, width, height, **options)
        assert got == reference_find_in(self, cells, centre, width, height, **options), (centre, width, height)
        calls.append(got)
        return got

    monkeypatch.setattr(labels.Placer, "find_in", both)
    for quest in quests:
        for cell in (18.0, 26.45):
            draw_map(quest, cell)
    assert sum(c is None for c in calls) > 20 and sum(c is not None for c in calls) > 20
