"""Gaps the forty-third blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, gradients and the tape, tf.function, tf.data, checkpoints and
saving, distribution, random ops) that the suite stated for one spelling, one option value or one input only, or
never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import json
import os
import zipfile

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


def _dense(keras):
    return keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])


# -- the trainer: make_*_function's cache, force and return value --------------------------------------------------------
@clause("keras.fit.step-replay", ref="tf221")
@pytest.mark.parametrize("kind", ["train", "test", "predict"])
def test_blind43_make_functions_cache_and_force(keras, kind):
    """Keras 3.15's TF trainer: `make_<kind>_function(force=False)` returns the cached `<kind>_function` when there is
    one; otherwise, and always with force=True, it makes a new one, stores it and returns None (no return statement
    after the assignment)."""
    model = _dense(keras)
    model.compile("sgd", "mse")
    make = getattr(model, f"make_{kind}_function")
    assert make() is None, f"make_{kind}_function(): expected None when it makes the function"
    first = getattr(model, f"{kind}_function")
    assert first is not None and callable(first), f"{kind}_function after make_{kind}_function(): got {first!r}"
    assert make() is first, f"make_{kind}_function() again: expected the cached function"
    assert make(force=False) is first, f"make_{kind}_function(force=False): expected the cached function"
    assert make(force=True) is None, f"make_{kind}_function(force=True): expected None (a new function made)"
    second = getattr(model, f"{kind}_function")
    assert second is not first, f"make_{kind}_function(force=True) kept the old {kind}_function"
    assert make() is second


# -- the trainer: a model never compiled ------------------------------------------------------------------------------------
@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("method", ["fit", "evaluate", "train_on_batch", "test_on_batch", "predict", "predict_on_batch"])
def test_blind43_uncompiled_model_trains_and_evaluates_nothing(keras, method):
    """Keras 3.15 `_assert_compile_called`: fit, evaluate, train_on_batch and test_on_batch of a model never compiled
    are ValueError "You must call `compile()` before using the model."; predict and predict_on_batch need no compile
    (the outputs of the Dense layer with a ones kernel: the rows' sums)."""
    model = _dense(keras)
    x, y = np.array([[1.0, 2.0], [3.0, 4.0]], "float32"), np.zeros((2, 1), "float32")
    call = {"fit": lambda: model.fit(x, y, verbose=0), "evaluate": lambda: model.evaluate(x, y, verbose=0),
            "train_on_batch": lambda: model.train_on_batch(x, y), "test_on_batch": lambda: model.test_on_batch(x, y),
            "predict": lambda: model.predict(x, verbose=0), "predict_on_batch": lambda: model.predict_on_batch(x)}
    if method.startswith("predict"):
        np.testing.assert_allclose(_np(call[method]()), x.sum(axis=1, keepdims=True))
        return
    with pytest.raises(ValueError, match=r"You must call `compile\(\)` before using the model"):
        call[method]()


# -- the trainer: a PyDataset iterated directly ------------------------------------------------------------------------------
@clause("keras.fit.python-inputs", ref="tf221")
@pytest.mark.parametrize("size", ["__len__", "num_batches"])
@pytest.mark.parametrize("n", [1, 2, 3])
def test_blind43_py_dataset_iterates_every_batch(keras, size, n):
    """iter(py_dataset) (Keras 3.15 PyDataset.__iter__): `self[i]` for i in range(num_batches), num_batches being
    len(self) by default or the property a subclass defines; fit runs one step per batch."""
    class Batches(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()

        def __getitem__(self, i):
            return np.full((1, 2), float(i), "float32"), np.zeros((1, 1), "float32")

    if size == "__len__":
        Batches.__len__ = lambda self: n
    else:
        Batches.num_batches = property(lambda self: n)
    got = [float(_np(b[0])[0, 0]) for b in iter(Batches())]
    assert got == [float(i) for i in range(n)], f"iter(PyDataset of {n} batches by {size}): got {got}"
    model = _dense(keras)
    model.compile("sgd", "mse")
    steps = []

    class Count(keras.callbacks.Callback):
        def on_train_batch_end(self, batch, logs=None):
            steps.append(batch)

    model.fit(Batches(), epochs=1, verbose=0, callbacks=[Count()])
    assert steps == list(range(n)), f"fit on a PyDataset of {n} batches: steps {steps}"


# -- the tape and forward accumulators: what may be a primal, a source or a target -------------------------------------------
@clause("autodiff.jacobian", ref="tf221")
@pytest.mark.parametrize("primals", ["list [x, x]", "tuple (x, x)", "nested [x, (y, x)]", "variable twice",
                                     "distinct [x, y]"])
def test_blind43_forward_accumulator_refuses_a_repeated_primal(tf, primals):
    """tf.autodiff.ForwardAccumulator(primals, tangents) (forwardprop.py: `if id(primal) in seen` over the flattened
    primals): a tensor or variable listed twice is ValueError "...was specified as a primal multiple times..."
    (its text never formatted); distinct primals give their tangents' jvps (d(2x + 3y) = 2·1 + 3·10)."""
    x, y = tf.constant(1.0), tf.constant(2.0)
    v = tf.Variable(1.0)
    spec = {"list [x, x]": ([x, x], [1.0, 1.0]), "tuple (x, x)": ((x, x), (1.0, 1.0)),
            "nested [x, (y, x)]": ([x, (y, x)], [1.0, (1.0, 1.0)]), "variable twice": ([v, v], [1.0, 1.0]),
            "distinct [x, y]": ([x, y], [1.0, 10.0])}[primals]
    if primals != "distinct [x, y]":
        with pytest.raises(ValueError, match="specified as a primal multiple times"):
            tf.autodiff.ForwardAccumulator(*spec)
        return
    with tf.autodiff.ForwardAccumulator(*spec) as acc:
        z = 2.0 * x + 3.0 * y
    assert float(_np(acc.jvp(z))) == 32.0


@clause("autodiff.unconnected", ref="tf221")
@pytest.mark.parametrize("spelling", ["enum ZERO", "string zero", "enum NONE", "string none", "default"])
def test_blind43_jvp_unconnected_gradients_spellings(tf, spelling):
    """ForwardAccumulator.jvp(t, unconnected_gradients=u) of a tensor the primals do not reach: zeros like it for
    tf.UnconnectedGradients.ZERO or "zero", None for NONE, "none" and the default; a connected tensor its jvp."""
    x, other = tf.constant([1.0, 2.0]), tf.constant([5.0, 6.0, 7.0])
    u = {"enum ZERO": tf.UnconnectedGradients.ZERO, "string zero": "zero", "enum NONE": tf.UnconnectedGradients.NONE,
         "string none": "none", "default": None}[spelling]
    kw = {} if u is None else {"unconnected_gradients": u}
    with tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 1.0])) as acc:
        z = x * 3.0
    got = acc.jvp(other, **kw)
    if "ZERO" in spelling or spelling == "string zero":
        assert got is not None, f"jvp(unconnected_gradients={u!r}): expected zeros, got None"
        np.testing.assert_array_equal(_np(got), [0.0, 0.0, 0.0])
    else:
        assert got is None, f"jvp(unconnected_gradients={u!r}): expected None, got {got!r}"
    np.testing.assert_array_equal(_np(acc.jvp(z, **kw)), [3.0, 3.0])


