"""Overlord deck plans in (the quest's `overlord { }` block, or a YAML plan file); their price against the
quest's treachery budget, and the Q101/Q402/Q401/Q407/Q408 diagnostics, out.

Shared by the Q4xx check (questc.checks.components) and `questc deck`.
"""
from __future__ import annotations

from questc.diagnostics.codes import q4xx
from questc.diagnostics.core import Diagnostic, Label, Severity, Span
from dataclasses import dataclass, field
from questc.syntax import nodes as n

COLOURS = ("event", "trap", "monster")
COLOUR_GEMS = {"event": "green", "trap": "purple", "monster": "red"}
STARTING_HAND = 3       # overlord cards the overlord starts with
MAX_HAND = 8            # the most he may hold
POINTS_PER_CARD = 2     # unspent treachery, of any colour, per extra starting card
PUBLISHED_TOTALS = (9, 12)   # the base quests' budgets total 9 to 12


class PlanError(Exception):
    """A YAML plan file that cannot be read as a plan (bad YAML, wrong shape)."""


@dataclass(frozen=True)
class PlanItem:
    """One line of a plan: a card (`copies` of it) or a dark glyph, and where its name is written."""

    kind: str            # "card" or "dark_glyph"
    name: str
    copies: int
    span: Span


@dataclass(frozen=True)
class DeckPlan:
    """A whole plan, items in the order written; `span` is where the plan begins (to point at the plan itself)."""

    items: tuple[PlanItem, ...]
    span: Span

    @classmethod
    def from_syntax(cls, plan: n.OverlordPlan) -> "DeckPlan":
        """The quest's `overlord { }` block in, a DeckPlan out (its span: the `overlord` keyword)."""
        items = [PlanItem("card", card.name.value, card.copies, card.name.span) for card in plan.cards]
        items += [PlanItem("dark_glyph", glyph.name.value, 1, glyph.name.span) for glyph in plan.glyphs]
        items.sort(key=lambda item: (item.span.line, item.span.column))
        s = plan.span
        keyword = Span(s.file, s.line, s.column, s.line, s.column + len("overlord"), s.start,
                       s.start + len("overlord"))
        return cls(tuple(items), keyword)


# ---- YAML plans -------------------------------------------------------------------------


