"""Compiled second edition quests in; Valkyrie quests out: for each quest (the encounters of one
`part_of` together), a folder of the files Valkyrie's loader reads, and the export's diagnostics.

`questc build --only valkyrie` (questc.build) calls `read` on each compiled quest (in the
worker that checked it, in a parallel build) and `export` on all of them; `diagnose` runs
the same export for the diagnostics alone (the Q7xx examples' tests). The steps:
source.py reads the compiled quest into plain records, translate.py turns the encounters
of one quest into Valkyrie's components and events, and this module writes the files.
Same encounters in, same bytes out.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePath

from questc.diagnostics.core import Diagnostic, Severity
from questc.editions import Edition, edition, names
from questc.emit.valkyrie.source import Encounter, read
from questc.rules.export.valkyrie_missing_encounter import Q705

__all__ = ["LANGUAGE_FILE", "MARK", "ValkyrieExport", "diagnose", "export", "folder_of", "made_by_questc", "read"]

LANGUAGE_FILE = "Localization.English.txt"


@dataclass
class ValkyrieExport:
    """One Valkyrie quest: its folder's name, the quest files it is made from (in encounter
    order), its files (none when it was not made) and the export's diagnostics; `refused`
    says why it was not made when no diagnostic does (a first edition quest)."""

    folder: str
    paths: list[str]
    files: dict[str, bytes] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    refused: str | None = None

    @property
    def made(self) -> bool:
        return bool(self.files)


def folder_of(encounter: Encounter) -> str:
    """The folder a quest's Valkyrie quest goes in: its `part_of`, else its id."""
    return encounter.part_of or encounter.id


def export(encounters: list[Encounter]) -> list[ValkyrieExport]:
    """Encounters (one per compiled quest file, in any order) in; one ValkyrieExport per quest out,
    in the order each quest first appears. A quest with an error among its diagnostics has no files."""
    groups: dict[str, list[Encounter]] = {}
    for encounter in encounters:
        groups.setdefault(folder_of(encounter), []).append(encounter)
    return [_export_one(folder, members) for folder, members in groups.items()]


def _export_one(folder: str, members: list[Encounter]) -> ValkyrieExport:
    from questc.emit.valkyrie.translate import translate

    members = sorted(members, key=lambda e: (e.encounter or 0, e.alternative or ""))
    out = ValkyrieExport(folder, [e.path for e in members])
    other = [e for e in members if "valkyrie" not in edition(e.edition).exports]
    if other:
        played = " and ".join(e.name for e in editions_exporting())
        out.refused = (
            f"{other[0].path} is a {other[0].edition} edition quest: Valkyrie plays {played} edition "
            "quests only, so there is no Valkyrie quest to make of it"
        )
        return out
    out.diagnostics += _missing_encounters(folder, members)
    if out.diagnostics:
        return out
    quest, found = translate(members)
    out.diagnostics += found
    if not any(d.severity is Severity.ERROR for d in found):
        out.files = _files(quest, members)
    return out


def _missing_encounters(folder: str, members: list[Encounter]) -> list[Diagnostic]:
    """Q705 for a quest of several encounters that are not numbered 1, 2, ... without a gap (a number
    may come as alternatives, 2a and 2b), or that give one twice."""
    if len(members) == 1 and members[0].encounter in (None, 1):
        return []
    labels = [e.label for e in members]
    expected = 1
    for member in members:
        if member.encounter is not None and (
            member.encounter == expected
            or member.encounter == expected - 1
            and member.alternative is not None
            and labels.count(member.label) == 1
        ):
            expected = member.encounter + 1
            continue
        span = member.encounter_span or member.header
        if member.encounter is None:
            problem, label = f"{member.path} gives no `encounter` number", "which encounter is this?"
        elif labels.count(member.label) > 1 or member.encounter < expected:
            problem, label = f"encounter {member.label} is given twice", "a second encounter of this number"
        else:
            problem = f"encounter {expected} of `{folder}` is missing"
            label = f"encounter {member.label} follows no encounter {expected}"
        where = PurePath(member.path.replace("\\", "/")).parent.as_posix()
        return [Q705.at(span, problem=problem, quest=folder, label=label, folder=where if where != "." else ".")]
    return []


def _files(quest, members: list[Encounter]) -> dict[str, bytes]:
    """A translated quest in; its folder's files (name -> bytes) out."""
    from questc import __version__
    from questc.valkyrie.ini import write_ini
    from questc.valkyrie.localization import write_localization

    sources = ", ".join(PurePath(m.path.replace("\\", "/")).name for m in members)
    comment = f"Made by questc {__version__} from {sources}: edit the quest, not this file."
    by_file: dict[str, list] = {}
    for section in quest.sections:
        by_file.setdefault(section.file, []).append((section.name, section.lines()))
    from questc.emit.valkyrie.translate import FILES

    data_files = [name for name in FILES if name in by_file]
    files = {
        "quest.ini": write_ini(
            [
                ("Quest", quest.header),
                ("QuestText", [(LANGUAGE_FILE, None)]),
                ("QuestData", [(name, None) for name in data_files]),
            ],
            comment,
        )
    }
    for name in data_files:
        files[name] = write_ini(by_file[name], comment)
    texts = list(quest.texts)
    for section in quest.sections:
        texts += [(f"{section.name}.{element}", text) for element, text in section.texts]
    files[LANGUAGE_FILE] = write_localization(texts)
    return {name: text.encode("utf-8") for name, text in files.items()}


def diagnose(results) -> list[Diagnostic]:
    """Checked quests (QuestResults) in; the diagnostics the Valkyrie export of those that compiled gives out."""
    return [
        d for made in export([read(r.compiled) for r in results if r.compiled is not None]) for d in made.diagnostics
    ]


def editions_exporting() -> list[Edition]:
    """The editions whose quests Valkyrie plays (Edition.exports holds `valkyrie`)."""
    return [e for e in (edition(name) for name in names()) if "valkyrie" in e.exports]


MARK = b"; Made by questc "


def made_by_questc(folder) -> bool:
    """True when `folder` is a Valkyrie quest questc exported (its quest.ini says so): the only kind
    of existing folder an export replaces."""
    from pathlib import Path

    try:
        with open(Path(folder) / "quest.ini", "rb") as handle:
            return handle.read(len(MARK)) == MARK
    except OSError:
        return False
