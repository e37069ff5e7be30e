"""Parse tree -> typed syntax nodes (questc.syntax.nodes), with value checks (Q003, Q004, Q005)."""

from __future__ import annotations

import re
import textwrap
from typing import Any, overload

from lark import Token, Transformer, v_args
from lark.tree import Meta

from questc.diagnostics.core import Applicability, Diagnostic, Edit, Fix, Label, Span
from questc.diagnostics.edits import SourceText
from questc.limits import MAX_COORDINATE, MAX_MAP_CELLS, MAX_MAP_SIDE, MAX_NUMBER, excerpt
from questc.syntax import nodes as n
from questc.syntax.codes import Q003, Q004, Q005, Q006

_HEADER_FIELDS = (
    "id",
    "edition",
    "encounter",
    "part_of",
    "act",
    "expansions",
    "players",
    "traits",
    "conquest",
    "treachery",
    "reveal",
    "author",
    "version",
    "intro",
    "special",
    "use",
)
ACTS = (1, 2)
_REPEATABLE = {"use"}
_TURNS = (0, 90, 180, 270)
_ESCAPE = re.compile(r'\\(["\\n])')

# What a rule's method is given: the values its sub-rules' methods returned and its tokens, in the
# grammar's order (None for an optional part left out). They differ from rule to rule, and each
# method reads its own by position, as grammar/quest.lark writes them.
Children = list[Any]
# A token's optional head (colour, identifier, name) and its placement (how, points, pieces, count).
TokenHead = tuple[n.Name | None, n.Name | None, n.Text | None]
TokenPlace = tuple[str, tuple[n.PointRef, ...], tuple[n.Name, ...], n.Amount | None]
# The keyword arguments of n.PlaceEffect that `place`'s what and where give.
PlaceArgs = dict[str, Any]


def token_span(file: str, token: Token) -> Span:
    # The lexer's tokens always carry their place; Lark types it optional for tokens made by hand.
    return Span(
        file,
        token.line or 0,
        token.column or 0,
        token.end_line or 0,
        token.end_column or 0,
        token.start_pos or 0,
        token.end_pos or 0,
    )


def unescape(body: str) -> str:
    """Apply the language's escapes: \\" \\\\ \\n (any other backslash stays as written)."""
    return _ESCAPE.sub(lambda m: "\n" if m.group(1) == "n" else m.group(1), body)


def dedent_long(body: str) -> str:
    """A triple-quoted string's value: the first line break dropped, common indentation removed."""
    if body.startswith("\r\n"):
        body = body[2:]
    elif body.startswith("\n"):
        body = body[1:]
    body = textwrap.dedent(body.replace("\r\n", "\n"))
    # The closing quotes usually stand on their own indented line.
    return body.rstrip(" \t").rstrip("\n") if body.rstrip(" \t").endswith("\n") else body


