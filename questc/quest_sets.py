"""The reports of the quest files a run was given in; the same, with what the encounters of each quest
say together (the Q8xx family, questc.rules.encounters) added to the reports of the files it is about.

A quest of several encounters is the files that say `part_of NAME`, one encounter each. Its
checks see what each file's header says (QuestSummary.encounters, kept after a long run lets the
model go), never the maps. "Whole" quests are those whose folder the run was given (a folder
walked, not single files): only then can a missing encounter be told from one not given.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from questc.diagnostics.core import Diagnostic
from questc.options import Options, apply_policy
from questc.pipeline import QuestResult
from questc.rules.encounters import checks
from questc.rules.encounters.members import Member
from questc.rules.encounters.part_of_spelled_differently import spellings

__all__ = ["check_sets", "members", "diagnose", "example_files"]


def members(results: Iterable[QuestResult]) -> dict[str, list[Member]]:
    """part_of -> its encounters (a file without `part_of` is a quest of its own), in encounter order."""
    found: dict[str, list[Member]] = {}
    for result in results:
        header = result.summary.encounters if result.summary is not None else None
        if header is not None and header.part_of is not None:
            found.setdefault(header.part_of, []).append(Member(result.path, header))
    return {quest: sorted(group, key=lambda m: m.sort_key) for quest, group in found.items()}


def _merged(quests: dict[str, list[Member]]) -> dict[str, list[Member]]:
    """The quests with each misspelled `part_of` (Q803 says so) counted with the one it means, so the
    other checks do not repeat it as a missing encounter."""
    meant = spellings(quests)
    out: dict[str, list[Member]] = {}
    for quest, group in quests.items():
        out.setdefault(meant.get(quest, quest), []).extend(group)
    return {quest: sorted(group, key=lambda m: m.sort_key) for quest, group in out.items()}


def _within(path: str, folders: Iterable[Path]) -> bool:
    where = Path(path).resolve().parent
    return any(where == f or f in where.parents for f in folders)


def find(results: list[QuestResult], folders: Iterable[Path] = (), whole: bool | None = None) -> list[Diagnostic]:
    """The Q8xx diagnostics of the quests among `results` (before the policy). A quest is whole when
    `whole` says so, else when all its files lie in the `folders` the run was given."""
    folders = [Path(f).resolve() for f in folders]
    quests = members(results)
    out: list[Diagnostic] = []
    spelled = _merged(quests)
    for check in checks():
        if check.__module__.endswith("part_of_spelled_differently"):
            out += check(quests, True)  # Q803 compares the quests' names as written, all at once
            continue
        for quest, group in spelled.items():
            complete = whole if whole is not None else all(_within(m.path, folders) for m in group)
            out += check({quest: group}, complete)
    return out


def check_sets(results: list[QuestResult], options: Options, folders: Iterable[Path] = ()) -> list[QuestResult]:
    """The results with the encounter diagnostics added to the file each points into (the policy applied),
    in the same order."""
    found = find(results, folders)
    if not found:
        return results
    by_file: dict[str, list[Diagnostic]] = {}
    for diagnostic in found:
        by_file.setdefault(diagnostic.span.file, []).append(diagnostic)
    for result in results:
        extra = by_file.get(result.path)
        if extra:
            result.all_diagnostics = sorted(result.all_diagnostics + extra, key=Diagnostic.sort_key)
            result.diagnostics = sorted(result.diagnostics + apply_policy(extra, options), key=Diagnostic.sort_key)
    return results


def diagnose(results: list[QuestResult]) -> list[Diagnostic]:
    """The encounter diagnostics of results checked as one whole folder (the rules' examples)."""
    return find(results, whole=True)


_FILE = re.compile(r"^# file: (\S+)\n", re.M)


def example_files(source: str) -> dict[str, str]:
    """An example of several files (each after a `# file: NAME.quest` line) in; name -> text out."""
    parts = _FILE.split(source)
    return {parts[i]: parts[i + 1] for i in range(1, len(parts) - 1, 2)}
