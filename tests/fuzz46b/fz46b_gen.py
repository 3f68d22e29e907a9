"""A throwaway differential generator of the public API, round four (fz46b): fz45_gen.py's chained programs (its
seeds stay reproducible there) widened where a person's program goes and fz45_gen does not: tf.linalg (a matrix
made symmetric positive definite as people make one, then solve, cholesky, cholesky_solve, triangular_solve, det,
slogdet, logdet, inv, norm, trace, diag_part, band_part, matvec, qr), tf.signal (rfft/irfft, fft/ifft of a complex
value, then abs/real/imag/angle), tf.image basics on [0, 1] pixels (flips, rot90, brightness, contrast, saturation,
grayscale, per-image standardization, resize, central_crop, total_variation, rgb_to_hsv), strings and ragged values
(as_string/to_number/length/join, RaggedTensor.from_row_lengths, ragged reductions, to_tensor), sparse segment ops,
cumsum/cumprod with exclusive/reverse on every axis, clip_by_value with tensor bounds, clip_by_norm with axes,
clip_by_global_norm, the tf.nn losses and moments (weighted cross entropy, log_poisson_loss, weighted_moments,
sufficient_statistics, batch_normalization, scale_regularization_loss), and int8..int64 / uint8..uint64 values
through tf.bitwise and the &, |, ^, ~ operators, shifts by 0..width+1, floordiv/floormod and wrapping casts. The four
modes are fz45_gen's (eager statements, tf.function, GradientTape, MirroredStrategy(2 CPUs).run with reduce and
gather); strings and ragged values are compared by their contents.

    python tests/fuzz46b/fz46b_gen.py SEED N [--show 40] [--steps 12] [--print]

Not a test: a probe for classes the project's generators do not draw. Deterministic: random.Random(SEED).
"""
from __future__ import annotations

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))

import fz45_gen as G  # noqa: E402 - the third round's builders, modes and comparison

V, Prog = G.V, G.Prog
_FL, _INT = G._FL, G._INT
UINTS = {"uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}
SINTS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64}
_ALLINT = {**UINTS, **SINTS}


def _lin(v: V) -> bool:
    return v.dtype in ("float32", "float64") and v.known and v.rank >= 2 and 0 not in v.shape and max(v.shape) <= 5


def _spd(p: Prog) -> V | None:
    """A symmetric positive definite matrix as a person makes one: a @ a^T + n I from an earlier float value."""
    a = p.pick(_lin)
    if a is None:
        a = p.new_input((3, 3), p.rng.choice(["float32", "float64"]))
    n = a.shape[-2]
    eye = f"tf.eye({n}, batch_shape={list(a.shape[:-2])}, dtype={G._tfd(a.dtype)})" if a.rank > 2 else \
        f"tf.eye({n}, dtype={G._tfd(a.dtype)})"
    return p.emit(f"tf.linalg.matmul({a.name}, {a.name}, transpose_b=True) + {float(n)} * {eye}",
                  [(a.shape[:-1] + (n,), a.dtype)])[0]


