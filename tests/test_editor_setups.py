"""The editor set-ups of docs/editors.md, as written there.

Each snippet the page marks `<!-- test: ... -->` is taken from the page itself, so the
page cannot drift from what was tried:
- every Neovim snippet runs in a headless Neovim (each installed one new enough for it)
  on a quest with a mistake, and must give the server's diagnostic and a hover;
- the Helix `languages.toml` is checked against Helix's own configuration types (Helix
  is not packaged for Debian 12 or on PyPI, so it is not run);
- the VS Code commands match the extension's manifest.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from editor_tools import REPO, TYPO, VSCODE, missing, neovims, require_questc_server

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

PAGE = REPO / "docs" / "editors.md"

# Appended to a snippet: wait for the diagnostics, ask for a hover on `R1` (line 4),
# write what came back to $OUT, quit. Written for Neovim 0.7 and later alike.
DRIVER = r"""
vim.api.nvim_create_autocmd('VimEnter', { callback = function()
  local out = { filetype = vim.bo.filetype, commentstring = vim.bo.commentstring, diagnostics = {}, hover = {} }
  out.diagnosed = vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
  for _, d in ipairs(vim.diagnostic.get(0)) do
    table.insert(out.diagnostics, { line = d.lnum + 1, col = d.col + 1, code = d.code, message = d.message })
  end
  local hover = vim.lsp.buf_request_sync(0, 'textDocument/hover', {
    textDocument = { uri = vim.uri_from_bufnr(0) }, position = { line = 3, character = 7 },
  }, 20000)
  for _, r in pairs(hover or {}) do
    if r.result then table.insert(out.hover, r.result.contents) end
  end
  vim.fn.writefile({ vim.fn.json_encode(out) }, os.getenv('QUESTC_TEST_OUT'))
  vim.cmd('qa!')
end })
"""


def snippets(kind: str) -> list[tuple[str, str]]:
    """(the marker's argument, the code block after it) for each `<!-- test: KIND ... -->`."""
    text = PAGE.read_text(encoding="utf-8")
    found = re.findall(r"<!-- test: " + kind + r"\b ?(.*?) ?-->\n```[a-z]+\n(.*?)```", text, re.S)
    assert found, f"no {kind} snippet marked in {PAGE}"
    return found


def version(text: str) -> tuple[int, int]:
    major, minor = re.fullmatch(r">= (\d+)\.(\d+)", text.strip()).groups()
    return int(major), int(minor)


@pytest.mark.slow  # Neovim and questc server as processes
@pytest.mark.parametrize("snippet", snippets("neovim"), ids=lambda s: s[0].replace(" ", ""))
def test_the_neovim_setup(snippet, tmp_path):
    needs, lua = snippet
    # The oldest Neovim new enough for the snippet: the one it is written for.
    runnable = sorted(((nvim, v) for nvim, v in neovims() if v >= version(needs)), key=lambda nv: nv[1])[:1]
    if not runnable:
        found = ", ".join(f"{n} {a}.{b}" for n, (a, b) in neovims()) or "none"
        missing(f"this snippet needs Neovim {needs} (found: {found}; set QUESTC_TEST_NVIM to a list of nvim programs)")
    questc = require_questc_server()
    (tmp_path / "init.lua").write_text(lua + DRIVER, encoding="utf-8")
    quest = tmp_path / "project" / "typo.quest"
    quest.parent.mkdir()
    quest.write_text(TYPO, encoding="utf-8")
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(questc).parent), os.environ.get("PATH", "")]),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    for nvim, (major, minor) in runnable:
        out = tmp_path / f"out-{major}.{minor}.json"
        done = subprocess.run(
            [nvim, "--headless", "--clean", "-u", str(tmp_path / "init.lua"), str(quest)],
            cwd=quest.parent,
            env={**env, "QUESTC_TEST_OUT": str(out)},
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        where = f"Neovim {major}.{minor} ({nvim}): {done.stdout}{done.stderr}"
        assert done.returncode == 0 and out.exists(), where
        result = json.loads(out.read_text(encoding="utf-8"))
        assert result["filetype"] == "quest" and result["commentstring"] == "# %s", where
        assert result["diagnosed"], f"{where}: no diagnostics"
        typo = [d for d in result["diagnostics"] if d["code"] == "Q101"]
        assert [(d["line"], d["col"]) for d in typo] == [(8, 11)], result["diagnostics"]
        assert "beastman" in typo[0]["message"]
        assert any("R1" in (h["value"] if isinstance(h, dict) else str(h)) for h in result["hover"]), result["hover"]


# The keys Helix accepts (helix-core/src/syntax/config.rs, helix-editor/helix at
# 079a789e, 2026-07-23): a language refuses unknown keys (deny_unknown_fields).
HELIX_LANGUAGE_KEYS = {
    "name",
    "language-id",
    "scope",
    "file-types",
    "shebangs",
    "roots",
    "comment-token",
    "comment-tokens",
    "block-comment-tokens",
    "text-width",
    "soft-wrap",
    "auto-format",
    "code-actions-on-save",
    "formatter",
    "path-completion",
    "word-completion",
    "diagnostic-severity",
    "grammar",
    "injection-regex",
    "language-servers",
    "indent",
    "debugger",
    "auto-pairs",
    "rulers",
    "workspace-lsp-roots",
    "persistent-diagnostic-sources",
    "rainbow-brackets",
}
HELIX_SERVER_KEYS = {"command", "args", "environment", "config", "timeout", "required-root-patterns"}


def test_the_helix_setup():
    ((_, text),) = snippets("helix")
    config = tomllib.loads(text)
    (language,) = config["language"]
    assert set(language) <= HELIX_LANGUAGE_KEYS, set(language) - HELIX_LANGUAGE_KEYS
    assert {"name", "scope", "file-types"} <= set(language)  # required by Helix
    assert language["file-types"] == ["quest"]
    assert language["scope"] == json.loads((VSCODE / "syntaxes" / "quest.tmLanguage.json").read_text())["scopeName"]
    comment = json.loads((VSCODE / "language-configuration.json").read_text())["comments"]["lineComment"]
    assert language["comment-token"] == comment
    assert set(language["indent"]) == {"tab-width", "unit"}
    servers = config["language-server"]
    assert language["language-servers"] == list(servers) == ["questc"]
    assert set(servers["questc"]) <= HELIX_SERVER_KEYS
    assert [servers["questc"]["command"], *servers["questc"]["args"]] == ["questc", "server"]


def test_the_vscode_commands_name_the_package_the_tools_make():
    ((_, text),) = snippets("vscode")
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    lines = text.strip().splitlines()
    assert lines[:3] == ["cd editors/vscode", "npm ci", "npx @vscode/vsce package"]
    assert lines[3] == f"code --install-extension {package['name']}-{package['version']}.vsix"


# Appended to a set-up snippet and the preview snippet: wait for the diagnostics, run
# :QuestPreview, write the page's address, type "The " into the title (a change the server
# is sent as an edit), then wait for the cursor to be moved (the test clicks the page) and
# write where it is.
PREVIEW_DRIVER = r"""
vim.api.nvim_create_autocmd('VimEnter', { callback = function()
  local out = {}
  out.diagnosed = vim.wait(60000, function() return next(vim.lsp.get_active_clients()) ~= nil
    and #vim.diagnostic.get(0) == 0 and vim.b.questc_checked end, 50)
  vim.cmd('QuestPreview')
  out.previewed = vim.wait(20000, function() return vim.g.questc_preview ~= nil end, 50)
  out.url = vim.g.questc_preview
  vim.fn.writefile({ vim.fn.json_encode(out) }, os.getenv('QUESTC_TEST_OUT') .. '.url')
  vim.api.nvim_buf_set_text(0, 0, 7, 0, 7, { 'The ' })
  vim.api.nvim_win_set_cursor(0, { 1, 0 })
  out.moved = vim.wait(tonumber(os.getenv('QUESTC_TEST_WAIT')), function()
    return vim.api.nvim_win_get_cursor(0)[1] ~= 1 end, 50)
  out.cursor = vim.api.nvim_win_get_cursor(0)
  vim.fn.writefile({ vim.fn.json_encode(out) }, os.getenv('QUESTC_TEST_OUT'))
  vim.cmd('qa!')
end })
vim.lsp.handlers['textDocument/publishDiagnostics'] = (function(default)
  return function(err, result, ctx, config)
    vim.b.questc_checked = true
    return default(err, result, ctx, config)
  end
end)(vim.lsp.handlers['textDocument/publishDiagnostics'])
"""


@pytest.mark.slow
@pytest.mark.parametrize("needs", ["0.7", "0.11"])
def test_the_neovim_preview_follows_typing_and_clicks_move_the_cursor(needs, tmp_path):
    import time
    import urllib.request

    ((preview_needs, preview_lua),) = snippets("nvim-preview")
    wanted = tuple(int(p) for p in needs.split("."))
    runnable = [(n, v) for n, v in neovims() if v >= version(preview_needs) and v[:2] >= wanted]
    runnable = sorted(runnable, key=lambda nv: nv[1])[:1]
    if not runnable:
        missing(f"no Neovim {needs} or later (set QUESTC_TEST_NVIM to a list of nvim programs)")
    ((nvim, found),) = runnable
    setup = next(lua for marker, lua in snippets("neovim") if version(marker) <= found)
    questc = require_questc_server()
    (tmp_path / "init.lua").write_text(setup + preview_lua + PREVIEW_DRIVER, encoding="utf-8")
    quest = tmp_path / "project" / "clean.quest"
    quest.parent.mkdir()
    text = TYPO.replace("beastmen", "beastman")
    quest.write_text(text, encoding="utf-8")
    out = tmp_path / "out.json"
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(Path(questc).parent), os.environ.get("PATH", "")]),
        "XDG_STATE_HOME": str(tmp_path / "state"),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
        "QUESTC_TEST_OUT": str(out),
        "BROWSER": "true",  # Neovim 0.10+ opens the page: with nothing
        "QUESTC_TEST_WAIT": "30000" if found >= (0, 10) else "3000",
    }  # (0.7-0.9 will not move)
    process = subprocess.Popen(
        [nvim, "--headless", "--clean", "-u", str(tmp_path / "init.lua"), str(quest)],
        cwd=quest.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 90
        url_file = Path(str(out) + ".url")
        while not url_file.exists():
            assert process.poll() is None and time.monotonic() < deadline, process.communicate()
            time.sleep(0.05)
        url = json.loads(url_file.read_text(encoding="utf-8"))["url"]
        assert url and url.startswith("http://127.0.0.1:")

        def state():
            with urllib.request.urlopen(url + "api/state", timeout=10) as reply:
                return json.loads(reply.read())

        while not (state().get("scene") or {}).get("title", "").startswith("The "):
            assert time.monotonic() < deadline, "the page did not follow the typing"
            time.sleep(0.05)
        request = urllib.request.Request(
            url + "api/show",
            method="POST",
            data=json.dumps({"cell": [2, 2], "focus": True}).encode(),
            headers={"Origin": url.rstrip("/"), "Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as reply:
            shown = json.loads(reply.read())
        assert shown["shown"]
        process.wait(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
        stdout, stderr = process.communicate()
    assert quest.read_text(encoding="utf-8") == text  # the page showed the unsaved text
    result = json.loads(out.read_text(encoding="utf-8"))
    if found >= (0, 10):  # Neovim 0.10 and later are asked to show the statement, and do
        line = text.split("\n").index("  monster beastman at 2,2")
        assert result["moved"] and result["cursor"] == [line + 1, text.split("\n")[line].index("2,2")], result
    else:  # 0.7 to 0.9 cannot be asked (no window/showDocument): the cursor stays
        assert not result["moved"], result
