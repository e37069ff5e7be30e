"""A parsed quest (syntax tree + comments + source) in; its text in the canonical layout out.

The layout: two-space indents; one statement per line; every block expanded
(`{` ends its line, `}` stands alone); header fields in the order of LANGUAGE.md §3;
top-level statements in source order, with a blank line between groups (a run of
pieces, of doors, of stairs, of victories; each block statement is a group of its
own) and wherever the writer left one (several blank lines become one); strings
re-quoted canonically; triple-quoted strings opened at the end of their line, their
text indented one level deeper and closed on a line of their own.

Comments stay with the statement they belong to: an own-line comment with the
statement after it (it moves with it when header fields are reordered), a trailing
comment at the end of its statement's line (for a block: after `{` if it was
written there, else after the closing `}`), and comments before a `}` at the end of
that block. Nothing here decides meaning: the caller checks that the text printed
parses back to the same tree.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from questc.diagnostics.core import Span
from questc.syntax import nodes as n
from questc.syntax.transform import HEADER_FIELDS


class _Spanned(Protocol):
    """A syntax node: every node has its span."""

    @property
    def span(self) -> Span: ...


INDENT = "  "
_LONG_CLOSE = re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.S)
_SHORT_CLOSE = re.compile(r'(?:[^"\\\n]|\\.)*"')
_SINGLE_LINE = (n.Piece, n.Door, n.Stairs, n.Victory, n.Role, n.CounterDef)  # kinds that group; the rest are blocks


def _pad(depth: int) -> str:
    return INDENT * depth


# ---- strings ------------------------------------------------------------------------


def quote_short(value: str) -> str:
    """A one-line string literal whose value (after the language's escapes) is `value`.

    A backslash is doubled only where it would otherwise start an escape (before
    `"`, `\\`, `n`, a line break, or at the end), so `\\t` a writer typed stays as written.
    """
    out = []
    for i, ch in enumerate(value):
        following = value[i + 1] if i + 1 < len(value) else ""
        if ch == "\\":
            out.append("\\\\" if following in ('"', "\\", "n", "\n", "") else "\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def _escape_long(value: str) -> str:
    """The body of a triple-quoted literal for `value`: quotes escaped only where three would close it."""
    out = []
    for i, ch in enumerate(value):
        following = value[i + 1] if i + 1 < len(value) else ""
        if ch == "\\":
            out.append("\\\\" if following in ('"', "\\", "n") else "\\")
        elif ch == '"' and value.startswith('""', i + 1):
            out.append('\\"')
        else:
            out.append(ch)
    return "".join(out)


def quote_long(value: str, depth: int) -> str:
    """A triple-quoted literal for `value`, for a statement at `depth`: text lines one level deeper.

    The parser drops the first line break, removes the common indentation and the
    closing line's indentation, so the value comes back unchanged.
    """
    lines = _escape_long(value).split("\n")
    body = "\n".join(_pad(depth + 1) + line if line.strip() else "" for line in lines)
    return '"""\n' + body + "\n" + _pad(depth) + '"""'


# ---- comments and the masked source -----------------------------------------------


@dataclass
class _Comment:
    start: int
    end: int
    line: int
    text: str
    own_line: bool
    claimed: bool = False


def _masked(text: str) -> str:
    """The source with every string and comment blanked (line breaks kept), so searching it for `{`,
    `}` or a keyword never finds one inside text."""
    chars = list(text)
    i = 0

    def blank(a: int, b: int) -> None:
        for k in range(a, b):
            if chars[k] != "\n":
                chars[k] = " "

    while i < len(text):
        if text.startswith('"""', i):
            close = _LONG_CLOSE.match(text, i + 3)
            end = close.end() if close else len(text)
            blank(i, end)
            i = end
        elif text[i] == '"':
            close = _SHORT_CLOSE.match(text, i + 1)
            end = close.end() if close else i + 1
            blank(i, end)
            i = end
        elif text[i] == "#":
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            blank(i, end)
            i = end
        else:
            i += 1
    return "".join(chars)


@dataclass
class _Child:
    """One statement of a block, in source order: where it is and how to print it at a depth."""

    start: int
    end: int
    render: Callable[..., list[str]]  # depth -> list of physical lines
    key: str | None = None  # the header field's keyword, the top-level kind


@dataclass
class _Group:
    """A child printed: its leading comments (with blank-line flags), its lines, and whether a blank
    line stood before it in the source."""

    comments: list[tuple[bool, str]]  # (a blank line before it, its text)
    blank: bool
    lines: list[str]
    key: str | None = None
    gap: bool = False  # a blank line between the last leading comment and the statement


class Printer:
    """Prints one QuestFile; `source` must be the text it was parsed from (byte-order mark removed)."""

    def __init__(self, source: str, comments: Iterable[tuple[Span, str]]) -> None:
        self.text = source
        self.masked = _masked(source)
        self.comments = []
        for span, text in comments:
            before = source[source.rfind("\n", 0, span.start) + 1 : span.start]
            self.comments.append(_Comment(span.start, span.end, span.line, text.rstrip(), not before.strip()))

    # -- comments -------------------------------------------------------------------
    def _take_before(self, upto: int) -> list[_Comment]:
        """Unclaimed comments before `upto`, claimed. Own-line comments normally; a trailing comment
        nobody claimed (a place this printer does not foresee) is kept too, on a line of its own."""
        found = [c for c in self.comments if not c.claimed and c.start < upto]
        for c in found:
            c.claimed = True
        return found

    def _trailing(self, end: int) -> _Comment | None:
        """The comment on the line where a statement ends at `end`, if only spaces or `;` come between."""
        for c in self.comments:
            if not c.claimed and c.start >= end and not self.masked[end : c.start].strip(" \t;\r"):
                c.claimed = True
                return c
            if c.start >= end:
                break
        return None

    def _blank(self, a: int, b: int) -> bool:
        """Whether the source has a blank line between offsets a and b."""
        return re.search(r"\n[ \t\r]*\n", self.text[a:b]) is not None

    def unclaimed(self) -> list[str]:
        return [c.text for c in self.comments if not c.claimed]

    # -- blocks -----------------------------------------------------------------------
    def _groups(self, children: list[_Child], depth: int, after: int) -> tuple[list[_Group], int]:
        """Print `children` (source order) at `depth`, each with its comments; the offset after the last."""
        groups, prev = [], after
        for child in children:
            leading = []
            for c in self._take_before(child.start):
                leading.append((self._blank(prev, c.start), c.text))
                prev = c.end
            blank = self._blank(prev, child.start)
            lines = child.render(depth)
            trailing = self._trailing(child.end)
            if trailing is not None:
                lines[-1] += "  " + trailing.text
                prev = trailing.end
            else:
                prev = child.end
            gap = False
            if leading:  # the blank line before the group is the one before its first comment
                gap, blank, leading[0] = blank, leading[0][0], (False, leading[0][1])
            groups.append(_Group(leading, blank, lines, child.key, gap))
        return groups, prev

    @staticmethod
    def _lay_out(groups: list[_Group], depth: int, keep_blanks: bool = True) -> list[str]:
        out: list[str] = []
        for number, group in enumerate(groups):
            if number and keep_blanks and group.blank:
                out.append("")
            for blank, text in group.comments:
                if blank and keep_blanks:
                    out.append("")
                out.append(_pad(depth) + text)
            if group.gap and keep_blanks:
                out.append("")
            out += group.lines
        return out

    def block(
        self,
        node: _Spanned,
        head: str,
        children: list[_Child],
        depth: int,
        reorder: Callable[[list[_Group]], list[_Group]] | None = None,
    ) -> list[str]:
        """`head {`, the children one level deeper, `}`; `reorder` sorts the printed groups (header)."""
        open_at = self.masked.index("{", node.span.start)
        close_at = node.span.end - 1
        assert self.masked[close_at] == "}", "a block's span ends at its closing brace"
        first = _pad(depth) + head + " {"
        opener = self._trailing(open_at + 1)
        groups, prev = self._groups(children, depth + 1, open_at + 1)
        tail = []
        for c in self._take_before(close_at):
            tail.append((self._blank(prev, c.start), c.text))
            prev = c.end
        if opener is None and not groups and not tail:
            return [first + "}"]
        lines = [first + ("  " + opener.text if opener else "")]
        if reorder is not None:
            groups = reorder(groups)
            lines += self._lay_out(groups, depth + 1, keep_blanks=False)
        else:
            lines += self._lay_out(groups, depth + 1)
        for number, (blank, text) in enumerate(tail):
            if blank and (groups or number):
                lines.append("")
            lines.append(_pad(depth + 1) + text)
        lines.append(_pad(depth) + "}")
        return lines

    # -- the file -----------------------------------------------------------------------
    def file(self, quest: n.QuestFile) -> str:
        children = []
        if quest.header is not None:
            children.append(
                _Child(
                    quest.header.span.start,
                    quest.header.span.end,
                    lambda d, h=quest.header: self.header(h, d),
                    "header",
                )
            )
        for item in quest.items:
            key = type(item).__name__ if isinstance(item, _SINGLE_LINE) else None
            children.append(_Child(item.span.start, item.span.end, lambda d, i=item: self.item(i, d), key))
        children.sort(key=lambda c: c.start)
        groups, prev = self._groups(children, 0, 0)
        out: list[str] = []
        for number, group in enumerate(groups):
            previous = groups[number - 1] if number else None
            if previous is not None and (group.blank or group.key is None or group.key != previous.key):
                out.append("")
            for blank, text in group.comments:
                if blank and (number or out):
                    out.append("")
                out.append(text)
            if group.gap:
                out.append("")
            out += group.lines
        for blank, text in [(self._blank(prev, c.start), c.text) for c in self._take_before(len(self.text) + 1)]:
            if blank and out:
                out.append("")
            out.append(text)
        return "\n".join(out) + "\n" if out else ""

    def item(self, item: n.Item, depth: int) -> list[str]:
        if isinstance(item, n.Area):
            return self.area(item, depth)
        if isinstance(item, n.NamedMonster):
            return self.named(item, depth)
        if isinstance(item, n.Trigger):
            if item.event == "each":
                head = f"at {item.phase} of each {item.every}"
                if item.condition is not None:
                    head += f" if {condition(item.condition)}"
            else:
                head = f"on round {item.round}" if item.event == "round" else f"on {item.event} {_word(item.target)}"
            return self.block(item, head, self._effects(item.effects), depth)
        if isinstance(item, n.ChestChart):
            return self.block(item, "chests", [self._line(row, self.chest_row(row)) for row in item.rows], depth)
        if isinstance(item, n.OverlordPlan):
            entries = sorted(item.cards + item.glyphs, key=lambda e: e.span.start)
            return self.block(item, "overlord", [self._line(e, self.plan_entry(e)) for e in entries], depth)
        return self._print(self.simple(item, depth), depth)

    @staticmethod
    def _print(statement: str, depth: int) -> list[str]:
        return (_pad(depth) + statement).split("\n")

    def _line(self, node: _Spanned, statement_at: Callable[..., str]) -> _Child:  # (depth -> the statement)
        """A child printed by `statement_at(depth) -> str` (one statement, maybe a long string in it)."""
        return _Child(node.span.start, node.span.end, lambda d: self._print(statement_at(d), d))

    # -- the header ---------------------------------------------------------------------
    def header(self, header: n.Header, depth: int) -> list[str]:
        order = {keyword: number for number, keyword in enumerate(HEADER_FIELDS)}
        children = [
            _Child(f.span.start, f.span.end, lambda d, f=f: self._print(self.header_field(f, d), d), f.keyword)
            for f in header.fields
        ]

        def reorder(groups: list[_Group]) -> list[_Group]:
            return sorted(groups, key=lambda g: order.get(g.key or "", len(order)))

        return self.block(header, f"quest {self.text_value(header.title, depth)}", children, depth, reorder)

    def header_field(self, f: n.HeaderField, depth: int) -> str:
        value = f.value
        if isinstance(value, n.Name):  # id, edition, reveal, part_of
            shown = value.value
        elif isinstance(value, n.CountRange):  # players
            shown = count_range(value)
        elif isinstance(value, int):  # conquest, act
            shown = str(value)
        elif isinstance(value, n.EncounterNumber):  # encounter
            shown = value.label
        elif isinstance(value, n.Text):  # author, version, intro, special, use
            shown = self.text_value(value, depth)
        else:  # expansions, traits (names), treachery (parts)
            shown = ", ".join(
                f"{part.colour.value} {part.amount}" if isinstance(part, n.TreacheryPart) else part.value
                for part in value
            )
        return f"{f.keyword} {shown}"

    # -- areas ------------------------------------------------------------------------------
    def area(self, area: n.Area, depth: int) -> list[str]:
        head = f"area {area.id.value}"
        if area.name is not None:
            head += " " + self.text_value(area.name, depth)
        if area.start:
            head += " start"
        children = []
        for statement in area.statements:
            if isinstance(statement, n.Encounter):
                children.append(
                    _Child(
                        statement.span.start,
                        statement.span.end,
                        lambda d, s=statement: self.block(
                            s,
                            f"encounter {s.id.value}{self._shown(s, d)} at {point(s.at)}",
                            self._effects(s.effects),
                            d,
                        ),
                    )
                )
            elif isinstance(statement, n.Group) and statement.changes:
                children.append(
                    _Child(
                        statement.span.start,
                        statement.span.end,
                        lambda d, s=statement: self.block(
                            s, group_head(s), [self._line(c, lambda _d, c=c: group_change(c)) for c in s.changes], d
                        ),
                    )
                )
            else:
                children.append(self._line(statement, lambda d, s=statement: self.simple(s, d)))
        return self.block(area, head, children, depth)

    def _effects(self, effects: Iterable[n.Effect]) -> list[_Child]:
        return [self._line(e, lambda d, e=e: self.simple(e, d)) for e in effects]

    # -- named monsters ------------------------------------------------------------------------
    def named(self, named: n.NamedMonster, depth: int) -> list[str]:
        head = f"named {named.id.value} {self.text_value(named.display, depth)} {named.type.value}"
        open_at = self.masked.index("{", named.span.start)
        close_at = named.span.end - 1
        children = [self._line(change, lambda d, c=change: stat_change(c)) for change in named.changes]
        # The tree flattens `abilities` lines into one list; find each line's own abilities again so
        # that its comments stay with it (two abilities share a statement when only `,` is between).
        statements: list[list[n.Ability]] = []
        for ability in named.abilities:
            if (
                statements
                and not self.masked[statements[-1][-1].span.end : ability.span.start]
                .replace(",", "")
                .replace("\\\n", "")
                .strip()
            ):
                statements[-1].append(ability)
            else:
                statements.append([ability])
        for group in statements:
            start = self.masked.rfind("abilities", open_at, group[0].span.start)
            text = "abilities " + ", ".join(ability_text(a) for a in group)
            children.append(
                _Child(
                    start if start >= 0 else group[0].span.start,
                    group[-1].span.end,
                    lambda d, t=text: self._print(t, d),
                )
            )
        if named.conquest is not None:
            found = list(re.finditer(r"\bconquest\s+[0-9]+", self.masked[open_at:close_at]))
            start, end = (open_at + found[-1].start(), open_at + found[-1].end()) if found else (close_at, close_at)
            children.append(_Child(start, end, lambda d, v=named.conquest: self._print(f"conquest {v}", d)))
        children.sort(key=lambda c: c.start)
        return self.block(named, head, children, depth)

    # -- statements on one line ------------------------------------------------------------
    def _shown(self, s: object, depth: int) -> str:
        """A door's, stairs', relic's or encounter's name for players, with its leading space ('' if none)."""
        display = getattr(s, "display", None)
        return f" {self.text_value(display, depth)}" if display is not None else ""

    def text_value(self, text: n.Text, depth: int) -> str:
        return quote_long(text.value, depth) if text.long else quote_short(text.value)

    def chest_row(self, row: n.ChestRow) -> Callable[[int], str]:
        def at(depth: int) -> str:
            return f"{row.kind.value} {row.number}: " + ", ".join(chest_content(c) for c in row.contents)

        return at

    def plan_entry(self, entry: n.PlanCard | n.PlanGlyph) -> Callable[[int], str]:
        def at(depth: int) -> str:
            if isinstance(entry, n.PlanCard):
                return f"card {quote_short(entry.name.value)}" + (f" x{entry.copies}" if entry.copies != 1 else "")
            return f"dark_glyph {entry.name.value}"

        return at

    def simple(self, s: Any, depth: int) -> str:  # (any statement not a block: tested by type below)
        """One statement that is not a block, as text (a long string in it spans lines)."""
        t = self.text_value
        if isinstance(s, n.Piece):
            return f"piece {s.id.value} {s.type.value} at {point(s.at)}" + (f" turn {s.turn}" if s.turn else "")
        if isinstance(s, n.Door):
            if s.between is not None:
                where = f"between {s.between[0].value} {s.between[1].value}"
            else:
                assert s.at is not None  # the grammar: `between A B` or `at X,Y SIDE`
                where = f"at {point(s.at)} {_word(s.side)}"
            return f"door {s.id.value}{self._shown(s, depth)} {where}" + (
                f" rune {s.rune.value}" if s.rune is not None else ""
            )
        if isinstance(s, n.Stairs):
            return f"stairs {s.colour.value}{self._shown(s, depth)} at {point(s.ends[0])} {point(s.ends[1])}"
        if isinstance(s, n.Victory):
            label = f" {t(s.label, depth)}" if s.label is not None else ""
            then = f" then encounter {s.next.label}" if s.next is not None else ""
            return f"victory {s.side.value}{label} when {condition(s.when)}{then}"
        if isinstance(s, n.Role):
            return f"{s.role} " + ", ".join(p.value for p in s.pieces)
        if isinstance(s, n.CounterDef):
            return f"counter {s.id.value}{self._shown(s, depth)}"
        if isinstance(s, n.Group):
            return group_head(s)
        if isinstance(s, n.Pieces):
            return "pieces " + ", ".join(p.value for p in s.pieces)
        if isinstance(s, n.Cells):
            return "cells " + " ".join(cells(c) for c in s.cells)
        if isinstance(s, n.Read):
            return f"read {t(s.text, depth)}"
        if isinstance(s, n.Note):
            return f"note {t(s.text, depth)}"
        if isinstance(s, n.Glyph):
            return f"glyph at {point(s.at)}" + (" active" if s.active else "")
        if isinstance(s, n.Monster):
            text = f"monster {s.type.value}" + (" master" if s.master else "") + " at " + points(s.at)
            if s.facing is not None:
                text += f" facing {s.facing.value}"
            if s.players is not None:
                text += f" players {count_range(s.players)}"
            return text
        if isinstance(s, n.PlaceNamed):
            return f"named {s.id.value} at {point(s.at)}" + (f" facing {s.facing.value}" if s.facing else "")
        if isinstance(s, n.Chest):
            return f"chest {s.kind.value} at {points(s.at)}"
        if isinstance(s, n.Obstacle):
            return f"obstacle {s.kind.value} at " + " ".join(cells(c) for c in s.at)
        if isinstance(s, n.Trap):
            return f"trap {s.kind.value} at {points(s.at)}" + (f" facing {s.facing.value}" if s.facing else "")
        if isinstance(s, n.Treasure):
            return f"treasure {s.kind.value} at {points(s.at)}"
        if isinstance(s, n.Relic):
            return f"relic {s.name.value}{self._shown(s, depth)} at {point(s.at)}"
        if isinstance(s, n.Runekey):
            return f"runekey {s.colour.value} at {point(s.at)}"
        if isinstance(s, n.Token):
            head = s.kind + (f" {s.colour.value}" if s.colour is not None else "")
            if s.id is not None:
                head += f" {s.id.value}{self._shown(s, depth)}"
            if s.placement == "carried":
                return f"{head} carried"
            if s.placement == "on":
                where = "on " + ", ".join(p.value for p in s.on)
            else:
                where = f"{s.placement} {points(s.at)}"
            return f"{head} {where}" + (f" count {amount(s.count)}" if s.count is not None else "")
        if isinstance(s, n.Lieutenant):
            if s.at is None:
                return f"lieutenant {s.name.value} on " + ", ".join(p.value for p in s.on)
            return f"lieutenant {s.name.value} at {point(s.at)}" + (f" facing {s.facing.value}" if s.facing else "")
        if isinstance(s, n.HeroStart):
            return f"start at {points(s.at)}"
        if isinstance(s, n.ConquestEffect):
            return f"conquest {signed(s.amount)}"
        if isinstance(s, n.CoinsEffect):
            return f"coins {s.amount}"
        if isinstance(s, n.TreasureEffect):
            return f"treasure {s.kind.value}" + (f" {s.count}" if s.count != 1 else "")
        if isinstance(s, n.ThreatEffect):
            return f"threat {s.amount}"
        if isinstance(s, n.SpawnEffect):
            return f"spawn {s.type.value}" + (" master" if s.master else "") + f" at {points(s.at)}"
        if isinstance(s, n.DoorEffect):
            return f"{s.action} {s.door.value}"
        if isinstance(s, n.UnlockEffect):
            return f"unlock {s.colour.value}"
        if isinstance(s, n.RevealEffect):
            return f"reveal {s.area.value}"
        if isinstance(s, n.WinEffect):
            return f"win {s.side.value}"
        if isinstance(s, n.InstructEffect):
            return f"instruct {t(s.text, depth)}"
        if isinstance(s, n.PlaceEffect):
            text = "place" + (f" {amount(s.count)}" if s.count is not None else "")
            if s.kind == "monster":
                text += f" {_word(s.type)}" + (" master" if s.master else "")
            else:
                text += f" {s.kind}" + (f" {s.colour.value}" if s.colour is not None else "")
            if s.on:
                text += " on " + ", ".join(p.value for p in s.on)
            elif s.area is not None:
                text += f" in {s.area.value}"
            else:
                text += f" at {points(s.at)}"
            if s.limit is not None:
                text += " up to " + ("limit" if s.limit == "group" else str(s.limit))
            return text
        if isinstance(s, n.RemoveEffect):
            return f"remove {s.target.value}"
        if isinstance(s, n.ReplaceEffect):
            return f"replace {s.target.value} with {s.kind}" + (f" {s.colour.value}" if s.colour is not None else "")
        if isinstance(s, n.CounterEffect):
            return f"{s.counter.value} {signed(s.amount) if s.relative else s.amount}"
        raise TypeError(f"the formatter does not know the statement {type(s).__name__}")


# ---- values ----------------------------------------------------------------------------


def point(p: n.PointRef) -> str:
    return (f"{p.piece.value}:" if p.piece is not None else "") + f"{p.x},{p.y}"


def points(ps: Iterable[n.PointRef]) -> str:
    return " ".join(point(p) for p in ps)


def cells(c: n.CellSet) -> str:
    if c.is_rect:
        return f"{c.x1},{c.y1}..{c.x2},{c.y2}"
    return (f"{c.piece.value}:" if c.piece is not None else "") + f"{c.x1},{c.y1}"


def amount(a: n.Amount) -> str:
    """`3`, `heroes`, `heroes +1`."""
    if not a.heroes:
        return str(a.amount)
    return "heroes" + (f" {signed(a.amount)}" if a.amount else "")


def group_head(s: n.Group) -> str:
    """A group's statement without its block of changes."""
    text = ("open group" + (f" {s.id.value}" if s.id is not None else "")) if s.open else f"group {_word(s.type)}"
    if s.on:
        text += " on " + ", ".join(p.value for p in s.on)
    if s.minions is not None:
        text += f" minions {amount(s.minions)}"
    if s.masters is not None:
        text += f" masters {amount(s.masters)}"
    return text


def group_change(c: n.GroupChange) -> str:
    return f"{c.who} {signed(c.amount) if c.relative else c.amount} {c.stat.value}"


def count_range(r: n.CountRange) -> str:
    return str(r.low) if r.low == r.high else f"{r.low}..{r.high}"


def signed(value: int) -> str:
    return f"+{value}" if value >= 0 else str(value)


def stat_change(c: n.StatChange) -> str:
    return f"{c.stat} {signed(c.value) if c.relative else c.value}"


def ability_text(a: n.Ability) -> str:
    return a.name.value + (f" {a.rank}" if a.rank is not None else "")


def chest_content(c: n.ChestContent) -> str:
    if c.kind in ("coins", "conquest"):
        return f"{c.kind} {c.amount}"
    if c.kind == "potion":
        return f"potion {_word(c.name)}"
    return c.kind + (f" {c.amount}" if c.amount != 1 else "")


def condition(c: n.Condition, inside: str | None = None) -> str:
    """A victory condition with the parentheses its tree needs, and no others.

    `or` operands that are themselves `or`s (and `and` operands that are `and`s or
    `or`s) were written in parentheses, or the parser would have flattened them.
    """
    if isinstance(c, n.AnyCondition):
        return " or ".join(_wrapped(o, (n.AnyCondition,)) for o in c.operands)
    if isinstance(c, n.AllCondition):
        return " and ".join(_wrapped(o, (n.AnyCondition, n.AllCondition)) for o in c.operands)
    if isinstance(c, n.NotCondition):
        return "not " + _wrapped(c.operand, (n.AnyCondition, n.AllCondition))
    if isinstance(c, n.EventCondition):
        if c.event == "carried":
            return f"carried {c.target.value} to " + (c.destination.value if c.destination is not None else "edge")
        if c.event in ("on", "in") and c.destination is not None:
            return f"{c.target.value} {c.event} {c.destination.value}"
        return f"{c.event} {c.target.value}"
    if isinstance(c, n.CompareCondition):
        if c.counter == "conquest" and c.op == "<=" and c.value == 0:
            return "conquest 0"
        # The short forms of the second edition counters: `objectives 3` (at least 3), `exited`.
        if c.counter == "objectives" and c.op == ">=":
            return f"objectives {c.value}"
        if c.counter == "exited" and c.op == ">=":
            return "exited" if c.value == 1 else f"exited {c.value}"
        return f"{c.counter} {c.op} {c.value}"
    raise TypeError(f"the formatter does not know the condition {type(c).__name__}")


def _wrapped(c: n.Condition, kinds: tuple[type, ...]) -> str:
    return f"({condition(c)})" if isinstance(c, kinds) else condition(c)


def _word(name: n.Name | None) -> str:
    """A name the grammar requires where this is called (a statement without it does not parse)."""
    assert name is not None
    return name.value
