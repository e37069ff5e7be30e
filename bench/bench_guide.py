"""Benchmark: `questc guide` over many quests: its peak memory and its time, by the number of quests.

    python bench/bench_guide.py                   # 8, 50, 200 and 500 quests
    python bench/bench_guide.py --sizes 8 50      # fewer
    python bench/bench_guide.py --two-sided       # the book printed on both sides

The quests are the shipped ones, copied under new ids (a community archive's size made of real
quests: their maps, legends and words are what a guide typesets). Each size runs `questc guide`
in a fresh process that reports its own peak resident memory (`ru_maxrss`: the PDF engine runs
inside it) and its wall-clock time. The targets (issue 28): 200 quests under 400 MB, and time
linear in the number of quests (the seconds per quest at 500 within 1.5 times those at 50).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
QUESTS = sorted((ROOT / "quests").glob("*.quest"))
TARGET_MB = 400
LINEAR = 1.5

RUN = """
import json, resource, sys, time
from questc.api import Options, guide
start = time.perf_counter()
report = guide([sys.argv[1]], sys.argv[2], options=Options(), two_sided=sys.argv[3] == "1")
elapsed = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"quests": len(report.included), "seconds": elapsed, "peak_mb": peak}))
"""


def archive(folder: Path, count: int) -> None:
    """`count` quests in `folder`: the shipped ones over and over, each copy with an id of its own
    (a second edition quest's encounters copied together, under a `part_of` of their own)."""
    made = 0
    round_ = 0
    while made < count:
        for path in QUESTS:
            if made >= count:
                break
            text = path.read_text(encoding="utf-8")
            text = re.sub(
                r"^(\s*id\s+)(\w+)", lambda m: f"{m.group(1)}{m.group(2)}_{round_}", text, count=1, flags=re.M
            )
            text = re.sub(
                r"^(\s*part_of\s+)(\w+)", lambda m: f"{m.group(1)}{m.group(2)}_{round_}", text, count=1, flags=re.M
            )
            (folder / f"{round_:03d}_{path.name}").write_text(text, encoding="utf-8")
            made += 1
        round_ += 1


def measure(count: int, two_sided: bool) -> dict:
    with tempfile.TemporaryDirectory(prefix="questc-bench-guide-") as work:
        folder = Path(work) / "quests"
        folder.mkdir()
        archive(folder, count)
        done = subprocess.run(
            [sys.executable, "-c", RUN, str(folder), str(Path(work) / "guide.pdf"), "1" if two_sided else "0"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if done.returncode != 0:
            raise SystemExit(f"questc guide failed on {count} quests:\n{done.stderr[-3000:]}")
        figures = json.loads(done.stdout.strip().splitlines()[-1])
        figures["pages"] = _pages(Path(work) / "guide.pdf")
        figures["mb"] = (Path(work) / "guide.pdf").stat().st_size / 1e6
        return figures


def _pages(path: Path) -> int:
    import pikepdf

    with pikepdf.open(path) as pdf:
        return len(pdf.pages)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", nargs="+", type=int, default=[8, 50, 200, 500])
    parser.add_argument("--two-sided", action="store_true")
    args = parser.parse_args()
    print(f"{'quests':>7} {'pages':>6} {'PDF MB':>7} {'peak MB':>8} {'seconds':>8} {'s/quest':>8}")
    rows = []
    for count in args.sizes:
        row = measure(count, args.two_sided)
        rows.append((count, row))
        print(
            f"{count:>7} {row['pages']:>6} {row['mb']:>7.1f} {row['peak_mb']:>8.0f} {row['seconds']:>8.1f} "
            f"{row['seconds'] / count:>8.3f}",
            flush=True,
        )
    failed = False
    for count, row in rows:
        if count <= 200 and row["peak_mb"] > TARGET_MB:  # the target: up to 200 quests
            print(f"over target: {count} quests took {row['peak_mb']:.0f} MB (target {TARGET_MB} MB)")
            failed = True
    big = [(c, r) for c, r in rows if c >= 50]
    if len(big) >= 2:
        (small, first), (large, last) = big[0], big[-1]
        ratio = (last["seconds"] / large) / (first["seconds"] / small)
        print(f"seconds per quest at {large} / at {small}: {ratio:.2f} (target at most {LINEAR})")
        failed = failed or ratio > LINEAR
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