@clause("autodiff.unconnected", ref="tf221")
@pytest.mark.parametrize("value", ["zeros", "None", "ZERO", "zero", "none"])
def test_blind43_tape_unconnected_gradients_values(tf, value):
    """GradientTape.gradient(unconnected_gradients=u): the strings "none" and "zero" (lower case, the enum's values)
    are accepted; any other string is ValueError "Unknown value for unconnected_gradients: ..." (UnconnectedGradients(u)
    fails)."""
    x, other = tf.constant(1.0), tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 2.0
    if value not in ("zero", "none"):
        with pytest.raises(ValueError, match="Unknown value for unconnected_gradients"):
            t.gradient(y, other, unconnected_gradients=value)
        return
    got = t.gradient(y, other, unconnected_gradients=value)
    assert (got is None) == (value == "none"), f"unconnected_gradients={value!r}: got {got!r}"
    if value == "zero":
        assert float(_np(got)) == 0.0


@clause("autodiff.targets", ref="tf221")
@pytest.mark.parametrize("where", ["source", "target", "source in a list", "target in a dict"])
def test_blind43_sparse_tensor_is_no_gradient_source_or_target(tf, where):
    """A tf.SparseTensor as a source or target of GradientTape.gradient is ValueError "Type SparseTensor is not
    supported as a gradient source or gradient target." (the C tape's MakeTensorIDList), in a structure too."""
    st = tf.sparse.from_dense(tf.constant([[1.0, 0.0]]))
    x = tf.constant(1.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * 2.0
    target, sources = {"source": (y, st), "target": (st, x), "source in a list": (y, [x, st]),
                       "target in a dict": ({"a": y, "b": st}, x)}[where]
    with pytest.raises(ValueError, match="Type SparseTensor is not supported as a gradient source or gradient target"):
        t.gradient(target, sources)


# -- tf.function: copies share traces; a variable-creating function's concrete function traces twice -------------------------
@clause("function.tracing-count", ref="tf221")
@pytest.mark.parametrize("called", ["copy", "original", "both"])
def test_blind43_a_shallow_copy_shares_the_tracing_count(tf, called):
    """copy.copy of a tf.function made before any call shares TF 2.21's function cache with the original: a trace
    through either counts for both, and a signature traced through one is not traced again through the other."""
    import copy
    f = tf.function(lambda x: x * 2.0)
    c = copy.copy(f)
    if called in ("copy", "both"):
        c(tf.constant(1.0))
    if called in ("original", "both"):
        f(tf.constant(3.0))
    assert (f.experimental_get_tracing_count(), c.experimental_get_tracing_count()) == (1, 1)
    c(tf.constant([1.0, 2.0]))
    assert (f.experimental_get_tracing_count(), c.experimental_get_tracing_count()) == (2, 2)


@clause("function.tracing-count", ref="tf221")
@pytest.mark.parametrize("first", ["get_concrete_function", "call"])
def test_blind43_variable_creating_function_traces_twice(tf, first):
    """A tf.function that creates a variable on its first trace is traced a second time with creation refused
    (polymorphic_function's _initialize then _variable_creation_config): its tracing count is 2 after the first
    get_concrete_function or call, and stays 2 for the same signature."""
    made = []

    @tf.function
    def f(x):
        if not made:
            made.append(tf.Variable(1.0))
        return x * made[0]
    if first == "call":
        f(tf.constant(2.0))
    else:
        f.get_concrete_function(tf.TensorSpec([], tf.float32))
    assert f.experimental_get_tracing_count() == 2, f"after the first {first}: {f.experimental_get_tracing_count()}"
    assert float(_np(f(tf.constant(3.0)))) == 3.0
    assert f.experimental_get_tracing_count() == 2


# -- tf.data -----------------------------------------------------------------------------------------------------------------
@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("pipeline", ["range", "filter", "repeat()", "repeat(2)", "take of filter", "batch"])
def test_blind43_len_needs_a_known_finite_cardinality(tf, pipeline):
    """len(dataset) (DatasetV2.__len__): the cardinality when it is known and finite; TypeError "The dataset is
    infinite." for an infinite one and TypeError "The dataset length is unknown." for an unknown one."""
    r = tf.data.Dataset.range(5)
    ds, want = {"range": (r, 5), "filter": (r.filter(lambda v: True), "unknown"), "repeat()": (r.repeat(), "infinite"),
                "repeat(2)": (r.repeat(2), 10), "take of filter": (r.filter(lambda v: True).take(2), "unknown"),
                "batch": (r.batch(2), 3)}[pipeline]
    if isinstance(want, int):
        assert len(ds) == want
        return
    msg = "The dataset is infinite." if want == "infinite" else "The dataset length is unknown."
    with pytest.raises(TypeError, match=msg):
        len(ds)


@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("given", ["list", "tensor", "int", "dataset of one", "dataset of two"])
def test_blind43_get_single_element_checks_its_argument(tf, given):
    """tf.data.experimental.get_single_element(d): a non-dataset is TypeError "Invalid `dataset`. Expected a
    `tf.data.Dataset` object but got ..."; a dataset of one element gives it, of two InvalidArgumentError."""
    value = {"list": [1, 2], "tensor": tf.constant([1, 2]), "int": 3,
             "dataset of one": tf.data.Dataset.from_tensors(7), "dataset of two": tf.data.Dataset.range(2)}[given]
    if not given.startswith("dataset"):
        with pytest.raises(TypeError, match="Invalid `dataset`. Expected a `tf.data.Dataset` object"):
            tf.data.experimental.get_single_element(value)
        return
    if given == "dataset of two":
        with pytest.raises(tf.errors.InvalidArgumentError):
            tf.data.experimental.get_single_element(value)
        return
    assert int(_np(tf.data.experimental.get_single_element(value))) == 7


@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("returns", ["int", "None", "list", "tensor", "dataset"])
def test_blind43_apply_needs_a_dataset_back(tf, returns):
    """Dataset.apply(fn): fn's result must be a dataset (TypeError "`transformation_func` must return a
    `tf.data.Dataset` object. Got <type>."); a dataset is returned as it is."""
    ds = tf.data.Dataset.range(4)
    out = {"int": 5, "None": None, "list": [1], "tensor": tf.constant(1), "dataset": ds.skip(1)}[returns]
    if returns != "dataset":
        with pytest.raises(TypeError, match="`transformation_func` must return a `tf.data.Dataset` object"):
            ds.apply(lambda d: out)
        return
    assert [int(v) for v in ds.apply(lambda d: d.skip(1))] == [1, 2, 3]


@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("n", [6, 7, 8, 3, 2])
@pytest.mark.parametrize("source", ["slices", "range"])
def test_blind43_batch_drop_remainder_keeps_every_full_batch(tf, n, source):
    """batch(3, drop_remainder=True) gives floor(n / 3) batches, the last full one included; without it
    ceil(n / 3), the last partial; the same for tensor slices and for range."""
    ds = tf.data.Dataset.from_tensor_slices(np.arange(n)) if source == "slices" else tf.data.Dataset.range(n)
    rows = list(range(n))
    for drop in (True, False):
        got = [[int(v) for v in _np(b)] for b in ds.batch(3, drop_remainder=drop)]
        stop = n - n % 3 if drop else n
        want = [rows[i:i + 3] for i in range(0, stop, 3)]
        assert got == want, f"{source}({n}).batch(3, drop_remainder={drop}): expected {want}, got {got}"
        assert int(_np(ds.batch(3, drop_remainder=drop).cardinality())) == len(want)


# -- checkpoints and saving ------------------------------------------------------------------------------------------------
@clause("checkpoint.restore-status", ref="tf221")
@pytest.mark.parametrize("root", ["[]", "{}", "0", "None", "''", "truthy int", "truthy list"])
def test_blind43_checkpoint_falsy_root_is_no_root(tf, tmp_path, root):
    """tf.train.Checkpoint(root=r) (TF 2.21: `if root:`): a falsy r ([], {}, 0, None, '') is no root at all, and the
    checkpoint saves and restores its other dependencies; a truthy value that is not a trackable object is
    ValueError "`Checkpoint` was expecting root to be a trackable object"."""
    value = {"[]": [], "{}": {}, "0": 0, "None": None, "''": "", "truthy int": 1, "truthy list": [1]}[root]
    v = tf.Variable(1.0)
    if root.startswith("truthy"):
        with pytest.raises(ValueError, match="`Checkpoint` was expecting root to be a trackable object"):
            tf.train.Checkpoint(root=value, v=v)
        return
    ck = tf.train.Checkpoint(root=value, v=v)
    path = ck.save(str(tmp_path / "ck"))
    v.assign(5.0)
    ck.restore(path)
    assert float(_np(v)) == 1.0


@clause("checkpoint.restore-status", ref="tf221")
@pytest.mark.parametrize("then", ["int", "string", "None", "another variable"])
def test_blind43_checkpoint_attribute_reads_its_last_assignment(tf, tmp_path, then):
    """checkpoint.x = variable, then checkpoint.x = value: reading checkpoint.x gives the last value assigned (a
    plain attribute for a non-trackable value, a new dependency for a trackable one)."""
    ck = tf.train.Checkpoint()
    first = tf.Variable(1.0)
    ck.x = first
    value = {"int": 5, "string": "s", "None": None, "another variable": tf.Variable(2.0)}[then]
    ck.x = value
    got = ck.x
    assert got is value, f"checkpoint.x after assigning {value!r}: got {got!r}"


@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("optimizer", ["sgd", "adam", "SGD object"])
def test_blind43_keras_file_compile_config_serializes_the_optimizer(keras, tmp_path, optimizer):
    """A compiled model's .keras file: config.json's compile_config holds the optimizer serialized (Keras 3.15
    compile stores optimizers.get(optimizer), serialized with {"module": "keras.optimizers", "class_name", ...}) even
    when compile() was given its name; the loss stays as given ("mse")."""
    model = _dense(keras)
    opt = keras.optimizers.SGD(learning_rate=0.5) if optimizer == "SGD object" else optimizer
    model.compile(opt, "mse")
    path = str(tmp_path / "m.keras")
    model.save(path)
    with zipfile.ZipFile(path) as z:
        cfg = json.loads(z.read("config.json"))["compile_config"]
    o = cfg["optimizer"]
    want = {"sgd": "SGD", "adam": "Adam", "SGD object": "SGD"}[optimizer]
    assert isinstance(o, dict) and o.get("class_name") == want and o.get("module") == "keras.optimizers", \
        f"compile_config['optimizer'] for compile({optimizer!r}): got {o!r}"
    if optimizer == "SGD object":
        assert o["config"]["learning_rate"] == pytest.approx(0.5)
    assert cfg["loss"] == "mse"
    loaded = keras.models.load_model(path)
    assert type(loaded.optimizer).__name__ == want


# -- distribution ---------------------------------------------------------------------------------------------------------
@clause("mirrored.variables", ref="tf221")
@pytest.mark.parametrize("devices", ["cpu:0 twice spelled apart", "same spelling", "CPU upper", "distinct"])
def test_blind43_mirrored_refuses_a_device_named_twice(tf, backend, devices):
    """MirroredStrategy(devices): the devices are resolved first (device_util.resolve), so one device named twice in
    any spellings is AssertionError "No duplicates allowed in `devices` argument"; distinct devices give one replica
    each."""
    backend.make_strategy("mirrored", 2)   # (the backend's devices made)
    names = {"cpu:0 twice spelled apart": ["/cpu:0", "/device:CPU:0"], "same spelling": ["/cpu:0", "/cpu:0"],
             "CPU upper": ["/cpu:1", "/CPU:1"], "distinct": ["/cpu:0", "/cpu:1"]}[devices]
    if devices != "distinct":
        with pytest.raises(AssertionError, match="No duplicates allowed in `devices` argument"):
            tf.distribute.MirroredStrategy(names)
        return
    assert tf.distribute.MirroredStrategy(names).num_replicas_in_sync == 2


@clause("reduce.axis-none", ref="tf221")
@pytest.mark.parametrize("how", ["reduce axis None", "reduce axis 0", "gather"])
def test_blind43_sparse_per_replica_values_are_refused(tf, backend, how):
    """A PerReplica of tf.SparseTensors: reduce(axis=None) reads the components' `.device` (AttributeError
    "'SparseTensor' object has no attribute 'device'"); reduce along an axis and gather convert them to tensors
    (TypeError)."""
    strategy = backend.make_strategy("mirrored", 2)
    pr = strategy.run(lambda: tf.sparse.from_dense(tf.constant([[1.0, 0.0]])))
    if how == "reduce axis None":
        with pytest.raises(AttributeError, match="'SparseTensor' object has no attribute 'device'"):
            strategy.reduce("SUM", pr, axis=None)
    elif how == "reduce axis 0":
        with pytest.raises(TypeError):
            strategy.reduce("SUM", pr, axis=0)
    else:
        with pytest.raises(TypeError):
            strategy.gather(pr, axis=0)


@clause("input.interface-types", ref="tf221")
@pytest.mark.parametrize("field", ["experimental_fetch_to_device", "experimental_replication_mode",
                                   "experimental_place_dataset_on_device", "experimental_per_replica_buffer_size"])
def test_blind43_input_options_defaults(tf, field):
    """tf.distribute.InputOptions() (distribute_lib.InputOptions.__new__): fetch_to_device None becomes True,
    replication PER_WORKER, place_dataset_on_device False, per_replica_buffer_size 1; a given False stays."""
    opts = tf.distribute.InputOptions()
    want = {"experimental_fetch_to_device": True,
            "experimental_replication_mode": tf.distribute.InputReplicationMode.PER_WORKER,
            "experimental_place_dataset_on_device": False, "experimental_per_replica_buffer_size": 1}[field]
    assert getattr(opts, field) == want, f"InputOptions().{field}: expected {want!r}, got {getattr(opts, field)!r}"
    assert tf.distribute.InputOptions(experimental_fetch_to_device=False).experimental_fetch_to_device is False


# -- random ops -----------------------------------------------------------------------------------------------------------
@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "int64"])
@pytest.mark.parametrize("bounds", [(3, 3), (4, 3), (3, 4), (-2, -1), (0, 0)])
def test_blind43_uniform_int_needs_minval_below_maxval(tf, dtype, bounds):
    """tf.random.uniform of an integer dtype (RandomUniformInt): minval >= maxval is InvalidArgumentError "Need minval
    < maxval, got lo >= hi"; a range of one value draws it everywhere."""
    lo, hi = bounds
    if lo >= hi:
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Need minval < maxval, got {lo} >= {hi}"):
            tf.random.uniform([3], minval=lo, maxval=hi, dtype=getattr(tf, dtype), seed=1)
        return
    got = tf.random.uniform([3], minval=lo, maxval=hi, dtype=getattr(tf, dtype), seed=1)
    assert got.dtype == getattr(tf, dtype)
    np.testing.assert_array_equal(_np(got), [lo] * 3)


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("op", ["categorical", "stateless_categorical"])
@pytest.mark.parametrize("classes", [0, 1, 3])
def test_blind43_categorical_needs_a_class(tf, op, classes):
    """tf.random.categorical / stateless_categorical of logits [2, classes]: no class is InvalidArgumentError
    "num_classes should be positive, got 0"; one class draws index 0 everywhere; the samples' default dtype is int64
    (random_ops: `dtype=None` -> int64), and dtype=int32 gives int32."""
    logits = tf.zeros([2, classes])
    draw = (lambda **kw: tf.random.categorical(logits, 4, seed=1, **kw)) if op == "categorical" else \
        (lambda **kw: tf.random.stateless_categorical(logits, 4, seed=[1, 2], **kw))
    if classes == 0:
        with pytest.raises(tf.errors.InvalidArgumentError, match="num_classes should be positive, got 0"):
            draw()
        return
    got = draw()
    assert got.dtype == tf.int64, f"{op}'s default dtype: expected int64, got {got.dtype}"
    assert list(got.shape) == [2, 4]
    assert draw(dtype=tf.int32).dtype == tf.int32
    if classes == 1:
        np.testing.assert_array_equal(_np(got), np.zeros((2, 4), np.int64))
    else:
        assert set(_np(got).ravel().tolist()) <= {0, 1, 2}


