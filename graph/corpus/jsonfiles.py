"""JSON Lines (one object a line) and JSON (an array of objects, or one object)."""

from __future__ import annotations

import json
import re

from graph.corpus.records import Parsed
from graph.errors import InputError

_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def _kind(value: object) -> str:
    return {list: "an array", str: "a string", bool: "true/false", type(None): "null"}.get(
        type(value), "a number"
    )


def _malformed(path: str, exc: json.JSONDecodeError) -> InputError:
    return InputError(
        f"{path}: line {exc.lineno}: malformed JSON at column {exc.colno}: {exc.msg}"
    )


def read_jsonl(text: str, path: str, max_chars: int) -> Parsed:
    parsed = Parsed(kind="JSON Lines")
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{path}: line {number}: malformed JSON at column {exc.colno}: {exc.msg}"
            ) from None
        if not isinstance(value, dict):
            raise InputError(f"{path}: line {number}: expected a JSON object, found {_kind(value)}")
        for element in _records_of(value):
            if not isinstance(element, dict):
                raise InputError(
                    f"{path}: line {number}: expected a JSON object, found {_kind(element)}"
                )
            parsed.add(element, path=path, line=number, where=f"{path}: line {number}",
                       max_chars=max_chars)
    return parsed


class _Cursor:
    """Walks a JSON array element by element so each record knows the line it starts on."""

    def __init__(self, text: str, path: str) -> None:
        self.text, self.path = text, path
        self.pos = 0
        self.line = 1
        self._counted = 0  # offset up to which newlines are counted into self.line
        self.decoder = json.JSONDecoder()

    def skip_space(self) -> str:
        self.pos = _JSON_SPACE.match(self.text, self.pos).end()  # type: ignore[union-attr]
        return self.text[self.pos : self.pos + 1]

    def line_here(self) -> int:
        self.line += self.text.count("\n", self._counted, self.pos)
        self._counted = self.pos
        return self.line

    def value(self) -> object:
        try:
            value, self.pos = self.decoder.raw_decode(self.text, self.pos)
        except json.JSONDecodeError as exc:
            raise _malformed(self.path, exc) from None
        return value

    def fail(self, message: str) -> InputError:
        line = self.line_here()
        column = self.pos - (self.text.rfind("\n", 0, self.pos) + 1) + 1
        return InputError(f"{self.path}: line {line}: malformed JSON at column {column}: {message}")


#: Keys under which a service's answer holds its records: OpenAlex's "results", Semantic
#: Scholar's "data", OpenReview's "notes".
ENVELOPES: tuple[str, ...] = ("results", "data", "notes")


def _array(cursor: _Cursor, path: str) -> list[tuple[int, int, object]]:
    """The elements of the array at the cursor ("[" next), each with its line and number."""
    cursor.skip_space()
    cursor.pos += 1
    records: list[tuple[int, int, object]] = []
    while True:
        char = cursor.skip_space()
        if char == "]" and not records:
            cursor.pos += 1
            return records
        if records:
            if char == "]":
                cursor.pos += 1
                return records
            if not char:
                raise cursor.fail("unexpected end of file; the array is not closed")
            if char != ",":
                raise cursor.fail("expecting ',' delimiter")
            cursor.pos += 1
            cursor.skip_space()
        line = cursor.line_here()
        records.append((line, len(records) + 1, cursor.value()))


def _envelope_key(value: object) -> str | None:
    """The key that holds the records when `value` is a service's answer, not a record."""
    if not isinstance(value, dict) or "abstract" in value:
        return None
    return next((k for k in ENVELOPES if isinstance(value.get(k), list)), None)


def _records_of(value: dict) -> list[object]:
    name = _envelope_key(value)
    return [value] if name is None else value[name]


def _envelope(cursor: _Cursor, path: str) -> tuple[object, list[tuple[int, int, object]] | None]:
    """The value at the cursor and, when it is a `{"results": [...]}`-like answer, its
    records with their lines."""
    start = cursor.pos
    line_start, counted = cursor.line, cursor._counted
    value = cursor.value()
    end = cursor.pos
    name = _envelope_key(value)
    if name is None:
        return value, None
    # walk the object again, key by key, to learn the line each record starts on
    cursor.pos, cursor.line, cursor._counted = start + 1, line_start, counted
    while True:
        cursor.skip_space()
        key = cursor.value()
        cursor.skip_space()
        cursor.pos += 1  # the colon
        if key == name:
            records = _array(cursor, path)
            cursor.pos = end
            return value, records
        cursor.skip_space()
        cursor.value()
        cursor.skip_space()
        cursor.pos += 1  # the comma


def read_json(text: str, path: str, max_chars: int) -> Parsed:
    cursor = _Cursor(text, path)
    parsed = Parsed(kind="JSON")
    if cursor.skip_space() != "[":
        line = cursor.line_here()
        value, found = _envelope(cursor, path)
        if found is not None:
            records = found
        else:
            if not isinstance(value, dict):
                raise InputError(
                    f"{path}: line {line}: expected a JSON object or array, found {_kind(value)}"
                )
            records = [(line, 1, value)]
    else:
        records = _array(cursor, path)
    if cursor.skip_space():
        raise cursor.fail("extra data after the JSON value")
    # a batch answer holds null for an id the service does not know: nothing to read there
    parsed.skipped.extend(f"{path}:{line}" for line, _, value in records if value is None)
    records = [record for record in records if record[2] is not None]
    for line, number, value in records:
        if not isinstance(value, dict):
            raise InputError(
                f"{path}: line {line} (record {number}): expected a JSON object, "
                f"found {_kind(value)}"
            )
    for line, number, value in records:
        where = f"{path}: line {line} (record {number})"
        parsed.add(value, path=path, line=line, where=where, max_chars=max_chars)  # type: ignore[arg-type]
    return parsed
