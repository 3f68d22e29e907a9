"""Gradient edges (issue 29): every elementwise op with a registered gradient, at the edge values.

The table is TF 2.21's gradient registry (``ops._gradient_registry``) intersected with the op
definitions whose inputs and output all share the type attr ``T`` and that take float32 (listed by
:mod:`grad_edges_record`'s ``--list``; 98 ops): the elementwise math of math_grad.py (unary, binary,
Betainc and ClipByValue), tf.nn's activations and their ``*Grad`` kernels (nn_grad.py), and three
row-wise ops (Softmax, LogSoftmax, L2Loss). Each op is called through ``tf.raw_ops`` on a grid of
edge values — signed zeros, the kinks and thresholds of the activations (0, 6, ±1), halves (where
rounding and floor/ceil differ), huge values, infinities, NaN — crossed over its inputs (a binary
op sees every pair, Betainc and ClipByValue every triple), in float32, float64, float16 and bfloat16 (and, for
the ops whose op def takes complex, on every pair of edge parts in complex64 and complex128), and observed:

- the forward value;
- the gradient of every input under a finite upstream gradient without zeros (``U_FINITE``: every
  point's derivative shows), under one of mostly zeros (``U_ZEROS``: a guarded kernel such as SqrtGrad or
  DivNoNan shows what it does at 0 · ∞), and under a non-finite one (``U_NONFINITE``: whether the rule multiplies or selects: ReluGrad's select keeps 0 where NaN ·
  0 would be NaN; CheckNumerics' gradient refuses it);
- an error's class where TF raises (and then the same observation on the grid's finite values).

Expected values are TF 2.21's, recorded on real TF (grad_edges_record); nothing here imports
TensorFlow, and the same `observe` runs on every backend.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

#: The edge values of one input.
VALUES: tuple[float, ...] = (0.0, -0.0, 0.25, -0.25, 0.5, -0.5, 0.75, 1.0, -1.0, 1.5, 2.0, -2.0, 2.5, 6.0, -7.5,
                             30.0, 1e30, -1e30, float("inf"), float("-inf"), float("nan"))
#: A finite upstream gradient, cycled over the grid: signed, non-uniform, never zero (every point's derivative shows).
U_FINITE: tuple[float, ...] = (1.0, -2.5, 0.75, 3.0, 0.5, -1.5, 2.0)
#: An upstream gradient of mostly zeros (what a guarded kernel gives at 0 * inf: SqrtGrad, DivNoNan, ReluGrad).
U_ZEROS: tuple[float, ...] = (0.0, -0.0, 1.0)
#: A non-finite upstream gradient, cycled over the grid.
U_NONFINITE: tuple[float, ...] = (float("nan"), float("inf"), float("-inf"), 1.0, 0.0)
DTYPES = ("float32", "float64")
#: The half-precision dtypes every real op also runs in (where TF's op def or kernel refuses one, the error's
#: class is what is recorded).
HALF_DTYPES = ("float16", "bfloat16")
#: The parts of the complex edge values (each pair of them one value: 64 values).
PARTS: tuple[float, ...] = (0.0, -0.0, 0.5, -1.0, 2.0, float("inf"), float("-inf"), float("nan"))
U_FINITE_C: tuple[complex, ...] = (1 + 0.5j, -2.5 + 0j, 0.75 - 1j, 3j, 0.5 + 0j)
U_ZEROS_C: tuple[complex, ...] = (0j, complex(-0.0, 0.0), 1 + 0j)
U_NONFINITE_C: tuple[complex, ...] = (complex(float("nan"), 0.0), complex(float("inf"), 1.0), complex(1.0, float("-inf")),
                                      1 + 0j, 0j)
COMPLEX_DTYPES = ("complex64", "complex128")


@dataclass(frozen=True)
class Op:
    """One raw op: its name, its input names (TF's OpDef order), its kind ("elementwise": the grid
    crossed over the inputs; "rows": each edge value in a row of three) and fixed attributes."""

    name: str
    inputs: tuple[str, ...]
    kind: str = "elementwise"
    attrs: tuple[tuple[str, Any], ...] = ()
    real: bool = True         # run in float32 and float64
    complex: bool = False     # run in complex64 and complex128 (its output's Tout the matching float, if `tout`)
    tout: bool = False

    @property
    def dtypes(self) -> tuple[str, ...]:
        return (DTYPES + HALF_DTYPES if self.real else ()) + (COMPLEX_DTYPES if self.complex else ())


def _u(*names: str) -> tuple[str, ...]:
    return names


_UNARY = ("Abs", "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "BesselI0", "BesselI0e", "BesselI1",
          "BesselI1e", "BesselJ0", "BesselJ1", "BesselK0", "BesselK0e", "BesselK1", "BesselK1e", "BesselY0",
          "BesselY1", "Ceil", "Cos", "Cosh", "Dawsn", "Digamma", "Erf", "Erfc", "Erfinv", "Exp", "Expint", "Expm1",
          "Floor", "FresnelCos", "FresnelSin", "Inv", "Lgamma", "Log", "Log1p", "Ndtri", "Neg", "Reciprocal",
          "Rint", "Round", "Rsqrt", "Sigmoid", "Sign", "Sin", "Sinh", "Spence", "Sqrt", "Square", "Tan", "Tanh")
_BINARY_XY = ("Add", "AddV2", "Div", "DivNoNan", "FloorDiv", "FloorMod", "Maximum", "Minimum", "Mul", "MulNoNan",
              "Pow", "RealDiv", "SquaredDifference", "Sub", "TruncateDiv", "Xdivy", "Xlog1py", "Xlogy")

#: The table's unary and binary ops whose op def takes complex64 (TF 2.21's OpDef; ClipByValue's triples left out).
_COMPLEX = ("Acos", "Acosh", "Add", "AddV2", "Asin", "Asinh", "Atan", "Atanh", "Cos", "Cosh", "Div", "DivNoNan", "Exp",
            "Expm1", "FloorDiv", "Inv", "InvGrad", "Log", "Log1p", "Mul", "MulNoNan", "Neg", "Pow", "RealDiv", "Reciprocal",
            "ReciprocalGrad", "Round", "Rsqrt", "RsqrtGrad", "Sigmoid", "SigmoidGrad", "Sign", "Sin", "Sinh", "Sqrt",
            "SqrtGrad", "Square", "SquaredDifference", "Sub", "Tan", "Tanh", "TanhGrad", "TruncateDiv", "Xdivy", "Xlog1py",
            "Xlogy")

_REAL_OPS: tuple[Op, ...] = (
    tuple(Op(n, ("x",)) for n in _UNARY)
    + tuple(Op(n, ("features",)) for n in ("Elu", "Relu", "Relu6", "Selu", "Softplus", "Softsign"))
    + (Op("LeakyRelu", ("features",), attrs=(("alpha", 0.2),)),
       Op("LeakyRelu", ("features",), attrs=(("alpha", 1.5),)),
       Op("CheckNumerics", ("tensor",), attrs=(("message", "edge"),)),
       Op("CheckNumericsV2", ("tensor",), attrs=(("message", "edge"),)))
    + tuple(Op(n, ("x", "y")) for n in _BINARY_XY)
    + (Op("Atan2", ("y", "x")), Op("NextAfter", ("x1", "x2")), Op("Igamma", ("a", "x")), Op("Igammac", ("a", "x")),
       Op("Polygamma", ("a", "x")), Op("Zeta", ("x", "q")))
    + tuple(Op(n, ("y", "dy")) for n in ("InvGrad", "ReciprocalGrad", "RsqrtGrad", "SigmoidGrad", "SqrtGrad",
                                         "TanhGrad"))
    + tuple(Op(n, ("gradients", "features")) for n in ("Relu6Grad", "ReluGrad", "SoftplusGrad"))
    + (Op("LeakyReluGrad", ("gradients", "features"), attrs=(("alpha", 0.2),)),
       Op("EluGrad", ("gradients", "outputs")), Op("SeluGrad", ("gradients", "outputs")),
       Op("Betainc", ("a", "b", "x")), Op("ClipByValue", ("t", "clip_value_min", "clip_value_max")))
    + tuple(Op(n, ("logits",), kind="rows") for n in ("Softmax", "LogSoftmax"))
    + (Op("L2Loss", ("t",), kind="rows"),)
)
OPS: tuple[Op, ...] = (
    tuple(Op(o.name, o.inputs, o.kind, o.attrs, complex=o.name in _COMPLEX) for o in _REAL_OPS)
    + tuple(Op(n, ("x",), real=False, complex=True, tout=True) for n in ("ComplexAbs",))
    + tuple(Op(n, ("input",), real=False, complex=True, tout=True) for n in ("Angle", "Real", "Imag"))
)


def op_id(op: Op) -> str:
    """A readable id: the op and its attributes (`LeakyRelu(alpha=1.5)`)."""
    return op.name + (f"({', '.join(f'{k}={v!r}' for k, v in op.attrs)})" if op.attrs else "")


def complex_values(parts: tuple[float, ...] = PARTS) -> tuple[complex, ...]:
    """Every pair of `parts` as one complex value."""
    return tuple(complex(r, i) for r in parts for i in parts)


def grid(op: Op, values: tuple[Any, ...] = VALUES) -> list[np.ndarray]:
    """The inputs of `op` (float64 or complex128): the values crossed over its inputs (every pair, every
    triple) for an elementwise op, each value in a row of three beside 1.0 and -2.0 (and a row of three
    equal values) for a row-wise one."""
    v = np.asarray(values, dtype=np.complex128 if isinstance(values[0], complex) else np.float64)
    if op.kind == "rows":
        rows = [[x, 1.0, -2.0] for x in v] + [[x, x, x] for x in v]
        return [np.asarray(rows, dtype=v.dtype)]
    mesh = np.meshgrid(*([v] * len(op.inputs)), indexing="ij")
    return [m.reshape(-1) for m in mesh]


def _upstream(pattern: tuple[Any, ...], shape: tuple[int, ...]) -> np.ndarray:
    n = int(np.prod(shape)) if shape else 1
    dt = np.complex128 if isinstance(pattern[0], complex) else np.float64
    return np.resize(np.asarray(pattern, dtype=dt), n).reshape(shape)


def _floats(arr: np.ndarray) -> list[Any]:
    """The values as JSON: floats, with NaN, the infinities and -0.0 as strings (NumPy's masks, then the
    specials patched in: an element loop over NumPy scalars was 17 s of a 121 s profile of test_grad_edges)."""
    flat = arr.reshape(-1)
    out = flat.tolist()
    for name, mask in (("nan", np.isnan(flat)), ("inf", flat == np.inf), ("-inf", flat == -np.inf),
                       ("-0", (flat == 0) & np.signbit(flat))):
        for i in np.flatnonzero(mask).tolist():
            out[i] = name
    return out


def _plain(a: Any) -> Any:
    """A NumPy value as JSON: floats as strings where not finite or a negative zero (kept exactly); a
    complex array as its real and imaginary parts."""
    arr = np.asarray(a)
    if arr.dtype.kind == "c":
        arr = arr.astype(np.complex128)
        return {"shape": list(arr.shape), "values": _floats(arr.real), "imag": _floats(arr.imag)}
    arr = arr.astype(np.float64)
    return {"shape": list(arr.shape), "values": _floats(arr)}


def decode(rec: dict[str, Any]) -> np.ndarray:
    """The float64 (or complex128) array a `_plain` record holds."""
    conv = {"nan": np.nan, "inf": np.inf, "-inf": -np.inf, "-0": -0.0}

    def part(vals: list[Any]) -> np.ndarray:
        if not any(type(x) is str for x in vals):
            return np.asarray(vals, dtype=np.float64)
        return np.asarray([conv[x] if type(x) is str else x for x in vals], dtype=np.float64)
    out = part(rec["values"])
    if "imag" in rec:   # (set part by part: re + 1j * im would turn an infinite part's partner into NaN)
        re, im = out, part(rec["imag"])
        out = np.empty(re.shape, np.complex128)
        out.real, out.imag = re, im
    return out.reshape(rec["shape"])


def _error(e: BaseException) -> dict[str, str]:
    return {"error": type(e).__name__}


def _observe_on(tf: Any, op: Op, dtype: str, inputs: list[np.ndarray]) -> dict[str, Any]:
    fn = getattr(tf.raw_ops, op.name)
    dt = getattr(tf, dtype)
    xs = [tf.constant(a, dtype=dt) for a in inputs]
    kwargs = dict(op.attrs)
    if op.tout:
        kwargs["Tout"] = tf.float32 if dtype == "complex64" else tf.float64
    out: dict[str, Any] = {}
    try:
        y = fn(**dict(zip(op.inputs, xs)), **kwargs)
        out["value"] = _plain(y.numpy())
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        out["value"] = _error(e)
        return out
    complex_ = dtype.startswith("complex")
    patterns = ((U_FINITE_C, U_ZEROS_C, U_NONFINITE_C) if complex_ else (U_FINITE, U_ZEROS, U_NONFINITE))
    for tag, pattern in zip(("grad", "grad_zero", "grad_nonfinite"), patterns):
        try:
            with tf.GradientTape() as tape:
                for x in xs:
                    tape.watch(x)
                y = fn(**dict(zip(op.inputs, xs)), **kwargs)
            up = tf.constant(_upstream(pattern if y.dtype.is_complex else tuple(
                float(p.real) for p in pattern) if complex_ else pattern, tuple(y.shape)), dtype=y.dtype)
            grads = tape.gradient(y, xs, output_gradients=up)
            out[tag] = [None if g is None else _plain(tf.convert_to_tensor(g).numpy()) for g in grads]
        except Exception as e:  # noqa: BLE001 - a refusal is what is observed
            out[tag] = _error(e)
    return out


def observe(tf: Any, op: Op, dtype: str) -> dict[str, Any]:
    """`op` on its grid in `dtype` on the given tf module: the forward value and both gradients (or
    the class of the error raised); when the forward pass refuses the whole grid, also the same on the
    grid's finite values (key "finite")."""
    complex_ = dtype.startswith("complex")
    out = _observe_on(tf, op, dtype, grid(op, complex_values() if complex_ else VALUES))
    if "error" in out["value"]:
        finite = (complex_values(tuple(v for v in PARTS if np.isfinite(v))) if complex_
                  else tuple(v for v in VALUES if np.isfinite(v)))
        out["finite"] = _observe_on(tf, op, dtype, grid(op, finite))
    return out
