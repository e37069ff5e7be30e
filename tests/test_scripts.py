"""Text in any script is printed: the bundled fonts fall back from DejaVu Sans through the Noto
script fonts, Droid Sans Fallback and GNU Unifont (questc/fonts/README.md), in the PDF (Typst),
the PNG (Pillow, run by run) and the measurements the labels are placed with. What no font can
print, or a control character, is Q510 at lint time: never an internal error after a clean lint."""

from __future__ import annotations

import io
import json

import pytest
from helpers import assert_codes, span_text

from questc import fonts
from questc.api import check_source

WORDS = {
    "Chinese": "城堡地下室",
    "Japanese": "地下のお城",
    "Korean": "지하실",
    "Thai": "ห้องใต้ดิน",
    "Ethiopic": "ዋሻው",
    "Tibetan": "བོད་ཡིག",
    "emoji": "Dragon 🐉",
    "Devanagari": "तहखाना",
    "Arabic": "القبو",
    "Hebrew": "מרתף",
    "Greek": "Υπόγειο",
    "Cyrillic": "Подвал",
    "Bengali": "ভূগর্ভস্থ",
    "Tamil": "நிலவறை",
    "Khmer": "បន្ទប់ក្រោមដី",
    "Georgian": "სარდაფი",
}


def quest(title: str, door: str, area: str, read: str | None = None) -> str:
    read = f"{door} {area}" if read is None else read
    return (
        f'quest "{title}" {{\n  id scripts\n  conquest 5\n}}\n'
        "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n"
        f'door d "{door}" between R1 R2\n'
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        f'area B "{area}" {{ pieces R2; read "{read}" }}\nvictory heroes "{title}" when revealed B\n'
    )


@pytest.mark.parametrize("script", sorted(WORDS))
def test_every_script_lints_clean(script):
    assert_codes(quest(WORDS[script], WORDS[script], WORDS[script]))
    assert all(fonts.printable(c) for c in WORDS[script])


@pytest.mark.slow
def test_a_quest_in_every_script_builds_its_pdf_and_png():
    """Titles, the door's name on the map (shaped scripts are set by the PDF engine over the
    picture), area names in the legend, read-aloud text: one quest holding them all."""
    from PIL import Image
    from pypdf import PdfReader

    from questc.emit.pdf import render_pdf
    from questc.emit.png import render_png

    text = " ".join(WORDS.values())
    result = check_source(quest(text[:200], "ประตู कमरा བོད 門 🚪", text[:120]), "scripts.quest")
    assert result.compiled is not None and not result.diagnostics
    pdf = render_pdf(result.compiled)
    page_text = "".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    for word in ("城堡地下室", "지하실", "ዋሻው", "Подвал", "🐉"):  # (pypdf repeats shaped clusters)
        assert word in page_text, word
    image = Image.open(io.BytesIO(render_png(result.compiled)))
    assert image.size[0] > 500


@pytest.mark.parametrize(
    "char, what",
    [
        ("\x01", "the control character U+0001"),
        ("\x7f", "the control character U+007F"),
        ("\x9b", "the control character U+009B"),
        ("\ue000", "the private-use character U+E000"),
        ("\U000f0000", "the private-use character U+F0000"),
        ("\ufdd0", "U+FDD0, which is not a Unicode character"),
    ],
)
def test_what_cannot_be_printed_is_q510_at_lint(char, what):
    """A control character in a display name made the map's SVG not XML: an internal error at build."""
    result = assert_codes(quest("Title", "Door", f"Bad{char}Name", read="Fine"), "Q510")
    (d,) = result.diagnostics
    assert what in d.message and span_text(result.source, d.span) == f'"Bad{char}Name"'


def test_line_breaks_and_tabs_are_fine():
    assert_codes(quest("Title", "Door", "Name").replace('read "', 'read "one\\nline\\ttab '))


def test_the_coverage_table_is_the_fonts():
    """questc/fonts/coverage.json is what `python -m questc.fonts` writes from the font files."""
    pytest.importorskip("fontTools")
    from fontTools.ttLib import TTFont

    table = json.loads(fonts.COVERAGE.read_text(encoding="utf-8"))
    assert sorted(table) == sorted([*fonts.FILES.values(), *fonts.fallback_files()])
    for name in ("NotoSansThai-Regular.ttf", "DejaVuSans.ttf", "unifont_upper.otf"):
        codes = sorted(TTFont(fonts.FONT_DIR / name, lazy=True).getBestCmap())
        covered = [c for a, b in table[name] for c in range(a, b + 1)]
        assert covered == codes, name


def test_printable_ascii_needs_no_coverage_table():
    """`printable` answers printable ASCII without reading coverage.json (lint's start-up): DejaVu Sans has
    every one of those characters, and the answer is the table's."""
    for char in map(chr, range(0x20, 0x7F)):
        assert fonts.has("DejaVuSans.ttf", char), char
        assert fonts.printable(char)


def test_every_bundled_font_has_its_licence():
    names = {p.name for p in fonts.FONT_DIR.iterdir()}
    assert {"LICENSE-DejaVu.txt", "LICENSE-Noto.txt", "LICENSE-Droid.txt", "LICENSE-Unifont.txt"} <= names
    assert "SIL Open Font License" in (fonts.FONT_DIR / "LICENSE-Noto.txt").read_text(encoding="utf-8")
    assert "Apache License" in (fonts.FONT_DIR / "LICENSE-Droid.txt").read_text(encoding="utf-8")
