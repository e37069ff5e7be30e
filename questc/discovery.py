"""Which files a run reads: the quest files among the paths a user names, folders searched
and exclusions applied."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from questc.errors import QuestcError
from questc.options import Options

__all__ = ["find_quests"]


def find_quests(
    paths: Iterable[Path | str], options: Options | None = None, excluded: list[Path] | None = None
) -> list[Path]:
    """Files and folders in; every `.quest` file among them (folders searched recursively), sorted, unique.

    Files and folders found in a search are passed over when `options.exclude` or
    `options.extend_exclude` match them (default: DEFAULT_EXCLUDE, such as `.git`,
    `.venv`, `build`, `node_modules`); paths named directly are always taken, unless
    `options.force_exclude` (as pre-commit, which names every staged file, needs).
    Each path passed over is appended to `excluded` when a list is given.
    """
    options = options or Options()
    skipped = excluded if excluded is not None else []
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if not path.is_dir() and not path.is_file():
            if path.exists():  # a named pipe, a socket, a device: never a quest, and may block
                raise QuestcError(f"{raw} is not a regular file or folder")
            raise QuestcError(f"no such file or folder: {raw}")
        if options.force_exclude and _excluded_with_parents(path, options):
            skipped.append(path)
            continue
        if path.is_dir():
            inside: list[Path] = []
            for folder, folders, files in os.walk(path):
                here = Path(folder)
                kept = []
                for name in sorted(folders):
                    if options.excluded(here / name):
                        skipped.append(here / name)  # pruned: nothing below it is searched
                    else:
                        kept.append(name)
                folders[:] = kept
                for name in files:
                    if name.endswith(".quest") and (here / name).is_file():
                        (skipped if options.excluded(here / name) else inside).append(here / name)
            found += sorted(inside)
        elif path.is_file():
            found.append(path)
    return list(dict.fromkeys(found))


def _excluded_with_parents(path: Path, options: Options) -> bool:
    """With force-exclude: is a path named directly, or a folder it is in, excluded? Folders are
    looked at up to the project's root (the configuration's folder, else the current one), so a
    checkout that happens to live below a folder called `build` is not excluded whole."""
    root = Path(os.path.realpath(options.per_file_base or Path.cwd()))
    absolute = Path(os.path.realpath(path.parent if str(path.parent) else ".")) / path.name
    if options.excluded(absolute):
        return True
    for parent in absolute.parents:
        if parent == root or root not in parent.parents:
            break
        if options.excluded(parent):
            return True
    return False
