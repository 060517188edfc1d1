"""A server worker whose app is stuck in one request is ended and replaced (api.watchdog)."""

from __future__ import annotations

import http.client
import logging
import os
import signal
import threading
import time
from urllib.parse import urlencode

import pytest
from server_workers import Workers, children

from api import serve
from api.watchdog import Watchdog
from graph.errors import StoreError


def _answer(body: bytes = b"ok"):
    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [body]
    return app


def _blocked(release: threading.Event, entered: threading.Event):
    def app(environ, start_response):
        entered.set()
        release.wait(30)
        start_response("200 OK", [])
        return [b"late"]
    return app


ENVIRON = {"REQUEST_METHOD": "GET", "PATH_INFO": "/sparql"}


def test_a_call_in_time_leaves_nothing_running():
    stuck: list[bool] = []
    dog = Watchdog(_answer(), 5, on_stuck=lambda: stuck.append(True))
    assert dog(dict(ENVIRON), lambda status, headers: None) == [b"ok"]
    assert dog.running == {}
    assert dog.check() is False and stuck == []


def test_a_call_past_the_limit_is_reported_once_with_its_route(caplog):
    now = [100.0]
    stuck: list[bool] = []
    release, entered = threading.Event(), threading.Event()
    dog = Watchdog(_blocked(release, entered), 30, on_stuck=lambda: stuck.append(True),
                   clock=lambda: now[0])
    dog._watcher = threading.current_thread()  # checked by hand below, not by the thread
    call = threading.Thread(target=dog, args=(dict(ENVIRON), lambda status, headers: None))
    call.start()
    assert entered.wait(5)
    now[0] = 129.0
    assert dog.stuck() == [] and dog.check() is False
    now[0] = 131.5
    assert dog.stuck() == [(31.5, "GET", "/sparql")]
    with caplog.at_level(logging.ERROR, logger="api.watchdog"):
        assert dog.check() is True
    assert stuck == [True]
    assert "GET /sparql has run 31.5 s (limit 30 s)" in caplog.text
    release.set()
    call.join(5)
    assert dog.running == {}


def test_the_watch_thread_acts_on_its_own():
    release, entered, acted = threading.Event(), threading.Event(), threading.Event()
    dog = Watchdog(_blocked(release, entered), 0.2, on_stuck=acted.set)
    call = threading.Thread(target=dog, args=(dict(ENVIRON), lambda status, headers: None))
    call.start()
    try:
        assert acted.wait(5)
    finally:
        release.set()
        call.join(5)


@pytest.mark.parametrize("limit", [0, -1])
def test_the_limit_must_be_positive(limit):
    with pytest.raises(ValueError, match="must be positive"):
        Watchdog(_answer(), limit)


@pytest.mark.parametrize("text", ["-1", "soon", "nan"])
def test_a_bad_worker_timeout_is_a_usage_error(text, capsys):
    with pytest.raises(SystemExit) as caught:
        serve.parser().parse_args(["--worker-timeout", text])
    assert caught.value.code == 2
    assert f"--worker-timeout: {text!r} is not a number of seconds >= 0" in \
        capsys.readouterr().err


def test_the_default_timeout_leaves_room_for_queries_and_a_remote_store(monkeypatch):
    monkeypatch.delenv("PAPERKG_STORE_TIMEOUT", raising=False)
    assert serve.default_worker_timeout("/data/store", 30) == 30
    assert serve.default_worker_timeout("http://localhost:7878/query", 30) == 130
    monkeypatch.setenv("PAPERKG_STORE_TIMEOUT", "5")
    assert serve.default_worker_timeout("https://sparql.example/query", 30) == 30
    monkeypatch.setenv("PAPERKG_STORE_TIMEOUT", "never")
    with pytest.raises(StoreError, match="PAPERKG_STORE_TIMEOUT"):
        serve.default_worker_timeout("http://localhost:7878/query", 30)


def test_zero_turns_the_watchdog_off(store_location, tmp_path):
    config = {"store": store_location, "exports_dir": str(tmp_path)}
    assert not isinstance(serve.serving_app(config, 0), Watchdog)
    assert isinstance(serve.serving_app(config, 12), Watchdog)


CARTESIAN = "SELECT (COUNT(*) AS ?n) WHERE { ?a ?b ?c . ?d ?e ?f . ?g ?h ?i . ?j ?k ?l }"


