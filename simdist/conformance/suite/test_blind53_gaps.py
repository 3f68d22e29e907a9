"""Gaps the fifty-third blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, tf.function, tf.data, checkpoints, distribution, random ops) that
the suite stated for one spelling, one structure or one input only, or never, so that a wrong implementation of the
other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or plain
Python, or is a relation TF's rule implies, or was observed on TF 2.21 (the placeholder names, the traced shapes, the
static batch dimensions; the observations are in /work/wt/blind47b_logs/gaps/obs*.py and their _tf/_sim outputs).
"""

from __future__ import annotations

import collections
import warnings

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause


# -- the trainer: Keras 2's compiled_loss and compiled_metrics shims ------------------------------------------------
X4 = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
Y4 = np.array([[0.0], [1.0], [0.5], [2.0]], np.float32)
W4 = np.array([1.0, 0.0, 2.0, 0.5], np.float32)
_WEIGHTS = {"none": None, "vector": W4, "column": W4.reshape(4, 1), "zeros": np.zeros(4, np.float32)}


def _shim_model(keras, regularized):
    inp = keras.Input((2,))
    reg = keras.regularizers.L2(0.5) if regularized else None
    out = keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros", kernel_regularizer=reg)(inp)
    return keras.Model(inp, out)


@clause("keras.fit.distributed-step", ref="tf221")
@pytest.mark.parametrize("regularized", [False, True], ids=["plain", "L2 kernel"])
@pytest.mark.parametrize("loss", ["mse", "mae"])
@pytest.mark.parametrize("weights", list(_WEIGHTS))
def test_blind53_compiled_loss_is_compute_loss_with_the_sample_weights(tf, keras, regularized, loss, weights):
    """Keras 3.15's `model.compiled_loss(y, y_pred, sample_weight, regularization_losses)` is
    `compute_loss(x=None, y, y_pred, sample_weight)`: the loss weighted by the sample weights (a vector or a column),
    reduced by sum over the batch size (the sum of w * loss over the 4 samples, / 4), plus the model's own losses
    (an L2(0.5) kernel regularizer on a kernel of ones: 1.0); the `regularization_losses` given are ignored."""
    m = _shim_model(keras, regularized)
    m.compile("sgd", loss)
    sw = _WEIGHTS[weights]
    y_pred = m(X4)
    pred = X4.sum(axis=1, keepdims=True)        # (a kernel of ones, no bias)
    per_sample = ((pred - Y4) ** 2 if loss == "mse" else np.abs(pred - Y4))[:, 0]
    w = np.ones(4) if sw is None else sw.reshape(-1)
    want = float((per_sample * w).sum() / 4) + (1.0 if regularized else 0.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = float(_np(m.compiled_loss(Y4, y_pred, sample_weight=sw)))
        ignored = float(_np(m.compiled_loss(Y4, y_pred, sample_weight=sw, regularization_losses=[tf.constant(5.0)])))
    assert abs(got - want) < 1e-5, f"compiled_loss({loss}, weights {weights}): {got}, want {want}"
    assert abs(ignored - want) < 1e-5, f"regularization_losses must be ignored: {ignored}, want {want}"


@clause("keras.fit.distributed-step", ref="tf221")
@pytest.mark.parametrize("weights", list(_WEIGHTS))
def test_blind53_compiled_metrics_update_the_loss_tracker_with_the_predictions(tf, keras, weights):
    """Keras 3.15's `model.compiled_metrics.update_state(y, y_pred, sample_weight)` updates every metric of
    `model.metrics`: the loss tracker (a Mean) with y_pred itself (weighted), the compiled metrics with (y, y_pred):
    `metrics=` ones unweighted, `weighted_metrics=` ones weighted (sum(w * se) / sum(w))."""
    m = _shim_model(keras, False)
    m.compile("sgd", "mse", metrics=["mae", "mse"], weighted_metrics=["mse"])
    m.evaluate(X4, Y4, verbose=0)   # (builds the metrics)
    m.reset_metrics()
    sw = _WEIGHTS[weights]
    y_pred = m(X4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        m.compiled_metrics.update_state(Y4, y_pred, sample_weight=sw)
    pred = X4.sum(axis=1)
    w = np.ones(4) if sw is None else sw.reshape(-1)
    se, ae = (pred - Y4[:, 0]) ** 2, np.abs(pred - Y4[:, 0])
    want_loss = float((pred * w).sum() / w.sum()) if w.sum() else 0.0
    want = {"mae": float(ae.mean()), "mse": float(se.mean()),
            "weighted_mse": float((se * w).sum() / w.sum()) if w.sum() else 0.0}
    results = {x.name: x.result() for x in m.metrics}
    assert set(results) == {"loss", "compile_metrics"}, f"model.metrics: {sorted(results)}"
    assert abs(float(_np(results["loss"])) - want_loss) < 1e-5, \
        f"weights {weights}: the loss tracker holds {float(_np(results['loss']))}, the weighted mean of the " \
        f"predictions is {want_loss}"
    got = {k: float(_np(v)) for k, v in results["compile_metrics"].items()}
    assert set(got) == set(want) and all(abs(got[k] - want[k]) < 1e-5 for k in want), \
        f"weights {weights}: compiled metrics {got}, want {want}"


# -- the trainer: predict's tf.function relaxes the batch dimension when it traces again ------------------------------
_PREDICT_CALLS = {
    # name: (calls, the shapes predict_step traced with; observed on TF 2.21, gaps/obs1.py)
    "6 by 4": ([("predict", 6, 4)], [(4, 2), (None, 2)]),
    "8 by 4": ([("predict", 8, 4)], [(4, 2)]),
    "8 by 4, then 6 by 4": ([("predict", 8, 4), ("predict", 6, 4)], [(4, 2), (None, 2)]),
    "8 by 4, then 9 by 3": ([("predict", 8, 4), ("predict", 9, 3)], [(4, 2), (None, 2)]),
    "7 by 3, then 12 by 5": ([("predict", 7, 3), ("predict", 12, 5)], [(3, 2), (None, 2)]),
    "predict_on_batch 4, 2, 5": ([("on_batch", 4, 0), ("on_batch", 2, 0), ("on_batch", 5, 0)], [(4, 2), (None, 2)]),
    "dataset 6 by 4": ([("dataset", 6, 4)], [(4, 2), (None, 2)]),
    "dataset 9 by 4, drop_remainder": ([("dataset_drop", 9, 4)], [(4, 2)]),
}


@clause("keras.fit.traced-shapes", ref="tf221")
@pytest.mark.parametrize("case", list(_PREDICT_CALLS))
def test_blind53_predict_traces_the_first_shape_then_a_relaxed_batch(tf, keras, case):
    """Keras 3.15 wraps predict_function in tf.function(reduce_retracing=True) and passes it the batches themselves:
    its first trace sees the first batch's concrete shape, a batch of another size traces once more with the batch
    dimension relaxed to None, and later sizes (in the same or another predict, or predict_on_batch) reuse that
    trace; the outputs keep every sample."""
    seen = []

    class M(keras.Model):
        def predict_step(self, data):
            d = data[0] if isinstance(data, tuple) else data
            seen.append(tuple(d.shape))
            return super().predict_step(data)

    inp = keras.Input((2,))
    m = M(inp, keras.layers.Dense(1, kernel_initializer="ones")(inp))
    x = np.arange(24, dtype=np.float32).reshape(12, 2) / 8
    calls, want = _PREDICT_CALLS[case]
    for how, n, b in calls:
        if how == "predict":
            out = m.predict(x[:n], batch_size=b, verbose=0)
        elif how == "on_batch":
            out = m.predict_on_batch(x[:n])
        else:
            ds = tf.data.Dataset.from_tensor_slices(x[:n]).batch(b, drop_remainder=how == "dataset_drop")
            out = m.predict(ds, verbose=0)
            n = n - n % b if how == "dataset_drop" else n
        assert np.allclose(np.asarray(out), x[:n].sum(axis=1, keepdims=True), atol=1e-6), f"{case}: {out}"
    assert seen == want, f"{case}: predict_step traced with {seen}, TF 2.21 with {want}"


# -- tf.function: the placeholders' names follow the arguments' structure as given ---------------------------------
def _names(x):
    out = []

    def walk(v, path):
        if isinstance(v, dict):
            for k in v:
                walk(v[k], f"{path}/{k}")
        elif isinstance(v, (list, tuple)):
            for i, u in enumerate(v):
                walk(u, f"{path}/{i}")
        else:
            out.append((path, v.name))
    walk(x, "")
    return sorted(out)


_NAME_CASES = {
    # name: (the arguments, given by a function of tf.constant; {path in the arguments: placeholder name})
    "dict b, a": (lambda c: ({"b": c(1.0), "a": c(2.0)},), {"/0/b": "d:0", "/0/a": "d_1:0"}),
    "dict a, b": (lambda c: ({"a": c(1.0), "b": c(2.0)},), {"/0/a": "d:0", "/0/b": "d_1:0"}),
    "dict c, a, b": (lambda c: ({"c": c(1.0), "a": c(2.0), "b": c(3.0)},),
                     {"/0/c": "d:0", "/0/a": "d_1:0", "/0/b": "d_2:0"}),
    "list of a dict": (lambda c: ([{"z": c(1.0), "y": c(2.0)}, c(3.0)],),
                       {"/0/0/z": "d:0", "/0/0/y": "d_1:0", "/0/1": "d_2:0"}),
    "nested dicts": (lambda c: ({"q": {"n": c(1.0), "m": c(2.0)}, "p": c(3.0)},),
                     {"/0/q/n": "d:0", "/0/q/m": "d_1:0", "/0/p": "d_2:0"}),
    "two dicts": (lambda c: ({"b": c(1.0), "a": c(2.0)}, {"y": c(1.0), "x": c(2.0)}),
                  {"/0/b": "d:0", "/0/a": "d_1:0", "/1/y": "e:0", "/1/x": "e_1:0"}),
}


@clause("function.symbolic-tensors", ref="tf221")
@pytest.mark.parametrize("case", list(_NAME_CASES))
def test_blind53_placeholders_are_named_in_the_arguments_order(tf, case):
    """TF 2.21 names a nested argument's placeholders `d`, `d_1`, `d_2` ... in the order its trace makes them: a
    list's in order, a dict's in its insertion order (not nest's sorted keys), depth first (observed,
    gaps/obs3.py and names_probe.py)."""
    build, want = _NAME_CASES[case]
    got = {}

    @tf.function
    def f(d, e=None):
        got["names"] = _names([d] if e is None else [d, e])
        return tf.constant(0.0)

    f(*build(tf.constant))
    assert got["names"] == sorted(want.items()), f"{case}: {got['names']}, TF 2.21: {sorted(want.items())}"


@clause("function.symbolic-tensors", ref="tf221")
def test_blind53_placeholders_of_var_positional_and_keyword_arguments(tf):
    """`*args` entries are `args_0`, `args_1` ... (a dict entry's leaves `args_0`, `args_0_1` in its insertion order),
    `**kwargs` entries their keys (a dict value's leaves `zb`, `zb_1`), other parameters their names (observed,
    gaps/obs3.py)."""
    c = tf.constant
    got = {}

    @tf.function
    def star(*args):
        got["star"] = _names(args)
        return tf.constant(0.0)

    @tf.function
    def kw(x, **kwargs):
        got["kw"] = _names([x, kwargs])
        return tf.constant(0.0)

    @tf.function
    def two(a, b):
        got["two"] = _names([a, b])
        return tf.constant(0.0)

    star({"b": c(1.0), "a": c(2.0)}, c(3.0))
    kw(c(0.0), zb={"y": c(1.0), "x": c(2.0)}, za=c(3.0))
    two([c(1.0), {"k": c(2.0), "j": c(3.0)}], {"t": [c(4.0), c(5.0)], "s": c(6.0)})
    want = {"star": {"/0/b": "args_0:0", "/0/a": "args_0_1:0", "/1": "args_1:0"},
            "kw": {"/0": "x:0", "/1/za": "za:0", "/1/zb/y": "zb:0", "/1/zb/x": "zb_1:0"},
            "two": {"/0/0": "a:0", "/0/1/k": "a_1:0", "/0/1/j": "a_2:0", "/1/t/0": "b:0", "/1/t/1": "b_1:0",
                    "/1/s": "b_2:0"}}
    for k, w in want.items():
        assert got[k] == sorted(w.items()), f"{k}: {got[k]}, TF 2.21: {sorted(w.items())}"


# -- tf.data: rebatch's static batch dimension ---------------------------------------------------------------------
_REBATCH = {
    # name: (the dataset, the element_spec's shapes, the batches' shapes; observed on TF 2.21, gaps/obs4.py)
    "6 rows by 4": (lambda D, tf: D.from_tensors(tf.zeros([6])).rebatch(4), [(None,)], [(4,), (2,)]),
    "6 rows by 3": (lambda D, tf: D.from_tensors(tf.zeros([6])).rebatch(3), [(3,)], [(3,), (3,)]),
    "6 rows by 6": (lambda D, tf: D.from_tensors(tf.zeros([6])).rebatch(6), [(6,)], [(6,)]),
    "6 rows by 4, drop_remainder": (lambda D, tf: D.from_tensors(tf.zeros([6])).rebatch(4, drop_remainder=True),
                                    [(4,)], [(4,)]),
    "6 rows by [3, 3]": (lambda D, tf: D.from_tensors(tf.zeros([6])).rebatch([3, 3]), [(3,)], [(3,), (3,)]),
    "6 rows by [2, 4]": (lambda D, tf: D.from_tensors(tf.zeros([6])).rebatch([2, 4]), [(None,)], [(2,), (4,)]),
    "6x2 by 4": (lambda D, tf: D.from_tensors(tf.zeros([6, 2])).rebatch(4), [(None, 2)], [(4, 2), (2, 2)]),
    "6x2 by 2": (lambda D, tf: D.from_tensors(tf.zeros([6, 2])).rebatch(2), [(2, 2)], [(2, 2)] * 3),
    "batches of 4 (dropped) by 2": (lambda D, tf: D.range(8).batch(4, drop_remainder=True).rebatch(2), [(2,)],
                                    [(2,)] * 4),
    "batches of 4 (dropped) by 3": (lambda D, tf: D.range(8).batch(4, drop_remainder=True).rebatch(3), [(None,)],
                                    [(3,), (3,), (2,)]),
    "batches of 4 by 2": (lambda D, tf: D.range(8).batch(4).rebatch(2), [(None,)], [(2,)] * 4),
    "tuple of 8 rows by 4": (lambda D, tf: D.from_tensors((tf.zeros([8]), tf.zeros([8, 3]))).rebatch(4),
                             [(4,), (4, 3)], [(4,), (4,)]),
    "tuple of 8 rows by 3": (lambda D, tf: D.from_tensors((tf.zeros([8]), tf.zeros([8, 3]))).rebatch(3),
                             [(None,), (None, 3)], [(3,), (3,), (2,)]),
}


@clause("dataset.partial-batch-split", ref="tf221")
@pytest.mark.parametrize("case", list(_REBATCH))
def test_blind53_rebatch_keeps_a_static_batch_only_when_no_partial_batch_can_form(tf, case):
    """RebatchV2's element_spec (`_RebatchDataset._compute_static_batch_dim`): the batch dimension is the new size
    only when every size is the same and no partial batch can form (drop_remainder, or the input's known batch
    dimension a multiple of it); else None. The batches themselves follow (observed, gaps/obs4.py)."""
    build, spec_shapes, batch_shapes = _REBATCH[case]
    ds = build(tf.data.Dataset, tf)
    specs = tf.nest.flatten(ds.element_spec)
    assert [tuple(s.shape.as_list()) for s in specs] == spec_shapes, \
        f"{case}: element_spec {ds.element_spec}, TF 2.21: {spec_shapes}"
    got = [tuple(np.shape(_np(e[0] if isinstance(e, tuple) else e))) for e in ds]
    assert got == batch_shapes, f"{case}: batches {got}, TF 2.21: {batch_shapes}"


# -- distribution: MirroredStrategy's update and update_non_slot ---------------------------------------------------
def _mirrored(tf, backend, n):
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    return tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(n)])


