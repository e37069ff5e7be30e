"""The language server's wire: LSP's base protocol read from a byte stream, whatever arrives.

pygls reads frames with one pattern, `Content-Length: N\\r\\n` exactly, and trusts it:
a header in another case (header names are case-insensitive), an unknown header, a
length of 10^12 or of 5,000 digits, a body that is not JSON or whose parameters do not
fit the method's type ended in a dead reader, a `MemoryError` or a silent drop, with a
traceback in the log. This module reads the frames itself and hands pygls only
well-formed messages:

- header lines are read at most MAX_HEADER_LINE bytes at a time; names are compared
  without case; headers other than Content-Length are ignored (as LSP allows);
- a length that is not digits, or larger than MAX_MESSAGE_BYTES, drops the frame: the
  reader skips what follows until the next Content-Length header (a JSON body holds no
  raw line break inside its strings, so a header line cannot hide in one) and says so
  in one log line;
- a body that is not JSON gets a Parse error (-32700), one that is not a JSON-RPC
  message an Invalid request (-32600), a request whose parameters do not fit an
  Invalid params (-32602) carrying the request's id; a notification that does not fit
  is dropped with one log line. No traceback is logged for any of them.

Why not pygls's loop with a patch: the loop is one function with the pattern inside;
replacing it whole is smaller than working around it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from questc.api import MAX_QUEST_BYTES

log = logging.getLogger("questc.server")

MAX_HEADER_LINE = 8192
# A quest is at most MAX_QUEST_BYTES; JSON may write each of its characters as a six-byte
# escape, and a frame carries a little more than the text.
MAX_MESSAGE_BYTES = 6 * MAX_QUEST_BYTES + 65536
_LENGTH = re.compile(rb"content-length[ \t]*:", re.IGNORECASE)

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602


class FdReader:
    """Lines and blocks read from a file descriptor with `os.read`, buffered here.

    Not the stream's own buffered reader: the reading thread is a daemon, and one blocked
    inside `sys.stdin.buffer` holds that object's lock, which aborts the interpreter's exit."""

    def __init__(self, fd: int):
        self.fd = fd
        self.buffer = b""

    def _fill(self) -> bool:
        chunk = os.read(self.fd, 65536)
        self.buffer += chunk
        return bool(chunk)

    def readline(self, limit: int) -> bytes:
        while True:
            end = self.buffer.find(b"\n", 0, limit)
            if end >= 0 or len(self.buffer) >= limit:
                cut = end + 1 if end >= 0 else limit
                line, self.buffer = self.buffer[:cut], self.buffer[cut:]
                return line
            if not self._fill():
                line, self.buffer = self.buffer, b""
                return line

    def read(self, size: int) -> bytes:
        while len(self.buffer) < size:
            if not self._fill():
                break
        block, self.buffer = self.buffer[:size], self.buffer[size:]
        return block


class Frames:
    """The frames of a byte stream: each body, or a reason a frame was dropped."""

    def __init__(self, stream: FdReader):
        self.stream = stream

    def _line(self) -> bytes:
        return self.stream.readline(MAX_HEADER_LINE)

    def next(self) -> tuple[bytes | None, str | None]:
        """(body, None) for a frame, (None, why) for a dropped one, (None, None) at the end of the stream."""
        length: int | None = None
        problem: str | None = None
        started = False
        while True:
            line = self._line()
            if not line:
                return None, None
            if line in (b"\r\n", b"\n"):
                if not started:
                    continue  # blank lines between frames
                if problem is not None:
                    return None, problem
                if length is None:
                    return None, "a message without a Content-Length header"
                body = self._read(length)
                if body is None:
                    return None, None
                return body, None
            stripped = line.rstrip(b"\r\n")
            if not started:
                found = _LENGTH.search(stripped)
                if found is None:
                    continue  # not a header: what is left of a dropped frame
                stripped = stripped[found.start() :]  # (a header right after a dropped body)
                started = True
            name, colon, value = stripped.partition(b":")
            if not colon:
                problem = problem or "a header line without a colon"
                continue
            if name.strip().lower() != b"content-length":
                continue  # Content-Type and any other header: nothing to do with them
            text = value.strip()
            if not text.isdigit():
                problem = "a Content-Length that is not a number"
            elif len(text) > len(str(MAX_MESSAGE_BYTES)) or int(text) > MAX_MESSAGE_BYTES:
                shown = text[:20].decode("ascii") + ("..." if len(text) > 20 else "")
                problem = (
                    f"a message of {shown} bytes, more than the {MAX_MESSAGE_BYTES:,} a quest can need "
                    f"({len(text)} digits)"
                )
            else:
                length = int(text)

    def _read(self, length: int) -> bytes | None:
        body = self.stream.read(length)
        return body if len(body) == length else None


class BadMessage(Exception):
    """A message that cannot be handled: its JSON-RPC error code, and the id to answer, if any."""

    def __init__(self, code: int, message: str, msg_id: Any = None):
        super().__init__(message)
        self.code, self.msg_id = code, msg_id


def decode(body: bytes) -> dict:
    """A frame's body in, the JSON-RPC message as a dict out; BadMessage when it is not one."""
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as error:
        raise BadMessage(PARSE_ERROR, f"the message is not JSON ({error})"[:300]) from None
    if not isinstance(data, dict):
        raise BadMessage(INVALID_REQUEST, "the message is not a JSON object (batches are not part of LSP)")
    msg_id = data.get("id")
    if not isinstance(msg_id, (int, str)) or isinstance(msg_id, bool):
        msg_id = None
    if data.get("jsonrpc") != "2.0":
        raise BadMessage(INVALID_REQUEST, 'the message has no "jsonrpc": "2.0"', msg_id)
    method = data.get("method")
    if "method" in data and not isinstance(method, str):
        raise BadMessage(INVALID_REQUEST, "the message's method is not a string", msg_id)
    return data


async def serve_frames(stream: BinaryIO, protocol, stopped: asyncio.Future, report: Callable[[str], None]) -> None:
    """Read frames from `stream` until its end or `stopped` is done; hand each message to `protocol`
    (a QuestProtocol: `handle_raw(dict)`, `answer_error(id, code, message)`).

    The stream is read on a daemon thread, so `exit` ends the server even while the client
    keeps its end of the pipe open."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue = asyncio.Queue()

    def read() -> None:
        frames = Frames(FdReader(stream.fileno()))
        while True:
            try:
                item = frames.next()
            except (OSError, ValueError):  # the stream closed under us
                item = (None, None)
            try:
                loop.call_soon_threadsafe(queue.put_nowait, item)
            except RuntimeError:  # the loop is gone: the server has ended
                return
            if item == (None, None):
                return

    threading.Thread(target=read, name="questc-stdin", daemon=True).start()
    while not stopped.done():
        getter = asyncio.ensure_future(queue.get())
        await asyncio.wait({getter, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if not getter.done():
            getter.cancel()
            return
        body, dropped = getter.result()
        if dropped is not None:
            report(f"questc: dropped {dropped}")
            continue
        if body is None:
            return
        try:
            protocol.handle_raw(decode(body))
        except BadMessage as bad:
            report(f"questc: {bad}")
            if bad.code != INVALID_PARAMS or bad.msg_id is not None:
                protocol.answer_error(bad.msg_id, bad.code, str(bad))
