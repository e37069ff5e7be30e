"""`lint --format github|sarif|junit`: each renderer's output, checked structurally and as snapshots.

Snapshots live in tests/snapshots/formats/; run with QUESTC_UPDATE_SNAPSHOTS=1 to
rewrite them after an intended change, then review the diff.
"""
from __future__ import annotations

import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from questc.api import QuestResult
from questc.diagnostics.core import Diagnostic, Label, Severity, Span
from questc.rules import descriptors
from questc.emit import github, junit, sarif
from conftest import ACCEPTANCE

TESTS = Path(__file__).resolve().parent
SNAPSHOTS = TESTS / "snapshots" / "formats"
SCHEMA = TESTS / "fixtures" / "sarif-schema-2.1.0.json"


def _span(file, line, column, end_line, end_column):
    return Span(file, line, column, end_line, end_column)


def sample_results() -> list[QuestResult]:
    """Two quests: one with an error (labels, help), a warning whose text needs escaping and an info;
    one clean. Paths are relative, as a run from the repository root gives them."""
    a = QuestResult("quests/drowned.quest", "")
    a.diagnostics = [
        Diagnostic("Q303", Severity.ERROR, "the red rune door `vault` guards its own key",
                   _span("quests/drowned.quest", 14, 6, 14, 11), "this door needs the red runekey",
                   (Label(_span("quests/drowned.quest", 31, 3, 31, 10), "the only red runekey is behind it"),),
                   "move the runekey to an area reachable without opening `vault`"),
        Diagnostic("Q305", Severity.WARNING, "area `B` is seen: 100% of it, at 4,1\nsecond line\r",
                   _span("quests/drowned.quest", 20, 1, 22, 2), help=None),
        Diagnostic("Q309", Severity.INFO, "wave 1: B", _span("quests/drowned.quest", 1, 7, 1, 12)),
    ]
    b = QuestResult("quests/a, b:c.quest", "")
    return [a, b]


def check_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / name
    if os.environ.get("QUESTC_UPDATE_SNAPSHOTS") == "1" or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(path, "w", encoding="utf-8", newline="") as out:   # byte for byte: no newline translation
            out.write(text)
        if os.environ.get("QUESTC_UPDATE_SNAPSHOTS") != "1":
            pytest.fail(f"snapshot {name} was missing and has been written; review it and run again")
    with open(path, encoding="utf-8", newline="") as stored:
        expected = stored.read()
    assert text == expected, \
        f"{name} changed; if intended, rerun with QUESTC_UPDATE_SNAPSHOTS=1 and review the diff"


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
    assert lines[0] == ("::error file=quests/drowned.quest,line=14,col=6,endLine=14,endColumn=10,title=Q303::"
                        "the red rune door `vault` guards its own key%0Ahelp: move the runekey to an area "
                        "reachable without opening `vault`")
    # a span over several lines: no columns (the runner refuses them); % CR LF escaped in the message
    assert lines[1] == ("::warning file=quests/drowned.quest,line=20,endLine=22,title=Q305::"
                        "area `B` is seen: 100%25 of it, at 4,1%0Asecond line%0D")
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
        assert r["defaultConfiguration"]["level"] == {"error": "error", "warning": "warning",
                                                        "info": "note"}[entry.severity.value]
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
    result.diagnostics = [Diagnostic("Q504", Severity.WARNING, "m",
                                     _span(str(tmp_path / "sub dir" / "q.quest"), 2, 1, 2, 4))]
    first, second = sarif.render([result]), sarif.render([result])
    assert first == second
    assert str(tmp_path) not in first
    uri = json.loads(first)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert uri == "sub%20dir/q.quest"


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


def test_junit_warnings_only_fail_as_warnings():
    result = QuestResult("q.quest", "")
    result.diagnostics = [Diagnostic("Q504", Severity.WARNING, "<&>\x01", _span("q.quest", 1, 1, 1, 2))]
    case = ET.fromstring(junit.render([result])).find("testsuite/testcase")
    assert case.find("failure").get("type") == "warning" and "<&>\ufffd" in case.find("failure").text


def test_junit_snapshot():
    check_snapshot("junit.xml", junit.render(sample_results()))


# ---- through the command line ------------------------------------------------------------------


QUEST = ACCEPTANCE / "q101_unknown_monster.quest"


@pytest.mark.parametrize("fmt", ["github", "sarif", "junit"])
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
    else:
        assert ET.fromstring(out.output).get("failures") == "1"
    zero = CliRunner().invoke(cli, ["lint", "--format", fmt, "--exit-zero", "q.quest"])
    assert zero.exit_code == 0
