"""Errors a person can act on, from `paperkg query` as from the endpoint: one line, the line
and column in their own text, the PREFIX to add, an update refused with why."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from graph.cli import cli
from graph.sparqltext import explain, tokens


@pytest.fixture(scope="module")
def query(store_location):
    def run(sparql: str):
        return CliRunner().invoke(cli, ["query", sparql, "--store", store_location])

    return run


def test_cli_undeclared_prefix(query):
    out = query("SELECT ?m WHERE {\n  ?m a pkg:Method }")
    assert out.exit_code == 2
    assert out.output.strip().splitlines() == [
        "paperkg: error: query: line 2, column 8: prefix pkg: is not declared — add PREFIX pkg: "
        "<https://w3id.org/paperkg/ns#>"]


def test_cli_misspelt_form(query):
    out = query("SELEC * WHERE { ?s ?p ?o }")
    assert out.exit_code == 2
    assert "found 'SELEC'" in out.output
    assert "CONSTRUCT" in out.output and "expected CONSTRUCT" not in out.output


def test_cli_update_is_refused_with_why(query):
    out = query("DELETE WHERE { ?s ?p ?o }")
    assert out.exit_code == 2
    assert "DELETE is an update; `paperkg query` only reads" in out.output


def test_cli_other_syntax_error_is_one_line_without_unicode_ranges(query):
    out = query("SELECT * WHERE {\n ?s ?p ?o .\n FILTER(?o = ) }")
    assert out.exit_code == 2
    lines = out.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("paperkg: error: query: line 3, column ")
    assert "u{" not in lines[0]


def test_explain_moves_first_line_columns_by_the_shift():
    text = "SELECT * WHERE { ?s ?p }"
    assert explain(text, "error at 1:40: expected x", shift=15).startswith(
        "line 1, column 25: syntax error")
    assert explain(text + "\n", "error at 2:3: expected x", shift=15).startswith(
        "line 2, column 3: ")


def test_tokens_ignore_keywords_in_comments_strings_iris_and_names():
    found = tokens('# SERVICE\nSELECT ?service { ?s <http://x/from> "from service" ; '
                   "ex:service _:from }")
    assert [t.keyword for t in found if t.kind == "word"] == ["SELECT"]
    assert [t.kind for t in found[1:]] == ["var", "punct", "var", "iri", "string", "punct",
                                            "pname", "blank", "punct"]
