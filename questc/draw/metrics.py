"""Text measured with the bundled fonts (DejaVu Sans, and its fallbacks for other scripts), in points: the label placer sizes and places
labels with these figures, and both the SVG (set by the PDF engine in the same font) and the PNG
(Pillow, same font file) print the text that wide."""

from __future__ import annotations

from functools import lru_cache

# DejaVu Sans, per point of size: the height of a capital and the depth of a descender.
CAP = 0.73
ASCENT = 0.76
DESCENT = 0.24
_REFERENCE = 200  # measure at 200 px, scale down: integer pixel sizes would round small text


@lru_cache(maxsize=4096)
def _width_at_reference(text: str, weight: str) -> float:
    from questc.fonts import pillow_font, runs

    style = weight if weight in ("bold", "italic") else "regular"
    # Each run in the font that draws it (other scripts fall back to other bundled fonts).
    return sum(pillow_font(_REFERENCE, style, file).getlength(piece) for piece, file in runs(text, style))


def text_width(text: str, size: float, weight: str = "regular") -> float:
    """A line of text, its size in points and weight in; its advance width in points out."""
    return _width_at_reference(text, weight) * size / _REFERENCE


def text_box(
    x: float, y: float, text: str, size: float, weight: str = "regular", anchor: str = "middle"
) -> tuple[float, float, float, float]:
    """A Text's baseline point and anchor in; the box its letters fill (x0, y0, x1, y1) out."""
    width = text_width(text, size, weight)
    x0 = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
    return (x0, y - ASCENT * size, x0 + width, y + DESCENT * size)


def baseline_for_middle(cy: float, size: float) -> float:
    """The baseline that puts the middle of a capital at height cy."""
    return cy + CAP * size / 2


def shortened(text: str, width: float, size: float, weight: str = "regular") -> str:
    """A line of text in; the same, cut with an ellipsis so it is at most `width` points wide, out.
    The map's words (a title, a label, a legend key) are short by nature; a name of thousands
    of characters is printed whole in the sheet's text, and on the map only this far."""
    if width <= 0 or text_width(text, size, weight) <= width:
        return text
    low, high = 0, min(len(text), int(width / max(size * 0.2, 0.01)) + 1)  # no glyph is narrower than 0.2 em
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(text[:middle].rstrip() + "\u2026", size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "\u2026"
