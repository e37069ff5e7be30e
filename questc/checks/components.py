"""Q4xx: the resolved quest and the owned sets in; diagnostics out for components the boxes do not hold
(figures, map pieces, markers) and for the overlord's treachery budget and deck plan."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from questc.catalog.model import Count
from questc.checks.treachery import COLOURS, PUBLISHED_TOTALS, DeckPlan, price_plan
from questc.diagnostics.codes import q4xx
from questc.diagnostics.core import Descriptor, Diagnostic, Label, Severity, Span

# Labels after the first one too many: enough to find the others, not a wall of them.
MAX_LABELS = 8
PIECE_WORDS = {"dead_end": "dead end"}
# Marker kinds counted per colour as well as in all: the base game's three rune doors
# are one of each colour, and so (by estimate) are its three runekeys.
BY_COLOUR = ("rune_door", "runekey")


def run(context) -> list[Diagnostic]:
    """A CheckContext in, the Q401-Q409 diagnostics out."""
    model = context.model
    sets = owned_sets(context)
    found: list[Diagnostic] = []
    found += figure_counts(model, sets)
    found += piece_counts(model, sets)
    found += marker_counts(model, sets)
    found += treachery(model, sets)
    return found


def owned_sets(context) -> tuple[str, ...]:
    """The sets the user owns (`--expansions`, configuration), else the quest's own `expansions`."""
    return tuple(context.owned_sets) if context.owned_sets else tuple(context.model.expansions)


def _graded(diagnostic: Diagnostic, owned: Count) -> Diagnostic:
    """A count from a rule book makes an error; an estimate only a warning."""
    return diagnostic if owned.source == "rulebook" else diagnostic.with_severity(Severity.WARNING)


def _too_many(descriptor: Descriptor, owned: Count, items: list[tuple[Span, int]], label: str,
              **values) -> Diagnostic | None:
    """Counted items (span, how many markers) in source order; a diagnostic at the first beyond `owned`, or None.

    The other items beyond the count are labelled with `label`, then those within it with
    their running count, MAX_LABELS in all.
    """
    if owned.count is None:
        return None   # the books do not say: nothing to check against
    total = sum(weight for _, weight in items)
    if total <= owned.count:
        return None
    running, first, beyond, within = 0, None, [], []
    for span, weight in items:
        running += weight
        if running <= owned.count:
            within.append(Label(span, f"{running} of {owned.count}"))
        elif first is None:
            first = span
        else:
            beyond.append(Label(span, label))
    # Of the counted items, label the last one on each line: many marks on one line only clutter it.
    last_on_line = {label.span.line: label for label in within}
    labels = (beyond + list(last_on_line.values()))[:MAX_LABELS]
    diagnostic = descriptor.at(first, labels=labels, count=total, owned=owned.count, extra=total - owned.count,
                               **values)
    return _graded(diagnostic, owned)


# ---- Q403 figures ------------------------------------------------------------------------


def figure_counts(model, sets) -> list[Diagnostic]:
    """Q403: per monster type and figure colour, the most figures on the map at any supported player count."""
    low, high = model.players
    groups = defaultdict(list)
    for figure in model.figures:
        rank = "normal" if figure.rank == "normal" else "master"   # a named monster stands on a master figure
        groups[(figure.type.name, rank)].append(figure)
    found = []
    for (monster, rank), figures in groups.items():
        owned = model.catalog.figures_owned(monster, rank, sets)
        if owned.count is None:
            continue
        # The number present only grows where some figure's range begins, so those
        # player counts (and the quest's lowest) are the only ones to try.
        candidates = sorted({low} | {min(max(f.players[0], low), high) for f in figures if f.players})
        worst, present = None, []
        for players in candidates:
            here = [f for f in figures if f.players is None or f.players[0] <= players <= f.players[1]]
            if len(here) > len(present):
                worst, present = players, here
        if len(present) <= owned.count:
            continue
        at_worst = [p for p in range(low, high + 1)
                    if sum(1 for f in figures if f.players is None or f.players[0] <= p <= f.players[1])
                    > owned.count] if high - low <= 10 else [worst]
        players_text = _counts_text(at_worst)
        items = [(f.span, 1) for f in present]
        label = f"another {rank} {monster}"
        diagnostic = _too_many(q4xx.Q403, owned, items, label, rank=rank, monster=monster, players=players_text,
                               sets=", ".join(sets))
        if diagnostic is None:
            continue
        # Say where a named monster is the master figure being counted.
        named = {f.span: f.named for f in present if f.named}
        labels = tuple(Label(label.span, f"named `{named[label.span]}` stands on a master {monster} "
                                         f"({label.message})") if label.span in named else label
                       for label in diagnostic.labels)
        primary = diagnostic.label
        if diagnostic.span in named:
            primary = f"named `{named[diagnostic.span]}` stands on a master {monster}: one figure too many"
        found.append(replace(diagnostic, labels=labels, label=primary))
    return found


def _counts_text(counts: list[int]) -> str:
    """[4, 5] -> '4 or 5'; [2, 3, 4, 5] -> '2 to 5'; [3] -> '3'."""
    if len(counts) == 1:
        return str(counts[0])
    if len(counts) == 2:
        return f"{counts[0]} or {counts[1]}"
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


# ---- Q404 map pieces ---------------------------------------------------------------------


