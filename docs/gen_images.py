"""Writes the maps in docs/images/ (the README's and printing.md's pictures) as questc draws them.

    python docs/gen_images.py           # draw them again
    python docs/gen_images.py --check   # exit 1 if one differs from what questc draws today

Each is a shipped quest's map at 40 pixels a square (questc.emit.png). After a change to the
drawing, run it, look at the pictures, and commit them; tests/test_png.py fails while they are
stale. (docs/images/preview.png is a screenshot of the browser, taken by hand: docs/preview.md.)
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
QUESTS = HERE.parent / "quests"
IMAGES = HERE / "images"
MAPS = ("three_seals", "burning_well")  # quests/<name>.quest -> docs/images/<name>.png
CELL = 40


def draw(name: str) -> bytes:
    """The map of quests/<name>.quest as PNG bytes."""
    from questc.api import check_file
    from questc.emit.png import render_png

    result = check_file(QUESTS / f"{name}.quest")
    if result.compiled is None or not result.buildable():
        raise SystemExit(f"quests/{name}.quest does not compile: run `questc lint quests/{name}.quest`")
    return render_png(result.compiled, cell=CELL)


def same_picture(a: bytes, b: bytes) -> bool:
    """The same pixels (PNG files of one picture may differ in their bytes between Pillow versions)."""
    from PIL import Image

    first, second = (Image.open(io.BytesIO(data)).convert("RGB") for data in (a, b))
    return first.size == second.size and first.tobytes() == second.tobytes()


def main(argv: list[str]) -> int:
    stale = []
    for name in MAPS:
        target = IMAGES / f"{name}.png"
        data = draw(name)
        if "--check" in argv:
            if not target.exists() or not same_picture(target.read_bytes(), data):
                stale.append(target)
            continue
        target.write_bytes(data)
        print(f"wrote {target}")
    for target in stale:
        print(
            f"{target} is not what questc draws today: run `python docs/gen_images.py`, look at it, and commit it",
            file=sys.stderr,
        )
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
