"""A throwaway differential generator of the public API, round ten (fz52b): DYNAMIC SHAPES AND CONTROL FLOW INSIDE
tf.function. Each program defines one to three tf.functions (an `input_signature` of None dims, `reduce_retracing=
True`, or plain retracing called on two shapes; autograph on, now and then off) whose bodies chain 2-6 steps on an
input whose static shape is partly unknown: tf.shape / tf.size / tf.rank and `x.shape` arithmetic into tf.reshape /
zeros / fill / range / tile / slice / split / gather / pad / one_hot; tf.ensure_shape, set_shape, tf.get_static_value;
Python `if` / `for` / `while` on tensors (autograph's cond and while_loop: loop-carried shapes changing with and
without shape_invariants, tf.range loops with break / continue, early return), tf.TensorArray (dynamic_size,
element_shape, infer_shape, write/stack/concat/gather/scatter/unstack), tf.case, tf.switch_case, tf.map_fn /
vectorized_map / scan / foldl (fn_output_signature), one-argument tf.where, boolean_mask, unique, dynamic_partition /
dynamic_stitch, and, one program in six, an invalid program (a loop body changing a shape, cond branches of two
dtypes, a tensor used as a Python bool with autograph off). Recorded beside the values: every traced tensor's static
shape and dtype (a list appended to while tracing), the concrete function's structured_outputs and output shapes, the
tracing count. Each program runs in fz45_gen's four modes (eager statements, tf.function, GradientTape of the loss
with respect to every float input, MirroredStrategy(2 CPUs).run with reduce and gather) on TF 2.21 and on simdist.

    python tests/fuzz52b/fz52b_gen.py SEED N [--show 40] [--print]

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

SIG = ("def _sig(o):\n"
       "    def one(t):\n"
       "        if hasattr(t, 'shape') and hasattr(t, 'dtype'):\n"
       "            return (None if t.shape.rank is None else t.shape.as_list(), t.dtype.name)\n"
       "        return type(t).__name__\n"
       "    return str(tf.nest.map_structure(one, o))")


class Body:
    """A traced function's body: lines at an indent, the current value `x` (its rank and dtype; every dim of the
    values it is called on at least `lo`)."""

    def __init__(self, rng: random.Random, rank: int, dt: str) -> None:
        self.rng, self.rank, self.dt = rng, rank, dt
        self.lines: list[str] = []
        self.ind = 1
        self.n = 0
        self.x = "x"
        self.err = False

    def w(self, line: str) -> None:
        self.lines.append("    " * self.ind + line)

    def new(self) -> str:
        self.n += 1
        return f"t{self.n}"

    def put(self, expr: str, rank: int | None = None, dt: str | None = None) -> str:
        t = self.new()
        self.w(f"{t} = {expr}")
        self.x = t
        if rank is not None:
            self.rank = rank
        if dt is not None:
            self.dt = dt
        self.rec(t)
        return t

    def rec(self, t: str) -> None:
        self.w(f"T.append(('{t}', str({t}.shape), {t}.dtype.name))")
        self.w(f"outs.append({t})")


# --- steps: each keeps `x` valid on inputs whose dims are all >= 2

def s_reshape(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        b.put(f"tf.reshape({x}, [1, -1])", 2)
        return True
    u = r.random()
    if u < 0.25:
        b.put(f"tf.reshape({x}, [-1])", 1)
    elif u < 0.5 and b.rank >= 2:
        b.put(f"tf.reshape({x}, [tf.shape({x})[0], -1])", 2)
    elif u < 0.7 and b.rank >= 2:
        b.put(f"tf.reshape({x}, tf.stack([-1, tf.reduce_prod(tf.shape({x})[1:])]))", 2)
    elif u < 0.85:
        b.put(f"tf.reshape({x}, tf.concat([[1], tf.shape({x})], 0))", b.rank + 1)
    else:
        b.put(f"tf.reshape({x}, [{x}.shape[0] if {x}.shape[0] is not None else -1, -1])" if b.rank >= 2
              else f"tf.reshape({x}, [-1, 1])", 2)
    return True


def s_create(b: Body) -> bool:
    r, x = b.rng, b.x
    u = r.random()
    if u < 0.2:
        b.put(f"{x} + tf.fill(tf.shape({x}), tf.constant(0.5, {x}.dtype))")
    elif u < 0.4 and b.rank >= 1:
        z = b.new()
        b.w(f"{z} = tf.zeros([tf.shape({x})[0], {r.choice(['2', 'tf.rank(' + x + ')', 'tf.size(' + x + ') // 2'])}],"
            f" {x}.dtype)")
        b.rec(z)
    elif u < 0.6:
        t = b.new()
        b.w(f"{t} = tf.range(tf.size({x}))")
        b.rec(t)
        b.put(f"{x} + tf.cast(tf.reshape({t}, tf.shape({x})), {x}.dtype)")
    elif u < 0.8:
        t = b.new()
        b.w(f"{t} = tf.range({r.choice(['1', '0', 'tf.rank(' + x + ')'])}, tf.size({x}), "
            f"{r.choice(['1', '2', '3'])}, dtype=tf.{r.choice(['int32', 'int64', 'float32'])})")
        b.rec(t)
    else:
        t = b.new()
        b.w(f"{t} = tf.ones_like({x}) * tf.cast(tf.size({x}), {x}.dtype) + tf.zeros(tf.shape({x}), {x}.dtype)")
        b.rec(t)
        b.x = t
    return True


def s_tile_pad(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        return False
    u = r.random()
    if u < 0.35:
        mult = ", ".join(["2"] + ["1"] * (b.rank - 1))
        if r.random() < 0.5:
            mult = f"tf.concat([[2], tf.ones([tf.rank({x}) - 1], tf.int32)], 0)"
            b.put(f"tf.tile({x}, {mult})")
        else:
            b.put(f"tf.tile({x}, [{mult}])")
    elif u < 0.7:
        pads = [[r.randint(0, 1), r.randint(0, 2)] for _ in range(b.rank)]
        if r.random() < 0.5:
            pads[0][1] = f"tf.shape({x})[0] % 2"
        mode = r.choice(["", "", ", mode='REFLECT'", ", constant_values=1.5"])
        if "REFLECT" in mode:
            pads = [[min(p, 1) if not isinstance(p, str) else p for p in pp] for pp in pads]
        b.put(f"tf.pad({x}, [{', '.join('[' + ', '.join(str(p) for p in pp) + ']' for pp in pads)}]{mode})")
    else:
        k = r.randrange(b.rank)
        b.put(f"tf.concat([{x}, {x}[{':, ' * k}:1]], axis={k})")
    return True


def s_slice(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        return False
    u = r.random()
    if u < 0.3:
        b.put(f"tf.slice({x}, [{', '.join(['0'] * b.rank)}], tf.shape({x}) - {r.choice(['1', '0'])})")
    elif u < 0.5:
        b.put(f"tf.slice({x}, [1{', 0' * (b.rank - 1)}], [-1{', -1' * (b.rank - 1)}])")
    elif u < 0.7:
        b.put(f"{x}[{r.choice(['1:', ':-1', '::2', '::-1', 'tf.shape(' + x + ')[0] // 2:', ':tf.size(' + x + ') // 3'])}]")
    else:
        b.put(f"{x}[{r.choice(['0', '-1', 'tf.shape(' + x + ')[0] - 1'])}]", b.rank - 1)
    return True


def s_split(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        return False
    k = r.randrange(b.rank)
    u = r.random()
    t = b.new()
    if u < 0.4:
        b.w(f"{t} = tf.split({x}, [1, -1], axis={k})")
    elif u < 0.7:
        b.w(f"{t} = tf.split({x}, tf.stack([1, tf.shape({x})[{k}] - 1]), axis={k}, num=2)")
    else:
        b.w(f"{t} = tf.split(tf.concat([{x}, {x}], {k}), 2, axis={k})")
    b.w(f"T.append(('{t}', [str(s.shape) for s in {t}]))")
    b.w(f"outs.extend({t})")
    b.x = f"{t}[1]"
    return True


def s_gather(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        return False
    u = r.random()
    if u < 0.4:
        b.put(f"tf.gather({x}, tf.range(tf.shape({x})[0] - 1, -1, -1))")
    elif u < 0.7 and b.rank >= 2:
        b.put(f"tf.gather({x}, [0, tf.shape({x})[1] - 1], axis=1)")
    else:
        t = b.new()
        b.w(f"{t} = tf.one_hot(tf.argmax({x}, axis=-1), depth={r.choice(['tf.shape(' + x + ')[-1]', '3', x + '.shape[-1] or 4', 'tf.size(' + x + ')'])}, dtype={x}.dtype)")
        b.rec(t)
    return True


def s_static(b: Body) -> bool:
    r, x = b.rng, b.x
    u = r.random()
    if u < 0.3 and b.rank >= 1:
        spec = ", ".join("None" for _ in range(b.rank))
        b.put(f"tf.ensure_shape({x}, [{spec}])")
    elif u < 0.5:
        b.w(f"T.append(('static', str(tf.get_static_value(tf.shape({x}))), str(tf.get_static_value(tf.size({x}))), "
            f"str(tf.get_static_value(tf.rank({x})))))")
    elif u < 0.7:
        b.w(f"T.append(('dims', str({x}.shape), {x}.shape.rank, {x}.shape.is_fully_defined(), "
            f"str({x}.shape[:1]), {x}.get_shape().num_elements()))")
    else:
        t = b.new()
        b.w(f"{t} = tf.identity({x})")
        b.w(f"{t}.set_shape([None] * {b.rank})")
        b.rec(t)
        b.x = t
    return True


def _expr(b: Body, x: str) -> str:
    return b.rng.choice([f"{x} * 2.0", f"-{x}", f"tf.nn.relu({x})", f"{x} + 1.0", f"tf.square({x})",
                         f"tf.math.sin({x})"]).replace("2.0", f"tf.constant(2.0, {x}.dtype)").replace(
        "1.0", f"tf.constant(1.0, {x}.dtype)")


def s_if(b: Body) -> bool:
    r, x = b.rng, b.x
    pred = r.choice([f"tf.reduce_sum({x}) > 0", f"tf.shape({x})[0] > 2", f"tf.size({x}) % 2 == 0",
                     f"tf.reduce_max({x}) < 1.0", f"tf.rank({x}) > 1"])
    t = b.new()
    u = r.random()
    b.w(f"if {pred}:")
    b.ind += 1
    if u < 0.5 or b.rank == 0:
        b.w(f"{t} = {_expr(b, x)}")
        b.ind -= 1
        b.w("else:")
        b.ind += 1
        b.w(f"{t} = {_expr(b, x)}")
    else:   # branches of two static shapes: the output's shape their most specific common one
        b.w(f"{t} = {x}[:1]" if r.random() < 0.5 else f"{t} = tf.reshape({x}, [-1])")
        b.ind -= 1
        b.w("else:")
        b.ind += 1
        b.w(f"{t} = {x}[1:]" if "[:1]" in b.lines[-3] else f"{t} = tf.zeros([3], {x}.dtype)")
        if "reshape" in b.lines[-3]:
            b.rank = 1
    b.ind -= 1
    b.x = t
    b.rec(t)
    return True


def s_tfcond(b: Body) -> bool:
    r, x = b.rng, b.x
    u = r.random()
    if u < 0.4:
        b.put(f"tf.cond(tf.reduce_mean({x}) > 0, lambda: {_expr(b, x)}, lambda: {x}[::-1] if {b.rank} > 0 else {x})")
    elif u < 0.7:
        idx = r.choice([f"tf.shape({x})[0] % 3" if b.rank else "tf.size(" + x + ") % 3", "tf.constant(5)",
                        f"tf.cast(tf.reduce_sum({x}) > 0, tf.int32)"])
        b.put(f"tf.switch_case({idx}, [lambda: {_expr(b, x)}, lambda: {_expr(b, x)}, lambda: {x} * 0])")
    else:
        b.put(f"tf.case([(tf.reduce_sum({x}) > 0, lambda: {_expr(b, x)}), (tf.size({x}) > 4, lambda: {_expr(b, x)})],"
              f" default=lambda: {x}{r.choice(['', ', exclusive=True'])})")
    return True


def s_loop(b: Body) -> bool:
    r, x = b.rng, b.x
    u = r.random()
    acc = b.new()
    if u < 0.3:
        n = r.choice([f"tf.shape({x})[0]" if b.rank else "3", "tf.size(" + x + ")", "3"])
        b.w(f"{acc} = tf.zeros_like({x}[0]) if {b.rank} > 0 else tf.zeros_like({x})")
        b.w(f"for i in tf.range({n}):")
        b.ind += 1
        ctl = r.choice(["", "break", "continue"])
        if ctl:
            b.w(f"if i > {r.randint(0, 2)}:")
            b.w(f"    {ctl}")
        b.w(f"{acc} = {acc} + tf.cast(i, {x}.dtype) * {x}[i % tf.shape({x})[0]]" if b.rank else
            f"{acc} = {acc} + tf.cast(i, {x}.dtype)")
        b.ind -= 1
        b.rank = max(b.rank - 1, 0)
    elif u < 0.55:   # a loop-carried value whose shape changes: shape_invariants (or its absence: an error)
        b.w(f"{acc} = {x}")
        b.w("i = tf.constant(0)")
        b.w(f"while i < {r.choice(['2', '1', 'tf.rank(' + x + ')'])}:")
        b.ind += 1
        if b.rank and r.random() < 0.85:
            b.w(f"tf.autograph.experimental.set_loop_options(shape_invariants=[({acc}, tf.TensorShape([None]"
                f"{' + ' + acc + '.shape[1:]' if b.rank > 1 else ''}))])")
        else:
            b.err = True
        b.w(f"{acc} = tf.concat([{acc}, {acc}[:1]], 0)" if b.rank else f"{acc} = tf.stack([{acc}])")
        b.w("i += 1")
        b.ind -= 1
    elif u < 0.8:
        body = _expr(b, "a")
        if b.rank and r.random() < 0.5:
            inv = f", shape_invariants=(tf.TensorShape([]), tf.TensorShape([None]{' + ' + x + '.shape[1:]' if b.rank > 1 else ''}))"
            body = "tf.concat([a, a[:1]], 0)"
        else:
            inv = ""
        b.w(f"_, {acc} = tf.while_loop(lambda i, a: i < {r.choice(['2', '0', 'tf.size(' + x + ') // 4'])}, "
            f"lambda i, a: (i + 1, {body}), (tf.constant(0), {x}){inv}{r.choice(['', ', maximum_iterations=3'])})")
    else:   # early return inside a conditional
        b.w(f"if tf.reduce_sum({x}) > {r.choice(['0.0', '100.0', '-100.0'])}:")
        b.w(f"    return outs + [{_expr(b, x)}]")
        b.w(f"{acc} = {_expr(b, x)}")
    b.x = acc
    b.rec(acc)
    return True


def s_ta(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        return False
    ta, y = b.new(), b.new()
    u = r.random()
    es = r.choice(["", "", f", element_shape={x}.shape[1:]", ", element_shape=tf.TensorShape(None)",
                   ", infer_shape=False"])
    if u < 0.45:
        b.w(f"{ta} = tf.TensorArray({x}.dtype, size={r.choice(['0', '1'])}, dynamic_size=True{es})")
        b.w(f"for i in tf.range(tf.shape({x})[0]):")
        b.w(f"    {ta} = {ta}.write(i, {x}[i] * tf.cast(i, {x}.dtype))")
        op = r.choice(["stack()", "stack()", "concat()" if b.rank >= 2 else "stack()", "gather([0, 1])",
                       "read(0)", "size()"])
        b.w(f"{y} = {ta}.{op}")
        b.rank = {"stack()": b.rank, "concat()": b.rank - 1, "gather([0, 1])": b.rank, "read(0)": b.rank - 1,
                  "size()": 0}[op]
        if op == "size()":
            b.w(f"{y} = tf.cast({y}, {x}.dtype)")
    elif u < 0.75:
        b.w(f"{ta} = tf.TensorArray({x}.dtype, size=tf.shape({x})[0]{es}).unstack({x})")
        op = r.choice(["stack()", "gather(tf.range(tf.shape(" + x + ")[0] - 1, -1, -1))", "read(1)"])
        b.w(f"{y} = {ta}.{op}")
        if op == "read(1)":
            b.rank -= 1
    else:
        b.w(f"{ta} = tf.TensorArray({x}.dtype, size=tf.shape({x})[0] + 1{es})")
        b.w(f"{ta} = {ta}.scatter(tf.range(1, tf.shape({x})[0] + 1), {x})")
        b.w(f"{ta} = {ta}.write(0, tf.zeros_like({x}[0]))")
        b.w(f"{y} = {ta}.stack()")
    b.x = y
    b.rec(y)
    return True


def s_map(b: Body) -> bool:
    r, x = b.rng, b.x
    if b.rank == 0:
        return False
    u = r.random()
    if u < 0.3:
        sig = r.choice(["", f", fn_output_signature={x}.dtype", ", fn_output_signature=tf.TensorSpec([], "
                        f"{x}.dtype)"])
        b.put(f"tf.map_fn(lambda e: tf.reduce_sum(e), {x}{sig})", 1)
    elif u < 0.45:
        t = b.new()
        b.w(f"{t} = tf.map_fn(lambda e: tf.cast(e > 0, tf.int32), {x}, fn_output_signature=tf.int32)")
        b.rec(t)
    elif u < 0.6:
        b.put(f"tf.vectorized_map(lambda e: {_expr(b, 'e')}, {x})")
    elif u < 0.8:
        b.put(f"tf.scan(lambda a, e: a + e, {x}{r.choice(['', ', reverse=True', ', initializer=tf.zeros_like(' + x + '[0])'])})")
    else:
        b.put(f"tf.{r.choice(['foldl', 'foldr'])}(lambda a, e: a + e, {x})", b.rank - 1)
    return True


def s_dyncount(b: Body) -> bool:
    r, x = b.rng, b.x
    u = r.random()
    if b.rank == 0:
        b.put(f"tf.reshape({x}, [1])", 1)
    if u < 0.25:
        t = b.new()
        b.w(f"{t} = tf.where({b.x} > 0)")
        b.rec(t)
        b.put(f"tf.gather_nd({b.x}, {t})", 1)
    elif u < 0.45:
        b.put(f"tf.boolean_mask({b.x}, {b.x} > 0)", 1)
    elif u < 0.6:
        t = b.new()
        b.w(f"{t} = tf.unique(tf.reshape(tf.cast({b.x} * 2.0, tf.int32), [-1]))")
        b.w(f"T.append(('{t}', str({t}.y.shape), str({t}.idx.shape)))")
        b.w(f"outs.extend([{t}.y, {t}.idx])")
    elif u < 0.8:
        p, s = b.new(), b.new()
        b.w(f"{p} = tf.dynamic_partition({b.x}, tf.cast({b.x} > 0, tf.int32), 2)")
        b.w(f"T.append(('{p}', [str(q.shape) for q in {p}]))")
        b.w(f"outs.extend({p})")
        b.w(f"{s} = tf.dynamic_stitch([tf.range(tf.size({p}[0])), tf.range(tf.size({p}[0]), tf.size({b.x}))], "
            f"[tf.reshape({p}[0], [-1]), tf.reshape({p}[1], [-1])])")
        b.rec(s)
        b.x = s
        b.rank = 1
    else:
        b.put(f"tf.where({b.x} > 0, {b.x}, tf.zeros_like({b.x}))")
    return True


def s_error(b: Body) -> bool:
    """An invalid step (one program in six): TF's error class compared."""
    r, x = b.rng, b.x
    b.err = True
    u = r.random()
    if u < 0.3:
        b.w(f"if tf.reduce_sum({x}) > 0:")
        b.w(f"    t = tf.cast({x}, tf.float64) if {x}.dtype != tf.float64 else tf.cast({x}, tf.float32)")
        b.w("else:")
        b.w(f"    t = {x}")
        b.x = "t"
    elif u < 0.5:
        b.put(f"tf.cond(tf.reduce_sum({x}) > 0, lambda: tf.cast({x}, tf.int32), lambda: {x})")
    elif u < 0.7:
        b.w(f"_, t = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, tf.concat([a, a], 0)), (0, {x}))")
        b.x = "t"
    elif u < 0.85:
        b.put(f"tf.ensure_shape({x}, [{', '.join(['7'] * max(b.rank, 1))}])")
    else:
        b.put(f"tf.reshape({x}, [tf.size({x}) + 1])", 1)
    return True


