"""Quest source text -> a QuestFile syntax tree and the syntax diagnostics (Q001-Q006).

The grammar (grammar/quest.lark) is LALR(1) with Lark's contextual lexer; Lark parses
with `propagate_positions`, its tables cached in questc's per-user cache folder. Parse
errors are recovered in panic mode through Lark's `on_error` and interactive parser:
report the error, skip to the end of the statement, unwind the parser to where a
statement may end, and go on, so one run reports several independent syntax errors
and no cascade.
"""

from __future__ import annotations

import copy
import importlib
import io
import pickle  # Lark imports it too
import re
import sys
import types
import zlib
from bisect import bisect_right
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.parsers.lalr_interactive_parser import InteractiveParser

from questc.diagnostics.core import Applicability, Diagnostic, Edit, Fix, Label, Span
from questc.paths import cache_dir, data_dir, write_cache
from questc.records import record
from questc.syntax.codes import Q001, Q002, Q003, Q004, Q006
from questc.syntax.nodes import QuestFile
from questc.syntax.transform import HEADER_FIELDS, ToNodes, token_span
from questc.words import noun

# Words for the grammar's terminals, as a quest writer would say them.
_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "SIGNED": "a signed number like +2",
    "POINT": "a point like 4,2",
    "PIECE_POINT": "a point like R1:2,3",
    "RECT": "a rectangle like 2,3..4,5",
    "RANGE": "a range like 2..5",
    "STRING": "a string in quotes",
    "LONG_STRING": "a string in quotes",
    "_NL": "the end of the statement",
    "$END": "the end of the file",
    "DIRECTION": "a direction (north, east, south or west)",
    "REVEAL_MODE": "`sight` or `door`",
    "STAT": "a statistic (wounds, armor, speed or damage)",
    "SIDE": "`heroes` or `overlord`",
    "COMPARE": "a comparison (<, <=, =, >= or >)",
    "TRIGGER_EVENT": "`reveal`, `killed` or `open`",
    "COPIES": "a number of copies like x2",
    "ALTERNATIVE": "an encounter like 2a",
    "ROLE": "`entrance` or `exit`",
    "PHASE": "`start` or `end`",
    "PERIOD": "`round`, `overlord turn` or `hero turn`",
    "WHO": "`all`, `minions` or `master`",
    "HEROES": "`heroes`",
    "PLACE_WORD": "`on` or `in`",
}
# Terminals that stand for the same thing to a writer; the first one is named.
_SAME = {
    "LONG_STRING": "STRING",
    "UNCLOSED_STRING": "STRING",
    "UNCLOSED_LONG_STRING": "STRING",
    "PIECE_POINT": "POINT",
    "RECT": "POINT",
}
# Further names to the end of a statement (`C2 C3` in `pieces C1 C2 C3`), for the comma fix.
_MORE_NAMES = re.compile(r"(?P<names>(?:[ \t]+[A-Za-z_][A-Za-z0-9_]*)*)[ \t]*(?=$|[;}#\r\n])")
_TOP_LEVEL = re.compile(
    r"^(quest|piece|door|stairs|area|named|on|chests|overlord|victory|entrance|exit|counter|at)\b", re.M
)
_MALFORMED_NUMBER = re.compile(r"[+-]?[0-9][0-9,.:+-]*|[A-Za-z_][A-Za-z0-9_]*:[0-9,.:+-]*")


@record
class ParseResult:
    """A parse: the syntax tree (None when the text could not be read), its diagnostics and its comments."""

    tree: QuestFile | None
    diagnostics: tuple[Diagnostic, ...]
    comments: tuple[tuple[Span, str], ...]  # (Span, text) of every comment, for the formatter


# A help line and the fixes that go with it.
Hint = tuple[str, tuple[Fix, ...]]

__all__ = [
    "ParseResult",
    "parse_source",
    "grammar_text",
    "describe_expected",
    "quest_parser",
    "parser_cache_name",
    "pickled_parser",
]

# Lark's options for the quest grammar; the tests build it again with strict=True.
LARK_OPTIONS: dict[str, Any] = {
    "parser": "lalr",
    "lexer": "contextual",
    "propagate_positions": True,
    "maybe_placeholders": True,
}


@cache
def grammar_text() -> str:
    return (data_dir("grammar") / "quest.lark").read_text(encoding="utf-8")


# How many cached parsers questc keeps (one per grammar, Lark and Python): two installs of
# questc with different grammars on one account each keep theirs instead of rewriting the
# other's on every run (0.3 s each time), and the folder stays bounded.
GRAMMARS_KEPT = 8
# The kinds of cache entry: the built parser pickled whole, or Lark's own Lark.save format.
_PICKLED, _SAVED = b"P", b"L"


