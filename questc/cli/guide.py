"""`questc guide PATH... -o FILE.pdf`: check quests, then write one printable guide of every quest with no error.

The work is questc.build.guide (questc.api.guide); this command prints the diagnostics
and progress. Exit status: 0 every quest is in the guide, 1 some quest had errors (the
others are still in it; with none left, nothing is written), 2 a usage problem. The file
is written atomically: a failed run leaves an older guide as it was.
"""
from __future__ import annotations

import sys
from dataclasses import replace

import click

from questc.cli.common import checking_options, guarded, paper_option, quest_files, run_options
from questc.words import plural


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("-o", "--output", "output", required=True, type=click.Path(),
              help="The PDF file to write (its folder is created if missing).")
@click.option("--title", help="The guide's title, on its first page (default: `guide.title` in the "
                                "configuration, else the template's).")
@click.option("--author", help="The guide's author, on its first page and in its metadata.")
@paper_option
@checking_options
@guarded
def guide(paths, output, title, author, paper, strict, select, ignore, verbose, config_file, expansions):
    """Check quests, then write one printable quest guide (PDF) of those with no error, in the order
    given (or the configuration's `guide.order`)."""
    from questc.api import check_file
    from questc.api import guide as make_guide
    from questc.cli.output import print_report
    from questc.diagnostics.core import Severity

    options = run_options(strict, select, ignore, verbose, config_file, expansions, paper=paper)
    results = _with_progress(quest_files(paths, options), "Checking quests", lambda path: check_file(path, options))
    shown = results if verbose else [
        replace(r, diagnostics=[d for d in r.diagnostics if d.severity is not Severity.INFO]) for r in results]
    print_report(shown, "text", sys.stdout, verbose=verbose)

    ready = sum(1 for r in results if r.compiled and not r.failed(options.strict))
    if ready > 1:
        with click.progressbar(length=ready, label="Laying out the guide", file=sys.stderr) as bar:
            report = make_guide(results, output, title=title, author=author, options=options,
                                progress=bar.update)
    else:
        report = make_guide(results, output, title=title, author=author, options=options)
    for result in report.left_out:
        click.echo(f"questc: {result.path}: left out of the guide (it has "
                   f"{'errors' if result.errors else 'warnings, and --strict is on'})", err=True)
    if report.written is None:
        click.echo("questc: no quest without errors: no guide written", err=True)
        sys.exit(1)
    count = len(report.included)
    click.echo(f"wrote {report.written.as_posix()} ({plural(count, 'quest')})")
    sys.exit(1 if report.left_out else 0)


def _with_progress(items, label: str, work):
    """Items, a label and a function in; the function's results out, with a progress bar on
    stderr when there are many items (one quest needs no bar)."""
    items = list(items)
    if len(items) <= 1:
        return [work(item) for item in items]
    with click.progressbar(items, label=label, file=sys.stderr) as bar:
        return [work(item) for item in bar]
