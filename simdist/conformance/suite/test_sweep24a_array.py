"""Value sweep 24 (issue 29): the gradients of the array, scan, contraction, reduction and window ops at
input profiles that make their layout rules visible — non-square and non-symmetric shapes, every option of a
scan (exclusive x reverse), shifts that are not half the size (roll), indices of rank 2 on an inner axis and
with batch_dims (gather), operands whose batch dimensions broadcast on either side (matmul, einsum), zeros
in products, ties in pooling windows, asymmetric paddings, negative strides, and a signed, non-uniform
upstream gradient R (zeros in it) on every output.

Most ops here are linear or multilinear in each input element (a gather, a roll, a matmul, a cumprod, a
product reduction, a convolution), so central differences of the backend's own float64 forward pass are
exact up to rounding: the expected gradient of sum(R * f(x)) is computed that way, element by element,
never taken from the backend's gradient. Where TF's gradient is not the derivative (cumprod at a zero: TF's
_CumprodGrad divides by x with div_no_nan) or the derivative is not defined (a tie in a max-pool window:
TF's MaxPoolGrad routes the gradient to the window's first maximum in row-major order), the rule is written
here with NumPy (math_grad.py / nn_grad.py, checked on TF 2.21).
"""

from __future__ import annotations

import zlib

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
#: central differences of a (multi)linear float64 map with h = 0.5: rounding only
TOL = Tolerance(rtol=1e-9, atol=1e-9)
#: of a smooth (non-multilinear) map with h = 1e-5
TOL_SMOOTH = Tolerance(rtol=1e-6, atol=1e-7)


def _vals(shape, seed):
    """Distinct signed values (no ties, no zeros unless a case puts them there), fixed by `seed`."""
    rng = np.random.default_rng(seed)
    n = int(np.prod(shape))
    return ((rng.permutation(n) + 1) * 0.375 * np.where(np.arange(n) % 3 == 1, -1.0, 1.0)).reshape(shape)


def _r(shape, seed):
    """A signed, non-uniform upstream gradient with zeros in it."""
    rng = np.random.default_rng(seed + 1000)
    r = np.round(rng.uniform(-2.0, 2.0, size=shape), 2)
    r.flat[:: 5] = 0.0
    return r


def _np(t):
    return np.asarray(t.numpy() if hasattr(t, "numpy") else t, dtype=np.float64)


def _tape_grads(tf, f, xs, r):
    ts = [tf.constant(x, dtype=tf.float64) for x in xs]
    with tf.GradientTape(persistent=True) as tape:
        for t in ts:
            tape.watch(t)
        y = f(*ts)
    gs = tape.gradient(y, ts, output_gradients=tf.constant(r, dtype=tf.float64))
    return [None if g is None else _np(tf.convert_to_tensor(g)) for g in gs]


def _central(tf, f, xs, r, h):
    """d sum(r * f(xs)) / d xs[k] by central differences of the backend's forward pass (float64)."""
    def loss(vals):
        return float(np.sum(r * _np(f(*[tf.constant(v, dtype=tf.float64) for v in vals]))))
    out = []
    for k, x in enumerate(xs):
        g = np.zeros_like(x, dtype=np.float64)
        for i in range(x.size):
            up = [v.copy() for v in xs]
            dn = [v.copy() for v in xs]
            up[k].flat[i] += h
            dn[k].flat[i] -= h
            g.flat[i] = (loss(up) - loss(dn)) / (2 * h)
        out.append(g)
    return out


def _split_mix(tf, x):
    a, b, c = tf.split(x, [1, 3, 1], axis=1)
    return tf.concat([c * 2.0, a, -b], axis=1)


def _split_unused(tf, x):
    a, _, c = tf.split(x, 3, axis=-1)
    return a * c


def _split_sizes_unused(tf, x):
    a, _, c, _ = tf.split(x, [2, 1, 2, 1], axis=1)
    return tf.concat([c, -a], axis=1)


