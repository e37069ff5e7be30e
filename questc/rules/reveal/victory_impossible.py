"""Q307 victory-impossible: the code's descriptor and the check that finds it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.analysis import named_reachable
from questc.analysis.conditions import Bounds, Event, can_hold, literal_holds, literals
from questc.analysis.reach import counter_range, destination_cells, token_reachable, unreachable_foes
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity, Span
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.rules.reveal.facts import atom_area, rune_doors
from questc.syntax import nodes as n
from questc.words import plural

if TYPE_CHECKING:
    from questc.analysis.conditions import Literal
    from questc.analysis.reveal import Analysis
    from questc.board import Board
    from questc.model.quest import QuestModel

Q307 = Descriptor(
    code="Q307",
    name="victory-impossible",
    severity=Severity.ERROR,
    template="this victory condition can never become true: {reason}",
    label_template="{reason}",
    help_template="{help_text}",
    summary="A victory condition that can never become true.",
    explanation="""
The quest could never be won this way, whatever makes it so:

- a named monster, area, encounter or door the heroes can never reach, reveal, trigger
  or open (when the cause is an area no one can see into, Q301, or a thing out of
  reach in a revealed area, Q302, that error is reported, with this condition as a
  label);
- a rune door that nothing opens stands in the way (no runekey of its colour and no
  `unlock` or `open` effect: Q304 warns about the door, this error about the victory);
