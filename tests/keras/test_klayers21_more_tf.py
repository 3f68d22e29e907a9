"""Keras 3.15's audio layers, Pipeline, the STFT initializer and SwapEMAWeights on simdist vs TF 2.21 + Keras 3.15
(simdist/keras/layers/preprocessing/audio/, preprocessing/pipeline.py, keras/initializers.py):
MelSpectrogram (window, stride, mel range, power_to_db, mag_exp), STFTSpectrogram (every mode,
padding, frame_step, fft_length, scaling, periodic windows, expand_dims; channels_first is
left out: its Conv1D is oneDNN's on the reference CPU and UnimplementedError without oneDNN), keras.initializers.STFT (both sides, scalings, periodic, its aliases), Pipeline (training
on and off, dict inputs, a tf.data map, nested in a model) with get_config/from_config and
compute_output_shape (MelSpectrogram also under `ds.map`, STFTSpectrogram in a Sequential model),
keras.callbacks.SwapEMAWeights with an SGD optimizer's use_ema (fit with
validation, evaluate, predict; swap_on_epoch on and off; an optimizer without averages), and
the errors Keras raises for bad arguments.

Tolerance: MelSpectrogram and STFTSpectrogram agree within rtol 1e-5 with an absolute floor of
1e-5 times the array's largest magnitude (an FFT's and a convolution's float32 sums, in another
order than Eigen's); the initializer's kernels, Pipeline's and SwapEMAWeights' values, configs and errors bit for bit.
Live TF only (no golden): SciPy's windows (np.cos in float64, dispatched by CPU) feed both sides,
so a golden recorded on one host would not hold another's windows. Clauses keras.layer.audio,
keras.layer.pipeline, keras.init.stft and keras.callbacks.swap-ema-weights.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

import tf_workers

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF,
                                                 reason="real TensorFlow is not installed (pip install -e .[tf])")]

MEL = {
    "mel": {"fft_length": 64, "sequence_stride": 16, "num_mel_bins": 12, "sampling_rate": 8000},
    "mel_options": {"fft_length": 128, "sequence_stride": 32, "sequence_length": 100, "window": "hamming",
                    "num_mel_bins": 20, "min_freq": 100.0, "max_freq": 3000.0, "power_to_db": False, "mag_exp": 1.0,
                    "sampling_rate": 8000},
    "mel_db": {"fft_length": 32, "sequence_stride": 8, "num_mel_bins": 6, "sampling_rate": 4000, "top_db": 20.0,
               "ref_power": 2.5, "min_power": 1e-3, "window": None},
}
STFT = {
    "stft_log": {"frame_length": 32},
    "stft_magnitude_same": {"mode": "magnitude", "frame_length": 30, "frame_step": 10, "fft_length": 64,
                            "padding": "same"},
    "stft_psd_spectrum": {"mode": "psd", "frame_length": 16, "window": "hamming", "periodic": True,
                          "scaling": "spectrum"},
    "stft_stft_expand": {"mode": "stft", "frame_length": 16, "expand_dims": True},
    "stft_angle": {"mode": "angle", "frame_length": 16, "scaling": None},
    "stft_real": {"mode": "real", "frame_length": 12, "frame_step": 5, "window": None},
    "stft_imag_expand": {"mode": "imag", "frame_length": 8, "expand_dims": True, "window": "blackman"},
}
CASES = tuple(MEL) + tuple(STFT) + ("initializer", "pipeline", "swap_ema", "configs", "errors")
# compared within float32 rounding: the spectrograms (FFTs), and the pipeline, whose RandomSharpness is a float32
# depthwise convolution, one of README's two open exceptions (float32 convolutions stay on OpenBLAS; where TF runs
# oneDNN's, as on an AVX-512 Xeon, 45 of its elements differ in the last bit: thirty-fifth session)
CLOSE = set(MEL) | set(STFT) | {"pipeline"}


def _signal() -> np.ndarray:
    t = np.arange(2 * 400, dtype=np.float32).reshape(2, 400)
    return (((t * 37) % 101) / 50.0 - 1.0).astype(np.float32)


def _np(v: Any) -> np.ndarray:
    return np.asarray(v.numpy() if hasattr(v, "numpy") else v)


def _try(fn: Any) -> np.ndarray:
    """fn()'s value, or the class of the error it raises."""
    try:
        return _np(fn())
    except Exception as e:  # noqa: BLE001 - the error class is the observable
        return np.asarray(f"raises {type(e).__name__}")


