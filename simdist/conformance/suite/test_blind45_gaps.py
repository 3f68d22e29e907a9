"""Gaps the forty-fifth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, gradients and the tape, tf.function, tf.data, checkpoints and
saving, distribution, random ops) that the suite stated for one spelling, one option value or one input only, or
never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings or two runs, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import copy
import os
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause

X = np.arange(10, dtype=np.float32).reshape(5, 2) / 8
Y = np.arange(5, dtype=np.float32).reshape(5, 1) / 4


def _dense(keras):
    return keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])


def _iterate(tf, ds, limit=12):
    """The elements of `ds` as floats, an element's error as its class name, 'end' at the end."""
    it = iter(ds)
    out = []
    for _ in range(limit):
        try:
            out.append(float(_np(next(it))))
        except StopIteration:
            out.append("end")
            break
        except tf.errors.InvalidArgumentError:
            out.append("error")
    return out


# -- tf.data: take and skip over an input's errors ------------------------------------------------------------------------
def _take_rule(items, n):
    """TakeDataset's kernel: an input's error is passed on and not counted."""
    out, taken = [], 0
    for v in items:
        if taken >= n:
            break
        out.append(v)
        taken += v != "error"
    return out + ["end"]


def _skip_rule(items, n):
    """SkipDataset's kernel: each call skips with `input->Skip(count - i_)` and adds what it skipped to i_ only when
    that Skip returns OK; an error inside it is passed on (the call's progress lost), the next call skips again."""
    out, i, pos = [], 0, 0
    while pos < len(items):
        if i < n:
            run = 0
            failed = False
            while i + run < n and pos < len(items):
                v = items[pos]
                pos += 1
                if v == "error":
                    failed = True
                    break
                run += 1
            if failed:
                out.append("error")
                continue
            i += run
            if pos >= len(items):
                break
        v = items[pos]
        pos += 1
        out.append(v)
    return out + ["end"]


@clause("dataset.ignore-errors", ref="tf221")
@pytest.mark.parametrize("texts", [("1", "a", "2", "3", "4", "5"), ("1", "a", "b", "3", "4", "5"),
                                   ("1", "2", "a", "3", "4", "5", "6"), ("a", "1", "2")])
@pytest.mark.parametrize("op", ["skip", "take"])
@pytest.mark.parametrize("n", [0, 1, 2, 3, 4])
def test_blind45_take_and_skip_around_errors(tf, texts, op, n):
    """take(n) and skip(n) over a map whose function fails on some elements (tf.strings.to_number of a non-number:
    InvalidArgumentError): the iterator raises each error and goes on. TakeDataset does not count an error;
    SkipDataset adds the elements a Skip call passed over only when the call returns OK, so an error met while
    skipping costs that call's progress (skip(2) of [1, error, 2, 3, 4, 5] is error, 4, 5)."""
    items = ["error" if not t.isdigit() else float(t) for t in texts]
    ds = tf.data.Dataset.from_tensor_slices(list(texts)).map(tf.strings.to_number)
    want = _take_rule(items, n) if op == "take" else _skip_rule(items, n)
    got = _iterate(tf, getattr(ds, op)(n))
    assert got == want, f"{op}({n}) of {list(texts)}: expected {want}, got {got}"


# -- tf.data: the arguments of range, window and from_generator -------------------------------------------------------------
@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("args", [(5,), (2, 5), (5, 2), (-2, 3), (1, 9, 3), (9, 1, -3), (0, 0), (3, 3, 1)])
def test_blind45_range_reads_its_arguments_as_python_range(tf, args):
    """Dataset.range(stop), range(start, stop) and range(start, stop, step) are Python's range."""
    got = [int(_np(v)) for v in tf.data.Dataset.range(*args)]
    assert got == list(range(*args)), f"range{args}: expected {list(range(*args))}, got {got}"