def b_linalg(p: Prog) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.45:
        s = _spd(p)
        n = s.shape[-1]
        f = r.choice(["solve", "cholesky", "cholesky_solve", "triangular_solve", "det", "slogdet", "logdet", "inv",
                      "inv_adj", "solve_adj"])
        batch = s.shape[:-2]
        if f in ("solve", "solve_adj", "triangular_solve", "cholesky_solve"):
            k = r.choice([1, 2, 3])
            c = [v for v in p.vals if v.dtype == s.dtype and v.shape == batch + (n, k)]
            rhs = r.choice(c) if c and r.random() < 0.5 else p.new_input(batch + (n, k), s.dtype)
            if f == "solve":
                p.emit(f"tf.linalg.solve({s.name}, {rhs.name})", [(batch + (n, k), s.dtype)])
            elif f == "solve_adj":
                p.emit(f"tf.linalg.solve({s.name}, {rhs.name}, adjoint=True)", [(batch + (n, k), s.dtype)])
            elif f == "triangular_solve":
                low = r.choice(["True", "False"])
                ch = p.emit(f"tf.linalg.cholesky({s.name})", [(s.shape, s.dtype)])[0]
                m = ch.name if low == "True" else f"tf.linalg.matrix_transpose({ch.name})"
                p.emit(f"tf.linalg.triangular_solve({m}, {rhs.name}, lower={low})", [(batch + (n, k), s.dtype)])
            else:
                ch = p.emit(f"tf.linalg.cholesky({s.name})", [(s.shape, s.dtype)])[0]
                p.emit(f"tf.linalg.cholesky_solve({ch.name}, {rhs.name})", [(batch + (n, k), s.dtype)])
        elif f == "cholesky":
            p.emit(f"tf.linalg.cholesky({s.name})", [(s.shape, s.dtype)])
        elif f == "slogdet":
            p.emit(f"tf.linalg.slogdet({s.name})", [(batch, s.dtype), (batch, s.dtype)])
        elif f in ("det", "logdet"):
            p.emit(f"tf.linalg.{f}({s.name})", [(batch, s.dtype)])
        elif f == "inv":
            p.emit(f"tf.linalg.inv({s.name})", [(s.shape, s.dtype)])
        else:
            p.emit(f"tf.linalg.inv({s.name}, adjoint=True)", [(s.shape, s.dtype)])
        return True
    a = p.pick(lambda v: v.dtype in ("float32", "float64") and v.known and v.rank >= 1)
    if a is None:
        return False
    if u < 0.7:
        if a.rank >= 2 and r.random() < 0.6:
            o = r.choice(["'fro'", "'euclidean'", "1", "2", "np.inf"])
            if o in ("1", "np.inf", "'fro'"):
                p.emit(f"tf.linalg.norm({a.name}, ord={o}, axis=[-2, -1])", [(a.shape[:-2], a.dtype)])
            else:
                p.emit(f"tf.linalg.norm({a.name}, ord={o}, axis=-1, keepdims=True)",
                       [(a.shape[:-1] + (1,), a.dtype)])
        else:
            o = r.choice(["'euclidean'", "1", "np.inf", "3"])
            p.emit(f"tf.linalg.norm({a.name}, ord={o})", [((), a.dtype)])
        return True
    if a.rank < 2:
        return False
    m, n = a.shape[-2:]
    f = r.choice(["trace", "diag_part", "band_part", "matvec", "qr", "l2_normalize"])
    if f == "trace" and m == n:
        p.emit(f"tf.linalg.trace({a.name})", [(a.shape[:-2], a.dtype)])
    elif f == "diag_part":
        p.emit(f"tf.linalg.diag_part({a.name})", [(a.shape[:-2] + (min(m, n),), a.dtype)])
    elif f == "band_part":
        lo, up = r.choice([(0, -1), (-1, 0), (1, 1), (0, 0)])
        p.emit(f"tf.linalg.band_part({a.name}, {lo}, {up})", [(a.shape, a.dtype)])
    elif f == "matvec":
        x = p.new_input((n,), a.dtype)
        p.emit(f"tf.linalg.matvec({a.name}, {x.name})", [(a.shape[:-1], a.dtype)])
    elif f == "qr" and m >= n:
        full = r.random() < 0.3
        p.emit(f"tf.linalg.qr({a.name}{', full_matrices=True' if full else ''})",
               [(a.shape[:-1] + ((m,) if full else (n,)), a.dtype), (a.shape[:-2] + ((m,) if full else (n,)) + (n,),
                                                                      a.dtype)])
    elif f == "l2_normalize":
        p.emit(f"tf.linalg.l2_normalize({a.name}, axis={r.choice([-1, 0])})", [(a.shape, a.dtype)])
    else:
        return False
    return True


