"""Record shapes of the services people export papers from, mapped to paperkg's fields.

A JSON record is recognised by its keys, one record at a time (`map_record`): OpenAlex works,
the arXiv metadata snapshot, Semantic Scholar Graph API papers, OpenReview notes, CSL-JSON
(Zotero, Mendeley) and, for anything else, paperkg's own field names (which OpenReview paper
lists also use, with their `author` and `site`). Each mapping returns the fields `make_paper`
checks, and the record's other fields, kept as they are.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from graph.errors import InputError
from graph.nlp.text_clean import collapse, readable

#: paperkg's own field names; a generic record may also name them as in ALIASES.
KNOWN_FIELDS: tuple[str, ...] = (
    "abstract", "title", "id", "authors", "year", "venue", "keywords", "url",
    "doi", "arxiv", "openalex",
)
#: Other names for them that paper lists and spreadsheets use (any case).
ALIASES: dict[str, str] = {
    "author": "authors", "site": "url", "arxiv_id": "arxiv", "arxivid": "arxiv",
    "openalex_id": "openalex",
}
_DATE_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


@dataclass
class Mapped:
    """One record in paperkg's field names, the fields left unmapped, and its format."""

    format: str
    fields: dict[str, object] = field(default_factory=dict)
    extra: dict[str, object] = field(default_factory=dict)
    #: a reference export (CSL, OpenAlex, Semantic Scholar) may hold records without an
    #: abstract: those are skipped and listed, as BibTeX entries are, not an error
    abstract_optional: bool = False


def map_record(record: Mapping[str, object], where: str, *, shapes: bool = True) -> Mapped:
    """`record` in paperkg's field names. `shapes=False` (a CSV row, a BibTeX entry, a text
    paragraph) skips the service shapes: only JSON records come in them."""
    if not shapes:
        return _generic(record, where)
    keys = set(record)
    if ("abstract_inverted_index" in keys or "authorships" in keys
            or (_openalex_id(record) and "abstract" not in keys)):
        return _openalex(record)
    if "paperId" in keys or "externalIds" in keys:
        return _semantic_scholar(record)
    if "authors_parsed" in keys or ({"id", "categories"} <= keys
                                    and keys & {"update_date", "versions"}):
        return _arxiv(record)
    if isinstance(record.get("content"), dict) and keys & {"forum", "invitation", "invitations"}:
        return _openreview_note(record, where)
    if keys & {"container-title", "issued", "citation-key"} or _csl_authors(record):
        return _csl(record)
    return _generic(record, where)


def _openalex_id(record: Mapping[str, object]) -> bool:
    value = record.get("id")
    return isinstance(value, str) and value.startswith("https://openalex.org/W")


def _split(record: Mapping[str, object], used: set[str]) -> dict[str, object]:
    return {name: value for name, value in record.items() if name not in used}


def _get(value: object, *path: str) -> object:
    """`value[path[0]][path[1]]…`, or None where a level is missing or not an object."""
    for name in path:
        if not isinstance(value, dict):
            return None
        value = value.get(name)
    return value


def _generic(record: Mapping[str, object], where: str) -> Mapped:
    mapped = Mapped("fields")
    seen: dict[str, str] = {}
    for name, value in record.items():
        folded = name.strip().casefold()
        if folded in seen:
            raise InputError(f'{where}: fields "{seen[folded]}" and "{name}" are the same field')
        seen[folded] = name
        target = folded if folded in KNOWN_FIELDS else ALIASES.get(folded)
        # of "author" and "authors" both given, the first one read wins; the other is kept
        if target is not None and target not in mapped.fields:
            mapped.fields[target] = value
        else:
            mapped.extra[name] = value
    return mapped


# -- OpenAlex works -------------------------------------------------------------------------


