"""docs/printing.md and its pictures: every picture the page shows exists (a PNG that
docs/gen_printing_images.py draws), and every picture the script draws is shown."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "printing.md"


def _script():
    spec = importlib.util.spec_from_file_location("gen_printing_images", ROOT / "docs" / "gen_printing_images.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_picture_of_the_printing_page_exists_and_is_drawn_by_the_script():
    shown = re.findall(r"!\[[^\]]*\]\((images/printing/[^)]+)\)", PAGE.read_text(encoding="utf-8"))
    assert shown
    for path in shown:
        picture = ROOT / "docs" / path
        assert picture.is_file(), path
        assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", path
    drawn = {f"images/printing/{name}" for name in _script().PICTURES}
    assert set(shown) == drawn