def b_signal(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in ("float32", "float64") and v.known and v.rank >= 1 and v.shape[-1] > 0)
    if a is None:
        return False
    n = a.shape[-1]
    ct = "complex64" if a.dtype == "float32" else "complex128"
    u = r.random()
    if u < 0.4 and a.dtype == "float32":
        fl = r.choice(["", f", fft_length=[{n}]", f", fft_length=[{max(1, n - 1)}]", f", fft_length=[{n + 2}]"])
        m = (int(fl.split("[")[1].rstrip("]")) if fl else n) // 2 + 1
        z = p.emit(f"tf.signal.rfft({a.name}{fl})", [(a.shape[:-1] + (m,), ct)])[0]
        if r.random() < 0.4:
            p.emit(f"tf.signal.irfft({z.name})", [(a.shape[:-1] + (2 * (m - 1),), a.dtype)])
            return True
    else:
        c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape and v.name != a.name]
        im = r.choice(c).name if c and r.random() < 0.5 else "0.5"
        z = p.emit(f"tf.complex({a.name}, {im} * tf.ones_like({a.name}))" if im == "0.5" else
                   f"tf.complex({a.name}, {im})", [(a.shape, ct)])[0]
        f = r.choice(["fft", "ifft"] + (["fft2d"] if a.rank >= 2 else []))
        z = p.emit(f"tf.signal.{f}({z.name})", [(a.shape, ct)])[0]
    g = r.choice(["tf.math.abs", "tf.math.real", "tf.math.imag", "tf.math.angle"])
    p.emit(f"{g}({z.name})", [(z.shape, a.dtype)])
    return True


def _image(p: Prog) -> V:
    """An image of [0, 1] pixels (k/8, now and then an edge value): [h, w, 3] or [b, h, w, 3]."""
    r = p.rng
    shape = ((r.choice([1, 2]),) if r.random() < 0.5 else ()) + (r.choice([1, 2, 3, 4]), r.choice([1, 2, 3]), 3)
    dt = r.choice(["float32", "float32", "float64", "float16"])
    v = p.new_input(shape, dt, bound=None, edge=False)
    size = 1
    for d in shape:
        size *= d
    vals = [repr(r.randint(0, 8) / 8) if r.random() > 0.05 else r.choice(["float('nan')", "1.5", "-0.0"])
            for _ in range(size)]
    text = f"tf.constant(np.array([{', '.join(vals)}], np.{dt}).reshape({list(shape)}))"
    p.inputs[-1] = (v, text)
    return v


def b_image(p: Prog) -> bool:
    r = p.rng
    c = [v for v in p.vals if v.known and v.rank in (3, 4) and v.shape[-1] == 3 and v.dtype in _FL and 0 not in v.shape]
    a = r.choice(c) if c and r.random() < 0.6 else _image(p)
    f = r.choice(["flip_left_right", "flip_up_down", "rot90", "adjust_brightness", "adjust_contrast", "adjust_gamma",
                  "rgb_to_grayscale", "per_image_standardization", "resize", "central_crop", "total_variation",
                  "rgb_to_hsv", "adjust_saturation", "transpose", "adjust_hue", "random_flip"])
    s = a.shape
    if f in ("flip_left_right", "flip_up_down", "per_image_standardization"):
        p.emit(f"tf.image.{f}({a.name})", [(s, a.dtype)])
    elif f == "rot90":
        k = r.choice([1, 2, 3])
        out = s if k == 2 else s[:-3] + (s[-2], s[-3], 3)
        p.emit(f"tf.image.rot90({a.name}, k={k})", [(out, a.dtype)])
    elif f == "transpose":
        p.emit(f"tf.image.transpose({a.name})", [(s[:-3] + (s[-2], s[-3], 3), a.dtype)])
    elif f == "adjust_brightness":
        p.emit(f"tf.image.adjust_brightness({a.name}, {r.choice(['0.1', '-0.25', '0.5'])})", [(s, a.dtype)])
    elif f == "adjust_contrast":
        p.emit(f"tf.image.adjust_contrast({a.name}, {r.choice(['2.0', '0.5', '-1.0'])})", [(s, a.dtype)])
    elif f == "adjust_gamma":
        p.emit(f"tf.image.adjust_gamma({a.name}, {r.choice(['2.0', '0.5'])}, gain={r.choice(['1', '0.5'])})",
               [(s, a.dtype)])
    elif f == "adjust_saturation":
        p.emit(f"tf.image.adjust_saturation({a.name}, {r.choice(['2.0', '0.5', '0.0'])})", [(s, a.dtype)])
    elif f == "adjust_hue":
        p.emit(f"tf.image.adjust_hue({a.name}, {r.choice(['0.2', '-0.5', '0.0'])})", [(s, a.dtype)])
    elif f == "rgb_to_grayscale":
        p.emit(f"tf.image.rgb_to_grayscale({a.name})", [(s[:-1] + (1,), a.dtype)])
    elif f == "rgb_to_hsv":
        p.emit(f"tf.image.rgb_to_hsv({a.name})", [(s, a.dtype)])
    elif f == "resize":
        h, w = r.choice([1, 2, 3, 5]), r.choice([1, 2, 4])
        m = r.choice(["bilinear", "nearest", "bicubic", "area"])
        p.emit(f"tf.image.resize({a.name}, [{h}, {w}], method='{m}')", [(s[:-3] + (h, w, 3), "float32")])
    elif f == "central_crop":
        frac = r.choice([0.5, 0.75, 1.0])
        p.emit(f"tf.image.central_crop({a.name}, {frac})", [(s[:-3] + (None, None, 3), a.dtype)])
    elif f == "total_variation":
        p.emit(f"tf.image.total_variation({a.name})", [(s[:-3], a.dtype)])
    else:
        p.emit(f"tf.image.stateless_random_flip_left_right({a.name}, seed=[1, 2])", [(s, a.dtype)])
    return True


