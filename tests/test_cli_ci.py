"""The command line as CI maintainers use it: exclusions, an empty search, --quiet, --statistics,
--output-file, --show-settings, --extend-select and --color, and this repository's own
`questc lint .` (clean with the shipped configuration)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from questc.cli import cli
from questc.config import load_options
from questc.diagnostics.core import Diagnostic, Severity, Span
from questc.options import Options, apply_policy

REPO = Path(__file__).resolve().parent.parent

WARNING_ONLY = """\
quest "Two Rooms" {
  conquest 5
}

piece R1 room_4x4 at 0,0
piece R2 room_4x4 at 4,0

area A "Hall" start { pieces R1; glyph at 0,0 active }
area B "Beyond" { pieces R2 }

victory heroes when revealed B
"""

BROKEN = """\
quest "Bad Monster" {
  conquest 5
}

piece R1 room_4x4 at 0,0

area A "Hall" start {
  pieces R1
  glyph at 0,0 active
  monster gobbo at 2,2
}

victory heroes when revealed A
"""

CLEAN = """\
quest "One Room" {
  conquest 5
}

piece R1 room_4x4 at 0,0

area A "Hall" start {
  pieces R1
  glyph at 0,0 active
}

victory heroes when revealed A
"""


def run(*args, env=None):
    return CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A project: a clean quest, a warning-only one, and broken quests where tools and
    builds keep theirs (.venv, build, node_modules, .git) and in tests/fixtures."""
    write(tmp_path / "quests" / "clean.quest", CLEAN)
    write(tmp_path / "quests" / "warn.quest", WARNING_ONLY)
    for folder in (".venv/lib", "build", "node_modules/pkg", ".git/x", "tests/fixtures", "quests/drafts"):
        write(tmp_path / folder / "broken.quest", BROKEN)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def checked_files(result) -> int:
    """The `in N files` of a text or json report."""
    text = result.stdout
    if text.lstrip().startswith("{"):
        return json.loads(text)["summary"]["files"]
    last = text.rstrip().rsplit("\n", 1)[-1]
    return int(last.rsplit(" in ", 1)[1].split()[0])


# ---- exclude and extend-exclude ------------------------------------------------------------


def test_default_exclusions_pass_over_tool_and_build_folders(tree):
    done = run("lint", "--format", "json", ".")
    paths = {d["file"] for d in json.loads(done.stdout)["diagnostics"]}
    # .venv, build, node_modules and .git are passed over; tests/fixtures and drafts are not
    assert paths == {"quests/warn.quest", "tests/fixtures/broken.quest", "quests/drafts/broken.quest"}
    assert checked_files(done) == 4


def test_extend_exclude_in_the_configuration_is_relative_to_its_folder(tree, monkeypatch):
    write(tree / "questc.toml", 'extend-exclude = ["tests/fixtures", "drafts"]\n')
    monkeypatch.chdir(tree / "quests")  # the configuration is found upwards; its globs stay anchored there
    done = run("lint", "..")
    assert done.exit_code == 0, done.output
    assert checked_files(done) == 2
    monkeypatch.chdir(tree)
    done = run("lint", ".")
    assert done.exit_code == 0 and checked_files(done) == 2


def test_exclude_replaces_the_defaults(tree):
    write(tree / "questc.toml", 'exclude = ["tests", "drafts"]\n')
    done = run("lint", "--format", "json", ".")
    paths = {d["file"] for d in json.loads(done.stdout)["diagnostics"]}
    assert {
        ".venv/lib/broken.quest",
        "build/broken.quest",
        "node_modules/pkg/broken.quest",
        ".git/x/broken.quest",
    } <= paths
    assert not any(p.startswith(("tests/", "quests/drafts/")) for p in paths)


def test_exclude_on_the_command_line(tree):
    write(tree / "questc.toml", 'extend-exclude = ["tests"]\n')
    # --exclude replaces the file's `exclude` (here: the defaults); extend-exclude stays
    done = run("lint", "--exclude", "drafts,.git", "--format", "json", ".")
    paths = {d["file"] for d in json.loads(done.stdout)["diagnostics"]}
    assert "build/broken.quest" in paths and "quests/drafts/broken.quest" not in paths
    assert not any(p.startswith(("tests/", ".git/")) for p in paths)
    # --extend-exclude adds to both
    done = run("lint", "--extend-exclude", "quests/drafts", "--extend-exclude", "warn.quest", ".")
    assert done.exit_code == 0 and checked_files(done) == 1