@cache
def quest_parser() -> Lark:
    """The quest grammar's LALR parser, loaded from the per-user cache when it holds it.

    The cache entry is named by the grammar's CRC and the Lark and Python versions, so an
    edited grammar or another Lark never reads a stale entry, and installs with different
    grammars keep an entry each (the GRAMMARS_KEPT newest). It holds the parser behind a
    CRC-32 of its bytes, pickled whole (`pickled_parser`): Lark's own `Lark.save` format
    rebuilds every rule, terminal and lexer state through Lark's generic deserializer when
    loaded, a tenth of a small quest's lint, three times what unpickling the parser Lark
    built costs. Should this Lark's parser not come back whole from pickle (checked when
    the entry is written), the entry is Lark's format. A missing, unreadable or corrupt
    entry means the grammar is compiled again (about 0.3 s); a folder that cannot be
    written means no cache at all. Neither is worth telling the user about.
    """
    name = parser_cache_name(grammar_text())
    try:
        data = (cache_dir() / name).read_bytes()
        if len(data) > 5 and int.from_bytes(data[:4], "big") == zlib.crc32(data[4:]):
            kind, payload = data[4:5], data[5:]
            parser = pickle.loads(payload) if kind == _PICKLED else Lark.load(io.BytesIO(payload))
            if isinstance(parser, Lark):
                return parser
    except Exception:  # noqa: BLE001 - a missing or broken cache entry is rebuilt, whatever the error
        pass
    parser = Lark(grammar_text(), **LARK_OPTIONS)
    try:
        kind, payload = _PICKLED, pickled_parser(parser)
    except Exception:  # noqa: BLE001 - a parser pickle cannot carry whole: Lark's own format
        saved = io.BytesIO()
        parser.save(saved)
        kind, payload = _SAVED, saved.getvalue()
    entry = kind + payload
    write_cache(name, zlib.crc32(entry).to_bytes(4, "big") + entry, family="grammar-*", keep=GRAMMARS_KEPT)
    return parser


def parser_cache_name(grammar: str) -> str:
    """The cache entry of the parser of this grammar, with this Lark and this Python."""
    import lark

    # The lexers' expressions are cached compiled (_compiled_expression): the format of compiled
    # expressions is named too, as a new one (a Python release) must not read an old one.
    version = f"lark{lark.__version__}-py{sys.version_info[0]}{sys.version_info[1]}-sre{_sre_magic()}"
    return f"grammar-{zlib.crc32(grammar.encode()):08x}-{version}.parser"


class _ParserPickler(pickle.Pickler):
    """Pickles a Lark parser whole. What pickle would copy but must not: a module (the lexer
    holds the regular-expression module it compiles with) and Lark's module-level objects
    compared by identity (the LALR table's Shift and Reduce) are pickled by reference. A
    compiled regular expression is pickled compiled (`_compiled_expression`)."""

    def reducer_override(self, obj: Any) -> Any:
        if isinstance(obj, types.ModuleType):
            return importlib.import_module, (obj.__name__,)
        if isinstance(obj, re.Pattern):
            compiled = _compiled_expression(obj)
            return NotImplemented if compiled is None else compiled
        module = type(obj).__module__
        if module.startswith("lark."):
            name = _module_objects(module).get(id(obj))
            if name is not None:
                return getattr, (sys.modules[module], name)
        return NotImplemented


@cache
def _module_objects(module: str) -> dict[int, str]:
    """id -> name of the objects a module defines at its top level (not its classes or functions)."""
    found = sys.modules.get(module)
    return (
        {
            id(value): name
            for name, value in vars(found).items()
            if not isinstance(value, (type, types.FunctionType, types.ModuleType))
        }
        if found
        else {}
    )


# A quest the pickled parser must parse as the one it was pickled from before it is cached: a
# Lark whose parser does not come back whole from pickle is cached in Lark's format instead.
_PROBE = '''quest "Probe" {
  id probe
  expansions base
  players 2..4
  intro """
    Words.
  """
}
piece R1 room_4x4 at 0,0
piece C1 corridor_2x4 at 4,1 turn 90
door d between R1 C1
area A "Start" start {
  pieces R1
  monster beastman master at R1:1,1
  obstacle rubble at 2,2..3,3
}
area B "End" { pieces C1; chest gold at 5,2 }
victory heroes when revealed B and not killed boss
'''


def _re_internals() -> tuple[Any, Any, Any]:
    """re's parser and compiler and the expression engine (`re._parser`, `re._compiler` and
    `_sre` since Python 3.11, `sre_parse` and `sre_compile` before)."""
    sre = importlib.import_module("_sre")
    try:
        return importlib.import_module("re._parser"), importlib.import_module("re._compiler"), sre
    except ImportError:
        return importlib.import_module("sre_parse"), importlib.import_module("sre_compile"), sre