def b_string_ragged(p: Prog) -> bool:
    r = p.rng
    u = r.random()
    if u < 0.45:
        a = p.pick(lambda v: (v.dtype in _FL or v.dtype in ("int32", "int64")) and v.dtype != "bfloat16"
                   and v.known and v.size <= 12)
        if a is None:
            return False
        opt = r.choice(["", ", precision=3", ", scientific=True", ", shortest=True", ", width=6"]) \
            if a.dtype in _FL else r.choice(["", ", width=4", ", fill='0', width=3"])
        s = p.emit(f"tf.strings.as_string({a.name}{opt})", [(a.shape, "string")])[0]
        g = r.random()
        if g < 0.5:
            ot = r.choice(["", ", out_type=tf.float64", ", out_type=tf.int32"])
            dt = {"": "float32", ", out_type=tf.float64": "float64", ", out_type=tf.int32": "int32"}[ot]
            p.emit(f"tf.strings.to_number({s.name}{ot})", [(a.shape, dt)])
        elif g < 0.75:
            p.emit(f"tf.cast(tf.strings.length({s.name}), tf.float32)", [(a.shape, "float32")])
        else:
            p.emit(f"tf.strings.join([{s.name}, {s.name}], separator='|')", [(a.shape, "string")])
        return True
    a = p.pick(lambda v: _numv(v) and v.known and v.rank >= 1 and 0 < v.size <= 24)
    if a is None:
        return False
    flat = p.emit(f"tf.reshape({a.name}, [-1])", [((a.size,), a.dtype)])[0]
    n = a.size
    k = r.randint(1, 4)
    cuts = sorted(r.randint(0, n) for _ in range(k - 1))
    lens = [b - c for b, c in zip(cuts + [n], [0] + cuts)]
    rt = p.emit(f"tf.RaggedTensor.from_row_lengths({flat.name}, {lens})", [((k, None), a.dtype + ":ragged")])[0]
    g = r.choice(["reduce_sum", "reduce_max", "reduce_mean", "to_tensor", "row_lengths", "reduce_min", "cumsum"])
    if g == "to_tensor":
        p.emit(f"{rt.name}.to_tensor(default_value={'0' if a.dtype in _INT else '-1.0'})", [((k, None), a.dtype)])
    elif g == "row_lengths":
        p.emit(f"{rt.name}.row_lengths()", [((k,), "int64")])
    elif g == "cumsum":
        p.emit(f"tf.math.cumsum({rt.name}, axis=1).flat_values", [((n,), a.dtype)])
    else:
        ax = r.choice(["1", "0", "None"])
        shape = {"1": (k,), "0": (None,), "None": ()}[ax]
        dt = a.dtype
        if g == "reduce_mean" and a.dtype in _INT:
            dt = "float64"
        p.emit(f"tf.math.{g}({rt.name}, axis={ax})", [(shape, dt)])
    return True


