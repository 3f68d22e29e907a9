"""A throwaway differential generator of the public API, round nine (fz51b): THE NAMES NO FUZZER CALLS. The public
functions of tf, tf.keras.ops (and its nn / linalg / image / numpy paths), tf.experimental.numpy, tf.debugging,
tf.sets, tf.quantization, tf.image, tf.random, tf.sparse, tf.ragged and the common tf.raw_ops that no generator of
tests/fuzz*/ emitted when this round was written (the measurement is the session's logs, fz51b_logs/never_list.txt),
drawn as a person uses them: in short chains (a fresh input, now and then one ordinary op before the call, the call,
its outputs summed into the loss), with the arguments the docs show (keyword arguments, defaults omitted, Python
lists and NumPy arrays as inputs, name=, axis=None / keepdims / dtype= / seeds), at edge values (NaN, +-inf, -0.0,
subnormals, int extremes, empty dims), and, one program in six, an invalid call last (TF's error class compared).
Each program runs in fz45_gen's four modes (eager statements, tf.function, GradientTape of the loss with respect to
every float input, MirroredStrategy(2 CPUs).run with reduce and gather) on TF 2.21 and on simdist.

    python tests/fuzz51b/fz51b_gen.py SEED N [--show 40] [--steps 12] [--print]

Not a test: a probe for classes the project's generators do not draw. Deterministic: random.Random(SEED).
"""
from __future__ import annotations

import math
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))

import fz45_gen as G  # noqa: E402 - the third round's values, modes and comparison

V, Prog = G.V, G.Prog
_FL = G._FL
K, T = "tf.keras.ops", "tf.experimental.numpy"
FDT = ["float32", "float32", "float32", "float64", "float16"]


