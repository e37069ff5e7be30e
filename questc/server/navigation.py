"""Go to definition, find references and rename, over the identifiers the syntax index found."""

from __future__ import annotations

import re

from lsprotocol import types

from questc.server.document import QuestDocument
from questc.server.index import Occurrence

IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class RenameRefused(Exception):
    """The new name cannot be used; the message says why (shown to the writer)."""


def occurrence_at(document: QuestDocument, position: types.Position) -> Occurrence | None:
    line, column = document.lines().cursor(position)
    return document.index().occurrence_at(line, column)


def _location(document: QuestDocument, occurrence: Occurrence) -> types.Location:
    return types.Location(document.uri, document.lines().range(occurrence.span))


def definition(document: QuestDocument, position: types.Position) -> list[types.Location]:
    found = occurrence_at(document, position)
    if found is None:
        return []
    return [_location(document, o) for o in document.index().definitions(found.kind, found.name)]


def references(document: QuestDocument, position: types.Position, include_declaration: bool) -> list[types.Location]:
    found = occurrence_at(document, position)
    if found is None:
        return []
    return [
        _location(document, o)
        for o in document.index().references(found.kind, found.name, include_definition=include_declaration)
    ]


def highlights(document: QuestDocument, position: types.Position) -> list[types.DocumentHighlight]:
    """Every occurrence of the identifier under the cursor: its definition written, the others read."""
    found = occurrence_at(document, position)
    if found is None:
        return []
    K = types.DocumentHighlightKind
    return [
        types.DocumentHighlight(document.lines().range(o.span), K.Write if o.definition else K.Read)
        for o in document.index().references(found.kind, found.name)
    ]


def prepare_rename(document: QuestDocument, position: types.Position) -> types.PrepareRenamePlaceholder | None:
    found = occurrence_at(document, position)
    if found is None:
        return None
    return types.PrepareRenamePlaceholder(document.lines().range(found.span), found.name)


def _keywords() -> set[str]:
    from questc.api import edition_names, literals

    words = {w for w in literals().values() if IDENTIFIER.fullmatch(w)}
    # Words of closed lists the lexer may read as keywords where they are allowed.
    return (
        words
        | set(edition_names())
        | {"north", "east", "south", "west", "sight", "heroes", "overlord", "wounds", "armor", "speed", "damage"}
    )


def rename(document: QuestDocument, position: types.Position, new_name: str) -> types.WorkspaceEdit | None:
    """Every occurrence of the identifier under the cursor renamed; RenameRefused for an unusable name."""
    found = occurrence_at(document, position)
    if found is None:
        return None
    if not IDENTIFIER.fullmatch(new_name):
        raise RenameRefused(
            f"`{new_name}` is not an identifier: use letters, digits and `_`, starting with a letter or `_`"
        )
    if new_name in _keywords():
        raise RenameRefused(f"`{new_name}` is a word of the quest language, not free for a {found.kind}")
    if new_name == found.name:
        return types.WorkspaceEdit(changes={document.uri: []})
    # Each kind has names of its own (the resolver keeps pieces, doors, areas, named monsters and
    # encounters apart): a piece and an area may both be `a`. Only a name of the same kind is taken.
    taken = [o for o in document.index().occurrences if o.definition and o.name == new_name and o.kind == found.kind]
    if taken:
        raise RenameRefused(f"`{new_name}` is already the name of a {taken[0].kind} (line {taken[0].span.line})")
    lines = document.lines()
    edits = [types.TextEdit(lines.range(o.span), new_name) for o in document.index().references(found.kind, found.name)]
    return types.WorkspaceEdit(changes={document.uri: edits})
