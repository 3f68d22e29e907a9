"""The third fuzzer's programs: independent calls of public TF callables (fz3_ops.OPS) with
arguments drawn by each callable's signature, passed by keyword or position, optional ones
drawn or left at their defaults. Generation is static (nothing runs while a program is drawn,
unlike the second fuzzer's trees): each operand's dtype and shape are known from how it was
drawn, so the arguments fit it mostly, and the calls that do not are compared as error paths.

Operands: the program's inputs (tensors or Variables), or inline NumPy arrays, nested Python
lists, Python scalars and tf.constant literals; shapes of rank 0-3 with zero-size and size-1
dimensions, broadcasting partners; values from pools with NaN, +-inf, -0.0, subnormals, the
largest finite values and integer extremes. Dtypes as tf.DType, strings or NumPy types.

Modes: "eager"; "sig" (tf.function with an input_signature whose dimensions are partly None,
traced with get_concrete_function, then called twice: error at trace vs at run compared);
"tape" (GradientTape, persistent or not, watch_accessed_variables on or off with inputs
watched explicitly, first or second order); "dist" (MirroredStrategy.run on two logical CPUs,
per-replica inputs and mirrored Variables, then experimental_local_results, reduce SUM/MEAN
over axis None and 0, and gather along axis 0). Random streams: one SeedSequence per
(seed, index).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from typing import Any

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz2"))
from fz2_trees import Prog  # noqa: E402
from fz3_ops import ALLD, CX, EXT8_OPS, EXT_OPS, FL, INT, OPS, REAL, Op  # noqa: E402

MODES = ("eager", "sig", "tape", "dist")
_F = [0.0, -0.0, 1.0, -1.0, 0.1, 1 / 3, 2.5, -7.25, 1e10, -1e-3, np.nan, np.inf, -np.inf, 0.5, 3.0, -2.0, 1e-40,
      5e-324, 6e-8, 1e30]
_PY = ["0", "1", "-3", "2.5", "-0.0", "True", "1e-3", "2 ** 31 - 1", "-(2 ** 31)", "float('nan')", "7"]
_NPS = {"float64": "np.float64", "float32": "np.float32", "float16": "np.float16", "int64": "np.int64",
        "int32": "np.int32", "int16": "np.int16", "int8": "np.int8", "uint8": "np.uint8", "uint16": "np.uint16",
        "uint32": "np.uint32", "uint64": "np.uint64", "bool": "np.bool_", "complex64": "np.complex64",
        "complex128": "np.complex128"}


@dataclass
class Prog3(Prog):
    """A fz2 Prog (inputs, per-replica inputs, expressions, exactness) plus the tape options
    ("tape"), the input signature ("sig": one shape per input, None for an unknown dimension, or
    None for an unknown rank) and which inputs are mirrored Variables ("dist")."""
    persistent: bool = False
    watch_accessed: bool = True
    watched: list[int] = field(default_factory=list)
    order: int = 1
    signature: list[Any] = field(default_factory=list)

    def source(self) -> str:
        """The program as Python over a `tf` module: the reproducer printed with a disagreement."""
        mode, self.mode = self.mode, "eager"
        text = super().source().split("\n")
        self.mode = mode
        text[2] = f"# mode: {mode}"
        how = {"sig": f"# each e_k runs as tf.function(lambda x0, ...: e_k, input_signature=[TensorSpec(s, dtype) "
                      f"for s in {self.signature}]): get_concrete_function, then called twice",
               "tape": f"# each e_k under tf.GradientTape(persistent={self.persistent}, watch_accessed_variables="
                       f"{self.watch_accessed}), tape.watch(inputs {self.watched}); gradient to the Variables and "
                       f"watched inputs (order {self.order}" + (", asked twice" if self.persistent else "") + ")",
               "dist": "# each e_k runs as strategy.run(lambda x0, ...: e_k) on MirroredStrategy(['/cpu:0', "
                       "'/cpu:1']) (Variables: created in strategy.scope()), then experimental_local_results, "
                       "reduce SUM/MEAN axis None and 0, gather axis 0"}.get(mode)
        if how:
            text.insert(3, how)
        return "\n".join(text)


@dataclass
class Val:
    """An operand as program text, with the dtype and shape it has (dtype None: a Python value
    whose dtype TF infers)."""
    text: str
    dtype: str | None
    shape: tuple[int, ...]


class _Draw:
    def __init__(self, rng: np.random.Generator, prog: Prog3, ext: bool = False) -> None:
        self.rng, self.prog, self.ext = rng, prog, ext

    def r(self) -> float:
        return float(self.rng.random())

    def i(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi))

    def pick(self, xs: Any) -> Any:
        return xs[int(self.rng.integers(len(xs)))]

    # ---- values
    def array(self, dt: str, shape: tuple[int, ...]) -> np.ndarray:
        size = int(np.prod(shape)) if shape else 1
        if dt in CX:   # (extended catalogue only) real and imaginary parts from the float pool
            part = "float32" if dt == "complex64" else "float64"
            re_, im = self.array(part, shape), self.array(part, shape)
            im = np.where(self.rng.random(shape) < 0.25, 0, im).astype(part)
            return _cx(re_, im, dt)
        if dt in FL:
            pool = [v for v in _F if self.r() < 0.97 or not (0 < abs(v) < 1e-30)]
            with np.errstate(all="ignore"):
                a = np.array([pool[k] for k in self.rng.integers(0, len(pool), size)], np.float64)
                if dt == "float16":
                    a = np.where(np.abs(a) > 65504, np.sign(a) * 65504, a)
                return a.astype("float32" if dt == "bfloat16" else dt).reshape(shape)
        if dt == "bool":
            return (self.rng.random(size) < 0.5).reshape(shape)
        info = np.iinfo(dt)
        pool = [0, 1, 2, 3, 4, info.max, info.min, info.max // 2 + 1] + ([-1, -5, info.min + 1] if info.min else [7])
        return np.array([pool[k] for k in self.rng.integers(0, len(pool), size)], dt).reshape(shape)

    def dtype(self, prefs: tuple[str, ...]) -> str:
        if prefs and self.r() < 0.85:
            return str(self.pick(list(prefs)))
        return str(self.pick(["float32", "float64", "int32", "int64", "bool", "float16", "uint8", "int8",
                              "bfloat16", "uint32", "int16", "uint16", "uint64"] + (list(CX) if self.ext else [])))

    def shape(self) -> tuple[int, ...]:
        rank = self.pick([0, 1, 1, 2, 2, 2, 3])
        return tuple(self.pick([2, 3, 1, 4, 0] if self.r() < 0.25 else [2, 3, 1, 4]) for _ in range(rank))

    def literal(self, dt: str, shape: tuple[int, ...]) -> Val:
        """An inline operand: NumPy array, nested list, Python scalar or tf.constant."""
        a = self.array(dt, shape)
        r = self.r()
        if dt in CX:
            arr = _cx_text(a)
            return Val(arr if r < 0.3 else f"tf.constant({arr}, dtype=tf.{dt})", dt, shape)
        lst = _list(a)
        if r < 0.3 and dt in _NPS:
            return Val(f"np.array({lst}, {_NPS[dt]})" if shape else f"{_NPS[dt]}({lst})", dt, shape)
        if r < 0.55 and dt in ("float32", "int32", "bool"):
            return Val(lst, None if dt != "bool" else "bool", shape)   # Python value: TF infers float32/int32
        return Val(f"tf.constant({lst}, dtype=tf.{dt})", dt, shape)

    def operand(self, prefs: tuple[str, ...]) -> Val:
        ins = [(k, dt, a.shape) for k, (a, dt, _) in enumerate(self.prog.inputs)]
        good = [v for v in ins if not prefs or v[1] in prefs]
        if good and self.r() < 0.7:
            k, dt, shp = self.pick(good)
            return Val(f"x{k}", dt, tuple(shp))
        return self.literal(self.dtype(prefs), self.shape())

    def partner(self, x: Val) -> Val:
        if self.r() < 0.2:
            t = self.pick(_PY)
            return Val(t, None, ())
        dt = x.dtype if (x.dtype and self.r() < 0.85) else self.dtype(REAL)
        ins = [(k, a.shape) for k, (a, d, _) in enumerate(self.prog.inputs) if d == dt and _bc(a.shape, x.shape)]
        if ins and self.r() < 0.6:
            k, shp = self.pick(ins)
            return Val(f"x{k}", dt, tuple(shp))
        shp = list(x.shape)
        r = self.r()
        if r < 0.3:
            shp = [1 if self.r() < 0.5 else d for d in shp]
        elif r < 0.5:
            shp = shp[self.i(0, len(shp) + 1):]
        elif r < 0.55:
            shp = [2] + shp
        return self.literal(dt, tuple(shp))

    def axis(self, rank: int, none_ok: bool = True) -> str:
        r = self.r()
        if none_ok and r < 0.2:
            return "None"
        if rank == 0:
            return self.pick(["0", "-1", "[]", "()"])
        if r < 0.45:
            ks = sorted({self.i(-rank, rank) for _ in range(self.i(1, 3))})
            return repr(tuple(ks)) if self.r() < 0.5 else repr(ks)
        if r > 0.96:
            return str(self.pick([rank, -rank - 1]))
        return str(self.i(-rank, rank))

    def dtype_text(self, prefs: tuple[str, ...] = ALLD) -> str:
        dt = self.dtype(prefs + (CX if self.ext else ()))
        r = self.r()
        if r < 0.15:
            return repr(dt)
        if r < 0.25 and dt in _NPS and dt != "bool":
            return _NPS[dt]
        return f"tf.{dt}"


def _cx(re_: np.ndarray, im: np.ndarray, dt: str) -> np.ndarray:
    """complex(re, im) element by element (no arithmetic: inf and NaN parts kept as they are)."""
    out = np.empty(re_.shape, dt)
    out.real, out.imag = re_, im
    return out


def _cx_text(a: np.ndarray) -> str:
    """A complex array as program text built from its parts."""
    pairs = _list(np.stack([a.real.ravel(), a.imag.ravel()], -1))
    return f"np.array([complex(*p) for p in {pairs}], np.{a.dtype.name}).reshape({tuple(a.shape)})"


def _image(d: _Draw, dt: str, shape: tuple[int, ...] | None = None) -> Val:
    """An image operand: [H, W, 3] or [B, H, W, 3] (now and then another channel count), values in
    the dtype's usual range (floats in [0, 1], sometimes from the edge pool; integers in [0, 255])."""
    if shape is None:
        hw = (d.pick([1, 2, 3, 4, 5]), d.pick([1, 2, 3, 4]))
        ch = d.pick([3, 3, 3, 1, 4]) if d.r() < 0.2 else 3
        shape = ((d.pick([1, 2]),) if d.r() < 0.4 else ()) + hw + (ch,)
    size = int(np.prod(shape))
    if dt in FL and d.r() < 0.25:
        a = d.array(dt, shape)
    elif dt in FL:
        a = (d.rng.integers(0, 9, size) / 8.0).astype("float32" if dt == "bfloat16" else dt).reshape(shape)
    else:
        hi = 256 if dt == "uint8" else 1000
        a = d.rng.integers(0, hi, size).astype(dt).reshape(shape)
    lit = _list(a)
    if dt in _NPS and d.r() < 0.3:
        return Val(f"np.array({lit}, {_NPS[dt]})", dt, shape)
    return Val(f"tf.constant({lit}, dtype=tf.{dt})", dt, shape)


