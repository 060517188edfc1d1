"""api.worker_stop: a stop signal is acted on once, from whichever thread caught it."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from api.worker_stop import FirstRequest, Stopper

ROOT = Path(__file__).resolve().parents[2]


def _stopper(seen: bool) -> tuple[Stopper, list[tuple[str, int]]]:
    calls: list[tuple[str, int]] = []
    marker = FirstRequest(lambda environ, start_response: [b"ok"])
    marker.seen = seen
    stopper = Stopper(marker, end=lambda status: calls.append(("end", status)))
    return stopper, calls


def test_the_first_request_is_remembered():
    marker = FirstRequest(lambda environ, start_response: [b"ok"])
    assert not marker.seen
    assert marker({}, lambda *args: None) == [b"ok"]
    assert marker.seen


def test_a_worker_that_served_nothing_ends_at_once_and_once():
    stopper, calls = _stopper(seen=False)
    stopper.install(lambda handler, reload=None: None)(
        lambda signum, frame: calls.append(("granian", signum)))
    stopper(signal.SIGTERM)
    stopper(signal.SIGTERM)
    assert calls == [("end", 0)]


def test_a_worker_that_served_hands_one_stop_to_granian():
    stopper, calls = _stopper(seen=True)
    installed: list[object] = []
    guarded = stopper.install(lambda handler, reload=None: installed.append(handler))
    guarded(lambda signum, frame: calls.append(("granian", signum)))
    assert installed == [stopper]  # the stopper is the handler the signal module gets
    stopper(signal.SIGINT)
    stopper(signal.SIGTERM)  # a second set() of granian's signal would block
    assert calls == [("granian", signal.SIGINT)]


def test_before_granian_installs_its_handler_a_stop_ends_the_worker():
    stopper, calls = _stopper(seen=True)
    stopper(signal.SIGTERM)
    assert calls == [("end", 0)]


# The main thread parks in a lock wait, as granian's worker does, and cannot catch SIGTERM:
# only another thread can, as granian's Rust threads could. Python's handler then waits for a
# main thread that never wakes; the stopper's own thread acts on it.
PARKED = textwrap.dedent("""
    import signal, sys, threading, time
    import granian._signals as signals
    from api.worker_stop import FirstRequest, Stopper, stop_at_once_until_served
    if sys.argv[1] == "unwatched":
        Stopper.watch = lambda self: None
    stop_at_once_until_served(FirstRequest(lambda environ, start_response: []))
    signals.set_sync_signals()  # granian's worker handler, installed as its worker does
    threading.Thread(target=time.sleep, args=(60,), daemon=True).start()
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    print("parked", flush=True)
    threading.Event().wait()
""")


def _wait_parked(pid: int) -> None:
    """Until the main thread of `pid` sleeps in the kernel (a signal that comes while it still
    runs Python code is handled there, whichever thread caught it)."""
    task = Path(f"/proc/{pid}/task/{pid}")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state = (task / "stat").read_text().rsplit(")", 1)[1].split()[0]
        wchan = (task / "wchan").read_text() if (task / "wchan").exists() else ""
        if state == "S" and ("futex" in wchan or wchan in ("", "0")):
            return
        time.sleep(0.01)
    raise AssertionError(f"the main thread of {pid} never parked")


@pytest.mark.parametrize("mode", ["watched", "unwatched"])
def test_a_stop_caught_by_another_thread_ends_a_parked_worker(mode):
    process = subprocess.Popen([sys.executable, "-c", PARKED, mode], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stdout.readline() == "parked\n"
        _wait_parked(process.pid)
        process.terminate()
        if mode == "watched":
            assert process.wait(timeout=10) == 0
        else:  # without the stopper's thread the stop is never acted on: the old defect
            with pytest.raises(subprocess.TimeoutExpired):
                process.wait(timeout=2)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
