"""`lint --format github|sarif|junit|gitlab`: each renderer's output, checked structurally and as snapshots.

Snapshots live in tests/snapshots/formats/; run with QUESTC_UPDATE_SNAPSHOTS=1 to
rewrite them after an intended change, then review the diff.
"""

from __future__ import annotations

import json
import os
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE

from questc.api import QuestResult, check_source
from questc.diagnostics.core import Diagnostic, Label, Severity, Span
from questc.emit import github, gitlab, junit, sarif
from questc.emit.fingerprint import fingerprints
from questc.rules import descriptors

TESTS = Path(__file__).resolve().parent
SNAPSHOTS = TESTS / "snapshots" / "formats"
SCHEMA = TESTS / "fixtures" / "sarif-schema-2.1.0.json"
GITLAB_SCHEMA = TESTS / "fixtures" / "gitlab-codequality.schema.json"
REPO = TESTS.parent


def _span(file, line, column, end_line, end_column):
    return Span(file, line, column, end_line, end_column)


def sample_results() -> list[QuestResult]:
    """Two quests: one with an error (labels, help), a warning whose text needs escaping and an info;
    one clean. Paths are relative, as a run from the repository root gives them."""
    a = QuestResult("quests/drowned.quest", "")
    a.diagnostics = [
        Diagnostic(
            "Q303",
            Severity.ERROR,
            "the red rune door `vault` guards its own key",
            _span("quests/drowned.quest", 14, 6, 14, 11),
            "this door needs the red runekey",
            (Label(_span("quests/drowned.quest", 31, 3, 31, 10), "the only red runekey is behind it"),),
            "move the runekey to an area reachable without opening `vault`",
        ),
        Diagnostic(
            "Q305",
            Severity.WARNING,
            "area `B` is seen: 100% of it, at 4,1\nsecond line\r",
            _span("quests/drowned.quest", 20, 1, 22, 2),
            help=None,
        ),
        Diagnostic("Q309", Severity.INFO, "wave 1: B", _span("quests/drowned.quest", 1, 7, 1, 12)),
    ]
    b = QuestResult("quests/a, b:c.quest", "")
    return [a, b]


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("QUESTC_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as out:  # byte for byte: no newline translation
            out.write(text)
        if os.environ.get("QUESTC_UPDATE_SNAPSHOTS") != "1":
            pytest.fail(f"snapshot {name} was missing and has been written; review it and run again")
    with open(path, encoding="utf-8", newline="") as stored:
        expected = stored.read()
    assert text == expected, f"{name} changed; if intended, rerun with QUESTC_UPDATE_SNAPSHOTS=1 and review the diff"


# ---- GitHub annotations -----------------------------------------------------------------


def test_github_escaping():
    assert github.escape_data("100% a\r\nb") == "100%25 a%0D%0Ab"
    assert github.escape_property("a, b:c%") == "a%2C b%3Ac%25"
    # escaping is reversible by the runner's rules: unescape in the opposite order
    value = "x%0A:,%"
    unescaped = github.escape_property(value).replace("%2C", ",").replace("%3A", ":").replace("%25", "%")
    assert unescaped == value


def test_github_annotations():
    lines = github.render(sample_results()).splitlines()
    assert lines[0] == (
        "::error file=quests/drowned.quest,line=14,col=6,endLine=14,endColumn=10,title=Q303::"
        "the red rune door `vault` guards its own key%0Ahelp: move the runekey to an area "
        "reachable without opening `vault`"
    )
    # a span over several lines: no columns (the runner refuses them); % CR LF escaped in the message
    assert lines[1] == (
        "::warning file=quests/drowned.quest,line=20,endLine=22,title=Q305::"
        "area `B` is seen: 100%25 of it, at 4,1%0Asecond line%0D"
    )
    assert lines[2].startswith("::notice file=quests/drowned.quest,line=1,col=7,")
    assert len(lines) == 3


def test_github_escapes_file_names():
    result = QuestResult("quests/a, b:c.quest", "")
    result.diagnostics = [Diagnostic("Q504", Severity.WARNING, "m", _span("quests/a, b:c.quest", 1, 1, 1, 2))]
    assert "file=quests/a%2C b%3Ac.quest," in github.render([result])


def test_github_snapshot():
    check_snapshot("github.txt", github.render(sample_results()))


# ---- SARIF ----------------------------------------------------------------------------------


def sarif_validator():
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema)


