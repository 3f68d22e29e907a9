"""The shape and index op argument sweep's programs (sixtieth session, qsweep60; test_qsweep60.py): every shape and
index op's argument normalization crossed by rule — negative axes, one axis named twice (as -1 and its positive
index), out-of-range axes and indices, the argument as a Python int, list, tuple, an int32 or int64 tensor, an empty
list and None (omitted) — eagerly, inside a tf.function with the inputs' shapes known (shape errors at trace time)
and inside one whose input_signature leaves every dimension unknown (the same errors at run time), with the
gradient of a non-uniform upstream for the differentiable ones, eagerly and traced. A refusal is a result: its
exception class and which of a few key words TF's message holds (KEYWORDS), not the full text.

What is crossed (asweep58 took the raw ops' attributes at one value each; tsweep56/58 and kpaths54 single cases):
- squeeze (None, one axis, -1 and its positive twin, a non-1 axis, out of range), expand_dims (axis 0, -1, rank,
  rank + 1, -rank - 1, an int64 tensor), transpose (perm omitted, a list, an int64 tensor, repeated, out of range,
  conjugate of complex), reshape (-1, two -1s, zero dims, a tensor shape, a size mismatch), tile (zero multiples,
  an int64 tensor, wrong length), slice (size -1, out of range), strided_slice and __getitem__ (begin/end/ellipsis/
  new_axis/shrink masks, negative strides, clamped ends, a tensor index, an out-of-range scalar index), concat
  (negative axis, one input, zero-size pieces, axis out of range), stack/unstack (axis, num, num wrong), split (num,
  sizes with -1, a tensor of sizes, sizes not summing up), gather (axis, batch_dims negative, both, an
  out-of-range index: CPU's InvalidArgumentError), gather_nd (batch_dims, a partial index), scatter_nd and
  tensor_scatter_nd_* (duplicate indices), one_hot (axis, depth 0, on/off values, a negative index), reverse (repeated
  axis, negative), roll (repeated axis: shifts add, negative shift, int64), pad (CONSTANT/REFLECT/SYMMETRIC,
  constant_values, zero pads, a too-large REFLECT pad), broadcast_to (a tensor shape, incompatible), boolean_mask
  (axis), where with one argument (rank 0, 1, 3), unique/unique_with_counts (out_idx int64), sort/argsort (stable,
  direction, ties), range (dtypes, negative delta, empty, delta 0), reduce_sum/max/prod/mean/euclidean_norm/any/all
  and argmax/argmin with axis forms (repeated, negative, empty list, None, out of range, keepdims, an int64 tensor),
  cumsum/cumprod/cumulative_logsumexp (axis forms, exclusive, reverse), top_k (k 0 to past the end, sorted);
- index dtypes int32 and int64; zero-size and rank-0 inputs everywhere they apply.

Inputs are small dyadic rationals (k / 8 from np.random.RandomState), so every value is a data movement, an exact
short sum or product, or one correctly rounded division or square root: host-independent, but for q-cumulative
(cumulative_logsumexp's exp and log), which is listed host-dependent. TF 2.21's answers are recorded by `python -m
simdist.conformance.suite.test_qsweep60 --record` on this session's AVX-512 Xeon with oneDNN on."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits, reference_cpu,
                                                         rng)

PATH = os.path.join(os.path.dirname(__file__), "qsweep60_reference.json.gz")

#: q-cumulative's cumulative_logsumexp takes Eigen's exp and log (vectorized by the CPU): host-dependent
REF = RecordedPrograms(PATH, host_dependent=("q-cumulative",), recording_host=avx512_with_onednn,
                       recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 this sweep found and did not fix: program -> case keys ("case" or
#: "case/mode") left out of the comparison; the evidence in docs/conformance.md ("Sixtieth session ... qsweep60").
OPEN: dict[str, tuple[str, ...]] = {
    # (a) grad-fn: TF 2.21 traces the whole function, gradient included, before it runs, so an error the gradient's
    # graph construction raises (ValueError/TypeError: _ConcatGrad's and _SplitGrad's `axis % rank` of an int64 axis,
    # ReshapeGrad of a [0, 4] to [0, -1], _TileGrad of a negative multiple, _SliceGrad's and _StridedSliceGrad's shape
    # arithmetic, the reductions' gradients of a repeated axis given as a function input, _ProdGrad of a repeated
    # axis) wins over the forward kernel's run-time InvalidArgumentError; simdist
    # runs the forward op while it traces and raises that first (or, where TF's gradient construction fails, returns
    # values): the order of trace-time and run-time errors, not modelled
    "q-concat": ("t64-axis/grad-fn",),
    "q-getitem": ("two-ellipsis/grad-fn",),
    "q-reduce-euclidean-norm": ("input-rep/grad-fn",),
    "q-reduce-max": ("input-rep/grad-fn",),
    "q-reduce-mean": ("input-rep/grad-fn",),
    "q-reduce-prod": ("input-rep/grad-fn", "keep-rep/grad-fn", "rep-neg/grad-fn", "rep/grad-fn"),
    "q-reduce-sum": ("input-rep/grad-fn",),
    "q-reshape": ("two-neg1/grad-fn", "zero-neg1/grad-fn"),
    "q-slice": ("neg-begin/grad-fn", "oob/grad-fn", "size-neg2/grad-fn"),
    "q-strided": ("inputs/grad-fn",),
    "q-tile": ("neg/grad-fn",),
    "q-transpose": ("rep/grad-fn",),
}
#: (b) the rest (added to OPEN below)
OPEN_B: dict[str, tuple[str, ...]] = {
    # shape functions' trace-time ValueError where simdist raises the kernel's InvalidArgumentError (or the reverse):
    # slice's size -2 ("Invalid value in tensor used for shape: -2"), two ellipses in __getitem__ of a known rank,
    # split's sizes with two -1s ("size_splits can only have one -1") or a -2, Split's num 4 of 6 ("Dimension size
    # must be evenly divisible by 4 but is 6": simdist's text lacks "must be"), SplitV of a sizes input under unknown
    # shapes (TF: ValueError at trace); reshape to [-1, -1] (TF: the kernel's InvalidArgumentError at run time;
    # simdist: a ValueError at trace); an out-of-range tensor index that is a function input (TF: run-time
    # InvalidArgumentError; simdist reads the input's value and raises ValueError at trace)
    "q-slice": ("size-neg2/function", "size-neg2/unknown"),
    "q-getitem": ("two-ellipsis/function", "two-ellipsis/unknown", "tensor-oob/function"),
    "q-split": ("sizes-two-neg1/function", "sizes-two-neg1/grad-fn", "sizes-two-neg1/unknown",
                "sizes-neg2/function", "sizes-neg2/grad-fn", "sizes-neg2/unknown", "num-bad/function",
                "num-bad/grad-fn", "sizes-input-nonum/unknown"),
    "q-reshape": ("two-neg1/function",),
}
for _k, _v in OPEN_B.items():
    OPEN[_k] = OPEN.get(_k, ()) + _v

#: key words of TF's error messages recorded beside a refusal's class (which of them the message holds)
KEYWORDS = ("out of range", "must be", "duplicate", "not in [", "incompatible", "invalid argument")

MODES = ("eager", "function", "unknown")


def failure(e: BaseException) -> str:
    msg = str(e).lower()
    words = [k for k in KEYWORDS if k in msg]
    return f"raised {type(e).__name__}" + (f" [{', '.join(words)}]" if words else "")


def attempt(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return failure(e)


def value(tf: Any, t: Any) -> Any:
    """A result: dtype, shape and bits (a list of results, each; an IndexedSlices gradient marked as such)."""
    if t is None:
        return None
    if isinstance(t, (list, tuple)):
        return [value(tf, e) for e in t]
    kind = type(t).__name__
    if kind == "IndexedSlices":
        return {"slices": value(tf, tf.convert_to_tensor(t))}
    a = np.asarray(t.numpy())
    if a.dtype.kind == "c":
        v: Any = [bits(a.real), bits(a.imag)]
    else:
        v = bits(a)
    return {"dt": t.dtype.name, "shape": list(a.shape), "v": v}


def dyadic(name: str, shape: tuple[int, ...], dt: str = "float32") -> np.ndarray:
    """k / 8 for k in [-16, 16): exact in every float dtype; integers k for integer dtypes."""
    r = rng(name)
    k = r.randint(-16, 16, size=shape)
    if dt.startswith("int") or dt.startswith("uint"):
        return k.astype(dt)
    if dt.startswith("complex"):
        return (k / 8 + 1j * r.randint(-16, 16, size=shape) / 8).astype(dt)
    if dt == "bool":
        return k > 0
    return (k / 8).astype(dt)


Case = tuple[Callable[..., Any], list[np.ndarray]]


def _outputs(y: Any) -> list[Any]:
    return list(y) if isinstance(y, (list, tuple)) else [y]


def _loss(tf: Any, name: str, y: Any) -> Any:
    total = None
    for i, t in enumerate(_outputs(y)):
        if not t.dtype.is_floating and not t.dtype.is_complex:
            continue
        up = tf.constant(dyadic(f"up/{name}/{i}", tuple(t.shape), t.dtype.name))
        term = tf.reduce_sum(tf.math.real(t * up) if t.dtype.is_complex else t * up)
        total = term if total is None else total + term
    return total


def _grad(tf: Any, name: str, fn: Callable[..., Any], ts: list[Any]) -> Any:
    watched = [t for t in ts if t.dtype.is_floating or t.dtype.is_complex]
    with tf.GradientTape() as tape:
        for t in watched:
            tape.watch(t)
        loss = _loss(tf, name, fn(tf, *ts))
    if loss is None:
        return None   # (no float output)
    return [loss] + list(tape.gradient(loss, watched))   # (the loss too: a traced forward pass is not pruned)


def run_case(tf: Any, name: str, fn: Callable[..., Any], xs: list[np.ndarray], grad: bool,
             modes: tuple[str, ...]) -> dict[str, Any]:
    """The case's result in each mode, and (grad) its gradient eagerly and traced."""
    ts = [tf.constant(x) for x in xs]
    out: dict[str, Any] = {}
    sig = [tf.TensorSpec([None] * x.ndim, tf.as_dtype(x.dtype.name)) for x in xs]
    for mode in modes:
        if mode == "eager":
            out[mode] = attempt(lambda: value(tf, fn(tf, *ts)))
        elif mode == "function":
            out[mode] = attempt(lambda: value(tf, tf.function(lambda *a: fn(tf, *a))(*ts)))
        else:
            out[mode] = attempt(lambda: value(tf, tf.function(lambda *a: fn(tf, *a), input_signature=sig)(*ts)))
    if grad:
        out["grad"] = attempt(lambda: value(tf, _grad(tf, name, fn, ts)))
        out["grad-fn"] = attempt(lambda: value(tf, tf.function(lambda *a: _grad(tf, name, fn, list(a)))(*ts)))
    return out


