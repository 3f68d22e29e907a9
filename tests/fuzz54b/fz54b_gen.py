"""A throwaway differential generator, round twelve (fz54b): written from issue 29 alone, sharing nothing with the
fz45..fz53b builders but the harness (fz45_gen's worker_of / run_backend / _same: TF and simdist in separate
processes, outcomes compared).

The op list and each op's accepted dtypes come from TF itself: fz54b_ops.json, built once on TF 2.21 by
fz54b_table.py (the public functions of tf.math / tf.nn / tf.linalg classified by their signature's parameter names,
the top-level shape / sort / gather / clip functions, each one's signature, raw ops and OpDef dtypes, and the dtypes
it accepts, probed on fifteen dtypes). A program is ~150 calls as a person writes them: a pool of live values of
mixed dtypes and shapes (scalars, [0]-size, rank 1-4), each call picking operands from the pool (broadcast-compatible
pairs, sometimes not), keyword arguments drawn from the function's signature (axis, keepdims, transpose flags,
output_type, dtype, name ...), literals with edge values (NaN, +-inf, -0.0, subnormals of each float type, int
min/max), and one call in ~15 a deliberate bad one (a dtype TF rejects, mismatched dtypes or shapes, a bad axis).
Every call runs through `_c`, which turns an exception into an `ERR(<class>)` value (compared by class) so that a
program goes on after it; an op the facade lacks shows as `ERR(MISSING tf.x.y)`.

Four modes: eager (every statement's outcome); tf.function (the whole body traced once, called on two input sets:
the trace count, trace-time errors and every value); GradientTape (float inputs watched, the gradient of a finite-
masked sum of float values); MirroredStrategy(2 CPUs).run on per-replica inputs (each replica's every value, the
loss and its gradients; strategy.reduce SUM/MEAN with axis None and 0; strategy.gather).

    python tests/fuzz54b/fz54b_gen.py SEED N [--show 20] [--calls 150] [--print] [--only K] [--rare] [--alias]

--rare draws ranks 5-6, dimensions at the packet boundaries (7/8/9/15/16/17/31/33) and uint*/int8/bfloat16/
complex128 more often (FZ54B_RARE=1 in the environment, which the workers inherit).
--alias (FZ54B_ALIAS=1) calls a function through another public spelling now and then (tf.add for tf.math.add,
fz54b_aliases.json), passes positional operands by keyword, puts Python numbers beside tensors of every dtype
(either side) and draws empty and size-1 shapes more often.

Prints each disagreeing program's differing statements (eager: all of them, by function) and a count of the
disagreeing functions. Not a test: a probe. Deterministic: random.Random(SEED * 100003 + k).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))

import fz45_gen as G  # noqa: E402 - the harness only

with open(os.path.join(HERE, "fz54b_ops.json")) as _fh:
    TABLE: dict = json.load(_fh)

# numerically ill-posed or sign-ambiguous decompositions, and functions of no tensor semantics to compare
EXCLUDE = {"tf.linalg.qr", "tf.linalg.svd", "tf.linalg.pinv", "tf.linalg.matrix_rank", "tf.linalg.eig",
           "tf.linalg.eigh", "tf.linalg.eigvals", "tf.linalg.eigvalsh", "tf.linalg.det", "tf.linalg.inv",
           "tf.linalg.logdet", "tf.linalg.slogdet", "tf.linalg.cholesky", "tf.linalg.expm", "tf.linalg.logm",
           "tf.linalg.sqrtm", "tf.linalg.lu", "tf.linalg.tensor_diag", "tf.linalg.eye"}
FUNCS = sorted(k for k in TABLE if k not in EXCLUDE)

# --rare (FZ54B_RARE=1, inherited by the workers): the shapes and dtypes the default draw rarely reaches — ranks 5-6,
# dimensions at the packet boundaries 7/8/9/15/16/17/31/33, uint*/int8/bfloat16/complex128 weighted up
RARE = os.environ.get("FZ54B_RARE") == "1"
PACKET_DIMS = [7, 8, 9, 15, 16, 17, 31, 33]


def _rare_shape(r: random.Random) -> tuple:
    """A rank 5-6 shape of small dimensions, or a rank 1-3 one with packet-boundary dimensions (<= 1,100 elements)."""
    if r.random() < 0.45:
        return tuple(r.choice([1, 2, 2, 3]) for _ in range(r.choice([5, 5, 6])))
    rank = r.choice([0, 1, 1, 2, 2, 3])
    dims = [r.choice(PACKET_DIMS) if k == rank - 1 else r.choice([1, 2, 3] + PACKET_DIMS[:3]) for k in range(rank)]
    while math.prod(dims) > 1100:
        dims[0] = 1
    return tuple(dims)


# --alias (FZ54B_ALIAS=1): the spellings the default draw never uses — public aliases, keyword operands, Python
# numbers beside tensors of every dtype, empty and size-1 shapes
ALIAS = os.environ.get("FZ54B_ALIAS") == "1"
with open(os.path.join(HERE, "fz54b_aliases.json")) as _fh:
    ALIASES: dict = json.load(_fh)


def _respell(r: random.Random, expr: str) -> str:
    """--alias: a `_c('tf.x.f', a, b, k=v)` call through another public spelling (one in two where one exists) and
    with its positional operands passed by keyword (one in two)."""
    import ast
    tree = ast.parse(expr, mode="eval")
    call = tree.body
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in ("_c", "_cn")):
        return expr
    i = 0 if call.func.id == "_c" else 1
    fn = call.args[i].value
    if fn in ALIASES and r.random() < 0.5:
        call.args[i] = ast.Constant(r.choice(ALIASES[fn]))
    if fn in TABLE and r.random() < 0.5:
        params = [q for q in TABLE[fn]["params"] if q[2] == "POSITIONAL_OR_KEYWORD"]
        pos = call.args[i + 1:]
        taken = {k.arg for k in call.keywords}
        if len(pos) <= len(params) and not any(q[0] in taken for q in params[:len(pos)]):
            call.keywords = [ast.keyword(q[0], a) for q, a in zip(params, pos)] + call.keywords
            call.args = call.args[:i + 1]
    return ast.unparse(tree)


FLT = ["float16", "bfloat16", "float32", "float64"]
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
CPX = ["complex64", "complex128"]
ALL = FLT + INTS + ["bool"] + CPX
DT_W = {"float32": 10, "float64": 4, "float16": 3, "bfloat16": 3, "int32": 6, "int64": 4, "int8": 1, "int16": 1,
        "uint8": 1, "uint16": 1, "uint32": 1, "uint64": 1, "bool": 3, "complex64": 1, "complex128": 1}
DT_W_RARE = {"float32": 4, "float64": 2, "float16": 2, "bfloat16": 5, "int32": 3, "int64": 2, "int8": 4, "int16": 1,
             "uint8": 4, "uint16": 4, "uint32": 4, "uint64": 4, "bool": 2, "complex64": 2, "complex128": 5}
INFO = {"int8": (-128, 127), "int16": (-32768, 32767), "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1),
        "uint8": (0, 255), "uint16": (0, 65535), "uint32": (0, 2**32 - 1), "uint64": (0, 2**64 - 1)}
SUBN = {"float16": ["6e-08", "-3e-07", "1e-05"], "bfloat16": ["1e-39", "-9.2e-41"], "float32": ["1e-45", "-1e-40", "1e-39"],
        "float64": ["5e-324", "-1e-310"]}
BIG = {"float16": ["65504.0", "-60000.0"], "bfloat16": ["3e38", "-1e38"], "float32": ["3.4e38", "-3e38"],
       "float64": ["1.7e308", "-1e300"]}


class V:
    """A live value: name, shape (a None dim: known only at run time), dtype, `nonneg_lt` a bound b (every entry an
    int in [0, b)) or None."""

    def __init__(self, name: str, shape: tuple | None, dtype: str, nonneg_lt: int | None = None) -> None:
        self.name, self.shape, self.dtype, self.b = name, shape, dtype, nonneg_lt

    @property
    def known(self) -> bool:
        return self.shape is not None and all(d is not None for d in self.shape)

    @property
    def rank(self) -> int:
        return len(self.shape) if self.shape is not None else -1


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


def _fmt(x: str) -> str:
    return {"nan": "float('nan')", "inf": "float('inf')", "-inf": "-float('inf')"}.get(x, x)


class Program:
    def __init__(self, rng: random.Random) -> None:
        self.r = rng
        self.inputs: list = []   # (name, dtype, text replica 0, text replica 1)
        self.lines: list = []    # (statement, [bound names], function)
        self.pool: list[V] = []
        self.n = 0

    def fresh_name(self) -> str:
        self.n += 1
        return f"v{self.n}"

    # --- literals
    def scalar_lit(self, dt: str, edge: float = 0.25, lo: int | None = None, hi: int | None = None) -> str:
        r = self.r
        if lo is not None:
            return str(r.randrange(lo, hi))
        if dt in FLT:
            if r.random() < edge:
                return _fmt(r.choice(["nan", "inf", "-inf", "-0.0", "0.0", r.choice(SUBN[dt]), r.choice(BIG[dt]),
                                      "1.0", "-1.0", "0.5"]))
            return repr(r.choice([r.randint(-16, 16) / 4, r.randint(-9, 9) / 10, round(r.uniform(-30, 30), 3)]))
        if dt in INFO:
            lo_, hi_ = INFO[dt]
            if r.random() < edge:
                return str(r.choice([lo_, hi_, 0, 1, hi_ - 1, lo_ + 1 if lo_ else 2]))
            return str(r.randint(max(lo_, -7), min(hi_, 9)))
        if dt == "bool":
            return r.choice(["True", "False"])
        re_ = self.scalar_lit("float32", edge)
        im = self.scalar_lit("float32", edge * 0.5)
        return f"complex({re_}, {im})"

    def lit_text(self, shape: tuple, dt: str, edge: float, bound: int | None) -> str:
        size = math.prod(shape)
        if bound is not None:
            flat = [str(self.r.randrange(bound)) if bound > 0 else "0" for _ in range(size)]
        else:
            flat = [self.scalar_lit(dt, edge) for _ in range(size)]
        np_dt = "float32" if dt == "bfloat16" else dt
        arr = f"np.array([{', '.join(flat)}], np.{np_dt}).reshape({list(shape)})"
        return f"tf.cast({arr}, tf.bfloat16)" if dt == "bfloat16" else f"tf.constant({arr})"

    def new_input(self, shape: tuple, dt: str, bound: int | None = None, sorted_ids: bool = False) -> V:
        edge = self.r.choice([0.0, 0.1, 0.3])
        name = self.fresh_name()
        if sorted_ids:
            ids = sorted(self.r.randrange(max(bound, 1)) for _ in range(shape[0]))
            t0 = t1 = f"tf.constant(np.array({ids}, np.{dt}))"
        else:
            t0, t1 = self.lit_text(shape, dt, edge, bound), self.lit_text(shape, dt, edge, bound)
        self.inputs.append((name, dt, t0, t1))
        v = V(name, shape, dt, bound)
        self.pool.append(v)
        return v

    def rand_shape(self) -> tuple:
        r = self.r
        if RARE:
            return _rare_shape(r)
        if ALIAS and r.random() < 0.35:
            return tuple(r.choice([0, 1, 1, 1, 2]) for _ in range(r.choice([1, 1, 2, 3])))
        rank = r.choice([0, 1, 1, 2, 2, 2, 3, 3, 4])
        dims = [r.choice([1, 2, 2, 3, 3, 4, 5]) for _ in range(rank)]
        if rank and r.random() < 0.07:
            dims[r.randrange(rank)] = 0
        return tuple(dims)

    def rand_dtype(self, allowed: list[str]) -> str:
        c = [d for d in allowed if d in DT_W]
        w = DT_W_RARE if RARE else DT_W
        return self.r.choices(c, [w[d] for d in c])[0]

    # --- operands
    def pick(self, dtypes: list[str], pred=lambda v: True, new_shape: tuple | None = None) -> V:  # noqa: ANN001
        """A pool value of one of `dtypes` satisfying pred (recent ones preferred), or a fresh input."""
        c = [v for v in self.pool if v.dtype in dtypes and v.b is None and pred(v)]
        if c and self.r.random() < 0.8:
            w = [1 + 4 * (i >= len(c) - 4) for i in range(len(c))]
            return self.r.choices(c, w)[0]
        for _ in range(8):
            s = new_shape if new_shape is not None else self.rand_shape()
            v = V("?", s, self.rand_dtype(dtypes))
            if pred(v):
                return self.new_input(s, v.dtype)
        return self.new_input((2, 3), self.rand_dtype(dtypes))

    def emit(self, fn: str, expr: str, outs: list) -> list[V]:
        """`names = expr`: outs a list of (shape, dtype[, bound]) or None (a value kept out of the pool)."""
        vs = [V(self.fresh_name(), *(o if o is not None else ((), "opaque"))) for o in outs]
        if ALIAS:
            expr = _respell(self.r, expr)
        lhs = ", ".join(v.name for v in vs) + ("," if len(vs) == 1 and expr.startswith("_cn(") else "")
        self.lines.append((f"{lhs} = {expr}", [v.name for v in vs], fn))
        self.pool.extend(v for v, o in zip(vs, outs) if o is not None)
        return vs


def _call(fn: str, args: list[str], kw: dict, n_out: int = 0) -> str:
    parts = [repr(fn)] + args + [f"{k}={v}" for k, v in kw.items()]
    return (f"_cn({n_out}, " if n_out else "_c(") + ", ".join(parts) + ")"


def _params(fn: str) -> dict:
    return {p[0]: p[1] for p in TABLE[fn]["params"]}


def _axis(p: Program, v: V, allow_none: bool = True, allow_list: bool = False, bad: bool = False) -> Any:
    r = p.r
    rk = v.rank
    if bad:
        return r.choice([rk, -rk - 1, rk + 2])
    if rk <= 0:
        return None if allow_none else 0
    if allow_none and r.random() < 0.2:
        return None
    if allow_list and r.random() < 0.3 and rk >= 2:
        k = r.randint(1, rk)
        ax = sorted(r.sample(range(rk), k))
        return [a - rk if r.random() < 0.3 else a for a in ax]
    a = r.randrange(rk)
    return a - rk if r.random() < 0.35 else a


def _red_shape(shape: tuple, axis: Any, keep: bool) -> tuple:
    rk = len(shape)
    if axis is None:
        axes = set(range(rk))
    else:
        axes = {a % rk for a in (axis if isinstance(axis, list) else [axis])}
    return tuple((1 if keep else None) if i in axes else d for i, d in enumerate(shape) if keep or i not in axes)


def _kw_extra(p: Program, fn: str, v: V | None, kw: dict) -> None:
    """Optional keyword arguments from the signature: a name now and then, and per-parameter draws."""
    r = p.r
    ps = _params(fn)
    if "name" in ps and r.random() < 0.15:
        kw["name"] = repr(f"n{p.n}")
    for k, d in ps.items():
        if k in kw or r.random() > 0.3:
            continue
        if k in ("output_type", "index_type", "out_idx", "out_type"):
            kw[k] = r.choice(["tf.int32", "tf.int64"])
        elif k in ("keepdims", "exclusive", "reverse", "sorted", "stable", "approximate", "transpose_a",
                   "transpose_b", "compute_full_loss", "decreasing", "conjugate"):
            kw[k] = r.choice(["True", "False"])
        elif k == "alpha":
            kw[k] = r.choice(["0.0", "0.1", "0.5", "1.0", "2.0"])
        elif k == "beta" and fn.startswith("tf.nn."):
            kw[k] = r.choice(["0.5", "1.0", "2.0"])
        elif k == "epsilon":
            kw[k] = r.choice(["1e-12", "1e-3", "0.5"])
        elif k == "direction":
            kw[k] = r.choice(["'ASCENDING'", "'DESCENDING'"])


def _bad(p: Program) -> bool:
    return p.r.random() < 0.06


# --- builders by kind
def b_unary(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    bad = _bad(p) and len(acc) < len(ALL)
    dts = [d for d in ALL if d not in acc] if bad else acc
    need2 = fn in ("tf.linalg.trace", "tf.linalg.adjoint", "tf.linalg.matrix_transpose")
    x = p.pick(dts, (lambda v: v.rank >= 2 and v.known) if need2 else (lambda v: True))
    kw: dict = {}
    _kw_extra(p, fn, x, kw)
    dt = x.dtype
    shape = x.shape
    if fn in ("tf.math.is_nan", "tf.math.is_inf", "tf.math.is_finite", "tf.math.logical_not"):
        dt = "bool"
    elif fn in ("tf.math.is_non_decreasing", "tf.math.is_strictly_increasing"):
        dt, shape = "bool", ()
    elif fn in ("tf.math.real", "tf.math.imag", "tf.math.angle", "tf.math.abs") and dt in CPX:
        dt = "float32" if dt == "complex64" else "float64"
    elif fn in ("tf.nn.l2_loss",):
        shape = ()
    elif fn in ("tf.math.zero_fraction", "tf.nn.zero_fraction"):
        shape, dt = (), "float32"
    elif fn == "tf.math.lbeta":
        shape = shape[:-1] if shape else None
    elif fn == "tf.linalg.trace":
        shape = shape[:-2]
    elif fn in ("tf.linalg.adjoint", "tf.linalg.matrix_transpose"):
        shape = shape[:-2] + (shape[-1], shape[-2])
    elif fn in ("tf.math.angle",) and dt not in FLT:
        dt = "float32"
    p.emit(fn, _call(fn, [x.name], kw), [None if bad or shape is None else (shape, dt)])


def b_unary_axis(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    x = p.pick(acc)
    kw: dict = {}
    if p.r.random() < 0.6:
        kw["axis"] = repr(_axis(p, x, bad=_bad(p)))
    _kw_extra(p, fn, x, kw)
    p.emit(fn, _call(fn, [x.name], kw), [(x.shape, x.dtype)])


def _partner(p: Program, x: V, dts: list[str], bad: bool) -> V:
    """A second operand: same dtype, broadcast-compatible shape (sometimes not, or another dtype, when bad)."""
    r = p.r
    if bad and r.random() < 0.5:
        other = [d for d in dts if d != x.dtype] or [d for d in ALL if d != x.dtype]
        return p.pick(other, lambda v: v.known and x.known and _bcast(v.shape, x.shape) is not None)
    if bad and x.known and x.rank >= 1:
        s = list(x.shape)
        i = r.randrange(len(s))
        s[i] = s[i] + 2 if s[i] != 1 else 3
        return p.new_input(tuple(s), x.dtype)
    if x.known and r.random() < 0.5:
        c = [v for v in p.pool if v.dtype == x.dtype and v.b is None and v.known and v is not x
             and _bcast(v.shape, x.shape) is not None]
        if c:
            return r.choice(c[-6:])
    s = list(x.shape) if x.known else []
    if s and r.random() < 0.4:
        s = s[r.randrange(len(s) + 1):]
    s = [1 if (d and r.random() < 0.25) else d for d in s]
    if r.random() < 0.15:
        s = [r.choice([1, 2])] + s if len(s) < 4 else s
    return p.new_input(tuple(s), x.dtype)


def b_binary(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    bad = _bad(p)
    dts = [d for d in ALL if d not in acc] if bad and len(acc) < len(ALL) and p.r.random() < 0.5 else acc
    x = p.pick(dts, lambda v: v.known)
    y = _partner(p, x, acc, bad)
    args = [x.name, y.name]
    odd = False   # (--alias: a number first or of another kind: the result's dtype not the generator's to predict)
    if p.r.random() < 0.08 and x.dtype in FLT + ["int32"]:   # a Python scalar operand
        args[1] = p.scalar_lit(x.dtype, 0.2) if x.dtype != "int32" else str(p.r.randint(-3, 5))
        y = V("lit", (), x.dtype)
    elif ALIAS and p.r.random() < 0.35:   # a Python number beside a tensor of any dtype, either side
        lit = p.scalar_lit(x.dtype, 0.3)
        if p.r.random() < 0.2:   # a number of another kind than the tensor's (1.5 beside an int, 2 beside a float)
            lit, odd = p.r.choice(["2", "-1", "1.5", "0.0", "True", "complex(1.0, -2.0)"]), True
        args[1] = lit
        y = V("lit", (), x.dtype)
        if p.r.random() < 0.4:
            args, odd = args[::-1], True
    if p.r.random() < 0.5:
        args = args[::-1] if fn in ("tf.math.add", "tf.math.multiply", "tf.math.maximum", "tf.math.minimum",
                                     "tf.math.equal", "tf.math.not_equal") else args
    kw: dict = {}
    _kw_extra(p, fn, x, kw)
    shape = _bcast(x.shape, y.shape) if x.known and y.known else None
    dt = x.dtype
    if fn.split(".")[-1] in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        dt = "bool"
    elif fn in ("tf.math.truediv", "tf.math.divide") and dt in INTS:
        dt = "float64" if dt in ("int32", "int64", "uint32", "uint64") else "float32"
    ok = shape is not None and x.dtype == y.dtype and not bad and not odd
    p.emit(fn, _call(fn, args, kw), [(shape, dt) if ok else None])


def b_ternary(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    x = p.pick(acc, lambda v: v.known)
    y = _partner(p, x, acc, False)
    z = _partner(p, x, acc, _bad(p))
    p.emit(fn, _call(fn, [x.name, y.name, z.name], {}), [None])


def b_reduce(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    bad_dt = _bad(p) and len(acc) < len(ALL)
    x = p.pick([d for d in ALL if d not in acc] if bad_dt else acc, lambda v: v.known)
    bad_ax = _bad(p) and x.rank > 0
    ax = _axis(p, x, allow_list=True, bad=bad_ax)
    keep = p.r.random() < 0.3
    kw: dict = {}
    args = [x.name]
    if ax is not None or p.r.random() < 0.3:
        kw["axis"] = repr(ax)
    if keep or p.r.random() < 0.2:
        kw["keepdims"] = repr(keep)
    _kw_extra(p, fn, x, kw)
    keep = kw.get("keepdims") == "True"
    out = None if bad_dt or bad_ax or x.rank == 0 and ax not in (None, 0, -1) else \
        (_red_shape(x.shape, ax, keep) if x.rank else (), x.dtype)
    if out and fn in ("tf.math.reduce_euclidean_norm",) and x.dtype in CPX:
        out = None
    p.emit(fn, _call(fn, args, kw), [out])


def b_scan(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    x = p.pick(acc, lambda v: v.known and v.rank >= 1)
    kw: dict = {"axis": repr(_axis(p, x, allow_none=False, bad=_bad(p)))}
    for k in ("exclusive", "reverse"):
        if p.r.random() < 0.4:
            kw[k] = repr(p.r.random() < 0.5)
    p.emit(fn, _call(fn, [x.name], kw), [(x.shape, x.dtype)])


def b_segment(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    x = p.pick(acc, lambda v: v.known and v.rank >= 1)
    n = x.shape[0]
    unsorted = TABLE[fn]["kind"] == "unsorted_segment"
    nseg = p.r.randint(1, 4)
    idt = p.r.choice(["int32", "int64"])
    if unsorted:
        ids = p.new_input((n,) if p.r.random() < 0.8 or x.rank < 2 else x.shape[:2], idt, bound=nseg)
        if p.r.random() < 0.2 and n:  # a negative id (dropped) now and then
            name, dt, t0, _ = p.inputs[-1]
            t0 = t0.replace("[0", "[-1", 1)
            p.inputs[-1] = (name, dt, t0, t0)
        args = [x.name, ids.name, str(nseg) if p.r.random() < 0.7 else f"tf.constant({nseg})"]
        out = ((nseg,) + x.shape[ids.rank:], x.dtype)
    else:
        ids = p.new_input((n,), idt, bound=nseg, sorted_ids=True)
        args = [x.name, ids.name]
        out = None
    if _bad(p):
        args[1] = p.new_input((n + 1,), idt, bound=nseg, sorted_ids=True).name
        out = None
    p.emit(fn, _call(fn, args, {}), [out])


# --- special builders (each by function name)
def s_argmax(p: Program, fn: str) -> None:
    x = p.pick(TABLE[fn]["accepted"], lambda v: v.known and v.rank >= 1)
    kw: dict = {}
    ax = _axis(p, x, allow_none=True, bad=_bad(p))
    if ax is not None or p.r.random() < 0.5:
        kw["axis"] = repr(ax)
    _kw_extra(p, fn, x, kw)
    p.emit(fn, _call(fn, [x.name], kw), [None])


def s_count_nonzero(p: Program, fn: str) -> None:
    x = p.pick(TABLE[fn]["accepted"], lambda v: v.known)
    kw = {"axis": repr(_axis(p, x, allow_list=True))}
    if p.r.random() < 0.4:
        kw["keepdims"] = "True"
    if p.r.random() < 0.3:
        kw["dtype"] = p.r.choice(["tf.int32", "tf.float32", "tf.int64"])
    p.emit(fn, _call(fn, [x.name], kw), [None])


def s_top_k(p: Program, fn: str) -> None:
    x = p.pick(TABLE[fn]["accepted"], lambda v: v.known and v.rank >= 1)
    last = x.shape[-1]
    k = p.r.randint(0, last) if not _bad(p) else last + 1
    kw = {"k": str(k)}
    _kw_extra(p, fn, x, kw)
    a, b = p.emit(fn, _call(fn, [x.name], kw, 2), [None, None])
    if k <= last:
        a.shape, a.dtype = x.shape[:-1] + (k,), x.dtype
        p.pool.append(a)


def s_sort(p: Program, fn: str) -> None:
    x = p.pick(TABLE[fn]["accepted"], lambda v: v.known and v.rank >= 1)
    kw: dict = {}
    if p.r.random() < 0.5:
        kw["axis"] = repr(_axis(p, x, allow_none=False, bad=_bad(p)))
    _kw_extra(p, fn, x, kw)
    if p.r.random() < 0.03:
        kw["direction"] = "'UP'"
    p.emit(fn, _call(fn, [x.name], kw), [(x.shape, x.dtype if fn == "tf.sort" else "int32")])


def s_unique(p: Program, fn: str) -> None:
    x = p.pick(TABLE[fn]["accepted"], lambda v: v.known and v.rank == 1 or (_bad(p) and v.rank == 2))
    kw: dict = {}
    _kw_extra(p, fn, x, kw)
    n = 2 if fn == "tf.unique" else 3
    p.emit(fn, _call(fn, [x.name], kw, n), [None] * n)


def s_in_top_k(p: Program, fn: str) -> None:
    pred = p.pick(["float32"] if not _bad(p) else ["float64", "float16"], lambda v: v.known and v.rank == 2)
    b, c = pred.shape
    t = p.new_input((b,), p.r.choice(["int32", "int64"]), bound=max(c, 1))
    p.emit(fn, _call(fn, [t.name, pred.name, str(p.r.randint(0, c + 1))], {}), [None])


def s_list(p: Program, fn: str) -> None:
    """add_n, polyval, concat, stack, global_norm, clip_by_global_norm: a list of same-dtype operands."""
    acc = TABLE[fn]["accepted"]
    x = p.pick(acc, lambda v: v.known and (v.rank >= 1 or fn not in ("tf.concat",)))
    k = p.r.randint(1, 3)
    xs = [x]
    for _ in range(k):
        if fn == "tf.concat" and x.rank >= 1:
            ax = p.r.randrange(x.rank)
            s = list(x.shape)
            s[ax] = p.r.choice([0, 1, 2])
            c = [v for v in p.pool if v.dtype == x.dtype and v.known and v.rank == x.rank and v.b is None
                 and all(a == b for i, (a, b) in enumerate(zip(v.shape, x.shape)) if i != ax)]
            xs.append(p.r.choice(c) if c and p.r.random() < 0.5 else p.new_input(tuple(s), x.dtype))
        elif fn == "tf.math.polyval":
            xs.append(p.pick([x.dtype], lambda v: v.known and _bcast(v.shape, x.shape) is not None))
        else:
            c = [v for v in p.pool if v.dtype == x.dtype and v.shape == x.shape and v.b is None]
            xs.append(p.r.choice(c) if c and p.r.random() < 0.6 else p.new_input(x.shape, x.dtype))
    if _bad(p):
        xs.append(p.new_input((7,), p.r.choice(["float32", "int32"])))
    lst = "[" + ", ".join(v.name for v in xs) + "]"
    kw: dict = {}
    if fn == "tf.concat":
        args = [lst, str(ax if x.rank else 0)]
        s = list(x.shape)
        if x.rank:
            s[ax] = sum(v.shape[ax] for v in xs if v.rank == x.rank)
        out = [(tuple(s), x.dtype)] if len({v.dtype for v in xs}) == 1 else [None]
    elif fn == "tf.stack":
        ax = p.r.randint(-x.rank - 1, x.rank)
        args, out = [lst], [None]
        kw["axis"] = str(ax)
    elif fn == "tf.math.polyval":
        args, out = [lst, x.name], [None]
    elif fn == "tf.clip_by_global_norm":
        args, out = [lst, p.r.choice(["1.0", "0.5", "0.0", "100.0"])], [None, None]
        p.emit(fn, _call(fn, args, {}, 2), out)
        return
    else:
        args, out = [lst], [(x.shape, x.dtype) if fn == "tf.math.add_n" and len({v.dtype for v in xs}) == 1 else None]
    p.emit(fn, _call(fn, args, kw), out)


def s_matmul(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    r = p.r
    dt = p.rand_dtype(acc)
    m, k, n = r.randint(1, 4), r.randint(0, 4), r.randint(1, 4)
    batch = tuple(r.choice([1, 2]) for _ in range(r.choice([0, 0, 1, 2])))
    ta, tb = r.random() < 0.3, r.random() < 0.3
    bad = _bad(p)
    if fn == "tf.linalg.matmul":
        a = p.pick([dt], lambda v: v.known and v.shape == batch + ((k, m) if ta else (m, k)),
                   new_shape=batch + ((k, m) if ta else (m, k)))
        bb = batch[r.randint(0, len(batch)):] if r.random() < 0.3 else batch
        bs = bb + ((n, k + bad) if tb else (k + bad, n))
        b = p.pick([dt], lambda v: v.known and v.shape == bs, new_shape=bs)
        kw = {}
        if ta:
            kw["transpose_a"] = "True"
        if tb:
            kw[r.choice(["transpose_b", "adjoint_b"])] = "True"
        p.emit(fn, _call(fn, [a.name, b.name], kw), [None if bad else (batch + (m, n), dt)])
    elif fn == "tf.linalg.matvec":
        a = p.pick([dt], lambda v: False, new_shape=batch + ((k, m) if ta else (m, k)))
        b = p.new_input(batch + (k + bad,), dt)
        p.emit(fn, _call(fn, [a.name, b.name], {"transpose_a": "True"} if ta else {}),
               [None if bad else (batch + (m,), dt)])
    elif fn == "tf.linalg.tensordot":
        a = p.new_input((m, k), dt)
        b = p.new_input((k + bad, n), dt)
        axes = r.choice(["1", "[[1], [0]]", "([1], [0])"])
        p.emit(fn, _call(fn, [a.name, b.name, axes], {}), [None if bad else ((m, n), dt)])
    else:
        eq, shapes, out = r.choice([
            ("ij,jk->ik", [(m, k), (k + bad, n)], (m, n)), ("ij->ji", [(m, k)], (k, m)),
            ("bij,bjk->bik", [(2, m, k), (2, k + bad, n)], (2, m, n)), ("ij,ij->i", [(m, k), (m, k + bad)], (m,)),
            ("i,j->ij", [(m,), (n,)], (m, n)), ("ii->i", [(m, m + bad)], (m,)), ("ij->", [(m, k)], ()),
            ("...ij,...jk->...ik", [(2, m, k), (k + bad, n)], (2, m, n)), ("ijk->kji", [(m, k, n)], (n, k, m))])
        ops = [p.pick([dt], lambda v, s=s: v.known and v.shape == s, new_shape=s).name for s in shapes]
        p.emit(fn, _call(fn, [repr(eq)] + ops, {}), [None if bad else (out, dt)])


def _factor(p: Program, n: int) -> list[int]:
    out = []
    while n > 1 and len(out) < 3:
        d = p.r.choice([d for d in range(1, n + 1) if n % d == 0])
        out.append(d)
        n //= d
    return out + ([n] if n > 1 else [])


def s_shape_op(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    r = p.r
    bad = _bad(p)
    x = p.pick(acc, lambda v: v.known)
    s, rk = x.shape, x.rank
    out: Any = None
    if fn == "tf.reshape":
        size = math.prod(s)
        new = _factor(p, size) if size else [0, r.choice([1, 3])]
        r.shuffle(new)
        if new and r.random() < 0.3 and size:
            new[r.randrange(len(new))] = -1
        if bad:
            new = new + [2]
        args = [x.name, repr(new)]
        if not bad:
            out = (tuple(d if d != -1 else size // max(1, math.prod(e for e in new if e != -1)) for d in new), x.dtype)
    elif fn == "tf.transpose":
        perm = list(range(rk))
        r.shuffle(perm)
        args = [x.name] + ([repr(perm if not bad else perm[:-1] + [rk + 1])] if rk and r.random() < 0.7 else [])
        out = (tuple(s[i] for i in perm) if len(args) > 1 else s[::-1], x.dtype) if not bad else None
    elif fn == "tf.tile":
        mult = [r.choice([1, 1, 2, 3, 0]) for _ in range(rk + bad)]
        args = [x.name, repr(mult)]
        out = (tuple(a * b for a, b in zip(s, mult)), x.dtype) if not bad else None
    elif fn == "tf.pad":
        pads = [[r.randint(0, 2), r.randint(0, 2)] for _ in range(rk + bad)]
        mode = r.choice(["'CONSTANT'", "'CONSTANT'", "'REFLECT'", "'SYMMETRIC'"])
        kw = {"mode": mode} if mode != "'CONSTANT'" or r.random() < 0.2 else {}
        if mode == "'CONSTANT'" and r.random() < 0.3 and x.dtype in FLT + ["int32"]:
            kw["constant_values"] = p.scalar_lit(x.dtype, 0.2) if x.dtype != "int32" else "7"
        p.emit(fn, _call(fn, [x.name, repr(pads)], kw),
               [None if bad or mode != "'CONSTANT'" else (tuple(d + a + b for d, (a, b) in zip(s, pads)), x.dtype)])
        return
    elif fn == "tf.split":
        if rk == 0:
            args = [x.name, "2"]
        else:
            ax = r.randrange(rk)
            d = s[ax]
            nums = [k for k in range(1, 5) if d % k == 0] if d else [1]
            if r.random() < 0.5:
                k = r.choice(nums) + bad
                p.emit(fn, _call(fn, [x.name, str(k)], {"axis": str(ax)}, k),
                       [None if bad else (tuple(d // k if i == ax else e for i, e in enumerate(s)), x.dtype)] * k)
                return
            sizes = [r.randint(0, d) for _ in range(r.randint(1, 2))]
            sizes.append(d - sum(sizes) if d >= sum(sizes) else -1)
            p.emit(fn, _call(fn, [x.name, repr(sizes)], {"axis": str(ax)}, len(sizes)), [None] * len(sizes))
            return
    elif fn == "tf.unstack":
        if rk == 0 or s[0] > 4:
            return
        p.emit(fn, _call(fn, [x.name], {}, s[0]) if s[0] else _call(fn, [x.name], {}), [(s[1:], x.dtype)] * max(1, s[0])
               if s[0] else [None])
        return
    elif fn in ("tf.gather", "tf.nn.embedding_lookup"):
        if rk == 0:
            return
        ax = r.randrange(rk) if fn == "tf.gather" and r.random() < 0.5 else 0
        ishape = r.choice([(), (2,), (3,), (2, 2), (0,)])
        bound = s[ax] + (2 if bad else 0)
        if bound == 0:
            return
        ids = p.new_input(ishape, r.choice(["int32", "int64"]), bound=bound)
        kw = {"axis": str(ax)} if ax else {}
        if fn == "tf.gather" and r.random() < 0.15 and rk >= 2 and ishape == (2, 2) and s[0] == 2:
            kw["batch_dims"] = "1"
            ax = 1
        out = None if bad or "batch_dims" in kw else (s[:ax] + ishape + s[ax + 1:], x.dtype)
        args = [x.name, ids.name]
    elif fn == "tf.gather_nd":
        if rk == 0:
            return
        depth = r.randint(1, rk)
        n = r.randint(0, 3)
        rows = [[r.randrange(d + (2 if bad else 0)) if d else 0 for d in s[:depth]] for _ in range(n)]
        if any(d == 0 for d in s[:depth]) and n:
            return
        ids = f"tf.constant({rows}, tf.{r.choice(['int32', 'int64'])})" if n else \
            f"tf.zeros([0, {depth}], tf.int32)"
        args = [x.name, ids]
        out = None if bad else ((n,) + s[depth:], x.dtype)
    elif fn in ("tf.slice", "tf.strided_slice"):
        if rk == 0:
            return
        begin = [r.randint(0, d) for d in s]
        size = [r.randint(0, d - b) for d, b in zip(s, begin)]
        if r.random() < 0.3:
            size[r.randrange(rk)] = -1
        if bad:
            size[0] = s[0] + 1
        if fn == "tf.slice":
            args = [x.name, repr(begin), repr(size)]
            out = None if bad else (tuple(d - b if z == -1 else z for d, b, z in zip(s, begin, size)), x.dtype)
        else:
            end = [b + z if z != -1 else d for d, b, z in zip(s, begin, size)]
            strides = [r.choice([1, 1, 2]) for _ in s]
            if r.random() < 0.3:
                strides = [-1] * rk
                begin, end = [e - 1 for e in end], [b - 1 if b > 0 else -d - 1 for b, d in zip(begin, s)]
            kw = {}
            if r.random() < 0.3:
                kw["shrink_axis_mask"] = "1"
            if r.random() < 0.2:
                kw["begin_mask"] = str(r.randrange(1 << rk))
            args = [x.name, repr(begin), repr(end), repr(strides)]
            p.emit(fn, _call(fn, args, kw), [None])
            return
    elif fn == "tf.squeeze":
        ones = [i for i, d in enumerate(s) if d == 1]
        if ones and r.random() < 0.6:
            ax = [r.choice(ones)]
            args = [x.name, repr(ax)]
            out = (tuple(d for i, d in enumerate(s) if i != ax[0]), x.dtype)
        elif bad and rk:
            args = [x.name, repr([r.choice([i for i in range(rk) if s[i] != 1] or [rk])])]
        else:
            args = [x.name]
            out = (tuple(d for d in s if d != 1), x.dtype)
    elif fn == "tf.expand_dims":
        ax = r.randint(-rk - 1, rk) if not bad else rk + 2
        args = [x.name, str(ax)]
        if not bad:
            a = ax % (rk + 1)
            out = (s[:a] + (1,) + s[a:], x.dtype)
    elif fn == "tf.broadcast_to":
        new = list(s)
        new = [d if d != 1 else r.choice([1, 2, 3]) for d in new]
        if r.random() < 0.4 and len(new) < 4:
            new = [r.choice([2, 1])] + new
        if bad and new:
            new[-1] = new[-1] + 1 if s and s[-1] != 1 else new[-1]
            new = new[:-1] + [new[-1] + 5] if s and s[-1] not in (1,) else new
        args = [x.name, repr(new)]
        out = (tuple(new), x.dtype) if not bad else None
    elif fn == "tf.reverse":
        if rk == 0:
            return
        ax = sorted(r.sample(range(rk), r.randint(1, rk)))
        args = [x.name, repr(ax if not bad else [rk])]
        out = (s, x.dtype) if not bad else None
    elif fn == "tf.roll":
        if rk == 0:
            return
        ax = r.randrange(rk)
        args = [x.name, str(r.randint(-5, 5)), str(ax if not bad else rk)]
        out = (s, x.dtype) if not bad else None
    elif fn == "tf.boolean_mask":
        if rk == 0:
            return
        k = r.randint(1, rk)
        m = p.new_input(s[:k] if not bad else s[:k - 1] + (s[k - 1] + 1,), "bool")
        args = [x.name, m.name]
    elif fn in ("tf.identity", "tf.zeros_like", "tf.ones_like", "tf.size", "tf.shape", "tf.rank"):
        kw = {}
        if fn in ("tf.zeros_like", "tf.ones_like") and r.random() < 0.3:
            kw["dtype"] = f"tf.{p.rand_dtype(ALL)}"
        if fn in ("tf.size", "tf.shape") and r.random() < 0.3:
            kw["out_type"] = r.choice(["tf.int32", "tf.int64"])
        p.emit(fn, _call(fn, [x.name], kw), [(s, x.dtype) if fn in ("tf.identity",) or
                                              (fn.endswith("_like") and not kw) else None])
        return
    elif fn == "tf.fill":
        dims = list(p.rand_shape())
        args = [repr(dims), p.scalar_lit(x.dtype, 0.3) if x.dtype in FLT + ["bool"] else x.name if x.rank == 0
                else "3"]
        out = (tuple(dims), x.dtype) if x.dtype in FLT + ["bool"] else None
    elif fn == "tf.cast":
        to = p.rand_dtype(ALL)
        p.emit(fn, _call(fn, [x.name, f"tf.{to}"], {}), [(s, to)])
        return
    elif fn == "tf.where":
        c = p.pick(["bool"], lambda v: v.known and _bcast(v.shape, s) is not None)
        if r.random() < 0.15:
            p.emit(fn, _call(fn, [c.name], {}), [None])
            return
        y = _partner(p, x, acc, bad)
        sh = _bcast(_bcast(c.shape, s) or (), y.shape) if y.known else None
        args = [c.name, x.name, y.name]
        out = (sh, x.dtype) if sh is not None and y.dtype == x.dtype and not bad and \
            _bcast(c.shape, s) is not None else None
    elif fn == "tf.searchsorted":
        if rk == 0:
            return
        seq = p.new_input(s[:-1] + (r.randint(0, 4),), x.dtype)
        kw = {"side": r.choice(["'left'", "'right'"])}
        p.emit(fn, _call("tf.sort", [seq.name], {}), [None])
        p.emit(fn, _call(fn, [p.lines[-1][1][0], x.name], kw), [None])
        return
    else:
        raise KeyError(fn)
    p.emit(fn, _call(fn, args, {}) if fn != "tf.gather" and fn != "tf.strided_slice" else _call(fn, args, kw), [out])


def s_nn(p: Program, fn: str) -> None:
    acc = TABLE[fn]["accepted"]
    r = p.r
    bad = _bad(p)
    x = p.pick(acc, lambda v: v.known)
    kw: dict = {}
    s = x.shape
    out: Any = None
    if fn in ("tf.nn.leaky_relu", "tf.nn.gelu", "tf.nn.silu", "tf.nn.swish", "tf.nn.isotonic_regression",
              "tf.nn.crelu", "tf.nn.compute_average_loss", "tf.nn.scale_regularization_loss"):
        _kw_extra(p, fn, x, kw)
        if fn == "tf.nn.crelu" and s:
            kw["axis"] = str(_axis(p, x, allow_none=False, bad=bad))
        if fn == "tf.nn.compute_average_loss" and r.random() < 0.5:
            kw["global_batch_size"] = str(r.choice([1, 4, 8]))
        out = (s, x.dtype) if fn in ("tf.nn.leaky_relu", "tf.nn.gelu", "tf.nn.silu", "tf.nn.swish") else None
        args = [x.name]
    elif fn in ("tf.math.l2_normalize", "tf.nn.l2_normalize", "tf.linalg.l2_normalize", "tf.linalg.norm",
                "tf.linalg.normalize", "tf.clip_by_norm"):
        if fn == "tf.clip_by_norm":
            args = [x.name, r.choice(["1.0", "0.5", "0.0", "3.0"])]
            if r.random() < 0.4 and s:
                kw["axes"] = repr([_axis(p, x, allow_none=False)])
            out = (s, x.dtype)
        else:
            args = [x.name]
            if s and r.random() < 0.7:
                kw["axis"] = repr(_axis(p, x, allow_none=False, bad=bad))
            if fn in ("tf.linalg.norm", "tf.linalg.normalize") and r.random() < 0.4:
                kw["ord"] = r.choice(["1", "2", "np.inf", "'euclidean'", "'fro'", "3"])
            _kw_extra(p, fn, x, kw)
            if fn == "tf.linalg.normalize":
                p.emit(fn, _call(fn, args, kw, 2), [None, None])
                return
            out = (s, x.dtype) if "l2_normalize" in fn else None
    elif fn == "tf.nn.bias_add":
        if not s:
            return
        bias = p.new_input((s[-1] + bad,), x.dtype)
        args = [x.name, bias.name]
        out = None if bad else (s, x.dtype)
    elif fn == "tf.nn.moments":
        if not s:
            return
        axes = _axis(p, x, allow_none=False, allow_list=True)
        kw = {"axes": repr(axes if isinstance(axes, list) else [axes])}
        if r.random() < 0.3:
            kw["keepdims"] = "True"
        p.emit(fn, _call(fn, [x.name], kw, 2), [None, None])
        return
    elif fn in ("tf.nn.softmax_cross_entropy_with_logits", "tf.nn.sigmoid_cross_entropy_with_logits",
                "tf.nn.weighted_cross_entropy_with_logits", "tf.nn.log_poisson_loss", "tf.linalg.cross"):
        if fn == "tf.linalg.cross":
            x = p.pick(acc, lambda v: v.known and v.rank >= 1 and v.shape[-1] == 3, new_shape=(r.randint(1, 3), 3))
            s = x.shape
        y = p.pick([x.dtype], lambda v: v.known and v.shape == s and v is not x, new_shape=s) if not bad else \
            _partner(p, x, acc, True)
        args = [y.name, x.name]
        if fn == "tf.nn.sigmoid_cross_entropy_with_logits":
            args = [f"labels={y.name}", f"logits={x.name}"]
        if fn == "tf.nn.weighted_cross_entropy_with_logits":
            args.append(r.choice(["2.0", "0.5", "1.0"]))
        if fn == "tf.nn.log_poisson_loss" and r.random() < 0.4:
            kw["compute_full_loss"] = "True"
        if fn == "tf.nn.softmax_cross_entropy_with_logits" and r.random() < 0.3 and s:
            kw["axis"] = str(_axis(p, x, allow_none=False))
        out = (s, x.dtype) if fn != "tf.nn.softmax_cross_entropy_with_logits" and not bad else None
    elif fn == "tf.nn.sparse_softmax_cross_entropy_with_logits":
        if not s or not s[-1]:
            return
        lab = p.new_input(s[:-1], r.choice(["int32", "int64"]), bound=s[-1] + (2 if bad else 0))
        args = [f"labels={lab.name}", f"logits={x.name}"]
        out = (s[:-1], x.dtype) if not bad else None
    elif fn == "tf.nn.batch_normalization":
        if not s:
            return
        c = s[-1]
        mean, var = p.new_input((c,), x.dtype), p.new_input((c,), x.dtype)
        off = p.new_input((c,), x.dtype).name if r.random() < 0.5 else "None"
        sc = p.new_input((c,), x.dtype).name if r.random() < 0.5 else "None"
        args = [x.name, mean.name, var.name, off, sc, r.choice(["1e-3", "0.0", "1.0"])]
        out = (s, x.dtype)
    elif fn == "tf.math.bincount":
        ids = p.new_input((r.randint(0, 6),), "int32", bound=r.randint(1, 5))
        args = [ids.name]
        if r.random() < 0.3:
            kw["minlength"] = str(r.randint(0, 6))
        if r.random() < 0.3:
            kw["maxlength"] = str(r.randint(0, 6))
        if r.random() < 0.3:
            w = p.new_input(ids.shape, "float32")
            kw["weights"] = w.name
        elif r.random() < 0.3:
            kw["binary_output"] = "True"
    elif fn == "tf.math.invert_permutation":
        n = r.randint(0, 5)
        perm = list(range(n))
        r.shuffle(perm)
        if bad and n:
            perm[0] = perm[-1]
        args = [f"tf.constant({perm}, tf.{r.choice(['int32', 'int64'])})"]
    elif fn == "tf.math.scalar_mul":
        args = [p.scalar_lit(x.dtype, 0.2) if x.dtype in FLT else "2", x.name]
        out = (s, x.dtype) if x.dtype in FLT else None
    elif fn == "tf.clip_by_value":
        lo = p.pick([x.dtype], lambda v: v.known and _bcast(v.shape, s) == s, new_shape=())
        hi = p.pick([x.dtype], lambda v: v.known and _bcast(v.shape, s) == s, new_shape=())
        args = [x.name, lo.name, hi.name]
        out = (s, x.dtype)
    elif fn == "tf.one_hot":
        ids = p.new_input(p.rand_shape()[:2], r.choice(acc), bound=4)
        args = [ids.name, str(r.randint(0, 4))]
        if r.random() < 0.3:
            kw["on_value"] = r.choice(["5.0", "-1.0", "2"])
            if r.random() < 0.5:
                kw["off_value"] = r.choice(["0.5", "1"])
        if r.random() < 0.3:
            kw["axis"] = str(r.choice([-1, 0, ids.rank, ids.rank + 2 if bad else 0]))
        if r.random() < 0.3:
            kw["dtype"] = r.choice(["tf.float64", "tf.int32", "tf.bool", "tf.float16"])
    elif fn in ("tf.linalg.diag_part", "tf.linalg.diag", "tf.linalg.band_part", "tf.linalg.tensor_diag_part"):
        if fn == "tf.linalg.tensor_diag_part":
            d = r.randint(1, 3)
            x = p.pick(acc, lambda v: v.known and v.shape in ((d, d), (d, d + bad)), new_shape=(d, d + bad))
            args = [x.name]
        elif fn == "tf.linalg.band_part":
            if x.rank < 2:
                return
            args = [x.name, str(r.randint(-1, 2)), str(r.randint(-1, 2))]
            out = (s, x.dtype)
        else:
            args = [x.name]
            if r.random() < 0.3:
                kw["k"] = str(r.randint(-1, 1))
            if fn == "tf.linalg.diag_part" and x.rank < 2 and not bad:
                return
    else:
        raise KeyError(fn)
    p.emit(fn, _call(fn, args, kw), [out])


SPECIAL_B = {"tf.math.argmax": s_argmax, "tf.math.argmin": s_argmax, "tf.math.count_nonzero": s_count_nonzero,
             "tf.math.top_k": s_top_k, "tf.nn.top_k": s_top_k, "tf.sort": s_sort, "tf.argsort": s_sort,
             "tf.unique": s_unique, "tf.unique_with_counts": s_unique, "tf.math.in_top_k": s_in_top_k,
             "tf.nn.in_top_k": s_in_top_k, "tf.math.add_n": s_list, "tf.math.polyval": s_list, "tf.concat": s_list,
             "tf.stack": s_list, "tf.linalg.global_norm": s_list, "tf.clip_by_global_norm": s_list,
             "tf.linalg.matmul": s_matmul, "tf.linalg.matvec": s_matmul, "tf.linalg.tensordot": s_matmul,
             "tf.linalg.einsum": s_matmul, "tf.math.cumsum": b_scan, "tf.math.cumprod": b_scan,
             "tf.math.cumulative_logsumexp": b_scan, "tf.linalg.adjoint": b_unary,
             "tf.linalg.matrix_transpose": b_unary, "tf.linalg.trace": b_unary}
for _f in ("tf.reshape", "tf.transpose", "tf.tile", "tf.pad", "tf.split", "tf.unstack", "tf.gather",
           "tf.nn.embedding_lookup", "tf.gather_nd", "tf.slice", "tf.strided_slice", "tf.squeeze", "tf.expand_dims",
           "tf.broadcast_to", "tf.reverse", "tf.roll", "tf.boolean_mask", "tf.identity", "tf.zeros_like",
           "tf.ones_like", "tf.size", "tf.shape", "tf.rank", "tf.fill", "tf.cast", "tf.where", "tf.searchsorted"):
    SPECIAL_B[_f] = s_shape_op
KIND_B = {"unary": b_unary, "unary_axis": b_unary_axis, "binary": b_binary, "ternary": b_ternary,
          "reduce": b_reduce, "scan": b_scan, "segment": b_segment, "unsorted_segment": b_segment}


def builder(fn: str):  # noqa: ANN201
    if fn in SPECIAL_B:
        return SPECIAL_B[fn]
    if TABLE[fn]["kind"] == "special":
        return s_nn
    return KIND_B[TABLE[fn]["kind"]]


# weights: every function equally likely within its group, the groups weighted as a person's program mixes them
GROUP_W = {"unary": 3, "unary_axis": 1, "binary": 3, "ternary": 0.3, "reduce": 2, "scan": 0.7, "segment": 0.7,
           "unsorted_segment": 0.8}
WEIGHTS = [GROUP_W.get(TABLE[f]["kind"], 1.6 if f in SPECIAL_B and SPECIAL_B[f] is s_shape_op else 1.0)
           / max(1, sum(TABLE[g]["kind"] == TABLE[f]["kind"] for g in FUNCS) if TABLE[f]["kind"] != "special" else 1)
           * (8 if TABLE[f]["kind"] != "special" else 1) for f in FUNCS]


def program(seed: int, k: int, steps: int = 150) -> dict:
    """Program k of seed: inputs (name, dtype, literal, replica-1 literal), `steps` statements, the loss."""
    rng = random.Random(seed * 100003 + k)
    p = Program(rng)
    for _ in range(rng.randint(3, 6)):
        p.new_input(p.rand_shape(), p.rand_dtype(ALL))
    tries = 0
    while len(p.lines) < steps and tries < steps * 4:
        tries += 1
        fn = rng.choices(FUNCS, WEIGHTS)[0]
        try:
            builder(fn)(p, fn)
        except (IndexError, ValueError, ZeroDivisionError):   # (a draw the builder cannot serve; another one)
            pass
    fl = [v.name for v in p.pool if v.dtype in FLT and v.known][-12:]
    fl = rng.sample(fl, min(len(fl), 6))
    return {"inputs": [(n, d, t0) for n, d, t0, _ in p.inputs], "inputs_b": [t1 for *_, t1 in p.inputs],
            "lines": [(st, names) for st, names, _ in p.lines], "fns": [fn for *_, fn in p.lines],
            "final": f"loss = _loss([{', '.join(fl)}])", "last": [v.name for v in p.pool if v.known][-3:]}


def text_of(prog: dict) -> str:
    out = [f"{n} = {t}" for n, _, t in prog["inputs"]] + [st for st, _ in prog["lines"]]
    return "\n".join(out + [prog["final"]])


# --- running (in a backend's worker)
class Err:
    """A call's exception, compared by class."""

    def __init__(self, cls: str) -> None:
        self.cls = cls

    def __repr__(self) -> str:
        return f"ERR({self.cls})"


