"""The values every stage reports problems with: spans, labels, diagnostics and code descriptors."""

from __future__ import annotations

import string
from dataclasses import field, replace
from enum import Enum

from questc.records import record


class Severity(str, Enum):
    """How bad a diagnostic is. Ordered: ERROR > WARNING > INFO."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        return {"error": 3, "warning": 2, "info": 1}[self.value]


@record(slots=True)
class Span:
    """A stretch of source text.

    Lines and columns are 1-based and the end column is exclusive (the column just
    after the last character), the convention of Lark and of SARIF
    (`columnKind: unicodeCodePoints`), so no emitter adjusts them. `start`/`end` are
    0-based character offsets into the source.
    """

    file: str
    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0
    end: int = 0

    @classmethod
    def point(cls, file: str, line: int, column: int, offset: int = 0) -> Span:
        return cls(file, line, column, line, column + 1, offset, offset + 1)

    def sort_key(self) -> tuple[str, int, int, int, int]:
        return (self.file, self.line, self.column, self.end_line, self.end_column)

    def head(self, word: str) -> Span:
        """The span of `word` written at this span's start: a statement's or a header field's keyword."""
        return Span(
            self.file, self.line, self.column, self.line, self.column + len(word), self.start, self.start + len(word)
        )


@record(slots=True)
class Label:
    """A secondary place a diagnostic points at, with a short message."""

    span: Span
    message: str


class Applicability(str, Enum):
    """Whether a fix may be applied without a person reading it (ruff's safe/unsafe)."""

    SAFE = "safe"  # keeps the quest's meaning except for the problem fixed
    UNSAFE = "unsafe"  # a guess (a did-you-mean, a moved figure): apply with --unsafe-fixes


@record(slots=True)
class Edit:
    """Replace the text of `span` (its `start`/`end` offsets) with `text`; an empty span inserts."""

    span: Span
    text: str


@record(slots=True)
class Fix:
    """A machine-applicable change that cures a diagnostic: one message, non-overlapping edits."""

    message: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE


@record(slots=True)
class Diagnostic:
    """One problem: code, severity, message, where, related places and a fix."""

    code: str
    severity: Severity
    message: str
    span: Span
    label: str = ""  # the text under the primary span's ^^^
    labels: tuple[Label, ...] = ()
    help: str | None = None
    fixes: tuple[Fix, ...] = ()

    def sort_key(self) -> tuple[str | int, ...]:
        return (*self.span.sort_key(), self.code, self.message)

    def with_severity(self, severity: Severity) -> Diagnostic:
        return replace(self, severity=severity)


@record(slots=True)
class Example:
    """A quest snippet for a code's page: `failing` shows the problem, `fixed` the cure."""

    failing: str
    fixed: str


@record
class Descriptor:
    """Everything fixed about one diagnostic code.

    `template` and `help_template` are str.format templates; `fields` names every
    placeholder they use (a test checks they agree). `minimum` is the lowest
    severity a configuration may give the code (syntax and reference errors stay
    errors). `explanation` is the code's page: what it flags and why it matters.
    """

    code: str
    name: str
    severity: Severity
    template: str
    summary: str
    explanation: str
    example: Example
    help_template: str | None = None
    label_template: str = ""
    minimum: Severity = Severity.INFO
    since: str = "0.1.0"
    fields: tuple[str, ...] = field(default=())
    # False for reports every quest gets (the reveal order, the conquest economy): their
    # "fixed" example shows the report on a sound quest rather than silencing it.
    fixed_example_silences: bool = True
    # An opt-in code (a style suggestion) is shown only when `select` or `extend-select`
    # names it, whole: the default selection, and selecting its family, leave it out.
    opt_in: bool = False

    def placeholders(self) -> set[str]:
        found: set[str] = set()
        for text in (self.template, self.help_template or "", self.label_template):
            for _, name, _, _ in string.Formatter().parse(text):
                if name:
                    found.add(name.split(".")[0].split("[")[0])
        return found

    def at(
        self,
        span: Span,
        *,
        labels: tuple[Label, ...] | list[Label] = (),
        help: str | None = None,
        label: str | None = None,
        fixes: tuple[Fix, ...] = (),
        **values,
    ) -> Diagnostic:
        """Make a diagnostic of this code at `span`, filling the templates with `values`."""
        message = self.template.format(**values)
        if help is None and self.help_template:
            help = self.help_template.format(**values)
        if label is None:
            label = self.label_template.format(**values) if self.label_template else ""
        return Diagnostic(self.code, self.severity, message, span, label, tuple(labels), help, fixes)

    def page(self) -> str:
        """The code's documentation page, as `questc explain` prints it."""
        lines = [
            f"{self.code}: {self.name} ({self.severity.value})",
            "",
            self.summary,
            "",
            self.explanation.strip(),
            "",
            "Failing example:",
            "",
        ]
        lines += ["    " + line for line in self.example.failing.strip("\n").splitlines()]
        lines += ["", "Fixed:", ""]
        lines += ["    " + line for line in self.example.fixed.strip("\n").splitlines()]
        if self.minimum is Severity.ERROR:
            lines += ["", "This code is always an error: configuration cannot lower it."]
        if self.opt_in:
            lines += [
                "",
                f'This code is off unless selected: extend-select = ["{self.code}"] in the '
                f"configuration, or --extend-select {self.code}.",
            ]
        return "\n".join(lines) + "\n"
