"""`questc new NAME [-o DIR] [--title TITLE] [--edition first|second] [--encounters 1|2]`: write
DIR/NAME.quest, a small, valid, commented starter quest (or, for two encounters, DIR/NAME_1.quest
and DIR/NAME_2.quest, tied by `part_of`)."""

from __future__ import annotations

from pathlib import Path

import click

from questc.cli.common import fail, refuse


@click.command()
@click.argument("name")
@click.option(
    "-o",
    "--output",
    "out_dir",
    default=".",
    show_default=True,
    type=click.Path(),
    help="Folder to write NAME.quest in (made if missing).",
)
@click.option(
    "--title",
    help='The quest\'s title, as written (default: made from NAME, `drowned_reliquary` -> "Drowned Reliquary").',
)
@click.option(
    "--edition",
    metavar="EDITION",
    default=None,
    help="The rules it is played by: first (the default: the first edition base game's pieces) or "
    "second (its tiles, tokens and lieutenants).",
)
@click.option(
    "--encounters",
    type=click.IntRange(1, 2),
    default=1,
    show_default=True,
    help="2: a quest of two encounters, NAME_1.quest and NAME_2.quest, tied by `part_of NAME` "
    "(second edition: the default edition then).",
)
def new(name: str, out_dir: str, title: str | None, edition: str | None, encounters: int) -> None:
    """Write NAME.quest: a starter quest that lints clean (even with --strict), with comments to grow it from.

    \b
    questc new drowned_reliquary -o quests                 # first edition
    questc new bell_run --edition second -o quests         # second edition
    questc new lantern_road --encounters 2 -o quests       # lantern_road_1.quest, lantern_road_2.quest
    """
    from questc.api import encounter_pair, starter_quest
    from questc.emit.report import display_path

    stem = name[: -len(".quest")] if name.endswith(".quest") else name
    if not stem or "/" in stem or "\\" in stem or stem in (".", ".."):
        fail(f"`{_shown(name)}` is not a quest name; give a plain name and the folder with -o")
    if not all(c.isprintable() for c in stem):
        # A line break would end the starter's comment that names the file: a quest that does not lint.
        fail(f"`{_shown(name)}` is not a quest name: it holds a line break or another control character")
    suffix = "_1.quest" if encounters == 2 else ".quest"
    if len(f"{stem}{suffix}".encode("utf-8", "surrogateescape")) > _NAME_MAX:
        fail(
            f"the name `{_shown(name)}` is too long for a file name ({len(stem):,} characters); "
            f"give a name of at most {_NAME_MAX - len(suffix)} bytes"
        )
    folder = Path(out_dir)
    texts: tuple[str, ...]
    try:  # an edition that does not exist, or whose quests have no encounters: a usage problem
        if encounters == 2:
            targets = [folder / f"{stem}_1.quest", folder / f"{stem}_2.quest"]
            texts = encounter_pair(
                stem, title, (display_path(str(targets[0])), display_path(str(targets[1]))), edition=edition
            )
        else:
            targets = [folder / f"{stem}.quest"]
            texts = (
                starter_quest(stem, title, display_path(str(targets[0])), **({"edition": edition} if edition else {})),
            )
    except ValueError as error:
        fail(str(error))
    _write_new(folder, targets, texts)
    for target in targets:
        click.echo(f"wrote {target}")


def _write_new(folder: Path, targets: list[Path], texts: tuple[str, ...]) -> None:
    """Each text to its target, none of them over an existing file: all written, or none (exit 1)."""
    try:
        not_a_folder = folder.exists() and not folder.is_dir()
    except OSError as error:  # a name too long, a link that loops
        refuse(f"cannot write {targets[0]}: {error.strerror or error}")
    if not_a_folder:
        refuse(f"cannot write {targets[0]}: {folder} is a file, not a folder")
    for target in targets:
        try:
            exists = target.exists()
        except OSError as error:  # a path the system cannot take (too long in all)
            refuse(f"cannot write {target}: {error.strerror or error}")
        if exists:
            refuse(f"{target} already exists; questc new never overwrites a file")
    made: list[Path] = []
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for target, text in zip(targets, texts):
            with open(target, "x", encoding="utf-8", newline="\n") as out:  # "x": never clobber, even in a race
                made.append(target)
                out.write(text)
    except OSError as error:
        for path in made:  # all or none: the files this run made go again
            path.unlink(missing_ok=True)
        if isinstance(error, FileExistsError):
            refuse(f"{error.filename} already exists; questc new never overwrites a file")
        refuse(f"cannot write {getattr(error, 'filename', None) or targets[0]}: {error.strerror or error}")


# The longest file name most file systems take (bytes, NAME_MAX on Linux and macOS).
_NAME_MAX = 255


def _shown(name: str) -> str:
    """A name as echoed in a message: short, control characters escaped."""
    text = name.encode("unicode_escape").decode("ascii") if not name.isprintable() else name
    return text if len(text) <= 60 else text[:57] + "..."