def program(name: str, cases: Callable[[], dict[str, tuple[Case, bool]]],
            modes: tuple[str, ...] = MODES) -> None:
    def fn(tf: Any, mk: Any) -> Any:
        out = {}
        for key, ((f, xs), grad) in cases().items():
            out[key] = run_case(tf, f"{name}/{key}", f, xs, grad, modes)
        for key in OPEN.get(name, ()):
            case, _, mode = key.partition("/")
            if mode and isinstance(out.get(case), dict):
                out[case].pop(mode, None)
            else:
                out.pop(case, None)
        return json.loads(json.dumps(out))
    REF.add(name, fn)


def X(name: str, shape: tuple[int, ...], dt: str = "float32") -> np.ndarray:
    return dyadic(f"x/{name}", shape, dt)


def I(v: Any, dt: str = "int32") -> np.ndarray:
    return np.asarray(v, dt)


# -- squeeze, expand_dims ----------------------------------------------------------------------------------------
def _squeeze() -> dict[str, Any]:
    x = X("sq", (1, 3, 1, 1))
    x2 = X("sq2", (2, 1))
    z = X("sqz", (0, 1, 2))
    s = X("sqs", ())
    c: dict[str, Any] = {}
    for k, ax in {"none": None, "0": 0, "neg1": -1, "list": [0, 2], "tuple": (2, -1), "rep-neg": [-1, 3],
                  "rep-same": [2, 2], "rep-neg1-2": [-2, 2], "empty": [], "not1": [1], "oob": [4], "oob-neg": -5}.items():
        c[k] = ((lambda tf, a, ax=ax: tf.squeeze(a, axis=ax), [x]), True)
    c["r2-neg1-1"] = ((lambda tf, a: tf.squeeze(a, [-1, 1]), [x2]), True)
    c["zero-size"] = ((lambda tf, a: tf.squeeze(a), [z]), True)
    c["zero-size-ax"] = ((lambda tf, a: tf.squeeze(a, 1), [z]), True)
    c["zero-size-ax0"] = ((lambda tf, a: tf.squeeze(a, 0), [z]), False)
    c["rank0"] = ((lambda tf, a: tf.squeeze(a), [s]), True)
    c["int64"] = ((lambda tf, a: tf.squeeze(a, [-1]), [X("sqi", (2, 1), "int64")]), False)
    return c


def _expand() -> dict[str, Any]:
    x = X("ed", (2, 3))
    c: dict[str, Any] = {}
    for k, ax in {"0": 0, "1": 1, "rank": 2, "neg1": -1, "neg-rank-1": -3, "oob": 3, "oob-neg": -4}.items():
        c[k] = ((lambda tf, a, ax=ax: tf.expand_dims(a, ax), [x]), True)
    c["t64"] = ((lambda tf, a: tf.expand_dims(a, tf.constant(-2, tf.int64)), [x]), True)
    c["t-vec1"] = ((lambda tf, a: tf.expand_dims(a, tf.constant([1])), [x]), True)
    c["axis-input"] = ((lambda tf, a, ax: tf.expand_dims(a, ax), [x, I(-1, "int64")]), False)
    c["rank0"] = ((lambda tf, a: tf.expand_dims(a, -1), [X("eds", ())]), True)
    c["zero-size"] = ((lambda tf, a: tf.expand_dims(a, 1), [X("edz", (0, 2))]), True)
    return c


# -- transpose, reshape, tile --------------------------------------------------------------------------------------
def _transpose() -> dict[str, Any]:
    x = X("tr", (2, 3, 4))
    cx = X("trc", (2, 3), "complex64")
    c: dict[str, Any] = {}
    for k, p in {"default": None, "list": [2, 0, 1], "tuple": (1, 2, 0), "t64": "t64", "rep": [0, 0, 1],
                 "oob": [0, 1, 3], "neg": [-1, 0, 1], "short": [1, 0]}.items():
        if p == "t64":
            c[k] = ((lambda tf, a: tf.transpose(a, tf.constant([2, 1, 0], tf.int64)), [x]), True)
        else:
            c[k] = ((lambda tf, a, p=p: tf.transpose(a, p), [x]), True)
    c["perm-input"] = ((lambda tf, a, p: tf.transpose(a, p), [x, I([1, 2, 0])]), True)
    c["conj"] = ((lambda tf, a: tf.transpose(a, conjugate=True), [cx]), True)
    c["conj-real"] = ((lambda tf, a: tf.transpose(a, [1, 0], conjugate=True), [X("trr", (2, 3))]), True)
    c["zero-size"] = ((lambda tf, a: tf.transpose(a, [1, 2, 0]), [X("trz", (2, 0, 3))]), True)
    c["rank0"] = ((lambda tf, a: tf.transpose(a), [X("trs", ())]), True)
    c["int-dtype"] = ((lambda tf, a: tf.transpose(a), [X("tri", (2, 3), "int64")]), False)
    return c


