"""Benchmark: parse, analysis and full lint of generated quests (500, 2,000, 8,000 floor
cells) and of the shipped quests; PNG and PDF rendering; `questc lint` cold start
against a bare `python -c pass`, measured in the same run.

    python bench/bench_quests.py            # prints a table (best of N runs each)
"""
from __future__ import annotations

import math
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from generate import generated_quest  # noqa: E402

from questc.api import check_file, check_source  # noqa: E402
from questc.syntax import parse_source  # noqa: E402


def best(function, repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def stage_times(source: str, name: str) -> dict:
    from questc.analysis import analyse
    from questc.board.quest_board import quest_board
    from questc.model import resolve

    parse = best(lambda: parse_source(source, name))
    tree = parse_source(source, name).tree
    model, _ = resolve(tree)

    def analysis():
        analyse(model, quest_board(model))
    return {"parse": parse, "analysis": best(analysis), "lint": best(lambda: check_source(source, name))}


def render_times(result) -> dict:
    out = {}
    for kind in ("png", "pdf"):
        try:
            module = __import__(f"questc.emit.{kind}", fromlist=["x"])
        except ImportError:
            continue
        render = getattr(module, f"render_{kind}")
        out[kind] = best(lambda: render(result), repeat=2)
    return out


def cold_start() -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as folder:
        quest = Path(folder) / "small.quest"
        quest.write_text(generated_quest(100, areas=2), encoding="utf-8")
        subprocess.run([sys.executable, "-m", "questc", "lint", str(quest)], capture_output=True)  # warm the Lark cache
        lint = best(lambda: subprocess.run([sys.executable, "-m", "questc", "lint", str(quest)],
                                           capture_output=True), repeat=7)
    bare = best(lambda: subprocess.run([sys.executable, "-c", "pass"]), repeat=7)
    return lint, bare


def main() -> None:
    print(f"{'quest':<28}{'cells':>7}{'parse':>9}{'analysis':>10}{'lint':>9}{'png':>8}{'pdf':>8}")
    sizes = {}
    for cells in (500, 2000, 8000):
        source = generated_quest(cells)
        name = f"generated_{cells}.quest"
        times = stage_times(source, name)
        result = check_source(source, name)
        floor = len(result.context.board.board.cells) if result.context else cells
        sizes[cells] = (floor, times["lint"])
        renders = render_times(result) if result.context else {}
        print(f"{name:<28}{floor:>7}{times['parse']:>9.3f}{times['analysis']:>10.3f}{times['lint']:>9.3f}"
              f"{renders.get('png', float('nan')):>8.3f}{renders.get('pdf', float('nan')):>8.3f}")
    for path in sorted((HERE.parent / "quests").glob("*.quest")):
        source = path.read_text(encoding="utf-8")
        times = stage_times(source, str(path))
        result = check_file(path)
        floor = len(result.context.board.board.cells) if result.context else 0
        renders = render_times(result) if result.compiled else {}
        print(f"{path.name:<28}{floor:>7}{times['parse']:>9.3f}{times['analysis']:>10.3f}{times['lint']:>9.3f}"
              f"{renders.get('png', float('nan')):>8.3f}{renders.get('pdf', float('nan')):>8.3f}")
    (c1, t1), (c2, t2) = sizes[2000], sizes[8000]
    exponent = math.log(t2 / t1) / math.log(c2 / c1)
    print(f"\nlint growth from {c1} to {c2} floor cells: cells^{exponent:.2f} (target: at most 1.5)")
    print(f"lint of the 2,000-cell quest: {sizes[2000][1]:.3f} s (target: under 0.5 s)")
    lint, bare = cold_start()
    print(f"cold start: questc lint {lint:.3f} s, bare python {bare:.3f} s, ratio {lint / bare:.2f} (target: under 3)")


if __name__ == "__main__":
    main()