def _mel(tf: Any, name: str) -> dict[str, Any]:
    sig = _signal()
    layer = tf.keras.layers.MelSpectrogram(**MEL[name])
    ds = tf.data.Dataset.from_tensor_slices(np.concatenate([sig, sig[::-1]])).batch(3).map(layer)
    return {"batched": _np(layer(sig)), "unbatched": _np(layer(sig[1])),
            "dataset": np.concatenate([_np(v) for v in ds]),
            "shape": np.asarray(repr(layer.compute_output_shape((2, 400))))}


def _stft(tf: Any, name: str) -> dict[str, Any]:
    kwargs = STFT[name]
    sig = _signal()
    x = np.stack([sig, sig[::-1] * 0.5], axis=-1)
    layer = tf.keras.layers.STFTSpectrogram(**kwargs)
    out = {"out": _try(lambda: layer(x)), "shape": np.asarray(repr(layer.compute_output_shape(x.shape)))}
    out["weights"] = np.asarray(repr([(w.name, tuple(w.shape)) for w in layer.weights]))
    model = tf.keras.Sequential([tf.keras.Input(x.shape[1:]), tf.keras.layers.STFTSpectrogram(**kwargs)])
    out["model_predict"] = np.asarray(model.predict(x, verbose=0))
    out["model_output_shape"] = np.asarray(repr(tuple(model.output_shape)))
    return out


def _initializer(tf: Any) -> dict[str, Any]:
    init = tf.keras.initializers
    out: dict[str, Any] = {}
    for i, (cls, kwargs, shape) in enumerate((
            (init.STFT, {}, (16, 1, 9)), (init.STFT, {"side": "imag", "scaling": "spectrum", "periodic": True},
                                          (16, 1, 9)),
            (init.STFTInitializer, {"window": "hamming", "scaling": None}, (10, 2, 11)),
            (init.stft, {"side": "imag", "window": None}, (8, 1, 5)),
            (init.STFT, {"window": np.linspace(0.5, 1.0, 12)}, (12, 1, 7)))):
        obj = cls(**kwargs)
        out[f"{i}/value"] = _np(obj(shape))
        out[f"{i}/config"] = np.asarray(repr(sorted(obj.get_config().items())) if i != 4 else "window array")
    out["get"] = np.asarray(type(init.get("STFT")).__name__)
    out["float64"] = _np(init.STFT()((8, 1, 5), dtype="float64"))
    return out


def _pipeline(tf: Any) -> dict[str, Any]:
    L = tf.keras.layers
    x = ((np.arange(2 * 6 * 7 * 3, dtype=np.float32).reshape(2, 6, 7, 3) * 7 % 23) * 11.0).astype(np.float32)
    pipe = L.Pipeline([L.RandomFlip(seed=4), L.RandomBrightness(0.3, seed=5), L.Rescaling(0.5),
                       L.RandomSharpness(0.6, seed=6)], name="pipe")
    out = {"train": _np(pipe(x)), "train_again": _np(pipe(x, training=True)), "infer": _np(pipe(x, training=False)),
           "unbatched": _np(pipe(x[0]))}
    image_pipe = L.Pipeline([L.RandomFlip(seed=4), L.RandomSharpness(0.6, seed=6)])   # (Rescaling takes no dict)
    got = image_pipe({"images": x, "labels": np.eye(2, dtype=np.float32)})
    out["dict/images"], out["dict/labels"] = _np(got["images"]), _np(got["labels"])
    ds = tf.data.Dataset.from_tensor_slices(np.concatenate([x, x[::-1]])).batch(2).map(pipe)
    out["dataset"] = np.concatenate([_np(v) for v in ds])
    model = tf.keras.Sequential([tf.keras.Input((6, 7, 3)), L.Pipeline([L.RandomContrast(0.5, seed=7), L.Flatten()])])
    out["model/train"] = _np(model(x, training=True))
    out["model/predict"] = np.asarray(model.predict(x, verbose=0))
    out["layers"] = np.asarray(repr([type(layer).__name__ for layer in pipe.layers]))
    return out


