"""tf.test (TestCase's assertions, compute_gradient, the build and device queries) and tf.timestamp against TF
2.21 (the forty-fourth session, helper names44, clause api.namespaces; simdist/tf/_testing.py, simdist/tf/_clock.py).

Each case is one program, the same on both backends, returning plain Python values: a TestCase subclass's methods
are run one by one and each gives "pass", "skip" or its exception's class and message (the message's lines
without file paths); compute_gradient's Jacobians as lists (compared to rtol 1e-6); TF runs it in a worker
process (live or from the golden).
"""

from __future__ import annotations

import collections
import os
import re
import unittest
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", f()]
    except BaseException as e:  # noqa: BLE001 - the class and message are the observable (SystemExit too)
        return ["error", type(e).__name__, str(e)]


class _Result(unittest.TestResult):
    def __init__(self) -> None:
        super().__init__()
        self.outcome: list = ["pass"]

    def addFailure(self, test: Any, err: Any) -> None:  # noqa: N802 - unittest's name
        self.outcome = ["fail", err[0].__name__, str(err[1])]

    def addError(self, test: Any, err: Any) -> None:  # noqa: N802
        self.outcome = ["error", err[0].__name__, str(err[1])]

    def addSkip(self, test: Any, reason: str) -> None:  # noqa: N802
        self.outcome = ["skip", reason]


Pair = collections.namedtuple("Pair", ["a", "b"])