def _leaves_of(r):
    if isinstance(r, dict):
        return [leaf for k in r for leaf in _leaves_of(r[k])]
    if isinstance(r, (list, tuple)):
        return [leaf for v in r for leaf in _leaves_of(v)]
    return [r]


_UPDATE_RESULTS = {
    # name: (fn of the copy, the structure's leaves' values in _leaves_of's order)
    "dict": (lambda x: {"a": x.read_value() + 1.0, "b": [x.read_value() * 2.0]}, [2.0, 2.0]),
    "nested dict": (lambda x: {"o": {"i": x.read_value() * 3.0}}, [3.0]),
    "namedtuple of a dict": (lambda x: _NT(x.read_value() + 1.0, {"r": x.read_value()}), [2.0, 1.0]),
    "list of a dict": (lambda x: [x.read_value(), {"z": x.read_value() - 1.0}], [1.0, 0.0]),
}


_NT = collections.namedtuple("_NT", ["p", "q"])


@clause("optim.update", ref="tf221")
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("result", list(_UPDATE_RESULTS))
def test_blind53_mirrored_update_mirrors_every_leaf_of_its_result(tf, backend, n, result):
    """MirroredStrategy's extended.update (group=True) regroups the copies' results leaf by leaf
    (distribute_utils.update_regroup): every tensor leaf of a dict, a nested dict, a namedtuple or a list is a Mirrored
    value holding each copy's result (observed on TF 2.21, gaps/obs5.py)."""
    s = _mirrored(tf, backend, n)
    with s.scope():
        v = tf.Variable(1.0)
    fn, want = _UPDATE_RESULTS[result]
    got = s.extended.update(v, fn)
    leaves = _leaves_of(got)
    assert [type(leaf).__name__ for leaf in leaves] == ["Mirrored"] * len(want), \
        f"{result}, {n} copies: every leaf Mirrored, got {[type(leaf).__name__ for leaf in leaves]}"
    for leaf, w in zip(leaves, want):
        vals = [float(_np(t)) for t in s.experimental_local_results(leaf)]
        assert vals == [w] * n, f"{result}, {n} copies: {vals}, want {[w] * n}"


