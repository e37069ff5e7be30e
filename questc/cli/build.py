"""`questc build PATH... [-o DIR] [--only json,png,pdf]`: lint, then write each clean quest's outputs.

For every quest with no error (and, under --strict, no warning) the outputs are written
atomically as DIR/<id>.json, DIR/<id>.png and DIR/<id>.pdf; nothing at all is written
for a quest that fails. Exit status: 0 all built, 1 some quest had errors (the others
are still built), 2 a usage problem (an unknown output kind, a renderer that is not
installed, two quests with one id, an output that would overwrite a source).
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from importlib import import_module
from pathlib import Path
from typing import Callable

import click

from questc.cli.common import checking_options, fail, guarded, quest_files, run_options

KINDS = ("json", "png", "pdf")


@dataclass(frozen=True)
class Emitter:
    """One output kind: its file suffix and the function turning a compiled QuestResult into bytes."""
    kind: str
    render: Callable[..., bytes]


def _json_render(result) -> bytes:
    from questc.emit.engine_json import engine_json
    return engine_json(result)


def load_emitter(kind: str) -> Emitter:
    """An output kind in; its Emitter out. ImportError (with the reason) when the module
    providing it is not installed, or lacks its render function."""
    if kind == "json":
        return Emitter("json", _json_render)
    module_name, function = f"questc.emit.{kind}", f"render_{kind}"
    try:
        module = import_module(module_name)
    except ImportError as error:
        raise ImportError(f"{module_name} cannot be imported ({error})") from None
    render = getattr(module, function, None)
    if not callable(render):
        raise ImportError(f"{module_name} has no {function}()")
    return Emitter(kind, render)


def parse_only(values) -> tuple[str, ...] | None:
    """`--only` values (comma-separated, repeatable) in; the kinds asked for in KINDS order,
    or None when none were given. Raises click.UsageError for an unknown kind."""
    asked = []
    for value in values or ():
        asked += [v.strip().lower() for v in value.split(",") if v.strip()]
    if not values:
        return None
    unknown = sorted(set(asked) - set(KINDS))
    if unknown or not asked:
        raise click.UsageError(f"--only takes {', '.join(KINDS)} (comma-separated), not {', '.join(unknown) or 'nothing'}")
    return tuple(k for k in KINDS if k in asked)


def choose_emitters(only: tuple[str, ...] | None) -> tuple[list[Emitter], list[str]]:
    """The kinds asked for (None: every kind) in; (emitters, notes) out.

    A kind asked for by name whose renderer is missing is a usage error (exit 2): the
    user wants a file questc cannot make, and a placeholder would be a lie. With no
    --only, missing renderers are skipped with a note instead, so a plain `questc build`
    still writes what it can.
    """
    emitters, notes = [], []
    for kind in (only or KINDS):
        try:
            emitters.append(load_emitter(kind))
        except ImportError as error:
            if only is not None:
                fail(f"cannot build {kind}: {error}; install questc with its {kind} renderer, "
                     f"or leave {kind} out of --only")
            notes.append(f"questc: note: {kind} not built: {error}")
    return emitters, notes


def _same_file(a: Path, b: Path) -> bool:
    """True when two paths name one file (symlinks resolved; hard links caught when both exist)."""
    if a.resolve() == b.resolve():
        return True
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_plan(results, out_dir: Path, emitters: list[Emitter], inputs: list[Path]) -> None:
    """Refuse, before anything is written, a build that would clash: two quests with one id
    (their files would overwrite each other) or an output path that is one of the inputs."""
    by_id: dict[str, list[str]] = {}
    for result in results:
        if result.model is not None:
            by_id.setdefault(result.model.id, []).append(result.path)
    clashes = {qid: paths for qid, paths in by_id.items() if len(paths) > 1}
    if clashes:
        lines = [f"`{qid}` in {', '.join(paths)}" for qid, paths in sorted(clashes.items())]
        fail("two quests with the same id would write the same files: " + "; ".join(lines)
             + " (give one of them another `id` in its header)")
    for result in results:
        if result.model is None:
            continue
        for emitter in emitters:
            target = out_dir / f"{result.model.id}.{emitter.kind}"
            for source in inputs:
                if _same_file(target, source):
                    fail(f"refusing to overwrite the source {source} with {target}: "
                         "choose another output folder with -o")


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", "out_dir", default="build", show_default=True, type=click.Path(),
              help="Folder to write <id>.json, <id>.png and <id>.pdf into (created if missing).")
@click.option("--only", multiple=True, metavar="KINDS",
              help="Only these outputs: json, png, pdf (comma-separated). Default: every kind installed.")
@click.option("-j", "--jobs", default=1, show_default=True, type=click.IntRange(min=0),
              help="Check and render this many quests at once (0: one per CPU); the output is the same.")
@checking_options
@guarded
def build(paths, out_dir, only, jobs, strict, select, ignore, verbose, config_file, expansions):
    """Check quests, then write DIR/<id>.json (and .png, .pdf) for each quest with no error."""
    from questc.api import check_file
    from questc.cli.output import print_report
    from questc.diagnostics.core import Severity

    emitters, notes = choose_emitters(parse_only(only))
    # Infos are always collected: the JSON records every warning and info the quest
    # compiled with; only the printing below honours --verbose.
    options = run_options(strict, select, ignore, True, config_file, expansions)
    inputs = quest_files(paths, options)
    jobs = jobs or os.cpu_count() or 1
    rendered = None   # with -j: path -> kind -> bytes (or the renderer's exception)
    if jobs > 1 and len(inputs) > 1:
        results, rendered = _in_parallel(inputs, options, [e.kind for e in emitters], jobs)
    else:
        results = [check_file(path, options) for path in inputs]

    shown = results if verbose else [
        replace(r, diagnostics=[d for d in r.diagnostics if d.severity is not Severity.INFO]) for r in results]
    print_report(shown, "text", sys.stdout, verbose=verbose)

    out = Path(out_dir)
    check_plan(results, out, emitters, inputs)
    buildable = [r for r in results if not r.failed(options.strict) and r.compiled]
    failed = len(buildable) != len(results)
    for result in results:
        if not result.failed(options.strict) and not result.compiled:
            # No error was reported, yet a stage did not run: never write a half-made quest.
            click.echo(f"questc: {result.path} did not compile completely; not built", err=True)
    if buildable:
        if out.exists() and not out.is_dir():
            fail(f"the output {out} exists and is not a folder")
        out.mkdir(parents=True, exist_ok=True)

    from questc.emit.atomic import write_atomic

    render_failed = False   # a renderer or a write failed: exit 2, whatever else happened
    for result in buildable:
        for emitter in emitters:
            target = out / f"{result.model.id}.{emitter.kind}"
            try:
                if rendered is None:
                    data = emitter.render(result)
                else:
                    data = rendered[result.path][emitter.kind]
                    if isinstance(data, Exception):
                        raise data
            except Exception as error:  # one renderer's failure must not stop the other quests
                if os.environ.get("QUESTC_DEBUG"):
                    raise
                click.echo(f"questc: internal error while making {target}: {type(error).__name__}: {error}",
                           err=True)
                render_failed = True
                continue
            if not isinstance(data, (bytes, bytearray)):
                click.echo(f"questc: internal error: the {emitter.kind} renderer returned "
                           f"{type(data).__name__}, not bytes; {target} not written", err=True)
                render_failed = True
                continue
            try:
                write_atomic(target, bytes(data))
            except OSError as error:   # a full disk or a read-only folder: say so, keep going
                click.echo(f"questc: cannot write {target}: {error.strerror or error}", err=True)
                render_failed = True
                continue
            click.echo(f"wrote {target.as_posix()}")
    for note in notes:
        click.echo(note, err=True)
    sys.exit(2 if render_failed else 1 if failed else 0)


def _check_and_render(path, options, kinds: list[str]):
    """One quest, in a worker process: check it and, when it compiled, render every kind.

    Returns a result reduced to what the parent prints and plans with (path, source,
    diagnostics, id, compiled or not), and kind -> bytes, or the renderer's exception.
    """
    from types import SimpleNamespace

    from questc.api import check_file

    result = check_file(path, options)
    outputs: dict = {}
    if not result.failed(options.strict) and result.compiled:
        for kind in kinds:
            try:
                outputs[kind] = load_emitter(kind).render(result)
            except Exception as error:   # reported by the parent, in order, as a serial build would
                outputs[kind] = error
    slim = replace(result, syntax=None, comments=(),
                   model=None if result.model is None else SimpleNamespace(id=result.model.id),
                   context=None if result.context is None else True)
    return slim, outputs


def _in_parallel(inputs: list[Path], options, kinds: list[str], jobs: int):
    """Check and render the quests in `jobs` worker processes; results in input order."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=min(jobs, len(inputs))) as pool:
        done = list(pool.map(_check_and_render, inputs, [options] * len(inputs), [kinds] * len(inputs)))
    return [slim for slim, _ in done], {slim.path: outputs for slim, outputs in done}
