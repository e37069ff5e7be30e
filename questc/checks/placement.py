"""Placement checks (Q201-Q211): a CheckContext in (its model and QuestBoard), Diagnostics out.

One function per code, each marked with its code. They share one `Facts` object
built once per quest (which cells are contested by overlapping pieces, which area
claims which cell, which things are misplaced), so that each problem is reported
once, at its cause: an overlap is one Q201 (not also Q203 for its cells), a figure
off the map is one Q204 (not also Q207 for what it would share a cell with).
"""
from __future__ import annotations

from functools import cached_property

from questc.board.geometry import edge_between, edge_cells
from questc.board.quest_board import door_edges_at
from questc.diagnostics.codes.q2xx import Q201, Q202, Q203, Q204, Q205, Q206, Q207, Q208, Q209, Q210, Q211
from questc.diagnostics.core import Diagnostic, Label, Span
from dataclasses import dataclass
from questc.syntax import nodes as n

Cell = tuple[int, int]

# The piece kinds whose `end` openings must join something (CATALOG.md).
_OPEN_ENDED = ("corridor", "intersection")
_DELTA = {"north": (0, -1), "south": (0, 1), "west": (-1, 0), "east": (1, 0)}
_TURNS = (0, 90, 180, 270)
_FACINGS = ("north", "east", "south", "west")


# ---- formatting ---------------------------------------------------------------------


def fmt(cell: Cell) -> str:
    """A cell as the language writes it: `x,y`."""
    return f"{cell[0]},{cell[1]}"


def fmt_cells(cells, limit: int = 4) -> str:
    """Cells in; `x,y`, a rectangle `x1,y1..x2,y2` when they fill one, else a short list out."""
    cells = sorted(set(cells), key=lambda c: (c[1], c[0]))
    if not cells:
        return "no cells"
    if len(cells) == 1:
        return fmt(cells[0])
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    box = (max(xs) - min(xs) + 1) * (max(ys) - min(ys) + 1)
    if box == len(cells):
        return f"{min(xs)},{min(ys)}..{max(xs)},{max(ys)}"
    shown = " ".join(fmt(c) for c in cells[:limit])
    return shown if len(cells) <= limit else f"{shown} and {len(cells) - limit} more"


def _distance(a: Cell, b: Cell) -> tuple[int, int, int, int]:
    """A sort key: nearer first (movement distance, then straight-line), then reading order."""
    dx, dy = abs(a[0] - b[0]), abs(a[1] - b[1])
    return (max(dx, dy), dx + dy, b[1], b[0])


def _figure_name(figure) -> str:
    if figure.named:
        return f"named monster `{figure.named}`"
    rank = "master " if figure.rank == "master" else ""
    return f"{rank}{figure.type.name}"


def _marker_name(marker) -> str:
    if marker.kind == "encounter":
        return f"encounter `{marker.encounter}`"
    if marker.kind == "glyph":
        return "active glyph" if marker.active else "glyph"
    if marker.kind == "runekey":
        return f"{marker.variant} runekey"
    if marker.variant and marker.kind in ("chest", "treasure"):
        return f"{marker.variant} {marker.kind}"
    if marker.kind == "relic":
        return f"relic `{marker.variant}`"
    return marker.kind


def _overlap(a: tuple[int, int] | None, b: tuple[int, int] | None, quest: tuple[int, int]) -> bool:
    """Do two figures' player-count ranges (None: the quest's own) share a count?"""
    a, b = a or quest, b or quest
    return max(a[0], b[0]) <= min(a[1], b[1])


# ---- shared facts -------------------------------------------------------------------


@dataclass
class Claim:
    """One way an area takes cells: a `pieces` name or a `cells` rectangle, with its span."""
    area: str
    cells: frozenset[Cell]
    span: Span
    piece: str | None   # the piece a `pieces` entry names; None for `cells`


@dataclass
class Spawn:
    """One figure a `spawn` effect places (an encounter's or a trigger's), at its point."""
    type: object        # the catalog's MonsterType
    master: bool
    at: Cell
    span: Span

    @property
    def name(self) -> str:
        return f"spawned {'master ' if self.master else ''}{self.type.name}"


