"""Q806 alternative-never-chosen: the code's descriptor and its check (run by questc.quest_sets)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.encounters.examples import encounter
from questc.rules.encounters.members import Member

_BRANCHES = "victory heroes when exited then encounter 2a\nvictory overlord when round > 6 then encounter 2b\n"

Q806 = Descriptor(
    code="Q806",
    name="alternative-never-chosen",
    severity=Severity.WARNING,
    template="no victory of encounter {before} leads on to encounter {encounter}",
    label_template="how is it chosen?",
    help_template="end a victory of encounter {before} with `then encounter {encounter}`",
    summary="An alternative encounter (`encounter 2b`) that no victory of the encounter before it chooses.",
    explanation="""
Where a quest branches, its alternatives share a number (`encounter 2a`, `encounter 2b`),
and the encounter before them says which comes next: `victory heroes when ... then
encounter 2a`, `victory overlord when ... then encounter 2b`. An alternative no victory
leads to is never played (or the players are left to guess when).
""",
    example=Example(
        failing=encounter("toll_1", "1", win="victory heroes when exited then encounter 2a\n")
        + encounter("toll_2a", "2a")
        + encounter("toll_2b", "2b"),
        fixed=encounter("toll_1", "1", win=_BRANCHES) + encounter("toll_2a", "2a") + encounter("toll_2b", "2b"),
    ),
    fields=("before", "encounter"),
)


def check(quests: dict[str, list[Member]], whole: bool) -> list[Diagnostic]:
    """Q806 (warning): an alternative encounter none of the previous number's files leads to (said only
    when those files were given)."""
    out = []
    for members in quests.values():
        for member in members:
            header = member.header
            if header.alternative is None or header.number is None or header.number < 2:
                continue
            before = [m for m in members if m.header.number == header.number - 1]
            if not before:
                continue
            chosen = {(n, a) for m in before for n, a, _span in m.header.nexts}
            if (header.number, header.alternative) not in chosen:
                out.append(
                    Q806.at(
                        header.encounter_span, before=before[0].label or str(header.number - 1), encounter=member.label
                    )
                )
    return out


RULE = Rule(Q806, reported_by=__name__)  # run by questc.quest_sets over the files of a quest
