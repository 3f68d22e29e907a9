"""Optimizer, LossScaleOptimizer and dtype-policy behaviour the suite never executed before the
fifteenth session (docs/conformance.md, "Fifteenth session: suite coverage of Keras optimizers,
schedules and mixed precision"): a second `build` (a no-op for every optimizer), variables with
`overwrite_with_gradient` (no slots, the gradient as value; with gradient accumulation the running
maximum), sparse updates through a dense divisor (Adadelta's gathered rows, Adagrad's zero rows),
LossScaleOptimizer's API around `apply`, Muon's AdamW routing, schedule errors, and
DTypePolicy's API and a layer's policy inside another's autocast scope (TF 2.21 + Keras 3.15).

Expected values are computed here with NumPy from Keras 3.15's sources (optimizers/*.py,
backend/tensorflow/sparse.py, dtype_policies/dtype_policy.py), never with the backend's code.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL32 = Tolerance(rtol=2e-6, atol=1e-7)

# Every optimizer whose build() starts with `if self.built: return` (Keras 3.15).
_BUILD_ONCE = [
    ("SGD", {"learning_rate": 0.1, "momentum": 0.9, "nesterov": True}),
    ("Adam", {"learning_rate": 0.1, "amsgrad": True}),
    ("AdamW", {"learning_rate": 0.1}),
    ("Adamax", {"learning_rate": 0.1}),
    ("Adagrad", {"learning_rate": 0.1}),
    ("Adadelta", {"learning_rate": 1.0}),
    ("RMSprop", {"learning_rate": 0.1, "momentum": 0.5, "centered": True}),
    ("Nadam", {"learning_rate": 0.1}),
    ("Ftrl", {"learning_rate": 0.1, "l1_regularization_strength": 0.01}),
    ("Lion", {"learning_rate": 0.1}),
    ("Lamb", {"learning_rate": 0.1}),
    ("Adafactor", {"learning_rate": 0.1}),
    ("Muon", {"learning_rate": 0.1}),
    ("ScheduleFreeAdamW", {"learning_rate": 0.1}),
]


def _values(variables):
    return [np.array(v.numpy()) for v in variables]


@clause("optim.update-rules", ref="tf221")
@pytest.mark.parametrize("name,kw", _BUILD_ONCE, ids=[n for n, _ in _BUILD_ONCE])
def test_cov14d_second_build_is_a_no_op(keras, tf, name, kw):
    """Keras 3.15: each optimizer's build returns at once when built, so a second build (after a
    step) creates no slot and resets none: the variables and the next step are those of an
    optimizer built once."""
    init = np.array([[0.5, -1.0], [2.0, 0.25]], np.float32)
    g1 = np.array([[0.3, -0.2], [0.1, 0.4]], np.float32)
    g2 = np.array([[-0.5, 0.6], [0.2, -0.1]], np.float32)
    v_twice = keras.Variable(init, name="w")
    v_once = keras.Variable(init, name="w")
    twice = getattr(keras.optimizers, name)(**kw)
    once = getattr(keras.optimizers, name)(**kw)
    twice.apply_gradients([(tf.constant(g1), v_twice)])
    once.apply_gradients([(tf.constant(g1), v_once)])
    before = _values(twice.variables)
    twice.build([v_twice])
    call = f"{name}({kw}): one step, build([v]) again"
    assert_equal(len(twice.variables), len(before), call=call, what="len(variables)")
    for i, (got, want) in enumerate(zip(_values(twice.variables), before)):
        assert_close(got, want, call=call, what=f"variables[{i}] ({twice.variables[i].name})")
    twice.apply_gradients([(tf.constant(g2), v_twice)])
    once.apply_gradients([(tf.constant(g2), v_once)])
    call += ", then a second step"
    assert_close(v_twice.numpy(), v_once.numpy(), call=call, what="variable (as built once)", tolerance=TOL32)
    for i, (got, want) in enumerate(zip(_values(twice.variables), _values(once.variables))):
        assert_close(got, want, call=call, what=f"variables[{i}] (as built once)", tolerance=TOL32)


@clause("optim.option-coverage", ref="tf221")
def test_cov14d_overwrite_with_gradient_variables(keras, tf):
    """A variable with `overwrite_with_gradient = True` takes its gradient as value and has no
    slots and no EMA average; an apply holding only such variables still counts in `iterations`.
    With gradient_accumulation_steps=k (Keras 3.15's ops.maximum rule) its accumulator holds the
    running maximum of the gradients: between update steps the variable keeps its value, at every
    k-th apply it takes max(gradient, accumulator) and the accumulator returns to zeros."""
    w = keras.Variable(np.array([1.0, 2.0], np.float32), name="w")
    s = keras.Variable(np.array([0.0, 0.0], np.float32), name="s")
    s.overwrite_with_gradient = True
    opt = keras.optimizers.Adam(0.1, use_ema=True)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), w), (tf.constant([3.0, -4.0]), s)])
    call = "Adam(0.1, use_ema=True) on w and s (overwrite_with_gradient), one step"
    assert_close(s.numpy(), np.array([3.0, -4.0], np.float32), call=call, what="s (its gradient)")
    # Adam's first step: m = 0.1 g, v = 0.001 g^2, alpha = lr sqrt(1 - 0.999) / (1 - 0.9)
    alpha = 0.1 * np.sqrt(1 - 0.999) / (1 - 0.9)
    expected_w = np.array([1.0, 2.0]) - alpha * 0.1 / (np.sqrt(0.001) + 1e-7)
    assert_close(w.numpy(), expected_w, call=call, what="w (Adam)", tolerance=Tolerance(rtol=1e-5, atol=1e-6))
    names = [v.name for v in opt.variables]
    assert_equal(names, ["iteration", "learning_rate", "w_average", "w_momentum", "w_velocity"], call=call,
                 what="optimizer variable names (none for s)")
    opt.apply_gradients([(tf.constant([5.0, 6.0]), s)])
    call = "then apply_gradients([(g, s)]) only"
    assert_close(s.numpy(), np.array([5.0, 6.0], np.float32), call=call, what="s")
    assert_equal(int(opt.iterations.numpy()), 2, call=call, what="iterations")

    w2 = keras.Variable(np.array([1.0, 2.0], np.float32), name="w2")
    s2 = keras.Variable(np.array([0.0, 0.0], np.float32), name="s2")
    s2.overwrite_with_gradient = True
    acc = keras.optimizers.SGD(0.1, gradient_accumulation_steps=3)
    s_value, running = np.zeros(2, np.float32), np.zeros(2, np.float32)
    w_value, w_acc = np.array([1.0, 2.0], np.float32), np.zeros(2, np.float32)
    for i, g in enumerate([[1.0, 5.0], [4.0, -1.0], [2.0, 2.0], [0.5, -3.0], [-1.0, -2.0]]):
        g = np.array(g, np.float32)
        acc.apply_gradients([(tf.constant([1.0, 1.0]), w2), (tf.constant(g), s2)])
        running = np.maximum(g, running)
        if (i + 1) % 3 == 0:
            s_value, running = running, np.zeros(2, np.float32)
            w_value = w_value - np.float32(0.1) * (w_acc + 1.0) / 3
            w_acc = np.zeros(2, np.float32)
        else:
            w_acc = w_acc + 1.0
        call = f"SGD(0.1, gradient_accumulation_steps=3) on w2 and s2 (overwrite_with_gradient), apply {i + 1}"
        assert_close(s2.numpy(), s_value, call=call, what="s2")
        assert_close(acc.variables[3].numpy(), running, call=call, what="s2's accumulator (running maximum)")
        assert_close(w2.numpy(), w_value, call=call, what="w2", tolerance=TOL32)

    # only overwrite_with_gradient variables: no update step runs, the accumulator is reset by the
    # overwrite rule alone
    s3 = keras.Variable(np.array([0.0, 0.0], np.float32), name="s3")
    s3.overwrite_with_gradient = True
    only = keras.optimizers.SGD(0.1, gradient_accumulation_steps=2)
    s_value, running = np.zeros(2, np.float32), np.zeros(2, np.float32)
    for i, g in enumerate([[5.0, 1.0], [2.0, 3.0], [1.0, 1.0], [0.0, 2.0]]):
        g = np.array(g, np.float32)
        only.apply_gradients([(tf.constant(g), s3)])
        running = np.maximum(g, running)
        if (i + 1) % 2 == 0:
            s_value, running = running, np.zeros(2, np.float32)
        call = f"SGD(0.1, gradient_accumulation_steps=2) on s3 (overwrite_with_gradient) only, apply {i + 1}"
        assert_close(s3.numpy(), s_value, call=call, what="s3")
        assert_close(only.variables[2].numpy(), running, call=call, what="s3's accumulator")


def _adadelta_sparse_numpy(var, steps, rho=0.95, eps=1e-7, lr=1.0):
    """Keras 3.15 Adadelta.update_step with IndexedSlices, by the TF backend's sparse rules: the
    squares are taken per occurrence (repeated rows add their squares), products with a dense
    slot gather its rows, and the update is a scatter_add of each occurrence."""
    var = var.astype(np.float32).copy()
    acc_g = np.zeros_like(var)
    acc_d = np.zeros_like(var)
    for values, rows in steps:
        sq = np.zeros_like(var)
        np.add.at(sq, rows, (1 - rho) * values * values)
        acc_g = rho * acc_g + sq
        delta = -(np.sqrt(acc_d[rows] + eps) * values) / np.sqrt(acc_g[rows] + eps)
        sq_d = np.zeros_like(var)
        np.add.at(sq_d, rows, (1 - rho) * delta * delta)
        acc_d = rho * acc_d + sq_d
        np.add.at(var, rows, lr * delta)
    return var


@clause("optim.sparse-updates", ref="tf221")
def test_cov14d_sparse_adadelta_and_adagrad_zero_rows(keras, tf):
    """Adadelta with IndexedSlices holding a repeated row: the slots add each occurrence's square
    and the variable each occurrence's step (Keras's sparse multiply gathers the dense slot's
    rows). Adagrad with initial_accumulator_value=0 and epsilon=0: Keras's sparse division joins
    the divisor's zero rows to the slices (indexed_slices_union_indices_and_values), so a row the
    gradient never touched becomes NaN (0/0); with a repeated row the union's values come from
    summed positions: rows [1, 1, 0] keep their values on the union [0, 1, 2] (row 2 gets
    lr * g / 0 = inf), rows [1, 1] gather position 3 of 3 (InvalidArgumentError)."""
    init = np.array([[1.0, -1.0], [0.5, 2.0], [-0.5, 0.0]], np.float32)
    steps = [(np.array([[0.2, -0.4], [0.6, 0.1], [-0.3, 0.5]], np.float32), np.array([0, 2, 0])),
             (np.array([[1.0, -2.0]], np.float32), np.array([2]))]
    v = tf.Variable(init)
    opt = keras.optimizers.Adadelta(1.0)
    for values, rows in steps:
        opt.apply_gradients([(tf.IndexedSlices(tf.constant(values), tf.constant(rows, tf.int64),
                                               tf.constant([3, 2], tf.int64)), v)])
    call = "Adadelta(1.0), IndexedSlices rows [0, 2, 0] then [2], on a (3, 2) variable"
    assert_close(v.numpy(), _adadelta_sparse_numpy(init, steps), call=call, what="variable",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))

    g = np.array([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0]], np.float32)
    for rows in ([2, 0], [1, 1, 0]):
        w = tf.Variable(np.ones((3, 2), np.float32))
        ada = keras.optimizers.Adagrad(0.1, initial_accumulator_value=0.0, epsilon=0.0)
        values = g[:len(rows)]
        ada.apply_gradients([(tf.IndexedSlices(tf.constant(values), tf.constant(rows, tf.int64),
                                               tf.constant([3, 2], tf.int64)), w)])
        call = f"Adagrad(0.1, initial_accumulator_value=0, epsilon=0), IndexedSlices rows {rows}"
        expected = _adagrad_zero_rows_numpy(np.ones((3, 2), np.float32), values, np.array(rows), lr=0.1)
        got = np.asarray(w.numpy())
        assert_equal(np.isnan(got).tolist(), np.isnan(expected).tolist(), call=call, what="NaN pattern")
        assert_close(np.nan_to_num(got, nan=0.0), np.nan_to_num(expected, nan=0.0), call=call,
                     what="variable (NaN as 0)", tolerance=TOL32)
    w = tf.Variable(np.ones((3, 2), np.float32))
    ada = keras.optimizers.Adagrad(0.1, initial_accumulator_value=0.0, epsilon=0.0)
    with raises(tf.errors.InvalidArgumentError, call="Adagrad(epsilon=0) with IndexedSlices rows [1, 1]: the "
                "positions 1 + 2 = 3 gathered from 3 rows"):
        ada.apply_gradients([(tf.IndexedSlices(tf.constant(g[:2]), tf.constant([1, 1], tf.int64),
                                               tf.constant([3, 2], tf.int64)), w)])


def _adagrad_zero_rows_numpy(var, values, rows, lr):
    """Keras 3.15 Adagrad (accumulator 0, epsilon 0) with IndexedSlices by the TF backend's
    sparse.elementwise_division: the divisor sqrt(accumulator) has zero rows, so the slices are
    re-indexed on the union of their rows and the zero rows (indexed_slices_union_indices_and_values:
    the values are kept as they are when the union has as many entries as the slices have indices,
    else each union row takes the value at (scatter_nd sum of its 1-based positions) - 1)."""
    var = var.astype(np.float32).copy()
    acc = np.zeros_like(var)
    np.add.at(acc, rows, values * values)
    divisor = np.sqrt(acc)
    zero_rows = np.flatnonzero(np.any(divisor == 0, axis=1))
    union = np.union1d(rows, zero_rows)
    if union.size == rows.size:
        union_values = lr * values
    else:
        positions = np.zeros(var.shape[0], np.int64)
        np.add.at(positions, rows, np.arange(1, rows.size + 1))
        padded = np.concatenate([np.zeros_like(values[:1]), lr * values])
        union_values = padded[positions[union]]
    with np.errstate(divide="ignore", invalid="ignore"):
        step = union_values.astype(np.float32) / divisor[union]
    np.subtract.at(var, union, step)
    return var


@clause("keras.mixed-precision.loss-scale", ref="tf221")
def test_cov14d_loss_scale_optimizer_api(keras, tf):
    """LossScaleOptimizer: base arguments at their defaults are accepted (old configs), any other
    keyword is a ValueError naming it; get_config/from_config round-trips the inner optimizer,
    initial_scale and dynamic_growth_steps; setting `learning_rate` sets the inner optimizer's;
    a None gradient is left out of the finiteness check (the others still step);
    finalize_variable_values hands over to the inner optimizer (its EMA averages); under a
    strategy's scope outside `run` (cross-replica context) `apply` is a ValueError."""
    LSO = keras.mixed_precision.LossScaleOptimizer
    LSO(keras.optimizers.SGD(0.1), clipnorm=None, use_ema=False, ema_momentum=0.99, loss_scale_factor=None)
    with raises(ValueError, match="does not support arguments", call="LossScaleOptimizer(SGD(), foo=1)"):
        LSO(keras.optimizers.SGD(0.1), foo=1)

    opt = LSO(keras.optimizers.Adam(0.02, beta_1=0.8), initial_scale=64.0, dynamic_growth_steps=3, name="lso")
    config = opt.get_config()
    call = "LossScaleOptimizer(Adam(0.02, beta_1=0.8), initial_scale=64, dynamic_growth_steps=3).get_config()"
    assert_equal(sorted(config), ["dynamic_growth_steps", "initial_scale", "inner_optimizer", "name"], call=call,
                 what="config keys")
    again = LSO.from_config(config)
    call = "LossScaleOptimizer.from_config(get_config())"
    assert_equal((float(again.initial_scale), int(again.dynamic_growth_steps), again.name), (64.0, 3, "lso"),
                 call=call, what="(initial_scale, dynamic_growth_steps, name)")
    assert_equal(type(again.inner_optimizer).__name__, "Adam", call=call, what="inner optimizer class")
    assert_close(float(again.inner_optimizer.beta_1), 0.8, call=call, what="inner beta_1")
    assert_close(float(again.learning_rate), 0.02, call=call, what="learning_rate")

    again.learning_rate = 0.5
    call = "LossScaleOptimizer(Adam(0.02)).learning_rate = 0.5"
    assert_close(float(again.inner_optimizer.learning_rate), 0.5, call=call, what="inner learning_rate")

    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([3.0])
    ema = LSO(keras.optimizers.SGD(0.5, use_ema=True, ema_momentum=0.5), initial_scale=4.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ema.apply([tf.constant([4.0, -8.0]), None], [a, b])
    call = "LossScaleOptimizer(SGD(0.5, use_ema=True, ema_momentum=0.5), initial_scale=4): apply([g, None])"
    assert_close(a.numpy(), np.array([1.0 - 0.5, 2.0 + 1.0], np.float32), call=call, what="a (g / 4 applied)")
    assert_close(b.numpy(), np.array([3.0], np.float32), call=call, what="b (no gradient)")
    assert_equal(int(ema.step_counter.numpy()), 1, call=call, what="step_counter (a finite step)")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ema.apply([tf.constant([4.0, 4.0]), None], [a, b])
    # SGD: a = [0.5, 3.0] then [0.0, 2.5]; EMA (momentum 0 at the first step): avg = a1, then
    # 0.5 avg + 0.5 a2
    avg = 0.5 * np.array([0.5, 3.0]) + 0.5 * np.array([0.0, 2.5])
    ema.finalize_variable_values([a, b])
    call = "then a second apply and finalize_variable_values([a, b])"
    assert_close(a.numpy(), avg, call=call, what="a (the inner optimizer's EMA average)", tolerance=TOL32)

    strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    with strategy.scope():
        v = tf.Variable([1.0])
        cross = LSO(keras.optimizers.SGD(0.1))
        with raises(ValueError, match="replica context", call="MirroredStrategy scope: LossScaleOptimizer.apply"):
            cross.apply([tf.constant([1.0])], [v])


@clause("optim.schedules", ref="tf221")
def test_cov14d_schedule_errors(keras, tf):
    """A LearningRateSchedule subclass that overrides neither `__call__` nor `get_config` raises
    NotImplementedError naming itself when called, asked for its config, or serialized;
    PiecewiseConstantDecay with len(boundaries) != len(values) - 1 is a ValueError; `deserialize`
    of an unknown class name returns that name (a str), as Keras's deserialize_keras_object does."""
    S = keras.optimizers.schedules

    class NoCall(S.LearningRateSchedule):
        pass

    with raises(NotImplementedError, match="NoCall", call="NoCall()(1)"):
        NoCall()(1)
    with raises(NotImplementedError, match="get_config", call="NoCall().get_config()"):
        NoCall().get_config()
    with raises(NotImplementedError, match="get_config", call="schedules.serialize(NoCall())"):
        S.serialize(NoCall())
    with raises(ValueError, match="boundaries", call="PiecewiseConstantDecay([1, 2], [0.1, 0.2])"):
        S.PiecewiseConstantDecay([1, 2], [0.1, 0.2])
    for config in ({"class_name": "Nope", "config": {}},
                   {"module": "keras.optimizers.schedules", "class_name": "Nope", "config": {}, "registered_name": None}):
        got = S.deserialize(config)
        assert_equal((type(got).__name__, got), ("str", "Nope"), call=f"schedules.deserialize({config})",
                      what="(type, value): the unknown class name itself")


@clause("optim.update-rules", ref="tf221")
def test_cov14d_muon_routes_embeddings_and_excluded_layers_to_adamw(keras, tf):
    """Muon builds a velocity (the AdamW path) for every variable that is not 2-D, for an
    embedding's 2-D table unless exclude_embeddings=False, and for paths matching exclude_layers;
    the AdamW path's first step is Muon's decay `v -= v * adam_weight_decay * lr` then Adam's
    step at lr * adam_lr_ratio."""
    inp = keras.Input((3,), dtype="int32")
    emb = keras.layers.Embedding(5, 2, name="embedding")
    dense = keras.layers.Dense(2, name="dense")
    model = keras.Model(inp, dense(emb(inp)))
    for exclude, want in ((True, ["iteration", "learning_rate", "embedding_embeddings_momentum",
                                  "embedding_embeddings_velocity", "dense_kernel_momentum", "dense_bias_momentum",
                                  "dense_bias_velocity"]),
                          (False, ["iteration", "learning_rate", "embedding_embeddings_momentum",
                                   "dense_kernel_momentum", "dense_bias_momentum", "dense_bias_velocity"])):
        opt = keras.optimizers.Muon(exclude_embeddings=exclude)
        opt.build(model.trainable_variables)
        assert_equal([v.name for v in opt.variables], want, call=f"Muon(exclude_embeddings={exclude}).build",
                     what="optimizer variable names")
    opt = keras.optimizers.Muon(exclude_layers=["dense/kernel"])
    opt.build(model.trainable_variables)
    assert_true("dense_kernel_velocity" in [v.name for v in opt.variables],
                "a velocity for dense/kernel", call="Muon(exclude_layers=['dense/kernel']).build")

    table = np.array([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]], np.float32)
    g = np.array([[0.3, -0.2], [0.1, 0.4], [-0.6, 0.0]], np.float32)
    var = keras.Variable(table, name="embeddings")
    lr, wd, ratio = 0.1, 0.05, 0.5
    muon = keras.optimizers.Muon(lr, adam_weight_decay=wd, adam_lr_ratio=ratio, exclude_layers=["embeddings"])
    muon.apply_gradients([(tf.constant(g), var)])
    decayed = table - table * np.float32(wd) * np.float32(lr)
    alpha = lr * ratio * np.sqrt(1 - 0.999) / (1 - 0.9)
    m, v = 0.1 * g, 0.001 * g * g
    expected = decayed - alpha * m / (np.sqrt(v) + 1e-7)
    assert_close(var.numpy(), expected, call="Muon(0.1, adam_weight_decay=0.05, adam_lr_ratio=0.5, "
                 "exclude_layers=['embeddings']), one step", what="variable (AdamW path)",
                 tolerance=Tolerance(rtol=1e-5, atol=1e-6))


