"""graph.corpus: every format parsed to exact values; every bad input named by file and line."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import pytest

from graph.corpus import (
    MAX_FIELD_CHARS,
    Corpus,
    Duplicate,
    abstract_key,
    read_corpus,
    read_file,
)
from graph.corpus.bibtex import strip_braces
from graph.errors import InputError
from graph.model import Paper

ROOT = Path(__file__).resolve().parent.parent
CORPORA = Path(__file__).parent / "data" / "corpora"
DEMO = ROOT / "data" / "corpus" / "neurips-2026.txt"


def fixture(name: str) -> str:
    return str(CORPORA / name)


def write(tmp_path: Path, name: str, content: str | bytes) -> str:
    path = tmp_path / name
    if isinstance(content, str):
        content = content.encode("utf-8")
    path.write_bytes(content)
    return str(path)


def read_one(path: str) -> list[Paper]:
    return read_corpus([path]).papers


def raises_input_error(path: str, *fragments: str) -> str:
    with pytest.raises(InputError) as info:
        read_corpus([path])
    message = str(info.value)
    assert message.startswith(path + ":"), message
    for fragment in fragments:
        assert fragment in message, message
    return message


# --- demo corpus ---------------------------------------------------------------------------


def test_demo_corpus_has_19_papers_with_its_title_as_venue() -> None:
    corpus = read_corpus([DEMO])
    assert len(corpus.papers) == 19
    assert {paper.venue for paper in corpus.papers} == {"NeurIPS 2026 论文列表"}
    assert corpus.titles == {str(DEMO): "NeurIPS 2026 论文列表"}
    assert corpus.duplicates == []


def test_demo_corpus_first_paper_starts_on_line_3() -> None:
    paper = read_corpus([DEMO]).papers[0]
    assert paper.source == f"{DEMO}:3"
    assert paper.abstract.startswith("Tools from random matrix theory")
    assert paper.key == abstract_key(paper.abstract)


# --- .txt ----------------------------------------------------------------------------------


def test_txt_title_line_is_the_list_title() -> None:
    corpus = read_corpus([fixture("list.txt")])
    assert corpus.titles == {fixture("list.txt"): "Workshop on Sparse Models 2025"}


def test_txt_paragraphs_are_abstracts_with_the_title_as_venue() -> None:
    papers = read_one(fixture("list.txt"))
    assert [(p.abstract, p.venue, p.source) for p in papers] == [
        (
            "We prune attention heads in transformers and keep 98% of accuracy on GLUE.\n"
            "Pruning uses a learned gate per head.",
            "Workshop on Sparse Models 2025",
            fixture("list.txt") + ":3",
        ),
        (
            "Graph neural networks over-smooth on deep stacks; we add residual\n"
            "   normalisation and train 64 layers.",
            "Workshop on Sparse Models 2025",
            fixture("list.txt") + ":6",
        ),
        (
            "扩散模型在图像生成中表现出色。我们提出一种新的采样方法。",
            "Workshop on Sparse Models 2025",
            fixture("list.txt") + ":9",
        ),
    ]


def test_txt_key_is_sha256_prefix_of_normalised_abstract() -> None:
    paper = read_one(fixture("list.txt"))[0]
    normal = (
        "We prune attention heads in transformers and keep 98% of accuracy on GLUE. "
        "Pruning uses a learned gate per head."
    )
    assert paper.key == hashlib.sha256(normal.encode()).hexdigest()[:12]
    assert paper.id is None and paper.title is None


def test_txt_first_paragraph_with_a_sentence_is_an_abstract(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "We study things.\n\nAnother abstract here.\n")
    corpus = read_corpus([path])
    assert [p.abstract for p in corpus.papers] == ["We study things.", "Another abstract here."]
    assert corpus.titles == {}
    assert corpus.papers[0].venue is None


def test_txt_title_with_a_version_number_is_still_a_title(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "Accepted papers v2.1\n\nAn abstract.\n")
    assert read_corpus([path]).titles == {path: "Accepted papers v2.1"}


def test_txt_multiline_first_paragraph_is_not_a_title(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "no punctuation here\nstill none\n\nSecond.\n")
    papers = read_one(path)
    assert [p.abstract for p in papers] == ["no punctuation here\nstill none", "Second."]


def test_txt_whitespace_only_lines_separate_abstracts(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "First one.\n  \t \nSecond one.\n")
    assert [(p.abstract, p.source) for p in read_one(path)] == [
        ("First one.", f"{path}:1"),
        ("Second one.", f"{path}:3"),
    ]


def test_txt_crlf_and_cr_line_ends_become_lf(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "Line one\r\nline two.\r\n\r\nThird\rfourth.\r")
    assert [(p.abstract, p.source) for p in read_one(path)] == [
        ("Line one\nline two.", f"{path}:1"),
        ("Third\nfourth.", f"{path}:4"),
    ]


def test_txt_utf8_bom_is_dropped(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", b"\xef\xbb\xbfList\n\nAn abstract.\n")
    corpus = read_corpus([path])
    assert corpus.titles == {path: "List"}
    assert corpus.papers[0].abstract == "An abstract."


def test_txt_only_a_title_has_no_abstracts(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "Just a title\n")
    raises_input_error(path, "no abstracts found", "Just a title")


def test_control_characters_are_removed_and_word_separators_become_spaces(
    tmp_path: Path,
) -> None:
    path = write(tmp_path, "a.txt", "Bell\x07 and\x1b esc,\tform\x0cfeed\x85next\x7f.\n")
    assert read_one(path)[0].abstract == "Bell and esc,\tform feed next."


def test_abstract_text_is_kept_verbatim(tmp_path: Path) -> None:
    text = (
        "Cafe\u0301 uses $\\alpha^{2}$ — עברית עם ערבית عربي — 🚀👩‍🔬 and 全角　スペース.\n"
        "Second   line\twith tabs."
    )
    path = write(tmp_path, "a.txt", f"List\n\n{text}\n")
    assert read_one(path)[0].abstract == text


def test_200_kb_abstract_is_read(tmp_path: Path) -> None:
    text = ("word " * 40_000).strip() + "."
    path = write(tmp_path, "a.jsonl", json.dumps({"abstract": text}) + "\n")
    assert read_one(path)[0].abstract == text


def test_50_mb_line_is_refused_with_its_length_and_line(tmp_path: Path) -> None:
    huge = "x" * (50 * 1024 * 1024)
    path = write(tmp_path, "a.txt", f"Title\n\n{huge}\n")
    raises_input_error(path, "line 3:", "52,428,800 characters", f"limit is {MAX_FIELD_CHARS:,}")


def test_50_mb_jsonl_line_is_refused_with_its_line(tmp_path: Path) -> None:
    huge = "y" * (50 * 1024 * 1024)
    path = write(tmp_path, "a.jsonl", '{"abstract": "ok"}\n' + json.dumps({"abstract": huge}))
    raises_input_error(path, "line 2:", '"abstract"', "52,428,800 characters")


def test_field_limit_is_a_parameter(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "A short abstract.\n")
    with pytest.raises(InputError, match=r"line 1: .*17 characters long; the limit is 10"):
        read_corpus([path], max_chars=10)


# --- .jsonl --------------------------------------------------------------------------------


def test_jsonl_record_with_every_field() -> None:
    paper = read_one(fixture("papers.jsonl"))[0]
    assert paper == Paper(
        key="smith2025pruning",
        abstract="We prune attention heads.",
        title="Pruning Heads",
        id="smith2025pruning",
        authors=("Ana Smith", "Bo Li"),
        year=2025,
        venue="ICLR",
        keywords=("pruning", "attention"),
        url="https://example.org/p1",
        doi="10.1/xyz",
        extra={"pages": "[1, 9]"},
        source=fixture("papers.jsonl") + ":1",
    )


def test_jsonl_authors_string_split_on_and_and_year_string() -> None:
    paper = read_one(fixture("papers.jsonl"))[1]
    assert paper.authors == ("Carla Diaz", "Dev Patel")
    assert paper.year == 2024
    assert paper.source == fixture("papers.jsonl") + ":3"
    assert paper.key == abstract_key("A paper with no id; its key is the hash of this abstract.")


def test_jsonl_authors_as_name_objects(tmp_path: Path) -> None:
    record = {"abstract": "A.", "authors": [{"name": "Ida Moss"}, {"name": "Jon Park"}]}
    path = write(tmp_path, "a.jsonl", json.dumps(record))
    assert read_one(path)[0].authors == ("Ida Moss", "Jon Park")


def test_jsonl_crlf_escape_inside_a_string_becomes_lf(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"abstract": "one\\r\\ntwo\\rthree"}\n')
    assert read_one(path)[0].abstract == "one\ntwo\nthree"


def test_jsonl_field_names_match_in_any_case(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"Abstract": "Text.", "TITLE": "T"}\n')
    paper = read_one(path)[0]
    assert (paper.abstract, paper.title, paper.extra) == ("Text.", "T", {})


def test_jsonl_malformed_line_names_line_and_column() -> None:
    path = fixture("bad-malformed.jsonl")
    raises_input_error(path, "line 2:", "malformed JSON at column 23")


def test_jsonl_non_object_line_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"abstract": "fine"}\n\n["a list"]\n')
    raises_input_error(path, "line 3:", "expected a JSON object, found an array")


def test_jsonl_empty_abstract_names_its_line() -> None:
    raises_input_error(fixture("bad-empty-abstract.jsonl"), "line 2:", "empty abstract")


def test_jsonl_missing_abstract_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"abstract": "fine"}\n{"title": "No abstract"}\n')
    raises_input_error(path, "line 2:", 'no "abstract" field')


def test_jsonl_non_text_abstract_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"abstract": ["a", "b"]}\n')
    raises_input_error(path, "line 1:", '"abstract" must be text, not a list')


def test_jsonl_bad_year_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"abstract": "A.", "year": "next year"}\n')
    raises_input_error(path, "line 1:", '"year" must be a whole number')


def test_jsonl_same_field_twice_in_two_cases_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", '{"abstract": "A.", "Abstract": "B."}\n')
    raises_input_error(path, "line 1:", '"abstract" and "Abstract"')


# --- .json ---------------------------------------------------------------------------------


def test_json_array_records_with_their_start_lines() -> None:
    papers = read_one(fixture("papers.json"))
    assert [(p.key, p.id, p.source) for p in papers] == [
        ("p-1-6b906186", "P 1", fixture("papers.json") + ":2"),
        (abstract_key("Second record, on one line."), None, fixture("papers.json") + ":9"),
    ]


def test_json_semicolon_lists_and_float_year() -> None:
    first, second = read_one(fixture("papers.json"))
    assert first.authors == ("Eve Stone", "Fay Wu")
    assert first.keywords == ("moe", "routing")
    assert first.title == "Sparse Experts"
    assert (second.venue, second.year) == ("NeurIPS", 2023)


def test_json_single_object(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", '\n\n{"abstract": "Alone.", "id": "solo"}\n')
    assert [(p.key, p.source) for p in read_one(path)] == [("solo", f"{path}:3")]


def test_json_malformed_names_line_and_column() -> None:
    raises_input_error(fixture("bad-malformed.json"), "line 4:", "malformed JSON at column 1")


def test_json_record_error_names_line_and_record(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", '[{"abstract": "A."},\n {"abstract": ""}]')
    raises_input_error(path, "line 2 (record 2):", "empty abstract")


def test_json_non_object_element_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", '[\n{"abstract": "A."},\n"text"\n]')
    raises_input_error(path, "line 3 (record 2):", "expected a JSON object, found a string")


def test_json_trailing_data_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", '{\n "abstract": "A."\n}\n{"abstract": "B."}\n')
    raises_input_error(path, "line 4:", "extra data")


def test_json_file_of_one_object_a_line_is_read_as_json_lines(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", '{"abstract": "A."}\n{"abstract": "B."}\n')
    assert [p.abstract for p in read_one(path)] == ["A.", "B."]


def test_json_unclosed_array_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", '[\n{"abstract": "A."}\n')
    raises_input_error(path, "line 3:", "array is not closed")


def test_json_empty_array_has_no_abstracts(tmp_path: Path) -> None:
    path = write(tmp_path, "a.json", "[ ]")
    raises_input_error(path, "no abstracts found")


# --- .csv / .tsv ---------------------------------------------------------------------------


def test_csv_header_matches_any_case_and_quoted_cell_spans_lines() -> None:
    papers = read_one(fixture("papers.csv"))
    assert papers[0] == Paper(
        key="lc-1",
        abstract="We extend context to 1M tokens.\nA second line, with a comma.",
        title="Long Context",
        id="lc-1",
        authors=("Gil Ray", "Hana Ito"),
        year=2026,
        extra={"Notes": "x"},
        source=fixture("papers.csv") + ":2",
    )


def test_csv_empty_cells_are_absent_fields_and_lines_count_multiline_cells() -> None:
    paper = read_one(fixture("papers.csv"))[1]
    assert (paper.abstract, paper.title, paper.id, paper.extra, paper.source) == (
        "Only an abstract here.", None, None, {}, fixture("papers.csv") + ":4",
    )


def test_tsv_reads_tab_separated_columns() -> None:
    paper = read_one(fixture("papers.tsv"))[0]
    assert (paper.abstract, paper.title, paper.keywords, paper.source) == (
        "Contrastive pretraining aligns images and text.",
        "CLIP-like",
        ("vision", "language"),
        fixture("papers.tsv") + ":2",
    )


def test_csv_without_abstract_column_names_the_columns() -> None:
    raises_input_error(
        fixture("bad-no-abstract-column.csv"), "line 1:", "the header has: title, summary"
    )


def test_csv_empty_abstract_cell_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "abstract,title\nGood.,A\n,B\n")
    raises_input_error(path, "line 3:", "empty abstract")


def test_csv_row_with_too_many_fields_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "abstract,title\nGood.,A\nBad.,B,surplus\n")
    raises_input_error(path, "line 3:", "3 fields but the header has 2")


def test_csv_malformed_quoting_names_its_line(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", 'abstract\nGood.\n"bad" quote\n')
    raises_input_error(path, "line 3:", "malformed CSV")


def test_csv_duplicate_column_names_are_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "abstract,Title,title\nA.,x,y\n")
    raises_input_error(path, "line 1:", '"Title" and "title"')


def test_csv_header_only_has_no_abstracts(tmp_path: Path) -> None:
    path = write(tmp_path, "a.csv", "abstract,title\n")
    raises_input_error(path, "no abstracts found")


def test_csv_cell_over_128_kib_is_read(tmp_path: Path) -> None:
    text = "z" * 200_000
    path = write(tmp_path, "a.csv", f'abstract\n"{text}"\n')
    assert read_one(path)[0].abstract == text


# --- .bib ----------------------------------------------------------------------------------


def test_bib_entry_fields_braces_accents_and_macros() -> None:
    paper = read_one(fixture("papers.bib"))[0]
    assert paper == Paper(
        key="muller2024flows-1c1f9e4b",
        abstract="We train Flows with $\\mathcal{O}(n^{2})$ cost on BERT features.",
        title="Normalizing Flows for BERT",
        id="Muller2024Flows",
        authors=("Müller, Jörg", "Barnes and Noble", "Ng, Andrew"),
        year=2024,
        venue="International Conference on Machine Learning 2024",
        keywords=("flows", "density"),
        doi="10.5555/abc",
        extra={
            "entrytype": "inproceedings",
            "booktitle": "International Conference on Machine Learning 2024",
        },
        source=fixture("papers.bib") + ":4",
    )


def test_bib_entries_without_abstract_are_skipped_and_listed() -> None:
    corpus = read_corpus([fixture("papers.bib")])
    assert [p.id for p in corpus.papers] == ["Muller2024Flows", "Paren2021"]
    assert corpus.skipped == [fixture("papers.bib") + ":15"]


def test_bib_parenthesised_entry_and_quoted_values() -> None:
    paper = read_one(fixture("papers.bib"))[1]
    assert (paper.key, paper.title, paper.venue, paper.abstract, paper.source) == (
        "paren2021-831afc1f",
        "Quoted Value",
        "TMLR",
        "Parenthesised entries work too.",
        fixture("papers.bib") + ":23",
    )


def test_bib_unclosed_brace_names_the_field_and_line(tmp_path: Path) -> None:
    path = write(tmp_path, "a.bib", "@article{k1,\n  title = {T},\n  abstract = {Open {brace}\n")
    raises_input_error(path, "line 3:", "unclosed '{'", '"abstract" field', "entry at line 1")


def test_bib_entry_without_key_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.bib", "\n@article{title = {T}, abstract = {A.}}\n")
    raises_input_error(path, "line 2:", "no citation key")


def test_bib_missing_comma_between_fields_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.bib", "@article{k,\n title = {T}\n abstract = {A.}}\n")
    raises_input_error(path, "line 3:", "expected ',' or '}'")


def test_bib_only_entries_without_abstract_has_no_abstracts(tmp_path: Path) -> None:
    path = write(tmp_path, "a.bib", "@misc{a, title={A}}\n@misc{b, title={B}}\n")
    raises_input_error(path, "no abstracts found (2 entries without an abstract)")


# --- bad files -----------------------------------------------------------------------------


def test_non_utf8_names_line_byte_and_column() -> None:
    message = raises_input_error(fixture("bad-latin1.txt"))
    assert message == (
        fixture("bad-latin1.txt") + ": line 3: not valid UTF-8 (byte 0xe9 at column 4)"
    )


def test_binary_file_is_refused() -> None:
    raises_input_error(fixture("bad-binary.txt"), "line 1:", "binary file")


def test_utf16_file_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "An abstract.".encode("utf-16"))
    raises_input_error(path, "UTF-16")


def test_empty_file_has_no_abstracts() -> None:
    raises_input_error(fixture("bad-empty.txt"), "no abstracts found")


def test_whitespace_only_file_has_no_abstracts(tmp_path: Path) -> None:
    path = write(tmp_path, "a.jsonl", "\n  \n\t\n")
    raises_input_error(path, "no abstracts found")


def test_unsupported_extension_names_supported_ones(tmp_path: Path) -> None:
    path = write(tmp_path, "a.docx", "whatever")
    raises_input_error(path, "unsupported file type", ".txt, .jsonl, .json, .csv, .tsv, .bib")


def test_missing_file_is_an_input_error(tmp_path: Path) -> None:
    raises_input_error(str(tmp_path / "nope.txt"), "no such file")


def test_no_paths_is_an_input_error() -> None:
    with pytest.raises(InputError, match="no corpus files given"):
        read_corpus([])


# --- folders -------------------------------------------------------------------------------


def test_folder_reads_supported_files_sorted_and_skips_others(tmp_path: Path) -> None:
    write(tmp_path, "b.jsonl", '{"abstract": "From b."}\n')
    write(tmp_path, "a.TXT", "From a.\n")
    write(tmp_path, "notes.md", "# not a corpus\n")
    write(tmp_path, ".hidden.txt", "Hidden.\n")
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub", "c.txt", "In a subfolder.\n")
    corpus = read_corpus([tmp_path])
    assert [p.abstract for p in corpus.papers] == ["From a.", "From b."]


def test_folder_without_corpus_files_is_an_input_error(tmp_path: Path) -> None:
    write(tmp_path, "notes.md", "# nothing\n")
    raises_input_error(str(tmp_path), "no corpus files in this folder")


def test_same_file_given_twice_is_read_once(tmp_path: Path) -> None:
    path = write(tmp_path, "a.txt", "Only once.\n")
    corpus = read_corpus([path, tmp_path])
    assert (len(corpus.papers), corpus.duplicates) == (1, [])


# --- keys and duplicates -------------------------------------------------------------------


def test_same_abstract_gets_the_same_key_in_every_format(tmp_path: Path) -> None:
    text = "Shared abstract across formats."
    paths = [
        write(tmp_path, "a.txt", f"{text}\n"),
        write(tmp_path, "a.jsonl", json.dumps({"abstract": text})),
        write(tmp_path, "a.csv", f"abstract\n{text}\n"),
    ]
    keys = {read_file(path).papers[0].key for path in paths}
    assert keys == {abstract_key(text)}


def test_key_ignores_whitespace_and_unicode_form_differences() -> None:
    assert abstract_key("Cafe\u0301  uses\n spaces ") == abstract_key("Caf\u00e9 uses spaces")


@pytest.mark.parametrize(
    ("given", "key"),
    [
        ("Smith 2020", "smith-2020-ed91ed31"),
        ("smith 2020", "smith-2020"),
        ("https://openalex.org/W4391234567", "w4391234567-11d8de1a"),
        ("<a href=\"x\">", "a-href-x-1651a2ca"),
        ("naïve:paper", "naive-paper-3a03f86d"),
        ("论文 7", "7-859dd102"),
    ],
)
def test_unsafe_ids_give_iri_safe_keys(tmp_path: Path, given: str, key: str) -> None:
    path = write(tmp_path, "a.jsonl", json.dumps({"abstract": "A.", "id": given}))
    paper = read_one(path)[0]
    assert (paper.key, paper.id) == (key, given)
    assert re.fullmatch(r"[a-z0-9.+-]+", paper.key)


def test_same_abstract_twice_is_merged_and_reported(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "a.jsonl",
        '{"abstract": "Twice  told."}\n{"abstract": "Twice told.", "title": "T", "pages": "d"}\n',
    )
    corpus = read_corpus([path])
    assert [(p.abstract, p.title, dict(p.extra), p.source) for p in corpus.papers] == [
        ("Twice  told.", "T", {"pages": "d"}, f"{path}:1"),
    ]
    assert corpus.duplicates == [
        Duplicate(abstract_key("Twice told."), f"{path}:2", False, f"{path}:1")
    ]


def test_same_id_with_a_different_abstract_keeps_the_first(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "a.jsonl",
        '{"id": "p1", "abstract": "First."}\n{"id": "p1", "abstract": "Second.", "title": "T"}\n',
    )
    corpus = read_corpus([path])
    assert [(p.key, p.abstract, p.title) for p in corpus.papers] == [("p1", "First.", None)]
    assert corpus.duplicates == [Duplicate("p1", f"{path}:2", True, f"{path}:1")]


def test_ids_that_differ_only_in_case_are_two_papers(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "a.jsonl",
        '{"id": "B1tC-LT6W", "abstract": "First."}\n{"id": "b1tc-lt6w", "abstract": "Second."}\n',
    )
    corpus = read_corpus([path])
    assert [(p.key, p.id) for p in corpus.papers] == [
        ("b1tc-lt6w-cf988b52", "B1tC-LT6W"), ("b1tc-lt6w", "b1tc-lt6w"),
    ]
    assert corpus.duplicates == []


def test_duplicates_across_files_are_reported(tmp_path: Path) -> None:
    first = write(tmp_path, "1.txt", "List\n\nRepeated abstract.\n")
    second = write(tmp_path, "2.jsonl", '{"abstract": "Repeated abstract."}\n')
    corpus = read_corpus([first, second])
    assert [(p.venue, p.source) for p in corpus.papers] == [("List", f"{first}:3")]
    assert corpus.duplicates == [
        Duplicate(abstract_key("Repeated abstract."), f"{second}:1", False, f"{first}:3")
    ]


def test_corpus_is_a_plain_dataclass() -> None:
    corpus = Corpus()
    assert (corpus.papers, corpus.titles, corpus.duplicates, corpus.skipped) == ([], {}, [], [])


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("{B}ERT and {{GPT}}", "BERT and GPT"),
        ("$\\mathcal{O}(n^{2})$ and x_{ij}", "$\\mathcal{O}(n^{2})$ and x_{ij}"),
        ("the set \\{x\\}", "the set \\{x\\}"),
        ("M\\\"{u}ller, \\'Etienne, Gau\\ss{}", "Müller, Étienne, Gauß"),
        ("ends with a backslash \\", "ends with a backslash \\"),
        ("two\n   lines", "two lines"),
    ],
)
def test_bib_value_braces_accents_and_spacing(value: str, text: str) -> None:
    assert strip_braces(value) == text