def _numv(v: V) -> bool:
    return v.dtype in _FL or v.dtype in _INT


def b_sparse_segment(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in _FL and v.dtype != "float16" and v.known and v.rank >= 1 and v.shape[0] > 0)
    if a is None:
        return False
    d = a.shape[0]
    m = r.randint(1, 4)
    idx = [r.randrange(d) for _ in range(m)]
    seg = sorted(r.randrange(3) for _ in range(m))
    f = r.choice(["sparse_segment_sum", "sparse_segment_mean", "sparse_segment_sqrt_n"])
    ns = r.choice(["", ", num_segments=4"])
    rows = 4 if ns else seg[-1] + 1
    p.emit(f"tf.sparse.segment_{f[len('sparse_segment_'):]}({a.name}, {idx}, {seg}{ns})",
           [((rows,) + a.shape[1:], a.dtype)])
    return True


def b_clip(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in _FL and v.known)
    if a is None:
        return False
    u = r.random()
    if u < 0.35:
        c = [v for v in p.vals if v.dtype == a.dtype and G._bcast(a.shape, v.shape) == a.shape and v.name != a.name]
        lo = r.choice(c).name if c and r.random() < 0.5 else r.choice(["-0.5", "0.0", "-1e-3"])
        hi = f"{lo} + 1.0" if not lo.startswith("v") or r.random() < 0.7 else "0.75"
        p.emit(f"tf.clip_by_value({a.name}, {lo}, {hi})", [(a.shape, a.dtype)])
    elif u < 0.6 and a.rank >= 1:
        ax = r.choice(["[0]", "[-1]", "None"] + (["[0, 1]"] if a.rank >= 2 else []))
        p.emit(f"tf.clip_by_norm({a.name}, {r.choice(['1.0', '0.25', '3.0'])}, axes={ax})", [(a.shape, a.dtype)])
    else:
        c = [v for v in p.vals if v.dtype == a.dtype and v.known and v.name != a.name]
        b = r.choice(c) if c else a
        outs = p.emit(f"tf.clip_by_global_norm([{a.name}, {b.name}], {r.choice(['1.0', '0.5', '10.0'])})",
                      [(a.shape, a.dtype + ":list2"), ((), "float32" if a.dtype != "float64" else "float64")])
        lst = outs[0]
        p.emit(f"{lst.name}[0] + 0", [(a.shape, a.dtype)])
    return True


