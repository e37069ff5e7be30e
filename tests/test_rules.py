"""The table of rules (questc.rules): every code has one module holding its descriptor and its finder
(or the stage that reports it), listed once in its family's RULES; its templates format with the fields
it declares, its page renders, and its failing example gives the code while its fixed example does not."""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import re
import string
from pathlib import Path

import pytest
from conftest import SHARED, needs_shared
from rule_examples import examples, failing_run, run_example

from questc.diagnostics.core import Severity, Span
from questc.editions import edition, names
from questc.rules import FAMILIES, all_rules, descriptor, descriptors, family_rules, find_rule

DESCRIPTORS = descriptors()
CODES = list(DESCRIPTORS)
# Examples known to be wrong in this tree; strict, so a fix shows up.
KNOWN_BAD_EXAMPLES: dict[str, str] = {}
# Rules that apply to an edition in which they have no example yet (Rule.examples): each is run
# in the editions it has examples for. Strict: an example written removes its entry here.
EXAMPLES_TO_WRITE: dict[str, set[str]] = {}
SPEC_CODES = SHARED / "spec" / "DIAGNOSTICS.md"


def test_every_family_lists_its_rules_in_code_order():
    for family in FAMILIES:
        rules = family_rules(family)
        codes = [rule.code for rule in rules]
        assert codes == sorted(codes) and codes, family
        assert len({code[:2] for code in codes}) == 1, f"{family} mixes families: {codes}"


def test_each_rule_lives_in_a_module_named_for_what_it_finds():
    """One rule, one module: questc/rules/<family>/<name>.py holds the descriptor (as a constant
    named by the code) and RULE; the family's table lists that RULE."""
    for family in FAMILIES:
        for rule in family_rules(family):
            module = importlib.import_module(f"questc.rules.{family}.{rule.name.replace('-', '_')}")
            assert module.RULE is rule, f"{rule.code}: RULE of {module.__name__}"
            assert getattr(module, rule.code) is rule.descriptor
            if rule.find is not None:
                assert rule.find.__module__ == module.__name__, f"{rule.code}'s finder lives elsewhere"


def test_a_rule_is_found_by_a_check_or_reported_by_a_named_stage():
    for code, rule in all_rules().items():
        if rule.find is not None:
            assert code[:2] in ("Q2", "Q3", "Q4", "Q5"), f"{code}: a check outside the check families"
            assert list(inspect.signature(rule.find).parameters) == ["context"]
            continue
        assert rule.reported_by
        for stage in rule.reported_by.split(", "):
            source = inspect.getsource(importlib.import_module(stage))
            assert re.search(rf"\b{code}\b", source), f"{code}: {stage} does not report it"


def test_a_missing_rule_module_is_an_error_not_a_skip(tmp_path, monkeypatch):
    """A family that cannot be imported breaks the registry and the runner loudly."""
    import sys

    from questc.rules import runner

    monkeypatch.setitem(sys.modules, "questc.rules.placement", None)  # `import` of it now raises
    all_rules.cache_clear()
    try:
        with pytest.raises(ImportError):
            all_rules()
        with pytest.raises(ImportError):
            runner.run_checks(object())  # type: ignore[arg-type]
    finally:
        all_rules.cache_clear()


@needs_shared
def test_every_code_of_the_contract_has_a_rule():
    """Every code of ../shared/spec/DIAGNOSTICS.md (the product's contract) is in the table; questc's
    own additions (Q006, Q211, Q409, Q6xx) are documented like the others, in docs/diagnostics.md."""
    spec = set(re.findall(r"^\| (Q\d{3}) \|", SPEC_CODES.read_text(encoding="utf-8"), re.M))
    assert len(spec) > 40 and spec <= set(CODES), sorted(spec - set(CODES))


def test_find_rule_takes_a_code_or_a_name():
    assert find_rule("Q303") is find_rule("q303") is find_rule("rune-door-guards-own-key")
    assert find_rule("rune_door_guards_own_key") is find_rule("Q303")
    assert find_rule("Q999") is None and find_rule("no-such-rule") is None


