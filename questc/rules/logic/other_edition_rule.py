"""Q509 other-edition-rule: the code's descriptor and the check that finds it."""

from __future__ import annotations

from collections.abc import Iterable

from questc import editions
from questc.diagnostics.core import Applicability, Descriptor, Diagnostic, Example, Fix, Label, Severity
from questc.rules import Rule
from questc.rules.context import CheckContext, HeaderContext
from questc.rules.logic import examples as logic_examples
from questc.rules.second_examples import HEAD, second
from questc.syntax import nodes as n

Q509 = Descriptor(
    code="Q509",
    name="other-edition-rule",
    severity=Severity.ERROR,
    template="{problem}",
    label_template="{label}",
    help_template="{help_text}",
    summary="A rule of the other edition: conquest in an `edition second` quest, or `start at`, groups, "
    "`entrance`/`exit`, `objectives`, `exited`, `defeated` or `carried` in a first edition quest.",
    explanation="""
Conquest tokens belong to the first edition: second edition quests are won and lost
by their encounters' victory conditions, and have none. An `edition second` quest may
leave conquest out (it must), and writing it (the header's `conquest`, a `conquest`
effect, a `conquest` victory condition or a named monster's `conquest`) is an
error. (Treachery, the other first edition budget, is Q408.)

The other way round, `start at` (where the heroes start), monster groups the overlord
places himself (`group`, `open group`), the `entrance` and `exit` roles, and the victory
conditions `objectives`, `exited`, `defeated` and `carried` are second edition rules: a
first edition quest starts its heroes at an active glyph, places each figure at its
point, and has no objective tokens and no exit. (Counters, `counter fatigue`, and
recurring rules, `at end of each round`, belong to no edition: any quest may use them.)
""",
    example=Example(
        failing=second(head=HEAD.replace("  edition second\n", "  edition second\n  conquest 5\n")), fixed=second()
    ),
    fields=("problem", "label", "help_text"),
)


# What a quest lacks when its edition has no such victory condition, in a message's words.
_CONDITION_THINGS = {
    "conquest": "conquest tokens",
    "objectives": "objective tokens",
    "exited": "exit",
    "defeated": "monster groups",
    "carried": "tokens to carry",
    "on": "monster groups",
    "in": "monster groups",
}


def _condition_atoms(condition: n.Condition) -> list[n.CompareCondition]:
    if isinstance(condition, n.CompareCondition):
        return [condition]
    if isinstance(condition, n.NotCondition):
        return _condition_atoms(condition.operand)
    if isinstance(condition, (n.AllCondition, n.AnyCondition)):
        return [c for operand in condition.operands for c in _condition_atoms(operand)]
    return []


def _or_list(words: Iterable[str]) -> str:
    quoted = [f"`{w}`" for w in words]
    return ", ".join(quoted[:-1]) + f" or {quoted[-1]}" if len(quoted) > 1 else "".join(quoted)


def find(context: CheckContext) -> list[Diagnostic]:
    """Q509: what the quest's edition does not have (questc.editions): conquest written in a quest
    without conquest tokens; `start at` or a victory condition its edition does not play by."""
    model = context.model
    edition = model.edition
    out = []
    if not edition.has("conquest"):
        out += _conquest(context)
    if not edition.has("start at"):
        owner = _owner(editions.having("start at"))
        for point in model.hero_starts:
            out.append(
                Q509.at(
                    point.span,
                    label=f"a {owner} edition statement",
                    problem=f"`start at` is a {owner} edition rule: {edition.name} edition heroes "
                    f"start {edition.start_words}",
                    help_text=f"remove the `start at` line (or make the quest `edition {owner}`)",
                )
            )
    if not edition.has("groups"):
        owner = _owner(editions.having("groups"))
        for group in model.groups.values():
            if group.kind == "lieutenant":
                continue  # a lieutenant's token is another edition's component: Q104 says so
            word = "open group" if group.kind == "open" else "group"
            out.append(
                Q509.at(
                    group.span.head("open" if group.kind == "open" else "group"),
                    label=f"a {owner} edition statement",
                    problem=f"`{word}` is a {owner} edition rule: a {edition.name} edition quest places "
                    "each monster figure at its point",
                    help_text=f"place the figures with `monster TYPE at P...` (or make the quest `edition {owner}`)",
                )
            )
    if not edition.has("roles"):
        owner = _owner(editions.having("roles"))
        for role in model.syntax.of(n.Role):
            out.append(
                Q509.at(
                    role.span.head(role.role),
                    label=f"a {owner} edition statement",
                    problem=f"`{role.role}` is a {owner} edition rule: a {edition.name} edition quest "
                    "has no entrances and exits",
                    help_text=f"remove the line (or make the quest `edition {owner}`)",
                )
            )
    for victory in model.victories:
        for event in n.event_conditions(victory.when):
            if event.event in edition.conditions:
                continue
            owner = _owner(e for e in map(editions.edition, editions.names()) if event.event in e.conditions)
            out.append(
                Q509.at(
                    event.span if event.event in ("on", "in") else event.span.head(event.event),
                    label=f"a {owner} edition condition",
                    problem=f"`{event.event}` is a {owner} edition victory condition: a {edition.name} "
                    f"edition quest has no {_CONDITION_THINGS.get(event.event, event.event)}",
                    help_text=f"make the quest `edition {owner}`, or use {_or_list(edition.conditions)}",
                )
            )
        for atom in _condition_atoms(victory.when):
            if atom.name is not None:
                continue  # a counter the quest declares: any edition's quests may
            if atom.counter in edition.conditions or atom.counter == "conquest" and not edition.has("conquest"):
                continue  # (conquest without conquest tokens is said above)
            owner = _owner(e for e in map(editions.edition, editions.names()) if atom.counter in e.conditions)
            out.append(
                Q509.at(
                    atom.span,
                    label=f"a {owner} edition condition",
                    problem=f"`{atom.counter}` is a {owner} edition victory condition: a {edition.name} "
                    f"edition quest has no {_CONDITION_THINGS.get(atom.counter, atom.counter)}",
                    help_text=f"make the quest `edition {owner}`, or use {_or_list(edition.conditions)}",
                )
            )
    return out


