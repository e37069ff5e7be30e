"""The quest parser's engine: an LALR(1) driver and a contextual lexer over generated tables.

Lark compiles grammar/quest.lark; questc.syntax.make_tables writes what Lark built
(the parse table, each state's terminals in lexing order, how each rule shapes its
node) to questc/syntax/tables.json. This module runs those tables with the behaviour of
Lark's LALR parser (contextual lexer, `propagate_positions`, `maybe_placeholders`), so
trees are the ones Lark would build (tests/test_lalr.py compares them on every quest
and fixture), without importing Lark at run time.

Errors go to an `on_error` handler like Lark's: it gets a SyntaxProblem carrying the
live parser and lexer, may move them (skip input, pop the stack, feed a token) and
returns True to resume or False to give up.
"""
from __future__ import annotations

import re

from questc.paths import data_dir

# ---------------------------------------------------------------------------------
# The tree


class Token(str):
    """A terminal as it appears in the source, with its position (lines and columns 1-based,
    end_pos one past its last character)."""

    def __new__(cls, type, value, start_pos=None, line=None, column=None,
                end_line=None, end_column=None, end_pos=None):
        self = str.__new__(cls, value)
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.end_pos = end_pos
        return self

    def update(self, type=None, value=None) -> Token:
        """A copy at the same place with another type or value."""
        return Token(self.type if type is None else type, self.value if value is None else value,
                     self.start_pos, self.line, self.column, self.end_line, self.end_column, self.end_pos)

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"

    def __reduce__(self):
        return (Token, (self.type, self.value, self.start_pos, self.line, self.column,
                        self.end_line, self.end_column, self.end_pos))


class Meta:
    """Where a node's text lies; `empty` when the node covers no token (an empty rule).

    The container_* fields are the extent of the text the node stood for, which differs
    from its own extent when a `?rule` handed its only child up in its place."""

    __slots__ = ("empty", "line", "column", "start_pos", "end_line", "end_column", "end_pos",
                 "container_line", "container_column", "container_start_pos",
                 "container_end_line", "container_end_column", "container_end_pos")

    def __init__(self):
        self.empty = True
        self.line = None
        self.end_line = None


class Tree:
    __slots__ = ("data", "children", "meta")

    def __init__(self, data: str, children: list, meta: Meta | None = None):
        self.data = data
        self.children = children
        self.meta = Meta() if meta is None else meta

    def __repr__(self) -> str:
        return f"Tree({self.data!r}, {self.children!r})"

    def __eq__(self, other) -> bool:
        return isinstance(other, Tree) and self.data == other.data and self.children == other.children

    __hash__ = None


class Transformer:
    """Rewrites a tree bottom-up: a method named after a rule gets (meta, children), one
    named after a terminal gets the token; nodes without a method are kept as they are."""

    def transform(self, tree: Tree):
        children = []
        for child in tree.children:
            if type(child) is Tree:
                child = self.transform(child)
            elif type(child) is Token:
                method = getattr(self, child.type, None)
                if method is not None:
                    child = method(child)
            children.append(child)
        method = getattr(self, tree.data, None)
        if method is None:
            return Tree(tree.data, children, tree.meta)
        return method(tree.meta, children)


# ---------------------------------------------------------------------------------
# The tables


def grammar_text() -> str:
    global _GRAMMAR
    if _GRAMMAR is None:
        _GRAMMAR = (data_dir("grammar") / "quest.lark").read_text(encoding="utf-8")
    return _GRAMMAR


_GRAMMAR = None
_TABLES = None


def grammar_digest(text: str) -> tuple[int, int]:
    """A cheap fingerprint (length, CRC-32) that tells an edited grammar from its tables.

    Not a defence against tampering, only a staleness check; zlib, unlike hashlib,
    costs nothing to import."""
    import zlib

    data = text.encode("utf-8")
    return len(data), zlib.crc32(data)


class Tables:
    """The generated tables, with the lexers compiled on first use."""

    def __init__(self, source: dict):
        self.start_state = source["START_STATE"]
        self.end_state = source["END_STATE"]
        self.ignore = frozenset(source["IGNORE"])
        self.literals = source["LITERALS"]
        self.rules = source["RULES"]
        self.actions = source["ACTIONS"]
        self.lexer_of_state = source["LEXER_OF_STATE"]
        self._lexer_rows = source["LEXERS"]
        self._root_row = source["ROOT_LEXER"]
        # A state's lexer is compiled when the parse first reaches that state: a file
        # meets a few dozen of the sixty-odd, and each costs a regex compilation.
        self._lexers: list = [None] * len(self._lexer_rows)
        self._root = None

    def lexer(self, index: int):
        lexer = self._lexers[index]
        if lexer is None:
            pattern, unless, _ = self._lexer_rows[index]
            lexer = self._lexers[index] = (re.compile(pattern).match, unless)
        return lexer

    def root_lexer(self):
        if self._root is None:
            pattern, unless, _ = self._root_row
            self._root = (re.compile(pattern).match, unless)
        return self._root

    def lexer_terminals(self, index: int) -> set[str]:
        """The terminals the lexer of one state can produce (its scanner's group names)."""
        return set(self._lexer_rows[index][2])