def make_testcase_class(tf: Any) -> Any:
    class T(tf.test.TestCase):
        def test_close_pass(self) -> None:
            self.assertAllClose([1.0, 2.0], tf.constant([1.0, 2.0000001]))

        def test_close_fail(self) -> None:
            self.assertAllClose(np.array([1.0, 2.0, 3.0]), tf.constant([1.0, 2.1, 3.0], tf.float64))

        def test_close_scalar_fail(self) -> None:
            self.assertAllClose(1.0, 1.001)

        def test_close_tolerances(self) -> None:
            self.assertAllClose([1.0, 2.0], [1.01, 2.02], rtol=1e-2, atol=0.0)

        def test_close_nested(self) -> None:
            self.assertAllClose({"x": [1.0, (2.0, 3.0)], "y": Pair(1.0, [4.0])},
                                {"x": [1.0, (2.0, 3.0)], "y": Pair(1.0, [4.0])})

        def test_close_nested_fail(self) -> None:
            self.assertAllClose({"x": [1.0, [2.0, 3.0]]}, {"x": [1.0, [2.0, 3.5]]})

        def test_close_dict_vs_list(self) -> None:
            self.assertAllClose({"x": 1.0}, [1.0])

        def test_close_keys(self) -> None:
            self.assertAllClose({"x": 1.0}, {"y": 1.0})

        def test_close_length(self) -> None:
            self.assertAllClose([1.0, [2.0]], [1.0, [2.0], 3.0])

        def test_close_shape(self) -> None:
            self.assertAllClose([[1.0, 2.0]], [1.0, 2.0])

        def test_close_nan(self) -> None:
            self.assertAllClose([np.nan, 1.0], [np.nan, 1.0])

        def test_close_nan_fail(self) -> None:
            self.assertAllClose([np.nan, 1.0], [0.0, 1.0])

        def test_close_bfloat16(self) -> None:
            self.assertAllClose(tf.constant([1.0, 3.0], tf.bfloat16), [1.0, 3.0])

        def test_close_float8(self) -> None:
            self.assertAllClose(tf.cast(tf.constant([1.5, 3.0]), tf.dtypes.experimental.float8_e4m3fn), [1.5, 3.0])

        def test_according_to_type_half(self) -> None:
            self.assertAllCloseAccordingToType(tf.constant([1.0, 2.0], tf.float16), np.array([1.0005, 2.001]))

        def test_according_to_type_float_fail(self) -> None:
            self.assertAllCloseAccordingToType(tf.constant([1.0, 2.0]), np.array([1.0005, 2.001], np.float32))

        def test_according_to_type_bfloat16(self) -> None:
            self.assertAllCloseAccordingToType(tf.constant([1.0, 2.0], tf.bfloat16), np.array([1.005, 2.01]))

        def test_not_all_close(self) -> None:
            self.assertNotAllClose([1.0, 2.0], [1.0, 2.0])

        def test_not_all_close_pass(self) -> None:
            self.assertNotAllClose([1.0, 2.0], [1.0, 2.5])

        def test_equal_pass(self) -> None:
            self.assertAllEqual(tf.constant([[1, 2]]), [[1, 2]])

        def test_equal_nan(self) -> None:
            self.assertAllEqual([np.nan, 1.0], tf.constant([np.nan, 1.0], tf.float64))

        def test_equal_fail(self) -> None:
            self.assertAllEqual([1, 2, 3], tf.constant([1, 5, 3]))

        def test_equal_shape(self) -> None:
            self.assertAllEqual([1, 2], [[1, 2]])

        def test_equal_strings(self) -> None:
            self.assertAllEqual(tf.constant(["a", "b"]), [b"a", b"b"])

        def test_equal_strings_fail(self) -> None:
            self.assertAllEqual(tf.constant(["a", "b"]), ["a", "c"])

        def test_not_all_equal(self) -> None:
            self.assertNotAllEqual([1, 2], [1, 2])

        def test_greater(self) -> None:
            self.assertAllGreater(tf.constant([2, 3]), 2)

        def test_less(self) -> None:
            self.assertAllLess(tf.constant([2.0, 3.0]), 4.0)

        def test_greater_equal(self) -> None:
            self.assertAllGreaterEqual([2, 3], 2)

        def test_less_equal(self) -> None:
            self.assertAllLessEqual([2, 5], 4)

        def test_in_range(self) -> None:
            self.assertAllInRange(tf.constant([0.0, 0.5, 1.0]), 0.0, 1.0)

        def test_in_range_open(self) -> None:
            self.assertAllInRange(tf.constant([[0.0, 0.5], [1.0, 2.0]]), 0.0, 1.0, open_lower_bound=True,
                                  open_upper_bound=True)

        def test_in_range_nan(self) -> None:
            self.assertAllInRange([np.nan, 0.5], 0.0, 1.0)

        def test_in_range_bool(self) -> None:
            self.assertAllInRange([True], 0, 1)

        def test_in_set(self) -> None:
            self.assertAllInSet(tf.constant([1, 2, 7, 9]), [1, 2, 3])

        def test_dtype_equal(self) -> None:
            self.assertDTypeEqual(tf.constant([1.0]), np.float32)

        def test_dtype_equal_fail(self) -> None:
            self.assertDTypeEqual(tf.constant([1]), np.int64)

        def test_shape_equal(self) -> None:
            self.assertShapeEqual(np.zeros([2, 3]), tf.zeros([2, 3]))

        def test_shape_equal_fail(self) -> None:
            self.assertShapeEqual(np.zeros([2, 3]), tf.zeros([3, 2]))

        def test_shape_equal_list(self) -> None:
            self.assertShapeEqual([1, 2], tf.zeros([2]))

        def test_near(self) -> None:
            self.assertNear(1.0, 1.05, 0.01)

        def test_array_near(self) -> None:
            self.assertArrayNear([1.0, 2.0], [1.0, 2.001], 1e-2)

        def test_array_near_length(self) -> None:
            self.assertArrayNear([1.0, 2.0], [1.0], 1e-2)

        def test_ndarray_near(self) -> None:
            self.assertNDArrayNear(np.array([1.0, 2.0]), np.array([1.0, 2.5]), 0.1)

        def test_raises_op_error(self) -> None:
            with self.assertRaisesOpError("Incompatible shapes"):
                tf.constant([1, 2]) + tf.constant([1, 2, 3])

        def test_raises_op_error_mismatch(self) -> None:
            with self.assertRaisesOpError("nothing like this"):
                tf.constant([1, 2]) + tf.constant([1, 2, 3])

        def test_raises_op_error_not_raised(self) -> None:
            with self.assertRaisesOpError("x"):
                tf.constant(1)

        def test_raises_predicate(self) -> None:
            with self.assertRaisesWithPredicateMatch(ValueError, lambda e: "bad" in str(e)):
                raise ValueError("a bad value")

        def test_evaluate(self) -> None:
            got = self.evaluate({"a": tf.constant([1, 2]), "b": (tf.constant(1.5), None)})
            self.assertEqual(sorted(got), ["a", "b"])
            self.assertEqual(type(got["a"]).__name__, "ndarray")
            self.assertEqual(got["a"].tolist(), [1, 2])
            self.assertEqual(got["b"][1], None)
            self.assertEqual(float(got["b"][0]), 1.5)

        def test_evaluate_sparse(self) -> None:
            v = self.evaluate(tf.SparseTensor([[0, 1]], [3.0], [2, 2]))
            self.fail(f"{type(v).__name__} {v.indices.tolist()} {v.values.tolist()} {v.dense_shape.tolist()}")

        def test_cached_session(self) -> None:
            with self.cached_session() as sess:
                self.fail(f"{type(sess).__name__} {sess.run(tf.constant([4, 5])).tolist()}")

        def test_session_warner(self) -> None:
            with self.session() as sess:
                sess.run(tf.constant(1))

        def test_seeds(self) -> None:
            self.fail(f"{np.random.randint(1000)} {np.random.rand():.12f}")

        def test_temp_dir(self) -> None:
            d = self.get_temp_dir()
            self.assertTrue(os.path.isdir(d))
            self.assertEqual(d, self.get_temp_dir())

        def test_starts_with(self) -> None:
            self.assertStartsWith("abc", "b", msg="why")

        def test_items_equal(self) -> None:
            self.assertItemsEqual([0, 1, 1], [1, 0, 1])
            self.assertItemsEqual([0, 0, 1], [0, 1])

        @tf.test.disable_with_predicate(lambda: True, "disabled here")
        def test_disabled(self) -> None:
            self.fail("ran")

        @tf.test.disable_with_predicate(lambda: False, "disabled here")
        def test_not_disabled(self) -> None:
            self.fail("ran")

        def test_session_method(self) -> None:
            self.fail("ran")
    return T


