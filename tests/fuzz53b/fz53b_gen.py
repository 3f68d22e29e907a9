"""A throwaway differential generator of the public API, round eleven (fz53b): AUTOMATIC DIFFERENTIATION AS PEOPLE
USE IT. Each program holds two to four gradient blocks over chains of fz45_gen's builders (broadcasting binaries,
reductions, reshapes, gathers, segment ops, sorts, matmuls, losses) mixed with ops at the points where gradients are
subtle (ties in max/min/reduce_max/top_k/sort, relu/abs/sign at 0, sqrt/log/pow at 0, divide_no_nan, where with NaN
in the unselected branch, clip_by_value at its bounds, norm at 0, empty segments, softmax of large inputs, matmul
transpose flags, einsum), on literals drawn from a small set (0, +-0.5, +-1, 2: ties and zeros are common). A block
is one of: tape.gradient (non-scalar, list and dict targets, output_gradients, UnconnectedGradients ZERO/NONE,
sources watched tensors / variables / nested structures, watch_accessed_variables=False, persistent tapes used twice,
stop_recording, reset); tape.jacobian / batch_jacobian (experimental_use_pfor True/False); nested tapes (second
derivatives, Hessian-vector products); tf.gradients / tf.hessians inside a tf.function (grad_ys, stop_gradients,
unconnected_gradients, aggregation_method); tf.autodiff.ForwardAccumulator (jvp, forward-over-backward);
tf.custom_gradient (with variables, returning None); tf.recompute_grad; gather / embedding_lookup of a variable
(IndexedSlices parts); tf.cond / tf.while_loop(maximum_iterations) / tf.map_fn / tf.scan in the tape;
tf.clip_by_global_norm of gradient lists with None; int/bool paths; casts to float16/bfloat16/float64 in the chain;
complex sources (TF's conjugate convention); one program in eight an invalid use (a non-persistent tape used twice,
tf.gradients eagerly, batch_jacobian of mismatched batch). Every gradient is an output, summed into the final loss,
so fz45_gen's tape and dist modes take second derivatives of everything. Four modes on TF 2.21 and simdist.

    python tests/fuzz53b/fz53b_gen.py SEED N [--show 40] [--steps 12] [--print]

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

FLAT = ("def _flat(xs):\n"
        "    out = [tf.constant(0.0)]\n"
        "    for x in tf.nest.flatten(xs):\n"
        "        if x is None:\n"
        "            continue\n"
        "        if isinstance(x, tf.IndexedSlices):\n"
        "            x = tf.convert_to_tensor(x)\n"
        "        if x.dtype.is_complex:\n"
        "            x = tf.math.real(x)\n"
        "        if x.dtype.is_floating:\n"
        "            out.append(tf.reduce_sum(tf.where(tf.math.is_finite(tf.cast(x, tf.float32)), "
        "tf.cast(x, tf.float32), 0.0)))\n"
        "    return out\n"
        "def _parts(g):\n"
        "    if isinstance(g, tf.IndexedSlices):\n"
        "        return [g.values, g.indices, g.dense_shape, tf.convert_to_tensor(g)]\n"
        "    return g\n"
        "def _st(x):\n"
        "    if isinstance(x, dict):\n"
        "        return [('key', k, _st(x[k])) for k in sorted(x)]\n"
        "    if isinstance(x, (list, tuple)):\n"
        "        return [_st(y) for y in x]\n"
        "    return x")

SMALL = ["0.0", "0.0", "0.5", "-0.5", "1.0", "-1.0", "2.0", "1.5", "-2.0", "0.25"]


class P(Prog):
    """A program: blocks of statements; `outs` the gradient values summed into the loss."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.outs: list[str] = []
        self.k = 0

    def stmt(self, text: str, names: list[str] = ()) -> None:
        vs = [V(n, (), "float32") for n in names]
        if names:
            text += "".join(f"\n{n} = _st({n})" for n in names)
        self.lines.append((text, vs))

    def tmp(self, stem: str) -> str:
        self.k += 1
        return f"{stem}{self.k}"

    def lit(self, shape: tuple, dt: str = "float32", vals: list[str] | None = None) -> V:
        r = self.rng
        n = math.prod(shape)
        if vals is None:
            vals = [r.choice(SMALL) if r.random() < 0.7 else repr(r.randint(-16, 16) / 8) for _ in range(n)]
        v = self.new_input(shape, "float32", edge=False)
        v.dtype = dt
        np_dt = {"bfloat16": "float32"}.get(dt, dt)
        text = f"np.array([{', '.join(vals)}], np.{np_dt}).reshape({list(shape)})"
        self.inputs[-1] = (v, f"tf.cast({text}, tf.bfloat16)" if dt == "bfloat16" else f"tf.constant({text})")
        return v


