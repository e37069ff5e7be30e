"""Quests made with other tools in; questc's language out (`questc import KIND SOURCE -o FILE.quest`).

An importer turns what it is given into a `.quest` text and a summary of what it could not
carry (kept in the text as comments); questc then checks the text like any other quest.
Input that is not a quest of that kind raises questc.errors.ImportFailed.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path

__all__ = ["IMPORTERS", "Imported", "import_quest"]

# kind -> "module:function", imported on use.
IMPORTERS = {"valkyrie": "questc.importer.valkyrie:import_valkyrie"}


@dataclass(frozen=True)
class Imported:
    """An imported quest: its text in questc's language, and what was not carried over (one line each)."""

    text: str
    summary: tuple[str, ...]
    warnings: tuple[str, ...] = ()  # what the other tool itself would have ignored or warned about
    sources: tuple[Path, ...] = ()  # the files read (an output must never replace one)


def import_quest(kind: str, source: Path | str) -> Imported:
    """A kind of quest (`valkyrie`) and where it is in; the Imported quest out. Raises ImportFailed."""
    module, _, function = IMPORTERS[kind].partition(":")
    result: Imported = getattr(import_module(module), function)(Path(source))
    return result
