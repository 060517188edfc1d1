"""Fixed train/dev splits of the annotated corpora, chosen by a hash of each record's id.

A record's split depends on its id alone, never on which other records exist, so the dev papers
stay the dev papers when a corpus copy grows, shrinks or is read in another order.
"""

from __future__ import annotations

import hashlib

#: SciREX train documents held out as its dev split (by `doc_id`).
SCIREX_DEV_SHARE = 0.2
#: AAAI 2022 papers with a primary area held out as the areas dev split (by paper `id`).
AAAI_DEV_SHARE = 0.3


def bucket(record_id: str) -> float:
    """A number in [0, 1) fixed by the id: the first 8 bytes of its SHA-256."""
    digest = hashlib.sha256(record_id.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def is_dev(record_id: str, share: float) -> bool:
    """True for the ids that fall in the first `share` of the buckets."""
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must be within [0, 1], got {share}")
    return bucket(record_id) < share
