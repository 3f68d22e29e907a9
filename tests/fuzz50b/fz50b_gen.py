"""A throwaway differential generator of the public API, round eight (fz50b): COMPOSED programs. Where fz45-49b draw
one family's call at a time on earlier values, this one writes a person's model code: one to three chains, each of
a dtype of its own (float16, bfloat16, float32, float64, with casts between), 20-60 calls in all, each call's output
feeding the next (x -> matmul / tensordot / einsum / `@` -> bias_add -> activation -> reduce -> reshape -> concat with
another branch -> loss), the branches meeting by broadcasting across ranks, by concat or by tf.where. Drawn between
the layers: Python and NumPy scalars as operands of the operator overloads (+ - * / // % ** @, unary -, abs,
comparisons, & | ^ ~ on bools and ints), tf.Variable operands (assign / assign_add / assign_sub inside the chain and
the variable read after the write; MEAN / SUM / ONLY_FIRST_REPLICA aggregations under the strategy), tf.cond and
tf.while_loop around sub-chains, tf.where, clip_by_value / clip_by_norm / clip_by_global_norm, tf.stop_gradient
(straight-through), tf.math.* at NaN, +-inf, -0.0, subnormals, large and tiny magnitudes, keras.ops calls on tf
tensors (tf.keras.ops, as Keras users write), tf.nn activations and losses (softmax / sigmoid cross-entropy, l2_loss,
log_softmax, moments, batch_normalization, dropout with a seed and stateless), and the shape ops between them
(reshape with -1, transpose, squeeze, expand_dims, tile, gather, boolean_mask, strided and negative slicing). Each
program runs in fz45_gen's four modes (eager statements, tf.function, GradientTape of the loss with respect to every
float input and variable, MirroredStrategy(2 CPUs).run with reduce and gather) on TF 2.21 and on simdist.

    python tests/fuzz50b/fz50b_gen.py SEED N [--show 40] [--print]

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
CHAIN_DT = ["float32", "float32", "float32", "float64", "float16", "bfloat16"]
NP_OK = {"float16": "float16", "float32": "float32", "float64": "float64"}


class P(Prog):
    """A program with chains: heads[i] is chain i's current value."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.heads: list[V] = []
        self.nvar = 0

    def lit(self, shape: tuple, dt: str, lo: float = -1.0, hi: float = 1.0) -> V:
        """Ordinary weights in [lo, hi] (k/16 steps, now and then three decimals)."""
        r = self.rng
        vals = []
        for _ in range(math.prod(shape)):
            x = r.uniform(lo, hi)
            vals.append(repr(round(x * 16) / 16) if r.random() < 0.7 else repr(round(x, 3)))
        v = self.new_input(shape, "float32", edge=False)
        v.dtype = dt
        np_dt = {"bfloat16": "float32"}.get(dt, dt)
        text = f"np.array([{', '.join(vals)}], np.{np_dt}).reshape({list(shape)})"
        self.inputs[-1] = (v, f"tf.cast({text}, tf.bfloat16)" if dt == "bfloat16" else f"tf.constant({text})")
        return v

    def variable(self, shape: tuple, dt: str) -> V:
        """A tf.Variable input (created in every mode; under strategy.scope a mirrored one of an aggregation)."""
        r = self.rng
        v = self.lit(shape, dt)
        agg = r.choice(["", "", ", aggregation=tf.VariableAggregation.MEAN", ", aggregation=tf.VariableAggregation.SUM",
                        ", aggregation=tf.VariableAggregation.ONLY_FIRST_REPLICA"])
        tr = r.choice(["", "", ", trainable=False"])
        v.dtype = "var:" + dt
        self.inputs[-1] = (v, f"tf.Variable({self.inputs[-1][1]}{agg}{tr})")
        return v

    def put(self, c: int, expr: str, shape: tuple, dt: str) -> V:
        v = self.emit(expr, [(tuple(shape), dt)])[0]
        self.heads[c] = v
        return v


def _scalar(p: P, dt: str, pos: bool = False) -> str:
    """A Python or NumPy scalar operand for a value of dtype dt."""
    r = p.rng
    x = r.choice(["2.0", "0.5", "1.5", "3.0", "0.1", "1e-3", "4.0"] + ([] if pos else ["-1.5", "-0.25", "0.0"]))
    u = r.random()
    if u < 0.25 and dt in NP_OK:
        return f"np.{NP_OK[dt]}({x})"
    if u < 0.3:
        return f"np.float64({x})" if dt == "float64" else x
    if u < 0.4:
        return str(int(float(x))) if float(x) == int(float(x)) else x
    return x