def helpers(tf) -> dict:  # noqa: ANN001
    def has_err(x: Any) -> bool:
        if isinstance(x, Err):
            return True
        if isinstance(x, (list, tuple)):
            return any(has_err(y) for y in x)
        if isinstance(x, dict):
            return any(has_err(y) for y in x.values())
        return False

    def _c(path: str, *a: Any, **k: Any) -> Any:
        if has_err((a, k)):
            return Err("upstream")
        f: Any = tf
        try:
            for part in path.split(".")[1:]:
                f = getattr(f, part)
        except AttributeError:
            return Err(f"MISSING {path}")
        try:
            return f(*a, **k)
        except Exception as e:  # noqa: BLE001 - the class is the answer
            return Err(type(e).__name__)

    def _cn(n: int, path: str, *a: Any, **k: Any) -> tuple:
        r = _c(path, *a, **k)
        if isinstance(r, Err):
            return (r,) * n
        r = tuple(r)
        return r if len(r) == n else (Err("arity"),) * n

    def _loss(xs: list) -> Any:
        out = [tf.constant(0.0)]
        for x in xs:
            if isinstance(x, Err) or not hasattr(x, "dtype") or not x.dtype.is_floating:
                continue
            y = tf.cast(x, tf.float32)
            out.append(tf.reduce_sum(tf.where(tf.math.is_finite(y), y, tf.zeros_like(y))))
        return tf.math.add_n(out)
    return {"_c": _c, "_cn": _cn, "_loss": _loss}


