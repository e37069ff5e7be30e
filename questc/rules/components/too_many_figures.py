"""Q403 too-many-figures: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity, Span
from questc.model.quest import GroupModel
from questc.rules import Rule, second_examples
from questc.rules.components.counting import too_many
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext

Q403 = Descriptor(
    code="Q403",
    name="too-many-figures",
    severity=Severity.ERROR,
    template="{counted} {are} on the map with {players} players, but {holding}",
    label_template="one figure too many",
    help_template="remove {extra} of them, use another monster type, or keep some for fewer players "
    "with `players a..b`{hint}",
    summary="More figures of a monster type (normal or master) than the owned sets hold.",
    explanation="""
The overlord can only place the figures the box holds. Normal (tan) and master (red)
figures are counted apart; a named monster stands on a master figure. A second edition
group (`group TYPE on ...`) counts as many figures as it has minions and masters with
the quest's number of heroes (the players but the overlord, at least two); when that
size is the monster card's estimate, not written, the count is a warning.

Every area may be revealed while monsters of earlier areas still stand, so the
figures of the whole quest are counted together, for each player count the quest
supports: a figure written with `players a..b` counts only for those player counts.
The worst player count is reported. Monsters that effects `spawn` are not counted:
the overlord may take a figure off the board to place it again.

The rule books count the figures of The Well of Darkness; the base game's 39 normal
and 21 master figures are split over its twelve types by estimate. A count built on a
rule book's number is an error; one built on an estimate is a warning that says
"estimated" and how to declare the real number. A box that holds more (two base
games, figures bought apart) is declared in the configuration's `[owned]` table
(`sets = { base = 2 }`, or `figures = { skeleton = { normal = 8, master = 3 } }`): a
count declared is counted against, and is an error when exceeded.
""",
    example=Example(
        failing=quest(WOD, "  monster golem at 2,2 4,2 2,4\n"),
        fixed=quest(WOD, "  monster golem at 2,2 4,2\n  monster kobold at 2,4\n"),
    ),
    fields=("counted", "are", "players", "holding", "extra", "hint"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q403: per monster type and figure colour, the most figures on the map at any supported player count
    (the figures at points, and the groups the overlord places, sized by the number of heroes), counted
    against the box owned (`context.box`: the sets counted and what the writer declared)."""
    model = context.model
    low, high = model.players
    # (monster, colour) -> what counts: (its span, how many figures it is with p players, its name if named)
    counted: dict[tuple[str, str], list[tuple[Span, Callable[[int], int], str | None]]] = defaultdict(list)
    estimated: set[tuple[str, str]] = set()  # counts that take a group's size from an estimated card
    for figure in model.figures:
        rank = "normal" if figure.rank == "normal" else "master"  # a named monster stands on a master figure
        counted[(figure.type.name, rank)].append((figure.span, _present(figure.players), figure.named))
    for group in model.groups.values():
        if group.kind != "monster" or group.type is None:
            continue
        for index, rank in enumerate(("normal", "master")):
            key = (group.type.name, rank)
            counted[key].append((group.span, _group_size(group, index), None))
            if (group.minions, group.masters)[index] is None and group.type.group_source == "estimate":
                estimated.add(key)
    changes = {3, 4, 5} | {
        end for figure in model.figures if figure.players for end in (figure.players[0], figure.players[1] + 1)
    }
    found = []
    for (monster, rank), entries in counted.items():
        held = context.box.held("figures", monster, rank)
        owned = held.count
        if owned.count is None:
            continue
        # The count changes only where a figure's `players` range begins or ends and where a group grows
        # (3, 4 and 5 players): those player counts and the quest's fewest are the only ones to try.
        tried = (
            range(low, high + 1) if high - low <= 10 else sorted({low, high} | {p for p in changes if low <= p <= high})
        )
        totals = {players: sum(size(players) for _, size, _ in entries) for players in tried}
        worst = max(totals, key=lambda players: (totals[players], -players))
        if totals[worst] <= owned.count:
            continue
        players_text = _counts_text([p for p, total in totals.items() if total > owned.count])
        present = sorted(
            ((span, size(worst), named) for span, size, named in entries if size(worst) > 0),
            key=lambda entry: entry[0].start,
        )
        items = [(span, weight) for span, weight, _ in present]
        label = f"another {rank} {monster}"
        diagnostic = too_many(Q403, held, items, label, f"{rank} {monster} figure", players=players_text)
        if diagnostic is None:
            continue
        if (monster, rank) in estimated:  # a group's size from the card is an estimate
            diagnostic = diagnostic.with_severity(Severity.WARNING)
        # Say where a named monster is the master figure being counted.
        named = {span: name for span, _, name in present if name}
        labels = tuple(
            Label(label.span, f"named `{named[label.span]}` stands on a master {monster} ({label.message})")
            if label.span in named
            else label
            for label in diagnostic.labels
        )
        primary = diagnostic.label
        if diagnostic.span in named:
            primary = f"named `{named[diagnostic.span]}` stands on a master {monster}: one figure too many"
        found.append(replace(diagnostic, labels=labels, label=primary))
    return found


def _present(players: tuple[int, int] | None) -> Callable[[int], int]:
    """One figure with the player counts it is written for (`players a..b`), none with the others."""
    return lambda count: 1 if players is None or players[0] <= count <= players[1] else 0


def _group_size(group: GroupModel, index: int) -> Callable[[int], int]:
    """A group's minions (index 0) or masters (1) with that many players: one hero each but the
    overlord, at least two."""
    return lambda count: group.size(max(2, count - 1))[index]


def _counts_text(counts: list[int]) -> str:
    """[4, 5] -> '4 or 5'; [2, 3, 4, 5] -> '2 to 5'; [3] -> '3'."""
    if len(counts) == 1:
        return str(counts[0])
    if len(counts) == 2:
        return f"{counts[0]} or {counts[1]}"
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


RULE = Rule(
    Q403,
    find,
    examples=(
        Example(
            # second edition: a group of as many zombies as heroes (four with five players), and one more at a point
            failing=second_examples.second("  group zombie on T minions heroes\n  monster zombie at 0,0\n"),
            fixed=second_examples.second("  group zombie on T minions heroes -1\n  monster zombie at 0,0\n"),
        ),
    ),
)
