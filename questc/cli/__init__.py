"""The `questc` command line: a thin click layer over questc.api.

Subcommands are imported only when run, so `questc lint` never pays for the
rendering libraries. Exit status: 0 done, 1 the input has errors or an output named
cannot or must not be written (questc.errors.OutputRefused), 2 a usage, configuration or
internal error (docs/choices.md, "Exit status").
"""

from __future__ import annotations

import sys
from importlib import import_module

import click

from questc import __version__

# name -> "module:function"; each module holds one command.
COMMANDS = {
    "lint": "questc.cli.lint:lint",
    "explain": "questc.cli.explain:explain",
    "catalog": "questc.cli.catalog:catalog",
    "fmt": "questc.cli.fmt:fmt",
    "new": "questc.cli.new:new",
    "los": "questc.cli.los:los",
    "reveal": "questc.cli.reveal:reveal",
    "build": "questc.cli.build:build",
    "schema": "questc.cli.schema:schema",
    "deck": "questc.cli.deck:deck",
    "guide": "questc.cli.guide:guide",
    "server": "questc.cli.server:server",
    "preview": "questc.cli.preview:preview",
    "import": "questc.cli.import_:import_",
}


class LazyGroup(click.Group):
    """questc's commands, each imported when it runs: a lint imports nothing of the build."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = COMMANDS.get(name)
        if target is None:
            return None
        module_name, _, attr = target.partition(":")
        command: click.Command = getattr(import_module(module_name), attr)
        return command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(version=__version__, prog_name="questc")
def cli() -> None:
    """questc: check, compile and print quests for Descent: Journeys in the Dark."""


def main(argv: list[str] | None = None) -> None:
    """Run the command line; an unexpected failure exits 2 with a short message, not a traceback."""
    _escape_what_cannot_be_encoded()
    try:
        cli.main(args=argv, prog_name="questc", standalone_mode=True)
    except SystemExit:
        raise
    except KeyboardInterrupt:
        click.echo("questc: interrupted", err=True)
        sys.exit(2)
    except Exception as error:  # the last line of defence: never a traceback for users
        import os

        if os.environ.get("QUESTC_DEBUG"):
            raise
        click.echo(
            f"questc: internal error: {type(error).__name__}: {error} (set QUESTC_DEBUG=1 for the traceback)", err=True
        )
        sys.exit(2)


def _escape_what_cannot_be_encoded() -> None:
    """A character the output's encoding lacks (an `é` on PYTHONIOENCODING=ascii, a
    C locale) is printed as a backslash escape instead of failing the run."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None and getattr(stream, "errors", None) == "strict":
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):  # a stream that cannot change now: leave it
                pass


def run(argv: list[str] | None = None) -> None:
    """The `questc` console script and `python -m questc`: main(), then a quick exit.

    A run makes tens of thousands of objects that live until it ends (modules, classes, the
    parser, the catalog, the board) and next to no reference cycles, so the collector's
    passes, one per 700 new objects by default, find nothing to free: a pass once 100,000
    new objects have gathered means none at all in a small quest's lint (4 % of its
    instructions) and 3 % fewer in a 2,000-cell map's, with the same peak memory (the
    16,000-cell map's lint: 112 MB either way). At exit the interpreter would collect over
    every object the run made, on memory the process gives back anyway: freezing the
    collector first skips that pass; objects are still freed one by one, files flushed and
    closed, atexit handlers run. Only here, not in main(), which tests and other programs
    call in a process that goes on.
    """
    import gc

    gc.set_threshold(100_000, *gc.get_threshold()[1:])
    try:
        main(argv)
    finally:
        gc.freeze()
