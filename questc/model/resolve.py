"""Syntax tree + catalog -> QuestModel, with the name diagnostics (Q101-Q106).

Every name is looked up once here: identifiers defined by the quest (pieces, doors,
areas, encounters, named monsters) and catalog names (piece types, monsters,
obstacles, traps, treasures, colours, sets, cards). Later stages never see an
unresolved name.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from questc import editions
from questc.catalog import Catalog, load_catalog
from questc.catalog.codes import Q101
from questc.catalog.load import PackSpec
from questc.diagnostics.core import Diagnostic, Label, Span
from questc.limits import MAX_NAMED_CELLS, MAX_OFF_MAP
from questc.model.codes import Q102, Q103, Q105
from questc.model.quest import (
    OPEN_GROUP,
    AreaModel,
    CounterModel,
    DoorModel,
    EncounterModel,
    Figure,
    GroupModel,
    HeroStartModel,
    Marker,
    NamedModel,
    ObstacleModel,
    PlacedPieceModel,
    QuestModel,
    StairsModel,
    TokenModel,
)
from questc.paths import project_root
from questc.syntax import nodes as n
from questc.syntax.codes import Q006

TREACHERY_PARTS = ("event", "trap", "monster")
# The base game's chest cards; other kinds (feat: Tomb of Ice) come from the catalog's `chest_cards`.
CHEST_CONTENT_CARDS = ("copper", "silver", "gold", "curse")
SIDES = ("heroes", "overlord")
# What a group-wide change may change (`all +2 health`): a second edition monster card's numbers.
GROUP_STATS = ("health", "speed")
ALL = "all"  # `defeated all`: every monster


def default_id(title: str) -> str:
    """The header's default id: the title lower-cased, every run of other characters as `_`."""
    made = re.sub(r"[^a-z0-9]+", "_", title.lower()).strip("_") or "quest"
    # The files `build` writes are named after it: at most DEFAULT_ID_LENGTH characters (a
    # 300-character title made a file name too long for any file system).
    return made[:DEFAULT_ID_LENGTH].rstrip("_")


DEFAULT_ID_LENGTH = 80

T = TypeVar("T")