def b_nn_losses(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: v.dtype in _FL and v.known and v.rank >= 1 and 0 not in v.shape)
    if a is None:
        return False
    c = [v for v in p.vals if v.dtype == a.dtype and v.shape == a.shape and v.name != a.name]
    lab = r.choice(c) if c and r.random() < 0.5 else p.new_input(a.shape, a.dtype)
    f = r.choice(["weighted", "poisson", "weighted_moments", "sufficient", "batchnorm", "scale_reg", "xent_axis",
                  "l2_normalize", "huberish"])
    if f == "weighted":
        pw = r.choice(["2.0", "0.5", "1.0"])
        p.emit(f"tf.nn.weighted_cross_entropy_with_logits(labels={lab.name}, logits={a.name}, pos_weight={pw})",
               [(a.shape, a.dtype)])
    elif f == "poisson":
        full = r.choice(["", ", compute_full_loss=True"])
        p.emit(f"tf.nn.log_poisson_loss({lab.name}, {a.name}{full})", [(a.shape, a.dtype)])
    elif f == "weighted_moments":
        ax = [r.randrange(a.rank)]
        keep = r.random() < 0.5
        shape = tuple((1 if keep else None) if i in ax else d for i, d in enumerate(a.shape))
        shape = tuple(d for i, d in enumerate(shape) if keep or i not in ax)
        p.emit(f"tf.nn.weighted_moments({a.name}, axes={ax}, frequency_weights=tf.abs({lab.name}), keepdims={keep})",
               [(shape, a.dtype), (shape, a.dtype)])
    elif f == "sufficient":
        ax = [r.randrange(a.rank)]
        shape = tuple(d for i, d in enumerate(a.shape) if i not in ax)
        p.emit(f"tf.nn.sufficient_statistics({a.name}, axes={ax})",
               [((), a.dtype), (shape, a.dtype), (shape, a.dtype), ((), "None")])
    elif f == "batchnorm":
        mv = p.emit(f"tf.nn.moments({a.name}, axes=[0])", [(a.shape[1:], a.dtype), (a.shape[1:], a.dtype)])
        p.emit(f"tf.nn.batch_normalization({a.name}, {mv[0].name}, {mv[1].name}, offset=None, scale=None, "
               f"variance_epsilon={r.choice(['1e-3', '1e-5'])})", [(a.shape, a.dtype)])
    elif f == "scale_reg":
        p.emit(f"tf.nn.scale_regularization_loss(tf.reduce_sum({a.name}))", [((), a.dtype)])
    elif f == "xent_axis" and a.rank >= 2:
        p.emit(f"tf.nn.softmax_cross_entropy_with_logits(labels=tf.nn.softmax({lab.name}, axis=0), logits={a.name}, "
               f"axis=0)", [(a.shape[1:], a.dtype)])
    elif f == "l2_normalize":
        p.emit(f"tf.nn.l2_normalize({a.name}, axis={r.choice(['-1', '0', 'None'])}, epsilon=1e-6)", [(a.shape, a.dtype)])
    else:
        p.emit(f"tf.where(tf.abs({a.name} - {lab.name}) < 1.0, 0.5 * tf.square({a.name} - {lab.name}), "
               f"tf.abs({a.name} - {lab.name}) - 0.5)", [(a.shape, a.dtype)])
    return True