def inverted_abstract(index: object) -> str | None:
    """OpenAlex's `abstract_inverted_index` ({word: [positions]}) back to its text."""
    if not isinstance(index, dict) or not index:
        return None
    placed: dict[int, str] = {}
    for word, positions in index.items():
        if isinstance(positions, list):
            for position in positions:
                if isinstance(position, int) and not isinstance(position, bool):
                    placed[position] = word
    return " ".join(placed[i] for i in sorted(placed)) or None


def _openalex(record: Mapping[str, object]) -> Mapped:
    used = {"id", "doi", "title", "display_name", "publication_year", "authorships",
            "primary_location", "abstract_inverted_index", "keywords"}
    mapped = Mapped("OpenAlex", abstract_optional=True, extra=_split(record, used))
    fields = mapped.fields
    fields["abstract"] = inverted_abstract(record.get("abstract_inverted_index"))
    fields["id"] = record.get("id")
    fields["openalex"] = record.get("id")
    fields["doi"] = record.get("doi") or _get(record, "ids", "doi")
    title = record.get("title") or record.get("display_name")
    fields["title"] = collapse(title) if isinstance(title, str) else title
    fields["year"] = record.get("publication_year")
    authorships = record.get("authorships")
    if isinstance(authorships, list):
        fields["authors"] = [_get(a, "author", "display_name") for a in authorships
                             if _get(a, "author", "display_name")]
    fields["venue"] = _get(record, "primary_location", "source", "display_name")
    fields["url"] = _get(record, "primary_location", "landing_page_url")
    keywords = record.get("keywords")
    if isinstance(keywords, list):
        fields["keywords"] = [k.get("display_name") if isinstance(k, dict) else k
                              for k in keywords]
    return mapped


# -- arXiv metadata snapshot ----------------------------------------------------------------


def arxiv_authors(text: str) -> list[str]:
    """"A, B and C" (the snapshot's `authors`) as three names."""
    names: list[str] = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", collapse(text)):
        if part.strip():
            names.append(part.strip())
    return names


def _arxiv(record: Mapping[str, object]) -> Mapped:
    used = {"id", "title", "abstract", "authors", "authors_parsed", "categories", "doi",
            "journal-ref", "update_date", "versions"}
    mapped = Mapped("arXiv", extra=_split(record, used))
    fields = mapped.fields
    for name in ("title", "abstract"):
        value = record.get(name)
        fields[name] = collapse(value) if isinstance(value, str) else value
    fields["id"] = record.get("id")
    fields["arxiv"] = record.get("id")
    fields["doi"] = record.get("doi")
    fields["venue"] = record.get("journal-ref")
    parsed = record.get("authors_parsed")
    if isinstance(parsed, list) and parsed:
        fields["authors"] = [_parsed_name(item) for item in parsed if _parsed_name(item)]
    elif isinstance(record.get("authors"), str):
        # the snapshot writes accents in LaTeX there ("Bal\\'azs")
        fields["authors"] = arxiv_authors(readable(record["authors"]).text)  # type: ignore[arg-type]
    else:
        fields["authors"] = record.get("authors")
    categories = record.get("categories")
    fields["keywords"] = categories.split() if isinstance(categories, str) else categories
    # the first version's date is when the paper appeared; update_date is its last change
    versions = record.get("versions")
    first = _get(versions[0], "created") if isinstance(versions, list) and versions else None
    fields["year"] = _year_in(first) or _year_in(record.get("update_date"))
    if isinstance(record.get("id"), str):
        fields["url"] = f"https://arxiv.org/abs/{record['id']}"
    return mapped


def _parsed_name(item: object) -> str:
    """["Last", "First", "Suffix"] -> "First Last Suffix"."""
    if not isinstance(item, list):
        return ""
    parts = [str(p).strip() for p in item if isinstance(p, str) and p.strip()]
    if not parts:
        return ""
    return collapse(" ".join([*parts[1:2], parts[0], *parts[2:]]))


def _year_in(value: object) -> int | None:
    if isinstance(value, str) and (match := _DATE_YEAR.search(value)):
        return int(match.group(1))
    return None


