"""Q509 other-edition-rule: the code's descriptor and the check that finds it."""
from __future__ import annotations

from questc.diagnostics.core import Applicability, Descriptor, Diagnostic, Example, Fix, Label, Severity, Span
from questc.rules import Rule
from questc.rules.context import CheckContext
from questc.rules.second_examples import HEAD, second
from questc.syntax import nodes as n

Q509 = Descriptor(
    code="Q509", name="other-edition-rule", severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A rule of the other edition: conquest in an `edition second` quest, or `start at`, "
            "`objectives` or `exited` in a first edition quest.",
    explanation="""
Conquest tokens belong to the first edition: second edition quests are won and lost
by their encounters' victory conditions, and have none. An `edition second` quest may
leave conquest out (it must), and writing it (the header's `conquest`, a `conquest`
effect, a `conquest` victory condition or a named monster's `conquest`) is an
error. (Treachery, the other first edition budget, is Q408.)

The other way round, `start at` (where the heroes start), and the victory conditions
`objectives` and `exited` are second edition rules: a first edition quest starts its
heroes at an active glyph, and has no objective tokens and no exit.
""",
    example=Example(
        failing=second(head=HEAD.replace("  edition second\n", "  edition second\n  conquest 5\n")),
        fixed=second()),
    fields=("problem", "label", "help_text"),
)


def _keyword(span: Span, word: str) -> Span:
    return Span(span.file, span.line, span.column, span.line, span.column + len(word), span.start,
                span.start + len(word))


def _counters(condition, counters: tuple[str, ...]) -> list[n.CompareCondition]:
    if isinstance(condition, n.CompareCondition):
        return [condition] if condition.counter in counters else []
    if isinstance(condition, n.NotCondition):
        return _counters(condition.operand, counters)
    if isinstance(condition, (n.AllCondition, n.AnyCondition)):
        return [c for operand in condition.operands for c in _counters(operand, counters)]
    return []


def _effects(model):
    for encounter in model.encounters.values():
        yield from encounter.node.effects
    for trigger in model.triggers:
        yield from trigger.effects


def header_conquest(context: CheckContext) -> list[Diagnostic]:
    """Q509 on the header's `conquest` of a second edition quest: the header alone says it, so it
    is reported with the name errors too, not once they are fixed."""
    model = context.model
    if not model.second_edition:
        return []
    edition = model.header.get("edition") if model.header is not None else None
    labels = [Label(edition.span, "a second edition quest")] if edition is not None else []
    field = model.header.get("conquest") if model.header is not None else None
    if field is None:
        return []
    # The line says nothing a second edition quest can use: removing it is safe.
    text = context.text
    fixes = (Fix("remove the `conquest` line", (text.delete_lines(field.span),), Applicability.SAFE),) \
        if text is not None and text.alone_on_line(field.span) else ()
    return [Q509.at(_keyword(field.span, "conquest"), label="no conquest in the second edition",
                    problem="conquest is a first edition rule: an `edition second` quest has no "
                            "conquest tokens", labels=labels,
                    help_text="remove the `conquest` line: the victory conditions decide the quest",
                    fixes=fixes)]


def find(context: CheckContext) -> list[Diagnostic]:
    """Q509: conquest written in a second edition quest; second edition statements in a first edition one."""
    model = context.model
    out = []
    if model.second_edition:
        edition = model.header.get("edition") if model.header is not None else None
        labels = [Label(edition.span, "a second edition quest")] if edition is not None else []
        out += header_conquest(context)
        for effect in _effects(model):
            if isinstance(effect, n.ConquestEffect):
                out.append(Q509.at(effect.span, label="no conquest in the second edition", labels=labels,
                                   problem="a `conquest` effect in an `edition second` quest, which has no "
                                           "conquest tokens",
                                   help_text="remove it, or say what the heroes gain with `read` or `instruct`"))
        for named in model.named.values():
            if named.node.conquest is not None:
                out.append(Q509.at(named.node.id.span, label="gives conquest", labels=labels,
                                   problem=f"named monster `{named.id}` gives conquest, which an `edition second` "
                                           "quest does not have",
                                   help_text="remove its `conquest` line"))
        for victory in model.victories:
            for atom in _counters(victory.when, ("conquest",)):
                out.append(Q509.at(atom.span, label="no conquest in the second edition", labels=labels,
                                   problem="a `conquest` victory condition in an `edition second` quest, which "
                                           "has no conquest tokens",
                                   help_text="use a second edition condition: `round`, `objectives`, `exited` "
                                             "or `killed`"))
        return out
    for point in model.hero_starts:
        out.append(Q509.at(point.span, label="a second edition statement",
                           problem="`start at` is a second edition rule: first edition heroes start on or "
                                   "next to an active glyph",
                           help_text="remove the `start at` line (or make the quest `edition second`)"))
    for victory in model.victories:
        for atom in _counters(victory.when, ("objectives", "exited")):
            out.append(Q509.at(atom.span, label="a second edition condition",
                               problem=f"`{atom.counter}` is a second edition victory condition: a first "
                                       "edition quest has no objective tokens and no exit",
                               help_text="make the quest `edition second`, or use `killed`, `revealed`, "
                                         "`triggered`, `opened`, `conquest` or `round`"))
    return out


RULE = Rule(Q509, find, header=header_conquest)
