"""NaN operands crossed by rule: which NaN comes out where several operands are NaN of distinct payloads and signs
(sixty-seventh session, nansweep67; test_nansweep67.py).

Written from batches 90/91's survivors `add-n-nan-from-last-input`, `keras-minimum-operands-swapped` and
`keras-outer-operands-swapped`: the suite fed NaN to one operand at a time, or NaNs of one payload, so a swapped
operand order never showed. Every operand here is *tagged*: operand k's NaNs carry k and the element's index in their
payload, half of them negative, some signalling (the quiet bit clear), so the result's bits say which operand's NaN
won at each element (and whether it was quieted).

- nan-binary-<dtype>: every elementwise binary op of tf.math taking two floats × lengths 1, 3, 19, 37 (packets and
  scalar tails) × shapes full, scalar left, scalar right and a row broadcast over [2, n], eager, and traced at 19;
- nan-complex: complex64/128 arithmetic of NaN-tagged parts, tf.complex of two tagged reals;
- nan-operators: + - * / // % ** on tensors, Variables, NumPy NaN scalars and Python NaNs in both orders, and a
  Variable's assign_add/assign_sub of tagged operands;
- nan-nary: add_n of 2..6 inputs, accumulate_n, matmul/einsum/tensordot with NaNs in both factors, bias_add,
  l2_normalize, where with NaN branches, clip_by_value with NaN values and bounds;
- nan-reduce: reductions, cumulative and segment ops over several tagged NaNs along each axis;
- nan-keras: keras.ops' binary, n-ary and reducing equivalents on tagged operands;
- nan-grad: gradients where the tape passes NaNs (maximum/minimum at ties and NaNs, NaN upstream gradients);
- nan-mirrored: the same ops inside a MirroredStrategy replica, and cross-replica reductions of tagged NaNs.

Values are compared by raw bits (raw_bits: a NaN's payload and sign), refusals by error class. Every program is
host-dependent (`nan-`: Eigen's packets and oneDNN's kernels on the recording host's AVX-512 pick the NaN).
`python -m simdist.conformance.suite.test_nansweep67 --record` rewrites nansweep67_reference.json.gz."""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.nansweep67_open import OPEN
from simdist.conformance.suite.raw_bits import raw_bits
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error,
                                                         reference_cpu, rng)

PATH = os.path.join(os.path.dirname(__file__), "nansweep67_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("nan-",), recording_host=avx512_with_onednn,
                       recording_cpu=reference_cpu)
program = registrar(REF, OPEN)

REAL = ("float16", "bfloat16", "float32", "float64")
LENGTHS = (1, 3, 19, 37)

#: per dtype: unsigned view, sign bit, exponent bits, quiet bit, payload bits below the quiet bit
_LAYOUT = {"float32": (np.uint32, 1 << 31, 0x7F800000, 1 << 22, 22),
           "float64": (np.uint64, 1 << 63, 0x7FF0000000000000, 1 << 51, 51),
           "float16": (np.uint16, 1 << 15, 0x7C00, 1 << 9, 9),
           "bfloat16": (np.uint16, 1 << 15, 0x7F80, 1 << 6, 6)}


