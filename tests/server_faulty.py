"""`questc server` with two planted faults, for the test that the server survives its own bugs.

Hover raises on any document whose name holds `fault`; checking raises on the first
check of such a document. A command, `test.pending`, tells how many futures the
protocol holds (none once every message is answered: the leak test). Everything else
is the real server.
"""

from __future__ import annotations

import questc.server.document as document
import questc.server.hover as hover
import questc.server.server as server

_real_hover = hover.hover_markdown
_real_check = document.check
_failed_once: set[str] = set()


def faulty_hover(doc, line, column):
    if "fault" in doc.uri:
        raise RuntimeError("planted hover fault")
    return _real_hover(doc, line, column)


def faulty_check(doc, text, version, options):
    if "fault" in doc.uri and doc.uri not in _failed_once:
        _failed_once.add(doc.uri)
        raise RuntimeError("planted check fault")
    return _real_check(doc, text, version, options)


hover.hover_markdown = faulty_hover
server.check = faulty_check


@server.server.command("test.pending")
def pending(ls, *args):
    return len(ls.protocol._request_futures)


@server.server.command("test.text")
def text_of(ls, uri):
    """The server's copy of an open document's text (the text synchronisation test compares it)."""
    document = ls.documents.get(uri[0] if isinstance(uri, list) else uri)
    return None if document is None else document.text


if __name__ == "__main__":
    server.serve()
