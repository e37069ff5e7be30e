"""A CompiledQuest in; the sheet data out: plain dicts, lists and strings the sheet templates lay out.

Everything a printed sheet says comes from here, already looked up: names resolved
to their display names, points made absolute, paragraphs split, and every effect,
chest item, stat change and victory condition carrying `words`, its description
made by the macros of `templates/sheet/words.j2`. Code holds no sheet wording; the
templates do, so a writer can rephrase a sheet without touching Python.

The templates write Typst (the PDF's typesetter) directly. Two flavours of the data:
`sheet_data(quest)` for the sheet, where `words` (and every template result) is Typst
markup (a `markupsafe.Markup`: quest text in it already escaped by
questc.emit.typst_markup, the templates' `strong()` and `emph()` around it), and
`sheet_data(quest, "text")` for exports that want plain words (the Valkyrie export):
the same macros, with `strong()` and `emph()` adding nothing.
"""

from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from questc.draw.map import SMALL_PIECES
from questc.editions import GAME_RULES
from questc.model.quest import Figure, Marker, ObstacleModel
from questc.paths import data_dir
from questc.syntax import nodes as n
from questc.words import count_range, noun, plural

if TYPE_CHECKING:
    from questc.compiled import CompiledQuest

TEMPLATE_FOLDER = "sheet"
Flavour = Literal["typst", "text"]


# ---- templates -------------------------------------------------------------------


def typst_string(text: str) -> str:
    from questc.emit.typst_markup import string

    return string(text)


def _typst(value) -> Any:
    """A value a template prints in; Typst markup out: quest text escaped, template results kept."""
    from markupsafe import Markup

    from questc.emit.typst_markup import markup

    return value if isinstance(value, Markup) else Markup(markup(str(value)))


@cache
def environment(flavour: Flavour = "typst"):
    """The Jinja2 environment over `templates/` for one flavour of output.

    "typst": autoescaping on, every printed value passed through `_typst` (so a writer's `#`
    or `[` prints as itself), `strong(x)` and `emph(x)` Typst's. "text": plain words, no
    escaping, `strong(x)` and `emph(x)` the text itself. StrictUndefined: a template naming a
    field the data lacks fails loudly instead of printing a blank on a sheet.
    """
    import jinja2
    from markupsafe import Markup

    typst = flavour == "typst"
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(data_dir("templates"))),
        autoescape=typst,
        finalize=_typst if typst else None,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["count_range"] = count_range
    env.filters["mid"] = mid_sentence
    if typst:
        env.filters["join"] = typst_join
        # values inside Typst code, not markup: a length in points, a string literal
        env.filters["pt"] = lambda value: Markup(f"{float(value):.2f}pt")
        env.filters["string"] = lambda value: Markup(typst_string(str(value)))
        env.globals.update(
            strong=lambda body: Markup(f"#strong[{_typst(body)}]"), emph=lambda body: Markup(f"#emph[{_typst(body)}]")
        )
    else:
        env.globals.update(strong=str, emph=str)
    env.globals.update(plural=plural, noun=noun)  # counted words, as every message words them
    env.bytecode_cache = _CompiledTemplates(env)
    return env


# How many compiled templates are kept in questc's cache folder (the newest): seven a version
# (six Typst templates and words.j2 as plain text), for about three versions.
TEMPLATES_KEPT = 21


def _CompiledTemplates(env):  # a class made on first use: jinja2 is imported late
    """Jinja's bytecode cache (its own extension point), kept in questc's cache folder: compiling
    the sheet's templates is 0.17 s a process (a tenth of a `questc build` of ten quests).

    An entry is named by Jinja's key for the template and a fingerprint of the Jinja version
    and the environment's settings that shape the compiled code; Jinja checks the template's
    source checksum and its own format when it loads one, and compiles again on a mismatch. A
    CRC-32 guards the bytes; an unreadable, corrupt or unwritable entry means compiling."""
    import zlib

    import jinja2

    from questc.paths import cache_dir, write_cache

    # (finalize is written into the compiled code, and the two flavours share their templates' keys)
    settings = (
        jinja2.__version__,
        bool(env.autoescape),
        env.finalize is not None,
        env.trim_blocks,
        env.lstrip_blocks,
        env.keep_trailing_newline,
        env.block_start_string,
        env.variable_start_string,
        env.comment_start_string,
        sorted(env.filters),
    )
    fingerprint = f"{zlib.crc32(repr(settings).encode()):08x}"

    class CompiledTemplates(jinja2.BytecodeCache):
        def _name(self, bucket) -> str:
            return f"jinja-{fingerprint}-{bucket.key}"

        def load_bytecode(self, bucket) -> None:
            try:
                data = (cache_dir() / self._name(bucket)).read_bytes()
            except OSError:
                return
            if len(data) > 4 and int.from_bytes(data[:4], "big") == zlib.crc32(data[4:]):
                try:
                    bucket.bytecode_from_string(data[4:])
                except Exception:  # noqa: BLE001 - a damaged entry: compiled again, whatever broke
                    bucket.reset()

        def dump_bytecode(self, bucket) -> None:
            payload = bucket.bytecode_to_string()
            write_cache(
                self._name(bucket),
                zlib.crc32(payload).to_bytes(4, "big") + payload,
                family="jinja-*",
                keep=TEMPLATES_KEPT,
            )

    return CompiledTemplates()


