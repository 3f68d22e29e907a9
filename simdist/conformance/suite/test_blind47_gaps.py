"""Gaps the forty-seventh blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, gradients and the tape, tf.function, tf.data, checkpoints and
saving, distribution, random ops) that the suite stated for one spelling, one option value or one input only, or
never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings or two runs, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause

X12 = np.arange(24, dtype=np.float32).reshape(12, 2) / 8
Y12 = np.arange(12, dtype=np.float32).reshape(12, 1) / 4


def _dense(keras):
    return keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])


# -- the trainer: the batch dimension a traced step sees over several fits ---------------------------------------------
def _traced_batches(sizes):
    """tf.function(reduce_retracing=True) over the step's element specs: the first batch size is traced static; a
    size no trace covers is traced once more with the batch dimension None (the most specific common supertype),
    and that relaxed trace then covers every later size; a size traced statically keeps its trace."""
    out, static, relaxed = [], set(), False
    for b in sizes:
        if b in static or relaxed:
            continue
        if not static:
            static.add(b)
            out.append(b)
        else:
            relaxed = True
            out.append(None)
    return out


@clause("keras.fit.traced-shapes", ref="tf221")
@pytest.mark.parametrize("sizes", [(4, 6), (4, 4, 4), (4, 6, 4), (6, 3, 6), (12, 4)])
@pytest.mark.parametrize("mode", ["fit", "evaluate"])
def test_blind47_a_new_batch_size_retraces_the_step_with_an_unknown_batch(tf, keras, sizes, mode):
    """Keras 3.15's train and test functions are tf.function(reduce_retracing=True): over fits (or evaluates) of the
    same compiled model with several batch sizes (12 samples, no partial batch), the step's Python sees the first
    size, then once the batch dimension None, then nothing new for a size traced before. (A third new size after the
    relaxed trace is covered by it on TF; simdist runs the step's Python once more: docs/conformance.md, the
    forty-seventh batch's open items.)"""
    seen = []

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            seen.append(data[0].shape[0])
            return {"n": tf.constant(0.0)}

        def test_step(self, data):
            seen.append(data[0].shape[0])
            return {"n": tf.constant(0.0)}

    m = M()
    m.compile("sgd", "mse")
    for b in sizes:
        if mode == "fit":
            m.fit(X12, Y12, batch_size=b, verbose=0, shuffle=False)
        else:
            m.evaluate(X12, Y12, batch_size=b, verbose=0)
    assert seen == _traced_batches(sizes), f"{mode} by {sizes}: the traced step saw batch sizes {seen}"


# -- the trainer: a PyDataset's number of batches -----------------------------------------------------------------------
@clause("keras.fit.python-inputs", ref="tf221")
@pytest.mark.parametrize("defines", ["neither", "__len__", "num_batches", "both"])
def test_blind47_py_dataset_num_batches(keras, defines):
    """PyDataset.num_batches is `len(self)` when the subclass defines __len__, its own property when it overrides
    it (the property wins over __len__), else NotImplementedError "You need to implement the `num_batches`
    property" (Keras 3.15 py_dataset_adapter.py), which fit raises too."""
    body = {"__init__": lambda self: keras.utils.PyDataset.__init__(self),
            "__getitem__": lambda self, i: (np.zeros((1, 2), np.float32), np.zeros((1, 1), np.float32))}
    if defines in ("__len__", "both"):
        body["__len__"] = lambda self: 3
    if defines in ("num_batches", "both"):
        body["num_batches"] = property(lambda self: 4)
    D = type("D", (keras.utils.PyDataset,), body)
    if defines == "neither":
        with pytest.raises(NotImplementedError, match="You need to implement the `num_batches` property"):
            D().num_batches
        m = _dense(keras)
        m.compile("sgd", "mse")
        with pytest.raises(NotImplementedError, match="num_batches"):
            m.fit(D(), verbose=0)
        return
    assert D().num_batches == {"__len__": 3, "num_batches": 4, "both": 4}[defines]


# -- the trainer: metrics of a dict of outputs ---------------------------------------------------------------------------
@clause("keras.fit.logs", ref="tf221")
@pytest.mark.parametrize("metrics", ["list of lists", "dict"])
@pytest.mark.parametrize("keys", [("b", "a"), ("a", "b"), ("z", "c", "m")])
def test_blind47_metrics_of_a_dict_of_outputs_follow_the_sorted_names(keras, metrics, keys):
    """A subclassed model returning a dict of outputs: a list of metric lists is matched to the outputs in the
    order of their sorted names (tree.flatten's order of a dict), whatever the dict's insertion order; a dict of
    metrics by name. Output k is (k + 1) times the row sum of x, the targets zeros, so output k's MAE is (k + 1)
    mean|s| and its MSE (k + 1)^2 mean(s^2), where k counts in insertion order."""
    names = ["mae", "mse", "mae"][:len(keys)]

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1, kernel_initializer="ones")

        def call(self, x):
            s = self.d(x)
            return {k: s * float(i + 1) for i, k in enumerate(keys)}

    m = M()
    by_name = dict(zip(sorted(keys), names))   # (the sorted names take the list's metrics in turn)
    given = [[n] for n in names] if metrics == "list of lists" else {k: by_name[k] for k in keys[::-1]}
    m.compile("sgd", loss={k: "mse" for k in keys}, metrics=given)
    x = np.arange(16, dtype=np.float32).reshape(8, 2) / 8
    y = {k: np.zeros((8, 1), np.float32) for k in keys}
    got = m.evaluate(x, y, verbose=0, return_dict=True)
    s = x.sum(axis=1)
    for i, k in enumerate(keys):
        f = float(i + 1)
        want = np.mean(np.abs(f * s)) if by_name[k] == "mae" else np.mean((f * s) ** 2)
        assert f"{k}_{by_name[k]}" in got, f"metrics {given} for outputs {keys}: got the logs {sorted(got)}"
        np.testing.assert_allclose(float(got[f"{k}_{by_name[k]}"]), want, rtol=1e-5)


