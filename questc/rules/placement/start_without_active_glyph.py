"""Q210 start-without-active-glyph: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Fix, Label, Severity
from questc.diagnostics.edits import fix, insert_after
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.placement.examples import WIN, hall
from questc.rules.placement.facts import fmt, placement_facts
from questc.rules.placement.suggest import add_statement

Q210 = Descriptor(
    code="Q210",
    name="start-without-active-glyph",
    severity=Severity.ERROR,
    template="start area `{area}` has no active glyph",
    label_template="the heroes are placed on or next to an active glyph here",
    help_template="add `glyph at X,Y active` on a free cell of `{area}`",
    summary="The start area has no `active` glyph.",
    explanation="""
Heroes begin the quest on or next to an active glyph of transport in the start area,
and return to it from town. Glyphs start inactive unless the quest says `active`, so
the start area needs at least one `glyph at P active`.
""",
    example=Example(failing=hall(glyph="glyph at 0,0") + WIN, fixed=hall(glyph="glyph at 0,0 active") + WIN),
    fields=("area",),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q210: the start area has no `active` glyph.

    When the (first) start area holds no glyph written `active`, one
    diagnostic at its name; inactive glyphs in it get a label and the help says to add
    `active` to one, else the help gives a `glyph at X,Y active` on a free cell.
    """
    facts = placement_facts(context)
    model = facts.model
    starts = model.start_areas
    if not starts:
        return []
    area = starts[0]
    glyphs = [m for m in model.markers if m.kind == "glyph" and m.area == area.id]
    if any(g.active for g in glyphs):
        return []
    labels = [Label(g.span, "this glyph is not active") for g in glyphs]
    # Unsafe, both: which glyph the heroes start at, or where a new one goes, is a guess.
    fixes: tuple[Fix, ...] = ()
    help: str | None = None
    if glyphs:
        help = f"make it active: `glyph at {fmt(glyphs[0].at)} active`"
        fixes = fix(f"make the glyph at {fmt(glyphs[0].at)} active", insert_after(glyphs[0].span, " active"))
    else:
        cells = sorted(area.cells, key=lambda c: (c[1], c[0]))
        spot = facts.free_cell(area.id, cells[0]) if cells else None
        if spot is not None:
            help = f"add `glyph at {fmt(spot)} active` to area `{area.id}`"
            edit = add_statement(facts.text, area.node, f"glyph at {fmt(spot)} active")
            fixes = fix(f"add an active glyph at {fmt(spot)}", edit) if edit else ()
    return [Q210.at(area.node.id.span, area=area.id, labels=labels, help=help, fixes=fixes)]


RULE = Rule(Q210, find, needs={"glyph start"})
