"""bench/memory_routes.py drives the app's routes from several threads and reports memory."""

from __future__ import annotations

import re

import pytest


def test_memory_routes_samples_memory_while_threads_serve_the_routes(demo_build, capsys):
    from bench import memory_routes

    _, work = demo_build
    code = memory_routes.main(["--store", str(work / "store"), "--routes", "sparql,pages",
                               "--threads", "2", "--seconds", "1.5", "--sample-every", "0.5",
                               "--sqlite-cache-kib", "64"])
    assert code == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("routes sparql,pages, 2 threads, ")
    assert lines[0].endswith("SQLite page cache 64")
    samples = [re.match(r" +([\d.]+) s  requests +(\d+)  RSS +([\d.]+) MiB  (.*)$", line)
               for line in lines[1:]]
    assert all(samples) and len(samples) >= 3
    requests = [int(m.group(2)) for m in samples]
    assert requests[0] == 0 and requests[-1] > 0 and requests == sorted(requests)
    assert all(float(m.group(3)) > 10 for m in samples)
    if memory_routes.allocator() is not None:
        assert all(re.fullmatch(r"in use +[\d.]+ MiB, free +[\d.]+ MiB, heaps +[\d.]+ MiB",
                                m.group(4)) for m in samples)


def test_memory_routes_refuses_an_unknown_route_class(capsys):
    from bench import memory_routes

    with pytest.raises(SystemExit) as stop:
        memory_routes.main(["--routes", "sparql,graphs"])
    assert stop.value.code == 2
    assert "--routes 'sparql,graphs': expected names among sparql, search, neighbourhood, pages" \
        in capsys.readouterr().err