def _reshape() -> dict[str, Any]:
    x = X("rs", (2, 3, 4))
    z = X("rsz", (0, 4))
    c: dict[str, Any] = {}
    for k, s in {"neg1": [-1], "neg1-mid": [2, -1, 3], "two-neg1": [-1, -1], "mismatch": [5, 5], "tuple": (4, 6),
                 "bad-neg": [-2, 12], "scalar-target": []}.items():
        c[k] = ((lambda tf, a, s=s: tf.reshape(a, s), [x]), True)
    c["t64"] = ((lambda tf, a: tf.reshape(a, tf.constant([6, -1], tf.int64)), [x]), True)
    c["shape-input"] = ((lambda tf, a, s: tf.reshape(a, s), [x, I([4, -1], "int64")]), True)
    c["zero-neg1"] = ((lambda tf, a: tf.reshape(a, [0, -1]), [z]), True)
    c["zero-to-neg1-ambig"] = ((lambda tf, a: tf.reshape(a, [-1, 0]), [z]), False)
    c["zero-to-3d"] = ((lambda tf, a: tf.reshape(a, [2, 0, 8]), [z]), True)
    c["rank0-to-1"] = ((lambda tf, a: tf.reshape(a, [1, 1]), [X("rss", ())]), True)
    c["one-to-rank0"] = ((lambda tf, a: tf.reshape(a, []), [X("rs1", (1, 1))]), True)
    return c


def _tile() -> dict[str, Any]:
    x = X("ti", (2, 3))
    c: dict[str, Any] = {}
    for k, m in {"list": [2, 1], "zero": [0, 2], "ones": [1, 1], "wrong-len": [2], "neg": [-1, 2],
                 "tuple": (1, 3)}.items():
        c[k] = ((lambda tf, a, m=m: tf.tile(a, m), [x]), True)
    c["t64"] = ((lambda tf, a: tf.tile(a, tf.constant([3, 2], tf.int64)), [x]), True)
    c["m-input"] = ((lambda tf, a, m: tf.tile(a, m), [x, I([2, 2], "int64")]), True)
    c["zero-size"] = ((lambda tf, a: tf.tile(a, [3, 2]), [X("tiz", (0, 2))]), True)
    c["rank0"] = ((lambda tf, a: tf.tile(a, []), [X("tis", ())]), True)
    for k, (r, ax) in {"scalar": (2, None), "scalar-ax0": (2, 0), "list-ax1": ([1, 0, 2], 1),
                       "neg-ax": (3, -1), "t64": ("t64", 0)}.items():
        if r == "t64":
            c[f"repeat-{k}"] = ((lambda tf, a: tf.repeat(a, tf.constant([2, 1], tf.int64), axis=0), [x]), True)
        else:
            c[f"repeat-{k}"] = ((lambda tf, a, r=r, ax=ax: tf.repeat(a, r, axis=ax), [x]), True)
    return c


# -- slice, strided_slice, __getitem__ -----------------------------------------------------------------------------
def _slice() -> dict[str, Any]:
    x = X("sl", (4, 5))
    c: dict[str, Any] = {}
    for k, (b, s) in {"basic": ([1, 2], [2, 3]), "size-neg1": ([1, 0], [-1, -1]), "size-zero": ([2, 1], [0, 3]),
                      "oob": ([3, 0], [2, 2]), "neg-begin": ([-1, 0], [1, 1]), "size-neg2": ([0, 0], [-2, 1]),
                      "end": ([4, 5], [0, 0])}.items():
        c[k] = ((lambda tf, a, b=b, s=s: tf.slice(a, b, s), [x]), True)
    c["t64"] = ((lambda tf, a: tf.slice(a, tf.constant([1, 1], tf.int64), tf.constant([-1, 2], tf.int64)), [x]), True)
    c["inputs"] = ((lambda tf, a, b, s: tf.slice(a, b, s), [x, I([0, 3]), I([3, -1])]), True)
    return c


def _strided() -> dict[str, Any]:
    x = X("ss", (4, 5, 3))
    c: dict[str, Any] = {}
    ss = "strided_slice"

    def f(b: Any, e: Any, s: Any = None, **kw: Any) -> Any:
        return lambda tf, a: getattr(tf, ss)(a, b, e, s, **kw)
    specs = {
        "basic": f([1, 0, 0], [3, 5, 3]),
        "neg-stride": f([3, 4, 2], [0, 0, 0], [-1, -2, -1]),
        "neg-stride-clamp": f([10, 10, 10], [-10, -10, -10], [-1, -1, -1]),
        "clamp": f([-10, 1, 0], [10, 10, 10], [1, 2, 1]),
        "begin-mask": f([3, 3, 2], [4, 5, 3], [1, 1, 1], begin_mask=0b101),
        "end-mask": f([1, 1, 1], [0, 0, 0], [1, 1, 1], end_mask=0b111),
        "end-mask-neg": f([2, 3, 1], [0, 0, 0], [-1, -1, -1], end_mask=0b011),
        "ellipsis": f([0, 1], [0, 3], [1, 1], ellipsis_mask=0b01),
        "ellipsis-mid": f([1, 0, 1], [2, 0, 3], [1, 1, 1], ellipsis_mask=0b010),
        "new-axis": f([0, 1, 0], [0, 3, 2], [1, 1, 1], new_axis_mask=0b001),
        "new-axis-last": f([0, 0, 0, 0], [1, 2, 3, 0], [1, 1, 1, 1], new_axis_mask=0b1000),
        "shrink": f([1, 0, 2], [2, 5, 3], [1, 1, 1], shrink_axis_mask=0b101),
        "shrink-neg": f([-1, 0, -2], [0, 5, 0], [1, 1, 1], shrink_axis_mask=0b101),
        "shrink-oob": f([4, 0, 0], [5, 5, 3], [1, 1, 1], shrink_axis_mask=0b001),
        "shrink-neg-oob": f([-5, 0, 0], [0, 5, 3], [1, 1, 1], shrink_axis_mask=0b001),
        "stride-zero": f([0, 0, 0], [4, 5, 3], [1, 0, 1]),
        "all-masks": f([1, 0, 0, 1], [0, 0, 0, 3], [1, 1, 1, -1], begin_mask=0b1000, end_mask=0b0001,
                       new_axis_mask=0b0010, shrink_axis_mask=0b0100, ellipsis_mask=0),
        "empty": f([3, 0, 0], [1, 5, 3], [1, 1, 1]),
        "t64": lambda tf, a: tf.strided_slice(a, tf.constant([0, 1, 0], tf.int64), tf.constant([4, 5, 3], tf.int64),
                                              tf.constant([2, 3, -1], tf.int64)),
        "stride-omitted": f([1, 1, 1], [3, 3, 3]),
    }
    for k, g in specs.items():
        c[k] = ((g, [x]), True)
    c["inputs"] = ((lambda tf, a, b, e, s: tf.strided_slice(a, b, e, s), [x, I([3, 0, 1]), I([0, 5, 3]),
                                                                          I([-2, 2, 1])]), True)
    c["zero-size"] = ((lambda tf, a: tf.strided_slice(a, [0, 1], [0, 2], [1, 1]), [X("ssz", (0, 3))]), True)
    return c


