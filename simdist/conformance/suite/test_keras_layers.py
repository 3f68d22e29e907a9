"""BatchNormalization across replicas and the gradients through `ReplicaContext.all_reduce` and
`all_gather` — clauses keras.layer.batchnorm.replicas, keras.layer.batchnorm.synchronized,
keras.layer.batchnorm.central-storage, replica.all-reduce-gradient, replica.all-gather-gradient
(TF 2.21 + Keras 3.15).

Expected values come from NumPy references written here (the moving-average rule, batch
statistics per replica or of the global batch, the chain rule through an all-sum), never from
the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises
from simdist.conformance.repro import Program

clause = pytest.mark.clause

X = np.array([[1.0, -2.0, 0.5], [3.0, 0.0, 1.5], [-1.0, 4.0, 2.5], [0.5, 1.0, -3.0],
              [2.0, 2.0, 0.0], [-0.5, -1.0, 1.0], [1.5, 3.0, -1.0], [0.0, -0.5, 2.0]], dtype=np.float32)
MOMENTUM = 0.75

_BN_PROGRAM = """
strategy = backend.make_strategy(kind, n)
per = x.shape[0] // n
with strategy.scope():
    bn = tf.keras.layers.BatchNormalization(momentum=momentum, synchronized=synchronized)
    bn.build(x.shape)
values = strategy.experimental_distribute_values_from_function(
    lambda ctx: tf.constant(x[ctx.replica_id_in_sync_group * per:(ctx.replica_id_in_sync_group + 1) * per]))
strategy.run(lambda xb: bn(xb, training=True), args=(values,))
mean_copies = [c.numpy() for c in bn.moving_mean.value.values]
variance_copies = [c.numpy() for c in bn.moving_variance.value.values]
"""


def _moving(batches: list[np.ndarray]) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Moving mean and variance after one training call from the initial 0 and 1, per batch."""
    x64 = [b.astype(np.float64) for b in batches]
    return ([(1 - MOMENTUM) * b.mean(axis=0) for b in x64],
            [MOMENTUM + (1 - MOMENTUM) * b.var(axis=0) for b in x64])


@clause("keras.layer.batchnorm.replicas", ref="tf221")
def test_each_replica_moves_its_own_copy_of_the_moving_statistics(backend):
    prog = Program(backend, _BN_PROGRAM, kind="mirrored", n=2, x=X, momentum=MOMENTUM, synchronized=False)
    ns = prog.run()
    call = "MirroredStrategy(2): BatchNormalization(synchronized=False)(x, training=True) in strategy.run"
    means, variances = _moving([X[:4], X[4:]])
    assert_equal(len(ns["mean_copies"]), 2, call=call, what="copies of moving_mean")
    for i in range(2):
        assert_close(ns["mean_copies"][i], means[i], call=call, what=f"moving_mean copy {i} (its replica's batch)")
        assert_close(ns["variance_copies"][i], variances[i], call=call,
                     what=f"moving_variance copy {i} (its replica's batch)")


@clause("keras.layer.batchnorm.synchronized", ref="tf221")
def test_synchronized_statistics_are_the_global_batchs(backend):
    prog = Program(backend, _BN_PROGRAM, kind="mirrored", n=2, x=X, momentum=MOMENTUM, synchronized=True)
    ns = prog.run()
    call = "MirroredStrategy(2): BatchNormalization(synchronized=True)(x, training=True) in strategy.run"
    (mean,), (variance,) = _moving([X])
    for i in range(2):
        assert_close(ns["mean_copies"][i], mean, call=call, what=f"moving_mean copy {i} (the global batch's)")
        assert_close(ns["variance_copies"][i], variance, call=call,
                     what=f"moving_variance copy {i} (the global batch's)")


@clause("keras.layer.batchnorm.central-storage", ref="tf221")
def test_central_storage_refuses_the_replica_context_assign(backend):
    prog = Program(backend, _BN_PROGRAM,
                   kind="central_storage", n=2, x=X, momentum=MOMENTUM, synchronized=False)
    with raises(ValueError, match="You must specify an aggregation method to update a AggregatingVariable",
                call="CentralStorageStrategy(2): BatchNormalization()(x, training=True) in strategy.run"):
        prog.run()


@clause("replica.all-reduce-gradient", ref="tf221")
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
def test_gradient_through_all_reduce_is_an_all_reduce(backend, op):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
def fn(xr, wr):
    with tf.GradientTape() as tape:
        tape.watch(xr)
        s = tf.distribute.get_replica_context().all_reduce(op, xr * xr)
        loss = tf.reduce_sum(s * wr)
    return tape.gradient(loss, xr)
