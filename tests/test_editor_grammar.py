"""The TextMate grammar (editors/vscode/syntaxes/quest.tmLanguage.json), run by two engines.

- `python`: a small TextMate-style tokenizer, here, that follows TextMate's rules where the
  grammar uses them: at each position the pattern matching earliest wins (ties: the first
  listed, the open block's `end` before its patterns); `begin`/`end` rules nest across
  lines; `include` pulls in repository entries; `captures`, `beginCaptures` and
  `endCaptures` scope groups. The regexes are written in the subset Oniguruma and
  Python's `re` share, so they run unchanged. It needs nothing but Python.
- `vscode-textmate`: VS Code's own engine on Oniguruma (editors/vscode/tools/tokenize.js),
  when node and the extension's node_modules are there (tests/editor_tools.py).

Every scope test runs on both, and `test_the_engines_agree` checks that the Python one
gives VS Code's scopes on every shipped and acceptance quest, so its results can be trusted
where node is absent.
"""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from conftest import ACCEPTANCE
from editor_tools import VSCODE, require_node_tools

from questc.syntax import nodes, parse_source

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = VSCODE / "syntaxes" / "quest.tmLanguage.json"
TOKENIZE_JS = VSCODE / "tools" / "tokenize.js"

NAME = "variable.other.name.quest"
PIECE = "variable.other.piece.quest"
DECL = "keyword.declaration.quest"
HEAD = "keyword.other.header.quest"
STMT = "keyword.other.statement.quest"
CLAUSE = "keyword.other.quest"
SIDE = "constant.language.side.quest"
REVEAL_MODE = "constant.language.reveal-mode.quest"
TREACHERY = "constant.language.treachery.quest"


def quest_files() -> list[Path]:
    files = sorted((ROOT / "quests").rglob("*.quest"))
    if ACCEPTANCE.is_dir():
        files += sorted(ACCEPTANCE.glob("*.quest"))
    return files


def quest_text(path: Path) -> str:
    return path.read_text(encoding="utf-8").lstrip("\ufeff")


@cache
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text(encoding="utf-8"))


# ---- the Python engine ----------------------------------------------------------


@cache
def _regex(pattern: str) -> re.Pattern:
    return re.compile(pattern)


def _expand(patterns) -> list[dict]:
    """Rules with `include`s and pattern groups flattened, in order."""
    g = grammar()
    out = []
    for p in patterns:
        if "include" in p:
            name = p["include"]
            p = g if name == "$self" else g["repository"][name.lstrip("#")]
        if "match" in p or "begin" in p:
            out.append(p)
        else:
            out += _expand(p.get("patterns", ()))
    return out


def _capture(scopes, offset, m, captures, inner) -> None:
    for group, capture in captures.items():
        if m.group(int(group)) is not None:
            for k in range(m.start(int(group)), m.end(int(group))):
                scopes[offset + k] = inner + (capture["name"],)


def python_tokenize(text: str) -> list[tuple[str, ...]]:
    """The scopes (outermost first, `source.quest` left out) of every character of `text`."""
    top = _expand(grammar()["patterns"])
    scopes: list[tuple[str, ...]] = [()] * len(text)
    stack: list[dict] = []
    offset = 0
    for line in text.split("\n"):
        pos = 0
        while pos <= len(line):
            here = tuple(r["name"] for r in stack if "name" in r)
            candidates = []
            if stack:
                m = _regex(stack[-1]["end"]).search(line, pos)
                if m:
                    candidates.append((m.start(), 0, "end", stack[-1], m))
            for order, rule in enumerate(_expand(stack[-1].get("patterns", ())) if stack else top, start=1):
                m = _regex(rule.get("match") or rule["begin"]).search(line, pos)
                if m:
                    candidates.append((m.start(), order, "begin" if "begin" in rule else "match", rule, m))
            if not candidates:
                break
            start, _, kind, rule, m = min(candidates, key=lambda c: (c[0], c[1]))
            for k in range(pos, start):
                scopes[offset + k] = here
            inner = here if kind == "end" else here + ((rule["name"],) if "name" in rule else ())
            for k in range(m.start(), m.end()):
                scopes[offset + k] = inner
            if kind == "match":
                _capture(scopes, offset, m, rule.get("captures", {}), inner)
            elif kind == "begin":
                _capture(scopes, offset, m, rule.get("beginCaptures", rule.get("captures", {})), inner)
                stack.append(rule)
            else:
                _capture(scopes, offset, m, rule.get("endCaptures", rule.get("captures", {})), inner)
                stack.pop()
            if m.end() == pos and kind == "match":
                pos += 1  # an empty match must not stall the loop
            else:
                pos = m.end()
        here = tuple(r["name"] for r in stack if "name" in r)
        for k in range(pos, len(line) + 1):
            if offset + k < len(text):
                scopes[offset + k] = here
        offset += len(line) + 1
    return scopes


