"""Q309 reveal-order: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS
from questc.words import plural

Q309 = Descriptor(
    code="Q309",
    name="reveal-order",
    severity=Severity.INFO,
    template="the areas are revealed in {waves}: {order}",
    summary="The order in which areas can be revealed, wave by wave (printed with `--verbose`).",
    explanation="""
The reveal analysis in waves, as one report on the quest's title: wave 0 is the start
area; each later wave holds the areas the heroes can first see (or open a door into)
once the earlier waves are revealed, with the areas they are first seen from.
`questc reveal` prints the same, one line per area.
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + "door d between R1 R2\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
        "victory heroes when revealed B\n",
        fixed=HEAD + TWO_ROOMS + "door d between R1 R2\n"
        'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
        "victory heroes when revealed B\n",
    ),
    fields=("waves", "order"),
    fixed_example_silences=False,
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q309 (info): the reveal order, every wave in one report at the quest's title."""
    model, analysis = context.model, context.analysis
    if not analysis.waves:
        return []
    waves = []
    for number, areas in enumerate(analysis.waves):
        parts = []
        for area_id in areas:
            name = model.areas[area_id].name
            sources = [s for s in analysis.visible_from.get(area_id, []) if s != area_id]
            parts.append(f"{area_id} ({name})" + (f" from {', '.join(sources)}" if sources else ""))
        waves.append(f"wave {number} " + ", ".join(parts))
    return [Q309.at(model.header_span(), waves=plural(len(analysis.waves), "wave"), order="; ".join(waves))]


RULE = Rule(
    Q309,
    find,
    examples=(
        Example(  # second edition: a map revealed all at once, the second edition's rule
            failing=second_examples.two(), fixed=second_examples.two()
        ),
    ),
)
