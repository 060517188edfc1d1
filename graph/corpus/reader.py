"""`read_corpus`: files and folders in, de-duplicated `Paper` records out."""

from __future__ import annotations

import dataclasses
import functools
import os
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from graph.corpus.bibtex import read_bib
from graph.corpus.detect import (
    EXTENSIONS,
    detect,
    gunzip,
    inner_suffix,
    is_corpus_name,
    unsupported,
)
from graph.corpus.jsonfiles import read_json, read_jsonl
from graph.corpus.plaintext import read_txt
from graph.corpus.records import Notes, Parsed
from graph.corpus.ris import read_ris
from graph.corpus.tables import read_table
from graph.corpus.text import MAX_FIELD_CHARS, abstract_key, decode
from graph.errors import InputError
from graph.model import Paper

Reader = Callable[[str, str, int], Parsed]

#: format name -> reader(text, path, max_chars)
READERS: dict[str, Reader] = {
    "txt": read_txt,
    "jsonl": read_jsonl,
    "json": read_json,
    "csv": functools.partial(read_table, delimiter=","),
    "tsv": functools.partial(read_table, delimiter="\t"),
    "bib": read_bib,
    "ris": read_ris,
}
SUPPORTED_EXTENSIONS: tuple[str, ...] = tuple(EXTENSIONS)


@dataclass(frozen=True)
class Duplicate:
    """A record dropped because an earlier one had the same key."""

    #: the key both records share (the first one is kept)
    key: str
    #: "path:line" of the dropped record
    source: str
    #: True when the two abstracts differ (same id, different text): worth a warning
    differed: bool
    #: "path:line" of the record that was kept
    kept_source: str = ""


@dataclass
class Corpus:
    papers: list[Paper] = field(default_factory=list)
    #: path -> the title line of a .txt list
    titles: dict[str, str] = field(default_factory=dict)
    duplicates: list[Duplicate] = field(default_factory=list)
    #: "path:line" of BibTeX/RIS entries and reference records skipped for having no abstract
    skipped: list[str] = field(default_factory=list)
    #: path -> what its records held that was not read (formats, unmapped fields)
    notes: dict[str, Notes] = field(default_factory=dict)

    def unmapped_fields(self) -> dict[str, int]:
        """Field name -> records that kept it unmapped, over every file."""
        total: Counter[str] = Counter()
        for notes in self.notes.values():
            total.update(notes.unmapped)
        return dict(sorted(total.items()))

    def warnings(self) -> list[str]:
        """One line per file and field that looks like authors, a venue or a date but is not
        read, in records that have none of their own."""
        lines = []
        for path, notes in self.notes.items():
            for (name, kind), count in sorted(notes.lookalikes.items()):
                lines.append(f'{path}: field "{name}" looks like the {kind} but is not read '
                             f"({count} record{'s' if count != 1 else ''} without {kind}); "
                             f'rename it "{kind}" to use it')
        return lines


def read_corpus(
    paths: Iterable[str | os.PathLike[str]], *, max_chars: int = MAX_FIELD_CHARS
) -> Corpus:
    """Read corpus files (and every supported file directly inside a folder), in order.

    Raises InputError naming the file and line for anything it cannot read; duplicates are
    never an error, they are merged and listed in `Corpus.duplicates`.
    """
    corpus = Corpus()
    index: dict[str, int] = {}
    for path in corpus_files(paths):
        parsed = read_file(path, max_chars=max_chars)
        if parsed.title:
            corpus.titles[path] = parsed.title
        corpus.skipped.extend(parsed.skipped)
        corpus.notes[path] = parsed.notes
        for paper in parsed.papers:
            if paper.key not in index:
                index[paper.key] = len(corpus.papers)
                corpus.papers.append(paper)
                continue
            kept = corpus.papers[index[paper.key]]
            differed = abstract_key(kept.abstract) != abstract_key(paper.abstract)
            if not differed:
                corpus.papers[index[paper.key]] = _merge(kept, paper)
            corpus.duplicates.append(Duplicate(paper.key, paper.source, differed, kept.source))
    return corpus


def corpus_files(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The files to read: folders expanded (sorted, not recursive), each file once."""
    files: list[str] = []
    seen: set[str] = set()
    for given in paths:
        path = os.fspath(given)
        if os.path.isdir(path):
            found = sorted(
                entry.path
                for entry in os.scandir(path)
                if entry.is_file()
                and not entry.name.startswith(".")
                and is_corpus_name(entry.name)
            )
            if not found:
                raise InputError(
                    f"{path}: no corpus files in this folder "
                    f"(looked for {', '.join(SUPPORTED_EXTENSIONS)})"
                )
        elif os.path.exists(path):
            found = [path]
        else:
            raise InputError(f"{path}: no such file or folder")
        for name in found:
            real = os.path.realpath(name)
            if real not in seen:
                seen.add(real)
                files.append(name)
    if not files:
        raise InputError("no corpus files given")
    return files


def read_file(path: str, *, max_chars: int = MAX_FIELD_CHARS) -> Parsed:
    """One file, in the format its content (else its extension) shows; gzipped or not."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as exc:
        raise InputError(f"{path}: cannot read: {exc.strerror}") from None
    data = gunzip(data, path)
    if inner_suffix(path) not in EXTENSIONS and b"\x00" in data[:65536]:
        raise unsupported(path)  # a binary file of another kind, not a corpus gone wrong
    text = decode(data, path)
    parsed = READERS[detect(text, path)](text, path, max_chars)
    if not parsed.papers:
        detail = f" ({len(parsed.skipped)} entries without an abstract)" if parsed.skipped else ""
        raise InputError(f"{path}: no abstracts found{detail}")
    return parsed


def _merge(kept: Paper, other: Paper) -> Paper:
    """Fill what the kept record lacks from a duplicate with the same abstract."""
    changes: dict[str, object] = {}
    for name in ("title", "authors", "year", "venue", "keywords", "url", "doi", "arxiv",
                 "openalex"):
        if not getattr(kept, name) and getattr(other, name):
            changes[name] = getattr(other, name)
    missing = {k: v for k, v in other.extra.items() if k not in kept.extra}
    if missing:
        changes["extra"] = {**kept.extra, **missing}
    return dataclasses.replace(kept, **changes) if changes else kept  # type: ignore[arg-type]
