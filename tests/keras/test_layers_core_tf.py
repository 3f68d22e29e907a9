"""Differential tests of Keras's core layers: simdist vs TF 2.21 + Keras 3.15.1.

Each case runs the same program on both backends (`run_case(tf, case)`): it makes a layer after
`keras.backend.clear_session()`, builds it, sets its weights from arrays drawn from a seed named
by the case, calls it on seeded inputs and differentiates sum(output * cotangent) with respect
to the input and every trainable weight (GradientTape). Results compared: output values, dtype
and shape; each gradient's class (a dense tensor or IndexedSlices) and value; the weights'
names, paths and shapes in `weights` order; or the error class and message for cases that must
fail. TF runs in one subprocess for the module (tf_workers.spawn).

Tolerance (docs/spec.md, keras.layer.forward-and-gradients): float32 values agree to rtol 1e-5 with an
absolute floor of 1e-6 times the array's largest magnitude (the same float32 ops, rounded by
NumPy instead of Eigen/oneDNN); exact for shapes, dtypes, names and messages.
"""

from __future__ import annotations

import sys
import zlib
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

RTOL, ATOL_SCALE = 1e-5, 1e-6


@dataclass(frozen=True)
class Case:
    name: str
    layer: str                       # class name in keras.layers
    kwargs: tuple = ()               # constructor keyword arguments
    shape: tuple = (4, 3)            # input shape (a tuple of shapes for merge layers)
    dtype: str = "float32"           # input dtype ("int32" inputs are indices in [-2, 10))
    call: tuple = ()                 # call keyword arguments
    expect_error: bool = False       # the case's call must raise; compare class and message
    build_first: tuple | None = None  # build with this shape first, then call (errors after build)
    rtol: float = RTOL               # float16 compute: 1e-3 (half precision rounds differently)