def _one_worker(store: str, folder, query_ms: int, worker_timeout: str) -> Workers:
    return Workers(store, f"query_time_limit_ms={query_ms}", f"exports_dir={folder}",
                   workers=1, options=("--worker-timeout", worker_timeout))


def _slow_query(server: Workers, worker: int) -> tuple[threading.Thread, list[BaseException],
                                                       list[int]]:
    """Send the slow query on its own thread; that thread, its failures, and the query worker
    processes `worker` runs it in, once they are seen."""
    failures: list[BaseException] = []
    sent = threading.Thread(target=_send_expecting_a_cut, args=(server.port, failures))
    sent.start()
    query_workers: list[int] = []
    deadline = time.monotonic() + 10
    while not query_workers and sent.is_alive():
        assert time.monotonic() < deadline, "no query worker started"
        query_workers = [pid for pid in children(worker) if _is_query_worker(pid)]
        time.sleep(0.05)
    return sent, failures, query_workers


def _replaced(server: Workers, worker: int) -> None:
    """Wait until a fresh worker answers in place of `worker` (stopping the server while a
    worker starts is slow)."""
    deadline = time.monotonic() + 30
    while True:
        pids = children(server.process.pid)
        if pids and worker not in pids and server._healthy():
            return
        assert time.monotonic() < deadline, server.other
        time.sleep(0.2)


@pytest.mark.slow
def test_a_stuck_worker_is_replaced_and_its_query_workers_go_with_it(store_location, tmp_path):
    # A query held 8 s by its time limit stands in for a hang: the watchdog's 1 s is shorter.
    server = _one_worker(store_location, tmp_path, 8000, "1")
    try:
        [worker] = server.pids
        started = time.monotonic()
        sent, failures, query_workers = _slow_query(server, worker)
        sent.join(30)
        assert failures == [] and query_workers
        assert time.monotonic() - started < 6
        _replaced(server, worker)
        assert [pid for pid in [worker, *query_workers] if _alive(pid)] == []
        assert any("GET /sparql has run" in line and "ending the worker" in line
                   for line in server.other), server.other
        answer = server.ask("127.0.6.1", "ASK { ?s ?p ?o }")
        assert answer.status == 200 and answer.body["boolean"] is True
    finally:
        server.close()


@pytest.mark.slow
def test_a_worker_killed_from_outside_takes_its_query_workers_along(store_location, tmp_path):
    server = _one_worker(store_location, tmp_path, 20000, "0")
    try:
        [worker] = server.pids
        sent, failures, query_workers = _slow_query(server, worker)
        assert query_workers
        time.sleep(0.5)  # the query is running
        os.kill(worker, signal.SIGKILL)
        sent.join(30)
        assert failures == []
        # Left alone, the orphan would run the query to its 20 s limit and beyond.
        deadline = time.monotonic() + 5
        while [pid for pid in query_workers if _alive(pid)]:
            assert time.monotonic() < deadline, [pid for pid in query_workers if _alive(pid)]
            time.sleep(0.1)
        _replaced(server, worker)
    finally:
        server.close()


def _is_query_worker(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return b"spawn_main" in handle.read()
    except OSError:
        return False


def _send_expecting_a_cut(port: int, failures: list[BaseException]) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        connection.request("GET", "/sparql?" + urlencode({"query": CARTESIAN}))
        failures.append(AssertionError(f"answered {connection.getresponse().status}"))
    except (http.client.RemoteDisconnected, ConnectionError):
        pass
    except BaseException as exc:  # reported by the test's thread
        failures.append(exc)
    finally:
        connection.close()


def _alive(pid: int) -> bool:
    """A process that exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_paperkg_serve_passes_the_timeout_on(monkeypatch):
    from click.testing import CliRunner

    from graph.cli import reading
    ran: list[list[str]] = []
    monkeypatch.setattr(reading.os, "execv", lambda program, args: ran.append(args))
    result = CliRunner().invoke(reading.serve, ["--worker-timeout", "45", "--port", "5001"])
    assert result.exit_code == 0, result.output
    assert ran[0][1:] == ["-m", "api.serve", "--host", "127.0.0.1", "--port", "5001",
                          "--workers", "2", "--worker-timeout", "45"]
    CliRunner().invoke(reading.serve, ["--access-log"])
    assert ran[1][1:] == ["-m", "api.serve", "--host", "127.0.0.1", "--port", "5000",
                          "--workers", "2", "--access-log"]
    refused = CliRunner().invoke(reading.serve, ["--worker-timeout", "-3"])
    assert refused.exit_code == 2 and "--worker-timeout" in refused.output
