"""Helpers for driving `questc server` through pytest-lsp's real client over stdio."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from lsprotocol import types

PUBLISH = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS
SERVER_COMMAND = [sys.executable, "-m", "questc", "server"]


def ident(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri)


def position_of(text: str, needle: str, occurrence: int = 0, shift: int = 0) -> types.Position:
    """The LSP position of the `occurrence`-th `needle` in the text (plus `shift` characters)."""
    at = -1
    for _ in range(occurrence + 1):
        at = text.index(needle, at + 1)
    at += shift
    line = text.count("\n", 0, at)
    return types.Position(line, at - (text.rfind("\n", 0, at) + 1))


def published(client) -> list[types.PublishDiagnosticsParams]:
    """Every publishDiagnostics the client has had, in order (recorded from the first call on).

    pytest-lsp's `wait_for_notification_async` is one future for the next notification: a second
    one read in the same batch (two open quests checked again at once, by a fast server) was
    missed, and the test waited for it until its timeout."""
    record = getattr(client, "questc_published", None)
    if record is None:
        record = client.questc_published = []
        handle = client.protocol._handle_notification

        def recording(method_name, params):
            if method_name == PUBLISH:
                record.append(params)
            return handle(method_name, params)

        client.protocol._handle_notification = recording
    return record


async def diagnostics_for(client, uri: str, version: int, send, timeout: float = 30.0) -> list[types.Diagnostic]:
    """Call `send()` and wait for the diagnostics of `uri` at `version` (skipping older ones)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    record = published(client)
    seen = len(record)
    send()
    while True:
        for params in record[seen:]:
            if params.uri == uri and params.version == version:
                return list(params.diagnostics)
        seen = len(record)
        if loop.time() > deadline:
            raise TimeoutError(f"no diagnostics of {uri} at version {version} in {timeout} s")
        await asyncio.sleep(0.002)


async def open_quest(client, path: Path, text: str | None = None, version: int = 1) -> tuple[str, list]:
    text = path.read_text(encoding="utf-8") if text is None else text
    uri = path.resolve().as_uri()
    found = await diagnostics_for(
        client,
        uri,
        version,
        lambda: client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "quest", version, text))
        ),
    )
    return uri, found


async def change(client, uri: str, version: int, changes) -> list[types.Diagnostic]:
    return await diagnostics_for(
        client,
        uri,
        version,
        lambda: client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri), list(changes)
            )
        ),
    )


def whole(text: str) -> types.TextDocumentContentChangeWholeDocument:
    return types.TextDocumentContentChangeWholeDocument(text=text)


def replace(start: types.Position, end: types.Position, text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(range=types.Range(start, end), text=text)


def apply_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP text edits (ASCII text: characters are code units) from the last to the first."""

    def offset(p: types.Position) -> int:
        starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        return starts[p.line] + p.character

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def accept_registrations(client) -> list:
    """Let the client take the server's `client/registerCapability` requests (as editors do), and keep them."""
    registrations: list = []

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register(params: types.RegistrationParams):
        registrations.extend(params.registrations)

    client.registrations = registrations
    return registrations
