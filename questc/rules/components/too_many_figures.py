"""Q403 too-many-figures: the code's descriptor and the check that finds it."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity
from questc.rules import Rule
from questc.rules import second_examples
from questc.rules.components.counting import too_many
from questc.rules.components.examples import WOD, quest
from questc.rules.context import CheckContext

Q403 = Descriptor(
    code="Q403", name="too-many-figures", severity=Severity.ERROR,
    template="{counted} {are} on the map with {players} players, but {holding}",
    label_template="one figure too many",
    help_template="remove {extra} of them, use another monster type, or keep some for fewer players "
                  "with `players a..b`{hint}",
    summary="More figures of a monster type (normal or master) than the owned sets hold.",
    explanation="""
The overlord can only place the figures the box holds. Normal (tan) and master (red)
figures are counted apart; a named monster stands on a master figure.

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
        fixed=quest(WOD, "  monster golem at 2,2 4,2\n  monster kobold at 2,4\n")),
    fields=("counted", "are", "players", "holding", "extra", "hint"),
)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q403: per monster type and figure colour, the most figures on the map at any supported player count."""
    model = context.model
    low, high = model.players
    groups = defaultdict(list)
    for figure in model.figures:
        rank = "normal" if figure.rank == "normal" else "master"   # a named monster stands on a master figure
        groups[(figure.type.name, rank)].append(figure)
    found = []
    for (monster, rank), figures in groups.items():
        held = context.box.held("figures", monster, rank)
        owned = held.count
        if owned.count is None:
            continue
        # The number present only grows where some figure's range begins, so those
        # player counts (and the quest's lowest) are the only ones to try.
        candidates = sorted({low} | {min(max(f.players[0], low), high) for f in figures if f.players})
        worst: int = low
        present: list = []
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
        diagnostic = too_many(Q403, held, items, label, f"{rank} {monster} figure", players=players_text)
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


RULE = Rule(Q403, find, examples=(Example(   # second edition: more zombies than its box holds
    failing=second_examples.second("  monster zombie at 0,0 1,0 2,0 3,0 0,1 1,1\n"),
    fixed=second_examples.second("  monster zombie at 0,0 1,0\n")),))
