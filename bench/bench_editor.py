"""Benchmark: the editor's waits, from a real LSP client (pygls) against `questc server` over stdio.

1. Keystroke to diagnostics: single-character edits (a letter typed into the first area's
   display name, then taken out), each timed from the `didChange` to the diagnostics of its
   version. Two servers run side by side, their edits interleaved so the machine's load
   falls on both alike: questc's (garbage collector frozen after start-up and run when the
   writer pauses) and the same server with Python's collector as it comes (`--gc default`).
   Printed: median, p95, the longest wait and how many passed 150 ms.
2. Keystroke to page: the map preview served by the language server (`questc.preview`),
   timed from the `didChange` to the page holding that text's scene: the page's event
   stream says a new version is out and the page fetches `/api/state`, as the browser does.
3. Cold start: from starting `questc server` to the first diagnostics of an opened quest.

    python bench/bench_editor.py                       # shipped quests and the 2,000-cell map
    python bench/bench_editor.py --edits 1000          # issue 29's 1,000 edits
    python bench/bench_editor.py --edits 20 --quick    # a smoke run (tests/test_bench_smoke.py)

Targets (issues 27 and 29): keystroke to diagnostics, median under 30 ms on shipped quests,
p95 under 100 ms and no wait over 150 ms on the 2,000-cell map; keystroke to page, median
under 150 ms on shipped quests and under 400 ms on the 2,000-cell map; cold start under 0.5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from bench_server import SHIPPED, percentile, typing_spot  # noqa: E402
from generate import generated_quest  # noqa: E402
from lsprotocol import types  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

# The same server with Python's collector left as it comes (for the side-by-side figures).
DEFAULT_GC = (
    "import gc; gc.disable = lambda: None; gc.freeze = lambda: None; from questc.server.server import serve; serve()"
)


class Server:
    """A pygls client talking to one `questc server`."""

    def __init__(self, label: str, command: list[str]):
        self.label, self.command = label, command
        self.client = LanguageClient("questc-bench", "1")
        self.waiting: dict[tuple[str, int], asyncio.Future] = {}
        self.versions: dict[str, int] = {}

        @self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(ls, params: types.PublishDiagnosticsParams):
            future = self.waiting.pop((params.uri, params.version), None)
            if future is not None and not future.done():
                future.set_result(params.diagnostics)

        @self.client.feature(types.WINDOW_SHOW_DOCUMENT)
        def show(ls, params):
            return types.ShowDocumentResult(success=True)

        @self.client.feature(types.WINDOW_LOG_MESSAGE)
        def logged(ls, params):
            pass

    async def start(self) -> None:
        await self.client.start_io(*self.command)
        await self.client.initialize_async(
            types.InitializeParams(capabilities=types.ClientCapabilities(), initialization_options={"debounce": 0})
        )
        self.client.initialized(types.InitializedParams())

    def _expect(self, uri: str, version: int) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self.waiting[(uri, version)] = future
        return future

    async def open(self, path: Path, text: str) -> str:
        uri = path.resolve().as_uri()
        self.versions[uri] = 1
        done = self._expect(uri, 1)
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, "quest", 1, text))
        )
        await asyncio.wait_for(done, 120)
        return uri

    def change(self, uri: str, start, end, text: str) -> asyncio.Future:
        version = self.versions[uri] = self.versions[uri] + 1
        done = self._expect(uri, version)
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(version=version, uri=uri),
                [types.TextDocumentContentChangePartial(range=types.Range(start, end), text=text)],
            )
        )
        return done

    async def stop(self) -> None:
        await self.client.shutdown_async(None)
        self.client.exit(None)
        await self.client.stop()


def keystroke(number: int, spot: types.Position):
    after = types.Position(spot.line, spot.character + 1)
    if number % 2 == 0:
        return spot, spot, "abcdefghij"[number // 2 % 10]
    return spot, after, ""


async def diagnostics_side_by_side(quests, edits: int, folder: Path) -> None:
    servers = [
        Server("questc (collector tuned)", [sys.executable, "-m", "questc", "server"]),
        Server("Python's collector as it comes", [sys.executable, "-c", DEFAULT_GC]),
    ]
    for server in servers:
        await server.start()
    print(
        f"keystroke to diagnostics, {edits} edits per quest, ms (two servers, edits interleaved); "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'quest':<18} {'server':<32} {'median':>7} {'p95':>7} {'max':>7} {'>150':>5}   target")
    for name, text, path in quests:
        uris = [await s.open(path, text) for s in servers]
        spot = typing_spot(text)
        times: list[list[float]] = [[], []]
        for number in range(edits):
            for server in servers if number % 2 == 0 else servers[::-1]:
                index = servers.index(server)
                began = time.perf_counter()
                await asyncio.wait_for(server.change(uris[index], *keystroke(number, spot)), 120)
                times[index].append(time.perf_counter() - began)
        big = name.startswith("generated")
        target = "p95 < 100, max < 150" if big else "median < 30"
        for server, found in zip(servers, times):
            ms = [t * 1000 for t in found]
            print(
                f"{name:<18} {server.label:<32} {statistics.median(ms):>7.1f} {percentile(ms, 0.95):>7.1f} "
                f"{max(ms):>7.1f} {sum(1 for t in ms if t > 150):>5}   {target if server is servers[0] else ''}"
            )
    for server in servers:
        await server.stop()


class PageWatcher:
    """The page's side: its event stream, and the state it fetches when told of a new version."""

    def __init__(self, url: str):
        host, port = url[len("http://") :].rstrip("/").split(":")
        self.host, self.port = host, int(port)
        self.versions: dict[int, float] = {}
        self.event = threading.Condition()
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=120)
        connection.request("GET", "/events")
        reply = connection.getresponse()
        kind = None
        while True:
            line = reply.fp.readline().decode()
            if not line:
                return
            line = line.strip()
            if line.startswith("event: "):
                kind = line[7:]
            elif line.startswith("data: ") and kind == "state":
                state = self.fetch()  # what the page does on the event
                with self.event:
                    self.versions[state["version"]] = time.perf_counter()
                    self.last_title = (state.get("scene") or {}).get("title")
                    self.event.notify_all()

    def fetch(self) -> dict:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        connection.request("GET", "/api/state")
        return json.loads(connection.getresponse().read())

    def wait_after(self, count: int, timeout: float = 60) -> float:
        """The time the page held its `count`-th state."""
        deadline = time.perf_counter() + timeout
        with self.event:
            while len(self.versions) < count:
                self.event.wait(max(0.01, deadline - time.perf_counter()))
                if time.perf_counter() > deadline:
                    raise TimeoutError("the page did not follow")
            return sorted(self.versions.values())[count - 1]


