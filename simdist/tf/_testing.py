"""tf.test (names44, clause api.namespaces): TestCase's assertions, main, the build and device queries, and
compute_gradient.

Transcribed from TF 2.21's tensorflow/python/framework/test_util.py (TensorFlowTestCase: setUp's seeds, evaluate,
assertAllClose and its recursion over nested structures with the custom float types compared in float32,
assertAllCloseAccordingToType's per-dtype tolerances, assertAllEqual with NaN equal to NaN for floats, the ordered
comparisons, assertAllInRange / InSet, assertDTypeEqual, assertShapeEqual, assertNear, assertArrayNear,
assertNDArrayNear, assertRaisesOpError / WithPredicateMatch, cached_session / session in eager mode, get_temp_dir),
platform/test.py (is_built_with_cuda/rocm/gpu_support/xla, is_gpu_available, gpu_device_name: what TF 2.21's CPU
build answers, with the simulated machine's GPUs standing for the host's) and ops/gradient_checker_v2.py
(compute_gradient: the theoretical Jacobian row by row through a GradientTape, the numeric one by central
differences with delta 1/1024). Not modelled: the assertions inside a tf.function (TF wraps them in a py_func), TF1
graph sessions (cached_session and session yield TF's eager stand-ins), assertProtoEquals, Benchmark,
create_local_cluster, assert_equal_graph_def, benchmark_config.
"""

from __future__ import annotations

import collections.abc
import contextlib
import math
import random
import re
import tempfile
import unittest
from typing import Any

import numpy as np

DEFAULT_GRAPH_SEED = 87654321   # (random_seed.DEFAULT_GRAPH_SEED)


def _tf() -> Any:
    from simdist import tf
    return tf


def _is_tensor(x: Any) -> bool:
    tf = _tf()
    return isinstance(x, (tf.Tensor, tf.Variable, tf.SparseTensor, tf.RaggedTensor, tf.IndexedSlices))


def _np_where(cond: Any) -> Any:
    return np.where(cond)


class FakeEagerSession:
    """test_util.FakeEagerSession: what `cached_session()` yields eagerly; run(fetches) evaluates them."""

    def __init__(self, test_case: Any) -> None:
        self._test_case = test_case

    def run(self, fetches: Any, *args: Any, **kwargs: Any) -> Any:
        if args or kwargs:
            raise RuntimeError("This fake session does not support session.run() arguments.")
        return self._test_case.evaluate(fetches)


class EagerSessionWarner:
    """test_util.EagerSessionWarner: what `session()` yields eagerly; any attribute is AttributeError."""

    def __getattr__(self, attr: str) -> Any:
        raise AttributeError("Trying to access properties or call methods on the result of self.session(), "
                             "self.cached_session(), etc while eager execution is enabled. If you're porting this "
                             "test case to TF 2.0, either adapt the test to work with eager execution or insert a "
                             "call to tf.disable_eager_execution() in the main() function of this test file.")


