"""The built-in catalog's parsed documents are cached: a warm run does not import PyYAML."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from questc.catalog import load
from questc.catalog.cache import cached_documents
from questc.paths import cache_dir

REPO = Path(__file__).resolve().parent.parent


def _run(code: str, cache: Path) -> str:
    env = {"PYTHONPATH": str(REPO), "PATH": "", "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, check=True)
    return done.stdout.strip()


CODE = (
    "import sys\nfrom questc.catalog.load import builtin_catalog\n"
    "print(len(builtin_catalog().monsters) > 0, 'yaml' in sys.modules)"
)
# A warm run needs none of these either: the cache is marshal (built in), its key zlib's.
LEAN = (
    "import sys\nfrom questc.catalog.load import builtin_catalog\nbuiltin_catalog()\n"
    "print(sorted(m for m in ('yaml', 'json', 'hashlib', 'difflib') if m in sys.modules))"
)


@pytest.mark.slow
def test_warm_run_does_not_import_yaml(tmp_path):
    assert _run(CODE, tmp_path) == "True True"  # cold: parses the YAML, writes the cache
    written = list((tmp_path / "questc").glob("catalog-*"))
    assert len(written) == 1 and written[0].suffix == ".marshal"
    assert _run(CODE, tmp_path) == "True False"  # warm: no PyYAML
    assert _run(LEAN, tmp_path) == "[]"
    written[0].write_bytes(b"\x00not marshal")  # a broken cache is ignored and rewritten
    assert _run(CODE, tmp_path) == "True True"
    assert _run(CODE, tmp_path) == "True False"
    good = written[0].read_bytes()
    written[0].write_bytes(good[: len(good) // 2])  # truncated
    assert _run(CODE, tmp_path) == "True True"
    assert written[0].read_bytes() == good


def test_cached_documents_equal_the_yaml(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    files = load.builtin_files()
    parsed = [load.read_yaml(path) for path in files]
    assert cached_documents(files, load.read_yaml) == parsed  # cold
    assert cached_documents(files, load.read_yaml) == parsed  # from the cache
    assert cache_dir() == tmp_path / "questc"


def test_an_edited_card_file_is_a_new_key_and_both_are_kept(tmp_path, monkeypatch):
    """Two versions of the cards (two installs of questc on one account) each keep their entry:
    neither rewrites the other's on every run."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    card = tmp_path / "base.yaml"
    card.write_text("monsters: {}\n", encoding="utf-8")
    assert cached_documents([card], load.read_yaml) == [{"monsters": {}}]
    card.write_text("pieces: {}\n", encoding="utf-8")
    assert cached_documents([card], load.read_yaml) == [{"pieces": {}}]
    entries = sorted((tmp_path / "cache" / "questc").glob("catalog-*"))
    assert len(entries) == 2
    written = {p: p.stat().st_mtime_ns for p in entries}
    calls = []

    def parse(path):
        calls.append(path)
        return load.read_yaml(path)

    for text, document in [("monsters: {}\n", {"monsters": {}}), ("pieces: {}\n", {"pieces": {}})] * 2:
        card.write_text(text, encoding="utf-8")
        assert cached_documents([card], parse) == [document]
    assert calls == []  # read from the cache, each time
    assert {p: p.stat().st_mtime_ns for p in entries} == written  # and never written again


def test_the_cached_versions_are_bounded(tmp_path, monkeypatch):
    from questc.catalog.cache import CATALOGS_KEPT

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    card = tmp_path / "base.yaml"
    for version in range(CATALOGS_KEPT + 3):
        card.write_text(f"note: v{version}\n", encoding="utf-8")
        assert cached_documents([card], load.read_yaml) == [{"note": f"v{version}"}]
    entries = list((tmp_path / "cache" / "questc").glob("catalog-*"))
    assert len(entries) == CATALOGS_KEPT
    kept = {marshal_note(p) for p in entries}
    assert kept == {f"v{version}" for version in range(3, CATALOGS_KEPT + 3)}  # the newest


def marshal_note(entry: Path) -> str:
    import marshal

    return marshal.loads(entry.read_bytes()[4:])[0]["note"]


def test_a_corrupt_cache_is_never_unmarshalled(tmp_path, monkeypatch):
    """The cached bytes carry a CRC-32, checked before marshal sees them."""
    import marshal
    import zlib

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    files = load.builtin_files()
    parsed = [load.read_yaml(path) for path in files]
    assert cached_documents(files, load.read_yaml) == parsed
    (written,) = (tmp_path / "questc").glob("catalog-*")
    good = written.read_bytes()
    flipped = bytearray(good)
    flipped[len(flipped) // 2] ^= 0x01  # one bit flipped in the payload
    written.write_bytes(bytes(flipped))
    assert cached_documents(files, load.read_yaml) == parsed  # parsed again and rewritten
    assert written.read_bytes() == good
    # Well-formed marshal data under a CRC that does not match it is not used.
    wrong = marshal.dumps([{"wrong": 1}] * len(files), 4)
    written.write_bytes((zlib.crc32(wrong) ^ 1).to_bytes(4, "big") + wrong)
    assert cached_documents(files, load.read_yaml) == parsed
    assert written.read_bytes() == good


def test_an_older_json_cache_is_not_read(tmp_path, monkeypatch):
    """An entry of an older questc (json) is never read; it counts among the entries kept."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    folder = tmp_path / "questc"
    folder.mkdir()
    (folder / "catalog-ff79516b37526956ca8fb65996f9b8b7.json").write_text("[]", encoding="utf-8")
    files = load.builtin_files()
    assert cached_documents(files, load.read_yaml) == [load.read_yaml(path) for path in files]
    assert sorted(p.suffix for p in folder.glob("catalog-*")) == [".json", ".marshal"]


def test_documents_marshal_cannot_give_back_are_not_cached(tmp_path, monkeypatch):
    import datetime
    import math

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    dated = tmp_path / "dated.yaml"
    dated.write_text("set: base\nnote: 2024-01-31\n", encoding="utf-8")  # a date: marshal refuses it
    assert cached_documents([dated], load.read_yaml) == [{"set": "base", "note": datetime.date(2024, 1, 31)}]
    nan = tmp_path / "nan.yaml"
    nan.write_text("set: base\nratio: .nan\n", encoding="utf-8")  # NaN: not equal to itself
    (document,) = cached_documents([nan], load.read_yaml)
    assert math.isnan(document["ratio"])
    assert not list((tmp_path / "cache").glob("questc/catalog-*"))


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file where the folder would go
    files = load.builtin_files()
    assert cached_documents(files, load.read_yaml) == [load.read_yaml(path) for path in files]


def test_a_pack_that_passed_the_schema_is_not_checked_again_one_that_failed_is(tmp_path, monkeypatch):
    from questc.catalog.cache import known_valid

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    good = {"set": "lowmere", "obstacles": {"tidepool": {"blocks_movement": False, "blocks_sight": False}}}
    bad = {"set": "lowmere", "obstacles": {"tidepool": {"blocks_movement": "maybe"}}}
    checked = []

    def check(document):
        checked.append(document)
        return load.schema_problems(document)

    assert known_valid(good, check) == [] and known_valid(good, check) == []
    assert checked == [good]  # remembered after passing once
    assert known_valid(bad, check) and known_valid(bad, check)
    assert checked == [good, bad, bad]  # problems: checked every time
    changed = {"set": "lowmere", "obstacles": {"tidepool": {"blocks_movement": True, "blocks_sight": False}}}
    assert known_valid(changed, check) == [] and checked[-1] == changed  # another document: checked
    assert len(list((tmp_path / "questc").glob("pack-valid-*"))) == 2
