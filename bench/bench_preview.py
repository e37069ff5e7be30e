"""Benchmark: `questc preview` as its user feels it, in headless Chromium.

    python bench/bench_preview.py              # every shipped quest and the 2,000-cell quest
    python bench/bench_preview.py --quick      # two quests, fewer rounds

For each quest a real `questc preview` serves a copy of it and a headless Chromium
(Debian's chromium and chromium-driver, through selenium) shows the page. Measured:

- save -> page: from writing the file (a new comment line, so the map is redrawn) to
  the page having applied the new scene, read from the page's own clock (Date.now in a
  MutationObserver; the same machine's wall clock as Python's time.time). Median and
  worst of --saves saves, one every 0.6 s.
- refresh: the server's share of that (check, drawing, scene), from its own timing.
- hover: pointer moved onto a square -> its words shown and the next frame painted.
- click: square clicked -> everything it sees highlighted and painted (a round trip to
  /api/sight), with every door closed and with random doors open (a new door state the
  server has not answered before costs a new sight table).

Hover and click are measured in the page (performance.now), over --probes squares.
"""

from __future__ import annotations

import argparse
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from generate import generated_quest  # noqa: E402

_PROBE = """
const [kind, cx, cy, done] = [arguments[0], arguments[1], arguments[2], arguments[arguments.length - 1]];
const box = document.getElementById('map');
const r = document.getElementById('pv-layer').getBoundingClientRect();
const L = window.questcPreview.scene.map.layout;
const s = {x: r.left + (L.left + (cx - L.origin[0] + 0.5) * L.cell) * r.width / L.width,
           y: r.top + (L.top + (cy - L.origin[1] + 0.5) * L.cell) * r.height / L.height};
const init = {clientX: s.x, clientY: s.y, bubbles: true, button: 0, pointerId: 1, isPrimary: true};
const start = performance.now();
const painted = () => requestAnimationFrame(() => setTimeout(() => done(performance.now() - start), 0));
if (kind === 'hover') {
  box.dispatchEvent(new PointerEvent('pointermove', init));
  painted();
} else {
  const target = document.elementFromPoint(s.x, s.y) || box;
  box.dispatchEvent(new PointerEvent('pointerdown', init));
  target.dispatchEvent(new PointerEvent('pointerup', init));
  const want = 'From ' + cx + ',' + cy + ':';
  const check = () => {
    if (document.getElementById('selection-body').textContent.startsWith(want)) painted();
    else setTimeout(check, 1);
  };
  check();
}
"""

# No square selected, no words left from the last one: the next click starts afresh.
_CLEAR = (
    "window.questcPreview.ui.selected = null; document.getElementById('selection-body').textContent = ''; "
    "window.questcPreview.forgetSight();"
)

_WATCH = """
window.__applied = [];
new MutationObserver(() => window.__applied.push([Date.now(), document.body.dataset.sceneVersion]))
  .observe(document.body, {attributes: true, attributeFilter: ['data-scene-version']});
"""


def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--window-size=1400,900",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.set_script_timeout(30)
    return driver


