"""ScaleAndTranslate and its gradient (scale_and_translate_op.cc, sampling_kernels.h), NHWC,
float32 output: the kernels of `tf.image.resize` with antialias and of lanczos3/5, gaussian
and mitchellcubic. Clause ops.image-resize.

Spans (ComputeSpansCore, float32): inv_scale = 1 / scale (double, stored float32), kernel_scale
= max(inv_scale, 1) with antialias else 1, span_size = min(2 * ceil(radius * kernel_scale) + 1,
in). Output x samples at sample = (x + 0.5) * inv_scale - inv_scale * translate; outside
[0, in] it gets an empty span (start 0, weights 0); else the taps ceil(sample - r - 0.5) ..
floor(sample + r - 0.5) (r = radius * kernel_scale, clamped to the image) weigh
kernel(|(tap + 0.5 - sample) / kernel_scale|), normalized by 1/sum when |sum| >= 1000 FLT_MIN.
The gather runs rows then columns: each output accumulates w * value over min(start + span_size,
in) - start taps in float32, left to right, zero weights included (0 * inf is NaN). The
gradient gathers the upstream gradient with the transposed spans (ComputeGradSpansCore: per
input position the forward outputs it feeds, weights summed, from the first such output).

Kernels (float32): lanczos r = 1, 3, 5: r sin(pi x) sin(pi x / r) / (pi^2 x^2), 1 for x <= 1e-3,
0 beyond r; gaussian r = 1.5: exp(-x^2 / (2 sigma^2)) in double, sigma 0.5, 0 for x >= r; box;
triangle 1 - x; keyscubic and mitchellcubic (Keys' a = -0.5; Mitchell-Netravali B = C = 1/3).

FLOPs: 2 per tap per output element for each pass.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import dispatch, libm
from simdist.runtime.ops.attr_rules import make_bool as _make_bool   # (the wrappers' make_bool: ops.attr-types)
from simdist.runtime.ops.nn_rules import _allowed_set, attr_error
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import RegisterGradient, register, rows
from simdist.runtime.tensor import Tensor

__all__ = ["scale_and_translate", "KERNELS"]

_TYPES = "int8, uint8, int16, uint16, int32, int64, half, float, double, bfloat16"
_F = np.float32
_PI = _F(3.14159265359)
_TINY = _F(1000.0) * _F(np.finfo(np.float32).tiny)


def _sinf(x: np.ndarray) -> np.ndarray:
    """The C library's sinf (std::sin of a float), element by element."""
    return libm.scalar_map("sinf", np.ascontiguousarray(x, np.float32).ravel()).reshape(np.shape(x))


