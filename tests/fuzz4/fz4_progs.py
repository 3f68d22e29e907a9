"""The fourth fuzzer's programs (docs/spec.md `ops.fuzz4`): the API called the way users write it.
The other three generators build their operands as tf.constant tensors and call ops mostly
positionally; this one varies what they hold fixed: argument FORMS (Python scalars, nested lists,
tuples, NumPy arrays and NumPy scalars, bools, None where allowed, keywords, negative and tuple
axes, axes as tensors, shapes as lists/tuples/tensors/TensorShape), Variables as operands (every
Python operator on Variables, tensors, scalars and ndarrays in both orders, slicing, assign_*),
the Python protocol of tensors (len, iteration, bool/int/float, .shape/.dtype/.ndim/.numpy()),
conversions (convert_to_tensor with dtype/dtype_hint, tf.constant with a broadcasting shape, cast
chains), and small multi-line snippets rather than single calls.

A program: 1-4 inputs (tensors or Variables, per-replica values in "dist"), one Python scalar
`s` per call, and 3-6 independent snippets, each the body of `def f(x0, ..., s)`. Modes: "eager";
"function" (tf.function without a signature, called with s, s again, then another Python scalar:
a retrace; the tracing count is an outcome too); "sig" (tf.function with an input_signature,
get_concrete_function then two calls); "tape" (GradientTape, persistent or not, sources as a
list, a dict or one value, watched tensors, unconnected_gradients NONE/ZERO); "dist"
(MirroredStrategy(2 CPUs).run, then experimental_local_results, reduce SUM/MEAN and gather).

Random streams: one root seed; each program's stream is SeedSequence([seed, index, crc32("fz4")]),
its inputs and each snippet draw from children named by crc32 of their role.
"""

from __future__ import annotations

import os
import re
import sys
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

_T = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (os.path.join(_T, "fuzz2"), os.path.join(_T, "fuzz3")):
    if _p not in sys.path:
        sys.path.insert(0, _p)
from fz2_trees import Prog, _list  # noqa: E402

MODES = ("eager", "function", "sig", "tape", "dist")
_MODE_P = (0.34, 0.16, 0.12, 0.24, 0.14)
FL = ("float32", "float64", "float16")
INTS = ("int32", "int64")
_F = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5, -7.25, 3.0, -2.0, 0.1, 1e10, np.nan, np.inf, -np.inf, 1e-3, 4.0]
_SCALARS = ["2", "-3", "0", "1", "2.5", "0.5", "-1.5", "True", "False", "3.0", "7"]
_NPSCAL = ["np.float32(2)", "np.float64(2.5)", "np.int32(3)", "np.int64(-2)", "np.float16(1.5)", "np.bool_(True)",
           "np.float32(-0.5)", "np.int64(0)", "np.uint8(5)", "np.int16(4)"]


def named(seed: int, index: int, name: str) -> np.random.Generator:
    """The stream `name` of program `index` under root seed `seed`."""
    return np.random.default_rng(np.random.SeedSequence([seed, index, zlib.crc32(b"fz4"), zlib.crc32(name.encode())]))


@dataclass
class Prog4(Prog):
    """A fz2 Prog (inputs, per-replica inputs, snippet bodies as `exprs`, exactness, unconnected
    option) plus the Python scalars passed as `s` (one per call of the mode), the tape options
    and the input signature."""
    svals: list[str] = field(default_factory=list)
    persistent: bool = False
    watched: list[int] = field(default_factory=list)
    sources: str = "list"
    signature: list[Any] = field(default_factory=list)
    order: int = 1
    watch_accessed: bool = True
    labels: list[str] = field(default_factory=list)

    @property
    def steps(self) -> tuple:
        """Everything besides the inputs that TF's answer depends on (tests/fuzz/answers.py keys)."""
        return (self.exprs, self.svals, self.persistent, self.watched, self.sources, self.signature,
                self.unconnected)

    def names(self) -> list[str]:
        return [f"x{i}" for i in range(len(self.inputs))]

    def function_text(self, k: int) -> str:
        """Snippet k as the source of `def f(x0, ..., s)`."""
        body = "\n".join("    " + line for line in self.exprs[k].split("\n"))
        return f"def f({', '.join(self.names() + ['s'])}):\n{body}\n"

    def source(self) -> str:
        """The program as Python over a `tf` module: the reproducer printed with a disagreement."""
        out = ["import numpy as np", "import tensorflow as tf  # or: from simdist import tf", f"# mode: {self.mode}"]
        for name, (a, dt, var) in zip(self.names(), self.inputs):
            c = f"tf.constant(np.array({_list(a)}, np.{a.dtype.name}).reshape({a.shape}), dtype=tf.{dt})"
            out.append(f"{name} = " + (f"tf.Variable({c})" if var else c))
        for name, a in zip(self.names(), self.inputs2):
            out.append(f"# replica 1: {name} = np.array({_list(a)}, np.{a.dtype.name}).reshape({a.shape})")
        how = {"eager": f"# each f called as f(x0, ..., s={self.svals[0]})",
               "function": f"# each f as g = tf.function(f), called with s = {self.svals} in turn, then "
                           "g.experimental_get_tracing_count()",
               "sig": f"# each f as tf.function(lambda *a: f(*a, s={self.svals[0]}), input_signature=[TensorSpec(s, "
                      f"dtype) for s in {self.signature}]): get_concrete_function, then called twice",
               "tape": f"# each f under tf.GradientTape(persistent={self.persistent}), watching inputs "
                       f"{self.watched}; tape.gradient(y, sources as a {self.sources} of the Variables and watched "
                       f"inputs, unconnected_gradients={self.unconnected})" + (", asked twice" if self.persistent
                                                                                else ""),
               "dist": f"# each f as strategy.run(f, args=(x0, ...), kwargs={{'s': {self.svals[0]}}}) on "
                       "MirroredStrategy(['/cpu:0', '/cpu:1']) (Variables created in strategy.scope()), then "
                       "experimental_local_results, reduce SUM/MEAN axis None and 0, gather axis 0"}[self.mode]
        out.append(how)
        for k in range(len(self.exprs)):
            out.append(self.function_text(k).replace("def f(", f"def f{k}("))
        return "\n".join(out)


