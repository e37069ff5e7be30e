"""Configuration: finding the file, validating it, and the command line winning over it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE

from questc.config import find_config, load_options
from questc.diagnostics.core import Diagnostic, Severity, Span
from questc.errors import QuestcError
from questc.options import Options, apply_policy, glob_matches

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "config"


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A copy of fixtures/config/walk/project, with the current folder deep inside it."""
    root = tmp_path / "project"
    shutil.copytree(FIXTURES / "walk" / "project", root)
    monkeypatch.chdir(root / "quests" / "drafts")
    return root


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_found_by_walking_up(project):
    options = load_options()
    assert options.config_file == project / "pyproject.toml"
    assert options.owned_sets == ("base", "well_of_darkness")
    assert options.select == ("Q2", "Q3", "Q5") and options.ignore == ("Q306",)
    assert options.severity == {"Q305": "error", "Q50": "info", "Q507": "off"}
    assert options.strict is True
    assert options.packs == ("packs/homebrew.yaml",) and options.packs_base == project
    assert options.per_file_ignores == {"quests/drafts/**": ("Q3",), "*_wip.quest": ("Q5",)}


def test_no_configuration_anywhere(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    if find_config(tmp_path) is not None:
        pytest.skip("a questc configuration above the temporary folder")
    options = load_options()
    assert options == Options()


def test_questc_toml_before_pyproject_in_the_same_folder(tmp_path, monkeypatch):
    shutil.copytree(FIXTURES / "both", tmp_path / "both")
    monkeypatch.chdir(tmp_path / "both")
    assert load_options().ignore == ("Q4",)
    assert load_options(config_file="pyproject.toml").ignore == ("Q5",)


def test_nearest_folder_wins_and_foreign_pyprojects_are_skipped(project, monkeypatch):
    # a pyproject.toml without [tool.questc] (here, even broken TOML) between us and the config
    write(project / "quests" / "pyproject.toml", "[project\nname = 'not ours'\n")
    assert load_options().config_file == project / "pyproject.toml"
    write(project / "quests" / "drafts" / "questc.toml", "strict = false\n")
    assert load_options().strict is False and load_options().select == ()


def test_command_line_wins(project):
    options = load_options(strict=False, select=("Q305",), ignore=("Q303",), expansions="base")
    assert options.strict is False
    assert options.owned_sets == ("base",)
    # --select replaces the file's selection: its ignores no longer hide what was asked for
    assert options.select == ("Q305",) and options.ignore == ("Q303",)
    # --ignore alone adds to the file's ignores
    assert load_options(ignore=("q5",)).ignore == ("Q306", "Q5")
    assert load_options(strict=True).strict is True


def test_explicit_config_file(project, tmp_path):
    other = write(tmp_path / "elsewhere" / "ci.toml", 'ignore = ["Q4"]\nstrict = false\n')
    options = load_options(config_file=str(other))
    assert options.ignore == ("Q4",) and options.strict is False and options.config_file == other


@pytest.mark.parametrize(
    "text, message",
    [
        ("ignroe = ['Q3']\n", "unknown key `ignroe` (did you mean `ignore`?)"),
        ("per_file_ignores = {}\n", "did you mean `per-file-ignores`?"),
        ("select = 'Q3'\nselect = 'Q2'\n", "not valid TOML"),
        ("strict = 'yes'\n", "`strict` must be true or false"),
        ("ignore = [3]\n", "`ignore` must be a list of strings"),
        ("ignore = ['W305']\n", "`W305` in `ignore` is not a code or a code prefix"),
        ("severity = { Q305 = 'loud' }\n", "must be one of error, warning, info, off"),
        ("severity = { Q101 = 'warning' }\n", "names only syntax and reference codes"),
        ("ignore = ['Q1']\n", "names only syntax and reference codes"),
        ("severity = 'Q305'\n", "`severity` must be a table"),
    ],
)
def test_bad_configuration_is_a_clear_error(tmp_path, monkeypatch, text, message):
    _assert_configuration_refused(tmp_path, monkeypatch, text, message)


def _assert_configuration_refused(tmp_path, monkeypatch, text, message):
    """questc.toml holding `text` is refused with `message`, naming the file."""
    write(tmp_path / "questc.toml", text)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(QuestcError) as caught:
        load_options()
    assert message in str(caught.value)
    assert "questc.toml" in str(caught.value)


def test_missing_or_foreign_explicit_file(tmp_path):
    with pytest.raises(QuestcError, match="no such configuration file"):
        load_options(config_file=str(tmp_path / "nope.toml"))
    write(tmp_path / "pyproject.toml", "[project]\nname = 'x'\n")
    with pytest.raises(QuestcError, match=r"has no \[tool.questc\] table"):
        load_options(config_file=str(tmp_path / "pyproject.toml"))


def test_unknown_but_well_formed_code_is_a_located_warning(tmp_path, monkeypatch):
    write(tmp_path / "questc.toml", '# codes\nignore = ["Q406", "Q999"]\n')
    monkeypatch.chdir(tmp_path)
    options = load_options()
    assert options.ignore == ("Q406", "Q999")
    (warning,) = options.config_diagnostics
    assert warning.code == "Q602" and warning.severity is Severity.WARNING
    assert (warning.span.line, warning.span.column, warning.span.end_column) == (2, 20, 24)


def test_bad_codes_given_directly():
    with pytest.raises(QuestcError, match="not a code or a code prefix"):
        load_options(select=("E501",))


# ---- the policy with a configuration ------------------------------------------------------


def diag(code, file="quests/drafts/a.quest", severity=Severity.WARNING):
    return Diagnostic(code, severity, "m", Span(file, 1, 1, 1, 2))


def test_per_file_ignores_and_severity(project):
    options = load_options(select=("Q",))  # select everything; the file's per-file-ignores still apply
    kept = apply_policy(
        [
            diag("Q305", str(project / "quests" / "drafts" / "a.quest")),
            diag("Q305", "../b.quest"),
            diag("Q503", "../c_wip.quest"),
            diag("Q101", "a.quest", Severity.ERROR),
        ],
        options,
    )
    assert [(d.code, d.span.file) for d in kept] == [("Q305", "../b.quest"), ("Q101", "a.quest")]
    options = load_options()
    graded = apply_policy(
        [diag("Q305", "../b.quest"), diag("Q504", "../b.quest"), diag("Q507", "../b.quest")],
        Options(**{**options.__dict__, "verbose": True}),
    )
    assert [(d.code, d.severity.value) for d in graded] == [("Q305", "error"), ("Q504", "info")]


@pytest.mark.parametrize(
    "pattern, path, expected",
    [
        ("quests/drafts/**", "quests/drafts/x/y.quest", True),
        ("quests/*.quest", "quests/x/y.quest", False),
        ("*.quest", "deep/down/y.quest", True),
        ("drafts/", "drafts/y.quest", True),
        ("**/old_*.quest", "old_1.quest", True),
        ("q?.quest", "q10.quest", False),
    ],
)
def test_globs(pattern, path, expected):
    assert glob_matches(pattern, path) is expected


# ---- through the command line ----------------------------------------------------------------


def test_lint_exit_status_follows_configuration(tmp_path, monkeypatch):
    from questc.cli import cli

    quest = ACCEPTANCE / "q305_visible_from_start.quest"
    if not quest.exists():
        pytest.skip("acceptance cases not available")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.quest").write_text(quest.read_text(encoding="utf-8"), encoding="utf-8")
    runner = CliRunner()
    assert runner.invoke(cli, ["lint", "q.quest"]).exit_code == 0  # a warning
    assert runner.invoke(cli, ["lint", "--strict", "q.quest"]).exit_code == 1
    write(tmp_path / "questc.toml", "strict = true\n")
    assert runner.invoke(cli, ["lint", "q.quest"]).exit_code == 1
    assert runner.invoke(cli, ["lint", "--no-strict", "q.quest"]).exit_code == 0
    assert runner.invoke(cli, ["lint", "--exit-zero", "q.quest"]).exit_code == 0
    write(tmp_path / "questc.toml", "strict = true\nseverity = { Q305 = 'off' }\n")
    assert runner.invoke(cli, ["lint", "q.quest"]).exit_code == 0
    write(tmp_path / "questc.toml", "strict = tru\n")
    bad = runner.invoke(cli, ["lint", "q.quest"])
    assert bad.exit_code == 2 and "not valid TOML" in bad.output
    write(tmp_path / "questc.toml", "ignore = ['Q998']\n")
    warned = runner.invoke(cli, ["lint", "q.quest"])
    assert warned.exit_code == 0 and "Q602" in warned.output and "questc.toml:1:" in warned.output


# ---- settings written where the docs show them ---------------------------------------------


def test_a_guide_table_outside_tool_questc_is_an_error_that_says_where_it_belongs(tmp_path):
    """docs/printing.md's `[guide]` pasted into pyproject.toml was silently ignored."""
    from questc.config import load_options
    from questc.errors import QuestcError

    (tmp_path / "pyproject.toml").write_text('[tool.questc]\npaper = "letter"\n\n[guide]\ntitle = "Ours"\n')
    with pytest.raises(QuestcError, match=r"`guide` is outside \[tool.questc\].*write it as \[tool.questc.guide\]"):
        load_options(start=tmp_path)
    (tmp_path / "pyproject.toml").write_text('[tool.questc]\npaper = "letter"\n\n[tool.questc.guide]\ntitle = "Ours"\n')
    options = load_options(start=tmp_path)
    assert options.paper == "letter" and options.guide_title == "Ours"


def test_tool_questc_in_a_questc_toml_is_an_error(tmp_path):
    from questc.config import load_options
    from questc.errors import QuestcError

    (tmp_path / "questc.toml").write_text('[tool.questc]\npaper = "letter"\n')
    with pytest.raises(QuestcError, match="a questc.toml holds the settings at its top"):
        load_options(start=tmp_path)


def test_show_settings_shows_paper_and_guide(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from questc.cli import cli

    (tmp_path / "questc.toml").write_text('paper = "letter"\n[guide]\ntitle = "Ours"\norder = ["a", "b"]\n')
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli, ["lint", "--show-settings"])
    assert done.exit_code == 0
    assert 'paper = "letter"' in done.output and "# questc.toml:1" in done.output
    assert 'guide = { title = "Ours", order = ["a", "b"] }' in done.output and "# questc.toml:2" in done.output


# ---- the box owned: [owned] ----------------------------------------------------------------------

BONES = """\
quest "Bones" { conquest 5 }
piece R1 room_4x4 at 0,0
area A "Hall" start {
  pieces R1
  glyph at 0,0 active
  monster skeleton at 1,1 2,1 3,1 1,2 2,2 3,2 1,3
}
victory heroes when revealed A
"""


def test_owned_is_read_checked_and_shown(tmp_path, monkeypatch):
    from questc.cli import cli

    write(
        tmp_path / "pyproject.toml",
        "[tool.questc]\nstrict = true\n\n[tool.questc.owned]\nsets = { base = 2 }\n"
        "markers = { runekey = 6 }\n\n[tool.questc.owned.figures]\n"
        "skeleton = { normal = 8, master = 3 }\n",
    )
    monkeypatch.chdir(tmp_path)
    owned = load_options().owned_counts
    assert owned.copies == {"base": 2} and owned.markers == {"runekey": 6}
    assert owned.figures == {"skeleton": {"normal": 8, "master": 3}}
    assert owned.origin == "pyproject.toml:4" and owned.pyproject and owned.config_file == "pyproject.toml"
    done = CliRunner().invoke(cli, ["lint", "--show-settings"])
    assert done.exit_code == 0, done.output
    line = next(line for line in done.output.splitlines() if line.startswith("owned = "))
    assert line.startswith(
        "owned = { sets = { base = 2 }, markers = { runekey = 6 }, "
        "figures = { skeleton = { normal = 8, master = 3 } } }"
    )
    assert line.endswith("# pyproject.toml:4")
    write(tmp_path / "pyproject.toml", "[tool.questc]\nstrict = true\n")
    done = CliRunner().invoke(cli, ["lint", "--show-settings"])
    assert "owned = {}" in done.output and "# default: one of each set counted" in done.output


@pytest.mark.parametrize(
    "text, message",
    [
        ("owned = 3\n", "`owned` must be a table"),
        ("[owned]\nrooms = { room = 3 }\n", "unknown key `owned.rooms`"),
        ("[owned.tokens]\nsearch = 12\n", "tokens are `markers`"),
        ("[owned.pieces]\nroom = -1\n", "`owned.pieces.room` must be a whole number from 0"),
        ("[owned.pieces]\nroom = 2.5\n", "must be a whole number"),
        ("[owned.pieces]\nroom = true\n", "must be a whole number"),
        ("[owned.sets]\nbase = 0\n", "`owned.sets.base` must be a whole number from 1"),
        ("[owned.figures]\nskeleton = 8\n", "a table of normal and master figures"),
        ("[owned.figures]\nskeleton = { tan = 8 }\n", "a table of normal and master figures"),
        ("[owned.pieces]\nrooom = 12\n", "`pieces.rooom` (did you mean `room`?)"),
        ("[owned.sets]\nbse = 2\n", "`sets.bse` (did you mean `base`?)"),
        ("[owned.figures]\ndragon_king = { normal = 1 }\n", "`figures.dragon_king`"),
    ],
)
def test_a_bad_owned_table_is_a_clear_error(tmp_path, monkeypatch, text, message):
    _assert_configuration_refused(tmp_path, monkeypatch, text, message)


def test_owned_counts_from_the_configuration_reach_the_checks(tmp_path, monkeypatch):
    """Seven skeletons: the base game's six are an estimate (a warning that says so and where to
    declare the real count); eight declared: clean; five declared: an error naming the declaration."""
    from questc.cli import cli

    write(tmp_path / "bones.quest", BONES)
    monkeypatch.chdir(tmp_path)
    done = CliRunner().invoke(cli, ["lint", "bones.quest"])
    assert done.exit_code == 0 and "warning[Q403]" in done.output
    assert "hold an estimated 6" in done.output and "under [owned.figures] in a questc.toml" in done.output
    write(tmp_path / "questc.toml", "strict = true\n\n[owned.figures]\nskeleton = { normal = 8 }\n")
    done = CliRunner().invoke(cli, ["lint", "bones.quest"])
    assert done.exit_code == 0 and done.output == "0 errors, 0 warnings in 1 file\n"
    write(tmp_path / "questc.toml", "[owned.figures]\nskeleton = { normal = 5 }\n")
    done = CliRunner().invoke(cli, ["lint", "bones.quest"])
    assert done.exit_code == 1 and "error[Q403]" in done.output
    assert "but you own 5 (declared in questc.toml:1)" in done.output
    # copies of the whole set: twice the estimate
    write(tmp_path / "questc.toml", "[owned]\nsets = { base = 2 }\n")
    done = CliRunner().invoke(cli, ["lint", "--strict", "bones.quest"])
    assert done.exit_code == 0, done.output


def test_owned_tables_of_any_shape_are_read_or_refused_never_an_internal_error(tmp_path, monkeypatch):
    """300 random `[owned]` tables (values of every TOML type, nested, huge, empty, misspelt names):
    each gives Options or a QuestcError naming the file."""
    import json
    import random

    rng = random.Random(30)
    names = [
        "base",
        "room",
        "door",
        "runekey",
        "skeleton",
        "money",
        "Danger",
        "normal",
        "master",
        "sets",
        "pieces",
        "markers",
        "figures",
        "treasures",
        "cards",
        "tokens",
        "x" * 200,
        "",
        "é",
        "1",
    ]

    def value(depth: int):
        kind = rng.randrange(8 if depth < 4 else 5)
        if kind == 0:
            return rng.choice([0, 1, -1, 7, 10**6, 10**6 + 1, 2**63 - 1])
        if kind == 1:
            return rng.choice(["3", "", "base"])
        if kind == 2:
            return rng.choice([True, False, 1.5, float("inf")])
        if kind == 3:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        if kind == 4:
            return {}
        return {rng.choice(names): value(depth + 1) for _ in range(rng.randrange(1, 4))}

    def toml(v) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            return "inf" if v == float("inf") else repr(v)
        if isinstance(v, (int,)):
            return str(v)
        if isinstance(v, str):
            return json.dumps(v)
        if isinstance(v, list):
            return "[" + ", ".join(toml(x) for x in v) + "]"
        return "{ " + ", ".join(f"{json.dumps(k)} = {toml(x)}" for k, x in v.items()) + " }"

    monkeypatch.chdir(tmp_path)
    outcomes = {"read": 0, "refused": 0}
    for _ in range(300):
        write(tmp_path / "questc.toml", f"owned = {toml(value(0))}\n")
        try:
            load_options()
            outcomes["read"] += 1
        except QuestcError as error:
            assert "questc.toml" in str(error), str(error)
            outcomes["refused"] += 1
    assert outcomes["read"] and outcomes["refused"]
