"""A throwaway differential generator of the public API, round seven (fz49b): fz48b_gen.py's chained programs (its
seeds stay reproducible there) widened where a person's program goes and fz44-48b's builders do not: more tf.image
(crop_and_resize of both methods with boxes leaving the image, sobel_edges, ssim with a small filter, image_gradients,
per_image_standardization, grayscale_to_rgb, rgb/yuv and hsv round trips, non_max_suppression and its _with_scores,
_padded and _overlaps variants, combined_non_max_suppression, draw_bounding_boxes, stateless random crop, contrast,
saturation and hue), more tf.nn (dilation2d/erosion2d, ctc_loss and ctc_greedy_decoder, collapse_repeated,
embedding_lookup_sparse and safe_embedding_lookup_sparse with combiners, l2_loss, sequence_mask, edit_distance),
more tf.math (sorted segment_max/min/mean/prod, sobol_sample, bincount by rows and binary, confusion_matrix with
weights, polyval, xlog1py, in_top_k and top_k of ties, special functions at their poles and edges), the bit ops of
every integer width (shifts past the width, negative shifts), dtype mixes (uint16/32/64, int8, complex64/128
arithmetic and reductions), more tf.strings (unicode_transcode with errors, unicode_encode, unicode_script, substr
by UTF8_CHAR with negative positions, split with maxsplit, strip, to_hash_bucket, ngrams with padding,
unicode_decode_with_offsets), more tf.sparse (cross and cross_hashed, to_indicator, minimum/maximum, eye, split,
reduce_sum with output_is_sparse, add with threshold, reset_shape, sparse_dense_matmul with adjoint), more ragged
(ragged op dense with broadcasting, ragged masks, gather with batch_dims, concat on axis 1, to_tensor with shape,
to_sparse, bounding_shape, ragged.cross), tf.random's stateless families (normal, truncated_normal, uniform
ints and full ints, parameterized_truncated_normal, stateless_shuffle, index_shuffle), tf.experimental.numpy
(diff, kron, vander, tri, nansum/nanmean, heaviside, ptp, average with weights, logaddexp, hypot, sinc, gcd/lcm,
cbrt, signbit, take_along_axis, moveaxis, float_power, logspace/geomspace, select, compress, repeat), tf.linalg
(eigh, eigvalsh, eig, sqrtm, logm, LinearOperatorToeplitz/Circulant/Kronecker/BlockDiag/Tridiag/Householder/
LowRankUpdate), tf.signal (inverse_stft, mdct/inverse_mdct, kaiser windows, mfccs, fft3d, rfft3d) and value-
dependent shapes inside a tf.function with an input_signature of None dimensions (its static shapes returned).
The four modes are fz45_gen's (eager statements, tf.function, GradientTape, MirroredStrategy(2 CPUs).run with
reduce and gather).

    python tests/fuzz49b/fz49b_gen.py SEED N [--show 40] [--steps 12] [--print]

Not a test: a probe for classes the project's generators do not draw. Deterministic: random.Random(SEED).
"""
from __future__ import annotations

import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
for _d in ("fuzz45", "fuzz46b", "fuzz47b", "fuzz48b"):
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), _d))

import fz45_gen as G  # noqa: E402 - the third round's builders, modes and comparison
import fz47b_gen as F  # noqa: E402 - the fifth round's builders (and its _outcome for sparse values)
import fz48b_gen as E  # noqa: E402 - the sixth round's builders

V, Prog = G.V, G.Prog
_FL, _INT = G._FL, G._INT
_lits, _ordinary, _size, _flt = F._lits, F._ordinary, F._size, E._flt


def _img(p: Prog, b: int, h: int, w: int, c: int, dt: str = "float32") -> V:
    """Pixels in [0, 1] (k/16 steps)."""
    return _ordinary(p, (b, h, w, c), dt, 0.0, 1.0)


def _boxes(p: Prog, n: int, out: bool = False) -> V:
    """n boxes [y1, x1, y2, x2], now and then flipped or leaving [0, 1]."""
    r = p.rng
    vals = []
    for _ in range(n):
        lo, hi = (-0.5, 1.5) if out else (0.0, 1.0)
        y1, y2 = sorted(round(r.uniform(lo, hi) * 8) / 8 for _ in range(2))
        x1, x2 = sorted(round(r.uniform(lo, hi) * 8) / 8 for _ in range(2))
        if r.random() < 0.2:
            y1, y2 = y2, y1
        vals += [repr(y1), repr(x1), repr(y2), repr(x2)]
    return _lits(p, (n, 4), "float32", vals)


def b_image49(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["crop_resize", "sobel", "ssim", "gradients", "standardize", "gray_rgb", "yuv", "hsv", "nms",
                  "nms_scores", "nms_padded", "nms_overlaps", "combined_nms", "draw", "rand_crop", "rand_color",
                  "resize_aa"])
    b, h, w = r.choice([1, 2]), r.choice([2, 3, 4, 5]), r.choice([2, 3, 4, 5])
    if f == "crop_resize":
        c = r.choice([1, 3])
        x = _img(p, b, h, w, c, r.choice(["float32", "float32", "float64", "float16"]))
        nb = r.randint(1, 3)
        bx = _boxes(p, nb, out=r.random() < 0.5)
        ind = [r.randrange(b) for _ in range(nb)]
        ch, cw = r.choice([1, 2, 3]), r.choice([1, 2, 3])
        m = r.choice(["bilinear", "nearest"])
        ev = r.choice(["", ", extrapolation_value=-1.0", ", extrapolation_value=0.5"])
        p.emit(f"tf.image.crop_and_resize({x.name}, {bx.name}, {ind}, [{ch}, {cw}], method='{m}'{ev})",
               [((nb, ch, cw, c), "float32")])
    elif f == "sobel":
        x = _img(p, b, h, w, r.choice([1, 2]), r.choice(["float32", "float64"]))
        p.emit(f"tf.image.sobel_edges({x.name})", [(x.shape + (2,), x.dtype)])
    elif f == "ssim":
        h, w = r.choice([3, 4, 5]), r.choice([3, 4, 5])
        x = _img(p, b, h, w, r.choice([1, 3]))
        y = _img(p, b, h, w, x.shape[-1])
        fs = r.choice([1, 2, 3])
        g = r.choice(["ssim", "psnr2"])
        if g == "ssim":
            p.emit(f"tf.image.ssim({x.name}, {y.name}, max_val=1.0, filter_size={fs}, filter_sigma=1.5)",
                   [((b,), "float32")])
        else:
            p.emit(f"tf.image.psnr({x.name}, {y.name}, max_val=1.0)", [((b,), "float32")])
    elif f == "gradients":
        x = _img(p, b, h, w, r.choice([1, 3]), r.choice(["float32", "float64"]))
        p.emit(f"tf.image.image_gradients({x.name})", [(x.shape, x.dtype), (x.shape, x.dtype)])
    elif f == "standardize":
        dt = r.choice(["float32", "float32", "float16", "uint8", "int32"])
        if dt in ("uint8", "int32"):
            x = _lits(p, (b, h, w, 1), dt, [str(r.randint(0, 255)) for _ in range(b * h * w)])
        else:
            x = _img(p, b, h, w, r.choice([1, 3]), dt)
        p.emit(f"tf.image.per_image_standardization({x.name})",
               [(x.shape, "float32" if dt in ("uint8", "int32") else dt)])
    elif f == "gray_rgb":
        x = _img(p, b, h, w, 1)
        p.emit(f"tf.image.grayscale_to_rgb({x.name})", [((b, h, w, 3), "float32")])
    elif f in ("yuv", "hsv"):
        x = _img(p, b, h, w, 3, r.choice(["float32", "float64"]))
        to, back = (("rgb_to_yuv", "yuv_to_rgb") if f == "yuv" else ("hsv_to_rgb", "rgb_to_hsv"))
        v = p.emit(f"tf.image.{to}({x.name})", [(x.shape, x.dtype)])[0]
        p.emit(f"tf.image.{back}({v.name})", [(x.shape, x.dtype)])
    elif f.startswith("nms") or f == "combined_nms":
        n = r.randint(1, 6)
        bx = _boxes(p, n)
        sc = _lits(p, (n,), "float32", [repr(r.choice([0.5, 0.25, 0.75, 0.9, r.randint(0, 16) / 16])) for _ in range(n)])
        k = r.randint(0, n + 1)
        iou = r.choice(["0.5", "0.3", "0.0", "1.0"])
        st = r.choice(["", ", score_threshold=0.4"])
        if f == "nms":
            v = p.emit(f"tf.image.non_max_suppression({bx.name}, {sc.name}, {k}, iou_threshold={iou}{st})",
                       [((None,), "int32")])[0]
            p.emit(f"tf.gather({sc.name}, {v.name})", [((None,), "float32")])
        elif f == "nms_scores":
            sig = r.choice(["0.0", "0.5"])
            i, s = p.emit(f"tf.image.non_max_suppression_with_scores({bx.name}, {sc.name}, {k}, iou_threshold={iou}"
                          f"{st}, soft_nms_sigma={sig})", [((None,), "int32"), ((None,), "float32")])
        elif f == "nms_padded":
            pad = r.choice(["True", "False"])
            p.emit(f"tf.image.non_max_suppression_padded({bx.name}, {sc.name}, {k}, iou_threshold={iou}{st}, "
                   f"pad_to_max_output_size={pad})", [((None,), "int32"), ((), "int32")])
        elif f == "nms_overlaps":
            ov = p.emit(f"tf.linalg.matmul({bx.name}, {bx.name}, transpose_b=True)", [((n, n), "float32")])[0]
            p.emit(f"tf.image.non_max_suppression_overlaps({ov.name}, {sc.name}, {k}, overlap_threshold={iou})",
                   [((None,), "int32")])
        else:
            q = r.choice([1, 2])
            nc = r.choice([1, 2])
            bx4 = p.emit(f"tf.reshape(tf.tile({bx.name}, [1, {q}]), [1, {n}, {q}, 4])", [((1, n, q, 4), "float32")])[0]
            sc2 = p.emit(f"tf.reshape(tf.tile({sc.name}[:, None], [1, {nc}]) * tf.constant([1.0, 0.5][:{nc}]), "
                         f"[1, {n}, {nc}])", [((1, n, nc), "float32")])[0]
            clip = r.choice(["True", "False"])
            pad = r.choice(["True", "False"])
            p.emit(f"tf.image.combined_non_max_suppression({bx4.name}, {sc2.name}, {max(k, 1)}, {max(k, 1) + 1}, "
                   f"iou_threshold={iou}, score_threshold=0.3, pad_per_class={pad}, clip_boxes={clip})",
                   [((1, None, 4), "float32"), ((1, None), "float32"), ((1, None), "float32"), ((1,), "int32")])
    elif f == "draw":
        x = _img(p, b, h, w, r.choice([1, 3, 4]))
        nb = r.randint(1, 3)
        bx = _boxes(p, nb, out=r.random() < 0.3)
        p.emit(f"tf.image.draw_bounding_boxes({x.name}, tf.stack([{bx.name}] * {b}), "
               f"[[1.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0]])", [(x.shape, "float32")])
    elif f == "rand_crop":
        x = _img(p, b, h, w, 3)
        ch, cw = r.randint(1, h), r.randint(1, w)
        seed = [r.randint(0, 99), r.randint(0, 99)]
        p.emit(f"tf.image.stateless_random_crop({x.name}, [{b}, {ch}, {cw}, 3], seed={seed})", [((b, ch, cw, 3), "float32")])
    elif f == "rand_color":
        x = _img(p, b, h, w, 3)
        seed = [r.randint(0, 99), r.randint(0, 99)]
        g = r.choice(["contrast(%s, 0.2, 1.8, seed=%s)", "saturation(%s, 0.2, 1.8, seed=%s)",
                      "hue(%s, 0.3, seed=%s)", "brightness(%s, 0.3, seed=%s)", "jpeg_quality(%s, 50, 90, seed=%s)"])
        if "jpeg" in g:
            x = p.emit(f"{x.name}[0]", [((h, w, 3), "float32")])[0]
        p.emit("tf.image.stateless_random_" + g % (x.name, seed), [(x.shape, "float32")])
    else:
        x = _img(p, b, h, w, r.choice([1, 3]))
        m = r.choice(["bilinear", "bicubic", "lanczos3", "lanczos5", "gaussian", "mitchellcubic", "area", "nearest"])
        oh, ow = r.choice([1, 2, 3, 7]), r.choice([1, 2, 3, 7])
        aa = r.choice(["True", "False"])
        pa = r.choice(["", ", preserve_aspect_ratio=True"])
        v = p.emit(f"tf.image.resize({x.name}, [{oh}, {ow}], method='{m}', antialias={aa}{pa})",
                   [((b, None, None, x.shape[-1]), "float32")])[0]
        p.emit(f"tf.reduce_sum({v.name}, axis=[1, 2])", [((b, x.shape[-1]), "float32")])
    return True