# -- the trainer: class weights of every input kind -----------------------------------------------------------------------
def _weighted_mse(x, y, class_weight):
    """The first batch's loss of a Dense(1) of ones (bias 0) over all 8 samples: Keras's mean squared error with
    each sample weighted by its class (round(y)), missing classes weighing 1, summed and divided by the batch size."""
    pred = x.sum(axis=1)
    w = np.array([class_weight.get(int(round(float(v))), 1.0) for v in y[:, 0]], np.float64)
    return float(np.sum(w * (pred - y[:, 0]) ** 2) / len(y))


@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("data", ["dataset", "arrays", "py_dataset"])
@pytest.mark.parametrize("class_weight", [{}, {0: 1.0, 1: 1.0}, {0: 3.0, 1: 0.5}, {1: 2.0}])
def test_blind47_class_weight_for_every_input_kind(tf, keras, data, class_weight):
    """fit(class_weight=...) weighs each sample by its class's weight (1 for a class the dict leaves out), for
    arrays, a tf.data dataset and a PyDataset alike; an empty dict weighs nothing for arrays and a PyDataset, while
    Keras 3.15's tf.data adapter maps the dataset through a table of `max(class_weight) + 1` weights, so an empty
    dict fails there with Python's ValueError "max() arg is an empty sequence"."""
    x = np.arange(16, dtype=np.float32).reshape(8, 2) / 8
    y = np.array([[0], [1], [1], [0], [1], [0], [0], [1]], np.float32)
    m = _dense(keras)
    m.compile(keras.optimizers.SGD(0.0), "mse")
    if data == "dataset":
        given = tf.data.Dataset.from_tensor_slices((x, y)).batch(8)
    elif data == "py_dataset":
        class D(keras.utils.PyDataset):
            def __init__(self):
                super().__init__()

            def __len__(self):
                return 1

            def __getitem__(self, i):
                return x, y
        given = D()
    else:
        given = x
    kw = {"batch_size": 8} if data == "arrays" else {}
    fit = (lambda: m.fit(given, y, verbose=0, shuffle=False, class_weight=class_weight, **kw)) if data == "arrays" \
        else (lambda: m.fit(given, verbose=0, shuffle=False, class_weight=class_weight))
    if data == "dataset" and not class_weight:
        with pytest.raises(ValueError, match="empty"):
            fit()
        return
    loss = fit().history["loss"][0]
    np.testing.assert_allclose(loss, _weighted_mse(x, y, class_weight), rtol=1e-5)


