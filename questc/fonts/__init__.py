"""The bundled fonts: a style name (regular, bold, italic) in; the TTF file or a Pillow font out;
a text in, the runs of it each font draws out.

One set of font files (questc/fonts/README.md: DejaVu Sans first, then Noto script fonts,
Droid Sans Fallback for Chinese and Japanese, GNU Unifont as the last resort) serves the
PNG map, the map's text measurements and the PDF sheet (Typst is given FONT_DIR and no
system font, and falls back through the same files), so a sheet looks and measures the
same on every machine, in any script. `printable(char)` says whether a character can be
printed at all (lint's Q510 asks it before anything is built). Pillow is imported inside
the functions that need it, so importing this module costs nothing on the lint path. It sits
below the map drawing (questc.draw) and the printed outputs (questc.emit), which both read it.

    python -m questc.fonts           # rewrite questc/fonts/coverage.json (needs fontTools)
    python -m questc.fonts --check   # exit 1 if it is not what the font files cover
"""

from __future__ import annotations

import bisect
import unicodedata
from functools import cache, lru_cache
from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent
COVERAGE = FONT_DIR / "coverage.json"

# style -> file under questc/fonts/
FILES = {
    "regular": "DejaVuSans.ttf",
    "bold": "DejaVuSans-Bold.ttf",
    "italic": "DejaVuSans-Oblique.ttf",
}


def fallback_files() -> list[str]:
    """The fonts after the style's own, in the order a character is looked for in them: the Noto
    script fonts (by name), Droid Sans Fallback, then Unifont and Unifont Upper."""
    noto = sorted(p.name for p in FONT_DIR.glob("Noto*.ttf"))
    return noto + ["DroidSansFallbackFull.ttf", "unifont.otf", "unifont_upper.otf"]


@lru_cache(maxsize=1)
def _coverage() -> dict[str, tuple[list[int], list[int]]]:
    """file -> (range starts, range ends) of the characters it has, from coverage.json."""
    import json

    table = json.loads(COVERAGE.read_text(encoding="utf-8"))
    return {name: ([a for a, _ in ranges], [b for _, b in ranges]) for name, ranges in table.items()}


def has(file: str, char: str) -> bool:
    """Does the bundled font `file` have a glyph for `char`?"""
    found = _coverage().get(file)
    if found is None:
        return False
    starts, ends = found
    code = ord(char)
    i = bisect.bisect_right(starts, code) - 1
    return i >= 0 and code <= ends[i]


def invisible(char: str) -> bool:
    """Characters that draw nothing and need no glyph: spaces and line breaks, joiners, direction
    marks, variation selectors (shaping consumes them)."""
    return (
        char in " \n\t"
        or unicodedata.category(char) in ("Cf", "Zs", "Zl", "Zp")
        or (0xFE00 <= ord(char) <= 0xFE0F or 0xE0100 <= ord(char) <= 0xE01EF)
    )


@lru_cache(maxsize=8192)
def font_for(char: str, style: str = "regular") -> str | None:
    """The first bundled font, the style's own first, that has `char`; None when none has it."""
    for file in (FILES.get(style, FILES["regular"]), *fallback_files()):
        if has(file, char):
            return file
    return None


def printable(char: str) -> bool:
    """Can questc print this character? Not a control character, and some bundled font has it."""
    if char in "\n\t" or " " <= char <= "~":
        return True  # printable ASCII: DejaVu Sans has it all (tested), no need to read the coverage
    if unicodedata.category(char) in ("Cc", "Cs", "Co", "Cn"):
        return False  # control, surrogate, private use, unassigned (noncharacters among them)
    return invisible(char) or font_for(char) is not None


def runs(text: str, style: str = "regular") -> list[tuple[str, str]]:
    """A text in; (piece, font file) runs out, each piece drawn with the font that has it (an
    invisible character, or one no font has, goes with the run before it)."""
    out: list[tuple[str, str]] = []
    own = FILES.get(style, FILES["regular"])
    for char in text:
        file = (out[-1][1] if out else own) if invisible(char) else (font_for(char, style) or own)
        if out and out[-1][1] == file:
            out[-1] = (out[-1][0] + char, file)
        else:
            out.append((char, file))
    return out


def font_path(style: str = "regular") -> Path:
    """A style ('regular', 'bold', 'italic') in; the path of its bundled TTF out."""
    try:
        path = FONT_DIR / FILES[style]
    except KeyError:
        raise ValueError(f"unknown font style {style!r}; one of {', '.join(FILES)}") from None
    if not path.is_file():
        raise FileNotFoundError(f"the bundled font {path.name} is missing from this installation")
    return path


@cache
def pillow_font(size: int, style: str = "regular", file: str | None = None):
    """A pixel size and a style (or a bundled font `file`, from `runs`) in; a Pillow FreeTypeFont
    out (cached).

    The BASIC layout engine is forced: with libraqm present Pillow would shape text
    differently, and the PNG would depend on what the machine has installed.
    """
    from PIL import ImageFont

    path = font_path(style) if file is None or file == FILES.get(style) else FONT_DIR / file
    return ImageFont.truetype(str(path), max(1, int(size)), layout_engine=ImageFont.Layout.BASIC)


def coverage_json() -> str:
    """coverage.json's text, made from the font files (fontTools: a development tool, not a dependency)."""
    import json

    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]   # fontTools ships no types

    table = {}
    for file in [*FILES.values(), *fallback_files()]:
        codes = sorted(TTFont(FONT_DIR / file, lazy=True).getBestCmap())
        ranges: list[list[int]] = []
        for code in codes:
            if ranges and code == ranges[-1][1] + 1:
                ranges[-1][1] = code
            else:
                ranges.append([code, code])
        table[file] = ranges
    return json.dumps(table, separators=(",", ":")) + "\n"
