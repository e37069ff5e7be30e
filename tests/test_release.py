"""Versions and the CI documentation kept honest: one version, carried everywhere; a changelog
entry for it; docs/ci.md installing only what exists (no tag, a commit or a wheel that builds);
the project's addresses written once; the lint JSON documented as it is."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from questc import __version__
from questc.cli import cli

REPO = Path(__file__).resolve().parent.parent
CI_DOC = (REPO / "docs" / "ci.md").read_text(encoding="utf-8")


def _pyproject() -> dict:
    from questc.config import _toml

    return _toml().loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


# ---- one version ------------------------------------------------------------------------------


def test_the_version_is_written_once_and_carried():
    assert re.fullmatch(r"[0-9]+\.[0-9]+\.[0-9]+(?:[.-]?(?:a|b|rc|dev)[0-9]+)?", __version__)
    project = _pyproject()
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "questc/__init__.py"
    written = [
        path.relative_to(REPO).as_posix()
        for path in (REPO / "questc").rglob("*.py")
        if re.search(rf'["\']{re.escape(__version__)}["\']', path.read_text(encoding="utf-8"))
        and path.name != "__init__.py"
        and path.name != "core.py"
    ]  # core.py: a code's `since`
    assert written == []
    assert CliRunner().invoke(cli, ["--version"]).output == f"questc, version {__version__}\n"


def test_the_installed_metadata_has_this_version():
    from importlib.metadata import version

    assert version("questc") == __version__, "reinstall questc (pip install -e .) after changing __version__"


def test_the_changelog_has_an_entry_for_this_version():
    text = (REPO / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert headings and headings[0] in ("Unreleased", __version__)
    assert __version__ in headings


# ---- the project's addresses ------------------------------------------------------------------


def test_the_project_urls_are_written_once_and_used_everywhere():
    urls = _pyproject()["project"]["urls"]
    repository = urls["Repository"]
    assert repository.startswith("https://") and urls["Homepage"].startswith("https://")
    from questc.project import diagnostic_page, home_page
    from questc.project import repository as installed_repository

    assert (home_page(), installed_repository()) == (urls["Homepage"], repository)
    assert diagnostic_page("Q303") == f"{repository}/blob/main/docs/diagnostics.md#q303"
    # the docs and the pre-commit hooks name the same repository, and no other
    for text in (CI_DOC, (REPO / ".pre-commit-hooks.yaml").read_text(encoding="utf-8")):
        named = set(re.findall(r"https://github\.com/[\w.-]+/[\w.-]+", text))
        assert named == {repository}, named


# ---- docs/ci.md installs what exists ----------------------------------------------------------


def test_ci_docs_name_no_tag():
    """questc is installed by a commit or a wheel (it has no release tags); GitHub's own actions
    (`actions/checkout@v7`) are pinned by their majors, checked below."""
    tags = subprocess.run(["git", "tag"], cwd=REPO, capture_output=True, text=True).stdout.split()
    refs = re.findall(r"questc(?:\.git)?@([\w.-]+)", CI_DOC) + re.findall(r"\brev:\s*(\S+)", CI_DOC)
    assert refs
    for ref in refs:
        assert ref == "COMMIT" or re.fullmatch(r"[0-9a-f]{40}", ref) or ref in tags, ref
    assert "INTERFACE.md" not in CI_DOC


def test_no_document_points_at_files_outside_the_repository():
    for path in [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]:
        assert "INTERFACE.md" not in path.read_text(encoding="utf-8"), path.name


# ---- docs/ci.md's workflows: valid, current, and what private repositories and forks need -------

# The first major of each action that runs on Node.js 24 (the Node.js 20 ones are deprecated:
# github.blog/changelog/2025-09-19-deprecation-of-node-20-on-github-actions-runners, and
# CodeQL Action v3 retires in December 2026).
NODE_24_SINCE = {
    "actions/checkout": 5,
    "actions/setup-python": 6,
    "actions/upload-artifact": 6,
    "github/codeql-action/upload-sarif": 4,
}


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", CI_DOC, flags=re.S)


def _github_workflow() -> dict:
    import yaml

    (workflow,) = [yaml.safe_load(block) for block in _blocks("yaml") if "runs-on:" in block]
    return workflow


def _claimed_versions() -> dict[str, str]:
    """The page's table of the actions it uses: action -> the version it says."""
    return dict(re.findall(r"^\| `([\w./-]+)` \| `(v\d+)` \|$", CI_DOC, flags=re.M))


def test_every_yaml_block_parses_and_every_toml_block_is_a_configuration(tmp_path):
    import yaml

    from questc.config import load_options

    assert len(_blocks("yaml")) >= 3  # GitHub Actions, GitLab CI, pre-commit
    for block in _blocks("yaml"):
        assert isinstance(yaml.safe_load(block), dict), block[:80]
    for number, block in enumerate(_blocks("toml")):
        config = tmp_path / f"{number}" / "pyproject.toml"
        config.parent.mkdir()
        config.write_text(block, encoding="utf-8")
        load_options(config_file=config)  # raises for a key or value questc would refuse


def test_the_actions_are_pinned_at_the_versions_the_page_claims():
    claimed = _claimed_versions()
    used = {}
    for job in _github_workflow()["jobs"].values():
        for step in job["steps"]:
            if "uses" in step:
                action, _, ref = step["uses"].partition("@")
                used[action] = ref
    assert used == claimed, (used, claimed)  # every action used is in the table, at its version
    for action, ref in used.items():
        assert int(ref.removeprefix("v")) >= NODE_24_SINCE[action], f"{action}@{ref} runs on Node.js 20"


