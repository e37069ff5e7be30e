"""`questc lint` of a sound quest imports only what it uses: modules needed for a rare path
(a configuration file, a misspelt name, a content pack) are imported on that path."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from questc.config import find_config

pytestmark = pytest.mark.slow  # each starts a fresh Python to see what it imports
REPO = Path(__file__).resolve().parent.parent
QUEST = REPO / "quests" / "chandlers_cellar.quest"

# Each costs a millisecond or more to import (the renderers and the language server far
# more) and a plain lint does not need it. (The
# built-in catalog's own needs, without json or hashlib, are in test_catalog_cache.py.)
DEFERRED = ("tomllib", "difflib", "yaml", "jsonschema", "PIL", "reportlab", "typst", "pygls", "pyvips", "json")

LINT = """
import sys
from questc.cli import main
try:
    main(sys.argv[1:])
except SystemExit as done:
    print("exit", done.code)
print(sorted(m for m in {deferred!r} if m in sys.modules))
"""


def _lint(args, cwd: Path, cache: Path) -> list[str]:
    env = {"PYTHONPATH": str(REPO), "PATH": "", "XDG_CACHE_HOME": str(cache), "NO_COLOR": "1"}
    code = LINT.format(deferred=DEFERRED)
    done = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd, env=env, check=True
    )
    return done.stdout.strip().splitlines()


def test_a_plain_lint_imports_none_of_the_deferred_modules(tmp_path):
    if find_config(tmp_path) is not None:  # a configuration above the temporary folder is read
        pytest.skip("a questc configuration file above the temporary folder")
    cache = tmp_path / "cache"
    _lint(["lint", str(QUEST)], tmp_path, cache)  # cold: fills the catalog cache
    lines = _lint(["lint", str(QUEST)], tmp_path, cache)
    assert lines[-2:] == ["exit 0", "[]"], lines


def test_the_rare_paths_still_import_what_they_need(tmp_path):
    """A configuration file (tomllib), a misspelt key (difflib) and a misspelt monster (difflib)."""
    (tmp_path / "questc.toml").write_text("ignroe = ['Q3']\n", encoding="utf-8")
    lines = _lint(["lint", str(QUEST)], tmp_path, tmp_path / "cache")
    assert lines[-2:] == ["exit 2", "['difflib', 'tomllib']"], lines
    (tmp_path / "questc.toml").unlink()
    quest = tmp_path / "misspelt.quest"
    quest.write_text(
        QUEST.read_text(encoding="utf-8").replace("monster razorwing", "monster razorwnig"), encoding="utf-8"
    )
    _lint(["lint", str(quest)], tmp_path, tmp_path / "cache")  # cold: fills the catalog cache
    lines = _lint(["lint", str(quest)], tmp_path, tmp_path / "cache")
    assert "   = help: did you mean `razorwing`?" in lines
    assert lines[-2:] == ["exit 1", "['difflib']"], lines


def test_the_console_entry_freezes_the_collector_only_on_the_way_out(tmp_path):
    """run() (the `questc` script, `python -m questc`) exits like main(), with the same
    status and output, collects less often (the run's objects live until it ends), and
    leaves the collector frozen so the interpreter's last collection skips the run's
    objects; main() itself leaves the collector as it was."""
    code = (
        "import gc, sys\n"
        "from questc.cli import main, run\n"
        "entry = run if sys.argv[1] == 'run' else main\n"
        "try:\n"
        "    entry(sys.argv[2:])\n"
        "except SystemExit as done:\n"
        "    print('exit', done.code, 'frozen', gc.get_freeze_count() > 0, 'every', gc.get_threshold()[0])\n"
    )
    env = {"PYTHONPATH": str(REPO), "PATH": "", "XDG_CACHE_HOME": str(tmp_path), "NO_COLOR": "1"}
    bad = tmp_path / "bad.quest"
    bad.write_text('quest "Q" {\n  conquest x\n}\n', encoding="utf-8")
    for quest, status in ((QUEST, 0), (bad, 1)):
        outputs = {}
        for entry in ("run", "main"):
            done = subprocess.run(
                [sys.executable, "-c", code, entry, "lint", str(quest)],
                capture_output=True,
                text=True,
                env=env,
                cwd=tmp_path,
            )
            outputs[entry] = done.stdout.splitlines()
        assert outputs["run"][-1] == f"exit {status} frozen True every 100000"
        assert outputs["main"][-1] == f"exit {status} frozen False every 700"
        assert outputs["run"][:-1] == outputs["main"][:-1] and outputs["run"][:-1]