@clause("keras.random.distributions", ref="tf221")
@pytest.mark.parametrize("seed", ["1.5", "2.0", "string", "numpy int", "True", "int", "None"])
def test_blind43_seed_generator_needs_an_integer_seed(keras, seed):
    """keras.random.SeedGenerator(seed) (Keras 3.15 `if not isinstance(seed, int)`): a seed that is not a Python int
    (a float, even 2.0, a string, a NumPy integer) is ValueError "Argument `seed` must be an integer"; a bool passes that
    check and fails converting [seed, 0] to a tensor (ValueError "Can't convert Python sequence with mixed types");
    an int is its state's first element, None a drawn one."""
    value = {"1.5": 1.5, "2.0": 2.0, "string": "3", "True": True, "numpy int": np.int64(7), "int": 7,
             "None": None}[seed]
    if seed in ("1.5", "2.0", "string", "numpy int"):
        with pytest.raises(ValueError, match="Argument `seed` must be an integer"):
            keras.random.SeedGenerator(value)
        return
    if seed == "True":
        with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types to Tensor"):
            keras.random.SeedGenerator(value)
        return
    g = keras.random.SeedGenerator(value)
    state = _np(g.state)
    assert state.shape == (2,) and int(state[1]) == 0
    if value is not None:
        assert int(state[0]) == 7