async def keystroke_to_page(quests, edits: int) -> None:
    server = Server("questc", [sys.executable, "-m", "questc", "server"])
    await server.start()
    print(
        f"\nkeystroke to page (the preview served by the language server), {edits} edits per quest, ms; "
        f"load average {os.getloadavg()[0]:.1f}"
    )
    print(f"{'quest':<18} {'median':>7} {'p95':>7} {'max':>7}   target")
    for name, text, path in quests:
        uri = await server.open(path, text)
        answer = await server.client.workspace_execute_command_async(
            types.ExecuteCommandParams("questc.preview", [uri])
        )
        page = PageWatcher(answer["url"])
        page.wait_after(1)
        spot = typing_spot(text)
        times = []
        loop = asyncio.get_running_loop()
        for number in range(edits):
            seen = len(page.versions)
            began = time.perf_counter()
            await asyncio.wait_for(server.change(uri, *keystroke(number, spot)), 120)
            shown = await loop.run_in_executor(None, page.wait_after, seen + 1)
            times.append(shown - began)
            await asyncio.sleep(0.05)  # a writer's pace: each keystroke's page, not one for a burst
        ms = [t * 1000 for t in times]
        target = "median < 400" if name.startswith("generated") else "median < 150"
        print(f"{name:<18} {statistics.median(ms):>7.1f} {percentile(ms, 0.95):>7.1f} {max(ms):>7.1f}   {target}")
    await server.stop()


def import_pygls(repeat: int) -> float:
    """The floor under any pygls server's start: `import pygls.lsp.server` (lsprotocol's ~900 attrs
    classes are most of it) in a fresh interpreter, best of `repeat`."""
    import subprocess

    best = None
    for _ in range(repeat):
        began = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import pygls.lsp.server"], check=True)
        took = time.perf_counter() - began
        best = took if best is None else min(best, took)
    return best


async def cold_start(quests, repeat: int) -> None:
    floor = import_pygls(repeat)
    print(
        f"\ncold start: `questc server` started to the first diagnostics of an opened quest, s (best of {repeat}); "
        f"`python -c 'import pygls.lsp.server'` takes {floor:.3f} s beside it"
    )
    for name, text, path in quests:
        if name.startswith("generated"):
            continue
        best = None
        for _ in range(repeat):
            began = time.perf_counter()
            server = Server("questc", [sys.executable, "-m", "questc", "server"])
            await server.start()
            await server.open(path, text)
            took = time.perf_counter() - began
            await server.stop()
            best = took if best is None else min(best, took)
        print(f"{name:<18} {best:.3f}   {best / floor:.1f}x the import of pygls   target < 0.5")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quests", nargs="+", default=["chandlers_cellar", "three_seals", "generated_2000"])
    parser.add_argument("--edits", type=int, default=200)
    parser.add_argument("--page-edits", type=int, default=40)
    parser.add_argument("--quick", action="store_true", help="one repeat of the cold start")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="questc-bench-editor-"))
    quests = []
    for name in args.quests:
        if name.startswith("generated_"):
            text = generated_quest(int(name.split("_", 1)[1]))
            path = folder / f"{name}.quest"
            path.write_text(text, encoding="utf-8")
        else:
            path = SHIPPED / f"{name}.quest"
            text = path.read_text(encoding="utf-8")
        quests.append((name, text, path))
    (folder / "questc.toml").write_text('ignore = ["Q404", "Q405"]\n', encoding="utf-8")
    asyncio.run(diagnostics_side_by_side(quests, args.edits, folder))
    asyncio.run(keystroke_to_page(quests, args.page_edits))
    asyncio.run(cold_start(quests, 1 if args.quick else 5))
    return 0


if __name__ == "__main__":
    sys.exit(main())