def _lanczos(radius: float) -> Callable[[np.ndarray], np.ndarray]:
    r = _F(radius)

    def k(x: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            v = r * _sinf(_PI * x) * _sinf(_PI * x / r) / (_PI * _PI * x * x)
        return np.where(x > r, _F(0), np.where(x.astype(np.float64) <= 1e-3, _F(1), v)).astype(np.float32)
    return k


def _gaussian(x: np.ndarray) -> np.ndarray:
    sigma = _F(1.5) / _F(3.0)
    arg = (-x * x).astype(np.float64) / (2.0 * np.float64(sigma) * np.float64(sigma))
    v = libm.scalar_map("exp", np.ascontiguousarray(arg).ravel()).reshape(np.shape(x)).astype(np.float32)
    return np.where(x >= _F(1.5), _F(0), v).astype(np.float32)


def _box(x: np.ndarray) -> np.ndarray:
    return np.where(x < _F(0.5), _F(1), np.where(x == _F(0.5), _F(0.5), _F(0))).astype(np.float32)


def _triangle(x: np.ndarray) -> np.ndarray:
    return np.where(x < _F(1), _F(1) - x, _F(0)).astype(np.float32)


def _keys(x: np.ndarray) -> np.ndarray:
    far = ((_F(-0.5) * x + _F(2.5)) * x - _F(4.0)) * x + _F(2.0)
    near = ((_F(1.5) * x - _F(2.5)) * x) * x + _F(1.0)
    return np.where(x >= _F(2), _F(0), np.where(x >= _F(1), far, near)).astype(np.float32)


def _mitchell(x: np.ndarray) -> np.ndarray:
    far = (((_F(-7.0) / _F(18.0)) * x + _F(2.0)) * x - _F(10.0) / _F(3.0)) * x + _F(16.0) / _F(9.0)
    near = (((_F(7.0) / _F(6.0)) * x - _F(2.0)) * x) * x + _F(8.0) / _F(9.0)
    return np.where(x >= _F(2), _F(0), np.where(x >= _F(1), far, near)).astype(np.float32)


# kernel_type -> (radius, kernel), as SamplingKernelTypeFromString names them
KERNELS: dict[str, tuple[float, Callable[[np.ndarray], np.ndarray]]] = {
    "lanczos1": (1.0, _lanczos(1.0)), "lanczos3": (3.0, _lanczos(3.0)), "lanczos5": (5.0, _lanczos(5.0)),
    "gaussian": (1.5, _gaussian), "box": (1.0, _box), "triangle": (1.0, _triangle),
    "keyscubic": (2.0, _keys), "mitchellcubic": (2.0, _mitchell)}


def _spans(kernel_type: str, out_size: int, in_size: int, scale: float, translate: float,
           antialias: bool) -> tuple[np.ndarray, np.ndarray]:
    """(starts (out,), weights (out, span_size) float32): ComputeSpansCore."""
    radius, kernel = KERNELS[kernel_type]
    rad = _F(radius)
    inv_scale = _F(1.0 / np.float64(_F(scale)))
    inv_translate = -inv_scale * _F(translate)
    kernel_scale = max(inv_scale, _F(1.0)) if antialias else _F(1.0)
    span_size = min(2 * int(np.ceil(rad * kernel_scale)) + 1, in_size)
    one_over = _F(1.0) / kernel_scale
    starts = np.zeros(out_size, np.int64)
    weights = np.zeros((out_size, span_size), np.float32)
    for x in range(out_size):
        sample = (_F(x) + _F(0.5)) * inv_scale + inv_translate
        if sample < 0 or sample > in_size:
            continue
        lo = int(np.ceil(sample - rad * kernel_scale - _F(0.5)))
        hi = int(np.floor(sample + rad * kernel_scale - _F(0.5)))
        lo, hi = min(max(lo, 0), in_size - 1), min(max(hi, 0), in_size - 1) + 1
        if hi - lo > span_size:
            raise errors.InternalError(None, None, f"Span is too large: {hi - lo} vs {span_size}.")
        pos = np.arange(lo, hi).astype(np.float32) + _F(0.5) - sample
        w = kernel(np.abs(pos * one_over))
        total = _F(0)
        for v in w:
            total = _F(total + v)
        if abs(total) >= _TINY:
            weights[x, :hi - lo] = w * (_F(1.0) / total)
        starts[x] = lo
    return starts, weights


def _grad_spans(starts: np.ndarray, weights: np.ndarray, in_size: int) -> tuple[np.ndarray, np.ndarray]:
    """ComputeGradSpansCore: the transposed spans, per forward input position."""
    comps: list[list[tuple[int, np.float32]]] = [[] for _ in range(in_size)]
    for o in range(starts.shape[0]):
        for j in range(weights.shape[1]):
            i, w = int(starts[o]) + j, weights[o, j]
            if w != 0 and i < in_size:
                comps[i].append((o, w))
    size = max([c[-1][0] - c[0][0] + 1 for c in comps if c] or [0])
    gstarts = np.zeros(in_size, np.int64)
    gweights = np.zeros((in_size, size), np.float32)
    for i, c in enumerate(comps):
        if c:
            gstarts[i] = c[0][0]
            for o, w in c:
                gweights[i, o - c[0][0]] = _F(gweights[i, o - c[0][0]] + w)
    return gstarts, gweights


def _gather(x: np.ndarray, starts: np.ndarray, weights: np.ndarray, axis: int) -> np.ndarray:
    """GatherRows/GatherColumns along `axis` (1 or 2): out[o] = sum_j w[o, j] * x[start + j]
    over the taps inside the image, in float32, left to right."""
    n_in = x.shape[axis]
    span = weights.shape[1]
    real = np.minimum(starts + span, n_in) - starts
    shape = [1] * x.ndim
    shape[axis] = starts.shape[0]
    out = np.zeros(x.shape[:axis] + (starts.shape[0],) + x.shape[axis + 1:], np.float32)
    for j in range(span):
        idx = np.minimum(starts + j, n_in - 1)
        term = weights[:, j].reshape(shape) * np.take(x, idx, axis=axis)
        out = np.where((j < real).reshape(shape), out + term, out).astype(np.float32)
    return out


def _check_kernel_type(kernel_type: str, op: str) -> None:
    """The kernels' constructors (scale_and_translate_op.cc): SamplingKernelTypeFromString, before any
    shape check (a raw call reaches them without the public function's check; fuzz20 seed 3020261208 #224)."""
    if kernel_type not in KERNELS:
        raise errors.InvalidArgumentError(None, None, f"Unrecognized kernel type: {kernel_type} [Op:{op}]")


def _forward(x: np.ndarray, size: tuple, scale: tuple, translation: tuple, kernel_type: str,
             antialias: bool) -> np.ndarray:
    _check_kernel_type(kernel_type, "ScaleAndTranslate")
    _, h, w, _ = x.shape
    rs, rw = _spans(kernel_type, size[0], h, scale[0], translation[0], antialias)
    cs, cw = _spans(kernel_type, size[1], w, scale[1], translation[1], antialias)
    with np.errstate(invalid="ignore", over="ignore"):
        return _gather(_gather(x.astype(np.float32), rs, rw, 1), cs, cw, 2)


def _grad(g: np.ndarray, original: np.ndarray, scale: tuple, translation: tuple, kernel_type: str,
          antialias: bool) -> np.ndarray:
    _check_kernel_type(kernel_type, "ScaleAndTranslateGrad")
    # (the kernel's checks, in its order: a raw call reaches them without the public gradient's shapes; fuzz20
    # seed 3020261208 #224)
    def bad(msg: str, a: Any) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{msg}[{','.join(str(d) for d in np.shape(a))}] "
                                           "[Op:ScaleAndTranslateGrad]")
    if g.ndim != 4:
        raise bad("input_grad must be 4-dimensional", g)
    if original.ndim != 4:
        raise bad("original_image must be 4-dimensional", original)
    for t in (scale, translation):
        if np.ndim(t) != 1:
            raise bad("t must be 1-dimensional", t)
        if np.size(t) != 2:
            raise bad("t must have two elements", t)
    _, gh, gw, _ = g.shape
    _, h, w, _ = original.shape
    rs, rw = _grad_spans(*_spans(kernel_type, gh, h, scale[0], translation[0], antialias), h)
    cs, cw = _grad_spans(*_spans(kernel_type, gw, w, scale[1], translation[1], antialias), w)
    with np.errstate(invalid="ignore", over="ignore"):
        return _gather(_gather(g.astype(np.float32), rs, rw, 1), cs, cw, 2)


