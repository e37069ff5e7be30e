"""The PDF quest sheet (questc.emit.pdf, questc.emit.sheet, templates/sheet/): its text, its fonts, its
flow over pages, its bytes, and the Typst the templates write."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from conftest import ACCEPTANCE
from helpers import compile_file, compile_source
from pdf_layout import structure
from pypdf import PdfReader

from questc.api import check_source
from questc.emit import pdf
from questc.emit.sheet import paragraphs, sheet_data

SHEETS = Path(__file__).resolve().parent / "fixtures" / "sheets"
DROWNED_CASE = ACCEPTANCE / "clean_drowned_reliquary.quest"
DROWNED = DROWNED_CASE if DROWNED_CASE.is_file() else SHEETS / "drowned_reliquary.quest"


def flat(text: str) -> str:
    """Extracted text with every run of whitespace as one space (lines wrap anywhere)."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def drowned():
    return compile_file(DROWNED)


@pytest.fixture(scope="module")
def everything():
    return compile_file(SHEETS / "everything.quest")


@pytest.fixture(scope="module")
def drowned_pdf(drowned):
    return pdf.render_pdf(drowned)


def text_of(data: bytes) -> str:
    return flat(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages))


@pytest.mark.slow
def test_sheet_holds_title_intro_every_read_aloud_text_and_the_chest_chart(drowned, drowned_pdf):
    text = text_of(drowned_pdf)
    assert "The Drowned Reliquary" in text
    assert "Cold water drips from the vaulted ceiling." in text
    for area in drowned.model.areas.values():
        assert f"Area {area.id}: {area.name}" in text
        for read in area.read:
            assert flat(read) in text
    # encounter and event read-alouds, in words
    assert "A rope hangs into a dry well. Something glitters below." in text
    assert "A giant turns from the altar, smiling." in text
    # the chest chart, row by row
    assert "Silver chest 1 a silver treasure card, 2 conquest tokens" in text
    assert "Silver chest 2 100 coins, a curse card" in text
    assert "Gold chest 1 a gold treasure card, 3 conquest tokens" in text


def test_sheet_words_the_rest(drowned_pdf):
    text = text_of(drowned_pdf)
    assert "The heroes win (“Slay Narthak”) when Narthak is killed." in text
    assert "The overlord wins when the heroes have no conquest tokens left." in text
    assert "The heroes gain 2 conquest tokens." in text
    assert "Changes to the master giant: wounds +10, armor +1." in text
    assert "Abilities: command, fear 1." in text
    assert "3 green (event), 4 purple (trap), 3 red (monster)" in text
    assert "a master beastman at 4,4 (only with 4–5 players)" in text
    assert "Revealed in wave 2, seen from area B (Flooded Passage)." in text


@pytest.mark.slow
def test_quest_text_is_printed_literally_not_as_markup(everything):
    text = text_of(pdf.render_pdf(everything))
    assert "The Shrine of Ash & Ember" in text
    assert "by Sheet <Tests>" in text
    assert "Place 2 master skeletons at 11,5 and 12,5." in text
    assert "2 × Danger (1 green each)" in text
    assert "Dark glyph: summoning (2 red)" in text
    assert (
        "(Lord Vexis is killed and a hero triggers the encounter altar) or (area D (Crypt) is revealed before round 13)"
    ) in text
    assert "Overlord only: Vexis wakes only when the altar is touched" in text


def test_conditions_read_as_english(everything):
    """`not` is said plainly, a round after an event says when, "The" inside a sentence is "the"."""
    from questc.emit.sheet import mid_sentence

    source = everything.source.replace(
        'victory overlord "Hold the shrine" when round > 20 or conquest 0',
        'victory overlord "Hold the shrine" when not (round > 14 or killed lord) or conquest 0',
    )
    words = [
        v["condition"]["words"] for v in sheet_data(compile_source(source, "everything.quest"), "text")["victories"]
    ]
    assert words[1] == "(Lord Vexis is still alive before round 15) or the heroes have no conquest tokens left"
    assert "it is not so" not in " ".join(words)
    assert mid_sentence("The Brass Chamberlain") == "the Brass Chamberlain" and mid_sentence("Narthak") == "Narthak"


