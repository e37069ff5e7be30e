"""The language server's table of the quest language's words (questc/server/keywords.py) against the
grammar (every keyword has an entry) and docs/language.md (every section it links exists), and the
game rules it names against questc.editions."""
from __future__ import annotations

import re

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
