"""Fill patterns (templates/sheet/legend.yaml names them) as shapes on a unit tile.

A pattern is a list of items on the square 0..1 (one map cell), drawn in the obstacle's ink.
The SVG writer turns it into an SVG <pattern> one cell wide; the Pillow painter draws the same
shapes onto a mask a cell wide. Both clip at the tile's edge, so the two outputs agree.
"""

from __future__ import annotations

import math
from functools import cache

from questc.draw.items import Ellipse, Line, Paint, Polygon

Shape = Ellipse | Line | Polygon

NAMES = (
    "solid",
    "hatch",
    "crosshatch",
    "dots",
    "stones",
    "waves",
    "rings",
    "bricks",
    "stripes",
    "slashes",
    "darts",
    "chevrons",
    "cross",
)


def _stroke(width: float) -> Paint:
    return Paint(stroke="ink", width=width)


_FILL = Paint(fill="ink")


@cache
def pattern(name: str) -> tuple[Shape, ...]:
    """A pattern name in; its items on the unit tile out (colour "ink": the obstacle's ink). Unknown
    names and "solid" draw nothing."""
    w = 0.025
    step = 1 / 7
    out: list[Shape] = []
    if name in ("hatch", "crosshatch"):
        for k in range(-7, 15):
            x = k * step
            out.append(Line(((x, 0.0), (x + 1, 1.0)), _stroke(w)))
            if name == "crosshatch":
                out.append(Line(((x, 1.0), (x + 1, 0.0)), _stroke(w)))
    elif name == "dots":
        r = 0.036
        for j in range(7):
            y = step / 2 + j * step
            for i in range(8):
                x = step / 2 + (step / 2 if j % 2 else 0) + i * step
                if x < 1:
                    out.append(Ellipse(x, y, r, r, _FILL))
    elif name == "stones":
        for fx, fy, fr in (
            (0.2, 0.25, 0.11),
            (0.55, 0.18, 0.09),
            (0.8, 0.35, 0.1),
            (0.35, 0.55, 0.13),
            (0.7, 0.7, 0.12),
            (0.18, 0.8, 0.09),
            (0.5, 0.88, 0.07),
            (0.88, 0.9, 0.06),
        ):
            out.append(Ellipse(fx, fy, fr, fr * 0.8, _stroke(0.02)))
    elif name == "waves":
        for j in range(7):
            y0 = step / 2 + j * step
            points = tuple((i / 40, y0 + math.sin(i / 40 * 4 * math.pi) * step * 0.22) for i in range(41))
            out.append(Line(points, _stroke(w)))
    elif name == "rings":
        for k in range(1, 5):
            m = k * 0.1
            out.append(Line(((m, m), (1 - m, m), (1 - m, 1 - m), (m, 1 - m), (m, m)), _stroke(w)))
    elif name == "bricks":
        for j in range(8):
            y = j * step
            out.append(Line(((0.0, y), (1.0, y)), _stroke(w)))
            offset = step if j % 2 else 0
            x = offset
            while x < 1:
                out.append(Line(((x, y), (x, y + step)), _stroke(w)))
                x += step * 2
    elif name == "stripes":
        for j in range(7):
            y = step / 2 + j * step
            out.append(Line(((0.1, y), (0.9, y)), _stroke(w)))
    elif name == "slashes":
        for k in range(3):
            x = 0.2 + 0.3 * k
            out.append(Line(((x - 0.12, 0.85), (x + 0.12, 0.15)), _stroke(0.05)))
    elif name == "darts":
        for j in range(7):
            y = step / 2 + j * step
            for i in range(8):
                x = step / 2 + (step / 2 if j % 2 else 0) + i * step
                if x < 1:
                    out.append(
                        Polygon(
                            ((x, y - step * 0.3), (x + step * 0.15, y + step * 0.2), (x - step * 0.15, y + step * 0.2)),
                            _FILL,
                        )
                    )
    elif name == "chevrons":
        for j in range(7):
            y = step / 2 + j * step
            out.append(Line(((0.15, y + step * 0.3), (0.5, y - step * 0.1), (0.85, y + step * 0.3)), _stroke(w * 2)))
    elif name == "cross":
        out.append(Line(((0.5, 0.18), (0.5, 0.82)), _stroke(0.07)))
        out.append(Line(((0.3, 0.38), (0.7, 0.38)), _stroke(0.07)))
    return tuple(out)
