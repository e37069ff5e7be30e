"""Q803 part-of-spelled-differently: the code's descriptor and its check (run by questc.quest_sets)."""

from __future__ import annotations

import re
from pathlib import PurePath

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Severity, Span
from questc.rules import Rule
from questc.rules.encounters.examples import encounter
from questc.rules.encounters.members import Member

Q803 = Descriptor(
    code="Q803",
    name="part-of-spelled-differently",
    severity=Severity.ERROR,
    template="`part_of {written}` is spelled differently from `part_of {meant}` in {others}",
    label_template="`{meant}`?",
    help_template="write `part_of {meant}`: the encounters of one quest name it alike",
    summary="Files beside each other whose `part_of` names differ only in spelling: one quest split in two.",
    explanation="""
`part_of NAME` ties the encounters of a quest together, and a difference of one letter
or of case makes two quests: each looks incomplete, the guide prints them apart and
the Valkyrie export makes two. Files in one folder whose quest names differ only in
case, underscores or a letter or two are taken for a misspelling; the help names the
one most of the quest's files use (a lint of one file cannot fix another, so there is
no automatic fix).
""",
    example=Example(
        failing=encounter("toll_1", "1") + encounter("toll_2", "2", part_of="tol"),
        fixed=encounter("toll_1", "1") + encounter("toll_2", "2"),
    ),
    fields=("written", "meant", "others"),
)


def _key(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


def close(a: str, b: str) -> bool:
    """Are two quest names one name misspelled: alike but for case and underscores, or near enough?"""
    from difflib import SequenceMatcher  # only when there are two quests to compare

    return _key(a) == _key(b) or (min(len(a), len(b)) >= 3 and SequenceMatcher(None, _key(a), _key(b)).ratio() >= 0.85)


def spellings(quests: dict[str, list[Member]]) -> dict[str, str]:
    """Each quest name that misspells another of the same folder -> the name meant (the one more files
    use; on a tie, the one whose encounters come first)."""
    meant: dict[str, str] = {}
    # The name most files use; on a tie, the one of the lowest encounter (encounter 1 names the quest).
    names = sorted(quests, key=lambda q: (-len(quests[q]), min(m.sort_key for m in quests[q]), q))
    for i, name in enumerate(names):
        folders = {PurePath(m.path).parent for m in quests[name]}
        for other in names[:i]:
            if other in meant or not close(name, other):
                continue
            if folders & {PurePath(m.path).parent for m in quests[other]}:
                meant[name] = other
                break
    return meant


def check(quests: dict[str, list[Member]], whole: bool) -> list[Diagnostic]:
    """Q803: every file whose `part_of` misspells another quest's of its folder, at the name."""
    out = []
    for written, meant in spellings(quests).items():
        others = sorted({PurePath(m.path).name for m in quests[meant]})
        for member in quests[written]:
            span = member.header.part_of_span  # `part_of NAME`: the name ends it
            value = Span(
                span.file,
                span.end_line,
                span.end_column - len(written),
                span.end_line,
                span.end_column,
                span.end - len(written),
                span.end,
            )
            out.append(Q803.at(value, written=written, meant=meant, others=", ".join(others)))
    return out


RULE = Rule(Q803, reported_by=__name__)  # run by questc.quest_sets over the files of a quest
