"""`questc server` under stress: its own bugs logged and survived, a thousand random edits without an error."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import accept_registrations, change, ident, open_quest, replace
from test_server import QUEST, lsp_view

from questc.api import check_source

pytestmark = pytest.mark.asyncio(loop_scope="module")
TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent


@pytest_lsp.fixture(
    scope="module", config=ClientServerConfig(server_command=[sys.executable, str(TESTS / "server_faulty.py")])
)
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0}
        )
    )
    yield
    await lsp_client.shutdown_session()


async def test_a_failing_request_is_logged_and_the_server_goes_on(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "fault.quest"
    path.write_text(QUEST, encoding="utf-8")
    # The first check fails: the writer is told, not left with a silent editor.
    uri, found = await open_quest(client, path)
    assert len(found) == 1 and "internal error: RuntimeError: planted check fault" in found[0].message
    assert any("planted check fault" in m.message and "Traceback" in m.message for m in client.log_messages)
    # The next edit is checked again, normally.
    found = await change(client, uri, 2, [replace(types.Position(0, 0), types.Position(0, 0), "# edited\n")])
    assert found == []
    with pytest.raises(Exception, match="hover failed: RuntimeError: planted hover fault"):
        await client.text_document_hover_async(types.HoverParams(ident(uri), types.Position(8, 10)))
    assert any(m.type == types.MessageType.Error and "planted hover fault" in m.message for m in client.log_messages)
    # Every other feature still answers, on this document and others.
    symbols = await client.text_document_document_symbol_async(types.DocumentSymbolParams(ident(uri)))
    assert symbols
    other = tmp_path / "fine.quest"
    other.write_text(QUEST, encoding="utf-8")
    other_uri, _ = await open_quest(client, other)
    assert await client.text_document_hover_async(types.HoverParams(ident(other_uri), types.Position(8, 10)))


_ALPHABET = 'abcdeqrs_019,.: {}"\n#;'


@pytest.mark.slow
async def test_a_thousand_random_edits(client: LanguageClient, tmp_path: Path):
    """Random one-character edits of a shipped quest, sent as an editor sends them while typing;
    now and then the client waits for diagnostics and asks for hover, completion and the outline
    at a random place. No request may fail, and the last diagnostics are the lint of the last text."""
    rng = random.Random(16)
    source = (REPO / "quests" / "chandlers_cellar.quest").read_text(encoding="utf-8")
    path = tmp_path / "typing.quest"
    path.write_text(source, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    text, errors_before = source, len([m for m in client.log_messages if m.type == types.MessageType.Error])
    for version in range(2, 1002):
        lines = text.split("\n")
        line = rng.randrange(len(lines))
        column = rng.randrange(len(lines[line]) + 1)
        start = types.Position(line, column)
        if rng.random() < 0.5 and column < len(lines[line]):
            edit, end, new = replace(start, types.Position(line, column + 1), ""), column + 1, ""
        else:
            new = rng.choice(_ALPHABET)
            edit, end = replace(start, start, new), column
        lines[line] = lines[line][:column] + new + lines[line][end:]
        text = "\n".join(lines)
        params = types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=version, uri=uri), [edit]
        )
        if version % 50 == 0:
            found = await change(client, uri, version, [edit])
            assert lsp_view(found) == _lint(text, path)
            anywhere = types.Position(rng.randrange(len(lines)), 0)
            await client.text_document_hover_async(types.HoverParams(ident(uri), anywhere))
            await client.text_document_completion_async(types.CompletionParams(ident(uri), anywhere))
            await client.text_document_document_symbol_async(types.DocumentSymbolParams(ident(uri)))
        else:
            client.text_document_did_change(params)
    errors = [m.message for m in client.log_messages if m.type == types.MessageType.Error][errors_before:]
    assert errors == []
    # Nothing is kept per message: only this request itself is pending (pygls 2.1 kept every edit's future).
    assert await client.workspace_execute_command_async(types.ExecuteCommandParams("test.pending")) == 1


def _lint(text: str, path: Path):
    result = check_source(text, str(path))
    return sorted(
        (d.code, d.span.line - 1, d.span.column - 1, d.span.end_line - 1, d.span.end_column - 1)
        for d in result.diagnostics
    )
