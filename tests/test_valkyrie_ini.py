"""questc's readers and writers of Valkyrie's INI and localization files (questc/valkyrie/ini.py,
localization.py), held to Valkyrie's own: the rules of its readers one by one, what questc writes read
back unchanged, and fuzzed files read the same by questc and by Valkyrie's code run under mono."""

from __future__ import annotations

import random

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from valkyrie_tools import run_probe

from questc.valkyrie.ini import IniError, decode, read_ini, write_ini
from questc.valkyrie.localization import LocalizationError, encode, read_localization, write_localization


def sections(text: str) -> dict[str, dict[str, str]]:
    return {name: dict(s.entries) for name, s in read_ini(text).sections.items()}


def test_the_rules_of_valkyries_ini_reader():
    text = (
        '; a comment\nlost=before any section\n[Tile1]\n  xposition = 3 \nside="TileSide9A"\n'
        "# also a comment\n[[Event2]]\nbare key\nevent1=A B\nevent1=ignored\n[Tile1]\nside=second\n"
        '[]\nnowhere=1\n[Door3\r\nrotation=90\rcolor=""red""\n'
    )
    read = read_ini(text)
    assert sections(text) == {
        "Tile1": {"xposition": "3", "side": "TileSide9A"},
        "Event2": {"bare key": "", "event1": "A B"},
        "Door3": {"rotation": "90", "color": "red"},
    }
    warned = " ".join(message for _, message in read.warnings)
    assert "second section [Tile1]" in warned and "given twice" in warned and "no name" in warned
    assert read.sections["Event2"].lines["event1"] == 9


def test_a_line_of_spaces_stops_valkyrie_and_is_an_error():
    with pytest.raises(IniError) as error:
        read_ini("[Quest]\nformat=18\n   \t\ntype=D2E\n")
    assert error.value.line == 3


def test_dotnet_trims_less_than_python():
    # U+001C is whitespace to Python, not to .NET: it stays in the key.
    assert sections("[S]\n\x1ckey=value\x1c\n") == {"S": {"\x1ckey": "value\x1c"}}
    assert sections("[S]\n\u00a0key\u00a0=\u3000value\u2003\n") == {"S": {"key": "value"}}


def test_decoding_as_dotnet_does():
    assert decode("\ufeff[S]".encode("utf-8")) == "[S]"
    assert decode("[S]".encode("utf-16")) == "[S]"
    assert decode(b"[S]\xff") == "[S]\ufffd"


def test_the_writer_refuses_what_would_not_read_back():
    for bad in (
        [("S", [("k", ' "quoted" ')])],
        [("S", [("a=b", "1")])],
        [("S", [("#k", "1")])],
        [("S", [("k", "two\nlines")])],
        [("[S]", [])],
    ):
        with pytest.raises(ValueError):
            write_ini(bad)


names = st.text(
    st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n=[]\x85\u2028\u2029"), min_size=1, max_size=12
)
values = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\r\n\x85\u2028\u2029"), max_size=20)


@given(st.lists(st.tuples(names, st.lists(st.tuples(names, values), max_size=4)), max_size=5))
@example([("0", [("0", '"\x0c0')])])  # a quote, then a form feed: both trimmed, one after the other
@settings(max_examples=200, deadline=None)
@pytest.mark.slow
def test_what_questc_writes_reads_back(raw):
    from questc.valkyrie.ini import trim

    wanted: dict[str, dict[str, str]] = {}
    written = []
    for name, entries in raw:
        name = trim(name, "[] \t\v\f\u00a0\u3000")
        if not name or name in wanted or name[0] in "#;" or trim(name) != name:
            continue
        kept = []
        for key, value in entries:
            key = trim(key)
            while value != (value := trim(trim(value), '"')):
                pass  # to what IniRead keeps: `"\f0"` loses its quote, then its form feed
            if key and key[0] not in "#;[" and key not in dict(kept):
                kept.append((key, value))
        wanted[name] = dict(kept)
        written.append((name, kept))
    assert sections(write_ini(written, "a comment\nover two lines")) == wanted


@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=60), max_size=6))
@settings(max_examples=300, deadline=None)
@pytest.mark.slow
def test_texts_read_back_as_written(texts):
    keys = [f"Event{i}.text" for i in range(len(texts))]
    read = read_localization(write_localization(list(zip(keys, texts))))
    assert read.language == "English" and not read.unfinished
    for key, text in zip(keys, texts):
        want = text.replace("\r\n", "\n").replace("\r", "\n").replace(",|||", ", |||")
        assert read.texts[key] == want.replace("\\n", "\n")


