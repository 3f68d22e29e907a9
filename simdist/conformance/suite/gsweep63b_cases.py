"""The array/nn ops' options no sweep crossed, by rule (sixty-third session, fix63g; test_gsweep63b.py): the classes of
gsweep63's 95 surviving catalogue mutants (docs/conformance.md, "Sixty-third session ... (fix63g)"), values and
gradients bit for bit against TF 2.21's recorded results, refusals by their exception class.

What is crossed:
- gbh-act-*: relu, relu6, elu, selu, gelu (exact and approximate), softplus, softsign, silu (beta 1, 0.5 and a watched
  beta), sigmoid, tanh, leaky_relu (alpha 0.2 and 0.3), erfc at 0, -0.0, +-inf, NaN, 6 and ordinary values in float32
  and float64: values, the first-order gradient under a seeded upstream and the second-order gradients with respect
  to both the input and the upstream (nested tapes);
- gbh-softmax-*: softmax/log_softmax of float16/bfloat16/float32 rows of lengths 1-40 with +-inf and NaN entries;
  sparse and dense softmax cross entropy in float16 and float32 (int16 labels, the label equal to the class count),
  their first- and second-order gradients under a non-unit upstream;
- gbh-loss-*: l2_loss (float16/float32/float64, sizes 0-70) and its gradient, sigmoid and weighted cross entropy at
  the logits' signs, compute_average_loss (sample weights of rank one below and one above, global_batch_size 0, 3
  and omitted, inside a two-replica strategy) and scale_regularization_loss in and out of a strategy;
- gb-nn-*: bias_add in NC.../N...C formats at ranks 3-5, its gradients and second-order gradients; dropout with rate
  0, 1, 0.999 and stateless dropout in float16/float64; embedding_lookup's max_norm of rank-3 params;
- gb-red-*: cumsum/cumprod/cumulative_logsumexp gradients under every exclusive x reverse, argmax/argmin with NaN and
  no axis, euclidean_norm's gradient with keepdims, reduce_variance of offset values, complex reduce_prod and its
  gradient, float32 cumsum of mixed magnitudes, a vector scan axis;
- gb-arr-*: concat/stack/unstack/split gradients off axis 0 (equal and unequal pieces, IndexedSlices into concat),
  gather's gradient at negative axes with int16/int32/int64 indices, gather_nd's gradient's type, the argument checks
  of transpose/unstack/concat/split/stack/squeeze/broadcast_to/tile/slice/tensor_scatter_nd_*/segment sums, zeros_like
  dtype, range of float and mixed arguments, unsorted_segment_sum with rank-2 ids and negative ids.

Inputs are literal edge values or seeded quarters (sums exact). gbh- programs (transcendental float kernels, oneDNN's
softmax) are host-dependent. `python -m simdist.conformance.suite.test_gsweep63b --record` rewrites
gsweep63b_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.gsweep63_cases import cls, q, up, vb
from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "gsweep63b_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("gbh-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-third session ... fix63g").
OPEN: dict[str, tuple[str, ...]] = {
    # weighted_cross_entropy_with_logits's second-order gradients (pos_weight 0.5 and 3.0): one entry of the logits'
    # or the upstream's second-order gradient one ulp off TF 2.21's in float16, float32 and float64 alike (float64
    # too: the order in which the tape adds the composed expression's gradient contributions, not a kernel's
    # rounding); first-order gradients and values agree (/work/wt/fix63g_logs/cmp.out).
    "gbh-loss-elementwise": tuple(f"weighted-xent-{dt}-{pw}/gg" for dt, pw in (
        ("float16", 0.5), ("float32", 0.5), ("float32", 3.0), ("float64", 0.5), ("float64", 3.0))),
}

EDGE = [0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 2.0, -3.0, 6.0, 7.5, -6.0, 20.0, -20.0, float("inf"), float("-inf"),
        float("nan")]


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def program_mk(name: str, fn: Callable[[Any, Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf, mk))), OPEN)))


def ev(fn: Callable[[], Any]) -> Any:
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return cls(e)


def g_of(tf: Any, g: Any) -> Any:
    """A gradient's kind (dense or IndexedSlices) and bits."""
    if g is None:
        return None
    if type(g).__name__ == "IndexedSlices":
        return ["IndexedSlices", vb(g.values), vb(g.indices), [int(d) for d in g.dense_shape]]
    return ["dense", vb(g)]


