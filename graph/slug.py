"""Deterministic, IRI-safe slugs and the normalisation key that decides when two labels are one.

Two labels with the same `label_key` are the same name (case, hyphen/space/underscore and
Unicode-form variants); `slugify` is injective over keys: a readable ASCII part, plus a short
hash whenever folding to ASCII lost information, so shards built apart merge by IRI and two
different names never share one.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

_SEPARATORS = re.compile(r"[\s\-‐‑‒–—_/·]+")
_UNSAFE = re.compile(r"[^a-z0-9.+]+")
MAX_READABLE = 60
#: How a hashed slug ends; a readable slug that ends so is hashed too, or the two could meet.
_DIGEST_TAIL = re.compile(r"(?:^|-)[0-9a-f]{8}$")


def label_key(label: str) -> str:
    """Case-, width- and separator-insensitive key of a label."""
    text = unicodedata.normalize("NFKC", label).casefold().strip()
    return _SEPARATORS.sub(" ", text).strip()


def slugify(label: str) -> str:
    key = label_key(label)
    folded = unicodedata.normalize("NFKD", key).encode("ascii", "ignore").decode("ascii")
    readable = _UNSAFE.sub("-", folded).strip("-.")[:MAX_READABLE].strip("-.")
    # The readable part is lossless only when it maps back to the key exactly.
    if readable and readable.replace("-", " ") == key and not _DIGEST_TAIL.search(readable):
        return readable
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:8]
    return f"{readable}-{digest}" if readable else digest
