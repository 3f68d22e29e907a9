"""The second fuzzer's programs: a few inputs (tensors or Variables of every dtype, shapes that
broadcast against each other, rank 0-4, size-1 and empty dimensions) and independent expression
TREES over them (nested calls, operators, indexing, Python/NumPy scalars and nested lists as
operands), each a line of Python over `tf`, `np` and the inputs `x0, x1, ...`.

Generation grows each tree bottom-up and runs every node on simdist as it is drawn (so a node
knows its dtype and shape and the tree stays mostly valid): a node whose float result holds
subnormals is dropped (TF's CPU kernels flush them to zero: docs/spec.md
`ops.floor-division-float`), an inexact node (transcendental, float reduction or product) is only
ever a tree's root (a last-bit difference never feeds another op), and a call that raises is kept
only as a root, now and then, so error paths are compared too. Random streams: one SeedSequence
per (seed, index), so programs are independent of one another.

Modes: "eager"; "function" (each tree inside `tf.function`, called twice); "grad" (each tree
under a GradientTape, gradient to every input Variable, any dtype, with
`unconnected_gradients` NONE or ZERO); "dist" (each tree in MirroredStrategy.run on two logical
CPUs, each replica with its own inputs; then experimental_local_results and reduce SUM/MEAN).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from fz2_vocab import ALLD, FL, INT, REAL, SINT, UINT, VOCAB, Fn

MODES = ("eager", "function", "grad", "dist")
_F_VALUES = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -1.5, 3.0, -2.5, 7.0, 100.0, 65504.0, 1e30, -3e38, np.nan, np.inf,
             -np.inf, 0.25, 1.5, 4.0]
_PY_LITS = ["2", "-1", "0", "3", "0.5", "-2.5", "True", "False", "2 ** 31", "2 ** 40", "-(2 ** 63)", "1e30",
            "float('nan')", "float('inf')", "-0.0", "255", "7"]
_NP_LITS = ["np.float64(2.5)", "np.float32(-0.0)", "np.int64(3)", "np.int32(-7)", "np.uint8(3)", "np.float16(0.5)",
            "np.bool_(True)", "np.int16(-2)", "np.uint32(4)"]


@dataclass
class Prog:
    """One program: inputs (array, dtype name, is a Variable), the replica-1 arrays ("dist"),
    the trees' source lines, which trees are exact, and the gradient options ("grad")."""
    seed: int
    index: int
    mode: str
    inputs: list[tuple[np.ndarray, str, bool]]
    inputs2: list[np.ndarray] = field(default_factory=list)
    exprs: list[str] = field(default_factory=list)
    exact: list[bool] = field(default_factory=list)
    unconnected: str = "NONE"

    def names(self) -> list[str]:
        return [f"x{i}" for i in range(len(self.inputs))]

    def source(self) -> str:
        """The program as Python over a `tf` module: the reproducer printed with a disagreement."""
        out = ["import numpy as np", "import tensorflow as tf  # or: from simdist import tf", f"# mode: {self.mode}"]
        for name, (a, dt, var) in zip(self.names(), self.inputs):
            c = f"tf.constant(np.array({_list(a)}, np.{a.dtype.name}).reshape({a.shape}), dtype=tf.{dt})"
            out.append(f"{name} = " + (f"tf.Variable({c})" if var else c))
        for name, a in zip(self.names(), self.inputs2):
            out.append(f"# replica 1: {name} = np.array({_list(a)}, np.{a.dtype.name}).reshape({a.shape})")
        how = {"eager": "", "function": "# each e_k runs as tf.function(lambda x0, ...: e_k), called twice",
               "grad": "# each e_k runs under a tf.GradientTape, then tape.gradient(e_k, [the Variables], "
                       f"unconnected_gradients=tf.UnconnectedGradients.{self.unconnected})",
               "dist": "# each e_k runs as strategy.run(lambda x0, ...: e_k) on MirroredStrategy(['/cpu:0', '/cpu:1']), "
                       "then experimental_local_results and reduce('SUM'/'MEAN', axis=None)"}[self.mode]
        out += [how] if how else []
        out += [f"e{k} = {e}" for k, e in enumerate(self.exprs)]
        return "\n".join(out)