def test_there_are_codes_and_they_are_well_formed():
    assert {"Q001", "Q002", "Q003", "Q004", "Q005"} <= set(CODES)
    for code, entry in DESCRIPTORS.items():
        assert re.fullmatch(r"Q[0-9]{3}", code) and entry.code == code
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", entry.name), entry.name
        assert entry.summary.strip() and entry.explanation.strip()


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
        f"{code}: templates use {sorted(entry.placeholders())}, fields declare {sorted(entry.fields)}"
    )
    values = {name: f"<{name}>" for name in entry.fields}
    span = Span("x.quest", 2, 3, 2, 7, 10, 14)
    d = entry.at(span, **values)
    assert (d.code, d.severity, d.span) == (code, entry.severity, span)
    for text in (d.message, d.label, d.help or ""):
        # Every placeholder filled, nothing left of the template syntax but literal braces.
        leftover = [
            name for _, name, _, _ in string.Formatter().parse(text.replace("{", "{{").replace("}", "}}")) if name
        ]
        assert not leftover
    for name in entry.fields:
        assert any(f"<{name}>" in text for text in (d.message, d.label, d.help or "")), f"{code}: {name} unused"
    if entry.fields:  # and the fields are needed: leaving them out fails loudly
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


def _check(source: str, folder: Path, packs: bool, code: str = ""):
    """An example's codes and result (tests/rule_examples.py runs it)."""
    run = run_example(source, folder, packs, code)
    return run.codes, run.result


def _examples(code: str):
    """(edition, example) for each of a code's examples (tests/rule_examples.py: its own, and those an
    edition played with another's components borrows)."""
    return examples(code)


def _example_params():
    for code in CODES:
        marks = []
        if code in KNOWN_BAD_EXAMPLES:
            marks.append(pytest.mark.xfail(reason=KNOWN_BAD_EXAMPLES[code], strict=True))
        for index, (written_in, _) in enumerate(_examples(code)):
            yield pytest.param(code, index, marks=marks, id=f"{code}-{written_in}")


@pytest.mark.parametrize("code", CODES)
def test_a_rule_has_an_example_in_every_edition_it_applies_to(code):
    """Rules are run in each edition they apply to: the descriptor's example in its own, Rule.examples
    in the others, and another edition's in an edition played with its components (a rule of the checks
    names the game's rules it needs; one reported by a stage applies to every edition, and one example
    will do)."""
    rule = all_rules()[code]
    written = [edition_name for edition_name, _ in _examples(code)]
    assert len(written) == len(set(written)), f"{code} has two examples in one edition: {written}"
    for edition_name in written:
        assert rule.applies_to(edition(edition_name)), f"{code} has an example in {edition_name}, where it never runs"
    if rule.find is None:
        return
    wanted = {name for name in names() if rule.applies_to(edition(name))}
    missing = {name for name in wanted - set(written) if code not in EXAMPLES_TO_WRITE.get(name, ())}
    assert not missing, f"{code} applies to {sorted(missing)} but has no example there"
    stale = {name for name, codes in EXAMPLES_TO_WRITE.items() if code in codes and name in written}
    assert not stale, f"{code} has its {sorted(stale)} example now: take it off EXAMPLES_TO_WRITE"


@pytest.mark.parametrize("code,index", list(_example_params()))
def test_failing_example_gives_the_code_and_fixed_does_not(code, index, tmp_path):
    entry = DESCRIPTORS[code]
    example = _examples(code)[index][1]
    (tmp_path / "fixed").mkdir()
    run = failing_run(code, index)  # (kept for tests/test_rule_snapshots.py, which renders it)
    failing, result = run.codes, run.result
    assert code in failing, f"{code}'s failing example gives {failing}"
    assert "Traceback" not in "".join(d.message for d in result.all_diagnostics)
    if not _silences(entry):
        return
    fixed, result = _check(example.fixed, tmp_path / "fixed", packs=True, code=code)
    assert code not in fixed, f"{code}'s fixed example still gives it: {fixed}"
    if code.startswith("Q0"):  # a fixed syntax example is a quest that compiles
        assert not result.errors, fixed
