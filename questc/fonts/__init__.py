"""The bundled fonts: a style name (regular, bold, italic) in; the TTF file or a Pillow font out.

One set of TrueType files (DejaVu Sans, Bitstream Vera licence, see
questc/fonts/LICENSE-DejaVu.txt) serves the PNG map, the map's text measurements and
the PDF sheet (Typst is given FONT_DIR and no system font), so a sheet looks and
measures the same on every machine. Pillow is imported inside the function that needs
it, so importing this module costs nothing on the lint path. It sits below the map
drawing (questc.draw) and the printed outputs (questc.emit), which both read it.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent

# style -> file under questc/fonts/
FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
}

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
