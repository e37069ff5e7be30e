"""The preview served by the language server: the page of `questc preview`, fed by the editor.

`questc.preview` (a workspace command: its argument the document's URI, else the document
last touched) starts a preview server for that document on 127.0.0.1 (any free port) and
answers its address (and, where the client can, opens it: `window/showDocument` with
`external`). From then on the page follows the editor's unsaved text: each check the
diagnostics come from is handed to the preview as it is (the quest is never checked twice
for it), and the page's scene is made from it on a thread of its own, the newest check
only, so a burst of keystrokes costs one scene. A click on the page asks the editor to
show the statement behind it (`window/showDocument` with a selection), and the editor's
cursor (the positions of `textDocument/documentHighlight` and hover requests, which
editors send as it moves) outlines its thing on the map.
"""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from questc.api import Span
    from questc.preview.server import PreviewServer
    from questc.preview.session import Preview
    from questc.server.document import Checked, QuestDocument

MAX_PREVIEWS = 8  # documents previewed at once (a server and a thread each)


@dataclass
class Page:
    """The preview page the language server shows for a document."""

    preview: Preview
    http: PreviewServer
    url: str
    pending: Checked | None = None
    shown: int | None = None  # the document version the page shows
    timings: list = field(default_factory=list)


class Previews:
    """The language server's previews, one per document asked for."""

    def __init__(self, ls):
        self.ls = ls
        self.pages: dict[str, Page] = {}
        self.lock = threading.Lock()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="questc-preview-scene")
        self.loop: asyncio.AbstractEventLoop | None = None

    def open(self, document: QuestDocument) -> str:
        """The page's address for this document, its server started on first use."""
        page = self.pages.get(document.uri)
        if page is not None:
            return page.url
        if len(self.pages) >= MAX_PREVIEWS:
            raise RuntimeError(
                f"{MAX_PREVIEWS} documents are previewed already: close the server's other previews by restarting it"
            )
        from questc.preview.server import serve
        from questc.preview.session import Preview

        self.loop = asyncio.get_running_loop()
        path = document.path or Path(document.uri.rsplit("/", 1)[-1] or "untitled.quest")
        preview = Preview(path)
        uri = document.uri
        loop = self.loop

        def on_show(span: Span, focus: bool) -> None:  # from the page's thread: the editor is the loop's
            loop.call_soon_threadsafe(self.ls.show_source, uri, span, focus)

        preview.on_show = on_show
        http = serve(preview, "127.0.0.1", 0)
        threading.Thread(
            target=http.serve_forever, kwargs={"poll_interval": 0.2}, daemon=True, name="questc-preview-http"
        ).start()
        page = Page(preview, http, f"http://127.0.0.1:{http.server_address[1]}/")
        self.pages[uri] = page
        if document.checked is not None:
            self.publish(document, document.checked)
        return page.url

    def publish(self, document: QuestDocument, checked: Checked) -> None:
        """A check of the document, for its page (when it has one): the scene is made on the preview's
        thread, for the newest check waiting only."""
        page = self.pages.get(document.uri)
        if page is None:
            return
        with self.lock:
            idle = page.pending is None
            page.pending = checked
        if idle:
            self.worker.submit(self._draw, page)

    def _draw(self, page: Page) -> None:
        with self.lock:
            checked, page.pending = page.pending, None
        if checked is None:
            return
        page.preview.publish(checked.result)
        page.shown = checked.version

    def cursor(self, document: QuestDocument, offset: int) -> None:
        page = self.pages.get(document.uri)
        if page is not None:
            page.preview.set_cursor(max(0, offset - (1 if document.text.startswith("\ufeff") else 0)))

    def close(self, uri: str | None = None) -> None:
        for key in [uri] if uri is not None else list(self.pages):
            page = self.pages.pop(key, None)
            if page is not None:
                page.preview.close()
                page.http.shutdown()
                page.http.server_close()


def show_range(document: QuestDocument, span: Span) -> types.Range:
    """Where a span of the page lies in the editor: counted in the text the page was drawn from."""
    checked = document.checked
    lines = checked.lines if checked is not None else document.lines()
    return lines.range(span)
