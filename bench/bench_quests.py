"""Benchmark: parse, analysis and full lint of generated quests (500, 2,000, 8,000 floor
cells) and of the shipped quests; PNG and PDF rendering; `questc lint` cold start
against a bare `python -c pass`, measured in the same run.

    python bench/bench_quests.py            # prints a table (best of N runs each)
    python bench/bench_quests.py --sizes 200 --no-shipped --no-cold --repeat 1   # a smoke run

Times are wall-clock seconds, best of `--repeat` runs in one process (so the parser
tables and the board's ray templates are warm after the first run; the "first lint"
column is the first run of each generated quest, cold for its board).  Cold start is
measured in fresh processes: `questc lint` on a 100-cell quest against a bare
`python -c pass`, with bytecode cached in a temporary PYTHONPYCACHEPREFIX (as an
installed questc has it; this machine sets PYTHONDONTWRITEBYTECODE=1) and without.
Both run on the interpreter running this script, so the ratio depends on what that
interpreter does at start-up: see docs/performance.md, "Cold start".
"""

from __future__ import annotations

import argparse
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from generate import generated_quest  # noqa: E402

from questc.api import Options, check_file, check_source  # noqa: E402
from questc.syntax import parse_source  # noqa: E402

# A generated map needs more pieces and doors than any set of boxes holds; the component
# counts (Q404, Q405) are left out so that the quest compiles and renders.
GENERATED = Options(ignore=("Q404", "Q405"))


REPEAT = 3


def best(function, repeat: int | None = None) -> float:
    times = []
    for _ in range(repeat or REPEAT):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def stage_times(source: str, name: str, options: Options | None = None) -> dict:
    from questc.analysis import analyse
    from questc.board.quest_board import quest_board
    from questc.model import resolve

    parse = best(lambda: parse_source(source, name))
    tree = parse_source(source, name).tree
    model, _ = resolve(tree)

    def analysis():
        analyse(model, quest_board(model))

    return {"parse": parse, "analysis": best(analysis), "lint": best(lambda: check_source(source, name, options))}


def render_times(result) -> dict:
    out = {}
    for kind in ("png", "pdf"):
        try:
            module = __import__(f"questc.emit.{kind}", fromlist=["x"])
        except ImportError:
            continue
        render = getattr(module, f"render_{kind}")
        out[kind] = best(lambda: render(result.compiled), repeat=min(2, REPEAT))
    return out


