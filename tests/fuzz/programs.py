"""Random TF programs as data, their seeded generator, and the interpreter that runs one on
either backend (`tf` is simdist's facade or real TensorFlow).

A program is a list of inputs (NumPy arrays; a second set for the second replica in "dist" mode)
and of steps `(op name, args, kwargs)`; an argument is a reference to an earlier value, a literal,
a list of references or a dtype name. Generation is value-aware: each candidate step runs on
simdist as it is drawn, and a step whose float result holds subnormals is dropped, because TF's
CPU kernels flush them to zero (docs/spec.md `ops.floor-division-float`), which simdist does not
model (in "dist" mode on both replicas' inputs). Results of inexact ops never feed later steps
(catalogue.py).

Modes: "eager" runs the steps; "grad" runs them under a GradientTape with the float inputs as
Variables and takes the gradient of every float result; "dist" runs them in
MirroredStrategy.run on two logical CPUs (each replica with its own inputs, plus all_reduce
steps), then reduces and gathers some results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from catalogue import ALL, BY_NAME, FLOATS, INTS, OPS, Op

_COLLECTIVE_DTYPES = ("float16", "float32", "float64", "int32", "int64")  # CollectiveReduceV2's T
MODES = ("eager", "grad", "dist")
_FLOAT_VALUES = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -1.5, 3.0, 7.25, -2.5, 100.0, np.nan, np.inf, -np.inf, 1e30, 0.2]
_SHAPES = [(), (0,), (1,), (3,), (4,), (2, 3), (3, 2), (2, 0), (1, 3), (2, 2), (2, 1, 3)]
_LITERALS = [2, -1, 0, 3, 0.5, 2.5, -3.0, True, 2 ** 40, 1e30]


@dataclass
class Program:
    seed: int
    index: int
    mode: str
    inputs: list[np.ndarray]
    inputs2: list[np.ndarray] = field(default_factory=list)
    steps: list[tuple[str, tuple, dict]] = field(default_factory=list)

    def source(self) -> str:
        """The program as Python over a `tf` module: the reproducer printed with a disagreement."""
        lines = ["import numpy as np", "import tensorflow as tf  # or: from simdist import tf",
                 f"# mode: {self.mode}"]
        for i, a in enumerate(self.inputs):
            lines.append(f"v{i} = tf.constant(np.array({a.tolist()!r}, np.{a.dtype.name}).reshape({a.shape}))")
        if self.mode == "dist":
            for i, a in enumerate(self.inputs2):
                lines.append(f"# replica 1: v{i} = np.array({a.tolist()!r}, np.{a.dtype.name}).reshape({a.shape})")
        n = len(self.inputs)
        for k, (name, args, kw) in enumerate(self.steps):
            call = _call_text(name, [_arg_text(a) for a in args], {key: _arg_text(v) for key, v in kw.items()})
            lines.append(f"v{n + k} = {call}")
        return "\n".join(lines)


def _arg_text(a: Any) -> str:
    tag = a[0]
    if tag == "v":
        return f"v{a[1]}" + ("" if a[2] is None else f"[{a[2]}]")
    if tag == "vl":
        return "[" + ", ".join(_arg_text(r) for r in a[1]) + "]"
    if tag == "dt":
        return f"tf.{a[1]}"
    return repr(a[1])


def _call_text(name: str, args: list[str], kw: dict[str, str]) -> str:
    if name.startswith("operator"):
        return f"{args[0]} {name[len('operator'):]} {args[1]}"
    if name == "all_reduce":
        return f"tf.distribute.get_replica_context().all_reduce({args[0]}, {args[1]})"
    parts = args + [f"{k}={v}" for k, v in kw.items()]
    return f"tf.{name}({', '.join(parts)})"


# ---------------------------------------------------------------- interpreter

def _resolve(tf: Any, vals: list[Any], a: Any) -> Any:
    tag = a[0]
    if tag == "v":
        v = vals[a[1]]
        return v if a[2] is None else v[a[2]]
    if tag == "vl":
        return [_resolve(tf, vals, r) for r in a[1]]
    if tag == "dt":
        return getattr(tf, a[1])
    return a[1]


def call_step(tf: Any, vals: list[Any], step: tuple[str, tuple, dict]) -> Any:
    name, args, kw = step
    a = [_resolve(tf, vals, x) for x in args]
    k = {key: _resolve(tf, vals, v) for key, v in kw.items()}
    if name == "all_reduce":
        return tf.distribute.get_replica_context().all_reduce(a[0], a[1])
    return BY_NAME[name].call(tf, *a, **k)


def normalise(x: Any) -> Any:
    """A comparable, backend-neutral form of a result."""
    if x is None:
        return None
    if type(x).__name__ == "IndexedSlices":
        return ("IndexedSlices", x.values.dtype.name, tuple(int(d) for d in x.dense_shape.numpy()))
    if isinstance(x, (list, tuple)):
        return ("list", tuple(normalise(v) for v in x))
    if hasattr(x, "numpy") and hasattr(x, "dtype"):
        arr = np.asarray(x.numpy())
        return ("T", x.dtype.name, tuple(arr.shape), arr)
    if isinstance(x, (bool, int, float, str)):
        return ("py", type(x).__name__, x)
    return ("other", type(x).__name__)


def _outcome(tf: Any, vals: list[Any], step: tuple[str, tuple, dict]) -> tuple[Any, Any]:
    try:
        out = call_step(tf, vals, step)
    except Exception as e:  # noqa: BLE001 - the error class is the result
        return None, ("err", type(e).__name__)
    return out, ("ok", normalise(out))


def _constant(tf: Any, arr: np.ndarray) -> Any:
    return tf.constant(arr, dtype=getattr(tf, arr.dtype.name))


def execute(tf: Any, prog: Program, strategy: Any = None) -> list[Any]:
    """The program's observable results on backend `tf`: one outcome per step, then the
    gradients ("grad") or the cross-replica results ("dist")."""
    if prog.mode == "dist":
        return _execute_dist(tf, prog, strategy)
    if prog.mode == "eager":
        vals: list[Any] = [_constant(tf, a) for a in prog.inputs]
        results = []
        for s in prog.steps:
            out, res = _outcome(tf, vals, s)
            vals.append(out)
            results.append(res)
        return results
    sources = [i for i, a in enumerate(prog.inputs) if a.dtype.name in FLOATS]
    vals = [tf.Variable(a) if i in sources else _constant(tf, a) for i, a in enumerate(prog.inputs)]
    results, targets = [], []
    with tf.GradientTape() as tape:
        for s in prog.steps:
            out, res = _outcome(tf, vals, s)
            vals.append(out)
            results.append(res)
            if res[0] == "ok" and hasattr(out, "dtype") and out.dtype.name in FLOATS:
                targets.append(out)
    try:
        grads = ("ok", normalise(tape.gradient(targets, [vals[i] for i in sources]))) if targets else ("none",)
    except Exception as e:  # noqa: BLE001
        grads = ("err", type(e).__name__)
    return results + [("grads", grads)]


def _execute_dist(tf: Any, prog: Program, strategy: Any) -> list[Any]:
    per_replica = [prog.inputs, prog.inputs2]
    dist = [strategy.experimental_distribute_values_from_function(
        lambda ctx, i=i: _constant(tf, per_replica[ctx.replica_id_in_sync_group][i])) for i in range(len(prog.inputs))]
    seen: dict[int, list[Any]] = {}

    def record(*xs: Any) -> tuple[Any, ...]:
        rid = int(tf.distribute.get_replica_context().replica_id_in_sync_group)
        vals = list(xs)
        res = []
        for s in prog.steps:
            out, r = _outcome(tf, vals, s)
            vals.append(out)
            res.append(r)
        seen[rid] = res
        # every step's tensor result (None for the others): one run gives both the per-replica
        # outcomes and the values the cross-replica calls below take
        return tuple(v if r[0] == "ok" and r[1][0] == "T" else None for v, r in zip(vals[len(xs):], res))

    outs_all = strategy.run(record, args=tuple(dist))
    both_ok = [k for k in range(len(prog.steps))
               if all(seen[r][k][0] == "ok" and seen[r][k][1][0] == "T" for r in (0, 1))]
    cross = []
    for k in both_ok[-4:]:
        v = outs_all[k]
        # TF 2.21's all-gather of an empty tensor kills the process (a segfault in the collective
        # kernel): an empty value is not gathered on either backend
        empty = any(0 in seen[r][k][1][2] for r in (0, 1))
        for what, fn in (("local", lambda v: strategy.experimental_local_results(v)),
                         ("sum", lambda v: strategy.reduce("SUM", v, axis=None)),
                         ("mean", lambda v: strategy.reduce("MEAN", v, axis=None)),
                         ("gather", lambda v: strategy.gather(v, axis=0))):
            if what == "gather" and empty:
                cross.append((what, ("skipped", "empty")))
                continue
            try:
                cross.append((what, ("ok", normalise(fn(v)))))
            except Exception as e:  # noqa: BLE001
                cross.append((what, ("err", type(e).__name__)))
    return [("replicas", tuple(seen[0][k] for k in range(len(prog.steps))),
             tuple(seen[1][k] for k in range(len(prog.steps))))] + cross


def make_strategy(tf: Any) -> Any:
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


# ---------------------------------------------------------------- generator

def _array(rng: np.random.Generator, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
    size = int(np.prod(shape)) if shape else 1
    if dtype in FLOATS:
        with np.errstate(over="ignore"):
            return np.array([_FLOAT_VALUES[i] for i in rng.integers(0, len(_FLOAT_VALUES), size)],
                            dtype).reshape(shape)
    if dtype == "bool":
        return (rng.random(size) < 0.5).reshape(shape)
    info = np.iinfo(dtype)
    pool = [0, 1, 2, 3, 7, info.max, info.min] + ([-1, -7, -3] if info.min < 0 else [255 if info.max >= 255 else 5])
    return np.array([pool[i] for i in rng.integers(0, len(pool), size)], dtype).reshape(shape)


def _dtype(rng: np.random.Generator) -> str:
    return str(rng.choice(["float32", "float32", "float64", "float16", "int32", "int32", "int64", "int8", "uint8",
                           "bool"]))


class _Pool:
    """Values later steps may use: (reference, dtype name, shape)."""

    def __init__(self) -> None:
        self.items: list[tuple[tuple, str, tuple[int, ...]]] = []

    def add(self, ref: tuple, t: Any) -> None:
        if hasattr(t, "dtype") and hasattr(t, "shape") and t.dtype.name in ALL:
            self.items.append((ref, t.dtype.name, tuple(int(d) for d in t.shape)))

    def pick(self, rng: np.random.Generator, dtypes: tuple[str, ...], min_rank: int = 0,
             shape: tuple[int, ...] | None = None) -> tuple[tuple, str, tuple[int, ...]] | None:
        ok = [it for it in self.items if it[1] in dtypes and len(it[2]) >= min_rank
              and (shape is None or it[2] == shape)]
        return ok[int(rng.integers(len(ok)))] if ok else None


def _axis(rng: np.random.Generator, rank: int, none_ok: bool = True) -> Any:
    r = rng.random()
    if none_ok and r < 0.3 or rank == 0:
        return None if none_ok else 0
    if r > 0.97:
        return rank + 1
    return int(rng.integers(-rank, rank))


def _broadcast_partner(rng: np.random.Generator, pool: _Pool, x: tuple, dtypes: tuple[str, ...]) -> Any:
    r = rng.random()
    if r < 0.45:
        y = pool.pick(rng, (x[1],), shape=x[2])
    elif r < 0.6:
        y = pool.pick(rng, (x[1],), shape=())
    elif r < 0.72 and x[2]:
        y = pool.pick(rng, (x[1],), shape=x[2][-1:])
    elif r < 0.9:
        return ("l", _LITERALS[int(rng.integers(len(_LITERALS)))])
    else:
        y = pool.pick(rng, ALL)
    return ("v",) + y[0] if y else ("l", 2)


def _ref(item: tuple) -> tuple:
    return ("v",) + item[0]


def build(op: Op, rng: np.random.Generator, pool: _Pool) -> tuple[tuple, dict] | None:
    """Arguments for one call of `op`, mostly valid, sometimes not (error paths)."""
    dtypes = op.dtypes if rng.random() > 0.05 else ALL
    x = pool.pick(rng, dtypes)
    if x is None:
        return None
    rank, shape = len(x[2]), x[2]
    n = op.name
    if op.sig == "u":
        return (_ref(x),), {}
    if op.sig == "b":
        y = _broadcast_partner(rng, pool, x, dtypes)
        return ((y, _ref(x)) if y[0] == "l" and n.startswith("operator") and rng.random() < 0.3 else (_ref(x), y)), {}
    if op.sig == "r":
        if n in ("cumsum", "math.cumprod", "math.cumulative_logsumexp"):
            return (_ref(x),), {"axis": ("l", _axis(rng, rank, none_ok=False)),
                                "exclusive": ("l", bool(rng.random() < 0.5)), "reverse": ("l", bool(rng.random() < 0.5))}
        if n in ("argmax", "argmin"):
            return (_ref(x),), {"axis": ("l", _axis(rng, rank, none_ok=False))}
        return (_ref(x),), {"axis": ("l", _axis(rng, rank)), "keepdims": ("l", bool(rng.random() < 0.3))}
    size = int(np.prod(shape)) if shape else 1
    if n == "reshape":
        choices = [[-1], [size], [1, size], list(reversed(shape)), [size, 1, -1], [size + 1]]
        return (_ref(x), ("l", choices[int(rng.integers(len(choices)))])), {}
    if n == "transpose":
        return (_ref(x),), ({"perm": ("l", [int(p) for p in rng.permutation(rank)])} if rng.random() < 0.6 else {})
    if n == "expand_dims":
        return (_ref(x), ("l", int(rng.integers(-rank - 1, rank + 2)))), {}
    if n == "squeeze":
        ones = [i for i, d in enumerate(shape) if d == 1]
        ax = [ones[0]] if ones and rng.random() < 0.6 else ([int(rng.integers(rank))] if rank and rng.random() < 0.3 else None)
        return (_ref(x),), ({"axis": ("l", ax)} if ax is not None else {})
    if n in ("concat", "stack", "add_n"):
        same = [it for it in pool.items if it[1] == x[1] and it[2] == shape]
        parts = [same[int(i)] for i in rng.integers(len(same), size=int(rng.integers(1, 4)))]
        if rng.random() < 0.1:
            parts.append(pool.pick(rng, ALL))
        refs = ("vl", [_ref(p) for p in parts])
        if n == "add_n":
            return (refs,), {}
        ax = _axis(rng, rank + (n == "stack"), none_ok=False)
        return (refs,), {"axis": ("l", ax)}
    if n == "tile":
        return (_ref(x), ("l", [int(m) for m in rng.integers(0, 3, rank)])), {}
    if n == "reverse":
        return (_ref(x), ("l", [_axis(rng, rank, none_ok=False)] if rank else [])), {}
    if n == "slice":
        begin = [int(rng.integers(0, d + 1)) for d in shape]
        sizes = [int(rng.integers(-1, d - b + 1)) for d, b in zip(shape, begin)]
        return (_ref(x), ("l", begin), ("l", sizes)), {}
    if n == "gather":
        if not rank:
            return None
        ax = int(rng.integers(-rank, rank))
        d = shape[ax]
        idx = [int(i) for i in rng.integers(0, max(d, 1) + (rng.random() < 0.05), int(rng.integers(0, 4)))]
        return (_ref(x), ("l", idx)), {"axis": ("l", ax)}
    if n == "where":
        c = pool.pick(rng, ("bool",), shape=shape) or pool.pick(rng, ("bool",), shape=())
        if c is None:
            return None
        if rng.random() < 0.2:
            return (_ref(c),), {}
        return (_ref(c), _ref(x), _broadcast_partner(rng, pool, x, dtypes)), {}
    if n == "pad":
        pads = [[int(a), int(b)] for a, b in rng.integers(0, 3, (rank, 2))]
        return (_ref(x), ("l", pads)), ({"constant_values": ("l", 1)} if rng.random() < 0.3 else {})
    if n == "split":
        if not rank:
            return None
        ax = int(rng.integers(-rank, rank))
        d = shape[ax]
        if rng.random() < 0.5:
            divs = [k for k in (1, 2, 3) if d % k == 0]
            return (_ref(x), ("l", int(rng.choice(divs)))), {"axis": ("l", ax)}
        cut = int(rng.integers(0, d + 1))
        return (_ref(x), ("l", [cut, -1] if rng.random() < 0.5 else [cut, d - cut])), {"axis": ("l", ax)}
    if n == "unstack":
        return (_ref(x),), {"axis": ("l", _axis(rng, rank, none_ok=False))}
    if n == "broadcast_to":
        target = [2] + list(shape) if rng.random() < 0.7 else [3] + [d + 1 for d in shape]
        return (_ref(x), ("l", target)), {}
    if n == "boolean_mask":
        if not rank:
            return None
        return (_ref(x), ("l", [bool(b) for b in rng.random(shape[0]) < 0.5])), {}
    if n == "cast":
        return (_ref(x), ("dt", _dtype(rng))), {}
    if n == "clip_by_value":
        lo = float(rng.choice([-1.0, 0.0, 0.5])) if x[1] in FLOATS else int(rng.choice([-1, 0, 1]))
        return (_ref(x), ("l", lo), ("l", lo + 2)), {}
    if n == "one_hot":
        kw: dict[str, Any] = {}
        if rng.random() < 0.3:
            kw = {"on_value": ("l", 5), "off_value": ("l", -1), "dtype": ("dt", str(rng.choice(["int32", "int64", "float32"])))}
        return (_ref(x), ("l", int(rng.integers(0, 5)))), kw
    if n in ("sort", "argsort"):
        if not rank:
            return None
        return (_ref(x),), {"direction": ("l", str(rng.choice(["ASCENDING", "DESCENDING"])))}
    if n == "math.top_k":
        if not rank:
            return None
        return (_ref(x), ("l", int(rng.integers(0, shape[-1] + 1)))), {"sorted": ("l", bool(rng.random() < 0.8))}
    if n == "matmul":
        if rank != 2:
            return None
        ta = bool(rng.random() < 0.5)
        return (_ref(x), _ref(x)), {"transpose_a": ("l", ta), "transpose_b": ("l", not ta)}
    if n == "einsum":
        if rank != 2:
            return None
        eq = str(rng.choice(["ij->ji", "ij->", "ij,ij->i", "ij,kj->ik", "ij->j"]))
        return (("l", eq), _ref(x)) + ((_ref(x),) if "," in eq else ()), {}
    if n == "nn.leaky_relu":
        return (_ref(x),), {"alpha": ("l", float(rng.choice([0.2, 0.1, 0.01, 1.5])))}
    if n == "nn.bias_add":
        if not rank:
            return None
        b = pool.pick(rng, (x[1],), shape=shape[-1:])
        return (_ref(x), _ref(b) if b else ("l", [1] * shape[-1])), {}
    if n.startswith("math.segment_") or n.startswith("math.unsorted_segment_"):
        if not rank:
            return None
        ids = sorted(int(i) for i in rng.integers(0, 3, shape[0]))
        if n.startswith("math.unsorted"):
            ids = [int(i) for i in rng.permutation(ids)]
            return (_ref(x), ("l", ids), ("l", 3)), {}
        if rng.random() < 0.05:
            ids = ids[::-1]
        return (_ref(x), ("l", ids)), {}
    if n in ("unique", "unique_with_counts"):
        if rank != 1:
            return None
        return (_ref(x),), ({"out_idx": ("dt", "int64")} if rng.random() < 0.3 else {})
    if n == "math.bincount":
        kw = {"maxlength": ("l", int(rng.choice([1, 4, 8])))}   # bounded: the pool holds INT_MAX
        if rng.random() < 0.4:
            kw["minlength"] = ("l", int(rng.choice([0, 3, 6])))
        if rank == 2 and rng.random() < 0.5:
            kw["axis"] = ("l", -1)
        if rng.random() < 0.2:
            kw["binary_output"] = ("l", True)
        return (_ref(x),), kw
    if n == "math.in_top_k":
        if rank != 2:
            return None
        targets = [int(t) for t in rng.integers(-1, shape[1] + 1, shape[0])]
        return (("l", targets), _ref(x), ("l", int(rng.integers(0, 4)))), {}
    if n == "linalg.diag_part":
        if rank < 2:
            return None
        ks = [0, 1, -1, [-1, 1], [0, 1]]
        kw = {"k": ("l", ks[int(rng.integers(len(ks)))])}
        if rng.random() < 0.3 and x[1] != "bool":
            kw["padding_value"] = ("l", 9)
        return (_ref(x),), kw
    if n == "linalg.diag":
        if rank < 1 or rank > 2:
            return None
        return (_ref(x),), ({"k": ("l", int(rng.choice([1, -1, 2])))} if rng.random() < 0.4 else {})
    if n == "dtypes.saturate_cast":
        return (_ref(x), ("dt", _dtype(rng))), {}
    raise AssertionError(f"no argument builder for {n}")


def _has_subnormal(out: Any) -> bool:
    parts = out if isinstance(out, (list, tuple)) else [out]
    for p in parts:
        if hasattr(p, "dtype") and p.dtype.name in FLOATS:
            a = np.abs(np.asarray(p.numpy(), np.float64))
            if np.any((a > 0) & (a < np.finfo(p.dtype.name).tiny)):
                return True
    return False


def generate(seed: int, index: int, mode: str | None = None, max_steps: int = 150) -> Program:
    """Program `index` of the stream `seed`: drawn from its own SeedSequence, so programs are
    independent of each other and of how many were drawn before."""
    from simdist import tf
    rng = np.random.default_rng(np.random.SeedSequence([seed, index]))
    mode = mode or str(rng.choice(MODES, p=[0.5, 0.3, 0.2]))
    prog = Program(seed, index, mode, [])
    for _ in range(int(rng.integers(3, 7))):
        dt, shape = _dtype(rng), _SHAPES[int(rng.integers(len(_SHAPES)))]
        prog.inputs.append(_array(rng, dt, shape))
        if mode == "dist":
            prog.inputs2.append(_array(rng, dt, shape))
    vals: list[Any] = [_constant(tf, a) for a in prog.inputs]
    # dist: replica 1's values too, so that a step giving replica 1 subnormals is dropped as well
    vals2: list[Any] | None = [_constant(tf, a) for a in prog.inputs2] if mode == "dist" else None
    pool = _Pool()
    for i, v in enumerate(vals):
        pool.add((i, None), v)
    if mode == "dist":
        for i, a in enumerate(prog.inputs):
            if a.dtype.name in _COLLECTIVE_DTYPES and a.size and rng.random() < 0.5:  # TF segfaults on empty ones
                prog.steps.append(("all_reduce", (("l", str(rng.choice(["SUM", "MEAN"]))), ("v", i, None)), {}))
                vals.append(None)
                vals2.append(None)
    target = int(rng.integers(20, max_steps + 1))
    attempts = 0
    while len(prog.steps) < target and attempts < 4 * target:
        attempts += 1
        op = OPS[int(rng.integers(len(OPS)))]
        built = build(op, rng, pool)
        if built is None:
            continue
        step = (op.name, built[0], built[1])
        out, res = _outcome(tf, vals, step)
        if res[0] == "ok" and _has_subnormal(out):
            continue
        if vals2 is not None:
            out2, res2 = _outcome(tf, vals2, step)
            if res2[0] == "ok" and _has_subnormal(out2):
                continue
            vals2.append(out2)
        prog.steps.append(step)
        vals.append(out)
        if res[0] == "ok" and op.exact:
            slot = len(vals) - 1
            if isinstance(out, (list, tuple)):
                for j, o in enumerate(out):
                    pool.add((slot, j), o)
            else:
                pool.add((slot, None), out)
    return prog
