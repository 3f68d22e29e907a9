"""tf.image functions by option, size and dtype, crossed by rule (sixty-sixth session, isweep66; test_isweep66.py).

Written from batch 89's survivor `resize-aspect-ratio-round-half-up` (preserve_aspect_ratio's sizes were never fed at
a half): the tf.image functions' options, sizes and dtypes crossed by rule.
- i-resize-<method>: tf.image.resize with each method × antialias × preserve_aspect_ratio × target sizes (up, down,
  equal, 1, sizes whose aspect-preserving scale lands on a half) × dtypes uint8, int32, float16, bfloat16, float32,
  float64 × ranks 3 and 4: the output's dtype, shape and bits;
- i-resize-args: sizes as lists, tuples, arrays, int32/int64 tensors, floats, wrong lengths and ranks, negative and
  zero sizes, method names and ResizeMethod members, images of rank 2 and 5; traced with None dims (static shapes);
- i-pad-crop: resize_with_pad, resize_with_crop_or_pad, crop_to_bounding_box, pad_to_bounding_box, central_crop;
- i-crop-and-resize: crop_and_resize's methods, extrapolation values, boxes outside and flipped, crop sizes, dtypes;
- i-patches: extract_patches (sizes, strides, rates, paddings) and extract_glimpse (centered, normalized, noise);
- i-flip: flip_left_right/up_down, rot90 (k from -6 to 7), transpose, ranks 3 and 4, dtypes; traced;
- i-adjust: adjust_brightness/contrast/gamma/hue/saturation by dtype and factor;
- i-color: rgb_to_hsv/hsv_to_rgb, rgb_to_grayscale/grayscale_to_rgb, yiq/yuv, per_image_standardization,
  total_variation, image_gradients by dtype;
- i-convert: convert_image_dtype between every pair of ten dtypes, saturate or not, on each dtype's edge values;
- i-nms: non_max_suppression(_with_scores, _overlaps, _padded), combined_non_max_suppression by option;
- i-draw: draw_bounding_boxes by colours, boxes outside, dtypes;
- i-distorted: sample_distorted_bounding_box (op seeds after set_seed) and the stateless form by seed and option;
- ih-quality: psnr, ssim, ssim_multiscale (max_val, filter sizes and sigmas, dtypes) and sobel_edges (host-dependent:
  their convolutions follow the CPU's kernels).

Each case: the value's dtype, shape and the SHA-256 of its raw bytes (a static shape as a list), or "raised <class>".
`python -m simdist.conformance.suite.test_isweep66 --record` rewrites isweep66_reference.json.gz on TF 2.21."""

from __future__ import annotations