def piece_counts(model, sets) -> list[Diagnostic]:
    """Q404: map pieces of each kind (room, corridor, intersection, dead end) against the owned sets."""
    by_kind = defaultdict(list)
    for piece in model.pieces.values():
        if piece is not None:
            by_kind[piece.type.kind].append((piece.node.id.span, 1))
    found = []
    for kind, items in by_kind.items():
        word = PIECE_WORDS.get(kind, kind)
        diagnostic = _too_many(q4xx.Q404, model.catalog.pieces_owned(kind, sets), items,
                               f"another {word} piece", kind=word, sets=", ".join(sets))
        if diagnostic is not None:
            found.append(diagnostic)
    return found


# ---- Q405 markers ------------------------------------------------------------------------


def marker_counts(model, sets) -> list[Diagnostic]:
    """Q405: doors, rune doors, glyphs, encounters, staircases, chests, relics, runekeys and treasures."""
    catalog = model.catalog
    # (catalog marker kind, words for it) -> [(span, markers, colour)]
    counted: dict[tuple[str, str], list[tuple[Span, int, str | None]]] = defaultdict(list)
    for door in model.doors.values():
        if door.rune is None:
            counted[("door", "doors")].append((door.node.id.span, 1, None))
        else:
            counted[("rune_door", "rune doors")].append((door.node.id.span, 1, door.rune))
    for stairs in model.stairs:
        # `stairs` places a pair: the books count staircase markers, not pairs.
        counted[("staircase", "staircase markers")].append((stairs.node.colour.span, 2, None))
    words = {"glyph": "glyphs", "encounter": "encounter markers", "chest": "chest markers",
             "relic": "relic markers", "runekey": "runekeys"}
    treasures = []
    for marker in model.markers:
        if marker.kind == "treasure":
            treasures.append(marker)
        elif marker.kind in words:
            colour = marker.variant if marker.kind == "runekey" else None
            counted[(marker.kind, words[marker.kind])].append((marker.span, 1, colour))
    found = []
    for (kind, word), items in counted.items():
        owned = catalog.markers_owned(kind, sets)
        found += _marker_check(owned, items, word, sets)
        marker = catalog.markers.get(kind)
        if kind in BY_COLOUR and marker is not None and marker.variants and owned.count is not None \
                and owned.count % len(marker.variants) == 0:
            each = Count(owned.count // len(marker.variants), owned.source)
            for colour in marker.variants:
                of_colour = [item for item in items if item[2] == colour]
                found += _marker_check(each, of_colour, f"{colour} {word}", sets)
    by_treasure = defaultdict(list)
    for marker in treasures:
        by_treasure[marker.variant].append((marker.span, 1, None))
    for name, items in by_treasure.items():
        entry = catalog.treasures.get(name)
        title = entry.title if entry is not None and entry.title else name
        found += _marker_check(catalog.treasures_owned(name, sets), items, f"{title} markers", sets)
    return found


def _marker_check(owned: Count, items, word: str, sets) -> list[Diagnostic]:
    diagnostic = _too_many(q4xx.Q405, owned, [(span, weight) for span, weight, _ in items],
                           "one more", component=word, sets=", ".join(sets))
    return [diagnostic] if diagnostic is not None else []


# ---- Q401, Q402, Q406, Q407, Q408 treachery -------------------------------------------------


def treachery(model, sets) -> list[Diagnostic]:
    """The treachery budget (Q406, Q408) and the quest's own deck plan, priced (Q401, Q402, Q407, Q408)."""
    found = []
    field = model.header.get("treachery") if model.header is not None else None
    if model.treachery is not None and field is not None:
        if model.edition == "second":
            edition = model.header.get("edition")
            labels = [Label(edition.span, "a second edition quest")] if edition is not None else []
            found.append(q4xx.Q408.at(
                field.span, problem="treachery is a first edition rule: a `second` edition quest has none",
                label="not in a second edition quest", labels=labels,
                help="remove the `treachery` line, or make the quest `edition first`"))
        else:
            total = sum(model.treachery.get(c, 0) for c in COLOURS)
            low, high = PUBLISHED_TOTALS
            if not low <= total <= high:
                found.append(q4xx.Q406.at(field.span, total=total,
                                          harder="harder for the heroes" if total > high else "easier for the heroes"))
    if model.overlord is not None:
        plan = DeckPlan.from_syntax(model.overlord)
        found += price_plan(plan, model, sets).diagnostics
        found += dark_glyph_room(plan, model)
    return found


# ---- Q409 dark glyphs ----------------------------------------------------------------------


def dark_glyph_room(plan: DeckPlan, model) -> list[Diagnostic]:
    """Q409: a plan (the quest's or a YAML one) with more dark glyphs than glyphs that start inactive.

    Dark glyphs are laid in place of glyph markers, and a glyph active at the start may
    not be dark. Only dark glyphs the catalog knows count (an unknown one is Q101).
    """
    glyphs = [item for item in plan.items
              if item.kind == "dark_glyph" and item.name in model.catalog.dark_glyphs]
    markers = [m for m in model.markers if m.kind == "glyph"]
    inactive = sum(1 for m in markers if not m.active)
    if len(glyphs) <= inactive:
        return []
    extra = len(glyphs) - inactive
    labels = [Label(item.span, "another dark glyph with no glyph to hide it") for item in glyphs[inactive + 1:]]
    labels += [Label(m.span, "active at the start: may not be dark") for m in markers if m.active]
    return [q4xx.Q409.at(
        glyphs[inactive].span, labels=labels[:MAX_LABELS],
        planned=f"{len(glyphs)} dark glyph{'s' if len(glyphs) > 1 else ''}",
        inactive="none" if inactive == 0 else f"only {inactive}",
        more="a glyph that starts inactive" if extra == 1 else f"{extra} glyphs that start inactive",
        extra="a dark glyph" if extra == 1 else f"{extra} dark glyphs")]