def _list(a: np.ndarray) -> str:
    return re.sub(r"\b(nan|inf)\b", lambda m: f"float('{m.group(1)}')", repr(a.tolist()))


def _bc(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    return all(x == y or x == 1 or y == 1 for x, y in zip(reversed(a), reversed(b)))


def _arg(d: _Draw, kind: str, x: Val | None, op: Op) -> str | None:
    """One argument of `kind` (see fz3_ops), fitted to the operand x when there is one."""
    rank = len(x.shape) if x else 0
    shape = x.shape if x else ()
    if kind == "y":
        return d.partner(x).text if x else "1"
    if kind == "ax":
        return d.axis(rank)
    if kind == "axl":
        return d.axis(rank, none_ok=False) if rank else "[0]"
    if kind == "kd":
        return d.pick(["True", "False"])
    if kind == "dt":
        return d.dtype_text()
    if kind == "it":
        return d.pick(["tf.int32", "tf.int64", "'int64'", "np.int32", "tf.int16"])
    if kind == "nm":
        return repr(d.pick(["op", "a/b", "x_1", ""]))
    if kind == "bl":
        return d.pick(["True", "False"])
    if kind == "fl":
        return d.pick(["0.5", "2.0", "-1.0", "0", "1e-3", "3", "float('inf')", "np.float32(0.25)"])
    if kind == "ord":
        return d.pick(["'euclidean'", "'fro'", "1", "2", "np.inf", "0.5", "-1"])
    if kind == "i":
        return str(d.pick([0, 1, 2, 3, -1, 5] if d.r() < 0.9 else [-2, 100]))
    if kind == "k":
        return str(d.i(0, (shape[-1] if shape else 1) + 1 + (d.r() < 0.05)))
    if kind == "dir":
        return d.pick(["'ASCENDING'", "'DESCENDING'"])
    if kind == "side":
        return d.pick(["'left'", "'right'"])
    if kind == "sh":
        return repr(d.pick([[2, 3], [0], [], [3], (1, 2), [2, 0, 1]]))
    if kind == "mult":
        return repr([d.i(0, 3) for _ in shape])
    if kind == "dims":
        return repr(d.pick([[2, 3], [4], [3, 1, 2]]))
    if kind == "range":
        return d.pick(["[0.0, 5.0]", "[-1.0, 1.0]", "[0, 10]", "[1.0, 1.0]"])
    if kind == "none":
        return None
    if kind == "pr":
        return d.pick(["[1.0, 1.44, 1.73, 1.0]", "1.5", "[1.0, 2.0]", "[1.0, 1.2, 1.0, 1.0]", "2", "[1.0, 0.5, 1.5, 1.0]"])
    if kind == "fseed":
        return str(d.pick([1, 7, 42, 12345]))        # (seed 0: TF draws a random sequence)
    if kind == "seqlen":
        b, t = (shape[1], shape[0]) if rank == 3 else (1, 1)
        return repr([d.i(0, t + 1 + (d.r() < 0.05)) for _ in range(b)])
    if kind == "bw":
        return str(d.pick([1, 2, 5, 100]))
    if kind == "tp":
        return str(d.pick([1, 1, 2]))
    if kind == "isz":
        return d.pick(["[480, 640, 3]", "[7, 9, 1]", "np.array([30, 20, 3], np.int64)", "[4, 4]", "[1, 1, 3]"])
    if kind == "bbx":
        return d.pick(["[[[0.1, 0.2, 0.6, 0.7]]]", "[[[0.0, 0.0, 1.0, 1.0], [0.5, 0.5, 0.6, 0.6]]]",
                       "tf.zeros([1, 0, 4])", "[[[0.1, 0.2, 1.6, 0.7]]]"])
    if kind == "arange":
        return d.pick(["[0.05, 1.0]", "[0.08, 1.0]", "[0.5, 0.5]", "[0.0, 1.0]"])
    if kind == "offdiag":
        n = shape[0] if shape else 1
        return d.literal(x.dtype if x and x.dtype else "float32", (max(n - 1 + (d.r() < 0.05), 0),)).text
    if kind == "seed":
        pair = [d.pick([0, 1, 7, 42, -3, 2 ** 31 - 1]), d.pick([0, 2, 13, -1])]
        return repr(pair) if d.r() < 0.6 else f"tf.constant({pair}, dtype=tf.{d.pick(['int32', 'int64'])})"
    if kind == "sdt":
        return d.pick(["tf.float32", "tf.float64", "tf.float16", "tf.bfloat16", "tf.int32", "tf.int64", "'float32'"])
    if kind == "frac":
        return d.pick(["0.5", "1.0", "0.25", "0.0", "1.5", "0.75"])
    if kind == "hue":
        return d.pick(["0.1", "-0.3", "0.5", "0.0", "1.5", "-0.75"])
    if kind == "size":
        return repr(d.pick([[2, 2], [3, 5], [1, 1], [4, 3], [0, 2], [6, 6]]))
    if kind == "meth":
        return d.pick(["'bilinear'", "'nearest'", "'bicubic'", "'area'", "'lanczos3'", "'mitchellcubic'",
                       "'gaussian'", "tf.image.ResizeMethod.NEAREST_NEIGHBOR"])
    if kind == "img2":
        return _image(d, x.dtype or "float32", x.shape).text if x else "1.0"
    if kind == "scalar":
        return d.literal(d.dtype(op.dtypes), ()).text
    if kind in ("lab", "ilab", "idx", "seg", "nseg", "perm", "lastvec", "mat", "list", "sorted", "L"):
        return _shaped(d, kind, x)
    raise ValueError(f"unknown parameter kind {kind!r} in fz3_ops")


def _shaped(d: _Draw, kind: str, x: Val | None) -> str:
    shape = x.shape if x else ()
    dt = x.dtype or "float32" if x else "float32"
    if kind == "lab":
        a = d.rng.integers(0, 5, int(np.prod(shape)) if shape else 1) / 4.0
        lit = _list(a.reshape(shape).astype(dt if dt in FL and dt != "bfloat16" else "float32"))
        return f"tf.constant({lit}, dtype=tf.{dt if dt in FL else 'float32'})"
    if kind == "ilab":
        n = shape[-1] if shape else 1
        ids = d.rng.integers(0, max(n, 1) + (d.r() < 0.05), int(np.prod(shape[:-1])) if len(shape) > 1 else 1)
        return f"tf.constant({_list(ids.reshape(shape[:-1]))}, dtype=tf.{d.pick(['int32', 'int64'])})"
    if kind == "idx":
        n = shape[0] if shape else 1
        ids = [d.i(0, max(n, 1) + (d.r() < 0.05)) for _ in range(d.i(0, 4))]
        return repr(ids) if d.r() < 0.6 else f"np.array({ids}, np.int64)"
    if kind == "seg":
        n = shape[0] if shape else 1
        return repr(sorted(d.i(0, 3) for _ in range(n)))
    if kind == "nseg":
        return str(d.i(1, 4))
    if kind == "perm":
        n = shape[0] if len(shape) == 1 else 3
        return repr([int(v) for v in d.rng.permutation(n)])
    if kind == "lastvec":
        n = shape[-1] if shape else 1
        return d.literal(x.dtype if x and x.dtype else "float32", (n,)).text
    if kind == "mat":
        if len(shape) < 2:
            return d.literal(x.dtype or "float32" if x else "float32", (2, 2)).text
        return d.literal(x.dtype or "float32", shape[:-2] + (shape[-1], d.pick([1, 2, 3]))).text
    if kind == "list":
        n = d.i(1, 4)
        return "[" + ", ".join([x.text] + [d.literal(x.dtype or "float32", x.shape).text for _ in range(n - 1)]) + "]"
    if kind == "sorted":
        a = np.sort(d.array(x.dtype if x and x.dtype in REAL and x.dtype != "bfloat16" else "float32",
                            ((x.shape[:-1] if x and x.shape else ()) + (d.i(1, 5),))), axis=-1)
        return f"tf.constant({_list(a)}, dtype=tf.{a.dtype.name})"
    if kind == "L":
        return repr([d.pick([1.0, -2.0, 0.5, 3.0]) for _ in range(d.i(0, 4))])
    raise ValueError(kind)


def _call(d: _Draw, op: Op) -> tuple[str, bool]:
    """`tf.<path>(...)` with TF's parameter names, and whether its result is exact."""
    parts: list[str] = []
    positional = d.r() < 0.6
    x: Val | None = None
    for j, (name, kind) in enumerate(op.params):
        if j >= op.required and d.r() < 0.55:
            positional = False
            continue
        if kind == "x":
            x = d.operand(op.dtypes)
            text = x.text
        elif kind == "img":
            x = _image(d, d.dtype(op.dtypes))
            text = x.text
        elif kind == "vec":
            x = d.operand(op.dtypes)
            x = Val(f"tf.reshape({x.text}, [-1])", x.dtype, (int(np.prod(x.shape)) if x.shape else 1,))
            text = x.text
        elif kind == "list":
            x = d.operand(op.dtypes)
            text = _shaped(d, "list", x)
        elif kind == "sq":
            n = d.pick([1, 2, 3, 0])
            x = d.literal(d.dtype(op.dtypes), d.pick([(n, n), (2, n, n)]))
            text = x.text
        else:
            text = _arg(d, kind, x, op)
        if text is None:
            positional = False
            continue
        if positional and d.r() < 0.85:
            parts.append(text)
        else:
            positional = False
            parts.append(f"{name}={text}")
    exact = op.exact is True or (op.exact == "int" and (x is None or x.dtype not in FL))
    return f"tf.{op.path}({', '.join(parts)})", bool(exact)


def generate(seed: int, index: int, mode: str | None = None, ext: int = False) -> Prog3:
    """Program `index` of stream `seed`. With `ext` (issue 29's fz5: another stream, so earlier
    seeds' programs are unchanged) half the calls come from the extended catalogue (fz3_ops.EXT_OPS:
    complex numbers, tf.random, tf.image, Eigen's newer kernels) and inputs may be complex; with
    ext=2 (the eleventh session's ops, a stream of its own) from EXT_OPS + EXT8_OPS."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, index, 3] + ([5] if ext else [])
                                                       + ([8] if ext == 2 else [])))
    mode = mode or str(rng.choice(MODES, p=[0.35, 0.2, 0.3, 0.15]))
    prog = Prog3(seed, index, mode, [])
    d = _Draw(rng, prog, ext)
    for _ in range(d.i(1, 4)):
        dt = d.dtype(("float32", "float32", "float64", "int32", "int64", "bool", "float16")
                     + (("complex64", "complex128") if ext else ()))
        shape = d.shape()
        var = mode != "sig" and d.r() < (0.6 if mode == "tape" else 0.25)
        prog.inputs.append((d.array(dt, shape), dt, bool(var)))
        if mode == "dist":
            prog.inputs2.append(d.array(dt, shape))
        prog.signature.append(None if d.r() < 0.1 else [None if d.r() < 0.4 else n for n in shape])
    prog.persistent = d.r() < 0.4
    prog.watch_accessed = d.r() < 0.75
    prog.watched = [k for k in range(len(prog.inputs)) if d.r() < 0.4]
    prog.order = 2 if d.r() < 0.3 else 1
    prog.unconnected = "ZERO" if d.r() < 0.4 else "NONE"
    for _ in range(d.i(3, 8)):
        table = (EXT_OPS + EXT8_OPS if ext == 2 else EXT_OPS) if ext and d.r() < 0.5 else OPS
        op = table[int(rng.integers(len(table)))]
        text, exact = _call(d, op)
        if text not in prog.exprs:
            prog.exprs.append(text)
            prog.exact.append(exact)
    return prog


__all__ = ["Prog3", "generate", "MODES", "INT"]
