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
from helpers import compile_file
from pdf_layout import check_structure, reading_order
from play_layout import INCH, assert_measures_and_assembles, map_pages
from pypdf import PdfReader

from questc.cli import cli
from questc.draw.map import draw_map
from questc.emit.play import MM, plan, render_play

QUESTS = Path(__file__).resolve().parent.parent / "quests"


@pytest.fixture(scope="module")
def seals():
    return compile_file(QUESTS / "three_seals.quest")


@pytest.fixture(scope="module")
def seals_play(seals):
    return render_play(seals)


@pytest.mark.slow
def test_a_square_measures_one_inch_and_the_pages_assemble_into_the_map(seals, seals_play):
    assert_measures_and_assembles(seals, seals_play)
    assert len({re.match(r"[A-Z]+", label).group(0) for label, _page in map_pages(seals_play)}) >= 2


@pytest.mark.slow
def test_the_measure_fails_on_a_map_at_the_wrong_scale(seals):
    """The check above can fail: a map printed with squares 1 mm too large, measured as an inch."""
    with pytest.raises(AssertionError):
        assert_measures_and_assembles(seals, render_play(seals, square_mm=26.4))


@pytest.mark.slow
def test_a_square_can_be_another_size(seals):
    data = render_play(seals, "letter", square_mm=30)
    assert_measures_and_assembles(seals, data, "letter", 30 * MM)
    assert all(round(float(page.mediabox.width)) in (612, 792) for _label, page in map_pages(data))
    with pytest.raises(ValueError, match="from 10 to 60 mm"):
        render_play(seals, square_mm=5)


@pytest.mark.slow
def test_pages_without_floor_are_left_out(seals, seals_play):
    md = draw_map(seals, INCH, pieces=True)
    layout = plan(md, "a4", INCH)
    printed = [label for label, _page in map_pages(seals_play)]
    assert len(printed) < layout.pages
    assert "A1" not in printed  # the map's top left corner is bare rock


@pytest.mark.slow
def test_the_tokens_are_counted_and_drawn_at_game_size(seals, seals_play):
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(seals_play)).pages)
    flat = " ".join(text.split())
    assert "skeleton ×5" in flat and "master skeleton ×1" in flat and "inactive glyph ×3" in flat
    assert "Vessk the Unbound (named demon) ×1" in flat and "The Red Seal (red rune door) ×1" in flat
    from questc.draw.tokens import TOKEN, quest_tokens

    kinds = {kind.words: kind for kind in quest_tokens(seals, INCH)}
    assert kinds["gold chest"].drawing.width == pytest.approx(TOKEN * INCH)
    assert kinds["dragon"].drawing.height > 2 * INCH  # a large figure covers its footprint
    figures = sum(1 for f in seals.model.figures)
    assert sum(kind.count for kind in kinds.values() if kind.group == "monsters") == figures


@pytest.mark.slow
def test_print_and_play_is_tagged_vector_and_repeats(seals, seals_play):
    check_structure(seals_play)
    reader = PdfReader(io.BytesIO(seals_play))
    assert reader.trailer["/Root"]["/MarkInfo"]["/Marked"]
    figures = [m for m in reading_order(seals_play) if m.tag == "/Figure"]
    assert len({m.page for m in figures}) == len(map_pages(seals_play)) + 1  # each map page and the diagram
    for page in reader.pages:
        assert "/XObject" not in page["/Resources"] or all(
            x.get_object()["/Subtype"] != "/Image" for x in page["/Resources"]["/XObject"].values()
        )
    assert render_play(seals) == seals_play


@pytest.mark.slow
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_shipped_quest_prints_and_plays_at_one_inch_and_assembles(paper):
    # Each paper takes every other quest (both papers see first and second edition maps): the
    # whole set on both papers doubled the full run's longest test for little more.
    paths = sorted(QUESTS.glob("*.quest"))
    for path in paths[paper == "letter" :: 2]:
        quest = compile_file(path)
        assert_measures_and_assembles(quest, render_play(quest, paper), paper)


@pytest.mark.slow
def test_build_writes_the_print_and_play_pdf_at_the_square_size_asked(tmp_path):
    result = CliRunner().invoke(
        cli,
        [
            "build",
            str(QUESTS / "chandlers_cellar.quest"),
            "--print-and-play",
            "--square-size",
            "30",
            "--paper",
            "letter",
            "-o",
            str(tmp_path),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == [
        "chandlers_cellar-print-and-play.pdf",
        "chandlers_cellar.json",
        "chandlers_cellar.pdf",
        "chandlers_cellar.png",
    ]
    assert f"wrote {(tmp_path / 'chandlers_cellar-print-and-play.pdf').as_posix()}" in result.output
    cellar = compile_file(QUESTS / "chandlers_cellar.quest")
    assert_measures_and_assembles(
        cellar, (tmp_path / "chandlers_cellar-print-and-play.pdf").read_bytes(), "letter", 30 * MM
    )
    # the default: an inch; `--only play` writes that alone
    again = tmp_path / "again"
    result = CliRunner().invoke(
        cli,
        ["build", str(QUESTS / "chandlers_cellar.quest"), "--only", "play", "-o", str(again)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert [p.name for p in again.iterdir()] == ["chandlers_cellar-print-and-play.pdf"]
    assert_measures_and_assembles(cellar, (again / "chandlers_cellar-print-and-play.pdf").read_bytes())


def test_a_square_size_out_of_range_is_a_usage_error(tmp_path):
    bad = CliRunner().invoke(
        cli,
        ["build", str(QUESTS / "chandlers_cellar.quest"), "--only", "play", "--square-size", "90", "-o", str(tmp_path)],
    )
    assert bad.exit_code == 2 and "square-size" in bad.output


@pytest.mark.slow
def test_the_groups_the_overlord_places_get_their_tokens():
    """A second edition group on a tile has no points: its tokens are as many as the group has with
    the most heroes (reinforcements come up to that limit); a lieutenant placed on a tile gets its own."""
    from questc.draw.tokens import quest_tokens

    kinds = {kind.words: kind.count for kind in quest_tokens(compile_file(QUESTS / "ember_reliquary_1.quest"))}
    assert kinds["goblin archer"] == 4 and kinds["master goblin archer"] == 1  # goblin archers, 4 heroes
    assert kinds["lieutenant: Splig"] == 1
