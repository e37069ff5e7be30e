"""questc: the quest compiler for Descent: Journeys in the Dark.

The library's face is `questc.api` (check, build, guide); this package root only
carries the version, so importing it costs nothing.
"""

__version__ = "0.1.0"
