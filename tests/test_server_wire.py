"""`questc server`'s wire, byte by byte: frames a client should not send, requests it should not
make, and the answers LSP and JSON-RPC ask for. The server is run as editors run it
(`python -m questc server` over pipes); these tests speak to it without a client library,
since a client library would never send most of this."""

from __future__ import annotations

import json
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from server_client import SERVER_COMMAND

pytestmark = pytest.mark.slow  # each test starts `questc server` as a process of its own

QUEST = 'quest "Wire" {\n  id wire\n}\npiece R1 room_4x4 at 0,0\narea A "Entry" start {\n  pieces R1\n}\n'


class RawServer:
    """`questc server` over pipes, with frames written as bytes and answers read as they come."""

    def __init__(self):
        self.process = subprocess.Popen(
            SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        self.messages: queue.Queue = queue.Queue()
        self.stderr = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self.next_id = 100

    def _read(self) -> None:
        stream = self.process.stdout
        while True:
            length = None
            while True:
                line = stream.readline()
                if not line:
                    return
                if line == b"\r\n":
                    break
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            self.messages.put(json.loads(stream.read(length)))

    def _read_stderr(self) -> None:
        self.stderr = self.process.stderr.read()

    def send_bytes(self, data: bytes) -> None:
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: dict, header: str = "Content-Length") -> None:
        body = json.dumps(message).encode()
        self.send_bytes(f"{header}: {len(body)}\r\n\r\n".encode() + body)

    def request(self, method: str, params=None, header: str = "Content-Length") -> int:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}, header)
        return self.next_id

    def notify(self, method: str, params=None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def answer(self, msg_id, timeout: float = 20.0) -> dict:
        """The response to request `msg_id` (notifications and other responses met on the way are kept)."""
        deadline = time.monotonic() + timeout
        while True:
            message = self.messages.get(timeout=max(0.05, deadline - time.monotonic()))
            if "method" not in message and message.get("id") == msg_id:
                return message
            self.log.append(message)

    log: list

    def initialize(self) -> dict:
        self.log = []
        reply = self.answer(self.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}))
        self.notify("initialized", {})
        return reply

    def exit_code(self, timeout: float = 20.0) -> int:
        return self.process.wait(timeout)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def log_messages(self) -> list[str]:
        while True:
            try:
                self.log.append(self.messages.get_nowait())
            except queue.Empty:
                break
        return [m["params"]["message"] for m in self.log if m.get("method") == "window/logMessage"]


@pytest.fixture
def server():
    raw = RawServer()
    raw.log = []
    yield raw
    raw.close()


def _no_tracebacks(server: RawServer) -> None:
    assert not any("Traceback" in m for m in server.log_messages())


@pytest.mark.parametrize("length", ["1000000000000", "9" * 20, "7" * 5000, "-5", "12abc", ""])
def test_a_huge_or_broken_content_length_drops_that_frame_only(server: RawServer, length: str):
    server.initialize()
    server.send_bytes(f"Content-Length: {length}\r\n\r\n".encode() + b'{"jsonrpc": "2.0", "id": 1, "method": "x"}')
    # The next frame (glued to the dropped one, as a client would write it) is answered.
    msg_id = server.request("shutdown")
    assert server.answer(msg_id)["result"] is None
    assert any("dropped" in m for m in server.log_messages())
    server.notify("exit")
    assert server.exit_code() == 0
    _no_tracebacks(server)
    assert b"Traceback" not in server.stderr


def test_header_names_are_case_insensitive_and_unknown_headers_are_ignored(server: RawServer):
    reply = server.answer(
        server.request("initialize", {"processId": None, "rootUri": None, "capabilities": {}}, header="content-length")
    )
    assert "capabilities" in reply["result"]
    server.notify("initialized", {})
    body = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "shutdown"}).encode()
    server.send_bytes(
        b"X-Whatever: 1\r\nCONTENT-LENGTH:"
        + str(len(body)).encode()
        + b"\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n"
        + body
    )
    assert server.answer(7)["result"] is None
    server.notify("exit")
    assert server.exit_code() == 0


