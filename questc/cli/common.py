"""Helpers the commands share: options, running quests, printing diagnostics."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, ParamSpec, TypeVar

import click

from questc.api import OutputRefused, QuestcError

if TYPE_CHECKING:
    from questc.api import Options

P = ParamSpec("P")
R = TypeVar("R")
F = TypeVar("F", bound=Callable[..., Any])  # a command's function, as click decorates it


def fail(message: str) -> NoReturn:
    """A usage or configuration problem: say it and exit 2."""
    click.echo(f"questc: {message}", err=True)
    sys.exit(2)


def refuse(message: str) -> NoReturn:
    """An output the user named that must not or cannot be written (it would replace an input,
    the disk refuses it): say it and exit 1, as for an input with errors (docs/choices.md)."""
    click.echo(f"questc: {message}", err=True)
    sys.exit(1)


def split_codes(values: Iterable[str] | None) -> tuple[str, ...]:
    codes = []
    for value in values or ():
        codes += [c.strip().upper() for c in value.split(",") if c.strip()]
    return tuple(codes)


def guarded(function: Callable[P, R]) -> Callable[P, R]:
    """Turn QuestcError (bad paths, bad configuration) into exit status 2, and OutputRefused (an
    output that must not or cannot be written) into exit status 1."""
    import functools

    @functools.wraps(function)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return function(*args, **kwargs)
        except OutputRefused as error:
            refuse(str(error))
        except QuestcError as error:
            fail(str(error))

    return wrapper


def _remember(ctx: click.Context, param: click.Parameter, value: object) -> object:
    """Keep an option's value in the context for run_options, out of the command's parameters:
    every checking command takes these without naming them in its signature."""
    ctx.meta[f"questc.{param.name}"] = value
    return value


def discovery_options(function: F) -> F:
    """--exclude, --extend-exclude and --force-exclude: which files a search for quests passes over."""
    options = [
        click.option(
            "--exclude",
            multiple=True,
            metavar="GLOBS",
            expose_value=False,
            callback=_remember,
            help="Files and folders to pass over, replacing the default list and the configuration's "
            "`exclude` (comma-separated globs, relative to the current folder).",
        ),
        click.option(
            "--extend-exclude",
            multiple=True,
            metavar="GLOBS",
            expose_value=False,
            callback=_remember,
            help="More files and folders to pass over (comma-separated globs).",
        ),
        click.option(
            "--force-exclude",
            is_flag=True,
            default=None,
            expose_value=False,
            callback=_remember,
            help="Pass over excluded paths even when named on the command line (for pre-commit).",
        ),
    ]
    for option in reversed(options):
        function = option(function)
    return function


def checking_options(function: F) -> F:
    """The options of every command that checks quests (lint, build, guide, ...):
    --strict/--no-strict, --select, --extend-select, --ignore, --verbose, --config, --expansions,
    and the discovery options."""
    options = [
        click.option(
            "--strict/--no-strict",
            default=None,
            help="Warnings fail too (exit 1); --no-strict overrides `strict = true` in the configuration.",
        ),
        click.option("--select", multiple=True, help="Only these codes or prefixes (Q3, Q305), comma-separated."),
        click.option(
            "--extend-select",
            multiple=True,
            metavar="CODES",
            expose_value=False,
            callback=_remember,
            help="Add these codes or prefixes to the selection in force (shown even if a shorter "
            "`ignore` prefix covers them), comma-separated.",
        ),
        click.option("--ignore", multiple=True, help="Leave out these codes or prefixes, comma-separated."),
        click.option("--verbose", "-v", is_flag=True, help="Print infos too (Q309 reveal order, Q507 conquest...)."),
        click.option("--config", "config_file", type=click.Path(dir_okay=False), help="Configuration file to use."),
        click.option("--expansions", help="Component sets you own, comma-separated (base,well_of_darkness)."),
    ]
    for option in reversed(options):
        function = option(function)
    return discovery_options(function)


def _split(values: Iterable[str] | None) -> tuple[str, ...]:
    return tuple(part.strip() for value in values or () for part in value.split(",") if part.strip())


def discovery_values() -> dict[str, Any]:  # (keyword arguments of load_options)
    """The discovery options of the running command (nothing given: an empty dict)."""
    ctx = click.get_current_context(silent=True)
    meta = ctx.meta if ctx is not None else {}
    exclude = _split(meta.get("questc.exclude"))
    return {
        "exclude": exclude or None,
        "extend_exclude": _split(meta.get("questc.extend_exclude")),
        "force_exclude": meta.get("questc.force_exclude"),
    }


def run_options(
    strict: bool | None,
    select: Iterable[str],
    ignore: Iterable[str],
    verbose: bool,
    config_file: str | None,
    expansions: str | None,
    start: Path | None = None,
    paper: str | None = None,
) -> Options:
    """The values of `checking_options` in; the run's Options (configuration file merged) out.
    `start`: the folder the configuration is looked for from (default: the current folder);
    `paper`: --paper of build and guide (None: the configuration's)."""
    from questc.api import load_options

    ctx = click.get_current_context(silent=True)
    extend = split_codes(ctx.meta.get("questc.extend_select")) if ctx is not None else ()
    return load_options(
        config_file=config_file,
        strict=strict,
        select=split_codes(select),
        ignore=split_codes(ignore),
        verbose=verbose,
        expansions=expansions,
        extend_select=extend,
        start=start,
        paper=paper,
        **discovery_values(),
    )


square_option = click.option(
    "--square-size",
    "square_size",
    type=click.FloatRange(10, 60),
    default=None,
    metavar="MM",
    help="A map square's size on a print-and-play map, in millimetres (default 25.4: an inch, as on the game's tiles).",
)
paper_option = click.option(
    "--paper",
    type=click.Choice(["a4", "letter"], case_sensitive=False),
    default=None,
    help="Paper of the printed sheets: a4 or letter (default: `paper` in the configuration, else a4).",
)


def quest_files(paths: Sequence[str | Path], options: Options) -> list[Path]:
    """The quests among `paths` (find_quests with the run's exclusions); a warning on standard
    error when there are none, since a run that checked nothing is usually a wrong path."""
    from questc.api import find_quests

    excluded: list[Path] = []
    found = find_quests(paths, options, excluded)
    if not found:
        from questc.emit.report import display_path

        named = ", ".join(str(p) for p in paths)
        message = f"questc: warning: no .quest file found in {named}"
        if excluded:
            shown = [display_path(str(p)) for p in excluded]
            more = f" and {len(shown) - 3} more" if len(shown) > 3 else ""
            message += (
                f" (passed over as excluded: {', '.join(shown[:3])}{more}; see `questc lint --show-settings PATH`)"
            )
        click.echo(message, err=True)
    return found