def _finite_bits(dt: str, vals: np.ndarray) -> np.ndarray:
    """float64 values as dt's bit patterns (bfloat16: float32's upper half, an exact bfloat16)."""
    if dt == "bfloat16":
        return (vals.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return vals.astype(dt).view(_LAYOUT[dt][0])


def tagged_bits(dt: str, shape: tuple[int, ...], k: int, every: int = 3) -> np.ndarray:
    """Bit patterns of a `shape` array of dt for operand k (k >= 1): finite values in ±[0.5, 2), and NaNs at the
    elements i with (i + k) % every != every - 1 whose payload holds k and i (as many low bits as fit), negative
    where i + k is odd, signalling (quiet bit clear) where i % 7 == 5."""
    u, sign, exp, quiet, pbits = _LAYOUT[dt]
    n = int(np.prod(shape))
    r = rng(f"tag {dt} {shape} {k}")
    vals = r.uniform(0.5, 2.0, n) * np.where(r.uniform(size=n) < 0.5, -1.0, 1.0)
    out = _finite_bits(dt, vals).astype(np.uint64)
    ib = max(pbits - 3, 1)   # the index's bits; k takes the 3 above them
    for i in range(n):
        if (i + k) % every == every - 1:
            continue
        payload = ((k & 7) << ib) | (i & ((1 << ib) - 1))
        payload &= quiet - 1
        if payload == 0:
            payload = 1
        b = exp | payload | (0 if i % 7 == 5 else quiet) | (sign if (i + k) % 2 else 0)
        out[i] = b
    return out.astype(u).reshape(shape)


def tagged(tf: Any, dt: str, shape: tuple[int, ...], k: int, every: int = 3) -> Any:
    """A tensor of tagged_bits (exact bits, by bitcast from unsigned integers)."""
    b = tagged_bits(dt, shape, k, every)
    src = tf.constant(b.view(np.int16) if b.dtype == np.uint16 else b)
    return tf.bitcast(src, getattr(tf, dt))


def ctagged(tf: Any, dt: str, shape: tuple[int, ...], k: int) -> Any:
    """A complex tensor whose real part is tagged k and imaginary part tagged k + 4 (NaNs at other elements)."""
    part = "float32" if dt == "complex64" else "float64"
    return tf.complex(tagged(tf, part, shape, k), tagged(tf, part, shape, k + 4, every=4))


def attempt(fn: Callable[[], Any]) -> Any:
    """fn()'s result as raw bits (nests of tensors too), or "raised <class>"."""
    def run() -> Any:
        r = fn()
        if isinstance(r, (list, tuple)):
            return [raw_bits(t) for t in r]
        return raw_bits(r)
    return error(run)


def binary_ops(tf: Any) -> dict[str, Callable[[Any, Any], Any]]:
    """Every elementwise binary op of tf.math that takes two floats."""
    m = tf.math
    return {"add": m.add, "sub": m.subtract, "mul": m.multiply, "truediv": m.truediv, "divide": m.divide,
            "div_no_nan": m.divide_no_nan, "mul_no_nan": m.multiply_no_nan, "floordiv": m.floordiv,
            "floormod": m.floormod, "truncatediv": tf.truncatediv, "truncatemod": tf.truncatemod, "pow": m.pow,
            "maximum": m.maximum, "minimum": m.minimum, "squared_difference": m.squared_difference,
            "atan2": m.atan2, "xdivy": m.xdivy, "xlogy": m.xlogy, "xlog1py": m.xlog1py,
            "nextafter": m.nextafter, "igamma": m.igamma, "zeta": m.zeta, "polygamma": m.polygamma,
            "betainc0.5": lambda x, y: m.betainc(x, y, tf.fill(tf.shape(x + y), tf.constant(0.5, x.dtype)))}


def _forms(tf: Any, dt: str, n: int) -> dict[str, tuple[Any, Any]]:
    """The operand pairs of one length: full, scalar left, scalar right (0-d NaNs of tags 3/4), a [2, n] row
    broadcast against [n]."""
    x, y = tagged(tf, dt, (n,), 1), tagged(tf, dt, (n,), 2)
    s3 = tf.reshape(tagged(tf, dt, (1,), 3), [])   # i = 0, k = 3: a NaN (positive? sign by parity: negative)
    s4 = tf.reshape(tagged(tf, dt, (1,), 4), [])
    return {"full": (x, y), "sl": (s3, y), "sr": (x, s4), "row": (tagged(tf, dt, (2, n), 5), y)}


def _binary(dt: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        ops = binary_ops(tf)
        for n in LENGTHS:
            for form, (x, y) in _forms(tf, dt, n).items():
                for name, f in ops.items():
                    out[f"{name} {n} {form}"] = attempt(lambda: f(x, y))
        for form, (x, y) in _forms(tf, dt, 19).items():
            if form in ("full", "row"):
                for name, f in ops.items():
                    out[f"{name} 19 {form} traced"] = attempt(lambda: tf.function(f)(x, y))
        return out
    return run


def _complex(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    m = tf.math
    ops = {"add": m.add, "sub": m.subtract, "mul": m.multiply, "div": m.truediv, "div_no_nan": m.divide_no_nan,
           "mul_no_nan": m.multiply_no_nan, "squared_difference": m.squared_difference, "pow": m.pow,
           "xdivy": m.xdivy, "xlogy": m.xlogy}
    for dt in ("complex64", "complex128"):
        part = "float32" if dt == "complex64" else "float64"
        for n in (1, 3, 19):
            x, y = ctagged(tf, dt, (n,), 1), ctagged(tf, dt, (n,), 2)
            s = tf.reshape(ctagged(tf, dt, (1,), 3), [])
            for name, f in ops.items():
                out[f"{dt} {name} {n}"] = attempt(lambda: f(x, y))
                out[f"{dt} {name} {n} sl"] = attempt(lambda: f(s, y))
                out[f"{dt} {name} {n} sr"] = attempt(lambda: f(x, s))
            out[f"{dt} complex {n}"] = attempt(lambda: tf.complex(tagged(tf, part, (n,), 1),
                                                                  tagged(tf, part, (n,), 2)))
            out[f"{dt} complex {n} sl"] = attempt(lambda: tf.complex(tf.reshape(tagged(tf, part, (1,), 3), []),
                                                                     tagged(tf, part, (n,), 2)))
            out[f"{dt} add_n {n}"] = attempt(lambda: tf.add_n([x, y, ctagged(tf, dt, (n,), 3)]))
            out[f"{dt} reduce_sum {n}"] = attempt(lambda: tf.reduce_sum(tf.stack([x, y]), 0))
            out[f"{dt} + {n}"] = attempt(lambda: x + y)
            out[f"{dt} * {n}"] = attempt(lambda: x * y)
            out[f"{dt} / {n}"] = attempt(lambda: x / y)
    return out


def _operators(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ops: dict[str, Callable[[Any, Any], Any]] = {
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
        "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b}
    for dt in REAL:
        for n in (3, 19):
            x, y = tagged(tf, dt, (n,), 1), tagged(tf, dt, (n,), 2)
            vx, vy = tf.Variable(x), tf.Variable(y)
            u = _LAYOUT[dt][0]
            npnan = np.array(tagged_bits(dt, (1,), 6)[0], u)
            operands = {"t t": (x, y), "t v": (x, vy), "v t": (vx, y), "v v": (vx, vy),
                        "t nan": (x, float("nan")), "nan t": (float("nan"), y), "t -nan": (x, -float("nan")),
                        "-nan t": (-float("nan"), y)}
            if dt in ("float32", "float64", "float16"):
                operands["t np"] = (x, npnan.view(dt)[()])
                operands["np t"] = (npnan.view(dt)[()], y)
            for oname, (a, b) in operands.items():
                for name, f in ops.items():
                    out[f"{dt} {n} {oname} {name}"] = attempt(lambda: f(a, b))
            for name, f in ops.items():
                out[f"{dt} {n} traced {name}"] = attempt(lambda: tf.function(f)(x, y))
            for meth in ("assign_add", "assign_sub"):
                def write(meth: str = meth) -> Any:
                    v = tf.Variable(x)
                    getattr(v, meth)(y)
                    return v
                out[f"{dt} {n} {meth}"] = attempt(write)
    return out


def _nary(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for dt in REAL:
        for n in (1, 3, 19, 37):
            xs = [tagged(tf, dt, (n,), k, every=2 + k % 3) for k in range(1, 7)]
            for count in range(2, 7):
                out[f"add_n {dt} {n} {count}"] = attempt(lambda: tf.add_n(xs[:count]))
                out[f"add_n {dt} {n} {count} rev"] = attempt(lambda: tf.add_n(xs[:count][::-1]))
                out[f"accumulate_n {dt} {n} {count}"] = attempt(lambda: tf.math.accumulate_n(xs[:count]))
            out[f"add_n {dt} {n} 4 traced"] = attempt(lambda: tf.function(lambda *a: tf.add_n(list(a)))(*xs[:4]))
            out[f"add_n {dt} {n} scalar"] = attempt(lambda: tf.add_n([tf.reshape(xs[0][:1], []), xs[1][0]]))
            x, y = xs[0], xs[1]
            lo, hi = tagged(tf, dt, (n,), 3), tagged(tf, dt, (n,), 4)
            out[f"clip {dt} {n} nan bounds"] = attempt(lambda: tf.clip_by_value(x, lo, hi))
            out[f"clip {dt} {n} scalar nan lo"] = attempt(lambda: tf.clip_by_value(x, lo[0], tf.constant(1, dt)))
            out[f"clip {dt} {n} scalar nan hi"] = attempt(lambda: tf.clip_by_value(x, tf.constant(-1, dt), hi[1]))
            c = tf.constant([i % 2 == 0 for i in range(n)])
            out[f"where {dt} {n}"] = attempt(lambda: tf.where(c, x, y))
            out[f"where nan-cond {dt} {n}"] = attempt(lambda: tf.where(tf.math.is_nan(x), y, x))
            out[f"bias_add {dt} {n}"] = attempt(lambda: tf.nn.bias_add(tagged(tf, dt, (2, n), 5), y))
            out[f"bias_add NCHW {dt} {n}"] = attempt(lambda: tf.nn.bias_add(tagged(tf, dt, (2, n, 3), 5), y,
                                                                            data_format="NCHW"))
            out[f"l2_normalize {dt} {n}"] = attempt(lambda: tf.math.l2_normalize(x))
            out[f"l2_normalize {dt} {n} axis1"] = attempt(lambda: tf.math.l2_normalize(tagged(tf, dt, (2, n), 5), 1))
        for n in (13, 29):   # (tails of 5 past packets of 8, where packets of 16 would leave 13)
            xs = [tagged(tf, dt, (n,), k, every=2 + k % 3) for k in range(1, 7)]
            for count in (3, 5):
                out[f"add_n {dt} {n} {count}"] = attempt(lambda: tf.add_n(xs[:count]))
        for (p, q, r) in ((1, 1, 1), (3, 5, 4), (4, 19, 3), (2, 37, 2)):
            a, b = tagged(tf, dt, (p, q), 1, every=4), tagged(tf, dt, (q, r), 2, every=4)
            out[f"matmul {dt} {p}x{q}x{r}"] = attempt(lambda: tf.matmul(a, b))
            out[f"matmul_bt {dt} {p}x{q}x{r}"] = attempt(lambda: tf.matmul(a, tf.transpose(b), transpose_b=True))
            out[f"einsum {dt} {p}x{q}x{r}"] = attempt(lambda: tf.einsum("ij,jk->ik", a, b))
            out[f"einsum outer {dt} {p}x{q}"] = attempt(lambda: tf.einsum("i,j->ij", a[0], b[:, 0]))
            out[f"einsum dot {dt} {q}"] = attempt(lambda: tf.einsum("i,i->", a[0], b[:, 0]))
            out[f"tensordot {dt} {p}x{q}x{r}"] = attempt(lambda: tf.tensordot(a, b, 1))
            out[f"tensordot0 {dt} {p}x{q}"] = attempt(lambda: tf.tensordot(a[0], b[:, 0], 0))
            out[f"matvec {dt} {p}x{q}"] = attempt(lambda: tf.linalg.matvec(a, b[:, 0]))
    return out


def _reduce(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    m = tf.math
    red = {"sum": tf.reduce_sum, "prod": tf.reduce_prod, "max": tf.reduce_max, "min": tf.reduce_min,
           "mean": tf.reduce_mean, "logsumexp": tf.reduce_logsumexp, "std": m.reduce_std,
           "variance": m.reduce_variance, "euclidean_norm": m.reduce_euclidean_norm}
    for dt in REAL:
        for shape in ((3,), (19,), (37,), (4, 19), (19, 3)):
            x = tagged(tf, dt, shape, 1, every=4)
            axes: tuple[Any, ...] = (None,) if len(shape) == 1 else (None, 0, 1)
            for name, f in red.items():
                for ax in axes:
                    out[f"{name} {dt} {shape} {ax}"] = attempt(lambda: f(x, ax))
            for ax in range(len(shape)):
                for ex in (False, True):
                    for rv in (False, True):
                        out[f"cumsum {dt} {shape} {ax} {ex} {rv}"] = attempt(
                            lambda: m.cumsum(x, ax, exclusive=ex, reverse=rv))
                        out[f"cumprod {dt} {shape} {ax} {ex} {rv}"] = attempt(
                            lambda: m.cumprod(x, ax, exclusive=ex, reverse=rv))
                out[f"cumulative_logsumexp {dt} {shape} {ax}"] = attempt(lambda: m.cumulative_logsumexp(x, ax))
            rows = shape[0]
            ids = tf.constant(sorted(i * 3 // rows for i in range(rows)))
            uids = tf.constant([(i * 5) % 3 for i in range(rows)])
            for name in ("sum", "max", "min", "prod", "mean"):
                out[f"segment_{name} {dt} {shape}"] = attempt(lambda: getattr(m, f"segment_{name}")(x, ids))
            for name in ("sum", "max", "min", "prod"):
                out[f"unsorted_segment_{name} {dt} {shape}"] = attempt(
                    lambda: getattr(m, f"unsorted_segment_{name}")(x, uids, 3))
            out[f"unsorted_segment_mean {dt} {shape}"] = attempt(lambda: m.unsorted_segment_mean(x, uids, 3))
            out[f"unsorted_segment_sqrt_n {dt} {shape}"] = attempt(lambda: m.unsorted_segment_sqrt_n(x, uids, 3))
        x = tagged(tf, dt, (19,), 1, every=4)
        for name, f in red.items():
            out[f"{name} {dt} traced"] = attempt(lambda: tf.function(f)(x))
    return out


def _keras(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    ops = tf.keras.ops
    binary = ("add", "subtract", "multiply", "divide", "true_divide", "maximum", "minimum", "power", "mod",
              "floor_divide", "outer", "dot", "matmul", "inner", "kron", "hypot", "copysign", "arctan2", "fmod",
              "logaddexp", "nextafter", "divide_no_nan", "squared_difference", "heaviside", "vdot", "cross")
    for dt in REAL:
        for n in (19,):
            x, y = tagged(tf, dt, (n,), 1), tagged(tf, dt, (n,), 2)
            s = tf.reshape(tagged(tf, dt, (1,), 3), [])
            for name in binary:
                f = getattr(ops, name, None)
                if f is None:
                    out[f"{name}"] = "absent"
                    continue
                out[f"{name} {dt} {n}"] = attempt(lambda: f(x, y))
                out[f"{name} {dt} {n} sl"] = attempt(lambda: f(s, y))
                out[f"{name} {dt} {n} sr"] = attempt(lambda: f(x, s))
            a, b = tagged(tf, dt, (2, n), 4, every=4), tagged(tf, dt, (n, 3), 5, every=4)
            out[f"matmul {dt} 2x{n}x3"] = attempt(lambda: ops.matmul(a, b))
            out[f"dot {dt} 2x{n}x3"] = attempt(lambda: ops.dot(a, b))
            out[f"einsum {dt} 2x{n}x3"] = attempt(lambda: ops.einsum("ij,jk->ik", a, b))
            out[f"einsum mul {dt} {n}"] = attempt(lambda: ops.einsum("i,i->i", x, y))
            out[f"tensordot {dt} {n}"] = attempt(lambda: ops.tensordot(a, b, 1))
            c3a, c3b = tagged(tf, dt, (n, 3), 1), tagged(tf, dt, (n, 3), 2)
            out[f"cross {dt} {n}x3"] = attempt(lambda: ops.cross(c3a, c3b))
            out[f"where {dt} {n}"] = attempt(lambda: ops.where(ops.less(x, y), x, y))
            out[f"clip {dt} {n}"] = attempt(lambda: ops.clip(x, -1.0, 1.0))
            out[f"clip nan bound {dt} {n}"] = attempt(lambda: ops.clip(x, s, 1.0))
            for name in ("max", "min", "sum", "prod", "mean", "logsumexp", "amax", "amin", "var", "std",
                         "cumsum", "cumprod", "nanmax", "nanmin", "nansum"):
                f = getattr(ops, name, None)
                if f is None:
                    out[f"{name}"] = "absent"
                    continue
                out[f"{name} {dt} {n}"] = attempt(lambda: f(x))
                out[f"{name} {dt} 2x{n} axis0"] = attempt(lambda: f(a, axis=0))
            out[f"add_n-like stack sum {dt} {n}"] = attempt(lambda: ops.sum(ops.stack([x, y, s + x]), axis=0))
    return out


def _grad(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    m = tf.math
    ops = {"maximum": m.maximum, "minimum": m.minimum, "mul": m.multiply, "add": m.add, "sub": m.subtract,
           "div": m.truediv, "squared_difference": m.squared_difference, "pow": m.pow, "atan2": m.atan2,
           "xlogy": m.xlogy, "div_no_nan": m.divide_no_nan}
    for dt in ("float16", "bfloat16", "float32", "float64"):
        for n in (19,):
            x, y = tagged(tf, dt, (n,), 1), tagged(tf, dt, (n,), 2)
            tie = tf.concat([x[: n // 2], tf.cast(tf.linspace(1.0, 2.0, n - n // 2), dt)], 0)
            up = tagged(tf, dt, (n,), 3, every=2)
            for name, f in ops.items():
                for uname, upstream in (("ones", None), ("nan", up)):
                    for (pn, a, b) in (("xy", x, y), ("tie", tie, tie), ("x tie", x, tie)):
                        def g() -> Any:
                            with tf.GradientTape() as tape:
                                tape.watch([a, b])
                                r = f(a, b)
                            return tape.gradient(r, [a, b], output_gradients=upstream)
                        out[f"{name} {dt} {n} {pn} {uname}"] = attempt(g)
                s = tf.reshape(tagged(tf, dt, (1,), 4), [])

                def gs() -> Any:
                    with tf.GradientTape() as tape:
                        tape.watch([x, s])
                        r = f(x, s)
                    return tape.gradient(r, [x, s], output_gradients=up)
                out[f"{name} {dt} {n} scalar right nan"] = attempt(gs)
            for count in (2, 4):
                xs = [tagged(tf, dt, (n,), k) for k in range(1, count + 1)]

                def gn() -> Any:
                    with tf.GradientTape() as tape:
                        tape.watch(xs)
                        r = tf.add_n(xs)
                    return tape.gradient(r, xs, output_gradients=up)
                out[f"add_n {dt} {n} {count}"] = attempt(gn)

            def gr() -> Any:
                with tf.GradientTape() as tape:
                    tape.watch(x)
                    r = tf.reduce_max(x) + tf.reduce_sum(x * y)
                return tape.gradient(r, x)
            out[f"reduce {dt} {n}"] = attempt(gr)
    return out


def _mirrored(tf: Any, mk: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    s = mk()
    m = tf.math
    for dt in ("float16", "bfloat16", "float32", "float64"):
        for n in (3, 19):
            per = s.experimental_distribute_values_from_function(
                lambda ctx, dt=dt, n=n: tagged(tf, dt, (n,), 1 + ctx.replica_id_in_sync_group))
            y = tagged(tf, dt, (n,), 5)

            def step(v: Any) -> Any:
                ctx = tf.distribute.get_replica_context()
                return {"add": v + y, "radd": y + v, "max": m.maximum(v, y), "min": m.minimum(y, v),
                        "sqd": m.squared_difference(v, y), "add_n": tf.add_n([v, y, v]),
                        "sum": ctx.all_reduce(tf.distribute.ReduceOp.SUM, v),
                        "mean": ctx.all_reduce(tf.distribute.ReduceOp.MEAN, v)}
            res = s.run(step, args=(per,))
            for k in sorted(res):
                out[f"{dt} {n} {k}"] = error(lambda: [raw_bits(t) for t in s.experimental_local_results(res[k])])
            for op in ("SUM", "MEAN"):
                out[f"{dt} {n} reduce {op}"] = attempt(
                    lambda: s.reduce(getattr(tf.distribute.ReduceOp, op), per, axis=None))
                out[f"{dt} {n} reduce {op} axis0"] = attempt(
                    lambda: s.reduce(getattr(tf.distribute.ReduceOp, op), per, axis=0))
            out[f"{dt} {n} traced run"] = error(lambda: [raw_bits(t) for t in s.experimental_local_results(
                tf.function(lambda p: s.run(lambda v: m.maximum(v, y) + m.minimum(y, v), args=(p,)))(per))])
    return out


for _dt in REAL:
    program(f"nan-binary-{_dt}", _binary(_dt))
program("nan-complex", _complex)
program("nan-operators", _operators)
program("nan-nary", _nary)
program("nan-reduce", _reduce)
program("nan-keras", _keras)
program("nan-grad", _grad)
program("nan-mirrored", _mirrored)