def _outcome(tf, np, v):  # noqa: ANN001, ANN202
    if isinstance(v, Err):
        return ("err", v.cls, "-")
    return G._outcome(tf, np, v)


def _body(prog: dict, env: dict, record: list | None, skip: frozenset = frozenset()) -> None:
    """The statements run in env; those in `skip` (indices) bind ERR(skipped) instead of running."""
    for i, (st, names) in enumerate(prog["lines"] + [(prog["final"], ["loss"])]):
        if i in skip:
            for n in names:
                env[n] = Err("skipped")
            continue
        exec(st, env)  # noqa: S102 - our own text
        if record is not None:
            record.append((st, tuple(_outcome(env["tf"], env["np"], env[n]) for n in names)))


def _is_t(tf, v) -> bool:  # noqa: ANN001
    return hasattr(v, "dtype") and hasattr(v, "shape") and not isinstance(v, Err)


class _Off(Exception):
    """A mode left out (FZ54B_MODES=eager,tape: a quicker probe of those modes)."""


def run_program(tf, np, prog: dict, strategy) -> dict:  # noqa: ANN001
    out: dict = {}
    base = {"tf": tf, "np": np, **helpers(tf)}

    def inputs(which: int = 0) -> dict:
        env = dict(base)
        texts = [t for _, _, t in prog["inputs"]] if which == 0 else prog["inputs_b"]
        for (name, _, _), text in zip(prog["inputs"], texts):
            env[name] = eval(text, env)  # noqa: S307 - our own text
        return env
    names = [n for n, _, _ in prog["inputs"]]
    bound = [n for _, ns in prog["lines"] for n in ns] + ["loss"]
    rec: list = []
    try:
        _body(prog, inputs(), rec)
        out["eager"] = ("ok", rec)
    except Exception as e:  # noqa: BLE001
        out["eager"] = ("stop", rec, G._err(e))
    # the statements that raised eagerly: the traced modes leave them out (simdist runs kernels while it traces,
    # so a call's kernel error caught inside the body is simdist's at trace time and TF's at run time: fz54's
    # class), leaving a body TF and simdist both run whole
    skip = frozenset(i for i, (_, o) in enumerate(rec) if any(x and x[0] == "err" for x in o))
    modes = os.environ.get("FZ54B_MODES", "eager,function,tape,dist").split(",")
    # function: traced once, called on both input sets
    try:
        if "function" not in modes:
            raise _Off()
        traces: list = []

        def f(d):  # noqa: ANN001, ANN202
            env = dict(base, **d)
            _body(prog, env, None, skip)
            traces.append([(n, repr(env[n])) for n in bound if not _is_t(tf, env[n])
                           and not isinstance(env[n], (list, tuple))])
            return {n: env[n] for n in bound if _is_t(tf, env[n])}
        tfn = tf.function(f, autograph=False)
        res = []
        for which in (0, 1):
            env0 = inputs(which)
            try:
                r = tfn({n: env0[n] for n in names})
                res.append(("ok", sorted((k, _outcome(tf, np, v)) for k, v in r.items())))
            except Exception as e:  # noqa: BLE001
                res.append(G._err(e))
        out["function"] = ("ok", len(traces), traces[:1], res)
    except Exception as e:  # noqa: BLE001
        out["function"] = G._err(e)
    # tape: float inputs watched, gradient of the loss
    try:
        if "tape" not in modes:
            raise _Off()
        env = inputs()
        xs = [env[n] for n, dt, _ in prog["inputs"] if dt in FLT]
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            _body(prog, env, None, skip)
        gs = tape.gradient(env["loss"], xs)
        out["tape"] = ("ok", _outcome(tf, np, env["loss"]), _outcome(tf, np, gs))
    except Exception as e:  # noqa: BLE001
        out["tape"] = G._err(e)
    # dist: per-replica inputs, the body in strategy.run
    try:
        if "dist" not in modes:
            raise _Off()
        e0, e1 = inputs(0), inputs(1)
        per = strategy.experimental_distribute_values_from_function(
            lambda ctx: {n: (e0 if ctx.replica_id_in_sync_group == 0 else e1)[n] for n in names})
        side: dict = {}
        fl = [n for n, dt, _ in prog["inputs"] if dt in FLT]
        last = prog["last"]

        def step(d):  # noqa: ANN001, ANN202
            rid = tf.get_static_value(tf.distribute.get_replica_context().replica_id_in_sync_group)
            env = dict(base, **d)
            xs = [env[n] for n in fl]
            with tf.GradientTape() as tape:
                for x in xs:
                    tape.watch(x)
                _body(prog, env, None)
            gs = tape.gradient(env["loss"], xs)
            side[int(rid)] = [(n, _outcome(tf, np, env[n])) for n in bound]
            return env["loss"], [g for g in gs if g is not None], [env[n] for n in last if _is_t(tf, env[n])]
        loss, gs, lastv = strategy.run(step, args=(per,))
        r = [side.get(0), side.get(1), _outcome(tf, np, strategy.experimental_local_results(loss)),
             _outcome(tf, np, [strategy.experimental_local_results(g) for g in gs])]
        for v in [loss] + list(lastv):
            for how in ("SUM", "MEAN"):
                for ax in (None, 0):
                    try:
                        r.append(_outcome(tf, np, strategy.reduce(how, v, axis=ax)))
                    except Exception as e:  # noqa: BLE001
                        r.append(G._err(e)[:2])
            if not v.shape.rank or v.dtype.name not in ("float16", "float32", "float64", "int32", "int64"):
                continue   # (TF 2.21 segfaults in strategy.gather of some of these: seed 54101 program 1)
            try:
                r.append(_outcome(tf, np, strategy.gather(v, axis=0)))
            except Exception as e:  # noqa: BLE001
                r.append(G._err(e)[:2])
        out["dist"] = ("ok", r)
    except Exception as e:  # noqa: BLE001
        out["dist"] = G._err(e)
    return out


