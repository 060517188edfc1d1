"""Run the web app under granian: `python -m api.serve --store LOC --host H --port P`.

`paperkg serve` execs this module (graph/ does not import Flask). Settings come from
`--set NAME=VALUE` (repeatable), then `PAPERKG_<NAME>` environment variables, then defaults;
see docs/api.md. The server process makes one `api.query.clients.ClientTable` before it forks
the workers, so the rate limit, the cap on queries in flight and the slow-client rule hold
per client across all of them.

granian (an HTTP server written in Rust that calls the app through WSGI) rather than a server
written in Python: on the endpoint's cheapest queries the HTTP server was most of the time
(docs/api.md has the figures of both). Each worker listens on its own socket of the same port
(the kernel spreads new connections over them). The access log is off unless asked for
(`--access-log`): granian writes each line through Python's logging, about a fifth of the time of
the cheapest query (docs/api.md); each line names the answering worker's process id.
"""

from __future__ import annotations

import argparse
import errno
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from granian.constants import Interfaces
from granian.log import LogLevels
from granian.server import Server

from api import create_app, settings
from api.hot_path import WSGIApp
from api.query.clients import ClientTable
from api.watchdog import Watchdog
from api.worker_stop import FirstRequest, end_worker, stop_at_once_until_served
from graph.errors import StoreError
from graph.store.http import NETRC_ENV, PASSWORD_ENV, USER_ENV, env_timeout

#: One access-log line a request: who, when, what, the status, milliseconds, and the worker.
ACCESS_FORMAT = ('%(addr)s - [%(time)s] "%(method)s %(path)s %(protocol)s" %(status)d '
                 '%(dt_ms).1fms')
ACCESS_LINE = "%(message)s pid=%(process)d"



#: The environment variables that hold a remote store's credentials (graph/store/http.py).
CREDENTIALS = (USER_ENV, PASSWORD_ENV, NETRC_ENV)


def without_credentials(app: WSGIApp, names: Sequence[str] = CREDENTIALS) -> WSGIApp:
    """`app`, given request environs without the variables `names`.

    granian starts every request's WSGI environ from a copy of the server's own environment,
    so a store password set there would travel with each request into the app, its error
    handlers and any middleware a deployment adds; the store reads it from the process
    environment, never from a request's.
    """
    present = tuple(name for name in names if name in os.environ)
    if not present:
        return app

    def wsgi(environ: dict[str, Any], start_response: Callable[..., Any]) -> Iterable[bytes]:
        for name in present:
            environ.pop(name, None)
        return app(environ, start_response)

    return wsgi