def _dtype(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0].name not in _allowed_set(_TYPES):
        raise attr_error("ScaleAndTranslate", dts[0], _TYPES)
    return dtypes.float32


def _grad_dtype(dts: Any, attrs: Any) -> dtypes.DType:
    return dtypes.float32


def _flops(a: Any, out: Any, at: Any) -> float:
    return 4.0 * out.size * (2 * KERNELS.get(at["kernel_type"], (0.0,))[0] + 1)


SCALE_AND_TRANSLATE = register("ScaleAndTranslate", _forward, _dtype, _flops, kind="window", fusion=rows(0))
SCALE_AND_TRANSLATE_GRAD = register("ScaleAndTranslateGrad", _grad, _grad_dtype,
                                    lambda a, out, at: _flops(a, a[0], at), kind="window", fusion=rows(0, 1))

no_tf_gradient("ScaleAndTranslateGrad")   # (TF 2.21 registers none: LookupError; observed, fz27a)


@RegisterGradient("ScaleAndTranslate")
def _scale_and_translate_grad_fn(op: Any, grad: Any) -> list:
    """TF's _ScaleAndTranslateGrad (image_grad.py): ScaleAndTranslateGrad(grad, image), whose
    op def has T: {float} fixed by grad, so an image of another dtype is refused."""
    image = op.inputs[0]
    if image.dtype != dtypes.float32:
        raise errors.InvalidArgumentError(
            None, None, "cannot compute ScaleAndTranslateGrad as input #1(zero-based) was expected to be a float "
                        f"tensor but is a {_c_name(image.dtype)} tensor [Op:ScaleAndTranslateGrad]")
    attrs = {k: op.get_attr(k) for k in ("kernel_type", "antialias")}
    for k, i in (("scale", 2), ("translation", 3)):
        # scale_and_translate() holds them as attrs; tf.raw_ops.ScaleAndTranslate passes them as its
        # inputs 2 and 3, as TF's op def does (image_grad.py reads op.inputs[2:4])
        attrs[k] = (op.attrs[k] if k in op.attrs
                    else tuple(float(v) for v in np.asarray(op.inputs[i].numpy(), np.float32).ravel()))
    # (TF's gradient: the image's, None for size, scale and translation)
    return [dispatch.execute(SCALE_AND_TRANSLATE_GRAD, (grad, image), attrs)] + [None] * (len(op.inputs) - 1)


