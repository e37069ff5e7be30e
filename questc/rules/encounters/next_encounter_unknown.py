"""Q805 next-encounter-unknown: the code's descriptor and its check (run by questc.quest_sets)."""

from __future__ import annotations

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity
from questc.rules import Rule
from questc.rules.encounters.examples import encounter
from questc.rules.encounters.members import Member, encounter_words

Q805 = Descriptor(
    code="Q805",
    name="next-encounter-unknown",
    severity=Severity.ERROR,
    template="`then encounter {encounter}` {problem}",
    label_template="{label_text}",
    help_template="{help_text}",
    summary="A victory leads on to an encounter the quest does not have, or to one that does not follow.",
    explanation="""
`victory heroes when ... then encounter 2a` says which encounter the quest goes on to
when that victory comes: where a quest branches (encounters 2a and 2b), each victory
of encounter 1 names its branch. The encounter named must be one of the quest's, and
the next one: encounter 1 leads to an encounter 2 (or an alternative of it).
""",
    example=Example(
        failing=encounter("toll_1", "1", win="victory heroes when exited then encounter 2b\n")
        + encounter("toll_2a", "2a"),
        fixed=encounter("toll_1", "1", win="victory heroes when exited then encounter 2a\n")
        + encounter("toll_2a", "2a"),
    ),
    fields=("encounter", "problem", "label_text", "help_text"),
)


def check(quests: dict[str, list[Member]], whole: bool) -> list[Diagnostic]:
    """Q805: a `then encounter N` of a file that is not the next number; when the whole folder was
    given, one that names no encounter of the quest."""
    out = []
    for quest, members in quests.items():
        labels = {m.label for m in members if m.label is not None}
        for member in members:
            own = member.header.number
            for number, alternative, span in member.header.nexts:
                label = f"{number}{alternative or ''}"
                if own is not None and number != own + 1:
                    out.append(
                        Q805.at(
                            span,
                            encounter=label,
                            problem=f"does not follow {encounter_words(member.label)}",
                            label_text=f"not encounter {own + 1}",
                            help_text=f"lead on to encounter {own + 1} (or an alternative of it)",
                        )
                    )
                elif whole and label not in labels:
                    known = ", ".join(sorted(labels)) or "none"
                    out.append(
                        Q805.at(
                            span,
                            encounter=label,
                            problem=f"names no encounter of `{quest}`",
                            label_text="no such encounter",
                            help_text=f"the quest's encounters are {known}",
                        )
                    )
    return out


RULE = Rule(Q805, reported_by=__name__)  # run by questc.quest_sets over the files of a quest