@clause("dataset.window", ref="tf221")
@pytest.mark.parametrize("what", ["size", "shift", "stride"])
@pytest.mark.parametrize("value", [0, -1])
def test_blind45_window_arguments_must_be_positive(tf, what, value):
    """window(size, shift, stride): each must be greater than zero, InvalidArgumentError "Window <what> must be
    greater than zero." when the dataset is built."""
    kwargs = {"size": 2, "shift": 1, "stride": 1, what: value}
    with pytest.raises(tf.errors.InvalidArgumentError, match=f"Window {what} must be greater than zero"):
        tf.data.Dataset.range(4).window(**kwargs)


@clause("dataset.api-surface", ref="tf221")
@pytest.mark.parametrize("given", ["output_types", "output_shapes", "both", "neither"])
def test_blind45_from_generator_signature_excludes_types_and_shapes(tf, given):
    """from_generator(output_signature=...) with output_types or output_shapes as well is TypeError; the signature
    alone gives its element_spec."""
    def gen():
        yield 1

    extra = {"output_types": {"output_types": tf.int32}, "output_shapes": {"output_shapes": tf.TensorShape([])},
             "both": {"output_types": tf.int32, "output_shapes": tf.TensorShape([])}, "neither": {}}[given]
    sig = tf.TensorSpec([], tf.int32)
    if extra:
        with pytest.raises(TypeError):
            tf.data.Dataset.from_generator(gen, output_signature=sig, **extra)
        return
    ds = tf.data.Dataset.from_generator(gen, output_signature=sig)
    assert ds.element_spec == sig
    assert [int(_np(v)) for v in ds] == [1]


# -- the tape and forward accumulators ---------------------------------------------------------------------------------------
@clause("autodiff.persistent", ref="tf221")
@pytest.mark.parametrize("persistent", [False, True])
def test_blind45_a_recording_tape_cannot_be_entered_again(tf, persistent):
    """Entering a GradientTape that is still recording is ValueError "Tape is still recording, This can happen if
    you try to re-enter an already-active tape."; entered again after its block ended (persistent) it records on."""
    x = tf.constant(3.0)
    tape = tf.GradientTape(persistent=persistent)
    with tape:
        tape.watch(x)
        with pytest.raises(ValueError, match="Tape is still recording"):
            with tape:
                pass
        y = x * x
    assert float(_np(tape.gradient(y, x))) == 6.0
    if persistent:
        with tape:
            z = x * x * x
        assert float(_np(tape.gradient(z, x))) == 27.0


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("shape", [[3], [2, 2], [2, 1, 2], [1]])
@pytest.mark.parametrize("traced", [False, True])
def test_blind45_hessians_have_shape_x_plus_x(tf, shape, traced):
    """tf.hessians(sum(x ** 3), x) (gradients_impl.hessians; graph mode only, so inside a tf.function): shape
    x.shape + x.shape, d2/dx_i dx_j = 6 x_i where i == j, else 0."""
    n = int(np.prod(shape))
    xv = (np.arange(n, dtype=np.float32) + 1).reshape(shape)
    want = np.diag(6 * xv.reshape(-1)).reshape(shape + shape)

    def hess(x):
        return tf.hessians(tf.reduce_sum(x ** 3), x)[0]

    if not traced:
        with pytest.raises(RuntimeError, match="tf.gradients is not supported when eager execution is enabled"):
            hess(tf.constant(xv))
        return
    h = tf.function(hess)(tf.constant(xv))
    assert list(h.shape) == shape + shape, f"hessians of x{shape}: expected shape {shape + shape}, got {list(h.shape)}"
    np.testing.assert_allclose(_np(h), want)


@clause("autodiff.higher-order", ref="tf221")
@pytest.mark.parametrize("dtype", ["float64", "float16", "float32"])
@pytest.mark.parametrize("tangent", ["python float", "python int", "numpy float64"])
def test_blind45_forward_accumulator_tangent_takes_the_primal_dtype(tf, dtype, tangent):
    """ForwardAccumulator(primal, tangent): the tangent is converted to the primal's dtype (a Python float or int, a
    NumPy float64), so jvp(x * x) is 2 x t in that dtype."""
    x = tf.constant(3.0, dtype)
    t = {"python float": 0.5, "python int": 2, "numpy float64": np.float64(0.25)}[tangent]
    with tf.autodiff.ForwardAccumulator(x, t) as acc:
        y = x * x
    j = acc.jvp(y)
    assert j.dtype.name == dtype, f"jvp dtype: expected {dtype}, got {j.dtype.name}"
    assert float(_np(j)) == 2 * 3.0 * float(t)