- a count no game reaches: `round < 1`; a round after the overlord has already won (an
  `on round N { win overlord }`, or an overlord's victory on the round alone); for the
  heroes, `conquest 0` (the overlord wins the moment it reaches 0) or more conquest
  than they start with plus everything the map gives where they can reach (not weighed
  when the quest has `special` rules or `instruct` effects, which may give more); more
  heroes leaving by the exit than play;
- parts that exclude each other: `round > 5 and round < 3`, `killed vessk and not
  killed vessk`, `not revealed A` for the start area.

In a second edition quest the same goes for a lieutenant to be `killed` that no hero
can reach, and for `objectives N` when fewer than N objective tokens are there to be
held: for the heroes, fewer than N they can reach; for the overlord, fewer than N on
the map. (`exited` with no reachable exit is Q311, a group to be `defeated` out of
reach Q312, a token to be `carried` that cannot be Q313.)

A counter the quest declares (`counter fatigue`) starts at 0 and moves by the effects
that can run: `fatigue >= 6` is never true when nothing raises it that far (a
recurring rule, `at end of each round { fatigue +1 }`, raises it without bound).
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + "door d between R1 R2\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; obstacle rubble at 3,0..3,3 }\n'
        'area B "Lair" { pieces R2 }\nvictory heroes when opened d\n',
        fixed=HEAD + TWO_ROOMS + "door d between R1 R2\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; obstacle rubble at 3,0 3,3 }\n'
        'area B "Lair" { pieces R2 }\nvictory heroes when opened d\n',
    ),
    fields=("reason", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q307: victory conditions that can never become true, whatever the reason: a target out
    of reach or never revealed, a rune door nothing opens, a count no quest can reach
    (`round < 1`, a round after the overlord has won, more conquest than the map gives, more
    heroes leaving than play), parts that contradict each other. A cause that is an error of
    its own (Q301, Q302, Q303, Q311) is reported there instead, with this condition as a label."""
    model, analysis = context.model, context.analysis
    doors = rune_doors(context)
    hopeful = doors.hopeful
    out: list[Diagnostic] = []
    for victory in model.victories:
        side = victory.side.value
        real = _bounds(context, analysis, side)
        if can_hold(victory.when, real):
            continue
        side_label = Label(victory.side.span, f"the {side}' victory")
        if hopeful is not analysis and can_hold(victory.when, _bounds(context, hopeful, side)):
            # Only a shut rune door stands in the way. A door whose key lies behind it is Q303,
            # an error already; a door nothing at all opens is only Q304, a warning: say here
            # that it makes this victory impossible.
            if any(doors.sources(d) for d in doors.shut):
                continue
            keyless = sorted(doors.shut, key=lambda d: d.id)
            names = " and ".join(f"the {d.rune} rune door `{d.id}`" for d in keyless)
            colours = sorted({d.rune for d in keyless if d.rune})
            out.append(
                Q307.at(
                    victory.when.span,
                    reason=f"it needs what lies behind {names}, and nothing on the map unlocks {' or '.join(colours)}",
                    help_text=" or ".join(f"place `runekey {c} at X,Y` where the heroes can reach it" for c in colours)
                    + ", or open it with an effect they can trigger (`unlock COLOUR`, `open DOOR`)",
                    labels=[side_label]
                    + [Label(d.node.id.span, f"nothing opens this {d.rune} rune door") for d in keyless],
                )
            )
            continue
        bounds = _bounds(context, hopeful, side)
        reported = explained = False
        for literal in literals(victory.when):
            if literal_holds(literal, bounds):
                continue
            if isinstance(literal, Event) and literal.positive and _explained(literal.atom, model, analysis, hopeful):
                explained = True  # Q301 (a sealed area) or Q302 (out of reach) is the cause, with a label
                continue
            reason, help_text, span = _literal_reason(literal, context, hopeful, side)
            out.append(Q307.at(span, reason=reason, help_text=help_text, labels=[side_label]))
            reported = True
        if not reported and not explained:
            out.append(
                Q307.at(
                    victory.when.span,
                    reason="its parts can never all be true at once",
                    help_text="check each `and` and `not`: the condition asks for things that exclude each other",
                    labels=[side_label],
                )
            )
    return out


def _bounds(context: CheckContext, analysis: Analysis, side: str) -> Bounds:
    """What can happen in the quest for `side`'s victory: events by the reveal analysis; the
    counters' ranges by the rules (rounds from 1; the heroes' conquest above 0, at most what
    they start with and can gain; the objective tokens they can hold; the heroes who play)."""
    model = context.model
    started = {a for a, wave in analysis.reveal_wave.items() if wave == 0}
    ranges: dict[str, tuple[int | None, int | None]] = {}
    cap = round_cap(model)[0] if side == "heroes" else None
    ranges["round"] = (1, cap)
    if model.edition.has("conquest") and model.conquest is not None:
        low = 1 if side == "heroes" else 0
        ceiling = conquest_ceiling(context, analysis)
        ranges["conquest"] = (low, ceiling)
    ranges["objectives"] = (0, objectives_held(model, analysis, side))
    ranges["exited"] = (0, max(model.players[1] - 1, 1))
    for counter in model.counters:
        ranges[counter] = counter_range(model, analysis, counter, context.board)
    board = context.board
    return Bounds(
        happens=lambda atom: _atom_possible(atom, model, analysis, board),
        fails=lambda atom: not (atom.event == "revealed" and atom.target.value in started),
        ranges=ranges,
    )


def round_cap(model: QuestModel) -> tuple[int | None, str]:
    """The last round the heroes can play, and why: an `on round N` that makes the overlord
    win, or an overlord's victory on the round alone (`round > 15` ends the game at 16)."""
    cap, why = None, ""
    for trigger in model.triggers:
        if (
            trigger.event == "round"
            and trigger.round is not None
            and any(isinstance(e, n.WinEffect) and e.side.value == "overlord" for e in trigger.effects)
        ):
            if cap is None or trigger.round < cap:
                cap, why = (
                    trigger.round,
                    f"the overlord wins at the start of round {trigger.round} (`on round {trigger.round}`)",
                )
    for victory in model.victories:
        when = victory.when
        if victory.side.value == "overlord" and isinstance(when, n.CompareCondition) and when.counter == "round":
            first = {">": when.value + 1, ">=": when.value, "=": when.value}.get(when.op)
            if first is not None and first >= 1 and (cap is None or first < cap):
                cap, why = (
                    first,
                    f"the overlord's victory `round {when.op} {when.value}` ends the game in round {first}",
                )
    return cap, why