# --- chains: a target from sources, as lines (indented by the block)

EDGE_UN = ["tf.nn.relu({x})", "tf.math.abs({x})", "tf.math.sign({x}) * {x}", "tf.math.sqrt({x})",
           "tf.math.log({x})", "tf.math.pow({x}, 2.0)", "tf.math.pow({x}, 0.5)", "tf.math.pow({x}, 0.0)",
           "tf.math.pow({x}, {x})", "tf.clip_by_value({x}, -0.5, 1.0)", "tf.clip_by_value({x}, 0.0, 0.0)",
           "tf.where({x} > 0, tf.math.sqrt({x}), tf.zeros_like({x}))",
           "tf.where({x} > 0, tf.math.log({x}), {x})", "tf.where({x} != 0, 1.0 / {x}, 0.0 * {x})",
           "tf.math.divide_no_nan({x}, {x})", "tf.math.divide_no_nan(tf.ones_like({x}), {x})",
           "tf.nn.softmax({x} * 100.0)", "tf.nn.log_softmax({x} * 1e4)", "tf.nn.relu6({x} * 6.0)",
           "tf.math.maximum({x}, 0.0)", "tf.math.minimum({x}, {x})", "tf.math.maximum({x}, {x} * 1.0)",
           "tf.math.reduce_max({x}, axis=-1)", "tf.math.reduce_min({x})", "tf.math.reduce_max({x}, keepdims=True)",
           "tf.norm({x})", "tf.norm({x} * 0.0)", "tf.math.reduce_euclidean_norm({x}, axis=-1)",
           "tf.math.l2_normalize({x}, axis=-1)", "tf.nn.l2_normalize({x} * 0.0)", "tf.math.xlogy({x}, {x})",
           "tf.math.reduce_logsumexp({x} * 50.0, axis=-1)", "tf.math.square(tf.math.abs({x}))",
           "tf.math.reduce_prod({x}, axis=-1)", "tf.math.reduce_prod({x} * 0.0)", "tf.math.cumprod({x}, axis=-1)",
           "tf.math.reciprocal_no_nan({x})", "tf.math.atan2({x}, {x})", "tf.math.xdivy({x}, {x})",
           "tf.math.multiply_no_nan({x}, tf.math.log({x}))", "tf.math.squared_difference({x}, 0.5)",
           "tf.math.floormod({x}, 1.0)", "tf.math.round({x}) + {x}", "tf.math.rsqrt({x} * {x})",
           "tf.nn.leaky_relu({x}, 0.2)", "tf.nn.elu({x})", "tf.nn.selu({x})", "tf.nn.softplus({x} * 100.0)",
           "tf.math.reduce_std({x})", "tf.math.reduce_variance({x} * 0.0, axis=-1)", "tf.math.log1p({x} - 1.0)",
           "tf.math.reduce_mean({x}, axis=0)", "tf.math.cumsum({x}, axis=-1, exclusive=True, reverse=True)",
           "tf.math.asinh({x})", "tf.math.acos({x} * 0.5)", "tf.math.erfinv({x} * 0.5)",
           "tf.math.lgamma({x})", "tf.math.digamma({x} + 3.0)", "tf.math.sigmoid({x} * 100.0)",
           "tf.math.log_sigmoid({x} * -100.0)", "tf.math.tanh({x} * 20.0)", "tf.math.truediv({x}, {x} + 1.0)"]