# -- Semantic Scholar Graph API ------------------------------------------------------------


def _semantic_scholar(record: Mapping[str, object]) -> Mapped:
    used = {"paperId", "externalIds", "title", "abstract", "authors", "venue", "year", "url",
            "publicationVenue", "journal"}
    mapped = Mapped("Semantic Scholar", abstract_optional=True, extra=_split(record, used))
    fields = mapped.fields
    for name in ("title", "abstract", "year", "url"):
        fields[name] = record.get(name)
    fields["id"] = record.get("paperId")
    authors = record.get("authors")
    fields["authors"] = ([a.get("name") for a in authors if isinstance(a, dict)]
                         if isinstance(authors, list) else authors)
    fields["venue"] = (record.get("venue") or _get(record, "publicationVenue", "name")
                       or _get(record, "journal", "name"))
    external = record.get("externalIds")
    if isinstance(external, dict):
        fields["doi"] = external.get("DOI")
        fields["arxiv"] = external.get("ArXiv")
    return mapped


# -- OpenReview notes (API v1: plain content values; v2: {"value": ...}) ---------------------


def _openreview_note(record: Mapping[str, object], where: str) -> Mapped:
    content = {name: (value.get("value") if isinstance(value, dict) and "value" in value
                      else value)
               for name, value in record["content"].items()}  # type: ignore[attr-defined]
    mapped = _generic(content, where)
    mapped.format = "OpenReview"
    mapped.fields.setdefault("id", record.get("id"))
    forum = record.get("forum") or record.get("id")
    mapped.fields.setdefault("url", f"https://openreview.net/forum?id={forum}")
    for stamp in ("pdate", "odate", "cdate", "tcdate"):
        value = record.get(stamp)
        if "year" not in mapped.fields and isinstance(value, int) and value > 0:
            moment = datetime.datetime.fromtimestamp(value / 1000, tz=datetime.UTC)
            mapped.fields["year"] = moment.year
    mapped.extra.update(_split(record, {"id", "forum", "content"}))
    return mapped


# -- CSL-JSON -------------------------------------------------------------------------------


def _csl_authors(record: Mapping[str, object]) -> bool:
    authors = record.get("author")
    return isinstance(authors, list) and any(
        isinstance(a, dict) and ("family" in a or "literal" in a) for a in authors
    )


def _csl_name(person: object) -> str | None:
    if not isinstance(person, dict):
        return None
    if isinstance(person.get("literal"), str):
        return person["literal"]
    parts = [person.get(p) for p in ("given", "non-dropping-particle", "family", "suffix")]
    return " ".join(p for p in parts if isinstance(p, str) and p.strip()) or None


def _csl_year(issued: object) -> int | None:
    parts = _get(issued, "date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        first = parts[0][0]
        if isinstance(first, int | str) and str(first).strip().isdigit():
            return int(first)
    return _year_in(_get(issued, "raw")) or _year_in(_get(issued, "literal"))


def _csl(record: Mapping[str, object]) -> Mapped:
    used = {"id", "title", "abstract", "author", "issued", "container-title", "event-title",
            "DOI", "URL", "keyword"}
    mapped = Mapped("CSL-JSON", abstract_optional=True, extra=_split(record, used))
    fields = mapped.fields
    fields["id"] = record.get("id")
    title = record.get("title")
    fields["title"] = collapse(title) if isinstance(title, str) else title
    fields["abstract"] = record.get("abstract")
    authors = record.get("author")
    if isinstance(authors, list):
        fields["authors"] = [n for n in map(_csl_name, authors) if n]
    fields["year"] = _csl_year(record.get("issued"))
    fields["venue"] = record.get("container-title") or record.get("event-title")
    fields["doi"] = record.get("DOI")
    fields["url"] = record.get("URL")
    keyword = record.get("keyword")
    # CSL's `keyword` is one string, comma-separated by Zotero
    fields["keywords"] = keyword.split(",") if isinstance(keyword, str) else keyword
    return mapped
