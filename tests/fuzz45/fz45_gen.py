"""A throwaway differential generator of the public API, round three (fz45b): CHAINED programs. Each call's inputs
are earlier calls' outputs (shapes and dtypes flow through: broadcasting, reductions with keepdims, reshapes and
transposes, casts, concat/stack/split, gather/scatter, segment ops, sort/top_k/argsort, where and boolean masks,
matmul/einsum, softmax/log_softmax/losses), the program ending in a scalar. Each program runs in four ways, on TF 2.21
and on simdist in two subprocesses:

- eager: every statement's outcome (dtype, shape and bits of each output, or the exception class where it stops);
- function: the body inside a tf.function (the inputs passed as a dict), every value it returns;
- tape: the float inputs made tf.Variables, the body under a GradientTape, the gradient of the final scalar with
  respect to every variable input (values, None, IndexedSlices or dense);
- dist: MirroredStrategy on two logical CPUs, the float inputs mirrored variables, the body inside strategy.run (the
  replica id `rid` offsets some values), each replica's scalar, loss gradients and last tensor; their reduce(SUM) and
  reduce(MEAN), and strategy.gather of the last tensor along axis 0.

Inputs are exact literals (k/8, a few 0.1-style decimals, NaN, +-inf, -0.0, subnormals, int extremes, empty dims).

    python tests/fuzz45/fz45_gen.py SEED N [--show 40] [--steps 12] [--print]

Prints each disagreeing program (its text, the first statement that differs) and the counts. Not a test: a probe for
classes the project's generators do not draw. Deterministic: the programs come from random.Random(SEED).
"""
from __future__ import annotations

import argparse
import math
import os
import pickle
import random
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

FLOATS = ["float32", "float32", "float32", "float32", "float64", "float16", "bfloat16"]
INTS = ["int32", "int32", "int64"]
SMALL_INTS = ["uint8", "int8", "int16"]
_FL = {"float16", "bfloat16", "float32", "float64"}
_INT = {"int8", "int16", "int32", "int64", "uint8"}


class V:
    """A value of the program: its name, static shape (None for an unknown dim), dtype, and, for an integer
    value, a bound b with every entry known in [0, b) (None: unknown)."""

    def __init__(self, name: str, shape: tuple, dtype: str, bound: int | None = None) -> None:
        self.name, self.shape, self.dtype, self.bound = name, tuple(shape), dtype, bound

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def known(self) -> bool:
        return all(d is not None for d in self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape) if self.known else -1


def _bcast(a: tuple, b: tuple) -> tuple | None:
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x == y or y == 1:
            out.append(x)
        elif x == 1:
            out.append(y)
        else:
            return None
    return tuple(reversed(out))


class Prog:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.inputs: list[tuple[V, str]] = []   # (value, literal text)
        self.lines: list[tuple[str, list[V]]] = []   # (statement, values it binds)
        self.vals: list[V] = []
        self.n = 0

    def name(self) -> str:
        self.n += 1
        return f"v{self.n}"

    # --- literals
    def _float_lit(self, dtype: str, edge: bool) -> str:
        r = self.rng
        if edge and r.random() < 0.35:
            return r.choice(["float('nan')", "float('inf')", "-float('inf')", "-0.0", "1e-40", "-1e-45", "3e38",
                             "65504.0", "1e-8", "0.0"])
        if r.random() < 0.2:
            return r.choice(["0.1", "0.3", "-0.7", "1.1", "2.2", "1e-3", "123.456"])
        return repr(r.randint(-24, 24) / 8)

    def _int_lit(self, dtype: str, edge: bool, lo: int = -5, hi: int = 9) -> str:
        r = self.rng
        if edge and r.random() < 0.3:
            ext = {"int32": ["2147483647", "-2147483648"], "int64": ["9223372036854775807", "-9223372036854775808"],
                   "uint8": ["255", "0"], "int8": ["127", "-128"], "int16": ["32767", "-32768"]}[dtype]
            return r.choice(ext + ["0", "-1"])
        return str(r.randint(lo, hi))

    def new_input(self, shape: tuple, dtype: str, edge: bool | None = None, bound: int | None = None) -> V:
        r = self.rng
        if edge is None:
            edge = r.random() < 0.3
        size = math.prod(shape)
        if bound is not None:
            flat = [str(r.randrange(bound)) if bound > 0 else "0" for _ in range(size)]
        elif dtype in _FL:
            flat = [self._float_lit(dtype, edge) for _ in range(size)]
        elif dtype == "bool":
            flat = [r.choice(["True", "False"]) for _ in range(size)]
        else:
            lo = 0 if dtype == "uint8" else -5
            flat = [self._int_lit(dtype, edge, lo) for _ in range(size)]
        np_dt = {"bfloat16": "float32"}.get(dtype, dtype)
        text = f"np.array([{', '.join(flat)}], np.{np_dt}).reshape({list(shape)})"
        if dtype == "bfloat16":
            text = f"tf.cast({text}, tf.bfloat16)"
        else:
            text = f"tf.constant({text})"
        v = V(self.name(), shape, dtype, bound)
        self.inputs.append((v, text))
        self.vals.append(v)
        return v

    def random_shape(self) -> tuple:
        r = self.rng
        rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
        dims = [r.choice([1, 2, 2, 3, 3, 4, 5]) for _ in range(rank)]
        if rank and r.random() < 0.06:
            dims[r.randrange(rank)] = 0
        return tuple(dims)

    def fresh(self, kinds: str = "f") -> V:
        r = self.rng
        dt = {"f": r.choice(FLOATS), "i": r.choice(INTS), "b": "bool"}[r.choice(kinds)]
        if dt in ("int32", "int64") and r.random() < 0.1:
            dt = r.choice(SMALL_INTS)
        return self.new_input(self.random_shape(), dt)

    def pick(self, pred=lambda v: True, fresh: str | None = "f") -> V | None:  # noqa: ANN001
        c = [v for v in self.vals if pred(v)]
        # prefer recent values: programs chain
        if c and (self.rng.random() < 0.85 or fresh is None):
            w = [1 + 3 * (i >= len(c) - 3) for i in range(len(c))]
            return self.rng.choices(c, w)[0]
        if fresh is None:
            return None
        for _ in range(6):
            v = self.fresh(fresh)
            if pred(v):
                return v
        return None

    def emit(self, expr: str, outs: list[tuple]) -> list[V]:
        vs = [V(self.name(), s, d, *(b)) for s, d, *b in outs]
        lhs = ", ".join(v.name for v in vs) if len(vs) > 1 else vs[0].name
        self.lines.append((f"{lhs} = {expr}", vs))
        self.vals.extend(vs)
        return vs


