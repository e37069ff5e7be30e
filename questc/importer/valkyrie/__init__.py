"""A Valkyrie second edition quest (a folder, its quest.ini, or a `.valkyrie` package) in; the same quest
in questc's language out, with what it cannot say kept as comments and listed.

folder.py reads the quest as Valkyrie's loader does (refusing what the app could not load);
convert.py says it in questc's language.
"""

from __future__ import annotations

from pathlib import Path

from questc.importer import Imported

__all__ = ["import_valkyrie"]


def import_valkyrie(source: Path) -> Imported:
    """A Valkyrie quest in; its Imported text and summary out. Raises ImportFailed for input that is
    not a Valkyrie second edition quest, or one Valkyrie could not load."""
    from questc.importer.valkyrie.convert import convert
    from questc.importer.valkyrie.folder import read_folder

    quest = read_folder(source)
    text, summary = convert(quest)
    return Imported(text, tuple(summary), tuple(quest.warnings), tuple(quest.read))