def test_areas_list_their_doors_and_stairs(everything):
    areas = {a["id"]: a for a in sheet_data(everything, "text")["areas"]}
    ways = [x["words"] for x in areas["A"]["exits"]]
    assert "the door hall to area B (Corridor of Ash)" in ways[0] or any("the door hall to area" in w for w in ways)
    assert any(w.startswith("the blue rune door crypt to area D") for w in ways), ways
    assert any(w.startswith("the green stairs to area") for w in ways), ways


def test_a_second_edition_sheet_says_so_and_prints_no_treachery():
    result = compile_file(Path(__file__).resolve().parent.parent / "quests" / "greywater_ferry.quest")
    text = text_of(pdf.render_pdf(result))
    assert "Second edition" in text and "The whole map is revealed from the start." in text
    assert "Treachery" not in text and "treachery" not in text


@pytest.mark.slow
def test_backticked_references_print_as_players_read_them():
    result = compile_file(Path(__file__).resolve().parent.parent / "quests" / "burning_well.quest")
    notes = [n for a in sheet_data(result, "text")["areas"] for n in a["notes"]]
    assert any("(see when Skritch the Lamp-Eater is killed)" in n for n in notes), notes
    assert "`" not in text_of(pdf.render_pdf(result))


def test_same_bytes_every_time(drowned, drowned_pdf):
    assert pdf.render_pdf(drowned) == drowned_pdf


def test_text_is_real_text_in_the_bundled_font(drowned_pdf):
    reader = PdfReader(io.BytesIO(drowned_pdf))
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"].get("/Font", {}).values():
            font = font.get_object()
            fonts.add(str(font["/BaseFont"]))
    assert fonts and all("DejaVu" in f for f in fonts), fonts
    assert reader.metadata.title == "The Drowned Reliquary"


def map_page_of(data: bytes):
    reader = PdfReader(io.BytesIO(data))
    return next(p for p in reader.pages if "The map" in p.extract_text())


def text_spots(page) -> list[tuple[str, float, float, float]]:
    """The text shown on a page: (text, x, y, size in points) for each run."""
    spots = []

    def visit(text, cm, tm, font, size):
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            spots.append((text.strip(), x, y, size * abs(tm[3] * cm[3])))

    page.extract_text(visitor_text=visit)
    return spots


@pytest.mark.slow
def test_the_map_is_vector_with_its_words_as_text_of_6_pt_or_more(drowned, drowned_pdf):
    page = map_page_of(drowned_pdf)
    assert not page.images  # no raster picture of the map
    spots = text_spots(page)
    words = set(page.extract_text().split())
    # the map's own words, as text: area letters, grid numbers, names beside things
    assert {"A", "B", "C", "entry", "vault", "Narthak", "16"} <= words, words
    assert all(size >= 6 - 0.01 for *_, size in spots), [s for s in spots if s[3] < 6]


@pytest.mark.slow
def test_the_legend_is_text_beside_the_maps_own_symbols(drowned, drowned_pdf):
    from questc.draw.page import map_page

    labels = [entry.label for entry in map_page(drowned).map.legend]
    assert "A  Entry Hall (start)" in labels and "Red rune door" in labels
    text = map_page_of(drowned_pdf).extract_text()
    assert "Legend" in text
    for label in labels:
        assert label in text, label


def test_the_sheet_is_tagged_pdf_ua_with_the_maps_alt_text(drowned, drowned_pdf):
    root, elements = structure(drowned_pdf)
    assert bool(root["/MarkInfo"]["/Marked"])
    metadata = root["/Metadata"].get_object().get_data().decode("utf-8")
    assert re.search(r"pdfuaid:part>\s*1\s*<", metadata), metadata
    kinds = {k for k, _alt in elements}
    assert {"/H1", "/H2", "/H3", "/L", "/LI", "/Table", "/TR", "/Figure"} <= kinds, kinds
    figures = [alt for k, alt in elements if k == "/Figure"]
    assert any(all(a.name in alt for a in drowned.model.areas.values()) for alt in figures), figures
    assert str(root.get("/Lang")) == "en"