def _num(v: V) -> bool:
    return v.dtype in _FL or v.dtype in _INT


def _fl(v: V) -> bool:
    return v.dtype in _FL


def _tfd(dt: str) -> str:
    return f"tf.{dt}"


# --- builders: each adds a statement (or returns False when its inputs are not there)
UNARY_F = ["tf.math.abs", "tf.math.negative", "tf.math.square", "tf.math.sqrt", "tf.math.exp", "tf.math.log",
           "tf.math.log1p", "tf.math.expm1", "tf.math.tanh", "tf.math.sigmoid", "tf.nn.relu", "tf.nn.softplus",
           "tf.math.sin", "tf.math.cos", "tf.math.floor", "tf.math.ceil", "tf.math.round", "tf.math.sign",
           "tf.math.reciprocal", "tf.math.rsqrt", "tf.math.erf", "tf.nn.elu", "tf.nn.gelu", "tf.nn.silu",
           "tf.math.log_sigmoid", "tf.math.atan", "tf.nn.softsign", "tf.nn.relu6", "tf.math.reciprocal_no_nan",
           "tf.nn.selu", "tf.math.rint", "tf.math.erfc", "tf.math.asinh", "tf.math.cosh", "tf.stop_gradient",
           "tf.identity", "tf.nn.leaky_relu"]
UNARY_N = ["tf.math.abs", "tf.math.negative", "tf.math.square", "tf.math.sign", "tf.identity"]
BIN = ["tf.math.add", "tf.math.subtract", "tf.math.multiply", "tf.math.maximum", "tf.math.minimum",
       "tf.math.squared_difference", "tf.math.floordiv", "tf.math.floormod", "tf.math.divide_no_nan", "tf.math.pow",
       "tf.math.truediv", "tf.math.divide", "tf.truncatediv", "tf.truncatemod"]
BIN_F = ["tf.math.atan2", "tf.math.xlogy", "tf.math.xdivy", "tf.math.multiply_no_nan"]
OPS = ["+", "-", "*", "/", "//", "%", "**"]
CMP = ["tf.math.less", "tf.math.greater_equal", "tf.math.equal", "tf.math.not_equal", "tf.math.greater",
       "tf.math.less_equal"]
RED = ["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_std", "reduce_variance",
       "reduce_logsumexp", "reduce_euclidean_norm"]


def _partner(p: Prog, a: V) -> str | None:
    """A second operand for a broadcasting binary op with `a`: a Python scalar, an earlier value of a's dtype whose
    shape broadcasts with a's, or a new input of such a shape."""
    r = p.rng
    u = r.random()
    if u < 0.2:
        return r.choice(["2.0", "0.5", "-1.5", "3", "0", "1e-3"]) if a.dtype in _FL else r.choice(["2", "3", "-1", "0"])
    if u < 0.6:
        c = [v for v in p.vals if v.dtype == a.dtype and _bcast(a.shape, v.shape) is not None and v.name != a.name]
        if c:
            return r.choice(c).name
    if u > 0.97:   # a dtype mismatch now and then: the error class
        return p.fresh("fi").name
    if not a.known:
        return a.name
    shape = list(a.shape)
    k = r.randrange(len(shape) + 1) if shape else 0
    shape = shape[k:]
    shape = [1 if r.random() < 0.3 else d for d in shape]
    if r.random() < 0.15:
        shape = [r.choice([1, 2])] + shape
    return p.new_input(tuple(shape), a.dtype).name


def _shape_of(p: Prog, name: str) -> tuple:
    for v in p.vals:
        if v.name == name:
            return v.shape
    return ()


def b_unary(p: Prog) -> bool:
    r = p.rng
    a = p.pick(_num)
    if a is None:
        return False
    f = r.choice(UNARY_F) if a.dtype in _FL else r.choice(UNARY_N)
    if f == "tf.nn.leaky_relu":
        f = f"{f}({a.name}, alpha={r.choice(['0.2', '0.5', '-1.0'])})"
        p.emit(f, [(a.shape, a.dtype)])
        return True
    p.emit(f"{f}({a.name})", [(a.shape, a.dtype)])
    return True


def b_pred(p: Prog) -> bool:
    a = p.pick(_fl)
    if a is None:
        return False
    f = p.rng.choice(["tf.math.is_nan", "tf.math.is_inf", "tf.math.is_finite"])
    p.emit(f"{f}({a.name})", [(a.shape, "bool")])
    return True


def b_binary(p: Prog) -> bool:
    r = p.rng
    a = p.pick(_num)
    if a is None:
        return False
    other = _partner(p, a)
    if other is None:
        return False
    os_ = _shape_of(p, other) if other.startswith("v") else ()
    shape = _bcast(a.shape, os_) or a.shape
    if r.random() < 0.35:
        op = r.choice(OPS)
        if op == "/" and a.dtype in _INT:
            dt = "float64" if a.dtype in ("int32", "int64") else "float32"
        else:
            dt = a.dtype
        x, y = (a.name, other) if r.random() < 0.75 or not other.startswith("v") else (other, a.name)
        p.emit(f"{x} {op} {y}", [(shape, dt)])
        return True
    f = r.choice(BIN + (BIN_F if a.dtype in _FL else []))
    dt = a.dtype
    if f in ("tf.math.truediv", "tf.math.divide") and a.dtype in _INT:
        dt = "float64" if a.dtype in ("int32", "int64") else "float32"
    p.emit(f"{f}({a.name}, {other})", [(shape, dt)])
    return True


def b_compare(p: Prog) -> bool:
    r = p.rng
    a = p.pick(_num)
    if a is None:
        return False
    other = _partner(p, a)
    if other is None:
        return False
    os_ = _shape_of(p, other) if other.startswith("v") else ()
    p.emit(f"{r.choice(CMP)}({a.name}, {other})", [(_bcast(a.shape, os_) or a.shape, "bool")])
    return True


