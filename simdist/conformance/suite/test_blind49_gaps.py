"""Gaps the forty-ninth blind batch of planted training bugs found (issue 29, docs/conformance.md "How strong is the
suite"): rules of the training layer (the trainer, gradients and the tape, tf.function, tf.data, checkpoints and
saving, distribution, random ops) that the suite stated for one spelling, one option value or one input only, or
never, so that a wrong implementation of the other case passed (TF 2.21 + Keras 3.15).

Each test checks a class of behaviour, not one planted bug. Every expected value is computed here with NumPy or
plain Python (a transcription of TF's or Keras 3.15's rule), or is a relation TF's rule implies between two
spellings or two runs, never the backend's own implementation of the same rule.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np   # (an ndarray of any backend's value)

clause = pytest.mark.clause

X8 = np.arange(16, dtype=np.float32).reshape(8, 2) / 8
Y8 = np.arange(8, dtype=np.float32).reshape(8, 1) / 4


# -- checkpoints: the reader, load_variable and the checkpoint state ---------------------------------------------------
_V = "v/.ATTRIBUTES/VARIABLE_VALUE"
_I = "i/.ATTRIBUTES/VARIABLE_VALUE"
_S = "s/.ATTRIBUTES/VARIABLE_VALUE"
_COUNTER = "save_counter/.ATTRIBUTES/VARIABLE_VALUE"


def _three_saves(tf, tmp_path):
    """A float vector, an int64 scalar and a float scalar, saved three times (c-1, c-2, c-3)."""
    ck = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0]), i=tf.Variable(7, dtype=tf.int64), s=tf.Variable(3.5))
    return [ck.save(str(tmp_path / "c")) for _ in range(3)]


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("target", ["directory", "newest prefix", "first prefix"])
@pytest.mark.parametrize("suffix", ["", ":0"])
def test_blind49_load_variable_reads_every_spelling(tf, tmp_path, target, suffix):
    """tf.train.load_variable(ckpt_dir_or_file, name) (checkpoint_utils.py): a directory reads its newest
    checkpoint, a prefix that checkpoint; a trailing ":0" is dropped; a scalar comes back as a NumPy scalar of
    the variable's dtype, a vector as an ndarray; a missing name (or ":1") is NotFoundError."""
    paths = _three_saves(tf, tmp_path)
    where = {"directory": str(tmp_path), "newest prefix": paths[-1], "first prefix": paths[0]}[target]
    v = tf.train.load_variable(where, _V + suffix)
    assert isinstance(v, np.ndarray) and v.dtype == np.float32 and v.tolist() == [1.0, 2.0], f"v: {v!r}"
    i = tf.train.load_variable(where, _I + suffix)
    assert type(i) is np.int64 and i == 7, f"an int64 scalar comes back as np.int64 7, got {i!r} ({type(i)})"
    s = tf.train.load_variable(where, _S + suffix)
    assert type(s) is np.float32 and s == 3.5, f"a float32 scalar comes back as np.float32 3.5, got {s!r}"
    n = tf.train.load_variable(where, _COUNTER + suffix)
    want = 1 if target == "first prefix" else 3
    assert type(n) is np.int64 and n == want, f"save_counter of {target}: expected {want}, got {n!r}"
    for bad in ("nope", _V + ":1"):
        with pytest.raises(tf.errors.NotFoundError):
            tf.train.load_variable(where, bad)


