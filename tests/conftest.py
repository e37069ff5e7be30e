"""Shared test set-up: where the fixtures and the corpora are; `tests/` on the import path.

The repository tests itself: what the tests read is in it. tests/corpus/acceptance is a
copy of the acceptance cases (quests with the diagnostics they must and must not give)
and tests/corpus/SECOND-EDITION-TILES.md of the tile data, both from the project's
shared folder. Only the tests that hold the repository to the shared contract itself
(the spec's code list, the copies still being the shared files) read ../shared beside the
repository: without it they skip, locally; under CI (`CI=true`) a missing ../shared fails
the whole run at once, so those tests can never quietly not run.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
SHARED = REPO.parent / "shared"
CORPUS = TESTS / "corpus"
ACCEPTANCE = CORPUS / "acceptance"  # the repository's copy of the acceptance cases
SHARED_ACCEPTANCE = SHARED / "acceptance" / "cases"
TILES_DATA = CORPUS / "SECOND-EDITION-TILES.md"  # the repository's copy of the tile data
if str(TESTS) not in sys.path:
    sys.path.insert(0, str(TESTS))

needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"{SHARED} (the shared acceptance corpus) is absent")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: a test of more than about 0.3 s of CPU (every quest built, a questc "
        "process, a browser, a fuzz or property run); run by default, -m 'not slow' skips it "
        "(CONTRIBUTING.md)",
    )
    if os.environ.get("CI") == "true" and not SHARED_ACCEPTANCE.is_dir():
        raise pytest.UsageError(
            f"CI=true but the shared acceptance corpus {SHARED_ACCEPTANCE} is missing: "
            "check out ../shared beside the repository"
        )
