"""Fuzz: mutated and random quests through the whole pipeline and the command line.

Every run must end with diagnostics and exit status 0 or 1: never an exception, never
exit 2 ("internal error"). The mutator is deterministic (fixed seeds), grammar-aware
(it swaps, drops, duplicates and retypes whole statements and tokens of real quests)
and bounded, so the file runs in a fixed, small amount of work.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ACCEPTANCE
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from questc.api import check_source
from questc.cli import cli

# Property and fuzz tests: run by default; `-m "not slow"` leaves them out for a quick run.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[1]
CORPUS = sorted((ROOT / "quests").glob("*.quest")) + sorted(ACCEPTANCE.glob("*.quest"))
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in CORPUS}
TOKEN = re.compile(r'"""|"[^"\n]*"|[A-Za-z_][A-Za-z0-9_]*|[+-]?\d+(?:,\d+)?(?:\.\.\d+(?:,\d+)?)?|\S')
# Every token of the corpus, so replacements are words the grammar knows.
WORDS = sorted({t for text in TEXTS.values() for t in TOKEN.findall(text)})
ODD = [
    "",
    "0",
    "-1",
    "99999999999999999999",
    "0,0",
    "-5,-5",
    "1..0",
    "x9",
    "\t",
    "\\",
    '"',
    '"""',
    "{",
    "}",
    ";",
    "#",
    "\u00e9",
    "\u202e",
    "\x00",
    "\ufeff",
    "nan",
    "()",
    "not",
    "and",
    "or",
    "turn 45",
    "at 1000000,1000000",
    "rune red",
    "reveal",
    'use "../../etc/passwd"',
]


def mutate(text: str, rng: random.Random) -> str:
    """One to four grammar-aware edits of a quest's text."""
    for _ in range(rng.randint(1, 4)):
        lines = text.split("\n")
        kind = rng.randrange(9)
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        if kind == 0:  # drop a line
            del lines[i]
        elif kind == 1:  # duplicate a line elsewhere
            lines.insert(j, lines[i])
        elif kind == 2:  # swap two lines
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == 3:  # retype a token
            tokens = list(TOKEN.finditer(lines[i]))
            if tokens:
                t = rng.choice(tokens)
                lines[i] = lines[i][: t.start()] + rng.choice(WORDS + ODD) + lines[i][t.end() :]
        elif kind == 4:  # insert odd text
            pos = rng.randint(0, len(lines[i]))
            lines[i] = lines[i][:pos] + rng.choice(ODD) + lines[i][pos:]
        elif kind == 5:  # truncate the file
            return "\n".join(lines)[: rng.randint(0, len(text))]
        elif kind == 6:  # a line from another quest
            other = TEXTS[rng.choice(sorted(TEXTS))].split("\n")
            lines.insert(j, rng.choice(other))
        elif kind == 7:  # renumber: coordinates and counts go wild
            lines[i] = re.sub(r"\d+", lambda m: str(rng.choice([0, 1, 7, 40, 999, int(m.group()) + 1])), lines[i])
        else:  # cut a block open: drop a closing brace
            closing = [k for k, line in enumerate(lines) if line.strip() == "}"]
            if closing:
                del lines[rng.choice(closing)]
        text = "\n".join(lines)
    return text


_KEYWORDS = {line.split()[0] for text in TEXTS.values() for line in text.split("\n") if line.split()}
NAMES = [w for w in WORDS if re.fullmatch(r"[A-Za-z_]\w*", w) and w not in _KEYWORDS]
NUMBERS = re.compile(r"(?<![\w.])\d+(?![\w])")


