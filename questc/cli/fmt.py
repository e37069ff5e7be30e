"""`questc fmt PATH... [--check] [--diff]`: rewrite quests in the canonical layout, comments kept.

`questc fmt -` formats the text on standard input and prints it (nothing when it has
syntax errors); `--stdin-filename` names it in messages.

Exit status: 0 done (or, with --check/--diff, nothing would change); 1 a file would
change (--check/--diff) or has syntax errors (it is left untouched); 2 a usage
error, or an internal error of the formatter (that file is left untouched).
"""

from __future__ import annotations

import sys

import click

from questc.cli.common import discovery_options, fail, guarded


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--check", is_flag=True, help="Write nothing; list the files that would change and exit 1 if any.")
@click.option("--diff", "show_diff", is_flag=True, help="Write nothing; print a unified diff of the changes.")
@click.option(
    "--stdin-filename", metavar="PATH", help="With `-`: the file name the text on standard input is shown as."
)
@click.option(
    "--config",
    "config_file",
    type=click.Path(dir_okay=False),
    help="Configuration file to use (for its `exclude` settings).",
)
@discovery_options
@guarded
def fmt(
    paths: tuple[str, ...], check: bool, show_diff: bool, stdin_filename: str | None, config_file: str | None
) -> None:
    """Format quests (files, or folders searched for .quest files; `-`: standard input to standard
    output) in the canonical layout."""
    import difflib

    from questc.api import MAX_QUEST_BYTES, FormatterError, format_source, load_options, plural, read_input
    from questc.cli.common import discovery_values, quest_files
    from questc.emit.atomic import rewrite_atomic
    from questc.emit.report import display_path

    if "-" in paths:
        if len(paths) > 1:
            fail("`-` (standard input) cannot be given with other paths")
        _format_stdin(stdin_filename or "<stdin>", check, show_diff)
    if stdin_filename is not None:
        fail("--stdin-filename names the text read from `-`; give `-` as the path")
    options = load_options(config_file=config_file, **discovery_values())
    dry = check or show_diff
    changed = unchanged = broken = internal = unwritten = 0
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
            sys.stdout.writelines(
                difflib.unified_diff(
                    source.splitlines(keepends=True),
                    result.output.splitlines(keepends=True),
                    fromfile=f"a/{shown}",
                    tofile=f"b/{shown}",
                )
            )
        if check and not show_diff:
            click.echo(f"would reformat {shown}")
        if not dry:
            # Written beside the file and renamed over it (an interrupted run never leaves half a
            # quest), keeping the file's permissions and any symbolic link to it.
            try:
                rewrite_atomic(path, result.output.encode("utf-8"))
            except OSError as error:  # a read-only file or mount, a full disk: the file stays as it was
                click.echo(f"questc: cannot write {shown}: {error.strerror or error}; left untouched", err=True)
                changed -= 1
                unwritten += 1
                continue
            click.echo(f"reformatted {shown}", err=True)
    verb = "would be reformatted" if dry else "reformatted"
    summary = f"{plural(changed, 'file')} {verb}, {unchanged} left unchanged"
    if broken:
        summary += f", {broken} not formatted (errors)"
    if unwritten:
        summary += f", {unwritten} could not be written"
    click.echo(summary, err=True)
    if internal:
        sys.exit(2)
    sys.exit(1 if broken or unwritten or (dry and changed) else 0)


def _format_stdin(name: str, check: bool, show_diff: bool) -> None:
    """`fmt -`: standard input formatted to standard output (a diff with --diff, nothing with --check); exits."""
    import difflib

    from questc.api import MAX_QUEST_BYTES, FormatterError, format_source

    data = sys.stdin.buffer.read(MAX_QUEST_BYTES + 1)  # never more: a stream may not end
    if len(data) > MAX_QUEST_BYTES:
        click.echo(f"questc: {name}: over {MAX_QUEST_BYTES:,} bytes, too large to be a quest; not formatted", err=True)
        sys.exit(1)
    try:
        source = data.decode("utf-8")
    except UnicodeDecodeError as error:
        click.echo(f"questc: {name}: cannot read it as UTF-8 text ({error})", err=True)
        sys.exit(1)
    try:
        result = format_source(source, name)
    except FormatterError as error:
        click.echo(f"questc: internal error: {error}", err=True)
        sys.exit(2)
    if result.output is None:
        click.echo(f"questc: {name} has syntax errors; not formatted", err=True)
        for d in result.diagnostics:
            click.echo(f"  {name}:{d.span.line}:{d.span.column}: error[{d.code}]: {d.message}", err=True)
        sys.exit(1)
    if show_diff:
        sys.stdout.writelines(
            difflib.unified_diff(
                source.splitlines(keepends=True),
                result.output.splitlines(keepends=True),
                fromfile=f"a/{name}",
                tofile=f"b/{name}",
            )
        )
    elif check:
        if result.changed:
            click.echo(f"would reformat {name}", err=True)
    else:
        sys.stdout.write(result.output)
    sys.exit(1 if (check or show_diff) and result.changed else 0)
