"""Classes the fz55b generator (tests/fuzz55b, an independent differential generator of tf.signal / tf.image /
tf.strings / tf.sparse / tf.ragged / tf.bitwise / segment / tf.sets programs, issue 29) found, each case observed on
TF 2.21.

- ragged_gather (clause ops.ragged): tf.gather of a RaggedTensor converts its indices without a dtype
  (`[]` is float32) and RaggedGather's attr Tindices takes int32 and int64 only: InvalidArgumentError eagerly,
  op_def_library's TypeError traced; simdist gathered the rows of any indices (fz55b seed 55203 #3). Indices of rank
  k > 1 group the rows into k - 1 uniform partitions (simdist: NotImplementedError).
- ragged_reduce_keepdims (clause ops.ragged): a reduction of a RaggedTensor over every axis
  (axis=None) with keepdims=True reduces the flat values with keepdims, then expands once per dimension past the
  first: rank flat_values.rank + rank - 1 (simdist returned a scalar; fz55b seed 55203 #24).
- ragged_cumsum_outer (clause ops.ragged): tf.math.cumsum of a RaggedTensor along an axis above its innermost
  ragged one pads it to a dense tensor, sums there and cuts the rows back to their lengths, its splits' dtype kept
  (simdist: NotImplementedError; fz55b seed 55207 #52).
- complex_sums_daz (clause ops.subnormals): TF's complex additions (Sum, Mean, Cumsum, AddN, SegmentSum,
  UnsortedSegmentSum) run under the thread's DAZ/FTZ, each part read and written as a float's, so a subnormal part
  is a zero, unless the kernel copies (a reduction over one element, a one-row segment, AddN of one); simdist
  kept them (fz55b seed 55206 #106: tf.signal.overlap_and_add's Sum).
- sparse_add_kernel_first (clause ops.sparse): SparseAdd looks up a_values' kernel before it checks b_values'
  dtype, so a float16/bfloat16/uint8/uint16 SparseTensor added to one of another dtype is NotFoundError (simdist:
  the dtype mismatch's InvalidArgumentError; fz55b seed 55209 #15).
- pow_one_identity (clause function.grappler-rewrites): in a tf.function Grappler's ConvertPowStage makes Pow(x, 1)
  Identity(x) where x's shape is the output's, so `x ** 1` and tf.image.adjust_gamma(x, 1) keep a subnormal that
  Pow's kernel flushes eagerly (simdist ran the kernel; fz55b seed 55209 #75).
- ragged_dense_gradient (clause ops.ragged): a RaggedTensor with no flat values times a dense operand still gathers
  the operand, so its gradient is zeros (TF's empty IndexedSlices), not None (fz55b seed 55201 #29).
- real_fft_outer_zero (clause ops.signal-fft): a real FFT whose fft_length holds a zero among its outer entries (and, for
  an inverse one, maybe the innermost too) gives the empty result of the output's shape on TF 2.21; simdist raised
  the InvalidArgumentError it keeps for the lengths that abort TF's process (fz55b seed 55211 #109).
- sparse_bincount_wrap (clause ops.sparse): tf.sparse.bincount's length `max + 1` is computed in int64, so a value
  of int64's maximum wraps it to int64's minimum and the length is minlength's, -1 without one (simdist:
  OverflowError; fz55b seed 55202 #40).
Each case: a list of [label, outcome]; an outcome is [dtype, shape, the result's bits] of a tensor, ["ragged",
values, nested row splits] of a RaggedTensor, or [error class].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _bits(x: Any) -> list:
    if type(x).__name__ == "RaggedTensor":
        return ["ragged", _bits(x.flat_values), [_bits(s) for s in x.nested_row_splits]]
    if type(x).__name__ == "SparseTensor":
        return ["sparse", _bits(x.indices), _bits(x.values), _bits(x.dense_shape)]
    if type(x).__name__ == "IndexedSlices":
        return ["slices", _bits(x.indices), _bits(x.values), _bits(x.dense_shape)]
    if x is None:
        return ["None"]
    a = np.asarray(x.numpy())
    if a.dtype == object:
        return [x.dtype.name, list(a.shape), [bytes(b) for b in a.ravel()]]
    if a.dtype == bool:
        return [x.dtype.name, list(a.shape), a.ravel().tolist()]
    u = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64, 16: np.uint64}[a.dtype.itemsize]
    return [x.dtype.name, list(a.shape), [int(b) for b in a.view(u).ravel()]]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _bits(fn())])
    except Exception as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, [type(e).__name__]])


def _ragged(tf: Any) -> dict:
    return {"r2": tf.ragged.constant([[1.0, -2.5], [], [3.0]]),
            "empty": tf.ragged.constant([], dtype=tf.int32, ragged_rank=1),
            "inner": tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1),
            "r3": tf.ragged.constant([[[1.0], [2.0, 3.0]], [[4.0]]])}


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    if case["name"] == "ragged_gather":
        for n, rt in _ragged(tf).items():
            for label, idx in [("[]", []), ("[0]", [0]), ("[1.0]", [1.0]), ("int16", np.array([0], np.int16)),
                               ("int64 []", tf.constant([], tf.int64)), ("[[0], [1]]", [[0], [1]]),
                               ("[[1, 0, 1]]", [[1, 0, 1]]), ("[[[0]], [[1]]]", [[[0]], [[1]]]),
                               ("[[0, 5]]", [[0, 5]])]:
                _try(out, f"{n} gather {label}", lambda rt=rt, idx=idx: tf.gather(rt, idx))
        rt = _ragged(tf)["r2"]
        _try(out, "traced gather []", lambda: tf.function(lambda r: tf.gather(r, []))(rt))
        _try(out, "traced gather 2-D", lambda: tf.function(lambda r: tf.gather(r, [[2, 0], [1, 1]]))(rt))
    elif case["name"] == "ragged_reduce_keepdims":
        for n, rt in _ragged(tf).items():
            for red in ["reduce_sum", "reduce_max", "reduce_min", "reduce_mean", "reduce_prod", "reduce_std",
                        "reduce_variance", "reduce_logsumexp"]:
                x = tf.cast(rt, tf.float32) if rt.dtype == tf.int32 and red in (
                    "reduce_std", "reduce_variance", "reduce_logsumexp") else rt
                _try(out, f"{n} {red} keepdims", lambda x=x, red=red: getattr(tf.math, red)(x, axis=None, keepdims=True))
                _try(out, f"{n} {red}", lambda x=x, red=red: getattr(tf.math, red)(x, axis=None))
            _try(out, f"{n} reduce_any keepdims", lambda rt=rt: tf.math.reduce_any(rt > 1, axis=None, keepdims=True))
            _try(out, f"{n} reduce_all keepdims", lambda rt=rt: tf.math.reduce_all(rt > 1, axis=None, keepdims=True))
        rt = _ragged(tf)["r3"]
        _try(out, "traced reduce_sum keepdims", lambda: tf.function(
            lambda r: tf.reduce_sum(r, keepdims=True))(rt))
    elif case["name"] == "ragged_cumsum_outer":
        rts = [tf.RaggedTensor.from_row_lengths(tf.constant([-7, -8], tf.int32), [0, 1, 1]),
               tf.ragged.constant([[1.0, 2.0, 3.0], [], [4.0, 5.0]]),
               tf.ragged.constant([[[1.0, 2.0]], [[3.0, 4.0], [5.0, 6.0]]], ragged_rank=1),
               tf.ragged.constant([[0.5, 1e-40], [3.4e38, 3.4e38, 1.0]], dtype=tf.float32),
               tf.ragged.constant([[1, 2], [3]], dtype=tf.int64),
               tf.ragged.constant([[[1.0], [2.0, 3.0]], [[4.0]], [], [[5.0, 6.0], [], [7.0]]]),
               tf.ragged.constant([[[1, 2], [3]], [[4, 5, 6]]], row_splits_dtype=tf.int32),
               tf.ragged.constant([[1.0, 2.0], [3.0]], row_splits_dtype=tf.int32),
               tf.ragged.constant([[[[1.0]], [[2.0], [3.0, 4.0]]], [[[5.0]]]])]
        for i, rt in enumerate(rts):
            for ax in sorted({0, -rt.shape.rank, *range(rt.ragged_rank)}):
                for ex in (False, True):
                    for rev in (False, True):
                        _try(out, f"{i} axis {ax} exclusive {ex} reverse {rev}",
                             lambda rt=rt, ax=ax, ex=ex, rev=rev: tf.math.cumsum(rt, axis=ax, exclusive=ex, reverse=rev))
        x = rts[1]
        with tf.GradientTape() as tape:
            tape.watch(x.flat_values)
            y = tf.math.cumsum(x, axis=0)
            loss = tf.reduce_sum(y.flat_values * tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
        _try(out, "gradient", lambda: tf.convert_to_tensor(tape.gradient(loss, x.flat_values)))
        _try(out, "traced", lambda: tf.function(lambda r: tf.math.cumsum(r, axis=0, reverse=True))(x))
    elif case["name"] == "complex_sums_daz":
        for dt in ("complex64", "complex128"):
            tiny = 1e-40 if dt == "complex64" else 1e-310
            big = 1.5e-38 if dt == "complex64" else 3e-308
            x = tf.constant(np.array([complex(tiny, -tiny), complex(big, 1.0), complex(-big * 0.99, -1.0),
                                      complex(0.0, tiny), complex(-tiny, 2.5), complex(1.25, tiny)], dt))
            m = tf.reshape(x, [3, 2])
            y = tf.constant(np.array([[complex(tiny, 1.51)], [complex(0.0, 0.0)]], dt))
            for label, fn in [
                    ("sum", lambda: tf.reduce_sum(x)), ("sum axis 0", lambda: tf.reduce_sum(m, 0)),
                    ("sum axis 1", lambda: tf.reduce_sum(m, 1)), ("sum of a size-1 axis", lambda: tf.reduce_sum(y, 1)),
                    ("sum keepdims", lambda: tf.reduce_sum(y, 0, keepdims=True)), ("mean", lambda: tf.reduce_mean(m, 0)),
                    ("cumsum", lambda: tf.cumsum(x)), ("cumsum exclusive reverse", lambda: tf.cumsum(x, exclusive=True,
                                                                                                 reverse=True)),
                    ("cumsum axis 1", lambda: tf.cumsum(m, axis=1)), ("add_n", lambda: tf.add_n([y, y, y])),
                    ("add_n of one", lambda: tf.add_n([y])), ("x + x", lambda: x + x),
                    ("segment_sum", lambda: tf.math.segment_sum(x, [0, 0, 1, 1, 2, 3])),
                    ("unsorted_segment_sum", lambda: tf.math.unsorted_segment_sum(x, [0, 0, 1, 1, 2, 3], 4)),
                    ("overlap_and_add", lambda: tf.signal.overlap_and_add(tf.reshape(x, [3, 2]), 1)),
                    ("traced sum", lambda: tf.function(lambda a: tf.reduce_sum(a, 0))(m)),
                    ("traced cumsum", lambda: tf.function(lambda a: tf.cumsum(a, 1))(m))]:
                _try(out, f"{dt} {label}", fn)
            f = tf.function(lambda a: tf.reduce_sum(a, 0) + tf.cumsum(a, 0)[-1])
            _try(out, f"{dt} traced, first call", lambda f=f, m=m: f(m))
            _try(out, f"{dt} traced, second call", lambda f=f, m=m: f(m))
    elif case["name"] == "sparse_add_kernel_first":
        def sp(dt: str) -> Any:
            vals = ("a", "b") if dt == "string" else (True, False) if dt == "bool" else (1, 0)
            return tf.SparseTensor([[0, 0], [1, 1]], tf.constant(vals, dt), [3, 2])
        for a in ["float16", "bfloat16", "float32", "int32", "int8", "uint8", "complex64", "int64", "uint16", "bool"]:
            for b in ["float16", "int32", "float32", "uint8", a]:
                _try(out, f"add {a} + {b}", lambda a=a, b=b: tf.sparse.add(sp(a), sp(b)))
                _try(out, f"add {a} + dense {b}", lambda a=a, b=b: tf.sparse.add(sp(a), tf.zeros([3, 2], b)))
                _try(out, f"maximum {a}, {b}", lambda a=a, b=b: tf.sparse.maximum(sp(a), sp(b)))
    elif case["name"] == "pow_one_identity":
        for dt, tiny in [("float32", 1e-40), ("float64", 1e-310), ("bfloat16", 1e-39), ("float16", 6e-8)]:
            x = tf.cast(tf.constant([tiny, -tiny, 1.5, 0.0], tf.float64 if dt == "float64" else tf.float32), dt)
            for label, fn in [("x ** 1", lambda x: x ** 1), ("x ** 1.0", lambda x: x ** 1.0),
                              ("pow(x, ones [4])", lambda x: tf.pow(x, tf.ones([4], x.dtype))),
                              ("pow(x, ones [2, 4])", lambda x: tf.pow(x, tf.ones([2, 4], x.dtype))),
                              ("pow(x, ones [1])", lambda x: tf.pow(x, tf.ones([1], x.dtype))),
                              ("adjust_gamma(x, 1)", lambda x: tf.image.adjust_gamma(x, 1)),
                              ("adjust_gamma(x, 1, 0.5)", lambda x: tf.image.adjust_gamma(x, 1, 0.5)),
                              ("x ** 2", lambda x: x ** 2)]:
                _try(out, f"{dt} {label} eager", lambda fn=fn, x=x: fn(x))
                _try(out, f"{dt} {label} traced", lambda fn=fn, x=x: tf.function(fn)(x))
        xi = tf.constant([3, -2, 0])
        _try(out, "int32 x ** 1 traced", lambda: tf.function(lambda a: a ** 1)(xi))
        _try(out, "[None] spec x ** 1.0", lambda: tf.function(lambda a: a ** 1.0, input_signature=[
            tf.TensorSpec([None], tf.float32)])(tf.constant([1e-40, 2.0])))
    elif case["name"] == "ragged_dense_gradient":
        for i, (rt, d) in enumerate([
                (tf.ragged.range(tf.constant([0.0, 3.0, 0.0]), -1.0), tf.constant([-0.93])),
                (tf.ragged.constant([[1.0, 2.0], [3.0]]), tf.constant([-0.93])),
                (tf.ragged.constant([[1.0, 2.0], [3.0]]), tf.constant([[2.0], [3.0]])),
                (tf.ragged.constant([[], []], dtype=tf.float32), tf.constant([[2.0], [3.0]])),
                (tf.ragged.constant([], dtype=tf.float32, ragged_rank=1), tf.constant([2.0])),
                (tf.ragged.constant([[[1.0, 2.0]], []], ragged_rank=1), tf.constant([5.0, 6.0]))]):
            with tf.GradientTape(persistent=True) as tape:
                tape.watch(d)
                tape.watch(rt.flat_values)
                y = rt * d + d
                loss = tf.reduce_sum(y.flat_values)
            _try(out, f"{i} value", lambda y=y: y)
            for label, src in [("dense", d), ("flat values", rt.flat_values)]:
                _try(out, f"{i} gradient of the {label}", lambda tape=tape, loss=loss, src=src: (
                    lambda g: None if g is None else tf.convert_to_tensor(g))(tape.gradient(loss, src)))
    elif case["name"] == "real_fft_outer_zero":
        c = tf.constant((np.arange(10) + 1j).astype(np.complex64).reshape(5, 2))
        r = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2))
        c3 = tf.constant((np.arange(12) + 1j).astype(np.complex128).reshape(2, 3, 2))
        r3 = tf.constant(np.arange(8, dtype=np.float64).reshape(2, 2, 2))
        for label, fn in [("irfft2d [0, 3]", lambda: tf.signal.irfft2d(c, fft_length=[0, 3])),
                          ("irfft2d [0, 0]", lambda: tf.signal.irfft2d(c, fft_length=[0, 0])),
                          ("rfft2d [0, 4]", lambda: tf.signal.rfft2d(r, fft_length=[0, 4])),
                          ("rfft2d [0, 1]", lambda: tf.signal.rfft2d(r, fft_length=[0, 1])),
                          ("irfft3d [2, 0, 4]", lambda: tf.signal.irfft3d(c3, fft_length=[2, 0, 4])),
                          ("irfft3d [0, 0, 0]", lambda: tf.signal.irfft3d(c3, fft_length=[0, 0, 0])),
                          ("rfft3d [0, 2, 3]", lambda: tf.signal.rfft3d(r3, fft_length=[0, 2, 3])),
                          ("rfft3d [2, 0, 2]", lambda: tf.signal.rfft3d(r3, fft_length=[2, 0, 2]))]:
            _try(out, label, fn)
            _try(out, f"{label} traced", lambda fn=fn: tf.function(fn)())
    elif case["name"] == "sparse_bincount_wrap":
        top = 2 ** 63 - 1
        for vals, dt in [([7, 5, top], "int64"), ([top], "int64"), ([top - 1, 0], "int64"), ([2 ** 31 - 1], "int32"),
                         ([2 ** 31 - 1], "int64")]:
            sp = tf.sparse.from_dense(tf.constant(vals, dt))
            for label, kw in [("", {}), ("minlength 3", {"minlength": 3}), ("binary", {"binary_output": True}),
                              ("maxlength 4", {"maxlength": 4}), ("axis -1", {"axis": -1})]:
                _try(out, f"{vals} {dt} {label}", lambda sp=sp, kw=kw: tf.sparse.bincount(sp, **kw))
        sp2 = tf.sparse.from_dense(tf.constant([[top, 1], [0, 2]], tf.int64))
        _try(out, "2-D axis -1", lambda: tf.sparse.bincount(sp2, axis=-1))
        _try(out, "2-D axis 0", lambda: tf.sparse.bincount(sp2, axis=0))
    return out


NAMES = ["ragged_gather", "ragged_reduce_keepdims", "sparse_bincount_wrap", "ragged_cumsum_outer", "complex_sums_daz",
         "sparse_add_kernel_first", "pow_one_identity", "ragged_dense_gradient",
         "real_fft_outer_zero"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _check(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


@pytest.mark.clause("ops.ragged")
@pytest.mark.parametrize("index", [0], ids=NAMES[:1])
def test_ragged_gather_indices(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.ragged")
@pytest.mark.parametrize("index", [1], ids=NAMES[1:2])
def test_ragged_reduce_all_axes_keepdims(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.sparse")
@pytest.mark.parametrize("index", [2], ids=NAMES[2:3])
def test_sparse_bincount_length_wraps(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.ragged")
@pytest.mark.parametrize("index", [3], ids=NAMES[3:4])
def test_ragged_cumsum_along_axis_0(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("index", [4], ids=NAMES[4:5])
def test_complex_sums_flush_subnormal_parts(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.sparse")
@pytest.mark.parametrize("index", [5], ids=NAMES[5:6])
def test_sparse_add_looks_up_its_kernel_first(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("index", [6], ids=NAMES[6:7])
def test_traced_pow_of_one_is_identity(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.ragged")
@pytest.mark.parametrize("index", [7], ids=NAMES[7:8])
def test_empty_ragged_times_dense_gradient(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


@pytest.mark.clause("ops.signal-fft")
@pytest.mark.parametrize("index", [8], ids=NAMES[8:9])
def test_real_fft_outer_zero_length_is_empty(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    _check(index, tf_results, tmp_path)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
