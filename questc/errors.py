"""Every exception questc raises on purpose, in one place.

Bad input in a quest is never an exception: it is a Diagnostic. These are for what
stops a run (a missing file, a bad option or configuration: exit status 2), for input
that is not a quest (a deck plan, an engine JSON file), and for faults of questc
itself (a broken installation, a formatter that would lose meaning).
"""
from __future__ import annotations

__all__ = ["QuestcError", "PlanError", "CatalogError", "PackProblem", "QuestJSONError",
           "UnsupportedFormatVersion", "FormatterError", "SheetTemplateError", "ImportFailed"]


class QuestcError(Exception):
    """A problem with how questc was asked to run (a missing file, a bad option, a bad configuration):
    exit status 2, with this message."""


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
