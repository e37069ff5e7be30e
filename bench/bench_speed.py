"""Issue 29's benchmarks: each figure printed beside its target and beside the same figure for a
baseline (an earlier commit, run in the same session, interleaved where it can be).

    python bench/bench_speed.py startup  [--venv DIR] [--baseline-venv DIR]
    python bench/bench_speed.py bigmaps  [--sizes 2000,4000,8000,16000] [--repeat 3]
    python bench/bench_speed.py pictures
    python bench/bench_speed.py build
    python bench/bench_speed.py all      # each of the above (about 15 minutes with the baseline)

--baseline REF (default a28144d, main before issue 29) is `git archive`d into a temporary folder
and run the same way; --no-baseline skips it. Times are CPU seconds (user + system) of a child
process, read with os.wait4, or process_time inside one: the machine is shared, so CPU time
and ratios from one run say more than wall clock. Every run has its own questc cache folder
(XDG_CACHE_HOME), warmed first: other installs of questc on the machine rewrite a shared one.

- startup: `questc lint` of a 100-cell quest against `python -c "import click, lark"`, both in
  a fresh `pip install .` virtual environment (not editable: what users get, bytecode compiled
  by pip), fresh processes, interleaved. Target: at most 2x.
- bigmaps: `questc lint` of bench/dungeon.py maps (2,118 cells in 114 areas, and 2,000 to 16,000
  cells with an area per 18.6 cells), fresh processes. Targets: 2,118 cells under 0.5 s, 16,000
  under 5 s, growth of the lint's own work (check_source in a process warmed by a small quest,
  so without the start-up) at most cells^1.3 from 2,000 to 16,000.
- pictures: questc's PNG (render_png, 160 px a square) of the shipped quests and the
  2,000-cell map, against the baseline's, and against other renderers of the same drawing's
  SVG at the same pixel size (resvg-py, cairosvg, Typst's PNG, when installed); the same
  bytes twice; the preview's redraw (Preview.refresh: check, scene, drawing) of the 2,000-cell
  map. Targets: at least 3x faster than the baseline; the redraw under 0.3 s.
- build: `questc build` of every shipped quest (JSON, PNG, PDF). Target: under 0.3 s of CPU a
  quest on average.

A baseline is given only the shipped quests it checks without an error (newer quests use language
it lacks): the pictures' speed-up is over the quests both draw, and says which it left out.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

from dungeon import dungeon  # noqa: E402
from generate import generated_quest  # noqa: E402

BASELINE = "a28144d"
IGNORE = '[tool.questc]\nignore = ["Q404", "Q405"]\n'


# ---- helpers ------------------------------------------------------------------------------------


def child_cpu(command: list[str], env: dict | None = None, cwd: Path | None = None) -> float:
    """CPU seconds (user + system) of one run of `command`; it must exit 0 or 1."""
    process = subprocess.Popen(command, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise SystemExit(f"{' '.join(command)} exited {code}: {process.stderr.read().decode()[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def base_env(cache: Path, tree: Path | None = None) -> dict:
    env = dict(os.environ, XDG_CACHE_HOME=str(cache), PYTHONPYCACHEPREFIX=str(cache / "pyc"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    return env


def export_tree(ref: str, into: Path) -> Path:
    """`git archive REF` of this repository, unpacked into `into`."""
    into.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def user_venv(tree: Path, where: Path) -> Path:
    """A fresh virtual environment with `pip install TREE` (not editable); its python."""
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True)
    python = where / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(tree)], check=True)
    return python


def snippet(code: str, tree: Path, cache: Path, cwd: Path):
    """Run Python code with `tree` first on the path; its last line of output, as JSON."""
    done = subprocess.run(
        [sys.executable, "-c", code], env=base_env(cache, tree), cwd=cwd, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise SystemExit(f"snippet failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def verdict(ok: bool) -> str:
    return "met" if ok else "NOT met"


READABLE = r"""
import json
from questc.api import check_file
print(json.dumps([path for path in {paths!r} if not check_file(path).errors]))
"""


def readable(paths: list[str], tree: Path, cache: Path, cwd: Path) -> list[str]:
    """The quests among `paths` that the questc in `tree` checks without an error: a baseline
    cannot read what the language gained after it (ember_reliquary's encounters, for one)."""
    return snippet(READABLE.format(paths=paths), tree, cache, cwd)  # type: ignore[no-any-return]


def trees(args, work: Path) -> list[tuple[str, Path]]:
    out = [("now", ROOT)]
    if not args.no_baseline:
        out.append((f"baseline {args.baseline}", export_tree(args.baseline, work / "baseline")))
    return out


# ---- start-up -----------------------------------------------------------------------------------


def startup(args, work: Path) -> None:
    print('\n== start-up: `questc lint` of a 100-cell quest against `python -c "import click, lark"`')
    venvs = [("now", Path(args.venv) / "bin" / "python" if args.venv else user_venv(ROOT, work / "venv-now"))]
    if not args.no_baseline:
        if args.baseline_venv:
            venvs.append((f"baseline {args.baseline}", Path(args.baseline_venv) / "bin" / "python"))
        else:
            tree = export_tree(args.baseline, work / "baseline-tree")
            venvs.append((f"baseline {args.baseline}", user_venv(tree, work / "venv-baseline")))
    folder = work / "startup"
    folder.mkdir()
    (folder / "small.quest").write_text(generated_quest(100, areas=2), encoding="utf-8")
    commands = {"floor": [str(venvs[0][1]), "-c", "import click, lark"]}
    for name, python in venvs:
        commands[name] = [str(python.parent / "questc"), "lint", "small.quest"]
    env = dict(os.environ, XDG_CACHE_HOME=str(work / "cache-startup"))
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # pip compiled the bytecode; let Python read it
    for command in commands.values():
        for _ in range(2):
            child_cpu(command, env, folder)  # warm: the grammar and catalog caches
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.rounds):
        for name, command in commands.items():
            times[name].append(child_cpu(command, env, folder))
    floor = statistics.median(times["floor"])
    for name, values in times.items():
        ratio = statistics.median(values) / floor
        line = f"{name:22} min {min(values) * 1000:6.1f} ms  median {statistics.median(values) * 1000:6.1f} ms"
        if name != "floor":
            line += f"  {ratio:.2f}x the floor (target at most 2.0: {verdict(ratio <= 2.0)})"
        print(line)