def orders(tf: Any, name: str, f: Callable[..., Any], xs: list[Any], second: bool = True) -> Any:
    """f(*xs)'s bits, the gradients of every operand under a seeded upstream u, and (second) the gradients of those
    first-order gradients' sum with respect to the operands and u (nested tapes)."""
    ts = [tf.constant(x) if isinstance(x, np.ndarray) else x for x in xs]
    out: dict[str, Any] = {}
    try:
        with tf.GradientTape(persistent=True) as t2:
            with tf.GradientTape() as t1:
                for t in ts:
                    t1.watch(t)
                    t2.watch(t)
                y = f(*ts)
            u = up(tf, name, tuple(y.shape), y.dtype.name)
            t2.watch(u)
            gs = t1.gradient(y, ts, output_gradients=u)
            gsum = [g for g in gs if g is not None]
            total = tf.add_n([tf.reduce_sum(g * tf.cast(1.5, g.dtype)) for g in gsum]) if gsum else None
        out["y"] = [y.dtype.name, list(y.shape)] + vb(y)
        out["g"] = [g_of(tf, g) for g in gs]
        if second and total is not None:
            out["gg"] = ev(lambda: [g_of(tf, g) for g in t2.gradient(total, ts + [u])])
    except Exception as e:  # noqa: BLE001
        return cls(e)
    return out


# ---------------------------------------------------------------------------------------------------------- activations
ACTS: dict[str, Callable[[Any], Callable[..., Any]]] = {
    "relu": lambda tf: tf.nn.relu,
    "relu6": lambda tf: tf.nn.relu6,
    "elu": lambda tf: tf.nn.elu,
    "selu": lambda tf: tf.nn.selu,
    "gelu": lambda tf: lambda x: tf.nn.gelu(x, approximate=False),
    "gelu-approx": lambda tf: lambda x: tf.nn.gelu(x, approximate=True),
    "softplus": lambda tf: tf.nn.softplus,
    "softsign": lambda tf: tf.nn.softsign,
    "silu": lambda tf: tf.nn.silu,
    "silu-half-beta": lambda tf: lambda x: tf.nn.silu(x, beta=0.5),
    "sigmoid": lambda tf: tf.math.sigmoid,
    "tanh": lambda tf: tf.math.tanh,
    "leaky-relu": lambda tf: tf.nn.leaky_relu,
    "leaky-relu-0.3": lambda tf: lambda x: tf.nn.leaky_relu(x, alpha=0.3),
    "erfc": lambda tf: tf.math.erfc,
}


def _act(act: str, dt: str) -> Callable[[Any], Any]:
    def f(tf: Any) -> Any:
        x = np.array(EDGE + list(q(f"act/{act}", (9,))), dtype=dt)
        out = {"edge": orders(tf, f"act/{act}/{dt}", ACTS[act](tf), [x])}
        out["traced"] = ev(lambda: vb(tf.function(ACTS[act](tf))(tf.constant(x))))
        return out
    return f


for _a in ACTS:
    for _dt in ("float32", "float64"):
        program(f"gbh-act-{_a}-{_dt}", _act(_a, _dt))


def _silu_beta(tf: Any) -> Any:
    out = {}
    for dt in ("float32", "float64"):
        x = np.array(EDGE[:13] + list(q("silu-beta", (7,))), dtype=dt)
        for beta in (0.5, 1.0, 2.0):
            out[f"{dt}/{beta}"] = orders(tf, f"silu-beta/{dt}", lambda x, b: tf.nn.silu(x, beta=b),
                                         [x, tf.constant(beta, dt)])
    return out


program("gbh-act-silu-watched-beta", _silu_beta)


def _signed_zeros(tf: Any) -> Any:
    """relu/relu6/leaky_relu/elu of -0.0 and small negatives in packets and tails of every float dtype."""
    out = {}
    for dt in ("float16", "bfloat16", "float32", "float64"):
        for n in (1, 3, 4, 8, 9, 17):
            x = np.array([(-0.0, 0.0, -0.25, 0.5)[i % 4] for i in range(n)], "float32")
            xt = tf.cast(tf.constant(x), dt)
            for op in ("relu", "relu6", "leaky_relu", "elu"):
                fn = getattr(tf.nn, op)
                out[f"{dt}-{n}-{op}"] = ev(lambda: vb(tf.cast(fn(xt), "float32")))
    return out


program("gbh-act-signed-zeros", _signed_zeros)


RAW_GRADS = {"SoftplusGrad": ("gradients", "features"), "SoftsignGrad": ("gradients", "features"),
             "ReluGrad": ("gradients", "features"), "Relu6Grad": ("gradients", "features"),
             "EluGrad": ("gradients", "outputs"), "SeluGrad": ("gradients", "outputs"),
             "LeakyReluGrad": ("gradients", "features"), "SigmoidGrad": ("y", "dy"), "TanhGrad": ("y", "dy")}


def _raw_grads(tf: Any) -> Any:
    """The activation-gradient raw ops (reached by no public gradient for SoftplusGrad) at edge values: values and
    their gradients with respect to both operands."""
    out = {}
    for dt in ("float32", "float64"):
        a = np.array(EDGE + list(q("rg-a", (9,))), dt)
        b = np.array(list(q("rg-b", (16,))) + list(q("rg-c", (9,))), dt)
        for op, (n1, n2) in RAW_GRADS.items():
            fn = getattr(tf.raw_ops, op)
            extra = {"alpha": 0.3} if op == "LeakyReluGrad" else {}
            f = lambda x, y: fn(**{n1: x, n2: y}, **extra)  # noqa: E731
            out[f"{op}-{dt}"] = orders(tf, f"rg/{op}/{dt}", f, [b, a], second=False) if op != "SoftsignGrad" else ev(
                lambda: vb(f(tf.constant(b), tf.constant(a))))
    return out