def conquest_ceiling(context: CheckContext, analysis: Analysis) -> int | None:
    """The most conquest the heroes can ever hold: the start and all the map gives where they
    can reach (Q507's sum). None when the quest has rules questc cannot weigh (`special` text,
    an `instruct` effect), which may give conquest too."""
    model = context.model
    if model.conquest is None or model.special:
        return None
    if any(isinstance(e, n.InstructEffect) for e, _source in model.effects()):
        return None
    from questc.rules.logic.conquest_on_the_map import Reach, conquest_gains

    reach = Reach(frozenset(analysis.reached), frozenset(analysis.revealed), frozenset(analysis.opened_doors))
    return model.conquest + sum(conquest_gains(model, reach).values())


def _explained(atom: n.EventCondition, model: QuestModel, analysis: Analysis, hopeful: Analysis) -> bool:
    """Is an event a victory needs reported as another error: its area never revealed (Q301), or
    its named monster or encounter out of reach in a revealed area (Q302)?"""
    if atom.event in ("defeated", "carried"):
        return True  # Q312 and Q313 say why, with this victory as a label
    area = atom_area(atom, model)
    if area is None:
        return False
    if analysis.reveal_wave.get(area) is None and hopeful.reveal_wave.get(area) is None:
        return True  # Q301
    return analysis.reveal_wave.get(area) is not None and atom.event in ("killed", "triggered")  # Q302


def _literal_reason(literal: Literal, context: CheckContext, analysis: Analysis, side: str) -> tuple[str, str, Span]:
    """(reason, help, span) for one part of a condition that can never be true by itself."""
    model = context.model
    if isinstance(literal, Event):
        atom = literal.atom
        if not literal.positive:
            return (
                f"area `{atom.target.value}` is revealed from the start, so `not revealed "
                f"{atom.target.value}` is never true",
                "leave this part out, or name another area",
                literal.span,
            )
        reason, help_text = _why(atom, model)
        return reason, help_text, atom.target.span
    compare, op, value = literal.atom, literal.op, literal.atom.value
    shown = f"`{compare.counter} {op} {value}`"
    if compare.counter == "round":
        cap, why = round_cap(model)
        if cap is not None and side == "heroes" and op in (">", ">=", "=") and value >= (cap if op == ">" else cap + 1):
            return (
                f"{why}, so {shown} never comes",
                f"ask for round {cap} at the latest, or let the game go on longer",
                compare.span,
            )
        return f"rounds are counted from 1, so {shown} is never true", "compare with a round of 1 or more", compare.span
    if compare.counter == "conquest":
        if op in ("<", "<=", "=") and side == "heroes" and value < (2 if op == "<" else 1):
            return (
                f"the overlord wins as soon as the heroes' conquest reaches 0, so {shown} never comes for the heroes",
                "ask for 1 conquest or more",
                compare.span,
            )
        ceiling = conquest_ceiling(context, analysis)
        return (
            f"the heroes start with {model.conquest} conquest and can gain {(ceiling or 0) - (model.conquest or 0)} "
            f"more at most, so {shown} never comes",
            "ask for less conquest, or give more on the map (glyphs, chests, encounters, named monsters)",
            compare.span,
        )
    if compare.counter == "objectives":
        have = objectives_held(model, analysis, side)
        whose = "the heroes can reach" if side == "heroes" else "on the map"
        return (
            f"only {plural(have, 'objective token')} {whose}, and it needs {op} {value}",
            "place enough objective tokens where they can be taken, or ask for fewer",
            compare.span,
        )
    if compare.name is not None:
        top = counter_range(model, analysis, compare.counter, context.board)[1]
        said = f"the counter `{compare.counter}`"
        if top == 0:
            return (
                f"nothing raises {said} above 0, so {shown} never comes",
                f"raise it with an effect (`{compare.counter} +1`) in a rule that can run",
                compare.span,
            )
        return (
            f"{said} goes no higher than {top}, so {shown} never comes",
            f"raise it more (a recurring rule, `at end of each round {{ {compare.counter} +1 }}`), or ask for less",
            compare.span,
        )
    if compare.counter == "exited":
        heroes = max(model.players[1] - 1, 1)
        return (
            f"at most {plural(heroes, 'hero', 'heroes')} play ({model.players[0]}..{model.players[1]} players, the "
            f"overlord among them), so {shown} never comes",
            "ask for fewer heroes to leave",
            compare.span,
        )
    return f"{shown} is never true", "change the comparison", compare.span


