"""Per-client records shared by the processes of one server (api.query.clients.ClientTable): marks,
counts, leases and buckets made in one process are seen in another; the table stays bounded;
a process that ends gives its leases back; the query runner and the server's worker processes
apply the limits per client across processes."""

from __future__ import annotations

import multiprocessing
import threading
import time
from typing import Any

import pyoxigraph
import pytest
from server_workers import Answer, Workers

from api.query import QueryBusy, QueryRunner, QueryTimeout, query_key
from api.query.clients import WINDOW, ClientTable

FORK = multiprocessing.get_context("fork")
# Four unconstrained patterns over 200 triples: 1.6e9 solutions to count, far past any limit.
CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"
QUICK = "ASK { ?s ?p ?o }"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> str:
    location = tmp_path_factory.mktemp("clients") / "store"
    graph = pyoxigraph.Store(str(location))
    for n in range(200):
        graph.add(pyoxigraph.Quad(pyoxigraph.NamedNode(f"urn:example:s{n % 20}"),
                                  pyoxigraph.NamedNode(f"urn:example:p{n % 7}"),
                                  pyoxigraph.Literal(str(n))))
    graph.flush()
    del graph
    return str(location)


def _in_child(target: Any, *args: Any) -> tuple[Any, Any, Any]:
    """Run `target(*args, ready, done)` in a forked process; return once it set `ready`."""
    ready, done = FORK.Event(), FORK.Event()
    child = FORK.Process(target=target, args=(*args, ready, done))
    child.start()
    assert ready.wait(30), "the child process never got ready"
    return child, ready, done


def _record(table: ClientTable, ready: Any, done: Any) -> None:
    table.mark_slow("10.7.0.1", now=500.0)
    assert table.enter("10.7.0.2", 2) and table.enter("10.7.0.2", 2)
    table.start_running("10.7.0.3", now=700.0)
    for _ in range(3):
        assert table.take_token("10.7.0.4", 1.0, 3, now=100.0) == 0.0
    ready.set()
    done.wait(30)


def test_two_processes_see_each_others_records():
    table = ClientTable.shared(marks=64, buckets=64, leases=8)
    child, _, done = _in_child(_record, table)
    try:
        assert table.slow_since("10.7.0.1") == 500.0
        assert table.slow_since("10.7.0.9") is None
        assert table.in_flight("10.7.0.2") == 2
        assert table.enter("10.7.0.2", 2) is False  # the child holds both places
        assert table.in_flight("10.7.0.2") == 2
        assert table.enter("10.7.0.2", 3) is True
        assert table.running_since("10.7.0.3") == 700.0
        assert table.take_token("10.7.0.4", 1.0, 3, now=100.0) == 1.0  # its burst is spent
        assert table.take_token("10.7.0.5", 1.0, 3, now=100.0) == 0.0
    finally:
        done.set()
        child.join(30)
    assert child.exitcode == 0
    # The child ended without giving its leases back: they go, the slow mark stays.
    assert table.in_flight("10.7.0.2") == 3
    assert table.enter("10.7.0.2", 2) is True
    assert table.in_flight("10.7.0.2") == 2
    assert table.running_since("10.7.0.3") is None
    assert table.slow_since("10.7.0.1") == 500.0


def _hold_places(table: ClientTable, ready: Any, done: Any) -> None:
    table.enter("10.7.1.1", 5)
    table.start_running("10.7.1.1", now=10.0)
    ready.set()
    done.wait(30)


def test_the_master_drops_the_leases_of_a_worker_that_exited():
    table = ClientTable.shared(leases=8)
    child, _, done = _in_child(_hold_places, table)
    try:
        assert table.in_flight("10.7.1.1") == 1
        assert table.running_since("10.7.1.1") == 10.0
        table.drop_process(child.pid)
        assert table.in_flight("10.7.1.1") == 0
        assert table.running_since("10.7.1.1") is None
    finally:
        done.set()
        child.join(30)