program("gbh-act-raw-grads", _raw_grads)


# ------------------------------------------------------------------------------------------------------------- softmax
def _softmax_rows(tf: Any) -> Any:
    out = {}
    for dt in ("float16", "bfloat16", "float32"):
        for n in (1, 2, 3, 7, 8, 9, 15, 16, 17, 33, 40):
            x = q(f"sm/{n}", (3, n), "float32", -24, 24)
            x[1, 0] = np.inf
            if n > 1:
                x[2, n // 2] = np.nan
            xt = tf.cast(tf.constant(x), dt)
            for op in ("softmax", "log_softmax"):
                fn = getattr(tf.nn, op)
                out[f"{dt}/{n}/{op}"] = ev(lambda: vb(tf.cast(fn(xt), "float32")))
            ok = tf.cast(tf.constant(q(f"smg/{n}", (4, n), "float32", -24, 24)), dt)
            out[f"{dt}/{n}/grad"] = orders(tf, f"sm/{dt}/{n}", lambda a: tf.nn.softmax(a), [ok], second=False)
    return out


program("gbh-softmax-rows", _softmax_rows)


def _xent(tf: Any) -> Any:
    out = {}
    for dt in ("float16", "float32", "float64"):
        for n in (1, 3, 8, 17):
            logits = tf.cast(tf.constant(q(f"xe/{n}", (5, n), "float32", -16, 16)), dt)
            lab = rng(f"xl/{n}").randint(0, n, (5,))
            for ldt in ("int32", "int64"):
                labt = tf.constant(lab.astype(ldt))
                out[f"sparse/{dt}/{n}/{ldt}"] = orders(
                    tf, f"xs/{dt}/{n}", lambda a: tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labt, logits=a),
                    [logits])
            dense = tf.cast(tf.constant(q(f"xd/{n}", (5, n), "float32", 0, 4) / 2.0), dt)
            out[f"dense/{dt}/{n}"] = orders(
                tf, f"xd/{dt}/{n}", lambda a, b: tf.nn.softmax_cross_entropy_with_logits(labels=b, logits=a),
                [logits, dense])
    for dt in ("float16", "bfloat16"):
        for n in (2, 5, 10, 33):
            lg = tf.cast(tf.constant(rng(f"xw/{n}").uniform(-4.0, 4.0, (48, n)).astype("float32")), dt)
            lb = rng(f"xwl/{n}").uniform(0.0, 1.0, (48, n))
            lbt = tf.cast(tf.constant((lb / lb.sum(axis=1, keepdims=True)).astype("float32")), dt)
            out[f"wide-dense/{dt}/{n}"] = orders(tf, f"xw/{dt}/{n}", lambda a: tf.nn.softmax_cross_entropy_with_logits(
                labels=lbt, logits=a), [lg], second=False)
            li = tf.constant(rng(f"xwi/{n}").randint(0, n, (48,)).astype("int32"))
            out[f"wide-sparse/{dt}/{n}"] = orders(tf, f"xws/{dt}/{n}", lambda a: (
                tf.nn.sparse_softmax_cross_entropy_with_logits(labels=li, logits=a)), [lg], second=False)
    logits = tf.constant(q("xe-bad", (3, 4)))
    for name, lab in (("int16", np.array([0, 1, 2], "int16")), ("upper", np.array([0, 4, 1], "int32")),
                      ("minus", np.array([0, -1, 1], "int32")), ("last", np.array([3, 3, 0], "int64"))):
        out[f"labels-{name}"] = ev(lambda: vb(tf.nn.sparse_softmax_cross_entropy_with_logits(
            labels=tf.constant(lab), logits=logits)))
    return out


program("gbh-softmax-xent", _xent)


def _raw_half_xent(tf: Any) -> Any:
    """The cross-entropy raw ops in float16/bfloat16 (tf.nn's functions cast half logits to float32 first, so only
    the raw ops reach the half kernels): loss and backprop."""
    out = {}
    for dt in ("float16", "bfloat16", "float32"):
        for n in (2, 10, 33):
            lg = tf.cast(tf.constant(rng(f"xw/{n}").uniform(-4.0, 4.0, (48, n)).astype("float32")), dt)
            lb = rng(f"xwl/{n}").uniform(0.0, 1.0, (48, n))
            lbt = tf.cast(tf.constant((lb / lb.sum(axis=1, keepdims=True)).astype("float32")), dt)
            out[f"dense/{dt}/{n}"] = ev(lambda: [vb(tf.cast(r, "float32")) for r in
                                                 tf.raw_ops.SoftmaxCrossEntropyWithLogits(features=lg, labels=lbt)])
            li = tf.constant(rng(f"xwi/{n}").randint(0, n, (48,)).astype("int32"))
            out[f"sparse/{dt}/{n}"] = ev(lambda: [vb(tf.cast(r, "float32")) for r in
                                                  tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=lg,
                                                                                                 labels=li)])
    return out


