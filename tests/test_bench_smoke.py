"""The benchmark script runs (on a tiny quest, one repeat): a smoke test, not a timing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each runs a benchmark script
ROOT = Path(__file__).resolve().parents[1]


def test_bench_quests_runs_on_a_tiny_size():
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "bench_quests.py"),
            "--sizes",
            "100",
            "--no-shipped",
            "--no-cold",
            "--no-render",
            "--repeat",
            "1",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert "generated_100.quest" in done.stdout


def test_bench_fuzz_runs_a_few_inputs():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "fuzz.py"), "--count", "12", "--render", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "inputs tried          12" in done.stdout and "internal errors       0" in done.stdout


def test_bench_densest_runs_on_a_small_map():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "densest.py"), "--cells", "300"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "build (json, png, pdf)   exit 0" in done.stdout and "generated.pdf" in done.stdout


def test_bench_server_runs_a_few_edits():
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "bench_server.py"),
            "--edits",
            "3",
            "--quests",
            "chandlers_cellar",
            "--trace",
            "--slow",
            "0",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "chandlers_cellar" in done.stdout and "median" in done.stdout
    assert "target under 30 ms: " in done.stdout
    # --trace --slow 0: every keystroke, with the server's account of it (the parse in part: p)
    assert "3 of 3 keystrokes over 0 ms" in done.stdout and " p " in done.stdout, done.stdout


def test_bench_editor_runs_a_few_edits():
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "bench_editor.py"),
            "--edits",
            "2",
            "--page-edits",
            "2",
            "--quick",
            "--quests",
            "chandlers_cellar",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    for words in ("keystroke to diagnostics", "keystroke to page", "cold start", "collector tuned"):
        assert words in done.stdout, done.stdout


def test_bench_valkyrie_runs_once():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "bench_valkyrie.py"), "--repeat", "1"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "lantern_road (2 encounters)" in done.stdout and "01_FirstBlood" in done.stdout


@pytest.mark.slow
def test_bench_outputs_runs_its_quick_campaign():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "outputs.py"), "--quick"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "breaches              0" in done.stdout
