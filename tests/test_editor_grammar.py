"""The TextMate grammar (editors/questc.tmLanguage.json), run by a small TextMate-style tokenizer.

The tokenizer follows TextMate's rules where the grammar uses them: at each
position the pattern matching earliest wins (ties: the first listed, the open
block's `end` before its patterns); `begin`/`end` rules nest across lines;
`include` pulls in repository entries. The regexes are written in the subset
Oniguruma and Python's `re` share, so they run unchanged.
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

import pytest

from questc.syntax import parse_source
from conftest import ACCEPTANCE

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "editors" / "questc.tmLanguage.json"
CASES = ACCEPTANCE


def quest_files() -> list[Path]:
    files = sorted((ROOT / "quests").rglob("*.quest"))
    if CASES.is_dir():
        files += sorted(CASES.glob("*.quest"))
    return files


@lru_cache(maxsize=None)
def grammar() -> dict:
    return json.loads(GRAMMAR.read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
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


def tokenize(text: str) -> list[tuple[str, ...]]:
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
            if kind == "end":
                stack.pop()
                inner = here
            else:
                inner = here + ((rule["name"],) if "name" in rule else ())
            for k in range(m.start(), m.end()):
                scopes[offset + k] = inner
            captures = rule.get("captures", {}) if kind == "match" else {}
            for group, capture in captures.items():
                if m.group(int(group)) is not None:
                    for k in range(m.start(int(group)), m.end(int(group))):
                        scopes[offset + k] = inner + (capture["name"],)
            if kind == "begin":
                stack.append(rule)
            if m.end() == pos and kind == "match":
                pos += 1   # an empty match must not stall the loop
            else:
                pos = m.end()
            if pos >= len(line) and kind != "begin":
                break
        here = tuple(r["name"] for r in stack if "name" in r)
        for k in range(pos, len(line) + 1):
            if offset + k < len(text):
                scopes[offset + k] = here
        offset += len(line) + 1
    return scopes


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


def grammar_keywords() -> set[str]:
    """Every keyword of the language: the quoted words of grammar/quest.lark."""
    return set(re.findall(r'"([a-z_]+)"', (ROOT / "grammar" / "quest.lark").read_text(encoding="utf-8")))


def test_grammar_is_a_textmate_grammar():
    g = grammar()
    assert g["scopeName"] == "source.quest" and "quest" in g["fileTypes"]
    for rule in _expand(g["patterns"]):
        assert "name" in rule or "captures" in rule, rule
        for key in ("match", "begin", "end"):
            if key in rule:
                re.compile(rule[key])


@pytest.mark.parametrize("word", sorted(grammar_keywords()))
def test_every_keyword_is_scoped_as_a_keyword(word):
    scopes = tokenize(word)
    assert len({s for s in scopes}) == 1, f"`{word}` is split into several tokens: {scopes}"
    scope = scopes[0][-1] if scopes[0] else ""
    assert scope.startswith(("keyword.", "constant.language.")), f"`{word}` is scoped {scope!r}"


def test_values_are_scoped():
    text = 'monster beastman at R1:2,3 4,5 players 2..5\nobstacle water at 7,2..8,2\nconquest +2\ncard "A \\"b\\"" x2'
    scopes = tokenize(text)

    def scope_of(fragment, occurrence=0):
        start = [m.start() for m in re.finditer(re.escape(fragment), text)][occurrence]
        return {s[-1] for s in scopes[start:start + len(fragment)]}

    assert scope_of("R1") == {"variable.other.piece.quest"}
    assert scope_of("2,3") == {"constant.numeric.point.quest"}
    assert scope_of("2..5") == {"constant.numeric.range.quest"}
    assert scope_of("7,2..8,2") == {"constant.numeric.rectangle.quest"}
    assert scope_of("+2") == {"constant.numeric.signed.quest"}
    assert scope_of("x2") == {"constant.numeric.copies.quest"}
    assert scope_of("beastman") == {"variable.other.name.quest"}
    assert "constant.character.escape.quest" in scope_of('\\"')


def test_triple_quoted_strings_span_lines_and_unclosed_strings_end_at_the_line():
    text = 'intro """\n  a "quoted" # not a comment\n"""\nread "open\nid x  # c'
    kinds, scopes = classify(text), tokenize(text)
    for k, (kind, scope) in enumerate(zip(kinds, scopes)):
        if kind == "string":
            assert scope and scope[0].startswith("string."), (k, text[k], scope)
    assert scopes[text.index("# c")][0].startswith("comment.")
    assert scopes[text.index("id x")][-1].startswith("keyword.")


@pytest.mark.parametrize("path", quest_files(), ids=lambda p: p.name)
def test_tokenises_every_quest(path):
    text = path.read_text(encoding="utf-8").lstrip("\ufeff")
    kinds, scopes = classify(text), tokenize(text)
    parsed_comments = {k for span, _ in parse_source(text, str(path)).comments for k in range(span.start, span.end)}
    for k, (kind, scope) in enumerate(zip(kinds, scopes)):
        outer = scope[0] if scope else ""
        where = f"{path.name}:{text.count(chr(10), 0, k) + 1}: {text[k]!r} scoped {scope}"
        if k in parsed_comments:
            assert kind == "comment"
        if kind == "string":
            assert outer.startswith("string."), where
        elif kind == "comment":
            assert outer.startswith("comment."), where
        else:
            assert not outer.startswith(("string.", "comment.")), where
            if not text[k].isspace():
                assert scope, f"{where}: no pattern covers it"
