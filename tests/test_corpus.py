"""The repository tests itself: the corpora its tests read are in tests/corpus, copied from the
project's shared folder, and these tests hold the copies to the shared files where that folder
is beside the repository (always under CI=true, where conftest makes a missing one fail)."""

from __future__ import annotations

import pytest
from conftest import ACCEPTANCE, REPO, SHARED, SHARED_ACCEPTANCE, TILES_DATA, needs_shared


def test_the_corpus_is_in_the_repository():
    cases = sorted(p.name for p in ACCEPTANCE.iterdir())
    assert len([c for c in cases if c.endswith(".quest")]) >= 20 and "los.txt" in cases
    assert TILES_DATA.is_file() and "## 1A" in TILES_DATA.read_text(encoding="utf-8")
    assert REPO in ACCEPTANCE.parents


@needs_shared
@pytest.mark.parametrize(
    "name", sorted(p.name for p in SHARED_ACCEPTANCE.iterdir()) if SHARED_ACCEPTANCE.is_dir() else []
)
def test_the_acceptance_copy_is_the_shared_corpus(name):
    """A case added to or changed in ../shared/acceptance must be copied here too (cp -r)."""
    assert (ACCEPTANCE / name).read_bytes() == (SHARED_ACCEPTANCE / name).read_bytes(), (
        f"tests/corpus/acceptance/{name} differs from {SHARED_ACCEPTANCE / name}: copy it over"
    )


@needs_shared
def test_the_copies_hold_nothing_the_shared_folder_lacks():
    assert {p.name for p in ACCEPTANCE.iterdir()} == {p.name for p in SHARED_ACCEPTANCE.iterdir()}
    assert TILES_DATA.read_bytes() == (SHARED / "rules" / "SECOND-EDITION-TILES.md").read_bytes()