def _sre_magic() -> int:
    return int(_re_internals()[2].MAGIC)


def _compiled_expression(pattern: re.Pattern) -> tuple | None:
    """How to make `pattern` again without compiling it: the arguments re's compiler gives the
    expression engine (`_sre.compile`), or None when they do not make the same expression.

    The contextual lexer compiles an expression for each state of the parser the first time
    the state lexes (29 for a small quest, 4.5 ms of a 105 ms `questc lint`: re parses and
    compiles in Python); made from the compiled form, all 149 take 0.6 ms. The compiled form
    is the interpreter's own, hence the cache entry named by its format (parser_cache_name),
    and checked here: a pattern compares equal only with the same compiled code.
    """
    try:
        _parser, _compiler, sre = _re_internals()
        parsed = _parser.parse(pattern.pattern, pattern.flags)
        code = [int(op) for op in _compiler._code(parsed, pattern.flags)]
        groups = parsed.state.groupdict
        names: list[str | None] = [None] * parsed.state.groups
        for name, index in groups.items():
            names[index] = name
        args = (
            pattern.pattern,
            pattern.flags | parsed.state.flags,
            code,
            parsed.state.groups - 1,
            groups,
            tuple(names),
        )
        if sre.compile(*args) != pattern:
            return None
    except Exception:  # noqa: BLE001 - another interpreter's compiler: the expression is pickled as usual
        return None
    return sre.compile, args


def pickled_parser(parser: Lark) -> bytes:
    """A freshly built parser as pickle bytes, every lexer state's expressions compiled.
    ValueError when the unpickled copy does not parse a probe as the original does."""
    # Without the grammar it was built from (as Lark's own cache, `cache_grammar=False`, leaves
    # it out): parsing never reads it, and loading it was a fifth of the unpickling.
    bare = copy.copy(parser)
    bare.grammar = None  # type: ignore[assignment]
    lexer = bare.parser.lexer
    for state_lexer in (*getattr(lexer, "lexers", {}).values(), getattr(lexer, "root_lexer", lexer)):
        state_lexer.scanner  # noqa: B018 - compiled now, pickled compiled (_compiled_expression)
    out = io.BytesIO()
    _ParserPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump(bare)
    data = out.getvalue()
    if _probe(pickle.loads(data)) != _probe(parser):
        raise ValueError("this Lark's parser does not come back whole from pickle")
    return data


def _probe(parser: Lark) -> list:
    """The probe's tree from this parser: each rule with its position, each token with its own."""
    try:
        tree = parser.parse(_PROBE)
    except Exception as error:  # noqa: BLE001 - either parser failing at all is the answer
        return [f"{type(error).__name__}: {error}"]
    return [
        (
            t.data,
            t.meta.line,
            t.meta.column,
            t.meta.end_pos,
            [
                (c.type, c.value, c.line, c.column, c.end_pos) if isinstance(c, Token) else type(c).__name__
                for c in t.children
            ],
        )
        for t in tree.iter_subtrees()
    ]


@cache
def literals() -> dict[str, str]:
    """Terminal name -> its literal text, for the terminals that are fixed strings (keywords, `{`)."""
    return {t.name: t.pattern.value for t in quest_parser().terminals if t.pattern.type == "str"}


# Terminals that are a choice of lower-case words (`north`, `heroes`, ...): a capitalised one is a keyword too.
_WORD_TERMINALS = (
    "DIRECTION",
    "REVEAL_MODE",
    "STAT",
    "SIDE",
    "TRIGGER_EVENT",
    "ROLE",
    "PHASE",
    "PERIOD",
    "WHO",
    "PLACE_WORD",
)


@cache
def _word_terminals() -> dict[str, re.Pattern[str]]:
    return {t.name: re.compile(t.pattern.to_regexp()) for t in quest_parser().terminals if t.name in _WORD_TERMINALS}


def _describe_terminal(name: str) -> str:
    if name in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[name]
    literal = literals().get(name)
    if literal is not None:
        return f"`{literal}`"
    return name.lower()


def describe_expected(expected: Iterable[str]) -> str:
    """The terminals that may come next, in a writer's words: `a point like 4,2 or `turn``."""
    names = sorted({_SAME.get(e, e) for e in expected})
    words = sorted({_describe_terminal(e) for e in names})
    keywords = [w for w in words if w.startswith("`")]
    others = [w for w in words if not w.startswith("`")]
    if len(keywords) > 6:
        keywords = ["a statement such as " + ", ".join(keywords[:5]) + ", ..."]
    words = others + keywords
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _describe_found(token: Token) -> str:
    if token.type == "$END":
        return "the file ends"
    if token.type == "_NL":
        return "the statement ends" if str(token).lstrip().startswith((";", "#")) else "the line ends"
    return f"found `{_excerpt(str(token))}`"