def b_logical(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype == "bool", fresh="b")
    if a is None:
        return False
    if r.random() < 0.3:
        p.emit(f"tf.math.logical_not({a.name})", [(a.shape, "bool")])
        return True
    c = [v for v in p.vals if v.dtype == "bool" and _bcast(a.shape, v.shape) is not None]
    b = r.choice(c)
    f = r.choice(["tf.math.logical_and", "tf.math.logical_or", "tf.math.logical_xor"])
    p.emit(f"{f}({a.name}, {b.name})", [(_bcast(a.shape, b.shape), "bool")])
    return True


def _axis(p: Prog, a: V, allow_list: bool = True) -> tuple[str, list[int] | None]:
    r = p.rng
    if a.rank == 0 or r.random() < 0.2:
        return "None", None
    if allow_list and a.rank >= 2 and r.random() < 0.3:
        ax = sorted(r.sample(range(a.rank), r.randint(1, a.rank)))
        ax2 = [x - a.rank if r.random() < 0.3 else x for x in ax]
        return str(ax2), ax
    ax = r.randrange(a.rank)
    return str(ax - a.rank if r.random() < 0.4 else ax), [ax]


def b_reduce(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: _num(v) or v.dtype == "bool")
    if a is None:
        return False
    keep = r.random() < 0.4
    if a.dtype == "bool":
        f = "tf.math." + r.choice(["reduce_any", "reduce_all"])
    elif a.dtype in _FL:
        f = "tf.math." + r.choice(RED)
    else:
        f = "tf.math." + r.choice(RED[:5] + ["count_nonzero"])
    axs, ax = _axis(p, a)
    if ax is None:
        shape = tuple(1 for _ in a.shape) if keep else ()
    else:
        shape = tuple((1 if keep else None) if i in ax else d for i, d in enumerate(a.shape))
        shape = tuple(d for i, d in enumerate(shape) if keep or i not in ax)
    dt = "int64" if f.endswith("count_nonzero") else a.dtype
    p.emit(f"{f}({a.name}, axis={axs}, keepdims={keep})", [(shape, dt)])
    return True


def b_arg(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: _num(v) and v.rank >= 1 and v.known)
    if a is None:
        return False
    ax = r.randrange(a.rank)
    f = r.choice(["tf.math.argmax", "tf.math.argmin"])
    ot = r.choice(["", ", output_type=tf.int32"])
    p.emit(f"{f}({a.name}, axis={ax}{ot})", [(a.shape[:ax] + a.shape[ax + 1:], "int32" if ot else "int64",
                                              a.shape[ax] or None)])
    return True


def b_cum(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: _num(v) and v.rank >= 1)
    if a is None:
        return False
    f = r.choice(["tf.math.cumsum", "tf.math.cumprod"] + (["tf.math.cumulative_logsumexp"] if _fl(a) else []))
    ax = r.randrange(-a.rank, a.rank)
    ex = r.choice(["", ", exclusive=True", ", reverse=True", ", exclusive=True, reverse=True"])
    p.emit(f"{f}({a.name}, axis={ax}{ex})", [(a.shape, a.dtype)])
    return True


def _factor(r: random.Random, n: int) -> list[int]:
    dims = []
    while n > 1 and len(dims) < 3:
        ds = [d for d in range(2, n + 1) if n % d == 0]
        d = r.choice(ds)
        dims.append(d)
        n //= d
    if n > 1:
        dims.append(n)
    r.shuffle(dims)
    return dims


def b_reshape(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.known)
    if a is None:
        return False
    dims = _factor(r, a.size) if a.size else [0, r.choice([1, 2, 3])]
    if r.random() < 0.3:
        dims.insert(r.randrange(len(dims) + 1), 1)
    text = list(dims)
    if dims and r.random() < 0.4 and a.size:
        text[r.randrange(len(dims))] = -1
    if r.random() < 0.05:
        text = text + [2]   # a size mismatch: the error class
    p.emit(f"tf.reshape({a.name}, {text})", [(tuple(dims), a.dtype, a.bound)])
    return True


def b_transpose(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.rank >= 2)
    if a is None:
        return False
    perm = list(range(a.rank))
    r.shuffle(perm)
    if r.random() < 0.3:
        p.emit(f"tf.transpose({a.name})", [(a.shape[::-1], a.dtype, a.bound)])
    elif r.random() < 0.2 and a.rank >= 2:
        p.emit(f"tf.linalg.matrix_transpose({a.name})", [(a.shape[:-2] + (a.shape[-1], a.shape[-2]), a.dtype, a.bound)])
    else:
        p.emit(f"tf.transpose({a.name}, perm={perm})", [(tuple(a.shape[i] for i in perm), a.dtype, a.bound)])
    return True


def b_expand_squeeze(p: Prog) -> bool:
    r = p.rng
    a = p.pick()
    if a is None:
        return False
    ones = [i for i, d in enumerate(a.shape) if d == 1]
    if ones and r.random() < 0.5:
        if r.random() < 0.5:
            p.emit(f"tf.squeeze({a.name})", [(tuple(d for d in a.shape if d != 1), a.dtype, a.bound)])
        else:
            i = r.choice(ones)
            p.emit(f"tf.squeeze({a.name}, axis={i - a.rank if r.random() < 0.5 else i})",
                   [(a.shape[:i] + a.shape[i + 1:], a.dtype, a.bound)])
        return True
    i = r.randint(-a.rank - 1, a.rank)
    j = i if i >= 0 else a.rank + 1 + i
    p.emit(f"tf.expand_dims({a.name}, {i})", [(a.shape[:j] + (1,) + a.shape[j:], a.dtype, a.bound)])
    return True


def b_tile_bcast(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.known and v.size <= 24)
    if a is None:
        return False
    if r.random() < 0.5 and a.rank >= 1:
        m = [r.choice([1, 1, 2, 3]) for _ in a.shape]
        p.emit(f"tf.tile({a.name}, {m})", [(tuple(d * k for d, k in zip(a.shape, m)), a.dtype, a.bound)])
        return True
    shape = [d if d != 1 else r.choice([1, 2, 3]) for d in a.shape]
    if r.random() < 0.5:
        shape = [r.choice([2, 3])] + shape
    p.emit(f"tf.broadcast_to({a.name}, {shape})", [(tuple(shape), a.dtype, a.bound)])
    return True