@clause("keras.mixed-precision.policy", ref="tf221")
def test_cov14d_dtype_policy_api(keras, tf):
    """DTypePolicy (= mixed_precision.Policy): no name takes the global policy's; a non-string
    name is a TypeError; set_global_policy of a non-string, non-policy is a ValueError;
    get_config/from_config round-trip; equal names compare equal (a string does not); repr
    `<DTypePolicy "name">`; quantization_mode None; a layer's `dtype` may be a tf.DType, a NumPy
    scalar type or np.dtype (its name), anything else a ValueError; its `dtype_policy` can be set before
    build (its variables then take the new variable dtype, its outputs the compute dtype)."""
    P = keras.mixed_precision.Policy
    try:
        keras.mixed_precision.set_global_policy("mixed_bfloat16")
        default = P()
        assert_equal((default.name, default.compute_dtype, default.variable_dtype),
                     ("mixed_bfloat16", "bfloat16", "float32"), call="set_global_policy('mixed_bfloat16'); Policy()",
                     what="(name, compute_dtype, variable_dtype)")
        with raises(ValueError, match="Invalid `policy`", call="set_global_policy(3.5)"):
            keras.mixed_precision.set_global_policy(3.5)
    finally:
        keras.mixed_precision.set_global_policy("float32")
    with raises(TypeError, match="must be a string", call="Policy(32)"):
        P(32)
    policy = P("mixed_float16")
    assert_equal(policy.get_config(), {"name": "mixed_float16"}, call="Policy('mixed_float16').get_config()",
                 what="config")
    back = P.from_config(policy.get_config())
    assert_equal((back.name, back.compute_dtype, back.variable_dtype), ("mixed_float16", "float16", "float32"),
                 call="Policy.from_config(get_config())", what="(name, compute_dtype, variable_dtype)")
    assert_equal((back == policy, P("float32") == P("float64"), P("float32") == "float32"), (True, False, False),
                 call="Policy equality", what="(same name, other name, a string)")
    assert_equal(repr(P("mixed_bfloat16")), '<DTypePolicy "mixed_bfloat16">', call="repr(Policy('mixed_bfloat16'))",
                 what="repr")
    assert_equal(P("float32").quantization_mode, None, call="Policy('float32').quantization_mode", what="value")

    for dtype, name in ((tf.float64, "float64"), (np.float16, "float16"), (np.dtype("float64"), "float64")):
        assert_equal(keras.layers.Dense(2, dtype=dtype).dtype_policy.name, name, call=f"Dense(2, dtype={dtype!r})",
                     what="dtype_policy.name")
    for bad in (3, [1]):
        with raises(ValueError, match="Cannot interpret `dtype`", call=f"Dense(2, dtype={bad!r})"):
            keras.layers.Dense(2, dtype=bad)

    layer = keras.layers.Dense(2)
    layer.dtype_policy = "mixed_float16"
    out = layer(np.ones((1, 3), np.float32))
    call = "Dense(2); layer.dtype_policy = 'mixed_float16'; called on float32"
    assert_equal((layer.compute_dtype, layer.kernel.dtype, out.dtype.name if hasattr(out.dtype, "name")
                  else str(out.dtype)), ("float16", "float32", "float16"), call=call,
                 what="(compute_dtype, kernel dtype, output dtype)")


