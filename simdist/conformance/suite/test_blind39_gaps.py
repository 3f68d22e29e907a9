"""Gaps the thirty-ninth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is
the suite"): rules of the training layer (the trainer, gradients, tf.data, checkpoints and saving, distribution)
that the suite stated for one spelling, one option value or one input only, or never, so that a wrong
implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- compile's metrics: one output's metrics as a tuple or a list -----------------------------------------------------
def _two_output_model(keras):
    i = keras.Input((2,))
    a = keras.layers.Dense(1, kernel_initializer="ones", name="a")(i)
    b = keras.layers.Dense(1, kernel_initializer="zeros", name="b")(i)
    return i, a, b


@clause("keras.fit.arguments", ref="tf221")
@pytest.mark.parametrize("container", [tuple, list])
@pytest.mark.parametrize("outputs", ["single", "list", "dict"])
def test_blind39_metrics_of_one_output_as_a_tuple_or_a_list(keras, container, outputs):
    """compile(metrics=...) takes one output's metrics as a list or a tuple alike (Keras 3.15 `get_metrics_list`:
    `isinstance(metrics, (list, tuple))`), at the top level of a single-output model and per output in a list or a
    dict: each named metric is made and logged (`<output>_<metric>` for several outputs) with its value."""
    x = np.ones((4, 2), "float32")
    ya, yb = np.zeros((4, 1), "float32"), np.full((4, 1), 3.0, "float32")
    pa, pb = x.sum(axis=1, keepdims=True), np.zeros((4, 1), "float32")   # the Dense kernels: ones, zeros
    mae = lambda y, p: float(np.mean(np.abs(y - p)))
    mse = lambda y, p: float(np.mean((y - p) ** 2))
    i, a, b = _two_output_model(keras)
    if outputs == "single":
        model = keras.Model(i, a)
        model.compile(loss="mse", metrics=container(["mae", "mse"]))
        got = model.evaluate(x, ya, verbose=0, return_dict=True)
        want = {"loss": mse(ya, pa), "mae": mae(ya, pa), "mse": mse(ya, pa)}
    else:
        metrics_a, metrics_b = container(["mae", "mse"]), container(["mae"])
        if outputs == "list":
            model = keras.Model(i, [a, b])
            model.compile(loss=["mse", "mse"], metrics=[metrics_a, metrics_b])
            got = model.evaluate(x, [ya, yb], verbose=0, return_dict=True)
        else:
            model = keras.Model(i, {"a": a, "b": b})
            model.compile(loss={"a": "mse", "b": "mse"}, metrics={"a": metrics_a, "b": metrics_b})
            got = model.evaluate(x, {"a": ya, "b": yb}, verbose=0, return_dict=True)
        want = {"loss": mse(ya, pa) + mse(yb, pb), "a_loss": mse(ya, pa), "b_loss": mse(yb, pb),
                "a_mae": mae(ya, pa), "a_mse": mse(ya, pa), "b_mae": mae(yb, pb)}
    assert sorted(got) == sorted(want), f"{outputs} {container.__name__}: expected logs {sorted(want)}, got {sorted(got)}"
    for k, v in want.items():
        assert float(got[k]) == pytest.approx(v, rel=1e-6), f"{outputs} {container.__name__}: {k} expected {v}, got {got[k]}"


# -- take_while: the predicate must return a scalar bool ---------------------------------------------------------------
@clause("dataset.scan-take-while-unique", ref="tf221")
@pytest.mark.parametrize("kind", ["scalar", "[1]", "[2]", "[1, 1]", "int64 scalar"])
def test_blind39_take_while_predicate_must_be_a_scalar_bool(tf, kind):
    """Dataset.take_while refuses, when the transformation is made, a predicate whose output is not a scalar tf.bool
    (TF 2.21 `_TakeWhileDataset`: ValueError "Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor
    but its return type is<the spec>", the spec's repr glued on), a one-element vector included; a scalar bool takes
    the elements while it holds."""
    preds = {"scalar": (lambda x: x < 3, None),
             "[1]": (lambda x: tf.reshape(x < 3, [1]), "(1,)"),
             "[2]": (lambda x: tf.stack([x < 3, x < 4]), "(2,)"),
             "[1, 1]": (lambda x: tf.reshape(x < 3, [1, 1]), "(1, 1)"),
             "int64 scalar": (lambda x: tf.cast(x < 3, tf.int64), "()")}
    fn, shape = preds[kind]
    ds = tf.data.Dataset.range(6)
    if shape is None:
        got = [int(v) for v in ds.take_while(fn).as_numpy_iterator()]
        assert got == [0, 1, 2], f"take_while(x < 3) of range(6): expected [0, 1, 2], got {got}"
        return
    dtype = "int64" if kind.startswith("int64") else "bool"
    want = ("Invalid `predicate`. `predicate` must return a `tf.bool` scalar tensor but its return type is"
            f"TensorSpec(shape={shape}, dtype=tf.{dtype}, name=None).")
    with pytest.raises(ValueError) as e:
        ds.take_while(fn)
    assert str(e.value) == want, f"{kind} predicate: expected {want!r}, got {str(e.value)!r}"


# -- rebatch: every component of an element has the first one's batch size ---------------------------------------------
@clause("dataset.rebatch", ref="tf221")
@pytest.mark.parametrize("sizes", [(4, 3), (3, 4), (4, 4, 2), (2, 5, 2), (4, 4)])
def test_blind39_rebatch_components_share_the_batch_size(tf, sizes):
    """Dataset.rebatch(n) of elements whose components' batch sizes the element spec leaves unknown checks each
    element when it is read (TF 2.21 RebatchDatasetV2's kernel): a component with more or fewer rows than component
    0 is InvalidArgumentError "Input element must have the same batch size in each component. Component 0 had size
    A but component I had size, B." (the first such component); equal sizes are split into batches of n rows."""
    comps = tuple(np.arange(s * 2, dtype="float32").reshape(s, 2) for s in sizes)
    ds = tf.data.Dataset.from_generator(lambda: iter([comps]),
                                        output_signature=tuple(tf.TensorSpec([None, 2], tf.float32) for _ in sizes))
    bad = next((i for i, s in enumerate(sizes) if s != sizes[0]), None)
    if bad is None:
        got = [[_np(c).tolist() for c in e] for e in ds.rebatch(2)]
        want = [[c[j:j + 2].tolist() for c in comps] for j in range(0, sizes[0], 2)]
        assert got == want, f"rebatch(2) of sizes {sizes}: expected {want}, got {got}"
        return
    want = ("Input element must have the same batch size in each component. Component 0 had size "
            f"{sizes[0]} but component {bad} had size, {sizes[bad]}.")
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        list(ds.rebatch(2))
    assert want in str(e.value), f"rebatch of sizes {sizes}: expected {want!r} in {str(e.value)!r}"


# -- a PyDataset of length 0 ----------------------------------------------------------------------------------------
@clause("keras.fit.python-inputs", ref="tf221")
@pytest.mark.parametrize("method", ["fit", "evaluate", "predict"])
@pytest.mark.parametrize("length", [0, 1, 3])
def test_blind39_pydataset_of_length_zero_is_refused(keras, method, length):
    """fit, evaluate and predict of a PyDataset whose `__len__` is 0 raise Keras 3.15's ValueError "The PyDataset has
    length 0" (PyDatasetAdapter reads the first batches for the tensor spec and finds none); a PyDataset of n >= 1
    batches runs n steps (its batches counted here as `__getitem__` calls of distinct indices)."""
    seen = set()

    class Data(keras.utils.PyDataset):
        def __init__(self):
            super().__init__()

        def __len__(self):
            return length

        def __getitem__(self, i):
            seen.add(i)
            x = np.full((2, 2), float(i), "float32")
            return (x,) if method == "predict" else (x, np.ones((2, 1), "float32"))

    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, kernel_initializer="ones")])
    model.compile(loss="mse")
    run = {"fit": lambda d: model.fit(d, verbose=0), "evaluate": lambda d: model.evaluate(d, verbose=0),
           "predict": lambda d: model.predict(d, verbose=0)}[method]
    if length == 0:
        with pytest.raises(ValueError) as e:
            run(Data())
        assert str(e.value) == "The PyDataset has length 0", \
            f"{method} of an empty PyDataset: expected 'The PyDataset has length 0', got {str(e.value)!r}"
        return
    out = run(Data())
    assert sorted(seen) == list(range(length)), f"{method}: expected batches {list(range(length))} read, got {sorted(seen)}"
    if method == "predict":
        want = np.repeat(np.arange(length, dtype="float32") * 2.0, 2).reshape(-1, 1)
        np.testing.assert_allclose(_np(out), want, err_msg=f"predict of {length} batches")