@clause("extended.v1-methods", ref="tf221")
@pytest.mark.parametrize("n", [2, 3])
@pytest.mark.parametrize("case", ["args grouped", "args ungrouped", "args and kwargs", "a plain argument",
                                  "a dict result", "a variable update"])
def test_blind53_update_non_slot_gives_each_device_its_component(tf, backend, n, case):
    """MirroredExtended._update_non_slot (TF 2.21): fn runs once on each of the colocate_with devices under the update
    context of its index, with the i-th component of each distributed argument (positional and keyword) and a
    plain argument as it is; group=True regroups the results into Mirrored values, group=False gives the tuple of the
    local results; a variable's copy i is the one read and written on device i (observed, gaps/obs5.py)."""
    s = _mirrored(tf, backend, n)
    with s.scope():
        v = tf.Variable(1.0)
    pr = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(ctx.replica_id_in_sync_group + 1.0))
    devs = s.extended.non_slot_devices([v])
    ids = [i + 1.0 for i in range(n)]
    ext = s.extended
    if case == "args grouped":
        got, want = ext.update_non_slot(devs, lambda a: a * 10.0, args=(pr,)), [10.0 * i for i in ids]
    elif case == "args ungrouped":
        got, want = ext.update_non_slot(devs, lambda a: a * 10.0, args=(pr,), group=False), [10.0 * i for i in ids]
    elif case == "args and kwargs":
        got = ext.update_non_slot(devs, lambda a, b=None: a + b, args=(pr,), kwargs={"b": pr}, group=False)
        want = [2.0 * i for i in ids]
    elif case == "a plain argument":
        got, want = ext.update_non_slot(devs, lambda a: a * 2.0, args=(tf.constant(4.0),), group=False), [8.0] * n
    elif case == "a dict result":
        got = ext.update_non_slot(devs, lambda a: {"x": a + 0.5}, args=(pr,))
        assert set(got) == {"x"}, f"{case}: {got!r}"
        got, want = got["x"], [i + 0.5 for i in ids]
    else:
        got, want = ext.update_non_slot(devs, lambda a: v.assign_add(a), args=(pr,), group=False), [1.0 + i for i in ids]
        copies = [float(_np(c)) for c in s.experimental_local_results(v)]
        assert copies == want, f"{case}: the variable's copies {copies}, want {want}"
    if "ungrouped" in case or case in ("args and kwargs", "a plain argument", "a variable update"):
        assert isinstance(got, tuple) and len(got) == n, f"{case}: group=False gives a tuple of {n}, got {got!r}"
        vals = [float(_np(t)) for t in got]
    else:
        assert type(got).__name__ == "Mirrored", f"{case}: group=True gives a Mirrored value, got {got!r}"
        vals = [float(_np(t)) for t in s.experimental_local_results(got)]
    assert vals == want, f"{case}, {n} devices: {vals}, want {want}"