def _swap_ema(tf: Any) -> dict[str, Any]:
    x = (np.arange(24, dtype=np.float32).reshape(12, 2) % 7 - 3.0) / 4.0
    y = (np.arange(12) % 3 == 0).astype(np.float32).reshape(12, 1)
    out: dict[str, Any] = {}
    for swap in (False, True):
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        model.set_weights([np.array([[0.5], [-0.25]], np.float32), np.zeros(1, np.float32)])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1, use_ema=True, ema_momentum=0.5), loss="mse")
        cb = tf.keras.callbacks.SwapEMAWeights(swap_on_epoch=swap)
        history = model.fit(x, y, batch_size=4, epochs=3, verbose=0, validation_data=(x, y), callbacks=[cb],
                            shuffle=False)
        out[f"{swap}/history"] = np.asarray([history.history["loss"], history.history["val_loss"]], np.float32)
        out[f"{swap}/weights"] = np.concatenate([w.ravel() for w in model.get_weights()])
        out[f"{swap}/averages"] = np.concatenate([np.asarray(v).ravel()
                                                  for v in model.optimizer._model_variables_moving_average])
        out[f"{swap}/evaluate"] = np.asarray(model.evaluate(x, y, verbose=0, callbacks=[cb]), np.float32)
        out[f"{swap}/weights_after_evaluate"] = np.concatenate([w.ravel() for w in model.get_weights()])
        out[f"{swap}/predict"] = np.asarray(model.predict(x[:3], verbose=0, callbacks=[cb]))
        out[f"{swap}/weights_after_predict"] = np.concatenate([w.ravel() for w in model.get_weights()])
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    try:
        model.evaluate(x, y, verbose=0, callbacks=[tf.keras.callbacks.SwapEMAWeights()])
        out["no_ema"] = np.asarray("no error")
    except Exception as e:  # noqa: BLE001 - the class and message are the observables
        out["no_ema"] = np.asarray(f"{type(e).__name__}: {e}")
    return out


def _configs(tf: Any) -> dict[str, Any]:
    L = tf.keras.layers
    out: dict[str, Any] = {}
    layers = {**{n: L.MelSpectrogram(**k) for n, k in MEL.items()},
              **{n: L.STFTSpectrogram(**k) for n, k in STFT.items()},
              "pipeline": L.Pipeline([L.RandomFlip(seed=4), L.Rescaling(0.5)], name="pp")}
    for name, layer in layers.items():
        config = layer.get_config()
        out[f"{name}/config"] = np.asarray(repr(sorted(config.items())))
        again = type(layer).from_config(config).get_config()
        out[f"{name}/round_trip"] = np.asarray(repr(sorted(again.items())))
    return out


BAD = (("MelSpectrogram", {"fft_length": 64, "sequence_length": 100}),
       ("STFTSpectrogram", {"frame_length": 16, "frame_step": 20}), ("STFTSpectrogram", {"frame_step": 0}),
       ("STFTSpectrogram", {"frame_length": 32, "fft_length": 16}), ("STFTSpectrogram", {"mode": "phase"}),
       ("STFTSpectrogram", {"scaling": "power"}), ("STFTSpectrogram", {"padding": "causal"}),
       ("STFTSpectrogram", {"window": "no_such_window"}))


