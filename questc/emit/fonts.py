"""The bundled fonts: a style name (regular, bold, italic) in; the TTF file, a Pillow font or a reportlab font name out.

One set of TrueType files (DejaVu Sans, Bitstream Vera licence, see
questc/fonts/LICENSE-DejaVu.txt) serves both the PNG map and the PDF sheet, so a
sheet looks and measures the same on every machine: no system font is ever used.
Pillow and reportlab are imported inside the functions that need them, so importing
this module costs nothing on the lint path.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent.parent / "fonts"

# style -> file under questc/fonts/
FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
}

# The names the fonts are registered under in reportlab; paragraph markup <b>/<i>
# maps onto them through the family registered in `register_reportlab`.
PDF_NAMES = {"regular": "QuestSans", "bold": "QuestSans-Bold", "italic": "QuestSans-Italic"}


def font_path(style: str = "regular") -> Path:
    """A style ('regular', 'bold', 'italic') in; the path of its bundled TTF out."""
    try:
        path = FONT_DIR / FILES[style]
    except KeyError:
        raise ValueError(f"unknown font style {style!r}; one of {', '.join(FILES)}") from None
    if not path.is_file():
        raise FileNotFoundError(f"the bundled font {path.name} is missing from this installation")
    return path


@lru_cache(maxsize=None)
def pillow_font(size: int, style: str = "regular"):
    """A pixel size and a style in; a Pillow FreeTypeFont out (cached).

    The BASIC layout engine is forced: with libraqm present Pillow would shape text
    differently, and the PNG would depend on what the machine has installed.
    """
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(style)), max(1, int(size)),
                              layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=None)
def register_reportlab() -> dict[str, str]:
    """Register the bundled fonts with reportlab once; return style -> registered font name.

    The family registration lets Paragraph markup use <b> and <i> with these fonts.
    """
    from reportlab.lib.fonts import addMapping
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    for style, name in PDF_NAMES.items():
        pdfmetrics.registerFont(TTFont(name, str(font_path(style))))
    regular, bold, italic = PDF_NAMES["regular"], PDF_NAMES["bold"], PDF_NAMES["italic"]
    # No bold-italic file is bundled: bold stands in for it.
    addMapping(regular, 0, 0, regular)
    addMapping(regular, 1, 0, bold)
    addMapping(regular, 0, 1, italic)
    addMapping(regular, 1, 1, bold)
    return dict(PDF_NAMES)