# -- random ops: tnp.random's shapes, dtypes and draws --------------------------------------------------------------
_TNP_SHAPES = {
    # name: (call, dtype, shape; observed on TF 2.21, gaps/obs6.py)
    "uniform()": (lambda R: R.uniform(), "float64", ()),
    "uniform(0, 1, (2, 3))": (lambda R: R.uniform(0.0, 1.0, (2, 3)), "float64", (2, 3)),
    "uniform(vector low)": (lambda R: R.uniform([0.0, 1.0, 2.0], 5.0), "float64", (3,)),
    "uniform(vector high)": (lambda R: R.uniform(0.0, [1.0, 2.0, 3.0]), "float64", (3,)),
    "uniform(column, row)": (lambda R: R.uniform([[0.0], [1.0]], [2.0, 3.0, 4.0]), "float64", (2, 3)),
    "uniform(row, column)": (lambda R: R.uniform([0.0, 0.0, 0.0], [[1.0], [2.0]]), "float64", (2, 3)),
    "uniform(low, high, size)": (lambda R: R.uniform([0.0, 1.0], [1.0, 2.0], (3, 2)), "float64", (3, 2)),
    "rand(2, 3)": (lambda R: R.rand(2, 3), "float64", (2, 3)),
    "rand()": (lambda R: R.rand(), "float64", ()),
    "standard_normal(3)": (lambda R: R.standard_normal(3), "float64", (3,)),
    "standard_normal((2, 2))": (lambda R: R.standard_normal((2, 2)), "float64", (2, 2)),
    "randn(2, 3)": (lambda R: R.randn(2, 3), "float64", (2, 3)),
    "randint(5, size=3)": (lambda R: R.randint(5, size=3), "int64", (3,)),
    "randint(2, 9, (2, 2))": (lambda R: R.randint(2, 9, (2, 2)), "int64", (2, 2)),
    "randint(dtype=int32)": (lambda R: R.randint(0, 4, 3, dtype=np.int32), "int32", (3,)),
    "poisson(3.0, (2, 3))": (lambda R: R.poisson(3.0, (2, 3)), "int64", (2, 3)),
    "poisson([1, 2], (4, 2))": (lambda R: R.poisson([1.0, 2.0], (4, 2)), "int64", (4, 2, 2)),
    "poisson(2.0, 3)": (lambda R: R.poisson(2.0, 3), "int64", (3,)),
}


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("case", list(_TNP_SHAPES))
def test_blind53_tnp_random_shapes_and_dtypes(tf, case):
    """tf.experimental.numpy.random (np_random.py): uniform/rand/random draw float64 of `size`, or without one of the
    bounds' broadcast shape; standard_normal/randn float64; randint int64 by default (int32 when asked); poisson
    int64 of size + lam's shape (observed on TF 2.21, gaps/obs6.py)."""
    call, dtype, shape = _TNP_SHAPES[case]
    R = tf.experimental.numpy.random
    R.seed(11)
    r = call(R)
    assert (r.dtype.name, tuple(np.shape(_np(r)))) == (dtype, shape), \
        f"{case}: {r.dtype.name} {np.shape(_np(r))}, TF 2.21: {dtype} {shape}"


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("low, high", [([0.0, 0.0, 0.0], [[1.0], [2.0]]), ([[0.0], [1.0]], [2.0, 3.0, 4.0]),
                                       (0.0, [1.0, 2.0, 3.0]), ([0.0, 1.0, 2.0], 5.0)],
                         ids=["row, column", "column, row", "scalar, vector", "vector, scalar"])
