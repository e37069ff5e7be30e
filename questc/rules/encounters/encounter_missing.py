"""Q802 encounter-missing: the code's descriptor and its check (run by questc.quest_sets)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.encounters.examples import encounter
from questc.rules.encounters.members import Member

Q802 = Descriptor(
    code="Q802",
    name="encounter-missing",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A quest of several encounters with a number missing (encounter 3 and no encounter 2), or a "
    "file of it that gives no encounter number.",
    explanation="""
A quest's encounters are played in order, 1, 2, 3..., each in a file of its own that says
which it is (`encounter 2`, or `encounter 2a` for one of two alternatives) and the quest
it belongs to (`part_of NAME`, the same in every file). When `questc lint` is given a
folder, it checks each quest's encounters together: a number with no file, or a file
of the quest with no number, means an encounter was lost or misnamed. (Given single
files, questc cannot know the others: it says nothing about what is missing.)
""",
    example=Example(
        failing=encounter("toll_1", "1") + encounter("toll_3", "3"),
        fixed=encounter("toll_1", "1") + encounter("toll_2", "2"),
    ),
    fields=("problem", "label", "help_text"),
)


def check(quests: dict[str, list[Member]], whole: bool) -> list[Diagnostic]:
    """Q802: a file of a quest of several with no encounter number; when the whole folder was given, the
    numbers from 1 to the highest that no file has (reported on the file after the gap)."""
    out = []
    for quest, members in quests.items():
        if len(members) > 1:
            for member in members:
                if member.header.number is None:
                    out.append(
                        Q802.at(
                            member.header.part_of_span,
                            problem=f"{member.path} is part of `{quest}` but gives no encounter number",
                            label="which encounter is this?",
                            help_text="give it its number in the header: `encounter 1`",
                        )
                    )
        if not whole:
            continue
        numbers = sorted({m.header.number for m in members if m.header.number is not None})
        if not numbers:
            continue
        for missing in sorted(set(range(1, numbers[-1] + 1)) - set(numbers)):
            after = next(m for m in members if m.header.number is not None and m.header.number > missing)
            out.append(
                Q802.at(
                    after.header.encounter_span,
                    problem=f"encounter {missing} of `{quest}` is missing",
                    label=f"encounter {after.label} follows no encounter {missing}",
                    help_text=f"write encounter {missing} in a file with `part_of {quest}` beside "
                    "the others, or renumber them",
                )
            )
    return out


RULE = Rule(Q802, reported_by=__name__)  # run by questc.quest_sets over the files of a quest