# -- Dataset.list_files: shuffled unless shuffle=False ------------------------------------------------------------------
@clause("dataset.readers", ref="tf221")
@pytest.mark.parametrize("shuffle", ["default", None, True, False])
def test_blind39_list_files_shuffles_unless_told_not_to(tf, tmp_path, shuffle):
    """Dataset.list_files(pattern, shuffle=None, seed) (TF 2.21 readers.py): the matching names, sorted, then
    shuffled with the whole list as buffer unless shuffle=False (None means True): for a seed, the order of
    `Dataset.from_tensor_slices(sorted names).shuffle(len(names), seed=seed)`; shuffle=False keeps them sorted."""
    names = sorted(str(tmp_path / f"f{i:02d}.txt") for i in range(12))
    for n in names:
        open(n, "w").close()
    pattern = str(tmp_path / "*.txt")
    kwargs = {} if shuffle == "default" else {"shuffle": shuffle}
    orders = []
    for seed in (1, 7, 23):
        got = [v.decode() for v in tf.data.Dataset.list_files(pattern, seed=seed, **kwargs).as_numpy_iterator()]
        if shuffle is False:
            want = names
        else:
            want = [v.decode() for v in tf.data.Dataset.from_tensor_slices(names).shuffle(len(names), seed=seed)
                    .as_numpy_iterator()]
        assert got == want, f"list_files(shuffle={shuffle!r}, seed={seed}): expected {want}, got {got}"
        orders.append(got)
    if shuffle is not False:
        assert any(o != names for o in orders), f"list_files(shuffle={shuffle!r}) kept the sorted order for every seed"


