"""questc.syntax.lalr runs the tables Lark builds: the generated file is current, and on
every quest, fixture and thousands of broken variants it builds Lark's tree or stops
where Lark stops, with the same token and the same expected terminals."""
from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Token as LarkToken
from lark import Tree as LarkTree
from lark.exceptions import UnexpectedCharacters, UnexpectedToken

from questc.syntax import lalr, make_tables
from questc.syntax.lalr import SyntaxProblem, grammar_text

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from generate import generated_quest  # noqa: E402  (bench/ is not a package)

CORPUS = sorted((ROOT / "quests").glob("*.quest")) + sorted((ROOT / "tests" / "fixtures").rglob("*.quest"))
POSITIONS = ("line", "column", "start_pos", "end_line", "end_column", "end_pos")


@pytest.fixture(scope="module")
def lark():
    return make_tables.lark_parser()


def assert_same_tree(ours, theirs, path="start") -> None:
    if isinstance(theirs, LarkTree):
        assert type(ours) is lalr.Tree, (path, ours)
        assert ours.data == theirs.data, path
        assert ours.meta.empty == theirs.meta.empty, path
        if not theirs.meta.empty:
            for field in POSITIONS:
                assert getattr(ours.meta, field) == getattr(theirs.meta, field), (path, field)
        assert len(ours.children) == len(theirs.children), (path, ours.children, theirs.children)
        for index, (a, b) in enumerate(zip(ours.children, theirs.children, strict=True)):
            assert_same_tree(a, b, f"{path}/{theirs.data}[{index}]")
    elif isinstance(theirs, LarkToken):
        assert type(ours) is lalr.Token, (path, ours)
        assert (ours.type, str(ours)) == (theirs.type, str(theirs)), path
        for field in POSITIONS:
            assert getattr(ours, field) == getattr(theirs, field), (path, field)
    else:
        assert ours is None and theirs is None, (path, ours, theirs)


def assert_same_outcome(lark, text: str) -> str:
    """Both parse `text` to the same tree, or both stop at the same place; says which."""
    try:
        theirs = lark.parse(text)
    except UnexpectedToken as error:
        with pytest.raises(SyntaxProblem) as raised:
            lalr.parse(text)
        ours = raised.value
        assert ours.token is not None, ("Lark found a token", error.token)
        assert (ours.token.type, str(ours.token), ours.token.start_pos) == \
            (error.token.type, str(error.token), error.token.start_pos)
        assert ours.expected == set(error.expected)
        assert ours.parser.accepts() == set(error.interactive_parser.accepts())
        return "token"
    except UnexpectedCharacters as error:
        with pytest.raises(SyntaxProblem) as raised:
            lalr.parse(text)
        ours = raised.value
        assert ours.token is None and ours.pos == error.pos_in_stream
        assert ours.expected == set(error.allowed)
        return "character"
    assert_same_tree(lalr.parse(text), theirs)
    return "tree"


def test_tables_are_current():
    """Regenerate with `python -m questc.syntax.make_tables` after editing the grammar."""
    generated = make_tables.render(make_tables.build_tables(grammar_text()))
    assert (ROOT / "questc" / "syntax" / "tables.json").read_text(encoding="utf-8") == generated
    assert make_tables.FORMAT == lalr.TABLES_FORMAT


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: str(p.relative_to(ROOT)))
def test_same_outcome_as_lark(lark, path):
    assert_same_outcome(lark, path.read_text(encoding="utf-8"))


def test_same_tree_as_lark_on_a_generated_quest(lark):
    assert assert_same_outcome(lark, generated_quest(600, areas=6)) == "tree"


def _mutants(text: str, rng: random.Random, count: int):
    """Broken variants: a piece of the text dropped, doubled, moved or replaced by a stray."""
    strays = ["@", "$", "!", "?", "&", "|", "}", "{", "(", ")", ",", ":", "1", "-", "+3", "..", '"', '"""',
              "at", "x2", "\n", ";", "#", "not", "1,", "R1:", "\\\n", "area", "2..", "=="]
    for _ in range(count):
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.randrange(1, 12))
        kind = rng.randrange(4)
        if kind == 0:
            yield text[:a] + text[b:]
        elif kind == 1:
            yield text[:b] + text[a:b] + text[b:]
        elif kind == 2:
            c = rng.randrange(len(text) + 1)
            piece, rest = text[a:b], text[:a] + text[b:]
            yield rest[:c] + piece + rest[c:]
        else:
            yield text[:a] + rng.choice(strays) + text[b:]


def test_same_outcome_as_lark_on_broken_quests(lark):
    rng = random.Random(20261122)
    outcomes = {"tree": 0, "token": 0, "character": 0}
    for path in sorted((ROOT / "quests").glob("*.quest")):
        for text in _mutants(path.read_text(encoding="utf-8"), rng, 120):
            outcomes[assert_same_outcome(lark, text)] += 1
    # The mutants reach every outcome, so each comparison above was exercised.
    assert min(outcomes.values()) >= 20, outcomes


def test_recovery_resumes_like_lark(lark):
    """With an error handler that skips to the next line, both see the same problems."""
    text = 'quest "Q" { conquest 3 }\npiece R1 room_4x4 @ 0,0\npiece R2 at\narea A { pieces R1 }\n'

    def collect(seen, position):
        def handler(problem):
            seen.append(position(problem))
            lexer_pos = problem.lexer.pos if isinstance(problem, SyntaxProblem) else \
                problem.interactive_parser.lexer_thread.state.line_ctr.char_pos
            end = text.find("\n", lexer_pos)
            if isinstance(problem, SyntaxProblem):
                problem.lexer.skip_to(max(lexer_pos, end))
            else:
                counter = problem.interactive_parser.lexer_thread.state.line_ctr
                if end > counter.char_pos:
                    counter.feed(text[counter.char_pos:end])
            return len(seen) < 10
        return handler

    ours, theirs = [], []
    with pytest.raises(SyntaxProblem):
        lalr.parse(text, on_error=collect(ours, lambda p: p.pos if p.token is None else p.token.start_pos))
    with pytest.raises((UnexpectedToken, UnexpectedCharacters)):
        lark.parse(text, on_error=collect(theirs, lambda p: getattr(p, "pos_in_stream", None)
                                          if isinstance(p, UnexpectedCharacters) else p.token.start_pos))
    assert ours == theirs and len(ours) >= 2


def test_an_edited_grammar_is_compiled_in_memory(monkeypatch):
    """Tables that do not match the grammar are not used: Lark builds the right ones."""
    shipped = lalr.load_tables()
    monkeypatch.setattr(lalr, "_TABLES", None)
    monkeypatch.setattr(lalr, "grammar_digest", lambda text: (0, 0))   # as if the grammar changed
    built = []
    real_build = make_tables.build_tables
    monkeypatch.setattr(make_tables, "build_tables", lambda text: built.append(text) or real_build(text))
    rebuilt = lalr.load_tables()
    assert built == [grammar_text()]
    assert rebuilt.actions == shipped.actions and rebuilt.rules == shipped.rules
    monkeypatch.setattr(lalr, "_TABLES", shipped)


def test_parsing_does_not_import_lark():
    code = ("import sys; from questc.syntax import parse_source; "
            "r = parse_source('quest \"Q\" { conquest 3 }\\npiece R1 room_4x4 @\\n'); "
            "assert [d.code for d in r.diagnostics] == ['Q001'], r.diagnostics; "
            "assert not [m for m in sys.modules if m == 'lark' or m.startswith('lark.')]")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)