@clause("keras.random.distributions", ref="tf221")
@pytest.mark.parametrize("where", ["keras.random.normal", "keras.random.uniform", "GlorotUniform", "RandomNormal"])
@pytest.mark.parametrize("seed", ["numpy int", "True", "1.5", "int"])
def test_blind43_draw_and_initializer_seeds_are_python_ints(keras, where, seed):
    """Keras 3.15's draw_seed (`isinstance(seed, int)`, then convert_to_tensor([seed, 0])) and RandomInitializer
    (`isinstance(seed, (int, SeedGenerator))`): a NumPy integer or a float is ValueError (draw: "Argument `seed` must be
    either an integer or an instance of `SeedGenerator`", initializer: "`seed` argument should be an instance of
    `keras.random.SeedGenerator()` or an integer"); a bool passes both checks and fails at the draw ("Can't convert
    Python sequence with mixed types to Tensor."); an int draws, the same values twice."""
    value = {"numpy int": np.int64(3), "True": True, "1.5": 1.5, "int": 3}[seed]
    if where.startswith("keras.random"):
        fn = getattr(keras.random, where.split(".")[-1])
        draw = lambda: fn((3,), seed=value)   # noqa: E731
        refused = "Argument `seed` must be either an integer or an instance of `SeedGenerator`"
    else:
        init = getattr(keras.initializers, where)
        if seed in ("numpy int", "1.5"):
            with pytest.raises(ValueError, match="`seed` argument should be an instance of"):
                init(seed=value)
            return
        draw = lambda: init(seed=value)((3,))   # noqa: E731
        refused = None
    if seed == "True":
        with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types to Tensor"):
            draw()
        return
    if seed in ("numpy int", "1.5"):
        with pytest.raises(ValueError, match=refused):
            draw()
        return
    a, b = _np(draw()), _np(draw())
    assert a.shape == (3,)
    np.testing.assert_array_equal(a, b)
