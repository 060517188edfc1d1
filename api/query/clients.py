"""Per-client records of the query service, shared by every process of one server.

Three kinds of record, each keyed by a 64-bit hash of a name (the whole hash is stored with
the entry, so two names whose hashes pick the same slot are told apart). A name is a client
address or, for slow marks, a query's fingerprint (see `api.query.query_key`):

* slow marks: when a query of the client, or a copy of the query, last ran to the time limit;
* token buckets of the rate limit (tokens left, when last counted);
* leases: one for each query of a client in flight (waiting for a query worker or running),
  and one for each query running in a query worker, with the process that holds it and when
  the query started running.

`ClientTable.shared()` keeps them in a memory-mapped file, made before a server forks its
worker processes, so every worker reads and changes the same records; `ClientTable()` keeps
them in this process only (tests, the development server). Both have the same methods.

Memory is fixed when the table is made. A mark or a bucket may only sit in a short window of
slots after its hash's own slot; when no slot of the window is free, the oldest mark (the
nearest to being forgotten) or the fullest bucket (a full bucket means the same as none)
gives way. Leases of a process that has ended are dropped: a lease whose process is gone is
dropped when found (`drop_process` drops them at once, for a caller that sees the exit).
Times are `time.monotonic()`, one clock for all processes of the machine on Linux.
"""

from __future__ import annotations

import ctypes
import fcntl
import hashlib
import logging
import mmap
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

log = logging.getLogger(__name__)

#: Slots a key may use after its own (the window searched for it).
WINDOW = 16
#: Names whose hash a table remembers (clients and query fingerprints come back).
KEY_MEMO = 65536


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process took the number: ours is gone
        return False
    return True