# -- tf.gradients through a while loop with maximum_iterations ---------------------------------------------------------
@clause("function.graph-gradients", ref="tf221")
@pytest.mark.parametrize("max_iterations", [1, 3])
@pytest.mark.parametrize("stop", [2, None])
@pytest.mark.parametrize("how", ["tf.gradients", "GradientTape"])
def test_blind47_while_loop_gradients_count_the_iterations_run(tf, max_iterations, stop, how):
    """In a tf.function, v = x^k after a tf.while_loop multiplying by x, k = min(maximum_iterations, the iterations
    its condition allows); dv/dx = k x^(k-1), through tf.gradients and a GradientTape alike. (maximum_iterations=0:
    TF's While gradient is zeros, simdist's None: the forty-seventh batch's open items.)"""

    @tf.function
    def f(x):
        def cond(i, v):
            return True if stop is None else i < stop

        if how == "GradientTape":
            with tf.GradientTape() as t:
                t.watch(x)
                v = tf.while_loop(cond, lambda i, v: (i + 1, v * x), [0, tf.constant(1.0)],
                                  maximum_iterations=max_iterations)[1]
            return v, t.gradient(v, x)
        v = tf.while_loop(cond, lambda i, v: (i + 1, v * x), [0, tf.constant(1.0)],
                          maximum_iterations=max_iterations)[1]
        return v, tf.gradients(v, x)[0]

    k = max_iterations if stop is None else min(max_iterations, stop)
    v, g = f(tf.constant(2.0))
    assert float(_np(v)) == 2.0 ** k
    assert g is not None and float(_np(g)) == k * 2.0 ** (k - 1), f"k = {k}: the gradient is {g!r}"


# -- forward mode: an output the aids do not reach ----------------------------------------------------------------------
@clause("autodiff.jacobian", ref="tf221")
@pytest.mark.parametrize("op", ["sign", "zeros_like", "ones_like", "floor", "sign times x", "abs", "relu", "2x",
                                "sign plus x"])
@pytest.mark.parametrize("unconnected", ["none", "zero"])
def test_blind47_jvp_of_an_op_whose_gradient_ignores_the_upstream(tf, op, unconnected):
    """TF 2.21's _jvp_helper takes the transpose gradient (of the input gradients with respect to the aids) with
    unconnected NONE: an op whose gradient does not use the upstream gradient (Sign's zeros) or has none (Floor,
    ZerosLike, OnesLike) gives no tangent, so jvp() is None, zeros with unconnected_gradients="zero"; a tangent
    through other ops is the derivative times the tangent (sign(x) · x: sign(x) t, as sign is a constant there)."""
    x = tf.constant([1.5, -2.0, 0.0])
    t = np.array([1.0, 2.0, 3.0], np.float32)
    xs = np.array([1.5, -2.0, 0.0], np.float32)
    fns = {"sign": (tf.sign, None), "zeros_like": (tf.zeros_like, None), "ones_like": (tf.ones_like, None),
           "floor": (tf.floor, None), "sign times x": (lambda v: tf.sign(v) * v, np.sign(xs) * t),
           "abs": (tf.abs, np.sign(xs) * t), "relu": (tf.nn.relu, (xs > 0) * t), "2x": (lambda v: 2.0 * v, 2 * t),
           "sign plus x": (lambda v: tf.sign(v) + v, t)}
    fn, want = fns[op]
    with tf.autodiff.ForwardAccumulator(x, tf.constant(t)) as acc:
        y = fn(x)
    got = acc.jvp(y, unconnected_gradients=unconnected)
    if want is None and unconnected == "none":
        assert got is None, f"jvp of {op}: expected None (no tangent), got {got!r}"
        return
    np.testing.assert_array_equal(_np(got), np.zeros(3, np.float32) if want is None else want)


