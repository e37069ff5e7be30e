"""The preview's server under load it should refuse: too many connections, too many event streams,
connections that say nothing, a process with little address space. Each refusal is a 503 with a
sentence, never a traceback, and the page is served again as soon as the load goes."""

from __future__ import annotations

import http.client
import re
import resource
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import REPO

QUEST = REPO / "quests" / "chandlers_cellar.quest"


@pytest.fixture
def preview():
    from questc.preview.session import Preview

    session = Preview(QUEST)
    session.refresh()
    yield session
    session.close()


def start(session, **limits):
    from questc.preview.server import serve

    server = serve(session, "127.0.0.1", 0, **limits)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def get(port: int, path: str = "/api/state", timeout: float = 5.0) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("GET", path)
        reply = connection.getresponse()
        return reply.status, reply.read() if path != "/events" else b""
    finally:
        connection.close()


@pytest.mark.slow
def test_past_the_cap_a_connection_is_refused_with_a_sentence(preview):
    server = start(preview, max_connections=4)
    port = server.server_address[1]
    idle = [socket.create_connection(("127.0.0.1", port)) for _ in range(4)]
    try:
        time.sleep(0.2)
        status, body = get(port)
        assert status == 503 and b"too many connections" in body
    finally:
        for s in idle:
            s.close()
    time.sleep(0.2)
    assert get(port)[0] == 200  # served again at once
    server.shutdown()
    server.server_close()


def test_past_the_cap_an_event_stream_is_refused(preview):
    server = start(preview, max_streams=2)
    port = server.server_address[1]
    streams = []
    for _ in range(2):
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/events")
        assert connection.getresponse().status == 200
        streams.append(connection)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    connection.request("GET", "/events")
    reply = connection.getresponse()
    assert reply.status == 503 and b"too many open event streams" in reply.read()
    assert get(port)[0] == 200  # the page itself is still served
    for c in streams:
        c.close()
    server.shutdown()
    server.server_close()


@pytest.mark.slow
def test_an_idle_connection_is_closed(preview):
    server = start(preview, idle=0.5)
    port = server.server_address[1]
    quiet = socket.create_connection(("127.0.0.1", port))
    quiet.settimeout(5)
    started = time.monotonic()
    assert quiet.recv(100) == b""  # closed by the server, having said nothing
    assert time.monotonic() - started < 3
    quiet.close()
    # A half-sent request too.
    slow = socket.create_connection(("127.0.0.1", port))
    slow.sendall(b"GET /api/state HTTP/1.1\r\nHost: 127.0.0.1\r\n")
    slow.settimeout(5)
    assert slow.recv(100) == b""
    slow.close()
    server.shutdown()
    server.server_close()


def test_two_hundred_connections_at_once_are_each_answered(preview):
    server = start(preview)
    port = server.server_address[1]
    assert server.socket.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
    assert server.request_queue_size >= 128
    results: list = []

    def one():
        try:
            results.append(get(port, timeout=15)[0])
        except OSError as error:
            results.append(type(error).__name__)

    threads = [threading.Thread(target=one) for _ in range(200)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(results) == 200 and set(results) <= {200, 503}, sorted(set(map(str, results)))
    assert results.count(200) >= 64
    server.shutdown()
    server.server_close()


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="an address-space limit, as Linux sets it")
def test_under_a_two_gigabyte_address_space_many_connections_do_not_stop_the_page(tmp_path: Path):
    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))

    process = subprocess.Popen(
        [sys.executable, "-m", "questc", "preview", str(QUEST), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=limit,
    )
    try:
        port = int(re.search(r":(\d+)/", process.stdout.readline()).group(1))
        held = []
        for _ in range(130):
            held.append(socket.create_connection(("127.0.0.1", port)))
            held[-1].sendall(b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        time.sleep(1.0)
        status, _ = get(port)
        assert status in (200, 503)  # answered either way, at once
        for s in held:
            s.close()
        deadline = time.monotonic() + 3
        while True:
            try:
                if get(port, timeout=2)[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the page was not served again within 3 s"
            time.sleep(0.1)
    finally:
        process.terminate()
        _, errors = process.communicate(timeout=10)
    assert "Traceback" not in errors, errors[-2000:]