def test_paths_named_directly_are_checked_unless_force_exclude(tree):
    named = run("lint", "build/broken.quest")
    assert named.exit_code == 1 and "Q101" in named.stdout
    forced = run("lint", "--force-exclude", "build/broken.quest")
    assert forced.exit_code == 0 and checked_files(forced) == 0
    assert "no .quest file found" in forced.stderr and "build/broken.quest" in forced.stderr
    # a file inside an excluded folder, named directly (as pre-commit names staged files)
    write(tree / "questc.toml", 'extend-exclude = ["tests/fixtures"]\nforce-exclude = true\n')
    done = run("lint", "tests/fixtures/broken.quest", "quests/clean.quest")
    assert done.exit_code == 0 and checked_files(done) == 1
    # a folder named directly is searched, its excluded folders still passed over
    assert checked_files(run("lint", "--no-strict", "tests")) == 0


def test_fmt_honours_the_exclusions(tree):
    ugly = 'quest "X" {\n conquest 5\n}\n'
    for folder in ("quests", "build", ".venv/lib", "tests/fixtures"):
        write(tree / folder / "ugly.quest", ugly)
    done = run("fmt", "--check", ".")
    would = sorted(line.removeprefix("would reformat ") for line in done.stdout.splitlines())
    assert "quests/ugly.quest" in would and "tests/fixtures/ugly.quest" in would
    assert not any(p.startswith(("build/", ".venv/")) for p in would)
    write(tree / "questc.toml", 'extend-exclude = ["tests/fixtures"]\n')
    done = run("fmt", "--check", ".")
    assert "would reformat quests/ugly.quest" in done.stdout and "tests/fixtures" not in done.stdout
    assert "would reformat build/ugly.quest" in run("fmt", "--check", "build/ugly.quest").stdout
    assert run("fmt", "--check", "--force-exclude", "build/ugly.quest").stdout == ""


@pytest.mark.slow
def test_this_repository_lints_clean_with_its_own_configuration(monkeypatch):
    monkeypatch.chdir(REPO)
    done = run("lint", ".")
    assert done.exit_code == 0, done.output[-3000:]
    quests = sorted((REPO / "quests").rglob("*.quest"))
    assert done.stdout.rstrip().endswith(f"0 errors, 0 warnings in {len(quests)} files")
    assert "tests/fixtures" not in done.stdout
    # the fixtures are still there, broken on purpose, and still checked when named
    assert run("lint", "tests/fixtures/syntax/errors").exit_code == 1


# ---- an empty search -------------------------------------------------------------------------


def test_no_quest_found_is_a_warning_on_standard_error(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "empty").mkdir()
    done = run("lint", "empty")
    assert done.exit_code == 0
    assert done.stderr == "questc: warning: no .quest file found in empty\n"
    assert done.stdout == "0 errors, 0 warnings in 0 files\n"
    # the machine formats stay parseable: the warning is not in them
    assert json.loads(run("lint", "--format", "json", "empty").stdout)["summary"]["files"] == 0
    write(tmp_path / "empty" / "build" / "q.quest", CLEAN)
    done = run("lint", "empty")
    assert "passed over as excluded: empty/build" in done.stderr
    write(tmp_path / "empty" / "q.quest", CLEAN)
    assert run("lint", "empty").stderr == ""


# ---- --quiet, --statistics, --output-file -------------------------------------------------------


def test_quiet(tree):
    assert run("lint", "-q", "quests/clean.quest").stdout == ""
    done = run("lint", "--quiet", "quests/warn.quest", "quests/drafts")
    assert done.exit_code == 1
    assert done.stdout == "1 error, 1 warning in 2 files\n"
    # infos count only with --verbose; a clean quest's infos alone say nothing
    assert run("lint", "-q", "quests/clean.quest").stdout == ""
    assert run("lint", "-q", "-v", "quests/clean.quest").stdout.endswith(" infos in 1 file\n")


def test_statistics(tree):
    write(tree / "more" / "broken2.quest", BROKEN.replace("2,2", "2,2\n  monster gobbo at 3,3"))
    done = run("lint", "--statistics", "quests/warn.quest", "more", "quests/drafts")
    assert done.exit_code == 1
    assert done.stdout == (
        "3  Q101  error    unknown-catalog-name\n"
        "1  Q305  warning  area-visible-from-start\n"
        "\n"
        "3 errors, 1 warning in 3 files\n"
    )
    rows = json.loads(run("lint", "--statistics", "--format", "json", "quests/warn.quest", "more").stdout)
    assert rows == [
        {"code": "Q101", "name": "unknown-catalog-name", "severity": "error", "count": 2},
        {"code": "Q305", "name": "area-visible-from-start", "severity": "warning", "count": 1},
    ]
    refused = CliRunner().invoke(cli, ["lint", "--statistics", "--format", "sarif", "quests"])
    assert refused.exit_code == 2 and "--statistics prints text or json" in refused.output


