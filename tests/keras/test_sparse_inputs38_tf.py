"""keras.Input(sparse=True) and keras.Input(ragged=True) on simdist vs TF 2.21 + Keras 3.15: the KerasTensor and
InputLayer flags and configs (a from_config round trip), a functional model called with a SparseTensor (Dense's
sparse-dense product) or a RaggedTensor (CategoryEncoding's count, Embedding's refusal), a SparseTensor given to a
dense Input (densified by the backend's convert_to_tensor), a layer called on a SparseTensor directly, and fit /
evaluate / predict over a tf.data.Dataset of SparseTensors (values, losses and weights). Clause keras.model.call.
Its golden (tests/goldens/) is stamped with this file."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _st(tf: Any) -> Any:
    return tf.sparse.SparseTensor([[0, 1], [1, 2], [2, 0]], [1.0, 2.0, 3.0], [3, 3])


def _sparse_model(tf: Any, units: int = 2) -> Any:
    i = tf.keras.Input(shape=(3,), sparse=True, name="sp")
    return tf.keras.Model(i, tf.keras.layers.Dense(units, kernel_initializer="ones", bias_initializer="ones")(i))


def _flags(tf: Any) -> Any:
    i = tf.keras.Input(shape=(3,), sparse=True, name="sp")
    r = tf.keras.Input(shape=(None,), ragged=True, dtype="int32", name="rg")
    d = tf.keras.layers.Dense(2)(i)
    return [i.sparse, i.ragged, tuple(i.shape), i.dtype, r.sparse, r.ragged, tuple(r.shape), r.dtype, d.sparse,
            str(i).replace(i.name, "NAME")]


def _configs(tf: Any) -> Any:
    m = _sparse_model(tf)
    c = m.get_config()
    m2 = tf.keras.Model.from_config(c)
    return [repr(c["layers"][0]["config"]), m2.inputs[0].sparse, m2.layers[0].sparse,
            repr(tf.keras.layers.InputLayer(shape=(None,), ragged=True, name="r").get_config())]


def _train(tf: Any) -> Any:
    import numpy as np
    m = _sparse_model(tf, 1)
    m.compile(tf.keras.optimizers.SGD(0.1), "mse")
    ds = tf.data.Dataset.from_tensor_slices((_st(tf), np.array([[1.0], [2.0], [0.5]], np.float32))).batch(2)
    h = m.fit(ds, epochs=2, verbose=0, shuffle=False)
    return [h.history["loss"], m.get_weights(), m.predict(ds, verbose=0), m.evaluate(ds, verbose=0)]


def _cases() -> dict[str, Callable[[Any], Any]]:
    c: dict[str, Callable[[Any], Any]] = {}
    c["flags"] = _flags
    c["configs"] = _configs
    c["call/sparse_dense"] = lambda tf: _sparse_model(tf)(_st(tf))
    c["call/sparse_dense_twice"] = lambda tf: (lambda m: [m(_st(tf)), m(_st(tf))])(_sparse_model(tf))
    c["call/sparse_to_dense_input"] = lambda tf: (lambda i: tf.keras.Model(i, tf.keras.layers.Dense(
        1, kernel_initializer="ones")(i)))(tf.keras.Input(shape=(3,)))(_st(tf))
    c["call/layer_on_sparse"] = lambda tf: tf.keras.layers.Dense(2, kernel_initializer="ones")(_st(tf))
    c["call/ragged_count"] = lambda tf: (lambda i: tf.keras.Model(i, tf.keras.layers.CategoryEncoding(
        num_tokens=5, output_mode="count")(i)))(tf.keras.Input(shape=(None,), ragged=True, dtype="int32"))(
        tf.ragged.constant([[1, 2, 2], [3]]))
    c["call/ragged_embedding"] = lambda tf: (lambda i: tf.keras.Model(i, tf.keras.layers.Embedding(
        5, 2, embeddings_initializer="ones")(i)))(tf.keras.Input(shape=(None,), ragged=True, dtype="int32"))(
        tf.ragged.constant([[1, 2], [3]]))
    c["train/dataset"] = _train
    return c


TABLE = case_results.Table(__file__, _cases(), re.compile(r"\b(keras_tensor|input_layer|dense|functional)(_\d+)?\b"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("keras.model.call")
@pytest.mark.parametrize("prefix", ["flags", "configs", "call/", "train/"])
def test_sparse_and_ragged_inputs_match_tf(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix))


def test_array_fit_of_a_sparse_tensor_says_to_use_a_dataset() -> None:
    """simdist does not slice SparseTensor arrays as Keras's ArrayDataAdapter does: fit says so and what to do."""
    import numpy as np
    from simdist import tf
    m = _sparse_model(tf, 1)
    m.compile("sgd", "mse")
    with pytest.raises(NotImplementedError, match="pass a tf.data.Dataset of them instead"):
        m.fit(_st(tf), np.zeros((3, 1), np.float32), verbose=0)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
