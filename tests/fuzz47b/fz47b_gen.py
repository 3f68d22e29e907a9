"""A throwaway differential generator of the public API, round five (fz47b): fz46b_gen.py's chained programs (its
seeds stay reproducible there) widened where a person's program goes and fz46b_gen does not: tf.math special
functions on ordinary inputs (lgamma, digamma, erf, erfinv, ndtri, igamma, betainc, bessel functions, dawsn,
expint, fresnel, spence, zeta, polygamma, log_ndtr...), tf.nn (conv1d, conv2d, depthwise_conv2d, conv2d_transpose,
max/avg pooling 1-D and 2-D, local_response_normalization, stateless dropout, relu6/elu/selu/gelu/silu, bias_add),
tf.signal (frame, hann/hamming windows, overlap_and_add, stft of a short frame), tf.strings basics (upper, lower,
strip, substr, split, regex_replace, reduce_join, length by units, format of a number), tf.sparse basics
(from_dense, to_dense, reduce_sum/max, sparse_dense_matmul, add, transpose, retain), ragged basics (ragged.constant,
from_value_rowids, from_row_splits, ragged.range, ragged gather/concat/stack, to_tensor with shape), scatter_nd
with repeated indices and tensor_scatter_nd_* with deeper indices, gather_nd/gather with batch_dims, tf.linalg
band_part/diag/set_diag/diag_part with k, trace, lstsq (fast and not, l2_regularizer), cross, and tf.sort/argsort
with directions on every axis, searchsorted, unique. The four modes are fz45_gen's (eager statements, tf.function,
GradientTape, MirroredStrategy(2 CPUs).run with reduce and gather); strings, ragged and sparse values are compared
by their contents.

    python tests/fuzz47b/fz47b_gen.py SEED N [--show 40] [--steps 12] [--print]

Not a test: a probe for classes the project's generators do not draw. Deterministic: random.Random(SEED).
"""
from __future__ import annotations

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz46b"))

import fz45_gen as G  # noqa: E402 - the third round's builders, modes and comparison
import fz46b_gen as H  # noqa: E402 - the fourth round's builders (and its _outcome for strings and ragged values)

V, Prog = G.V, G.Prog
_FL, _INT = G._FL, G._INT


def _lits(p: Prog, shape: tuple, dt: str, vals: list[str]) -> V:
    """A new input of shape and dtype from the literal texts vals."""
    v = p.new_input(shape, "int32" if dt not in _FL else dt, edge=False)
    v.dtype = dt
    np_dt = {"bfloat16": "float32"}.get(dt, dt)
    text = f"np.array([{', '.join(vals)}], np.{np_dt}).reshape({list(shape)})"
    p.inputs[-1] = (v, f"tf.cast({text}, tf.bfloat16)" if dt == "bfloat16" else f"tf.constant({text})")
    return v


def _size(shape: tuple) -> int:
    n = 1
    for d in shape:
        n *= d
    return n


def _ordinary(p: Prog, shape: tuple, dt: str, lo: float, hi: float) -> V:
    """Ordinary values in [lo, hi]: k/16 steps, now and then a few decimals."""
    r = p.rng
    vals = []
    for _ in range(_size(shape)):
        x = r.uniform(lo, hi)
        vals.append(repr(round(x * 16) / 16) if r.random() < 0.7 else repr(round(x, 3)))
    return _lits(p, shape, dt, vals)


# (function, arity, domain low, high, dtypes)
SPECIAL = [("tf.math.lgamma", 1, 0.1, 8.0), ("tf.math.digamma", 1, 0.1, 8.0), ("tf.math.erf", 1, -3.0, 3.0),
           ("tf.math.erfc", 1, -3.0, 3.0), ("tf.math.erfinv", 1, -0.99, 0.99), ("tf.math.ndtri", 1, 0.01, 0.99),
           ("tf.math.log_ndtr", 1, -6.0, 4.0), ("tf.math.bessel_i0", 1, -4.0, 4.0), ("tf.math.bessel_i0e", 1, -4.0, 4.0),
           ("tf.math.bessel_i1", 1, -4.0, 4.0), ("tf.math.bessel_i1e", 1, -4.0, 4.0),
           ("tf.math.special.bessel_j0", 1, -6.0, 6.0), ("tf.math.special.bessel_j1", 1, -6.0, 6.0),
           ("tf.math.special.bessel_y0", 1, 0.1, 6.0), ("tf.math.special.bessel_y1", 1, 0.1, 6.0),
           ("tf.math.special.bessel_k0", 1, 0.1, 6.0), ("tf.math.special.bessel_k0e", 1, 0.1, 6.0),
           ("tf.math.special.bessel_k1", 1, 0.1, 6.0), ("tf.math.special.bessel_k1e", 1, 0.1, 6.0),
           ("tf.math.special.dawsn", 1, -4.0, 4.0), ("tf.math.special.expint", 1, 0.1, 5.0),
           ("tf.math.special.fresnel_cos", 1, -3.0, 3.0), ("tf.math.special.fresnel_sin", 1, -3.0, 3.0),
           ("tf.math.special.spence", 1, 0.0, 4.0), ("tf.math.igamma", 2, 0.1, 5.0), ("tf.math.igammac", 2, 0.1, 5.0),
           ("tf.math.zeta", 2, 1.1, 5.0), ("tf.math.polygamma", 2, 0.5, 4.0), ("tf.math.lbeta", 1, 0.2, 4.0),
           ("tf.math.betainc", 3, 0.1, 4.0), ("tf.math.sinh", 1, -4.0, 4.0), ("tf.math.asinh", 1, -4.0, 4.0),
           ("tf.math.acosh", 1, 1.0, 6.0), ("tf.math.atanh", 1, -0.95, 0.95), ("tf.math.softplus", 1, -6.0, 6.0),
           ("tf.math.log_sigmoid", 1, -6.0, 6.0), ("tf.math.expm1", 1, -2.0, 2.0), ("tf.math.log1p", 1, -0.5, 3.0),
           ("tf.math.rsqrt", 1, 0.1, 9.0), ("tf.math.reciprocal", 1, 0.1, 9.0), ("tf.math.tan", 1, -1.2, 1.2),
           ("tf.math.xlog1py", 2, 0.0, 3.0), ("tf.math.sigmoid", 1, -6.0, 6.0), ("tf.math.erfcinv", 1, 0.05, 1.95)]