def _excerpt(token: str) -> str:
    """A token as a message quotes it: a long one (a string left open, 100 kB of `;`) cut short."""
    from questc.limits import excerpt

    return excerpt(token, 40)


def _previous_word(text: str, pos: int) -> str | None:
    """The word before `pos` on its line (its last 20 characters), or None.

    Split, not a regex search for `\\S+\\s*$`: that search restarts at each character of a
    long run without spaces, quadratic in the run (a 100 kB line of `;` took 45 s).
    """
    before = text[text.rfind("\n", 0, pos) + 1 : pos].split()
    if not before:
        return None
    word = before[-1]
    if word.startswith('"') or word.endswith('"'):
        return None
    return word[-20:]


def _line_end(text: str, pos: int) -> int:
    end = text.find("\n", pos)
    return len(text) if end < 0 else end


def _statement_end(text: str, pos: int) -> int:
    """Where the statement holding `pos` ends: the next newline, `;` or `}` outside a string."""
    i, in_string = pos, False
    while i < len(text):
        ch = text[i]
        if ch == "\n":
            return i
        if in_string:
            if ch == "\\":
                i += 1
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in ";}#":
            return i
        i += 1
    return i


def _block_end(text: str, pos: int, end: int) -> int:
    """Where a broken statement ends when its line opens a block (`Named boss "B" ogre {`): just
    after the `}` that closes it, so the block's lines are not each reported as statements of
    their own; else `end` (its statement end). Strings, long strings and comments are skipped."""
    line_end = _line_end(text, pos)
    i, depth, limit = pos, 0, len(text)
    opened = False
    while i < limit:
        if text.startswith('"""', i):
            close = text.find('"""', i + 3)
            if close < 0:
                return end
            i = close + 3
            continue
        ch = text[i]
        if ch == '"':
            i += 1
            while i < limit and text[i] not in '"\n':
                i += 2 if text[i] == "\\" else 1
            i += 1
            continue
        if ch == "#":
            i = _line_end(text, i)
            continue
        if ch == "\n" and not opened:
            return end
        if ch == "{":
            if not opened and i > line_end:
                return end
            depth, opened = depth + 1, True
        elif ch == "}" and opened:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return end


# The text last indexed and where its lines start, as one tuple replaced whole: two
# threads parsing at once (the language server) each read a pair that belongs together.
_LINE_STARTS: tuple[str | None, list[int]] = (None, [0])


def _line_of(text: str, pos: int) -> tuple[int, int]:
    """(line, column), 1-based, of an offset; the line starts of the last text are kept,
    so spans for every comment of a big file cost a bisection, not a count from the top."""
    global _LINE_STARTS
    indexed = _LINE_STARTS
    if indexed[0] is not text:
        indexed = _LINE_STARTS = (text, [0] + [m.end() for m in re.finditer("\n", text)])
    starts = indexed[1]
    line = bisect_right(starts, pos)
    return line, pos - starts[line - 1] + 1


def _span(file: str, text: str, start: int, end: int) -> Span:
    line, column = _line_of(text, start)
    end_line, end_column = _line_of(text, end)
    return Span(file, line, column, end_line, end_column, start, end)


