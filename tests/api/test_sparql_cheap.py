"""A query that ran cheaply in a query worker runs again in the server process, without the
hand-off; only the same text, dataset, format and store generation; the budget still holds."""

from __future__ import annotations

import os
import signal

import pytest

from api.query import QueryBusy, QueryRunner
from api.query.clients import ClientTable

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
