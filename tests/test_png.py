"""The printable map as a PNG (questc.emit.png over questc.draw): to scale, walls and doors where the board
has them, rune doors in their colour, figures told apart, every kind drawn, the same pixels every time."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from conftest import ACCEPTANCE
from helpers import compile_file
from PIL import Image, ImageColor

from questc.api import check_source
from questc.emit import png
from questc.paths import style_file as load_yaml

SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
DROWNED_CASE = ACCEPTANCE / "clean_drowned_reliquary.quest"
DROWNED = DROWNED_CASE if DROWNED_CASE.is_file() else SHEETS / "drowned_reliquary.quest"
COLOURS = load_yaml("legend.yaml")["colours"]


def rgb(value) -> tuple[int, int, int]:
    return ImageColor.getrgb(value)[:3]


def near(a, b, tolerance=12) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b))


@pytest.fixture(scope="module")
def drowned():
    return compile_file(DROWNED)


class Layout:
    """The PNG's geometry: the map drawing's points times the pixels per point."""

    def __init__(self, drawing, md, cell_px):
        self.drawing, self.md = drawing, md
        self.scale = cell_px / md.cell
        self.cell = cell_px

    def point(self, x, y):
        px, py = self.md.point(x, y)
        return px * self.scale, py * self.scale


@pytest.fixture(scope="module")
def picture(drowned):
    data = png.render_png(drowned)
    drawing, md = png.png_drawing(drowned)
    return Image.open(io.BytesIO(data)).convert("RGB"), Layout(drawing, md, png.DEFAULT_CELL)


def pixel(picture, x: float, y: float):
    """The colour at lattice point (x, y) of the board."""
    image, layout = picture
    px, py = layout.point(x, y)
    return image.getpixel((int(round(px)), int(round(py))))


@pytest.mark.slow
def test_png_is_a_png_of_the_drawing_size(picture):
    image, layout = picture
    assert image.size == (round(layout.drawing.width * layout.scale), round(layout.drawing.height * layout.scale))
    assert layout.cell >= 150


def test_walls_measured_in_the_pixels_are_at_least_150_px_per_cell(picture):
    """Row 0 crosses only the hall R1 (x 0-5): its west wall at x=0 and east wall at x=6."""
    image, layout = picture
    wall = rgb(COLOURS["wall"])
    _x, y = layout.point(0, 0.5)
    runs, inside = [], False
    for x in range(image.width):
        dark = near(image.getpixel((x, int(y))), wall, 20)
        if dark and not inside:
            runs.append([x, x])
        if dark:
            runs[-1][1] = x
        inside = dark
    centres = [(a + b) / 2 for a, b in runs]
    assert len(centres) == 2, runs
    assert centres[1] - centres[0] >= 6 * 150


def test_a_wall_pixel_where_a_wall_is_and_none_on_open_floor(picture):
    wall = rgb(COLOURS["wall"])
    assert near(pixel(picture, 0, 0.5), wall)  # west side of cell 0,0
    assert near(pixel(picture, 3, 6), wall)  # south wall of the hall, under cell 3,5
    assert not near(pixel(picture, 3, 2.5), wall)  # between cells 2,2 and 3,2: open floor
    assert not near(pixel(picture, 8, 3.5), wall)  # inside the corridor


def test_the_red_rune_door_is_red_on_its_edge_and_the_plain_door_is_wood(picture, drowned):
    edges = drowned.quest_board.door_edges["vault"]
    assert edges == ((12, 6, 13, 6), (13, 6, 14, 6))
    assert near(pixel(picture, 12.35, 6), rgb(COLOURS["runes"]["red"]))
    assert near(pixel(picture, 13.65, 6), rgb(COLOURS["runes"]["red"]))
    # the door `entry` stands on x=6 between y=2 and y=4: wood, not a rune colour
    assert near(pixel(picture, 6, 2.35), rgb(COLOURS["door"]))
    # off the door, the vault's edge row is plain wall at x=11..12
    assert near(pixel(picture, 11.5, 6), rgb(COLOURS["wall"]))


def test_normal_and_master_figures_are_told_apart(picture):
    # beastman at 4,1 (normal) and beastman master at 4,4: sample inside the disc, above its label
    assert near(pixel(picture, 4.5, 1.2), rgb(COLOURS["figure_normal"]))
    assert near(pixel(picture, 4.5, 4.2), rgb(COLOURS["figure_master"]))


def test_a_large_named_figure_covers_its_whole_footprint(picture, drowned):
    giant = next(f for f in drowned.model.figures if f.named == "narthak")
    assert giant.cells == frozenset({(12, 8), (13, 8), (12, 9), (13, 9)})
    # the slab's four quarters (clear of the name in its middle), and the gold ring at its edges
    for x, y in ((12.4, 8.3), (13.6, 8.3), (12.4, 9.7), (13.6, 9.7)):
        assert near(pixel(picture, x, y), rgb(COLOURS["figure_named"])), (x, y)
    for x, y in ((12.12, 9.0), (13.88, 9.0), (13.0, 8.12), (13.0, 9.88)):
        assert near(pixel(picture, x, y), rgb(COLOURS["figure_named_ring"])), (x, y)


def test_obstacle_cells_take_their_kind_fill(picture):
    # water at 7,2..8,2: sampled between the wave lines (the fill, not the ink)
    water = rgb(load_yaml("legend.yaml")["obstacles"]["water"]["fill"])
    samples = [pixel(picture, 8 + dx / 10, 2 + dy / 10) for dx in range(2, 9) for dy in range(3, 9)]
    assert sum(near(s, water) for s in samples) > len(samples) / 2


def test_same_pixels_every_time(drowned):
    first = Image.open(io.BytesIO(png.render_png(drowned, cell=60)))
    second = Image.open(io.BytesIO(png.render_png(drowned, cell=60)))
    # decoded pixels, not file hashes: compressed bytes depend on the zlib build
    assert first.tobytes() == second.tobytes()
    assert first.size == second.size


def test_no_metadata_chunks_in_the_file(drowned):
    data = png.render_png(drowned, cell=40)
    image = Image.open(io.BytesIO(data))
    assert image.info.get("dpi") is None and not image.text


def test_every_kind_is_drawn_and_in_the_legend():
    result = compile_file(SHEETS / "everything.quest")
    drawing, md = png.png_drawing(result)
    labels = [entry.label for entry in md.legend]
    for expected in (
        "Wall",
        "Door",
        "Blue rune door",
        "Yellow rune door",
        "Monster",
        "Master monster",
        "Named monster",
        "Glyph (active)",
        "Glyph (inactive)",
        "Copper chest",
        "Silver chest",
        "Gold chest",
        "Money",
        "Relic",
        "Blue runekey",
        "Yellow runekey",
        "Encounter",
        "Green stairs",
        "Pit",
        "Fog",
        "Lava",
        "Ice",
        "Mud",
        "Corrupted",
        "Boulder (trap)",
        "Darts (trap)",
        "Blades (trap)",
        "Crushing wall (trap)",
        "Ramp (trap)",
        "A  Gatehouse (start)",
        "D  Crypt",
    ):
        assert expected in labels, expected
    image = png.render_image(result, cell=40)
    assert image.size == (round(drawing.width * 40 / md.cell), round(drawing.height * 40 / md.cell))


def test_neighbouring_areas_get_different_tints():
    result = compile_file(SHEETS / "everything.quest")
    from questc.draw.items import Group

    md = png.png_drawing(result)[1]
    tint = {}
    for item in md.drawing.layer("floor").items:
        if isinstance(item, Group):
            attrs = dict(item.attrs)
            tint.setdefault(attrs.get("area"), item.items[0].paint.fill)
    # A touches B (door), D (door) and C (stairs); B touches C
    assert len({tint["A"], tint["B"], tint["C"], tint["D"]}) == 4


def test_a_quest_with_errors_gets_no_map(tmp_path):
    """Its stages all ran (the preview draws it, pins on it), but no PNG is built for it."""
    from questc.api import build

    result = check_source(
        'quest "Broken" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
        "piece R2 room_4x4 at 2,2\narea A start { pieces R1, R2 }\n"
        "victory heroes when conquest >= 9\n"
    )
    assert result.compiled is not None and not result.buildable()
    report = build([result], tmp_path / "out", kinds=["png"])
    assert report.failed and not report.written and not (tmp_path / "out").exists()


def test_too_small_a_cell_is_refused(drowned):
    with pytest.raises(ValueError, match="at least"):
        png.render_png(drowned, cell=4)


# ---- the legend under the map ------------------------------------------------------------------


def test_the_legend_is_drawn_under_the_map(drowned, picture):
    image, layout = picture
    legend = layout.drawing.layer("legend")
    from questc.draw.items import Text, walk

    words = [t.text for t in walk(legend.items) if isinstance(t, Text)]
    assert "Legend" in words and "Red rune door" in words and "A  Entry Hall (start)" in words
    assert legend.offset[1] >= layout.md.height  # below the map and its grid reference


# ---- the renders checked in under docs/images, reviewed by eye ------------------------------------

DOC_IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"


@pytest.mark.parametrize("name", ["three_seals", "burning_well"])
@pytest.mark.slow
def test_the_checked_in_renders_are_what_questc_draws_today(name):
    """docs/images/<quest>.png are the maps as questc draws them (40 px a square), looked at by eye
    when they were made. A change to the drawing fails here: render them again
    (png.render_png(result, cell=40)), look at them, and check them in."""
    result = compile_file(Path(__file__).resolve().parent.parent / "quests" / f"{name}.quest")
    fresh = Image.open(io.BytesIO(png.render_png(result, cell=40))).convert("RGB")
    stored = Image.open(DOC_IMAGES / f"{name}.png").convert("RGB")
    assert fresh.size == stored.size
    assert fresh.tobytes() == stored.tobytes()


def test_the_pixels_are_packed_as_tobytes_packs_them():
    """encode_png packs the picture in one piece (raster._packed), not 64 kB at a time: the same bytes."""
    from PIL import Image

    from questc.draw.raster import _packed

    for size in ((1, 1), (3, 5), (613, 7), (2449, 301)):
        image = Image.effect_noise(size, 60).convert("RGB")
        assert _packed(image) == image.tobytes()


def test_pictures_drawn_in_a_build_are_the_pictures_drawn_alone(drowned):
    """Within png.session, memory kept from one picture is written over by the next: the same
    bytes as alone, also from a session within one; leaving gives Pillow back its own limit."""
    import threading

    from questc.draw import raster

    before = Image.core.get_blocks_max()
    alone = png.render_png(drowned, cell=60)
    with png.session():
        first = png.render_png(drowned, cell=60)
        with png.session():
            second = png.render_png(drowned, cell=30)
        third = png.render_png(drowned, cell=60)
        elsewhere = []  # another thread's pictures are packed in memory of their own
        thread = threading.Thread(target=lambda: elsewhere.append(raster._build.packed))
        thread.start()
        thread.join()
        assert raster._build.packed is not None and elsewhere == [None]
    assert raster._build.packed is None
    assert Image.core.get_blocks_max() == before
    assert alone == first == third
    assert second == png.render_png(drowned, cell=30)


FAULTS = """
import json, resource, sys
if sys.argv[1] == "limited":
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
from PIL import Image
from questc.draw import raster
from questc.emit import png