def test_output_file_holds_the_report(tree):
    expected = run("lint", "--format", "sarif", "quests").stdout
    done = run("lint", "--format", "sarif", "--output-file", "reports/questc.sarif", "quests")
    assert done.exit_code == 1 and done.stdout == ""  # quests/drafts has an error
    assert (tree / "reports" / "questc.sarif").read_text(encoding="utf-8") == expected
    assert [p.name for p in (tree / "reports").iterdir()] == ["questc.sarif"]  # no temporary file left
    # the exit status still follows the quests
    assert run("lint", "-o", "out.txt", "quests/drafts").exit_code == 1
    assert (tree / "out.txt").read_text(encoding="utf-8").endswith("1 error, 0 warnings in 1 file\n")


def test_output_file_is_written_whole_or_not_at_all(tree, monkeypatch):
    target = write(tree / "report.json", "the previous report\n")

    def interrupted(source, destination):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", interrupted)
    done = CliRunner().invoke(cli, ["lint", "--format", "json", "-o", str(target), "quests"])
    assert done.exit_code == 1 and "cannot write" in done.output and "No space left" in done.output
    assert target.read_text(encoding="utf-8") == "the previous report\n"
    assert sorted(p.name for p in tree.iterdir() if p.is_file()) == ["report.json"]


# ---- --show-settings ---------------------------------------------------------------------------


def test_show_settings_names_each_value_and_where_it_came_from(tree):
    write(
        tree / "pyproject.toml",
        '[project]\nname = "x"\n\n[tool.questc]\nignore = ["Q406"]\n'
        'strict = true\n\n[tool.questc.severity]\nQ305 = "error"\n',
    )
    done = run("lint", "--show-settings", "--ignore", "Q503", "--extend-exclude", "tests", ".")
    assert done.exit_code == 0, done.output
    lines = {line.split(" = ")[0]: line for line in done.stdout.splitlines() if " = " in line}
    assert lines["config-file"].startswith('config-file = "pyproject.toml"')
    assert lines["config-file"].endswith("# found from the current folder upwards")
    assert lines["ignore"].startswith('ignore = ["Q406", "Q503"]')
    assert lines["ignore"].endswith("# pyproject.toml:5 + command line (--ignore)")
    assert lines["strict"].endswith("# pyproject.toml:6")
    assert lines["severity"].startswith('severity = { Q305 = "error" }') and lines["severity"].endswith(":8")
    assert lines["select"].endswith("# default: every code")
    assert '".venv"' in lines["exclude"] and lines["exclude"].endswith("# default")
    assert lines["extend-exclude"].endswith(f"# command line (--extend-exclude) (paths relative to {tree})") or lines[
        "extend-exclude"
    ].endswith("# command line (--extend-exclude)")
    # and the quests the paths hold, with what was passed over; nothing is checked
    assert "# 3 quest files to check in .:" in done.stdout
    assert "#   quests/drafts/broken.quest" in done.stdout and "#   build\n" in done.stdout
    assert "Q101" not in done.stdout