# ---- big maps -----------------------------------------------------------------------------------


def bigmaps(args, work: Path) -> None:
    print("\n== big maps: `questc lint` of bench/dungeon.py maps (CPU s, best of repeats, fresh processes)")
    folder = work / "maps"
    folder.mkdir()
    (folder / "pyproject.toml").write_text(IGNORE, encoding="utf-8")
    maps = {"small": (generated_quest(100, areas=2), 100, 2)}
    text, cells, areas = dungeon(2118, areas=114)
    maps["2118"] = (text, cells, areas)
    for size in [int(s) for s in args.sizes.split(",")]:
        maps[str(size)] = dungeon(size)
    for name, (text, _cells, _areas) in maps.items():
        (folder / f"{name}.quest").write_text(text, encoding="utf-8")
    results: dict[str, dict[str, float]] = {}
    for label, tree in trees(args, work):
        cache = work / f"cache-maps-{len(results)}"
        env = base_env(cache, tree)
        run = [sys.executable, "-m", "questc", "lint"]
        child_cpu(run + ["small.quest"], env, folder)  # warm the caches and the bytecode
        found = {}
        for name in maps:
            repeat = args.repeat if label == "now" or name in ("small", "2118", "2000") else 1
            found[name] = min(child_cpu(run + [f"{name}.quest"], env, folder) for _ in range(repeat))
        results[label] = found
    sizes = [n for n in maps if n not in ("small",)]
    print(f"{'map':>6} {'cells':>6} {'areas':>6}" + "".join(f" {label:>20}" for label in results))
    for name in ["small"] + sizes:
        _text, cells, areas = maps[name]
        print(f"{name:>6} {cells:6} {areas:6}" + "".join(f" {found[name]:20.3f}" for found in results.values()))
    # The lint's own work, for the growth: check_source of each map inside a process already warmed
    # by the small quest (its imports, caches and tree of beams made), best of the repeats.
    inside: dict[str, dict[str, float]] = {}
    for label, tree in trees(args, work):
        code = (
            "import json, time\nfrom questc.api import check_file\ncheck_file('small.quest')\n"
            "start = time.process_time(); check_file(NAME); print(json.dumps(time.process_time() - start))"
        )
        inside[label] = {}
        for name in sizes:
            repeat = args.repeat if label == "now" or name in ("2118", "2000") else 1
            inside[label][name] = min(
                float(snippet(code.replace("NAME", repr(f"{name}.quest")), tree, work / "cache-inside", folder))
                for _ in range(repeat)
            )
    print(
        "check_source alone, in a warm process:"
        + "".join(
            f"  {label}: " + ", ".join(f"{n} {t:.3f}" for n, t in found.items()) for label, found in inside.items()
        )
    )
    now = results["now"]
    print(f"lint of 2,118 cells in 114 areas: {now['2118']:.3f} s (target under 0.5 s: {verdict(now['2118'] < 0.5)})")
    big = max(int(n) for n in sizes if n != "2118")
    print(f"lint of {big:,} cells: {now[str(big)]:.3f} s (target under 5 s: {verdict(now[str(big)] < 5)})")
    low, high = min(int(n) for n in sizes if n != "2118"), big
    for label, found in results.items():
        work_low, work_high = inside[label][str(low)], inside[label][str(high)]
        cells_low, cells_high = maps[str(low)][1], maps[str(high)][1]
        growth = math.log(work_high / work_low) / math.log(cells_high / cells_low)
        raw = math.log(found[str(high)] / found[str(low)]) / math.log(cells_high / cells_low)
        target = f" (target at most 1.3: {verdict(growth <= 1.3)})" if label == "now" else ""
        print(
            f"{label}: growth of the lint's own work from {cells_low:,} to {cells_high:,} cells: cells^{growth:.2f}"
            f"{target}; of the whole command: cells^{raw:.2f}"
        )


