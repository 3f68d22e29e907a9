"""`tf.keras.applications` — clause keras.applications (TF 2.21 + Keras 3.15: keras/src/applications/). Expected
values are written here from Keras's rules: each module's preprocess_input is imagenet_utils' mode ("caffe": RGB to
BGR then minus the ImageNet means; "tf": scaled to [-1, 1]; "torch": scaled to [0, 1] then standardized per
channel) or the identity for the models that preprocess inside themselves; MobileNet's parameter count follows
from its layer list (a 3x3 stem, thirteen depthwise-separable blocks, each convolution without bias and followed by
a BatchNormalization of four vectors, a 1x1 convolution classifier with bias); the builders refuse ImageNet weights
with another class count, an input below the model's minimum size, and a weights path that does not exist."""

from __future__ import annotations

import numpy as np

import pytest

from simdist.conformance.assertions import assert_close, assert_equal, raises

clause = pytest.mark.clause

_MEAN_BGR = np.array([103.939, 116.779, 123.68], np.float32)
_TORCH_MEAN = np.array([0.485, 0.456, 0.406], np.float32)
_TORCH_STD = np.array([0.229, 0.224, 0.225], np.float32)

#: each tf.keras.applications module's preprocess_input mode (Keras 3.15's modules)
_MODES = {"resnet50": "caffe", "resnet": "caffe", "vgg16": "caffe", "vgg19": "caffe", "mobilenet": "tf",
          "mobilenet_v2": "tf", "inception_v3": "tf", "inception_resnet_v2": "tf", "xception": "tf", "nasnet": "tf",
          "resnet_v2": "tf", "densenet": "torch", "efficientnet": None, "efficientnet_v2": None, "convnext": None,
          "mobilenet_v3": None}


def _expected(x: np.ndarray, mode: str | None) -> np.ndarray:
    if mode is None:
        return x
    if mode == "tf":
        return x / 127.5 - 1.0
    if mode == "torch":
        return (x / 255.0 - _TORCH_MEAN) / _TORCH_STD
    return x[..., ::-1] - _MEAN_BGR


@clause("keras.applications", ref="tf221")
def test_applications_preprocess_input_follows_each_models_mode(keras):
    x = (np.arange(2 * 2 * 3 * 3, dtype=np.float32).reshape(2, 2, 3, 3) * 13.0) % 256.0
    for module, mode in _MODES.items():
        got = getattr(keras.applications, module).preprocess_input(x.copy())
        assert_close(np.asarray(got), _expected(x, mode),
                     call=f"keras.applications.{module}.preprocess_input(x)",
                     what=f"out (mode {mode or 'identity: the model preprocesses inside'})")


def _bn(c: int) -> int:
    return 4 * c      # gamma, beta, moving mean, moving variance


def _mobilenet_params(alpha: float, classes: int | None) -> int:
    c = int(32 * alpha)
    total = 3 * 3 * 3 * c + _bn(c)
    for filters in [64, 128, 128, 256, 256, 512, 512, 512, 512, 512, 512, 1024, 1024]:
        out = int(filters * alpha)
        total += 3 * 3 * c + _bn(c) + c * out + _bn(out)    # depthwise 3x3, then pointwise 1x1, no biases
        c = out
    if classes is not None:
        total += c * classes + classes                      # the 1x1 convolution classifier, with bias
    return total


@clause("keras.applications", ref="tf221")
def test_applications_mobilenet_has_keras_layers_and_parameters(keras):
    for alpha, top in [(0.25, True), (0.5, False), (0.75, True)]:
        call = f"keras.applications.MobileNet(weights=None, alpha={alpha}, include_top={top}, input_shape=(32, 32, 3))"
        kwargs = {"classes": 5} if top else {"pooling": "avg"}
        model = keras.applications.MobileNet(weights=None, alpha=alpha, include_top=top, input_shape=(32, 32, 3),
                                             **kwargs)
        assert_equal(model.count_params(), _mobilenet_params(alpha, 5 if top else None), call=call,
                     what="count_params() (stem, 13 depthwise-separable blocks, classifier)")
        assert_equal(tuple(model.output_shape), (None, 5) if top else (None, int(1024 * alpha)), call=call,
                     what="output_shape")
        depthwise = [layer.name for layer in model.layers if type(layer).__name__ == "DepthwiseConv2D"]
        assert_equal(depthwise, [f"conv_dw_{i}" for i in range(1, 14)], call=call,
                     what="DepthwiseConv2D layer names")


@clause("keras.applications", ref="tf221")
def test_applications_builders_refuse_inconsistent_arguments(keras):
    apps = keras.applications
    with raises(ValueError, match="1000", call="keras.applications.ResNet50(weights='imagenet', classes=5)"):
        apps.ResNet50(weights="imagenet", classes=5)
    with raises(ValueError, match="32", call="keras.applications.ResNet50(weights=None, input_shape=(16, 16, 3))"):
        apps.ResNet50(weights=None, input_shape=(16, 16, 3))
    with raises(ValueError, match="75", call="keras.applications.InceptionV3(weights=None, input_shape=(64, 64, 3))"):
        apps.InceptionV3(weights=None, input_shape=(64, 64, 3))
    with raises(ValueError, match="weights", call="keras.applications.MobileNetV2(weights='no/such/file.h5')"):
        apps.MobileNetV2(weights="no/such/file.h5")