def _other(p: P, c: int) -> V | None:
    cs = [h for i, h in enumerate(p.heads) if i != c]
    return p.rng.choice(cs) if cs else None


def _cast(x: V, dt: str) -> str:
    return x.name if x.dtype == dt else f"tf.cast({x.name}, tf.{dt})"


# --- the layers: each takes chain c's head x and makes a new head (or returns False)
def l_dense(p: P, c: int, x: V) -> bool:
    r = p.rng
    if not x.known or x.rank == 0 or x.shape[-1] in (0, None) or x.size > 60:
        return False
    d, m = x.shape[-1], r.choice([1, 2, 3, 4])
    w = p.lit((d, m), x.dtype) if r.random() < 0.75 else p.variable((d, m), x.dtype)
    out = x.shape[:-1] + (m,)
    u = r.random()
    if x.rank == 1:
        h = p.put(c, f"tf.linalg.matvec({w.name}, {x.name}, transpose_a=True)" if u < 0.5 else
                  f"tf.squeeze(tf.matmul(tf.expand_dims({x.name}, 0), {w.name}), 0)", out, x.dtype)
    elif u < 0.35:
        h = p.put(c, f"tf.matmul({x.name}, {w.name})" if x.rank == 2 else f"{x.name} @ {w.name}", out, x.dtype)
    elif u < 0.55:
        h = p.put(c, f"tf.tensordot({x.name}, {w.name}, axes=1)", out, x.dtype)
    elif u < 0.7:
        h = p.put(c, f"tf.einsum('...i,ij->...j', {x.name}, {w.name})", out, x.dtype)
    elif u < 0.85:
        h = p.put(c, f"tf.keras.ops.matmul({x.name}, {w.name})", out, x.dtype)
    else:
        h = p.put(c, f"{x.name} @ {w.name}", out, x.dtype)
    if r.random() < 0.7:
        b = p.lit((m,), x.dtype, -0.5, 0.5)
        f = r.choice([f"tf.nn.bias_add({h.name}, {b.name})", f"{h.name} + {b.name}",
                      f"tf.keras.ops.add({h.name}, {b.name})"])
        p.put(c, f, out, x.dtype)
    return True


ACT = ["tf.nn.relu", "tf.nn.gelu", "tf.nn.tanh", "tf.nn.sigmoid", "tf.nn.softplus", "tf.nn.elu", "tf.nn.selu",
       "tf.nn.silu", "tf.nn.relu6", "tf.nn.softsign", "tf.math.log_sigmoid", "tf.nn.leaky_relu",
       "tf.keras.ops.relu", "tf.keras.ops.gelu", "tf.keras.ops.silu", "tf.keras.ops.sigmoid", "tf.keras.ops.tanh",
       "tf.keras.ops.softplus", "tf.keras.ops.elu", "tf.keras.ops.selu", "tf.keras.ops.hard_sigmoid",
       "tf.keras.ops.hard_silu", "tf.keras.ops.leaky_relu", "tf.keras.ops.relu6", "tf.keras.ops.log_sigmoid",
       "tf.keras.ops.softsign", "tf.keras.ops.mish", "tf.keras.ops.celu", "tf.keras.ops.glu",
       "tf.keras.ops.squareplus", "tf.keras.ops.sparse_plus", "tf.keras.ops.soft_shrink", "tf.keras.ops.hard_tanh",
       "tf.keras.activations.gelu", "tf.keras.activations.swish"]


