"""Hostile fuzzing: thousands of mutated quests and content packs, each checked in its own
forked process under the hostile-input limits (500 MB of address space, 5 s of CPU), and
the figures docs/performance.md quotes: inputs tried, internal errors, processes a limit
killed, peak memory, the slowest inputs.

    python bench/fuzz.py                           # 3,000 inputs, seed 1
    python bench/fuzz.py --count 300 --seed 7      # a shorter run

The inputs are the shipped quests and the acceptance cases, mutated three ways: the two
mutators of tests/test_fuzz.py (grammar-breaking edits, and edits that keep the syntax
and change names, numbers and statements) and `hostile_mutate` below (numbers of
thousands of digits, huge rectangles, far points, deep and wide nesting, long lines,
control characters, statements repeated thousands of times); a tenth are quests that
`use` a hostile YAML pack (nested aliases, deep nesting, huge values, loops). Each goes
through `check_source`; every `--render`-th quest that compiles is also rendered to
engine JSON, PNG and PDF in its process. A run fails (exit 1) on any internal error,
hang or process killed by a limit.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import select
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

MEMORY = 500 * 2**20
CPU_SECONDS = 5
WALL_SECONDS = 60

_NUMBER = re.compile(r"(?<![\w.:])-?\d+(?![\w])")
_POINT = re.compile(r"(?<![\w.:])(-?\d+),(-?\d+)(?![\d.])")
_PIECE = re.compile(r"^piece (\w+)", re.M)


def corpus() -> dict[str, str]:
    """name -> text of the shipped quests and the acceptance cases (the repository's copy)."""
    paths = sorted((ROOT / "quests").glob("*.quest"))
    paths += sorted((ROOT / "tests" / "corpus" / "acceptance").glob("*.quest"))
    return {p.name: p.read_text(encoding="utf-8") for p in paths}


def _huge_number(rng: random.Random) -> str:
    kind = rng.randrange(4)
    if kind == 0:
        return str(10 ** rng.choice([7, 9, 12, 20, 120, 309]))
    if kind == 1:
        return "9" * rng.choice([4_300, 4_301, 5_000, 40_000])
    if kind == 2:
        return "0" * rng.choice([10, 5_000]) + str(rng.randrange(100))
    return str(rng.choice([1_000_000, 1_000_001, 999_999, 2**31, 2**63]))


def _far(rng: random.Random) -> int:
    return rng.choice([1, -1]) * rng.choice([399, 400, 401, 404, 5_000, 9_999, 10_000, 10_001, 10**9, 10**120])


def _in_area(lines: list[str], rng: random.Random, statement: str) -> None:
    """Insert a statement on a line of its own inside some area block."""
    areas = [k for k, line in enumerate(lines) if line.startswith("area ") and line.rstrip().endswith("{")]
    at = rng.choice(areas) + 1 if areas else len(lines)
    lines.insert(at, "  " + statement)


def hostile_mutate(text: str, rng: random.Random) -> str:
    """One to three hostile edits of a quest's text (each keeps the file under 1,000,000 characters)."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        kind = rng.randrange(12)
        if kind == 0:  # a number of many digits
            k = rng.randrange(len(lines))
            found = list(_NUMBER.finditer(lines[k]))
            if found:
                m = rng.choice(found)
                lines[k] = lines[k][: m.start()] + _huge_number(rng) + lines[k][m.end() :]
        elif kind in (1, 2):  # a huge rectangle, in `cells` or an obstacle
            x, y = rng.randrange(-10, 40), rng.randrange(-10, 40)
            w = rng.choice([1, 50, 141, 399, 400, 401, 2_000, 10_000, 10**8])
            h = rng.choice([1, 50, 141, 399, 400, 401, 2_000, 10**8])
            rect = f"{x},{y}..{x + w - 1},{y + h - 1}"
            _in_area(
                lines, rng, f"cells {rect}" if kind == 1 else f"obstacle {rng.choice(['rubble', 'water'])} at {rect}"
            )
        elif kind == 3:  # a point moved far away
            k = rng.randrange(len(lines))
            found = list(_POINT.finditer(lines[k]))
            if found:
                m = rng.choice(found)
                x, y = int(m.group(1)) + _far(rng), int(m.group(2)) + rng.choice([0, _far(rng)])
                lines[k] = lines[k][: m.start()] + f"{x},{y}" + lines[k][m.end() :]
        elif kind == 4:  # a far point on a piece, or far stairs
            pieces = _PIECE.findall(text) or ["R1"]
            if rng.random() < 0.5:
                _in_area(lines, rng, f"treasure healing at {rng.choice(pieces)}:{_far(rng)},{_far(rng)}")
            else:
                lines.append(f"stairs red at {rng.choice(pieces)}:0,0 {_far(rng)},{_far(rng)}")
        elif kind == 5:  # deep or wide conditions
            depth = rng.choice([50, 99, 100, 101, 1_000, 40_000])
            shape = rng.randrange(4)
            condition = (
                "not " * depth + "conquest > 1"
                if shape == 0
                else "(" * depth + "conquest > 1" + ")" * depth
                if shape == 1
                else "(" * depth + "conquest > 1"
                if shape == 2
                else " or ".join(["(conquest > 1 and not round > 3)"] * min(depth, 5_000))
            )
            lines.append("victory heroes when " + condition)
        elif kind == 6:  # a long line of separators and stray tokens
            stray = rng.choice(["x", "{", "}", "(", "1", '"', "@"])
            lines.append("".join(";" * rng.choice([1, 1_000, 25_000]) + f" {stray} " for _ in range(rng.randint(1, 6))))
        elif kind == 7:  # control characters and odd text
            k = rng.randrange(len(lines))
            pos = rng.randint(0, len(lines[k]))
            odd = rng.choice(["\x1b[2J", "\x1b]0;title\x07", "\x00", "\x9b31m", "\u202e", "\ufeff", "\r", "\x7f"])
            lines[k] = lines[k][:pos] + odd + lines[k][pos:]
        elif kind == 8:  # a statement repeated thousands of times
            simple = [
                line for line in lines if line.strip() and "{" not in line and "}" not in line and '"""' not in line
            ]
            if simple:
                line = rng.choice(simple)
                times = min(rng.choice([500, 2_000, 10_000]), 900_000 // (len(line) + 1))
                lines.insert(rng.randrange(len(lines)), "\n".join([line] * times))
        elif kind == 9:  # counts out of range
            lines.insert(
                1,
                rng.choice(
                    [
                        f"  players 2..{_huge_number(rng)}",
                        f"  conquest {_huge_number(rng)}",
                        f"  treachery event {_huge_number(rng)}",
                    ]
                ),
            )
        elif kind == 10:  # a piece far away (a map too wide) or turned oddly
            lines.append(
                f"piece Z{rng.randrange(100)} room_4x4 at {_far(rng)},{_far(rng)}"
                + rng.choice(["", " turn 90", f" turn {_huge_number(rng)}"])
            )
        else:  # many rectangles over the map
            for _ in range(rng.choice([5, 20, 200])):
                _in_area(lines, rng, f"cells 0,0..{rng.choice([40, 199, 399])},{rng.choice([40, 99])}")
        text = "\n".join(lines)
        if len(text) > 990_000:
            text = text[:990_000]
    return text


def hostile_pack(rng: random.Random) -> str:
    """A YAML content pack meant to hurt: nested aliases, loops, deep nesting, huge values."""
    kind = rng.randrange(5)
    if kind == 0:  # billion laughs, of a random width and depth
        width, depth = rng.randint(2, 12), rng.randint(3, 12)
        lines = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
        lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, depth)]
        return "\n".join(lines) + f"\nmonsters:\n  bomb: *a{depth - 1}\n"
    if kind == 1:
        return "a: &a [*a]\nmonsters:\n  x: *a\n"
    if kind == 2:
        depth = rng.choice([500, 999, 1_001, 100_000])
        return "monsters: " + "[" * depth + "]" * depth + "\n"
    if kind == 3:
        return (
            "pieces:\n  huge:\n    kind: room\n    set: x\n    shape: ["
            + ", ".join(['"' + "o" * 400 + '"'] * 400)
            + "]\n    openings: []\n"
        )
    return f'monsters:\n  {"k" * rng.choice([100, 100_000])}:\n    footprint: "{"s" * rng.choice([10, 500_000])}"\n'


