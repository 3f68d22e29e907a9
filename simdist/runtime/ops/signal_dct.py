"""tf.signal's DCT family and mel features, composed of the ops TF's Python composes them of
(python/ops/signal/{dct_ops,spectral_ops,mel_ops,mfcc_ops}.py): dct/idct (types I-IV over the
last axis through RFFT/IRFFT of twice the length), mdct/inverse_mdct (a DCT-IV of the folded
windowed frames), linear_to_mel_weight_matrix and mfccs_from_log_mel_spectrograms. Clause
ops.signal-compositions.
"""

from __future__ import annotations

import math as _pymath
from typing import Any, Callable

from simdist.runtime import context, dtypes
from simdist.runtime.ops import fft as _fft
from simdist.runtime.ops.args import raw_attribute
from simdist.runtime.ops.signal_ops import frame, overlap_and_add, vorbis_window
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["dct", "idct", "mdct", "inverse_mdct", "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms"]


def _ops() -> Any:
    from simdist.runtime import ops
    return ops


def _t(x: Any) -> Tensor:
    return x if isinstance(x, Tensor) else convert_to_tensor(x)


def _validate(x: Any, dct_type: Any, n: Any, axis: Any, norm: Any) -> None:
    """dct_ops._validate_dct_arguments."""
    if axis != -1:
        # (TF's %-formatting: a tuple axis of two is Python's TypeError "not all arguments
        # converted during string formatting"; fz28b, fz14 seed 1420282802 #147)
        raise NotImplementedError("axis must be -1. Got: %s" % axis)  # noqa: UP031 - TF's own formatting
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        shape = getattr(x, "shape", None)
        last = shape[-1] if shape is not None and len(shape) else None
        if last is not None and int(last) < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _dct_internal(x: Any, dct_type: int, n: Any, norm: Any) -> Tensor:
    from simdist.runtime.ops.complex_math import complex_, real
    ops = _ops()
    t = _t(x)
    zero = convert_to_tensor(0.0, dtype=t.dtype)
    seq_len = t.shape.as_list()[-1]
    if n is not None:
        if n <= seq_len:
            t = t[..., 0:n]
        else:
            t = ops.pad(t, [[0, 0]] * (t.ndim - 1) + [[0, n - seq_len]])
    dim = t.shape.as_list()[-1]
    dim_f = ops.cast(dim, t.dtype)
    if dct_type == 1:
        return real(_fft.rfft(ops.concat([t, t[..., -2:0:-1]], axis=-1)))
    if dct_type == 2:
        scale = 2.0 * ops.exp(complex_(zero, -ops.range_(dim_f) * _pymath.pi * 0.5 / dim_f))
        out = real(_fft.rfft(t, fft_length=[2 * dim])[..., :dim] * scale)
        if norm == "ortho":
            n1 = 0.5 * ops.rsqrt(dim_f)
            n2 = n1 * _pymath.sqrt(2.0)
            out = out * ops.pad(ops.expand_dims(n1, 0), [[0, dim - 1]], constant_values=n2)
        return out
    if dct_type == 3:
        if norm == "ortho":
            n1 = ops.sqrt(dim_f)
            n2 = n1 * _pymath.sqrt(0.5)
            t = t * ops.pad(ops.expand_dims(n1, 0), [[0, dim - 1]], constant_values=n2)
        else:
            t = t * dim_f
        scale = 2.0 * ops.exp(complex_(zero, ops.range_(dim_f) * _pymath.pi * 0.5 / dim_f))
        return real(_fft.irfft(scale * complex_(t, zero), fft_length=[2 * dim]))[..., :dim]
    out = _dct_internal(t, 2, 2 * dim, None)[..., 1::2]
    if norm == "ortho":
        out = out * (_pymath.sqrt(0.5) * ops.rsqrt(dim_f))
    return out


def dct(input: Any, type: int = 2, n: Any = None, axis: int = -1, norm: Any = None,  # noqa: A002
        name: str | None = None) -> Tensor:
    """`tf.signal.dct`: DCT types I-IV over the last axis (float32/float64), optionally orthonormal."""
    _validate(input, type, n, axis, norm)
    return _dct_internal(input, type, n, norm)


