"""The preview's HTTP server: the standard library's ThreadingHTTPServer, read-only, on 127.0.0.1.

Routes (GET and HEAD only; anything else is 405, nothing is ever written):
  /              the page;            /preview.js, /preview.css   its assets
  /api/state     the quest's state (scene, diagnostics, stale or not) as JSON
  /api/sight     ?cell=X,Y&open=DOOR,DOOR: the floor cells X,Y sees (indexes)
  /events        server-sent events: `state` with the new version after each refresh
Every other path is 404: no file is served by name, so no path can lead out.
Requests whose Host header is not localhost, 127.0.0.1 or [::1] (with this port)
are refused (421): a web page elsewhere cannot rebind its name to this server.

Why the standard library: the server has five fixed routes, one client (the writer's
browser) and one push channel, which server-sent events give over plain HTTP; a
framework would add a dependency and an event loop for none of that.
"""
from __future__ import annotations

import json
import re
import sys
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from urllib.parse import parse_qs, urlsplit

_CELL = re.compile(r"^(-?\d{1,6}),(-?\d{1,6})$")
_DOOR = re.compile(r"^[A-Za-z_][A-Za-z0-9_\-]{0,63}$")
LOCAL_NAMES = ("localhost", "127.0.0.1", "[::1]")
_KEEPALIVE = 15.0   # seconds between comments on an idle event stream (proxies close silent ones)

_ASSETS = {
    "/preview.js": ("preview.js", "text/javascript; charset=utf-8"),
    "/preview.css": ("preview.css", "text/css; charset=utf-8"),
}
_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")


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
        head = ('<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
                "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; "
                'base-uri \'none\'; form-action \'none\'">'
                f"<style>{asset('preview.css')}</style>")
        tail = (f'<script type="application/json" id="questc-data">{data}</script>'
                f"<script>{asset('preview.js')}</script>")
    return (template.replace("{{title}}", escape(title)).replace("{{head}}", head)
            .replace("{{tail}}", tail))


class PreviewServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self, address, preview, extra_host: str | None = None):
        self.preview = preview
        self.extra_host = extra_host
        super().__init__(address, Handler)

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
            bare = header[:-len(f":{port}")] if header.endswith(f":{port}") else header
            try:
                ipaddress.ip_address(bare.strip("[]"))
                return True
            except ValueError:
                return False
        return False


class Handler(BaseHTTPRequestHandler):
    server: PreviewServer
    protocol_version = "HTTP/1.1"
    server_version = "questc-preview"
    sys_version = ""

    def log_message(self, format, *args):   # quiet: the terminal is the writer's
        pass

    # -- dispatch -----------------------------------------------------------------------
    def do_HEAD(self):
        self._dispatch(head=True)

    def do_GET(self):
        self._dispatch(head=False)

    def _refuse(self):
        self._send(HTTPStatus.METHOD_NOT_ALLOWED, b"the preview is read-only\n", "text/plain; charset=utf-8",
                   extra={"Allow": "GET, HEAD"})

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = _refuse

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
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as error:   # noqa: BLE001 - never let a request take the server down
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
        preview = self.server.preview
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-store")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        if head:
            return
        seen = -1
        while not preview.closing:
            version = preview.wait_for_change(seen, _KEEPALIVE)
            if preview.closing:
                break
            if version != seen:
                self.wfile.write(f"event: state\ndata: {json.dumps({'version': version})}\n\n".encode())
                seen = version
            else:
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


class PreviewServer6(PreviewServer):
    import socket
    address_family = socket.AF_INET6


def serve(preview, host: str = "127.0.0.1", port: int = 0, extra_host: str | None = None) -> PreviewServer:
    """Bind the server (port 0: any free port); the caller runs `serve_forever()` and closes it."""
    kind = PreviewServer6 if ":" in host else PreviewServer
    return kind((host, port), preview, extra_host=extra_host)
