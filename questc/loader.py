"""The reference loader: engine JSON in (a path, bytes, text or a parsed dict); an
`EngineQuest` out that answers movement and line-of-sight questions from the JSON alone.

It is what a game engine is expected to do with `<id>.json`, written once in Python
so the tests can hold the JSON to its promise: the board is rebuilt from `map.cells`,
`map.pieces`, `map.walls`, `map.blocking`, `doors` and `stairs` only (never the
catalog, never the source), and every answer must match the compiler's.

    quest = load_quest_json("build/drowned_reliquary.json")
    quest.sees((1, 1), (7, 3), open_doors={"entry"})
    quest.can_step((5, 2), (6, 2), open_doors={"entry"})
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Any

from questc.board.board import Board
from questc.board.parts import BlockInfo, Door, Stairs
from questc.errors import QuestJSONError, UnsupportedFormatVersion

FORMAT = "questc.quest"
# The formats this loader understands: 3, and 2 and 1 (the same without the fields added since).
SUPPORTED_VERSIONS = (1, 2, 3)

Cell = tuple[int, int]
# The engine JSON as read: a JSON object whose values are what the file holds (the schema checks them).
JSON = dict[str, Any]

__all__ = [
    "EngineQuest",
    "QuestJSONError",
    "UnsupportedFormatVersion",
    "load_quest_json",
    "schema",
    "SUPPORTED_VERSIONS",
]


@cache
def schema() -> JSON:
    """The engine JSON schema (schemas/quest.schema.json) as a dict."""
    from questc.paths import data_dir

    return json.loads((data_dir("schemas") / "quest.schema.json").read_text(encoding="utf-8"))


@cache
def _validator() -> Any:  # a jsonschema validator (imported when first needed)
    # jsonschema is imported here, not at the top: `questc lint` never needs it.
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema())


def _read(source: str | bytes | Path | JSON) -> JSON:
    """A path, bytes, text or dict in; the parsed document out (QuestJSONError if it is not JSON)."""
    if isinstance(source, dict):
        return source
    if isinstance(source, (bytes, bytearray)):
        raw = bytes(source)
    elif isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        from questc.files import read_input

        try:  # a regular file, at most 64 MB (the densest map questc accepts writes 4 MB)
            raw = read_input(Path(source), 64_000_000)
        except OSError as error:
            raise QuestJSONError(f"cannot read {source}: {error.strerror or error}") from None
    elif isinstance(source, str):
        raw = source.encode("utf-8")
    else:
        raise TypeError(f"load_quest_json takes a path, bytes, text or dict, not {type(source).__name__}")
    try:
        document = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as error:
        raise QuestJSONError(f"not JSON text: {error}") from None
    if not isinstance(document, dict):
        raise QuestJSONError("not a questc quest: the document is not a JSON object")
    return document


def check_format(document: JSON) -> None:
    """Refuse a document that is not questc.quest or whose version this loader does not know.

    Done before schema validation, so a newer file is refused for what it is ("newer than
    this loader") rather than for the schema details a later version may change.
    """
    if document.get("format") != FORMAT:
        raise QuestJSONError(f"not a questc quest: `format` is {document.get('format')!r}, expected {FORMAT!r}")
    version = document.get("format_version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise QuestJSONError(f"`format_version` must be an integer, not {version!r}")
    if version not in SUPPORTED_VERSIONS:
        newest = max(SUPPORTED_VERSIONS)
        if version > newest:
            raise UnsupportedFormatVersion(
                f"format_version {version} is newer than this loader understands (at most {newest}); "
                "load it with a newer questc"
            )
        raise UnsupportedFormatVersion(
            f"format_version {version} is not supported (supported: {', '.join(map(str, SUPPORTED_VERSIONS))})"
        )


def validate(document: JSON) -> None:
    """Check the document against the schema; QuestJSONError naming the first problem's place."""
    errors = sorted(_validator().iter_errors(document), key=lambda e: list(map(str, e.absolute_path)))
    if errors:
        first = errors[0]
        where = "/".join(str(p) for p in first.absolute_path) or "(top level)"
        more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
        raise QuestJSONError(f"invalid quest JSON at {where}: {first.message}{more}")


def _cell(value: Any) -> Cell:  # (a JSON value, checked here)
    return (value[0], value[1])


def _edge(value: Any) -> tuple[int, int, int, int]:  # (a JSON value, checked here)
    return (value[0], value[1], value[2], value[3])


@dataclass
class EngineQuest:
    """A quest loaded from its engine JSON.

    data: the whole validated document; board: a `Board` rebuilt from the map alone;
    edition: the quest's edition (`first`, `second`), whose line-of-sight rule (`sight`,
    questc.editions) its sight questions follow. Door states are given as the ids of the
    open doors; every other door is closed.
    """

    data: JSON
    board: Board

    @property
    def id(self) -> str:
        return self.data["quest"]["id"]

    @property
    def edition(self) -> str:
        return self.data["quest"]["edition"]

    @property
    def sight(self) -> str:
        """The line-of-sight rule of the quest's edition (questc.board.sight.RULES)."""
        from questc.editions import edition

        return edition(self.edition).sight

    @property
    def cells(self) -> tuple[Cell, ...]:
        return self.board.cells

    @property
    def door_ids(self) -> list[str]:
        return list(self.board.doors)

    def area_of(self, cell: Cell) -> str | None:
        """The id of the area holding the cell, or None."""
        return self._area_table.get(_cell(cell))

    @cached_property
    def _area_table(self) -> dict[Cell, str]:
        table: dict[Cell, str] = {}
        for area in self.data["areas"]:
            for c in area["cells"]:
                table.setdefault(_cell(c), area["id"])
        return table

    def sees(self, a: Cell, b: Cell, open_doors: Iterable[str] = ()) -> bool:
        """Does cell a have line of sight to cell b, with these doors open (the quest's edition)?"""
        return self.board.sees(_cell(a), _cell(b), self.sight, frozenset(open_doors))

    def why_blocked(self, a: Cell, b: Cell, open_doors: Iterable[str] = ()) -> str | None:
        """None when a sees b; else what is in the way, as a sentence."""
        return self.board.why_blocked(_cell(a), _cell(b), self.sight, frozenset(open_doors))

    def can_step(self, a: Cell, b: Cell, open_doors: Iterable[str] = ()) -> bool:
        """Can a figure step from a to the 8-neighbour b, with these doors open?"""
        return self.board.can_step(_cell(a), _cell(b), frozenset(open_doors))

    def reachable(
        self,
        from_cells: Iterable[Cell],
        open_doors: Iterable[str] = (),
        allowed: Iterable[Cell] | None = None,
        stairs: bool | Iterable[str] = True,
    ) -> set[Cell]:
        """Every cell a figure can walk to from `from_cells`.

        open_doors: the doors it may pass; allowed: if given, the only cells it may enter;
        stairs: True (every staircase), False (none) or the colours that may be used.
        """
        usable = stairs if isinstance(stairs, bool) else frozenset(stairs)
        return self.board.reachable(
            [_cell(c) for c in from_cells],
            None if allowed is None else frozenset(_cell(c) for c in allowed),
            frozenset(open_doors),
            usable,
        )

    def visible_cells(self, sources: Iterable[Cell], open_doors: Iterable[str] = (), stairs: bool = True) -> set[Cell]:
        """Every floor cell seen from at least one source (stair ends see through their stairs)."""
        return self.board.visible_cells([_cell(c) for c in sources], self.sight, frozenset(open_doors), stairs=stairs)


def build_engine_board(document: JSON) -> Board:
    """A validated document in; the Board rebuilt from its map, doors and stairs out.

    Floor cells belong to the pieces that list them (the first piece listed wins, as in
    the compiler); walls are taken as written, since the JSON holds every blocked edge.
    The parts of the map that repeat one another (`cells` and the pieces' cells,
    `obstacle_walls` and the wall-like blocking cells) are checked to agree.
    """
    m = document["map"]
    owner: dict[Cell, str] = {}
    for piece in m["pieces"]:
        for c in piece["cells"]:
            owner.setdefault(_cell(c), piece["id"])
    floor = {_cell(c) for c in m["cells"]}
    if set(owner) != floor:
        missing = sorted(floor - set(owner))[:3]
        extra = sorted(set(owner) - floor)[:3]
        raise QuestJSONError(
            f"map.cells and the pieces' cells disagree (only in cells: {missing}, only in pieces: {extra})"
        )
    doors = [Door(d["id"], (_edge(d["edge"][0]), _edge(d["edge"][1])), d["rune"]) for d in document["doors"]]
    stairs = [Stairs(s["colour"], (_cell(s["ends"][0]), _cell(s["ends"][1]))) for s in document["stairs"]]
    blocking = {
        _cell(b["cell"]): BlockInfo(
            b["blocks_movement"],
            b["blocks_sight"],
            fog=b["fog"],
            wall_like=b["wall_like"],
            kind=b["kind"],
            pit=b.get("pit", False),
        )
        for b in m["blocking"]
    }  # `pit` since version 3
    joints = [(j["pieces"][0], j["pieces"][1], (_edge(j["edges"][0]), _edge(j["edges"][1]))) for j in m["joints"]]
    board = Board(
        owner=owner,
        walls=frozenset(_edge(e) for e in m["walls"]),
        doors=doors,
        stairs=stairs,
        blocking=blocking,
        joints=joints,
    )
    written = frozenset(_edge(e) for e in m["obstacle_walls"])
    if board.obstacle_walls != written:
        raise QuestJSONError("map.obstacle_walls does not match the wall-like cells of map.blocking")
    return board


def load_quest_json(source: str | bytes | Path | JSON, *, validate_schema: bool = True) -> EngineQuest:
    """Engine JSON in (path, bytes, text or dict); an EngineQuest out.

    Checks `format` and `format_version` first (UnsupportedFormatVersion for a version
    this loader does not know, newer ones included), then the schema (QuestJSONError),
    then rebuilds the board from the JSON alone.
    """
    document = _read(source)
    check_format(document)
    if validate_schema:
        validate(document)
    return EngineQuest(document, build_engine_board(document))