#: name -> (f(tf, *xs), input shapes, smooth?): each op at a profile its layout rule shows on
CASES = {
    # scans: every exclusive x reverse pair, a non-square matrix, the scan along either axis
    **{f"cumsum(axis={ax}, exclusive={ex}, reverse={rv})":
       ((lambda ax, ex, rv: lambda tf, x: tf.cumsum(x, axis=ax, exclusive=ex, reverse=rv))(ax, ex, rv), [(3, 4)], False)
       for ax in (0, 1) for ex in (False, True) for rv in (False, True)},
    **{f"cumprod(axis=1, exclusive={ex}, reverse={rv})":
       ((lambda ex, rv: lambda tf, x: tf.math.cumprod(x, axis=1, exclusive=ex, reverse=rv))(ex, rv), [(2, 4)], False)
       for ex in (False, True) for rv in (False, True)},
    "cumulative_logsumexp(axis=1, reverse=True)":
        (lambda tf, x: tf.math.cumulative_logsumexp(x * 0.25, axis=1, reverse=True), [(2, 4)], True),
    # shape ops whose gradient is a permutation: shifts that are not half the size, perms that are not their
    # own inverse, several axes
    "roll(shift=[1, -2], axis=[0, 1])": (lambda tf, x: tf.roll(x, shift=[1, -2], axis=[0, 1]), [(3, 5)], False),
    "roll(shift=3, axis=-1)": (lambda tf, x: tf.roll(x, shift=3, axis=-1), [(2, 5)], False),
    "roll(shift=[2, 1], axis=[1, 1])": (lambda tf, x: tf.roll(x, shift=[2, 1], axis=[1, 1]), [(2, 7)], False),
    "transpose(perm=[1, 2, 0])": (lambda tf, x: tf.transpose(x, [1, 2, 0]), [(2, 3, 4)], False),
    "transpose(perm=[0, 3, 1, 2])": (lambda tf, x: tf.transpose(x, [0, 3, 1, 2]), [(2, 1, 3, 2)], False),
    "reverse(axis=[0, 2])": (lambda tf, x: tf.reverse(x, axis=[0, 2]), [(2, 3, 2)], False),
    "reshape (2, 6) -> (3, 2, 2)": (lambda tf, x: tf.reshape(x, [3, 2, 2]) * tf.constant([1.0, -2.0], tf.float64),
                                    [(2, 6)], False),
    "tile(multiples=[3, 2])": (lambda tf, x: tf.tile(x, [3, 2]), [(2, 3)], False),
    "tile(multiples=[2, 1, 3])": (lambda tf, x: tf.tile(x, [2, 1, 3]), [(1, 3, 2)], False),
    "pad(CONSTANT, [[0, 2], [1, 0]])": (lambda tf, x: tf.pad(x, [[0, 2], [1, 0]]), [(2, 3)], False),
    "pad(REFLECT, [[1, 2], [2, 1]])": (lambda tf, x: tf.pad(x, [[1, 2], [2, 1]], mode="REFLECT"), [(4, 5)], False),
    "pad(SYMMETRIC, [[0, 1], [3, 0]])": (lambda tf, x: tf.pad(x, [[0, 1], [3, 0]], mode="SYMMETRIC"), [(2, 3)], False),
    "x[::2, ::-1]": (lambda tf, x: x[::2, ::-1], [(5, 4)], False),
    "x[1:, None, -2]": (lambda tf, x: x[1:, None, -2], [(3, 4)], False),
    "x[..., 1::-1]": (lambda tf, x: x[..., 1::-1], [(2, 2, 3)], False),
    "concat(axis=-1) of (2, 3), (2, 1)": (lambda tf, x, y: tf.concat([x, y], axis=-1), [(2, 3), (2, 1)], False),
    "stack(axis=1) of three (2, 3)": (lambda tf, x, y, z: tf.stack([x, y, z], axis=1),
                                      [(2, 3), (2, 3), (2, 3)], False),
    "unstack(axis=1) weighed": (lambda tf, x: tf.unstack(x, axis=1)[2] * 3.0 - tf.unstack(x, axis=1)[0], [(2, 3, 2)],
                                False),
    "split([1, 3, 1], axis=1) reordered": (_split_mix, [(2, 5)], False),
    "split(3, axis=-1) middle unused": (_split_unused, [(2, 6)], False),
    "split([2, 1, 2, 1], axis=1) second and last unused": (_split_sizes_unused, [(3, 6)], False),
    # where: each branch broadcast against a fixed condition (the condition is not differentiated)
    "where(c (2, 3), x (2, 3), y (3,))": (lambda tf, x, y: tf.where(tf.constant([[True, False, True], [False, False, True]]),
                                                                 x, y), [(2, 3), (3,)], False),
    "where(c (2, 1), x (1, 3), y (2, 3))": (lambda tf, x, y: tf.where(tf.constant([[True], [False]]), x, y),
                                            [(1, 3), (2, 3)], False),
    # gathers: indices of rank 2 on an inner axis, repeated indices, batch_dims, a negative axis
    "gather(axis=1, indices (2, 2) repeated)": (lambda tf, x: tf.gather(x, [[2, 0], [2, 2]], axis=1), [(2, 3, 2)], False),
    "gather(axis=0, indices (2, 3) repeated)": (lambda tf, x: tf.gather(x, [[1, 0, 1], [3, 3, 0]]), [(4, 2)], False),
    "gather(axis=-1, indices (3,))": (lambda tf, x: tf.gather(x, [1, 1, 0], axis=-1), [(2, 3, 2)], False),
    "gather(batch_dims=1, axis=1)": (lambda tf, x: tf.gather(x, [[2, 0, 2], [1, 1, 3]], axis=1, batch_dims=1),
                                     [(2, 4)], False),
    "gather_nd(indices (2, 2, 1))": (lambda tf, x: tf.gather_nd(x, [[[1], [0]], [[1], [2]]]), [(3, 2)], False),
    "unsorted_segment_sum(ids with -1, num_segments=4)":
        (lambda tf, x: tf.math.unsorted_segment_sum(x, [0, -1, 2, 0, -1], 4), [(5, 2)], False),
    "segment_sum(sorted ids)": (lambda tf, x: tf.math.segment_sum(x, [0, 0, 1, 3, 3]), [(5, 2)], False),
    "gather_nd(batch_dims=1)": (lambda tf, x: tf.gather_nd(x, [[[1], [0]], [[2], [2]]], batch_dims=1), [(2, 3)], False),
    # contractions: non-square operands, batch dimensions broadcast on either side, transposes and adjoints
    "matmul (2, 3, 4) @ (4, 5)": (lambda tf, a, b: tf.matmul(a, b), [(2, 3, 4), (4, 5)], False),
    "matmul (3, 4) @ (2, 4, 5)": (lambda tf, a, b: tf.matmul(a, b), [(3, 4), (2, 4, 5)], False),
    "matmul (2, 1, 3, 2) @ (3, 2, 4)": (lambda tf, a, b: tf.matmul(a, b), [(2, 1, 3, 2), (3, 2, 4)], False),
    "matmul (2, 4, 3)^T @ (1, 4, 2), transpose_a": (lambda tf, a, b: tf.matmul(a, b, transpose_a=True),
                                                    [(2, 4, 3), (1, 4, 2)], False),
    "matmul (2, 3)(3, 2, 4)^T, adjoint_b": (lambda tf, a, b: tf.matmul(a, b, adjoint_b=True), [(2, 4), (3, 2, 4)], False),
    "matvec (2, 3, 4) x (4,)": (lambda tf, a, v: tf.linalg.matvec(a, v), [(2, 3, 4), (4,)], False),
    "einsum('...ij,jk->...ik')": (lambda tf, a, b: tf.einsum("...ij,jk->...ik", a, b), [(2, 3, 4), (4, 5)], False),
    "einsum('bij,bkj->bik')": (lambda tf, a, b: tf.einsum("bij,bkj->bik", a, b), [(2, 3, 4), (2, 5, 4)], False),
    "einsum('ij,j->i')": (lambda tf, a, b: tf.einsum("ij,j->i", a, b), [(3, 4), (4,)], False),
    "einsum('bi,bi->b')": (lambda tf, a, b: tf.einsum("bi,bi->b", a, b), [(3, 4), (3, 4)], False),
    "einsum('ijk->kj')": (lambda tf, a: tf.einsum("ijk->kj", a), [(2, 3, 4)], False),
    "tensordot(axes=[[0], [1]])": (lambda tf, a, b: tf.tensordot(a, b, axes=[[0], [1]]), [(3, 2), (4, 3)], False),
    "tensordot(axes=2)": (lambda tf, a, b: tf.tensordot(a, b, axes=2), [(2, 3, 4), (3, 4, 2)], False),
    "linalg.det (3, 3)": (lambda tf, a: tf.linalg.det(a), [(2, 3, 3)], False),
    "linalg.trace, diag_part": (lambda tf, a: tf.linalg.trace(a) + tf.reduce_sum(tf.linalg.diag_part(a) ** 2, -1),
                                [(2, 3, 4)], True),
    # reductions over several axes, keepdims, products with zeros
    "reduce_mean(axis=[0, 2], keepdims)": (lambda tf, x: tf.reduce_mean(x, axis=[0, 2], keepdims=True), [(2, 3, 4)], False),
    "reduce_mean(axis=-1)": (lambda tf, x: tf.reduce_mean(x, axis=-1), [(3, 5)], False),
    "reduce_prod(axis=1)": (lambda tf, x: tf.reduce_prod(x, axis=1), [(2, 4)], False),
    "reduce_prod(axis=[0, 2])": (lambda tf, x: tf.reduce_prod(x, axis=[0, 2]), [(2, 3, 2)], False),
    "reduce_variance(axis=0)": (lambda tf, x: tf.math.reduce_variance(x, axis=0), [(4, 3)], False),
    "reduce_logsumexp(axis=1)": (lambda tf, x: tf.reduce_logsumexp(x * 0.25, axis=1), [(2, 4)], True),
    "reduce_euclidean_norm(axis=0)": (lambda tf, x: tf.math.reduce_euclidean_norm(x, axis=0), [(3, 2)], True),
    # windows: strides that do not divide, SAME padding of an even size, non-square kernels
    "avg_pool2d(3x2, strides 2, SAME)": (lambda tf, x: tf.nn.avg_pool2d(x, [3, 2], 2, "SAME"), [(1, 5, 4, 2)], False),
    "conv2d(strides [2, 1], SAME) (3, 2) kernel": (lambda tf, x, f: tf.nn.conv2d(x, f, [1, 2, 1, 1], "SAME"),
                                                    [(1, 5, 4, 2), (3, 2, 2, 3)], False),
    "conv1d(stride 2, VALID)": (lambda tf, x, f: tf.nn.conv1d(x, f, 2, "VALID"), [(2, 7, 2), (3, 2, 1)], False),
    "depthwise_conv2d(strides 2, SAME)": (lambda tf, x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME"),
                                          [(1, 4, 5, 2), (2, 3, 2, 2)], False),
    "bias_add(NHWC) rank 3": (lambda tf, x, b: tf.nn.bias_add(x, b), [(2, 3, 4), (4,)], False),
}


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("group", ["scan-shape", "gather-contract", "reduce-window"])
def test_sweep24a_array_gradients_match_central_differences(tf, budget, group):
    """The tape's gradient of sum(R * f(x...)) for every input equals central differences of the backend's own
    float64 forward pass (exact for these (multi)linear maps), case by case."""
    names = list(CASES)
    first = {"scan-shape": 0, "gather-contract": names.index("gather(axis=1, indices (2, 2) repeated)"),
             "reduce-window": names.index("reduce_mean(axis=[0, 2], keepdims)")}
    order = list(first)
    lo = first[group]
    hi = first[order[order.index(group) + 1]] if group != order[-1] else len(names)
    for name in budget(names[lo:hi]):
        f, shapes, smooth = CASES[name]
        seed = zlib.crc32(name.encode())
        xs = [_vals(s, seed + k) for k, s in enumerate(shapes)]
        if smooth:
            xs = [x / np.abs(x).max() for x in xs]
        out_shape = tuple(tf.convert_to_tensor(f(tf, *[tf.constant(x, tf.float64) for x in xs])).shape)
        r = _r(out_shape, seed)
        got = _tape_grads(tf, lambda *ts: f(tf, *ts), xs, r)
        want = _central(tf, lambda *ts: f(tf, *ts), xs, r, 1e-5 if smooth else 0.5)
        for k, (g, w) in enumerate(zip(got, want)):
            call = f"tape.gradient({name}, input {k} of shapes {shapes}, output_gradients=R {out_shape})"
            assert_equal(None if g is None else g.shape, w.shape, what=f"d/dx{k} shape", call=call)
            assert_close(g, w, tolerance=TOL_SMOOTH if smooth else TOL, call=call, what=f"d/dx{k}")


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_cumprod_gradient_at_zeros_divides_no_nan(tf, budget):
    """TF's _CumprodGrad: div_no_nan(cumsum(cumprod(x) * R, exclusive, not reverse), x): 0 at every zero
    of x (not the derivative there), for each exclusive x reverse pair."""
    x = np.array([[2.0, 0.0, 3.0, -1.0], [0.0, 0.0, 2.0, 5.0], [1.5, -2.0, 0.5, 4.0]])
    r = np.array([[1.0, -2.0, 0.5, 3.0], [2.0, 1.0, -1.0, 0.25], [0.0, 1.5, -0.5, 2.0]])

    def scan(a, fn, exclusive, reverse):
        a = a[:, ::-1] if reverse else a
        out = fn(a, axis=1)
        if exclusive:
            out = np.concatenate([np.full((a.shape[0], 1), 1.0 if fn is np.cumprod else 0.0), out[:, :-1]], axis=1)
        return out[:, ::-1] if reverse else out

    for ex, rv in budget([(True, False), (False, False), (False, True), (True, True)]):
        (g,) = _tape_grads(tf, lambda t: tf.math.cumprod(t, axis=1, exclusive=ex, reverse=rv), [x], r)
        s = scan(scan(x, np.cumprod, ex, rv) * r, np.cumsum, ex, not rv)
        want = np.where(x == 0, 0.0, s / np.where(x == 0, 1.0, x))
        assert_close(g, want, tolerance=TOL, what="d/dx",
                     call=f"tape.gradient(cumprod(x (3, 4) with zeros, axis=1, exclusive={ex}, reverse={rv}), R)")


