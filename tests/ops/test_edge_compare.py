"""The edge modules' shared comparison (tests/ops/edge_compare.py) tells outcomes apart."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import edge_compare
from edge_compare import bits_agree, check_outcome, outcome, same_bits, within

BF16 = ml_dtypes.bfloat16


def test_same_bits_tells_signed_zeros_apart_and_matches_any_nan() -> None:
    zero, nan1 = np.array([0.0, np.nan]), np.array([-0.0, -np.nan])
    assert not same_bits(zero, nan1), "0.0 and -0.0 compared equal"
    assert same_bits(np.array([np.nan]), np.array([-np.nan])), "two NaNs compared unequal"
    assert not same_bits(np.array([1], np.int32), np.array([1], np.int64)), "int32 and int64 compared equal"


def test_bfloat16_compares_bit_for_bit() -> None:
    got = np.array([0.0, np.nan, 1.0, 3.0], BF16)
    want = np.array([-0.0, -np.nan, 1.0, 3.015625], BF16)
    agree = bits_agree(got, want).tolist()
    assert agree == [False, True, True, False], f"bits_agree={agree}, but should be [False, True, True, False] " \
                                                f"(signed zero, NaN, equal, one bfloat16 ulp)"


@pytest.mark.parametrize("got, want, rtol, floors, expected", [
    ([1.0, 2.0], [1.0 + 1e-7, 2.0], 1e-6, None, [True, True]),
    ([1.0, 2.0], [1.0 + 1e-5, 2.0], 1e-6, None, [False, True]),
    ([np.inf, -np.inf, np.nan], [np.inf, np.inf, np.nan], 1e-3, None, [True, False, True]),
    ([np.nan, 1.0], [1.0, np.nan], 1e-3, None, [False, False]),
    ([0.0, 1e-9], [-0.0, 0.0], 1e-6, None, [True, True]),          # atol = rtol * 1e-3
    ([0.0, 1e-9], [-0.0, 0.0], 0.0, None, [False, False]),          # rtol 0: bit for bit
])
def test_within_compares_elementwise(got: list, want: list, rtol: float, floors: dict | None,
                                     expected: list) -> None:
    agree = within(rtol, floors)(np.array(got), np.array(want)).tolist()
    assert agree == expected, f"within({rtol})({got}, {want})={agree}, but should be {expected}"


def test_within_floors_widen_a_dtype() -> None:
    got, want = np.array([1.0], np.float16), np.array([1.0009766], np.float16)   # one float16 ulp
    assert not within(1e-5)(got, want).all(), "one float16 ulp passed rtol 1e-5 without a floor"
    assert within(1e-5, {"float16": 1e-3})(got, want).all(), "one float16 ulp failed with a float16 floor of 1e-3"


@pytest.mark.parametrize("want, got", [
    (("err", "ValueError"), ("err", "TypeError")),
    (("err", "ValueError"), ("ok", [("float32", np.zeros(1, np.float32))])),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("err", "TypeError")),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("ok", [("float64", np.zeros(1))])),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("ok", [("float32", -np.zeros(1, np.float32))])),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("ok", [("float32", np.zeros(2, np.float32))])),
    (("ok", [("float32", np.zeros(1, np.float32))]), ("ok", [])),
])
def test_check_outcome_refuses_a_different_outcome(want: tuple, got: tuple) -> None:
    with pytest.raises(AssertionError):
        check_outcome("case", want, got)


def test_check_outcome_accepts_the_same_outcome() -> None:
    check_outcome("case", ("err", "ValueError"), ("err", "ValueError"))
    check_outcome("case", ("ok", [("float32", np.array([np.nan], np.float32))]),
                  ("ok", [("float32", np.array([np.nan], np.float32))]))
    check_outcome("case", ("ok", [("float32", np.array([1.0], np.float32))]),
                  ("ok", [("float32", np.array([1.0 + 1e-7], np.float32))]), within(1e-6))


def test_check_outcome_names_the_first_differences() -> None:
    want = ("ok", [("float32", np.array([[0.0, 1.0], [2.0, np.nan]], np.float32))])
    got = ("ok", [("float32", np.array([[-0.0, 1.0], [2.0, 3.0]], np.float32))])
    with pytest.raises(AssertionError) as e:
        check_outcome("the-case", want, got)
    text = str(e.value)
    for part in ("2 of 4 differ", "(0, 0): -0.0 vs 0.0", "(1, 1): 3.0 vs nan", "[the-case]"):
        assert part in text, f"the failure message {text!r} lacks {part!r}"


def test_outcome_flattens_outputs_and_names_what_is_not_a_tensor() -> None:
    class Tensor:   # a tensor as both backends' have: .dtype.name and .numpy()
        def __init__(self, a: np.ndarray) -> None:
            self.a, self.dtype = a, a.dtype

        def numpy(self) -> np.ndarray:
            return self.a

    t = Tensor(np.array([1.0], np.float32))
    got = outcome(lambda tf: [t, (t, [np.array([2], np.int8)]), True], None)
    names = [d for d, _ in got[1]]
    assert names == ["float32", "float32", "ndarray int8", "bool"], \
        f"output names {names}, but should be ['float32', 'float32', 'ndarray int8', 'bool']"
    err = outcome(lambda tf: 1 / 0, None)
    assert err == ("err", "ZeroDivisionError"), f"outcome of 1/0 is {err}, but should be ('err', 'ZeroDivisionError')"


def test_edge_module_names_groups_no_test_runs() -> None:
    cases = [("a", "g1", lambda tf: 1), ("b", "g2", lambda tf: 2), ("c", "g1", lambda tf: 3)]
    module = edge_compare.EdgeModule(__file__, cases)
    mark = module.parametrize("g1")
    assert mark.args[1] == [0, 2] and mark.kwargs["ids"] == ["a", "c"], \
        f"parametrize('g1') gives {mark.args[1]} {mark.kwargs['ids']}, but should be [0, 2] ['a', 'c']"
    assert module.untested() == ["g2"], f"untested()={module.untested()}, but should be ['g2']"
    with pytest.raises(AssertionError):
        module.parametrize("g3")