@clause("checkpoint.latest", ref="tf221")
def test_blind49_checkpoint_reader_types_and_names(tf, tmp_path):
    """CheckpointReader.get_tensor: a NumPy scalar for a scalar, a copy for an array (writing into it changes
    nothing); the reader does not drop ":0" (only load_variable does): has_tensor is False, get_tensor
    NotFoundError; the shape and dtype maps list the saved variables."""
    _three_saves(tf, tmp_path)
    r = tf.train.load_checkpoint(str(tmp_path))
    got = {k: r.get_tensor(k) for k in (_V, _I, _S, _COUNTER)}
    assert [type(got[k]).__name__ for k in (_I, _S, _COUNTER)] == ["int64", "float32", "int64"], \
        f"scalars come back as NumPy scalars: {[type(got[k]) for k in (_I, _S, _COUNTER)]}"
    assert int(got[_COUNTER]) == 3 and int(got[_I]) == 7 and float(got[_S]) == 3.5
    got[_V][0] = 99.0
    assert r.get_tensor(_V).tolist() == [1.0, 2.0], "get_tensor returns a copy"
    assert not r.has_tensor(_V + ":0") and r.has_tensor(_V)
    with pytest.raises(tf.errors.NotFoundError):
        r.get_tensor(_V + ":0")
    shapes = r.get_variable_to_shape_map()
    assert {k: shapes[k] for k in (_V, _I, _S, _COUNTER)} == {_V: [2], _I: [], _S: [], _COUNTER: []}, shapes
    dts = r.get_variable_to_dtype_map()
    assert [dts[k] for k in (_V, _I, _S, _COUNTER)] == [tf.float32, tf.int64, tf.float32, tf.int64], dts


@clause("checkpoint.latest", ref="tf221")
@pytest.mark.parametrize("how", ["Checkpoint.save", "CheckpointManager"])
def test_blind49_checkpoint_state_paths_are_joined_to_the_directory(tf, tmp_path, how):
    """tf.train.get_checkpoint_state (checkpoint_management.py): the state file's relative paths, the newest one
    and every kept one, are joined to the directory. Checkpoint.save keeps only the newest in the list;
    CheckpointManager(max_to_keep=2) after three saves the last two."""
    ck = tf.train.Checkpoint(v=tf.Variable(1.0))
    if how == "Checkpoint.save":
        for _ in range(3):
            ck.save(str(tmp_path / "c"))
        newest, kept = "c-3", ["c-3"]
    else:
        m = tf.train.CheckpointManager(ck, str(tmp_path), max_to_keep=2)
        for _ in range(3):
            m.save()
        newest, kept = "ckpt-3", ["ckpt-2", "ckpt-3"]
    st = tf.train.get_checkpoint_state(str(tmp_path))
    want = os.path.join(str(tmp_path), newest)
    assert st.model_checkpoint_path == want, f"model_checkpoint_path: expected {want}, got {st.model_checkpoint_path}"
    got = list(st.all_model_checkpoint_paths)
    assert got == [os.path.join(str(tmp_path), k) for k in kept], f"all_model_checkpoint_paths: {got}"
    assert tf.train.latest_checkpoint(str(tmp_path)) == want


# -- random ops: a Generator's algorithm names and its skip ---------------------------------------------------------
def _canonical_alg(name):
    """random_ops_util.convert_alg_to_int for a string: stripped, lower-cased, '-' and '_' removed."""
    return {"philox": 1, "threefry": 2, "autoselect": 3}.get(name.strip().lower().replace("-", "").replace("_", ""))


@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("alg", ["philox", "PHILOX", "Philox", " philox ", "threefry", "ThreeFry", "three_fry",
                                 "THREE-FRY", "auto_select", "AUTO_SELECT", "auto-select", "autoselect", "philo",
                                 "mt19937", ""])
def test_blind49_generator_algorithm_names(tf, alg):
    """Generator.from_seed and create_rng_state take an algorithm by any spelling convert_alg_to_int canonicalises
    (ThreeFry's state has 2 words, Philox's and auto_select's 3); any other name is ValueError."""
    want = _canonical_alg(alg)
    if want is None:
        with pytest.raises(ValueError):
            tf.random.Generator.from_seed(1, alg=alg)
        with pytest.raises(ValueError):
            tf.random.create_rng_state(1, alg)
        return
    g = tf.random.Generator.from_seed(1, alg=alg)
    assert int(g.algorithm) == want, f"{alg!r}: algorithm {g.algorithm}, expected {want}"
    state = _np(tf.random.create_rng_state(1, alg)).tolist()
    assert state == [1, 0] + ([0] if want != 2 else []), f"{alg!r}: state {state}"


