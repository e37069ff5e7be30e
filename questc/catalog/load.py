"""Loading the catalog: cards/*.yaml and content packs in, a merged Catalog and Q106 diagnostics out."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from questc.catalog import shapes
from questc.catalog.cache import cached_documents, known_valid
from questc.catalog.codes import Q106
from questc.catalog.model import (
    NONE_OWNED,
    UNKNOWN,
    CardType,
    Catalog,
    ChestCard,
    Count,
    DarkGlyph,
    MarkerKind,
    MonsterType,
    ObstacleKind,
    Opening,
    PieceType,
    SetInfo,
    TreasureKind,
    frozen_map,
)
from questc.diagnostics.core import Diagnostic, Span
from questc.errors import CatalogError, PackProblem
from questc.paths import data_dir
from questc.records import record
from questc.words import plural

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator, ValidationError
    from yaml import Node

PackSpec = tuple[str, "Span | None", Path]
# A YAML mapping as read (a catalog document, a section's entry): its values are whatever the
# file holds, checked by the schema and the readers below.
Doc = Mapping[str, Any]


@lru_cache(maxsize=1)
def _strict_loader():
    """A safe YAML loader that refuses a key given twice in one mapping.

    Plain PyYAML keeps the last value silently, which would let a pack override its
    own entry without anyone noticing. libyaml's parser when present (much faster);
    always a safe loader, never an unsafe one. Made on first use: PyYAML is slow to
    import and a warm run of the built-in catalog does not need it (see _builtin_documents).
    """
    import yaml

    # libyaml's loader when PyYAML was built with it; the stubs declare both.
    base: type[yaml.SafeLoader] | type[yaml.CSafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class _StrictLoader(base):  # type: ignore[valid-type,misc]  # a base chosen at run time, as above
        def construct_yaml_int(self, node):
            # A catalog's numbers are small. A number of thousands of digits stopped Python's
            # int() (ValueError: an internal error) or, in hexadecimal, made a footprint no
            # memory holds: say where it is instead.
            digits = sum(ch.isalnum() for ch in str(node.value))
            if digits > MAX_PACK_DIGITS:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"a number of {digits:,} digits (a catalog's numbers have at most {MAX_PACK_DIGITS})",
                    node.start_mark,
                )
            return super().construct_yaml_int(node)

        def construct_mapping(self, node, deep: bool = False):
            seen: dict[Any, Any] = {}
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=True)
                try:
                    if key in seen:
                        raise yaml.constructor.ConstructorError(
                            "while reading a mapping",
                            node.start_mark,
                            f"the key {key!r} appears twice (first on line {seen[key].line + 1})",
                            key_node.start_mark,
                        )
                    seen[key] = key_node.start_mark
                except TypeError:  # an unhashable key: let the base constructor report it
                    pass
            return super().construct_mapping(node, deep)

    _StrictLoader.add_constructor("tag:yaml.org,2002:int", _StrictLoader.construct_yaml_int)
    return _StrictLoader


MAX_PACK_DIGITS = 12  # digits of a number in a content pack (counts and sizes are far smaller)


def read_yaml(path: Path) -> Any:
    """A file path in, the YAML document out; PackProblem if it cannot be read or parsed.

    Only a regular file of at most MAX_PACK_BYTES is read, and its aliases may expand
    the document to at most MAX_YAML_NODES nodes (see _expanded_nodes).
    """
    from questc.files import NotARegularFile, TooLarge, read_input
    from questc.limits import MAX_PACK_BYTES

    try:
        raw = read_input(path, MAX_PACK_BYTES)
    except FileNotFoundError:
        raise PackProblem("no such file") from None
    except NotARegularFile as error:
        raise PackProblem(f"is {error.kind}, not a YAML file") from None
    except TooLarge as error:
        raise PackProblem(f"is {error.size:,} bytes; a content pack holds at most {MAX_PACK_BYTES:,}") from None
    except OSError as error:
        raise PackProblem(f"cannot be read ({error.strerror or error})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise PackProblem(f"is not UTF-8 text (byte {error.start})") from None
    import yaml

    loader = _strict_loader()(text)
    try:
        node = loader.get_single_node()
        if node is not None:
            _expanded_nodes(node)
        return loader.construct_document(node) if node is not None else None
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        problem = getattr(error, "problem", None) or str(error)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise PackProblem(f"is not valid YAML: {problem}{where}") from None
    except RecursionError:
        raise PackProblem("is nested too deeply to be a catalog") from None
    finally:
        loader.dispose()


def _expanded_nodes(root: Node) -> int:
    """The number of nodes the YAML graph `root` holds once every alias is followed;
    PackProblem past MAX_YAML_NODES or nested deeper than MAX_YAML_DEPTH. Counted before
    anything is built and stopping at the budget, so a few hundred bytes of nested aliases
    ("billion laughs") cost nothing; an alias inside its own anchor (a loop) never ends,
    so it meets a bound too. A catalog is a few levels deep; a value nested a thousand
    deep would overflow the recursion of the schema check and its messages."""
    import yaml

    from questc.limits import MAX_YAML_DEPTH, MAX_YAML_NODES

    count, stack = 0, [(root, 0)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > MAX_YAML_NODES:
            raise PackProblem(
                f"expands to over {MAX_YAML_NODES:,} YAML values once its aliases (`*name`) "
                f"are followed (at line {node.start_mark.line + 1}); write the entries out"
            )
        if depth > MAX_YAML_DEPTH:
            raise PackProblem(
                f"nests values more than {MAX_YAML_DEPTH} levels deep "
                f"(at line {node.start_mark.line + 1}); a catalog needs a few"
            )
        if isinstance(node, yaml.SequenceNode):
            stack += [(child, depth + 1) for child in node.value]
        elif isinstance(node, yaml.MappingNode):
            stack += [(part, depth + 1) for pair in node.value for part in pair]
    return count


def pointer(*parts: Any) -> str:
    """Path parts in, a JSON pointer (RFC 6901) out: `/monsters/wraith/footprint`."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@lru_cache(maxsize=1)