def mutate_meaning(text: str, rng: random.Random) -> str:
    """One to three edits that keep the syntax (mostly) and change the meaning: names,
    numbers and whole one-line statements, so the later stages (names, the board, the
    reveal analysis, the checks, the renderers) get odd but parseable quests."""
    for _ in range(rng.randint(1, 3)):
        lines = text.split("\n")
        simple = [
            k
            for k, line in enumerate(lines)
            if line.strip() and "{" not in line and "}" not in line and '"""' not in line
        ]
        kind = rng.randrange(5)
        if kind == 0 and simple:  # a name becomes another known word
            k = rng.choice(simple)
            found = list(re.finditer(r"[A-Za-z_]\w*", lines[k]))
            if found:
                t = rng.choice(found)
                lines[k] = lines[k][: t.start()] + rng.choice(NAMES) + lines[k][t.end() :]
        elif kind == 1 and simple:  # a number becomes another
            k = rng.choice(simple)
            found = list(NUMBERS.finditer(lines[k]))
            if found:
                t = rng.choice(found)
                lines[k] = (
                    lines[k][: t.start()] + str(rng.choice([0, 1, 2, 3, 5, 9, 12, 30, 400])) + lines[k][t.end() :]
                )
        elif kind == 2 and simple:  # drop a statement
            del lines[rng.choice(simple)]
        elif kind == 3 and simple:  # repeat a statement
            k = rng.choice(simple)
            lines.insert(rng.choice(simple), lines[k])
        elif simple:  # a statement from another quest
            other = TEXTS[rng.choice(sorted(TEXTS))].split("\n")
            pick = [line for line in other if line.strip() and "{" not in line and "}" not in line]
            if pick:
                lines.insert(rng.choice(simple), rng.choice(pick))
        text = "\n".join(lines)
    return text


def mutants(count: int, seed: int):
    """Deterministic mutants of the corpus: half grammar-breaking, half meaning-changing."""
    rng = random.Random(seed)
    names = sorted(TEXTS)
    for k in range(count):
        name = names[k % len(names)]
        edit = mutate if k % 3 == 2 else mutate_meaning
        yield f"{name}#{k}", edit(TEXTS[name], rng)


def assert_checked(source: str, label: str) -> None:
    result = check_source(source, label)  # must not raise
    assert isinstance(result.diagnostics, list)
    for d in result.diagnostics:
        assert re.fullmatch(r"Q\d{3}", d.code), (label, d)
        assert d.message, (label, d)


def test_corpus_is_there():
    assert len(TEXTS) >= 8


@pytest.mark.parametrize("chunk", range(4))
def test_mutated_quests_through_the_api(chunk):
    for label, source in mutants(150, seed=1000 + chunk):
        assert_checked(source, label)


_WORD_LIST = st.sampled_from(WORDS + ODD + ["\n", " ", "\n", "{\n", "}\n"])


@settings(
    max_examples=60,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(_WORD_LIST, max_size=120).map(" ".join))
def test_random_token_soup_through_the_api(source):
    assert_checked(source, "<soup>")


@settings(max_examples=40, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_random_text_through_the_api(source):
    assert_checked(source, "<text>")


def _run(args, tmp_path):
    runner = CliRunner()
    result = runner.invoke(cli, args, catch_exceptions=True)
    text = result.output
    assert result.exit_code in (0, 1), (args, result.exit_code, text[-2000:], result.exception)
    assert "internal error" not in text and "Traceback" not in text, (args, text[-2000:])
    return result


def test_mutated_quests_through_lint_and_build(tmp_path):
    for k, (_label, source) in enumerate(mutants(24, seed=77)):
        quest = tmp_path / f"m{k}.quest"
        quest.write_text(source, encoding="utf-8")
        _run(["lint", str(quest)], tmp_path)
        _run(["lint", "--format", "json", str(quest)], tmp_path)
        out = tmp_path / f"out{k}"
        _run(["build", "--only", "json", "-o", str(out), str(quest)], tmp_path)
        # A build never writes next to (or over) its source unless asked, and writes
        # nothing for a quest with errors.
        assert quest.read_text(encoding="utf-8") == source


def test_undecodable_bytes_through_lint(tmp_path):
    quest = tmp_path / "bytes.quest"
    rng = random.Random(5)
    quest.write_bytes(bytes(rng.randrange(256) for _ in range(4000)))
    result = _run(["lint", str(quest)], tmp_path)
    assert result.exit_code == 1
