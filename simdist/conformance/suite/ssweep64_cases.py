"""The programs of test_ssweep64: the static shape and dtype of traced ops' outputs when their inputs' shapes are
partially known, and the trace-time error class of statically incompatible shapes (sixty-fourth session, ssweep64).

Each case is a function of TensorSpecs (fully known, with None dimensions, of unknown rank) traced by
`get_concrete_function`; the observation is, per output, `shape.as_list()` (None for an unknown rank) and the dtype
name, collected while the Python traces, or "raised <class>" when the trace fails. Crossed by rule: each family's
inputs with every dimension known, each one unknown in turn, all unknown, and of unknown rank."""

from __future__ import annotations

import itertools
import os
from typing import Any, Callable, Iterable

from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "ssweep64_reference.json.gz")
REF = RecordedPrograms(PATH, (), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

Spec = Any   # a shape list (None entries unknown) or None (unknown rank), or (shape, dtype)
Case = tuple[str, Callable[..., Any], list[Spec]]


def _shape(s: Any) -> Any:
    return s.as_list() if s.rank is not None else None


def static(tf: Any, fn: Callable[..., Any], specs: list[Spec]) -> Any:
    """The [shape, dtype] of each of fn's outputs while it traces under input_signature `specs` (TF runs the Python
    once; simdist's dry runs may run it more than once, the last run's are the trace's), or the error class the
    trace raises."""
    seen: list[Any] = []

    def rec(*args: Any) -> Any:
        out = fn(tf, *args)
        outs = list(out) if isinstance(out, (list, tuple)) else [out]
        seen.append([[_shape(o.shape), o.dtype.name] for o in outs])
        return out
    sig = [tf.TensorSpec(*(s if isinstance(s, tuple) else (s, "float32"))) for s in specs]
    try:
        tf.function(rec, input_signature=sig, autograph=False).get_concrete_function()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"
    return seen[-1] if seen else "no output traced"


def eager(tf: Any, fn: Callable[..., Any], specs: list[Spec]) -> Any:
    """The same observation as `static` for fn called eagerly on ones of the fully known shapes `specs` (the eager
    error class where the trace's differs: array_ops' Python checks against the kernels')."""
    args = [tf.ones(*(s if isinstance(s, tuple) else (s, "float32"))) for s in specs]
    try:
        out = fn(tf, *args)
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"
    outs = list(out) if isinstance(out, (list, tuple)) else [out]
    return [[_shape(o.shape), o.dtype.name] for o in outs]


def variants(shape: list[int]) -> list[Any]:
    """`shape` known, each dimension unknown in turn, every dimension unknown, and of unknown rank."""
    out: list[Any] = [list(shape)]
    for i in range(len(shape)):
        out.append([None if j == i else d for j, d in enumerate(shape)])
    if len(shape) > 1:
        out.append([None] * len(shape))
    out.append(None)
    return out


def _label(s: Any) -> str:
    if isinstance(s, tuple):
        return f"{_label(s[0])}:{s[1]}"
    return "?" if s is None else "[" + ",".join("?" if d is None else str(d) for d in s) + "]"


def run_cases(tf: Any, cases: Iterable[Case]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, fn, specs in cases:
        key = f"{name} {' '.join(_label(s) for s in specs)}"
        assert key not in out, key
        out[key] = static(tf, fn, specs)
    return out


def _one(name: str, fn: Callable[..., Any], shape: list[int], dtype: str = "float32") -> list[Case]:
    return [(name, fn, [(v, dtype)]) for v in variants(shape)]


def _two(name: str, fn: Callable[..., Any], sa: list[int], sb: list[int], da: str = "float32",
         db: str = "float32") -> list[Case]:
    """Both operands' variants crossed, but only one side partial at a time plus the both-unknown corners."""
    out: list[Case] = []
    va, vb = variants(sa), variants(sb)
    for a in va:
        out.append((name, fn, [(a, da), (list(sb), db)]))
    for b in vb[1:]:
        out.append((name, fn, [(list(sa), da), (b, db)]))
    out.append((name, fn, [(va[-2], da), (vb[-2], db)]))
    out.append((name, fn, [(None, da), (None, db)]))
    seen: set[str] = set()
    uniq = []
    for c in out:
        key = repr(c[2])
        if key not in seen:
            seen.add(key)
            uniq.append(c)
    return uniq


# -- 1. the matmul family ------------------------------------------------------------------------------------------
def matmul_family(tf: Any, mk: Any) -> Any:
    """matmul 2-D and batched (broadcast batch dims) × transpose/adjoint flags, einsum, tensordot, linalg.matvec,
    a size mismatch of each."""
    cases: list[Case] = []
    for ta, tb in itertools.product((False, True), repeat=2):
        for kw in ("transpose", "adjoint"):
            f = (lambda tf, a, b, ta=ta, tb=tb, kw=kw: tf.matmul(a, b, **{f"{kw}_a": ta, f"{kw}_b": tb}))
            sa = [3, 2] if ta else [2, 3]
            sb = [4, 3] if tb else [3, 4]
            cases += _two(f"matmul {kw} {int(ta)}{int(tb)}", f, sa, sb)
            cases += _two(f"batch matmul {kw} {int(ta)}{int(tb)}", f, [5] + sa, [1, 5] + sb)
            bad_a = [4, 2] if ta else [2, 4]
            cases.append((f"matmul mismatch {kw} {int(ta)}{int(tb)}", f, [bad_a, sb]))
            cases.append((f"matmul mismatch {kw} {int(ta)}{int(tb)}", f, [[None] + bad_a, [3] + sb]))
    cases.append(("batch matmul batch mismatch", lambda tf, a, b: tf.matmul(a, b), [[2, 2, 3], [3, 3, 4]]))
    cases.append(("batch matmul batch broadcast", lambda tf, a, b: tf.matmul(a, b), [[None, 1, 2, 3], [7, 3, 4]]))
    cases.append(("matmul rank1", lambda tf, a, b: tf.matmul(a, b), [[3], [3, 4]]))
    cases.append(("matmul ints", lambda tf, a, b: tf.matmul(a, b), [([None, 3], "int32"), ([3, None], "int32")]))
    cases.append(("matmul dtypes", lambda tf, a, b: tf.matmul(a, b), [([2, 3], "float32"), ([3, 4], "float64")]))
    cases += _two("einsum ij,jk", lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), [2, 3], [3, 4])
    cases += _two("einsum bij,bkj", lambda tf, a, b: tf.einsum("bij,bkj->bik", a, b), [5, 2, 3], [5, 4, 3])
    cases += _two("einsum ...ij,jk", lambda tf, a, b: tf.einsum("...ij,jk->...ik", a, b), [5, 2, 3], [3, 4])
    cases += _one("einsum ij->j", lambda tf, a: tf.einsum("ij->j", a), [2, 3])
    cases += _one("einsum ii->i", lambda tf, a: tf.einsum("ii->i", a), [3, 3])
    cases.append(("einsum mismatch", lambda tf, a, b: tf.einsum("ij,jk->ik", a, b), [[2, 3], [4, 5]]))
    for axes in (1, 2, [[1], [0]], [[0], [1]], [[0, 1], [1, 0]]):
        cases += _two(f"tensordot {axes}", lambda tf, a, b, axes=axes: tf.tensordot(a, b, axes), [3, 3], [3, 3])
    cases += _two("tensordot 1 r3", lambda tf, a, b: tf.tensordot(a, b, 1), [2, 5, 3], [3, 4])
    cases.append(("tensordot mismatch", lambda tf, a, b: tf.tensordot(a, b, 1), [[2, 3], [4, 5]]))
    for ta in (False, True):
        sa = [3, 2] if ta else [2, 3]
        cases += _two(f"matvec t{int(ta)}", lambda tf, a, b, ta=ta: tf.linalg.matvec(a, b, transpose_a=ta),
                      sa, [3])
        cases += _two(f"matvec batch t{int(ta)}", lambda tf, a, b, ta=ta: tf.linalg.matvec(a, b, transpose_a=ta),
                      [5] + sa, [3])
    cases += _two("linalg.matmul unknown batch", lambda tf, a, b: tf.linalg.matmul(a, b, adjoint_b=True),
                  [6, 2, 3], [6, 4, 3])
    return run_cases(tf, cases)


# -- 2. cross entropies --------------------------------------------------------------------------------------------
def cross_entropies(tf: Any, mk: Any) -> Any:
    """softmax (v2 and raw, axis), sparse softmax, sigmoid cross entropies with known/unknown dims on either side,
    l2_loss, log_softmax; incompatible classes or batches."""
    cases: list[Case] = []
    nn = tf.nn
    cases += _two("softmax xent", lambda tf, l, g: nn.softmax_cross_entropy_with_logits(labels=l, logits=g),
                  [2, 4], [2, 4])
    cases += _two("softmax xent axis0", lambda tf, l, g: nn.softmax_cross_entropy_with_logits(labels=l, logits=g,
                                                                                            axis=0), [4, 2], [4, 2])
    cases += _two("softmax xent r3", lambda tf, l, g: nn.softmax_cross_entropy_with_logits(labels=l, logits=g),
                  [3, 2, 4], [3, 2, 4])
    cases += _two("raw softmax xent", lambda tf, l, g: tf.raw_ops.SoftmaxCrossEntropyWithLogits(
        features=g, labels=l), [2, 4], [2, 4])
    cases += _two("raw softmax xent bcast", lambda tf, l, g: tf.raw_ops.SoftmaxCrossEntropyWithLogits(
        features=g, labels=l), [1, 4], [2, 4])
    cases += _two("sparse xent", lambda tf, l, g: nn.sparse_softmax_cross_entropy_with_logits(labels=l, logits=g),
                  [2], [2, 5], "int32")
    cases += _two("sparse xent r3", lambda tf, l, g: nn.sparse_softmax_cross_entropy_with_logits(labels=l, logits=g),
                  [3, 2], [3, 2, 5], "int64")
    cases += _two("raw sparse xent", lambda tf, l, g: tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(
        features=g, labels=l), [2], [2, 5], "int32")
    cases += _two("sigmoid xent", lambda tf, l, g: nn.sigmoid_cross_entropy_with_logits(labels=l, logits=g),
                  [2, 4], [2, 4])
    cases += _two("weighted xent", lambda tf, l, g: nn.weighted_cross_entropy_with_logits(l, g, 2.0),
                  [2, 4], [2, 4])
    cases.append(("softmax xent classes", lambda tf, l, g: nn.softmax_cross_entropy_with_logits(labels=l, logits=g),
                  [[2, 3], [2, 4]]))
    cases.append(("softmax xent batch", lambda tf, l, g: nn.softmax_cross_entropy_with_logits(labels=l, logits=g),
                  [[3, 4], [2, 4]]))
    cases.append(("raw softmax xent classes", lambda tf, l, g: tf.raw_ops.SoftmaxCrossEntropyWithLogits(
        features=g, labels=l), [[None, 3], [2, 4]]))
    cases.append(("raw softmax xent rank", lambda tf, l, g: tf.raw_ops.SoftmaxCrossEntropyWithLogits(
        features=g, labels=l), [[4], [4]]))
    cases.append(("sparse xent batch", lambda tf, l, g: nn.sparse_softmax_cross_entropy_with_logits(
        labels=l, logits=g), [([3], "int32"), [2, 5]]))
    cases.append(("sparse xent rank", lambda tf, l, g: nn.sparse_softmax_cross_entropy_with_logits(
        labels=l, logits=g), [([2, 5], "int32"), [2, 5]]))
    cases.append(("sigmoid xent mismatch", lambda tf, l, g: nn.sigmoid_cross_entropy_with_logits(
        labels=l, logits=g), [[2, 3], [2, 4]]))
    cases += _one("log_softmax", lambda tf, a: nn.log_softmax(a), [2, 4])
    cases += _one("softmax axis0", lambda tf, a: nn.softmax(a, axis=0), [2, 4])
    cases += _one("l2_loss", lambda tf, a: nn.l2_loss(a), [2, 4])
    return run_cases(tf, cases)


# -- 3. joining and splitting --------------------------------------------------------------------------------------
def join_split(tf: Any, mk: Any) -> Any:
    """concat (one, two, three tensors; axes; mismatches), stack (every axis, rank + 1 refused), unstack, split
    (num, size_splits with -1), tile, pad, reshape (-1, unknown), squeeze, expand_dims, transpose."""
    cases: list[Case] = []
    for ax in (0, 1, -1, -2):
        cases += _one(f"concat one ax{ax}", lambda tf, a, ax=ax: tf.concat([a], ax), [2, 3])
        cases += _two(f"concat two ax{ax}", lambda tf, a, b, ax=ax: tf.concat([a, b], ax), [2, 3], [2, 3])
        cases.append((f"concat three ax{ax}", lambda tf, a, b, c, ax=ax: tf.concat([a, b, c], ax),
                      [[None, 3], [2, None], None]))
    for ax in (0, 1, -1):
        cases += _one(f"concat bare tensor ax{ax}", lambda tf, a, ax=ax: tf.concat(a, ax), [2, 3])
    cases.append(("concat ax2", lambda tf, a, b: tf.concat([a, b], 2), [[2, 3], [2, 3]]))
    cases.append(("concat rank mismatch", lambda tf, a, b: tf.concat([a, b], 0), [[2, 3], [2, 3, 1]]))
    cases.append(("concat dim mismatch", lambda tf, a, b: tf.concat([a, b], 0), [[2, 3], [2, 4]]))
    cases.append(("concat one ax2", lambda tf, a: tf.concat([a], 2), [[2, 3]]))
    cases.append(("concat one ax-3", lambda tf, a: tf.concat([a], -3), [[2, 3]]))
    cases.append(("concat dtypes", lambda tf, a, b: tf.concat([a, b], 0), [([2], "float32"), ([2], "int32")]))
    for ax in (0, 1, 2, -1, -3, 3, -4):
        cases += _one(f"stack one ax{ax}", lambda tf, a, ax=ax: tf.stack([a], ax), [2, 3])
        cases += _two(f"stack two ax{ax}", lambda tf, a, b, ax=ax: tf.stack([a, b], ax), [2, 3], [2, 3])
    cases.append(("stack mismatch", lambda tf, a, b: tf.stack([a, b]), [[2, 3], [2, 4]]))
    cases.append(("stack rank mismatch", lambda tf, a, b: tf.stack([a, b]), [[2, 3], [2]]))
    for ax in (0, 1, -1, 2, -3):
        cases += _one(f"unstack ax{ax}", lambda tf, a, ax=ax: tf.unstack(a, axis=ax), [2, 3])
        cases += _one(f"unstack num ax{ax}", lambda tf, a, ax=ax: tf.unstack(a, num=2 if ax in (0, -2) else 3,
                                                                              axis=ax), [2, 3])
    for ax in (0, 1, -1):
        cases += _one(f"split 3 ax{ax}", lambda tf, a, ax=ax: tf.split(a, 3, ax), [6, 3])
        cases += _one(f"split sizes ax{ax}", lambda tf, a, ax=ax: tf.split(a, [1, 2], ax), [3, 3])
        cases += _one(f"split sizes -1 ax{ax}", lambda tf, a, ax=ax: tf.split(a, [1, -1], ax), [3, 3])
    cases.append(("split 4 of 6", lambda tf, a: tf.split(a, 4, 0), [[6, 3]]))
    cases.append(("split sizes sum", lambda tf, a: tf.split(a, [1, 1], 0), [[3, 3]]))
    cases.append(("split sizes two -1", lambda tf, a: tf.split(a, [-1, -1], 0), [[3, 3]]))
    cases.append(("split ax2", lambda tf, a: tf.split(a, 1, 2), [[3, 3]]))
    for mult in ([2, 1], [1, 3], [2, 0]):
        cases += _one(f"tile {mult}", lambda tf, a, m=mult: tf.tile(a, m), [2, 3])
    cases.append(("tile wrong length", lambda tf, a: tf.tile(a, [1, 2, 3]), [[2, 3]]))
    for mode in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        cases += _one(f"pad {mode}", lambda tf, a, m=mode: tf.pad(a, [[1, 0], [2, 1]], m), [3, 4])
    cases.append(("pad wrong rank", lambda tf, a: tf.pad(a, [[1, 0]]), [[3, 4]]))
    for shp in ([-1], [3, -1], [-1, 2], [2, 3], [1, -1, 1], [4, -1]):
        cases += _one(f"reshape {shp}", lambda tf, a, s=shp: tf.reshape(a, s), [2, 3])
    cases.append(("reshape bad size", lambda tf, a: tf.reshape(a, [4, 2]), [[2, 3]]))
    cases.append(("reshape two -1", lambda tf, a: tf.reshape(a, [-1, -1]), [[2, 3]]))
    cases.append(("reshape shape of b", lambda tf, a, b: tf.reshape(a, tf.shape(b)), [[None, 3], [None, 3]]))
    for ax in (None, 0, 2, -1, [0, 2]):
        cases += _one(f"squeeze {ax}", lambda tf, a, ax=ax: tf.squeeze(a, ax), [1, 3, 1])
    cases.append(("squeeze not one", lambda tf, a: tf.squeeze(a, 1), [[1, 3, 1]]))
    for ax in (0, 1, 2, -1, -3, 3, -4):
        cases += _one(f"expand_dims {ax}", lambda tf, a, ax=ax: tf.expand_dims(a, ax), [2, 3])
    for perm in (None, [1, 0, 2], [2, 0, 1]):
        cases += _one(f"transpose {perm}", lambda tf, a, p=perm: tf.transpose(a, p), [2, 3, 4])
    cases.append(("transpose bad perm", lambda tf, a: tf.transpose(a, [1, 0]), [[2, 3, 4]]))
    cases.append(("transpose dup perm", lambda tf, a: tf.transpose(a, [0, 0, 1]), [[2, 3, 4]]))
    out = run_cases(tf, cases)
    # (eagerly: the same calls on ones of the known shapes, where array_ops' Python checks come before the kernels')
    for ax in (-4, -3, 2, 3):
        out[f"eager stack two ax{ax}"] = eager(tf, lambda tf, a, b, ax=ax: tf.stack([a, b], ax), [[2, 3], [2, 3]])
        out[f"eager stack one ax{ax}"] = eager(tf, lambda tf, a, ax=ax: tf.stack([a], ax), [[2, 3]])
        out[f"eager expand_dims ax{ax}"] = eager(tf, lambda tf, a, ax=ax: tf.expand_dims(a, ax), [[2, 3]])
        out[f"eager unstack ax{ax}"] = eager(tf, lambda tf, a, ax=ax: tf.unstack(a, axis=ax), [[2, 3]])
    for ax in (0, 1, -1, 2):
        out[f"eager concat bare tensor ax{ax}"] = eager(tf, lambda tf, a, ax=ax: tf.concat(a, ax), [[2, 3]])
    return out


# -- 4. gathering, masking, selection ------------------------------------------------------------------------------
def gather_select(tf: Any, mk: Any) -> Any:
    """gather (axis, batch_dims), gather_nd (batch_dims), boolean_mask (axis), where (one and three operands),
    one_hot (axis, depth), the dtype of indices kept."""
    cases: list[Case] = []
    for ax, bd in ((0, 0), (1, 0), (-1, 0), (2, 0), (1, 1), (2, 1), (-1, 1)):
        cases += _two(f"gather ax{ax} bd{bd}", lambda tf, p, i, ax=ax, bd=bd: tf.gather(p, i, axis=ax,
                                                                                        batch_dims=bd),
                      [2, 3, 4], [2, 5], "float32", "int32")
    cases.append(("gather ax3", lambda tf, p, i: tf.gather(p, i, axis=3), [[2, 3, 4], ([5], "int32")]))
    cases.append(("gather bd mismatch", lambda tf, p, i: tf.gather(p, i, axis=1, batch_dims=1),
                  [[2, 3, 4], ([3, 5], "int32")]))
    cases.append(("gather bd > axis", lambda tf, p, i: tf.gather(p, i, axis=0, batch_dims=1),
                  [[2, 3, 4], ([2, 5], "int32")]))
    cases.append(("gather float idx", lambda tf, p, i: tf.gather(p, i), [[2, 3], [4]]))
    for bd in (0, 1):
        cases += _two(f"gather_nd bd{bd}", lambda tf, p, i, bd=bd: tf.gather_nd(p, i, batch_dims=bd),
                      [2, 3, 4], [2, 5, 1], "float32", "int64")
        cases += _two(f"gather_nd depth2 bd{bd}", lambda tf, p, i, bd=bd: tf.gather_nd(p, i, batch_dims=bd),
                      [2, 3, 4], [2, 2], "float32", "int32")
    cases.append(("gather_nd too deep", lambda tf, p, i: tf.gather_nd(p, i), [[2, 3], ([5, 3], "int32")]))
    for ax in (0, 1):
        m = [2, 3] if ax == 0 else [3]
        cases += _two(f"boolean_mask ax{ax}", lambda tf, a, b, ax=ax: tf.boolean_mask(a, b, axis=ax),
                      [2, 3, 4], m, "float32", "bool")
    cases.append(("boolean_mask mismatch", lambda tf, a, b: tf.boolean_mask(a, b), [[2, 3], ([3], "bool")]))
    cases.append(("boolean_mask unknown mask rank", lambda tf, a, b: tf.boolean_mask(a, b),
                  [[2, 3], (None, "bool")]))
    cases += _one("where one", lambda tf, c: tf.where(c), [2, 3], "bool")
    cases += _one("where one float", lambda tf, c: tf.where(c), [2, 3], "float32")
    for sc, sx in (([2, 3], [2, 3]), ([2, 1], [1, 3]), ([3], [2, 3]), ([], [2, 3])):
        cases += _two(f"where three {sc} {sx}", lambda tf, c, x: tf.where(c, x, tf.zeros_like(x)), sc, sx,
                      "bool", "float32")
    cases.append(("where three mismatch", lambda tf, c, x: tf.where(c, x, x), [([2, 4], "bool"), [2, 3]]))
    for ax in (-1, 0, 1):
        cases += _one(f"one_hot 4 ax{ax}", lambda tf, i, ax=ax: tf.one_hot(i, 4, axis=ax), [2, 3], "int32")
    cases += _one("one_hot int64 dtype", lambda tf, i: tf.one_hot(i, 3, dtype=tf.int64), [2], "int64")
    cases += _one("one_hot uint8 ax2", lambda tf, i: tf.one_hot(i, 3, axis=2), [2, 3], "uint8")
    cases.append(("one_hot ax3", lambda tf, i: tf.one_hot(i, 3, axis=3), [([2, 3], "int32")]))
    cases.append(("one_hot tensor depth", lambda tf, i, d: tf.one_hot(i, d), [([2, 3], "int32"), ([], "int32")]))
    return run_cases(tf, cases)


# -- 5. reductions, arg ops, sorting, scans, segments --------------------------------------------------------------
def reductions(tf: Any, mk: Any) -> Any:
    """reduce_sum/max/mean/any/prod/logsumexp/euclidean_norm over None, each axis, negative and pairs, tensor axes,
    keepdims; argmax/argmin (output_type), top_k, sort, argsort, cumsum, segment ops with constant and tensor
    num_segments, out-of-range axes."""
    cases: list[Case] = []
    red = {"sum": tf.reduce_sum, "max": tf.reduce_max, "mean": tf.reduce_mean, "prod": tf.reduce_prod,
           "logsumexp": tf.reduce_logsumexp, "norm": tf.math.reduce_euclidean_norm}
    for name in red:
        for ax in (None, 0, -1, [0, 2], [-3, -2, -1], []):
            for kd in (False, True):
                cases += _one(f"reduce_{name} {ax} kd{int(kd)}",
                              lambda tf, a, n=name, ax=ax, kd=kd: red[n](a, ax, keepdims=kd), [2, 3, 4])
    for kd in (False, True):
        cases += _one(f"reduce_any None kd{int(kd)}", lambda tf, a, kd=kd: tf.reduce_any(a, keepdims=kd),
                      [2, 3], "bool")
        cases += _one(f"reduce_sum int8 None kd{int(kd)}", lambda tf, a, kd=kd: tf.reduce_sum(a, keepdims=kd),
                      [2, 3], "int8")
        cases.append((f"reduce_sum tensor axis kd{int(kd)}",
                      lambda tf, a, x, kd=kd: tf.reduce_sum(a, x, keepdims=kd), [[2, 3], ([], "int32")]))
        cases.append((f"reduce_sum tensor axes kd{int(kd)}",
                      lambda tf, a, x, kd=kd: tf.reduce_sum(a, x, keepdims=kd), [[2, 3], ([2], "int32")]))
        cases.append((f"reduce_sum unknown axes kd{int(kd)}",
                      lambda tf, a, x, kd=kd: tf.reduce_sum(a, x, keepdims=kd), [[2, 3], ([None], "int32")]))
        cases.append((f"reduce_sum ax3 kd{int(kd)}", lambda tf, a, kd=kd: tf.reduce_sum(a, 3, keepdims=kd),
                      [[2, 3, 4]]))
        cases.append((f"reduce_sum ax-4 kd{int(kd)}", lambda tf, a, kd=kd: tf.reduce_sum(a, -4, keepdims=kd),
                      [[2, 3, 4]]))
        cases.append((f"reduce_sum ax-3 kd{int(kd)}", lambda tf, a, kd=kd: tf.reduce_sum(a, -3, keepdims=kd),
                      [[2, 3, 4]]))
    for name, f in (("argmax", tf.math.argmax), ("argmin", tf.math.argmin)):
        for ax in (0, 1, -1):
            cases += _one(f"{name} {ax}", lambda tf, a, f=f, ax=ax: f(a, ax), [2, 3])
            cases += _one(f"{name} {ax} int32", lambda tf, a, f=f, ax=ax: f(a, ax, output_type=tf.int32), [2, 3])
        cases.append((f"{name} ax2", lambda tf, a, f=f: f(a, 2), [[2, 3]]))
    for k in (1, 3):
        cases += _one(f"top_k {k}", lambda tf, a, k=k: tf.math.top_k(a, k), [2, 4])
    cases.append(("top_k too big", lambda tf, a: tf.math.top_k(a, 5), [[2, 4]]))
    cases.append(("top_k tensor k", lambda tf, a, k: tf.math.top_k(a, k), [[2, 4], ([], "int32")]))
    cases.append(("top_k scalar", lambda tf, a: tf.math.top_k(a, 1), [[]]))
    for ax in (-1, 0):
        cases += _one(f"sort {ax}", lambda tf, a, ax=ax: tf.sort(a, ax), [2, 4])
        cases += _one(f"argsort {ax}", lambda tf, a, ax=ax: tf.argsort(a, ax), [2, 4])
    for ax in (0, 1, -1):
        cases += _one(f"cumsum {ax}", lambda tf, a, ax=ax: tf.cumsum(a, ax, exclusive=True), [2, 4])
        cases += _one(f"cumprod {ax}", lambda tf, a, ax=ax: tf.math.cumprod(a, ax, reverse=True), [2, 4], "int32")
    cases.append(("cumsum ax2", lambda tf, a: tf.cumsum(a, 2), [[2, 4]]))
    seg = {"sum": tf.math.segment_sum, "mean": tf.math.segment_mean, "max": tf.math.segment_max}
    for name, f in seg.items():
        cases += _two(f"segment_{name}", lambda tf, d, s, f=f: f(d, s), [4, 3], [4], "float32", "int32")
    useg = {"sum": tf.math.unsorted_segment_sum, "mean": tf.math.unsorted_segment_mean,
            "max": tf.math.unsorted_segment_max, "sqrt_n": tf.math.unsorted_segment_sqrt_n}
    for name, f in useg.items():
        cases += _two(f"unsorted_segment_{name} 5", lambda tf, d, s, f=f: f(d, s, 5), [4, 3], [4], "float32",
                      "int32")
        cases.append((f"unsorted_segment_{name} tensor n", lambda tf, d, s, n, f=f: f(d, s, n),
                      [[4, 3], ([4], "int32"), ([], "int32")]))
    cases += _two("unsorted_segment_sum 2-d ids", lambda tf, d, s: tf.math.unsorted_segment_sum(d, s, 3),
                  [2, 4, 3], [2, 4], "float32", "int64")
    cases.append(("unsorted_segment_sum mismatch", lambda tf, d, s: tf.math.unsorted_segment_sum(d, s, 3),
                  [[4, 3], ([5], "int32")]))
    cases.append(("segment_sum mismatch", lambda tf, d, s: tf.math.segment_sum(d, s), [[4, 3], ([5], "int32")]))
    return run_cases(tf, cases)


# -- 6. convolutions, pooling, resize ------------------------------------------------------------------------------
def conv_pool(tf: Any, mk: Any) -> Any:
    """conv1d, conv2d (SAME/VALID, strides, dilations, NCHW refused on CPU at run only), depthwise_conv2d,
    max/avg pooling 1-D and 2-D, image resize (methods, preserve_aspect_ratio) with unknown batch, spatial or
    channel dimensions; window larger than the input, channel mismatches."""
    cases: list[Case] = []
    nn = tf.nn
    for pad in ("SAME", "VALID"):
        for st in (1, 2):
            cases += _two(f"conv1d {pad} s{st}", lambda tf, x, w, pad=pad, st=st: nn.conv1d(x, w, st, pad),
                          [2, 7, 3], [3, 3, 4])
            cases += _two(f"conv2d {pad} s{st}", lambda tf, x, w, pad=pad, st=st: nn.conv2d(x, w, st, pad),
                          [2, 7, 6, 3], [3, 2, 3, 4])
            cases += _one(f"max_pool2d {pad} s{st}", lambda tf, x, pad=pad, st=st: nn.max_pool2d(x, 3, st, pad),
                          [2, 7, 6, 3])
            cases += _one(f"avg_pool1d {pad} s{st}", lambda tf, x, pad=pad, st=st: nn.avg_pool1d(x, 2, st, pad),
                          [2, 7, 3])
            cases += _two(f"depthwise {pad} s{st}", lambda tf, x, w, pad=pad, st=st: nn.depthwise_conv2d(
                x, w, [1, st, st, 1], pad), [2, 7, 6, 3], [3, 3, 3, 2])
        cases += _two(f"conv2d {pad} d2", lambda tf, x, w, pad=pad: nn.conv2d(x, w, 1, pad, dilations=2),
                      [2, 7, 6, 3], [3, 2, 3, 4])
        cases += _two(f"depthwise {pad} d2", lambda tf, x, w, pad=pad: nn.depthwise_conv2d(
            x, w, [1, 1, 1, 1], pad, dilations=[2, 2]), [2, 7, 6, 3], [3, 3, 3, 2])
        cases.append((f"conv2d {pad} window too big", lambda tf, x, w, pad=pad: nn.conv2d(x, w, 1, pad),
                       [[2, 2, 2, 3], [3, 3, 3, 4]]))
        cases.append((f"max_pool2d {pad} window too big", lambda tf, x, pad=pad: nn.max_pool2d(x, 3, 1, pad),
                       [[2, 2, 2, 3]]))
    cases.append(("conv2d channels", lambda tf, x, w: nn.conv2d(x, w, 1, "SAME"), [[2, 7, 6, 3], [3, 3, 2, 4]]))
    cases.append(("conv2d grouped", lambda tf, x, w: nn.conv2d(x, w, 1, "SAME"), [[2, 7, 6, 4], [3, 3, 2, 4]]))
    cases.append(("conv2d rank", lambda tf, x, w: nn.conv2d(x, w, 1, "SAME"), [[7, 6, 3], [3, 3, 3, 4]]))
    cases.append(("conv1d explicit", lambda tf, x, w: nn.conv1d(x, w, 1, [[0, 0], [1, 2], [0, 0]]),
                  [[2, 7, 3], [3, 3, 4]]))
    cases.append(("conv2d explicit", lambda tf, x, w: nn.conv2d(x, w, 1, [[0, 0], [1, 2], [0, 1], [0, 0]]),
                  [[2, None, 6, 3], [3, 2, 3, 4]]))
    for method in ("bilinear", "nearest", "bicubic", "area"):
        cases += _one(f"resize {method}", lambda tf, x, m=method: tf.image.resize(x, [5, 4], m), [2, 7, 6, 3])
    cases += _one("resize 3-d", lambda tf, x: tf.image.resize(x, [5, 4]), [7, 6, 3])
    cases += _one("resize preserve", lambda tf, x: tf.image.resize(x, [5, 4], preserve_aspect_ratio=True),
                  [2, 7, 6, 3])
    cases += _one("resize uint8 nearest", lambda tf, x: tf.image.resize(x, [5, 4], "nearest"), [2, 7, 6, 3],
                  "uint8")
    cases += _one("resize_with_pad", lambda tf, x: tf.image.resize_with_pad(x, 5, 4), [2, 7, 6, 3])
    cases.append(("resize tensor size", lambda tf, x, s: tf.image.resize(x, s), [[2, 7, 6, 3], ([2], "int32")]))
    cases.append(("resize rank 2", lambda tf, x: tf.image.resize(x, [5, 4]), [[7, 6]]))
    return run_cases(tf, cases)


# -- 7. shape-like inputs: broadcasting, fill, zeros, range, shape and size, slicing -------------------------------
def shapes_and_slices(tf: Any, mk: Any) -> Any:
    """broadcast_to, broadcast_static_shape's result, fill and zeros/ones with tensor shapes, range, shape/size/rank
    (out_type), binary broadcasting of partial shapes, slicing with strides, new axes, ellipsis, shrink, tensor
    bounds."""
    cases: list[Case] = []
    for tgt in ([2, 3], [4, 2, 3], [2, 1]):
        cases += _one(f"broadcast_to {tgt}", lambda tf, a, t=tgt: tf.broadcast_to(a, t), [1, 3])
    cases.append(("broadcast_to bad", lambda tf, a: tf.broadcast_to(a, [2, 4]), [[2, 3]]))
    cases.append(("broadcast_to shape of b", lambda tf, a, b: tf.broadcast_to(a, tf.shape(b)),
                  [[1, 3], [None, 3]]))

    def bss(tf: Any, a: Any, b: Any) -> Any:
        s = tf.broadcast_static_shape(a.shape, b.shape)
        return tf.zeros([d if d is not None else 1 for d in s.as_list()]) if s.rank is not None else a
    cases += _two("broadcast_static_shape", bss, [2, 1, 3], [4, 1])
    cases.append(("broadcast_static_shape bad", bss, [[2, 3], [4, 3]]))
    for op in ("add", "multiply", "maximum", "less", "equal"):
        f = getattr(tf.math, op)
        cases += _two(f"binary {op}", lambda tf, a, b, f=f: f(a, b), [2, 1, 3], [4, 1])
    cases.append(("binary add mismatch", lambda tf, a, b: a + b, [[2, 3], [4, 3]]))
    cases.append(("binary add dtypes", lambda tf, a, b: a + b, [([2], "float32"), ([2], "float64")]))
    cases += _one("fill shape of x", lambda tf, a: tf.fill(tf.shape(a), 2.0), [2, 3])
    cases += _one("zeros shape of x", lambda tf, a: tf.zeros(tf.shape(a), tf.int64), [2, 3])
    cases += _one("ones [dim0, 4]", lambda tf, a: tf.ones([tf.shape(a)[0], 4]), [2, 3])
    cases += _one("zeros_like", lambda tf, a: tf.zeros_like(a, tf.bool), [2, 3])
    cases += _one("ones_like", lambda tf, a: tf.ones_like(a), [2, 3], "int32")
    cases.append(("fill tensor dims", lambda tf, d: tf.fill(d, 1), [([2], "int32")]))
    cases.append(("fill unknown dims", lambda tf, d: tf.fill(d, 1), [([None], "int32")]))
    cases.append(("zeros tensor dims", lambda tf, d: tf.zeros(d), [([3], "int64")]))
    cases.append(("fill scalar value rank", lambda tf, v: tf.fill([2], v), [[2]]))
    cases += _one("range of dim0", lambda tf, a: tf.range(tf.shape(a)[0]), [2, 3])
    cases.append(("range tensor", lambda tf, n: tf.range(n), [([], "int32")]))
    cases.append(("range float", lambda tf, n: tf.range(0.0, n, 0.5), [([], "float32")]))
    cases.append(("range const", lambda tf, n: tf.range(1, 10, 3) + n, [([], "int32")]))
    cases.append(("range int64", lambda tf, n: tf.range(n, 10, 2), [([], "int64")]))
    for name, f in (("shape", lambda tf, a: tf.shape(a)), ("shape int64", lambda tf, a: tf.shape(a, tf.int64)),
                    ("size", lambda tf, a: tf.size(a)), ("size int64", lambda tf, a: tf.size(a, tf.int64)),
                    ("rank", lambda tf, a: tf.rank(a)), ("shape_n", lambda tf, a: tf.shape_n([a, a])[1])):
        cases += _one(name, f, [2, 3])
    slices = {"a[1:]": lambda tf, a: a[1:], "a[::2]": lambda tf, a: a[::2], "a[::-1]": lambda tf, a: a[::-1],
              "a[:, 1]": lambda tf, a: a[:, 1], "a[None]": lambda tf, a: a[tf.newaxis],
              "a[..., None]": lambda tf, a: a[..., tf.newaxis], "a[..., 0]": lambda tf, a: a[..., 0],
              "a[0, ...]": lambda tf, a: a[0, ...], "a[1:-1, ::3]": lambda tf, a: a[1:-1, ::3],
              "a[:, None, 2:]": lambda tf, a: a[:, None, 2:], "a[-1]": lambda tf, a: a[-1],
              "a[5:]": lambda tf, a: a[5:], "a[:, ::-2]": lambda tf, a: a[:, ::-2],
              "a[..., 1:2, None]": lambda tf, a: a[..., 1:2, tf.newaxis]}
    for name, f in slices.items():
        cases += _one(name, f, [4, 5])
    cases.append(("a[0, 0, 0]", lambda tf, a: a[0, 0, 0], [[4, 5]]))
    cases.append(("a[9]", lambda tf, a: a[9], [[4, 5]]))
    cases.append(("a[:n]", lambda tf, a, n: a[:n], [[4, 5], ([], "int32")]))
    cases.append(("a[n]", lambda tf, a, n: a[n], [[4, 5], ([], "int32")]))
    cases.append(("slice", lambda tf, a: tf.slice(a, [1, 0], [2, -1]), [[4, 5]]))
    cases.append(("slice unknown", lambda tf, a: tf.slice(a, [1, 0], [2, -1]), [[None, None]]))
    cases.append(("slice bad", lambda tf, a: tf.slice(a, [3, 0], [2, -1]), [[4, 5]]))
    cases.append(("strided_slice masks", lambda tf, a: tf.strided_slice(a, [0, 1], [0, 3], [1, 1],
                                                                       begin_mask=1, end_mask=1), [[4, 5]]))
    return run_cases(tf, cases)


# -- 8. Keras layers' compute_output_shape on None dimensions ------------------------------------------------------
def _kshape(s: Any) -> Any:
    if isinstance(s, list):
        return [_kshape(x) for x in s]
    return list(s) if s is not None else None


def keras_output_shapes(tf: Any, mk: Any) -> Any:
    """compute_output_shape of Dense, Conv1D/2D (padding, strides, dilation), pooling, Reshape (-1), Flatten,
    Concatenate (axis), Dot (axes), Permute, RepeatVector, GlobalPooling (keepdims) with None dimensions, and the
    error class of incompatible ones."""
    L = tf.keras.layers
    out: dict[str, Any] = {}

    def rec(key: str, make: Callable[[], Any], shape: Any) -> None:
        def go() -> Any:
            return _kshape(make().compute_output_shape(shape))
        try:
            out[key] = go()
        except Exception as e:  # noqa: BLE001 - the class is the observation
            out[key] = f"raised {type(e).__name__}"
    for shp in ((None, 3), (2, None, 3), (None, None, 3)):
        rec(f"Dense {shp}", lambda: L.Dense(4), shp)
    for pad in ("same", "valid", "causal"):
        for st, dl in ((1, 1), (2, 1), (1, 2)):
            for shp in ((None, 7, 3), (2, None, 3), (None, None, 3)):
                rec(f"Conv1D {pad} s{st} d{dl} {shp}", lambda pad=pad, st=st, dl=dl: L.Conv1D(
                    4, 3, strides=st, padding=pad, dilation_rate=dl), shp)
    for pad in ("same", "valid"):
        for st in (1, 2):
            for shp in ((None, 7, 6, 3), (2, None, 6, 3), (None, None, None, 3)):
                rec(f"Conv2D {pad} s{st} {shp}", lambda pad=pad, st=st: L.Conv2D(4, 3, strides=st, padding=pad),
                    shp)
                rec(f"MaxPooling2D {pad} s{st} {shp}", lambda pad=pad, st=st: L.MaxPooling2D(
                    2, strides=st, padding=pad), shp)
                rec(f"AveragePooling1D {pad} s{st} {shp[:-1]}", lambda pad=pad, st=st: L.AveragePooling1D(
                    2, strides=st, padding=pad), shp[:-1])
                rec(f"DepthwiseConv2D {pad} s{st} {shp}", lambda pad=pad, st=st: L.DepthwiseConv2D(
                    3, strides=st, padding=pad, depth_multiplier=2), shp)
                rec(f"Conv2DTranspose {pad} s{st} {shp}", lambda pad=pad, st=st: L.Conv2DTranspose(
                    4, 3, strides=st, padding=pad), shp)
    for kd in (False, True):
        rec(f"GlobalAveragePooling2D kd{int(kd)}", lambda kd=kd: L.GlobalAveragePooling2D(keepdims=kd),
            (None, None, None, 3))
        rec(f"GlobalMaxPooling1D kd{int(kd)}", lambda kd=kd: L.GlobalMaxPooling1D(keepdims=kd), (None, None, 3))
    for tgt in ((-1,), (3, -1), (2, 3), (-1, 2)):
        for shp in ((None, 6), (None, 2, 3), (4, 6), (None, None)):
            rec(f"Reshape {tgt} {shp}", lambda tgt=tgt: L.Reshape(tgt), shp)
    for shp in ((None, 2, 3), (None, None, 3), (4, 2, 3), (None, 5)):
        rec(f"Flatten {shp}", lambda: L.Flatten(), shp)
    for ax in (-1, 1, 0):
        for shps in ([(None, 2, 3), (None, 2, 4)], [(None, None, 3), (None, 2, 3)], [(None, 2, 3), (None, 3, 3)],
                     [(2, 3), (2, 3), (2, 3)]):
            rec(f"Concatenate ax{ax} {shps}", lambda ax=ax: L.Concatenate(axis=ax), list(shps))
    for axes in (1, 2, -1, (1, 1), (2, 1)):
        for shps in ([(None, 3), (None, 3)], [(None, 2, 3), (None, 3, 4)], [(None, 2, 3), (None, 2, 3)],
                     [(None, 2, None), (None, None, 4)]):
            rec(f"Dot {axes} {shps}", lambda axes=axes: L.Dot(axes), list(shps))
    rec("Permute", lambda: L.Permute((2, 1)), (None, None, 3))
    rec("RepeatVector", lambda: L.RepeatVector(4), (None, 3))
    rec("Cropping1D", lambda: L.Cropping1D((1, 2)), (None, None, 3))
    rec("ZeroPadding2D", lambda: L.ZeroPadding2D(((1, 2), (0, 1))), (None, None, 5, 3))
    rec("UpSampling2D", lambda: L.UpSampling2D(2), (None, None, 5, 3))
    return out


def _load_open() -> frozenset[tuple[str, str]]:
    """The cases left OPEN (ssweep64_open.txt, `program | case` per line: simdist's answer is not TF 2.21's, for the
    reasons docs/conformance.md's ssweep64 section gives); neither recorded nor compared."""
    path = os.path.join(os.path.dirname(__file__), "ssweep64_open.txt")
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split(" | ", 1) for line in f if line.strip() and not line.startswith("#")]
    return frozenset((a, b) for a, b in rows)


OPEN = _load_open()


def _without_open(name: str, fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        return {k: v for k, v in fn(tf, mk).items() if (name, k) not in OPEN}
    run.__doc__ = fn.__doc__
    return run


PROGRAMS: dict[str, Callable[[Any, Any], Any]] = {
    "s-matmul-family": matmul_family, "s-cross-entropies": cross_entropies, "s-join-split": join_split,
    "s-gather-select": gather_select, "s-reductions": reductions, "s-conv-pool": conv_pool,
    "s-shapes-and-slices": shapes_and_slices, "s-keras-output-shapes": keras_output_shapes,
}
for _n, _f in PROGRAMS.items():
    REF.add(_n, _without_open(_n, _f))