def test_sarif_is_valid_against_the_official_schema():
    log = json.loads(sarif.render(sample_results()))
    errors = sorted(sarif_validator().iter_errors(log), key=lambda e: list(e.path))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])


def test_sarif_contents():
    log = json.loads(sarif.render(sample_results()))
    assert log["$schema"].endswith("sarif-schema-2.1.0.json") and log["version"] == "2.1.0"
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "questc" and driver["version"] and driver["informationUri"].startswith("https://")
    assert run["columnKind"] == "unicodeCodePoints"
    rules = driver["rules"]
    assert [r["id"] for r in rules] == list(descriptors())
    for r in rules:
        entry = descriptors()[r["id"]]
        assert r["name"] == entry.name and r["shortDescription"]["text"] == entry.summary
        assert r["fullDescription"]["text"] and r["help"]["text"] == entry.page()
        assert "```" in r["help"]["markdown"]
        assert (
            r["defaultConfiguration"]["level"]
            == {"error": "error", "warning": "warning", "info": "note"}[entry.severity.value]
        )
        # an opt-in code (Q520) is off until selected, as code scanning reads it
        assert r["defaultConfiguration"].get("enabled", True) is not entry.opt_in
    first, second, third = run["results"]
    assert rules[first["ruleIndex"]]["id"] == first["ruleId"] == "Q303"
    assert first["level"] == "error" and second["level"] == "warning" and third["level"] == "note"
    assert first["message"]["text"].startswith("the red rune door `vault` guards its own key\nhelp: ")
    location = first["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "quests/drowned.quest"}
    assert location["region"] == {"startLine": 14, "startColumn": 6, "endLine": 14, "endColumn": 11}
    related = first["relatedLocations"][0]
    assert related["message"]["text"] == "the only red runekey is behind it"
    assert related["physicalLocation"]["region"]["startLine"] == 31


def test_sarif_is_deterministic_and_relative(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = QuestResult(str(tmp_path / "sub dir" / "q.quest"), "")
    result.diagnostics = [
        Diagnostic("Q504", Severity.WARNING, "m", _span(str(tmp_path / "sub dir" / "q.quest"), 2, 1, 2, 4))
    ]
    first, second = sarif.render([result]), sarif.render([result])
    assert first == second
    assert str(tmp_path) not in first
    uri = json.loads(first)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "sub%20dir/q.quest"


def _pyproject_urls() -> dict:
    from questc.config import _toml

    return _toml().loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]


def test_sarif_points_at_the_projects_own_pages():
    urls = _pyproject_urls()
    log = json.loads(sarif.render(sample_results()))
    driver = log["runs"][0]["tool"]["driver"]
    assert driver["informationUri"] == urls["Homepage"]
    assert "pypi.org" not in json.dumps(log)
    anchors = set(re.findall(r'<a id="(q[0-9]{3})"></a>', (REPO / "docs" / "diagnostics.md").read_text("utf-8")))
    for rule in driver["rules"]:
        page, _, anchor = rule["helpUri"].partition("#")
        assert page == urls["Repository"] + "/blob/main/docs/diagnostics.md"
        assert anchor == rule["id"].lower() and anchor in anchors


def test_sarif_fingerprints_are_on_every_result_and_unique():
    log = json.loads(sarif.render(sample_results()))
    found = [r["partialFingerprints"]["questc/v1"] for r in log["runs"][0]["results"]]
    assert len(found) == 3 and len(set(found)) == 3
    assert all(re.fullmatch(r"[0-9a-f]{32}", f) for f in found)


def _drifting_quest() -> tuple[str, str]:
    """A quest with four diagnostics, and the same quest after unrelated edits above and between them."""
    before = (
        'quest "Drift" {\n  conquest 5\n}\n\n'
        "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n\n"
        'area A "Hall" start {\n  pieces R1\n  glyph at 0,0 active\n  monster gobbo at 2,2\n'
        "  monster gobbo at 3,3\n}\n"
        'area B "Beyond" { pieces R2 }\n\nvictory heroes when revealed B\n'
    )
    after = before.replace('quest "Drift" {\n', '# a comment added at the top\n\nquest "Drift" {\n')
    after = after.replace("piece R2", "# the second room\npiece R2").replace(
        "  monster gobbo at 3,3\n", "\n  monster gobbo at 3,3\n"
    )
    return before, after


def test_fingerprints_survive_lines_inserted_above():
    before, after = _drifting_quest()
    old, new = check_source(before, "quests/drift.quest"), check_source(after, "quests/drift.quest")
    assert [d.code for d in old.diagnostics] == [d.code for d in new.diagnostics] == ["Q101", "Q101"]
    assert [d.span.line for d in old.diagnostics] != [d.span.line for d in new.diagnostics]
    assert fingerprints(old) == fingerprints(new)
    assert len(set(fingerprints(old))) == 2  # the two unknown monsters stay apart
    # a real change to the diagnosed line is a new finding
    changed = check_source(before.replace("gobbo at 2,2", "gobbo at 1,2"), "quests/drift.quest")
    assert fingerprints(changed)[0] != fingerprints(old)[0] and fingerprints(changed)[1] == fingerprints(old)[1]


def test_fingerprints_tell_identical_lines_apart():
    doubled = QuestResult("twins.quest", "x\nx\n")
    doubled.diagnostics = [
        Diagnostic("Q504", Severity.WARNING, "m", Span("twins.quest", n, 1, n, 2, 2 * n - 2, 2 * n - 1)) for n in (1, 2)
    ]
    first, second = fingerprints(doubled)
    assert first != second


def test_sarif_snapshot():
    text = sarif.render(sample_results())
    # the rules follow the codes of this installation; the snapshot pins the results
    log = json.loads(text)
    log["runs"][0]["tool"]["driver"]["rules"] = "(every code; checked above)"
    log["runs"][0]["tool"]["driver"]["version"] = log["runs"][0]["tool"]["driver"]["semanticVersion"] = "(version)"
    for r in log["runs"][0]["results"]:
        r["ruleIndex"] = "(index)"
    check_snapshot("sarif.json", json.dumps(log, indent=2, ensure_ascii=False) + "\n")


# ---- JUnit ------------------------------------------------------------------------------------


def test_junit_parses_and_has_one_case_per_file():
    root = ET.fromstring(junit.render(sample_results()))
    assert root.tag == "testsuites" and root.get("tests") == "2" and root.get("failures") == "1"
    suite = root.find("testsuite")
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases] == ["quests/drowned.quest", "quests/a, b:c.quest"]
    failure = cases[0].find("failure")
    assert failure.get("type") == "error"
    assert "1 error, 1 warning" in failure.get("message")
    assert "quests/drowned.quest:14:6: error[Q303]" in failure.text
    assert "warning[Q305]" in failure.text and "Q309" not in failure.text
    assert "info[Q309]" in cases[0].find("system-out").text
    assert cases[1].find("failure") is None