def b_slice(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.rank >= 1 and v.known)
    if a is None:
        return False
    u = r.random()
    if u < 0.3:
        d = a.shape[0]
        if d == 0:
            return False
        i = r.randrange(-d, d)
        p.emit(f"{a.name}[{i}]", [(a.shape[1:], a.dtype, a.bound)])
    elif u < 0.55:
        d = a.shape[-1]
        p.emit(f"{a.name}[..., ::-1]", [(a.shape, a.dtype, a.bound)])
    elif u < 0.75:
        d = a.shape[0]
        s = r.randint(0, d)
        p.emit(f"{a.name}[{s}:]", [((d - s,) + a.shape[1:], a.dtype, a.bound)])
    elif u < 0.9:
        ax = [i for i in range(a.rank) if r.random() < 0.5] or [0]
        p.emit(f"tf.reverse({a.name}, {ax})", [(a.shape, a.dtype, a.bound)])
    else:
        begin = [r.randint(0, d) for d in a.shape]
        size = [r.choice([-1, d - b]) for d, b in zip(a.shape, begin)]
        p.emit(f"tf.slice({a.name}, {begin}, {size})",
               [(tuple(d - b for d, b in zip(a.shape, begin)), a.dtype, a.bound)])
    return True


CASTS = ["float32", "float64", "int32", "int64", "bool", "float16", "bfloat16", "uint8", "int8", "float32"]


def b_cast(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: True)
    if a is None:
        return False
    dt = r.choice(CASTS)
    if r.random() < 0.15 and dt != "bool":
        p.emit(f"tf.dtypes.saturate_cast({a.name}, {_tfd(dt)})", [(a.shape, dt)])
        return True
    p.emit(f"tf.cast({a.name}, {_tfd(dt)})", [(a.shape, dt, a.bound if dt in _INT else None)])
    return True


