"""The encounters of one quest in (source.Encounter, in order); its Valkyrie quest out: the
components and events of each file, the texts, and what Valkyrie could not carry (Q701-Q704).

How a quest's logic becomes Valkyrie events (docs/valkyrie.md tells it for writers):

- Valkyrie runs an event's `add`, `remove` and `operations`, shows its text (unless
  `display=false`), and then queues the first *enabled* event of the button's list (an
  event whose `vartests` fail is disabled). So a list `A B C` where A's own list is
  `B C` and B's is `C` runs A, B and C in turn, skipping any that is disabled: every
  sequence here is written that way (`_Translator.sequence`).
- What can be asked for from several places is an event triggered by a variable:
  setting `@reveal_e1_B` runs area B's reveal, `@open_e1_gate` opens the door `gate`,
  and `@check` re-tests every victory (Valkyrie triggers `Var<name>` once the event
  that set `@<name>` ends). Each is guarded so it runs once.
- The state victories test is kept in variables (`e1_killed_splig`, `e1_objectives`,
  `e1_exited`, `round`, `encounter`...); a victory is an event triggered by `Varcheck`
  whose tests are the condition (negations pushed down, `and`/`or` in parentheses, as
  Valkyrie reads tests left to right). Victories of one encounter test `encounter`.
- Encounters follow each other: a victory of encounter k (k < the last) leads to
  encounter k + 1's introduction and setup, which clears the board (`#boardcomponents`,
  `#monsters`); a victory of the last encounter sets `$end` and the quest is over.

- Second edition setup and rules: a monster group the overlord places on a piece is a
  Spawn on the free spaces nearest the piece's middle (placements by the number of heroes,
  from the monster card); an open group is a Spawn of Valkyrie's choice by the quest's
  traits (`traitpool`); counters are variables (`e1_fatigue`); recurring rules are events
  triggered at the start or the end of each round (the overlord's turn ends the round); a
  group's defeat is Valkyrie's own `Defeated<Monster>` trigger; a token carried somewhere
  is asked about at the end of each round, as heroes leaving by the exit are. What the app
  cannot do is Q706 and shown as text.
- A victory that names its next encounter (`then encounter 2a`) leads to it; any other to
  the first encounter numbered one higher.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from questc.diagnostics.core import Diagnostic
from questc.emit.valkyrie import words
from questc.emit.valkyrie.source import (
    Combined,
    Compare,
    Condition,
    Effect,
    Encounter,
    Figure,
    Group,
    Occurrence,
    Piece,
)
from questc.rules.export.valkyrie_approximated import Q706
from questc.rules.export.valkyrie_shown_as_text import Q703
from questc.rules.export.valkyrie_sight_reveal import Q704
from questc.rules.export.valkyrie_split_tile import Q702
from questc.rules.export.valkyrie_unknown_component import Q701
from questc.valkyrie import content, geometry

__all__ = ["Section", "ValkyrieQuest", "translate"]

# The quest format written: the oldest of Valkyrie's formats with everything used here
# (`vartests`, rich text), so the app of every release since 2.5.4 plays the quest.
FORMAT = 18
# Valkyrie's second edition plays 1 to 4 heroes (its D2E game type).
MAX_HEROES = 4
FILES = ("tiles.ini", "doors.ini", "tokens.ini", "monsters.ini", "spawns.ini", "events.ini")
_OPS = {"<": "<", "<=": "<=", "=": "==", ">=": ">=", ">": ">"}
_NEGATED = {"<": ">=", "<=": ">", "=": "!=", ">=": "<", ">": "<="}


@dataclass
class Section:
    """One component: its INI section's name and entries, its file and its texts (element, text).

    An event (`event`: Event, Spawn, Token or Door) also has its buttons' lists of next
    events, what it adds and removes, its trigger, and entries of its kind (`extra`),
    written after its own entries in that order (`lines`)."""

    name: str
    file: str
    entries: list[tuple[str, str]] = field(default_factory=list)
    texts: list[tuple[str, str]] = field(default_factory=list)
    event: bool = False
    next: list[list[str]] = field(default_factory=list)
    add: list[str] = field(default_factory=list)
    remove: list[str] = field(default_factory=list)
    trigger: str | None = None
    extra: list[tuple[str, str]] = field(default_factory=list)
    fixed: bool = False  # its next lists are its own: a sequence leaves them as they are

    def lines(self) -> list[tuple[str, str]]:
        if not self.event:
            return list(self.entries)
        out = list(self.entries) + [("buttons", str(len(self.next)))]
        out += [(f"event{i}", " ".join(following)) for i, following in enumerate(self.next, 1)]
        if self.add:
            out.append(("add", " ".join(self.add)))
        if self.remove:
            out.append(("remove", " ".join(self.remove)))
        if self.trigger:
            out.append(("trigger", self.trigger))
        return out + list(self.extra)


@dataclass
class ValkyrieQuest:
    """A translated quest: its header, its sections in order, its texts; the files are made from it."""

    header: list[tuple[str, str]]
    texts: list[tuple[str, str]]
    sections: list[Section]


# ---- conditions ------------------------------------------------------------------------


def _tests(condition: Condition, var, negated: bool = False) -> list[str]:
    """A victory condition in; Valkyrie's test components (VarOperation, VarTestsLogicalOperator,
    VarTestsParenthesis) out. `var(atom)` names the variable an atom compares and its value."""
    if isinstance(condition, Combined) and condition.op == "not":
        return _tests(condition.operands[0], var, not negated)
    if isinstance(condition, Combined):
        both = (condition.op == "and") != negated  # De Morgan
        joiner = "VarTestsLogicalOperator:" + ("AND" if both else "OR")
        out: list[str] = []
        for i, operand in enumerate(condition.operands):
            if i:
                out.append(joiner)
            inner = _tests(operand, var, negated)
            out += ["VarTestsParenthesis:(", *inner, "VarTestsParenthesis:)"] if len(inner) > 1 else inner
        return out
    name, op, value = var(condition)
    return [f"VarOperation:{name},{(_NEGATED if negated else _OPS)[op]},{value}"]


def tests_of(*parts: list[str]) -> str:
    """Test lists in; one `vartests` value joining them with AND (a list of several, parenthesised)."""
    out: list[str] = []
    for part in parts:
        if not part:
            continue
        if out:
            out.append("VarTestsLogicalOperator:AND")
        out += ["VarTestsParenthesis:(", *part, "VarTestsParenthesis:)"] if len(part) > 1 else part
    return " ".join(out)


def counters(condition: Condition) -> set[str]:
    """The counters and events a condition tests: {"exited", "objectives", "killed:splig", ...}."""
    if isinstance(condition, Combined):
        return set().union(*(counters(c) for c in condition.operands))
    if isinstance(condition, Compare):
        return {condition.counter}
    return {f"{condition.event}:{condition.target}"}


# ---- the translator --------------------------------------------------------------------


class _Translator:
    def __init__(self, encounters: list[Encounter]) -> None:
        self.encounters = encounters
        self.sections: list[Section] = []
        self.names: set[str] = set()
        self.diagnostics: list[Diagnostic] = []
        self.round_events: list[Section] = []

    # sections ------------------------------------------------------------------------
    def section(self, name: str, file: str) -> Section:
        if name in self.names:
            raise ValueError(f"two Valkyrie components named {name}")
        self.names.add(name)
        section = Section(name, file)
        self.sections.append(section)
        return section

    def event(
        self,
        name: str,
        *,
        text: str | None = None,
        trigger: str | None = None,
        tests: str = "",
        ops: list[str] | tuple[str, ...] = (),
        add: list[str] | tuple[str, ...] = (),
        remove: list[str] | tuple[str, ...] = (),
        at: tuple[int, int] | None = None,
        highlight: bool = False,
        buttons: list[str] | None = None,
        comment: str = "",
        file: str = "events.ini",
    ) -> Section:
        """An event (also a Spawn, Token or Door, by its name and `file`). Shown when it has text;
        `buttons` are the labels of a shown event's buttons (one "Continue" when not given). Its
        lists of next events are filled in later (`Section.next`, `sequence`)."""
        section = self.section(name, file)
        section.event = True
        if at is not None:
            section.entries += [("xposition", str(at[0])), ("yposition", str(at[1]))]
        if comment:
            section.entries.append(("comment", comment))
        if ops:
            section.entries.append(("operations", " ".join(ops)))
        if tests:
            section.entries.append(("vartests", tests))
        if text is None:
            section.entries.append(("display", "false"))
        if highlight:
            section.entries.append(("highlight", "true"))
        labels = buttons or [words.CONTINUE]
        section.next = [[] for _ in (labels if text is not None else [words.CONTINUE])]
        section.add, section.remove, section.trigger = list(add), list(remove), trigger
        if text is not None:
            section.texts.append(("text", text))
            section.texts += [(f"button{i}", label) for i, label in enumerate(labels, 1)]
        return section

    @staticmethod
    def sequence(events: list[Section], tail: list[str] | tuple[str, ...] = ()) -> list[str]:
        """Events to run in turn (any may be disabled and is then skipped) in; their names out.
        Every button of each event leads on to the events after it, then to `tail`; an event
        whose lists are `fixed` (an ending) keeps them, and is the last to run."""
        names = [e.name for e in events] + list(tail)
        for i, event in enumerate(events):
            if not event.fixed:
                event.next = [list(names[i + 1 :]) for _ in event.next]
        return names

    # the quest -------------------------------------------------------------------------
    def run(self) -> ValkyrieQuest:
        first = self.encounters[0]
        starts = [self.encounter_start(i) for i in range(len(self.encounters))]
        start = self.event("EventStart", trigger="EventStart")
        start.next, start.fixed = [[starts[0]]], True
        rounds = self.event("Event_Round", trigger="StartRound", ops=["round,+,1"])
        following = [self.following(index, starts) for index in range(len(self.encounters))]
        # encounter number (1-based) -> the numbers of the encounters whose endings lead to it (0: the start)
        self.leading_to: dict[int, tuple[int, ...]] = {1: (0,)}
        for index, leads in enumerate(following):
            for target in {v[0] for v in leads.values() if v is not None}:
                number = starts.index(target) + 1
                if (index + 1) in self._chosen(index, leads, target):
                    self.leading_to[number] = tuple(sorted({*self.leading_to.get(number, ()), index + 1}))
        for index, encounter in enumerate(self.encounters):
            _Encounter(self, encounter, index + 1, len(self.encounters) > 1, following[index]).run(starts[index])
        self.sequence([rounds, *self.round_events, self.event("Event_Round_Check", ops=["@check,=,1"])])
        low = max(1, max(e.players[0] for e in self.encounters) - 1)
        high = min(MAX_HEROES, min(e.players[1] for e in self.encounters) - 1)
        header = [
            ("format", str(FORMAT)),
            ("hidden", "False"),
            ("type", "D2E"),
            ("defaultlanguage", "English"),
            ("minhero", str(low)),
            ("maxhero", str(max(low, high))),
        ]
        if first.version:
            header.append(("version", _one_line(first.version)))
        texts = [("quest.name", self.title())]
        if first.intro:
            texts += [
                ("quest.synopsys", _one_line(words.paragraphs(first.intro).split("\n\n")[0])),
                ("quest.description", words.paragraphs(first.intro)),
            ]
        if first.author:
            texts += [("quest.authors", first.author), ("quest.authors_short", _one_line(first.author))]
        return ValkyrieQuest(header, texts, self.sections)

    def title(self) -> str:
        """The Valkyrie quest's name: the quest's title; for several encounters, the words their
        titles share (cut at a word and before a roman numeral), else the first one's title."""
        from questc.words import shared_title

        return shared_title([e.title for e in self.encounters])

    def following(self, index: int, starts: list[str]) -> dict[str | None, tuple[str, str] | None]:
        """What comes after encounter `index` (0-based): its label or None (a victory naming no next
        encounter) -> (the first event of the encounter it leads to, that encounter's label); None
        for the last. Without labels the encounters follow each other in order."""
        own = self.encounters[index]
        out: dict[str | None, tuple[str, str] | None] = {}
        for i, other in enumerate(self.encounters):
            if other.label is not None:
                out[other.label] = (starts[i], other.label)
        if own.encounter is not None and any(e.encounter is not None for e in self.encounters):
            nxt = next((i for i, e in enumerate(self.encounters) if e.encounter == own.encounter + 1), None)
        else:
            nxt = index + 1 if index + 1 < len(self.encounters) else None
        out[None] = (starts[nxt], self.encounters[nxt].label or str(nxt + 1)) if nxt is not None else None
        return out

    def _chosen(self, index: int, leads: dict, target: str) -> set[int]:
        """{index + 1} when one of encounter `index`'s victories (or its `win` effects) leads to `target`:
        a victory naming it, or one naming none when `target` is the next in order."""
        encounter = self.encounters[index]
        nexts = {v.next for v in encounter.victories}
        if any(leads.get(n) is not None and leads[n][0] == target for n in nexts if n is not None):
            return {index + 1}
        if (
            leads.get(None) is not None
            and leads[None][0] == target
            and (
                None in nexts
                or not encounter.victories
                or any(e.kind == "win" for t in encounter.triggers for e in t.effects)
            )
        ):
            return {index + 1}
        return set()

    def encounter_start(self, index: int) -> str:
        """The name of the first event of encounter `index` (0-based): its introduction."""
        return f"Event_{self.scope(index + 1)}Intro"

    def scope(self, number: int) -> str:
        return f"E{number}_" if len(self.encounters) > 1 else ""


