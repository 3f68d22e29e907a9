"""tf.signal's Python functions, composed of the ops TF's own Python composes them of
(python/ops/signal/{fft_ops,window_ops,shape_ops,reconstruction_ops,spectral_ops}.py), so that
their values, dtypes and gradients follow from those ops: fftshift/ifftshift (Roll), the
hann/hamming/vorbis/kaiser/kaiser-bessel-derived windows, frame (a gather of sub-frames),
overlap_and_add, stft, inverse_stft and inverse_stft_window_fn. Clause ops.signal-compositions.

simdist runs a tf.function's Python with concrete values, so the static branches of TF's code
(window_length known, frame_length known) are the ones taken.
"""

from __future__ import annotations

import math as _pymath
from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, symbolic
from simdist.runtime.ops import fft as _fft
from simdist.runtime.ops import partial_values
from simdist.runtime.ops.args import raw_attribute
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["fftshift", "ifftshift", "hann_window", "hamming_window", "vorbis_window", "kaiser_window",
           "kaiser_bessel_derived_window", "frame", "overlap_and_add", "stft", "inverse_stft",
           "inverse_stft_window_fn"]


def _ops() -> Any:
    from simdist.runtime import ops
    return ops


def _scalar_int(value: Any, what: str, dtype: Any = None) -> Tensor:
    """value as a scalar tensor (TF's convert_to_tensor + shape.assert_has_rank(0)); a tensor of another
    dtype than a `dtype` asked is convert_to_tensor's ValueError (window_ops' int32 window_length of an
    int64 frame_length in stft; fz40, fourteenth generator seed 1420403003 #108)."""
    if isinstance(value, Tensor) and (dtype is None or value.dtype == dtype):
        t = value
    else:
        t = convert_to_tensor(value, dtype=dtype, name=what)
    if t.ndim != 0:
        raise ValueError(f"Shape {t.shape} must have rank 0")
    return t


def _int(t: Tensor) -> int:
    return int(np.asarray(t._v))


# --- fftshift --------------------------------------------------------------------------------------
def _radd(value: Any, t: Tensor) -> Tensor:
    """`value + t` for a Python value, as Python evaluates it: Tensor.__radd__."""
    return value + t


def _shift(x: Any, axes: Any, sign: int) -> Tensor:
    from simdist.runtime.ops.array_more import roll
    ops = _ops()
    t = x if isinstance(x, Tensor) else convert_to_tensor(x)
    if axes is None:
        # (fft_ops: `tuple(range(x.shape.ndims))`: an unknown rank in a graph is range(None)'s TypeError;
        # fz32b, fz14_known's fftshift class, seed 1420261202 #581)
        from simdist.runtime.ops import static_shapes
        axes = tuple(range(None if static_shapes.rank_unknown(t) else t.ndim))   # type: ignore[arg-type]
        shift = ops.floordiv(ops.shape(t), 2)
    elif isinstance(axes, int):
        shift = ops.floordiv(ops.shape(t)[axes], 2)
    else:
        rank = ops.rank(t)
        # (fft_ops: `where(less(axes, 0), axes + rank, axes)` on axes as given: a list converts
        # beside the int32 rank, so axes=[] is an empty int32 vector, not float32; fz14 seed
        # 1420262401 #193)
        plus = convert_to_tensor(axes) + rank if isinstance(axes, Tensor) else _radd(axes, rank)
        axes = ops.where(ops.less(axes, 0), plus, axes)
        shift = ops.floordiv(ops.gather(ops.shape(t), axes), 2)
    if sign < 0:
        shift = ops.negative(shift)
    return roll(t, shift, axes)


def fftshift(x: Any, axes: Any = None, name: str | None = None) -> Tensor:
    """`tf.signal.fftshift`: roll every listed axis (default all) by half its length."""
    return _shift(x, axes, 1)


def ifftshift(x: Any, axes: Any = None, name: str | None = None) -> Tensor:
    """`tf.signal.ifftshift`: the inverse roll (differs from fftshift by one for odd lengths)."""
    return _shift(x, axes, -1)


# --- windows ----------------------------------------------------------------------------------------
def _check_params(window_length: Any, dtype: Any) -> tuple[Tensor, dtypes.DType]:
    if not raw_attribute(dtype, "is_floating"):     # (window_ops._check_params: `dtype` as given)
        raise ValueError(f"dtype must be a floating point type. Found {dtype}")
    dt = dtypes.as_dtype(dtype)
    return _scalar_int(window_length, "window_length", dtypes.int32), dt