@dataclass
class V:
    """An operand: its text, dtype (None: a Python value TF infers) and shape (None: unknown)."""
    text: str
    dtype: str | None
    shape: tuple[int, ...] | None
    var: bool = False


class Draw:
    """The random choices of one snippet."""

    def __init__(self, rng: np.random.Generator, xs: list[V], mode: str) -> None:
        self.rng, self.xs, self.mode = rng, xs, mode

    def r(self) -> float:
        return float(self.rng.random())

    def i(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi))

    def pick(self, xs: Any) -> Any:
        return xs[int(self.rng.integers(len(xs)))]

    def x(self, want: Callable[[V], bool] = lambda v: True) -> V:
        good = [v for v in self.xs if want(v)]
        return self.pick(good or self.xs)

    def value(self, dt: str | None) -> str:
        if dt in FL or dt is None:
            v = self.pick(_F[:10] if self.r() < 0.85 else _F)
            return {np.nan: "float('nan')"}.get(v, repr(v).replace("inf", "float('inf')")) if v == v else "float('nan')"
        if dt == "bool":
            return self.pick(["True", "False"])
        return str(self.pick([0, 1, 2, 3, -1, 5] if dt[0] != "u" else [0, 1, 2, 5]))

    def nested(self, dt: str | None, shape: tuple[int, ...]) -> str:
        """A nested Python list (or, now and then, tuple) literal of `shape`."""
        if not shape:
            return self.value(dt)
        inner = [self.nested(dt, shape[1:]) for _ in range(shape[0])]
        if self.r() < 0.15:
            return "(" + ", ".join(inner) + ("," if len(inner) == 1 else "") + ")"
        return "[" + ", ".join(inner) + "]"

    def npdt(self, dt: str) -> str:
        return f"np.{dt}" if dt != "bool" else "np.bool_"

    def dtype_text(self, dt: str) -> str:
        """A dtype the way users write it: tf.float32, 'float32' or np.float32."""
        return self.pick([f"tf.{dt}", f"tf.{dt}", f"'{dt}'", self.npdt(dt)])

    def form(self, like: V) -> V:
        """Another operand of like's shape (or a broadcasting one) in some argument form."""
        shape = like.shape if like.shape is not None else ()
        if shape and self.r() < 0.25:
            shape = shape[self.i(0, len(shape) + 1):]   # a trailing part: broadcasts
        dt = like.dtype if like.dtype and self.r() < 0.8 else self.pick(FL + INTS + ("bool",))
        k = self.pick(["scalar", "scalar", "npscalar", "nested", "ndarray", "constant", "s", "input", "input"])
        if k == "scalar":
            return V(self.pick(_SCALARS) if self.r() < 0.5 else self.value(dt), None, ())
        if k == "npscalar":
            return V(self.pick(_NPSCAL) if self.r() < 0.5 else f"{self.npdt(dt)}({self.value(dt)})", dt, ())
        if k == "nested":
            return V(self.nested(dt, shape), None, shape)
        if k == "ndarray":
            return V(f"np.array({self.nested(dt, shape)}, dtype={self.npdt(dt)})", dt, shape)
        if k == "constant":
            return V(f"tf.constant({self.nested(dt, shape)}, dtype={self.dtype_text(dt)})", dt, shape)
        if k == "s":
            return V("s", None, ())
        return self.x()

    def axis(self, rank: int | None, kw: str = "axis", tuple_ok: bool = True) -> str:
        """An axis argument in some form, or "" (left out)."""
        if rank is None or rank == 0:
            return self.pick(["", f", {kw}=None", f", {kw}=0", f", {kw}=-1"])
        a = self.i(-rank, rank)
        forms = [f", {kw}={a}", f", {a}", f", {kw}=-1", f", {kw}=tf.constant({a})", f", {kw}=np.int64({a})",
                 f", {kw}=np.int32({a})", f", {kw}=[{a}]", ""]
        if tuple_ok and rank >= 2:
            b = (a + 1) % rank - rank * (self.r() < 0.5)
            forms += [f", {kw}=({a}, {b})", f", {kw}=[{a}, {b}]", f", {kw}=tf.constant([{a}, {b}])",
                      f", {kw}=np.array([{a}, {b}])"]
        if self.r() < 0.05:
            forms += [f", {kw}={rank}", f", {kw}=({a}, {a})", f", {kw}=1.0"]
        return self.pick(forms)

    def shape_form(self, shape: tuple[int, ...]) -> str:
        """A shape as a list, tuple, tensor, TensorShape or ndarray."""
        items = ", ".join(str(n) for n in shape)
        return self.pick([f"[{items}]", f"({items}{',' if len(shape) == 1 else ''})", f"tf.constant([{items}], tf.int32)",
                          f"tf.TensorShape([{items}])", f"np.array([{items}], dtype=np.int64)", f"[{items}]"])


# ---------------------------------------------------------------- snippet templates
# Each returns (body lines, exact) for the Draw's inputs.

_BIN = ["+", "-", "*", "/", "//", "%", "**", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "@"]
_INEXACT_OPS = {"**", "@"}


