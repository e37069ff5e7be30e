"""Q520 name-reads-as-identifier: the code's descriptor and the check that finds it (opt-in)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.diagnostics.edits import fix, insert_after
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.logic.examples import quest
from questc.rules.second_examples import MAP, second

Q520 = Descriptor(
    code="Q520",
    name="name-reads-as-identifier",
    severity=Severity.WARNING,
    opt_in=True,
    template="the {what} `{name}` prints as “{printed}” on the sheet",
    label_template="no name for players",
    help_template='give it a name players read, after its identifier: `{kind} {name} "{suggestion}"`',
    summary="A door, encounter or relic whose sheet sentence would print its identifier (opt-in).",
    explanation="""
The sheet and the map print a door's, an encounter's and a relic's name in sentences
("Ways out: the door front to area B", "a hero triggers the encounter will"). Without
a name of its own, the identifier is printed made readable, and a sentence made of
identifiers reads like code: "Close the door front." A name in quotes after the
identifier is what players read instead (`door front "The Front Gate"`); the quest's
own statements keep using the identifier.

This is a style suggestion, off unless selected: `extend-select = ["Q520"]` in the
configuration, or `questc lint --extend-select Q520`. The fix (unsafe: a guess) adds a
name made from the identifier.
""",
    example=Example(
        failing=quest(area_lines="  relic orrin_seal at 2,2\n"),
        fixed=quest(area_lines='  relic orrin_seal "The Seal of Orrin" at 2,2\n'),
    ),
    fields=("what", "name", "printed", "kind", "suggestion"),
)


def suggestion(identifier: str, kind: str) -> str:
    """An identifier in (front, toll_door); a name a player could read for it out (The Front Door,
    The Toll Door): its words capitalised after "The", with "Door" added to a door's when its
    words do not already say what it is."""
    words = [word.capitalize() for word in identifier.replace("_", " ").split()]
    if kind == "door" and not {w.lower() for w in words} & {"door", "gate", "seal", "portal", "hatch", "grate"}:
        words.append("Door")
    return " ".join(["The", *words]) if words and words[0] != "The" else " ".join(words)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q520 for each door, encounter and relic without a name of its own: each is printed in a
    sentence of the sheet (an area's ways out and contents, an effect, a victory)."""
    from questc.model.quest import readable

    model = context.model
    found: list[tuple[object, str, str, str, str]] = []  # (node, what, kind, id, printed)
    for door in model.doors.values():
        if door.node.display is None:
            what = f"{door.rune} rune door" if door.rune else "door"
            found.append((door.node, what, "door", door.id, f"the {what} {readable(door.id)}"))
    for encounter in model.encounters.values():
        if encounter.node.display is None:
            found.append(
                (encounter.node, "encounter", "encounter", encounter.id, f"the encounter {readable(encounter.id)}")
            )
    for marker in model.markers:
        node = getattr(marker, "node", None)
        if marker.kind == "relic" and marker.variant and marker.display is None:
            found.append((node, "relic", "relic", marker.variant, f"the relic {readable(marker.variant)}"))
    out = []
    for node, what, kind, identifier, printed in found:
        span = _identifier_span(model, node, kind, identifier)
        if span is None:
            continue
        named = suggestion(identifier, kind)
        out.append(
            Q520.at(
                span,
                what=what,
                name=identifier,
                printed=printed,
                kind=kind,
                suggestion=named,
                fixes=fix(f"name it “{named}”", insert_after(span, f' "{named}"')),
            )
        )
    return out


def _identifier_span(model, node, kind: str, identifier: str):
    """Where the thing's identifier is written in its declaration."""
    if node is not None and hasattr(node, "id"):
        return node.id.span
    if kind == "relic":
        from questc.syntax import nodes as n

        for area in model.areas.values():
            for statement in area.node.statements:
                if isinstance(statement, n.Relic) and statement.name.value == identifier:
                    return statement.name.span
    return None


RULE = Rule(
    Q520,
    find,
    examples=(
        Example(
            failing=second(map_=MAP + "door way between T Out\n"),
            fixed=second(map_=MAP + 'door way "The Way Out" between T Out\n'),
        ),
    ),
)
