"""The built-in catalog's parsed documents are cached: a warm run does not import PyYAML."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from questc.catalog import load
from questc.paths import cache_dir

REPO = Path(__file__).resolve().parent.parent


def _run(code: str, cache: Path) -> str:
    env = {"PYTHONPATH": str(REPO), "PATH": "", "XDG_CACHE_HOME": str(cache)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO,
                          env=env, check=True)
    return done.stdout.strip()


CODE = ("import sys\nfrom questc.catalog.load import builtin_catalog\n"
        "print(len(builtin_catalog().monsters) > 0, 'yaml' in sys.modules)")
# A warm run needs none of these either: the cache's key is zlib's CRC-32 and Adler-32.
LEAN = ("import sys\nfrom questc.catalog.load import builtin_catalog\nbuiltin_catalog()\n"
        "print(sorted(m for m in ('yaml', 'hashlib', 'difflib') if m in sys.modules))")


def test_warm_run_does_not_import_yaml(tmp_path):
    assert _run(CODE, tmp_path) == "True True"          # cold: parses the YAML, writes the cache
    written = list((tmp_path / "questc").glob("catalog-*.json"))
    assert len(written) == 1
    assert _run(CODE, tmp_path) == "True False"         # warm: no PyYAML
    assert _run(LEAN, tmp_path) == "[]"
    written[0].write_bytes(b"\x00not json")             # a broken cache is ignored and rewritten
    assert _run(CODE, tmp_path) == "True True"
    assert _run(CODE, tmp_path) == "True False"


def test_cached_documents_equal_the_yaml(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    files = load.builtin_files()
    parsed = [load.read_yaml(path) for path in files]
    assert load._builtin_documents(files) == parsed     # cold
    assert load._builtin_documents(files) == parsed     # from the cache
    assert cache_dir() == tmp_path / "questc"


def test_an_edited_card_file_is_a_new_key(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    card = tmp_path / "base.yaml"
    card.write_text("monsters: {}\n", encoding="utf-8")
    assert load._builtin_documents([card]) == [{"monsters": {}}]
    card.write_text("pieces: {}\n", encoding="utf-8")
    assert load._builtin_documents([card]) == [{"pieces": {}}]
    assert len(list((tmp_path / "cache" / "questc").glob("catalog-*.json"))) == 1   # the stale one is gone


def test_an_unwritable_cache_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))  # a file where the folder would go
    files = load.builtin_files()
    assert load._builtin_documents(files) == [load.read_yaml(path) for path in files]
