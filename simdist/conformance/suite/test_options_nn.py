"""tf.nn / tf.math options the suite never set before (benchmarks/suite_options.py, issue 29,
second pass): reduce_all/any's axis and keepdims, bincount's weights, confusion_matrix's
num_classes/weights/dtype, accumulate_n's shape/tensor_dtype, sobol_sample's skip/dtype, crelu's
axis, l2_normalize's `dim`, LRN's bias, max_pool_with_argmax's output_dtype/include_batch_in_index,
top_k's sorted/index_type, the moments helpers' shift/keepdims, batch_norm_with_global_normalization,
pool's strides, with_space_to_batch's filter_shape/spatial_dims, separable_conv2d's and the
transposed convolutions' dilations and paddings, the depthwise backprops' dilations, ctc_loss's
logits_time_major/unique/blank_index, the embedding lookups' combiners and max_norm, isotonic
regression's axis, nce_loss/sampled_softmax_loss's num_true/remove_accidental_hits, approx_max_k's
options (TF 2.21).

Every expected value is a NumPy transcription of TF's documented rule computed here, or a relation
that must hold.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true
from simdist.conformance.tolerances import Tolerance
from simdist.conformance.suite.values import distinct_values as _x

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
TOL64 = Tolerance(rtol=1e-10, atol=1e-12)


def _raises(fn, exc, call):
    try:
        fn()
    except exc:
        return
    except Exception as e:          # noqa: BLE001 - report the wrong class
        assert_true(False, f"{call} raised {type(e).__name__}({e}), but should raise {exc.__name__}")
    assert_true(False, f"{call} returned, but should raise {exc.__name__}")


@clause("ops.nn-more", ref="tf221")
def test_options_math_reductions_counts_and_sequences(tf):
    """reduce_all/reduce_any(axis, keepdims); bincount(weights) sums the weights per value;
    confusion_matrix(num_classes=5, weights, dtype=float64) adds each weight at (label, prediction);
    accumulate_n(shape, tensor_dtype) is the sum; sobol_sample(skip=s, dtype=float64) is the float32
    sequence's rows s.., in float64."""
    b = _x((3, 4, 2)) > 0
    for axis, keep in ((1, True), ((0, 2), False), (None, True)):
        for name, ref in (("reduce_all", np.all), ("reduce_any", np.any)):
            got = getattr(tf.math, name)(tf.constant(b), axis=axis, keepdims=keep)
            assert_equal(np.asarray(got).tolist(), ref(b, axis=axis, keepdims=keep).tolist(),
                         call=f"tf.math.{name}(b, axis={axis}, keepdims={keep})")
    vals = np.array([1, 1, 3, 0, 3, 3])
    w = np.array([0.5, 1.0, 2.0, 0.25, -1.0, 3.0], np.float32)
    assert_close(tf.math.bincount(tf.constant(vals), weights=tf.constant(w)), np.bincount(vals, w),
                 call="bincount([1, 1, 3, 0, 3, 3], weights=w)", tolerance=TOL32)
    labels, preds = np.array([0, 1, 2, 2, 4]), np.array([0, 2, 2, 1, 4])
    cw = np.array([1.0, 2.0, 0.5, 3.0, 1.5])
    want = np.zeros((5, 5))
    for a, p_, ww in zip(labels, preds, cw):
        want[a, p_] += ww
    got = tf.math.confusion_matrix(labels, preds, num_classes=5, weights=tf.constant(cw), dtype=tf.float64)
    assert_true(got.dtype == tf.float64, f"confusion_matrix(..., dtype=float64).dtype={got.dtype}")
    assert_close(got, want, call="confusion_matrix(l, p, num_classes=5, weights=w, dtype=float64)", tolerance=TOL64)
    parts = [_x((2, 3), s) for s in (1.0, 0.5, -2.0)]
    assert_close(tf.math.accumulate_n([tf.constant(p_) for p_ in parts], shape=[2, 3], tensor_dtype=tf.float32),
                 sum(p_.astype(np.float64) for p_ in parts), call="accumulate_n(xs, shape=[2, 3], tensor_dtype=float32)",
                 tolerance=TOL32)
    base = np.asarray(tf.math.sobol_sample(3, 9), np.float64)
    got = tf.math.sobol_sample(3, 5, skip=4, dtype=tf.float64)
    assert_true(got.dtype == tf.float64, f"sobol_sample(..., dtype=float64).dtype={got.dtype}")
    assert_close(got, base[4:], call="sobol_sample(3, 5, skip=4, dtype=float64) vs sobol_sample(3, 9)[4:]",
                 tolerance=Tolerance(rtol=1e-6, atol=1e-7))


def _lrn(x, r, bias, alpha, beta):
    sq = x.astype(np.float64) ** 2
    c = x.shape[-1]
    s = np.stack([sq[..., max(0, k - r):min(c, k + r + 1)].sum(-1) for k in range(c)], -1)
    return x / (bias + alpha * s) ** beta