def l_act(p: P, c: int, x: V) -> bool:
    r = p.rng
    f = r.choice(ACT)
    arg = ""
    if f.endswith("gelu") and r.random() < 0.5:
        arg = ", approximate=True" if "keras" in f else ", approximate=True"
    if f.endswith("glu") and not f.endswith("gelu"):
        if x.rank == 0 or x.shape[-1] is None or x.shape[-1] % 2:
            return False
        p.put(c, f"{f}({x.name})", x.shape[:-1] + (x.shape[-1] // 2,), x.dtype)
        return True
    if f.endswith("leaky_relu") and r.random() < 0.5:
        arg = ", alpha=0.2" if f.startswith("tf.nn") else ", negative_slope=0.3"
    p.put(c, f"{f}({x.name}{arg})", x.shape, x.dtype)
    return True


def l_softmax(p: P, c: int, x: V) -> bool:
    r = p.rng
    if x.rank == 0:
        return False
    ax = r.choice([-1, x.rank - 1, 0])
    f = r.choice(["tf.nn.softmax", "tf.nn.log_softmax", "tf.keras.ops.softmax", "tf.keras.ops.log_softmax",
                  "tf.math.softmax"])
    a = f", axis={ax}" if r.random() < 0.6 else ""
    p.put(c, f"{f}({x.name}{a})", x.shape, x.dtype)
    return True


def _reduced(x: V, axes: list[int] | None, keep: bool) -> tuple:
    if axes is None:
        return tuple(1 for _ in x.shape) if keep else ()
    return tuple((1 if keep else None) if i in axes else d for i, d in enumerate(x.shape) if keep or i not in axes)


def l_reduce(p: P, c: int, x: V) -> bool:
    r = p.rng
    if x.rank == 0:
        return False
    keep = r.random() < 0.4
    if r.random() < 0.3:
        axes = None
        axs = "None"
    else:
        axes = sorted(r.sample(range(x.rank), r.randint(1, x.rank)))
        axs = str([a - x.rank if r.random() < 0.4 else a for a in axes]) if len(axes) > 1 or r.random() < 0.5 \
            else str(axes[0] - x.rank if r.random() < 0.4 else axes[0])
    shape = _reduced(x, axes, keep)
    u = r.random()
    if u < 0.65:
        f = "tf.math." + r.choice(["reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_logsumexp",
                                   "reduce_std", "reduce_variance", "reduce_euclidean_norm", "reduce_prod"])
        p.put(c, f"{f}({x.name}, axis={axs}, keepdims={keep})", shape, x.dtype)
    else:
        f = "tf.keras.ops." + r.choice(["sum", "mean", "max", "min", "logsumexp", "std", "var", "prod"])
        k = "keepdims" if not f.endswith("logsumexp") else "keepdims"
        p.put(c, f"{f}({x.name}, axis={axs if axs != 'None' else 'None'}, {k}={keep})", shape, x.dtype)
    return True


def l_shape(p: P, c: int, x: V) -> bool:
    r = p.rng
    if not x.known:
        return False
    u = r.random()
    if u < 0.3 and x.size > 0:
        dims = G._factor(r, x.size)
        if r.random() < 0.3:
            dims.insert(r.randrange(len(dims) + 1), 1)
        text = list(dims)
        if dims and r.random() < 0.6:
            text[r.randrange(len(dims))] = -1
        f = r.choice(["tf.reshape", "tf.reshape", "tf.keras.ops.reshape"])
        p.put(c, f"{f}({x.name}, {text})", tuple(dims), x.dtype)
    elif u < 0.45 and x.rank >= 2:
        perm = list(range(x.rank))
        r.shuffle(perm)
        f = r.choice(["tf.transpose({n}, perm={p})", "tf.keras.ops.transpose({n}, {p})"])
        p.put(c, f.format(n=x.name, p=perm), tuple(x.shape[i] for i in perm), x.dtype)
    elif u < 0.6:
        ones = [i for i, d in enumerate(x.shape) if d == 1]
        if ones and r.random() < 0.6:
            i = r.choice(ones)
            f = r.choice([f"tf.squeeze({x.name}, axis={i - x.rank})", f"tf.squeeze({x.name})",
                          f"tf.keras.ops.squeeze({x.name}, axis={i})"])
            shape = tuple(d for d in x.shape if d != 1) if "axis" not in f else x.shape[:i] + x.shape[i + 1:]
            p.put(c, f, shape, x.dtype)
        else:
            i = r.randint(-x.rank - 1, x.rank)
            j = i if i >= 0 else x.rank + 1 + i
            f = r.choice(["tf.expand_dims", "tf.keras.ops.expand_dims"])
            p.put(c, f"{f}({x.name}, {i})", x.shape[:j] + (1,) + x.shape[j:], x.dtype)
    elif u < 0.7 and x.rank >= 1 and x.size <= 24:
        m = [r.choice([1, 2, 3]) for _ in x.shape]
        p.put(c, f"tf.tile({x.name}, {m})", tuple(d * k for d, k in zip(x.shape, m)), x.dtype)
    elif u < 0.85 and x.rank >= 1:
        # strided and negative slicing
        specs, shape = [], []
        for d in x.shape:
            k = r.random()
            if k < 0.3:
                specs.append(":")
                shape.append(d)
            elif k < 0.5:
                s = r.choice(["::2", "::-1", "1::2", "-2:", ":-1", "::-2", "-1:0:-1", "1:-1"])
                specs.append(s)
                a = [int(t) if t else None for t in s.split(":")]
                shape.append(len(range(d)[slice(*a)]))
            elif k < 0.6 and d > 0 and len(specs) < x.rank - 1:
                specs.append(str(r.randrange(-d, d)))
            elif k < 0.7:
                specs.append("None")
                specs.append(":")
                shape += [1, d]
            else:
                specs.append(":")
                shape.append(d)
        if r.random() < 0.2:
            specs = ["..."] + specs[1:] if specs[0] == ":" else specs
        p.put(c, f"{x.name}[{', '.join(specs)}]", tuple(shape), x.dtype)
    elif x.rank >= 1 and x.shape[0]:
        # gather along an axis
        ax = r.randrange(x.rank)
        d = x.shape[ax]
        if d == 0:
            return False
        n = r.randint(1, 4)
        idx = [r.randrange(-d if r.random() < 0.1 else 0, d) for _ in range(n)]
        if r.random() < 0.6:
            p.put(c, f"tf.gather({x.name}, {idx}, axis={ax})", x.shape[:ax] + (n,) + x.shape[ax + 1:], x.dtype)
        else:
            p.put(c, f"tf.keras.ops.take({x.name}, {idx}, axis={ax})", x.shape[:ax] + (n,) + x.shape[ax + 1:],
                  x.dtype)
    else:
        return False
    return True


def l_mask(p: P, c: int, x: V) -> bool:
    r = p.rng
    if x.rank == 0 or not x.known:
        return False
    thr = _scalar(p, x.dtype)
    if r.random() < 0.5:
        p.put(c, f"tf.boolean_mask({x.name}, {x.name} > {thr})", (None,), x.dtype)
    else:
        m = [r.random() < 0.6 for _ in range(x.shape[0])]
        p.put(c, f"tf.boolean_mask({x.name}, {m})", (None,) + x.shape[1:], x.dtype)
    return True


OPS = ["+", "-", "*", "/", "//", "%", "**"]


def l_scalar_op(p: P, c: int, x: V) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.15:
        p.put(c, r.choice([f"-{x.name}", f"abs({x.name})", f"+{x.name}" if False else f"-(-{x.name})"]), x.shape,
              x.dtype)
        return True
    op = r.choice(OPS)
    s = _scalar(p, x.dtype, pos=op in ("**", "//", "%", "/"))
    if op == "**":
        s = r.choice(["2", "2.0", "0.5", "3", "-1.0", "np.float32(2.0)" if x.dtype == "float32" else "2"])
    e = f"{x.name} {op} {s}" if r.random() < 0.65 else f"{s} {op} {x.name}"
    p.put(c, e, x.shape, x.dtype)
    return True


def l_combine(p: P, c: int, x: V) -> bool:
    """Meet another chain: broadcasting arithmetic across ranks, concat, tf.where, or a reduced partner."""
    r = p.rng
    y = _other(p, c)
    if y is None:
        # a second branch from this chain itself
        p.heads.append(x)
        return l_act(p, len(p.heads) - 1, x)
    ys = _cast(y, x.dtype)
    b = G._bcast(x.shape, y.shape) if x.known and y.known else None
    u = r.random()
    if b is not None and u < 0.5:
        op = r.choice(["+", "-", "*", "tf.maximum", "tf.keras.ops.add", "tf.math.squared_difference",
                       "tf.math.divide_no_nan", "/"])
        e = f"{op}({x.name}, {ys})" if op[0].isalpha() else f"{x.name} {op} {ys}"
        p.put(c, e, b, x.dtype)
        return True
    if x.known and y.known and x.rank == y.rank and x.rank >= 1 and u < 0.75:
        ax = [i for i in range(x.rank) if all(x.shape[j] == y.shape[j] for j in range(x.rank) if j != i)]
        if ax:
            a = r.choice(ax)
            f = r.choice(["tf.concat", "tf.concat", "tf.keras.ops.concatenate"])
            p.put(c, f"{f}([{x.name}, {ys}], axis={a - x.rank if r.random() < 0.4 else a})",
                  x.shape[:a] + (x.shape[a] + y.shape[a],) + x.shape[a + 1:], x.dtype)
            return True
    if b is not None:
        m = f"{x.name} > {ys}" if r.random() < 0.5 else f"tf.math.is_finite({x.name})"
        p.put(c, f"tf.where({m}, {x.name}, {ys})", b, x.dtype)
        return True
    # reduce the partner to a scalar and broadcast it
    red = r.choice(["reduce_mean", "reduce_sum", "reduce_max"])
    p.put(c, f"{x.name} * tf.cast(tf.math.{red}({y.name}), tf.{x.dtype})", x.shape, x.dtype)
    return True


def l_logic(p: P, c: int, x: V) -> bool:
    """Comparisons, & | ^ ~ on the masks (and on ints), back to floats by where or cast."""
    r = p.rng
    if not x.known:
        return False
    a, b = _scalar(p, x.dtype), _scalar(p, x.dtype)
    cmp1, cmp2 = r.choice(["<", "<=", ">", ">="]), r.choice(["<", "<=", ">", ">=", "=="])
    m1 = p.emit(f"{x.name} {cmp1} {a}", [(x.shape, "bool")])[0]
    m2 = p.emit(f"tf.math.equal({x.name}, {b})" if cmp2 == "==" else f"{b} {cmp2} {x.name}", [(x.shape, "bool")])[0]
    u = r.random()
    if u < 0.6:
        e = r.choice([f"{m1.name} & {m2.name}", f"{m1.name} | {m2.name}", f"{m1.name} ^ {m2.name}", f"~{m1.name}",
                      f"~({m1.name} | {m2.name})", f"tf.logical_xor({m1.name}, ~{m2.name})"])
        m = p.emit(e, [(x.shape, "bool")])[0]
        if r.random() < 0.5:
            p.put(c, f"tf.where({m.name}, {x.name}, {_scalar(p, x.dtype)})", x.shape, x.dtype)
        else:
            p.put(c, f"{x.name} * tf.cast({m.name}, {x.name}.dtype)", x.shape, x.dtype)
    else:
        it = r.choice(["int32", "int64", "int32", "uint8", "int16"])
        i = p.emit(f"tf.cast({m1.name}, tf.{it}) + tf.cast({m2.name}, tf.{it}) * 2", [(x.shape, it)])[0]
        e = r.choice([f"{i.name} & 1", f"{i.name} | 4", f"{i.name} ^ 3", f"~{i.name}", f"{i.name} // 2",
                      f"{i.name} % 3", f"-{i.name}", f"{i.name} ** 2", f"tf.bitwise.left_shift({i.name}, 1)",
                      f"tf.bitwise.right_shift({i.name}, 1)", f"abs({i.name})"])
        j = p.emit(e, [(x.shape, it)])[0]
        p.put(c, f"{x.name} + tf.cast({j.name}, {x.name}.dtype)", x.shape, x.dtype)
    return True


def l_cast(p: P, c: int, x: V) -> bool:
    r = p.rng
    dt = r.choice([d for d in ("float16", "bfloat16", "float32", "float64") if d != x.dtype])
    if r.random() < 0.2:
        it = r.choice(["int32", "int64", "int8"])
        i = p.emit(f"tf.cast({x.name}, tf.{it})", [(x.shape, it)])[0]
        p.put(c, f"tf.cast({i.name}, tf.{dt})", x.shape, dt)
        return True
    f = r.choice([f"tf.cast({x.name}, tf.{dt})", f"tf.cast({x.name}, '{dt}')", f"tf.keras.ops.cast({x.name}, '{dt}')",
                  f"tf.saturate_cast({x.name}, tf.{dt})"])
    p.put(c, f, x.shape, dt)
    return True


def l_variable(p: P, c: int, x: V) -> bool:
    """A variable in the chain: written from the head, read after the write."""
    r = p.rng
    if not x.known or x.size > 40:
        return False
    v = p.variable(x.shape, x.dtype)
    how = r.choice(["assign", "assign_add", "assign_sub"])
    w = p.emit(f"{v.name}.{how}({x.name})", [(x.shape, x.dtype)])[0]
    u = r.random()
    if u < 0.3:
        p.put(c, f"{v.name} * {_scalar(p, x.dtype)}", x.shape, x.dtype)
    elif u < 0.55:
        p.put(c, f"{v.name}.read_value() + {x.name}", x.shape, x.dtype)
    elif u < 0.75:
        p.put(c, f"tf.identity({v.name})", x.shape, x.dtype)
    else:
        p.put(c, f"{w.name} - {x.name}", x.shape, x.dtype)
    return True


def _sub(p: P, n: str, dt: str) -> str:
    """A short element-wise sub-chain of n (dtype and shape kept)."""
    r = p.rng
    return r.choice([f"tf.nn.relu({n}) * {_scalar(p, dt)}", f"tf.tanh({n}) + {_scalar(p, dt)}", f"{n} * {n}",
                     f"tf.nn.sigmoid({n} - {_scalar(p, dt)})", f"-{n}", f"tf.math.abs({n}) ** 0.5",
                     f"tf.clip_by_value({n}, -1.0, 1.0)", f"tf.keras.ops.softplus({n})", f"{n} / 2.0"])


def l_control(p: P, c: int, x: V) -> bool:
    r = p.rng
    if not x.known:
        return False
    u = r.random()
    if u < 0.45:
        pred = r.choice([f"tf.reduce_sum({x.name}) > 0", f"tf.reduce_mean({x.name}) < 0.5",
                         f"tf.reduce_all(tf.math.is_finite({x.name}))", f"tf.size({x.name}) > 3"])
        p.put(c, f"tf.cond({pred}, lambda: {_sub(p, x.name, x.dtype)}, lambda: {_sub(p, x.name, x.dtype)})",
              x.shape, x.dtype)
    elif u < 0.8:
        n = r.randint(0, 3)
        mi = r.choice(["", ", maximum_iterations=2"])
        body = _sub(p, "a", x.dtype).replace("a", "a")
        p.put(c, f"tf.while_loop(lambda i, a: i < {n}, lambda i, a: (i + 1, {body}), (tf.constant(0), {x.name}){mi})[1]",
              x.shape, x.dtype)
    else:
        y = _other(p, c)
        ys = _cast(y, x.dtype) if y is not None and y.known and G._bcast(x.shape, y.shape) == x.shape else \
            _scalar(p, x.dtype)
        p.put(c, f"tf.where({x.name} > 0, {_sub(p, x.name, x.dtype)}, {ys} * {_scalar(p, x.dtype)})", x.shape,
              x.dtype)
    return True


def l_clip(p: P, c: int, x: V) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.35:
        lo, hi = r.choice([("-1.0", "1.0"), ("0.0", "6.0"), ("-0.5", "0.25"), ("0", "1")])
        f = r.choice(["tf.clip_by_value({n}, {a}, {b})", "tf.keras.ops.clip({n}, {a}, {b})"])
        p.put(c, f.format(n=x.name, a=lo, b=hi), x.shape, x.dtype)
    elif u < 0.65:
        ax = "" if x.rank == 0 or r.random() < 0.5 else f", axes=[{r.randrange(x.rank)}]"
        p.put(c, f"tf.clip_by_norm({x.name}, {r.choice(['1.0', '0.5', '2.0', '1e-3'])}{ax})", x.shape, x.dtype)
    else:
        y = _other(p, c) or x
        ys = [x] + ([y] if y.dtype == x.dtype or r.random() < 0.7 else [])
        t = p.emit(f"tf.clip_by_global_norm([{', '.join(v.name for v in ys)}], {r.choice(['1.0', '5.0', '0.1'])})",
                   [((), "list"), ((), "float32")])
        p.put(c, f"{t[0].name}[0]", x.shape, x.dtype)
    return True


def l_stopgrad(p: P, c: int, x: V) -> bool:
    r = p.rng
    f = r.choice([f"{x.name} + tf.stop_gradient(tf.round({x.name}) - {x.name})",
                  f"tf.stop_gradient({x.name}) * {x.name}", f"tf.stop_gradient({x.name})",
                  f"tf.keras.ops.stop_gradient({x.name}) + {x.name}"])
    p.put(c, f, x.shape, x.dtype)
    return True


MATH = ["tf.math.log", "tf.math.sqrt", "tf.math.rsqrt", "tf.math.reciprocal", "tf.math.log1p", "tf.math.expm1",
        "tf.math.exp", "tf.math.square", "tf.math.sign", "tf.math.abs", "tf.math.softplus", "tf.math.reciprocal_no_nan",
        "tf.math.erf", "tf.math.atan", "tf.math.asinh", "tf.math.floor", "tf.math.round", "tf.math.sin",
        "tf.keras.ops.log", "tf.keras.ops.sqrt", "tf.keras.ops.exp", "tf.keras.ops.log1p", "tf.keras.ops.expm1",
        "tf.keras.ops.reciprocal", "tf.keras.ops.sign", "tf.keras.ops.square", "tf.keras.ops.abs", "tf.keras.ops.erf",
        "tf.keras.ops.nan_to_num", "tf.keras.ops.log2", "tf.keras.ops.log10", "tf.keras.ops.cbrt",
        "tf.keras.ops.rsqrt", "tf.keras.ops.round", "tf.keras.ops.trunc"]
MATH2 = ["tf.math.xlogy", "tf.math.xdivy", "tf.math.divide_no_nan", "tf.math.multiply_no_nan", "tf.math.pow",
         "tf.math.atan2", "tf.math.maximum", "tf.math.minimum", "tf.math.floormod", "tf.math.floordiv",
         "tf.keras.ops.power", "tf.keras.ops.arctan2", "tf.keras.ops.maximum", "tf.keras.ops.true_divide",
         "tf.keras.ops.mod", "tf.keras.ops.floor_divide", "tf.keras.ops.logaddexp", "tf.keras.ops.hypot",
         "tf.keras.ops.copysign", "tf.keras.ops.nextafter" if False else "tf.keras.ops.fmod"]
EDGE = ["float('nan')", "float('inf')", "-float('inf')", "-0.0", "1e-40", "-1e-45", "3e38", "65504.0", "1e-8",
        "0.0", "1e-300", "-1e300", "6e-8", "1e-20"]


def l_math(p: P, c: int, x: V) -> bool:
    r = p.rng
    if r.random() < 0.4 and x.known and x.rank >= 1 and x.size <= 30:
        # an edge-valued partner of x's shape
        vals = [r.choice(EDGE) if r.random() < 0.5 else repr(r.randint(-16, 16) / 8) for _ in range(x.size)]
        npd = {"bfloat16": "float32"}.get(x.dtype, x.dtype)
        e = p.new_input(x.shape, "float32", edge=False)
        e.dtype = x.dtype
        text = f"np.array([{', '.join(vals)}], np.{npd}).reshape({list(x.shape)})"
        p.inputs[-1] = (e, f"tf.cast({text}, tf.bfloat16)" if x.dtype == "bfloat16" else f"tf.constant({text})")
        f = r.choice(MATH2)
        a, b = (x.name, e.name) if r.random() < 0.6 else (e.name, x.name)
        p.put(c, f"{f}({a}, {b})", x.shape, x.dtype)
        return True
    if r.random() < 0.3:
        f = r.choice(MATH2)
        s = r.choice(EDGE[:6] + ["2.0", "0.5"])
        p.put(c, f"{f}({x.name}, {s})", x.shape, x.dtype)
        return True
    f = r.choice(MATH)
    p.put(c, f"{f}({x.name})", x.shape, x.dtype)
    return True


def l_nn(p: P, c: int, x: V) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.2 and x.rank >= 1 and x.known and x.shape[-1]:
        lab = p.emit(f"tf.nn.softmax(tf.cast({p.lit(x.shape, 'float32', -2, 2).name}, tf.{x.dtype}))",
                     [(x.shape, x.dtype)])[0]
        f = r.choice([f"tf.nn.softmax_cross_entropy_with_logits(labels={lab.name}, logits={x.name})",
                      f"tf.nn.softmax_cross_entropy_with_logits(labels={lab.name}, logits={x.name}, axis=0)",
                      f"tf.keras.ops.categorical_crossentropy({lab.name}, {x.name}, from_logits=True)",
                      f"tf.keras.losses.categorical_crossentropy({lab.name}, {x.name}, from_logits=True)"])
        if "axis=0" in f:
            shape = x.shape[1:]
        else:
            shape = x.shape[:-1]
        p.put(c, f, shape, x.dtype)
    elif u < 0.35:
        lab = p.lit(x.shape, x.dtype, 0.0, 1.0) if x.known else None
        if lab is None:
            return False
        f = r.choice([f"tf.nn.sigmoid_cross_entropy_with_logits(labels={lab.name}, logits={x.name})",
                      f"tf.keras.ops.binary_crossentropy({lab.name}, {x.name}, from_logits=True)",
                      f"tf.nn.weighted_cross_entropy_with_logits({lab.name}, {x.name}, 2.0)"])
        p.put(c, f, x.shape, x.dtype)
    elif u < 0.45:
        p.put(c, r.choice([f"tf.nn.l2_loss({x.name})", f"tf.nn.l2_loss({x.name}) * 0.5"]), (), x.dtype)
    elif u < 0.65 and x.rank >= 1 and x.known:
        axes = sorted(r.sample(range(x.rank), r.randint(1, x.rank)))
        keep = r.random() < 0.5
        if r.random() < 0.7:
            mv = p.emit(f"tf.nn.moments({x.name}, axes={axes}, keepdims=True)",
                        [(_reduced(x, axes, True), x.dtype), (_reduced(x, axes, True), x.dtype)])
        else:
            mv = p.emit(f"tf.keras.ops.moments({x.name}, axes={axes}, keepdims=True)",
                        [(_reduced(x, axes, True), x.dtype), (_reduced(x, axes, True), x.dtype)])
        off = r.choice(["None", "0.5"])
        sc = r.choice(["None", "2.0"])
        if r.random() < 0.7:
            p.put(c, f"tf.nn.batch_normalization({x.name}, {mv[0].name}, {mv[1].name}, {off}, {sc}, 1e-3)", x.shape,
                  x.dtype)
        else:
            p.put(c, f"({x.name} - {mv[0].name}) * tf.math.rsqrt({mv[1].name} + 1e-5)", x.shape, x.dtype)
        del keep
    elif u < 0.8 and x.known:
        rate = r.choice(["0.5", "0.25", "0.0"])
        f = r.choice([f"tf.nn.dropout({x.name}, rate={rate}, seed={r.randint(1, 99)})",
                      f"tf.nn.experimental.stateless_dropout({x.name}, rate={rate}, seed=[{r.randint(0, 9)}, "
                      f"{r.randint(0, 9)}])"])
        p.put(c, f, x.shape, x.dtype)
    elif x.known and x.rank >= 1:
        f = r.choice([f"tf.math.l2_normalize({x.name}, axis=-1)", f"tf.keras.ops.normalize({x.name})",
                      f"tf.nn.local_response_normalization(tf.reshape({x.name}, [1, 1, -1, 1]))"
                      if x.dtype in ("float32", "float16", "bfloat16") else f"tf.math.l2_normalize({x.name})",
                      f"tf.keras.ops.logsumexp({x.name}, axis=-1, keepdims=True) - {x.name}"])
        shape = (1, 1, x.size, 1) if "local_response" in f else x.shape
        p.put(c, f, shape, x.dtype)
    else:
        return False
    return True


LAYERS = [(l_dense, 10), (l_act, 8), (l_softmax, 3), (l_reduce, 5), (l_shape, 9), (l_mask, 1), (l_scalar_op, 8),
          (l_combine, 6), (l_logic, 3), (l_cast, 3), (l_variable, 3), (l_control, 4), (l_clip, 3), (l_stopgrad, 2),
          (l_math, 6), (l_nn, 5)]


def _source(p: P) -> V:
    r = p.rng
    dt = r.choice(CHAIN_DT)
    shape = r.choice([(2, 3), (3, 4), (2, 2, 3), (4,), (3, 2), (2, 3, 2), (1, 4), (5,), (2, 1, 3), ()])
    if r.random() < 0.25:
        v = p.new_input(shape, dt, edge=True)
    else:
        v = p.lit(shape, dt, -2.0, 2.0)
    return v


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed: 1-3 chains, 20-60 calls (steps > 12: up to steps)."""
    rng = random.Random(seed * 100003 + k)
    p = P(rng)
    for _ in range(rng.choice([1, 2, 2, 3])):
        p.heads.append(_source(p))
    fns, w = zip(*LAYERS)
    n = rng.randint(20, max(60, steps))
    tries = 0
    while len(p.lines) < n and tries < 400:
        tries += 1
        c = rng.randrange(len(p.heads))
        x = p.heads[c]
        if x.rank > 4 or (x.known and x.size > 200):   # (keep sizes a person's: squash)
            p.put(c, f"tf.reduce_mean({x.name}, axis=0)", x.shape[1:], x.dtype)
            continue
        if x.rank == 0 and rng.random() < 0.6:   # (a scalar head widened again: x * a vector)
            if rng.random() < 0.5:
                b = p.lit((rng.choice([2, 3, 4]),), x.dtype)
                p.put(c, f"{x.name} * {b.name}", b.shape, x.dtype)
            else:
                p.put(c, f"tf.broadcast_to({x.name}, [2, 3]) + 0.5", (2, 3), x.dtype)
            continue
        try:
            rng.choices(fns, w)[0](p, c, x)
        except (TypeError, ValueError, IndexError):
            pass
    parts = [h for h in p.heads if h.dtype in _FL]
    final = "loss = tf.math.add_n([" + ", ".join(f"tf.reduce_sum(tf.cast({v.name}, tf.float32))" for v in parts) + "])"
    last = [v for v in p.vals if v.dtype in _FL or v.dtype in G._INT or v.dtype == "bool"][-1]
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final, "last": last.name}


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
