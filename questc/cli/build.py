"""`questc build PATH... [-o DIR] [--only json,png,pdf,valkyrie] [-j N]`: check, then write each clean quest's outputs.

The work is questc.build.build (questc.api.build); this command prints its diagnostics and
what it wrote. `--format` is another name for `--only` (`questc build --format valkyrie`).
Exit status: 0 all built, 1 some quest had errors, or could not be made into a Valkyrie
quest (the others are still built), or an output must not or cannot be written (two
quests with one id, an output that would overwrite an input, a folder in the way or
that the system refuses), 2 a usage problem (an unknown output kind, a renderer that is
not installed) or a renderer that failed.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TYPE_CHECKING

import click

from questc.cli.common import checking_options, guarded, paper_option, quest_files, run_options, square_option

if TYPE_CHECKING:
    from questc.api import QuestResult


def parse_only(values: tuple[str, ...]) -> tuple[str, ...] | None:
    """`--only` values (comma-separated, repeatable) in; the kinds asked for, or None when none
    were given. Raises click.UsageError for an unknown kind."""
    from questc.api import KINDS

    if not values:
        return None
    asked = [v.strip().lower() for value in values for v in value.split(",") if v.strip()]
    unknown = sorted(set(asked) - set(KINDS))
    if unknown or not asked:
        raise click.UsageError(
            f"--only (or --format) takes {', '.join(KINDS)} (comma-separated), not {', '.join(unknown) or 'nothing'}"
        )
    return tuple(k for k in KINDS if k in asked)


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option(
    "-o",
    "--output",
    "out_dir",
    default="build",
    show_default=True,
    type=click.Path(),
    help="Folder to write <id>.json, <id>.png, <id>.pdf (and the Valkyrie quest folders) into (created if missing).",
)
@click.option(
    "--only",
    "--format",
    "only",
    multiple=True,
    metavar="KINDS",
    help="Only these outputs: json, png, pdf, play, valkyrie (comma-separated). Default: json, png and "
    "pdf. play is the print-and-play map (--print-and-play); valkyrie writes a Valkyrie quest "
    "folder per second edition quest (docs/valkyrie.md).",
)
@click.option(
    "-j",
    "--jobs",
    default=1,
    show_default=True,
    type=click.IntRange(min=0),
    help="Check and render this many quests at once (0: one per CPU); the output is the same.",
)
@click.option(
    "--print-and-play",
    "print_and_play",
    is_flag=True,
    help="Also write <id>-print-and-play.pdf: the map at game size over as many pages as it needs, "
    "to cut and tape together, and the quest's tokens and markers to cut out (kind `play`).",
)
@square_option
@paper_option
@checking_options
@guarded
def build(
    paths: tuple[str, ...],
    out_dir: str,
    only: tuple[str, ...],
    jobs: int,
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
    """Check quests, then write DIR/<id>.json (and .png, .pdf, or a Valkyrie quest) for each quest with no error."""
    import os

    from questc.api import Severity
    from questc.api import build as build_quests
    from questc.cli.output import print_report

    def show(results: list[QuestResult]) -> None:
        shown = (
            results
            if verbose
            else [
                replace(r, diagnostics=[d for d in r.diagnostics if d.severity is not Severity.INFO]) for r in results
            ]
        )
        print_report(shown, "text", sys.stdout, verbose=verbose)

    # Infos are always collected: the JSON records every warning and info the quest
    # compiled with; only the printing honours --verbose.
    options = run_options(strict, select, ignore, True, config_file, expansions, paper=paper)
    if square_size is not None:
        options = replace(options, square_mm=square_size)
    kinds = parse_only(only)
    if print_and_play:
        from questc.api import DEFAULT_KINDS

        kinds = tuple(dict.fromkeys((*(kinds or DEFAULT_KINDS), "play")))
    report = build_quests(
        quest_files(paths, options),
        out_dir,
        kinds=kinds,
        options=options,
        jobs=jobs or os.cpu_count() or 1,
        on_checked=show,
    )
    for result in report.results:
        if not result.failed(options.strict) and not result.complete:
            click.echo(f"questc: {result.path} did not compile completely; not built", err=True)
    for path in report.written:
        click.echo(f"wrote {path.as_posix()}{'/' if path.is_dir() else ''}")
    for message in report.not_exported:
        click.echo(f"questc: {message}", err=True)
    for problem in report.problems + report.unwritten:
        click.echo(f"questc: {problem}", err=True)
    for note in report.notes:
        click.echo(f"questc: note: {note}", err=True)
    sys.exit(2 if report.problems else 1 if report.failed or report.unwritten else 0)
