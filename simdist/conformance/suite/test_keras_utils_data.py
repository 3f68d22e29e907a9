"""`tf.keras.utils` data helpers — pad_sequences, normalize, timeseries_dataset_from_array,
pack/unpack_x_y_sample_weight, custom_object_scope — clause keras.utils.data-tools (TF 2.21 +
Keras 3.15: keras/src/utils/sequence_utils.py, numerical_utils.py, timeseries_dataset_utils.py,
keras/src/saving/object_registration.py).

Expected values are computed here with NumPy from Keras's definitions, never by the backend.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal, assert_true, raises

clause = pytest.mark.clause

SEQS = [[1], [2, 3], [4, 5, 6], []]


@clause("keras.utils.data-tools", ref="tf221")
def test_pad_sequences_pads_and_truncates_at_either_end(keras):
    pad = keras.utils.pad_sequences
    out = pad(SEQS)
    assert_equal(out.dtype.name, "int32", call="pad_sequences(seqs)", what="dtype")
    assert_equal(out, np.array([[0, 0, 1], [0, 2, 3], [4, 5, 6], [0, 0, 0]]), call="pad_sequences(seqs)")
    assert_equal(pad(SEQS, padding="post"), np.array([[1, 0, 0], [2, 3, 0], [4, 5, 6], [0, 0, 0]]),
                 call="pad_sequences(seqs, padding='post')")
    assert_equal(pad(SEQS, maxlen=2), np.array([[0, 1], [2, 3], [5, 6], [0, 0]]),
                 call="pad_sequences(seqs, maxlen=2)")
    assert_equal(pad(SEQS, maxlen=2, truncating="post"), np.array([[0, 1], [2, 3], [4, 5], [0, 0]]),
                 call="pad_sequences(seqs, maxlen=2, truncating='post')")
    out = pad(SEQS, maxlen=4, value=-1.5, dtype="float32", padding="post")
    assert_equal(out, np.array([[1, -1.5, -1.5, -1.5], [2, 3, -1.5, -1.5], [4, 5, 6, -1.5], [-1.5] * 4],
                               np.float32), call="pad_sequences(seqs, maxlen=4, value=-1.5, dtype='float32')")
    rows = [np.ones((2, 3)), np.full((1, 3), 2.0)]
    out = pad(rows, dtype="float64")
    assert_equal(out.shape, (2, 2, 3), call="pad_sequences(two sequences of 3-vectors)", what="shape")
    assert_equal(out[1], np.array([[0.0] * 3, [2.0] * 3]), call="pad_sequences(two sequences of 3-vectors)",
                 what="out[1]")
    with raises(ValueError, match="Padding type", call="pad_sequences(padding='middle')"):
        pad(SEQS, padding="middle")
    with raises(ValueError, match="Truncating type", call="pad_sequences(maxlen=1, truncating='both')"):
        pad(SEQS, maxlen=1, truncating="both")
    with raises(ValueError, match="not compatible with `value`", call="pad_sequences(value='x')"):
        pad(SEQS, value="x")
    with raises(ValueError, match="must be a list of iterables", call="pad_sequences([1, 2])"):
        pad([1, 2])


@clause("keras.utils.data-tools", ref="tf221")
def test_normalize_arrays_and_tensors(tf, keras):
    a = np.array([[3.0, 4.0], [0.0, 0.0], [1.0, -1.0]])
    out = keras.utils.normalize(a)
    assert_true(isinstance(out, np.ndarray), f"normalize(ndarray) returned {type(out).__name__}, should be an "
                "ndarray", call="normalize(ndarray)")
    norms = np.linalg.norm(a, 2, -1)
    norms[norms == 0] = 1
    assert_close(out, a / norms[:, None], call="normalize(ndarray)")
    n1 = np.abs(a).sum(-1)
    n1[n1 == 0] = 1
    assert_close(keras.utils.normalize(a, order=1), a / n1[:, None], call="normalize(ndarray, order=1)")
    t = tf.constant(a.astype(np.float32))
    inv = np.minimum(1 / np.sqrt((a ** 2).sum(-1, keepdims=True)), 1 / 1e-7)
    assert_close(keras.utils.normalize(t), (a * inv).astype(np.float32), call="normalize(tensor)")
    n3 = np.maximum((np.abs(a) ** 3).sum(-1, keepdims=True) ** (1 / 3), 1e-7)
    assert_close(keras.utils.normalize(t, order=3), (a / n3).astype(np.float32), call="normalize(tensor, order=3)")
    with raises(ValueError, match="must be an int >= 1", call="normalize(tensor, order=0)"):
        keras.utils.normalize(t, order=0)


def _windows(n, length, stride, rate, start, end, with_targets):
    end = n if end is None else end
    start = 0 if start is None else start
    num = end - start - (length - 1) * rate
    if with_targets:
        num = min(num, n)
    return [list(range(start + p, start + p + length * rate, rate)) for p in range(0, num, stride)]


@clause("keras.utils.data-tools", ref="tf221")
@pytest.mark.parametrize("length,stride,rate,batch,start,end", [
    (4, 1, 1, 5, None, None), (4, 3, 2, 2, 1, 18), (3, 2, 1, None, 2, None), (5, 4, 3, 128, None, 19)])
def test_timeseries_dataset_windows_and_targets(keras, length, stride, rate, batch, start, end):
    data = np.arange(20) * 10
    targets = np.arange(20)
    ds = keras.utils.timeseries_dataset_from_array(data, targets, sequence_length=length, sequence_stride=stride,
                                                   sampling_rate=rate, batch_size=batch, start_index=start,
                                                   end_index=end)
    got_x, got_y = [], []
    for x, y in ds:
        if batch is None:
            got_x.append(np.asarray(x).tolist())
            got_y.append(int(np.asarray(y)))
        else:
            assert_true(len(np.asarray(x)) <= batch, f"a batch of {len(np.asarray(x))} windows exceeds batch_size="
                        f"{batch}", call="timeseries_dataset_from_array")
            got_x.extend(np.asarray(x).tolist())
            got_y.extend(np.asarray(y).tolist())
    idx = _windows(20, length, stride, rate, start, end, True)
    call = (f"timeseries_dataset_from_array(arange(20)*10, arange(20), sequence_length={length}, "
            f"sequence_stride={stride}, sampling_rate={rate}, batch_size={batch}, start_index={start}, "
            f"end_index={end})")
    assert_equal(got_x, [[10 * i for i in w] for w in idx], call=call, what="windows")
    assert_equal(got_y, [(start or 0) + k * stride for k in range(len(idx))], call=call, what="targets")


@clause("keras.utils.data-tools", ref="tf221")
def test_timeseries_dataset_shuffle_keeps_every_window(keras):
    data = np.arange(30)
    ds = keras.utils.timeseries_dataset_from_array(data, None, sequence_length=4, batch_size=3, shuffle=True, seed=7)
    got = [w for b in ds for w in np.asarray(b).tolist()]
    want = [list(range(p, p + 4)) for p in range(27)]
    assert_equal(sorted(got), want, call="timeseries_dataset_from_array(arange(30), None, 4, shuffle=True, seed=7)",
                 what="sorted windows")
    assert_true(got != want, "shuffle=True left the 27 windows in order", call="timeseries_dataset_from_array("
                "shuffle=True)")


@clause("keras.utils.data-tools", ref="tf221")
def test_timeseries_dataset_argument_errors(keras):
    f = keras.utils.timeseries_dataset_from_array
    data = np.arange(10)
    for kwargs, match in [({"start_index": -1}, "`start_index` must be 0 or greater"),
                          ({"start_index": 10}, "`start_index` must be lower than the length"),
                          ({"start_index": 5, "end_index": 3}, "`end_index` must be higher than `start_index`"),
                          ({"end_index": 10}, "`end_index` must be lower than the length"),
                          ({"sampling_rate": 0}, "`sampling_rate` must be higher than 0"),
                          ({"sequence_stride": 10}, "`sequence_stride` must be lower than the length"),
                          ({"format": "csv"}, '`format` should be either "tf" or "grain"')]:
        with raises(ValueError, match=match, call=f"timeseries_dataset_from_array(arange(10), None, 3, **{kwargs})"):
            f(data, None, 3, **kwargs)


@clause("keras.utils.data-tools", ref="tf221")
def test_pack_and_unpack_x_y_sample_weight(keras):
    u = keras.utils
    x, y, w = np.ones(2), np.zeros(2), np.full(2, 0.5)
    assert_equal(u.unpack_x_y_sample_weight((x,))[1:], (None, None), call="unpack((x,))", what="(y, sw)")
    got = u.unpack_x_y_sample_weight([x, y, w])
    assert_true(got[0] is x and got[1] is y and got[2] is w, "unpack([x, y, sw]) should return the same objects",
                call="unpack([x, y, sw])")
    assert_true(u.unpack_x_y_sample_weight(x)[0] is x, "unpack(x) should return x first", call="unpack(x)")
    with raises(ValueError, match="Data is expected to be in format", call="unpack((x, y, w, w))"):
        u.unpack_x_y_sample_weight((x, y, w, w))
    assert_true(u.pack_x_y_sample_weight(x) is x, "pack(x) should return x itself", call="pack(x)")
    assert_equal(len(u.pack_x_y_sample_weight((x, y))), 1, call="pack((x, y))", what="len (a 1-tuple around x)")
    assert_equal(len(u.pack_x_y_sample_weight(x, y)), 2, call="pack(x, y)", what="len")
    assert_equal(len(u.pack_x_y_sample_weight(x, y, w)), 3, call="pack(x, y, w)", what="len")


@clause("keras.utils.data-tools", ref="tf221")
def test_custom_object_scope_resolves_names_while_deserializing(keras):
    """Inside the scope a serialized custom loss (a dict naming its class) and a loss function's
    name deserialize to the scope's objects; `losses.get` of a plain name looks at the built-in
    losses only (Keras 3.15), in or out of a scope."""
    def my_mse(y_true, y_pred):
        return keras.losses.mean_squared_error(y_true, y_pred)

    def other(y_true, y_pred):
        return keras.losses.mean_absolute_error(y_true, y_pred)

    class MyLoss(keras.losses.Loss):
        def call(self, y_true, y_pred):
            return keras.losses.mean_absolute_error(y_true, y_pred)

    config = {"class_name": "MyLoss", "config": {"name": "m", "reduction": "sum_over_batch_size"}}
    with raises(ValueError, match="Could not interpret", call="keras.losses.get({'class_name': 'MyLoss'}) outside "
                "a scope"):
        keras.losses.get(config)
    with keras.utils.custom_object_scope({"my_mse": my_mse, "MyLoss": MyLoss}):
        got = keras.losses.get(config)
        assert_true(type(got) is MyLoss, f"losses.get(MyLoss's config) in the scope gave {type(got).__name__}, "
                    "should be the scope's MyLoss", call="custom_object_scope({'MyLoss': cls})")
        assert_true(keras.losses.deserialize("my_mse") is my_mse, "losses.deserialize('my_mse') in the scope should "
                    "be the scope's function", call="custom_object_scope({'my_mse': f})")
        with raises(ValueError, match="Could not interpret", call="losses.get('my_mse') in a scope (built-ins only)"):
            keras.losses.get("my_mse")
        with keras.utils.CustomObjectScope({"other": other}):
            with raises(ValueError, match="Could not interpret", call="losses.get(MyLoss's config) in an inner "
                        "scope that replaces the outer one"):
                keras.losses.get(config)
        assert_true(type(keras.losses.get(config)) is MyLoss, "the outer scope's objects should be back after the "
                    "inner scope exits", call="custom_object_scope (nested)")
    with raises(ValueError, match="Could not interpret", call="keras.losses.get(MyLoss's config) after the scope"):
        keras.losses.get(config)


@clause("keras.utils.data-tools", ref="tf221")
def test_graph_helpers_get_source_inputs_is_keras_tensor_standardize_dtype(tf, keras):
    u = keras.utils
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    z = keras.layers.Concatenate()([keras.layers.Dense(2)(keras.layers.Add()([a, b])), a])
    sources = u.get_source_inputs(z)
    assert_true(len(sources) == 2 and sources[0] is a and sources[1] is b,
                "get_source_inputs(z) should be [a, b], each once, in the order first reached",
                call="keras.utils.get_source_inputs")
    assert_true(u.get_source_inputs(a)[0] is a, "an Input's sources are itself", call="get_source_inputs(Input)")
    assert_equal(u.get_source_inputs(5), 5, call="keras.utils.get_source_inputs(5)")
    assert_equal([u.is_keras_tensor(a), u.is_keras_tensor(tf.constant(1.0))], [True, False],
                 call="keras.utils.is_keras_tensor(Input), (tensor)")
    assert_equal([u.standardize_dtype(np.float64), u.standardize_dtype(None), u.standardize_dtype(tf.int8)],
                 ["float64", "float32", "int8"], call="keras.utils.standardize_dtype(np.float64, None, tf.int8)")
    with raises(ValueError, match="Invalid dtype", call="keras.utils.standardize_dtype('float')"):
        u.standardize_dtype("float")


@clause("keras.utils.data-tools", ref="tf221")
def test_split_dataset_cuts_arrays_and_datasets(tf, keras):
    split = keras.utils.split_dataset
    x, y = np.arange(20).reshape(10, 2), np.arange(10)
    left, right = split((x, y), left_size=0.8)
    got = [(np.asarray(a).tolist(), int(np.asarray(b))) for a, b in right]
    assert_equal(got, [([16, 17], 8), ([18, 19], 9)], call="split_dataset((x, y), left_size=0.8)", what="right part")
    assert_equal(sum(1 for _ in left), 8, call="split_dataset((x, y), left_size=0.8)", what="left length")
    left, right = split(np.arange(10), right_size=3)
    assert_equal([int(np.asarray(v)) for v in right], [7, 8, 9], call="split_dataset(arange(10), right_size=3)")
    left, right = split(tf.data.Dataset.range(10).batch(3), left_size=4)
    assert_equal([np.asarray(v).tolist() for v in left], [[0, 1, 2], [3]],
                 call="split_dataset(range(10).batch(3), left_size=4): batched like the input", what="left batches")
    left, right = split(np.arange(10), left_size=5, shuffle=True, seed=3)
    both = sorted([int(np.asarray(v)) for v in left] + [int(np.asarray(v)) for v in right])
    assert_equal(both, list(range(10)), call="split_dataset(shuffle=True, seed=3)", what="the two parts together")
    with raises(ValueError, match="At least one of the `left_size` or `right_size`", call="split_dataset(x)"):
        split(np.arange(10))
    with raises(ValueError, match="`left_size` should be either a positive integer", call="left_size=10 of 10"):
        split(np.arange(10), left_size=10)
    with raises(TypeError, match="Unsupported dataset type", call="split_dataset({'a': 1})"):
        split({"a": 1}, left_size=1)