def _setting(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or name.strip().lower() not in settings.BY_NAME:
        raise argparse.ArgumentTypeError(
            f"--set {text!r}: expected NAME=VALUE with NAME among "
            f"{', '.join(settings.BY_NAME)}")
    return name.strip().lower(), value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds >= 0")
    return value


def default_worker_timeout(store: str, grace: float) -> float:
    """How long one request may run in the app before its worker is ended: `grace` (room
    beyond the query time limit), or for a remote store twice its HTTP timeout plus 10 s
    when that is longer (a graph request may wait on the server that long)."""
    if store.startswith(("http://", "https://")):
        return max(grace, 2 * env_timeout() + 10)
    return grace


def worker_app(config: dict[str, Any], worker_timeout: float) -> WSGIApp:
    """`serving_app`, made in a server worker, whose stop signals are acted on whichever of
    its threads catches them: at once before its first request, gracefully after
    (api.worker_stop)."""
    app = FirstRequest(serving_app(config, worker_timeout))
    stop_at_once_until_served(app)
    return app


def serving_app(config: dict[str, Any], worker_timeout: float) -> WSGIApp:
    """The app one server worker runs: without the store's credentials in its environs and,
    unless `worker_timeout` is 0, under a watchdog that ends the worker when a request hangs."""
    app = without_credentials(create_app(config))
    return Watchdog(app, worker_timeout) if worker_timeout else app


class WorkerServer(Server):  # type: ignore[misc, valid-type]
    """granian's server, whose workers honour a stop signal from the moment they are forked.

    granian forks its workers with the server process's own signal handler, which only sets a
    flag of the server object, and gives each worker a handler of its own once the worker has
    built its app: a SIGTERM or SIGINT that reached a worker in between was lost, and the
    worker served on until the server killed it `workers_kill_timeout` (30 s or more) later.
    The handler inherited is this one, which in a worker (another process id) ends that
    worker at once: it serves nothing yet, so there is nothing to finish. granian's own
    handler, installed next, is kept to the same rule until the first request
    (`worker_app`, api.worker_stop)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.server_pid = os.getpid()

    def signal_handler_interrupt(self, *args: Any, **kwargs: Any) -> None:
        if os.getpid() != self.server_pid:
            end_worker(0)
        super().signal_handler_interrupt(*args, **kwargs)


def parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(prog="python -m api.serve", description=__doc__.splitlines()[0])
    cli.add_argument("--store", help="store folder or SPARQL server URL "
                     "(default: $PAPERKG_STORE or .paperkg/store)")
    cli.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    cli.add_argument("--port", type=int, default=5000, help="port to listen on (5000)")
    cli.add_argument("--workers", type=int, default=1,
                     help="server worker processes (1); each has its own query workers")
    cli.add_argument("--threads", type=int, default=8,
                     help="app threads per worker (8): requests served at once")
    cli.add_argument("--set", dest="values", type=_setting, action="append", default=[],
                     metavar="NAME=VALUE", help="a setting (repeatable)")
    cli.add_argument("--worker-timeout", type=_seconds, default=None, metavar="SECONDS",
                     help="end and replace a worker whose app has run one request this long "
                     "(default: twice the query time limit plus 10 s, at least 30; 0: never)")
    cli.add_argument("--log-level", default="info", choices=[level.value for level in LogLevels],
                     help="the server's log level (info)")
    cli.add_argument("--access-log", action="store_true",
                     help="write a line for each request, naming the worker that answered (off)")
    return cli


def bind_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on host:port, in one line, or None if it can.

    Checked before the server starts: its own bind failure is a traceback in each worker.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return f"--host {host!r} is not an address this machine can listen on ({exc})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # A port left in TIME_WAIT is free, one with a listener is not.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return f"port {port} on {host} is in use; choose another with --port"
            if exc.errno == errno.EACCES:
                return (f"port {port} on {host} needs privileges this user lacks; "
                        "choose another with --port")
            return f"cannot listen on port {port} of {host}: {exc.strerror or exc}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    problem = bind_problem(args.host, args.port)
    if problem:
        sys.stderr.write(f"paperkg: error: {problem}\n")
        return 2
    config: dict[str, Any] = dict(args.values)
    if args.store:
        config["store"] = args.store
    values = settings.resolve(config)  # fail early, before forking, on a bad setting
    # Each request thread holds at most one lease of each kind.
    table = ClientTable.shared(leases=args.workers * args.threads + 16)
    config["CLIENT_TABLE"] = table
    # A query may legitimately run up to the time limit; a stopping worker gets room beyond it.
    grace = max(30, values["query_time_limit_ms"] // 1000 * 2 + 10)
    try:
        timeout = (default_worker_timeout(values["store"], grace)
                   if args.worker_timeout is None else args.worker_timeout)
    except StoreError as exc:
        sys.stderr.write(f"paperkg: error: {exc}\n")
        return 2
    server = WorkerServer(
        "api:create_app", address=args.host, port=args.port, interface=Interfaces.WSGI,
        workers=args.workers, blocking_threads=args.threads, websockets=False,
        log_level=LogLevels(args.log_level), log_access=args.access_log,
        log_access_format=ACCESS_FORMAT,
        log_dictconfig={"formatters": {
            "generic": {"()": "logging.Formatter", "fmt": "[%(levelname)s] %(message)s"},
            "access": {"()": "logging.Formatter", "fmt": ACCESS_LINE}}},
        # A worker that died is replaced, as the others go on; its leases in the client
        # table are dropped when found (api.query.clients).
        respawn_failed_workers=True, respawn_interval=1.0, workers_kill_timeout=grace)
    # The server warns of more app threads than cores; the app's threads mostly wait on the
    # query worker processes.
    logging.getLogger("_granian").addFilter(
        lambda record: "Python threads" not in record.getMessage())
    # Called in each worker after the fork: each builds its own app around the shared table.
    server.serve(target_loader=lambda _target: worker_app(config, timeout))
    return 0


if __name__ == "__main__":
    sys.exit(main())