program("gbh-softmax-raw-half-xent", _raw_half_xent)


# -------------------------------------------------------------------------------------------------------------- losses
def _losses(tf: Any) -> Any:
    out = {}
    for dt in ("float16", "float32", "float64"):
        for n in (0, 1, 2, 7, 16, 17, 33, 70):
            x = q(f"l2/{n}", (n,), dt, -40, 40)
            out[f"l2/{dt}/{n}"] = orders(tf, f"l2/{dt}/{n}", tf.nn.l2_loss, [x]) if n else ev(
                lambda: vb(tf.nn.l2_loss(tf.constant(x))))
        for n in (9, 33, 100, 257, 1000, 4099):   # (float16's 1000 and 4099: Eigen's LeafSize<half>, fix66c)
            x = rng(f"l2u/{n}").uniform(-3.0, 3.0, (n,)).astype(dt)
            out[f"l2-inexact/{dt}/{n}"] = orders(tf, f"l2u/{dt}/{n}", tf.nn.l2_loss, [x], second=False)
            x2 = rng(f"l2u2/{n}").uniform(-3.0, 3.0, (3, n)).astype(dt)
            out[f"l2-inexact-2d/{dt}/{n}"] = ev(lambda: vb(tf.nn.l2_loss(tf.constant(x2))))
        lg = np.array([-3.0, -1.0, -0.0, 0.0, 0.5, 2.0, 20.0, -20.0], dt)
        lb = np.array([0.0, 1.0, 1.0, 0.0, 0.25, 1.0, 0.0, 1.0], dt)
        out[f"sigmoid-xent/{dt}"] = orders(
            tf, f"sx/{dt}", lambda a, b: tf.nn.sigmoid_cross_entropy_with_logits(labels=b, logits=a), [lg, lb])
        for pw in (0.5, 1.0, 3.0):
            out[f"weighted-xent-{dt}-{pw}"] = orders(
                tf, f"wx/{dt}", lambda a, b: tf.nn.weighted_cross_entropy_with_logits(labels=b, logits=a, pos_weight=pw),
                [lg, lb])
    return out


program("gbh-loss-elementwise", _losses)


def _average(tf: Any, mk: Any) -> Any:
    out = {}
    pel = tf.constant(q("cal", (4, 3)))
    pel1 = tf.constant(q("cal1", (4,)))
    w1 = tf.constant(q("calw", (4,), lo=0))
    w3 = tf.constant(q("calw3", (4, 3, 1), lo=0))
    w2 = tf.constant(q("calw2", (4, 3), lo=0))

    def cases(pref: str) -> None:
        f = tf.nn.compute_average_loss
        out[f"{pref}/plain"] = ev(lambda: vb(f(pel)))
        out[f"{pref}/rank1"] = ev(lambda: vb(f(pel1)))
        out[f"{pref}/w-below"] = ev(lambda: vb(f(pel, sample_weight=w1)))
        out[f"{pref}/w-above"] = ev(lambda: vb(f(pel, sample_weight=w3)))
        out[f"{pref}/w-same"] = ev(lambda: vb(f(pel, sample_weight=w2)))
        out[f"{pref}/w-scalar"] = ev(lambda: vb(f(pel, sample_weight=2.0)))
        for g in (0, 3, 8):
            out[f"{pref}/gbs{g}"] = ev(lambda: vb(f(pel, global_batch_size=g)))
        out[f"{pref}/gbs-neg"] = ev(lambda: vb(f(pel, global_batch_size=-1)))
        for gk, gv in (("t0", lambda: tf.constant(0)), ("t0-64", lambda: tf.constant(0, "int64")),
                       ("t3", lambda: tf.constant(3)), ("t-2", lambda: tf.constant(-2)),
                       ("tf3", lambda: tf.constant(3.0)), ("tvec", lambda: tf.constant([3]))):
            out[f"{pref}/gbs-{gk}"] = ev(lambda: vb(f(pel, global_batch_size=gv())))
        out[f"{pref}/reg"] = ev(lambda: vb(tf.nn.scale_regularization_loss(tf.constant(3.0))))
        out[f"{pref}/reg-list"] = ev(lambda: vb(tf.nn.scale_regularization_loss([tf.constant(3.0), tf.constant(1.5)])))
    cases("default")
    s = mk()

    def step() -> Any:
        got: dict[str, Any] = {}
        f = tf.nn.compute_average_loss
        got["plain"] = f(pel)
        got["w-below"] = f(pel, sample_weight=w1)
        got["w-above"] = f(pel, sample_weight=w3)
        got["gbs0"] = f(pel, global_batch_size=0)
        got["gbs3"] = f(pel, global_batch_size=3)
        got["reg"] = tf.nn.scale_regularization_loss(tf.constant(3.0))
        return got

    try:
        res = s.run(step)
        for k, v in res.items():
            out[f"strategy/{k}"] = [vb(t) for t in s.experimental_local_results(v)]
    except Exception as e:  # noqa: BLE001
        out["strategy"] = cls(e)
    return out