# -- tf.function: a concrete function's literal arguments -----------------------------------------------------------------
@clause("function.input-signature", ref="tf221")
@pytest.mark.parametrize("traced, given, ok", [
    (float("nan"), float("nan"), True), (2, 2.0, True), (2.0, 2, True), (1, True, True), (True, 1, True),
    (2, 3, False), (float("nan"), 1.0, False), (1.0, float("nan"), False), ("a", "a", True), ("a", "b", False)])
def test_blind47_concrete_function_literals_match_by_equality(tf, traced, given, ok):
    """A concrete function traced with a Python literal takes a call whose value casts to it: TF's Literal.cast
    matches NaN to NaN and anything else by == (2 and 2.0, 1 and True); another value is TypeError "Binding inputs
    to tf.function failed due to `Can not cast ... to Literal[...]`"."""

    @tf.function
    def f(x, n):
        return x * 2.0

    cf = f.get_concrete_function(tf.TensorSpec([], tf.float32), traced)
    if ok:
        assert float(_np(cf(tf.constant(3.0), given))) == 6.0
    else:
        with pytest.raises(TypeError, match="Can not cast"):
            cf(tf.constant(3.0), given)


# -- distribution: the cross-device ops' reduce and batch_reduce -------------------------------------------------------
@clause("extended.cross-device-ops", ref="tf221")
@pytest.mark.parametrize("op", ["SUM", "MEAN"])
@pytest.mark.parametrize("dest", ["the values", "/cpu:0", "/cpu:2"])
@pytest.mark.parametrize("batch", [False, True])
def test_blind47_cross_device_ops_reduce_every_replica(tf, backend, op, dest, batch):
    """tf.distribute.ReductionToOneDevice().reduce and .batch_reduce of a two-replica PerReplica (1 and 2) onto the
    replicas' own devices give a Mirrored value (3 or 1.5 on each), onto one device a single tensor: each pair is
    reduced, the shortcut that returns the values unreduced is only for a single replica on its destination."""
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    pr = s.experimental_distribute_values_from_function(
        lambda ctx: tf.constant(float(ctx.replica_id_in_sync_group + 1)))
    d = pr if dest == "the values" else dest
    c = tf.distribute.ReductionToOneDevice()
    reduce_op = getattr(tf.distribute.ReduceOp, op)
    outs = c.batch_reduce(reduce_op, [(pr, d), (pr, d)]) if batch else [c.reduce(reduce_op, pr, d)]
    want = 3.0 if op == "SUM" else 1.5
    for o in outs:
        got = [float(_np(v)) for v in s.experimental_local_results(o)]
        assert got == [want] * (2 if dest == "the values" else 1), f"{op} onto {dest}: got {got}"


@clause("extended.cross-device-ops", ref="tf221")
@pytest.mark.parametrize("batch", [False, True])
def test_blind47_cross_device_ops_one_replica_on_its_destination(tf, backend, batch):
    """A one-replica PerReplica on its destination device is returned as a copy of its value, not reduced."""
    backend.make_strategy("mirrored", 3)
    s = tf.distribute.MirroredStrategy(["/cpu:0"])
    pr = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(5.0))
    c = tf.distribute.ReductionToOneDevice()
    outs = c.batch_reduce("SUM", [(pr, pr)]) if batch else [c.reduce("SUM", pr, pr)]
    assert [float(_np(v)) for o in outs for v in s.experimental_local_results(o)] == [5.0]