def hostile_inputs(count: int, seed: int):
    """`count` deterministic hostile mutants of the corpus: (label, text)."""
    rng = random.Random(seed)
    texts = corpus()
    names = sorted(texts)
    for k in range(count):
        name = names[k % len(names)]
        yield f"hostile:{name}#{k}", hostile_mutate(texts[name], rng)


def all_inputs(count: int, seed: int, packs_dir: Path):
    """(label, text, quest path) for a fuzz run: hostile mutants, the two mutators of
    tests/test_fuzz.py, and quests using a hostile pack written into `packs_dir`."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_fuzz import mutate, mutate_meaning

    rng = random.Random(seed)
    texts = corpus()
    names = sorted(texts)
    for k in range(count):
        name = names[k % len(names)]
        text = texts[name]
        kind = k % 10
        if kind == 9:
            pack = packs_dir / f"pack{k}.yaml"
            pack.write_text(hostile_pack(rng), encoding="utf-8")
            text = text.replace("{\n", f'{{\n  use "{pack.name}"\n', 1)
            yield f"pack:{name}#{k}", text, str(packs_dir / name)
        elif kind in (0, 3, 6):
            yield f"grammar:{name}#{k}", mutate(text, rng), str(packs_dir / name)
        elif kind in (1, 4, 7):
            yield f"meaning:{name}#{k}", mutate_meaning(text, rng), str(packs_dir / name)
        else:
            yield f"hostile:{name}#{k}", hostile_mutate(text, rng), str(packs_dir / name)


def _child(text: str, path: str, render: bool, out: int) -> None:
    """In the forked process: the limits, the check (and the renders), one JSON line to `out`."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    resource.setrlimit(resource.RLIMIT_CPU, (CPU_SECONDS, CPU_SECONDS + 1))
    report: dict = {}
    try:
        from questc.api import check_source

        result = check_source(text, path)
        report["codes"] = sorted({d.code for d in result.diagnostics})
        report["compiled"] = result.buildable()
        if render and result.buildable() and result.compiled is not None:
            from questc.build import emitter
            from questc.options import Options

            for kind in ("json", "png", "pdf", "play"):
                data = emitter(kind).render(result.compiled, result.diagnostics, Options())
                assert isinstance(data, bytes) and data
            report["rendered"] = True
    except MemoryError:
        report["error"] = "MemoryError"
    except BaseException as error:  # noqa: BLE001 - what the run is looking for: report it, never raise
        import traceback

        report["error"] = f"{type(error).__name__}: {str(error)[:300]}"
        report["where"] = traceback.format_exc()[-1500:]
    os.write(out, (json.dumps(report) + "\n").encode("utf-8"))
    os._exit(0)


