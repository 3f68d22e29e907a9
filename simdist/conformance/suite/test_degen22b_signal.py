"""Degeneracy audit 22 (area degen22b): tf.signal off its degenerate points (TF 2.21).

The suite framed signals whose length the step divides (or without pad_end), overlapped frames
whose length the step divides, and took DCTs of even lengths: there ceil and floor of the frame
count agree, the padding is zero, and an even-only formula passes. Here the lengths are odd and the
steps do not divide them, along the last axis and another one. Expected values are NumPy
transcriptions of shape_ops.frame (pad_end: ceil(len / step) frames over the signal padded with
pad_value to (frames - 1) step + length; otherwise 1 + (len - length) // step frames),
reconstruction_ops.overlap_and_add ((frames - 1) step + length samples, the sum of the frames
laid at multiples of the step) and the DCT definitions of dct_ops.py (types I-IV, norm "ortho").
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import assert_close, assert_equal
from simdist.conformance.tolerances import Tolerance

clause = pytest.mark.clause
TOL = Tolerance(rtol=2e-5, atol=2e-5)


def _np(x):
    return np.asarray(x.numpy() if hasattr(x, "numpy") else x)


def frame_ref(sig: np.ndarray, length: int, step: int, pad_end: bool, pad_value: float, axis: int) -> np.ndarray:
    s = np.moveaxis(sig, axis, -1)
    n = s.shape[-1]
    if pad_end:
        frames = -(-n // step)
        total = max(length + step * (frames - 1), n)
        s = np.concatenate([s, np.full(s.shape[:-1] + (total - n,), pad_value, s.dtype)], -1)
    else:
        frames = max(0, 1 + (n - length) // step)
    out = np.stack([s[..., i * step: i * step + length] for i in range(frames)], -2) if frames else \
        np.zeros(s.shape[:-1] + (0, length), s.dtype)
    # [..., frames, length] back to the signal's axis: frames at `axis`, length after it
    ax = axis % sig.ndim
    return np.moveaxis(out, (-2, -1), (ax, ax + 1))


def overlap_ref(frames: np.ndarray, step: int) -> np.ndarray:
    nf, length = frames.shape[-2:]
    out = np.zeros(frames.shape[:-2] + ((nf - 1) * step + length,), np.float64)
    for i in range(nf):
        out[..., i * step: i * step + length] += frames[..., i, :]
    return out


#: (signal length, frame_length, frame_step): odd lengths, steps that do not divide them
FRAMES = [(11, 4, 3), (7, 3, 2), (10, 4, 3), (9, 5, 5), (5, 6, 2)]


@clause("ops.signal-compositions", ref="tf221")
def test_degen22b_signal_frames_of_odd_lengths(tf, budget):
    """tf.signal.frame with and without pad_end (pad_value 0 and -1) on signals whose length the step
    does not divide, along the last axis and along axis 0 of a 2-D signal; overlap_and_add of the
    frames back with that step."""
    for n, length, step in budget(FRAMES):
        sig = np.arange(1, n + 1, dtype=np.float32)
        two = np.stack([sig, -sig], 1)                         # [n, 2]: frames along axis 0
        for pad_end, pad_value in ((True, 0.0), (True, -1.0), (False, 0.0)):
            for x, axis in ((sig, -1), (two, 0)):
                call = (f"tf.signal.frame(x{list(x.shape)}, {length}, {step}, pad_end={pad_end}, "
                        f"pad_value={pad_value}, axis={axis})")
                want = frame_ref(x, length, step, pad_end, pad_value, axis)
                got = _np(tf.signal.frame(x, length, step, pad_end=pad_end, pad_value=pad_value, axis=axis))
                assert_equal(got.shape, want.shape, call=call, what="shape")
                assert_equal(got, want, call=call)
        framed = frame_ref(sig, length, step, True, 0.0, -1)
        if framed.shape[0]:
            call = f"tf.signal.overlap_and_add(frames{list(framed.shape)}, {step})"
            got = _np(tf.signal.overlap_and_add(framed, step))
            assert_equal(got.shape, overlap_ref(framed, step).shape, call=call, what="shape")
            assert_close(got, overlap_ref(framed, step), call=call, tolerance=TOL)


def dct_ref(x: np.ndarray, kind: int, norm: str | None) -> np.ndarray:
    """dct_ops.py's DCT-I..IV of the last axis (scipy's definitions), with norm "ortho"."""
    n = x.shape[-1]
    i = np.arange(n)
    k = i[:, None]
    if kind == 1:
        c = 2 * np.cos(np.pi * k * i[None, :] / (n - 1))
        c[:, 0] /= 2
        c[:, -1] /= 2
        return x @ c.T
    if kind == 2:
        y = x @ (2 * np.cos(np.pi * k * (2 * i[None, :] + 1) / (2 * n))).T
        if norm == "ortho":
            y = y * np.where(i == 0, np.sqrt(1 / (4 * n)), np.sqrt(1 / (2 * n)))
        return y
    if kind == 3:
        c = 2 * np.cos(np.pi * i[None, :] * (2 * k + 1) / (2 * n))
        if norm == "ortho":
            c = c * np.where(i == 0, np.sqrt(1 / (4 * n)), np.sqrt(1 / (2 * n)))[None, :]
        else:
            c[:, 0] /= 2
        return x @ c.T
    y = x @ (2 * np.cos(np.pi * (2 * k + 1) * (2 * i[None, :] + 1) / (4 * n))).T
    return y * np.sqrt(1 / (2 * n)) if norm == "ortho" else y


@clause("ops.signal-compositions", ref="tf221")
def test_degen22b_signal_dct_types_at_odd_lengths(tf, budget):
    """tf.signal.dct types I-IV (norm None and "ortho" where TF allows it) and idct (the inverse
    type; with "ortho" its own inverse) on rows of odd length 5 and 7, and with n truncating or
    zero-padding the last axis to an odd length."""
    x7 = ((np.arange(2 * 7) * 5 % 9) - 4).astype(np.float64).reshape(2, 7) / 3
    cases = [(x7[:, :5], None), (x7, None), (x7, 5), (x7[:, :5], 7)]
    for x, n in budget(cases):
        xn = x if n is None else (x[:, :n] if n <= x.shape[-1] else np.pad(x, ((0, 0), (0, n - x.shape[-1]))))
        for kind in (1, 2, 3, 4):
            for norm in ((None,) if kind == 1 else (None, "ortho")):
                call = f"tf.signal.dct(x{list(x.shape)}, type={kind}, n={n}, norm={norm!r})"
                got = _np(tf.signal.dct(tf.constant(x), type=kind, n=n, norm=norm))
                assert_close(got, dct_ref(xn, kind, norm), call=call, tolerance=TOL)
                if norm == "ortho":
                    back = _np(tf.signal.idct(tf.constant(got), type=kind, norm="ortho"))
                    assert_close(back, xn, call=f"idct(dct(x, type={kind}, norm='ortho'), type={kind}, "
                                 "norm='ortho')", tolerance=TOL)


@clause("ops.signal-compositions", ref="tf221")
def test_degen22b_signal_stft_of_odd_frames(tf, budget):
    """tf.signal.stft with an odd frame_length (the default periodic hann window extends even lengths
    only: 0.5 - 0.5 cos(2 pi n / (L - 1 + periodic * even(L)))), a step that does not divide the
    signal, pad_end both ways, fft_length the next power of 2 and given (odd): the rfft of each windowed
    frame, zero-padded to fft_length."""
    sig = (np.arange(13) * 5 % 11 - 5).astype(np.float32)
    for length, step, fft_length in budget([(5, 3, None), (7, 2, 9), (4, 3, None)]):
        n = np.arange(length)
        win = 0.5 - 0.5 * np.cos(2 * np.pi * n / (length - 1 + (1 - length % 2)))
        nfft = fft_length or 1 << (length - 1).bit_length()
        for pad_end in (True, False):
            frames = frame_ref(sig.astype(np.float64), length, step, pad_end, 0.0, -1)
            want = np.fft.rfft(frames * win, nfft)
            call = f"tf.signal.stft(x[13], {length}, {step}, fft_length={fft_length}, pad_end={pad_end})"
            got = _np(tf.signal.stft(sig, length, step, fft_length=fft_length, pad_end=pad_end))
            assert_equal(got.shape, want.shape, call=call, what="shape")
            assert_close(np.stack([got.real, got.imag]).astype(np.float64), np.stack([want.real, want.imag]),
                         call=call, what="[real, imag]", tolerance=Tolerance(rtol=1e-5, atol=1e-4))
