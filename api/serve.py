"""Run the web app under gunicorn: `python -m api.serve --store LOC --host H --port P`.

`paperkg serve` execs this module (graph/ does not import Flask). Settings come from
`--set NAME=VALUE` (repeatable), then `PAPERKG_<NAME>` environment variables, then defaults;
see docs/api.md. The gunicorn master makes one `api.query.clients.ClientTable` before it forks
the workers, so the rate limit, the cap on queries in flight and the slow-client rule hold
per client across all of them.
"""

from __future__ import annotations

import argparse
import errno
import socket
import sys
from collections.abc import Sequence
from typing import Any

from gunicorn.app.base import BaseApplication

from api import create_app, settings
from api.query.clients import ClientTable


class Server(BaseApplication):  # type: ignore[misc]
    """gunicorn with the app built by `create_app(config)` in each worker."""

    def __init__(self, config: dict[str, Any], options: dict[str, Any]):
        self.app_config = config
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            if key in self.cfg.settings and value is not None:
                self.cfg.set(key, value)

    def load(self) -> Any:
        return create_app(self.app_config)


def _setting(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or name.strip().lower() not in settings.BY_NAME:
        raise argparse.ArgumentTypeError(
            f"--set {text!r}: expected NAME=VALUE with NAME among "
            f"{', '.join(settings.BY_NAME)}")
    return name.strip().lower(), value


def parser() -> argparse.ArgumentParser:
    cli = argparse.ArgumentParser(prog="python -m api.serve", description=__doc__.splitlines()[0])
    cli.add_argument("--store", help="store folder or SPARQL server URL "
                     "(default: $PAPERKG_STORE or .paperkg/store)")
    cli.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    cli.add_argument("--port", type=int, default=5000, help="port to listen on (5000)")
    cli.add_argument("--workers", type=int, default=1,
                     help="gunicorn worker processes (1); each has its own query workers")
    cli.add_argument("--threads", type=int, default=8,
                     help="threads per worker (8): requests served at once")
    cli.add_argument("--set", dest="values", type=_setting, action="append", default=[],
                     metavar="NAME=VALUE", help="a setting (repeatable)")
    cli.add_argument("--log-level", default="info", help="gunicorn log level (info)")
    return cli


def bind_problem(host: str, port: int) -> str | None:
    """Why gunicorn could not listen on host:port, in one line, or None if it can.

    Checked before gunicorn starts: its own bind failure is ten lines of retries and exit 1.
    """
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError) as exc:
        return f"--host {host!r} is not an address this machine can listen on ({exc})"
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As gunicorn does: a port left in TIME_WAIT is free, one with a listener is not.
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
    options = {
        "bind": f"{args.host}:{args.port}",
        "workers": args.workers,
        "threads": args.threads,
        "worker_class": "gthread",
        # A query may legitimately run up to the time limit; give the worker room beyond it.
        "timeout": max(30, values["query_time_limit_ms"] // 1000 * 2 + 10),
        # Long GET queries are bounded by max_request_bytes (413), not by gunicorn (414).
        "limit_request_line": 0,
        "loglevel": args.log_level,
        "accesslog": "-",
        # No control socket in the user's home folder (several servers would share it).
        "control_socket_disable": True,
        # A worker that died (killed at gunicorn's timeout, say) holds no place any more.
        "child_exit": lambda _server, worker: table.drop_process(worker.pid),
    }
    Server(config, options).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
