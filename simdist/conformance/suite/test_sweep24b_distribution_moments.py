"""sweep24b (issue 29): losses averaged across replicas with PARTIAL batches and different per-replica values,
sync-on-read metric state, and tf.nn's moments with broadcast frequency weights and float16 sums that
overflow — as TF 2.21 + Keras 3.15 compute them.

The inputs expose the rules: two replicas holding 3 and 2 examples of different values (so a divisor of
"replicas x this replica's batch" differs from the global batch, and a mean of per-replica means differs from
the global mean), per-example losses of rank 2 with per-sample weights, a Keras loss with reduction
"mean_with_sample_weight"/"sum_over_batch_size" inside a replica (its scaling by num_replicas_in_sync);
weighted_moments with weights of shape (4, 1), (1, 3) and () (the divisor is the weights broadcast to x), and
float16 inputs whose float16 sums overflow (TF computes moments of float16 in float32). Expected values are
NumPy float64 transcriptions of TF's nn_impl (moments, weighted_moments, compute_average_loss,
scale_regularization_loss) and Keras 3.15's loss reduction.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.repro import Program
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-5, atol=2e-6)
TOL16 = Tolerance(rtol=2e-3, atol=1e-3)

#: replica 0 holds 3 examples, replica 1 holds 2 (a partial global batch of 5): losses (batch, 2) and weights
LOSSES = [np.array([[1.0, 2.0], [-0.5, 4.0], [3.0, 0.0]]), np.array([[2.5, -1.0], [0.25, 6.0]])]
WEIGHTS = [np.array([1.0, 0.0, 2.0]), np.array([0.5, 3.0])]
REG = [np.array([0.5, 1.5, -1.0]), np.array([4.0, -1.0, 2.0, 0.5])]      # 3 and 4 terms: not one per replica

PROGRAM = """
import numpy as np
strategy = backend.make_strategy("mirrored", 2)

def per_replica(arrays):
    return strategy.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(np.asarray(arrays[ctx.replica_id_in_sync_group], np.float32)))

losses, weights, reg = per_replica(LOSSES), per_replica(WEIGHTS), per_replica(REG)
with strategy.scope():
    mse = tf.keras.losses.MeanSquaredError(reduction="sum_over_batch_size")
    mwsw = tf.keras.losses.MeanSquaredError(reduction="mean_with_sample_weight")

def step(l, w, r):
    ctx = tf.distribute.get_replica_context()
    return {"average": tf.nn.compute_average_loss(l, sample_weight=w),
            "average_gbs": tf.nn.compute_average_loss(l, sample_weight=w, global_batch_size=5),
            "reg": tf.nn.scale_regularization_loss(r),
            "sobs": mse(l, tf.zeros_like(l), sample_weight=w),
            "mwsw": mwsw(l, tf.zeros_like(l), sample_weight=w),
            "all_mean": ctx.all_reduce(tf.distribute.ReduceOp.MEAN, tf.reduce_sum(l, 0)),
            "all_sum": ctx.all_reduce(tf.distribute.ReduceOp.SUM, tf.reduce_sum(l * l, 0))}

out = strategy.run(step, args=(losses, weights, reg))
local = {k: [v.numpy().tolist() for v in strategy.experimental_local_results(out[k])] for k in out}
summed = {k: strategy.reduce(tf.distribute.ReduceOp.SUM, out[k], axis=None).numpy().tolist()
          for k in ("average", "average_gbs", "reg", "sobs", "mwsw")}