TABLES_FORMAT = 2   # questc.syntax.make_tables.FORMAT of the tables this module reads


def load_tables() -> Tables:
    """The tables for the packaged grammar: questc/syntax/tables.json, or, when the grammar
    was edited since that file was made, tables built now with Lark."""
    global _TABLES
    if _TABLES is None:
        import json
        from pathlib import Path

        try:
            source = json.loads((Path(__file__).parent / "tables.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):   # pragma: no cover - a checkout before its first generation
            source = {}
        if source.get("FORMAT") != TABLES_FORMAT \
                or tuple(source.get("GRAMMAR", ())) != grammar_digest(grammar_text()):
            from questc.syntax import make_tables
            source = json.loads(make_tables.render(make_tables.build_tables(grammar_text())))
        _TABLES = Tables(source)
    return _TABLES


# ---------------------------------------------------------------------------------
# Errors


class SyntaxProblem(Exception):
    """The parse cannot go on: a character no terminal starts with (`token` is None, the
    character is at `pos`), or a token the grammar does not allow where it stands.

    `parser` and `lexer` are the live parse, for an error handler to repair; `expected`
    the terminals the failing state knows (a superset: ParserState.accepts is exact)."""

    def __init__(self, token: Token | None, pos: int, parser: ParserState, lexer: Lexer,
                 expected: set[str]):
        super().__init__(f"unexpected {'character' if token is None else token.type} at offset {pos}")
        self.token = token
        self.pos = pos
        self.parser = parser
        self.lexer = lexer
        self.expected = expected

    @property
    def state(self) -> int:
        """The parser state the problem arose in."""
        return self.parser.position


# ---------------------------------------------------------------------------------
# The parser


class ParserState:
    """The LALR stacks: states, and the tokens and trees built so far."""

    __slots__ = ("tables", "state_stack", "value_stack", "lexer", "shape")

    def __init__(self, tables: Tables, state_stack: list, value_stack: list, lexer: Lexer | None = None,
                 shape=None):
        self.tables = tables
        self.state_stack = state_stack
        self.value_stack = value_stack
        self.lexer = lexer
        self.shape = _shape if shape is None else shape   # what a reduction builds

    @property
    def position(self) -> int:
        return self.state_stack[-1]

    def copy(self) -> ParserState:
        """A copy to try moves on (the values themselves are shared, not copied)."""
        return ParserState(self.tables, list(self.state_stack), list(self.value_stack), self.lexer, self.shape)

    def feed(self, token: Token, is_end: bool = False):
        """Shift `token`, after the reductions it calls for; with `is_end` (the `$END`
        token), reduce to the end and return the tree. Raises SyntaxProblem."""
        tables = self.tables
        actions, rules = tables.actions, tables.rules
        state_stack, value_stack = self.state_stack, self.value_stack
        kind = token.type
        while True:
            action = actions[state_stack[-1]].get(kind)
            if action is None:
                expected = {s for s in actions[state_stack[-1]] if s.isupper()}
                raise SyntaxProblem(token, token.start_pos or 0, self, self.lexer, expected)
            if action >= 0:
                state_stack.append(action)
                value_stack.append(token)
                return None
            rule = rules[-1 - action]
            size = rule[1]
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            value = self.shape(rule, children)
            state_stack.append(actions[state_stack[-1]][rule[4]])
            value_stack.append(value)
            if is_end and state_stack[-1] == tables.end_state:
                return value_stack[-1]

    def accepts(self) -> set[str]:
        """Exactly the terminals that can come next: each is fed to a copy of the state
        stack that builds no nodes, and kept if it is shifted (or, `$END`, accepted)."""
        accepted = set()
        for kind in self.tables.actions[self.state_stack[-1]]:
            if not kind.isupper():
                continue
            probe = ParserState(self.tables, list(self.state_stack), [None] * len(self.value_stack),
                                shape=_no_node)
            try:
                probe.feed(Token(kind, ""), is_end=kind == "$END")
            except SyntaxProblem:
                continue
            accepted.add(kind)
        return accepted


def _no_node(rule, children: list) -> None:
    return None


def _shape(rule, children: list):
    """The node a rule builds from its children, as Lark's tree builder would make it:
    anonymous tokens dropped, `_rules` spliced in, `[optional]` parts that are absent
    as None, a `?rule` with one child replaced by it, and positions propagated."""
    plan = rule[3]
    if plan is None:
        kept = list(children)
    else:
        include, append_none = plan
        kept = []
        for index, splice, nones in include:
            if nones:
                kept.extend([None] * nones)
            if splice:
                if kept:
                    kept.extend(children[index].children)
                else:   # take over the list: a repetition `x*` grows one list, not n copies
                    kept = children[index].children
            else:
                kept.append(children[index])
        if append_none:
            kept.extend([None] * append_none)
    if rule[2] and len(kept) == 1:
        node = kept[0]
        if type(node) is not Tree:
            return node
    else:
        node = Tree(rule[0], kept)
    _propagate(node.meta, children)
    return node


def _propagate(meta: Meta, children: list) -> None:
    first = last = None
    for child in children:
        if type(child) is Tree:
            if not child.meta.empty:
                first = child.meta
                break
        elif type(child) is Token:
            first = child
            break
    if first is None:
        return
    for child in reversed(children):
        if type(child) is Tree:
            if not child.meta.empty:
                last = child.meta
                break
        elif type(child) is Token:
            last = child
            break
    if type(first) is Token:
        line, column, start = first.line, first.column, first.start_pos
    else:
        line, column, start = first.container_line, first.container_column, first.container_start_pos
    if type(last) is Token:
        end_line, end_column, end = last.end_line, last.end_column, last.end_pos
    else:
        end_line, end_column, end = last.container_end_line, last.container_end_column, last.container_end_pos
    if meta.line is None:
        meta.line, meta.column, meta.start_pos = line, column, start
        meta.empty = False
    meta.container_line, meta.container_column, meta.container_start_pos = line, column, start
    if meta.end_line is None:
        meta.end_line, meta.end_column, meta.end_pos = end_line, end_column, end
        meta.empty = False
    meta.container_end_line, meta.container_end_column, meta.container_end_pos = end_line, end_column, end


# ---------------------------------------------------------------------------------
# The lexer


class Lexer:
    """Reads tokens from the text, each with the lexer of the parser's current state."""

    __slots__ = ("tables", "text", "pos", "line", "line_start", "last_token")

    def __init__(self, tables: Tables, text: str):
        self.tables = tables
        self.text = text
        self.pos = 0
        self.line = 1
        self.line_start = 0
        self.last_token: Token | None = None

    def skip_to(self, to: int) -> None:
        """Move on to offset `to`, dropping the text before it (line counting kept)."""
        if to > self.pos:
            self._advance(self.text[self.pos:to])

    def _advance(self, value: str) -> None:
        """Move past `value`, the text at the current offset, counting its lines."""
        newlines = value.count("\n")
        if newlines:
            self.line += newlines
            self.line_start = self.pos + value.rindex("\n") + 1
        self.pos += len(value)

    def _read(self, match, unless):
        """One token with the given scanner, ignored ones skipped: a Token, None at the end
        of the text, or False when nothing matches."""
        text, ignore = self.text, self.tables.ignore
        while self.pos < len(text):
            found = match(text, self.pos)
            if found is None:
                return False
            kind, value = found.lastgroup, found.group()
            keywords = unless.get(kind)
            if keywords is not None:
                kind = keywords.get(value, kind)
            start, line, column = self.pos, self.line, self.pos - self.line_start + 1
            self._advance(value)
            if kind in ignore:
                continue
            token = Token(kind, value, start, line, column, self.line, self.pos - self.line_start + 1, self.pos)
            self.last_token = token
            return token
        return None

    def next_token(self, parser: ParserState) -> Token | None:
        """The next token for the parser's state, or None at the end of the text."""
        tables = self.tables
        index = tables.lexer_of_state[parser.state_stack[-1]]
        match, unless = tables.lexer(index)
        token = self._read(match, unless)
        if token is not False:
            return token
        # Nothing this state expects starts here. Like Lark's contextual lexer, read the
        # text with every terminal: a token the grammar knows is reported as out of
        # place (consumed, so the handler sees it), anything else as a bad character.
        pos = self.pos
        expected = tables.lexer_terminals(index) - tables.ignore
        root_match, root_unless = tables.root_lexer()
        token = self._read(root_match, root_unless)
        if token:
            raise SyntaxProblem(token, token.start_pos, parser, self, expected)
        raise SyntaxProblem(None, pos, parser, self, expected)


# ---------------------------------------------------------------------------------
# Parsing


def _parse_from(parser: ParserState, lexer: Lexer, last_token: Token | None):
    token = last_token
    while True:
        next_token = lexer.next_token(parser)
        if next_token is None:
            break
        token = next_token
        parser.feed(token)
    if token is not None:
        end = Token("$END", "", token.start_pos, token.line, token.column,
                    token.end_line, token.end_column, token.end_pos)
    else:
        end = Token("$END", "", 0, 1, 1)
    return parser.feed(end, is_end=True)


def parse(text: str, on_error=None) -> Tree:
    """The tree of `text`. Without `on_error`, the first problem raises SyntaxProblem;
    with it, each problem is handed to on_error(problem), which repairs the parse and
    returns True to go on (a bad character it did not skip is skipped), or False to
    give up (the problem is raised)."""
    tables = load_tables()
    lexer = Lexer(tables, text)
    parser = ParserState(tables, [tables.start_state], [], lexer)
    try:
        return _parse_from(parser, lexer, None)
    except SyntaxProblem as first:
        if on_error is None:
            raise
        problem = first
    while True:
        at = lexer.pos
        if not on_error(problem):
            raise problem
        if problem.token is None and lexer.pos == at:
            lexer.skip_to(at + 1)
        try:
            return _parse_from(parser, lexer, lexer.last_token)
        except SyntaxProblem as again:
            if problem.token is not None and again.token is not None \
                    and problem.token.type == again.token.type == "$END":
                raise again from None   # the end of the text, twice: nothing left to repair
            problem = again