class Facts:
    """What several checks need, computed once per quest from the model and the QuestBoard."""

    def __init__(self, context):
        self.model = context.model
        self.qb = context.board
        self.board = self.qb.board
        self.build = self.qb.build
        self.floor = frozenset(self.board.cells)

    # -- pieces -------------------------------------------------------------------
    @cached_property
    def contested(self) -> frozenset[Cell]:
        """Cells shared by overlapping pieces: Q201 reports them, nothing else does."""
        return frozenset(c for _a, _b, cells in self.build.overlaps for c in cells)

    @cached_property
    def overlapping_pairs(self) -> set[frozenset[str]]:
        return {frozenset((a, b)) for a, b, _ in self.build.overlaps}

    # -- areas --------------------------------------------------------------------
    @cached_property
    def claims(self) -> list[Claim]:
        """Every `pieces` entry and `cells` rectangle of every area, in source order."""
        out: list[Claim] = []
        for area in self.model.areas.values():
            for stmt in area.node.statements:
                if isinstance(stmt, n.Pieces):
                    for name in stmt.pieces:
                        piece = self.model.pieces.get(name.value)
                        if piece is not None:
                            out.append(Claim(area.id, frozenset(piece.shape.cells), name.span, piece.id))
                elif isinstance(stmt, n.Cells):
                    for cell_set in stmt.cells:
                        cells = self._cell_set(cell_set) & area.cells
                        out.append(Claim(area.id, frozenset(cells), cell_set.span, None))
        return out

    def _cell_set(self, cell_set: n.CellSet) -> set[Cell]:
        """The cells of a `cells` entry (both corners counted from the piece when it names one)."""
        ox = oy = 0
        if cell_set.piece is not None:
            piece = self.model.pieces.get(cell_set.piece.value)
            if piece is None:
                return set()
            ox, oy = piece.at
        x1, x2 = sorted((cell_set.x1 + ox, cell_set.x2 + ox))
        y1, y2 = sorted((cell_set.y1 + oy, cell_set.y2 + oy))
        return {(x, y) for y in range(y1, y2 + 1) for x in range(x1, x2 + 1)}

    @cached_property
    def areas_of(self) -> dict[Cell, list[str]]:
        """Cell -> the ids of every area claiming it, in source order."""
        out: dict[Cell, list[str]] = {}
        for area in self.model.areas.values():
            for cell in area.cells:
                out.setdefault(cell, []).append(area.id)
        return out

    @cached_property
    def unclaimed(self) -> frozenset[Cell]:
        """Floor cells in no area (Q203 reports them; Q204 does not again)."""
        return frozenset(c for c in self.floor if c not in self.areas_of and c not in self.contested)

    # -- things on the map -----------------------------------------------------------
    @cached_property
    def obstacle_at(self) -> dict[Cell, list]:
        """Cell -> the obstacles and traps covering it, in source order."""
        out: dict[Cell, list] = {}
        for obstacle in self.model.obstacles:
            for cell in dict.fromkeys(obstacle.cells):
                out.setdefault(cell, []).append(obstacle)
        return out

    def blocker(self, cell: Cell):
        """The first obstacle on the cell that keeps figures out (water, rubble, boulder...), or None."""
        for obstacle in self.obstacle_at.get(cell, ()):
            if obstacle.kind.blocks_movement or obstacle.kind.wall_like:
                return obstacle
        return None

    def area_problem(self, cells, area_id: str) -> tuple[str, list[Cell]] | None:
        """Why cells placed in area `area_id` cannot be there: ("off", cells off the map) or
        ("outside", floor cells of another area); None when they are fine. Cells in no area
        at all, or contested by an overlap, are left to Q203 and Q201."""
        cells = list(dict.fromkeys(cells))
        off = [c for c in cells if c not in self.floor]
        if off:
            return ("off", off)
        own = self.model.areas[area_id].cells
        outside = [c for c in cells if c not in own and c not in self.unclaimed and c not in self.contested]
        if outside:
            return ("outside", outside)
        return None

    def figure_fit(self, cells, ignore=None) -> tuple[str, list[Cell], object] | None:
        """Why a large figure's footprint does not fit: ("off", cells off the floor, None),
        ("wall", [a, b], door id or None) for a wall or door between two of its cells, or
        ("obstacle", [cell], the obstacle); None when it fits."""
        cells = sorted(cells, key=lambda c: (c[1], c[0]))
        off = [c for c in cells if c not in self.floor]
        if off:
            return ("off", off, None)
        inside = set(cells)
        for a in cells:
            for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1)):
                if b not in inside:
                    continue
                edge = edge_between(a, b)
                if edge in self.board.walls:
                    return ("wall", [a, b], None)
                doors = self.board.doors_on(edge)
                if doors:
                    return ("wall", [a, b], doors[0])
        for cell in cells:
            obstacle = self.blocker(cell)
            if obstacle is not None:
                return ("obstacle", [cell], obstacle)
        return None

    @cached_property
    def figure_problem(self) -> dict[int, tuple[str, object]]:
        """index in model.figures -> ("Q204", area problem) or ("Q208", fit problem).

        A figure wholly off the floor, or a small figure off it, is placed off the map
        (Q204); a large figure partly off the floor, across a wall or on a blocking
        obstacle does not fit (Q208, which takes precedence over the area check: moving
        it to where it fits is the one fix)."""
        out: dict[int, tuple[str, object]] = {}
        for i, figure in enumerate(self.model.figures):
            cells = list(figure.cells)
            if not any(c in self.floor for c in cells):
                out[i] = ("Q204", ("off", sorted(cells)))
                continue
            if figure.type.large:
                fit = self.figure_fit(cells)
                if fit is not None:
                    out[i] = ("Q208", fit)
                    continue
            problem = self.area_problem(cells, figure.area)
            if problem is not None:
                out[i] = ("Q204", problem)
        return out

    @cached_property
    def spawns(self) -> list[Spawn]:
        """Every figure a `spawn` effect places, in source order (encounters, then triggers)."""
        model = self.model
        effects = [e for enc in model.encounters.values() for e in enc.node.effects]
        effects += [e for t in model.triggers for e in t.effects]
        out: list[Spawn] = []
        for effect in effects:
            if not isinstance(effect, n.SpawnEffect):
                continue
            monster = model.catalog.lookup("monster", effect.type.value)
            if monster is None:
                continue   # Q101
            for point in effect.at:
                at = (point.x, point.y)
                if point.piece is not None:
                    piece = model.pieces.get(point.piece.value)
                    if piece is None:
                        continue   # Q103
                    at = (piece.at[0] + point.x, piece.at[1] + point.y)
                out.append(Spawn(monster, effect.master, at, point.span))
        return out

    @cached_property
    def spawn_problem(self) -> dict[int, tuple[str, object]]:
        """index in spawns -> ("Q204", cells), ("Q208", fit problem) or ("Q207", blocking obstacle).

        A spawn says no facing, so a long figure (a hell hound) fits when either way
        round fits: the overlord lays it the way it fits. Spawns belong to no area."""
        out: dict[int, tuple[str, object]] = {}
        for i, spawn in enumerate(self.spawns):
            cells = spawn.type.cells(spawn.at)
            if not any(c in self.floor for c in cells):
                out[i] = ("Q204", sorted(cells))
            elif spawn.type.large:
                fit = self.figure_fit(cells)
                if fit is not None and all(self.figure_fit(spawn.type.cells(spawn.at, f)) is not None
                                           for f in _FACINGS if spawn.type.size(f) != spawn.type.size()):
                    out[i] = ("Q208", fit)
            elif (blocker := self.blocker(spawn.at)) is not None:
                out[i] = ("Q207", blocker)
        return out

    @cached_property
    def misplaced_markers(self) -> set[int]:
        return {i for i, m in enumerate(self.model.markers) if self.area_problem([m.at], m.area)}

    @cached_property
    def misplaced_obstacles(self) -> set[int]:
        return {i for i, o in enumerate(self.model.obstacles) if self.area_problem(o.cells, o.area)}

    @cached_property
    def occupied(self) -> set[Cell]:
        """Cells holding a figure, a marker or an obstacle (a suggested place avoids them)."""
        out: set[Cell] = set()
        for figure in self.model.figures:
            out |= figure.cells
        out |= {m.at for m in self.model.markers}
        out |= set(self.obstacle_at)
        return out

    def free_cell(self, area_id: str, near: Cell, also_occupied=()) -> Cell | None:
        """The free floor cell of the area nearest to `near` (no figure, marker or obstacle)."""
        area = self.model.areas.get(area_id)
        if area is None:
            return None
        taken = self.occupied | set(also_occupied)
        free = [c for c in area.cells if c in self.floor and c not in taken and c not in self.contested]
        return min(free, key=lambda c: _distance(near, c)) if free else None

    def area_label(self, area_id: str, text: str) -> Label:
        return Label(self.model.areas[area_id].node.id.span, text)

    def piece_span(self, piece_id: str) -> Span:
        return self.model.pieces[piece_id].node.id.span


