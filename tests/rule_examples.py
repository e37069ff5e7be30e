"""Running a rule's examples as quest files, as tests/test_rules.py and tests/test_rule_snapshots.py do.

An example is checked as a file `example.quest` in a folder of its own (the packs it `use`s
written beside it), with the infos shown; a family whose codes a later stage finds (`CHECKED_BY`:
the Valkyrie export) runs that stage on the compiled quest too. Each failing example is run once
per test session and kept: both modules read it.
"""
from __future__ import annotations

import atexit
import importlib
import importlib.util
import re
import shutil
import tempfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

from questc.api import Diagnostic, Options, QuestResult, check_source, parse_source
from questc.editions import DEFAULT
from questc.rules import FAMILIES, all_rules, family_rules

# A minimal valid content pack, for fixed examples that `use` one.
EMPTY_PACK = "description: An empty test pack.\nset: {name}\nsets:\n  {name}:\n    title: Test pack\n"


@dataclass(frozen=True)
class Run:
    """An example checked: its source, the folder it was checked in, every diagnostic (the checks' and
    the later stage's) and the check's result."""

    source: str
    folder: Path
    diagnostics: tuple[Diagnostic, ...]
    result: QuestResult

    @property
    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]


def family_of(code: str) -> ModuleType:
    """The family package a code is listed in."""
    return next(importlib.import_module(f"questc.rules.{f}") for f in FAMILIES
                if any(rule.code == code for rule in family_rules(f)))


def run_example(source: str, folder: Path, packs: bool, code: str = "") -> Run:
    """Check an example as a quest file in `folder`; for a fixed example (`packs`), its `use` packs
    exist (and for either, the packs its family's examples give, `examples.PACKS`)."""
    family = family_of(code) if code else None
    examples = f"{family.__name__}.examples" if family else None   # (the stages' own codes have none)
    given = getattr(importlib.import_module(examples), "PACKS", {}) \
        if examples and importlib.util.find_spec(examples) else {}
    for used in re.findall(r'^\s*use\s+"([^"]+)"', source, re.M):
        target = folder / used
        if folder.resolve() in target.resolve().parents and (packs or used in given):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(given.get(used, EMPTY_PACK.format(name=Path(used).stem)), encoding="utf-8")
    result = check_source(source, str(folder / "example.quest"), Options(verbose=True, root=folder))
    diagnostics = list(result.all_diagnostics)
    stage = getattr(family, "CHECKED_BY", None)
    if stage and result.compiled:
        module, _, function = stage.partition(":")
        diagnostics += getattr(importlib.import_module(module), function)([result])
    return Run(source, folder, tuple(diagnostics), result)


def example_edition(source: str) -> str:
    """The edition an example quest is written in (its header's `edition`, else the default)."""
    tree = parse_source(source, "example.quest").tree
    field = tree.header.get("edition") if tree is not None and tree.header is not None else None
    return field.value.value if field is not None else DEFAULT


@cache
def _scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="questc-examples-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@cache
def failing_run(code: str, index: int) -> Run:
    """The failing example `index` of a code's examples (Rule.all_examples), checked once a session."""
    folder = _scratch() / f"{code}-{index}"
    folder.mkdir()
    return run_example(all_rules()[code].all_examples[index].failing, folder, packs=False, code=code)
