"""Every diagnostic code's descriptor: its templates format with the fields it declares, its page
renders, and (where the checks of its family exist) its failing example gives the code and its
fixed example does not."""
from __future__ import annotations

import importlib
import importlib.util
import re
import string
from pathlib import Path

import pytest

from questc.api import check_source
from questc.diagnostics.core import Descriptor, Severity, Span
from questc.diagnostics.registry import FAMILIES, all_descriptors, descriptor
from questc.options import Options

DESCRIPTORS = all_descriptors()
CODES = list(DESCRIPTORS)

# The module that produces each family's codes; a family whose module is missing is skipped.
PRODUCERS = {
    "Q0": "questc.syntax",
    "Q1": "questc.model",
    "Q2": "questc.checks.placement",
    "Q3": "questc.checks.reveal",
    "Q4": "questc.checks.components",
    "Q5": "questc.checks.logic",
    "Q6": "questc.suppress",
}
# Examples known to be wrong in this tree (reported to their owners); strict, so a fix shows up.
KNOWN_BAD_EXAMPLES = {
}
# A minimal valid content pack, for fixed examples that `use` one.
EMPTY_PACK = "description: An empty test pack.\nset: {name}\nsets:\n  {name}:\n    title: Test pack\n"


def test_there_are_codes_and_they_are_well_formed():
    assert {"Q001", "Q002", "Q003", "Q004", "Q005"} <= set(CODES)
    for code, entry in DESCRIPTORS.items():
        assert re.fullmatch(r"Q[0-9]{3}", code) and entry.code == code
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", entry.name), entry.name
        assert entry.summary.strip() and entry.explanation.strip()


def test_each_code_lives_in_its_family_module_under_its_own_name():
    for family in FAMILIES:
        try:
            module = importlib.import_module(f"questc.diagnostics.codes.{family}")
        except ModuleNotFoundError:
            continue
        for attribute, value in vars(module).items():
            if isinstance(value, Descriptor):
                assert attribute == value.code, f"{family}.{attribute} holds {value.code}"
                assert value.code.lower().startswith(family[:2]), f"{value.code} is in {family}"


def test_names_are_unique():
    names = [entry.name for entry in DESCRIPTORS.values()]
    assert len(names) == len(set(names))


def test_syntax_and_reference_codes_stay_errors():
    for code, entry in DESCRIPTORS.items():
        if code[:2] in ("Q0", "Q1"):
            assert entry.severity is Severity.ERROR and entry.minimum is Severity.ERROR, code


@pytest.mark.parametrize("code", CODES)
def test_templates_format_with_the_declared_fields(code):
    entry = DESCRIPTORS[code]
    assert entry.placeholders() == set(entry.fields), (
        f"{code}: templates use {sorted(entry.placeholders())}, fields declare {sorted(entry.fields)}")
    values = {name: f"<{name}>" for name in entry.fields}
    span = Span("x.quest", 2, 3, 2, 7, 10, 14)
    d = entry.at(span, **values)
    assert (d.code, d.severity, d.span) == (code, entry.severity, span)
    for text in (d.message, d.label, d.help or ""):
        # Every placeholder filled, nothing left of the template syntax but literal braces.
        leftover = [name for _, name, _, _ in string.Formatter().parse(text.replace("{", "{{").replace("}", "}}"))
                    if name]
        assert not leftover
    for name in entry.fields:
        assert any(f"<{name}>" in text for text in (d.message, d.label, d.help or "")), f"{code}: {name} unused"
    if entry.fields:   # and the fields are needed: leaving them out fails loudly
        with pytest.raises(KeyError):
            entry.at(span)


@pytest.mark.parametrize("code", CODES)
def test_page_renders(code):
    entry = DESCRIPTORS[code]
    page = entry.page()
    assert page.startswith(f"{code}: {entry.name} ({entry.severity.value})\n")
    assert page.endswith("\n") and not page.endswith("\n\n")
    assert entry.summary in page and entry.explanation.strip() in page
    failing, fixed = page.split("Failing example:", 1)[1].split("Fixed:", 1)
    for line in entry.example.failing.strip("\n").splitlines():
        assert ("    " + line).rstrip() in failing.splitlines() or ("    " + line) in failing
    assert fixed.strip(), f"{code}: no fixed example"
    if _silences(entry):
        assert entry.example.failing != entry.example.fixed
    assert ("always an error" in page) == (entry.minimum is Severity.ERROR)
    assert descriptor(code.lower()) is entry


def _silences(entry) -> bool:
    """False for reports every quest gets (the reveal order...): their fixed example shows the report."""
    return getattr(entry, "fixed_example_silences", True)


def _has_producer(code: str) -> bool:
    module = PRODUCERS.get(code[:2])
    return module is not None and importlib.util.find_spec(module) is not None


def _check(source: str, folder: Path, packs: bool):
    """Run an example as a quest file in `folder`; for a fixed example, its `use` packs exist."""
    if packs:
        for used in re.findall(r'^\s*use\s+"([^"]+)"', source, re.M):
            target = folder / used
            if folder.resolve() in target.resolve().parents:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(EMPTY_PACK.format(name=Path(used).stem), encoding="utf-8")
    result = check_source(source, str(folder / "example.quest"), Options(verbose=True, root=folder))
    return [d.code for d in result.all_diagnostics], result


def _example_params():
    for code in CODES:
        marks = []
        if not _has_producer(code):
            marks.append(pytest.mark.skip(reason=f"the checks of {code[:2]}xx are not in this tree"))
        elif code in KNOWN_BAD_EXAMPLES:
            marks.append(pytest.mark.xfail(reason=KNOWN_BAD_EXAMPLES[code], strict=True))
        yield pytest.param(code, marks=marks, id=code)


@pytest.mark.parametrize("code", list(_example_params()))
def test_failing_example_gives_the_code_and_fixed_does_not(code, tmp_path):
    entry = DESCRIPTORS[code]
    (tmp_path / "failing").mkdir()
    (tmp_path / "fixed").mkdir()
    failing, result = _check(entry.example.failing, tmp_path / "failing", packs=False)
    assert code in failing, f"{code}'s failing example gives {failing}"
    assert "Traceback" not in "".join(d.message for d in result.all_diagnostics)
    if not _silences(entry):
        return
    fixed, result = _check(entry.example.fixed, tmp_path / "fixed", packs=True)
    assert code not in fixed, f"{code}'s fixed example still gives it: {fixed}"
    if code.startswith("Q0"):   # a fixed syntax example is a quest that compiles
        assert not result.errors, fixed