def b_concat_stack(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.known and v.rank >= 1)
    if a is None:
        return False
    u = r.random()
    if u < 0.45:
        ax = r.randrange(a.rank)
        c = [v for v in p.vals if v.dtype == a.dtype and v.rank == a.rank and v.known
             and all(x == y for i, (x, y) in enumerate(zip(v.shape, a.shape)) if i != ax)]
        parts = [a] + [r.choice(c) for _ in range(r.randint(1, 2))]
        n = sum(v.shape[ax] for v in parts)
        shape = a.shape[:ax] + (n,) + a.shape[ax + 1:]
        p.emit(f"tf.concat([{', '.join(v.name for v in parts)}], axis={ax - a.rank if r.random() < 0.3 else ax})",
               [(shape, a.dtype)])
    elif u < 0.7:
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape]
        parts = [a] + [r.choice(c) for _ in range(r.randint(1, 2))]
        ax = r.randint(0, a.rank)
        p.emit(f"tf.stack([{', '.join(v.name for v in parts)}], axis={ax})",
               [(a.shape[:ax] + (len(parts),) + a.shape[ax:], a.dtype)])
    elif u < 0.85:
        ax = r.randrange(a.rank)
        d = a.shape[ax]
        ns = [k for k in (1, 2, 3) if d % k == 0 and d] or [1]
        k = r.choice(ns)
        if r.random() < 0.5 or d == 0:
            outs = [(a.shape[:ax] + (d // k,) + a.shape[ax + 1:], a.dtype)] * k
            p.emit(f"tf.split({a.name}, {k}, axis={ax})", outs)
        else:
            s = r.randint(0, d)
            sizes = [s, -1] if r.random() < 0.5 else [s, d - s]
            outs = [(a.shape[:ax] + (s,) + a.shape[ax + 1:], a.dtype),
                    (a.shape[:ax] + (d - s,) + a.shape[ax + 1:], a.dtype)]
            p.emit(f"tf.split({a.name}, {sizes}, axis={ax})", outs)
    else:
        d = a.shape[0]
        if d == 0 or d > 4:
            return False
        outs = [(a.shape[1:], a.dtype)] * d
        p.emit(f"tf.unstack({a.name})", outs if d > 1 else outs)
        if d == 1:   # (a one-element list: bind it whole)
            last = p.lines.pop()
            p.vals.pop()
            vs = [V(p.name(), a.shape[1:], a.dtype)]
            p.lines.append((f"{vs[0].name}, = tf.unstack({a.name})", vs))
            p.vals.extend(vs)
            del last
    return True


def _indices(p: Prog, n: int, shape: tuple) -> V:
    """An int index value of `shape` into an axis of length n: an earlier bounded value, or a new input (a -1 or n
    now and then)."""
    r = p.rng
    c = [v for v in p.vals if v.bound is not None and v.bound <= n and v.shape == shape and v.dtype in ("int32", "int64")]
    if c and r.random() < 0.6:
        return r.choice(c)
    if r.random() < 0.05:
        v = p.new_input(shape, r.choice(["int32", "int64"]), bound=n + 1)
        v.bound = None
        return v
    return p.new_input(shape, r.choice(["int32", "int64"]), bound=n)


def b_gather(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.known and v.rank >= 1)
    if a is None:
        return False
    u = r.random()
    if u < 0.55:
        ax = r.randrange(a.rank)
        ishape = r.choice([(), (2,), (3,), (2, 2), (0,)])
        idx = _indices(p, a.shape[ax], ishape)
        axs = f", axis={ax}" if ax or r.random() < 0.3 else ""
        p.emit(f"tf.gather({a.name}, {idx.name}{axs})", [(a.shape[:ax] + ishape + a.shape[ax + 1:], a.dtype, a.bound)])
    elif u < 0.75:
        k = r.randint(1, a.rank)
        m = r.choice([1, 2, 3])
        rows = [[str(r.randrange(d)) if d else "0" for d in a.shape[:k]] for _ in range(m)]
        idx = p.new_input((m, k), r.choice(["int32", "int64"]))
        idx_text = f"np.array({[[int(x) for x in row] for row in rows]}, np.{idx.dtype})"
        p.inputs[-1] = (idx, f"tf.constant({idx_text})")
        p.emit(f"tf.gather_nd({a.name}, {idx.name})", [((m,) + a.shape[k:], a.dtype, a.bound)])
    else:
        # scatter: update rows of a at indices along axis 0
        d = a.shape[0]
        if d == 0:
            return False
        m = r.choice([1, 2])
        rows = [[r.randrange(d)] for _ in range(m)]
        idx = p.new_input((m, 1), "int32")
        p.inputs[-1] = (idx, f"tf.constant(np.array({rows}, np.int32))")
        upd = p.new_input((m,) + a.shape[1:], a.dtype) if a.dtype != "bool" else None
        if upd is None:
            return False
        f = r.choice(["tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_max",
                      "tensor_scatter_nd_min", "scatter_nd"])
        if f == "scatter_nd":
            p.emit(f"tf.scatter_nd({idx.name}, {upd.name}, {list(a.shape)})", [(a.shape, a.dtype)])
        else:
            p.emit(f"tf.{f}({a.name}, {idx.name}, {upd.name})", [(a.shape, a.dtype)])
    return True


def b_where_mask(p: Prog) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.45:
        a = p.pick(_num)
        if a is None:
            return False
        c = [v for v in p.vals if v.dtype == "bool" and _bcast(a.shape, v.shape) is not None]
        cond = r.choice(c) if c and r.random() < 0.7 else None
        if cond is None:
            cond = p.emit(f"{a.name} > {'0' if a.dtype in _INT else '0.0'}", [(a.shape, "bool")])[0]
        other = _partner(p, a)
        if other is None:
            return False
        s = _bcast(_bcast(a.shape, cond.shape) or a.shape, _shape_of(p, other) if other.startswith("v") else ())
        p.emit(f"tf.where({cond.name}, {a.name}, {other})", [(s or a.shape, a.dtype)])
    elif u < 0.7:
        a = p.pick(lambda v: v.rank >= 1)
        if a is None:
            return False
        k = r.randint(1, a.rank)
        c = [v for v in p.vals if v.dtype == "bool" and v.shape == a.shape[:k]]
        m = r.choice(c) if c else p.new_input(a.shape[:k], "bool")
        p.emit(f"tf.boolean_mask({a.name}, {m.name})", [((None,) + a.shape[k:], a.dtype, a.bound)])
    else:
        a = p.pick(lambda v: v.dtype == "bool" or _num(v))
        if a is None:
            return False
        p.emit(f"tf.where({a.name})", [((None, a.rank), "int64")])
    return True


def b_segment(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: _num(v) and v.known and v.rank >= 1 and v.shape[0] > 0)
    if a is None:
        return False
    n = a.shape[0]
    if r.random() < 0.5:
        ids = sorted(r.randrange(3) for _ in range(n))
        if r.random() < 0.1:
            r.shuffle(ids)   # unsorted ids: the error class (or TF's accepting them)
        f = r.choice(["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"])
        seg = p.new_input((n,), r.choice(["int32", "int64"]))
        p.inputs[-1] = (seg, f"tf.constant(np.array({ids}, np.{seg.dtype}))")
        p.emit(f"tf.math.{f}({a.name}, {seg.name})", [((ids[-1] + 1 if ids else 0,) + a.shape[1:], a.dtype)])
    else:
        k = r.choice([1, 2, 3, 4])
        ids = [r.randrange(-1, k) for _ in range(n)]
        f = r.choice(["unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max",
                      "unsorted_segment_min", "unsorted_segment_prod", "unsorted_segment_sqrt_n"])
        seg = p.new_input((n,), r.choice(["int32", "int64"]))
        p.inputs[-1] = (seg, f"tf.constant(np.array({ids}, np.{seg.dtype}))")
        p.emit(f"tf.math.{f}({a.name}, {seg.name}, num_segments={k})", [((k,) + a.shape[1:], a.dtype)])
    return True


def b_sort(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: _num(v) and v.rank >= 1 and v.known)
    if a is None:
        return False
    u = r.random()
    d = a.shape[-1]
    if u < 0.35:
        dr = r.choice(["ASCENDING", "DESCENDING"])
        ax = r.choice([-1, a.rank - 1, 0])
        p.emit(f"tf.sort({a.name}, axis={ax}, direction='{dr}')", [(a.shape, a.dtype)])
    elif u < 0.6:
        dr = r.choice(["ASCENDING", "DESCENDING"])
        st = r.choice(["", ", stable=True"])
        p.emit(f"tf.argsort({a.name}, direction='{dr}'{st})", [(a.shape, "int32", d or None)])
    else:
        k = r.randint(0, d) if r.random() < 0.95 else d + 1
        p.emit(f"tf.math.top_k({a.name}, k={k})", [(a.shape[:-1] + (k,), a.dtype),
                                                   (a.shape[:-1] + (k,), "int32", d or None)])
    return True


def b_matmul(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.known and v.rank >= 1 and v.dtype in ("float32", "float64", "int32", "float16"))
    if a is None:
        return False
    u = r.random()
    if u < 0.5 and a.rank >= 2:
        ta, tb = r.random() < 0.25, r.random() < 0.25
        m, k = (a.shape[-1], a.shape[-2]) if ta else (a.shape[-2], a.shape[-1])
        n = r.choice([1, 2, 3, 4])
        bs = (n, k) if tb else (k, n)
        batch = a.shape[:-2]
        if r.random() < 0.3 and batch:
            bshape = bs
        else:
            bshape = batch + bs
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == bshape]
        b = r.choice(c) if c and r.random() < 0.5 else p.new_input(bshape, a.dtype)
        flags = (", transpose_a=True" if ta else "") + (", transpose_b=True" if tb else "")
        if not flags and r.random() < 0.3:
            p.emit(f"{a.name} @ {b.name}", [(batch + (m, n), a.dtype)])
        else:
            p.emit(f"tf.linalg.matmul({a.name}, {b.name}{flags})", [(batch + (m, n), a.dtype)])
    elif u < 0.85:
        if a.rank == 1:
            eq, bshape, out = r.choice([("i,i->", a.shape, ()), ("i,j->ij", (3,), (a.shape[0], 3)),
                                        ("i->", None, ())])
        elif a.rank == 2:
            i, j = a.shape
            eq, bshape, out = r.choice([("ij,jk->ik", (j, 2), (i, 2)), ("ij->ji", None, (j, i)),
                                        ("ij,ij->i", a.shape, (i,)), ("ij->j", None, (j,)),
                                        ("ij,j->i", (j,), (i,)), ("ij,kj->ik", (3, j), (i, 3))])
        elif a.rank == 3:
            b_, i, j = a.shape
            eq, bshape, out = r.choice([("bij,bjk->bik", (b_, j, 2), (b_, i, 2)), ("bij->bji", None, (b_, j, i)),
                                        ("bij,jk->bik", (j, 3), (b_, i, 3)), ("...j,j->...", (j,), (b_, i))])
        else:
            eq, bshape, out = "...ij->...ji", None, a.shape[:-2] + (a.shape[-1], a.shape[-2])
        if bshape is None:
            p.emit(f"tf.einsum('{eq}', {a.name})", [(out, a.dtype)])
        else:
            c = [v for v in p.vals if v.dtype == a.dtype and v.shape == bshape]
            b = r.choice(c) if c and r.random() < 0.5 else p.new_input(bshape, a.dtype)
            p.emit(f"tf.einsum('{eq}', {a.name}, {b.name})", [(out, a.dtype)])
    else:
        k = a.shape[-1]
        b = p.new_input((k, 2), a.dtype)
        p.emit(f"tf.tensordot({a.name}, {b.name}, axes=1)", [(a.shape[:-1] + (2,), a.dtype)])
    return True


def b_softmax_loss(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in _FL and v.rank >= 1 and v.known)
    if a is None:
        return False
    u = r.random()
    if u < 0.35:
        f = r.choice(["tf.nn.softmax", "tf.nn.log_softmax", "tf.math.l2_normalize"])
        ax = r.choice(["", ", axis=-1", ", axis=0"])
        p.emit(f"{f}({a.name}{ax})", [(a.shape, a.dtype)])
    elif u < 0.55:
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape and v.name != a.name]
        lab = r.choice(c) if c and r.random() < 0.5 else None
        if lab is None:
            lab = p.emit(f"tf.nn.softmax({p.new_input(a.shape, a.dtype).name})", [(a.shape, a.dtype)])[0]
        p.emit(f"tf.nn.softmax_cross_entropy_with_logits(labels={lab.name}, logits={a.name})",
               [(a.shape[:-1], a.dtype)])
    elif u < 0.75:
        d = a.shape[-1]
        lab = _indices(p, d, a.shape[:-1])
        p.emit(f"tf.nn.sparse_softmax_cross_entropy_with_logits(labels={lab.name}, logits={a.name})",
               [(a.shape[:-1], a.dtype)])
    elif u < 0.88:
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape and v.name != a.name]
        lab = r.choice(c) if c else p.new_input(a.shape, a.dtype)
        p.emit(f"tf.nn.sigmoid_cross_entropy_with_logits(labels={lab.name}, logits={a.name})", [(a.shape, a.dtype)])
    elif u < 0.94:
        p.emit(f"tf.nn.l2_loss({a.name})", [((), a.dtype)])
    else:
        gb = r.choice(["", ", global_batch_size=4"])
        p.emit(f"tf.nn.compute_average_loss({a.name}{gb})", [((), a.dtype)])
    return True