# ---- Q201 -------------------------------------------------------------------------


def check_q201(facts: Facts) -> list[Diagnostic]:
    """Q201: two pieces overlap.

    What it does: reports each pair of pieces sharing cells once, at the later piece's
    name, with a label on the earlier piece and, as help, the nearest position where the
    later piece overlaps nothing.
    Why it matters: tiles cannot lie on top of each other; the map cannot be built.
    """
    out = []
    pieces = facts.model.pieces
    for first, second, cells in facts.build.overlaps:
        piece = pieces[second]
        spot = _free_spot(facts, second)
        help = None
        if spot is not None:
            turn = f" turn {piece.turn}" if piece.turn else ""
            help = (f"move `{second}` off `{first}`: `piece {second} {piece.type.name} at {fmt(spot)}{turn}` "
                    f"is the nearest place where it overlaps no piece")
        out.append(Q201.at(facts.piece_span(second), piece=second, other=first, cells=fmt_cells(cells),
                           labels=[Label(facts.piece_span(first), f"`{second}` overlaps this piece")],
                           help=help))
    return out


def _free_spot(facts: Facts, piece_id: str) -> Cell | None:
    """The nearest `at` point (up to 12 cells away) where the piece overlaps no other piece."""
    piece = facts.model.pieces[piece_id]
    others: set[Cell] = set()
    for other in facts.model.pieces.values():
        if other is not None and other.id != piece_id:
            others |= other.shape.cells
    ax, ay = piece.at
    rel = [(x - ax, y - ay) for x, y in piece.shape.cells]
    candidates = [(ax + dx, ay + dy) for dx in range(-12, 13) for dy in range(-12, 13) if (dx, dy) != (0, 0)]
    for spot in sorted(candidates, key=lambda c: _distance(piece.at, c)):
        if not any((spot[0] + x, spot[1] + y) in others for x, y in rel):
            return spot
    return None


# ---- Q202 -------------------------------------------------------------------------


def check_q202(facts: Facts) -> list[Diagnostic]:
    """Q202 (warning): a corridor or intersection end that joins nothing or meets a wall.

    What it does: for every unjoined `end` opening of a corridor or intersection, warns
    at the piece's name: "joins nothing" (help: the exact `dead_end` statement that caps
    it) or "runs into the wall of `X`" (label on X). Rooms' unjoined openings are wall and
    never warned about; an opening carrying a door is joined. Ends next to an overlap
    (Q201) or meant for a misplaced door (Q205) are left to those codes.
    Why it matters: a loose end reads on the table as a way on that leads nowhere.
    """
    model = facts.model
    meets = {}
    for pid, index, other in facts.build.openings_meeting_wall:
        meets.setdefault((pid, index), other)
    excused = _ends_excused_by_doors(facts)
    out = []
    for pid, index in facts.build.unjoined_openings:
        piece = model.pieces[pid]
        if piece.type.kind not in _OPEN_ENDED:
            continue
        opening = piece.shape.openings[index]
        if not opening.end or (pid, index) in excused:
            continue
        near = set(opening.cells) | set(opening.outside())
        if near & facts.contested:
            continue
        other = meets.get((pid, index))
        if other is not None and frozenset((pid, other)) in facts.overlapping_pairs:
            continue
        values = dict(side=opening.side, kind=piece.type.kind, piece=pid, cells=fmt_cells(opening.cells))
        if other is not None:
            out.append(Q202.at(
                facts.piece_span(pid), problem=f"runs into the wall of `{other}`",
                labels=[Label(facts.piece_span(other), f"this piece has no opening where `{pid}` ends")],
                help=f"move or turn `{pid}` or `{other}` so that this end meets one of `{other}`'s openings "
                     f"exactly, or cap the end with a dead end and leave a gap", **values))
        else:
            out.append(Q202.at(facts.piece_span(pid), problem="joins nothing",
                               help=_cap_help(facts, pid, opening), **values))
    return out


def _ends_excused_by_doors(facts: Facts) -> set[tuple[str, int]]:
    """Openings a misplaced door (Q205) was meant for: the door is the cause there."""
    model = facts.model
    excused: set[tuple[str, int]] = set()
    bad = {door_id for door_id, _ in facts.qb.door_problems}
    for door_id in bad:
        door = model.doors[door_id]
        if door.at is not None and door.side is not None:
            edges = set(door_edges_at(door.at, door.side))
            for piece in model.pieces.values():
                for index, opening in enumerate(piece.shape.openings):
                    if set(opening.edges()) & edges:
                        excused.add((piece.id, index))
        elif door.between:
            # The door names two pieces that do not meet: the end of each facing the other
            # is the one the writer meant to join.
            for a, b in (door.between, door.between[::-1]):
                if a not in model.pieces or b not in model.pieces:
                    continue
                piece, other = model.pieces[a], model.pieces[b]
                unjoined = [i for p, i in facts.build.unjoined_openings if p == a]
                if unjoined:
                    nearest = min(unjoined, key=lambda i: min(
                        _distance(c, o) for c in piece.shape.openings[i].outside() for o in other.shape.cells))
                    excused.add((a, nearest))
    return excused