def test_junit_warnings_only_pass_unless_strict():
    result = QuestResult("q.quest", "")
    result.diagnostics = [Diagnostic("Q504", Severity.WARNING, "<&>\x01", _span("q.quest", 1, 1, 1, 2))]
    root = ET.fromstring(junit.render([result]))
    case = root.find("testsuite/testcase")
    assert root.get("failures") == "0" and case.find("failure") is None
    assert "warning[Q504]: <&>\ufffd" in case.find("system-out").text  # still reported, as output
    root = ET.fromstring(junit.render([result], strict=True))
    case = root.find("testsuite/testcase")
    assert root.get("failures") == "1"
    assert case.find("failure").get("type") == "warning" and "<&>\ufffd" in case.find("failure").text
    assert case.find("system-out") is None


def test_junit_times_and_version():
    from questc import __version__

    first, second = sample_results()
    first.seconds, second.seconds = 0.0123, 0.5
    root = ET.fromstring(junit.render([first, second]))
    suite = root.find("testsuite")
    assert [c.get("time") for c in suite.findall("testcase")] == ["0.012", "0.500"]
    assert root.get("time") == suite.get("time") == "0.512"
    (prop,) = suite.findall("properties/property")
    assert prop.attrib == {"name": "questc.version", "value": __version__}
    # untimed results (a library caller that did not time them) say 0
    assert ET.fromstring(junit.render([QuestResult("q.quest", "")])).get("time") == "0.000"


def test_junit_snapshot():
    from questc import __version__

    text = junit.render(sample_results())
    version = f'<property name="questc.version" value="{__version__}" />'
    assert text.count(version) == 1  # the snapshot holds `(version)`, so a release does not rewrite it
    check_snapshot("junit.xml", text.replace(version, version.replace(__version__, "(version)")))


# ---- GitLab Code Quality ---------------------------------------------------------------------------


def gitlab_validator():
    schema = json.loads(GITLAB_SCHEMA.read_text(encoding="utf-8"))
    return jsonschema.Draft7Validator(schema)


