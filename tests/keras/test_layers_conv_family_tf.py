"""Differential tests of Conv1D, DepthwiseConv2D, SeparableConv1D/2D, UpSampling1D/2D and
ZeroPadding1D/2D: simdist vs TF 2.21 + Keras 3.15 (clauses keras.layer.conv1d,
keras.layer.depthwise-separable, keras.layer.upsampling-padding, keras.layer.conv-family.fit in
docs/spec.md).

The layer programs are test_layers_conv_norm_tf's (`run_case`): a layer built by a first call,
its weights set from arrays drawn from the case's seed, then the output and the gradients of
sum(output * r) with respect to the input and every trainable weight, the weights' paths, or the
error's class and message; "config" cases compare get_config (less the name) and its
from_config round trip; "symbolic" cases compare compute_output_shape through a
keras.Input. The "fit" cases train a small Sequential made of these layers with `model.fit`
(SGD, sparse categorical cross-entropy, unshuffled batches) under the default strategy and
MirroredStrategy over 2 CPUs, from the same weights, and compare the History losses and the
weights after (rtol 1e-4). TF runs in a subprocess (tf_workers.spawn; this module is its worker).
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import tf_workers
from test_layers_conv_norm_tf import Case, _seed, _strategy, _weights_for, assert_same, run_case

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

C1, DS, UP = "keras.layer.conv1d", "keras.layer.depthwise-separable", "keras.layer.upsampling-padding"
SYM, ARGS, FIT = "keras.layer.conv-family.symbolic", "keras.layer.conv-family.arguments", "keras.layer.conv-family.fit"
S1 = (2, 7, 3)          # a rank-3 (batch, steps, channels) input


def _cases() -> list[Case]:
    return [
        # Conv1D
        Case("conv1d-valid-3", C1, "Conv1D", (("filters", 4), ("kernel_size", 3)), shape=S1),
        Case("conv1d-same-stride2", C1, "Conv1D", (("filters", 3), ("kernel_size", 3), ("strides", 2),
                                                   ("padding", "same")), shape=(2, 8, 3)),
        Case("conv1d-causal", C1, "Conv1D", (("filters", 2), ("kernel_size", 3), ("padding", "causal")), shape=S1),
        Case("conv1d-causal-dilation2-relu", C1, "Conv1D", (("filters", 4), ("kernel_size", 2), ("padding", "causal"),
                                                            ("dilation_rate", 2), ("activation", "relu")),
             shape=(2, 9, 2)),
        Case("conv1d-groups2-nobias", C1, "Conv1D", (("filters", 4), ("kernel_size", 2), ("groups", 2),
                                                     ("use_bias", False)), shape=(2, 6, 4)),
        Case("conv1d-valid-dilation3", C1, "Conv1D", (("filters", 2), ("kernel_size", 2), ("dilation_rate", 3)),
             shape=(1, 8, 3)),
        Case("conv1d-channels-first-same", C1, "Conv1D", (("filters", 3), ("kernel_size", 3), ("padding", "same"),
                                                          ("data_format", "channels_first")), shape=(2, 3, 7)),
        Case("conv1d-channels-first-causal", C1, "Conv1D", (("filters", 2), ("kernel_size", 2), ("padding", "causal"),
                                                            ("data_format", "channels_first")), shape=(2, 3, 6)),
        # DepthwiseConv2D
        Case("depthwise-valid-3", DS, "DepthwiseConv2D", (("kernel_size", 3),)),
        Case("depthwise-same-stride2-dm2", DS, "DepthwiseConv2D", (("kernel_size", 3), ("strides", 2),
                                                                   ("padding", "same"), ("depth_multiplier", 2)),
             shape=(2, 7, 6, 3)),
        Case("depthwise-dilation2-same-nobias", DS, "DepthwiseConv2D", (("kernel_size", 2), ("dilation_rate", 2),
                                                                        ("padding", "same"), ("use_bias", False))),
        Case("depthwise-channels-first-relu", DS, "DepthwiseConv2D", (("kernel_size", (2, 3)),
                                                                      ("data_format", "channels_first"),
                                                                      ("activation", "relu")),
             shape=(2, 3, 6, 5)),
        # SeparableConv2D / SeparableConv1D
        Case("separable2d-same-3", DS, "SeparableConv2D", (("filters", 4), ("kernel_size", 3), ("padding", "same"))),
        Case("separable2d-stride2-dm2", DS, "SeparableConv2D", (("filters", 5), ("kernel_size", 2), ("strides", 2),
                                                                ("depth_multiplier", 2)), shape=(2, 7, 6, 2)),
        Case("separable2d-dilation2-tanh", DS, "SeparableConv2D", (("filters", 3), ("kernel_size", 2),
                                                                   ("dilation_rate", 2), ("activation", "tanh"))),
        Case("separable2d-channels-first-nobias", DS, "SeparableConv2D", (("filters", 2), ("kernel_size", 3),
                                                                          ("data_format", "channels_first"),
                                                                          ("use_bias", False)),
             shape=(2, 3, 6, 5)),
        Case("separable1d-same", DS, "SeparableConv1D", (("filters", 4), ("kernel_size", 3), ("padding", "same")),
             shape=S1),
        Case("separable1d-stride2-dm3", DS, "SeparableConv1D", (("filters", 2), ("kernel_size", 2), ("strides", 2),
                                                                ("depth_multiplier", 3)), shape=(2, 9, 2)),
        # UpSampling / ZeroPadding
        Case("upsampling1d-3", UP, "UpSampling1D", (("size", 3),), shape=S1),
        Case("upsampling2d-2x3", UP, "UpSampling2D", (("size", (2, 3)),), shape=(2, 3, 4, 2)),
        Case("upsampling2d-channels-first", UP, "UpSampling2D", (("size", 2), ("data_format", "channels_first")),
             shape=(2, 3, 4, 2)),
        Case("upsampling2d-bilinear", UP, "UpSampling2D", (("size", (2, 3)), ("interpolation", "bilinear")),
             shape=(2, 3, 4, 2)),
        Case("upsampling2d-bilinear-cf", UP, "UpSampling2D", (("size", 3), ("interpolation", "bilinear"),
                                                              ("data_format", "channels_first")), shape=(1, 2, 3, 4)),
        Case("zeropadding1d-1-2", UP, "ZeroPadding1D", (("padding", (1, 2)),), shape=S1),
        Case("zeropadding1d-cf", UP, "ZeroPadding1D", (("padding", 2), ("data_format", "channels_first")), shape=S1),
        Case("zeropadding2d-1", UP, "ZeroPadding2D", (("padding", 1),)),
        Case("zeropadding2d-asymmetric", UP, "ZeroPadding2D", (("padding", ((1, 0), (2, 1))),)),
        Case("zeropadding2d-cf", UP, "ZeroPadding2D", (("padding", (2, 1)), ("data_format", "channels_first")),
             shape=(2, 3, 4, 2)),
        # get_config (without the name) and from_config(get_config()) round trips
        Case("config-conv1d-causal", C1, "Conv1D", (("filters", 3), ("kernel_size", 2), ("padding", "causal"),
                                                    ("groups", 1)), program="config"),
        Case("config-depthwise", DS, "DepthwiseConv2D", (("kernel_size", 3), ("depth_multiplier", 2)),
             program="config"),
        Case("config-separable2d", DS, "SeparableConv2D", (("filters", 3), ("kernel_size", 2), ("strides", 2)),
             program="config"),
        Case("config-separable1d", DS, "SeparableConv1D", (("filters", 3), ("kernel_size", 2)), program="config"),
        Case("config-upsampling2d-bilinear", UP, "UpSampling2D", (("interpolation", "bilinear"),), program="config"),
        Case("config-zeropadding2d", UP, "ZeroPadding2D", (("padding", ((1, 2), (0, 1))),), program="config"),
        Case("config-upsampling1d", UP, "UpSampling1D", (("size", 3),), program="config"),
        Case("config-zeropadding1d", UP, "ZeroPadding1D", (("padding", (2, 0)),), program="config"),
        # symbolic calls (compute_output_shape)
        Case("sym-conv1d-causal-stride2", SYM, "Conv1D", (("filters", 3), ("kernel_size", 3), ("strides", 2),
                                                          ("padding", "causal")), shape=(2, 9, 2), program="symbolic"),
        Case("sym-depthwise-dm3", SYM, "DepthwiseConv2D", (("kernel_size", 2), ("depth_multiplier", 3)),
             program="symbolic"),
        Case("sym-separable1d", SYM, "SeparableConv1D", (("filters", 6), ("kernel_size", 3)), shape=S1,
             program="symbolic"),
        Case("sym-upsampling1d", SYM, "UpSampling1D", (), shape=S1, program="symbolic"),
        Case("sym-zeropadding2d-cf", SYM, "ZeroPadding2D", (("padding", (1, 2)), ("data_format", "channels_first")),
             program="symbolic"),
        # argument and shape errors
        Case("err-conv2d-causal", ARGS, "Conv2D", (("filters", 2), ("kernel_size", 3), ("padding", "causal")),
             program="construct"),
        Case("err-conv1d-rank4-input", ARGS, "Conv1D", (("filters", 2), ("kernel_size", 3))),
        Case("err-depthwise-multiplier-0", ARGS, "DepthwiseConv2D", (("kernel_size", 3), ("depth_multiplier", 0)),
             program="construct"),
        Case("err-depthwise-strides-0", ARGS, "DepthwiseConv2D", (("kernel_size", 3), ("strides", 0)),
             program="construct"),
        Case("err-separable-filters-0", ARGS, "SeparableConv2D", (("filters", 0), ("kernel_size", 3)),
             program="construct"),
        Case("err-separable-kernel-0", ARGS, "SeparableConv1D", (("filters", 2), ("kernel_size", 0)),
             program="construct"),
        Case("err-separable-padding-causal", ARGS, "SeparableConv1D", (("filters", 2), ("kernel_size", 2),
                                                                       ("padding", "causal")), program="construct"),
        Case("err-upsampling1d-size-0", ARGS, "UpSampling1D", (("size", 0),), program="construct"),
        Case("err-upsampling1d-size-float", ARGS, "UpSampling1D", (("size", 1.5),), program="construct"),
        Case("err-upsampling2d-rank3-input", ARGS, "UpSampling2D", (), shape=S1),
        Case("err-zeropadding1d-negative", ARGS, "ZeroPadding1D", (("padding", -1),), program="construct"),
        Case("err-zeropadding2d-three", ARGS, "ZeroPadding2D", (("padding", (1, 2, 3)),), program="construct"),
        Case("err-depthwise-channels-change", ARGS, "DepthwiseConv2D", (("kernel_size", 2),), program="twice",
             other_shape=(2, 6, 5, 4)),
        # fit under the default strategy and MirroredStrategy(2)
        Case("fit-1d-default", FIT, shape=(16, 10, 3), program="fit", strategy="default", kwargs=(("rank", 1),)),
        Case("fit-1d-mirrored2", FIT, shape=(16, 10, 3), program="fit", strategy="mirrored2", kwargs=(("rank", 1),)),
        Case("fit-2d-default", FIT, shape=(16, 6, 6, 2), program="fit", strategy="default", kwargs=(("rank", 2),)),
        Case("fit-2d-mirrored2", FIT, shape=(16, 6, 6, 2), program="fit", strategy="mirrored2", kwargs=(("rank", 2),)),
    ]


CASES = _cases()
assert len({c.name for c in CASES}) == len(CASES), "duplicate case names"


def _model(tf: Any, rank: int, input_shape: tuple) -> Any:
    layers = tf.keras.layers
    if rank == 1:
        body = [layers.Conv1D(4, 3, padding="causal", dilation_rate=2, activation="relu"),
                layers.ZeroPadding1D((1, 0)), layers.SeparableConv1D(5, 2, depth_multiplier=2, activation="tanh"),
                layers.UpSampling1D(2), layers.Conv1D(3, 2, strides=2), layers.GlobalAveragePooling1D()]
    else:
        body = [layers.ZeroPadding2D(1), layers.DepthwiseConv2D(3, depth_multiplier=2, activation="relu"),
                layers.SeparableConv2D(4, 2, strides=2, activation="tanh"), layers.UpSampling2D(2),
                layers.UpSampling2D((1, 2), interpolation="bilinear"),
                layers.GlobalAveragePooling2D()]
    return tf.keras.Sequential([tf.keras.Input(input_shape)] + body + [layers.Dense(3)])


def run_fit(tf: Any, case: Case) -> Any:
    """`fit` for 2 epochs of 2 batches from the same weights: History's losses and the weights."""
    tf.keras.backend.clear_session()
    rng = np.random.default_rng(_seed(case))
    try:
        x = rng.standard_normal((2 * case.shape[0],) + case.shape[1:]).astype("float32")
        y = rng.integers(0, 3, 2 * case.shape[0]).astype("int32")
        strategy = tf.distribute.get_strategy() if case.strategy == "default" else _strategy(tf, case.strategy)
        with strategy.scope():
            model = _model(tf, dict(case.kwargs)["rank"], case.shape[1:])
            model.set_weights([a * 0.5 for a in _weights_for(model, rng)])
            model.compile(optimizer=tf.keras.optimizers.SGD(0.05),
                          loss=tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True))
        history = model.fit(x, y, batch_size=case.shape[0], epochs=2, shuffle=False, verbose=0)
        return {"loss": np.asarray(history.history["loss"], np.float32),
                "weights": [np.asarray(w) for w in model.get_weights()]}
    except Exception as e:  # noqa: BLE001 - the error is part of the result
        return ("error", type(e).__name__, str(e).split("\n")[0][:400], "")