def test_the_workflow_works_in_a_private_repository_and_on_pull_requests_from_forks():
    workflow = _github_workflow()
    assert workflow["permissions"] == {"contents": "read", "security-events": "write", "actions": "read"}
    (job,) = workflow["jobs"].values()
    steps = job["steps"]
    by_action = {step["uses"].partition("@")[0]: step for step in steps if "uses" in step}
    upload = by_action["github/codeql-action/upload-sarif"]
    # the upload only where the token can write: pushes, and pull requests from this repository
    assert "env.UPLOAD_SARIF == 'true'" in upload["if"]
    condition = job["env"]["UPLOAD_SARIF"]
    assert "github.event.pull_request.head.repo.full_name == github.repository" in condition
    assert "dependabot[bot]" in condition
    # what a fork still gets: annotations, and the report as an artifact on every run
    commands = [step.get("run", "") for step in steps]
    assert any("--format github" in command for command in commands)
    artifact = by_action["actions/upload-artifact"]
    assert artifact["with"]["path"] == upload["with"]["sarif_file"] == "questc.sarif"
    assert "UPLOAD_SARIF" not in artifact.get("if", "")
    # the SARIF is written even when the annotations step failed the job
    sarif = next(step for step in steps if "--format sarif" in step.get("run", ""))
    assert "!cancelled()" in sarif["if"] and "--exit-zero" in sarif["run"]
    assert "pull_request_target" not in workflow.get(True, workflow.get("on", {}))  # YAML 1.1 reads `on` as True


def test_ci_docs_wheels_have_this_versions_name():
    wheels = set(re.findall(r"questc-[^\s`\"]+\.whl", CI_DOC))
    assert wheels == {f"questc-{__version__}-py3-none-any.whl"}


@pytest.mark.slow
def test_the_wheel_docs_ci_names_builds_and_runs(tmp_path):
    """`pip wheel --no-deps -w wheels .` makes the file docs/ci.md installs, and that wheel alone
    (its data folders inside) checks a quest."""
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "wheels"), str(REPO)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if build.returncode != 0 and "hatchling" in build.stderr and os.environ.get("CI") != "true":
        pytest.skip(f"the build backend (hatchling) cannot be fetched here: {build.stderr.strip()[-200:]}")
    assert build.returncode == 0, build.stderr
    (wheel,) = (tmp_path / "wheels").glob("*.whl")
    assert wheel.name == f"questc-{__version__}-py3-none-any.whl"
    target = tmp_path / "site"
    install = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    quest = tmp_path / "work" / "q.quest"
    quest.parent.mkdir()
    quest.write_text((REPO / "quests" / "chandlers_cellar.quest").read_text(encoding="utf-8"), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(target)}
    where = subprocess.run(
        [sys.executable, "-c", "import questc, questc.paths as p; print(questc.__file__); print(p.data_dir('cards'))"],
        capture_output=True,
        text=True,
        env=env,
        cwd=quest.parent,
        timeout=60,
    )
    assert where.stdout.splitlines()[0].startswith(str(target)), where.stdout + where.stderr
    assert where.stdout.splitlines()[1].startswith(str(target / "questc" / "data")), where.stdout
    done = subprocess.run(
        [sys.executable, "-m", "questc", "lint", "q.quest"],
        capture_output=True,
        text=True,
        env=env,
        cwd=quest.parent,
        timeout=120,
    )
    assert done.returncode == 0 and done.stdout.endswith("0 errors, 0 warnings in 1 file\n"), done.stdout + done.stderr


# ---- the lint JSON, as docs/json-format.md shows it -------------------------------------------

LOCKED_IN = """\
quest "Locked In" { conquest 5 }

piece R1 room_4x4 at 0,0
piece R2 room_4x4 at 4,0

door vault between R1 R2 rune red
area A "Hall" start { pieces R1; glyph at 0,0 active }
area B "Vault" { pieces R2; runekey red at 6,2 }

victory heroes when revealed B
"""


def _lint_report_section() -> str:
    text = (REPO / "docs" / "json-format.md").read_text(encoding="utf-8")
    return text.split('<a id="lint-report"></a>', 1)[1]


def test_the_lint_report_example_is_what_questc_prints(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "quests").mkdir()
    (tmp_path / "quests" / "locked_in.quest").write_text(LOCKED_IN, encoding="utf-8")
    printed = json.loads(CliRunner().invoke(cli, ["lint", "--format", "json", "quests/locked_in.quest"]).stdout)
    example = json.loads(re.search(r"```json\n(.*?)```", _lint_report_section(), flags=re.S).group(1))
    example["generator"]["version"] = __version__
    assert printed == example


def test_the_lint_report_section_names_every_key():
    from questc.diagnostics.core import Diagnostic, Label, Severity, Span
    from questc.emit.json_report import render_json

    d = Diagnostic(
        "Q303", Severity.ERROR, "m", Span("q.quest", 1, 1, 1, 2), "", (Label(Span("q.quest", 2, 1, 2, 2), "x"),), "h"
    )
    document = json.loads(render_json([d], 1))
    keys = set(document) | set(document["generator"]) | set(document["summary"]) | set(document["diagnostics"][0])
    keys |= set(document["diagnostics"][0]["labels"][0])
    section = _lint_report_section()
    for key in keys:
        assert f"`{key}`" in section, key