program_mk("gbh-loss-average", _average)


# ------------------------------------------------------------------------------------------------------------------ nn
def _bias_add(tf: Any) -> Any:
    out = {}
    for rank, fmts in ((3, ("NWC", "NCW", None)), (4, ("NHWC", "NCHW", None)), (5, ("NDHWC", "NCDHW", None))):
        shape = (2, 3) + (2,) * (rank - 2)
        x = q(f"ba/{rank}", shape)
        for fmt in fmts:
            c = 3 if fmt and fmt.startswith("NC") else 2
            b = q(f"bb/{rank}/{c}", (c,))
            out[f"{rank}/{fmt}"] = orders(tf, f"ba/{rank}/{fmt}",
                                          lambda a, bb: tf.nn.bias_add(a, bb, data_format=fmt), [x, b])
    x2 = q("ba2", (3, 4))
    out["rank2-NC"] = ev(lambda: vb(tf.nn.bias_add(x2, q("bb2", (4,)), data_format="NCHW")))
    out["rank2-NC3"] = ev(lambda: vb(tf.nn.bias_add(x2, q("bb23", (3,)), data_format="NCHW")))
    return out


program("gb-nn-bias-add", _bias_add)


def _dropout(tf: Any) -> Any:
    out = {}
    x = tf.constant(q("do", (4, 8)) + 3.0)
    for rate in (0.0, 1.0, 0.999, -0.1, 1.5):
        out[f"rate{rate}"] = ev(lambda: [list(r.shape) for r in [tf.nn.dropout(x, rate=rate, seed=3)]])
        out[f"rate{rate}/zero-vals"] = ev(lambda: vb(tf.nn.dropout(x, rate=rate, seed=3)) if rate == 0.0 else "n/a")
        out[f"stateless{rate}"] = ev(lambda: vb(tf.nn.experimental.stateless_dropout(x, rate=rate, seed=[1, 2])))
    for dt in ("float16", "float64", "bfloat16"):
        xd = tf.cast(x, dt)
        out[f"stateless/{dt}"] = ev(lambda: vb(tf.cast(tf.nn.experimental.stateless_dropout(
            xd, rate=0.5, seed=[1, 2]), "float32")))
    return out


program("gb-nn-dropout", _dropout)


def _embedding(tf: Any) -> Any:
    out = {}
    params = tf.constant(q("emb", (5, 2, 3), lo=-12, hi=12))
    ids = tf.constant(np.array([[0, 4], [2, 2]], "int32"))
    for mn in (None, 0.5, 1.0, 3.0):
        out[f"r3/{mn}"] = ev(lambda: vb(tf.nn.embedding_lookup(params, ids, max_norm=mn)))
    p2 = tf.constant(q("emb2", (5, 3), lo=-12, hi=12))
    out["r2/1.0"] = ev(lambda: vb(tf.nn.embedding_lookup(p2, ids, max_norm=1.0)))
    return out


program("gb-nn-embedding", _embedding)


# ---------------------------------------------------------------------------------------------------------- reductions
def _scans(tf: Any) -> Any:
    out = {}
    x = p2 = np.array([[0.5, -2.0, 1.0, 2.0, -0.5], [1.0, 0.0, -1.0, 2.0, 0.5]], "float32")
    del p2
    for ex in (False, True):
        for rv in (False, True):
            for ax in (0, 1, -1):
                k = f"{ex}/{rv}/{ax}"
                out[f"cumsum/{k}"] = orders(tf, f"cs/{k}", lambda a: tf.cumsum(a, axis=ax, exclusive=ex, reverse=rv),
                                            [x], second=False)
                out[f"cumprod/{k}"] = orders(tf, f"cp/{k}", lambda a: tf.math.cumprod(a, axis=ax, exclusive=ex,
                                                                                     reverse=rv), [x], second=False)
                out[f"clse/{k}"] = orders(tf, f"cl/{k}", lambda a: tf.math.cumulative_logsumexp(
                    tf.cast(a, "float64"), axis=ax, exclusive=ex, reverse=rv), [x], second=False)
    out["axis-vector"] = ev(lambda: vb(tf.cumsum(tf.constant(x), axis=tf.constant([1]))))
    out["axis-matrix"] = ev(lambda: vb(tf.cumsum(tf.constant(x), axis=tf.constant([[1]]))))
    big = np.array([1.0e8, 1.0, 1.0, 1.0, -1.0e8, 1.0, 3.0e-8, 16777216.0, 1.0, 1.0], "float32")
    out["cumsum-magnitudes"] = ev(lambda: vb(tf.cumsum(tf.constant(big))))
    out["cumsum-magnitudes-rev"] = ev(lambda: vb(tf.cumsum(tf.constant(big), reverse=True, exclusive=True)))
    return out


