"""Helpers the commands share: options, running quests, printing diagnostics."""
from __future__ import annotations

import sys

import click

from questc.api import QuestcError


def fail(message: str) -> None:
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
