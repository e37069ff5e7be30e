"""A Valkyrie quest's components (folder.ValkyrieFolder) in; the `.quest` text saying the same in
questc's language, and the list of what it could not say, out.

What maps across (docs/valkyrie.md): tiles become pieces at the same squares (tile 13A its two
parts), doors stand on the same edges, search, objective and villager tokens on the same
spaces, monsters where the quest's placements put them (for the hero counts that place them,
as `players`), a unique monster as a named monster, a lieutenant as its token; the tiles one
event adds become an area (its text read aloud), the start area being the first added from the
start; the start's texts become the intro; an event on a monster's defeat that ends the quest
becomes a victory, a defeat or a door's texts an `on killed`/`on open` block. Everything
else (counters, menus, random events, reinforcements, custom images, expansion content...) is
kept at the end of the file as comments, each with its reason, and listed in the summary.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from questc.catalog import builtin_catalog
from questc.fmt.printer import quote_long, quote_short
from questc.importer.valkyrie.folder import Component, ValkyrieFolder
from questc.valkyrie import content, geometry

__all__ = ["convert"]

_KEYWORDS = frozenset(
    re.findall(
        r'"([a-z_]+)"',
        """
"abilities" "active" "and" "area" "armor" "at" "author" "between" "card" "cells" "chest" "chests" "close" "coins"
"conquest" "damage" "dark_glyph" "door" "east" "edition" "encounter" "exited" "expansions" "facing" "first" "glyph"
"heroes" "id" "instruct" "intro" "killed" "lieutenant" "master" "monster" "named" "north" "not" "note" "objective"
"objectives" "obstacle" "on" "open" "opened" "or" "overlord" "part_of" "piece" "pieces" "players" "potion" "quest"
"read" "relic" "reveal" "revealed" "round" "rune" "runekey" "search" "second" "sight" "south" "spawn" "special"
"speed" "stairs" "start" "threat" "trap" "treachery" "treasure" "triggered" "turn" "unlock" "use" "version"
"victory" "villager" "west" "when" "win" "wounds"
""",
    )
)
_EVENTS = ("Event", "Spawn", "Token", "Door", "Puzzle", "UI")
_END_WORDS = {"heroes": re.compile(r"won|win|victor", re.I), "overlord": re.compile(r"lost|lose|defeat|fail", re.I)}
Cell = tuple[int, int]


def plain(text: str | None) -> str:
    """Valkyrie's text (rich text tags, `\\n` already line breaks) in; plain text out."""
    if not text:
        return ""
    text = re.sub(r"</?(b|i|u|s|color|size|sup|sub)(=[^>]*)?>", "", text, flags=re.I)
    return "\n".join(line.rstrip() for line in text.replace("\r", "").split("\n")).strip()


def readable(name: str, prefix: str) -> str:
    """A component's name (`EventPlaceRevealTiles1`) in; words out (`Place Reveal Tiles 1`)."""
    words = (name[len(prefix) :] if name.startswith(prefix) else name).strip("_")
    words = re.sub(r"(?<=[a-z])(?=[A-Z0-9])|(?<=[0-9])(?=[A-Z])|_", " ", words)
    return " ".join(words.split()) or name


@dataclass
class _Piece:
    id: str
    type: str
    at: Cell
    turn: int
    cells: frozenset
    component: Component


@dataclass
class _Figure:
    line: str  # the statement, without its area
    cell: Cell
    notes: list[str] = field(default_factory=list)


@dataclass
class _Area:
    id: str
    name: str
    event: str | None
    pieces: list[str] = field(default_factory=list)
    read: str = ""
    lines: list[str] = field(default_factory=list)


