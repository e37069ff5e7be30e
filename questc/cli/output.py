"""Printing the diagnostics of many quests in the chosen format."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from questc.emit.report import Summary, display_path

if TYPE_CHECKING:
    from questc.api import Diagnostic

# The formats of `questc lint --format`; each but text and json is a module of questc.emit
# with render(results).
FORMATS = ("text", "json", "github", "sarif", "junit", "gitlab")


def print_report(
    results,
    fmt: str,
    stream,
    verbose: bool = False,
    *,
    quiet: bool = False,
    statistics: bool = False,
    colour: str = "auto",
    strict: bool = False,
    fixing: bool = False,
    unsafe: bool = False,
) -> None:
    """Write the report of `results` to `stream`.

    `quiet` (text only) leaves out the diagnostics and prints just the summary, or
    nothing at all when there is no diagnostic to count. `statistics` (text or json)
    prints counts by code instead of the diagnostics. `colour` is auto, always or never.
    `strict` tells the JUnit report that warnings fail. `fixing` (a `--fix` run) leaves
    out the hint that fixes are available; `unsafe` counts the unsafe fixes as available.
    """
    diagnostics = [d for r in results for d in r.diagnostics]
    if statistics:
        from questc.emit import statistics as counts

        if fmt == "json":
            stream.write(counts.render_json(diagnostics))
        else:
            if not (quiet and not diagnostics):
                stream.write(counts.render_text(diagnostics))
                stream.write(Summary.of(diagnostics, len(results)).sentence(with_infos=verbose) + "\n")
        return
    if fmt == "json":
        from questc.emit.json_report import render_json

        stream.write(render_json(diagnostics, len(results)))
        return
    if fmt == "junit":
        from questc.emit.junit import render

        stream.write(render(results, strict=strict))
        return
    if fmt in ("github", "sarif", "gitlab"):
        from importlib import import_module

        module = import_module(f"questc.emit.{fmt}")
        stream.write(module.render(results))
        return
    if quiet:
        if diagnostics:
            stream.write(Summary.of(diagnostics, len(results)).sentence(with_infos=verbose) + "\n")
        return
    from questc.emit.text import TextRenderer, use_colour

    sources = {r.path: r.source for r in results}
    renderer = TextRenderer(_displayed(sources), colour=use_colour(stream, colour))
    shown = [_with_display_paths(d) for d in diagnostics]
    for d in shown:
        stream.write(renderer.render(d) + "\n\n")
    if not fixing:  # before the summary, which stays the last line (INTERFACE.md)
        hint = fixable_hint(diagnostics, unsafe)
        if hint:
            stream.write(hint + "\n")
    stream.write(Summary.of(diagnostics, len(results)).sentence(with_infos=verbose) + "\n")


def fixable_hint(diagnostics: Sequence[Diagnostic], unsafe: bool = False) -> str | None:
    """`2 fixable with `questc lint --fix` (1 more with --unsafe-fixes)`, or None when nothing is."""
    if not any(d.fixes for d in diagnostics):
        return None  # without importing the fixes
    from questc.api import allowed

    safe = sum(1 for d in diagnostics if any(allowed(f, unsafe) for f in d.fixes))
    more = sum(1 for d in diagnostics if d.fixes) - safe
    if not safe and not more:
        return None
    command = "questc lint --fix" + (" --unsafe-fixes" if unsafe else "")
    if not safe:
        return f"{more} fixable with `questc lint --fix --unsafe-fixes`"
    return f"{safe} fixable with `{command}`" + (f" ({more} more with --unsafe-fixes)" if more else "")


def _displayed(sources: dict[str, str]) -> dict[str, str]:
    return {display_path(path): text for path, text in sources.items()}


def _with_display_paths(d: Diagnostic) -> Diagnostic:
    from dataclasses import replace

    span = replace(d.span, file=display_path(d.span.file))
    labels = tuple(replace(label, span=replace(label.span, file=display_path(label.span.file))) for label in d.labels)
    return replace(d, span=span, labels=labels)
