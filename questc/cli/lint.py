"""`questc lint PATH...`: check quests and print their diagnostics; writes nothing."""
from __future__ import annotations

import sys

import click

from questc.cli.common import checking_options, guarded, run_options

FORMATS = ("text", "json", "github", "sarif", "junit")


@click.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text", show_default=True,
              help="How to print the diagnostics.")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even when there are errors.")
@checking_options
@guarded
def lint(paths, fmt, strict, select, ignore, exit_zero, verbose, config_file, expansions):
    """Check quests (files, or folders searched for .quest files) and print diagnostics."""
    from questc.api import check_file, find_quests
    from questc.cli.output import print_report

    options = run_options(strict, select, ignore, verbose, config_file, expansions)
    results = [check_file(path, options) for path in find_quests(paths)]
    config_problems = _config_result(options)
    if config_problems is not None:
        results.insert(0, config_problems)
    print_report(results, fmt, sys.stdout, verbose=options.verbose)
    failed = any(r.failed(options.strict) for r in results)
    sys.exit(0 if exit_zero or not failed else 1)


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