class TestCase(unittest.TestCase):
    """tf.test.TestCase (TensorFlowTestCase)."""

    def __init__(self, methodName: str = "runTest") -> None:  # noqa: N803 - unittest's name
        super().__init__(methodName)
        self._tempdir: str | None = None

    def setUp(self) -> None:  # noqa: N802 - unittest's name
        super().setUp()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        _tf().random.set_seed(DEFAULT_GRAPH_SEED)
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")

    # --- evaluation -------------------------------------------------------------------------------------------
    def evaluate(self, tensors: Any) -> Any:
        if tensors is None:
            return None
        return _tf().nest.map_structure(self._eval_tensor, tensors)

    def _eval_tensor(self, tensor: Any) -> Any:
        tf = _tf()
        if tensor is None:
            return None
        if callable(tensor) and not hasattr(tensor, "numpy"):
            return self.evaluate(tensor())
        try:
            if isinstance(tensor, tf.SparseTensor):
                return SparseTensorValue(tensor.indices.numpy(), tensor.values.numpy(), tensor.dense_shape.numpy())
            if isinstance(tensor, tf.IndexedSlices):
                return IndexedSlicesValue(tensor.values.numpy(), tensor.indices.numpy(),
                                           None if tensor.dense_shape is None else tensor.dense_shape.numpy())
            if hasattr(tensor, "numpy") and callable(tensor.numpy):
                return tensor.numpy()
            return tf.nest.map_structure(lambda t: t.numpy(), tensor, expand_composites=True)
        except AttributeError as e:
            raise ValueError(f"Unsupported type {type(tensor).__name__!r}.") from e

    def evaluate_if_both_tensors(self, a: Any, b: Any) -> Any:
        return (a, b)   # (eager tensors are evaluated by _GetNdArray)

    def _GetNdArray(self, a: Any) -> np.ndarray:  # noqa: N802 - TF's name
        if _is_tensor(a):
            a = a.numpy() if hasattr(a, "numpy") else self.evaluate(a)
        if not isinstance(a, np.ndarray):
            try:
                return np.array(a)
            except ValueError as e:
                if "inhomogeneous shape" in str(e):
                    return np.array(a, dtype=object)
                raise
        return a

    # --- closeness ----------------------------------------------------------------------------------------------
    def _assertArrayLikeAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                 msg: Any = None) -> None:
        from simdist.runtime import dtypes
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            shape_mismatch_msg = f"Shape mismatch: expected {a.shape}, got {b.shape} with contents {b}."
        else:
            shape_mismatch_msg = f"Shape mismatch: expected {a.shape}, got {b.shape}."
        self.assertEqual(a.shape, b.shape, shape_mismatch_msg)
        msgs = [msg]
        a_dtype = a.dtype
        custom = tuple(np.dtype(d.np) for d in (dtypes.bfloat16, dtypes.float8_e5m2, dtypes.float8_e4m3fn,
                                                   dtypes.float8_e4m3fnuz, dtypes.float8_e4m3b11fnuz,
                                                   dtypes.float8_e5m2fnuz))
        a = a.astype(np.float32) if a.dtype in custom else a
        b = b.astype(np.float32) if b.dtype in custom else b
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b), np.isnan(a) != np.isnan(b))
            if a.ndim:
                x = a[_np_where(cond)]
                y = b[_np_where(cond)]
                msgs.append(f"not close where = {_np_where(cond)}")
            else:
                x, y = a, b
            msgs.append(f"not close lhs = {x}")
            msgs.append(f"not close rhs = {y}")
            msgs.append(f"not close dif = {np.abs(x - y)}")
            msgs.append(f"not close tol = {atol + rtol * np.abs(y)}")
            msgs.append(f"dtype = {a_dtype}, shape = {a.shape}")
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg="\n".join(str(m) for m in msgs),
                                       equal_nan=True)

    def _assertAllCloseRecursive(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                 path: Any = None, msg: Any = None) -> None:
        path = path or []
        path_str = ("[" + "][".join(str(p) for p in path) + "]") if path else ""
        msg = msg if msg else ""
        if hasattr(a, "_asdict"):
            a = a._asdict()
        if hasattr(b, "_asdict"):
            b = b._asdict()
        a_is_dict = isinstance(a, collections.abc.Mapping)
        if a_is_dict != isinstance(b, collections.abc.Mapping):
            raise ValueError(f"Can't compare dict to non-dict, a{path_str} vs b{path_str}. {msg}")
        if a_is_dict:
            self.assertItemsEqual(a.keys(), b.keys(), msg=f"mismatched keys: a{path_str} has keys {a.keys()}, but "
                                                          f"b{path_str} has keys {b.keys()}. {msg}")
            for k in a:
                path.append(k)
                self._assertAllCloseRecursive(a[k], b[k], rtol=rtol, atol=atol, path=path, msg=msg)
                del path[-1]
        elif isinstance(a, (list, tuple)):
            try:
                a_as_ndarray = self._GetNdArray(a)
                b_as_ndarray = self._GetNdArray(b)
                self._assertArrayLikeAllClose(a_as_ndarray, b_as_ndarray, rtol=rtol, atol=atol,
                                              msg=f"Mismatched value: a{path_str} is different from b{path_str}. {msg}")
            except (ValueError, TypeError, NotImplementedError):
                if len(a) != len(b):
                    raise ValueError(f"Mismatched length: a{path_str} has {len(a)} items, but b{path_str} has "
                                     f"{len(b)} items. {msg}") from None
                for idx, (a_ele, b_ele) in enumerate(zip(a, b)):
                    path.append(str(idx))
                    self._assertAllCloseRecursive(a_ele, b_ele, rtol=rtol, atol=atol, path=path, msg=msg)
                    del path[-1]
        else:
            try:
                self._assertArrayLikeAllClose(a, b, rtol=rtol, atol=atol,
                                              msg=f"Mismatched value: a{path_str} is different from b{path_str}. {msg}")
            except TypeError as e:
                msg = f"Error: a{path_str} has {type(a)}, but b{path_str} has {type(b)}. {msg}"
                e.args = ((e.args[0] + " : " + msg,) + e.args[1:])
                raise

    def assertAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                       msg: Any = None) -> None:
        self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllCloseAccordingToType(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                                      float_rtol: float = 1e-6, float_atol: float = 1e-6, half_rtol: float = 1e-3,
                                      half_atol: float = 1e-3, bfloat16_rtol: float = 1e-2,
                                      bfloat16_atol: float = 1e-2, msg: Any = None) -> None:
        from simdist.runtime import dtypes
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if a.dtype == np.float32 or b.dtype == np.float32 or a.dtype == np.complex64 or b.dtype == np.complex64:
            rtol = max(rtol, float_rtol)
            atol = max(atol, float_atol)
        if a.dtype == np.float16 or b.dtype == np.float16:
            rtol = max(rtol, half_rtol)
            atol = max(atol, half_atol)
        if a.dtype == dtypes.bfloat16.np or b.dtype == dtypes.bfloat16.np:
            rtol = max(rtol, bfloat16_rtol)
            atol = max(atol, bfloat16_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a: Any, b: Any, rtol: float = 1e-6, atol: float = 1e-6,  # noqa: N802
                          msg: Any = None) -> None:
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        msg = msg or ""
        raise AssertionError(f"The two values are close at all elements. {msg}")

    # --- equality and order -------------------------------------------------------------------------------------
    def assertAllEqual(self, a: Any, b: Any, msg: Any = None) -> None:  # noqa: N802
        from simdist.runtime import dtypes
        msg = msg if msg else ""
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        if b.ndim <= 3 or b.size < 500:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. Contents: "
                                               f"{b!r}. \n{msg}.")
        else:
            self.assertEqual(a.shape, b.shape, f"Shape mismatch: expected {a.shape}, got {b.shape}. {msg}")
        same = a == b
        if dtypes.as_dtype(a.dtype).is_floating:
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        msgs = [msg]
        if not np.all(same):
            diff = np.logical_not(same)
            if a.ndim:
                x = a[_np_where(diff)]
                y = b[_np_where(diff)]
                msgs.append(f"not equal where = {_np_where(diff)}")
            else:
                x, y = a, b
            msgs.append("not equal lhs = %r" % (x,))
            msgs.append("not equal rhs = %r" % (y,))
            if a.dtype.kind != b.dtype.kind and {a.dtype.kind, b.dtype.kind}.issubset({"U", "S", "O"}):
                lists: list[list] = [[], []]
                for out_list, flat_arr in zip(lists, (a.flat, b.flat)):
                    for item in flat_arr:
                        out_list.append(item.encode("utf-8") if isinstance(item, str) else item)
                a, b = np.array(lists[0]), np.array(lists[1])
            np.testing.assert_array_equal(a, b, err_msg="\n".join(msgs))

    def assertNotAllEqual(self, a: Any, b: Any, msg: Any = None) -> None:  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        msg = msg or ""
        raise AssertionError(f"The two values are equal at all elements. {msg}")

    def assertAllGreater(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertGreater(np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLess(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertLess(np.max(self._GetNdArray(a)), comparison_target)

    def assertAllGreaterEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertGreaterEqual(np.min(self._GetNdArray(a)), comparison_target)

    def assertAllLessEqual(self, a: Any, comparison_target: Any) -> None:  # noqa: N802
        self.assertLessEqual(np.max(self._GetNdArray(a)), comparison_target)

    def _format_subscripts(self, subscripts: Any, value: Any, limit: int = 10, indent: int = 2) -> list:
        import itertools
        lines = []
        subscripts = np.transpose(subscripts)
        prefix = " " * indent
        if np.ndim(value) == 0:
            return [prefix + "[0] : " + str(value)]
        for subscript in itertools.islice(subscripts, limit):
            lines.append(prefix + str(subscript) + " : " + str(value[tuple(subscript)]))
        if len(subscripts) > limit:
            lines.append(prefix + "...")
        return lines

    def assertAllInRange(self, target: Any, lower_bound: Any, upper_bound: Any,  # noqa: N802
                         open_lower_bound: bool = False, open_upper_bound: bool = False) -> None:
        target = self._GetNdArray(target)
        if not (np.issubdtype(target.dtype, np.floating) or np.issubdtype(target.dtype, np.integer)):
            raise AssertionError(f"The value of {target} does not have an ordered numeric type, instead it has type: "
                                 f"{target.dtype}")
        nan_subscripts = _np_where(np.isnan(target))
        if np.size(nan_subscripts):
            raise AssertionError("%d of the %d element(s) are NaN. Subscripts(s) and value(s) of the NaN element(s):\n"
                                 % (len(nan_subscripts[0]), np.size(target))
                                 + "\n".join(self._format_subscripts(nan_subscripts, target)))
        range_str = (("(" if open_lower_bound else "[") + str(lower_bound) + ", " + str(upper_bound)
                     + (")" if open_upper_bound else "]"))
        violations = np.less_equal(target, lower_bound) if open_lower_bound else np.less(target, lower_bound)
        violations = np.logical_or(violations, np.greater_equal(target, upper_bound) if open_upper_bound
                                   else np.greater(target, upper_bound))
        violation_subscripts = _np_where(violations)
        if np.size(violation_subscripts):
            raise AssertionError("%d of the %d element(s) are outside the range %s. "
                                 % (len(violation_subscripts[0]), np.size(target), range_str)
                                 + "Subscript(s) and value(s) of the offending elements:\n"
                                 + "\n".join(self._format_subscripts(violation_subscripts, target)))

    def assertAllInSet(self, target: Any, expected_set: Any) -> None:  # noqa: N802
        target = self._GetNdArray(target)
        diff = np.setdiff1d(target.flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError("%d unique element(s) are not in the set %s: %s" % (np.size(diff), expected_set,
                                                                                    diff))

    def assertDTypeEqual(self, target: Any, expected_dtype: Any) -> None:  # noqa: N802
        target = self._GetNdArray(target)
        for arr in [target]:
            self.assertEqual(arr.dtype, expected_dtype)

    def assertShapeEqual(self, input_a: Any, input_b: Any, msg: Any = None) -> None:  # noqa: N802
        tf = _tf()
        if not isinstance(input_a, (np.ndarray, np.generic, tf.Tensor)):
            raise TypeError(f"input_a must be a Numpy ndarray, Numpy scalar, or a Tensor.Instead received "
                            f"{type(input_a)}")
        if not isinstance(input_b, (np.ndarray, np.generic, tf.Tensor)):
            raise TypeError(f"input_b must be a Numpy ndarray, Numpy scalar, or a Tensor.Instead received "
                            f"{type(input_b)}")
        shape_a = input_a.get_shape().as_list() if isinstance(input_a, tf.Tensor) else input_a.shape
        shape_b = input_b.get_shape().as_list() if isinstance(input_b, tf.Tensor) else input_b.shape
        self.assertAllEqual(shape_a, shape_b, msg=msg)

    def assertNear(self, f1: Any, f2: Any, err: Any, msg: Any = None) -> None:  # noqa: N802
        f1 = np.squeeze(f1)
        f2 = np.squeeze(f2)
        if f1 != f2:
            diff = math.fabs(f1 - f2)
            self.assertTrue(diff <= err, "%f != %f +/- %f (difference: %g)%s"
                            % (f1, f2, err, diff, " (%s)" % msg if msg is not None else ""))

    def assertArrayNear(self, farray1: Any, farray2: Any, err: Any, msg: Any = None) -> None:  # noqa: N802
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def _NDArrayNear(self, ndarray1: Any, ndarray2: Any, err: Any) -> Any:  # noqa: N802
        return np.linalg.norm(ndarray1 - ndarray2) < err

    def assertNDArrayNear(self, ndarray1: Any, ndarray2: Any, err: Any, msg: Any = None) -> None:  # noqa: N802
        self.assertTrue(self._NDArrayNear(ndarray1, ndarray2, err), msg=msg)

    def assertStartsWith(self, actual: str, expected_start: str, msg: Any = None) -> None:  # noqa: N802
        if not actual.startswith(expected_start):
            fail_msg = "%r does not start with %r" % (actual, expected_start)
            fail_msg += " : %r" % (msg,) if msg else ""
            self.fail(fail_msg)

    def assertItemsEqual(self, first: Any, second: Any, msg: Any = None) -> None:  # noqa: N802
        self.assertCountEqual(first, second, msg)

    # --- errors -------------------------------------------------------------------------------------------------
    def assertRaisesOpError(self, expected_err_re_or_predicate: Any) -> Any:  # noqa: N802
        return self.assertRaisesWithPredicateMatch(_tf().errors.OpError, expected_err_re_or_predicate)

    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type: Any, expected_err_re_or_predicate: Any) -> Any:  # noqa: N802
        tf = _tf()
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e: Any) -> Any:
                err_str = e.message if isinstance(e, tf.errors.OpError) else str(e)
                return re.search(expected_err_re_or_predicate, err_str)
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # noqa: BLE001 - TF's own catch-all
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError(f"Exception of type {type(e)!s}: {e!s}") from None

    # --- sessions and files -------------------------------------------------------------------------------------
    @contextlib.contextmanager
    def cached_session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                       force_gpu: bool = False) -> Any:
        yield FakeEagerSession(self)

    @contextlib.contextmanager
    def session(self, graph: Any = None, config: Any = None, use_gpu: bool = True, force_gpu: bool = False) -> Any:
        yield EagerSessionWarner()

    @contextlib.contextmanager
    def test_session(self, graph: Any = None, config: Any = None, use_gpu: bool = True,
                     force_gpu: bool = False) -> Any:
        """Use cached_session instead (TF: deprecated; as a test method it is skipped by setUp)."""
        if self.id().endswith(".test_session"):
            self.skipTest("Tests that have the name \"test_session\" are automatically skipped by TensorFlow test "
                          "fixture, as the name is reserved for creating sessions within tests. Please rename your "
                          "test if you have a test with this name.")
        yield None

    def get_temp_dir(self) -> str:
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp()
        return self._tempdir


class SparseTensorValue(collections.namedtuple("SparseTensorValue", ["indices", "values", "dense_shape"])):
    """sparse_tensor.SparseTensorValue: a SparseTensor's NumPy values."""


class IndexedSlicesValue(collections.namedtuple("IndexedSlicesValue", ["values", "indices", "dense_shape"])):
    """indexed_slices.IndexedSlicesValue: an IndexedSlices' NumPy values."""


def main(argv: Any = None) -> Any:
    """tf.test.main: runs the module's tests (googletest's main is unittest's)."""
    return unittest.main(argv=argv)


def is_built_with_cuda() -> bool:
    return False   # (tensorflow-cpu)


def is_built_with_rocm() -> bool:
    return False


def is_built_with_gpu_support() -> bool:
    return False


def is_cpu_target_available(target: str) -> bool:
    """tf.test.is_cpu_target_available (framework/test_util.py IsCPUTargetAvailable): whether TF's build has
    LLVM's code generator for `target`, by its prefix: "arm", "aarch64", "ppc"/"powerpc", "x86" and "s390x"
    are each True in TF 2.21's CPU build, whatever the host (observed; a constant of the build); another
    target is AssertionError "Unknown CPU target: <target>" (case-sensitive), a non-string AttributeError
    from its `startswith`."""
    for prefix in ("arm", "aarch64", "ppc", "powerpc", "x86", "s390x"):   # (TF's chain of startswith, in its order)
        if target.startswith(prefix):
            return True
    raise AssertionError("Unknown CPU target: " + target)


def is_built_with_xla() -> bool:
    return True   # (observed on TF 2.21's CPU build)


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability: Any = None) -> bool:
    """platform/test.py (deprecated: "Use `tf.config.list_physical_devices('GPU')` instead."): whether a local GPU
    exists whose compute capability is at least the one asked for. simdist's GPUs are the simulated machine's
    (none by default, as on TF's CPU build); their descriptions carry no compute capability, which TF then takes
    as (0, 0)."""
    import logging
    logging.getLogger("tensorflow").warning(
        "From is_gpu_available: is_gpu_available (from tensorflow.python.framework.test_util) is deprecated and "
        "will be removed in a future version.\nInstructions for updating:\nUse "
        "`tf.config.list_physical_devices('GPU')` instead.")
    if not _tf().config.list_physical_devices("GPU"):
        return False
    return not min_cuda_compute_capability or (0, 0) >= tuple(min_cuda_compute_capability)


