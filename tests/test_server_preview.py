"""The preview served by the language server, driven from a real LSP client (pytest-lsp): the page
follows the editor's unsaved text, a click on it asks the editor to show the statement, the
editor's cursor outlines its thing on the map, diagnostics link their documentation."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from server_client import SERVER_COMMAND, accept_registrations, change, ident, open_quest, position_of, replace
from test_server import QUEST

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(scope="module", config=ClientServerConfig(server_command=SERVER_COMMAND))
async def client(lsp_client: LanguageClient):
    accept_registrations(lsp_client)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"), initialization_options={"debounce": 0}
        )
    )
    yield
    await lsp_client.shutdown_session()


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as reply:
        return json.loads(reply.read())


def post(url: str, body: dict, origin: str | None = None) -> tuple[int, dict]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", **({"Origin": origin} if origin else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, json.loads(reply.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


async def state_when(url: str, check, timeout: float = 10.0) -> dict:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while True:
        state = await loop.run_in_executor(None, get, url + "api/state")
        if check(state):
            return state
        assert loop.time() < deadline, f"the page did not follow: {state.get('version')}, {state.get('stale')}"
        await asyncio.sleep(0.05)


async def preview_of(client: LanguageClient, uri: str | None = None) -> str:
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams("questc.preview", [uri] if uri else None)
    )
    assert answer["url"].startswith("http://127.0.0.1:")
    return answer["url"]


async def test_the_page_follows_the_unsaved_text(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "live.quest"
    path.write_text(QUEST, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    url = await preview_of(client, uri)
    # The editor was asked to open the page in the browser.
    for _ in range(100):
        if any(d.uri == url and d.external for d in client.shown_documents):
            break
        await asyncio.sleep(0.05)
    assert any(d.uri == url and d.external for d in client.shown_documents)
    state = await state_when(url, lambda s: s["scene"] is not None)
    assert state["scene"]["title"] == "Server Test" and state["editor"] is True
    # Typing: the page shows the new title, never saved.
    at = position_of(QUEST, "Server Test")
    await change(client, uri, 2, [replace(at, types.Position(at.line, at.character + 6), "Unsaved")])
    state = await state_when(url, lambda s: s["scene"] and s["scene"]["title"] == "Unsaved Test")
    assert path.read_text(encoding="utf-8") == QUEST
    # A mistake typed: the page lists it, with its documentation's address.
    at = position_of(QUEST, "beastman")
    await change(client, uri, 3, [replace(at, types.Position(at.line, at.character + 8), "beastmen")])
    state = await state_when(url, lambda s: any(d["code"] == "Q101" for d in s["diagnostics"]))
    typo = next(d for d in state["diagnostics"] if d["code"] == "Q101")
    from questc.project import diagnostic_page

    assert typo["page"] == diagnostic_page("Q101")
    # The same preview for the same document: one page, one server.
    assert await preview_of(client, uri) == url
    assert await preview_of(client) == url  # no argument: the document touched last


async def test_a_click_on_the_page_shows_the_statement_in_the_editor(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "click.quest"
    path.write_text(QUEST, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    url = await preview_of(client, uri)
    await state_when(url, lambda s: s["scene"] is not None)
    origin = url.rstrip("/")
    loop = asyncio.get_running_loop()
    before = len(client.shown_documents)
    # The beastman stands at 3,1: its statement, selected.
    status, answer = await loop.run_in_executor(None, post, url + "api/show", {"cell": [3, 1]}, origin)
    assert status == 200 and answer["shown"], answer
    for _ in range(100):
        if len(client.shown_documents) > before:
            break
        await asyncio.sleep(0.05)
    shown = client.shown_documents[-1]
    assert shown.uri == uri and not shown.external
    # The place the figure was written at, on its statement's line: `monster beastman at 3,1`.
    start = position_of(QUEST, "3,1")
    assert shown.selection == types.Range(start, types.Position(start.line, start.character + 3))
    # A door: its statement; a floor square with nothing on it: its piece.
    await loop.run_in_executor(None, post, url + "api/show", {"door": "d2", "focus": True}, origin)
    for _ in range(100):
        if client.shown_documents[-1].selection.start == position_of(QUEST, "door d2"):
            break
        await asyncio.sleep(0.05)
    assert client.shown_documents[-1].selection.start == position_of(QUEST, "door d2")
    assert client.shown_documents[-1].take_focus is True
    # Another site's page cannot make the editor jump.
    status, _ = await loop.run_in_executor(None, post, url + "api/show", {"cell": [3, 1]}, "http://evil.example")
    assert status == 403
    status, _ = await loop.run_in_executor(None, post, url + "api/show", {"cell": [3, 1]})
    assert status == 403


async def test_the_cursor_outlines_its_thing_on_the_map(client: LanguageClient, tmp_path: Path):
    path = tmp_path / "cursor.quest"
    path.write_text(QUEST, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    url = await preview_of(client, uri)
    state = await state_when(url, lambda s: s["scene"] is not None)
    cells = state["scene"]["cells"]
    loop = asyncio.get_running_loop()

    def cursor_event() -> dict:
        import http.client

        host, port = url[len("http://") :].rstrip("/").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        connection.request("GET", "/events")
        reply = connection.getresponse()
        event = None
        while True:
            line = reply.fp.readline().decode().strip()
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "cursor":
                connection.close()
                return json.loads(line[6:])

    waiting = loop.run_in_executor(None, cursor_event)
    await asyncio.sleep(0.3)
    # Editors ask for highlights as the cursor moves: on the beastman's line.
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(ident(uri), position_of(QUEST, "beastman at 3,1", shift=2))
    )
    assert highlights is None  # a catalog name, not an identifier: nothing to highlight in the text
    event = await asyncio.wait_for(waiting, 10)
    assert [cells[i][:2] for i in event["cells"]] == [[3, 1]] and event["off_map"] == []
    # On an identifier, the highlights are its occurrences, the definition written.
    found = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(ident(uri), position_of(QUEST, "boss", occurrence=1))
    )
    assert {h.kind for h in found} == {types.DocumentHighlightKind.Write, types.DocumentHighlightKind.Read}
    assert len(found) == QUEST.count("boss")


@pytest.mark.slow  # a browser
async def test_in_the_browser_the_cursor_and_the_clicks(client: LanguageClient, tmp_path: Path):
    """The writer's loop in headless Chromium: the editor's cursor outlines the beastman on the page,
    and a click on its square makes the editor show its statement."""
    from test_preview_browser import MISSING, click_cell, count, wait

    if MISSING is not None:
        pytest.skip(MISSING)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from test_preview_browser import CHROMIUM, DRIVER

    path = tmp_path / "browser.quest"
    path.write_text(QUEST, encoding="utf-8")
    uri, _ = await open_quest(client, path)
    url = await preview_of(client, uri)
    await state_when(url, lambda s: s["scene"] is not None)
    loop = asyncio.get_running_loop()
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1200,800",
    ):
        options.add_argument(argument)
    browser = await loop.run_in_executor(None, lambda: webdriver.Chrome(service=Service(str(DRIVER)), options=options))
    try:
        await loop.run_in_executor(None, browser.get, url)
        await loop.run_in_executor(None, lambda: wait(browser, lambda: count(browser, "#pv-drawing g.cell") > 0, 10))
        await client.text_document_document_highlight_async(
            types.DocumentHighlightParams(ident(uri), position_of(QUEST, "beastman at 3,1"))
        )
        await loop.run_in_executor(
            None, lambda: wait(browser, lambda: count(browser, ".pv-cursor") == 1, 10, "the cursor's outline")
        )
        outline = browser.execute_script("return document.querySelector('.pv-cursor').getAttribute('d')")
        assert sorted(outline.split("M")[1:]) == ["3 1h1", "3 1v1", "3 2h1", "4 1v1"]  # the square 3,1
        before = len(client.shown_documents)
        await loop.run_in_executor(None, click_cell, browser, 3, 1)
        for _ in range(200):
            if len(client.shown_documents) > before:
                break
            await asyncio.sleep(0.05)
        shown = client.shown_documents[-1]
        assert shown.uri == uri and shown.selection.start == position_of(QUEST, "3,1")
        # Typed (unsaved): an ogre off the map. Its pin stands at the map's edge; the cursor on its
        # line lights that pin, as it would outline a square.
        where = position_of(QUEST, "  monster beastman")
        await change(client, uri, 2, [replace(where, where, "  monster ogre at 40,40\n")])
        await loop.run_in_executor(
            None, lambda: wait(browser, lambda: count(browser, ".pv-pin.off") == 1, 10, "the off-map pin")
        )
        await client.text_document_document_highlight_async(
            types.DocumentHighlightParams(ident(uri), types.Position(where.line, 12))
        )
        await loop.run_in_executor(
            None,
            lambda: wait(
                browser, lambda: count(browser, ".pv-pin.pv-cursor-pin") == 1, 10, "the off-map pin lit by the cursor"
            ),
        )
        assert count(browser, ".pv-cursor") == 0
    finally:
        await loop.run_in_executor(None, browser.quit)


async def test_the_cursor_on_a_thing_off_the_map_names_its_squares(client: LanguageClient, tmp_path: Path):
    """A figure written off the map has no square to outline: the cursor event names where it was
    written, and the page lights the pin at the map's edge that stands for it."""
    text = QUEST.replace("  monster beastman at 3,1\n", "  monster beastman at 3,1\n  monster ogre at 40,40\n")
    path = tmp_path / "off.quest"
    path.write_text(text, encoding="utf-8")
    uri, found = await open_quest(client, path, text)
    assert "Q204" in [d.code for d in found]
    url = await preview_of(client, uri)
    state = await state_when(url, lambda s: s["scene"] is not None and s["version"] > 0)
    (pinned,) = [d for d in state["scene"]["diagnostics"] if d.get("off_map")]
    await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(ident(uri), position_of(text, "ogre at 40,40"))
    )
    loop = asyncio.get_running_loop()
    for _ in range(100):
        event = await loop.run_in_executor(None, last_cursor, url)
        if event and event["off_map"]:
            break
        await asyncio.sleep(0.05)
    assert event["cells"] == [] and event["off_map"] == [[40, 40], [40, 41], [41, 40], [41, 41]]  # an ogre: 2x2
    assert pinned["off_map"] in event["off_map"]  # what the page matches the pin by


def last_cursor(url: str) -> dict | None:
    """The cursor event a page gets when it connects (the server sends the cursor as it stands)."""
    import http.client

    host, port = url[len("http://") :].rstrip("/").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        connection.request("GET", "/events")
        reply = connection.getresponse()
        event = None
        for _ in range(50):
            line = reply.fp.readline().decode().strip()
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "cursor":
                return json.loads(line[6:])
        return None
    finally:
        connection.close()
