"""AAAI 2022 primary areas as research-area gold (`tests/gold/aaai-areas.json`).

The paper lists' texts are not shipped (their licence): the gold file holds ids, tracks, the
split and the area slugs; the titles and abstracts are read from the paper lists file
(`<shared>/paperlists/abstracts.jsonl.gz`) when the gold is scored.
"""

from __future__ import annotations

import gzip
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from graph.errors import InputError
from graph.eval.splits import AAAI_DEV_SHARE, is_dev
from graph.paths import ROOT
from graph.venue_tracks import TRACK_AREAS  # noqa: F401 - the gold's mapping, read from here too

#: `--shared` default: the shared data folder next to the repository
DEFAULT_SHARED = ROOT.parent / "shared" / "data"
PAPERLISTS = Path("paperlists") / "abstracts.jsonl.gz"

SOURCE = (
    "AAAI 2022 papers with a primary area, from the paper lists (papercopilot/paperlists @ "
    "33f9884e, ../shared/data/paperlists); ids, tracks and area slugs only, the texts are read "
    "from the paper lists file at eval time. Split by graph.splits (30 % dev by a hash of the id)."
)


def shared_dir(option: str | Path | None = None) -> Path:
    """The shared data folder: the option, else $PAPERKG_SHARED, else ../shared/data."""
    value = option or os.environ.get("PAPERKG_SHARED") or DEFAULT_SHARED
    return Path(value)


def paperlists_path(shared: str | Path | None = None) -> Path:
    path = shared_dir(shared) / PAPERLISTS
    if not path.is_file():
        raise InputError(
            f"{path}: paper lists file not found (give the shared data folder with --shared DIR "
            "or PAPERKG_SHARED)"
        )
    return path


def read_paperlists(path: Path) -> Iterator[dict]:
    try:
        with gzip.open(path, "rt", encoding="utf-8") as handle:
            for n, line in enumerate(handle, 1):
                if line.strip():
                    try:
                        yield json.loads(line)
                    except json.JSONDecodeError as exc:
                        raise InputError(f"{path}:{n}: not a JSON line: {exc}") from None
    except (OSError, EOFError) as exc:
        raise InputError(f"{path}: not a readable gzip file: {exc}") from None


def records_by_id(ids: Iterable[str], shared: str | Path | None = None) -> dict[str, dict]:
    """The paper lists records with these ids; an id not found is an error naming it."""
    want = set(ids)
    path = paperlists_path(shared)
    found = {r["id"]: r for r in read_paperlists(path) if r.get("id") in want}
    missing = sorted(want - set(found))
    if missing:
        raise InputError(
            f"{path}: {len(missing)} gold paper id(s) not in the paper lists, e.g. {missing[0]}"
        )
    return found


def build(path: Path) -> dict:
    """The areas gold from the paper lists file: every AAAI 2022 paper with a mapped track."""
    papers, tracks = [], set()
    for record in read_paperlists(path):
        track = record.get("primary_area")
        if record.get("venue") != "AAAI" or not track:
            continue
        if track not in TRACK_AREAS:
            raise InputError(f"{path}: paper {record['id']}: track {track!r} has no mapping")
        tracks.add(track)
        if not TRACK_AREAS[track]:
            continue
        papers.append({
            "id": record["id"],
            "track": track,
            "split": "dev" if is_dev(record["id"], AAAI_DEV_SHARE) else "train",
            "domains": list(TRACK_AREAS[track]),
        })
    papers.sort(key=lambda p: p["id"])
    mapping = {t: list(TRACK_AREAS[t]) for t in sorted(tracks)}
    return {"version": 1, "source": SOURCE, "mapping": mapping, "papers": papers}
