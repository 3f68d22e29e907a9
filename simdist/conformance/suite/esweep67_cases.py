"""keras.ops on empty tensors and with rank-changing arguments, crossed by rule (sixty-seventh session, esweep67;
test_esweep67.py), against TF 2.21 + Keras 3's recorded answers: dtypes, shapes, values by their bits, static shapes
of the traced call, refusals by exception class.

What is crossed (batch 91's survivors keras-max-empty-not-refused, keras-tile-repeats-padded-right,
keras-arange-stop-dtype-ignored, keras-multi-hot-reduces-last-index-axis: the suite fed keras.ops non-empty tensors
and shape arguments of the input's own rank):
- e-unary-<dtype>: every elementwise and whole-tensor function of keras.ops taking one tensor (math, activations,
  shape queries, scans, sorts, the *_like creators) on empty float32/int32/bool tensors of shapes (0,), (2, 0),
  (0, 3), eagerly and (float32) inside a tf.function;
- e-reduce: every reduction, scan, sort and statistic with an axis argument × those shapes × axis None, 0, -1,
  (0, 1) × keepdims; max/min/amax/amin with `initial`; top_k/in_top_k/searchsorted/digitize/bincount/histogram/
  take/isin/unique on empties; eager and traced (Keras's TF backend refuses max/min of an empty tensor eagerly only);
- e-join: concatenate/stack/hstack/vstack/dstack/append/split/array_split/unstack/meshgrid/products of empties;
- e-shape: tile and repeat with fewer and more repeats than dimensions, reshape with -1 and 0, broadcast_to of a
  lower rank, expand_dims/squeeze with negative and tuple axes, pad with widths per axis/one pair/a scalar,
  moveaxis/swapaxes/transpose/roll/rot90/flip with negative and tuple axes, on ranks 0-3 (and empties);
- e-onehot: one_hot and multi_hot of rank-0..3 indices × axis × num_classes × dtype, sparse too;
- e-create: arange/linspace/logspace/geomspace/eye/identity/tri/full/zeros/ones/empty with Python int, float, bool,
  NumPy scalar and tensor arguments and dtype None (the result dtype from start/stop/step);
- e-promote: the result dtype of join/select/pad/clip/where functions meeting int8 and float16, bool and int, Python
  floats with int tensors;
- e-layer: the same functions called in a keras.layers.Lambda and a custom layer under Model.predict.

`python -m simdist.conformance.suite.test_esweep67 --record` rewrites esweep67_reference.json.gz. OPEN lists
simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "esweep67_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-seventh session ... esweep67").
OPEN: dict[str, tuple[str, ...]] = {}

program = registrar(REF, OPEN)

EMPTY = ((0,), (2, 0), (0, 3))


def value(x: Any) -> Any:
    """One output: [dtype, shape, values] (floats as the hex of their value); a Python value by its type."""
    if x is None or isinstance(x, (bool, int, str)):
        return x
    if isinstance(x, float):
        return float(x).hex()
    if isinstance(x, (tuple, list)):
        return [value(v) for v in x]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "c":
        vals: Any = [[float(v.real).hex(), float(v.imag).hex()] for v in a.ravel()]
    elif a.dtype.kind == "f" or a.dtype.name == "bfloat16":
        vals = [float(v).hex() for v in a.astype(np.float64).ravel()]
    else:
        vals = a.ravel().tolist()
    return [a.dtype.name, list(a.shape), vals]


def _static(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_static(v) for v in x]
    shape = getattr(x, "shape", None)
    if shape is None:
        return type(x).__name__
    dims = None if shape.rank is None else shape.as_list()
    return [dims, getattr(getattr(x, "dtype", None), "name", None)]


def observe(tf: Any, f: Callable[..., Any], *arrays: Any, traced: bool = True) -> Any:
    """[eager result, traced result with its static shapes] (each the refusal's class if it raises)."""
    ts = [tf.constant(a) for a in arrays]
    obs: list[Any] = []
    try:
        obs.append(value(f(*ts)))
    except Exception as e:  # noqa: BLE001 - the class is the observation
        obs.append(f"raised {type(e).__name__}")
    if traced:
        try:
            fn = tf.function(f, autograph=False)
            out = fn(*ts)
            obs.append([value(out), _static(fn.get_concrete_function(*ts).structured_outputs)])
        except Exception as e:  # noqa: BLE001
            obs.append(f"raised {type(e).__name__}")
    return obs


def call(fn: Callable[[], Any]) -> Any:
    """fn()'s value, or its refusal's class."""
    try:
        return value(fn())
    except Exception as e:  # noqa: BLE001
        return f"raised {type(e).__name__}"


def _empty(shape: tuple[int, ...], dt: str) -> np.ndarray:
    return np.zeros(shape, dt)


def _sh(shape: tuple[int, ...]) -> str:
    return "x".join(map(str, shape)) if shape else "scalar"


def quarters(name: str, shape: tuple[int, ...], dt: str = "float32") -> np.ndarray:
    """Seeded multiples of 1/4 in [-3, 3] (exact in every float dtype)."""
    return (rng(name).randint(-12, 13, shape) / 4.0).astype(dt)


def ints(name: str, shape: tuple[int, ...], lo: int = 0, hi: int = 4, dt: str = "int32") -> np.ndarray:
    return rng(name).randint(lo, hi, shape).astype(dt)


# -- e-unary: one-tensor functions on empties --------------------------------------------------------------------------
UNARY = (
    "abs absolute angle arccos arccosh arcsin arcsinh arctan arctanh cbrt ceil conj conjugate copy cos cosh deg2rad "
    "exp exp2 expm1 fabs floor i0 imag isfinite isinf isnan isneginf isposinf isreal log log10 log1p log2 logical_not "
    "negative rad2deg real reciprocal round rsqrt sign signbit sin sinc sinh sqrt square tan tanh trunc erf erfinv "
    "bitwise_invert bitwise_not nan_to_num relu relu6 sigmoid softplus softsign silu swish gelu elu selu celu "
    "leaky_relu hard_sigmoid hard_silu hard_swish hard_tanh hard_shrink soft_shrink tanh_shrink log_sigmoid "
    "sparse_plus sparse_sigmoid squareplus glu softmax log_softmax sparsemax ravel ndim shape size transpose flip "
    "fliplr flipud diag diagflat diagonal trace tril triu nonzero argsort sort cumsum cumprod nancumsum nancumprod "
    "diff "
    "ptp zeros_like ones_like empty_like stop_gradient count_nonzero median var std sum prod mean max min amax amin "
    "argmax argmin all any logsumexp average norm nanmax nanmin nansum nanprod nanmean nanstd nanvar nanmedian "
    "nanargmax nanargmin unique vander trapezoid rot90 real view_as_real saturate_cast_f16 cast_f16 isclose_self "
    "convert_to_tensor normalize rms_normalization moments"
).split()


def _unary_fn(k: Any, name: str) -> Callable[[Any], Any]:
    if name == "saturate_cast_f16":
        return lambda x: k.saturate_cast(x, "float16")
    if name == "cast_f16":
        return lambda x: k.cast(x, "float16")
    if name == "isclose_self":
        return lambda x: k.isclose(x, x)
    if name == "rms_normalization":
        return lambda x: k.rms_normalization(x)
    f = getattr(k, name)
    return lambda x: f(x)


def _unary(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        k = tf.keras.ops
        out: dict[str, Any] = {}
        for name in dict.fromkeys(UNARY):
            for shape in EMPTY:
                out[f"{name} {_sh(shape)}"] = observe(tf, _unary_fn(k, name), _empty(shape, dt),
                                                      traced=dt == "float32" and shape == (2, 0))
        return out
    return run


for _dt in ("float32", "int32", "bool"):
    program(f"e-unary-{_dt}", _unary(_dt))


# -- e-reduce: axis arguments on empties -------------------------------------------------------------------------------
REDUCE_KEEPDIMS = ("sum prod mean max min amax amin all any std var median nanmax nanmin nansum nanprod nanmean nanstd "
                   "nanvar nanmedian logsumexp ptp count_nonzero argmax argmin norm").split()
AXIS_ONLY = ("cumsum cumprod nancumsum nancumprod sort argsort softmax log_softmax flip diff average nanargmax "
             "nanargmin "
             "sparsemax unique_axis").split()
QUANTILES = ("quantile", "percentile", "nanquantile", "nanpercentile")


#: the functions whose empty-input refusal Keras's TF backend makes eagerly only (an assert on the size) or whose
#: kernels refuse an empty axis: traced on every shape; the others traced on (2, 0) only (the module's cost)
_TRACED_ALWAYS = ("max", "min", "amax", "amin", "argmax", "argmin", "nanargmax", "nanargmin", "median", "quantile")


def _traced(name: str, shape: tuple[int, ...], keepdims: bool = False) -> bool:
    return not keepdims and (name in _TRACED_ALWAYS or shape == (2, 0))


def _reduce(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    for shape in EMPTY:
        x = _empty(shape, "float32")
        axes: list[Any] = [None, 0, -1] + ([(0, 1), (-1,)] if len(shape) == 2 else [(0,)])
        for ax in axes:
            for name in REDUCE_KEEPDIMS:
                if name in ("count_nonzero",):
                    f: Callable[..., Any] = lambda t, n=name, a=ax: getattr(k, n)(t, axis=a)
                    out[f"{name} {_sh(shape)} ax={ax}"] = observe(tf, f, x, traced=_traced(name, shape))
                    continue
                for kd in (False, True):
                    if name in ("argmax", "argmin") and isinstance(ax, tuple):
                        continue
                    f = lambda t, n=name, a=ax, kd=kd: getattr(k, n)(t, axis=a, keepdims=kd)
                    out[f"{name} {_sh(shape)} ax={ax} kd={kd}"] = observe(tf, f, x, traced=_traced(name, shape, kd))
            for name in QUANTILES:
                q = 0.5 if "quantile" in name else 50.0
                f = lambda t, n=name, a=ax, q=q: getattr(k, n)(t, q, axis=a)
                out[f"{name} {_sh(shape)} ax={ax}"] = observe(tf, f, x, traced=_traced(name, shape))
            if isinstance(ax, tuple):
                continue
            for name in AXIS_ONLY:
                if name == "unique_axis":
                    continue
                f = lambda t, n=name, a=ax: getattr(k, n)(t, axis=a)
                out[f"{name} {_sh(shape)} ax={ax}"] = observe(tf, f, x, traced=_traced(name, shape))
        for name in ("max", "min", "amax", "amin"):
            for ax in (None, 0, -1):
                f = lambda t, n=name, a=ax: getattr(k, n)(t, axis=a, initial=2.5)
                out[f"{name} initial {_sh(shape)} ax={ax}"] = observe(tf, f, x)
        out[f"top_k k=0 {_sh(shape)}"] = observe(tf, lambda t: k.top_k(t, 0), x)
        out[f"top_k k=1 {_sh(shape)}"] = observe(tf, lambda t: k.top_k(t, 1), x)
        out[f"top_k unsorted k=0 {_sh(shape)}"] = observe(tf, lambda t: k.top_k(t, 0, sorted=False), x)
        out[f"isin {_sh(shape)}"] = observe(tf, lambda t: k.isin(t, t), x)
        out[f"take None {_sh(shape)}"] = observe(tf, lambda t: k.take(t, np.zeros((0,), "int32")), x)
        out[f"take ax0 {_sh(shape)}"] = observe(tf, lambda t: k.take(t, np.zeros((0,), "int32"), axis=0), x)
        out[f"take_along_axis {_sh(shape)}"] = observe(tf, lambda t: k.take_along_axis(t, k.cast(t, "int32"), axis=0),
                                                       x)
        out[f"where one {_sh(shape)}"] = observe(tf, lambda t: k.where(t > 0), x, traced=False)
        out[f"clip {_sh(shape)}"] = observe(tf, lambda t: k.clip(t, 0, 1), x)
        out[f"argpartition {_sh(shape)}"] = observe(tf, lambda t: k.argpartition(t, 0), x)
        out[f"searchsorted vals {_sh(shape)}"] = call(
            lambda: k.searchsorted(tf.constant([1.0, 2.0, 3.0]), tf.constant(x.ravel())))
        out[f"logsumexp grad {_sh(shape)}"] = call(lambda: k.logsumexp(tf.constant(x), axis=0))
    e = tf.constant(np.zeros((0,), "float32"))
    out["searchsorted into empty"] = call(lambda: k.searchsorted(e, tf.constant([1.0, 2.0])))
    out["searchsorted empty both"] = call(lambda: k.searchsorted(e, e))
    out["digitize empty"] = call(lambda: k.digitize(e, [0.0, 1.0]))
    out["bincount empty"] = call(lambda: k.bincount(tf.constant(np.zeros((0,), "int32"))))
    out["bincount empty minlength"] = call(lambda: k.bincount(tf.constant(np.zeros((0,), "int32")), minlength=3))
    out["bincount empty weights"] = call(lambda: k.bincount(tf.constant(np.zeros((0,), "int32")), weights=e,
                                                            minlength=2))
    out["histogram empty"] = call(lambda: k.histogram(e, bins=3))
    out["histogram empty range"] = call(lambda: k.histogram(e, bins=3, range=(0.0, 1.0)))
    out["in_top_k empty"] = call(lambda: k.in_top_k(tf.constant(np.zeros((0,), "int32")),
                                                      tf.constant(np.zeros((0, 3), "float32")), 1))
    out["unique empty"] = call(lambda: k.unique(e))
    out["nonzero empty 2d"] = call(lambda: k.nonzero(tf.constant(np.zeros((2, 0), "float32"))))
    out["max empty int"] = call(lambda: k.max(tf.constant(np.zeros((0,), "int32"))))
    out["min empty int ax0"] = call(lambda: k.min(tf.constant(np.zeros((0, 3), "int32")), axis=0))
    out["max empty bool"] = call(lambda: k.max(tf.constant(np.zeros((0,), "bool"))))
    out["max empty f16"] = call(lambda: k.max(tf.constant(np.zeros((0,), "float16"))))
    out["amax empty int initial"] = call(lambda: k.amax(tf.constant(np.zeros((2, 0), "int32")), axis=1))
    out["sum empty int8"] = call(lambda: k.sum(tf.constant(np.zeros((0,), "int8"))))
    out["sum empty bool"] = call(lambda: k.sum(tf.constant(np.zeros((0, 3), "bool")), axis=0))
    out["prod empty uint8"] = call(lambda: k.prod(tf.constant(np.zeros((0,), "uint8"))))
    out["mean empty int"] = call(lambda: k.mean(tf.constant(np.zeros((0, 3), "int32")), axis=0))
    out["mean empty f16"] = call(lambda: k.mean(tf.constant(np.zeros((0,), "float16"))))
    out["var empty int"] = call(lambda: k.var(tf.constant(np.zeros((0,), "int32"))))
    out["cumsum empty bool"] = call(lambda: k.cumsum(tf.constant(np.zeros((0,), "bool"))))
    out["cumsum empty int8"] = call(lambda: k.cumsum(tf.constant(np.zeros((0, 2), "int8")), axis=1))
    out["argmax empty int"] = call(lambda: k.argmax(tf.constant(np.zeros((0,), "int32"))))
    out["average empty weights"] = call(lambda: k.average(e, weights=e))
    out["moments empty"] = call(lambda: k.moments(tf.constant(np.zeros((0, 3), "float32")), axes=[0]))
    out["logsumexp empty"] = call(lambda: k.logsumexp(e))
    out["median empty ax None int"] = call(lambda: k.median(tf.constant(np.zeros((0,), "int32"))))
    out["max traced empty"] = call(lambda: tf.function(lambda t: k.max(t), autograph=False)(e))
    out["max traced empty spec"] = call(lambda: tf.function(lambda t: k.max(t), autograph=False,
                                                            input_signature=[tf.TensorSpec([None], "float32")])(e))
    return out


program("e-reduce", _reduce)


# -- e-join: joins, splits and products of empties ---------------------------------------------------------------------
#: the joins' pairs (and, below, the split inputs) also traced (the module's cost)
_JOIN_TRACED = ("0x3+2x3", "2x0+2x0")


def _join(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    a0 = np.zeros((0,), "float32")
    a03 = np.zeros((0, 3), "float32")
    a20 = np.zeros((2, 0), "float32")
    b23 = quarters("join b23", (2, 3))
    b3 = quarters("join b3", (3,))
    pairs = {"0+0": (a0, a0), "0+3": (a0, b3), "0x3+2x3": (a03, b23), "2x0+2x3": (a20, b23), "0x3+0x3": (a03, a03),
             "2x0+2x0": (a20, a20)}
    for key, (x, y) in pairs.items():
        tr = key in _JOIN_TRACED
        for ax in (0, 1, -1, None):
            out[f"concatenate {key} ax={ax}"] = observe(tf, lambda s, t, a=ax: k.concatenate([s, t], axis=a), x, y,
                                                        traced=tr)
            out[f"append {key} ax={ax}"] = observe(tf, lambda s, t, a=ax: k.append(s, t, axis=a), x, y, traced=tr)
        for ax in (0, 1, -1):
            out[f"stack {key} ax={ax}"] = observe(tf, lambda s, t, a=ax: k.stack([s, t], axis=a), x, y, traced=tr)
        for name in ("hstack", "vstack", "dstack"):
            out[f"{name} {key}"] = observe(tf, lambda s, t, n=name: getattr(k, n)([s, t]), x, y, traced=tr)
        for name in ("outer", "inner", "dot", "matmul", "vdot", "kron", "cross", "add", "multiply", "maximum",
                     "equal", "logaddexp", "arctan2", "where_gt"):
            if name == "where_gt":
                f: Callable[..., Any] = lambda s, t: k.where(s > 0, s, t)
            else:
                f = lambda s, t, n=name: getattr(k, n)(s, t)
            out[f"{name} {key}"] = observe(tf, f, x, y, traced=tr)
        out[f"tensordot0 {key}"] = observe(tf, lambda s, t: k.tensordot(s, t, axes=0), x, y, traced=tr)
        if x.ndim == 2 and y.ndim == 2:
            out[f"einsum ij,kj {key}"] = observe(tf, lambda s, t: k.einsum("ij,kj->ik", s, t), x, y, traced=tr)
        # eagerly only: TF 2.21's traced meshgrid of an empty operand dies of SIGFPE (the process, not an error)
        out[f"meshgrid {key}"] = observe(tf, lambda s, t: k.meshgrid(k.ravel(s), k.ravel(t)), x, y, traced=False)
        out[f"meshgrid ij {key}"] = observe(tf, lambda s, t: k.meshgrid(k.ravel(s), k.ravel(t), indexing="ij"), x, y,
                                            traced=False)
    for sk, x in {"0": a0, "0x3": a03, "2x0": a20}.items():
        tr = sk == "2x0"
        for ax in (0, 1, -1):
            for n in (1, 2, [0], [0, 0], []):
                out[f"split {sk} {n} ax={ax}"] = observe(tf, lambda t, n=n, a=ax: k.split(t, n, axis=a), x, traced=tr)
            out[f"array_split {sk} 2 ax={ax}"] = observe(tf, lambda t, a=ax: k.array_split(t, 2, axis=a), x, traced=tr)
            out[f"array_split {sk} 3 ax={ax}"] = observe(tf, lambda t, a=ax: k.array_split(t, 3, axis=a), x, traced=tr)
            out[f"unstack {sk} ax={ax}"] = observe(tf, lambda t, a=ax: k.unstack(t, axis=a), x, traced=tr)
        for name in ("hsplit", "vsplit", "dsplit"):
            out[f"{name} {sk} 1"] = observe(tf, lambda t, n=name: getattr(k, n)(t, 1), x, traced=tr)
            out[f"{name} {sk} 2"] = observe(tf, lambda t, n=name: getattr(k, n)(t, 2), x, traced=tr)
        out[f"pad {sk}"] = observe(tf, lambda t: k.pad(t, 1), x, traced=tr)
        out[f"pad {sk} reflect"] = observe(tf, lambda t: k.pad(t, 1, mode="reflect"), x, traced=tr)
        out[f"pad {sk} symmetric"] = observe(tf, lambda t: k.pad(t, 0, mode="symmetric"), x, traced=tr)
        out[f"tile {sk} 2"] = observe(tf, lambda t: k.tile(t, 2), x, traced=tr)
        out[f"repeat {sk} 2"] = observe(tf, lambda t: k.repeat(t, 2), x, traced=tr)
        out[f"repeat {sk} 2 ax0"] = observe(tf, lambda t: k.repeat(t, 2, axis=0), x, traced=tr)
        out[f"reshape {sk} -1"] = observe(tf, lambda t: k.reshape(t, (-1,)), x, traced=tr)
        out[f"reshape {sk} 0,-1"] = observe(tf, lambda t: k.reshape(t, (0, -1)), x, traced=tr)
        out[f"reshape {sk} -1,5"] = observe(tf, lambda t: k.reshape(t, (-1, 5)), x, traced=tr)
        out[f"reshape {sk} 3,0"] = observe(tf, lambda t: k.reshape(t, (3, 0)), x, traced=tr)
        out[f"broadcast_to {sk} 4,..."] = observe(tf, lambda t: k.broadcast_to(t, (4,) + tuple(t.shape)), x, traced=tr)
        out[f"expand_dims {sk} -1"] = observe(tf, lambda t: k.expand_dims(t, -1), x, traced=tr)
        out[f"squeeze {sk}"] = observe(tf, lambda t: k.squeeze(t), x, traced=tr)
        out[f"squeeze {sk} ax0"] = observe(tf, lambda t: k.squeeze(t, 0), x, traced=tr)
        out[f"roll {sk}"] = observe(tf, lambda t: k.roll(t, 1), x, traced=tr)
        out[f"roll {sk} ax0"] = observe(tf, lambda t: k.roll(t, 1, axis=0), x, traced=tr)
        out[f"moveaxis {sk}"] = observe(tf, lambda t: k.moveaxis(t, 0, -1), x, traced=tr)
        out[f"slice {sk}"] = observe(tf, lambda t: k.slice(t, [0] * t.ndim, list(t.shape)), x, traced=tr)
        out[f"get_item {sk}"] = observe(tf, lambda t: t[0:1], x, traced=tr)
        out[f"scatter {sk}"] = call(lambda x=x: k.scatter(np.zeros((0, x.ndim), "int32"), np.zeros((0,), "float32"),
                                                          x.shape))
        out[f"segment_sum {sk}"] = observe(tf, lambda t: k.segment_sum(t, k.zeros((t.shape[0],), "int32"),
                                                                        num_segments=2), x)
        out[f"segment_max {sk}"] = observe(tf, lambda t: k.segment_max(t, k.zeros((t.shape[0],), "int32"),
                                                                        num_segments=2), x)
    return out


program("e-join", _join)


# -- e-shape: rank-changing shape arguments ----------------------------------------------------------------------------
def _shape(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    xs = {"scalar": quarters("shape s", ()), "3": quarters("shape 3", (3,)), "2x3": quarters("shape 2x3", (2, 3)),
          "2x1x3": quarters("shape 2x1x3", (2, 1, 3)), "0x2": np.zeros((0, 2), "float32")}
    for sk, x in xs.items():
        tr = sk in ("scalar", "0x2")   # (traced too: the module's cost)
        for reps in (2, (2,), (2, 3), (1, 2, 3), (2, 1, 1, 2), (), [0], (3, 0), np.int64(2),
                     np.array([2, 1], "int64")):
            out[f"tile {sk} {list(np.atleast_1d(reps))}"] = observe(tf, lambda t, r=reps: k.tile(t, r), x, traced=tr)
        out[f"tile {sk} tensor (2,3)"] = observe(tf, lambda t, r: k.tile(t, r), x, np.array([2, 3], "int32"), traced=tr)
        for reps in (2, [2], [1, 2, 3], [2, 1]):
            for ax in (None, 0, -1):
                out[f"repeat {sk} {reps} ax={ax}"] = observe(tf, lambda t, r=reps, a=ax: k.repeat(t, r, axis=a), x,
                                                             traced=tr)
        out[f"repeat {sk} tensor 2 ax=-1"] = observe(tf, lambda t, r: k.repeat(t, r, axis=-1), x, np.int32(2),
                                                     traced=tr)
        for sh in ((-1,), (6, -1), (-1, 1), (1, -1, 3), (3, 2), (0,), (0, -1), (1,), (), (-1, 4), (-1, -1),
                   (np.int64(3), -1)):
            out[f"reshape {sk} {[int(v) for v in sh]}"] = observe(tf, lambda t, s=sh: k.reshape(t, s), x, traced=tr)
        for sh in ((3,), (2, 3), (4, 2, 3), (1, 1, 1, 3), (2, 1), (0, 3), (3, 2, 1, 3), (), (4, 2, 1, 3)):
            out[f"broadcast_to {sk} {list(sh)}"] = observe(tf, lambda t, s=sh: k.broadcast_to(t, s), x, traced=tr)
        for ax in (0, -1, -2, 1, 3, -4, (0, 1), (0, -1), (-1, -2), (0, 3), (1, 1)):
            out[f"expand_dims {sk} {ax}"] = observe(tf, lambda t, a=ax: k.expand_dims(t, a), x, traced=tr)
        for ax in (None, 0, 1, -1, -2, (1,), (0, 1), (-2,), (1, -2)):
            out[f"squeeze {sk} {ax}"] = observe(tf, lambda t, a=ax: k.squeeze(t, a), x, traced=tr)
        for pw in (1, (1,), (1, 2), ((1, 2),), ((1, 2), (0, 1)), [[0, 0], [1, 1], [2, 0]], ((1, 1),) * 4,
                   np.int64(1), np.array([[1, 0], [0, 2]], "int64")):
            key = np.asarray(pw).tolist()
            out[f"pad {sk} {key}"] = observe(tf, lambda t, p=pw: k.pad(t, p), x, traced=tr)
            out[f"pad {sk} {key} value"] = observe(tf, lambda t, p=pw: k.pad(t, p, constant_values=1.5), x, traced=tr)
        for mode in ("reflect", "symmetric", "edge", "wrap"):
            out[f"pad {sk} 1 {mode}"] = observe(tf, lambda t, m=mode: k.pad(t, 1, mode=m), x, traced=tr)
        for src, dst in ((0, -1), (-1, 0), (-2, -1), ((0, 1), (1, 0)), ((0, -1), (-1, 0)), (0, 0), (3, 0), ((0,), 1)):
            out[f"moveaxis {sk} {src} {dst}"] = observe(tf, lambda t, s=src, d=dst: k.moveaxis(t, s, d), x, traced=tr)
        for a, b in ((0, -1), (-1, -2), (0, 0), (-3, 1), (2, 0)):
            out[f"swapaxes {sk} {a} {b}"] = observe(tf, lambda t, a=a, b=b: k.swapaxes(t, a, b), x, traced=tr)
        for perm in (None, (1, 0), (-1, 0), (0, 2, 1), (2, 0, -2), (0,)):
            out[f"transpose {sk} {perm}"] = observe(tf, lambda t, p=perm: k.transpose(t, p), x, traced=tr)
        for sh, ax in ((1, None), (-1, 0), (1, -1), ((1, 2), (0, 1)), ((1, -1), (-1, -2)), (2, (0, 1)), (7, None)):
            out[f"roll {sk} {sh} {ax}"] = observe(tf, lambda t, s=sh, a=ax: k.roll(t, s, axis=a), x, traced=tr)
        for kk, ax in ((1, (0, 1)), (-1, (0, 1)), (2, (1, 2)), (1, (-1, -2)), (5, (0, 1)), (1, (0, 0))):
            out[f"rot90 {sk} {kk} {ax}"] = observe(tf, lambda t, q=kk, a=ax: k.rot90(t, q, axes=a), x, traced=tr)
        for ax in (None, 0, -1, (0, 1), (-1, 0)):
            out[f"flip {sk} {ax}"] = observe(tf, lambda t, a=ax: k.flip(t, a), x, traced=tr)
        for n in (1, 2, 0, 3):
            for ax in (0, -1):
                out[f"diff {sk} n={n} ax={ax}"] = observe(tf, lambda t, n=n, a=ax: k.diff(t, n, axis=a), x, traced=tr)
        out[f"ravel {sk}"] = observe(tf, lambda t: k.ravel(t), x, traced=tr)
        out[f"diagonal {sk} -1"] = observe(tf, lambda t: k.diagonal(t, offset=-1, axis1=-1, axis2=0), x, traced=tr)
        out[f"trace {sk} ax"] = observe(tf, lambda t: k.trace(t, axis1=-1, axis2=0), x, traced=tr)
        out[f"atleast diag {sk}"] = observe(tf, lambda t: k.diag(t, 1), x, traced=tr)
        out[f"tril {sk} -1"] = observe(tf, lambda t: k.tril(t, -1), x, traced=tr)
        out[f"triu {sk} 2"] = observe(tf, lambda t: k.triu(t, 2), x, traced=tr)
        out[f"unfold-like take_along {sk}"] = observe(tf, lambda t: k.take_along_axis(
            t, k.zeros((1,) * max(t.ndim, 1), "int32"), axis=-1 if t.ndim else None), x)
        out[f"take {sk} 2d idx ax=-1"] = observe(tf, lambda t: k.take(t, np.array([[0, -1], [1, 0]], "int32"),
                                                                         axis=-1), x)
        out[f"take {sk} 2d idx None"] = observe(tf, lambda t: k.take(t, np.array([[0, -1], [1, 0]], "int32")), x,
                                                traced=tr)
    # repeat's counts along a later axis: only a static first dimension of 0 refuses them (repeat_with_axis's
    # set_shape), not an empty later one; a first dimension the graph does not know passes
    for shape in ((2, 0, 2), (0, 2, 2), (2, 2, 0), (0, 2)):
        z = np.zeros(shape, "float32")
        out[f"repeat {_sh(shape)} [2, 1] ax=-1"] = observe(tf, lambda t: k.repeat(t, [2, 1], axis=-1), z) \
            if shape[-1] == 2 else observe(tf, lambda t: k.repeat(t, [2, 1], axis=1), z)
    # tf.pad's paddings as a Python list holding tensors (keras.ops.eye pads so): the list's own conversion first
    # eagerly (Pack refuses two dtypes), the int32-preferring one (casting each tensor) when Tpaddings refuses it
    x23 = tf.constant(xs["2x3"])
    lists: dict[str, Callable[[], Any]] = {
        "f32 1.5,0": lambda: [[tf.constant(1.5), 0], [0, 0]],
        "f32 -0.5,f64 1.5": lambda: [[tf.constant(-0.5), 1], [tf.constant(1.5, "float64"), 0]],
        "i64,i32": lambda: [[tf.constant(1, "int64"), tf.constant(1)], [0, 0]],
        "i32,i64": lambda: [[tf.constant(1), tf.constant(1, "int64")], [0, 0]],
        "i8,0": lambda: [[tf.constant(1, "int8"), 0], [0, 0]],
        "u8,i32": lambda: [[tf.constant(1, "uint8"), tf.constant(1)], [0, 0]],
        "i64,1": lambda: [[tf.constant(1, "int64"), 1], [0, 0]],
    }
    for lk, pl in lists.items():
        out[f"tf.pad list {lk}"] = call(lambda pl=pl: tf.pad(x23, pl()))
        out[f"tf.pad list {lk} reflect"] = call(lambda pl=pl: tf.pad(x23, pl(), mode="REFLECT"))
        out[f"tf.pad list {lk} traced"] = call(lambda pl=pl: tf.function(lambda t: tf.pad(t, pl()),
                                                                           autograph=False)(x23))
    out["repeat 0x2 [2, 1] ax=-1 spec None"] = call(lambda: tf.function(
        lambda t: k.repeat(t, [2, 1], axis=-1), autograph=False,
        input_signature=[tf.TensorSpec([None, 2], "float32")])(tf.constant(np.zeros((0, 2), "float32"))))
    return out


program("e-shape", _shape)


# -- e-onehot: one_hot / multi_hot by index rank and axis -------------------------------------------------------------
def _onehot(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    idx = {"scalar": np.int32(2), "3": ints("oh 3", (3,)), "2x3": ints("oh 2x3", (2, 3)),
           "2x3x2": ints("oh 2x3x2", (2, 3, 2)), "0": np.zeros((0,), "int32"), "2x0": np.zeros((2, 0), "int32"),
           "neg": np.array([-1, 0, 5, 3], "int32"), "int64 2x2": ints("oh 2x2", (2, 2), dt="int64")}
    for ik, x in idx.items():
        tr = ik in ("scalar", "2x3x2", "2x0")   # (traced too: the module's cost)
        for ax in (-1, 0, 1, 2, -2):
            for nc in (4, 1):
                out[f"one_hot {ik} ax={ax} n={nc}"] = observe(tf, lambda t, a=ax, n=nc: k.one_hot(t, n, axis=a), x,
                                                              traced=tr)
                out[f"multi_hot {ik} ax={ax} n={nc}"] = observe(tf, lambda t, a=ax, n=nc: k.multi_hot(t, n, axis=a),
                                                                x, traced=tr)
        for dt in ("int32", "bool", "float16", None):
            out[f"one_hot {ik} dtype={dt}"] = observe(tf, lambda t, d=dt: k.one_hot(t, 3, dtype=d), x, traced=tr)
            out[f"multi_hot {ik} dtype={dt}"] = observe(tf, lambda t, d=dt: k.multi_hot(t, 3, dtype=d), x, traced=tr)
        out[f"nn.one_hot {ik}"] = observe(tf, lambda t: k.nn.one_hot(t, 4, axis=0), x, traced=tr)
        out[f"nn.multi_hot {ik}"] = observe(tf, lambda t: k.nn.multi_hot(t, 4, axis=0), x, traced=tr)
        out[f"one_hot {ik} sparse"] = call(lambda x=x: tf.sparse.to_dense(k.one_hot(tf.constant(x), 3, sparse=True)))
        out[f"multi_hot {ik} sparse"] = call(lambda x=x: tf.sparse.to_dense(
            k.multi_hot(tf.constant(x), 3, sparse=True)))
    out["one_hot float idx"] = call(lambda: k.one_hot(tf.constant([0.0, 2.0]), 3))
    out["multi_hot float idx"] = call(lambda: k.multi_hot(tf.constant([[0.0, 2.0]]), 3))
    out["one_hot list"] = call(lambda: k.one_hot([0, 2], 3))
    out["multi_hot list"] = call(lambda: k.multi_hot([[0, 2], [1, 1]], 3))
    out["one_hot tensor num_classes"] = call(lambda: k.one_hot(tf.constant([0, 2]), np.int64(3)))
    out["multi_hot rank3 ax=1"] = call(lambda: k.multi_hot(tf.constant(idx["2x3x2"]), 4, axis=1))
    return out


program("e-onehot", _onehot)


# -- e-create: creation functions by argument kind ---------------------------------------------------------------------
def _create(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    kinds: dict[str, Callable[[], Any]] = {
        "int 5": lambda: 5, "float 5.0": lambda: 5.0, "float 2.5": lambda: 2.5, "bool True": lambda: True,
        "np.int64 5": lambda: np.int64(5), "np.int32 5": lambda: np.int32(5), "np.float64 2.5": lambda: np.float64(2.5),
        "np.float32 2.5": lambda: np.float32(2.5), "np.float16 2.5": lambda: np.float16(2.5),
        "t int32 5": lambda: tf.constant(5), "t int64 5": lambda: tf.constant(5, "int64"),
        "t float32 2.5": lambda: tf.constant(2.5), "t float64 2.5": lambda: tf.constant(2.5, "float64"),
        "t int8 5": lambda: tf.constant(5, "int8"), "t float16 2.5": lambda: tf.constant(2.5, "float16"),
        "np.uint8 5": lambda: np.uint8(5), "int 0": lambda: 0, "int -3": lambda: -3,
    }
    for kn, v in kinds.items():
        out[f"arange({kn})"] = call(lambda v=v: k.arange(v()))
        out[f"arange(0, {kn})"] = call(lambda v=v: k.arange(0, v()))
        out[f"arange(1.0, {kn})"] = call(lambda v=v: k.arange(1.0, v()))
        out[f"arange(1, {kn}, 2)"] = call(lambda v=v: k.arange(1, v(), 2))
        out[f"arange(1, 9, {kn})"] = call(lambda v=v: k.arange(1, 9, v()))
        out[f"arange({kn}, 9)"] = call(lambda v=v: k.arange(v(), 9))
        out[f"arange(0, {kn}, dtype=int8)"] = call(lambda v=v: k.arange(0, v(), dtype="int8"))
        out[f"arange(0, {kn}, dtype=float64)"] = call(lambda v=v: k.arange(0, v(), dtype="float64"))
        out[f"linspace(0, {kn}, 4)"] = call(lambda v=v: k.linspace(0, v(), 4))
        out[f"linspace({kn}, 9, 3) no endpoint"] = call(lambda v=v: k.linspace(v(), 9, 3, endpoint=False))
        out[f"linspace(0, {kn}, 3, int)"] = call(lambda v=v: k.linspace(0, v(), 3, dtype="int32"))
        out[f"linspace(0, 1, {kn})"] = call(lambda v=v: k.linspace(0, 1, v()))
        out[f"logspace(0, {kn}, 3)"] = call(lambda v=v: k.logspace(0, v(), 3))
        out[f"geomspace(1, {kn}, 3)"] = call(lambda v=v: k.geomspace(1, v(), 3))
        out[f"eye({kn})"] = call(lambda v=v: k.eye(v()))
        out[f"eye(3, {kn}, k=1)"] = call(lambda v=v: k.eye(3, v(), k=1))
        out[f"eye(3, 4, k={kn})"] = call(lambda v=v: k.eye(3, 4, k=v()))
        out[f"identity({kn})"] = call(lambda v=v: k.identity(v()))
        out[f"tri({kn})"] = call(lambda v=v: k.tri(v()))
        out[f"tri(3, 4, k={kn})"] = call(lambda v=v: k.tri(3, 4, k=v()))
        out[f"full((2, 2), {kn})"] = call(lambda v=v: k.full((2, 2), v()))
        out[f"full(({kn},), 1)"] = call(lambda v=v: k.full((v(),), 1))
        out[f"full_like(int32, {kn})"] = call(lambda v=v: k.full_like(tf.constant([1, 2]), v()))
        out[f"full_like(f16, {kn}, dtype=None)"] = call(lambda v=v: k.full_like(tf.constant([1.0], "float16"), v()))
        out[f"zeros(({kn}, 2))"] = call(lambda v=v: k.zeros((v(), 2)))
        out[f"ones({kn})"] = call(lambda v=v: k.ones(v()))
        out[f"empty(({kn},))"] = call(lambda v=v: k.shape(k.empty((v(),))))
    for dt in (None, "int32", "int64", "float16", "float64", "bool", "uint8", "bfloat16"):
        out[f"arange(5, dtype={dt})"] = call(lambda d=dt: k.arange(5, dtype=d))
        out[f"arange(0.5, 3, 0.5, dtype={dt})"] = call(lambda d=dt: k.arange(0.5, 3, 0.5, dtype=d))
        out[f"linspace(0, 4, 5, dtype={dt})"] = call(lambda d=dt: k.linspace(0, 4, 5, dtype=d))
        out[f"eye(2, dtype={dt})"] = call(lambda d=dt: k.eye(2, dtype=d))
        out[f"full(2, 3, dtype={dt})"] = call(lambda d=dt: k.full(2, 3, dtype=d))
        out[f"zeros(2, dtype={dt})"] = call(lambda d=dt: k.zeros(2, dtype=d))
        out[f"tri(2, dtype={dt})"] = call(lambda d=dt: k.tri(2, dtype=d))
    for args in ((0, 5, -1), (5, 0, -1), (5, 0), (0, 0), (0, 1, 0.3), (1, 0, -0.25), (-2.5, 2.5), (0, 3, 1.5),
                 (3, 0, -1.5)):
        out[f"arange{args}"] = call(lambda a=args: k.arange(*a))
    for args in ((0, 1, 0), (0, 1, 1), (2, 2, 3), (0, 1, 5, False), (1.0, 0.0, 4)):
        out[f"linspace{args}"] = call(lambda a=args: k.linspace(*a))
    out["linspace retstep"] = call(lambda: k.linspace(0, 3, 4, retstep=True))
    out["linspace vector"] = call(lambda: k.linspace(tf.constant([0.0, 1.0]), tf.constant([1.0, 3.0]), 3))
    out["linspace vector axis"] = call(lambda: k.linspace(tf.constant([0.0, 1.0]), 4.0, 3, axis=-1))
    out["logspace base 2"] = call(lambda: k.logspace(0, 3, 4, base=2))
    out["arange traced"] = call(lambda: tf.function(lambda s: k.arange(0, s), autograph=False)(tf.constant(2.5)))
    out["arange traced int"] = call(lambda: tf.function(lambda s: k.arange(s), autograph=False)(tf.constant(4)))
    out["eye traced"] = call(lambda: tf.function(lambda: k.eye(3, 2, k=-1), autograph=False)())
    out["full traced tensor fill"] = call(lambda: tf.function(lambda v: k.full((2,), v), autograph=False)(
        tf.constant(1.5, "float64")))
    return out


program("e-create", _create)


# -- e-promote: result dtypes of joins, selects and pads meeting mixed dtypes -----------------------------------------
def _promote(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    out: dict[str, Any] = {}
    t = {"int8": np.array([1, -2], "int8"), "float16": np.array([0.5, 1.5], "float16"),
         "bool": np.array([True, False]), "int32": np.array([3, 4], "int32"), "uint8": np.array([5, 6], "uint8"),
         "float32": np.array([0.25, -1.0], "float32"), "int64": np.array([7, 8], "int64"),
         "bfloat16": np.array([0.5, 2.0], "float32"), "float64": np.array([0.1, 0.2], "float64")}
    for a, b in (("int8", "float16"), ("bool", "int32"), ("bool", "float16"), ("uint8", "int8"), ("int64", "float32"),
                 ("int32", "float16"), ("uint8", "bfloat16"), ("int8", "int8"), ("float16", "bfloat16"),
                 ("int64", "float64")):
        def mk_(n: str) -> Any:
            return tf.cast(tf.constant(t[n]), "bfloat16") if n == "bfloat16" else tf.constant(t[n])
        x, y = mk_(a), mk_(b)
        key = f"{a}+{b}"
        out[f"concatenate {key}"] = call(lambda: k.concatenate([x, y]))
        out[f"stack {key}"] = call(lambda: k.stack([x, y]))
        out[f"append {key}"] = call(lambda: k.append(x, y))
        out[f"hstack {key}"] = call(lambda: k.hstack([x, y]))
        out[f"where {key}"] = call(lambda: k.where(tf.constant([True, False]), x, y))
        out[f"select {key}"] = call(lambda: k.select([tf.constant([True, False])], [x], y))
        out[f"clip {key}"] = call(lambda: k.clip(x, y, y))
        out[f"add {key}"] = call(lambda: k.add(x, y))
        out[f"divide {key}"] = call(lambda: k.divide(x, y))
        out[f"outer {key}"] = call(lambda: k.outer(x, y))
        out[f"take {key}"] = call(lambda: k.take(x, tf.constant([1, 0])))
        out[f"isin {key}"] = call(lambda: k.isin(x, y))
    for n in ("int8", "int32", "uint8", "bool", "float16", "int64"):
        x = tf.constant(t[n])
        for pv in (1.5, 2, True, np.float32(1.5), np.int64(2), np.float64(0.1)):
            pk = f"{type(pv).__name__} {pv}"
            out[f"{n} + {pk}"] = call(lambda: k.add(x, pv))
            out[f"{pk} * {n}"] = call(lambda: k.multiply(pv, x))
            out[f"where {n} {pk}"] = call(lambda: k.where(tf.constant([True, False]), x, pv))
            out[f"where {pk} {n}"] = call(lambda: k.where(tf.constant([True, False]), pv, x))
            out[f"clip {n} 0 {pk}"] = call(lambda: k.clip(x, 0, pv))
            out[f"pad {n} {pk}"] = call(lambda: k.pad(x, 1, constant_values=pv))
            out[f"full_like {n} {pk}"] = call(lambda: k.full_like(x, pv))
            out[f"maximum {n} {pk}"] = call(lambda: k.maximum(x, pv))
            out[f"power {n} {pk}"] = call(lambda: k.power(x, pv))
            out[f"nan_to_num {n} {pk}"] = call(lambda: k.nan_to_num(x, nan=pv))
        out[f"mean {n}"] = call(lambda: k.mean(x))
        out[f"sum {n}"] = call(lambda: k.sum(x))
        out[f"cumsum {n}"] = call(lambda: k.cumsum(x))
        out[f"average {n}"] = call(lambda: k.average(x))
        out[f"var {n}"] = call(lambda: k.var(x))
        out[f"median {n}"] = call(lambda: k.median(x))
        out[f"sqrt {n}"] = call(lambda: k.sqrt(x))
        out[f"true_divide {n} 2"] = call(lambda: k.true_divide(x, 2))
        out[f"floor_divide {n} 2"] = call(lambda: k.floor_divide(x, 2))
        out[f"round {n}"] = call(lambda: k.round(x))
        out[f"abs {n}"] = call(lambda: k.abs(x))
        out[f"ones_like {n}"] = call(lambda: k.ones_like(x))
        out[f"one_hot dtype {n}"] = call(lambda: k.one_hot(tf.constant([0, 1]), 2, dtype=n))
        out[f"arange stop {n}"] = call(lambda: k.arange(tf.constant(t[n])[0]))
    return out


program("e-promote", _promote)


# -- e-layer: the same functions as a layer calls them -----------------------------------------------------------------
def _layer(tf: Any, mk: Any) -> Any:
    k = tf.keras.ops
    keras = tf.keras
    out: dict[str, Any] = {}

    class Shaper(keras.layers.Layer):
        def call(self, x: Any) -> Any:
            a = k.tile(x, (2,))
            b = k.repeat(x, 2, axis=-1)
            c = k.expand_dims(x, (0, -1))
            d = k.pad(x, ((1, 0),) * 2)
            e = k.multi_hot(k.cast(k.abs(x) * 2, "int32"), 8)
            f = k.max(x, axis=-1, keepdims=True) + k.sum(x[:, :0], axis=-1, keepdims=True)
            g = k.arange(0, 2.5) + k.zeros_like(x[:1, :1])
            return a, b, c, d, e, f, g

    x = quarters("layer x", (4, 3))
    inp = keras.Input((3,))
    m = keras.Model(inp, Shaper()(inp))
    out["custom predict"] = call(lambda: m.predict(x, batch_size=2, verbose=0))
    out["custom call"] = call(lambda: m(x))
    fns: dict[str, Callable[[Any], Any]] = {
        "max empty": lambda t: k.max(t[:, :0], axis=-1),
        "sum empty": lambda t: k.sum(t[:, :0], axis=-1),
        "tile 2": lambda t: k.tile(t, 2),
        "tile 1,2,2": lambda t: k.tile(t, (1, 2, 2)),
        "repeat 2 ax1": lambda t: k.repeat(t, 2, axis=1),
        "broadcast 2,1,3": lambda t: k.broadcast_to(k.expand_dims(t, 1), (k.shape(t)[0], 2, 3)),
        "squeeze tuple": lambda t: k.squeeze(k.expand_dims(t, (1, -1)), (1, -1)),
        "reshape -1,1": lambda t: k.reshape(t, (-1, 1)),
        "moveaxis neg": lambda t: k.moveaxis(k.expand_dims(t, -1), -1, 1),
        "swapaxes neg": lambda t: k.swapaxes(t, -1, -2),
        "multi_hot rank3": lambda t: k.multi_hot(k.cast(k.abs(k.reshape(t, (-1, 3, 1))), "int32"), 4),
        "one_hot ax1": lambda t: k.one_hot(k.cast(k.abs(t), "int32"), 4, axis=1),
        "arange stop float": lambda t: t[:, :1] + k.arange(0, 2.5),
        "pad pair": lambda t: k.pad(t, (1, 2)),
        "sort empty": lambda t: k.sort(t[:, :0]),
        "top_k 0": lambda t: k.top_k(t, 0)[0],
        "cumsum empty": lambda t: k.cumsum(t[:0], axis=0),
        "mean empty": lambda t: k.mean(t[:, :0], axis=-1),
        "argmax empty": lambda t: k.argmax(t[:, :0], axis=-1),
    }
    for name, fn in fns.items():
        def predict(fn: Callable[[Any], Any] = fn) -> Any:
            i = keras.Input((3,))
            mm = keras.Model(i, keras.layers.Lambda(fn)(i))
            return mm.predict(x, batch_size=4, verbose=0)
        out[f"lambda {name}"] = call(predict)
    return out


program("e-layer", _layer)