@pytest.mark.parametrize("shared", [False, True], ids=["local", "shared"])
def test_both_kinds_of_table_count_the_same(shared):
    table = ClientTable.shared(leases=4) if shared else ClientTable(leases=4)
    assert table.is_shared is shared
    assert [table.enter("10.7.2.1", 2) for _ in range(3)] == [True, True, False]
    table.leave("10.7.2.1")
    assert table.in_flight("10.7.2.1") == 1
    table.leave("10.7.2.1")
    table.leave("10.7.2.1")  # nothing left to give back
    assert table.in_flight("10.7.2.1") == 0
    lease = table.start_running("10.7.2.1", now=3.0)
    table.start_running("10.7.2.1", now=2.0)
    assert table.running_since("10.7.2.1") == 2.0  # the longest-running one
    table.stop_running(lease)
    assert table.running_since("10.7.2.1") == 2.0
    # A bucket of 2 refilled at 0.5 a second.
    assert [table.take_token("10.7.2.1", 0.5, 2, now=0.0) for _ in range(3)] == [0, 0, 2.0]
    assert table.take_token("10.7.2.1", 0.5, 2, now=2.0) == 0.0


def test_the_table_is_bounded_and_tells_clients_in_one_window_apart():
    table = ClientTable(marks=1, buckets=1, leases=2)  # every key shares one window
    clients = [f"10.7.3.{n}" for n in range(WINDOW + 1)]
    for at, client in enumerate(clients[:WINDOW]):
        table.mark_slow(client, now=float(at))
    assert [table.slow_since(c) for c in clients[:WINDOW]] == [float(n) for n in range(WINDOW)]
    table.mark_slow(clients[WINDOW], now=99.0)
    assert table.slow_since(clients[0]) is None  # the oldest mark gave way
    assert table.slow_since(clients[1]) == 1.0
    assert table.slow_since(clients[WINDOW]) == 99.0
    # Buckets: the fullest gives way (a full bucket says nothing); the others keep their count.
    for n, client in enumerate(clients[:WINDOW]):
        for _ in range(1 if n == 5 else 3):
            table.take_token(client, 0.001, 3, now=0.0)
    assert table.take_token(clients[WINDOW], 0.001, 3, now=0.0) == 0.0
    assert table.take_token(clients[0], 0.001, 3, now=0.0) == pytest.approx(1000.0)
    assert table.take_token(clients[5], 0.001, 3, now=0.0) == 0.0  # its own bucket was dropped
    assert table.take_token(clients[5], 0.001, 3, now=0.0) == 0.0
    # Leases: at most as many as the table holds; beyond them queries are not counted.
    assert [table.enter(c, 1) for c in clients[:3]] == [True, True, True]
    assert [table.in_flight(c) for c in clients[:3]] == [1, 1, 0]


# The same work as CARTESIAN, spelled otherwise: another fingerprint.
OTHER_CARTESIAN = CARTESIAN.replace("COUNT(*)", "COUNT(?a)")


def _mark_and_run(table: ClientTable, ready: Any, done: Any) -> None:
    table.mark_slow("10.7.4.1")
    table.start_running("10.7.4.2", now=time.monotonic() - 10)
    # Some client's copy of this query ran to the time limit in this process.
    table.mark_slow(query_key(" " + OTHER_CARTESIAN.replace(" ", "\n  ")))
    ready.set()
    done.wait(60)


