"""Q301 area-never-revealed: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.rules.reveal.facts import area_span, atom_area, rune_doors
from questc.syntax import nodes as n

Q301 = Descriptor(
    code="Q301",
    name="area-never-revealed",
    severity=Severity.ERROR,
    template="area `{area}` can never be revealed",
    label_template="{why}",
    help_template="{help_text}",
    summary="An area that can never be revealed.",
    explanation="""
Areas are revealed when a hero first has line of sight into them (or, with
`reveal door`, when a door into them opens). An area joined to the rest of the map
by no opening, door or staircase stays hidden all game, with everything in it.
""",
    example=Example(
        failing=HEAD + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 10,0\n"
        'area A "Cell" start { pieces R1; glyph at 0,0 active }\narea B "Vault" { pieces R2 }\n'
        "victory heroes when revealed B\n",
        fixed=HEAD + TWO_ROOMS + "door d between R1 R2\n"
        'area A "Cell" start { pieces R1; glyph at 0,0 active }\narea B "Vault" { pieces R2 }\n'
        "victory heroes when revealed B\n",
    ),
    fields=("area", "why", "help_text"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q301: areas with no reveal wave, unless only a locked rune door (Q303/Q304) hides them.

    Victory conditions that need the area (revealed, or a named monster or encounter
    in it) are labelled here rather than reported again as Q307.
    """
    model, analysis = context.model, context.analysis
    hopeful = rune_doors(context).hopeful
    out = []
    for area_id, wave in analysis.reveal_wave.items():
        if wave is not None or hopeful.reveal_wave.get(area_id) is not None:
            continue
        labels = [
            Label(atom.target.span, "so this victory can never come true")
            for victory in model.victories
            for atom in n.event_conditions(victory.when)
            if atom_area(atom, model) == area_id
        ]
        why = (
            "no door into this area ever opens, and no hero can step into it"
            if model.reveal == "door"
            else "no hero can ever see into this area"
        )  # `reveal door`: sight reveals nothing
        joins = "an opening, a door or a staircase" if model.edition.has("stairs") else "an opening or a door"
        out.append(
            Q301.at(
                area_span(model, area_id),
                area=area_id,
                why=why,
                labels=labels,
                help_text=f"join it to the map: {joins} into a revealed area",
            )
        )
    return out


RULE = Rule(
    Q301,
    find,
    examples=(
        Example(  # second edition: revealed by sight, a tile joined to nothing
            failing=second_examples.two(apart=True, head=second_examples.SIGHT_HEAD, win=second_examples.ROUNDS),
            fixed=second_examples.two(
                doors="door d between T T2\n", head=second_examples.SIGHT_HEAD, win=second_examples.ROUNDS
            ),
        ),
    ),
)