def _getitem() -> dict[str, Any]:
    x = X("gi", (4, 5, 3))
    c: dict[str, Any] = {}
    specs: dict[str, Callable[[Any], Any]] = {
        "int": lambda a: a[1],
        "neg-int": lambda a: a[-1],
        "oob-int": lambda a: a[4],
        "oob-neg-int": lambda a: a[-5],
        "slice-rev": lambda a: a[::-1],
        "slice-rev2": lambda a: a[3:0:-2, ::-2],
        "ellipsis": lambda a: a[..., 1],
        "ellipsis-mid": lambda a: a[1, ..., 0:2],
        "newaxis": lambda a: a[None, :, None, 2],
        "newaxis-ellipsis": lambda a: a[..., None],
        "clamp": lambda a: a[-10:10, 1:100],
        "empty": lambda a: a[3:1],
        "mixed": lambda a: a[1:, -1, ::2],
        "two-ellipsis": lambda a: a[..., 0, ...],
        "stride-zero": lambda a: a[::0],
        "too-many": lambda a: a[0, 0, 0, 0],
        "int64-index": lambda a: a[np.int64(2)],
    }
    for k, g in specs.items():
        c[k] = ((lambda tf, a, g=g: g(a), [x]), True)
    c["tensor-index"] = ((lambda tf, a, i: a[i], [x, I(2)]), True)
    c["tensor-index64"] = ((lambda tf, a, i: a[:, i], [x, I(-1, "int64")]), True)
    c["tensor-slice"] = ((lambda tf, a, i, j: a[i:j, ::-1], [x, I(1), I(3)]), True)
    c["tensor-oob"] = ((lambda tf, a, i: a[i], [x, I(7)]), False)
    c["rank0-ellipsis"] = ((lambda tf, a: a[...], [X("gis", ())]), True)
    c["rank0-newaxis"] = ((lambda tf, a: a[None], [X("gis2", ())]), True)
    c["zero-size"] = ((lambda tf, a: a[:, 1], [X("giz", (0, 3))]), True)
    return c


# -- concat, stack, unstack, split ---------------------------------------------------------------------------------
def _concat() -> dict[str, Any]:
    a, b = X("ca", (2, 3)), X("cb", (2, 2))
    z = X("cz", (2, 0))
    c: dict[str, Any] = {}
    for k, ax in {"1": 1, "neg1": -1, "0-bad": 0, "oob": 2, "neg-oob": -3}.items():
        c[k] = ((lambda tf, p, q, ax=ax: tf.concat([p, q], ax), [a, b]), True)
    c["t64-axis"] = ((lambda tf, p, q: tf.concat([p, q], tf.constant(-1, tf.int64)), [a, b]), True)
    c["one"] = ((lambda tf, p: tf.concat([p], 0), [a]), True)
    c["one-neg"] = ((lambda tf, p: tf.concat([p], -2), [a]), True)
    c["zero-piece"] = ((lambda tf, p, q, r: tf.concat([p, q, r], 1), [a, z, b]), True)
    c["all-zero"] = ((lambda tf, q, r: tf.concat([q, r], -1), [z, X("cz2", (2, 0))]), True)
    c["three-axis0"] = ((lambda tf, p, q, r: tf.concat([p, q, r], 0), [a, X("cc", (1, 3)), X("cd", (3, 3))]), True)
    c["axis-input"] = ((lambda tf, p, q, ax: tf.concat([p, q], ax), [a, b, I(-1)]), True)
    # an IndexedSlices gradient (a gather's) reaching concat along an inner axis and along axis 0
    c["gather-of-inner"] = ((lambda tf, p, q: tf.gather(tf.concat([p, q], 1), [1, 0, 1]), [a, b]), True)
    c["gather-of-axis0"] = ((lambda tf, p, q: tf.gather(tf.concat([p, q], 0), [3, 0, 3]),
                             [a, X("cc0", (2, 3))]), True)
    c["rank0"] = ((lambda tf, p, q: tf.concat([p, q], 0), [X("cs", ()), X("cs2", ())]), False)
    c["mixed-rank"] = ((lambda tf, p, q: tf.concat([p, q], 0), [a, X("cv", (3,))]), False)
    return c


def _stack() -> dict[str, Any]:
    a, b = X("sa", (2, 3)), X("sb", (2, 3))
    c: dict[str, Any] = {}
    for k, ax in {"0": 0, "1": 1, "2": 2, "neg1": -1, "neg3": -3, "oob": 3, "neg-oob": -4}.items():
        c[k] = ((lambda tf, p, q, ax=ax: tf.stack([p, q], ax), [a, b]), True)
    c["one"] = ((lambda tf, p: tf.stack([p], 1), [a]), True)
    c["mismatch"] = ((lambda tf, p, q: tf.stack([p, q]), [a, X("sc", (3, 2))]), False)
    c["rank0"] = ((lambda tf, p, q: tf.stack([p, q], -1), [X("ss0", ()), X("ss1", ())]), True)
    c["zero-size"] = ((lambda tf, p, q: tf.stack([p, q], 1), [X("sz", (0, 2)), X("sz2", (0, 2))]), True)
    x = X("us", (2, 3, 4))
    for k, (ax, num) in {"0": (0, None), "1": (1, None), "neg1": (-1, None), "num": (1, 3), "num-wrong": (1, 2),
                         "oob": (3, None), "neg3": (-3, None)}.items():
        c[f"unstack-{k}"] = ((lambda tf, p, ax=ax, num=num: tf.unstack(p, num=num, axis=ax), [x]), True)
    c["unstack-zero"] = ((lambda tf, p: tf.unstack(p, axis=1), [X("usz", (2, 0, 3))]), True)
    c["unstack-zero-other"] = ((lambda tf, p: tf.unstack(p, axis=0), [X("usz2", (2, 0, 3))]), True)
    c["unstack-rank0"] = ((lambda tf, p: tf.unstack(p), [X("uss", ())]), False)
    return c


def _split() -> dict[str, Any]:
    x = X("sp", (6, 4))
    c: dict[str, Any] = {}
    for k, (n, ax) in {"num2": (2, 0), "num3-neg": (2, -1), "num-bad": (4, 0), "sizes": ([1, 2, 3], 0),
                       "sizes-neg1": ([1, -1, 2], 0), "sizes-two-neg1": ([-1, -1], 1), "sizes-bad": ([1, 2], 0),
                       "sizes-over": ([3, 2, 3], 0), "sizes-zero": ([0, 4, 0], -1), "one": (1, 1),
                       "sizes-neg2": ([-2, 8], 0), "axis-oob": (2, 2)}.items():
        c[k] = ((lambda tf, a, n=n, ax=ax: tf.split(a, n, ax), [x]), True)
    c["sizes-t64"] = ((lambda tf, a: tf.split(a, tf.constant([2, -1], tf.int64), 1), [x]), True)
    c["sizes-input"] = ((lambda tf, a, s: tf.split(a, s, 0, num=3), [x, I([2, 3, 1])]), True)
    c["sizes-input-nonum"] = ((lambda tf, a, s: tf.split(a, s, 0), [x, I([2, 4])]), True)
    c["axis-t64"] = ((lambda tf, a: tf.split(a, 3, tf.constant(0, tf.int64)), [x]), True)
    c["zero-size"] = ((lambda tf, a: tf.split(a, 2, 1), [X("spz", (0, 4))]), True)
    c["num-zero"] = ((lambda tf, a: tf.split(a, 0, 0), [x]), False)
    return c


