"""The catalog's values: frozen records of pieces, monsters, props, cards and sets, and the Catalog that holds them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypeVar

from questc.catalog import shapes
from questc.catalog.codes import Q101, Q104
from questc.catalog.lookup import KIND_WORDS, closest, closest_match, rename_fix
from questc.diagnostics.core import Diagnostic, Span
from questc.editions import DEFAULT as DEFAULT_EDITION
from questc.records import record

Cell = tuple[int, int]

PIECE_KINDS = ("room", "corridor", "intersection", "dead_end")
# The second edition's map pieces: numbered tiles (two sides each) and the small pieces
# that close, lengthen or lead off a map.
TILE_KINDS = ("tile", "end_cap", "extender", "transition", "entrance", "exit")
CARD_TYPES = ("event", "trap", "spawn", "power")
# A treachery gem's colour and the budget it is paid from (quest header `treachery`).
TREACHERY_COLOURS = {"green": "event", "purple": "trap", "red": "monster"}
TREACHERY_KINDS = {kind: colour for colour, kind in TREACHERY_COLOURS.items()}
FACINGS = ("north", "east", "south", "west")
K = TypeVar("K")
V = TypeVar("V")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def frozen_map(items: Mapping[K, V] | Iterable[tuple[K, V]] = ()) -> Mapping[K, V]:
    """A dict (or pairs) in, a read-only view of a copy out: cached catalogs are shared."""
    return MappingProxyType(dict(items))


@record(slots=True)
class Count:
    """How many of a component a set holds (None: unknown) and who says so.

    `source` is 'rulebook' when a rule book states the number, 'estimate' otherwise,
    and 'declared' for a count the writer declared owning (the configuration's
    `[owned]` table, questc.catalog.owned); a check built on an estimate warns where
    one built on a rule book or a declaration errs.
    """

    count: int | None = None
    source: str | None = None

    @property
    def known(self) -> bool:
        return self.count is not None

    @classmethod
    def total(cls, parts: Iterable[Count]) -> Count:
        """Counts in, their sum out: a rule book's number only if every part is one.

        Unknown parts make the sum a lower bound, so it becomes an estimate; with no
        known part at all the total is unknown. No parts at all means none owned.
        """
        parts = list(parts)
        if not parts:
            return cls(0, "rulebook")
        known = [p for p in parts if p.count is not None]
        if not known:
            return cls(None, None)
        rulebook = len(known) == len(parts) and all(p.source == "rulebook" for p in known)
        return cls(sum(p.count for p in known if p.count is not None), "rulebook" if rulebook else "estimate")

    def times(self, copies: int) -> Count:
        """The count of `copies` copies of the set (an unknown count stays unknown)."""
        return self if self.count is None or copies == 1 else Count(self.count * copies, self.source)

    def __str__(self) -> str:
        return "unknown" if self.count is None else f"{self.count} ({self.source})"


NONE_OWNED = Count(0, "rulebook")
UNKNOWN = Count(None, None)


@record(slots=True)
class Opening:
    """A two-cell stretch of a piece's outline, on one side, where it can join another piece.

    `cells` are the two floor cells inside the outline, in (x, y) order; `end` marks a
    corridor end (left unjoined, it draws a warning).
    """

    side: str
    cells: tuple[Cell, Cell]
    end: bool

    def edges(self) -> tuple[tuple[int, int, int, int], ...]:
        """The two unit edges the opening covers, as normalised (x1, y1, x2, y2)."""
        out = []
        for x, y in self.cells:
            out.append(
                {
                    "north": (x, y, x + 1, y),
                    "south": (x, y + 1, x + 1, y + 1),
                    "west": (x, y, x, y + 1),
                    "east": (x + 1, y, x + 1, y + 1),
                }[self.side]
            )
        return tuple(sorted(out))

    def outside(self) -> tuple[Cell, Cell]:
        """The two cells just beyond the opening, where a joining piece's cells lie."""
        dx, dy = shapes.OUTWARD[self.side]
        a, b = self.cells
        return ((a[0] + dx, a[1] + dy), (b[0] + dx, b[1] + dy))


@record(slots=True)
class PlacedShape:
    """A piece on the map: absolute cells and openings (sides already turned) and its turned box.

    `terrain`: terrain kind -> the absolute cells printed with it (a tile's water, pits,
    lava, blocked spaces); `edge`: the cells a figure may leave the map from (the
    entrance and exit pieces' edge spaces).
    """

    cells: frozenset[Cell]
    openings: tuple[Opening, ...]
    width: int
    height: int
    terrain: Mapping[str, frozenset[Cell]] = field(default_factory=lambda: _EMPTY, hash=False)
    edge: frozenset[Cell] = frozenset()