def _span(path: str, node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(path, start.line + 1, start.column + 1, end.line + 1, end.column + 1,
                start.index, end.index)


def _scalar(node, path: str, what: str) -> str:
    import yaml
    if not isinstance(node, yaml.ScalarNode) or node.tag != "tag:yaml.org,2002:str" or not node.value.strip():
        raise PlanError(f"{path}:{node.start_mark.line + 1}: {what} must be a name (text)")
    return node.value.strip()


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
            raise PlanError(f"{path}:{key_node.start_mark.line + 1}: unknown key `{key}`: "
                            "a plan has `cards:` and `dark_glyphs:`")
        if isinstance(value_node, yaml.ScalarNode) and value_node.tag == "tag:yaml.org,2002:null":
            continue   # `cards:` with nothing under it: an empty list
        if not isinstance(value_node, yaml.SequenceNode):
            raise PlanError(f"{path}:{value_node.start_mark.line + 1}: `{key}` must be a list")
        for entry in value_node.value:
            if key == "dark_glyphs":
                items.append(PlanItem("dark_glyph", _scalar(entry, path, "a dark glyph"), 1, _span(path, entry)))
            else:
                items.append(_card_entry(entry, path))
    return DeckPlan(tuple(items), _span(path, root.value[0][0]) if root.value else Span(path, 1, 1, 1, 2))


def _card_entry(node, path: str) -> PlanItem:
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
            raise PlanError(f"{path}:{key_node.start_mark.line + 1}: unknown key `{key}` in a card: "
                            "a card has `name` and `copies`")
        fields[key] = value_node
    if "name" not in fields:
        raise PlanError(f"{path}:{node.start_mark.line + 1}: this card has no `name`")
    copies = 1
    if "copies" in fields:
        value = fields["copies"]
        if not (isinstance(value, yaml.ScalarNode) and value.tag == "tag:yaml.org,2002:int"
                and int(value.value) >= 1):
            raise PlanError(f"{path}:{value.start_mark.line + 1}: `copies` must be a whole number, 1 or more")
        copies = int(value.value)
    name_node = fields["name"]
    return PlanItem("card", _scalar(name_node, path, "a card's `name`"), copies, _span(path, name_node))


# ---- pricing ----------------------------------------------------------------------------


@dataclass
class Pricing:
    """A plan priced: the budget and the spending per colour, and what the plan gets wrong.

    `budget` is None when the quest gives no treachery.
    """

    budget: dict[str, int] | None
    spent: dict[str, int] = field(default_factory=lambda: {c: 0 for c in COLOURS})
    diagnostics: list[Diagnostic] = field(default_factory=list)
    unpriced: list[PlanItem] = field(default_factory=list)   # unknown, not owned, or without a known cost

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

    @property
    def failed(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


def budget_labels(model, colour: str | None = None) -> list[Label]:
    """Labels on the header's treachery budget: the one colour's part if written, else the whole field."""
    header = model.header
    found = header.get("treachery") if header is not None else None
    if found is None:
        return []
    if colour is not None:
        for part in found.value:
            if part.colour.value == colour:
                return [Label(part.span, f"the {colour} budget is {model.treachery.get(colour, 0)}")]
        return [Label(found.span, f"no {colour} treachery here: the {colour} budget is 0")]
    return [Label(found.span, "the treachery budget")]


def price_plan(plan: DeckPlan, model, owned_sets) -> Pricing:
    """A plan, the resolved quest and the owned sets in; the priced plan with its diagnostics out."""
    catalog = model.catalog
    sets = tuple(owned_sets)
    pricing = Pricing(dict(model.treachery) if model.treachery is not None else None)
    out = pricing.diagnostics
    costs: list[tuple[PlanItem, str, int]] = []    # (item, colour, points) for what can be priced
    taken: dict[tuple[str, str], int] = {}          # copies taken so far, by (kind, name)
    for item in plan.items:
        if item.kind == "dark_glyph":
            glyph = catalog.dark_glyphs.get(item.name)
            if glyph is None:
                out.append(catalog.unknown("dark_glyph", item.name, item.span))
                pricing.unpriced.append(item)
                continue
            if glyph.set not in sets:
                out.append(q4xx.Q402.at(
                    item.span, name=item.name, label="from a set not owned",
                    problem=f"it comes from `{glyph.set}`, which is not among the sets owned ({', '.join(sets)})",
                    help=f"own `{glyph.set}` (quest `expansions` or `--expansions`), or leave the dark glyph out"))
                pricing.unpriced.append(item)
                continue
            costs.append((item, glyph.treachery_kind, glyph.cost))
            continue
        card = catalog.cards.get(item.name)
        if card is None:
            out.append(catalog.unknown("card", item.name, item.span))
            pricing.unpriced.append(item)
            continue
        if card.set not in sets:
            out.append(q4xx.Q402.at(
                item.span, name=item.name, label="from a set not owned",
                problem=f"it comes from `{card.set}`, which is not among the sets owned ({', '.join(sets)})",
                help=f"own `{card.set}` (quest `expansions` or `--expansions`), or leave the card out"))
            pricing.unpriced.append(item)
            continue
        key = ("card", card.name)
        taken[key] = taken.get(key, 0) + item.copies
        if card.treachery_kind is not None:
            # A base-deck card cannot be in a plan at all; its copies are beside the point.
            _check_copies(item, taken[key], catalog.copies_owned(card.name, sets), card.set, sets, out)
        if card.treachery_kind is None or card.treachery_cost is None:
            pricing.unpriced.append(item)
        if card.treachery_kind is None:
            out.append(q4xx.Q402.at(
                item.span, name=item.name, label="no treachery cost",
                problem="it has no treachery cost (it belongs to the base deck, which the overlord holds already)",
                help="a plan names only cards with a treachery cost (`questc catalog cards` lists them)"))
        elif card.treachery_cost is None:
            out.append(q4xx.Q402.at(
                item.span, name=item.name, label="cost not known",
                problem=f"its {card.treachery_kind} treachery cost is not known (the rule books do not state it)",
                help="leave it out of the plan, or give its cost in a content pack (`use`) that names the source"))
        else:
            costs.append((item, card.treachery_kind, card.treachery_cost * item.copies))

    for item, colour, points in costs:
        pricing.spent[colour] += points
    if pricing.budget is None:
        problem = ("a `second` edition quest has no treachery, so a deck plan has nothing to spend"
                   if model.edition == "second" else
                   "the deck plan has nothing to spend: the quest gives no treachery budget")
        help = ("leave the deck plan out" if model.edition == "second" else
                "give the quest a budget in its header (`treachery event 4, trap 4, monster 4`), "
                "or leave the deck plan out")
        out.append(q4xx.Q408.at(plan.span, problem=problem, label="a deck plan", help=help,
                                labels=[Label(model.header_span(), "this quest gives no `treachery`")]))
        return pricing
    out.extend(_over_budget(pricing, costs, model))
    if not pricing.over and pricing.unspent:
        out.append(_unspent(pricing, plan, model))
    return pricing


def _check_copies(item: PlanItem, taken: int, owned, card_set: str, sets, out: list) -> None:
    """Q402 at the plan line that takes more copies of a card than the owned sets hold (once per card)."""
    if owned.count is None or taken <= owned.count or taken - item.copies > owned.count:
        return   # unknown count, within it, or an earlier line already went over
    if owned.count == 0:
        problem = f"it comes from `{card_set}`, which is not among the sets owned ({', '.join(sets)})"
        help = f"own `{card_set}` (quest `expansions` or `--expansions`), or leave the card out"
        label = "from a set not owned"
    else:
        problem = f"the plan takes {taken} copies, but the sets owned hold {owned.count}"
        help = f"take at most {owned.count} {'copy' if owned.count == 1 else 'copies'} of `{item.name}`"
        label = "too many copies"
    diagnostic = q4xx.Q402.at(item.span, name=item.name, problem=problem, label=label, help=help)
    # A count the books do not state is an estimate: warn, do not fail the plan on it.
    out.append(diagnostic if owned.source == "rulebook" else diagnostic.with_severity(Severity.WARNING))


def _over_budget(pricing: Pricing, costs, model) -> list[Diagnostic]:
    """One Q401 per colour spent beyond its budget, at the item that first goes over."""
    found = []
    for colour, over in pricing.over.items():
        budget = pricing.budget.get(colour, 0)
        running, culprit, others = 0, None, []
        for item, item_colour, points in costs:
            if item_colour != colour:
                continue
            running += points
            if culprit is None and running > budget:
                culprit = item
            else:
                others.append(Label(item.span, f"{points} {colour}"))
        labels = others + budget_labels(model, colour)
        found.append(q4xx.Q401.at(culprit.span, spent=pricing.spent[colour], colour=colour, budget=budget,
                                  over=over, labels=labels))
    return found


def _unspent(pricing: Pricing, plan: DeckPlan, model) -> Diagnostic:
    left = pricing.left
    detail = ", ".join(f"{c} {left[c]}" for c in COLOURS)
    extra = pricing.extra_cards
    if extra == 0:
        cards = "too little for an extra starting card (1 per 2 points)"
    else:
        capped = " (a full hand: the most he may hold)" if STARTING_HAND + extra == MAX_HAND else ""
        cards = (f"the overlord starts with {extra} extra {'card' if extra == 1 else 'cards'}, "
                 f"{STARTING_HAND + extra} in hand{capped}")
    return q4xx.Q407.at(plan.span, left=pricing.unspent, detail=detail, cards=cards,
                        labels=budget_labels(model))
