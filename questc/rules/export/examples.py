"""Building blocks of the export rules' example quests, and the content pack one of them loads."""

from __future__ import annotations

from questc.rules.second_examples import HEAD, MAP, second

# Files the examples `use`, by path (tests/test_rules.py writes them beside the example).
PACKS = {
    "crypt.yaml": """\
description: A second edition content pack of the examples.
set: crypt
sets:
  crypt:
    title: The Crypt
    edition: second
monsters:
  crypt_horror:
    footprint: [1, 1]
    normal: {count: 2, source: rulebook}
    master: {count: 1, source: rulebook}
""",
}

PACK_HEAD = HEAD.replace(
    "  edition second\n", '  edition second\n  expansions second_edition, crypt\n  use "crypt.yaml"\n'
)

__all__ = ["HEAD", "MAP", "PACKS", "PACK_HEAD", "second"]
