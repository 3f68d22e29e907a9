"""Grappler's rewrites under tf.config.optimizer's options and the array ops' rarer options, crossed by rule
(sixty-fourth session, covsweep64; test_covsweep64.py).

What is crossed (docs/suite-coverage.md: the suite never ran about 500 lines each of simdist/runtime/ops/grappler.py
and array.py; every rule's "optimizer off" branch among them, as no suite program set an optimizer option):
- cv-gr-<dtype>: every value-changing rewrite simdist models, written as users write it, in one tf.function per
  option set — none, constant_folding off, arithmetic_optimization off, both off, disable_meta_optimizer,
  remapping off, dependency_optimization off, common_subgraph_elimination off — × float32, float64, float16,
  bfloat16, complex64 and int32 (the forms each dtype takes) over value classes whose bits tell a rewrite from the
  kernel (subnormals a kernel flushes and a forwarding keeps, ±0, ±inf, NaNs with payloads, extremes);
- cv-ar-<what>: the array ops' rarer arguments: dtypes, ranks, zero sizes, negative axes, out_type, name and error
  paths (each refusal by its exception class), eagerly and traced.

Values by their raw bits (NaN payloads included), refusals by exception class. `python -m
simdist.conformance.suite.test_covsweep64 --record` rewrites covsweep64_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "covsweep64_reference.json.gz")

#: cv-gk-: the remapper's fusions (swish, MatMul + BiasAdd + activation), oneDNN's kernels on the recording host.
REF = RecordedPrograms(PATH, host_dependent=("cv-gk-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-fourth session ... covsweep64"; /work/wt/covsweep64_logs/open.json: tf.json against sim.json):
#: (cv-gr-complex64's 66 complex64 cases, division/reciprocal/x/sqrt(y)/log(1+x)/exp(x)-1/pow -1/add_n NaN parts and
#: forms, fixed by fix64c: complex_div.py's x86 NaN operand order, Grappler's complex Log1p/Expm1, Mul(Rsqrt(z), x)
#: and SimplifyAggregation owned by arithmetic_optimization.)
#: (1) cv-ar-shapes `zeros of shape[:0:-1]` ([None, 2] spec): TF 2.21's Subshape of `[:0:-1]` is empty, so tf.zeros'
#:     static shape at trace is () while its value has shape [2]; simdist keeps the value's rank (a static shape of
#:     another rank than the value's is not modelled).
OPEN: dict[str, tuple[str, ...]] = {
    'cv-ar-shapes': (
        'zeros of shape[:0:-1]',
    ),
}


program = registrar(REF, OPEN)   # register a program: its result without the OPEN cases


def raw(a: Any) -> Any:
    """A value as JSON: a tensor's dtype, shape and its elements' raw bits (NaN payloads included); nests mapped."""
    if isinstance(a, (list, tuple)):
        return [raw(x) for x in a]
    if isinstance(a, dict):
        return {str(k): raw(v) for k, v in sorted(a.items())}
    if a is None or isinstance(a, (bool, int, float, str)):
        return a
    n = np.asarray(a.numpy() if hasattr(a, "numpy") else a)
    name = n.dtype.name
    if n.dtype.kind in "fc" or name == "bfloat16":
        flat = n.reshape(-1)
        if n.dtype.kind == "c":
            flat = flat.view(np.float32 if n.dtype.itemsize == 8 else np.float64)
        vals = flat.view(f"u{flat.dtype.itemsize}").tolist()
    elif n.dtype.kind in "OSU":
        vals = [x.decode() if isinstance(x, bytes) else str(x) for x in n.reshape(-1).tolist()]
    else:
        vals = n.reshape(-1).tolist()
    return [name, list(n.shape), vals]


def err(fn: Callable[[], Any]) -> Any:
    """fn's result as `raw`, or "raised <class>" (the class is the observation)."""
    try:
        return raw(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _nan(dt: str, payload: int, neg: bool = False) -> Any:
    import ml_dtypes
    if dt == "float64":
        return np.array([0x7FF8000000000000 | payload | (1 << 63 if neg else 0)], np.uint64).view(np.float64)[0]
    if dt in ("float32", "complex64"):
        return np.array([0x7FC00000 | payload | (1 << 31 if neg else 0)], np.uint32).view(np.float32)[0]
    if dt == "float16":
        return np.array([0x7E00 | payload | (1 << 15 if neg else 0)], np.uint16).view(np.float16)[0]
    return np.array([0x7FC0 | payload | (1 << 15 if neg else 0)], np.uint16).view(ml_dtypes.bfloat16)[0]


def values(dt: str, which: int = 0) -> np.ndarray:
    """Twelve values of dtype `dt` over its classes (±0, ones, subnormals, ±inf, a NaN with a payload, extremes; ints:
    their extremes and neighbours); `which` 1 the same classes in another order, another NaN payload."""
    import ml_dtypes
    if dt in ("int32", "int64"):
        info = np.iinfo(dt)
        out = np.array([0, 1, 3, 7, info.max, info.max - 1, info.min, info.min + 1, -1, -5, 100, info.max // 3], dt)
    elif dt == "complex64":
        re = np.array([0.0, -0.0, 1.0, 2.5, 5e-42, np.inf, 3.0, -1.5, 1e38, 0.5, 2.0, 4.0], np.float32)
        im = np.array([0.0, 1.0, -0.0, 0.5, 1.0, 0.0, -3e-40, 2.0, 1e38, 0.25, 1.0, -2.0], np.float32)
        out = (re + 1j * im).astype(np.complex64)
    else:
        npdt = ml_dtypes.bfloat16 if dt == "bfloat16" else np.dtype(dt)
        sub = {"float16": 3e-8, "bfloat16": 1e-39, "float32": 5e-42, "float64": 5e-320}[dt]
        big = {"float16": 60000.0, "bfloat16": 3e38, "float32": 3e38, "float64": 1.5e308}[dt]
        v = [0.0, -0.0, 1.0, -2.5, sub, -3 * sub, np.inf, -np.inf, 0.0, big, 3.0, 0.5]
        out = np.array(v, dtype=np.float64).astype(npdt)
        out[8] = _nan(dt, 0x15, neg=True)
    if which:
        out = out[[3, 11, 0, 6, 2, 8, 1, 9, 4, 10, 5, 7]].copy()
        if dt not in ("int32", "int64", "complex64"):
            out[1] = _nan(dt, 0x2A)
    return out


# -- 1. Grappler's rewrites under each option set ---------------------------------------------------------------------
OPTION_SETS: dict[str, dict[str, Any]] = {
    "default": {}, "no-cf": {"constant_folding": False}, "no-ao": {"arithmetic_optimization": False},
    "no-cf-ao": {"constant_folding": False, "arithmetic_optimization": False},
    "no-meta": {"disable_meta_optimizer": True}, "no-remap": {"remapping": False},
    "no-dep": {"dependency_optimization": False}, "no-cse": {"common_subgraph_elimination": False},
}


def with_options(tf: Any, options: dict[str, Any], fn: Callable[[], Any]) -> Any:
    """fn() with tf.config.optimizer's experimental options set, then unset (None leaves a toggle unset)."""
    o = tf.config.optimizer
    if options:
        o.set_experimental_options(options)
    try:
        return fn()
    finally:
        if options:
            o.set_experimental_options({k: None for k in options})


def _float_forms(tf: Any, dt: str) -> dict[str, Callable[[Any, Any], Any]]:
    """The rewrites of float (and, where `dt` is complex64, complex) operands: name -> f(x, y)."""
    c = lambda v: tf.constant(v, dt)  # noqa: E731
    one = lambda x: tf.ones(x.shape, x.dtype)  # noqa: E731
    zero = lambda x: tf.zeros(x.shape, x.dtype)  # noqa: E731
    cplx = dt == "complex64"
    f: dict[str, Callable[[Any, Any], Any]] = {
        "x/3": lambda x, y: x / c(3.0), "x/-3e38": lambda x, y: x / c(-3e38 if dt != "float16" else -6e4),
        "ones/y": lambda x, y: one(y) / y, "x/y": lambda x, y: x / y,
        "x/sqrt(y)": lambda x, y: x / tf.sqrt(y), "x/sqrt(y) shared": lambda x, y: (lambda r: (x / r, r))(tf.sqrt(y)),
        "xdivy c": lambda x, y: tf.math.xdivy(x, c(-1.5)), "xdivy ones": lambda x, y: tf.math.xdivy(x, c(1.0)),
        "pow 1": lambda x, y: x ** c(1.0), "pow 2": lambda x, y: x ** c(2.0), "pow 3": lambda x, y: x ** c(3.0),
        "pow 0.5": lambda x, y: x ** c(0.5), "pow -0.5": lambda x, y: x ** c(-0.5),
        "pow -1": lambda x, y: x ** c(-1.0), "pow 0": lambda x, y: x ** c(0.0),
        "log(1+x)": lambda x, y: tf.math.log(c(1.0) + x), "exp(x)-1": lambda x, y: tf.exp(x) - c(1.0),
        "x*ones": lambda x, y: x * one(x), "ones*x": lambda x, y: one(x) * x, "x+zeros": lambda x, y: x + zero(x),
        "zeros+x": lambda x, y: zero(x) + x, "x-zeros": lambda x, y: x - zero(x), "zeros-x": lambda x, y: zero(x) - x,
        "x/ones": lambda x, y: x / one(x), "x*ones bcast": lambda x, y: tf.reshape(x, [12, 1]) * tf.ones([1, 3], dt),
        "mul_no_nan ones": lambda x, y: tf.math.multiply_no_nan(x, one(x)),
        "mul_no_nan ones left": lambda x, y: tf.math.multiply_no_nan(one(x), x),
        "neg neg": lambda x, y: -(-x), "neg neg + y": lambda x, y: -(-x) + y,
        "recip recip": lambda x, y: tf.math.reciprocal(tf.math.reciprocal(x)),
        "a+(-b)": lambda x, y: x + (-y), "(-a)+b": lambda x, y: (-x) + y, "a-(-b)": lambda x, y: x - (-y),
        "sq diff": lambda x, y: tf.square(x - y), "sq diff fetched": lambda x, y: (lambda d: (tf.square(d), d))(x - y),
        "add ops": lambda x, y: x + y + x + y, "add_n repeat": lambda x, y: tf.add_n([x, x, x]),
        "add_n mixed": lambda x, y: tf.add_n([x, y, x, c([2.0] * 12)]),
        "push add": lambda x, y: (x + c(2.0)) + c(3.0), "push mul": lambda x, y: (x * c(2.0)) * c(3.0),
        "push sub": lambda x, y: c(3.0) - (x - c(2.0)), "hoist": lambda x, y: x * y + x * c(3.0),
        "hoist div": lambda x, y: y / x + c(2.0) / x, "mul group": lambda x, y: (x * y) * (x * c(0.5)),
        "stack repeated": lambda x, y: tf.stack([x, x, x]), "reshape self": lambda x, y: tf.reshape(x, [12]),
        "reshape twice": lambda x, y: tf.reshape(tf.reshape(x, [3, 4]), [12]),
        "squeeze": lambda x, y: tf.squeeze(tf.reshape(x, [1, 12, 1])),
        "sum size-1 axis": lambda x, y: tf.reduce_sum(tf.reshape(x, [12, 1]), axis=1),
        "sum no axes": lambda x, y: tf.reduce_sum(x, axis=[]),
        "prod size-1 axis": lambda x, y: tf.reduce_prod(tf.reshape(x, [1, 12]), axis=0),
        "mean size-1 axis": lambda x, y: tf.reduce_mean(tf.reshape(x, [12, 1]), axis=-1),
        "ones_like prod": lambda x, y: tf.ones_like(x * y), "identity chain": lambda x, y: tf.identity(tf.identity(x)),
        "softmax const": lambda x, y: tf.nn.softmax(c([1.0, 2.0, -3.0, 0.5])) if not cplx else x,
    }
    if not cplx:
        f.update({
            "max exp": lambda x, y: tf.reduce_max(tf.exp(tf.reshape(x, [3, 4])), axis=1),
            "min neg": lambda x, y: tf.reduce_min(-tf.reshape(x, [3, 4]), axis=0),
            "argmax sigmoid": lambda x, y: tf.argmax(tf.sigmoid(tf.reshape(x, [3, 4])), axis=1),
            "argmin tanh": lambda x, y: tf.argmin(tf.tanh(tf.reshape(x, [3, 4])), axis=1),
            "not less": lambda x, y: tf.logical_not(x < y), "not equal": lambda x, y: tf.logical_not(x == y),
            "max reduce sum1": lambda x, y: tf.reduce_max(tf.reshape(x, [12, 1]), axis=1),
            "min reduce sum1": lambda x, y: tf.reduce_min(tf.reshape(x, [1, 12]), axis=0),
        })
    else:
        f["conj conj"] = lambda x, y: tf.math.conj(tf.math.conj(x))
    return f


def _int_forms(tf: Any, dt: str) -> dict[str, Callable[[Any, Any], Any]]:
    """The rewrites that take integers."""
    c = lambda v: tf.constant(v, dt)  # noqa: E731
    return {
        "pow 2": lambda x, y: x ** c(2), "pow 3": lambda x, y: x ** c(3), "pow 1": lambda x, y: x ** c(1),
        "neg neg": lambda x, y: -(-x), "not not": lambda x, y: tf.logical_not(tf.logical_not(x < y)),
        "invert invert": lambda x, y: tf.bitwise.invert(tf.bitwise.invert(x)),
        "sq diff": lambda x, y: tf.square(x - y), "mul self": lambda x, y: (lambda d: d * d)(x - y),
        "add ops": lambda x, y: x + y + x + y, "add_n repeat": lambda x, y: tf.add_n([x, x, x]),
        "push add": lambda x, y: (x + c(2)) + c(3), "push mul": lambda x, y: (x * c(2)) * c(3),
        "a+(-b)": lambda x, y: x + (-y), "a-(-b)": lambda x, y: x - (-y), "hoist": lambda x, y: x * y + x * c(3),
        "x*ones": lambda x, y: x * tf.ones_like(x), "x+zeros": lambda x, y: x + tf.zeros_like(x),
        "zeros-x": lambda x, y: tf.zeros_like(x) - x, "stack repeated": lambda x, y: tf.stack([x, x]),
        "max neg": lambda x, y: tf.reduce_max(-tf.reshape(x, [3, 4]), axis=1),
        "sum size-1 axis": lambda x, y: tf.reduce_sum(tf.reshape(x, [12, 1]), axis=1),
    }


def _grappler_options(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        forms = _int_forms(tf, dt) if dt.startswith("int") else _float_forms(tf, dt)
        x, y = values(dt), values(dt, 1)
        out: dict[str, Any] = {}
        for oname, opts in OPTION_SETS.items():
            def call() -> Any:
                # (each form reads its own two placeholders: no form's ops are another's, so CSE cannot merge them)
                args = {k: (tf.constant(x), tf.constant(y)) for k in forms}
                return tf.function(lambda a: {k: fn(*a[k]) for k, fn in forms.items()})(args)
            got = with_options(tf, opts, lambda: err(call))
            if isinstance(got, dict):
                out.update({f"{k} {oname}": v for k, v in got.items()})
            else:
                out[oname] = got
        out.update({f"{k} eager": err(lambda: fn(tf.constant(x), tf.constant(y))) for k, fn in forms.items()})
        return out
    return run


for _dt in ("float32", "float64", "float16", "bfloat16", "complex64", "int32"):
    program(f"cv-gr-{_dt}", _grappler_options(_dt))


# -- 2. The array ops' rarer arguments ---------------------------------------------------------------------------------
def _both(tf: Any, cases: dict[str, Callable[[], Any]], traced: bool = True) -> dict[str, Any]:
    """Each case eagerly and (with `traced`) inside a fresh tf.function of no arguments (constants: the shape
    functions' own checks)."""
    out: dict[str, Any] = {}
    for name, fn in cases.items():
        out[f"{name} eager"] = err(fn)
        if traced:
            out[f"{name} traced"] = err(lambda: tf.function(fn)())
    return out


def _spec(tf: Any, dims: list[Any], dt: Any, fn: Callable[[Any], Any], arg: Any) -> Any:
    """fn traced on a TensorSpec of `dims` (None: unknown; dims None: unknown rank) and called on arg: its result,
    and its static shape at trace."""
    seen: list[Any] = []

    def f(x: Any) -> Any:
        r = fn(x)
        seen.append([None if t is None else (t.shape.as_list() if t.shape.rank is not None else "unknown rank")
                     for t in (r if isinstance(r, (list, tuple)) else [r])])
        return r
    got = tf.function(f, input_signature=[tf.TensorSpec(dims, dt)])(arg)
    return {"value": got, "static": seen[0]}


def _ar_range(tf: Any, mk: Any) -> Any:
    """tf.range over its dtypes, directions, vector arguments, tensor arguments and refusals."""
    cases: dict[str, Callable[[], Any]] = {}
    for dt in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "bfloat16",
               "float32", "float64", "bool", "complex64"):
        cases[f"range 5 {dt}"] = lambda dt=dt: tf.range(5, dtype=dt)
        cases[f"range 1..7 by 2 {dt}"] = lambda dt=dt: tf.range(1, 7, 2, dtype=dt)
    cases.update({
        "down": lambda: tf.range(5, -3, -2), "down float": lambda: tf.range(2.5, -1.0, -0.75),
        "delta 0": lambda: tf.range(0, 5, 0), "wrong way": lambda: tf.range(5, 0, 1),
        "wrong way down": lambda: tf.range(0, 5, -1), "nan delta": lambda: tf.range(0.0, 1.0, float("nan")),
        "inf limit": lambda: tf.range(0.0, float("inf")), "empty": lambda: tf.range(3, 3),
        "float half step": lambda: tf.range(0.1, 1.0, 0.1), "float64 mixed": lambda: tf.range(np.float64(0.1), 1.0, 0.3),
        "tensor start": lambda: tf.range(tf.constant(2, tf.int64), 9, 3),
        "tensor limit float": lambda: tf.range(0.5, tf.constant(3.0, tf.float64)),
        "vector start": lambda: tf.range(tf.constant([1]), 5), "vector limit 2": lambda: tf.range(0, tf.constant([1, 2])),
        "int dtype float arg": lambda: tf.range(0.5, 3, dtype=tf.int32),
        "subnormal delta": lambda: tf.range(0.0, 1.0, 1e-45), "uint -1": lambda: tf.range(3, dtype=tf.uint16),
        "string arg": lambda: tf.range("a"), "float16 const": lambda: tf.range(tf.constant(0.0, tf.float16), 2.0),
        "range name": lambda: tf.range(4, name="myrange"),
    })
    return _both(tf, cases)


program("cv-ar-range", _ar_range)


def _ar_fill(tf: Any, mk: Any) -> Any:
    """fill/zeros/ones/ones_like/zeros_like over dims forms, dtypes and refusals."""
    cases: dict[str, Callable[[], Any]] = {
        "fill int64 dims": lambda: tf.fill(tf.constant([2, 3], tf.int64), 1.5),
        "fill neg dim": lambda: tf.fill([2, -1], 0.0), "fill vector value": lambda: tf.fill([2], [1.0, 2.0]),
        "fill float dims": lambda: tf.fill(tf.constant([2.0]), 1), "fill zero size": lambda: tf.fill([0, 3], 7),
        "fill scalar dims": lambda: tf.fill(tf.constant(3), 1), "fill string": lambda: tf.fill([2], "ab"),
        "fill bool": lambda: tf.fill([1, 2], True), "fill dims rank 2": lambda: tf.fill([[2, 2]], 1.0),
        "fill np dims": lambda: tf.fill(np.array([2, 1], np.int64), np.float16(2.5)),
        "fill tensor value": lambda: tf.fill([2, 2], tf.constant(3, tf.uint8)),
        "zeros bool": lambda: tf.zeros([2], tf.bool), "zeros string": lambda: tf.zeros([2], tf.string),
        "zeros complex": lambda: tf.zeros([1, 2], tf.complex128), "zeros tensor shape": lambda: tf.zeros(tf.constant([2, 1])),
        "zeros int64 shape": lambda: tf.zeros(tf.constant([3], tf.int64), tf.int8),
        "zeros neg": lambda: tf.zeros([-2]), "zeros float shape": lambda: tf.zeros([2.0]),
        "zeros scalar": lambda: tf.zeros([]), "zeros big int shape": lambda: tf.zeros([0, 2**40]),
        "ones bool": lambda: tf.ones([2], tf.bool), "ones string": lambda: tf.ones([2], tf.string),
        "ones tuple": lambda: tf.ones((2, 0, 1), tf.uint32), "ones neg": lambda: tf.ones([3, -1]),
        "ones shape tensor": lambda: tf.ones(tf.shape(tf.zeros([2, 3]))),
        "ones_like dtype": lambda: tf.ones_like(tf.constant([1.5, -2.0]), dtype=tf.int32),
        "ones_like bool": lambda: tf.ones_like(tf.constant([True, False])),
        "ones_like string": lambda: tf.ones_like(tf.constant(["a"])),
        "ones_like complex": lambda: tf.ones_like(tf.constant([1 + 2j], tf.complex64)),
        "ones_like list": lambda: tf.ones_like([[1, 2], [3, 4]]),
        "ones_like uint8 to half": lambda: tf.ones_like(tf.constant([3], tf.uint8), dtype=tf.float16),
        "zeros_like dtype": lambda: tf.zeros_like(tf.constant([1.5, -2.0]), dtype=tf.bool),
        "zeros_like string": lambda: tf.zeros_like(tf.constant(["a", "b"])),
        "zeros_like nan": lambda: tf.zeros_like(tf.constant([np.nan, -0.0], tf.float64)),
        "zeros_like np": lambda: tf.zeros_like(np.array([[1, 2]], np.int16)),
    }
    out = _both(tf, cases)
    out["fill unknown dims"] = err(lambda: _spec(tf, [None], tf.int32, lambda d: tf.fill(d, 2.0),
                                                 tf.constant([2, 2])))
    out["zeros unknown rank"] = err(lambda: _spec(tf, None, tf.int32, lambda d: tf.zeros(d), tf.constant([1, 3])))
    out["ones_like unknown"] = err(lambda: _spec(tf, [None, 2], tf.float32, tf.ones_like, tf.zeros([3, 2])))
    return out


program("cv-ar-fill", _ar_fill)


def _ar_shapes(tf: Any, mk: Any) -> Any:
    """reshape, expand_dims, squeeze, transpose, broadcast_to, shape/size/rank: arguments at their edges and
    refusals, eager, traced on constants and traced on specs of unknown dimensions."""
    x = lambda: tf.reshape(tf.range(24.0), [2, 3, 4])  # noqa: E731
    z = lambda: tf.zeros([0, 3])  # noqa: E731
    c = lambda: tf.constant([[1 + 2j, 3 - 1j]], tf.complex64)  # noqa: E731
    cases: dict[str, Callable[[], Any]] = {
        "reshape -1": lambda: tf.reshape(x(), [-1, 4]), "reshape two -1": lambda: tf.reshape(x(), [-1, -1]),
        "reshape bad": lambda: tf.reshape(x(), [5, -1]), "reshape zero -1": lambda: tf.reshape(z(), [-1, 0]),
        "reshape zero -1 b": lambda: tf.reshape(z(), [3, -1]), "reshape int64": lambda: tf.reshape(x(), tf.constant([4, 6], tf.int64)),
        "reshape scalar": lambda: tf.reshape(tf.constant(5.0), [1, 1]), "reshape to scalar": lambda: tf.reshape(tf.constant([5.0]), []),
        "reshape -2": lambda: tf.reshape(x(), [-2, 12]), "reshape float shape": lambda: tf.reshape(x(), [2.0, 12.0]),
        "reshape shape rank 2": lambda: tf.reshape(x(), [[24]]), "reshape mismatch": lambda: tf.reshape(x(), [5, 5]),
        "expand -4": lambda: tf.expand_dims(x(), -4), "expand 3": lambda: tf.expand_dims(x(), 3),
        "expand 4": lambda: tf.expand_dims(x(), 4), "expand -5": lambda: tf.expand_dims(x(), -5),
        "expand tensor axis": lambda: tf.expand_dims(x(), tf.constant(1, tf.int64)),
        "expand list axis": lambda: tf.expand_dims(x(), [1]), "expand 2-list axis": lambda: tf.expand_dims(x(), [0, 1]),
        "expand float axis": lambda: tf.expand_dims(x(), 1.0),
        "squeeze all": lambda: tf.squeeze(tf.zeros([1, 2, 1, 1])), "squeeze -1": lambda: tf.squeeze(tf.zeros([1, 2, 1]), -1),
        "squeeze list": lambda: tf.squeeze(tf.zeros([1, 2, 1]), [0, -1]), "squeeze tuple": lambda: tf.squeeze(tf.zeros([1, 2, 1]), (2,)),
        "squeeze not 1": lambda: tf.squeeze(tf.zeros([1, 2, 1]), [1]), "squeeze out of range": lambda: tf.squeeze(tf.zeros([1, 2]), [2]),
        "squeeze -3": lambda: tf.squeeze(tf.zeros([1, 2]), -3), "squeeze repeated": lambda: tf.squeeze(tf.zeros([1, 2]), [0, 0]),
        "squeeze scalar": lambda: tf.squeeze(tf.constant(3.0)), "squeeze zero size": lambda: tf.squeeze(tf.zeros([1, 0, 1])),
        "transpose default": lambda: tf.transpose(x()), "transpose neg perm": lambda: tf.transpose(x(), [-1, 0, 1]),
        "transpose dup perm": lambda: tf.transpose(x(), [0, 0, 1]), "transpose short perm": lambda: tf.transpose(x(), [1, 0]),
        "transpose perm 3": lambda: tf.transpose(x(), [0, 1, 3]), "transpose int64 perm": lambda: tf.transpose(x(), tf.constant([2, 0, 1], tf.int64)),
        "transpose conj complex": lambda: tf.transpose(c(), conjugate=True), "transpose conj real": lambda: tf.transpose(x(), conjugate=True),
        "transpose scalar": lambda: tf.transpose(tf.constant(2.0)), "transpose vector": lambda: tf.transpose(tf.constant([1, 2])),
        "transpose float perm": lambda: tf.transpose(x(), [0.0, 2.0, 1.0]),
        "conj transpose": lambda: tf.linalg.adjoint(c()),
        "broadcast ok": lambda: tf.broadcast_to(tf.constant([1, 2]), [3, 2]),
        "broadcast int64": lambda: tf.broadcast_to(tf.constant([1.5]), tf.constant([2, 2], tf.int64)),
        "broadcast bad": lambda: tf.broadcast_to(tf.constant([1, 2]), [3, 3]),
        "broadcast lower rank": lambda: tf.broadcast_to(tf.zeros([2, 3]), [3]),
        "broadcast neg": lambda: tf.broadcast_to(tf.constant([1]), [-1, 2]),
        "broadcast zero": lambda: tf.broadcast_to(tf.constant([1]), [0, 4]),
        "broadcast float shape": lambda: tf.broadcast_to(tf.constant([1]), [2.0]),
        "broadcast string": lambda: tf.broadcast_to(tf.constant(["s"]), [2, 1]),
        "broadcast scalar to []": lambda: tf.broadcast_to(tf.constant(3), []),
        "shape int64": lambda: tf.shape(x(), out_type=tf.int64), "shape float": lambda: tf.shape(x(), out_type=tf.float32),
        "size int64": lambda: tf.size(x(), out_type=tf.int64), "size float": lambda: tf.size(x(), out_type=tf.float32),
        "size zero": lambda: tf.size(z()), "rank scalar": lambda: tf.rank(tf.constant(1)),
        "shape_n": lambda: tf.shape_n([x(), z()]), "shape_n int64": lambda: tf.shape_n([x()], out_type=tf.int64),
        "shape named": lambda: tf.shape(x(), name="s"), "size named": lambda: tf.size(z(), name="n"),
    }
    out = _both(tf, cases)
    specs = {
        "reshape unknown -1": ([None, 4], tf.float32, lambda t: tf.reshape(t, [-1, 2]), tf.zeros([3, 4])),
        "reshape unknown not dividing": ([None, 3], tf.float32, lambda t: tf.reshape(t, [-1, 2]), tf.zeros([2, 3])),
        "reshape unknown rank": (None, tf.float32, lambda t: tf.reshape(t, [2, -1]), tf.zeros([2, 3])),
        "reshape to tensor shape": ([None, 2], tf.float32, lambda t: tf.reshape(t, tf.shape(t)[::-1]), tf.zeros([3, 2])),
        "squeeze unknown": ([None, 1, None], tf.float32, lambda t: tf.squeeze(t), tf.zeros([1, 1, 2])),
        "squeeze unknown axis": ([None, 2], tf.float32, lambda t: tf.squeeze(t, [0]), tf.zeros([1, 2])),
        "squeeze unknown axis bad": ([None, 2], tf.float32, lambda t: tf.squeeze(t, [0]), tf.zeros([3, 2])),
        "expand unknown rank": (None, tf.float32, lambda t: tf.expand_dims(t, -1), tf.zeros([2, 3])),
        "transpose unknown": ([None, 3, None], tf.float32, lambda t: tf.transpose(t, [2, 0, 1]), tf.zeros([1, 3, 2])),
        "transpose unknown rank": (None, tf.float32, lambda t: tf.transpose(t), tf.zeros([1, 3, 2])),
        "broadcast unknown": ([None, 1], tf.float32, lambda t: tf.broadcast_to(t, [2, 3]), tf.zeros([2, 1])),
        "broadcast to unknown": ([None], tf.int32, lambda s: tf.broadcast_to(tf.constant([1.0, 2.0]), s),
                                 tf.constant([3, 2])),
        "shape unknown": ([None, 2], tf.float32, lambda t: (tf.shape(t), tf.size(t), tf.rank(t)), tf.zeros([3, 2])),
        "shape unknown rank": (None, tf.float32, lambda t: (tf.shape(t, out_type=tf.int64), tf.rank(t)),
                               tf.zeros([3, 2, 1])),
    }
    # (a shape read from a slice of tf.shape: PartialStridedSliceShape's masks and InferenceContext::Subshape's
    # checks, a slice of static length 0 the scalar shape)
    for key, sl in {"::-1": slice(None, None, -1), "1::-1": slice(1, None, -1), ":0:-1": slice(None, 0, -1),
                    "2:0:-1": slice(2, 0, -1), "2:1": slice(2, 1), "-5:": slice(-5, None), "1:": slice(1, None),
                    ":-3": slice(None, -3), "::2": slice(None, None, 2), "-1:": slice(-1, None)}.items():
        specs[f"reshape to shape[{key}]"] = ([None, 2], tf.float32, lambda t, sl=sl: tf.reshape(t, tf.shape(t)[sl]),
                                             tf.zeros([3, 2]))
        specs[f"zeros of shape[{key}]"] = ([None, 2], tf.float32, lambda t, sl=sl: tf.zeros(tf.shape(t)[sl]),
                                           tf.zeros([3, 2]))
    specs.update({
        "fill of shape[::-1]": ([None, 2], tf.float32, lambda t: tf.fill(tf.shape(t)[::-1], 1.0), tf.zeros([3, 2])),
        "zeros of concat shape[::-1]": ([None, 2], tf.float32,
                                        lambda t: tf.zeros(tf.concat([tf.shape(t)[::-1], [1]], 0)), tf.zeros([3, 2])),
        "zeros of shape[::-1][::-1]": ([None, 2], tf.float32, lambda t: tf.zeros(tf.shape(t)[::-1][::-1]),
                                       tf.zeros([3, 2])),
        "shape[::-1] alone": ([None, 2], tf.float32, lambda t: tf.shape(t)[::-1], tf.zeros([3, 2])),
        "reshape to reverse(shape)": ([None, 2], tf.float32, lambda t: tf.reshape(t, tf.reverse(tf.shape(t), [0])),
                                      tf.zeros([3, 2])),
    })
    for name, (dims, dt, fn, arg) in specs.items():
        out[name] = err(lambda: _spec(tf, dims, dt, fn, arg))
    return out


program("cv-ar-shapes", _ar_shapes)


def _ar_variable_slices(tf: Any, mk: Any) -> Any:
    """A tf.function returning `variable[key]` of a variable it creates (TF's singleton rule: the second trace
    creates it again, ValueError) and of a kept one (the output is a new tensor: no `assign`)."""
    p = lambda: tf.reshape(tf.range(24.0), [2, 3, 4])  # noqa: E731
    out: dict[str, Any] = {}
    for key, fn in {"v[1]": lambda v: v[1], "v[None]": lambda v: v[None], "v[:, 0]": lambda v: v[:, 0],
                    "v[..., 0]": lambda v: v[..., 0], "v[None, :, 0, ...]": lambda v: v[None, :, 0, ...],
                    "v[1] * 2": lambda v: v[1] * 2.0, "dict of v[1]": lambda v: {"a": v[1]},
                    "v * 1": lambda v: v * 1.0, "gather(v)": lambda v: tf.gather(v, [0]),
                    "read_value()[1]": lambda v: v.read_value()[1]}.items():
        out[f"made {key}"] = err(lambda: tf.function(lambda: fn(tf.Variable(p())))())
    kept: list[Any] = []

    def single() -> Any:
        if not kept:
            kept.append(tf.Variable(p()))
        return kept[0][1]
    f = tf.function(single)
    out["singleton first"] = err(f)
    out["singleton again"] = err(f)
    out["output assign"] = err(lambda: tf.function(lambda: kept[0][0])().assign(tf.zeros([3, 4])))
    out["eager slice assign"] = err(lambda: kept[0][0].assign(tf.ones([3, 4])))
    out["after"] = err(lambda: kept[0].read_value())
    return out


program("cv-ar-variable-slices", _ar_variable_slices)


def _ar_join(tf: Any, mk: Any) -> Any:
    """concat, stack, unstack, split: axes, dtypes, sizes and refusals, eager, traced, and on unknown specs."""
    a = lambda: tf.reshape(tf.range(6, dtype=tf.int64), [2, 3])  # noqa: E731
    f = lambda: tf.reshape(tf.range(12.0), [3, 4])  # noqa: E731
    cases: dict[str, Callable[[], Any]] = {
        "concat -1": lambda: tf.concat([a(), a()], -1), "concat -3": lambda: tf.concat([a(), a()], -3),
        "concat 2": lambda: tf.concat([a(), a()], 2), "concat dtypes": lambda: tf.concat([a(), tf.zeros([2, 3])], 0),
        "concat ranks": lambda: tf.concat([a(), tf.zeros([3], tf.int64)], 0), "concat one": lambda: tf.concat([a()], 1),
        "concat zero parts": lambda: tf.concat([tf.zeros([0, 3], tf.int64), a(), tf.zeros([0, 3], tf.int64)], 0),
        "concat shapes": lambda: tf.concat([a(), tf.zeros([2, 2], tf.int64)], 0),
        "concat tensor axis": lambda: tf.concat([a(), a()], tf.constant(1, tf.int64)),
        "concat python": lambda: tf.concat([[1, 2], [3]], 0), "concat empty": lambda: tf.concat([], 0),
        "concat scalars": lambda: tf.concat([tf.constant(1), tf.constant(2)], 0),
        "concat strings": lambda: tf.concat([tf.constant(["a"]), tf.constant(["b", "c"])], 0),
        "stack -3": lambda: tf.stack([a(), a()], -3), "stack 2": lambda: tf.stack([a(), a()], 2),
        "stack 3": lambda: tf.stack([a(), a()], 3), "stack -4": lambda: tf.stack([a(), a()], -4),
        "stack empty": lambda: tf.stack([]), "stack mismatched": lambda: tf.stack([a(), tf.zeros([3, 2], tf.int64)]),
        "stack python": lambda: tf.stack([1.5, 2, 3]), "stack mixed": lambda: tf.stack([tf.constant(1.0), 2.0]),
        "stack numpy": lambda: tf.stack([np.array([1, 2], np.int16), np.array([3, 4], np.int16)], 1),
        "stack dtypes": lambda: tf.stack([tf.constant(1.0), tf.constant(1, tf.int32)]),
        "stack one": lambda: tf.stack([a()], 1), "stack nested": lambda: tf.stack([[1, 2], [3, 4]]),
        "stack zero size": lambda: tf.stack([tf.zeros([0, 2]), tf.zeros([0, 2])], 1),
        "parallel_stack": lambda: tf.parallel_stack([a(), a()]),
        "unstack 0": lambda: tf.unstack(f()), "unstack -1": lambda: tf.unstack(f(), axis=-1),
        "unstack num": lambda: tf.unstack(f(), num=3), "unstack num bad": lambda: tf.unstack(f(), num=4),
        "unstack axis 2": lambda: tf.unstack(f(), axis=2), "unstack scalar": lambda: tf.unstack(tf.constant(1.0)),
        "unstack zero": lambda: tf.unstack(tf.zeros([0, 2])), "unstack -3": lambda: tf.unstack(f(), axis=-3),
        "unstack tensor axis": lambda: tf.unstack(f(), axis=tf.constant(1)),
        "split 2": lambda: tf.split(f(), 2, axis=1), "split 3 bad": lambda: tf.split(f(), 3, axis=1),
        "split sizes": lambda: tf.split(f(), [1, 3], 1), "split sizes -1": lambda: tf.split(f(), [1, -1], 1),
        "split two -1": lambda: tf.split(f(), [-1, -1], 1), "split sizes sum": lambda: tf.split(f(), [1, 2], 1),
        "split sizes over": lambda: tf.split(f(), [3, 2], 1), "split tensor sizes": lambda: tf.split(f(), tf.constant([2, 1]), 0),
        "split tensor sizes num": lambda: tf.split(f(), tf.constant([2, 1]), 0, num=2),
        "split axis -1": lambda: tf.split(f(), 4, -1), "split axis 2": lambda: tf.split(f(), 2, 2),
        "split 0": lambda: tf.split(f(), 0, 1), "split 1": lambda: tf.split(f(), 1, 0),
        "split zero sizes": lambda: tf.split(f(), [0, 4, 0], 1), "split neg size": lambda: tf.split(f(), [-2, 6], 1),
        "split int64 sizes": lambda: tf.split(f(), np.array([1, 2], np.int64), 0),
        "split tensor axis": lambda: tf.split(f(), 2, tf.constant(0)),
        "split scalar tensor num": lambda: tf.split(f(), tf.constant(2), 1),
        "split float num": lambda: tf.split(f(), 2.0, 1),
    }
    out = _both(tf, cases)
    specs = {
        "concat unknown": ([None, 3], tf.float32, lambda t: tf.concat([t, tf.zeros([2, 3])], 0), tf.ones([1, 3])),
        "concat unknown axis mismatch": ([None, 3], tf.float32, lambda t: tf.concat([t, tf.zeros([2, 2])], 1),
                                         tf.ones([2, 3])),
        "concat unknown rank": (None, tf.float32, lambda t: tf.concat([t, t], 0), tf.ones([1, 3])),
        "stack unknown": ([None], tf.float32, lambda t: tf.stack([t, t], 1), tf.ones([2])),
        "unstack unknown": ([None, 2], tf.float32, lambda t: tf.unstack(t), tf.ones([3, 2])),
        "unstack unknown axis 1": ([None, 2], tf.float32, lambda t: tf.unstack(t, axis=1), tf.ones([3, 2])),
        "unstack unknown num": ([None, 2], tf.float32, lambda t: tf.unstack(t, num=3), tf.ones([3, 2])),
        "split unknown": ([None, 4], tf.float32, lambda t: tf.split(t, 2, 1), tf.ones([3, 4])),
        "split unknown axis": ([None, 4], tf.float32, lambda t: tf.split(t, 3, 0), tf.ones([3, 4])),
        "split unknown sizes": ([None, 4], tf.float32, lambda t: tf.split(t, [1, -1], 0), tf.ones([3, 4])),
        "split unknown rank": (None, tf.float32, lambda t: tf.split(t, [1, 2], 0), tf.ones([3, 4])),
        "split spec sizes": ([2], tf.int32, lambda s: tf.split(tf.ones([3, 4]), s, 0, num=2), tf.constant([1, 2])),
    }
    for name, (dims, dt, fn, arg) in specs.items():
        out[name] = err(lambda: _spec(tf, dims, dt, fn, arg))
    return out


program("cv-ar-join", _ar_join)


def _ar_index(tf: Any, mk: Any) -> Any:
    """gather (axes, batch_dims, index dtypes, out of range), embedding_lookup with max_norm, boolean_mask's axis,
    __getitem__ with int16/int64/bool keys and its refusals: values and gradients."""
    p = lambda: tf.reshape(tf.range(24.0), [2, 3, 4])  # noqa: E731
    i16 = lambda v: tf.constant(v, tf.int16)  # noqa: E731

    def grad(fn: Callable[[Any], Any]) -> Any:
        v = tf.Variable(p())
        with tf.GradientTape() as t:
            y = fn(v)
        g = t.gradient(y, v)
        return y, tf.convert_to_tensor(g)
    cases: dict[str, Callable[[], Any]] = {
        "gather -1": lambda: tf.gather(p(), [3, 0], axis=-1), "gather int64": lambda: tf.gather(p(), tf.constant([1, 0], tf.int64), axis=1),
        "gather int16": lambda: tf.gather(p(), i16([1]), axis=1), "gather oob": lambda: tf.gather(p(), [5], axis=1),
        "gather neg index": lambda: tf.gather(p(), [-1], axis=1), "gather axis 3": lambda: tf.gather(p(), [0], axis=3),
        "gather batch -1": lambda: tf.gather(p(), [[0], [1]], axis=1, batch_dims=-1),
        "gather batch 1": lambda: tf.gather(p(), [[0, 2], [1, 1]], axis=2, batch_dims=1),
        "gather batch > axis": lambda: tf.gather(p(), [[0], [1]], axis=0, batch_dims=1),
        "gather tensor axis": lambda: tf.gather(p(), [1], axis=tf.constant(2, tf.int64)),
        "gather validate": lambda: tf.gather(p(), [1], axis=0, validate_indices=True),
        "gather scalar idx": lambda: tf.gather(p(), 2, axis=2), "gather empty idx": lambda: tf.gather(p(), tf.zeros([0], tf.int32)),
        "gather float idx": lambda: tf.gather(p(), [1.0]), "gather strings": lambda: tf.gather(tf.constant(["a", "b"]), [1, 1, 0]),
        "gather 2d idx": lambda: tf.gather(p(), [[1, 0], [0, 0]], axis=1),
        "gather grad": lambda: grad(lambda v: tf.reduce_sum(tf.gather(v, [[2, 0], [2, 2]], axis=1) * 3.0)),
        "gather grad axis -1": lambda: grad(lambda v: tf.gather(v, [3, 3, 1], axis=-1)),
        "gather grad batch": lambda: grad(lambda v: tf.gather(v, [[0, 2], [1, 1]], axis=1, batch_dims=1)),
        "embedding max_norm": lambda: tf.nn.embedding_lookup(tf.reshape(tf.range(12.0), [4, 3]), [3, 0, 3], max_norm=2.0),
        "embedding": lambda: tf.nn.embedding_lookup(tf.reshape(tf.range(12.0), [4, 3]), [[1], [2]]),
        "embedding oob": lambda: tf.nn.embedding_lookup(tf.reshape(tf.range(12.0), [4, 3]), [4]),
        "mask axis 1": lambda: tf.boolean_mask(p(), [True, False, True], axis=1),
        "mask 2d": lambda: tf.boolean_mask(p(), [[True, False, True], [False, False, True]]),
        "mask axis -1": lambda: tf.boolean_mask(p(), [True, False, True, True], axis=-1),
        "mask bad shape": lambda: tf.boolean_mask(p(), [True, False]),
        "mask scalar": lambda: tf.boolean_mask(p(), True), "mask int": lambda: tf.boolean_mask(p(), [1, 0]),
        "mask none": lambda: tf.boolean_mask(tf.constant([1, 2, 3]), [False, False, False]),
        "mask grad": lambda: grad(lambda v: tf.boolean_mask(v, [True, False, True], axis=1) * 2.0),
        "getitem int16": lambda: p()[i16(1)], "getitem int64": lambda: p()[tf.constant(1, tf.int64), 2],
        "getitem int16 slice": lambda: p()[i16(0):i16(2), ::2],
        "getitem bool": lambda: p()[tf.constant([True, False])], "getitem float": lambda: p()[1.0],
        "getitem oob": lambda: p()[2], "getitem -3": lambda: p()[-3], "getitem step 0": lambda: p()[::0],
        "getitem ellipsis twice": lambda: p()[..., 0, ...], "getitem newaxis": lambda: p()[None, ..., None, 1],
        "getitem neg step": lambda: p()[::-1, -1:0:-2], "getitem list": lambda: p()[[0, 1]],
        "getitem tensor vec": lambda: p()[tf.constant([0, 1])], "getitem uint8": lambda: p()[tf.constant(1, tf.uint8)],
        "getitem mixed dtypes": lambda: p()[tf.constant(0, tf.int64):tf.constant(1, tf.int32)],
        "getitem grad": lambda: grad(lambda v: v[1, ::-2, i16(1):] * 2.0),
        "getitem grad newaxis": lambda: grad(lambda v: v[None, :, 0, ...]),
        "strided_slice masks": lambda: tf.strided_slice(p(), [0, 1, 0], [2, 3, 4], [1, 1, 2], begin_mask=1,
                                                        end_mask=4, shrink_axis_mask=2),
        "strided_slice int64": lambda: tf.strided_slice(p(), tf.constant([1], tf.int64), tf.constant([2], tf.int64)),
        "strided_slice ellipsis": lambda: tf.strided_slice(p(), [0, 1], [1, 2], ellipsis_mask=1, new_axis_mask=2),
        "slice": lambda: tf.slice(p(), [1, 0, 1], [-1, 2, -1]), "slice bad": lambda: tf.slice(p(), [1, 0, 1], [2, 2, 2]),
    }
    return _both(tf, cases)


program("cv-ar-index", _ar_index)