def test_bodies_that_are_not_messages_get_errors(server: RawServer):
    server.initialize()
    server.send_bytes(b"Content-Length: 9\r\n\r\n{not json")
    assert server.answer(None)["error"]["code"] == -32700
    for body, code in ((b"[1, 2]", -32600), (b'{"id": 3, "method": "shutdown"}', -32600)):
        server.send_bytes(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        answer = server.answer(None if code == -32600 and body.startswith(b"[") else 3)
        assert answer["error"]["code"] == code
    _no_tracebacks(server)


def test_malformed_parameters_are_answered_with_invalid_params(server: RawServer, tmp_path: Path):
    server.initialize()
    uri = (tmp_path / "a.quest").as_uri()
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "quest", "version": 1, "text": QUEST}}
    )
    for params in (
        {"textDocument": {"uri": uri}, "position": {"line": "one", "character": 0}},
        {"textDocument": {"uri": uri}, "position": {"line": -1, "character": 0}},
        {"textDocument": {"uri": uri}},
        None,
        [1, 2],
    ):
        answer = server.answer(server.request("textDocument/hover", params))
        assert answer["error"]["code"] == -32602, answer
        assert "textDocument/hover" in answer["error"]["message"]
    # The reason names the place in the message as the client wrote it.
    answer = server.answer(
        server.request(
            "textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": "one", "character": 0}}
        )
    )
    assert "message.params.position.line" in answer["error"]["message"], answer
    # A notification that does not fit is dropped with a word in the log, and the next one still works.
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri}, "contentChanges": "oops"})
    answer = server.answer(server.request("textDocument/documentSymbol", {"textDocument": {"uri": uri}}))
    assert answer["result"], answer
    _no_tracebacks(server)
    server.request("shutdown")
    server.notify("exit")
    assert server.exit_code() == 0
    assert b"Traceback" not in server.stderr


def test_out_of_range_positions_are_answered(server: RawServer, tmp_path: Path):
    server.initialize()
    uri = (tmp_path / "a.quest").as_uri()
    server.notify(
        "textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "quest", "version": 1, "text": QUEST}}
    )
    for line, character in ((0, 10**6), (10**6, 0), (2**31 - 1, 2**31 - 1), (3, 10**9)):
        for method in (
            "textDocument/hover",
            "textDocument/completion",
            "textDocument/definition",
            "textDocument/signatureHelp",
            "textDocument/documentHighlight",
        ):
            answer = server.answer(
                server.request(
                    method, {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
                )
            )
            assert "error" not in answer or answer["error"]["code"] == -32602, (method, answer)
    _no_tracebacks(server)


def test_every_request_after_shutdown_is_refused_and_exit_says_zero(server: RawServer):
    server.initialize()
    assert server.answer(server.request("shutdown"))["result"] is None
    answer = server.answer(
        server.request(
            "textDocument/hover", {"textDocument": {"uri": "file:///x.quest"}, "position": {"line": 0, "character": 0}}
        )
    )
    assert answer["error"]["code"] == -32600 and "shut down" in answer["error"]["message"]
    server.notify("exit")
    assert server.exit_code() == 0


def test_exit_without_shutdown_says_one(server: RawServer):
    server.initialize()
    server.notify("exit")
    assert server.exit_code() == 1


def test_exit_ends_the_server_while_the_client_keeps_its_pipe_open(server: RawServer):
    server.initialize()
    server.request("shutdown")
    server.notify("exit")
    assert server.exit_code(timeout=10) == 0  # stdin is still open: the server must not wait for it


def test_a_request_before_initialize_is_refused(server: RawServer):
    answer = server.answer(
        server.request(
            "textDocument/hover", {"textDocument": {"uri": "file:///x.quest"}, "position": {"line": 0, "character": 0}}
        )
    )
    assert answer["error"]["code"] == -32002


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's peak memory from /proc")
def test_a_request_about_a_huge_unopened_file_never_reads_it(server: RawServer, tmp_path: Path):
    huge = tmp_path / "huge.quest"
    with open(huge, "wb") as f:  # 600 MB, sparse: no disk is used
        f.truncate(600 * 1024 * 1024)
    server.initialize()
    started = time.monotonic()
    answer = server.answer(
        server.request(
            "textDocument/hover", {"textDocument": {"uri": huge.as_uri()}, "position": {"line": 0, "character": 0}}
        )
    )
    assert answer["error"]["code"] == -32803 and "over the limit" in answer["error"]["message"]
    assert time.monotonic() - started < 5
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    peak_kb = int(next(line for line in status.splitlines() if line.startswith("VmHWM")).split()[1])
    assert peak_kb < 300 * 1024, f"peak memory {peak_kb} kB"
    _no_tracebacks(server)


def test_the_server_is_not_killed_by_a_closed_input(server: RawServer):
    """The input ends without `exit`: the server ends by itself, with 1 (no shutdown was asked)."""
    server.initialize()
    server.process.stdin.close()
    assert server.exit_code() == 1
    assert b"Traceback" not in server.stderr


def test_the_faulty_frames_are_survived_together(server: RawServer):
    """Every kind of bad frame in one stream, then a real request: answered."""
    server.initialize()
    garbage = (
        b"garbage line\r\n\r\n"
        + b"Content-Length: 99999999999999\r\n\r\n"
        + b"x" * 1000
        + b"\r\nContent-Length: abc\r\n\r\n{}"
        + b"Content-Length: 2\r\n\r\n{}"
    )
    server.send_bytes(garbage)
    assert server.answer(server.request("shutdown"))["result"] is None