# -- gather, gather_nd, scatter ------------------------------------------------------------------------------------
def _gather() -> dict[str, Any]:
    p = X("ga", (3, 4))
    p3 = X("ga3", (2, 3, 4))
    c: dict[str, Any] = {}
    for dt in ("int32", "int64"):
        c[f"axis0-{dt}"] = ((lambda tf, a, i: tf.gather(a, i), [p, I([2, 0, 2], dt)]), True)
        c[f"axis1-{dt}"] = ((lambda tf, a, i: tf.gather(a, i, axis=1), [p, I([[3, 1], [1, 1]], dt)]), True)
        c[f"axis-neg-{dt}"] = ((lambda tf, a, i: tf.gather(a, i, axis=-1), [p3, I([0, 3, 0], dt)]), True)
        c[f"oob-{dt}"] = ((lambda tf, a, i: tf.gather(a, i), [p, I([1, 3], dt)]), True)
        c[f"neg-index-{dt}"] = ((lambda tf, a, i: tf.gather(a, i, axis=1), [p, I([-1], dt)]), True)
    c["axis-neg-rank"] = ((lambda tf, a, i: tf.gather(a, i, axis=-2), [p, I([2, 2, 0])]), True)   # (dense gradient)
    c["axis0-t"] = ((lambda tf, a, i: tf.gather(a, i, axis=tf.constant(0)), [p, I([1, 1])]), True)
    bi = I([[2, 0], [1, 1]])
    c["batch1"] = ((lambda tf, a, i: tf.gather(a, i, batch_dims=1), [p3, bi]), True)
    c["batch-neg1"] = ((lambda tf, a, i: tf.gather(a, i, batch_dims=-1), [p3, bi]), True)
    c["batch1-axis2"] = ((lambda tf, a, i: tf.gather(a, i, axis=2, batch_dims=1), [p3, I([[3, 0], [1, 2]])]), True)
    c["batch1-axis-neg1"] = ((lambda tf, a, i: tf.gather(a, i, axis=-1, batch_dims=-1),
                              [p3, I([[3, 0], [1, 2]])]), True)
    c["batch-gt-axis"] = ((lambda tf, a, i: tf.gather(a, i, axis=0, batch_dims=1), [p3, bi]), False)
    c["batch2"] = ((lambda tf, a, i: tf.gather(a, i, batch_dims=2), [p3, I([[3, 0, 1], [2, 2, 0]])]), True)
    c["batch-oob"] = ((lambda tf, a, i: tf.gather(a, i, batch_dims=3), [p3, bi]), False)
    c["axis-oob"] = ((lambda tf, a, i: tf.gather(a, i, axis=2), [p, I([0])]), False)
    c["axis-t64"] = ((lambda tf, a, i: tf.gather(a, i, axis=tf.constant(1, tf.int64)), [p, I([3, 2])]), True)
    c["axis-input"] = ((lambda tf, a, i, ax: tf.gather(a, i, axis=ax), [p, I([3, 2]), I(-1)]), True)
    c["scalar-index"] = ((lambda tf, a, i: tf.gather(a, i, axis=1), [p, I(2)]), True)
    c["empty-index"] = ((lambda tf, a, i: tf.gather(a, i), [p, np.zeros((0,), "int32")]), True)
    c["zero-params"] = ((lambda tf, a, i: tf.gather(a, i, axis=1), [X("gaz", (0, 3)), I([2, 2])]), True)
    c["zero-params-oob"] = ((lambda tf, a, i: tf.gather(a, i), [X("gaz2", (0, 3)), I([0])]), False)
    c["int-params"] = ((lambda tf, a, i: tf.gather(a, i, axis=-1), [X("gai", (2, 3), "int64"), I([2, 0])]), False)
    # segment ids as indices: a negative id is dropped (and its rows get no gradient), int32/int64 ids and counts
    for dt in ("int32", "int64"):
        c[f"segsum-neg-{dt}"] = ((lambda tf, a, i: tf.math.unsorted_segment_sum(a, i, 4), [p, I([2, -1, 2], dt)]),
                                 True)
    c["segsum-n-t64"] = ((lambda tf, a, i: tf.math.unsorted_segment_sum(a, i, tf.constant(2, tf.int64)),
                          [p, I([1, 1, 0])]), True)
    c["segsum-oob"] = ((lambda tf, a, i: tf.math.unsorted_segment_sum(a, i, 2), [p, I([1, 2, 0])]), False)
    c["segmax-neg-2d"] = ((lambda tf, a, i: tf.math.unsorted_segment_max(a, i, 3), [p3, I([[0, -1, 2], [2, 2, 0]])]),
                          True)
    return c


def _gather_nd() -> dict[str, Any]:
    p = X("gn", (3, 4, 2))
    c: dict[str, Any] = {}
    for dt in ("int32", "int64"):
        c[f"full-{dt}"] = ((lambda tf, a, i: tf.gather_nd(a, i), [p, I([[1, 2, 0], [2, 3, 1]], dt)]), True)
        c[f"partial-{dt}"] = ((lambda tf, a, i: tf.gather_nd(a, i), [p, I([[2], [0], [2]], dt)]), True)
        c[f"oob-{dt}"] = ((lambda tf, a, i: tf.gather_nd(a, i), [p, I([[1, 4]], dt)]), True)
    c["batch1"] = ((lambda tf, a, i: tf.gather_nd(a, i, batch_dims=1), [p, I([[1], [3], [0]])]), True)
    c["batch1-full"] = ((lambda tf, a, i: tf.gather_nd(a, i, batch_dims=1), [p, I([[[1, 0]], [[3, 1]], [[0, 1]]])]),
                        True)
    c["batch2"] = ((lambda tf, a, i: tf.gather_nd(a, i, batch_dims=2), [X("gn2", (2, 3, 4)),
                                                                      I([[[1], [0], [3]], [[2], [2], [0]]])]), True)
    c["batch-neg"] = ((lambda tf, a, i: tf.gather_nd(a, i, batch_dims=-1), [p, I([[1], [3], [0]])]), False)
    c["too-deep"] = ((lambda tf, a, i: tf.gather_nd(a, i), [p, I([[0, 0, 0, 0]])]), False)
    c["empty-index"] = ((lambda tf, a, i: tf.gather_nd(a, i), [p, np.zeros((0, 2), "int32")]), True)
    c["index-depth0"] = ((lambda tf, a, i: tf.gather_nd(a, i), [p, np.zeros((2, 0), "int32")]), True)
    return c