# -- tf.function: NumPy arguments, deep copies, decorator options -------------------------------------------------------------
@clause("function.symbolic-tensors", ref="tf221")
@pytest.mark.parametrize("container", ["bare", "list", "tuple", "dict", "nested dict in list"])
def test_blind45_numpy_arguments_reach_the_function_as_tensors(tf, container):
    """tf.function converts NumPy arrays anywhere in its arguments (bare, in lists, tuples and dicts, nested) to
    tensors of their dtype before the Python runs: the Python never sees an ndarray, a float64 array stays float64."""
    a = np.array([1.0, 2.0])
    arg = {"bare": a, "list": [a], "tuple": (a,), "dict": {"a": a}, "nested dict in list": [{"a": a}]}[container]
    get = {"bare": lambda v: v, "list": lambda v: v[0], "tuple": lambda v: v[0], "dict": lambda v: v["a"],
           "nested dict in list": lambda v: v[0]["a"]}[container]
    seen = []

    @tf.function
    def f(v):
        leaf = get(v)
        seen.append(isinstance(leaf, np.ndarray))
        return leaf * 2

    out = f(arg)
    assert seen == [False], f"the Python saw an ndarray in a {container} argument"
    assert out.dtype.name == "float64"
    np.testing.assert_array_equal(_np(out), a * 2)


@clause("function.trace-once", ref="tf221")
@pytest.mark.parametrize("traced", ["called", "get_concrete_function", "never"])
def test_blind45_deepcopy_of_a_traced_function_fails(tf, traced):
    """copy.deepcopy of a tf.function deep-copies its cache: once traced (called or get_concrete_function) it holds a
    FuncGraph, which cannot be pickled (TypeError "cannot pickle 'FuncGraph' object"); an untraced one copies and
    works."""
    f = tf.function(lambda x: x + 1)
    if traced == "called":
        f(tf.constant(1.0))
    elif traced == "get_concrete_function":
        f.get_concrete_function(tf.TensorSpec([], tf.float32))
    if traced != "never":
        with pytest.raises(TypeError, match="cannot pickle 'FuncGraph' object"):
            copy.deepcopy(f)
        return
    g = copy.deepcopy(f)
    assert float(_np(g(tf.constant(1.0)))) == 2.0


@clause("function.input-signature", ref="tf221")
@pytest.mark.parametrize("form", ["decorator", "call"])
def test_blind45_input_signature_in_both_forms(tf, form):
    """tf.function(input_signature=...) as a decorator factory and as a call keeps the signature: `input_signature`
    reads it back, a matching call runs, a tensor of another rank is TypeError (binding to the signature)."""
    sig = [tf.TensorSpec([None], tf.float32)]

    def double(x):
        return x * 2

    f = tf.function(input_signature=sig)(double) if form == "decorator" else tf.function(double, input_signature=sig)
    assert f.input_signature is not None and len(f.input_signature) == 1
    assert list(f.input_signature[0].shape.as_list()) == [None]
    np.testing.assert_array_equal(_np(f(tf.constant([1.0, 2.0]))), [2.0, 4.0])
    with pytest.raises(TypeError):
        f(tf.constant([[1.0]]))


# -- checkpoints and weight files ----------------------------------------------------------------------------------------------
@clause("checkpoint.save-counter", ref="tf221")
@pytest.mark.parametrize("saves", [0, 1, 3])
def test_blind45_save_counter_is_int64(tf, tmp_path, saves):
    """tf.train.Checkpoint.save_counter is an int64 scalar counting the save() calls; a checkpoint restored into a
    new Checkpoint brings its count."""
    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = None
    for i in range(saves):
        path = ck.save(str(tmp_path / "ck"))
    assert ck.save_counter.dtype.name == "int64", f"save_counter dtype: expected int64, got {ck.save_counter.dtype.name}"
    assert int(_np(ck.save_counter)) == saves
    if path is not None:
        other = tf.train.Checkpoint(v=tf.Variable(0.0))
        other.restore(path)
        assert other.save_counter.dtype.name == "int64"
        assert int(_np(other.save_counter)) == saves