def b_special(p: Prog) -> bool:
    r = p.rng
    f, ar, lo, hi = r.choice(SPECIAL)
    if f == "tf.math.erfcinv":
        f = "tf.math.erfinv"
        lo, hi = -0.95, 0.95
    dt = r.choice(["float32", "float32", "float64"] + (["float16"] if ar == 1 and "special" not in f else []))
    shape = r.choice([(), (3,), (2, 3), (4,), (2, 2)])
    if f == "tf.math.polygamma":
        n = _lits(p, shape, dt, [repr(float(r.randint(0, 3))) for _ in range(_size(shape))])
        x = _ordinary(p, shape, dt, lo, hi)
        p.emit(f"tf.math.polygamma({n.name}, {x.name})", [(shape, dt)])
        return True
    if f == "tf.math.lbeta":
        s2 = shape + (r.choice([2, 3]),)
        x = _ordinary(p, s2, dt, lo, hi)
        p.emit(f"tf.math.lbeta({x.name})", [(shape, dt)])
        return True
    c = [v for v in p.vals if v.dtype == dt and v.shape == shape and v.name.startswith("v")]
    args = [_ordinary(p, shape, dt, lo, hi) for _ in range(ar)]
    if f == "tf.math.betainc":
        args[2] = _ordinary(p, shape, dt, 0.05, 0.95)
    del c
    p.emit(f"{f}({', '.join(a.name for a in args)})", [(shape, dt)])
    return True