def t_operator(d: Draw) -> tuple[str, bool]:
    a = d.x()
    op = d.pick(_BIN)
    b = d.form(a)
    if op == "@" and a.shape is not None and len(a.shape) >= 1:
        b = d.pick([d.x(), V(f"np.ones({(a.shape[-1], 2)}, dtype={d.npdt(a.dtype or 'float32')})", a.dtype, None),
                    V(f"tf.transpose({a.text})", a.dtype, None)])
    if op in "&|^" and d.r() < 0.5:
        b = V(d.pick(["True", "1", "np.int32(3)", "x0 > 0" if d.xs[0].dtype != "bool" else "x0"]), None, ())
    left, right = (a.text, b.text) if d.r() < 0.55 else (b.text, a.text)
    expr = f"{left} {op} {right}"
    if d.r() < 0.2:
        expr = f"({expr}) {d.pick(['+', '*', '-'])} {d.form(a).text}"
    return f"return {expr}", op not in _INEXACT_OPS


def t_unary(d: Draw) -> tuple[str, bool]:
    a = d.x()
    return "return " + d.pick([f"-{a.text}", f"abs({a.text})", f"~{a.text}", f"+{a.text}", f"-(-{a.text})",
                                f"abs(-{a.text})", f"not {a.text}", f"round({a.text})"]), True


def _index(d: Draw, rank: int | None) -> str:
    r = rank or 0
    pool = ["0", "-1", "1:", ":-1", "::-1", "::2", "..., None", "None", "tf.newaxis", "1, ...", "-2:", "5:",
            "1:0", "::-2", "tf.constant(0)", "np.int64(-1)", "np.int32(0)", "..., ::-1", ":, None", "...",
            "tf.constant(1, tf.int64)", "3", "-3:-1", "::3", "None, ..., None"]
    if r >= 2:
        pool += [":, 0", "..., 0", "1:, ::-1", "0, 1", "-1, -1", ":, ::-2", "tf.constant(0), 1:", "..., 1:",
                 ":, tf.newaxis, :", "::-1, ::-1"]
    if r >= 3:
        pool += [":, :, 0", "0, ..., 1", "..., None, 0"]
    if d.r() < 0.04:
        pool += ["[0, 1]", "True", "tf.constant([0, 1])", "1.0", "'a'"]
    return d.pick(pool)


def t_index(d: Draw) -> tuple[str, bool]:
    a = d.x()
    rank = len(a.shape) if a.shape is not None else None
    idx = _index(d, rank)
    if d.r() < 0.25:
        return f"y = {a.text}[{idx}]\nreturn y[{_index(d, None)}]", True
    return f"return {a.text}[{idx}]", True


_PROTO = ["len({x})", "[t for t in {x}]", "list({x})", "bool({x})", "float({x})", "int({x})", "{x}.shape",
          "{x}.dtype", "{x}.ndim", "{x}.numpy()", "{x}.shape.as_list()", "{x}.shape[0]", "{x}.shape.rank",
          "tuple({x}.shape)", "{x}.get_shape()", "{x}.shape.num_elements()", "np.asarray({x})", "np.array({x}) + 1",
          "{x}.dtype.name", "{x}.dtype.is_floating", "int({x}.shape[-1])", "float({x}[0])", "{x}.numpy().tolist()",
          "tf.rank({x})", "{x}.dtype == tf.float32", "{x}.shape == (2,)", "{x}.dtype.as_numpy_dtype",
          "{x}.shape.is_fully_defined()", "[int(t) for t in tf.shape({x})]", "{x}.numpy().sum()",
          "{x}.dtype.min", "{x}.dtype.max", "{x}.dtype.is_integer", "{x}.shape + [3]", "{x}.shape[1:]",
          "{x}.numpy().dtype", "{x}.numpy().shape", "bool({x} > 0)", "int({x}.shape.num_elements() or 0)",
          "[float(t) for t in tf.reshape({x}, [-1])]", "tf.reduce_sum({x}).numpy()", "{x}.dtype.size",
          "{x}.__array__()", "np.sum({x})", "np.shape({x})", "np.ndim({x})", "{x}.shape.dims"]


def t_protocol(d: Draw) -> tuple[str, bool]:
    a = d.x()
    return "return " + d.pick(_PROTO).format(x=a.text), True


def t_variable(d: Draw) -> tuple[str, bool]:
    vars_ = [v for v in d.xs if v.var]
    if not vars_:
        return t_operator(d)
    v = d.pick(vars_)
    dt = v.dtype or "float32"
    delta = d.form(v)
    how = d.pick(["assign_add", "assign_sub", "assign", "assign_add", "slice", "item"])
    if how == "slice" and v.shape:
        n = v.shape[0]
        sl = d.pick(["1:", ":1", "0", "-1", "::-1", "..., 0" if len(v.shape) > 1 else "0"])
        val = d.nested(dt, (max(n - 1, 0),) + v.shape[1:]) if sl == "1:" else \
            d.nested(dt, (min(n, 1),) + v.shape[1:]) if sl == ":1" else \
            d.nested(dt, v.shape[1:]) if sl in ("0", "-1") else d.nested(dt, v.shape) if sl == "::-1" else \
            d.nested(dt, v.shape[:-1])
        line = f"{v.text}[{sl}].assign({val})"
    elif how == "item" or how == "slice":
        line = f"{v.text}.assign({v.text} {d.pick(['+', '*', '-'])} {d.form(v).text})"
    else:
        kw = d.pick(["", "", "read_value=False", "read_value=True", "use_locking=True", "name='u'"])
        line = f"{v.text}.{how}({delta.text}{', ' + kw if kw else ''})"
    ret = d.pick(["{v}", "{v}.read_value()", "{v}.numpy()", "{v} + 0", "tf.identity({v})", "{v}.value()",
                  "r", "{v} * {o}", "{o} - {v}", "[{v}[0], r]" if v.shape else "{v}",
                  "{v}.dtype", "{v}.shape", "len({v})", "{v}.trainable"])
    first = f"r = {line}" if "r" in ret.replace("read_value", "").replace("trainable", "") else line
    return f"{first}\nreturn " + ret.format(v=v.text, o=d.form(v).text), True