@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("layer", ["Dense", "BatchNormalization", "Embedding"])
def test_blind45_weights_file_numbers_each_layers_variables_from_zero(tf, keras, tmp_path, layer):
    """A .weights.h5 file (Keras 3.15 saving_lib, H5IOStore): each layer's variables under layers/<name>/vars/0, 1,
    ... in the layer's order; the file loads back into a model of the same architecture."""
    h5py = pytest.importorskip("h5py")
    make = {"Dense": (lambda: keras.layers.Dense(2), (3,), 2),
            "BatchNormalization": (lambda: keras.layers.BatchNormalization(), (3,), 4),
            "Embedding": (lambda: keras.layers.Embedding(5, 2), (3,), 1)}[layer]
    model = keras.Sequential([keras.Input(make[1]), make[0]()])
    path = str(tmp_path / "w.weights.h5")
    model.save_weights(path)
    with h5py.File(path, "r") as h5:
        groups = [k for k in h5["layers"]]
        assert len(groups) == 1
        names = sorted(h5["layers"][groups[0]]["vars"].keys())
    want = [str(i) for i in range(make[2])]
    assert names == want, f"{layer}'s variables in the weights file: expected {want}, got {names}"
    again = keras.Sequential([keras.Input(make[1]), make[0]()])
    again.load_weights(path)
    for a, b in zip(model.weights, again.weights):
        np.testing.assert_array_equal(_np(a), _np(b))


@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("model_kind", ["sequential without Input", "subclassed"])
def test_blind45_load_weights_needs_a_built_model(tf, keras, tmp_path, model_kind):
    """load_weights into a model that is not built yet is ValueError "You are loading weights into a model that has
    not yet been built. Try building the model first by calling it on some data or by using `build()`."; built, it
    loads."""
    class Sub(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(2)

        def call(self, x):
            return self.d(x)

    make = (lambda: keras.Sequential([keras.layers.Dense(2)])) if model_kind != "subclassed" else Sub
    src = make()
    src.build((None, 3))
    path = str(tmp_path / "w.weights.h5")
    src.save_weights(path)
    target = make()
    with pytest.raises(ValueError, match="You are loading weights into a model that has not yet been built"):
        target.load_weights(path)
    target.build((None, 3))
    target.load_weights(path)
    for a, b in zip(src.weights, target.weights):
        np.testing.assert_array_equal(_np(a), _np(b))


@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("metrics", ["list of objects", "list of strings", "dict", "weighted list"])
def test_blind45_keras_file_restores_the_compiled_metrics(tf, keras, tmp_path, metrics):
    """A .keras file's compile_config holds the metrics serialized; load_model deserializes them (in lists and
    dicts, metrics and weighted_metrics), so evaluate gives the same named results as the saved model."""
    spec = {"list of objects": {"metrics": [keras.metrics.MeanAbsoluteError(name="mae1"),
                                            keras.metrics.MeanSquaredError(name="mse1")]},
            "list of strings": {"metrics": ["mae", "mse"]},
            "dict": {"metrics": {"out": [keras.metrics.MeanAbsoluteError(name="mae2")]}},
            "weighted list": {"weighted_metrics": [keras.metrics.MeanAbsoluteError(name="wmae")]}}[metrics]
    inp = keras.Input((2,))
    out = keras.layers.Dense(1, kernel_initializer="ones", name="out")(inp)
    model = keras.Model(inp, out)
    model.compile("sgd", "mse", **spec)
    model.fit(X, Y, verbose=0, epochs=1, shuffle=False)
    want = model.evaluate(X, Y, verbose=0, return_dict=True)
    path = str(tmp_path / "m.keras")
    model.save(path)
    got = keras.models.load_model(path).evaluate(X, Y, verbose=0, return_dict=True)
    assert sorted(got) == sorted(want), f"metric names after load: expected {sorted(want)}, got {sorted(got)}"
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-6)


