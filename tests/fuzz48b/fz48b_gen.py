"""A throwaway differential generator of the public API, round six (fz48b): fz47b_gen.py's chained programs (its
seeds stay reproducible there) widened where a person's program goes and fz47b_gen does not: control flow written by
hand (tf.map_fn, tf.scan, tf.foldl/foldr, tf.while_loop, tf.vectorized_map, tf.TensorArray, tf.switch_case),
array ops (dynamic_partition/dynamic_stitch, reverse_sequence, unravel_index, histogram_fixed_width(_bins),
invert_permutation, space_to_depth/depth_to_space, pad REFLECT/SYMMETRIC, split by sizes, unsorted_segment_mean/
sqrt_n/prod/max, bincount with weights, cumsum exclusive/reverse, roll), more tf.nn (conv3d, 3-D pooling,
separable_conv2d, atrous_conv2d, conv1d_transpose, max_pool_with_argmax, tf.nn.convolution, isotonic_regression,
normalize_moments, fused_batch_norm, zero_fraction, batch_normalization), tf.signal's FFTs (fft/ifft, rfft2d/irfft2d,
fftshift, dct/idct with norm, vorbis_window), tf.linalg (lu/lu_solve/lu_reconstruct, logdet, cholesky_solve, inv,
solve, adjoint, LinearOperator full/diag/lower-triangular, banded_triangular_solve, matrix_rank, normalize),
tf.quantization (fake_quant_with_min_max_args/vars, quantize_and_dequantize_v2), more tf.sparse (concat,
fill_empty_rows, bincount, map_values, segment_sum), more ragged (from_tensor with lengths/padding,
from_nested_row_lengths, reduce_mean/max, merge_dims, segment_ids_to_row_splits), more tf.strings (bytes_split,
unicode_split, as_string with precision/width, to_number, join) and more tf.math (nextafter, approx_max_k,
is_non_decreasing, cumulative_logsumexp reverse, scalar_mul, linspace). The four modes are fz45_gen's (eager
statements, tf.function, GradientTape, MirroredStrategy(2 CPUs).run with reduce and gather).

    python tests/fuzz48b/fz48b_gen.py SEED N [--show 40] [--steps 12] [--print]

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
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz47b"))

import fz45_gen as G  # noqa: E402 - the third round's builders, modes and comparison
import fz47b_gen as F  # noqa: E402 - the fifth round's builders (and its _outcome for sparse values)

V, Prog = G.V, G.Prog
_FL, _INT = G._FL, G._INT
_lits, _ordinary, _size = F._lits, F._ordinary, F._size


def _flt(p: Prog, shape: tuple | None = None, dts: tuple = ("float32", "float32", "float64")) -> V:
    """A float value of the program (or a fresh ordinary one of shape)."""
    r = p.rng
    if shape is None:
        a = p.pick(lambda v: v.dtype in dts and v.known and v.rank >= 1 and 0 not in v.shape and v.size <= 40,
                   fresh=None)
        if a is not None:
            return a
        shape = r.choice([(3,), (2, 3), (4,), (2, 2, 2)])
    return _ordinary(p, shape, r.choice(dts), -3.0, 3.0)


def b_control(p: Prog) -> bool:
    r = p.rng
    a = _flt(p)
    f = r.choice(["map_fn", "map_fn_red", "scan", "foldl", "foldr", "while", "vmap", "tarray", "switch", "cond"])
    n = a.shape[0]
    rest = a.shape[1:]
    if f == "map_fn":
        g = r.choice(["tf.math.square(t) - 1.0", "tf.nn.relu(t) * 2.0", "tf.math.tanh(t)", "t[::-1]" if rest else "t + t"])
        p.emit(f"tf.map_fn(lambda t: {g}, {a.name})", [(a.shape, a.dtype)])
    elif f == "map_fn_red":
        if not rest:
            return False
        p.emit(f"tf.map_fn(lambda t: tf.reduce_sum(t), {a.name}, fn_output_signature=tf.{a.dtype})", [((n,), a.dtype)])
    elif f == "scan":
        rev = r.choice(["", ", reverse=True"])
        init = r.choice(["", "init"])
        if init:
            iv = _ordinary(p, rest, a.dtype, -1.0, 1.0)
            p.emit(f"tf.scan(lambda acc, t: acc * 0.5 + t, {a.name}, initializer={iv.name}{rev})", [(a.shape, a.dtype)])
        else:
            p.emit(f"tf.scan(lambda acc, t: acc + t, {a.name}{rev})", [(a.shape, a.dtype)])
    elif f in ("foldl", "foldr"):
        p.emit(f"tf.{f}(lambda acc, t: acc * 0.5 - t, {a.name})", [(rest, a.dtype)])
    elif f == "while":
        k = r.randint(0, 4)
        p.emit(f"tf.while_loop(lambda i, s: i < {k}, lambda i, s: (i + 1, s * 0.5 + 1.0), "
               f"(tf.constant(0), {a.name}))[1]", [(a.shape, a.dtype)])
    elif f == "vmap":
        g = r.choice(["tf.reduce_max(t) - t", "tf.nn.softmax(t)" if rest else "t * t", "tf.math.cumsum(t)" if rest else "-t"])
        p.emit(f"tf.vectorized_map(lambda t: {g}, {a.name})", [(a.shape, a.dtype)])
    elif f == "tarray":
        p.emit(f"tf.TensorArray(tf.{a.dtype}, size={n}).unstack({a.name}).stack() + "
               f"tf.TensorArray(tf.{a.dtype}, size=0, dynamic_size=True).write(0, {a.name}[0] * 0.0 + 1.0).read(0)",
               [(a.shape, a.dtype)])
    elif f == "switch":
        i = r.randint(-1, 3)
        p.emit(f"tf.switch_case(tf.constant({i}), [lambda: {a.name} * 2.0, lambda: {a.name} - 1.0, "
               f"lambda: tf.math.abs({a.name})])", [(a.shape, a.dtype)])
    else:
        p.emit(f"tf.cond(tf.reduce_sum({a.name}) > 0.0, lambda: {a.name} * 3.0, lambda: -{a.name})", [(a.shape, a.dtype)])
    return True


def b_array_more(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["partition", "revseq", "unravel", "histogram", "hist_bins", "invperm", "s2d", "pad", "split",
                  "useg", "bincount", "cumsum", "roll"])
    a = _flt(p, dts=("float32", "float32", "float64", "float16"))
    n = a.shape[0]
    if f == "partition":
        np_ = r.randint(1, 3)
        parts = [r.randrange(np_) for _ in range(n)]
        ix = "[0]" if np_ == 1 else ""
        ps = p.emit(f"tf.dynamic_partition({a.name}, {parts}, {np_}){ix}",
                    [((parts.count(i),) + a.shape[1:], a.dtype) for i in range(np_)])
        idx = [[i for i in range(n) if parts[i] == j] for j in range(np_)]
        p.emit(f"tf.dynamic_stitch({idx}, [{', '.join(v.name for v in ps)}])", [(a.shape, a.dtype)])
    elif f == "revseq" and a.rank >= 2:
        m = a.shape[1]
        lens = [r.randint(0, m) for _ in range(n)]
        p.emit(f"tf.reverse_sequence({a.name}, {lens}, seq_axis=1, batch_axis=0)", [(a.shape, a.dtype)])
    elif f == "unravel":
        dims = [r.randint(1, 4) for _ in range(r.randint(1, 3))]
        tot = 1
        for d in dims:
            tot *= d
        idx = [r.randrange(tot) for _ in range(r.randint(1, 4))]
        v = p.emit(f"tf.unravel_index({idx}, {dims})", [((len(dims), len(idx)), "int32")])[0]
        p.emit(f"tf.cast({v.name}, tf.float32) * 0.5", [(v.shape, "float32")])
    elif f in ("histogram", "hist_bins"):
        if a.dtype == "float16":
            return False
        lo, hi = r.choice([(-2.0, 2.0), (0.0, 1.0), (-3.0, 0.5)])
        nb = r.choice([1, 3, 5])
        if f == "histogram":
            v = p.emit(f"tf.histogram_fixed_width({a.name}, [{lo}, {hi}], nbins={nb})", [((nb,), "int32")])[0]
        else:
            v = p.emit(f"tf.histogram_fixed_width_bins({a.name}, [{lo}, {hi}], nbins={nb})", [(a.shape, "int32")])[0]
        p.emit(f"tf.cast({v.name}, {'tf.' + a.dtype})", [(v.shape, a.dtype)])
    elif f == "invperm":
        perm = list(range(r.randint(1, 6)))
        r.shuffle(perm)
        v = p.emit(f"tf.math.invert_permutation({perm})", [((len(perm),), "int32")])[0]
        p.emit(f"tf.cast({v.name}, tf.float32)", [(v.shape, "float32")])
    elif f == "s2d":
        b, bs, c = r.choice([1, 2]), 2, r.choice([1, 2])
        h, w = bs * r.choice([1, 2]), bs * r.choice([1, 2])
        x = _ordinary(p, (b, h, w, c), a.dtype if a.dtype != "float16" else "float32", -2.0, 2.0)
        v = p.emit(f"tf.nn.space_to_depth({x.name}, {bs})", [((b, h // bs, w // bs, c * bs * bs), x.dtype)])[0]
        if r.random() < 0.6:
            p.emit(f"tf.nn.depth_to_space({v.name}, {bs})", [(x.shape, x.dtype)])
    elif f == "pad":
        mode = r.choice(["REFLECT", "SYMMETRIC", "CONSTANT"])
        lim = [d - 1 if mode == "REFLECT" else d for d in a.shape]
        pads = [[r.randint(0, min(2, m)), r.randint(0, min(2, m))] for m in lim]
        cv = ", constant_values=1.5" if mode == "CONSTANT" and r.random() < 0.5 else ""
        shape = tuple(d + lo + hi for d, (lo, hi) in zip(a.shape, pads))
        p.emit(f"tf.pad({a.name}, {pads}, mode='{mode}'{cv})", [(shape, a.dtype)])
    elif f == "split" and n >= 2:
        k = r.randint(1, n - 1)
        sizes = [k, n - k] if r.random() < 0.6 else [k, -1]
        p.emit(f"tf.split({a.name}, {sizes}, axis=0)", [((k,) + a.shape[1:], a.dtype), ((n - k,) + a.shape[1:], a.dtype)])
    elif f == "useg":
        g = r.choice(["mean", "sqrt_n", "prod", "max", "min"])
        ns = r.randint(1, 4)
        ids = [r.randrange(-1 if r.random() < 0.15 else 0, ns) for _ in range(n)]
        p.emit(f"tf.math.unsorted_segment_{g}({a.name}, {ids}, {ns})", [((ns,) + a.shape[1:], a.dtype)])
    elif f == "bincount":
        m = r.randint(1, 8)
        vals = [r.randint(0, 5) for _ in range(m)]
        wt = a.dtype in ("float32", "float64") and a.rank == 1 and r.random() < 0.5
        ml = r.choice(["", ", minlength=7", ", maxlength=3"])
        if wt:
            vals = [r.randint(0, 5) for _ in range(n)]
            p.emit(f"tf.math.bincount(tf.constant({vals}), weights={a.name}{ml})", [((None,), a.dtype)])
        else:
            v = p.emit(f"tf.math.bincount(tf.constant({vals}){ml})", [((None,), "int32")])[0]
            p.emit(f"tf.cast({v.name}, tf.float32)", [((None,), "float32")])
    elif f == "cumsum":
        ax = r.randrange(-a.rank, a.rank)
        g = r.choice(["cumsum", "cumprod", "cumulative_logsumexp"])
        ex = r.choice(["", ", exclusive=True"])
        rv = r.choice(["", ", reverse=True"])
        if g == "cumulative_logsumexp" and a.dtype == "float16":
            return False
        p.emit(f"tf.math.{g}({a.name}, axis={ax}{ex}{rv})", [(a.shape, a.dtype)])
    elif f == "roll":
        ax = list(range(a.rank))
        sh = [r.randint(-3, 3) for _ in ax]
        p.emit(f"tf.roll({a.name}, shift={sh}, axis={ax})", [(a.shape, a.dtype)])
    else:
        return False
    return True


def b_nn_extra(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "float32", "float64"])
    f = r.choice(["conv3d", "pool3d", "separable", "atrous", "conv1d_t", "argmax_pool", "convolution", "isotonic",
                  "normalize_moments", "fused_bn", "zero_fraction", "batch_norm", "xent_more"])
    if f in ("conv3d", "pool3d"):
        b, d, h, w, c = r.choice([1, 2]), r.choice([2, 3]), r.choice([2, 3]), r.choice([2, 3]), r.choice([1, 2])
        x = _ordinary(p, (b, d, h, w, c), dt, -2.0, 2.0)
        pad = r.choice(["SAME", "VALID"])
        k, s = r.choice([1, 2]), r.choice([1, 2])
        od, oh, ow = ((-(-e // s) if pad == "SAME" else (e - k) // s + 1) for e in (d, h, w))
        if f == "conv3d":
            o = r.choice([1, 2])
            fl = _ordinary(p, (k, k, k, c, o), dt, -1.0, 1.0)
            p.emit(f"tf.nn.conv3d({x.name}, {fl.name}, strides=[1, {s}, {s}, {s}, 1], padding='{pad}')",
                   [((b, od, oh, ow, o), dt)])
        else:
            g = r.choice(["max_pool3d", "avg_pool3d"])
            p.emit(f"tf.nn.{g}({x.name}, ksize={k}, strides={s}, padding='{pad}')", [((b, od, oh, ow, c), dt)])
        return True
    if f in ("separable", "atrous", "argmax_pool", "convolution"):
        b, h, w, c = r.choice([1, 2]), r.choice([3, 4, 5]), r.choice([3, 4]), r.choice([1, 2])
        x = _ordinary(p, (b, h, w, c), dt if f != "argmax_pool" else "float32", -2.0, 2.0)
        pad = r.choice(["SAME", "VALID"])
        if f == "separable":
            m, o = r.choice([1, 2]), r.choice([1, 3])
            dw = _ordinary(p, (2, 2, c, m), dt, -1.0, 1.0)
            pw = _ordinary(p, (1, 1, c * m, o), dt, -1.0, 1.0)
            oh, ow = (h, w) if pad == "SAME" else (h - 1, w - 1)
            p.emit(f"tf.nn.separable_conv2d({x.name}, {dw.name}, {pw.name}, strides=[1, 1, 1, 1], padding='{pad}')",
                   [((b, oh, ow, o), dt)])
        elif f == "atrous":
            o, rate = r.choice([1, 2]), r.choice([1, 2])
            fl = _ordinary(p, (2, 2, c, o), dt, -1.0, 1.0)
            ke = rate + 1
            oh, ow = (h, w) if pad == "SAME" else (h - ke + 1, w - ke + 1)
            p.emit(f"tf.nn.atrous_conv2d({x.name}, {fl.name}, rate={rate}, padding='{pad}')", [((b, oh, ow, o), dt)])
        elif f == "argmax_pool":
            k, s = r.choice([1, 2]), r.choice([1, 2])
            oh = -(-h // s) if pad == "SAME" else (h - k) // s + 1
            ow = -(-w // s) if pad == "SAME" else (w - k) // s + 1
            inc = r.choice(["False", "True"])
            v, i = p.emit(f"tf.nn.max_pool_with_argmax({x.name}, {k}, {s}, '{pad}', include_batch_in_index={inc})",
                          [((b, oh, ow, c), "float32"), ((b, oh, ow, c), "int64")])
            p.emit(f"tf.cast({i.name}, tf.float32)", [(i.shape, "float32")])
        else:
            o = r.choice([1, 2])
            fl = _ordinary(p, (2, 2, c, o), dt, -1.0, 1.0)
            dil = r.choice([1, 2])
            ke = dil + 1
            oh, ow = (h, w) if pad == "SAME" else (h - ke + 1, w - ke + 1)
            p.emit(f"tf.nn.convolution({x.name}, {fl.name}, padding='{pad}', dilations={dil})", [((b, oh, ow, o), dt)])
        return True
    if f == "conv1d_t":
        b, w, c, o, s = r.choice([1, 2]), r.choice([2, 3, 4]), r.choice([1, 2]), r.choice([1, 2]), r.choice([1, 2])
        k = r.choice([1, 2, 3])
        pad = r.choice(["SAME", "VALID"])
        x = _ordinary(p, (b, w, c), dt, -2.0, 2.0)
        fl = _ordinary(p, (k, o, c), dt, -1.0, 1.0)
        tw = w * s if pad == "SAME" else (w - 1) * s + k
        p.emit(f"tf.nn.conv1d_transpose({x.name}, {fl.name}, [{b}, {tw}, {o}], strides={s}, padding='{pad}')",
               [((b, tw, o), dt)])
        return True
    if f == "fused_bn":
        b, h, w, c = r.choice([1, 2]), r.choice([1, 2, 3]), r.choice([1, 2]), r.choice([1, 2, 3])
        x = _ordinary(p, (b, h, w, c), "float32", -2.0, 2.0)
        sc, of = _ordinary(p, (c,), "float32", 0.5, 2.0), _ordinary(p, (c,), "float32", -1.0, 1.0)
        if r.random() < 0.5:
            y, m, v = p.emit(f"tf.compat.v1.nn.fused_batch_norm({x.name}, {sc.name}, {of.name}, epsilon=0.001)",
                             [(x.shape, "float32"), ((c,), "float32"), ((c,), "float32")])
        else:
            mu, va = _ordinary(p, (c,), "float32", -1.0, 1.0), _ordinary(p, (c,), "float32", 0.25, 2.0)
            y, m, v = p.emit(f"tf.compat.v1.nn.fused_batch_norm({x.name}, {sc.name}, {of.name}, mean={mu.name}, "
                             f"variance={va.name}, is_training=False)",
                             [(x.shape, "float32"), ((c,), "float32"), ((c,), "float32")])
        return True
    a = _flt(p)
    if f == "isotonic":
        if a.rank == 1:
            a = p.emit(f"tf.reshape({a.name}, [1, -1])", [((1, a.shape[0]), a.dtype)])[0]
        if a.rank != 2:
            return False
        inc = r.choice(["True", "False"])
        v, s = p.emit(f"tf.nn.isotonic_regression({a.name}, decreasing={inc})", [(a.shape, a.dtype), (a.shape, "int32")])
        p.emit(f"tf.cast({s.name}, {'tf.' + a.dtype})", [(a.shape, a.dtype)])
    elif f == "normalize_moments":
        ax = [0]
        mu, va = p.emit(f"tf.nn.moments({a.name}, axes={ax})", [(a.shape[1:], a.dtype), (a.shape[1:], a.dtype)])
        cnt, s, ss, sh = p.emit(f"tf.nn.sufficient_statistics({a.name}, axes={ax}, shift=0.5)",
                                [((), a.dtype), (a.shape[1:], a.dtype), (a.shape[1:], a.dtype), ((), a.dtype)])
        p.emit(f"tf.nn.normalize_moments({cnt.name}, {s.name}, {ss.name}, shift=0.5)",
               [(a.shape[1:], a.dtype), (a.shape[1:], a.dtype)])
    elif f == "zero_fraction":
        p.emit(f"tf.math.zero_fraction(tf.nn.relu({a.name}))", [((), "float32")])
    elif f == "batch_norm":
        mu, va = p.emit(f"tf.nn.moments({a.name}, axes=[0], keepdims=True)",
                        [((1,) + a.shape[1:], a.dtype), ((1,) + a.shape[1:], a.dtype)])
        p.emit(f"tf.nn.batch_normalization({a.name}, {mu.name}, {va.name}, offset=0.5, scale=2.0, "
               f"variance_epsilon=1e-3)", [(a.shape, a.dtype)])
    else:
        lab = _ordinary(p, a.shape, a.dtype, 0.0, 1.0)
        g = r.choice(["sigmoid", "weighted", "poisson", "softmax"])
        if g == "sigmoid":
            p.emit(f"tf.nn.sigmoid_cross_entropy_with_logits(labels={lab.name}, logits={a.name})", [(a.shape, a.dtype)])
        elif g == "weighted":
            p.emit(f"tf.nn.weighted_cross_entropy_with_logits({lab.name}, {a.name}, pos_weight=2.5)",
                   [(a.shape, a.dtype)])
        elif g == "poisson":
            p.emit(f"tf.nn.log_poisson_loss({lab.name}, {a.name}, compute_full_loss=True)", [(a.shape, a.dtype)])
        else:
            p.emit(f"tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax({lab.name}), logits={a.name})",
                   [(a.shape[:-1], a.dtype)])
    return True


def b_fft(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["fft", "ifft", "rfft2d", "shift", "dct", "vorbis", "fft2d"])
    if f == "vorbis":
        n = r.choice([1, 2, 3, 4, 8])
        v = p.emit(f"tf.signal.vorbis_window({n})", [((n,), "float32")])[0]
        a = p.pick(lambda x: x.dtype == "float32" and x.known and x.rank >= 1 and x.shape[-1] == n, fresh=None)
        if a is not None:
            p.emit(f"{a.name} * {v.name}", [(a.shape, "float32")])
        return True
    a = _flt(p, dts=("float32", "float32", "float64"))
    n = a.shape[-1]
    if f in ("fft", "ifft", "fft2d"):
        cdt = "complex64" if a.dtype == "float32" else "complex128"
        z = p.emit(f"tf.complex({a.name}, tf.reverse({a.name}, [-1]) * 0.5)", [(a.shape, cdt)])[0]
        if f == "fft2d":
            if a.rank < 2:
                return False
            z = p.emit(f"tf.signal.fft2d({z.name})", [(a.shape, cdt)])[0]
        else:
            z = p.emit(f"tf.signal.{f}({z.name})", [(a.shape, cdt)])[0]
        p.emit(f"tf.math.real({z.name}) + tf.math.imag({z.name})", [(a.shape, a.dtype)])
    elif f == "rfft2d":
        if a.rank < 2 or a.dtype != "float32":
            return False
        m = a.shape[-2]
        z = p.emit(f"tf.signal.rfft2d({a.name})", [(a.shape[:-1] + (n // 2 + 1,), "complex64")])[0]
        if r.random() < 0.6:
            p.emit(f"tf.signal.irfft2d({z.name}, fft_length=[{m}, {n}])", [(a.shape, "float32")])
        else:
            p.emit(f"tf.math.abs({z.name})", [(z.shape, "float32")])
    elif f == "shift":
        g = r.choice(["fftshift", "ifftshift"])
        ax = r.choice(["", ", axes=-1", ", axes=0"])
        p.emit(f"tf.signal.{g}({a.name}{ax})", [(a.shape, a.dtype)])
    else:
        t = r.choice([1, 2, 3, 4])
        nm = r.choice(["None", "'ortho'"]) if t != 1 else "None"
        if t == 1 and n < 2:
            return False
        g = r.choice(["dct", "idct"])
        p.emit(f"tf.signal.{g}({a.name}, type={t}, norm={nm})", [(a.shape, a.dtype)])
    return True


def b_linalg_ops(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "float64"])
    n = r.choice([1, 2, 3, 4])
    bt = r.choice([(), (), (2,)])
    a = _ordinary(p, bt + (n, n), dt, -2.0, 2.0)
    f = r.choice(["lu", "lu_solve", "logdet", "chol_solve", "inv", "solve", "adjoint", "op_full", "op_diag", "op_tril",
                  "banded", "rank", "normalize", "det"])
    spd = f"tf.linalg.matmul({a.name}, {a.name}, transpose_b=True) + {n}.0 * tf.eye({n}, dtype=tf.{dt})"
    if f in ("lu", "lu_solve"):
        lu, perm = p.emit(f"tf.linalg.lu({spd})", [(a.shape, dt), (bt + (n,), "int32")])
        if f == "lu":
            p.emit(f"tf.linalg.lu_reconstruct({lu.name}, {perm.name})", [(a.shape, dt)])
        else:
            rhs = _ordinary(p, bt + (n, r.choice([1, 2])), dt, -2.0, 2.0)
            p.emit(f"tf.linalg.lu_solve({lu.name}, {perm.name}, {rhs.name})", [(rhs.shape, dt)])
    elif f == "logdet":
        p.emit(f"tf.linalg.logdet({spd})", [(bt, dt)])
    elif f == "chol_solve":
        c = p.emit(f"tf.linalg.cholesky({spd})", [(a.shape, dt)])[0]
        rhs = _ordinary(p, bt + (n, 1), dt, -2.0, 2.0)
        p.emit(f"tf.linalg.cholesky_solve({c.name}, {rhs.name})", [(rhs.shape, dt)])
    elif f == "inv":
        p.emit(f"tf.linalg.inv({spd})", [(a.shape, dt)])
    elif f == "solve":
        rhs = _ordinary(p, bt + (n, r.choice([1, 2])), dt, -2.0, 2.0)
        adj = r.choice(["", ", adjoint=True"])
        p.emit(f"tf.linalg.solve({spd}, {rhs.name}{adj})", [(rhs.shape, dt)])
    elif f == "adjoint":
        p.emit(f"tf.linalg.adjoint({a.name})", [(a.shape, dt)])
    elif f in ("op_full", "op_diag", "op_tril"):
        if f == "op_full":
            op = f"tf.linalg.LinearOperatorFullMatrix({spd}, is_self_adjoint=True, is_positive_definite=True)"
        elif f == "op_diag":
            d = _ordinary(p, bt + (n,), dt, 0.5, 3.0)
            op = f"tf.linalg.LinearOperatorDiag({d.name})"
        else:
            op = f"tf.linalg.LinearOperatorLowerTriangular(tf.linalg.band_part({a.name}, -1, 0) + " \
                 f"4.0 * tf.eye({n}, dtype=tf.{dt}))"
        g = r.choice(["matmul", "solve", "det", "logdet", "dense", "matvec"])
        if g in ("matmul", "solve"):
            rhs = _ordinary(p, bt + (n, 2), dt, -2.0, 2.0)
            p.emit(f"{op}.{g}({rhs.name})", [(rhs.shape, dt)])
        elif g == "matvec":
            rhs = _ordinary(p, bt + (n,), dt, -2.0, 2.0)
            p.emit(f"{op}.matvec({rhs.name})", [(rhs.shape, dt)])
        elif g == "det":
            p.emit(f"{op}.determinant()", [(bt, dt)])
        elif g == "logdet":
            p.emit(f"{op}.log_abs_determinant()", [(bt, dt)])
        else:
            p.emit(f"{op}.to_dense()", [(a.shape, dt)])
    elif f == "banded":
        rhs = _ordinary(p, bt + (n, 1), dt, -2.0, 2.0)
        band = _ordinary(p, bt + (2, n), dt, 1.0, 3.0)
        lo = r.choice(["True", "False"])
        p.emit(f"tf.linalg.banded_triangular_solve({band.name}, {rhs.name}, lower={lo})", [(rhs.shape, dt)])
    elif f == "rank":
        v = p.emit(f"tf.linalg.matrix_rank({a.name})", [(bt, "int64")])[0]
        p.emit(f"tf.cast({v.name}, tf.float32)", [(bt, "float32")])
    elif f == "normalize":
        o = r.choice(["'euclidean'", "1", "2", "np.inf"])
        p.emit(f"tf.linalg.normalize({a.name}, ord={o}, axis=-1)", [(a.shape, dt), (bt + (n, 1), dt)])
    else:
        p.emit(f"tf.linalg.det({a.name})", [(bt, dt)])
    return True


def b_quant(p: Prog) -> bool:
    r = p.rng
    a = _flt(p, dts=("float32",))
    f = r.choice(["args", "vars", "qdq", "qdq_axis"])
    lo, hi = r.choice([(-1.0, 1.0), (-6.0, 6.0), (0.0, 2.5), (-0.5, 3.0)])
    if f == "args":
        nb = r.choice([8, 4, 2])
        nr = r.choice(["False", "True"])
        p.emit(f"tf.quantization.fake_quant_with_min_max_args({a.name}, min={lo}, max={hi}, num_bits={nb}, "
               f"narrow_range={nr})", [(a.shape, "float32")])
    elif f == "vars":
        p.emit(f"tf.quantization.fake_quant_with_min_max_vars({a.name}, tf.constant({lo}), tf.constant({hi}))",
               [(a.shape, "float32")])
    elif f == "qdq":
        rng = r.choice(["True", "False"])
        p.emit(f"tf.quantization.quantize_and_dequantize_v2({a.name}, {lo}, {hi}, range_given={rng}, num_bits=8)",
               [(a.shape, "float32")])
    else:
        c = a.shape[-1]
        p.emit(f"tf.quantization.quantize_and_dequantize_v2({a.name}, [{lo}] * {c}, [{hi}] * {c}, range_given=True, "
               f"axis=-1, round_mode='HALF_UP')", [(a.shape, "float32")])
    return True


def b_sparse_more(p: Prog) -> bool:
    r = p.rng
    m, n = r.choice([2, 3, 4]), r.choice([2, 3])
    dt = r.choice(["float32", "float64", "int32"])
    zero = "0" if dt == "int32" else "0.0"

    def lit() -> V:
        vals = [r.choice([zero, zero, (str(r.randint(-4, 4)) if dt == "int32" else repr(r.randint(-8, 8) / 4))])
                for _ in range(m * n)]
        return _lits(p, (m, n), dt, vals)
    a = lit()
    st = p.emit(f"tf.sparse.from_dense({a.name})", [((m, n), dt + ":sparse")])[0]
    f = r.choice(["concat", "fill", "bincount", "map", "segment", "expand", "reshape"])
    if f == "concat":
        b = lit()
        s2 = p.emit(f"tf.sparse.from_dense({b.name})", [((m, n), dt + ":sparse")])[0]
        ax = r.choice([0, 1])
        shape = (2 * m, n) if ax == 0 else (m, 2 * n)
        t = p.emit(f"tf.sparse.concat({ax}, [{st.name}, {s2.name}])", [(shape, dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [(shape, dt)])
    elif f == "fill":
        t, e = p.emit(f"tf.sparse.fill_empty_rows({st.name}, {'5' if dt == 'int32' else '-2.5'})",
                      [((m, n), dt + ":sparse"), ((m,), "bool")])
        p.emit(f"tf.sparse.to_dense({t.name})", [((m, n), dt)])
    elif f == "bincount" and dt == "int32":
        t = p.emit(f"tf.sparse.bincount(tf.sparse.map_values(tf.math.abs, {st.name}), minlength=5, "
                   f"axis=-1, binary_output={r.choice(['False', 'True'])})", [((m, None), "int32:sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [((m, None), "int32")])
    elif f == "map":
        t = p.emit(f"tf.sparse.map_values(tf.math.multiply, {st.name}, {st.name})", [((m, n), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [((m, n), dt)])
    elif f == "segment" and dt != "int32":
        data = _ordinary(p, (m, n), dt, -2.0, 2.0)
        g = r.choice(["sum", "mean", "sqrt_n"])
        k = r.randint(1, m)
        idx = sorted(r.randrange(m) for _ in range(k))
        seg = sorted(r.randrange(k) for _ in range(k))
        ns = r.choice(["", f", num_segments={k + 1}"])
        p.emit(f"tf.sparse.segment_{g}({data.name}, {idx}, {seg}{ns})", [((None, n), dt)])
    elif f == "expand":
        t = p.emit(f"tf.sparse.expand_dims({st.name}, axis={r.choice([0, -1, 1])})", [((None, None, None), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.reduce_sum({t.name})", [((), dt)])
    else:
        t = p.emit(f"tf.sparse.reshape({st.name}, [{n}, -1])", [((n, m), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({t.name})", [((n, m), dt)])
    return True


def b_ragged_more(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "int32", "float64"])
    f = r.choice(["from_tensor_len", "from_tensor_pad", "nested", "reduce", "merge", "seg_ids", "row_lengths"])
    m, n = r.choice([1, 2, 3]), r.choice([1, 2, 3])
    a = _lits(p, (m, n), dt, [(str(r.choice([0, 0, r.randint(-4, 6)])) if dt == "int32" else
                               repr(r.choice([0.0, r.randint(-8, 8) / 4]))) for _ in range(m * n)])
    if f == "from_tensor_len":
        lens = [r.randint(0, n) for _ in range(m)]
        rt = p.emit(f"tf.RaggedTensor.from_tensor({a.name}, lengths={lens})", [((m, None), dt + ":ragged")])[0]
    elif f == "from_tensor_pad":
        pad = "0" if dt == "int32" else "0.0"
        rt = p.emit(f"tf.RaggedTensor.from_tensor({a.name}, padding={pad})", [((m, None), dt + ":ragged")])[0]
    elif f == "nested":
        flat = p.emit(f"tf.reshape({a.name}, [-1])", [((m * n,), dt)])[0]
        tot = m * n
        inner = []
        left = tot
        while left > 0:
            k = r.randint(0, left)
            inner.append(k)
            left -= k
        outer = [len(inner)]
        rt = p.emit(f"tf.RaggedTensor.from_nested_row_lengths({flat.name}, [{outer}, {inner}])",
                    [((1, None, None), dt + ":ragged")])[0]
        p.emit(f"{rt.name}.flat_values", [((tot,), dt)])
        p.emit(f"tf.cast({rt.name}.nested_row_lengths()[1], tf.float32)", [((None,), "float32")])
        return True
    elif f == "seg_ids":
        ids = sorted(r.randrange(3) for _ in range(r.randint(0, 5)))
        v = p.emit(f"tf.ragged.segment_ids_to_row_splits({ids}, num_segments=3)", [((4,), "int64")])[0]
        p.emit(f"tf.ragged.row_splits_to_segment_ids({v.name})", [((len(ids),), "int64")])
        return True
    else:
        lens = [r.randint(0, n) for _ in range(m)]
        flat = p.emit(f"tf.reshape({a.name}, [-1])[:{sum(lens)}]", [((sum(lens),), dt)])[0]
        rt = p.emit(f"tf.RaggedTensor.from_row_lengths({flat.name}, {lens})", [((m, None), dt + ":ragged")])[0]
    g = r.choice(["mean", "max", "min", "prod", "merge", "to_tensor", "row_starts"])
    if f == "merge":
        g = "merge"
    if g in ("mean", "max", "min", "prod"):
        if g == "mean" and dt == "int32":
            g = "sum"
        p.emit(f"tf.reduce_{g}({rt.name}, axis={r.choice([1, 0])})", [((None,), dt)])
    elif g == "merge":
        p.emit(f"{rt.name}.merge_dims(0, 1)", [((None,), dt)])
    elif g == "row_starts":
        p.emit(f"tf.cast({rt.name}.row_starts(), tf.float32)", [((m,), "float32")])
    else:
        p.emit(f"{rt.name}.to_tensor(default_value={'-1' if dt == 'int32' else '0.5'})", [((m, None), dt)])
    return True


_WORDS48 = ["'abc'", "'h\\u00e9llo'", "''", "'3.25'", "'-17'", "'1e3'", "'x y'", "'nan'", "'\\u4e2d\\u6587'"]


def b_strings_more(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["bytes_split", "unicode_split", "as_string", "to_number", "join", "unicode_decode_len"])
    if f == "as_string":
        a = _flt(p, dts=("float32", "float64"))
        opt = r.choice([", precision=2", ", scientific=True", ", width=8", ", precision=0, fill='0', width=6", ""])
        s = p.emit(f"tf.strings.as_string({a.name}{opt})", [(a.shape, "string")])[0]
        p.emit(f"tf.strings.length({s.name})", [(a.shape, "int32")])
        return True
    shape = r.choice([(2,), (3,)])
    s = p.new_input(shape, "int32", edge=False)
    s.dtype = "string"
    p.inputs[-1] = (s, f"tf.constant([{', '.join(r.choice(_WORDS48) for _ in range(_size(shape)))}])")
    if f == "bytes_split":
        rt = p.emit(f"tf.strings.bytes_split({s.name})", [((shape[0], None), "string:ragged")])[0]
        p.emit(f"tf.cast({rt.name}.row_lengths(), tf.float32)", [((shape[0],), "float32")])
    elif f == "unicode_split":
        rt = p.emit(f"tf.strings.unicode_split({s.name}, 'UTF-8')", [((shape[0], None), "string:ragged")])[0]
        p.emit(f"tf.strings.reduce_join({rt.name}, axis=-1, separator='|')", [((shape[0],), "string")])
    elif f == "to_number":
        ot = r.choice(["tf.float32", "tf.float64", "tf.int32", "tf.int64"])
        p.emit(f"tf.strings.to_number({s.name}, out_type={ot})", [(shape, ot[3:])])
    elif f == "join":
        p.emit(f"tf.strings.join([{s.name}, tf.strings.upper({s.name})], separator='{r.choice(['', '-', ' '])}')",
               [(shape, "string")])
    else:
        rt = p.emit(f"tf.strings.unicode_decode({s.name}, 'UTF-8')", [((shape[0], None), "int32:ragged")])[0]
        p.emit(f"tf.reduce_sum({rt.name}, axis=-1)", [((shape[0],), "int32")])
    return True


def b_math_more(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["nextafter", "approx_max_k", "non_decreasing", "scalar_mul", "linspace", "reduce_prod",
                  "top_k_sorted", "clip_norm_axes", "lbeta_sum"])
    a = _flt(p)
    if f == "nextafter":
        toward = r.choice(["0.0", "float('inf')", "-float('inf')", "1.0"])
        p.emit(f"tf.math.nextafter({a.name}, tf.fill(tf.shape({a.name}), tf.constant({toward}, tf.{a.dtype})))",
               [(a.shape, a.dtype)])
    elif f == "approx_max_k":
        k = r.randint(1, a.shape[-1])
        g = r.choice(["approx_max_k", "approx_min_k"])
        p.emit(f"tf.math.{g}({a.name}, {k})", [(a.shape[:-1] + (k,), a.dtype), (a.shape[:-1] + (k,), "int32")])
    elif f == "non_decreasing":
        g = r.choice(["is_non_decreasing", "is_strictly_increasing"])
        v = p.emit(f"tf.math.{g}({a.name})", [((), "bool")])[0]
        p.emit(f"tf.cast({v.name}, tf.float32)", [((), "float32")])
    elif f == "scalar_mul":
        p.emit(f"tf.math.scalar_mul({r.choice(['2.5', '-0.5', '3'])}, {a.name})", [(a.shape, a.dtype)])
    elif f == "linspace":
        num = r.choice([1, 2, 5])
        p.emit(f"tf.linspace(tf.reduce_min({a.name}), tf.reduce_max({a.name}), {num})", [((num,), a.dtype)])
    elif f == "reduce_prod":
        ax = r.randrange(a.rank)
        p.emit(f"tf.math.reduce_prod({a.name}, axis={ax}, keepdims=True)",
               [(a.shape[:ax] + (1,) + a.shape[ax + 1:], a.dtype)])
    elif f == "top_k_sorted":
        k = r.randint(0, a.shape[-1])
        v, i = p.emit(f"tf.math.top_k({a.name}, k={k}, sorted={r.choice(['True', 'False'])})",
                      [(a.shape[:-1] + (k,), a.dtype), (a.shape[:-1] + (k,), "int32")])
        p.emit(f"tf.sort({v.name}, axis=-1)", [(v.shape, a.dtype)])
    elif f == "clip_norm_axes":
        ax = [r.randrange(a.rank)]
        p.emit(f"tf.clip_by_norm({a.name}, {r.choice(['0.5', '2.0'])}, axes={ax})", [(a.shape, a.dtype)])
    else:
        p.emit(f"tf.math.lbeta(tf.math.abs({a.name}) + 0.5)", [(a.shape[:-1], a.dtype)])
    return True


NEW = [(b_control, 5), (b_array_more, 6), (b_nn_extra, 5), (b_fft, 3), (b_linalg_ops, 4), (b_quant, 2),
       (b_sparse_more, 2), (b_ragged_more, 2), (b_strings_more, 2), (b_math_more, 3)]
BUILDERS = F.BUILDERS + NEW


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed (fz47b_gen.program's shape, the builders widened)."""
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


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