@clause("ops.nn-more", ref="tf221")
def test_options_nn_elementwise_normalisations_and_moments(tf):
    """crelu(axis=1) concatenates relu(x), relu(-x) on axis 1; l2_normalize(dim=1) (the old name of
    axis); local_response_normalization(bias=2) over a depth window; sufficient_statistics(shift,
    keepdims), weighted_moments(keepdims), moments(shift) (unused by TF 2) and
    batch_norm_with_global_normalization by keyword, with and without scale_after_normalization."""
    x = _x((2, 3, 4, 5), 1.3).astype(np.float64)
    xt = tf.constant(x)
    assert_close(tf.nn.crelu(xt, axis=1), np.concatenate([np.maximum(x, 0), np.maximum(-x, 0)], 1),
                 call="crelu(x, axis=1)", tolerance=TOL64)
    assert_close(tf.nn.l2_normalize(xt, dim=1), x / np.sqrt(np.maximum((x ** 2).sum(1, keepdims=True), 1e-12)),
                 call="l2_normalize(x, dim=1)", tolerance=TOL64)
    x32 = x.astype(np.float32)
    assert_close(tf.nn.local_response_normalization(tf.constant(x32), depth_radius=1, bias=2.0, alpha=0.5, beta=0.75),
                 _lrn(x32, 1, 2.0, 0.5, 0.75), call="local_response_normalization(depth_radius=1, bias=2, alpha=0.5, "
                 "beta=0.75)", tolerance=TOL32)
    shift = 0.3
    cnt, m_ss, v_ss, sh = tf.nn.sufficient_statistics(xt, [0, 2], shift=tf.constant(shift, tf.float64), keepdims=True)
    call = "sufficient_statistics(x, [0, 2], shift=0.3, keepdims=True)"
    assert_close([float(np.asarray(cnt)), float(np.asarray(sh))], [2 * 4, shift], call=call, what="[count, shift]",
                 tolerance=TOL64)
    assert_close(m_ss, (x - shift).sum((0, 2), keepdims=True), call=call, what="mean_ss", tolerance=TOL64)
    assert_close(v_ss, ((x - shift) ** 2).sum((0, 2), keepdims=True), call=call, what="var_ss", tolerance=TOL64)
    fw = _x((2, 3, 1, 5), 0.5).astype(np.float64) + 1.0
    mean, var = tf.nn.weighted_moments(xt, [1, 2], tf.constant(fw), keepdims=True)
    wb = np.broadcast_to(fw, x.shape)
    wm = (wb * x).sum((1, 2), keepdims=True) / wb.sum((1, 2), keepdims=True)
    wv = (wb * (x - wm) ** 2).sum((1, 2), keepdims=True) / wb.sum((1, 2), keepdims=True)
    assert_close([np.asarray(mean), np.asarray(var)], [wm, wv], call="weighted_moments(x, [1, 2], w, keepdims=True)",
                 what="[mean, variance]", tolerance=TOL64)
    mean, var = tf.nn.moments(xt, [0, 1], shift=tf.constant(5.0, tf.float64))
    assert_close([np.asarray(mean), np.asarray(var)], [x.mean((0, 1)), x.var((0, 1))],
                 call="moments(x, [0, 1], shift=5.0)", what="[mean, variance]", tolerance=TOL64)
    mu, var, beta, gamma = (np.array([0.1, -0.2, 0.3, 0.0, 0.5]), np.array([1.0, 2.0, 0.5, 1.5, 3.0]),
                            np.array([0.0, 1.0, -1.0, 0.5, 0.25]), np.array([2.0, 0.5, 1.0, -1.0, 3.0]))
    for scale in (True, False):
        got = tf.nn.batch_norm_with_global_normalization(
            input=xt, mean=tf.constant(mu), variance=tf.constant(var), beta=tf.constant(beta), gamma=tf.constant(gamma),
            variance_epsilon=0.01, scale_after_normalization=scale)
        want = (x - mu) / np.sqrt(var + 0.01) * (gamma if scale else 1.0) + beta
        assert_close(got, want, call=f"batch_norm_with_global_normalization(..., variance_epsilon=0.01, "
                     f"scale_after_normalization={scale})", tolerance=TOL64)