# -- distribution -----------------------------------------------------------------------------------------------------------
def _strategy(tf, backend, kind):
    if kind == "mirrored":
        backend.make_strategy("mirrored", 2)   # (the backend's devices made)
        return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    if kind == "one_device":
        return tf.distribute.OneDeviceStrategy("/cpu:0")
    return tf.distribute.get_strategy()


@clause("run.replica-context", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "one_device", "default"])
@pytest.mark.parametrize("traced", [False, True])
def test_blind45_replica_id_is_int32(tf, backend, kind, traced):
    """ReplicaContext.replica_id_in_sync_group inside strategy.run is an int32 scalar tensor, the replica's index."""
    s = _strategy(tf, backend, kind)

    def fn():
        return tf.identity(tf.distribute.get_replica_context().replica_id_in_sync_group)

    run = (lambda: s.run(fn)) if not traced else tf.function(lambda: s.run(fn))
    parts = s.experimental_local_results(run())
    assert [p.dtype.name for p in parts] == ["int32"] * len(parts)
    assert [int(_np(p)) for p in parts] == list(range(len(parts)))


@clause("optim.update", ref="tf221")
@pytest.mark.parametrize("kind", ["mirrored", "one_device", "default"])
@pytest.mark.parametrize("result", ["one value", "a pair"])
def test_blind45_update_group_false_gives_tuples(tf, backend, kind, result):
    """extended.update(var, fn, group=False) gives each leaf of fn's result as the tuple of its per-device values
    (one per local copy of var: one for the default and OneDevice strategies, one per replica for Mirrored)."""
    s = _strategy(tf, backend, kind)
    with s.scope():
        v = tf.Variable(1.0)
    fn = (lambda x: x.assign_add(1.0)) if result == "one value" else (lambda x: (x.assign_add(1.0), x.read_value()))
    out = s.extended.update(v, fn, group=False)
    copies = 2 if kind == "mirrored" else 1
    leaves = [out] if result == "one value" else list(out)
    assert (result == "one value") or isinstance(out, tuple) and len(out) == 2
    for leaf in leaves:
        assert isinstance(leaf, tuple), f"update(group=False): expected a tuple per leaf, got {type(leaf).__name__}"
        assert len(leaf) == copies
        assert [float(_np(x)) for x in leaf] == [2.0] * copies


@clause("input.interface-types", ref="tf221")
@pytest.mark.parametrize("how", ["next", "get_next"])
def test_blind45_distributed_iterator_is_read_outside_the_replica_function(tf, backend, how):
    """Reading a distributed iterator inside strategy.run's function is ValueError "next(iterator) should be called
    from outside of replica_fn. e.g. strategy.run(replica_fn, args=(next(iterator),))"; read outside and passed in,
    each replica gets its half of the batch."""
    s = _strategy(tf, backend, "mirrored")
    it = iter(s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4)))
    read = (lambda: next(it)) if how == "next" else (lambda: it.get_next())
    with pytest.raises(ValueError, match="should be called from outside of replica_fn"):
        s.run(read)
    parts = s.experimental_local_results(s.run(lambda b: b * 1, args=(read(),)))
    assert [_np(p).tolist() for p in parts] in ([[0, 1], [2, 3]], [[4, 5], [6, 7]])


# -- random ops ---------------------------------------------------------------------------------------------------------------
@clause("ops.random-across-calls", ref="tf221")
@pytest.mark.parametrize("rows", [2, 3])
def test_blind45_shuffle_moves_every_row_count_above_one(tf, rows):
    """tf.random.shuffle permutes the first axis of any tensor with more than one row: over 8 seeded draws of 2 or 3
    rows some draw is not the identity, every draw is a permutation; 0 and 1 rows come back unchanged."""
    tf.random.set_seed(4)
    base = list(range(1, rows + 1))
    draws = [_np(tf.random.shuffle(base, seed=3)).tolist() for _ in range(8)]
    assert all(sorted(d) == base for d in draws)
    assert any(d != base for d in draws), f"8 shuffles of {rows} rows never moved a row: {draws}"
    assert _np(tf.random.shuffle([7], seed=3)).tolist() == [7]
    assert _np(tf.random.shuffle(tf.zeros([0, 2]), seed=3)).shape == (0, 2)