def _clean(outcome: list) -> list:
    """An outcome's message without the lines NumPy's assert adds that name a file or depend on its version."""
    if len(outcome) < 3:
        return outcome
    lines = [ln for ln in outcome[2].split("\n") if "File \"" not in ln]
    text = "\n".join(lines)
    # (an error class's module path is each backend's own; TF's eager op errors carry the function_node prefix and
    # a trailing " name: " that simdist's messages leave out)
    text = re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class \1>", text)
    text = re.sub(r"\{\{function_node [^}]*\}\} ", "", text).replace(" name: ", "")
    return outcome[:2] + [text]


def assertions(tf: Any) -> Any:
    T = make_testcase_class(tf)
    out: dict[str, Any] = {}
    for name in sorted(n for n in dir(T) if n.startswith("test_")):
        result = _Result()
        T(name).run(result)
        out[name] = _clean(result.outcome)
    out["with_eager_op_as_function"] = [tf.test.with_eager_op_as_function(T) is T,
                                        tf.test.with_eager_op_as_function()(T) is T]
    out["is subclass of unittest"] = issubclass(tf.test.TestCase, unittest.TestCase)
    return out


def _jacobians(r: Any) -> Any:
    return [[[str(j.dtype), j.tolist()] for j in side] for side in r]


def compute_gradient(tf: Any) -> Any:
    cg = tf.test.compute_gradient
    out: dict[str, Any] = {}
    out["square"] = attempt(lambda: _jacobians(cg(lambda x: x * x, [1.5])))
    out["matmul"] = attempt(lambda: _jacobians(cg(lambda x, y: tf.matmul(x, y), [[[1.0, 2.0]], [[3.0], [4.0]]])))
    out["float64 polynomial"] = attempt(lambda: _jacobians(cg(
        lambda x: x * x * x - 2.0 * x, [np.array([0.5, -1.25, 2.0])])))
    out["reduce"] = attempt(lambda: _jacobians(cg(lambda x: tf.reduce_sum(x * x, axis=1), [[[1.0, 2.0], [3.0, 4.0]]])))
    out["gather"] = attempt(lambda: _jacobians(cg(lambda x: tf.gather(x, [1, 1, 0]), [[[1.0, 2.0], [3.0, 4.0]]])))
    out["complex"] = attempt(lambda: _jacobians(cg(lambda x: x * x, [np.array([1.0 + 2.0j], np.complex64)])))
    out["delta"] = attempt(lambda: _jacobians(cg(lambda x: x * x * x, [2.0], delta=0.5)))
    out["function"] = attempt(lambda: _jacobians(cg(tf.function(lambda x: x * 3.0 + 1.0), [[1.0, 2.0]])))
    out["relu"] = attempt(lambda: _jacobians(cg(tf.nn.relu, [[-1.0, 2.0]])))
    out["empty"] = attempt(lambda: _jacobians(cg(lambda x: x[:0], [[1.0, 2.0]])))
    out["not a list"] = attempt(lambda: cg(lambda x: x, 1.0))
    out["int argument"] = attempt(lambda: cg(lambda x: x, [1]))
    return out


def queries(tf: Any) -> Any:
    out: dict[str, Any] = {}
    out["build"] = [tf.test.is_built_with_cuda(), tf.test.is_built_with_rocm(), tf.test.is_built_with_gpu_support(),
                    tf.test.is_built_with_xla()]
    out["gpu"] = [tf.test.is_gpu_available(), tf.test.is_gpu_available(True), tf.test.is_gpu_available(False, (3, 0)),
                  tf.test.gpu_device_name()]
    a = tf.timestamp()
    b = tf.timestamp(name="t")
    f = tf.function(lambda: tf.timestamp())
    c, d = f(), f()
    out["timestamp"] = [a.dtype.name, a.shape.as_list(), bool(b >= a), c.dtype.name, bool(d >= c), bool(c >= b),
                        type(a.numpy()).__name__]
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"assertions": assertions, "compute-gradient": compute_gradient,
                                             "queries": queries}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_tf_test_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = []
    for k in want:
        if name == "compute-gradient" and want[k][0] == "ok" and got[k][0] == "ok":
            for side_g, side_w in zip(got[k][1], want[k][1]):
                for (dg, jg), (dw, jw) in zip(side_g, side_w):
                    if dg != dw or np.shape(jg) != np.shape(jw) or not np.allclose(jg, jw, rtol=1e-6, atol=1e-7):
                        bad.append(k)
        elif got[k] != want[k]:
            bad.append(k)
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