def schema() -> dict[str, Any]:
    """The catalog file schema (schemas/catalog.schema.json)."""
    # Imported here: only packs are validated, so a run without packs never needs json.
    import json

    return json.loads((data_dir("schemas") / "catalog.schema.json").read_text(encoding="utf-8"))


def schema_problems(document: Any) -> list[tuple[str, str]]:
    """A parsed catalog file in, (JSON pointer, message) for each schema violation out (best first)."""
    # Imported here: only packs are validated at run time, and jsonschema is slow to import.
    from jsonschema.exceptions import best_match

    validator = _validator()
    errors = sorted(validator.iter_errors(document), key=lambda e: ([str(p) for p in e.absolute_path], e.message))
    if not errors:
        return []
    first = best_match(errors)
    rest = [e for e in errors if e is not first]
    return [(_short(pointer(*e.absolute_path), 80), _message(e)) for e in [first] + rest]


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _message(error: ValidationError) -> str:
    """A schema error's message with the value it is about cut to a short excerpt: a
    message lands in CI logs, and the value may be a megabyte of shape or a secret in a
    file named by mistake."""
    message = error.message
    shown = repr(error.instance)  # bounded: the pack's size and its expansion are (read_yaml)
    if len(shown) > 40 and shown in message:
        message = message.replace(shown, _short(shown, 40))
    return _short(message, 200)


@lru_cache(maxsize=1)
def _validator() -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def _count(value: Doc | None) -> Count:
    return UNKNOWN if value is None else Count(value["count"], value["source"])


def _counts(value: Doc | None) -> Mapping[str, Count]:
    return frozen_map((k, _count(v)) for k, v in (value or {}).items())