class _Recovery:
    """The on_error handler: reports causes, skips consequences, resumes the parse."""

    def __init__(self, file: str, text: str, quiet: Sequence[tuple[int, int]] = ()):
        self.file, self.text = file, text
        self.quiet = list(quiet)  # stretches after an unclosed string, where errors are its consequences
        self.diagnostics: list[Diagnostic] = []
        self.resume_at = -1  # the separator our last skip stopped at: an error there is a consequence
        self.errors = 0
        self.unclosed: set[int] = set()
        self.full = False  # MAX_SYNTAX_ERRORS were reported and one more was found   # offsets of the `{` of blocks already reported as never closed

    def __call__(self, error: UnexpectedInput) -> bool:
        self.errors += 1
        if self.errors > 4 * MAX_SYNTAX_ERRORS:  # errors that are all consequences, never reported
            return False
        if isinstance(error, UnexpectedCharacters):
            self._bad_character(error)
        else:
            assert isinstance(error, UnexpectedToken)
            self._bad_token(error)
        return not self.full  # a file of garbage: enough has been said

    # -- a character no token can start with --------------------------------
    def _bad_character(self, error: UnexpectedCharacters) -> None:
        text, pos = self.text, error.pos_in_stream or 0  # always set for a character
        malformed = self._malformed_value(pos)
        if malformed is None:
            # accepts() is exact, unlike the lexer's set for the state
            allowed = set(error.interactive_parser.accepts()) or set(error.allowed or ())
            self._report(
                Q001.at(
                    _span(self.file, text, pos, pos + 1),
                    found=f"found `{text[pos]}`",
                    expected=describe_expected(allowed),
                    label="unexpected character",
                )
            )
        else:
            start, end = malformed
            self._report(self._q003(start, end))
        self._skip(error.interactive_parser, _statement_end(text, pos + 1))

    def _malformed_value(self, pos: int) -> tuple[int, int] | None:
        text = self.text
        start = pos
        while start > 0 and re.match(r"[0-9A-Za-z_,.:+-]", text[start - 1]):
            start -= 1
        match = _MALFORMED_NUMBER.match(text, start)
        if match and match.end() > pos and any(ch.isdigit() for ch in match.group()):
            return start, match.end()
        return None

    def _q003(self, start: int, end: int, as_kind: str | None = None) -> Diagnostic:
        value = self.text[start:end]
        if as_kind:
            kind, example = as_kind, {"a range": "2..5", "a point": "4,2"}[as_kind]
        elif ".." in value:
            kind, example = ("a rectangle", "2,3..4,5") if "," in value else ("a range", "2..5")
        elif ":" in value:
            kind, example = "a point on a piece", "R1:2,3"
        elif "," in value:
            kind, example = "a point", "4,2"
        else:
            kind, example = "a number", "12"
        return Q003.at(
            _span(self.file, self.text, start, end),
            problem=f"`{_excerpt(value)}` is not {kind}",
            label="malformed point" if "point" in kind else f"malformed {kind.split()[-1]}",
            help_text=f"write {kind} like `{example}`, with no spaces",
        )

    # -- a token the grammar does not allow here ------------------------------
    def _bad_token(self, error: UnexpectedToken) -> None:
        token = error.token
        parser_state = error.interactive_parser
        is_separator = token.type in ("_NL", "$END", "RBRACE")
        consequence = token.start_pos is not None and token.start_pos <= self.resume_at
        if token.type == "$END":
            consequence = consequence or self.resume_at >= len(self.text) or _holds_unclosed_long_string(parser_state)
        opener = self._unclosed_block(error)
        if opener is not None:  # one report per unclosed block, not one per statement after it
            consequence = consequence or opener.start in self.unclosed
            self.unclosed.add(opener.start)
        if not consequence:
            self._report(self._describe(error))
        if is_separator:
            self._unwind_and_feed(parser_state, token)
            return
        end = _statement_end(self.text, token.end_pos)
        self._skip(parser_state, _block_end(self.text, token.end_pos, end) if not consequence else end)

    def _describe(self, error: UnexpectedToken) -> Diagnostic:
        token = error.token
        expected = set(error.interactive_parser.accepts())  # exact, unlike the LALR table's merged lookahead set
        text = self.text
        if token.type == "$END":
            start = len(text.rstrip()) or 0
            opener = self._open_block(error)
            labels = [Label(opener, "this block is never closed")] if opener else []
            return Q001.at(
                _span(self.file, text, max(start - 1, 0), max(start, 1)),
                found="the file ends",
                expected=describe_expected(expected),
                label="the file ends here",
                labels=labels,
                help="close every `{` with a `}`" if opener else None,
            )
        span = token_span(self.file, token)
        if token.type == "_NL":
            span = _span(self.file, text, token.start_pos, token.start_pos + 1)
        # A top-level statement inside a block: the block above was never closed.
        opener = self._unclosed_block(error)
        if opener is not None:
            return Q001.at(
                span,
                found=f"found `{_excerpt(str(token))}` inside the block opened on line {opener.line}",
                expected=describe_expected(expected),
                label="not expected here",
                labels=[Label(opener, "this block is never closed")],
                help=f"close the block with `}}` before line {token.line}",
            )
        # An unknown word where a header field starts.
        if {"CONQUEST", "EDITION", "EXPANSIONS"} <= expected and token.type not in ("_NL", "RBRACE"):
            fields = ", ".join(HEADER_FIELDS)
            repair = self._keyword_case(error, expected)
            if repair is not None:
                return Q004.at(
                    span,
                    problem=f"`{token}` is not a header field",
                    label="unknown header field",
                    help_text=repair[0],
                    fixes=repair[1],
                )
            return Q004.at(
                span,
                problem=f"`{token}` is not a header field",
                label="unknown header field",
                help_text=f"the header's fields are: {fields}",
            )
        # A number where a point or range belongs: `at 4` or `players 3 5`.
        if token.type == "INT" and expected & {"POINT", "RANGE", "RECT"}:
            start, end = self._malformed_value(token.start_pos) or (token.start_pos, token.end_pos)
            return self._q003(
                start, end, as_kind=None if end > token.end_pos else "a range" if "RANGE" in expected else "a point"
            )
        # A point on a piece gone wrong: `R1:2,` or `R1:2`.
        if token.type == "NAME" and expected & {"POINT", "PIECE_POINT", "RECT"} and text.startswith(":", token.end_pos):
            malformed = self._malformed_value(token.start_pos)
            if malformed is not None:
                return self._q003(*malformed)
        before = _previous_word(text, token.start_pos)
        expected_words = describe_expected(expected)
        found = _describe_found(token)
        if before:
            found = f"{found} after `{before}`"
        repair = self._keyword_case(error, expected) or self._missing_commas(error, expected)
        if repair is not None:
            help_text, fixes = repair
            return Q001.at(
                span, found=found, expected=expected_words, label="not expected here", help=help_text, fixes=fixes
            )
        return Q001.at(span, found=found, expected=expected_words, label="not expected here", help=self._hint(error))

    def _keyword_case(self, error: UnexpectedToken, expected: set[str]) -> Hint | None:
        """`Monster` where the keyword `monster` fits: the help and a safe fix to lower-case it, else None."""
        token = error.token
        written = str(token)
        if token.type != "NAME" or written == written.lower():
            return None
        fixed, words = literals(), _word_terminals()
        lower = written.lower()
        keyword = next(
            (t for t in sorted(expected) if fixed.get(t) == lower or (t in words and words[t].fullmatch(lower))), None
        )
        if keyword is None:
            return None
        span = token_span(self.file, token)
        lower = written.lower()
        return (
            f"keywords are lower case: write `{lower}`",
            (Fix(f"write `{lower}` in lower case", (Edit(span, lower),), Applicability.SAFE),),
        )

    def _missing_commas(self, error: UnexpectedToken, expected: set[str]) -> Hint | None:
        """`pieces C1 C2 C3`: the help and a safe fix putting a comma after each name but the last, else None.

        Offered only when the parser, fed the commas, takes the names and then the end of
        the statement: the list is then exactly what the writer wrote, with its commas.
        """
        token = error.token
        if token.type != "NAME" or "COMMA" not in expected:
            return None
        text = self.text
        cut = token.start_pos
        while cut > 0 and text[cut - 1] in " \t":
            cut -= 1
        if cut == token.start_pos or cut == 0 or not re.match(r"[A-Za-z0-9_]", text[cut - 1]):
            return None
        # The same mistake may repeat to the end of the statement: `pieces C1 C2 C3`.
        more = _MORE_NAMES.match(text, token.end_pos)
        names = [token]
        inserts = [cut]
        if more is not None:
            for item in re.finditer(r"([ \t]+)([A-Za-z_][A-Za-z0-9_]*)", more.group("names")):
                start = token.end_pos + item.start(2)
                names.append(Token("NAME", item.group(2), start_pos=start))
                inserts.append(token.end_pos + item.start(1))
        for count in (len(names), 1):
            probe = error.interactive_parser.copy()
            try:
                for name in names[:count]:
                    probe.feed_token(Token("COMMA", ","))
                    probe.feed_token(name if name is token else Token("NAME", str(name)))
            except UnexpectedInput:
                continue
            accepted = probe.accepts()
            if count > 1 and not {"_NL", "RBRACE", "$END"} & accepted:
                continue
            edits = tuple(Edit(_span(self.file, text, at, at), ",") for at in inserts[:count])
            listed = ", ".join(str(n) for n in names[:count])
            first = _previous_word(text, cut) or ""
            return (
                f"separate the names with commas: `{first}, {listed}`",
                (Fix(f"add the missing {noun(count, 'comma')}", edits, Applicability.SAFE),),
            )
        return None

    def _hint(self, error: UnexpectedToken) -> str | None:
        """A concrete fix for a common mistake, recognised by the parser state it fails in."""
        return _hint_table(quest_parser()).get((error.state.position, error.token.type))

    def _unclosed_block(self, error: UnexpectedToken) -> Span | None:
        """The `{` of the block a top-level statement keyword was found in, if it was."""
        token = error.token
        if token.type in ("NAME", "$END", "_NL") or not _TOP_LEVEL.fullmatch(str(token)):
            return None
        return self._open_block(error)

    def _open_block(self, error: UnexpectedToken) -> Span | None:
        for value in reversed(error.interactive_parser.parser_state.value_stack):
            if isinstance(value, Token) and value.type == "LBRACE":
                return token_span(self.file, value)
        return None

    # -- resuming -------------------------------------------------------------
    def _skip(self, interactive: InteractiveParser, to: int) -> None:
        """Move the lexer to offset `to` (a separator): the rest of the statement is dropped."""
        lexer_state = interactive.lexer_thread.state
        assert lexer_state is not None  # set for the whole of a parse
        counter = lexer_state.line_ctr
        if to > counter.char_pos:
            counter.feed(self.text[counter.char_pos : to])
        self.resume_at = to

    def _unwind_and_feed(self, interactive: InteractiveParser, token: Token) -> None:
        """Pop half-built statements off the parser stack until `token` fits, then feed it."""
        state = interactive.parser_state
        # Find the depth first, on a copy: a token that fits nowhere (a stray `}`) is
        # dropped, and must not empty the stack of every statement parsed so far.
        probe = interactive.copy(deepcopy_values=False)
        pops = 0
        while len(probe.parser_state.state_stack) > 1 and not _fits(probe, token.type):
            probe.parser_state.state_stack.pop()
            probe.parser_state.value_stack.pop()
            pops += 1
        if token.type == "$END" or token.type in probe.accepts():
            for _ in range(pops):
                state.state_stack.pop()
                state.value_stack.pop()
        elif token.end_pos is not None:  # dropped: the separator after it closes the broken statement
            self.resume_at = max(self.resume_at, _statement_end(self.text, token.end_pos))
        # The end of input is fed again when the parse resumes; other tokens were
        # already taken from the lexer, so they are fed here.
        if token.type != "$END" and token.type in interactive.accepts():
            interactive.feed_token(token)
        if token.type != "$END" and token.end_pos is not None:
            self.resume_at = max(self.resume_at, token.end_pos - 1)

    def _report(self, diagnostic: Diagnostic) -> None:
        if self.full or any(start <= diagnostic.span.start < end for start, end in self.quiet):
            return
        if len(self.diagnostics) < MAX_SYNTAX_ERRORS:
            self.diagnostics.append(diagnostic)
            return
        self.full = True  # this error is one too many: say so in its place, and stop reading
        start = diagnostic.span.start
        self.diagnostics.append(
            Q006.at(
                _span(self.file, self.text, start, min(start + 1, len(self.text) + 1)),
                problem=f"more than {MAX_SYNTAX_ERRORS} syntax errors: the rest of the file was not read",
                label="reading stopped here",
                help_text="fix the errors above, then check again",
            )
        )