def test_blind53_tnp_uniform_scales_one_draw_per_element(tf, low, high):
    """tnp.random.uniform(low, high) draws tf.random.uniform of the bounds' broadcast shape (one draw per output
    element, not per element of one bound) and scales it: with the same seed, uniform(low, high) ==
    rand(*shape) * (high - low) + low."""
    R = tf.experimental.numpy.random
    shape = np.broadcast_shapes(np.shape(low), np.shape(high))
    R.seed(3)
    unit = np.asarray(_np(R.rand(*shape)))
    R.seed(3)
    got = np.asarray(_np(R.uniform(low, high)))
    want = unit * (np.asarray(high) - np.asarray(low)) + np.asarray(low)
    assert got.shape == shape and np.allclose(got, want, rtol=1e-12, atol=0), \
        f"uniform({low}, {high}): {got.tolist()}, want rand{shape} scaled: {want.tolist()}"


# -- random ops: the binomial ops' counts and probs conversions ------------------------------------------------------
_BINOMIAL_ARGS = {
    # name: (counts, probs as functions of tf; stateless_binomial's outcome, Generator.binomial's; observed on
    # TF 2.21, gaps/obs7.py: "draws" an int32 result, else the error class)
    "list counts, float64 probs": (lambda tf: [5, 10], lambda tf: tf.constant([0.5, 0.25], tf.float64),
                                   "draws", "InvalidArgumentError"),
    "list counts, float16 probs": (lambda tf: [5, 10], lambda tf: tf.constant([0.5, 0.25], tf.float16),
                                   "draws", "InvalidArgumentError"),
    "float list counts, float64 probs": (lambda tf: [5.0, 10.0], lambda tf: tf.constant([0.5, 0.25], tf.float64),
                                         "draws", "InvalidArgumentError"),
    "NumPy int counts, float64 probs": (lambda tf: np.array([5, 10]), lambda tf: tf.constant([0.5, 0.25], tf.float64),
                                        "draws", "InvalidArgumentError"),
    "list counts, list probs": (lambda tf: [5, 10], lambda tf: [0.5, 0.25], "draws", "InvalidArgumentError"),
    "float64 counts, list probs": (lambda tf: tf.constant([5.0, 10.0], tf.float64), lambda tf: [0.5, 0.25],
                                   "InvalidArgumentError", "InvalidArgumentError"),
    "float64 counts and probs": (lambda tf: tf.constant([5.0, 10.0], tf.float64),
                                 lambda tf: tf.constant([0.5, 0.25], tf.float64), "draws", "draws"),
    "float32 counts, float64 probs": (lambda tf: tf.constant([5.0, 10.0]), lambda tf: tf.constant([0.5, 0.25], tf.float64),
                                      "InvalidArgumentError", "InvalidArgumentError"),
    "list counts, NumPy float64 probs": (lambda tf: [5, 10], lambda tf: np.array([0.5, 0.25]),
                                         "draws", "InvalidArgumentError"),
}