def edge_step(p: P, x: V, lines: list[str]) -> V:
    """One op at a point where gradients are subtle; returns the new value."""
    r = p.rng
    u = r.random()
    t = p.tmp("h")
    if u < 0.5 or x.rank == 0:
        e = r.choice(EDGE_UN)
        if x.dtype not in ("float32", "float64"):
            e = e.replace("100.0", "4.0").replace("1e4", "8.0").replace("50.0", "4.0")
        lines.append(f"{t} = {e.format(x=x.name)}")
        shape = x.shape
        if "reduce_" in e or "norm(" in e and "l2_" not in e:
            if "keepdims" in e:
                shape = tuple(1 for _ in x.shape)
            elif "axis=-1" in e:
                shape = x.shape[:-1]
            elif "axis=0" in e:
                shape = x.shape[1:]
            else:
                shape = ()
        return V(t, shape, x.dtype)
    if u < 0.62:
        k = r.randint(1, x.shape[-1]) if x.shape[-1] else 0
        f = r.choice([f"tf.math.top_k({x.name}, k={k}).values", f"tf.sort({x.name}, direction='DESCENDING')",
                      f"tf.sort({x.name})", f"tf.gather({x.name}, tf.argsort({x.name}, stable=True), batch_dims="
                      f"{x.rank - 1}, axis=-1)"])
        lines.append(f"{t} = {f}")
        return V(t, x.shape[:-1] + ((k,) if "top_k" in f else (x.shape[-1],)), x.dtype)
    if u < 0.72:
        n = x.shape[0]
        ids = [r.randrange(0, 4) for _ in range(n)]
        if r.random() < 0.5:
            ids = sorted(ids)
            f = r.choice(["segment_sum", "segment_mean", "segment_max", "segment_min", "segment_prod"])
            lines.append(f"{t} = tf.math.{f}({x.name}, tf.constant({ids}))")
            return V(t, ((ids[-1] + 1) if ids else 0,) + x.shape[1:], x.dtype)
        f = r.choice(["unsorted_segment_sum", "unsorted_segment_mean", "unsorted_segment_max", "unsorted_segment_min",
                      "unsorted_segment_prod", "unsorted_segment_sqrt_n"])
        lines.append(f"{t} = tf.math.{f}({x.name}, tf.constant({ids}), num_segments=5)")
        return V(t, (5,) + x.shape[1:], x.dtype)
    if u < 0.86 and x.rank >= 2 and x.dtype in ("float32", "float64"):
        ta, tb = r.random() < 0.4, r.random() < 0.4
        m, kk = (x.shape[-1], x.shape[-2]) if ta else (x.shape[-2], x.shape[-1])
        n = r.choice([1, 2, 3])
        w = p.lit((n, kk) if tb else (kk, n), x.dtype)
        adj = r.random() < 0.2
        flags = (f", adjoint_a={ta}, adjoint_b={tb}" if adj else f", transpose_a={ta}, transpose_b={tb}")
        lines.append(f"{t} = tf.linalg.matmul({x.name}, {w.name}{flags})")
        return V(t, x.shape[:-2] + (m, n), x.dtype)
    if x.rank >= 1 and x.dtype in ("float32", "float64"):
        d = x.shape[-1]
        w = p.lit((d, 2), x.dtype)
        sub = "abcd"[:x.rank]
        eq = r.choice([f"{sub},{sub[-1]}z->{sub[:-1]}z", f"{sub},{sub[-1]}z->z", f"{sub}->{sub[::-1]}" if x.rank > 1
                       else f"{sub},{sub}->"])
        if "," in eq and eq.count(",") == 1 and eq.split(",")[1].startswith(sub) and "->" in eq and eq.endswith("->"):
            lines.append(f"{t} = tf.einsum('{eq}', {x.name}, {x.name})")
            return V(t, (), x.dtype)
        if "," in eq:
            lines.append(f"{t} = tf.einsum('{eq}', {x.name}, {w.name})")
            out = eq.split("->")[1]
            dims = {c: s for c, s in zip(sub, x.shape)}
            dims["z"] = 2
            return V(t, tuple(dims[c] for c in out), x.dtype)
        lines.append(f"{t} = tf.einsum('{eq}', {x.name})")
        return V(t, x.shape[::-1], x.dtype)
    lines.append(f"{t} = tf.math.abs({x.name})")
    return V(t, x.shape, x.dtype)


def chain(p: P, srcs: list[V], n: int, allow_builders: bool = True) -> tuple[list[str], V]:
    """n steps from the sources: fz45_gen's builders (on the sources and what follows) and edge steps. Returns
    the lines and a float value of the chain (the last float one)."""
    r = p.rng
    lines: list[str] = []
    cur = list(srcs)
    fns, w = zip(*[(b, wt) for b, wt in G.BUILDERS if b is not G.b_replica])
    for _ in range(n):
        x = r.choice([v for v in cur[-3:] if v.dtype in _FL] or [v for v in cur if v.dtype in _FL])
        if not allow_builders or r.random() < 0.55:
            if x.dtype in ("float32", "float64", "float16", "bfloat16") and (x.rank == 0 or 0 not in x.shape):
                y = edge_step(p, x, lines)
                cur.append(y)
            continue
        old_vals, old_lines = p.vals, len(p.lines)
        p.vals = list(cur)
        try:
            r.choices(fns, w)[0](p)
        except (TypeError, ValueError, IndexError):
            pass
        new = p.lines[old_lines:]
        del p.lines[old_lines:]
        fresh_inputs = [v for v in p.vals if v not in cur and any(v is iv for iv, _ in p.inputs)]
        for st, vs in new:
            lines.append(st)
            cur.extend(vs)
        p.vals = old_vals + fresh_inputs
    fl = [v for v in cur if v.dtype in _FL]
    tgt = fl[-1]
    if r.random() < 0.3 and x.dtype in _FL:   # a cast inside the chain: the gradient's dtype
        dt = r.choice(["float16", "bfloat16", "float64", "float32"])
        t = p.tmp("c")
        lines.append(f"{t} = tf.cast(tf.cast({tgt.name}, tf.{dt}) * tf.cast(1.5, tf.{dt}), tf.float32)")
        tgt = V(t, tgt.shape, "float32")
    return lines, tgt