def _cap_help(facts: Facts, pid: str, opening) -> str:
    """The `piece ... dead_end at X,Y turn T` statement that caps this opening, if one fits."""
    dead_end = facts.model.catalog.lookup("piece", "dead_end")
    outside = set(opening.outside())
    edges = set(opening.edges())
    taken = set(facts.floor)
    if dead_end is not None and not outside & taken:
        at = (min(c[0] for c in outside), min(c[1] for c in outside))
        for turn in _TURNS:
            placed = dead_end.placed(at, turn)
            if placed.cells == outside and any(set(o.edges()) == edges for o in placed.openings):
                name = _fresh_id(facts, f"{pid}_end")
                turn_text = f" turn {turn}" if turn else ""
                return (f"cap it with a dead end: `piece {name} dead_end at {fmt(at)}{turn_text}` "
                        f"(and add `{name}` to the area of `{pid}`)")
    return "cap it with a dead end, or join it to another piece's opening"


def _fresh_id(facts: Facts, base: str) -> str:
    used = set(facts.model.pieces) | set(facts.model.doors) | set(facts.model.areas)
    name, i = base, 2
    while name in used:
        name, i = f"{base}{i}", i + 1
    return name


# ---- Q203 -------------------------------------------------------------------------


def check_q203(facts: Facts) -> list[Diagnostic]:
    """Q203: a piece or floor cell in no area, or in more than one.

    What it does: groups cells, never one diagnostic per cell. A piece no area claims is
    one diagnostic at the piece's name (help: the area to add it to); cells of a piece
    left over by `cells` splits are one per piece; a piece or rectangle claimed by a
    second area is one per claim, at that claim, with a label on the first. Cells shared
    by overlapping pieces are Q201's.
    Why it matters: each space is revealed with exactly one area; a space in none is
    never revealed, one in two is revealed twice.
    """
    out = []
    out += _unclaimed(facts)
    out += _claimed_twice(facts)
    return out


def _unclaimed(facts: Facts) -> list[Diagnostic]:
    model = facts.model
    by_piece: dict[str, list[Cell]] = {}
    for cell in facts.unclaimed:
        by_piece.setdefault(facts.board.piece_of(cell), []).append(cell)
    out = []
    for pid, cells in sorted(by_piece.items(), key=lambda kv: list(model.pieces).index(kv[0])):
        piece = model.pieces[pid]
        own = piece.shape.cells - facts.contested
        if set(cells) >= own:
            area = _neighbour_area(facts, pid)
            if area:
                help = f"add `{pid}` to the `pieces` of area `{area}`, or give it an area of its own"
            else:
                help = f"add `{pid}` to the `pieces` of an area"
            out.append(Q203.at(facts.piece_span(pid), subject=f"piece `{pid}`", problem="is in no area",
                               label="no area claims this piece", help=help))
        else:
            text = fmt_cells(cells)
            plural = len(cells) > 1
            subject = f"{len(cells)} cells of piece `{pid}` ({text})" if plural else f"cell {text} of piece `{pid}`"
            # `cells` takes points and rectangles: spell them out when they make one, else the
            # writer splits the list (fmt_cells shortens long irregular lists).
            writable = ".." in text or not plural or " and " not in text
            out.append(Q203.at(facts.piece_span(pid), subject=subject,
                               problem="are in no area" if plural else "is in no area",
                               label="partly in no area",
                               help=(f"add {'them' if plural else 'it'} to an area: `cells {text}`" if writable
                                     else "add them to an area with `cells` rectangles")))
    return out


def _neighbour_area(facts: Facts, pid: str) -> str | None:
    """The area of a piece joined to `pid` (where the writer most likely meant it to be)."""
    for a, b, _edges in facts.build.joints:
        if pid in (a, b):
            other = b if a == pid else a
            for cell in sorted(facts.model.pieces[other].shape.cells):
                areas = facts.areas_of.get(cell)
                if areas:
                    return areas[0]
    return None


def _claimed_twice(facts: Facts) -> list[Diagnostic]:
    first: dict[Cell, Claim] = {}
    groups: dict[tuple[int, int], tuple[Claim, Claim, list[Cell]]] = {}
    for index, claim in enumerate(facts.claims):
        for cell in sorted(claim.cells):
            if cell in facts.contested:
                continue
            earlier = first.get(cell)
            if earlier is None:
                first[cell] = claim
            elif earlier.area != claim.area:
                key = (index, id(earlier))
                groups.setdefault(key, (claim, earlier, []))[2].append(cell)
    out = []
    for claim, earlier, cells in groups.values():
        if claim.piece is not None and set(cells) >= claim.cells - facts.contested:
            subject = f"piece `{claim.piece}`"
            remove = f"remove `{claim.piece}` from the `pieces` of `{claim.area}` or of `{earlier.area}`"
        else:
            subject = f"cells {fmt_cells(cells)}" if len(cells) > 1 else f"cell {fmt_cells(cells)}"
            remove = f"claim {fmt_cells(cells)} in one area only: split the `cells` so they do not overlap"
        problem = (f"{'are' if subject.startswith('cells') else 'is'} in two areas, "
                   f"`{earlier.area}` and `{claim.area}`")
        out.append(Q203.at(claim.span, subject=subject, problem=problem, label=f"also in area `{claim.area}`",
                           labels=[Label(earlier.span, f"first put in area `{earlier.area}` here")],
                           help=remove))
    return out


# ---- Q204 -------------------------------------------------------------------------