def t_convert(d: Draw) -> tuple[str, bool]:
    a = d.x()
    dt = d.pick(FL + INTS + ("bool", "uint8", "int8", "int16"))
    sh = a.shape if a.shape is not None else ()
    lit = d.pick([d.nested(a.dtype, sh), d.form(a).text, a.text, d.pick(_NPSCAL), d.pick(_SCALARS),
                  f"[{a.text}, {a.text}]", f"[1, {a.text}]" if not sh else f"[{a.text}[0], 1]", "[]", "[[1, 2], [3]]",
                  "2 ** 40", "[1, 2.5]", "(1, 2)", "[np.float32(1), 2]", "None", "[True, 0]", "1e40", "-1"])
    n = 1
    for k in sh:
        n *= k
    shp = d.pick([(2, 3), (n,) if n else (1,), (3, 1), (), (6,)] if d.r() < 0.6 else [sh])
    return "return " + d.pick([
        f"tf.convert_to_tensor({lit})",
        f"tf.convert_to_tensor({lit}, dtype={d.dtype_text(dt)})",
        f"tf.convert_to_tensor({lit}, dtype_hint={d.dtype_text(dt)})",
        f"tf.convert_to_tensor(value={lit}, dtype_hint={d.dtype_text(dt)}, name='c')",
        f"tf.constant({lit})",
        f"tf.constant({lit}, {d.dtype_text(dt)})",
        f"tf.constant({lit}, dtype={d.dtype_text(dt)}, shape={d.shape_form(shp)})",
        f"tf.constant({d.pick(_SCALARS + _NPSCAL)}, shape={list(shp)})",
        f"tf.cast({a.text}, {d.dtype_text(dt)})",
        f"tf.cast(tf.cast({a.text}, {d.dtype_text(dt)}), {d.dtype_text(d.pick(FL + INTS))})",
        f"tf.cast({lit}, dtype={d.dtype_text(dt)})",
        f"tf.dtypes.cast({a.text}, {d.dtype_text(dt)}, name='k')",
        f"tf.saturate_cast({a.text}, {d.dtype_text(dt)})",
        f"tf.identity({lit})",
        f"tf.Variable({lit}).read_value()",
        f"tf.Variable({lit}, dtype={d.dtype_text(dt)}) * 1",
        f"tf.convert_to_tensor({a.text}, dtype={d.dtype_text(dt)})",
    ]), True


def _op_x(d: Draw, prefs: tuple[str, ...] = FL) -> V:
    """An operand for an op call: an input of a preferred dtype, or a literal form of one."""
    a = d.x(lambda v: v.dtype in prefs)
    k = d.r()
    if k < 0.6:
        return a
    sh = a.shape if a.shape is not None else ()
    if k < 0.75:
        return V(d.nested(a.dtype, sh), None, sh)
    if k < 0.9:
        return V(f"np.array({d.nested(a.dtype, sh)}, dtype={d.npdt(a.dtype or 'float32')})", a.dtype, sh)
    return V(d.pick(_SCALARS[:7] + _NPSCAL[:5]), None, ())


_RED = [("tf.reduce_sum", False), ("tf.reduce_mean", False), ("tf.reduce_max", True), ("tf.reduce_min", True),
        ("tf.reduce_prod", False), ("tf.math.reduce_std", False), ("tf.math.reduce_variance", False),
        ("tf.math.reduce_logsumexp", False), ("tf.math.reduce_euclidean_norm", False), ("tf.reduce_any", True),
        ("tf.reduce_all", True), ("tf.math.count_nonzero", True), ("tf.argmax", True), ("tf.argmin", True),
        ("tf.math.cumsum", False), ("tf.math.cumprod", False), ("tf.math.reduce_sum", False)]
_UN = [("tf.math.sqrt", True), ("tf.math.exp", False), ("tf.math.log", False), ("tf.math.tanh", False),
       ("tf.math.sigmoid", False), ("tf.math.abs", True), ("tf.math.negative", True), ("tf.math.square", True),
       ("tf.math.sign", True), ("tf.math.round", True), ("tf.math.floor", True), ("tf.math.ceil", True),
       ("tf.math.reciprocal", True), ("tf.math.softplus", False), ("tf.math.sin", False), ("tf.math.cos", False),
       ("tf.math.log1p", False), ("tf.math.expm1", False), ("tf.math.rsqrt", False), ("tf.math.erf", False),
       ("tf.nn.relu", True), ("tf.nn.relu6", True), ("tf.nn.elu", False), ("tf.nn.selu", False),
       ("tf.nn.gelu", False), ("tf.nn.softsign", False), ("tf.nn.swish", False), ("tf.nn.silu", False),
       ("tf.nn.leaky_relu", True), ("tf.nn.log_softmax", False), ("tf.nn.softmax", False),
       ("tf.math.l2_normalize", False), ("tf.abs", True), ("tf.exp", False), ("tf.sqrt", True), ("tf.square", True),
       ("tf.math.is_nan", True), ("tf.math.is_finite", True), ("tf.math.logical_not", True), ("tf.math.rint", True),
       ("tf.math.log_sigmoid", False), ("tf.math.atan", False), ("tf.math.asinh", False), ("tf.math.lgamma", False)]
