"""Ops at their rank and index-depth limits crossed by rule (sixty-third session, gsweep63; test_gsweep63.py): the
index ops at every depth to 8, softmax and its cross entropy at every rank and axis to 8, reductions at ranks 6-9,
the shape ops and broadcasting at ranks 5-10 (past TF's kernels' rank templates), traced dropout's noise shapes
against x's rank, values and gradients bit for bit against TF 2.21's recorded results, eager, under a tape and
inside a tf.function (refusals by their exception class).

What is crossed (blind83's op-index-depths/op-softmax-ranks/op-dropout-noise-shapes take depths 1-8 of float32
tensor_scatter_nd, softmax at axis -1/0, dropout of x ranks 0-3; vsweep62/qsweep60 take gather's batch_dims at ranks
2-3):
- g-gather-batch-dims: tf.gather of params ranks 2-8 with batch_dims 0..rank-1 (and -1), indices of rank b..b+2,
  axis b and rank-1; batch_dims past the indices' rank or the axis; an index out of range; the params gradient;
  traced;
- g-gather-nd-batch-dims: tf.gather_nd of params ranks 3-8, batch_dims 0-3, index depth 1..rank-b and one past it;
  the params gradient; traced;
- g-scatter-dtypes: tensor_scatter_nd_update/add/sub/min/max and scatter_nd at depths 5-8 into ranks 7-8 in int32,
  int64, float64, float16, bfloat16, uint8, complex64, bool, with repeated indices for the combining ones, an index
  out of range, depth 9; the float32 gradients of both operands at depths 6-8; traced;
- g-scatter-variables: a variable's scatter_nd_update/add/sub/max/min and tf.compat.v1.scatter_nd_update/add/sub at
  depths 1-8 of a rank-8 variable (and rank 9), eager and inside a tf.function;
- gk-softmax-axes: softmax/log_softmax of ranks 1-8 at every axis (and one past), float32 and float64, values,
  gradients, traced (host-dependent: oneDNN's float32 softmax);
- gk-xent-axes: softmax_cross_entropy_with_logits of ranks 1-8 at every axis, float32/float64, both gradients;
- g-reduce-ranks: reduce_sum/prod/max/min/mean/any/all, argmax/argmin, cumsum/cumprod (exclusive, reverse) of ranks
  6-9 over every single axis, negative ones, pairs, None, keepdims; gradients of sum/mean/max/prod; traced;
- g-shape-ops-r<rank>: transpose (reversed and rotated perms, conjugate), tile, pad (CONSTANT/REFLECT/SYMMETRIC,
  constant_values), reverse, slice, strided_slice (negative strides, begin/end/ellipsis/new_axis/shrink masks),
  broadcast_to and add/maximum/where broadcasting at ranks 5-10: values, gradients or refusal classes, traced;
- g-dropout-noise: traced and eager dropout of x ranks 2-6 with noise shapes of lower, equal and higher rank, None
  entries, unknown dimensions: shapes, the kept value, the broadcast pattern of the mask and the gradient's agreement
  with it (not the draws themselves).

Inputs are quarters (sums exact) and, for products, powers of two: the bits follow the ops' rules, not a summation
order; softmax and its cross entropy are host-dependent (prefix gk-). `python -m
simdist.conformance.suite.test_gsweep63 --record` rewrites gsweep63_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "gsweep63_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("gk-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-third session ... gsweep63").
OPEN: dict[str, tuple[str, ...]] = {}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def cls(e: BaseException) -> str:
    return f"raised {type(e).__name__}"


def q(name: str, shape: tuple[int, ...], dt: str = "float32", lo: int = -8, hi: int = 8) -> np.ndarray:
    """Seeded quarters in [lo/4, hi/4] (sums of this sweep's sizes exact)."""
    return (rng(f"{name}/{shape}/{dt}").randint(lo, hi + 1, shape) / 4.0).astype(dt)


def p2(name: str, shape: tuple[int, ...], dt: str = "float32") -> np.ndarray:
    """Seeded signed powers of two in {0.5, 1, 2} (products of this sweep's sizes exact)."""
    r = rng(f"p2/{name}/{shape}")
    return (r.choice([-2.0, -1.0, -0.5, 0.5, 1.0, 2.0], shape)).astype(dt)


def up(tf: Any, name: str, shape: Any, dt: str) -> Any:
    """A seeded upstream gradient of eighths (exact products and sums)."""
    shape = tuple(int(s) for s in shape)
    return tf.constant((rng(f"up/{name}/{shape}").randint(-16, 17, shape) / 8.0).astype(dt))


def vb(t: Any) -> list[Any]:
    """bits, a complex tensor's as its real parts' then its imaginary parts'."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    if a.dtype.kind == "c":
        return bits(a.real) + bits(a.imag)
    return bits(a)


def gbits(tf: Any, g: Any) -> Any:
    if g is None:
        return None
    return vb(tf.convert_to_tensor(g))


def run(tf: Any, name: str, fn: Callable[..., Any], xs: list[Any], grad: bool = True, traced: bool = True,
        wrt: tuple[int, ...] | None = None) -> Any:
    """fn(*xs) eagerly (its dtype, shape and bits) and (grad) the gradients of the float operands `wrt` under a
    seeded upstream, and inside a tf.function; or the refusal's class."""
    out: dict[str, Any] = {}
    ts = [x if hasattr(x, "dtype") and not isinstance(x, np.ndarray) else tf.constant(x) for x in xs]
    idx = list(range(len(ts))) if wrt is None else list(wrt)
    try:
        with tf.GradientTape() as t:
            for i in idx:
                t.watch(ts[i])
            y = fn(*ts)
        out["y"] = [y.dtype.name, list(y.shape)] + vb(y)
        if grad:
            u = up(tf, name, tuple(y.shape), y.dtype.name)
            out["g"] = [gbits(tf, g) for g in t.gradient(y, [ts[i] for i in idx], output_gradients=u)]
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return cls(e)
    if traced:
        try:
            out["traced"] = vb(tf.function(fn)(*ts))
        except Exception as e:  # noqa: BLE001
            out["traced"] = cls(e)
    return out


def err(fn: Callable[[], Any]) -> Any:
    try:
        y = fn()
        return [y.dtype.name, list(y.shape)] + vb(y)
    except Exception as e:  # noqa: BLE001
        return cls(e)


def traced_err(tf: Any, fn: Callable[..., Any], xs: list[Any]) -> Any:
    try:
        return vb(tf.function(fn)(*[tf.constant(x) for x in xs]))
    except Exception as e:  # noqa: BLE001
        return cls(e)


# -- gather with batch_dims ----------------------------------------------------------------------------------------
def _gather_batch_dims(tf: Any) -> Any:
    out: dict[str, Any] = {}
    r = rng("g-gather-bd")
    for rank in range(2, 9):
        x = q("gbd", (2,) * rank)
        for b in list(range(0, rank)) + [-1]:
            bb = b if b >= 0 else rank - 1
            for extra in (0, 1, 2):
                if bb + extra > 8 or (rank > 5 and extra == 1):
                    continue
                ishape = (2,) * bb + (2,) * extra
                ix = r.randint(0, 2, ishape).astype("int32")
                for axis in sorted({bb, rank - 1}):
                    key = f"r{rank} b{b} i{len(ishape)} a{axis}"
                    out[key] = run(tf, key, lambda p, i, axis=axis, b=b: tf.gather(p, i, axis=axis, batch_dims=b),
                                   [x, ix], wrt=(0,), traced=(rank in (2, 5, 8)))
        ix = r.randint(0, 2, (2,) * min(rank, 3)).astype("int32")
        out[f"r{rank} b past indices"] = err(lambda: tf.gather(x, ix[0], batch_dims=min(rank, 3)))
        out[f"r{rank} b past axis"] = err(lambda: tf.gather(x, ix, axis=0, batch_dims=1))
        bad = np.full((2,) * min(rank - 1, 2), 2, "int32")
        out[f"r{rank} out of range"] = err(lambda: tf.gather(x, bad, batch_dims=1))
    return out


program("g-gather-batch-dims", _gather_batch_dims)


def _gather_nd_batch_dims(tf: Any) -> Any:
    out: dict[str, Any] = {}
    r = rng("g-gathernd-bd")
    for rank in range(3, 9):
        x = q("gndbd", (2,) * rank)
        for b in range(0, min(4, rank)):
            for d in range(1, rank - b + 2):
                ix = r.randint(0, 2, (2,) * b + (2, d)).astype("int32")
                key = f"r{rank} b{b} d{d}"
                out[key] = run(tf, key, lambda p, i, b=b: tf.gather_nd(p, i, batch_dims=b), [x, ix], wrt=(0,),
                               traced=(d in (1, rank - b, rank - b + 1)))
    return out


program("g-gather-nd-batch-dims", _gather_nd_batch_dims)


# -- scatter kernels by dtype at the deepest depths ----------------------------------------------------------------
def _scatter_dtypes(tf: Any) -> Any:
    out: dict[str, Any] = {}
    r = rng("g-scatter-dt")
    fns = (("update", tf.tensor_scatter_nd_update), ("add", tf.tensor_scatter_nd_add),
           ("sub", tf.tensor_scatter_nd_sub), ("min", tf.tensor_scatter_nd_min), ("max", tf.tensor_scatter_nd_max))
    for dt in ("int32", "int64", "float64", "float16", "bfloat16", "uint8", "complex64", "bool"):
        for rank in (7, 8):
            base = q("sdt", (2,) * rank, "float64", 0, 8)
            t = tf.cast(tf.constant(base), dt)
            for d in (5, 6, 7, 8):
                if d > rank:
                    continue
                ix = r.randint(0, 2, (3, d)).astype("int32")
                ix[2] = ix[0]   # repeated
                uniq = ix[:2]
                u = tf.cast(tf.constant(q("sdu", (3,) + (2,) * (rank - d), "float64", 0, 8)), dt)
                for name, fn in fns:
                    ii = uniq if name == "update" else ix
                    uu = u[:2] if name == "update" else u
                    out[f"{name} {dt} r{rank} d{d}"] = err(lambda fn=fn, ii=ii, uu=uu: fn(t, ii, uu))
                out[f"scatter_nd {dt} r{rank} d{d}"] = err(lambda: tf.scatter_nd(ix, u, [2] * rank))
        t9 = tf.cast(tf.zeros([2] * 9), dt)
        out[f"update {dt} d9"] = err(lambda: tf.tensor_scatter_nd_update(t9, [[1] * 9], tf.cast([3.0], dt)))
        out[f"add {dt} d9"] = err(lambda: tf.tensor_scatter_nd_add(t9, [[1] * 9], tf.cast([3.0], dt)))
        out[f"scatter_nd {dt} d9"] = err(lambda: tf.scatter_nd([[1] * 9], tf.cast([3.0], dt), [2] * 9))
        t7 = tf.cast(tf.zeros([2] * 7), dt)
        out[f"add {dt} d7 out of range"] = err(lambda: tf.tensor_scatter_nd_add(t7, [[1] * 6 + [2]],
                                                                               tf.cast([3.0], dt)))
    return out


program("g-scatter-dtypes", _scatter_dtypes)


def _scatter_grads(tf: Any) -> Any:
    out: dict[str, Any] = {}
    r = rng("g-scatter-grad")
    fns = (("update", tf.tensor_scatter_nd_update), ("add", tf.tensor_scatter_nd_add),
           ("sub", tf.tensor_scatter_nd_sub), ("min", tf.tensor_scatter_nd_min), ("max", tf.tensor_scatter_nd_max))
    for rank in (6, 7, 8):
        t = q("sg", (2,) * rank)
        for d in range(max(1, rank - 3), rank + 1):
            ix = r.randint(0, 2, (2, d)).astype("int32")
            ix[1, 0] = 1 - ix[0, 0]
            u = q("sgu", (2,) + (2,) * (rank - d))
            for name, fn in fns:
                key = f"{name} r{rank} d{d}"
                out[key] = run(tf, key, lambda a, uu, fn=fn, ix=ix: fn(a, ix, uu), [t, u],
                               traced=(d in (6, 7)))
            key = f"scatter_nd r{rank} d{d}"
            out[key] = run(tf, key, lambda uu, ix=ix, rank=rank: tf.scatter_nd(ix, uu, [2] * rank), [u],
                           traced=(d in (6, 7)))
    return out


program("g-scatter-grads", _scatter_grads)


def _scatter_variables(tf: Any) -> Any:
    out: dict[str, Any] = {}
    r = rng("g-scatter-var")
    for rank in (8, 9):
        base = q("sv", (2,) * rank)
        for d in range(1, rank + 1):
            if rank == 9 and d not in (1, 8, 9):
                continue
            ix = r.randint(0, 2, (2, d)).astype("int32")
            ix[1, 0] = 1 - ix[0, 0]
            u = q("svu", (2,) + (2,) * (rank - d))
            for name in ("update", "add", "sub", "max", "min"):
                def eager(name: str = name) -> Any:
                    v = tf.Variable(base)
                    getattr(v, f"scatter_nd_{name}")(ix, u)
                    return v.read_value()
                out[f"var.{name} r{rank} d{d}"] = err(eager)
            for name in ("update", "add", "sub"):
                def compat(name: str = name) -> Any:
                    v = tf.Variable(base)
                    getattr(tf.compat.v1, f"scatter_nd_{name}")(v, ix, u)
                    return v.read_value()
                out[f"compat.{name} r{rank} d{d}"] = err(compat)
            if d in (1, 6, 7, 8, 9):
                v = tf.Variable(base)

                @tf.function
                def f(uu: Any) -> Any:
                    v.scatter_nd_add(ix, uu)
                    v.scatter_nd_max(ix, uu * 0.5)
                    tf.compat.v1.scatter_nd_sub(v, ix, uu * 0.25)
                    return v.read_value()
                out[f"traced r{rank} d{d}"] = err(lambda: f(tf.constant(u)))
    return out


program("g-scatter-variables", _scatter_variables)


# -- softmax and its cross entropy at every rank and axis ----------------------------------------------------------
def _shape(rank: int) -> tuple[int, ...]:
    return tuple((2, 3, 1, 2)[i % 4] for i in range(rank))


def _softmax_axes(tf: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for rank in range(1, 9):
            x = q("sm", _shape(rank), dt)
            for axis in range(-rank, rank + 1):
                for name, fn in (("softmax", tf.nn.softmax), ("log_softmax", tf.nn.log_softmax)):
                    key = f"{name} {dt} r{rank} a{axis}"
                    out[key] = run(tf, key, lambda v, fn=fn, axis=axis: fn(v, axis=axis), [x],
                                   traced=(axis in (0, -1, rank)))
    return out


program("gk-softmax-axes", _softmax_axes)


def _xent_axes(tf: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in ("float32", "float64"):
        for rank in range(1, 9):
            x = q("xe", _shape(rank), dt)
            lab = q("xl", _shape(rank), dt, 0, 4)
            for axis in range(-rank, rank + 1):
                key = f"xent {dt} r{rank} a{axis}"
                out[key] = run(tf, key, lambda lb, lg, axis=axis: tf.nn.softmax_cross_entropy_with_logits(
                    labels=lb, logits=lg, axis=axis), [lab, x], traced=(axis in (0, -1, rank)))
    return out


program("gk-xent-axes", _xent_axes)


# -- reductions at ranks 6-9 ---------------------------------------------------------------------------------------
def _reduce_ranks(tf: Any) -> Any:
    out: dict[str, Any] = {}
    for rank in (6, 7, 8, 9):
        shape = tuple((2, 1, 3, 2)[i % 4] for i in range(rank))
        x = q("rd", shape)
        xp = p2("rd", shape)
        xi = q("rdi", shape, "float64", -8, 8).astype("int32")
        xb = (xi > 0)
        axes: list[Any] = [None] + list(range(-rank, rank)) + [[0, rank - 1], [1, 3], [-1, -2, 0], list(range(rank))]
        for ax in axes:
            a = f"{ax}".replace(" ", "")
            for kd in (False, True):
                if kd and not (ax is None or isinstance(ax, list) or ax in (0, -1)):
                    continue
                for name, fn, v in (("sum", tf.reduce_sum, x), ("prod", tf.reduce_prod, xp),
                                    ("max", tf.reduce_max, x), ("min", tf.reduce_min, x),
                                    ("mean", tf.reduce_mean, x), ("isum", tf.reduce_sum, xi),
                                    ("imax", tf.reduce_max, xi), ("imean", tf.reduce_mean, xi),
                                    ("any", tf.reduce_any, xb), ("all", tf.reduce_all, xb)):
                    key = f"{name} r{rank} a{a} k{int(kd)}"
                    g = name in ("sum", "prod", "max", "mean") and (ax is None or isinstance(ax, list) or ax in (0, 2, -1))
                    if g:
                        out[key] = run(tf, key, lambda t, fn=fn, ax=ax, kd=kd: fn(t, axis=ax, keepdims=kd), [v],
                                       traced=(rank in (6, 9)))
                    else:
                        out[key] = err(lambda fn=fn, v=v, ax=ax, kd=kd: fn(v, axis=ax, keepdims=kd))
        out[f"sum r{rank} axis past"] = err(lambda: tf.reduce_sum(x, axis=rank))
        for ax in range(-rank, rank + 1):
            out[f"argmax r{rank} a{ax}"] = err(lambda ax=ax: tf.math.argmax(x, axis=ax))
            out[f"argmin r{rank} a{ax}"] = err(lambda ax=ax: tf.math.argmin(xi, axis=ax, output_type=tf.int32))
            for ex in (False, True):
                for rv in (False, True):
                    key = f"cumsum r{rank} a{ax} e{int(ex)} r{int(rv)}"
                    if ax in (0, -1, 2):
                        out[key] = run(tf, key, lambda t, ax=ax, ex=ex, rv=rv: tf.cumsum(t, axis=ax, exclusive=ex,
                                                                                       reverse=rv), [x],
                                       traced=(rank == 9 and ex == rv))
                    else:
                        out[key] = err(lambda ax=ax, ex=ex, rv=rv: tf.cumsum(x, axis=ax, exclusive=ex, reverse=rv))
                    out[f"cumprod r{rank} a{ax} e{int(ex)} r{int(rv)}"] = err(
                        lambda ax=ax, ex=ex, rv=rv: tf.math.cumprod(xp, axis=ax, exclusive=ex, reverse=rv))
    return out


program("g-reduce-ranks", _reduce_ranks)


# -- shape ops and broadcasting at ranks 5-10 ----------------------------------------------------------------------
def _shape_ops(rank: int) -> Callable[[Any], Any]:
    def prog(tf: Any) -> Any:
        out: dict[str, Any] = {}
        shape = tuple((2, 1, 3)[i % 3] if i < 6 else (2, 1)[i % 2] for i in range(rank))
        x = q(f"so{rank}", shape)
        tr = rank in (5, 8, 9)

        def c(key: str, fn: Callable[..., Any], xs: list[Any], grad: bool = True) -> None:
            if rank > 8 and "strided" in key:
                # (TF 2.21's StridedSliceGrad of rank > 8 leaves its output unwritten — the input's gradient is
                # whatever memory held, observed: 1.3e-19, 4.6e-41, ... — so only the forward values are compared)
                grad = False
            out[key] = run(tf, f"{rank} {key}", fn, xs, grad=grad, traced=tr)
        rev = list(range(rank))[::-1]
        rot = list(range(1, rank)) + [0]
        c("transpose rev", lambda t: tf.transpose(t, rev), [x])
        c("transpose rot", lambda t: tf.transpose(t, rot), [x])
        xc = (q(f"soc{rank}", shape, "float32") + 1j * q(f"soci{rank}", shape, "float32")).astype("complex64")
        out["transpose conj"] = err(lambda: tf.transpose(tf.constant(xc), rot, conjugate=True))
        out["transpose short perm"] = err(lambda: tf.transpose(x, rot[:-1]))
        c("tile", lambda t: tf.tile(t, [2 if i in (0, rank - 1) else 1 for i in range(rank)]), [x])
        c("tile ones", lambda t: tf.tile(t, [1] * rank), [x])
        pads = [[i % 2, (i + 1) % 2] for i in range(rank)]
        for mode in ("CONSTANT", "REFLECT", "SYMMETRIC", "constant", "reflect"):
            pp = [[min(a, 0) if shape[i] == 1 and mode.upper() == "REFLECT" else a,
                   min(b, 0) if shape[i] == 1 and mode.upper() == "REFLECT" else b] for i, (a, b) in enumerate(pads)]
            c(f"pad {mode}", lambda t, mode=mode, pp=pp: tf.pad(t, pp, mode=mode), [x])
        c("pad constant_values", lambda t: tf.pad(t, pads, constant_values=1.5), [x])
        out["pad REFLECT too wide"] = err(lambda: tf.pad(x, [[0, 0]] * (rank - 1) + [[shape[-1], 0]], mode="REFLECT"))
        for axes in ([0], [rank - 1], [0, 2, rank - 1], list(range(rank)), [-1, -3]):
            c(f"reverse {axes}", lambda t, axes=axes: tf.reverse(t, axes), [x])
        c("slice", lambda t: tf.slice(t, [1 if s == 2 else 0 for s in shape], [-1] * rank), [x])
        c("slice sizes", lambda t: tf.slice(t, [0] * rank, [1 if s > 1 else -1 for s in shape]), [x])
        c("strided rev", lambda t: t[::-1], [x])
        c("strided neg stride all", lambda t: tf.strided_slice(t, [-1] * rank, [-10] * rank, [-1] * rank), [x])
        c("strided masks", lambda t: tf.strided_slice(t, [1] * rank, [2] * rank, [1] * rank,
                                                       begin_mask=0b101, end_mask=0b110), [x])
        c("strided ellipsis", lambda t: t[1:, ..., ::-1], [x])
        c("strided new axis", lambda t: t[:, tf.newaxis, ..., tf.newaxis], [x])
        c("strided shrink", lambda t: t[1, ..., 0], [x])
        c("strided shrink mask", lambda t: tf.strided_slice(t, [0] * rank, [1] * rank, [1] * rank,
                                                             shrink_axis_mask=(1 << rank) - 1), [x])
        c("expand then strided", lambda t: tf.expand_dims(t, 0)[0, ..., ::2], [x])
        big = tuple(2 if s == 1 else s for s in shape)
        c("broadcast_to", lambda t: tf.broadcast_to(t, [2] + list(big)), [x])
        c("broadcast_to same rank", lambda t: tf.broadcast_to(t, big), [x])
        y = q(f"sob{rank}", tuple(1 if i % 2 else s for i, s in enumerate(shape[:-1])) + (shape[-1],))
        c("add broadcast", lambda a, b: a + b, [x, y])
        c("maximum broadcast", lambda a, b: tf.maximum(a, b), [x, y])
        c("mul lower rank", lambda a, b: a * b, [x, q(f"sol{rank}", (shape[-1],))])
        c("where broadcast", lambda a, b: tf.where(a > 0, a, b), [x, y])
        z = q(f"soz{rank}", (2,) + (1,) * rank)
        c("add to rank+1", lambda a, b: a + b, [x, z])
        return out
    return prog


for _r in (5, 6, 7, 8, 9, 10):
    program(f"g-shape-ops-r{_r}", _shape_ops(_r))


# -- dropout's noise shapes ----------------------------------------------------------------------------------------
def _dropout_noise(tf: Any) -> Any:
    out: dict[str, Any] = {}
    # (TF 2.21 keeps an eager random op's stream per op seed for the whole process: without a global seed set here,
    # dropout(seed=7)'s draws depend on what ran before in the process — the CI profile's slice failed on them)
    tf.random.set_seed(63)

    def obs(x: Any, y: Any, ns: Any) -> Any:
        """The shape, the values kept (x is ones) and whether y is constant along each axis noise_shape leaves 1."""
        yv = np.asarray(y.numpy())
        res: list[Any] = [list(y.shape), sorted({float(v).hex() for v in yv.ravel()})]
        if ns is not None and len(ns) == yv.ndim:
            res.append([bool(np.all(yv == yv.take([0], axis=i))) for i, n in enumerate(ns) if n == 1])
        return res
    for rank in (2, 3, 4, 5, 6):
        shape = tuple(2 + (i % 2) for i in range(rank))
        x = np.ones(shape, "float32")
        forms = {
            "lower": list(shape[1:]), "equal": list(shape), "equal ones": [shape[0]] + [1] * (rank - 1),
            "higher": [1] + list(shape), "equal None": [None] + [1] * (rank - 1), "all None": [None] * rank,
            "lower None": [None] * (rank - 1), "higher None": [None] * (rank + 1), "wrong dim": [5] * rank,
            "last 1": list(shape[:-1]) + [1],
        }
        for fname, ns in forms.items():
            def eager(ns: Any = ns) -> Any:
                with tf.GradientTape() as t:
                    xt = tf.constant(x)
                    t.watch(xt)
                    y = tf.nn.dropout(xt, 0.5, noise_shape=ns, seed=7)
                g = t.gradient(y, xt)
                return obs(x, y, ns) + [bool(np.array_equal(np.asarray(g.numpy()), np.asarray(y.numpy())))]
            out[f"r{rank} {fname} eager"] = _safe(eager)
            f = tf.function(lambda v, ns=ns: tf.nn.dropout(v, 0.5, noise_shape=ns, seed=7))
            out[f"r{rank} {fname} traced"] = _safe(lambda f=f, ns=ns: obs(x, f(tf.constant(x)), ns))
            g = tf.function(lambda v, ns=ns: tf.nn.dropout(v, 0.5, noise_shape=ns, seed=7),
                            input_signature=[tf.TensorSpec([None] * rank, tf.float32)])
            out[f"r{rank} {fname} unknown dims"] = _safe(lambda g=g, ns=ns: obs(x, g(tf.constant(x)), ns))
            h = tf.function(lambda v, ns=ns: tf.nn.dropout(v, 0.5, noise_shape=ns, seed=7),
                            input_signature=[tf.TensorSpec(None, tf.float32)])
            out[f"r{rank} {fname} unknown rank"] = _safe(lambda h=h, ns=ns: obs(x, h(tf.constant(x)), ns))

            def static(ns: Any = ns) -> Any:
                res: list[Any] = []

                @tf.function
                def k(v: Any) -> Any:
                    res.append(str(tf.nn.dropout(v, 0.5, noise_shape=ns, seed=7).shape))
                    return v
                k(tf.constant(x))
                return res
            out[f"r{rank} {fname} static shape"] = _safe(static)
    return out


def _safe(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001
        return cls(e)


program("g-dropout-noise", _dropout_noise)
