"""Shared test set-up: where the fixtures and the shared acceptance corpus are; `tests/` on the import path.

The acceptance corpus and the contract live in ../shared beside the repository (as CI
checks it out). Without it, the tests that read it skip, locally; under CI (`CI=true`)
a missing ../shared fails the whole run at once, so those tests can never quietly not run.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED = REPO.parent / "shared"
ACCEPTANCE = SHARED / "acceptance" / "cases"
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} (the shared acceptance corpus) is absent")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: a long property or fuzz test (run by default; -m 'not slow' skips)")
    if os.environ.get("CI") == "true" and not ACCEPTANCE.is_dir():
        raise pytest.UsageError(f"CI=true but the acceptance corpus {ACCEPTANCE} is missing: "
                                "check out ../shared beside the repository")
