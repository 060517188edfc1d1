"""`python -m api.serve` runs granian with the app; settings come from --set."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from api import serve

ROOT = Path(__file__).resolve().parents[2]


def test_bad_setting_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as caught:
        serve.parser().parse_args(["--set", "no_such_setting=1"])
    assert caught.value.code == 2
    assert "no_such_setting" in capsys.readouterr().err


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.mark.parametrize("access_log", [False, True])
def test_serves_over_http(store_location, access_log):
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "api.serve", "--store", store_location, "--port", str(port),
         "--set", "row_cap=2", "--log-level", "warning"] + ["--access-log"] * access_log,
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        url = f"http://127.0.0.1:{port}"
        for _ in range(300):
            try:
                with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                    assert json.load(response)["status"] == "ok"
                break
            except OSError:
                if process.poll() is not None:
                    raise AssertionError(process.stdout.read().decode()) from None
                time.sleep(0.1)
        query = "SELECT ?s WHERE { ?s a <https://w3id.org/paperkg/ns#Paper> }"
        request = urllib.request.Request(
            f"{url}/sparql", data=query.encode(),
            headers={"Content-Type": "application/sparql-query"})
        with urllib.request.urlopen(request, timeout=30) as response:
            assert response.headers["X-Paperkg-Truncated"] == "true"
            assert len(json.load(response)["results"]["bindings"]) == 2
    finally:
        process.terminate()
        process.wait(timeout=30)
        log = process.stdout.read().decode()
        process.stdout.close()
    # Off unless asked for; on, one line a request naming the answering worker.
    written = [line for line in log.splitlines() if '"POST /sparql HTTP/1.1" 200' in line]
    assert len(written) == access_log, log
    if access_log:
        assert re.search(r" 200 [\d.]+ms pid=\d+$", written[0]), written[0]


@pytest.mark.parametrize("command", [
    [sys.executable, "-m", "api.serve"],
    [str(Path(sys.executable).with_name("paperkg")), "serve"],
])
def test_busy_port_is_one_line_and_exit_2(command):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run(command + ["--host", "127.0.0.1", "--port", str(port)],
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == (f"paperkg: error: port {port} on 127.0.0.1 is in use; "
                           "choose another with --port\n")
    assert done.stdout == ""


def test_unknown_host_is_one_line():
    problem = serve.bind_problem("no-such-host.invalid", 5000)
    assert problem is not None and problem.startswith("--host 'no-such-host.invalid'")
    assert "\n" not in problem


def test_store_credentials_are_taken_out_of_each_request_environ(monkeypatch):
    monkeypatch.setenv("PAPERKG_STORE_PASSWORD", "s3cret")
    monkeypatch.setenv("PAPERKG_STORE_USER", "dba")
    monkeypatch.delenv("PAPERKG_STORE_NETRC", raising=False)
    seen: list[dict] = []

    def app(environ, start_response):
        seen.append(dict(environ))
        start_response("200 OK", [])
        return [b""]

    wrapped = serve.without_credentials(app)
    # As granian makes it: the server's environment, then the request's own keys.
    environ = {**os.environ, "REQUEST_METHOD": "GET", "PATH_INFO": "/"}
    assert list(wrapped(environ, lambda status, headers: None)) == [b""]
    assert "PAPERKG_STORE_PASSWORD" not in seen[0] and "PAPERKG_STORE_USER" not in seen[0]
    assert seen[0]["REQUEST_METHOD"] == "GET"
    # The process environment keeps them: the store reads them from there.
    assert os.environ["PAPERKG_STORE_PASSWORD"] == "s3cret"


def test_no_wrapper_without_credentials(monkeypatch):
    for name in serve.CREDENTIALS:
        monkeypatch.delenv(name, raising=False)

    def app(environ, start_response):
        return [b""]

    assert serve.without_credentials(app) is app


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as listing:
            return [int(child) for child in listing.read().split()]
    except FileNotFoundError:
        return []


@contextlib.contextmanager
def _two_workers(store_location: str, port: int) -> Iterator[subprocess.Popen]:
    process = subprocess.Popen(
        [sys.executable, "-m", "api.serve", "--store", store_location, "--port", str(port),
         "--workers", "2", "--log-level", "warning"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        yield process
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def _stops_at_once(process: subprocess.Popen) -> None:
    """SIGTERM ends the server with status 0, well before its kill timeout (30 s)."""
    process.terminate()
    started = time.monotonic()
    assert process.wait(timeout=20) == 0
    assert time.monotonic() - started < 10


def test_a_stop_while_the_workers_build_their_app_ends_the_server_at_once(store_location):
    # SIGTERM as soon as both workers are forked, while each still builds its app: before
    # api.serve.WorkerServer the signal was lost there and the server took its
    # workers_kill_timeout (30 s) to stop; before api.worker_stop, so it was, now and then,
    # when one of a worker's Rust threads caught it.
    with _two_workers(store_location, _free_port()) as process:
        deadline = time.monotonic() + 60
        while len(_children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.005)
        assert len(_children(process.pid)) >= 2, "the server forked no workers in 60 s"
        _stops_at_once(process)


def test_a_stop_after_requests_ends_the_server_gracefully(store_location):
    # Workers that have served go through granian's own handler (api.worker_stop hands it
    # the stop once).
    port = _free_port()
    with _two_workers(store_location, port) as process:
        answered = 0
        deadline = time.monotonic() + 60
        while answered < 20 and time.monotonic() < deadline:
            try:  # a new connection each time, so that both workers' sockets are used
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz",
                                            timeout=2) as response:
                    answered += response.status == 200
            except OSError:
                time.sleep(0.05)
        assert answered == 20
        _stops_at_once(process)