@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("alg", [0, 4, -1, 1.0])
def test_blind49_generator_algorithm_numbers(tf, alg):
    """convert_alg_to_int keeps any int as it is, so a number without a state size fails where the size is read,
    in TF 2.21 with the AttributeError of its missing message helper (stateful_random_ops._get_state_size); a
    float is TypeError ("Can't convert argument `alg` ... to int")."""
    err = TypeError if isinstance(alg, float) else AttributeError
    for make in (lambda: tf.random.Generator.from_seed(1, alg=alg), lambda: tf.random.create_rng_state(1, alg),
                 lambda: tf.random.Generator.from_state([1, 2, 3], alg=alg)):
        with pytest.raises(err):
            make()


@clause("ops.random-generator", ref="tf221")
@pytest.mark.parametrize("n", [0, 1, 3, 10])
@pytest.mark.parametrize("draw", ["uniform", "normal"])
def test_blind49_generator_skip_matches_drawing(tf, n, draw):
    """Generator.skip(n) advances a Philox state as drawing n 32-bit outputs does (RngReadAndSkip's delta counts in
    the same unit as a stateful draw's): after g.skip(n) and h.uniform([n]) the two states and their next draws
    are equal, and skip(0) changes nothing."""
    g = tf.random.Generator.from_seed(5)
    h = tf.random.Generator.from_seed(5)
    before = _np(g.state).tolist()
    g.skip(n)
    if n:
        h.uniform([n])
    assert _np(g.state).tolist() == _np(h.state).tolist(), \
        f"skip({n}): state {_np(g.state).tolist()}, drawing {n} gives {_np(h.state).tolist()} (from {before})"
    a, b = getattr(g, draw)([3]), getattr(h, draw)([3])
    np.testing.assert_array_equal(_np(a), _np(b), err_msg=f"the draw after skip({n})")


# -- the trainer: a step's logs under a strategy --------------------------------------------------------------------
@clause("keras.fit.logs", ref="tf221")
@pytest.mark.parametrize("replicas", [2, 3])
@pytest.mark.parametrize("method", ["fit", "evaluate", "train_on_batch", "test_on_batch"])
def test_blind49_step_logs_are_the_mean_over_replicas(tf, keras, backend, replicas, method):
    """Keras 3.15's TF trainer reduces a step's logs with reduce_per_replica(reduction="auto"), the mean over the
    replicas off TPU (distribute_reduction_method aside): a custom train_step / test_step returning each replica's
    id + 1 logs (n + 1) / 2, in fit, evaluate, train_on_batch and test_on_batch."""
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    s = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])

    class M(keras.Model):
        def __init__(self):
            super().__init__()
            self.d = keras.layers.Dense(1)

        def call(self, x):
            return self.d(x)

        def _logs(self, data):
            rid = tf.distribute.get_replica_context().replica_id_in_sync_group
            return {"r": tf.cast(rid, tf.float32) + 1.0 + 0.0 * tf.reduce_sum(data[0])}

        def train_step(self, data):
            return self._logs(data)

        def test_step(self, data):
            return self._logs(data)

    with s.scope():
        m = M()
        m.compile("sgd", "mse")
    if method == "fit":
        got = m.fit(X8, Y8, batch_size=6, verbose=0, shuffle=False).history["r"][-1]
    elif method == "evaluate":
        got = m.evaluate(X8, Y8, batch_size=6, verbose=0, return_dict=True)["r"]
    else:
        got = getattr(m, method)(X8[:6], Y8[:6], return_dict=True)["r"]
    want = sum(range(1, replicas + 1)) / replicas
    assert abs(float(got) - want) < 1e-6, f"{method} over {replicas} replicas: logged {float(got)}, the mean {want}"


# -- distribution: extended.update's results by group ---------------------------------------------------------------
def _strategy(tf, backend, name):
    backend.make_strategy("mirrored", 3)   # (the backend's devices made)
    return {"default": lambda: tf.distribute.get_strategy(),
            "OneDevice": lambda: tf.distribute.OneDeviceStrategy("/cpu:0"),
            "Mirrored(1)": lambda: tf.distribute.MirroredStrategy(["/cpu:0"]),
            "Mirrored(2)": lambda: tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])}[name]()


