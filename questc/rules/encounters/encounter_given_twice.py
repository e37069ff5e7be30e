"""Q801 encounter-given-twice: the code's descriptor and its check (run by questc.quest_sets)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.encounters.examples import encounter
from questc.rules.encounters.members import Member, encounter_words

Q801 = Descriptor(
    code="Q801",
    name="encounter-given-twice",
    severity=Severity.ERROR,
    template="{problem} in `{quest}`",
    label_template="{label}",
    help_template="{help_text}",
    summary="Two files of one quest say they are the same encounter (or both encounter 2 and an "
    "alternative encounter 2a).",
    explanation="""
The encounters of a quest (`part_of NAME`) are numbered 1, 2, 3... and each number is one
file, or, where the quest branches, alternatives of that number (`encounter 2a`,
`encounter 2b`), one file each. Two files with one number would be played in each
other's place, and a plain `encounter 2` beside a `2a` leaves it open which is played.
""",
    example=Example(
        failing=encounter("toll_1", "1") + encounter("toll_2", "2") + encounter("toll_2_again", "2"),
        fixed=encounter("toll_1", "1") + encounter("toll_2", "2") + encounter("toll_3", "3"),
    ),
    fields=("problem", "quest", "label", "help_text"),
)


def check(quests: dict[str, list[Member]], whole: bool) -> list[Diagnostic]:
    """Q801: a label given by more than one file (the later files are reported), and a number given
    both plainly and as alternatives (the plain one is reported)."""
    out = []
    for quest, members in quests.items():
        seen: dict[str, Member] = {}
        for member in members:
            label = member.label
            if label is None:
                continue
            first = seen.setdefault(label, member)
            if first is not member:
                out.append(
                    Q801.at(
                        member.header.encounter_span,
                        problem=f"{encounter_words(label)} is given twice",
                        quest=quest,
                        label=f"{first.path} is {encounter_words(label)} too",
                        help_text="number the encounters 1, 2, 3... one file each (alternatives "
                        "of one number as 2a, 2b)",
                    )
                )
        for member in members:
            header = member.header
            if header.number is None or header.alternative is not None:
                continue
            alternatives = sorted(
                m.label or "" for m in members if m.header.number == header.number and m.header.alternative is not None
            )
            if alternatives:
                out.append(
                    Q801.at(
                        header.encounter_span,
                        problem=f"encounter {header.number} is given beside its alternatives {', '.join(alternatives)}",
                        quest=quest,
                        label="which is played?",
                        help_text=f"make it one of the alternatives (`encounter {header.number}"
                        f"{chr(ord(max(alternatives)[-1]) + 1)}`), or number it apart",
                    )
                )
    return out


RULE = Rule(Q801, reported_by=__name__)  # run by questc.quest_sets over the files of a quest
