"""The quest guide: the book (title page, contents with players, edition and pages, each quest's sheet, a
quest of several encounters under one heading, the index; two-sided; its tags, bookmarks, page labels
and links kept through assembly) and the `questc guide` command (diagnostics, quests with errors left
out, exit status, atomic write)."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE
from helpers import compile_file
from pypdf import PdfReader

from questc import api
from questc.cli import cli
from questc.emit import pdf
from questc.emit.guide import render_guide

SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
DROWNED_CASE = ACCEPTANCE / "clean_drowned_reliquary.quest"
DROWNED = DROWNED_CASE if DROWNED_CASE.is_file() else SHEETS / "drowned_reliquary.quest"
EVERYTHING = SHEETS / "everything.quest"

BROKEN = """quest "Broken Bridge" {
  conquest 3
}
piece R1 room_4x4 at 0,0
piece R2 room_4x4 at 2,2
area A "Hall" start {
  pieces R1, R2
  glyph at 0,0 active
}
victory heroes when round >= 3
"""


def flat(text: str) -> str:
    return " ".join(text.split())


LANTERN = [Path(__file__).resolve().parent.parent / "quests" / f"lantern_road_{n}.quest" for n in (1, 2)]


@pytest.fixture(scope="module")
def results():
    return [compile_file(DROWNED), compile_file(EVERYTHING)] + [compile_file(path) for path in LANTERN]


@pytest.fixture(scope="module")
def guide(results):
    calls = []
    data = render_guide(
        results, progress=calls.append, title="Tales of the Deep", author="The Table", date="1 May 2026"
    )
    return data, calls


@pytest.fixture(scope="module")
def two_sided(results):
    return render_guide(results, title="Tales of the Deep", two_sided=True)


def pages_of(data: bytes) -> list[str]:
    return [flat(p.extract_text()) for p in PdfReader(io.BytesIO(data)).pages]


def labels_of(data: bytes) -> list[str]:
    reader = PdfReader(io.BytesIO(data))
    return [reader.page_labels[i] for i in range(len(reader.pages))]


def starts(data: bytes, results) -> list[int]:
    """The index of the page each sheet starts on (its title first on the page, after the front)."""
    pages = pages_of(data)
    return [next(i for i, p in enumerate(pages) if i > 1 and p.startswith(r.model.title)) for r in results[:2]]


@pytest.mark.slow
def test_the_book_is_a_title_page_the_contents_each_quest_and_the_index(results, guide):
    data, _calls = guide
    pages = pages_of(data)
    sheet_pages = [len(PdfReader(io.BytesIO(pdf.render_pdf(r))).pages) for r in results[:2]]
    title = pages[0]
    assert "Tales of the Deep" in title and "by The Table" in title and "3 quests, 4 encounters · 1 May 2026" in title
    assert "Descent: Journeys in the Dark".upper() in title
    assert pages[1].startswith("Contents")
    # each sheet as long as on its own, from the page after the one before
    first = starts(data, results)
    assert first == [2, 2 + sheet_pages[0]]
    assert pages[-1].startswith("Index") or any(p.startswith("Index") for p in pages[-2:])
    # the front is numbered i, ii; the quests from 1
    assert labels_of(data)[:3] == ["i", "ii", "1"]


@pytest.mark.slow
def test_contents_give_each_quests_players_edition_and_page_and_link_to_it(results, guide):
    data, _calls = guide
    contents = pages_of(data)[1]
    assert "The Drowned Reliquary for 2–5 players · First edition" in contents
    assert "The Lantern Road for 2–5 players · Second edition" in contents
    assert "Encounter 1: The Lantern Road I: The Burned Mill" in contents
    reader = PdfReader(io.BytesIO(data))
    index = {page.indirect_reference.idnum: number for number, page in enumerate(reader.pages)}
    targets = []
    for annotation in reader.pages[1]["/Annots"]:
        annotation = annotation.get_object()
        destination = annotation["/A"]["/D"]
        targets.append(index[destination[0].idnum])
        assert str(annotation["/Contents"]).startswith("Go to page ")
    labels = labels_of(data)
    # the links lead to the pages the contents name, in order: each quest, the encounters, the index
    numbers = [int(n) for n in re.findall(r"\.\s*(\d+)", contents)]  # each number after its leader dots
    assert [labels[t] for t in targets] == [str(n) for n in numbers]
    assert targets[:2] == starts(data, results)


@pytest.mark.slow
def test_a_quest_of_several_encounters_has_one_heading_with_its_encounters_under_it(guide):
    data, _calls = guide
    outline = PdfReader(io.BytesIO(data)).outline
    top = [entry.title for entry in outline if not isinstance(entry, list)]
    assert top == ["The Drowned Reliquary", "The Shrine of Ash & Ember", "The Lantern Road", "Index"]
    # pypdf lists an item's children as the list after it
    lantern = outline[
        next(i for i, e in enumerate(outline) if not isinstance(e, list) and e.title == "The Lantern Road") + 1
    ]
    assert [e.title for e in lantern if not isinstance(e, list)] == [
        "The Lantern Road I: The Burned Mill",
        "The Lantern Road II: Harrow Chapel",
    ]
    assert "2 encounters · for 2–5 players (overlord included) · Second edition" in " ".join(pages_of(data))


@pytest.mark.slow
def test_the_book_keeps_its_tags_bookmarks_and_running_headers(results, guide):
    import pikepdf
    from pdf_layout import check_structure, headings_ending_pages, reading_order

    data, _calls = guide
    with pikepdf.open(io.BytesIO(data)) as book:  # qpdf reads it without a complaint
        assert book.check_pdf_syntax() == []
    check_structure(data)
    assert headings_ending_pages(data) == []
    headings = [m.title for m in reading_order(data) if m.heading == "/H1"]
    assert list(dict.fromkeys(headings)) == [
        "Contents",
        "The Drowned Reliquary",
        "The Shrine of Ash & Ember",
        "The Lantern Road",
        "Index",
    ]
    # the sections keep their levels: H2 under a quest, H3 under an encounter of a quest
    order = reading_order(data)
    assert {m.title for m in order if m.heading == "/H2"} >= {
        "Introduction",
        "Setup",
        "The Lantern Road I: The Burned Mill",
    }
    assert "Introduction" in {m.title for m in order if m.heading == "/H3"}
    pages = pages_of(data)
    second = starts(data, results)[0] + 1
    assert pages[second].startswith("The Drowned Reliquary Tales of the Deep")  # its running header
    reader = PdfReader(io.BytesIO(data))
    assert reader.trailer["/Root"]["/Lang"] == "en" and reader.metadata.title == "Tales of the Deep"
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data()
    assert b"<pdfuaid:part>1</pdfuaid:part>" in xmp
    # every figure keeps its alt text through assembly: each quest's map among them, by its areas
    from pdf_layout import structure

    _root, elements = structure(data)
    figures = [alt for kind, alt in elements if kind == "/Figure"]
    assert figures and all(alt.strip() for alt in figures)
    for result in results:
        assert any(all(a.name in alt for a in result.model.areas.values()) for alt in figures), result.model.title
    assert f"<xmpTPg:NPages>{len(reader.pages)}</xmpTPg:NPages>".encode() in xmp


@pytest.mark.slow
def test_the_index_lists_monsters_and_components_with_their_pages(results, guide):
    data, _calls = guide
    pages = pages_of(data)
    index = " ".join(p for p in pages if p.startswith("Index"))
    first = [labels_of(data)[i] for i in starts(data, results)]
    assert f"beastman {first[0]}" in index and f"skeleton {first[1]}" in index
    assert "Monsters" in index and "Map pieces and tiles" in index and "tile 22A" in index


@pytest.mark.slow
def test_two_sided_every_quest_starts_on_a_right_hand_page(results, two_sided):
    labels = labels_of(two_sided)
    pages = pages_of(two_sided)
    front = labels.index("1")
    assert front % 2 == 0  # the front is an even number of pages
    for start in starts(two_sided, results):
        assert int(labels[start]) % 2 == 1, labels[start]
    blanks = [i for i, text in enumerate(pages) if not text.strip()]
    assert blanks and all(int(labels[i]) % 2 == 0 for i in blanks if labels[i].isdigit())
    # the inner margin is the wider: text stands further right on a right-hand page
    reader = PdfReader(io.BytesIO(two_sided))
    left = {}

    def visit(text, cm, tm, _font, _size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            left[current] = min(left.get(current, 1e9), x)

    for current in (starts(two_sided, results)[0], starts(two_sided, results)[0] + 1):
        reader.pages[current].extract_text(visitor_text=visit)
    recto, verso = starts(two_sided, results)[0], starts(two_sided, results)[0] + 1
    assert left[recto] > left[verso] + 5


@pytest.mark.slow
def test_guide_has_only_bundled_fonts(guide):
    data, _calls = guide
    reader = PdfReader(io.BytesIO(data))
    fonts = {
        str(f.get_object()["/BaseFont"]) for page in reader.pages for f in page["/Resources"].get("/Font", {}).values()
    }
    assert fonts and all("DejaVu" in f for f in fonts), fonts


@pytest.mark.slow
def test_each_sheet_in_the_guide_has_its_legend_as_text(results, guide):
    data, _calls = guide
    text = " ".join(pages_of(data))
    assert text.count("Legend") == len(results)
    for expected in (
        "A Entry Hall (start)",
        "C The Reliquary",
        "A Gatehouse (start)",
        "D Crypt",
        "Blue rune door",
        "Crushing wall (trap)",
    ):
        assert expected in text, expected


@pytest.mark.slow
def test_progress_is_told_once_per_quest(guide):
    _data, calls = guide
    assert calls == [1, 1, 1, 1]


@pytest.mark.slow
def test_guide_bytes_repeat(results, guide):
    data, _calls = guide
    assert render_guide(results, title="Tales of the Deep", author="The Table", date="1 May 2026") == data


@pytest.mark.slow
def test_guide_bytes_repeat_from_one_process_to_the_next(tmp_path):
    """Two runs of `questc guide` with Python's string hashes seeded apart write the same bytes
    (pikepdf hands a dictionary's keys over as a set: copied in its order, the book's objects
    were numbered differently each run)."""
    import os
    import subprocess
    import sys

    written = []
    for seed in ("1", "2"):
        target = tmp_path / f"guide-{seed}.pdf"
        env = {
            **os.environ,
            "PYTHONHASHSEED": seed,
            "SOURCE_DATE_EPOCH": "1700000000",
            "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
        }
        done = subprocess.run(
            [sys.executable, "-m", "questc", "guide", str(DROWNED), str(EVERYTHING), "-o", str(target)],
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        written.append(target.read_bytes())
    assert written[0] == written[1]


@pytest.mark.slow
def test_a_guide_needs_quests_without_errors(results, tmp_path):
    with pytest.raises(ValueError, match="at least one quest"):
        render_guide([])
    broken = tmp_path / "broken.quest"
    broken.write_text(BROKEN, encoding="utf-8")
    report = api.guide([DROWNED, broken], tmp_path / "guide.pdf")
    assert [Path(r.path).name for r in report.left_out] == ["broken.quest"]
    assert [Path(r.path).name for r in report.included] == [DROWNED.name]


# ---- questc guide --------------------------------------------------------------------


def run(*args):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.mark.slow
def test_cli_writes_the_guide_and_leaves_out_quests_with_errors(tmp_path):
    broken = tmp_path / "broken.quest"
    broken.write_text(BROKEN, encoding="utf-8")
    target = tmp_path / "out" / "guide.pdf"
    result = run("guide", str(DROWNED), str(broken), str(EVERYTHING), "-o", str(target))
    assert result.exit_code == 1, result.output
    assert "error[Q201]" in result.output  # the diagnostics are printed
    assert "left out of the guide" in result.output
    assert target.is_file()
    pages = pages_of(target.read_bytes())
    contents = pages[1]
    assert "The Drowned Reliquary" in contents and "The Shrine of Ash & Ember" in contents
    assert "Broken Bridge" not in " ".join(pages)
    # written atomically: nothing but the guide in its folder
    assert [p.name for p in target.parent.iterdir()] == ["guide.pdf"]


@pytest.mark.slow
def test_cli_exit_0_when_every_quest_is_in(tmp_path):
    target = tmp_path / "one.pdf"
    result = run("guide", str(DROWNED), "-o", str(target), "--title", "Just One")
    assert result.exit_code == 0, result.output
    assert f"wrote {target.as_posix()} (1 quest)" in result.output
    assert "Just One" in pages_of(target.read_bytes())[0]


def test_cli_writes_nothing_when_no_quest_compiles(tmp_path):
    broken = tmp_path / "broken.quest"
    broken.write_text(BROKEN, encoding="utf-8")
    target = tmp_path / "guide.pdf"
    result = run("guide", str(broken), "-o", str(target))
    assert result.exit_code == 1
    assert "no guide written" in result.output
    assert not target.exists()


def test_cli_usage_problems_exit_2(tmp_path):
    assert run("guide", str(DROWNED)).exit_code == 2  # -o is required
    assert run("guide", str(tmp_path / "missing.quest"), "-o", str(tmp_path / "g.pdf")).exit_code == 2
    folder = tmp_path / "folder"
    folder.mkdir()
    assert run("guide", str(DROWNED), "-o", str(folder)).exit_code == 1  # the output named cannot be written


def test_cli_refuses_to_overwrite_a_source(tmp_path):
    source = tmp_path / "q.quest"
    source.write_bytes(DROWNED.read_bytes())
    result = run("guide", str(source), "-o", str(source))
    assert result.exit_code == 1
    assert "refusing to overwrite" in result.output


# ---- order, title, author and paper from the command line and the configuration ----------------


@pytest.mark.slow
def test_the_guide_keeps_the_order_of_the_files_given(tmp_path):
    target = tmp_path / "g.pdf"
    result = run("guide", str(EVERYTHING), str(DROWNED), "-o", str(target), "--author", "The Table")
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    assert [e.title for e in reader.outline if not isinstance(e, list)] == [
        "The Shrine of Ash & Ember",
        "The Drowned Reliquary",
        "Index",
    ]
    assert "by The Table" in flat(reader.pages[0].extract_text())
    assert reader.metadata.author == "The Table"


@pytest.mark.slow
def test_the_configuration_orders_titles_and_sizes_the_guide(tmp_path):
    folder = tmp_path / "campaign"
    folder.mkdir()
    for source in (DROWNED, EVERYTHING):
        (folder / source.name).write_bytes(source.read_bytes())
    (folder / "questc.toml").write_text(
        'paper = "letter"\n[guide]\ntitle = "The Ember Campaign"\nauthor = "Ash Club"\n'
        'order = ["shrine_of_ash", "drowned_reliquary"]\n',
        encoding="utf-8",
    )
    target = tmp_path / "campaign.pdf"
    result = run("guide", str(folder), "-o", str(target), "--config", str(folder / "questc.toml"))
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    # a folder is read in file-name order (drowned first); the configured order wins
    assert [e.title for e in reader.outline if not isinstance(e, list)] == [
        "The Shrine of Ash & Ember",
        "The Drowned Reliquary",
        "Index",
    ]
    first = flat(reader.pages[0].extract_text())
    assert "The Ember Campaign" in first and "by Ash Club" in first
    assert all(
        sorted((round(float(p.mediabox.width)), round(float(p.mediabox.height)))) == [612, 792] for p in reader.pages
    )
    # the command line wins over the configuration
    again = run(
        "guide",
        str(folder),
        "-o",
        str(target),
        "--config",
        str(folder / "questc.toml"),
        "--paper",
        "a4",
        "--title",
        "Other",
    )
    assert again.exit_code == 0, again.output
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    assert round(float(reader.pages[0].mediabox.height)) == 842
    assert "Other" in flat(reader.pages[0].extract_text())


def test_an_order_naming_a_missing_quest_is_a_usage_error(tmp_path):
    config = tmp_path / "questc.toml"
    config.write_text('[guide]\norder = ["no_such_quest"]\n', encoding="utf-8")
    result = run("guide", str(DROWNED), "-o", str(tmp_path / "g.pdf"), "--config", str(config))
    assert result.exit_code == 2
    assert "no_such_quest" in result.output


def test_build_prints_on_letter_when_asked(tmp_path):
    result = run("build", str(DROWNED), "--only", "pdf", "--paper", "letter", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(next(tmp_path.glob("*.pdf")).read_bytes()))
    assert sorted((round(float(reader.pages[0].mediabox.width)), round(float(reader.pages[0].mediabox.height)))) == [
        612,
        792,
    ]


@pytest.mark.slow
def test_a_guide_with_print_and_play_puts_each_quests_pages_after_it(tmp_path):
    """`questc guide --print-and-play --two-sided`: after a quest, its map at game size and its
    tokens, under its bookmark; each of those pages with its back left blank, to cut up."""
    cellar = Path(__file__).resolve().parent.parent / "quests" / "chandlers_cellar.quest"
    target = tmp_path / "play.pdf"
    result = run("guide", str(cellar), "-o", str(target), "--print-and-play", "--two-sided")
    assert result.exit_code == 0, result.output
    data = target.read_bytes()
    reader = PdfReader(io.BytesIO(data))
    outline = reader.outline
    assert [e.title for e in outline if not isinstance(e, list)] == ["The Chandler's Cellar", "Index"]
    under = [e.title for e in outline[1] if not isinstance(e, list)]
    assert "The Chandler's Cellar: print and play" in under
    pages = pages_of(data)
    play = [i for i, text in enumerate(pages) if text.startswith("Map page") or "Map page" in text[:40]]
    assert play
    for index in play:
        assert not pages[index + 1].strip(), index  # the back of a page to cut up is blank
        assert int(labels_of(data)[index]) % 2 == 1  # on a right-hand page
    from pdf_layout import check_structure
    from play_layout import assert_measures_and_assembles

    check_structure(data)
    assert_measures_and_assembles(compile_file(cellar), data)  # an inch a square, the pages assemble