def ind(lines: list[str], k: int = 1) -> str:
    return "\n".join("    " * k + ln for ln in lines) if lines else "    " * k + "pass"


def _srcs(p: P, k: int | None = None) -> list[V]:
    r = p.rng
    fl = [v for v, _ in p.inputs if v.dtype in ("float32", "float64") and v.name in p.srcnames]
    k = k or r.randint(1, min(2, len(fl)))
    return r.sample(fl, k)


def _out(p: P, name: str) -> None:
    p.outs.append(name)


def g_tape(p: P) -> None:
    r = p.rng
    srcs = _srcs(p)
    lines, tgt = chain(p, srcs, r.randint(2, 5))
    tp, g = p.tmp("tape"), p.tmp("g")
    pers = r.random() < 0.4
    wav = r.random() < 0.2
    opts = []
    if pers:
        opts.append("persistent=True")
    if wav:
        opts.append("watch_accessed_variables=False")
    body = [f"{tp}.watch([{', '.join(s.name for s in srcs)}])" if (wav or r.random() < 0.8) else "pass"]
    if r.random() < 0.15:   # part of the chain outside the recording
        body.append(f"with {tp}.stop_recording():")
        body.append(f"    _sr = tf.square({srcs[0].name})")
        lines.append(f"{tgt.name}_s = {tgt.name} + tf.reduce_sum(_sr)")
        tgt = V(f"{tgt.name}_s", tgt.shape, tgt.dtype)
    body += lines
    u = r.random()
    if u < 0.4:
        target = tgt.name
    elif u < 0.7:
        target = f"[{tgt.name}, {srcs[0].name} * 2.0]" if srcs[0].dtype == tgt.dtype else f"[{tgt.name}]"
    else:
        target = f"{{'a': {tgt.name}, 'b': tf.reduce_sum({tgt.name})}}"
    su = r.random()
    if su < 0.4:
        sources = f"[{', '.join(s.name for s in srcs)}]"
    elif su < 0.6:
        sources = srcs[0].name
    elif su < 0.8:
        sources = f"{{'p': {srcs[0].name}, 'q': ({srcs[-1].name}, [{srcs[0].name}])}}"
    else:   # a source not on the path: None or zeros
        other = p.lit((2,), "float32")
        body.insert(0, f"{tp}.watch({other.name})")
        sources = f"[{srcs[0].name}, {other.name}]"
    unc = r.choice(["", "", ", unconnected_gradients=tf.UnconnectedGradients.ZERO",
                    ", unconnected_gradients='none'", ", unconnected_gradients=tf.UnconnectedGradients.NONE"])
    og = ""
    if target == tgt.name and r.random() < 0.4 and tgt.known:
        og = f", output_gradients=tf.reshape(tf.range({max(tgt.size, 0)}, dtype={tgt.name}.dtype) - 1.0, " \
             f"{list(tgt.shape)})"
    if r.random() < 0.1 and pers:   # reset drops what was recorded so far
        body.insert(1, f"_pre = tf.reduce_sum({srcs[0].name} * 3.0)")
        body.insert(2, f"{tp}.reset()")
        body.insert(3, f"{tp}.watch({srcs[0].name})")
    text = f"with tf.GradientTape({', '.join(opts)}) as {tp}:\n{ind(body)}\n" \
           f"{g} = {tp}.gradient({target}, {sources}{og}{unc})"
    names = [g]
    if pers and r.random() < 0.6:
        g2 = p.tmp("g")
        text += f"\n{g2} = {tp}.gradient({tgt.name}, {srcs[-1].name}{unc})"
        names.append(g2)
    if r.random() < 0.15:   # clip_by_global_norm of a list with None entries
        cl = p.tmp("cl")
        text += f"\n{cl} = list(tf.clip_by_global_norm([x for x in tf.nest.flatten({g}) ] + [None], " \
                f"{r.choice(['0.5', '1.0', '100.0'])}))"
        names.append(cl)
    p.stmt(text, names)
    for n in names:
        _out(p, n)


