"""graph.nlp.text_clean: LaTeX read as text, whitespace collapsed, spans mapped back verbatim."""

from __future__ import annotations

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from graph.model import Mention, Paper, Result
from graph.nlp.text_clean import (
    collapse,
    cut_for_extraction,
    extraction_view,
    readable,
    to_verbatim,
)

ABSTRACT = ("We train  $m$-Synchronous SGD.\nThe error falls by $44$\\% on \\emph{Caf\\'e}"
            " and costs $5 and $6 per run.")


def test_collapse_joins_lines_and_single_spaces() -> None:
    assert collapse(" unsupervised\nlearning  with\tGP-based  predictions ") == (
        "unsupervised learning with GP-based predictions")


@pytest.mark.parametrize(
    ("text", "read"),
    [
        ("by $4.4$ points", "by 4.4 points"),
        ("by $44$\\% relative", "by 44% relative"),
        ("\\emph{two} and \\textbf{bold {inner}} words", "two and bold {inner} words"),
        ("M\\\"{u}ller and Caf\\'e", "Müller and Café"),
        ("costs $5 and $6 now", "costs $5 and $6 now"),
        ("Fig.~3 and ~10 runs", "Fig. 3 and ~10 runs"),
        ("a\n  b\t c", "a b c"),
        ("plain text", "plain text"),
        # old-style font declarations, read as their words as \emph{} is
        ("a {\\em natural problem}, {\\it e.g.} {\\bf ranking}.",
         "a natural problem, e.g. ranking."),
        ("{\\em a {b} c} d", "a {b} c d"),
        ("{\\sl Slanted}{\\tt mono}", "Slantedmono"),
        ("{\\em\\emph{x}}", "x"),
        # not declarations: a longer command name, and a brace group without one
        ("{\\empty} and {\\itemize x}", "{\\empty} and {\\itemize x}"),
        ("{em x}", "{em x}"),
        # letters of other alphabets, however the command is ended
        ("Polyak-\\L ojasiewicz, Polyak-\\L{}ojasiewicz, Polyak-{\\L}ojasiewicz",
         "Polyak-Łojasiewicz, Polyak-Łojasiewicz, Polyak-Łojasiewicz"),
        ("Stra\\ss e and G\\o del", "Straße and Gødel"),
        ("x \\le y, \\item", "x ≤ y, \\item"),  # no letter command inside a longer one
    ],
)
def test_readable_text(text: str, read: str) -> None:
    assert readable(text).text == read


def test_spans_of_the_readable_text_map_to_the_verbatim_words() -> None:
    view = readable(ABSTRACT)
    assert view.text == ("We train m-Synchronous SGD. The error falls by 44% on Café and costs "
                         "$5 and $6 per run.")
    for words, verbatim in [("m-Synchronous SGD", "$m$-Synchronous SGD"), ("44%", "$44$\\%"),
                            ("Café", "\\emph{Caf\\'e}"), ("$5", "$5"), ("We", "We")]:
        start = view.text.index(words)
        begin, end = view.span(start, start + len(words))
        assert ABSTRACT[begin:end] == verbatim


def test_mentions_and_results_map_back_with_the_read_name_as_label() -> None:
    view = readable(ABSTRACT)
    name_at = view.text.index("m-Synchronous SGD")
    value_at = view.text.index("44%")
    mentions = [
        Mention("method", "m-Synchronous SGD", name_at, name_at + 17, "methods-v1", 0.9),
        Mention("claim", "The error falls by 44% on Café and costs $5 and $6 per run.",
                view.text.index("The"), len(view.text), "claims-v1", 0.8,
                results=(Result(value=44, text="44%", start=value_at, end=value_at + 3,
                                unit="%"),)),
    ]
    method, claim = to_verbatim(mentions, view, ABSTRACT)
    assert (method.text, method.label) == ("$m$-Synchronous SGD", "m-Synchronous SGD")
    assert ABSTRACT[method.start:method.end] == method.text
    assert ABSTRACT[claim.start:claim.end] == claim.text
    assert claim.text.startswith("The error falls by $44$\\%")
    result = claim.results[0]
    assert (result.text, ABSTRACT[result.start:result.end]) == ("$44$\\%", "$44$\\%")


def test_cut_ends_at_the_last_sentence_end_within_the_limit() -> None:
    text = "First one. Second one. Third one."
    assert cut_for_extraction(text, 25) == "First one. Second one."
    assert cut_for_extraction(text, 100) == text
    assert cut_for_extraction("no sentence end anywhere here", 10) == "no sentenc"


def test_extraction_view_of_a_long_abstract_maps_into_its_beginning() -> None:
    text = "A  b. " * 5000
    view = extraction_view(text, limit=50)
    assert view.text == "A b. " * 9 + "A b."
    assert view.ends[-1] == len("A  b. " * 9 + "A  b.")


def test_extraction_offsets_index_the_verbatim_abstract() -> None:
    from graph.extractors.pipeline import extract_papers

    abstract = ("We propose  $m$-Synchronous SGD. On ImageNet, our method improves top-1\n"
                "accuracy by $4.4$\\% over \\emph{Local SGD}.")
    [extraction] = extract_papers([Paper(key="p", abstract=abstract)])
    assert extraction.mentions
    for mention in extraction.mentions:
        assert abstract[mention.start:mention.end] == mention.text
        for result in mention.results:
            assert abstract[result.start:result.end] == result.text
    results = [r for m in extraction.mentions for r in m.results]
    assert [(r.text, r.unit) for r in results] == [("$4.4$\\%", "%")]


_PIECES = st.sampled_from(["word", " ", "  ", "\n", "\t", "$", "$x$", "$4.4$", "\\%", "\\emph{",
                           "}", "{", "\\'e", '\\"{u}', "~", "\\alpha", "\\", "é", "42",
                           "{\\em ", "{\\it", "{\\bf\n", "\\L", "{\\o}", "\\ss ", "{}"])


@settings(max_examples=200, deadline=None)
@given(st.lists(_PIECES, max_size=30).map("".join))
def test_every_read_character_maps_into_the_verbatim_text_in_order(text: str) -> None:
    view = readable(text)
    assert len(view.text) == len(view.starts) == len(view.ends)
    assert "  " not in view.text and view.text == view.text.strip()
    assert list(view.starts) == sorted(view.starts)
    for i, char in enumerate(view.text):
        start, end = view.starts[i], view.ends[i]
        assert 0 <= start < end <= len(text)
        if char not in " " and end - start == 1:
            assert text[start] == char


def test_text_clean_and_the_corpus_readers_do_not_import_spacy():
    # graph.nlp defers the loader (and spaCy) to first use of its names: the corpus readers,
    # rdf and the web pages import text_clean without parsing anything
    code = ("import sys, graph.corpus, graph.nlp.text_clean, graph.nlp; "
            "print('spacy' in sys.modules, callable(graph.nlp.load), 'spacy' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]