class _Converter:
    def __init__(self, quest: ValkyrieFolder) -> None:
        self.q = quest
        self.c = quest.components
        self.catalog = builtin_catalog()
        self.ids: set[str] = set()
        self.kept: list[tuple[Component, str]] = []  # components not expressed, with why
        self.summary: list[str] = []
        self.pieces: list[_Piece] = []
        self.piece_of_cell: dict[Cell, str] = {}
        self.piece_of_tile: dict[str, list[str]] = {}  # Valkyrie tile -> questc piece ids
        self.done: set[str] = set()  # components fully expressed
        self.said: set[str] = set()  # events whose text the quest reads
        low = int(self._number(quest.header.get("minhero"), 2))
        high = int(self._number(quest.header.get("maxhero"), 4))
        self.heroes = (max(1, min(low, 4)), max(max(1, min(low, 4)), min(high, 4)))

    # ---- helpers -----------------------------------------------------------------------
    @staticmethod
    def _number(value: str | None, default: float) -> float:
        try:
            return float(value) if value not in (None, "") else default
        except ValueError:
            return default

    def identifier(self, name: str) -> str:
        """A component name in; a questc identifier, unique in this quest, out."""
        ident = re.sub(r"[^A-Za-z0-9_]", "_", name) or "x"
        if not re.match(r"[A-Za-z_]", ident):
            ident = "T" + ident
        if ident in _KEYWORDS:
            ident += "_"
        base, n = ident, 2
        while ident in self.ids:
            ident, n = f"{base}_{n}", n + 1
        self.ids.add(ident)
        return ident

    def keep(self, component: Component, why: str) -> None:
        self.kept.append((component, why))
        self.summary.append(f"[{component.name}] ({component.where()}): {why}")

    def text(self, component: Component | str, element: str = "text") -> str:
        name = component if isinstance(component, str) else component.name
        return plain(self.q.text(f"{name}.{element}"))

    def square(self, component: Component) -> tuple[int, int] | None:
        """A component's square on Valkyrie's board, or None when it is between squares."""
        x, y = (self._number(component.entries.get(k), 0.0) for k in ("xposition", "yposition"))
        return (int(x), int(y)) if x == int(x) and y == int(y) else None

    def following(self, name: str) -> list[str]:
        """The events an event's buttons lead to, in order."""
        component = self.c.get(name)
        if component is None:
            return []
        count = int(self._number(component.entries.get("buttons"), 0))
        out = []
        for i in range(1, max(count, 1) + 1):
            out += [n for n in component.entries.get(f"event{i}", "").split() if n in self.c]
        return out

    # ---- tiles, doors, tokens --------------------------------------------------------
    def tiles(self) -> None:
        for component in (c for c in self.c.values() if c.type == "Tile"):
            side = component.entries.get("side", "")
            piece_type = content.piece_for_side(side) or content.piece_for_side("TileSide" + side)
            if component.entries.get("customImage"):
                self.keep(component, "a tile drawn from a custom image: questc knows only the base game's tiles")
                continue
            if piece_type is None:
                self.keep(
                    component,
                    f"tile side `{side}` is not the second edition base game's: questc has no "
                    "such tile (an expansion's, or a content pack's)",
                )
                continue
            square = self.square(component)
            rotation = int(self._number(component.entries.get("rotation"), 0))
            if square is None or rotation % 90:
                self.keep(
                    component,
                    "a tile placed between squares or turned by other than a quarter: it cannot stand on questc's grid",
                )
                continue
            placement = geometry.Placement(square[0], square[1], rotation)
            ident = self.identifier(component.name[4:].lstrip("_") or component.name)
            if piece_type == "tile_13a":
                at, turn = _quarter_turned(geometry.piece_at(placement, *content.TILE_13A_BOX))
                ids = []
                for part in content.TILE_13A:
                    part_id = ident if part == "tile_13a2" else self.identifier(ident + "_strip")
                    self.add_piece(part_id, part, geometry.part_of_13a(part, at, turn), turn, component)
                    ids.append(part_id)
                self.piece_of_tile[component.name] = ids
            else:
                kind = self.catalog.lookup("piece", piece_type)
                at, turn = _quarter_turned(geometry.piece_at(placement, kind.width, kind.height))
                self.add_piece(ident, piece_type, at, turn, component)
                self.piece_of_tile[component.name] = [ident]
            self.done.add(component.name)

    def add_piece(self, ident: str, piece_type: str, at: Cell, turn: int, component: Component) -> None:
        cells = self.catalog.lookup("piece", piece_type).placed(at, turn).cells
        self.pieces.append(_Piece(ident, piece_type, at, turn, cells, component))
        for cell in cells:
            self.piece_of_cell.setdefault(cell, ident)

    def doors(self) -> list[tuple[str, Component]]:
        out = []
        for component in (c for c in self.c.values() if c.type == "Door"):
            square = self.square(component)
            rotation = int(self._number(component.entries.get("rotation"), 0))
            edges = geometry.door_edges(geometry.Placement(*square, rotation)) if square else None
            if edges is None:
                self.keep(component, "a door between squares or turned by other than a quarter")
                continue
            (x1, y1, x2, y2), _ = sorted(edges)
            where = f"{x1},{y1} west" if x1 == x2 else f"{x1},{y1} north"
            rest = component.name[4:].lstrip("_")
            ident = self.identifier(rest if re.match(r"[A-Za-z_]", rest) else component.name)
            line = f"door {ident}"
            name = readable(component.name, "Door")
            if re.search(r"[A-Za-z]", name) and name.replace(" ", "") != ident:
                line += f" {quote_short(name)}"
            out.append((f"{line} at {where}", component))
            self.door_ids[component.name] = ident
            self.done.add(component.name)
        return out

    def tokens(self) -> list[tuple[Cell, str, Component]]:
        out = []
        for component in (c for c in self.c.values() if c.type == "Token"):
            kind = component.entries.get("type", "")
            square = self.square(component)
            if kind.startswith("TokenObjective") and kind in content.OBJECTIVES.values():
                colour = next(c for c, t in content.OBJECTIVES.items() if t == kind)
                statement = f"objective {colour} at" if colour else "objective at"
            elif kind in content.TOKEN_KINDS.values() or kind in content.TOKEN_ALIASES:
                statement = (
                    content.TOKEN_ALIASES.get(kind)
                    or (next(k for k, t in content.TOKEN_KINDS.items() if t == kind), None)
                )[0] + " at"
            else:
                self.keep(component, f"a token of type `{kind or '(none)'}`, which questc has no token for")
                continue
            if square is None or component.entries.get("customImage"):
                self.keep(component, "a token between squares, or drawn from a custom image")
                continue
            cell = geometry.cell_of(*square)
            out.append((cell, f"{statement} {cell[0]},{cell[1]}", component))
        return out

    # ---- the event graph ------------------------------------------------------------
    def reach(self, roots: list[str], through_clicks: bool = False, wake: bool = False) -> list[str]:
        """Events reached from `roots` along the buttons' lists (into the tokens and doors events add,
        when `through_clicks`; to the events an `@` variable wakes, when `wake`), in the order found."""
        seen: list[str] = []
        todo = list(roots)
        while todo:
            name = todo.pop(0)
            if name in seen or name not in self.c:
                continue
            seen.append(name)
            todo += self.following(name)
            if wake:
                todo += self.requested(name)
            if through_clicks:
                todo += [
                    n
                    for n in self.c[name].entries.get("add", "").split()
                    if n in self.c and self.c[n].type in ("Token", "Door")
                ]
        return seen

    def requested(self, name: str) -> list[str]:
        """The events an event wakes by setting `@<var>` (they are triggered by `Var<var>`)."""
        woken = {
            "Var" + _operation(op)[0][1:]
            for op in self.c[name].entries.get("operations", "").split()
            if op.startswith("@")
        }
        return [n for n, c in self.c.items() if woken and c.entries.get("trigger") in woken]

    def start_chain(self) -> list[str]:
        """The events the quest runs at its start (those on `EventStart` that no condition holds back,
        and what their buttons lead to), before any player clicks anything."""
        return self.reach(
            [
                n
                for n, c in self.c.items()
                if c.type in _EVENTS
                and c.entries.get("trigger") == "EventStart"
                and not (c.entries.get("conditions") or c.entries.get("vartests"))
            ]
        )

    # ---- areas -----------------------------------------------------------------------
    def areas(self) -> list[_Area]:
        adders = [
            c
            for c in self.c.values()
            if c.type in _EVENTS and any(self.piece_of_tile.get(n) for n in c.entries.get("add", "").split())
        ]
        order = self.reach(self.start_chain(), through_clicks=True, wake=True)
        order += [
            n
            for n in self.reach([n for n, c in self.c.items() if c.type in _EVENTS], through_clicks=True)
            if n not in order
        ]
        adders.sort(key=lambda c: order.index(c.name) if c.name in order else len(order))
        areas: list[_Area] = []
        placed: set[str] = set()
        for adder in adders:
            pieces = [
                p
                for n in adder.entries.get("add", "").split()
                for p in self.piece_of_tile.get(n, [])
                if p not in placed
            ]
            if not pieces:
                continue
            placed.update(pieces)
            area = _Area(
                self.identifier(adder.name[5:].lstrip("_") if adder.name.startswith("Event") else adder.name),
                readable(adder.name, "Event"),
                adder.name,
                pieces,
                self.text(adder),
            )
            areas.append(area)
            self.said.add(adder.name)
        rest = [p.id for p in self.pieces if p.id not in placed]
        if rest:
            areas.append(_Area(self.identifier("NotAdded"), "Not added by any event", None, rest))
            self.summary.append(
                f"{len(rest)} tile(s) no event adds: Valkyrie never shows them; questc puts them "
                "in an area of their own"
            )
        return areas

    # ---- monsters --------------------------------------------------------------------
    def monster_type(self, name: str) -> tuple[str, str, Component | None] | None:
        """A spawn's monster (Valkyrie's MonsterX or a CustomMonster) in; ("monster"|"lieutenant",
        questc's name, the custom monster) out, or None when questc has no such monster."""
        custom = self.c.get(name) if name.startswith("CustomMonster") else None
        base = custom.entries.get("base", "") if custom is not None else name
        for questc_name, (valkyrie_name, _trait) in content.MONSTERS.items():
            if base == valkyrie_name:
                return "monster", questc_name, custom
        for questc_name, valkyrie_name in content.LIEUTENANTS.items():
            if base == valkyrie_name:
                return "lieutenant", questc_name, custom
        return None

    def spawn_heroes(self, spawn: Component) -> set[int]:
        """The hero counts a spawn runs for, from its `#heroes` tests (all of the quest's when none)."""
        counts = set(range(self.heroes[0], self.heroes[1] + 1))
        tests = spawn.entries.get("conditions", "").split()
        tests += [
            t.partition(":")[2]
            for t in spawn.entries.get("vartests", "").split()
            if t.startswith("VarOperation:#heroes,")
        ]
        if any(t.startswith("VarTestsLogicalOperator:OR") for t in spawn.entries.get("vartests", "").split()):
            return counts  # an `or` of tests: left to the writer (the placements still say which counts)
        for test in tests:
            var, op, value = _operation(test)
            if var == "#heroes" and re.fullmatch(r"-?\d+", value):
                v = int(value)
                counts = {
                    h
                    for h in counts
                    if {"==": h == v, "!=": h != v, ">": h > v, "<": h < v, ">=": h >= v, "<=": h <= v}.get(op, True)
                }
        return counts

    def monsters(self, placed_events: set[str]) -> tuple[list[_Figure], list[str]]:
        """Spawns with placements in; figures (monsters, named monsters, lieutenants) and the named
        monsters' definitions out. Unique spawns of one title are one named monster."""
        figures: list[_Figure] = []
        named: dict[str, tuple[str, str, Component]] = {}  # title -> (ident, type, spawn)
        named_defs: list[str] = []
        lieutenants: set[str] = set()
        for spawn in (c for c in self.c.values() if c.type == "Spawn"):
            types = spawn.entries.get("monster", "").split()
            if len(types) != 1 or spawn.entries.get("traits") or spawn.entries.get("traitpool"):
                self.keep(
                    spawn,
                    "a spawn that lets Valkyrie choose the monster (traits, or a list): questc places one monster type",
                )
                continue
            known = self.monster_type(types[0])
            if known is None:
                self.keep(spawn, f"monster `{types[0]}` is not the second edition base game's")
                continue
            heroes = self.spawn_heroes(spawn)
            by_place: dict[str, set[int]] = {}
            for h in range(1, 5):
                for place in spawn.entries.get(f"placement{h}", "").split():
                    if h in heroes:
                        by_place.setdefault(place, set()).add(h)
            if not by_place:
                self.keep(
                    spawn,
                    "a spawn with no placement for the heroes to follow (Valkyrie has them place "
                    "the group as the text says): questc places each figure",
                )
                continue
            if spawn.name not in placed_events:
                self.keep(
                    spawn,
                    "a spawn that comes later in play (reinforcements, a round's event): questc "
                    "places the quest's monsters from the start, and has no reinforcements yet",
                )
                continue
            kind, questc_name, custom = known
            trait = "small" if kind == "lieutenant" else content.MONSTERS[questc_name][1]
            unique = spawn.entries.get("unique", "").lower() == "true"
            title = self.text(spawn, "uniquetitle") or (self.text(custom, "monstername") if custom else "")
            for place, counts in by_place.items():
                mplace = self.c.get(place)
                square = self.square(mplace) if mplace is not None and mplace.type == "MPlace" else None
                if mplace is None or square is None:
                    self.keep(spawn, f"placement `{place}` is not a placement on a square")
                    continue
                rotate = mplace.entries.get("rotate", "").lower() == "true"
                master = mplace.entries.get("master", "").lower() == "true"
                at, size = geometry.figure_at(geometry.Placement(*square), rotate, content.SIZES[trait])
                players = self.players(counts)
                if kind == "lieutenant":
                    if questc_name in lieutenants:
                        continue  # one token per lieutenant: the first placement
                    lieutenants.add(questc_name)
                    figures.append(_Figure(f"lieutenant {questc_name} at {at[0]},{at[1]}", at))
                    self.lieutenant_of[spawn.name] = questc_name
                    continue
                facing = self.facing(questc_name, size)
                if unique and master and (title or custom):
                    # The unique leader: one named monster however many spawns (one per hero count) place it.
                    key = title or custom.name  # type: ignore[union-attr]
                    if key not in named:
                        ident = self.identifier(re.sub(r"\W+", "_", key.strip().lower()).strip("_") or "named")
                        named[key] = (ident, questc_name, spawn)
                        wounds = int(self._number(spawn.entries.get("uniquehealth"), 0))
                        body = f"  wounds +{wounds}\n" if wounds > 0 else ""
                        named_defs.append(f"named {ident} {quote_short(key)} {questc_name} {{\n{body}}}")
                        figures.append(_Figure(f"named {ident} at {at[0]},{at[1]}{facing}", at))
                        self.named_of[spawn.name] = ident
                        if custom is not None:
                            self.named_of[custom.name] = ident
                    else:
                        self.named_of[spawn.name] = named[key][0]
                    continue
                rank = " master" if master else ""
                figures.append(_Figure(f"monster {questc_name}{rank} at {at[0]},{at[1]}{facing}{players}", at))
            self.done.add(spawn.name)
            for place in by_place:
                self.done.add(place)
        return figures, named_defs

    def door_reveals(self, areas: list[_Area]) -> bool:
        """Does every area but the first appear when a door is opened? Then the quest is `reveal door`."""
        opened = {n for door in self.door_ids for n in self.reach(self.following(door), wake=True)}
        return len(areas) > 1 and all(a.event in opened for a in areas[1:])

    def map_parts(self) -> list[list[str]]:
        """The pieces in groups that touch one another (side by side), largest first."""
        groups: list[set[str]] = []
        for piece in self.pieces:
            touching = [
                g
                for g in groups
                if any(
                    (x + dx, y + dy) in self.piece_of_cell and self.piece_of_cell[(x + dx, y + dy)] in g
                    for x, y in piece.cells
                    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
                )
            ]
            merged = {piece.id}.union(*touching)
            groups = [g for g in groups if g not in touching] + [merged]
        order = [p.id for p in self.pieces]
        return sorted((sorted(g, key=order.index) for g in groups), key=lambda g: (-len(g), order.index(g[0])))

    def players(self, counts: set[int]) -> str:
        if counts == set(range(self.heroes[0], self.heroes[1] + 1)) or not counts:
            return ""
        low, high = min(counts) + 1, max(counts) + 1
        return f" players {low}" if low == high else f" players {low}..{high}"

    def facing(self, monster: str, size: tuple[int, int]) -> str:
        kind = self.catalog.lookup("monster", monster)
        if kind.footprint == size or kind.footprint == kind.footprint[::-1]:
            return ""
        return " facing east"

    # ---- the whole quest --------------------------------------------------------------
    def run(self) -> tuple[str, list[str]]:
        self.door_ids: dict[str, str] = {}
        self.trigger_used: set[str] = set()
        self.named_of: dict[str, str] = {}
        self.lieutenant_of: dict[str, str] = {}
        self.tiles()
        if not self.pieces:
            raise_no_map(self.q)
        doors = self.doors()
        tokens = self.tokens()
        areas = self.areas()
        start_chain = self.start_chain()
        placed_events = set(
            self.reach(
                start_chain
                + [n for n, c in self.c.items() if c.type in ("Token", "Door")]
                + [a.event for a in areas if a.event],
                through_clicks=True,
                wake=True,
            )
        )
        figures, named_defs = self.monsters(placed_events)
        area_of_piece = {p: a for a in areas for p in a.pieces}
        shown = {n for e in placed_events for n in self.c[e].entries.get("add", "").split()}
        for cell, line, component in tokens:
            area = area_of_piece.get(self.piece_of_cell.get(cell, ""))
            if component.name not in shown:
                self.keep(component, "a token added later in play (or never): questc places tokens from the start")
                continue
            if area is None:
                self.keep(component, "a token off every tile questc could place")
                continue
            said = self.text(component)
            if said:
                area.lines.append(_comment(f"{component.name}: {said}"))
            area.lines.append(line)
            self.done.add(component.name)
        for figure in figures:
            area = area_of_piece.get(self.piece_of_cell.get(figure.cell, ""))
            if area is None:
                self.summary.append(f"`{figure.line}`: on no tile questc could place; left out")
                continue
            area.lines.append(figure.line)
        victories, triggers = self.logic()
        parts = self.map_parts()
        if len(parts) > 1:
            self.summary.append(
                f"the tiles make {len(parts)} separate maps ({'; '.join(', '.join(p) for p in parts)}): "
                "a Valkyrie quest of several encounters? questc gives each encounter a file of "
                "its own (`encounter N`, `part_of NAME`); until then the other maps cannot be reached"
            )
        return self.compose(areas, doors, named_defs, victories, triggers, start_chain), self.summary

    def logic(self) -> tuple[list[str], list[str]]:
        """Victories (an event on a monster's defeat that ends the quest, or is called a victory or a
        defeat) and `on killed` and `on open` blocks (the texts of what follows)."""
        victories, triggers = [], []
        ended = {n for n, c in self.c.items() if self.ends(c)}
        for component in self.c.values():
            trigger = component.entries.get("trigger", "")
            match = re.fullmatch(r"Defeated(?:Unique)?(.+)", trigger)
            if component.type not in _EVENTS or not match:
                continue
            monster = match[1]
            target = self.named_of.get(monster) or self.lieutenant_of.get(monster) or self.lieutenant_target(monster)
            if target is None:
                continue
            chain = self.reach([component.name])
            named_an_ending = re.fullmatch(r"(Event)?(Victory|Won|Win|Defeat|Lose|Lost|Loss|End)\d*", component.name)
            side = self.side(chain) if set(chain) & ended or named_an_ending else None
            if side is not None:
                label = readable(component.name, "Event")
                victories.append(f"victory {side} {quote_short(label)} when killed {target}")
                self.said.update(chain)
            else:
                said = [self.text(n) for n in chain if self.text(n)]
                if not said:
                    continue
                triggers.append(f"on killed {target} {{\n  read {_text(_paragraphs(said), 1)}\n}}")
                self.said.update(chain)
            self.trigger_used.add(component.name)
        victories += self.tested_victories(ended)
        for name, ident in self.door_ids.items():
            chain = self.reach(self.following(name))
            said = [self.text(n) for n in chain if self.text(n)]
            if said:
                triggers.append(f"on open {ident} {{\n  read {_text(_paragraphs(said), 1)}\n}}")
                self.said.update(chain)
        return victories, triggers

    def tested_victories(self, ended: set[str]) -> list[str]:
        """Endings that test what happened: an event ending the quest (itself or by what follows it)
        whose tests are variables questc can name (set when a monster is defeated: `killed`; the
        round; objective tokens picked up; heroes who left by the exit) is a victory when they hold.
        Tests on the encounter are dropped (one encounter is one file)."""
        killed_var: dict[str, str] = {}
        for component in self.c.values():
            match = re.fullmatch(r"Defeated(?:Unique)?(.+)", component.entries.get("trigger", ""))
            target = (
                (self.named_of.get(match[1]) or self.lieutenant_of.get(match[1]) or self.lieutenant_target(match[1]))
                if match
                else None
            )
            for op in component.entries.get("operations", "").split() if target else ():
                var, operator, value = _operation(op)
                if operator == "=" and value == "1" and target:
                    killed_var[var] = target
        rounds = {"#round"} | {
            _operation(op)[0]
            for c in self.c.values()
            if c.entries.get("trigger") == "StartRound"
            for op in c.entries.get("operations", "").split()
            if _operation(op)[1:] == ("+", "1")
        }
        counted = self.counters()

        def atom(body: str, sides: set) -> str | None:
            var, operator, value = _operation(body)
            compare = {"==": "=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}.get(operator)
            if var in killed_var and operator in ("==", "!=") and value in ("0", "1"):
                return ("" if (operator == "==") == (value == "1") else "not ") + f"killed {killed_var[var]}"
            if compare and value.isdigit() and (var in rounds or var in counted):
                if var in counted:
                    sides.add(counted[var][1])
                return f"{'round' if var in rounds else counted[var][0]} {compare} {value}"
            return None

        out = []
        for component in self.c.values():
            tests = component.entries.get("vartests", "").split()
            if component.type not in _EVENTS or not tests or not set(self.reach([component.name])) & ended:
                continue
            sides: set[str | None] = set()
            condition = _fold(tests, lambda body: atom(body, sides))  # noqa: B023 - _fold calls it now
            if not condition:
                continue
            chain = self.reach([component.name])
            side = self.side(chain)
            if sides - {None, side}:
                continue  # another side's objectives: questc counts those of the side that wins
            label = (self.text(component).split("\n")[0] or readable(component.name, "Event")).strip()
            out.append(f"victory {side} {quote_short(label)} when {condition}")
            self.trigger_used.add(component.name)
            self.said.update(chain)
            self.done.update(chain)
        return out

    def counters(self) -> dict[str, tuple[str, str | None]]:
        """Variables that count what questc's victories count: objective tokens picked up (a variable an
        event raises as it removes an objective token: the overlord's when a monster picks it up)
        and heroes who left the map (a variable raised by the answers to an end-of-round question
        about the exit)."""
        out: dict[str, tuple[str, str | None]] = {}
        objectives = {
            n for n, c in self.c.items() if c.type == "Token" and c.entries.get("type", "").startswith("TokenObjective")
        }
        for token in objectives:
            token_component = self.c[token]
            count = int(self._number(token_component.entries.get("buttons"), 0))
            for i in range(1, count + 1):
                label = self.text(token_component, f"button{i}").lower()
                for name in token_component.entries.get(f"event{i}", "").split():
                    event = self.c.get(name)
                    if event is None or token not in event.entries.get("remove", "").split():
                        continue
                    side = "overlord" if "monster" in label + name.lower() else "heroes"
                    for op in event.entries.get("operations", "").split():
                        if _operation(op)[1:] == ("+", "1"):
                            out[_operation(op)[0]] = ("objectives", side)
        for component in self.c.values():
            if component.entries.get("trigger") != "EndRound" or not re.search(
                r"\bexit\b|left the map|leave the map", self.text(component), re.I
            ):
                continue
            for name in self.following(component.name):
                for op in self.c[name].entries.get("operations", "").split():
                    var, operator, _ = _operation(op)
                    if operator == "+" and not var.startswith("@"):
                        out[var] = ("exited", None)
        return out

    def uncarried(self, component: Component) -> list[str]:
        """What of an event questc's language did not take: [] when everything it does is said."""
        entries, out = component.entries, []
        if component.name not in self.said and self.text(component):
            out.append("its text")
        if entries.get("operations"):
            out.append(f"variables ({entries['operations']})")
        if entries.get("conditions") or entries.get("vartests"):
            out.append("conditions")
        trigger = entries.get("trigger", "")
        if trigger and trigger != "EventStart" and component.name not in self.trigger_used:
            out.append(f"the trigger {trigger}")
        buttons = [entries.get(f"event{i}", "") for i in range(1, int(self._number(entries.get("buttons"), 0)) + 1)]
        if len(buttons) > 1:
            out.append(f"a choice of {len(buttons)} buttons")
        if any(len(b.split()) > 1 for b in buttons):
            out.append(
                "a choice of events (the first whose conditions hold"
                + (", or at random)" if entries.get("randomevents", "").lower() == "true" else ")")
            )
        if entries.get("remove"):
            out.append(f"components removed in play ({entries['remove']})")
        added = [n for n in entries.get("add", "").split() if n not in self.done]
        if added:
            out.append(f"components added that questc does not place ({' '.join(added)})")
        return out

    def lieutenant_target(self, monster: str) -> str | None:
        for questc_name, valkyrie_name in content.LIEUTENANTS.items():
            if monster == valkyrie_name and questc_name in self.lieutenant_of.values():
                return questc_name
        return None

    def ends(self, component: Component) -> bool:
        """Does this event end the quest (`$end`, or an `EventEnd...` of a format before 9)?"""
        if component.type not in _EVENTS:
            return False
        if "$end,=,1" in component.entries.get("operations", "").replace(" ", " "):
            return True
        return component.name.startswith("EventEnd") and int(self._number(self.q.header.get("format"), 0)) <= 8

    def side(self, chain: list[str]) -> str:
        """Who wins at the end of a chain: the overlord when its names, texts or sounds say defeat."""
        said = " ".join(chain + [self.c[n].entries.get("audio", "") for n in chain] + [self.text(n) for n in chain])
        if re.search(r"overlord wins|heroes lose|you lose", said, re.I):
            return "overlord"
        won, lost = _END_WORDS["heroes"].search(said), _END_WORDS["overlord"].search(said)
        return "overlord" if lost and (not won or lost.start() < won.start()) else "heroes"

    def compose(
        self,
        areas: list[_Area],
        doors,
        named_defs: list[str],
        victories: list[str],
        triggers: list[str],
        start_chain: list[str],
    ) -> str:
        q = self.q
        title = plain(q.text("quest.name")) or "Imported quest"
        lines = [
            _comment(f"Imported from the Valkyrie quest {q.source} by `questc import valkyrie`."),
            _comment("What questc's language cannot say is kept as comments at the end of the file."),
        ]
        description = plain(q.text("quest.description"))
        if description:
            lines.append(_comment(f"Valkyrie's description: {description}"))
        lines.append(f"quest {quote_short(title.replace(chr(10), ' '))} {{")
        lines.append("  edition second")
        if self.door_reveals(areas):
            lines.append("  reveal door")
        low, high = self.heroes
        if (low, high) != (1, 4):
            lines.append(f"  players {low + 1}..{high + 1}" if low != high else f"  players {low + 1}")
        author = plain(q.text("quest.authors_short") or q.text("quest.authors"))
        if author:
            lines.append(f"  author {quote_short(author.replace(chr(10), ' '))}")
        intro_events = [
            n for n in start_chain if self.text(n) and not self.c[n].entries.get("add") and self.c[n].type == "Event"
        ]
        self.said.update(intro_events)
        intro_text = "\n\n".join(self.text(n) for n in intro_events) or description
        if intro_text:
            lines.append(f"  intro {_text(intro_text, 1)}")
        lines.append("}")
        lines.append("")
        for piece in self.pieces:
            turn = f" turn {piece.turn}" if piece.turn else ""
            lines.append(f"piece {piece.id} {piece.type} at {piece.at[0]},{piece.at[1]}{turn}")
        if doors:
            lines.append("")
            for line, component in doors:
                colour = component.entries.get("color", "")
                said = self.text(component)
                if said or (colour and colour != "white"):
                    lines.append(
                        _comment(
                            f"{component.name}"
                            + (f" (colour {colour})" if colour else "")
                            + (f": {said}" if said else "")
                        )
                    )
                lines.append(line)
        for index, area in enumerate(areas):
            lines.append("")
            start = " start" if index == 0 else ""
            lines.append(f"area {area.id} {quote_short(area.name)}{start} {{")
            lines.append(f"  pieces {', '.join(area.pieces)}")
            if area.read:
                lines.append(f"  read {_text(area.read, 1)}")
            lines += ["  " + line if not line.startswith("#") else "  " + line for line in area.lines]
            lines.append("}")
        for definition in named_defs:
            lines += ["", definition]
        for trigger in triggers:
            lines += ["", trigger]
        if victories:
            lines.append("")
            lines += victories
        else:
            self.summary.append(
                "no event ends the quest on a monster's defeat: the quest has no victory questc "
                "can read (write one: `victory heroes when ...`)"
            )
        rest = [c for c in self.c.values() if c.name not in self.done and not any(k is c for k, _ in self.kept)]
        for component in rest:
            if component.type in _EVENTS:
                missing = self.uncarried(component)
                if missing:
                    self.keep(component, "not carried: " + "; ".join(missing))
                continue
            why = {
                "MPlace": "a placement no spawn questc imported uses",
                "CustomMonster": "a custom monster's rules (shown as text in Valkyrie)",
                "Activation": "a custom monster activation (Valkyrie plays the monsters)",
                "QItem": "an item (questc has no items)",
                "Puzzle": "a puzzle (questc has no puzzles)",
                "UI": "an image or button shown on the screen",
            }.get(component.type, "not imported")
            self.keep(component, why)
        if self.kept:
            lines += ["", _comment("Kept from the Valkyrie quest: what questc's language cannot say (yet).")]
            for component, why in self.kept:
                lines.append(_comment(f"[{component.name}] ({component.where()}): {why}"))
                for key, value in component.entries.items():
                    lines.append(_comment(f"  {key}={value}"))
                for element in ("text", "uniquetitle", "uniquetext", "monstername", "info"):
                    said = self.text(component, element)
                    if said:
                        lines.append(_comment(f"  {element}: {said}"))
        return "\n".join(lines).rstrip("\n") + "\n"


def _quarter_turned(placed: tuple[geometry.Cell, int] | None) -> tuple[geometry.Cell, int]:
    """geometry.piece_at's answer for a tile whose rotation was checked to be a quarter turn."""
    if placed is None:
        raise AssertionError("piece_at refused a quarter turn")
    return placed


def _operation(text: str) -> tuple[str, str, str]:
    """`var,op,value` as Valkyrie's VarOperation splits it (empty parts dropped); ("", "", "") when
    it is not three parts (the import refused such a quest already: folder._check_operations)."""
    parts = [p for p in text.split(",") if p]
    return (parts[0], parts[1], parts[2]) if len(parts) == 3 else ("", "", "")


def _fold(tests: list[str], atom) -> str | None:
    """Valkyrie's tests (VarOperation, VarTestsLogicalOperator, VarTestsParenthesis parts) in; the same
    condition in questc's language out, None when an atom has no questc name. Valkyrie reads its
    tests left to right (`a OR b AND c` is `(a or b) and c`), so a run of mixed operators gets the
    parentheses questc's precedence needs. A test of the `encounter` variable is dropped."""
    position = 0

    def group() -> tuple[str, str | None] | None:  # (text, the operator joining it at the top, if any)
        nonlocal position
        text, top = "", None
        operator = None
        while position < len(tests):
            kind, _, body = tests[position].partition(":")
            position += 1
            if kind == "VarTestsLogicalOperator" and body in ("AND", "OR"):
                operator = body.lower()
                continue
            if kind == "VarTestsParenthesis" and body == ")":
                break
            if kind == "VarTestsParenthesis" and body == "(":
                inner = group()
                if inner is None:
                    return None
                piece, inner_top = inner
                piece = f"({piece})" if inner_top else piece
            elif kind == "VarOperation":
                if _operation(body)[0] == "encounter":
                    operator = None if not text else operator
                    continue
                piece = atom(body)
                if piece is None:
                    return None
            else:
                return None
            if not text:
                text = piece
            else:
                joiner = operator or "and"
                if top and top != joiner and joiner == "and":
                    text = f"({text})"  # an `or` read before an `and`: Valkyrie grouped it first
                text, top = f"{text} {joiner} {piece}", joiner
            operator = None
        return (text, top) if text else None

    found = group()
    return found[0] if found else None


def _paragraphs(texts: list[str]) -> str:
    return "\n\n".join(texts)


def _comment(text: str) -> str:
    """A text in; a comment line for it (line breaks folded into the one line)."""
    return "# " + " ".join(text.split())


def _text(text: str, depth: int) -> str:
    """A quest text in; its literal out: one line in quotes, or a triple-quoted block."""
    return quote_long(text, depth) if "\n" in text or len(text) > 70 else quote_short(text)


def raise_no_map(quest: ValkyrieFolder) -> None:
    from questc.errors import ImportFailed

    raise ImportFailed(
        f"{quest.source}: no tile of the quest is a second edition base game tile questc can place: "
        "there is no map to import"
    )


def convert(quest: ValkyrieFolder) -> tuple[str, list[str]]:
    """A read Valkyrie quest in; the `.quest` text and the summary of what was not imported out."""
    return _Converter(quest).run()
