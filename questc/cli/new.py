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
def new(name, out_dir, title):
    """Write NAME.quest: a starter quest that lints clean, with comments to grow it from."""
    from pathlib import Path

    from questc.emit.report import display_path
    from questc.fmt.starter import starter_quest

    stem = name[:-len(".quest")] if name.endswith(".quest") else name
    if not stem or "/" in stem or "\\" in stem or stem in (".", ".."):
        fail(f"`{name}` is not a quest name; give a plain name and the folder with -o")
    folder = Path(out_dir)
    target = folder / f"{stem}.quest"
    if target.exists():
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
