"""Print and play (questc.emit.play, `questc build --print-and-play`): the map at game size, measured
in the PDF (a square is 72 points at an inch, the pages' windows start on the grid and follow one
another by whole windows, and together they hold every square of floor), the tokens with their
counts, tagged and the same bytes every time."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from helpers import compile_file
from pdf_layout import check_structure, hex_rgb, near, painted, reading_order
from questc.cli import cli
from questc.draw.map import draw_map
from questc.emit.play import MM, plan, render_play

QUESTS = Path(__file__).resolve().parent.parent / "quests"
GRID = hex_rgb("#b9ad95")       # legend.yaml's grid colour
MARK = hex_rgb("#c2185b")       # sheet.typ's mark-ink: crosshairs and cut lines
INCH = 72.0


@pytest.fixture(scope="module")
def seals():
    return compile_file(QUESTS / "three_seals.quest")


@pytest.fixture(scope="module")
def seals_play(seals):
    return render_play(seals)


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
    picture = next(c for c in clips if abs((c[2] - c[0]) - width) < 0.5 and abs((c[3] - c[1]) - height) < 0.5)
    windows = [c for c in clips if c is not picture and (c[2] - c[0]) < width - 1]
    window = max(windows, key=lambda c: (c[2] - c[0]) * (c[3] - c[1]))
    marks = [p for p in paths if near(p.stroke, MARK)]
    # a crosshair's vertical stroke: its x is the crosshair's centre
    centres = sorted({(round(p.box[0], 1), round((p.box[1] + p.box[3]) / 2, 1)) for p in marks
                      if p.size[0] < 0.01 and 16 < p.size[1] < 18})
    grid = sorted({round(p.box[0], 2) for p in paths if near(p.stroke, GRID) and p.size[0] < 0.01
                   and window[0] <= p.box[0] <= window[2]})
    return {"window": window, "picture": picture, "crosshairs": centres, "grid": grid}


def test_a_square_measures_one_inch_and_every_window_starts_on_the_grid(seals, seals_play):
    md = draw_map(seals, INCH, pieces=True)
    pages = map_pages(seals_play)
    assert pages
    for label, page in pages:
        found = measure(page, (md.width, md.height))
        left = found["window"][0]
        steps = [b - a for a, b in zip(found["grid"], found["grid"][1:])]
        assert steps and min(steps) == pytest.approx(INCH, abs=0.02), (label, steps[:5])
        assert all(abs(step / INCH - round(step / INCH)) < 0.001 for step in steps), label
        # the window's left edge lies on a line of the grid
        assert all(abs((x - left) / INCH - round((x - left) / INCH)) < 0.001 for x in found["grid"]), label


def test_the_pages_assemble_into_the_map(seals, seals_play):
    """Each page's window is whole squares; the crosshairs stand at its corners; a page's window
    follows its neighbour's by exactly one window (so the next page's crosshairs meet its own in
    the overlap); the printed windows hold every square of floor."""
    md = draw_map(seals, INCH, pieces=True)
    layout = plan(md, "a4", INCH)
    windows = {}
    for label, page in map_pages(seals_play):
        found = measure(page, (md.width, md.height))
        x0, y0, x1, y1 = found["window"]
        assert (x1 - x0) == pytest.approx(layout.width + layout.overlap, abs=0.05)
        assert (y1 - y0) == pytest.approx(layout.height + layout.overlap, abs=0.05)
        assert layout.width % INCH == pytest.approx(0) and layout.height % INCH == pytest.approx(0)
        top = y1     # PDF space grows upwards: the window's top edge
        corners = {(round(x0, 1), round(top, 1)), (round(x0 + layout.width, 1), round(top, 1)),
                   (round(x0, 1), round(top - layout.height, 1)),
                   (round(x0 + layout.width, 1), round(top - layout.height, 1))}
        assert {(round(x, 1), round(y, 1)) for x, y in found["crosshairs"]} >= {
            (x, y) for x, y in corners}, (label, found["crosshairs"])
        # where the window lies on the map: from the picture's corner, measured
        picture = found["picture"]
        windows[label] = (x0 - picture[0], picture[3] - top)
    columns = {re.match(r"[A-Z]+", label).group(0) for label in windows}
    for label, (x, y) in windows.items():
        column, row = re.match(r"([A-Z]+)(\d+)", label).groups()
        index = ord(column) - ord("A")
        assert x == pytest.approx(layout.x0 + index * layout.width, abs=0.05), label
        assert y == pytest.approx(layout.y0 + (int(row) - 1) * layout.height, abs=0.05), label
    assert len(columns) >= 2
    # every square of floor lies in a printed window
    for cell in seals.board.cells:
        x, y, _w, _h = md.cell_rect(cell)
        assert any(wx <= x + 1 and x + INCH - 1 <= wx + layout.width and wy <= y + 1 and y + INCH - 1 <= wy
                   + layout.height for wx, wy in windows.values()), cell


def test_a_square_can_be_another_size(seals):
    data = render_play(seals, "letter", square_mm=30)
    md = draw_map(seals, 30 * MM, pieces=True)
    label, page = map_pages(data)[0]
    found = measure(page, (md.width, md.height))
    steps = [b - a for a, b in zip(found["grid"], found["grid"][1:])]
    assert min(steps) == pytest.approx(30 * MM, abs=0.02)
    assert round(float(page.mediabox.width)) in (612, 792)
    with pytest.raises(ValueError, match="from 10 to 60 mm"):
        render_play(seals, square_mm=5)


def test_pages_without_floor_are_left_out(seals, seals_play):
    md = draw_map(seals, INCH, pieces=True)
    layout = plan(md, "a4", INCH)
    printed = [label for label, _page in map_pages(seals_play)]
    assert len(printed) < layout.pages
    assert "A1" not in printed           # the map's top left corner is bare rock


def test_the_tokens_are_counted_and_drawn_at_game_size(seals, seals_play):
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(seals_play)).pages)
    flat = " ".join(text.split())
    assert "skeleton ×5" in flat and "master skeleton ×1" in flat and "inactive glyph ×3" in flat
    assert "Vessk the Unbound (named demon) ×1" in flat and "The Red Seal (red rune door) ×1" in flat
    from questc.draw.tokens import TOKEN, quest_tokens

    kinds = {kind.words: kind for kind in quest_tokens(seals, INCH)}
    assert kinds["gold chest"].drawing.width == pytest.approx(TOKEN * INCH)
    assert kinds["dragon"].drawing.height > 2 * INCH       # a large figure covers its footprint
    figures = sum(1 for f in seals.model.figures)
    assert sum(kind.count for kind in kinds.values() if kind.group == "monsters") == figures


def test_print_and_play_is_tagged_vector_and_repeats(seals, seals_play):
    check_structure(seals_play)
    reader = PdfReader(io.BytesIO(seals_play))
    assert reader.trailer["/Root"]["/MarkInfo"]["/Marked"]
    figures = [m for m in reading_order(seals_play) if m.tag == "/Figure"]
    assert len({m.page for m in figures}) == len(map_pages(seals_play)) + 1      # each map page and the diagram
    for page in reader.pages:
        assert "/XObject" not in page["/Resources"] or all(
            x.get_object()["/Subtype"] != "/Image" for x in page["/Resources"]["/XObject"].values())
    assert render_play(seals) == seals_play


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_shipped_quest_prints_and_plays_at_one_inch(paper):
    for path in sorted(QUESTS.glob("*.quest")):
        quest = compile_file(path)
        data = render_play(quest, paper)
        md = draw_map(quest, INCH, pieces=True)
        pages = map_pages(data)
        assert pages, path.name
        for label, page in pages[:2]:
            found = measure(page, (md.width, md.height))
            steps = [b - a for a, b in zip(found["grid"], found["grid"][1:])]
            if steps:
                assert min(steps) == pytest.approx(INCH, abs=0.02), (path.name, paper, label)


def test_build_writes_the_print_and_play_pdf(tmp_path):
    result = CliRunner().invoke(cli, ["build", str(QUESTS / "chandlers_cellar.quest"), "--print-and-play",
                                      "--square-size", "30", "-o", str(tmp_path)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == ["chandlers_cellar-print-and-play.pdf", "chandlers_cellar.json", "chandlers_cellar.pdf",
                     "chandlers_cellar.png"]
    bad = CliRunner().invoke(cli, ["build", str(QUESTS / "chandlers_cellar.quest"), "--only", "play",
                                   "--square-size", "90", "-o", str(tmp_path)])
    assert bad.exit_code == 2 and "square-size" in bad.output