class ClientTable:
    """Slow marks, rate-limit buckets and query leases of clients (see the module)."""

    # ctypes arrays over the shared buffer, one per column of the layout in __init__
    _mark_keys: Any
    _mark_at: Any
    _bucket_keys: Any
    _bucket_tokens: Any
    _bucket_at: Any
    _flight_keys: Any
    _flight_pids: Any
    _run_keys: Any
    _run_pids: Any
    _run_since: Any

    def __init__(self, *, marks: int = 4096, buckets: int = 16384, leases: int = 256,
                 _file: Any = None):
        self.sizes = {"marks": marks, "buckets": buckets, "leases": leases}
        # (name, element type, length): a struct of arrays, so a window or a lease column is
        # read with one slice.
        layout: list[tuple[str, Any, int]] = [
            ("mark_keys", ctypes.c_uint64, marks + WINDOW),
            ("mark_at", ctypes.c_double, marks + WINDOW),
            ("bucket_keys", ctypes.c_uint64, buckets + WINDOW),
            ("bucket_tokens", ctypes.c_double, buckets + WINDOW),
            ("bucket_at", ctypes.c_double, buckets + WINDOW),
            ("flight_keys", ctypes.c_uint64, leases),
            ("flight_pids", ctypes.c_int64, leases),
            ("run_keys", ctypes.c_uint64, leases),
            ("run_pids", ctypes.c_int64, leases),
            ("run_since", ctypes.c_double, leases),
        ]
        size = sum(ctypes.sizeof(kind) * length for _, kind, length in layout)
        self._file = _file
        if _file is None:
            self._buffer: Any = bytearray(size)
        else:
            os.ftruncate(_file.fileno(), size)
            self._buffer = mmap.mmap(_file.fileno(), size, mmap.MAP_SHARED,
                                     mmap.PROT_READ | mmap.PROT_WRITE)
        offset = 0
        self._spans: dict[str, tuple[int, int]] = {}  # column -> (start, end) in the buffer
        for name, kind, length in layout:
            setattr(self, "_" + name, (kind * length).from_buffer(self._buffer, offset))
            self._spans[name] = (offset, offset + ctypes.sizeof(kind) * length)
            offset += ctypes.sizeof(kind) * length
        # Not from the address alone: nobody can pick addresses that crowd one window.
        self._salt = os.urandom(16)
        self._threads = threading.Lock()
        self._warned_full = False
        self._keys: dict[str, int] = {}  # names already hashed, a bounded memo

    @classmethod
    def shared(cls, **sizes: int) -> ClientTable:
        """A table that processes forked from this one after this call share."""
        folder = "/dev/shm" if os.path.isdir("/dev/shm") else None
        try:
            handle = tempfile.TemporaryFile(dir=folder)
        except OSError:
            handle = tempfile.TemporaryFile()
        return cls(_file=handle, **sizes)

    @property
    def is_shared(self) -> bool:
        return self._file is not None

    @contextmanager
    def _locked(self) -> Iterator[None]:
        # Threads of a process queue on the thread lock; processes on a record lock of the
        # file, which the kernel releases when its holder dies, so a worker killed at any
        # instant never leaves the table locked for the others.
        with self._threads:
            if self._file is None:
                yield
                return
            fcntl.lockf(self._file.fileno(), fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self._file.fileno(), fcntl.LOCK_UN)

    def key(self, client: str) -> int:
        known = self._keys.get(client)
        if known is not None:
            return known
        digest = hashlib.blake2b(client.encode("utf-8", "surrogatepass"), digest_size=8,
                                 key=self._salt).digest()
        key = int.from_bytes(digest, "little") or 1  # 0 marks a free slot
        if len(self._keys) >= KEY_MEMO:
            self._keys.clear()
        self._keys[client] = key
        return key

    def _window(self, key: int, count: int) -> int:
        return key % count

    # slow marks

    def mark_slow(self, client: str, now: float | None = None) -> None:
        """Remember that a query of `client` (a client or a query's fingerprint) ran to the
        time limit at `now`."""
        now = time.monotonic() if now is None else now
        key = self.key(client)
        start = self._window(key, self.sizes["marks"])
        with self._locked():
            keys = self._mark_keys[start:start + WINDOW]
            if key in keys:
                slot = keys.index(key)
            elif 0 in keys:
                slot = keys.index(0)
            else:
                times = self._mark_at[start:start + WINDOW]
                slot = times.index(min(times))
            self._mark_keys[start + slot] = key
            self._mark_at[start + slot] = now

    def slow_since(self, client: str) -> float | None:
        """When a query of `client` last ran to the time limit, if it is remembered."""
        key = self.key(client)
        start = self._window(key, self.sizes["marks"])
        with self._locked():
            keys = self._mark_keys[start:start + WINDOW]
            if key not in keys:
                return None
            return float(self._mark_at[start + keys.index(key)])

    # rate limit

    def take_token(self, client: str, rate_per_s: float, burst: int,
                   now: float | None = None) -> float:
        """Take one token of `client`'s bucket (`burst` tokens, refilled at `rate_per_s`):
        0 when there was one, else the seconds until there is (nothing taken)."""
        now = time.monotonic() if now is None else now
        key = self.key(client)
        start = self._window(key, self.sizes["buckets"])
        with self._locked():
            keys = self._bucket_keys[start:start + WINDOW]
            if key in keys:
                slot = start + keys.index(key)
                tokens = min(float(burst), self._bucket_tokens[slot]
                             + (now - self._bucket_at[slot]) * rate_per_s)
            else:
                slot = start + self._free_bucket(keys, start, now, rate_per_s)
                tokens = float(burst)
            if tokens >= 1.0:
                tokens -= 1.0
                wait = 0.0
            else:
                wait = (1.0 - tokens) / rate_per_s
            self._bucket_keys[slot] = key
            self._bucket_tokens[slot] = tokens
            self._bucket_at[slot] = now
        return wait

    def _free_bucket(self, keys: list[int], start: int, now: float, rate_per_s: float) -> int:
        if 0 in keys:
            return keys.index(0)
        fullness = [self._bucket_tokens[start + n] + (now - self._bucket_at[start + n])
                    * rate_per_s for n in range(WINDOW)]
        return fullness.index(max(fullness))

    # leases of queries in flight

    def enter(self, client: str, cap: int) -> bool:
        """Count one more query of `client` in flight; False (nothing counted) when it has
        `cap` already, in any process."""
        key = self.key(client)
        pid = os.getpid()
        with self._locked():
            keys = self._flight_keys[:]
            if keys.count(key) >= cap:
                self._drop_dead(self._flight_keys, self._flight_pids, key)
                keys = self._flight_keys[:]
                if keys.count(key) >= cap:
                    return False
            slot = self._free_lease(self._flight_keys, self._flight_pids)
            if slot >= 0:
                self._flight_keys[slot] = key
                self._flight_pids[slot] = pid
        return True

    def leave(self, client: str) -> None:
        """Count one query of `client` in flight less (one this process counted)."""
        key = self.key(client)
        pid = os.getpid()
        with self._locked():
            for slot, (held, owner) in enumerate(zip(self._flight_keys[:],
                                                     self._flight_pids[:], strict=True)):
                if held == key and owner == pid:
                    self._flight_keys[slot] = 0
                    self._flight_pids[slot] = 0
                    return

    def admit(self, client: str, query: str, now: float, *, rate_per_s: float, burst: int,
              cap: int, memory_s: float) -> bool:
        """For a query that will run at once in the asking thread, with no query worker: True
        when no rule could hold it back (and then one token of the client's bucket is taken,
        when `rate_per_s` > 0); else False with nothing changed, and the caller takes the
        ordinary path, where each rule decides and answers for itself.

        The rules: the bucket has a token; neither the client nor the query fingerprint `query`
        was marked slow in the last `memory_s` seconds; no query of the client is running in a
        query worker; the client has fewer than `cap` queries in flight (no cap when `cap` is
        0). Such a query takes no place in flight: it neither waits nor holds a worker. Without
        a rate limit nothing is written, so nothing is locked: a record changed by another
        process meanwhile is seen as it was a moment earlier.
        """
        memo = self._keys  # key(), written out for the hot path
        key, fingerprint = memo.get(client) or self.key(client), memo.get(query) or self.key(query)
        if rate_per_s <= 0:
            return self._admissible(key, fingerprint, now, cap, memory_s)
        start = self._window(key, self.sizes["buckets"])
        with self._locked():
            if not self._admissible(key, fingerprint, now, cap, memory_s):
                return False
            keys = self._bucket_keys[start:start + WINDOW]
            if key not in keys:
                return False  # a first request: the ordinary path makes its bucket
            slot = start + keys.index(key)
            tokens = min(float(burst), self._bucket_tokens[slot]
                         + (now - self._bucket_at[slot]) * rate_per_s)
            if tokens < 1.0:
                return False
            self._bucket_tokens[slot] = tokens - 1.0
            self._bucket_at[slot] = now
        return True

    def _admissible(self, key: int, fingerprint: int, now: float, cap: int,
                    memory_s: float) -> bool:
        # Nearly always nothing of the client or the query is in the table: four searches in C
        # say so, before any slot is read in Python.
        buffer, spans, order = self._buffer, self._spans, sys.byteorder
        client, query = key.to_bytes(8, order), fingerprint.to_bytes(8, order)
        first, marks = spans["mark_keys"][0], self.sizes["marks"]
        mine = first + 8 * (key % marks)
        theirs = first + 8 * (fingerprint % marks)
        if buffer.find(client, mine, mine + 8 * WINDOW) < 0 \
                and buffer.find(query, theirs, theirs + 8 * WINDOW) < 0 \
                and buffer.find(client, *spans["run_keys"]) < 0 \
                and (not cap or buffer.find(client, *spans["flight_keys"]) < 0):
            return True
        # Something of either is in the table, or bytes that look like it across two slots.
        for name in (fingerprint, key):
            start = self._window(name, marks)
            keys = self._mark_keys[start:start + WINDOW]
            if name in keys and now - self._mark_at[start + keys.index(name)] < memory_s:
                return False
        if key in self._run_keys[:]:
            return False
        return not cap or self._flight_keys[:].count(key) < cap

    def in_flight(self, client: str) -> int:
        key = self.key(client)
        with self._locked():
            return self._flight_keys[:].count(key)

    # leases of queries running

    def start_running(self, client: str, now: float | None = None) -> int:
        """Record that a query of `client` started running in a query worker at `now`; the
        lease to give to `stop_running` (-1 when the table had no room: nothing recorded)."""
        now = time.monotonic() if now is None else now
        key = self.key(client)
        with self._locked():
            slot = self._free_lease(self._run_keys, self._run_pids)
            if slot >= 0:
                self._run_keys[slot] = key
                self._run_pids[slot] = os.getpid()
                self._run_since[slot] = now
        return slot

    def restart_running(self, lease: int, now: float) -> None:
        """The query of `lease` (this process's) started running only at `now`."""
        if lease < 0:
            return
        with self._locked():
            if self._run_pids[lease] == os.getpid() and self._run_keys[lease]:
                self._run_since[lease] = now

    def stop_running(self, lease: int) -> None:
        if lease < 0:
            return
        with self._locked():
            if self._run_pids[lease] == os.getpid():
                self._run_keys[lease] = 0
                self._run_pids[lease] = 0
                self._run_since[lease] = 0.0

    def running_since(self, client: str) -> float | None:
        """When the longest-running query of `client` now running, in any process, started."""
        key = self.key(client)
        with self._locked():
            if key not in self._run_keys[:]:
                return None
            self._drop_dead(self._run_keys, self._run_pids, key)
            since = [self._run_since[slot] for slot, held in enumerate(self._run_keys[:])
                     if held == key]
        return min(since) if since else None

    # ended processes

    def drop_process(self, pid: int) -> None:
        """Forget the leases of process `pid` (it has ended)."""
        with self._locked():
            for keys, pids in ((self._flight_keys, self._flight_pids),
                               (self._run_keys, self._run_pids)):
                for slot, owner in enumerate(pids[:]):
                    if owner == pid:
                        keys[slot] = 0
                        pids[slot] = 0

    def _drop_dead(self, keys: Any, pids: Any, key: int | None = None) -> None:
        """Free the leases (of `key`, or all) held by processes that are gone."""
        own = os.getpid()
        checked: dict[int, bool] = {own: True}
        for slot, (held, owner) in enumerate(zip(keys[:], pids[:], strict=True)):
            if held == 0 or (key is not None and held != key):
                continue
            if owner not in checked:
                checked[owner] = _alive(owner)
            if not checked[owner]:
                keys[slot] = 0
                pids[slot] = 0

    def _free_lease(self, keys: Any, pids: Any) -> int:
        column = keys[:]
        if 0 not in column:
            self._drop_dead(keys, pids)
            column = keys[:]
        if 0 in column:
            return column.index(0)
        if not self._warned_full:  # more queries at once than the table was sized for
            log.warning("the client table has no room for another lease (%d); queries "
                        "beyond it are not counted", len(column))
            self._warned_full = True
        return -1
