"""Q309 reveal-order: the code's descriptor and the check that finds it."""
from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.reveal.examples import HEAD, TWO_ROOMS

Q309 = Descriptor(
    code="Q309", name="reveal-order", severity=Severity.INFO,
    template="wave {wave}: {areas}",
    summary="The order in which areas can be revealed, one line per wave (printed with `--verbose`).",
    explanation="""
The reveal analysis in waves: wave 0 is the start area; each later wave holds the
areas the heroes can first see (or open a door into) once the earlier waves are
revealed, with the areas they are first seen from.
""",
    example=Example(
        failing=HEAD + TWO_ROOMS + 'door d between R1 R2\n'
                'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
                'victory heroes when revealed B\n',
        fixed=HEAD + TWO_ROOMS + 'door d between R1 R2\n'
              'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "Beyond" { pieces R2 }\n'
              'victory heroes when revealed B\n'),
    fields=("wave", "areas"),
    fixed_example_silences=False,
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q309 (info): one line per wave: its areas and where each is first seen from."""
    model, analysis = context.model, context.analysis
    out = []
    span = model.header_span()
    for number, areas in enumerate(analysis.waves):
        parts = []
        for area_id in areas:
            name = model.areas[area_id].name
            sources = [s for s in analysis.visible_from.get(area_id, []) if s != area_id]
            parts.append(f"{area_id} ({name})" + (f" from {', '.join(sources)}" if sources else ""))
        out.append(Q309.at(span, wave=number, areas="; ".join(parts)))
    return out


RULE = Rule(Q309, find)
