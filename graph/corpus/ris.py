"""RIS (Research Information Systems), as Zotero, Mendeley, EndNote and publishers export it.

A record runs from ``TY  - `` to ``ER  -``; each line is a two-character tag, two spaces, a
hyphen, a space and the value; a line without a tag continues the previous value. Records
without an abstract are skipped and listed, as BibTeX entries are.
"""

from __future__ import annotations

import re

from graph.corpus.records import Parsed
from graph.errors import InputError

_TAG = re.compile(r"([A-Z][A-Z0-9])  -(?: (.*)|)$")
#: tag -> paperkg field; the first tag present wins where several name one field
_FIELDS: dict[str, tuple[str, ...]] = {
    "title": ("TI", "T1", "CT"),
    "abstract": ("AB", "N2"),
    "year": ("PY", "Y1", "DA"),
    "venue": ("T2", "JO", "JF", "JA", "BT", "T3"),
    "doi": ("DO",),
    "url": ("UR",),
    "id": ("ID",),
}
_LISTS = {"authors": ("AU", "A1"), "keywords": ("KW",)}
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


def _person(name: str) -> str:
    """"Family, Given" -> "Given Family" (one comma only; anything else as it is)."""
    family, comma, given = name.partition(",")
    if comma and "," not in given and given.strip():
        return f"{given.strip()} {family.strip()}"
    return name.strip()


def _record(tags: dict[str, list[str]]) -> dict[str, object]:
    record: dict[str, object] = {}
    used: set[str] = {"TY", "ER"}
    for name, candidates in _FIELDS.items():
        for tag in candidates:
            if tags.get(tag):
                record[name] = " ".join(tags[tag])
                used.add(tag)
                break
    if "year" in record:
        match = _YEAR.search(str(record["year"]))
        record["year"] = int(match.group(1)) if match else None
    for name, candidates in _LISTS.items():
        values = [v for tag in candidates for v in tags.get(tag, [])]
        used.update(candidates)
        if values:
            record[name] = [_person(v) for v in values] if name == "authors" else values
    for tag, values in tags.items():
        if tag not in used:
            record[tag] = "; ".join(values)
    return record


def read_ris(text: str, path: str, max_chars: int) -> Parsed:
    parsed = Parsed(kind="RIS")
    tags: dict[str, list[str]] | None = None
    start = 0
    last: str | None = None
    for number, line in enumerate(text.split("\n"), 1):
        match = _TAG.match(line.rstrip())
        if match is None:
            if line.strip() and tags is not None and last is not None:
                tags[last][-1] = f"{tags[last][-1]} {line.strip()}".strip()
            elif line.strip():
                raise InputError(f"{path}: line {number}: text outside a record "
                                 '(a record starts with "TY  - ")')
            continue
        tag, value = match.group(1), (match.group(2) or "").strip()
        if tag == "TY":
            if tags is not None:
                raise InputError(f'{path}: line {number}: a new record before "ER  -" '
                                 f"closed the one on line {start}")
            tags, start, last = {"TY": [value]}, number, "TY"
            continue
        if tags is None:
            raise InputError(f'{path}: line {number}: "{tag}" outside a record '
                             '(a record starts with "TY  - ")')
        if tag == "ER":
            record = _record(tags)
            record.setdefault("abstract", None)
            if record["abstract"] is None:
                parsed.skipped.append(f"{path}:{start}")
            else:
                record["type"] = tags["TY"][0]
                parsed.add(record, path=path, line=start, where=f"{path}: line {start}",
                           max_chars=max_chars)
            tags, last = None, None
            continue
        tags.setdefault(tag, []).append(value)
        last = tag
    if tags is not None:
        raise InputError(f'{path}: line {start}: record not closed with "ER  -"')
    return parsed
