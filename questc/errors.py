"""Every exception questc raises on purpose, in one place.

Bad input in a quest is never an exception: it is a Diagnostic. These are for what
stops a run (a missing file, a bad option or configuration: exit status 2; an output
that must not or cannot be written: exit status 1), for input
that is not a quest (a deck plan, an engine JSON file), and for faults of questc
itself (a broken installation, a formatter that would lose meaning).
"""

from __future__ import annotations

__all__ = [
    "QuestcError",
    "BuildError",
    "OutputRefused",
    "PlanError",
    "CatalogError",
    "PackProblem",
    "QuestJSONError",
    "UnsupportedFormatVersion",
    "FormatterError",
    "SheetTemplateError",
    "ImportFailed",
]


class QuestcError(Exception):
    """A problem with how questc was asked to run (a missing file, a bad option, a bad configuration):
    exit status 2, with this message."""


class BuildError(QuestcError):
    """A build, a guide or another output that must not start (an output kind that cannot be
    made, a bad SOURCE_DATE_EPOCH, a guide order naming a quest not given): found before
    anything is written. Exit status 2, unless it is an OutputRefused."""


class OutputRefused(BuildError):
    """An output the run was asked to write that it must not or cannot write: it would replace
    one of the run's inputs or a file `questc new` never overwrites, a file or folder stands in
    its way, the system refuses it (a read-only mount, a full disk). Nothing of it is written.
    Exit status 1, like an input with errors: the command was called right, but what it was
    given to write to is the problem (docs/choices.md)."""


class PlanError(QuestcError):
    """A YAML deck plan file that cannot be read as a plan (bad YAML, wrong shape)."""


class CatalogError(RuntimeError):
    """The built-in catalog (cards/*.yaml) is broken: an installation fault, not bad input."""


class PackProblem(Exception):
    """One reason a catalog file cannot be used; the text follows "content pack `p`: " in a Q106."""


class QuestJSONError(ValueError):
    """The input is not a valid questc engine JSON document (with the reason why)."""


class UnsupportedFormatVersion(QuestJSONError):
    """The document's `format_version` is one this loader does not know (newer, usually)."""


class FormatterError(Exception):
    """The formatter would have changed what a quest means or lost a comment (a bug in questc)."""


class SheetTemplateError(ValueError):
    """A sheet template produced markup the layout cannot use (an unknown style, a stray @cell...)."""


class ImportFailed(QuestcError):
    """What `questc import` was given cannot be imported: not a quest of that kind, or one its own
    app could not load (a broken file, an unknown section). Bad input: exit status 1, with this
    message, which names the file and line where it can."""