program("gb-red-scans", _scans)


def _argmax(tf: Any) -> Any:
    out = {}
    nan, inf = float("nan"), float("inf")
    rows = np.array([[1.0, nan, 3.0, 2.0], [nan, 1.0, -inf, 5.0], [2.0, 2.0, 1.0, nan], [-inf, -inf, 0.0, inf]],
                    "float32")
    for dt in ("float32", "float64", "float16"):
        for op in ("argmax", "argmin"):
            fn = getattr(tf.math, op)
            xt = tf.cast(tf.constant(rows), dt)
            out[f"{dt}/{op}/default"] = ev(lambda: vb(fn(xt)))
            out[f"{dt}/{op}/0"] = ev(lambda: vb(fn(xt, axis=0)))
            out[f"{dt}/{op}/1"] = ev(lambda: vb(fn(xt, axis=1)))
            out[f"{dt}/{op}/-1"] = ev(lambda: vb(fn(xt, axis=-1)))
            out[f"{dt}/{op}/vec"] = ev(lambda: vb(fn(xt[:, 0])))
    return out


program("gb-red-argmax-nan", _argmax)


def _norms(tf: Any) -> Any:
    out = {}
    x = q("en", (2, 3, 4))
    for ax in (None, 0, 1, -1, (0, 2)):
        for kd in (False, True):
            out[f"euclid/{ax}/{kd}"] = orders(tf, f"en/{ax}/{kd}", lambda a: tf.math.reduce_euclidean_norm(
                a, axis=ax, keepdims=kd), [x], second=False)
            out[f"var/{ax}/{kd}"] = ev(lambda: vb(tf.math.reduce_variance(tf.constant(x) + 4096.25, axis=ax,
                                                                         keepdims=kd)))
            out[f"std/{ax}/{kd}"] = ev(lambda: vb(tf.math.reduce_std(tf.constant(x) * 3.0 + 1000.5, axis=ax,
                                                                   keepdims=kd)))
    c = (q("cp-re", (2, 1, 3)) + 1j * q("cp-im", (2, 1, 3))).astype("complex64")
    inf, nan = float("inf"), float("nan")
    ce = np.array([[[complex(-0.0, -0.0), complex(0.0, -0.0), complex(-0.0, 1.0)]],
                   [[complex(inf, -0.0), complex(1.0, inf), complex(nan, -0.0)]]], "complex64")
    for cdt in ("complex64", "complex128"):
        for ax in (0, 1, 2, None, -2):
            out[f"cprod-edges/{cdt}/{ax}"] = ev(lambda: vb(tf.reduce_prod(tf.constant(ce.astype(cdt)), axis=ax)))
            out[f"cprod-edges-kd/{cdt}/{ax}"] = ev(lambda: vb(tf.reduce_prod(tf.constant(ce.astype(cdt)), axis=ax,
                                                                              keepdims=True)))
    for ax in (0, 1, 2, None):
        out[f"cprod/{ax}"] = orders(tf, f"cp/{ax}", lambda a: tf.reduce_prod(a, axis=ax), [c], second=False)
    return out


program("gb-red-norms", _norms)


# ------------------------------------------------------------------------------------------------------------- arrays
def _traced_grad(tf: Any, f: Callable[[Any], Any], x: np.ndarray) -> Any:
    @tf.function
    def g(a: Any) -> Any:
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = f(a)
        return tape.gradient(y, a, output_gradients=tf.ones_like(y) * 0.5)
    return g(tf.constant(x))