def _freeze(value: Any) -> Any:
    """Nested dicts and lists in, read-only mappings and tuples out."""
    if isinstance(value, Mapping):
        return frozen_map((k, _freeze(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def _cells_text(cells: Iterable[tuple[int, int]], verb: str = "") -> str:
    """Cells (and a verb in the singular) in, "cell 2,1 is" / "cells 2,1 and 2,2 are" out."""
    cells = list(cells)
    plural = len(cells) > 1
    text = ("cells " if plural else "cell ") + " and ".join(f"{x},{y}" for x, y in cells)
    if verb:
        text += " " + ({"is": "are", "has": "have"}.get(verb, verb) if plural else verb)
    return text


def piece_problems(
    name: str, entry: Doc, marks: Mapping[str, str] | None = None
) -> tuple[PieceType | None, list[tuple[str, str]]]:
    """A piece entry (schema-valid) and the terrain marks known (letter -> terrain kind) in,
    the PieceType (or None) and what is wrong with its geometry out."""
    rows: list[str] = list(entry["shape"])
    problems: list[tuple[str, str]] = []
    marks = marks or {}
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            problems.append(
                (
                    pointer("pieces", name, "shape", i),
                    f"row {i} is {plural(len(row), 'cell')} wide, row 0 is {width}: draw every row the same width",
                )
            )
        unknown = sorted({ch for ch in row if ch not in ".o" and ch not in marks})
        if unknown:
            known = ", ".join(f"`{m}` {k}" for m, k in sorted(marks.items()))
            problems.append(
                (
                    pointer("pieces", name, "shape", i),
                    f"`{unknown[0]}` is no terrain mark: draw floor `o`, no cell `.`"
                    + (f", or a terrain mark ({known})" if known else ""),
                )
            )
    if problems:
        return None, problems
    height = len(rows)
    # Every drawn cell but `.` is floor; a terrain mark also says what is printed on it.
    cells = frozenset((x, y) for y, row in enumerate(rows) for x, ch in enumerate(row) if ch != ".")
    terrain: dict[str, set[tuple[int, int]]] = {}
    for y, row in enumerate(rows):
        for x, ch in enumerate(row):
            if ch in marks:
                terrain.setdefault(marks[ch], set()).add((x, y))
    # The `at` point is the top-left corner of the bounding box, so the drawing must
    # be tight: an empty outer row or column would shift the piece on the map.
    if not cells:
        return None, [(pointer("pieces", name, "shape"), "the shape has no floor (`o`) cell")]
    xs = {x for x, _ in cells}
    ys = {y for _, y in cells}
    if min(xs) != 0 or max(xs) != width - 1 or min(ys) != 0 or max(ys) != height - 1:
        return None, [
            (
                pointer("pieces", name, "shape"),
                "the drawing has an empty outer row or column: trim it to the floor's bounding box",
            )
        ]
    openings: list[Opening] = []
    used: set[tuple[str, tuple[int, int]]] = set()
    for i, raw in enumerate(entry["openings"]):
        here = pointer("pieces", name, "openings", i)
        side = raw["side"]
        first, second = sorted((c[0], c[1]) for c in raw["cells"])  # the schema asks for two cells
        pair = (first, second)
        (ax, ay), (bx, by) = pair
        off = [c for c in pair if c not in cells]
        if off:
            problems.append((here, f"{_cells_text(off, 'is')} not floor"))
            continue
        dx, dy = shapes.ALONG[side]
        if (bx - ax, by - ay) != (dx, dy):
            run = "east-west" if side in ("north", "south") else "north-south"
            problems.append(
                (here, f"the {_cells_text(pair)} are not two neighbours running {run} along the {side} side")
            )
            continue
        ox, oy = shapes.OUTWARD[side]
        inside = [c for c in pair if (c[0] + ox, c[1] + oy) in cells]
        if inside:
            problems.append(
                (
                    here,
                    f"{_cells_text(inside)}: there is floor beyond the {side} side, and an opening must lie on the piece's outline",
                )
            )
            continue
        for cell in pair:
            if (side, cell) in used:
                problems.append((here, f"the {side} side of cell {cell[0]},{cell[1]} is already in another opening"))
                break
            used.add((side, cell))
        else:
            openings.append(Opening(side, pair, bool(raw["end"])))
    edge = frozenset(tuple(c) for c in entry.get("edge", ()))
    off_edge = sorted(c for c in edge if c not in cells)
    if off_edge:
        problems.append((pointer("pieces", name, "edge"), f"{_cells_text(off_edge, 'is')} not floor"))
    if problems:
        return None, problems
    return PieceType(
        name,
        entry["kind"],
        entry.get("set", ""),
        width,
        height,
        frozenset(cells),
        tuple(openings),
        entry.get("note", ""),
        terrain=frozen_map((k, frozenset(v)) for k, v in sorted(terrain.items())),
        marks=frozen_map((k, m) for m, k in marks.items() if k in terrain),
        tile=entry.get("tile"),
        edge=edge,
        source=entry.get("source"),
    ), []


@dataclass
class _Reading:
    """What the readers of one document share: its problems, and the terrain marks known so far."""

    problems: list[tuple[str, str]]
    marks: dict[str, str]  # mark letter -> terrain name


def _terrain(name: str, entry: Doc, set_name: str, reading: _Reading) -> ObstacleKind | None:
    if entry["mark"] in reading.marks:
        reading.problems.append(
            (
                pointer("terrain", name, "mark"),
                f"the mark `{entry['mark']}` already draws terrain `{reading.marks[entry['mark']]}`",
            )
        )
        return None
    reading.marks[entry["mark"]] = name
    return ObstacleKind(
        name,
        set_name,
        False,
        entry["blocks_movement"],
        entry["blocks_sight"],
        entry.get("sight_rule"),
        False,
        False,
        UNKNOWN,
        entry.get("movement_cost", 1),
        entry.get("note", ""),
        entry["mark"],
        entry.get("movement_rule"),
    )


def _piece(name: str, entry: Doc, set_name: str, reading: _Reading) -> PieceType | None:
    piece, bad = piece_problems(name, entry, reading.marks)
    reading.problems.extend(bad)
    return None if piece is None else replace(piece, set=set_name)


def _monster(name: str, entry: Doc, set_name: str, reading: _Reading) -> MonsterType:
    stats = _freeze(entry["stats"]) if "stats" in entry else None
    group = entry.get("group") or {}
    return MonsterType(
        name,
        set_name,
        tuple(entry["footprint"]),
        _count(entry.get("normal")),
        _count(entry.get("master")),
        stats,
        entry.get("note", ""),
        traits=tuple(entry.get("traits", ())),
        group=tuple((int(m), int(r)) for m, r in group.get("heroes", ())),
        group_source=group.get("source"),
    )


def _obstacle_or_trap(trap: bool) -> Callable[[str, Doc, str, _Reading], ObstacleKind]:
    def read(name: str, entry: Doc, set_name: str, reading: _Reading) -> ObstacleKind:
        return ObstacleKind(
            name,
            set_name,
            trap,
            entry["blocks_movement"],
            entry["blocks_sight"],
            entry.get("sight_rule"),
            entry.get("wall_like", False),
            entry.get("facing", False),
            _count(entry.get("count")),
            entry.get("movement_cost", 1),
            entry.get("note", ""),
        )

    return read


def _marker(name: str, entry: Doc, set_name: str, reading: _Reading) -> MarkerKind:
    return MarkerKind(name, set_name, UNKNOWN, variants=tuple(entry.get("variants", ())), note=entry.get("note", ""))


def _treasure(name: str, entry: Doc, set_name: str, reading: _Reading) -> TreasureKind:
    return TreasureKind(
        name,
        set_name,
        UNKNOWN,
        title=entry.get("title", name),
        potion=entry.get("potion", False),
        note=entry.get("note", ""),
    )


def _card(name: str, entry: Doc, set_name: str, reading: _Reading) -> CardType:
    gem = entry.get("treachery") or {}
    return CardType(
        name,
        set_name,
        entry.get("type"),
        entry.get("threat_cost"),
        entry.get("discard_value"),
        gem.get("colour"),
        gem.get("cost"),
        _count(entry.get("copies")),
        entry.get("note", ""),
    )


def _dark_glyph(name: str, entry: Doc, set_name: str, reading: _Reading) -> DarkGlyph | None:
    gem = entry["treachery"]
    if gem.get("cost") is None:
        reading.problems.append(
            (pointer("dark_glyphs", name, "treachery", "cost"), "a dark glyph's treachery cost must be given")
        )
        return None
    return DarkGlyph(name, set_name, gem["colour"], gem["cost"], entry.get("note", ""))


def _chest_card(name: str, entry: Doc, set_name: str, reading: _Reading) -> ChestCard:
    return ChestCard(name, set_name, entry.get("title", name), entry.get("note", ""))


@record
class Section:
    """One section of a catalog document: its key (`pieces:`), the namespace its names must be
    unique in (obstacles and traps share one, so a quest's `obstacle X` / `trap X` mix-up gets a
    precise message), the Builder table it fills and the reader making one entry's record
    (None, with a problem recorded, when the entry is unusable)."""

    key: str
    namespace: str
    table: str
    read: Callable[[str, Doc, str, _Reading], object | None]


# The sections a catalog document may hold besides `set`, `sets` and `rune_colours`, in the
# order they are read: terrain before the pieces that draw it.
SECTIONS: tuple[Section, ...] = (
    Section("terrain", "terrain", "terrain", _terrain),
    Section("pieces", "piece", "pieces", _piece),
    Section("monsters", "monster", "monsters", _monster),
    Section("obstacles", "obstacle", "obstacles", _obstacle_or_trap(trap=False)),
    Section("traps", "obstacle", "obstacles", _obstacle_or_trap(trap=True)),
    Section("markers", "marker", "markers", _marker),
    Section("treasures", "treasure", "treasures", _treasure),
    Section("cards", "card", "cards", _card),
    Section("dark_glyphs", "dark_glyph", "dark_glyphs", _dark_glyph),
    Section("chest_cards", "chest_card", "chest_cards", _chest_card),
)


class Builder:
    """Merges catalog documents one at a time, each all or nothing, into a Catalog."""

    def __init__(self, start: Catalog | None = None, origins: Mapping[tuple[str, str], str] | None = None) -> None:
        self.pieces: dict[str, PieceType] = dict(start.pieces) if start else {}
        self.monsters: dict[str, MonsterType] = dict(start.monsters) if start else {}
        self.obstacles: dict[str, ObstacleKind] = dict(start.obstacles) if start else {}
        self.treasures: dict[str, TreasureKind] = dict(start.treasures) if start else {}
        self.markers: dict[str, MarkerKind] = dict(start.markers) if start else {}
        self.cards: dict[str, CardType] = dict(start.cards) if start else {}
        self.dark_glyphs: dict[str, DarkGlyph] = dict(start.dark_glyphs) if start else {}
        self.chest_cards: dict[str, ChestCard] = dict(start.chest_cards) if start else {}
        self.terrain: dict[str, ObstacleKind] = dict(start.terrain) if start else {}
        self.rune_colours: list[str] = list(start.rune_colours) if start else []
        self.sets: dict[str, SetInfo] = dict(start.sets) if start else {}
        # (namespace, key) -> where the entry came from, for "already defined" messages.
        self.origins: dict[tuple[str, str], str] = dict(origins or {})

    # The namespaces a name must be unique in. Obstacles and traps share one so a
    # quest's `obstacle X` / `trap X` mix-up gets a precise message.
    @staticmethod
    def _key(namespace: str, name: str) -> tuple[str, str]:
        # Card names are printed text: `rolling stone` must not sit beside `Rolling Stone`.
        return (namespace, name.casefold() if namespace == "card" else name)

    def add(self, doc: Doc, origin: str, pack: str | None = None) -> list[tuple[str, str]]:
        """A schema-valid document and where it comes from in; its problems out (none: merged)."""
        problems: list[tuple[str, str]] = []
        default_set = doc.get("set")
        new: dict[str, dict] = {section.namespace: {} for section in SECTIONS}
        new_sets: dict[str, SetInfo] = {}
        new_colours: list[str] = []
        claimed: dict[tuple[str, str], str] = {}

        def clash(namespace: str, name: str, where: str) -> bool:
            key = self._key(namespace, name)
            if key in self.origins:
                owner = self.origins[key]
                problems.append(
                    (
                        where,
                        f"`{name}` is already in the catalog (from {owner}); "
                        "a pack adds entries but never replaces one, so give yours another name",
                    )
                )
                return True
            if key in claimed:
                problems.append((where, f"`{name}` is already defined at `{claimed[key]}` in this file"))
                return True
            claimed[key] = where
            return False

        for name, info in (doc.get("sets") or {}).items():
            where = pointer("sets", name)
            if clash("set", name, where):
                continue
            inventory = info.get("inventory") or {}
            new_sets[name] = SetInfo(
                name,
                info.get("title", ""),
                _counts(inventory.get("pieces")),
                _counts(inventory.get("markers")),
                _counts(inventory.get("treasures")),
                _counts(info.get("totals")),
                info.get("note", ""),
                pack,
                info.get("edition", SetInfo.edition),
            )

        if default_set is not None and default_set not in self.sets and default_set not in new_sets:
            new_sets[default_set] = SetInfo(default_set, pack=pack)
            claimed[self._key("set", default_set)] = pointer("set")

        def set_of(section: str, name: str, entry: Doc) -> str | None:
            set_name = entry.get("set", default_set)
            if set_name is None:
                problems.append(
                    (pointer(section, name), "names no set: give `set:` at the top of the file or on the entry")
                )
                return None
            if set_name not in self.sets and set_name not in new_sets:
                # A set named only by its entries is declared by them (a pack's own set).
                new_sets[set_name] = SetInfo(set_name, pack=pack)
                claimed[self._key("set", set_name)] = pointer(section, name, "set")
            return set_name

        for i, colour in enumerate(doc.get("rune_colours") or []):
            if not clash("colour", colour, pointer("rune_colours", i)):
                new_colours.append(colour)

        # Every section through its reader, in SECTIONS order (terrain before the pieces
        # that draw it with its marks).
        reading = _Reading(problems, {t.mark: n for n, t in self.terrain.items()})
        for section in SECTIONS:
            for name, entry in (doc.get(section.key) or {}).items():
                set_name = set_of(section.key, name, entry)
                if clash(section.namespace, name, pointer(section.key, name)) or set_name is None:
                    continue
                record = section.read(name, entry, set_name, reading)
                if record is not None:
                    new[section.namespace][name] = record

        # Inventories may count kinds from this file or from any file merged before it.
        for set_name, info in new_sets.items():
            for category, known in (
                ("markers", self.markers.keys() | new["marker"].keys()),
                ("treasures", self.treasures.keys() | new["treasure"].keys()),
            ):
                for item in getattr(info, category):
                    if item not in known:
                        problems.append(
                            (
                                pointer("sets", set_name, "inventory", category, item),
                                f"no {category[:-1]} kind `{item}` is defined",
                            )
                        )

        if problems:
            return problems
        for section in SECTIONS:
            getattr(self, section.table).update(new[section.namespace])
        self.sets.update(new_sets)
        self.rune_colours.extend(new_colours)
        for namespace, entries in new.items():
            for name in entries:
                self.origins[self._key(namespace, name)] = origin
        for name in new_sets:
            self.origins[self._key("set", name)] = origin
        for colour in new_colours:
            self.origins[self._key("colour", colour)] = origin
        return []

    def _counted(self, item: Any, category: str):
        """A marker or treasure kind in, the same with its per-set counts filled in out."""
        counts = {
            s: getattr(info, category)[item.name]
            for s, info in self.sets.items()
            if item.name in getattr(info, category)
        }
        own = counts.get(item.set, UNKNOWN if item.set in self.sets else NONE_OWNED)
        return replace(item, count=own, counts=frozen_map(counts))

    def build(self, expansions: Iterable[str] | None = None) -> Catalog:
        """The merged state in, a read-only Catalog out."""
        return Catalog(
            pieces=frozen_map(self.pieces),
            monsters=frozen_map(self.monsters),
            obstacles=frozen_map(self.obstacles),
            treasures=frozen_map((n, self._counted(t, "treasures")) for n, t in self.treasures.items()),
            markers=frozen_map((n, self._counted(m, "markers")) for n, m in self.markers.items()),
            cards=frozen_map(self.cards),
            dark_glyphs=frozen_map(self.dark_glyphs),
            rune_colours=tuple(self.rune_colours),
            sets=frozen_map(self.sets),
            expansions=None if expansions is None else tuple(expansions),
            chest_cards=frozen_map(self.chest_cards),
            terrain=frozen_map(self.terrain),
        )


def builtin_files() -> list[Path]:
    """The built-in catalog files, base first (the others count base's marker kinds)."""
    files = sorted(data_dir("cards").glob("*.yaml"))
    return sorted(files, key=lambda p: (p.name != "base.yaml", p.name))


def _parse_builtin(path: Path) -> Any:
    try:
        return read_yaml(path)
    except PackProblem as problem:
        raise CatalogError(f"{path}: {problem}") from None


@lru_cache(maxsize=1)
def _builtin() -> tuple[Catalog, Mapping[tuple[str, str], str]]:
    builder = Builder()
    files = builtin_files()
    for path, document in zip(files, cached_documents(files, _parse_builtin)):
        if not isinstance(document, dict):
            raise CatalogError(f"{path}: not a YAML mapping")
        problems = builder.add(document, f"built-in cards/{path.name}")
        if problems:
            raise CatalogError("\n".join(f"{path}: {p}: {m}" for p, m in problems))
    return builder.build(), frozen_map(builder.origins)


def builtin_catalog() -> Catalog:
    """The catalog of cards/*.yaml alone, built once per process."""
    return _builtin()[0]


def load_catalog(
    packs: Iterable[PackSpec] | None = None, root: Path | None = None, expansions: Iterable[str] | None = None
) -> tuple[Catalog, list[Diagnostic]]:
    """Content packs, the project root and the quest's sets in; the merged catalog and Q106s out.

    Each pack is (path as written in `use`, the `use` statement's span or None, the
    folder the path is relative to). The built-in catalog is always loaded; a pack
    with any problem is left out whole. `root` confines packs (default: each pack's
    own base folder). `expansions` is recorded on the catalog for set_check.
    """
    base, origins = _builtin()
    packs = list(packs or ())
    if not packs:
        return (base if expansions is None else replace(base, expansions=tuple(expansions))), []
    builder = Builder(base, origins)
    diagnostics: list[Diagnostic] = []
    seen: set[Path] = set()
    for path_str, span, base_dir in packs:
        base_dir = Path(base_dir)
        shown = base_dir / path_str
        where = span or Span(str(shown), 1, 1, 1, 2)

        def report(problem: str, help: str | None = None) -> None:
            # Short: names and values from the pack (or a long `use` path) must not flood a log.
            # (A closure per pack, called only while its iteration runs.)
            diagnostics.append(Q106.at(where, path=_short(path_str, 80), problem=_short(problem, 300), help=help))  # noqa: B023

        try:
            target = shown.resolve()
            limit = Path(root if root is not None else base_dir).resolve()
        except (RuntimeError, OSError):  # a symbolic link that leads back to itself (Python 3.11: RuntimeError)
            report(
                "is a symbolic link that loops (it, or a folder on its path, points back to itself)",
                "point the link at the pack file itself",
            )
            continue
        # Resolved paths: `..` and symlinks cannot lead a quest out of the project.
        if not target.is_relative_to(limit):
            report(
                "is outside the project root",
                "keep content packs inside the project (the folder holding pyproject.toml or questc.toml)",
            )
            continue
        if target in seen:  # the same pack named twice (quest and configuration): load it once
            continue
        seen.add(target)
        try:
            document = read_yaml(target)
        except PackProblem as problem:
            report(str(problem))
            continue
        if not isinstance(document, dict):
            report("is not a YAML mapping: a pack holds sections such as `monsters:` or `pieces:`")
            continue
        found = known_valid(document, schema_problems)
        if found:
            (at, message), more = found[0], len(found) - 1
            extra = f" (and {plural(more, 'more problem')})" if more else ""
            report(
                f"entry `{at or '/'}` does not match the catalog schema: {message}{extra}",
                "see schemas/catalog.schema.json for the format",
            )
            continue
        for at, message in builder.add(document, f"pack `{path_str}`", pack=path_str):
            report(f"entry `{at}`: {message}")
    return replace(builder.build(expansions), pack_files=tuple(sorted(seen))), diagnostics
