"""Rules behind the twentieth fuzzer's classes that fz31a closed (fresh campaigns of session 31: seeds
3120261201-08 in every mode), each against real TensorFlow 2.21: the same raw call on both backends gives the
same dtype and values bit for bit (a NaN matching any NaN), or raises the same exception class. Eagerly,
inside a tf.function and under a GradientTape. Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import edge_compare
from edge_programs import eager as _eager, tape as _tape, traced as _traced, var_traced as _var_traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_K = "ops.fuzz-raw"
_G = "autodiff.op-gradients"
_T = "function.trace-time-errors"

_SEGV2 = ("tf.raw_ops.SegmentSumV2(data=tf.ones({d}), segment_ids=tf.zeros({i}, tf.int32), "
          "num_segments=tf.fill({n}, 3))")
_MP = ("tf.raw_ops.MaxPool(input=tf.reshape(tf.range(36, dtype=tf.{dt}), [1, 6, 6, 1]), ksize={k}, "
       "strides=[1, 1, 1, 1], padding='{p}', explicit_paddings={e})")
_MPG = ("tf.raw_ops.MaxPoolGrad(orig_input=tf.reshape(tf.range(36.0), [1, 6, 6, 1]), orig_output=tf.ones([1, 6, 6, 1]), "
        "grad=tf.ones([1, 6, 6, 1]), ksize=[1, 2, 2, 1], strides=[1, 1, 1, 1], padding='EXPLICIT', explicit_paddings={e})")
_TS = "tf.raw_ops.{op}(tensor={x}, indices={i}, updates={u})"
_SN = "tf.raw_ops.ScatterNd(shape=tf.constant({s}, tf.int32), indices=tf.constant({i}, tf.int32), updates={u})"
_GND = "tf.raw_ops.GatherNd(params=tf.reshape(tf.range(6.0), [2, 3]), indices={i})"

def _both_grads(op: str, y: str, dy: str) -> Callable[[Any], Any]:
    """The raw op of watched y and dy under a GradientTape: its value and both gradients."""
    def run(tf: Any) -> Any:
        a, b = eval(y, {"tf": tf}), eval(dy, {"tf": tf})  # noqa: S307 - our own text
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(a)
            tape.watch(b)
            out = getattr(tf.raw_ops, op)(y=a, dy=b)
        return [out, *tape.gradient(out, [a, b])]
    return run


_FN10 = [
    ("MatrixSetDiagV2 string [3, 2], diagonal [3, 2], k 0", "tf.raw_ops.MatrixSetDiagV2(k=tf.constant(0, tf.int32), "
     "input=tf.fill([3, 2], 'a'), diagonal=tf.fill([3, 2], 'b'))"),
    *[(f"MatrixSetDiagV2 {x} diagonal {d} k {k}", f"tf.raw_ops.MatrixSetDiagV2(k={k}, input=tf.ones({x}), "
       f"diagonal=tf.ones({d}))") for x, d, k in (
        ([3, 2], [3, 2], 0), ([3, 2], [3], 0), ([3, 2], [2], [0, 1]), ([2, 3, 2], [2, 2], [0, 1]))],
    *[(f"StatelessMultinomial {name}", f"tf.raw_ops.StatelessMultinomial(logits={lg}, num_samples={n}, seed={sd})")
      for name, lg, n, sd in (
          ("int8 scalar logits", "tf.constant(-1, tf.int8)", 7, [7, 7]), ("scalar logits", "tf.constant(-1.0)", 7, [7, 7]),
          ("num_samples [1]", "tf.ones([1, 2])", [7], [7, 7]), ("seed [3]", "tf.ones([1, 2])", 7, [7, 7, 7]),
          ("seed [[7, 7]]", "tf.ones([1, 2])", 7, [[7, 7]]))],
    *[(f"Select condition {cd} t {t} e {e}", f"tf.raw_ops.Select(condition=tf.ones({cd}, tf.bool), t=tf.ones({t}), "
       f"e=tf.ones({e}))") for cd, t, e in (
        ([3, 3, 2], [3, 3, 2], [3, 1, 4]), ([2], [3, 2], [3, 2]), ([2, 2], [3, 2], [3, 2]), ([3], [], []), ([], [3], [3]),
        ([3, 1], [3, 2], [3, 2]), ([3], [3, 2], [3, 2]))],
    *[(f"MirrorPadGrad SYMMETRIC paddings {p} of [2, 2]", f"tf.raw_ops.MirrorPadGrad(mode='SYMMETRIC', "
       f"input=tf.ones([2, 2], tf.int32), paddings={p})") for p in (
        [[-1, 0], [1, 0]], [[1, 1], [1, 1]], [[2, 1], [0, 0]], [[0, 0]], [[0, 0, 0], [0, 0, 0]], [[1, 0], [0, 1]])],
    *[(f"DynamicStitch data {d} indices [[0, 1]]", f"tf.raw_ops.DynamicStitch(data=(tf.zeros({d}, tf.uint16),), "
       "indices=[[0, 1]])") for d in ([2, 0, 2], [2, 2], [1, 2, 0], [0])],
]

_SUB = "tf.raw_ops.Substr(input=tf.fill({x}, 'ab'), pos=tf.zeros({p}, tf.int32), len=tf.zeros({n}, tf.int32))"
_CSV = "tf.raw_ops.DecodeCSV(records=tf.constant(['1,2', '2,3']), record_defaults=[{d}])"
_MSD = "tf.raw_ops.MatrixSetDiag{v}(input={x}, diagonal={d}, k={k})"
_BMM = "tf.raw_ops.BatchMatMulV3(x=tf.ones({a}), y=tf.ones({b}), Tout=tf.{t}{kw})"
_EGV2 = ("tf.raw_ops.ExtractGlimpseV2(input=tf.ones({x}), size={s}, offsets=tf.zeros({o}), noise='{n}', "
         "uniform_noise={u})")
_A2A = ("(tf.function(lambda: tf.raw_ops.AllToAll(input=tf.zeros({x}), group_assignment=tf.zeros({g}, tf.int32), "
        "split_dimension={sd}, concat_dimension={cd}, split_count={sc})).get_concrete_function(), 'traced')[1]")
_TRI = "tf.raw_ops.TridiagonalMatMul(superdiag=x0, maindiag=x1, subdiag=x2, rhs=x3)"


def _sig_trace(expr: str, specs: list[tuple[list[int | None], str]]) -> Callable[[Any], Any]:
    """get_concrete_function of `lambda x0, ...: expr` with an input_signature of `specs` (its trace-time
    error, if any)."""
    def run(tf: Any) -> Any:
        fn = eval("lambda " + ", ".join(f"x{i}" for i in range(len(specs))) + ": " + expr, {"tf": tf})  # noqa: S307
        tf.function(fn, input_signature=[tf.TensorSpec(s, getattr(tf, d)) for s, d in specs],
                    autograph=False).get_concrete_function()
        return "traced"
    return run


_SIG_SHAPE_FNS = [
    *[(f"{op} gradients [1, 4], {arg} {s} in an input_signature", f"tf.raw_ops.{op}(gradients=x0, {arg}=x1)",
       [([1, 4], "float32"), (s, "float32")])
      for op, arg in (("SoftplusGrad", "features"), ("ReluGrad", "features"), ("EluGrad", "outputs"))
      for s in ([None], [2, None])],
    *[(f"TridiagonalMatMul {[s for s, _ in specs]} in an input_signature", _TRI, specs) for specs in (
        [([2, None, None], "float64"), ([2, None, None], "float64"), ([None, 2, None], "float64"),
         ([2, None, None], "float64")],
        [([4], "float64"), ([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 4, 3], "float64")],
        [([3, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 4, 3], "float64")],
        [([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 5, 3], "float64")],
        [([2, 1, 5], "float64"), ([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 4, 3], "float64")],
        [([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([2, 1, 4], "float64"), ([3, 4, 3], "float64")],
        [([2, 2, 4], "float64"), ([2, 2, 4], "float64"), ([2, 2, 4], "float64"), ([2, 4, 3], "float64")],
        [([2, 1, None], "float64"), ([None, 1, 4], "float64"), ([2, None, 4], "float64"), ([2, 4, None], "float64")])],
]

_SHAPE_FNS = [
    *[(f"Substr input {x}, pos {p}, len {n}", _SUB.format(x=x, p=p, n=n)) for x, p, n in (
        ([2], [], [2]), ([2], [2], []), ([2, 3], [3], [3]), ([2, 3], [2, 1], [2, 1]), ([3], [2, 3], [2, 3]),
        ([], [2], [2]), ([3], [2], [2, 2]), ([4, 4, 1], [4, 4, 1], [4, 4, 1, 1]), ([2], [2], [3]), ([3], [2], [2]))],
    *[(f"DecodeCSV record_defaults {d}", _CSV.format(d=d)) for d in (
        "tf.constant(1), tf.constant([2])", "tf.ones([0], tf.int32), tf.ones([3], tf.int32)", "tf.ones([1, 2], tf.int32)",
        "tf.ones([1, 1], tf.int32)")],
    *[(f"{op} channels -1", f"tf.raw_ops.{op}(contents=tf.constant('x'), channels=-1)")
      for op in ("DecodeImage", "DecodePng", "DecodeJpeg", "DecodeBmp")],
    ("DecodeImage channels -1 of contents [1]", "tf.raw_ops.DecodeImage(contents=tf.constant(['x']), channels=-1)"),
    ("DecodeImage channels 2", "tf.raw_ops.DecodeImage(contents=tf.constant('x'), channels=2)"),
    *[(f"MatrixSetDiag{v} {x} {d} k={k}", _MSD.format(v=v, x=x, d=d, k=k)) for v, x, d, k in (
        ("V2", "tf.ones([2, 2, 4])", "tf.ones([4])", "tf.raw_ops.Identity(input=tf.constant(3))"),
        ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 2, 2, 2])", 0), ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 2, 2, 2])", [0, 1]),
        ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 2])", [1, 0]), ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 2])", 4),
        ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 2])", -2), ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 2])", [[0]]),
        ("V2", "tf.ones([2, 2, 4])", "tf.ones([2, 3])", 0), ("V2", "tf.fill([4], 'a')", "tf.fill([4], 'a')", 0),
        ("V2", "tf.fill([2, 2], 'a')", "tf.fill([2], 'a')", 0), ("V3", "tf.fill([2, 2, 4], 'a')", "tf.fill([4], 'a')", 3),
        ("V2", "tf.fill([2, 2, 4], 'a')", "tf.fill([4], 'a')", "tf.constant(3, tf.int32)"))],
    *[(f"BatchMatMulV3 {a} x {b} Tout {t}{kw}", _BMM.format(a=a, b=b, t=t, kw=kw)) for a, b, t, kw in (
        ([2, 3], [2, 3], "int32", ""), ([2], [2, 3], "int32", ""), ([2, 2, 3], [3, 3, 1], "int32", ""),
        ([3, 2], [3, 1], "int32", ", adj_x=True"), ([2, 3], [2, 3], "float32", ""), ([3, 0], [0, 3], "int32", ""))],
    ("BatchMatMulV3 float32 [3, 0] x complex64 [3, 0] Tout int32", "tf.raw_ops.BatchMatMulV3(x=tf.zeros([3, 0]), "
     "y=tf.zeros([3, 0], tf.complex64), Tout=tf.int32)"),
    *[(f"ExtractGlimpseV2 input {x} size {s} offsets {o} noise '{n}' uniform {u}", _EGV2.format(x=x, s=s, o=o, n=n, u=u))
      for x, s, o, n, u in (
          ([1, 3, 3, 1], [1, 1], [1, 2], "x", True), ([1, 3, 3, 1], [1, 1], [1, 2], "x", False),
          ([1, 3, 3, 1], [1, 1], [1, 2], "gaussian", True), ([1, 3, 3, 1], [1, 1], [1, 2], "", True),
          ([1, 3, 3, 1], [1, 1, 1], [1, 2], "uniform", True), ([1, 3, 3, 1], [1, 1], [2, 2], "uniform", True),
          ([1, 3, 3, 1], [1, 1], [1], "uniform", True), ([2, 3], [1, 1], [2, 3], "x", True),
          ([1, 3, 3, 1], [1, 0], [1, 2], "uniform", True))],
    *[(f"AllToAll input {x} group {g} split {sd} concat {cd} count {sc} (traced only)",
       _A2A.format(x=x, g=g, sd=sd, cd=cd, sc=sc)) for x, g, sd, cd, sc in (
        ([2, 3], [1, 1], 4, 0, -1), ([2, 3], [1, 1], 4, 0, 1), ([2, 3], [1, 1], 0, 4, 1), ([2, 3], [1], 0, 0, 0),
        ([2, 3], [1], 0, 0, 1), ([2, 3], [1, 1], 1, 0, 2), ([2, 3], [1, 1], -1, 0, 1), ([2, 3], [1, 1], 0, -1, 1),
        ([], [1, 1], 0, 0, 1), ([2, 3], [1, 1], 4, 0, 2), ([2, 3], [1, 2], 1, 0, 2), ([2, 3], [1, 2], 0, 1, 2))],
]

CASES: list[tuple[str, str, Any]] = [
    # SegmentReductionWithNumSegmentsShapeFn: num_segments a scalar, then MergePrefix(data, segment_ids), scalar
    # segment_ids too (seed 3120261201 #42)
    *[(f"SegmentSumV2 data {d}, segment_ids {i}, num_segments {n} in a tf.function", _T,
       _traced(_SEGV2.format(d=d, i=i, n=n))) for d, i, n in (
        ("[2, 4]", "[]", "[]"), ("[]", "[]", "[]"), ("[]", "[1]", "[]"), ("[2, 3]", "[2]", "[1]"),
        ("[2]", "[]", "[1]"), ("[1, 1, 2]", "[1, 1]", "[]"), ("[2, 3]", "[1]", "[]"))],
    # MaxPool's EXPLICIT padding: PoolParameters' CheckValidPadding and CheckPaddingSize eagerly, the shape
    # function's CheckValidPadding at trace (seed 3120261201 #107)
    *[(f"MaxPool {dt} ksize {k} padding {p} {e}{' in a tf.function' if fn else ''}", _K,
       (_traced if fn else _eager)(_MP.format(dt=dt, k=k, p=p, e=e)))
      for fn in (False, True) for dt, k, p, e in (
          ("float32", [1, 2, 2, 1], "EXPLICIT", [1, 0, 0, 0, 0, 0, 0, 0]),
          ("float32", [1, 2, 2, 1], "EXPLICIT", [0, 0, 0, 0, 0, 0, 0, 1]),
          ("bfloat16", [1, 1, 1, 1], "EXPLICIT", [0, 1, 1, 1, 0, 1, 1, 1]),
          ("float32", [1, 2, 2, 1], "EXPLICIT", [0, 0, 0, 0, 0, 0]),
          ("float32", [1, 2, 2, 1], "EXPLICIT", []),
          ("float32", [1, 2, 2, 1], "EXPLICIT", [0, 0, -1, 0, 0, 0, 0, 0]),
          ("float32", [1, 2, 2, 1], "EXPLICIT", [0, 0, 2, 0, 0, 0, 0, 0]),
          ("float64", [1, 2, 2, 1], "EXPLICIT", [0, 0, 0, 3, 0, 0, 0, 0]),
          ("int32", [1, 2, 2, 1], "EXPLICIT", [0, 0, 0, 0, 2, 0, 0, 0]),
          ("float16", [1, 2, 2, 1], "EXPLICIT", [0, 0, 0, 0, 0, 2, 0, 0]),
          ("float32", [1, 1, 1, 1], "EXPLICIT", [0, 0, 0, 1, 1, 0, 0, 0]),
          ("float32", [1, 2, 2, 1], "EXPLICIT", [0, 0, 1, 1, 1, 1, 0, 0]),
          ("float32", [1, 2, 2, 1], "VALID", [0, 0, 0, 0, 0, 0, 0, 0]),
          ("float32", [2, 2, 2, 1], "EXPLICIT", [1, 0, 0, 0, 0, 0, 0, 0]))],
    ("MaxPool EXPLICIT top padding of an empty batch", _K, _eager(
        "tf.raw_ops.MaxPool(input=tf.ones([0, 2, 2, 1]), ksize=[1, 1, 1, 1], strides=[1, 1, 1, 1], padding='EXPLICIT', "
        "explicit_paddings=[0, 0, 1, 0, 0, 0, 0, 0])")),
    *[(f"MaxPoolGrad EXPLICIT {e}{' in a tf.function' if fn else ''}", _K, (_traced if fn else _eager)(_MPG.format(e=e)))
      for fn in (False, True) for e in ([0, 0, 2, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0, 0, 0])],
    # DoScatterNd: an empty output left as it is before the switch on the indices' depth (1 to 7 only; seed
    # 3120261201 #197)
    *[(f"{op} {name}{' in a tf.function' if fn else ''}", _K, (_traced if fn else _eager)(_TS.format(op=op, x=x, i=i, u=u)))
      for op in ("TensorScatterMax", "TensorScatterMin", "TensorScatterAdd", "TensorScatterUpdate", "TensorScatterSub")
      for fn, name, x, i, u in (
          (False, "empty tensor, indices [0]", "tf.zeros([0, 1, 0], tf.int8)", "tf.constant([], tf.int64)",
           "tf.zeros([0, 1, 0], tf.int8)"),
          (True, "empty tensor, indices [0]", "tf.zeros([0, 1, 0], tf.int8)", "tf.constant([], tf.int64)",
           "tf.zeros([0, 1, 0], tf.int8)"),
          (False, "indices [2, 0, 0]", "tf.constant([1.0, 5.0])", "tf.zeros([2, 0, 0], tf.int64)", "tf.zeros([2, 0, 2])"),
          (True, "indices [2, 0, 0]", "tf.constant([1.0, 5.0])", "tf.zeros([2, 0, 0], tf.int64)", "tf.zeros([2, 0, 2])"),
          (False, "indices [0, 0]", "tf.constant([1.0, 5.0])", "tf.zeros([0, 0], tf.int64)", "tf.zeros([0, 2])"),
          (False, "indices [3, 0]", "tf.constant([1.0, 5.0])", "tf.zeros([3, 0], tf.int64)", "tf.ones([3, 2])"),
          (False, "depth 7", "tf.ones([1] * 7)", "tf.zeros([1, 7], tf.int64)", "tf.ones([1])"),
          (False, "depth 8", "tf.ones([1] * 8)", "tf.zeros([1, 8], tf.int64)", "tf.ones([1])"),
          (False, "depth 8, a bad index", "tf.ones([1] * 8)", "tf.ones([1, 8], tf.int64)", "tf.ones([1])"))],
    # ScatterNdOp::Compute: ValidEmptyOutputShape counts the shape vector's elements; the kernel's empty output
    *[(f"ScatterNd shape {s}, indices {i}, updates {u}{' in a tf.function' if fn else ''}", _K,
       (_traced if fn else _eager)(_SN.format(s=s, i=i, u=u))) for fn, s, i, u in (
        (False, [2], "np.zeros([3, 0], np.int32)", "tf.ones([3, 2])"),
        (True, [2], "np.zeros([3, 0], np.int32)", "tf.ones([3, 2])"),
        (False, [0], [[0]], "tf.ones([5])"),
        (False, [0], [[0]], "tf.ones([1])"),
        (False, [0], "np.zeros([0, 1], np.int32)", "tf.ones([0])"),
        (False, [2, 3], "np.zeros([0, 1], np.int32)", "tf.ones([0, 3])"),
        (False, [2, 3], "np.zeros([0, 1], np.int32)", "tf.ones([1, 3])"),
        (False, [2, 0], [[0]], "tf.ones([1, 0])"),
        (True, [2, 0], [[0]], "tf.ones([1, 0])"),
        (False, [2], [[0]], "tf.ones([])"),
        (False, 2, [[0]], "tf.ones([1])"),
        (False, 2, "np.zeros([0, 1], np.int32)", "tf.ones([0])"),
        (False, [[2]], [[0]], "tf.ones([1])"),
        (False, [-1], [[0]], "tf.ones([1])"),
        (False, [1] * 8, [[0] * 8], "tf.ones([1])"))],
    # the shape functions at trace (shape_fns_raw31.py): function seed 3120261205 #28, #121, #126, #169, #181; sig
    # seed 3120261202 #32, #62, #126
    *[(name, _T, _traced(expr)) for name, expr in _SHAPE_FNS],
    *[(name, _T, _sig_trace(expr, specs)) for name, expr, specs in _SIG_SHAPE_FNS],
    ("tf.scatter_nd of a scalar shape", _K, _eager("tf.scatter_nd([[0]], [1.0], 2)")),
    # GatherNd: indices of depth 0 gather all of params (sig seed 3120261202 #174); depth 8 refused
    *[(f"GatherNd indices {i}{' in a tf.function' if fn else ''}", _K, (_traced if fn else _eager)(_GND.format(i=i)))
      for fn, i in (
          (False, "tf.zeros([2, 0], tf.int64)"), (True, "tf.zeros([2, 0], tf.int64)"), (False, "tf.zeros([0], tf.int64)"),
          (False, "tf.zeros([2, 1, 0], tf.int32)"), (False, "tf.constant([[], []], tf.int64)"))],
    ("tf.gather_nd of [2, 0] indices", _K, _eager("tf.gather_nd(tf.reshape(tf.range(6.0), [2, 3]), tf.zeros([2, 0], "
                                                   "tf.int64))")),
    ("GatherNd of empty params, [2, 0] indices", _K, _eager(
        "tf.raw_ops.GatherNd(params=tf.zeros([0, 3]), indices=tf.zeros([2, 0], tf.int64))")),
    *[(f"GatherNd depth 8 {name}", _K, _eager(f"tf.raw_ops.GatherNd(params={p}, indices={i})")) for name, p, i in (
        ("", "tf.ones([1] * 8)", "tf.zeros([1, 8], tf.int64)"),
        ("bad index", "tf.ones([1] * 8)", "tf.ones([1, 8], tf.int64)"),
        ("no indices", "tf.ones([1] * 8)", "tf.zeros([0, 8], tf.int64)"),
        ("empty params", "tf.ones([1] * 7 + [0])", "tf.zeros([1, 8], tf.int64)"))],
    # DynamicPartitionOp's kernel: data's shape starts with partitions' (tape seed 3120261203 #172)
    *[(f"DynamicPartition partitions {p}, data {d}", _K, _eager(
        f"tf.raw_ops.DynamicPartition(partitions=tf.constant({p}, tf.int32), num_partitions=2, data={d})"))
      for p, d in (("[]", "tf.ones([3, 4], tf.uint16)"), ("[]", "tf.ones([0, 4])"), ("0", "tf.ones([3, 4])"),
                   ("[0, 1]", "tf.ones([3, 4])"), ("0", "tf.constant(5)"))],
    # SetOperationOp's constructor: an unknown set_operation before any input (tape seed 3120261203 #67)
    *[(f"{name} set_operation 'x'", _K, _eager(expr)) for name, expr in (
        ("DenseToDenseSetOperation of empty sets", "tf.raw_ops.DenseToDenseSetOperation(set1=tf.zeros([1, 0, 1], "
         "tf.int32), set2=tf.zeros([1, 0, 1], tf.int32), set_operation='x')"),
        ("DenseToDenseSetOperation", "tf.raw_ops.DenseToDenseSetOperation(set1=tf.zeros([1, 2, 1], tf.int32), "
         "set2=tf.zeros([1, 2, 1], tf.int32), set_operation='x')"),
        ("DenseToSparseSetOperation of an empty sparse set", "tf.raw_ops.DenseToSparseSetOperation(set1=tf.zeros([1, 2], "
         "tf.int32), set2_indices=tf.zeros([0, 2], tf.int64), set2_values=tf.zeros([0], tf.int32), "
         "set2_shape=tf.constant([1, 2], tf.int64), set_operation='x')"),
        ("SparseToSparseSetOperation of rank-1 sets", "tf.raw_ops.SparseToSparseSetOperation(set1_indices=tf.zeros([0, 1], "
         "tf.int64), set1_values=tf.zeros([0], tf.int32), set1_shape=tf.constant([2], tf.int64), set2_indices=tf.zeros("
         "[0, 1], tf.int64), set2_values=tf.zeros([0], tf.int32), set2_shape=tf.constant([2], tf.int64), "
         "set_operation='x')"))],
    # StatelessRandomOpBase: the shape, the seed (key, counter, alg), an empty output, then Fill's bounds
    # (tape seed 3120261203 #105)
    *[(f"StatelessRandomUniformInt {name}", _K, _eager(
        f"tf.raw_ops.StatelessRandomUniformInt(shape={sh}, seed={sd}, minval={lo}, maxval={hi})"))
      for name, sh, sd, lo, hi in (
          ("[0] bounds of an empty shape", "tf.constant([0], tf.int32)", "[0, 7]", "tf.zeros([0], tf.int64)",
           "tf.zeros([0], tf.int64)"),
          ("[0] bounds of shape [2]", "tf.constant([2], tf.int32)", "[0, 7]", "tf.zeros([0], tf.int64)",
           "tf.zeros([0], tf.int64)"),
          ("minval == maxval, empty", "[0]", "[0, 7]", "tf.constant(5, tf.int64)", "tf.constant(5, tf.int64)"),
          ("a seed of 3, empty", "[0]", "[1, 2, 3]", "tf.zeros([0], tf.int64)", "tf.zeros([0], tf.int64)"),
          ("a negative dimension", "[0, -1]", "[1, 2]", "tf.zeros([0], tf.int64)", "tf.zeros([0], tf.int64)"))],
    ("StatelessRandomUniformInt [0] bounds of an empty shape in a tf.function", _T, _traced(
        "tf.raw_ops.StatelessRandomUniformInt(shape=[0], seed=[1, 2], minval=tf.zeros([0], tf.int64), "
        "maxval=tf.zeros([0], tf.int64))")),
    *[(f"StatelessRandomUniformIntV2 {name}", _K, _eager(
        f"tf.raw_ops.StatelessRandomUniformIntV2(shape={sh}, key=tf.constant({k}, tf.uint64), counter=tf.constant([1, 2], "
        f"tf.uint64), alg=1, minval={lo}, maxval=tf.zeros([0], tf.int64))"))
      for name, sh, k, lo in (
          ("[2] and [0] bounds of an empty shape", "[0]", [1], "tf.zeros([2], tf.int64)"),
          ("[2] and [0] bounds of shape [1]", "[1]", [1], "tf.zeros([2], tf.int64)"),
          ("a key of 2, empty", "[0]", [1, 2], "tf.zeros([0], tf.int64)"))],
    ("RandomUniformInt [0] bounds of an empty shape", _K, _eager(
        "tf.raw_ops.RandomUniformInt(shape=tf.constant([0], tf.int32), minval=tf.zeros([0], tf.int64), "
        "maxval=tf.zeros([0], tf.int64))")),
    # _TensorStridedSliceUpdateGrad of an empty slice: BroadcastGradientArgs(slice, value) (tape seed 3120261203 #41)
    *[(f"TensorStridedSliceUpdate of an empty slice, value {v}, gradient", _G, _tape(
        f"tf.raw_ops.TensorStridedSliceUpdate(input=x, value={v}, shrink_axis_mask=3, new_axis_mask=0, "
        "strides=tf.constant([1, 1, 1], tf.int32), begin=[2, -1, 1], end=tf.constant([2, 0, -1], tf.int32), end_mask=3)",
        "tf.reshape(tf.range(12.0), [3, 2, 2])")) for v in ("x * 2.0", "x[:1, 0, 0] * 2.0", "x[0, 0, 0] * 2.0")],
    ("TensorStridedSliceUpdate of an empty int32 slice", _K, _eager(
        "tf.raw_ops.TensorStridedSliceUpdate(input=tf.ones([3, 2], tf.int32), value=tf.ones([4], tf.int32), begin=[1], "
        "end=[1], strides=[1])")),
    ("TensorStridedSliceUpdate of an empty slice in a tf.function", _K, _traced(
        "tf.raw_ops.TensorStridedSliceUpdate(input=tf.ones([3, 2]), value=tf.ones([4]), begin=[1], end=[1], "
        "strides=[1])")),
    # Conv2DOp's constructor: the strides' and dilations' lengths before the layout (eager seed 3120261204 #186)
    *[(f"Conv2D {dt} strides {st} dilations {dl} {fmt}", _K, _eager(
        f"tf.raw_ops.Conv2D(input=tf.ones([4, 1, 3, 2], tf.{dt}), filter=tf.ones([4, 1, 3, 2], tf.{dt}), strides={st}, "
        f"dilations={dl}, padding='SAME', data_format='{fmt}')"))
      for dt in ("float32", "float64", "int32") for fmt in ("NCHW", "NHWC") for st, dl in (
          ([1, 2, 1], [1, 1, 1, 1]), ([1, 1, 1, 1], [1, 1, 1]), ([1, 1, 1, 1, 1], [1, 1, 1]))],
    # DecodePaddedRawOp: fixed_length a scalar, a multiple of the type's size, then positive (eager seed 3120261206
    # #137)
    *[(f"DecodePaddedRaw fixed_length {n} {dt}", _K, _eager(
        f"tf.raw_ops.DecodePaddedRaw(fixed_length={n}, out_type=tf.{dt}, input_bytes=tf.constant({b}))"))
      for n, dt, b in ((-4, "uint8", "b'-4.5'"), (0, "uint8", "b'-4.5'"), (-4, "int32", "[b'-4.5', b'ab']"),
                       (-3, "int16", "[b'abcd']"), (-4, "int16", "tf.constant([], tf.string)"), (5, "uint8", "b'-4.5'"),
                       ([2, 2], "int16", "[b'abcd']"))],
    ("DecodePaddedRaw fixed_length 0 in a tf.function", _K, _traced(
        "tf.raw_ops.DecodePaddedRaw(fixed_length=0, out_type=tf.int16, input_bytes=tf.constant([b'abcd']))")),
    # Knuth's loop of a rate whose exp(-rate) overflows: 0 (function seed 3120261205 #23)
    *[(f"StatelessRandomPoisson rates {dt}", _K, _eager(
        f"tf.raw_ops.StatelessRandomPoisson(dtype=tf.float64, shape=[2, 4], seed=tf.constant([1, 1], tf.int64), "
        f"lam=tf.constant([0.001, -3.4e+38, 65504.0, -3.0], tf.{dt}))")) for dt in ("float64", "float32", "float16")],
    ("RandomPoissonV2 of rates -1e300, -800", _K, _eager(
        "tf.raw_ops.RandomPoissonV2(shape=[3], rate=tf.constant([-1e300, -800.0, 12.5], tf.float64), seed=3, seed2=4)")),
    # the kernels' checks before the data: DecodeImageV2Op's channels, DecodeCSV's defaults' ranks (function seed
    # 3120261205 #126, #28), Eig's input before its Tout (sig seed 3120261202 #124), EncodeJpeg's InternalError and
    # UINT16 densities (sig seed 3120261202 #4)
    *[(f"{op} channels {ch}", _K, _eager(f"tf.raw_ops.{op}(contents=tf.constant(b'-4.5'), channels={ch})"))
      for op in ("DecodeImage", "DecodePng", "DecodeBmp", "DecodeJpeg") for ch in (-2, 2, 5)],
    ("DecodeImage contents [1] channels 2", _K, _eager(
        "tf.raw_ops.DecodeImage(contents=tf.constant([b'-4.5']), channels=2)")),
    ("DecodeAndCropJpeg channels 2", _K, _eager(
        "tf.raw_ops.DecodeAndCropJpeg(contents=tf.constant(b'x'), crop_window=[0, 0, 1, 1], channels=2)")),
    *[(f"DecodeCSV record_defaults {name}", _K, _eager(
        f"tf.raw_ops.DecodeCSV(records=tf.constant({r}), record_defaults={d})")) for name, r, d in (
        ("[[1]]", "['1', '2']", "[tf.ones([1, 1], tf.int32)]"),
        ("[1, 2, 4]", "['1', '2']", "[tf.ones([1, 2, 4], tf.int32)]"),
        ("[2] and [[1]]", "['1,2', '2,2']", "[tf.ones([2], tf.int32), tf.ones([1, 1], tf.int32)]"),
        ("[0]", "['1', '2']", "[tf.ones([0], tf.int64)]"))],
    *[(f"Eig {name}", _K, _eager(f"tf.raw_ops.Eig(compute_v={cv}, input={x}, Tout=tf.{t})")) for name, cv, x, t in (
        ("complex64 NaN, compute_v False", False, "tf.fill([2, 2], tf.complex(np.nan, np.inf))", "complex64"),
        ("complex64 NaN to complex128", False, "tf.fill([2, 2], tf.complex(np.nan, np.inf))", "complex128"),
        ("of [2, 3] to complex128", True, "tf.ones([2, 3], tf.complex64)", "complex128"),
        ("of [3] to complex128", True, "tf.ones([3], tf.complex64)", "complex128"),
        ("float32 NaN to complex128", False, "tf.fill([2, 2], np.float32('nan'))", "complex128"))],
    *[(f"EncodeJpeg {name}", _K, _eager(f"tf.raw_ops.EncodeJpeg(image=tf.zeros({sh}, tf.uint8){kw})"))
      for name, sh, kw in (
          ("[0, 2, 3]", [0, 2, 3], ", density_unit='cm', x_density=-2, progressive=True"), ("[2, 0, 3]", [2, 0, 3], ""),
          ("[0, 0, 1]", [0, 0, 1], ""), ("[0, 2, 2]", [0, 2, 2], ""), ("[70000, 1, 1]", [70000, 1, 1], ""),
          ("densities -2 and 70000", [1, 1, 3], ", x_density=-2, y_density=70000"))],
    # the raw SigmoidGrad/TanhGrad/RsqrtGrad/ReciprocalGrad/SqrtGrad differentiated with the op's inputs as given
    # (fz30a's open seed 3020261208 #108): y's gradient of dy's broadcast shape, dy's of y's shape
    *[(f"{op} y {y} dy {dy}, both gradients", _G, _both_grads(op, y, dy))
      for op in ("SigmoidGrad", "TanhGrad", "RsqrtGrad", "ReciprocalGrad", "SqrtGrad")
      for y, dy in (("tf.constant(0.5)", "tf.constant([2.0])"), ("tf.constant([0.5, 0.25])", "tf.constant([[2.0, 3.0]])"),
                    ("tf.constant([[0.5, 0.25]])", "tf.constant([2.0, 3.0])"))],
    *[(f"{op} complex64 y [2] dy [1, 2], both gradients", _G, _both_grads(
        op, "tf.constant([0.5 + 1j, -0.25j], tf.complex64)", "tf.constant([[2.0 - 1j, 3.0]], tf.complex64)"))
      for op in ("SigmoidGrad", "TanhGrad")],
    # png_write_start_row's filters: no Up/Average/Paeth for one row, no Sub/Average/Paeth for one pixel a row
    # (fz30a's open seed 3020261208 #153)
    *[(f"EncodePng {name}", _K, _eager(f"tf.raw_ops.EncodePng(image=tf.constant({img}, tf.{dt}), compression={c})"))
      for name, img, dt, c in (
          ("[1, 4, 3] at 5", "[[[7, 1, 5], [5, 0, 5], [2, 3, 0], [3, 254, 0]]]", "uint8", 5),
          ("[1, 4, 3] at -1", "[[[7, 1, 5], [5, 0, 5], [2, 3, 0], [3, 254, 0]]]", "uint8", -1),
          ("[3, 1, 2]", "[[[9, 200]], [[7, 1]], [[250, 3]]]", "uint8", 6),
          ("[1, 3, 1] uint16", "[[[9000], [70], [65000]]]", "uint16", 9),
          ("[2, 3, 1]", "[[[9], [200], [7]], [[1], [250], [3]]]", "uint8", 5))],
    # EncodeWavOp: sample_rate in (0, 2^32) after the shapes (seed 3120261208 #5)
    *[(f"EncodeWav sample_rate {sr} audio {a}", _K, _eager(f"tf.raw_ops.EncodeWav(sample_rate={sr}, audio=tf.zeros({a}))"))
      for sr, a in ((-4, [1, 1]), (0, [1, 1]), (0, [0, 2]), (-4, [1]), (70000, [1, 1]))],
    # op_def_library: a list input's Python values take its first Tensor's dtype (sig seed 3120261207 #197)
    *[(name, _K, _traced(expr)) for name, expr in (
        ("ConcatOffset of a list and an int64 shape in a tf.function", "tf.raw_ops.ConcatOffset(shape=([2, 4], "
         "tf.constant([3, 4], tf.int64)), concat_dim=0)"),
        ("ConcatOffset of a [2, 4, 4] concat_dim in a tf.function", "tf.raw_ops.ConcatOffset(shape=([2, 4, 4], "
         "tf.constant([32], tf.int64)), concat_dim=tf.ones([2, 4, 4], tf.int32))"),
        ("ConcatV2 of a list and an int64 tensor in a tf.function", "tf.raw_ops.ConcatV2(values=[[1, 2], "
         "tf.constant([3], tf.int64)], axis=0)"),
        ("AddN of a float list and an int64 tensor in a tf.function", "tf.raw_ops.AddN(inputs=[[1.5, 2], "
         "tf.constant([3, 4], tf.int64)])"))],
    # the kernels' input checks of tape seed 3120261209 #56, #127
    *[(f"SparseFillEmptyRowsGrad reverse_index_map {r} grad_values {g}", _K, _eager(
        f"tf.raw_ops.SparseFillEmptyRowsGrad(reverse_index_map=tf.zeros({r}, tf.int64), grad_values=tf.zeros({g}, "
        "tf.float64))")) for r, g in (([0, 2], [0, 2]), ([0], [0, 2]), ([0, 2], [0]))],
    *[(f"ResizeNearestNeighborGrad grads {g} size {sz}", _K, _eager(
        f"tf.raw_ops.ResizeNearestNeighborGrad(grads=tf.ones({g}, tf.int8), size=tf.constant({sz}, tf.int32))"))
      for g, sz in (([3, 3, 0, 1], [0, 3, -1, 0]), ([3, 3, 0, 1], [0, 3]), ([3, 3, 0, 1], [-1, 3]), ([3, 3, 0, 1], [2, 3]),
                    ([3, 3, 0, 1], [3]), ([1, 2, 2, 1], [0, 3]), ([1, 2, 2, 1], [3, 1]))],
    # nn_grad._NthElementGrad: ties share the gradient (tape seed 3120261209 #43)
    *[(f"NthElement n={n} reverse={r} gradient", _G, _tape(f"tf.raw_ops.NthElement(input=x, n={n}, reverse={r})", x))
      for n, r, x in (
          (0, True, "tf.constant([[0.001, -3.0, 1.0, -1.0], [0.75, 7.0, 0.25, -3.0], [-1.5, -1.0, 0.25, 0.25]])"),
          (1, True, "tf.constant([[0.001, -3.0, 1.0, -1.0], [0.75, 7.0, 0.25, -3.0], [-1.5, -1.0, 0.25, 0.25]])"),
          (0, False, "tf.constant([[0.001, -3.0, 1.0, -1.0], [0.75, 7.0, 0.25, -3.0], [-1.5, -1.0, 0.25, 0.25]])"),
          (0, True, "tf.constant([[1.0, 1.0, 0.0]])"), (2, False, "tf.constant([5.0, 5.0, 5.0, 1.0], tf.float64)"))],
    # function seed 3120261210: shape functions of MatrixSetDiagV2 (a known k's exact rank), StatelessMultinomial,
    # Select, MirrorPadGrad at trace; a Variable's dtype in DecodeCSV's type list; DynamicStitch of empty data
    *[(f"{name}{' in a tf.function' if fn else ''}", _T if fn else _K, (_traced if fn else _eager)(expr))
      for fn in (False, True) for name, expr in _FN10],
    ("DecodeCSV of a bfloat16 Variable default in a tf.function", _T, _var_traced(
        "tf.raw_ops.DecodeCSV(na_value='', record_defaults=[tf.constant([-0.5, -3.0]), v], records=tf.constant(b'H'))",
        "tf.Variable(tf.constant([1.0], tf.bfloat16))")),
    # sig seed 3120261211 #24, #83, #173: the shape functions of StridedSliceGrad, ReduceJoin and NthElement
    ("NthElement of a scalar in an input_signature", _T, _sig_trace(
        "tf.raw_ops.NthElement(input=x0, n=x1, reverse=True)", [([], "int32"), ([], "int32")])),
    ("NthElement of n [1] in an input_signature", _T, _sig_trace(
        "tf.raw_ops.NthElement(input=x0, n=x1)", [([3], "int32"), ([1], "int32")])),
    ("NthElement n 2 of [2, None] in an input_signature", _T, _sig_trace(
        "tf.raw_ops.NthElement(input=x0, n=2)", [([2, None], "float32")])),
    *[(f"{name} in a tf.function", _T, _traced(expr)) for name, expr in (
        ("NthElement n 3 of [2, 3]", "tf.raw_ops.NthElement(input=tf.ones([2, 3]), n=3)"),
        ("NthElement n -1", "tf.raw_ops.NthElement(input=tf.ones([2, 3]), n=-1)"),
        *[(f"ReduceJoin of {x} over {r}", f"tf.raw_ops.ReduceJoin(reduction_indices=tf.constant({r}, tf.int32), "
           f"inputs=tf.constant({x}), keep_dims=True)")
          for x, r in (("b'AbC'", -1), ("b'AbC'", 0), ("[b'a', b'b']", 2), ("[b'a', b'b']", -2), ("[b'a', b'b']", [0, 0]),
                       ("[b'a', b'b']", -1))],
        ("StridedSliceGrad of shape [-2]", "tf.raw_ops.StridedSliceGrad(shape=tf.constant([-2], tf.int32), begin=[0], "
         "end=[1], strides=[1], dy=tf.ones([1]))"))],
    # seed 3120261212 #135, #210: a uint64 seed's empty output; DenseCountSparseOutput's shape function
    *[(f"StatelessRandomUniformFullInt {name}{' in a tf.function' if fn else ''}", _K, (_traced if fn else _eager)(
        f"tf.raw_ops.StatelessRandomUniformFullInt(seed=tf.constant([42, 0], tf.{dt}), shape=tf.constant({sh}, "
        "tf.int32))")) for fn in (False, True) for name, dt, sh in (
            ("uint64 seed, shape [3, 0]", "uint64", [3, 0]), ("uint64 seed, shape [2]", "uint64", [2]),
            ("uint32 seed, shape [0]", "uint32", [0]), ("int64 seed, shape [2]", "int64", [2]))],
    *[(f"DenseCountSparseOutput weights {w} values {v}{' in a tf.function' if fn else ''}", _T if fn else _K,
       (_traced if fn else _eager)(f"tf.raw_ops.DenseCountSparseOutput(weights=tf.constant({w}, tf.float64), "
                                   f"binary_output=True, values=tf.constant({v}))"))
      for fn in (False, True) for w, v in ((0.25, [1, 7]), ([0.25, 1, 2], [1, 7]), ([], 1), ([], [1, 2]), ([1.0, 2.0], [1, 7]))],
    ("GatherNd [2, 0] indices gradient", _G, _tape(
        "tf.raw_ops.GatherNd(params=x, indices=tf.zeros([2, 0], tf.int64))", "tf.reshape(tf.range(6.0), [2, 3])")),
]


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fuzz-raw")
@EDGES.parametrize("ops.fuzz-raw")
def test_raw_kernel_checks(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("function.trace-time-errors")
@EDGES.parametrize("function.trace-time-errors")
def test_trace_time_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("autodiff.op-gradients")
@EDGES.parametrize("autodiff.op-gradients")
def test_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_fz31a_edges_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
