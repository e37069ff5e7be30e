"""`questc los FILE X,Y X,Y [--open DOOR]...`: does one cell see another on the quest's map?

The quest is checked first (a map with errors has no reliable geometry); then the
answer: a first line `visible` or `blocked`, and what blocks, if anything
(Board.why_blocked). Doors are closed unless named with `--open`.
Exit status: 0 an answer, 1 the quest has errors, 2 a bad question (unknown door,
malformed or off-floor cell, unreadable file).
"""

from __future__ import annotations

import json
import re
import sys
from typing import TYPE_CHECKING

import click

from questc.cli.common import fail, guarded

if TYPE_CHECKING:
    from questc.api import CompiledQuest

_POINT = re.compile(r"^(-?\d+),(-?\d+)$")


def parse_point(text: str) -> tuple[int, int]:
    """`x,y` in; the cell (x, y) out; a usage error (exit 2) for anything else."""
    match = _POINT.match(text.strip())
    if not match:
        fail(f"`{text}` is not a cell: write it as X,Y (for example 4,2)")
    return int(match.group(1)), int(match.group(2))


def checked_quest(file: str) -> CompiledQuest:
    """Check the quest like `lint`; on errors print them (text) and exit 1, else return it compiled."""
    from questc.api import check_file, load_options
    from questc.cli.output import print_report

    result = check_file(file, load_options())
    if result.errors or result.compiled is None:
        print_report([result], "text", sys.stdout)
        sys.exit(1)
    return result.compiled


class _Points(click.Command):
    """Cells may have negative coordinates (`-1,1`): such a word is a cell, never an option."""

    def parse_args(self, ctx, args):
        import re

        at = next((i for i, a in enumerate(args) if re.fullmatch(r"-\d+,-?\d+", a)), None)
        if at is not None and "--" not in args[:at]:
            # everything from the first negative cell on is positional, but the options after the cells
            rest = args[at:]
            cells = [a for a in rest if re.fullmatch(r"-?\d+,-?\d+", a)]
            others = [a for a in rest if a not in cells]
            args = args[:at] + others + ["--"] + cells
        return super().parse_args(ctx, args)


@click.command(cls=_Points)
@click.argument("file", type=click.Path())
@click.argument("origin", metavar="X,Y")
@click.argument("target", metavar="X,Y")
@click.option(
    "--open",
    "open_doors",
    multiple=True,
    metavar="DOOR",
    help="A door that is open for this question (repeatable); all others are closed.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the answer as one JSON object.")
@guarded
def los(file: str, origin: str, target: str, open_doors: tuple[str, ...], as_json: bool) -> None:
    """Line of sight between two cells of a quest's map: `visible` or `blocked`, and what blocks."""
    a, b = parse_point(origin), parse_point(target)
    quest = checked_quest(file)
    model, board = quest.model, quest.board
    known = sorted(model.doors)
    for door in open_doors:
        if door not in model.doors:
            listed = ", ".join(f"`{d}`" for d in known) if known else "none"
            fail(f"no door `{door}` in {file}; its doors are: {listed}")
    for cell in (a, b):
        if not board.is_floor(cell):
            fail(f"{cell[0]},{cell[1]} is not a floor cell of {file}")
    reason = board.why_blocked(a, b, model.edition.sight, frozenset(open_doors))
    area_of = {c: area.id for area in model.areas.values() for c in area.cells}
    if as_json:
        click.echo(
            json.dumps(
                {
                    "file": file,
                    "edition": model.edition.name,
                    "from": list(a),
                    "to": list(b),
                    "from_area": area_of.get(a),
                    "to_area": area_of.get(b),
                    "open_doors": sorted(set(open_doors)),
                    "visible": reason is None,
                    "blocked_by": reason,
                },
                indent=2,
            )
        )
        return
    click.echo("visible" if reason is None else "blocked")
    if reason is not None:
        click.echo(f"  in the way: {reason}")
    opened = ", ".join(f"`{d}`" for d in sorted(set(open_doors))) or "none"
    click.echo(
        f"  from {a[0]},{a[1]} (area {area_of.get(a, '-')}) to {b[0]},{b[1]} "
        f"(area {area_of.get(b, '-')}); {model.edition.name} edition; open doors: {opened}"
    )
