"""Round trips: any abstracts written as .txt / .jsonl / .csv read back as the same text."""

from __future__ import annotations

import csv
import json
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from graph.corpus import read_corpus

SETTINGS = settings(max_examples=50, deadline=None)

# Any character but surrogates (not encodable) and control characters (the documented
# normalisation removes them; `expected` below covers them separately for .jsonl/.csv).
_CHARS = st.characters(blacklist_categories=("Cs", "Cc"))
_ANY_CHARS = st.characters(blacklist_categories=("Cs",))


def expected(text: str) -> str:
    """The documented rules: CR/CRLF -> LF, controls but tab/LF dropped (spacing ones -> " "),
    stripped."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    kept = []
    for char in text:
        if unicodedata.category(char) == "Cc" and char not in "\t\n":
            if char.isspace():
                kept.append(" ")
            continue
        kept.append(char)
    return "".join(kept).strip()


def same_abstract(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", expected(text)).split())


# A .txt abstract is lines with something visible on each (a blank line ends it).
_LINE = st.text(_CHARS, min_size=1, max_size=40).filter(lambda line: line.strip() != "")
_TXT_ABSTRACT = st.lists(_LINE, min_size=1, max_size=4).map("\n".join)
_ABSTRACT = st.text(_ANY_CHARS, min_size=1, max_size=120).filter(lambda text: expected(text))
# A raw NUL byte makes a file binary (refused); JSON escapes it, CSV cannot.
_CSV_ABSTRACT = _ABSTRACT.filter(lambda text: "\x00" not in text)


def _abstracts(strategy: st.SearchStrategy[str]) -> st.SearchStrategy[list[str]]:
    return st.lists(strategy, min_size=1, max_size=6, unique_by=same_abstract)


def _read(name: str, content: str, newline: str | None = None) -> list[tuple[str, str]]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        with open(path, "w", encoding="utf-8", newline=newline) as handle:
            handle.write(content)
        return [(paper.abstract, paper.key) for paper in read_corpus([path]).papers]


@SETTINGS
@given(_abstracts(_TXT_ABSTRACT))
def test_txt_round_trip(abstracts: list[str]) -> None:
    content = "Property list\n\n" + "\n\n".join(abstracts) + "\n"
    assert [text for text, _ in _read("list.txt", content)] == [a.strip() for a in abstracts]


@SETTINGS
@given(_abstracts(_ABSTRACT))
def test_jsonl_round_trip(abstracts: list[str]) -> None:
    content = "\n".join(json.dumps({"abstract": text}, ensure_ascii=False) for text in abstracts)
    assert [text for text, _ in _read("papers.jsonl", content)] == [expected(a) for a in abstracts]


@SETTINGS
@given(_abstracts(_CSV_ABSTRACT))
def test_csv_round_trip(abstracts: list[str]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "papers.csv"
        with open(path, "w", encoding="utf-8", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(["Abstract"])
            writer.writerows([text] for text in abstracts)
        papers = read_corpus([path]).papers
    assert [paper.abstract for paper in papers] == [expected(a) for a in abstracts]


@SETTINGS
@given(_abstracts(_ABSTRACT))
def test_keys_are_deterministic_and_distinct(abstracts: list[str]) -> None:
    content = "\n".join(json.dumps({"abstract": text}) for text in abstracts)
    first = _read("papers.jsonl", content)
    again = _read("again.jsonl", content)
    assert [key for _, key in first] == [key for _, key in again]
    assert len({key for _, key in first}) == len(abstracts)


@SETTINGS
@given(st.text(_CHARS, min_size=1, max_size=80).filter(lambda text: "\n" not in text.strip()
                                                        and text.strip() != ""))
def test_key_is_the_same_from_txt_and_jsonl(text: str) -> None:
    from_txt = _read("a.txt", f"Title\n\n{text}\n")
    from_jsonl = _read("a.jsonl", json.dumps({"abstract": text}))
    assert from_txt == from_jsonl


@SETTINGS
@given(st.lists(st.text(_CHARS.filter(lambda c: not c.isspace()), min_size=1, max_size=8),
                min_size=1, max_size=9),
       st.lists(st.sampled_from([" ", "  ", "\n", "\t", " \n "]), min_size=9, max_size=9))
def test_key_ignores_how_words_are_spaced(words: list[str], gaps: list[str]) -> None:
    single = " ".join(words)
    spaced = "".join(word + gap for word, gap in zip(words, gaps, strict=False))
    lines = [json.dumps({"abstract": single}), json.dumps({"abstract": spaced})]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "a.jsonl"
        path.write_text("\n".join(lines), encoding="utf-8")
        corpus = read_corpus([path])
    assert len(corpus.papers) == 1
    assert [d.differed for d in corpus.duplicates] == [False]