# ---- pictures -----------------------------------------------------------------------------------

PICTURES = r"""
import contextlib, hashlib, io, json, math, re, sys, time
sys.path.insert(0, {bench!r})
from questc.api import check_file, check_source, Options
from questc.emit import png
from dungeon import dungeon
import importlib.util
NEW_API = importlib.util.find_spec("questc.compiled") is not None
quests = {quests!r}
out = {{}}
def cpu(function, repeat=2):
    best = None
    for _ in range(repeat):
        start = time.process_time(); value = function(); spent = time.process_time() - start
        best = spent if best is None else min(best, spent)
    return best, value
def compiled(path):
    result = check_source(dungeon(2000)[0], "d.quest", Options(ignore=("Q404", "Q405"))) if path is None \
        else check_file(path)
    return result.compiled if NEW_API else result   # the emitters take the CompiledQuest (issue 24 on)
# What `questc build` holds open while it draws (the memory of a picture kept for the next), where
# this version has it: the PNG as a build makes it. "alone": outside it, as one render in a process.
in_build = getattr(png, "session", contextlib.nullcontext)
def best_png(path):
    # Each time a quest just checked, as `questc build` has it: nothing of an earlier drawing kept.
    spent, data = None, None
    for _ in range(2):
        result = compiled(path)
        start = time.process_time(); data = png.render_png(result); took = time.process_time() - start
        spent = took if spent is None else min(spent, took)
    return spent, data
for name, path in quests:
    alone, data = best_png(path)
    with in_build():
        spent, data = best_png(path)
    result = compiled(path)
    again = png.render_png(result)
    entry = {{"png": spent, "alone": alone, "bytes": len(data), "stable": data == again,
              "sha": hashlib.sha256(data).hexdigest()[:12]}}
    if {candidates}:
        from questc.draw.svg import to_svg
        try:
            from questc.fonts import FONT_DIR
        except ImportError:   # before issue 24
            from questc.emit.fonts import FONT_DIR
        from PIL import Image
        size = Image.open(io.BytesIO(data)).size
        drawing, md = png.png_drawing(result)
        scale = size[0] / drawing.width
        svg_pt = to_svg(drawing).decode()
        # The same drawing, its size given in pixels (resvg reads no `pt`).
        svg = re.sub(r'width="[0-9.]+pt" height="[0-9.]+pt"', f'width="{{size[0]}}" height="{{size[1]}}"', svg_pt, count=1)
        try:
            import resvg_py
            entry["resvg-py"] = cpu(lambda: resvg_py.svg_to_bytes(svg_string=svg, width=size[0], height=size[1],
                                   skip_system_fonts=True, font_dirs=[str(FONT_DIR)]), 1)[0]
        except ImportError:
            pass
        try:
            import cairosvg
            entry["cairosvg"] = cpu(lambda: cairosvg.svg2png(bytestring=svg.encode(), output_width=size[0],
                                    output_height=size[1]), 1)[0]
        except (ImportError, OSError):
            pass
        import typst
        body = to_svg(drawing, standalone=False).decode()
        source = (f'#set page(width: {{drawing.width}}pt, height: {{drawing.height}}pt, margin: 0pt)\n'
                  f'#image(bytes("{{body.replace(chr(92), chr(92) * 2).replace(chr(34), chr(92) + chr(34))}}"), '
                  f'format: "svg", width: {{drawing.width}}pt)\n')
        entry["typst"] = cpu(lambda: typst.compile(source.encode(), format="png", ppi=72 * scale,
                             font_paths=[str(FONT_DIR)], ignore_system_fonts=True), 1)[0]
    out[name] = entry
if {preview}:
    import tempfile, pathlib
    from questc.preview.session import Preview
    folder = pathlib.Path(tempfile.mkdtemp())
    (folder / "pyproject.toml").write_text('[tool.questc]\nignore = ["Q404", "Q405"]\n')
    quest = folder / "dungeon.quest"
    quest.write_text(dungeon(2000)[0])
    from questc.config import load_options
    options = Options(ignore=("Q404", "Q405"))
    preview = Preview(quest, lambda: options)
    preview.refresh()
    out["preview redraw"] = cpu(preview.refresh, 3)[0]
print(json.dumps(out))
"""


