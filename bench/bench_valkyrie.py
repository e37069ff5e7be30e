"""Benchmark: the Valkyrie export against the engine JSON of the same compiled quests, and the Valkyrie
import against the lint of what it writes, measured side by side in one run.

    python bench/bench_valkyrie.py              # best of 5 runs each
    python bench/bench_valkyrie.py --repeat 1   # a smoke run

The quests are the shipped second edition ones (the Lantern Road's two encounters export as
one quest) and a generated second edition map of many tiles; the imports are the two community
quests in tests/fixtures/valkyrie. Times are wall-clock seconds, best of `--repeat` runs in one
process, each stage on an already compiled quest (the check itself is bench_quests.py's). The
targets: an export costs at most three times the engine JSON of the same quests (it words the
victories and effects with the sheet's templates, which the JSON does not), and an import
at most what checking its result costs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from questc.api import Options, check_file, check_source, import_quest  # noqa: E402
from questc.emit.engine_json import engine_json  # noqa: E402
from questc.emit.valkyrie import export, read  # noqa: E402

QUESTS = HERE.parent / "quests"
COMMUNITY = HERE.parent / "tests" / "fixtures" / "valkyrie" / "quests"


def best(function, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def generated(tiles: int) -> str:
    """A second edition quest of `tiles` 4x4 tiles in a row (9A..11B, turned as they come), joined
    by their side connections, with tokens and monsters on each, and a door every third joint."""
    kinds = ["tile_9a", "tile_10a", "tile_11a", "tile_9b", "tile_10b", "tile_11b"]
    lines = ['quest "Long road" {\n  edition second\n}', "piece In entrance at 1,-2 turn 180"]
    areas = []
    for i in range(tiles):
        lines.append(f"piece T{i} {kinds[i % len(kinds)]} at {4 * i},0")
        if i % 3 == 2:
            lines.append(f"door d{i} between T{i - 1} T{i}")
    for start in range(0, tiles, 3):
        members = [f"T{i}" for i in range(start, min(start + 3, tiles))]
        extra = ", In" if start == 0 else ""
        body = "\n".join(
            f"  search at {4 * int(m[1:]) + 1},1\n  monster zombie at {4 * int(m[1:]) + 2},2" for m in members
        )
        areas.append(
            f'area A{start} "Stretch {start}"{" start" if start == 0 else ""} {{\n'
            f"  pieces {', '.join(members)}{extra}\n{body}\n}}"
        )
    return "\n".join(lines + areas + ["victory heroes when round > 6"]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}")
    print(f"{'quest':<30}{'json':>9}{'valkyrie':>10}{'ratio':>8}")
    cases = [
        ("greywater_ferry", [check_file(QUESTS / "greywater_ferry.quest")]),
        ("lantern_road (2 encounters)", [check_file(QUESTS / f"lantern_road_{n}.quest") for n in (1, 2)]),
    ]
    for tiles in (30,):  # a map as long as a quest is ever likely to be (a generated one is not a quest)
        # More tiles, doors, tokens and figures than a box holds: the counts are left out.
        result = check_source(generated(tiles), "long.quest", Options(ignore=("Q213", "Q403", "Q405", "Q410")))
        assert result.buildable(), [d.message for d in result.errors]
        cases.append((f"generated, {tiles} tiles", [result]))
    worst = 0.0
    for name, results in cases:
        json_time = best(lambda: [engine_json(r.compiled, r.diagnostics) for r in results], args.repeat)
        export_time = best(lambda: export([read(r.compiled) for r in results]), args.repeat)
        worst = max(worst, export_time / json_time)
        print(f"{name:<30}{json_time:>9.4f}{export_time:>10.4f}{export_time / json_time:>8.2f}")
    print(f"export / engine JSON, worst: {worst:.2f} (target: at most 3)")
    print(f"\n{'imported quest':<30}{'import':>9}{'lint':>10}{'ratio':>8}   (target: ratio at most 1)")
    for folder in sorted(COMMUNITY.iterdir()):
        if not folder.is_dir():
            continue
        text = import_quest("valkyrie", folder).text
        import_time = best(lambda: import_quest("valkyrie", folder), args.repeat)
        lint_time = best(lambda: check_source(text, "imported.quest"), args.repeat)
        print(f"{folder.name:<30}{import_time:>9.4f}{lint_time:>10.4f}{import_time / lint_time:>8.2f}")


if __name__ == "__main__":
    main()
