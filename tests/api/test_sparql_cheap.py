"""A query that ran cheaply in a query worker runs again in the server process, without the
hand-off; only the same text, dataset, format and store generation; the budget still holds."""

from __future__ import annotations

import os
import signal

import pytest

from api.query import QueryBusy, QueryRunner
from api.query.clients import ClientTable
from api.query.worker import execute
from graph.store.embedded import EmbeddedStore

QUERY = "SELECT ?s WHERE { ?s a <https://w3id.org/paperkg/ns#Paper> } ORDER BY ?s"
JSON = "application/sparql-results+json"


@pytest.fixture()
def runner(store_location):
    opened = QueryRunner(store_location, workers=1, time_limit_ms=2000, cheap_ms=1000,
                         clients=ClientTable())
    yield opened
    for worker in list(opened._all):
        os.kill(worker.process.pid, signal.SIGCONT)
    opened.close()


def _stop_workers(runner: QueryRunner) -> None:
    """No query worker answers any more: what is answered now is answered here."""
    for worker in list(runner._all):
        os.kill(worker.process.pid, signal.SIGSTOP)


def test_a_cheap_query_runs_again_without_a_worker(runner):
    first = runner.run(QUERY, media_type=JSON, generation="g1", client="10.1.0.1")
    _stop_workers(runner)
    again = runner.run(QUERY, media_type=JSON, generation="g1", client="10.1.0.2")
    assert again.body == first.body and again.rows == first.rows == 12
    assert again.media_type == JSON and again.form == "SELECT"


def test_another_format_or_generation_goes_to_a_worker(runner):
    runner.run(QUERY, media_type=JSON, generation="g1")
    _stop_workers(runner)
    # The stopped worker never answers: the query runs into the time limit.
    with pytest.raises(Exception, match="time limit"):
        runner.run(QUERY, media_type="text/csv", generation="g1")
    with pytest.raises(Exception, match="time limit|busy"):
        runner.run(QUERY, media_type=JSON, generation="g2")


def test_the_slow_query_budget_holds_for_cheap_queries(runner):
    runner.run(QUERY, media_type=JSON, generation="g1")
    runner.clients.mark_slow("10.1.0.3")
    runner.clients.start_running("10.1.0.3")  # one of its queries runs in another process
    with pytest.raises(QueryBusy) as refused:
        runner.run(QUERY, media_type=JSON, generation="g1", client="10.1.0.3")
    assert refused.value.own is True
    assert b"paper" in runner.run(QUERY, media_type=JSON, generation="g1",
                                  client="10.1.0.4").body


def _no_rows_in_python(monkeypatch) -> None:
    """Building rows in Python fails from now on: what still answers was written by
    pyoxigraph directly."""
    def refuse(term):
        raise AssertionError("a row was built in Python")

    monkeypatch.setattr("api.query.worker._term_json", refuse)


def test_a_count_known_under_the_cap_is_written_directly(runner, store_location, monkeypatch):
    generation = EmbeddedStore(store_location, read_only=True).generation()
    first = runner.run(QUERY, media_type=JSON, generation=generation)
    _stop_workers(runner)
    _no_rows_in_python(monkeypatch)
    again = runner.run(QUERY, media_type=JSON, generation=generation)
    assert again.body == first.body and again.rows == first.rows == 12


@pytest.mark.parametrize(("query", "row_cap"), [
    # RAND(): the count may change from run to run, so it is counted again
    (QUERY.replace("} ORDER", "FILTER(RAND() < 2) } ORDER"), 10_000),
    # cut at the cap: 5 is not the query's count
    (QUERY, 5),
])
def test_a_count_that_may_not_hold_is_counted_again(store_location, monkeypatch, query, row_cap):
    runner = QueryRunner(store_location, workers=1, time_limit_ms=1000, cheap_ms=1000,
                         row_cap=row_cap, clients=ClientTable())
    try:
        generation = EmbeddedStore(store_location, read_only=True).generation()
        runner.run(query, media_type=JSON, generation=generation)
        _stop_workers(runner)
        _no_rows_in_python(monkeypatch)
        # The run here fails building its rows, so the stopped worker is asked, in vain.
        with pytest.raises(Exception, match="time limit"):
            runner.run(query, media_type=JSON, generation=generation)
    finally:
        for worker in list(runner._all):
            os.kill(worker.process.pid, signal.SIGCONT)
        runner.close()


@pytest.mark.parametrize("results_format", ["JSON", "XML", "CSV", "TSV"])
def test_written_directly_or_row_by_row_the_bytes_are_the_same(results_format):
    import pyoxigraph

    store = pyoxigraph.Store()
    odd = ["a\x01b", "tab\there", "ls\u2028x", "</script>", "emoji \U0001f600", "back\\slash",
           'q"q', "nl\r\n", "\x7f"]
    for i, text in enumerate(odd):
        store.add(pyoxigraph.Quad(pyoxigraph.NamedNode(f"http://ex/{i}"),
                                  pyoxigraph.NamedNode("http://ex/p"), pyoxigraph.Literal(text)))
    store.add(pyoxigraph.Quad(pyoxigraph.BlankNode("b1"), pyoxigraph.NamedNode("http://ex/p"),
                              pyoxigraph.Literal("x", language="en-GB")))
    job = {"sparql": "SELECT ?s ?o ?none WHERE { ?s ?p ?o } ORDER BY ?o",
           "results_format": results_format, "graph_format": None, "default_graph": None,
           "named_graphs": None, "row_cap": 100, "limit": None, "base_iri": None}
    by_row = execute(store, job)
    direct = execute(store, job, known_rows=10)
    assert by_row == (direct[0], "SELECT", 10, False)
