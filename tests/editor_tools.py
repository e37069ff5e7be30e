"""What the editor tests need from outside Python: node and the VS Code extension's
node_modules (from `npm ci` in editors/vscode), Neovim, and questc's `server` command.

`.ci/run` installs the tools in CI. Without one, a test that needs it skips, saying how
to get it; under CI (`CI=true`) it fails instead, so these tests can never quietly not
run there. The server is part of questc: see `require_questc_server`.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
VSCODE = REPO / "editors" / "vscode"
NODE_MODULES = VSCODE / "node_modules"

# A quest with one mistake: `beastmen` for `beastman` on line 8, column 11.
TYPO = """\
quest "Typo" {
  conquest 3
}
piece R1 room_4x4 at 0,0
area A "Hall" start {
  pieces R1
  glyph at 0,0 active
  monster beastmen at 2,2
}
victory heroes when conquest >= 1
"""


def missing(why: str):
    """Skip the test, or fail it under CI."""
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {why} (.ci/run installs it)")
    pytest.skip(why)


def require_node_tools(*packages: str) -> str:
    """The path of `node`, once every package named is installed under editors/vscode."""
    node = shutil.which("node")
    absent = [p for p in packages if not (NODE_MODULES / p / "package.json").is_file()]
    if not node:
        missing("node is not installed")
    if absent:
        missing(f"{', '.join(absent)} not installed: run `npm ci` in {VSCODE}")
    return node


@cache
def _questc_server() -> str | None:
    questc = Path(sys.executable).with_name("questc")
    command = str(questc) if questc.exists() else shutil.which("questc")
    if command is None:
        return None
    done = subprocess.run([command, "server", "--help"], capture_output=True, text=True, timeout=60, check=False)
    return command if done.returncode == 0 else None


def require_questc_server() -> str:
    """The questc program of this environment, which must have the `server` command.

    A checkout without the server's package (questc/server) skips, even in CI: the
    editor set-ups are then there before the server they start. With the package, a
    questc whose `server` does not answer `--help` fails the test."""
    if importlib.util.find_spec("questc.server") is None:
        pytest.skip("this checkout has no language server yet (questc/server)")
    command = _questc_server()
    if command is None:
        pytest.fail(
            f"questc/server exists but `questc server --help` fails (questc: "
            f"{Path(sys.executable).with_name('questc')})"
        )
    return command


def nvim_version(nvim: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([nvim, "--version"], capture_output=True, text=True, timeout=30, check=False).stdout
    except OSError:
        return None
    m = re.match(r"NVIM v(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


@cache
def neovims() -> tuple[tuple[str, tuple[int, int]], ...]:
    """Every Neovim to try, with its version: `QUESTC_TEST_NVIM` (a `:`-separated list),
    else `nvim` on PATH."""
    listed = os.environ.get("QUESTC_TEST_NVIM")
    candidates = listed.split(os.pathsep) if listed else [shutil.which("nvim") or ""]
    found = []
    for nvim in filter(None, candidates):
        version = nvim_version(nvim)
        if version is not None and (nvim, version) not in found:
            found.append((nvim, version))
    return tuple(found)