# The placements a piece type keeps (PieceType.placed): a map of 2,000 cells places a type a
# few hundred times.
PLACEMENTS_KEPT = 4096


@record
class PieceType:
    """A map piece type: its kind, set, unturned width×height box, floor cells and openings."""

    name: str
    kind: str
    set: str
    width: int
    height: int
    cells: frozenset[Cell]
    openings: tuple[Opening, ...]
    note: str = ""
    # Printed terrain: kind -> unturned cells (second edition tiles); marks: kind -> its shape letter.
    terrain: Mapping[str, frozenset[Cell]] = field(default_factory=lambda: _EMPTY, hash=False)
    marks: Mapping[str, str] = field(default_factory=lambda: _EMPTY, hash=False)
    # The code printed on a second edition tile (`1A`; both halves of 13A say `13A`).
    tile: str | None = None
    edge: frozenset[Cell] = frozenset()
    # 'estimate' when the layout is doubted (the catalog says why in `note`).
    source: str | None = None

    @property
    def shape(self) -> tuple[str, ...]:
        """The unturned shape as text rows (`o` floor, `.` none, a terrain kind's letter on its cells)."""
        rows = [list(row) for row in shapes.cells_to_rows(self.cells, self.width, self.height)]
        for kind, cells in self.terrain.items():
            for x, y in cells:
                rows[y][x] = self.marks.get(kind, "o")
        return tuple("".join(row) for row in rows)

    @property
    def tile_number(self) -> str | None:
        """The number of the physical tile (`1A` and `1B` are both tile `1`), or None."""
        return self.tile.rstrip("AB") if self.tile else None

    def placed(self, at: Cell, turn: int = 0) -> PlacedShape:
        """Top-left point and degrees clockwise in, the piece's absolute cells and openings out.

        The piece turns about its top-left corner, then shifts so its new bounding
        box's top-left corner is at `at`. A piece type keeps the placements it made (the
        language server resolves every piece of the map after each keystroke, and most
        stay where they were): up to PLACEMENTS_KEPT of them, then it starts again.
        """
        key = (at, turn)
        kept: dict[tuple[Cell, int], PlacedShape] = self.__dict__.setdefault("_placements", {})
        found = kept.get(key)
        if found is None:
            if len(kept) >= PLACEMENTS_KEPT:
                kept.clear()
            found = kept[key] = self._place(at, turn)
        return found

    def _place(self, at: Cell, turn: int) -> PlacedShape:
        w, h = self.width, self.height
        cells = shapes.shift(shapes.turn_cells(self.cells, w, h, turn), at)
        openings = []
        for opening in self.openings:
            turned = shapes.shift(shapes.turn_cells(opening.cells, w, h, turn), at)
            first, second = sorted(turned)
            openings.append(Opening(shapes.turn_side(opening.side, turn), (first, second), opening.end))
        tw, th = shapes.turned_size(w, h, turn)
        terrain = {
            kind: shapes.shift(shapes.turn_cells(kind_cells, w, h, turn), at)
            for kind, kind_cells in self.terrain.items()
        }
        edge = shapes.shift(shapes.turn_cells(self.edge, w, h, turn), at) if self.edge else frozenset()
        return PlacedShape(cells, tuple(openings), tw, th, frozen_map(terrain), edge)


# The hero count of a monster card's first group column (MonsterType.group).
GROUP_HEROES = 2


@record
class MonsterType:
    """A monster type: set, unturned footprint (w, h), normal and master figures owned, optional stats."""

    name: str
    set: str
    footprint: tuple[int, int]
    normal: Count
    master: Count
    stats: Mapping[str, Any] | None = field(default=None, hash=False)  # (as the catalog writes them)
    note: str = ""
    # Second edition: the card's traits (the quest's traits choose open groups) and its group
    # by the number of heroes: (minions, masters) for 2, 3 and 4 heroes; `group_source` says
    # where the numbers come from (`estimate`: not from the rule book).
    traits: tuple[str, ...] = ()
    group: tuple[tuple[int, int], ...] = ()
    group_source: str | None = None

    def group_size(self, heroes: int) -> tuple[int, int] | None:
        """(minions, masters) in a group with that many heroes (the first or last column beyond the card's);
        None when the catalog gives no group."""
        if not self.group:
            return None
        return self.group[min(max(heroes - GROUP_HEROES, 0), len(self.group) - 1)]

    @property
    def large(self) -> bool:
        """More than one space: large figures skip stairs and only fall wholly into pits."""
        return self.footprint != (1, 1)

    def size(self, facing: str | None = None) -> tuple[int, int]:
        """Facing in, (w, h) out: north/south keep the footprint, east/west swap it."""
        if facing is not None and facing not in FACINGS:
            raise ValueError(f"unknown facing {facing!r}")
        w, h = self.footprint
        return (h, w) if facing in ("east", "west") else (w, h)

    def cells(self, at: Cell, facing: str | None = None) -> frozenset[Cell]:
        """Top-left cell and facing in, every cell the figure fills out."""
        w, h = self.size(facing)
        x0, y0 = at
        return frozenset((x0 + dx, y0 + dy) for dx in range(w) for dy in range(h))