def _fits(interactive: InteractiveParser, terminal: str) -> bool:
    """True when the parser accepts `terminal` next.

    accepts() copies the whole stack for each terminal it tries: asked once per popped
    state while unwinding a deep stack (40,000 unclosed `(`), it made recovery quadratic.
    A terminal with no action in the top state's table row never fits, so most states
    are passed over for a dictionary look-up; accepts() confirms the few that may.
    """
    if terminal not in interactive.choices():
        return False
    return terminal in interactive.accepts()


# Common mistakes and the fix to suggest, recognised by the parser state the example
# fails in. The table doubles as test data.
HINT_EXAMPLES = {
    # One hint for both: with `at` read as the type's name, the parser fails in the same state.
    "a piece is written `piece ID TYPE at X,Y`, like `piece R1 room_4x4 at 0,0`": [
        "piece R1 room_4x4 0,0",
        "piece R1 at 0,0",
    ],
    "points are separated by spaces, not commas: `at 4,1 4,2`": [
        'quest "Q" { conquest 1 }\narea A { monster beastman at 4,1, 4,2 }',
    ],
    "a door goes `between` two pieces, or `at` a cell and a side: `door d at 3,1 east`": [
        "door d R1 R2",
    ],
    "a condition follows `when`: `victory heroes when killed boss`": [
        "victory heroes killed boss",
    ],
}