def _c_name(dt: dtypes.DType) -> str:
    return {"float16": "half", "float64": "double"}.get(dt.name, dt.name)


def scale_and_translate(images: Tensor, size: tuple[int, int], scale: tuple[float, float],
                        translation: tuple[float, float], kernel_type: str = "lanczos3",
                        antialias: bool = True) -> Tensor:
    """The ScaleAndTranslate op on a 4-D NHWC tensor (the kernel's checks, in its order). Eagerly an antialias
    that is not a bool sends the call to the generated wrapper's fallback, whose make_bool raises TypeError before
    any check of the kernel (`resize(..., (2, 0), antialias=1)`); in a graph op_def_library checks the images'
    dtype first (fz43, fz14 seed 1420433002 #162, observed on TF 2.21)."""
    if not context.in_function():
        _make_bool(antialias, "antialias", "ScaleAndTranslate")
    if images.dtype.name not in _allowed_set(_TYPES):
        raise attr_error("ScaleAndTranslate", images.dtype, _TYPES)
    aa = _make_bool(antialias, "antialias", "ScaleAndTranslate")
    if kernel_type not in KERNELS:
        raise errors.InvalidArgumentError(None, None, f"Unrecognized kernel type: {kernel_type} "
                                          "[Op:ScaleAndTranslate]")
    shp = images.shape.as_list()

    def bad(msg: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{msg} [Op:ScaleAndTranslate]")
    if len(shp) != 4:
        raise bad(f"input must be 4-dimensional[{','.join(str(d) for d in shp)}]")
    if size[0] <= 0 or size[1] <= 0:
        raise bad("output dimensions must be positive")
    if shp[3] <= 0:
        raise bad("image must have at least one channel")
    if shp[1] <= 0 or shp[2] <= 0:
        raise bad("input image must be of non-zero size")
    if not (_F(scale[0]) > 0 and _F(scale[1]) > 0):
        raise bad("Scale must be greater than zero.")
    return dispatch.execute(SCALE_AND_TRANSLATE, (images,),
                            {"size": (int(size[0]), int(size[1])), "scale": (float(scale[0]), float(scale[1])),
                             "translation": (float(translation[0]), float(translation[1])),
                             "kernel_type": kernel_type, "antialias": aa})