@clause("ops.random-ranges", ref="tf221")
@pytest.mark.parametrize("bounds", ["arrays", "tensors", "scalar tensors", "broadcast [1]"])
def test_blind45_uniform_bounds_scale_the_unit_draw(tf, bounds):
    """tf.random.uniform(minval=lo, maxval=hi) with array or tensor bounds is the unit draw of the same seeds times
    (hi - lo) plus lo, in float32 (random_ops: `rnd * (maxval - minval) + minval`)."""
    lo = np.array([1.0, 2.0, 3.0], np.float32)
    hi = np.array([2.0, 4.0, 6.0], np.float32)
    lo_a, hi_a = {"arrays": (lo, hi), "tensors": (tf.constant(lo), tf.constant(hi)),
                  "scalar tensors": (tf.constant(np.float32(-2.0)), tf.constant(np.float32(5.0))),
                  "broadcast [1]": (np.array([-1.0], np.float32), np.array([3.0], np.float32))}[bounds]
    tf.random.set_seed(1)
    got = _np(tf.random.uniform([3], minval=lo_a, maxval=hi_a, seed=2))
    tf.random.set_seed(1)
    unit = _np(tf.random.uniform([3], seed=2)).astype(np.float32)
    lo_n, hi_n = np.asarray(_np(lo_a), np.float32), np.asarray(_np(hi_a), np.float32)
    want = unit * (hi_n - lo_n) + lo_n
    np.testing.assert_array_equal(got, want)


@clause("ops.random-across-calls", ref="tf221")
@pytest.mark.parametrize("n", [1, 3, 5])
def test_blind45_categorical_reserves_whole_groups_of_four(tf, n):
    """Multinomial's kernel reserves its Philox outputs per row for num_samples rounded up to a multiple of 4: two
    draws of n samples with one op seed are the first n samples of two draws of n rounded up (the same
    reservation), and the second draw is not the first again."""
    logits = tf.zeros([1, 10])
    up = (n + 3) // 4 * 4
    tf.random.set_seed(1)
    a1 = _np(tf.random.categorical(logits, n, seed=5))
    a2 = _np(tf.random.categorical(logits, n, seed=5))
    tf.random.set_seed(1)
    b1 = _np(tf.random.categorical(logits, up, seed=5))
    b2 = _np(tf.random.categorical(logits, up, seed=5))
    np.testing.assert_array_equal(a1, b1[:, :n])
    np.testing.assert_array_equal(a2, b2[:, :n])
    assert not np.array_equal(np.concatenate([a1, b1], 1), np.concatenate([a2, b2], 1))


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("seed", [[1, 2, 3], [1], [[1, 2]], [1, 2]])
def test_blind45_stateless_categorical_needs_a_seed_of_shape_2(tf, seed):
    """stateless_categorical's seed must have shape [2]: another shape is InvalidArgumentError "seed must have shape
    [2], not [...]"; shape [2] draws [batch, num_samples] int64 indices."""
    if np.shape(seed) != (2,):
        with pytest.raises(tf.errors.InvalidArgumentError, match=r"seed must have shape \[2\]"):
            tf.random.stateless_categorical(tf.zeros([1, 3]), 2, seed=seed)
        return
    out = tf.random.stateless_categorical(tf.zeros([1, 3]), 2, seed=seed)
    assert out.dtype.name == "int64" and list(out.shape) == [1, 2]
    assert set(_np(out).ravel().tolist()) <= {0, 1, 2}


@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("alg", ["philox", "threefry"])
@pytest.mark.parametrize("length", [1, 2, 3, 4])
@pytest.mark.parametrize("how", ["constructor", "reset"])
def test_blind45_generator_state_has_its_algorithms_size(tf, alg, length, how):
    """A tf.random.Generator's state has 3 int64 elements for Philox and 2 for ThreeFry: a state of another length,
    given to the constructor or to reset, is ValueError "Shapes (n,) and [size] are incompatible"."""
    size = {"philox": 3, "threefry": 2}[alg]
    state = list(range(1, length + 1))
    make = (lambda: tf.random.Generator(state=state, alg=alg)) if how == "constructor" else \
        (lambda: tf.random.Generator.from_seed(1, alg=alg).reset(state))
    if length != size:
        with pytest.raises(ValueError, match="are incompatible"):
            make()
        return
    g = make()
    g = g if how == "constructor" else None
    if g is not None:
        assert _np(g.state).tolist() == state


