"""Subnormal floats against real TensorFlow 2.21 (clause ops.subnormals): TF's CPU kernels run with
flush-to-zero and denormals-are-zero, and simdist's ops declare how each kernel treats them
(`OpDef.subnormals`, simdist/runtime/subnormals.py). A sweep of op kinds (arithmetic,
transcendental, reductions, scans, matmul, casts, comparisons, min/max, bit ops, data movement,
sorting, segments, nn) x float32/float64/float16/bfloat16 on inputs holding subnormals and on
normal inputs whose results are subnormal; gradients under a tape; calls of a tf.function. Same
dtype and the same bits (NaN matches NaN) on both backends. Needs the `tf` extra (goldens stand in).

Not here, because simdist does not model them (docs/spec.md, ops.subnormals): a sum of normal
numbers that cancels exactly to a subnormal (exact, so no underflow is noted), Grappler's
removal of `x * 1.0` / `x + 0.0` inside a tf.function (TF then keeps a subnormal x), and the
cases of `_NOT_MODELLED` (kernels whose packets and scalar code return subnormal bits in ways
not derived: float32/float64 Relu, float64 Sign, ties of subnormals in float64/bfloat16
reduce_max/min; bfloat16 Sign of -0.0).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

# a subnormal and a second one of each dtype (float16's are normal float32 numbers: they survive)
_SUB = {"float32": (1e-39, 3e-41), "float64": (1e-310, 3e-320), "float16": (1.2e-7, 3e-6), "bfloat16": (1e-39, 3e-40)}
# a normal number whose square is subnormal
_SMALL = {"float32": 1e-20, "float64": 1e-160, "float16": 1e-4, "bfloat16": 1e-20}
# exp of it is subnormal
_EXP_ARG = {"float32": -88.5, "float64": -709.5, "float16": -16.0, "bfloat16": -88.5}
DTYPES = ("float32", "float64", "float16", "bfloat16")


def _x(tf: Any, dt: str, vals: list[float]) -> Any:
    """vals as a tensor of dtype dt, its subnormals kept (bfloat16: float32 cast, which keeps them)."""
    if dt == "bfloat16":
        return tf.cast(tf.constant(np.array(vals, np.float32)), tf.bfloat16)
    return tf.constant(np.array(vals, getattr(np, dt)))


def _edge(tf: Any, dt: str) -> Any:
    s, s2 = _SUB[dt]
    return _x(tf, dt, [s, -s, 0.0, s2, -s2, 1.0, -2.5])


def _subs(tf: Any, dt: str) -> Any:
    """Subnormals and zeros only (transcendental ops: no ordinary value whose last bit may differ)."""
    s, s2 = _SUB[dt]
    return _x(tf, dt, [s, -s, 0.0, s2, -s2])


# (name, function of (tf, x edge, dtype)); each runs in every dtype
_EXACT: list[tuple[str, Callable[..., Any]]] = [
    ("mul-1", lambda tf, x, dt: x * tf.ones([], x.dtype)),
    ("mul-2", lambda tf, x, dt: x * tf.constant(2.0, x.dtype)),
    ("add-0", lambda tf, x, dt: x + tf.zeros([], x.dtype)),
    ("sub-0", lambda tf, x, dt: x - tf.zeros([], x.dtype)),
    ("div-1", lambda tf, x, dt: x / tf.ones([], x.dtype)),
    ("neg", lambda tf, x, dt: -x),
    ("abs", lambda tf, x, dt: tf.abs(x)),
    ("sign", lambda tf, x, dt: tf.sign(x)),
    ("floor", lambda tf, x, dt: tf.floor(x)),
    ("ceil", lambda tf, x, dt: tf.math.ceil(x)),
    ("round", lambda tf, x, dt: tf.round(x)),
    ("square", lambda tf, x, dt: tf.square(x)),
    ("greater-0", lambda tf, x, dt: x > tf.zeros([], x.dtype)),
    ("less-0", lambda tf, x, dt: x < tf.zeros([], x.dtype)),
    ("equal-0", lambda tf, x, dt: tf.equal(x, tf.zeros([], x.dtype))),
    ("not-equal-0", lambda tf, x, dt: tf.not_equal(x, tf.zeros([], x.dtype))),
    ("is-finite", lambda tf, x, dt: tf.math.is_finite(x)),
    ("maximum-0", lambda tf, x, dt: tf.maximum(x, tf.zeros([], x.dtype))),
    ("minimum-0", lambda tf, x, dt: tf.minimum(x, tf.zeros([], x.dtype))),
    ("maximum-neg1", lambda tf, x, dt: tf.maximum(x, -tf.ones([], x.dtype))),
    ("clip", lambda tf, x, dt: tf.clip_by_value(x, -tf.ones([], x.dtype), tf.ones([], x.dtype))),
    ("squared-difference", lambda tf, x, dt: tf.math.squared_difference(x, tf.zeros([], x.dtype))),
    ("add-n", lambda tf, x, dt: tf.add_n([x, x])),
    ("identity", lambda tf, x, dt: tf.identity(x)),
    ("reshape", lambda tf, x, dt: tf.reshape(x, [7, 1])),
    ("transpose", lambda tf, x, dt: tf.transpose(tf.reshape(x, [7, 1]))),
    ("gather", lambda tf, x, dt: tf.gather(x, [4, 0, 1])),
    ("concat", lambda tf, x, dt: tf.concat([x, x], 0)),
    ("tile", lambda tf, x, dt: tf.tile(x, [2])),
    ("pad", lambda tf, x, dt: tf.pad(x, [[1, 1]])),
    ("reverse", lambda tf, x, dt: tf.reverse(x, [0])),
    ("where", lambda tf, x, dt: tf.where(tf.constant([True, False, True, True, False, True, False]), x,
                                         tf.zeros_like(x))),
    ("stop-gradient", lambda tf, x, dt: tf.stop_gradient(x)),
    ("cast-float32", lambda tf, x, dt: tf.cast(x, tf.float32)),
    ("cast-float64", lambda tf, x, dt: tf.cast(x, tf.float64)),
    ("cast-float16", lambda tf, x, dt: tf.cast(x, tf.float16)),
    ("cast-bfloat16", lambda tf, x, dt: tf.cast(x, tf.bfloat16)),
    ("cast-bool", lambda tf, x, dt: tf.cast(x, tf.bool)),
    ("cast-int32", lambda tf, x, dt: tf.cast(x, tf.int32)),
    ("reduce-sum", lambda tf, x, dt: tf.reduce_sum(x[:5])),
    ("reduce-sum-one", lambda tf, x, dt: tf.reduce_sum(x[:1])),
    ("reduce-sum-axis-of-one", lambda tf, x, dt: tf.reduce_sum(tf.reshape(x, [7, 1]), axis=1)),
    ("reduce-max", lambda tf, x, dt: tf.reduce_max(x[:5])),
    ("reduce-min", lambda tf, x, dt: tf.reduce_min(x[:5])),
    ("reduce-prod", lambda tf, x, dt: tf.reduce_prod(tf.stack([x[0], x[5]]))),
    ("cumsum", lambda tf, x, dt: tf.cumsum(x)),
    ("cumsum-of-negative-zeros", lambda tf, x, dt: tf.cumsum(tf.concat([-tf.zeros([2], x.dtype), -x[:2]], 0),
                                                                reverse=True)),
    ("argmax", lambda tf, x, dt: tf.argmax(x[:5])),
    ("argmin", lambda tf, x, dt: tf.argmin(x[:5])),
    ("top-k", lambda tf, x, dt: tf.math.top_k(x, 3).values),
    ("sort", lambda tf, x, dt: tf.sort(x)),
    ("matmul", lambda tf, x, dt: tf.matmul(tf.reshape(x, [1, 7]), tf.ones([7, 1], x.dtype))),
    ("relu", lambda tf, x, dt: tf.nn.relu(x)),
    ("unsorted-segment-sum", lambda tf, x, dt: tf.math.unsorted_segment_sum(x, [0, 0, 1, 1, 2, 2, 2], 3)),
    ("fill", lambda tf, x, dt: tf.fill([2], x[0])),
]

# transcendental ops on subnormals and zeros only
_SPECIAL: list[tuple[str, Callable[..., Any]]] = [
    ("sqrt", lambda tf, x, dt: tf.sqrt(tf.abs(x))),
    ("exp", lambda tf, x, dt: tf.exp(x)),
    ("log", lambda tf, x, dt: tf.math.log(tf.abs(x))),
    ("reciprocal", lambda tf, x, dt: tf.math.reciprocal(x)),
    ("sin", lambda tf, x, dt: tf.sin(x)),
    ("tanh", lambda tf, x, dt: tf.tanh(x)),
    ("sigmoid", lambda tf, x, dt: tf.sigmoid(x)),
]

# normal inputs with subnormal results
_PRODUCING: list[tuple[str, Callable[..., Any]]] = [
    ("mul-underflows", lambda tf, x, dt: _x(tf, dt, [_SMALL[dt], -_SMALL[dt]]) * _x(tf, dt, [_SMALL[dt], _SMALL[dt]])),
    ("square-underflows", lambda tf, x, dt: tf.square(_x(tf, dt, [_SMALL[dt], 3 * _SMALL[dt]]))),
    ("exp-underflows", lambda tf, x, dt: tf.exp(_x(tf, dt, [_EXP_ARG[dt], _EXP_ARG[dt] - 1.0]))),
    ("matmul-underflows", lambda tf, x, dt: tf.matmul(_x(tf, dt, [[_SMALL[dt]] * 3]), _x(tf, dt, [[_SMALL[dt]]] * 3))),
    ("sum-of-squares", lambda tf, x, dt: tf.reduce_sum(tf.square(_x(tf, dt, [_SMALL[dt]] * 4)))),
    ("reduce-std", lambda tf, x, dt: tf.math.reduce_std(_x(tf, dt, [1.0, 1.0, 1.0 + 1e-7, 1.0]))),
    ("reduce-variance-small", lambda tf, x, dt: tf.math.reduce_variance(_x(tf, dt, [_SMALL[dt], -_SMALL[dt]]))),
]


def _grad(tf: Any, dt: str, f: Callable[[Any], Any]) -> Any:
    s = _SUB[dt][0]
    v = tf.Variable(_x(tf, dt, [s, -s, 1.0]))
    with tf.GradientTape() as tape:
        y = f(v)
    return tf.convert_to_tensor(tape.gradient(y, v))


_GRADS: list[tuple[str, Callable[..., Any]]] = [
    ("grad-mul-2", lambda tf, x, dt: _grad(tf, dt, lambda v: tf.reduce_sum(v * tf.constant(2.0, v.dtype)))),
    ("grad-square", lambda tf, x, dt: _grad(tf, dt, lambda v: tf.reduce_sum(v * v))),
    ("grad-sin", lambda tf, x, dt: _grad(tf, dt, lambda v: tf.reduce_sum(tf.sin(v)))),
    ("grad-relu", lambda tf, x, dt: _grad(tf, dt, lambda v: tf.reduce_sum(tf.nn.relu(v)))),
    ("variable-times-1", lambda tf, x, dt: tf.Variable(x) * tf.ones([], x.dtype)),
    ("variable-read", lambda tf, x, dt: tf.convert_to_tensor(tf.Variable(x))),
    ("assigned-then-mul", lambda tf, x, dt: _assigned(tf, x) * tf.constant(3.0, x.dtype)),
]


def _assigned(tf: Any, x: Any) -> Any:
    v = tf.Variable(tf.ones_like(x))
    v.assign(x)
    return v


def _in_function(tf: Any, x: Any) -> Any:
    @tf.function
    def f(a: Any) -> Any:
        return a * tf.constant(3.0, a.dtype), a * a, tf.abs(a), tf.exp(a * tf.constant(-1e30, a.dtype))
    first = f(x)
    return [*first, *f(x)]   # recorded, then called again


def _recorded_then_subnormal(tf: Any, x: Any) -> Any:
    @tf.function
    def f(a: Any) -> Any:
        return a * tf.constant(3.0, a.dtype) + a
    normal = tf.ones_like(x)
    f(normal)
    f(normal)   # recorded, replayed
    return [f(x), f(normal)]


def _reads_variable(tf: Any, x: Any) -> Any:
    """A tf.function reading a variable that holds subnormals (found by the third fuzzer: the
    recorded call read it unflushed), then one recorded on normal values and assigned subnormals."""
    v = tf.Variable(x)

    @tf.function
    def f() -> Any:
        return v * tf.constant(3.0, v.dtype) + v

    w = tf.Variable(tf.ones_like(x))

    @tf.function
    def g() -> Any:
        return w * tf.constant(3.0, w.dtype)

    first, normal = [f(), f()], [g(), g()]
    w.assign(x)
    return [*first, *normal, g(), g()]


_FUNCTIONS: list[tuple[str, Callable[..., Any]]] = [
    ("tf-function-reads-a-subnormal-variable", lambda tf, x, dt: _reads_variable(tf, x)),
    ("tf-function-recorded-then-subnormal", lambda tf, x, dt: _recorded_then_subnormal(tf, x)),
    ("tf-function", lambda tf, x, dt: _in_function(tf, x)),
    ("tf-function-underflow", lambda tf, x, dt: _in_function(tf, _x(tf, dt, [_SMALL[dt], 1.0]))),
]


def _long(tf: Any, dt: str) -> Any:
    """Eleven values: Eigen's first 8 in a packet (float32, bfloat16; float64: 8 in two), 3 in the tail."""
    s, s2 = _SUB[dt]
    return _x(tf, dt, [s, -s, 2.0, s2, 0.0, -s2, 0.5, s, s2, -s, 3.0])