@pytest.mark.slow
def test_a4_and_letter_both_build(drowned):
    for paper, size in (("a4", (595.28, 841.89)), ("letter", (612.0, 792.0))):
        reader = PdfReader(io.BytesIO(pdf.render_pdf(drowned, paper=paper)))
        for page in reader.pages:
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            assert sorted((round(w), round(h))) == sorted((round(size[0]), round(size[1]))), (paper, w, h)
    with pytest.raises(ValueError, match="paper"):
        pdf.render_pdf(drowned, paper="a3")


def test_dates_come_only_from_source_date_epoch(drowned, drowned_pdf, monkeypatch):
    assert "/CreationDate" not in PdfReader(io.BytesIO(drowned_pdf)).trailer["/Info"]
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    dated = pdf.render_pdf(drowned)
    assert str(PdfReader(io.BytesIO(dated)).metadata["/CreationDate"]).startswith("D:20231114")
    assert pdf.render_pdf(drowned) == dated


LONG_QUEST = '''quest "The Endless Stair" {{
  conquest 3
  intro """
{intro}
  """
}}
piece R1 room_4x4 at 0,0
area A "Landing" start {{
  pieces R1
  glyph at 0,0 active
  read "The first words of the landing."
}}
victory heroes when round >= 3
'''


@pytest.fixture(scope="module")
def long_sheet():
    sentences = [f"Sentence {i} of the long introduction climbs the stair again and again." for i in range(1, 401)]
    # paragraphs of ten sentences; the writer's own line wrapping inside them
    intro = "\n\n".join("\n".join("    " + s for s in sentences[i : i + 10]) for i in range(0, 400, 10))
    return pdf.render_pdf(compile_source(LONG_QUEST.format(intro=intro), "long.quest"))


@pytest.mark.slow
def test_long_intro_flows_onto_further_pages(long_sheet):
    reader = PdfReader(io.BytesIO(long_sheet))
    pages = [flat(p.extract_text()) for p in reader.pages]
    assert len(pages) >= 3
    assert "Sentence 1 of the long introduction" in pages[0]
    assert "Sentence 400 of the long introduction" not in pages[0]
    last = next(i for i, p in enumerate(pages) if "Sentence 400 of" in p)
    assert last >= 1
    # nothing lost between pages: every sentence is there, once (the footers, which the
    # extraction may put inside a sentence split over two pages, taken out)
    whole = re.sub(r"The Endless Stair \d+ ", "", " ".join(pages))
    assert all(whole.count(f"Sentence {i} of") == 1 for i in range(1, 401))
    assert "The first words of the landing." in whole


def test_no_text_runs_off_a_page(long_sheet):
    reader = PdfReader(io.BytesIO(long_sheet))
    for page in reader.pages:
        width, height = float(page.mediabox.width), float(page.mediabox.height)
        spots = []

        def visit(text, cm, tm, _font, size):
            if text.strip():
                # user-space position of the text: the text matrix under the current matrix
                x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
                y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
                spots.append((x, y, text))  # noqa: B023 - called by extract_text below

        page.extract_text(visitor_text=visit)
        assert spots
        for x, y, text in spots:
            assert 0 <= x <= width and 0 <= y <= height, (x, y, text)


# ---- the sheet data and the block markup ------------------------------------------


def test_paragraphs_join_soft_wraps_and_split_on_blank_lines():
    assert paragraphs("one\ntwo\n\n  three  \n\n\n") == ["one two", "three"]
    assert paragraphs(None) == [] and paragraphs("") == []


def test_sheet_data_describes_conditions_and_effects_in_words(drowned):
    data = sheet_data(drowned, "text")
    assert [v["condition"]["words"] for v in data["victories"]] == [
        "Narthak is killed",
        "the heroes have no conquest tokens left",
    ]
    encounter = data["encounters"][0]
    assert [e["kind"] for e in encounter["effects"]] == ["read", "conquest"]
    assert encounter["effects"][1]["words"] == "The heroes gain 2 conquest tokens."
    area_a = data["areas"][0]
    assert [i["words"] for i in area_a["contents"]] == [
        "an active glyph at 1,1",
        "2 beastmen at 4,1 and 4,2",
        "a master beastman at 4,4 (only with 4–5 players)",
        "rubble at 2,3 and 2,4",
        "a healing potion marker at 0,5",
    ]


