"""A quest's texts: `Localization.<Language>.txt` in, key -> text out, as Valkyrie's DictionaryI18n
reads it; and key -> text in, a file out that it reads back to the same texts.

The file is a list of `key,value` lines after a first line `.,<Language>`. A value may be
written plain, in double quotes (a `""` inside is one quote), between `|||` marks, or in
quotes over several lines; `\\n` in a value is a line break. Valkyrie splits the file at
CR when it holds one, else at LF, and finds a key by the first line that starts with
`key,`. The writer keeps to one physical line per text (line breaks as `\\n`), quoting a
value that holds a quote or could be taken for one of the other forms.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["LocalizationError", "Texts", "encode", "read_localization", "write_localization"]

_TRIPLE = "|||"


class LocalizationError(ValueError):
    """A localization file Valkyrie cannot read at all (it throws while loading the quest)."""


@dataclass
class Texts:
    """One file's language and its texts by key (the first line of each key wins, as in Valkyrie)."""

    language: str
    texts: dict[str, str]
    unfinished: bool = False  # a quoted block ran to the end of the file (Valkyrie logs it)


def _entries(lines: list[str]) -> tuple[list[str], bool]:
    """DictionaryI18n.AddData: physical lines in; its raw entries (lines of one value joined) out."""
    entries: list[str] = []
    current: list[str] = []
    triple = False
    for raw in lines:
        line = raw.strip("\r\n")
        quotes = line.count('"') + 1  # C#'s Split('"').Length
        first = not current
        current.append(line)
        end = False
        if (first and f",{_TRIPLE}" in line) or triple:
            triple = not line.rstrip().endswith(_TRIPLE)
            end = not triple
        elif quotes % 2 == 1:
            end = first and not triple
        elif not first or _old_format(line):
            end = not triple
        if end:
            entries.append("\n".join(current))
            current, triple = [], False
    if current:
        entries.append("\\n".join(current))
    return entries, bool(current)


def _old_format(line: str) -> bool:
    parts = line.split(",", 1)
    return not (len(parts) > 1 and parts[1][:1] == '"')


def _parse_entry(entry: str) -> str:
    """DictionaryI18n.ParseEntry: a raw value in, its text out."""
    text = entry.replace("\\n", "\n")
    if len(text) >= 2 * len(_TRIPLE) and text.startswith(_TRIPLE) and text.strip().endswith(_TRIPLE):
        text = text[len(_TRIPLE) : len(text) - len(_TRIPLE)]
    if len(text) > 1 and text[0] == '"' and text[-1] == '"':
        text = text[1:-1].replace('""', '"')
    return text


def read_localization(text: str) -> Texts:
    """A localization file's text (decoded) in; its language and texts out. Raises
    LocalizationError when Valkyrie's reader would throw (no `,` on the first line)."""
    lines = text.split("\r") if "\r" in text else text.split("\n")
    header = lines[0].split(",")
    if len(header) < 2:
        raise LocalizationError(
            "the first line must be `.,<Language>` (such as `.,English`): Valkyrie "
            "fails to load a quest whose localization file starts otherwise"
        )
    entries, unfinished = _entries(lines)
    texts: dict[str, str] = {}
    for entry in entries[1:]:
        key, comma, value = entry.partition(",")
        if comma and key not in texts:
            texts[key] = _parse_entry(value)
    return Texts(header[1].strip('"'), texts, unfinished)


def encode(value: str) -> str:
    """A text in; the value to write after `key,` so Valkyrie reads the text back out.

    Line breaks become `\\n`. A value that holds a quote, or starts with `|||`, is quoted
    with its quotes doubled; `,|||` inside a value would switch Valkyrie's reader into its
    multi-line mode, so it is written `, |||` (the only change a text can undergo)."""
    text = value.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\\n").replace(f",{_TRIPLE}", f", {_TRIPLE}")
    if '"' in text or text.startswith(_TRIPLE):
        return '"' + text.replace('"', '""') + '"'
    return text


def write_localization(texts: list[tuple[str, str]], language: str = "English") -> str:
    """(key, text) pairs in order in; the localization file's text out (LF line ends)."""
    lines = [f".,{language}"]
    for key, value in texts:
        if not key or "," in key or any(c in key for c in "\r\n") or key.startswith("//"):
            raise ValueError(f"localization key {key!r} would not read back the same in Valkyrie")
        lines.append(f"{key},{encode(value)}")
    return "\n".join(lines) + "\n"