# -- Functional.compute_output_shape: one shape per input, any spelling -------------------------------------------------
@clause("keras.model.call", ref="tf221")
@pytest.mark.parametrize("kind, shape", [("one", (None, 3)), ("one", (7, 3)), ("one", [None, 3]), ("one", [5, 3]),
                                         ("two", [(None, 3), (None, 2)]), ("two", ((4, 3), (4, 2))),
                                         ("dict", {"p": (None, 3), "q": (None, 2)}), ("dict", {"q": [6, 2], "p": [6, 3]}),
                                         ("sequential", (2, 3)), ("sequential", [None, 3])])
def test_blind39_functional_output_shape_of_each_shape_spelling(keras, kind, shape):
    """A functional model's compute_output_shape (Keras 3.15 Function.compute_output_shape: tree.map_shape_structure)
    takes each input's shape as a tuple or a list of ints and None, several inputs' as a list, a tuple or a dict by
    the inputs' keys; the output is the Dense's (batch, units), the batch taken from the shape given."""
    i, j = keras.Input((3,)), keras.Input((2,))
    both = keras.layers.Concatenate()([i, j])
    model, units = {"one": (lambda: keras.Model(i, keras.layers.Dense(4)(i)), 4),
                    "two": (lambda: keras.Model([i, j], keras.layers.Dense(5)(both)), 5),
                    "dict": (lambda: keras.Model({"p": i, "q": j}, keras.layers.Dense(5)(both)), 5),
                    "sequential": (lambda: keras.Sequential([keras.Input((3,)), keras.layers.Dense(6)]), 6)}[kind]
    first = shape["p"] if isinstance(shape, dict) else (shape[0] if isinstance(shape[0], (tuple, list)) else shape)
    want = (first[0], units)
    got = model().compute_output_shape(shape)
    assert tuple(got) == want, f"{kind} compute_output_shape({shape!r}): expected {want}, got {got!r}"


# -- model.save: the path must end in .keras ---------------------------------------------------------------------------
@clause("keras.saving.keras-file", ref="tf221")
@pytest.mark.parametrize("name", ["m.keras.bak", "m.kerasx", "m_keras", "m.keras.zip", "m", "m.weights.h5.keras"])
def test_blind39_save_path_must_end_in_keras(keras, tmp_path, name):
    """model.save(path) (Keras 3.15 saving_api.save_model) writes a `.keras` archive only for a path that ends in
    ".keras" (".h5"/".hdf5" being the legacy format); any other path, one holding ".keras" elsewhere included, is
    ValueError "Invalid filepath extension for saving. ..." and writes nothing; a path ending in .keras loads back."""
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2, kernel_initializer="ones")])
    path = str(tmp_path / name)
    if name.endswith(".keras"):
        model.save(path)
        x = np.arange(6, dtype="float32").reshape(2, 3)
        np.testing.assert_allclose(_np(keras.models.load_model(path)(x)), x.sum(axis=1, keepdims=True).repeat(2, 1),
                                   err_msg=f"{name}: the loaded model's outputs")
        return
    with pytest.raises(ValueError) as e:
        model.save(path)
    assert "Invalid filepath extension for saving" in str(e.value), \
        f"save({name!r}): expected 'Invalid filepath extension for saving' in {str(e.value)!r}"
    assert not (tmp_path / name).exists(), f"save({name!r}) refused the path but wrote a file"


