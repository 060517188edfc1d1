"""CSV and TSV with a header row; column names match the record fields in any case."""

from __future__ import annotations

import csv
import io

from graph.corpus.records import Parsed
from graph.errors import InputError

# The csv module refuses fields over 128 KiB by default, and the limit is process-wide.
# Only ever raise it (never lower what someone else set); lengths are checked per field
# against the corpus limit afterwards, with a clearer message.
_FIELD_LIMIT = 2**31 - 1


def _allow_long_fields() -> None:
    if csv.field_size_limit() < _FIELD_LIMIT:
        csv.field_size_limit(_FIELD_LIMIT)


def _header(row: list[str], path: str, line: int) -> list[str]:
    names = [cell.strip() or f"column {index}" for index, cell in enumerate(row, 1)]
    folded: dict[str, str] = {}
    for name in names:
        if name.casefold() in folded:
            raise InputError(
                f'{path}: line {line}: columns "{folded[name.casefold()]}" and "{name}" '
                "have the same name"
            )
        folded[name.casefold()] = name
    if "abstract" not in folded:
        raise InputError(
            f'{path}: line {line}: no "abstract" column; the header has: {", ".join(names)}'
        )
    return names


def read_table(text: str, path: str, max_chars: int, *, delimiter: str) -> Parsed:
    _allow_long_fields()
    parsed = Parsed(kind="TSV" if delimiter == "\t" else "CSV")
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    abstract_column = ""
    end = 0  # last line of the previous row: a row starts on the line after it
    try:
        for row in reader:
            start, end = end + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if header is None:
                header = _header(row, path, start)
                abstract_column = next(n for n in header if n.casefold() == "abstract")
                continue
            if any(cell.strip() for cell in row[len(header) :]):
                raise InputError(
                    f"{path}: line {start}: {len(row)} fields but the header has {len(header)}"
                )
            # Empty cells are absent fields, except the abstract, which must then be reported.
            record = {name: cell for name, cell in zip(header, row, strict=False) if cell.strip()}
            record.setdefault(abstract_column, "")
            parsed.add(record, path=path, line=start, where=f"{path}: line {start}",
                       max_chars=max_chars)
    except csv.Error as exc:
        raise InputError(f"{path}: line {reader.line_num}: malformed CSV: {exc}") from None
    return parsed