def g_jac(p: P) -> None:
    r = p.rng
    srcs = _srcs(p, 1)
    lines, tgt = chain(p, srcs, r.randint(1, 4))
    tp, j = p.tmp("tape"), p.tmp("j")
    pfor = r.choice(["True", "False"])
    unc = r.choice(["", ", unconnected_gradients=tf.UnconnectedGradients.ZERO"])
    s = srcs[0]
    if r.random() < 0.5 and s.rank >= 1:
        # batch_jacobian: an elementwise chain keeps the batch rows apart
        el = []
        x = s
        for _ in range(r.randint(1, 3)):
            x = edge_step(p, x, el) if r.random() < 0.0 else x
            t = p.tmp("e")
            el.append(f"{t} = {r.choice(EDGE_UN[:21]).format(x=x.name)}")
            x = V(t, s.shape, s.dtype)
        if s.rank == 1:
            el.append(f"{x.name}_b = tf.reshape({x.name}, [-1, 1]) * tf.ones([1, 2], {x.name}.dtype)")
            x = V(f"{x.name}_b", s.shape + (2,), s.dtype)
        if r.random() < 0.2:
            el.append(f"{x.name}_m = {x.name}[:1]")   # a batch mismatch: the error class
            x = V(f"{x.name}_m", x.shape, x.dtype)
        src = s.name if s.rank >= 1 and s.rank != 1 else f"{s.name}_2"
        pre = "" if s.rank != 1 else f"{s.name}_2 = tf.reshape({s.name}, [-1, 1])\n"
        if s.rank == 1:
            el = [ln.replace(s.name, f"{s.name}_2") for ln in el]
        body = [f"{tp}.watch({src})"] + el
        text = f"{pre}with tf.GradientTape(persistent=True) as {tp}:\n{ind(body)}\n" \
               f"{j} = {tp}.batch_jacobian({x.name}, {src}, experimental_use_pfor={pfor}{unc})"
    else:
        body = [f"{tp}.watch({s.name})"] + lines
        other = ""
        if r.random() < 0.3:
            other = f", {p.lit((2,), 'float32').name}"
            body.insert(0, f"{tp}.watch({other[2:]})")
        text = f"with tf.GradientTape(persistent=True) as {tp}:\n{ind(body)}\n" \
               f"{j} = {tp}.jacobian({tgt.name}, [{s.name}{other}], experimental_use_pfor={pfor}{unc})"
    p.stmt(text, [j])
    _out(p, j)


def g_nested(p: P) -> None:
    r = p.rng
    srcs = _srcs(p, 1)
    s = srcs[0]
    lines, tgt = chain(p, srcs, r.randint(1, 3), allow_builders=r.random() < 0.5)
    t1, t2, g, h = p.tmp("tape"), p.tmp("tape"), p.tmp("g"), p.tmp("h2_")
    u = r.random()
    inner = [f"{t1}.watch({s.name})"] + lines
    if u < 0.4:
        outer_tail = f"{h} = {t2}.gradient({g}, {s.name})"
    elif u < 0.7:   # a Hessian-vector product
        outer_tail = f"{h} = {t2}.gradient({g}, {s.name}, output_gradients=tf.ones_like({s.name}) * 0.5)"
    else:
        outer_tail = f"{h} = {t2}.jacobian({g}, {s.name}, experimental_use_pfor={r.choice(['True', 'False'])})"
    gt = tgt.name
    if r.random() < 0.5:   # (the sum inside the inner tape: outside it the target is unconnected)
        inner.append(f"{tgt.name}_r = tf.reduce_sum({tgt.name})")
        gt = f"{tgt.name}_r"
    text = (f"with tf.GradientTape(persistent=True) as {t2}:\n    {t2}.watch({s.name})\n"
            f"    with tf.GradientTape() as {t1}:\n{ind(inner, 2)}\n"
            f"    {g} = {t1}.gradient({gt}, {s.name})\n"
            f"    {g} = {g} if {g} is not None else tf.zeros_like({s.name})\n"
            f"{outer_tail}")
    p.stmt(text, [g, h])
    _out(p, g)
    _out(p, h)


def g_graph(p: P) -> None:
    """tf.gradients / tf.hessians in a tf.function."""
    r = p.rng
    srcs = _srcs(p)
    lines, tgt = chain(p, srcs, r.randint(1, 4))
    f, g = p.tmp("gf"), p.tmp("g")
    args = ", ".join(s.name for s in srcs)
    u = r.random()
    opts = []
    if r.random() < 0.3 and tgt.known:
        opts.append(f"grad_ys=tf.fill({list(tgt.shape)}, tf.constant(2.0, {tgt.name}.dtype))")
    if r.random() < 0.2 and lines:
        first = lines[0].split(" = ")[0]
        opts.append(f"stop_gradients=[{first}]")
    if r.random() < 0.3:
        opts.append(r.choice(["unconnected_gradients='zero'", "unconnected_gradients=tf.UnconnectedGradients.NONE"]))
    if r.random() < 0.3:
        opts.append(r.choice(["aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE",
                              "aggregation_method=tf.AggregationMethod.ADD_N",
                              "aggregation_method=tf.AggregationMethod.EXPERIMENTAL_ACCUMULATE_N"]))
        lines.append(f"{tgt.name}_a = {tgt.name} + tf.reduce_sum({srcs[0].name}) * tf.cast(2.0, {tgt.name}.dtype)"
                     if tgt.dtype == srcs[0].dtype else f"{tgt.name}_a = {tgt.name}")
        tgt = V(f"{tgt.name}_a", tgt.shape, tgt.dtype)
        opts = [o for o in opts if not o.startswith("grad_ys")]
    extra = ""
    if r.random() < 0.3:
        extra = f", {p.lit((2,), 'float32').name}"
        args_call = args + extra
    else:
        args_call = args
    if u < 0.7:
        call = f"tf.gradients({tgt.name}, [{args_call}]{', ' if opts else ''}{', '.join(opts)})"
    else:
        call = f"tf.hessians(tf.reduce_sum({tgt.name}), [{args}])"
    eager = r.random() < 0.06   # tf.gradients outside a function: the error class
    dec = "" if eager else "@tf.function\n"
    params = args + (extra.replace(", ", ", ") if extra else "")
    text = f"{dec}def {f}({params}):\n{ind(lines)}\n    return {call}\n{g} = {f}({args_call})"
    p.stmt(text, [g])
    _out(p, g)