@v_args(meta=True)  # every rule's method gets (meta, children); INT and SIGNED get their token
class ToNodes(Transformer[Token, n.QuestFile]):
    """Builds nodes bottom-up; collects value problems in `self.diagnostics`."""

    def __init__(self, file: str, header_written: bool = False, source: str | None = None):
        super().__init__(visit_tokens=True)
        self.file = file
        self.header_written = header_written  # a `quest` header was written, though maybe broken
        self.diagnostics: list[Diagnostic] = []
        self.source = source  # the text parsed, for fixes that remove whole lines
        self._source_text: SourceText | None = None  # made once, on the first such fix

    # ---- helpers ---------------------------------------------------------
    def _span(self, meta: Meta) -> Span:
        if getattr(meta, "empty", True):
            return Span(self.file, 1, 1, 1, 1, 0, 0)
        return Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column, meta.start_pos, meta.end_pos)

    @overload
    def _name(self, token: Token) -> n.Name: ...
    @overload
    def _name(self, token: None) -> None: ...

    def _name(self, token: Token | None) -> n.Name | None:
        """A NAME token's Name; None for an optional name left out (the grammar's `[NAME]`)."""
        if token is None:
            return None
        return n.Name(token_span(self.file, token), str(token))

    def _drop_line(self, field: n.HeaderField) -> tuple[Fix, ...]:
        """The fix removing a repeated header field that stands on lines of its own (unsafe: the
        first value is the one kept, which the writer may not have meant)."""
        if self.source is None:
            return ()
        # One SourceText for the file: it indexes the lines once (a new one per repeated
        # field indexed the whole file each time: 10,000 `conquest 3` lines took 30 s).
        text = self._source_text
        if text is None:
            text = self._source_text = SourceText(self.source, self.file)
        if not text.alone_on_line(field.span):
            return ()
        return (
            Fix(f"remove the second `{field.keyword}` line", (text.delete_lines(field.span),), Applicability.UNSAFE),
        )

    def _q003(self, span: Span, problem: str, label: str, help_text: str, fixes: tuple[Fix, ...] = ()) -> None:
        self.diagnostics.append(Q003.at(span, problem=problem, label=label, help_text=help_text, fixes=fixes))

    def _bounded(self, text: str, limit: int) -> int | None:
        """Digits (with a sign) in; their value, or None past +-limit. The length is checked
        before int(): Python refuses over 4,300 digits, and such a number is no count anyway."""
        digits = text.lstrip("+-").lstrip("0") or "0"
        if len(digits) > len(str(limit)) or int(digits) > limit:
            return None
        return -int(digits) if text.startswith("-") else int(digits)

    def _too_big(self, token: Token, what: str, limit: int, written: str | None = None) -> None:
        self.diagnostics.append(
            Q006.at(
                token_span(self.file, token),
                problem=f"the {what} `{excerpt(written or str(token))}` is beyond what questc checks",
                label="out of range",
                help_text=f"a {what} lies between {-limit:,} and {limit:,}"
                if what == "coordinate"
                else f"a number in a quest is at most {limit:,}",
            )
        )

    def _count(self, token: Token, text: str | None = None) -> int:
        """A count's value, or 0 (with a Q006) when it is beyond MAX_NUMBER."""
        value = self._bounded(str(token) if text is None else text, MAX_NUMBER)
        if value is None:
            self._too_big(token, "number", MAX_NUMBER, text)
            return 0
        return value

    def _coordinates(self, token: Token, text: str) -> tuple[int, ...] | None:
        """`x,y` (or `x1,y1..x2,y2`) in; the numbers, or None (with one Q006) when one is
        beyond MAX_COORDINATE."""
        values = []
        for part in text.replace("..", ",").split(","):
            value = self._bounded(part, MAX_COORDINATE)
            if value is None:
                self._too_big(token, "coordinate", MAX_COORDINATE, part)
                return None
            values.append(value)
        return tuple(values)

    # ---- terminals -------------------------------------------------------
    def INT(self, token: Token) -> Token:
        return token.update(value=self._count(token))

    def SIGNED(self, token: Token) -> Token:
        return token.update(value=self._count(token))

    # ---- values ----------------------------------------------------------
    def string(self, meta: Meta, children: Children) -> n.Text:
        token = children[0]
        raw = str(token)
        if token.type.startswith("UNCLOSED"):  # reported (Q002) by the parser's scan of the source
            long = token.type == "UNCLOSED_LONG_STRING"
            body = raw[3:] if long else raw[1:]
            return n.Text(token_span(self.file, token), unescape(dedent_long(body)) if long else unescape(body), long)
        if token.type == "LONG_STRING":
            # Dedent first: an escaped `\n` must not count as a line of its own.
            return n.Text(token_span(self.file, token), unescape(dedent_long(raw[3:-3])), True)
        return n.Text(token_span(self.file, token), unescape(raw[1:-1]), False)

    def _point(self, token: Token) -> n.PointRef:
        span = token_span(self.file, token)
        text = str(token)
        piece = None
        if token.type == "PIECE_POINT":
            name, _, text = text.partition(":")
            piece = n.Name(span.head(name), name)
        x, y = self._coordinates(token, text) or (0, 0)
        return n.PointRef(span, x, y, piece)

    def point(self, meta: Meta, children: Children) -> n.PointRef:
        return self._point(children[0])

    def cell_set(self, meta: Meta, children: Children) -> n.CellSet:
        token = children[0]
        if token.type == "RECT":
            span = token_span(self.file, token)
            x1, y1, x2, y2 = self._coordinates(token, str(token)) or (0, 0, 0, 0)
            width, height = abs(x2 - x1) + 1, abs(y2 - y1) + 1
            if width > MAX_MAP_SIDE or height > MAX_MAP_SIDE or width * height > MAX_MAP_CELLS:
                # Refused before it is expanded: no map questc checks could hold it.
                self.diagnostics.append(
                    Q006.at(
                        span,
                        problem=f"the rectangle `{token}` is {width:,} x {height:,} cells, larger than any map",
                        label="too large",
                        help_text=f"a map holds at most {MAX_MAP_CELLS:,} cells within {MAX_MAP_SIDE} x {MAX_MAP_SIDE}",
                    )
                )
                x2, y2 = x1, y1
            return n.CellSet(span, x1, y1, x2, y2)
        p = self._point(token)
        return n.CellSet(p.span, p.x, p.y, p.x, p.y, p.piece)

    def count_range(self, meta: Meta, children: Children) -> n.CountRange:
        token = children[0]
        span = token_span(self.file, token)
        if token.type == "RANGE":
            parts = str(token).split("..")
            low, high = (self._bounded(part, MAX_NUMBER) for part in parts)
            if low is None or high is None:
                self._too_big(token, "number", MAX_NUMBER, parts[0] if low is None else parts[1])
                return n.CountRange(span, 0, 0)
            if low > high:
                # Safe: a range is the counts between its ends, whichever end is written first.
                self._q003(
                    span,
                    f"the range `{token}` runs backwards",
                    "the first count must not exceed the second",
                    f"write `{high}..{low}`",
                    (Fix(f"write `{high}..{low}`", (Edit(span, f"{high}..{low}"),), Applicability.SAFE),),
                )
                low, high = high, low
            return n.CountRange(span, low, high)
        return n.CountRange(span, token.value, token.value)

    # ---- header ------------------------------------------------------------
    def _field(self, meta: Meta, keyword: str, value: n.HeaderValue) -> n.HeaderField:
        return n.HeaderField(self._span(meta), keyword, value)

    def id_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "id", self._name(c[0]))

    def edition_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "edition", self._name(c[0]))

    def reveal_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "reveal", self._name(c[0]))

    def expansions_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "expansions", tuple(self._name(t) for t in c))

    def players_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "players", c[0])

    def conquest_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "conquest", c[0].value)

    def treachery_part(self, meta: Meta, c: Children) -> n.TreacheryPart:
        return n.TreacheryPart(self._span(meta), self._name(c[0]), c[1].value)

    def treachery_field(self, meta: Meta, c: Children) -> n.HeaderField:
        # A colour written twice is Q004 (summing it would hide a typo); the first one counts.
        first: dict[str, n.TreacheryPart] = {}
        kept = []
        for part in c:
            earlier = first.get(part.colour.value)
            if earlier is not None:
                self.diagnostics.append(
                    Q004.at(
                        part.colour.span,
                        problem=f"the treachery colour `{part.colour.value}` is given twice",
                        label="given again here",
                        help_text=f"write `{part.colour.value}` once, with the whole amount "
                        f"(`{part.colour.value} {earlier.amount + part.amount}` if both were meant)",
                        labels=[Label(earlier.span, "first given here")],
                    )
                )
                continue
            first[part.colour.value] = part
            kept.append(part)
        return self._field(meta, "treachery", tuple(kept))

    def author_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "author", c[0])

    def version_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "version", c[0])

    def intro_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "intro", c[0])

    def special_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "special", c[0])

    def use_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "use", c[0])

    def _encounter_number(self, token: Token) -> n.EncounterNumber:
        """`2` or `2a` (an alternative: `2A` is the same) in; an EncounterNumber out (Q003 for 0)."""
        span = token_span(self.file, token)
        text = str(token)
        alternative = text[-1].lower() if token.type == "ALTERNATIVE" else None
        number = self._count(token, text[:-1] if alternative else text)
        if number < 1:
            self._q003(
                span,
                "encounters are numbered from 1",
                "not an encounter number",
                "write `encounter 1` for the first encounter",
            )
            number = 1
        return n.EncounterNumber(span, number, alternative)

    def encounter_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "encounter", self._encounter_number(c[0]))

    def act_field(self, meta: Meta, c: Children) -> n.HeaderField:
        number = c[0].value
        if number not in ACTS:
            self._q003(
                token_span(self.file, c[0]),
                f"a campaign has act 1 and act 2, not {number}",
                "not 1 or 2",
                "write `act 1` or `act 2`",
            )
            number = 1
        return self._field(meta, "act", number)

    def traits_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "traits", tuple(self._name(t) for t in c))

    def part_of_field(self, meta: Meta, c: Children) -> n.HeaderField:
        return self._field(meta, "part_of", self._name(c[0]))

    def header(self, meta: Meta, c: Children) -> n.Header:
        title, fields = c[0], c[1:]
        seen: dict[str, n.HeaderField] = {}
        kept = []
        for field in fields:
            first = seen.get(field.keyword)
            if first is not None and field.keyword not in _REPEATABLE:
                self.diagnostics.append(
                    Q004.at(
                        field.span.head(field.keyword),
                        problem=f"the header field `{field.keyword}` is given twice",
                        label="given again here",
                        help_text=f"keep one `{field.keyword}` line",
                        labels=[Label(first.span, "first given here")],
                        fixes=self._drop_line(field),
                    )
                )
                continue
            seen[field.keyword] = field
            kept.append(field)
        self._edition_fields(seen)
        return n.Header(self._span(meta), title, tuple(kept))

    def _edition_fields(self, seen: dict[str, n.HeaderField]) -> None:
        """Q004 for an edition questc does not know, and for a header field only other editions'
        quests take (`encounter` in a first edition quest)."""
        from questc import editions

        written = seen["edition"].value if "edition" in seen else None
        name = written.value if isinstance(written, n.Name) else editions.DEFAULT
        if isinstance(written, n.Name) and editions.find(name) is None:
            from difflib import get_close_matches

            known = editions.names()
            close = get_close_matches(name, known, n=1)
            self.diagnostics.append(
                Q004.at(
                    written.span,
                    problem=f"`{name}` is not an edition questc knows",
                    label="not an edition",
                    help_text=(f"did you mean `{close[0]}`? " if close else "")
                    + "the editions are "
                    + ", ".join(f"`{e}`" for e in known),
                )
            )
            return
        for keyword, field in seen.items():
            owners = [e for e in editions.names() if keyword in editions.edition(e).header_fields]
            if owners and name not in owners:
                owner = owners[0]
                self.diagnostics.append(
                    Q004.at(
                        field.span.head(keyword),
                        problem=f"the header field `{keyword}` belongs to an `edition {owner}` quest",
                        label=f"a {owner} edition field",
                        help_text=f"write `edition {owner}` in the header, or remove the line",
                    )
                )

    # ---- map -----------------------------------------------------------------
    def piece(self, meta: Meta, c: Children) -> n.Piece:
        turn = 0
        if c[3] is not None:
            turn = c[3].value
            if turn not in _TURNS:
                self._q003(
                    token_span(self.file, c[3]),
                    f"a piece cannot turn {turn} degrees",
                    "not a quarter turn",
                    "turn by 0, 90, 180 or 270",
                )
                turn = 0
        return n.Piece(self._span(meta), self._name(c[0]), self._name(c[1]), c[2], turn)

    def rune(self, meta: Meta, c: Children) -> n.Name:
        return self._name(c[0])

    def door_between(self, meta: Meta, c: Children) -> n.Door:
        return n.Door(
            self._span(meta), self._name(c[0]), between=(self._name(c[2]), self._name(c[3])), rune=c[4], display=c[1]
        )

    def door_at(self, meta: Meta, c: Children) -> n.Door:
        return n.Door(self._span(meta), self._name(c[0]), at=c[2], side=self._name(c[3]), rune=c[4], display=c[1])

    def stairs(self, meta: Meta, c: Children) -> n.Stairs:
        return n.Stairs(self._span(meta), self._name(c[0]), (c[2], c[3]), display=c[1])

    def role(self, meta: Meta, c: Children) -> n.Role:
        return n.Role(self._span(meta), str(c[0]), tuple(self._name(t) for t in c[1:]))

    # ---- areas ---------------------------------------------------------------
    def area(self, meta: Meta, c: Children) -> n.Area:
        return n.Area(self._span(meta), self._name(c[0]), c[1], c[2] is not None, tuple(c[3:]))

    def pieces_stmt(self, meta: Meta, c: Children) -> n.Pieces:
        return n.Pieces(self._span(meta), tuple(self._name(t) for t in c))

    def cells_stmt(self, meta: Meta, c: Children) -> n.Cells:
        return n.Cells(self._span(meta), tuple(c))

    def read_stmt(self, meta: Meta, c: Children) -> n.Read:
        return n.Read(self._span(meta), c[0])

    read_effect = read_stmt

    def note_stmt(self, meta: Meta, c: Children) -> n.Note:
        return n.Note(self._span(meta), c[0])

    def glyph_stmt(self, meta: Meta, c: Children) -> n.Glyph:
        return n.Glyph(self._span(meta), c[0], c[1] is not None)

    def facing(self, meta: Meta, c: Children) -> n.Name:
        return self._name(c[0])

    def players(self, meta: Meta, c: Children) -> n.CountRange:
        value: n.CountRange = c[0]
        return value

    def monster_stmt(self, meta: Meta, c: Children) -> n.Monster:
        type_, master, *rest = c
        points = tuple(x for x in rest[:-2])
        return n.Monster(self._span(meta), self._name(type_), master is not None, points, rest[-2], rest[-1])

    def place_named(self, meta: Meta, c: Children) -> n.PlaceNamed:
        return n.PlaceNamed(self._span(meta), self._name(c[0]), c[1], c[2])

    def chest_stmt(self, meta: Meta, c: Children) -> n.Chest:
        return n.Chest(self._span(meta), self._name(c[0]), tuple(c[1:]))

    def obstacle_stmt(self, meta: Meta, c: Children) -> n.Obstacle:
        return n.Obstacle(self._span(meta), self._name(c[0]), tuple(c[1:]))

    def trap_stmt(self, meta: Meta, c: Children) -> n.Trap:
        return n.Trap(self._span(meta), self._name(c[0]), tuple(c[1:-1]), c[-1])

    def treasure_stmt(self, meta: Meta, c: Children) -> n.Treasure:
        return n.Treasure(self._span(meta), self._name(c[0]), tuple(c[1:]))

    def relic_stmt(self, meta: Meta, c: Children) -> n.Relic:
        return n.Relic(self._span(meta), self._name(c[0]), c[2], display=c[1])

    def runekey_stmt(self, meta: Meta, c: Children) -> n.Runekey:
        return n.Runekey(self._span(meta), self._name(c[0]), c[1])

    def encounter(self, meta: Meta, c: Children) -> n.Encounter:
        return n.Encounter(self._span(meta), self._name(c[0]), c[2], c[3], display=c[1])

    # A token's head gives (colour, id, display); its place gives (placement, at, on, count).
    def token_id(self, meta: Meta, c: Children) -> TokenHead:
        return (None, self._name(c[0]), c[1])

    def objective_colour(self, meta: Meta, c: Children) -> TokenHead:
        return (self._name(c[0]), None, None)

    def objective_colour_id(self, meta: Meta, c: Children) -> TokenHead:
        return (self._name(c[0]), self._name(c[1]), c[2])

    def objective_id(self, meta: Meta, c: Children) -> TokenHead:
        return (None, self._name(c[0]), c[1])

    def place_at(self, meta: Meta, c: Children) -> TokenPlace:
        return ("at", tuple(c), (), None)

    def place_on(self, meta: Meta, c: Children) -> TokenPlace:
        return ("on", (), tuple(self._name(t) for t in c[:-1]), c[-1])

    def place_among(self, meta: Meta, c: Children) -> TokenPlace:
        return ("among", tuple(c[:-1]), (), c[-1])

    def place_carried(self, meta: Meta, c: Children) -> TokenPlace:
        return ("carried", (), (), None)

    def count(self, meta: Meta, c: Children) -> n.Amount:
        value: n.Amount = c[0]
        return value

    def amount(self, meta: Meta, c: Children) -> n.Amount:
        if c[0].type == "HEROES":
            return n.Amount(self._span(meta), c[1].value if c[1] is not None else 0, True)
        return n.Amount(self._span(meta), c[0].value)

    def _token(self, meta: Meta, kind: str, head: TokenHead | None, place: TokenPlace) -> n.Token:
        colour, ident, display = head or (None, None, None)
        placement, at, on, count = place
        return n.Token(self._span(meta), kind, at, colour, ident, display, placement, on, count)

    def search_stmt(self, meta: Meta, c: Children) -> n.Token:
        return self._token(meta, "search", c[0], c[1])

    def objective_stmt(self, meta: Meta, c: Children) -> n.Token:
        return self._token(meta, "objective", c[0], c[1])

    def villager_stmt(self, meta: Meta, c: Children) -> n.Token:
        return self._token(meta, "villager", c[0], c[1])

    def lieutenant_stmt(self, meta: Meta, c: Children) -> n.Lieutenant:
        return n.Lieutenant(self._span(meta), self._name(c[0]), c[1], c[2])

    def lieutenant_on(self, meta: Meta, c: Children) -> n.Lieutenant:
        return n.Lieutenant(self._span(meta), self._name(c[0]), None, None, tuple(self._name(t) for t in c[1:]))

    def minions(self, meta: Meta, c: Children) -> tuple[str, n.Amount]:
        return ("minions", c[1])

    def masters(self, meta: Meta, c: Children) -> tuple[str, n.Amount]:
        return ("masters", c[0])

    def group_change(self, meta: Meta, c: Children) -> n.GroupChange:
        who, _colon, value, stat = c if len(c) == 4 else (c[0], None, c[1], c[2])
        return n.GroupChange(self._span(meta), str(who), value.value, value.type == "SIGNED", self._name(stat))

    def group_changes(self, meta: Meta, c: Children) -> tuple[n.GroupChange, ...]:
        return tuple(c)

    def group_stmt(self, meta: Meta, c: Children) -> n.Group:
        type_, *rest = c
        on = tuple(self._name(t) for t in rest if isinstance(t, Token) and t.type == "NAME")
        sizes = dict(x for x in rest if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str))
        changes = next((x for x in rest if isinstance(x, tuple) and (not x or isinstance(x[0], n.GroupChange))), ())
        return n.Group(self._span(meta), self._name(type_), on, sizes.get("minions"), sizes.get("masters"), changes)

    def open_group_stmt(self, meta: Meta, c: Children) -> n.Group:
        names = [t for t in c[1:] if isinstance(t, Token) and t.type == "NAME"]
        ident = c[1] if c[1] is not None else None
        on = names[1:] if ident is not None else names
        return n.Group(self._span(meta), None, tuple(self._name(t) for t in on), open=True, id=self._name(ident))

    def start_stmt(self, meta: Meta, c: Children) -> n.HeroStart:
        return n.HeroStart(self._span(meta), tuple(c[1:]))

    # ---- named monsters -----------------------------------------------------
    def stat_change(self, meta: Meta, c: Children) -> n.StatChange:
        stat, value = c
        return n.StatChange(self._span(meta), str(stat), value.value, value.type == "SIGNED")

    def ability(self, meta: Meta, c: Children) -> n.Ability:
        return n.Ability(self._span(meta), self._name(c[0]), c[1].value if c[1] is not None else None)

    def abilities_stmt(self, meta: Meta, c: Children) -> tuple[n.Ability, ...]:
        return tuple(c)

    def named_conquest(self, meta: Meta, c: Children) -> tuple[str, int]:
        return ("conquest", c[0].value)

    def named_def(self, meta: Meta, c: Children) -> n.NamedMonster:
        ident, display, type_, *body = c
        changes, abilities, conquest = [], [], None
        for stmt in body:
            if isinstance(stmt, n.StatChange):
                changes.append(stmt)
            elif isinstance(stmt, tuple) and stmt and stmt[0] == "conquest":
                conquest = stmt[1]
            else:
                abilities.extend(stmt)
        return n.NamedMonster(
            self._span(meta), self._name(ident), display, self._name(type_), tuple(changes), tuple(abilities), conquest
        )

    # ---- effects --------------------------------------------------------------
    def effect_block(self, meta: Meta, c: Children) -> tuple[n.Effect, ...]:
        return tuple(c)

    def conquest_effect(self, meta: Meta, c: Children) -> n.ConquestEffect:
        return n.ConquestEffect(self._span(meta), c[0].value)

    def coins_effect(self, meta: Meta, c: Children) -> n.CoinsEffect:
        return n.CoinsEffect(self._span(meta), c[0].value)

    def treasure_effect(self, meta: Meta, c: Children) -> n.TreasureEffect:
        return n.TreasureEffect(self._span(meta), self._name(c[0]), c[1].value if c[1] is not None else 1)

    def threat_effect(self, meta: Meta, c: Children) -> n.ThreatEffect:
        return n.ThreatEffect(self._span(meta), c[0].value)

    def spawn_effect(self, meta: Meta, c: Children) -> n.SpawnEffect:
        return n.SpawnEffect(self._span(meta), self._name(c[0]), c[1] is not None, tuple(c[2:]))

    def open_effect(self, meta: Meta, c: Children) -> n.DoorEffect:
        return n.DoorEffect(self._span(meta), "open", self._name(c[0]))

    def close_effect(self, meta: Meta, c: Children) -> n.DoorEffect:
        return n.DoorEffect(self._span(meta), "close", self._name(c[0]))

    def unlock_effect(self, meta: Meta, c: Children) -> n.UnlockEffect:
        return n.UnlockEffect(self._span(meta), self._name(c[0]))

    def reveal_effect(self, meta: Meta, c: Children) -> n.RevealEffect:
        return n.RevealEffect(self._span(meta), self._name(c[0]))

    def win_effect(self, meta: Meta, c: Children) -> n.WinEffect:
        return n.WinEffect(self._span(meta), self._name(c[0]))

    def instruct_effect(self, meta: Meta, c: Children) -> n.InstructEffect:
        return n.InstructEffect(self._span(meta), c[0])

    def placed_monster(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"kind": "monster", "type": self._name(c[0]), "master": c[1] is not None}

    def placed_search(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"kind": "search"}

    def placed_villager(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"kind": "villager"}

    def placed_objective(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"kind": "objective", "colour": self._name(c[0])}

    def where_on(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"on": tuple(self._name(t) for t in c)}

    def where_in(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"area": self._name(c[0])}

    def where_at(self, meta: Meta, c: Children) -> PlaceArgs:
        return {"at": tuple(c)}

    def limit(self, meta: Meta, c: Children) -> str | int:
        return "group" if c[0].type == "LIMIT" else c[0].value

    def place_effect(self, meta: Meta, c: Children) -> n.PlaceEffect:
        count, placed, where, limit = c
        return n.PlaceEffect(self._span(meta), count=count, limit=limit, **placed, **where)

    def remove_effect(self, meta: Meta, c: Children) -> n.RemoveEffect:
        return n.RemoveEffect(self._span(meta), self._name(c[0]))

    def replace_effect(self, meta: Meta, c: Children) -> n.ReplaceEffect:
        replacement = c[1]
        return n.ReplaceEffect(self._span(meta), self._name(c[0]), replacement["kind"], replacement.get("colour"))

    def counter_effect(self, meta: Meta, c: Children) -> n.CounterEffect:
        return n.CounterEffect(self._span(meta), self._name(c[0]), c[1].value, c[1].type == "SIGNED")

    def trigger(self, meta: Meta, c: Children) -> n.Trigger:
        return n.Trigger(self._span(meta), str(c[0]), self._name(c[1]), None, c[2])

    def round_trigger(self, meta: Meta, c: Children) -> n.Trigger:
        return n.Trigger(self._span(meta), "round", None, c[1].value, c[2])

    def guard(self, meta: Meta, c: Children) -> n.Condition:
        value: n.Condition = c[0]
        return value

    def recurring(self, meta: Meta, c: Children) -> n.Trigger:
        phase, period, condition, effects = c
        every = " ".join(str(period).split())  # `overlord   turn` is `overlord turn`
        return n.Trigger(
            self._span(meta), "each", None, None, effects, phase=str(phase), every=every, condition=condition
        )

    def counter_def(self, meta: Meta, c: Children) -> n.CounterDef:
        return n.CounterDef(self._span(meta), self._name(c[0]), c[1])

    # ---- chests and the deck plan ---------------------------------------------
    def coins_content(self, meta: Meta, c: Children) -> n.ChestContent:
        return n.ChestContent(self._span(meta), "coins", c[0].value)

    def conquest_content(self, meta: Meta, c: Children) -> n.ChestContent:
        return n.ChestContent(self._span(meta), "conquest", c[0].value)

    def potion_content(self, meta: Meta, c: Children) -> n.ChestContent:
        return n.ChestContent(self._span(meta), "potion", 1, self._name(c[0]))

    def card_content(self, meta: Meta, c: Children) -> n.ChestContent:
        return n.ChestContent(self._span(meta), str(c[0]), c[1].value if c[1] is not None else 1, self._name(c[0]))

    def chest_row(self, meta: Meta, c: Children) -> n.ChestRow:
        return n.ChestRow(self._span(meta), self._name(c[0]), c[1].value, tuple(c[2:]))

    def chests(self, meta: Meta, c: Children) -> n.ChestChart:
        return n.ChestChart(self._span(meta), tuple(c))

    def plan_card(self, meta: Meta, c: Children) -> n.PlanCard:
        token = c[0]
        text = n.Text(token_span(self.file, token), unescape(str(token)[1:-1]))
        return n.PlanCard(self._span(meta), text, self._count(c[1], str(c[1])[1:]) if c[1] is not None else 1)

    def plan_glyph(self, meta: Meta, c: Children) -> n.PlanGlyph:
        return n.PlanGlyph(self._span(meta), self._name(c[0]))

    def overlord(self, meta: Meta, c: Children) -> n.OverlordPlan:
        return n.OverlordPlan(
            self._span(meta),
            tuple(x for x in c if isinstance(x, n.PlanCard)),
            tuple(x for x in c if isinstance(x, n.PlanGlyph)),
        )

    # ---- victory ----------------------------------------------------------------
    def _event(self, meta: Meta, event: str, c: Children) -> n.EventCondition:
        return n.EventCondition(self._span(meta), event, self._name(c[0]))

    def killed_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        return self._event(meta, "killed", c)

    def revealed_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        return self._event(meta, "revealed", c)

    def triggered_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        return self._event(meta, "triggered", c)

    def opened_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        return self._event(meta, "opened", c)

    def conquest_cond(self, meta: Meta, c: Children) -> n.CompareCondition:
        op = str(c[0]) if c[0] is not None else "<="
        return n.CompareCondition(self._span(meta), "conquest", op, c[1].value)

    def round_cond(self, meta: Meta, c: Children) -> n.CompareCondition:
        return n.CompareCondition(self._span(meta), "round", str(c[0]), c[1].value)

    def objectives_cond(self, meta: Meta, c: Children) -> n.CompareCondition:
        op = str(c[0]) if c[0] is not None else ">="
        return n.CompareCondition(self._span(meta), "objectives", op, c[1].value)

    def exited_cond(self, meta: Meta, c: Children) -> n.CompareCondition:
        op = str(c[0]) if c[0] is not None else ">="
        return n.CompareCondition(self._span(meta), "exited", op, c[1].value if c[1] is not None else 1)

    def defeated_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        return self._event(meta, "defeated", c)

    def carried_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        destination = self._name(c[2]) if c[2].type == "NAME" else None
        return n.EventCondition(self._span(meta), "carried", self._name(c[1]), destination)

    def present_cond(self, meta: Meta, c: Children) -> n.EventCondition:
        return n.EventCondition(self._span(meta), str(c[1]), self._name(c[0]), self._name(c[2]))

    def counter_cond(self, meta: Meta, c: Children) -> n.CompareCondition:
        return n.CompareCondition(self._span(meta), str(c[0]), str(c[1]), c[2].value, self._name(c[0]))

    def not_cond(self, meta: Meta, c: Children) -> n.NotCondition:
        return n.NotCondition(self._span(meta), c[0])

    def and_cond(self, meta: Meta, c: Children) -> n.AllCondition:
        return n.AllCondition(self._span(meta), tuple(c))

    def or_cond(self, meta: Meta, c: Children) -> n.AnyCondition:
        return n.AnyCondition(self._span(meta), tuple(c))

    def next_encounter(self, meta: Meta, c: Children) -> n.EncounterNumber:
        return self._encounter_number(c[0])

    def victory(self, meta: Meta, c: Children) -> n.Victory:
        return n.Victory(self._span(meta), self._name(c[0]), c[1], c[2], c[3])

    # ---- the file ----------------------------------------------------------------
    def start(self, meta: Meta, items: Children) -> n.QuestFile:
        header = None
        kept: list[n.Item] = []
        for item in items:
            if isinstance(item, n.Header):
                if header is None:
                    header = item
                    if kept:
                        self._missing_header(kept[0])
                else:
                    key = Span(
                        self.file,
                        item.span.line,
                        item.span.column,
                        item.span.line,
                        item.span.column + 5,
                        item.span.start,
                        item.span.start + 5,
                    )
                    self.diagnostics.append(
                        Q004.at(
                            key,
                            problem="a file holds one quest, but this is a second `quest` header",
                            label="second header",
                            help_text="put each quest in a file of its own",
                            labels=[Label(header.span, "the quest starts here")],
                        )
                    )
                continue
            kept.append(item)
        if header is None and not self.header_written:
            if kept:
                self._missing_header(kept[0])
            else:
                self.diagnostics.append(Q005.at(Span(self.file, 1, 1, 1, 1, 0, 0), label="this file holds no quest"))
        return n.QuestFile(self._span(meta), self.file, header, tuple(kept))

    def _missing_header(self, first: n.Item) -> None:
        span = first.span
        keyword = Span(
            self.file,
            span.line,
            span.column,
            span.line,
            span.column + _keyword_length(first),
            span.start,
            span.start + _keyword_length(first),
        )
        self.diagnostics.append(Q005.at(keyword, label="the file starts here, before any `quest` header"))


def _keyword_length(item: n.Item) -> int:
    if isinstance(item, n.Role):
        return len(item.role)
    if isinstance(item, n.Trigger) and item.event == "each":
        return 2
    return {
        n.Piece: 5,
        n.Door: 4,
        n.Stairs: 6,
        n.Area: 4,
        n.NamedMonster: 5,
        n.Trigger: 2,
        n.ChestChart: 6,
        n.OverlordPlan: 8,
        n.Victory: 7,
        n.CounterDef: 7,
    }.get(type(item), 1)


HEADER_FIELDS = _HEADER_FIELDS
