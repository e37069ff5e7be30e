"""The quest guide: render_guide (title page, contents with page numbers, each quest's sheet) and the
`questc guide` command (diagnostics, quests with errors left out, exit status, atomic write)."""
from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from questc import api
from helpers import compile_file
from questc.cli import cli
from questc.emit import pdf
from conftest import ACCEPTANCE

SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
DROWNED_CASE = ACCEPTANCE / "clean_drowned_reliquary.quest"
DROWNED = DROWNED_CASE if DROWNED_CASE.is_file() else SHEETS / "drowned_reliquary.quest"
EVERYTHING = SHEETS / "everything.quest"

BROKEN = '''quest "Broken Bridge" {
  conquest 3
}
piece R1 room_4x4 at 0,0
piece R2 room_4x4 at 2,2
area A "Hall" start {
  pieces R1, R2
  glyph at 0,0 active
}
victory heroes when round >= 3
'''


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def results():
    return [compile_file(DROWNED), compile_file(EVERYTHING)]


@pytest.fixture(scope="module")
def guide(results):
    calls = []
    data = pdf.render_guide(results, progress=calls.append, title="Tales of the Deep")
    return data, calls


def pages_of(data: bytes) -> list[str]:
    return [flat(p.extract_text()) for p in PdfReader(io.BytesIO(data)).pages]


@pytest.mark.slow
def test_guide_is_title_contents_then_each_sheet(results, guide):
    data, _calls = guide
    pages = pages_of(data)
    sheet_pages = [len(PdfReader(io.BytesIO(pdf.render_pdf(r))).pages) for r in results]
    # one title page, one contents page, then each sheet exactly as long as on its own
    assert len(pages) == 2 + sum(sheet_pages)
    assert "Tales of the Deep" in pages[0] and "2 quests" in pages[0]
    assert pages[1].startswith("Contents")
    assert pages[2].startswith("The Drowned Reliquary")
    assert pages[2 + sheet_pages[0]].startswith("The Shrine of Ash & Ember")


@pytest.mark.slow
def test_contents_list_each_quest_with_its_page_number(results, guide):
    data, _calls = guide
    pages = pages_of(data)
    contents = pages[1]
    firsts = [next(i for i, p in enumerate(pages) if i > 1 and p.startswith(r.model.title)) + 1 for r in results]
    titles = [r.model.title for r in results]
    # each title once, in order, and the page numbers the sheets really start on
    # (the extraction order of a title and its number varies, so they are matched as lists)
    assert [m.group(0) for m in re.finditer("|".join(map(re.escape, titles)), contents)] == titles
    assert [int(n) for n in re.findall(r"\b\d+\b", contents)] == firsts


def test_guide_has_a_bookmark_per_quest_and_only_bundled_fonts(guide):
    data, _calls = guide
    reader = PdfReader(io.BytesIO(data))
    # the quests at the top, each with its sections under it
    assert [entry.title for entry in reader.outline if not isinstance(entry, list)] == [
        "The Drowned Reliquary", "The Shrine of Ash & Ember"]
    sections = [e.title for e in reader.outline[1] if not isinstance(e, list)]
    assert sections[0] == "Introduction" and {"Victory", "The map", "Areas"} <= set(sections)
    fonts = {str(f.get_object()["/BaseFont"]) for page in reader.pages
             for f in page["/Resources"].get("/Font", {}).values()}
    assert fonts and all("DejaVu" in f for f in fonts), fonts


@pytest.mark.slow
def test_each_sheet_in_the_guide_has_its_legend_as_text(results, guide):
    data, _calls = guide
    text = " ".join(pages_of(data))
    assert text.count("Legend") == len(results)
    for expected in ("A Entry Hall (start)", "C The Reliquary", "A Gatehouse (start)", "D Crypt",
                     "Blue rune door", "Crushing wall (trap)"):
        assert expected in text, expected


def test_progress_is_told_once_per_quest(guide):
    _data, calls = guide
    assert calls == [1, 1]


@pytest.mark.slow
def test_guide_bytes_repeat(results, guide):
    data, _calls = guide
    assert pdf.render_guide(results, title="Tales of the Deep") == data


def test_a_guide_needs_quests_without_errors(results, tmp_path):
    with pytest.raises(ValueError, match="at least one quest"):
        pdf.render_guide([])
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
    assert "error[Q201]" in result.output                       # the diagnostics are printed
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
    assert run("guide", str(DROWNED)).exit_code == 2                        # -o is required
    assert run("guide", str(tmp_path / "missing.quest"), "-o", str(tmp_path / "g.pdf")).exit_code == 2
    folder = tmp_path / "folder"
    folder.mkdir()
    assert run("guide", str(DROWNED), "-o", str(folder)).exit_code == 1   # the output named cannot be written


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
        "The Shrine of Ash & Ember", "The Drowned Reliquary"]
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
        'order = ["shrine_of_ash", "drowned_reliquary"]\n', encoding="utf-8")
    target = tmp_path / "campaign.pdf"
    result = run("guide", str(folder), "-o", str(target), "--config", str(folder / "questc.toml"))
    assert result.exit_code == 0, result.output
    reader = PdfReader(io.BytesIO(target.read_bytes()))
    # a folder is read in file-name order (drowned first); the configured order wins
    assert [e.title for e in reader.outline if not isinstance(e, list)] == [
        "The Shrine of Ash & Ember", "The Drowned Reliquary"]
    first = flat(reader.pages[0].extract_text())
    assert "The Ember Campaign" in first and "by Ash Club" in first
    assert all(sorted((round(float(p.mediabox.width)), round(float(p.mediabox.height)))) == [612, 792]
               for p in reader.pages)
    # the command line wins over the configuration
    again = run("guide", str(folder), "-o", str(target), "--config", str(folder / "questc.toml"),
                "--paper", "a4", "--title", "Other")
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
    assert sorted((round(float(reader.pages[0].mediabox.width)), round(float(reader.pages[0].mediabox.height)))) \
        == [612, 792]