# -- a Sequential model's input_dtype: its Input's dtype ---------------------------------------------------------------
@clause("keras.model.call", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "float64", "float16", "bool", None])
def test_blind39_sequential_input_dtype_is_its_inputs(keras, dtype):
    """A Sequential model whose first layer is an Input has that Input's dtype as its `input_dtype` (Keras 3.15
    Sequential.input_dtype reads its InputLayer's dtype; "float32" for an Input without one), not its own compute
    dtype (float32 here); its Dense layer still computes in float32."""
    inp = keras.Input((3,), dtype=dtype) if dtype else keras.Input((3,))
    model = keras.Sequential([inp, keras.layers.Dense(1)])
    want = dtype or "float32"
    assert model.input_dtype == want, f"Sequential with Input(dtype={dtype!r}): expected input_dtype {want!r}, got {model.input_dtype!r}"
    assert model.layers[-1].compute_dtype == "float32", f"Dense's compute dtype: expected 'float32', got {model.layers[-1].compute_dtype!r}"


# -- Model.to_json passes json.dumps' keyword arguments on ---------------------------------------------------------------
@clause("keras.saving.json-and-serialize", ref="tf221")
@pytest.mark.parametrize("kwargs", [{}, {"indent": 2}, {"sort_keys": True}, {"indent": 1, "sort_keys": True},
                                    {"separators": (",", ":")}])
@pytest.mark.parametrize("kind", ["sequential", "functional"])
def test_blind39_to_json_passes_json_dumps_arguments(keras, kwargs, kind):
    """Model.to_json(**kwargs) is `json.dumps(model_config, **kwargs)` (Keras 3.15): the text with indent, sort_keys
    or separators is json.dumps of the same object (the plain to_json read back) with those arguments."""
    import json
    inp = keras.Input((3,))
    model = keras.Sequential([inp, keras.layers.Dense(2)]) if kind == "sequential" else \
        keras.Model(inp, keras.layers.Dense(2)(inp))
    plain = json.loads(model.to_json())
    got = model.to_json(**kwargs)
    want = json.dumps(plain, **kwargs)
    assert got == want, f"{kind} to_json(**{kwargs}): expected json.dumps(config, **{kwargs}) ({len(want)} chars), " \
                        f"got {len(got)} chars: {got[:120]!r}"


# -- Square's gradient: 2 * conj(x) times the upstream gradient ---------------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
@pytest.mark.parametrize("upstream", ["ones", "given"])
def test_blind39_square_gradient_conjugates_complex_inputs(tf, dtype, upstream):
    """The gradient of tf.square (TF 2.21 math_grad._SquareGrad: `grad * 2 * conj(x)`) for real and complex inputs,
    with the default upstream gradient (ones) and a given one: NumPy's 2 * conj(x) * dy."""
    x = np.array([1 + 2j, -0.5 + 1j, 3 - 0.25j, 0j]) if dtype.startswith("complex") else np.array([1.5, -2.0, 0.0, 4.0])
    x = x.astype(dtype)
    dy = np.ones_like(x) if upstream == "ones" else (np.array([2 - 1j, 0.5, -1j, 3]) if dtype.startswith("complex")
                                                     else np.array([2.0, 0.5, -1.0, 3.0])).astype(dtype)
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.square(xt)
    got = _np(tape.gradient(y, xt, output_gradients=None if upstream == "ones" else tf.constant(dy)))
    want = 2 * np.conj(x) * dy
    np.testing.assert_allclose(got, want, rtol=1e-6, err_msg=f"d square(x)/dx of {dtype}, upstream {upstream}")