def gpu_device_name() -> str:
    """The first local GPU's name ("/device:GPU:0"), or "" without one."""
    gpus = _tf().config.list_logical_devices("GPU")
    return "/device:GPU:0" if gpus else ""


# --- compute_gradient (gradient_checker_v2) ----------------------------------------------------------------------
def _product(t: Any) -> int:
    if isinstance(t, int):
        return t
    y = 1
    for x in t:
        y *= x
    return y


def _to_numpy(a: Any) -> Any:
    if hasattr(a, "numpy"):
        return a.numpy()
    if isinstance(a, IndexedSlicesValue):
        arr = np.zeros(a.dense_shape)
        for values_slice, index in zip(a.values, a.indices):
            arr[index] += values_slice
        return arr
    return a


def _gradient(f: Any, xs: list, param: int, dy: Any) -> Any:
    """backprop.gradients_function(f, [param])(*xs, dy=dy)[0]."""
    tf = _tf()
    xs = [tf.convert_to_tensor(x) for x in xs]
    with tf.GradientTape() as tape:
        tape.watch(xs[param])
        y = f(*xs)
    g = tape.gradient(y, xs[param], output_gradients=tf.convert_to_tensor(dy))
    if isinstance(g, tf.IndexedSlices):
        return IndexedSlicesValue(g.values.numpy(), g.indices.numpy(),
                                   None if g.dense_shape is None else g.dense_shape.numpy())
    return g


