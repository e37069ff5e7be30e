"""The VS Code extension (editors/vscode): its manifest and language configuration, the
.vsix `vsce package` makes, the client's own tests, and the packaged extension running
against `questc server` in a stand-in for VS Code's extension host
(editors/vscode/tools/vscode-host.js: the real extension.js and vscode-languageclient,
with a `vscode` module of its own; VS Code itself cannot run on the test machines).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from editor_tools import REPO, TYPO, VSCODE, require_node_tools, require_questc_server

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

GRAMMAR = VSCODE / "syntaxes" / "quest.tmLanguage.json"
HOST = VSCODE / "tools" / "vscode-host.js"


def manifest() -> dict:
    return json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))


def language_configuration() -> dict:
    return json.loads((VSCODE / "language-configuration.json").read_text(encoding="utf-8"))


def test_the_manifest_contributes_the_quest_language():
    m = manifest()
    assert m["activationEvents"] == ["onLanguage:quest"]
    (language,) = m["contributes"]["languages"]
    assert language["id"] == "quest" and language["extensions"] == [".quest"]
    assert (VSCODE / language["configuration"]).is_file()
    (grammar,) = m["contributes"]["grammars"]
    assert grammar["language"] == "quest" and (VSCODE / grammar["path"]).resolve() == GRAMMAR
    assert grammar["scopeName"] == json.loads(GRAMMAR.read_text(encoding="utf-8"))["scopeName"]
    assert (VSCODE / m["main"]).is_file()
    settings = m["contributes"]["configuration"]["properties"]
    assert settings["questc.path"]["default"] == "questc" and settings["questc.path"]["type"] == "string"
    assert settings["questc.serverArgs"]["default"] == [] and settings["questc.serverArgs"]["items"]["type"] == "string"
    # the extension reads exactly the settings it declares
    code = (VSCODE / "extension.js").read_text(encoding="utf-8")
    read = set(re.findall(r"config\.get\('([A-Za-z.]+)'\)", code))
    assert {f"questc.{key}" for key in read} == {"questc.path", "questc.serverArgs"}
    commands = {c["command"] for c in m["contributes"]["commands"]}
    assert commands == set(re.findall(r"registerCommand\('([A-Za-z.]+)'", code))
    assert "vscode-languageclient" in m["dependencies"]
    # the repository pyproject.toml names (vsce asks for one)
    urls = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["urls"]
    assert m["repository"]["url"] == urls["Repository"] and m["repository"]["directory"] == "editors/vscode"


def _table(markdown: str, heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first table under a `## heading`."""
    section = markdown.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    rows = [
        [c.strip() for c in line.strip().strip("|").split("|")] for line in section.splitlines() if line.startswith("|")
    ]
    return [r for r in rows[1:] if not set("".join(r)) <= set("-: ")]


