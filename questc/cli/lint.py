"""`questc lint PATH...`: check quests and print their diagnostics; writes nothing but --output-file."""
from __future__ import annotations

import sys

import click

from questc.cli.common import checking_options, fail, guarded, quest_files, run_options
from questc.cli.output import FORMATS


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="How to print the diagnostics (gitlab: GitLab Code Quality JSON).")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are errors.")
@click.option("--quiet", "-q", is_flag=True,
              help="Print only the summary line, and nothing when there is no diagnostic (text format).")
@click.option("--statistics", is_flag=True, help="Print how many diagnostics of each code, not the diagnostics "
                                                 "(text or json format).")
@click.option("--output-file", "-o", type=click.Path(dir_okay=False),
              help="Write the report to this file (whole or not at all) instead of standard output.")
@click.option("--color", "colour", type=click.Choice(("auto", "always", "never")), default="auto",
              show_default=True, help="Colour the text report; auto: on a terminal, honouring NO_COLOR and "
                                      "FORCE_COLOR.")
@click.option("--show-settings", is_flag=True,
              help="Print the settings in force and where each comes from (and the quests PATHS hold); check nothing.")
@checking_options
@guarded
def lint(paths, fmt, strict, select, ignore, exit_zero, verbose, config_file, expansions, quiet, statistics,
         output_file, colour, show_settings):
    """Check quests (files, or folders searched for .quest files) and print diagnostics."""
    import io

    from questc.api import check_file

    options = run_options(strict, select, ignore, verbose, config_file, expansions)
    if show_settings:
        _show_settings(options, paths, output_file)
        return
    if not paths:
        ctx = click.get_current_context()
        param = next(p for p in ctx.command.params if p.name == "paths")
        raise click.MissingParameter(ctx=ctx, param=param)   # required unless --show-settings
    if statistics and fmt not in ("text", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {fmt}")
    results = []
    for path in quest_files(paths, options):
        results.append(_timed(check_file, path, options))
    config_problems = _config_result(options)
    if config_problems is not None:
        results.insert(0, config_problems)
    if output_file is None:
        print_report(results, fmt, sys.stdout, options, quiet=quiet, statistics=statistics, colour=colour)
    else:
        # FORCE_COLOR is for logs: a file gets colour only when --color always asks for it
        buffer = io.StringIO()
        print_report(results, fmt, buffer, options, quiet=quiet, statistics=statistics,
                     colour="always" if colour == "always" else "never")
        _write(output_file, buffer.getvalue())
    failed = any(r.failed(options.strict) for r in results)
    sys.exit(0 if exit_zero or not failed else 1)


def print_report(results, fmt, stream, options, **how):
    from questc.cli.output import print_report as report
    report(results, fmt, stream, verbose=options.verbose, strict=options.strict, **how)


def _timed(check, path, options):
    """check(path, options), with the seconds it took kept on the result (for JUnit's `time`)."""
    import time
    started = time.perf_counter()
    result = check(path, options)
    result.seconds = time.perf_counter() - started
    return result


def _write(output_file: str, text: str) -> None:
    """The report into a file, atomically (a reader never sees half of it); its folder is made if missing."""
    from pathlib import Path

    from questc.emit.atomic import write_atomic

    target = Path(output_file)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, text.encode("utf-8"))
    except OSError as error:
        fail(f"cannot write {output_file}: {error.strerror or error}")


def _show_settings(options, paths, output_file) -> None:
    from questc.api import find_quests
    from questc.config import show_settings
    from questc.emit.report import display_path
    from questc.words import plural

    text = show_settings(options)
    if paths:
        excluded: list = []
        found = find_quests(paths, options, excluded)
        text += f"# {plural(len(found), 'quest file')} to check in {', '.join(paths)}"
        text += ":\n" + "".join(f"#   {display_path(str(p))}\n" for p in found) if found else "\n"
        if excluded:
            text += "# passed over as excluded:\n" + "".join(f"#   {display_path(str(p))}\n" for p in excluded)
    if output_file is None:
        click.echo(text, nl=False)
    else:
        _write(output_file, text)


def _config_result(options):
    """The configuration file's own warnings (unknown codes), as one more checked file; None if it has none."""
    from questc.api import QuestResult
    from questc.options import apply_policy

    if options.config_file is None or not options.config_diagnostics:
        return None
    shown = apply_policy(list(options.config_diagnostics), options)
    if not shown:
        return None
    try:
        text = options.config_file.read_text(encoding="utf-8")
    except OSError:
        text = ""
    result = QuestResult(str(options.config_file), text)
    result.diagnostics = result.all_diagnostics = shown
    return result
