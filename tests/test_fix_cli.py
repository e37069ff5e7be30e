"""`questc lint --fix / --unsafe-fixes / --diff`, `lint -` and `fmt -` with `--stdin-filename`, and the
fixes in the JSON and SARIF reports; the acceptance cases fixed and linted again."""

from __future__ import annotations

import json
import os
import shutil
import stat
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE, SHARED
from test_fixes import BASE, CORRIDOR

from questc.api import check_file
from questc.cli import cli

TESTS = Path(__file__).resolve().parent
SCHEMAS = [SHARED / "notes" / "sarif-schema-2.1.0.json", TESTS / "fixtures" / "sarif-schema-2.1.0.json"]

TYPO = BASE.replace("monster skeleton", "monster Skeleton")  # a safe fix
GUESS = BASE.replace("monster skeleton", "monster skeletn")  # an unsafe one
BROKEN = BASE.replace("  monster skeleton at 2,2\n", "  Monster skeleton at 2,2 {\n")  # one fix, one error left


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8"))
    return path


# ---- --fix -----------------------------------------------------------------------------------


def test_fix_applies_safe_fixes_and_reports_what_is_left(folder):
    quest = write(folder / "q.quest", TYPO)
    guess = write(folder / "g.quest", GUESS)
    result = run("lint", "--fix", "q.quest", "g.quest")
    assert quest.read_text(encoding="utf-8") == BASE
    assert guess.read_text(encoding="utf-8") == GUESS  # unsafe: not without --unsafe-fixes
    assert result.exit_code == 1  # the guess's Q101 is still there
    assert "error[Q101]: unknown monster `skeletn`" in result.stdout
    assert "Skeleton" not in result.stdout
    assert "fixed 1 problem in 1 file (1 more fix with --unsafe-fixes)" in result.stderr


def test_unsafe_fixes_too(folder):
    quest = write(folder / "g.quest", GUESS)
    result = run("lint", "--fix", "--unsafe-fixes", "g.quest")
    assert quest.read_text(encoding="utf-8") == BASE
    assert result.exit_code == 0 and "fixed 1 problem in 1 file" in result.stderr


def test_fix_keeps_the_mode_and_writes_through_a_symbolic_link(folder):
    target = write(folder / "real" / "q.quest", TYPO)
    os.chmod(target, 0o640)
    link = folder / "link.quest"
    link.symlink_to(target)
    run("lint", "--fix", "link.quest")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == BASE
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert not [p for p in target.parent.iterdir() if p.name != "q.quest"]  # no temporary file left


def test_fix_never_writes_a_file_left_with_syntax_errors(folder):
    quest = write(folder / "b.quest", BROKEN)
    result = run("lint", "--fix", "b.quest")
    assert quest.read_text(encoding="utf-8") == BROKEN
    assert result.exit_code == 1
    assert "b.quest has syntax errors the fixes do not cure; left untouched" in result.stderr
    assert "error[Q001]" in result.stdout  # the report is of the file as it is


def test_fix_cures_syntax_errors_when_it_cures_them_all(folder):
    quest = write(
        folder / "s.quest", BASE.replace("  pieces R2\n", "  pieces R2 R1\n").replace("  conquest 3", "  Conquest 3")
    )
    result = run("lint", "--fix", "s.quest")
    assert "  pieces R2, R1\n" in quest.read_text(encoding="utf-8")
    assert "  conquest 3\n" in quest.read_text(encoding="utf-8")
    assert "fixed 2 problems in 1 file" in result.stderr


def test_fix_with_json_reports_the_fixed_files(folder):
    write(folder / "q.quest", TYPO)
    result = run("lint", "--fix", "--format", "json", "q.quest")
    document = json.loads(result.stdout)
    assert document["diagnostics"] == [] and result.exit_code == 0


# ---- --diff ----------------------------------------------------------------------------------


def test_diff_prints_the_changes_and_writes_nothing(folder):
    quest = write(folder / "g.quest", GUESS)
    result = run("lint", "--diff", "--unsafe-fixes", "g.quest")
    assert result.exit_code == 1
    assert quest.read_text(encoding="utf-8") == GUESS
    assert "--- a/g.quest\n+++ b/g.quest\n" in result.stdout
    assert "-  monster skeletn at 2,2\n+  monster skeleton at 2,2\n" in result.stdout
    assert "would fix 1 problem in 1 file" in result.stderr


