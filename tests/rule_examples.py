"""Running a rule's examples as quest files, as tests/test_rules.py and tests/test_rule_snapshots.py do.

An example is checked as a file `example.quest` in a folder of its own (the packs it `use`s
written beside it), with the infos shown; a family whose codes a later stage finds (`CHECKED_BY`:
the Valkyrie export, the encounters of a quest together) runs that stage on the compiled quest
too, and one whose examples hold several files (`EXAMPLE_FILES`: a quest's encounters) checks each
file, then the stage over them all. Each failing example is run once per test session and kept:
both modules read it.

A rule is tested in every edition it applies to: with its own examples (Rule.all_examples, each in
the edition its header names), and in an edition that has none of its own but is played with another
edition's components (Edition.components: a variant, a conversion kit), with that edition's example
made a quest of this one.
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
from questc.diagnostics.core import Example
from questc.editions import DEFAULT, edition, names
from questc.rules import FAMILIES, all_rules, family_rules

# A minimal valid content pack, for fixed examples that `use` one.
EMPTY_PACK = "description: An empty test pack.\nset: {name}\nsets:\n  {name}:\n    title: Test pack\n"


FILE = "example.quest"  # what an example of one file is called


@dataclass(frozen=True)
class Run:
    """An example checked: its source, the folder it was checked in, every diagnostic (the checks' and
    the later stage's) and the check's result (its first file's, for an example of several files);
    `files`: each file's name in the folder and its text."""

    source: str
    folder: Path
    diagnostics: tuple[Diagnostic, ...]
    result: QuestResult
    files: tuple[tuple[str, str], ...]

    @property
    def codes(self) -> list[str]:
        return [d.code for d in self.diagnostics]


def family_of(code: str) -> ModuleType:
    """The family package a code is listed in."""
    return next(
        importlib.import_module(f"questc.rules.{f}")
        for f in FAMILIES
        if any(rule.code == code for rule in family_rules(f))
    )


def run_example(source: str, folder: Path, packs: bool, code: str = "") -> Run:
    """Check an example as a quest file in `folder` (or its files, for a family with `EXAMPLE_FILES`);
    for a fixed example (`packs`), its `use` packs exist (and for either, the packs its family's
    examples give, `examples.PACKS`)."""
    family = family_of(code) if code else None
    examples = f"{family.__name__}.examples" if family else None  # (the stages' own codes have none)
    given = (
        getattr(importlib.import_module(examples), "PACKS", {})
        if examples and importlib.util.find_spec(examples)
        else {}
    )
    for used in re.findall(r'^\s*use\s+"([^"]+)"', source, re.M):
        target = folder / used
        if folder.resolve() in target.resolve().parents and (packs or used in given):
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(given.get(used, EMPTY_PACK.format(name=Path(used).stem)), encoding="utf-8")
    splitter = getattr(family, "EXAMPLE_FILES", None)  # an example of several files (a quest's encounters)
    if splitter:
        module, _, function = splitter.partition(":")
        files = getattr(importlib.import_module(module), function)(source)
        assert len(files) > 1, f"{code}'s example holds {len(files)} file"
    else:
        files = {FILE: source}
    results = [
        check_source(text, str(folder / name), Options(verbose=True, root=folder)) for name, text in files.items()
    ]
    diagnostics = [d for result in results for d in result.all_diagnostics]
    stage = getattr(family, "CHECKED_BY", None)
    if stage and all(result.compiled for result in results):
        module, _, function = stage.partition(":")
        diagnostics += getattr(importlib.import_module(module), function)(results)
    return Run(source, folder, tuple(diagnostics), results[0], tuple(files.items()))


def example_edition(source: str) -> str:
    """The edition an example quest is written in (its header's `edition`, else the default)."""
    tree = parse_source(source, "example.quest").tree
    field = tree.header.get("edition") if tree is not None and tree.header is not None else None
    return field.value.value if field is not None else DEFAULT


def in_edition(source: str, name: str) -> str:
    """An example quest made a quest of the edition `name`: its header's `edition` written, or rewritten."""
    written = re.sub(r"^([ \t]*)edition \w+[ \t]*$", rf"\1edition {name}", source, count=1, flags=re.M)
    if written != source:
        return written
    return re.sub(r'^(quest "[^"\n]*" \{)[ \t]*\n', rf"\1\n  edition {name}\n", source, count=1, flags=re.M)


@cache
def examples(code: str) -> tuple[tuple[str, Example], ...]:
    """(edition, example) for each example a code is tested with: its own first, in Rule.all_examples
    order, then those borrowed by the editions played with another's components."""
    rule = all_rules()[code]
    own = [(example_edition(example.failing), example) for example in rule.all_examples]
    borrowed = []
    if rule.find is not None:  # (a code a stage reports is the same in every edition: one example will do)
        for name in names():
            rules = edition(name)
            lender = rules.components
            if any(written_in == name for written_in, _ in own) or not rule.applies_to(rules):
                continue
            borrowed += [
                (name, Example(failing=in_edition(example.failing, name), fixed=in_edition(example.fixed, name)))
                for written_in, example in own
                if lender and written_in == lender
            ]
    return tuple(own + borrowed)


@cache
def _scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="questc-examples-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


@cache
def failing_run(code: str, index: int) -> Run:
    """The failing example `index` of a code's examples (`examples`), checked once a session."""
    folder = _scratch() / f"{code}-{index}"
    folder.mkdir()
    return run_example(examples(code)[index][1].failing, folder, packs=False, code=code)
