"""Bytes to text, and the text rules every corpus format shares."""

from __future__ import annotations

import hashlib
import re
import unicodedata

from graph.errors import InputError
from graph.slug import slugify

#: spaCy's default `nlp.max_length`: a longer abstract cannot be parsed as one Doc, so every
#: field longer than this is refused with a clear error rather than failing later.
MAX_FIELD_CHARS = 1_000_000

_UTF8_BOM = b"\xef\xbb\xbf"
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
_WHITESPACE = re.compile(r"\s+")
_SLUG_DIGEST = re.compile(r"(?:^|-)[0-9a-f]{8}$")


def _control_table() -> dict[int, str | None]:
    """C0/C1 controls except tab and newline (whitespace-like ones become a space, the rest go),
    and the noncharacters U+FFFE/U+FFFF."""
    table: dict[int, str | None] = {}
    for point in [*range(0x00, 0x20), *range(0x7F, 0xA0)]:
        char = chr(point)
        if char in "\t\n":
            continue
        # VT, FF, FS..US and NEL separate words; dropping them would glue words together.
        table[point] = " " if char.isspace() else None
    # Noncharacters XML 1.0 cannot hold: left in, they would make graph.rdf ill-formed.
    table[0xFFFE] = table[0xFFFF] = None
    return table


_CONTROLS = _control_table()


def line_of(data: bytes | str, offset: int) -> int:
    """1-based line number of `offset`, counting LF, CRLF and lone CR as one line end each."""
    before = data[:offset]
    if isinstance(before, bytes):
        return before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
    return before.count("\n") + before.count("\r") - before.count("\r\n") + 1


def decode(data: bytes, path: str) -> str:
    """Strict UTF-8 (BOM dropped), line ends normalised to LF. Refuses binary and empty files."""
    if data.startswith(_UTF16_BOMS):
        raise InputError(f"{path}: line 1: UTF-16 text is not supported; save the file as UTF-8")
    if b"\x00" in data:
        line = line_of(data, data.index(b"\x00"))
        raise InputError(
            f"{path}: line {line}: binary file (NUL byte); corpus files are UTF-8 text"
        )
    data = data.removeprefix(_UTF8_BOM)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = line_of(data, exc.start)
        line_start = max(data.rfind(b"\n", 0, exc.start), data.rfind(b"\r", 0, exc.start)) + 1
        column = len(data[line_start : exc.start].decode("utf-8")) + 1
        raise InputError(
            f"{path}: line {line}: not valid UTF-8 "
            f"(byte 0x{data[exc.start]:02x} at column {column})"
        ) from None
    if not text.strip():
        raise InputError(f"{path}: no abstracts found (the file is empty)")
    return normalise_newlines(text)


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def clean(text: str) -> str:
    """Line ends to LF; control characters other than tab and newline removed."""
    return normalise_newlines(text).translate(_CONTROLS)


def abstract_key(abstract: str) -> str:
    """First 12 hex digits of SHA-256 of the NFC, whitespace-collapsed, stripped abstract."""
    normal = _WHITESPACE.sub(" ", unicodedata.normalize("NFC", abstract)).strip()
    return hashlib.sha256(normal.encode("utf-8")).hexdigest()[:12]


#: An id that is one of these IRIs is keyed by what follows it ("W4391234567").
_ID_IRIS = ("https://openalex.org/", "https://doi.org/", "https://arxiv.org/abs/")


def paper_key(id: str | None, abstract: str) -> str:
    """The `id` as an IRI-safe slug when there is one, else the abstract's hash key.

    A lower-case id keys as its slug ("smith-2020", "2401.04321"). An id with capitals gets
    the first 8 hex digits of the SHA-256 of the id as given after its slug
    ("B1tC-LT6W" -> "b1tc-lt6w-6d5cd2ba"), so ids that differ only in case never share a
    key, while keys of lower-case ids stay as they were.
    """
    if not id:
        return abstract_key(abstract)
    local = next((id[len(iri):] for iri in _ID_IRIS if id.startswith(iri) and id[len(iri):]),
                 id)
    slug = slugify(local)
    if local == local.lower():
        return slug
    # the slug's own digest (of the case-folded id) gives way to one of the id as given
    readable = _SLUG_DIGEST.sub("", slug)
    digest = hashlib.sha256(local.encode("utf-8")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else digest