@clause("keras.mixed-precision.policy", ref="tf221")
def test_cov14d_float32_layer_inside_a_mixed_layer_reads_float32(keras, tf):
    """A float32 layer called inside a mixed_float16 layer's call opens its own autocast scope:
    its input is cast to float32 and its variables read as float32 (not the outer float16), so
    its output is float32 and equals the float32 product of the float16-rounded input."""
    class Outer(keras.layers.Layer):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            self.inner = keras.layers.Dense(1, use_bias=False, dtype="float32",
                                            kernel_initializer=keras.initializers.Constant(1.0 / 3.0))

        def build(self, input_shape):
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
            self.inner.build(input_shape)

        def call(self, x):
            return self.inner(x * self.scale)

    layer = Outer(dtype="mixed_float16")
    x = np.array([[0.1, 0.2, 0.7]], np.float32)
    out = layer(x)
    call = "Outer(dtype='mixed_float16') calling Dense(1, dtype='float32', kernel 1/3)"
    dtype = out.dtype.name if hasattr(out.dtype, "name") else str(out.dtype)
    assert_equal(dtype, "float32", call=call, what="output dtype")
    x16 = x.astype(np.float16).astype(np.float32)
    expected = x16 @ np.full((3, 1), np.float32(1.0 / 3.0), np.float32)
    assert_close(np.asarray(out), expected, call=call, what="output (float32 kernel, float16-rounded input)",
                 tolerance=TOL32)


