"""INI text in, sections out, exactly as Valkyrie's IniRead reads it; and sections in, INI text
out that IniRead reads back unchanged.

Valkyrie's reader (ValkyrieTools/IniRead.cs) is simple and lenient, and questc must see
a quest as the app will: lines end at CR, LF or CRLF; a line whose first non-blank
character is `#` or `;` is a comment (`#` also before a section); `[Name]` starts a
section (every `[` and `]` at either end is dropped); `key=value` splits at the first
`=`, the key and the value are trimmed and the value also loses every `"` at either end;
a line without `=` is a key with an empty value. The first of two sections or keys of
one name wins and the second is ignored (Valkyrie logs a warning); lines before the
first section, and in a section with an empty name, are dropped. Trimming is .NET's: the
characters `char.IsWhiteSpace` knows, not Python's wider set.

One line stops the app: a line of nothing but spaces makes IniRead index an empty string
and throw, and the quest does not load. `read_ini` reports it as an IniError.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["IniError", "IniFile", "IniSection", "decode", "read_ini", "split_lines", "trim", "write_ini"]

# .NET's char.IsWhiteSpace: what String.Trim() removes (Python's str.strip removes more, such as
# the information separators U+001C-U+001F).
_DOTNET_SPACE = (
    "\t\n\v\f\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")
# What would not read back: spaces (or, in a value, quotes) at either end, a line break anywhere.
_SPACE = "[" + re.escape(_DOTNET_SPACE) + "]"
_BAD_VALUE = re.compile(rf'\A(?:{_SPACE}|")|(?:{_SPACE}|")\Z|[\r\n]')
_BAD_KEY = re.compile(rf"\A(?:{_SPACE}|[#;\[])|{_SPACE}\Z|[=\r\n]")


class IniError(ValueError):
    """A file Valkyrie cannot read at all; `line` is 1-based (0: the file as a whole)."""

    def __init__(self, message: str, line: int = 0):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class IniSection:
    """One section as Valkyrie keeps it: its entries (first of each key) and where each was written."""

    name: str
    line: int
    entries: dict[str, str]
    lines: dict[str, int]

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.entries.get(key, default)


@dataclass
class IniFile:
    """The sections of one file, in file order; `warnings` are what Valkyrie would log and ignore."""

    sections: dict[str, IniSection] = field(default_factory=dict)
    warnings: list[tuple[int, str]] = field(default_factory=list)


def trim(text: str, chars: str = _DOTNET_SPACE) -> str:
    """.NET's String.Trim (or Trim(chars)): those characters removed from both ends."""
    return text.strip(chars)


def decode(data: bytes) -> str:
    """File bytes in; text out as .NET's File.ReadAllLines decodes it: a byte order mark
    chooses UTF-8, UTF-16 or UTF-32 (and is dropped), else UTF-8; a byte that is not
    valid text becomes U+FFFD."""
    for mark, codec in (
        (b"\xef\xbb\xbf", "utf-8"),
        (b"\xff\xfe\x00\x00", "utf-32-le"),
        (b"\x00\x00\xfe\xff", "utf-32-be"),
        (b"\xff\xfe", "utf-16-le"),
        (b"\xfe\xff", "utf-16-be"),
    ):
        if data.startswith(mark):
            return data[len(mark) :].decode(codec, errors="replace")
    return data.decode("utf-8", errors="replace")


def split_lines(text: str) -> list[str]:
    """Text in; its lines out as .NET reads them: a line ends at CR, LF or CRLF, and a break at
    the very end does not start another line."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def read_ini(text: str) -> IniFile:
    """INI text in; its sections as IniRead.ReadFromStringArray finds them out. Raises IniError
    for a line of nothing but spaces, on which Valkyrie's reader throws."""
    out = IniFile()
    name, start = "", 0
    entries: dict[str, str] = {}
    lines: dict[str, int] = {}

    def close() -> None:
        if name == "":
            return
        if name in out.sections:
            out.warnings.append((start, f"a second section [{name}]: Valkyrie ignores it"))
        else:
            out.sections[name] = IniSection(name, start, entries, lines)

    for number, line in enumerate(split_lines(text), 1):
        if not line:
            continue
        stripped = trim(line)
        if not stripped:
            raise IniError(
                "a line of nothing but spaces, on which Valkyrie's INI reader fails "
                "(the quest does not load): make it empty",
                number,
            )
        if stripped[0] == "#":
            continue
        if stripped[0] == "[":
            close()
            name, start, entries, lines = trim(stripped, "[]"), number, {}, {}
            if name == "":
                out.warnings.append((number, "a section with no name: Valkyrie ignores it and its lines"))
            continue
        if stripped[0] == ";":
            continue
        equals = line.find("=")
        key = stripped if equals == -1 else trim(line[:equals])
        if key in entries:
            out.warnings.append((number, f"`{key}` given twice in [{name}]: Valkyrie keeps the first"))
        else:
            entries[key] = "" if equals == -1 else trim(trim(line[equals + 1 :]), '"')
            lines[key] = number
        if name == "":
            out.warnings.append((number, "a line before the first section: Valkyrie ignores it"))
    close()
    return out


def _check(what: str, text: str, ok: bool) -> None:
    if not ok:
        raise ValueError(f"{what} {text!r} would not read back the same in Valkyrie")


def write_ini(sections: list[tuple[str, list[tuple[str, str | None]]]], comment: str | None = None) -> str:
    """Sections (name, [(key, value)...]) in order in; INI text that IniRead reads back to the same
    sections out (LF line ends, a blank line between sections, `; comment` first when given). A
    value of None writes the key alone (as `[QuestData]` lists its files).

    Raises ValueError for a name, key or value IniRead would read differently (a line break,
    spaces or quotes at either end, `=` in a key...): a bug in the caller, never user input."""
    out = [] if comment is None else [f"; {line}" if line else ";" for line in comment.split("\n")] + [""]
    for name, entries in sections:
        _check(
            "section name",
            name,
            bool(name) and trim(name, _DOTNET_SPACE + "[]") == name and not _LINE_BREAK.search(name),
        )
        out.append(f"[{name}]")
        for key, value in entries:
            _check("key", key, bool(key) and not _BAD_KEY.search(key))
            if value is None:
                out.append(key)
                continue
            _check("value", value, not _BAD_VALUE.search(value))
            out.append(f"{key}={value}")
        out.append("")
    return "\n".join(out).rstrip("\n") + "\n"