def _compute_theoretical_jacobian(f: Any, y_shape: Any, y_dtype: Any, xs: list, param: int) -> np.ndarray:
    x = xs[param]
    x_shape = tuple(x.shape) + (2,) if x.dtype.is_complex else tuple(x.shape)
    y_factor = 2 if y_dtype.is_complex else 1
    x_size = _product(x_shape)
    x_val_size = _product(x_shape[1:])
    y_size = _product(tuple(y_shape)) * y_factor
    jacobian = np.zeros((y_size, x_size), dtype=x.dtype.real_dtype.as_numpy_dtype)
    dy_data = np.zeros(tuple(y_shape), dtype=y_dtype.as_numpy_dtype)
    dy_data_flat = dy_data.ravel().view(y_dtype.real_dtype.as_numpy_dtype)
    for row in range(y_size):
        dy_data_flat[row] = 1
        grad = _gradient(f, xs, param, dy_data)
        if isinstance(grad, IndexedSlicesValue):
            for i, v in zip(grad.indices, grad.values):
                c_begin = i * x_val_size
                jacobian[row, c_begin:c_begin + x_val_size] += v.flat
        elif grad is not None:
            jacobian[row, :] = _to_numpy(grad).ravel().view(jacobian.dtype)
        dy_data_flat[row] = 0
    if y_size == 0:
        grad = _to_numpy(_gradient(f, xs, param, dy_data))
        if grad.shape != tuple(x.shape):
            raise ValueError("Empty gradient has wrong shape: expected %s, got %s" % (x.shape, grad.shape))
        if np.any(grad):
            raise ValueError("Empty tensor with nonzero gradients")
    return jacobian