def run_one(text: str, path: str, render: bool) -> dict:
    """One input in its own process: its report, CPU seconds, peak RSS (MB) and how it ended."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        _child(text, path, render, write)
    os.close(write)
    chunks, started = [], time.monotonic()
    while True:
        left = WALL_SECONDS - (time.monotonic() - started)
        ready, _, _ = select.select([read], [], [], max(0.0, left))
        if not ready:
            os.kill(pid, signal.SIGKILL)
            break
        chunk = os.read(read, 65536)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(read)
    _, status, usage = os.wait4(pid, 0)
    line = b"".join(chunks).decode("utf-8", "replace").strip()
    report = json.loads(line) if line else {}
    if os.WIFSIGNALED(status):
        report["killed"] = signal.Signals(os.WTERMSIG(status)).name
    report["cpu"] = usage.ru_utime + usage.ru_stime
    report["rss_mb"] = usage.ru_maxrss / 1024
    return report


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=3_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--render", type=int, default=10, help="render every Nth compiled quest (0: none)")
    args = parser.parse_args(argv)

    import questc.emit.pdf
    import questc.emit.png  # noqa: F401
    from questc.api import check_source  # warm: the parser tables, the catalog, the renderers

    check_source((ROOT / "quests" / "three_seals.quest").read_text(encoding="utf-8"), "warm.quest")
    baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    tally: Counter = Counter()
    codes: Counter = Counter()
    failures: list[tuple[str, dict]] = []
    slowest: list[tuple[float, str]] = []
    biggest: list[tuple[float, str]] = []
    compiled_seen = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="questc-fuzz-") as folder:
        work = Path(folder)
        (work / "questc.toml").write_text("", encoding="utf-8")
        if (ROOT / "quests" / "packs").is_dir():  # the packs the shipped quests use
            shutil.copytree(ROOT / "quests" / "packs", work / "packs")
        for label, text, path in all_inputs(args.count, args.seed, work):
            render = False
            report = run_one(text, path, render=False)
            if report.get("compiled"):
                compiled_seen += 1
                if args.render and compiled_seen % args.render == 0:
                    render = True
                    report = run_one(text, path, render=True)
            tally["inputs"] += 1
            tally[label.split(":")[0]] += 1
            tally["compiled"] += bool(report.get("compiled"))
            tally["rendered"] += bool(report.get("rendered"))
            tally["render tried"] += render
            codes.update(report.get("codes", []))
            if "error" in report or "killed" in report or "codes" not in report:
                failures.append((label, report))
            slowest.append((report["cpu"], label))
            biggest.append((report["rss_mb"], label))
    elapsed = time.monotonic() - started
    slowest.sort(reverse=True)
    biggest.sort(reverse=True)
    cpus = sorted(c for c, _ in slowest)

    print(
        f"inputs tried          {tally['inputs']:,} (hostile {tally['hostile']:,}, grammar {tally['grammar']:,}, "
        f"meaning {tally['meaning']:,}, hostile packs {tally['pack']:,}), seed {args.seed}"
    )
    print(
        f"compiled              {tally['compiled']:,}; rendered to JSON, PNG, PDF and print and play: "
        f"{tally['rendered']:,} of {tally['render tried']:,} tried"
    )
    print(f"internal errors       {sum(1 for _, r in failures if 'error' in r)}")
    print(
        f"killed by a limit     {sum(1 for _, r in failures if 'killed' in r)} "
        f"(CPU {CPU_SECONDS} s, address space {MEMORY >> 20} MB, wall {WALL_SECONDS} s)"
    )
    print(
        f"CPU per input         median {cpus[len(cpus) // 2]:.2f} s, 99th percentile "
        f"{cpus[int(len(cpus) * 0.99)]:.2f} s, max {cpus[-1]:.2f} s"
    )
    print(f"peak RSS per input    max {biggest[0][0]:.0f} MB (the warm parent it was forked from: {baseline:.0f} MB)")
    print(f"Q006 (beyond limits)  in {codes['Q006']:,} inputs; Q106 (bad pack) in {codes['Q106']:,}")
    print(f"wall clock            {elapsed:.0f} s")
    print("slowest:")
    for cpu, label in slowest[:5]:
        print(f"  {cpu:6.2f} s  {label}")
    print("largest:")
    for rss, label in biggest[:5]:
        print(f"  {rss:6.0f} MB  {label}")
    for label, report in failures[:20]:
        print(f"FAILED {label}: {report.get('error') or report.get('killed') or 'no report'}")
        if report.get("where"):
            print(report["where"])
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
