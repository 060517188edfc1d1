"""A real server with several worker processes, and which worker answered each request.

The kernel spreads new connections over the workers' sockets, so a test cannot choose the
worker; it sends requests on new connections and reads the access log, where each line names
the answering worker's process id, until every worker has answered.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parents[1]

# api.serve.ACCESS_FORMAT and ACCESS_LINE.
LINE = re.compile(r'^(?P<addr>\S+) - \[[^\]]*\] "(?P<method>\S+) (?P<path>\S+) [^"]*" '
                  r'(?P<status>\d{3}) [\d.]+ms pid=(?P<pid>\d+)$')


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="ascii") as handle:
                    if int(handle.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return sorted(found)


class Answer:
    """A response's status, `Retry-After`, JSON body and the worker that answered."""

    def __init__(self, status: int, retry_after: str | None, body: dict[str, Any], pid: int):
        self.status, self.retry_after, self.body, self.pid = status, retry_after, body, pid

    @property
    def message(self) -> str:
        return str(self.body.get("error", {}).get("message", ""))

    def __repr__(self) -> str:
        return f"Answer({self.status}, {self.retry_after!r}, {self.message!r}, pid={self.pid})"


class Workers:
    """`python -m api.serve --workers N` with `settings` (NAME=VALUE), stopped by `close`."""

    def __init__(self, store: str, *settings: str, workers: int = 2, threads: int = 4,
                 options: tuple[str, ...] = ()):
        self.port = free_port()
        args = [sys.executable, "-m", "api.serve", "--store", store, "--port", str(self.port),
                "--workers", str(workers), "--threads", str(threads), "--log-level", "warning",
                "--access-log", *options]
        for setting in settings:
            args += ["--set", setting]
        self.process = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE,
                                        stderr=subprocess.STDOUT, text=True)
        self.lines: list[re.Match[str]] = []
        self.other: list[str] = []
        self._claimed: set[int] = set()
        self._seen = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 60
        while True:
            assert self.process.poll() is None, "the server exited:\n" + "\n".join(self.other)
            self.pids = children(self.process.pid)
            if len(self.pids) == workers and self._healthy():
                break
            assert time.monotonic() < deadline, "the server never got ready"
            time.sleep(0.2)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for text in self.process.stdout:
            found = LINE.match(text.rstrip("\n"))
            with self._seen:
                if found:
                    self.lines.append(found)
                else:
                    self.other.append(text.rstrip("\n"))
                self._seen.notify_all()

    def _healthy(self) -> bool:
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
        try:
            connection.request("GET", "/healthz")
            return connection.getresponse().status == 200
        except OSError:
            return False
        finally:
            connection.close()

    def get(self, source: str, path: str) -> Answer:
        """GET `path` from the address `source` on a new connection."""
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60,
                                                source_address=(source, 0))
        try:
            connection.request("GET", path, headers={
                "Accept": "application/sparql-results+json, application/json"})
            response = connection.getresponse()
            status, retry_after = response.status, response.getheader("Retry-After")
            body = json.loads(response.read())
        finally:
            connection.close()
        return Answer(status, retry_after, body, self._worker(source, path, status))

    def ask(self, source: str, query: str) -> Answer:
        return self.get(source, "/sparql?" + urlencode({"query": query}))

    def _worker(self, source: str, path: str, status: int) -> int:
        """The process id in the first unclaimed log line of this request (the line is
        written as the answer goes out, so it may come a little after it)."""
        route = urlsplit(path).path
        deadline = time.monotonic() + 10
        with self._seen:
            while True:
                for index, line in enumerate(self.lines):
                    if index not in self._claimed and line["addr"] == source \
                            and line["path"] == route and int(line["status"]) == status:
                        self._claimed.add(index)
                        return int(line["pid"])
                left = deadline - time.monotonic()
                assert left > 0, f"no access-log line for {source} {path} {status}"
                self._seen.wait(left)

    def from_every_worker(self, send: Any, *, tries: int = 60) -> list[Answer]:
        """Call `send()` (it returns an Answer) until every worker has answered; all answers.
        The workers share one listening socket, and on a busy machine one of them may take a
        client's connections one after another many times over: hence the many tries (one at
        a time: two at once from one client are not the same request to the limits)."""
        answers: list[Answer] = []
        while {answer.pid for answer in answers} != set(self.pids):
            assert len(answers) < tries, f"not every worker answered: {answers}"
            answers.append(send())
        return answers

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=30)
