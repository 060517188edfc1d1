"""One raw record (field name -> value, from any format) to a checked `Paper`."""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from graph.corpus.schemas import KNOWN_FIELDS, map_record
from graph.corpus.text import clean, paper_key
from graph.errors import InputError
from graph.model import Paper
from graph.nlp.text_clean import collapse

__all__ = ["KNOWN_FIELDS", "Notes", "Parsed", "make_paper"]

_AND = re.compile(r"\s+and\s+")
_YEAR = re.compile(r"\d{1,4}")
#: Field names that look like a paper's authors, venue or date. One that is not read while
#: the record has no such value of its own is worth a warning: it is probably what was meant.
LOOKALIKES: dict[str, re.Pattern[str]] = {
    "authors": re.compile(r"author|creator|writer", re.I),
    "venue": re.compile(r"venue|journal|conference|booktitle|container|proceedings", re.I),
    "year": re.compile(r"date|year|issued|published", re.I),
}
#: Id prefixes that name the scheme rather than the paper.
_ID_PREFIXES: dict[str, tuple[str, ...]] = {
    "doi": ("https://doi.org/", "http://doi.org/", "https://dx.doi.org/", "http://dx.doi.org/",
            "doi:"),
    "arxiv": ("https://arxiv.org/abs/", "http://arxiv.org/abs/", "arxiv:"),
    "openalex": ("https://openalex.org/", "http://openalex.org/"),
}


@dataclass
class Notes:
    """What a file's records had that paperkg did not read: for the build report."""

    #: record format -> records
    formats: Counter[str] = field(default_factory=Counter)
    #: field name -> records that kept it unmapped (in Paper.extra)
    unmapped: Counter[str] = field(default_factory=Counter)
    #: (field name, what it looks like) -> records where it was the only such value
    lookalikes: Counter[tuple[str, str]] = field(default_factory=Counter)


def make_paper(
    record: Mapping[str, object],
    *,
    path: str,
    line: int,
    where: str,
    max_chars: int,
    default_venue: str | None = None,
    notes: Notes | None = None,
    kind: str = "fields",
) -> Paper | None:
    """`where` prefixes messages ("corpus.json: line 4 (record 2)"); field names match any case.
    `kind` names the file's format in the notes for records in paperkg's own field names.

    None for a record of a reference export (CSL-JSON, OpenAlex, Semantic Scholar) that has no
    abstract: the caller lists it as skipped. Any other record without one is an error.
    """
    for name, value in record.items():
        _check_length(value, name, where, max_chars)
    mapped = map_record(record, where, shapes=kind in ("JSON", "JSON Lines", "fields"))
    known = {name: value for name, value in mapped.fields.items() if value is not None}
    raw_abstract = known.get("abstract")
    if raw_abstract is None:
        if mapped.abstract_optional:
            return None
        raise InputError(f'{where}: no "abstract" field')
    if not isinstance(raw_abstract, str):
        raise InputError(f'{where}: "abstract" must be text, not {_kind(raw_abstract)}')
    _check_length(raw_abstract, "abstract", where, max_chars)
    abstract = clean(raw_abstract).strip()
    if not abstract:
        if mapped.abstract_optional:
            return None
        raise InputError(f"{where}: empty abstract")

    id_ = _text(known.get("id"), "id", where)
    title = _text(known.get("title"), "title", where)
    paper = Paper(
        key=paper_key(id_, abstract),
        abstract=abstract,
        title=collapse(title) if title else None,
        id=id_,
        authors=tuple(collapse(n) for n in
                      _names(known.get("authors"), "authors", where, _split_people)),
        year=_year(known.get("year"), where),
        venue=_label(_text(known.get("venue"), "venue", where)) or default_venue,
        keywords=tuple(collapse(k) for k in
                       _names(known.get("keywords"), "keywords", where, _split_keywords)),
        url=_text(known.get("url"), "url", where),
        doi=_scheme_id("doi", known.get("doi"), where),
        arxiv=_scheme_id("arxiv", known.get("arxiv"), where),
        openalex=_scheme_id("openalex", known.get("openalex"), where),
        extra={name: _extra_value(value) for name, value in mapped.extra.items()},
        source=f"{path}:{line}",
    )
    if notes is not None:
        _note(notes, kind if mapped.format == "fields" else mapped.format, mapped.extra, paper)
    return paper


def _note(notes: Notes, format_: str, extra: Mapping[str, object], paper: Paper) -> None:
    notes.formats[format_] += 1
    notes.unmapped.update(extra.keys())
    for name in extra:
        for kind, pattern in LOOKALIKES.items():
            if pattern.search(name) and not getattr(paper, kind):
                notes.lookalikes[(name, kind)] += 1
                break


def _label(text: str | None) -> str | None:
    return collapse(text) if text else None


def _scheme_id(scheme: str, value: object, where: str) -> str | None:
    """A DOI, arXiv or OpenAlex id without the prefix that names its scheme."""
    text = _text(value, scheme, where)
    if not text:
        return None
    lowered = text.casefold()
    for prefix in _ID_PREFIXES[scheme]:
        if lowered.startswith(prefix):
            return text[len(prefix):].strip() or None
    return text


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
    """What one file gave: its papers, its list title (.txt), entries skipped for having no
    abstract (BibTeX, RIS, reference exports), and notes for the report."""

    papers: list[Paper] = field(default_factory=list)
    title: str | None = None
    skipped: list[str] = field(default_factory=list)
    notes: Notes = field(default_factory=Notes)
    #: the file's format, for the notes ("JSON", "RIS", ...)
    kind: str = "fields"

    def add(self, record: Mapping[str, object], *, path: str, line: int, where: str,
            max_chars: int, default_venue: str | None = None) -> None:
        """make_paper, then the paper kept or the record listed as skipped."""
        paper = make_paper(record, path=path, line=line, where=where, max_chars=max_chars,
                           default_venue=default_venue, notes=self.notes, kind=self.kind)
        if paper is None:
            self.skipped.append(f"{path}:{line}")
        else:
            self.papers.append(paper)