@clause("optim.update-rules", ref="tf221")
def test_cov14d_custom_optimizer_subclass_slots_and_sparse_assign(keras, tf):
    """A user subclass of keras.optimizers.Optimizer: `add_variable_from_reference(v, name,
    initializer="ones")` and `add_variable(shape=(), initializer="ones", dtype="int64")` start
    at ones and are listed after iteration and learning_rate, named `<var>_<name>` and `<name>`;
    `self.assign(variable, IndexedSlices)` writes only the slices' rows (scatter_update),
    assign_sub/assign_add take dense values; the base Optimizer without update_step raises
    NotImplementedError at its first apply; `apply([])` does nothing (not even build)."""
    class Doubling(keras.optimizers.Optimizer):
        def build(self, variables):
            if self.built:
                return
            super().build(variables)
            self.scales = [self.add_variable_from_reference(v, name="scale", initializer="ones") for v in variables]
            self.count = self.add_variable(shape=(), initializer="ones", dtype="int64", name="count")

        def update_step(self, gradient, variable, learning_rate):
            s = self.scales[self._get_variable_index(variable)]
            self.assign(s, s * 2.0)
            if isinstance(gradient, tf.IndexedSlices):
                self.assign(variable, tf.IndexedSlices(gradient.values * 10.0, gradient.indices,
                                                       gradient.dense_shape))
            else:
                self.assign_sub(variable, learning_rate * s * gradient)
            self.assign_add(self.count, 1)

    v = tf.Variable(np.ones((3, 2), np.float32), name="v")
    opt = Doubling(learning_rate=0.5)
    opt.apply_gradients([(tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([2]), tf.constant([3, 2])), v)])
    call = "Doubling(0.5) (a user Optimizer subclass), IndexedSlices row 2 = [1, 2]"
    expected = np.ones((3, 2), np.float32)
    expected[2] = [10.0, 20.0]
    assert_close(v.numpy(), expected, call=call, what="variable (row 2 replaced, the others kept)")
    assert_equal([x.name for x in opt.variables][:2] + [opt.variables[-1].name], ["iteration", "learning_rate", "count"],
                 call=call, what="variable names (iteration, learning_rate, ..., count)")
    assert_true(opt.variables[2].name.endswith("_scale"), f"the slot's name ends with _scale "
                f"(got {opt.variables[2].name!r})", call=call)
    assert_close(opt.variables[2].numpy(), np.full((3, 2), 2.0, np.float32), call=call, what="scale (ones, doubled)")
    assert_equal(int(opt.variables[3].numpy()), 2, call=call, what="count (ones, plus one)")
    opt.apply_gradients([(tf.constant(np.ones((3, 2), np.float32)), v)])
    call = "then a dense gradient of ones"
    assert_close(v.numpy(), expected - 0.5 * 4.0, call=call, what="variable (var -= lr * scale * g, scale 4)")
    assert_equal(int(opt.variables[3].numpy()), 3, call=call, what="count")

    with raises(NotImplementedError, call="keras.optimizers.Optimizer(0.1).apply_gradients(...)"):
        keras.optimizers.Optimizer(0.1).apply_gradients([(tf.constant([1.0]), tf.Variable([1.0]))])
    sgd = keras.optimizers.SGD(0.1)
    sgd.apply([])
    assert_equal((sgd.built, int(sgd.iterations.numpy())), (False, 0), call="SGD(0.1).apply([])",
                 what="(built, iterations)")
    with raises(AttributeError, call="LossScaleOptimizer('sgd')"):
        keras.mixed_precision.LossScaleOptimizer("sgd")


