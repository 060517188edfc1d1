"""The on-disk layout of an embedded store: a symlink to one generation, a complete Oxigraph
database, in a folder beside it, and the lock its one writer holds:

    .paperkg/store -> store.d/<generation>/
    .paperkg/store.d/writer.lock

`publish` makes a new generation and switches the link with `os.replace`, so a failure or a
kill at any point leaves the previous generation readable and unchanged. `generation` names
the one the link points to now. What a generation holds, and opening it, is
graph.store.embedded's.
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import stat
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO

from graph.errors import StoreError


def store_error(path: str | os.PathLike, action: str, exc: BaseException) -> StoreError:
    """The one-line error of a store that could not be `action`ed ("read", "write" …)."""
    reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    if isinstance(exc, OSError) and exc.errno == errno.ENOSPC:
        reason = "no space left on the device"
    return StoreError(f"cannot {action} the store at {path}: {reason}")


class Generations:
    """The link at `location`, the generations folder beside it and the writer's lock."""

    def __init__(self, location: str) -> None:
        self.location = location
        self.path = Path(location)
        self.folder = self.path.with_name(self.path.name + ".d")
        self._lock: IO[bytes] | None = None
        self._last_seen: tuple[tuple[int, int, int, int], str] | None = None

    def current_name(self) -> str | None:
        """The generation the symlink points to; None for a plain folder (made elsewhere)."""
        try:
            return os.path.basename(os.readlink(self.path))
        except OSError as exc:
            if exc.errno == errno.EINVAL:  # not a symbolic link
                return None
            raise

    def generation(self) -> str:
        """An id of the store's content on disk now; it changes whenever the content does."""
        # Asked before every query: one look at the path's own entry. A switch replaces the
        # link (a new inode, new times), so the link is read again only when the entry changed.
        try:
            seen = os.lstat(self.location)
            entry = (seen.st_ino, seen.st_mtime_ns, seen.st_ctime_ns, seen.st_mode)
            last = self._last_seen
            if last is not None and last[0] == entry:
                return last[1]
            if stat.S_ISLNK(seen.st_mode):
                name = os.path.basename(os.readlink(self.path))
            else:  # a plain folder (made elsewhere)
                name = f"folder-{seen.st_ino:x}-{seen.st_mtime_ns:x}"
        except OSError as exc:
            raise store_error(self.location, "read", exc) from None
        self._last_seen = (entry, name)
        return name

    def lock_for_writing(self, make_empty: Callable[[str], None]) -> None:
        """Take the writer's lock, or fail when another process holds it; publish a first
        generation with `make_empty(folder)` where there is no store yet."""
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._lock = open(self.folder / "writer.lock", "wb")
        except OSError as exc:
            raise store_error(self.location, "create", exc) from None
        try:
            fcntl.flock(self._lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.release()
            raise StoreError(
                f"the store at {self.location} is being written by another process"
            ) from None
        try:
            if not os.path.lexists(self.path):
                self.publish(make_empty)
            elif not self.path.exists():
                raise StoreError(f"the store at {self.location} is a broken link")
            else:
                self.remove_stale(keep_previous=True)
        except OSError as exc:
            self.release()
            raise store_error(self.location, "create", exc) from None
        except StoreError:
            self.release()
            raise

    def release(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def publish(self, fill: Callable[[str], None]) -> None:
        """Make a new generation with `fill(folder)` and switch the link to it."""
        generation = f"{time.time_ns():016x}-{uuid.uuid4().hex[:8]}"
        folder = self.folder / generation
        try:
            fill(str(folder))
            if os.path.lexists(self.path) and self.current_name() is None:
                self._adopt_folder()
            link = self.path.with_name(f".{self.path.name}.{generation}.link")
            os.symlink(os.path.join(self.folder.name, generation), link)
            try:
                os.replace(link, self.path)
            except OSError:
                os.unlink(link)
                raise
        except BaseException:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        self.remove_stale(keep_previous=True)

    def _adopt_folder(self) -> None:
        """Move a plain store folder (made by `oxigraph load`, say) under store.d/ so the
        symlink can take its place. Readers opening in this instant find no store."""
        os.rename(self.path, self.folder / f"{time.time_ns():016x}-adopted")

    def remove_stale(self, *, keep_previous: bool) -> None:
        """Generations no link points to (replaced, or left by a failed or killed write),
        except the newest replaced one when `keep_previous`."""
        current = self.current_name()
        others = sorted(
            (entry for entry in self.folder.iterdir()
             if entry.is_dir() and entry.name != current),
            key=lambda entry: entry.name,
        )
        if keep_previous and others:
            others.pop()
        for entry in others:
            shutil.rmtree(entry, ignore_errors=True)
        for entry in self.path.parent.glob(f".{self.path.name}.*.link"):
            entry.unlink(missing_ok=True)