def b_misc(p: Prog) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.25:
        a = p.pick(lambda v: v.bound is not None and v.dtype in ("int32", "int64") and v.known, fresh=None)
        if a is None:
            a = _indices(p, 4, (3,))
        depth = (a.bound or 4) + r.choice([0, 0, 1])
        ax = r.choice(["", ", axis=0", ", axis=-1"])
        dt = r.choice(["", ", dtype=tf.float64"])
        shape = a.shape + (depth,)
        if ax == ", axis=0":
            shape = (depth,) + a.shape
        p.emit(f"tf.one_hot({a.name}, {depth}{ax}{dt})", [(shape, "float64" if dt else "float32")])
    elif u < 0.5:
        a = p.pick(_num)
        if a is None:
            return False
        lo, hi = ("-1.0", "2.0") if a.dtype in _FL else ("-1", "3")
        if r.random() < 0.1:
            lo, hi = hi, lo
        p.emit(f"tf.clip_by_value({a.name}, {lo}, {hi})", [(a.shape, a.dtype)])
    elif u < 0.6:
        a = p.pick(lambda v: v.dtype in _FL)
        if a is None:
            return False
        p.emit(f"tf.clip_by_norm({a.name}, {r.choice(['1.0', '0.5', '0.0'])})", [(a.shape, a.dtype)])
    elif u < 0.7:
        a = p.pick()
        if a is None:
            return False
        f = r.choice(["tf.zeros_like", "tf.ones_like"])
        p.emit(f"{f}({a.name})", [(a.shape, a.dtype)])
    elif u < 0.8:
        a = p.pick(lambda v: _num(v) and v.known)
        if a is None:
            return False
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape]
        parts = [a] + [r.choice(c) for _ in range(r.randint(1, 2))]
        p.emit(f"tf.math.add_n([{', '.join(v.name for v in parts)}])", [(a.shape, a.dtype)])
    elif u < 0.9:
        a = p.pick(lambda v: _num(v) and v.rank >= 1 and v.known)
        if a is None:
            return False
        pads = [[r.randint(0, 1), r.randint(0, 2)] for _ in a.shape]
        mode = r.choice(["", "", ", mode='REFLECT'", ", mode='SYMMETRIC'", ", constant_values=1"])
        p.emit(f"tf.pad({a.name}, {pads}{mode})", [(tuple(d + x + y for d, (x, y) in zip(a.shape, pads)), a.dtype)])
    else:
        a = p.pick(lambda v: v.dtype in _FL and v.rank >= 1 and v.known)
        if a is None:
            return False
        ax = sorted(r.sample(range(a.rank), r.randint(1, a.rank)))
        keep = r.random() < 0.5
        shape = tuple((1 if keep else None) if i in ax else d for i, d in enumerate(a.shape))
        shape = tuple(d for i, d in enumerate(shape) if keep or i not in ax)
        p.emit(f"tf.nn.moments({a.name}, axes={ax}, keepdims={keep})", [(shape, a.dtype), (shape, a.dtype)])
    return True