def _owner(found: Iterable[editions.Edition]) -> str:
    """The first edition of those that have a rule, for a message (`another` when none has it)."""
    return next((e.name for e in found), "another")


def header_conquest(context: HeaderContext) -> list[Diagnostic]:
    """Q509 on the header's `conquest` of a quest whose edition has no conquest tokens: the header
    alone says it, so it is reported with the name errors too, not once they are fixed."""
    model = context.model
    edition = model.edition.name
    field = model.header.get("conquest") if model.header is not None else None
    if field is None or model.edition.has("conquest"):
        return []
    written = model.header.get("edition") if model.header is not None else None
    labels = [Label(written.span, f"a {edition} edition quest")] if written is not None else []
    # The line says nothing such a quest can use: removing it is safe.
    text = context.text
    fixes = (
        (Fix("remove the `conquest` line", (text.delete_lines(field.span),), Applicability.SAFE),)
        if text.alone_on_line(field.span)
        else ()
    )
    return [
        Q509.at(
            field.span.head("conquest"),
            label=f"no conquest in the {edition} edition",
            problem=f"conquest is a {_owner(editions.having('conquest'))} edition rule: an "
            f"`edition {edition}` quest has no conquest tokens",
            labels=labels,
            help_text="remove the `conquest` line: the victory conditions decide the quest",
            fixes=fixes,
        )
    ]


def _conquest(context: CheckContext) -> list[Diagnostic]:
    """Every conquest written in a quest whose edition has no conquest tokens."""
    model = context.model
    edition = model.edition.name
    written = model.header.get("edition") if model.header is not None else None
    labels = [Label(written.span, f"a {edition} edition quest")] if written is not None else []
    nothing = f"no conquest in the {edition} edition"
    out = header_conquest(context)
    for effect, _source in model.effects():
        if isinstance(effect, n.ConquestEffect):
            out.append(
                Q509.at(
                    effect.span,
                    label=nothing,
                    labels=labels,
                    problem=f"a `conquest` effect in an `edition {edition}` quest, which has no conquest tokens",
                    help_text="remove it, or say what the heroes gain with `read` or `instruct`",
                )
            )
    for named in model.named.values():
        if named.node.conquest is not None:
            out.append(
                Q509.at(
                    named.node.id.span,
                    label="gives conquest",
                    labels=labels,
                    problem=f"named monster `{named.id}` gives conquest, which an `edition {edition}` "
                    "quest does not have",
                    help_text="remove its `conquest` line",
                )
            )
    for victory in model.victories:
        for atom in _condition_atoms(victory.when):
            if atom.counter == "conquest":
                out.append(
                    Q509.at(
                        atom.span,
                        label=nothing,
                        labels=labels,
                        problem=f"a `conquest` victory condition in an `edition {edition}` quest, which "
                        "has no conquest tokens",
                        help_text=f"use a {edition} edition condition: {_or_list(model.edition.conditions)}",
                    )
                )
    return out


RULE = Rule(
    Q509,
    find,
    header=header_conquest,
    examples=(
        Example(  # first edition: `start at`
            failing=logic_examples.quest(area_lines="  start at 1,1\n"), fixed=logic_examples.quest()
        ),
    ),
)
