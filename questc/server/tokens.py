"""Semantic tokens: what each name in the quest is, from the syntax index (the TextMate grammar
colours keywords; this tells an area from a piece from a catalog name)."""

from __future__ import annotations

from dataclasses import replace

from lsprotocol import types

from questc.server.document import QuestDocument
from questc.server.index import AREA, DOOR, ENCOUNTER, NAMED, PIECE, STAIRS

TOKEN_TYPES = ["namespace", "class", "interface", "enumMember", "event", "variable", "type", "number"]
TOKEN_MODIFIERS = ["declaration"]
_KIND_TYPE = {
    AREA: "namespace",
    PIECE: "class",
    DOOR: "interface",
    STAIRS: "enumMember",
    ENCOUNTER: "event",
    NAMED: "variable",
}
LEGEND = types.SemanticTokensLegend(token_types=TOKEN_TYPES, token_modifiers=TOKEN_MODIFIERS)


def semantic_tokens(document: QuestDocument) -> types.SemanticTokens:
    index, lines = document.index(), document.lines()
    found: list[tuple[int, int, int, int, int]] = []  # line, start, length (client units), type, modifiers

    def add(span, token_type: str, declaration: bool = False) -> None:
        r = lines.range(span)
        if r.start.line != r.end.line or r.end.character <= r.start.character:
            return  # a token lies on one line
        found.append(
            (
                r.start.line,
                r.start.character,
                r.end.character - r.start.character,
                TOKEN_TYPES.index(token_type),
                1 if declaration else 0,
            )
        )

    for occurrence in index.occurrences:
        add(occurrence.span, _KIND_TYPE[occurrence.kind], occurrence.definition)
    for name in index.catalog_names:
        if name.kind != "card":  # a card is a string: the grammar colours it
            add(name.span, "type")
    for cell in index.cells:
        span = cell.span
        if cell.node.piece is not None:  # `R1:2,3`: the piece is an occurrence; the rest a number
            span = replace(span, column=cell.node.piece.span.end_column + 1)
        add(span, "number")
    data: list[int] = []
    previous_line = previous_start = 0
    for line, start, length, kind, modifiers in sorted(set(found)):
        delta_start = start - previous_start if line == previous_line else start
        data += [line - previous_line, delta_start, length, kind, modifiers]
        previous_line, previous_start = line, start
    return types.SemanticTokens(data=data)