def _raised_cosine(window_length: Any, periodic: Any, dtype: Any, a: float, b: float) -> Tensor:
    ops = _ops()
    wl, dt = _check_params(window_length, dtype)
    if _int(wl) == 1:
        return ops.ones([1], dtype=dt)
    per = ops.cast(periodic if isinstance(periodic, Tensor) else convert_to_tensor(periodic, dtype=dtypes.bool_),
                   dtypes.int32)
    if per.ndim != 0:
        raise ValueError(f"Shape {per.shape} must have rank 0")
    even = 1 - ops.floormod(wl, 2)
    n = ops.cast(wl + per * even - 1, dt)
    count = ops.cast(ops.range_(wl), dt)
    cos_arg = convert_to_tensor(2 * np.pi, dtype=dt) * count / n
    return ops.cast(a - b * ops.cos(cos_arg), dt)


def hann_window(window_length: Any, periodic: Any = True, dtype: Any = dtypes.float32,
                name: str | None = None) -> Tensor:
    """`tf.signal.hann_window`: 0.5 - 0.5·cos(2πn/N) (N = length, or length - 1 unless periodic)."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length: Any, periodic: Any = True, dtype: Any = dtypes.float32,
                   name: str | None = None) -> Tensor:
    """`tf.signal.hamming_window`: 0.54 - 0.46·cos(2πn/N)."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def vorbis_window(window_length: Any, dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """`tf.signal.vorbis_window`: sin(π/2 · sin²(π/N · (n + 0.5)))."""
    ops = _ops()
    wl, dt = _check_params(window_length, dtype)
    arg = ops.cast(ops.range_(wl), dt)
    inner = ops.sin(np.pi / ops.cast(wl, dt) * (arg + 0.5))
    return ops.sin(np.pi / 2.0 * ops.pow_(inner, 2.0))


def kaiser_window(window_length: Any, beta: Any = 12., dtype: Any = dtypes.float32, name: str | None = None) -> Tensor:
    """`tf.signal.kaiser_window`: exp(num - β)·i0e(num)/i0e(β), num = β·sqrt(relu(1 - (n/h)²))."""
    from simdist.runtime.ops.activations import relu
    from simdist.runtime.ops.special_more import bessel_i0e
    ops = _ops()
    wl, dt = _check_params(window_length, dtype)
    from simdist.runtime.ops.array_more import get_static_value
    known = get_static_value(wl)
    if known is not None and int(np.asarray(known)) == 1:
        return ops.ones([1], dtype=dt)
    half = (ops.cast(wl, dtypes.float32) - 1.0) / 2.0
    arg = ops.range_(-half, half + 0.1, dtype=dtypes.float32)
    arg = ops.cast(arg, dt)
    b = ops.cast(beta, dt)
    one = ops.cast(1.0, dt)
    half = ops.cast(half, dt)
    num = b * ops.sqrt(relu(one - ops.square(arg / half)))
    return ops.exp(num - b) * (bessel_i0e(num) / bessel_i0e(b))


def kaiser_bessel_derived_window(window_length: Any, beta: Any = 12., dtype: Any = dtypes.float32,
                                 name: str | None = None) -> Tensor:
    """`tf.signal.kaiser_bessel_derived_window`: sqrt of the Kaiser window's normalised cumulative sum, mirrored."""
    ops = _ops()
    wl, dt = _check_params(window_length, dtype)
    halflen = ops.floordiv(wl, 2)
    kw = kaiser_window(halflen + 1, beta, dtype=dt)
    csum = ops.cumsum(kw)
    halfw = ops.sqrt(csum[:-1] / csum[-1])
    return ops.concat((halfw, halfw[::-1]), axis=0)


