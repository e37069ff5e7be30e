"""How big a quest questc checks: the bounds every number, point and rectangle is held to
before anything is expanded, so no file of a few hundred bytes can cost minutes or gigabytes.

A real quest is a few kilobytes on a map a few dozen cells across; these limits are
generous by orders of magnitude and each is refused with a Q006 at the place it is
passed (docs/language.md, "Limits"). The size, nesting and syntax-error limits of the
parser are in questc.syntax.parser.
"""

from __future__ import annotations

# The largest map the checks analyse: exact line of sight costs about cells x box size.
# The biggest real quests have a few hundred cells; the benchmark's largest has 8,000.
MAX_MAP_CELLS = 20_000
MAX_MAP_SIDE = 400

# A coordinate (x or y, absolute or from a piece's corner): the map is at most
# MAX_MAP_SIDE across, wherever the writer puts it.
MAX_COORDINATE = 10_000

# Any other number: a count, conquest, coins, threat, a round, copies of a card.
MAX_NUMBER = 1_000_000

# A point or rectangle further than this outside the box of the map's floor is refused
# when the quest is resolved: nothing there can be on the map, and the board's bitsets
# would grow with the distance.
MAX_OFF_MAP = MAX_MAP_SIDE

# The cells all `cells` and obstacle rectangles of a quest may name together, once cut
# to the box of the map (a cell named twice counts twice).
MAX_NAMED_CELLS = 5 * MAX_MAP_CELLS


def excerpt(text: str, width: int = 24) -> str:
    """A long number or word cut for a message: its head, then how long it was."""
    if len(text) <= width:
        return text
    return f"{text[: width - 8]}... ({len(text):,} characters)"


# Files read whole, each checked for its size before it is read (questc.files).
# A quest of MAX_SOURCE_CHARS characters (questc.syntax.parser) is at most 4 bytes each.
MAX_QUEST_BYTES = 4_000_000
MAX_PACK_BYTES = 1_000_000  # a content pack; the built-in base.yaml is 9 kB
MAX_CONFIG_BYTES = 1_000_000  # questc.toml or pyproject.toml
# YAML nodes in a pack once its aliases are followed: a "billion laughs" of nested
# aliases is a few hundred bytes that expand to billions. base.yaml has about 1,200.
MAX_YAML_NODES = 100_000
MAX_YAML_DEPTH = 50  # levels of nesting in a pack; a catalog entry has about five