# ---- VS Code's engine -------------------------------------------------------------


def all_texts() -> list[str]:
    """Every text a test tokenises, so that node runs once for all of them."""
    texts = [case[0] for case in SCOPE_CASES] + sorted(grammar_keywords()) + [VALUES, STRINGS]
    return texts + [quest_text(p) for p in quest_files()]


class VSCodeTextMate:
    """Tokenises with vscode-textmate through one node run for every text the tests use."""

    def __init__(self, node: str):
        self.node = node
        self.cache: dict[str, list[tuple[str, ...]]] = {}

    def _run(self, texts: list[str]) -> None:
        done = subprocess.run(
            [self.node, str(TOKENIZE_JS)],
            input=json.dumps({"texts": texts}),
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        for text, scopes in zip(texts, json.loads(done.stdout), strict=True):
            self.cache[text] = [tuple(s) for s in scopes]

    def __call__(self, text: str) -> list[tuple[str, ...]]:
        """The scopes of every character but the newlines (VS Code tokenises lines, not their ends)."""
        if text not in self.cache:
            self._run(list(dict.fromkeys([text] + all_texts())) if not self.cache else [text])
        return self.cache[text]


@pytest.fixture(scope="session")
def vscode_textmate():
    return VSCodeTextMate(require_node_tools("vscode-textmate", "vscode-oniguruma"))


@pytest.fixture(params=["python", "vscode-textmate"])
def tokenize(request):
    """`tokenize(text)`: each character's scopes, newlines left out, by one of the two engines."""
    if request.param == "python":
        return lambda text: [s for s, c in zip(python_tokenize(text), text) if c != "\n"]
    return request.getfixturevalue("vscode_textmate")


def scopes_of(tokenize, text: str, fragment: str, occurrence: int = 0) -> set[str]:
    """The innermost scopes over `fragment` (its `occurrence`-th appearance in `text`)."""
    starts = [m.start() for m in re.finditer(re.escape(fragment), text)]
    assert len(starts) > occurrence, f"{fragment!r} occurs {len(starts)} times in {text!r}"
    start = starts[occurrence]
    newlines = text.count("\n", 0, start)  # the engines leave newlines out
    scopes = tokenize(text)[start - newlines : start - newlines + len(fragment)]
    return {s[-1] if s else "" for s in scopes}


# ---- the grammar's own shape -----------------------------------------------------


def grammar_keywords() -> set[str]:
    """Every keyword of the language: the quoted words of grammar/quest.lark."""
    return set(re.findall(r'"([a-z_]+)"', (ROOT / "grammar" / "quest.lark").read_text(encoding="utf-8")))


# What the Python engine implements: a rule using anything else would make it unfaithful.
RULE_KEYS = {"name", "match", "captures", "begin", "end", "beginCaptures", "endCaptures", "patterns", "comment"}


def test_grammar_is_a_textmate_grammar():
    g = grammar()
    assert g["scopeName"] == "source.quest" and "quest" in g["fileTypes"]
    rules = _expand(g["patterns"])
    rules += [r for rule in list(rules) for r in _expand(rule.get("patterns", ()))]
    for rule in rules:
        assert "name" in rule or "captures" in rule or "beginCaptures" in rule, rule
        assert set(rule) <= RULE_KEYS, f"{set(rule) - RULE_KEYS} is not run by the Python engine: {rule}"
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])
                assert "\\G" not in rule[key] and not re.search(r"\\[1-9]", rule[key]), rule[key]