@clause("ops.nn-more", ref="tf221")
def test_options_nn_pooling_argmax_and_top_k(tf):
    """max_pool_with_argmax(output_dtype=int32, include_batch_in_index=True): the flat index
    ((b·H + y)·W + x)·C + c of each window's maximum; pool(AVG, strides=[2, 1]); top_k(sorted=False,
    index_type=int64): the k largest values and their indices, in some order."""
    x = _x((2, 4, 4, 3), 1.7)
    vals, idx = tf.nn.max_pool_with_argmax(tf.constant(x), 2, 2, "VALID", output_dtype=tf.int32,
                                           include_batch_in_index=True)
    assert_true(idx.dtype == tf.int32, f"max_pool_with_argmax(output_dtype=int32)[1].dtype={idx.dtype}")
    want_v, want_i = np.zeros((2, 2, 2, 3)), np.zeros((2, 2, 2, 3), int)
    for b, i, j, c in itertools.product(range(2), range(2), range(2), range(3)):
        win = x[b, 2 * i:2 * i + 2, 2 * j:2 * j + 2, c]
        a, bb = np.unravel_index(np.argmax(win), (2, 2))
        want_v[b, i, j, c] = win[a, bb]
        want_i[b, i, j, c] = ((b * 4 + 2 * i + a) * 4 + 2 * j + bb) * 3 + c
    call = "max_pool_with_argmax(x(2,4,4,3), 2, 2, 'VALID', output_dtype=int32, include_batch_in_index=True)"
    assert_close(vals, want_v, call=call, what="values", tolerance=TOL32)
    assert_equal(np.asarray(idx).tolist(), want_i.tolist(), call=call, what="argmax")
    got = tf.nn.pool(tf.constant(x), [2, 2], "AVG", strides=[2, 1], padding="VALID")
    want = np.stack([np.stack([x[:, 2 * i:2 * i + 2, j:j + 2].mean((1, 2)) for j in range(3)], 1) for i in range(2)], 1)
    assert_close(got, want, call="pool(x, [2, 2], 'AVG', strides=[2, 1], padding='VALID')", tolerance=TOL32)
    z = _x((3, 7), 2.0)
    v, i = tf.nn.top_k(tf.constant(z), 3, sorted=False, index_type=tf.int64)
    assert_true(i.dtype == tf.int64, f"top_k(index_type=int64)[1].dtype={i.dtype}")
    v, i = np.asarray(v), np.asarray(i)
    want = np.sort(z, -1)[:, ::-1][:, :3]
    assert_close(np.sort(v, -1)[:, ::-1], want, call="top_k(z, 3, sorted=False)", what="values (sorted here)",
                 tolerance=TOL32)
    assert_close(np.take_along_axis(z, i, -1), v, call="top_k(z, 3, sorted=False)", what="z[indices]",
                 tolerance=TOL32)
    for fn in ("approx_max_k", "approx_min_k"):
        _raises(lambda: getattr(tf.nn, fn)(tf.constant(z), 2, reduction_dimension=0, recall_target=0.5,
                                           reduction_input_size_override=7, aggregate_to_topk=False),
                tf.errors.NotFoundError, f"tf.nn.{fn}(z, 2, reduction_dimension=0, ...) (no CPU kernel in TF 2.21)")


