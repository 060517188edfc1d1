"""A small BibTeX reader: entries, @string macros, `#` concatenation, nested braces.

Values are brace- or quote-delimited, numbers, or macro names (jan..dec are predefined).
Brace groups that only protect case ("{B}ERT") are removed; groups that are arguments of a
LaTeX command or of ^ and _ ("\\mathcal{O}", "n^{2}") and escaped braces are kept. Common
accent commands on one letter become Unicode ("M\\\"{u}ller" -> "Müller"). Whitespace runs
(line breaks included) become one space, as in BibTeX itself.
"""

from __future__ import annotations

import bisect
import re
import unicodedata
from dataclasses import dataclass

from graph.corpus.records import Parsed
from graph.errors import InputError
from graph.nlp.text_clean import ACCENT, COMBINING

_TYPE = re.compile(r"[A-Za-z]+")
_SPACE = re.compile(r"\s*")
_KEY = re.compile(r"[^,\s{}()=\"#]*")
_NAME = re.compile(r"[^\s=,{}()\"#]+")
_BARE = re.compile(r"[^\s,#{}()\"=]+")
# the only characters that matter when looking for the end of a group
_BRACES = re.compile(r"[\\{}]")
_PARENS = re.compile(r"[\\()]")
_COMMAND = re.compile(r"\\(?:[A-Za-z]+|.)", re.DOTALL)
_MONTHS = dict(
    zip(
        "jan feb mar apr may jun jul aug sep oct nov dec".split(),
        "January February March April May June July August September October November December"
        .split(),
        strict=True,
    )
)
_ACCENT = re.compile(ACCENT)
_LETTERS = {r"\ss": "ß", r"\o": "ø", r"\O": "Ø", r"\ae": "æ", r"\AE": "Æ", r"\aa": "å",
            r"\AA": "Å", r"\l": "ł", r"\L": "Ł", r"\i": "ı"}
_LETTER = re.compile(r"\{?(\\(?:ss|o|O|ae|AE|aa|AA|l|L|i))(?![A-Za-z])\}?")
_AUTHOR_SEPARATOR = re.compile(r"\s+and\s+")
#: BibTeX fields that give the venue, in order of preference
_VENUE_FIELDS = ("venue", "journal", "booktitle")


@dataclass
class Entry:
    type: str
    key: str
    line: int
    fields: dict[str, str]


class _Parser:
    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.pos = 0
        self.macros = dict(_MONTHS)
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset)

    def error(self, message: str, offset: int | None = None) -> InputError:
        line = self.line(self.pos if offset is None else offset)
        return InputError(f"{self.path}: line {line}: {message}")

    def peek(self) -> str:
        self.pos = _SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos : self.pos + 1]

    def entries(self) -> list[Entry]:
        found: list[Entry] = []
        while (at := self.text.find("@", self.pos)) >= 0:
            self.pos = at + 1
            match = _TYPE.match(self.text, self.pos)
            if not match:
                continue  # an "@" in free text between entries is a comment
            self.pos = match.end()
            opener = self.peek()
            if opener not in ("{", "("):
                continue
            kind = match.group().lower()
            close = "}" if opener == "{" else ")"
            if kind in ("comment", "preamble"):
                self.skip_group(at)
                continue
            self.pos += 1
            if kind == "string":
                self.fields(close, at, f"@string at line {self.line(at)}", self.macros)
                continue
            key = _KEY.match(self.text, self.pos).group()  # type: ignore[union-attr]
            self.pos += len(key)
            char = self.peek()
            if not key or char == "=":
                raise self.error(f"@{kind} entry has no citation key", at)
            fields: dict[str, str] = {}
            if char == ",":
                self.pos += 1
                self.fields(close, at, f"@{kind}{{{key}, ...}}", fields)
            elif char == close:
                self.pos += 1
            else:
                raise self.error(f"expected ',' after the citation key of @{kind}{{{key}")
            found.append(Entry(kind, key, self.line(at), fields))
        return found

    def skip_group(self, at: int) -> None:
        self.pos = self.balanced(self.pos, at, "@" + self.text[at + 1 : self.pos].strip())

    def balanced(self, start: int, at: int, what: str) -> int:
        """End offset of the group opening at `start`; escaped braces do not count."""
        opener, closer = ("{", "}") if self.text[start] == "{" else ("(", ")")
        special = _BRACES if opener == "{" else _PARENS
        depth, pos, text = 0, start, self.text
        while match := special.search(text, pos):
            char, pos = match.group(), match.start()
            if char == "\\":
                pos += 2
                continue
            depth += 1 if char == opener else -1
            if depth == 0:
                return pos + 1
            pos += 1
        raise self.error(f"unclosed '{opener}' in {what} (entry at line {self.line(at)})", start)

    def fields(self, close: str, at: int, what: str, into: dict[str, str]) -> None:
        while True:
            char = self.peek()
            if char == close:
                self.pos += 1
                return
            if not char:
                raise self.error(f"unclosed {what}: end of file before '{close}'", at)
            name = _NAME.match(self.text, self.pos)
            if not name:
                raise self.error(f"expected a field name in {what}, found {char!r}")
            self.pos = name.end()
            if self.peek() != "=":
                raise self.error(f"expected '=' after field \"{name.group()}\" in {what}")
            self.pos += 1
            field = f'the "{name.group()}" field of {what}'
            value = self.value(at, field)
            # BibTeX keeps the first of two same-named fields.
            into.setdefault(name.group().lower(), value)
            char = self.peek()
            if char == ",":
                self.pos += 1
            elif char != close:
                raise self.error(f"expected ',' or '{close}' after {field}")

    def value(self, at: int, what: str) -> str:
        parts: list[str] = []
        while True:
            char = self.peek()
            if char == "{":
                end = self.balanced(self.pos, at, what)
                parts.append(self.text[self.pos + 1 : end - 1])
                self.pos = end
            elif char == '"':
                parts.append(self.quoted(at, what))
            elif bare := _BARE.match(self.text, self.pos):
                word = bare.group()
                self.pos = bare.end()
                parts.append(word if word.isdigit() else self.macros.get(word.lower(), word))
            else:
                raise self.error(f"expected a value for {what}")
            if self.peek() != "#":
                return "".join(parts)
            self.pos += 1

    def quoted(self, at: int, what: str) -> str:
        start, depth, pos, text = self.pos, 0, self.pos + 1, self.text
        while pos < len(text):
            char = text[pos]
            if char == "\\":
                pos += 2
                continue
            if char == "{":
                depth += 1
            elif char == "}":
                depth -= 1
            elif char == '"' and depth <= 0:
                self.pos = pos + 1
                return text[start + 1 : pos]
            pos += 1
        raise self.error(f"unclosed '\"' in {what} (entry at line {self.line(at)})", start)