G.run_program = run_program   # the harness's worker runs this generator's modes


def _diffs(prog: dict, w: dict, g: dict) -> list[tuple[str, str, str]]:
    """(mode, function, detail) for every differing outcome: eager and dist statement by statement."""
    out = []
    fn_of = dict(zip([st for st, _ in prog["lines"]], prog["fns"]))
    fn_of_name = {n: fn for (st, ns), fn in zip(prog["lines"], prog["fns"]) for n in ns}
    for m in ("eager", "function", "tape", "dist", "all"):
        a, b = w.get(m), g.get(m)
        if G._same(a, b):
            continue
        if m == "eager" and a and b and a[0] == b[0] == "ok":
            for (st, x), (_, y) in zip(a[1], b[1]):
                if not G._same(x, y):
                    out.append((m, fn_of.get(st, "loss"), f"{st}\n      TF: {str(x)[:300]}\n      sd: {str(y)[:300]}"))
            continue
        if m == "dist" and a and b and a[0] == b[0] == "ok" and len(a[1]) == len(b[1]):
            found = False
            for rid in (0, 1):
                for (n, x), (_, y) in zip(a[1][rid] or [], b[1][rid] or []):
                    if not G._same(x, y):
                        found = True
                        out.append((m, fn_of_name.get(n, "loss"), f"replica {rid} {n}\n      TF: {str(x)[:300]}\n"
                                    f"      sd: {str(y)[:300]}"))
            if found:
                continue
            for i, (x, y) in enumerate(zip(a[1], b[1])):
                if not G._same(x, y):
                    out.append((m, f"dist-part-{i}", f"TF: {str(x)[:300]}\n      sd: {str(y)[:300]}"))
            continue
        if m == "function" and a and b and a[0] == b[0] == "ok":
            if a[1:3] != b[1:3]:
                out.append((m, "trace", f"TF: {str(a[1:3])[:400]}\n      sd: {str(b[1:3])[:400]}"))
            for i, (x, y) in enumerate(zip(a[3], b[3])):
                if G._same(x, y):
                    continue
                if x[0] == y[0] == "ok":
                    dy = dict(y[1])
                    for k, v in x[1]:
                        if not G._same(v, dy.get(k)):
                            out.append((m, fn_of_name.get(k, "loss"), f"call {i} {k}\n      TF: {str(v)[:300]}\n"
                                        f"      sd: {str(dy.get(k))[:300]}"))
                else:
                    out.append((m, "call", f"call {i}\n      TF: {str(x)[:300]}\n      sd: {str(y)[:300]}"))
            continue
        out.append((m, "?", f"TF: {str(a)[:500]}\n      sd: {str(b)[:500]}"))
    return out