import hashlib
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.open_cases import registrar
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "isweep66_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu): ssim's and sobel's convolutions
HOST_DEPENDENT = ("ih-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison (docs/conformance.md, "Sixty-sixth session ...
#: isweep66")
OPEN: dict[str, tuple[str, ...]] = {}

program = registrar(REF, OPEN)   # register a program: its result without the OPEN cases

DTYPES = ("uint8", "int32", "float16", "bfloat16", "float32", "float64")
METHODS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5", "gaussian", "mitchellcubic")


def obs(t: Any) -> Any:
    """A tensor's dtype, shape and the SHA-256 of its raw bytes (a nest of tensors element by element)."""
    if isinstance(t, (list, tuple)):
        return [obs(x) for x in t]
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return [str(a.dtype), list(a.shape), hashlib.sha256(np.ascontiguousarray(a).tobytes()).hexdigest()[:16]]


def outcome(fn: Callable[[], Any]) -> Any:
    """obs(fn()), or "raised <class>" (the class is the observation)."""
    try:
        v = fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"
    return obs(v)


def image(tf: Any, name: str, shape: tuple[int, ...], dt: str) -> Any:
    """A seeded image of `shape` in dtype `dt`: integers over the dtype's usual range, floats in [-0.25, 1.25)."""
    r = rng(name)
    if dt == "uint8":
        a = r.randint(0, 256, size=shape).astype(np.int32)
    elif dt in ("int32", "int64", "int16", "int8", "uint16"):
        a = r.randint(-300, 300, size=shape).astype(np.int32)
    else:
        a = (r.uniform(-0.25, 1.25, size=shape)).astype(np.float32)
    return tf.cast(tf.constant(a), dt)


def static(t: Any) -> Any:
    """A symbolic tensor's static shape as a list (None for unknown dimensions)."""
    if not hasattr(t, "shape"):
        return f"not a tensor: {type(t).__name__}"
    return t.shape.as_list() if t.shape.rank is not None else None


def traced(tf: Any, fn: Callable[[Any], Any], spec: Any) -> Any:
    """The static shape of fn's output traced over a TensorSpec, or "raised <class>"."""
    try:
        cf = tf.function(fn).get_concrete_function(spec)
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"
    out = cf.structured_outputs
    return [static(o) for o in out] if isinstance(out, (list, tuple)) else static(out)


# -- resize -----------------------------------------------------------------------------------------------------------

#: target sizes for a 4 x 5 image: up, up odd, down, equal, 1, and sizes whose aspect-preserving scale lands on a half
#: (x0.5: 2 x 2.5; x1.5: 6 x 7.5; x0.6: 2.4 x 3; x0.7: 2.8 x 3.5; x0.75: 3 x 3.75)
SIZES = ((8, 10), (9, 11), (2, 3), (4, 5), (1, 1), (2, 100), (6, 100), (100, 3), (3, 100), (7, 2))


def _resize(method: str) -> Callable[[Any, Any], Any]:
    def run(tf: Any, mk: Any) -> Any:
        out: dict[str, Any] = {}
        for dt in DTYPES:
            for rank in (3, 4):
                shape = (4, 5, 2) if rank == 3 else (2, 4, 5, 2)
                x = image(tf, f"resize {dt} {rank}", shape, dt)
                for aa in (False, True):
                    for par in (False, True):
                        for size in SIZES:
                            if 100 in size and not par:
                                continue
                            key = f"{dt} r{rank} aa={aa} par={par} {size[0]}x{size[1]}"
                            out[key] = outcome(lambda: tf.image.resize(x, list(size), method=method,
                                                                       preserve_aspect_ratio=par, antialias=aa))
        return out
    return run


for _m in METHODS:
    program(f"i-resize-{_m}", _resize(_m))


def _resize_args(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    x = image(tf, "resize args", (4, 5, 2), "float32")
    sizes = {
        "list": [3, 7], "tuple": (3, 7), "array": np.array([3, 7]), "array64": np.array([3, 7], np.int64),
        "int32 tensor": tf.constant([3, 7]), "int64 tensor": tf.constant([3, 7], tf.int64),
        "float list": [3.0, 7.0], "float tensor": tf.constant([3.0, 7.0]), "length 1": [3], "length 3": [3, 7, 2],
        "rank 2": [[3, 7]], "negative": [-2, 3], "minus one": [-1, 3], "zero": [0, 3], "zeros": [0, 0],
        "uint8 tensor": tf.constant([3, 7], tf.uint8), "scalar": 3, "string": "3x7", "none": None,
    }
    for k, s in sizes.items():
        for m in ("bilinear", "nearest", "area"):
            out[f"size {k} {m}"] = outcome(lambda: tf.image.resize(x, s, method=m))
        out[f"size {k} par"] = outcome(lambda: tf.image.resize(x, s, preserve_aspect_ratio=True))
    for m in ("BILINEAR", "Bilinear", "nearest_neighbor", "cubic", "linear", "lanczos", "", None, 0, 1):
        out[f"method {m!r}"] = outcome(lambda: tf.image.resize(x, [3, 7], method=m))
    for name in ("BILINEAR", "NEAREST_NEIGHBOR", "BICUBIC", "AREA", "LANCZOS3", "LANCZOS5", "GAUSSIAN",
                 "MITCHELLCUBIC"):
        out[f"ResizeMethod.{name}"] = outcome(
            lambda: tf.image.resize(x, [3, 7], method=getattr(tf.image.ResizeMethod, name)))
    for shape in ((4, 5), (1, 2, 4, 5, 2), (0, 4, 5, 2), (4, 5, 0), (1, 4, 5, 2), (4, 1, 2), (1, 1, 1)):
        y = tf.zeros(shape) + 0.5
        for m in ("bilinear", "nearest", "bicubic", "area"):
            out[f"images {shape} {m}"] = outcome(lambda: tf.image.resize(y, [3, 7], method=m))
    # (a float64 image's area and a bool image)
    out["bool image"] = outcome(lambda: tf.image.resize(tf.zeros((4, 5, 1), tf.bool), [3, 7]))
    out["int64 image"] = outcome(lambda: tf.image.resize(image(tf, "i64", (4, 5, 1), "int64"), [3, 7]))
    out["int64 image nearest"] = outcome(
        lambda: tf.image.resize(image(tf, "i64", (4, 5, 1), "int64"), [3, 7], method="nearest"))
    # traced with unknown dimensions: the static shapes
    for m in ("bilinear", "nearest", "area", "lanczos3"):
        for spec_shape in ((None, None, None, 2), (None, 4, 5, None), (None, None, 2), (4, 5, 2), None):
            spec = tf.TensorSpec(spec_shape, tf.float32)
            for par in (False, True):
                out[f"traced {m} {spec_shape} par={par}"] = traced(
                    tf, lambda t: tf.image.resize(t, [3, 7], method=m, preserve_aspect_ratio=par), spec)
        out[f"traced {m} size tensor"] = traced(
            tf, lambda s: tf.image.resize(tf.zeros((4, 5, 2)), s, method=m), tf.TensorSpec((2,), tf.int32))
        out[f"traced {m} size unknown"] = traced(
            tf, lambda s: tf.image.resize(tf.zeros((4, 5, 2)), s, method=m), tf.TensorSpec((None,), tf.int32))
    return out


program("i-resize-args", _resize_args)


# -- pad, crop, central crop ------------------------------------------------------------------------------------------

def _pad_crop(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in DTYPES:
        for rank in (3, 4):
            shape = (5, 6, 2) if rank == 3 else (2, 5, 6, 2)
            x = image(tf, f"pad {dt} {rank}", shape, dt)
            for th, tw in ((8, 9), (3, 4), (5, 6), (7, 3), (2, 11), (1, 1), (6, 6)):
                for m in ("bilinear", "nearest", "bicubic", "area", "lanczos3"):
                    for aa in (False, True):
                        if aa and m in ("nearest", "area"):
                            continue
                        out[f"with_pad {dt} r{rank} {th}x{tw} {m} aa={aa}"] = outcome(
                            lambda: tf.image.resize_with_pad(x, th, tw, method=m, antialias=aa))
                out[f"crop_or_pad {dt} r{rank} {th}x{tw}"] = outcome(
                    lambda: tf.image.resize_with_crop_or_pad(x, th, tw))
            for box in ((0, 0, 5, 6), (1, 2, 3, 3), (4, 5, 1, 1), (0, 0, 6, 6), (2, 0, 4, 6), (-1, 0, 2, 2),
                        (0, 0, 0, 3)):
                out[f"crop_to {dt} r{rank} {box}"] = outcome(lambda: tf.image.crop_to_bounding_box(x, *box))
            for box in ((0, 0, 5, 6), (1, 2, 7, 9), (0, 3, 5, 9), (2, 0, 8, 6), (1, 1, 5, 6), (-1, 0, 7, 7),
                        (0, 0, 4, 6)):
                out[f"pad_to {dt} r{rank} {box}"] = outcome(lambda: tf.image.pad_to_bounding_box(x, *box))
            for frac in (0.5, 1.0, 0.33, 0.1, 0.8, 0.51, 0.0, 1.5, -0.5, 0.999):
                out[f"central {dt} r{rank} {frac}"] = outcome(lambda: tf.image.central_crop(x, frac))
    x = image(tf, "pad args", (5, 6, 2), "float32")
    for k, v in {"int32 tensor": tf.constant(8), "int64 tensor": tf.constant(8, tf.int64), "float": 8.0,
                 "zero": 0, "negative": -3, "float tensor": tf.constant(8.0)}.items():
        out[f"with_pad height {k}"] = outcome(lambda: tf.image.resize_with_pad(x, v, 7))
        out[f"crop_or_pad height {k}"] = outcome(lambda: tf.image.resize_with_crop_or_pad(x, v, 7))
        out[f"pad_to height {k}"] = outcome(lambda: tf.image.pad_to_bounding_box(x, 0, 0, v, 7))
        out[f"crop_to height {k}"] = outcome(lambda: tf.image.crop_to_bounding_box(x, 0, 0, v, 3))
    i64 = lambda v: tf.constant(v, tf.int64)   # noqa: E731
    for k, fn in {   # (the offsets' and targets' dtypes meeting in TF's Python arithmetic and stacks)
        "crop_or_pad 3.0": lambda: tf.image.resize_with_crop_or_pad(x, 3.0, 7),
        "crop_or_pad 3.0 4.0": lambda: tf.image.resize_with_crop_or_pad(x, 3.0, 4.0),
        "crop_or_pad i64 3": lambda: tf.image.resize_with_crop_or_pad(x, i64(3), 4),
        "crop_or_pad i64 both": lambda: tf.image.resize_with_crop_or_pad(x, i64(8), i64(9)),
        "crop_or_pad np int64": lambda: tf.image.resize_with_crop_or_pad(x, np.int64(3), 9),
        "crop_to 2.0": lambda: tf.image.crop_to_bounding_box(x, 0, 0, 2.0, 3),
        "crop_to offset 1.0": lambda: tf.image.crop_to_bounding_box(x, 1.0, 0, 2, 3),
        "crop_to i64": lambda: tf.image.crop_to_bounding_box(x, 0, 0, i64(2), 3),
        "crop_to i64 offset": lambda: tf.image.crop_to_bounding_box(x, i64(1), 0, 2, 3),
        "crop_to i32 tensors": lambda: tf.image.crop_to_bounding_box(x, tf.constant(1), 0, tf.constant(2), 3),
        "pad_to offset 1.0": lambda: tf.image.pad_to_bounding_box(x, 1.0, 0, 8, 7),
        "pad_to offset i64": lambda: tf.image.pad_to_bounding_box(x, i64(1), 0, 8, 7),
        "pad_to offset i64 target i32": lambda: tf.image.pad_to_bounding_box(x, i64(1), 0, tf.constant(8), 7),
        "pad_to all i64": lambda: tf.image.pad_to_bounding_box(x, i64(1), i64(0), i64(8), i64(7)),
        "pad_to np float32": lambda: tf.image.pad_to_bounding_box(x, 0, 0, np.float32(8), 7),
        "with_pad 8.0 7.0": lambda: tf.image.resize_with_pad(x, 8.0, 7.0),
        "with_pad i64 both": lambda: tf.image.resize_with_pad(x, i64(8), i64(7)),
        "with_pad np int64": lambda: tf.image.resize_with_pad(x, np.int64(8), 7),
        "central float64 tensor": lambda: tf.image.central_crop(x, tf.constant(0.5, tf.float64)),
    }.items():
        out[f"box args {k}"] = outcome(fn)
    for k, y in {"rank 2": tf.zeros((5, 6)), "rank 5": tf.zeros((1, 1, 5, 6, 2)),
                 "empty": tf.zeros((0, 6, 2))}.items():
        out[f"{k} with_pad"] = outcome(lambda: tf.image.resize_with_pad(y, 3, 3))
        out[f"{k} crop_or_pad"] = outcome(lambda: tf.image.resize_with_crop_or_pad(y, 3, 3))
        out[f"{k} central"] = outcome(lambda: tf.image.central_crop(y, 0.5))
        out[f"{k} pad_to"] = outcome(lambda: tf.image.pad_to_bounding_box(y, 0, 0, 7, 7))
    for spec_shape in ((None, None, 2), (None, None, None, 2), (5, 6, None)):
        spec = tf.TensorSpec(spec_shape, tf.float32)
        out[f"traced with_pad {spec_shape}"] = traced(tf, lambda t: tf.image.resize_with_pad(t, 8, 3), spec)
        out[f"traced crop_or_pad {spec_shape}"] = traced(tf, lambda t: tf.image.resize_with_crop_or_pad(t, 8, 3),
                                                         spec)
        out[f"traced central {spec_shape}"] = traced(tf, lambda t: tf.image.central_crop(t, 0.5), spec)
        out[f"traced crop_to {spec_shape}"] = traced(tf, lambda t: tf.image.crop_to_bounding_box(t, 1, 1, 2, 3),
                                                     spec)
        out[f"traced pad_to {spec_shape}"] = traced(tf, lambda t: tf.image.pad_to_bounding_box(t, 1, 1, 8, 9), spec)
    return out


program("i-pad-crop", _pad_crop)


def _crop_and_resize(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    boxes = np.array([[0.0, 0.0, 1.0, 1.0], [0.1, 0.2, 0.7, 0.9], [0.8, 0.9, 0.2, 0.1], [-0.5, -0.2, 0.5, 0.6],
                      [0.5, 0.5, 1.7, 1.4], [1.2, 1.1, 1.5, 1.9], [0.3, 0.3, 0.3, 0.3], [0.25, 0.0, 0.75, 1.0]],
                     np.float32)
    idx = [0, 1, 0, 1, 0, 1, 0, 1]
    for dt in ("uint8", "int32", "float16", "bfloat16", "float32", "float64", "int64", "int8", "uint16", "int16"):
        x = image(tf, f"cr {dt}", (2, 5, 6, 2), dt)
        for m in ("bilinear", "nearest"):
            for ev in (0.0, -1.5, 7.25, float("nan")):
                for crop in ((3, 4), (1, 1), (1, 5), (6, 2)):
                    out[f"{dt} {m} ev={ev} crop={crop}"] = outcome(
                        lambda: tf.image.crop_and_resize(x, boxes, idx, list(crop), method=m, extrapolation_value=ev))
    x = image(tf, "cr args", (2, 5, 6, 2), "float32")
    cases = {
        "bicubic": lambda: tf.image.crop_and_resize(x, boxes, idx, [3, 4], method="bicubic"),
        "uint32": lambda: tf.image.crop_and_resize(tf.cast(x, tf.uint32), boxes, idx, [3, 4]),
        "uint64": lambda: tf.image.crop_and_resize(tf.cast(x, tf.uint64), boxes, idx, [3, 4]),
        "index out": lambda: tf.image.crop_and_resize(x, boxes[:1], [2], [3, 4]),
        "index negative": lambda: tf.image.crop_and_resize(x, boxes[:1], [-1], [3, 4]),
        "crop zero": lambda: tf.image.crop_and_resize(x, boxes, idx, [0, 4]),
        "crop length 3": lambda: tf.image.crop_and_resize(x, boxes, idx, [3, 4, 1]),
        "boxes 3 cols": lambda: tf.image.crop_and_resize(x, boxes[:, :3], idx, [3, 4]),
        "idx short": lambda: tf.image.crop_and_resize(x, boxes, idx[:3], [3, 4]),
        "rank 3 image": lambda: tf.image.crop_and_resize(x[0], boxes, idx, [3, 4]),
        "no boxes": lambda: tf.image.crop_and_resize(x, np.zeros((0, 4), np.float32), np.zeros(0, np.int32),
                                                     [3, 4]),
        "boxes float64": lambda: tf.image.crop_and_resize(x, boxes.astype(np.float64), idx, [3, 4]),
        "idx int64": lambda: tf.image.crop_and_resize(x, boxes, tf.constant(idx, tf.int64), [3, 4]),
        "crop tuple": lambda: tf.image.crop_and_resize(x, boxes, idx, (3, 4)),
        "crop tensor": lambda: tf.image.crop_and_resize(x, boxes, idx, tf.constant([3, 4])),
    }
    for k, fn in cases.items():
        out[k] = outcome(fn)
    return out


program("i-crop-and-resize", _crop_and_resize)


def _patches(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in ("uint8", "int32", "float16", "bfloat16", "float32", "float64"):
        x = image(tf, f"patches {dt}", (2, 7, 8, 3), dt)
        for sizes in ((1, 2, 3, 1), (1, 3, 3, 1), (1, 1, 1, 1), (1, 7, 8, 1), (1, 8, 2, 1)):
            for strides in ((1, 1, 1, 1), (1, 2, 3, 1), (1, 5, 5, 1)):
                for rates in ((1, 1, 1, 1), (1, 2, 1, 1), (1, 2, 3, 1)):
                    for pad in ("VALID", "SAME"):
                        out[f"{dt} {sizes} {strides} {rates} {pad}"] = outcome(
                            lambda: tf.image.extract_patches(x, list(sizes), list(strides), list(rates), pad))
    x = image(tf, "patches args", (2, 7, 8, 3), "float32")
    for k, fn in {
        "batch size not 1": lambda: tf.image.extract_patches(x, [2, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
        "padding lower": lambda: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "valid"),
        "sizes length 3": lambda: tf.image.extract_patches(x, [1, 2, 2], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
        "rank 3": lambda: tf.image.extract_patches(x[0], [1, 2, 2, 1], [1, 1, 1, 1], [1, 1, 1, 1], "VALID"),
        "stride 0": lambda: tf.image.extract_patches(x, [1, 2, 2, 1], [1, 0, 1, 1], [1, 1, 1, 1], "VALID"),
    }.items():
        out[k] = outcome(fn)
    # extract_glimpse: offsets inside (uniform noise never drawn) and outside with zero noise
    for dt in ("float32", "float16", "float64"):
        x = image(tf, f"glimpse {dt}", (2, 7, 8, 2), dt)
        offsets = {"center": [[0.0, 0.0], [0.0, 0.0]], "inside": [[0.2, -0.3], [-0.1, 0.25]],
                   "pixels": [[2.0, 3.0], [3.5, 4.5]], "half": [[0.5, 0.5], [-0.5, 0.5]]}
        for ok, off in offsets.items():
            for centered in (True, False):
                for normalized in (True, False):
                    for size in ((3, 3), (2, 4), (1, 1), (7, 8)):
                        for noise in ("zero", "gaussian", "uniform"):
                            # (TF's noise is drawn unseeded: the noises only where the glimpse is inside)
                            if noise != "zero" and (size != (1, 1) or ok != "center" or not centered):
                                continue
                            out[f"glimpse {dt} {ok} c={centered} n={normalized} {size} {noise}"] = outcome(
                                lambda: tf.image.extract_glimpse(x, list(size), off, centered=centered,
                                                                 normalized=normalized, noise=noise))
    x = image(tf, "glimpse args", (2, 7, 8, 2), "float32")
    for k, fn in {
        "outside zero": lambda: tf.image.extract_glimpse(x, [3, 3], [[1.5, 1.5], [-2.0, 0.0]], noise="zero"),
        "noise bad": lambda: tf.image.extract_glimpse(x, [3, 3], [[0.0, 0.0]] * 2, noise="Zero"),
        "offsets short": lambda: tf.image.extract_glimpse(x, [3, 3], [[0.0, 0.0]], noise="zero"),
        "size 3": lambda: tf.image.extract_glimpse(x, [3, 3, 1], [[0.0, 0.0]] * 2, noise="zero"),
        "int image": lambda: tf.image.extract_glimpse(tf.cast(x, tf.int32), [3, 3], [[0.0, 0.0]] * 2, noise="zero"),
    }.items():
        out[k] = outcome(fn)
    return out


program("i-patches", _patches)


def _flip(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in ("uint8", "int32", "float16", "bfloat16", "float32", "float64", "bool", "int64", "complex64"):
        for shape in ((3, 4, 2), (2, 3, 4, 2), (1, 1, 1), (0, 3, 1)):
            if dt == "bool":
                x = tf.cast(image(tf, f"flip {shape}", shape, "int32") > 0, tf.bool)
            elif dt == "complex64":
                x = tf.complex(image(tf, f"flip {shape}", shape, "float32"), 1.0)
            else:
                x = image(tf, f"flip {shape} {dt}", shape, dt)
            out[f"lr {dt} {shape}"] = outcome(lambda: tf.image.flip_left_right(x))
            out[f"ud {dt} {shape}"] = outcome(lambda: tf.image.flip_up_down(x))
            out[f"transpose {dt} {shape}"] = outcome(lambda: tf.image.transpose(x))
            for k in range(-6, 8):
                out[f"rot90 k={k} {dt} {shape}"] = outcome(lambda: tf.image.rot90(x, k))
    x = image(tf, "flip args", (3, 4, 2), "float32")
    for k, v in {"int64": tf.constant(3, tf.int64), "int32 tensor": tf.constant(-1), "float": 1.0,
                 "big": 2**31 - 1, "huge": 2**40, "float tensor": tf.constant(1.0), "list": [1],
                 "uint8 tensor": tf.constant(3, tf.uint8), "np int64": np.int64(3)}.items():
        out[f"rot90 k {k}"] = outcome(lambda: tf.image.rot90(x, v))
    for k, y in {"rank 2": tf.zeros((3, 4)), "rank 5": tf.zeros((1, 1, 3, 4, 2))}.items():
        for f in ("flip_left_right", "flip_up_down", "transpose"):
            out[f"{k} {f}"] = outcome(lambda: getattr(tf.image, f)(y))
        out[f"{k} rot90"] = outcome(lambda: tf.image.rot90(y, 1))
    for spec_shape in ((None, None, 2), (None, 3, None, 2), (3, 4, 2), None):
        spec = tf.TensorSpec(spec_shape, tf.float32)
        for k in (0, 1, 2, 3, -1, 5):
            out[f"traced rot90 k={k} {spec_shape}"] = traced(tf, lambda t: tf.image.rot90(t, k), spec)
        for f in ("flip_left_right", "flip_up_down", "transpose"):
            out[f"traced {f} {spec_shape}"] = traced(tf, lambda t: getattr(tf.image, f)(t), spec)
    out["traced rot90 k tensor"] = traced(tf, lambda k: tf.image.rot90(tf.zeros((3, 4, 2)), k),
                                          tf.TensorSpec((), tf.int32))
    f = tf.function(lambda t, k: tf.image.rot90(t, k))
    for k in (-3, 1, 6):
        out[f"traced call rot90 k={k}"] = outcome(lambda: f(x, tf.constant(k)))
    return out


program("i-flip", _flip)


def _adjust(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in DTYPES + ("int64", "int8", "uint16"):
        x = image(tf, f"adjust {dt}", (2, 3, 4, 3), dt)
        for d in (0.0, 0.1, -0.3, 1.5, 200.0):
            out[f"brightness {dt} {d}"] = outcome(lambda: tf.image.adjust_brightness(x, d))
        for c in (0.0, 0.5, 1.0, 2.0, -1.0):
            out[f"contrast {dt} {c}"] = outcome(lambda: tf.image.adjust_contrast(x, c))
        for g, gain in ((1.0, 1.0), (0.5, 1.0), (2.0, 0.5), (0.0, 1.0), (-1.0, 1.0), (1.0, 255.0)):
            out[f"gamma {dt} {g} {gain}"] = outcome(lambda: tf.image.adjust_gamma(x, g, gain))
        for d in (0.0, 0.2, -0.45, 1.0, 3.7):
            out[f"hue {dt} {d}"] = outcome(lambda: tf.image.adjust_hue(x, d))
        for s in (0.0, 0.5, 1.0, 3.0, -1.0):
            out[f"saturation {dt} {s}"] = outcome(lambda: tf.image.adjust_saturation(x, s))
    x = image(tf, "adjust args", (2, 3, 4, 3), "float32")
    for k, fn in {
        "brightness tensor": lambda: tf.image.adjust_brightness(x, tf.constant(0.25)),
        "brightness float64 delta": lambda: tf.image.adjust_brightness(x, tf.constant(0.25, tf.float64)),
        "contrast tensor": lambda: tf.image.adjust_contrast(x, tf.constant(1.5)),
        "hue 2 channels": lambda: tf.image.adjust_hue(x[..., :2], 0.1),
        "saturation 4 channels": lambda: tf.image.adjust_saturation(tf.concat([x, x[..., :1]], -1), 0.5),
        "contrast rank 2": lambda: tf.image.adjust_contrast(x[0, 0], 1.5),
        "gamma tensor": lambda: tf.image.adjust_gamma(x, tf.constant(0.5)),
        "gamma negative tensor": lambda: tf.image.adjust_gamma(x, tf.constant(-0.5)),
    }.items():
        out[k] = outcome(fn)
    return out


program("i-adjust", _adjust)


def _color(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in DTYPES + ("int64", "int16"):
        x = image(tf, f"color {dt}", (2, 3, 4, 3), dt)
        for f in ("rgb_to_hsv", "hsv_to_rgb", "rgb_to_grayscale", "rgb_to_yiq", "yiq_to_rgb", "rgb_to_yuv",
                  "yuv_to_rgb", "per_image_standardization", "total_variation", "image_gradients"):
            out[f"{f} {dt}"] = outcome(lambda: getattr(tf.image, f)(x))
            out[f"{f} {dt} rank 3"] = outcome(lambda: getattr(tf.image, f)(x[0]))
        g = image(tf, f"gray {dt}", (2, 3, 4, 1), dt)
        out[f"grayscale_to_rgb {dt}"] = outcome(lambda: tf.image.grayscale_to_rgb(g))
        out[f"grayscale_to_rgb {dt} rank 3"] = outcome(lambda: tf.image.grayscale_to_rgb(g[0]))
        out[f"grayscale_to_rgb {dt} 3 channels"] = outcome(lambda: tf.image.grayscale_to_rgb(x))
        out[f"per_image_standardization {dt} constant"] = outcome(
            lambda: tf.image.per_image_standardization(tf.ones((3, 4, 3), dt)))
        out[f"total_variation {dt} rank 2"] = outcome(lambda: tf.image.total_variation(x[0, 0]))
    for f in ("rgb_to_hsv", "rgb_to_grayscale", "rgb_to_yiq", "rgb_to_yuv"):
        out[f"{f} 4 channels"] = outcome(lambda: getattr(tf.image, f)(tf.zeros((3, 4, 4))))
        out[f"{f} rank 1"] = outcome(lambda: getattr(tf.image, f)(tf.zeros((3,))))
    out["image_gradients rank 3"] = outcome(lambda: tf.image.image_gradients(tf.zeros((3, 4, 3))))
    return out


program("i-color", _color)


#: each dtype's edge values (as float64, cast by NumPy into the dtype before the tensor is made)
EDGES = {
    "uint8": [0, 1, 127, 128, 254, 255], "int8": [-128, -127, -1, 0, 1, 63, 64, 127],
    "uint16": [0, 1, 255, 256, 32767, 32768, 65535], "int16": [-32768, -1, 0, 1, 127, 128, 255, 32767],
    "int32": [-2**31, -1, 0, 1, 2**23, 2**24 + 1, 2**30, 2**31 - 1],
    "int64": [-2**63, -1, 0, 1, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1],
    "float16": [-1.0, -0.0, 0.0, 0.5, 1.0, 1 / 255, 0.998, 1.5, 65504.0, 2.0**-24],
    "bfloat16": [-1.0, 0.0, 0.5, 1.0, 0.99609375, 1.5, 3.0e38, 2.0**-130],
    "float32": [-1.0, -0.0, 0.0, 0.5, 1.0, 1 / 255, 0.5 / 255, 1.5 / 255, 0.9999999, 1.0000001, 2.0, 3.0e38],
    "float64": [-1.0, 0.0, 0.5, 1.0, 1 / 255, 0.5 / 255, 2.5 / 255, 0.99999999999, 1.0 + 2**-52, 1e300],
}


def _convert(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for src, vals in EDGES.items():
        if src in ("int64",):
            x = tf.constant(np.array(vals, np.int64))
        elif src == "bfloat16":
            x = tf.cast(tf.constant(np.array(vals, np.float32)), tf.bfloat16)
        else:
            x = tf.constant(np.array(vals, np.dtype(src)))
        for dst in EDGES:
            for sat in (False, True):
                out[f"{src} -> {dst} saturate={sat}"] = outcome(lambda: tf.image.convert_image_dtype(x, dst, sat))
    x = tf.constant([0.5, 1.0])
    for k, fn in {
        "to bool": lambda: tf.image.convert_image_dtype(x, tf.bool),
        "from bool": lambda: tf.image.convert_image_dtype(tf.constant([True, False]), tf.float32),
        "to complex": lambda: tf.image.convert_image_dtype(x, tf.complex64),
        "to uint32": lambda: tf.image.convert_image_dtype(x, tf.uint32),
        "from uint32": lambda: tf.image.convert_image_dtype(tf.constant([1, 2**32 - 1], tf.uint32), tf.float32),
        "to string": lambda: tf.image.convert_image_dtype(x, "string"),
        "to DType": lambda: tf.image.convert_image_dtype(x, tf.uint8),
        "to np": lambda: tf.image.convert_image_dtype(x, np.uint8),
    }.items():
        out[k] = outcome(fn)
    return out


program("i-convert", _convert)


def _nms(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    r = rng("nms")
    c = r.uniform(0, 1, size=(12, 2)).astype(np.float32)
    hw = r.uniform(0.05, 0.5, size=(12, 2)).astype(np.float32)
    boxes = np.concatenate([c - hw, c + hw], 1)
    boxes[3] = boxes[3][[2, 3, 0, 1]]   # flipped corners
    boxes[7] = boxes[2]                 # a duplicate
    scores = r.uniform(0, 1, size=12).astype(np.float32)
    scores[5] = scores[1]               # a tie
    for mo in (0, 1, 5, 12, 20):
        for iou in (0.0, 0.3, 0.5, 1.0):
            for st in (float("-inf"), 0.4, 2.0):
                key = f"mo={mo} iou={iou} st={st}"
                out[f"nms {key}"] = outcome(lambda: tf.image.non_max_suppression(boxes, scores, mo, iou, st))
                for sig in (0.0, 0.5):
                    out[f"with_scores {key} sigma={sig}"] = outcome(
                        lambda: tf.image.non_max_suppression_with_scores(boxes, scores, mo, iou, st, sig))
                for pad in (False, True):
                    out[f"padded {key} pad={pad}"] = outcome(
                        lambda: tf.image.non_max_suppression_padded(boxes, scores, mo, iou, st,
                                                                    pad_to_max_output_size=pad))
    ov = (r.uniform(0, 1, size=(12, 12)).astype(np.float32) + np.eye(12, dtype=np.float32))
    for th in (0.3, 0.6):
        out[f"overlaps th={th}"] = outcome(lambda: tf.image.non_max_suppression_overlaps(ov, scores, 6, th))
    out["nms float16"] = outcome(lambda: tf.image.non_max_suppression(boxes.astype(np.float16),
                                                                      scores.astype(np.float16), 5))
    out["nms float64"] = outcome(lambda: tf.image.non_max_suppression(boxes.astype(np.float64),
                                                                      scores.astype(np.float64), 5))
    out["nms negative max"] = outcome(lambda: tf.image.non_max_suppression(boxes, scores, -1))
    out["nms iou 1.5"] = outcome(lambda: tf.image.non_max_suppression(boxes, scores, 5, 1.5))
    out["nms scores short"] = outcome(lambda: tf.image.non_max_suppression(boxes, scores[:5], 5))
    out["padded batch"] = outcome(lambda: tf.image.non_max_suppression_padded(
        np.stack([boxes, boxes[::-1]]), np.stack([scores, scores[::-1]]), 4, pad_to_max_output_size=True))
    out["padded canonical"] = outcome(lambda: tf.image.non_max_suppression_padded(
        boxes, scores, 4, pad_to_max_output_size=True, canonicalized_coordinates=True))
    out["padded sorted"] = outcome(lambda: tf.image.non_max_suppression_padded(
        boxes[np.argsort(-scores, kind="stable")], np.sort(scores)[::-1].copy(), 4, pad_to_max_output_size=True,
        sorted_input=True))
    cb = np.stack([boxes.reshape(12, 1, 4), boxes[::-1].reshape(12, 1, 4)]).astype(np.float32)
    cs = r.uniform(0, 1, size=(2, 12, 3)).astype(np.float32)
    for per, total in ((3, 5), (12, 40), (1, 2)):
        for iou in (0.3, 0.7):
            for st in (float("-inf"), 0.5):
                for pad in (False, True):
                    for clip in (True, False):
                        out[f"combined {per} {total} {iou} {st} pad={pad} clip={clip}"] = outcome(
                            lambda: tf.image.combined_non_max_suppression(cb * 1.5 - 0.2, cs, per, total, iou, st,
                                                                          pad, clip))
    cbq = np.concatenate([cb] * 3, 2)
    out["combined q=classes"] = outcome(lambda: tf.image.combined_non_max_suppression(cbq, cs, 3, 5))
    out["combined q=2"] = outcome(lambda: tf.image.combined_non_max_suppression(cbq[:, :, :2], cs, 3, 5))
    out["combined total 0"] = outcome(lambda: tf.image.combined_non_max_suppression(cb, cs, 3, 0))
    return out


program("i-nms", _nms)


def _draw(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    boxes = np.array([[[0.1, 0.1, 0.8, 0.7], [0.5, -0.2, 1.3, 0.6], [0.9, 0.9, 0.1, 0.1], [0.3, 0.3, 0.3, 0.3],
                       [-1.0, -1.0, 2.0, 2.0]]] * 2, np.float32)
    for dt in ("float32", "float16", "uint8", "float64", "bfloat16"):
        for ch in (1, 3, 4, 2):
            x = image(tf, f"draw {dt} {ch}", (2, 9, 10, ch), dt)
            for ck, colors in {"none": None, "one": [[1.0, 0.0, 0.0, 1.0]], "two": [[0.2, 0.4, 0.6, 0.8], [1, 1, 1, 1]],
                               "three cols": [[0.5, 0.5, 0.5]], "empty": np.zeros((0, 4), np.float32)}.items():
                out[f"{dt} ch={ch} colors={ck}"] = outcome(lambda: tf.image.draw_bounding_boxes(x, boxes, colors))
    x = image(tf, "draw args", (2, 9, 10, 3), "float32")
    out["rank 3"] = outcome(lambda: tf.image.draw_bounding_boxes(x[0], boxes, None))
    out["boxes 2 images"] = outcome(lambda: tf.image.draw_bounding_boxes(x[:1], boxes, None))
    out["no boxes"] = outcome(lambda: tf.image.draw_bounding_boxes(x, np.zeros((2, 0, 4), np.float32), None))
    return out


program("i-draw", _draw)


def _distorted(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    bbox = tf.constant([[[0.1, 0.2, 0.5, 0.6], [0.3, 0.1, 0.9, 0.4]]])
    opts = {"default": {}, "cover 0.5": {"min_object_covered": 0.5}, "cover 1": {"min_object_covered": 1.0},
            "aspect": {"aspect_ratio_range": (0.5, 2.0)}, "area": {"area_range": (0.1, 0.3)},
            "attempts 1": {"max_attempts": 1}, "cover 0": {"min_object_covered": 0.0},
            "tight": {"area_range": (0.9, 1.0), "aspect_ratio_range": (3.0, 4.0), "max_attempts": 3}}
    for size_dt in ("int32", "uint8", "int64"):
        size = tf.constant([40, 60, 3], size_dt)
        for ok, kw in opts.items():
            for seed in ((1, 2), (7, 0), (123, 456)):
                out[f"stateless {size_dt} {ok} {seed}"] = outcome(
                    lambda: tf.image.stateless_sample_distorted_bounding_box(size, bbox, seed, **kw))
            tf.random.set_seed(66)
            out[f"stateful {size_dt} {ok}"] = outcome(
                lambda: [tf.image.sample_distorted_bounding_box(size, bbox, seed=5, **kw) for _ in range(2)])
    empty = tf.zeros((1, 0, 4))
    for use in (True, False):
        out[f"no boxes use_image={use}"] = outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
            tf.constant([40, 60, 3]), empty, (1, 2), use_image_if_no_bounding_boxes=use))
    for k, kw in {"area 0": {"area_range": (0.0, 0.5)}, "area above 1": {"area_range": (0.5, 1.5)},
                  "aspect reversed": {"aspect_ratio_range": (2.0, 0.5)}, "cover above 1": {"min_object_covered": 1.5},
                  "attempts 0": {"max_attempts": 0}}.items():
        out[f"args {k}"] = outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
            tf.constant([40, 60, 3]), bbox, (1, 2), **kw))
    out["args size float"] = outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([40.0, 60.0, 3.0]), bbox, (1, 2)))
    out["args size 2"] = outcome(lambda: tf.image.stateless_sample_distorted_bounding_box(
        tf.constant([40, 60]), bbox, (1, 2)))
    return out


program("i-distorted", _distorted)


def _quality(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    for dt in ("uint8", "float16", "float32", "float64", "int32", "bfloat16"):
        a = image(tf, f"q a {dt}", (2, 24, 24, 3), dt)
        b = image(tf, f"q b {dt}", (2, 24, 24, 3), dt)
        for mv in (1.0, 255, 2.0):
            out[f"psnr {dt} {mv}"] = outcome(lambda: tf.image.psnr(a, b, mv))
            out[f"psnr same {dt} {mv}"] = outcome(lambda: tf.image.psnr(a, a, mv))
            for fs, sg in ((11, 1.5), (3, 0.5), (7, 3.0), (24, 1.5), (25, 1.5), (1, 1.0)):
                out[f"ssim {dt} {mv} {fs} {sg}"] = outcome(lambda: tf.image.ssim(a, b, mv, fs, sg))
            out[f"ssim map {dt} {mv}"] = outcome(lambda: tf.image.ssim(a, b, mv, 5, return_index_map=True))
            out[f"ssim k {dt} {mv}"] = outcome(lambda: tf.image.ssim(a, b, mv, 5, 1.0, 0.05, 0.1))
            for fs in (3, 2):
                out[f"msssim {dt} {mv} {fs} 3 scales"] = outcome(
                    lambda: tf.image.ssim_multiscale(a, b, mv, (0.2, 0.3, 0.5), fs))
            out[f"sobel {dt}"] = outcome(lambda: tf.image.sobel_edges(a))
    a = image(tf, "q args a", (2, 24, 24, 3), "float32")
    b = image(tf, "q args b", (2, 24, 24, 3), "float32")
    for k, fn in {
        "psnr max tensor": lambda: tf.image.psnr(a, b, tf.constant(1.0)),
        "psnr max float64 tensor": lambda: tf.image.psnr(a, b, tf.constant(1.0, tf.float64)),
        "psnr shapes": lambda: tf.image.psnr(a, b[:, :20], 1.0),
        "psnr dtypes": lambda: tf.image.psnr(a, tf.cast(b, tf.float64), 1.0),
        "ssim shapes": lambda: tf.image.ssim(a, b[:, :20], 1.0),
        "ssim rank 3": lambda: tf.image.ssim(a[0], b[0], 1.0),
        "ssim broadcast": lambda: tf.image.ssim(a, b[:1], 1.0, 5),
        "msssim default 24": lambda: tf.image.ssim_multiscale(a, b, 1.0),
        "msssim 5 scales 3": lambda: tf.image.ssim_multiscale(
            tf.image.resize(a, [40, 40]), tf.image.resize(b, [40, 40]), 1.0, filter_size=3),
        "sobel rank 3": lambda: tf.image.sobel_edges(a[0]),
        "msssim odd sizes": lambda: tf.image.ssim_multiscale(
            tf.image.resize(a, [27, 25]), tf.image.resize(b, [27, 25]), 1.0, (0.2, 0.3, 0.5), 3),
        "msssim odd sizes 4 scales": lambda: tf.image.ssim_multiscale(
            tf.image.resize(a, [29, 31]), tf.image.resize(b, [29, 31]), 1.0, (0.1, 0.2, 0.3, 0.4), 2),
    }.items():
        out[k] = outcome(fn)
    return out


program("ih-quality", _quality)


def _grad(tf: Any, fn: Callable[[Any], Any], *xs: Any) -> Any:
    """The gradients of sum(fn(*xs) · w) (w seeded by the output's shape) w.r.t. each x, or "raised <class>"."""
    try:
        vs = [tf.constant(x) for x in xs]
        with tf.GradientTape() as tape:
            for v in vs:
                tape.watch(v)
            y = fn(*vs)
            w = tf.constant(rng(f"w {list(y.shape)}").uniform(-1, 1, size=tuple(y.shape)).astype(np.float32))
            loss = tf.reduce_sum(tf.cast(y, tf.float32) * w)
        return obs([g if g is not None else tf.constant(-1) for g in tape.gradient(loss, vs)])
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def _gradients(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    x = rng("grad image").uniform(-0.25, 1.25, size=(2, 5, 7, 3)).astype(np.float32)
    for m in ("bilinear", "nearest", "bicubic", "area", "lanczos3", "mitchellcubic"):
        for size in ((9, 11), (3, 4), (5, 7), (8, 3)):
            for aa in (False, True):
                out[f"resize {m} {size} aa={aa}"] = _grad(
                    tf, lambda t: tf.image.resize(t, list(size), method=m, antialias=aa), x)
    for op in ("ResizeBilinear", "ResizeBicubic", "ResizeNearestNeighbor"):
        for ac, hp in ((False, False), (True, False), (False, True)):
            for size in ((9, 11), (3, 4)):
                out[f"{op} ac={ac} hp={hp} {size}"] = _grad(
                    tf, lambda t: getattr(tf.raw_ops, op)(images=t, size=list(size), align_corners=ac,
                                                          half_pixel_centers=hp), x)
    boxes = np.array([[0.1, 0.2, 0.7, 0.9], [0.8, 0.9, 0.2, 0.1], [-0.5, -0.2, 0.5, 0.6], [0.3, 0.1, 0.6, 0.8]],
                     np.float32)
    for m in ("bilinear", "nearest"):
        for crop in ((3, 4), (1, 4), (4, 1), (1, 1)):
            out[f"crop_and_resize {m} {crop}"] = _grad(
                tf, lambda t, b: tf.image.crop_and_resize(t, b, [0, 1, 0, 1], list(crop), method=m), x, boxes)
    for rates in ((1, 1, 1, 1), (1, 2, 1, 1), (1, 2, 3, 1)):
        for pad in ("VALID", "SAME"):
            out[f"extract_patches {rates} {pad}"] = _grad(
                tf, lambda t: tf.image.extract_patches(t, [1, 2, 2, 1], [1, 1, 2, 1], list(rates), pad), x)
    rgb = np.array([[[0.2, 0.9, 0.1], [0.5, 0.1, 0.8], [0.7, 0.3, 0.0], [0.0, 0.4, 0.2], [0.3, 0.3, 0.3],
                     [0.0, 0.0, 0.6], [0.9, 0.2, 0.5], [0.1, 0.6, 0.6]]], np.float32)
    for f in ("rgb_to_hsv", "hsv_to_rgb", "rgb_to_grayscale", "rgb_to_yuv", "adjust_saturation", "adjust_hue"):
        fn = getattr(tf.image, f)
        out[f"{f}"] = _grad(tf, (lambda t: fn(t, 0.3)) if f.startswith("adjust") else fn, rgb)
    tr = np.array([[1.1, 0.2, -0.5, -0.1, 0.9, 0.7, 0.01, -0.02]], np.float32)
    for interp in ("BILINEAR", "NEAREST"):
        for fill in ("CONSTANT", "REFLECT", "NEAREST"):
            out[f"projective {interp} {fill}"] = _grad(
                tf, lambda t: tf.raw_ops.ImageProjectiveTransformV3(
                    images=t, transforms=tf.constant(tr), output_shape=[6, 6], fill_value=0.5,
                    interpolation=interp, fill_mode=fill), x)
    for f in ("per_image_standardization", "total_variation", "flip_left_right", "transpose"):
        out[f] = _grad(tf, getattr(tf.image, f), x)
    out["central_crop"] = _grad(tf, lambda t: tf.image.central_crop(t, 0.6), x)
    out["resize_with_pad"] = _grad(tf, lambda t: tf.image.resize_with_pad(t, 8, 6), x)
    out["ssim"] = _grad(tf, lambda a, b: tf.image.ssim(a, b, 1.0, 3), x, x[::-1].copy())
    out["psnr"] = _grad(tf, lambda a, b: tf.image.psnr(a, b, 1.0), x, x[::-1].copy())
    return out


program("ih-gradients", _gradients)


def _random(tf: Any, mk: Any) -> Any:
    out: dict[str, Any] = {}
    x = image(tf, "random", (5, 6, 3), "float32")
    for size in ((5, 6, 3), (5, 2, 3), (2, 6, 3), (3, 4, 3), (1, 1, 1), (6, 6, 3)):
        tf.random.set_seed(7)
        out[f"random_crop {size}"] = outcome(lambda: [tf.image.random_crop(x, list(size), seed=3) for _ in range(3)])
        out[f"stateless_random_crop {size}"] = outcome(
            lambda: [tf.image.stateless_random_crop(x, list(size), seed=(s, 2)) for s in range(3)])
    for md in (0.0, 0.25, 0.5, 0.51, -0.1):
        tf.random.set_seed(7)
        out[f"random_hue {md}"] = outcome(lambda: tf.image.random_hue(x, md, seed=1))
        out[f"stateless_random_hue {md}"] = outcome(lambda: tf.image.stateless_random_hue(x, md, (1, 2)))
    for lo, hi in ((0.5, 1.5), (0.0, 1.0), (1.0, 1.0), (1.5, 0.5), (-0.5, 1.0)):
        tf.random.set_seed(7)
        out[f"random_contrast {lo} {hi}"] = outcome(lambda: tf.image.random_contrast(x, lo, hi, seed=1))
        out[f"random_saturation {lo} {hi}"] = outcome(lambda: tf.image.stateless_random_saturation(x, lo, hi, (3, 4)))
    for md in (0.0, 0.3, -0.1):
        tf.random.set_seed(7)
        out[f"random_brightness {md}"] = outcome(lambda: tf.image.random_brightness(x, md, seed=1))
    for f in ("random_flip_left_right", "random_flip_up_down"):
        tf.random.set_seed(7)
        out[f"{f}"] = outcome(lambda: [getattr(tf.image, f)(x, seed=2) for _ in range(4)])
        tf.random.set_seed(7)
        out[f"{f} batch"] = outcome(lambda: getattr(tf.image, f)(tf.stack([x] * 6), seed=2))
    # boxes exactly covering min_object_covered, and scores equal to the threshold
    bbox = tf.constant([[[0.0, 0.0, 0.5, 0.5]]])
    for cover in (0.25, 0.5, 1.0):
        out[f"distorted cover={cover}"] = outcome(lambda: [tf.image.stateless_sample_distorted_bounding_box(
            tf.constant([8, 8, 3]), bbox, (s, 1), min_object_covered=cover, area_range=(0.25, 0.25),
            aspect_ratio_range=(1.0, 1.0)) for s in range(4)])
    boxes = np.array([[0, 0, 1, 1], [0, 2, 1, 3], [0, 4, 1, 5], [0, 6, 1, 7]], np.float32)
    scores = np.array([0.9, 0.5, 0.5, 0.25], np.float32)
    for st in (0.5, 0.25, 0.9):
        for pad in (False, True):
            out[f"nms padded st={st} pad={pad}"] = outcome(
                lambda: tf.image.non_max_suppression_padded(boxes, scores, 4, 0.5, st, pad_to_max_output_size=pad))
        out[f"nms st={st}"] = outcome(lambda: tf.image.non_max_suppression(boxes, scores, 4, 0.5, st))
    return out


program("i-random", _random)


def _traced_values(tf: Any, mk: Any) -> Any:
    """The functions called through tf.function over specs with None dimensions (values, not only static shapes),
    sizes, offsets, fractions and k as tensor arguments."""
    out: dict[str, Any] = {}
    x = image(tf, "traced values", (2, 5, 6, 3), "float32")
    spec = tf.TensorSpec((None, None, None, 3), tf.float32)
    for m in ("bilinear", "nearest", "bicubic", "area", "lanczos3"):
        for par in (False, True):
            f = tf.function(lambda t, s: tf.image.resize(t, s, method=m, preserve_aspect_ratio=par),
                            input_signature=[spec, tf.TensorSpec((2,), tf.int32)])
            for size in ((3, 100), (8, 9), (2, 5)):
                out[f"resize {m} par={par} {size}"] = outcome(lambda: f(x, tf.constant(size)))
    g = tf.function(lambda t, a, b, c, d: (tf.image.crop_to_bounding_box(t, a, b, c, d),
                                           tf.image.pad_to_bounding_box(t, a, b, c + 5, d + 6)),
                    input_signature=[spec] + [tf.TensorSpec((), tf.int32)] * 4)
    for box in ((0, 0, 5, 6), (1, 2, 3, 3), (2, 1, 4, 4), (-1, 0, 2, 2), (0, 0, 0, 2)):
        out[f"crop/pad {box}"] = outcome(lambda: g(x, *[tf.constant(v) for v in box]))
    h = tf.function(lambda t, th, tw: (tf.image.resize_with_crop_or_pad(t, th, tw),
                                       tf.image.resize_with_pad(t, th, tw)),
                    input_signature=[spec] + [tf.TensorSpec((), tf.int32)] * 2)
    for th, tw in ((8, 9), (3, 4), (5, 6), (7, 2), (0, 3)):
        out[f"crop_or_pad/with_pad {th}x{tw}"] = outcome(lambda: h(x, tf.constant(th), tf.constant(tw)))
    for k, fn in {   # (eagerly a tensor target's check is an Assert op too: InvalidArgumentError)
        "eager crop_or_pad tensor 0": lambda: tf.image.resize_with_crop_or_pad(x, tf.constant(0), 4),
        "eager with_pad tensor -1": lambda: tf.image.resize_with_pad(x, 3, tf.constant(-1)),
        "eager with_pad 0 and tensor -1": lambda: tf.image.resize_with_pad(x, 0, tf.constant(-1)),
        "eager crop_or_pad 0 and tensor 0": lambda: tf.image.resize_with_crop_or_pad(x, 0, tf.constant(0)),
        "eager with_pad tensor 0 and -1": lambda: tf.image.resize_with_pad(x, tf.constant(0), -1),
    }.items():
        out[k] = outcome(fn)
    c = tf.function(lambda t, f: tf.image.central_crop(t, f), input_signature=[spec, tf.TensorSpec((), tf.float32)])
    for frac in (0.5, 0.33, 1.0, 0.1):
        out[f"central {frac}"] = outcome(lambda: c(x, tf.constant(frac)))
    r = tf.function(lambda t, k: (tf.image.rot90(t, k), tf.image.transpose(t), tf.image.flip_left_right(t)),
                    input_signature=[spec, tf.TensorSpec((), tf.int32)])
    for k in (-5, 0, 1, 2, 3, 6):
        out[f"rot90 k={k}"] = outcome(lambda: r(x, tf.constant(k)))
    a = tf.function(lambda t, d: (tf.image.adjust_brightness(t, d), tf.image.adjust_contrast(t, d),
                                  tf.image.adjust_gamma(t, d), tf.image.adjust_hue(t, d - 1.0),
                                  tf.image.adjust_saturation(t, d)),
                    input_signature=[spec, tf.TensorSpec((), tf.float32)])
    for d in (0.5, 1.5, -0.5):
        out[f"adjust {d}"] = outcome(lambda: a(x, tf.constant(d)))
    return out


program("i-traced-values", _traced_values)
