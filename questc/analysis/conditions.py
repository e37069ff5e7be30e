"""A victory condition and what the quest allows in; whether it can ever come true out.

Atoms are events (`killed`, `revealed`, `triggered`, `opened`), each of which may or may not
ever happen and may or may not still be false at some moment, and counters (`round`,
`conquest`, `objectives`, `exited`), each of which takes whole values within a range. The
condition is put in negation normal form and expanded into its alternatives (an `or` of
`and`s), dropping each alternative as soon as it cannot hold: an event it needs that never
happens, an event both needed and forbidden, a counter whose bounds leave no value in its
range (`round > 5 and round < 3`). Past LIMIT alternatives (or WORK literals looked at) the
condition is called possible:
a verdict is never made on a guess.

Correlations between different atoms are not modelled (killing a monster in an area implies
revealing it), so "can hold" may say yes where a finer analysis would say no; never the
reverse.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import field

from questc.diagnostics.core import Span
from questc.records import record
from questc.syntax import nodes as n

LIMIT = 4096  # alternatives kept while expanding a condition; beyond it: possible
WORK = 200_000  # literals looked at in all (about 0.2 s at most); beyond it: possible

_FLIP = {"<": ">=", "<=": ">", "=": "!=", "!=": "=", ">=": "<", ">": "<="}


@record
class Event:
    """An event atom of a victory condition (revealed, killed, opened...), and whether it must happen or must not."""

    atom: n.EventCondition
    positive: bool
    span: Span  # the atom, or the `not ...` around it

    @property
    def key(self) -> tuple[str, str]:
        return self.atom.event, self.atom.target.value


@record
class Count:
    """A counter comparison of a victory condition, its operator flipped under an odd number of `not`s."""

    atom: n.CompareCondition
    op: str  # the atom's operator, flipped when it stands under an odd number of `not`s

    @property
    def counter(self) -> str:
        return self.atom.counter


Literal = Event | Count
# A condition in negation normal form: a literal, or ("and" | "or", its parts).
Tree = Literal | tuple[str, list["Tree"]]


@record
class Bounds:
    """What the quest allows: `happens(atom)` can the event ever become true; `fails(atom)` can it
    be false at some moment (every event is false at the start but the start area's reveal);
    `ranges` counter -> (lowest, highest) whole value, None for no bound."""

    happens: Callable[[n.EventCondition], bool]
    fails: Callable[[n.EventCondition], bool]
    ranges: dict[str, tuple[int | None, int | None]] = field(default_factory=dict)

    _known: dict[object, bool] = field(default_factory=dict, compare=False, repr=False)

    def range_of(self, counter: str) -> tuple[int | None, int | None]:
        return self.ranges.get(counter, (None, None))

    def may(self, literal: Event) -> bool:
        """Can the event literal be as it asks (true, or still false under a `not`)? Asked once per atom."""
        key = (literal.key, literal.positive)
        if key not in self._known:
            self._known[key] = (self.happens if literal.positive else self.fails)(literal.atom)
        return self._known[key]


def _nnf(condition: n.Condition, positive: bool = True, span: Span | None = None) -> Tree:
    """("and"|"or", [parts]) trees over literals, negations pushed down to the atoms."""
    if isinstance(condition, n.NotCondition):
        return _nnf(condition.operand, not positive, span or condition.span)
    if isinstance(condition, n.EventCondition):
        return Event(condition, positive, span or condition.span)
    if isinstance(condition, n.CompareCondition):
        return Count(condition, condition.op if positive else _FLIP[condition.op])
    parts = [_nnf(c, positive) for c in condition.operands]  # a `not` around them is no atom's
    conjunction = isinstance(condition, n.AllCondition) == positive
    return ("and" if conjunction else "or", parts)


def literal_holds(literal: Literal, bounds: Bounds) -> bool:
    """Can this one literal ever be true, on its own?"""
    return _consistent((literal,), bounds)


def _interval(literals: Iterable[Count], lo: int | None, hi: int | None) -> bool:
    """Is there a whole value within [lo, hi] meeting every comparison?"""
    excluded = set()
    for literal in literals:
        v, op = literal.atom.value, literal.op
        if op in ("<", "<="):
            top = v - 1 if op == "<" else v
            hi = top if hi is None else min(hi, top)
        elif op in (">", ">="):
            bottom = v + 1 if op == ">" else v
            lo = bottom if lo is None else max(lo, bottom)
        elif op == "=":
            lo = v if lo is None else max(lo, v)
            hi = v if hi is None else min(hi, v)
        else:  # "!="
            excluded.add(v)
    if lo is not None and hi is not None:
        if lo > hi:
            return False
        return sum(1 for v in excluded if lo <= v <= hi) < hi - lo + 1
    return True


def _consistent(literals: Iterable[Literal], bounds: Bounds) -> bool:
    polarity: dict[tuple[str, str], set[bool]] = {}
    counts: dict[str, list[Count]] = {}
    for literal in literals:
        if isinstance(literal, Event):
            if not bounds.may(literal):
                return False
            seen = polarity.setdefault(literal.key, set())
            seen.add(literal.positive)
            if len(seen) == 2:
                return False
        else:
            counts.setdefault(literal.counter, []).append(literal)
    return all(_interval(found, *bounds.range_of(counter)) for counter, found in counts.items())


class _TooLarge(Exception):
    """The expansion went past LIMIT alternatives or WORK literal checks."""


def _alternatives(tree: Tree, bounds: Bounds, work: list[int]) -> list[tuple[Literal, ...]]:
    """The consistent alternatives (conjunctions of literals) of a tree; _TooLarge past the limits."""
    if not isinstance(tree, tuple):
        return [(tree,)] if _consistent((tree,), bounds) else []
    kind, parts = tree
    if kind == "or":
        out: list[tuple[Literal, ...]] = []
        for part in parts:
            out += _alternatives(part, bounds, work)
            if len(out) > LIMIT:
                raise _TooLarge
        return out
    current: list[tuple[Literal, ...]] = [()]
    for part in parts:
        found = _alternatives(part, bounds, work)
        merged = []
        for left in current:
            for right in found:
                both = left + right
                work[0] += len(both)
                if work[0] > WORK:
                    raise _TooLarge
                if _consistent(both, bounds):
                    merged.append(both)
                    if len(merged) > LIMIT:
                        raise _TooLarge
        current = merged
        if not current:
            return []
    return current


def can_hold(condition: n.Condition, bounds: Bounds) -> bool:
    """Can the condition ever be true, given the bounds? (True when it is too large to tell.)"""
    try:
        return bool(_alternatives(_nnf(condition), bounds, [0]))
    except _TooLarge:
        return True


def literals(condition: n.Condition) -> list[Literal]:
    """Every literal of a condition in source order, each with its polarity after `not`s."""
    out: list[Literal] = []

    def walk(tree: Tree) -> None:
        if isinstance(tree, tuple):
            for part in tree[1]:
                walk(part)
        else:
            out.append(tree)

    walk(_nnf(condition))
    return out