mean_batch = strategy.reduce(tf.distribute.ReduceOp.MEAN, losses, axis=0).numpy().tolist()
"""


def _want() -> dict:
    """Per replica r (batch b_r, 2 replicas): compute_average_loss = sum(l * w[:, None]) / (b_r * 2) (or / 5),
    scale_regularization_loss = sum(reg) / 2; Keras's MSE of (l, 0) per sample mean(l^2, -1), weighted,
    "sum_over_batch_size" divided by b_r then by 2, "mean_with_sample_weight" by sum(w) then by 2; all_reduce MEAN
    the elementwise mean of the replicas' values; reduce(MEAN, axis=0) the global sum over the 5 examples / 5."""
    n = 2
    out: dict = {"average": [], "average_gbs": [], "reg": [], "sobs": [], "mwsw": []}
    for lo, w, r in zip(LOSSES, WEIGHTS, REG):
        b = lo.shape[0]
        out["average"].append((lo * w[:, None]).sum() / (b * n))
        out["average_gbs"].append((lo * w[:, None]).sum() / 5)
        out["reg"].append(r.sum() / n)
        per = (lo ** 2).mean(-1) * w
        out["sobs"].append(per.sum() / b / n)
        out["mwsw"].append(per.sum() / w.sum() / n)
    out["all_mean"] = [np.mean([lo.sum(0) for lo in LOSSES], axis=0).tolist()] * n
    out["all_sum"] = [np.sum([(lo * lo).sum(0) for lo in LOSSES], axis=0).tolist()] * n
    out["mean_batch"] = (np.concatenate(LOSSES).sum(0) / 5).tolist()
    return out


@clause("nn.compute-average-loss", ref="tf221")
@clause("keras.loss.distribution-scaling", ref="tf221")
@clause("reduce.partial-batch", ref="tf221")
def test_sweep24b_replica_losses_with_a_partial_batch(backend):
    """MirroredStrategy(2) with 3 and 2 examples of different values: each replica's compute_average_loss
    (divided by its own batch x 2, or by global_batch_size), scale_regularization_loss, a Keras loss's two mean
    reductions (scaled by 1/2 in a replica), all_reduce MEAN/SUM, and reduce(MEAN, axis=0) over the 5 examples."""
    ns = Program(backend, PROGRAM, LOSSES=LOSSES, WEIGHTS=WEIGHTS, REG=REG).run()
    want = _want()
    call = "MirroredStrategy(2), replica batches 3 and 2"
    for k in ("average", "average_gbs", "reg", "sobs", "mwsw", "all_mean", "all_sum"):
        assert_close(ns["local"][k], want[k], tolerance=TOL32, what=f"{k} per replica", call=call)
    for k in ("average", "average_gbs", "reg", "sobs", "mwsw"):
        assert_close(ns["summed"][k], float(np.sum(want[k])), tolerance=TOL32, what=f"reduce(SUM, {k})", call=call)
    assert_close(ns["mean_batch"], want["mean_batch"], tolerance=TOL32, what="reduce(MEAN, losses, axis=0)",
                 call=call)


_X = np.array([[30000.0, 30016.0, -29984.0], [30032.0, 29968.0, -30000.0], [29984.0, 30048.0, -30016.0],
               [30000.0, 29952.0, -30032.0]])                     # float16 sums over axis 0 overflow
FREQ = {"w(4,1)": np.array([[1.0], [0.0], [2.0], [0.5]]), "w(1,3)": np.array([[2.0, 0.5, 1.0]]),
        "w()": np.array(1.5), "w(4,3)": np.array([[1.0, 2.0, 0.0], [0.5, 1.0, 1.0], [2.0, 0.0, 1.0],
                                                  [1.0, 1.0, 3.0]])}


def _round(x: np.ndarray, dtype: str) -> np.ndarray:
    """float64 -> float32 (TF's computation type for float16 moments) -> dtype."""
    return np.asarray(x, np.float64).astype(np.float32).astype(dtype)