def pictures(args, work: Path) -> None:
    print(
        "\n== pictures: PNG of the shipped quests and the 2,000-cell map at 160 px a square (CPU s, best of 2), "
        "as `questc build` draws them (its png.session held, where the version has one); `alone`: one render "
        "with nothing held"
    )
    shipped = [str(p) for p in sorted((ROOT / "quests").glob("*.quest"))]
    results = {}
    for label, tree in trees(args, work):
        cache = work / f"cache-pictures-{len(results)}"
        # The baseline draws only the shipped quests it can read; the speed-up is over those.
        paths = shipped if label == "now" else readable(shipped, tree, cache, work)
        quests = [(Path(p).stem, p) for p in paths] + [("dungeon_2000", None)]
        code = PICTURES.format(bench=str(HERE), quests=quests, candidates=label == "now", preview=True)
        results[label] = snippet(code, tree, cache, work)
    now = results["now"]
    base = next((found for label, found in results.items() if label != "now"), None)
    others = [
        k for k in ("resvg-py", "cairosvg", "typst") if any(k in e for n, e in now.items() if n != "preview redraw")
    ]
    print(
        f"{'quest':22} {'now':>7}"
        + (f" {'baseline':>9} {'speed-up':>8} {'alone':>7} {'speed-up':>8}" if base else f" {'alone':>7}")
        + "".join(f" {k:>9}" for k in others)
        + f" {'kB':>6} stable"
    )
    ratios: list[float] = []
    alone_ratios: list[float] = []
    for name, entry in now.items():
        if name == "preview redraw":
            continue
        line = f"{name:22} {entry['png']:7.3f}"
        if base and name in base:
            ratio = base[name]["png"] / entry["png"]
            ratios.append(ratio)
            alone_ratios.append(base[name]["png"] / entry["alone"])
            line += f" {base[name]['png']:9.3f} {ratio:7.1f}x {entry['alone']:7.3f} {alone_ratios[-1]:7.1f}x"
        elif base:
            line += f" {'unread':>9} {'':>8} {entry['alone']:7.3f} {'':>8}"
        else:
            line += f" {entry['alone']:7.3f}"
        line += "".join(f" {entry.get(k, float('nan')):9.3f}" for k in others)
        print(line + f" {entry['bytes'] // 1000:6} {entry['stable']}")
    if ratios:
        common = [n for n in now if n != "preview redraw" and n in base]
        total = sum(base[n]["png"] for n in common) / sum(now[n]["png"] for n in common)
        left = [n for n in now if n != "preview redraw" and n not in base]
        print(
            f"PNG speed-up over the baseline: {total:.2f}x in all, {min(ratios):.2f}x at least "
            f"(target at least 3x: {verdict(min(ratios) >= 3)}), over the {len(common)} pictures the baseline "
            f"draws" + (f" (it cannot read {', '.join(left)}: left out of the ratio)" if left else "")
        )
        alone = sum(base[n]["png"] for n in common) / sum(now[n]["alone"] for n in common)
        print(f"rendered alone: {alone:.2f}x in all, {min(alone_ratios):.2f}x at least")
    print(f"same bytes twice: {all(e['stable'] for n, e in now.items() if n != 'preview redraw')}")
    redraw = now["preview redraw"]
    line = f"preview redraw of the 2,000-cell map: {redraw:.3f} s (target under 0.3 s: {verdict(redraw < 0.3)})"
    if base:
        line += f"; baseline {base['preview redraw']:.3f} s"
    print(line)