def typst_join(values, separator: str = "") -> Any:
    """The `join` filter for Typst templates: the items and the separator escaped unless already
    markup (Jinja's own join escapes plain items for HTML as soon as one of them is markup)."""
    from markupsafe import Markup

    return Markup(str(_typst(separator)).join(str(_typst(v)) for v in values))


def template(name: str, flavour: Flavour = "typst"):
    """A template file name under templates/sheet/ in; the compiled Jinja template out."""
    return environment(flavour).get_template(f"{TEMPLATE_FOLDER}/{name}")


class _Words:
    """The macros of words.j2 as functions: words.effect(e) -> its words, with runs of
    whitespace (the template's own line breaks) folded to single spaces."""

    def __init__(self, module, flavour: Flavour):
        self._module = module
        self._flavour = flavour

    def __getattr__(self, name: str):
        from markupsafe import Markup

        macro = getattr(self._module, name)
        wrap = Markup if self._flavour == "typst" else str

        def call(*args, **kwargs):
            return wrap(" ".join(str(macro(*args, **kwargs)).split()))

        return call


@cache
def _words(flavour: Flavour = "typst") -> _Words:
    """The macros of words.j2: words.effect(e), words.condition(c), words.content(item), ..."""
    return _Words(template("words.j2", flavour).module, flavour)


def mid_sentence(name):
    """A name that opens with "The" in; the same name as it reads inside a sentence out
    ("When the Brass Chamberlain dies", not "When The Brass Chamberlain dies"); markup stays markup."""
    text = str(name)
    if not text.startswith("The "):
        return name
    from markupsafe import Markup

    return Markup("the" + text[3:]) if isinstance(name, Markup) else "the" + text[3:]


# ---- text --------------------------------------------------------------------------


def paragraphs(text: str | None) -> list[str]:
    """Quest text in; its paragraphs out, each on one line.

    Writers wrap triple-quoted text at will, so a single newline is a soft wrap and a
    blank line ends a paragraph. Each paragraph is one line so the sheet markup (one
    block per line) can never be broken by quest text.
    """
    if not text:
        return []
    out = []
    for block in re.split(r"\n\s*\n", text.replace("\r\n", "\n")):
        line = " ".join(block.split())
        if line:
            out.append(line)
    return out


def label(name: str) -> str:
    """A catalog identifier in (hell_hound); how it is printed out (hell hound)."""
    return name.replace("_", " ")


def piece_title(name: str) -> str:
    """A map piece type in (room_6x6, tile_22a); how a player reads it out (room 6×6, tile 22a)."""
    from questc.draw.map import piece_words

    return piece_words(name)


def _natural(text: str) -> tuple:
    """A tile's code in (22A); a key that orders codes by their number first (1B before 22A) out."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


# The groups of a sheet's component list (setup), in order.
COMPONENT_GROUPS = ("pieces", "doors", "monsters", "markers", "obstacles")


def point(cell) -> str:
    """(x, y) in; 'x,y' out: the quest language's own way of writing a cell."""
    return f"{cell[0]},{cell[1]}"


# ---- the data --------------------------------------------------------------------


