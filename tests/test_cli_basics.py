"""The command line's basics: exit codes, `explain`, `lint --format json` as INTERFACE.md
says, the acceptance syntax cases, `python -m questc`, and colour only on a terminal."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE

from questc.cli import cli
from questc.rules import descriptor, descriptors

HERE = Path(__file__).parent
CLEAN = HERE / "fixtures" / "syntax" / "language_example.quest"
ERRORS = HERE / "fixtures" / "syntax" / "errors"


def run(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A folder with a clean quest and a broken one, as the current folder."""
    (tmp_path / "quests" / "deep").mkdir(parents=True)
    shutil.copy(CLEAN, tmp_path / "quests" / "clean.quest")
    shutil.copy(ERRORS / "q004_duplicate_field.quest", tmp_path / "quests" / "deep" / "twice.quest")
    (tmp_path / "quests" / "notes.txt").write_text("not a quest", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


# ---- exit codes ----------------------------------------------------------------------------


def test_clean_quest_exits_0(project):
    result = run("lint", "quests/clean.quest")
    assert result.exit_code == 0, result.output
    assert result.output.rstrip().endswith("0 errors, 0 warnings in 1 file")
    assert "error[" not in result.output


def test_errors_exit_1(project):
    result = run("lint", "quests/deep/twice.quest")
    assert result.exit_code == 1
    assert "error[Q004]: the header field `conquest` is given twice" in result.output
    assert " --> quests/deep/twice.quest:3:3" in result.output
    assert result.output.rstrip().endswith("1 error, 0 warnings in 1 file")


def test_exit_zero_keeps_the_report(project):
    result = run("lint", "--exit-zero", "quests/deep/twice.quest")
    assert result.exit_code == 0 and "Q004" in result.output


def test_a_folder_is_searched_for_quests(project):
    result = run("lint", "quests")
    assert result.exit_code == 1
    assert result.output.rstrip().endswith("1 error, 0 warnings in 2 files")


def test_syntax_errors_cannot_be_ignored(project):
    result = run("lint", "--ignore", "Q004", "--select", "Q5", "quests/deep/twice.quest")
    assert result.exit_code == 1 and "Q004" in result.output


@pytest.mark.parametrize(
    "args, words",
    [
        (["lint", "no/such/file.quest"], "no such file or folder: no/such/file.quest"),
        (["lint", "--bogus", "x.quest"], "No such option"),
        (["lint"], "Missing argument"),
        (["lint", "--format", "yaml", "quests"], "Invalid value"),
        (["explain", "Q999"], "no diagnostic code 'Q999'"),
        (["frobnicate"], "No such command"),
    ],
)
def test_usage_problems_exit_2(project, args, words):
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert "Traceback" not in result.output


# ---- explain -----------------------------------------------------------------------------------


@pytest.mark.parametrize("code", ["Q001", "q003", "Q101"])
def test_explain_prints_the_codes_page(code):
    result = run("explain", code)
    assert result.exit_code == 0
    entry = descriptor(code)
    assert result.output == entry.page()
    assert result.output.startswith(f"{entry.code}: {entry.name} (error)\n")
    assert "Failing example:" in result.output and "Fixed:" in result.output


def test_explain_q303_style_page_when_present():
    if descriptor("Q303") is None:
        pytest.skip("Q303 is not defined in this tree yet")
    result = run("explain", "Q303")
    assert result.exit_code == 0
    assert result.output.splitlines()[0] == "Q303: rune-door-guards-own-key (error)"


def test_explain_takes_a_codes_name_too():
    for code, entry in descriptors().items():
        by_name = run("explain", entry.name)
        assert by_name.exit_code == 0 and by_name.output == entry.page(), code
    assert run("explain", "Rune_Door_Guards_Own_Key").output == descriptor("Q303").page()
    wrong = CliRunner().invoke(cli, ["explain", "rune-door-guard-own-key"])
    assert wrong.exit_code == 2
    assert "no diagnostic code 'rune-door-guard-own-key'" in wrong.output
    assert "did you mean `rune-door-guards-own-key` (Q303)?" in wrong.output


def test_explain_all_lists_every_code():
    result = run("explain", "all")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert [line.split()[0] for line in lines] == list(descriptors())
    assert lines[0].startswith("Q001  error    unexpected-input: ")


# ---- json ----------------------------------------------------------------------------------------


def test_lint_json_is_the_interface_document(project):
    result = run("lint", "--format", "json", "quests")
    assert result.exit_code == 1
    document = json.loads(result.output)
    assert document["format_version"] == 1
    assert document["summary"] == {"files": 2, "errors": 1, "warnings": 0, "infos": 0}
    (d,) = document["diagnostics"]
    assert d["file"] == "quests/deep/twice.quest"  # relative to the current folder, with /
    assert (d["code"], d["line"], d["column"], d["end_line"], d["end_column"]) == ("Q004", 3, 3, 3, 11)
    assert d["labels"][0]["file"] == "quests/deep/twice.quest"
    assert set(d) == {
        "code",
        "severity",
        "message",
        "file",
        "line",
        "column",
        "end_line",
        "end_column",
        "help",
        "labels",
        "fixes",
    }


def test_lint_json_of_a_clean_quest(project):
    result = run("lint", "--format", "json", str(project / "quests" / "clean.quest"))
    assert result.exit_code == 0
    document = json.loads(result.output)
    assert document["diagnostics"] == [] and document["summary"]["files"] == 1


@pytest.mark.skipif(not ACCEPTANCE.is_dir(), reason="acceptance cases not present")
@pytest.mark.parametrize("pattern", ["q001*.quest", "q003*.quest", "q004*.quest", "q005*.quest"])
def test_acceptance_syntax_cases(pattern):
    cases = sorted(ACCEPTANCE.glob(pattern))
    assert cases
    for case in cases:
        result = CliRunner().invoke(cli, ["lint", "--format", "json", "--verbose", str(case)])
        assert result.exit_code == 1, result.output
        codes = [d["code"] for d in json.loads(result.output)["diagnostics"]]
        assert codes == [pattern[:4].upper()], (case.name, codes)


# ---- real processes: the entry points and colour -------------------------------------------------


def _env(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    env.update(extra)
    return env


@pytest.mark.slow
def test_python_dash_m_questc(project):
    done = subprocess.run(
        [sys.executable, "-m", "questc", "lint", "quests/deep/twice.quest"],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
    )
    assert done.returncode == 1
    assert "error[Q004]" in done.stdout
    assert "\x1b[" not in done.stdout  # not a terminal: no colour
    done = subprocess.run(
        [sys.executable, "-m", "questc", "explain", "nope"], capture_output=True, text=True, env=_env(), timeout=60
    )
    assert done.returncode == 2 and "no diagnostic code" in done.stderr


def _run_on_a_terminal(args, env):
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(args, stdout=follower, stderr=subprocess.PIPE, env=env, timeout=60)
        os.close(follower)
        follower = None
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        return done.returncode, b"".join(chunks).decode("utf-8", "replace")
    finally:
        if follower is not None:
            os.close(follower)
        os.close(leader)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pseudo-terminal")
@pytest.mark.slow
def test_colour_on_a_terminal_unless_no_color(project):
    args = [sys.executable, "-m", "questc", "lint", "quests/deep/twice.quest"]
    code, coloured = _run_on_a_terminal(args, _env())
    assert code == 1 and "\x1b[1;31merror[Q004]" in coloured
    code, plain = _run_on_a_terminal(args, _env(NO_COLOR="1"))
    assert code == 1 and "error[Q004]" in plain and "\x1b[" not in plain