@clause("optim.multi-optimizer", ref="tf221")
def test_cov14d_multi_optimizer_with_a_callable(keras, tf):
    """MultiOptimizer(callable): the inner optimizers are met at build (none before), take the
    MultiOptimizer's loss_scale_factor, and update their own variables (gradients divided by it);
    `learning_rate` is an AttributeError to read and to set; `apply([])` does nothing, `apply(grads)`
    unbuilt or with another number of gradients is a ValueError, built it uses the built variables;
    `variables` are its own iteration and learning_rate then each inner optimizer's; set_weights
    (unbuilt: ValueError) assigns in that order; finalize_variable_values hands each inner optimizer
    its variables (EMA); a callable returning a non-optimizer, a LossScaleOptimizer or a
    MultiOptimizer is a ValueError at build. OptimizerMap refuses a non-optimizer default
    (TypeError), a non-string key, a LossScaleOptimizer, a MultiOptimizer or a non-optimizer value
    (ValueError)."""
    a = keras.Variable(np.array([1.0, 2.0], np.float32), name="enc_a")
    b = keras.Variable(np.array([3.0], np.float32), name="dec_b")
    s1 = keras.optimizers.SGD(0.1)
    s2 = keras.optimizers.SGD(0.5, use_ema=True, ema_momentum=0.5)
    multi = keras.optimizers.MultiOptimizer(lambda var: s1 if "enc" in var.path else s2, loss_scale_factor=2.0)
    call = "MultiOptimizer(enc -> SGD(0.1), else SGD(0.5, use_ema, ema_momentum=0.5), loss_scale_factor=2)"
    assert_equal(len(multi.optimizers), 0, call=call, what="len(optimizers) before build")
    with raises(AttributeError, match="cannot be accessed", call=call + ".learning_rate"):
        multi.learning_rate
    with raises(AttributeError, match="cannot be set", call=call + ".learning_rate = 0.3"):
        multi.learning_rate = 0.3
    with raises(ValueError, match="must already be built", call=call + ".apply([g]) unbuilt"):
        multi.apply([tf.constant([1.0, 1.0])])
    with raises(ValueError, match="not yet been built", call=call + ".set_weights([]) unbuilt"):
        multi.set_weights([])
    multi.apply([])
    assert_equal(multi.built, False, call=call + ".apply([])", what="built")

    multi.apply_gradients([(tf.constant([1.0, -1.0]), a), (tf.constant([4.0]), b)])
    a_want = np.array([1.0, 2.0]) - 0.1 * np.array([1.0, -1.0]) / 2
    b_want = np.array([3.0]) - 0.5 * np.array([4.0]) / 2
    call += ", one step"
    assert_close(a.numpy(), a_want, call=call, what="a (SGD(0.1), g / 2)", tolerance=TOL32)
    assert_close(b.numpy(), b_want, call=call, what="b (SGD(0.5), g / 2)", tolerance=TOL32)
    assert_equal([o.loss_scale_factor for o in multi.optimizers], [2.0, 2.0], call=call,
                 what="inner loss_scale_factor")
    b_avg = b_want.copy()
    multi.apply([tf.constant([2.0, 2.0]), tf.constant([-2.0])])
    a_want = a_want - 0.1 * 1.0
    b_want = b_want + 0.5 * 1.0
    b_avg = 0.5 * b_avg + 0.5 * b_want
    call += ", then apply([g_a, g_b]) without variables"
    assert_close(a.numpy(), a_want, call=call, what="a", tolerance=TOL32)
    assert_close(b.numpy(), b_want, call=call, what="b", tolerance=TOL32)
    assert_equal([x.name for x in multi.variables],
                 ["iteration", "learning_rate", "iteration", "learning_rate", "iteration", "learning_rate",
                  "dec_b_average"], call=call, what="variable names")
    assert_equal(int(multi.iterations.numpy()), 2, call=call, what="iterations")
    with raises(ValueError, match="one-to-one", call=call + ", then apply([g_a])"):
        multi.apply([tf.constant([2.0, 2.0])])
    assert_close(multi.variables[-1].numpy(), b_avg, call=call, what="dec_b_average", tolerance=TOL32)
    multi.finalize_variable_values([a, b])
    call += ", finalize_variable_values([a, b])"
    assert_close(b.numpy(), b_avg, call=call, what="b (its EMA average)", tolerance=TOL32)
    assert_close(a.numpy(), a_want, call=call, what="a (SGD without EMA: unchanged)", tolerance=TOL32)
    multi.set_weights([np.int64(7), np.float32(0.0), np.int64(3), np.float32(0.1), np.int64(4), np.float32(0.25),
                       np.array([9.0], np.float32)])
    call = "MultiOptimizer.set_weights([7, 0, 3, 0.1, 4, 0.25, [9]])"
    assert_equal((int(multi.iterations.numpy()), int(s1.iterations.numpy()), int(s2.iterations.numpy())), (7, 3, 4),
                 call=call, what="(own, first, second) iterations")
    assert_close(float(s2.learning_rate.numpy()), 0.25, call=call, what="second optimizer's learning_rate")
    assert_close(multi.variables[-1].numpy(), np.array([9.0], np.float32), call=call, what="dec_b_average")

    lso = keras.mixed_precision.LossScaleOptimizer(keras.optimizers.SGD(0.1))
    for ret, match in (("nope", "not an Optimizer"), (lso, "LossScaleOptimizer cannot"),
                       (keras.optimizers.MultiOptimizer(lambda v: s1), "MultiOptimizer cannot")):
        bad = keras.optimizers.MultiOptimizer(lambda v, r=ret: r)
        with raises(ValueError, match=match, call=f"MultiOptimizer(lambda v: {type(ret).__name__}).build([a])"):
            bad.build([a])
    with raises(TypeError, match="default_optimizer", call="OptimizerMap('sgd')"):
        keras.optimizers.OptimizerMap("sgd")
    omap = keras.optimizers.OptimizerMap(keras.optimizers.SGD(0.1))
    for key, value, match in ((1, keras.optimizers.SGD(), "key must be a string"),
                              ("x", lso, "cannot be LossScaleOptimizer"),
                              ("y", keras.optimizers.MultiOptimizer(omap), "cannot be MultiOptimizer"),
                              ("z", "sgd", "must be a Keras Optimizer")):
        with raises(ValueError, match=match, call=f"OptimizerMap[{key!r}] = {type(value).__name__}"):
            omap[key] = value


