"""`questc import valkyrie QUEST -o FILE.quest`: a quest made with another tool, in questc's language.

The work is questc.api.import_quest; this command writes the text (atomically, never over one
of the files it read) and prints, on standard error, what was not carried over: it stays in
the file as comments. Check the result with `questc lint FILE.quest`.

Exit status: 0 imported (whatever could not be carried is listed); 1 the input is not a quest
of that kind, or one its own app could not load (the message says where), or an output
that must not or cannot be written (one of the files it read, a folder that does not
exist or that the system refuses); 2 a usage problem.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from questc.cli.common import guarded, refuse


@click.group(name="import")
def import_() -> None:
    """Import a quest made with another tool into questc's language."""


@import_.command()
@click.argument("source", type=click.Path())
@click.option(
    "-o",
    "--output",
    type=click.Path(),
    help="The .quest file to write (created or replaced). Default: standard output.",
)
@guarded
def valkyrie(source: str, output: str | None) -> None:
    """Import a Valkyrie second edition quest: its folder, its quest.ini or a .valkyrie package."""
    from questc.api import ImportFailed, import_quest, plural

    try:
        imported = import_quest("valkyrie", source)
    except ImportFailed as error:
        click.echo(f"questc: error: {error}", err=True)
        sys.exit(1)
    if output is None or output == "-":
        sys.stdout.write(imported.text)
        shown = "standard output"
    else:
        from questc.api import Options, refuse_inputs
        from questc.emit.atomic import write_atomic

        target = Path(output)
        # Never over a file the import read (OutputRefused: exit 1, as for any output that is an input).
        refuse_inputs(target, [], Options(), more=[(path, "file of the Valkyrie quest") for path in imported.sources])
        if target.parent != Path("") and not target.parent.is_dir():
            refuse(f"cannot write {target}: the folder {target.parent} does not exist")
        try:
            write_atomic(target, imported.text.encode("utf-8"))
        except OSError as error:
            refuse(f"cannot write {target}: {error.strerror or error}")
        shown = target.as_posix()
        click.echo(f"wrote {shown}", err=True)
    for warning in imported.warnings:
        click.echo(f"questc: note: Valkyrie would ignore: {warning}", err=True)
    if imported.summary:
        where = "at the end of the file" if output not in (None, "-") else "at the end of the text"
        click.echo(
            f"questc: {plural(len(imported.summary), 'part')} of the quest not carried into questc's "
            f"language (kept as comments {where}):",
            err=True,
        )
        for line in imported.summary:
            click.echo(f"  - {line}", err=True)
    if output not in (None, "-"):
        click.echo(f"questc: check it with `questc lint {shown}`", err=True)
