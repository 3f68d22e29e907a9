"""Channels-first data formats on a CPU where TF 2.21 runs its own kernels (the fifty-second session, helper
open52; clause ops.host-cpu): MaxPool3D/AvgPool3D of NCDHW are Pooling3DOp's InvalidArgumentError there, after the
op's dtype and attr checks (eagerly) or its shape function (at trace), and a tf.function that does not use the
refused result prunes the op and returns; a tape inside a tf.function makes an NCHW Conv2D's call fail at its
gradient's backprop kernels (constructed before the forward runs); an XLA-compiled call's ops keep XLA's kernel
rules when a later call replays them (grouped convolution gradients); Keras's channels-first layers. Each case:
a list of [label, [dtype, shape, values rounded to 4 decimals]] or [label, error class]. simdist runs on the model
of the CPU the answers came from (tf_workers.answers_model): recorded on the AMD EPYC (AVX2, oneDNN off).
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        r = fn()
        v = np.asarray(r[0] if isinstance(r, (list, tuple)) else r)
        out.append([label, [str(v.dtype), list(v.shape), np.round(v.astype(np.float64), 4).ravel().tolist()]])
    except BaseException as e:  # noqa: BLE001 - the class is what is compared
        out.append([label, type(e).__name__])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    r = np.random.RandomState(52)
    x3 = tf.constant(r.rand(1, 2, 4, 4, 4).astype(np.float32))
    x2 = tf.constant(r.rand(1, 2, 5, 5).astype(np.float32))
    w2 = tf.constant(r.rand(2, 2, 2, 3).astype(np.float32))
    calls: dict[str, Callable[[], Any]] = {
        "max_pool3d": lambda: tf.nn.max_pool3d(x3, 2, 1, "VALID", data_format="NCDHW"),
        "avg_pool3d": lambda: tf.nn.avg_pool3d(x3, 2, 2, "SAME", data_format="NCDHW"),
        "max_pool3d window too large": lambda: tf.nn.max_pool3d(x3, [1, 1, 2, 2, 9], 1, "VALID",
                                                                 data_format="NCDHW"),
        "max_pool3d batch window": lambda: tf.nn.max_pool3d(x3, [2, 1, 2, 2, 2], 1, "VALID", data_format="NCDHW"),
        "max_pool3d float64": lambda: tf.nn.max_pool3d(tf.cast(x3, tf.float64), 2, 1, "VALID", data_format="NCDHW"),
        "avg_pool3d float16": lambda: tf.nn.avg_pool3d(tf.cast(x3, tf.float16), 2, 1, "VALID", data_format="NCDHW"),
        "raw MaxPool3D": lambda: tf.raw_ops.MaxPool3D(input=x3, ksize=[1, 1, 2, 2, 2], strides=[1] * 5,
                                                      padding="VALID", data_format="NCDHW"),
        "max_pool2d": lambda: tf.nn.max_pool2d(x2, 2, 1, "VALID", data_format="NCHW"),
        "conv2d": lambda: tf.nn.conv2d(x2, w2, 1, "VALID", data_format="NCHW"),
    }

    def unused(f: Callable[[], Any]) -> Callable[[], Any]:
        def g() -> Any:
            f()
            return tf.constant(1.0)
        return g

    def grad(f: Callable[[], Any], x: Any) -> Callable[[], Any]:
        def g() -> Any:
            with tf.GradientTape() as t:
                t.watch(x)
                y = f()
            return t.gradient(y, x)
        return g

    if case["name"] == "forward":
        for label, f in calls.items():
            _try(out, "eager " + label, f)
            _try(out, "function " + label, tf.function(f))
            _try(out, "function unused " + label, tf.function(unused(f)))
        _try(out, "NDHWC max_pool3d", lambda: tf.nn.max_pool3d(tf.transpose(x3, [0, 2, 3, 4, 1]), 2, 1, "VALID"))
    elif case["name"] == "gradients":
        for label in ["max_pool3d", "avg_pool3d", "max_pool2d"]:
            x = x2 if label.endswith("2d") else x3
            _try(out, "eager " + label, grad(calls[label], x))
            _try(out, "function " + label, tf.function(grad(calls[label], x)))
        _try(out, "eager conv2d", grad(calls["conv2d"], x2))
        # (a tape inside the function: the gradient's Conv2DBackpropFilter/Input refuse NCHW when TF instantiates
        # the graph, before the forward's launcher refuses it)
        _try(out, "function conv2d, filter watched", tf.function(grad(calls["conv2d"], w2)))
        _try(out, "function conv2d, input watched", tf.function(grad(calls["conv2d"], x2)))
        gw = tf.Variable(r.rand(3, 3, 1, 2).astype(np.float32))
        xla = tf.function(lambda x, w: tf.nn.convolution(x, w, padding="VALID"), jit_compile=True)

        @tf.function
        def grouped() -> Any:   # (its second call replays the recorded gradient: XLA's kernel rules still apply)
            with tf.GradientTape() as t:
                y = xla(tf.transpose(x2, [0, 2, 3, 1]), gw)
                loss = tf.reduce_sum(y * y)
            return t.gradient(loss, gw)
        for k in range(2):
            _try(out, f"grouped XLA conv gradient, call {k}", grouped)
        _try(out, "grouped XLA NCHW conv", lambda: tf.function(
            lambda: tf.nn.conv2d(x2, gw, 1, "VALID", data_format="NCHW"), jit_compile=True)())
    elif case["name"] == "keras":
        K = tf.keras.layers
        for label, shape, make in [
                ("Conv2D channels_first", (2, 5, 5), lambda: K.Conv2D(2, 3, data_format="channels_first")),
                ("Conv1D channels_first", (2, 6), lambda: K.Conv1D(2, 3, data_format="channels_first")),
                ("grouped Conv2D channels_first", (2, 5, 5), lambda: K.Conv2D(2, 3, groups=2,
                                                                               data_format="channels_first")),
                ("grouped Conv2D channels_last", (5, 5, 2), lambda: K.Conv2D(2, 3, groups=2)),
                ("MaxPooling3D channels_first", (2, 4, 4, 4), lambda: K.MaxPooling3D(2, data_format="channels_first"))]:
            x = r.rand(2, *shape).astype(np.float32)
            tf.keras.utils.set_random_seed(5)
            m = tf.keras.Sequential([tf.keras.Input(shape), make(), K.Flatten(), K.Dense(1)])
            m.compile("sgd", "mse")
            _try(out, label + " predict", lambda m=m, x=x: m.predict(x, verbose=0))
            _try(out, label + " fit", lambda m=m, x=x: np.array(
                m.fit(x, np.ones((2, 1), np.float32), epochs=2, verbose=0).history["loss"], np.float32))
    return out


NAMES = ["forward", "gradients", "keras"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


def _same(got: Any, want: Any) -> bool:
    """The same class, or the same dtype and shape with values within float32 summation order (XLA's convolution
    and its gradient add in another order than simdist: last bits, a 4-decimal rounding apart)."""
    if isinstance(got, str) or isinstance(want, str):
        return got == want
    return got[:2] == want[:2] and bool(np.allclose(got[2], want[2], rtol=1e-5, atol=2e-4))


@pytest.mark.clause("ops.host-cpu")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_channels_first_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    from simdist.runtime import host_cpu
    with host_cpu.using(tf_workers.answers_model(__file__)):   # (which kernels refuse follows the CPU)
        got = tf_programs.on_simdist(program, CASES[name], str(tmp_path))
    want = tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1] if isinstance(g[1], str) else g[1][:2]}, TF 2.21 gives "
           f"{w[1] if isinstance(w[1], str) else w[1][:2]}" for g, w in zip(got, want) if not _same(g[1], w[1])]
    assert not bad, f"{name}: " + "; ".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