def test_diff_without_changes_exits_0(folder):
    write(folder / "q.quest", BASE)
    write(folder / "g.quest", GUESS)
    result = run("lint", "--diff", "q.quest", "g.quest")  # the guess needs --unsafe-fixes
    assert result.exit_code == 0 and result.stdout == ""
    assert "1 more fix with --unsafe-fixes" in result.stderr


def test_diff_of_a_file_without_final_newline(folder):
    write(folder / "g.quest", BASE.replace("revealed B", "revealed b").rstrip("\n"))
    result = run("lint", "--diff", "--unsafe-fixes", "g.quest")
    assert result.stdout.endswith(
        "-victory heroes when revealed b\n\\ No newline at end of file\n"
        "+victory heroes when revealed B\n\\ No newline at end of file\n"
    )


def test_text_report_says_what_is_fixable(folder):
    write(folder / "q.quest", TYPO)
    write(folder / "g.quest", GUESS)
    result = run("lint", ".")
    assert result.stdout.endswith(
        "1 fixable with `questc lint --fix` (1 more with --unsafe-fixes)\n2 errors, 0 warnings in 2 files\n"
    )


# ---- standard input ---------------------------------------------------------------------------


def test_lint_stdin_with_a_file_name_for_positions_and_configuration(folder):
    write(folder / "project" / "questc.toml", 'ignore = ["Q202"]\n')
    (folder / "elsewhere").mkdir()
    os.chdir(folder / "elsewhere")
    result = run("lint", "-", input=CORRIDOR)
    assert "warning[Q202]" in result.stdout and "--> <stdin>:6:7" in result.stdout
    name = str(folder / "project" / "quests" / "loose.quest")
    result = run("lint", "-", "--stdin-filename", name, input=CORRIDOR)
    assert result.exit_code == 0 and "Q202" not in result.stdout  # the project's configuration applies
    result = run("lint", "-", "--stdin-filename", name, "--format", "json", input=GUESS)
    assert json.loads(result.stdout)["diagnostics"][0]["file"].endswith("project/quests/loose.quest")


def test_lint_stdin_fix_prints_the_fixed_text_and_reports_on_stderr(folder):
    result = run("lint", "-", "--fix", input=TYPO)
    assert result.stdout == BASE
    assert "0 errors, 0 warnings in 1 file" in result.stderr
    result = run("lint", "-", "--fix", input=BROKEN)
    assert result.stdout == BROKEN and result.exit_code == 1


def test_lint_stdin_not_utf8(folder):
    result = CliRunner().invoke(cli, ["lint", "-"], input=b"quest \xff", catch_exceptions=False)
    assert result.exit_code == 1 and "not UTF-8" in result.stdout


def test_fmt_stdin(folder):
    messy = BASE.replace("\n\n", "\n")
    result = run("fmt", "-", input=messy)
    assert result.exit_code == 0 and result.stdout == BASE
    result = run("fmt", "-", "--check", input=messy)
    assert result.exit_code == 1 and result.stdout == "" and "would reformat <stdin>" in result.stderr
    assert run("fmt", "-", "--check", input=BASE).exit_code == 0
    result = run("fmt", "-", "--diff", "--stdin-filename", "q.quest", input=messy)
    assert result.exit_code == 1 and result.stdout.startswith("--- a/q.quest\n+++ b/q.quest\n")
    result = run("fmt", "-", "--stdin-filename", "q.quest", input=BROKEN)
    assert result.exit_code == 1 and result.stdout == "" and "q.quest:13:3: error[Q001]" in result.stderr


@pytest.mark.parametrize(
    "args",
    [
        ("lint", "-", "q.quest"),
        ("fmt", "-", "q.quest"),
        ("lint", "q.quest", "--stdin-filename", "x.quest"),
        ("fmt", "q.quest", "--stdin-filename", "x.quest"),
    ],
)
def test_stdin_usage_errors(folder, args):
    write(folder / "q.quest", BASE)
    result = run(*args)
    assert result.exit_code == 2 and "questc:" in result.stderr


def test_fmt_keeps_the_file_mode(folder):
    quest = write(folder / "q.quest", BASE.replace("\n\n", "\n"))
    os.chmod(quest, 0o604)
    assert run("fmt", "q.quest").exit_code == 0
    assert quest.read_text(encoding="utf-8") == BASE and stat.S_IMODE(quest.stat().st_mode) == 0o604