SIZE = (5000, 10000)  # 200 MB as Pillow holds it, 150 MB packed: as large as a picture is

def faults():  # pages faulted in making a blank picture, and packing it for libvips
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    image = Image.new("RGB", SIZE, (255, 255, 255))
    blank = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    data = raster._packed(image)
    packed = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    assert data[:3] == data[-3:] == b"\\xff\\xff\\xff" and len(data) == SIZE[0] * SIZE[1] * 3
    return [blank - before, packed - blank]

out = {"outside": [faults(), faults()]}
with png.session():
    out["inside"] = [faults(), faults(), faults()]
out["after"] = [faults(), faults()]
print(json.dumps(out))
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="page faults counted as Linux counts them")
def test_a_build_draws_and_packs_each_picture_in_the_memory_the_last_one_used_unless_memory_is_limited():
    """Within a build (png.session), a large picture is made, and its pixels packed for libvips,
    in memory kept from the picture before, without faulting its pages in anew; outside it, and
    under an address-space limit, every picture faults them in (about 49,000 and 37,000 pages
    of 4 kB)."""
    import json
    import subprocess

    def run(how):
        done = subprocess.run([sys.executable, "-c", FAULTS, how], capture_output=True, text=True, check=True)
        return json.loads(done.stdout)

    free = run("free")
    assert all(n > 30_000 for pair in free["outside"] + free["after"] + free["inside"][:1] for n in pair), free
    assert all(n < 1_000 for pair in free["inside"][1:] for n in pair), free
    limited = run("limited")
    assert all(n > 30_000 for pair in limited["outside"] + limited["inside"] + limited["after"] for n in pair), limited