class P(Prog):
    """A program whose outputs marked `loss` are summed into the final scalar."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.losses: list[tuple[V, str]] = []

    def lits(self, shape: tuple, dt: str, vals: list[str]) -> V:
        v = self.new_input(shape, "int32" if dt not in _FL else dt, edge=False)
        v.dtype = dt
        np_dt = {"bfloat16": "float32"}.get(dt, dt)
        text = f"np.array([{', '.join(vals)}], np.{np_dt}).reshape({list(shape)})"
        self.inputs[-1] = (v, f"tf.cast({text}, tf.bfloat16)" if dt == "bfloat16" else f"tf.constant({text})")
        return v

    def stmt(self, text: str) -> None:
        """A statement binding no value of the program (a def, a with block)."""
        self.lines.append((text.replace("`", '"'), []))

    def emit(self, expr: str, outs: list[tuple]) -> list[V]:
        """Prog.emit, a backquote in the text written as a double quote (the f-strings here cannot hold one)."""
        return super().emit(expr.replace("`", '"'), outs)

    def out(self, expr: str, n: int = 1, kinds: str | None = None, dt: str = "float32") -> list[V]:
        """A statement binding n outputs; kinds[i]: 'f' numeric (summed into the loss), 'c' complex (its real
        part summed), '-' not summed."""
        vs = self.emit(expr, [((), dt)] * n)
        for v, k in zip(vs, kinds or "f" * n):
            if k != "-":
                self.losses.append((v, k))
        return vs


def _f(p: P, shape: tuple, dt: str | None = None, lo: float = -2.0, hi: float = 2.0, edge: float = 0.2,
       lst: bool = True) -> str:
    """A float operand: a tensor input (edge values now and then, one ordinary op before the call now and then),
    a Python list or a NumPy array literal."""
    r = p.rng
    dt = dt or r.choice(FDT)
    if r.random() < edge:
        v = p.new_input(shape, dt, edge=True)
    else:
        vals = []
        for _ in range(math.prod(shape)):
            x = r.uniform(lo, hi)
            vals.append(repr(round(x * 8) / 8) if r.random() < 0.75 else repr(round(x, 3)))
        u = r.random()
        if u < 0.12 and shape and dt == "float32" and lst:
            return _nest(shape, vals)
        if u < 0.2 and dt != "bfloat16" and shape:
            return f"np.array({_nest(shape, vals)}, np.{dt})"
        v = p.lits(shape, dt, vals)
    if r.random() < 0.25:
        op = r.choice(["tf.math.sin({})", "{} * 0.5", "tf.nn.relu({})", "tf.square({})", "-{}", "tf.identity({})",
                       "tf.math.tanh({})", "{} + 1.0"])
        v = p.emit(op.format(v.name), [(shape, dt)])[0]
    return v.name


def _i(p: P, shape: tuple, lo: int = 0, hi: int = 4, dt: str = "int32", edge: float = 0.0) -> str:
    r = p.rng
    vals = [str(r.randint(lo, hi)) for _ in range(math.prod(shape))]
    if edge and r.random() < edge and vals:
        vals[r.randrange(len(vals))] = r.choice({"int32": ["2147483647", "-2147483648"],
                                                  "int64": ["9223372036854775807", "-9223372036854775808"],
                                                  "uint8": ["255", "0"], "int8": ["127", "-128"],
                                                  "int16": ["32767", "-32768"]}.get(dt, ["0"]) + ["-1"])
    u = r.random()
    if u < 0.15 and shape and dt == "int32":
        return _nest(shape, vals)
    return p.lits(shape, dt, vals).name


def _b(p: P, shape: tuple) -> str:
    return p.lits(shape, "bool", [p.rng.choice(["True", "False"]) for _ in range(math.prod(shape))]).name


def _nest(shape: tuple, vals: list[str]) -> str:
    if not shape:
        return vals[0]
    if len(shape) == 1:
        return "[" + ", ".join(vals) + "]"
    n = math.prod(shape[1:])
    return "[" + ", ".join(_nest(shape[1:], vals[i * n:(i + 1) * n]) for i in range(shape[0])) + "]"


def _shape(p: P, rmin: int = 1, rmax: int = 3, empty: float = 0.05) -> tuple:
    r = p.rng
    dims = [r.choice([1, 2, 3, 3, 4]) for _ in range(r.randint(rmin, rmax))]
    if dims and r.random() < empty:
        dims[r.randrange(len(dims))] = 0
    return tuple(dims)


def _ax(p: P, rank: int, none: bool = True) -> str:
    r = p.rng
    c = ([", axis=None"] if none else []) + ["", f", axis={r.randrange(rank)}" if rank else ""]
    if rank:
        c.append(f", axis={-1 - r.randrange(rank)}")
    return r.choice(c)


# --- keras.ops: elementwise
K_UN = ["absolute", "arccos", "arcsin", "arctan", "arcsinh", "ceil", "cos", "cosh", "erfc", "fabs", "floor",
        "negative", "sin", "sinh", "tan", "sinc", "signbit", "isfinite", "isinf", "isnan", "isneginf", "isposinf",
        "isreal", "real", "imag", "conj", "conjugate", "tanh_shrink", "hard_shrink", "sparse_sigmoid", "ravel", "copy",
        "logical_not", "size", "ndim", "shape", "arccosh", "arctanh", "erfinv", "count_nonzero", "identity_like"]
K_BIN = ["divide", "divide_no_nan", "equal", "not_equal", "greater", "greater_equal", "less", "less_equal", "minimum",
         "multiply", "subtract", "fmax", "fmin", "heaviside", "isclose", "allclose", "logical_and", "logical_or",
         "logical_xor", "inner", "outer", "dot", "vdot", "kron", "ldexp", "append"]
K_RED = ["all", "any", "amax", "amin", "argmax", "argmin", "cumprod", "cumsum", "median", "nanmax", "nanmean",
         "nanmin", "nanprod", "nanstd", "nansum", "nanvar", "nanmedian", "ptp", "average", "nanargmax", "nanargmin",
         "nancumprod", "nancumsum", "count_nonzero", "sort", "argsort", "flip", "diff"]
K_INT_BIN = ["gcd", "lcm", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
             "bitwise_left_shift", "bitwise_right_shift"]


def b_kunary(p: P) -> bool:
    r = p.rng
    f = r.choice(K_UN)
    s = _shape(p, 0, 3)
    if f in ("arccosh",):
        x = _f(p, s, lo=1.0, hi=4.0)
    elif f in ("arctanh", "erfinv", "arccos", "arcsin"):
        x = _f(p, s, lo=-1.0, hi=1.0)
    else:
        x = _f(p, s)
    if f == "hard_shrink":
        p.out(f"{K}.hard_shrink({x}{r.choice(['', ', threshold=1.0', ', 0.25'])})")
    elif f == "identity_like":
        p.out(f"{K}.identity({r.randint(0, 3)}{r.choice(['', ', dtype=`int32`', ', dtype=`float64`'])})")
    elif f in ("size", "ndim", "shape"):
        p.out(f"tf.constant({K}.{f}({x}))", kinds="-")
    elif f in ("real", "imag", "conj", "conjugate", "isreal") and r.random() < 0.5:
        p.out(f"{K}.{f}(tf.complex({x}, {x}))" if "[" not in x and "np." not in x else f"{K}.{f}({x})",
              kinds="c" if f.startswith("conj") else "f")
    else:
        p.out(f"{K}.{f}({x})")
    return True


def b_kbinary(p: P) -> bool:
    r = p.rng
    f = r.choice(K_BIN)
    s = _shape(p, 0, 3)
    dt = r.choice(FDT)
    x = _f(p, s, dt)
    if f in ("inner", "dot", "vdot", "outer", "kron"):
        y = _f(p, s if f != "kron" else _shape(p, len(s), len(s)), dt)
    elif f == "ldexp":
        y = _i(p, s, -3, 3)
    elif f == "append":
        y = _f(p, _shape(p, 1, 2), dt)
        ax = ""
        p.out(f"{K}.append({x}, {y}{ax})")
        return True
    elif f.startswith("logical"):
        y = _b(p, s) if r.random() < 0.5 else _f(p, s, dt)
    else:
        y = _f(p, s[1:] if s and r.random() < 0.3 else s, dt) if r.random() < 0.85 else r.choice(["2.0", "0.0", "-1"])
    kw = ""
    if f in ("isclose", "allclose"):
        kw = r.choice(["", ", equal_nan=True", ", rtol=0.1", ", atol=0.5"])
    p.out(f"{K}.{f}({x}, {y}{kw})")
    return True


def b_kreduce(p: P) -> bool:
    r = p.rng
    f = r.choice(K_RED)
    s = _shape(p, 1, 3)
    x = _f(p, s, edge=0.35)
    ax = _ax(p, len(s), none=f not in ("sort", "argsort", "diff"))
    kd = r.choice(["", ", keepdims=True"]) if f in ("all", "any", "amax", "amin", "median", "nanmax", "nanmean",
                                                   "nanmin", "nanprod", "nanstd", "nansum", "nanvar", "nanmedian",
                                                   "ptp", "argmax", "argmin") else ""
    if f == "average" and r.random() < 0.5 and ax and "None" not in ax and ax != "":
        a = int(ax.split("=")[1])
        w = _f(p, (s[a],), lo=0.0, hi=2.0, edge=0.0)
        p.out(f"{K}.average({x}{ax}, weights={w})")
        return True
    if f == "diff":
        p.out(f"{K}.diff({x}{r.choice(['', ', n=2'])}{ax})")
        return True
    p.out(f"{K}.{f}({x}{ax}{kd})")
    return True


def b_kint(p: P) -> bool:
    r = p.rng
    f = r.choice(K_INT_BIN + ["bitwise_not", "bitwise_invert", "bincount", "digitize", "one_hot", "multi_hot",
                              "unravel_index", "saturate_cast"])
    s = _shape(p, 1, 2)
    dt = r.choice(["int32", "int32", "int64", "uint8", "int8", "int16"])
    lo = 0 if dt == "uint8" or f in ("bincount", "one_hot", "multi_hot", "unravel_index") else -6
    x = _i(p, s, lo, 6, dt, edge=0.0 if f in ("bincount", "one_hot", "multi_hot", "unravel_index") else 0.3)
    if f in K_INT_BIN:
        y = _i(p, s, 0 if "shift" in f else lo, 5 if "shift" in f else 6, dt)
        p.out(f"{K}.{f}({x}, {y})")
    elif f in ("bitwise_not", "bitwise_invert"):
        p.out(f"{K}.{f}({x})")
    elif f == "bincount":
        w = r.choice(["", f", weights={_f(p, s, 'float32')}"])
        p.out(f"{K}.bincount({x}{w}{r.choice(['', ', minlength=8'])})")
    elif f == "digitize":
        p.out(f"{K}.digitize({_f(p, s, 'float32', edge=0.3)}, [-1.0, 0.0, 0.5, 2.0])")
    elif f == "one_hot":
        p.out(f"{K}.one_hot({x}, {r.choice([4, 7])}{r.choice(['', ', axis=0', ', dtype=`int32`'])})")
    elif f == "multi_hot":
        p.out(f"{K}.multi_hot({x}, {r.choice([7, 8])})")
    elif f == "unravel_index":
        p.out(f"tf.stack({K}.unravel_index({x}, (2, 4)))")
    else:
        p.out(f"{K}.saturate_cast({_f(p, s, edge=0.4, lo=-300, hi=300)}, '{r.choice(['uint8', 'int8', 'int32', 'float16'])}')")
    return True


def b_kcreate(p: P) -> bool:
    r = p.rng
    f = r.choice(["arange", "eye", "full", "full_like", "linspace", "logspace", "geomspace", "ones", "zeros", "tri",
                  "tril", "triu", "diag", "diagflat", "diagonal", "meshgrid", "empty", "empty_like", "ones_like",
                  "zeros_like", "bartlett", "blackman", "hamming", "hanning", "kaiser", "array", "vander", "trace"])
    dt = r.choice(["", "", ", dtype='float64'", ", dtype='int32'", ", dtype='float16'"])
    if f == "arange":
        a = r.choice(["5", "2, 7", "1, 8, 2", "0.5, 3.0, 0.5", "5, 0, -1", "3.0"])
        p.out(f"{K}.arange({a}{dt})")
    elif f == "eye":
        p.out(f"{K}.eye({r.randint(0, 3)}{r.choice(['', ', 4', ', k=1', ', M=2, k=-1'])}{dt})")
    elif f in ("full",):
        p.out(f"{K}.full({list(_shape(p, 1, 2))}, {r.choice(['2.5', '7', 'float(`nan`)', '-0.0'])}{dt})")
    elif f in ("linspace", "logspace", "geomspace"):
        a, b = r.choice([("0.0", "1.0"), ("1.0", "8.0"), ("-1.0", "2.0"), ("2", "3")])
        if f == "geomspace" and a.startswith("-"):
            a = "0.5"
        extra = r.choice(["", ", num=5", ", num=4, endpoint=False", ", num=1", ", num=0"])
        p.out(f"{K}.{f}({a}, {b}{extra}{dt})")
    elif f in ("ones", "zeros", "empty"):
        sh = list(_shape(p, 0, 2))
        p.out(f"{K}.{f}({sh}{dt})" if f != "empty" else f"tf.shape({K}.empty({sh}{dt}))")
    elif f == "tri":
        p.out(f"{K}.tri({r.randint(0, 4)}{r.choice(['', ', 3', ', k=1', ', M=2, k=-1'])}{dt})")
    elif f in ("tril", "triu"):
        x = _f(p, _shape(p, 2, 3))
        p.out(f"{K}.{f}({x}{r.choice(['', ', k=1', ', k=-1', ', 2'])})")
    elif f in ("diag", "diagflat"):
        x = _f(p, _shape(p, 1, 2 if f == "diag" else 1))
        p.out(f"{K}.{f}({x}{r.choice(['', ', k=1', ', k=-1'])})")
    elif f == "diagonal":
        x = _f(p, _shape(p, 2, 3))
        p.out(f"{K}.diagonal({x}{r.choice(['', ', offset=1', ', offset=-1', ', axis1=1, axis2=0'])})")
    elif f == "trace":
        x = _f(p, _shape(p, 2, 3))
        p.out(f"{K}.trace({x}{r.choice(['', ', offset=1', ', axis1=1, axis2=0'])})")
    elif f == "meshgrid":
        a, b = _f(p, (r.randint(1, 3),), "float32"), _f(p, (r.randint(1, 3),), "float32")
        p.out(f"{K}.meshgrid({a}, {b}{r.choice(['', ', indexing=`ij`'])})", 2)
    elif f in ("full_like", "empty_like", "ones_like", "zeros_like"):
        x = _f(p, _shape(p, 0, 2))
        fill = ", 3" if f == "full_like" else ""
        p.out(f"{K}.{f}({x}{fill}{dt})" if f != "empty_like" else f"tf.shape({K}.empty_like({x}{dt}))")
    elif f in ("bartlett", "blackman", "hamming", "hanning"):
        p.out(f"{K}.{f}({r.randint(0, 6)})")
    elif f == "kaiser":
        p.out(f"{K}.kaiser({r.randint(0, 6)}, {r.choice(['0.0', '5.0', '14'])})")
    elif f == "array":
        p.out(f"{K}.array({r.choice(['[1, 2, 3]', '[[1.5, 2.0]]', '3.0', '[True, False]', 'np.arange(4)'])}{dt})")
    else:
        x = _f(p, (r.randint(1, 4),))
        p.out(f"{K}.vander({x}{r.choice(['', ', N=2', ', increasing=True'])})")
    return True


def b_kshape(p: P) -> bool:
    r = p.rng
    f = r.choice(["array_split", "dsplit", "dstack", "hsplit", "hstack", "vsplit", "vstack", "fliplr", "flipud",
                  "moveaxis", "pad", "repeat", "roll", "split", "stack", "swapaxes", "tile", "unstack",
                  "take_along_axis", "where", "slice", "slice_update", "scatter", "scatter_update", "select",
                  "get_item", "rearrange", "nonzero", "searchsorted", "argpartition", "top_k", "in_top_k", "isin",
                  "unique", "broadcast_to", "rot90", "squeeze_expand"])
    s = (r.randint(1, 4), r.randint(1, 3), r.randint(1, 3))[: r.randint(1, 3)]
    x = _f(p, s, lst=f not in ("where", "select"))
    rk = len(s)
    if f in ("array_split", "split"):
        n = r.choice([1, 2, 3]) if f == "array_split" else r.choice([d for d in (1, s[0]) if d])
        p.out(f"{K}.concatenate({K}.{f}({x}, {n}), axis=0)")
    elif f in ("dsplit", "hsplit", "vsplit"):
        need = {"vsplit": 2, "hsplit": 2, "dsplit": 3}[f]
        if rk < need:
            return False
        ax = {"vsplit": 0, "hsplit": 1, "dsplit": 2}[f]
        p.out(f"{K}.stack({K}.{f}({x}, {s[ax]}))")
    elif f in ("dstack", "hstack", "vstack", "stack"):
        y = _f(p, s)
        p.out(f"{K}.{f}([{x}, {y}]{(_ax(p, rk, none=False) if f == 'stack' else '')})")
    elif f in ("fliplr", "flipud"):
        if rk < 2 and f == "fliplr":
            return False
        p.out(f"{K}.{f}({x})")
    elif f == "moveaxis":
        p.out(f"{K}.moveaxis({x}, {r.randrange(rk)}, {-1 - r.randrange(rk)})")
    elif f == "pad":
        pw = [[r.randint(0, 2), r.randint(0, 1)] for _ in s]
        mode = r.choice(["", "", ", mode='reflect'", ", mode='symmetric'", ", constant_values=1.5"])
        p.out(f"{K}.pad({x}, {pw if r.random() < 0.7 else r.randint(1, 2)}{mode})")
    elif f == "repeat":
        p.out(f"{K}.repeat({x}, {r.choice(['2', '0', '[1] * ' + str(s[0])])}{', axis=0' if r.random() < 0.6 else ''})")
    elif f == "roll":
        p.out(f"{K}.roll({x}, {r.choice([1, -2, 5])}{_ax(p, rk)})")
    elif f == "swapaxes":
        p.out(f"{K}.swapaxes({x}, 0, {rk - 1})")
    elif f == "tile":
        p.out(f"{K}.tile({x}, {r.choice(['2', '[2, 1]', '[1, 2, 1, 1]', '(3,)'])})")
    elif f == "unstack":
        p.out(f"{K}.stack({K}.unstack({x}{_ax(p, rk, none=False)}))")
    elif f == "take_along_axis":
        ix = _i(p, s, 0, min(s) - 1 if min(s) else 0)
        p.out(f"{K}.take_along_axis({x}, {ix}, axis={r.randrange(rk)})")
    elif f == "where":
        c = _b(p, s)
        p.out(r.choice([f"{K}.where({c}, {x}, 0.0)", f"tf.cast({K}.where({c}), tf.float32)",
                        f"{K}.where({x} > 0, {x}, {_f(p, s)})"]))
    elif f == "slice":
        st = [0] * rk
        p.out(f"{K}.slice({x}, {st}, {[max(d - 1, 0) for d in s]})")
    elif f == "slice_update":
        u = _f(p, tuple(1 for _ in s), "float32")
        p.out(f"{K}.slice_update(tf.cast({x}, tf.float32), {[0] * rk}, {u})")
    elif f == "scatter":
        p.out(f"{K}.scatter([[0], [2], [0]], {_f(p, (3,), 'float32')}, (4,))")
    elif f == "scatter_update":
        p.out(f"{K}.scatter_update({_f(p, (4, 2), 'float32')}, [[1], [3]], {_f(p, (2, 2), 'float32')})")
    elif f == "select":
        c1 = f"{x} > 0"
        p.out(f"{K}.select([{c1}, {x} < -1], [{x}, -{x}]{r.choice(['', ', default=9.0'])})")
    elif f == "get_item":
        p.out(f"{K}.get_item({x}, {r.choice(['0', '-1', 'slice(1, None)', '(slice(None), 0)' if rk > 1 else '0'])})")
    elif f == "rearrange":
        if rk == 1:
            pat = r.choice(["'a -> a'", "'(a) -> a'"])
        elif rk == 2:
            pat = r.choice(["'a b -> b a'", "'a b -> (a b)'", "'a b -> a b 1'"])
        else:
            pat = r.choice(["'a b c -> c a b'", "'a b c -> a (b c)'", "'a b c -> (a b) c'"])
        p.out(f"{K}.rearrange({x}, {pat})")
    elif f == "nonzero":
        p.out(f"tf.stack({K}.nonzero({x}))")
    elif f == "searchsorted":
        p.out(f"{K}.searchsorted([-1.0, 0.0, 0.5, 2.0], {_f(p, (r.randint(0, 4),), 'float32', edge=0.3)}"
              f"{r.choice(['', ', side=`right`'])})")
    elif f == "argpartition":
        p.out(f"{K}.argpartition({x}, {r.randrange(s[-1]) if s[-1] else 0})")
    elif f == "top_k":
        p.out(f"{K}.top_k({x}, {r.randint(1, s[-1]) if s[-1] else 0}{r.choice(['', ', sorted=False'])})", 2)
    elif f == "in_top_k":
        pr = _f(p, (3, 4), "float32", edge=0.3)
        p.out(f"{K}.in_top_k({_i(p, (3,), 0, 3)}, {pr}, {r.choice([1, 2])})")
    elif f == "isin":
        p.out(f"{K}.isin({_i(p, (5,), 0, 6)}, {_i(p, (3,), 0, 6)}{r.choice(['', ', invert=True'])})")
    elif f == "unique":
        p.out(f"{K}.unique({_i(p, (6,), 0, 3)}, size=4, fill_value=-1)")
    elif f == "broadcast_to":
        p.out(f"{K}.broadcast_to({x}, {[2] + list(s)})")
    elif f == "rot90":
        if rk < 2:
            return False
        p.out(f"{K}.rot90({x}{r.choice(['', ', k=2', ', k=-1', ', axes=(1, 0)'])})")
    else:
        p.out(f"{K}.squeeze({K}.expand_dims({x}, {r.choice([0, -1, [0, 1]])}))")
    return True


def b_kstat(p: P) -> bool:
    r = p.rng
    f = r.choice(["quantile", "percentile", "nanquantile", "nanpercentile", "histogram", "corrcoef", "cdist",
                  "correlate", "trapezoid", "norm", "cross", "tensordot", "einsum", "polar", "view_as_complex",
                  "view_as_real", "logaddexp_chain"])
    if f in ("quantile", "percentile", "nanquantile", "nanpercentile"):
        s = _shape(p, 1, 2)
        x = _f(p, s, edge=0.3 if f.startswith("nan") else 0.0)
        q = r.choice(["0.5", "[0.25, 0.75]", "0.0", "1.0"])
        if "percentile" in f:
            q = r.choice(["50", "[25.0, 75.0]", "0", "100"])
        m = r.choice(["", ", method='lower'", ", method='higher'", ", method='nearest'", ", method='midpoint'"])
        p.out(f"{K}.{f}({x}, {q}{_ax(p, len(s))}{m}{r.choice(['', ', keepdims=True'])})")
    elif f == "histogram":
        x = _f(p, (r.randint(1, 6),), "float32")
        p.out(f"{K}.histogram({x}{r.choice(['', ', bins=4', ', bins=3, range=(-1.0, 1.0)'])})", 2)
    elif f == "corrcoef":
        p.out(f"{K}.corrcoef({_f(p, (r.randint(1, 3), 4))})")
    elif f == "cdist":
        d = r.randint(1, 3)
        p.out(f"{K}.cdist({_f(p, (2, d), 'float32')}, {_f(p, (3, d), 'float32')})")
    elif f == "correlate":
        p.out(f"{K}.correlate({_f(p, (r.randint(2, 5),), 'float32')}, {_f(p, (r.randint(1, 2),), 'float32')}"
              f"{r.choice(['', ', mode=`same`', ', mode=`full`'])})")
    elif f == "trapezoid":
        s = _shape(p, 1, 2)
        p.out(f"{K}.trapezoid({_f(p, s)}{r.choice(['', ', dx=0.5', ', axis=0'])})")
    elif f == "norm":
        s = _shape(p, 1, 2, empty=0)
        o = r.choice(["", ", ord=1", ", ord=2", ", ord='fro'" if len(s) == 2 else "", ", ord=np.inf"])
        ax = r.choice(["", ", axis=-1", ", axis=0"]) if len(s) == 2 and "fro" not in o and o in ("", ", ord=1", ", ord=np.inf") else ""
        p.out(f"{K}.norm({_f(p, s)}{o}{ax}{r.choice(['', ', keepdims=True'])})")
    elif f == "cross":
        p.out(f"{K}.cross({_f(p, (2, 3))}, {_f(p, (2, 3))})")
    elif f == "tensordot":
        p.out(f"{K}.tensordot({_f(p, (2, 3), 'float32')}, {_f(p, (3, 2), 'float32')}{r.choice([', axes=1', ', axes=0', ', axes=[[1], [0]]'])})")
    elif f == "einsum":
        eq = r.choice(["'ij,jk->ik'", "'ij->j'", "'ij,ij->'", "'i j, j k -> i k'"])
        p.out(f"{K}.einsum({eq}, {_f(p, (2, 3), 'float32')}{'' if '->j' in eq else ', ' + _f(p, (3, 3) if 'jk' in eq else (2, 3), 'float32')})")
    elif f == "polar":
        p.out(f"{K}.polar({_f(p, (3,), 'float32', lo=0.0)}, {_f(p, (3,), 'float32')})", kinds="c")
    elif f == "view_as_complex":
        p.out(f"{K}.view_as_complex({_f(p, (2, 2), 'float32')})", kinds="c")
    elif f == "view_as_real":
        p.out(f"{K}.view_as_real(tf.complex({_f(p, (3,), 'float32')}, 1.0))")
    else:
        p.out(f"{K}.logaddexp({_f(p, (3,), edge=0.4)}, {_f(p, (3,), edge=0.4)})")
    return True


def b_klinalg(p: P) -> bool:
    r = p.rng
    f = r.choice(["cholesky", "cholesky_inverse", "det", "eigh", "inv", "logdet", "lstsq", "lu_factor", "pinv", "qr",
                  "slogdet", "solve", "solve_triangular", "svd", "matrix_rank", "eig"])
    n = r.randint(1, 3)
    dt = r.choice(["float32", "float64"])
    a = _f(p, (n, n), dt, edge=0.0)
    spd = f"({a} @ tf.transpose({a}) + {n}.0 * tf.eye({n}, dtype=tf.{dt}))" if "[" not in a and "np." not in a else None
    if spd is None:
        spd = f"(tf.constant({a}, tf.{dt}) @ tf.transpose(tf.constant({a}, tf.{dt})) + {n}.0 * tf.eye({n}, dtype=tf.{dt}))"
    if f in ("cholesky", "cholesky_inverse", "logdet", "eigh"):
        if f == "cholesky_inverse":
            p.out(f"{K}.cholesky_inverse(tf.linalg.cholesky({spd}){r.choice(['', ', upper=False'])})")
        elif f == "eigh":
            p.out(f"{K}.eigh({spd})[0]")
        else:
            p.out(f"{K}.{f}({spd})")
    elif f == "lstsq":
        p.out(f"{K}.lstsq({spd}, {_f(p, (n, 2), dt, edge=0.0)})")
    elif f == "lu_factor":
        p.out(f"{K}.lu_factor({spd})", 2, kinds="f-")
    elif f == "qr":
        p.out(f"{K}.qr({_f(p, (n + 1, n), dt, edge=0.0)}{r.choice(['', ', mode=`complete`'])})", 2)
    elif f == "slogdet":
        p.out(f"{K}.slogdet({spd})", 2)
    elif f == "solve":
        p.out(f"{K}.solve({spd}, {_f(p, (n, 1), dt, edge=0.0)})")
    elif f == "solve_triangular":
        p.out(f"{K}.solve_triangular(tf.linalg.cholesky({spd}), {_f(p, (n, 2), dt, edge=0.0)}"
              f"{r.choice(['', ', lower=True'])})")
    elif f == "svd":
        p.out(f"{K}.svd({spd}{r.choice(['', ', compute_uv=False'])})", 1, kinds="-")
    elif f == "matrix_rank":
        p.out(f"{K}.matrix_rank({a})")
    elif f == "eig":
        p.out(f"tf.math.real({K}.eig({spd})[0])", kinds="-")
    else:
        p.out(f"{K}.{f}({spd})")
    return True


def b_knn(p: P) -> bool:
    r = p.rng
    f = r.choice(["adaptive_average_pool", "adaptive_max_pool", "average_pool", "max_pool", "batch_normalization",
                  "conv", "conv_transpose", "depthwise_conv", "separable_conv", "ctc_decode", "ctc_loss",
                  "dot_product_attention", "layer_normalization", "rms_normalization", "psnr",
                  "sparse_categorical_crossentropy", "depth_to_space", "space_to_depth", "extract_sequences", "fft",
                  "rfft", "irfft", "stft", "istft", "sparsemax", "threshold", "unfold"])
    if f in ("adaptive_average_pool", "adaptive_max_pool"):
        p.out(f"{K}.{f}({_f(p, (1, r.randint(2, 5), r.randint(2, 5), 2), 'float32')}, {r.choice(['2', '(1, 3)', '(2, 2)'])})")
    elif f in ("average_pool", "max_pool"):
        x = _f(p, (1, 4, 4, r.randint(1, 2)), "float32", edge=0.15)
        p.out(f"{K}.{f}({x}, {r.choice([2, 3, '(2, 1)'])}{r.choice(['', ', strides=1', ', strides=2'])}"
              f"{r.choice(['', ', padding=`same`'])})")
    elif f == "batch_normalization":
        x = _f(p, (2, 3), "float32")
        p.out(f"{K}.batch_normalization({x}, {_f(p, (3,), 'float32')}, {_f(p, (3,), 'float32', lo=0.1)}, axis=-1"
              f"{r.choice(['', ', epsilon=0.01'])}{r.choice(['', ', scale=' + _f(p, (3,), 'float32')])})")
    elif f == "conv":
        x = _f(p, (1, 5, 2), "float32")
        p.out(f"{K}.conv({x}, {_f(p, (2, 2, 3), 'float32')}{r.choice(['', ', strides=2', ', padding=`same`', ', dilation_rate=2'])})")
    elif f == "conv_transpose":
        x = _f(p, (1, 3, 2), "float32")
        p.out(f"{K}.conv_transpose({x}, {_f(p, (2, 3, 2), 'float32')}, {r.choice([1, 2])}{r.choice(['', ', padding=`same`'])})")
    elif f == "depthwise_conv":
        p.out(f"{K}.depthwise_conv({_f(p, (1, 4, 4, 2), 'float32')}, {_f(p, (2, 2, 2, 1), 'float32')}"
              f"{r.choice(['', ', strides=2', ', padding=`same`'])})")
    elif f == "separable_conv":
        p.out(f"{K}.separable_conv({_f(p, (1, 4, 4, 2), 'float32')}, {_f(p, (2, 2, 2, 1), 'float32')}, "
              f"{_f(p, (1, 1, 2, 3), 'float32')})")
    elif f == "ctc_loss":
        t, c = r.randint(2, 5), 4
        p.out(f"{K}.ctc_loss({_i(p, (2, 2), 1, 3)}, {_f(p, (2, t, c), 'float32')}, {_i(p, (2,), 1, 2)}, "
              f"{_i(p, (2,), t, t)}{r.choice(['', ', mask_index=0'])})")
    elif f == "ctc_decode":
        t = r.randint(2, 5)
        p.out(f"{K}.ctc_decode({_f(p, (2, t, 4), 'float32')}, {_i(p, (2,), 1, t)})[0][0]", kinds="-")
    elif f == "dot_product_attention":
        q = _f(p, (1, 3, 2, 4), "float32")
        k = _f(p, (1, 3, 2, 4), "float32")
        v = _f(p, (1, 3, 2, 4), "float32")
        p.out(f"{K}.dot_product_attention({q}, {k}, {v}{r.choice(['', ', is_causal=True', ', scale=0.5'])})")
    elif f in ("layer_normalization", "rms_normalization"):
        x = _f(p, (2, 4), "float32", edge=0.15)
        p.out(f"{K}.{f}({x}{r.choice(['', ', axis=-1', ', epsilon=1e-3'])})")
    elif f == "psnr":
        p.out(f"{K}.psnr({_f(p, (2, 3), 'float32', lo=0.0, hi=1.0)}, {_f(p, (2, 3), 'float32', lo=0.0, hi=1.0)}, 1.0)")
    elif f == "sparse_categorical_crossentropy":
        p.out(f"{K}.sparse_categorical_crossentropy({_i(p, (3,), 0, 3)}, {_f(p, (3, 4), 'float32')}"
              f"{r.choice(['', ', from_logits=True'])})")
    elif f in ("depth_to_space", "space_to_depth"):
        x = _f(p, (1, 2, 2, 4), "float32") if f == "depth_to_space" else _f(p, (1, 4, 4, 1), "float32")
        p.out(f"{K}.{f}({x}, 2)")
    elif f == "extract_sequences":
        p.out(f"{K}.extract_sequences({_f(p, (r.randint(3, 7),), 'float32')}, {r.choice([2, 3])}, {r.choice([1, 2])})")
    elif f in ("fft",):
        p.out(f"tf.stack({K}.fft(({_f(p, (4,), 'float32')}, {_f(p, (4,), 'float32')})))", kinds="f")
    elif f == "rfft":
        p.out(f"tf.stack({K}.rfft({_f(p, (r.randint(2, 6),), 'float32')}{r.choice(['', ', fft_length=4'])}))")
    elif f == "irfft":
        p.out(f"{K}.irfft(({_f(p, (3,), 'float32')}, {_f(p, (3,), 'float32')}){r.choice(['', ', fft_length=4'])})")
    elif f == "stft":
        p.out(f"tf.stack({K}.stft({_f(p, (8,), 'float32')}, 4, 2, 4{r.choice(['', ', center=False', ', window=None'])}))")
    elif f == "istft":
        p.out(f"{K}.istft(({_f(p, (5, 3), 'float32')}, {_f(p, (5, 3), 'float32')}), 4, 2, 4)")
    elif f == "sparsemax":
        p.out(f"{K}.sparsemax({_f(p, (2, 3), 'float32')}{r.choice(['', ', axis=0'])})")
    elif f == "threshold":
        p.out(f"{K}.threshold({_f(p, (3,), edge=0.3)}, 0.5, -1.0)")
    else:
        p.out(f"{K}.unfold({_f(p, (1, 1, 4, 4), 'float32')}, 2{r.choice(['', ', stride=2', ', padding=1'])})")
    return True


def b_kimage(p: P) -> bool:
    r = p.rng
    f = r.choice(["affine_transform", "crop_images", "extract_patches", "gaussian_blur", "hsv_to_rgb", "rgb_to_hsv",
                  "rgb_to_grayscale", "map_coordinates", "pad_images", "perspective_transform", "resize",
                  "scale_and_translate", "sobel_edges", "ssim"])
    I = f"{K}.image"
    x = _f(p, (1, 4, 4, 3), "float32", lo=0.0, hi=1.0, edge=0.0)
    if f == "affine_transform":
        p.out(f"{I}.affine_transform({x}, [[1.0, 0.0, 0.5, 0.0, 1.0, -0.5, 0.0, 0.0]]"
              f"{r.choice(['', ', interpolation=`nearest`', ', fill_mode=`reflect`'])})")
    elif f == "crop_images":
        p.out(f"{I}.crop_images({x}, top_cropping=1, left_cropping=0, target_height=2, target_width=3)")
    elif f == "extract_patches":
        p.out(f"{I}.extract_patches({x}, 2{r.choice(['', ', strides=1', ', padding=`same`'])})")
    elif f == "gaussian_blur":
        p.out(f"{I}.gaussian_blur({x}{r.choice(['', ', kernel_size=(3, 3), sigma=(0.5, 0.5)'])})")
    elif f in ("hsv_to_rgb", "rgb_to_hsv", "rgb_to_grayscale"):
        p.out(f"{I}.{f}({x})")
    elif f == "map_coordinates":
        p.out(f"{I}.map_coordinates({_f(p, (3, 3), 'float32')}, [[0.5, 1.0, 2.5], [0.0, 1.5, 1.0]], "
              f"{r.choice([0, 1])}{r.choice(['', ', fill_mode=`nearest`'])})")
    elif f == "pad_images":
        p.out(f"{I}.pad_images({x}, top_padding=1, left_padding=2, target_height=6, target_width=7)")
    elif f == "perspective_transform":
        p.out(f"{I}.perspective_transform({x}, [[[0, 0], [3, 0], [3, 3], [0, 3]]], [[[0, 0], [3, 0], [3, 3], [1, 3]]])")
    elif f == "resize":
        p.out(f"{I}.resize({x}, ({r.randint(1, 6)}, {r.randint(1, 6)})"
              f"{r.choice(['', ', interpolation=`nearest`', ', interpolation=`bicubic`', ', antialias=True', ', crop_to_aspect_ratio=True'])})")
    elif f == "scale_and_translate":
        p.out(f"{I}.scale_and_translate({x}, (1, 6, 6, 3), (1, 2), [1.5, 1.5], [0.0, 0.0], 'bilinear')")
    elif f == "sobel_edges":
        p.out(f"{I}.sobel_edges({x})" if hasattr(r, "random") else "")
    else:
        p.out(f"{I}.ssim({x}, {_f(p, (1, 4, 4, 3), 'float32', lo=0.0, hi=1.0, edge=0.0)}, 1.0)")
    return True


def b_kcontrol(p: P) -> bool:
    r = p.rng
    f = r.choice(["scan", "associative_scan", "fori_loop", "while_loop", "map", "switch", "cond", "vectorized_map",
                  "custom_gradient", "is_tensor", "convert_to_tensor", "dtype", "segment_sum", "segment_max",
                  "segment_min", "segment_prod", "vectorize"])
    x = _f(p, (3, 2), "float32", lst=False)
    if f == "scan":
        p.out(f"{K}.scan(lambda c, v: (c + v, c * v), tf.zeros([2]), {x})[1]")
    elif f == "associative_scan":
        p.out(f"{K}.associative_scan(lambda a, b: a + b, {x}{r.choice(['', ', reverse=True', ', axis=1'])})")
    elif f == "fori_loop":
        p.out(f"{K}.fori_loop(0, 3, lambda i, v: v * 0.5 + tf.cast(i, tf.float32), {x})")
    elif f == "while_loop":
        p.out(f"{K}.while_loop(lambda v: tf.reduce_sum(v) < 20.0, lambda v: (v * 2.0 + 1.0,), ({x},), maximum_iterations=4)[0]")
    elif f == "map":
        p.out(f"{K}.map(lambda v: v * v, {x})")
    elif f == "switch":
        p.out(f"{K}.switch({r.choice([0, 1, 5])}, [lambda v: v + 1.0, lambda v: -v], {x})")
    elif f == "cond":
        p.out(f"{K}.cond(tf.reduce_sum({x}) > 0.0, lambda: {x} * 2.0, lambda: {x} - 1.0)")
    elif f == "vectorized_map":
        p.out(f"{K}.vectorized_map(lambda v: tf.reduce_sum(v * v), {x})")
    elif f == "custom_gradient":
        body = ("@tf.keras.ops.custom_gradient\ndef _cg(v):\n    def grad(*a, upstream=None):\n"
                "        upstream = a[0] if a else upstream\n        return upstream * 3.0\n"
                "    return v * 2.0, grad\n")
        p.stmt(body)
        p.out(f"_cg({x})")
    elif f == "is_tensor":
        p.out(f"tf.constant({K}.is_tensor({x}))", kinds="-")
    elif f == "convert_to_tensor":
        p.out(f"{K}.convert_to_tensor({r.choice(['[1, 2]', '[1.5, 2.0]', 'np.float64(2.0)', '3'])}"
              f"{r.choice(['', ', dtype=`float32`', ', dtype=`int64`'])})")
    elif f == "dtype":
        p.out(f"tf.constant(str({K}.dtype({x})))", kinds="-")
    elif f.startswith("segment"):
        p.out(f"{K}.{f}({x}, {_i(p, (3,), 0, 2)}{r.choice(['', ', num_segments=4', ', sorted=True'])})")
    else:
        p.out(f"{K}.vectorize(lambda a, b: a * b + 1.0)({x}, {_f(p, (2,), 'float32')})")
    return True


# --- tf.experimental.numpy
T_UN = ["abs", "absolute", "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "ceil", "cosh", "fabs",
        "floor", "isinf", "isnan", "isneginf", "isposinf", "iscomplex", "isreal", "log", "log10", "logical_not",
        "positive", "rad2deg", "reciprocal", "sign", "sin", "sqrt", "tanh", "conjugate", "angle", "amin", "min",
        "nanprod", "nansum", "flatten", "bitwise_not", "isscalar", "iscomplexobj", "isrealobj", "ndim", "size",
        "shape", "atleast_1d", "atleast_3d", "copy", "asarray", "asanyarray", "ascontiguousarray", "array"]
T_BIN = ["greater_equal", "less", "not_equal", "logical_and", "logical_or", "logical_xor", "remainder", "divmod",
         "matmul", "vdot", "tensordot", "cross", "array_equal", "einsum"]


def b_tnp(p: P) -> bool:
    r = p.rng
    f = r.choice(T_UN + T_BIN + ["broadcast_arrays", "compress", "concatenate", "diag", "diag_indices", "diagflat",
                                 "diagonal", "dsplit", "dstack", "empty", "empty_like", "eye", "identity", "flip",
                                 "full", "full_like", "hsplit", "hstack", "ix_", "meshgrid", "moveaxis", "ones",
                                 "ones_like", "zeros", "zeros_like", "pad", "polyval", "roll", "rot90", "select",
                                 "stack", "swapaxes", "take_along_axis", "vsplit", "vstack", "nonzero", "finfo",
                                 "promote_types", "result_type", "issubdtype", "random"])
    s = _shape(p, 0, 3)
    if f in ("arccosh",):
        x = _f(p, s, lo=1.0, hi=3.0, edge=0.3)
    elif f in ("arctanh", "arccos", "arcsin"):
        x = _f(p, s, lo=-1.0, hi=1.0, edge=0.3)
    else:
        x = _f(p, s, edge=0.3, lst=f != "select")
    rk = len(s)
    if f in ("amin", "min", "nanprod", "nansum"):
        p.out(f"{T}.{f}({x}{_ax(p, rk) if rk else ''}{r.choice(['', ', keepdims=True'])})")
    elif f in ("ndim", "size", "isscalar", "iscomplexobj", "isrealobj"):
        p.out(f"tf.constant({T}.{f}({x}))", kinds="-")
    elif f == "shape":
        p.out(f"tf.constant({T}.shape({x}), tf.int32)", kinds="-")
    elif f in T_UN:
        p.out(f"{T}.{f}({x})")
    elif f in ("matmul", "vdot"):
        if rk < 1:
            return False
        y = _f(p, s[::-1] if f == "matmul" else s)
        p.out(f"{T}.{f}({x}, {y})" if f != "matmul" or rk >= 1 else "")
    elif f == "tensordot":
        p.out(f"{T}.tensordot({_f(p, (2, 3))}, {_f(p, (3, 2))}{r.choice(['', ', axes=1', ', axes=([1], [0])'])})")
    elif f == "cross":
        p.out(f"{T}.cross({_f(p, (3,))}, {_f(p, (2, 3))})")
    elif f == "einsum":
        p.out(f"{T}.einsum('ij,j->i', {_f(p, (2, 3))}, {_f(p, (3,))})")
    elif f == "divmod":
        p.out(f"{T}.divmod({x}, {_f(p, s, edge=0.3)})", 2)
    elif f in T_BIN:
        y = _f(p, s, edge=0.3) if r.random() < 0.8 else r.choice(["2", "0.5", "True"])
        p.out(f"{T}.{f}({x}, {y})")
    elif f == "broadcast_arrays":
        p.out(f"tf.stack({T}.broadcast_arrays({x}, {_f(p, s[1:])}))")
    elif f == "compress":
        if not rk or s[0] == 0:
            return False
        p.out(f"{T}.compress({[r.choice([True, False]) for _ in range(s[0])]}, {x}, axis=0)")
    elif f == "concatenate":
        p.out(f"{T}.concatenate([{x}, {x}]{', axis=None' if r.random() < 0.3 else ''})")
    elif f in ("diag", "diagflat", "diagonal"):
        if f == "diagonal" and rk < 2:
            return False
        if f == "diag" and rk > 2:
            return False
        p.out(f"{T}.{f}({x}{r.choice(['', ', 1', ', -1'])})")
    elif f == "diag_indices":
        p.out(f"tf.stack({T}.diag_indices({r.randint(0, 3)}{r.choice(['', ', ndim=3'])}))")
    elif f in ("dsplit", "hsplit", "vsplit"):
        need = {"vsplit": 1, "hsplit": 1, "dsplit": 3}[f]
        if rk < need:
            return False
        ax = {"vsplit": 0, "hsplit": 1 if rk > 1 else 0, "dsplit": 2}[f]
        p.out(f"{T}.concatenate({T}.{f}({x}, {s[ax] or 1}), axis={ax})")
    elif f in ("dstack", "hstack", "vstack", "stack"):
        p.out(f"{T}.{f}([{x}, {x}])")
    elif f in ("empty", "ones", "zeros", "full", "eye", "identity"):
        sh = list(_shape(p, 0, 2))
        dt = r.choice(["", ", dtype=np.int32", ", dtype=float", ", dtype='float16'", ", dtype=tf.float64"])
        if f == "full":
            p.out(f"{T}.full({sh}, {r.choice(['2', '1.5', 'True'])}{dt})")
        elif f == "eye":
            p.out(f"{T}.eye({r.randint(0, 3)}{r.choice(['', ', 4', ', k=1', ', M=2, k=-1'])}{dt})")
        elif f == "identity":
            p.out(f"{T}.identity({r.randint(0, 3)}{dt})")
        elif f == "empty":
            p.out(f"tf.shape({T}.empty({sh}{dt}))")
        else:
            p.out(f"{T}.{f}({sh}{dt})")
    elif f in ("empty_like", "ones_like", "zeros_like", "full_like"):
        fill = ", 7" if f == "full_like" else ""
        dt = r.choice(["", ", dtype=np.int32", ", dtype=float"])
        p.out(f"{T}.{f}({x}{fill}{dt})" if f != "empty_like" else f"tf.shape({T}.empty_like({x}{dt}))")
    elif f == "flip":
        p.out(f"{T}.flip({x}{_ax(p, rk) if rk else ''})")
    elif f == "ix_":
        p.out(f"{T}.ix_([0, 1], [1, 2, 0])[1]")
    elif f == "meshgrid":
        p.out(f"tf.stack({T}.meshgrid([1.0, 2.0], [3.0, 4.0, 5.0]{r.choice(['', ', indexing=`ij`'])}))")
    elif f == "moveaxis":
        if not rk:
            return False
        p.out(f"{T}.moveaxis({x}, 0, -1)")
    elif f == "pad":
        if not rk:
            return False
        p.out(f"{T}.pad({x}, {r.choice([1, [[1, 0]] * rk, (0, 2)])}{r.choice(['', ', mode=`reflect`', ', mode=`edge`', ', mode=`symmetric`'])})")
    elif f == "polyval":
        p.out(f"{T}.polyval({r.choice(['[1.0, -2.0, 0.5]', '[3]', '[]'])}, {x})")
    elif f == "roll":
        p.out(f"{T}.roll({x}, {r.choice([1, -1, 7])}{_ax(p, rk) if rk else ''})")
    elif f == "rot90":
        if rk < 2:
            return False
        p.out(f"{T}.rot90({x}{r.choice(['', ', k=3', ', axes=(1, 0)'])})")
    elif f == "select":
        p.out(f"{T}.select([{x} > 0.5, {x} < -0.5], [{x}, {x} * 2.0]{r.choice(['', ', default=-9.0'])})")
    elif f == "swapaxes":
        if not rk:
            return False
        p.out(f"{T}.swapaxes({x}, 0, -1)")
    elif f == "take_along_axis":
        if not rk or 0 in s:
            return False
        p.out(f"{T}.take_along_axis({x}, {T}.argsort({x}, axis=-1), axis=-1)")
    elif f == "nonzero":
        p.out(f"tf.stack({T}.nonzero({x}))" if rk else f"{T}.nonzero({x})", kinds="-")
    elif f == "finfo":
        p.out(f"tf.constant(float({T}.finfo({r.choice(['np.float32', 'np.float16', 'tf.float64'])}).eps))")
    elif f in ("promote_types", "result_type"):
        a, b = r.sample(["np.int32", "np.float32", "np.int64", "np.float16", "np.uint8", "np.bool_"], 2)
        p.out(f"tf.constant(str({T}.{f}({a}, {b})))", kinds="-")
    elif f == "issubdtype":
        p.out(f"tf.constant({T}.issubdtype({T}.float32, {T}.floating))", kinds="-")
    else:
        fn = r.choice([f"{T}.random.seed(3)", f"tf.shape({T}.random.rand(2, 3))", f"tf.shape({T}.random.randn(2))",
                       f"{T}.random.randint(0, 1, size=(3,))", f"tf.shape({T}.random.uniform(size=(2,)))",
                       f"tf.shape({T}.random.standard_normal(size=(3,)))", f"tf.shape({T}.random.random((2, 2)))",
                       f"tf.shape({T}.random.poisson(2.0, size=(3,)))"])
        p.out(fn, kinds="-")
    return True


# --- tf top level, debugging, sets, sparse, ragged, quantization, random, image, raw_ops
def b_tfmisc(p: P) -> bool:
    r = p.rng
    f = r.choice(["print", "py_function", "numpy_function", "custom_gradient", "recompute_grad", "grad_pass_through",
                  "case", "control_dependencies", "group", "no_op", "device", "init_scope", "executing_eagerly",
                  "inside_function", "hessians", "check_numerics", "assert_all_finite", "asserts", "is_numeric",
                  "assert_shapes", "type_spec", "name_scope", "sets", "sparse_sqrt_n", "sampled_addmm",
                  "general_dropout", "ragged_cross_hashed", "stack_dynamic_partitions", "quant", "rng_state",
                  "get_global_generator", "timestamp_free", "audio"])
    x = _f(p, (3,), "float32", lst=False)
    if f == "print":
        p.out(f"(tf.print({x}, summarize=2, output_stream='file:///dev/null'), {x} * 1.0)[1]")
    elif f == "py_function":
        p.out(f"tf.py_function(lambda a: a * 2.0, [{x}], Tout=tf.float32)", kinds="-")
    elif f == "numpy_function":
        p.out(f"tf.numpy_function(lambda a: (a * 2.0).astype(np.float32), [{x}], tf.float32, stateful=False)", kinds="-")
    elif f == "custom_gradient":
        p.stmt("@tf.custom_gradient\ndef _cg(v):\n    def grad(dy):\n        return dy * tf.constant([1.0, -1.0, 0.5])\n"
               "    return tf.math.log1p(tf.exp(v)), grad")
        p.out(f"_cg({x})")
    elif f == "recompute_grad":
        p.out(f"tf.recompute_grad(lambda v: tf.sin(v) * v)({x})")
    elif f == "grad_pass_through":
        p.out(f"tf.grad_pass_through(lambda v: tf.round(v))({x})")
    elif f == "case":
        p.out(f"tf.case([(tf.reduce_sum({x}) > 0.0, lambda: {x} * 2.0), (tf.reduce_min({x}) < -1.0, lambda: -{x})], "
              f"default=lambda: {x}{r.choice(['', ', exclusive=True'])})")
    elif f == "control_dependencies":
        p.stmt(f"with tf.control_dependencies([tf.debugging.assert_less({x}, 100.0)]):\n    _cd = tf.identity({x})")
        p.out("_cd")
    elif f == "group":
        p.out(f"(tf.group(tf.identity({x})), {x})[1]")
    elif f == "no_op":
        p.out(f"(tf.no_op(), {x} + 0.0)[1]")
    elif f == "device":
        p.stmt(f"with tf.device('/cpu:0'):\n    _dv = tf.math.cumsum({x}, reverse=True)")
        p.out("_dv")
    elif f == "init_scope":
        p.stmt("with tf.init_scope():\n    _is = tf.constant([2.0, 3.0, 4.0])")
        p.out(f"_is * {x}")
    elif f == "executing_eagerly":
        p.out("tf.constant(tf.executing_eagerly())", kinds="-")
    elif f == "inside_function":
        p.out("tf.constant(tf.inside_function())", kinds="-")
    elif f == "hessians":
        p.out(f"tf.function(lambda v: tf.hessians(tf.reduce_sum(v ** 3), v)[0])({x})")
    elif f == "check_numerics":
        p.out(f"tf.debugging.check_numerics({_f(p, (3,), 'float32', edge=0.5)}, 'fz51b')")
    elif f == "assert_all_finite":
        p.out(f"tf.debugging.assert_all_finite({_f(p, (3,), edge=0.5)}, 'fz51b')")
    elif f == "asserts":
        a = r.choice(["assert_greater_equal({x}, -2.0)", "assert_less_equal({x}, 2.0)", "assert_near({x}, {x} + 1e-7)",
                      "assert_negative({x})", "assert_non_negative({x})", "assert_non_positive({x})",
                      "assert_positive({x})", "assert_none_equal({x}, 5.0)", "assert_rank_at_least({x}, 1)",
                      "assert_rank_in({x}, [1, 2])", "assert_scalar({x})", "assert_type({x}, tf.float32)",
                      "assert_integer({x})", "assert_same_float_dtype([{x}, {x}])", "assert_proper_iterable([{x}])"])
        p.stmt(f"_a = tf.debugging.{a.format(x=x)}")
        p.out(f"{x} * 1.0")
    elif f == "is_numeric":
        p.out(f"tf.constant(tf.debugging.is_numeric_tensor({x}))", kinds="-")
    elif f == "assert_shapes":
        p.stmt(f"_a = tf.debugging.assert_shapes([({x}, ('N',)), ({_f(p, (3, 2), 'float32')}, ('N', 'K'))])")
        p.out(f"{x} + 1.0")
    elif f == "type_spec":
        p.out(f"tf.constant(str(tf.type_spec_from_value({x})))", kinds="-")
    elif f == "name_scope":
        p.out("tf.constant(tf.get_current_name_scope())", kinds="-")
    elif f == "sets":
        g = r.choice(["difference", "intersection", "union", "size"])
        a = _i(p, (2, 3), 0, 4)
        if g == "size":
            p.out(f"tf.sets.size({a})")
        else:
            p.out(f"tf.sparse.to_dense(tf.sets.{g}({a}, {_i(p, (2, 3), 0, 4)}{r.choice(['', ', aminusb=False'] if g == 'difference' else [''])}))")
    elif f == "sparse_sqrt_n":
        p.out(f"tf.sparse.segment_sqrt_n({_f(p, (3, 2), 'float32')}, [0, 2, 1], [0, 0, 1]"
              f"{r.choice(['', ', num_segments=3'])})")
    elif f == "sampled_addmm":
        p.out(f"tf.sparse.sampled_addmm([[0, 0], [1, 1]], [1.0, 2.0], [2, 2], {_f(p, (2, 3), 'float32')}, "
              f"{_f(p, (3, 2), 'float32')}{r.choice(['', ', beta=0.5, alpha=2.0'])})[1]")
    elif f == "general_dropout":
        p.out(f"tf.nn.experimental.general_dropout({x}, 0.5, lambda shape, seed=None, dtype=tf.float32: "
              f"tf.constant([0.1, 0.7, 0.4])[:shape[0]]{r.choice(['', ', seed=2'])})")
    elif f == "ragged_cross_hashed":
        p.out("tf.ragged.cross_hashed([tf.ragged.constant([['a', 'b'], ['c']]), tf.ragged.constant([['d'], ['e']])], "
              "num_buckets=17).flat_values", kinds="-")
    elif f == "stack_dynamic_partitions":
        p.out(f"tf.ragged.stack_dynamic_partitions({x}, [1, 0, 1], 3).flat_values")
    elif f == "quant":
        g = r.choice(["quantize_and_dequantize", "fake_quant_with_min_max_vars_per_channel", "qd"])
        if g == "quantize_and_dequantize":
            p.out(f"tf.quantization.quantize_and_dequantize({x}, -1.0, 1.0{r.choice(['', ', range_given=True', ', num_bits=4'])})")
        elif g == "qd":
            p.out(f"tf.quantization.dequantize(*tf.quantization.quantize({_f(p, (3,), 'float32', edge=0.0)}, -2.0, 2.0, tf.quint8)"
                  f"{r.choice(['', ', mode=`MIN_FIRST`', ', mode=`SCALED`'])})" if False else
                  f"tf.quantization.quantize({_f(p, (3,), 'float32', edge=0.0)}, -2.0, 2.0, tf.quint8).output_min")
        else:
            p.out(f"tf.quantization.fake_quant_with_min_max_vars_per_channel({_f(p, (2, 3), 'float32')}, [-1.0, -2.0, -0.5], [1.0, 2.0, 0.5])")
    elif f == "rng_state":
        p.out(f"tf.random.create_rng_state({r.choice([1, 7, 123])}, {r.choice(['`philox`', '`threefry`', '1'])})")
    elif f == "get_global_generator":
        p.out("tf.shape(tf.random.get_global_generator().normal([2]))", kinds="-")
    elif f == "timestamp_free":
        p.out(f"tf.math.segment_mean({x}, [0, 0, 1])")
    else:
        p.out("tf.audio.decode_wav(tf.audio.encode_wav(tf.constant([[0.5], [-0.25], [1.0]]), 8000)).audio")
    return True


RAW = [("AddV2", "x={a}, y={b}"), ("Sub", "x={a}, y={b}"), ("Mul", "x={a}, y={b}"), ("RealDiv", "x={a}, y={b}"),
       ("Maximum", "x={a}, y={b}"), ("Minimum", "x={a}, y={b}"), ("Pow", "x={a}, y={b}"),
       ("SquaredDifference", "x={a}, y={b}"), ("FloorDiv", "x={a}, y={b}"), ("FloorMod", "x={a}, y={b}"),
       ("DivNoNan", "x={a}, y={b}"), ("Atan2", "y={a}, x={b}"), ("Xlogy", "x={a}, y={b}"), ("Sqrt", "x={a}"),
       ("Rsqrt", "x={a}"), ("Exp", "x={a}"), ("Log", "x={a}"), ("Tanh", "x={a}"), ("Sigmoid", "x={a}"),
       ("Relu6", "features={a}"), ("Elu", "features={a}"), ("Selu", "features={a}"), ("Softplus", "features={a}"),
       ("LeakyRelu", "features={a}, alpha=0.1"), ("Softsign", "features={a}"), ("Square", "x={a}"),
       ("Reciprocal", "x={a}"), ("Expm1", "x={a}"), ("Log1p", "x={a}"), ("Erf", "x={a}"), ("Sin", "x={a}"),
       ("Cos", "x={a}"), ("IsNan", "x={a}"), ("IsFinite", "x={a}"), ("Sum", "input={a}, axis=[0], keep_dims=False"),
       ("Mean", "input={a}, axis=[-1], keep_dims=True"), ("Prod", "input={a}, axis=[0]"),
       ("ArgMax", "input={a}, dimension=0"), ("ArgMin", "input={a}, dimension=0, output_type=tf.int32"),
       ("Cumsum", "x={a}, axis=0, exclusive=True"), ("Cumprod", "x={a}, axis=0, reverse=True"),
       ("Softmax", "logits={m}"), ("LogSoftmax", "logits={m}"), ("MatMul", "a={m}, b={m}, transpose_b=True"),
       ("BatchMatMulV2", "x={m}, y={m}, adj_y=True"), ("BiasAdd", "value={m}, bias={v}"),
       ("ConcatV2", "values=[{a}, {b}], axis=0"), ("GatherV2", "params={a}, indices=[0, 0], axis=0"),
       ("Range", "start=0.0, limit=3.0, delta=0.5"), ("LinSpace", "start=0.0, stop=1.0, num=4"),
       ("Select", "condition={c}, t={a}, e={b}"), ("L2Loss", "t={a}"), ("Einsum", "inputs=[{m}, {m}], equation='ij,kj->ik'"),
       ("Cholesky", "input={spd}"), ("MatrixDiag", "diagonal={v}"), ("Qr", "input={m}"),
       ("ZerosLike", "x={a}"), ("AddN", "inputs=[{a}, {b}, {a}]"), ("Relu", "features={a}"),
       ("SoftmaxCrossEntropyWithLogits", "features={m}, labels=tf.nn.softmax({m})"),
       ("ResizeBilinear", "images=tf.reshape({m}, [1, 2, -1, 1]), size=[3, 3]"), ("Neg", "x={a}"),
       ("ClipByValue", "t={a}, clip_value_min=-1.0, clip_value_max=1.0"), ("BroadcastTo", "input={v}, shape=[2, 3]"),
       ("Abs", "x={a}"), ("Floor", "x={a}"), ("Round", "x={a}"), ("TopKV2", "input={a}, k=1"),
       ("Fill", "dims=[2], value=1.5"), ("TensorScatterUpdate", "tensor={a}, indices=[[0]], updates=[9.0]")]


def b_raw(p: P) -> bool:
    r = p.rng
    name, args = r.choice(RAW)
    dt = r.choice(["float32", "float32", "float64", "float16"])
    if name in ("Qr", "Cholesky", "Einsum", "MatMul", "BatchMatMulV2", "BiasAdd", "SoftmaxCrossEntropyWithLogits",
                "Range", "LinSpace", "Fill", "TensorScatterUpdate", "MatrixDiag", "ResizeBilinear"):
        dt = r.choice(["float32", "float64"])
    a = p.new_input((3,), dt)
    b = p.new_input((3,), dt)
    m = p.lits((2, 3), dt, [repr(r.randint(-8, 8) / 4) for _ in range(6)])
    v = p.lits((3,), dt, [repr(r.randint(-8, 8) / 4) for _ in range(3)])
    c = _b(p, (3,)) if "condition" in args else "None"
    spd = f"tf.constant([[4.0, 1.0], [1.0, 3.0]], tf.{dt})"
    n = {"Qr": 2, "TopKV2": 2, "SoftmaxCrossEntropyWithLogits": 2}.get(name, 1)
    kinds = "f" * n
    if name == "Qr":
        kinds = "--"
    p.out(f"tf.raw_ops.{name}({args.format(a=a.name, b=b.name, m=m.name, v=v.name, c=c, spd=spd)}"
          f"{r.choice(['', '', ', name=`op`'])})", n, kinds=kinds)
    return True


# --- tf.image (the encodings) and the error paths
def b_image(p: P) -> bool:
    r = p.rng
    x = f"tf.cast({_f(p, (2, 3, r.choice([1, 3])), 'float32', lo=0.0, hi=1.0, edge=0.0)} * 255.0, tf.uint8)"
    f = r.choice(["png", "jpeg_shape", "is_jpeg", "bmp", "decode_image", "adjust_quality"])
    if f == "png":
        p.out(f"tf.image.decode_png(tf.image.encode_png({x}){r.choice(['', ', channels=1', ', dtype=tf.uint16'])})")
    elif f == "jpeg_shape":
        p.out(f"tf.image.extract_jpeg_shape(tf.image.encode_jpeg({x}, quality=90))")
    elif f == "is_jpeg":
        p.out(f"tf.constant(tf.image.is_jpeg(tf.image.encode_png({x})))", kinds="-")
    elif f == "bmp":
        p.out(f"tf.shape(tf.image.decode_image(tf.image.encode_png({x}), expand_animations=False))")
    elif f == "decode_image":
        p.out(f"tf.image.decode_image(tf.image.encode_png({x}){r.choice(['', ', channels=3', ', dtype=tf.float32'])})")
    else:
        p.out(f"tf.shape(tf.image.adjust_jpeg_quality({x}, 75))")
    return True


ERRS = [
    f"{K}.reshape({{x}}, [4, 4])", f"{K}.matmul({{x}}, [[1.0]] * 7)", f"{K}.split({{x}}, 5)",
    f"{K}.take_along_axis({{x}}, [[9]], axis=0)", f"{K}.arange(0, 5, 0)", f"{K}.one_hot([1, 2], -1)",
    f"{K}.swapaxes({{x}}, 0, 5)", f"{K}.moveaxis({{x}}, 0, 7)", f"{K}.tile({{x}}, [-1])", f"{K}.eye(-1)",
    f"{K}.quantile({{x}}, 1.5)", f"{K}.cross([1.0, 2.0], [1.0, 2.0, 3.0])", f"{K}.pad({{x}}, [[1, 1]] * 5)",
    f"{K}.repeat({{x}}, -1)", f"{K}.unravel_index([9], (2, 3))", f"{K}.histogram({{x}}, bins=0)",
    f"{K}.einsum('ij,jk->ik', {{x}}, {{x}})", f"{K}.top_k({{x}}, 99)", f"{K}.argpartition({{x}}, 99)",
    f"{T}.reshape({{x}}, [5, -1, 7])", f"{T}.moveaxis({{x}}, 0, 9)", f"{T}.take_along_axis({{x}}, [[1.5]], axis=0)",
    f"{T}.diag(tf.zeros([2, 2, 2]))", f"{T}.roll({{x}}, 1, axis=5)", f"{T}.polyval([[1.0]], {{x}})",
    "tf.sets.union([[1, 2]], [[1.5, 2.0]])", "tf.debugging.assert_shapes([({x}, ('N', 'N', 'N', 'N', 'N'))])",
    "tf.debugging.check_numerics(tf.constant([float('nan')]), 'bad')", "tf.debugging.assert_scalar({x})",
    "tf.debugging.assert_positive(tf.constant([-1.0]), message='fz51b')", "tf.raw_ops.MatMul(a={x}, b={x})",
    "tf.raw_ops.AddV2(x={x}, y=tf.constant([1], tf.int32))", "tf.raw_ops.Sum(input={x}, axis=[7])",
    "tf.raw_ops.GatherV2(params={x}, indices=[99], axis=0)", "tf.raw_ops.Softmax(logits=tf.constant(1.0))",
    "tf.case([], default=None)", "tf.quantization.quantize_and_dequantize({x}, 1.0, -1.0, range_given=True)",
    "tf.sparse.segment_sqrt_n({x}, [0, 5], [0, 1])", "tf.random.create_rng_state(1, 'nope')",
    f"{K}.image.resize({{x}}, (2, 2))", f"{K}.nn.average_pool({{x}}, 2)", f"{K}.linalg.inv({{x}})",
    f"{K}.convert_to_tensor('abc', dtype='float32')", f"{K}.saturate_cast({{x}}, 'string')",
]


def b_error(p: P) -> bool:
    r = p.rng
    x = _f(p, (r.randint(1, 3), 3), "float32", edge=0.0)
    p.out(r.choice(ERRS).format(x=x), kinds="-")
    return True


BUILDERS = [(b_kunary, 6), (b_kbinary, 6), (b_kreduce, 6), (b_kint, 4), (b_kcreate, 5), (b_kshape, 8),
            (b_kstat, 5), (b_klinalg, 4), (b_knn, 7), (b_kimage, 3), (b_kcontrol, 4), (b_tnp, 9), (b_tfmisc, 8),
            (b_raw, 6), (b_image, 1)]


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed: 2-6 chains of the builders, an invalid call last in one program of six."""
    rng = random.Random(seed * 100003 + k)
    p = P(rng)
    fns, w = zip(*BUILDERS)
    n = rng.randint(2, max(3, steps // 2))
    tries = 0
    while len(p.losses) < n and tries < 100:
        tries += 1
        try:
            rng.choices(fns, w)[0](p)
        except (TypeError, ValueError, IndexError):
            pass
    if rng.random() < 1 / 6:
        b_error(p)
    fl = [f"tf.reduce_sum(tf.cast({'tf.math.real(' + v.name + ')' if kd == 'c' else v.name}, tf.float32))"
          for v, kd in p.losses]
    if not fl:
        fl = ["tf.constant(0.0)"]
    final = "loss = tf.math.add_n([" + ", ".join(fl) + "])"
    named = [v for _, vs in p.lines for v in vs]
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final,
            "last": named[-1].name if named else "loss"}


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
