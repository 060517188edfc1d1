"""Cross-validation folds over the tagger's training documents (train splits only).

A document's fold is fixed by a hash of its id alone (as graph.eval.splits fixes the dev split), so
the folds stay the same when the corpus copies are read in another order. Only SciERC train
documents and SciREX train-split papers are ever assigned: SciERC dev and the SciREX dev split
are not read by anything here.
"""

from __future__ import annotations

import re

from graph.errors import InputError
from graph.eval.splits import bucket

#: salt of the fold hash: the folds must not follow the dev split's buckets
_SALT = "tagger-cv:"
_FOLD = re.compile(r"^(\d+)/(\d+)$")


def fold_of(doc_id: str, k: int) -> int:
    """The fold (0 .. k-1) of a training document."""
    if k < 2:
        raise ValueError(f"folds: need at least 2, got {k}")
    return int(bucket(_SALT + doc_id) * k)


def parse_fold(spec: str) -> tuple[int, int]:
    """"i/K" -> (i, K), with 0 <= i < K and K >= 2."""
    m = _FOLD.match(spec.strip())
    if not m or not 0 <= int(m.group(1)) < int(m.group(2)) or int(m.group(2)) < 2:
        raise InputError(f"--fold: expected i/K with 0 <= i < K and K >= 2, got {spec!r}")
    return int(m.group(1)), int(m.group(2))