def check_q204(facts: Facts) -> list[Diagnostic]:
    """Q204: something placed off the map, or on a cell outside its own area.

    What it does: checks markers (glyphs, chests, treasure, relics, runekeys,
    encounters), obstacles and traps (every cell), figures (every footprint cell; a
    large figure partly off the floor is Q208's), the points of `spawn` effects (off
    the map only: a spawn belongs to no area) and areas' `cells` rectangles. One
    diagnostic per statement item, at its point, labelled on the area; the help names
    the nearest free cell of the area, or the area the thing is really in.
    Why it matters: an area's contents are set up when it is revealed; a thing outside
    it would appear at the wrong time, or nowhere.
    """
    model = facts.model
    out = []
    for marker in model.markers:
        problem = facts.area_problem([marker.at], marker.area)
        if problem:
            out.append(_q204(facts, _marker_name(marker), fmt(marker.at), marker.span, marker.area, problem,
                             marker.at))
    for obstacle in model.obstacles:
        problem = facts.area_problem(obstacle.cells, obstacle.area)
        if problem:
            out.append(_q204(facts, obstacle.kind.name, fmt_cells(obstacle.cells), obstacle.span, obstacle.area,
                             problem, obstacle.cells[0], count=len(set(obstacle.cells))))
    for index, figure in enumerate(model.figures):
        found = facts.figure_problem.get(index)
        if found and found[0] == "Q204":
            out.append(_q204(facts, _figure_name(figure), fmt(figure.at), figure.span, figure.area, found[1],
                             figure.at, count=len(figure.cells), figure=figure))
    for index, spawn in enumerate(facts.spawns):
        found = facts.spawn_problem.get(index)
        if found and found[0] == "Q204":
            spot = _spawn_spot(facts, spawn)
            out.append(Q204.at(spawn.span, thing=spawn.name, where=fmt(spawn.at), problem="off the map",
                               label="no floor here",
                               help=f"spawn it on the floor, such as at {fmt(spot)}" if spot
                               else "spawn it on a floor cell"))
    for claim in facts.claims:
        if claim.piece is None:
            area = model.areas[claim.area]
            stmt_cells = _claim_cells(facts, area, claim.span)
            off = sorted(c for c in stmt_cells if c not in facts.floor)
            if off:
                out.append(Q204.at(claim.span, thing=f"`cells` of area `{claim.area}`", where=fmt_cells(off),
                                   problem="off the map", label="no floor here",
                                   help="claim only floor cells: every cell of `cells` must be on a piece"))
    return out


def _claim_cells(facts: Facts, area, span: Span) -> set[Cell]:
    for stmt in area.node.statements:
        if isinstance(stmt, n.Cells):
            for cell_set in stmt.cells:
                if cell_set.span == span:
                    return facts._cell_set(cell_set)
    return set()


def _q204(facts: Facts, thing: str, where: str, span: Span, area_id: str, problem, near: Cell,
          count: int = 1, figure=None) -> Diagnostic:
    """One Q204 for a thing placed in `area_id`; `problem` is Facts.area_problem's answer and
    `count` the number of cells the thing covers (to tell "partly" from "wholly")."""
    kind, cells = problem
    area = facts.model.areas[area_id]
    if figure is not None and figure.type.large:
        spot = _figure_spot(facts, figure)
    else:
        spot = facts.free_cell(area_id, near)
    partly = len(set(cells)) < count
    elsewhere = sorted({facts.areas_of[c][0] for c in cells if c in facts.areas_of} - {area_id})
    if kind == "off":
        text = f"partly off the map ({fmt_cells(cells)})" if partly else "off the map"
        label = "no floor here"
        help = f"move it onto the floor of `{area_id}`" + (f", such as {fmt(spot)}" if spot else "")
    else:
        inside = f" (in area `{elsewhere[0]}`)" if len(elsewhere) == 1 else ""
        text = (f"partly outside its area `{area_id}`: {fmt_cells(cells)}{inside}" if partly
                else f"outside its area `{area_id}`{inside}")
        label = f"not a cell of `{area_id}`"
        options = []
        if spot:
            options.append(f"move it onto a free cell of `{area_id}`, such as {fmt(spot)}")
        if len(elsewhere) == 1 and not partly:
            options.append(f"move the statement into area `{elsewhere[0]}`")
        help = "; or ".join(options) or f"move it onto a cell of `{area_id}`"
    return Q204.at(span, thing=thing, where=where, problem=text, label=label,
                   labels=[facts.area_label(area_id, f"its area `{area_id}` ({fmt_cells(area.cells)})")],
                   help=help)


# ---- Q205 -------------------------------------------------------------------------


def check_q205(facts: Facts) -> list[Diagnostic]:
    """Q205: a door not on a two-cell passage between floor cells.

    What it does: reports each door the board left off (QuestBoard.door_problems) at
    the door's name, with a concrete help: the `between` or `at` statement of the
    nearest real joint, or the joints to choose from.
    Why it matters: a door stands where two pieces' openings meet; anywhere else it
    cannot be set up, and movement and sight through it would be undefined.
    """
    model = facts.model
    out = []
    for door_id, problem in facts.qb.door_problems:
        door = model.doors[door_id]
        out.append(Q205.at(door.node.id.span, door=door_id, problem=problem, help=_door_help(facts, door)))
    return out


def _joint_at(edges) -> str:
    """A joint's two edges in; the `at X,Y SIDE` that names them out."""
    (x1, y1, x2, y2), _ = sorted(edges)
    if x1 == x2:   # vertical: the east side of the cell west of it
        return f"at {x1 - 1},{y1} east"
    return f"at {x1},{y1 - 1} south"


def _door_help(facts: Facts, door) -> str:
    joints = facts.build.joints
    if door.between:
        a, b = door.between
        if a == b:
            return f"name two different pieces: `door {door.id} between {a} OTHER`"
        shared = [edges for pa, pb, edges in joints if {pa, pb} == {a, b}]
        if len(shared) > 1:
            options = " or ".join(f"`door {door.id} {_joint_at(e)}`" for e in shared)
            return f"say which joint: {options}"
        partners = sorted({pb if pa == a else pa for pa, pb, _ in joints if a in (pa, pb)})
        if partners:
            return (f"`{a}` joins {', '.join(f'`{p}`' for p in partners)}: put the door between `{a}` and one "
                    f"of them, or move `{b}` so one of its openings meets one of `{a}`'s")
        return f"move `{b}` so that one of its openings meets one of `{a}`'s exactly"
    if not joints:
        return "no two pieces are joined: doors stand where an opening of one piece meets an opening of another"
    here = door.at
    nearest = min(joints, key=lambda j: min(_distance(here, c) for e in j[2] for c in edge_cells(e)))
    a, b, edges = nearest
    if len(facts.board.joints_between(a, b)) == 1:
        return f"the nearest joint is between `{a}` and `{b}`: `door {door.id} between {a} {b}`"
    return f"the nearest joint is between `{a}` and `{b}`: `door {door.id} {_joint_at(edges)}`"


