"""questc's second edition components in, the names Valkyrie's content gives them out (and back).

The names are those of Valkyrie's content list of the second edition base game
(content/D2E/base in Valkyrie's source, Apache-2.0, Copyright 2016 Nathan Parslow):
tiles.ini (tile sides), tokens.ini, monsters.ini and lieutenants.ini. Where the two
catalogs cut a component differently, the table says how:

- Valkyrie has one side `TileSide13A`; questc's data gives tile 13A as two parts,
  `tile_13a1` (a strip of four spaces) north of `tile_13a2`, one space east of its
  west edge: together they are the mirror of 13B, as a double-sided tile's two sides are.
- The entrance, the exit (Valkyrie's `EntranceStair`), the end cap (`Cap`), the extender
  (`Extension`) and the transition each have an A and a B side in Valkyrie and one
  piece in questc; the export picks the side of the numbered tile the piece joins.
- A monster's size is a trait in Valkyrie (small 1x1, medium 2x1, huge 2x2, massive
  3x2, unrotated); questc's footprints agree up to a quarter turn (geometry.py).
"""

from __future__ import annotations

import re

__all__ = [
    "LIEUTENANTS",
    "MONSTERS",
    "OBJECTIVES",
    "SIDE_PIECES",
    "SIZES",
    "SMALL_PIECES",
    "TILE_13A",
    "TILE_13A_BOX",
    "TILE_13A_PARTS",
    "TOKEN_ALIASES",
    "TOKEN_KINDS",
    "piece_for_side",
    "tile_side",
]

# The small pieces: questc's piece type -> Valkyrie's side name without its A/B letter.
SMALL_PIECES = {
    "end_cap": "TileSideCap",
    "entrance": "TileSideEntrance",
    "exit": "TileSideEntranceStair",
    "extender": "TileSideExtension",
    "transition": "TileSideTransition",
}

# questc's two parts of tile 13A and where each lies in the whole side's unturned 6x6 box:
# the strip along the north edge, one space in from the west; the rest below it.
TILE_13A = ("tile_13a1", "tile_13a2")
TILE_13A_BOX = (6, 6)
TILE_13A_PARTS = {"tile_13a1": ((1, 0), (4, 1)), "tile_13a2": ((0, 1), (6, 5))}  # part -> (offset, size)

# Every side of Valkyrie's base game, the questc piece type it is ("tile_13a" for 13A's two parts).
SIDE_PIECES: dict[str, str] = {
    **{f"TileSide{n}{s}": f"tile_{n}{s.lower()}" for n in range(1, 31) for s in "AB" if (n, s) != (13, "A")},
    "TileSide13A": "tile_13a",
    **{f"{stem}{s}": piece for piece, stem in SMALL_PIECES.items() for s in "AB"},
}

# Token types: questc's token (kind, colour) -> Valkyrie's token type.
OBJECTIVES = {
    None: "TokenObjectiveBack",
    "red": "TokenObjectiveRed",
    "blue": "TokenObjectiveBlue",
    "green": "TokenObjectiveGreen",
    "white": "TokenObjectiveWhite",
}
TOKEN_KINDS = {"search": "TokenSearch", "villager": "TokenVillagerMan"}
# Valkyrie's other token types questc reads as its own kinds (on import).
TOKEN_ALIASES = {"TokenSearchSpecial": ("search", None), "TokenVillagerWoman": ("villager", None)}

# Monster types: questc's name -> (Valkyrie's name, its size trait).
MONSTERS = {
    "zombie": ("MonsterZombie", "small"),
    "goblin_archer": ("MonsterGoblinArcher", "small"),
    "cave_spider": ("MonsterCaveSpider", "small"),
    "flesh_moulder": ("MonsterFleshMoulder", "small"),
    "barghest": ("MonsterBarghest", "medium"),
    "ettin": ("MonsterEttin", "huge"),
    "elemental": ("MonsterElemental", "huge"),
    "merriod": ("MonsterMerriod", "huge"),
    "shadow_dragon": ("MonsterShadowDragon", "massive"),
}
# Lieutenants: questc's name -> Valkyrie's monster name (every one of them is small).
LIEUTENANTS = {
    "baron_zachareth": "MonsterBaronZachareth",
    "belthir": "MonsterBelthir",
    "lady_eliza_farrow": "MonsterLadyElizaFarrow",
    "lord_merick_farrow": "MonsterLordMerickFarrow",
    "sir_alric_farrow": "MonsterSirAlricFarrow",
    "splig": "MonsterSplig",
}
# A size trait -> the (width, height) a figure covers on Valkyrie's board before `rotate`.
SIZES = {"small": (1, 1), "medium": (2, 1), "huge": (2, 2), "massive": (3, 2)}


def tile_side(piece_type: str, side: str = "A") -> str | None:
    """A questc piece type (and, for a small piece, the side letter to show) in; Valkyrie's
    tile side out (`TileSide9A`, `TileSideCapB`), or None when Valkyrie has none (a
    content pack's piece; one part of 13A alone, which only the pair makes)."""
    if piece_type in SMALL_PIECES:
        return SMALL_PIECES[piece_type] + side
    match = re.fullmatch(r"tile_(\d+)([ab])", piece_type)
    if match and f"TileSide{match[1]}{match[2].upper()}" in SIDE_PIECES:
        return f"TileSide{match[1]}{match[2].upper()}"
    return "TileSide13A" if piece_type == "tile_13a" else None


def piece_for_side(side: str) -> str | None:
    """Valkyrie's tile side in; questc's piece type out (`tile_13a` for 13A's pair), or None."""
    return SIDE_PIECES.get(side)
