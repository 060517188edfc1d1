"""Which format a corpus file is in: its content first, its extension where content is unclear.

Content decides when it is unmistakable: a gzip stream (any name), an RIS record (``TY  -``),
a BibTeX entry (``@article{``), a first line that is a whole JSON object (JSON Lines, even
named ``.json`` as the arXiv snapshot is), or a file that opens with ``[``/``{`` and has no
extension paperkg reads. Otherwise the extension (under ``.gz``) decides, so a ``.txt`` list
whose first abstract opens with "[" stays a text list, and a malformed ``.json`` gets the JSON
reader's message.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import zlib
from pathlib import PurePath

from graph.errors import InputError

#: extension -> format name; the formats `graph.corpus.reader.READERS` reads
EXTENSIONS: dict[str, str] = {
    ".txt": "txt", ".jsonl": "jsonl", ".json": "json", ".csv": "csv", ".tsv": "tsv",
    ".bib": "bib", ".ris": "ris", ".ndjson": "jsonl",
}
_GZIP_MAGIC = b"\x1f\x8b"
_RIS_START = re.compile(r"TY  - ")
_BIB_START = re.compile(r"@[A-Za-z]+\s*[{(]")
#: a decompressed file over this is refused before it fills the memory (a "zip bomb")
MAX_DECOMPRESSED = 4 * 1024**3


def inner_suffix(path: str) -> str:
    """The extension that names the format: ".jsonl" for "works.jsonl.gz", "" for "part_000.gz"."""
    pure = PurePath(path)
    if pure.suffix.lower() == ".gz":
        pure = PurePath(pure.stem)
    return pure.suffix.lower()


def is_corpus_name(name: str) -> bool:
    """Whether a folder's file is read: a known extension, or any .gz."""
    return inner_suffix(name) in EXTENSIONS or name.lower().endswith(".gz")


def gunzip(data: bytes, path: str) -> bytes:
    """The content of a gzip stream; other data as it is."""
    if not data.startswith(_GZIP_MAGIC):
        return data
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(data)) as stream:
            out = stream.read(MAX_DECOMPRESSED + 1)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{path}: not a readable gzip file ({exc})") from None
    if len(out) > MAX_DECOMPRESSED:
        raise InputError(f"{path}: decompresses to more than {MAX_DECOMPRESSED:,} bytes")
    return out


def sniff(text: str) -> str | None:
    """The format the content shows beyond doubt, else None."""
    start = text.lstrip()
    if _RIS_START.match(start):
        return "ris"
    if _BIB_START.match(start):
        return "bib"
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    if first.startswith("{") and first.endswith("}"):
        try:
            value = json.loads(first)
        except (json.JSONDecodeError, RecursionError):
            return None
        if isinstance(value, dict):
            rest = start[len(first):].strip()
            return "jsonl" if rest.startswith("{") else "json"
    return None


def detect(text: str, path: str) -> str:
    """The format name for a decoded file; InputError when neither content nor name tells."""
    hint = EXTENSIONS.get(inner_suffix(path))
    found = sniff(text)
    if found == "json" and hint == "jsonl":
        return "jsonl"  # one record on one line
    if found is not None:
        return found
    if hint is not None:
        return hint
    if text.lstrip()[:1] in ("[", "{"):
        return "json"
    raise unsupported(path)


def unsupported(path: str) -> InputError:
    return InputError(
        f"{path}: unsupported file type; supported: {', '.join(EXTENSIONS)} "
        "(also gzipped), or content in one of those formats"
    )