# ---- Q206 -------------------------------------------------------------------------


def check_q206(facts: Facts) -> list[Diagnostic]:
    """Q206: stairs with an end off the floor, or a colour used for more than one pair.

    What it does: one diagnostic per end off the floor (at that end's point; help: the
    nearest floor cell), per pair whose two ends are one cell, and per extra pair of a
    colour (at its colour, labelled on the first pair).
    Why it matters: a staircase joins its two ends only; an end off the map leads
    nowhere and two pairs of one colour make it unclear which end leads where.
    """
    out = []
    first: dict[str, n.Stairs] = {}
    for stairs in facts.model.stairs:
        node = stairs.node
        colour = stairs.colour
        if colour in first:
            used = {s.colour for s in facts.model.stairs}
            fresh = next(f"{colour}{i}" for i in range(2, 100) if f"{colour}{i}" not in used)
            out.append(Q206.at(node.colour.span, colour=colour, problem="the colour is used for a second pair",
                               label="second pair", labels=[Label(first[colour].colour.span, "first pair here")],
                               help=f"give each pair its own colour: `stairs {fresh} at ...`"))
        else:
            first[colour] = node
        for end, ref in zip(stairs.ends, node.ends):
            if end not in facts.floor:
                near = min(facts.floor, key=lambda c: _distance(end, c)) if facts.floor else None
                out.append(Q206.at(ref.span, colour=colour, problem=f"the end at {fmt(end)} is off the floor",
                                   label="no floor here",
                                   help=f"put the end on a floor cell, such as {fmt(near)}" if near
                                   else "put both ends on floor cells"))
        if stairs.ends[0] == stairs.ends[1] and stairs.ends[0] in facts.floor:
            out.append(Q206.at(node.ends[1].span, colour=colour, problem="both ends are on one cell",
                               label="same cell as the other end",
                               labels=[Label(node.ends[0].span, "the other end")],
                               help="put the two ends of a staircase on different cells"))
    return out


# ---- Q207 -------------------------------------------------------------------------


def check_q207(facts: Facts) -> list[Diagnostic]:
    """Q207: two things in one cell that cannot share it.

    What it does: reports, at the later thing's point with a label on the earlier: a
    small figure on an obstacle that blocks movement (a large one is Q208's), two
    figures whose footprints meet (unless their `players` ranges never meet), a small
    figure a `spawn` effect places on such an obstacle, a marker
    (chest, glyph, runekey, ...) on an obstacle that blocks movement, a monster on an
    active glyph, and two obstacles or traps in one cell. Things already misplaced
    (Q204, Q208) are skipped. The help names the nearest free cell.
    Why it matters: the set-up cannot be laid out as written (figures cannot stand in
    rubble or on each other; monsters may not be placed on an active glyph).
    """
    model = facts.model
    quest_players = model.players
    out = []
    figures = [(i, f) for i, f in enumerate(model.figures) if i not in facts.figure_problem]
    markers = [m for i, m in enumerate(model.markers) if i not in facts.misplaced_markers]
    obstacles = [o for i, o in enumerate(model.obstacles) if i not in facts.misplaced_obstacles]

    def help_for(area: str, near: Cell, figure=None) -> str:
        spot = _figure_spot(facts, figure) if figure is not None and figure.type.large else \
            facts.free_cell(area, near)
        return f"move it to a free cell, such as {fmt(spot)}" if spot else "move one of them to a free cell"

    # Figures: on blocking obstacles, on each other, on active glyphs.
    for index, (i, figure) in enumerate(figures):
        name = _figure_name(figure)
        if not figure.type.large:
            blocker = facts.blocker(figure.at)
            if blocker is not None:
                out.append(Q207.at(figure.span, thing=name, where=fmt(figure.at),
                                   problem=f"stands on {blocker.kind.name}, which blocks movement",
                                   label="cannot stand here",
                                   labels=[Label(blocker.span, f"{blocker.kind.name} here")],
                                   help=help_for(figure.area, figure.at, figure)))
        for _j, earlier in figures[:index]:
            shared = figure.cells & earlier.cells
            if shared and _overlap(figure.players, earlier.players, quest_players):
                out.append(Q207.at(figure.span, thing=name, where=fmt(figure.at),
                                   problem=f"shares {fmt_cells(shared)} with the {_figure_name(earlier)} "
                                           f"at {fmt(earlier.at)}",
                                   label="two figures in one space",
                                   labels=[Label(earlier.span, "the other figure")],
                                   help=help_for(figure.area, figure.at, figure)))
                break
        for marker in markers:
            if marker.kind == "glyph" and marker.active and marker.at in figure.cells:
                out.append(Q207.at(figure.span, thing=name, where=fmt(figure.at),
                                   problem=f"stands on the active glyph at {fmt(marker.at)}",
                                   label="monsters may not be placed on an active glyph",
                                   labels=[Label(marker.span, "active glyph here")],
                                   help=help_for(figure.area, figure.at, figure)))
    # Markers on obstacles that block movement: heroes could never reach them.
    for marker in markers:
        blocker = facts.blocker(marker.at)
        if blocker is not None:
            out.append(Q207.at(marker.span, thing=_marker_name(marker), where=fmt(marker.at),
                               problem=f"lies on {blocker.kind.name}, which blocks movement",
                               label="no hero can step here",
                               labels=[Label(blocker.span, f"{blocker.kind.name} here")],
                               help=f"move the {marker.kind} off the {blocker.kind.name}"
                                    + (f", such as to {fmt(spot)}" if (spot := facts.free_cell(marker.area, marker.at))
                                       else "")))
    # Spawned small figures on obstacles that block movement (large ones are Q208's).
    for index, spawn in enumerate(facts.spawns):
        found = facts.spawn_problem.get(index)
        if found and found[0] == "Q207":
            blocker = found[1]
            spot = _spawn_spot(facts, spawn)
            out.append(Q207.at(spawn.span, thing=spawn.name, where=fmt(spawn.at),
                               problem=f"would stand on {blocker.kind.name}, which blocks movement",
                               label="cannot stand here",
                               labels=[Label(blocker.span, f"{blocker.kind.name} here")],
                               help=f"spawn it off the {blocker.kind.name}, such as at {fmt(spot)}" if spot
                               else "spawn it on a cell with no blocking obstacle"))
    # Two obstacles or traps in one cell: only the first would count on the board.
    seen: dict[Cell, object] = {}
    for obstacle in obstacles:
        clash = None
        for cell in dict.fromkeys(obstacle.cells):
            if cell in seen and seen[cell] is not obstacle and clash is None:
                clash = (cell, seen[cell])
            seen.setdefault(cell, obstacle)
        if clash:
            cell, other = clash
            out.append(Q207.at(obstacle.span, thing=obstacle.kind.name, where=fmt_cells(obstacle.cells),
                               problem=f"covers {fmt(cell)}, which already holds {other.kind.name}",
                               label="two obstacles in one space",
                               labels=[Label(other.span, f"{other.kind.name} here")],
                               help="put each obstacle or trap on cells of its own"))
    return out