def cold_start(repeat: int = 7) -> dict:
    """Fresh processes: (best, median) seconds of `questc lint` on a small quest and of a bare
    interpreter, with bytecode cached and without."""

    def run(command, env):
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            subprocess.run(command, capture_output=True, env=env)
            times.append(time.perf_counter() - start)
        times.sort()
        return times[0], times[len(times) // 2]

    out = {}
    with tempfile.TemporaryDirectory() as folder:
        quest = Path(folder) / "small.quest"
        quest.write_text(generated_quest(100, areas=2), encoding="utf-8")
        lint = [sys.executable, "-m", "questc", "lint", str(quest)]
        bare = [sys.executable, "-c", "pass"]
        cached = dict(os.environ, PYTHONPYCACHEPREFIX=str(Path(folder) / "pyc"))
        cached.pop("PYTHONDONTWRITEBYTECODE", None)
        plain = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
        for label, env in (("bytecode", cached), ("no bytecode", plain)):
            subprocess.run(lint, capture_output=True, env=env)  # warm the catalog cache (and bytecode)
            out[label] = (run(lint, env), run(bare, env))
        # The floor the ratio is read against: importing the frameworks questc is built on.
        out["floor"] = run([sys.executable, "-c", "import click, lark"], cached)
    return out


def _package_bytecode() -> Path | None:
    """A __pycache__ folder inside the questc package, if a run has written one there."""
    import questc.api

    package = Path(questc.api.__file__).resolve().parent
    return next((folder for folder in sorted(package.rglob("__pycache__")) if any(folder.glob("*.pyc"))), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="500,2000,8000", help="floor cells of the generated quests")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-shipped", action="store_true", help="skip the shipped quests")
    parser.add_argument("--no-cold", action="store_true", help="skip the cold-start measurement")
    parser.add_argument("--no-render", action="store_true", help="skip PNG and PDF")
    args = parser.parse_args()
    global REPEAT
    REPEAT = args.repeat
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")
    print(f"{'quest':<28}{'cells':>7}{'parse':>9}{'analysis':>10}{'lint':>9}{'1st lint':>10}{'png':>8}{'pdf':>8}")
    sizes = {}
    for cells in [int(c) for c in args.sizes.split(",")]:
        source = generated_quest(cells)
        name = f"generated_{cells}.quest"
        from questc.board import bulk

        bulk.forget_rays()  # the first lint pays for the tree of beams, as a fresh process would
        start = time.perf_counter()
        result = check_source(source, name, GENERATED)
        first = time.perf_counter() - start
        times = stage_times(source, name, GENERATED)
        floor = len(result.compiled.board.cells) if result.compiled else cells
        sizes[cells] = (floor, times["lint"])
        renders = render_times(result) if result.buildable() and not args.no_render else {}
        print(
            f"{name:<28}{floor:>7}{times['parse']:>9.3f}{times['analysis']:>10.3f}{times['lint']:>9.3f}"
            f"{first:>10.3f}{renders.get('png', float('nan')):>8.3f}{renders.get('pdf', float('nan')):>8.3f}"
        )
    for path in [] if args.no_shipped else sorted((HERE.parent / "quests").glob("*.quest")):
        source = path.read_text(encoding="utf-8")
        times = stage_times(source, str(path))
        result = check_file(path)
        floor = len(result.compiled.board.cells) if result.compiled else 0
        renders = render_times(result) if result.buildable() and not args.no_render else {}
        print(
            f"{path.name:<28}{floor:>7}{times['parse']:>9.3f}{times['analysis']:>10.3f}{times['lint']:>9.3f}"
            f"{'':>10}{renders.get('png', float('nan')):>8.3f}{renders.get('pdf', float('nan')):>8.3f}"
        )
    if not args.no_shipped:
        long_files = {}
        for count in (5_000, 20_000):  # a long file: the parser alone, statement after statement
            source = 'quest "Q" { conquest 3 }\n' + "".join(f"door d{i} between A B\n" for i in range(count))
            long_files[count] = best(lambda source=source: parse_source(source, "long.quest"))
        growth = math.log(long_files[20_000] / long_files[5_000]) / math.log(4)
        print(
            f"\nparse of 5,000 / 20,000 statements: {long_files[5_000]:.3f} s / {long_files[20_000]:.3f} s "
            f"(statements^{growth:.2f})"
        )
    if 2000 in sizes and 8000 in sizes:
        (c1, t1), (c2, t2) = sizes[2000], sizes[8000]
        exponent = math.log(t2 / t1) / math.log(c2 / c1)
        print(f"\nlint growth from {c1} to {c2} floor cells: cells^{exponent:.2f} (target: at most 1.5)")
        print(f"lint of the 2,000-cell quest: {sizes[2000][1]:.3f} s (target: under 0.5 s)")
    if not args.no_cold:
        venv = " (a virtual environment)" if sys.prefix != sys.base_prefix else ""
        print(f"\ncold start on {sys.executable}{venv}:")
        results = cold_start()
        floor_best, floor_median = results.pop("floor")
        for label, ((lint_best, lint_median), (bare_best, bare_median)) in results.items():
            print(
                f"cold start ({label}): questc lint {lint_best:.3f} s (median {lint_median:.3f}), "
                f"bare python {bare_best:.3f} s (median {bare_median:.3f})"
            )
        lint_best, lint_median = results["bytecode"][0]
        print(
            f"`python -c 'import click, lark'`: {floor_best:.3f} s (median {floor_median:.3f}); "
            f"questc lint / that floor: {lint_best / floor_best:.2f} best, {lint_median / floor_median:.2f} median "
            "(target: at most 2)"
        )
        stray = _package_bytecode()
        if stray:
            print(f"(bytecode found in {stray}: the run without bytecode read it; remove it for a from-source figure)")


if __name__ == "__main__":
    main()