def _conv_nd(x, k, stride, dilation, pads):
    """N-d NHWC convolution in float64 with explicit (before, after) pads per spatial axis."""
    nd = x.ndim - 2
    xp = np.pad(x, [(0, 0)] + list(pads) + [(0, 0)])
    out_sz = [(xp.shape[1 + a] - (k.shape[a] - 1) * dilation[a] - 1) // stride[a] + 1 for a in range(nd)]
    out = np.zeros([x.shape[0]] + out_sz + [k.shape[-1]])
    for o in itertools.product(*[range(s) for s in out_sz]):
        for kk in itertools.product(*[range(s) for s in k.shape[:nd]]):
            pos = tuple(o[a] * stride[a] + kk[a] * dilation[a] for a in range(nd))
            out[(slice(None),) + o] += xp[(slice(None),) + pos] @ k[kk]
    return out


def _conv_t_nd(x, k, out_shape, stride, dilation, padding):
    """Transposed N-d convolution (the input gradient of a convolution of out_shape): k is
    (spatial..., out_channels, in_channels); TF's SAME pads half before."""
    nd = x.ndim - 2
    before = []
    for a in range(nd):
        span = (k.shape[a] - 1) * dilation[a]
        if padding == "SAME":
            total = max((x.shape[1 + a] - 1) * stride[a] + span + 1 - out_shape[1 + a], 0)
            before.append(total // 2)
        else:
            before.append(0)
    out = np.zeros(out_shape)
    for i in itertools.product(*[range(s) for s in x.shape[1:-1]]):
        for kk in itertools.product(*[range(s) for s in k.shape[:nd]]):
            pos = tuple(i[a] * stride[a] + kk[a] * dilation[a] - before[a] for a in range(nd))
            if all(0 <= pos[a] < out_shape[1 + a] for a in range(nd)):
                out[(slice(None),) + pos] += x[(slice(None),) + i] @ k[kk].T
    return out


@clause("ops.nn-more", ref="tf221")
def test_options_nn_dilated_and_transposed_convolutions(tf, onednn_float32):
    """separable_conv2d(dilations=2), with_space_to_batch(dilation 2, filter_shape, spatial_dims=[1,
    2]) around a VALID conv2d, and conv1d/conv2d/conv3d/conv_transpose (float32) with SAME padding
    and stride 2 or VALID with dilations 2 (conv_transpose of a 5-long output_shape is 3-D), against
    NumPy; the depthwise backprops ignore `dilations` (computed as dilation 1), and an out_backprop
    of the dilated size is AbortedError in float32 (oneDNN) and InvalidArgumentError in float64."""
    x = _x((1, 7, 6, 2), 1.1).astype(np.float64)
    dk = _x((2, 2, 2, 2), 0.7)[::-1].astype(np.float64)
    pk = _x((1, 1, 4, 3), 0.5).astype(np.float64) + 0.05
    dw = np.concatenate([_conv_nd(x[..., c:c + 1], dk[:, :, c:c + 1], (1, 1), (2, 2), [(0, 0), (0, 0)])
                         for c in range(2)], -1)
    got = tf.nn.separable_conv2d(tf.constant(x), tf.constant(dk), tf.constant(pk), [1, 1, 1, 1], "VALID",
                                 dilations=[2, 2])
    assert_close(got, dw @ pk[0, 0], call="separable_conv2d(x, dk, pk, [1, 1, 1, 1], 'VALID', dilations=[2, 2])",
                 tolerance=TOL64)
    k = _x((2, 2, 2, 3), 0.6).astype(np.float64)
    got = tf.nn.with_space_to_batch(tf.constant(x), [2, 2], "VALID",
                                    lambda inp, num_spatial_dims, padding: tf.nn.conv2d(inp, tf.constant(k), 1, padding),
                                    filter_shape=[2, 2], spatial_dims=[1, 2], data_format="NHWC")
    assert_close(got, _conv_nd(x, k, (1, 1), (2, 2), [(0, 0), (0, 0)]),
                 call="with_space_to_batch(x, [2, 2], 'VALID', conv2d, filter_shape=[2, 2], spatial_dims=[1, 2])",
                 tolerance=TOL64)
    def _f32(a):                        # float32: TF's Eigen kernels refuse dilated float64 backprops
        return tf.constant(a.astype(np.float32))
    x1 = _x((2, 4, 2), 0.9).astype(np.float64)
    k1 = _x((3, 3, 2), 0.8).astype(np.float64)       # (width, out, in)
    x3 = _x((1, 3, 2, 3, 2), 0.7).astype(np.float64)
    k3 = _x((2, 2, 2, 3, 2), 0.4).astype(np.float64)
    x2 = x[:, :4, :3]
    k2 = _x((2, 3, 3, 2), 0.5).astype(np.float64)
    cases = [
        ("conv1d_transpose", lambda s, p, d, shp: tf.nn.conv1d_transpose(_f32(x1), _f32(k1), shp, s, p,
                                                                         dilations=d), x1, k1, (2, 8, 3), 2, "SAME", 1),
        ("conv1d_transpose", lambda s, p, d, shp: tf.nn.conv1d_transpose(_f32(x1), _f32(k1), shp, s, p,
                                                                         dilations=d), x1, k1, (2, 8, 3), 1, "VALID", 2),
        ("conv2d_transpose", lambda s, p, d, shp: tf.nn.conv2d_transpose(_f32(x2), _f32(k2), shp, s, p,
                                                                         dilations=d), x2, k2, (1, 6, 7, 3), 1, "VALID",
         2),
        ("conv3d_transpose", lambda s, p, d, shp: tf.nn.conv3d_transpose(_f32(x3), _f32(k3), shp, s, p,
                                                                         dilations=d), x3, k3, (1, 5, 4, 5, 3), 1,
         "VALID", 2),
        ("conv_transpose", lambda s, p, d, shp: tf.nn.conv_transpose(_f32(x2), _f32(k2), shp, s, p,
                                                                     dilations=d), x2, k2, (1, 8, 6, 3), 2, "SAME", 1),
        ("conv_transpose", lambda s, p, d, shp: tf.nn.conv_transpose(_f32(x3), _f32(k3), shp, s, p,
                                                                     dilations=d), x3, k3, (1, 5, 4, 5, 3), 1, "VALID",
         2),
    ]
    for name, fn, xx, kk, shp, s, p, d in cases:
        nd = xx.ndim - 2
        want = _conv_t_nd(xx, kk, shp, (s,) * nd, (d,) * nd, p)
        got = fn(s, p, d, list(shp))
        assert_close(got, want, call=f"{name}(x{xx.shape}, k{kk.shape}, {list(shp)}, strides={s}, padding={p!r}, "
                     f"dilations={d})", tolerance=TOL32)
    f = _x((2, 2, 2, 1), 0.7).astype(np.float64)
    xin = _x((1, 5, 5, 2), 1.2).astype(np.float64)
    g4 = _x((1, 4, 4, 2), 0.9).astype(np.float64)      # the undilated out_backprop size
    g3 = g4[:, :3, :3]                                  # the size a dilation of 2 would give
    want_in = np.zeros((1, 5, 5, 2))
    want_f = np.zeros((2, 2, 2, 1))
    for i, j, a, b in itertools.product(range(4), range(4), range(2), range(2)):
        want_in[0, i + a, j + b] += g4[0, i, j] * f[a, b, :, 0]
        want_f[a, b, :, 0] += g4[0, i, j] * xin[0, i + a, j + b]
    for dt, err in (("float32", tf.errors.AbortedError), ("float64", tf.errors.InvalidArgumentError)):
        cast = (lambda a: tf.constant(a.astype(dt)))
        for dl in ([1, 2, 2, 1], [1, 1, 2, 1]):
            got = tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], cast(f), cast(g4), [1, 1, 1, 1], "VALID",
                                                        dilations=dl)
            tol = TOL32 if dt == "float32" else TOL64
            assert_close(got, want_in, call=f"depthwise_conv2d_backprop_input({dt}, dilations={dl}) (computed as "
                         "dilation 1)", tolerance=tol)
            got = tf.nn.depthwise_conv2d_backprop_filter(cast(xin), [2, 2, 2, 1], cast(g4), [1, 1, 1, 1], "VALID",
                                                         dilations=dl)
            assert_close(got, want_f, call=f"depthwise_conv2d_backprop_filter({dt}, dilations={dl}) (computed as "
                         "dilation 1)", tolerance=tol)
        _raises(lambda: tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], cast(f), cast(g3), [1, 1, 1, 1], "VALID",
                                                              dilations=[1, 2, 2, 1]), err,
                f"depthwise_conv2d_backprop_input({dt}, out_backprop of the dilated size 3x3, dilations=[1, 2, 2, 1])")
        _raises(lambda: tf.nn.depthwise_conv2d_backprop_filter(cast(xin), [2, 2, 2, 1], cast(g3), [1, 1, 1, 1],
                                                               "VALID", dilations=[1, 2, 2, 1]), err,
                f"depthwise_conv2d_backprop_filter({dt}, out_backprop of the dilated size 3x3, dilations=[1, 2, 2, 1])")