@lru_cache(maxsize=2)
def _hint_table(parser: Lark) -> dict[tuple[int, str], str]:
    """(LALR state, token type) -> hint, learnt by parsing the examples once with `parser`.

    Like Lark's match_examples, but keyed on the state alone: match_examples also
    compares the depth of the parser stack, which differs with every statement
    before the error. Learnt for each parser: two builds of the grammar number their
    states differently (a parser and its pickled copy alike).
    """
    table: dict[tuple[int, str], str] = {}
    for hint, examples in HINT_EXAMPLES.items():
        for example in examples:
            try:
                parser.parse(example)
            except UnexpectedToken as error:
                table.setdefault((error.state.position, error.token.type), hint)
            except UnexpectedInput:
                pass
    return table


def parse_source(text: str, file: str = "<quest>") -> ParseResult:
    """Parse quest source text into a QuestFile, with every syntax diagnostic."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if len(text) > MAX_SOURCE_CHARS:
        return ParseResult(None, (too_large(file, text[:200], len(text)),), ())
    comments, unclosed = _scan(file, text)
    early: list[Diagnostic] = []
    quiet = []
    for span, long in unclosed:
        early.append(
            Q002.at(
                span,
                help_text='close it with `"""`'
                if long
                else 'close it with `"` on the same line (use `"""` for text over several lines)',
            )
        )
        next_statement = _TOP_LEVEL.search(text, _line_end(text, span.start) + 1)
        quiet.append((span.start, len(text) if long or next_statement is None else next_statement.start()))
    recovery = _Recovery(file, text, quiet)
    try:
        tree = quest_parser().parse(text, on_error=recovery)
    except UnexpectedInput as error:  # recovery gave up (too many errors, or at the end)
        if not recovery.diagnostics and not early:
            pos = error.pos_in_stream or 0
            recovery.diagnostics.append(
                Q001.at(
                    _span(file, text, min(pos, len(text)), min(pos + 1, len(text) + 1)),
                    found="the input",
                    expected="a quest statement",
                    label="could not parse from here",
                )
            )
        return ParseResult(None, tuple(early + recovery.diagnostics), tuple(comments))
    deep = _too_deep(tree)
    if deep is not None:
        # The tree builder and the checks walk conditions recursively: refuse, don't crash.
        start = min(deep.meta.start_pos, len(text)) if not deep.meta.empty else 0
        return ParseResult(
            None,
            tuple(early + recovery.diagnostics)
            + (
                Q006.at(
                    _span(file, text, start, min(start + 1, len(text))),
                    problem=f"this expression is nested more than {MAX_NESTING} levels deep",
                    label="nested too deep from here",
                    help_text="split the condition into simpler ones",
                ),
            ),
            tuple(comments),
        )
    builder = ToNodes(file, header_written=_STARTS_WITH_QUEST.match(text) is not None, source=text)
    quest = builder.transform(tree)
    syntax = early + recovery.diagnostics + builder.diagnostics
    return ParseResult(quest, tuple(syntax), tuple(comments))


# Limits that keep hostile or broken input from exhausting time, memory or the stack.
# A real quest is a few kilobytes and nests conditions a few levels deep.
MAX_SOURCE_CHARS = 1_000_000
MAX_NESTING = 100
MAX_SYNTAX_ERRORS = 50  # reported per file; past that the file is garbage, not a quest with typos


def too_large(file: str, head: str, size: int, unit: str = "characters", over: bool = False) -> Diagnostic:
    """Q006 for a source over MAX_SOURCE_CHARS (`head`: its first characters, for the span;
    `unit` "bytes" when the file was refused by its size before being read; `over` when
    reading stopped at `size`, a stream whose end was never reached)."""
    end = len(head.split("\n", 1)[0]) or 1
    return Q006.at(
        Span(file, 1, 1, 1, end + 1, 0, end),
        problem=f"this file of {'over ' if over else ''}{size:,} {unit} is too large to be a quest",
        label="the file is too large",
        help_text=f"a quest file holds at most {MAX_SOURCE_CHARS:,} characters",
    )


def _too_deep(tree: Tree[Token]) -> Tree[Token] | None:
    """The first subtree lying deeper than MAX_NESTING levels (walked without recursion), or None."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            return node
        for child in getattr(node, "children", ()):
            if hasattr(child, "children"):
                stack.append((child, depth + 1))
    return None


# A file whose first statement is `quest` has a header, even if a syntax error broke it.
# (A comment runs to its line's end: `# a quest without header` must not count.)
_STARTS_WITH_QUEST = re.compile(r"(?:\s|#[^\n]*\n)*quest\b")