def b_replica(p: Prog) -> bool:
    """The replica id (0 outside a strategy) offsetting a value: replicas then differ."""
    a = p.pick(_num)
    if a is None:
        return False
    p.emit(f"{a.name} + tf.cast(rid, {_tfd(a.dtype)})", [(a.shape, a.dtype)])
    return True


BUILDERS = [(b_unary, 8), (b_pred, 1), (b_binary, 10), (b_compare, 2), (b_logical, 1), (b_reduce, 7), (b_arg, 2),
            (b_cum, 2), (b_reshape, 4), (b_transpose, 3), (b_expand_squeeze, 2), (b_tile_bcast, 2), (b_slice, 3),
            (b_cast, 4), (b_concat_stack, 4), (b_gather, 5), (b_where_mask, 4), (b_segment, 3), (b_sort, 3),
            (b_matmul, 6), (b_softmax_loss, 5), (b_misc, 4), (b_replica, 2)]


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed: its inputs (name -> literal text), statements, and the final scalar's statement."""
    rng = random.Random(seed * 100003 + k)
    p = Prog(rng)
    for _ in range(rng.randint(1, 3)):
        p.fresh("f" * 4 + "i")
    fns, w = zip(*BUILDERS)
    n = rng.randint(max(2, steps // 2), steps)
    tries = 0
    while len(p.lines) < n and tries < 200:
        tries += 1
        b = rng.choices(fns, w)[0]
        try:
            b(p)
        except (TypeError, ValueError):   # (a builder meeting a dimension known only at run time: fz46b, seed 45005)
            pass
    fl = [v for v in p.vals if v.dtype in _FL][-3:]
    if not fl:
        fl = [p.emit(f"tf.cast({p.vals[-1].name}, tf.float32)", [(p.vals[-1].shape, "float32")])[0]]
    final = "loss = tf.math.add_n([" + ", ".join(f"tf.reduce_sum(tf.cast({v.name}, tf.float32))" for v in fl) + "])"
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final,
            "last": p.vals[-1].name}


def text_of(prog: dict) -> str:
    out = [f"{n} = {t}" for n, _, t in prog["inputs"]]
    out += [st for st, _ in prog["lines"]]
    return "\n".join(out + [prog["final"]])


# --- running a program (in the worker)
def _outcome(tf, np, value):  # noqa: ANN001
    if value is None:
        return ("None",)
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_outcome(tf, np, v) for v in value))
    if type(value).__name__ == "IndexedSlices":
        return ("slices", _outcome(tf, np, value.values), _outcome(tf, np, value.indices),
                _outcome(tf, np, value.dense_shape))
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        a = np.asarray(value.numpy())
        raw = a.tobytes()
        if a.dtype.kind in "fc" or value.dtype.name == "bfloat16":
            a = a.astype(np.float64) if value.dtype.name == "bfloat16" else a
            nan = np.isnan(a)
            raw = np.where(nan, np.zeros_like(a), a).tobytes() + nan.tobytes()
        return ("T", value.dtype.name, tuple(a.shape), raw)
    return ("py", type(value).__name__, repr(value)[:200])


def _body(prog: dict, env: dict, record: list | None) -> dict:
    for st, names in prog["lines"] + [(prog["final"], ["loss"])]:
        try:
            exec(st, env)  # noqa: S102 - our own text
        except Exception as e:
            e._fz45_line = st  # type: ignore[attr-defined]
            raise
        if record is not None:
            record.append((st, tuple(_outcome(env["tf"], env["np"], env[n]) for n in names)))
    return env


def _err(e: BaseException) -> tuple:
    return ("err", type(e).__name__, getattr(e, "_fz45_line", ""), str(e)[:160])


def run_program(tf, np, prog: dict, strategy) -> dict:  # noqa: ANN001
    out: dict = {}
    base = {"tf": tf, "np": np}

    def inputs(variables: bool) -> dict:
        env = dict(base)
        for name, dt, text in prog["inputs"]:
            val = eval(text, env)  # noqa: S307 - our own text
            env[name] = tf.Variable(val, name=name) if variables and dt in _FL else val
        return env
    names = [n for n, _, _ in prog["inputs"]]
    # eager: every statement
    rec: list = []
    try:
        env = inputs(False)
        env["rid"] = tf.constant(0)
        _body(prog, env, rec)
        out["eager"] = ("ok", rec)
    except Exception as e:  # noqa: BLE001 - the class is the answer
        out["eager"] = ("stop", rec, _err(e))
    # function: the body traced, inputs as a dict argument, every bound value returned
    try:
        env0 = inputs(False)
        bound = [n for _, ns in prog["lines"] for n in ns] + ["loss"]

        def f(d):  # noqa: ANN001, ANN202
            env = dict(base, **d, rid=tf.constant(0))
            _body(prog, env, None)
            return [env[n] for n in bound]
        res = tf.function(f, autograph=False)({n: env0[n] for n in names})
        out["function"] = ("ok", _outcome(tf, np, res))
    except Exception as e:  # noqa: BLE001
        out["function"] = _err(e)
    # tape: gradients of the final scalar with respect to every variable input
    try:
        env = inputs(True)
        env["rid"] = tf.constant(0)
        vs = [env[n] for n, dt, _ in prog["inputs"] if dt in _FL]
        with tf.GradientTape() as tape:
            _body(prog, env, None)
        gs = tape.gradient(env["loss"], vs)
        out["tape"] = ("ok", _outcome(tf, np, env["loss"]), _outcome(tf, np, gs))
    except Exception as e:  # noqa: BLE001
        out["tape"] = _err(e)
    # dist: the body in strategy.run on two replicas, mirrored variable inputs
    try:
        with strategy.scope():
            env_in = inputs(True)
        vs = [env_in[n] for n, dt, _ in prog["inputs"] if dt in _FL]
        last = prog["last"]
        nones: list = []

        def step():  # noqa: ANN202
            env = dict(env_in)
            env["rid"] = tf.distribute.get_replica_context().replica_id_in_sync_group
            with tf.GradientTape() as tape:
                _body(prog, env, None)
            gs = tape.gradient(env["loss"], vs)
            if not nones:
                nones.append(tuple(g is None for g in gs))
            return env["loss"], [g for g in gs if g is not None], env[last]
        res = strategy.run(step)
        loss, gs, lastv = res
        r = [_outcome(tf, np, strategy.experimental_local_results(loss)),
             _outcome(tf, np, [strategy.experimental_local_results(g) for g in gs]), nones[0] if nones else None,
             _outcome(tf, np, strategy.experimental_local_results(lastv))]
        for how in ("SUM", "MEAN"):
            try:
                r.append(_outcome(tf, np, strategy.reduce(how, loss, axis=None)))
            except Exception as e:  # noqa: BLE001
                r.append(_err(e))
        try:
            r.append(_outcome(tf, np, strategy.gather(lastv, axis=0)))
        except Exception as e:  # noqa: BLE001
            r.append(_err(e))
        try:
            r.append(_outcome(tf, np, [strategy.reduce("SUM", g, axis=None) for g in gs]))
        except Exception as e:  # noqa: BLE001
            r.append(_err(e))
        out["dist"] = ("ok", r)
    except Exception as e:  # noqa: BLE001
        out["dist"] = _err(e)
    return out


