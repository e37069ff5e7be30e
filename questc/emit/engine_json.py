"""A CompiledQuest in; the engine JSON out (a dict, then canonical UTF-8 bytes).

The document is described by `schemas/quest.schema.json` (format "questc.quest",
format_version 3: version 1 plus the second edition's encounter, tiles, terrain,
tokens and the heroes' start (2), then its alternative encounters, act, traits, entrances
and exits, monster groups, token statements, counters, recurring rules and the effects
and conditions that go with them (3)) and carries everything an engine needs to play the quest without
the catalog or the source: the floor, every wall, doors, stairs and obstacles (to
rebuild movement and line of sight), areas with their reveal waves, setup (markers,
figures, named monsters), effects, triggers, the chest chart, the deck plan and the
victory conditions as expression trees.

Determinism: keys are written in the order this module builds them (never sorted,
so the layout reads top-down), cells and edges are sorted, every other list keeps
source order unless its schema description says otherwise, and nothing depends on
the time, the machine or the folder questc ran in: the source file is named by its
file name only, diagnostics likewise. `canonical_bytes` is the one serialisation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import PurePath
from typing import TYPE_CHECKING

from questc.diagnostics.core import Diagnostic, Severity
from questc.emit.report import JSON, generator
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from questc.analysis.reveal import Analysis
    from questc.board import Board
    from questc.board.quest_board import QuestBoard
    from questc.compiled import CompiledQuest
    from questc.model.plan import Pricing
    from questc.model.quest import ObstacleModel, QuestModel


FORMAT = "questc.quest"
FORMAT_VERSION = 3

# How many conquest tokens a glyph of transport gives the first time it is activated.
GLYPH_CONQUEST = 3

__all__ = [
    "FORMAT",
    "FORMAT_VERSION",
    "engine_document",
    "canonical_bytes",
    "engine_json",
    "condition_tree",
    "effect_data",
]


def _cell(c: tuple[int, int]) -> list[int]:
    return [int(c[0]), int(c[1])]


def _cells(cells: Iterable[tuple[int, int]]) -> list[list[int]]:
    """Any iterable of cells in; a sorted list of [x, y] out (sorted by x, then y)."""
    return [_cell(c) for c in sorted(set(cells))]


def _edges(edges: Iterable[tuple[int, int, int, int]]) -> list[list[int]]:
    """Any iterable of unit edges in; a sorted list of [x1, y1, x2, y2] out."""
    return [list(e) for e in sorted(set(edges))]


def _file_name(path: str) -> str:
    """Only the last part of a path: the JSON never names a folder (same bytes from anywhere)."""
    # PurePath splits on "/" (and "\\" is not expected in spans); a plain name stays as is.
    return PurePath(path.replace("\\", "/")).name or path


# ---- effects and conditions ------------------------------------------------------------


def _point(model: QuestModel, ref: n.PointRef) -> tuple[int, int]:
    """A point as written in an effect (absolute, or `piece:x,y`) in; the absolute cell out."""
    if ref.piece is None:
        return (ref.x, ref.y)
    piece = model.pieces.get(ref.piece.value)
    # The resolver reported a Q103 for an unknown piece, so a compiled quest always has it.
    ox, oy = piece.at if piece is not None else (0, 0)
    return (ox + ref.x, oy + ref.y)


def effect_data(model: QuestModel, effect: n.Effect) -> JSON:
    """One effect node in; its meaning as data out: {"effect": KIND, ...the kind's fields}."""
    if isinstance(effect, n.Read):
        return {"effect": "read", "text": effect.text.value}
    if isinstance(effect, n.ConquestEffect):
        return {"effect": "conquest", "amount": effect.amount}
    if isinstance(effect, n.CoinsEffect):
        return {"effect": "coins", "amount": effect.amount}
    if isinstance(effect, n.TreasureEffect):
        return {"effect": "treasure", "kind": effect.kind.value, "count": effect.count}
    if isinstance(effect, n.ThreatEffect):
        return {"effect": "threat", "amount": effect.amount}
    if isinstance(effect, n.SpawnEffect):
        monster = model.catalog.lookup("monster", effect.type.value)
        figures = []
        for ref in effect.at:
            at = _point(model, ref)
            # A large figure fills more than its top-left cell; the engine gets every cell.
            cells = monster.cells(at) if monster is not None else (at,)
            figures.append({"at": _cell(at), "cells": _cells(cells)})
        return {
            "effect": "spawn",
            "type": effect.type.value,
            "rank": "master" if effect.master else "normal",
            "figures": figures,
        }
    if isinstance(effect, n.DoorEffect):
        return {"effect": effect.action, "door": effect.door.value}
    if isinstance(effect, n.UnlockEffect):
        return {"effect": "unlock", "colour": effect.colour.value}
    if isinstance(effect, n.RevealEffect):
        return {"effect": "reveal", "area": effect.area.value}
    if isinstance(effect, n.WinEffect):
        return {"effect": "win", "side": effect.side.value}
    if isinstance(effect, n.InstructEffect):
        return {"effect": "instruct", "text": effect.text.value}
    if isinstance(effect, n.PlaceEffect):
        spaces: set[tuple[int, int]] = set()
        for name in effect.on:
            piece = model.pieces.get(name.value)
            if piece is not None:
                spaces |= piece.shape.cells
        if effect.area is not None and effect.area.value in model.areas:
            spaces |= model.areas[effect.area.value].cells
        spaces |= {_point(model, ref) for ref in effect.at}
        return {
            "effect": "place",
            "kind": effect.kind,
            "type": effect.type.value if effect.type is not None else None,
            "rank": ("master" if effect.master else "normal") if effect.kind == "monster" else None,
            "colour": effect.colour.value if effect.colour is not None else None,
            "count": _amount(effect.count),
            "at": bool(effect.at),
            "pieces": [p.value for p in effect.on],
            "area": effect.area.value if effect.area is not None else None,
            "cells": _cells(spaces),
            "limit": effect.limit,
        }
    if isinstance(effect, n.RemoveEffect):
        return {"effect": "remove", "token": effect.target.value}
    if isinstance(effect, n.ReplaceEffect):
        return {
            "effect": "replace",
            "token": effect.target.value,
            "kind": effect.kind,
            "colour": effect.colour.value if effect.colour is not None else None,
        }
    if isinstance(effect, n.CounterEffect):
        return {
            "effect": "counter",
            "counter": effect.counter.value,
            "amount": effect.amount,
            "relative": effect.relative,
        }
    raise TypeError(f"no engine form for effect {type(effect).__name__}")


def _amount(amount: n.Amount | None) -> JSON | None:
    """A count written with the heroes in it (`heroes -1`) in; {"amount", "heroes"} out (None: none written)."""
    return None if amount is None else {"amount": amount.amount, "heroes": amount.heroes}


def condition_tree(condition: n.Condition) -> JSON:
    """A victory condition node in; its expression tree out.

    {"op": "and"|"or"|"not", "args": [...]}, {"event": "killed"|..., "target": ID} or
    {"counter": "conquest"|"round"|..., "op": "<"|"<="|"="|">="|">", "value": N}; a `carried`
    event has its "destination" (null: the map's edge); a declared counter's comparison has
    "declared": true.
    """
    if isinstance(condition, n.EventCondition):
        if condition.event in ("carried", "on", "in"):
            return {
                "event": condition.event,
                "target": condition.target.value,
                "destination": condition.destination.value if condition.destination is not None else None,
            }
        return {"event": condition.event, "target": condition.target.value}
    if isinstance(condition, n.CompareCondition):
        if condition.name is not None:
            return {"counter": condition.counter, "op": condition.op, "value": condition.value, "declared": True}
        return {"counter": condition.counter, "op": condition.op, "value": condition.value}
    if isinstance(condition, n.NotCondition):
        return {"op": "not", "args": [condition_tree(condition.operand)]}
    if isinstance(condition, n.AllCondition):
        return {"op": "and", "args": [condition_tree(c) for c in condition.operands]}
    if isinstance(condition, n.AnyCondition):
        return {"op": "or", "args": [condition_tree(c) for c in condition.operands]}
    raise TypeError(f"no engine form for condition {type(condition).__name__}")


# ---- sections ----------------------------------------------------------------------------


def _quest(model: QuestModel, path: str) -> JSON:
    treachery = None
    if model.treachery is not None:
        treachery = {part: model.treachery.get(part, 0) for part in ("event", "trap", "monster")}
    return {
        "id": model.id,
        "title": model.title,
        "edition": model.edition.name,
        "encounter": model.encounter,
        "alternative": model.alternative,
        "part_of": model.part_of,
        "act": model.act,
        "traits": list(model.traits),
        "expansions": list(model.expansions),
        "players": {"min": model.players[0], "max": model.players[1]},
        "conquest": model.conquest,
        "treachery": treachery,
        "reveal": model.reveal,
        "intro": model.intro,
        "special": model.special,
        "author": model.author,
        "version": model.version,
        "source": _file_name(path),
    }


def _map(model: QuestModel, quest_board: QuestBoard) -> JSON:
    board = quest_board.board
    pieces = []
    for piece in model.pieces.values():
        if piece is None:
            continue
        pieces.append(
            {
                "id": piece.id,
                "type": piece.type.name,
                "kind": piece.type.kind,
                "tile": piece.type.tile,
                "at": _cell(piece.at),
                "turn": piece.turn,
                "cells": _cells(piece.shape.cells),
                "edge": _cells(piece.shape.edge),
            }
        )
    blocking = [
        {
            "cell": _cell(cell),
            "kind": info.kind,
            "blocks_movement": info.blocks_movement,
            "blocks_sight": info.blocks_sight,
            "fog": info.fog,
            "wall_like": info.wall_like,
            "pit": info.pit,
        }
        for cell, info in sorted(board.blocking.items())
    ]
    joints = [{"pieces": [a, b], "edges": _edges(edges)} for a, b, edges in board.joints]
    return {
        "width": board.width,
        "height": board.height,
        "origin": _cell(board.origin),
        "cells": _cells(board.cells),
        "walls": _edges(board.walls),
        "obstacle_walls": _edges(board.obstacle_walls),
        "blocking": blocking,
        "pieces": pieces,
        "joints": joints,
    }


def _areas(model: QuestModel, analysis: Analysis) -> list[JSON]:
    return [
        {
            "id": area.id,
            "name": area.name,
            "start": area.start,
            "pieces": list(area.pieces),
            "cells": _cells(area.cells),
            "read": list(area.read),
            "note": list(area.notes),
            "reveal_wave": analysis.reveal_wave.get(area.id),
            "visible_from": sorted(analysis.visible_from.get(area.id, [])),
        }
        for area in model.areas.values()
    ]


def _start(model: QuestModel, quest_board: QuestBoard) -> JSON:
    """Where the heroes start (the analysis' rule: questc.analysis.reveal.hero_start_cells) and why there."""
    from questc.analysis.reveal import hero_start_cells

    starts = model.start_areas
    area = starts[0].id if starts else None
    cells = hero_start_cells(model, quest_board.board, area)
    if area is None:
        how = "area"
    elif model.edition.start == "entrance":
        own = model.areas[area].cells
        if any(h.area == area and h.at in own for h in model.hero_starts):
            how = "start_at"
        elif any(p.id in model.areas[area].pieces for p in model.role_pieces("entrance")):
            how = "entrance"
        else:
            how = "area"
    else:
        glyphs = [m for m in model.markers if m.kind == "glyph" and m.active and m.at in model.areas[area].cells]
        how = "glyph" if glyphs else "area"
    return {"area": area, "from": how, "cells": _cells(cells)}


def _doors(model: QuestModel, quest_board: QuestBoard) -> list[JSON]:
    """Doors on the board, in source order. A door that could not be placed is a Q205
    error, so a quest that is built never has one; it is left out rather than invented."""
    from questc.board.geometry import edge_cells

    out = []
    for door in model.doors.values():
        placed = quest_board.door_edges.get(door.id)
        if placed is None:
            continue
        edges = sorted(placed)
        # Both edges of a door run the same way, so their first cells are on one side.
        sides = edge_cells(edges[0])
        out.append(
            {
                "id": door.id,
                "name": door.display,
                "rune": door.rune,
                "edge": _edges(edges),
                "cells": _cells(quest_board.door_cells[door.id]),
                "areas": [model.area_of(sides[0]), model.area_of(sides[1])],
            }
        )
    return out


def _obstacle(o: ObstacleModel) -> JSON:
    kind = o.kind
    return {
        "kind": kind.name,
        "cells": [_cell(c) for c in o.cells],
        "area": o.area or None,
        "blocks_movement": kind.blocks_movement,
        "blocks_sight": kind.blocks_sight,
        "sight_rule": kind.sight_rule,
        "wall_like": kind.wall_like,
        "movement_cost": kind.movement_cost,
        "facing": o.facing,
        "piece": o.piece,
    }


def _markers(model: QuestModel) -> list[JSON]:
    from questc.model.quest import readable

    out = []
    chest_numbers: dict[str, int] = {}
    for m in model.markers:
        entry: JSON = {"kind": m.kind, "at": _cell(m.at), "area": m.area}
        if m.kind == "glyph":
            entry["active"] = m.active
        elif m.kind == "chest":
            # The n-th chest of a type (source order) opens row n of the chest chart.
            kind = m.variant or ""  # (a chest always has its type)
            chest_numbers[kind] = chest_numbers.get(kind, 0) + 1
            entry["chest"] = m.variant
            entry["number"] = chest_numbers[kind]
        elif m.kind == "treasure":
            entry["treasure"] = m.variant
        elif m.kind == "relic":
            entry["relic"] = m.variant
            entry["name"] = m.display or readable(m.variant or m.kind)
        elif m.kind == "runekey":
            entry["colour"] = m.variant
        elif m.kind == "encounter":
            entry["encounter"] = m.encounter
        elif m.kind == "objective":
            entry["colour"] = m.variant
        elif m.kind == "lieutenant":
            entry["lieutenant"] = m.variant
            entry["facing"] = m.facing
        out.append(entry)
    return out


def _figures(model: QuestModel) -> list[JSON]:
    return [
        {
            "type": f.type.name,
            "rank": f.rank,
            "named": f.named,
            "at": _cell(f.at),
            "cells": _cells(f.cells),
            "facing": f.facing,
            "area": f.area,
            "players": {"min": f.players[0], "max": f.players[1]} if f.players else None,
        }
        for f in model.figures
    ]


def _roles(model: QuestModel, board: Board) -> JSON:
    """The quest's entrances and exits, each with the spaces a figure leaves the map from."""
    from questc.analysis.reach import leave_cells

    return {
        f"{role}s": [
            {"piece": p.id, "declared": bool(model.roles.get(role)), "edge": _cells(leave_cells(board, p))}
            for p in model.role_pieces(role)
        ]
        for role in ("entrance", "exit")
    }


def _groups(model: QuestModel) -> list[JSON]:
    low, high = model.heroes()
    out = []
    for group in model.groups.values():
        sizes = [{"heroes": h, "minions": group.size(h)[0], "masters": group.size(h)[1]} for h in range(low, high + 1)]
        out.append(
            {
                "id": group.id,
                "kind": group.kind,
                "monster": group.type.name if group.type is not None else None,
                "area": group.area,
                "pieces": list(group.pieces),
                "cells": _cells(group.cells),
                "sizes": sizes,
                "minions": _amount(group.minions),
                "masters": _amount(group.masters),
                "changes": [
                    {"who": c.who, "stat": c.stat.value, "amount": c.amount, "relative": c.relative}
                    for c in group.changes
                ],
                "traits": list(model.traits) if group.kind == "open" else [],
            }
        )
    return out


def _tokens(model: QuestModel) -> list[JSON]:
    return [
        {
            "kind": t.kind,
            "id": t.id,
            "name": t.name,
            "colour": t.colour,
            "placement": t.placement,
            "pieces": list(t.pieces),
            "cells": _cells(t.cells),
            "area": t.area,
            "count": _amount(t.count),
        }
        for t in model.tokens
    ]


def _counters(quest: CompiledQuest) -> list[JSON]:
    from questc.analysis.reach import counter_range

    out = []
    for counter in quest.model.counters.values():
        low, high = counter_range(quest.model, quest.analysis, counter.id, quest.board)
        out.append({"id": counter.id, "name": counter.display, "min": low, "max": high})
    return out


def _trigger(model: QuestModel, t: n.Trigger) -> JSON:
    return {
        "event": t.event,
        "target": t.target.value if t.target is not None else None,
        "round": t.round,
        "phase": t.phase,
        "every": t.every,
        "condition": condition_tree(t.condition) if t.condition is not None else None,
        "effects": [effect_data(model, x) for x in t.effects],
    }


def _named(model: QuestModel) -> list[JSON]:
    return [
        {
            "id": named.id,
            "name": named.display,
            "type": named.node.type.value,
            "changes": [{"stat": c.stat, "value": c.value, "relative": c.relative} for c in named.node.changes],
            "abilities": [{"name": a.name.value, "rank": a.rank} for a in named.node.abilities],
            "conquest": named.node.conquest,
        }
        for named in model.named.values()
    ]


def _chests(model: QuestModel) -> list[JSON]:
    if model.chest_chart is None:
        return []
    return [
        {
            "type": row.kind.value,
            "number": row.number,
            "contents": [
                {
                    "kind": c.kind,
                    "amount": c.amount,
                    "potion": c.name.value if c.kind == "potion" and c.name is not None else None,
                }
                for c in row.contents
            ],
        }
        for row in model.chest_chart.rows
    ]


def _overlord(pricing: Pricing | None) -> JSON | None:
    """The deck plan as the quest priced it (CompiledQuest.plan): each line's type, budget and cost
    for one copy, in the order written (cards, then dark glyphs), and what each budget spends."""
    if pricing is None:
        return None
    cards = [
        {
            "name": line.item.name,
            "copies": line.item.copies,
            "type": line.type,
            "budget": line.colour,
            "cost": line.cost,
        }
        for line in pricing.lines
        if line.item.kind == "card"
    ]
    glyphs = [
        {"name": line.item.name, "budget": line.colour, "cost": line.cost}
        for line in pricing.lines
        if line.item.kind == "dark_glyph"
    ]
    return {"cards": cards, "dark_glyphs": glyphs, "spent": dict(pricing.spent)}


def conquest_available(model: QuestModel) -> JSON:
    """What the heroes can gain on the map, as a simple sum (the Q507 check may refine it).

    glyphs: 3 for each glyph not active at the start; chests: conquest in the chart rows
    that have a chest on the map (row n of a type needs n chests of that type);
    encounters and triggers: positive conquest effects of encounters and of `on` blocks;
    named: the named monsters' conquest. Losses are not counted: they are not something
    to gain. Reachability is not weighed here (Q507 does that): this is what the quest
    puts on the table.
    """
    glyphs = GLYPH_CONQUEST * sum(1 for m in model.markers if m.kind == "glyph" and not m.active)
    placed: dict[str, int] = {}
    for m in model.markers:
        if m.kind == "chest" and m.variant is not None:
            placed[m.variant] = placed.get(m.variant, 0) + 1
    chests = 0
    if model.chest_chart is not None:
        for row in model.chest_chart.rows:
            if 1 <= row.number <= placed.get(row.kind.value, 0):
                chests += sum(c.amount for c in row.contents if c.kind == "conquest" and c.amount > 0)
    encounters = _gains(e for e, source in model.effects() if not isinstance(source, n.Trigger))
    triggers = _gains(e for e, source in model.effects() if isinstance(source, n.Trigger))
    named = sum(max(m.node.conquest or 0, 0) for m in model.named.values())
    return {
        "start": model.conquest,
        "available": glyphs + chests + encounters + triggers + named,
        "glyphs": glyphs,
        "chests": chests,
        "encounters": encounters,
        "triggers": triggers,
        "named": named,
    }


def _gains(effects: Iterable[n.Effect]) -> int:
    """The conquest gains among some effects (losses are not something to gain)."""
    return sum(e.amount for e in effects if isinstance(e, n.ConquestEffect) and e.amount > 0)


def _analysis(model: QuestModel, quest_board: QuestBoard, analysis: Analysis) -> JSON:
    board = quest_board.board
    # Cells an obstacle keeps everyone out of are unreachable by definition; listing
    # them would bury the cells that are unreachable by mistake.
    unreachable = [c for c in board.cells if c not in analysis.reached and not board.blocks_movement(c)]
    return {
        "reveal_waves": [sorted(wave) for wave in analysis.waves],
        "unreachable_cells": _cells(unreachable),
        "unlockable": sorted(analysis.unlocked),
        "passable_doors": sorted(analysis.passable),
        "conquest": conquest_available(model),
    }


def _diagnostic(d: Diagnostic) -> JSON:
    return {
        "code": d.code,
        "severity": d.severity.value,
        "message": d.message,
        "file": _file_name(d.span.file),
        "line": d.span.line,
        "column": d.span.column,
        "end_line": d.span.end_line,
        "end_column": d.span.end_column,
        "help": d.help,
    }


# ---- the document ------------------------------------------------------------------------


def engine_document(quest: CompiledQuest, diagnostics: Sequence[Diagnostic] = ()) -> JSON:
    """A compiled quest (one without errors: questc.build makes files only for those) and the
    diagnostics it compiled with in; the engine JSON as a dict out.

    diagnostics: the warnings and infos to record (QuestResult.diagnostics); errors are
    never recorded.
    """
    model = quest.model
    quest_board = quest.quest_board
    analysis = quest.analysis
    kept = [d for d in diagnostics if d.severity is not Severity.ERROR]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "generator": generator(),
        "quest": _quest(model, quest.path),
        "map": _map(model, quest_board),
        "areas": _areas(model, analysis),
        "start": _start(model, quest_board),
        "doors": _doors(model, quest_board),
        "stairs": [
            {
                "colour": s.colour,
                "name": s.display,
                "ends": [_cell(s.ends[0]), _cell(s.ends[1])],
                "areas": [model.area_of(s.ends[0]), model.area_of(s.ends[1])],
            }
            for s in model.stairs
        ],
        "obstacles": [_obstacle(o) for o in model.obstacles if not o.kind.trap],
        "traps": [_obstacle(o) for o in model.obstacles if o.kind.trap],
        "markers": _markers(model),
        "figures": _figures(model),
        "roles": _roles(model, quest.board),
        "groups": _groups(model),
        "tokens": _tokens(model),
        "named": _named(model),
        "encounters": [
            {
                "id": e.id,
                "name": e.display,
                "at": _cell(e.at),
                "area": e.area,
                "effects": [effect_data(model, x) for x in e.node.effects],
            }
            for e in model.encounters.values()
        ],
        "triggers": [_trigger(model, t) for t in model.triggers],
        "counters": _counters(quest),
        "chests": _chests(model),
        "overlord": _overlord(quest.plan),
        "victory": [
            {
                "side": v.side.value,
                "label": v.label.value if v.label is not None else None,
                "when": condition_tree(v.when),
                "next": v.next.label if v.next is not None else None,
            }
            for v in model.victories
        ],
        "analysis": _analysis(model, quest_board, analysis),
        "diagnostics": [_diagnostic(d) for d in kept],
    }


def schema_text() -> str:
    """The JSON Schema (draft 2020-12) every engine document is valid against, as shipped."""
    from questc.paths import data_dir

    return (data_dir("schemas") / "quest.schema.json").read_text(encoding="utf-8")


def canonical_bytes(document: JSON) -> bytes:
    """A document in; its one serialisation out: two-space indent, keys in insertion
    order, UTF-8 kept as text (not \\u escapes), one final newline."""
    return (json.dumps(document, indent=2, ensure_ascii=False, sort_keys=False) + "\n").encode("utf-8")


def engine_json(quest: CompiledQuest, diagnostics: Sequence[Diagnostic] = ()) -> bytes:
    """A compiled quest and its diagnostics in; the bytes of `<id>.json` out (see `engine_document`)."""
    return canonical_bytes(engine_document(quest, diagnostics))