def g_fwd(p: P) -> None:
    r = p.rng
    srcs = _srcs(p, 1)
    s = srcs[0]
    lines, tgt = chain(p, srcs, r.randint(1, 4), allow_builders=r.random() < 0.6)
    acc, jv = p.tmp("acc"), p.tmp("jvp")
    tangent = r.choice([f"tf.ones_like({s.name})", f"tf.reshape(tf.range(tf.size({s.name}), dtype={s.name}.dtype), "
                        f"tf.shape({s.name})) - 1.0"])
    unc = r.choice(["", ", unconnected_gradients=tf.UnconnectedGradients.ZERO"])
    if r.random() < 0.6:
        text = (f"with tf.autodiff.ForwardAccumulator(primals={s.name}, tangents={tangent}) as {acc}:\n"
                f"{ind(lines)}\n{jv} = {acc}.jvp({tgt.name}{unc})")
        names = [jv]
    else:   # forward-over-backward: a Hessian-vector product
        tp, g = p.tmp("tape"), p.tmp("g")
        text = (f"with tf.autodiff.ForwardAccumulator(primals={s.name}, tangents={tangent}) as {acc}:\n"
                f"    with tf.GradientTape() as {tp}:\n        {tp}.watch({s.name})\n{ind(lines, 2)}\n"
                f"    {g} = {tp}.gradient({tgt.name}, {s.name})\n"
                f"{jv} = {acc}.jvp({g}{unc})")
        names = [g, jv]
    p.stmt(text, names)
    for n in names:
        _out(p, n)


def g_custom(p: P) -> None:
    r = p.rng
    srcs = _srcs(p)
    f, g, tp = p.tmp("cg"), p.tmp("g"), p.tmp("tape")
    s = srcs[0]
    lines, tgt = chain(p, [V("xx", s.shape, s.dtype)], r.randint(1, 3), allow_builders=False)
    u = r.random()
    if u < 0.4:
        text = (f"@tf.custom_gradient\ndef {f}(xx):\n{ind(lines)}\n"
                f"    def grad(dy):\n        return dy * {r.choice(['2.0', 'tf.sign(xx)', 'tf.ones_like(xx)', 'xx'])}"
                f" * tf.ones_like(xx)\n"
                f"    return {tgt.name} * tf.ones_like(xx), grad")
        call = f"{f}({s.name})"
    elif u < 0.7 and len(srcs) > 1:
        t = srcs[1]
        text = (f"@tf.custom_gradient\ndef {f}(xx, yy):\n{ind(lines)}\n"
                f"    def grad(dy):\n        return dy * tf.ones_like(xx), None\n"
                f"    return {tgt.name} * tf.ones_like(xx) + tf.reduce_sum(yy), grad")
        call = f"{f}({s.name}, {t.name})"
    else:   # a variable inside: grad_fn(*dy, variables=...) returns (input grads, variable grads)
        text = (f"_w_{f} = tf.Variable(tf.constant(1.5, {s.name}.dtype))\n"
                f"@tf.custom_gradient\ndef {f}(xx):\n{ind(lines)}\n"
                f"    out = {tgt.name} * tf.ones_like(xx) * _w_{f}\n"
                f"    def grad(dy, variables=None):\n"
                f"        return dy * 3.0, [tf.reduce_sum(dy) * tf.ones_like(v) for v in variables]\n"
                f"    return out, grad")
        call = f"{f}({s.name})"
    extra = [f"_w_{f}"] if "_w_" in text else []
    tail = (f"\nwith tf.GradientTape(persistent=True) as {tp}:\n    {tp}.watch([{', '.join(x.name for x in srcs)}])\n"
            f"    _y = {call}\n{g} = {tp}.gradient(_y, [{', '.join([x.name for x in srcs] + extra)}])")
    if r.random() < 0.3 and "yy" not in text and "_w_" not in text:
        if r.random() < 0.5:
            tail = tail.replace(f"    _y = {call}", f"    _y = tf.recompute_grad({f})({s.name})")
        else:
            tail = tail.replace(f"    _y = {call}", f"    _y = tf.stop_gradient({call}) + {call}")
    p.stmt(text + tail, [g])
    _out(p, g)