@clause("optim.update", ref="tf221")
@pytest.mark.parametrize("name", ["default", "OneDevice", "Mirrored(1)", "Mirrored(2)"])
@pytest.mark.parametrize("result", ["tensor", "tuple", "dict", "none"])
def test_blind49_update_results_by_group(tf, backend, name, result):
    """strategy.extended.update(v, fn, group=...) (distribute_utils.update_regroup): group=False gives each leaf
    as the tuple of its local results, one per copy (the default and one-device strategies: a 1-tuple), a None
    result (None,); group=True gives one copy's result as it is (not a distributed value) and several copies' as
    a Mirrored value, None as None."""
    s = _strategy(tf, backend, name)
    copies = 2 if name == "Mirrored(2)" else 1
    with s.scope():
        v = tf.Variable(1.0)
    fn = {"tensor": lambda x: x * 2.0, "tuple": lambda x: (x * 2.0, x + 2.0), "dict": lambda x: {"a": x * 2.0},
          "none": lambda x: None}[result]
    want = {"tensor": [2.0], "tuple": [2.0, 3.0], "dict": [2.0], "none": []}[result]
    ungrouped = s.extended.update(v, fn, group=False)
    if result == "none":
        assert isinstance(ungrouped, tuple) and list(ungrouped) == [None], f"{name}: group=False of None: {ungrouped!r}"
    else:
        leaves = list(ungrouped) if result == "tuple" else [ungrouped] if result == "tensor" else [ungrouped["a"]]
        for leaf, w in zip(leaves, want):
            assert isinstance(leaf, tuple) and len(leaf) == copies, \
                f"{name}, group=False: a leaf is the tuple of {copies} local result(s), got {leaf!r}"
            assert [float(_np(t)) for t in leaf] == [w] * copies, f"{name}, group=False: {leaf!r}"
    grouped = s.extended.update(v, fn, group=True)
    if result == "none":
        assert grouped is None, f"{name}: group=True of None gives None, got {grouped!r}"
        return
    leaves = list(grouped) if result == "tuple" else [grouped] if result == "tensor" else [grouped["a"]]
    for leaf, w in zip(leaves, want):
        distributed = isinstance(leaf, tf.distribute.DistributedValues)
        assert distributed == (copies > 1), \
            f"{name}, group=True: {'a Mirrored value' if copies > 1 else 'the one result as it is'}, got {leaf!r}"
        got = [float(_np(t)) for t in s.experimental_local_results(leaf)] if distributed else [float(_np(leaf))]
        assert got == [w] * copies, f"{name}, group=True: {got}"


# -- the tape: StopGradient ends the recording; a tape's misuse errors -----------------------------------------------
_AFTER_STOP = {
    "unique": lambda tf, v: tf.unique(v).y,
    "unique_with_counts": lambda tf, v: tf.cast(tf.unique_with_counts(v).count, tf.float32),
    "argmax": lambda tf, v: tf.cast(tf.argmax(v), tf.float32),
    "round": lambda tf, v: tf.round(v),
    "sign times itself": lambda tf, v: tf.sign(v) * v,
}


@clause("autodiff.stop-gradient", ref="tf221")
@pytest.mark.parametrize("op", list(_AFTER_STOP))
@pytest.mark.parametrize("persistent", [False, True])
def test_blind49_ops_after_stop_gradient_are_not_recorded(tf, op, persistent):
    """TF 2.21's tape never records StopGradient (its output is not watched), so no op that only uses it is
    recorded either: whether or not that op has a gradient (Unique and UniqueWithCounts have none registered),
    the gradient with respect to the watched input is None, or zeros with unconnected_gradients="zero"."""
    v = tf.constant([1.0, 2.0, 1.0])
    with tf.GradientTape(persistent=persistent) as t:
        t.watch(v)
        y = _AFTER_STOP[op](tf, tf.stop_gradient(v))
    assert t.gradient(y, v) is None, f"{op} after stop_gradient: the gradient is None"
    if persistent:
        z = t.gradient(y, v, unconnected_gradients="zero")
        assert _np(z).tolist() == [0.0, 0.0, 0.0], f"{op}: unconnected 'zero' gives zeros, got {z}"