def test_the_readme_and_changelog_follow_the_manifest():
    """The extension's README lists every setting with its default and every command by its palette
    title; its CHANGELOG has the manifest's version; both go into the .vsix (the Marketplace shows them)."""
    m = manifest()
    readme = (VSCODE / "README.md").read_text(encoding="utf-8")
    settings = m["contributes"]["configuration"]["properties"]
    rows = {r[0].strip("`"): r for r in _table(readme, "Settings")}
    assert set(rows) == set(settings)
    for name, row in rows.items():
        assert row[1].strip("`") == str(json.dumps(settings[name]["default"])).strip('"'), (name, row)
    titles = {f"**{c['category']}: {c['title']}**" for c in m["contributes"]["commands"]}
    assert {r[0] for r in _table(readme, "Commands")} == titles
    for title in titles:  # the preview's entry is told about in the prose too
        assert readme.count(title) >= 1
    assert "first edition only" not in readme and "second edition" in readme
    changelog = (VSCODE / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {m['version']}\n" in changelog
    ignored = (VSCODE / ".vscodeignore").read_text(encoding="utf-8").split()
    assert not {"README.md", "CHANGELOG.md", "*.md", "**/*.md"} & set(ignored)


def test_the_language_configuration_follows_the_language():
    lark = (REPO / "grammar" / "quest.lark").read_text(encoding="utf-8")
    config = language_configuration()
    comment = re.search(r"^COMMENT: /(.)", lark, re.M).group(1)
    assert config["comments"] == {"lineComment": comment} == {"lineComment": "#"}
    for open_, close in config["brackets"]:
        assert f'"{open_}"' in lark and f'"{close}"' in lark
    closing = {pair["open"]: pair["close"] for pair in config["autoClosingPairs"]}
    assert closing == {"{": "}", "(": ")", '"': '"'}
    indent = re.compile(config["indentationRules"]["increaseIndentPattern"])
    for line in ('quest "The Stolen Bell" {', 'area B "Bell Store" start {', "on round 3 {  # late"):
        assert indent.search(line), line
    for line in ("# a block {", "pieces R1", 'read "{"  # }'):
        assert not indent.search(line), line
    assert re.compile(config["indentationRules"]["decreaseIndentPattern"]).match("  }")
    word = re.compile(config["wordPattern"])
    assert [m.group() for m in word.finditer("monster x1 at R1:2,3 -1,4 players 2")] == [
        "monster",
        "x1",
        "at",
        "R1",
        "2,3",
        "-1,4",
        "players",
        "2",
    ]


@pytest.fixture(scope="module")
def vsix(tmp_path_factory) -> Path:
    """The extension as `npx @vscode/vsce package` makes it (docs/editors.md), unpacked beside."""
    require_node_tools("@vscode/vsce", "vscode-languageclient")
    out = tmp_path_factory.mktemp("vsix") / "questc.vsix"
    done = subprocess.run(
        [shutil.which("npx") or "npx", "--no-install", "@vscode/vsce", "package", "--out", str(out)],
        cwd=VSCODE,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    with zipfile.ZipFile(out) as z:
        z.extractall(out.parent / "unpacked")
    return out


@pytest.mark.slow  # node, vsce and questc as processes
def test_the_vsix_holds_the_extension_and_only_it(vsix):
    with zipfile.ZipFile(vsix) as z:
        names = set(z.namelist())
        packaged_grammar = z.read("extension/syntaxes/quest.tmLanguage.json")
        packaged_manifest = json.loads(z.read("extension/package.json"))
    for name in (
        "extension/package.json",
        "extension/extension.js",
        "extension/server.js",
        "extension/language-configuration.json",
        "extension/syntaxes/quest.tmLanguage.json",
        "extension/node_modules/vscode-languageclient/package.json",
        "extension.vsixmanifest",
        "extension/readme.md",
        "extension/changelog.md",
    ):
        assert name in names, name
    assert packaged_grammar == GRAMMAR.read_bytes()
    assert packaged_manifest["contributes"] == manifest()["contributes"]
    unwanted = [
        n
        for n in names
        if n.startswith(("extension/test/", "extension/tools/"))
        or n.endswith(".vsix")
        or "/node_modules/@vscode/vsce" in n
        or "/node_modules/vscode-textmate" in n
    ]
    assert not unwanted, unwanted[:5]


@pytest.mark.slow  # node, vsce and questc as processes
def test_the_client_tests_pass():
    node = require_node_tools()
    done = subprocess.run(
        [node, "--test", "test/"], cwd=VSCODE, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert re.search(r"^# pass [1-9]", done.stdout, re.M) and re.search(r"^# fail 0$", done.stdout, re.M), done.stdout


def run_host(quest: Path, extension: Path, *options: str) -> dict:
    node = require_node_tools()
    done = subprocess.run(
        [node, str(HOST), str(extension), str(quest), *options],
        capture_output=True,
        text=True,
        timeout=150,
        check=False,
        env={**os.environ, "NODE_PATH": ""},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


@pytest.mark.slow  # node, vsce and questc as processes
def test_the_packaged_extension_runs_questc_server(vsix, tmp_path):
    """Activate, open a quest, get its diagnostic, change questc.path (the server restarts
    and checks the quest again), deactivate: both servers exit cleanly."""
    questc = require_questc_server()
    quest = tmp_path / "typo.quest"
    quest.write_text(TYPO, encoding="utf-8")
    other = tmp_path / "bin" / "questc"
    other.parent.mkdir()
    other.symlink_to(questc)
    session = run_host(quest, vsix.parent / "unpacked" / "extension", "--questc", questc, "--questc-after", str(other))
    assert session["errors"] == []
    assert [(s["command"], s["args"], s["cwd"]) for s in session["spawned"]] == [
        (questc, ["server", "--stdio"], str(tmp_path)),
        (str(other), ["server", "--stdio"], str(tmp_path)),
    ]
    for diagnostics in (session["opened"], session["restarted"]):
        typo = [d for d in diagnostics if d["code"] == "Q101"]
        assert len(typo) == 1, diagnostics
        assert (typo[0]["line"], typo[0]["column"], typo[0]["severity"]) == (8, 11, 0)  # 0: DiagnosticSeverity.Error
        assert "beastman" in typo[0]["message"]
    assert session["exits"] == [{"code": 0, "signal": None}] * 2, session["output"]


@pytest.mark.slow  # node, vsce and questc as processes
def test_a_missing_questc_is_reported_once_with_the_setting(vsix, tmp_path):
    quest = tmp_path / "typo.quest"
    quest.write_text(TYPO, encoding="utf-8")
    session = run_host(quest, vsix.parent / "unpacked" / "extension", "--questc", str(tmp_path / "no-questc"))
    assert session["spawned"] == [] and session["opened"] == []
    (error,) = session["errors"]
    assert "was not found" in error[0] and "questc.path" in error[0] and error[1:] == ["Open settings"]


@pytest.mark.slow  # node, vsce and questc as processes
def test_the_preview_button_opens_the_map_that_follows_typing_and_clicks_land_on_the_line(vsix, tmp_path):
    """The extension's preview command asks the server for the page (opened in the browser); typing in
    the editor changes the page; a square clicked on the page makes VS Code show its statement."""
    questc = require_questc_server()
    quest = tmp_path / "clean.quest"
    text = TYPO.replace("beastmen", "beastman")
    quest.write_text(text, encoding="utf-8")
    manifest_commands = {c["command"]: c for c in manifest()["contributes"]["commands"]}
    assert manifest_commands["questc.openPreview"]["icon"] == "$(open-preview)"
    menus = manifest()["contributes"]["menus"]
    assert {"command": "questc.openPreview", "when": "editorLangId == quest", "group": "navigation"} in menus[
        "editor/title"
    ]
    assert any(m["command"] == "questc.openPreview" for m in menus["commandPalette"])
    session = run_host(quest, vsix.parent / "unpacked" / "extension", "--questc", questc, "--preview")
    preview = session["preview"]
    assert session["errors"] == [], session["errors"]
    assert preview["url"].startswith("http://127.0.0.1:") and preview["opened"]
    assert preview["uri"] == quest.resolve().as_uri()
    assert (preview["title"], preview["typedTitle"]) == ("Typo", "The Typo")
    assert quest.read_text(encoding="utf-8") == text  # the page showed the unsaved text
    assert preview["clicked"] == 200
    line = text.split("\n").index("  monster beastman at 2,2")
    column = text.split("\n")[line].index("2,2")
    assert preview["shown"]["uri"] == quest.resolve().as_uri()
    assert preview["shown"]["selection"] == [line, column, line, column + 3]
    assert preview["shown"]["preserveFocus"] is False  # a click that asks for focus gets it
    assert session["exits"] == [{"code": 0, "signal": None}], session["output"]