def b_nn49(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["dilation", "erosion", "ctc_loss", "ctc_greedy", "collapse", "emb_sparse", "safe_emb", "l2_loss",
                  "seq_mask", "edit_distance", "log_softmax_axis", "approx_min_k"])
    if f in ("dilation", "erosion"):
        b, h, w, c = r.choice([1, 2]), r.choice([3, 4]), r.choice([3, 4]), r.choice([1, 2])
        x = _ordinary(p, (b, h, w, c), r.choice(["float32", "float64"]), -2.0, 2.0)
        kh, kw = r.choice([1, 2]), r.choice([1, 2])
        k = _ordinary(p, (kh, kw, c), x.dtype, -1.0, 1.0)
        s, d = r.choice([1, 2]), r.choice([1, 2])
        pad = r.choice(["SAME", "VALID"])
        fn = "dilation2d" if f == "dilation" else "erosion2d"
        p.emit(f"tf.nn.{fn}({x.name}, {k.name}, strides=[1, {s}, {s}, 1], padding='{pad}', data_format='NHWC', "
               f"dilations=[1, {d}, {d}, 1])", [((b, None, None, c), x.dtype)])
    elif f == "ctc_loss":
        bsz, t, nc = r.choice([1, 2]), r.choice([3, 4, 5]), r.choice([3, 4])
        logits = _ordinary(p, (t, bsz, nc), "float32", -2.0, 2.0)
        ll = [r.randint(1, max(1, t // 2)) for _ in range(bsz)]
        lab = [[r.randint(1, nc - 1) for _ in range(max(ll))] for _ in range(bsz)]
        bi = r.choice(["0", "-1"])
        if bi == "-1":
            lab = [[x - 1 for x in row] for row in lab]
        p.emit(f"tf.nn.ctc_loss(tf.constant({lab}), {logits.name}, tf.constant({ll}), tf.constant([{t}] * {bsz}), "
               f"logits_time_major=True, blank_index={bi})", [((bsz,), "float32")])
    elif f == "ctc_greedy":
        bsz, t, nc = r.choice([1, 2]), r.choice([3, 4, 5]), r.choice([3, 4])
        logits = _ordinary(p, (t, bsz, nc), "float32", -2.0, 2.0)
        lens = [r.randint(1, t) for _ in range(bsz)]
        mr = r.choice(["True", "False"])
        dec, lp = p.emit(f"tf.nn.ctc_greedy_decoder({logits.name}, {lens}, merge_repeated={mr})",
                         [((None,), "None"), ((bsz, 1), "float32")])
        p.emit(f"tf.sparse.to_dense({dec.name}[0])", [((bsz, None), "int64")])
    elif f == "collapse":
        bsz, t = r.choice([1, 2]), r.choice([3, 5])
        lab = [[r.choice([0, 1, 1, 2]) for _ in range(t)] for _ in range(bsz)]
        lens = [r.randint(0, t) for _ in range(bsz)]
        a, b = p.emit(f"tf.nn.collapse_repeated({lab}, {lens})", [((bsz, None), "int32"), ((bsz,), "int32")])
    elif f in ("emb_sparse", "safe_emb"):
        vocab, d = r.choice([3, 4]), r.choice([2, 3])
        emb = _ordinary(p, (vocab, d), "float32", -2.0, 2.0)
        m = r.choice([2, 3])
        ids = [[r.choice([-1, r.randrange(vocab), r.randrange(vocab)]) for _ in range(2)] for _ in range(m)]
        if f == "emb_sparse":
            ids = [[max(0, i) for i in row] for row in ids]
        idx = [[i, j] for i in range(m) for j in range(2) if r.random() < 0.7]
        if not idx:
            idx = [[0, 0]]
        vals = [ids[i][j] for i, j in idx]
        wv = [r.choice([0.5, 1.0, 2.0, -1.0]) for _ in idx]
        comb = r.choice(["'sum'", "'mean'", "'sqrtn'"])
        sp = f"tf.sparse.SparseTensor({idx}, tf.constant({vals}, tf.int64), [{m}, 2])"
        wsp = r.choice(["None", f"tf.sparse.SparseTensor({idx}, {wv}, [{m}, 2])"])
        mn = r.choice(["", ", max_norm=1.0"])
        if f == "emb_sparse":
            p.emit(f"tf.nn.embedding_lookup_sparse({emb.name}, {sp}, {wsp}, combiner={comb}{mn})",
                   [((None, d), "float32")])
        else:
            dflt = r.choice(["", ", default_id=0"])
            p.emit(f"tf.nn.safe_embedding_lookup_sparse({emb.name}, {sp}, {wsp}, combiner={comb}{dflt}{mn})",
                   [((m, d), "float32")])
    elif f == "l2_loss":
        a = _flt(p, dts=("float32", "float64", "float16"))
        p.emit(f"tf.nn.l2_loss({a.name})", [((), a.dtype)])
    elif f == "seq_mask":
        lens = [r.randint(0, 4) for _ in range(r.randint(1, 3))]
        ml = r.choice(["", ", maxlen=3", ", maxlen=0"])
        v = p.emit(f"tf.sequence_mask({lens}{ml}, dtype=tf.float32)", [((len(lens), None), "float32")])[0]
    elif f == "edit_distance":
        def sp() -> str:
            n = r.randint(1, 3)
            idx = sorted({(i, j) for i in range(2) for j in range(n) if r.random() < 0.8} or {(0, 0)})
            vals = [r.randint(0, 3) for _ in idx]
            return f"tf.sparse.SparseTensor({[list(t) for t in idx]}, tf.constant({vals}, tf.int64), [2, {n}])"
        nz = r.choice(["True", "False"])
        p.emit(f"tf.edit_distance({sp()}, {sp()}, normalize={nz})", [((2,), "float32")])
    elif f == "log_softmax_axis":
        a = _flt(p, dts=("float32", "float64", "float16"))
        ax = r.randrange(-a.rank, a.rank)
        p.emit(f"tf.nn.log_softmax({a.name}, axis={ax})", [(a.shape, a.dtype)])
    else:
        a = _flt(p)
        k = r.randint(1, a.shape[-1])
        p.emit(f"tf.math.approx_min_k({a.name}, {k}, recall_target=1.0)",
               [(a.shape[:-1] + (k,), a.dtype), (a.shape[:-1] + (k,), "int32")])
    return True


_EDGE = ["float('nan')", "float('inf')", "-float('inf')", "-0.0", "0.0", "1e-40", "-1.0", "-2.0", "0.5", "1.0",
         "2.0", "1e30", "-1e-30", "3.0", "-3.5", "1e-7"]


def b_math49(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["segment", "sobol", "bincount", "confusion", "polyval", "xlog1py", "ties", "edges", "edges2",
                  "reduce_std_int", "mod_neg", "cumulative_edges"])
    if f == "segment":
        a = _flt(p, dts=("float32", "float64", "float16", "int32"))
        if a.dtype == "int32" and not a.known:
            return False
        n = a.shape[0]
        ids = sorted(r.randrange(4) for _ in range(n))
        g = r.choice(["max", "min", "mean", "prod", "sum"])
        ns = r.choice(["", f", num_segments={ids[-1] + r.randint(1, 2)}"]) if g != "prod" else ""
        if ns:
            p.emit(f"tf.math.unsorted_segment_{g}({a.name}, {ids}{ns})",
                   [((None,) + a.shape[1:], a.dtype)])
        else:
            p.emit(f"tf.math.segment_{g}({a.name}, {ids})", [((ids[-1] + 1,) + a.shape[1:], a.dtype)])
    elif f == "sobol":
        d, n, skip = r.randint(1, 4), r.randint(1, 6), r.choice([0, 1, 7, 100])
        dt = r.choice(["tf.float32", "tf.float64"])
        p.emit(f"tf.math.sobol_sample({d}, {n}, skip={skip}, dtype={dt})", [((n, d), dt[3:])])
    elif f == "bincount":
        m, n = r.choice([1, 2, 3]), r.choice([2, 3, 4])
        vals = [[r.randint(0, 5) for _ in range(n)] for _ in range(m)]
        opt = r.choice([", axis=-1", ", axis=-1, binary_output=True", ", binary_output=True", ", axis=-1, minlength=7",
                        ", axis=-1, maxlength=2", ", minlength=3, dtype=tf.float32"])
        out = "float32" if "float32" in opt else "int32"
        v = p.emit(f"tf.math.bincount(tf.constant({vals}){opt})", [((None,) if "axis" not in opt else (m, None), out)])[0]
        if out == "int32":
            p.emit(f"tf.cast({v.name}, tf.float32)", [(v.shape, "float32")])
    elif f == "confusion":
        n, k = r.randint(1, 6), r.randint(2, 4)
        lab = [r.randrange(k) for _ in range(n)]
        pred = [r.randrange(k) for _ in range(n)]
        nc = r.choice(["", f", num_classes={k + 1}"])
        wt = r.choice(["", f", weights={[r.choice([0.5, 1.0, 2.0]) for _ in range(n)]}"])
        dt = ", dtype=tf.float32" if wt else r.choice(["", ", dtype=tf.int64", ", dtype=tf.float32"])
        out = "int32" if not dt else ("int64" if "int64" in dt else "float32")
        v = p.emit(f"tf.math.confusion_matrix({lab}, {pred}{nc}{wt}{dt})", [((None, None), out)])[0]
        if out != "float32":
            p.emit(f"tf.cast({v.name}, tf.float32)", [(v.shape, "float32")])
    elif f == "polyval":
        a = _flt(p, dts=("float32", "float64"))
        nco = r.randint(0, 4)
        co = ", ".join(repr(r.randint(-8, 8) / 4) for _ in range(nco))
        if nco == 0:
            p.emit(f"tf.math.polyval([], {a.name})", [(a.shape, a.dtype)])
        else:
            p.emit(f"tf.math.polyval([tf.constant(c, tf.{a.dtype}) for c in [{co}]], {a.name})", [(a.shape, a.dtype)])
    elif f == "xlog1py":
        a = _flt(p)
        b = _lits(p, a.shape, a.dtype, [r.choice(_EDGE) for _ in range(_size(a.shape))]) if a.known else a
        p.emit(f"tf.math.xlog1py({a.name}, {b.name})", [(a.shape, a.dtype)])
    elif f == "ties":
        m, n = r.choice([1, 2, 3]), r.choice([3, 4, 5])
        dt = r.choice(["float32", "int32", "float64", "float16"])
        vals = [str(r.choice([0, 1, 1, 2, 2])) + ("" if dt == "int32" else ".0") for _ in range(m * n)]
        if dt != "int32" and r.random() < 0.3:
            vals[r.randrange(m * n)] = r.choice(["float('nan')", "-0.0", "float('inf')"])
        a = _lits(p, (m, n), dt, vals)
        g = r.choice(["top_k", "in_top_k", "argmax", "argsort"])
        k = r.randint(0, n)
        if g == "top_k":
            v, i = p.emit(f"tf.math.top_k({a.name}, k={k}, sorted={r.choice(['True', 'False'])})",
                          [((m, k), dt), ((m, k), "int32")])
        elif g == "in_top_k" and dt in ("float32",):
            tg = [r.randrange(n) for _ in range(m)]
            v = p.emit(f"tf.math.in_top_k({tg}, {a.name}, {k})", [((m,), "bool")])[0]
            p.emit(f"tf.cast({v.name}, tf.float32)", [((m,), "float32")])
        elif g == "argmax":
            p.emit(f"tf.math.argmin({a.name}, axis={r.choice([0, 1])}, output_type=tf.int32)", [((None,), "int32")])
        else:
            p.emit(f"tf.argsort({a.name}, direction='{r.choice(['ASCENDING', 'DESCENDING'])}', stable=True)",
                   [((m, n), "int32")])
    elif f in ("edges", "edges2"):
        n = r.randint(1, 5)
        dt = r.choice(["float32", "float64", "float16", "bfloat16"] if f == "edges" else ["float32", "float64"])
        x = _lits(p, (n,), dt, [r.choice(_EDGE) for _ in range(n)])
        if f == "edges":
            g = r.choice(["tf.math.lgamma", "tf.math.digamma", "tf.math.erfinv", "tf.math.ndtri", "tf.math.log_ndtr",
                          "tf.math.bessel_i0e", "tf.math.bessel_i1e", "tf.math.special.dawsn",
                          "tf.math.special.expint", "tf.math.special.spence", "tf.math.special.fresnel_sin",
                          "tf.math.acosh", "tf.math.atanh", "tf.math.erfcinv", "tf.math.special.bessel_k0e",
                          "tf.math.special.bessel_y1", "tf.math.special.bessel_j1", "tf.math.log_sigmoid",
                          "tf.math.softplus", "tf.nn.softsign", "tf.math.rsqrt", "tf.math.tan"])
            if dt in ("float16", "bfloat16") and g not in ("tf.math.lgamma", "tf.math.digamma", "tf.math.erfinv",
                                                           "tf.math.acosh", "tf.math.atanh", "tf.math.log_sigmoid",
                                                           "tf.math.softplus", "tf.nn.softsign", "tf.math.rsqrt",
                                                           "tf.math.tan", "tf.math.ndtri"):
                return False
            p.emit(f"{g}({x.name})", [((n,), dt)])
        else:
            y = _lits(p, (n,), dt, [r.choice(_EDGE) for _ in range(n)])
            g = r.choice(["tf.math.igamma", "tf.math.igammac", "tf.math.zeta", "tf.math.polygamma", "tf.math.xlogy",
                          "tf.math.xdivy", "tf.math.atan2", "tf.math.floormod", "tf.math.pow", "tf.math.nextafter",
                          "tf.math.truncatemod", "tf.math.floordiv", "tf.math.divide_no_nan"])
            p.emit(f"{g}({x.name}, {y.name})", [((n,), dt)])
    elif f == "reduce_std_int":
        a = p.pick(lambda v: v.dtype in ("int32", "int64") and v.known and v.rank >= 1, fresh=None)
        if a is None:
            return False
        p.emit(f"tf.math.reduce_variance(tf.cast({a.name}, tf.float64), axis=0)", [(a.shape[1:], "float64")])
    elif f == "mod_neg":
        dt = r.choice(["int8", "int16", "int32", "int64", "uint8", "float32"])
        n = r.randint(1, 5)
        neg = not dt.startswith("u")
        xs = [str(r.randint(-9 if neg else 0, 9)) for _ in range(n)]
        ys = [str(r.choice([-3, -2, 2, 3, 4, 7] if neg else [1, 2, 3, 7])) for _ in range(n)]
        x, y = _lits(p, (n,), dt, xs), _lits(p, (n,), dt, ys)
        g = r.choice(["floormod", "truncatemod", "floordiv", "truncatediv"])
        ns = "tf.math." if g in ("floormod", "floordiv") else "tf."
        p.emit(f"{ns}{g}({x.name}, {y.name})", [((n,), dt)])
    else:
        n = r.randint(1, 5)
        x = _lits(p, (n,), "float32", [r.choice(_EDGE) for _ in range(n)])
        g = r.choice(["cumsum", "cumprod", "cumulative_logsumexp", "reduce_logsumexp", "reduce_max", "reduce_min"])
        if g.startswith("reduce"):
            p.emit(f"tf.math.{g}({x.name})", [((), "float32")])
        else:
            p.emit(f"tf.math.{g}({x.name}, reverse={r.choice(['True', 'False'])})", [((n,), "float32")])
    return True


_IW = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}


def b_dtypes49(p: Prog) -> bool:
    r = p.rng
    f = r.choice(["shift", "bitops", "uint_arith", "uint_red", "complex", "complex_red", "saturate", "abs_min"])
    n = r.randint(1, 5)
    if f in ("shift", "bitops", "uint_arith", "uint_red", "saturate", "abs_min"):
        dt = r.choice(list(_IW))
        bits = _IW[dt]
        lo, hi = (0, 2 ** bits - 1) if dt.startswith("u") else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
        xs = [str(r.choice([lo, hi, 0, 1, r.randint(max(lo, -9), 9), r.randint(lo, hi)])) for _ in range(n)]
        x = _lits(p, (n,), dt, xs)
        x.dtype = dt
        if f == "shift":
            ys = [str(r.choice([0, 1, 3, bits - 1, bits, bits + 1] + ([-1] if not dt.startswith("u") else [])))
                  for _ in range(n)]
            y = _lits(p, (n,), dt, ys)
            g = r.choice(["left_shift", "right_shift"])
            p.emit(f"tf.bitwise.{g}({x.name}, {y.name})", [((n,), dt)])
        elif f == "bitops":
            y = _lits(p, (n,), dt, [str(r.randint(max(lo, -9), min(hi, 300))) for _ in range(n)])
            g = r.choice(["bitwise_and", "bitwise_or", "bitwise_xor"])
            v = p.emit(f"tf.bitwise.{g}({x.name}, {y.name})", [((n,), dt)])[0]
            p.emit(f"tf.bitwise.invert({v.name})", [((n,), dt)])
        elif f == "uint_arith":
            y = _lits(p, (n,), dt, [str(r.choice([1, 2, 3, hi, lo if lo else 1])) for _ in range(n)])
            g = r.choice(["add", "subtract", "multiply", "maximum", "minimum", "floordiv", "floormod",
                          "squared_difference", "truncatediv"])
            ns = "tf." if g == "truncatediv" else "tf.math."
            p.emit(f"{ns}{g}({x.name}, {y.name})", [((n,), dt)])
        elif f == "uint_red":
            g = r.choice(["reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_mean", "cumsum", "cumprod"])
            p.emit(f"tf.math.{g}({x.name})", [((n,) if g.startswith("cum") else (), dt)])
        elif f == "saturate":
            to = r.choice(["uint8", "int8", "uint16", "int16", "int32", "uint32", "float16", "int64"])
            p.emit(f"tf.dtypes.saturate_cast({x.name}, tf.{to})", [((n,), to)])
        else:
            g = r.choice(["tf.math.abs", "tf.math.negative", "tf.math.sign", "tf.math.square"])
            p.emit(f"{g}({x.name})", [((n,), dt)])
        return True
    dt = r.choice(["complex64", "complex128"])
    re = _ordinary(p, (n,), "float32" if dt == "complex64" else "float64", -2.0, 2.0)
    im = _ordinary(p, (n,), re.dtype, -2.0, 2.0)
    z = p.emit(f"tf.complex({re.name}, {im.name})", [((n,), dt)])[0]
    if f == "complex":
        g = r.choice(["tf.math.exp", "tf.math.log", "tf.math.sqrt", "tf.math.rsqrt", "tf.math.sin", "tf.math.tanh",
                      "tf.math.reciprocal", "tf.math.square", "tf.math.conj", "tf.math.sign", "tf.math.expm1",
                      "tf.math.log1p", "tf.math.cosh", "tf.math.acos", "tf.math.asinh", "tf.math.atan",
                      "tf.math.tan", "tf.math.sigmoid"])
        v = p.emit(f"{g}({z.name})", [((n,), dt)])[0]
    else:
        g = r.choice(["reduce_sum", "reduce_mean", "reduce_prod", "cumsum", "matmul", "abs", "divide", "pow"])
        if g == "matmul":
            v = p.emit(f"tf.linalg.matmul({z.name}[:, None], {z.name}[None, :], adjoint_b=True)", [((n, n), dt)])[0]
        elif g == "abs":
            return bool(p.emit(f"tf.math.abs({z.name})", [((n,), re.dtype)]))
        elif g == "divide":
            v = p.emit(f"{z.name} / tf.reverse({z.name}, [0])", [((n,), dt)])[0]
        elif g == "pow":
            v = p.emit(f"tf.math.pow({z.name}, tf.complex({re.dtype == 'float32' and 'tf.constant(1.5)' or 'tf.constant(1.5, tf.float64)'}, "
                       f"{re.dtype == 'float32' and 'tf.constant(-0.5)' or 'tf.constant(-0.5, tf.float64)'}))", [((n,), dt)])[0]
        elif g == "cumsum":
            v = p.emit(f"tf.math.cumsum({z.name}, reverse=True)", [((n,), dt)])[0]
        else:
            v = p.emit(f"tf.math.{g}({z.name})", [((), dt)])[0]
    p.emit(f"tf.math.real({v.name}) + tf.math.imag({v.name})", [(v.shape, re.dtype)])
    return True


_W49 = ["'abc'", "'h\\u00e9llo w\\u00f6rld'", "''", "'  pad  '", "'a,b,,c'", "'\\u4e2d\\u6587 x'", "'x y z'",
        "'\\U0001F600!'", "'\\xff\\xfeab'.encode('latin-1')", "'AbC dEf'"]


def _strs(p: Prog, n: int, words: list[str] = _W49) -> V:
    s = p.new_input((n,), "int32", edge=False)
    s.dtype = "string"
    p.inputs[-1] = (s, f"tf.constant([{', '.join(p.rng.choice(words) for _ in range(n))}])")
    return s


def b_strings49(p: Prog) -> bool:
    r = p.rng
    n = r.choice([1, 2, 3])
    f = r.choice(["transcode", "encode", "script", "substr", "split_max", "strip", "hash", "ngrams", "offsets",
                  "regex", "length", "format"])
    s = _strs(p, n)
    if f == "transcode":
        to = r.choice(["'UTF-16-BE'", "'UTF-8'", "'UTF-32-BE'"])
        er = r.choice(["'replace'", "'ignore'", "'strict'"])
        v = p.emit(f"tf.strings.unicode_transcode({s.name}, 'UTF-8', {to}, errors={er}, replacement_char=63)",
                   [((n,), "string")])[0]
        p.emit(f"tf.strings.length({v.name})", [((n,), "int32")])
    elif f == "encode":
        cps = [[r.choice([97, 0x4e2d, 0x1F600, 233, 0xD800, 0x110000, 32]) for _ in range(r.randint(0, 3))] for _ in range(n)]
        enc = r.choice(["'UTF-8'", "'UTF-16-BE'"])
        er = r.choice(["'replace'", "'ignore'", "'strict'"])
        p.emit(f"tf.strings.unicode_encode(tf.ragged.constant({cps}, dtype=tf.int32), {enc}, errors={er})",
               [((n,), "string")])
    elif f == "script":
        cps = [r.choice([97, 0x4e2d, 0x0416, 0x05D0, 48, 32, 0x1F600, -1]) for _ in range(r.randint(1, 4))]
        v = p.emit(f"tf.strings.unicode_script({cps})", [((len(cps),), "int32")])[0]
    elif f == "substr":
        pos, ln = r.randint(-4, 4), r.randint(-1, 4)
        unit = r.choice(["'BYTE'", "'UTF8_CHAR'"])
        p.emit(f"tf.strings.substr({s.name}, {pos}, {ln}, unit={unit})", [((n,), "string")])
    elif f == "split_max":
        sep = r.choice(["None", "','", "' '"])
        ms = r.choice([-1, 0, 1, 2])
        v = p.emit(f"tf.strings.split({s.name}, sep={sep}, maxsplit={ms})", [((n, None), "string:ragged")])[0]
        p.emit(f"tf.cast({v.name}.row_lengths(), tf.float32)", [((n,), "float32")])
    elif f == "strip":
        v = p.emit(f"tf.strings.strip(tf.strings.lower({s.name}, encoding='utf-8'))", [((n,), "string")])[0]
    elif f == "hash":
        nb = r.choice([1, 3, 10])
        g = r.choice(["to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong"])
        key = ", key=[1, 2]" if g.endswith("strong") else ""
        v = p.emit(f"tf.strings.{g}({s.name}, {nb}{key})", [((n,), "int64")])[0]
    elif f == "ngrams":
        sp = p.emit(f"tf.strings.split({s.name})", [((n, None), "string:ragged")])[0]
        w = r.choice([1, 2, 3, "(1, 2)"])
        pad = r.choice(["None", "('<', '>')"])
        pw = r.choice(["", ", padding_width=1"]) if pad != "None" else ""
        ps = r.choice(["", ", preserve_short_sequences=True"])
        p.emit(f"tf.strings.ngrams({sp.name}, {w}, separator='_', pad_values={pad}{pw}{ps})",
               [((n, None), "string:ragged")])
    elif f == "offsets":
        cp, off = p.emit(f"tf.strings.unicode_decode_with_offsets({s.name}, 'UTF-8', errors='replace')",
                         [((n, None), "int32:ragged"), ((n, None), "int64:ragged")])
        p.emit(f"tf.reduce_sum({off.name}, axis=1)", [((n,), "int64")])
    elif f == "regex":
        pat, rw = r.choice([("'[aeiou]'", "'#'"), ("'(\\\\w+) (\\\\w+)'", "'\\\\2 \\\\1'"), ("'^\\\\s+|\\\\s+$'", "''"),
                            ("'.'", "'<\\\\0>'")])
        g = r.choice(["True", "False"])
        p.emit(f"tf.strings.regex_replace({s.name}, {pat}, {rw}, replace_global={g})", [((n,), "string")])
    elif f == "length":
        unit = r.choice(["'BYTE'", "'UTF8_CHAR'"])
        p.emit(f"tf.strings.length({s.name}, unit={unit})", [((n,), "int32")])
    else:
        a = _flt(p, dts=("float32", "float64", "int32"))
        sm = r.choice(["", ", summarize=1", ", summarize=-1", ", summarize=2"])
        p.emit(f"tf.strings.format('x={{}} s={{}}', ({a.name}, {s.name}){sm})", [((), "string")])
    return True


def b_sparse49(p: Prog) -> bool:
    r = p.rng
    m, n = r.choice([2, 3]), r.choice([2, 3, 4])
    dt = r.choice(["float32", "float64", "int32", "int64"])

    def lit() -> V:
        vals = [r.choice(["0", "0", str(r.randint(-4, 4))]) + ("" if dt.startswith("int") else ".0") for _ in range(m * n)]
        return _lits(p, (m, n), dt, vals)

    a = lit()
    st = p.emit(f"tf.sparse.from_dense({a.name})", [((m, n), dt + ":sparse")])[0]
    f = r.choice(["cross", "indicator", "minmax", "eye", "split", "reduce_sp", "add_thresh", "reset_shape",
                  "matmul_adj", "slice", "mask"])
    if f == "cross" and dt in ("int64",):
        s2 = _strs(p, m, ["'a'", "'b'", "'cc'"])
        g = r.choice(["cross", "cross_hashed"])
        nb = ", num_buckets=7" if g == "cross_hashed" else ""
        sep = ", separator='#'" if g == "cross" and r.random() < 0.5 else ""
        v = p.emit(f"tf.sparse.{g}([{st.name}, tf.reshape({s2.name}, [-1, 1])]{nb}{sep})", [((m, None), "None:sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((m, None), "string" if g == "cross" else "int64")])
    elif f == "indicator" and dt in ("int32", "int64"):
        ab = p.emit(f"tf.sparse.map_values(tf.math.abs, {st.name})", [((m, n), dt + ":sparse")])[0]
        v = p.emit(f"tf.sparse.to_indicator({ab.name}, 5)", [((m, 5), "bool")])[0]
        p.emit(f"tf.cast({v.name}, tf.float32)", [((m, 5), "float32")])
    elif f == "minmax":
        b = lit()
        s2 = p.emit(f"tf.sparse.from_dense({b.name})", [((m, n), dt + ":sparse")])[0]
        g = r.choice(["minimum", "maximum"])
        v = p.emit(f"tf.sparse.{g}({st.name}, {s2.name})", [((m, n), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((m, n), dt)])
    elif f == "eye":
        k = r.choice(["", f", num_columns={n}"])
        v = p.emit(f"tf.sparse.eye({m}{k}, dtype=tf.{dt})", [((m, None), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((m, None), dt)])
    elif f == "split":
        ax = r.choice([0, 1])
        k = r.choice([1, 2])
        vs = p.emit(f"tf.sparse.split(sp_input={st.name}, num_split={k}, axis={ax})",
                    [((None, None), dt + ":sparse")] * k if k > 1 else [((None, None), "None")])
        if k == 1:
            p.emit(f"tf.sparse.to_dense({vs[0].name}[0])", [((None, None), dt)])
        else:
            p.emit(f"tf.sparse.to_dense({vs[-1].name})", [((None, None), dt)])
    elif f == "reduce_sp":
        g = r.choice(["reduce_sum", "reduce_max"])
        ax = r.choice([0, 1, -1])
        v = p.emit(f"tf.sparse.{g}({st.name}, axis={ax}, keepdims={r.choice(['True', 'False'])}, output_is_sparse=True)",
                   [((None,), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((None,), dt)])
    elif f == "add_thresh" and not dt.startswith("int"):
        b = lit()
        s2 = p.emit(f"tf.sparse.from_dense({b.name})", [((m, n), dt + ":sparse")])[0]
        v = p.emit(f"tf.sparse.add({st.name}, {s2.name}, threshold={r.choice(['0.5', '1.5', '0'])})",
                   [((m, n), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((m, n), dt)])
    elif f == "reset_shape":
        v = p.emit(f"tf.sparse.reset_shape({st.name}, [{m + 1}, {n + 2}])", [((m + 1, n + 2), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((m + 1, n + 2), dt)])
    elif f == "matmul_adj" and dt in ("float32", "float64"):
        k = r.choice([1, 2])
        adj = r.choice(["adjoint_a", "adjoint_b"])
        other = (m, k) if adj == "adjoint_a" else (k, n)
        d = _ordinary(p, other, dt, -2.0, 2.0)
        if adj == "adjoint_a":
            p.emit(f"tf.sparse.sparse_dense_matmul({st.name}, {d.name}, adjoint_a=True)", [((n, k), dt)])
        else:
            p.emit(f"tf.sparse.sparse_dense_matmul({st.name}, {d.name}, adjoint_b=True)", [((m, k), dt)])
    elif f == "slice":
        st0, sz = [r.randint(0, m - 1), r.randint(0, n - 1)], [r.randint(0, m + 1), r.randint(0, n + 1)]
        v = p.emit(f"tf.sparse.slice({st.name}, {st0}, {sz})", [((None, None), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((None, None), dt)])
    else:
        p.emit(f"tf.sparse.to_dense(tf.sparse.reorder(tf.sparse.transpose({st.name})), default_value=7)",
               [((n, m), dt)])
    return True


def b_ragged49(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "float64", "int32"])
    m = r.choice([1, 2, 3])
    lens = [r.randint(0, 3) for _ in range(m)]
    tot = sum(lens)
    vals = [(str(r.randint(-4, 6)) if dt == "int32" else repr(r.randint(-8, 8) / 4)) for _ in range(tot)]
    flat = _lits(p, (tot,), dt, vals)
    rt = p.emit(f"tf.RaggedTensor.from_row_lengths({flat.name}, {lens})", [((m, None), dt + ":ragged")])[0]
    f = r.choice(["bcast", "mask", "gather_bd", "concat1", "to_tensor_shape", "to_sparse", "bounding", "cross",
                  "where", "unary", "reduce_axis0", "row_ops"])
    if f == "bcast":
        g = r.choice(["+", "*", "-", "tf.math.maximum"])
        o = r.choice(["scalar", "col", "row"])
        one = "1" if dt == "int32" else "1.5"
        if o == "scalar":
            other = one
        elif o == "col":
            other = _lits(p, (m, 1), dt, [one] * m).name
        else:
            if max(lens, default=0) != min(lens, default=0) or not lens:
                other = one
            else:
                other = _lits(p, (lens[0],), dt, [one] * lens[0]).name
        expr = f"tf.math.maximum({rt.name}, {other})" if g.startswith("tf") else f"{rt.name} {g} {other}"
        v = p.emit(expr, [((m, None), dt + ":ragged")])[0]
        p.emit(f"{v.name}.flat_values", [((tot,), dt)])
    elif f == "mask":
        mk = [[r.choice([True, False]) for _ in range(k)] for k in lens]
        v = p.emit(f"tf.ragged.boolean_mask({rt.name}, tf.ragged.constant({mk}, dtype=tf.bool, ragged_rank=1) "
                   f"if {tot} else tf.RaggedTensor.from_row_lengths(tf.zeros([0], tf.bool), {lens}))",
                   [((m, None), dt + ":ragged")])[0]
        p.emit(f"{v.name}.to_tensor()", [((m, None), dt)])
    elif f == "gather_bd":
        idx = [[r.randrange(max(k, 1)) for _ in range(r.randint(0, 2))] for k in lens]
        if any(k == 0 and row for k, row in zip(lens, idx)):
            idx = [[] if k == 0 else row for k, row in zip(lens, idx)]
        v = p.emit(f"tf.gather({rt.name}, tf.ragged.constant({idx}, dtype=tf.int32, ragged_rank=1) if "
                   f"{sum(map(len, idx))} else tf.RaggedTensor.from_row_lengths(tf.zeros([0], tf.int32), "
                   f"{[len(x) for x in idx]}), batch_dims=1)", [((m, None), dt + ":ragged")])[0]
        p.emit(f"{v.name}.to_tensor(default_value={'0' if dt == 'int32' else '-1.0'})", [((m, None), dt)])
    elif f == "concat1":
        v = p.emit(f"tf.concat([{rt.name}, {rt.name} * 2], axis=1)", [((m, None), dt + ":ragged")])[0]
        p.emit(f"{v.name}.row_lengths()", [((m,), "int64")])
        p.emit(f"{v.name}.flat_values", [((2 * tot,), dt)])
    elif f == "to_tensor_shape":
        sh = r.choice([f"[{m}, 2]", "[None, 4]", f"[{m + 1}, 1]", "[1, None]"])
        p.emit(f"{rt.name}.to_tensor(default_value={'9' if dt == 'int32' else '0.25'}, shape={sh})",
               [((None, None), dt)])
    elif f == "to_sparse":
        v = p.emit(f"{rt.name}.to_sparse()", [((m, None), dt + ":sparse")])[0]
        p.emit(f"tf.sparse.to_dense({v.name})", [((m, None), dt)])
    elif f == "bounding":
        p.emit(f"{rt.name}.bounding_shape()", [((2,), "int64")])
        p.emit(f"{rt.name}.nrows()", [((), "int64")])
    elif f == "cross":
        if dt != "int32":
            return True
        v = p.emit(f"tf.ragged.cross([tf.cast({rt.name}, tf.int64), tf.ragged.constant({[['x'] * 1 for _ in lens]})])",
                   [((m, None), "string:ragged")])[0]
    elif f == "where":
        if dt == "int32":
            v = p.emit(f"tf.where({rt.name} > 0, {rt.name}, -{rt.name})", [((m, None), dt + ":ragged")])[0]
        else:
            v = p.emit(f"tf.where({rt.name} > 0.0, {rt.name}, tf.zeros_like({rt.name}))", [((m, None), dt + ":ragged")])[0]
    elif f == "unary":
        g = r.choice(["tf.math.abs", "tf.math.square", "tf.math.negative", "tf.math.sign"] +
                     (["tf.math.exp", "tf.math.tanh", "tf.nn.relu", "tf.math.softplus", "tf.nn.softmax"] if dt != "int32" else []))
        v = p.emit(f"{g}({rt.name})", [((m, None), dt + ":ragged")])[0]
    elif f == "reduce_axis0":
        g = r.choice(["reduce_sum", "reduce_max", "reduce_min", "reduce_mean" if dt != "int32" else "reduce_sum",
                      "reduce_prod", "reduce_std" if dt != "int32" else "reduce_sum"])
        ax = r.choice(["0", "1", "None", "[0, 1]"])
        p.emit(f"tf.math.{g}({rt.name}, axis={ax})", [((None,), dt)])
    else:
        g = r.choice(["value_rowids()", "row_limits()", "nested_row_splits[0]", "row_lengths()"])
        p.emit(f"{rt.name}.{g}", [((None,), "int64")])
    return True


def b_random49(p: Prog) -> bool:
    r = p.rng
    seed = [r.randint(-5, 99), r.randint(0, 99)]
    shape = r.choice([[3], [2, 2], [1, 4], [0]])
    f = r.choice(["normal", "truncated", "uniform_int", "uniform_full", "param_tn", "shuffle", "index_shuffle",
                  "uniform_f", "alg"])
    sz = _size(tuple(shape))
    if f == "normal":
        dt = r.choice(["float32", "float64", "float16", "bfloat16"])
        p.emit(f"tf.random.stateless_normal({shape}, seed={seed}, mean=1.0, stddev=0.5, dtype=tf.{dt})",
               [(tuple(shape), dt)])
    elif f == "truncated":
        dt = r.choice(["float32", "float64", "float16"])
        p.emit(f"tf.random.stateless_truncated_normal({shape}, seed={seed}, stddev=2.0, dtype=tf.{dt})",
               [(tuple(shape), dt)])
    elif f == "uniform_int":
        dt = r.choice(["int32", "int64"])
        lo, hi = r.choice([(0, 10), (-5, 5), (-2 ** 31, 2 ** 31 - 1) if dt == "int32" else (-7, 3), (3, 4)])
        v = p.emit(f"tf.random.stateless_uniform({shape}, seed={seed}, minval={lo}, maxval={hi}, dtype=tf.{dt})",
                   [(tuple(shape), dt)])[0]
    elif f == "uniform_full":
        dt = r.choice(["int32", "int64", "uint32", "uint64"])
        p.emit(f"tf.random.stateless_uniform({shape}, seed={seed}, minval=None, maxval=None, dtype=tf.{dt})",
               [(tuple(shape), dt)])
    elif f == "param_tn":
        n = r.choice([1, 3])
        lo, hi = r.choice([(-1.0, 1.0), (0.5, 3.0), (-10.0, -9.0), (2.0, 50.0)])
        p.emit(f"tf.random.stateless_parameterized_truncated_normal([{n}, 2], seed={seed}, means=0.0, stddevs=1.0, "
               f"minvals={lo}, maxvals={hi})", [((n, 2), "float32")])
    elif f == "shuffle":
        a = _flt(p)
        p.emit(f"tf.random.experimental.stateless_shuffle({a.name}, seed={seed})", [(a.shape, a.dtype)])
    elif f == "index_shuffle":
        idx = [r.randint(0, 9) for _ in range(r.randint(1, 4))]
        mx = r.choice([9, 15, 100])
        p.emit(f"tf.random.experimental.index_shuffle(tf.constant({idx}, tf.int64), seed=tf.constant([{seed[0]}, "
               f"{seed[1]}, 7], tf.int64), max_index={mx})", [((len(idx),), "int64")])
    elif f == "uniform_f":
        dt = r.choice(["float32", "float64", "float16", "bfloat16"])
        lo, hi = r.choice([(0.0, 1.0), (-3.0, 2.0), (5.0, 5.0)])
        p.emit(f"tf.random.stateless_uniform({shape}, seed={seed}, minval={lo}, maxval={hi}, dtype=tf.{dt})",
               [(tuple(shape), dt)])
    else:
        alg = r.choice(["'philox'", "'threefry'", "'auto_select'", "tf.random.Algorithm.PHILOX"])
        p.emit(f"tf.random.stateless_uniform({shape}, seed={seed}, alg={alg})", [(tuple(shape), "float32")])
    return True


def b_tnp49(p: Prog) -> bool:
    r = p.rng
    a = _flt(p, dts=("float32", "float64"))
    f = r.choice(["diff", "kron", "vander", "tri", "nan", "heaviside", "ptp", "average", "logaddexp", "hypot", "sinc",
                  "gcd", "cbrt", "signbit", "take_along", "moveaxis", "float_power", "space", "select", "compress",
                  "repeat", "tril"])
    t = "tf.experimental.numpy"
    n = a.shape[0]
    if f == "diff":
        k = r.choice([1, 2])
        ax = r.randrange(-a.rank, a.rank)
        p.emit(f"{t}.diff({a.name}, n={k}, axis={ax})", [((None,) * a.rank, a.dtype)])
    elif f == "kron":
        b = _ordinary(p, (2,) * a.rank, a.dtype, -1.0, 1.0)
        p.emit(f"{t}.kron({a.name}, {b.name})", [((None,) * a.rank, a.dtype)])
    elif f == "vander":
        if a.rank != 1:
            return False
        p.emit(f"{t}.vander({a.name}, N={r.choice(['None', '2', '4'])}, increasing={r.choice(['True', 'False'])})",
               [((n, None), a.dtype)])
    elif f == "tri":
        p.emit(f"{t}.tri({r.randint(1, 4)}, {r.randint(1, 4)}, k={r.randint(-2, 2)}, dtype=tf.float32)",
               [((None, None), "float32")])
    elif f == "nan":
        k = r.randint(1, 4)
        x = _lits(p, (k,), a.dtype, [r.choice(["float('nan')", "1.5", "-2.0", "0.25"]) for _ in range(k)])
        g = r.choice(["nansum", "nanmean", "nanprod"])
        p.emit(f"{t}.{g}({x.name})", [((), a.dtype)])
    elif f == "heaviside":
        x = _lits(p, (4,), a.dtype, [r.choice(["0.0", "-0.0", "float('nan')", "-1.5", "2.0"]) for _ in range(4)])
        h2 = r.choice(["0.5", "1.0", "float('nan')"])
        p.emit(f"{t}.heaviside({x.name}, {h2})", [((4,), a.dtype)])
    elif f == "ptp":
        p.emit(f"{t}.ptp({a.name}, axis={r.choice(['None', '0', '-1'])})", [((None,), a.dtype)])
    elif f == "average":
        w = _ordinary(p, (n,), a.dtype, 0.0, 2.0)
        p.emit(f"{t}.average({a.name}, axis=0, weights={w.name})", [(a.shape[1:], a.dtype)])
    elif f in ("logaddexp", "hypot", "float_power"):
        b = _lits(p, a.shape, a.dtype, [r.choice(_EDGE + ["1.5", "-0.5"]) for _ in range(a.size)]) if a.known else a
        g = {"logaddexp": r.choice(["logaddexp", "logaddexp2"]), "hypot": "hypot", "float_power": "float_power"}[f]
        p.emit(f"{t}.{g}({a.name}, {b.name})", [(a.shape, "float64" if g == "float_power" else a.dtype)])
    elif f == "sinc":
        p.emit(f"{t}.sinc({a.name})", [(a.shape, a.dtype)])
    elif f == "gcd":
        x = _lits(p, (4,), "int32", [str(r.randint(-12, 12)) for _ in range(4)])
        y = _lits(p, (4,), "int32", [str(r.randint(-12, 12)) for _ in range(4)])
        v = p.emit(f"{t}.{r.choice(['gcd', 'lcm'])}({x.name}, {y.name})", [((4,), "int32")])[0]
    elif f == "cbrt":
        p.emit(f"{t}.{r.choice(['cbrt', 'log2', 'exp2', 'deg2rad', 'fix', 'positive'])}({a.name})", [(a.shape, a.dtype)])
    elif f == "signbit":
        x = _lits(p, (4,), a.dtype, [r.choice(["0.0", "-0.0", "float('nan')", "-float('nan')", "-1.5"]) for _ in range(4)])
        v = p.emit(f"{t}.signbit({x.name})", [((4,), "bool")])[0]
        p.emit(f"tf.cast({v.name}, tf.float32)", [((4,), "float32")])
    elif f == "take_along":
        if a.rank < 1:
            return False
        ix = p.emit(f"tf.argsort({a.name}, axis=-1)", [(a.shape, "int32")])[0]
        p.emit(f"{t}.take_along_axis({a.name}, {ix.name}, axis=-1)", [(a.shape, a.dtype)])
    elif f == "moveaxis":
        if a.rank < 2:
            return False
        p.emit(f"{t}.moveaxis({a.name}, 0, -1)", [(a.shape[1:] + a.shape[:1], a.dtype)])
    elif f == "space":
        num = r.randint(0, 5)
        g = r.choice(["logspace(0.0, 2.0, %d, base=%s)", "geomspace(1.0, 1000.0, %d)%s", "linspace(-1.0, 1.0, %d, endpoint=%s)"])
        extra = r.choice(["2.0", "10.0"]) if "logspace" in g else ("" if "geom" in g else r.choice(["True", "False"]))
        p.emit(f"{t}." + g % (num, extra), [((num,), "float64")])
    elif f == "select":
        p.emit(f"{t}.select([{a.name} > 1.0, {a.name} < -1.0], [{a.name} * 2.0, -{a.name}], default=0.5)",
               [(a.shape, a.dtype)])
    elif f == "compress":
        cond = [r.choice([True, False]) for _ in range(n)]
        p.emit(f"{t}.compress({cond}, {a.name}, axis=0)", [((sum(cond),) + a.shape[1:], a.dtype)])
    elif f == "repeat":
        reps = r.choice(["2", str([r.randint(0, 2) for _ in range(n)])])
        p.emit(f"{t}.repeat({a.name}, {reps}, axis=0)", [((None,) + a.shape[1:], a.dtype)])
    else:
        if a.rank < 2:
            return False
        p.emit(f"{t}.{r.choice(['tril', 'triu'])}({a.name}, k={r.randint(-1, 1)})", [(a.shape, a.dtype)])
    return True


def b_linalg49(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "float64"])
    n = r.choice([1, 2, 3])
    f = r.choice(["eigh", "eigvalsh", "eig", "sqrtm", "logm", "toeplitz", "circulant", "kron", "blockdiag", "tridiag",
                  "householder", "lowrank", "identity"])
    a = _ordinary(p, (n, n), dt, -2.0, 2.0)
    if f in ("eigh", "eigvalsh"):
        s = p.emit(f"{a.name} + tf.linalg.matrix_transpose({a.name})", [((n, n), dt)])[0]
        if f == "eigh":
            e, v = p.emit(f"tf.linalg.eigh({s.name})", [((n,), dt), ((n, n), dt)])
            p.emit(f"tf.math.abs({v.name})", [((n, n), dt)])
        else:
            p.emit(f"tf.linalg.eigvalsh({s.name})", [((n,), dt)])
    elif f == "eig":
        c = "complex64" if dt == "float32" else "complex128"
        e = p.emit(f"tf.linalg.eigvals({a.name})", [((n,), c)])[0]
        p.emit(f"tf.sort(tf.math.real({e.name}))", [((n,), dt)])
    elif f in ("sqrtm", "logm"):
        spd = p.emit(f"tf.linalg.matmul({a.name}, {a.name}, transpose_b=True) + tf.eye({n}, dtype=tf.{dt})",
                     [((n, n), dt)])[0]
        if f == "sqrtm":
            p.emit(f"tf.linalg.sqrtm({spd.name})", [((n, n), dt)])
        else:
            c = "complex64" if dt == "float32" else "complex128"
            v = p.emit(f"tf.linalg.logm(tf.cast({spd.name}, tf.{c}))", [((n, n), c)])[0]
            p.emit(f"tf.math.real({v.name})", [((n, n), dt)])
    elif f in ("toeplitz", "circulant"):
        col = _ordinary(p, (n,), dt, -2.0, 2.0)
        x = _ordinary(p, (n, 2), dt, -1.0, 1.0)
        if f == "toeplitz":
            op = f"tf.linalg.LinearOperatorToeplitz({col.name}, tf.concat([{col.name}[:1], {col.name}[1:] * 0.5], 0))"
            c = dt
        else:
            c = "complex64" if dt == "float32" else "complex128"
            op = f"tf.linalg.LinearOperatorCirculant(tf.cast({col.name}, tf.{c}), input_output_dtype=tf.{dt})"
        g = r.choice(["matmul(%s)", "to_dense()", "determinant()", "matvec(%s[:, 0])"])
        if "%s" in g:
            g = g % x.name
        p.emit(f"{op}.{g}", [((None,) * (2 if "matmul" in g or "dense" in g else 1 if "matvec" in g else 0), dt)])
    elif f == "kron":
        b = _ordinary(p, (2, 2), dt, -1.0, 1.0)
        op = f"tf.linalg.LinearOperatorKronecker([tf.linalg.LinearOperatorFullMatrix({a.name}), " \
             f"tf.linalg.LinearOperatorFullMatrix({b.name})])"
        g = r.choice(["to_dense()", "log_abs_determinant()", "trace()"])
        p.emit(f"{op}.{g}", [((2 * n, 2 * n) if "dense" in g else (), dt)])
    elif f == "blockdiag":
        b = _ordinary(p, (2, 2), dt, -1.0, 1.0)
        x = _ordinary(p, (n + 2, 1), dt, -1.0, 1.0)
        op = f"tf.linalg.LinearOperatorBlockDiag([tf.linalg.LinearOperatorFullMatrix({a.name}), " \
             f"tf.linalg.LinearOperatorLowerTriangular({b.name})])"
        g = r.choice([f"matmul({x.name})", "to_dense()", "diag_part()", f"matmul({x.name}, adjoint=True)"])
        p.emit(f"{op}.{g}", [((None,) * (1 if "diag" in g else 2), dt)])
    elif f == "tridiag":
        d = _ordinary(p, (3, n), dt, -2.0, 2.0)
        x = _ordinary(p, (n, 1), dt, -1.0, 1.0)
        g = r.choice([f"matmul({x.name})", "to_dense()", f"solve({x.name})"])
        p.emit(f"tf.linalg.LinearOperatorTridiag({d.name}, diagonals_format='compact')."
               f"{g}", [((n, None), dt)])
    elif f == "householder":
        v = _ordinary(p, (n,), dt, -2.0, 2.0)
        x = _ordinary(p, (n, 2), dt, -1.0, 1.0)
        g = r.choice([f"matmul({x.name})", "to_dense()", "determinant()"])
        p.emit(f"tf.linalg.LinearOperatorHouseholder({v.name} + 3.0).{g}", [((None,) * (0 if "det" in g else 2), dt)])
    elif f == "lowrank":
        u = _ordinary(p, (n, 1), dt, -1.0, 1.0)
        x = _ordinary(p, (n, 1), dt, -1.0, 1.0)
        g = r.choice([f"matmul({x.name})", "to_dense()", "log_abs_determinant()", f"solve({x.name})"])
        p.emit(f"tf.linalg.LinearOperatorLowRankUpdate(tf.linalg.LinearOperatorDiag(tf.ones([{n}], tf.{dt}) * 2.0), "
               f"{u.name}).{g}", [((None,) * (0 if "det" in g else 2), dt)])
    else:
        x = _ordinary(p, (n, 2), dt, -1.0, 1.0)
        g = r.choice(["LinearOperatorIdentity(%d, dtype=tf.%s)" % (n, dt),
                      "LinearOperatorScaledIdentity(%d, tf.constant(-1.5, tf.%s))" % (n, dt),
                      "LinearOperatorZeros(%d, dtype=tf.%s)" % (n, dt)])
        p.emit(f"tf.linalg.{g}.matmul({x.name})", [((n, 2), dt)])
    return True


def b_signal49(p: Prog) -> bool:
    r = p.rng
    dt = r.choice(["float32", "float64"])
    f = r.choice(["istft", "mdct", "kaiser", "mfcc", "fft3d", "rfft3d", "ifft2d", "kbd"])
    if f == "istft":
        fl, fs = r.choice([(4, 2), (4, 4), (3, 1), (8, 4)])
        x = _ordinary(p, (r.randint(fl, 12),), "float32", -1.0, 1.0)
        fft = r.choice([None, fl, 8]) if fl <= 8 else None
        fa = f", fft_length={fft}" if fft and fft >= fl else ""
        s = p.emit(f"tf.signal.stft({x.name}, {fl}, {fs}{fa})", [((None, None), "complex64")])[0]
        wf = r.choice(["", ", window_fn=tf.signal.inverse_stft_window_fn(%d)" % fs])
        p.emit(f"tf.signal.inverse_stft({s.name}, {fl}, {fs}{fa}{wf})", [((None,), "float32")])
    elif f == "mdct":
        fl = r.choice([4, 8])
        x = _ordinary(p, (r.randint(fl, 16),), dt, -1.0, 1.0)
        nm = r.choice(["None", "'ortho'"])
        v = p.emit(f"tf.signal.mdct({x.name}, {fl}, norm={nm})", [((None, fl // 2), dt)])[0]
        p.emit(f"tf.signal.inverse_mdct({v.name}, norm={nm})", [((None,), dt)])
    elif f in ("kaiser", "kbd"):
        n = r.randint(1, 7)
        beta = r.choice(["12.0", "0.0", "4.5"])
        g = "kaiser_window" if f == "kaiser" else "kaiser_bessel_derived_window"
        if f == "kbd" and n % 2:
            n += 1
        p.emit(f"tf.signal.{g}({n}, beta={beta}, dtype=tf.{dt})", [((n,), dt)])
    elif f == "mfcc":
        m = r.choice([2, 4, 5])
        x = _ordinary(p, (r.choice([1, 2]), m), "float32", -2.0, 3.0)
        p.emit(f"tf.signal.mfccs_from_log_mel_spectrograms({x.name})", [(x.shape, "float32")])
    else:
        c = "complex64" if dt == "float32" else "complex128"
        shp = (r.choice([1, 2]), r.choice([1, 2, 3]), r.choice([1, 2, 4]))
        re = _ordinary(p, shp, dt, -1.0, 1.0)
        if f == "rfft3d":
            v = p.emit(f"tf.signal.rfft3d({re.name})", [(shp[:2] + (shp[2] // 2 + 1,), c)])[0]
            p.emit(f"tf.signal.irfft3d({v.name}, fft_length={list(shp)})", [(shp, dt)])
            return True
        im = _ordinary(p, shp, dt, -1.0, 1.0)
        g = "fft3d" if f == "fft3d" else "ifft2d"
        v = p.emit(f"tf.signal.{g}(tf.complex({re.name}, {im.name}))", [(shp, c)])[0]
        p.emit(f"tf.math.real({v.name}) - tf.math.imag({v.name})", [(shp, dt)])
    return True


def b_sig49(p: Prog) -> bool:
    """A tf.function with an input_signature of None dimensions: value-dependent shapes, its static output shapes
    returned as a tensor (-1 for None)."""
    r = p.rng
    a = _flt(p, dts=("float32",))
    f = r.choice(["mask", "unique", "where", "slice", "reshape", "nms_like", "tile", "concat", "ragged", "gather"])
    body = {"mask": "tf.boolean_mask(x, x > 0.0)",
            "unique": "tf.unique(tf.reshape(x, [-1]))[0]",
            "where": "tf.cast(tf.where(x > 0.0), tf.float32)",
            "slice": "x[1:, ::2]" if a.rank >= 2 else "x[1::2]",
            "reshape": "tf.reshape(x, [-1, 1])",
            "nms_like": "tf.gather(tf.reshape(x, [-1]), tf.argsort(tf.reshape(x, [-1]))[:2])",
            "tile": "tf.tile(x, [2] + [1] * (len(x.shape) - 1))",
            "concat": "tf.concat([x, x[:1]], axis=0)",
            "ragged": "tf.RaggedTensor.from_tensor(x, padding=0.0).to_tensor()" if a.rank == 2 else "tf.reverse(x, [0])",
            "gather": "tf.gather(x, tf.range(tf.shape(x)[0] - 1))"}[f]
    sig = "[" + ", ".join("None" for _ in range(a.rank)) + "]"
    if r.random() < 0.3 and a.rank >= 1:
        sig = "[" + ", ".join(["None"] + [str(d) for d in a.shape[1:]]) + "]"
    fn = f"tf.function(lambda x: {body}, input_signature=[tf.TensorSpec({sig}, tf.float32)])"
    g = r.choice(["value", "shape"])
    if g == "value":
        p.emit(f"{fn}({a.name})", [((None,) * (1 if f in ('mask', 'unique', 'nms_like') else 2 if f == 'where' else a.rank), "float32")])
    else:
        p.emit(f"tf.constant([-1 if d is None else d for d in {fn}.get_concrete_function().structured_outputs.shape.as_list()])",
               [((None,), "int32")])
    return True


NEW = [(b_image49, 6), (b_nn49, 5), (b_math49, 6), (b_dtypes49, 5), (b_strings49, 3), (b_sparse49, 3), (b_ragged49, 3),
       (b_random49, 3), (b_tnp49, 4), (b_linalg49, 4), (b_signal49, 3), (b_sig49, 3)]
BUILDERS = E.BUILDERS + [(b, w * 4) for b, w in NEW]


def program(seed: int, k: int, steps: int = 12) -> dict:
    """Program k of seed (fz48b_gen.program's shape, the builders widened)."""
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