def _ctc(logp, labels, blank):
    """-log p(labels | x) of one sequence by the CTC forward recursion (log space), logp (T, C)."""
    ext = [blank]
    for lab in labels:
        ext += [lab, blank]
    n = len(ext)
    a = np.full(n, -np.inf)
    a[0] = logp[0, ext[0]]
    if n > 1:
        a[1] = logp[0, ext[1]]
    for t in range(1, logp.shape[0]):
        prev = a.copy()
        for s in range(n):
            terms = [prev[s]]
            if s >= 1:
                terms.append(prev[s - 1])
            if s >= 2 and ext[s] != blank and ext[s] != ext[s - 2]:
                terms.append(prev[s - 2])
            a[s] = np.logaddexp.reduce(terms) + logp[t, ext[s]]
    return -np.logaddexp(a[-1], a[-2] if n > 1 else -np.inf)


def _log_softmax(z, axis=-1):
    m = z.max(axis=axis, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=axis, keepdims=True))


@clause("ops.nn-ctc", ref="tf221")
def test_options_ctc_loss_layouts_blank_and_unique(tf):
    """ctc_loss with logits_time_major=False (batch-major logits), blank_index=0 (class 0 the blank)
    or the last class, and `unique` (ctc_unique_labels' pair, built here) against the CTC forward
    recursion in NumPy."""
    T, B, C = 6, 2, 5
    logits = _x((T, B, C), 2.0).astype(np.float32)
    labels = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
    lengths = np.array([3, 2], np.int32)
    logp = _log_softmax(logits.astype(np.float64))
    for blank in (0, C - 1):
        lab = labels if blank == C - 1 else labels + 1          # class ids avoid the blank
        lab = np.where(np.arange(3) < lengths[:, None], lab, 0)
        want = [_ctc(logp[:, b], list(lab[b, :lengths[b]]), blank) for b in range(B)]
        uniq = np.zeros_like(lab)
        idx = np.zeros_like(lab)
        for b in range(B):
            seen = []
            for j, v in enumerate(lab[b]):
                if v not in seen:
                    seen.append(v)
                idx[b, j] = seen.index(v)
            uniq[b, :len(seen)] = seen
        for major in (True, False):
            lg = logits if major else np.ascontiguousarray(np.transpose(logits, (1, 0, 2)))
            got = tf.nn.ctc_loss(tf.constant(lab), tf.constant(lg), tf.constant(lengths), tf.constant([T, T]),
                                 logits_time_major=major, unique=(tf.constant(uniq), tf.constant(idx)),
                                 blank_index=blank)
            assert_close(got, want, call=f"ctc_loss(labels, logits, logits_time_major={major}, unique=..., "
                         f"blank_index={blank})", tolerance=Tolerance(rtol=1e-4, atol=1e-5))


@clause("ops.nn-more", ref="tf221")
def test_options_embedding_lookups_combiners_and_max_norm(tf):
    """embedding_lookup_sparse(combiner=sum/mean/sqrtn, max_norm, allow_fast_lookup) and
    safe_embedding_lookup_sparse(sparse_weights, combiner, default_id, max_norm): each row combines
    its ids' embeddings (clipped to max_norm) by its weights; an empty row takes default_id's."""
    params = _x((6, 3), 1.5).astype(np.float32)
    ids = [(0, 0, 1), (0, 1, 4), (1, 0, 2), (1, 1, 2), (1, 2, 5)]
    wts = np.array([0.5, 2.0, 1.0, 0.25, 3.0], np.float32)
    sp_ids = tf.sparse.SparseTensor([[r, c] for r, c, _ in ids], tf.constant([v for *_, v in ids], tf.int64), [3, 3])
    sp_w = tf.sparse.SparseTensor([[r, c] for r, c, _ in ids], tf.constant(wts), [3, 3])

    def clip(v, mn):
        if mn is None:
            return v.astype(np.float64)
        n = np.linalg.norm(v.astype(np.float64))
        return v * (mn / n) if n > mn else v.astype(np.float64)

    def combine(rows, combiner, mn, default=None):
        out = []
        for r in rows:
            ent = [(v, w) for (rr, _, v), w in zip(ids, wts) if rr == r]
            if not ent:
                out.append(clip(params[default], mn) if default is not None else np.zeros(3))
                continue
            s = sum(w * clip(params[v], mn) for v, w in ent)
            tw = sum(w for _, w in ent)
            out.append(s if combiner == "sum" else s / tw if combiner == "mean" else
                       s / np.sqrt(sum(w * w for _, w in ent)))
        return np.array(out)
    for combiner, mn, fast in (("sum", None, True), ("mean", 1.0, False), ("sqrtn", 0.8, True)):
        got = tf.nn.embedding_lookup_sparse(tf.constant(params), sp_ids, sp_w, combiner=combiner, max_norm=mn,
                                            allow_fast_lookup=fast)
        assert_close(got, combine([0, 1], combiner, mn), call=f"embedding_lookup_sparse(combiner={combiner!r}, "
                     f"max_norm={mn}, allow_fast_lookup={fast})", tolerance=TOL32)
        got = tf.nn.safe_embedding_lookup_sparse([tf.constant(params)], sp_ids, sparse_weights=sp_w, combiner=combiner,
                                                 default_id=3, max_norm=mn, allow_fast_lookup=fast)
        assert_close(got, combine([0, 1, 2], combiner, mn, default=3),
                     call=f"safe_embedding_lookup_sparse(combiner={combiner!r}, default_id=3, max_norm={mn})",
                     tolerance=TOL32)