def test_the_typst_flavour_words_the_same_in_markup(drowned):
    """The sheet's words are Typst markup: the same sentence, its names in bold, its punctuation escaped."""
    typst = sheet_data(drowned)["victories"][0]["condition"]["words"]
    text = sheet_data(drowned, "text")["victories"][0]["condition"]["words"]
    assert typst == "#strong[Narthak] is killed" and text == "Narthak is killed"


# Everything Typst's markup reads: code, strong, emphasis, raw, math, labels, references,
# headings, lists, terms, comments, links, shorthands, escapes, line breaks, spaces markup folds.
HOSTILE = (
    "#strong[x] *y* _z_ `raw` $x^2$ <label> @ref = heading - item + item / term: // comment /* c */ "
    "https://example.com -- --- ... ~ -? \\ \\n 1. one \"quoted\" 'single' [bracket] {brace}  two  spaces "
)


def test_quest_text_never_becomes_typst_markup():
    """Whatever a writer types prints as itself: the escaped markup, typeset, gives back the text."""
    from questc.emit.typst_markup import markup, string

    for text in (HOSTILE, " leading", "trailing ", "tab\there", "line\nbreak", "\u2028sep", "plain words"):
        typst = f'#set document(title: "t", date: none)\n#set text(font: "DejaVu Sans")\n#set smartquote(enabled: false)\n{markup(text)}#metadata(none)'
        literal = f'#set document(title: "t", date: none)\n#set text(font: "DejaVu Sans")\n#set smartquote(enabled: false)\n#{string(text)}#metadata(none)'
        assert pdf.compile_typst(typst) == pdf.compile_typst(literal), text


def test_hostile_quest_text_prints_as_written():
    # (backticks name things in quest text, and quest strings read a backslash as an escape)
    hostile = HOSTILE.replace("`raw`", "raw").replace("\\", "/")
    source = (
        LONG_QUEST.format(intro=hostile)
        .replace("The Endless Stair", "#Endless* [Stair] // $1$")
        .replace("Landing", "<Landing> @a &amp;")
    )
    text = text_of(pdf.render_pdf(compile_source(source, "hostile.quest")))
    assert flat(hostile) in text
    assert "#Endless* [Stair] // $1$" in text and "<Landing> @a &amp;" in text


def test_a_broken_template_is_a_sheet_template_error(monkeypatch):
    from questc.emit import sheet

    class Broken:
        def render(self, **values):
            return sheet.environment().from_string("{{ q.nothing_here }}").render(**values)

    monkeypatch.setattr(sheet, "template", lambda name, flavour="typst": Broken())
    with pytest.raises(pdf.SheetTemplateError, match="nothing_here"):
        pdf._render("sheet.j2", q={})


def test_a_quest_with_errors_gets_no_sheet():
    """A name error stops the stages: there is no compiled quest to print, nor anything to build."""
    result = check_source(
        'quest "Broken" {\n  conquest 3\n}\npiece R1 room_4x4 at 0,0\n'
        "area A start { pieces R9 }\nvictory heroes when conquest >= 9\n"
    )
    assert result.compiled is None and not result.buildable()