def _scatter() -> dict[str, Any]:
    t = X("sct", (4, 3))
    c: dict[str, Any] = {}
    dup = I([[1], [3], [1]])
    u = X("scu", (3, 3))
    for dt in ("int32", "int64"):
        c[f"scatter-nd-dup-{dt}"] = ((lambda tf, i, v: tf.scatter_nd(i, v, [4, 3]), [I([[1], [3], [1]], dt), u]),
                                     True)
    c["scatter-nd-shape-t64"] = ((lambda tf, i, v: tf.scatter_nd(i, v, tf.constant([5, 3], tf.int64)), [dup, u]),
                                 True)
    c["scatter-nd-oob"] = ((lambda tf, i, v: tf.scatter_nd(i, v, [2, 3]), [dup, u]), False)
    c["scatter-nd-elem"] = ((lambda tf, i, v: tf.scatter_nd(i, v, [2, 2]),
                             [I([[0, 1], [1, 0], [0, 1]]), X("sce", (3,))]), True)
    for op in ("update", "add", "sub", "max", "min"):
        c[f"tensor-{op}-dup"] = ((lambda tf, a, i, v, op=op: getattr(tf, f"tensor_scatter_nd_{op}")(a, i, v),
                                  [t, dup, u]), True)
        c[f"tensor-{op}-elem"] = ((lambda tf, a, i, v, op=op: getattr(tf, f"tensor_scatter_nd_{op}")(a, i, v),
                                   [t, I([[0, 2], [3, 1], [0, 2]], "int64"), X("sce2", (3,))]), True)
    tie = t[1:2].copy()
    tie[0, 0] -= 0.5   # one entry below the tensor's, the rest equal to it
    for op in ("max", "min"):
        c[f"tensor-{op}-tie"] = ((lambda tf, a, i, v, op=op: getattr(tf, f"tensor_scatter_nd_{op}")(a, i, v),
                                  [t, I([[1]]), tie]), True)
    c["tensor-add-oob"] = ((lambda tf, a, i, v: tf.tensor_scatter_nd_add(a, i, v), [t, I([[4]]), X("sco", (1, 3))]),
                           False)
    c["tensor-update-neg"] = ((lambda tf, a, i, v: tf.tensor_scatter_nd_update(a, i, v),
                               [t, I([[-1]]), X("scn", (1, 3))]), False)
    c["tensor-update-empty"] = ((lambda tf, a, i, v: tf.tensor_scatter_nd_update(a, i, v),
                                 [t, np.zeros((0, 1), "int32"), X("sc0", (0, 3))]), True)
    return c


# -- one_hot, reverse, roll, pad, broadcast_to ---------------------------------------------------------------------
def _one_hot() -> dict[str, Any]:
    c: dict[str, Any] = {}
    i = I([[0, 2, -1], [3, 1, 1]])
    for k, kw in {"default": {}, "axis0": {"axis": 0}, "axis1": {"axis": 1}, "axis-neg1": {"axis": -1},
                  "on-off": {"on_value": 2.5, "off_value": -0.5}, "dtype": {"dtype": "float64"},
                  "int-on": {"on_value": 7, "off_value": 1}, "axis-oob": {"axis": 3},
                  "axis-neg2": {"axis": -2}}.items():
        c[k] = ((lambda tf, a, kw=kw: tf.one_hot(a, 3, **kw), [i]), False)
    c["depth0"] = ((lambda tf, a: tf.one_hot(a, 0), [i]), False)
    c["depth-neg"] = ((lambda tf, a: tf.one_hot(a, -1), [i]), False)
    c["int64-idx"] = ((lambda tf, a: tf.one_hot(a, 4, axis=0), [I([3, 0, 5], "int64")]), False)
    c["uint8-idx"] = ((lambda tf, a: tf.one_hot(a, 4), [I([3, 0, 255], "uint8")]), False)
    c["depth-input"] = ((lambda tf, a, d: tf.one_hot(a, d), [I([1, 0]), I(3)]), False)
    c["rank0"] = ((lambda tf, a: tf.one_hot(a, 3), [I(1)]), False)
    c["zero-size"] = ((lambda tf, a: tf.one_hot(a, 2), [np.zeros((0, 2), "int32")]), False)
    c["onoff-tensors"] = ((lambda tf, a, on, off: tf.one_hot(a, 3, on, off), [I([2, 0]), X("ohon", ()),
                                                                            X("ohoff", ())]), True)
    return c


def _reverse_roll() -> dict[str, Any]:
    x = X("rv", (3, 4, 2))
    c: dict[str, Any] = {}
    for k, ax in {"0": [0], "neg": [-1], "two": [0, 2], "rep": [1, 1], "rep-neg": [1, -2], "empty": [],
                  "oob": [3], "neg-oob": [-4]}.items():
        c[f"reverse-{k}"] = ((lambda tf, a, ax=ax: tf.reverse(a, ax), [x]), True)
    c["reverse-t64"] = ((lambda tf, a: tf.reverse(a, tf.constant([-1, 0], tf.int64)), [x]), True)
    c["reverse-input"] = ((lambda tf, a, ax: tf.reverse(a, ax), [x, I([2, 1])]), True)
    c["reverse-zero"] = ((lambda tf, a: tf.reverse(a, [1]), [X("rvz", (2, 0))]), True)
    c["reverse-rank0"] = ((lambda tf, a: tf.reverse(a, []), [X("rvs", ())]), True)
    c["reverse-int"] = ((lambda tf, a: tf.reverse(a, [0]), [X("rvi", (3,), "int64")]), False)
    for k, (sh, ax) in {"one": (1, 0), "neg-shift": (-2, 1), "neg-axis": (3, -1), "rep": ([1, 2], [1, 1]),
                        "rep-neg": ([1, 1], [2, -1]), "big": (7, 1), "multi": ([1, -1], [0, 2]),
                        "len-mismatch": ([1, 2], [0]), "oob": (1, 3)}.items():
        c[f"roll-{k}"] = ((lambda tf, a, sh=sh, ax=ax: tf.roll(a, sh, ax), [x]), True)
    c["roll-t64"] = ((lambda tf, a: tf.roll(a, tf.constant([2, -5], tf.int64), tf.constant([0, 1], tf.int64)), [x]),
                     True)
    c["roll-inputs"] = ((lambda tf, a, s, ax: tf.roll(a, s, ax), [x, I([1, 1], "int64"), I([-1, 2])]), True)
    c["roll-zero"] = ((lambda tf, a: tf.roll(a, 3, 1), [X("roz", (2, 0))]), True)
    c["roll-rank0"] = ((lambda tf, a: tf.roll(a, 1, 0), [X("ros", ())]), False)
    return c


def _pad() -> dict[str, Any]:
    x = X("pd", (3, 4))
    c: dict[str, Any] = {}
    for mode in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        m = mode.lower()
        for k, p in {"basic": [[1, 2], [2, 1]], "zero": [[0, 0], [0, 0]], "max": [[2, 0], [0, 3]],
                     "over": [[3, 0], [0, 0]], "neg": [[-1, 0], [0, 0]]}.items():
            c[f"{m}-{k}"] = ((lambda tf, a, p=p, mode=mode: tf.pad(a, p, mode), [x]), True)
        c[f"{m}-t64"] = ((lambda tf, a, mode=mode: tf.pad(a, tf.constant([[1, 1], [0, 2]], tf.int64), mode), [x]),
                         True)
        c[f"{m}-lower"] = ((lambda tf, a, mode=mode: tf.pad(a, [[1, 0], [0, 1]], mode.lower()), [x]), True)
        c[f"{m}-zero-size"] = ((lambda tf, a, mode=mode: tf.pad(a, [[1, 1], [0, 0]], mode), [X("pdz", (0, 3))]),
                               True)
    c["constant-values"] = ((lambda tf, a: tf.pad(a, [[1, 0], [1, 1]], constant_values=-1.5), [x]), True)
    c["constant-values-t"] = ((lambda tf, a, v: tf.pad(a, [[0, 1], [2, 0]], constant_values=v),
                               [x, X("pdv", ())]), True)
    c["reflect-cv"] = ((lambda tf, a: tf.pad(a, [[1, 0], [1, 1]], "REFLECT", constant_values=3.0), [x]), False)
    c["bad-mode"] = ((lambda tf, a: tf.pad(a, [[1, 0], [1, 1]], "WRAP"), [x]), False)
    c["wrong-rank"] = ((lambda tf, a: tf.pad(a, [[1, 0]]), [x]), False)
    c["pads-input"] = ((lambda tf, a, p: tf.pad(a, p, "SYMMETRIC"), [x, I([[2, 1], [3, 0]], "int64")]), True)
    c["rank0"] = ((lambda tf, a: tf.pad(a, tf.zeros([0, 2], tf.int32)), [X("pds", ())]), True)
    c["int-dtype"] = ((lambda tf, a: tf.pad(a, [[1, 1]], constant_values=9), [X("pdi", (3,), "int32")]), False)
    return c


