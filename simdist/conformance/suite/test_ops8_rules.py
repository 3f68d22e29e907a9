"""Issue 29's eleventh-session ops — clauses ops.fingerprint, ops.nn-ctc (the decoders and
ctc_unique_labels), ops.nn-fractional-pool (TF 2.21 only).

Each test runs on the backend's `tf` alone. References are the clauses' rules worked out here in
NumPy (best paths, the sum over every alignment of a labelling, pooling windows from the returned
sequences) or stated invariants of the op (fingerprints of a reshaped buffer); the case-by-case
comparison with TF 2.21 is in tests/ops/test_ops8_*_tf.py.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises, to_numpy
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause


@clause("ops.fingerprint", ref="tf221")
def test_fingerprint_rows_of_bytes(tf):
    data = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    fp = to_numpy(tf.fingerprint(tf.constant(data)))
    assert_equal(fp.shape, (2, 8), call="fingerprint(int32 [2, 3, 4])", what="out.shape")
    assert_equal(str(fp.dtype), "uint8", call="fingerprint", what="out.dtype")
    # the row's raw buffer, whatever its shape or dtype: a reshape or a bitcast to bytes keeps it
    same = to_numpy(tf.fingerprint(tf.constant(data.reshape(2, 12))))
    as_bytes = to_numpy(tf.fingerprint(tf.constant(data.view(np.uint8).reshape(2, 48))))
    assert_equal(same, fp, call="fingerprint of the same rows reshaped [2, 12]")
    assert_equal(as_bytes, fp, call="fingerprint of the same rows' bytes (uint8 [2, 48])")
    assert_true(not np.array_equal(fp[0], fp[1]), f"rows 0 and 1 both fingerprint to {fp[0]}, but should differ",
                call="fingerprint")
    # a row of several strings: the fingerprint of its strings' fingerprints laid end to end
    words = [["ab", "c"], ["", "xyz"]]
    each = to_numpy(tf.fingerprint(tf.constant([w for row in words for w in row])))
    want = to_numpy(tf.fingerprint(tf.constant(each.reshape(2, 16))))
    assert_equal(to_numpy(tf.fingerprint(tf.constant(words))), want,
                 call="fingerprint of string rows = fingerprint of their fingerprints")
    with raises(tf.errors.InvalidArgumentError, call="fingerprint(method='md5')"):
        tf.fingerprint(tf.constant([[1, 2]]), method="md5")
    with raises(tf.errors.InvalidArgumentError, call="fingerprint(scalar)"):
        tf.fingerprint(tf.constant(3))


def _softmax(x: np.ndarray) -> np.ndarray:
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def _collapse(path: tuple[int, ...], blank: int) -> tuple[int, ...]:
    out, prev = [], None
    for c in path:
        if c != prev and c != blank:
            out.append(c)
        prev = c
    return tuple(out)


@clause("ops.nn-ctc", ref="tf221")
def test_ctc_greedy_decoder_best_path(tf):
    x = np.random.default_rng(5).normal(size=(6, 2, 4)).astype(np.float32)
    lens = [6, 4]
    (dec,), lp = tf.nn.ctc_greedy_decoder(tf.constant(x), lens)
    best = x.argmax(axis=-1)
    want_vals, want_ind = [], []
    for b, n in enumerate(lens):
        labs = _collapse(tuple(best[:n, b]), blank=3)          # default blank: the last class
        want_vals += list(labs)
        want_ind += [[b, i] for i in range(len(labs))]
    assert_equal(to_numpy(dec.values).tolist(), want_vals, call="ctc_greedy_decoder", what="decoded.values")
    assert_equal(to_numpy(dec.indices).tolist(), want_ind, call="ctc_greedy_decoder", what="decoded.indices")
    want_lp = [[-float(x[:n, b].max(axis=-1).sum())] for b, n in enumerate(lens)]
    assert_close(lp, want_lp, tolerance=Tolerance(rtol=1e-6, atol=1e-6), call="ctc_greedy_decoder",
                 what="log_probability (−sum of the frames' maxima)")
    (dec0,), _ = tf.nn.ctc_greedy_decoder(tf.constant(x), lens, merge_repeated=False, blank_index=0)
    want0 = [int(c) for b, n in enumerate(lens) for c in best[:n, b] if c != 0]
    assert_equal(to_numpy(dec0.values).tolist(), want0, call="ctc_greedy_decoder(merge_repeated=False, blank_index=0)",
                 what="decoded.values (every non-blank frame maximum)")


@clause("ops.nn-ctc", ref="tf221")
def test_ctc_beam_search_finds_the_most_probable_labelling(tf):
    # 4 frames, 2 labels + blank (the last class): every labelling's probability is the sum over
    # its alignments; a beam as wide as every prefix makes the beam search exact
    x = np.random.default_rng(9).normal(size=(4, 1, 3)) * 1.5
    p = _softmax(x[:, 0])
    prob: dict[tuple[int, ...], float] = {}
    for path in itertools.product(range(3), repeat=4):
        lab = _collapse(path, blank=2)
        prob[lab] = prob.get(lab, 0.0) + float(np.prod([p[t, c] for t, c in enumerate(path)]))
    ranked = sorted(prob.items(), key=lambda kv: -kv[1])[:2]
    decoded, lp = tf.nn.ctc_beam_search_decoder(tf.constant(x, tf.float64), [4], beam_width=50, top_paths=2)
    for k, (lab, pr) in enumerate(ranked):
        assert_equal(to_numpy(decoded[k].values).tolist(), list(lab), call="ctc_beam_search_decoder",
                     what=f"decoded[{k}].values")
    assert_close(lp, [[np.log(ranked[0][1]), np.log(ranked[1][1])]], tolerance=Tolerance(rtol=1e-5, atol=1e-6),
                 call="ctc_beam_search_decoder", what="log_probability")
    with raises(tf.errors.InvalidArgumentError, call="ctc_beam_search_decoder(top_paths > beam_width)"):
        tf.nn.ctc_beam_search_decoder(tf.constant(x, tf.float32), [4], beam_width=1, top_paths=2)


@clause("ops.nn-ctc", ref="tf221")
def test_ctc_unique_labels(tf):
    y, idx = tf.nn.ctc_unique_labels(tf.constant([[3, 4, 4, 3], [1, 1, 0, 0]]))
    assert_equal(to_numpy(y).tolist(), [[3, 4, 0, 0], [1, 0, 0, 0]], call="ctc_unique_labels", what="unique (padded)")
    assert_equal(to_numpy(idx).tolist(), [[0, 1, 1, 0], [0, 0, 1, 1]], call="ctc_unique_labels", what="indices")
    assert_equal(str(to_numpy(y).dtype), "int64", call="ctc_unique_labels", what="unique.dtype")


def _cells(seq: list[int], n: int, overlapping: bool) -> list[tuple[int, int]]:
    return [(seq[i], min(seq[i + 1] if overlapping else seq[i + 1] - 1, n - 1)) for i in range(len(seq) - 1)]


@clause("ops.nn-fractional-pool", ref="tf221")
def test_fractional_pools_pool_the_windows_they_return(tf):
    x = np.random.default_rng(3).normal(size=(2, 11, 10, 2)).astype(np.float32)
    for overlapping, pseudo in ((False, False), (True, True)):
        out, rows, cols = (to_numpy(t) for t in tf.nn.fractional_max_pool(
            tf.constant(x), [1.0, 1.5, 1.7, 1.0], pseudo_random=pseudo, overlapping=overlapping, seed=5))
        avg, arows, acols = (to_numpy(t) for t in tf.nn.fractional_avg_pool(
            tf.constant(x), [1.0, 1.5, 1.7, 1.0], pseudo_random=pseudo, overlapping=overlapping, seed=5))
        call = f"fractional pools (overlapping={overlapping}, pseudo_random={pseudo}, seed=5)"
        assert_equal(out.shape, (2, 7, 5, 2), call=call, what="out.shape (floor(in / ratio))")
        for seq, n, m in ((rows, 11, 7), (cols, 10, 5)):
            d = np.diff(seq)
            assert_true(seq[0] == 0 and seq[-1] == n and len(seq) == m + 1 and set(d.tolist()) <= {n // m, n // m + 1},
                        f"pooling sequence {seq.tolist()}, but should run from 0 to {n} in {m} steps of {n // m} or "
                        f"{n // m + 1}", call=call)
        assert_equal(arows, rows, call=call + ": the same seed gives the same rows")
        assert_equal(acols, cols, call=call + ": the same seed gives the same columns")
        want_max = np.zeros_like(out)
        want_avg = np.zeros_like(avg)
        for i, (r0, r1) in enumerate(_cells(rows.tolist(), 11, overlapping)):
            for j, (c0, c1) in enumerate(_cells(cols.tolist(), 10, overlapping)):
                want_max[:, i, j] = x[:, r0:r1 + 1, c0:c1 + 1].max(axis=(1, 2))
                want_avg[:, i, j] = x[:, r0:r1 + 1, c0:c1 + 1].mean(axis=(1, 2))
        assert_equal(out, want_max, call=call + ": max over each window")
        assert_close(avg, want_avg, tolerance=Tolerance(rtol=1e-6, atol=1e-6), call=call + ": mean over each window")
    again = to_numpy(tf.nn.fractional_max_pool(tf.constant(x), [1.0, 1.5, 1.7, 1.0], seed=5)[1])
    first = to_numpy(tf.nn.fractional_max_pool(tf.constant(x), [1.0, 1.5, 1.7, 1.0], seed=5)[1])
    assert_equal(again, first, call="fractional_max_pool twice with seed=5")
    with raises(ValueError, call="fractional_max_pool(pooling_ratio on the batch dimension)"):
        tf.nn.fractional_max_pool(tf.constant(x), [2.0, 1.5, 1.5, 1.0], seed=1)


@clause("ops.nn-fractional-pool", ref="tf221")
def test_fractional_max_pool_gradient_reaches_each_windows_maximum(tf):
    x = np.random.default_rng(4).normal(size=(1, 9, 9, 1)).astype(np.float32)
    v = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(v)
        out, rows, cols = tf.nn.fractional_max_pool(v, [1.0, 1.4, 1.4, 1.0], seed=8)
        y = tf.reduce_sum(out)
    g = to_numpy(tape.gradient(y, v))
    want = np.zeros_like(x)
    for r0, r1 in _cells(to_numpy(rows).tolist(), 9, False):
        for c0, c1 in _cells(to_numpy(cols).tolist(), 9, False):
            win = x[0, r0:r1 + 1, c0:c1 + 1, 0]
            h, w = np.unravel_index(np.argmax(win), win.shape)
            want[0, r0 + h, c0 + w, 0] += 1
    assert_equal(g, want, call="d sum(fractional_max_pool)/d x (1 at each window's maximum)")
    with tf.GradientTape() as tape:
        tape.watch(v)
        out, rows, cols = tf.nn.fractional_avg_pool(v, [1.0, 1.4, 1.4, 1.0], seed=8)
        y = tf.reduce_sum(out)
    g = to_numpy(tape.gradient(y, v))
    assert_close(g.sum(), float(np.prod(out.shape)), tolerance=Tolerance(rtol=1e-6, atol=1e-6),
                 call="d sum(fractional_avg_pool)/d x sums to the number of outputs")


@clause("ops.linalg-eigh-tridiagonal", ref="tf221")
def test_eigh_tridiagonal_against_the_dense_matrix(tf):
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=6), rng.normal(size=5)
    dense = np.diag(a) + np.diag(b, 1) + np.diag(b, -1)
    want = np.linalg.eigvalsh(dense)
    tol = Tolerance(rtol=1e-12, atol=1e-12)
    assert_close(tf.linalg.eigh_tridiagonal(a, b), want, tolerance=tol, call="eigh_tridiagonal(float64)",
                 what="eigenvalues (ascending)")
    assert_close(tf.linalg.eigh_tridiagonal(a, b, select="i", select_range=[1, 3]), want[1:4], tolerance=tol,
                 call="eigh_tridiagonal(select='i', [1, 3])", what="eigenvalues 1..3")
    inside = want[(want > -0.5) & (want <= 1.0)]
    assert_close(tf.linalg.eigh_tridiagonal(a, b, select="v", select_range=[-0.5, 1.0]), inside, tolerance=tol,
                 call="eigh_tridiagonal(select='v', (-0.5, 1.0])", what="eigenvalues in the interval")
    vals, vecs = tf.linalg.eigh_tridiagonal(a, b, eigvals_only=False)
    v, lam = to_numpy(vecs), to_numpy(vals)
    assert_close(dense @ v, v * lam[None, :], tolerance=Tolerance(rtol=1e-9, atol=1e-9),
                 call="eigh_tridiagonal(eigvals_only=False)", what="T v = λ v")
    assert_close(v.T @ v, np.eye(6), tolerance=Tolerance(rtol=1e-9, atol=1e-9),
                 call="eigh_tridiagonal(eigvals_only=False)", what="vᵀ v = I")
    with raises(ValueError, call="eigh_tridiagonal(float64 alpha, float32 beta)"):
        tf.linalg.eigh_tridiagonal(a, b.astype(np.float32))


@clause("ops.nn-ctc", ref="tf221")
def test_ctc_loss_sparse_labels_match_dense_labels(tf):
    rng = np.random.default_rng(21)
    logits = rng.normal(size=(6, 2, 5)).astype(np.float32)
    dense = np.array([[1, 2, 2], [3, 0, 0]], np.int32)
    lengths = [3, 1]
    sparse = tf.SparseTensor(np.array([[0, 0], [0, 1], [0, 2], [1, 0]], np.int64), tf.constant([1, 2, 2, 3]), [2, 3])
    want = to_numpy(tf.nn.ctc_loss(tf.constant(dense), tf.constant(logits), tf.constant(lengths), tf.constant([6, 6]),
                                   blank_index=0))
    got = tf.nn.ctc_loss(sparse, tf.constant(logits), None, [6, 6], blank_index=0)
    assert_close(got, want, tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                 call="ctc_loss(SparseTensor labels) against ctc_loss(dense labels)")
    with raises(ValueError, call="ctc_loss(SparseTensor labels, blank_index=None)"):
        tf.nn.ctc_loss(sparse, tf.constant(logits), None, [6, 6])
    v = tf.constant(logits)
    with tf.GradientTape() as tape:
        tape.watch(v)
        loss = tf.reduce_sum(tf.nn.ctc_loss(sparse, v, None, [6, 4], blank_index=-1))
    g = to_numpy(tape.gradient(loss, v))
    assert_close(g.sum(axis=-1), np.zeros((6, 2)), tolerance=Tolerance(rtol=1e-5, atol=1e-5),
                 call="ctc_loss(SparseTensor) gradient's sum per frame (softmax − posterior)")
    assert_true(np.all(g[4:, 1] == 0), f"grad[4:, 1]={g[4:, 1]}, but should be 0 [past sequence_length]",
                call="ctc_loss(SparseTensor) gradient past sequence_length")


@clause("ops.linalg-logm", ref="tf221")
def test_logm_inverts_expm(tf):
    rng = np.random.default_rng(8)
    a = (0.3 * (rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3)))).astype(np.complex128)
    got = to_numpy(tf.linalg.logm(tf.linalg.expm(tf.constant(a))))
    for part in (np.real, np.imag):         # (assert_close compares real numbers)
        assert_close(part(got), part(a), tolerance=Tolerance(rtol=1e-10, atol=1e-10),
                     call="logm(expm(A)) for a small A", what=f"{part.__name__} of the principal logarithm")
    d = np.diag([-3.0 + 0j, 2.0, 1j])
    got = to_numpy(tf.linalg.logm(tf.constant(d)))
    for part in (np.real, np.imag):
        assert_close(part(got), part(np.diag(np.log(np.diagonal(d)))), tolerance=Tolerance(rtol=1e-15, atol=0.0),
                     call="logm(diagonal)", what=f"{part.__name__} of the log of each diagonal entry")
    singular = to_numpy(tf.linalg.logm(tf.constant(np.diag([0.0 + 0j, 1.0]))))
    assert_true(bool(np.isnan(singular).all()), f"logm(diag(0, 1)) = {singular.tolist()}, but should be NaN "
                "everywhere (no logarithm)", call="logm(singular)")
    with raises(tf.errors.InvalidArgumentError, call="logm(float64)"):
        tf.linalg.logm(tf.constant(np.eye(2)))


@clause("ops.tf-utilities", ref="tf221")
def test_is_symbolic_tensor_inside_and_outside_functions(tf):
    outside = [tf.is_symbolic_tensor(x) for x in (tf.constant(1.0), 1.0, np.ones(2))]
    assert_equal(outside, [False, False, False], call="is_symbolic_tensor(eager values)")
    inside: list = []

    @tf.function
    def f(x):
        inside.extend([tf.is_symbolic_tensor(x), tf.is_symbolic_tensor(x + 1.0)])
        return x
    f(tf.constant(2.0))
    assert_equal(inside[:2], [True, True], call="is_symbolic_tensor(a traced function's tensors)")


@clause("ops.image-random", ref="tf221")
def test_sample_distorted_bounding_box_crops_inside_the_image(tf):
    boxes = tf.constant([[[0.1, 0.2, 0.6, 0.7]]])
    for seed in ([1, 2], [3, 4], [5, 6]):
        begin, size, bbox = (to_numpy(t) for t in tf.image.stateless_sample_distorted_bounding_box(
            [120, 160, 3], boxes, seed=seed, min_object_covered=0.3))
        again = to_numpy(tf.image.stateless_sample_distorted_bounding_box([120, 160, 3], boxes, seed=seed,
                                                                          min_object_covered=0.3)[0])
        call = f"stateless_sample_distorted_bounding_box(seed={seed})"
        assert_equal(again, begin, call=call + " twice")
        y, x, h, w = int(begin[0]), int(begin[1]), int(size[0]), int(size[1])
        assert_true(begin[2] == 0 and size[2] == -1 and 0 <= y and y + h <= 120 and 0 <= x and x + w <= 160,
                    f"begin={begin.tolist()}, size={size.tolist()}, but the crop should lie inside 120 x 160", call=call)
        assert_close(bbox, [[[y / 120, x / 160, (y + h) / 120, (x + w) / 160]]],
                     tolerance=Tolerance(rtol=1e-6, atol=1e-7), call=call, what="bboxes")
        inter = max(0, min(y + h, 72) - max(y, 12)) * max(0, min(x + w, 112) - max(x, 32))
        assert_true(inter >= 0.3 * 60 * 80 or (h, w) == (120, 160),
                    f"the crop covers {inter} of the box's 4800 pixels, but should cover 30 % (or be the image)",
                    call=call)
    with raises(tf.errors.InvalidArgumentError, call="stateless_sample_distorted_bounding_box(area_range=[0, 1])"):
        tf.image.stateless_sample_distorted_bounding_box([4, 4, 3], boxes, seed=[1, 2], area_range=[0.0, 1.0])


@clause("autodiff.targets", ref="tf221")
def test_sparse_tensor_is_not_a_gradient_target(tf):
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        sp = tf.SparseTensor([[0]], x[:1] * 2.0, [2])
    with raises(ValueError, call="GradientTape.gradient(SparseTensor target)"):
        tape.gradient(sp, x)
