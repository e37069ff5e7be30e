"""Shared test set-up: paths of the fixture folders; `tests/` on the import path for `helpers`."""
from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))