# -- SoftplusGrad's gradients ------------------------------------------------------------------------------------------
@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_blind39_softplus_grad_second_order(tf, dtype):
    """The gradients of tf.raw_ops.SoftplusGrad(gradients=dy, features=x) = dy * sigmoid(x) (TF 2.21
    nn_grad._SoftplusGradGrad): with respect to dy, g * sigmoid(x); with respect to x, g * dy / (exp(-x) + 2 +
    exp(x)), which is 0 (not NaN) where x is infinite. NumPy in float64."""
    x = np.array([-30.0, -2.0, -0.5, 0.0, 0.5, 2.0, 30.0, np.inf, -np.inf]).astype(dtype)
    dy = np.array([1.0, 2.0, -1.5, 0.5, 3.0, -2.0, 1.0, 1.0, 2.0]).astype(dtype)
    g = np.array([1.0, 0.5, 2.0, -1.0, 1.5, 1.0, -0.5, 2.0, 1.0]).astype(dtype)
    xt, dyt = tf.constant(x), tf.constant(dy)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([xt, dyt])
        out = tf.raw_ops.SoftplusGrad(gradients=dyt, features=xt)
    d_dy, d_x = tape.gradient(out, [dyt, xt], output_gradients=tf.constant(g))
    x64, dy64, g64 = x.astype("float64"), dy.astype("float64"), g.astype("float64")
    with np.errstate(over="ignore"):
        want_x = g64 * dy64 / (np.exp(-x64) + 2.0 + np.exp(x64))
        want_dy = g64 / (1.0 + np.exp(-x64))
    rtol = 1e-5 if dtype == "float32" else 1e-12
    np.testing.assert_allclose(_np(d_x), want_x, rtol=rtol, atol=1e-30, err_msg=f"d SoftplusGrad/d features, {dtype}")
    np.testing.assert_allclose(_np(d_dy), want_dy, rtol=rtol, atol=1e-30, err_msg=f"d SoftplusGrad/d gradients, {dtype}")


# -- GradientTape.watch: tensors and tf.Variables only -----------------------------------------------------------------
@clause("autodiff.watch", ref="tf221")
@pytest.mark.parametrize("kind", ["keras.Variable", "list with keras.Variable", "float", "ndarray", "keras value",
                                  "tf.Variable"])
def test_blind39_tape_watch_refuses_what_is_not_a_tensor_or_tf_variable(tf, keras, kind):
    """GradientTape.watch takes tensors and tf.Variables (TF 2.21 backprop.py `watch`): anything else, a Keras 3
    keras.Variable included (its `.value` is the tf.Variable to watch), is ValueError "Passed in object <repr> of
    type '<class>', not tf.Tensor or tf.Variable or ExtensionType.", also inside a list; what it accepts is
    differentiated (d(3 v)/dv = 3)."""
    kv = keras.Variable(2.0)
    objs = {"keras.Variable": kv, "list with keras.Variable": [tf.constant(1.0), kv], "float": 1.5,
            "ndarray": np.ones(2, "float32"), "keras value": kv.value, "tf.Variable": tf.Variable(2.0)}
    obj = objs[kind]
    bad = {"keras.Variable": kv, "list with keras.Variable": kv, "float": obj, "ndarray": obj}.get(kind)
    with tf.GradientTape() as tape:
        if bad is not None:
            with pytest.raises(ValueError) as e:
                tape.watch(obj)
            want = f"of type '{type(bad).__name__}', not tf.Tensor or tf.Variable or ExtensionType."
            assert str(e.value).startswith("Passed in object ") and str(e.value).endswith(want), \
                f"watch({kind}): expected 'Passed in object ... {want}', got {str(e.value)!r}"
            return
        tape.watch(obj)
        y = obj * 3.0
    got = float(_np(tape.gradient(y, obj)))
    assert got == 3.0, f"watch({kind}): d(3 v)/dv expected 3.0, got {got}"


# -- CentralStorageStrategy.batch_reduce_to of one-component values ----------------------------------------------------
@clause("extended.reduce-to", ref="tf221")
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
@pytest.mark.parametrize("op", ["MEAN", "SUM"])
def test_blind39_central_storage_batch_reduce_of_one_component(tf, backend, dtype, op):
    """CentralStorageStrategy's extended.batch_reduce_to of values that are not distributed (one component) onto
    another device (TF 2.21 ReductionToOneDevice): SUM keeps each value and its dtype; MEAN divides it by 1 with
    Python's true division, so an integer becomes float64 and a float keeps its dtype, the values unchanged."""
    strategy = backend.make_strategy("central_storage", 2)
    devices = backend.device_names(2, "CPU")
    with tf.device(devices[0]):
        values = [tf.constant(np.array([3, -4, 5]).astype(dtype)), tf.constant(np.array([[1, 2]]).astype(dtype))]
    out = strategy.extended.batch_reduce_to(getattr(tf.distribute.ReduceOp, op), [(v, devices[1]) for v in values])
    want_dtype = "float64" if op == "MEAN" and dtype.startswith("int") else dtype
    for v, o in zip(values, out):
        assert o.dtype.name == want_dtype, f"{op} of a one-component {dtype} value: expected dtype {want_dtype}, got {o.dtype.name}"
        np.testing.assert_array_equal(_np(o), _np(v).astype(want_dtype), err_msg=f"{op} of a one-component {dtype} value")
