"""The edge modules' shared comparison (tests/ops/edge_compare.py) tells outcomes apart."""

from __future__ import annotations

import numpy as np
import pytest

from edge_compare import check_outcome, same_bits


def test_same_bits_tells_signed_zeros_apart_and_matches_any_nan() -> None:
    zero, nan1 = np.array([0.0, np.nan]), np.array([-0.0, -np.nan])
    assert not same_bits(zero, nan1), "0.0 and -0.0 compared equal"
    assert same_bits(np.array([np.nan]), np.array([-np.nan])), "two NaNs compared unequal"
    assert not same_bits(np.array([1], np.int32), np.array([1], np.int64)), "int32 and int64 compared equal"


@pytest.mark.parametrize("want, got", [
    (("err", "ValueError"), ("err", "TypeError")),
    (("err", "ValueError"), ("ok", [("float32", np.zeros(1, np.float32))])),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("err", "TypeError")),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("ok", [("float64", np.zeros(1))])),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("ok", [("float32", -np.zeros(1, np.float32))])),
])
def test_check_outcome_refuses_a_different_outcome(want: tuple, got: tuple) -> None:
    with pytest.raises(AssertionError):
        check_outcome("case", want, got)


def test_check_outcome_accepts_the_same_outcome() -> None:
    check_outcome("case", ("err", "ValueError"), ("err", "ValueError"))
    check_outcome("case", ("ok", [("float32", np.array([np.nan], np.float32))]),
                  ("ok", [("float32", np.array([np.nan], np.float32))]))