def test_gitlab_report_has_the_documented_shape():
    report = json.loads(gitlab.render(sample_results()))
    errors = list(gitlab_validator().iter_errors(report))
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:5])
    assert [f["severity"] for f in report] == ["major", "minor", "info"]
    first = report[0]
    assert first["check_name"] == "Q303"
    assert first["description"] == (
        "Q303: the red rune door `vault` guards its own key (help: move the runekey "
        "to an area reachable without opening `vault`)"
    )
    assert first["location"] == {
        "path": "quests/drowned.quest",
        "lines": {"begin": 14, "end": 14},
        "positions": {"begin": {"line": 14, "column": 6}, "end": {"line": 14, "column": 11}},
    }
    assert len({f["fingerprint"] for f in report}) == len(report)
    assert json.loads(gitlab.render([QuestResult("q.quest", "")])) == []


def test_gitlab_paths_are_relative_to_the_project(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / "sub").mkdir(parents=True)
    monkeypatch.chdir(project / "sub")
    result = QuestResult(str(project / "sub" / "q.quest"), "")
    result.diagnostics = [
        Diagnostic("Q504", Severity.WARNING, "m", _span(str(project / "sub" / "q.quest"), 1, 1, 1, 2))
    ]
    assert json.loads(gitlab.render([result]))[0]["location"]["path"] == "q.quest"
    monkeypatch.setenv("CI_PROJECT_DIR", str(project))
    assert json.loads(gitlab.render([result]))[0]["location"]["path"] == "sub/q.quest"


def test_gitlab_fingerprints_are_the_sarif_ones():
    before, _ = _drifting_quest()
    result = check_source(before, "quests/drift.quest")
    report = json.loads(gitlab.render([result]))
    log = json.loads(sarif.render([result]))
    assert [f["fingerprint"] for f in report] == [
        r["partialFingerprints"]["questc/v1"] for r in log["runs"][0]["results"]
    ]


def test_gitlab_snapshot():
    check_snapshot("gitlab.json", gitlab.render(sample_results()))


# ---- through the command line ------------------------------------------------------------------


QUEST = ACCEPTANCE / "q101_unknown_monster.quest"


@pytest.mark.parametrize("fmt", ["github", "sarif", "junit", "gitlab"])
def test_lint_formats_from_the_command_line(fmt, tmp_path, monkeypatch):
    from questc.cli import cli

    if not QUEST.exists():
        pytest.skip("acceptance cases not available")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.quest").write_text(QUEST.read_text(encoding="utf-8"), encoding="utf-8")
    out = CliRunner().invoke(cli, ["lint", "--format", fmt, "q.quest"])
    assert out.exit_code == 1, out.output
    if fmt == "github":
        assert out.output.startswith("::error file=q.quest,line=")
    elif fmt == "sarif":
        log = json.loads(out.output)
        assert not list(sarif_validator().iter_errors(log))
        assert log["runs"][0]["results"][0]["ruleId"] == "Q101"
    elif fmt == "gitlab":
        report = json.loads(out.output)
        assert not list(gitlab_validator().iter_errors(report)) and report[0]["check_name"] == "Q101"
    else:
        root = ET.fromstring(out.output)
        assert root.get("failures") == "1" and float(root.find("testsuite/testcase").get("time")) > 0
    zero = CliRunner().invoke(cli, ["lint", "--format", fmt, "--exit-zero", "q.quest"])
    assert zero.exit_code == 0


def test_junit_from_the_command_line_follows_strict(tmp_path, monkeypatch):
    from questc.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "q.quest").write_text(
        'quest "Two Rooms" {\n  conquest 5\n}\n\npiece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\n\n'
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n\n'
        "victory heroes when revealed B\n",
        encoding="utf-8",
    )
    lenient = CliRunner().invoke(cli, ["lint", "--format", "junit", "q.quest"])
    assert lenient.exit_code == 0 and ET.fromstring(lenient.output).get("failures") == "0"
    strict = CliRunner().invoke(cli, ["lint", "--format", "junit", "--strict", "q.quest"])
    assert strict.exit_code == 1 and ET.fromstring(strict.output).get("failures") == "1"
    (tmp_path / "questc.toml").write_text("strict = true\n", encoding="utf-8")
    configured = CliRunner().invoke(cli, ["lint", "--format", "junit", "q.quest"])
    assert configured.exit_code == 1 and ET.fromstring(configured.output).get("failures") == "1"