@clause("autodiff.stop-recording", ref="tf221")
@pytest.mark.parametrize("misuse", ["reset before entering", "reset after exiting", "stop_recording before entering",
                                    "stop_recording after exiting", "entering twice"])
def test_blind49_tape_misuse_errors(tf, misuse):
    """GradientTape's state checks (backprop.py): reset() outside the `with` is _pop_tape's ValueError "Tape is not
    recording."; stop_recording() of a tape never entered is RuntimeError "Trying to stop recording a tape which is
    not recording.", after its `with` ended _pop_tape's ValueError; entering a recording tape again is ValueError
    "Tape is still recording, ..."."""
    x = tf.constant(2.0)
    t = tf.GradientTape()
    if "after exiting" in misuse:
        with t:
            t.watch(x)
    if misuse.startswith("reset"):
        with pytest.raises(ValueError, match="Tape is not recording"):
            t.reset()
    elif misuse == "stop_recording before entering":
        with pytest.raises(RuntimeError, match="Trying to stop recording a tape which is not recording"):
            with t.stop_recording():
                pass
    elif misuse == "stop_recording after exiting":
        with pytest.raises(ValueError, match="Tape is not recording"):
            with t.stop_recording():
                pass
    else:
        with pytest.raises(ValueError, match="Tape is still recording"):
            with t:
                with t:
                    pass


@clause("autodiff.stop-recording", ref="tf221")
def test_blind49_reset_inside_the_tape_forgets_the_watched_tensors(tf):
    """reset() inside the `with` of a persistent tape forgets everything recorded and watched before it: neither
    the earlier result nor a later one that uses the no longer watched tensor has a gradient."""
    x = tf.constant(2.0)
    with tf.GradientTape(persistent=True) as t:
        t.watch(x)
        y = x * x
        t.reset()
        z = x * 3.0
        t.watch(x)
        w = x * 5.0
    assert t.gradient(y, x) is None and t.gradient(z, x) is None
    assert float(_np(t.gradient(w, x))) == 5.0


# -- tf.function: the Python values a function returns ----------------------------------------------------------------
_RETURNED = {
    # name: (value, the dtypes and values of its leaves, or None: func_graph's TypeError)
    "2**63": (2 ** 63, [("uint64", 2 ** 63)]),
    "2**64": (2 ** 64, None),
    "-2**63 - 1": (-2 ** 63 - 1, None),
    "a tuple holding 2**64": ((1, 2 ** 64), None),
    "a dict holding 2**64": ({"a": 2 ** 64}, None),
    "a list of an int and a string": ([1, "a"], [("int32", 1), ("string", b"a")]),
    "a Python complex": (1 + 2j, [("complex128", 1 + 2j)]),
    "a float beyond float32": (1e39, [("float32", float("inf"))]),
}


@clause("function.symbolic-tensors", ref="tf221")
@pytest.mark.parametrize("case", list(_RETURNED))
def test_blind49_returned_python_values_convert_or_fail_with_type_error(tf, case):
    """func_graph converts each returned Python leaf with convert_to_tensor (make_tensor_proto's rules: an int in
    [2**63, 2**64) is uint64, a float is float32, a complex complex128, each leaf of a list apart); a leaf it cannot
    convert is TypeError "To be compatible with tf.function, Python functions must return zero or more Tensors
    ...", whatever structure holds it (never ValueError)."""
    value, want = _RETURNED[case]
    f = tf.function(lambda: value)
    if want is None:
        with pytest.raises(TypeError, match="To be compatible with tf.function"):
            f()
        return
    got = [(t.dtype.name, _np(t).item()) for t in tf.nest.flatten(f())]
    assert got == want, f"{case}: returned {got}, expected {want}"