@clause("optim.option-coverage", ref="tf221")
def test_cov14d_finalize_variable_values_pairs_by_position(keras, tf):
    """The TF backend's finalize_variable_values (use_ema) zips the variables it is given with the
    averages by position, with no length check: a shorter list takes the first averages, another
    variable of the first one's shape takes that average, one of another shape fails in its
    assign (ValueError), a longer list stops at the last average; a variable with
    overwrite_with_gradient has no average, and finalizing it is a ValueError. Without use_ema it
    leaves the variables alone."""
    a = tf.Variable([1.0, 2.0])
    b = tf.Variable([4.0])
    opt = keras.optimizers.SGD(0.5, use_ema=True, ema_momentum=0.25)
    opt.apply_gradients([(tf.constant([1.0, 1.0]), a), (tf.constant([2.0]), b)])
    opt.apply_gradients([(tf.constant([1.0, 1.0]), a), (tf.constant([2.0]), b)])
    call = "SGD(0.5, use_ema=True, ema_momentum=0.25), two steps"
    # averages: the first step copies (0.5, 1.5 | 3.0), then 0.25 avg + 0.75 var, var (0.0, 1.0 | 2.0)
    avg_a = 0.25 * np.array([0.5, 1.5]) + 0.75 * np.array([0.0, 1.0])
    avg_b = 0.25 * np.array([3.0]) + 0.75 * np.array([2.0])
    opt.finalize_variable_values([a])
    assert_close(a.numpy(), avg_a, call=call + ", finalize_variable_values([a])", what="a (its average)",
                 tolerance=TOL32)
    assert_close(b.numpy(), np.array([2.0], np.float32), call=call + ", finalize_variable_values([a])",
                 what="b (not given: unchanged)")
    c = tf.Variable([7.0, 8.0])
    d = tf.Variable([5.0])
    opt.finalize_variable_values([c, b, d])
    call += ", finalize_variable_values([c, b, d])"
    assert_close(c.numpy(), avg_a, call=call, what="c (the first average, a's)", tolerance=TOL32)
    assert_close(b.numpy(), avg_b, call=call, what="b (the second average)", tolerance=TOL32)
    assert_close(d.numpy(), np.array([5.0], np.float32), call=call, what="d (no third average: unchanged)")
    with raises(ValueError, call="then finalize_variable_values([b]) (a (1,) variable, a (2,) average)"):
        opt.finalize_variable_values([b])

    w = keras.Variable(np.array([1.0, 2.0], np.float32), name="w")
    s = keras.Variable(np.array([0.0, 0.0], np.float32), name="s")
    s.overwrite_with_gradient = True
    ema = keras.optimizers.SGD(0.5, use_ema=True)
    ema.apply_gradients([(tf.constant([1.0, 1.0]), w), (tf.constant([3.0, -4.0]), s)])
    with raises(ValueError, call="SGD(use_ema=True) on w and s (overwrite_with_gradient): "
                "finalize_variable_values([w, s])"):
        ema.finalize_variable_values([w, s])

    e = tf.Variable([1.0])
    plain = keras.optimizers.SGD(0.5)
    plain.apply_gradients([(tf.constant([1.0]), e)])
    plain.finalize_variable_values([e])
    assert_close(e.numpy(), np.array([0.5], np.float32), call="SGD(0.5) without EMA, finalize_variable_values",
                 what="e (unchanged)")
