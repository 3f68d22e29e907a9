"""tf.signal against real TensorFlow 2.21 (clauses ops.signal-fft, ops.signal-compositions): the
FFT/RFFT families' output dtypes and shapes, fft_length's cropping and zero padding, TF's error
classes (rank, dtype, fft_length, the FFTND ops with no kernel), gradients (fft_ops.py's), calls
inside a tf.function, and the compositions (shifts, windows, frame, overlap_and_add, stft,
inverse_stft, dct/idct, mdct/inverse_mdct, mel weights, mfccs). Needs the `tf` extra (golden-backed otherwise).

The transforms, their gradients, stft and inverse_stft, the shifts, frames, overlap_and_add,
windows and mel matrices are compared bit for bit (simdist runs pocketfft as TF's DUCC kernel
does: clause ops.signal-fft); the cases whose compositions hold a complex exp (the DCTs, MDCTs,
mfccs, RFFT2D's gradient on an odd length) or float32 Bessel i0e (the Kaiser windows) within 4e-6
(float32/complex64) or 8e-15 (float64/complex128) of the output's largest magnitude.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_R = np.random.default_rng(2906)
X6 = _R.uniform(-2, 3, 6).astype(np.float32)
X7 = _R.uniform(-2, 3, (2, 7)).astype(np.float32)
X64 = _R.uniform(-2, 3, (3, 8))
C5 = (_R.normal(size=(2, 5)) + 1j * _R.normal(size=(2, 5))).astype(np.complex64)
C128 = _R.normal(size=(2, 3, 4)) + 1j * _R.normal(size=(2, 3, 4))
M34 = _R.uniform(-1, 1, (2, 3, 4)).astype(np.float32)
M345 = _R.uniform(-1, 1, (2, 3, 4, 5))
SIG = _R.uniform(-1, 1, (2, 40)).astype(np.float32)
_SWEEP = _R.normal(size=600) + 1j * _R.normal(size=600)          # sizes 1-48 and the 2-D/3-D shapes


def _sweep(shape: Any, dt: Any) -> np.ndarray:
    """The first prod(shape) sweep values as `dt` (their real parts for a real dtype)."""
    v = _SWEEP[:int(np.prod(shape))].reshape(shape)
    return (v if np.dtype(dt).kind == "c" else v.real).astype(dt)


def _c(a: np.ndarray) -> Callable[[Any], Any]:
    return lambda tf: tf.constant(a)


def _grad(fn: Callable[[Any, Any], Any], x: np.ndarray) -> Callable[[Any], Any]:
    """[fn(x), d sum(|fn(x)|² · weights) / dx] with a variable x."""
    def run(tf: Any) -> Any:
        v = tf.Variable(x)
        with tf.GradientTape() as tape:
            y = fn(tf, v)
            a = tf.math.real(y * tf.math.conj(y)) if y.dtype.is_complex else y * y
            w = tf.reshape(tf.cast(tf.range(1, tf.size(a) + 1), a.dtype), tf.shape(a)) / tf.cast(tf.size(a), a.dtype)
            loss = tf.reduce_sum(a * w)
        return [y, tape.gradient(loss, v)]
    return run


def _fn(fn: Callable[[Any, Any], Any], x: np.ndarray) -> Callable[[Any], Any]:
    """fn(x) inside a tf.function called twice (the second call replays)."""
    def run(tf: Any) -> Any:
        f = tf.function(lambda a: fn(tf, a))
        return [f(tf.constant(x)), f(tf.constant(x * 0.5))]
    return run


_FFT: list[tuple[str, Callable[[Any], Any]]] = [
    ("fft-complex64", lambda tf: tf.signal.fft(tf.constant(C5))),
    ("ifft-complex64", lambda tf: tf.signal.ifft(tf.constant(C5))),
    ("fft-complex128-rank3", lambda tf: tf.signal.fft(tf.constant(C128))),
    ("fft2d-complex128", lambda tf: tf.signal.fft2d(tf.constant(C128))),
    ("ifft2d-complex128", lambda tf: tf.signal.ifft2d(tf.constant(C128))),
    ("fft3d-complex128", lambda tf: tf.signal.fft3d(tf.constant(C128))),
    ("ifft3d-complex64", lambda tf: tf.signal.ifft3d(tf.constant(C128.astype(np.complex64)))),
    ("fft-numpy-float32", lambda tf: tf.signal.fft(X6)),
    ("fft-python-ints", lambda tf: tf.signal.fft([1, 2, 3])),
    ("fft-empty", lambda tf: tf.signal.fft(tf.zeros([2, 0], tf.complex64))),
    ("rfft-float32", lambda tf: tf.signal.rfft(tf.constant(X6))),
    ("rfft-float64", lambda tf: tf.signal.rfft(tf.constant(X64))),
    ("rfft-odd", lambda tf: tf.signal.rfft(tf.constant(X7))),
    ("rfft-crop", lambda tf: tf.signal.rfft(tf.constant(X7), [4])),
    ("rfft-pad", lambda tf: tf.signal.rfft(tf.constant(X7), [11])),
    ("rfft-length-tensor", lambda tf: tf.signal.rfft(tf.constant(X7), tf.constant([5]))),
    ("rfft-numpy-float64-is-float32", lambda tf: tf.signal.rfft(X64)),
    ("rfft-python-list", lambda tf: tf.signal.rfft([1.0, 2.0, 4.0])),
    ("irfft-complex64", lambda tf: tf.signal.irfft(tf.signal.rfft(tf.constant(X7)))),
    ("irfft-complex128", lambda tf: tf.signal.irfft(tf.constant(C128))),
    ("irfft-odd-length", lambda tf: tf.signal.irfft(tf.constant(C5), [7])),
    ("irfft-crop", lambda tf: tf.signal.irfft(tf.constant(C5), [4])),
    ("irfft-pad", lambda tf: tf.signal.irfft(tf.constant(C5), [12])),
    ("rfft2d", lambda tf: tf.signal.rfft2d(tf.constant(M34))),
    ("rfft2d-lengths", lambda tf: tf.signal.rfft2d(tf.constant(M34), [2, 6])),
    ("irfft2d", lambda tf: tf.signal.irfft2d(tf.signal.rfft2d(tf.constant(M34)), [3, 4])),
    ("irfft2d-inferred", lambda tf: tf.signal.irfft2d(tf.constant(C128))),
    ("rfft3d-float64", lambda tf: tf.signal.rfft3d(tf.constant(M345))),
    ("irfft3d", lambda tf: tf.signal.irfft3d(tf.signal.rfft3d(tf.constant(M345)), [3, 4, 5])),
    ("roundtrip-fft-ifft", lambda tf: tf.signal.ifft(tf.signal.fft(tf.constant(C5)))),
    ("sizes-1-to-48", lambda tf: [op(tf.constant(_sweep((2, n), dt)))
                                  for n in range(1, 49) for op, dt in ((tf.signal.fft, np.complex64),
                                                                       (tf.signal.ifft, np.complex128),
                                                                       (tf.signal.rfft, np.float32))]),
    ("sizes-2d-3d", lambda tf: [op(tf.constant(_sweep(s, dt)))
                                for s in ((3, 5, 7), (2, 4, 6, 9), (1, 2, 1, 3))
                                for op, dt in ((tf.signal.fft2d, np.complex64), (tf.signal.ifft2d, np.complex64),
                                               (tf.signal.fft3d, np.complex128), (tf.signal.ifft3d, np.complex64),
                                               (tf.signal.rfft2d, np.float32), (tf.signal.rfft3d, np.float64))]),
    ("irfft-sizes", lambda tf: [op(tf.constant(_sweep(s, np.complex64)), n)
                                for s, op, n in (((3, 9), tf.signal.irfft, [16]), ((3, 9), tf.signal.irfft, [17]),
                                                 ((2, 5, 6), tf.signal.irfft2d, [5, 10]),
                                                 ((2, 3, 4, 5), tf.signal.irfft3d, [3, 4, 8]))]),
    ("special-values", lambda tf: [tf.signal.fft(tf.constant([[np.nan, 1, 2, 3], [np.inf, 0, -0.0, 1]],
                                                             tf.complex64)),
                                   tf.signal.rfft(tf.constant([[np.inf, 1, 2, 3, 4]], tf.float32))]),
]

_ERRORS: list[tuple[str, Callable[[Any], Any]]] = [
    ("fft-float32-tensor", lambda tf: tf.signal.fft(tf.constant(X6))),
    ("fft-float64-tensor", lambda tf: tf.signal.fft(tf.constant(X64))),
    ("fft-scalar", lambda tf: tf.signal.fft(tf.constant(1 + 2j, tf.complex64))),
    ("fft2d-rank1", lambda tf: tf.signal.fft2d(tf.constant(C5[0]))),
    ("fft3d-rank2", lambda tf: tf.signal.fft3d(tf.constant(C5))),
    ("rfft-float16", lambda tf: tf.signal.rfft(tf.constant(X6, tf.float16))),
    ("rfft-int32", lambda tf: tf.signal.rfft(tf.constant([1, 2, 3]))),
    ("rfft-complex", lambda tf: tf.signal.rfft(tf.constant(C5))),
    ("rfft-scalar", lambda tf: tf.signal.rfft(tf.constant(1.0))),
    ("rfft-negative-length", lambda tf: tf.signal.rfft(tf.constant(X6), [-2])),
    ("rfft-two-lengths", lambda tf: tf.signal.rfft(tf.constant(X6), [2, 3])),
    ("rfft-float-length", lambda tf: tf.signal.rfft(tf.constant(X6), [2.5])),
    ("irfft-float32", lambda tf: tf.signal.irfft(tf.constant(X6))),
    ("irfft2d-rank1", lambda tf: tf.signal.irfft2d(tf.constant(C5[0]))),
    ("rfft2d-rank1", lambda tf: tf.signal.rfft2d(tf.constant(X6))),
    ("fftnd", lambda tf: tf.signal.fftnd(tf.constant(C5))),
    ("ifftnd-axes", lambda tf: tf.signal.ifftnd(tf.constant(C5), axes=[-1])),
    ("rfftnd", lambda tf: tf.signal.rfftnd(tf.constant(X7))),
    ("rfftnd-int", lambda tf: tf.signal.rfftnd(tf.constant([1, 2]))),
    ("irfftnd", lambda tf: tf.signal.irfftnd(tf.constant(C5))),
    ("top-level-fftnd", lambda tf: tf.fftnd(tf.constant(C5), [5], [-1])),
    ("top-level-rfftnd", lambda tf: tf.rfftnd(tf.constant(X7), [7], [-1])),
    ("fft-in-function-float32", lambda tf: tf.function(lambda a: tf.signal.fft(a))(tf.constant(X6))),
]

_GRADS: list[tuple[str, Callable[[Any], Any]]] = [
    ("grad-fft", _grad(lambda tf, v: tf.signal.fft(v), C5)),
    ("grad-ifft", _grad(lambda tf, v: tf.signal.ifft(v), C5)),
    ("grad-fft2d", _grad(lambda tf, v: tf.signal.fft2d(v), C128)),
    ("grad-ifft3d", _grad(lambda tf, v: tf.signal.ifft3d(v), C128)),
    ("grad-rfft-even", _grad(lambda tf, v: tf.signal.rfft(v), X6)),
    ("grad-rfft-odd", _grad(lambda tf, v: tf.signal.rfft(v), X7)),
    ("grad-rfft-pad", _grad(lambda tf, v: tf.signal.rfft(v, [9]), X7)),
    ("grad-rfft-crop-error", _grad(lambda tf, v: tf.signal.rfft(v, [4]), X7)),
    ("grad-irfft", _grad(lambda tf, v: tf.signal.irfft(v), C5)),
    ("grad-irfft-odd", _grad(lambda tf, v: tf.signal.irfft(v, [9]), C5)),
    ("grad-rfft2d", _grad(lambda tf, v: tf.signal.rfft2d(v), M34)),
    ("grad-rfft2d-odd", _grad(lambda tf, v: tf.signal.rfft2d(v), M345[0, :, :, :3].astype(np.float32))),
    ("grad-irfft2d", _grad(lambda tf, v: tf.signal.irfft2d(v), C128)),
    ("grad-rfft3d-lookup-error", _grad(lambda tf, v: tf.signal.rfft3d(v), M345)),
    ("grad-stft", _grad(lambda tf, v: tf.signal.stft(v, 8, 4), SIG)),
]

_FUNCTIONS: list[tuple[str, Callable[[Any], Any]]] = [
    ("fn-fft", _fn(lambda tf, a: tf.signal.fft(a), C5)),
    ("fn-rfft-irfft", _fn(lambda tf, a: tf.signal.irfft(tf.signal.rfft(a, [8]), [8]), X7)),
    ("fn-stft", _fn(lambda tf, a: tf.abs(tf.signal.stft(a, 16, 8, pad_end=True)), SIG)),
]

_COMPOSITIONS: list[tuple[str, Callable[[Any], Any], bool]] = [
    ("fftshift", lambda tf: [tf.signal.fftshift(X7), tf.signal.fftshift(X6)], True),
    ("fftshift-axes", lambda tf: [tf.signal.fftshift(M34, axes=1), tf.signal.fftshift(M34, axes=[0, -1])], True),
    ("ifftshift", lambda tf: [tf.signal.ifftshift(X7), tf.signal.ifftshift(M34, axes=(-2,))], True),
    *[(f"hann-{n}-{p}", (lambda n, p: lambda tf: tf.signal.hann_window(n, periodic=p))(n, p), True)
      for n in (0, 1, 2, 7, 16) for p in (True, False)],
    ("hamming-float64", lambda tf: [tf.signal.hamming_window(9, dtype=tf.float64),
                                    tf.signal.hamming_window(10, periodic=False, dtype=tf.float64)], True),
    ("hann-float16", lambda tf: tf.signal.hann_window(8, dtype=tf.float16), True),
    ("hann-int-dtype", lambda tf: tf.signal.hann_window(8, dtype=tf.int32), True),
    ("hann-length-vector", lambda tf: tf.signal.hann_window([8]), True),
    ("vorbis", lambda tf: [tf.signal.vorbis_window(12), tf.signal.vorbis_window(5, dtype=tf.float64)], True),
    ("kaiser", lambda tf: [tf.signal.kaiser_window(9), tf.signal.kaiser_window(8, beta=3.5, dtype=tf.float64),
                           tf.signal.kaiser_window(1)], False),
    ("kaiser-bessel-derived", lambda tf: [tf.signal.kaiser_bessel_derived_window(10),
                                          tf.signal.kaiser_bessel_derived_window(7, beta=5., dtype=tf.float64)], False),
    ("frame", lambda tf: tf.signal.frame(SIG, 8, 3), True),
    ("frame-pad-end", lambda tf: tf.signal.frame(SIG, 16, 6, pad_end=True, pad_value=-1.0), True),
    ("frame-axis", lambda tf: tf.signal.frame(M345, 2, 1, axis=1), True),
    ("frame-int", lambda tf: tf.signal.frame(tf.range(10), 4, 2), True),
    ("frame-too-short", lambda tf: tf.signal.frame(X6, 8, 2), True),
    ("frame-scalar-error", lambda tf: tf.signal.frame(tf.constant(1.0), 2, 1), True),
    ("overlap-and-add", lambda tf: tf.signal.overlap_and_add(M34, 2), True),
    ("overlap-and-add-fast-path", lambda tf: tf.signal.overlap_and_add(M34, 4), True),
    ("overlap-and-add-step3", lambda tf: tf.signal.overlap_and_add(M345, 3), True),
    ("overlap-and-add-float-step", lambda tf: tf.signal.overlap_and_add(M34, 2.0), True),
    ("overlap-and-add-rank1", lambda tf: tf.signal.overlap_and_add(X6, 2), True),
    ("overlap-and-add-step0", lambda tf: tf.signal.overlap_and_add(M34, 0), True),
    ("overlap-and-add-negative-step", lambda tf: tf.signal.overlap_and_add(M34, -1), True),
    ("frame-step0", lambda tf: [tf.signal.frame(X7, 2, 0)], True),
    ("frame-step0-pad-end", lambda tf: [tf.signal.frame(X7, 2, 0, pad_end=True)], True),
    ("frame-edge-lengths", lambda tf: [tf.signal.frame(X7, 0, 1), tf.signal.frame(X7, 2, -1)], True),
    ("frame-negative-length", lambda tf: tf.signal.frame(X7, -2, 1), True),
    ("frame-float-length", lambda tf: tf.signal.frame(X7, 2.0, 1), True),
    ("windows-edge-lengths", lambda tf: [tf.signal.kaiser_bessel_derived_window(1), tf.signal.vorbis_window(0)],
     True),
    ("hann-negative-length", lambda tf: tf.signal.hann_window(-1), True),
    ("kaiser-zero-length", lambda tf: tf.signal.kaiser_window(0), True),
    ("hann-float-length", lambda tf: tf.signal.hann_window(2.5), True),
    ("stft", lambda tf: tf.signal.stft(SIG, 12, 5), True),
    ("stft-fft-length", lambda tf: tf.signal.stft(SIG, 8, 4, fft_length=16, window_fn=None), True),
    ("stft-float64-pad-end", lambda tf: tf.signal.stft(SIG.astype(np.float64), 10, 4, pad_end=True,
                                                       window_fn=tf.signal.hamming_window), True),
    ("inverse-stft", lambda tf: tf.signal.inverse_stft(tf.signal.stft(SIG, 16, 4), 16, 4,
                                                       window_fn=tf.signal.inverse_stft_window_fn(4)), True),
    ("inverse-stft-short-fft", lambda tf: tf.signal.inverse_stft(tf.signal.stft(SIG, 12, 6), 12, 6, fft_length=8),
     True),
    ("inverse-stft-window-fn", lambda tf: [tf.signal.inverse_stft_window_fn(3)(8, tf.float32),
                                           tf.signal.inverse_stft_window_fn(
                                               2, tf.signal.vorbis_window)(6, tf.float64)], True),
]

_DCT: list[tuple[str, Callable[[Any], Any]]] = [
    *[(f"dct-type{k}", (lambda k: lambda tf: [tf.signal.dct(X7, type=k), tf.signal.dct(X64, type=k)])(k))
      for k in (1, 2, 3, 4)],
    *[(f"dct-type{k}-ortho", (lambda k: lambda tf: tf.signal.dct(X64, type=k, norm="ortho"))(k)) for k in (2, 3, 4)],
    ("dct-n-crop-pad", lambda tf: [tf.signal.dct(X7, n=4), tf.signal.dct(X7, n=10, type=3)]),
    *[(f"idct-type{k}", (lambda k: lambda tf: tf.signal.idct(tf.signal.dct(X64, type=k), type=k))(k))
      for k in (1, 2, 3, 4)],
    ("idct-ortho-roundtrip", lambda tf: tf.signal.idct(tf.signal.dct(X7, norm="ortho"), norm="ortho")),
    ("dct-type1-ortho-error", lambda tf: tf.signal.dct(X7, type=1, norm="ortho")),
    ("dct-type1-short-error", lambda tf: tf.signal.dct(X7[:, :1], type=1)),
    ("dct-type5-error", lambda tf: tf.signal.dct(X7, type=5)),
    ("dct-axis-error", lambda tf: tf.signal.dct(X7, axis=0)),
    ("dct-n-zero-error", lambda tf: tf.signal.dct(X7, n=0)),
    ("dct-norm-error", lambda tf: tf.signal.dct(X7, norm="forward")),
    ("dct-int-error", lambda tf: tf.signal.dct(tf.constant([1, 2, 3]))),
    ("mdct", lambda tf: tf.signal.mdct(SIG, 8)),
    ("mdct-ortho-no-window", lambda tf: tf.signal.mdct(SIG, 12, window_fn=None, norm="ortho", pad_end=True)),
    ("mdct-bad-length", lambda tf: tf.signal.mdct(SIG, 10)),
    ("inverse-mdct", lambda tf: tf.signal.inverse_mdct(tf.signal.mdct(SIG, 8))),
    ("inverse-mdct-ortho", lambda tf: tf.signal.inverse_mdct(tf.signal.mdct(SIG, 16, norm="ortho"), norm="ortho")),
    ("mel-matrix-default", lambda tf: tf.signal.linear_to_mel_weight_matrix()),
    ("mel-matrix-float64", lambda tf: tf.signal.linear_to_mel_weight_matrix(8, 33, 16000, 20.0, 7000.0, tf.float64)),
    ("mel-matrix-errors", lambda tf: tf.signal.linear_to_mel_weight_matrix(8, 33, 8000, 20.0, 5000.0)),
    ("mel-matrix-int-dtype", lambda tf: tf.signal.linear_to_mel_weight_matrix(dtype=tf.int32)),
    ("mfccs", lambda tf: tf.signal.mfccs_from_log_mel_spectrograms(tf.math.log(tf.abs(tf.matmul(
        tf.abs(tf.signal.stft(SIG, 16, 8)), tf.signal.linear_to_mel_weight_matrix(6, 9, 8000, 100.0, 3000.0))) + 1e-3))),
    ("grad-dct2", _grad(lambda tf, v: tf.signal.dct(v), X64)),
    ("grad-mdct", _grad(lambda tf, v: tf.signal.mdct(v, 8), SIG)),
]

# gradients whose composition holds more than the transforms (a complex exp, a matmul, a sum of float32 terms)
_INEXACT = {"grad-rfft2d-odd"}

# --- comparison -------------------------------------------------------------------------------------------
_RTOL = {"complex64": 4e-6, "float32": 4e-6, "complex128": 8e-15, "float64": 8e-15}


def _parts(a: np.ndarray) -> list[np.ndarray]:
    return [a.real.copy(), a.imag.copy()] if a.dtype.kind == "c" else [a]


def _bits(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Bit for bit, real and imaginary parts each (any NaN matches any NaN)."""
    out = np.ones(got.size, bool)
    for g, w in zip(_parts(got.reshape(-1)), _parts(want.reshape(-1))):
        out &= np.asarray(edge_compare.bits_agree(g, w), bool).reshape(-1)
    return out.reshape(got.shape)


