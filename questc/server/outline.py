"""The outline (document symbols) and the folding ranges, from the syntax tree's spans."""

from __future__ import annotations

from lsprotocol import types

from questc.api import Span, plural
from questc.api import nodes as n
from questc.server.document import QuestDocument
from questc.server.index import BLOCKS

K = types.SymbolKind


def _symbol(document: QuestDocument, name: str, kind, node, selection=None, detail=None, children=None):
    lines = document.lines()
    full = lines.range(node.span)
    if selection is not None and not isinstance(selection, Span):
        selection = selection.span  # a Name or Text: its own span
    chosen = lines.range(selection) if selection is not None else full
    # The selection must lie within the range (LSP): a name span always does.
    return types.DocumentSymbol(
        name=name or "?", kind=kind, range=full, selection_range=chosen, detail=detail, children=children or None
    )


def _area_children(document: QuestDocument, area: n.Area) -> list[types.DocumentSymbol]:
    out = []
    for stmt in area.statements:
        if isinstance(stmt, n.Monster):
            out.append(
                _symbol(
                    document,
                    f"monster {stmt.type.value}" + (" master" if stmt.master else ""),
                    K.Object,
                    stmt,
                    stmt.type,
                    plural(len(stmt.at), "figure"),
                )
            )
        elif isinstance(stmt, n.PlaceNamed):
            out.append(_symbol(document, f"named {stmt.id.value}", K.Object, stmt, stmt.id))
        elif isinstance(stmt, n.Encounter):
            out.append(
                _symbol(
                    document, f"encounter {stmt.id.value}", K.Event, stmt, stmt.id, plural(len(stmt.effects), "effect")
                )
            )
        elif isinstance(stmt, (n.Chest, n.Obstacle, n.Trap, n.Treasure)):
            word = type(stmt).__name__.lower()
            out.append(_symbol(document, f"{word} {stmt.kind.value}", K.Constant, stmt, stmt.kind))
        elif isinstance(stmt, n.Glyph):
            out.append(_symbol(document, "glyph" + (" (active)" if stmt.active else ""), K.Constant, stmt))
        elif isinstance(stmt, (n.Relic, n.Runekey)):
            name = stmt.name if isinstance(stmt, n.Relic) else stmt.colour
            out.append(_symbol(document, f"{type(stmt).__name__.lower()} {name.value}", K.Constant, stmt, name))
        elif isinstance(stmt, n.Pieces):
            out.append(_symbol(document, "pieces " + ", ".join(p.value for p in stmt.pieces), K.Field, stmt))
    return out


def _trigger_name(trigger: n.Trigger) -> str:
    if trigger.event == "round":
        return f"on round {trigger.round}"
    return f"on {trigger.event} {trigger.target.value if trigger.target else '?'}"


def document_symbols(document: QuestDocument) -> list[types.DocumentSymbol]:
    tree = document.index().tree
    if tree is None:
        return []
    out = []
    if tree.header is not None:
        fields = [_symbol(document, f.keyword, K.Property, f) for f in tree.header.fields]
        out.append(
            _symbol(
                document,
                f'quest "{tree.header.title.value}"',
                K.Module,
                tree.header,
                tree.header.title,
                children=fields,
            )
        )
    for item in tree.items:
        if isinstance(item, n.Piece):
            out.append(_symbol(document, item.id.value, K.Struct, item, item.id, f"piece {item.type.value}"))
        elif isinstance(item, n.Door):
            detail = "door" + (f", {item.rune.value} rune" if item.rune else "")
            out.append(_symbol(document, item.id.value, K.Interface, item, item.id, detail))
        elif isinstance(item, n.Stairs):
            out.append(_symbol(document, f"stairs {item.colour.value}", K.Constant, item, item.colour))
        elif isinstance(item, n.Area):
            detail = "area" + (f' "{item.name.value}"' if item.name else "") + (", start" if item.start else "")
            out.append(
                _symbol(document, item.id.value, K.Namespace, item, item.id, detail, _area_children(document, item))
            )
        elif isinstance(item, n.NamedMonster):
            out.append(
                _symbol(
                    document, item.id.value, K.Class, item, item.id, f'named {item.type.value} "{item.display.value}"'
                )
            )
        elif isinstance(item, n.Trigger):
            out.append(_symbol(document, _trigger_name(item), K.Event, item, item.target))
        elif isinstance(item, n.ChestChart):
            out.append(_symbol(document, "chests", K.Array, item, detail=plural(len(item.rows), "row")))
        elif isinstance(item, n.OverlordPlan):
            out.append(_symbol(document, "overlord", K.Array, item, detail=plural(len(item.cards), "card")))
        elif isinstance(item, n.Victory):
            label = f' "{item.label.value}"' if item.label else ""
            out.append(_symbol(document, f"victory {item.side.value}{label}", K.Boolean, item, item.side))
    return out


def folding_ranges(document: QuestDocument) -> list[types.FoldingRange]:
    index = document.index()
    lines = document.lines()
    out: dict[tuple[int, int], types.FoldingRange] = {}
    for node in index.statements:
        long_text = [v for v in vars_of(node) if isinstance(v, n.Text) and v.long]
        spans = ([node.span] if isinstance(node, BLOCKS) else []) + [t.span for t in long_text]
        for span in spans:
            r = lines.range(span)
            if r.end.line > r.start.line:
                # The closing line stays visible (`}` or `"""`).
                out.setdefault(
                    (r.start.line, r.end.line - 1),
                    types.FoldingRange(
                        start_line=r.start.line, end_line=r.end.line - 1, kind=types.FoldingRangeKind.Region
                    ),
                )
    # Runs of comment lines.
    run_start = None
    for number in range(len(lines.starts) + 1):
        is_comment = number < len(lines.starts) and lines.line_text(number).lstrip().startswith("#")
        if is_comment and run_start is None:
            run_start = number
        elif not is_comment and run_start is not None:
            if number - 1 > run_start:
                out.setdefault(
                    (run_start, number - 1),
                    types.FoldingRange(start_line=run_start, end_line=number - 1, kind=types.FoldingRangeKind.Comment),
                )
            run_start = None
    return [out[k] for k in sorted(out)]


def vars_of(node):
    """The values of a node's fields (Text values among them)."""
    import dataclasses

    return [getattr(node, f.name) for f in dataclasses.fields(node)] if dataclasses.is_dataclass(node) else []