def main() -> int:
    if sys.argv[1] == "--worker":
        G.worker_of(program, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                    sys.argv[7])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--calls", type=int, default=150)
    ap.add_argument("--print", action="store_true")
    ap.add_argument("--coverage", action="store_true", help="the distinct functions the programs call")
    ap.add_argument("--rare", action="store_true", help="ranks 5-6, packet-boundary sizes, rare dtypes (FZ54B_RARE)")
    ap.add_argument("--alias", action="store_true", help="aliases, keyword operands, Python numbers (FZ54B_ALIAS)")
    a = ap.parse_args()
    if (a.rare and not RARE) or (a.alias and not ALIAS):  # read at import, by this process and the workers alike
        os.environ["FZ54B_RARE"] = "1" if a.rare else os.environ.get("FZ54B_RARE", "")
        os.environ["FZ54B_ALIAS"] = "1" if a.alias else os.environ.get("FZ54B_ALIAS", "")
        return subprocess.call([sys.executable, __file__] + sys.argv[1:])
    if a.print or a.coverage:
        seen: dict = {}
        for k in range(a.n):
            prog = program(a.seed, k, a.calls)
            if a.print:
                print(f"# program {k}\n{text_of(prog)}\n")
            for fn in prog["fns"]:
                seen[fn] = seen.get(fn, 0) + 1
        if a.coverage:
            print(f"{len(seen)} distinct functions of {len(FUNCS)} in the table")
            print(" ".join(sorted(set(FUNCS) - set(seen))))
        return 0
    want = G.run_backend(__file__, "tf", a.seed, a.n, a.calls)
    got = G.run_backend(__file__, "simdist", a.seed, a.n, a.calls)
    bad = 0
    by_fn: dict = {}
    calls = 0
    shown = 0
    for k, (w, g) in enumerate(zip(want, got)):
        prog = program(a.seed, k, a.calls)
        calls += len(prog["lines"])
        if "crash" in w:
            continue
        ds = _diffs(prog, w, g)
        if not ds:
            continue
        bad += 1
        print(f"=== program {k}: {len(ds)} differing outcomes, modes {sorted({d[0] for d in ds})}")
        for m, fn, detail in ds[: (a.show if shown < a.show else 3)]:
            by_fn[(m, fn)] = by_fn.get((m, fn), 0) + 1
            print(f"  [{m}] {fn}: {detail}")
        for m, fn, _ in ds[a.show:]:
            by_fn[(m, fn)] = by_fn.get((m, fn), 0) + 1
        shown += 1
    print("BY FUNCTION:", sorted(by_fn.items(), key=lambda kv: -kv[1]))
    crashes = sum("crash" in w for w in want)
    print(f"PROGRAMS {a.n} CALLS {calls} DISAGREEING PROGRAMS {bad} (TF aborted on {crashes})")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