def test_one_copy_of_the_grammar():
    """The extension's grammar is the only one: no second copy to drift."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False).stdout
    if not tracked:
        pytest.skip("not a git checkout")
    copies = [line for line in tracked.splitlines() if line.lower().endswith(".tmlanguage.json")]
    assert copies == ["editors/vscode/syntaxes/quest.tmLanguage.json"]
    package = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    assert [(VSCODE / g["path"]).resolve() for g in package["contributes"]["grammars"]] == [GRAMMAR]


# ---- scopes ----------------------------------------------------------------------


@pytest.mark.parametrize("word", sorted(grammar_keywords()))
def test_every_keyword_is_scoped_as_a_keyword(tokenize, word):
    scopes = tokenize(word)
    assert len(set(scopes)) == 1, f"`{word}` is split into several tokens: {scopes}"
    scope = scopes[0][-1] if scopes[0] else ""
    assert scope.startswith(("keyword.", "constant.language.")), f"`{word}` is scoped {scope!r}"


HEADER = 'quest "Scopes" {\n  conquest 5\n  players 2..5\n  reveal door\n  treachery event 3, trap 4, monster 3\n}\n'

# (text, fragment, which occurrence, the innermost scope it must have): each a scope
# that was once wrong, or one a fix could break.
SCOPE_CASES = [
    # overlord is the deck plan's keyword, but a side after victory and win; heroes is always a side
    ('overlord {\n  card "Danger" x2\n}', "overlord", 0, DECL),
    ("victory overlord when conquest <= 0", "overlord", 0, SIDE),
    ('victory heroes "Ring the bell" when triggered bell', "heroes", 0, SIDE),
    ("on round 12 { win overlord }", "overlord", 0, SIDE),
    ("encounter bell at 7,3 { win heroes }", "heroes", 0, SIDE),
    # the header's reveal modes: door and sight alike; outside the header, reveal takes an area
    (HEADER, "door", 0, REVEAL_MODE),
    (HEADER.replace("reveal door", "reveal sight"), "sight", 0, REVEAL_MODE),
    (HEADER + "on killed boss { reveal door }", "door", 1, NAME),
    (HEADER + "on killed boss { reveal door }", "reveal", 1, STMT),
    # treachery colours are colours, not the trap and monster statements
    (HEADER, "event", 0, TREACHERY),
    (HEADER, "trap", 0, TREACHERY),
    (HEADER, "monster", 0, TREACHERY),
    (HEADER, "3", 0, "constant.numeric.integer.quest"),
    (HEADER + "area A {\n  trap pit at 1,1\n  monster beastman at 2,2\n}", "trap", 1, STMT),
    (HEADER + "area A {\n  trap pit at 1,1\n  monster beastman at 2,2\n}", "monster", 1, STMT),
    # conquest, reveal and players are header fields only in the header
    (HEADER, "conquest", 0, HEAD),
    (HEADER, "reveal", 0, HEAD),
    (HEADER, "players", 0, HEAD),
    (HEADER + "encounter bell at 7,3 {\n  conquest +2\n}", "conquest", 1, STMT),
    (HEADER + "victory overlord when conquest <= 0", "conquest", 1, CLAUSE),
    (HEADER + 'named boss "Boss" ogre {\n  conquest 2\n}', "conquest", 1, STMT),
    (HEADER + "chests {\n  copper 1: conquest 1, coins 25\n}", "conquest", 1, STMT),
    (HEADER + "on reveal vault {\n  reveal crypt\n}", "reveal", 1, CLAUSE),
    (HEADER + "on reveal vault {\n  reveal crypt\n}", "reveal", 2, STMT),
    (HEADER + "area A {\n  monster beastman at 2,2 players 3..5\n}", "players", 1, CLAUSE),
    # identifiers like x1 are names; copies (x2) exist only in the overlord's plan
    ('area x1 "Hall" start {\n  pieces x1, x12\n}', "x1", 0, NAME),
    ('area x1 "Hall" start {\n  pieces x1, x12\n}', "x1", 1, NAME),
    ('area x1 "Hall" start {\n  pieces x1, x12\n}', "x12", 0, NAME),
    ("on reveal x1 { reveal x2 }", "x1", 0, NAME),
    ("on reveal x1 { reveal x2 }", "x2", 0, NAME),
    ("victory heroes when revealed x3", "x3", 0, NAME),
    ("monster beastman at x1:2,3", "x1", 0, PIECE),
    ('overlord {\n  card "Danger" x2\n  dark_glyph power\n}', "x2", 0, "constant.numeric.copies.quest"),
    # a keyword where a name is expected is that name (keywords are contextual)
    ("area door {\n  pieces door, author\n}", "door", 0, NAME),
    ("area door {\n  pieces door, author\n}", "door", 1, NAME),
    ("area door {\n  pieces door, author\n}", "author", 0, NAME),
    ("piece author room_4x4 at 0,0", "author", 0, NAME),
    ("door chapel between R1 R2 rune red", "chapel", 0, NAME),
    ("door chapel between R1 R2 rune red", "R2", 0, NAME),
    ("door chapel between R1 R2 rune red", "red", 0, NAME),
    ("door d at R1:3,0 north", "north", 0, "constant.language.direction.quest"),
    # the header block ends at its brace
    (HEADER + "conquest", "conquest", 1, STMT),
]


@pytest.mark.parametrize("case", SCOPE_CASES, ids=lambda c: f"{c[1]}#{c[2]}-{c[3].split('.')[-2]}:{c[0][-24:]!r}")
def test_scope(tokenize, case):
    text, fragment, occurrence, expected = case
    assert scopes_of(tokenize, text, fragment, occurrence) == {expected}


VALUES = (
    "monster beastman at R1:2,3 4,5 players 2..5\nobstacle water at 7,2..8,2\nconquest +2\n"
    'overlord { card "A \\"b\\"" x2 }'
)


def test_values_are_scoped(tokenize):
    text = VALUES
    assert scopes_of(tokenize, text, "R1") == {PIECE}
    assert scopes_of(tokenize, text, "2,3") == {"constant.numeric.point.quest"}
    assert scopes_of(tokenize, text, "2..5") == {"constant.numeric.range.quest"}
    assert scopes_of(tokenize, text, "7,2..8,2") == {"constant.numeric.rectangle.quest"}
    assert scopes_of(tokenize, text, "+2") == {"constant.numeric.signed.quest"}
    assert scopes_of(tokenize, text, "x2") == {"constant.numeric.copies.quest"}
    assert scopes_of(tokenize, text, "beastman") == {NAME}
    assert scopes_of(tokenize, text, "water") == {NAME}
    assert "constant.character.escape.quest" in scopes_of(tokenize, text, '\\"')


STRINGS = 'quest "S" {\n  intro """\n  a "quoted" # not a comment\n"""\n  id x  # c\n}\nread "open\nid y'


