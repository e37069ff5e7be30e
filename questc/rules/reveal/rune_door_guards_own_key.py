"""Q303 rune-door-guards-own-key: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.rules.reveal.facts import rune_doors

Q303 = Descriptor(
    code="Q303",
    name="rune-door-guards-own-key",
    severity=Severity.ERROR,
    template="the {colour} rune door `{door}` guards its own key",
    label_template="this door needs the {colour} runekey",
    help_template="move the runekey to an area reachable without opening `{door}`",
    summary="A rune door whose key can only be reached through that door (or a cycle of rune doors).",
    explanation="""
A rune door opens once a hero has picked up the runekey of its colour. If every
runekey of that colour lies behind the door itself (or behind another rune door
whose key is behind this one), the door can never open. The areas behind it are
not reported separately: this door is the cause.
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + "door vault between R1 R2 rune red\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        'area B "Vault" { pieces R2; runekey red at 6,2 }\nvictory heroes when revealed B\n',
        fixed=HEAD + TWO_ROOMS + "door vault between R1 R2 rune red\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active; runekey red at 2,2 }\n'
        'area B "Vault" { pieces R2 }\nvictory heroes when revealed B\n',
    ),
    fields=("colour", "door"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q303: rune doors whose every way to open them lies behind them.

    For every rune door the heroes can never pass (its colour never unlocked, and no
    `open DOOR` effect they can run opens it) with a way to open it (a runekey, an
    `unlock` effect, an `open` effect for that door) that is reachable only once that
    colour (or a cycle of locked colours) is open.
    """
    doors = rune_doors(context)
    out: list[Diagnostic] = []
    for door in sorted(doors.shut, key=lambda d: d.rune or ""):
        sources = doors.sources(door)
        if not sources:
            continue  # Q304
        colour = door.rune
        labels = []
        for span, what, _ in sources:
            noun = what if what.startswith("`") else f"{colour} {what}"
            labels.append(Label(span, f"the only {noun} is behind it" if len(sources) == 1 else f"a {noun} behind it"))
        out.append(Q303.at(door.node.id.span, colour=colour, door=door.id, labels=labels))
    return out


RULE = Rule(Q303, find, needs={"rune doors"})