@clause("ops.nn-more", ref="tf221")
def test_sweep24b_weighted_and_plain_moments_with_broadcast_weights(tf, budget):
    """weighted_moments(x, axes, w) = sum(w x) / sum(w broadcast to x), sum(w (x - mean)^2) / the same sum, for
    weights of shape (4, 1), (1, 3), () and (4, 3), axes [0] and [0, 1], keepdims both ways; float16 inputs
    whose float16 sums overflow are computed in float32 (and cast back), as tf.nn.moments does."""
    cases = [(w, axes, keep, dtype) for w in FREQ for axes in ([0], [0, 1]) for keep in (False, True)
             for dtype in ("float16", "float32")]
    first = ("w(4,1)", [0], False, "float16")
    cases = [first] + [c for c in cases if c != first]
    for wname, axes, keep, dtype in budget(cases):
        w = FREQ[wname]
        x = _X / (1.0 if dtype == "float16" else 1000.0)
        wb = np.broadcast_to(w, x.shape)
        sw = wb.sum(tuple(axes), keepdims=True)
        mean = (w * x).sum(tuple(axes), keepdims=True) / sw
        var = (w * (x - mean) ** 2).sum(tuple(axes), keepdims=True) / sw
        if not keep:
            mean, var = mean.squeeze(tuple(axes)), var.squeeze(tuple(axes))
        tol = TOL16 if dtype == "float16" else TOL32
        call = f"tf.nn.weighted_moments(x {dtype} (4, 3), axes={axes}, {wname}, keepdims={keep})"
        gm, gv = tf.nn.weighted_moments(tf.constant(x.astype(dtype)), axes, tf.constant(w.astype(dtype)),
                                        keepdims=keep)
        assert_equal(str(gm.dtype.name), dtype, what="mean dtype", call=call)
        assert_equal(tuple(gm.shape), mean.shape, what="mean shape", call=call)
        assert_close(gm.numpy(), _round(mean, dtype), tolerance=tol, what="mean", call=call)
        assert_close(gv.numpy(), _round(var, dtype), tolerance=tol, what="variance", call=call)
        if wname == "w()":   # plain moments: the same as unit weights
            pm, pv = tf.nn.moments(tf.constant(x.astype(dtype)), axes, keepdims=keep)
            um = x.mean(tuple(axes), keepdims=keep)
            uv = ((x - x.mean(tuple(axes), keepdims=True)) ** 2).mean(tuple(axes), keepdims=keep)
            assert_close(pm.numpy(), _round(um, dtype), tolerance=tol, what="moments mean", call=call)
            assert_close(pv.numpy(), _round(uv, dtype), tolerance=tol, what="moments variance", call=call)


@clause("ops.random-generator", ref="tf221")
def test_sweep24b_generator_draws_of_rank_two_and_three(tf, budget):
    """A Generator's draw of shape (a, b[, c]) advances its state as skip(a*b*c) and as a flat draw of a*b*c
    values, and its values are that flat draw's, reshaped (normal, uniform floats and ints, for Philox)."""
    shapes = [(3, 5), (2, 3, 4), (4, 1)]
    for shape in budget(shapes):
        n = int(np.prod(shape))
        for kind in ("normal", "uniform", "uniform_int"):
            g_shape = tf.random.Generator.from_seed(24)
            g_flat = tf.random.Generator.from_seed(24)
            g_skip = tf.random.Generator.from_seed(24)
            kw = {"minval": -5, "maxval": 9, "dtype": tf.int32} if kind == "uniform_int" else {}
            fn = "normal" if kind == "normal" else "uniform"
            a = getattr(g_shape, fn)(shape, **kw).numpy()
            b = getattr(g_flat, fn)([n], **kw).numpy()
            g_skip.skip(n)
            call = f"Generator.from_seed(24).{fn}({shape}{', int32' if kw else ''})"
            assert_equal(a.reshape(-1).tolist(), b.tolist(), what="values vs a flat draw of the same count",
                         call=call)
            assert_equal(g_shape.state.numpy().tolist(), g_flat.state.numpy().tolist(),
                         what="state vs after a flat draw", call=call)
            assert_equal(g_shape.state.numpy().tolist(), g_skip.state.numpy().tolist(),
                         what=f"state vs after skip({n})", call=call)


#: a float16 batch whose variance over axis 0 (141250 in column 0) overflows float16
X16 = np.array([[400.0, 1.0], [-400.0, 2.0], [350.0, 4.0], [-350.0, -8.0]])


def _bfloat16(x: np.ndarray) -> np.ndarray:
    """float32 values rounded to bfloat16 (round to nearest even on the top 16 bits), as float32."""
    a = np.asarray(x, np.float32).view(np.uint32).astype(np.uint64)
    r = ((a + 0x7FFF + ((a >> 16) & 1)) >> 16) << 16
    return r.astype(np.uint32).view(np.float32)