# -- the trainer: weights of a dict of outputs are matched by sorted name -----------------------------------------------
def _two_outputs(keras, order):
    """A functional model with outputs "a" (a zero Dense: predicts 0) and "b" (a ones Dense: x0 + x1), the dict
    of outputs built in `order`."""
    inp = keras.Input((2,))
    heads = {"a": keras.layers.Dense(1, kernel_initializer="zeros", name="a")(inp),
             "b": keras.layers.Dense(1, kernel_initializer="ones", name="b")(inp)}
    return keras.Model(inp, {k: heads[k] for k in order})


def _weighted_mse(pred, w=None):
    """Keras's mean squared error with sample weights, reduced "sum_over_batch_size" (the weighted sum over n)."""
    se = ((Y8 - pred) ** 2).mean(axis=-1)
    return float((se * (np.ones(len(se)) if w is None else w)).sum() / len(se))


_PRED = {"a": np.zeros((8, 1), np.float32), "b": X8.sum(axis=1, keepdims=True)}
_SW = {"a": np.ones(8, np.float32), "b": np.arange(8, dtype=np.float32)}


@clause("keras.fit.logs", ref="tf221")
@pytest.mark.parametrize("order", ["ab", "ba"])
@pytest.mark.parametrize("how", ["sample_weight dict", "loss_weights list", "loss_weights dict",
                                 "loss list and loss_weights list"])
def test_blind49_dict_outputs_take_their_weights_by_sorted_name(tf, keras, order, how):
    """Keras 3.15 matches a dict of outputs to anything given by position in the outputs' SORTED names (tree
    flattening), whatever order the dict was built in: sample weights given as a dict are read by the name of
    each output (CompileLoss.call's resolve_path), a list of loss weights against a dict of losses is packed into
    the losses' sorted keys, a list of losses and a list of loss weights follow the sorted outputs."""
    m = _two_outputs(keras, order)
    losses = {k: "mse" for k in order}
    kw, sample_weight = {}, None
    if how == "sample_weight dict":
        sample_weight = _SW
        want = _weighted_mse(_PRED["a"], _SW["a"]) + _weighted_mse(_PRED["b"], _SW["b"])
    elif how == "loss_weights list":
        kw["loss_weights"] = [1.0, 0.0]   # ("a", the first sorted name, takes 1.0)
        want = _weighted_mse(_PRED["a"])
    elif how == "loss_weights dict":
        kw["loss_weights"] = {"a": 0.0, "b": 1.0}
        want = _weighted_mse(_PRED["b"])
    else:
        losses = ["mse", "mse"]
        kw["loss_weights"] = [0.0, 2.0]   # (the sorted outputs: a 0, b 2)
        want = 2.0 * _weighted_mse(_PRED["b"])
    m.compile("sgd", loss=losses, **kw)
    got = m.evaluate(X8, {"a": Y8, "b": Y8}, sample_weight=sample_weight, verbose=0, return_dict=True)["loss"]
    assert abs(float(got) - want) < 1e-4 * max(1.0, abs(want)), \
        f"outputs built in order {order!r}, {how}: loss {float(got)}, expected {want}"


# -- the tape: an IndexedSlices gradient is densified for every op but a few ---------------------------------------------
_V3 = np.array([1.0, 4.0, 9.0], np.float32)
_COUNTS = np.array([2.0, 0.0, 1.0], np.float32)   # (rows 0, 2, 0 gathered)
_THROUGH = {   # op: (function, its derivative at _V3, whether TF passes the rows' IndexedSlices through)
    "identity": (lambda tf, v: tf.identity(v), np.ones(3), True),
    "neg": (lambda tf, v: tf.negative(v), -np.ones(3), True),
    "plus 1": (lambda tf, v: v + 1.0, np.ones(3), True),
    "cast to float64": (lambda tf, v: tf.cast(v, tf.float64), np.ones(3), True),
    "concat with itself": (lambda tf, v: tf.concat([v, v], 0), np.ones(3), True),
    "sqrt": (lambda tf, v: tf.sqrt(v), 0.5 / np.sqrt(_V3), False),
    "exp": (lambda tf, v: tf.exp(v), np.exp(_V3), False),
    "square": (lambda tf, v: tf.square(v), 2 * _V3, False),
    "times 2": (lambda tf, v: v * 2.0, 2 * np.ones(3), False),
    "reshape": (lambda tf, v: tf.reshape(v, [3]), np.ones(3), False),
    "abs": (lambda tf, v: tf.abs(v), np.ones(3), False),
}