def _close(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Within _RTOL of the output's largest finite magnitude (parts each; NaN with NaN)."""
    tol = _RTOL.get(want.dtype.name)
    if tol is None:
        return _bits(got, want)
    out = np.ones(got.shape, bool)
    scale = max(1.0, float(np.max(np.abs(want[np.isfinite(want)]), initial=0.0)))
    for g, w in zip(_parts(got), _parts(want)):
        x, y = np.asarray(g, np.float64), np.asarray(w, np.float64)
        with np.errstate(invalid="ignore"):
            out &= (np.isfinite(y) & np.isfinite(x) & (np.abs(x - y) <= tol * scale)) | (np.isnan(x) & np.isnan(y))
    return out


CASES: list[tuple[str, str, Callable[[Any], Any], bool]] = [
    *[(n, "fft", f, True) for n, f in _FFT],
    *[(n, "errors", f, True) for n, f in _ERRORS],
    *[(n, "gradients", f, n not in _INEXACT) for n, f in _GRADS],
    *[(n, "functions", f, True) for n, f in _FUNCTIONS],
    *[(n, "compositions", f, exact) for n, f, exact in _COMPOSITIONS],
    *[(n, "dct", f, not (n.startswith(("dct-type", "dct-n", "idct", "mdct", "inverse-mdct", "grad-"))
                          or n == "mfccs")) for n, f in _DCT],
]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _bits if case[3] else _close)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.signal-fft")
@EDGES.parametrize("fft")
def test_signal_transforms(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.signal-fft")
@EDGES.parametrize("errors")
def test_signal_errors(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.signal-fft")
@EDGES.parametrize("gradients")
def test_signal_gradients(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.signal-fft")
@EDGES.parametrize("functions")
def test_signal_inside_function(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.signal-compositions")
@EDGES.parametrize("compositions")
def test_signal_compositions(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.signal-compositions")
@EDGES.parametrize("dct")
def test_signal_dct_and_mel(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_group_is_tested() -> None:
    assert EDGES.untested() == [], f"groups with no test function: {EDGES.untested()}"


if __name__ == "__main__":  # TF worker: python test_signal_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
