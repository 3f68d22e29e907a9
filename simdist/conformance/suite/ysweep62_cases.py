"""Keras's dtype promotion, weak Python numbers, keras.Variable's operators and the attention functions and layers
crossed by rule (sixty-second session, ysweep62; test_ysweep62.py), against TF 2.21's recorded results, floats by
their bits, refusals by exception class.

What is crossed (blind80's gaps module takes each of batch 80's survivors in one program; osweep61 takes keras.ops'
image/nn/math functions at their options, not their operand kinds):
- y-promo-lattice: keras.ops.add of every pair of tensor dtypes (int8..int64, uint8..uint32, float16, bfloat16,
  float32, float64, bool), and of each tensor dtype with each Python number (int, float, bool, complex), NumPy scalar
  (float64, float32, float16, int64, int32, uint8, bool) and NumPy array (float64, int64, int8, uint16, bool), in both
  orders: the result's dtype and bits (Keras's result_type lattice, its weak types and floatx's precision);
- y-promo-<fn>: 22 binary functions (subtract, multiply, divide, true_divide, floor_divide, mod, power, maximum,
  minimum, arctan2, hypot, matmul, dot, where's two branches, clip's bounds, logaddexp, greater, equal,
  logical_and, copysign, heaviside, nextafter) × tensor dtypes × Python int/float/bool in both orders and a few mixed
  tensor pairs;
- y-var-ops-<dtype>: a keras.Variable of float16/bfloat16/float32/float64/int8/int32/int64/uint8/bool × its Python
  operators (+ - * / // % ** @, unary -, abs, comparisons) with a Python int, float and bool, a float32 and an int32
  tensor and a float16 variable in both orders, np.asarray, float()/int() of scalar variables; and the same operators
  read inside a layer's call under mixed_float16 and mixed_bfloat16 (autocast on and off);
- y-attn-dpa-<dtype>: keras.ops.dot_product_attention × scale omitted/given × is_causal × bool masks × a bias ×
  head sizes 1, 3, 8, 13 × query/key lengths equal and not × flash_attention None/False, float16/bfloat16/float32/
  float64, rank 3 and 4;
- y-attn-mha: MultiHeadAttention × num_heads/key_dim/value_dim × use_bias off × output_shape (int, tuple) ×
  attention_axes (1,), (2,), (1, 2) on rank-4 inputs × dropout in training (seeded) × return_attention_scores ×
  attention_mask and use_causal_mask × distinct key × float64/mixed_float16/mixed_bfloat16; Attention (use_scale,
  score_mode dot/concat, causal, masks), AdditiveAttention (use_scale), GroupQueryAttention (heads 4/2, 2/1);
- y-summary: summaries of models whose layers hold 999 … 12,345,678 parameters (the separators) and whose totals
  reach kilobytes, megabytes and gigabytes (the byte sizes), float16/float64/int variables and non-trainable ones.

Weights are assigned seeded quarters after the build and inputs are quarters (rng arithmetic), so the products of
these sizes are exact; the attention programs are host-dependent all the same (softmax and half-type arithmetic go
through oneDNN/Eigen's vector paths on the recording host, `yk-`). `python -m simdist.conformance.suite.test_ysweep62
--record` rewrites ysweep62_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "ysweep62_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("yk-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-second session ... ysweep62").
OPEN: dict[str, tuple[str, ...]] = {}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def res(fn: Callable[[], Any]) -> Any:
    """fn()'s tensor as [dtype, shape, bits...], or the refusal's class."""
    try:
        y = fn()
        dt = getattr(y, "dtype", None)
        name = dt if isinstance(dt, str) else getattr(dt, "name", type(y).__name__)
        a = np.asarray(y)
        if a.dtype.kind == "c":
            return [str(name), list(a.shape)] + bits(a.real) + bits(a.imag)
        return [str(name), list(a.shape)] + bits(a)
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


TENSOR_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "float16", "bfloat16", "float32",
                 "float64", "bool")


def values(name: str, dt: str, shape: tuple[int, ...] = (4,), nonzero: bool = False) -> np.ndarray:
    """Seeded operands: small integers for integer dtypes (nonzero for divisors), quarters in [-3, 3] for floats."""
    r = rng(f"{name}/{dt}/{shape}")
    if dt == "bool":
        return r.randint(0, 2, shape).astype(bool)
    if dt.startswith("uint"):
        return r.randint(1 if nonzero else 0, 8, shape).astype(dt)
    if dt.startswith("int"):
        v = r.randint(-4, 5, shape)
        if nonzero:
            v = np.where(v == 0, 3, v)
        return v.astype(dt)
    v = r.randint(-12, 13, shape) / 4.0
    if nonzero:
        v = np.where(v == 0, 0.75, v)
    return v.astype("float32" if dt == "bfloat16" else dt)


def tensor(tf: Any, name: str, dt: str, shape: tuple[int, ...] = (4,), nonzero: bool = False) -> Any:
    return tf.cast(tf.constant(values(name, dt, shape, nonzero)), dt)


PY = {"py-int": 3, "py-float": 0.1, "py-bool": True, "py-complex": 1.5 - 0.5j, "py-neg-int": -2,
      "py-float-third": 1.0 / 3.0}
NP_SCALARS = {"np-f64": np.float64(0.1), "np-f32": np.float32(0.1), "np-f16": np.float16(0.5), "np-i64": np.int64(3),
              "np-i32": np.int32(-2), "np-u8": np.uint8(5), "np-bool": np.bool_(True)}


def np_arrays() -> dict[str, np.ndarray]:
    return {"nparr-f64": values("nparr", "float64") + 0.1, "nparr-i64": values("nparr", "int64"),
            "nparr-i8": values("nparr", "int8"), "nparr-u16": values("nparr", "uint16"),
            "nparr-bool": values("nparr", "bool"), "nparr-f32": values("nparr", "float32") + np.float32(0.1)}


# -- the lattice: add of every operand kind pair ----------------------------------------------------------------------
def _lattice(tf: Any) -> Any:
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    ts = {dt: tensor(tf, "lat-a", dt) for dt in TENSOR_DTYPES}
    us = {dt: tensor(tf, "lat-b", dt) for dt in TENSOR_DTYPES}
    for a in TENSOR_DTYPES:
        for b in TENSOR_DTYPES:
            out[f"{a}+{b}"] = res(lambda a=a, b=b: ops.add(ts[a], us[b]))
    others: dict[str, Any] = {**PY, **NP_SCALARS, **np_arrays()}
    for a in TENSOR_DTYPES:
        for k, o in others.items():
            out[f"{a}+{k}"] = res(lambda a=a, o=o: ops.add(ts[a], o))
            out[f"{k}+{a}"] = res(lambda a=a, o=o: ops.add(o, ts[a]))
    for k, o in others.items():
        for k2, o2 in list(PY.items())[:3] + list(NP_SCALARS.items())[:2]:
            out[f"{k}+{k2}"] = res(lambda o=o, o2=o2: ops.add(o, o2))
    return out


program("y-promo-lattice", _lattice)

BINARY: dict[str, Callable[[Any, Any, Any], Any]] = {
    "subtract": lambda o, a, b: o.subtract(a, b),
    "multiply": lambda o, a, b: o.multiply(a, b),
    "divide": lambda o, a, b: o.divide(a, b),
    "true_divide": lambda o, a, b: o.true_divide(a, b),
    "floor_divide": lambda o, a, b: o.floor_divide(a, b),
    "mod": lambda o, a, b: o.mod(a, b),
    "power": lambda o, a, b: o.power(a, b),
    "maximum": lambda o, a, b: o.maximum(a, b),
    "minimum": lambda o, a, b: o.minimum(a, b),
    "arctan2": lambda o, a, b: o.arctan2(a, b),
    "hypot": lambda o, a, b: o.hypot(a, b),
    "matmul": lambda o, a, b: o.matmul(a, b),
    "dot": lambda o, a, b: o.dot(a, b),
    "where": lambda o, a, b: o.where(o.convert_to_tensor([True, False, True, False]), a, b),
    "clip": lambda o, a, b: o.clip(o.convert_to_tensor([-2, 0, 1, 5], "int32"), a, b),
    "logaddexp": lambda o, a, b: o.logaddexp(a, b),
    "greater": lambda o, a, b: o.greater(a, b),
    "equal": lambda o, a, b: o.equal(a, b),
    "logical_and": lambda o, a, b: o.logical_and(a, b),
    "copysign": lambda o, a, b: o.copysign(a, b),
    "heaviside": lambda o, a, b: o.heaviside(a, b),
    "nextafter": lambda o, a, b: o.nextafter(a, b),
}
FN_DTYPES = ("int8", "uint8", "int32", "int64", "uint32", "float16", "bfloat16", "float32", "float64", "bool")
FN_PY = {"py-int": 3, "py-float": 0.1, "py-bool": True, "np-f64": np.float64(0.1)}
FN_PAIRS = (("int8", "uint8"), ("int32", "float16"), ("bfloat16", "float16"), ("int64", "float32"),
            ("uint32", "int32"), ("bool", "int8"), ("float32", "float64"), ("int16", "bfloat16"))


def _binary_fn(fn_name: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        ops = tf.keras.ops
        f = BINARY[fn_name]
        nz = fn_name in ("divide", "true_divide", "floor_divide", "mod")
        out: dict[str, Any] = {}
        for a in FN_DTYPES:
            ta = tensor(tf, f"fn-a/{fn_name}", a, nonzero=nz)
            for k, o in FN_PY.items():
                out[f"{a},{k}"] = res(lambda ta=ta, o=o: f(ops, ta, o))
                out[f"{k},{a}"] = res(lambda ta=ta, o=o: f(ops, o, ta))
        for a, b in FN_PAIRS:
            ta = tensor(tf, f"fn-pa/{fn_name}", a, nonzero=nz)
            tb = tensor(tf, f"fn-pb/{fn_name}", b, nonzero=nz)
            out[f"{a},{b}"] = res(lambda ta=ta, tb=tb: f(ops, ta, tb))
            out[f"{b},{a}"] = res(lambda ta=ta, tb=tb: f(ops, tb, ta))
        return out
    return run


for _fn in BINARY:
    program(f"y-promo-{_fn}", _binary_fn(_fn))


UNARY = ("negative", "abs", "absolute", "sqrt", "square", "exp", "log", "log1p", "sin", "tanh", "floor", "ceil",
         "round", "sign", "reciprocal", "trunc", "isnan", "isfinite", "logical_not", "cbrt", "arctan", "exp2",
         "rsqrt", "sigmoid", "relu", "softplus")
UNARY_OPERANDS = TENSOR_DTYPES + ("py-int", "py-float", "py-bool", "np-f64", "np-i32", "nparr-i8", "nparr-u16")


def _unary(tf: Any) -> Any:
    """keras.ops unary functions over tensors of every dtype, Python numbers and NumPy values: the result dtype (an
    integer or bool argument's float result type, or its own) and bits, or the refusal's class."""
    ops = tf.keras.ops
    out: dict[str, Any] = {}
    py = {"py-int": 3, "py-float": 0.1, "py-bool": True, "np-f64": np.float64(2.5), "np-i32": np.int32(4),
          "nparr-i8": values("un", "int8"), "nparr-u16": values("un", "uint16")}
    for fn in UNARY:
        f = getattr(ops, fn, None) or getattr(ops.nn, fn, None)
        for k in UNARY_OPERANDS:
            def one(k: str = k, f: Any = f) -> Any:
                a = py[k] if k in py else tensor(tf, f"un/{k}", k)
                return f(a)
            out[f"{fn} {k}"] = res(one)
    return out


program("yk-promo-unary", _unary)


# -- keras.Variable's operators ---------------------------------------------------------------------------------------
VAR_DTYPES = ("float16", "bfloat16", "float32", "float64", "int8", "int32", "int64", "uint8", "bool")
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b, "/": lambda a, b: a / b,
    "//": lambda a, b: a // b, "%": lambda a, b: a % b, "**": lambda a, b: a ** b,
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "&": lambda a, b: a & b, "|": lambda a, b: a | b,
}


def _var_ops(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        keras = tf.keras
        out: dict[str, Any] = {}
        nz = values(f"var/{dt}", dt, nonzero=True)
        v = keras.Variable(nz.astype(dt) if dt != "bfloat16" else nz, dtype=dt, name=f"v_{dt}")
        others: dict[str, Any] = {"py-int": 3, "py-float": 0.1, "py-bool": True,
                                  "t-f32": tensor(tf, "var-o", "float32", nonzero=True),
                                  "t-i32": tensor(tf, "var-o", "int32", nonzero=True),
                                  "v-f16": keras.Variable(values("var-v16", "float16", nonzero=True), dtype="float16",
                                                          name="o16")}
        for op, f in OPERATORS.items():
            for k, o in others.items():
                out[f"v{op}{k}"] = res(lambda f=f, o=o: f(v, o))
                out[f"{k}{op}v"] = res(lambda f=f, o=o: f(o, v))
        m = keras.Variable(values(f"varm/{dt}", dt, (2, 2)), dtype=dt, name=f"m_{dt}")
        out["m@m"] = res(lambda: m @ m)
        out["m@t-f32"] = res(lambda: m @ tensor(tf, "var-m", "float32", (2, 2)))
        out["t-i32@m"] = res(lambda: tensor(tf, "var-m", "int32", (2, 2)) @ m)
        out["-v"] = res(lambda: -v)
        out["abs(v)"] = res(lambda: abs(v))
        out["~v"] = res(lambda: ~v)
        out["np.asarray"] = res(lambda: np.asarray(v))
        out["np.asarray f64"] = res(lambda: np.asarray(v, dtype="float64"))
        s = keras.Variable(np.array(values(f"vars/{dt}", dt, (1,))[0]), dtype=dt, name=f"s_{dt}")
        for conv in (float, int, bool):
            def c(conv: Any = conv) -> Any:
                x = conv(s)
                return [type(x).__name__, float(x).hex()]
            out[f"{conv.__name__}(s)"] = _plain(c)
        out["v.dtype"] = str(v.dtype)
        return out
    return run


def _plain(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return f"raised {type(e).__name__}"


for _dt in VAR_DTYPES:
    program(f"y-var-ops-{_dt}", _var_ops(_dt))


def _var_autocast(tf: Any) -> Any:
    """Variables of a layer under mixed_float16 / mixed_bfloat16 (autocast on and off) read by operators and keras.ops
    inside its call: the results' dtypes and bits."""
    keras = tf.keras
    out: dict[str, Any] = {}

    class Probe(keras.layers.Layer):
        def build(self, shape: Any) -> None:
            self.w = self.add_weight(shape=(4,), initializer="zeros", name="w")
            self.n = self.add_weight(shape=(4,), initializer="zeros", name="n", autocast=False)
            self.i = self.add_weight(shape=(4,), initializer="zeros", name="i", dtype="int32", trainable=False)

        def call(self, x: Any) -> Any:
            o = keras.ops
            r: dict[str, Any] = {}
            for nm, var in (("w", self.w), ("n", self.n), ("i", self.i)):
                fs: dict[str, Callable[[], Any]] = {
                    f"{nm}+x": lambda: var + x, f"x*{nm}": lambda: x * var, f"{nm}/2": lambda: var / 2,
                    f"{nm}*0.1": lambda: var * 0.1, f"3-{nm}": lambda: 3 - var, f"{nm}**2": lambda: var ** 2,
                    f"{nm}>x": lambda: var > x, f"-{nm}": lambda: -var, f"ops.add({nm},x)": lambda: o.add(var, x),
                    f"ops.multiply({nm},1.5)": lambda: o.multiply(var, 1.5),
                    f"ops.matmul({nm})": lambda: o.matmul(o.reshape(x, (1, 4)), o.reshape(var, (4, 1))),
                    f"{nm}.value": lambda: var.value, f"convert({nm})": lambda: o.convert_to_tensor(var),
                    f"{nm}*x16": lambda: var * o.cast(x, "float16"), f"{nm}+int": lambda: var + 2,
                }
                for key, f in fs.items():
                    r[key] = res(f)
            return r

    for pol in ("mixed_float16", "mixed_bfloat16", "float32", "float64"):
        lay = Probe(dtype=pol, name=f"probe_{pol}")
        x = values("autocast-x", "float32")
        lay.build((4,))
        lay.w.assign(values("autocast-w", "float32", nonzero=True))
        lay.n.assign(values("autocast-n", "float32", nonzero=True))
        lay.i.assign(values("autocast-i", "int32", nonzero=True))
        out[pol] = _plain(lambda: lay(x))
        out[f"{pol} dtypes"] = [str(lay.w.dtype), str(lay.n.dtype), str(lay.i.dtype), str(lay.compute_dtype)]
    return out




def _nested_autocast(tf: Any) -> Any:
    """A mixed_float16/mixed_bfloat16 layer reading its variable before and after calling a float32 and a float64
    sub-layer (each call its own autocast scope, the outer one restored on exit): dtypes and bits."""
    keras = tf.keras
    out: dict[str, Any] = {}

    class Outer(keras.layers.Layer):
        def __init__(self, inner_dtype: str, **kw: Any) -> None:
            super().__init__(**kw)
            self.inner = keras.layers.Dense(4, kernel_initializer="ones", dtype=inner_dtype, name="inner")

        def build(self, shape: Any) -> None:
            self.w = self.add_weight(shape=(4,), initializer="ones", name="w")

        def call(self, x: Any) -> Any:
            before = self.w * 0.1
            mid = self.inner(x)
            after = self.w * 0.1
            return before, mid, after, self.w + 0

    for pol in ("mixed_float16", "mixed_bfloat16"):
        for inner in ("float32", "float64", "mixed_float16"):
            def f(pol: str = pol, inner: str = inner) -> Any:
                lay = Outer(inner, dtype=pol, name=f"outer_{pol}_{inner}")
                return [res(lambda t=t: t) for t in lay(values("nest-x", "float32", (2, 4)))]
            out[f"{pol} inner {inner}"] = _plain(f)
    return out


program("y-var-autocast", _var_autocast)
program("y-var-nested-autocast", _nested_autocast)


# -- dot_product_attention --------------------------------------------------------------------------------------------
def _dpa(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        ops = tf.keras.ops
        out: dict[str, Any] = {}
        for d in (1, 3, 8, 13):
            for (tq, tk) in ((4, 4), (3, 5)):
                shp = lambda t: (2, t, 2, d)  # noqa: E731 - (batch, seq, heads, head_dim)
                q = tensor(tf, f"dpa-q/{d}/{tq}", dt, shp(tq))
                k = tensor(tf, f"dpa-k/{d}/{tk}", dt, shp(tk))
                v = tensor(tf, f"dpa-v/{d}/{tk}", dt, shp(tk))
                bias = tensor(tf, f"dpa-b/{tq}/{tk}", dt, (2, 2, tq, tk))
                mask = tf.constant(rng(f"dpa-m/{tq}/{tk}").randint(0, 4, (2, 2, tq, tk)) > 0)
                mask1 = tf.constant(rng(f"dpa-m1/{tk}").randint(0, 3, (1, 1, 1, tk)) > 0)
                base = f"d{d} q{tq} k{tk}"
                cases: dict[str, Callable[[], Any]] = {
                    "": lambda: ops.dot_product_attention(q, k, v),
                    " scale=0.3": lambda: ops.dot_product_attention(q, k, v, scale=0.3),
                    " scale=1": lambda: ops.dot_product_attention(q, k, v, scale=1),
                    " causal": lambda: ops.dot_product_attention(q, k, v, is_causal=True),
                    " mask": lambda: ops.dot_product_attention(q, k, v, mask=mask),
                    " mask1 causal": lambda: ops.dot_product_attention(q, k, v, mask=mask1, is_causal=True),
                    " bias": lambda: ops.dot_product_attention(q, k, v, bias=bias),
                    " bias mask scale": lambda: ops.dot_product_attention(q, k, v, bias=bias, mask=mask, scale=0.5),
                    " flash False": lambda: ops.dot_product_attention(q, k, v, flash_attention=False),
                    " flash True": lambda: ops.dot_product_attention(q, k, v, flash_attention=True),
                    " float mask": lambda: ops.dot_product_attention(q, k, v, mask=tf.cast(mask, dt)),
                }
                for nm, f in cases.items():
                    out[base + nm] = res(f)
        q3 = tensor(tf, "dpa-r3", dt, (2, 4, 3))
        out["rank3"] = res(lambda: ops.dot_product_attention(q3, q3, q3))
        q32 = tensor(tf, "dpa-mixed", "float32", (1, 3, 1, 4))
        qd = tensor(tf, "dpa-mixed", dt, (1, 3, 1, 4))
        out["mixed q f32"] = res(lambda: ops.dot_product_attention(q32, qd, qd))
        return out
    return run


for _dt in ("float16", "bfloat16", "float32", "float64"):
    program(f"yk-attn-dpa-{_dt}", _dpa(_dt))


def _seed_weights(layer: Any, name: str) -> None:
    """Every weight of a built layer set to seeded quarters in [-1, 1] (exact products at these sizes)."""
    ws = layer.get_weights()
    layer.set_weights([(rng(f"w/{name}/{i}").randint(-4, 5, w.shape) / 4.0).astype(w.dtype) for i, w in
                       enumerate(ws)])


def _mha(tf: Any) -> Any:
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    x3 = values("mha-x", "float32", (2, 4, 6))
    y3 = values("mha-y", "float32", (2, 5, 6))
    z3 = values("mha-z", "float32", (2, 5, 3))
    x4 = values("mha-x4", "float32", (2, 3, 4, 6))
    y4 = values("mha-y4", "float32", (2, 2, 5, 6))
    mask = rng("mha-mask").randint(0, 3, (2, 4, 5)) > 0
    vmask = np.array([[True] * 5, [True, True, True, False, False]])

    def run(nm: str, kw: dict[str, Any], args: tuple[Any, ...], ckw: dict[str, Any] | None = None) -> None:
        def f() -> Any:
            lay = L.MultiHeadAttention(name=f"mha_{len(out)}", **kw)
            lay(*args, **{k: v for k, v in (ckw or {}).items() if k not in ("training",)})
            _seed_weights(lay, nm)
            got = lay(*args, **(ckw or {}))
            r = {"shapes": [list(w.shape) for w in lay.weights], "dtypes": sorted({str(w.dtype) for w in lay.weights})}
            if isinstance(got, tuple):
                r["y"], r["scores"] = res(lambda: got[0]), res(lambda: got[1])
            else:
                r["y"] = res(lambda: got)
            return r
        out[nm] = _plain(f)

    run("h2 k3", dict(num_heads=2, key_dim=3), (x3, y3))
    run("h1 k1", dict(num_heads=1, key_dim=1), (x3, y3))
    run("h3 k2 v4", dict(num_heads=3, key_dim=2, value_dim=4), (x3, y3))
    run("no bias", dict(num_heads=2, key_dim=3, use_bias=False), (x3, y3))
    run("out 7", dict(num_heads=2, key_dim=3, output_shape=7), (x3, y3))
    run("out (2, 3)", dict(num_heads=2, key_dim=3, output_shape=(2, 3)), (x3, y3))
    run("key z", dict(num_heads=2, key_dim=3), (x3, y3, z3))
    run("scores", dict(num_heads=2, key_dim=3), (x3, y3), {"return_attention_scores": True})
    run("mask", dict(num_heads=2, key_dim=3), (x3, y3), {"attention_mask": mask, "return_attention_scores": True})
    run("causal", dict(num_heads=2, key_dim=3), (x3, x3), {"use_causal_mask": True, "return_attention_scores": True})
    run("causal q4 k5", dict(num_heads=2, key_dim=3), (x3, y3), {"use_causal_mask": True})
    run("causal mask", dict(num_heads=2, key_dim=3), (x3, y3), {"use_causal_mask": True, "attention_mask": mask})
    for ax in ((1,), (2,), (1, 2)):
        run(f"axes {ax}", dict(num_heads=2, key_dim=3, attention_axes=ax), (x4, y4 if ax == (2,) else x4),
            {"return_attention_scores": True})
        run(f"axes {ax} no bias out 5", dict(num_heads=2, key_dim=2, attention_axes=ax, use_bias=False,
                                              output_shape=5), (x4, x4))
    run("dropout train", dict(num_heads=2, key_dim=3, dropout=0.5, seed=7), (x3, y3), {"training": True})
    run("dropout infer", dict(num_heads=2, key_dim=3, dropout=0.5, seed=7), (x3, y3), {"training": False})
    for pol in ("float64", "mixed_float16", "mixed_bfloat16", "bfloat16"):
        run(f"{pol}", dict(num_heads=2, key_dim=3, dtype=pol), (x3, y3), {"return_attention_scores": True})
        run(f"{pol} no bias causal", dict(num_heads=2, key_dim=5, dtype=pol, use_bias=False), (x3, x3),
            {"use_causal_mask": True})
    run("f16 query", dict(num_heads=2, key_dim=3), (x3.astype("float16"), y3))
    run("f64 inputs", dict(num_heads=2, key_dim=3), (x3.astype("float64"), y3.astype("float64")))

    # Attention / AdditiveAttention / GroupQueryAttention
    q = values("att-q", "float32", (2, 4, 3))
    v = values("att-v", "float32", (2, 5, 3))
    k = values("att-k", "float32", (2, 5, 3))
    qm = np.array([[True, True, True, False], [True] * 4])

    def att(nm: str, cls: Any, kw: dict[str, Any], args: list[Any], ckw: dict[str, Any] | None = None) -> None:
        def f() -> Any:
            lay = cls(name=f"att_{len(out)}", **kw)
            lay(args, **{k_: v_ for k_, v_ in (ckw or {}).items() if k_ != "training"})
            if lay.get_weights():
                lay.set_weights([np.full(w.shape, 0.75, w.dtype) for w in lay.get_weights()])
            got = lay(args, **(ckw or {}))
            if isinstance(got, (tuple, list)):
                return [res(lambda g=g: g) for g in got]
            return res(lambda: got)
        out[nm] = _plain(f)

    for sm in ("dot", "concat"):
        for us in (False, True):
            att(f"Attention {sm} scale={us}", L.Attention, dict(score_mode=sm, use_scale=us), [q, v, k])
        att(f"Attention {sm} causal scores", L.Attention, dict(score_mode=sm), [q, v],
            {"use_causal_mask": True, "return_attention_scores": True})
        att(f"Attention {sm} masks", L.Attention, dict(score_mode=sm), [q, v, k], {"mask": [qm, vmask]})
        att(f"Attention {sm} masks causal", L.Attention, dict(score_mode=sm), [q, v, k],
            {"mask": [qm, vmask], "use_causal_mask": True, "return_attention_scores": True})
        att(f"Attention {sm} value mask causal", L.Attention, dict(score_mode=sm), [q, v],
            {"mask": [None, vmask], "use_causal_mask": True})
        att(f"Attention {sm} dropout", L.Attention, dict(score_mode=sm, dropout=0.5, seed=3), [q, v],
            {"training": True})
        att(f"Attention {sm} f64", L.Attention, dict(score_mode=sm, dtype="float64", use_scale=True), [q, v])
        att(f"Attention {sm} mixed16", L.Attention, dict(score_mode=sm, dtype="mixed_float16", use_scale=True),
            [q, v])
    for us in (False, True):
        att(f"Additive scale={us}", L.AdditiveAttention, dict(use_scale=us), [q, v, k], {"mask": [qm, vmask]})
        att(f"Additive scale={us} causal scores", L.AdditiveAttention, dict(use_scale=us), [q, v],
            {"use_causal_mask": True, "return_attention_scores": True})
    if hasattr(L, "GroupQueryAttention"):
        qg = values("gqa-q", "float32", (2, 4, 6))
        vg = values("gqa-v", "float32", (2, 5, 6))
        for nq, nkv in ((4, 2), (2, 1), (2, 2)):
            def gqa(nq: int = nq, nkv: int = nkv, **ckw: Any) -> Any:
                lay = L.GroupQueryAttention(head_dim=3, num_query_heads=nq, num_key_value_heads=nkv,
                                            name=f"gqa_{nq}_{nkv}")
                lay(qg, vg)
                _seed_weights(lay, f"gqa{nq}{nkv}")
                got = lay(qg, vg, **ckw)
                if isinstance(got, tuple):
                    return [res(lambda g=g: g) for g in got]
                return res(lambda: got)
            out[f"gqa {nq}/{nkv}"] = _plain(gqa)
            out[f"gqa {nq}/{nkv} causal scores"] = _plain(lambda gqa=gqa: gqa(use_causal_mask=True,
                                                                             return_attention_scores=True))
    return out


program("yk-attn-mha", _mha)


def _attn_masks(tf: Any) -> Any:
    """MultiHeadAttention and GroupQueryAttention with query/value/key masks (Keras masks from a Masking layer and
    the value_mask/key_mask arguments), sliding_window 1-3 with and without the causal mask, GroupQueryAttention's
    use_gate and dropout in training: outputs and scores by their bits."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    x = values("am-x", "float32", (2, 4, 6))
    y = values("am-y", "float32", (2, 5, 6))
    kz = values("am-k", "float32", (2, 5, 6))
    x[0, 3], y[1, 3:] = 0.0, 0.0        # rows Masking(0.0) masks
    kz[0, 0] = 0.0
    vm = np.array([[True, True, False, True, True], [True, True, True, False, False]])
    km = np.array([[False, True, True, True, True], [True] * 5])

    def run(nm: str, cls: Any, kw: dict[str, Any], mk: Callable[[], tuple[Any, ...]], ckw: dict[str, Any]) -> None:
        def f() -> Any:
            lay = cls(name=f"am_{len(out)}", **kw)
            args = mk()
            lay(*args, **{k: v for k, v in ckw.items() if k != "training"})
            _seed_weights(lay, nm)
            got = lay(*mk(), **ckw)
            if isinstance(got, tuple):
                return [res(lambda g=g: g) for g in got]
            return res(lambda: got)
        out[nm] = _plain(f)

    masking = L.Masking(0.0)
    plain = lambda: (x, y)  # noqa: E731
    masked_q = lambda: (masking(x), y)  # noqa: E731
    masked_v = lambda: (x, masking(y))  # noqa: E731
    masked_all = lambda: (masking(x), masking(y), masking(kz))  # noqa: E731
    for cname, cls, kw in (("mha", L.MultiHeadAttention, dict(num_heads=2, key_dim=3)),
                           ("gqa", getattr(L, "GroupQueryAttention", None),
                            dict(head_dim=3, num_query_heads=2, num_key_value_heads=1))):
        if cls is None:
            continue
        sc = {"return_attention_scores": True}
        run(f"{cname} query masked", cls, kw, masked_q, sc)
        run(f"{cname} value masked", cls, kw, masked_v, sc)
        run(f"{cname} all masked", cls, kw, masked_all, sc)
        run(f"{cname} value_mask arg", cls, kw, plain, {"value_mask": vm, **sc})
        run(f"{cname} key_mask arg", cls, kw, lambda: (x, y, kz), {"key_mask": km, **sc})
        run(f"{cname} value and key masks", cls, kw, lambda: (x, y, kz), {"value_mask": vm, "key_mask": km})
        run(f"{cname} query masked causal", cls, kw, masked_q, {"use_causal_mask": True, **sc})
        for w in (1, 2, 3, 9):
            run(f"{cname} window {w}", cls, {**kw, "sliding_window": w}, plain, sc)
            run(f"{cname} window {w} causal", cls, {**kw, "sliding_window": w}, lambda: (x, x),
                {"use_causal_mask": True, **sc})
        run(f"{cname} window 2 value masked", cls, {**kw, "sliding_window": 2}, masked_v, sc)
        run(f"{cname} dropout", cls, {**kw, "dropout": 0.5, "seed": 11}, plain, {"training": True})
    if hasattr(L, "GroupQueryAttention"):
        for g in (True,):
            run("gqa gate", L.GroupQueryAttention, dict(head_dim=3, num_query_heads=4, num_key_value_heads=2,
                                                        use_gate=g), plain, {"return_attention_scores": True})
        run("gqa no bias", L.GroupQueryAttention, dict(head_dim=2, num_query_heads=4, num_key_value_heads=1,
                                                       use_bias=False), plain, {})
        run("gqa f64", L.GroupQueryAttention, dict(head_dim=3, num_query_heads=2, num_key_value_heads=2,
                                                   dtype="float64"), plain, {"use_causal_mask": True})
        run("gqa mixed16", L.GroupQueryAttention, dict(head_dim=3, num_query_heads=2, num_key_value_heads=1,
                                                       dtype="mixed_float16"), plain, {})
    for nm, cls, kw in (("Attention", L.Attention, {}), ("Attention concat", L.Attention, {"score_mode": "concat"}),
                        ("Additive", L.AdditiveAttention, {})):
        def att(cls: Any = cls, kw: dict[str, Any] = kw, nm: str = nm) -> Any:
            lay = cls(name=f"am_att_{len(out)}", **kw)
            lay([masking(x), masking(y)])
            lay.set_weights([np.full(w.shape, 0.75, w.dtype) for w in lay.get_weights()])
            got = lay([masking(x), masking(y)], return_attention_scores=True)
            return [res(lambda g=g: g) for g in got] + [res(lambda: got[0]._keras_mask)]
        out[f"{nm} masked inputs"] = _plain(att)
    return out


program("yk-attn-masks", _attn_masks)


def _attn_args(tf: Any) -> Any:
    """The attention layers' arguments at their boundaries and their symbolic outputs: sliding_window 0, -1, 1.5,
    score_mode spellings, a single mask or one of three, negative attention_axes, masks with attention_axes (2,) on
    rank-4 inputs, compute_output_shape and KerasTensor calls (scores' shapes; key/value/query lengths differing),
    the weights' shapes (Attention's and AdditiveAttention's scale): values, shapes or the refusal's class."""
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}
    q = values("aa-q", "float32", (2, 4, 3))
    v = values("aa-v", "float32", (2, 5, 3))
    vm = np.array([[True] * 5, [True, True, False, False, True]])
    shape = lambda t: [list(t.shape), str(t.dtype)]  # noqa: E731

    for w in (0, -1, 1.5, 1):
        out[f"mha window {w}"] = _plain(lambda w=w: L.MultiHeadAttention(2, 3, sliding_window=w, name="aw").get_config()[
            "sliding_window"])
        if hasattr(L, "GroupQueryAttention"):
            out[f"gqa window {w}"] = _plain(lambda w=w: L.GroupQueryAttention(3, 2, 1, sliding_window=w,
                                                                                name="gw").get_config()["sliding_window"])
    for sm in ("dot", "concat", "DOT", "Concat", "add", ""):
        out[f"score_mode {sm!r}"] = _plain(lambda sm=sm: L.Attention(score_mode=sm, name="sm").get_config()["score_mode"])
    for nm, mask in (("one mask list", [vm]), ("mask not a list", vm), ("three masks", [None, vm, vm]),
                     ("two Nones", [None, None])):
        for cls in (L.Attention, L.AdditiveAttention):
            out[f"{cls.__name__} {nm}"] = _plain(lambda cls=cls, mask=mask: res(lambda: cls(name="m", use_scale=False)([q, v],
                                                                                                      mask=mask)))
    for ax in ((-2,), (-3,), (-2, -3), (1,), (0,), (3,)):
        def mha_ax(ax: tuple[int, ...] = ax) -> Any:
            lay = L.MultiHeadAttention(2, 3, attention_axes=ax, name="ax")
            x4 = values("aa-x4", "float32", (2, 3, 4, 5))
            y, sc = lay(x4, x4, return_attention_scores=True)
            return [shape(y), shape(sc), lay.get_config()["attention_axes"]]
        out[f"mha attention_axes {ax}"] = _plain(mha_ax)
    x4 = values("aa-m4", "float32", (2, 3, 4, 5))
    m4 = rng("aa-mask4").randint(0, 3, (2, 3, 4, 4)) > 0
    for ax in ((2,), (1,)):
        def mha_mask(ax: tuple[int, ...] = ax) -> Any:
            lay = L.MultiHeadAttention(2, 3, attention_axes=ax, name="axm")
            lay(x4, x4)
            _seed_weights(lay, f"axm{ax}")
            mask = m4 if ax == (2,) else np.transpose(rng("aa-mask4b").randint(0, 3, (2, 4, 3, 3)) > 0, (0, 1, 2, 3))
            return [res(lambda: t) for t in lay(x4, x4, attention_mask=mask, return_attention_scores=True)]
        out[f"mha mask attention_axes {ax}"] = _plain(mha_mask)
    # symbolic calls and compute_output_shape
    qs, vs, ks = keras.Input((4, 6)), keras.Input((5, 6)), keras.Input((5, 2))
    for nm, mk in (("mha", lambda: L.MultiHeadAttention(2, 3, name="s1")),
                   ("mha out 7", lambda: L.MultiHeadAttention(2, 3, output_shape=7, name="s2")),
                   ("mha v4", lambda: L.MultiHeadAttention(2, 3, value_dim=4, name="s3"))):
        out[f"{nm} symbolic scores"] = _plain(lambda mk=mk: [shape(t) for t in mk()(qs, vs, return_attention_scores=True)])
        out[f"{nm} symbolic key"] = _plain(lambda mk=mk: shape(mk()(qs, vs, ks)))
        out[f"{nm} output_shape"] = _plain(lambda mk=mk: list(mk().compute_output_shape((2, 4, 6), (2, 5, 6))))
        out[f"{nm} output_shape key mismatch"] = _plain(lambda mk=mk: list(mk().compute_output_shape(
            (2, 4, 6), (2, 5, 6), (2, 5, 2))))
        out[f"{nm} output_shape value length mismatch"] = _plain(lambda mk=mk: list(mk().compute_output_shape(
            (2, 4, 6), (2, 5, 6), (2, 3, 6))))
    for cls in (L.Attention, L.AdditiveAttention):
        out[f"{cls.__name__} symbolic scores"] = _plain(lambda cls=cls: [shape(t) for t in cls(name="s4")(
            [qs, vs], return_attention_scores=True)])
        out[f"{cls.__name__} output_shape"] = _plain(lambda cls=cls: [list(x) if x is not None else None for x in [
            cls(name="s5").compute_output_shape([(2, 4, 6), (2, 5, 6)])]])
        out[f"{cls.__name__} output_shape 3"] = _plain(lambda cls=cls: list(cls(name="s6").compute_output_shape(
            [(2, 4, 6), (2, 5, 3), (2, 5, 6)])))
        def wshapes(cls: Any = cls) -> Any:
            lay = cls(use_scale=True, name="s7")
            lay([q, v])
            return [[w.name, list(w.shape)] for w in lay.weights]
        out[f"{cls.__name__} weights"] = _plain(wshapes)
    if hasattr(L, "GroupQueryAttention"):
        g = lambda: L.GroupQueryAttention(3, 4, 2, name="gs")  # noqa: E731
        out["gqa symbolic scores"] = _plain(lambda: [shape(t) for t in g()(qs, vs, return_attention_scores=True)])
        out["gqa output_shape"] = _plain(lambda: list(g().compute_output_shape((2, 4, 6), (2, 5, 6))))
        out["gqa output_shape mismatch"] = _plain(lambda: list(g().compute_output_shape((2, 4, 6), (2, 5, 7))))
        out["gqa output_shape length"] = _plain(lambda: list(g().compute_output_shape((2, 4, 6), (2, 5, 6),
                                                                                     (2, 3, 6))))
        out["gqa heads 3/2"] = _plain(lambda: L.GroupQueryAttention(3, 3, 2, name="g32").get_config())
    return out


program("y-attn-args", _attn_args)


# -- summaries: separators and byte sizes -----------------------------------------------------------------------------
def _summaries(tf: Any) -> Any:
    keras = tf.keras
    L = keras.layers
    out: dict[str, Any] = {}

    def lines(m: Any, **kw: Any) -> list[str]:
        got: list[str] = []
        m.summary(print_fn=lambda line, **k: got.append(line), **kw)
        return "\n".join(got).splitlines()

    # Dense(n) on d inputs holds d*n + n parameters
    m1 = keras.Sequential([keras.Input((3,)), L.Dense(249, name="p996"), L.Dense(4, name="p1000"),
                           L.Dense(9999, name="p49995"), L.Dense(100, name="p1000000", kernel_initializer="zeros"),
                           ], name="seps")
    out["dense counts"] = lines(m1)
    m2 = keras.Sequential([keras.Input((5,), dtype="int32"),
                           L.Embedding(3000, 4115, name="emb_12345000", embeddings_initializer="zeros"),
                           L.Dense(1, name="head", kernel_initializer="zeros", dtype="float16")], name="big")
    out["embedding 12M"] = lines(m2)
    out["embedding 12M trainable"] = lines(m2, show_trainable=True)
    m2.layers[0].trainable = False
    out["embedding 12M frozen"] = lines(m2)
    m3 = keras.Sequential([keras.Input((10,)), L.Dense(99, name="d64", dtype="float64"),
                           L.BatchNormalization(name="bn"), L.Dense(10, name="d16", dtype="float16")], name="mixed")
    out["dtypes"] = lines(m3)
    inp = keras.Input((33,), name="i")
    inner = keras.Sequential([keras.Input((33,)), L.Dense(33, name="in1"), L.Dense(30, name="in2")], name="inner")
    f = keras.Model(inp, L.Dense(1001, name="o")(inner(inp)), name="nest")
    out["nested"] = lines(f)
    out["nested expand"] = lines(f, expand_nested=True)
    m5 = keras.Sequential([keras.Input((2,)), L.Dense(1, name="tiny")], name="tiny_m")
    out["tiny"] = lines(m5)
    m6 = keras.Sequential([keras.Input((255,)), L.Dense(1024, name="kib"), L.Dense(256, name="exact")], name="kib_m")
    out["kib"] = lines(m6)
    for ll in (57, 67, 81, 98):
        out[f"kib line_length {ll}"] = lines(m6, line_length=ll)
    m7 = keras.Sequential([keras.Input((7,)), L.Dense(1500, name="a_layer_name_long_enough_to_be_cropped_in_its_column"),
                           L.Dense(3, name="h")], name="a_model_name_that_is_long_too")
    out["long names"] = lines(m7)
    out["long names 120"] = lines(m7, line_length=120, show_trainable=True)
    m7.compile(optimizer=keras.optimizers.Adam(learning_rate=0.01), loss="mse")
    out["compiled, optimizer unbuilt"] = lines(m7)
    m7.optimizer.build(m7.trainable_variables)
    out["compiled, optimizer built"] = lines(m7)
    out["counts"] = [m.count_params() for m in (m1, m2, m3, f, m5, m6, m7)]
    return out


program("y-summary", _summaries)
