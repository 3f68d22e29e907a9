"""Gaps the thirteenth mechanical mutation sweep found (benchmarks/auto_mutants.py, seed 13, over 50 training-layer
files seeds 1-12 never sampled; thirty-sixth session), and those seed 12's open survivors showed: behaviours the suite
executed but no test looked at (docs/conformance.md, "Thirty-sixth session: automatic sweep, seed 13 (amut36)";
TF 2.21 + Keras 3.15).

Each test closes the class of behaviour a surviving mutant showed unchecked, not the one mutant. Expected values are
rules transcribed here, or observations of TF 2.21 named in each test.
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause


# -- tensors are immutable: no NumPy array a user holds aliases a tensor's value ------------------------------------
def _write_first(arr: np.ndarray, value: float) -> None:
    arr.reshape(-1)[0] = value


@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("make", ["constant", "convert_to_tensor", "variable", "from_tensor_slices"])
def test_amut36_a_converted_array_is_copied_in(tf, make):
    """tf.constant, tf.convert_to_tensor, tf.Variable and Dataset.from_tensor_slices copy a NumPy array into the
    tensor: writing into the array afterwards changes nothing the tensor, variable or dataset gives (observed on
    TF 2.21; simdist kept the caller's array as the tensor's buffer)."""
    src = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    want = src.copy()
    if make == "from_tensor_slices":
        ds = tf.data.Dataset.from_tensor_slices(src)
        read = lambda: np.stack(list(ds.as_numpy_iterator()))  # noqa: E731
    else:
        obj = {"constant": tf.constant, "convert_to_tensor": tf.convert_to_tensor, "variable": tf.Variable}[make](src)
        read = obj.numpy
    src[...] = -1.0
    assert_equal(read(), want, call=f"{make} of an array the caller then overwrote with -1: the values as converted")


@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("of", ["eager", "op result", "function result", "variable", "variable read",
                                "keras variable", "get_weights"])
def test_amut36_numpy_is_a_copy_out(tf, keras, of):
    """Tensor.numpy() is `_numpy().copy()` (tensorflow/python/framework/ops.py: tensors are immutable), a variable's
    and a Keras variable's numpy() and Layer.get_weights() read through it: the array is writable and writing into it
    changes no tensor, variable or weight; a tf.function's results, the first (tracing) call's too, likewise (observed
    on TF 2.21; simdist handed out the tensor's own buffer)."""
    x = tf.constant([1.0, 2.0, 3.0])
    if of == "eager":
        t, read = x, x.numpy
    elif of == "op result":
        t = x * 2.0
        read = t.numpy
    elif of == "function result":
        f = tf.function(lambda a: (a + 1.0, tf.constant([1.0, 2.0, 3.0]) * 3.0))
        outs = [f(x) for _ in range(3)]
        for k, (r0, r1) in enumerate(outs):
            for r in (r0, r1):
                arr = r.numpy()
                want = arr.copy()
                _write_first(arr, 42.0)
                assert_equal(r.numpy(), want, call=f"call {k}'s result after writing 42 into its numpy()")
        return
    elif of == "variable":
        t = tf.Variable([1.0, 2.0, 3.0])
        read = t.numpy
    elif of == "variable read":
        v = tf.Variable([1.0, 2.0, 3.0])
        t = v.read_value()
        read = v.numpy
    elif of == "keras variable":
        t = keras.Variable(np.array([1.0, 2.0, 3.0], np.float32))
        read = t.numpy
    else:
        layer = keras.layers.Dense(3, kernel_initializer="ones", bias_initializer="zeros")
        layer.build((None, 1))
        arr = layer.get_weights()[0]
        _write_first(arr, 42.0)
        assert_equal(layer.get_weights()[0], np.ones((1, 3), np.float32),
                     call="Dense kernel after writing 42 into get_weights()[0]")
        assert_equal(layer(np.ones((1, 1), np.float32)), np.ones((1, 3), np.float32),
                     call="Dense of ones after writing 42 into get_weights()[0]")
        return
    want = np.array([1.0, 2.0, 3.0], np.float32) * (2.0 if of == "op result" else 1.0)
    arr = t.numpy()
    assert arr.flags.writeable, f"{of}: numpy() should be a writable array, got a read-only one"
    _write_first(arr, 42.0)
    assert_equal(read(), want, call=f"{of} after writing 42 into its numpy()")


@clause("ops.conversion", ref="tf221")
def test_amut36_np_asarray_of_a_tensor_is_read_only(tf):
    """np.asarray(tensor) is a view of the tensor's buffer that NumPy marks read-only (TF's EagerTensor buffer):
    writing into it is ValueError "assignment destination is read-only"; np.array(tensor) is a writable copy; of a
    variable, np.asarray is a writable copy (BaseResourceVariable.__array__: np.asarray(self.numpy())) (observed on
    TF 2.21)."""
    x = tf.constant([1.0, 2.0])
    view = np.asarray(x)
    with raises(ValueError, match="read-only", call="np.asarray(tf.constant([1.0, 2.0]))[0] = 5.0"):
        view[0] = 5.0
    copy = np.array(x)
    copy[0] = 5.0
    assert_equal(x, np.array([1.0, 2.0], np.float32), call="the tensor after writing 5 into np.array(tensor)")
    v = tf.Variable([1.0, 2.0])
    arr = np.asarray(v)
    arr[0] = 5.0
    assert_equal(v, np.array([1.0, 2.0], np.float32), call="the variable after writing 5 into np.asarray(variable)")


@clause("ops.conversion", ref="tf221")
@pytest.mark.parametrize("batch", [None, 2], ids=["elements", "batches"])
def test_amut36_as_numpy_iterator_arrays_are_read_only(tf, batch):
    """Dataset.as_numpy_iterator gives each element's arrays as `_numpy()` views NumPy marks read-only: writing into one
    is ValueError "assignment destination is read-only", and a second pass gives the same values (observed on TF 2.21;
    simdist's were writable views of the dataset's own arrays, so a write changed the next epoch)."""
    src = np.arange(6.0).reshape(3, 2)
    ds = tf.data.Dataset.from_tensor_slices(src)
    if batch:
        ds = ds.batch(batch)
    first = next(iter(ds.as_numpy_iterator()))
    with raises(ValueError, match="read-only", call="writing into an as_numpy_iterator element"):
        _write_first(first, 55.0)
    again = [np.asarray(e).tolist() for e in ds.as_numpy_iterator()]
    want = [src[i:i + batch].tolist() for i in range(0, 3, batch)] if batch else src.tolist()
    assert again == want, f"a second pass: expected {want}, got {again}"