class _Builder:
    """Turns one compiled quest into the sheet dict; keeps the lookups the describers share."""

    def __init__(self, quest: CompiledQuest, flavour: Flavour):
        self.quest = quest
        self.model = quest.model
        self.flavour = flavour
        self.words = _words(flavour)

    # references ------------------------------------------------------------------
    def area_ref(self, area_id: str) -> dict:
        area = self.model.areas.get(area_id)
        return {"id": area_id, "name": area.name if area else area_id}

    def named_ref(self, named_id: str) -> dict:
        """A named monster, or (second edition) a lieutenant, by its id."""
        named = self.model.named.get(named_id)
        return {"id": named_id, "name": named.display if named else label(named_id).title()}

    def door_ref(self, door_id: str) -> dict:
        door = self.model.doors.get(door_id)
        return {"id": door_id, "name": door.display if door else label(door_id), "rune": door.rune if door else None}

    def encounter_ref(self, encounter_id: str) -> dict:
        encounter = self.model.encounters.get(encounter_id)
        return {
            "id": encounter_id,
            "name": encounter.display if encounter else label(encounter_id),
            "area": self.area_ref(encounter.area) if encounter else None,
            "at": point(encounter.at) if encounter else None,
        }

    def token_ref(self, token_id: str) -> dict:
        """A token the quest names (second edition), by its id."""
        token = self.model.tokens_named().get(token_id)
        return {"id": token_id, "name": token.name if token else label(token_id), "kind": token.kind if token else None}

    def foe_ref(self, name: str) -> dict:
        """What `defeated NAME` names: a group (by its monster), an open group, a lieutenant, a named monster,
        or `all`."""
        group = self.model.groups.get(name)
        if name == "all":
            return {"id": name, "name": "every monster", "group": False}
        if name in self.model.named:
            return {"id": name, "name": self.model.named[name].display, "group": False}
        if group is not None and group.kind == "lieutenant" or name in self.model.lieutenants():
            return {"id": name, "name": label(name).title(), "group": False}
        return {"id": name, "name": group.display if group is not None else label(name), "group": True}

    def place_ref(self, name: str) -> dict:
        """An area or a piece by its id (a token carried to it)."""
        if name in self.model.areas:
            return {"kind": "area", **self.area_ref(name)}
        piece = self.model.pieces.get(name)
        if piece is None:
            return {"kind": "piece", "id": name, "name": name}
        return {
            "kind": "piece",
            "id": name,
            "name": f"tile {piece.type.tile}" if piece.type.tile else f"the {label(piece.type.name)}",
        }

    def counter_ref(self, counter_id: str) -> dict:
        counter = self.model.counters.get(counter_id)
        return {"id": counter_id, "name": counter.display if counter else label(counter_id)}

    def treasure_title(self, kind: str | None) -> str | None:
        """A treasure kind in; the catalog's title for it (healing -> healing potion) out."""
        entry = self.model.catalog.treasures.get(kind) if kind else None
        return entry.title if entry is not None and entry.title else (label(kind) if kind else None)

    def cell(self, ref: n.PointRef) -> str:
        if ref.piece is None:
            return point((ref.x, ref.y))
        piece = self.model.pieces.get(ref.piece.value)
        if piece is None:  # cannot happen once the quest compiled; print what was written
            return f"{ref.piece.value}:{ref.x},{ref.y}"
        return point((piece.at[0] + ref.x, piece.at[1] + ref.y))

    # quest text ----------------------------------------------------------------------
    def prose(self, text: str | None) -> list:
        """Quest text in; its paragraphs out (Typst markup, or plain text), each `backticked` reference
        to a thing of the quest put in the words players read: `red_seal` -> *The Red Seal*,
        `on killed skritch` -> *when Skritch is killed*; other backticked words lose their
        backticks, in italics."""
        from markupsafe import Markup

        from questc.emit.typst_markup import markup

        typst = self.flavour == "typst"
        out: list = []
        for paragraph in paragraphs(text):
            pieces = paragraph.split("`")
            if len(pieces) % 2 == 0:  # an unpaired backtick: print the text as written
                out.append(Markup(markup(paragraph)) if typst else paragraph)
                continue
            if not typst:
                out.append(
                    "".join(piece if index % 2 == 0 else self.reference(piece) for index, piece in enumerate(pieces))
                )
                continue
            out.append(
                Markup(
                    "".join(
                        markup(piece) if index % 2 == 0 else f"#emph[{markup(self.reference(piece))}]"
                        for index, piece in enumerate(pieces)
                    )
                )
            )
        return out

    def reference(self, code: str) -> str:
        """What a writer wrote between backticks in; how a player reads it out."""
        model = self.model
        words = code.split()
        if len(words) == 1:
            name = words[0]
            if name in model.doors:
                return model.doors[name].display
            if name in model.encounters:
                return model.encounters[name].display
            if name in model.named:
                return model.named[name].display
            if name in model.areas:
                return f"area {name} ({model.areas[name].name})"
            for marker in model.markers:
                if marker.kind == "relic" and marker.variant == name:
                    return marker.display or label(name)
        if len(words) >= 2 and words[0] == "on":
            event, target = words[1], " ".join(words[2:])
            if event == "killed" and target in model.named:
                return f"when {mid_sentence(model.named[target].display)} is killed"
            if event == "reveal" and target in model.areas:
                return f"when area {target} ({model.areas[target].name}) is revealed"
            if event == "open" and target in model.doors:
                return f"when {mid_sentence(model.doors[target].display)} opens"
            if event == "round" and target.isdigit():
                return f"at the start of round {target}"
        return label(code)

    def exits(self, area_id: str) -> list[dict]:
        """The doors and stairs of an area, in source order: the way out and the area beyond."""
        out: list[dict] = []
        door_cells = self.quest.quest_board.door_cells
        for door in self.model.doors.values():
            areas = []
            for cell in door_cells.get(door.id, ()):
                area = self.model.area_of(cell)
                if area and area not in areas:
                    areas.append(area)
            if area_id in areas:
                beyond = [a for a in areas if a != area_id]
                item = {
                    "kind": "door",
                    "door": self.door_ref(door.id),
                    "to": self.area_ref(beyond[0]) if beyond else None,
                }
                item["words"] = self.words.exit(item)
                out.append(item)
        for stairs in self.model.stairs:
            ends = [self.model.area_of(end) for end in stairs.ends]
            if area_id in ends:
                beyond = [a for a in ends if a and a != area_id]
                item = {"kind": "stairs", "name": stairs.display, "to": self.area_ref(beyond[0]) if beyond else None}
                item["words"] = self.words.exit(item)
                out.append(item)
        return out

    # effects ---------------------------------------------------------------------
    def effect(self, effect) -> dict:
        """One effect node in; {'kind', its fields, 'words'} out."""
        data: dict[str, Any]
        if isinstance(effect, n.Read):
            data = {"kind": "read", "paragraphs": self.prose(effect.text.value)}
        elif isinstance(effect, n.ConquestEffect):
            data = {"kind": "conquest", "amount": effect.amount}
        elif isinstance(effect, n.CoinsEffect):
            data = {"kind": "coins", "amount": effect.amount}
        elif isinstance(effect, n.TreasureEffect):
            data = {"kind": "treasure", "card": effect.kind.value, "count": effect.count}
        elif isinstance(effect, n.ThreatEffect):
            data = {"kind": "threat", "amount": effect.amount}
        elif isinstance(effect, n.SpawnEffect):
            data = {
                "kind": "spawn",
                "monster": label(effect.type.value),
                "master": effect.master,
                "at": [self.cell(p) for p in effect.at],
                "count": len(effect.at),
            }
        elif isinstance(effect, n.DoorEffect):
            data = {"kind": effect.action, "door": self.door_ref(effect.door.value)}
        elif isinstance(effect, n.UnlockEffect):
            data = {"kind": "unlock", "colour": effect.colour.value}
        elif isinstance(effect, n.RevealEffect):
            data = {"kind": "reveal", "area": self.area_ref(effect.area.value)}
        elif isinstance(effect, n.WinEffect):
            data = {"kind": "win", "side": effect.side.value}
        elif isinstance(effect, n.InstructEffect):
            data = {"kind": "instruct", "paragraphs": self.prose(effect.text.value)}
        elif isinstance(effect, n.PlaceEffect):
            where = (
                [self.place_ref(p.value) for p in effect.on]
                if effect.on
                else [self.place_ref(effect.area.value)]
                if effect.area is not None
                else []
            )
            data = {
                "kind": "place",
                "what": effect.kind,
                "monster": label(effect.type.value) if effect.type is not None else None,
                "master": effect.master,
                "colour": effect.colour.value if effect.colour else None,
                "count": {"amount": effect.count.amount, "heroes": effect.count.heroes} if effect.count else None,
                "where": where,
                "at": [self.cell(p) for p in effect.at],
                "limit": effect.limit,
            }
        elif isinstance(effect, n.RemoveEffect):
            data = {"kind": "remove", "token": self.token_ref(effect.target.value)}
        elif isinstance(effect, n.ReplaceEffect):
            data = {
                "kind": "replace",
                "token": self.token_ref(effect.target.value),
                "into": effect.kind,
                "colour": effect.colour.value if effect.colour else None,
            }
        elif isinstance(effect, n.CounterEffect):
            data = {
                "kind": "counter",
                "counter": self.counter_ref(effect.counter.value),
                "amount": effect.amount,
                "relative": effect.relative,
            }
        else:  # a new effect node the sheet does not know yet: say so rather than drop it
            data = {"kind": "unknown", "name": type(effect).__name__}
        data["words"] = self.words.effect(data)
        return data

    def effects(self, effects) -> list[dict]:
        return [self.effect(e) for e in effects]

    # conditions ------------------------------------------------------------------
    def condition(self, condition, negated: bool = False) -> dict:
        """A victory condition tree in; the same tree as dicts, each node with 'words'.

        A `not` is pushed down to what it denies, so the words say it plainly: `not round > 14`
        is "round 14 or earlier", `not (a and b)` is "not a or not b", `not killed x` is "x is
        still alive" (kinds alive, unrevealed, untriggered, unopened).
        """
        if isinstance(condition, n.NotCondition):
            return self.condition(condition.operand, not negated)
        data: dict[str, Any]
        if isinstance(condition, n.EventCondition) and condition.event in ("on", "in"):
            data = {
                "kind": "absent" if negated else "present",
                "target": self.foe_ref(condition.target.value),
                "to": self.place_ref(condition.destination.value) if condition.destination else None,
            }
        elif isinstance(condition, n.EventCondition):
            refs = {
                "killed": self.named_ref,
                "revealed": self.area_ref,
                "triggered": self.encounter_ref,
                "opened": self.door_ref,
                "defeated": self.foe_ref,
                "carried": self.token_ref,
            }
            kind = condition.event
            if negated:
                kind = {
                    "killed": "alive",
                    "revealed": "unrevealed",
                    "triggered": "untriggered",
                    "opened": "unopened",
                    "defeated": "undefeated",
                    "carried": "uncarried",
                }[kind]
            data = {"kind": kind, "target": refs[condition.event](condition.target.value)}
            if condition.event == "carried":
                data["to"] = self.place_ref(condition.destination.value) if condition.destination else None
        elif isinstance(condition, n.CompareCondition):
            op = {"<": ">=", "<=": ">", "=": "!=", ">=": "<", ">": "<="}[condition.op] if negated else condition.op
            data = {"kind": "compare", "counter": condition.counter, "op": op, "value": condition.value}
            if condition.name is not None:
                data["declared"] = self.counter_ref(condition.counter)
        elif isinstance(condition, (n.AllCondition, n.AnyCondition)):
            both = isinstance(condition, n.AllCondition) != negated  # De Morgan
            data = {
                "kind": "all" if both else "any",
                "operands": [self.condition(c, negated) for c in condition.operands],
            }
        else:
            data = {"kind": "unknown", "name": type(condition).__name__}
        data["words"] = self.words.condition(data)
        return data

    # areas -----------------------------------------------------------------------
    def contents(self, area_id: str) -> list[dict]:
        """What stands in an area, grouped (figures of one type, rank and player count together), in source order."""
        model = self.model
        groups: dict[tuple, dict] = {}

        def add(key, item, cell):
            group = groups.get(key)
            if group is None:
                group = groups[key] = dict(item, at=[], count=0)
            group["at"].append(point(cell))
            group["count"] += 1

        # Source order across kinds: each item's span start orders the list.
        placed: list[Figure | Marker | ObstacleModel] = [
            *(f for f in model.figures if f.area == area_id),
            *(m for m in model.markers if m.area == area_id),
            *(o for o in model.obstacles if o.area == area_id),
        ]
        for thing in sorted(placed, key=lambda thing: thing.span.start):
            if isinstance(thing, Figure):
                if thing.rank == "named" and thing.named is not None:
                    add(
                        ("named", thing.named),
                        {"kind": "named", "named": self.named_ref(thing.named), "monster": label(thing.type.name)},
                        thing.at,
                    )
                else:
                    players = {"min": thing.players[0], "max": thing.players[1]} if thing.players else None
                    add(
                        ("monster", thing.type.name, thing.rank, thing.players),
                        {
                            "kind": "monster",
                            "monster": label(thing.type.name),
                            "master": thing.rank == "master",
                            "players": players,
                            "large": thing.type.large,
                        },
                        thing.at,
                    )
            elif isinstance(thing, Marker):
                if thing.kind == "encounter" and thing.encounter is not None:
                    add(
                        ("encounter", thing.encounter),
                        {
                            "kind": "encounter",
                            "encounter": thing.encounter,
                            "name": self.encounter_ref(thing.encounter)["name"],
                        },
                        thing.at,
                    )
                elif thing.kind == "relic" and thing.variant is not None:
                    add(
                        ("relic", thing.variant),
                        {
                            "kind": "relic",
                            "variant": label(thing.variant),
                            "name": thing.display or label(thing.variant),
                        },
                        thing.at,
                    )
                else:
                    variant = label(thing.variant) if thing.variant else None
                    if thing.kind == "lieutenant" and variant:
                        variant = variant.title()
                    add(
                        (thing.kind, thing.variant, thing.active, thing.facing),
                        {
                            "kind": thing.kind,
                            "variant": variant,
                            "title": self.treasure_title(thing.variant) if thing.kind == "treasure" else None,
                            "active": thing.active,
                            "facing": thing.facing,
                        },
                        thing.at,
                    )
            else:
                kind = thing.kind
                # Terrain printed on a second edition tile: named by the tile's code.
                piece = self.model.pieces.get(thing.piece) if thing.piece else None
                printed = (piece.type.tile or piece.type.name) if piece is not None else None
                key = ("trap" if kind.trap else "obstacle", kind.name, thing.facing, thing.piece)
                group = groups.get(key)
                if group is None:
                    group = groups[key] = {
                        "kind": "trap" if kind.trap else "obstacle",
                        "name": kind.name,
                        "obstacle": label(kind.name),
                        "printed": printed,
                        "facing": thing.facing,
                        "at": [],
                        "count": 0,
                        "cells": 0,
                    }
                first, last = min(thing.cells), max(thing.cells)
                group["at"].append(point(first) if first == last else f"{point(first)}..{point(last)}")
                group["count"] += 1
                group["cells"] += len(thing.cells)
        items = list(groups.values())
        for item in items:
            item["words"] = self.words.content(item)
        return items

    def areas(self) -> list[dict]:
        analysis = self.quest.analysis
        out = []
        for area in self.model.areas.values():
            wave = analysis.reveal_wave.get(area.id)
            seen = analysis.visible_from.get(area.id, [])
            data = {
                "id": area.id,
                "name": area.name,
                "start": area.start,
                "wave": wave,
                # visible_from names areas, or "effect" when an effect revealed the area
                "seen_from": [self.area_ref(a) for a in seen if a in self.model.areas],
                "by_effect": any(a not in self.model.areas for a in seen),
                "read": [p for text in area.read for p in self.prose(text)],
                "notes": [p for text in area.notes for p in self.prose(text)],
                "exits": self.exits(area.id),
                "contents": self.contents(area.id),
            }
            data["reveal_words"] = self.words.revealed(data)
            out.append(data)
        return out

    # the rest ----------------------------------------------------------------------
    def encounters(self) -> list[dict]:
        return [
            {
                "id": e.id,
                "name": e.display,
                "area": self.area_ref(e.area),
                "at": point(e.at),
                "effects": self.effects(e.node.effects),
            }
            for e in self.model.encounters.values()
        ]

    def triggers(self) -> list[dict]:
        out = []
        for trigger in self.model.triggers:
            data: dict[str, Any] = {"event": trigger.event, "round": trigger.round}
            target = trigger.target.value if trigger.target else ""  # only `round` has no target
            if trigger.event == "reveal":
                data["target"] = self.area_ref(target)
            elif trigger.event == "killed":
                data["target"] = self.named_ref(target)
            elif trigger.event == "open":
                data["target"] = self.door_ref(target)
            elif trigger.event == "defeated":
                data["target"] = self.foe_ref(target)
            else:
                data["target"] = None
            if trigger.event == "each":
                data["phase"], data["every"] = trigger.phase, trigger.every
                data["condition"] = self.condition(trigger.condition) if trigger.condition is not None else None
            data["when_words"] = self.words.trigger(data)
            data["effects"] = self.effects(trigger.effects)
            # a rule of each round or turn that brings monsters in: the sheet's Reinforcements
            data["reinforcement"] = data["event"] == "each" and any(
                e["kind"] == "place" and e.get("what") == "monster" for e in data["effects"]
            )
            out.append(data)
        return out

    def named(self) -> list[dict]:
        out = []
        for named in self.model.named.values():
            node = named.node
            changes = []
            for change in node.changes:
                item = {"stat": change.stat, "value": change.value, "relative": change.relative}
                item["words"] = self.words.stat_change(item)
                changes.append(item)
            abilities = []
            for ability in node.abilities:
                item = {"name": label(ability.name.value), "rank": ability.rank}
                item["words"] = self.words.ability(item)
                abilities.append(item)
            placed = [f for f in self.model.figures if f.named == named.id]
            out.append(
                {
                    "id": named.id,
                    "name": named.display,
                    "monster": label(named.type.name) if named.type else label(node.type.value),
                    "changes": changes,
                    "abilities": abilities,
                    "conquest": node.conquest,
                    "at": point(placed[0].at) if placed else None,
                    "area": self.area_ref(placed[0].area) if placed else None,
                }
            )
        return out

    def chests(self) -> list[dict]:
        chart = self.model.chest_chart
        if chart is None:
            return []
        out = []
        for row in chart.rows:
            contents = []
            for content in row.contents:
                name = content.name.value if content.name is not None else None
                item = {
                    "kind": content.kind,
                    "amount": content.amount,
                    "name": self.treasure_title(name) if content.kind == "potion" else (label(name) if name else None),
                }
                item["words"] = self.words.chest_item(item)
                contents.append(item)
            out.append({"chest": row.kind.value, "number": row.number, "contents": contents})
        return out

    def plan(self) -> dict | None:
        plan = self.model.overlord
        if plan is None:
            return None
        catalog = self.model.catalog
        cards = []
        for card in plan.cards:
            entry = catalog.cards.get(card.name.value)
            cards.append(
                {
                    "name": card.name.value,
                    "copies": card.copies,
                    "colour": entry.treachery_colour if entry else None,
                    "cost": entry.treachery_cost if entry else None,
                }
            )
        glyphs = []
        for glyph in plan.glyphs:
            dark = catalog.dark_glyphs.get(glyph.name.value)
            glyphs.append(
                {
                    "name": label(glyph.name.value),
                    "colour": dark.colour if dark else None,
                    "cost": dark.cost if dark else None,
                }
            )
        return {"cards": cards, "glyphs": glyphs}

    def treachery(self) -> list[dict] | None:
        budget = self.model.treachery
        if budget is None:
            return None
        from questc.catalog.model import TREACHERY_KINDS

        return [
            {"kind": kind, "colour": TREACHERY_KINDS.get(kind), "amount": amount} for kind, amount in budget.items()
        ]

    # monsters ------------------------------------------------------------------------
    def monsters(self) -> list[dict]:
        """The monsters the quest sets up, by type in order of appearance: how many figures of each
        rank, for which player counts, and the areas and pieces they stand in, with `words`."""
        model = self.model
        out: dict[str, dict] = {}
        for figure in model.figures:
            item = out.setdefault(
                figure.type.name,
                {
                    "monster": label(figure.type.name),
                    "normal": 0,
                    "master": 0,
                    "named": [],
                    "some": 0,
                    "ranges": [],
                    "areas": [],
                    "pieces": [],
                },
            )
            if figure.rank == "named" and figure.named is not None:
                item["named"].append(self.named_ref(figure.named))
            else:
                item[figure.rank if figure.rank == "master" else "normal"] += 1
            if figure.players is not None:
                item["some"] += 1
                if figure.players not in item["ranges"]:
                    item["ranges"].append(figure.players)
            area = self.area_ref(figure.area)
            if area not in item["areas"]:
                item["areas"].append(area)
            piece = self.piece_at(figure.at)
            if piece is not None and piece not in item["pieces"]:
                item["pieces"].append(piece)
        for item in out.values():
            item["ranges"] = [{"min": low, "max": high} for low, high in sorted(item["ranges"])]
            item["words"] = self.words.monsters(item)
        return list(out.values()) + self.groups()

    def groups(self) -> list[dict]:
        """The monster groups, open groups and lieutenants the overlord places himself (second
        edition), as the Quest Guide lists them: each with the tiles (or the area) it goes on, its
        size for each number of heroes (the same for all: said once) and the changes to it, with `words`."""
        model = self.model
        out = []
        low, high = model.heroes()
        for group in model.groups.values():
            sizes: list[dict] = []
            for heroes in range(low, high + 1):
                minions, masters = group.size(heroes)
                if sizes and (sizes[-1]["minions"], sizes[-1]["masters"]) == (minions, masters):
                    sizes[-1]["to"] = heroes
                else:
                    sizes.append({"from": heroes, "to": heroes, "minions": minions, "masters": masters})
            pieces = [model.pieces.get(p) for p in group.pieces]
            item = {
                "kind": group.kind,
                "monster": group.display,
                "id": group.id,
                "area": self.area_ref(group.area),
                "pieces": [
                    f"tile {p.type.tile}" if p.type.tile else f"the {label(p.type.name)}"
                    for p in pieces
                    if p is not None
                ],
                "sizes": sizes if group.kind == "monster" else [],
                "traits": [label(t) for t in model.traits] if group.kind == "open" else [],
                "changes": [
                    {"who": c.who, "amount": c.amount, "relative": c.relative, "stat": label(c.stat.value)}
                    for c in group.changes
                ],
            }
            item["words"] = self.words.group(item)
            out.append(item)
        return out

    def piece_at(self, cell) -> str | None:
        """The tile under a cell by its printed code (`tile 22A`), else None (a first edition piece has no code)."""
        for piece in self.model.pieces.values():
            if piece is not None and cell in piece.shape.cells:
                return f"tile {piece.type.tile}" if piece.type.tile else None
        return None

    # setup -------------------------------------------------------------------------
    def setup(self) -> dict:
        """What the overlord does before the first turn: where the heroes start, the treachery and
        the deck plan, and the components to set aside (questc.emit.sheet's `components`)."""
        model = self.model
        start = next((a for a in model.areas.values() if a.start), None)
        return {
            "start": self.area_ref(start.id) if start is not None else None,
            "start_rule": model.edition.start,
            "start_at": [point(h.at) for h in model.hero_starts],
            "conquest": model.conquest,
            "reveal": model.reveal,
            "treachery": self.treachery(),
            "plan": self.plan(),
            "components": self.components(),
        }

    def components(self) -> list[dict]:
        """The components the quest puts on the table, in groups (map pieces, doors and stairs,
        monsters, markers and tokens, obstacles), each item counted, with `words`."""
        model = self.model
        groups: dict[str, dict[tuple, dict]] = {name: {} for name in COMPONENT_GROUPS}

        def add(
            group: str,
            key: tuple,
            item: dict,
            count: int = 1,
            ident: str | None = None,
            players: tuple[int, int] | None = None,
        ) -> None:
            found = groups[group].setdefault(key, dict(item, count=0, ids=[], some=0, ranges=[]))
            found["count"] += count
            if ident is not None:
                found["ids"].append(ident)
            if players is not None:
                found["some"] += count
                if players not in found["ranges"]:
                    found["ranges"].append(players)

        for piece in model.pieces.values():
            if piece is not None:
                kind = piece.type
                add(
                    "pieces",
                    (kind.name,),
                    {
                        "kind": "piece",
                        "name": piece_title(kind.name),
                        "type": kind.kind,
                        "tile": kind.tile,
                        "small": kind.kind in SMALL_PIECES,
                    },
                    ident=piece.id,
                )
        plain_doors = [d for d in model.doors.values() if d.rune is None]
        if plain_doors:
            add("doors", ("door",), {"kind": "door", "rune": None}, len(plain_doors))
        for door in model.doors.values():
            if door.rune is not None:
                add("doors", ("door", door.rune), {"kind": "door", "rune": door.rune})
        for stairs in model.stairs:
            add("doors", ("stairs", stairs.colour), {"kind": "stairs", "colour": label(stairs.colour)})
        for figure in model.figures:
            if figure.rank == "named" and figure.named is not None:
                named = self.named_ref(figure.named)
                add(
                    "monsters",
                    ("named", figure.named),
                    {"kind": "named", "named": named, "monster": label(figure.type.name)},
                )
            else:
                add(
                    "monsters",
                    ("monster", figure.type.name, figure.rank),
                    {"kind": "monster", "monster": label(figure.type.name), "master": figure.rank == "master"},
                    players=figure.players,
                )
        # the groups the overlord places (second edition): their figures for the most heroes
        low, high = model.heroes()
        for group in model.groups.values():
            if group.kind == "monster" and group.type is not None:
                sizes = [group.size(heroes) for heroes in range(low, high + 1)]
                for rank, most in (("normal", max(m for m, _ in sizes)), ("master", max(m for _, m in sizes))):
                    key = ("monster", group.type.name, rank)
                    have = groups["monsters"][key]["count"] if key in groups["monsters"] else 0
                    if most > have:
                        add(
                            "monsters",
                            key,
                            {"kind": "monster", "monster": label(group.type.name), "master": rank == "master"},
                            most - have,
                        )
            elif group.kind == "lieutenant":
                add("markers", ("lieutenant", group.id), {"kind": "lieutenant", "name": label(group.id).title()})
        for marker in model.markers:
            variant = marker.variant
            if marker.kind == "glyph":
                add("markers", ("glyph", marker.active), {"kind": "glyph", "active": marker.active})
            elif marker.kind == "treasure":
                add("markers", ("treasure", variant), {"kind": "treasure", "title": self.treasure_title(variant)})
            elif marker.kind == "relic":
                add("markers", ("relic", variant), {"kind": "relic", "name": marker.display or label(variant or "")})
            elif marker.kind == "lieutenant":
                add("markers", ("lieutenant", variant), {"kind": "lieutenant", "name": label(variant or "").title()})
            else:
                add(
                    "markers",
                    (marker.kind, variant),
                    {"kind": marker.kind, "variant": label(variant) if variant else None},
                )
        for obstacle in model.obstacles:
            if obstacle.piece is None:  # terrain printed on a tile comes with the tile
                add(
                    "obstacles",
                    (obstacle.kind.name,),
                    {
                        "kind": "obstacle",
                        "name": obstacle.kind.name,
                        "obstacle": label(obstacle.kind.name),
                        "trap": obstacle.kind.trap,
                        "cells": 0,
                    },
                )
                groups["obstacles"][(obstacle.kind.name,)]["cells"] += len(obstacle.cells)
        # the tiles in the order of their codes (1B, 22A, 26A), before the small pieces; other pieces
        # (first edition rooms and corridors) in the order they are written
        pieces = groups["pieces"]
        if any(item["tile"] for item in pieces.values()):
            groups["pieces"] = dict(
                sorted(pieces.items(), key=lambda kv: (kv[1]["tile"] is None, _natural(kv[1]["tile"] or "")))
            )
        out = []
        for name, items in groups.items():
            if not items:
                continue
            listed = list(items.values())
            for item in listed:
                item["ranges"] = [{"min": low, "max": high} for low, high in sorted(item["ranges"])]
                item["words"] = self.words.component(item)
            out.append({"group": name, "entries": listed})
        return out

    def victories(self) -> list[dict]:
        out = []
        for victory in self.model.victories:
            out.append(
                {
                    "side": victory.side.value,
                    "label": victory.label.value if victory.label else None,
                    "condition": self.condition(victory.when),
                    "next": victory.next.label if victory.next is not None else None,
                }
            )  # `then encounter 2a`
        return out

    def doors(self) -> list[dict]:
        door_cells = self.quest.quest_board.door_cells
        out = []
        for door in self.model.doors.values():
            areas = []
            for cell in door_cells.get(door.id, ()):
                area = self.model.area_of(cell)
                if area and self.area_ref(area) not in areas:
                    areas.append(self.area_ref(area))
            out.append({"id": door.id, "name": door.display, "rune": door.rune, "areas": areas})
        return out

    def build(self) -> dict:
        model = self.model
        return {
            "id": model.id,
            "title": model.title,
            "author": model.author,
            "version": model.version,
            "edition": model.edition.name,
            "edition_title": model.edition.title,
            # the game's rules the sheet words (questc.editions.GAME_RULES): conquest, treachery...
            "plays_by": {rule: model.edition.has(rule) for rule in GAME_RULES},
            "encounter": model.encounter,
            "encounter_label": model.encounter_label,
            "part_of": model.part_of,
            "expansions": [label(e) for e in model.expansions],
            "players": {"min": model.players[0], "max": model.players[1]},
            "conquest": model.conquest,
            "reveal": model.reveal,
            # the sheet's sections in the order the edition's quest books print them
            "sections": list(model.edition.sheet),
            "setup": self.setup(),
            "monsters": self.monsters(),
            "intro": self.prose(model.intro),
            "special": self.prose(model.special),
            "areas": self.areas(),
            "doors": self.doors(),
            "encounters": self.encounters(),
            "triggers": self.triggers(),
            "named": self.named(),
            "chests": self.chests(),
            "treachery": self.treachery(),
            "plan": self.plan(),
            "victories": self.victories(),
        }


def sheet_data(quest: CompiledQuest, flavour: Flavour = "typst") -> dict:
    """A compiled quest in; the sheet dict out, its words as Typst markup or (flavour "text") plain
    text (see the module docstring)."""
    return _Builder(quest, flavour).build()
