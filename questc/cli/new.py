"""`questc new NAME [-o DIR] [--title TITLE]`: write DIR/NAME.quest, a small, valid, commented starter quest."""
from __future__ import annotations

import click

from questc.cli.common import fail


@click.command()
@click.argument("name")
@click.option("-o", "--output", "out_dir", default=".", show_default=True, type=click.Path(file_okay=False),
              help="Folder to write NAME.quest in (made if missing).")
@click.option("--title", help="The quest's title, as written (default: made from NAME, `drowned_reliquary` -> "
                              "\"Drowned Reliquary\").")
def new(name: str, out_dir: str, title: str | None) -> None:
    """Write NAME.quest: a starter quest that lints clean, with comments to grow it from."""
    from pathlib import Path

    from questc.emit.report import display_path
    from questc.api import starter_quest

    stem = name[:-len(".quest")] if name.endswith(".quest") else name
    if not stem or "/" in stem or "\\" in stem or stem in (".", ".."):
        fail(f"`{_shown(name)}` is not a quest name; give a plain name and the folder with -o")
    if not all(c.isprintable() for c in stem):
        # A line break would end the starter's comment that names the file: a quest that does not lint.
        fail(f"`{_shown(name)}` is not a quest name: it holds a line break or another control character")
    if len(f"{stem}.quest".encode("utf-8", "surrogateescape")) > _NAME_MAX:
        fail(f"the name `{_shown(name)}` is too long for a file name ({len(stem):,} characters); "
             f"give a name of at most {_NAME_MAX - len('.quest')} bytes")
    folder = Path(out_dir)
    target = folder / f"{stem}.quest"
    try:
        exists = target.exists()
    except OSError as error:   # a path the system cannot take (too long in all)
        fail(f"cannot write {target}: {error.strerror or error}")
    if exists:
        fail(f"{target} already exists; questc new never overwrites a file")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with open(target, "x", encoding="utf-8", newline="\n") as out:   # "x": never clobber, even in a race
            out.write(starter_quest(stem, title, display_path(str(target))))
    except FileExistsError:
        fail(f"{target} already exists; questc new never overwrites a file")
    except OSError as error:
        fail(f"cannot write {target}: {error.strerror or error}")
    click.echo(f"wrote {target}")


# The longest file name most file systems take (bytes, NAME_MAX on Linux and macOS).
_NAME_MAX = 255


def _shown(name: str) -> str:
    """A name as echoed in a message: short, control characters escaped."""
    text = name.encode("unicode_escape").decode("ascii") if not name.isprintable() else name
    return text if len(text) <= 60 else text[:57] + "..."