def _list(a: np.ndarray) -> str:
    import re
    if a.dtype.kind == "c":   # (the third fuzzer's complex inputs) flat: the source reshapes it
        return "[" + ", ".join(f"complex({_list(np.array(v.real))}, {_list(np.array(v.imag))})" for v in a.ravel()) + "]"
    return re.sub(r"\b(nan|inf)\b", lambda m: f"float('{m.group(1)}')", repr(a.tolist()))


@dataclass
class Node:
    text: str
    value: Any
    dtype: str
    shape: tuple[int, ...]
    exact: bool


# ---------------------------------------------------------------- inputs

def _np_dtype(dt: str) -> str:
    return "float32" if dt == "bfloat16" else dt


def _array(rng: np.random.Generator, dt: str, shape: tuple[int, ...]) -> np.ndarray:
    size = int(np.prod(shape)) if shape else 1
    if dt in FL:
        pool = [v for v in _F_VALUES if dt != "float16" or not np.isfinite(v) or abs(v) <= 65504.0]
        with np.errstate(over="ignore"):
            return np.array([pool[i] for i in rng.integers(0, len(pool), size)], _np_dtype(dt)).reshape(shape)
    if dt == "bool":
        return (rng.random(size) < 0.5).reshape(shape)
    info = np.iinfo(dt)
    pool = [0, 1, 2, 3, 5, info.max, info.min, info.max - 1] + ([-1, -2, -7] if info.min < 0 else [4, 9])
    return np.array([pool[i] for i in rng.integers(0, len(pool), size)], dt).reshape(shape)


def _dtype(rng: np.random.Generator) -> str:
    common = ["float32", "float32", "float64", "int32", "int32", "int64", "bool", "float16"]
    rare = ["bfloat16", "int8", "int16", "uint8", "uint16", "uint32", "uint64"]
    return str(rng.choice(common)) if rng.random() < 0.7 else str(rng.choice(rare))


def _shapes(rng: np.random.Generator, n: int) -> list[tuple[int, ...]]:
    """Shapes that mostly broadcast against one base shape (leading dimensions dropped, some set to 1)."""
    rank = int(rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4]))
    base = [int(rng.choice([1, 2, 2, 3, 3, 4, 0] if rng.random() < 0.2 else [1, 2, 3, 2, 3])) for _ in range(rank)]
    out = []
    for _ in range(n):
        r = rng.random()
        if r < 0.45:
            s = list(base)
        elif r < 0.75:
            s = [1 if rng.random() < 0.5 else d for d in base][int(rng.integers(0, rank + 1)):]
        elif r < 0.9:
            s = [int(d) for d in rng.integers(1, 4, int(rng.integers(0, 3)))]
        else:
            s = [1] * int(rng.integers(0, 3)) + base
        out.append(tuple(s))
    return out


# ---------------------------------------------------------------- growing trees

