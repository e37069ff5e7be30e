"""The encounters of a quest as the Q8xx checks see them: each file and what its header says."""

from __future__ import annotations

from typing import TYPE_CHECKING

from questc.records import record

if TYPE_CHECKING:
    from questc.model.quest import EncounterHeader


@record
class Member:
    """One encounter of a quest: its file and its header's facts."""

    path: str
    header: EncounterHeader

    @property
    def label(self) -> str | None:
        return self.header.label

    @property
    def sort_key(self) -> tuple[int, str, str]:
        return (self.header.number if self.header.number is not None else 0, self.header.alternative or "", self.path)


def encounter_words(label: str | None) -> str:
    """`encounter 2a` (or `a file with no encounter number`)."""
    return f"encounter {label}" if label is not None else "a file with no `encounter` number"
