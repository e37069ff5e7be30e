"""The header's treachery budget as labels, for the plan's rules that point at it (Q401, Q407)."""

from __future__ import annotations

from questc.diagnostics.core import Label
from questc.model.quest import QuestModel
from questc.syntax import nodes as n


def budget_labels(model: QuestModel, colour: str | None = None) -> list[Label]:
    """Labels on the header's treachery budget: the one colour's part if written, else the whole field."""
    header = model.header
    found = header.get("treachery") if header is not None else None
    if found is None or not isinstance(found.value, tuple):
        return []
    if colour is not None:
        budget = model.treachery or {}
        for part in found.value:
            if isinstance(part, n.TreacheryPart) and part.colour.value == colour:
                return [Label(part.span, f"the {colour} budget is {budget.get(colour, 0)}")]
        return [Label(found.span, f"no {colour} treachery here: the {colour} budget is 0")]
    return [Label(found.span, "the treachery budget")]
