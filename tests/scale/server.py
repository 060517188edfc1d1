"""Start and stop a real Oxigraph server on a free loopback port, for the remote-store tests."""

from __future__ import annotations

import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

STARTUP_SECONDS = 15.0


def oxigraph_binary() -> str | None:
    beside = Path(sys.executable).with_name("oxigraph")
    if beside.exists():
        return str(beside)
    return shutil.which("oxigraph")


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def ready(query_url: str, *, timeout: float = 1) -> bool:
    """Whether the SPARQL endpoint at `query_url` answers ASK {} (no proxy)."""
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    request = urllib.request.Request(f"{query_url}?query=ASK%7B%7D",
                                     headers={"Accept": "application/sparql-results+json"})
    try:
        with opener.open(request, timeout=timeout) as response:
            return response.status == 200
    except (urllib.error.URLError, OSError):
        return False


@contextmanager
def oxigraph_server(folder: Path) -> Iterator[str]:
    """`oxigraph serve` on 127.0.0.1:<free port> with its data in `folder`; yields its URL."""
    binary = oxigraph_binary()
    if binary is None:
        raise FileNotFoundError("the oxigraph server (PyPI package `oxigraph`) is not installed")
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(folder / "server.log", "wb")
    process = subprocess.Popen(
        [binary, "serve", "--location", str(folder / "data"), "--bind", f"127.0.0.1:{port}"],
        stdout=log, stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + STARTUP_SECONDS
        while not ready(f"{url}/query"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(
                    f"oxigraph server did not start: {(folder / 'server.log').read_text()}"
                )
            time.sleep(0.05)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def server_fixture(tmp_path_factory):
    """Body of a module-scoped `server` fixture: skip when the binary is missing."""
    import pytest

    if oxigraph_binary() is None:
        pytest.skip("the oxigraph server is not installed")
    with oxigraph_server(tmp_path_factory.mktemp("oxigraph")) as url:
        yield url