@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("delta", [0, 1, 3])
def test_blind45_generator_skip_returns_the_state_before(tf, delta):
    """Generator.skip(delta) (RngReadAndSkip) returns the state read before the skip and advances the Philox counter
    (the state's first two int64s, a 128-bit integer) by 256 · delta; the key stays."""
    g = tf.random.Generator.from_seed(5)
    before = [int(v) for v in _np(g.state)]
    got = [int(v) for v in _np(g.skip(delta))]
    after = [int(v) for v in _np(g.state)]
    assert got == before, f"skip({delta}) returned {got}, expected the state before the skip {before}"
    counter = (before[0] % 2 ** 64) + ((before[1] % 2 ** 64) << 64) + 256 * delta
    lo, hi = counter % 2 ** 64, (counter >> 64) % 2 ** 64
    signed = [v - 2 ** 64 if v >= 2 ** 63 else v for v in (lo, hi)]
    assert after == signed + [before[2]]


@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("method", ["normal", "truncated_normal"])
@pytest.mark.parametrize("moments", [(10.0, 0.5), (-1.0, 3.0), (0.0, 1.0)])
def test_blind45_generator_draws_scale_by_stddev_and_shift_by_mean(tf, method, moments):
    """Generator.normal / truncated_normal(mean, stddev) are the standard draw of the same state times stddev plus
    mean, in float32."""
    mean, stddev = moments
    a = _np(getattr(tf.random.Generator.from_seed(3), method)([4], mean=mean, stddev=stddev))
    unit = _np(getattr(tf.random.Generator.from_seed(3), method)([4])).astype(np.float32)
    np.testing.assert_array_equal(a, unit * np.float32(stddev) + np.float32(mean))


# -- the trainer ----------------------------------------------------------------------------------------------------------------
@clause("keras.fit.python-inputs", ref="tf221")
@pytest.mark.parametrize("calls_super", [False, True])
def test_blind45_py_dataset_defaults(keras, calls_super):
    """PyDataset(workers=1, use_multiprocessing=False, max_queue_size=10): a subclass that never calls
    super().__init__() reads those defaults (and is warned once it reads one); one that passes values reads them."""
    class D(keras.utils.PyDataset):
        def __init__(self):
            if calls_super:
                super().__init__(workers=2, use_multiprocessing=False, max_queue_size=4)

        def __len__(self):
            return 1

        def __getitem__(self, i):
            return X, Y

    d = D()
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        got = (d.workers, d.use_multiprocessing, d.max_queue_size)
    assert got == ((2, False, 4) if calls_super else (1, False, 10))
    assert any("should call `super().__init__(**kwargs)`" in str(x.message) for x in w) == (not calls_super)


@clause("keras.fit.traced-shapes", ref="tf221")
@pytest.mark.parametrize("n,batch", [(5, 2), (4, 2), (6, 3), (3, 4)])
def test_blind45_train_step_sees_a_static_batch_only_without_a_partial_batch(tf, keras, n, batch):
    """fit on arrays: the traced train_step sees x.shape[0] as the batch size when every batch is full, and None when
    the last batch is partial (one trace relaxed to the unknown batch dimension)."""
    seen = []

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, _ = data
            seen.append(x.shape[0])
            return {"n": tf.constant(0.0)}

    m = M()
    m.compile("sgd", "mse")
    x = np.ones((n, 2), np.float32)
    m.fit(x, x[:, :1], batch_size=batch, epochs=1, verbose=0, shuffle=False)
    want = {batch} if n % batch == 0 else {None}
    assert set(seen) == want, f"{n} samples by {batch}: expected the traced batch dimension {want}, got {seen}"


