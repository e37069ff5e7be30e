"""Helpers the commands share: options, running quests, printing diagnostics."""
from __future__ import annotations

import sys
from typing import NoReturn

import click

from questc.errors import QuestcError


def fail(message: str) -> NoReturn:
    """A usage or configuration problem: say it and exit 2."""
    click.echo(f"questc: {message}", err=True)
    sys.exit(2)


def split_codes(values) -> tuple[str, ...]:
    codes = []
    for value in values or ():
        codes += [c.strip().upper() for c in value.split(",") if c.strip()]
    return tuple(codes)


def guarded(function):
    """Turn QuestcError (bad paths, bad configuration) into exit status 2."""
    import functools

    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        try:
            return function(*args, **kwargs)
        except QuestcError as error:
            fail(str(error))
    return wrapper


def checking_options(function):
    """The options of every command that checks quests (lint, build, guide, ...):
    --strict/--no-strict, --select, --ignore, --verbose, --config, --expansions."""
    options = [
        click.option("--strict/--no-strict", default=None,
                     help="Warnings fail too (exit 1); --no-strict overrides `strict = true` in the configuration."),
        click.option("--select", multiple=True, help="Only these codes or prefixes (Q3, Q305), comma-separated."),
        click.option("--ignore", multiple=True, help="Leave out these codes or prefixes, comma-separated."),
        click.option("--verbose", "-v", is_flag=True, help="Print infos too (Q309 reveal order, Q507 conquest...)."),
        click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Configuration file to use."),
        click.option("--expansions", help="Component sets you own, comma-separated (base,well_of_darkness)."),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def run_options(strict, select, ignore, verbose, config_file, expansions):
    """The values of `checking_options` in; the run's Options (configuration file merged) out."""
    from questc.config import load_options
    return load_options(config_file=config_file, strict=strict, select=split_codes(select),
                        ignore=split_codes(ignore), verbose=verbose, expansions=expansions)