_BINF = [("tf.add", True), ("tf.subtract", True), ("tf.multiply", True), ("tf.divide", True), ("tf.maximum", True),
         ("tf.minimum", True), ("tf.pow", False), ("tf.math.floordiv", True), ("tf.math.floormod", True),
         ("tf.math.truediv", True), ("tf.math.squared_difference", True), ("tf.math.divide_no_nan", True),
         ("tf.math.xdivy", False), ("tf.math.atan2", False), ("tf.equal", True), ("tf.less", True),
         ("tf.greater_equal", True), ("tf.not_equal", True), ("tf.math.logical_and", True),
         ("tf.math.logical_or", True), ("tf.bitwise.bitwise_and", True), ("tf.math.add", True),
         ("tf.math.multiply_no_nan", True), ("tf.realdiv", True), ("tf.truncatediv", True), ("tf.truncatemod", True)]


def t_reduce(d: Draw) -> tuple[str, bool]:
    f, exact = d.pick(_RED)
    a = _op_x(d, FL + INTS)
    rank = len(a.shape) if a.shape is not None else None
    extra = d.axis(rank, tuple_ok=f not in ("tf.argmax", "tf.argmin", "tf.math.cumsum", "tf.math.cumprod"))
    if f in ("tf.argmax", "tf.argmin"):
        extra += d.pick(["", ", output_type=tf.int32", ", output_type=tf.int64", ", output_type='int32'"])
    elif f in ("tf.math.cumsum", "tf.math.cumprod"):
        extra += d.pick(["", ", exclusive=True", ", reverse=True", ", exclusive=True, reverse=True"])
    else:
        extra += d.pick(["", ", keepdims=True", ", keepdims=False", ", keepdims=np.bool_(True)", ", keepdims=1"])
        if f == "tf.math.count_nonzero":
            extra += d.pick(["", ", dtype=tf.int32", ", dtype='float32'"])
    extra += d.pick(["", "", ", name='r'"])
    kw = d.pick(["", "", "input_tensor=" if f.startswith("tf.reduce") or "math.reduce" in f else ""])
    return f"return {f}({kw}{a.text}{extra})", exact and (a.dtype in INTS or f not in ("tf.reduce_sum",))


def t_unary_op(d: Draw) -> tuple[str, bool]:
    f, exact = d.pick(_UN)
    a = _op_x(d)
    rank = len(a.shape) if a.shape is not None else 0
    extra = ""
    if f in ("tf.nn.softmax", "tf.nn.log_softmax", "tf.math.l2_normalize"):
        extra = d.axis(rank) if rank else ""
        if f == "tf.math.l2_normalize" and d.r() < 0.4:
            extra += ", epsilon=1e-6"
    elif f == "tf.nn.leaky_relu":
        extra = d.pick(["", ", alpha=0.1", ", 0.3", ", alpha=np.float64(0.5)", ", alpha=2"])
    elif f == "tf.nn.gelu":
        extra = d.pick(["", ", approximate=True", ", approximate=False"])
    kw = d.pick(["", "", "x=" if f.startswith("tf.math.") and f not in ("tf.math.l2_normalize",) else "",
                 "features=" if f in ("tf.nn.relu", "tf.nn.relu6", "tf.nn.elu", "tf.nn.selu", "tf.nn.leaky_relu")
                 else "", "logits=" if f in ("tf.nn.softmax", "tf.nn.log_softmax") else ""])
    return f"return {f}({kw}{a.text}{extra}{d.pick(['', '', ', name=None', ', name=' + repr('u')])})", exact


def t_binary_op(d: Draw) -> tuple[str, bool]:
    f, exact = d.pick(_BINF)
    a = _op_x(d, FL + INTS)
    b = d.form(a)
    if f.startswith("tf.math.logical"):
        a = V(f"{a.text} > 0", "bool", a.shape) if d.r() < 0.6 else a
        b = V(d.pick(["True", f"{b.text} < 1", "[True, False]", "np.bool_(False)"]), None, None)
    x, y = (a, b) if d.r() < 0.6 else (b, a)
    kw = d.pick(["", "", "xy"])
    args = f"x={x.text}, y={y.text}" if kw and not f.startswith(("tf.bitwise", "tf.truncate", "tf.realdiv")) else \
        f"{x.text}, {y.text}"
    return f"return {f}({args})", exact