def _array_grads(tf: Any) -> Any:
    out = {}
    a, b, c = q("ca", (2, 3)), q("cb", (2, 3)), q("cc", (2, 2))
    out["concat-equal-1"] = orders(tf, "ce1", lambda x, y: tf.concat([x, y], 1), [a, b])
    out["concat-unequal-1"] = orders(tf, "cu1", lambda x, y, z: tf.concat([x, z, y], 1), [a, b, c])
    out["concat-unequal-last"] = orders(tf, "cul", lambda x, y, z: tf.concat([z, x, y], -1), [a, b, c])
    d = q("cd", (1, 3))
    out["concat-unequal-0"] = orders(tf, "cu0", lambda x, y: tf.concat([x, y], 0), [a, d])
    big = q("cbig", (4, 3))
    out["concat-slices-1"] = orders(tf, "cs1", lambda x, y: tf.gather(tf.concat([x, y], 1), [1, 0, 1]), [a, b],
                                    second=False)
    out["concat-slices-0"] = orders(tf, "cs0", lambda x, y: tf.gather(tf.concat([x, y], 0), [4, 0, 5]), [big, a],
                                    second=False)
    for ax in (0, 1, 2, -1, -3):
        out[f"stack/{ax}"] = orders(tf, f"st/{ax}", lambda x, y: tf.stack([x, y], axis=ax), [a, b], second=False)
    t = q("un", (2, 3, 4))
    for ax in (0, 1, 2, -1):
        out[f"unstack/{ax}"] = orders(tf, f"us/{ax}", lambda x: tf.stack(tf.unstack(x, axis=ax)[::-1], axis=-1), [t],
                                      second=False)
    for ax in (0, 1, 2, -2):
        out[f"split/{ax}"] = orders(tf, f"sp/{ax}", lambda x: tf.split(x, 2, axis=ax)[-1] * 2.0 + tf.split(
            x, 2, axis=ax)[0], [q("sp", (4, 4, 4))], second=False)
    out["split-sizes/1"] = orders(tf, "sps", lambda x: tf.concat(tf.split(x, [1, 3], axis=1)[::-1], 1),
                                  [q("sps", (2, 4))], second=False)
    p = q("gp", (3, 4, 2))
    for idt in ("int16", "int32", "int64"):
        for ax in (0, 1, 2, -1, -2, -3):
            n = p.shape[ax]
            ix = np.array([n - 1, 0, n - 1], idt)
            out[f"gather/{idt}/{ax}"] = orders(tf, f"ga/{ax}", lambda x: tf.gather(x, ix, axis=ax), [p],
                                               second=False)
    for ix in ([[1], [0], [1]], [[1, 0], [0, 2]], [[[2]], [[0]]]):
        ixa = np.array(ix, "int32")
        out[f"gather-nd/{ixa.shape}"] = orders(tf, f"gn/{ixa.shape}", lambda x: tf.gather_nd(x, ixa), [p],
                                               second=False)
    ids = np.array([0, -1, 2, 2, -3, 1], "int32")
    out["unsorted-segment-neg"] = orders(tf, "useg", lambda x: tf.math.unsorted_segment_sum(x, ids, 3),
                                         [q("usd", (6, 2))], second=False)
    ids2 = np.array([[0, 2], [1, 1]], "int32")
    out["unsorted-segment-rank2"] = orders(tf, "useg2", lambda x: tf.math.unsorted_segment_sum(x, ids2, 3),
                                           [q("usd2", (2, 2, 3))], second=False)
    out["transpose-perm"] = orders(tf, "tp", lambda x: tf.transpose(x, [2, 0, 1]), [t], second=False)
    out["transpose-neg-perm"] = orders(tf, "tpn", lambda x: tf.transpose(x, [-1, 0, 1]), [t], second=False)
    out["transpose-neg-perm-traced"] = ev(lambda: g_of(tf, _traced_grad(tf, lambda x: tf.transpose(x, [-1, 0, 1]), t)))
    return out


program("gb-arr-grads", _array_grads)