def _strategy(tf):  # noqa: ANN001, ANN202
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def worker_of(program: Any, backend: str, seed: int, n: int, steps: int, start: int, path: str) -> None:
    """A backend's process: the outcomes of programs start..n-1 of `program` (a generator's), appended to `path`."""
    import numpy as np
    if backend == "tf":
        import tensorflow as tf
    else:
        from simdist import tf
    strategy = _strategy(tf)
    tf.constant(1.0) + 1.0
    with open(path, "ab") as fh:
        for k in range(start, n):
            try:
                r = run_program(tf, np, program(seed, k, steps), strategy)
            except Exception as e:  # noqa: BLE001
                r = {"all": _err(e)}
            pickle.dump(r, fh)
            fh.flush()


def run_backend(script: str, backend: str, seed: int, n: int, steps: int) -> list:
    """The outcomes of programs 0..n-1 on a backend, run by `script --worker` in fresh processes (a process that
    dies on a program is restarted after it, the program's outcome noted as a crash)."""
    import tempfile
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3")
    results: list = []
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "out.pkl")
        while len(results) < n:
            subprocess.run([sys.executable, script, "--worker", backend, str(seed), str(n), str(steps),
                            str(len(results)), path], capture_output=True, env=env, timeout=6000)
            got = []
            with open(path, "rb") as fh:
                while True:
                    try:
                        got.append(pickle.load(fh))
                    except EOFError:
                        break
            results = got
            if len(results) < n:   # (the process died on this program: an abort, noted as its outcome)
                results.append({"crash": True})
                with open(path, "ab") as fh:
                    pickle.dump({"crash": True}, fh)
    return results


def _same(a, b) -> bool:  # noqa: ANN001
    """Outcomes equal; errors by class only (an eager stop's statement shows in its record's length; a traced one's
    statement is not compared: TF raises a graph-build error while the Python runs, simdist may after it)."""
    if isinstance(a, tuple) and a and a[0] == "err":
        return isinstance(b, tuple) and len(b) > 2 and b[0] == "err" and a[1] == b[1]
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return a == b


def _first_diff(w: tuple, g: tuple) -> str:
    """The eager record's first statement whose outcome differs."""
    wr, gr = w[1], g[1]
    for (st, x), (_, y) in zip(wr, gr):
        if not _same(x, y):
            return f"{st}\n    TF: {str(x)[:240]}\n    sd: {str(y)[:240]}"
    if len(wr) != len(gr) or w[0] != g[0]:
        i = min(len(wr), len(gr))
        st = wr[i][0] if i < len(wr) else (gr[i][0] if i < len(gr) else "")
        return f"{st}\n    TF: {str(w[2:] or wr[i:i + 1])[:240]}\n    sd: {str(g[2:] or gr[i:i + 1])[:240]}"
    return "?"


def main_of(script: str, program: Any) -> int:
    """A generator's command line (`script SEED N [--show K] [--steps S] [--print]`, and its `--worker` processes):
    every program on TF 2.21 and on simdist, the disagreeing ones printed; exit 1 if any disagrees. The harness
    the later rounds' generators (fz46b_gen, fz47b_gen, fz48b_gen) share with this one."""
    if sys.argv[1] == "--worker":
        worker_of(program, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), sys.argv[7])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--steps", type=int, default=12)
    ap.add_argument("--print", action="store_true", help="print the programs only")
    a = ap.parse_args()
    if a.print:
        for k in range(a.n):
            print(f"# program {k}\n{text_of(program(a.seed, k, a.steps))}\n")
        return 0
    want = run_backend(script, "tf", a.seed, a.n, a.steps)
    got = run_backend(script, "simdist", a.seed, a.n, a.steps)
    bad_progs = 0
    bad_modes = 0
    shown = 0
    calls = 0
    for k, (w, g) in enumerate(zip(want, got)):
        prog = program(a.seed, k, a.steps)
        calls += len(prog["lines"]) + 1
        if "crash" in w:
            continue
        modes = [m for m in ("eager", "function", "tape", "dist", "all") if not _same(w.get(m), g.get(m))]
        if not modes:
            continue
        bad_progs += 1
        bad_modes += len(modes)
        if shown < a.show:
            shown += 1
            print(f"=== program {k}: disagreeing modes {modes}\n{text_of(prog)}")
            for m in modes:
                if m == "eager" and "eager" in w and "eager" in g:
                    print(f"  [eager] {_first_diff(w['eager'], g['eager'])}")
                else:
                    print(f"  [{m}] TF: {str(w.get(m))[:400]}\n  [{m}] sd: {str(g.get(m))[:400]}")
    crashes = sum("crash" in w for w in want)
    print(f"PROGRAMS {a.n} CALLS {calls} DISAGREEING PROGRAMS {bad_progs} MODES {bad_modes} (TF aborted on {crashes})")
    return 1 if bad_progs else 0


def main() -> int:
    return main_of(__file__, program)


if __name__ == "__main__":
    sys.exit(main())
