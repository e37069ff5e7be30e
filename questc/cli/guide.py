"""`questc guide PATH... -o FILE.pdf`: check quests, then write one printable guide of every quest with no error.

The guide is a title page, the contents with page numbers, then each quest's sheet
(map, read-aloud text, overlord text) from a new page. Quests with errors are
reported with their diagnostics and left out. Exit status: 0 every quest is in the
guide, 1 some quest had errors (the others are still in it; with none left, nothing
is written), 2 a usage problem. The file is written atomically: a reader never sees
half a guide, and a failed run leaves an older guide as it was.
"""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import click

from questc.cli.common import checking_options, fail, guarded, quest_files, run_options


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", "output", required=True, type=click.Path(dir_okay=False),
              help="The PDF file to write (its folder is created if missing).")
@click.option("--title", help="The guide's title, on its first page (default: the template's).")
@checking_options
@guarded
def guide(paths, output, title, strict, select, ignore, verbose, config_file, expansions):
    """Check quests, then write one printable quest guide (PDF) of those with no error."""
    from questc.api import check_file
    from questc.cli.output import print_report
    from questc.diagnostics.core import Severity

    options = run_options(strict, select, ignore, verbose, config_file, expansions)
    inputs = quest_files(paths, options)
    target = Path(output)
    for source in inputs:
        if target.resolve() == source.resolve():
            fail(f"refusing to overwrite the source {source} with the guide: choose another -o")
    if target.exists() and target.is_dir():
        fail(f"the output {target} is a folder: give a file name, such as {target / 'guide.pdf'}")

    results = _with_progress(inputs, "Checking quests", lambda path: check_file(path, options))
    shown = results if verbose else [
        replace(r, diagnostics=[d for d in r.diagnostics if d.severity is not Severity.INFO]) for r in results]
    print_report(shown, "text", sys.stdout, verbose=verbose)

    included = [r for r in results if r.compiled and not r.failed(options.strict)]
    left_out = [r for r in results if r not in included]
    for result in left_out:
        click.echo(f"questc: {result.path}: left out of the guide (it has "
                   f"{'errors' if result.errors else 'warnings, and --strict is on'})", err=True)
    if not included:
        click.echo("questc: no quest without errors: no guide written", err=True)
        sys.exit(1)

    from questc.emit.pdf import render_guide

    if len(included) > 1:
        with click.progressbar(length=len(included), label="Laying out the guide", file=sys.stderr) as bar:
            data = render_guide(included, progress=bar.update, title=title)
    else:
        data = render_guide(included, title=title)
    _write(target, data)
    click.echo(f"wrote {target.as_posix()} ({len(included)} quest{'s' if len(included) != 1 else ''})")
    sys.exit(1 if left_out else 0)


def _with_progress(items, label: str, work):
    """Items, a label and a function in; the function's results out, with a progress bar on
    stderr when there are many items (one quest needs no bar)."""
    items = list(items)
    if len(items) <= 1:
        return [work(item) for item in items]
    out = []
    with click.progressbar(items, label=label, file=sys.stderr) as bar:
        for item in bar:
            out.append(work(item))
    return out


def _write(target: Path, data: bytes) -> None:
    """Write the guide whole or not at all (questc.emit.atomic), creating its folder."""
    from questc.emit.atomic import write_atomic

    folder = target.parent if str(target.parent) else Path(".")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"cannot create the folder {folder}: {error.strerror or error}")
    try:
        write_atomic(target, data)
    except OSError as error:
        fail(f"cannot write {target}: {error.strerror or error}")
