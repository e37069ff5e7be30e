"""Completion by context: the grammar says what may come next, the quest and the catalog fill in names.

The text from the start of the statement's top-level item up to the cursor goes
through the quest grammar's own LALR parser (interactively: no tree is built); the
terminals it accepts next are exactly the statements and words valid there. Where
it accepts a name, the keyword just before says which: `monster ` wants a monster
type, `pieces R1, ` a piece of this quest, `revealed ` an area. If the item is
broken before the cursor, the statement alone is parsed inside a stand-in for its
enclosing block (known from the syntax tree's spans).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from lark import Token
from lark.exceptions import UnexpectedInput
from lsprotocol import types

from questc.api import edition_names
from questc.api import nodes as n
from questc.server.document import QuestDocument
from questc.server.document import edition_of as _edition
from questc.server.hover import catalog_of
from questc.server.index import AREA, DOOR, ENCOUNTER, KINDS, NAMED, OPEN_GROUP, PIECE, TOKEN
from questc.server.text import place as text_place

DIRECTIONS = ("north", "east", "south", "west")
# Terminals that are a closed list of words rather than one keyword.
_WORDS = {
    "DIRECTION": DIRECTIONS,
    "REVEAL_MODE": ("sight", "door"),
    "SIDE": ("heroes", "overlord"),
    "STAT": ("wounds", "armor", "speed", "damage"),
    "TRIGGER_EVENT": ("reveal", "killed", "open", "defeated"),
    "COMPARE": ("<=", ">=", "<", ">", "="),
    "ROLE": ("entrance", "exit"),
    "PHASE": ("start", "end"),
    "PERIOD": ("round", "overlord turn", "hero turn"),
    "WHO": ("all", "minions", "master"),
    "PLACE_WORD": ("on", "in"),
}
_STAND_INS = {  # a block's opening, for parsing one statement as if inside that block
    n.Header: 'quest "q" {\n',
    n.Area: "area a {\n",
    n.NamedMonster: 'named n "n" ogre {\n',
    n.Encounter: "area a {\nencounter e at 0,0 {\n",
    n.Trigger: "on round 1 {\n",
    n.ChestChart: "chests {\n",
    n.Group: "area a {\ngroup zombie {\n",
    n.OverlordPlan: "overlord {\n",
}
_WORD_CHAR = re.compile(r"[A-Za-z0-9_]")


@dataclass
class Context:
    """What the parser accepts where the cursor is, and the block it is in."""

    accepts: set[str]
    stack: list  # the parser's value stack: tokens and reduced subtrees
    block: str | None  # the keyword of the innermost open block (AREA, ENCOUNTER, ON, QUEST, ...)


def _parse_prefix(text: str) -> Context | None:
    from questc.api import quest_parser

    interactive = quest_parser().parse_interactive(text)
    try:
        interactive.exhaust_lexer()
        accepts = set(interactive.accepts())
    except UnexpectedInput:
        return None
    stack = list(interactive.parser_state.value_stack)
    return Context(accepts, stack, _innermost_block(stack))


def _innermost_block(stack) -> str | None:
    for i in range(len(stack) - 1, -1, -1):
        if isinstance(stack[i], Token) and stack[i].type == "LBRACE":
            for j in range(i - 1, -1, -1):
                item = stack[j]
                if isinstance(item, Token) and item.type in (
                    "QUEST",
                    "AREA",
                    "NAMED",
                    "ENCOUNTER",
                    "ON",
                    "CHESTS",
                    "OVERLORD",
                ):
                    return item.type
            return None
    return None


def _statement_start(text: str, upto: int) -> int:
    """Where the statement holding `upto` starts: after the last newline, `;` or `{` outside a string."""
    line_start = text.rfind("\n", 0, upto) + 1
    start, in_string = line_start, False
    for i in range(line_start, upto):
        ch = text[i]
        if in_string:
            if ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in ";{":
            start = i + 1
        elif ch == "#":
            return upto
    return start


def context_at(document: QuestDocument, offset: int, text: str) -> Context | None:
    """The parser's view just before `offset` in `text` (the quest's text, without a byte-order mark)."""
    index = document.index()
    tree = index.tree
    starts: list[int] = []
    if tree is not None:
        items = ([tree.header] if tree.header is not None else []) + list(tree.items)
        holding = [i for i in items if i.span.start <= offset <= i.span.end]
        before = [i for i in items if i.span.end <= offset]
        if holding:
            starts.append(holding[0].span.start)
        if before:
            starts.append(max(i.span.end for i in before))
    if tree is None or not tree.items:
        starts.append(0)
    for start in starts:
        found = _parse_prefix(text[start:offset])
        if found is not None:
            return found
    # Broken before the cursor: the statement alone, inside a stand-in for its block.
    line, column = _line_column(text, offset)
    blocks = [s for s in index.enclosing(line, column) if type(s) in _STAND_INS]
    statement = text[_statement_start(text, offset) : offset]
    prefix = _STAND_INS[type(blocks[-1])] if blocks else ""
    return _parse_prefix(prefix + statement)


def _line_column(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _role(context: Context) -> tuple[str, int]:
    """(the keyword that governs the name wanted next, how many items came after that keyword)."""
    from questc.api import literals

    keywords = literals()
    for back, item in enumerate(reversed(context.stack)):
        if isinstance(item, Token) and item.type in keywords and item.type not in ("COMMA", "LBRACE", "COLON"):
            return item.type, back
        if isinstance(item, Token) and item.type == "TRIGGER_EVENT":
            return "ON_" + str(item).upper(), back
        if isinstance(item, Token) and item.type == "_NL":
            return "", back
    return "", len(context.stack)


def _expansions(document: QuestDocument) -> tuple[str, ...]:
    tree = document.index().tree
    header = tree.header if tree is not None else None
    field = header.get("expansions") if header is not None else None
    if field is None:
        return _edition(document).default_sets
    names = field.value if isinstance(field.value, tuple) else ()
    return tuple(name.value for name in names if isinstance(name, n.Name))


def complete(document: QuestDocument, position: types.Position) -> list[types.CompletionItem]:
    lines = document.lines()
    offset = lines.offset(position)
    bom = lines.bom
    text = document.text[bom:]
    offset = max(0, offset - bom)
    word_start = offset
    while word_start > 0 and _WORD_CHAR.match(text[word_start - 1]):
        word_start -= 1
    line_start = text.rfind("\n", 0, offset) + 1
    place = text_place(text[line_start:offset])
    if place == "comment":
        return []  # a comment is the writer's own words
    quoted = place == "string"
    if quoted:
        word_start = text.rfind('"', line_start, offset)
    context = context_at(document, word_start, text)
    if context is None:
        return []
    if quoted and not ("STRING" in context.accepts and _role(context)[0] == "CARD"):
        return []  # inside a string only an overlord card's name is a word of the quest
    replace = types.Range(lines.position(word_start + bom), lines.position(offset + bom))
    items: list[types.CompletionItem] = []
    seen: set[str] = set()

    def add(
        label: str,
        kind,
        detail: str | None = None,
        documentation: str | None = None,
        insert: str | None = None,
        sort: str = "1",
    ) -> None:
        if label in seen:
            return
        seen.add(label)
        items.append(
            types.CompletionItem(
                label=label,
                kind=kind,
                detail=detail,
                documentation=types.MarkupContent(types.MarkupKind.Markdown, documentation) if documentation else None,
                text_edit=types.TextEdit(replace, insert if insert is not None else label),
                sort_text=f"{sort}{label}",
            )
        )

    from questc.api import literals
    from questc.server.keywords import KEYWORDS, allowed, hover_text

    fixed = literals()
    rules = _edition(document)
    in_header = context.block == "QUEST"
    written = _header_fields(document) if in_header else set()
    for terminal in sorted(context.accepts):
        literal = fixed.get(terminal)
        if literal is not None and _WORD_CHAR.match(literal[0]):
            entry = KEYWORDS.get(literal)
            if entry is not None:
                if not allowed(entry, rules, in_header):
                    continue  # a word of another edition's quests
                if in_header and entry.header and not entry.repeats and literal in written:
                    continue  # a field the header has already
                if literal == "start" and context.block == "AREA" and not rules.has("start at"):
                    continue  # `start at` in an area: where second edition heroes start
            add(
                literal,
                types.CompletionItemKind.Keyword,
                "  /  ".join(entry.forms) if entry is not None else None,
                hover_text(entry) if entry is not None else None,
            )
        elif terminal in _WORDS:
            for word in _WORDS[terminal]:
                add(word, types.CompletionItemKind.EnumMember, terminal.lower().replace("_", " "))
    if "NAME" in context.accepts:
        _names(document, context, add)
    if "PIECE_POINT" in context.accepts:
        # A point (after `at`, `cells`...): counted from a piece's corner (`R1:2,3`) or the map's (`4,5`).
        for name, occurrence in sorted(document.index().defined(PIECE).items()):
            add(
                name + ":",
                types.CompletionItemKind.Reference,
                f"a square of piece {name} (PIECE:X,Y), line {occurrence.span.line}",
                insert=name + ":",
                sort="0",
            )
    if "STRING" in context.accepts and _role(context)[0] == "CARD":
        catalog, sets = catalog_of(document), _expansions(document)
        for name, card in sorted(catalog.cards.items()):
            if card.set in sets:
                add(
                    name,
                    types.CompletionItemKind.Value,
                    f"overlord card, {card.set}",
                    card.note or None,
                    insert='"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"',
                )
    return items


def _header_fields(document: QuestDocument) -> set[str]:
    tree = document.index().tree
    header = tree.header if tree is not None else None
    return {f.keyword for f in header.fields} if header is not None else set()


# Where a NAME follows one of these keywords (the parser's terminals), what it names: a kind of the
# quest's identifiers (questc.server.index), or "monster" (the catalog's), "lieutenant", "trait".
NAME_AFTER: dict[str, tuple[str, ...]] = {
    "GROUP": ("monster",),
    "PLACE": ("monster",),
    "ON": (PIECE,),
    "IN": (AREA,),
    "ENTRANCE": (PIECE,),
    "EXIT": (PIECE,),
    "CARRIED": (TOKEN,),
    "TO": (AREA, PIECE),
    "REMOVE": (TOKEN,),
    "REPLACE": (TOKEN,),
    "DEFEATED": (OPEN_GROUP, NAMED, "lieutenant", "monster"),
    "ON_DEFEATED": (OPEN_GROUP, NAMED, "lieutenant", "monster"),
    "TRAITS": ("trait",),
}


def _names(document: QuestDocument, context: Context, add) -> None:
    """The names that fit where the grammar wants a NAME."""
    keyword, after = _role(context)
    index = document.index()
    catalog, sets = catalog_of(document), _expansions(document)
    if keyword in NAME_AFTER:
        for source in NAME_AFTER[keyword]:
            if source in KINDS:
                for name, occurrence in sorted(index.defined(source).items()):
                    add(name, types.CompletionItemKind.Variable, f"{source}, line {occurrence.span.line}", sort="0")
            elif source == "monster":
                for name, entry in sorted(catalog.monsters.items()):
                    if entry.set in sets:
                        add(name, types.CompletionItemKind.Value, f"monster, {entry.set}", entry.note or None)
            elif source == "lieutenant":
                lieutenant = catalog.markers.get("lieutenant")
                for name in lieutenant.variants if lieutenant is not None else ():
                    add(name, types.CompletionItemKind.EnumMember, "lieutenant")
            elif source == "trait":
                for name in sorted({t for m in catalog.monsters.values() for t in m.traits}):
                    add(name, types.CompletionItemKind.EnumMember, "trait")
        return

    def identifiers(kind: str) -> None:
        for name, occurrence in sorted(index.defined(kind).items()):
            add(name, types.CompletionItemKind.Variable, f"{kind}, line {occurrence.span.line}", sort="0")

    def entries(kind: str, detail: str) -> None:
        table = {
            "piece": catalog.pieces,
            "monster": catalog.monsters,
            "treasure": catalog.treasures,
            "dark_glyph": catalog.dark_glyphs,
        }.get(kind)
        if table is None:  # obstacles and traps share one table
            table = {k: v for k, v in catalog.obstacles.items() if v.trap == (kind == "trap")}
        for name, entry in sorted(table.items()):
            if getattr(entry, "set", None) in sets:
                add(name, types.CompletionItemKind.Value, f"{detail}, {entry.set}", getattr(entry, "note", "") or None)

    def words(values, detail: str) -> None:
        for value in values:
            add(value, types.CompletionItemKind.EnumMember, detail)

    colours = lambda: words(catalog.rune_colours, "rune colour")  # noqa: E731
    block = context.block
    if keyword == "PIECE" and after == 1:
        entries("piece", "map piece")
    elif keyword in ("BETWEEN", "PIECES"):
        identifiers(PIECE)
    elif keyword in ("MONSTER", "SPAWN") or (keyword == "NAMED" and after == 2 and block is None):
        entries("monster", "monster")
    elif keyword == "NAMED" and block == "AREA":
        identifiers(NAMED)
    elif keyword in ("RUNE", "RUNEKEY", "UNLOCK"):
        colours()
    elif keyword == "OBSTACLE":
        entries("obstacle", "obstacle")
    elif keyword == "TRAP":
        entries("trap", "trap")
    elif keyword == "TREASURE" and block in ("ENCOUNTER", "ON"):
        words(("copper", "silver", "gold"), "treasure card")
    elif keyword in ("TREASURE", "POTION"):
        entries("treasure", "treasure")
    elif keyword == "CHEST" or (block == "CHESTS" and keyword == ""):
        chest = catalog.markers.get("chest")
        words(chest.variants if chest is not None else ("copper", "silver", "gold"), "chest")
    elif keyword == "DARK_GLYPH":
        entries("dark_glyph", "dark glyph")
    elif keyword == "EDITION":
        words(edition_names(), "edition")
    elif keyword == "EXPANSIONS":
        for name, info in sorted(catalog.sets.items()):
            add(name, types.CompletionItemKind.Module, info.title or "set")
    elif keyword in ("OPEN", "CLOSE", "OPENED", "ON_OPEN"):
        identifiers(DOOR)
    elif keyword in ("REVEAL", "REVEALED", "ON_REVEAL"):
        identifiers(AREA)
    elif keyword in ("KILLED", "ON_KILLED"):
        identifiers(NAMED)
        if _edition(document).has("lieutenants"):
            lieutenant = catalog.markers.get("lieutenant")
            words(lieutenant.variants if lieutenant is not None else (), "lieutenant")
    elif keyword in ("LIEUTENANT", "OBJECTIVE"):
        marker = catalog.markers.get(keyword.lower())
        words(
            marker.variants if marker is not None else (),
            keyword.lower() if keyword == "LIEUTENANT" else "objective colour",
        )
    elif keyword == "TRIGGERED":
        identifiers(ENCOUNTER)
    elif keyword == "WIN":
        words(("heroes", "overlord"), "side")
    elif keyword == "ABILITIES":
        # Abilities are the writer's words: those the quest's named monsters have already.
        for name in sorted({c.name for c in index.catalog_names if c.kind == "ability"}):
            add(name, types.CompletionItemKind.Value, "ability (in this quest)")
