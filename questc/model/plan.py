"""The overlord's deck plan: the quest's `overlord { }` block or a YAML plan file in, priced against the
quest's treachery budget out.

Pricing only counts: what each colour spends, each line's colour and cost, and what is
wrong with each line (an unknown card, one from a set not owned, too many copies, no
known cost). A compiled quest prices its own plan once (CompiledQuest.plan), which the
components rules (Q401, Q402, Q407, Q408, Q409) and the engine JSON read; `questc deck`
prices a plan file the same way (questc.rules.components.check_plan).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from questc.catalog.owned import Box
from questc.diagnostics.core import Span
from questc.errors import PlanError
from questc.records import record
from questc.syntax import nodes as n

if TYPE_CHECKING:
    from yaml import Node

    from questc.catalog.model import Count
    from questc.catalog.owned import Declared, Held
    from questc.model.quest import QuestModel

__all__ = [
    "COLOURS",
    "COLOUR_GEMS",
    "STARTING_HAND",
    "MAX_HAND",
    "POINTS_PER_CARD",
    "PUBLISHED_TOTALS",
    "PlanItem",
    "DeckPlan",
    "load_plan",
    "LineProblem",
    "PricedLine",
    "Pricing",
    "price_plan",
]

COLOURS = ("event", "trap", "monster")
COLOUR_GEMS = {"event": "green", "trap": "purple", "monster": "red"}
STARTING_HAND = 3  # overlord cards the overlord starts with
MAX_HAND = 8  # the most he may hold
POINTS_PER_CARD = 2  # unspent treachery, of any colour, per extra starting card
PUBLISHED_TOTALS = (9, 12)  # the base quests' budgets total 9 to 12


@record
class PlanItem:
    """One line of a plan: a card (`copies` of it) or a dark glyph, and where its name is written."""

    kind: str  # "card" or "dark_glyph"
    name: str
    copies: int
    span: Span


@record
class DeckPlan:
    """A whole plan, items in the order written; `span` is where the plan begins (to point at the plan itself)."""

    items: tuple[PlanItem, ...]
    span: Span

    @classmethod
    def from_syntax(cls, plan: n.OverlordPlan) -> DeckPlan:
        """The quest's `overlord { }` block in, a DeckPlan out (its span: the `overlord` keyword)."""
        items = [PlanItem("card", card.name.value, card.copies, card.name.span) for card in plan.cards]
        items += [PlanItem("dark_glyph", glyph.name.value, 1, glyph.name.span) for glyph in plan.glyphs]
        items.sort(key=lambda item: (item.span.line, item.span.column))
        return cls(tuple(items), plan.span.head("overlord"))


# ---- YAML plans -------------------------------------------------------------------------


def _span(path: str, node: Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1, start.index, end.index)


def _scalar(node: Node, path: str, what: str) -> str:
    import yaml

    if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str" or not node.value.strip():
        raise PlanError(f"{path}:{node.start_mark.line + 1}: {what} must be a name (text)")
    return str(node.value).strip()


