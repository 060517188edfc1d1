import hashlib

import pytest

from graph.eval.splits import bucket, is_dev


def test_bucket_is_the_first_eight_bytes_of_the_sha256():
    digest = hashlib.sha256(b"0012de6bec1f25599e4f02517637e531a71909b9").digest()
    assert bucket("0012de6bec1f25599e4f02517637e531a71909b9") == int.from_bytes(
        digest[:8], "big"
    ) / 2**64


def test_share_of_dev_ids_is_close_to_the_asked_share():
    ids = [f"paper-{n}" for n in range(5000)]
    share = sum(is_dev(i, 0.2) for i in ids) / len(ids)
    assert 0.18 < share < 0.22


def test_split_depends_on_the_id_alone():
    assert is_dev("x", 0.0) is False
    assert is_dev("x", 1.0) is True
    assert [is_dev(i, 0.3) for i in ("a", "b", "c")] == [is_dev(i, 0.3) for i in ("a", "b", "c")]


def test_share_outside_unit_interval_is_refused():
    with pytest.raises(ValueError, match="share"):
        is_dev("x", 1.5)