@pytest.mark.parametrize("name", ["burning_well", "three_seals", "hollow_teeth"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.slow
def test_every_legend_entry_is_printed_inside_the_page(name, paper):
    from questc.draw.metrics import text_width
    from questc.draw.page import map_page

    result = compile_file(Path(__file__).resolve().parent.parent / "quests" / f"{name}.quest")
    labels = {entry.label for entry in map_page(result, paper).map.legend}
    reader = PdfReader(io.BytesIO(pdf.render_pdf(result, paper=paper)))
    found = set()
    for page in reader.pages:
        width = float(page.mediabox.width)
        for text, x, _y, size in text_spots(page):
            if text in labels:
                assert x + text_width(text, size) <= width - 30, (name, paper, text, x)
                found.add(text)
    assert found == labels, labels - found


@pytest.fixture(scope="module")
def shipped_sheets():
    """Every shipped quest's sheet on both papers: {(name, paper): pdf bytes}."""
    out = {}
    for path in sorted((Path(__file__).resolve().parent.parent / "quests").glob("*.quest")):
        result = compile_file(path)
        for paper in ("a4", "letter"):
            out[(path.stem, paper)] = pdf.render_pdf(result, paper=paper)
    return out


def margins() -> tuple[float, float]:
    from questc.draw.page import MM, styles

    page = styles()["page"]
    return float(page["margin_mm"]) * MM, float(page["bottom_margin_mm"]) * MM


@pytest.mark.slow
def test_every_page_of_a_sheet_but_its_last_is_at_least_half_full(shipped_sheets):
    from pdf_layout import page_fill

    short = {}
    for (name, paper), data in shipped_sheets.items():
        fill = page_fill(data, margins())
        if any(used < 0.5 for used in fill[:-1]):
            short[(name, paper)] = [round(used, 2) for used in fill]
    assert not short, short


@pytest.mark.slow
def test_no_heading_ends_a_page_of_a_sheet(shipped_sheets):
    from pdf_layout import headings_ending_pages

    stranded = {key: found for key, data in shipped_sheets.items() if (found := headings_ending_pages(data))}
    assert not stranded, stranded


# Each section of Edition.sheet as sheet.j2 heads it.
SECTION_HEADINGS = {
    "introduction": "Introduction",
    "monsters": "Monsters",
    "setup": "Setup",
    "special": "Special rules",
    "reinforcements": "Reinforcements",
    "victory": "Victory",
    "map": "The map",
    "areas": "Areas",
    "encounters": "Encounters",
    "events": "Events",
    "named": "Named monsters",
    "chests": "Chest chart",
}


@pytest.mark.slow
def test_the_sections_come_in_the_editions_order_with_the_overlords_setup_first(shipped_sheets):
    """A first edition sheet: Introduction, Setup (start, treachery, the deck plan, the components),
    then the rest; a second edition sheet in the Quest Guide's order (Introduction, Monsters, Setup,
    Special rules, Reinforcements, Victory, The map). Read back from the PDF's headings."""
    from pdf_layout import reading_order

    for (name, _paper), data in shipped_sheets.items():
        quest = compile_file(Path(__file__).resolve().parent.parent / "quests" / f"{name}.quest")
        order = quest.model.edition.sheet
        headings = list(dict.fromkeys(m.title for m in reading_order(data) if m.heading == "/H2"))
        expected = [SECTION_HEADINGS[section] for section in order if SECTION_HEADINGS[section] in headings]
        assert headings == expected, (name, headings)
        assert "Setup" in headings[:3] and headings.index("Setup") < headings.index("Victory"), (name, headings)
        if quest.model.edition.name == "second":
            assert headings[:3] == ["Introduction", "Monsters", "Setup"], (name, headings)


@pytest.mark.slow
def test_the_legend_is_on_the_maps_page(shipped_sheets):
    from pdf_layout import reading_order

    for key, data in shipped_sheets.items():
        order = reading_order(data)
        figure = next(m.page for m in order if m.tag == "/Figure")
        reader = PdfReader(io.BytesIO(data))
        assert "Legend" in reader.pages[figure].extract_text(), key


def test_the_heading_detector_finds_a_stranded_heading():
    """The check above can fail: a heading followed by a page break is found."""
    from pdf_layout import headings_ending_pages

    source = (
        '#set document(title: "t")\n#set text(font: "DejaVu Sans")\n= Title\ntext\n== Stranded\n'
        "#pagebreak()\nafter\n== Fine\ntext\n"
    )
    assert headings_ending_pages(pdf.compile_typst(source)) == [(0, "Stranded")]


def test_a_small_map_follows_the_text_on_the_first_page():
    from pdf_layout import reading_order

    order = reading_order(pdf.render_pdf(compile_source(LONG_QUEST.format(intro="A short way down."), "s.quest")))
    figure = next(index for index, m in enumerate(order) if m.tag == "/Figure")
    assert order[figure].page == 0
    # in reading order the map comes after the victory, and the areas follow it on the same page
    assert order[figure + 1 :] and all(m.page == 0 for m in order[figure + 1 :])


@pytest.mark.slow
@pytest.mark.parametrize("name", ["three_seals", "burning_well", "lantern_road_1"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_map_is_as_large_as_its_page_allows_with_its_legend(name, paper):
    """The unit (heading, map, legend) fits the text area, and squares 3 % larger would not."""
    from questc.draw.map import draw_map
    from questc.draw.page import LARGEST_CELL, legend_width, map_page, plan_legend

    result = compile_file(Path(__file__).resolve().parent.parent / "quests" / f"{name}.quest")
    page = map_page(result, paper)
    width, height = page.width, (page.body_width if page.turned else page.body_height)
    assert page.height <= height + 0.01 and page.map.width <= width + 0.01
    if page.map.cell < LARGEST_CELL:
        larger = draw_map(result, page.map.cell * 1.03)
        legend = plan_legend(larger.legend, legend_width(width))
        assert larger.height + legend.height + page.heading_height > height or larger.width > width


@pytest.mark.slow
def test_a_second_edition_sheet_lists_its_groups_and_reinforcements():
    """The Quest Guide's Monsters: each group the overlord places, on its tiles, with its size for
    each number of heroes; an open group by the quest's traits; a lieutenant. Its Reinforcements:
    each rule of a round or a turn that places monsters, under its heading, and not again among
    the special rules."""
    quests = Path(__file__).resolve().parent.parent / "quests"
    quest = compile_file(quests / "ember_reliquary_1.quest")
    data = sheet_data(quest, "text")
    assert [m["words"] for m in data["monsters"]] == [
        "Goblin archer group, on tile 3B: with 2 heroes, 2 minions and 1 master; with 3 heroes, 3 minions and "
        "1 master; with 4 heroes, 4 minions and 1 master.",
        "Open group: a group the overlord chooses among the monsters with the trait building or cave, on tile 3B.",
        "Splig (lieutenant), on tile 6A.",
    ]
    # the set-aside list: the tiles by their codes, the small pieces, the groups' figures for the most heroes
    components = {g["group"]: [i["words"] for i in g["entries"]] for g in data["setup"]["components"]}
    assert components["pieces"] == ["tile 3B", "tile 6A", "tile 9A", "1 entrance", "1 exit", "2 end caps"]
    assert components["monsters"] == ["4 goblin archers", "1 master goblin archer"]
    assert "the lieutenant token Splig" in components["markers"]
    text = " ".join(
        " ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(pdf.render_pdf(quest))).pages
    )
    special = text[text.index("Special rules") : text.index("Reinforcements")]
    reinforcements = text[text.index("Reinforcements") : text.index("Victory")]
    assert (
        "At the end of each overlord turn: – Place a goblin archer on tile 3B, up to the group limit." in reinforcements
    )
    assert "Place a goblin archer" not in special and "Raise the alarm by 1." in special
    third = [m["words"] for m in sheet_data(compile_file(quests / "ember_reliquary_3.quest"), "text")["monsters"]]
    assert "Elemental group, on tile 1A: 1 master." in third  # a size said once
    assert any(w.endswith("3 minions and 1 master (changes: all +1 health).") for w in third)
    second = sheet_data(compile_file(quests / "ember_reliquary_2a.quest"), "text")
    assert [e["words"] for t in second["triggers"] if t["reinforcement"] for e in t["effects"]] == [
        "Place a zombie in area B (The Wine Vault), up to the group limit."
    ]


@pytest.mark.slow
def test_the_sheets_compiled_templates_are_cached_and_a_damaged_entry_is_compiled_again(tmp_path):
    """Jinja's bytecode of the sheet's templates in questc's cache folder: a second process reads
    it (and renders the same words), a corrupt or foreign entry is compiled again, silently."""
    import os
    import subprocess
    import sys

    code = (
        "import sys, time\nfrom questc.emit.sheet import template, _words\n"
        "print(template('sheet.j2').render is not None, _words().effect is not None)\n"
        "import questc.emit.sheet as s\nprint(repr(str(s.mid_sentence('The Hall'))))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(Path(__file__).resolve().parents[1])}

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and not done.stderr, done.stderr
        return done.stdout

    first = run()
    entries = sorted((tmp_path / "questc").glob("jinja-*"))
    assert len(entries) == 2  # sheet.j2 and words.j2
    written = {p: p.read_bytes() for p in entries}
    assert run() == first
    assert {p: p.read_bytes() for p in entries} == written  # read back, not written again
    entries[0].write_bytes(b"\0\0\0\0garbage")
    import zlib

    foreign = b"not jinja's bytecode"
    entries[1].write_bytes(zlib.crc32(foreign).to_bytes(4, "big") + foreign)  # its checksum right
    assert run() == first
    assert {p: p.read_bytes() for p in entries} == written  # compiled again and rewritten