def _max_pool_first_max(x, k, s, r):
    """TF's MaxPoolGrad on VALID windows: each window's R at its first maximum in row-major order."""
    n, h, w, c = x.shape
    g = np.zeros_like(x)
    for b in range(n):
        for ch in range(c):
            for i in range(r.shape[1]):
                for j in range(r.shape[2]):
                    win = x[b, i * s[0]:i * s[0] + k[0], j * s[1]:j * s[1] + k[1], ch]
                    p, q = np.unravel_index(int(np.argmax(win)), win.shape)
                    g[b, i * s[0] + p, j * s[1] + q, ch] += r[b, i, j, ch]
    return g


@clause("autodiff.op-gradients", ref="tf221")
def test_sweep24a_max_pool_gradient_goes_to_the_first_maximum_of_a_tie(tf, budget):
    """Windows with ties (two or three equal maxima, overlapping windows sharing the tied element): the
    gradient of each window goes to its first maximum in row-major order (TF's CPU MaxPoolGrad)."""
    x = np.array([[1.0, 3.0, 3.0, 0.0], [3.0, 0.0, 3.0, 2.0], [2.0, 3.0, 1.0, 2.0]]).reshape(1, 3, 4, 1)
    x2 = np.concatenate([x, -x[:, ::-1]], axis=3)   # a second channel with ties of its own
    for name, k, s in budget([("2x2 stride 1", (2, 2), (1, 1)), ("2x3 stride (1, 1)", (2, 3), (1, 1)),
                              ("3x2 stride (1, 2)", (3, 2), (1, 2))]):
        fn = (lambda k, s: lambda t: tf.nn.max_pool2d(t, list(k), list(s), "VALID"))(k, s)
        out_shape = tuple(fn(tf.constant(x2)).shape)
        r = _r(out_shape, 7) + 0.5
        (g,) = _tape_grads(tf, fn, [x2], r)
        assert_close(g, _max_pool_first_max(x2, k, s, r), tolerance=TOL, what="d/dx",
                     call=f"tape.gradient(max_pool2d(x (1, 3, 4, 2) with ties, {name}, VALID), R)")