def _array_checks(tf: Any) -> Any:
    out = {}
    t = tf.constant(q("ck", (2, 3, 4)))
    m = tf.constant(q("ckm", (3, 1)))
    checks: dict[str, Callable[[], Any]] = {
        "transpose-neg-perm": lambda: tf.transpose(t, [-1, 0, 1]),
        "unstack-num-below": lambda: tf.unstack(t, num=2, axis=1),
        "unstack-num-above": lambda: tf.unstack(t, num=4, axis=1),
        "unstack-num-exact": lambda: tf.stack(tf.unstack(t, num=3, axis=1)),
        "concat-after-axis": lambda: tf.concat([t, tf.constant(q("ck2", (2, 3, 5)))], 0),
        "concat-before-axis": lambda: tf.concat([t, tf.constant(q("ck3", (3, 3, 4)))], 2),
        "concat-ok": lambda: tf.concat([t, tf.constant(q("ck4", (2, 1, 4)))], 1),
        "split-not-dividing": lambda: tf.split(t, 3, axis=2)[0],
        "split-dividing": lambda: tf.split(t, 2, axis=2)[1],
        "split-sizes-minus-one": lambda: tf.split(t, [1, -1], axis=2)[1],
        "split-sizes-wrong-sum": lambda: tf.split(t, [1, 2], axis=2)[1],
        "stack-minus-rank": lambda: tf.stack([t, t], axis=-4),
        "stack-minus-rank-minus-one": lambda: tf.stack([t, t], axis=-5),
        "stack-rank": lambda: tf.stack([t, t], axis=3),
        "squeeze-repeated": lambda: tf.squeeze(tf.constant(q("sq", (1, 2, 1))), [0, -3]),
        "squeeze-both": lambda: tf.squeeze(tf.constant(q("sq", (1, 2, 1))), [2, -3]),
        "squeeze-not-one": lambda: tf.squeeze(tf.constant(q("sq", (1, 2, 1))), [1]),
        "broadcast-mutual": lambda: tf.broadcast_to(m, [1, 4]),
        "broadcast-ok": lambda: tf.broadcast_to(m, [2, 3, 4]),
        "broadcast-smaller": lambda: tf.broadcast_to(tf.constant(q("bs", (2, 3))), [3]),
        "tile-zero": lambda: tf.tile(t, [1, 0, 2]),
        "tile-neg": lambda: tf.tile(t, [1, -1, 2]),
        "slice-minus-one": lambda: tf.slice(t, [0, 1, 1], [-1, -1, 2]),
        "slice-minus-two": lambda: tf.slice(t, [0, 1, 1], [-1, -2, 2]),
        "slice-past": lambda: tf.slice(t, [0, 1, 1], [1, 3, 2]),
        "zeros-like-dtype": lambda: tf.zeros_like(t, dtype="int32"),
        "zeros-like-dtype-f16": lambda: tf.zeros_like(t, dtype=tf.float16),
        "ones-like-dtype": lambda: tf.ones_like(t, dtype="int64"),
        "gather-int16": lambda: tf.gather(t, tf.constant([1, 0], "int16"), axis=1),
        "gather-uint8": lambda: tf.gather(t, tf.constant([1, 0], "uint8"), axis=1),
        "gather-uint16": lambda: tf.gather(t, tf.constant([1, 0], "uint16"), axis=1),
        "gather-int8": lambda: tf.gather(t, tf.constant([1, 0], "int8"), axis=1),
        "segment-bool": lambda: tf.math.segment_sum(tf.constant([True, False, True]), tf.constant([0, 0, 1])),
        "unsorted-segment-bool": lambda: tf.math.unsorted_segment_sum(tf.constant([True, False, True]),
                                                                      tf.constant([0, 0, 1]), 2),
        "segment-max-bool": lambda: tf.math.segment_max(tf.constant([True, False, True]), tf.constant([0, 0, 1])),
    }
    ts = tf.constant(q("ts", (3, 4, 2)))
    for op in ("update", "add", "sub", "min", "max"):
        fn = getattr(tf, f"tensor_scatter_nd_{op}")
        checks[f"tscatter-{op}-inner-below"] = lambda fn=fn: fn(ts, [[0], [2]], tf.constant(q("tu1", (2, 4))))
        checks[f"tscatter-{op}-inner-above"] = lambda fn=fn: fn(ts, [[0, 1], [2, 3]],
                                                                tf.constant(q("tu2", (2, 2, 2))))
        checks[f"tscatter-{op}-ok"] = lambda fn=fn: fn(ts, [[0, 1], [2, 3]], tf.constant(q("tu3", (2, 2))))
        checks[f"tscatter-{op}-outer-wrong"] = lambda fn=fn: fn(ts, [[0], [2]], tf.constant(q("tu4", (3, 4, 2))))
    checks["scatter-nd-inner-below"] = lambda: tf.scatter_nd([[0], [2]], tf.constant(q("tu1", (2, 4))), [3, 4, 2])
    for k, fn in checks.items():
        out[k] = ev(lambda: vb(fn()) if not isinstance(fn(), list) else [vb(x) for x in fn()])
    out["tile-zero-grad"] = orders(tf, "tz", lambda x: tf.tile(x, [1, 0, 2]) + 0.0, [q("ck", (2, 3, 4))],
                                   second=False)
    return out


program("gb-arr-checks", _array_checks)


def _ranges(tf: Any) -> Any:
    out = {}
    args = [(0, 5, 1), (1, 10, 3), (0.0, 1.0, 0.1), (0.1, 0.7, 0.2), (1, 2.5, 0.5), (0, 1.0, 0.3), (1.0, 10, 3),
            (-1.0, 1.0, 1.0 / 3.0), (0.3, 0.9, 0.3), (10, 0, -3), (10.0, 0.5, -0.7), (0.0, 1e-6, 1e-7),
            (2, 2, 1), (16777216.0, 16777220.0, 1.0)]
    for i, (s, lim, d) in enumerate(args):
        out[f"{i}/default"] = ev(lambda: [tf.range(s, lim, d).dtype.name] + vb(tf.range(s, lim, d)))
        for dt in ("float32", "float64", "int64", "float16"):
            out[f"{i}/{dt}"] = ev(lambda: vb(tf.range(s, lim, d, dtype=dt)))
        out[f"{i}/tensors"] = ev(lambda: [tf.range(tf.constant(s), tf.constant(lim), tf.constant(d)).dtype.name])
    out["limit-only-float"] = ev(lambda: [tf.range(2.5).dtype.name] + vb(tf.range(2.5)))
    out["int-start-float64-limit"] = ev(lambda: [tf.range(tf.constant(1), tf.constant(3.0, "float64")).dtype.name])
    out["int64-int32"] = ev(lambda: [tf.range(tf.constant(1, "int64"), tf.constant(5)).dtype.name])
    return out


program("gb-arr-range", _ranges)