# ---- whole quests -------------------------------------------------------------------------------


def build(args, work: Path) -> None:
    print("\n== whole quests: `questc build` of every shipped quest (JSON, PNG, PDF), CPU s, best of 2")
    shipped = [str(p) for p in sorted((ROOT / "quests").glob("*.quest"))]
    for label, tree in trees(args, work):
        cache = work / f"cache-build-{label.split()[0]}"
        env = base_env(cache, tree)
        out = work / f"build-{label.split()[0]}"
        # The target is on every shipped quest; a baseline builds those it can read.
        quests = shipped if label == "now" else readable(shipped, tree, cache, work)
        command = [sys.executable, "-m", "questc", "build", "-o", str(out), *quests]
        child_cpu(command, env, work)  # warm
        spent = min(child_cpu(command, env, work) for _ in range(2))
        per = spent / len(quests)
        target = f" (target under 0.3 s: {verdict(per < 0.3)})" if label == "now" else ""
        print(f"{label:22} {spent:6.2f} s for {len(quests)} quests: {per:.3f} s a quest{target}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=["startup", "bigmaps", "pictures", "build", "all"])
    parser.add_argument("--baseline", default=BASELINE, help="git ref to compare with (default %(default)s)")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--venv", help="startup: an existing `pip install .` venv of this tree to use")
    parser.add_argument("--baseline-venv", help="startup: an existing venv of the baseline to use")
    parser.add_argument("--rounds", type=int, default=15, help="startup: interleaved runs of each command")
    parser.add_argument("--sizes", default="2000,4000,8000,16000", help="bigmaps: floor cells of the maps")
    parser.add_argument("--repeat", type=int, default=3, help="bigmaps: runs of each map, best taken")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}")
    work = Path(tempfile.mkdtemp(prefix="questc-speed-"))
    try:
        for name in ["startup", "bigmaps", "pictures", "build"] if args.what == "all" else [args.what]:
            {"startup": startup, "bigmaps": bigmaps, "pictures": pictures, "build": build}[name](args, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