def _cases() -> list[Case]:
    acts = ["relu", "sigmoid", "tanh", "softmax", "softplus", "softsign", "elu", "selu", "gelu", "silu", "swish",
            "leaky_relu", "relu6", "hard_sigmoid", "exponential", "linear", "mish", "log_softmax"]
    cases = [
        Case("dense", "Dense", (("units", 4),)),
        Case("dense_relu_rank3", "Dense", (("units", 3), ("activation", "relu")), shape=(2, 3, 5)),
        Case("dense_nobias_softmax", "Dense", (("units", 5), ("use_bias", False), ("activation", "softmax"))),
        Case("dense_sigmoid", "Dense", (("units", 2), ("activation", "sigmoid"))),
        Case("dense_float64_input_autocast", "Dense", (("units", 3),), dtype="float64"),
        Case("dense_rank4", "Dense", (("units", 2), ("activation", "tanh")), shape=(2, 2, 3, 4)),
        Case("dense_mixed_float16", "Dense", (("units", 3), ("dtype", "mixed_float16")), rtol=2e-3),
        Case("dense_float64_policy", "Dense", (("units", 3), ("dtype", "float64"), ("activation", "relu"))),
        Case("embedding", "Embedding", (("input_dim", 10), ("output_dim", 4)), shape=(3, 5), dtype="int32"),
        Case("embedding_rank1", "Embedding", (("input_dim", 10), ("output_dim", 2)), shape=(6,), dtype="int32"),
        Case("embedding_float_indices", "Embedding", (("input_dim", 10), ("output_dim", 3)), shape=(2, 4),
             dtype="float32_indices"),
        Case("relu_max6", "ReLU", (("max_value", 6.0),)),
        Case("relu_slope", "ReLU", (("negative_slope", 0.1),)),
        Case("relu_threshold", "ReLU", (("threshold", 0.5),)),
        Case("relu_all", "ReLU", (("max_value", 1.0), ("negative_slope", 0.2), ("threshold", 0.3))),
        Case("softmax_layer", "Softmax", ()),
        Case("softmax_axis1_rank3", "Softmax", (("axis", 1),), shape=(2, 3, 4)),
        Case("softmax_two_axes", "Softmax", (("axis", (1, 2)),), shape=(2, 3, 4)),
        Case("dropout_inference", "Dropout", (("rate", 0.5),)),
        Case("dropout_rate0_training", "Dropout", (("rate", 0.0),), call=(("training", True),)),
        Case("flatten_rank4", "Flatten", (), shape=(2, 3, 2, 2)),
        Case("flatten_channels_first", "Flatten", (("data_format", "channels_first"),), shape=(2, 3, 2, 2)),
        Case("flatten_rank1", "Flatten", (), shape=(5,)),
        Case("reshape", "Reshape", (("target_shape", (3, 4)),), shape=(2, 12)),
        Case("reshape_minus1", "Reshape", (("target_shape", (-1, 2)),), shape=(2, 3, 4)),
        Case("concatenate", "Concatenate", (), shape=((4, 3), (4, 2))),
        Case("concatenate_axis1", "Concatenate", (("axis", 1),), shape=((2, 3, 4), (2, 1, 4), (2, 2, 4))),
        Case("add", "Add", (), shape=((4, 3), (4, 3))),
        Case("add_three", "Add", (), shape=((2, 3, 2), (2, 3, 2), (2, 3, 2))),
        Case("add_broadcast_ranks", "Add", (), shape=((2, 3), (2, 1, 3))),
    ]
    cases += [Case(f"activation_{a}", "Activation", (("activation", a),), shape=(3, 5)) for a in acts]
    cases += [
        Case("err_dense_rank1", "Dense", (("units", 2),), shape=(3,), expect_error=True),
        Case("err_dense_wrong_last_dim", "Dense", (("units", 2),), shape=(2, 4), expect_error=True,
             build_first=(None, 3)),
        Case("err_dense_units0", "Dense", (("units", 0),), expect_error=True),
        Case("err_concatenate_mismatch", "Concatenate", (), shape=((4, 3), (5, 2, 1)), expect_error=True),
        Case("err_concatenate_axis_mismatch", "Concatenate", (("axis", 1),), shape=((2, 3, 4), (2, 3, 5)),
             expect_error=True),
        Case("err_add_incompatible", "Add", (), shape=((4, 3), (4, 2)), expect_error=True),
        Case("err_add_batch", "Add", (), shape=((4, 3), (5, 3)), expect_error=True),
        Case("err_reshape_size", "Reshape", (("target_shape", (5,)),), shape=(2, 4), expect_error=True),
        Case("err_reshape_two_unknown", "Reshape", (("target_shape", (-1, -1)),), expect_error=True),
        Case("err_dropout_rate", "Dropout", (("rate", 1.5),), expect_error=True),
        Case("err_embedding_dim", "Embedding", (("input_dim", 0), ("output_dim", 3)), expect_error=True),
        Case("err_relu_negative_max", "ReLU", (("max_value", -1.0),), expect_error=True),
        Case("err_activation_name", "Activation", (("activation", "nope"),), expect_error=True),
        Case("err_positional_non_tensor", "Dense", (("units", 2),), call=(("extra_positional", 3),),
             expect_error=True),
    ]
    return cases


CASES = _cases()


def _seed(name: str) -> int:
    return zlib.crc32(name.encode())


def _inputs(case: Case, rng: np.random.Generator) -> list[np.ndarray]:
    shapes = case.shape if isinstance(case.shape[0], tuple) else (case.shape,)
    out = []
    for s in shapes:
        if case.dtype == "int32":
            out.append(rng.integers(-2, 10, size=s).astype("int32"))
        elif case.dtype == "float32_indices":
            out.append(rng.integers(0, 10, size=s).astype("float32"))
        else:
            out.append((rng.standard_normal(s) * 1.5).astype(case.dtype))
    return out


def _error(e: BaseException) -> dict[str, Any]:
    return {"error": type(e).__name__, "message": str(e)}


