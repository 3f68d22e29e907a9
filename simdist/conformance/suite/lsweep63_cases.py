"""Narrow and unusual dtypes through the ops that take labels, ids, indices, segment ids, depths and shapes (sixty-third
session, lsweep63; test_lsweep63.py), by rule from TF 2.21's kernel registrations, eagerly and inside a tf.function,
bit for bit against TF 2.21's recorded results (a refusal by its exception class).

What is crossed (the suite fed these arguments int32/int64 and float32 almost only; batch 83's survivors were a sparse
cross-entropy taking int16 labels, unsorted_segment_sum of bools and a random shape of Python floats; vsweep62 already
crosses gather/gather_nd indices, segment_sum/unsorted_segment_sum ids, one_hot depth/indices, top_k's k and
fill/zeros dims as Python/NumPy/tensor integers, and the data argument of the segment ops):
- l63-sxent: sparse_softmax_cross_entropy_with_logits × labels in every integer dtype, float32/float16, bool ×
  logits float16/bfloat16/float32/float64/int32/complex64, with its gradient; softmax_cross_entropy_with_logits ×
  labels/logits dtypes (equal and mixed) × axis; sigmoid and weighted cross-entropy (pos_weight as a Python float,
  an int and a tensor of another dtype), log_poisson_loss (compute_full_loss), l2_loss of every dtype;
- l63-topk: in_top_k × targets in every integer dtype × predictions dtypes × k as Python/NumPy/tensor integers;
- l63-segids: segment_max/min/prod/mean and unsorted_segment_max/min/prod/mean/sqrt_n × segment ids in every integer
  dtype and float32; num_segments of each integer dtype;
- l63-spseg: sparse_segment_sum/mean/sqrt_n (and _with_num_segments) × data dtypes (bool, the integers, the half
  types, float32/64, complex64) × indices dtypes × segment-id dtypes;
- l63-count: bincount × arr dtypes × weights dtypes × minlength/maxlength forms × dtype × binary_output × axis;
  math.confusion_matrix × labels/predictions dtypes × num_classes forms × weights dtypes × dtype;
- l63-embed: embedding_lookup × ids dtypes × params dtypes × max_norm; embedding_lookup_sparse × ids dtypes ×
  combiner × weights dtypes; one_hot's output dtype × index dtypes;
- l63-rshape: the random ops' shape argument as lists of Python floats/bools/NumPy scalars, tensors of every integer
  dtype and of float32; tf.zeros/ones/fill/random shapes of the same forms;
- l63-kloss: keras SparseCategoricalCrossentropy (class and function) × labels int8/uint8/int16/int32/int64/float16/
  float32 × from_logits × ignore_class × y_pred float16/float32/float64; keras metrics SparseCategoricalAccuracy,
  SparseTopKCategoricalAccuracy (k, from_sorted_ids), MeanIoU (num_classes, sparse flags, ignore_class) with labels of
  those dtypes.

Every program is recorded as host-dependent (the half types' packet math and the softmax's sums are the CPU's):
simdist runs them under its reference model of the AVX-512 oneDNN recording host. `python -m
simdist.conformance.suite.test_lsweep63 --record` rewrites lsweep63_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng
from simdist.conformance.suite.vsweep62_cases import Cases, res

PATH = os.path.join(os.path.dirname(__file__), "lsweep63_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("l63-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
HALF = ("float16", "bfloat16")

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys.
OPEN: dict[str, tuple[str, ...]] = {}


def program(name: str, fn: Callable[[Any], dict[str, Any]]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def floats(tf: Any, shape: tuple[int, ...], name: str, dt: str = "float32") -> Any:
    """Values from rng(name) on a 1/8 grid in [-4, 4] (exact in every float dtype)."""
    v = rng(name).randint(-32, 33, size=shape).astype(np.float64) / 8.0
    if dt.startswith("complex"):
        return tf.complex(tf.constant(v, "float32" if dt == "complex64" else "float64"),
                          tf.constant(v[::-1].copy(), "float32" if dt == "complex64" else "float64"))
    if dt == "bool":
        return tf.constant(v > 0)
    if dt.startswith(("int", "uint")):
        return tf.constant(np.abs(v * 2).astype(np.int64) if dt.startswith("u") else (v * 2).astype(np.int64), dt)
    return tf.constant(v, dt)


def ints(tf: Any, v: Any, dt: str) -> Any:
    """v as a tensor of dtype dt (a float or bool dtype through NumPy)."""
    if dt == "bool":
        return tf.constant(np.asarray(v) % 2 == 1)
    return tf.constant(np.asarray(v), dt)


def grad(tf: Any, f: Callable[[Any], Any], x: Any) -> Any:
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


# -- l63-sxent: the cross-entropies' label and logit dtypes ---------------------------------------------------------
def _sxent(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-sxent")
    lg = lambda dt="float32": floats(tf, (3, 4), "l63-sxent-logits", dt)  # noqa: E731
    lab = [0, 3, 1]
    for dt in INTS + ("float32", "float16", "bool"):
        c(f"sparse labels {dt}", lambda dt=dt: tf.nn.sparse_softmax_cross_entropy_with_logits(ints(tf, lab, dt), lg()))
        c(f"raw sparse labels {dt}", lambda dt=dt: tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(
            features=lg(), labels=ints(tf, lab, dt)))
    for dt in HALF + ("float64", "int32", "complex64"):
        c(f"sparse logits {dt}", lambda dt=dt: tf.nn.sparse_softmax_cross_entropy_with_logits(lab, lg(dt)))
        c(f"sparse logits {dt} labels int64", lambda dt=dt: tf.nn.sparse_softmax_cross_entropy_with_logits(
            tf.constant(lab, tf.int64), lg(dt)))
    for dt in HALF + ("float32", "float64"):
        c(f"sparse grad {dt}", lambda dt=dt: grad(
            tf, lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant(lab, tf.int64), x), lg(dt)))
    c("sparse labels rank 2 logits rank 3", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
        tf.constant([[0, 1], [2, 3]], tf.int64), tf.reshape(floats(tf, (2, 2, 4), "l63-sx3"), [2, 2, 4])))
    c("sparse labels scalar", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(1, lg()[0]))
    c("sparse zero rows", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
        tf.zeros([0], tf.int32), tf.zeros([0, 4])))
    c("sparse zero classes", lambda: tf.nn.sparse_softmax_cross_entropy_with_logits(
        tf.zeros([2], tf.int32), tf.zeros([2, 0])))
    dl = lambda dt="float32": tf.nn.softmax(floats(tf, (3, 4), "l63-sxent-labels", "float64")) if dt == "float64" \
        else tf.cast(tf.nn.softmax(floats(tf, (3, 4), "l63-sxent-labels", "float64")), dt)  # noqa: E731
    for dt in HALF + ("float32", "float64"):
        c(f"dense {dt}", lambda dt=dt: tf.nn.softmax_cross_entropy_with_logits(dl(dt), lg(dt)))
        c(f"dense {dt} axis 0", lambda dt=dt: tf.nn.softmax_cross_entropy_with_logits(dl(dt), lg(dt), axis=0))
        c(f"dense grad {dt}", lambda dt=dt: grad(
            tf, lambda x: tf.nn.softmax_cross_entropy_with_logits(dl(dt), x), lg(dt)))
    for ldt, gdt in (("float64", "float32"), ("float32", "float16"), ("int32", "float32"), ("float32", "int32"),
                     ("int32", "int32"), ("complex64", "complex64"), ("bool", "float32")):
        c(f"dense labels {ldt} logits {gdt}", lambda ldt=ldt, gdt=gdt: tf.nn.softmax_cross_entropy_with_logits(
            floats(tf, (3, 4), "l63-sxent-dl", ldt), lg(gdt)))
    c("dense raw labels float64", lambda: tf.raw_ops.SoftmaxCrossEntropyWithLogits(
        features=lg(), labels=dl("float64")))
    z = lambda dt: floats(tf, (2, 3), "l63-sig-labels", dt)  # noqa: E731
    for dt in HALF + ("float32", "float64", "int32", "complex64"):
        c(f"sigmoid {dt}", lambda dt=dt: tf.nn.sigmoid_cross_entropy_with_logits(
            tf.cast(z("float32") > 0, dt) if dt != "complex64" else z(dt), floats(tf, (2, 3), "l63-sig", dt)))
        c(f"weighted {dt}", lambda dt=dt: tf.nn.weighted_cross_entropy_with_logits(
            tf.cast(z("float32") > 0, dt) if dt != "complex64" else z(dt), floats(tf, (2, 3), "l63-sig", dt), 2.5))
        c(f"log_poisson {dt}", lambda dt=dt: tf.nn.log_poisson_loss(
            tf.abs(z(dt)), floats(tf, (2, 3), "l63-sig", dt)))
        c(f"log_poisson full {dt}", lambda dt=dt: tf.nn.log_poisson_loss(
            tf.abs(z(dt)), floats(tf, (2, 3), "l63-sig", dt), compute_full_loss=True))
    c("sigmoid labels float64 logits float32", lambda: tf.nn.sigmoid_cross_entropy_with_logits(
        z("float64"), floats(tf, (2, 3), "l63-sig")))
    c("sigmoid labels int", lambda: tf.nn.sigmoid_cross_entropy_with_logits([[1, 0, 1], [0, 0, 1]],
                                                                            floats(tf, (2, 3), "l63-sig")))
    c("sigmoid labels bool", lambda: tf.nn.sigmoid_cross_entropy_with_logits(z("float32") > 0,
                                                                             floats(tf, (2, 3), "l63-sig")))
    for name, pw in (("py int", lambda: 3), ("t int32", lambda: tf.constant(3)), ("t float64", lambda: tf.constant(
            2.5, tf.float64)), ("t float16", lambda: tf.constant(2.5, tf.float16)), ("vector", lambda: [0.5, 2.0, 4.0]),
            ("np float64", lambda: np.float64(2.5)), ("zero", lambda: 0.0), ("negative", lambda: -1.5)):
        c(f"weighted pos_weight {name}", lambda pw=pw: tf.nn.weighted_cross_entropy_with_logits(
            tf.cast(z("float32") > 0, "float32"), floats(tf, (2, 3), "l63-sig"), pw()))
    c("weighted labels float64", lambda: tf.nn.weighted_cross_entropy_with_logits(
        z("float64"), floats(tf, (2, 3), "l63-sig"), 2.0))
    c("log_poisson targets int", lambda: tf.nn.log_poisson_loss([[1, 0, 2], [3, 0, 1]], floats(tf, (2, 3), "l63-sig")))
    c("log_poisson targets float64", lambda: tf.nn.log_poisson_loss(
        tf.abs(z("float64")), floats(tf, (2, 3), "l63-sig"), compute_full_loss=True))
    for dt in INTS + HALF + ("float32", "float64", "complex64", "bool"):
        c(f"l2_loss {dt}", lambda dt=dt: tf.nn.l2_loss(floats(tf, (2, 3), "l63-l2", dt)))
    c("l2_loss grad float16", lambda: grad(tf, tf.nn.l2_loss, floats(tf, (2, 3), "l63-l2", "float16")))
    c("l2_loss scalar", lambda: tf.nn.l2_loss(tf.constant(3.0)))
    c("l2_loss empty", lambda: tf.nn.l2_loss(tf.zeros([0, 3], tf.float16)))
    c("l2_loss python list", lambda: tf.nn.l2_loss([1.5, 2.0]))
    return c.out


program("l63-sxent", _sxent)


# -- l63-topk: in_top_k's targets, predictions and k ------------------------------------------------------------------
def _topk(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-topk")
    p = lambda dt="float32": floats(tf, (4, 5), "l63-topk-p", dt)  # noqa: E731
    tg = [0, 4, 2, 1]
    for dt in INTS + ("float32", "bool"):
        c(f"targets {dt}", lambda dt=dt: tf.math.in_top_k(ints(tf, tg, dt), p(), 2))
        c(f"raw targets {dt}", lambda dt=dt: tf.raw_ops.InTopKV2(predictions=p(), targets=ints(tf, tg, dt),
                                                                k=tf.constant(2, dt if dt in ("int32", "int64")
                                                                              else "int32")))
    for dt in HALF + ("float64", "int32"):
        c(f"predictions {dt}", lambda dt=dt: tf.math.in_top_k(tg, p(dt), 2))
    for name, k in (("np int64", lambda: np.int64(2)), ("np int8", lambda: np.int8(2)), ("t int64", lambda: tf.constant(
            2, tf.int64)), ("t int16", lambda: tf.constant(2, tf.int16)), ("t uint8", lambda: tf.constant(2, tf.uint8)),
            ("float", lambda: 2.0), ("bool", lambda: True), ("0", lambda: 0), ("-1", lambda: -1), ("5", lambda: 5),
            ("6", lambda: 6)):
        c(f"k {name}", lambda k=k: tf.math.in_top_k(tg, p(), k()))
    c("targets int64 k int32 tensor", lambda: tf.math.in_top_k(tf.constant(tg, tf.int64), p(), tf.constant(2)))
    c("targets out of range", lambda: tf.math.in_top_k([0, 5, -1, 1], p(), 2))
    c("predictions with nan", lambda: tf.math.in_top_k(tg, tf.tensor_scatter_nd_update(
        p(), [[0, 1], [2, 2]], [float("nan"), float("inf")]), 2))
    c("ties", lambda: tf.math.in_top_k([0, 1], tf.constant([[1.0, 1.0, 1.0], [2.0, 1.0, 1.0]]), 1))
    c("zero rows", lambda: tf.math.in_top_k(tf.zeros([0], tf.int32), tf.zeros([0, 3]), 1))
    for dt in ("int8", "uint8", "int16", "uint16", "uint32", "uint64", "float16", "bfloat16", "float64"):
        c(f"top_k {dt} unsorted", lambda dt=dt: tf.math.top_k(floats(tf, (2, 6), "l63-topk-t", dt), 3, sorted=False))
        c(f"top_k {dt} index_type int16", lambda dt=dt: tf.math.top_k(floats(tf, (2, 6), "l63-topk-t", dt), 2,
                                                                      index_type=tf.int16))
    c("top_k index_type int64", lambda: tf.math.top_k(p(), 2, index_type=tf.int64))
    c("top_k index_type uint8", lambda: tf.math.top_k(p(), 2, index_type=tf.uint8))
    return c.out


program("l63-topk", _topk)


# -- l63-segids: segment ids of every integer dtype through each segment op ----------------------------------------
def _segids(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-segids")
    d = lambda: floats(tf, (4, 3), "l63-segids")  # noqa: E731
    for dt in INTS + ("float32", "bool"):
        for op in ("max", "min", "prod", "mean"):
            c(f"segment_{op} {dt}", lambda op=op, dt=dt: getattr(tf.math, f"segment_{op}")(
                d(), ints(tf, [0, 0, 1, 3], dt)))
        for op in ("max", "min", "prod", "mean", "sqrt_n"):
            c(f"unsorted_segment_{op} {dt}", lambda op=op, dt=dt: getattr(tf.math, f"unsorted_segment_{op}")(
                d(), ints(tf, [1, 0, 1, 3], dt), 4))
        c(f"unsorted_segment_sum n {dt}", lambda dt=dt: tf.math.unsorted_segment_sum(
            d(), [1, 0, 1, 2], ints(tf, 4, dt) if dt != "bool" else True))
        c(f"unsorted_segment_max n {dt}", lambda dt=dt: tf.math.unsorted_segment_max(
            d(), tf.constant([1, 0, 1, 2], tf.int64), ints(tf, 4, dt) if dt != "bool" else True))
    c("unsorted ids int64 n int32", lambda: tf.math.unsorted_segment_sum(d(), tf.constant([1, 0, 1, 2], tf.int64),
                                                                          tf.constant(3, tf.int32)))
    c("unsorted ids int16 rank 2", lambda: tf.math.unsorted_segment_sum(d(), tf.constant([[1, 0, 2], [0, 2, 1],
                                                                                          [1, 1, 0], [2, 0, 0]],
                                                                                         tf.int16), 3))
    for dt in ("bool", "int8", "uint8", "uint16", "uint32", "uint64", "complex64", "float16", "bfloat16"):
        for idt in ("int16", "int32", "int64"):
            c(f"unsorted_segment_sum data {dt} ids {idt}", lambda dt=dt, idt=idt: tf.math.unsorted_segment_sum(
                floats(tf, (4, 3), "l63-segids", dt), ints(tf, [1, 0, 1, 3], idt), 4))
        c(f"segment_sum data {dt} ids int64", lambda dt=dt: tf.math.segment_sum(
            floats(tf, (4, 3), "l63-segids", dt), tf.constant([0, 0, 1, 3], tf.int64)))
        for op in ("max", "min", "prod"):
            c(f"unsorted_segment_{op} data {dt}", lambda dt=dt, op=op: getattr(tf.math, f"unsorted_segment_{op}")(
                floats(tf, (4, 3), "l63-segids", dt), [1, 0, 1, 3], 4))
    for dt in ("int8", "uint8", "uint16", "bool", "complex64", "float16", "bfloat16"):
        c(f"unsorted_segment_sqrt_n data {dt}", lambda dt=dt: tf.math.unsorted_segment_sqrt_n(
            floats(tf, (4, 3), "l63-segids", dt), [1, 0, 1, 3], 4))
        c(f"segment_mean data {dt}", lambda dt=dt: tf.math.segment_mean(
            floats(tf, (4, 3), "l63-segids", dt), [0, 0, 1, 3]))
    return c.out


program("l63-segids", _segids)


# -- l63-spseg: sparse segment reductions -----------------------------------------------------------------------------
def _spseg(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-spseg")
    d = lambda dt="float32": floats(tf, (5, 3), "l63-spseg", dt)  # noqa: E731
    idx, seg = [4, 0, 2, 2, 1], [0, 0, 1, 2, 2]
    for op in ("sum", "mean", "sqrt_n"):
        f = getattr(tf.sparse, f"segment_{op}")
        for dt in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64") + HALF + (
                "float32", "float64", "complex64"):
            c(f"{op} data {dt}", lambda f=f, dt=dt: f(d(dt), idx, seg))
        for dt in INTS + ("float32",):
            c(f"{op} indices {dt}", lambda f=f, dt=dt: f(d(), ints(tf, idx, dt), seg))
            c(f"{op} segment_ids {dt}", lambda f=f, dt=dt: f(d(), idx, ints(tf, seg, dt)))
        for dt in ("int8", "int16", "int32", "int64", "uint8", "float32"):
            c(f"{op} num_segments {dt}", lambda f=f, dt=dt: f(d(), idx, seg, num_segments=ints(tf, 4, dt)))
        c(f"{op} indices int64 ids int32", lambda f=f: f(d(), tf.constant(idx, tf.int64), tf.constant(seg)))
        c(f"{op} num_segments py", lambda f=f: f(d(), idx, seg, num_segments=5))
        c(f"{op} num_segments below", lambda f=f: f(d(), idx, seg, num_segments=2))
        c(f"{op} unsorted ids", lambda f=f: f(d(), idx, [0, 2, 1, 2, 2]))
        c(f"{op} index out of range", lambda f=f: f(d(), [4, 5], [0, 1]))
        c(f"{op} empty", lambda f=f: f(d(), tf.zeros([0], tf.int32), tf.zeros([0], tf.int32)))
        c(f"{op} grad", lambda f=f: grad(tf, lambda x: f(x, idx, seg), d()))
    c("sum_with_num_segments raw int64", lambda: tf.raw_ops.SparseSegmentSumWithNumSegments(
        data=d(), indices=tf.constant(idx, tf.int64), segment_ids=tf.constant(seg, tf.int64),
        num_segments=tf.constant(4, tf.int64)))
    c("mean raw indices int16", lambda: tf.raw_ops.SparseSegmentMean(
        data=d(), indices=tf.constant(idx, tf.int16), segment_ids=tf.constant(seg)))
    return c.out


program("l63-spseg", _spseg)


# -- l63-count: bincount and confusion_matrix -------------------------------------------------------------------------
def _count(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-count")
    a = [1, 3, 1, 0, 4, 3, 3]
    for dt in INTS + ("float32", "bool"):
        c(f"bincount arr {dt}", lambda dt=dt: tf.math.bincount(ints(tf, a, dt)))
        c(f"raw bincount arr {dt}", lambda dt=dt: tf.raw_ops.Bincount(arr=ints(tf, a, dt), size=5,
                                                                     weights=tf.zeros([0])))
    w = lambda dt: floats(tf, (7,), "l63-count-w", dt)  # noqa: E731
    for dt in ("int32", "int64", "int8", "uint8") + HALF + ("float32", "float64", "complex64", "bool"):
        c(f"bincount weights {dt}", lambda dt=dt: tf.math.bincount(a, weights=w(dt)))
    for name, v in (("py", lambda: 6), ("np int64", lambda: np.int64(6)), ("t int64", lambda: tf.constant(6, tf.int64)),
                    ("t int16", lambda: tf.constant(6, tf.int16)), ("float", lambda: 6.0), ("zero", lambda: 0),
                    ("negative", lambda: -1)):
        c(f"bincount minlength {name}", lambda v=v: tf.math.bincount(a, minlength=v()))
        c(f"bincount maxlength {name}", lambda v=v: tf.math.bincount(a, maxlength=v()))
    for dt in ("int64", "float64", "float16", "int8", "bool"):
        c(f"bincount dtype {dt}", lambda dt=dt: tf.math.bincount(a, dtype=dt))
    c("bincount binary_output", lambda: tf.math.bincount(a, binary_output=True))
    c("bincount binary_output weights", lambda: tf.math.bincount(a, weights=w("float32"), binary_output=True))
    c("bincount axis -1", lambda: tf.math.bincount([[1, 2, 2], [0, 0, 3]], axis=-1))
    c("bincount axis -1 int64 weights", lambda: tf.math.bincount(tf.constant([[1, 2, 2], [0, 0, 3]], tf.int64),
                                                                weights=[[0.5, 1.0, 2.0], [1.0, 1.0, 1.0]], axis=-1))
    c("bincount axis 0", lambda: tf.math.bincount([[1, 2, 2], [0, 0, 3]], axis=0))
    c("bincount negative", lambda: tf.math.bincount([1, -1, 2]))
    c("bincount empty", lambda: tf.math.bincount(tf.zeros([0], tf.int32)))
    c("bincount empty minlength", lambda: tf.math.bincount(tf.zeros([0], tf.int32), minlength=3))
    c("bincount rank 2", lambda: tf.math.bincount([[1, 2], [2, 3]]))
    lab, pr = [0, 2, 1, 2, 3], [0, 1, 1, 2, 2]
    for dt in INTS + ("float32", "float16", "bool"):
        c(f"confusion labels {dt}", lambda dt=dt: tf.math.confusion_matrix(ints(tf, lab, dt), pr))
        c(f"confusion predictions {dt}", lambda dt=dt: tf.math.confusion_matrix(lab, ints(tf, pr, dt)))
        c(f"confusion both {dt}", lambda dt=dt: tf.math.confusion_matrix(ints(tf, lab, dt), ints(tf, pr, dt)))
    for name, n in (("py", lambda: 5), ("np int64", lambda: np.int64(5)), ("t int64", lambda: tf.constant(5, tf.int64)),
                    ("t int32", lambda: tf.constant(5)), ("t int16", lambda: tf.constant(5, tf.int16)),
                    ("float", lambda: 5.0), ("too small", lambda: 3), ("exact", lambda: 4)):
        c(f"confusion num_classes {name}", lambda n=n: tf.math.confusion_matrix(lab, pr, num_classes=n()))
    for dt in ("int32", "int64", "float16", "float32", "float64", "int8", "uint8", "bool"):
        c(f"confusion dtype {dt}", lambda dt=dt: tf.math.confusion_matrix(lab, pr, dtype=dt))
        c(f"confusion weights {dt}", lambda dt=dt: tf.math.confusion_matrix(lab, pr, weights=w(dt)[:5]))
        c(f"confusion weights {dt} dtype float64", lambda dt=dt: tf.math.confusion_matrix(
            lab, pr, weights=w(dt)[:5], dtype=tf.float64))
    c("confusion negative label", lambda: tf.math.confusion_matrix([0, -1], [0, 1]))
    c("confusion length mismatch", lambda: tf.math.confusion_matrix([0, 1, 1], [0, 1]))
    c("confusion rank 2 labels", lambda: tf.math.confusion_matrix([[0, 1], [1, 2]], [[0, 1], [1, 1]]))
    c("confusion empty", lambda: tf.math.confusion_matrix(tf.zeros([0], tf.int32), tf.zeros([0], tf.int32),
                                                           num_classes=2))
    return c.out


program("l63-count", _count)


# -- l63-embed: embedding lookups and one_hot's output dtypes -------------------------------------------------------
def _embed(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-embed")
    p = lambda dt="float32": floats(tf, (5, 3), "l63-embed", dt)  # noqa: E731
    ids = [[4, 0], [2, 2]]
    for dt in INTS + ("float32", "bool"):
        c(f"lookup ids {dt}", lambda dt=dt: tf.nn.embedding_lookup(p(), ints(tf, ids, dt)))
    for dt in ("bool", "int8", "int32", "int64", "uint8", "complex64") + HALF + ("float64",):
        c(f"lookup params {dt}", lambda dt=dt: tf.nn.embedding_lookup(p(dt), ids))
    for dt in HALF + ("float32", "float64"):
        c(f"lookup max_norm {dt}", lambda dt=dt: tf.nn.embedding_lookup(p(dt), ids, max_norm=1.5))
    c("lookup max_norm int", lambda: tf.nn.embedding_lookup(p(), ids, max_norm=2))
    c("lookup params list", lambda: tf.nn.embedding_lookup([p()[:3], p()[3:]], [4, 0, 2, 1]))
    c("lookup out of range", lambda: tf.nn.embedding_lookup(p(), [5]))
    c("lookup negative", lambda: tf.nn.embedding_lookup(p(), [-1]))
    c("lookup grad", lambda: grad(tf, lambda x: tf.nn.embedding_lookup(x, ids), p()))

    def sp(dt: str) -> Any:
        return tf.SparseTensor(indices=tf.constant([[0, 0], [0, 1], [1, 0], [2, 0], [2, 2]], tf.int64),
                               values=ints(tf, [4, 1, 2, 0, 4], dt), dense_shape=[3, 3])

    def spw(dt: str) -> Any:
        return tf.SparseTensor(indices=tf.constant([[0, 0], [0, 1], [1, 0], [2, 0], [2, 2]], tf.int64),
                               values=floats(tf, (5,), "l63-embed-w", dt), dense_shape=[3, 3])
    for comb in ("sum", "mean", "sqrtn"):
        for dt in ("int32", "int64", "int16", "int8", "uint8"):
            c(f"sparse {comb} ids {dt}", lambda comb=comb, dt=dt: tf.nn.embedding_lookup_sparse(
                p(), sp(dt), None, combiner=comb))
        for dt in HALF + ("float32", "float64"):
            c(f"sparse {comb} weights {dt}", lambda comb=comb, dt=dt: tf.nn.embedding_lookup_sparse(
                p(dt), sp("int64"), spw(dt), combiner=comb))
        c(f"sparse {comb} weights float64 params float32", lambda comb=comb: tf.nn.embedding_lookup_sparse(
            p(), sp("int64"), spw("float64"), combiner=comb))
    c("sparse combiner max", lambda: tf.nn.embedding_lookup_sparse(p(), sp("int64"), None, combiner="max"))
    c("safe sparse weights", lambda: tf.nn.safe_embedding_lookup_sparse(p(), sp("int64"), spw("float32")))
    c("safe sparse ids int32", lambda: tf.nn.safe_embedding_lookup_sparse(p(), sp("int32"), None))
    for idt in ("int8", "int16", "uint8", "uint16", "uint32", "uint64", "float32", "bool"):
        c(f"one_hot indices {idt}", lambda idt=idt: tf.one_hot(ints(tf, [0, 2, 1], idt), 3))
    for odt in ("int8", "uint8", "int16", "int64", "bool", "float16", "bfloat16", "float64", "complex64"):
        c(f"one_hot dtype {odt}", lambda odt=odt: tf.one_hot([0, 2, -1], 3, dtype=odt))
        c(f"one_hot dtype {odt} values", lambda odt=odt: tf.one_hot([0, 2, -1], 3, on_value=tf.cast(5, odt),
                                                                    off_value=tf.cast(2, odt)))
    c("one_hot on bool off default", lambda: tf.one_hot([0, 2], 3, on_value=True))
    c("one_hot on int off float", lambda: tf.one_hot([0, 2], 3, on_value=1, off_value=0.5))
    c("one_hot dtype mismatch", lambda: tf.one_hot([0, 2], 3, on_value=1.0, dtype=tf.int32))
    return c.out


program("l63-embed", _embed)


# -- l63-rshape: shape arguments of the random ops and of zeros/ones/fill ------------------------------------------
def _shape_forms() -> list[tuple[str, Callable[[Any], Any]]]:
    out: list[tuple[str, Callable[[Any], Any]]] = [
        ("py floats", lambda tf: [2.0, 3.0]), ("py float one", lambda tf: [2, 3.0]), ("py bools", lambda tf: [True, 2]),
        ("np int8 items", lambda tf: [np.int8(2), np.int8(3)]), ("np uint64 items", lambda tf: [np.uint64(2), 3]),
        ("np float32 items", lambda tf: [np.float32(2), np.float32(3)]), ("np float array", lambda tf: np.array(
            [2.0, 3.0])), ("np bool array", lambda tf: np.array([True, True])), ("tuple", lambda tf: (2, 3)),
        ("scalar", lambda tf: 3), ("empty", lambda tf: []), ("zero dim", lambda tf: [0, 3]),
        ("negative", lambda tf: [-1, 3]), ("rank 2", lambda tf: [[2, 3]]), ("t float32", lambda tf: tf.constant(
            [2.0, 3.0])), ("t bool", lambda tf: tf.constant([True, True])), ("str", lambda tf: ["2", 3]),
        ("tensor items", lambda tf: [tf.constant(2), 3]), ("tensor int64 item", lambda tf: [tf.constant(2, tf.int64),
                                                                                           3])]
    out += [(f"t {dt}", (lambda d: lambda tf: tf.constant([2, 3], d))(dt)) for dt in INTS]
    return out


def _rshape(tf: Any) -> dict[str, Any]:
    c = Cases(tf, "l63-rshape")
    sh = lambda t: [t.dtype.name, t.shape.as_list()]  # noqa: E731
    for name, f in _shape_forms():
        # (the stateful ops: dtype and static shape only; a negative dim not traced — TF's graph leaves the dim
        # unknown and the traced function's outputs do not run the op)
        tr = name != "negative"
        c(f"uniform {name}", lambda f=f: sh(tf.random.uniform(f(tf), seed=1)), tr)
        c(f"normal {name}", lambda f=f: sh(tf.random.normal(f(tf), seed=1)), tr)
        c(f"truncated_normal {name}", lambda f=f: sh(tf.random.truncated_normal(f(tf), seed=1)), tr)
        c(f"uniform int {name}", lambda f=f: sh(tf.random.uniform(f(tf), 0, 5, tf.int32, seed=1)), tr)
        c(f"gamma {name}", lambda f=f: sh(tf.random.gamma(f(tf), 2.0, seed=1)), tr)
        c(f"poisson {name}", lambda f=f: sh(tf.random.poisson(f(tf), 2.0, seed=1)), tr)
        c(f"stateless_uniform {name}", lambda f=f: tf.random.stateless_uniform(f(tf), [1, 2]))
        c(f"stateless_normal {name}", lambda f=f: tf.random.stateless_normal(f(tf), [1, 2]))
        c(f"stateless_truncated_normal {name}", lambda f=f: tf.random.stateless_truncated_normal(f(tf), [1, 2]))
        c(f"stateless_uniform int64 {name}", lambda f=f: tf.random.stateless_uniform(f(tf), [1, 2], 0, 9, tf.int64))
        c(f"zeros {name}", lambda f=f: tf.zeros(f(tf)))
        c(f"ones int8 {name}", lambda f=f: tf.ones(f(tf), tf.int8))
        c(f"fill {name}", lambda f=f: tf.fill(f(tf), 1.5))
        c(f"broadcast_to {name}", lambda f=f: tf.broadcast_to(1.0, f(tf)))
    for name, s in (("t int32", lambda: tf.constant([1, 2])), ("t int64", lambda: tf.constant([1, 2], tf.int64)),
                    ("t int16", lambda: tf.constant([1, 2], tf.int16)), ("t uint32", lambda: tf.constant([1, 2],
                                                                                                         tf.uint32)),
                    ("t float32", lambda: tf.constant([1.0, 2.0])), ("np int8", lambda: np.array([1, 2], np.int8))):
        c(f"stateless seed {name}", lambda s=s: tf.random.stateless_uniform([2], s()))
    for name, n in (("py", lambda: 3), ("np int64", lambda: np.int64(3)), ("t int64", lambda: tf.constant(
            3, tf.int64)), ("t int16", lambda: tf.constant(3, tf.int16)), ("float", lambda: 3.0), ("zero", lambda: 0)):
        c(f"categorical num_samples {name}", lambda n=n: sh(tf.random.categorical([[0.5, 1.0]], n(), seed=1)))
        c(f"stateless categorical num_samples {name}", lambda n=n: tf.random.stateless_categorical(
            [[0.5, 1.0, -1.0]], n(), [3, 4]))
    for dt in ("int16", "int32", "int64", "uint8", "float32"):
        c(f"categorical dtype {dt}", lambda dt=dt: sh(tf.random.categorical([[0.5, 1.0]], 2, dtype=dt, seed=1)))
    return c.out


program("l63-rshape", _rshape)


RDTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int32", "int64", "uint32", "uint64", "complex64", "bool")


def _rdtype(tf: Any) -> dict[str, Any]:
    """The random ops' dtype argument (omitted, and each dtype) and their logits/lam/alpha dtypes; scalar-tensor
    shapes. Stateful ops: dtype and shape only; stateless: values."""
    c = Cases(tf, "l63-rdtype")
    sh = lambda t: [t.dtype.name, t.shape.as_list()]  # noqa: E731
    seed = [3, 4]
    c("uniform default", lambda: sh(tf.random.uniform([2], seed=1)))
    c("stateless_uniform default", lambda: tf.random.stateless_uniform([2], seed))
    c("stateless_poisson default", lambda: tf.random.stateless_poisson([2], seed, [1.5, 4.0]))
    c("poisson default", lambda: sh(tf.random.poisson([2], [1.5, 4.0], seed=1)))
    c("categorical default", lambda: sh(tf.random.categorical([[0.5, 1.0]], 2, seed=1)))
    c("stateless_categorical default", lambda: tf.random.stateless_categorical([[0.5, 1.0, -1.0]], 3, seed))
    for dt in RDTYPES:
        c(f"uniform {dt}", lambda dt=dt: sh(tf.random.uniform([2], dtype=dt, seed=1)))
        c(f"uniform {dt} maxval 7", lambda dt=dt: sh(tf.random.uniform([2], 0, 7, dtype=dt, seed=1)))
        c(f"normal {dt}", lambda dt=dt: sh(tf.random.normal([2], dtype=dt, seed=1)))
        c(f"truncated_normal {dt}", lambda dt=dt: sh(tf.random.truncated_normal([2], dtype=dt, seed=1)))
        c(f"stateless_uniform {dt}", lambda dt=dt: tf.random.stateless_uniform([3], seed, dtype=dt))
        c(f"stateless_uniform {dt} 0 7", lambda dt=dt: tf.random.stateless_uniform([3], seed, 0, 7, dtype=dt))
        c(f"stateless_uniform {dt} None None", lambda dt=dt: tf.random.stateless_uniform([3], seed, None, None,
                                                                                       dtype=dt))
        c(f"stateless_normal {dt}", lambda dt=dt: tf.random.stateless_normal([3], seed, dtype=dt))
        c(f"stateless_truncated_normal {dt}", lambda dt=dt: tf.random.stateless_truncated_normal([3], seed, dtype=dt))
        c(f"poisson {dt}", lambda dt=dt: sh(tf.random.poisson([2], [1.5, 4.0], dtype=dt, seed=1)))
        c(f"stateless_poisson {dt}", lambda dt=dt: tf.random.stateless_poisson([2], seed, [1.5, 4.0], dtype=dt))
        c(f"gamma {dt}", lambda dt=dt: sh(tf.random.gamma([2], 2.0, dtype=dt, seed=1)))
        c(f"stateless_gamma {dt}", lambda dt=dt: tf.random.stateless_gamma([2], seed, 2.0, dtype=dt))
        c(f"categorical dtype {dt}", lambda dt=dt: sh(tf.random.categorical([[0.5, 1.0]], 2, dtype=dt, seed=1)))
        c(f"stateless_categorical dtype {dt}", lambda dt=dt: tf.random.stateless_categorical(
            [[0.5, 1.0, -1.0]], 3, seed, dtype=dt))
    for dt in ("float16", "bfloat16", "float64", "int32", "int64", "complex64"):
        lg = lambda dt=dt: floats(tf, (2, 3), "l63-rdtype-logits", dt)  # noqa: E731
        c(f"categorical logits {dt}", lambda lg=lg: sh(tf.random.categorical(lg(), 2, seed=1)))
        c(f"stateless_categorical logits {dt}", lambda lg=lg: tf.random.stateless_categorical(lg(), 3, seed))
        c(f"stateless_poisson lam {dt}", lambda dt=dt: tf.random.stateless_poisson([2], seed, tf.cast([1.5, 4.0], dt)))
        c(f"stateless_gamma alpha {dt}", lambda dt=dt: tf.random.stateless_gamma([2], seed, tf.cast(2.0, dt)))
    c("categorical zero classes", lambda: sh(tf.random.categorical(tf.zeros([2, 0]), 2, seed=1)), False)
    c("stateless_categorical zero classes", lambda: tf.random.stateless_categorical(tf.zeros([2, 0]), 2, seed))
    for dt in ("int8", "uint8", "int64", "float16", "bfloat16", "float64", "complex64", "bool"):
        x = lambda: floats(tf, (2, 2), "l63-rdtype-like")  # noqa: E731
        c(f"zeros_like dtype {dt}", lambda dt=dt, x=x: tf.zeros_like(x(), dtype=dt))
        c(f"ones_like dtype {dt}", lambda dt=dt, x=x: tf.ones_like(x(), dtype=dt))
        c(f"zeros_like of {dt}", lambda dt=dt: tf.zeros_like(floats(tf, (2,), "l63-rdtype-like", dt)))
    for a, b in (("int32", "int64"), ("int64", "int32"), ("int32", "float32"), ("float32", "float64"),
                 ("float64", "int32"), ("int16", "int32"), ("uint8", "int32")):
        c(f"range start {a} limit {b}", lambda a=a, b=b: tf.range(tf.constant(1, a), tf.constant(7, b), 2))
    for b in ("int64", "int16", "float64", "uint8"):
        c(f"range py start limit {b}", lambda b=b: tf.range(1, tf.constant(7, b)))
    for name, s in (("t int32", lambda: tf.constant(3)), ("t int64", lambda: tf.constant(3, tf.int64)),
                    ("np int64", lambda: np.int64(3)), ("np 0-d", lambda: np.array(3)), ("py", lambda: 3)):
        c(f"uniform scalar {name}", lambda s=s: sh(tf.random.uniform(s(), seed=1)))
        c(f"stateless_normal scalar {name}", lambda s=s: tf.random.stateless_normal(s(), seed))
        c(f"zeros scalar {name}", lambda s=s: tf.zeros(s()))
    return c.out


program("l63-rdtype", _rdtype)


# -- l63-kloss: keras sparse losses and metrics over label dtypes ---------------------------------------------------
LAB_DTS = ("int8", "uint8", "int16", "int32", "int64", "float16", "float32")


def _kloss(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    k = tf.keras
    lab = [0, 3, 1, 2]
    yp = lambda dt="float32": floats(tf, (4, 4), "l63-kloss", dt)  # noqa: E731
    pr = lambda dt="float32": tf.nn.softmax(floats(tf, (4, 4), "l63-kloss", "float64")) if dt == "float64" \
        else tf.cast(tf.nn.softmax(floats(tf, (4, 4), "l63-kloss", "float64")), dt)  # noqa: E731

    def o(key: str, f: Callable[[], Any]) -> None:
        assert key not in out, key
        out[key] = res(f)
    for dt in LAB_DTS:
        for fl in (False, True):
            x = yp if fl else pr
            for ic in (None, 0, 2):
                o(f"scce {dt} logits {fl} ignore {ic}", lambda dt=dt, fl=fl, ic=ic, x=x: k.losses.
                  SparseCategoricalCrossentropy(from_logits=fl, ignore_class=ic, name="scce")(ints(tf, lab, dt), x()))
            o(f"scce fn {dt} logits {fl}", lambda dt=dt, fl=fl, x=x: k.losses.sparse_categorical_crossentropy(
                ints(tf, lab, dt), x(), from_logits=fl))
        o(f"scce {dt} rank 2 labels", lambda dt=dt: k.losses.SparseCategoricalCrossentropy(name="scce")(
            ints(tf, [[0], [3], [1], [2]], dt), pr()))
        o(f"scce {dt} weighted", lambda dt=dt: k.losses.SparseCategoricalCrossentropy(name="scce")(
            ints(tf, lab, dt), pr(), sample_weight=[1.0, 0.5, 0.0, 2.0]))
        o(f"acc {dt}", lambda dt=dt: k.metrics.sparse_categorical_accuracy(ints(tf, lab, dt), pr()))
        o(f"topk {dt}", lambda dt=dt: k.metrics.sparse_top_k_categorical_accuracy(ints(tf, lab, dt), pr(), k=2))

        def metric(m: Any, y: Any, p: Any) -> Any:
            m.update_state(y, p)
            m.update_state(y[::-1], p)
            return [m.result(), [v.dtype for v in m.variables]]
        o(f"acc metric {dt}", lambda dt=dt: metric(k.metrics.SparseCategoricalAccuracy(name="sca"),
                                                   ints(tf, lab, dt), pr()))
        o(f"topk metric {dt}", lambda dt=dt: metric(k.metrics.SparseTopKCategoricalAccuracy(k=2, name="stk"),
                                                    ints(tf, lab, dt), pr()))
        o(f"topk sorted ids {dt}", lambda dt=dt: metric(k.metrics.SparseTopKCategoricalAccuracy(
            k=2, from_sorted_ids=True, name="stks"), ints(tf, lab, dt), tf.constant([[0, 1], [3, 2], [2, 0], [1, 2]])))
        o(f"iou {dt}", lambda dt=dt: metric(k.metrics.MeanIoU(num_classes=4, name="miou"), ints(tf, lab, dt),
                                            ints(tf, [0, 3, 2, 2], dt)))
        o(f"iou ignore {dt}", lambda dt=dt: metric(k.metrics.MeanIoU(num_classes=4, ignore_class=0, name="miou"),
                                                   ints(tf, lab, dt), ints(tf, [0, 3, 2, 2], dt)))
        o(f"iou dense pred {dt}", lambda dt=dt: metric(k.metrics.MeanIoU(num_classes=4, sparse_y_pred=False,
                                                                         name="miou"), ints(tf, lab, dt), pr()))
    for dt in ("float16", "float64"):
        for fl in (False, True):
            o(f"scce pred {dt} logits {fl}", lambda dt=dt, fl=fl: k.losses.SparseCategoricalCrossentropy(
                from_logits=fl, name="scce")(tf.constant(lab), (yp if fl else pr)(dt)))
            o(f"scce pred {dt} logits {fl} ignore 0", lambda dt=dt, fl=fl: k.losses.SparseCategoricalCrossentropy(
                from_logits=fl, ignore_class=0, name="scce")(tf.constant(lab, tf.int8), (yp if fl else pr)(dt)))
    # (labels as tensors: a Python list is a structure to Keras's Loss.__call__, a known difference, keras.loss.shapes)
    o("scce labels out of range", lambda: k.losses.SparseCategoricalCrossentropy(name="scce")(
        tf.constant([0, 4, 1, 2]), pr()))
    o("scce ignore -1 labels", lambda: k.losses.SparseCategoricalCrossentropy(ignore_class=-1, name="scce")(
        tf.constant([0, -1, 1, 2]), pr()))
    o("scce fn labels out of range", lambda: k.losses.sparse_categorical_crossentropy(tf.constant([0, 4, 1, 2]),
                                                                                       pr()))
    o("scce fn ignore -1 labels", lambda: k.losses.sparse_categorical_crossentropy(tf.constant([0, -1, 1, 2]), pr(),
                                                                                    ignore_class=-1))
    o("scce labels uint32", lambda: k.losses.SparseCategoricalCrossentropy(name="scce")(
        tf.constant(lab, tf.uint32), pr()))
    o("scce labels bool", lambda: k.losses.SparseCategoricalCrossentropy(name="scce")(
        tf.constant([True, False, True, True]), pr()))
    o("iou num_classes np", lambda: k.metrics.MeanIoU(num_classes=np.int64(3), name="m")([0, 1, 2], [0, 2, 2]))
    o("iou dtype float64", lambda: k.metrics.MeanIoU(num_classes=3, dtype="float64", name="m")([0, 1, 2], [0, 2, 2]))
    o("iou out of range", lambda: k.metrics.MeanIoU(num_classes=3, name="m")([0, 1, 3], [0, 2, 2]))
    o("iou float preds", lambda: k.metrics.MeanIoU(num_classes=3, name="m")([0, 1, 2], [0.4, 1.6, 2.5]))
    return out


program("l63-kloss", _kloss)