# -- random ops ----------------------------------------------------------------------------------------------------------
@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("alg", ["philox", "threefry", "auto_select"])
@pytest.mark.parametrize("draw", ["binomial", "normal", "uniform_int", "truncated_normal"])
def test_blind47_generator_draws_by_algorithm(tf, alg, draw):
    """On CPU a Generator's StatefulRandomBinomial takes Philox (alg 1) only: ThreeFry (2) and auto_select (3) are
    InvalidArgumentError "Unsupported algorithm id: N"; the other draws read the state with RngReadAndSkip, which
    takes Philox and auto_select (Philox on CPU) and refuses ThreeFry with UnimplementedError "Non-XLA devices don't
    support the ThreeFry algorithm"."""
    g = tf.random.Generator.from_seed(1, alg=alg)
    fns = {"binomial": lambda: g.binomial([2], counts=5.0, probs=0.5),
           "normal": lambda: g.normal([2]), "uniform_int": lambda: g.uniform([2], 0, 5, dtype=tf.int32),
           "truncated_normal": lambda: g.truncated_normal([2])}
    if draw == "binomial" and alg != "philox":
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Unsupported algorithm id: {2 if alg == 'threefry' else 3}"):
            fns[draw]()
    elif alg == "threefry":
        with pytest.raises(tf.errors.UnimplementedError, match="ThreeFry"):
            fns[draw]()
    else:
        assert _np(fns[draw]()).shape == (2,)


@clause("ops.random-ranges", ref="tf221")
@pytest.mark.parametrize("fn", ["truncated_normal", "normal"])
@pytest.mark.parametrize("which", ["stddev", "mean", "both"])
def test_blind47_tensor_moments_are_differentiable(tf, fn, which):
    """A variable mean or stddev of tf.random.normal/truncated_normal is TF's `rnd * stddev + mean`: the gradient of
    sum(draw) is the sum of the standard draws for stddev and the count for mean, the standard draw being the same
    seeds' draw with mean 0 and stddev 1 (a number mean or stddev folds into the op and has no gradient)."""
    draw = getattr(tf.random, fn)
    mean = tf.Variable(1.0) if which in ("mean", "both") else 1.0
    std = tf.Variable(2.0) if which in ("stddev", "both") else 2.0
    tf.random.set_seed(3)
    with tf.GradientTape() as t:
        y = draw([4], mean=mean, stddev=std, seed=5)
        loss = tf.reduce_sum(y)
    sources = [v for v in (mean, std) if isinstance(v, tf.Variable)]
    grads = t.gradient(loss, sources)
    tf.random.set_seed(3)
    z = _np(draw([4], seed=5))
    np.testing.assert_allclose(_np(y), z * 2.0 + 1.0, rtol=1e-6)
    want = {"mean": 4.0, "stddev": float(np.sum(z))}
    names = [n for n in ("mean", "stddev") if n == which or which == "both"]
    for n, g in zip(names, grads):
        assert g is not None, f"{fn}: no gradient for a variable {n}"
        np.testing.assert_allclose(float(_np(g)), want[n], rtol=1e-5)


@clause("ops.random-gamma-poisson", ref="tf221")
@pytest.mark.parametrize("dtype", [None, "float32", "float64", "int32", "int64", "float16"])
@pytest.mark.parametrize("stateless", [False, True])
def test_blind47_poisson_dtypes(tf, dtype, stateless):
    """tf.random.poisson draws float32 by default and tf.random.stateless_poisson int32 (their signatures' defaults),
    each any of float16/32/64 and int32/64 when asked."""
    kw = {} if dtype is None else {"dtype": getattr(tf, dtype)}
    out = tf.random.stateless_poisson([3], seed=[1, 2], lam=2.0, **kw) if stateless else \
        tf.random.poisson([3], [2.0], seed=1, **kw)
    want = dtype or ("int32" if stateless else "float32")
    assert out.dtype.name == want
    assert _np(out).shape == ((3,) if stateless else (3, 1))