def test_show_settings_without_a_configuration(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    done = run("lint", "--show-settings", "--select", "Q3", "--strict")
    assert done.exit_code == 0
    assert "# config-file: none" in done.stdout
    assert 'select = ["Q3"]' in done.stdout and "# command line (--select)" in done.stdout
    assert "# command line (--strict)" in done.stdout


def test_show_settings_output_reads_back_as_the_same_configuration(tree):
    """What --show-settings prints is TOML a questc.toml could hold, and it means the same settings."""
    from questc.config import _toml

    write(
        tree / "questc.toml",
        'select = ["Q3", "Q5"]\nseverity = { Q305 = "error", Q5 = "warning" }\n'
        'per-file-ignores = { "quests/drafts/**" = ["Q3"] }\nextend-exclude = ["tests"]\n',
    )
    shown = run("lint", "--show-settings").stdout
    table = _toml().loads(shown)
    table.pop("config-file")
    table.pop("verbose")
    write(tree / "again" / "questc.toml", shown.replace("config-file", "# config-file").replace("verbose", "# v"))
    again = load_options(config_file=str(tree / "again" / "questc.toml"))
    first = load_options()
    for key in ("select", "ignore", "severity", "per_file_ignores", "strict", "extend_select", "force_exclude"):
        assert getattr(again, key) == getattr(first, key), key
    assert [r.glob for r in again.exclude] == [r.glob for r in first.exclude]
    assert table["extend-exclude"] == ["tests"]


# ---- --extend-select ---------------------------------------------------------------------------


def _diag(code, severity=Severity.WARNING):
    return Diagnostic(code, severity, "m", Span("q.quest", 1, 1, 1, 2))


@pytest.mark.parametrize(
    "select, ignore, extend, shown",
    [
        ((), ("Q3",), ("Q305",), ["Q305", "Q503"]),  # a longer extend-select beats a shorter ignore
        ((), ("Q305",), ("Q3",), ["Q306", "Q503"]),  # ...but not a longer ignore
        (("Q5",), (), ("Q305",), ["Q305", "Q503"]),  # adds to an explicit selection
        (("Q5",), ("Q305",), ("Q305",), ["Q503"]),  # the same length: ignore wins
    ],
)
def test_extend_select_policy(select, ignore, extend, shown):
    options = Options(select=select, ignore=ignore, extend_select=extend)
    kept = apply_policy([_diag("Q305"), _diag("Q306"), _diag("Q503")], options)
    assert [d.code for d in kept] == shown


def test_extend_select_from_file_and_command_line(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "questc.toml", 'select = ["Q5"]\nignore = ["Q3"]\nextend-select = ["Q306"]\n')
    options = load_options(extend_select=("Q305",))
    assert options.extend_select == ("Q306", "Q305")
    assert options.origins["extend-select"] == "questc.toml:3 + command line (--extend-select)"
    # --select replaces the file's whole selection, its extend-select too
    assert load_options(select=("Q2",), extend_select=("Q305",)).extend_select == ("Q305",)
    write(tmp_path / "q.quest", WARNING_ONLY)
    assert run("lint", "q.quest").stdout == "0 errors, 0 warnings in 1 file\n"
    done = run("lint", "--extend-select", "Q305", "q.quest")
    assert "warning[Q305]" in done.stdout
    bad = CliRunner().invoke(cli, ["lint", "--extend-select", "W3", "q.quest"])
    assert bad.exit_code == 2 and "not a code or a code prefix" in bad.output


# ---- --color ----------------------------------------------------------------------------------


def test_color_option_and_force_color(tree):
    plain = {"NO_COLOR": None, "FORCE_COLOR": None, "TERM": None}
    assert "\x1b[" not in run("lint", "quests/warn.quest", env=plain).stdout  # not a terminal
    assert "\x1b[1;33mwarning[Q305]" in run("lint", "--color", "always", "quests/warn.quest", env=plain).stdout
    assert "\x1b[" in run("lint", "quests/warn.quest", env={**plain, "FORCE_COLOR": "1"}).stdout
    assert "\x1b[" not in run("lint", "quests/warn.quest", env={"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    assert "\x1b[" not in run("lint", "--color", "never", "quests/warn.quest", env={**plain, "FORCE_COLOR": "1"}).stdout
    # a report written to a file is not coloured, even under FORCE_COLOR, unless asked for
    run("lint", "-o", "out.txt", "quests/warn.quest", env={**plain, "FORCE_COLOR": "1"})
    assert "\x1b[" not in (tree / "out.txt").read_text(encoding="utf-8")
    run("lint", "-o", "out.txt", "--color", "always", "quests/warn.quest", env=plain)
    assert "\x1b[1;33mwarning[Q305]" in (tree / "out.txt").read_text(encoding="utf-8")


def test_pre_commit_hooks_leave_excluded_files_out(monkeypatch):
    """pre-commit runs a hook's `entry` with every staged .quest file: in this repository, broken
    fixtures among them must not fail the commit."""
    import shlex

    import yaml

    hooks = {hook["id"]: hook for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text("utf-8"))}
    entry = shlex.split(hooks["questc-lint"]["entry"])
    assert entry[:2] == ["questc", "lint"]
    monkeypatch.chdir(REPO)
    staged = ["quests/chandlers_cellar.quest", "tests/fixtures/syntax/errors/q004_duplicate_field.quest"]
    done = run(*entry[1:], *staged)
    assert done.exit_code == 0 and done.stdout.endswith("in 1 file\n"), done.output
    assert "--force-exclude" in shlex.split(hooks["questc-fmt"]["entry"])


def test_build_honours_the_exclusions(tree):
    write(tree / "questc.toml", 'extend-exclude = ["tests", "drafts"]\n')
    done = run("build", "--only", "json", "-o", "out", ".")
    assert done.exit_code == 0, done.output
    assert sorted(p.name for p in (tree / "out").iterdir()) == ["one_room.json", "two_rooms.json"]
    # the output folder itself is `out`, not excluded by default: a second build does not read it
    # (it holds no .quest), and an empty search says so
    (tree / "empty").mkdir()
    empty = run("build", "--only", "json", "-o", "out2", "empty")
    assert empty.exit_code == 0 and "no .quest file found in empty" in empty.stderr