# ---- Q208 -------------------------------------------------------------------------


def check_q208(facts: Facts) -> list[Diagnostic]:
    """Q208: a large figure that does not fit.

    What it does: for each large figure (2, 4 or 6 spaces) whose footprint is partly
    off the floor, has a wall or door between two of its cells (cells of two pieces
    with no joint between them, or a piece's own wall), or covers an obstacle that
    blocks movement: one diagnostic at its point. The help gives the nearest position
    (or facing) where the whole footprint fits in its area. The same for large figures
    a `spawn` effect places (a long one fits if either way round fits); their help
    gives the nearest floor where the figure fits.
    Why it matters: the figure's base cannot be set on the table as written.
    """
    out = []
    for index, figure in enumerate(facts.model.figures):
        found = facts.figure_problem.get(index)
        if not found or found[0] != "Q208":
            continue
        w, h = figure.type.size(figure.facing)
        problem, label, labels = _fit_text(facts, found[1], w, h)
        spot = _figure_spot(facts, figure, with_facing=True)
        help = None
        if spot is not None:
            at, facing = spot
            if facing != figure.facing and facing is not None:
                help = (f"place it at {fmt(at)} facing {facing}, where its whole footprint fits"
                        if at != figure.at else f"turn it: `facing {facing}` fits at {fmt(at)}")
            else:
                help = f"move it to {fmt(at)}, where its whole {w}x{h} footprint fits"
        out.append(Q208.at(figure.span, figure=_figure_name(figure), where=fmt(figure.at), problem=problem,
                           label=label, labels=labels, help=help))
    for index, spawn in enumerate(facts.spawns):
        found = facts.spawn_problem.get(index)
        if not found or found[0] != "Q208":
            continue
        w, h = spawn.type.size()
        problem, label, labels = _fit_text(facts, found[1], w, h)
        spot = _spawn_spot(facts, spawn)
        out.append(Q208.at(spawn.span, figure=spawn.name, where=fmt(spawn.at), problem=problem, label=label,
                           labels=labels, help=f"spawn it at {fmt(spot)}, where its whole footprint fits" if spot
                           else None))
    return out


def _fit_text(facts: Facts, fit, w: int, h: int) -> tuple[str, str, list[Label]]:
    """Facts.figure_fit's answer and the footprint's size in; the Q208 problem, label and labels out."""
    kind, cells, what = fit
    labels = []
    if kind == "off":
        problem = f"its {w}x{h} footprint reaches off the floor at {fmt_cells(cells)}"
        label = "part of it is off the floor"
    elif kind == "wall":
        a, b = cells
        if what:
            problem = f"it stands across the door `{what}` between {fmt(a)} and {fmt(b)}"
            labels.append(Label(facts.model.doors[what].node.id.span, "this door is closed at the start"))
        else:
            problem = f"it stands across the wall between {fmt(a)} and {fmt(b)}"
        label = "across a wall"
    else:
        problem = f"it covers {what.kind.name} at {fmt(cells[0])}, which blocks movement"
        label = "on a blocking obstacle"
        labels.append(Label(what.span, f"{what.kind.name} here"))
    return problem, label, labels


def _spawn_spot(facts: Facts, spawn: Spawn) -> Cell | None:
    """The nearest top-left floor cell where the spawned figure fits: its footprint on
    floor no overlap contests, no wall inside, no blocking obstacle."""
    floor = [c for c in facts.floor if c not in facts.contested]
    for cell in sorted(floor, key=lambda c: _distance(spawn.at, c)):
        cells = spawn.type.cells(cell)
        if not cells & facts.contested and facts.figure_fit(cells) is None:
            return cell
    return None


def _figure_spot(facts: Facts, figure, with_facing: bool = False):
    """The nearest top-left cell (and facing) where the figure fits in its area: floor of its
    own area, no wall inside, no blocking obstacle, no other figure, no active glyph."""
    area = facts.model.areas[figure.area]
    others: set[Cell] = set()
    for other in facts.model.figures:
        if other is not figure:
            others |= other.cells
    glyphs = {m.at for m in facts.model.markers if m.kind == "glyph" and m.active}
    facings = [figure.facing]
    w, h = figure.type.footprint
    if with_facing and w != h:
        facings += [f for f in _FACINGS if figure.type.size(f) != figure.type.size(figure.facing)][:1]
    best = None
    for cell in sorted(area.cells, key=lambda c: _distance(figure.at, c)):
        for facing in facings:
            cells = figure.type.cells(cell, facing)
            if not cells <= area.cells or cells & others or cells & glyphs or cells & facts.contested:
                continue
            if facts.figure_fit(cells) is None:
                key = (_distance(figure.at, cell), facing != figure.facing)
                if best is None or key < best[0]:
                    best = (key, cell, facing)
        if best is not None and _distance(figure.at, cell) > best[0][0]:
            break
    if best is None:
        return None
    return (best[1], best[2]) if with_facing else best[1]


