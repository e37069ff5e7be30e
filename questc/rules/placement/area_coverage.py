"""Q203 area-coverage: the code's descriptor and the check that finds it."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Fix, Label, Severity
from questc.diagnostics.edits import fix
from questc.rules import Rule, second_examples
from questc.rules.context import CheckContext
from questc.rules.placement.examples import HEAD, WIN
from questc.rules.placement.facts import Cell, Claim, Facts, fmt_cells, placement_facts
from questc.rules.placement.suggest import add_piece

Q203 = Descriptor(
    code="Q203",
    name="area-coverage",
    severity=Severity.ERROR,
    template="{subject} {problem}",
    summary="A piece or floor cell that is in no area, or in more than one.",
    explanation="""
Areas are what the heroes reveal, and every space of the map is revealed with exactly
one of them: each piece belongs to one area (`pieces ID, ...`), or a large piece is
split between areas with `cells RECT`. A space in no area is never revealed and never
described; a space in two areas is revealed twice and belongs to two read-aloud texts.
""",
    example=Example(
        failing=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\n'
        + WIN,
        fixed=HEAD
        + "piece R1 room_4x4 at 0,0\npiece R2 room_4x4 at 4,0\ndoor d between R1 R2\n"
        + 'area A "Hall" start { pieces R1; glyph at 0,0 active }\narea B "East" { pieces R2 }\n'
        + WIN,
    ),
    fields=("subject", "problem"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q203: a piece or floor cell in no area, or in more than one.

    Groups cells, never one diagnostic per cell. A piece no area claims is
    one diagnostic at the piece's name (help: the area to add it to); cells of a piece
    left over by `cells` splits are one per piece; a piece or rectangle claimed by a
    second area is one per claim, at that claim, with a label on the first. Cells shared
    by overlapping pieces are Q201's.
    """
    facts = placement_facts(context)
    out = []
    out += _unclaimed(facts)
    out += _claimed_twice(facts)
    return out


def _unclaimed(facts: Facts) -> list[Diagnostic]:
    model = facts.model
    by_piece: dict[str, list[Cell]] = {}
    for cell in facts.unclaimed:
        by_piece.setdefault(facts.board.piece_of(cell), []).append(cell)
    out = []
    for pid, cells in sorted(by_piece.items(), key=lambda kv: list(model.pieces).index(kv[0])):
        piece = model.pieces[pid]
        own = piece.shape.cells - facts.contested
        if set(cells) >= own:
            area = _neighbour_area(facts, pid)
            fixes: tuple[Fix, ...] = ()
            if area:
                help = f"add `{pid}` to the `pieces` of area `{area}`, or give it an area of its own"
                # Unsafe: the area of a joined piece is a guess at where the writer meant it.
                edit = add_piece(facts.text, model.areas[area].node, pid)
                fixes = fix(f"add `{pid}` to area `{area}`", edit) if edit else ()
            else:
                help = f"add `{pid}` to the `pieces` of an area"
            out.append(
                Q203.at(
                    facts.piece_span(pid),
                    subject=f"piece `{pid}`",
                    problem="is in no area",
                    label="no area claims this piece",
                    help=help,
                    fixes=fixes,
                )
            )
        else:
            text = fmt_cells(cells)
            plural = len(cells) > 1
            subject = f"{len(cells)} cells of piece `{pid}` ({text})" if plural else f"cell {text} of piece `{pid}`"
            # `cells` takes points and rectangles: spell them out when they make one, else the
            # writer splits the list (fmt_cells shortens long irregular lists).
            writable = ".." in text or not plural or " and " not in text
            out.append(
                Q203.at(
                    facts.piece_span(pid),
                    subject=subject,
                    problem="are in no area" if plural else "is in no area",
                    label="partly in no area",
                    help=(
                        f"add {'them' if plural else 'it'} to an area: `cells {text}`"
                        if writable
                        else "add them to an area with `cells` rectangles"
                    ),
                )
            )
    return out


def _neighbour_area(facts: Facts, pid: str) -> str | None:
    """The area of a piece joined to `pid` (where the writer most likely meant it to be)."""
    for a, b, _edges in facts.build.joints:
        if pid in (a, b):
            other = b if a == pid else a
            for cell in sorted(facts.model.pieces[other].shape.cells):
                areas = facts.areas_of.get(cell)
                if areas:
                    return areas[0]
    return None


def _claimed_twice(facts: Facts) -> list[Diagnostic]:
    first: dict[Cell, Claim] = {}
    groups: dict[tuple[int, int], tuple[Claim, Claim, list[Cell]]] = {}
    for index, claim in enumerate(facts.claims):
        for cell in sorted(claim.cells):
            if cell in facts.contested:
                continue
            earlier = first.get(cell)
            if earlier is None:
                first[cell] = claim
            elif earlier.area != claim.area:
                key = (index, id(earlier))
                groups.setdefault(key, (claim, earlier, []))[2].append(cell)
    out = []
    for claim, earlier, cells in groups.values():
        if claim.piece is not None and set(cells) >= claim.cells - facts.contested:
            subject = f"piece `{claim.piece}`"
            remove = f"remove `{claim.piece}` from the `pieces` of `{claim.area}` or of `{earlier.area}`"
        else:
            subject = f"cells {fmt_cells(cells)}" if len(cells) > 1 else f"cell {fmt_cells(cells)}"
            remove = f"claim {fmt_cells(cells)} in one area only: split the `cells` so they do not overlap"
        problem = f"{'are' if subject.startswith('cells') else 'is'} in two areas, `{earlier.area}` and `{claim.area}`"
        out.append(
            Q203.at(
                claim.span,
                subject=subject,
                problem=problem,
                label=f"also in area `{claim.area}`",
                labels=[Label(earlier.span, f"first put in area `{earlier.area}` here")],
                help=remove,
            )
        )
    return out


RULE = Rule(
    Q203,
    find,
    examples=(
        Example(  # second edition: a tile that is in no area
            failing=second_examples.HEAD
            + second_examples.TWO_MAP
            + 'area A "Hall" start {\n  pieces T, In, Cap\n}\n'
            + second_examples.WIN,
            fixed=second_examples.two(),
        ),
    ),
)