def _compute_numeric_jacobian(f: Any, y_size: int, y_dtype: Any, xs: list, param: int, delta: float) -> np.ndarray:
    tf = _tf()
    x_shape = xs[param].shape
    x_dtype = xs[param].dtype
    x_size = _product(tuple(x_shape)) * (2 if x_dtype.is_complex else 1)
    y_size = y_size * (2 if y_dtype.is_complex else 1)
    x_np = x_dtype.real_dtype.as_numpy_dtype
    y_np = y_dtype.real_dtype.as_numpy_dtype
    xs = [np.asarray(_to_numpy(x)) for x in xs]
    x = xs[param]
    scale = np.asarray(2 * delta, dtype=y_np)[()]
    jacobian = np.zeros((y_size, x_size), dtype=x_np)

    def run(*a: Any) -> Any:
        return f(*map(tf.convert_to_tensor, a))
    for col in range(x_size):
        original = x.ravel().view(x_np)[col]
        x.ravel().view(x_np)[col] += delta
        y_pos = _to_numpy(run(*xs))
        x.ravel().view(x_np)[col] = original
        x.ravel().view(x_np)[col] -= delta
        y_neg = _to_numpy(run(*xs))
        x.ravel().view(x_np)[col] = original
        diff = (y_pos - y_neg) / scale
        jacobian[:, col] = diff.ravel().view(y_np)
    return jacobian