def _outcome(f):
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return type(e).__name__, None
    return "draws", r


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("case", list(_BINOMIAL_ARGS))
def test_blind53_binomial_converts_counts_with_the_probs_dtype(tf, case):
    """tf.random.stateless_binomial converts probs with a float32 hint and then counts with probs' dtype as the hint
    (Python and NumPy counts follow a float64 or float16 probs), so those draw as the same float64 parameters do;
    a counts tensor of another dtype than probs is the kernel's InvalidArgumentError. Generator.binomial converts both
    plainly: Python integer counts are int32, and StatefulRandomBinomial has no int32 kernel on its resource's
    device (InvalidArgumentError "No OpKernel was registered"), a float mismatch InvalidArgumentError."""
    counts, probs, want_stateless, want_generator = _BINOMIAL_ARGS[case]
    got, r = _outcome(lambda: tf.random.stateless_binomial([3, 2], seed=[1, 2], counts=counts(tf), probs=probs(tf)))
    assert got == want_stateless, f"{case}: stateless_binomial gave {got}, TF 2.21: {want_stateless}"
    if r is not None:
        ref = tf.random.stateless_binomial([3, 2], seed=[1, 2], counts=tf.constant([5.0, 10.0], tf.float64),
                                           probs=tf.constant([0.5, 0.25], tf.float64))
        assert r.dtype.name == "int32" and np.array_equal(_np(r), _np(ref)), \
            f"{case}: the draws {_np(r).tolist()} are those of float64 parameters {_np(ref).tolist()}"
    g = tf.random.Generator.from_seed(3, alg="philox")
    got, _ = _outcome(lambda: g.binomial([3, 2], counts=counts(tf), probs=probs(tf)))
    assert got == want_generator, f"{case}: Generator.binomial gave {got}, TF 2.21: {want_generator}"