#: a bfloat16 batch whose moments lose bits if computed in bfloat16 (8 significant bits)
XB16 = np.array([[256.0, 3.0], [1.0, 5.0], [1.0, 7.0], [3.0, 9.0]])


@clause("ops.nn-more", ref="tf221")
def test_sweep24b_keras_ops_moments_of_float16_clip_to_its_range(tf, budget):
    """keras.ops.moments of float16 and bfloat16 computes in float32 and clips mean and variance to float16's
    range before casting back (a float16 variance of 141250 is 65504, not inf; bfloat16 moments are the float32
    ones rounded once); float32 is not clipped; keepdims and both axes."""
    for axes, keep in budget([([0], False), ([0, 1], True), ([0], True)]):
        for dtype in ("float16", "bfloat16", "float32"):
            xs = XB16 if dtype == "bfloat16" else X16
            mean = xs.mean(tuple(axes), keepdims=keep)
            var = ((xs - xs.mean(tuple(axes), keepdims=True)) ** 2).mean(tuple(axes), keepdims=keep)
            if dtype == "float16":
                mean, var = (np.clip(v.astype(np.float32), -65504, 65504).astype(dtype) for v in (mean, var))
            elif dtype == "bfloat16":
                mean, var = _bfloat16(mean), _bfloat16(var)
            x = tf.cast(tf.constant(xs.astype(np.float32)), dtype)
            gm, gv = tf.keras.ops.moments(x, axes, keepdims=keep)
            call = f"keras.ops.moments(x {dtype} (4, 2), axes={axes}, keepdims={keep})"
            assert_equal(tuple(gv.shape), np.shape(var), what="variance shape", call=call)
            tol = TOL32 if dtype == "bfloat16" else TOL16
            assert_close(np.asarray(gm.numpy(), np.float64), mean, tolerance=tol, what="mean", call=call)
            assert_close(np.asarray(gv.numpy(), np.float64), var, tolerance=tol,
                         what="variance (float16: clipped to 65504)", call=call)


SYNC_BN = """
import numpy as np
strategy = backend.make_strategy("mirrored", 2)
with strategy.scope():
    bn = tf.keras.layers.BatchNormalization(synchronized=True, momentum=0.5, epsilon=0.001)
    bn.build((None, 3))
x = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(np.asarray(XS[ctx.replica_id_in_sync_group], np.float32)))
out = strategy.run(lambda v: bn(v, training=True), args=(x,))
outs = [o.numpy().tolist() for o in strategy.experimental_local_results(out)]
moving = [bn.moving_mean.numpy().tolist(), bn.moving_variance.numpy().tolist()]
"""
SYNC_XS = [np.array([[1.0, -2.0, 0.5], [3.0, 0.0, -1.5], [2.0, 4.0, 0.0]]), np.array([[-4.0, 1.0, 2.5]])]


@clause("keras.layer.batchnorm.synchronized", ref="tf221")
@clause("reduce.partial-batch", ref="tf221")
def test_sweep24b_synchronized_batchnorm_with_unequal_replica_batches(backend):
    """BatchNormalization(synchronized=True) under MirroredStrategy(2) with 3 and 1 examples: mean and variance
    are the global batch's (sums and counts all-reduced: E[x^2] - E[x]^2 over the 4 examples, not a mean of the
    replicas' moments), both replicas normalize with them, and the moving statistics move toward them."""
    ns = Program(backend, SYNC_BN, XS=SYNC_XS).run()
    allx = np.concatenate(SYNC_XS)
    mean = allx.mean(0)
    var = np.maximum((allx ** 2).mean(0) - mean ** 2, 0.0)
    want = [((xs - mean) / np.sqrt(var + 0.001)).tolist() for xs in SYNC_XS]
    call = "MirroredStrategy(2), BatchNormalization(synchronized=True), replica batches 3 and 1"
    for r in range(2):
        assert_close(ns["outs"][r], want[r], tolerance=TOL32, what=f"replica {r}'s output", call=call)
    assert_close(ns["moving"][0], 0.5 * mean, tolerance=TOL32, what="moving_mean", call=call)
    assert_close(ns["moving"][1], 0.5 + 0.5 * var, tolerance=TOL32, what="moving_variance", call=call)