xs = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(x[ctx.replica_id_in_sync_group]))
ws = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(w[ctx.replica_id_in_sync_group]))
grads = [g.numpy() for g in strategy.experimental_local_results(strategy.run(fn, args=(xs, ws)))]
""", op=op, x=X[:2], w=X[2:4])
    ns = prog.run()
    # d loss_r / d x_r = 2 x_r * reduce_op(w_0, w_1): the upstream gradients all-reduced with the same op
    w = X[2:4].astype(np.float64)
    total = w.sum(axis=0) if op == "SUM" else w.mean(axis=0)
    call = f"MirroredStrategy(2): tape.gradient(sum(all_reduce({op}, x*x) * w), x) in strategy.run"
    for r in range(2):
        assert_close(ns["grads"][r], 2 * X[r].astype(np.float64) * total, call=call, what=f"replica {r}'s gradient")


@clause("replica.all-gather-gradient", ref="tf221")
@pytest.mark.parametrize("axis", [0, 1])
def test_gradient_through_all_gather_keeps_each_replicas_part(backend, axis):
    prog = Program(backend, """
strategy = backend.make_strategy("mirrored", 2)
def fn(xr):
    with tf.GradientTape() as tape:
        tape.watch(xr)
        y = tf.distribute.get_replica_context().all_gather(xr * xr, axis=axis)
        loss = tf.reduce_sum(y * tf.constant(w))
    return tape.gradient(loss, xr)
