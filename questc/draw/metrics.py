"""Text measured with the bundled font (DejaVu Sans), in points: the label placer sizes and places
labels with these figures, and both the SVG (set by the PDF engine in the same font) and the PNG
(Pillow, same font file) print the text that wide."""
from __future__ import annotations

from functools import lru_cache

# DejaVu Sans, per point of size: the height of a capital and the depth of a descender.
CAP = 0.73
ASCENT = 0.76
DESCENT = 0.24
_REFERENCE = 200      # measure at 200 px, scale down: integer pixel sizes would round small text


@lru_cache(maxsize=4096)
def _width_at_reference(text: str, weight: str) -> float:
    from questc.fonts import pillow_font

    return pillow_font(_REFERENCE, weight if weight in ("bold", "italic") else "regular").getlength(text)


def text_width(text: str, size: float, weight: str = "regular") -> float:
    """A line of text, its size in points and weight in; its advance width in points out."""
    return _width_at_reference(text, weight) * size / _REFERENCE


def text_box(x: float, y: float, text: str, size: float, weight: str = "regular",
             anchor: str = "middle") -> tuple[float, float, float, float]:
    """A Text's baseline point and anchor in; the box its letters fill (x0, y0, x1, y1) out."""
    width = text_width(text, size, weight)
    x0 = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
    return (x0, y - ASCENT * size, x0 + width, y + DESCENT * size)


def baseline_for_middle(cy: float, size: float) -> float:
    """The baseline that puts the middle of a capital at height cy."""
    return cy + CAP * size / 2