def _broadcast_mask_where() -> dict[str, Any]:
    x = X("bt", (3, 1))
    c: dict[str, Any] = {}
    for k, s in {"list": [2, 3, 4], "same": [3, 1], "bad": [2, 3], "zero": [3, 0], "fewer": [3]}.items():
        c[f"bcast-{k}"] = ((lambda tf, a, s=s: tf.broadcast_to(a, s), [x]), True)
    c["bcast-t64"] = ((lambda tf, a: tf.broadcast_to(a, tf.constant([2, 3, 2], tf.int64)), [x]), True)
    c["bcast-input"] = ((lambda tf, a, s: tf.broadcast_to(a, s), [x, I([3, 5])]), True)
    for k, dt in {"same": None, "int32": "int32", "float64": "float64", "bool": "bool"}.items():
        c[f"zeros-like-{k}"] = ((lambda tf, a, dt=dt: tf.zeros_like(a, dtype=dt), [x]), False)
        c[f"ones-like-{k}"] = ((lambda tf, a, dt=dt: tf.ones_like(a, dtype=dt), [x]), False)
    c["bcast-rank0"] = ((lambda tf, a: tf.broadcast_to(a, [2, 2]), [X("bts", ())]), True)
    m = X("bmm", (3, 4), "bool")
    b = X("bm", (3, 4, 2))
    c["mask-default"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm), [b, m]), True)
    c["mask-1d"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm), [b, I([True, False, True], "bool")]), True)
    c["mask-axis1"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm, axis=1), [b, X("bm1", (4, 2), "bool")]), True)
    c["mask-axis-neg"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm, axis=-1), [b, I([False, True], "bool")]), True)
    c["mask-bad-shape"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm), [b, I([True, False], "bool")]), False)
    c["mask-all-false"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm), [b, np.zeros((3,), bool)]), True)
    c["mask-scalar"] = ((lambda tf, a, mm: tf.boolean_mask(a, mm), [X("bms", ()), I(True, "bool")]), False)
    c["where-1d"] = ((lambda tf, a: tf.where(a), [X("wh1", (5,), "bool")]), False)
    c["where-3d"] = ((lambda tf, a: tf.where(a), [X("wh3", (2, 3, 2), "bool")]), False)
    c["where-float"] = ((lambda tf, a: tf.where(a), [np.array([0.0, -0.0, 0.5, np.nan], "float32")]), False)
    c["where-int"] = ((lambda tf, a: tf.where(a), [X("whi", (2, 3), "int32")]), False)
    c["where-rank0"] = ((lambda tf, a: tf.where(a), [I(True, "bool")]), False)
    c["where-zero"] = ((lambda tf, a: tf.where(a), [np.zeros((0, 3), bool)]), False)
    return c


# -- unique, sort, range -------------------------------------------------------------------------------------------
def _unique_sort() -> dict[str, Any]:
    v = I([3, 1, 3, -2, 1, 0, 3], "int32")
    f = np.array([0.5, -0.0, 0.0, 0.5, -1.0, np.nan, np.nan], "float32")
    c: dict[str, Any] = {}
    c["unique"] = ((lambda tf, a: list(tf.unique(a)), [v]), False)
    c["unique-idx64"] = ((lambda tf, a: list(tf.unique(a, out_idx=tf.int64)), [v]), False)
    c["unique-float"] = ((lambda tf, a: list(tf.unique(a)), [f]), False)
    c["unique-counts"] = ((lambda tf, a: list(tf.unique_with_counts(a)), [v]), False)
    c["unique-counts-64"] = ((lambda tf, a: list(tf.unique_with_counts(a, out_idx=tf.int64)), [f]), False)
    c["unique-empty"] = ((lambda tf, a: list(tf.unique_with_counts(a)), [np.zeros((0,), "int64")]), False)
    c["unique-2d"] = ((lambda tf, a: list(tf.unique(a)), [I([[1, 2], [1, 2]])]), False)
    s = X("so", (3, 5))
    s[0, 1] = s[0, 3]   # ties
    s[1, :] = 0.25
    for k, kw in {"default": {}, "desc": {"direction": "DESCENDING"}, "stable": {"stable": True},
                  "desc-stable": {"direction": "DESCENDING", "stable": True}, "axis0": {"axis": 0},
                  "axis-neg2-desc": {"axis": -2, "direction": "DESCENDING"}, "bad-dir": {"direction": "UP"},
                  "axis-oob": {"axis": 2}}.items():
        c[f"sort-{k}"] = ((lambda tf, a, kw=kw: tf.sort(a, **kw), [s]), True)
        c[f"argsort-{k}"] = ((lambda tf, a, kw=kw: tf.argsort(a, **kw), [s]), False)
    c["argsort-nan"] = ((lambda tf, a: tf.argsort(a, stable=True), [f]), False)
    c["sort-nan-desc"] = ((lambda tf, a: tf.sort(a, direction="DESCENDING"), [f]), False)
    c["sort-int"] = ((lambda tf, a: tf.sort(a), [v]), False)
    c["argsort-int64-desc"] = ((lambda tf, a: tf.argsort(a, direction="DESCENDING", stable=True),
                                [v.astype("int64")]), False)
    c["sort-zero"] = ((lambda tf, a: tf.sort(a), [X("soz", (2, 0))]), False)
    c["sort-rank0"] = ((lambda tf, a: tf.sort(a), [X("sos", ())]), False)
    return c


def _range() -> dict[str, Any]:
    c: dict[str, Any] = {}
    specs: dict[str, Callable[[Any], Any]] = {
        "int": lambda tf: tf.range(5),
        "start-limit": lambda tf: tf.range(2, 7),
        "neg-delta": lambda tf: tf.range(5, -2, -2),
        "empty": lambda tf: tf.range(5, 2),
        "empty-neg": lambda tf: tf.range(2, 5, -1),
        "delta0": lambda tf: tf.range(0, 5, 0),
        "float": lambda tf: tf.range(0.5, 2.0, 0.25),
        "mixed": lambda tf: tf.range(0, 2.5),
        "float-neg": lambda tf: tf.range(1.0, -1.0, -0.375),
        "dtype64": lambda tf: tf.range(3, dtype=tf.int64),
        "dtype-f64": lambda tf: tf.range(1, 4, dtype=tf.float64),
        "dtype-f16": lambda tf: tf.range(0, 1, 0.125, dtype=tf.float16),
        "t64": lambda tf: tf.range(tf.constant(2, tf.int64), 9, 3),
        "limit-none": lambda tf: tf.range(4, None, 1),
        # deltas that are not dyadic: RangeOp's size and RangeFunctor's start + i * delta, in T
        "f32-tenth": lambda tf: tf.range(0.0, 1.0, 0.1),
        "f32-third": lambda tf: tf.range(0.2, 2.0, 0.3),
        "f32-neg-tenth": lambda tf: tf.range(1.0, 0.0, -0.1),
        "f64-tenth": lambda tf: tf.range(0.0, 1.0, 0.1, dtype=tf.float64),
        "f16-tenth": lambda tf: tf.range(0.0, 1.0, 0.1, dtype=tf.float16),
        "f32-size-edge": lambda tf: tf.range(0.0, 0.7, 0.1),
        "dtype-mismatch": lambda tf: tf.range(tf.constant(1), tf.constant(4, tf.int64)),
    }
    for k, g in specs.items():
        c[k] = ((lambda tf, g=g: g(tf), []), False)
    c["inputs"] = ((lambda tf, s, l, d: tf.range(s, l, d), [I(7), I(-3), I(-3)]), False)
    c["inputs-f"] = ((lambda tf, s, l, d: tf.range(s, l, d), [np.array(1.0, "float32"), np.array(0.0, "float32"),
                                                            np.array(-0.25, "float32")]), False)
    c["inputs-delta0"] = ((lambda tf, s, l, d: tf.range(s, l, d), [I(0), I(3), I(0)]), False)
    return c