xs = strategy.experimental_distribute_values_from_function(lambda ctx: tf.constant(x[ctx.replica_id_in_sync_group]))
grads = [g.numpy() for g in strategy.experimental_local_results(strategy.run(fn, args=(xs,)))]
""", axis=axis, x=X[:4].reshape(2, 2, 3), w=np.concatenate([X[4:6], X[6:8]], axis=axis))
    ns = prog.run()
    # d loss_r / d x_r = 2 x_r * (the all-sum of the replicas' upstream w), this replica's part along axis
    w = 2 * np.concatenate([X[4:6], X[6:8]], axis=axis).astype(np.float64)
    x = X[:4].reshape(2, 2, 3).astype(np.float64)
    call = f"MirroredStrategy(2): tape.gradient(sum(all_gather(x*x, axis={axis}) * w), x) in strategy.run"
    for r in range(2):
        part = w[2 * r:2 * r + 2] if axis == 0 else w[:, 3 * r:3 * r + 3]
        assert_close(ns["grads"][r], 2 * x[r] * part, call=call, what=f"replica {r}'s gradient")


# -- one-device layers: NumPy references of Keras 3.15's formulas ----------------------------------------
IMG = (np.arange(2 * 5 * 6 * 2, dtype=np.float32).reshape(2, 5, 6, 2) % 7 - 3.0) / 2.0   # multiples of 1/2


def _same_pads(size: int, k: int, s: int) -> tuple[int, int]:
    """TF's SAME padding of one dimension: (before, after), the odd one after."""
    out = -(-size // s)
    need = max(0, (out - 1) * s + k - size)
    return need // 2, need - need // 2


def _conv_ref(x: np.ndarray, k: np.ndarray, b: np.ndarray, s: tuple, same: bool) -> np.ndarray:
    """Channels-last cross-correlation by loops over output pixels (float64)."""
    n, h, w, _ = x.shape
    kh, kw, _, f = k.shape
    (pt, pb), (pl, pr) = (_same_pads(h, kh, s[0]), _same_pads(w, kw, s[1])) if same else ((0, 0), (0, 0))
    xp = np.pad(x.astype(np.float64), ((0, 0), (pt, pb), (pl, pr), (0, 0)))
    oh, ow = (xp.shape[1] - kh) // s[0] + 1, (xp.shape[2] - kw) // s[1] + 1
    out = np.zeros((n, oh, ow, f))
    for i in range(oh):
        for j in range(ow):
            win = xp[:, i * s[0]:i * s[0] + kh, j * s[1]:j * s[1] + kw, :]
            out[:, i, j, :] = np.tensordot(win, k.astype(np.float64), axes=([1, 2, 3], [0, 1, 2]))
    return out + b


def _pool_ref(x: np.ndarray, k: int, s: int, same: bool, kind: str) -> np.ndarray:
    """Max or in-bounds average over each window (float64)."""
    n, h, w, c = x.shape
    (pt, _), (pl, _) = (_same_pads(h, k, s), _same_pads(w, k, s)) if same else ((0, 0), (0, 0))
    oh, ow = (-(-h // s), -(-w // s)) if same else ((h - k) // s + 1, (w - k) // s + 1)
    out = np.zeros((n, oh, ow, c))
    for i in range(oh):
        for j in range(ow):
            r0, c0 = i * s - pt, j * s - pl
            win = x[:, max(r0, 0):min(r0 + k, h), max(c0, 0):min(c0 + k, w), :].astype(np.float64)
            out[:, i, j, :] = win.max(axis=(1, 2)) if kind == "max" else win.mean(axis=(1, 2))
    return out


_CONV_PROGRAM = """
layer = tf.keras.layers.Conv2D(filters, kernel_size, strides=strides, padding=padding, data_format=data_format)
y = layer(tf.constant(x))
layer.set_weights([kernel, bias])
y = layer(tf.constant(x)).numpy()
"""


@clause("keras.layer.conv2d", ref="tf221")
def test_conv2d_same_padding_and_strides(backend):
    kernel = (np.arange(2 * 3 * 2 * 3, dtype=np.float32).reshape(2, 3, 2, 3) % 5 - 2.0) / 4.0
    bias = np.array([0.5, -1.0, 0.25], dtype=np.float32)
    prog = Program(backend, _CONV_PROGRAM, x=IMG, filters=3, kernel_size=(2, 3), strides=(2, 1), padding="same",
                   data_format="channels_last", kernel=kernel, bias=bias)
    ns = prog.run()
    assert_close(ns["y"], _conv_ref(IMG, kernel, bias, (2, 1), True),
                 call="Conv2D(3, (2, 3), strides=(2, 1), padding='same')(x)", what="y")


@clause("keras.layer.conv2d.channels-first", ref="tf221")
def test_conv2d_channels_first_adds_the_bias_on_the_last_axis_when_width_equals_filters(backend, onednn_float32):
    x = IMG[:, :4, :4, :].transpose(0, 3, 1, 2).copy()                     # (2, 2, 4, 4)
    kernel = (np.arange(2 * 2 * 2 * 3, dtype=np.float32).reshape(2, 2, 2, 3) % 3 - 1.0) / 2.0
    bias = np.array([1.0, -2.0, 4.0], dtype=np.float32)
    prog = Program(backend, _CONV_PROGRAM, x=x, filters=3, kernel_size=2, strides=1, padding="valid",
                   data_format="channels_first", kernel=kernel, bias=bias)
    ns = prog.run()
    conv = _conv_ref(x.transpose(0, 2, 3, 1), kernel, np.zeros(3), (1, 1), False).transpose(0, 3, 1, 2)
    # the output is (2, 3, 3, 3): its width equals filters, so Keras's ops.add adds the bias along the width
    assert_close(ns["y"], conv + bias.astype(np.float64)[None, None, None, :],
                 call="Conv2D(3, 2, data_format='channels_first')(x) with an output width of 3", what="y")


@clause("keras.layer.pooling.window", ref="tf221")
@pytest.mark.parametrize("layer,k,s,padding,kind", [("MaxPooling2D", 3, 2, "same", "max"),
                                                    ("MaxPooling2D", 2, 2, "valid", "max"),
                                                    ("AveragePooling2D", 3, 2, "same", "avg"),
                                                    ("AveragePooling2D", 2, 1, "valid", "avg")])
def test_window_pooling(backend, layer, k, s, padding, kind):
    prog = Program(backend, "y = getattr(tf.keras.layers, layer)(k, s, padding)(tf.constant(x)).numpy()",
                   layer=layer, k=k, s=s, padding=padding, x=IMG)
    ns = prog.run()
    assert_close(ns["y"], _pool_ref(IMG, k, s, padding == "same", kind), call=f"{layer}({k}, {s}, {padding!r})(x)",
                 what="y")


@clause("keras.layer.pooling.global", ref="tf221")
def test_global_pooling(backend):
    prog = Program(backend, """
gap = tf.keras.layers.GlobalAveragePooling2D()(tf.constant(x)).numpy()
gmp = tf.keras.layers.GlobalMaxPooling2D(data_format="channels_first", keepdims=True)(tf.constant(x)).numpy()
""", x=IMG)
    ns = prog.run()
    assert_close(ns["gap"], IMG.astype(np.float64).mean(axis=(1, 2)), call="GlobalAveragePooling2D()(x)", what="y")
    assert_close(ns["gmp"], IMG.max(axis=(2, 3), keepdims=True),
                 call="GlobalMaxPooling2D(data_format='channels_first', keepdims=True)(x)", what="y")


@clause("keras.layer.layernorm", ref="tf221")
def test_layer_normalization_over_two_axes(backend):
    gamma = (np.arange(12, dtype=np.float32).reshape(6, 2) % 4 + 1.0) / 2.0
    beta = (np.arange(12, dtype=np.float32).reshape(6, 2) % 3 - 1.0) / 4.0
    prog = Program(backend, """
layer = tf.keras.layers.LayerNormalization(axis=[2, 3], epsilon=0.01)
layer(tf.constant(x))
layer.set_weights([gamma, beta])
y = layer(tf.constant(x)).numpy()
""", x=IMG, gamma=gamma, beta=beta)
    ns = prog.run()
    x64 = IMG.astype(np.float64)
    mean, var = x64.mean(axis=(2, 3), keepdims=True), x64.var(axis=(2, 3), keepdims=True)
    assert_close(ns["y"], (x64 - mean) / np.sqrt(var + 0.01) * gamma + beta,
                 call="LayerNormalization(axis=[2, 3], epsilon=0.01)(x)", what="y")


@clause("keras.layer.batchnorm", ref="tf221")
def test_batch_normalization_training_then_inference(backend):
    prog = Program(backend, """
bn = tf.keras.layers.BatchNormalization(momentum=momentum, epsilon=0.01)
y_train = bn(tf.constant(x), training=True).numpy()
moving = [w.numpy() for w in bn.non_trainable_weights]
y_infer = bn(tf.constant(x), training=False).numpy()
y_default = bn(tf.constant(x)).numpy()
""", x=X, momentum=MOMENTUM)
    ns = prog.run()
    x64 = X.astype(np.float64)
    mean, var = x64.mean(axis=0), x64.var(axis=0)
    call = f"BatchNormalization(momentum={MOMENTUM}, epsilon=0.01)(x, training=...)"
    assert_close(ns["y_train"], (x64 - mean) / np.sqrt(var + 0.01), call=call, what="output in training")
    m_mean, m_var = (1 - MOMENTUM) * mean, MOMENTUM + (1 - MOMENTUM) * var
    assert_close(ns["moving"][0], m_mean, call=call, what="moving_mean after one training call")
    assert_close(ns["moving"][1], m_var, call=call, what="moving_variance after one training call")
    expected = (x64 - m_mean) / np.sqrt(m_var + 0.01)
    assert_close(ns["y_infer"], expected, call=call, what="output with training=False (the moving statistics)")
    assert_close(ns["y_default"], expected, call=call, what="output with training unset (inference)")


@clause("keras.layer.symbolic", ref="tf221")
def test_symbolic_output_shapes(backend):
    prog = Program(backend, """
inp = tf.keras.Input((7, 6, 3))
conv = tuple(tf.keras.layers.Conv2D(4, 3, strides=2, padding="same")(inp).shape)
pool = tuple(tf.keras.layers.MaxPooling2D(3)(inp).shape)
gap = tuple(tf.keras.layers.GlobalAveragePooling2D(keepdims=True)(inp).shape)
""")
    ns = prog.run()
    assert_equal(ns["conv"], (None, 4, 3, 4), call="Conv2D(4, 3, strides=2, padding='same')(Input((7, 6, 3)))",
                 what="shape")
    assert_equal(ns["pool"], (None, 2, 2, 3), call="MaxPooling2D(3)(Input((7, 6, 3)))", what="shape")
    assert_equal(ns["gap"], (None, 1, 1, 3), call="GlobalAveragePooling2D(keepdims=True)(Input((7, 6, 3)))",
                 what="shape")
    prog = Program(backend, 'tf.keras.layers.MaxPooling2D(padding="VALID")(tf.keras.Input((4, 4, 1)))')
    with raises(ValueError, match="Argument `padding` must be either 'valid' or 'same'",
                call="MaxPooling2D(padding='VALID') on a KerasTensor"):
        prog.run()


@clause("keras.layer.arguments", ref="tf221")
@pytest.mark.parametrize("source,error,match", [
    ("tf.keras.layers.Conv2D(2, 3, strides=2, dilation_rate=2)", ValueError, "not supported in conjunction"),
    ("tf.keras.layers.Conv2D(4, 3, groups=3)", ValueError, "evenly divisible by the number of groups"),
    ("tf.keras.layers.Conv2D(2, 7)(tf.ones([1, 5, 5, 1]))", ValueError, "Computed output size would be zero"),
    ("tf.keras.layers.Conv2D(2, 3)(tf.ones([1, 5, 5]))", ValueError, "expected min_ndim=4, found ndim=3"),
    ("tf.keras.layers.AveragePooling2D()", TypeError, "pool_size"),
    ("tf.keras.layers.BatchNormalization(axis=4)(tf.ones([1, 2, 2, 1]))", IndexError, "out of range"),
])
def test_argument_errors(backend, source, error, match):
    prog = Program(backend, source)
    with raises(error, match=match, call=source):
        prog.run()