# -- checkpoints: a compiled model's optimizer -------------------------------------------------------------------------
@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("how", ["model only", "model and optimizer", "optimizer only"])
@pytest.mark.parametrize("optimizer", ["adam", "sgd_momentum"])
def test_blind47_checkpoint_of_a_compiled_model_keeps_its_optimizer(tf, keras, tmp_path, how, optimizer):
    """TF 2.21 tracks a compiled Keras model's `optimizer` attribute: tf.train.Checkpoint(model=m) saves and
    restores the optimizer's iterations and slots with the weights, as a Checkpoint naming the optimizer does; a
    fresh compiled model restored from it holds the first model's values."""
    x = np.arange(16, dtype=np.float32).reshape(8, 2) / 8
    y = np.arange(8, dtype=np.float32).reshape(8, 1) / 4

    def make():
        m = _dense(keras)
        opt = keras.optimizers.Adam(0.1) if optimizer == "adam" else keras.optimizers.SGD(0.1, momentum=0.9)
        m.compile(opt, "mse")
        return m

    def parts(m):
        return {"model only": {"model": m}, "model and optimizer": {"model": m, "optimizer": m.optimizer},
                "optimizer only": {"optimizer": m.optimizer}}[how]

    m = make()
    m.fit(x, y, batch_size=4, verbose=0, shuffle=False)
    want = [_np(v).copy() for v in m.optimizer.variables]
    path = tf.train.Checkpoint(**parts(m)).save(str(tmp_path / "c"))
    m2 = make()
    m2.optimizer.build(m2.trainable_variables)
    tf.train.Checkpoint(**parts(m2)).restore(path)
    got = [_np(v) for v in m2.optimizer.variables]
    assert len(got) == len(want)
    assert int(got[0]) == 2, f"{how}: the restored optimizer's iterations are {got[0]}"
    for a, b in zip(got, want):
        np.testing.assert_array_equal(a, b)
    if how != "optimizer only":
        for a, b in zip(m2.get_weights(), m.get_weights()):
            np.testing.assert_array_equal(a, b)


# -- saving: a .keras file of a subclassed model with its own build ------------------------------------------------------
@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("builds", ["a weight", "a sublayer", "both"])
def test_blind47_load_model_calls_the_models_own_build(tf, keras, tmp_path, builds):
    """Keras 3.15's build_from_config calls a model's own build(input_shape) (a model without one is built by
    running call on symbolic inputs): a subclassed model whose build makes the weights its call needs comes back
    from a .keras file with them, the same outputs and the same weights."""
    name = f"Blind47Own{builds.replace(' ', '_')}"

    def build(self, input_shape):
        if builds in ("a weight", "both"):
            self.w = self.add_weight(shape=(input_shape[-1], 1), initializer="ones", name="w")
        if builds in ("a sublayer", "both"):
            self.d = keras.layers.Dense(1, kernel_initializer="ones")
            self.d.build(input_shape)

    def call(self, x):
        out = 0.0
        if builds in ("a weight", "both"):
            out = out + keras.ops.matmul(x, self.w)
        if builds in ("a sublayer", "both"):
            out = out + self.d(x)
        return out

    cls = keras.utils.register_keras_serializable("blind47")(type(name, (keras.Model,), {"build": build, "call": call}))
    x = np.array([[1.0, 2.0], [3.0, -1.0]], np.float32)
    m = cls()
    m(x)
    m.set_weights([np.array(w) * (i + 2) for i, w in enumerate(m.get_weights())])
    want = _np(m(x))
    path = str(tmp_path / "m.keras")
    m.save(path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m2 = keras.models.load_model(path)
    np.testing.assert_allclose(_np(m2(x)), want, rtol=1e-6)
    for a, b in zip(m2.get_weights(), m.get_weights()):
        np.testing.assert_array_equal(a, b)
