"""What a run is asked to do: owned sets, code selection, severities, strictness, packs."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from questc.diagnostics.core import Diagnostic, Severity
from questc.diagnostics.registry import descriptor


@dataclass(frozen=True)
class Options:
    """Settings from the configuration file and the command line (the command line wins).

    select/ignore hold code prefixes (`Q3`, `Q305`); `severity` maps a code or
    prefix to error, warning, info or off. `packs` are content pack paths, each
    relative to `packs_base`.
    """

    owned_sets: tuple[str, ...] | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: dict[str, str] = field(default_factory=dict)
    per_file_ignores: dict[str, tuple[str, ...]] = field(default_factory=dict)
    strict: bool = False
    verbose: bool = False
    packs: tuple[str, ...] = ()
    packs_base: Path | None = None
    root: Path | None = None


def _matches(code: str, prefixes) -> bool:
    return any(code.startswith(p.upper()) for p in prefixes)


def _longest(code: str, table: dict[str, str]) -> str | None:
    best = None
    for prefix in table:
        if code.startswith(prefix.upper()) and (best is None or len(prefix) > len(best)):
            best = prefix
    return table[best] if best is not None else None


def apply_policy(diagnostics: list[Diagnostic], options: Options, extra_ignores=()) -> list[Diagnostic]:
    """Select, ignore and re-grade diagnostics as configured.

    Syntax and reference codes (minimum severity error) can be neither switched off
    nor lowered: a quest with a broken name cannot be compiled whatever the settings.
    """
    kept = []
    for d in diagnostics:
        entry = descriptor(d.code)
        locked = entry is not None and entry.minimum is Severity.ERROR
        if not locked:
            if options.select and not _matches(d.code, options.select):
                continue
            if _matches(d.code, options.ignore) or _matches(d.code, extra_ignores):
                continue
            level = _longest(d.code, options.severity)
            if level == "off":
                continue
            if level in ("error", "warning", "info"):
                d = d.with_severity(Severity(level))
        if d.severity is Severity.INFO and not options.verbose:
            continue
        kept.append(d)
    return kept