# --- frame and overlap_and_add ---------------------------------------------------------------------
def _frame_shape(a: dict) -> list[int | None] | None:
    """shape_ops._infer_frame_shape in a traced graph: the frame length where the graph knows it, the number of
    frames where it knows the axis's dimension, the step and (without pad_end) the length; the other dimensions
    the signal's. `frame(x, n, 2)` of a placeholder n: [?, ?] (clause function.static-shapes)."""
    from simdist.runtime.ops import partial_values, static_shapes

    def const(v: Any) -> int | None:
        return partial_values.scalar_of(v) if isinstance(v, Tensor) else int(v)
    shape = static_shapes.known_shape(a["signal"])
    if shape is None:
        return None
    length, step, axis = const(a["frame_length"]), const(a["frame_step"]), const(a["axis"])
    if axis is None:
        return [None] * (len(shape) + 1)
    axis %= max(len(shape), 1)
    dim, num = shape[axis], None
    if dim is not None and step is not None and a["pad_end"]:
        num = max(0, -(-dim // step))
    elif dim is not None and step is not None and length is not None:
        num = max(0, (dim - length + step) // step)
    return shape[:axis] + [num, length] + shape[axis + 1:]


@partial_values.shaped("frame_length", "frame_step", "axis", rule=_frame_shape)
def frame(signal: Any, frame_length: Any, frame_step: Any, pad_end: bool = False, pad_value: Any = 0,
          axis: Any = -1, name: str | None = None) -> Tensor:
    """`tf.signal.frame`: frames of `frame_length` every `frame_step` samples along `axis`, as
    TF's shape_ops.frame gathers them (sub-frames of gcd(length, step) samples)."""
    ops = _ops()
    sig = signal if isinstance(signal, Tensor) else convert_to_tensor(signal)
    fl = _scalar_int(frame_length, "frame_length")
    fs = _scalar_int(frame_step, "frame_step")
    ax = _scalar_int(axis, "axis")
    if sig.ndim < 1:
        raise ValueError(f"Shape {sig.shape} must have rank at least 1")
    shape = list(sig.shape.as_list())
    a = range(len(shape))[_int(ax)]
    outer, length, inner = shape[:a], shape[a], shape[a + 1:]
    flen, fstep = _int(fl), _int(fs)
    from simdist.runtime.ops.args import dtype_error

    def by_zero() -> Tensor:
        # (TF's num_frames divides by the frame_step tensor, after pad_end's conversion of pad_value and the
        # dtypes of the division: FloorDiv's "Integer division by zero", a kernel's run-time error: in a graph the
        # ops after it are built first, stft's float check of a bool signal and its fft_length's rank come at
        # trace; the dry runs go on with zero frames of the frame length; fz41, fz14 seed 1420413002 #269)
        from simdist.runtime import errors
        from simdist.runtime.ops import dispatch
        return dispatch.refused(errors.InvalidArgumentError(None, None, "Integer division by zero [Op:FloorDiv]"),
                                sig.dtype, outer + [0, flen] + inner, pruned=True)
    pad_end = symbolic.flag(pad_end)   # (shape_ops.frame's `if pad_end:`; a graph tensor: OperatorNotAllowedInGraphError; fz65)
    if pad_end:
        pv = pad_value if isinstance(pad_value, Tensor) else convert_to_tensor(pad_value, dtype=sig.dtype)
        if pv.ndim != 0:
            raise ValueError(f"Shape {pv.shape} must have rank 0")
        if fs.dtype.is_unsigned and length > 0:   # (`-(-length_samples // frame_step)`: -length in frame_step's dtype)
            raise OverflowError(f"Python integer {-length} out of bounds for {fs.dtype.name}")
        if fstep == 0:
            return by_zero()
        if fl.dtype != fs.dtype:   # (`frame_length + frame_step * (num_frames - 1)`: AddV2 of the two dtypes)
            raise dtype_error("AddV2", 1, fl.dtype, fs.dtype)
        num_frames = -(-length // fstep)
        pad_samples = max(0, flen + fstep * (num_frames - 1) - length)
        paddings = [[0, 0]] * len(outer) + [[0, pad_samples]] + [[0, 0]] * len(inner)
        # (of pad_samples' dtype, frame_length's: PadV2's Tpaddings refuses int16 and the other integers)
        sig = ops.pad(sig, convert_to_tensor(paddings, dtype=fl.dtype), constant_values=pv)
        length = sig.shape.as_list()[a]
    else:
        if fl.dtype.is_bool:   # (num_frames' `constant(0, dtype=frame_length.dtype)` first: fz43b, fz43_gen 43001)
            convert_to_tensor(0, dtype=fl.dtype)
        if fl.dtype != fs.dtype:   # (`(length_samples - frame_length) // frame_step`, length a Python int: FloorDiv
            raise dtype_error("FloorDiv", 1, fl.dtype, fs.dtype)   # of the two dtypes; fz40 seed 1420403003 #108)
        if fstep == 0:
            return by_zero()
        num_frames = max(0, 1 + (length - flen) // fstep)
    # (util_ops.gcd of two constants is convert_to_tensor(math.gcd(...)), whose constant value (a NumPy int32)
    # then divides frame_length and frame_step of any one integer dtype: int64 frames as int32's)
    sub = _pymath.gcd(flen, fstep)
    per_frame, per_hop = flen // sub, fstep // sub
    num_sub = length // sub
    begin = [0] * len(shape)
    end = outer + [num_sub * sub] + inner
    subframes = ops.reshape(ops.strided_slice_fn(sig, begin, end), outer + [num_sub, sub] + inner)
    fdt = fl.dtype
    frame_sel = ops.reshape(ops.range_(num_frames, dtype=fdt) * per_hop, [num_frames, 1])
    sub_sel = ops.reshape(ops.range_(per_frame, dtype=fdt), [1, per_frame])
    selector = frame_sel + sub_sel
    out = ops.reshape(ops.gather(subframes, selector, axis=a), outer + [num_frames, flen] + inner)
    from simdist.runtime.ops import static_shapes
    flags = static_shapes.unknown(sig)
    if flags is not None and not static_shapes.rank_unknown(sig) and len(flags) == len(shape):
        # (in a trace: shape_ops.frame's outer and inner dimensions from shape(signal), the frame count from the
        # axis' length: unknown where the graph does not know them; function.composite-static-shapes)
        static_shapes.mark(out, flags[:a] + (flags[a], False) + flags[a + 1:])
    return out


def overlap_and_add(signal: Any, frame_step: Any, name: str | None = None) -> Tensor:
    """`tf.signal.overlap_and_add`: [..., frames, frame_length] frames added back every
    `frame_step` samples, as reconstruction_ops composes it (pad, reshape, transpose, sum)."""
    ops = _ops()
    sig = signal if isinstance(signal, Tensor) else convert_to_tensor(signal)
    if sig.ndim < 2:
        raise ValueError(f"Shape {sig.shape} must have rank at least 2")
    fs = _scalar_int(frame_step, "frame_step")
    if not fs.dtype.is_integer:
        raise ValueError(f"frame_step must be an integer. Got {fs.dtype!r}")
    step = _int(fs)
    shape = sig.shape.as_list()
    outer = shape[:-2]
    frame_length, frames = shape[-1], shape[-2]
    output_length = frame_length + step * (frames - 1)
    if step == frame_length:
        return ops.reshape(sig, outer + [output_length])
    # (TF divides the static int32 frame length by a static step in NumPy: a step of 0 gives 0
    # segments, and the padding [0, -frame_length] is Pad's "Paddings must be non-negative", a
    # ValueError at trace; fz29b, fz14 seed 1420292902 #172)
    with np.errstate(all="ignore"):
        segments = int(-(np.int32(-frame_length) // np.int32(step)))
    paddings = [[0, 0]] * len(outer) + [[0, segments], [0, segments * step - frame_length]]
    sig = ops.pad(sig, paddings)
    sig = ops.reshape(sig, outer + [frames + segments, segments, step])
    r = len(outer)
    sig = ops.transpose(sig, list(range(r)) + [r + 1, r, r + 2])
    sig = ops.reshape(sig, outer + [(frames + segments) * segments, step])
    sig = sig[..., :(frames + segments - 1) * segments, :]
    sig = ops.reshape(sig, outer + [segments, frames + segments - 1, step])
    sig = ops.reduce_sum(sig, -3)
    sig = ops.reshape(sig, outer + [(frames + segments - 1) * step])
    return sig[..., :output_length]


# --- short-time Fourier transforms -----------------------------------------------------------------
def _enclosing_power_of_two(value: Tensor) -> Tensor:
    """spectral_ops._enclosing_power_of_two of a known value, in NumPy's arithmetic: 0 is
    2**-inf = 0, a negative value NaN (int()'s ValueError); fz28b, fz14 seed 1420282802 #250."""
    v = _int(value)
    with np.errstate(divide="ignore", invalid="ignore"):
        return convert_to_tensor(int(2 ** np.ceil(np.log(v) / np.log(2.0))), dtype=value.dtype)


def stft(signals: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
         window_fn: Callable[..., Any] | None = hann_window, pad_end: bool = False, name: str | None = None) -> Tensor:
    """`tf.signal.stft`: rfft of the windowed frames ([..., frames, fft_length // 2 + 1])."""
    sig = signals if isinstance(signals, Tensor) else convert_to_tensor(signals)
    if sig.ndim < 1:
        raise ValueError(f"Shape {sig.shape} must have rank at least 1")
    fl = _scalar_int(frame_length, "frame_length")
    fs = _scalar_int(frame_step, "frame_step")
    n = _enclosing_power_of_two(fl) if fft_length is None else (
        fft_length if isinstance(fft_length, Tensor) else convert_to_tensor(fft_length))
    framed = frame(sig, fl, fs, pad_end=pad_end)
    if window_fn is not None:
        framed = framed * window_fn(fl, dtype=framed.dtype)
    if n.ndim != 0:
        # (fft_ops._rfft checks the frames' dtype before it reads [fft_length]: float16 signals with a
        # TensorShape([0]) fft_length are its ValueError; fz39b, fz14 seed 1420393001 #51)
        if framed.dtype.name not in ("float32", "float64"):
            raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {framed!s}")
        _nonscalar_fft_length(n)
    return _fft.rfft(framed, [_int(n)])


def _nonscalar_fft_length(n: Tensor) -> None:
    """stft's `rfft(framed, [fft_length])` of a non-scalar fft_length (fz14 seed 1420261219 #108):
    the wrapper reads the packed [1, n] value where it wants a scalar, eagerly NumPy's errors (one
    element: TypeError "only integer scalar arrays can be converted to a scalar index"; more or
    none: the truth-value ValueError), in a graph the shape check's ValueError "Shape (1, n) must
    have rank 1"."""
    from simdist.runtime import context
    shape = (1,) + tuple(n.shape.as_list())
    if context.in_function():
        raise ValueError(f"Shape {shape} must have rank 1")
    size = int(np.prod(shape))
    if size == 1:
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    if size == 0:
        raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that an "
                         "array is not empty.")
    raise ValueError("The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()")


def inverse_stft_window_fn(frame_step: Any, forward_window_fn: Callable[..., Any] = hann_window,
                           name: str | None = None) -> Callable[..., Tensor]:
    """`tf.signal.inverse_stft_window_fn`: the window that inverts `forward_window_fn` at `frame_step`."""
    def inner(frame_length: Any, dtype: Any) -> Tensor:
        ops = _ops()
        step = _scalar_int(frame_step, "frame_step")
        fl = _scalar_int(frame_length, "frame_length")
        forward = forward_window_fn(fl, dtype=dtype)
        denom = ops.square(forward)
        s, flen = _int(step), _int(fl)
        overlaps = -(-flen // s)
        denom = ops.pad(denom, [(0, overlaps * s - flen)])
        denom = ops.reshape(denom, [overlaps, s])
        denom = ops.reduce_sum(denom, 0, keepdims=True)
        denom = ops.tile(denom, [overlaps, 1])
        denom = ops.reshape(denom, [overlaps * s])
        denom = denom[:flen]
        return ops.where(ops.equal(denom, 0.0), ops.zeros_like(forward), forward / denom)
    return inner


def inverse_stft(stfts: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
                 window_fn: Callable[..., Any] | None = hann_window, name: str | None = None) -> Tensor:
    """`tf.signal.inverse_stft`: irfft of each frame, cut or padded to frame_length, windowed, overlap-added."""
    ops = _ops()
    z = stfts if isinstance(stfts, Tensor) else convert_to_tensor(stfts)
    if z.ndim < 2:
        raise ValueError(f"Shape {z.shape} must have rank at least 2")
    fl = _scalar_int(frame_length, "frame_length")
    fs = _scalar_int(frame_step, "frame_step")
    n = _enclosing_power_of_two(fl) if fft_length is None else _scalar_int(fft_length, "fft_length")
    frames = _fft.irfft(z, [_int(n)])
    flen = _int(fl)
    last = frames.shape.as_list()[-1]
    if last > flen:
        frames = frames[..., :flen]
    elif last < flen:
        frames = ops.pad(frames, [[0, 0]] * (frames.ndim - 1) + [[0, flen - last]])
    if window_fn is not None:
        frames = frames * window_fn(fl, dtype=z.dtype.real_dtype)
    return overlap_and_add(frames, fs)
