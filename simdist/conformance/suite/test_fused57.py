"""oneDNN's fused contraction + bias + activation inside a tf.function (fifty-seventh session, onednn57; clause
function.onednn-fused-contraction): on a CPU where TF's oneDNN is on, Grappler's remapper makes
`act(matmul(x, k) + b)` one _MklNativeFusedMatMul (tanh, sigmoid, elu, relu, relu6) and `act(conv2d + b)` one
_MklNativeFusedConv2D (elu, relu, relu6), whose activation is oneDNN's eltwise post-op: other last bits than the
graph as written for tanh, sigmoid and elu, 0 for relu of NaN; bfloat16 and float16 products, bias adds and
activations in float32 rounded once; a pre-activation or product read elsewhere, a batch
matmul and a Conv2D's tanh stay unfused. Keras's Dense and Conv2D layers in fit and predict take the fused bits.
Recorded on TF 2.21 on an AVX-512 Xeon with oneDNN (`python -m simdist.conformance.suite.test_fused57 --record`
there); on the simdist backend the programs run under its reference model, on TF only on such a CPU."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.kpaths54_cases import packed
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "fused57_reference.json.gz")
REF = RecordedPrograms(PATH, host_dependent=("fc57-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

_EDGES = [0.0, -0.0, 1e-39, np.inf, -np.inf, np.nan, 88.7, -88.7, -104.0, 9.02, -9.02, 4.2e-4, 6.0, 1e-8]


def _acts(tf: Any) -> dict[str, Any]:
    return {"tanh": tf.tanh, "sigmoid": tf.sigmoid, "elu": tf.nn.elu, "relu": tf.nn.relu, "relu6": tf.nn.relu6}


def _values(tf: Any, mk: Any) -> Any:
    r = rng("fc57-values")
    v = np.concatenate([r.randn(400) * 4, np.float64(_EDGES)]).astype(np.float32)
    x = tf.constant(v.reshape(-1, 1))
    one, zero = tf.constant(np.float32([[1.0]])), tf.constant(np.float32([-0.0]))
    out = {}
    for name, a in _acts(tf).items():
        out[name] = bits(tf.function(lambda x, w, b, a=a: a(tf.matmul(x, w) + b))(x, one, zero))
    return packed(out)


def _product(tf: Any, mk: Any) -> Any:
    r = rng("fc57-product")
    x = tf.constant((r.rand(24, 10) * 4 - 2).astype(np.float32))
    w = tf.constant((r.rand(10, 7) * 1.6 - 0.8).astype(np.float32))
    b = tf.constant((r.rand(7) * 1.6 - 0.8).astype(np.float32))
    xc = tf.constant((r.rand(2, 6, 6, 3) * 4 - 2).astype(np.float32))
    k = tf.constant((r.rand(3, 3, 3, 4) * 1.6 - 0.8).astype(np.float32))
    bc = tf.constant((r.rand(4) * 1.6 - 0.8).astype(np.float32))
    out = {}
    for name, a in _acts(tf).items():
        out[f"{name} bias_add"] = bits(tf.function(lambda a=a: a(tf.nn.bias_add(tf.matmul(x, w), b)))())
        out[f"{name} b +"] = bits(tf.function(lambda a=a: a(b + tf.matmul(x, w)))())
        out[f"{name} conv2d"] = bits(tf.function(lambda a=a: a(tf.nn.conv2d(xc, k, 1, "SAME") + bc))())
        out[f"{name} pre-activation returned"] = [
            bits(t) for t in tf.function(lambda a=a: (lambda p: [a(p), p])(tf.matmul(x, w) + b))()]
        out[f"{name} batch matmul"] = bits(tf.function(
            lambda a=a: a(tf.matmul(tf.reshape(x, (4, 6, 10)), tf.stack([w] * 4)) + b))())

        def taped(a=a):
            with tf.GradientTape() as t:
                t.watch([w, b])
                y = a(tf.matmul(x, w) + b)
            return [y] + t.gradient(y, [w, b])
        out[f"{name} tape inside"] = [bits(t) for t in tf.function(taped)()]
    return packed(out)


def _keras(tf: Any, mk: Any) -> Any:
    keras = tf.keras
    r = rng("fc57-keras")
    x = (r.rand(16, 6) * 2 - 1).astype(np.float32)
    y = (r.rand(16, 2) * 2 - 1).astype(np.float32)
    out = {}
    for act in ("tanh", "sigmoid", "elu"):
        m = keras.Sequential([keras.Input((6,)), keras.layers.Dense(5, activation=act), keras.layers.Dense(2)])
        m.set_weights([(r.rand(*v.shape) * 1.6 - 0.8).astype(np.float32) for v in m.get_weights()])
        out[f"Dense {act} predict"] = bits(m.predict(x, batch_size=8, verbose=0))
        m.compile(optimizer=keras.optimizers.SGD(0.1), loss="mse")
        m.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
        out[f"Dense {act} fit"] = [bits(v) for v in m.get_weights()]
    return packed(out)


def _low(tf: Any, mk: Any) -> Any:
    r = rng("fc57-low")
    x32 = (r.rand(20, 10) * 4 - 2).astype(np.float32)
    w32 = (r.rand(10, 7) * 1.6 - 0.8).astype(np.float32)
    b32 = (r.rand(7) * 1.6 - 0.8).astype(np.float32)
    out = {}
    for dt in ("float16", "bfloat16"):
        x, w, b = (tf.cast(tf.constant(v), dt) for v in (x32, w32, b32))
        for name, a in dict(_acts(tf), none=lambda v: v).items():
            out[f"{dt} {name}"] = bits(tf.function(lambda a=a: a(tf.matmul(x, w) + b))())
            out[f"{dt} {name} bias_add"] = bits(tf.function(lambda a=a: a(tf.nn.bias_add(tf.matmul(x, w), b)))())
    return packed(out)


REF.add("fc57-values", _values)
REF.add("fc57-low", _low)
REF.add("fc57-product", _product)
REF.add("fc57-keras", _keras)


@pytest.mark.clause("function.onednn-fused-contraction")
@pytest.mark.parametrize("name", REF.ids("fc57-"))
def test_fused57_contraction_activation_in_a_function(backend: Any, name: str) -> None:
    """act(matmul + bias) and act(conv2d + bias) in a tf.function, fused and not, and Keras's Dense in fit and
    predict: TF 2.21's bits on an AVX-512 oneDNN CPU."""
    REF.check(backend, name)


assert len(REF.programs) == len(REF.ids("fc57-")) == 4

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