def g_recompute(p: P) -> None:
    r = p.rng
    srcs = _srcs(p, 1)
    s = srcs[0]
    lines, tgt = chain(p, [V("xx", s.shape, s.dtype)], r.randint(1, 4), allow_builders=r.random() < 0.5)
    f, g, tp = p.tmp("rf"), p.tmp("g"), p.tmp("tape")
    text = (f"def {f}(xx):\n{ind(lines)}\n    return {tgt.name}\n{f} = tf.recompute_grad({f})\n"
            f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    _y = {f}({s.name})\n"
            f"{g} = {tp}.gradient(_y, {s.name})")
    p.stmt(text, [g])
    _out(p, g)


def g_gather(p: P) -> None:
    r = p.rng
    rows, cols = r.randint(2, 5), r.randint(1, 3)
    w = p.lit((rows, cols), r.choice(["float32", "float32", "float64"]))
    p.srcnames.add(w.name)
    idx = [r.randrange(rows) for _ in range(r.choice([1, 2, 3, 4]))]
    if r.random() < 0.3:
        idx = [[r.randrange(rows) for _ in range(2)] for _ in range(2)]
    tp, g, gp = p.tmp("tape"), p.tmp("g"), p.tmp("gp")
    look = r.choice([f"tf.gather({w.name}, {idx})", f"tf.nn.embedding_lookup({w.name}, {idx})",
                     f"tf.gather({w.name}, {idx}, axis=0)", f"tf.gather({w.name}, [0], axis=1)",
                     f"tf.nn.embedding_lookup({w.name}, tf.constant({idx}, tf.int64))"])
    ex = r.choice(["tf.square({e})", "{e} * 2.0", "tf.nn.relu({e})", "tf.math.reduce_max({e}, axis=-1)",
                   "tf.math.reduce_sum({e} * {e}, axis=0)"])
    var = False   # (a tf.Variable made in the body: simdist's deferred singleton check, function.trace-once)
    pre = f"{w.name}_v = tf.Variable({w.name})\n" if var else ""
    src = f"{w.name}_v" if var else w.name
    watch = "" if var else f"    {tp}.watch({src})\n"
    text = (f"{pre}with tf.GradientTape() as {tp}:\n{watch}    _e = {look.replace(w.name, src)}\n"
            f"    _y = {ex.format(e='_e')}\n"
            f"{g} = {tp}.gradient(_y, {src}{r.choice(['', ', unconnected_gradients=tf.UnconnectedGradients.ZERO'])})"
            f"\n{gp} = _parts({g})")
    p.stmt(text, [gp])
    _out(p, gp)


def g_control(p: P) -> None:
    r = p.rng
    srcs = _srcs(p, 1)
    s = srcs[0]
    tp, g, y = p.tmp("tape"), p.tmp("g"), p.tmp("cf")
    e1 = r.choice(EDGE_UN[:21]).format(x="a")
    e2 = r.choice(EDGE_UN[:21]).format(x="a")
    u = r.random()
    if u < 0.25:
        c = f"tf.cond(tf.reduce_sum({s.name}) > {r.choice(['0.0', '1.0', '-100.0'])}, lambda: (lambda a: {e1})" \
            f"({s.name}), lambda: (lambda a: {e2})({s.name}))"
    elif u < 0.5:
        mi = r.choice(["", ", maximum_iterations=2", ", maximum_iterations=0"])
        c = (f"tf.while_loop(lambda i, a: i < {r.randint(0, 3)}, lambda i, a: (i + 1, {e1} * 0.5 + a), "
             f"(tf.constant(0), {s.name}){mi})[1]")
    elif u < 0.75 and s.rank >= 1:
        c = f"tf.map_fn(lambda a: {e1}, {s.name})"
        if "reduce" in e1 or "norm" in e1:
            c = f"tf.map_fn(lambda a: {e1}, {s.name}, fn_output_signature={s.name}.dtype)"
    elif s.rank >= 1:
        c = f"tf.scan(lambda acc, a: acc * 0.5 + {e1}, {s.name}{r.choice(['', ', reverse=True'])})"
        if "reduce" in e1 or "norm" in e1 or "softmax" in e1:
            c = f"tf.scan(lambda acc, a: acc * 0.5 + a * a, {s.name})"
    else:
        c = f"tf.switch_case(tf.cast(tf.reduce_sum({s.name}) > 0, tf.int32), [lambda: {s.name} * 2.0, " \
            f"lambda: tf.square({s.name})])"
    text = (f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    {y} = {c}\n"
            f"{g} = {tp}.gradient({y}, {s.name})")
    p.stmt(text, [y, g])
    _out(p, g)