class _Encounter:
    """One encounter's components and events, made by the quest's translator."""

    def __init__(
        self,
        quest: _Translator,
        encounter: Encounter,
        number: int,
        several: bool,
        following: dict[str | None, tuple[str, str] | None],
    ) -> None:
        self.q = quest
        self.e = encounter
        self.k = number
        self.s = quest.scope(number)
        self.v = f"e{number}_"
        self.several = several
        self.following = following  # a victory's `next` (None: none written) -> (first event, label)
        nxt = following[None]
        self.after = nxt[0] if nxt is not None else None  # the next encounter's first event
        self.last = self.after is None
        self.heroes = (max(1, encounter.players[0] - 1), min(MAX_HEROES, encounter.players[1] - 1))
        self.tile_of: dict[str, str] = {}  # piece id -> its Valkyrie tile
        self.door_names = {d.id: f"Door_{self.s}{d.id}" for d in encounter.doors}
        self.tokens_of: dict[str, list[str]] = {a.id: [] for a in encounter.areas}
        self.spawns_of: dict[str, list[Section]] = {a.id: [] for a in encounter.areas}
        self.custom: dict[str, str] = {}  # named id -> its CustomMonster
        self.killable: dict[str, str] = {}  # named or lieutenant id -> the Defeated trigger
        used = set().union(*(counters(v.when) for v in encounter.victories)) if encounter.victories else set()
        self.overlord_objectives = any(
            "objectives" in counters(v.when) for v in encounter.victories if v.side == "overlord"
        )
        self.asks_exit = "exited" in used
        self.tokens_by_id: dict[str, list[str]] = {}  # a named token -> its Token components
        self.foes: dict[str, str] = {}  # what `defeated` names -> Valkyrie's Defeated trigger

    def report(self, diagnostic: Diagnostic) -> None:
        self.q.diagnostics.append(diagnostic)

    def encounter_test(self, number: int | tuple[int, ...] | None = None) -> list[str]:
        """The test that the encounter playing is `number` (this one's when None; any of a tuple's)."""
        numbers = (self.k,) if number is None else (number,) if isinstance(number, int) else number
        out: list[str] = []
        for n in numbers:
            out += (["VarTestsLogicalOperator:OR"] if out else []) + [f"VarOperation:encounter,==,{n}"]
        return out

    def event(self, name: str, *, tests: str = "", during: int | tuple[int, ...] | None = None, **given) -> Section:
        """An event of this encounter. With several encounters it runs only during its own
        (`during`: another encounter's number, for the introduction that the previous one's
        ending leads to), so an event left queued when an encounter ends never runs in the next."""
        if self.several:
            tests = tests_of(self.encounter_test(during), tests.split())
        return self.q.event(name, tests=tests, **given)

    # ---- the run ---------------------------------------------------------------------
    def run(self, intro_name: str) -> None:
        e = self.e
        if e.reveal == "sight":
            self.report(Q704.at(e.reveal_span or e.header))
        if e.act == 2:
            self.report(
                Q706.at(
                    e.act_span or e.header,
                    what="play act II cards",
                    how="its monsters and lieutenants fight with their act I characteristics",
                    help_text="tell the players in the quest's `special` rules, or play it from the printed guide",
                )
            )
        self.tiles()
        self.doors()
        self.tokens()
        self.token_sets()
        self.monsters()
        self.groups()
        start_region = self.start_region()
        reveals = {a.id: self.reveal_event(a, a.id in start_region) for a in e.areas}
        self.door_events()
        self.killed_events()
        self.defeated_events()
        self.round_events()
        self.recurring_events()
        self.exit_event()
        self.carried_events()
        self.victory_events()
        # The start: introduction, rules, setup, the start areas' reveals, the heroes placed.
        intro_text = ""
        if self.several:
            intro_text = words.ENCOUNTER.format(number=self.k, title=e.title)
        if e.intro:
            intro_text = (intro_text + "\n\n" if intro_text else "") + words.paragraphs(e.intro)
        # The introduction and setup run while the number of an encounter that leads here is set.
        before = self.q.leading_to.get(self.k, (self.k - 1,))
        steps = [self.event(intro_name, text=intro_text or None, during=before)]
        if e.special:
            steps.append(
                self.event(
                    f"Event_{self.s}Rules",
                    during=before,
                    text=words.SPECIAL_RULES + "\n\n" + words.paragraphs(e.special),
                )
            )
        setup_ops = [f"encounter,=,{self.k}", f"round,=,{0 if self.k == 1 else 1}"]
        setup_ops += [f"{self.v}{name},=,0" for name in ("objectives", "objectives_overlord", "exited")]
        setup_ops += [f"{self.v}{counter.id},=,0" for counter in e.counters]
        carried_text = []
        for token in e.token_sets:
            if token.placement == "carried":
                most = max((c for _h, c in token.counts), default=1)
                setup_ops.append(f"{self.v}objectives,+,{most}")
                carried_text.append(words.CARRIED.format(name=token.name))
        steps.append(
            self.event(
                f"Event_{self.s}Setup",
                ops=setup_ops,
                during=before,
                text="\n\n".join(carried_text) if carried_text else None,
                remove=["#boardcomponents", "#monsters"] if self.k > 1 else [],
            )
        )
        order = [a.id for a in e.areas if a.start] + [a.id for a in e.areas if not a.start]
        for area in order:
            if area in start_region:
                steps += reveals[area]
        steps.append(self.begin_event())
        self.q.sequence(steps)

    # ---- map -------------------------------------------------------------------------
    def tiles(self) -> None:
        e = self.e
        pieces = {p.id: p for p in e.pieces}
        pairs = self.pair_13a(pieces)
        letters = [p.tile[-1] for p in e.pieces if p.tile]
        majority = "B" if letters.count("B") > letters.count("A") else "A"
        for piece in e.pieces:
            if piece.type in content.TILE_13A:
                if piece.id not in pairs:
                    continue
                partner, placement = pairs[piece.id]
                if piece.type != "tile_13a2":
                    self.tile_of[piece.id] = f"Tile_{self.s}{partner}"
                    continue
                name = f"Tile_{self.s}{piece.id}"
                self.tile_of[piece.id] = name
                self.tile_section(name, "TileSide13A", placement)
                continue
            side = content.tile_side(piece.type, self.side_letter(piece, pieces, majority))
            if side is None or piece.set != "second_edition":
                self.report(Q701.at(piece.span, what="the map piece", name=piece.type))
                continue
            name = f"Tile_{self.s}{piece.id}"
            self.tile_of[piece.id] = name
            self.tile_section(name, side, geometry.tile_placement(piece.at, piece.turn, piece.width, piece.height))

    def tile_section(self, name: str, side: str, placement: geometry.Placement) -> None:
        section = self.q.section(name, "tiles.ini")
        section.entries = [("xposition", str(placement.x)), ("yposition", str(placement.y)), ("side", side)]
        if placement.rotation:
            section.entries.append(("rotation", str(placement.rotation)))

    def pair_13a(self, pieces: dict[str, Piece]) -> dict[str, tuple[str, geometry.Placement]]:
        """13A's parts in; each part paired with the other where the tile has it, and the whole
        side's placement, out. A part without its partner is Q702."""
        from questc.catalog import builtin_catalog

        strip = builtin_catalog().lookup("piece", "tile_13a1")
        out: dict[str, tuple[str, geometry.Placement]] = {}
        strips = [p for p in pieces.values() if p.type == "tile_13a1"]
        for body in (p for p in pieces.values() if p.type == "tile_13a2"):
            whole = geometry.whole_13a("tile_13a2", body.at, body.turn)
            want = strip.placed(geometry.part_of_13a("tile_13a1", whole, body.turn), body.turn).cells
            partner = next((p for p in strips if p.cells == want and p.id not in out), None)
            if partner is None:
                x, y = min(want)[0], min(c[1] for c in want)
                turn = f" turn {body.turn}" if body.turn else ""
                self.report(
                    Q702.at(
                        body.span,
                        piece=body.id,
                        other="its strip `tile_13a1`",
                        help_text=f"add `piece S tile_13a1 at {x},{y}{turn}`: the strip of 13A where the tile has it",
                    )
                )
                continue
            placement = geometry.tile_placement(whole, body.turn, *content.TILE_13A_BOX)
            out[body.id] = (partner.id, placement)
            out[partner.id] = (body.id, placement)
        for part in strips:
            if part.id not in out:
                self.report(
                    Q702.at(
                        part.span,
                        piece=part.id,
                        other="the rest of the tile, `tile_13a2`",
                        help_text="place `tile_13a2` with this strip along its north edge, one space "
                        "in from its west side (the strip at X+1,Y-1 when tile_13a2 is at X,Y)",
                    )
                )
        return out

    def side_letter(self, piece: Piece, pieces: dict[str, Piece], majority: str) -> str:
        """The A or B side to show a small piece on: that of the numbered tile it joins, else the
        side most of the encounter's tiles show."""
        if piece.tile:
            return piece.tile[-1]
        for a, b in self.e.joints:
            other = b if a == piece.id else a if b == piece.id else None
            if other is not None and pieces[other].tile:
                return pieces[other].tile[-1]  # type: ignore[index]
        return majority

    def doors(self) -> None:
        for door in self.e.doors:
            placement = geometry.door_at(door.edges)
            section = self.q.event(
                self.door_names[door.id],
                file="doors.ini",
                text=words.DOOR.format(name=words.capital(door.name)),
                buttons=[words.OPEN],
                at=(placement.x, placement.y),
            )
            if placement.rotation:
                section.entries.insert(2, ("rotation", str(placement.rotation)))
            section.next, section.fixed = [[f"Event_{self.s}Open_{door.id}"]], True

    def tokens(self) -> None:
        counts: dict[str, int] = {}
        for token in self.e.tokens:
            counts[token.kind] = counts.get(token.kind, 0) + 1
            label = f"{token.kind.capitalize()}{counts[token.kind]}"
            name = f"Token_{self.s}{label}"
            at = geometry.square(token.at)
            if token.kind == "objective":
                colour = f" ({token.variant})" if token.variant else ""
                text = words.OBJECTIVE_TOKEN.format(colour=colour)
                buttons = [words.PICK_UP_HERO]
                if self.overlord_objectives:
                    text += words.OBJECTIVE_TOKEN_MONSTERS
                    buttons.append(words.PICK_UP_MONSTER)
                kind = content.OBJECTIVES[token.variant]
            elif token.kind == "search":
                text, buttons, kind = words.SEARCH_TOKEN, [words.SEARCH], content.TOKEN_KINDS["search"]
            else:
                text, buttons, kind = words.VILLAGER_TOKEN, [words.CLOSE], content.TOKEN_KINDS["villager"]
            if token.name:
                text = f"<b>{token.name}</b>\n\n{text}"
            section = self.q.event(name, file="tokens.ini", text=text, buttons=buttons, at=at)
            section.extra = [("type", kind)]
            self.tokens_of[token.area].append(name)
            if token.id is not None:
                self.tokens_by_id.setdefault(token.id, []).append(name)
            if token.kind == "search":
                taken = self.event(f"Event_{self.s}{label}_Searched", remove=[name])
                section.next, section.fixed = [[taken.name]], True
            elif token.kind == "objective":
                sides = [("heroes", "objectives")] + (
                    [("monster", "objectives_overlord")] if self.overlord_objectives else []
                )
                section.next, section.fixed = [], True
                for who, counter in sides:
                    taken = self.event(
                        f"Event_{self.s}{label}_Taken_{who}",
                        remove=[name],
                        ops=[f"{self.v}{counter},+,1", "@check,=,1"],
                    )
                    section.next.append([taken.name])

    def token_component(self, name: str, kind: str, colour: str | None, at, title: str | None = None) -> Section:
        """A Token component (added to the map by whatever shows it): a token of `kind` at `at`."""
        if kind == "objective":
            text = words.OBJECTIVE_TOKEN.format(colour=f" ({colour})" if colour else "")
            buttons, variant = [words.PICK_UP_HERO], content.OBJECTIVES[colour]
        elif kind == "search":
            text, buttons, variant = words.SEARCH_TOKEN, [words.SEARCH], content.TOKEN_KINDS["search"]
        else:
            text, buttons, variant = words.VILLAGER_TOKEN, [words.CLOSE], content.TOKEN_KINDS["villager"]
        if title:
            text = f"<b>{title}</b>\n\n{text}"
        section = self.q.event(name, file="tokens.ini", text=text, buttons=buttons, at=geometry.square(at))
        section.extra = [("type", variant)]
        if kind == "search":
            taken = self.event(f"{name.replace('Token_', 'Event_', 1)}_Searched", remove=[name])
            section.next, section.fixed = [[taken.name]], True
        elif kind == "objective":
            taken = self.event(
                f"{name.replace('Token_', 'Event_', 1)}_Taken",
                remove=[name],
                ops=[f"{self.v}objectives,+,1", "@check,=,1"],
            )
            section.next, section.fixed = [[taken.name]], True
        return section

    def token_sets(self) -> None:
        """Tokens the overlord places (`on` pieces, `among` points): Valkyrie places them on the first
        free spaces (nearest the pieces' middle), as many as the number of heroes asks, each number's
        by an event of the area's setup. `among` is at random on the table, not in the app: Q706."""
        for index, token in enumerate(self.e.token_sets, 1):
            if token.placement == "carried":
                continue
            if token.placement == "among":
                self.report(
                    Q706.at(
                        token.span,
                        what="place tokens at random",
                        how="it places them on the first of the spaces listed",
                        help_text="list only the spaces the tokens go on, or keep the random choice "
                        "for the printed guide",
                    )
                )
            most = max((c for _h, c in token.counts), default=0)
            names = []
            for i, cell in enumerate(token.cells[:most], 1):
                name = f"Token_{self.s}{token.kind.capitalize()}Set{index}_{i}"
                self.token_component(name, token.kind, token.variant, cell, token.name if token.id else None)
                names.append(name)
                if token.id is not None:
                    self.tokens_by_id.setdefault(token.id, []).append(name)
            by_count: dict[int, list[int]] = {}
            for heroes, count in token.counts:
                by_count.setdefault(min(count, len(names)), []).append(heroes)
            for count, counted in sorted(by_count.items()):
                if not count:
                    continue
                tests = " VarTestsLogicalOperator:OR ".join(f"VarOperation:#heroes,==,{h}" for h in counted)
                self.spawns_of[token.area].append(
                    self.event(
                        f"Event_{self.s}TokenSet{index}_{count}",
                        add=names[:count],
                        tests=tests if len(counted) < len(token.counts) else "",
                    )
                )

    # ---- monsters --------------------------------------------------------------------
    def monster_name(self, figure_type: str, figure_set: str, span) -> tuple[str, str] | None:
        """A catalog monster type in; Valkyrie's name and size trait out, or None (Q701 reported)."""
        known = content.MONSTERS.get(figure_type)
        if known is None or figure_set != "second_edition":
            self.report(Q701.at(span, what="the monster", name=figure_type))
            return None
        return known

    def placements(self, figures: list[Figure], prefix: str, trait: str) -> tuple[list[str], dict[int, list[str]]]:
        """Figures in; their MPlace sections' names and, per hero count, the names placed out."""
        names = []
        per_heroes: dict[int, list[str]] = {h: [] for h in range(self.heroes[0], self.heroes[1] + 1)}
        for i, figure in enumerate(figures, 1):
            placement, rotate = geometry.figure_place(figure.at, figure.size, content.SIZES[trait])
            name = f"MPlace_{prefix}{'_' + str(i) if len(figures) > 1 else ''}"
            section = self.q.section(name, "spawns.ini")
            section.entries = [("xposition", str(placement.x)), ("yposition", str(placement.y))]
            if figure.rank in ("master", "lieutenant"):  # a lieutenant is drawn as its group's leader
                section.entries.append(("master", "true"))
            if rotate:
                section.entries.append(("rotate", "true"))
            names.append(name)
            low, high = figure.players or (1, 99)
            for h in per_heroes:
                if low <= h + 1 <= high:
                    per_heroes[h].append(name)
        return names, per_heroes

    def spawn(
        self,
        name: str,
        monster: str,
        text: str,
        per_heroes: dict[int, list[str]],
        at: tuple[int, int],
        extra: tuple[tuple[str, str], ...] = (),
        guard: str = "",
    ) -> Section:
        """A Spawn: the group `monster`, its placements per hero count; tested so it runs only for
        the hero counts that place a figure (and when `guard` holds)."""
        counts = [h for h, placed in per_heroes.items() if placed]
        heroes: list[str] = []
        if counts != list(per_heroes):
            heroes = (
                " VarTestsLogicalOperator:OR ".join(f"VarOperation:#heroes,==,{h}" for h in counts).split()
                if counts
                else ["VarOperation:#heroes,<,0"]
            )
        section = self.event(name, file="spawns.ini", text=text, at=at, tests=tests_of(guard.split(), heroes))
        section.extra = (
            ([("monster", monster)] if monster else [])
            + [(f"placement{h}", " ".join(placed)) for h, placed in per_heroes.items() if placed]
            + list(extra)
        )
        return section

    def monsters(self) -> None:
        e = self.e
        groups: dict[tuple[str, str], list[Figure]] = {}
        for figure in e.figures:
            if figure.rank in ("normal", "master"):
                groups.setdefault((figure.area, figure.type), []).append(figure)
        done: set[tuple[str, str]] = set()
        for figure in e.figures:
            if figure.rank in ("normal", "master"):
                key = (figure.area, figure.type)
                if key in done:
                    continue
                done.add(key)
                known = self.monster_name(figure.type, figure.set, figure.span)
                if known is None:
                    continue
                prefix = f"{self.s}{figure.area}_{figure.type}"
                _, per_heroes = self.placements(groups[key], prefix, known[1])
                first = geometry.square(groups[key][0].at)
                self.spawns_of[figure.area].append(
                    self.spawn(
                        f"Spawn_{prefix}",
                        known[0],
                        words.PLACE_GROUP.format(monsters=words.monsters(figure.type)),
                        per_heroes,
                        first,
                    )
                )
            elif figure.rank == "named":
                self.named_spawn(figure)
            elif figure.rank == "lieutenant":
                monster = content.LIEUTENANTS.get(figure.type)
                if monster is None:
                    self.report(Q701.at(figure.span, what="the lieutenant", name=figure.type))
                    continue
                prefix = f"{self.s}{figure.type}"
                _, per_heroes = self.placements([figure], prefix, "small")
                self.killable[figure.type] = "Defeated" + monster
                self.spawns_of[figure.area].append(
                    self.spawn(
                        f"Spawn_{prefix}",
                        monster,
                        words.PLACE_ONE.format(name=words.lieutenant(figure.type)),
                        per_heroes,
                        geometry.square(figure.at),
                    )
                )

    def group_places(self, group: Group, count: int, prefix: str, trait: str, master_first: int) -> list[Figure]:
        """The figures of a group the overlord places, `count` of them, on its free spaces nearest the middle
        (a large figure where its footprint fits); the first `master_first` are masters."""
        w, h = content.SIZES[trait]
        free = set(group.cells)
        taken: set[tuple[int, int]] = set()
        figures: list[Figure] = []
        for cell in group.cells:
            if len(figures) == count:
                break
            cells = {(cell[0] + dx, cell[1] + dy) for dx in range(w) for dy in range(h)}
            if cells <= free and not cells & taken:
                taken |= cells
                rank = "master" if len(figures) < master_first else "normal"
                figures.append(Figure(group.type, group.set, rank, cell, (w, h), None, group.area, None, group.span))
        return figures

    def groups(self) -> None:
        """The groups the overlord places himself: a Spawn each, its figures on the free spaces of its place
        nearest the middle for each number of heroes (masters first), as the monster card sizes the group;
        an open group is Valkyrie's choice among the monsters with one of the quest's traits."""
        for group in self.e.groups:
            prefix = f"{self.s}{group.area}_{group.id}"
            if group.kind == "lieutenant":
                monster = content.LIEUTENANTS.get(group.type)
                if monster is None:
                    self.report(Q701.at(group.span, what="the lieutenant", name=group.type))
                    continue
                figures = self.group_places(group, 1, prefix, "small", 1)
                _, alone = self.placements([replace(f, rank="lieutenant") for f in figures], prefix, "small")
                self.killable[group.type] = self.foes[group.id] = "Defeated" + monster
                self.spawns_of[group.area].append(
                    self.spawn(
                        f"Spawn_{prefix}",
                        monster,
                        words.PLACE_ON.format(what=words.lieutenant(group.type), where=group.where),
                        alone,
                        geometry.square(figures[0].at) if figures else geometry.square(group.cells[0]),
                    )
                )
                continue
            if group.kind == "open":
                monster, trait = "", "small"
            else:
                known = self.monster_name(group.type, group.set, group.span)
                if known is None:
                    continue
                monster, trait = known
                self.foes[group.id] = "Defeated" + monster
            per_heroes: dict[int, list[str]] = {h: [] for h in range(self.heroes[0], self.heroes[1] + 1)}
            for heroes, minions, masters in group.sizes:
                if heroes not in per_heroes:
                    continue
                if group.kind == "open":  # the monster is Valkyrie's choice: a small group's figures
                    minions, masters = heroes, 1
                figures = self.group_places(group, minions + masters, f"{prefix}_{heroes}", trait, masters)
                names, _ = self.placements(figures, f"{prefix}_{heroes}", trait)
                per_heroes[heroes] = names
            text = (
                words.PLACE_OPEN.format(traits=", ".join(group.traits), where=group.where)
                if group.kind == "open"
                else words.PLACE_ON.format(what=f"the {words.monsters(group.type)}", where=group.where)
            )
            if group.changes:
                text += "\n\n" + words.GROUP_CHANGES.format(changes=", ".join(group.changes))
                self.report(
                    Q706.at(
                        group.span,
                        what="change a whole group's characteristics",
                        how=f"the players are told ({', '.join(group.changes)}) and keep count",
                        help_text="keep the change for the printed guide, or accept that the app shows it as text",
                    )
                )
            extra = (("traitpool", " ".join(group.traits)),) if group.kind == "open" else ()
            at = geometry.square(group.cells[0]) if group.cells else (0, 0)
            self.spawns_of[group.area].append(self.spawn(f"Spawn_{prefix}", monster, text, per_heroes, at, extra=extra))
        for figure in self.e.figures:  # monsters placed at points: `defeated TYPE` counts them too
            known = content.MONSTERS.get(figure.type)
            if figure.rank in ("normal", "master") and known is not None:
                self.foes.setdefault(figure.type, "Defeated" + known[0])
        for target, trigger in self.killable.items():
            self.foes.setdefault(target, trigger)

    def named_spawn(self, figure: Figure) -> None:
        named = next(n for n in self.e.named if n.id == figure.named)
        known = self.monster_name(named.type, named.set, named.span)
        if known is None:
            return
        custom = f"CustomMonster_{self.s}{named.id}"
        section = self.q.section(custom, "monsters.ini")
        section.entries = [("base", known[0])]
        section.texts = [("monstername", named.name)] + ([("info", "\n".join(named.rules))] if named.rules else [])
        self.custom[named.id] = custom
        self.killable[named.id] = "DefeatedUnique" + custom
        prefix = f"{self.s}{named.id}"
        _, per_heroes = self.placements([figure], prefix, known[1])
        for placed in per_heroes.values():
            for name in placed:  # the named monster stands on its type's master figure
                section_of = next(s for s in self.q.sections if s.name == name)
                if ("master", "true") not in section_of.entries:
                    section_of.entries.insert(2, ("master", "true"))
        spawn = self.spawn(
            f"Spawn_{prefix}",
            custom,
            words.PLACE_NAMED.format(name=named.name, monster=named.type.replace("_", " ")),
            per_heroes,
            geometry.square(figure.at),
            extra=(("unique", "true"), ("uniquehealth", str(named.wounds or 0)), ("uniquehealthhero", "0")),
        )
        spawn.texts += [("uniquetitle", named.name), ("uniquetext", "\n".join(named.rules) or named.name)]
        self.spawns_of[figure.area].append(spawn)

    # ---- reveals ---------------------------------------------------------------------
    def start_region(self) -> set[str]:
        """The areas shown at the setup: every area (the whole map, the second edition's rule),
        or with `reveal door`/`sight` the start area and the areas it joins without a door."""
        areas = {a.id: a for a in self.e.areas}
        if self.e.reveal == "all":
            return set(areas)
        region = {a.id for a in self.e.areas if a.start}
        todo = list(region)
        while todo:
            for other in areas[todo.pop()].neighbours:
                if other not in region:
                    region.add(other)
                    todo.append(other)
        return region

    def reveal_event(self, area, in_start: bool) -> list[Section]:
        """Area `area`'s reveal: its event (its pieces, doors and tokens added, its text read) and
        the Spawns and `on reveal` effects that follow; the list of them, in order."""
        e = self.e
        add = list(dict.fromkeys(self.tile_of[p] for p in area.pieces if p in self.tile_of))
        add += [self.door_names[d.id] for d in e.doors if area.id in d.areas]
        add += self.tokens_of[area.id]
        text = None
        if area.read:
            text = f"<b>{area.name}</b>\n\n" + "\n\n".join(words.paragraphs(r) for r in area.read)
        ops = [f"{self.v}revealed_{area.id},=,1"]
        if e.reveal != "all" and not in_start:
            ops += [f"@reveal_{self.v}{other},=,1" for other in area.neighbours]
        cell = next((c for p in e.pieces if p.id in area.pieces for c in sorted(p.cells)), None)
        comment = _one_line(" ".join(area.notes)) if area.notes else ""
        event = self.q.event(
            f"Event_{self.s}Reveal_{area.id}",
            text=text,
            ops=ops,
            add=add,
            trigger=f"Varreveal_{self.v}{area.id}",
            comment=comment,
            tests=tests_of(self.encounter_test(), [f"VarOperation:{self.v}revealed_{area.id},==,0"]),
            at=geometry.square(cell) if cell else None,
        )
        after = list(self.spawns_of[area.id])
        for trigger in self.e.triggers:
            if trigger.event == "reveal" and trigger.target == area.id:
                after += self.effects(trigger.effects, self.label(trigger))
        steps = [event] + after
        if not in_start:  # revealed on its own (a door, an effect): its sequence ends with it
            self.q.sequence(steps + [self.check(f"Reveal_{area.id}")])
        return steps

    def check(self, label: str) -> Section:
        """The last event of a sequence that changed what victories test: it asks for them to be
        tested (`@check`) once everything before it has happened, so a victory never cuts the
        sequence short (the text read when a lieutenant dies comes before the quest ends)."""
        return self.event(f"Event_{self.s}{label}_Check", ops=["@check,=,1"])

    # ---- events ----------------------------------------------------------------------
    def label(self, trigger) -> str:
        """A trigger in; the name its events are called by: OnKilled_splig, OnRound3, OnOpen_gate
        (a second trigger of the same kind and target adds its place: OnRound3_T5)."""
        if trigger.event == "each":  # EndOfOverlordTurn, StartOfRound
            name = f"{trigger.phase.capitalize()}Of{''.join(w.capitalize() for w in trigger.every.split())}"
        else:
            name = f"On{trigger.event.capitalize()}" + (
                str(trigger.round) if trigger.event == "round" else f"_{trigger.target}"
            )
        alike = [
            t
            for t in self.e.triggers
            if (t.event, t.target, t.round, t.phase, t.every)
            == (trigger.event, trigger.target, trigger.round, trigger.phase, trigger.every)
        ]
        return name if alike[0] is trigger else f"{name}_T{self.e.triggers.index(trigger) + 1}"

    def door_events(self) -> None:
        for door in self.e.doors:
            ops = [f"{self.v}opened_{door.id},=,1"]
            if self.e.reveal != "all":
                ops += [f"@reveal_{self.v}{area},=,1" for area in door.areas]
            opened = self.q.event(
                f"Event_{self.s}Open_{door.id}",
                ops=ops,
                remove=[self.door_names[door.id]],
                trigger=f"Varopen_{self.v}{door.id}",
                tests=tests_of(self.encounter_test(), [f"VarOperation:{self.v}opened_{door.id},==,0"]),
            )
            after: list[Section] = []
            for trigger in self.e.triggers:
                if trigger.event == "open" and trigger.target == door.id:
                    after += self.effects(trigger.effects, self.label(trigger))
            self.q.sequence([opened] + after + [self.check(f"Open_{door.id}")])

    def killed_events(self) -> None:
        wanted = [t.target for t in self.e.triggers if t.event == "killed"]
        for victory in self.e.victories:
            wanted += [c.split(":", 1)[1] for c in sorted(counters(victory.when)) if c.startswith("killed:")]
        for target in dict.fromkeys(w for w in wanted if w):
            trigger = self.killable.get(target)
            if trigger is None:
                continue
            killed = self.q.event(
                f"Event_{self.s}Killed_{target}",
                trigger=trigger,
                tests=tests_of(self.encounter_test()),
                ops=[f"{self.v}killed_{target},=,1"],
            )
            after: list[Section] = []
            for t in self.e.triggers:
                if t.event == "killed" and t.target == target:
                    after += self.effects(t.effects, self.label(t))
            self.q.sequence([killed] + after + [self.check(f"Killed_{target}")])

    def defeated_events(self) -> None:
        """`defeated NAME` and `on defeated NAME`: Valkyrie's Defeated trigger of the group's monster (or the
        lieutenant, the named monster) sets a variable; `defeated all` counts them against the number of foes."""
        wanted = [t.target for t in self.e.triggers if t.event == "defeated"]
        for victory in self.e.victories:
            wanted += [c.split(":", 1)[1] for c in sorted(counters(victory.when)) if c.startswith("defeated:")]
        if "all" in wanted:
            wanted += list(self.foes)
        for target in dict.fromkeys(w for w in wanted if w and w != "all"):
            trigger = self.foes.get(target)
            if trigger is None:
                continue
            defeated = self.q.event(
                f"Event_{self.s}Defeated_{target}",
                trigger=trigger,
                tests=tests_of(self.encounter_test(), [f"VarOperation:{self.v}defeated_{target},==,0"]),
                ops=[f"{self.v}defeated_{target},=,1", f"{self.v}defeated_all,+,1"],
            )
            after: list[Section] = []
            for t in self.e.triggers:
                if t.event == "defeated" and t.target == target:
                    after += self.effects(t.effects, self.label(t))
            self.q.sequence([defeated] + after + [self.check(f"Defeated_{target}")])

    def recurring_events(self) -> None:
        """`at start|end of each round|overlord turn|hero turn { }`: the start of each round runs with the
        round's other events; its end and the overlord's turn (the round's last) at Valkyrie's EndRound.
        Valkyrie has no hero turns: such a rule runs at the start of each round (Q706)."""
        for trigger in self.e.triggers:
            if trigger.event != "each":
                continue
            where = (
                [a for a in _occurrences(trigger.condition) if a.event in ("on", "in")]
                if trigger.condition is not None
                else []
            )
            guard = _tests(trigger.condition, self.var("heroes")) if trigger.condition is not None and not where else []
            if trigger.every == "hero turn":
                self.report(
                    Q706.at(
                        trigger.span,
                        what="run a rule at each hero's turn",
                        how="it runs it once at the start of each round, and tells the players it is "
                        "theirs to apply at each hero's turn",
                        help_text="make it a rule of the round (`at start of each round`), or keep it "
                        "for the printed guide",
                    )
                )
            if trigger.every == "round" and trigger.phase == "start" or trigger.every == "hero turn":
                self.q.round_events += self.effects(trigger.effects, self.label(trigger), guard=guard)
                continue
            steps = self.effects(trigger.effects, self.label(trigger), guard=guard)
            if not steps:
                continue
            if where:  # Valkyrie does not see the figures: it asks the players whether the rule applies
                self.report(
                    Q706.at(
                        where[0].span,
                        what="see where the figures stand",
                        how="it asks the players whether the rule applies each time",
                        help_text="accept the question, or keep the rule for the printed guide",
                    )
                )
                first = self.event(
                    f"Event_{self.s}{self.label(trigger)}",
                    trigger="EndRound",
                    text=words.RULE_QUESTION.format(condition=trigger.words or ""),
                    buttons=[words.NO, words.YES],
                )
                names = self.q.sequence(steps + [self.check(self.label(trigger))])
                first.next, first.fixed = [[], names], True
                continue
            first = self.event(f"Event_{self.s}{self.label(trigger)}", trigger="EndRound")
            self.q.sequence([first] + steps + [self.check(self.label(trigger))])

    def carried_events(self) -> None:
        """`carried TOKEN to PLACE`: Valkyrie does not see the heroes move, so, as for the exit, it asks at
        the end of each round whether a hero carrying the token is there."""
        asked: set[tuple[str, str, str | None]] = set()
        for victory in self.e.victories:
            for atom in _occurrences(victory.when):
                if atom.event not in ("carried", "on", "in") or (atom.event, atom.target, atom.destination) in asked:
                    continue
                asked.add((atom.event, atom.target, atom.destination))
                where = self.place_words(atom.destination)
                if atom.event == "carried":
                    name = next((t.name for t in self.e.token_sets if t.id == atom.target), None) or next(
                        (t.name for t in self.e.tokens if t.id == atom.target and t.name), atom.target
                    )
                    text = words.CARRIED_QUESTION.format(name=name, where=where)
                else:
                    text = words.STANDS_QUESTION.format(name=atom.target.replace("_", " "), where=where)
                label = f"{atom.event.capitalize()}_{atom.target}_{atom.destination or 'edge'}"
                question = self.event(
                    f"Event_{self.s}{label}",
                    text=text,
                    trigger="EndRound",
                    buttons=[words.NO, words.YES],
                    tests=f"VarOperation:{self.carried_var(atom)},==,0",
                )
                yes = self.event(f"Event_{self.s}{label}_Yes", ops=[f"{self.carried_var(atom)},=,1", "@check,=,1"])
                question.next, question.fixed = [[], [yes.name]], True

    def carried_var(self, atom: Occurrence) -> str:
        """The variable an atom Valkyrie asks the players about is kept in (`carried`, `on`, `in`)."""
        return f"{self.v}{atom.event}_{atom.target}_{atom.destination or 'edge'}"

    def place_words(self, place: str | None) -> str:
        """An area or a piece (None: the map's edge) in the players' words."""
        if place is None:
            return words.OFF_THE_MAP
        area = next((a for a in self.e.areas if a.id == place), None)
        if area is not None:
            return area.name
        piece = next((p for p in self.e.pieces if p.id == place), None)
        return (f"tile {piece.tile}" if piece.tile else f"the {piece.kind.replace('_', ' ')}") if piece else place

    def round_events(self) -> None:
        """`on round N`: effects run in the sequence that follows each new round, each of their events
        tested for the round (and the encounter), so a block that is not due is skipped whole."""
        for trigger in self.e.triggers:
            if trigger.event == "round":
                self.q.round_events += self.effects(
                    trigger.effects, self.label(trigger), guard=[f"VarOperation:round,==,{trigger.round}"]
                )

    def exit_event(self) -> None:
        """Valkyrie does not see the heroes move: with a victory on `exited`, it asks at the end of
        each round how many heroes left the map from the exit."""
        if not self.asks_exit:
            return
        counts = list(range(1, self.heroes[1] + 1))
        asked = self.q.event(
            f"Event_{self.s}Exit",
            text=words.EXIT_QUESTION,
            trigger="EndRound",
            tests=tests_of(self.encounter_test()),
            buttons=[words.NO] + [words.HEROES_LEFT.format(count=_heroes(c)) for c in counts],
        )
        asked.next, asked.fixed = [[]], True
        for count in counts:
            left = self.event(f"Event_{self.s}Exit_{count}", ops=[f"{self.v}exited,+,{count}", "@check,=,1"])
            asked.next.append([left.name])

    def var(self, side: str):
        def name_of(atom) -> tuple[str, str, int]:
            if isinstance(atom, Occurrence):
                if atom.event in ("carried", "on", "in"):
                    return self.carried_var(atom), "=", 1
                if atom.event == "defeated" and atom.target == "all":
                    return f"{self.v}defeated_all", ">=", max(1, len(self.foes))
                return f"{self.v}{atom.event}_{atom.target}", "=", 1
            if atom.declared:
                return f"{self.v}{atom.counter}", atom.op, atom.value
            if atom.counter == "round":
                return "round", atom.op, atom.value
            if atom.counter == "objectives":
                return f"{self.v}objectives{'_overlord' if side == 'overlord' else ''}", atom.op, atom.value
            if atom.counter == "exited":
                return f"{self.v}exited", atom.op, atom.value
            return f"{self.v}{atom.counter}", atom.op, atom.value  # conquest: none in the second edition

        return name_of

    def ending(self, side: str, label: str | None, nxt: str | None = None) -> tuple[str, list[str], str, str | None]:
        """A side's win (leading to encounter `nxt`, None: the next in order) in; the dialog text,
        operations and button of its ending, and the event it leads to, out."""
        text = f"<b>{label}</b>\n\n" if label else ""
        text += words.SIDE_WINS[side] + " "
        following = self.following.get(nxt) if nxt is not None else self.following[None]
        if following is None:
            return text + words.QUEST_OVER, ["$end,=,1"], words.END_QUEST, None
        event, number = following
        return text + words.QUEST_GOES_ON.format(number=number), [], words.NEXT_ENCOUNTER.format(number=number), event

    def victory_events(self) -> None:
        # When two victories come true at once, Valkyrie runs the one written last first: the
        # events go in reverse, so the first victory of the quest wins a tie.
        numbered = list(enumerate(self.e.victories, 1))
        for number, victory in reversed(numbered):
            text, ops, button, after = self.ending(
                victory.side, victory.label or words.capital(victory.words), victory.next
            )
            event = self.q.event(
                f"Event_{self.s}Victory{number}",
                text=text,
                ops=ops,
                buttons=[button],
                trigger="Varcheck",
                tests=tests_of(self.encounter_test(), _tests(victory.when, self.var(victory.side))),
            )
            event.next, event.fixed = [[after] if after else []], True

    def win_event(self, name: str, side: str, tests: str = "") -> Section:
        """A `win` effect's ending: the side's dialog, then the next encounter or the quest's end."""
        text, ops, button, after = self.ending(side, None)
        event = self.event(name, text=text, ops=ops, buttons=[button], tests=tests)
        event.next, event.fixed = [[after] if after else []], True
        return event

    def begin_event(self) -> Section:
        e = self.e
        start_area = next((a.name for a in e.areas if a.start), "")
        text = words.START[e.start_from].format(area=start_area)
        lines = []
        for victory in e.victories:
            what = f"{victory.label} ({victory.words})" if victory.label else victory.words
            form = words.HEROES_WIN_WHEN if victory.side == "heroes" else words.OVERLORD_WINS_WHEN
            lines.append(form.format(what=what))
        if lines:
            text += "\n\n" + words.VICTORY + "\n" + "\n".join(lines)
        at = geometry.square(e.start[0]) if e.start else None
        return self.event(f"Event_{self.s}Begin", text=text, at=at, highlight=at is not None, ops=["@check,=,1"])

    # ---- effects ---------------------------------------------------------------------
    def effects(self, effects: tuple[Effect, ...], label: str, guard: list[str] | None = None) -> list[Section]:
        """A block of effects in; the events that carry them out, in order (texts and state
        changes gathered into one event until a spawn, a placement or a win), each tested by `guard`
        when given."""
        tests = " ".join(guard or [])
        events: list[Section] = []
        pending: dict[str, list[str]] = {"text": [], "ops": [], "add": [], "remove": []}

        def flush() -> None:
            if any(pending.values()):
                text = "\n\n".join(pending["text"]) if pending["text"] else None
                events.append(
                    self.event(
                        f"Event_{self.s}{label}_Step{len(events) + 1}",
                        text=text,
                        tests=tests,
                        ops=list(pending["ops"]),
                        add=list(pending["add"]),
                        remove=list(pending["remove"]),
                    )
                )
            for value in pending.values():
                value.clear()

        for effect in effects:
            kind = effect.kind
            if kind == "read":
                pending["text"].append(words.paragraphs(effect.text))
            elif kind == "instruct":
                pending["text"].append(words.paragraphs(effect.text))
            elif kind == "coins":
                pending["text"].append(effect.words)
            elif kind in ("threat", "unlock", "treasure", "conquest", "unknown"):
                what = {
                    "threat": "threat for the overlord to spend",
                    "unlock": "rune doors or runekeys",
                    "treasure": "first edition treasure cards",
                    "conquest": "conquest tokens",
                    "unknown": "such effect",
                }[kind]
                self.report(
                    Q703.at(
                        effect.span,
                        what=what,
                        words=effect.words,
                        help_text="say what happens with `read` or `instruct`, in second edition terms, "
                        "or leave the effect out",
                    )
                )
                pending["text"].append(effect.words)
            elif kind == "open":
                pending["ops"].append(f"@open_{self.v}{effect.target},=,1")
            elif kind == "close":
                if effect.target in self.door_names:
                    pending["add"].append(self.door_names[effect.target])
                pending["ops"].append(f"{self.v}opened_{effect.target},=,0")
            elif kind == "reveal":
                pending["ops"].append(f"@reveal_{self.v}{effect.target},=,1")
            elif kind == "spawn":
                flush()
                events.append(self.spawn_effect(effect, f"{label}_Step{len(events) + 1}", tests))
            elif kind == "counter":
                pending["ops"].append(f"{self.v}{effect.target},{'+' if effect.relative else '='},{effect.amount}")
            elif kind == "remove":
                pending["remove"] += self.tokens_by_id.get(effect.target or "", [])
                pending["text"].append(effect.words)
            elif kind == "replace":
                names = self.tokens_by_id.get(effect.target or "", [])
                pending["remove"] += names
                for i, name in enumerate(names, 1):
                    cell = self.token_cell(name)
                    new = f"{name}_As{effect.monster.capitalize() if effect.monster else 'Token'}{i}"
                    if cell is not None and new not in self.q.names:
                        self.token_component(new, effect.monster or "search", effect.text, cell)
                    if new in self.q.names:
                        pending["add"].append(new)
            elif kind == "place":
                flush()
                events += self.place_effect(effect, f"{label}_Step{len(events) + 1}", tests)
            elif kind == "win":
                # The game (or this encounter) ends: what follows the win in the block never happens.
                flush()
                events.append(
                    self.win_event(f"Event_{self.s}{label}_Step{len(events) + 1}", effect.target or "heroes", tests)
                )
                return events
        flush()
        return events

    def token_cell(self, name: str) -> tuple[int, int] | None:
        """Where a Token component stands, in questc's cells."""
        section = next((x for x in self.q.sections if x.name == name), None)
        if section is None:
            return None
        entries = dict(section.entries)
        return geometry.cell_of(int(entries["xposition"]), int(entries["yposition"]))

    def place_effect(self, effect: Effect, label: str, tests: str) -> list[Section]:
        """`place ...`: monsters are a Spawn on the free spaces of the place, nearest its middle, as many as
        the number of heroes asks (Valkyrie counts no figures on the map: `up to` limits are told, Q706);
        tokens are Token components added there."""
        prefix = f"{self.s}{label}"
        if effect.target == "monster":
            known = self.monster_name(effect.monster or "", effect.monster_set or "", effect.span)
            if known is None:
                return [self.event(f"Event_{prefix}", text=effect.words, tests=tests)]
            if effect.limit is not None:
                self.report(
                    Q706.at(
                        effect.span,
                        what="count the figures on the map",
                        how="it places them and tells the players to keep to the limit",
                        help_text="leave the limit to the players, or keep it for the printed guide",
                    )
                )
            group = Group(
                "",
                "monster",
                effect.monster or "",
                effect.monster_set or "",
                effect.size,
                effect.cells if len(effect.cells) <= 1 else _middle_first(effect.cells),
                (),
                (),
                (),
                "",
                "",
                effect.span,
            )
            per_heroes: dict[int, list[str]] = {h: [] for h in range(self.heroes[0], self.heroes[1] + 1)}
            for heroes, count in effect.counts:
                if heroes in per_heroes:
                    figures = self.group_places(
                        group, count, f"{prefix}_{heroes}", known[1], count if effect.master else 0
                    )
                    per_heroes[heroes] = self.placements(figures, f"{prefix}_{heroes}", known[1])[0]
            text = words.PLACE_GROUP.format(monsters=words.monsters(effect.monster or ""))
            if effect.limit is not None:
                text = effect.words
            at = geometry.square(effect.cells[0]) if effect.cells else (0, 0)
            return [self.spawn(f"Spawn_{prefix}", known[0], text, per_heroes, at, guard=tests)]
        most = max((c for _h, c in effect.counts), default=1)
        names = []
        for i, cell in enumerate(_middle_first(effect.cells)[:most], 1):
            name = f"Token_{prefix}_{i}"
            self.token_component(name, effect.target or "search", effect.text, cell)
            names.append(name)
        events = []
        by_count: dict[int, list[int]] = {}
        for heroes, count in effect.counts:
            by_count.setdefault(min(count, len(names)), []).append(heroes)
        for count, counted in sorted(by_count.items()):
            if count:
                choice = " VarTestsLogicalOperator:OR ".join(f"VarOperation:#heroes,==,{h}" for h in counted)
                events.append(
                    self.event(
                        f"Event_{prefix}_{count}",
                        add=names[:count],
                        tests=tests_of(tests.split(), choice.split() if len(by_count) > 1 else []),
                    )
                )
        return events

    def spawn_effect(self, effect: Effect, label: str, tests: str = "") -> Section:
        known = self.monster_name(effect.monster or "", effect.monster_set or "", effect.span)
        prefix = f"{self.s}{label}"
        if known is None:
            return self.event(f"Event_{prefix}", text=effect.words, tests=tests)
        figures = [
            Figure(
                effect.monster or "",
                effect.monster_set or "",
                "master" if effect.master else "normal",
                cell,
                effect.size,
                None,
                "",
                None,
                effect.span,
            )
            for cell in effect.cells
        ]
        _, per_heroes = self.placements(figures, prefix, known[1])
        return self.spawn(
            f"Spawn_{prefix}",
            known[0],
            words.PLACE_GROUP.format(monsters=words.monsters(effect.monster or "")),
            per_heroes,
            geometry.square(effect.cells[0]),
            guard=tests,
        )


def _occurrences(condition: Condition) -> list[Occurrence]:
    """Every event atom of a condition, in order."""
    if isinstance(condition, Occurrence):
        return [condition]
    if isinstance(condition, Combined):
        return [atom for c in condition.operands for atom in _occurrences(c)]
    return []


def _middle_first(cells) -> tuple[tuple[int, int], ...]:
    """Cells in; those nearest their middle first."""
    from questc.emit.valkyrie.source import _nearest_middle

    return _nearest_middle(cells)


def _heroes(count: int) -> str:
    from questc.words import plural

    return plural(count, "hero", "heroes")


def _one_line(text: str) -> str:
    """A text in; one line of it an INI value keeps as it is (no line breaks, no quotes or spaces at
    either end)."""
    return " ".join(text.split()).strip('"').strip()


def translate(encounters: list[Encounter]) -> tuple[ValkyrieQuest, list[Diagnostic]]:
    """The encounters of one quest, in order, in; the Valkyrie quest and the export's diagnostics out."""
    translator = _Translator(encounters)
    quest = translator.run()
    return quest, translator.diagnostics