def t_data(d: Draw) -> tuple[str, bool]:
    """Data-movement ops with shapes, indices and paddings in every form."""
    a = _op_x(d, FL + INTS + ("bool",))
    sh = a.shape if a.shape is not None else ()
    r = len(sh)
    n0 = sh[0] if r else 1
    idx = d.pick([f"[{d.i(0, max(n0, 1))}, 0]", "[1, 0]", f"tf.constant([{d.i(-1, n0 + 1)}])", "0",
                  "np.array([0, 1])", "(0,)", "tf.constant(1)", "[[0], [1]]", "[-1]", "np.int64(0)"])
    shape_to = d.pick([(-1,), (-1, 1), (1, -1), tuple(reversed(sh)), (2, -1), ()])
    pads = [[d.i(0, 3), d.i(0, 2)] for _ in range(r)]
    pads_t = d.pick([str(pads), str(tuple(tuple(p) for p in pads)), f"np.array({pads})", f"tf.constant({pads})"])
    mult = [d.i(1, 3) for _ in range(r)]
    mult_t = d.pick([str(mult), str(tuple(mult)), f"tf.constant({mult})", f"np.array({mult}, np.int64)"])
    b = d.form(a)
    perm = list(range(r))[::-1]
    seg = [0] * max(n0 // 2, 0) + [1] * (n0 - max(n0 // 2, 0)) if d.r() < 0.8 else [1, 0] + [0] * max(n0 - 2, 0)
    seg_t = d.pick([str(seg), f"np.array({seg})", f"tf.constant({seg})", f"tf.constant({seg}, tf.int64)"])
    dtt = d.dtype_text(d.pick(FL + INTS))
    calls = [
        (f"tf.gather({a.text}, {idx}{d.axis(r, tuple_ok=False)})", True),
        (f"tf.gather({a.text}, indices={idx}, axis=0, batch_dims=0)", True),
        (f"tf.gather_nd({a.text}, indices={d.pick(['[[0]]', '[0]', '[[0, 1]]', 'np.array([[1]])', '[[-1]]'])})",
         True),
        (f"tf.reshape({a.text}, {d.shape_form(shape_to)})", True),
        (f"tf.reshape({a.text}, shape={list(shape_to)})", True),
        (f"tf.pad({a.text}, {pads_t}{d.pick(['', ', constant_values=1', ', mode=' + repr('REFLECT'), ', mode=' + repr('SYMMETRIC'), ', constant_values=np.float32(2.5)', ', mode=' + repr('constant')])})", True),
        (f"tf.tile({a.text}, multiples={mult_t})", True),
        (f"tf.concat([{a.text}, {b.text}]{d.axis(r, tuple_ok=False) or ', 0'})", True),
        (f"tf.concat(values=({a.text}, {a.text}), axis={d.i(-r, r) if r else 0})", True),
        (f"tf.stack([{a.text}, {b.text}]{d.axis(r + 1, tuple_ok=False)})", True),
        (f"tf.stack(({a.text}, {d.nested(a.dtype, sh)}), axis=-1)", True),
        (f"tf.unstack({a.text}{d.pick(['', ', axis=-1', ', num=' + str(n0), ', axis=0, num=2'])})", True),
        (f"tf.broadcast_to({a.text}, {d.shape_form((2,) + tuple(sh))})", True),
        (f"tf.broadcast_to({d.pick(_SCALARS[:6] + _NPSCAL[:4])}, shape={d.shape_form((2, 2))})", True),
        (f"tf.expand_dims({a.text}, axis={d.i(-r - 1, r + 1)})", True),
        (f"tf.squeeze({a.text}{d.pick(['', ', axis=0', ', axis=[-1]', ', axis=()'])})", True),
        (f"tf.transpose({a.text}{', perm=' + d.pick([str(perm), str(tuple(perm)), f'tf.constant({perm})']) if r else ''})",
         True),
        (f"tf.reverse({a.text}, axis={d.pick(['[0]', '[-1]', '(0,)', 'tf.constant([0])', '[0, 0]'])})", True),
        (f"tf.roll({a.text}, shift={d.pick(['1', '-1', '[1]', '(2,)'])}, axis={d.pick(['0', '-1', '[0]'])})", True),
        (f"tf.split({a.text}, {d.pick(['2', '[1, -1]', 'num_or_size_splits=1', '[1, 1]', f'[{n0}, 0]'])}{d.axis(r, tuple_ok=False)})",
         True),
        (f"tf.shape({a.text}{d.pick(['', ', out_type=tf.int64', ', out_type=' + repr('int32'), ', out_type=tf.int32'])})",
         True),
        (f"tf.size({a.text}{d.pick(['', ', out_type=tf.int64', ', out_type=tf.int32'])})", True),
        (f"tf.rank({a.text})", True),
        (f"tf.zeros({d.shape_form(tuple(sh))}{d.pick(['', ', dtype=' + dtt, ', ' + dtt])})", True),
        (f"tf.ones({d.shape_form((2, 3))}, dtype={dtt})", True),
        (f"tf.fill({d.shape_form((2, 2))}, value={d.pick(_SCALARS[:6] + _NPSCAL[:5])})", True),
        (f"tf.zeros_like({a.text}{d.pick(['', ', dtype=' + dtt])})", True),
        (f"tf.ones_like(input={a.text}{d.pick(['', ', dtype=' + dtt])})", True),
        (f"tf.range({d.pick(['5', 'np.int64(3)', '1, 10, 2', '0.5, 2.5, 0.5', '3, dtype=tf.float32', 'start=1, limit=4', '5, 1, -2', 'tf.constant(4)', '2, 8, 3, dtype=' + dtt, '0, 1, 0.25'])})",
         True),
        (f"tf.linspace({d.pick(['0.0, 1.0, 5', '0., 1., num=3', 'tf.constant(0.), 1., 4', 'start=-1.0, stop=1.0, num=5'])})",
         False),
        (f"tf.eye({d.pick(['2', '3, dtype=' + dtt, 'num_rows=2, num_columns=3', '2, batch_shape=[2]'])})", True),
        (f"tf.math.segment_sum({a.text}, segment_ids={seg_t})", a.dtype in INTS),
        (f"tf.math.segment_{d.pick(['max', 'min', 'mean', 'prod'])}({a.text}, {seg_t})", False),
        (f"tf.math.unsorted_segment_{d.pick(['sum', 'max', 'min', 'mean', 'prod', 'sqrt_n'])}({a.text}, segment_ids={seg_t}, num_segments={d.pick(['2', 'np.int32(3)', 'tf.constant(2)', '1'])})",
         False),
        (f"tf.sort({a.text}{d.axis(r, tuple_ok=False)}{d.pick(['', ', direction=' + repr('DESCENDING'), ', direction=' + repr('ASCENDING')])})",
         True),
        (f"tf.argsort({a.text}{d.pick(['', ', direction=' + repr('DESCENDING'), ', stable=True', ', axis=0'])})", True),
        (f"tf.math.top_k({a.text}, k={d.pick(['1', '2', 'np.int32(1)', 'tf.constant(1)'])}{d.pick(['', ', sorted=True', ', sorted=False'])})",
         True),
        (f"tf.nn.top_k({a.text}, {d.pick(['1', '2'])})", True),
        (f"tf.scatter_nd({d.pick(['[[0], [1]]', 'indices=[[1]]', 'tf.constant([[0]])', 'np.array([[1], [1]])'])}, "
         f"{d.pick(['[1.0, 2.0]', 'updates=[5]', 'tf.constant([2.5])', 'np.array([1.0, 2.0], np.float32)'])}, "
         f"shape={d.shape_form((3,))})", True),
        (f"tf.tensor_scatter_nd_{d.pick(['update', 'add', 'sub', 'max', 'min'])}({a.text}, "
         f"{d.pick(['[[0]]', 'indices=[[1]]', 'tf.constant([[0]])', '[[0], [0]]'])}, "
         f"{d.pick(['[' + d.nested(a.dtype, tuple(sh[1:])) + ']', 'updates=[' + d.nested(a.dtype, tuple(sh[1:])) + ']'])})",
         True),
        (f"tf.where({a.text} > 0, {a.text}, {d.form(a).text})", True),
        (f"tf.where({d.pick(['True', '[True, False]', 'np.array([True])', a.text + ' < 1'])}, {d.form(a).text}, {d.form(a).text})",
         True),
        (f"tf.where({a.text})", True),
        (f"tf.where(condition={a.text} != 0, x={d.pick(_SCALARS[:5])}, y={d.form(a).text})", True),
        (f"tf.one_hot({d.pick(['[0, 2, -1]', 'tf.constant([1, 0])', 'np.array([3])', '1', '[[0], [1]]'])}, "
         f"depth={d.pick(['3', 'np.int64(2)', 'tf.constant(3)', '0'])}"
         f"{d.pick(['', ', on_value=5, off_value=-1', ', dtype=' + dtt, ', axis=0', ', on_value=2.5', ', off_value=np.float64(0.5)', ', dtype=tf.int64, off_value=-2'])})",
         True),
        (f"tf.clip_by_value({a.text}, clip_value_min={d.pick(['0', '-1.0', 'np.float32(0)', '[0.0]'])}, "
         f"clip_value_max={d.pick(['1', '2.5', 'np.float64(1)', 'tf.constant(3.0)'])})", True),
        (f"tf.math.add_n([{a.text}, {d.form(a).text}{', ' + a.text if d.r() < 0.5 else ''}])", a.dtype in INTS),
        (f"tf.boolean_mask({a.text}, {d.pick(['[True] * ' + str(n0), a.text + ' > 0', 'np.array([True, False])', 'mask=[False] * ' + str(n0)])})",
         True),
        (f"tf.math.bincount({d.pick(['[1, 2, 2]', 'tf.constant([0, 3])', 'np.array([1, 1], np.int32)'])}"
         f"{d.pick(['', ', minlength=4', ', maxlength=2', ', weights=[0.5, 1.0, 2.0]', ', dtype=tf.float64'])})", True),
    ]
    call, exact = d.pick(calls)
    if d.r() < 0.2:
        return f"y = {call}\nreturn {d.pick(['y[0]', 'y.shape', 'len(y)', 'y * 2', 'tf.reduce_sum(y)', 'y[-1:]'])}", False
    return f"return {call}", exact


def t_linalg(d: Draw) -> tuple[str, bool]:
    a = _op_x(d)
    sh = a.shape if a.shape is not None else ()
    dt = a.dtype or "float32"
    m = d.nested(dt, (sh[-1] if sh else 2, 2))
    sq = d.nested(dt, (2, 2))
    return "return " + d.pick([
        f"tf.matmul({a.text}, {m})", f"tf.linalg.matmul({a.text}, {a.text}, transpose_b=True)",
        f"tf.matmul(a={sq}, b={a.text}, transpose_a=True)", f"tf.linalg.matvec({sq}, {d.nested(dt, (2,))})",
        f"tf.tensordot({a.text}, {a.text}, axes={d.pick(['1', '0', '[[0], [0]]', '([0], [0])'])})",
        f"tf.einsum('ij,jk->ik', {a.text}, {m})", f"tf.einsum('...i->...', {a.text})",
        f"tf.linalg.trace({sq})", f"tf.linalg.diag({a.text})", f"tf.linalg.diag_part({a.text})",
        f"tf.linalg.band_part({a.text}, 0, -1)", f"tf.linalg.inv({sq})", f"tf.linalg.det(tf.constant({sq}, tf.{dt}))",
        f"tf.norm({a.text}{d.pick(['', ', ord=1', ', ord=' + repr('euclidean'), ', axis=-1', ', ord=np.inf', ', ord=2, axis=0', ', keepdims=True'])})",
        f"tf.linalg.norm({a.text}, axis={d.pick(['None', '-1', '[-2, -1]'])})",
        f"tf.nn.moments({a.text}, axes={d.pick(['[0]', '[-1]', '(0,)', '[0, 1]'])}{d.pick(['', ', keepdims=True'])})",
        f"tf.nn.bias_add({a.text}, {d.nested(dt, (sh[-1],) if sh else (1,))})",
        f"tf.nn.softmax_cross_entropy_with_logits(labels={a.text}, logits={a.text})",
        f"tf.nn.sigmoid_cross_entropy_with_logits(labels={d.nested(dt, tuple(sh))}, logits={a.text})",
        f"tf.nn.sparse_softmax_cross_entropy_with_logits(labels={d.pick(['[0, 1]', '0', 'np.array([1])'])}, logits={a.text})",
        f"tf.math.reduce_sum(tf.square({a.text} - {d.form(a).text}))",
        f"tf.nn.l2_loss({a.text})", f"tf.math.polyval([1.0, 2.0], {a.text})",
        f"tf.linalg.l2_normalize({a.text}, axis=-1)", f"tf.linalg.global_norm([{a.text}, {a.text}])",
        f"tf.clip_by_norm({a.text}, clip_norm={d.pick(['1.0', '0.5', 'np.float32(2)'])})",
        f"tf.math.cumulative_logsumexp({a.text}{d.axis(len(sh), tuple_ok=False)})",
    ]), False


TEMPLATES: list[tuple[Callable[[Draw], tuple[str, bool]], float]] = [
    (t_operator, 0.2), (t_unary, 0.04), (t_index, 0.12), (t_protocol, 0.1), (t_variable, 0.1), (t_convert, 0.1),
    (t_reduce, 0.08), (t_unary_op, 0.07), (t_binary_op, 0.06), (t_data, 0.1), (t_linalg, 0.05)]


def _array(rng: np.random.Generator, dt: str, shape: tuple[int, ...]) -> np.ndarray:
    size = int(np.prod(shape)) if shape else 1
    if dt in FL:
        pool = _F if rng.random() < 0.35 else [v for v in _F if np.isfinite(v)]
        with np.errstate(over="ignore"):   # (1e10 is inf in float16)
            return np.array([pool[k] for k in rng.integers(0, len(pool), size)], np.float64).astype(dt).reshape(shape)
    if dt == "bool":
        return (rng.random(size) < 0.5).reshape(shape)
    vals = [0, 1, 2, 3, -1, 5, -4, 7] if rng.random() < 0.9 else [0, 1, int(np.iinfo(dt).max), int(np.iinfo(dt).min)]
    return np.array([vals[k] for k in rng.integers(0, len(vals), size)], dt).reshape(shape)


def generate(seed: int, index: int, mode: str | None = None) -> Prog4:
    """Program `index` of root seed `seed` (mode drawn unless given)."""
    rng = named(seed, index, "program")
    mode = mode or str(rng.choice(MODES, p=_MODE_P))
    prog = Prog4(seed, index, mode, [])
    ri = named(seed, index, "inputs")
    base = tuple(int(ri.choice([1, 2, 3, 3, 4])) for _ in range(int(ri.choice([0, 1, 1, 2, 2, 3]))))
    n = int(ri.integers(1, 5))
    xs: list[V] = []
    for k in range(n):
        shape = base if ri.random() < 0.6 else base[int(ri.integers(0, len(base) + 1)):] if ri.random() < 0.7 else \
            tuple(int(ri.choice([0, 1, 2, 3])) for _ in range(int(ri.integers(0, 3))))
        dt = str(ri.choice(["float32", "float32", "float32", "float64", "int32", "int64", "bool", "float16"]
                           if mode != "tape" else ["float32", "float32", "float64", "float16", "int32"]))
        var = bool(ri.random() < {"eager": 0.4, "function": 0.35, "sig": 0.0, "tape": 0.6, "dist": 0.3}[mode])
        prog.inputs.append((_array(ri, dt, shape), dt, var))
        if mode == "dist":
            prog.inputs2.append(_array(ri, dt, shape))
        prog.signature.append(None if ri.random() < 0.1 else [None if ri.random() < 0.35 else d for d in shape])
        xs.append(V(f"x{k}", dt, shape, var))
    prog.svals = [str(ri.choice(_SCALARS[:7])) for _ in range(2)]
    prog.svals.insert(1, prog.svals[0])
    prog.persistent = bool(ri.random() < 0.4)
    prog.watched = [k for k in range(n) if not prog.inputs[k][2] and ri.random() < 0.5]
    prog.sources = str(ri.choice(["list", "dict", "single", "tuple"]))
    prog.unconnected = str(ri.choice(["NONE", "ZERO"]))
    fns, ps = zip(*TEMPLATES)
    p = np.array(ps) / sum(ps)
    for j in range(int(rng.integers(3, 7))):
        rs = named(seed, index, f"snippet{j}")
        d = Draw(rs, xs, mode)
        t = fns[int(rs.choice(len(fns), p=p))]
        body, exact = t(d)
        prog.exprs.append(body)
        prog.labels.append(label_of(t.__name__[2:], body))
        prog.exact.append(bool(exact))
    return prog


def isolate(prog: Prog4, k: int, mode: str | None = None) -> Prog4:
    """The program with snippet k only, and only the inputs it names (renumbered)."""
    import dataclasses
    e = prog.exprs[k]
    used = [i for i in range(len(prog.inputs)) if re.search(rf"\bx{i}\b", e)]
    ren = {f"x{i}": f"x{j}" for j, i in enumerate(used)}
    e2 = re.sub(r"\bx(\d+)\b", lambda m: ren.get(m.group(0), m.group(0)), e)
    mode = mode or prog.mode
    return dataclasses.replace(prog, mode=mode, inputs=[prog.inputs[i] for i in used],
                               inputs2=[prog.inputs2[i] for i in used] if mode == "dist" and prog.inputs2 else [],
                               exprs=[e2], exact=[prog.exact[k]], labels=[prog.labels[k]], signature=[prog.signature[i] for i in used],
                               watched=[used.index(i) for i in prog.watched if i in used])


def label_of(template: str, body: str) -> str:
    """A snippet's class for the campaign's counts: the template and the callable, operator or
    protocol it exercises (`data:tf.gather`, `operator:%`, `protocol:len(x)`)."""
    ret = body.split("\n")[-1][len("return "):]
    head = body.split("\n")[0]
    if template == "variable" and ".assign" not in body:
        template = "operator"
    if template == "operator":
        m = re.search(r" (\*\*|//|<=|>=|==|!=|[-+*/%<>&|^@]) ", body)
        return f"operator:{m.group(1) if m else '?'}"
    if template == "unary":
        return "unary:" + re.sub(r"x\d+", "x", ret)
    if template == "index":
        return "index"
    if template == "protocol":
        return "protocol:" + re.sub(r"x\d+", "x", ret)
    if template == "variable":
        m = re.search(r"\.(assign\w*)\(", head)
        return "variable:" + ("slice-assign" if "].assign" in head else m.group(1) if m else "?")
    m = re.search(r"(tf\.[\w.]+)\(", head if template in ("data",) else ret)
    return f"{template}:{m.group(1) if m else '?'}"