def test_valkyries_localization_forms():
    text = (
        '.,English\nplain,Hello, world\nquoted,"He said ""hi"""\ntriple,|||a "b" c|||\n'
        'multi,"first line\nsecond line"\nescaped,one\\ntwo\nplain,a second one is ignored\n'
    )
    texts = read_localization(text).texts
    assert texts == {
        "plain": "Hello, world",
        "quoted": 'He said "hi"',
        "triple": 'a "b" c',
        "multi": "first line\nsecond line",
        "escaped": "one\ntwo",
    }
    with pytest.raises(LocalizationError):
        read_localization("no comma here\nkey,value\n")
    assert encode('"quoted"') == '"""quoted"""' and encode("|||x|||") == '"|||x|||"'


# ---- the same as Valkyrie's own code -----------------------------------------------------

_PIECES = [
    "[",
    "]",
    "=",
    "#",
    ";",
    '"',
    " ",
    "\t",
    "\u00a0",
    "\x1c",
    "\u3000",
    "a",
    "B",
    "key",
    "Tile1",
    "x",
    "\r",
    "\n",
    "\r\n",
    "\n",
    "\n",
    "[Event1]\n",
    "[Tile2]\n",
    "value",
    "é",
    "==",
]


def _fuzzed_ini(rng: random.Random) -> str:
    return "".join(rng.choice(_PIECES) for _ in range(rng.randint(0, 60)))


@pytest.mark.slow
def test_questcs_ini_reader_is_valkyries_on_fuzzed_files(tmp_path):
    rng = random.Random(2024)
    files = []
    for i in range(400):
        path = tmp_path / f"f{i}.ini"
        path.write_bytes(_fuzzed_ini(rng).encode("utf-8"))
        files.append(path)
    valkyrie: dict[str, object] = {}
    current = None
    for row in run_probe("ini", *map(str, files)):
        if row[0] == "F":
            current = row[1]
            valkyrie[current] = {}
        elif row[0] == "S":
            valkyrie[current][row[1]] = {}  # type: ignore[index]
            section = row[1]
        elif row[0] == "K":
            valkyrie[current][section][row[1]] = row[2]  # type: ignore[index]
        elif row[0] == "E":
            valkyrie[current] = "error"
    errors = 0
    for path in files:
        text = decode(path.read_bytes())
        try:
            ours: object = sections(text)
        except IniError:
            ours = "error"
            errors += 1
        assert ours == valkyrie[str(path)], repr(text)
    assert 0 < errors < len(files)  # the fuzz reached both kinds of file


def test_valkyrie_reads_questcs_texts_back(tmp_path):
    rng = random.Random(11)
    alphabet = ['"', "'", ",", "|", "|||", ",|||", "\n", "\r\n", "\\n", " ", "a", "é", "<b>", "{", "}", "x", "\t"]
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(150)]
    texts += ['"quoted"', '""', '"', "|||", "|||x|||", "", " lead", "trail "]
    keys = [f"Event{i}.text" for i in range(len(texts))]
    path = tmp_path / "Localization.English.txt"
    path.write_text(write_localization(list(zip(keys, texts))), encoding="utf-8")
    rows = run_probe("loc", str(path), *keys)
    assert rows[0][0] == "F" and all(row[0] == "V" for row in rows[1:]), rows[:3]
    got = {row[1]: row[2] for row in rows[1:]}
    ours = read_localization(path.read_text(encoding="utf-8")).texts
    for key, text in zip(keys, texts):
        # Valkyrie gives the key itself back for an empty or blank text (it has "no" text).
        assert got[key] == (ours[key] if ours[key].strip() else got[key])
        assert ours[key] == text.replace("\r\n", "\n").replace("\r", "\n").replace(",|||", ", |||").replace("\\n", "\n")


def test_questcs_localization_reader_is_valkyries_on_fuzzed_files(tmp_path):
    rng = random.Random(5)
    pieces = ['"', ",", "|||", ",|||", "\n", "\r\n", "key", "Event1.text", "Event2.text", " ", "a", "\\n", "//"]
    files = []
    for i in range(300):
        body = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 40)))
        path = tmp_path / f"l{i}.txt"
        path.write_bytes((".,English\nEvent1.text," + body + "\nEvent2.text,after\n").encode("utf-8"))
        files.append(path)
    valkyrie: dict[str, dict[str, str]] = {}
    for row in run_probe("locs", "Event1.text,Event2.text", *map(str, files)):
        if row[0] == "F":
            current = valkyrie.setdefault(row[1], {})
        elif row[0] == "V":
            current[row[1]] = row[2]
    for path in files:
        read = read_localization(decode(path.read_bytes()))
        got = valkyrie[str(path)]
        for key in ("Event1.text", "Event2.text"):
            if read.language == "English" and key in read.texts and read.texts[key].strip():
                assert got[key] == read.texts[key], repr(path.read_text())
            else:  # a file whose first line swallowed more than `.,English` (split at CR): no English text
                assert got[key] == key or read.language == "English", repr(path.read_text())