def compute_gradient(f: Any, x: Any, delta: Any = None) -> Any:
    """tf.test.compute_gradient: the theoretical and numeric Jacobians of f at x, one pair per argument."""
    tf = _tf()
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor (arguments to `f`), not a "
                         f"{type(x)}")
    if delta is None:
        delta = 1.0 / 1024
    xs = [tf.convert_to_tensor(v) for v in x]
    y = f(*xs)
    allowed = [tf.float16, tf.bfloat16, tf.float32, tf.float64, tf.complex64, tf.complex128]
    y_dtype = tf.as_dtype(y.dtype)

    def one(i: int) -> tuple:
        t = xs[i].dtype
        assert t.base_dtype in allowed, f"Cannot compute gradient for unsupported type {t.name} of argument {i}"
        assert y_dtype.base_dtype in allowed, f"Cannot compute gradient for unsupported type {y_dtype.name} of y"
        jacob_t = _compute_theoretical_jacobian(f, y.shape, y_dtype, xs, i)
        jacob_n = _compute_numeric_jacobian(f, _product(tuple(y.shape)), y_dtype, xs, i, delta)
        return jacob_t, jacob_n
    return tuple(zip(*[one(i) for i in range(len(xs))]))


def disable_with_predicate(pred: Any, skip_message: Any) -> Any:
    """Skips the decorated test method when pred() is true."""
    import functools

    def decorator_disable_with_predicate(func: Any) -> Any:
        @functools.wraps(func)
        def wrapper_disable_with_predicate(self: Any, *args: Any, **kwargs: Any) -> Any:
            if pred():
                self.skipTest(skip_message)
            else:
                return func(self, *args, **kwargs)
        return wrapper_disable_with_predicate
    return decorator_disable_with_predicate


def with_eager_op_as_function(cls: Any = None, only_as_function: bool = False) -> Any:
    """Returns the same class (TF 2.21 keeps it for old callers)."""
    def decorator(c: Any) -> Any:
        return c
    if cls is not None:
        return decorator(cls)
    return decorator