# -- cumulative ops, top_k ---------------------------------------------------------------------------------------
def _cumulative() -> dict[str, Any]:
    x = X("cu", (2, 3, 4))
    c: dict[str, Any] = {}
    for op in ("cumsum", "cumprod", "cumulative_logsumexp"):
        for k, (ax, ex, rv) in {"default": (None, False, False), "1": (1, False, False), "neg1": (-1, False, False),
                                "excl": (1, True, False), "rev": (-1, False, True), "excl-rev": (0, True, True),
                                "oob": (3, False, False), "neg-oob": (-4, False, False)}.items():
            def f(tf: Any, a: Any, ax: Any = ax, ex: bool = ex, rv: bool = rv, op: str = op) -> Any:
                kw = {} if ax is None else {"axis": ax}
                return getattr(tf.math, op)(a, exclusive=ex, reverse=rv, **kw)
            c[f"{op}-{k}"] = ((f, [x]), True)
        c[f"{op}-t64"] = ((lambda tf, a, op=op: getattr(tf.math, op)(a, tf.constant(-2, tf.int64)), [x]), True)
        c[f"{op}-zero"] = ((lambda tf, a, op=op: getattr(tf.math, op)(a, 1), [X("cuz", (2, 0))]), True)
    p = X("tk", (3, 5))
    p[0, 1] = p[0, 3]   # a tie
    for k, (kk, srt) in {"1": (1, True), "3": (3, True), "all": (5, True), "unsorted": (3, False), "zero": (0, True),
                         "over": (6, True)}.items():
        c[f"top-k-{k}"] = ((lambda tf, a, kk=kk, srt=srt: list(tf.math.top_k(a, kk, sorted=srt)), [p]), True)
    c["top-k-t64"] = ((lambda tf, a: list(tf.math.top_k(a, tf.constant(2, tf.int64))), [p]), True)
    c["top-k-1d"] = ((lambda tf, a: list(tf.math.top_k(a, 2)), [X("tk1", (6,))]), True)
    return c


# -- reductions ---------------------------------------------------------------------------------------------------
REDUCERS = ("reduce_sum", "reduce_max", "reduce_prod", "reduce_mean", "reduce_euclidean_norm")


def _reduce(op: str) -> Callable[[], dict[str, Any]]:
    def cases() -> dict[str, Any]:
        x = X(f"rd/{op}", (2, 3, 4))
        if op == "reduce_max":
            x[0, 1, 2] = x[0, 1, 3]   # a tie
        c: dict[str, Any] = {}
        for k, ax in {"none": None, "0": 0, "neg1": -1, "list": [0, 2], "rep": [1, 1], "rep-neg": [-1, 2],
                      "empty": [], "all": [0, 1, 2], "oob": [3], "neg-oob": -4, "tuple": (2, -3)}.items():
            c[k] = ((lambda tf, a, ax=ax: getattr(tf.math, op)(a, axis=ax), [x]), True)
        c["keep-rep"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=[-1, 2], keepdims=True), [x]), True)
        c["keep-none"] = ((lambda tf, a: getattr(tf.math, op)(a, keepdims=True), [x]), True)
        c["keep-empty"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=[], keepdims=True), [x]), True)
        for dt in ("int32", "int64"):
            c[f"t-{dt}"] = ((lambda tf, a, dt=dt: getattr(tf.math, op)(a, tf.constant([1, -1], dt)), [x]), True)
            c[f"input-{dt}"] = ((lambda tf, a, ax: getattr(tf.math, op)(a, ax, keepdims=True), [x, I([-3, 1], dt)]), True)
        c["input-rep"] = ((lambda tf, a, ax: getattr(tf.math, op)(a, ax), [x, I([2, -1])]), True)
        c["zero-size"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=1), [X("rdz", (2, 0, 3))]), True)
        c["zero-size-other"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=-1), [X("rdz2", (2, 0, 3))]), True)
        c["rank0"] = ((lambda tf, a: getattr(tf.math, op)(a), [X("rds", ())]), True)
        c["rank0-axis"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=[]), [X("rds2", ())]), True)
        c["rank0-axis0"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=0), [X("rds3", ())]), False)
        c["int-input"] = ((lambda tf, a: getattr(tf.math, op)(a, axis=[0, -1]), [X("rdi", (2, 3), "int64")]), False)
        return c
    return cases


def _reduce_bool() -> dict[str, Any]:
    b = X("rb", (2, 3), "bool")
    c: dict[str, Any] = {}
    for op in ("reduce_any", "reduce_all"):
        for k, ax in {"none": None, "neg1": -1, "rep": [1, -1], "empty": [], "oob": 2}.items():
            c[f"{op}-{k}"] = ((lambda tf, a, ax=ax, op=op: getattr(tf, op)(a, axis=ax), [b]), False)
        c[f"{op}-zero"] = ((lambda tf, a, op=op: getattr(tf, op)(a, axis=0), [np.zeros((0, 2), bool)]), False)
    for op in ("argmax", "argmin"):
        x = X("am", (3, 4))
        x[1, 0] = x[1, 2] = 2.0
        for k, ax in {"default": None, "1": 1, "neg1": -1, "oob": 2}.items():
            c[f"{op}-{k}"] = ((lambda tf, a, ax=ax, op=op: getattr(tf.math, op)(a, axis=ax), [x]), False)
        c[f"{op}-t64"] = ((lambda tf, a, op=op: getattr(tf.math, op)(a, tf.constant(-2, tf.int64),
                                                                     output_type=tf.int32), [x]), False)
        c[f"{op}-zero"] = ((lambda tf, a, op=op: getattr(tf.math, op)(a, 1), [X("amz", (2, 0))]), False)
    return c


FAMILIES: dict[str, Callable[[], dict[str, Any]]] = {
    "q-squeeze": _squeeze, "q-expand": _expand, "q-transpose": _transpose, "q-reshape": _reshape, "q-tile": _tile,
    "q-slice": _slice, "q-strided": _strided, "q-getitem": _getitem, "q-concat": _concat, "q-stack": _stack,
    "q-split": _split, "q-gather": _gather, "q-gather-nd": _gather_nd, "q-scatter": _scatter, "q-one-hot": _one_hot,
    "q-reverse-roll": _reverse_roll, "q-pad": _pad, "q-bcast-mask-where": _broadcast_mask_where,
    "q-unique-sort": _unique_sort, "q-range": _range, "q-reduce-bool-arg": _reduce_bool, "q-cumulative": _cumulative,
}
FAMILIES.update({f"q-{op.replace('_', '-')}": _reduce(op) for op in REDUCERS})

for _name, _cases in FAMILIES.items():
    program(_name, _cases)