def _atom_possible(atom: n.EventCondition, model: QuestModel, analysis: Analysis, board: Board) -> bool:
    target = atom.target.value
    if atom.event == "defeated":
        return not unreachable_foes(model, board, analysis.reached, target)
    if atom.event in ("on", "in"):  # monsters walk where they like: possible wherever some stand
        from questc.analysis.reach import foes

        return bool(foes(model, target))
    if atom.event == "carried":
        token = model.tokens_named().get(target)
        return (
            token is not None
            and token.kind == "objective"
            and token_reachable(board, token, analysis.reached)
            and any(c in analysis.reached for c in destination_cells(model, board, atom))
        )
    if atom.event == "killed":
        return named_reachable(model, target, analysis.reached)
    if atom.event == "revealed":
        return analysis.reveal_wave.get(target) is not None
    if atom.event == "triggered":
        encounter = model.encounters.get(target)
        return encounter is not None and encounter.at in analysis.reached
    if atom.event == "opened":
        return target in analysis.opened_doors
    return True


def objectives_held(model: QuestModel, analysis: Analysis, side: str) -> int:
    """How many objective tokens a side could come to hold: the heroes those on or next to a
    cell they reach (and those they carry from the start); the overlord's monsters every one on
    the map. Tokens the overlord places `on` pieces or `among` points count at their most (with
    the most heroes the quest takes), where any of their spaces is in reach."""
    tokens = [m for m in model.markers if m.kind == "objective"]
    top = model.heroes()[1]
    placed = [t for t in model.tokens if t.kind == "objective" and t.placement != "at"]
    if side != "heroes":
        return len(tokens) + sum(t.count.value(top) for t in placed if t.placement != "carried")
    held = sum(
        1
        for m in tokens
        if m.at in analysis.reached
        or any((m.at[0] + dx, m.at[1] + dy) in analysis.reached for dx in (-1, 0, 1) for dy in (-1, 0, 1))
    )
    for token in placed:
        if token.placement == "carried" or any(
            (c[0] + dx, c[1] + dy) in analysis.reached for c in token.cells for dx in (-1, 0, 1) for dy in (-1, 0, 1)
        ):
            held += token.count.value(top)
    return held


def _why(atom: n.EventCondition, model: QuestModel) -> tuple[str, str]:
    target = atom.target.value
    if atom.event == "killed":
        return (f"no hero can reach `{target}`", f"place `{target}` where the heroes can walk next to it")
    if atom.event == "revealed":
        return (f"area `{target}` is never revealed", f"join `{target}` to the map the heroes explore")
    if atom.event == "triggered":
        return (f"no hero can reach the encounter `{target}`", f"move `{target}` onto a cell the heroes reach")
    return (f"no hero can ever open the door `{target}`", f"make the door `{target}` reachable and passable")


_OBJECTIVES = "victory heroes when objectives >= 2\n"

RULE = Rule(
    Q307,
    find,
    examples=(
        Example(  # second edition: two objectives wanted, one placed
            failing=second_examples.second("  objective at 0,0\n", win=_OBJECTIVES),
            fixed=second_examples.second("  objective at 0,0 3,3\n", win=_OBJECTIVES),
        ),
    ),
)
