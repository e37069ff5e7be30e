"""How `questc server` paces its checks (issue 29), as behaviour, not timing: with no pause asked
for, a change is checked at once, with the incremental parse; changes that come while a check runs
are taken together by the next check; an older version is never published after a newer one; and
what is published is a full check's diagnostics. The server's verbose trace (`$/logTrace`) says,
for each published check, which version it was and how it was parsed."""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import SERVER_COMMAND, accept_registrations, open_quest

from questc.api import Options, check_source

pytestmark = [pytest.mark.asyncio(loop_scope="module"), pytest.mark.slow]  # a questc process, a 600-cell map

REPO = Path(__file__).resolve().parents[1]


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)
    lsp_client.traces = []  # type: ignore[attr-defined]
    lsp_client.published = []  # type: ignore[attr-defined]

    @lsp_client.feature(types.LOG_TRACE)
    def traced(params: types.LogTraceParams) -> None:
        lsp_client.traces.append(json.loads(params.verbose or "{}"))  # type: ignore[attr-defined]

    # No `debounce` among the options: the server's own pace.
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), trace=types.TraceValue.Verbose
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def _map() -> str:
    """A map of 600 cells (bench/dungeon.py): a check long enough for edits to come during it."""
    sys.path.insert(0, str(REPO / "bench"))
    from dungeon import dungeon

    return dungeon(600)[0]


async def _published(client: LanguageClient, uri: str, version: int, timeout: float = 60.0) -> list:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        if any(t.get("version") == version for t in client.traces):  # type: ignore[attr-defined]
            return client.diagnostics[uri]  # type: ignore[attr-defined]  # pytest-lsp keeps the last
        await asyncio.sleep(0.01)
    raise TimeoutError(f"no diagnostics for version {version}")


def _typed(uri: str, version: int, line: int, character: int, letter: str) -> types.DidChangeTextDocumentParams:
    at = types.Position(line, character)
    return types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(version=version, uri=uri),
        [types.TextDocumentContentChangePartial(range=types.Range(at, at), text=letter)],
    )


def _spot(text: str) -> tuple[int, int]:
    """Just inside the closing quote of the first area's name for players."""
    for number, line in enumerate(text.split("\n")):
        if line.startswith("area ") and '"' in line:
            return number, line.index('"', line.index('"') + 1)
    raise AssertionError("no area with a name for players")


async def test_a_keystroke_is_checked_with_the_statements_it_touched_parsed_again(client, tmp_path):
    text = _map()
    path = tmp_path / "paced.quest"
    path.write_text(text, encoding="utf-8")
    options = Options(ignore=("Q404", "Q405"))
    (tmp_path / "questc.toml").write_text('ignore = ["Q404", "Q405"]\n', encoding="utf-8")
    client.traces.clear()
    uri, _found = await open_quest(client, path, text)
    line, character = _spot(text)
    client.text_document_did_change(_typed(uri, 2, line, character, "x"))
    found = await _published(client, uri, 2)
    opened, typed = client.traces[0], client.traces[-1]
    assert (opened["version"], opened["in_part"]) == (1, False)  # opened: the whole text
    assert (typed["version"], typed["in_part"]) == (2, True)  # a keystroke: its statement alone
    lines = text.split("\n")
    lines[line] = lines[line][:character] + "x" + lines[line][character:]
    full = check_source("\n".join(lines), str(path), options)
    assert [(d.code, d.range.start.line) for d in found] == [
        (d.code, d.span.line - 1) for d in full.diagnostics if d.code not in ("Q404", "Q405")
    ]


async def test_changes_during_a_check_are_checked_together_and_in_order(client, tmp_path):
    text = _map()
    path = tmp_path / "burst.quest"
    path.write_text(text, encoding="utf-8")
    (tmp_path / "questc.toml").write_text('ignore = ["Q404", "Q405"]\n', encoding="utf-8")
    uri, _found = await open_quest(client, path, text)
    client.traces.clear()
    line, character = _spot(text)
    edits = 30
    for number in range(edits):  # a burst: 30 letters typed, none waiting for diagnostics
        client.text_document_did_change(_typed(uri, 2 + number, line, character + number, "abc"[number % 3]))
    await _published(client, uri, 1 + edits)
    versions = [t["version"] for t in client.traces]
    assert versions == sorted(set(versions))  # never an older version after a newer one
    assert versions[-1] == 1 + edits
    assert len(versions) < edits  # those that came while a check ran were checked together
