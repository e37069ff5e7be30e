"""`questc fmt PATH... [--check] [--diff]`: rewrite quests in the canonical layout, comments kept.

Exit status: 0 done (or, with --check/--diff, nothing would change); 1 a file would
change (--check/--diff) or has syntax errors (it is left untouched); 2 a usage
error, or an internal error of the formatter (that file is left untouched).
"""
from __future__ import annotations

import sys

import click

from questc.cli.common import discovery_options, guarded


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--check", is_flag=True, help="Write nothing; list the files that would change and exit 1 if any.")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print a unified diff of the changes.")
@click.option("--config", "config_file", type=click.Path(dir_okay=False),
              help="Configuration file to use (for its `exclude` settings).")
@discovery_options
@guarded
def fmt(paths, check, show_diff, config_file):
    """Format quests (files, or folders searched for .quest files) in the canonical layout."""
    import difflib
    import os
    import stat
    import tempfile
    from pathlib import Path

    from questc.cli.common import discovery_values, quest_files
    from questc.config import load_options
    from questc.emit.report import display_path
    from questc.files import read_input
    from questc.fmt import FormatterError, format_source
    from questc.limits import MAX_QUEST_BYTES
    from questc.words import plural

    options = load_options(config_file=config_file, **discovery_values())
    dry = check or show_diff
    changed = unchanged = broken = internal = 0
    for path in quest_files(paths, options):
        shown = display_path(str(path))
        try:
            source = read_input(path, MAX_QUEST_BYTES).decode("utf-8")
        except (OSError, UnicodeDecodeError) as error:
            click.echo(f"questc: {shown}: cannot read it as UTF-8 text ({error}); left untouched", err=True)
            broken += 1
            continue
        try:
            result = format_source(source, str(path))
        except FormatterError as error:
            click.echo(f"questc: internal error: {error}; {shown} left untouched", err=True)
            internal += 1
            continue
        if result.output is None:
            broken += 1
            click.echo(f"questc: {shown} has syntax errors; left untouched", err=True)
            for d in result.diagnostics:
                click.echo(f"  {shown}:{d.span.line}:{d.span.column}: error[{d.code}]: {d.message}", err=True)
            continue
        if not result.changed:
            unchanged += 1
            continue
        changed += 1
        if show_diff:
            sys.stdout.writelines(difflib.unified_diff(
                source.splitlines(keepends=True), result.output.splitlines(keepends=True),
                fromfile=f"a/{shown}", tofile=f"b/{shown}"))
        if check and not show_diff:
            click.echo(f"would reformat {shown}")
        if not dry:
            # Write beside the file and rename over it, so an interrupted run never leaves half a quest.
            # A symlinked quest is written through its link (the link stays a link), and the
            # file keeps its permissions (a temporary file is made 0600).
            real = Path(os.path.realpath(path))
            handle, temporary = tempfile.mkstemp(dir=real.parent, prefix=f".{real.name}.", suffix=".tmp")
            try:
                with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
                    out.write(result.output)
                os.chmod(temporary, stat.S_IMODE(os.stat(real).st_mode))
                os.replace(temporary, real)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
            click.echo(f"reformatted {shown}", err=True)
    verb = "would be reformatted" if dry else "reformatted"
    summary = f"{plural(changed, 'file')} {verb}, {unchanged} left unchanged"
    if broken:
        summary += f", {broken} not formatted (errors)"
    click.echo(summary, err=True)
    if internal:
        sys.exit(2)
    sys.exit(1 if broken or (dry and changed) else 0)