@clause("autodiff.indexed-slices", ref="tf221")
def test_sweep24a_gather_nd_gradient_kind_follows_the_index_rank(tf, budget):
    """TF's _GatherNdGrad returns IndexedSlices only for indices of shape [N, 1] (rows of the params); any
    other index shape ((2, 2, 1), (2, 2)) gives a dense tensor (a ScatterNd into zeros). Values: the upstream
    rows added at their (repeated) index tuples."""
    p0 = _vals((3, 2), 5)
    for idx, sliced in budget([([[1], [0], [1]], True), ([[[1], [0]], [[1], [2]]], False), ([[2, 1], [0, 0]], False)]):
        p = tf.constant(p0)
        with tf.GradientTape() as tape:
            tape.watch(p)
            y = tf.gather_nd(p, idx)
        r = _r(tuple(y.shape), 5) + 0.25
        g = tape.gradient(y, p, output_gradients=tf.constant(r))
        call = f"tape.gradient(gather_nd(p (3, 2), indices {np.asarray(idx).shape}), p)"
        assert_equal(isinstance(g, tf.IndexedSlices), sliced, what="gradient is IndexedSlices", call=call)
        want = np.zeros_like(p0)
        ia = np.asarray(idx)
        for pos in np.ndindex(*ia.shape[:-1]):
            want[tuple(ia[pos])] += r[pos]
        assert_close(_np(tf.convert_to_tensor(g)), want, tolerance=TOL, what="d/dp", call=call)
