"""Diagnostics: what every stage reports, and the table of codes."""
from questc.diagnostics.core import Descriptor, Diagnostic, Example, Label, Severity, Span
from questc.diagnostics.registry import all_descriptors, descriptor

__all__ = ["Descriptor", "Diagnostic", "Example", "Label", "Severity", "Span",
           "all_descriptors", "descriptor"]