class Resolver:
    """Turns a syntax tree into the quest model: names looked up in the catalog, cells placed, errors reported."""

    def __init__(self, quest_file: n.QuestFile, *, packs: Iterable[PackSpec] = (), root: Path | None = None):
        self.file = quest_file
        self.path = quest_file.path
        self.diagnostics: list[Diagnostic] = []
        self.extra_packs = list(packs)  # (path, span|None, base_dir) from configuration
        self.root = root
        self.catalog: Catalog  # loaded by resolve(), before any lookup
        self.model: QuestModel  # made by resolve()
        # The box of the map's floor, grown by MAX_OFF_MAP: set once the pieces are placed;
        # a point or rectangle outside it is refused before any stage uses it.
        self.reach: tuple[int, int, int, int] | None = None
        self.named_cells = 0  # cells expanded from rectangles so far (MAX_NAMED_CELLS)
        self.placed = False  # some piece is on the map (place_map)

    # ---- helpers --------------------------------------------------------
    def report(self, diagnostic: Diagnostic | None) -> None:
        if diagnostic is not None:
            self.diagnostics.append(diagnostic)

    def lookup(self, kind: str, name: n.Name | None) -> Any:  # (Catalog.lookup's entry of that kind)
        if name is None:  # the parser reported the missing name
            return None
        entry = self.catalog.lookup(kind, name.value)
        if entry is None:
            self.report(self.catalog.unknown(kind, name.value, name.span))
            return None
        set_name = getattr(entry, "set", None)
        if set_name:
            self.report(
                self.catalog.set_check(
                    kind,
                    name.value,
                    set_name,
                    self.model.expansions,
                    name.span,
                    edition=self.model.edition.component_edition,
                )
            )
        return entry

    def edition_check(self, marker: str, span: Span) -> None:
        """A Q104 when a marker kind the language places (glyph, chest, stairs...) is the other edition's."""
        entry = self.catalog.markers.get(marker)
        if entry is not None and entry.set:
            self.report(
                self.catalog.edition_check("marker", marker, entry.set, self.model.edition.component_edition, span)
            )

    def token_check(self, marker: str, span: Span) -> bool:
        """The set and edition checks of a second edition token kind (search, objective...); False if unknown."""
        entry = self.catalog.markers.get(marker)
        if entry is None:  # a catalog without the second edition (cannot happen with the built-in one)
            self.report(self.catalog.unknown("marker", marker, span))
            return False
        self.report(
            self.catalog.set_check(
                "marker", marker, entry.set, self.model.expansions, span, edition=self.model.edition.component_edition
            )
        )
        return True

    def undefined(self, kind: str, name: n.Name, known: Iterable[str]) -> None:
        from questc.catalog.lookup import closest_match, rename_fix

        match = closest_match(name.value, list(known))
        if match is None:
            self.report(Q103.at(name.span, kind=kind, name=name.value))
            return
        self.report(
            Q103.at(
                name.span,
                kind=kind,
                name=name.value,
                help=match.help(name.value),
                fixes=rename_fix(name.span, name.value, match, identifier=True),
            )
        )

    def not_in_list(self, kind: str, name: n.Name, known: Iterable[str], listing: str) -> None:
        """Q101 for a word from a short fixed list (chest types, sides, ...): a did-you-mean
        (with its fix) when one is close, else the list."""
        from questc.catalog.lookup import closest_match, rename_fix

        match = closest_match(name.value, list(known))
        if match is None:
            self.report(Q101.at(name.span, kind=kind, name=name.value, help=listing))
            return
        self.report(
            Q101.at(
                name.span,
                kind=kind,
                name=name.value,
                help=f"{match.help(name.value)} ({listing})",
                fixes=rename_fix(name.span, name.value, match),
            )
        )

    def define(self, table: dict[str, T], kind: str, name: n.Name, value: T) -> bool:
        if name.value in table:
            first = table[name.value]
            first_span = getattr(getattr(first, "node", None), "id", None)
            labels = [Label(first_span.span, "first defined here")] if first_span is not None else []
            self.report(Q102.at(name.span, kind=kind, name=name.value, labels=labels))
            return False
        table[name.value] = value
        return True

    def chest_kinds(self) -> tuple[str, ...]:
        """The chest types the catalog knows (copper, silver, gold)."""
        chest = self.catalog.markers.get("chest")
        return chest.variants if chest is not None else ()

    def cell(self, point: n.PointRef) -> tuple[int, int] | None:
        if point.piece is None:
            return self.near((point.x, point.y, point.x, point.y), point.span)
        piece = self.model.pieces.get(point.piece.value)
        if piece is None:
            self.undefined("piece", point.piece, self.model.pieces)
            return None
        ox, oy = piece.at
        return self.near((ox + point.x, oy + point.y, ox + point.x, oy + point.y), point.span)

    def cells_of(self, cell_set: n.CellSet) -> list[tuple[int, int]]:
        if cell_set.piece is not None:
            point = self.cell(n.PointRef(cell_set.span, cell_set.x1, cell_set.y1, cell_set.piece))
            return [point] if point else []
        x1, x2 = sorted((cell_set.x1, cell_set.x2))
        y1, y2 = sorted((cell_set.y1, cell_set.y2))
        if self.near((x1, y1, x2, y2), cell_set.span) is None:
            return []
        self.named_cells += (x2 - x1 + 1) * (y2 - y1 + 1)
        if self.named_cells > MAX_NAMED_CELLS:
            self.report(
                Q006.at(
                    cell_set.span,
                    problem=f"the rectangles of this quest name over {MAX_NAMED_CELLS:,} cells in all",
                    label="too many cells from here on",
                    help_text="claim whole pieces with `pieces`, and each cell once",
                )
            )
            self.named_cells = -(10**9)  # reported once; nothing more is expanded
            return []
        if self.named_cells < 0:
            return []
        return [(x, y) for y in range(y1, y2 + 1) for x in range(x1, x2 + 1)]

    def near(self, box: tuple[int, int, int, int], span: Span) -> tuple[int, int] | None:
        """A point or rectangle (x1, y1, x2, y2; a point is its own corners) in; its first
        corner, or None with a Q006 when it lies outside the map's floor by more than
        MAX_OFF_MAP cells. Checked as a rectangle, before anything is expanded: a far
        cell would make every bitset of the board as long as the distance."""
        if self.reach is None:
            return (box[0], box[1])
        lx, ly, hx, hy = self.reach
        x1, y1, x2, y2 = box
        if lx <= x1 and x2 <= hx and ly <= y1 and y2 <= hy:
            return (x1, y1)
        what = f"the point {x1},{y1}" if box[:2] == box[2:] else f"the rectangle {x1},{y1}..{x2},{y2}"
        pieces = (lx + MAX_OFF_MAP, ly + MAX_OFF_MAP, hx - MAX_OFF_MAP, hy - MAX_OFF_MAP)
        where = (
            "the map's pieces span {},{}..{},{}; put it there".format(*pieces)
            if self.placed
            else "no piece is placed: points are on the map's pieces, near 0,0"
        )
        self.report(
            Q006.at(
                span,
                problem=f"{what} lies far off the map",
                label=f"more than {MAX_OFF_MAP} cells off the map",
                help_text=where,
            )
        )
        return None

    def place_map(self) -> None:
        """The map's box, once every piece is placed (the origin when none is)."""
        boxes = [
            (p.at[0], p.at[1], p.at[0] + p.shape.width - 1, p.at[1] + p.shape.height - 1)
            for p in self.model.pieces.values()
            if p is not None
        ]
        lx, ly, hx, hy = (
            (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
            if boxes
            else (0, 0, 0, 0)
        )
        self.reach = (lx - MAX_OFF_MAP, ly - MAX_OFF_MAP, hx + MAX_OFF_MAP, hy + MAX_OFF_MAP)
        self.placed = bool(boxes)

    # ---- the quest --------------------------------------------------------
    def resolve(self) -> QuestModel:
        header = self.file.header
        get = header.get if header else (lambda _k: None)

        def value(
            keyword: str, default: n.HeaderValue | None = None
        ) -> Any:  # (the field's value: its type is the keyword's)
            field = get(keyword)
            return field.value if field is not None else default

        title = header.title.value if header else Path(self.path).stem
        edition_name = value("edition")
        # An edition questc does not know is the parser's Q004: no model is made of such a quest.
        edition = (editions.find(edition_name.value) if edition_name else None) or editions.edition()
        reveal_name = value("reveal")
        reveal = reveal_name.value if reveal_name else edition.reveal
        players = value("players")
        quest_dir = Path(self.path).parent
        root = self.root or project_root(quest_dir)
        packs = [(use.value, use.span, quest_dir) for use in (header.packs() if header else ())]
        self.catalog, problems = load_catalog(packs + self.extra_packs, root=root)
        self.diagnostics.extend(problems)

        expansion_names = value("expansions", ())
        self.model = model = QuestModel(
            path=self.path,
            syntax=self.file,
            header=header,
            catalog=self.catalog,
            id=value("id").value if value("id") else default_id(title),
            title=title,
            edition=edition,
            expansions=tuple(e.value for e in expansion_names) or edition.default_sets,
            players=(players.low, players.high) if players else (2, 5),
            conquest=value("conquest"),
            treachery=None,
            reveal=reveal,
            author=value("author").value if value("author") else None,
            version=value("version").value if value("version") else None,
            intro=value("intro").value if value("intro") else None,
            special=value("special").value if value("special") else None,
            encounter=value("encounter").number if value("encounter") else None,
            alternative=value("encounter").alternative if value("encounter") else None,
            part_of=value("part_of").value if value("part_of") else None,
            act=value("act"),
            traits=tuple(t.value for t in value("traits", ())),
        )
        self.traits(value("traits", ()))
        for name in expansion_names:
            if self.catalog.lookup("set", name.value) is None:
                self.report(self.catalog.unknown("set", name.value, name.span))
        parts = value("treachery")
        if parts:
            model.treachery = {part: 0 for part in TREACHERY_PARTS}
            for part in parts:
                if part.colour.value not in TREACHERY_PARTS:
                    self.not_in_list(
                        "treachery colour",
                        part.colour,
                        TREACHERY_PARTS,
                        "the treachery budget's colours are event, trap and monster",
                    )
                else:
                    model.treachery[part.colour.value] += part.amount

        items = self.file.items
        for piece in (i for i in items if isinstance(i, n.Piece)):
            self.piece(piece)
        self.place_map()
        for role in (i for i in items if isinstance(i, n.Role)):
            self.role(role)
        for counter in (i for i in items if isinstance(i, n.CounterDef)):
            self.define(model.counters, "counter", counter.id, CounterModel(counter.id.value, counter))
        for door in (i for i in items if isinstance(i, n.Door)):
            self.door(door)
        for stairs in (i for i in items if isinstance(i, n.Stairs)):
            self.edition_check("staircase", stairs.colour.span)
            first, second = (self.cell(p) for p in stairs.ends)
            if first is not None and second is not None:
                model.stairs.append(StairsModel(stairs.colour.value, (first, second), stairs))
        for named in (i for i in items if isinstance(i, n.NamedMonster)):
            monster = self.lookup("monster", named.type)
            self.define(
                model.named,
                "named monster",
                named.id,
                NamedModel(named.id.value, named.display.value, monster, named, ()),
            )
        for area in (i for i in items if isinstance(i, n.Area)):
            self.area(area)
        self.terrain()
        self.check_named_placements()
        for item in items:
            if isinstance(item, n.Trigger):
                self.trigger(item)
            elif isinstance(item, n.ChestChart):
                self.chest_chart(item)
            elif isinstance(item, n.OverlordPlan):
                self.overlord(item)
            elif isinstance(item, n.Victory):
                self.victory(item)
        for encounter in model.encounters.values():
            self.effects(encounter.node.effects)
        model.resolved = not any(d.code in ("Q101", "Q102", "Q103") for d in self.diagnostics)
        return model

    def traits(self, written: Iterable[n.Name]) -> None:
        """Q101 for a trait no monster card of the catalog has (`traits building, cave`)."""
        known = sorted({trait for monster in self.catalog.monsters.values() for trait in monster.traits})
        for name in written:
            if name.value not in known:
                self.not_in_list("trait", name, known, "the traits are " + ", ".join(f"`{t}`" for t in known))

    # ---- map ------------------------------------------------------------------
    def role(self, role: n.Role) -> None:
        """`entrance PIECE, ...` / `exit PIECE, ...`: the pieces must exist; each is named once per role."""
        found = list(self.model.roles.get(role.role, ()))
        for name in role.pieces:
            if name.value not in self.model.pieces:
                self.undefined("piece", name, self.model.pieces)
            elif name.value not in found:
                found.append(name.value)
        self.model.roles[role.role] = tuple(found)

    def piece(self, piece: n.Piece) -> None:
        kind = self.lookup("piece", piece.type)
        at = self.cell(piece.at)
        if kind is None or at is None:
            self.model.pieces.setdefault(piece.id.value, None)  # defined, but unusable
            return
        placed = PlacedPieceModel(piece.id.value, kind, at, kind.placed(at, piece.turn), piece.turn, piece)
        if piece.id.value in self.model.pieces and self.model.pieces[piece.id.value] is None:
            self.model.pieces[piece.id.value] = placed
            return
        self.define(self.model.pieces, "piece", piece.id, placed)

    def door(self, door: n.Door) -> None:
        rune = None
        if door.rune is not None:
            self.edition_check("rune_door", door.rune.span)
            rune = door.rune.value if self.lookup("colour", door.rune) is not None else None
        between = None
        if door.between:
            for name in door.between:
                if name.value not in self.model.pieces:
                    self.undefined("piece", name, self.model.pieces)
            between = (door.between[0].value, door.between[1].value)
        at = self.cell(door.at) if door.at else None
        self.define(
            self.model.doors,
            "door",
            door.id,
            DoorModel(door.id.value, rune, between, at, door.side.value if door.side else None, door),
        )

    def terrain(self) -> None:
        """The terrain printed on placed tiles, as obstacles of the area each cell is in.

        Written by no statement: it comes with the piece, so its span is the piece's type
        name. Cells in no area (Q203) keep the piece's terrain under an empty area id.
        """
        model = self.model
        for piece in model.pieces.values():
            if piece is None or not piece.shape.terrain:
                continue
            for kind_name, cells in piece.shape.terrain.items():
                kind = self.catalog.terrain.get(kind_name)
                if kind is None:
                    continue
                by_area: dict[str, list[tuple[int, int]]] = {}
                for cell in sorted(cells, key=lambda c: (c[1], c[0])):
                    by_area.setdefault(model.area_of(cell) or "", []).append(cell)
                for area, area_cells in by_area.items():
                    model.obstacles.append(
                        ObstacleModel(kind, tuple(area_cells), None, area, piece.node.type.span, piece=piece.id)
                    )

    # ---- areas ----------------------------------------------------------------
    def area(self, area: n.Area) -> None:
        model = self.model
        pieces: list[str] = []
        cells: set[tuple[int, int]] = set()
        reads: list[str] = []
        notes: list[str] = []
        for stmt in area.statements:
            if isinstance(stmt, n.Pieces):
                for name in stmt.pieces:
                    piece = model.pieces.get(name.value)
                    if name.value not in model.pieces:
                        self.undefined("piece", name, model.pieces)
                    elif piece is not None:
                        pieces.append(name.value)
                        cells |= piece.shape.cells
            elif isinstance(stmt, n.Cells):
                for cell_set in stmt.cells:
                    cells |= set(self.cells_of(cell_set))
            elif isinstance(stmt, n.Read):
                reads.append(stmt.text.value)
            elif isinstance(stmt, n.Note):
                notes.append(stmt.text.value)
        title = area.name.value if area.name else area.id.value
        record = AreaModel(
            area.id.value, title, area.start, tuple(pieces), frozenset(cells), tuple(reads), tuple(notes), area
        )
        if not self.define(model.areas, "area", area.id, record):
            return
        for stmt in area.statements:
            self.area_statement(record.id, stmt)

    def area_statement(self, area: str, stmt: n.AreaStatement) -> None:
        model = self.model
        if isinstance(stmt, (n.Glyph, n.Chest, n.Relic, n.Runekey, n.Encounter)):
            kind = {
                n.Glyph: "glyph",
                n.Chest: "chest",
                n.Relic: "relic",
                n.Runekey: "runekey",
                n.Encounter: "encounter",
            }[type(stmt)]
            self.edition_check(kind, stmt.span.head(kind))
        if isinstance(stmt, n.Glyph):
            cell = self.cell(stmt.at)
            if cell:
                model.markers.append(Marker("glyph", cell, area, stmt.at.span, active=stmt.active))
        elif isinstance(stmt, n.Monster):
            monster = self.lookup("monster", stmt.type)
            for point in stmt.at:
                cell = self.cell(point)
                if monster is not None and cell is not None:
                    model.figures.append(
                        Figure(
                            monster,
                            "master" if stmt.master else "normal",
                            cell,
                            monster.cells(cell, stmt.facing.value if stmt.facing else None),
                            stmt.facing.value if stmt.facing else None,
                            (stmt.players.low, stmt.players.high) if stmt.players else None,
                            area,
                            point.span,
                        )
                    )
        elif isinstance(stmt, n.PlaceNamed):
            named = model.named.get(stmt.id.value)
            if named is None:
                self.undefined("named monster", stmt.id, model.named)
                return
            model.named[named.id] = NamedModel(
                named.id, named.display, named.type, named.node, named.placements + (stmt,)
            )
            cell = self.cell(stmt.at)
            if named.type is not None and cell is not None:
                facing = stmt.facing.value if stmt.facing else None
                model.figures.append(
                    Figure(
                        named.type,
                        "named",
                        cell,
                        named.type.cells(cell, facing),
                        facing,
                        None,
                        area,
                        stmt.at.span,
                        named=named.id,
                    )
                )
        elif isinstance(stmt, n.Chest):
            kinds = self.chest_kinds()
            if stmt.kind.value not in kinds:
                self.not_in_list("chest type", stmt.kind, kinds, "chests are " + ", ".join(f"`{k}`" for k in kinds))
                return
            for point in stmt.at:
                cell = self.cell(point)
                if cell:
                    model.markers.append(Marker("chest", cell, area, point.span, variant=stmt.kind.value))
        elif isinstance(stmt, (n.Obstacle, n.Trap)):
            trap = isinstance(stmt, n.Trap)
            kind = self.lookup("trap" if trap else "obstacle", stmt.kind)
            if kind is None:
                return
            facing = stmt.facing.value if isinstance(stmt, n.Trap) and stmt.facing else None
            for place in stmt.at:
                cells = self.cells_of(place) if isinstance(place, n.CellSet) else [c for c in [self.cell(place)] if c]
                if cells:
                    model.obstacles.append(ObstacleModel(kind, tuple(cells), facing, area, place.span))
        elif isinstance(stmt, n.Treasure):
            if self.lookup("treasure", stmt.kind) is None:
                return
            for point in stmt.at:
                cell = self.cell(point)
                if cell:
                    model.markers.append(Marker("treasure", cell, area, point.span, variant=stmt.kind.value))
        elif isinstance(stmt, n.Relic):
            cell = self.cell(stmt.at)
            if cell:
                model.markers.append(
                    Marker(
                        "relic",
                        cell,
                        area,
                        stmt.at.span,
                        variant=stmt.name.value,
                        display=stmt.display.value if stmt.display else None,
                    )
                )
        elif isinstance(stmt, n.Runekey):
            if self.lookup("colour", stmt.colour) is None:
                return
            cell = self.cell(stmt.at)
            if cell:
                model.markers.append(Marker("runekey", cell, area, stmt.at.span, variant=stmt.colour.value))
        elif isinstance(stmt, n.Encounter):
            cell = self.cell(stmt.at)
            if cell is None:
                return
            if self.define(model.encounters, "encounter", stmt.id, EncounterModel(stmt.id.value, cell, area, stmt)):
                model.markers.append(Marker("encounter", cell, area, stmt.at.span, encounter=stmt.id.value))
        elif isinstance(stmt, n.Token):
            self.token(area, stmt)
        elif isinstance(stmt, n.Lieutenant):
            if not self.token_check("lieutenant", stmt.span.head("lieutenant")):
                return
            names = self.catalog.markers["lieutenant"].variants
            if stmt.name.value not in names:
                from questc.catalog.lookup import closest

                match = closest(stmt.name.value, names)
                help = (
                    f"did you mean `{match}`?" if match else "the lieutenants are " + ", ".join(f"`{c}`" for c in names)
                )
                self.report(Q101.at(stmt.name.span, kind="lieutenant", name=stmt.name.value, help=help))
                return
            if stmt.at is None:
                pieces, spaces = self.placement(area, stmt.on)
                # Placed twice is Q411's to say: the second placement is kept under a key of its own.
                key = stmt.name.value if stmt.name.value not in model.groups else f"{stmt.name.value}@{stmt.span.start}"
                model.groups[key] = GroupModel(
                    stmt.name.value, "lieutenant", None, area, pieces, spaces, stmt.span, stmt
                )
                return
            cell = self.cell(stmt.at)
            if cell:
                model.markers.append(
                    Marker(
                        "lieutenant",
                        cell,
                        area,
                        stmt.at.span,
                        variant=stmt.name.value,
                        facing=stmt.facing.value if stmt.facing else None,
                    )
                )
        elif isinstance(stmt, n.Group):
            self.group(area, stmt)
        elif isinstance(stmt, n.HeroStart):
            for point in stmt.at:
                cell = self.cell(point)
                if cell:
                    model.hero_starts.append(HeroStartModel(cell, area, point.span))

    def placement(self, area: str, names: tuple[n.Name, ...]) -> tuple[tuple[str, ...], frozenset[tuple[int, int]]]:
        """`on PIECE, ...` in an area in; the pieces named and the cells something placed there may stand
        on out: those pieces' cells, or the area's when none is named (Q103 for a piece not defined)."""
        model = self.model
        if not names:
            return (), model.areas[area].cells
        pieces: list[str] = []
        cells: set[tuple[int, int]] = set()
        for name in names:
            if name.value not in model.pieces:
                self.undefined("piece", name, model.pieces)
                continue
            piece = model.pieces[name.value]
            pieces.append(name.value)
            if piece is not None:
                cells |= piece.shape.cells
        return tuple(pieces), frozenset(cells)

    def objective_colour(self, kind: str, name: n.Name | None) -> tuple[bool, str | None]:
        """A token's colour as written in; (known, the colour) out, with a Q101 for one the token has not."""
        if name is None:
            return True, None
        colours = self.catalog.markers[kind].variants
        if name.value not in colours:
            from questc.catalog.lookup import closest

            match = closest(name.value, colours)
            help = (
                f"did you mean `{match}`?"
                if match
                else "objective backs are " + ", ".join(f"`{c}`" for c in colours) + " (or no colour: the plain side)"
            )
            self.report(Q101.at(name.span, kind="objective colour", name=name.value, help=help))
            return False, None
        return True, name.value

    def token(self, area: str, stmt: n.Token) -> None:
        """A token statement: its record (every placement), and a marker at each point of `at`."""
        model = self.model
        if not self.token_check(stmt.kind, stmt.span.head(stmt.kind)):
            return
        known, colour = self.objective_colour(stmt.kind, stmt.colour)
        if not known:
            return
        ident = stmt.id.value if stmt.id is not None else None
        display = stmt.display.value if stmt.display is not None and stmt.display.value.strip() else None
        pieces: tuple[str, ...] = ()
        if stmt.placement == "on":
            pieces, area_cells = self.placement(area, stmt.on)
            cells: tuple[tuple[int, int], ...] = tuple(sorted(area_cells, key=lambda c: (c[1], c[0])))
        else:
            cells = tuple(c for c in (self.cell(p) for p in stmt.at) if c is not None)
        count = stmt.count or n.Amount(stmt.span, len(stmt.at) if stmt.placement == "at" else 1)
        record = TokenModel(
            stmt.kind, stmt.placement, cells, count, area, stmt.span, stmt, ident, display, colour, pieces
        )
        if stmt.id is not None and any(t.id == ident for t in model.tokens):
            first = next(t for t in model.tokens if t.id == ident)
            assert first.node.id is not None
            self.report(
                Q102.at(
                    stmt.id.span, kind="token", name=ident, labels=[Label(first.node.id.span, "first defined here")]
                )
            )
            return
        model.tokens.append(record)
        if stmt.placement == "at":
            for point in stmt.at:
                cell = self.cell(point)
                if cell:
                    model.markers.append(
                        Marker(stmt.kind, cell, area, point.span, variant=colour, display=display, token=ident)
                    )

    def group(self, area: str, stmt: n.Group) -> None:
        """`group TYPE ...` or `open group [ID] ...`: a GroupModel, each monster's group once."""
        model = self.model
        pieces, cells = self.placement(area, stmt.on)
        if stmt.open:
            if stmt.id is not None:
                ident, where = stmt.id.value, stmt.id
            else:
                ident = f"{OPEN_GROUP}{1 + sum(1 for g in model.groups.values() if g.kind == 'open')}"
                where = None
            record = GroupModel(ident, "open", None, area, pieces, cells, stmt.span, stmt)
        else:
            assert stmt.type is not None  # the grammar: `group TYPE`
            monster = self.lookup("monster", stmt.type)
            for change in stmt.changes:
                if change.stat.value not in GROUP_STATS:
                    self.not_in_list(
                        "monster characteristic",
                        change.stat,
                        GROUP_STATS,
                        "a group's " + " and ".join(f"`{s}`" for s in GROUP_STATS) + " may change",
                    )
            if monster is None:
                return
            ident, where = monster.name, stmt.type
            record = GroupModel(
                ident,
                "monster",
                monster,
                area,
                pieces,
                cells,
                stmt.span,
                stmt,
                stmt.minions,
                stmt.masters,
                stmt.changes,
            )
        first = model.groups.get(ident)
        if first is not None:
            span = where.span if where is not None else stmt.span.head("open")
            self.report(
                Q102.at(span, kind="monster group", name=ident, labels=[Label(first.span, "first placed here")])
            )
            return
        model.groups[ident] = record

    def check_named_placements(self) -> None:
        for named in self.model.named.values():
            if not named.placements:
                self.report(
                    Q105.at(
                        named.node.id.span,
                        name=named.id,
                        problem="defined but never placed",
                        label="defined here",
                        help=f"place it inside an area: `named {named.id} at X,Y`",
                    )
                )
            for extra in named.placements[1:]:
                self.report(
                    Q105.at(
                        extra.id.span,
                        name=named.id,
                        problem="placed more than once",
                        label="placed again here",
                        labels=[Label(named.placements[0].id.span, "first placed here")],
                        help="a named monster is unique: keep one placement",
                    )
                )

    # ---- effects, triggers, chests, plan, victory ---------------------------------
    def ref(self, table: Mapping[str, object], kind: str, name: n.Name | None) -> None:
        if name is not None and name.value not in table:  # None: the parser reported it
            self.undefined(kind, name, table)

    def effects(self, effects: Iterable[n.Effect]) -> None:
        model = self.model
        for effect in effects:
            if isinstance(effect, n.DoorEffect):
                self.ref(model.doors, "door", effect.door)
            elif isinstance(effect, n.RevealEffect):
                self.ref(model.areas, "area", effect.area)
            elif isinstance(effect, n.UnlockEffect):
                self.lookup("colour", effect.colour)
            elif isinstance(effect, n.SpawnEffect):
                self.lookup("monster", effect.type)
                for point in effect.at:
                    self.cell(point)
            elif isinstance(effect, n.TreasureEffect):
                if effect.kind.value not in ("copper", "silver", "gold"):
                    self.not_in_list(
                        "treasure card",
                        effect.kind,
                        ("copper", "silver", "gold"),
                        "treasure cards are `copper`, `silver` or `gold`",
                    )
            elif isinstance(effect, n.WinEffect):
                self.side(effect.side)
            elif isinstance(effect, n.PlaceEffect):
                self.place(effect)
            elif isinstance(effect, (n.RemoveEffect, n.ReplaceEffect)):
                self.ref(model.tokens_named(), "token", effect.target)
                if isinstance(effect, n.ReplaceEffect):
                    if self.token_check(effect.kind, effect.span):
                        self.objective_colour(effect.kind, effect.colour)
            elif isinstance(effect, n.CounterEffect):
                self.ref(model.counters, "counter", effect.counter)

    def place(self, effect: n.PlaceEffect) -> None:
        """`place ...`: its monster or token kind, and where (pieces, an area, points)."""
        model = self.model
        if effect.kind == "monster":
            self.lookup("monster", effect.type)
        elif self.token_check(effect.kind, effect.span.head("place")):
            self.objective_colour(effect.kind, effect.colour)
        for name in effect.on:
            self.ref(model.pieces, "piece", name)
        self.ref(model.areas, "area", effect.area)
        for point in effect.at:
            self.cell(point)

    def side(self, name: n.Name) -> None:
        if name.value not in SIDES:
            self.not_in_list("side", name, SIDES, "the sides are `heroes` and `overlord`")

    def killable(self) -> dict[str, object]:
        """What `killed NAME` may name: named monsters, and the lieutenants on the map."""
        lieutenants = {g.id: g for g in self.model.groups.values() if g.kind == "lieutenant"}
        return {**self.model.lieutenants(), **lieutenants, **self.model.named}

    def defeatable(self) -> dict[str, object]:
        """What `defeated NAME` may name: the monster groups (by their monster; open groups by their
        identifier; the monsters placed at points too), the lieutenants and named monsters, and `all`."""
        model = self.model
        figures = {f.type.name: f for f in model.figures if f.rank != "named"}
        return {**figures, **model.groups, **self.killable(), ALL: None}

    def killable_kind(self) -> str:
        """What `killed NAME` names, in words: lieutenants too where the edition has them."""
        return "named monster or lieutenant" if self.model.edition.has("lieutenants") else "named monster"

    def trigger(self, trigger: n.Trigger) -> None:
        if trigger.event == "reveal":
            self.ref(self.model.areas, "area", trigger.target)
        elif trigger.event == "killed":
            self.ref(self.killable(), self.killable_kind(), trigger.target)
        elif trigger.event == "defeated":
            self.ref(self.defeatable(), "monster group, lieutenant or named monster", trigger.target)
        elif trigger.condition is not None:
            self.condition(trigger.condition)
        elif trigger.event == "open":
            self.ref(self.model.doors, "door", trigger.target)
        self.model.triggers.append(trigger)
        self.effects(trigger.effects)

    def chest_chart(self, chart: n.ChestChart) -> None:
        self.edition_check("chest", chart.span.head("chests"))
        kinds = self.chest_kinds()
        for row in chart.rows:
            if row.kind.value not in kinds:
                self.not_in_list("chest type", row.kind, kinds, "chests are " + ", ".join(f"`{k}`" for k in kinds))
            for content in row.contents:
                if content.kind == "potion":
                    self.lookup("treasure", content.name)
                elif content.name is not None and self.catalog.lookup("chest_card", content.kind) is not None:
                    self.lookup("chest_card", content.name)  # a set's card (feat): Q104 without it
                elif content.kind not in ("coins", "conquest") and content.kind not in CHEST_CONTENT_CARDS:
                    self.report(
                        Q101.at(
                            (content.name or content).span,
                            kind="chest content",
                            name=content.kind,
                            help="a chest holds coins N, copper, silver or gold [N], "
                            "conquest N, curse [N], feat [N] or potion KIND",
                        )
                    )
        if self.model.chest_chart is not None:
            self.report(
                Q102.at(
                    chart.span,
                    kind="chest chart",
                    name="chests",
                    labels=[Label(self.model.chest_chart.span, "first defined here")],
                )
            )
            return
        self.model.chest_chart = chart

    def overlord(self, plan: n.OverlordPlan) -> None:
        for card in plan.cards:
            entry = self.catalog.lookup("card", card.name.value)
            if entry is None:
                self.report(self.catalog.unknown("card", card.name.value, card.name.span))
            else:
                self.report(
                    self.catalog.set_check("card", card.name.value, entry.set, self.model.expansions, card.name.span)
                )
        for glyph in plan.glyphs:
            self.lookup("dark_glyph", glyph.name)
        if self.model.overlord is not None:
            self.report(
                Q102.at(
                    plan.span,
                    kind="deck plan",
                    name="overlord",
                    labels=[Label(self.model.overlord.span, "first defined here")],
                )
            )
            return
        self.model.overlord = plan

    def victory(self, victory: n.Victory) -> None:
        self.side(victory.side)
        self.condition(victory.when)
        self.model.victories.append(victory)

    def condition(self, condition: n.Condition) -> None:
        """Every name a condition refers to, looked up (Q103 for one the quest does not define)."""
        model = self.model
        tables: dict[str, tuple[Mapping[str, object], str]] = {
            "killed": (self.killable(), self.killable_kind()),
            "revealed": (model.areas, "area"),
            "triggered": (model.encounters, "encounter"),
            "opened": (model.doors, "door"),
            "defeated": (self.defeatable(), "monster group, lieutenant or named monster"),
            "carried": (model.tokens_named(), "token"),
        }
        figures = {k: v for k, v in tables["defeated"][0].items() if k != ALL}
        tables["on"] = tables["in"] = (figures, "monster group, lieutenant or named monster")
        places: dict[str, tuple[Mapping[str, object], str]] = {
            "carried": ({**model.areas, **model.pieces}, "area or piece"),
            "on": (model.pieces, "piece"),
            "in": (model.areas, "area"),
        }
        for atom in n.event_conditions(condition):
            table, kind = tables[atom.event]
            self.ref(table, kind, atom.target)
            if atom.destination is not None:
                self.ref(*places[atom.event], atom.destination)
        for compare in n.compare_conditions(condition):
            if compare.name is not None:
                self.ref(model.counters, "counter", compare.name)


def resolve(
    quest_file: n.QuestFile, *, packs: Iterable[PackSpec] = (), root: Path | None = None
) -> tuple[QuestModel, list[Diagnostic]]:
    """A parsed quest in; its resolved model and the name diagnostics out."""
    resolver = Resolver(quest_file, packs=packs, root=root)
    model = resolver.resolve()
    return model, resolver.diagnostics