def run_case(tf: Any, case: Case) -> dict[str, Any]:
    """The program, the same on both backends."""
    keras = tf.keras
    keras.backend.clear_session()
    rng = np.random.default_rng(_seed(case.name))
    xs = _inputs(case, rng)
    try:
        layer = getattr(keras.layers, case.layer)(**dict(case.kwargs))
        if case.build_first is not None:
            layer.build(case.build_first)
        call_kwargs = dict(case.call)
        extra = call_kwargs.pop("extra_positional", None)
        x_in = [tf.constant(x) for x in xs]
        arg = x_in if len(x_in) > 1 else x_in[0]
        if extra is not None:
            layer(arg, extra)
        layer(arg, **call_kwargs)   # builds it
    except Exception as e:  # noqa: BLE001 - the error is the result
        if not case.expect_error:
            raise
        return _error(e)
    if case.expect_error:
        return {"error": None}
    weights = [(rng.standard_normal(tuple(w.shape)) * 0.5).astype(w.dtype) for w in layer.weights]
    layer.set_weights(weights)
    cot_rng = np.random.default_rng(_seed(case.name) + 1)
    with tf.GradientTape(persistent=True) as tape:
        for x in x_in:
            if x.dtype.is_floating:
                tape.watch(x)
        y = layer(arg, **call_kwargs)
        cot = tf.constant(cot_rng.standard_normal(tuple(y.shape)).astype(y.dtype.name))
        loss = tf.reduce_sum(y * cot)
    sources = [x for x in x_in if x.dtype.is_floating] + list(layer.trainable_weights)
    grads = tape.gradient(loss, sources)
    out_grads = []
    for g in grads:
        if g is None:
            out_grads.append(None)
        else:
            kind = "IndexedSlices" if type(g).__name__ == "IndexedSlices" else "Tensor"
            out_grads.append((kind, np.asarray(tf.convert_to_tensor(g).numpy())))
    return {"y": np.asarray(y.numpy()), "dtype": y.dtype.name, "grads": out_grads,
            "weights": [(w.name, w.path, tuple(w.shape), w.dtype) for w in layer.weights],
            "trainable": len(layer.trainable_weights), "non_trainable": len(layer.non_trainable_weights),
            "built": bool(layer.built), "name": layer.name}


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out = {}
    for i in indices:
        try:
            out[i] = run_case(tf, CASES[i])
        except Exception as e:  # noqa: BLE001 - reported by the test
            out[i] = {"worker_error": f"{type(e).__name__}: {e}"}
    return out


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _close(got: np.ndarray, want: np.ndarray, where: str, rtol: float = RTOL) -> None:
    assert got.shape == want.shape, f"{where}: shape {got.shape} != TF's {want.shape}"
    if want.dtype.kind == "f":
        atol = (ATOL_SCALE if rtol == RTOL else rtol) * float(np.max(np.abs(want))) if want.size else 0.0
        np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=f"{where}: values differ from TF's")
    else:
        np.testing.assert_array_equal(got, want, err_msg=f"{where}: values differ from TF's")


@pytest.mark.clause("keras.layer.forward-and-gradients")
@pytest.mark.parametrize("index", range(len(CASES)), ids=[c.name for c in CASES])
def test_layer_matches_tf(index: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    case = CASES[index]
    want = tf_results[index]
    assert "worker_error" not in want, f"{case.name}: the TF program failed: {want.get('worker_error')}"
    got = run_case(tf, case)
    if case.expect_error:
        assert want.get("error") is not None, f"{case.name}: TF 2.21 did not raise"
        assert (got.get("error"), got.get("message")) == (want["error"], want["message"]), \
            f"{case.name}: simdist raised {got.get('error')}: {got.get('message')!r}; TF raised {want['error']}: " \
            f"{want['message']!r}"
        return
    assert got["weights"] == want["weights"], f"{case.name}: weights {got['weights']} != TF's {want['weights']}"
    assert (got["trainable"], got["non_trainable"], got["name"]) == \
        (want["trainable"], want["non_trainable"], want["name"]), f"{case.name}: layer state differs from TF's"
    assert got["dtype"] == want["dtype"], f"{case.name}: output dtype {got['dtype']} != TF's {want['dtype']}"
    _close(got["y"], want["y"], f"{case.name} output", case.rtol)
    assert len(got["grads"]) == len(want["grads"]), f"{case.name}: {len(got['grads'])} gradients vs TF's"
    for k, (g, w) in enumerate(zip(got["grads"], want["grads"])):
        if w is None or g is None:
            assert g is None and w is None, f"{case.name} gradient {k}: {g} vs TF's {w}"
            continue
        assert g[0] == w[0], f"{case.name} gradient {k}: a {g[0]}, TF gives a {w[0]}"
        _close(g[1], w[1], f"{case.name} gradient {k}", case.rtol)


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
