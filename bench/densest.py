"""The densest map questc accepts, linted and built whole: CPU time and peak memory, each in
a fresh process (the budget docs/performance.md states, "Hostile input and budgets").

    python bench/densest.py              # 19,980 floor cells: 555 rooms in a 24 x 24 block
    python bench/densest.py --areas 125  # the same map cut into 125 areas (more doors)
    python bench/densest.py --cells 2000 # a smaller one (the smoke test)

The quest is bench/generate.py's grid of 6x6 rooms, just under the 20,000-cell limit:
one block 144 cells across, 20 areas, 471 doors, rubble and water. It needs more pieces
and doors than any boxed set holds, so its questc.toml declares a box that holds them
(`[owned]`), as an owner of many copies would. `lint` runs every check (the first-edition
sight tables of the door states the reveal analysis opens); `build` adds the engine
JSON, the PNG (drawn within its pixel budget) and the PDF sheet.

The budget (docs/performance.md): a whole build of any quest questc accepts takes at
most 40 s of CPU and 600 MB. A run over it says so and exits 1.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from generate import generated_quest  # noqa: E402


def measured(args: list[str], cwd: Path) -> tuple[int, float, float, float]:
    """`python -m questc ARGS` in a fresh process: exit status, CPU seconds, wall seconds, peak RSS (MB)."""
    env = {**os.environ, "PYTHONPATH": str(HERE.parent)}
    started = time.monotonic()
    process = subprocess.Popen(
        [sys.executable, "-m", "questc", *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.monotonic() - started
    process.returncode = os.waitstatus_to_exitcode(status)
    process.stderr.close()
    return process.returncode, usage.ru_utime + usage.ru_stime, wall, usage.ru_maxrss / 1024


BUDGET_CPU_S = 40.0
BUDGET_MB = 600.0

# A box that holds the densest map: every room and door it needs, and rune doors to spare.
OWNED = "[owned]\npieces = { room = 1000 }\nmarkers = { door = 1000 }\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cells", type=int, default=19_990)
    parser.add_argument("--areas", type=int, default=20, help="Areas the map is cut into (default 20).")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="questc-densest-") as folder:
        work = Path(folder)
        (work / "densest.quest").write_text(generated_quest(args.cells, areas=args.areas), encoding="utf-8")
        (work / "questc.toml").write_text(OWNED, encoding="utf-8")
        failed = over = False
        for name, command in (
            ("lint", ["lint", "densest.quest"]),
            ("build (json, png, pdf)", ["build", "-o", "out", "densest.quest"]),
        ):
            code, cpu, wall, rss = measured(command, work)
            failed |= code != 0
            budget = "" if cpu <= BUDGET_CPU_S and rss <= BUDGET_MB else "  OVER the budget"
            over |= bool(budget)
            print(f"{name:24} exit {code}  CPU {cpu:6.1f} s  wall {wall:6.1f} s  peak RSS {rss:6.0f} MB{budget}")
        if (work / "out").is_dir():
            for path in sorted((work / "out").iterdir()):
                print(f"  {path.name:22} {path.stat().st_size:>12,} bytes")
        print(
            f"(load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; "
            f"this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)"
        )
        print(f"budget: {BUDGET_CPU_S:.0f} s of CPU and {BUDGET_MB:.0f} MB a run: " + ("OVER" if over else "within"))
    return 1 if failed or over else 0


if __name__ == "__main__":
    sys.exit(main())