# ---- Q209, Q210 -------------------------------------------------------------------


def check_q209(facts: Facts) -> list[Diagnostic]:
    """Q209: no `start` area, or more than one.

    What it does: with no start area, one diagnostic at the quest's title (help: mark the
    first area `start`); with several, one at each start area after the first, labelled
    on the first.
    Why it matters: the heroes enter in exactly one area, revealed before the first turn.
    """
    model = facts.model
    starts = model.start_areas
    if not model.areas:
        return []   # a quest with no areas at all has no map to start on; nothing to point at
    if not starts:
        first = next(iter(model.areas.values()))
        return [Q209.at(model.header_span(), problem="no area is the start area", label="the heroes start nowhere",
                        labels=[Label(first.node.id.span, "the first area")],
                        help=f"mark the area where the heroes enter with `start`: "
                             f"`area {first.id} \"{first.name}\" start {{ ... }}`")]
    out = []
    for extra in starts[1:]:
        out.append(Q209.at(extra.node.id.span, problem=f"area `{extra.id}` is a second start area",
                           label="also marked `start`",
                           labels=[Label(starts[0].node.id.span, "the first start area")],
                           help=f"remove `start` from area `{extra.id}`: only `{starts[0].id}` is where "
                                "the heroes enter"))
    return out


def check_q210(facts: Facts) -> list[Diagnostic]:
    """Q210: the start area has no `active` glyph.

    What it does: when the (first) start area holds no glyph written `active`, one
    diagnostic at its name; inactive glyphs in it get a label and the help says to add
    `active` to one, else the help gives a `glyph at X,Y active` on a free cell.
    Why it matters: heroes are placed on or next to an active glyph at the start.
    """
    model = facts.model
    starts = model.start_areas
    if not starts:
        return []
    area = starts[0]
    glyphs = [m for m in model.markers if m.kind == "glyph" and m.area == area.id]
    if any(g.active for g in glyphs):
        return []
    labels = [Label(g.span, "this glyph is not active") for g in glyphs]
    if glyphs:
        help = f"make it active: `glyph at {fmt(glyphs[0].at)} active`"
    else:
        cells = sorted(area.cells, key=lambda c: (c[1], c[0]))
        spot = facts.free_cell(area.id, cells[0]) if cells else None
        help = f"add `glyph at {fmt(spot)} active` to area `{area.id}`" if spot else None
    return [Q210.at(area.node.id.span, area=area.id, labels=labels, help=help)]


# ---- Q211 -------------------------------------------------------------------------


def _points_text(points) -> str:
    return " ".join(f"{p.piece.value + ':' if p.piece else ''}{p.x},{p.y}" for p in points)


def check_q211(facts: Facts) -> list[Diagnostic]:
    """Q211 (warning): `facing` given where it means nothing, or missing where it is needed.

    What it does: for each `trap` line, warns at its `facing` direction when the trap
    kind takes none (catalog `facing: false`), and at the kind when a kind that needs
    one (a boulder, a boulder ramp, a crushing wall) has none; for each `monster` and
    `named` placement, warns at the direction when the figure is one space or square
    (it fills the same spaces whichever way it faces). The help gives the fixed line.
    Why it matters: the overlord cannot tell which way a boulder rolls or a wall moves;
    a facing that changes nothing usually means a mistake on that line.
    """
    model = facts.model
    catalog = model.catalog
    out = []
    for area in model.areas.values():
        for stmt in area.node.statements:
            if isinstance(stmt, n.Trap):
                kind = catalog.lookup("trap", stmt.kind.value)
                if kind is None:
                    continue
                where = f"trap {kind.name} at {_points_text(stmt.at)}"
                if stmt.facing is not None and not kind.facing:
                    out.append(Q211.at(stmt.facing.span, thing=f"trap `{kind.name}`",
                                       problem=f"takes no direction: `facing {stmt.facing.value}` means nothing",
                                       label="a direction that means nothing here",
                                       help=f"remove it: `{where}`"))
                elif stmt.facing is None and kind.facing:
                    out.append(Q211.at(stmt.kind.span, thing=f"trap `{kind.name}`",
                                       problem="needs a direction, and none is given",
                                       label="which way does it go?",
                                       help=f"add the way its arrow points: `{where} facing north` "
                                            "(or east, south, west)"))
            elif isinstance(stmt, (n.Monster, n.PlaceNamed)) and stmt.facing is not None:
                if isinstance(stmt, n.Monster):
                    monster = catalog.lookup("monster", stmt.type.value)
                    thing = f"monster `{monster.name}`" if monster is not None else ""
                else:
                    named = model.named.get(stmt.id.value)
                    monster = named.type if named is not None else None
                    thing = f"named monster `{stmt.id.value}` ({monster.name})" if monster is not None else ""
                if monster is None:
                    continue
                w, h = monster.footprint
                if w != h:
                    continue
                shape = "fills one space" if (w, h) == (1, 1) else f"is square ({w}x{h})"
                out.append(Q211.at(stmt.facing.span, thing=thing,
                                   problem=f"{shape}: `facing {stmt.facing.value}` changes nothing",
                                   label="a direction that changes nothing",
                                   help=f"remove `facing {stmt.facing.value}`: it fills the same spaces whichever "
                                        "way it faces (only a long figure, such as a hell hound, is turned)"))
    return out


# ---- the family -------------------------------------------------------------------

CHECKS = (check_q201, check_q202, check_q203, check_q204, check_q205, check_q206, check_q207, check_q208,
          check_q209, check_q210, check_q211)


def run(context) -> list[Diagnostic]:
    """Every placement check on one quest: a CheckContext in, its Q2xx diagnostics out."""
    facts = Facts(context)
    out: list[Diagnostic] = []
    for check in CHECKS:
        out += check(facts)
    return out