def _holds_unclosed_long_string(interactive: InteractiveParser) -> bool:
    """True when the parse has swallowed an unclosed triple-quoted string (already a Q002)."""
    for value in interactive.parser_state.value_stack:
        tokens = [value] if isinstance(value, Token) else getattr(value, "children", [])
        if any(isinstance(t, Token) and t.type == "UNCLOSED_LONG_STRING" for t in tokens):
            return True
    return False


_QUOTE_OR_COMMENT = re.compile(r'["#]')
_LONG_STRING_REST = re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.S)
_STRING_REST = re.compile(r'(?:[^"\\\n]|\\.)*"')


def _scan(file: str, text: str) -> tuple[list[tuple[Span, str]], list[tuple[Span, bool]]]:
    """One pass over the source: every `#` comment outside strings as (Span, text), and
    every string that never closes as (Span of its opening quotes, is_triple_quoted)."""
    comments: list[tuple[Span, str]] = []
    unclosed: list[tuple[Span, bool]] = []
    found = _QUOTE_OR_COMMENT.search(text)
    while found is not None:
        i = found.start()
        if text.startswith('"""', i):
            close = _LONG_STRING_REST.match(text, i + 3)
            if close is None:
                unclosed.append((_span(file, text, i, i + 3), True))
                break
            i = close.end()
        elif text[i] == '"':
            close = _STRING_REST.match(text, i + 1)
            if close is None:
                unclosed.append((_span(file, text, i, i + 1), False))
                i = _line_end(text, i)
            else:
                i = close.end()
        else:
            end = _line_end(text, i)
            comments.append((_span(file, text, i, end), text[i:end]))
            i = end
        found = _QUOTE_OR_COMMENT.search(text, i)
    return comments, unclosed
