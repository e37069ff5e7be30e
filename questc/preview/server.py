"""The preview's HTTP server: the standard library's ThreadingHTTPServer, on 127.0.0.1.

Routes (GET and HEAD; one POST; anything else is 405; no file is ever written):
  /              the page;            /preview.js, /preview.css, /events-worker.js   its assets
  /api/state     the quest's state (scene, diagnostics, stale or not) as JSON
  /api/sight     ?cell=X,Y&open=DOOR,DOOR: the floor cells X,Y sees (indexes)
  /events        server-sent events: `state` with the new version after each refresh,
                 `cursor` with the squares under the editor's cursor
  POST /api/show {"cell": [x, y]} | {"door": id} | {"span": [line, col, end line, end col]}:
                 ask the editor to show that statement (a preview served by the language
                 server; `questc preview` has no editor and says so). Only from the page
                 itself: the request's Origin must be this server's.
Every other path is 404: no file is served by name, so no path can lead out.
Requests whose Host header is not localhost, 127.0.0.1 or [::1] (with this port)
are refused (421): a web page elsewhere cannot rebind its name to this server.

Limits: MAX_CONNECTIONS connections at once and MAX_STREAMS event streams (one per
browser: the page's tabs share one through a SharedWorker), each refused past that with
503 and a sentence saying why; a connection idle for IDLE_SECONDS is closed; the listen
backlog is BACKLOG. A thread that cannot be started (an address-space limit) refuses its
connection the same way instead of raising.

Why the standard library: the server has a handful of fixed routes, one client (the
writer's browser) and one push channel, which server-sent events give over plain HTTP; a
framework would add a dependency and an event loop for none of that.
"""

from __future__ import annotations

import json
import re
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any
from urllib.parse import parse_qs, urlsplit

_CELL = re.compile(r"^(-?\d{1,6}),(-?\d{1,6})$")
_DOOR = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,63}$")
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
_KEEPALIVE = 15.0  # seconds between comments on an idle event stream (proxies close silent ones)
MAX_CONNECTIONS = 64  # connections served at once (a thread each)
MAX_STREAMS = 16  # event streams at once: one per browser (its tabs share one), and room for more browsers
IDLE_SECONDS = 20.0  # a connection that sends nothing (or takes nothing) for this long is closed
BACKLOG = 128  # connections the system queues before the server accepts them
MAX_BODY = 4096  # bytes of a POST /api/show

