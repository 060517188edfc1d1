"""One raw record (field name -> value, from any format) to a checked `Paper`."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from graph.corpus.text import clean, paper_key
from graph.errors import InputError
from graph.model import Paper

KNOWN_FIELDS: tuple[str, ...] = (
    "abstract", "title", "id", "authors", "year", "venue", "keywords", "url",
)
_AND = re.compile(r"\s+and\s+")
_YEAR = re.compile(r"\d{1,4}")


def make_paper(
    record: Mapping[str, object],
    *,
    path: str,
    line: int,
    where: str,
    max_chars: int,
    default_venue: str | None = None,
) -> Paper:
    """`where` prefixes messages ("corpus.json: line 4 (record 2)"); field names match any case."""
    known: dict[str, object] = {}
    extra: dict[str, str] = {}
    seen: dict[str, str] = {}
    for name, value in record.items():
        folded = name.strip().casefold()
        if folded in seen:
            raise InputError(f'{where}: fields "{seen[folded]}" and "{name}" are the same field')
        seen[folded] = name
        _check_length(value, name, where, max_chars)
        if folded in KNOWN_FIELDS:
            known[folded] = value
        else:
            extra[name] = _extra_value(value)

    if "abstract" not in known or known["abstract"] is None:
        raise InputError(f'{where}: no "abstract" field')
    raw_abstract = known["abstract"]
    if not isinstance(raw_abstract, str):
        raise InputError(f'{where}: "abstract" must be text, not {_kind(raw_abstract)}')
    abstract = clean(raw_abstract).strip()
    if not abstract:
        raise InputError(f"{where}: empty abstract")

    id_ = _text(known.get("id"), "id", where)
    return Paper(
        key=paper_key(id_, abstract),
        abstract=abstract,
        title=_text(known.get("title"), "title", where),
        id=id_,
        authors=_names(known.get("authors"), "authors", where, _split_people),
        year=_year(known.get("year"), where),
        venue=_text(known.get("venue"), "venue", where) or default_venue,
        keywords=_names(known.get("keywords"), "keywords", where, _split_keywords),
        url=_text(known.get("url"), "url", where),
        extra=extra,
        source=f"{path}:{line}",
    )


def _check_length(value: object, name: str, where: str, max_chars: int) -> None:
    if isinstance(value, str) and len(value) > max_chars:
        raise InputError(
            f'{where}: field "{name}" is {len(value):,} characters long; '
            f"the limit is {max_chars:,}"
        )


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", bool: "true/false"}
    return names.get(type(value), type(value).__name__)


def _text(value: object, name: str, where: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        raise InputError(f'{where}: "{name}" must be text, not {_kind(value)}')
    return clean(str(value)).strip() or None


def _split_people(text: str) -> list[str]:
    return text.split(";") if ";" in text else _AND.split(text)


def _split_keywords(text: str) -> list[str]:
    return text.split(";") if ";" in text else text.split(",")


def _names(
    value: object, name: str, where: str, split: Callable[[str], list[str]]
) -> tuple[str, ...]:
    """A list (of strings, or of {"name": ...} objects) or one string split by `split`."""
    if value is None:
        return ()
    if isinstance(value, str):
        items: list[object] = list(split(value))
    elif isinstance(value, list | tuple):
        items = [item.get("name") if isinstance(item, dict) else item for item in value]
    else:
        raise InputError(f'{where}: "{name}" must be a list or text, not {_kind(value)}')
    names = []
    for item in items:
        text = _text(item, name, where)
        if text:
            names.append(text)
    return tuple(names)


def _year(value: object, where: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        text = value.strip()
        if not text:
            return None
        if _YEAR.fullmatch(text):
            return int(text)
    raise InputError(f'{where}: "year" must be a whole number, not {value!r}')


def _extra_value(value: object) -> str:
    if isinstance(value, str):
        return clean(value).strip()
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


@dataclass
class Parsed:
    """What one file gave: its papers, its list title (.txt) and entries skipped (.bib)."""

    papers: list[Paper] = field(default_factory=list)
    title: str | None = None
    skipped: list[str] = field(default_factory=list)
