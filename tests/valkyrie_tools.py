"""What the Valkyrie tests share: Valkyrie's own loader and readers, built with Debian's mono from
../shared/engines/valkyrie, and what they print, read back.

`loader()` and `probe()` build once per run (about a second each). Without ../shared the
tests that need them skip (conftest fails a CI run at once); without `mcs` and `mono` they
skip too, except under CI=true, where they fail: .ci/run installs mono-mcs first.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from conftest import REPO, SHARED

VALKYRIE = SHARED / "engines" / "valkyrie"
CONTENT = VALKYRIE / "content" / "D2E" / "base"
FIXTURES = REPO / "tests" / "fixtures" / "valkyrie"
COMMUNITY = FIXTURES / "quests"  # the two CC0 community quests, copied
FIXTURE_CONTENT = FIXTURES / "content"  # Valkyrie's names, copied (Apache-2.0)


def _need_mono() -> None:
    if not VALKYRIE.is_dir():
        pytest.skip(f"{VALKYRIE} (Valkyrie's loader) is absent")
    missing = [tool for tool in ("mcs", "mono") if shutil.which(tool) is None]
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {' and '.join(missing)} missing: install Debian's mono-mcs (.ci/run does)")
        pytest.skip(f"{' and '.join(missing)} not installed (apt-get install mono-mcs)")


_BUILT: dict[str, Path] = {}


def loader() -> Path:
    """loadquest.exe, built by ../shared/engines/valkyrie/build.sh (skips or fails as above)."""
    _need_mono()
    if "loader" not in _BUILT:
        folder = Path(tempfile.mkdtemp(prefix="questc-valkyrie-"))
        done = subprocess.run(
            ["bash", str(VALKYRIE / "build.sh"), str(folder)], capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr
        _BUILT["loader"] = Path(done.stdout.strip())
    return _BUILT["loader"]


def probe() -> Path:
    """questc's probe of Valkyrie's INI and localization readers (tests/fixtures/valkyrie/ValkyrieProbe.cs)."""
    _need_mono()
    if "probe" not in _BUILT:
        folder = Path(tempfile.mkdtemp(prefix="questc-valkyrie-"))
        sources = [str(p) for p in sorted((VALKYRIE / "harness").glob("*.cs")) if p.name != "LoadQuest.cs"]
        sources += sorted(str(p) for p in (VALKYRIE / "src").rglob("*.cs"))
        done = subprocess.run(
            [
                "mcs",
                "-langversion:experimental",
                "-nowarn:0414,0169,0649,0219,0168,0162,0618",
                f"-out:{folder / 'probe.exe'}",
                str(FIXTURES / "ValkyrieProbe.cs"),
                *sources,
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout + done.stderr
        _BUILT["probe"] = folder / "probe.exe"
    return _BUILT["probe"]


def _unescape(field_: str) -> str:
    return re.sub(r"\\(.)", lambda m: {"t": "\t", "n": "\n", "r": "\r"}.get(m[1], m[1]), field_)


def run_probe(*args: str) -> list[list[str]]:
    done = subprocess.run(
        ["mono", str(probe()), *args], capture_output=True, text=True, timeout=300, encoding="utf-8", errors="replace"
    )
    assert done.returncode == 0, done.stderr
    return [[_unescape(f) for f in line.split("\t")] for line in done.stdout.split("\n") if line]


@dataclass
class Loaded:
    """What loadquest.exe printed about a quest folder."""

    code: int
    output: str
    tiles: list[tuple[str, str, tuple[float, float], int]] = field(default_factory=list)  # name, side, at, rotation
    doors: list[tuple[str, tuple[float, float], int]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    problems: int = -1

    @property
    def tile_sides(self) -> list[str]:
        return sorted(side for _, side, _, _ in self.tiles)


def load(folder: Path, content: bool = True) -> Loaded:
    """Load a quest folder with Valkyrie's loader (checking names against its base game content)."""
    command = ["mono", str(loader()), str(Path(folder) / "quest.ini")]
    if content:
        command += ["--content", str(CONTENT)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    out = Loaded(done.returncode, done.stdout + done.stderr)
    for line in done.stdout.splitlines():
        if match := re.match(r"  tile (\S+) side=(\S+) at \(([-\d.E]+), ([-\d.E]+)\) rot=(-?\d+)", line):
            out.tiles.append((match[1], match[2], (float(match[3]), float(match[4])), int(match[5])))
        elif match := re.match(r"  door (\S+) at \(([-\d.E]+), ([-\d.E]+)\) rot=(-?\d+)", line):
            out.doors.append((match[1], (float(match[2]), float(match[3])), int(match[4])))
        elif match := re.match(r"components: \d+ \((.*)\)", line):
            out.counts = {k: int(v) for k, v in (part.split("=") for part in match[1].split(", ") if part)}
        elif match := re.match(r"problems=(\d+)", line):
            out.problems = int(match[1])
    return out


@cache
def community(name: str) -> Path:
    """A community quest's folder: the repository's copy (the same files as ../shared's)."""
    return COMMUNITY / name
