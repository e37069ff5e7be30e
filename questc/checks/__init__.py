"""The checks: one module per code family, each a function per code returning Diagnostics.

`FAMILIES` is the one table of what runs and in which phase. A phase runs only
when the phases before it found no error, so a broken map does not also report
every reveal problem that follows from it (causes, not cascades).
"""
from __future__ import annotations

from importlib import import_module

# (phase, module): each module defines `run(context) -> list[Diagnostic]`.
FAMILIES: tuple[tuple[str, str], ...] = (
    ("placement", "questc.checks.placement"),    # Q2xx
    ("reveal", "questc.checks.reveal"),          # Q3xx
    ("components", "questc.checks.components"),  # Q4xx
    ("logic", "questc.checks.logic"),            # Q5xx
)


def family_runners():
    """The check families present in this installation, in phase order."""
    runners = []
    for phase, module_name in FAMILIES:
        try:
            module = import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue
        runners.append((phase, module.run))
    return runners