def test_the_runner_treats_a_client_found_slow_in_another_process_as_slow(store):
    table = ClientTable.shared(leases=16)
    child, _, done = _in_child(_mark_and_run, table)
    errors: list[BaseException] = []
    runner = QueryRunner(store, workers=2, time_limit_ms=3000, clients=table)
    try:
        assert runner.is_slow_client("10.7.4.1")
        assert not runner.is_slow_client("10.7.4.2")

        def hold() -> None:
            try:
                runner.run(CARTESIAN, client="10.7.4.9")
            except BaseException as exc:  # checked after the join
                errors.append(exc)

        holder = threading.Thread(target=hold)
        holder.start()
        deadline = time.monotonic() + 30
        while runner.held_by("10.7.4.9") != 1:
            assert time.monotonic() < deadline, "the slow query never got a worker"
            time.sleep(0.01)
        # The client with a long-running query elsewhere has used its budget of one query
        # running at a time: refused as its own doing (429), whatever this process holds.
        with pytest.raises(QueryBusy) as refused:
            runner.run(QUICK, client="10.7.4.2")
        assert refused.value.own is True
        assert str(refused.value) == (
            "this client sends slow queries (one ran to the time limit in the last 60 s, or has "
            "run for a quarter of it now), so it may have one query running at a time, and one "
            "is running")
        # The client marked slow elsewhere has nothing running, but one worker is left here:
        # it stays free for others (capacity, 503), and a third client may take it.
        with pytest.raises(QueryBusy) as refused:
            runner.run(QUICK, client="10.7.4.1")
        assert refused.value.own is False
        assert str(refused.value).startswith("1 of 2 query workers of this server process are "
                                             "busy and the last one stays free")
        # A fresh client sending a copy of the query stopped elsewhere is held back too.
        with pytest.raises(QueryBusy) as refused:
            runner.run(OTHER_CARTESIAN, client="10.7.4.4")
        assert refused.value.own is True
        assert str(refused.value) == (
            "this query is slow: a copy of it ran to the time limit in the last 60 s, and it is "
            "not run again until 60 s after that")
        assert b"true" in runner.run(QUICK, client="10.7.4.3").body
        holder.join(60)
    finally:
        done.set()
        child.join(30)
        runner.close()
    assert len(errors) == 1 and isinstance(errors[0], QueryTimeout)
    # Stopped at the time limit in this process: the client and the query are marked slow
    # in the shared table.
    assert table.slow_since("10.7.4.9") is not None
    assert table.slow_since(query_key(CARTESIAN)) is not None
    assert table.slow_since(query_key(QUICK)) is None


def test_copies_of_a_query_share_a_fingerprint_per_dataset():
    assert query_key("ASK  {\n ?s ?p ?o }") == query_key(QUICK)
    assert query_key(QUICK, ["urn:example:g"]) != query_key(QUICK)
    assert query_key(QUICK, None, ["urn:example:g"]) != query_key(QUICK, ["urn:example:g"])


# -- the server: two worker processes -----------------------------------------------------------


def test_server_limits_hold_per_client_across_worker_processes(store, tmp_path):
    server = Workers(store, "query_time_limit_ms=5000", "max_queries_in_flight=1",
                     "rate_limit=1", "rate_limit_burst=20", f"exports_dir={tmp_path}")
    try:
        slow_client, counted_client, other_client = "127.0.3.1", "127.0.3.2", "127.0.3.3"
        answers: list[Answer] = []
        for _ in range(5):
            slow = threading.Thread(target=lambda: answers.append(server.ask(slow_client,
                                                                             CARTESIAN)))
            slow.start()
            time.sleep(0.3)  # its head start; when the next query is first, both go again
            # With the slow query in flight, another of the client's is refused.
            first = server.ask(slow_client, QUICK)
            slow.join(0.1)
            if first.status == 429 and slow.is_alive():
                break
            slow.join(60)
            answers.clear()
        assert first.status == 429 and slow.is_alive()
        # ...by both workers, whichever runs the slow one.
        refused = server.from_every_worker(lambda: server.ask(slow_client, QUICK))
        spent = [server.get(counted_client, "/api/papers?per_page=1") for _ in range(20)]
        over = server.from_every_worker(lambda: server.get(counted_client,
                                                           "/api/papers?per_page=1"))
        assert server.ask(other_client, QUICK).status == 200
        assert slow.is_alive()
        slow.join(60)
        assert answers[0].status == 503 and "time limit" in answers[0].message

        elsewhere = [answer for answer in refused if answer.pid != answers[0].pid]
        assert elsewhere and all((answer.status, answer.message) == (429, (
            "too many queries at once: this client has 1 SPARQL queries in flight, the limit "
            "is 1 (setting max_queries_in_flight); retry in 5 s")) for answer in elsewhere)
        assert all(answer.status == 429 for answer in refused)
        assert [answer.status for answer in spent] == [200] * 20
        for answer in over:  # the burst is spent, in both workers
            assert answer.status == 429 and answer.message.startswith(
                "too many requests: the limit is 1 a minute per client; retry in "), answer
    finally:
        server.close()