def serve(path: Path, extra: list[str]):
    process = subprocess.Popen(
        [sys.executable, "-m", "questc", "preview", str(path), "--port", "0", *extra],
        cwd=path.parent,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()
    match = re.search(r"http://[^ ]+/", line)
    if not match:
        process.kill()
        raise SystemExit(f"questc preview did not start: {line}{process.stderr.read()}")
    return process, match.group(0)


def wait(predicate, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.005)
    return False


def measure(driver, path: Path, extra: list[str], saves: int, probes: int, seed: int = 1) -> dict:
    process, url = serve(path, extra)
    try:
        driver.get(url)
        wait(lambda: driver.execute_script("return document.querySelectorAll('#pv-drawing g.cell').length") > 0, 30)
        cells = driver.execute_script("return document.querySelectorAll('#pv-drawing g.cell').length")
        driver.execute_script(_WATCH)
        text = path.read_text(encoding="utf-8")
        lags = []
        for k in range(saves):
            before = driver.execute_script("return document.body.dataset.sceneVersion")
            written = time.time()
            path.write_text(text + f"# save {k}\n", encoding="utf-8")
            if not wait(lambda: driver.execute_script("return document.body.dataset.sceneVersion") != before):
                raise SystemExit(f"{path.name}: the page did not update")
            applied = driver.execute_script("return window.__applied[window.__applied.length - 1][0]")
            lags.append(applied / 1000 - written)
            time.sleep(0.6)
        path.write_text(text, encoding="utf-8")
        time.sleep(0.8)
        squares = driver.execute_script("return window.questcPreview.scene.cells.map(c => [c[0], c[1]])")
        doors = driver.execute_script("return window.questcPreview.scene.doors.map(d => d.id)")
        rng = random.Random(seed)
        picks = rng.sample(squares, min(probes, len(squares)))
        hovers = [driver.execute_async_script(_PROBE, "hover", x, y) for x, y in picks]
        clicks, hover_clicks = [], []
        for x, y in picks:
            driver.execute_script(_CLEAR)
            clicks.append(driver.execute_async_script(_PROBE, "click", x, y))
        for x, y in picks:  # as a writer clicks: the pointer rests on the square first
            driver.execute_script(_CLEAR)
            driver.execute_async_script(_PROBE, "hover", x, y)
            time.sleep(0.25)
            hover_clicks.append(driver.execute_async_script(_PROBE, "click", x, y))
        door_clicks = []
        for x, y in picks[: max(3, probes // 4)]:
            opened = rng.sample(doors, min(len(doors), rng.randint(1, 3))) if doors else []
            driver.execute_script("window.questcPreview.ui.open = new Set(arguments[0])", opened)
            driver.execute_script(_CLEAR)
            door_clicks.append(driver.execute_async_script(_PROBE, "click", x, y))
        driver.execute_script("window.questcPreview.ui.open = new Set()")
        refresh = _refresh_time(path, extra)
        return {
            "quest": path.stem,
            "cells": cells,
            "lags": lags,
            "refresh": refresh,
            "hover": hovers,
            "click": clicks,
            "hover_click": hover_clicks,
            "door_click": door_clicks,
        }
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=10)


def _refresh_time(path: Path, extra: list[str]) -> tuple[float, float, float]:
    """The server's own share of a save, in this process (best of 3, warm): the whole refresh,
    and of it the check (questc.api.check_file) and the map drawing (questc.draw, SVG)."""
    sys.path.insert(0, str(REPO))
    from questc.api import Options, check_file
    from questc.preview.drawing import map_picture
    from questc.preview.session import Preview

    ignore = tuple(extra[extra.index("--ignore") + 1].split(",")) if "--ignore" in extra else ()
    options = Options(ignore=ignore)
    preview = Preview(path, lambda: options)
    preview.refresh()
    refresh, check, draw = [], [], []
    for _ in range(3):
        preview.refresh()
        refresh.append(preview.timings["refresh"])
        started = time.perf_counter()
        result = check_file(path, options)
        check.append(time.perf_counter() - started)
        started = time.perf_counter()
        map_picture(result.compiled)
        draw.append(time.perf_counter() - started)
    return min(refresh), min(check), min(draw)


def ms(values) -> str:
    return f"{statistics.median(values) * 1000:6.0f} / {max(values) * 1000:5.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="two quests, 3 saves, 10 squares")
    parser.add_argument("--saves", type=int, default=6)
    parser.add_argument("--probes", type=int, default=40)
    args = parser.parse_args()
    saves, probes = (3, 10) if args.quick else (args.saves, args.probes)
    work = Path(tempfile.mkdtemp(prefix="questc-bench-preview-"))
    try:
        shutil.copytree(REPO / "quests", work / "quests")
        generated = work / "quests" / "generated_2000.quest"
        generated.write_text(generated_quest(2000), encoding="utf-8")
        shipped = sorted(p for p in (work / "quests").glob("*.quest") if p != generated)
        runs = [(generated, ["--ignore", "Q404,Q405"])] + [(p, []) for p in shipped]
        if args.quick:
            runs = runs[:2]
        driver = browser()
        try:
            rows = [measure(driver, path, extra, saves, probes) for path, extra in runs]
        finally:
            driver.quit()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        "| quest | cells | save -> page (median / worst, ms) | refresh: all / check / drawing (ms) | hover (median / worst, ms) "
        "| click after hover (median / worst, ms) | click, cold (median / worst, ms) "
        "| click, doors open, cold (median / worst, ms) |"
    )
    print("|---|--:|--:|--:|--:|--:|--:|--:|")
    for r in rows:
        print(
            f"| {r['quest']} | {r['cells']} | {ms(r['lags'])} | "
            f"{' / '.join(f'{t * 1000:.0f}' for t in r['refresh'])} | "
            f"{statistics.median(r['hover']):.1f} / {max(r['hover']):.1f} | "
            f"{statistics.median(r['hover_click']):.1f} / {max(r['hover_click']):.1f} | "
            f"{statistics.median(r['click']):.1f} / {max(r['click']):.1f} | "
            f"{statistics.median(r['door_click']):.1f} / {max(r['door_click']):.1f} |"
        )


if __name__ == "__main__":
    main()