def g_intpath(p: P) -> None:
    """Integer and bool paths (None gradients), complex sources (the conjugate convention)."""
    r = p.rng
    srcs = _srcs(p, 1)
    s = srcs[0]
    tp, g = p.tmp("tape"), p.tmp("g")
    u = r.random()
    if u < 0.4:
        body = r.choice([f"_y = tf.cast(tf.cast({s.name}, tf.int32), tf.float32) * 2.0",
                         f"_y = tf.cast({s.name} > 0, {s.name}.dtype) * {s.name}",
                         f"_y = tf.cast(tf.argmax(tf.reshape({s.name}, [-1])), tf.float32)",
                         f"_y = tf.cast(tf.math.round({s.name}), tf.int64)",
                         f"_y = tf.math.floor({s.name}) + tf.math.ceil({s.name})"])
        unc = r.choice(["", ", unconnected_gradients=tf.UnconnectedGradients.ZERO"])
        text = f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    {body}\n" \
               f"{g} = {tp}.gradient(_y, {s.name}{unc})"
    else:
        f = r.choice(["tf.math.abs(z) ** 2", "tf.math.real(z * tf.math.conj(z))", "tf.math.real(z * z)",
                      "tf.math.imag(z * z)", "tf.math.angle(z)", "tf.math.real(tf.exp(z))", "z * z",
                      "tf.math.real(tf.math.sqrt(z))", "tf.math.abs(z)", "tf.math.real(z / (z + 1.0))",
                      "tf.math.real(tf.math.log(z))", "tf.math.real(tf.linalg.matmul(tf.reshape(z, [1, -1]), "
                      "tf.reshape(z, [-1, 1]), adjoint_a=True))"])
        text = (f"z0 = tf.complex({s.name}, {s.name} * 0.5 - 0.25)\n"
                f"with tf.GradientTape() as {tp}:\n    {tp}.watch([z0, {s.name}])\n    z = z0 * tf.cast({s.name}, z0.dtype)\n"
                f"    _y = {f}\n{g} = {tp}.gradient(_y, [z0, {s.name}])")
    p.stmt(text, [g])
    _out(p, g)


def g_error(p: P) -> None:
    r = p.rng
    s = _srcs(p, 1)[0]
    tp, g = p.tmp("tape"), p.tmp("g")
    u = r.random()
    if u < 0.3:
        text = (f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    _y = tf.square({s.name})\n"
                f"{g} = {tp}.gradient(_y, {s.name})\n{g} = {tp}.gradient(_y, {s.name})")
    elif u < 0.5:
        text = f"{g} = tf.gradients(tf.square({s.name}), [{s.name}])"
    elif u < 0.7:
        text = (f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    _y = tf.square({s.name})\n"
                f"{g} = {tp}.gradient(_y, {s.name}, unconnected_gradients='maybe')")
    elif u < 0.85:
        text = (f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    _y = tf.square({s.name})\n"
                f"{g} = {tp}.gradient(_y, {s.name}, output_gradients=[tf.ones([7, 7], _y.dtype)])")
    else:
        text = (f"with tf.GradientTape() as {tp}:\n    {tp}.watch({s.name})\n    _y = tf.square({s.name})\n"
                f"{g} = {tp}.gradient(_y, tf.constant(1))")
    p.stmt(text, [g])
    _out(p, g)


BLOCKS = [(g_tape, 10), (g_jac, 5), (g_nested, 5), (g_graph, 5), (g_fwd, 4), (g_custom, 4), (g_recompute, 2),
          (g_gather, 4), (g_control, 4), (g_intpath, 3)]


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed: 2-4 gradient blocks over sources of small literals, an invalid use in one of eight."""
    rng = random.Random(seed * 100003 + k)
    p = P(rng)
    p.srcnames = set()
    p.stmt(FLAT)
    for _ in range(rng.randint(1, 3)):
        rank = rng.choice([0, 1, 1, 2, 2, 2, 3])
        shape = tuple(rng.choice([1, 2, 3, 3, 4]) for _ in range(rank))
        v = p.lit(shape, rng.choice(["float32", "float32", "float32", "float64"]))
        p.srcnames.add(v.name)
    fns, w = zip(*BLOCKS)
    for _ in range(rng.randint(2, 4)):
        rng.choices(fns, w)[0](p)
    if rng.random() < 1 / 8:
        g_error(p)
    final = "loss = tf.math.add_n(_flat([" + ", ".join(p.outs) + "]))"
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final,
            "last": "loss"}


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