class _Grower:
    def __init__(self, rng: np.random.Generator, tf: Any, ns: dict[str, Any], ns2: dict[str, Any] | None,
                 leaves: list[Node]) -> None:
        self.rng, self.tf, self.ns, self.ns2 = rng, tf, ns, ns2
        self.pool = list(leaves)
        self.vocab = VOCAB

    # -- helpers
    def r(self) -> float:
        return float(self.rng.random())

    def i(self, lo: int, hi: int) -> int:
        return int(self.rng.integers(lo, hi))

    def choice(self, xs: list[Any]) -> Any:
        return xs[int(self.rng.integers(len(xs)))]

    def evaluate(self, text: str) -> tuple[Any, str | None]:
        try:
            with np.errstate(all="ignore"):
                return eval(text, self.ns), None  # noqa: S307 - our own generated program text
        except Exception as e:  # noqa: BLE001 - a failing call is a result too
            return None, type(e).__name__

    def node(self, text: str, exact: bool) -> Node | None:
        """`text` run on simdist: a Node, or None when dropped (subnormals, a non-tensor result, or
        an error unless kept as an error root by the caller)."""
        v, err = self.evaluate(text)
        if err is not None:
            return Node(text, None, "error", (), True)
        if self.ns2 is not None:
            try:
                with np.errstate(all="ignore"):
                    v2 = eval(text, self.ns2)  # noqa: S307
                if _has_subnormal(v2):
                    return None
            except Exception:  # noqa: BLE001 - one replica raising is compared too
                pass
        if _has_subnormal(v):
            return None
        if isinstance(v, (list, tuple)) or not (hasattr(v, "dtype") and hasattr(v, "shape")):
            return Node(text, v, "other", (), exact)
        return Node(text, v, v.dtype.name, tuple(int(d) for d in v.shape), exact)

    def operand(self, depth: int, dtypes: tuple[str, ...] | None = None) -> Node | None:
        """A tensor-valued exact subtree: a pool entry, or a fresh tree of depth < `depth`."""
        if depth > 0 and self.r() < 0.55:
            for _ in range(4):
                n = self.grow(depth - 1, root=False)
                if n is not None and n.dtype in ALLD and (dtypes is None or n.dtype in dtypes or self.r() < 0.15):
                    self.pool.append(n)
                    return n
        ok = [n for n in self.pool if dtypes is None or n.dtype in dtypes]
        if not ok or self.r() < 0.1:
            ok = [n for n in self.pool if n.dtype in ALLD]
        return self.choice(ok) if ok else None

    def partner(self, x: Node, depth: int) -> str:
        """A second operand for x: same-dtype tensor of a broadcasting shape, a Python or NumPy scalar,
        a nested list, or (sometimes) anything."""
        r = self.r()
        if r < 0.4:
            same = [n for n in self.pool if n.dtype == x.dtype and _broadcasts(n.shape, x.shape)]
            if same:
                return self.choice(same).text
        if r < 0.55:
            return self.choice(_PY_LITS)
        if r < 0.65:
            return self.choice(_NP_LITS)
        if r < 0.75 and x.value is not None and x.shape and 0 < len(x.shape) <= 2 and int(np.prod(x.shape)) <= 6:
            a = np.asarray(x.value.numpy()).astype(np.float64)
            with np.errstate(all="ignore"):
                lit = np.where(np.isfinite(a), np.round(a) + 1, 2).astype(int if x.dtype not in FL else float)
                return repr(lit.tolist())
        y = self.operand(depth, (x.dtype,) if self.r() < 0.6 else None)
        return y.text if y is not None else "2"

    def axis(self, rank: int, reduction: bool = False) -> str | None:
        r = self.r()
        if reduction and r < 0.25:
            return None
        if rank == 0:
            return "0" if self.r() < 0.2 else ("[]" if reduction and self.r() < 0.5 else None)
        if reduction and r < 0.45:
            k = sorted({self.i(-rank, rank) for _ in range(self.i(1, 3))})
            return repr(tuple(k)) if self.r() < 0.5 else repr(k)
        if r > 0.97:
            return str(rank + self.i(0, 2))
        return str(self.i(-rank, rank))

    def kw(self, parts: list[str]) -> str:
        if self.r() < 0.15:
            parts = parts + [f"name={self.choice(['n', 'op_1', 'a/b'])!r}"]
        return ", ".join(parts)

    # -- the recursion
    def grow(self, depth: int, root: bool) -> Node | None:
        if depth <= 0:
            return self.operand(0)
        fn: Fn = self.choice(self.vocab)
        if fn.exact is False and not root:
            return None
        x = self.operand(depth, fn.dtypes if self.r() < 0.85 else None)
        if x is None:
            return None
        text = _build(self, fn, x, depth)
        if text is None:
            return None
        n = self.node(text, exact=True)
        if n is None:
            return None
        if n.dtype == "error":
            return n if root and self.r() < 0.3 else None
        # operands are exact (an inexact node is only ever a root)
        n.exact = fn.exact is True or (fn.exact == "int" and n.dtype not in FL)
        if not n.exact and not root:
            return None
        return n


