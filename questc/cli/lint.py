"""`questc lint PATH...`: check quests and print their diagnostics; with `--fix`, apply their fixes.

Writes nothing else but the report file of --output-file. `questc lint -` checks the
text on standard input (`--stdin-filename` names it, for the configuration and the
positions). `--fix` rewrites each file with its safe fixes applied (`--unsafe-fixes`:
the unsafe ones too), atomically, and then reports what is left; a file whose text
would still have syntax errors is never written. `--diff` prints the changes `--fix`
would make and writes nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import click

from questc.cli.common import checking_options, fail, guarded, quest_files, refuse, run_options
from questc.cli.output import FORMATS

if TYPE_CHECKING:
    from questc.api import Options, QuestResult

STDIN = "-"
STDIN_NAME = "<stdin>"


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option(
    "--format",
    "fmt",
    type=click.Choice(FORMATS),
    default="text",
    show_default=True,
    help="How to print the diagnostics (gitlab: GitLab Code Quality JSON).",
)
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are errors.")
@click.option(
    "--quiet",
    "-q",
    is_flag=True,
    help="Print only the summary line, and nothing when there is no diagnostic (text format).",
)
@click.option(
    "--statistics",
    is_flag=True,
    help="Print how many diagnostics of each code, not the diagnostics (text or json format).",
)
@click.option(
    "--output-file",
    "-o",
    type=click.Path(),
    help="Write the report to this file (whole or not at all) instead of standard output.",
)
@click.option(
    "--color",
    "colour",
    type=click.Choice(("auto", "always", "never")),
    default="auto",
    show_default=True,
    help="Colour the text report; auto: on a terminal, honouring NO_COLOR and FORCE_COLOR.",
)
@click.option(
    "--show-settings",
    is_flag=True,
    help="Print the settings in force and where each comes from (and the quests PATHS hold); check nothing.",
)
@click.option(
    "--fix",
    is_flag=True,
    help="Apply the safe fixes, rewriting the files (never one left with syntax errors); "
    "then report what is left. With `-`, print the fixed text.",
)
@click.option(
    "--unsafe-fixes",
    is_flag=True,
    help="With --fix or --diff: apply the unsafe fixes too (guesses, such as a did-you-mean).",
)
@click.option(
    "--diff",
    "show_diff",
    is_flag=True,
    help="Write nothing; print a unified diff of what --fix would change (exit 1 if anything).",
)
@click.option(
    "--stdin-filename",
    metavar="PATH",
    help="With `-`: the file the text on standard input is checked as (configuration, positions).",
)
@checking_options
@guarded
def lint(
    paths: tuple[str, ...],
    fmt: str,
    strict: bool | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    exit_zero: bool,
    fix: bool,
    unsafe_fixes: bool,
    show_diff: bool,
    stdin_filename: str | None,
    verbose: bool,
    config_file: str | None,
    expansions: str | None,
    quiet: bool,
    statistics: bool,
    output_file: str | None,
    colour: str,
    show_settings: bool,
) -> None:
    """Check quests (files, or folders searched for .quest files; `-` for standard input) and print
    diagnostics; --fix applies their fixes."""
    import io

    from questc.api import check_file

    stdin = STDIN in paths
    if stdin and len(paths) > 1:
        fail("`-` (standard input) cannot be given with other paths")
    if stdin_filename is not None and not stdin:
        fail("--stdin-filename names the text read from `-`; give `-` as the path")
    start = Path(stdin_filename).absolute().parent if stdin_filename else None
    options = run_options(strict, select, ignore, verbose, config_file, expansions, start=start)
    if show_settings:
        _show_settings(options, paths, output_file)
        return
    if not paths:
        ctx = click.get_current_context()
        param = next(p for p in ctx.command.params if p.name == "paths")
        raise click.MissingParameter(ctx=ctx, param=param)  # required unless --show-settings
    if statistics and fmt not in ("text", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {fmt}")
    if stdin:
        results = [_check_stdin(stdin_filename or STDIN_NAME, options)]
    else:
        results = [_timed(check_file, path, options) for path in quest_files(paths, options)]
    unwritten = False  # a fixed file the system would not let us write
    if fix or show_diff:
        results, unwritten = _fix(results, options, unsafe_fixes, show_diff, stdin)
        if show_diff:
            return  # _fix exited
    if not stdin:  # the encounters of each quest together; a folder given holds all of them
        from questc.api import check_sets

        results = check_sets(results, options, [Path(p) for p in paths if Path(p).is_dir()])
    config_problems = _config_result(options)
    if config_problems is not None:
        results.insert(0, config_problems)
    how = dict(quiet=quiet, statistics=statistics, fixing=fix, unsafe=unsafe_fixes)
    if output_file is None:
        # With `lint - --fix` the fixed text is on standard output: the report goes to standard error.
        stream = sys.stderr if stdin and fix else sys.stdout
        print_report(results, fmt, stream, options, colour=colour, **how)
    else:
        # FORCE_COLOR is for logs: a file gets colour only when --color always asks for it
        from questc.api import refuse_inputs

        refuse_inputs(output_file, results, options)  # a report never replaces a quest, pack or configuration
        buffer = io.StringIO()
        print_report(results, fmt, buffer, options, colour="always" if colour == "always" else "never", **how)
        _write(output_file, buffer.getvalue())
    failed = any(r.failed(options.strict) for r in results)
    sys.exit(1 if unwritten or (failed and not exit_zero) else 0)


def print_report(results: Sequence[QuestResult], fmt: str, stream: IO[str], options: Options, **how: Any) -> None:
    from questc.cli.output import print_report as report

    report(results, fmt, stream, verbose=options.verbose, strict=options.strict, **how)


def _timed(check: Callable[[Path, Options], QuestResult], path: Path, options: Options) -> QuestResult:
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
    except OSError as error:  # a read-only folder, a full disk: the file named, not the call, is at fault
        refuse(f"cannot write {output_file}: {error.strerror or error}")


def _show_settings(options: Options, paths: Sequence[str], output_file: str | None) -> None:
    from questc.api import find_quests, plural, show_settings
    from questc.emit.report import display_path

    text = show_settings(options)
    if paths:
        excluded: list[Path] = []
        found = find_quests(paths, options, excluded)
        text += f"# {plural(len(found), 'quest file')} to check in {', '.join(paths)}"
        text += ":\n" + "".join(f"#   {display_path(str(p))}\n" for p in found) if found else "\n"
        if excluded:
            text += "# passed over as excluded:\n" + "".join(f"#   {display_path(str(p))}\n" for p in excluded)
    if output_file is None:
        click.echo(text, nl=False)
    else:
        from questc.api import check_file, refuse_inputs

        quests = find_quests(paths, options) if paths else []
        refuse_inputs(output_file, [check_file(q, options) for q in quests], options)
        _write(output_file, text)


def _check_stdin(name: str, options: Options) -> QuestResult:
    """The text on standard input, checked as the file `name`."""
    from questc.api import MAX_QUEST_BYTES, check_bytes

    data = sys.stdin.buffer.read(MAX_QUEST_BYTES + 1)  # never more: a stream may not end
    return check_bytes(data, name, options, limit=MAX_QUEST_BYTES)


def _fix(
    results: list[QuestResult], options: Options, unsafe: bool, show_diff: bool, stdin: bool
) -> tuple[list[QuestResult], bool]:
    """Fix each checked quest. With `show_diff`: print the diffs and exit (1 if any). Otherwise write
    the fixed files (or, for `-`, print the text) and return the results of the texts now in place,
    and whether some fixed file could not be written (left as it was, said on standard error)."""
    import difflib

    from questc.api import fix_source, plural
    from questc.emit.atomic import rewrite_atomic
    from questc.emit.report import display_path

    out = []
    unwritten: list = []  # fixed but not written: the run fails (exit 1) whatever the report says
    fixed = files = hidden = 0
    for result in results:
        if result.tree is None and "\ufffd" in result.source:
            out.append(result)  # not UTF-8: the text shown is not the file's; never rewrite it
            continue
        run = fix_source(result.source, result.path, options, unsafe=unsafe, result=result)
        shown = display_path(result.path)
        if run.broke:
            click.echo(
                f"questc: {shown}: a fix would have broken the quest's syntax; that pass was undone (please report it)",
                err=True,
            )
        if run.changed and not run.writable:
            click.echo(f"questc: {shown} has syntax errors the fixes do not cure; left untouched", err=True)
        writable = run.writable
        if writable:
            fixed += len(run.applied)
            files += 1
        hidden += run.remaining(unsafe) if writable else _remaining(result, unsafe)
        if show_diff:
            if writable:
                sys.stdout.writelines(
                    difflib.unified_diff(
                        _lines(run.original), _lines(run.source), fromfile=f"a/{shown}", tofile=f"b/{shown}"
                    )
                )
            continue
        if stdin:
            sys.stdout.write(run.source if writable else run.original)
        elif writable:
            try:
                rewrite_atomic(result.path, run.source.encode("utf-8"))
            except OSError as error:  # a read-only file, a full disk: it stays as it was, and is reported so
                click.echo(f"questc: cannot write {shown}: {error.strerror or error}; left untouched", err=True)
                fixed -= len(run.applied)
                files -= 1
                unwritten.append(result)
                writable = False
        out.append(run.result if writable else result)
    verb = "would fix" if show_diff else "fixed"
    summary = f"{verb} {plural(fixed, 'problem')} in {plural(files, 'file')}" if files else "no fixes to apply"
    if hidden:
        summary += f" ({plural(hidden, 'more fix')} with --unsafe-fixes)"
    click.echo(summary, err=True)
    if show_diff:
        sys.exit(1 if files else 0)
    return out, bool(unwritten)


def _remaining(result: QuestResult, unsafe: bool) -> int:
    from questc.api import allowed

    return sum(1 for d in result.diagnostics if d.fixes and not any(allowed(f, unsafe) for f in d.fixes))


def _lines(text: str) -> list[str]:
    lines = text.splitlines(keepends=True)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += "\n\\ No newline at end of file\n"
    return lines


def _config_result(options: Options) -> QuestResult | None:
    """The configuration file's own warnings (unknown codes), as one more checked file; None if it has none."""
    from questc.api import QuestResult, apply_policy

    if options.config_file is None or not options.config_diagnostics:
        return None
    shown = apply_policy(list(options.config_diagnostics), options)
    if not shown:
        return None
    try:
        text = options.config_file.read_text(encoding="utf-8")
    except OSError:
        text = ""
    return QuestResult(str(options.config_file), text, diagnostics=shown, all_diagnostics=shown)