def b_nn_more(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "float32", "float64"])
    f = r.choice(["conv1d", "conv2d", "depthwise", "conv2d_transpose", "max_pool2d", "avg_pool2d", "max_pool1d",
                  "avg_pool1d", "lrn", "dropout", "act", "act", "bias_add", "pool_nd"])
    if f in ("conv1d", "max_pool1d", "avg_pool1d"):
        b, w, c = r.choice([1, 2]), r.choice([3, 4, 5, 6]), r.choice([1, 2, 3])
        x = _ordinary(p, (b, w, c), dt, -2.0, 2.0)
        pad = r.choice(["SAME", "VALID"])
        if f == "conv1d":
            k, o, s = r.choice([1, 2, 3]), r.choice([1, 2]), r.choice([1, 2])
            fl = _ordinary(p, (k, c, o), dt, -1.0, 1.0)
            ow = -(-w // s) if pad == "SAME" else (w - k) // s + 1
            p.emit(f"tf.nn.conv1d({x.name}, {fl.name}, stride={s}, padding='{pad}')", [((b, ow, o), dt)])
        else:
            k, s = r.choice([1, 2, 3]), r.choice([1, 2])
            ow = -(-w // s) if pad == "SAME" else (w - k) // s + 1
            p.emit(f"tf.nn.{f}({x.name}, {k}, {s}, '{pad}')", [((b, ow, c), dt)])
        return True
    if f in ("conv2d", "depthwise", "conv2d_transpose", "max_pool2d", "avg_pool2d", "lrn", "pool_nd"):
        b, h, w, c = r.choice([1, 2]), r.choice([2, 3, 4, 5]), r.choice([2, 3, 4]), r.choice([1, 2, 3])
        x = _ordinary(p, (b, h, w, c), dt, -2.0, 2.0)
        pad = r.choice(["SAME", "VALID"])
        k, s = r.choice([1, 2]), r.choice([1, 2])
        oh = -(-h // s) if pad == "SAME" else (h - k) // s + 1
        ow = -(-w // s) if pad == "SAME" else (w - k) // s + 1
        if f == "conv2d":
            o = r.choice([1, 2, 3])
            fl = _ordinary(p, (k, k, c, o), dt, -1.0, 1.0)
            dil = ", dilations=2" if s == 1 and r.random() < 0.2 else ""
            if dil:
                ke = 2 * (k - 1) + 1
                oh = h if pad == "SAME" else h - ke + 1
                ow = w if pad == "SAME" else w - ke + 1
            p.emit(f"tf.nn.conv2d({x.name}, {fl.name}, strides={s}, padding='{pad}'{dil})", [((b, oh, ow, o), dt)])
        elif f == "depthwise":
            m = r.choice([1, 2])
            fl = _ordinary(p, (k, k, c, m), dt, -1.0, 1.0)
            p.emit(f"tf.nn.depthwise_conv2d({x.name}, {fl.name}, strides=[1, {s}, {s}, 1], padding='{pad}')",
                   [((b, oh, ow, c * m), dt)])
        elif f == "conv2d_transpose":
            o = r.choice([1, 2])
            fl = _ordinary(p, (k, k, o, c), dt, -1.0, 1.0)
            th, tw = (h * s, w * s) if pad == "SAME" else ((h - 1) * s + k, (w - 1) * s + k)
            p.emit(f"tf.nn.conv2d_transpose({x.name}, {fl.name}, [{b}, {th}, {tw}, {o}], strides={s}, "
                   f"padding='{pad}')", [((b, th, tw, o), dt)])
        elif f in ("max_pool2d", "avg_pool2d"):
            p.emit(f"tf.nn.{f}({x.name}, ksize={k}, strides={s}, padding='{pad}')", [((b, oh, ow, c), dt)])
        elif f == "pool_nd":
            pt = r.choice(["MAX", "AVG"])
            p.emit(f"tf.nn.pool({x.name}, window_shape=[{k}, {k}], pooling_type='{pt}', strides=[{s}, {s}], "
                   f"padding='{pad}')", [((b, oh, ow, c), dt)])
        else:
            if dt != "float32":
                return False
            rad = r.choice([1, 2, 5])
            p.emit(f"tf.nn.local_response_normalization({x.name}, depth_radius={rad}, bias={r.choice(['1.0', '2.0'])},"
                   f" alpha={r.choice(['1e-4', '0.5'])}, beta={r.choice(['0.75', '0.5'])})", [((b, h, w, c), dt)])
        return True
    a = p.pick(lambda v: v.dtype in ("float32", "float64", "float16") and v.known and v.rank >= 1)
    if a is None:
        return False
    if f == "dropout":
        rate = r.choice(["0.5", "0.25", "0.0"])
        sd = [r.randint(0, 9), r.randint(0, 9)]
        ns = r.choice(["", ", noise_shape=" + str([1] * (a.rank - 1) + [a.shape[-1]])])
        p.emit(f"tf.nn.experimental.stateless_dropout({a.name}, rate={rate}, seed={sd}{ns})", [(a.shape, a.dtype)])
    elif f == "act":
        g = r.choice(["relu6", "elu", "selu", "gelu", "silu", "leaky_relu", "softsign", "crelu", "log_softmax"])
        if g == "gelu":
            g = "gelu" + r.choice(["", "_approx"])
            p.emit(f"tf.nn.gelu({a.name}{', approximate=True' if g.endswith('approx') else ''})", [(a.shape, a.dtype)])
        elif g == "crelu":
            p.emit(f"tf.nn.crelu({a.name})", [(a.shape[:-1] + (2 * a.shape[-1],), a.dtype)])
        elif g == "leaky_relu":
            p.emit(f"tf.nn.leaky_relu({a.name}, alpha={r.choice(['0.2', '0.01'])})", [(a.shape, a.dtype)])
        else:
            p.emit(f"tf.nn.{g}({a.name})", [(a.shape, a.dtype)])
    else:
        bias = _ordinary(p, (a.shape[-1],), a.dtype, -1.0, 1.0)
        p.emit(f"tf.nn.bias_add({a.name}, {bias.name})", [(a.shape, a.dtype)])
    return True


def b_signal_frames(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["frame", "frame", "window", "overlap", "stft"])
    if f == "window":
        n = r.choice([1, 2, 4, 5, 8])
        w = r.choice(["hann_window", "hamming_window"])
        per = r.choice(["True", "False"])
        dt = r.choice(["tf.float32", "tf.float64"])
        v = p.emit(f"tf.signal.{w}({n}, periodic={per}, dtype={dt})", [((n,), dt[3:])])[0]
        a = p.pick(lambda x: x.dtype == v.dtype and x.known and x.rank >= 1 and x.shape[-1] == n, fresh=None)
        if a is not None:
            p.emit(f"{a.name} * {v.name}", [(a.shape, a.dtype)])
        return True
    a = p.pick(lambda v: v.dtype in ("float32", "float64", "int32") and v.known and v.rank >= 1 and v.shape[-1] >= 1)
    if a is None:
        return False
    n = a.shape[-1]
    if f == "frame":
        fl, fs = r.randint(1, max(1, n)), r.randint(1, 3)
        pe = r.random() < 0.4
        nf = (-(-n // fs) if pe else (max(0, n - fl) // fs + 1 if n >= fl else 0))
        pv = r.choice(["", ", pad_value=1"]) if pe else ""
        v = p.emit(f"tf.signal.frame({a.name}, {fl}, {fs}, pad_end={pe}{pv})", [(a.shape[:-1] + (nf, fl), a.dtype)])[0]
        if nf and r.random() < 0.4 and a.dtype != "int32":
            p.emit(f"tf.signal.overlap_and_add({v.name}, {fs})", [(a.shape[:-1] + ((nf - 1) * fs + fl,), a.dtype)])
    elif f == "overlap" and a.rank >= 2 and a.dtype != "int32":
        fs = r.randint(1, max(1, n))
        m = a.shape[-2]
        p.emit(f"tf.signal.overlap_and_add({a.name}, {fs})", [(a.shape[:-2] + ((m - 1) * fs + n,), a.dtype)])
    elif f == "stft" and a.dtype == "float32" and n >= 4:
        fl = r.choice([2, 3, 4])
        fs = r.choice([1, 2])
        nf = (n - fl) // fs + 1
        z = p.emit(f"tf.signal.stft({a.name}, frame_length={fl}, frame_step={fs}, fft_length=4)",
                   [(a.shape[:-1] + (nf, 3), "complex64")])[0]
        p.emit(f"tf.math.abs({z.name})", [(z.shape, "float32")])
    else:
        return False
    return True


_WORDS = ["'abc'", "' Hello '", "'a,b,,c'", "''", "'TensorFlow'", "'x y z'", "'caf\\u00e9'", "'12.5'", "'-3'"]


def b_strings(p: Prog) -> bool:
    r = p.rng
    u = r.random()
    c = [v for v in p.vals if v.dtype == "string" and v.known]
    if c and r.random() < 0.5:
        s = r.choice(c)
    else:
        shape = r.choice([(2,), (3,), (2, 2)])
        s = p.new_input(shape, "int32", edge=False)
        s.dtype = "string"
        p.inputs[-1] = (s, f"tf.reshape(tf.constant([{', '.join(r.choice(_WORDS) for _ in range(_size(shape)))}]), "
                           f"{list(shape)})")
    if u < 0.15:
        p.emit(f"tf.strings.{r.choice(['upper', 'lower', 'strip'])}({s.name})", [(s.shape, "string")])
    elif u < 0.3:
        pos, ln = r.randint(0, 3), r.randint(0, 3)
        un = r.choice(["", ", unit='UTF8_CHAR'"])
        p.emit(f"tf.strings.substr({s.name}, {pos}, {ln}{un})", [(s.shape, "string")])
    elif u < 0.45:
        un = r.choice(["", ", unit='UTF8_CHAR'"])
        p.emit(f"tf.cast(tf.strings.length({s.name}{un}), tf.float32)", [(s.shape, "float32")])
    elif u < 0.55:
        pat, rw = r.choice([("'[aeiou]'", "'_'"), ("' +'", "' '"), ("'^(.)'", "'<\\\\1>'")])
        p.emit(f"tf.strings.regex_replace({s.name}, {pat}, {rw})", [(s.shape, "string")])
    elif u < 0.65:
        ax = r.choice(["None", "-1"])
        sep = r.choice(["''", "'-'"])
        shape = () if ax == "None" else s.shape[:-1]
        p.emit(f"tf.strings.reduce_join({s.name}, axis={ax}, separator={sep})", [(shape, "string")])
    elif u < 0.75 and s.rank == 1:
        sep = r.choice(["None", "','", "' '"])
        rt = p.emit(f"tf.strings.split({s.name}, sep={sep})", [((s.shape[0], None), "string:ragged")])[0]
        p.emit(f"tf.cast({rt.name}.row_lengths(), tf.float32)", [((s.shape[0],), "float32")])
    elif u < 0.85:
        p.emit(f"tf.cast(tf.strings.regex_full_match({s.name}, '.*[0-9].*'), tf.float32)", [(s.shape, "float32")])
    elif u < 0.93:
        p.emit(f"tf.strings.to_hash_bucket_fast({s.name}, {r.choice([3, 7, 100])})", [(s.shape, "int64")])
    else:
        a = p.pick(lambda v: (v.dtype in ("float32", "int32", "int64")) and v.known and v.rank == 0, fresh=None)
        if a is None:
            return False
        p.emit(f"tf.strings.format('v={{}} s={{}}', [{a.name}, {s.name}])", [((), "string")])
    return True


def b_sparse(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in ("float32", "float64", "int32", "int64") and v.known and v.rank == 2
               and 0 not in v.shape)
    if a is None:
        shape = (r.choice([2, 3, 4]), r.choice([2, 3]))
        dt = r.choice(["float32", "float64"])
        vals = [r.choice(["0.0", "0.0", repr(r.randint(-8, 8) / 4)]) for _ in range(_size(shape))]
        a = _lits(p, shape, dt, vals)
    m, n = a.shape
    st = p.emit(f"tf.sparse.from_dense({a.name})", [(a.shape, a.dtype + ":sparse")])[0]
    f = r.choice(["to_dense", "reduce_sum", "reduce_max", "matmul", "add", "transpose", "retain", "values",
                  "reduce_sum_sp", "softmax", "minimum", "slice"])
    if f == "to_dense":
        p.emit(f"tf.sparse.to_dense({st.name}, default_value={'1' if a.dtype in _INT else '-1.0'})", [(a.shape, a.dtype)])
    elif f == "reduce_sum":
        ax = r.choice(["None", "0", "1", "-1"])
        keep = r.random() < 0.3
        shape = () if ax == "None" else ((m,) if ax in ("1", "-1") else (n,))
        if keep:
            shape = (1, 1) if ax == "None" else ((m, 1) if ax in ("1", "-1") else (1, n))
        p.emit(f"tf.sparse.reduce_sum({st.name}, axis={ax}, keepdims={keep})", [(shape, a.dtype)])
    elif f == "reduce_max":
        ax = r.choice(["None", "0", "1"])
        shape = () if ax == "None" else ((m,) if ax == "1" else (n,))
        p.emit(f"tf.sparse.reduce_max({st.name}, axis={ax})", [(shape, a.dtype)])
    elif f == "matmul" and a.dtype in ("float32", "float64"):
        k = r.choice([1, 2, 3])
        b = _ordinary(p, (n, k), a.dtype, -2.0, 2.0)
        adj = r.random() < 0.3
        if adj:
            b = _ordinary(p, (m, k), a.dtype, -2.0, 2.0)
            p.emit(f"tf.sparse.sparse_dense_matmul({st.name}, {b.name}, adjoint_a=True)", [((n, k), a.dtype)])
        else:
            p.emit(f"tf.sparse.sparse_dense_matmul({st.name}, {b.name})", [((m, k), a.dtype)])
    elif f == "add":
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape and v.name != a.name]
        b = r.choice(c) if c else _ordinary(p, a.shape, a.dtype, -2.0, 2.0) if a.dtype in _FL else None
        if b is None:
            return False
        if r.random() < 0.5:
            p.emit(f"tf.sparse.add({st.name}, {b.name})", [(a.shape, a.dtype)])
        else:
            s2 = p.emit(f"tf.sparse.from_dense({b.name})", [(a.shape, a.dtype + ":sparse")])[0]
            s3 = p.emit(f"tf.sparse.add({st.name}, {s2.name})", [(a.shape, a.dtype + ":sparse")])[0]
            p.emit(f"tf.sparse.to_dense(tf.sparse.reorder({s3.name}))", [(a.shape, a.dtype)])
    elif f == "transpose":
        t = p.emit(f"tf.sparse.transpose({st.name})", [((n, m), a.dtype + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense(tf.sparse.reorder({t.name}))", [((n, m), a.dtype)])
    elif f == "retain":
        t = p.emit(f"tf.sparse.retain({st.name}, {st.name}.values > 0)", [(a.shape, a.dtype + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [(a.shape, a.dtype)])
    elif f == "values":
        p.emit(f"{st.name}.values", [((None,), a.dtype)])
        p.emit(f"{st.name}.indices", [((None, 2), "int64")])
    elif f == "reduce_sum_sp":
        t = p.emit(f"tf.sparse.reduce_sum({st.name}, axis=1, output_is_sparse=True)", [((m,), a.dtype + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [((m,), a.dtype)])
    elif f == "softmax" and a.dtype in ("float32", "float64"):
        t = p.emit(f"tf.sparse.softmax({st.name})", [(a.shape, a.dtype + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [(a.shape, a.dtype)])
    elif f == "minimum":
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape and v.name != a.name]
        if not c:
            return False
        s2 = p.emit(f"tf.sparse.from_dense({r.choice(c).name})", [(a.shape, a.dtype + ":sparse")])[0]
        t = p.emit(f"tf.sparse.{r.choice(['minimum', 'maximum'])}({st.name}, {s2.name})",
                   [(a.shape, a.dtype + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [(a.shape, a.dtype)])
    else:
        s0, s1 = r.randrange(m), r.randrange(n)
        t = p.emit(f"tf.sparse.slice({st.name}, [{s0}, {s1}], [2, 2])",
                   [((min(2, m - s0), min(2, n - s1)), a.dtype + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [(t.shape, a.dtype)])
    return True


def b_ragged(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["constant", "rowids", "splits", "range", "gather", "concat", "stack", "mask", "map", "arith"])
    dt = r.choice(["float32", "float32", "int32", "int64", "float64"])
    if f == "range":
        starts = [r.randint(0, 3) for _ in range(r.randint(1, 3))]
        limits = [s + r.randint(0, 4) for s in starts]
        d = r.choice(["", ", deltas=2"])
        rt = p.emit(f"tf.ragged.range({starts}, {limits}{d})", [((len(starts), None), "int32:ragged")])[0]
        p.emit(f"{rt.name}.to_tensor()", [((len(starts), None), "int32")])
        return True
    rows = [[(repr(r.randint(-8, 8) / 4) if dt in _FL else str(r.randint(-5, 9))) for _ in range(r.randint(0, 3))]
            for _ in range(r.randint(1, 4))]
    lit = "[" + ", ".join("[" + ", ".join(x) + "]" for x in rows) + "]"
    k = len(rows)
    if f in ("constant", "gather", "concat", "stack", "mask", "map", "arith"):
        rt = p.emit(f"tf.ragged.constant({lit}, dtype=tf.{dt})", [((k, None), dt + ":ragged")])[0]
    elif f == "rowids":
        ids = [i for i, row in enumerate(rows) for _ in row]
        flat = "[" + ", ".join(x for row in rows for x in row) + "]"
        rt = p.emit(f"tf.RaggedTensor.from_value_rowids(tf.constant({flat}, tf.{dt}), {ids}, nrows={k})",
                    [((k, None), dt + ":ragged")])[0]
    else:
        splits = [0]
        for row in rows:
            splits.append(splits[-1] + len(row))
        flat = "[" + ", ".join(x for row in rows for x in row) + "]"
        rt = p.emit(f"tf.RaggedTensor.from_row_splits(tf.constant({flat}, tf.{dt}), {splits})",
                    [((k, None), dt + ":ragged")])[0]
    if f == "gather":
        idx = [r.randrange(k) for _ in range(r.randint(1, 3))]
        rt = p.emit(f"tf.gather({rt.name}, {idx})", [((len(idx), None), dt + ":ragged")])[0]
    elif f == "concat":
        ax = r.choice([0, 1])
        rt = p.emit(f"tf.concat([{rt.name}, {rt.name} * 2], axis={ax})",
                    [(((2 * k if ax == 0 else k), None), dt + ":ragged")])[0]
    elif f == "stack":
        rt = p.emit(f"tf.ragged.stack([{rt.name}, {rt.name}])", [((2, None, None), dt + ":ragged")])[0]
        p.emit(f"{rt.name}.flat_values", [((None,), dt)])
        return True
    elif f == "mask":
        z = "0" if dt in _INT else "0.0"
        rt = p.emit(f"tf.ragged.boolean_mask({rt.name}, {rt.name} > {z})", [((k, None), dt + ":ragged")])[0]
    elif f == "map" and dt in _FL:
        rt = p.emit(f"tf.ragged.map_flat_values(tf.math.square, {rt.name})", [((k, None), dt + ":ragged")])[0]
    elif f == "arith":
        z = "1" if dt in _INT else "0.5"
        rt = p.emit(f"{rt.name} * {z} + {rt.name}", [((k, None), dt + ":ragged")])[0]
    g = r.choice(["to_tensor", "to_tensor_shape", "row_lengths", "reduce_sum", "nrows", "value_rowids", "bounding"])
    if g == "to_tensor":
        p.emit(f"{rt.name}.to_tensor(default_value={'7' if dt in _INT else '-0.5'})", [((rt.shape[0], None), dt)])
    elif g == "to_tensor_shape":
        p.emit(f"{rt.name}.to_tensor(shape=[{rt.shape[0]}, 2])", [((rt.shape[0], 2), dt)])
    elif g == "row_lengths":
        p.emit(f"{rt.name}.row_lengths()", [((rt.shape[0],), "int64")])
    elif g == "nrows":
        p.emit(f"{rt.name}.nrows()", [((), "int64")])
    elif g == "value_rowids":
        p.emit(f"{rt.name}.value_rowids()", [((None,), "int64")])
    elif g == "bounding":
        p.emit(f"{rt.name}.bounding_shape()", [((2,), "int64")])
    else:
        p.emit(f"tf.reduce_sum({rt.name}, axis=1)", [((rt.shape[0],), dt)])
    return True


def b_scatter_gather(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: (v.dtype in _FL or v.dtype in ("int32", "int64")) and v.known and v.rank >= 2
               and 0 not in v.shape)
    if a is None:
        shape = (r.choice([2, 3, 4]), r.choice([2, 3]), *([r.choice([2, 3])] if r.random() < 0.4 else []))
        a = _ordinary(p, shape, r.choice(["float32", "float64"]), -3.0, 3.0)
    u = r.random()
    it = r.choice(["int32", "int64"])
    if u < 0.3:
        d = r.randint(1, a.rank)
        m = r.randint(1, 4)
        rows = [[r.randrange(x) for x in a.shape[:d]] for _ in range(m)]
        if m >= 2 and r.random() < 0.5:
            rows[-1] = list(rows[0])     # a repeated index
        f = r.choice(["tensor_scatter_nd_update", "tensor_scatter_nd_add", "tensor_scatter_nd_sub",
                      "tensor_scatter_nd_min", "tensor_scatter_nd_max", "scatter_nd"])
        if f == "tensor_scatter_nd_update" and m >= 2 and rows[-1] == rows[0]:
            rows[-1] = [(x + 1) % s for x, s in zip(rows[0], a.shape[:d])]
            if rows[-1] == rows[0]:
                rows = rows[:1]
                m = 1
        ushape = (m,) + a.shape[d:]
        upd = _ordinary(p, ushape, a.dtype, -3.0, 3.0) if a.dtype in _FL else \
            _lits(p, ushape, a.dtype, [str(r.randint(-5, 9)) for _ in range(_size(ushape))])
        idx = f"tf.constant({rows}, tf.{it})"
        if f == "scatter_nd":
            p.emit(f"tf.scatter_nd({idx}, {upd.name}, {list(a.shape)})", [(a.shape, a.dtype)])
        else:
            p.emit(f"tf.{f}({a.name}, {idx}, {upd.name})", [(a.shape, a.dtype)])
    elif u < 0.55:
        # gather_nd with batch_dims=1
        b = a.shape[0]
        d = r.randint(1, a.rank - 1)
        m = r.randint(1, 3)
        rows = [[[r.randrange(x) for x in a.shape[1:1 + d]] for _ in range(m)] for _ in range(b)]
        p.emit(f"tf.gather_nd({a.name}, tf.constant({rows}, tf.{it}), batch_dims=1)", [((b, m) + a.shape[1 + d:],
                                                                                        a.dtype)])
    elif u < 0.8:
        # gather with batch_dims=1 along axis 1
        b, n = a.shape[0], a.shape[1]
        m = r.randint(1, 3)
        rows = [[r.randrange(n) for _ in range(m)] for _ in range(b)]
        ax = r.choice(["", ", axis=1"])
        p.emit(f"tf.gather({a.name}, tf.constant({rows}, tf.{it}), batch_dims=1{ax})",
               [((b, m) + a.shape[2:], a.dtype)])
    else:
        # tf.experimental.numpy-free: tf.gather on axis -1 of a rank-2 slice, then tf.reverse
        ax = r.sample(range(a.rank), r.randint(1, a.rank))
        p.emit(f"tf.reverse({a.name}, {sorted(ax)})", [(a.shape, a.dtype)])
    return True


def b_linalg_more(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in ("float32", "float64") and v.known and v.rank >= 1 and 0 not in v.shape
               and max(v.shape) <= 5)
    if a is None:
        a = _ordinary(p, (r.choice([2, 3, 4]), r.choice([2, 3, 4])), r.choice(["float32", "float64"]), -2.0, 2.0)
    f = r.choice(["band_part", "diag", "diag_k", "set_diag", "trace", "lstsq", "lstsq", "cross", "diag_part_k",
                  "matrix_transpose", "tridiag", "expm"])
    if f == "diag":
        p.emit(f"tf.linalg.diag({a.name})", [(a.shape + (a.shape[-1],), a.dtype)])
        return True
    if f == "diag_k" and a.rank == 1:
        k = r.choice([1, -1, 2])
        n = a.shape[0] + abs(k)
        p.emit(f"tf.linalg.diag({a.name}, k={k})", [((n, n), a.dtype)])
        return True
    if f == "cross":
        x = _ordinary(p, (r.choice([1, 2]), 3), a.dtype, -2.0, 2.0)
        y = _ordinary(p, x.shape, a.dtype, -2.0, 2.0)
        p.emit(f"tf.linalg.cross({x.name}, {y.name})", [(x.shape, a.dtype)])
        return True
    if a.rank < 2:
        return False
    m, n = a.shape[-2:]
    if f == "band_part":
        lo, up = r.choice([(0, -1), (-1, 0), (1, 0), (0, 1), (2, -1), (-1, -1)])
        p.emit(f"tf.linalg.band_part({a.name}, {lo}, {up})", [(a.shape, a.dtype)])
    elif f == "set_diag":
        dg = _ordinary(p, a.shape[:-2] + (min(m, n),), a.dtype, -1.0, 1.0)
        p.emit(f"tf.linalg.set_diag({a.name}, {dg.name})", [(a.shape, a.dtype)])
    elif f == "diag_part_k":
        k = r.choice([1, -1, (-1, 1)])
        if isinstance(k, tuple):
            ln = max(min(m + 1, n), min(m, n + 1)) if False else None
            p.emit(f"tf.linalg.diag_part({a.name}, k=(-1, 1), padding_value=9)", [(a.shape[:-2] + (3, None), a.dtype)])
        else:
            ln = min(m, n - k) if k > 0 else min(m + k, n)
            if ln <= 0:
                return False
            p.emit(f"tf.linalg.diag_part({a.name}, k={k})", [(a.shape[:-2] + (ln,), a.dtype)])
    elif f == "trace":
        p.emit(f"tf.linalg.trace({a.name})", [(a.shape[:-2], a.dtype)])
    elif f == "lstsq" and m >= n:
        k = r.choice([1, 2])
        b = _ordinary(p, a.shape[:-1] + (k,), a.dtype, -2.0, 2.0)
        reg = r.choice(["", ", l2_regularizer=0.1", ", fast=False"])
        if reg == ", fast=False" and m != n:
            reg = ""
        p.emit(f"tf.linalg.lstsq({a.name}, {b.name}{reg})", [(a.shape[:-2] + (n, k), a.dtype)])
    elif f == "matrix_transpose":
        p.emit(f"tf.linalg.matrix_transpose({a.name})", [(a.shape[:-2] + (n, m), a.dtype)])
    elif f == "tridiag" and m == n and n >= 2:
        rhs = _ordinary(p, a.shape[:-2] + (n, 1), a.dtype, -2.0, 2.0)
        d = p.emit(f"tf.linalg.diag_part({a.name}) + 4.0", [(a.shape[:-2] + (n,), a.dtype)])[0]
        p.emit(f"tf.linalg.tridiagonal_solve([tf.linalg.diag_part({a.name}, k=1), {d.name}, "
               f"tf.linalg.diag_part({a.name}, k=-1)], {rhs.name}, diagonals_format='sequence')"
               if False else f"tf.linalg.tridiagonal_matmul(tf.stack([tf.concat([[0], tf.linalg.diag_part({a.name}, "
               f"k=1)], 0) * 0 + 1, {d.name}, tf.ones_like({d.name})], -2), {rhs.name})",
               [(a.shape[:-2] + (n, 1), a.dtype)])
    elif f == "expm" and m == n:
        p.emit(f"tf.linalg.expm({a.name} * 0.25)", [(a.shape, a.dtype)])
    else:
        return False
    return True


def b_sort_more(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: (v.dtype in _FL or v.dtype in _INT) and v.known and v.rank >= 1)
    if a is None:
        return False
    u = r.random()
    if u < 0.35:
        ax = r.randrange(-a.rank, a.rank)
        dr = r.choice(["ASCENDING", "DESCENDING"])
        p.emit(f"tf.sort({a.name}, axis={ax}, direction='{dr}')", [(a.shape, a.dtype)])
    elif u < 0.6:
        ax = r.randrange(-a.rank, a.rank)
        dr = r.choice(["ASCENDING", "DESCENDING"])
        st = r.choice(["True", "False"])
        d = a.shape[ax]
        p.emit(f"tf.argsort({a.name}, axis={ax}, direction='{dr}', stable={st})", [(a.shape, "int32", d or None)])
    elif u < 0.8 and a.dtype in ("float32", "float64", "int32", "int64"):
        srt = p.emit(f"tf.sort({a.name}, axis=-1)", [(a.shape, a.dtype)])[0]
        q = p.new_input(a.shape[:-1] + (r.choice([1, 2, 3]),), a.dtype)
        side = r.choice(["left", "right"])
        p.emit(f"tf.searchsorted({srt.name}, {q.name}, side='{side}')", [(q.shape, "int32")])
    else:
        flat = p.emit(f"tf.reshape({a.name}, [-1])", [((a.size,), a.dtype)])[0]
        if r.random() < 0.5:
            p.emit(f"tf.unique({flat.name})", [((None,), a.dtype), ((a.size,), "int32")])
        else:
            p.emit(f"tf.unique_with_counts({flat.name})", [((None,), a.dtype), ((a.size,), "int32"),
                                                           ((None,), "int32")])
    return True


NEW = [(b_special, 6), (b_nn_more, 6), (b_signal_frames, 3), (b_strings, 3), (b_sparse, 3), (b_ragged, 3),
       (b_scatter_gather, 4), (b_linalg_more, 4), (b_sort_more, 3)]
BUILDERS = H.BUILDERS + NEW


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed (fz46b_gen.program's shape, the builders widened)."""
    rng = random.Random(seed * 100003 + k)
    p = Prog(rng)
    for _ in range(rng.randint(1, 3)):
        p.fresh("f" * 4 + "i")
    fns, w = zip(*BUILDERS)
    n = rng.randint(max(2, steps // 2), steps)
    tries = 0
    while len(p.lines) < n and tries < 200:
        tries += 1
        try:
            rng.choices(fns, w)[0](p)
        except (TypeError, ValueError, IndexError):   # (a builder meeting a dimension only known at run time)
            pass
    fl = [v for v in p.vals if v.dtype in _FL][-3:]
    if not fl:
        fl = [p.emit(f"tf.cast({p.vals[-1].name}, tf.float32)", [((), "float32")])[0]]
    final = "loss = tf.math.add_n([" + ", ".join(f"tf.reduce_sum(tf.cast({v.name}, tf.float32))" for v in fl) + "])"
    last = [v for v in p.vals if ":" not in v.dtype and v.dtype not in ("string", "None")][-1]
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final, "last": last.name}


def _outcome(tf, np, value):  # noqa: ANN001 - fz46b_gen's, with sparse values by content
    if type(value).__name__ == "SparseTensor":
        return ("sparse", _outcome(tf, np, value.indices), _outcome(tf, np, value.values),
                _outcome(tf, np, value.dense_shape))
    return _prev_outcome(tf, np, value)


_prev_outcome = G._outcome
G._outcome = _outcome


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
