"""JSON Lines (one object a line) and JSON (an array of objects, or one object)."""

from __future__ import annotations

import json
import re

from graph.corpus.records import Parsed, make_paper
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
    parsed = Parsed()
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
        where = f"{path}: line {number}"
        parsed.papers.append(
            make_paper(value, path=path, line=number, where=where, max_chars=max_chars)
        )
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


def read_json(text: str, path: str, max_chars: int) -> Parsed:
    cursor = _Cursor(text, path)
    parsed = Parsed()
    if cursor.skip_space() != "[":
        line = cursor.line_here()
        value = cursor.value()
        if not isinstance(value, dict):
            raise InputError(
                f"{path}: line {line}: expected a JSON object or array, found {_kind(value)}"
            )
        records = [(line, 1, value)]
    else:
        cursor.pos += 1
        records = []
        while True:
            char = cursor.skip_space()
            if char == "]" and not records:
                cursor.pos += 1
                break
            if records:
                if char == "]":
                    cursor.pos += 1
                    break
                if not char:
                    raise cursor.fail("unexpected end of file; the array is not closed")
                if char != ",":
                    raise cursor.fail("expecting ',' delimiter")
                cursor.pos += 1
                cursor.skip_space()
            line = cursor.line_here()
            value = cursor.value()
            number = len(records) + 1
            if not isinstance(value, dict):
                raise InputError(
                    f"{path}: line {line} (record {number}): expected a JSON object, "
                    f"found {_kind(value)}"
                )
            records.append((line, number, value))
    if cursor.skip_space():
        raise cursor.fail("extra data after the JSON value")
    for line, number, value in records:
        where = f"{path}: line {line} (record {number})"
        parsed.papers.append(
            make_paper(value, path=path, line=line, where=where, max_chars=max_chars)
        )
    return parsed