def test_triple_quoted_strings_span_lines_and_unclosed_strings_end_at_the_line(tokenize):
    text = STRINGS
    kinds = [k for k, c in zip(classify(text), text) if c != "\n"]
    for k, (kind, scope) in enumerate(zip(kinds, tokenize(text), strict=True)):
        if kind == "string":
            assert any(s.startswith("string.") for s in scope), (k, scope)
    assert scopes_of(tokenize, text, "# c") == {"comment.line.number-sign.quest"}
    assert scopes_of(tokenize, text, "id x") >= {HEAD}
    assert scopes_of(tokenize, text, "id", 1) == {HEAD}  # the unclosed string ended at its line


def classify(text: str) -> list[str]:
    """Each character as `string`, `comment` or `code`, by the language's lexical rules (LANGUAGE.md §2)."""
    kinds = ["code"] * len(text)
    i = 0
    while i < len(text):
        if text.startswith('"""', i):
            m = re.compile(r'(?:[^"\\]|\\.|"(?!""))*"""', re.S).match(text, i + 3)
            end = m.end() if m else len(text)
        elif text[i] == '"':
            m = re.compile(r'(?:[^"\\\n]|\\.)*"').match(text, i + 1)
            end = m.end() if m else (text.find("\n", i) if "\n" in text[i:] else len(text))
        elif text[i] == "#":
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            for k in range(i, end):
                kinds[k] = "comment"
            i = end
            continue
        else:
            i += 1
            continue
        for k in range(i, end):
            kinds[k] = "string"
        i = end
    return kinds