@clause("ops.gather-gradient-indexed-slices", ref="tf221")
@pytest.mark.parametrize("op", list(_THROUGH))
def test_blind49_gather_gradient_through_an_op(tf, op):
    """tape.gradient(tf.gather(f(v), [0, 2, 0]), v): Gather's gradient is IndexedSlices; TF's gradient functions
    of Identity, Neg, AddV2 (a skipped scalar input), Cast and ConcatV2 take it as it is, so v's gradient stays
    IndexedSlices; every other op's gradient function gets it as a dense tensor (sqrt, exp, square, Mul, Reshape,
    Abs), so v's gradient is dense. Either way its value is the gather counts times f'(v)."""
    f, deriv, through = _THROUGH[op]
    v = tf.Variable(_V3)
    with tf.GradientTape() as t:
        y = tf.gather(f(tf, v), [0, 2, 0])
    g = t.gradient(y, v)
    assert isinstance(g, tf.IndexedSlices) == through, \
        f"{op}: v's gradient is {'IndexedSlices' if through else 'a dense tensor'}, got {type(g).__name__}"
    np.testing.assert_allclose(_np(tf.convert_to_tensor(g)), (_COUNTS * deriv).astype(np.float32), rtol=1e-5,
                               err_msg=f"{op}: the gradient's values")


# -- random ops: the shape argument is a vector ------------------------------------------------------------------------
_RANDOM_OPS = {
    "normal": lambda tf, s: tf.random.normal(s, seed=1),
    "uniform": lambda tf, s: tf.random.uniform(s, seed=1),
    "truncated_normal": lambda tf, s: tf.random.truncated_normal(s, seed=1),
    "uniform int32": lambda tf, s: tf.random.uniform(s, maxval=5, dtype=tf.int32, seed=1),
    "stateless_normal": lambda tf, s: tf.random.stateless_normal(s, [1, 2]),
    "stateless_uniform": lambda tf, s: tf.random.stateless_uniform(s, [1, 2]),
}
_SHAPES = {   # name: (make the shape, the draw's shape, or None: a scalar, the kernel's InvalidArgumentError)
    "3": (lambda tf: 3, None), "np.int64(3)": (lambda tf: np.int64(3), None),
    "np.array(3)": (lambda tf: np.array(3), None), "tf.constant(3)": (lambda tf: tf.constant(3), None),
    "[3]": (lambda tf: [3], [3]), "np.array([3])": (lambda tf: np.array([3]), [3]),
    "tf.constant([3])": (lambda tf: tf.constant([3]), [3]), "[]": (lambda tf: [], []), "[2, 3]": (lambda tf: [2, 3], [2, 3]),
}


@clause("ops.random-arguments", ref="tf221")
@pytest.mark.parametrize("shape", list(_SHAPES))
@pytest.mark.parametrize("op", list(_RANDOM_OPS))
def test_blind49_random_shape_must_be_a_vector(tf, op, shape):
    """A random op's shape argument is a vector of int32/int64 (a list, a 1-D array or tensor, [] for a scalar
    draw); a scalar, whether a Python int, a NumPy integer, a 0-d array or a 0-d tensor, is the kernel's
    InvalidArgumentError "shape must be a vector of {int32,int64}, got shape []" (eagerly)."""
    make, want = _SHAPES[shape]
    if want is None:
        with pytest.raises(tf.errors.InvalidArgumentError):
            _RANDOM_OPS[op](tf, make(tf))
        return
    got = _RANDOM_OPS[op](tf, make(tf)).shape.as_list()
    assert got == want, f"{op}({shape}): shape {got}, expected {want}"