_ASSETS = {
    "/preview.js": ("preview.js", "text/javascript; charset=utf-8"),
    "/preview.css": ("preview.css", "text/css; charset=utf-8"),
    "/events-worker.js": ("events-worker.js", "text/javascript; charset=utf-8"),
}
_CSP = (
    "default-src 'none'; script-src 'self'; worker-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)


def asset(name: str) -> str:
    """One of the page's own files (questc/preview/static/NAME), as text."""
    return resources.files("questc.preview").joinpath("static").joinpath(name).read_text(encoding="utf-8")


def page_html(title: str, inline: dict | None = None) -> str:
    """The page: the live one links its assets; the exported one (`inline`) carries them and the data."""
    from html import escape

    template = asset("page.html")
    if inline is None:
        head = '<link rel="stylesheet" href="/preview.css">'
        tail = '<script src="/preview.js"></script>'
    else:
        data = json.dumps(inline, separators=(",", ":")).replace("</", "<\\/")
        # No server behind an exported page: forbid it every request, scripts and styles inline only.
        head = (
            '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
            "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
            "base-uri 'none'; form-action 'none'\">"
            f"<style>{asset('preview.css')}</style>"
        )
        tail = f'<script type="application/json" id="questc-data">{data}</script><script>{asset("preview.js")}</script>'
    return template.replace("{{title}}", escape(title)).replace("{{head}}", head).replace("{{tail}}", tail)


class PreviewServer(ThreadingHTTPServer):
    """The preview's HTTP server: one quest's page, map and event stream."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = BACKLOG

    def __init__(
        self,
        address,
        preview,
        extra_host: str | None = None,
        idle: float = IDLE_SECONDS,
        max_connections: int = MAX_CONNECTIONS,
        max_streams: int = MAX_STREAMS,
    ):
        import threading

        self.preview = preview
        self.extra_host = extra_host
        self.idle = idle
        self.max_connections, self.max_streams = max_connections, max_streams
        self.connections = self.streams = 0
        self.counts = threading.Lock()
        super().__init__(address, Handler)

    # -- a cap on connections, with a clear refusal ------------------------------------------
    def process_request(self, request, client_address):
        import threading

        with self.counts:
            full = self.connections >= self.max_connections
            if not full:
                self.connections += 1
        if full:
            self.refuse(request, "too many connections to the preview at once; close some tabs and reload")
            return
        try:
            threading.Thread(
                target=self.process_request_thread,
                args=(request, client_address),
                daemon=True,
                name="questc-preview-request",
            ).start()
        except RuntimeError:  # no thread to be had (an address-space limit): refuse, do not raise
            with self.counts:
                self.connections -= 1
            self.refuse(request, "the preview cannot take another connection now (out of memory for threads)")

    def process_request_thread(self, request, client_address):
        try:
            super().process_request_thread(request, client_address)
        finally:
            with self.counts:
                self.connections -= 1

    def refuse(self, request, why: str) -> None:
        """503 and a sentence, without reading the request: written and closed at once."""
        body = (why + "\n").encode("utf-8")
        try:
            request.settimeout(2.0)
            request.sendall(
                b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                b"Retry-After: 2\r\nConnection: close\r\nContent-Length: %d\r\n\r\n" % len(body) + body
            )
        except OSError:
            pass
        self.shutdown_request(request)

    def handle_error(self, request, client_address):  # a connection's failure: one line, no traceback
        error = sys.exc_info()[1]
        if not isinstance(error, (ConnectionError, TimeoutError, OSError)):
            print(f"questc preview: a request failed: {type(error).__name__}: {error}", file=sys.stderr)

    def allowed_host(self, header: str | None) -> bool:
        if not header:
            return False
        port = self.server_address[1]
        names = list(LOCAL_NAMES) + ([self.extra_host] if self.extra_host else [])
        header = header.strip().lower()
        if any(header in (name, f"{name}:{port}") for name in names):
            return True
        if self.extra_host in ("0.0.0.0", "::"):
            # Bound to every interface: any address typed as digits is fine, since a
            # rebinding attack needs a name; names other than localhost stay refused.
            import ipaddress

            bare = header[: -len(f":{port}")] if header.endswith(f":{port}") else header
            try:
                ipaddress.ip_address(bare.strip("[]"))
                return True
            except ValueError:
                return False
        return False


class Handler(BaseHTTPRequestHandler):
    """Answers one connection to the preview server."""

    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "questc-preview"
    sys_version = ""

    def setup(self):
        self.timeout = self.server.idle  # type: ignore[misc]  # per connection: reads and writes on it; idle ones end
        super().setup()

    def log_message(self, format, *args):  # quiet: the terminal is the writer's
        pass

    # -- dispatch -----------------------------------------------------------------------
    def do_HEAD(self):
        self._dispatch(head=True)

    def do_GET(self):
        self._dispatch(head=False)

    def _refuse(self):
        self._send(
            HTTPStatus.METHOD_NOT_ALLOWED,
            b"the preview is read-only\n",
            "text/plain; charset=utf-8",
            extra={"Allow": "GET, HEAD"},
        )

    do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

    def do_POST(self):
        try:
            if not self.server.allowed_host(self.headers.get("Host")):
                self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host\n", "text/plain; charset=utf-8")
                return
            if urlsplit(self.path).path != "/api/show":
                self._refuse()
                return
            self._show()
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True
        except Exception as error:  # noqa: BLE001 - never let a request take the server down
            print(f"questc preview: internal error: {type(error).__name__}: {error}", file=sys.stderr)
            self.close_connection = True

    def _show(self) -> None:
        """POST /api/show: from the page only (its Origin is this server), a small JSON body."""
        host = self.headers.get("Host", "")
        if self.headers.get("Origin") not in (f"http://{host}",):
            self._json(HTTPStatus.FORBIDDEN, {"error": "only the preview's own page may ask the editor"})
            return
        try:
            length = int(self.headers.get("Content-Length", ""))
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            self.close_connection = True
            self._json(HTTPStatus.BAD_REQUEST, {"error": f"send a JSON body of at most {MAX_BODY} bytes"})
            return
        try:
            asked = json.loads(self.rfile.read(length))
        except ValueError:
            asked = None
        if not isinstance(asked, dict):
            self._json(HTTPStatus.BAD_REQUEST, {"error": 'send {"cell": [x, y]}, {"door": id} or {"span": [...]}'})
            return
        focus = asked.get("focus") is True
        cell: Any = asked.get("cell")  # JSON: checked below
        door: Any = asked.get("door")
        span: Any = asked.get("span")
        if _ints(cell, 2):
            why = self.server.preview.show(cell=(cell[0], cell[1]), focus=focus)
        elif isinstance(door, str) and _DOOR.match(door):
            why = self.server.preview.show(door=door, focus=focus)
        elif _ints(span, 4) and all(i >= 1 for i in span):
            why = self.server.preview.show(span=tuple(span), focus=focus)
        else:
            self._json(HTTPStatus.BAD_REQUEST, {"error": 'send {"cell": [x, y]}, {"door": id} or {"span": [...]}'})
            return
        self._json(HTTPStatus.OK if why is None else HTTPStatus.CONFLICT, {"shown": why is None, "why": why})

    def _dispatch(self, head: bool) -> None:
        try:
            if not self.server.allowed_host(self.headers.get("Host")):
                self._send(HTTPStatus.MISDIRECTED_REQUEST, b"unknown host\n", "text/plain; charset=utf-8", head=head)
                return
            url = urlsplit(self.path)
            route = url.path
            if route == "/":
                preview = self.server.preview
                snap = preview.snapshot
                title = snap.data["title"] if snap else preview.path.name
                self._send(HTTPStatus.OK, page_html(title).encode("utf-8"), "text/html; charset=utf-8", head=head)
            elif route in _ASSETS:
                name, kind = _ASSETS[route]
                self._send(HTTPStatus.OK, asset(name).encode("utf-8"), kind, head=head)
            elif route == "/api/state":
                self._send(HTTPStatus.OK, self.server.preview.state_json(), "application/json", head=head)
            elif route == "/api/sight":
                self._sight(parse_qs(url.query), head)
            elif route == "/events":
                self._events(head)
            else:
                self._send(HTTPStatus.NOT_FOUND, b"not found\n", "text/plain; charset=utf-8", head=head)
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            self.close_connection = True
        except Exception as error:  # noqa: BLE001 - never let a request take the server down
            print(f"questc preview: internal error: {type(error).__name__}: {error}", file=sys.stderr)
            try:
                self._send(HTTPStatus.INTERNAL_SERVER_ERROR, b"internal error\n", "text/plain; charset=utf-8")
            except OSError:
                pass

    def _sight(self, query: dict, head: bool) -> None:
        cell_text = (query.get("cell") or [""])[0]
        match = _CELL.match(cell_text)
        opened = [d for d in ",".join(query.get("open") or []).split(",") if d]
        if not match or not all(_DOOR.match(d) for d in opened):
            self._json(HTTPStatus.BAD_REQUEST, {"error": "ask as /api/sight?cell=X,Y&open=DOOR,DOOR"}, head)
            return
        cell = (int(match.group(1)), int(match.group(2)))
        try:
            answer = self.server.preview.sight(cell, opened)
        except ValueError as error:
            self._json(HTTPStatus.BAD_REQUEST, {"error": str(error)}, head)
            return
        self._json(HTTPStatus.OK, answer, head)

    def _events(self, head: bool) -> None:
        server = self.server
        with server.counts:
            full = server.streams >= server.max_streams
            if not full:
                server.streams += 1
        if full:
            self._send(
                HTTPStatus.SERVICE_UNAVAILABLE,
                b"too many open event streams: close some preview tabs (each browser needs one)\n",
                "text/plain; charset=utf-8",
                head=head,
                extra={"Retry-After": "5"},
            )
            self.close_connection = True
            return
        try:
            self._stream(head)
        finally:
            with server.counts:
                server.streams -= 1

    def _stream(self, head: bool) -> None:
        preview = self.server.preview
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if head:
            return
        seen, seen_cursor = -1, 0  # a page that connects gets the cursor as it stands, once it has moved
        self.connection.settimeout(max(self.server.idle, _KEEPALIVE * 2))  # a stalled reader ends
        while not preview.closing:
            version = preview.wait_for_change(seen, _KEEPALIVE, seen_cursor)
            if preview.closing:
                break
            cursor = preview.cursor
            wrote = False
            if version != seen:
                self.wfile.write(f"event: state\ndata: {json.dumps({'version': version})}\n\n".encode())
                seen, wrote = version, True
            if cursor["seq"] != seen_cursor:
                self.wfile.write(f"event: cursor\ndata: {json.dumps(cursor, separators=(',', ':'))}\n\n".encode())
                seen_cursor, wrote = cursor["seq"], True
            if not wrote:
                self.wfile.write(b": idle\n\n")
            self.wfile.flush()

    # -- replies -------------------------------------------------------------------------
    def _json(self, status, value, head: bool = False) -> None:
        self._send(status, json.dumps(value, separators=(",", ":")).encode("utf-8"), "application/json", head=head)

    def _send(self, status, body: bytes, kind: str, head: bool = False, extra: dict | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Content-Security-Policy", _CSP)
        self.send_header("Referrer-Policy", "no-referrer")
        for key, value in (extra or {}).items():
            self.send_header(key, value)
        self.end_headers()
        if not head:
            self.wfile.write(body)


def _ints(value, count: int) -> bool:
    """A JSON list of `count` small integers (a square, a span)?"""
    return (
        isinstance(value, list)
        and len(value) == count
        and all(isinstance(i, int) and not isinstance(i, bool) and abs(i) < 10**7 for i in value)
    )


class PreviewServer6(PreviewServer):
    """The preview server on an IPv6 address."""

    import socket

    address_family = socket.AF_INET6


def serve(preview, host: str = "127.0.0.1", port: int = 0, extra_host: str | None = None, **limits) -> PreviewServer:
    """Bind the server (port 0: any free port); the caller runs `serve_forever()` and closes it.
    `limits`: idle, max_connections, max_streams (the defaults above)."""
    kind = PreviewServer6 if ":" in host else PreviewServer
    return kind((host, port), preview, extra_host=extra_host, **limits)