def _packet_cases() -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Ops whose packets and scalar tail treat subnormals differently (ops.subnormals)."""
    out = []
    for dt in DTYPES:
        out += [
            (f"log-long-{dt}", "packets", lambda tf, dt=dt: tf.math.log(tf.abs(_long(tf, dt)))),
            (f"log-negative-long-{dt}", "packets", lambda tf, dt=dt: tf.math.log(_long(tf, dt))),
            (f"maximum-long-{dt}", "packets", lambda tf, dt=dt: tf.maximum(_long(tf, dt), tf.zeros([], _long(tf, dt).dtype))),
            (f"minimum-long-{dt}", "packets", lambda tf, dt=dt: tf.minimum(tf.zeros([], _long(tf, dt).dtype), _long(tf, dt))),
            (f"sort-long-{dt}", "packets", lambda tf, dt=dt: tf.sort(_long(tf, dt), direction="DESCENDING")),
            (f"argsort-long-{dt}", "packets", lambda tf, dt=dt: tf.argsort(_long(tf, dt))),
            (f"mul-long-{dt}", "packets", lambda tf, dt=dt: _long(tf, dt) * tf.constant(0.5, _long(tf, dt).dtype)),
        ]
        if dt in ("float16", "bfloat16"):
            out.append((f"relu-long-{dt}", "packets", lambda tf, dt=dt: tf.nn.relu(_long(tf, dt))))
    return out


# The seeded sweep: values drawn from subnormals, signed zeros, small normal numbers whose products
# underflow and ordinary ones (not the smallest normal number: its exact subnormal multiples, e.g.
# FLT_MIN * 0.5, raise no underflow and are not modelled), of random sizes (packets and tails).
_SWEEP_SEED, _SWEEP_COUNT = 20261129, 200
_SWEEP_UNARY: dict[str, Callable[..., Any]] = {
    "neg": lambda tf, x: -x, "abs": lambda tf, x: tf.abs(x), "floor": lambda tf, x: tf.floor(x),
    "square": lambda tf, x: tf.square(x), "sqrt": lambda tf, x: tf.sqrt(tf.abs(x)),
    "cast-float64": lambda tf, x: tf.cast(x, tf.float64), "cast-float32": lambda tf, x: tf.cast(x, tf.float32),
    "cast-bool": lambda tf, x: tf.cast(x, tf.bool), "cumsum": lambda tf, x: tf.cumsum(x),
    "sort": lambda tf, x: tf.sort(x, direction="DESCENDING"), "argsort": lambda tf, x: tf.argsort(x),
    "greater-0": lambda tf, x: x > tf.zeros([], x.dtype), "reshape": lambda tf, x: tf.reshape(x, [-1, 1]),
}
_SWEEP_BINARY: dict[str, Callable[..., Any]] = {
    "mul": lambda tf, x, y: x * y, "add": lambda tf, x, y: x + y, "sub": lambda tf, x, y: x - y,
    "div": lambda tf, x, y: x / y, "maximum": lambda tf, x, y: tf.maximum(x, y),
    "minimum": lambda tf, x, y: tf.minimum(x, y), "equal": lambda tf, x, y: tf.equal(x, y),
    "squared-difference": lambda tf, x, y: tf.math.squared_difference(x, y),
}


def _sweep_values(dt: str) -> list[float]:
    s, s2 = _SUB[dt]
    small = _SMALL[dt]
    return [s, -s, s2, -s2, 0.0, -0.0, 1.0, -2.5, 0.5, small, -3 * small, 7.0]


def _sweep_case(rng: np.random.Generator) -> tuple[str, Callable[[Any], Any]]:
    dt = DTYPES[int(rng.integers(len(DTYPES)))]
    n = int(rng.integers(1, 21))
    vals = _sweep_values(dt)
    a = [vals[i] for i in rng.integers(len(vals), size=n)]
    b = [vals[i] for i in rng.integers(len(vals), size=n)]
    names = sorted(_SWEEP_UNARY) + sorted(_SWEEP_BINARY)
    op = names[int(rng.integers(len(names)))]
    if op in _SWEEP_UNARY:
        fn = _SWEEP_UNARY[op]
        return f"{op}-{dt}-{n}", lambda tf: fn(tf, _x(tf, dt, a))
    fn2 = _SWEEP_BINARY[op]
    return f"{op}-{dt}-{n}", lambda tf: fn2(tf, _x(tf, dt, a), _x(tf, dt, b))


def _sweep_cases() -> list[tuple[str, str, Callable[[Any], Any]]]:
    rng = np.random.default_rng(_SWEEP_SEED)
    return [(f"sweep{i}-{name}", "sweep", fn) for i, (name, fn) in
            enumerate(_sweep_case(rng) for _ in range(_SWEEP_COUNT))]


def _literal_cases() -> list[tuple[str, str, Callable[[Any], Any]]]:
    """Python literals that are subnormal: converted beside a tensor, then computed."""
    return [
        ("literal-times-ones-float32", "literal", lambda tf: tf.ones([2]) * 1e-39),
        ("literal-constant-float32", "literal", lambda tf: tf.constant([1e-39, -1e-39]) + 0.0),
        ("literal-constant-kept-float32", "literal", lambda tf: tf.constant([1e-39, -1e-39])),
        ("literal-constant-float64", "literal", lambda tf: tf.constant([1e-310], tf.float64) * 1.0),
        ("numpy-constant-float32", "literal", lambda tf: tf.reshape(tf.constant(np.float32(1e-39)), [1])),
    ]


# measured on TF 2.21 and not modelled (see the module's docstring and ops.subnormals)
_NOT_MODELLED = {"relu-float32", "relu-float64", "sign-float64", "sign-bfloat16", "reduce-max-float64",
                 "reduce-max-bfloat16", "reduce-min-float64", "reduce-min-bfloat16"}


def _all_cases() -> list[tuple[str, str, Callable[[Any], Any]]]:
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for group, table, make in (("exact", _EXACT, _edge), ("special", _SPECIAL, _subs), ("producing", _PRODUCING, _edge),
                               ("gradient", _GRADS, _edge), ("function", _FUNCTIONS, _edge)):
        for name, fn in table:
            for dt in DTYPES:
                if f"{name}-{dt}" in _NOT_MODELLED:
                    continue
                out.append((f"{name}-{dt}", group, (lambda fn, make, dt: lambda tf: fn(tf, make(tf, dt), dt))(fn, make, dt)))
    return out + _packet_cases() + _sweep_cases() + _literal_cases()


CASES = _all_cases()
EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("exact")
def test_subnormal_inputs(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("special")
def test_subnormal_inputs_of_transcendental_ops(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("producing")
def test_subnormal_results(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("gradient")
def test_subnormals_under_a_tape_and_in_variables(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("function")
def test_subnormals_in_a_tf_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("packets")
def test_subnormals_in_packets_and_the_scalar_tail(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("sweep")
def test_subnormal_sweep(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.subnormals", ref="tf221")
@EDGES.parametrize("literal")
def test_subnormal_literals(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


if __name__ == "__main__":  # TF worker: python test_subnormals_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
