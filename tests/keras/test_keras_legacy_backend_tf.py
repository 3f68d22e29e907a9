"""Differential tests of `tf.keras.backend`'s legacy functions (Keras 3.15's
keras/src/legacy/backend.py transcribed onto simdist.tf: simdist/keras/legacy_backend.py) and,
through them, the `tf.compat.v1` functions they call, against TF 2.21 + Keras 3.15: values,
dtypes and error classes of 57 calls. Clause keras.backend.legacy. Its golden (tests/goldens/)
is stamped with this file."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _calls(tf: Any) -> dict:
    K = tf.keras.backend
    A = np.array([[1.5, -2.0, 0.0], [3.0, 0.5, -1.0]], np.float32)
    B = np.array([[0.5, 1.0, 2.0], [-1.0, 4.0, 0.25]], np.float32)
    calls={
     "mean":lambda: K.mean(A,axis=1), "sum":lambda: K.sum(A,axis=0,keepdims=True), "max":lambda: K.max(A), "std":lambda: K.std(A,axis=1),
     "square":lambda: K.square(A), "sqrt":lambda: K.sqrt(K.abs(A)), "int_shape":lambda: K.int_shape(tf.ones((2,3))), "ndim":lambda: K.ndim(A),
     "cast":lambda: K.cast(A,"int32"), "dot":lambda: K.dot(A,B.T), "batch_dot":lambda: K.batch_dot(np.ones((2,3,4),"float32"), np.ones((2,4,5),"float32")),
     "concatenate":lambda: K.concatenate([A,B],axis=-1), "reshape":lambda: K.reshape(A,(3,2)), "permute_dimensions":lambda: K.permute_dimensions(A,(1,0)),
     "clip":lambda: K.clip(A,-1,1), "binary_crossentropy":lambda: K.binary_crossentropy(np.array([[0.,1.]],"float32"), np.array([[0.2,0.7]],"float32")),
     "categorical_crossentropy":lambda: K.categorical_crossentropy(np.eye(3,dtype="float32")[:2], np.abs(B)/np.abs(B).sum(1,keepdims=True)),
     "sparse_categorical_crossentropy":lambda: K.sparse_categorical_crossentropy(np.array([0,2]), A, from_logits=True),
     "softmax":lambda: K.softmax(A), "relu":lambda: K.relu(A, alpha=0.1, max_value=1.0), "elu":lambda: K.elu(A), "sigmoid":lambda: K.sigmoid(A),
     "hard_sigmoid":lambda: K.hard_sigmoid(A), "one_hot":lambda: K.one_hot(np.array([0,2]),3), "l2_normalize":lambda: K.l2_normalize(A,axis=1),
     "epsilon":lambda: K.epsilon(), "floatx":lambda: K.floatx(), "image_data_format":lambda: K.image_data_format(),
     "argmax":lambda: K.argmax(A), "gather":lambda: K.gather(A,[1,0]), "repeat_elements":lambda: K.repeat_elements(A,2,axis=1), "tile":lambda: K.tile(A,(2,1)),
     "expand_dims":lambda: K.expand_dims(A,1), "squeeze":lambda: K.squeeze(A[None],0), "stack":lambda: K.stack([A,B]), "flatten":lambda: K.flatten(A),
     "batch_flatten":lambda: K.batch_flatten(np.ones((2,3,4),"float32")), "zeros":lambda: K.zeros((2,2)), "ones_like":lambda: K.ones_like(A), "eye":lambda: K.eye(3),
     "variable":lambda: K.get_value(K.variable(A)), "constant":lambda: K.constant([1,2]), "switch":lambda: K.switch(A>0, A, B),
     "bias_add":lambda: K.bias_add(A, np.array([1.,2.,3.],"float32")), "conv2d":lambda: K.conv2d(np.ones((1,4,4,2),"float32"), np.ones((2,2,2,3),"float32")),
     "pool2d":lambda: K.pool2d(np.arange(32,dtype="float32").reshape(1,4,4,2),(2,2),pool_mode="max"),
     "temporal_padding":lambda: K.temporal_padding(np.ones((1,3,2),"float32"),(1,2)), "spatial_2d_padding":lambda: K.spatial_2d_padding(np.ones((1,2,2,1),"float32")),
     "resize_images":lambda: K.resize_images(np.ones((1,2,2,1),"float32"),2,2,"channels_last"), "cumsum":lambda: K.cumsum(A,axis=1),
     "count_params":lambda: K.count_params(tf.Variable(A)), "in_top_k":lambda: K.in_top_k(B, np.array([2,1]), 1), "pow":lambda: K.pow(K.abs(A),2.5),
     "foldl":lambda: K.foldl(lambda a,x: a+x, tf.constant([1.,2.,3.])), "map_fn":lambda: K.map_fn(lambda x: x*2, tf.constant([1.,2.])),
     "rnn":lambda: K.rnn(lambda x, s: (x + s[0], [x + s[0]]), np.ones((2,3,4),"float32"), [np.zeros((2,4),"float32")])[1],
     "ctc_batch_cost":lambda: K.ctc_batch_cost(np.array([[1,2]]), np.full((1,4,4),0.25,"float32"), np.array([[4]]), np.array([[2]])),
    }
    return calls


LABELS = sorted(_calls(type("NoTF", (), {"keras": type("K", (), {"backend": None})})))


def _run(tf: Any, label: str) -> Any:
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            v = _calls(tf)[label]()
        v = v.numpy() if hasattr(v, "numpy") else v
        if isinstance(v, (str, tuple, int, float)) and not isinstance(v, bool):
            return ("py", type(v).__name__, v)
        arr = np.asarray(v)
        return ("ok", arr.dtype.name, arr.shape, arr)
    except Exception as e:  # noqa: BLE001 - the error class is the result compared
        return ("err", type(e).__name__)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


@pytest.mark.clause("keras.backend.legacy")
def test_legacy_backend_matches_tf(tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = []
    for i, label in enumerate(LABELS):
        got, want = _run(tf, label), tf_results[i]
        if got[:2] != want[:2]:
            bad.append(f"K.{label}: simdist {got[:2]}, TF 2.21 {want[:2]}")
        elif want[0] == "ok":
            g, w = got[3], want[3]
            same = g.shape == w.shape and (np.allclose(g, w, rtol=1e-5, atol=1e-6) if w.dtype.kind in "fc"
                                           else np.array_equal(g, w))
            if not same:
                bad.append(f"K.{label}: out={g.ravel()[:6]} {g.shape}, but should be {w.ravel()[:6]} {w.shape}")
        elif want[0] == "py" and got[2] != want[2]:
            bad.append(f"K.{label}: {got[2]!r}, but should be {want[2]!r}")
    assert not bad, f"{len(bad)} calls differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
