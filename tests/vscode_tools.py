"""The VS Code extension's node tools (editors/vscode/node_modules, from `npm ci`) for the tests.

`.ci/run` installs them when npm is present. Without them a test that needs them skips,
with the command that installs them; under CI (`CI=true`) it fails instead, so the
extension's tests can never quietly not run there.
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

VSCODE = Path(__file__).resolve().parent.parent / "editors" / "vscode"
NODE_MODULES = VSCODE / "node_modules"


def require_node_tools(*packages: str) -> str:
    """The path of `node`, once every package named is installed under editors/vscode; skips (or fails in CI) otherwise."""
    node = shutil.which("node")
    missing = [p for p in packages if not (NODE_MODULES / p / "package.json").is_file()]
    if node and not missing:
        return node
    why = ("node is not installed" if not node else
           f"{', '.join(missing)} not installed: run `npm ci` in {VSCODE}")
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {why} (.ci/run runs npm ci when npm is present)")
    pytest.skip(why)