def load_plan(text: str, path: str) -> DeckPlan:
    """A YAML plan's text and file name in, a DeckPlan out; PlanError when it is not a plan.

    The form (every key optional):
        cards:
          - Rolling Stone              # one copy
          - {name: Danger, copies: 2}
        dark_glyphs: [summoning]
    """
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        # compose, not load: the nodes keep their positions, so diagnostics point into the plan.
        root = yaml.compose(text, Loader=loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        problem = getattr(error, "problem", None) or str(error)
        raise PlanError(f"{path}{where}: not valid YAML: {problem}") from None
    if root is None:
        raise PlanError(f"{path}: the plan is empty; write `cards:` and/or `dark_glyphs:` lists")
    if not isinstance(root, yaml.MappingNode):
        raise PlanError(f"{path}: a plan is a mapping with `cards:` and `dark_glyphs:` lists")
    items: list[PlanItem] = []
    for key_node, value_node in root.value:
        key = _scalar(key_node, path, "a key")
        if key not in ("cards", "dark_glyphs"):
            raise PlanError(
                f"{path}:{key_node.start_mark.line + 1}: unknown key `{key}`: a plan has `cards:` and `dark_glyphs:`"
            )
        if isinstance(value_node, yaml.ScalarNode) and value_node.tag == "tag:yaml.org,2002:null":
            continue  # `cards:` with nothing under it: an empty list
        if not isinstance(value_node, yaml.SequenceNode):
            raise PlanError(f"{path}:{value_node.start_mark.line + 1}: `{key}` must be a list")
        for entry in value_node.value:
            if key == "dark_glyphs":
                items.append(PlanItem("dark_glyph", _scalar(entry, path, "a dark glyph"), 1, _span(path, entry)))
            else:
                items.append(_card_entry(entry, path))
    return DeckPlan(tuple(items), _span(path, root.value[0][0]) if root.value else Span(path, 1, 1, 1, 2))


def _card_entry(node: Node, path: str) -> PlanItem:
    """A `cards:` entry (a name, or {name, copies}) in, a PlanItem out."""
    import yaml

    if isinstance(node, yaml.ScalarNode):
        return PlanItem("card", _scalar(node, path, "a card"), 1, _span(path, node))
    if not isinstance(node, yaml.MappingNode):
        raise PlanError(f"{path}:{node.start_mark.line + 1}: a card is a name or {{name: ..., copies: N}}")
    fields = {}
    for key_node, value_node in node.value:
        key = _scalar(key_node, path, "a key")
        if key not in ("name", "copies"):
            raise PlanError(
                f"{path}:{key_node.start_mark.line + 1}: unknown key `{key}` in a card: a card has `name` and `copies`"
            )
        fields[key] = value_node
    if "name" not in fields:
        raise PlanError(f"{path}:{node.start_mark.line + 1}: this card has no `name`")
    copies = 1
    if "copies" in fields:
        value = fields["copies"]
        if not (isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:int" and int(value.value) >= 1):
            raise PlanError(f"{path}:{value.start_mark.line + 1}: `copies` must be a whole number, 1 or more")
        copies = int(value.value)
    name_node = fields["name"]
    return PlanItem("card", _scalar(name_node, path, "a card's `name`"), copies, _span(path, name_node))


# ---- pricing ----------------------------------------------------------------------------


@record
class LineProblem:
    """Why one plan line cannot be priced, or breaks a rule.

    `kind`: "unknown" (no such card or dark glyph), "not owned" (its set is not owned),
    "copies" (more copies than the sets hold; `owned` is the count), "base deck" (a card
    without a treachery cost), "cost unknown" (the books do not state its cost).
    """

    item: PlanItem
    kind: str
    set: str = ""  # the set a "not owned" or "copies" line comes from
    taken: int = 0  # copies taken so far ("copies")
    owned: Count | None = None  # the copies owned ("copies")
    colour: str = ""  # the treachery colour ("cost unknown")
    held: Held | None = None  # how the copies owned are told ("copies": estimated, declared)


@record
class PricedLine:
    """One line of a plan as the catalog has it, owned or not: its card's type, the budget it is
    paid from (event, trap, monster; None: a base-deck card or an unknown name) and its cost
    for one copy (None when unknown)."""

    item: PlanItem
    type: str | None
    colour: str | None
    cost: int | None


@dataclass
class Pricing:
    """A plan priced: the budget and the spending per colour, and what is wrong with its lines.

    `budget` is None when the quest gives no treachery. `lines` holds every line as the
    catalog prices it (in plan order); `costs` holds (line, colour, points) for every line
    the plan may take and that could be priced; `spent` sums them per colour.
    """

    plan: DeckPlan
    budget: dict[str, int] | None
    spent: dict[str, int] = field(default_factory=lambda: {c: 0 for c in COLOURS})
    lines: list[PricedLine] = field(default_factory=list)
    costs: list[tuple[PlanItem, str, int]] = field(default_factory=list)
    problems: list[LineProblem] = field(default_factory=list)
    unpriced: list[PlanItem] = field(default_factory=list)  # unknown, not owned, or without a known cost

    @property
    def left(self) -> dict[str, int]:
        """Unspent points per colour (never below 0: overspending one colour frees nothing)."""
        budget = self.budget or {}
        return {c: max(budget.get(c, 0) - self.spent[c], 0) for c in COLOURS}

    @property
    def over(self) -> dict[str, int]:
        """Colours spent beyond their budget, and by how much."""
        budget = self.budget or {}
        return {c: self.spent[c] - budget.get(c, 0) for c in COLOURS if self.spent[c] > budget.get(c, 0)}

    @property
    def unspent(self) -> int:
        return sum(self.left.values())

    @property
    def extra_cards(self) -> int:
        """Extra starting cards the unspent points buy: 1 per 2 points, up to a full hand of 8."""
        return min(self.unspent // POINTS_PER_CARD, MAX_HAND - STARTING_HAND)


def price_plan(
    plan: DeckPlan, model: QuestModel, owned_sets: Iterable[str], declared: Declared | None = None
) -> Pricing:
    """A plan, the resolved quest and the owned sets (and the counts declared in `[owned]`) in; what
    each colour spends and each line's problem out."""
    catalog = model.catalog
    sets = tuple(owned_sets)
    box = Box(catalog, sets, declared)
    pricing = Pricing(plan, dict(model.treachery) if model.treachery is not None else None)
    problems = pricing.problems
    taken: dict[tuple[str, str], int] = {}  # copies taken so far, by (kind, name)
    for item in plan.items:
        if item.kind == "dark_glyph":
            glyph = catalog.dark_glyphs.get(item.name)
            pricing.lines.append(
                PricedLine(item, None, glyph.treachery_kind if glyph else None, glyph.cost if glyph else None)
            )
            if glyph is None or glyph.set not in sets:
                problems.append(
                    LineProblem(item, "unknown") if glyph is None else LineProblem(item, "not owned", set=glyph.set)
                )
                pricing.unpriced.append(item)
                continue
            pricing.costs.append((item, glyph.treachery_kind, glyph.cost))
            continue
        card = catalog.cards.get(item.name)
        pricing.lines.append(
            PricedLine(
                item,
                card.type if card else None,
                card.treachery_kind if card else None,
                card.treachery_cost if card else None,
            )
        )
        if card is None or card.set not in sets:
            problems.append(
                LineProblem(item, "unknown") if card is None else LineProblem(item, "not owned", set=card.set)
            )
            pricing.unpriced.append(item)
            continue
        key = ("card", card.name)
        taken[key] = taken.get(key, 0) + item.copies
        if card.treachery_kind is not None:
            # A base-deck card cannot be in a plan at all; its copies are beside the point.
            held = box.held("cards", card.name)
            owned = held.count
            # Reported once per card: at the line that first goes over.
            if owned.count is not None and taken[key] > owned.count >= taken[key] - item.copies:
                problems.append(LineProblem(item, "copies", set=card.set, taken=taken[key], owned=owned, held=held))
        if card.treachery_kind is None or card.treachery_cost is None:
            pricing.unpriced.append(item)
        if card.treachery_kind is None:
            problems.append(LineProblem(item, "base deck"))
        elif card.treachery_cost is None:
            problems.append(LineProblem(item, "cost unknown", colour=card.treachery_kind))
        else:
            pricing.costs.append((item, card.treachery_kind, card.treachery_cost * item.copies))
    for _item, colour, points in pricing.costs:
        pricing.spent[colour] += points
    return pricing
