"""The klayer2 layers whose values are bits, not float sums, on simdist vs TF 2.21 + Keras 3.15:
seeded noise layers (GaussianNoise, GaussianDropout, AlphaDropout, SpatialDropout1D/2D/3D,
Attention's weight dropout; eager, in tf.function and across calls), Normalization.adapt
(ndarray, tensor, Dataset, list of batches), CategoryEncoding, Discretization (given and adapted
boundaries), Hashing and tf.strings.to_hash_bucket_fast. Each must equal TF's answer exactly.
Clauses keras.layer.noise, keras.layer.dropout, keras.layer.normalization-adapt,
keras.layer.forward-and-gradients, ops.string-hash-bucket.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

CASES = ("noise", "adapt", "encoding", "hashing")


def _np(v: Any) -> np.ndarray:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def _noise(tf: Any) -> dict[str, Any]:
    L = tf.keras.layers
    x = tf.constant(np.linspace(-2.0, 3.0, 2 * 3 * 4 * 5).reshape(2, 3, 4, 5).astype(np.float32))
    x3 = tf.reshape(x, [2, 12, 5])
    x5 = tf.reshape(x, [2, 3, 2, 2, 5])
    out: dict[str, Any] = {}
    for seed in (3, 1234):
        for name, layer, inp in (("gaussian_noise", L.GaussianNoise(0.5, seed=seed), x3),
                                 ("gaussian_dropout", L.GaussianDropout(0.3, seed=seed), x3),
                                 ("alpha_dropout", L.AlphaDropout(0.3, seed=seed), x3),
                                 ("alpha_dropout_ns", L.AlphaDropout(0.4, noise_shape=(2, 1, 5), seed=seed), x3),
                                 ("spatial1d", L.SpatialDropout1D(0.5, seed=seed), x3),
                                 ("spatial2d", L.SpatialDropout2D(0.5, seed=seed), x),
                                 ("spatial2d_cf", L.SpatialDropout2D(0.5, data_format="channels_first", seed=seed), x),
                                 ("spatial3d", L.SpatialDropout3D(0.5, seed=seed), x5)):
            out[f"{name}/{seed}/0"] = _np(layer(inp, training=True))
            out[f"{name}/{seed}/1"] = _np(layer(inp, training=True))
    traced = L.GaussianNoise(0.2, seed=8)
    f = tf.function(lambda v: traced(v, training=True))
    out["traced/0"], out["traced/1"] = _np(f(x3)), _np(f(x3))
    q = tf.reshape(x3[:, :3, :4], [2, 3, 4])
    # the dropped attention weights (the softmax values themselves may differ by an ulp between hosts)
    weights = _np(L.Attention(dropout=0.5, seed=5)([q, q], training=True, return_attention_scores=True)[1])
    out["attention_dropout_mask"] = weights == 0
    return out


def _adapt(tf: Any) -> dict[str, Any]:
    rng = np.random.default_rng(15)
    data = (rng.standard_normal((40, 3)) * [1, 5, 0.1] + [0, 3, -2]).astype(np.float32)
    x = (rng.standard_normal((6, 3)) * 2).astype(np.float32)
    out: dict[str, Any] = {}
    for label, source in (("ndarray", data), ("tensor", tf.constant(data)),
                          ("dataset", tf.data.Dataset.from_tensor_slices(data).batch(7)),
                          ("list", [data[:13], data[13:]])):
        layer = tf.keras.layers.Normalization()
        layer.adapt(source)
        out[f"{label}/mean"], out[f"{label}/variance"] = _np(layer.adapt_mean), _np(layer.adapt_variance)
        out[f"{label}/out"] = _np(layer(x))
    flat = tf.keras.layers.Normalization(axis=None)
    flat.adapt(tf.data.Dataset.from_tensor_slices(data[:, 1]))
    out["scalars/out"] = _np(flat(x))
    disc = tf.keras.layers.Discretization(num_bins=5, epsilon=0.01)
    disc.adapt(data)
    out["discretization/boundaries"] = np.asarray(disc.bin_boundaries)
    out["discretization/out"] = _np(disc(x))
    return out


def _encoding(tf: Any) -> dict[str, Any]:
    L = tf.keras.layers
    ids = np.array([[0, 1, 1], [3, 2, 5]], np.int32)
    vals = np.array([[-2.0, -1.0, -0.5], [0.0, 1.4, 1.5], [3.0, 0.5, -1.2]], np.float32)
    return {"one_hot": _np(L.CategoryEncoding(4, output_mode="one_hot")(np.array([0, 3, 2], np.int32))),
            "multi_hot": _np(L.CategoryEncoding(6)(ids)), "count": _np(L.CategoryEncoding(6, output_mode="count")(ids)),
            "too_big": _np(L.CategoryEncoding(3)(np.array([[1, 7]], np.int32))),
            "disc_int": _np(L.Discretization(bin_boundaries=[-1.0, 0.0, 1.5])(vals)),
            "disc_count": _np(L.Discretization(bin_boundaries=[-1.0, 0.0, 1.5], output_mode="count")(vals))}


def _hashing(tf: Any) -> dict[str, Any]:
    L = tf.keras.layers
    words = ["", "a", "hello", "a much longer string of more than sixty-four bytes, to reach FarmHash's loop!"]
    return {"bucket_7": _np(tf.strings.to_hash_bucket_fast(words, 7)),
            "bucket_1000": _np(tf.strings.to_hash_bucket_fast(words, 1000)),
            "strings": _np(L.Hashing(5)(np.array([["A"], ["B"], ["C"], ["D"], ["E"]]))),
            "ints": _np(L.Hashing(5)(np.array([[1, 2], [3, 44]], np.int64))),
            "floats": _np(L.Hashing(7)(np.array([1.7, -2.2, 3.0], np.float32))),
            "mask": _np(L.Hashing(6, mask_value=0)(np.array([0, 5, 9], np.int32))),
            "count": _np(L.Hashing(4, output_mode="count")(np.array([["a", "a", "z"]])))}


def program(tf: Any, name: str) -> dict[str, Any]:
    tf.keras.backend.clear_session()
    return {"noise": _noise, "adapt": _adapt, "encoding": _encoding, "hashing": _hashing}[name](tf)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: program(tf, CASES[i]) for i in indices}


def _simdist(name: str) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    return program(tf, name)


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("keras.layer.noise")
@pytest.mark.clause("keras.layer.normalization-adapt")
@pytest.mark.clause("ops.string-hash-bucket")
@pytest.mark.parametrize("case", CASES)
def test_layers_more2_bits_are_tfs(tf_answers: dict[int, Any], case: str) -> None:
    got, want = _simdist(case), tf_answers[CASES.index(case)]
    assert sorted(got) == sorted(want), f"{case}: observables {sorted(got)}, but should be {sorted(want)}"
    for k in want:
        g, w = np.asarray(got[k]), np.asarray(want[k])
        assert (g.dtype, g.shape) == (w.dtype, w.shape), f"{case} {k}: {g.dtype}{g.shape}, but should be " \
                                                          f"{w.dtype}{w.shape} (TF 2.21)"
        assert np.array_equal(g, w), f"{case} {k}: {g.ravel()[:8]}, but should be {w.ravel()[:8]} (TF 2.21)"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