def _errors(tf: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, (cls, kwargs) in enumerate(BAD):
        try:
            getattr(tf.keras.layers, cls)(**kwargs)
            out[f"{i}:{cls}"] = np.asarray("no error")
        except Exception as e:  # noqa: BLE001 - the class and message are the observables
            out[f"{i}:{cls}"] = np.asarray(f"{type(e).__name__}: {e}")
    for i, kwargs in enumerate(({"side": "both"}, {"scaling": "power"}, {"window": "nope"})):
        try:
            tf.keras.initializers.STFT(**kwargs)
            out[f"init{i}"] = np.asarray("no error")
        except Exception as e:  # noqa: BLE001
            out[f"init{i}"] = np.asarray(f"{type(e).__name__}: {e}")
    out["init_window_shape"] = _try(lambda: tf.keras.initializers.STFT(window=np.ones(5))((8, 1, 5)))
    sig = _signal()
    out["stft_rank2"] = _try(lambda: tf.keras.layers.STFTSpectrogram(frame_length=16)(sig))
    out["stft_int"] = _try(lambda: tf.keras.layers.STFTSpectrogram(frame_length=16)(
        np.ones((1, 40, 1), np.int32)))
    out["pipeline_bad_config"] = _try(lambda: tf.keras.layers.Pipeline.from_config({"layers": "x"}))
    return out


def program(tf: Any, name: str) -> dict[str, Any]:
    if name in MEL:
        return _mel(tf, name)
    if name in STFT:
        return _stft(tf, name)
    return {"initializer": _initializer, "pipeline": _pipeline, "swap_ema": _swap_ema, "configs": _configs,
            "errors": _errors}[name](tf)


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    out = {}
    for i in indices:
        tf.keras.backend.clear_session()
        out[i] = program(tf, CASES[i])
    return out


def _simdist(name: str) -> dict[str, Any]:
    import simdist
    from simdist import tf
    simdist.reset()
    tf.keras.backend.clear_session()   # (as the TF worker does: layer names restart)
    return program(tf, name)


def _onednn_without_fp16() -> bool:
    from simdist.runtime import host_cpu
    here = host_cpu.detect()
    return here.onednn_enabled and here.has("avx512f") and not here.has("avx512_fp16")


_ONEDNN_WITHOUT_FP16 = _onednn_without_fp16()


@pytest.fixture(scope="module")
def tf_answers() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(CASES))))


@pytest.mark.clause("keras.layer.audio")
@pytest.mark.clause("keras.layer.pipeline")
@pytest.mark.clause("keras.callbacks.swap-ema-weights")
@pytest.mark.parametrize("case", CASES)
def test_klayers21_audio_matches_tf(tf_answers: dict[int, Any], case: str, request: pytest.FixtureRequest) -> None:
    if case == "pipeline" and _ONEDNN_WITHOUT_FP16:
        request.node.add_marker(pytest.mark.xfail(strict=False, reason=(
            "open host difference: live TF on an AVX-512 CPU without AVX512-FP16 (oneDNN on, e.g. AMD Zen 4) gives "
            "this pipeline's float32 values otherwise in the last bit (45 elements) than on the reference host "
            "simdist models, and simdist's host model does not cover it yet (2026-12-02)")))
    got, want = _simdist(case), tf_answers[CASES.index(case)]
    assert sorted(got) == sorted(want), f"{case}: observables {sorted(got)}, but should be {sorted(want)}"
    for k in want:
        g, w = np.asarray(got[k]), np.asarray(want[k])
        if w.dtype.kind in "US":
            assert str(g) == str(w), f"{case} {k}: {g}, but should be {w} (TF 2.21)"
            continue
        assert (g.dtype, g.shape) == (w.dtype, w.shape), f"{case} {k}: {g.dtype}{g.shape}, but should be " \
                                                          f"{w.dtype}{w.shape} (TF 2.21)"
        if case in CLOSE:
            atol = 1e-5 * float(np.max(np.abs(w))) if w.size else 0.0
            ok = np.allclose(g, w, rtol=1e-5, atol=atol, equal_nan=True)
        else:
            ok = np.array_equal(g, w, equal_nan=True)
        bad = np.argwhere(~np.isclose(g, w, rtol=0, atol=0, equal_nan=True)) if not ok else []
        assert ok, f"{case} {k}: {g.ravel()[:6]}, but should be {w.ravel()[:6]} (TF 2.21; {len(bad)} elements " \
                   f"differ, first at {tuple(bad[0]) if len(bad) else None})"


if __name__ == "__main__":
    sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    tf_workers.serve(_tf_worker)