def strip_braces(value: str) -> str:
    """Remove case-protecting braces, keep command arguments, turn accents into Unicode."""
    if "{" not in value and "}" not in value and "\\" not in value:
        return " ".join(value.split())
    value = _ACCENT.sub(_accent, value)
    value = _LETTER.sub(lambda m: _LETTERS[m.group(1)], value)
    out: list[str] = []
    kept: list[bool] = []  # for each open brace: is it kept in the output?
    pos = 0
    while match := _BRACES.search(value, pos):
        out.append(value[pos : match.start()])
        pos = match.start()
        char = match.group()
        if char == "\\":
            command = _COMMAND.match(value, pos)
            text = command.group() if command else char  # a lone trailing backslash
            out.append(text)
            pos += len(text)
            if value.startswith("{", pos) and text not in ("\\{", "\\}"):
                kept.append(True)
                out.append("{")
                pos += 1
            continue
        if char == "{":
            keep = pos > 0 and value[pos - 1] in "^_"
            kept.append(keep)
        else:
            keep = bool(kept) and kept.pop()
        if keep:
            out.append(char)
        pos += 1
    out.append(value[pos:])
    return " ".join("".join(out).split())


def _accent(match: re.Match[str]) -> str:
    letter = match.group(2) or match.group(3)
    return unicodedata.normalize("NFC", letter + COMBINING[match.group(1)])


def split_authors(value: str) -> list[str]:
    """Split on " and " outside braces, so "{Barnes and Noble}" stays one author."""
    names, depth, start = [], 0, 0
    for match in re.finditer(r"[{}]|\s+and\s+", value):
        token = match.group()
        if token == "{":
            depth += 1
        elif token == "}":
            depth -= 1
        elif depth == 0:
            names.append(value[start : match.start()])
            start = match.end()
    names.append(value[start:])
    return [strip_braces(name) for name in names if name.strip()]


def read_bib(text: str, path: str, max_chars: int) -> Parsed:
    parsed = Parsed(kind="BibTeX")
    for entry in _Parser(text, path).entries():
        if not entry.fields.get("abstract", "").strip():
            parsed.skipped.append(f"{path}:{entry.line}")
            continue
        record: dict[str, object] = {"id": entry.key, "entrytype": entry.type}
        for name, value in entry.fields.items():
            if name == "author":
                record["authors"] = split_authors(value)
            elif name in ("id", "authors", "entrytype"):
                # would clash with the citation key, `author` or the entry type: kept aside
                record[f"bibtex {name}"] = strip_braces(value)
            else:
                record[name] = strip_braces(value)
        if str(record.get("archiveprefix", "")).casefold() == "arxiv" and "eprint" in record:
            record.setdefault("arxiv", record["eprint"])
        venue = next((record[n] for n in _VENUE_FIELDS if n in record), None)
        if venue is not None:
            record["venue"] = venue
        where = f"{path}: line {entry.line} (@{entry.type}{{{entry.key}}})"
        parsed.add(record, path=path, line=entry.line, where=where, max_chars=max_chars)
    return parsed