@record
class ObstacleKind:
    """An obstacle or trap kind and what it blocks.

    `sight_rule` names a special sight rule: 'fog' (blocks sight except into an
    adjacent fog cell and out of one to adjacent cells) or 'pit' (a figure in it
    sees only the pit and the cells next to it; others see in normally).
    `wall_like` kinds act as walls; `facing` kinds are placed with a direction.
    `movement_rule` names a special movement rule: 'pit' (a figure in it spends no
    movement points: it leaves it only for a space of another kind, never another pit).
    """

    name: str
    set: str
    trap: bool
    blocks_movement: bool
    blocks_sight: bool
    sight_rule: str | None
    wall_like: bool
    facing: bool
    count: Count
    movement_cost: int = 1
    note: str = ""
    mark: str = ""  # terrain only: the letter that draws it in a piece's shape
    movement_rule: str | None = None


@record
class MarkerKind:
    """A marker kind (door, glyph, chest, ...): its set, the count its own set holds, counts per set."""

    name: str
    set: str
    count: Count
    counts: Mapping[str, Count] = field(default_factory=lambda: _EMPTY, hash=False)
    variants: tuple[str, ...] = ()
    note: str = ""


@record
class TreasureKind:
    """A kind of `treasure KIND` marker (healing, vitality, power, money): set and counts as for markers."""

    name: str
    set: str
    count: Count
    counts: Mapping[str, Count] = field(default_factory=lambda: _EMPTY, hash=False)
    title: str = ""
    potion: bool = False
    note: str = ""


@record
class CardType:
    """An overlord card; every value the books do not state is None.

    A card with no treachery colour belongs to the base deck; one with a colour may
    be swapped in by paying `treachery_cost` from the budget `treachery_kind` names.
    """

    name: str
    set: str
    type: str | None = None
    threat_cost: int | None = None
    discard_value: int | None = None
    treachery_colour: str | None = None
    treachery_cost: int | None = None
    copies: Count = UNKNOWN
    note: str = ""

    @property
    def base_deck(self) -> bool:
        return self.treachery_colour is None

    @property
    def treachery_kind(self) -> str | None:
        """The header budget ('event', 'trap', 'monster') this card is paid from, if any."""
        return TREACHERY_COLOURS.get(self.treachery_colour) if self.treachery_colour else None


@record
class DarkGlyph:
    """A dark glyph (Altar of Despair): its set and the treachery colour and cost that buy it."""

    name: str
    set: str
    colour: str
    cost: int
    note: str = ""

    @property
    def treachery_kind(self) -> str:
        return TREACHERY_COLOURS[self.colour]


@record
class ChestCard:
    """A kind of card a chest chart may give (`feat [N]`) that belongs to one set.

    Copper, silver and gold treasure cards and curses are the base game's and are
    not listed; a kind listed here needs its set in the quest's `expansions`.
    """

    name: str
    set: str
    title: str = ""
    note: str = ""


@record
class SetInfo:
    """A component set and its inventory: pieces by kind, markers and treasures by name, totals.

    `pack` is the content pack that declared the set (None for a built-in set).
    """

    name: str
    title: str = ""
    pieces: Mapping[str, Count] = field(default_factory=lambda: _EMPTY, hash=False)
    markers: Mapping[str, Count] = field(default_factory=lambda: _EMPTY, hash=False)
    treasures: Mapping[str, Count] = field(default_factory=lambda: _EMPTY, hash=False)
    totals: Mapping[str, Count] = field(default_factory=lambda: _EMPTY, hash=False)
    note: str = ""
    pack: str | None = None
    edition: str = DEFAULT_EDITION  # the name of the edition whose quests may use the set's components