def _pav_decreasing(y):
    """Isotonic (non-increasing) least-squares fit by pooling adjacent violators."""
    blocks = []
    for v in y:
        blocks.append([v, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] < blocks[-1][0] / blocks[-1][1]:
            s, n = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    return np.concatenate([[s / n] * n for s, n in blocks])


@clause("ops.nn-isotonic", ref="tf221")
@clause("ops.sampled-losses", ref="tf221")
def test_options_isotonic_axis_and_sampled_losses(tf):
    """isotonic_regression(x, axis=0) fits each column non-increasingly (pool adjacent violators);
    nce_loss/sampled_softmax_loss(num_true=2, remove_accidental_hits) with given sampled_values:
    logits of the true and sampled classes minus log expected counts, an accidental hit's logit
    lowered by FLT_MAX, then summed sigmoid cross-entropies (labels 1/num_true) or the softmax one."""
    x = _x((5, 3), 2.0).astype(np.float64)
    got = tf.nn.isotonic_regression(tf.constant(x), axis=0)[0]
    assert_close(got, np.stack([_pav_decreasing(x[:, j]) for j in range(3)], 1), call="isotonic_regression(x, axis=0)",
                 tolerance=TOL64)
    nc, dim, batch = 7, 3, 2
    w = _x((nc, dim), 0.8).astype(np.float32)
    b = _x((nc,), 0.3).astype(np.float32)
    inputs = _x((batch, dim), 1.2).astype(np.float32)
    labels = np.array([[1, 4], [2, 0]], np.int64)
    sampled = np.array([4, 5, 0, 6], np.int64)
    tec = np.array([[0.5, 0.25], [0.75, 0.4]], np.float32)
    sec = np.array([0.3, 0.6, 0.2, 0.9], np.float32)
    W, Bv, X = w.astype(np.float64), b.astype(np.float64), inputs.astype(np.float64)
    for rm in (True, False):
        true_logits = np.einsum("bd,bkd->bk", X, W[labels]) + Bv[labels] - np.log(tec)
        samp_logits = X @ W[sampled].T + Bv[sampled] - np.log(sec)
        if rm:
            hit = (sampled[None, None, :] == labels[:, :, None]).any(1)
            samp_logits = np.where(hit, samp_logits + np.finfo(np.float32).min, samp_logits)
        logits = np.concatenate([true_logits, samp_logits], 1)
        lab = np.concatenate([np.full((batch, 2), 0.5), np.zeros((batch, 4))], 1)
        nce = (np.maximum(logits, 0) - logits * lab + np.log1p(np.exp(-np.abs(logits)))).sum(1)
        ssm = -(lab * _log_softmax(logits)).sum(1)
        sv = (tf.constant(sampled), tf.constant(tec), tf.constant(sec))
        got = tf.nn.nce_loss(tf.constant(w), tf.constant(b), tf.constant(labels), tf.constant(inputs), 4, nc,
                             num_true=2, sampled_values=sv, remove_accidental_hits=rm)
        assert_close(got, nce, call=f"nce_loss(num_true=2, num_sampled=4, sampled_values=..., "
                     f"remove_accidental_hits={rm})", tolerance=Tolerance(rtol=1e-4, atol=1e-5))
        got = tf.nn.sampled_softmax_loss(tf.constant(w), tf.constant(b), tf.constant(labels), tf.constant(inputs), 4,
                                         nc, num_true=2, sampled_values=sv, remove_accidental_hits=rm, seed=11)
        assert_close(got, ssm, call=f"sampled_softmax_loss(num_true=2, num_sampled=4, sampled_values=..., "
                     f"remove_accidental_hits={rm}, seed=11)", tolerance=Tolerance(rtol=1e-4, atol=1e-5))


@clause("ops.space-batch", ref="tf221")
@clause("autodiff.op-gradients", ref="tf221")
def test_options_channels_first_where_tf_cpu_runs_it(tf, onednn_float32):
    """conv2d, convolution and bias_add with data_format NCHW (float32: TF 2.21's CPU runs them
    through oneDNN) give the NHWC result transposed, and the input gradient likewise; so do the
    1-, 2- and 3-D max and average pools and `pool` with NCW/NCHW/NCDHW, depthwise_conv2d,
    separable_conv2d, conv1d, conv3d, the 1-/2-/3-D transposed convolutions and the depthwise
    backprops (float64: the default
    kernels' errors; their depthwise kernel also wants equal row and column strides); depth_to_space/space_to_depth with NCHW have no CPU kernel
    (NotFoundError eagerly)."""
    x = _x((2, 3, 5, 4), 1.1)                                  # NCHW
    k = _x((2, 2, 3, 2), 0.7)
    b = np.array([0.5, -1.0, 0.25], np.float32)
    xl = np.ascontiguousarray(np.transpose(x, (0, 2, 3, 1))).astype(np.float64)
    want = _conv_nd(xl, k.astype(np.float64), (1, 2), (1, 1), [(0, 0), (0, 0)])
    for name, fn in (("conv2d", lambda t: tf.nn.conv2d(t, tf.constant(k), [1, 1, 1, 2], "VALID", data_format="NCHW")),
                     ("convolution", lambda t: tf.nn.convolution(t, tf.constant(k), strides=[1, 2], padding="VALID",
                                                                 data_format="NCHW"))):
        xt = tf.constant(x)
        with tf.GradientTape() as tape:
            tape.watch(xt)
            y = fn(xt)
            total = tf.reduce_sum(y * y)
        call = f"{name}(x NCHW, k, strides (1, 2), 'VALID', data_format='NCHW')"
        assert_close(y, np.transpose(want, (0, 3, 1, 2)), call=call, tolerance=TOL32)
        gl = np.zeros_like(xl)
        for i, j, a, c in itertools.product(range(want.shape[1]), range(want.shape[2]), range(2), range(2)):
            gl[:, i + a, 2 * j + c] += (2 * want[:, i, j]) @ k[a, c].T.astype(np.float64)
        assert_close(tape.gradient(total, xt), np.transpose(gl, (0, 3, 1, 2)), call=f"d/dx sum({call}^2)",
                     tolerance=Tolerance(rtol=1e-4, atol=1e-5))
    assert_close(tf.nn.bias_add(tf.constant(x), tf.constant(b), data_format="NCHW"), x + b[None, :, None, None],
                 call="bias_add(x, b, data_format='NCHW')", tolerance=TOL32)
    x3, x5 = _x((2, 3, 7), 1.3), _x((2, 2, 4, 5, 4), 0.9)
    pools = [("max_pool2d", x, lambda t, f: tf.nn.max_pool2d(t, 2, [1, 2] if f == "NHWC" else [1, 1, 1, 2], "SAME",
                                                            data_format=f)),
             ("avg_pool2d", x, lambda t, f: tf.nn.avg_pool2d(t, [2, 3], 2, "VALID", data_format=f)),
             ("max_pool", x, lambda t, f: tf.nn.max_pool(t, 2, 2, "VALID", data_format=f)),
             ("avg_pool", x3, lambda t, f: tf.nn.avg_pool(t, 2, 1, "SAME", data_format=f)),
             ("max_pool1d", x3, lambda t, f: tf.nn.max_pool1d(t, 2, 2, "SAME", data_format=f)),
             ("avg_pool1d", x3, lambda t, f: tf.nn.avg_pool1d(t, 3, 1, "VALID", data_format=f)),
             ("max_pool3d", x5, lambda t, f: tf.nn.max_pool3d(t, 2, 2, "VALID", data_format=f)),
             ("avg_pool3d", x5, lambda t, f: tf.nn.avg_pool3d(t, 2, 2, "SAME", data_format=f)),
             ("pool(MAX)", x, lambda t, f: tf.nn.pool(t, [2, 2], "MAX", strides=[2, 1], padding="VALID", data_format=f)),
             ("pool(AVG)", x3, lambda t, f: tf.nn.pool(t, [2], "AVG", strides=[2], padding="SAME", data_format=f))]
    last = {3: (0, 2, 1), 4: (0, 2, 3, 1), 5: (0, 2, 3, 4, 1)}
    first = {3: (0, 2, 1), 4: (0, 3, 1, 2), 5: (0, 4, 1, 2, 3)}
    fmts = {3: ("NWC", "NCW"), 4: ("NHWC", "NCHW"), 5: ("NDHWC", "NCDHW")}
    for name, arr, fn in pools:
        cl, cf = fmts[arr.ndim]
        want = np.transpose(np.asarray(fn(tf.constant(np.ascontiguousarray(np.transpose(arr, last[arr.ndim]))), cl)),
                            first[arr.ndim])
        assert_close(fn(tf.constant(arr), cf), want, call=f"{name}(x, data_format={cf!r}) vs {cl} transposed",
                     tolerance=Tolerance(rtol=0, atol=0))
    x4 = _x((2, 2, 5, 6), 1.2)
    x1 = _x((2, 2, 7), 0.8)
    dk, pk = _x((2, 3, 2, 2), 0.6), _x((1, 1, 4, 3), 0.5)
    k1, kt, kt1 = _x((3, 2, 3), 0.7), _x((2, 2, 3, 2), 0.4), _x((3, 3, 2), 0.5)
    convs = [("depthwise_conv2d", x4, lambda t, f: tf.nn.depthwise_conv2d(
                 t, tf.constant(dk), [1, 2, 2, 1] if f == "NHWC" else [1, 1, 2, 2], "SAME", data_format=f)),
             ("depthwise_conv2d(dilations)", x4, lambda t, f: tf.nn.depthwise_conv2d(
                 t, tf.constant(dk), [1, 1, 1, 1], "VALID", data_format=f, dilations=[2, 1])),
             ("separable_conv2d", x4, lambda t, f: tf.nn.separable_conv2d(
                 t, tf.constant(dk), tf.constant(pk), [1, 1, 1, 1], "VALID", data_format=f)),
             ("conv1d", x1, lambda t, f: tf.nn.conv1d(t, tf.constant(k1), 2, "SAME", data_format=f)),
             ("conv1d(dilations)", x1, lambda t, f: tf.nn.conv1d(t, tf.constant(k1), 1, "VALID", data_format=f,
                                                                 dilations=2)),
             ("conv2d_transpose", x4, lambda t, f: tf.nn.conv2d_transpose(
                 t, tf.constant(kt), [2, 10, 12, 3] if f == "NHWC" else [2, 3, 10, 12], 2, "SAME", data_format=f)),
             ("conv1d_transpose", x1, lambda t, f: tf.nn.conv1d_transpose(
                 t, tf.constant(kt1), [2, 15, 3] if f == "NWC" else [2, 3, 15], 2, "VALID", data_format=f)),
             ("conv_transpose", x4, lambda t, f: tf.nn.conv_transpose(
                 t, tf.constant(kt), [2, 6, 7, 3] if f == "NHWC" else [2, 3, 6, 7], 1, "VALID", data_format=f))]
    x5 = _x((2, 2, 4, 4, 5), 0.9)
    k3, kt3 = _x((2, 2, 2, 2, 3), 0.5), _x((2, 2, 2, 3, 2), 0.4)
    g = _x((2, 2, 4, 4), 0.7)
    fdw = _x((2, 2, 2, 1), 0.6)
    convs += [("conv3d", x5, lambda t, f: tf.nn.conv3d(t, tf.constant(k3), [1, 1, 2, 1, 1] if f == "NDHWC" else
                                                       [1, 1, 1, 2, 1], "SAME", data_format=f)),
              ("conv3d_transpose", x5, lambda t, f: tf.nn.conv3d_transpose(
                  t, tf.constant(kt3), [2, 8, 8, 10, 3] if f == "NDHWC" else [2, 3, 8, 8, 10], 2, "SAME",
                  data_format=f)),
              ("conv_transpose(3-D)", x5, lambda t, f: tf.nn.conv_transpose(
                  t, tf.constant(kt3), [2, 5, 5, 6, 3] if f == "NDHWC" else [2, 3, 5, 5, 6], 1, "VALID",
                  data_format=f)),
              ("depthwise_conv2d_backprop_input", g, lambda t, f: tf.nn.depthwise_conv2d_backprop_input(
                  [2, 5, 5, 2] if f == "NHWC" else [2, 2, 5, 5], tf.constant(fdw), t, [1, 1, 1, 1], "VALID",
                  data_format=f))]
    for name, arr, fn in convs:
        cl, cf = fmts[arr.ndim]
        want = np.transpose(np.asarray(fn(tf.constant(np.ascontiguousarray(np.transpose(arr, last[arr.ndim]))), cl)),
                            first[arr.ndim])
        assert_close(fn(tf.constant(arr), cf), want, call=f"{name}(x, data_format={cf!r}) vs {cl} transposed",
                     tolerance=Tolerance(rtol=1e-6, atol=1e-7))
    xin = _x((2, 2, 5, 5), 1.1)
    got = tf.nn.depthwise_conv2d_backprop_filter(tf.constant(xin), [2, 2, 2, 1], tf.constant(g), [1, 1, 1, 1], "VALID",
                                                 data_format="NCHW")
    want = tf.nn.depthwise_conv2d_backprop_filter(tf.constant(np.ascontiguousarray(np.transpose(xin, (0, 2, 3, 1)))),
                                                  [2, 2, 2, 1], tf.constant(np.ascontiguousarray(
                                                      np.transpose(g, (0, 2, 3, 1)))), [1, 1, 1, 1], "VALID")
    assert_close(got, np.asarray(want), call="depthwise_conv2d_backprop_filter(data_format='NCHW') vs NHWC",
                 tolerance=Tolerance(rtol=1e-6, atol=1e-7))
    x64 = tf.constant(x4.astype(np.float64))
    _raises(lambda: tf.nn.depthwise_conv2d(x64, tf.constant(dk.astype(np.float64)), [1, 1, 1, 1], "VALID",
                                           data_format="NCHW"), tf.errors.UnimplementedError,
            "depthwise_conv2d(float64, data_format='NCHW') (no oneDNN kernel)")
    _raises(lambda: tf.nn.depthwise_conv2d(tf.constant(np.transpose(x4, (0, 2, 3, 1)).astype(np.float64)),
                                           tf.constant(dk.astype(np.float64)), [1, 2, 1, 1], "SAME"),
            tf.errors.InvalidArgumentError, "depthwise_conv2d(float64, strides=[1, 2, 1, 1]) (Eigen: equal strides)")
    _raises(lambda: tf.nn.conv2d_transpose(x64, tf.constant(kt.astype(np.float64)), [2, 3, 6, 7], 1, "VALID",
                                           data_format="NCHW"), tf.errors.InvalidArgumentError,
            "conv2d_transpose(float64, data_format='NCHW') (no oneDNN kernel)")
    for name in ("max_pool2d", "avg_pool2d"):
        _raises(lambda name=name: getattr(tf.nn, name)(tf.constant(x.astype(np.float64)), 2, 2, "VALID",
                                                       data_format="NCHW"),
                tf.errors.InvalidArgumentError, f"tf.nn.{name}(float64 x, data_format='NCHW') (no oneDNN kernel)")
    x4 = tf.constant(_x((1, 4, 2, 2)))
    for name in ("depth_to_space", "space_to_depth"):
        _raises(lambda name=name: getattr(tf.nn, name)(x4, 2, data_format="NCHW"), tf.errors.NotFoundError,
                f"tf.nn.{name}(x, 2, data_format='NCHW')")