# ---- JSON and SARIF carry the fixes --------------------------------------------------------------


def test_json_fixes(folder):
    write(folder / "g.quest", GUESS)
    document = json.loads(run("lint", "--format", "json", "g.quest").stdout)
    (d,) = document["diagnostics"]
    assert d["fixes"] == [
        {
            "message": "replace `skeletn` with `skeleton`",
            "applicability": "unsafe",
            "edits": [{"line": 13, "column": 11, "end_line": 13, "end_column": 18, "text": "skeleton"}],
        }
    ]


def sarif_validators():
    return [
        jsonschema.Draft4Validator(json.loads(path.read_text(encoding="utf-8"))) for path in SCHEMAS if path.is_file()
    ]


def test_sarif_fixes_are_standard_and_valid(folder):
    """Every kind of edit (a replacement, an insertion, a deletion over a line end) as SARIF fixes."""
    write(folder / "a.quest", GUESS)
    write(folder / "b.quest", CORRIDOR)
    write(folder / "c.quest", BASE.replace("victory heroes", "# questc: ignore[Q305]\nvictory heroes"))
    log = json.loads(run("lint", "--format", "sarif", ".").stdout)
    validators = sarif_validators()
    assert validators
    for validator in validators:
        errors = list(validator.iter_errors(log))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    fixes = {r["ruleId"]: r["fixes"] for r in log["runs"][0]["results"]}
    (rename,) = fixes["Q101"]
    assert rename["description"]["text"] == "replace `skeletn` with `skeleton`"
    assert rename["properties"] == {"applicability": "unsafe"}
    (change,) = rename["artifactChanges"]
    assert change["artifactLocation"] == {"uri": "a.quest"}
    assert change["replacements"] == [
        {
            "deletedRegion": {"startLine": 13, "startColumn": 11, "endLine": 13, "endColumn": 18},
            "insertedContent": {"text": "skeleton"},
        }
    ]
    (cap,) = fixes["Q202"]
    first = cap["artifactChanges"][0]["replacements"][0]
    assert first["deletedRegion"] == {"startLine": 7, "startColumn": 1, "endLine": 7, "endColumn": 1}
    (removal,) = fixes["Q601"]
    gone = removal["artifactChanges"][0]["replacements"][0]
    assert "insertedContent" not in gone
    assert gone["deletedRegion"] == {"startLine": 25, "startColumn": 1, "endLine": 26, "endColumn": 1}
    assert removal["properties"] == {"applicability": "safe"}


# ---- the acceptance cases ------------------------------------------------------------------------


@pytest.mark.slow
def test_fix_makes_the_acceptance_cases_lint_cleaner(tmp_path, monkeypatch):
    """Copied to a folder, fixed with every fix (then safe ones only on a fresh copy): each case
    that offered fixes has fewer diagnostics of the codes fixed, and no error it did not have."""
    before = {q.name: check_file(q).diagnostics for q in sorted(ACCEPTANCE.glob("*.quest"))}
    for unsafe in (True, False):
        cases = tmp_path / ("all" if unsafe else "safe")
        shutil.copytree(ACCEPTANCE, cases)
        monkeypatch.chdir(cases)
        run("lint", "--fix", *(["--unsafe-fixes"] if unsafe else []), ".")
        fixed = []
        for name, old in before.items():
            fixable = {d.code for d in old if any(unsafe or f.applicability.value == "safe" for f in d.fixes)}
            new = check_file(cases / name).diagnostics
            counts, was = Counter(d.code for d in new), Counter(d.code for d in old)
            for code in fixable:
                assert counts[code] < was[code], f"{name}: {code} not fixed"
            errors = {d.code for d in new if d.severity.value == "error"}
            assert errors <= {d.code for d in old if d.severity.value == "error"}, f"{name}: new errors {errors}"
            if fixable:
                fixed.append(name.split("_")[0])
            else:
                assert (cases / name).read_bytes() == (ACCEPTANCE / name).read_bytes()
        if unsafe:
            assert set(fixed) >= {"q003", "q004", "q101", "q202", "q204", "q207", "q208", "q209", "q210"}
        else:
            assert set(fixed) == {"q003"}