@record(eq=False)
class Catalog:
    """Every component questc knows: built-in sets plus the content packs loaded.

    All mappings are read-only. `expansions` is the set list given to load_catalog
    (None if none was): set_check uses it when called without one.
    """

    pieces: Mapping[str, PieceType]
    monsters: Mapping[str, MonsterType]
    obstacles: Mapping[str, ObstacleKind]
    treasures: Mapping[str, TreasureKind]
    markers: Mapping[str, MarkerKind]
    cards: Mapping[str, CardType]
    dark_glyphs: Mapping[str, DarkGlyph]
    rune_colours: tuple[str, ...]
    sets: Mapping[str, SetInfo]
    expansions: tuple[str, ...] | None = None
    chest_cards: Mapping[str, ChestCard] = field(default_factory=lambda: _EMPTY)
    # Terrain printed on map pieces (second edition tiles), by kind; not placed by quests.
    terrain: Mapping[str, ObstacleKind] = field(default_factory=lambda: _EMPTY)
    # The content pack files loaded (resolved): a build must never write over one.
    pack_files: tuple[Path, ...] = ()

    # --- names -------------------------------------------------------------------

    def names(self, kind: str) -> tuple[str, ...]:
        """A lookup kind in, every known name of that kind out (sorted)."""
        if kind == "colour":
            return tuple(self.rune_colours)
        return tuple(sorted(self._table(kind)))

    def _table(self, kind: str) -> Mapping[str, Any]:  # (the entries of one kind: pieces, monsters...)
        if kind == "obstacle":
            return {n: o for n, o in self.obstacles.items() if not o.trap}
        if kind == "trap":
            return {n: o for n, o in self.obstacles.items() if o.trap}
        if kind == "colour":
            return {c: c for c in self.rune_colours}
        tables = {
            "piece": self.pieces,
            "monster": self.monsters,
            "treasure": self.treasures,
            "marker": self.markers,
            "card": self.cards,
            "set": self.sets,
            "dark_glyph": self.dark_glyphs,
            "chest_card": self.chest_cards,
        }
        if kind not in tables:
            raise ValueError(f"unknown catalog kind {kind!r}; one of {', '.join(KIND_WORDS)}")
        return tables[kind]

    def lookup(self, kind: str, name: str) -> Any:  # (the entry of that kind: its type depends on `kind`)
        """A kind ('piece', 'monster', 'obstacle', 'trap', ...) and a name in, the entry or None out.

        'obstacle' finds only obstacles and 'trap' only traps; 'colour' returns the
        colour name itself.
        """
        return self._table(kind).get(name)

    def suggest(self, kind: str, name: str) -> str | None:
        """A kind and an unknown name in, the closest known name of that kind (or None) out."""
        return closest(name, self.names(kind))

    def unknown(self, kind: str, name: str, span: Span) -> Diagnostic:
        """A Q101 for a name the catalog lacks, with the most useful help found."""
        word = KIND_WORDS[kind]
        sibling = {"obstacle": "trap", "trap": "obstacle"}.get(kind)
        if sibling and self.lookup(sibling, name) is not None:
            help = f"`{name}` is {'a trap' if sibling == 'trap' else 'an obstacle'}: write `{sibling} {name}`"
        elif (match := closest_match(name, self.names(kind))) is not None:
            return Q101.at(span, kind=word, name=name, help=match.help(name), fixes=rename_fix(span, name, match))
        else:
            known = self.names(kind)
            if not known:
                help = f"the catalog has no {word}s; a content pack (`use`) can add them"
            elif len(known) <= 12:
                help = f"known {word}s: " + ", ".join(f"`{n}`" for n in known)
            else:
                section = {"piece": "pieces", "monster": "monsters", "card": "cards"}.get(kind, "props")
                help = f"`questc catalog {section}` lists the known {word}s"
        return Q101.at(span, kind=word, name=name, help=help)

    def edition_of(self, set_name: str) -> str:
        """The name of the edition a set's components belong to (SetInfo.edition: the first unless the
        set says otherwise)."""
        info = self.sets.get(set_name)
        return info.edition if info is not None else SetInfo.edition

    def set_check(
        self,
        kind: str,
        name: str,
        set_name: str,
        expansions: Iterable[str] | None,
        span: Span,
        edition: str | None = None,
    ) -> Diagnostic | None:
        """A component's kind, name and set, and the quest's sets (and edition), in; a Q104 or None out.

        A component of the other edition's set is a Q104 whatever `expansions` says (a
        quest is played with one edition's components), with a hint naming the edition.
        With `expansions` None the catalog's own `expansions` apply, else `base` alone
        (the quest header's default).
        """
        word = KIND_WORDS.get(kind, kind)
        if edition is not None:
            wrong = self.edition_check(kind, name, set_name, edition, span)
            if wrong is not None:
                return wrong
        if expansions is None:
            expansions = self.expansions if self.expansions is not None else ("base",)
        if set_name in tuple(expansions):
            return None
        return Q104.at(span, kind=word, name=name, set=set_name, reason="which the quest's `expansions` does not list")

    def edition_check(self, kind: str, name: str, set_name: str, edition: str, span: Span) -> Diagnostic | None:
        """A Q104 with a hint when a component's set belongs to the other edition than the quest's, else None."""
        own = self.edition_of(set_name)
        if own == edition:
            return None
        help = (
            f"`{name}` belongs to the {own} edition: write `edition {own}` in the header for a {own} edition "
            f"quest, or use a {edition} edition component (`questc catalog` lists them with their sets)"
        )
        return Q104.at(
            span,
            kind=KIND_WORDS.get(kind, kind),
            name=name,
            set=set_name,
            label=f"a {own} edition component",
            reason=f"a {own} edition set, and this quest is `edition {edition}`",
            help=help,
        )

    # --- what owned sets hold ----------------------------------------------------

    def _held(self, set_name: str, category: str, name: str, introduced: bool) -> Count:
        """What one set holds of one item: listed count, unknown, or none."""
        info = self.sets.get(set_name)
        if info is None:
            return NONE_OWNED
        listed = getattr(info, category)
        if name in listed:
            return listed[name]
        if introduced:  # the set brings the item but its books do not count it
            return UNKNOWN
        if category == "pieces" and not info.pieces and info.totals.get("map_pieces", NONE_OWNED).count != 0:
            # Pieces of kinds the books do not name (Altar of Despair's eight).
            return UNKNOWN
        return NONE_OWNED

    # `copies` (set -> how many of it the writer owns, 1 when not named) multiplies what each
    # set holds: two base games hold twenty rooms.

    def pieces_owned(self, kind: str, sets: Iterable[str], copies: Mapping[str, int] | None = None) -> Count:
        """A piece kind and the owned sets in, how many pieces of that kind they hold out."""
        sets = list(dict.fromkeys(sets))
        return Count.total(
            self._held(s, "pieces", kind, any(p.kind == kind and p.set == s for p in self.pieces.values())).times(
                (copies or {}).get(s, 1)
            )
            for s in sets
            if s in self.sets
        )

    def markers_owned(self, name: str, sets: Iterable[str], copies: Mapping[str, int] | None = None) -> Count:
        """A marker kind and the owned sets in, how many markers of that kind they hold out."""
        marker = self.markers.get(name)
        return Count.total(
            self._held(s, "markers", name, marker is not None and marker.set == s).times((copies or {}).get(s, 1))
            for s in dict.fromkeys(sets)
            if s in self.sets
        )

    def treasures_owned(self, name: str, sets: Iterable[str], copies: Mapping[str, int] | None = None) -> Count:
        """A treasure kind and the owned sets in, how many of its markers they hold out."""
        treasure = self.treasures.get(name)
        return Count.total(
            self._held(s, "treasures", name, treasure is not None and treasure.set == s).times((copies or {}).get(s, 1))
            for s in dict.fromkeys(sets)
            if s in self.sets
        )

    def figures_owned(
        self, monster: str, rank: str, sets: Iterable[str], copies: Mapping[str, int] | None = None
    ) -> Count:
        """A monster type, 'normal' or 'master', and the owned sets in, the figures owned out.

        A named monster uses a master figure, so 'named' counts as 'master'.
        """
        rank = {"named": "master"}.get(rank, rank)
        if rank not in ("normal", "master"):
            raise ValueError(f"a figure's rank is normal, master or named, not {rank!r}")
        entry = self.monsters.get(monster)
        if entry is None or entry.set not in set(sets):
            return NONE_OWNED
        count: Count = getattr(entry, rank)
        return count.times((copies or {}).get(entry.set, 1))

    def copies_owned(self, card: str, sets: Iterable[str], copies: Mapping[str, int] | None = None) -> Count:
        """An overlord card's name and the owned sets in, the copies owned out."""
        entry = self.cards.get(card)
        if entry is None or entry.set not in set(sets):
            return NONE_OWNED
        return entry.copies.times((copies or {}).get(entry.set, 1))
