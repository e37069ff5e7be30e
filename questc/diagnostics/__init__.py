"""Diagnostics: the values every stage reports problems with (spans, labels, diagnostics, descriptors).

The table of codes is questc.rules: one module per code, listed in its family's `RULES`.
"""

from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity, Span

__all__ = ["Descriptor", "Diagnostic", "Example", "Label", "Severity", "Span"]
