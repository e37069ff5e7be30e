"""The language server's table of the quest language's words (questc/server/keywords.py) against the
grammar (every keyword has an entry) and docs/language.md (every section it links exists), and the
game rules it names against questc.editions."""

from __future__ import annotations

import re

import pytest
from conftest import REPO

from questc.api import literals
from questc.editions import GAME_RULES
from questc.server.keywords import KEYWORDS, allowed

LANGUAGE = REPO / "docs" / "language.md"


def anchors() -> set[str]:
    """GitHub's anchors of the page's headings: lower case, punctuation dropped, spaces as hyphens."""
    found = set()
    for heading in re.findall(r"^#{2,4} (.+)$", LANGUAGE.read_text(encoding="utf-8"), re.M):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        found.add(slug)
    return found


def test_every_keyword_of_the_grammar_has_an_entry():
    words = {w for w in literals().values() if re.fullmatch(r"[a-z_]+", w)}
    # Words that only ever follow another keyword and mean nothing alone need no hover of their own.
    alone = {"active", "between", "turn", "master", "facing", "when", "at"}
    missing = sorted(words - set(KEYWORDS) - alone)
    assert not missing, f"add these to questc/server/keywords.py: {missing}"


def test_every_section_linked_exists():
    known = anchors()
    wrong = sorted({k.section for k in KEYWORDS.values()} - known)
    assert not wrong, wrong


def test_every_rule_named_is_a_game_rule():
    rules = set(GAME_RULES) | {"glyph start", "entrance start"}
    assert {k.needs for k in KEYWORDS.values() if k.needs} <= rules


def test_editions_allow_their_own_words():
    from questc.api import edition

    first, second = edition("first"), edition("second")
    assert allowed(KEYWORDS["conquest"], first) and not allowed(KEYWORDS["conquest"], second)
    assert allowed(KEYWORDS["search"], second) and not allowed(KEYWORDS["search"], first)
    assert allowed(KEYWORDS["encounter"], second, in_header=True)
    assert not allowed(KEYWORDS["encounter"], first, in_header=True)
    assert allowed(KEYWORDS["encounter"], first) and not allowed(KEYWORDS["encounter"], second)


_WORD_TERMINALS = {"ROLE"}  # a terminal of several keywords (`entrance`, `exit`), each with its entry


def _keyword_tokens(text: str):
    """The keyword tokens of a quest (a terminal named after its word, as the grammar names them)."""
    from questc.api import quest_parser

    for token in quest_parser().parse_interactive(text).iter_parse():  # the parser's own (contextual) lexing
        if token.value in KEYWORDS and (token.type == token.value.upper() or token.type in _WORD_TERMINALS):
            yield token


@pytest.mark.slow  # every shipped quest, checked or lexed
def test_hover_on_every_keyword_where_quests_write_it():
    """Every keyword, at every place the shipped quests (and the syntax fixtures) write it, hovers with
    its own entry: never a cell, a name or nothing in its place."""
    from questc.server.document import QuestDocument
    from questc.server.hover import hover_markdown

    quests = (
        sorted((REPO / "quests").glob("*.quest"))
        + sorted((REPO / "tests" / "fixtures" / "syntax").rglob("*.quest"))
        + sorted((REPO / "tests" / "fixtures" / "published").glob("*.quest"))
    )
    seen: set[str] = set()
    wrong = []
    for path in quests:
        text = path.read_text(encoding="utf-8")
        document = QuestDocument(path.resolve().as_uri(), text, 1)
        try:
            tokens = list(_keyword_tokens(text))
        except Exception:  # noqa: BLE001 - a fixture of syntax errors: its keywords are not all tokens
            continue
        index = document.index()
        for token in tokens:
            if index.occurrence_at(token.line, token.column) or index.catalog_name_at(token.line, token.column):
                continue  # a keyword's spelling used as a name (`encounter all at 1,1`): the lexer alone cannot tell
            found = hover_markdown(document, token.line, token.column + len(token.value) // 2)
            if not found or f"**`{token.value}`**" not in found:
                wrong.append(f"{path.name}:{token.line}:{token.column} {token.value}")
            seen.add(token.value)
    assert not wrong, wrong[:10]
    assert set(KEYWORDS) <= seen, f"no quest writes {sorted(set(KEYWORDS) - seen)}: add one to the fixtures"


def test_hover_finds_the_keyword_on_the_line_questc_counts():
    """A lone CR ends a line for the editor but not for questc; a byte-order mark is no column of
    questc's: hover still names the word under the cursor."""
    from lsprotocol import types

    from questc.server.document import QuestDocument
    from questc.server.hover import hover_markdown

    text = '\ufeffquest "Vats" {\n  id vats\n}\n# wax\rand more\npiece R1 room_4x4 at 0,0\narea A "A" start {\n  pieces R1\n}\n'
    document = QuestDocument("file:///vats.quest", text, 1)
    lines = document.lines()
    # The editor's lines: the lone CR made one more, so `piece` is on the editor's line 5 (0-based).
    assert lines.line_text(5).startswith("piece ")
    for position, word in (
        (types.Position(5, 2), "piece"),
        (types.Position(0, 3), "quest"),
        (types.Position(5, 19), "at"),
        (types.Position(7, 3), "pieces"),
    ):
        found = hover_markdown(document, *lines.cursor(position))
        assert found is not None and f"**`{word}`**" in found, (position, found)


@pytest.mark.slow  # every shipped quest, checked or lexed
def test_hover_on_every_catalog_name_the_quests_write():
    """Abilities, relics, lieutenants, monsters, pieces... every catalog name written in a shipped quest
    hovers with a line about it (never nothing, never "unknown")."""
    from questc.server.document import OptionsCache, QuestDocument, check
    from questc.server.hover import hover_markdown

    kinds: set[str] = set()
    wrong = []
    options = OptionsCache()
    for path in sorted((REPO / "quests").glob("*.quest")):
        document = QuestDocument(path.resolve().as_uri(), path.read_text(encoding="utf-8"), 1)
        document.checked = document.resolved = check(document, document.text, 1, options)  # its packs read
        for name in document.index().catalog_names:
            if name.kind in ("chest", "treasure card", "chest content"):
                continue  # closed lists of words: the keyword before them has the hover
            found = hover_markdown(document, name.span.line, name.span.column)
            if not found or name.name not in found or found.startswith("unknown "):
                wrong.append((path.name, name.span.line, name.kind, name.name, (found or "")[:60]))
            kinds.add(name.kind)
    assert not wrong, wrong[:5]
    assert {"ability", "relic", "lieutenant", "monster", "piece", "set"} <= kinds