def _broadcasts(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    for x, y in zip(reversed(a), reversed(b)):
        if x != y and x != 1 and y != 1:
            return False
    return True


def _has_subnormal(out: Any) -> bool:
    parts = out if isinstance(out, (list, tuple)) else [out]
    for p in parts:
        if hasattr(p, "dtype") and hasattr(p, "numpy") and getattr(p.dtype, "name", "") in FL:
            a = np.abs(np.asarray(p.numpy(), np.float64))
            tiny = float(np.finfo(np.float32).tiny) if p.dtype.name == "bfloat16" else float(np.finfo(p.dtype.name).tiny)
            if np.any((a > 0) & (a < tiny)):
                return True
    return False


# ---------------------------------------------------------------- argument builders

_BIN_SYMS = {"+", "-", "*", "/", "//", "%", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^", "**"}


def _build(g: _Grower, fn: Fn, x: Node, depth: int) -> str | None:
    p, t, rank, shape = fn.path, x.text, len(x.shape), x.shape
    if fn.kind == "u":
        return f"tf.{p}({g.kw([t])})"
    if fn.kind == "b":
        y = g.partner(x, depth)
        a, b = (y, t) if g.r() < 0.2 else (t, y)
        return f"tf.{p}({g.kw([a, b])})"
    if fn.kind == "o":
        if p in _BIN_SYMS:
            y = g.partner(x, depth)
            return f"({y} {p} {t})" if g.r() < 0.3 else f"({t} {p} {y})"
        return {"neg": f"(-{t})", "~": f"(~{t})", "abs()": f"abs({t})"}[p]
    if fn.kind == "r":
        parts = [t]
        ax = g.axis(rank, reduction=True)
        if ax is not None:
            parts.append(f"axis={ax}" if g.r() < 0.8 else ax)
        if g.r() < 0.35 and p != "math.count_nonzero":
            parts.append(f"keepdims={g.r() < 0.7}")
        if p == "math.count_nonzero" and g.r() < 0.3:
            parts.append(f"dtype=tf.{g.choice(['int32', 'int64', 'float32'])}")
        return f"tf.{p}({g.kw(parts)})"
    if fn.kind == "s":
        ax = g.axis(rank) or "0"
        parts = [t, f"axis={ax}"]
        if g.r() < 0.5:
            parts.append(f"exclusive={g.r() < 0.5}")
        if g.r() < 0.5:
            parts.append(f"reverse={g.r() < 0.5}")
        return f"tf.{p}({g.kw(parts)})"
    return _CUSTOM[p](g, x, depth) if p in _CUSTOM else _CUSTOM[p.split(".")[-1]](g, x, depth)


def _size(shape: tuple[int, ...]) -> int:
    return int(np.prod(shape)) if shape else 1


def _c_argmax(g: _Grower, x: Node, depth: int) -> str | None:
    parts = [x.text]
    if len(x.shape) or g.r() < 0.3:
        parts.append(f"axis={g.axis(len(x.shape)) or 0}")
    if g.r() < 0.3:
        parts.append(f"output_type=tf.{g.choice(['int32', 'int64', 'int16'])}")
    return f"tf.argmax({g.kw(parts)})".replace("tf.argmax", "tf." + g.choice(["argmax", "argmin", "math.argmax"]))


def _c_reshape(g: _Grower, x: Node, depth: int) -> str | None:
    n = _size(x.shape)
    opts = [[-1], [n], [1, n], list(reversed(x.shape)), [n, 1, -1], [n + 1], [-1, 1], [0, -1] if n == 0 else [1, -1]]
    shape = g.choice(opts)
    return f"tf.reshape({g.kw([x.text, repr(shape if g.r() < 0.8 else tuple(shape))])})"


def _c_transpose(g: _Grower, x: Node, depth: int) -> str | None:
    if g.r() < 0.4:
        return f"tf.transpose({x.text})"
    perm = [int(v) for v in g.rng.permutation(len(x.shape))]
    if g.r() < 0.2:
        perm = [v - len(x.shape) for v in perm]
    return f"tf.transpose({g.kw([x.text, f'perm={perm}'])})"


def _c_expand(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.expand_dims({g.kw([x.text, str(g.i(-len(x.shape) - 1, len(x.shape) + 2))])})"


def _c_squeeze(g: _Grower, x: Node, depth: int) -> str | None:
    ones = [i for i, d in enumerate(x.shape) if d == 1]
    if ones and g.r() < 0.6:
        return f"tf.squeeze({x.text}, axis={[ones[0] - len(x.shape) if g.r() < 0.4 else ones[0]]})"
    return f"tf.squeeze({x.text})"


def _same_shape(g: _Grower, x: Node, depth: int) -> list[str]:
    same = [n.text for n in g.pool if n.dtype == x.dtype and n.shape == x.shape]
    parts = [x.text] + [g.choice(same) for _ in range(g.i(0, 3))]
    if g.r() < 0.1:
        y = g.operand(depth)
        if y is not None:
            parts.append(y.text)
    if g.r() < 0.1 and x.dtype in REAL and not x.shape:
        parts.append("1")
    return parts


def _c_concat(g: _Grower, x: Node, depth: int) -> str | None:
    parts = _same_shape(g, x, depth)
    return f"tf.concat({g.kw(['[' + ', '.join(parts) + ']', f'axis={g.axis(len(x.shape)) or 0}'])})"


def _c_stack(g: _Grower, x: Node, depth: int) -> str | None:
    parts = _same_shape(g, x, depth)
    return f"tf.stack({g.kw(['[' + ', '.join(parts) + ']', f'axis={g.axis(len(x.shape) + 1) or 0}'])})"


def _c_add_n(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.add_n({g.kw(['[' + ', '.join(_same_shape(g, x, depth)) + ']'])})"


def _c_tile(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.tile({x.text}, {[g.i(0, 3) for _ in x.shape]})"


def _c_reverse(g: _Grower, x: Node, depth: int) -> str | None:
    ax = g.axis(len(x.shape))
    return f"tf.reverse({x.text}, {[int(ax)] if ax is not None else []})"


def _c_slice(g: _Grower, x: Node, depth: int) -> str | None:
    begin = [g.i(0, d + 1) for d in x.shape]
    size = [g.i(-1, d - b + 1) for d, b in zip(x.shape, begin)]
    return f"tf.slice({x.text}, {begin}, {size})"


def _c_index(g: _Grower, x: Node, depth: int) -> str | None:
    """Python indexing: ints (negative too), slices with steps, Ellipsis, None (new axes)."""
    parts = []
    for d in x.shape[: g.i(0, len(x.shape) + 1)]:
        r = g.r()
        if r < 0.3 and d:
            parts.append(str(g.i(-d, d)))
        elif r < 0.5:
            parts.append(g.choice(["::-1", "1:", ":-1", "::2", "-2:"]))
        elif r < 0.6:
            parts.append("None")
        else:
            parts.append(":")
    if g.r() < 0.2:
        parts.append("...")
    if not parts:
        parts = [g.choice(["...", "None", ":"])]
    return f"{x.text}[{', '.join(parts)}]"


def _c_strided(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    begin = [g.i(-d, d + 1) if d else 0 for d in x.shape]
    end = [g.i(-d, d + 2) if d else 0 for d in x.shape]
    strides = [g.choice([1, 1, 2, -1]) for _ in x.shape]
    kw = []
    if g.r() < 0.3:
        kw.append(f"shrink_axis_mask={g.i(0, 2 ** len(x.shape))}")
    if g.r() < 0.3:
        kw.append(f"begin_mask={g.i(0, 2 ** len(x.shape))}")
    return f"tf.strided_slice({', '.join([x.text, str(begin), str(end), str(strides)] + kw)})"


def _c_gather(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    ax = g.i(-len(x.shape), len(x.shape))
    d = x.shape[ax]
    idx = [g.i(-1 if g.r() < 0.05 else 0, max(d, 1) + (g.r() < 0.05)) for _ in range(g.i(0, 4))]
    if g.r() < 0.3 and idx:
        idx = [idx]
    kw = [f"axis={ax}"] if g.r() < 0.8 else []
    return f"tf.gather({g.kw([x.text, repr(idx)] + kw)})"


def _c_gather_nd(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    k = g.i(1, len(x.shape) + 1)
    idx = [[g.i(0, max(d, 1)) for d in x.shape[:k]] for _ in range(g.i(1, 3))]
    return f"tf.gather_nd({x.text}, {idx})"


def _c_where(g: _Grower, x: Node, depth: int) -> str | None:
    conds = [n for n in g.pool if n.dtype == "bool" and _broadcasts(n.shape, x.shape)]
    if not conds:
        return f"tf.where({x.text} > 0, {x.text}, {g.partner(x, depth)})" if x.dtype in REAL else None
    c = g.choice(conds).text
    if g.r() < 0.15:
        return f"tf.where({c})"
    return f"tf.where({c}, {x.text}, {g.partner(x, depth)})"


def _c_pad(g: _Grower, x: Node, depth: int) -> str | None:
    pads = [[g.i(0, 3), g.i(0, 2)] for _ in x.shape]
    kw = []
    if g.r() < 0.3:
        kw.append(f"constant_values={g.choice(['1', '-1', '0.5', 'True'])}")
    if g.r() < 0.2:
        kw.append(f"mode={g.choice(['REFLECT', 'SYMMETRIC', 'CONSTANT'])!r}")
    return f"tf.pad({', '.join([x.text, repr(pads)] + kw)})"


def _c_split(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    ax = g.i(-len(x.shape), len(x.shape))
    d = x.shape[ax]
    if g.r() < 0.5:
        k = g.choice([k for k in (1, 2, 3) if d % k == 0] or [2])
        spec = str(k)
    else:
        cut = g.i(0, d + 1)
        spec = repr([cut, -1] if g.r() < 0.5 else [cut, d - cut])
    return f"tf.split({x.text}, {spec}, axis={ax})[{g.i(0, 2)}]"


def _c_unstack(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    ax = g.i(-len(x.shape), len(x.shape))
    if x.shape[ax] == 0:
        return f"tf.unstack({x.text}, axis={ax})"
    return f"tf.unstack({x.text}, axis={ax})[{g.i(-1, 1)}]"


def _c_broadcast_to(g: _Grower, x: Node, depth: int) -> str | None:
    target = [2] + list(x.shape) if g.r() < 0.6 else [3] + [max(d, 1) if d != 1 else 2 for d in x.shape]
    return f"tf.broadcast_to({x.text}, {target})"


def _c_boolean_mask(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    return f"tf.boolean_mask({x.text}, {[bool(g.r() < 0.5) for _ in range(x.shape[0])]})"


def _c_cast(g: _Grower, x: Node, depth: int) -> str | None:
    dt = g.choice(list(ALLD))
    return f"tf.cast({g.kw([x.text, 'tf.' + dt])})"


def _c_saturate(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.saturate_cast({x.text}, tf.{g.choice(list(REAL))})"


def _c_shape(g: _Grower, x: Node, depth: int) -> str | None:
    fn = g.choice(["shape", "size", "rank"])
    kw = [f"out_type=tf.{g.choice(['int32', 'int64'])}"] if fn != "rank" and g.r() < 0.4 else []
    return f"tf.{fn}({', '.join([x.text] + kw)})"


def _c_matrix_transpose(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.linalg.matrix_transpose({x.text})"


def _c_repeat(g: _Grower, x: Node, depth: int) -> str | None:
    kw = [f"axis={g.axis(len(x.shape))}"] if x.shape and g.r() < 0.7 else []
    return f"tf.repeat({', '.join([x.text, str(g.i(0, 3))] + kw)})"


def _c_fill(g: _Grower, x: Node, depth: int) -> str | None:
    if x.shape:
        return None
    return f"tf.fill({[g.i(0, 3) for _ in range(g.i(0, 3))]}, {x.text})"


def _c_zeros_dtype(g: _Grower, x: Node, depth: int) -> str | None:
    fn = g.choice(["zeros_like", "ones_like"])
    return f"tf.{fn}({x.text}, dtype=tf.{g.choice(list(ALLD))})"


def _c_clip(g: _Grower, x: Node, depth: int) -> str | None:
    lo = g.choice(["-1", "0", "0.5", "2"])
    hi = g.choice(["3", "1", "0"])
    return f"tf.clip_by_value({g.kw([x.text, lo, hi])})"


def _c_sort(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    parts = [x.text]
    if g.r() < 0.5:
        parts.append(f"direction={g.choice(['ASCENDING', 'DESCENDING'])!r}")
    if g.r() < 0.4:
        parts.append(f"axis={g.i(-len(x.shape), len(x.shape))}")
    return f"tf.{g.choice(['sort', 'argsort'])}({', '.join(parts)})"


def _c_top_k(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    k = g.i(0, x.shape[-1] + 1)
    field = g.choice([".values", ".indices", "[0]"])
    return f"tf.math.top_k({x.text}, k={k}, sorted={g.r() < 0.8}){field}"


def _c_bias_add(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return None
    bs = [n.text for n in g.pool if n.dtype == x.dtype and n.shape == x.shape[-1:]]
    b = g.choice(bs) if bs else repr([1] * x.shape[-1])
    return f"tf.nn.bias_add({x.text}, {b})"


def _c_one_hot(g: _Grower, x: Node, depth: int) -> str | None:
    parts = [x.text, str(g.i(0, 4))]
    if g.r() < 0.4:
        parts += [f"on_value={g.choice(['5', '1.5', 'True'])}", f"off_value={g.choice(['-1', '0.0', 'False'])}"]
    if g.r() < 0.4:
        parts.append(f"dtype=tf.{g.choice(['int32', 'int64', 'float32', 'float16', 'bool', 'uint8'])}")
    if g.r() < 0.2:
        parts.append("axis=0")
    return f"tf.one_hot({', '.join(parts)})"


def _c_sequence_mask(g: _Grower, x: Node, depth: int) -> str | None:
    parts = [x.text]
    if g.r() < 0.7:
        parts.append(f"maxlen={g.i(0, 5)}")
    if g.r() < 0.3:
        parts.append(f"dtype=tf.{g.choice(['int32', 'float32', 'bool'])}")
    return f"tf.sequence_mask({', '.join(parts)})"


def _mat_partner(g: _Grower, x: Node, shape: tuple[int, ...]) -> str:
    same = [n.text for n in g.pool if n.dtype == x.dtype and n.shape == shape]
    return g.choice(same) if same else x.text


def _c_matmul(g: _Grower, x: Node, depth: int) -> str | None:
    if len(x.shape) < 2 and g.r() < 0.9:
        return None
    ta = g.r() < 0.5
    shape = x.shape[:-2] + ((x.shape[-2], x.shape[-1]) if ta else (x.shape[-1], x.shape[-2])) if len(x.shape) >= 2 else ()
    y = _mat_partner(g, x, shape)
    if g.r() < 0.3:
        return f"({x.text} @ {y if not ta else x.text})"
    fn = g.choice(["matmul", "linalg.matmul"])
    return f"tf.{fn}({x.text}, {y}, transpose_a={ta})" if ta else f"tf.{fn}({g.kw([x.text, y])})"


def _c_tensordot(g: _Grower, x: Node, depth: int) -> str | None:
    if not x.shape:
        return f"tf.tensordot({x.text}, {x.text}, axes=0)"
    ax = g.choice([0, 1, [[len(x.shape) - 1], [len(x.shape) - 1]]])
    return f"tf.tensordot({x.text}, {x.text}, axes={ax!r})"


def _c_matvec(g: _Grower, x: Node, depth: int) -> str | None:
    if len(x.shape) != 2:
        return None
    vs = [n.text for n in g.pool if n.dtype == x.dtype and n.shape == x.shape[-1:]]
    return f"tf.linalg.matvec({x.text}, {g.choice(vs) if vs else x.text + '[0]'})"


def _c_trace(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.linalg.trace({x.text})" if len(x.shape) >= 2 else None


def _c_einsum(g: _Grower, x: Node, depth: int) -> str | None:
    eqs = {1: ["i->", "i,i->", "i,j->ij", "i->i"], 2: ["ij->ji", "ij->", "ij,ij->i", "ij,kj->ik", "ij->j", "ii->i"],
           3: ["bij->bji", "bij,bkj->bik", "bij->b", "...j->..."]}
    if len(x.shape) not in eqs:
        return None
    eq = g.choice(eqs[len(x.shape)])
    return f"tf.einsum({eq!r}, {x.text}" + (f", {x.text})" if "," in eq else ")")


def _c_leaky(g: _Grower, x: Node, depth: int) -> str | None:
    return f"tf.nn.leaky_relu({x.text}, alpha={g.choice([0.2, 0.1, 1.5, -0.5, 0.3])})"


def _c_segment(g: _Grower, x: Node, depth: int, name: str) -> str | None:
    if not x.shape:
        return None
    ids = sorted(g.i(0, 3) for _ in range(x.shape[0]))
    if "unsorted" in name:
        ids = [int(v) for v in g.rng.permutation(ids)] if ids else []
        if g.r() < 0.05 and ids:
            ids[0] = -1
        return f"tf.{name}({x.text}, {ids}, num_segments={g.i(1, 4)})"
    return f"tf.{name}({x.text}, {ids})"


_CUSTOM: dict[str, Callable[[_Grower, Node, int], str | None]] = {
    "argmax": _c_argmax, "argmin": _c_argmax, "reshape": _c_reshape, "transpose": _c_transpose,
    "expand_dims": _c_expand, "squeeze": _c_squeeze, "concat": _c_concat, "stack": _c_stack, "add_n": _c_add_n,
    "tile": _c_tile, "reverse": _c_reverse, "slice": _c_slice, "index": _c_index, "strided_slice": _c_strided,
    "gather": _c_gather, "gather_nd": _c_gather_nd, "where": _c_where, "pad": _c_pad, "split": _c_split,
    "unstack": _c_unstack, "broadcast_to": _c_broadcast_to, "boolean_mask": _c_boolean_mask, "cast": _c_cast,
    "saturate_cast": _c_saturate, "shape": _c_shape, "size": _c_shape, "rank": _c_shape,
    "matrix_transpose": _c_matrix_transpose, "repeat": _c_repeat, "fill": _c_fill, "zeros_like_dtype": _c_zeros_dtype,
    "clip_by_value": _c_clip, "sort": _c_sort, "argsort": _c_sort, "top_k": _c_top_k, "bias_add": _c_bias_add,
    "one_hot": _c_one_hot, "sequence_mask": _c_sequence_mask, "matmul": _c_matmul, "@": _c_matmul,
    "tensordot": _c_tensordot, "matvec": _c_matvec, "trace": _c_trace, "einsum": _c_einsum, "leaky_relu": _c_leaky,
    **{s: (lambda g, x, d, s=s: _c_segment(g, x, d, "math." + s)) for s in (
        "segment_max", "segment_min", "segment_sum", "segment_mean", "segment_prod", "unsorted_segment_max",
        "unsorted_segment_min", "unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_prod",
        "unsorted_segment_sqrt_n")},
}


# ---------------------------------------------------------------- programs

def make_input(tf: Any, a: np.ndarray, dt: str, var: bool) -> Any:
    c = tf.constant(a, dtype=getattr(tf, dt))
    return tf.Variable(c) if var else c


def generate(seed: int, index: int, mode: str | None = None) -> Prog:
    """Program `index` of stream `seed` (its own SeedSequence)."""
    from simdist import tf
    rng = np.random.default_rng(np.random.SeedSequence([seed, index, 29]))
    mode = mode or str(rng.choice(MODES, p=[0.35, 0.2, 0.3, 0.15]))
    n = int(rng.integers(2, 6))
    prog = Prog(seed, index, mode, [])
    for shape in _shapes(rng, n):
        dt = _dtype(rng)
        var = mode != "dist" and (rng.random() < (0.7 if mode == "grad" else 0.3))
        prog.inputs.append((_array(rng, dt, shape), dt, bool(var)))
        if mode == "dist":
            prog.inputs2.append(_array(rng, dt, shape))
    prog.unconnected = "ZERO" if rng.random() < 0.4 else "NONE"
    ns: dict[str, Any] = {"tf": tf, "np": np}
    leaves = []
    for name, (a, dt, var) in zip(prog.names(), prog.inputs):
        ns[name] = make_input(tf, a, dt, var)
        leaves.append(Node(name, ns[name], dt, a.shape, True))
    ns2 = None
    if mode == "dist":
        ns2 = {"tf": tf, "np": np}
        for name, a, (_, dt, _) in zip(prog.names(), prog.inputs2, prog.inputs):
            ns2[name] = make_input(tf, a, dt, False)
    grower = _Grower(rng, tf, ns, ns2, leaves)
    target = int(rng.integers(3, 9))
    attempts = 0
    while len(prog.exprs) < target and attempts < 30 * target:
        attempts += 1
        node = grower.grow(int(rng.integers(1, 5)), root=True)
        if node is None or node.text in prog.exprs or node.text in prog.names():
            continue
        prog.exprs.append(node.text)
        prog.exact.append(bool(node.exact))
        if node.dtype in ALLD and node.exact:
            grower.pool.append(node)
    return prog


__all__ = ["Prog", "generate", "make_input", "MODES", "INT", "SINT", "UINT"]
