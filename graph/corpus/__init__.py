"""Corpus readers: files of paper abstracts in, `graph.model.Paper` records out.

`read_corpus(paths)` reads files and folders (every supported file directly inside a folder,
sorted by name; hidden files and other extensions are skipped) and returns a `Corpus`:
`papers`, `titles` (path -> title of a .txt list), `duplicates` and `skipped`.

Formats are found by content first (gzip of any format, RIS, BibTeX, JSON Lines, service
answers), then by extension (any case, under ``.gz``); `graph.corpus.detect` has the rules
and `graph.corpus.schemas` the record shapes of OpenAlex, arXiv, Semantic Scholar,
OpenReview and CSL-JSON; docs/formats.md is the table for users. The plain formats:

``.txt``
    Abstracts separated by blank lines (a line of only whitespace is blank). If the first
    paragraph is a single line of at most 200 characters with no sentence end in it (no
    ``. ! ? …`` followed by a space or the line end, no ``。！？``), it is the list's title,
    e.g. ``NeurIPS 2026 论文列表``; it becomes every paper's ``venue``. A paper's source line
    is the first line of its paragraph. An abstract cannot contain a blank line.
``.jsonl``
    One JSON object a line; blank lines are skipped.
``.json``
    An array of objects, or one object. A record's line is where its object starts; messages
    also give its position in the array ("record 3").
``.csv`` / ``.tsv``
    A header row, then one record a row (quoted as Python's csv module, spreadsheets and
    pandas write it; a quoted cell may span lines). Empty cells are absent fields;
    unnamed columns are called "column N".
``.bib``
    BibTeX entries that have an ``abstract`` field; the others are skipped and listed in
    `Corpus.skipped`. The citation key is the ``id``; ``author`` is split on " and "
    outside braces; ``venue``, else ``journal``, else ``booktitle`` is the venue;
    ``@string`` macros, ``#`` concatenation and nested braces are understood; @comment and
    @preamble are ignored. Case-protecting braces are stripped (``{B}ERT`` -> ``BERT``), braces
    after a LaTeX command or ``^``/``_`` are kept (``\\mathcal{O}``, ``n^{2}``), one-letter
    accents become Unicode (``M\\"{u}ller`` -> ``Müller``) and whitespace runs become one
    space. The entry type is kept in ``extra["entrytype"]``.

Record fields (JSON keys, CSV columns, BibTeX fields; names match in any case):
``abstract`` (required, non-empty text), ``title``, ``id``, ``doi``, ``arxiv``, ``openalex``,
``authors`` (or ``author``; a list of names or
of ``{"name": ...}`` objects, or one string split on ";" if it has one, else on " and "),
``year`` (a whole number, or text of up to four digits), ``venue``, ``keywords`` (a list,
or one string split on ";" if it has one, else on ","), ``url`` (or ``site``). Any other
field is kept in ``Paper.extra``: strings as they are, other JSON values JSON-encoded
(``[1, 2]``, ``null``).
A record with no or an empty abstract is an error naming its line.

Keys: a paper's key is its ``id`` made IRI-safe with `graph.slug.slugify` (so "p 1" and
"p-1" are one key); an id with capitals also gets 8 hex digits of the SHA-256 of the id as
given ("P 1" -> "p-1-6b906186"), so ids that differ only in case never share a key. Without
an id, the key is the first 12 hex digits of the SHA-256 of its normalised abstract
(NFC, whitespace runs collapsed to one space, stripped). The same abstract always gets the
same key, in any format. Two records with the same key are never an error: the first is
kept, and each later one is listed in `Corpus.duplicates`; if its abstract is the same
(after normalisation), fields the first lacks are filled from it, otherwise
(``differed=True``) it is dropped as it is. Records with different keys are not compared.

Text rules, for every format:

- Files are strict UTF-8; a UTF-8 byte-order mark is dropped. Anything else is an error
  naming the line, the byte and its column; UTF-16 and files with NUL bytes (binary) are
  refused. An empty file, or one with no abstracts, is an error.
- CRLF and lone CR become LF, in files and inside JSON strings.
- Control characters other than tab and newline are removed from every text field; the
  ones that separate words (VT, FF, FS..US, NEL) become a space instead. U+FFFE and U+FFFF
  go too: XML 1.0 cannot hold them.
- Text fields are stripped of leading and trailing whitespace. Otherwise an abstract is kept
  verbatim: inner line breaks, CJK, right-to-left text, emoji and LaTeX are untouched (not
  even NFC-normalised; only its key uses NFC).
- A field longer than `MAX_FIELD_CHARS` (1,000,000 characters, spaCy's default
  ``max_length``) is an error naming its line: a 50 MB one-line abstract is read into
  memory, then refused with that message. Files are read whole into memory.

Every error is an `InputError` whose message starts with the file path and, where there is
one, ``line N:``.
"""

from graph.corpus.reader import (
    SUPPORTED_EXTENSIONS,
    Corpus,
    Duplicate,
    corpus_files,
    read_corpus,
    read_file,
)
from graph.corpus.text import MAX_FIELD_CHARS, abstract_key, paper_key

__all__ = [
    "MAX_FIELD_CHARS",
    "SUPPORTED_EXTENSIONS",
    "Corpus",
    "Duplicate",
    "abstract_key",
    "corpus_files",
    "paper_key",
    "read_corpus",
    "read_file",
]