def idct(input: Any, type: int = 2, n: Any = None, axis: int = -1, norm: Any = None,  # noqa: A002
         name: str | None = None) -> Tensor:
    """`tf.signal.idct`: the DCT of the inverse type (I↔I, II↔III, IV↔IV), unscaled unless orthonormal."""
    _validate(input, type, n, axis, norm)
    return _dct_internal(input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


def mdct(signals: Any, frame_length: Any, window_fn: Callable[..., Any] | None = vorbis_window,
         pad_end: bool = False, norm: Any = None, name: str | None = None) -> Tensor:
    """`tf.signal.mdct`: frames of frame_length (a multiple of 4) every half frame, windowed, folded, DCT-IV."""
    ops = _ops()
    sig = _t(signals)
    if sig.ndim < 1:
        raise ValueError(f"Shape {sig.shape} must have rank at least 1")
    fl = _t(frame_length)
    if fl.ndim != 0:
        raise ValueError(f"Shape {fl.shape} must have rank 0")
    flen = int(fl._v)
    if flen % 4 != 0:
        raise ValueError("The frame length must be a multiple of 4.")
    framed = frame(sig, fl, convert_to_tensor(flen // 2, dtype=fl.dtype), pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(fl, dtype=framed.dtype)
    else:
        framed = framed * (1.0 / _pymath.sqrt(2))
    q = ops.split(framed, 4, axis=-1)
    first = -ops.reverse(q[2], [-1]) - q[3]
    second = q[0] - ops.reverse(q[1], [-1])
    return dct(ops.concat((first, second), axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts: Any, window_fn: Callable[..., Any] | None = vorbis_window, norm: Any = None,
                 name: str | None = None) -> Tensor:
    """`tf.signal.inverse_mdct`: DCT-IV of each frame, unfolded, windowed, overlap-added every half frame."""
    ops = _ops()
    z = _t(mdcts)
    if z.ndim < 2:
        raise ValueError(f"Shape {z.shape} must have rank at least 2")
    half = z.shape.as_list()[-1]
    if norm is None:
        half_f = ops.cast(convert_to_tensor(half, dtype=dtypes.int32), z.dtype)
        res = (0.5 / half_f) * dct(z, type=4)
    elif norm == "ortho":
        res = dct(z, type=4, norm="ortho")
    else:
        # spectral_ops.inverse_mdct has no else branch: any other norm leaves its result unbound (fz23b)
        raise UnboundLocalError("cannot access local variable 'result_idct4' where it is not associated with a value")
    a, b = ops.split(res, 2, axis=-1)
    frames = ops.concat((b, -ops.reverse(b, [-1]), -ops.reverse(a, [-1]), -a), axis=-1)
    if window_fn is not None:
        frames = frames * window_fn(convert_to_tensor(2 * half, dtype=dtypes.int32), dtype=z.dtype)
    else:
        frames = frames * (1.0 / _pymath.sqrt(2))
    return overlap_and_add(frames, half)


def _hertz_to_mel(f: Tensor) -> Tensor:
    ops = _ops()
    return 1127.0 * ops.log(1.0 + (f / 700.0))


def linear_to_mel_weight_matrix(num_mel_bins: int = 20, num_spectrogram_bins: int = 129, sample_rate: Any = 8000,
                                lower_edge_hertz: float = 125.0, upper_edge_hertz: float = 3800.0,
                                dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """`tf.signal.linear_to_mel_weight_matrix`: [num_spectrogram_bins, num_mel_bins] triangular mel filters."""
    ops = _ops()
    from simdist.runtime import symbolic
    from simdist.runtime.ops import graph_constants
    # (mel_ops: a tensor sample_rate is replaced by tensor_util.constant_value when it has one, a graph's
    # argument stays a tensor and skips the two checks on it; _validate_arguments takes the truth of each
    # comparison, which for a tensor operand inside a tf.function is OperatorNotAllowedInGraphError:
    # `upper_edge_hertz=tf.constant(0.5)` traced; fz32b, fz14 seed 1420323002 #24)
    if isinstance(sample_rate, Tensor) and (not context.in_function() or graph_constants.python_constant(sample_rate)):
        sample_rate = sample_rate._v.item()
    if symbolic.truth_taken(num_mel_bins <= 0):
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if symbolic.truth_taken(lower_edge_hertz < 0.0):
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if symbolic.truth_taken(lower_edge_hertz >= upper_edge_hertz):
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" % (lower_edge_hertz, upper_edge_hertz))
    if not isinstance(sample_rate, Tensor):
        if symbolic.truth_taken(sample_rate <= 0.0):
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if symbolic.truth_taken(upper_edge_hertz > sample_rate / 2):
            raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency (sample_rate / 2). Got "
                             f"{upper_edge_hertz} for sample_rate: {sample_rate}")
    if not raw_attribute(dtype, "is_floating"):     # (mel_ops._validate_arguments: `dtype` as given)
        raise ValueError(f"dtype must be a floating point type. Got: {dtype}")
    dt = dtypes.as_dtype(dtype)
    rate = ops.cast(sample_rate, dt)
    lower = convert_to_tensor(lower_edge_hertz, dtype=dt)
    upper = convert_to_tensor(upper_edge_hertz, dtype=dt)
    zero = convert_to_tensor(0.0, dtype=dt)
    linear = ops.linspace(zero, rate / 2.0, num_spectrogram_bins)[1:]
    bins_mel = ops.expand_dims(_hertz_to_mel(linear), 1)
    edges = frame(ops.linspace(_hertz_to_mel(lower), _hertz_to_mel(upper), num_mel_bins + 2), frame_length=3,
                  frame_step=1)
    lo, center, hi = (ops.reshape(t, [1, num_mel_bins]) for t in ops.split(edges, 3, axis=1))
    lower_slopes = (bins_mel - lo) / (center - lo)
    upper_slopes = (hi - bins_mel) / (hi - center)
    weights = ops.maximum(zero, ops.minimum(lower_slopes, upper_slopes))
    return ops.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms: Any, name: str | None = None) -> Tensor:
    """`tf.signal.mfccs_from_log_mel_spectrograms`: DCT-II of the log-mel bins scaled by rsqrt(2·bins)."""
    ops = _ops()
    x = _t(log_mel_spectrograms)
    from simdist.runtime.ops.static_shapes import static_shape
    known = static_shape(x)   # (the graph's shape: a scalar or an unknown last dimension reads shape(x)[-1],
    if known.ndims and known[-1] is not None:   # a StridedSlice, so a scalar is its error)
        bins: Any = known[-1]
        if bins == 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {x}")
    else:
        bins = ops.shape(x)[-1]
    d2 = dct(x, type=2)
    return d2 * ops.rsqrt(ops.cast(bins, d2.dtype) * 2.0)