STEPS = [(s_reshape, 6), (s_create, 5), (s_tile_pad, 4), (s_slice, 5), (s_split, 3), (s_gather, 4), (s_static, 4),
         (s_if, 5), (s_tfcond, 4), (s_loop, 6), (s_ta, 5), (s_map, 4), (s_dyncount, 4)]


def _lit(p: Prog, shape: tuple, dt: str) -> V:
    r = p.rng
    vals = [repr(r.randint(-16, 16) / 8) if r.random() < 0.85 else r.choice(["0.1", "-0.3", "2.5"])
            for _ in range(math.prod(shape))]
    v = p.new_input(shape, "float32", edge=False)
    v.dtype = dt
    p.inputs[-1] = (v, f"tf.constant(np.array([{', '.join(vals)}], np.{dt}).reshape({list(shape)}))")
    return v


def _fn(p: Prog, k: int, invalid: bool) -> None:
    r = p.rng
    rank = r.choice([1, 2, 2, 2, 3])
    dt = r.choice(["float32", "float32", "float32", "float64"])
    dims = [r.randint(2, 4) for _ in range(rank)]
    a = _lit(p, tuple(dims), dt)
    dims2 = [d if r.random() < 0.5 else r.randint(2, 5) for d in dims]
    a2 = _lit(p, tuple(dims2), dt)
    b = Body(r, rank, dt)
    fns, w = zip(*STEPS)
    n = r.randint(2, 6)
    tries = 0
    done = 0
    while done < n and tries < 40:
        tries += 1
        if r.choices(fns, w)[0](b):
            done += 1
    if invalid:
        s_error(b)
        b.rec(b.x) if not b.lines[-1].startswith("    outs.append") else None
    b.w("return outs")
    mode = r.choice(["sig", "sig", "sig", "reduce", "plain"])
    spec_dims = [d if r.random() < 0.3 else None for d in dims]
    if mode == "sig" and r.random() < 0.1:
        spec_dims = None
    spec = f"tf.TensorSpec({spec_dims if spec_dims is None else list(spec_dims)}, tf.{dt})"
    ag = "" if r.random() < 0.85 else ", autograph=False"
    dec = {"sig": f"@tf.function(input_signature=[{spec}]{ag})", "reduce": f"@tf.function(reduce_retracing=True{ag})",
           "plain": f"@tf.function{'' if not ag else '(' + ag[2:] + ')'}"}[mode]
    f = f"f{k}"
    src = dec + f"\ndef {f}(x):\n    outs = []\n" + "\n".join(b.lines)
    p.stmt(src)
    p.emit(f"{f}({a.name})", [((), "list")])
    if r.random() < 0.7:
        p.emit(f"{f}({a2.name})", [((), "list")])
    if r.random() < 0.3:   # a call of another rank: a retrace (plain) or a signature mismatch (an error)
        a3 = _lit(p, tuple(dims) + (2,), dt)
        p.emit(f"{f}({a3.name})", [((), "list")])
    p.emit("list(T)", [((), "py")])
    if mode == "sig":
        p.emit(f"_sig({f}.get_concrete_function().structured_outputs)", [((), "py")])
    else:
        p.emit(f"_sig({f}.get_concrete_function({spec}).structured_outputs)", [((), "py")])
    p.emit(f"{f}.experimental_get_tracing_count()", [((), "py")])


class P(Prog):
    def stmt(self, text: str) -> None:
        self.lines.append((text, []))


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed: 1-3 traced functions, each called on one to three inputs."""
    rng = random.Random(seed * 100003 + k)
    p = P(rng)
    p.stmt("T = []")
    p.stmt(SIG)
    invalid = rng.random() < 1 / 6
    nf = rng.choice([1, 1, 2, 3])
    for i in range(nf):
        _fn(p, i, invalid and i == nf - 1)
    calls = [v for st, vs in p.lines for v in vs if v.dtype == "list"]
    final = ("loss = tf.math.add_n([tf.constant(0.0)] + [tf.reduce_sum(tf.cast(t, tf.float32)) for o in ["
             + ", ".join(v.name for v in calls) + "] for t in o if t.dtype.is_floating])")
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final, "last": calls[0].name}


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