def _int_input(p: Prog, shape: tuple, dt: str) -> V:
    r = p.rng
    bits = _ALLINT[dt]
    lo, hi = (0, 2 ** bits - 1) if dt in UINTS else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
    size = 1
    for d in shape:
        size *= d
    vals = [str(r.choice([lo, hi, 0, 1, hi // 2, r.randint(0, 9), r.randint(lo, hi)]) if r.random() < 0.4
                else r.randint(max(lo, -9), 9)) for _ in range(size)]
    v = p.new_input(shape, "int32")
    v.dtype = dt
    p.inputs[-1] = (v, f"tf.constant(np.array([{', '.join(vals)}], np.{dt}).reshape({list(shape)}))")
    return v


def b_bits(p: Prog) -> bool:
    r = p.rng
    c = [v for v in p.vals if v.dtype in _ALLINT and v.known]
    a = r.choice(c) if c and r.random() < 0.5 else _int_input(p, p.random_shape(), r.choice(list(_ALLINT)))
    bits = _ALLINT[a.dtype]
    u = r.random()
    if u < 0.3:
        c2 = [v for v in p.vals if v.dtype == a.dtype and G._bcast(a.shape, v.shape) is not None and v.name != a.name]
        b = r.choice(c2) if c2 else _int_input(p, a.shape, a.dtype)
        op = r.choice(["&", "|", "^"])
        p.emit(f"{a.name} {op} {b.name}", [(G._bcast(a.shape, b.shape), a.dtype)])
    elif u < 0.45:
        f = r.choice(["tf.bitwise.invert", "tf.bitwise.invert", "tf.raw_ops.PopulationCount"])
        if f.endswith("PopulationCount"):
            p.emit(f"tf.raw_ops.PopulationCount(x={a.name})", [(a.shape, "uint8")])
        else:
            p.emit(f"{f}({a.name})" if r.random() < 0.6 else f"~{a.name}", [(a.shape, a.dtype)])
    elif u < 0.7:
        f = r.choice(["left_shift", "right_shift"])
        sh = r.choice([0, 1, 3, bits - 1, bits, bits + 1])
        sv = f"tf.constant({sh}, tf.{a.dtype})" if r.random() < 0.5 else \
            f"tf.constant(np.array({[r.choice([0, 1, 2, bits - 1, bits]) for _ in range(a.shape[-1] if a.rank else 1)]},"\
            f" np.{a.dtype}))" if a.rank else f"tf.constant({sh}, tf.{a.dtype})"
        p.emit(f"tf.bitwise.{f}({a.name}, {sv})", [(a.shape, a.dtype)])
    elif u < 0.85:
        f = r.choice(["tf.math.floordiv", "tf.math.floormod", "tf.math.truncatemod", "tf.math.maximum", "tf.math.add",
                      "tf.math.multiply", "tf.math.subtract"])
        d = r.choice(["3", "7", "1", "2"])
        p.emit(f"{f}({a.name}, tf.constant({d}, tf.{a.dtype}))", [(a.shape, a.dtype)])
    else:
        dt = r.choice(list(_ALLINT) + ["float32"])
        p.emit(f"tf.cast({a.name}, tf.{dt})", [(a.shape, dt)])
    return True


def b_cum_more(p: Prog) -> bool:
    r = p.rng
    a = p.pick(lambda v: _numv(v) and v.rank >= 1)
    if a is None:
        return False
    f = r.choice(["cumsum", "cumprod"])
    ax = r.randrange(-a.rank, a.rank)
    ex, rv = r.choice(["True", "False"]), r.choice(["True", "False"])
    p.emit(f"tf.math.{f}({a.name}, axis=tf.constant({ax}), exclusive={ex}, reverse={rv})", [(a.shape, a.dtype)])
    return True


NEW = [(b_linalg, 6), (b_signal, 3), (b_image, 4), (b_string_ragged, 3), (b_sparse_segment, 2), (b_clip, 3),
       (b_nn_losses, 4), (b_bits, 4), (b_cum_more, 2)]
BUILDERS = G.BUILDERS + NEW


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed (fz45_gen.program's shape, the builders widened)."""
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
        except (TypeError, ValueError):   # (a fz45_gen builder meeting a dimension only known at run time)
            pass
    fl = [v for v in p.vals if v.dtype in _FL][-3:]
    if not fl:
        fl = [p.emit(f"tf.cast({p.vals[-1].name}, tf.float32)", [((), "float32")])[0]]
    final = "loss = tf.math.add_n([" + ", ".join(f"tf.reduce_sum(tf.cast({v.name}, tf.float32))" for v in fl) + "])"
    last = [v for v in p.vals if ":" not in v.dtype and v.dtype not in ("string", "None")][-1]
    return {"inputs": [(v.name, v.dtype, text) for v, text in p.inputs],
            "lines": [(st, [v.name for v in vs]) for st, vs in p.lines], "final": final, "last": last.name}


def _outcome(tf, np, value):  # noqa: ANN001 - fz45_gen's, with strings and ragged values by content
    if type(value).__name__ == "RaggedTensor":
        return ("ragged", _outcome(tf, np, value.flat_values), tuple(_outcome(tf, np, s) for s in value.nested_row_splits))
    if hasattr(value, "dtype") and getattr(value.dtype, "name", "") == "string" and hasattr(value, "numpy"):
        return ("S", tuple(np.asarray(value.numpy()).shape), repr(np.asarray(value.numpy()).tolist()))
    return _base_outcome(tf, np, value)


_base_outcome = G._outcome
G._outcome = _outcome


def main() -> int:
    return G.main_of(__file__, program)   # (the shared harness: fz45_gen.main_of)


if __name__ == "__main__":
    sys.exit(main())