# ---- every shipped and acceptance quest ------------------------------------------


def name_roles(tree) -> dict[int, str]:
    """The scope each `Name` of the syntax tree must have, by its start offset: names are
    names (or pieces before a `:`), except the words the language fixes by position."""
    roles: dict[int, str] = {}

    def role(parent, field: str) -> str:
        if isinstance(parent, nodes.TreacheryPart):
            return TREACHERY
        if isinstance(parent, (nodes.Victory, nodes.WinEffect)) and field == "side":
            return SIDE
        if isinstance(parent, nodes.HeaderField) and parent.keyword == "reveal":
            return REVEAL_MODE
        if isinstance(parent, nodes.HeaderField) and parent.keyword == "edition":
            return "constant.language.edition.quest"
        if field in ("facing",) or (isinstance(parent, nodes.Door) and field == "side"):
            return "constant.language.direction.quest"
        if isinstance(parent, (nodes.PointRef, nodes.CellSet)) and field == "piece":
            return PIECE
        return NAME

    def walk(node, parent=None, field="") -> None:
        if isinstance(node, nodes.Name):
            roles[node.span.start] = role(parent, field)
        elif isinstance(node, (tuple, list)):
            for item in node:
                walk(item, parent, field)
        elif dataclasses.is_dataclass(node):
            for f in dataclasses.fields(node):
                if f.name != "span":
                    walk(getattr(node, f.name), node, f.name)

    walk(tree)
    return roles


@pytest.mark.parametrize("path", quest_files(), ids=lambda p: p.name)
def test_tokenises_every_quest(tokenize, path):
    """Strings and comments exactly where the language has them, every character of code
    scoped, and every name of the syntax tree scoped by its role (a name is never a keyword)."""
    text = quest_text(path)
    parsed = parse_source(text, str(path))
    kept = [k for k, c in enumerate(text) if c != "\n"]
    scopes = dict(zip(kept, tokenize(text), strict=True))
    kinds = classify(text)
    parsed_comments = {k for span, _ in parsed.comments for k in range(span.start, span.end)}
    for k in kept:
        scope, kind = scopes[k], kinds[k]
        where = f"{path.name}:{text.count(chr(10), 0, k) + 1}: {text[k]!r} scoped {scope}"
        if k in parsed_comments:
            assert kind == "comment"
        is_string = any(s.startswith("string.") for s in scope)
        is_comment = any(s.startswith("comment.") for s in scope)
        assert is_string == (kind == "string") and is_comment == (kind == "comment"), where
        if kind == "code" and not text[k].isspace():
            assert scope, f"{where}: no pattern covers it"
    if parsed.tree is not None:
        for start, role in name_roles(parsed.tree).items():
            word = re.match(r"[A-Za-z_][A-Za-z0-9_]*", text[start:]).group()
            got = {scopes[k][-1] if scopes[k] else "" for k in range(start, start + len(word))}
            assert got == {role}, f"{path.name}:{text.count(chr(10), 0, start) + 1}: `{word}` scoped {got}, not {role}"


def test_the_engines_agree(vscode_textmate):
    """The Python engine gives VS Code's scopes, character by character, on every quest and case."""
    texts = [quest_text(p) for p in quest_files()] + [case[0] for case in SCOPE_CASES] + [VALUES, STRINGS]
    for text in texts:
        ours = [s for s, c in zip(python_tokenize(text), text) if c != "\n"]
        theirs = vscode_textmate(text)
        for k, (a, b) in enumerate(zip(ours, theirs, strict=True)):
            assert a == b, f"character {k} of {text[:40]!r}...: Python {a}, vscode-textmate {b}"