def run_config(tf: Any, case: Case) -> dict[str, Any]:
    """The layer's get_config without its name (as JSON), and whether from_config(get_config())
    gives the same config."""
    tf.keras.backend.clear_session()
    cls = getattr(tf.keras.layers, case.layer)
    layer = cls(**dict(case.kwargs))
    config = dict(layer.get_config())
    config.pop("name")
    return {"config": json.dumps(config, sort_keys=True, default=str),
            "round_trip": cls.from_config(layer.get_config()).get_config() == layer.get_config()}


def run(tf: Any, case: Case) -> Any:
    if case.program == "fit":
        return run_fit(tf, case)
    return run_config(tf, case) if case.program == "config" else run_case(tf, case)


# --- TF side ---------------------------------------------------------------------------------------------
def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    return {i: run(tf, CASES[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


def _check(index: int, tf_results: dict[int, Any], rtol: float = 1e-5) -> None:
    import simdist
    from simdist import tf
    simdist.reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    case = CASES[index]
    assert_same(run(tf, case), tf_results[index], case.name, rtol)


def _params(clause: str) -> list[Any]:
    return [pytest.param(i, id=c.name) for i, c in enumerate(CASES) if c.clause == clause]


@pytest.mark.clause("keras.layer.conv1d")
@pytest.mark.parametrize("index", _params(C1))
def test_conv1d(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.depthwise-separable")
@pytest.mark.parametrize("index", _params(DS))
def test_depthwise_and_separable(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.upsampling-padding")
@pytest.mark.parametrize("index", _params(UP))
def test_upsampling_and_zero_padding(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.conv-family.symbolic")
@pytest.mark.parametrize("index", _params(SYM))
def test_output_shapes(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.conv-family.arguments")
@pytest.mark.parametrize("index", _params(ARGS))
def test_argument_and_shape_errors(index: int, tf_results: dict[int, Any]) -> None:
    want = tf_results[index]
    assert isinstance(want, tuple) and want[0] == "error", f"{CASES[index].name}: TF 2.21 raised nothing ({want!r})"
    _check(index, tf_results)


@pytest.mark.clause("keras.layer.conv-family.fit")
@pytest.mark.parametrize("index", _params(FIT))
def test_fit_default_and_mirrored(index: int, tf_results: dict[int, Any]) -> None:
    _check(index, tf_results, rtol=1e-4)


def test_every_case_is_checked_under_its_clause() -> None:
    stray = sorted({c.clause for c in CASES} - {C1, DS, UP, SYM, ARGS, FIT})
    assert not stray, f"cases under clauses {stray} have no test function: add one"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
