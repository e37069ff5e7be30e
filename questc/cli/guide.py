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

from questc.api import plural
from questc.cli.common import checking_options, guarded, paper_option, quest_files, run_options, square_option


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    type=click.Path(),
    help="The PDF file to write (its folder is created if missing).",
)
@click.option(
    "--title",
    help="The guide's title, on its first page (default: `guide.title` in the configuration, else the template's).",
)
@click.option("--author", help="The guide's author, on its first page and in its metadata.")
@click.option(
    "--date",
    help="The date on the guide's title page (default: `guide.date` in the configuration, "
    "else SOURCE_DATE_EPOCH's day, else none).",
)
@click.option(
    "--two-sided/--one-sided",
    "two_sided",
    default=None,
    help="Printed on both sides: each quest starts on a right-hand page, a blank page before it when "
    "needed, the inner margin wider (default: `guide.two_sided` in the configuration, else one-sided).",
)
@click.option(
    "--print-and-play",
    "print_and_play",
    is_flag=True,
    help="After each quest, its map at game size over as many pages as it needs and its tokens to cut "
    "out (as `questc build --print-and-play` writes them).",
)
@square_option
@paper_option
@checking_options
@guarded
def guide(
    paths: tuple[str, ...],
    output: str,
    title: str | None,
    author: str | None,
    date: str | None,
    two_sided: bool | None,
    print_and_play: bool,
    square_size: float | None,
    paper: str | None,
    strict: bool | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    verbose: bool,
    config_file: str | None,
    expansions: str | None,
) -> None:
    """Check quests, then write one printable quest guide (PDF) of those with no error, in the order
    given (or the configuration's `guide.order`)."""
    from questc.api import Severity
    from questc.api import guide as make_guide
    from questc.cli.output import print_report

    options = run_options(strict, select, ignore, verbose, config_file, expansions, paper=paper)
    if square_size is not None:
        options = replace(options, square_mm=square_size)
    quests = quest_files(paths, options)
    # The library checks and lays out one quest at a time (memory flat in their number);
    # the diagnostics are printed once it is done.
    if len(quests) > 1:
        with click.progressbar(length=len(quests), label="Checking and laying out quests", file=sys.stderr) as bar:
            report = make_guide(
                quests,
                output,
                title=title,
                author=author,
                options=options,
                progress=bar.update,
                two_sided=two_sided,
                date=date,
                print_and_play=print_and_play,
            )
    else:
        report = make_guide(
            quests,
            output,
            title=title,
            author=author,
            options=options,
            two_sided=two_sided,
            date=date,
            print_and_play=print_and_play,
        )
    order = {str(path): k for k, path in enumerate(quests)}  # the diagnostics in the order the files came
    results = sorted(report.results, key=lambda r: order.get(r.path, len(order)))
    shown = (
        results
        if verbose
        else [replace(r, diagnostics=[d for d in r.diagnostics if d.severity is not Severity.INFO]) for r in results]
    )
    print_report(shown, "text", sys.stdout, verbose=verbose)
    for result in report.left_out:
        click.echo(
            f"questc: {result.path}: left out of the guide (it has "
            f"{'errors' if result.errors else 'warnings, and --strict is on'})",
            err=True,
        )
    if report.written is None:
        click.echo("questc: no quest without errors: no guide written", err=True)
        sys.exit(1)
    # The encounters of one quest (`part_of`, one after the other) are one quest, as on the title page.
    parts = [r.summary.part_of if r.summary is not None else None for r in report.included]
    count = sum(1 for i, part in enumerate(parts) if part is None or i == 0 or parts[i - 1] != part)
    encounters = f", {plural(len(parts), 'encounter')}" if count != len(parts) else ""
    click.echo(f"wrote {report.written.as_posix()} ({plural(count, 'quest')}{encounters})")
    sys.exit(1 if report.left_out else 0)