@clause("keras.fit.data", ref="tf221")
@pytest.mark.parametrize("pipeline", ["filter", "from_generator", "range"])
def test_blind45_dataset_steps_known_only_from_cardinality(tf, keras, pipeline):
    """fit and evaluate on a tf.data dataset pass callbacks `params["steps"]` = its cardinality when known, None when
    unknown (a filter, a generator), and run every batch either way."""
    xs, ys = X, Y
    base = tf.data.Dataset.from_tensor_slices((xs, ys))
    if pipeline == "filter":
        ds = base.filter(lambda a, b: True).batch(2)
    elif pipeline == "from_generator":
        def gen():
            for i in range(0, 5, 2):
                yield xs[i:i + 2], ys[i:i + 2]
        ds = tf.data.Dataset.from_generator(gen, output_signature=(tf.TensorSpec([None, 2], tf.float32),
                                                                   tf.TensorSpec([None, 1], tf.float32)))
    else:
        ds = base.batch(2)
    steps, batches = [], []

    class C(keras.callbacks.Callback):
        def on_train_begin(self, logs=None):
            steps.append(self.params.get("steps"))

        def on_test_begin(self, logs=None):
            steps.append(self.params.get("steps"))

        def on_train_batch_end(self, batch, logs=None):
            batches.append(batch)

        def on_test_batch_end(self, batch, logs=None):
            batches.append(batch)

    m = _dense(keras)
    m.compile("sgd", "mse")
    m.fit(ds, epochs=1, verbose=0, callbacks=[C()])
    m.evaluate(ds, verbose=0, callbacks=[C()])
    want = 3 if pipeline == "range" else None
    assert steps == [want, want], f"params['steps'] of a {pipeline} dataset: expected {want}, got {steps}"
    assert batches == [0, 1, 2, 0, 1, 2]


@clause("keras.fit.python-inputs", ref="tf221")
@pytest.mark.parametrize("dtype", ["float64", "float16", "int32"])
@pytest.mark.parametrize("kind", ["tensor", "numpy"])
def test_blind45_fit_casts_float_inputs_to_floatx(tf, keras, dtype, kind):
    """Keras 3.15's array adapter casts every float input whose dtype is not floatx() to floatx() (a tf.Tensor by
    tf.cast, a NumPy array by astype): train_step sees float32 for float64 and float16 data; integers keep their
    dtype."""
    seen = []

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def train_step(self, data):
            x, y = data
            seen.append((x.dtype.name, y.dtype.name))
            return {"n": tf.constant(0.0)}

    a = np.ones((4, 2), dtype)
    b = np.ones((4, 1), dtype)
    if kind == "tensor":
        a, b = tf.constant(a), tf.constant(b)
    m = M()
    m.compile("sgd", "mse")
    m.fit(a, b, batch_size=2, verbose=0)
    want = "int32" if dtype == "int32" else "float32"
    assert set(seen) == {(want, want)}, f"{kind} inputs of {dtype}: expected {want} in train_step, got {set(seen)}"


@clause("keras.fit.step-replay", ref="tf221")
@pytest.mark.parametrize("spe", [2, 3, 4])
def test_blind45_steps_per_execution_runs_every_step(tf, keras, spe):
    """compile(steps_per_execution=k): each execution runs k steps (the last one what is left); callbacks get
    on_train_batch_end(step + k - 1) for each execution starting at step (Keras 3.15's EpochIterator does not clamp it
    to the last batch), and the weights are those of the same steps run one at a time."""
    def run(k):
        m = _dense(keras)
        m.compile(keras.optimizers.SGD(0.1), "mse", steps_per_execution=k)
        seen = []

        class C(keras.callbacks.Callback):
            def on_train_batch_end(self, batch, logs=None):
                seen.append(batch)

        m.fit(X, Y, batch_size=1, epochs=1, verbose=0, shuffle=False, callbacks=[C()])
        return seen, _np(m.layers[0].kernel)

    seen, kernel = run(spe)
    _, kernel_one = run(1)
    want = [i + spe - 1 for i in range(0, 5, spe)]   # (Keras 3.15 EpochIterator: end_step = step + k - 1, unclamped)
    assert seen == want, f"steps_per_execution={spe} over 5 batches: expected batch ends {want}, got {seen}"
    np.testing.assert_allclose(kernel, kernel_one, rtol=1e-6)
