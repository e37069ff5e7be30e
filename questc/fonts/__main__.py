"""python -m questc.fonts: rewrite coverage.json from the font files; --check: exit 1 if it differs."""

from __future__ import annotations

import sys

from questc.fonts import COVERAGE, coverage_json

text = coverage_json()
if "--check" in sys.argv[1:]:
    if COVERAGE.read_text(encoding="utf-8") != text:
        sys.exit(f"{COVERAGE} is not what the font files cover: run `python -m questc.fonts`")
else:
    COVERAGE.write_text(text, encoding="utf-8")
    print(f"wrote {COVERAGE}")
