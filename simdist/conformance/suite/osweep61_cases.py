"""keras.ops by rule (sixty-first session, osweep61; test_osweep61.py): ops.image, ops.nn's activations and
normalizations, keras.ops' math and numpy reductions, each function crossed with its options off their defaults and
at them (an argument omitted), value classes, dtypes and modes, bit for bit against TF 2.21's recorded results.

What is crossed (the suite called keras.ops mostly through layers and a few functions at their defaults; 28 of the
functions below had no direct call in the suite):
- ops.image: resize × interpolation (bilinear, nearest, bicubic, lanczos3, lanczos5, area) × antialias × up/down
  sizes × crop_to_aspect_ratio / pad_to_aspect_ratio with fill_value × data_format, over values outside [0, 1] and
  [0, 255], in float16/float32/float64 and uint8/int32 (the refusals' classes are results); affine_transform ×
  interpolation nearest/bilinear × fill_mode constant/nearest/wrap/mirror/reflect × fill_value × data_format;
  perspective_transform; map_coordinates × order 0/1 × fill_mode; crop_images/pad_images by offsets and by targets;
  extract_patches (size, strides, dilation_rate, padding) and extract_patches_3d; rgb_to_hsv/hsv_to_rgb/
  rgb_to_grayscale over in- and out-of-range values and both data formats; gaussian_blur (kernel sizes, sigmas);
  sobel_edges; ssim (max_val, filter_size); scale_and_translate × method × antialias; refused arguments (wrong rank,
  unknown interpolation, fill_mode) by exception class; the gradient of resize/affine_transform by tf.GradientTape;
- ops.nn: relu6, sigmoid, softplus, softsign, soft_shrink, sparse_plus, sparse_sigmoid, silu, squareplus,
  log_sigmoid, leaky_relu, hard_sigmoid, hard_silu, hard_tanh, hard_shrink, tanh_shrink, threshold, elu, selu, gelu,
  celu with their options off their defaults, over ±0, ± the smallest subnormal, ±1, ties at thresholds, ±inf, NaN
  and large values, in float16/bfloat16/float32/float64, eagerly, inside a tf.function and their gradients; softmax,
  log_softmax, sparsemax, glu × axis; psnr × max_val; moments × axes × keepdims over data far from zero; normalize ×
  order × axis × epsilon; rms_normalization, layer_normalization, batch_normalization with their options; the
  crossentropies × from_logits × axis;
- keras.ops' math and reductions: logsumexp, logaddexp (distant operands), erf, erfinv, rsqrt, log1p, expm1, sinc,
  hypot, top_k (sorted), in_top_k (ties), segment_sum/max (num_segments, sorted), extract_sequences; mean, sum, var,
  std, average (weights), median, quantile (methods), ptp, nanmean, max, min, prod, cumsum × axis None/int/negative/
  tuple × keepdims, in four float dtypes and int32.

Every program is recorded as host-dependent (the half types' packet math and the reductions' order are the CPU's):
simdist runs them under its reference model of the AVX-512 oneDNN recording host. `python -m
simdist.conformance.suite.test_osweep61 --record` rewrites osweep61_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "osweep61_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("o-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

FLOATS = ("float16", "bfloat16", "float32", "float64")

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-first session ... osweep61"; /work/wt/osweep61_logs: dump.py/diff.py over both backends, q_ssim.py).
#: 11 of 2,959 case results, four classes:
#: - ssim (float32 and float64, filter_size 3, 5, 7, 11): its single-channel Conv2D (a (k, k, 1, 1) Gaussian kernel,
#:   VALID) differs from TF 2.21 in the last bits of some outputs (float64 11×11 over a 12×13 image: outputs 0, 1,
#:   2, 3 off by 2, 1, 1, 5 ulps; 3×3: 2 of 4) — Eigen's SpatialConvolution contraction order for one input channel,
#:   not modelled (the Gaussian kernel itself, exp and the outer product, agree bit for bit: q_ssim.py);
#: - gaussian_blur's gradient in float16 with a 3×5 kernel (the depthwise filter's input gradient, float16: some
#:   values one ulp off);
#: - keras.ops.prod of bfloat16 over two axes ((0, 2) and (-1, -2)): one value of four one bfloat16 ulp off (the
#:   reduction's order/upcast of a bfloat16 product over a non-contiguous pair of axes);
#: - psnr of bfloat16 inside a tf.function (max_val 255): 7.0 on TF, 7.25 on simdist; eager agrees (Grappler's
#:   rewrite of the bfloat16 log/division chain).
OPEN: dict[str, tuple[str, ...]] = {
    'o-img-colour-float16': ('blur (3, 5) (0.25, 3.0) grad',),
    'o-img-colour-float32': ('ssim cf', 'ssim k', 'ssim max 255 filter 5'),
    'o-img-colour-float64': ('ssim cf', 'ssim default', 'ssim k', 'ssim max 255 filter 5'),
    'o-math-bfloat16': ('prod (-1, -2) True', 'prod (0, 2) False'),
    'o-nn-norm-bfloat16': ('psnr 255.0 fn',),
}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def val(v: Any) -> Any:
    """A result: its dtype, shape and values (floats by the hex of their exact value), a Python value as such, a
    sequence item by item."""
    if hasattr(v, "dtype") and hasattr(v, "numpy"):
        return [v.dtype.name, list(np.shape(v))] + bits(v)
    if isinstance(v, (bool, int, str)) or v is None:
        return v
    if isinstance(v, float):
        return float(v).hex()
    if isinstance(v, (list, tuple)):
        return [val(x) for x in v]
    return type(v).__name__


def res(fn: Callable[[], Any]) -> Any:
    try:
        return val(fn())
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def modes(tf: Any, out: dict[str, Any], key: str, f: Callable[[Any], Any], x: Any, traced: bool = True,
          grad: bool = True) -> None:
    """f(x) eagerly; inside a tf.function; its gradient w.r.t. x of a non-uniform upstream (eager). A mode that
    raised is not continued (the class is the result)."""
    out[key] = res(lambda: f(x))
    if isinstance(out[key], str):
        return
    if traced:
        out[key + " fn"] = res(lambda: tf.function(f, autograph=False)(x))
    if grad and x.dtype.is_floating:
        def g() -> Any:
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = f(x)
                if isinstance(y, (list, tuple)):
                    y = tf.concat([tf.reshape(t, [-1]) for t in y], 0)
            w = tf.cast(tf.reshape(tf.range(1, tf.size(y) + 1) % 4 + 1, tf.shape(y)), y.dtype) * tf.constant(0.75, y.dtype)
            return tape.gradient(y, x, output_gradients=w)
        out[key + " grad"] = res(g)


# -- special values ---------------------------------------------------------------------------------------------------
def specials(dt: str) -> list[float]:
    """±0, ± the dtype's smallest subnormal, ±1, ±0.5, ±inf, NaN, large values, and a ramp."""
    tiny = {"float16": 2.0 ** -24, "bfloat16": 2.0 ** -133, "float32": 2.0 ** -149, "float64": 2.0 ** -1074}[dt]
    big = {"float16": 60000.0, "bfloat16": 3.0e38, "float32": 3.0e38, "float64": 1.0e300}[dt]
    return [0.0, -0.0, tiny, -tiny, 1.0, -1.0, 0.5, -0.5, 2.0, -2.0, 3.0, -3.0, 6.0, -6.0, 0.25, -0.25,
            20.0, -20.0, 90.0, -90.0, big, -big, float("inf"), float("-inf"), float("nan"), 1e-3, -1e-3,
            1.5, -1.5, 2.5, -2.5, 0.75]


def image(r: np.random.RandomState, shape: tuple[int, ...], lo: float, hi: float, step: float) -> np.ndarray:
    """Values on a grid of `step` in [lo, hi] (exact in every float dtype used)."""
    n = int(round((hi - lo) / step))
    return (lo + step * r.randint(0, n + 1, size=shape)).astype(np.float64)


# -- 1. ops.image.resize ----------------------------------------------------------------------------------------------
def _resize(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        r = rng(f"o-img-resize-{dt}")
        out: dict[str, Any] = {}
        base = image(r, (2, 5, 7, 3), -40.0, 300.0, 0.25) if dt not in ("uint8",) else image(r, (2, 5, 7, 3), 0, 255, 1)
        x = tf.constant(base.astype(dt) if dt != "bfloat16" else base, dtype=dt)
        xcf = tf.transpose(x, [0, 3, 1, 2])
        floating = dt.startswith("float")
        for interp in ("bilinear", "nearest", "bicubic", "lanczos3", "lanczos5", "area"):
            for size in ((3, 4), (9, 11), (5, 3)):
                for aa in (False, True):
                    if aa and interp in ("area",):
                        continue
                    key = f"{interp} {size} aa={aa}"
                    f = (lambda s, i, a: lambda v: k.image.resize(v, s, interpolation=i, antialias=a))(size, interp, aa)
                    modes(tf, out, key, f, x, traced=(size == (3, 4) and floating), grad=(floating and size == (3, 4)
                                                                                          and not aa))
            out[f"{interp} cf"] = res(lambda: k.image.resize(xcf, (4, 9), interpolation=interp,
                                                             data_format="channels_first"))
            out[f"{interp} crop"] = res(lambda: k.image.resize(x, (6, 4), interpolation=interp,
                                                               crop_to_aspect_ratio=True))
            out[f"{interp} pad"] = res(lambda: k.image.resize(x, (6, 4), interpolation=interp,
                                                              pad_to_aspect_ratio=True, fill_value=-7.5))
        out["default"] = res(lambda: k.image.resize(x, (4, 4)))
        out["rank3"] = res(lambda: k.image.resize(x[0], (3, 9)))
        out["crop cf"] = res(lambda: k.image.resize(xcf, (3, 8), crop_to_aspect_ratio=True,
                                                    data_format="channels_first"))
        out["pad cf"] = res(lambda: k.image.resize(xcf, (8, 3), pad_to_aspect_ratio=True, fill_value=2.5,
                                                   data_format="channels_first"))
        out["pad default fill"] = res(lambda: k.image.resize(x, (8, 3), pad_to_aspect_ratio=True))
        out["crop and pad"] = res(lambda: k.image.resize(x, (8, 3), crop_to_aspect_ratio=True, pad_to_aspect_ratio=True))
        out["unknown interp"] = res(lambda: k.image.resize(x, (3, 3), interpolation="cubic"))
        out["rank2"] = res(lambda: k.image.resize(x[0, :, :, 0], (3, 3)))
        out["size 1"] = res(lambda: k.image.resize(x, (1, 1), interpolation="bilinear"))
        out["bad size"] = res(lambda: k.image.resize(x, (3,)))
        return out
    return run


for _dt in ("float32", "float16", "float64", "uint8"):
    program(f"o-img-resize-{_dt}", _resize(_dt))


# -- 2. geometric transforms ------------------------------------------------------------------------------------------
def _geometry(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        r = rng(f"o-img-geom-{dt}")
        out: dict[str, Any] = {}
        x = tf.constant(image(r, (2, 6, 5, 2), -30.0, 290.0, 0.5), dtype=dt)
        xcf = tf.transpose(x, [0, 3, 1, 2])
        # a rotation-and-shift, a scaling, a pure shift beyond the image (every fill shows)
        tr = tf.constant([[0.875, -0.25, 1.5, 0.375, 0.75, -1.25, 0.0, 0.0],
                          [1.25, 0.0, -2.5, 0.0, 1.5, 3.0, 0.0625, 0.0]], dtype=dt)
        for interp in ("nearest", "bilinear"):
            for fm in ("constant", "nearest", "wrap", "mirror", "reflect"):
                key = f"affine {interp} {fm}"
                f = (lambda i, m: lambda v: k.image.affine_transform(v, tr, interpolation=i, fill_mode=m,
                                                                     fill_value=-3.5))(interp, fm)
                modes(tf, out, key, f, x, traced=(fm in ("constant", "reflect")),
                      grad=(interp == "bilinear" and fm in ("constant", "wrap")))
            out[f"affine {interp} cf"] = res(lambda: k.image.affine_transform(
                xcf, tr, interpolation=interp, fill_mode="nearest", data_format="channels_first"))
        out["affine default"] = res(lambda: k.image.affine_transform(x, tr))
        out["affine one transform"] = res(lambda: k.image.affine_transform(x[0], tr[0]))
        out["affine bicubic"] = res(lambda: k.image.affine_transform(x, tr, interpolation="bicubic"))
        out["affine bad fill"] = res(lambda: k.image.affine_transform(x, tr, fill_mode="edge"))
        out["affine bad rank"] = res(lambda: k.image.affine_transform(x[0, 0], tr))
        sp = tf.constant([[[0.0, 0.0], [4.0, 0.0], [0.0, 5.0], [4.0, 5.0]]] * 2, dtype=dt)
        ep = tf.constant([[[0.5, 0.25], [3.5, 1.0], [-0.5, 4.5], [5.0, 6.0]],
                          [[1.0, 0.0], [4.0, 0.5], [0.0, 5.0], [3.0, 4.0]]], dtype=dt)
        for interp in ("nearest", "bilinear"):
            modes(tf, out, f"perspective {interp}", lambda v: k.image.perspective_transform(
                v, sp, ep, interpolation=interp, fill_value=9.0), x, traced=False, grad=(interp == "bilinear"))
        out["perspective default"] = res(lambda: k.image.perspective_transform(x, sp, ep))
        out["perspective cf"] = res(lambda: k.image.perspective_transform(xcf, sp, ep, data_format="channels_first"))
        img = tf.constant(image(r, (5, 6), -4.0, 12.0, 0.25), dtype=dt)
        coords = tf.constant(np.stack([image(r, (3, 4), -2.0, 7.0, 0.125), image(r, (3, 4), -2.0, 8.0, 0.125)]),
                             dtype=dt)
        for order in (0, 1):
            for fm in ("constant", "nearest", "wrap", "mirror", "reflect"):
                modes(tf, out, f"map {order} {fm}", (lambda o, m: lambda v: k.image.map_coordinates(
                    v, coords, o, fill_mode=m, fill_value=-1.5))(order, fm), img, traced=(fm == "wrap"),
                    grad=(order == 1 and fm in ("constant", "reflect")))
        out["map default fill"] = res(lambda: k.image.map_coordinates(img, coords, 1))
        out["map order 3"] = res(lambda: k.image.map_coordinates(img, coords, 3))
        out["map bad coords"] = res(lambda: k.image.map_coordinates(img, coords[:1], 1))
        # crop and pad by offsets and by targets, both formats
        out["crop offsets"] = res(lambda: k.image.crop_images(x, top_cropping=1, left_cropping=2, bottom_cropping=2,
                                                              right_cropping=0))
        out["crop targets"] = res(lambda: k.image.crop_images(x, top_cropping=2, left_cropping=1, target_height=3,
                                                              target_width=3))
        out["crop bottom right targets"] = res(lambda: k.image.crop_images(x, bottom_cropping=1, right_cropping=2,
                                                                           target_height=4, target_width=2))
        out["crop cf"] = res(lambda: k.image.crop_images(xcf, top_cropping=1, left_cropping=1, target_height=2,
                                                         target_width=3, data_format="channels_first"))
        out["crop rank3"] = res(lambda: k.image.crop_images(x[0], top_cropping=3, right_cropping=1))
        out["crop none"] = res(lambda: k.image.crop_images(x))
        out["crop too much"] = res(lambda: k.image.crop_images(x, top_cropping=4, bottom_cropping=4))
        out["pad offsets"] = res(lambda: k.image.pad_images(x, top_padding=1, left_padding=2, bottom_padding=0,
                                                            right_padding=3))
        out["pad targets"] = res(lambda: k.image.pad_images(x, top_padding=1, left_padding=0, target_height=9,
                                                            target_width=6))
        out["pad bottom right targets"] = res(lambda: k.image.pad_images(x, bottom_padding=2, right_padding=1,
                                                                         target_height=8, target_width=6))
        out["pad cf"] = res(lambda: k.image.pad_images(xcf, top_padding=2, left_padding=1, target_height=8,
                                                       target_width=7, data_format="channels_first"))
        out["pad rank3"] = res(lambda: k.image.pad_images(x[0], left_padding=1, right_padding=2))
        out["pad none"] = res(lambda: k.image.pad_images(x))
        # patches
        for size, strides, dil, pad in (((2, 2), None, 1, "valid"), ((2, 3), (1, 2), 1, "same"),
                                        (3, 2, 1, "valid"), ((2, 2), (1, 1), 2, "valid"), ((3, 2), (2, 1), 1, "same"),
                                        ((2, 2), 1, 2, "same")):
            key = f"patches {size} {strides} {dil} {pad}"
            modes(tf, out, key, (lambda s, st, d, p: lambda v: k.image.extract_patches(
                v, s, strides=st, dilation_rate=d, padding=p))(size, strides, dil, pad), x, traced=False,
                grad=(pad == "same" and dil == 1))
        out["patches cf"] = res(lambda: k.image.extract_patches(xcf, (2, 2), strides=(2, 1),
                                                                data_format="channels_first"))
        out["patches rank3"] = res(lambda: k.image.extract_patches(x[0], 2))
        vol = tf.constant(image(r, (1, 4, 4, 3, 2), -5.0, 5.0, 0.5), dtype=dt)
        for size, strides, dil, pad in ((2, None, 1, "valid"), ((2, 2, 1), (1, 2, 1), 1, "same"),
                                        ((2, 2, 2), 1, 2, "valid")):
            out[f"patches3d {size} {strides} {dil} {pad}"] = res(lambda: k.image.extract_patches_3d(
                vol, size, strides=strides, dilation_rate=dil, padding=pad))
        return out
    return run


for _dt in ("float32", "float64", "float16"):
    program(f"o-img-geom-{_dt}", _geometry(_dt))


# -- 3. colour, blur, edges, ssim, scale_and_translate -----------------------------------------------------------------
def _colour(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        r = rng(f"o-img-colour-{dt}")
        out: dict[str, Any] = {}
        unit = image(r, (2, 3, 4, 3), 0.0, 1.0, 1.0 / 64)
        unit[0, 0, 0] = [0.5, 0.5, 0.5]          # grey: no hue
        unit[0, 0, 1] = [0.0, 0.0, 0.0]          # black: no saturation
        unit[0, 0, 2] = [1.0, 0.0, 1.0]          # magenta: the hue's wrap
        unit[0, 0, 3] = [0.25, 1.0, 1.0]         # ties of the maximum
        unit[0, 1, 0] = [1.0, 1.0, 0.0]
        wide = image(r, (2, 3, 4, 3), -60.0, 300.0, 0.5)
        wide[1, 0, 0] = [-0.0, 0.0, -0.0]
        wide[1, 0, 1] = [255.0, 255.0, 255.0]
        wide[1, 0, 2] = [-1.0, -2.0, -1.0]
        for vname, v in (("unit", unit), ("wide", wide)):
            x = tf.constant(v, dtype=dt)
            xcf = tf.transpose(x, [0, 3, 1, 2])
            for fn in ("rgb_to_hsv", "hsv_to_rgb", "rgb_to_grayscale"):
                f = getattr(k.image, fn)
                modes(tf, out, f"{fn} {vname}", f, x, traced=(vname == "unit"), grad=(vname == "unit"))
                out[f"{fn} {vname} cf"] = res(lambda: f(xcf, data_format="channels_first"))
            out[f"roundtrip {vname}"] = res(lambda: k.image.hsv_to_rgb(k.image.rgb_to_hsv(x)))
        x = tf.constant(unit, dtype=dt)
        out["rgb_to_hsv rank3"] = res(lambda: k.image.rgb_to_hsv(x[0]))
        out["rgb_to_hsv rank2"] = res(lambda: k.image.rgb_to_hsv(x[0, 0]))
        out["rgb_to_grayscale 4 channels"] = res(lambda: k.image.rgb_to_grayscale(tf.concat([x, x[..., :1]], -1)))
        out["rgb_to_hsv int"] = res(lambda: k.image.rgb_to_hsv(tf.constant(unit * 255, dtype="int32")))
        out["rgb_to_grayscale int"] = res(lambda: k.image.rgb_to_grayscale(tf.constant(wide, dtype="int32")))
        out["rgb_to_grayscale uint8"] = res(lambda: k.image.rgb_to_grayscale(
            tf.constant(np.abs(wide) % 256, dtype="uint8")))
        y = tf.constant(image(r, (2, 7, 6, 2), -20.0, 280.0, 0.25), dtype=dt)
        ycf = tf.transpose(y, [0, 3, 1, 2])
        for ks, sg in (((3, 3), (1.0, 1.0)), ((5, 3), (2.0, 0.5)), ((1, 1), (1.0, 1.0)), ((3, 5), (0.25, 3.0)),
                       ((4, 4), (1.5, 1.5))):
            modes(tf, out, f"blur {ks} {sg}", (lambda a, b: lambda v: k.image.gaussian_blur(
                v, kernel_size=a, sigma=b))(ks, sg), y, traced=(ks == (5, 3)), grad=(ks == (3, 5)))
        out["blur default"] = res(lambda: k.image.gaussian_blur(y))
        out["blur cf"] = res(lambda: k.image.gaussian_blur(ycf, (3, 5), (1.0, 2.0), data_format="channels_first"))
        out["blur rank3"] = res(lambda: k.image.gaussian_blur(y[0], (3, 3), (0.75, 0.75)))
        modes(tf, out, "sobel", k.image.sobel_edges, y, traced=True)
        out["sobel cf"] = res(lambda: k.image.sobel_edges(ycf, data_format="channels_first"))
        out["sobel rank3"] = res(lambda: k.image.sobel_edges(y[0]))
        z = tf.constant(image(r, (2, 12, 13, 2), 0.0, 1.0, 1.0 / 128), dtype=dt)
        z2 = tf.constant(image(r, (2, 12, 13, 2), 0.0, 1.0, 1.0 / 128), dtype=dt)
        out["ssim default"] = res(lambda: k.image.ssim(z, z2))
        out["ssim same"] = res(lambda: k.image.ssim(z, z))
        out["ssim max 255 filter 5"] = res(lambda: k.image.ssim(z * 255, z2 * 255, max_val=255.0, filter_size=5,
                                                                filter_sigma=0.75))
        out["ssim k"] = res(lambda: k.image.ssim(z, z2, filter_size=3, k1=0.05, k2=0.1))
        out["ssim cf"] = res(lambda: k.image.ssim(tf.transpose(z, [0, 3, 1, 2]), tf.transpose(z2, [0, 3, 1, 2]),
                                                  filter_size=7, data_format="channels_first"))
        s = tf.constant(image(r, (1, 5, 6, 2), -8.0, 20.0, 0.25), dtype=dt)
        for method in ("linear", "bilinear", "cubic", "lanczos3", "lanczos5", "nearest"):
            for aa in (True, False):
                for shape, sc, trn in (((1, 8, 9, 2), (1.5, 1.5), (0.0, 0.0)), ((1, 3, 4, 2), (0.5, 0.75),
                                                                                 (0.25, -1.0))):
                    out[f"scale {method} {aa} {shape[1:3]}"] = res(lambda: k.image.scale_and_translate(
                        s, shape, tf.constant(sc, dt), tf.constant(trn, dt), spatial_dims=(1, 2), method=method,
                        antialias=aa))
        return out
    return run


for _dt in ("float32", "float64", "float16"):
    program(f"o-img-colour-{_dt}", _colour(_dt))


# -- 4. ops.nn activations --------------------------------------------------------------------------------------------
def _acts(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        n = tf.keras.ops.nn
        out: dict[str, Any] = {}
        x = tf.constant(np.array(specials(dt)), dtype=dt)
        cases: dict[str, Callable[[Any], Any]] = {
            "relu6": n.relu6, "sigmoid": n.sigmoid, "softplus": n.softplus, "softsign": n.softsign,
            "soft_shrink": n.soft_shrink, "soft_shrink 2": lambda v: n.soft_shrink(v, threshold=2.0),
            "soft_shrink 0": lambda v: n.soft_shrink(v, threshold=0.0),
            "sparse_plus": n.sparse_plus, "sparse_sigmoid": n.sparse_sigmoid, "silu": n.silu,
            "squareplus": n.squareplus, "squareplus 0": lambda v: n.squareplus(v, b=0),
            "squareplus 0.5": lambda v: n.squareplus(v, b=0.5),
            "log_sigmoid": n.log_sigmoid, "leaky_relu": n.leaky_relu,
            "leaky_relu 0.5": lambda v: n.leaky_relu(v, negative_slope=0.5),
            "leaky_relu -1": lambda v: n.leaky_relu(v, negative_slope=-1.0),
            "hard_sigmoid": n.hard_sigmoid, "hard_silu": n.hard_silu, "hard_swish": n.hard_swish,
            "hard_tanh": n.hard_tanh, "hard_shrink": n.hard_shrink, "hard_shrink 1": lambda v: n.hard_shrink(v, 1.0),
            "tanh_shrink": n.tanh_shrink, "threshold": lambda v: n.threshold(v, 0.5, -2.0),
            "threshold 0": lambda v: n.threshold(v, 0.0, 0.0),
            "elu": n.elu, "elu 0.5": lambda v: n.elu(v, alpha=0.5), "elu 2": lambda v: n.elu(v, alpha=2.0),
            "selu": n.selu, "gelu": n.gelu, "gelu exact": lambda v: n.gelu(v, approximate=False),
            "celu": n.celu, "celu 0.5": lambda v: n.celu(v, alpha=0.5), "celu 3": lambda v: n.celu(v, alpha=3.0),
            "swish": n.swish, "relu": n.relu,
        }
        for key, f in cases.items():
            modes(tf, out, key, f, x, traced=True, grad=True)
        near = tf.constant(np.array([1e-4, -1e-4, 2.0 ** -10, -2.0 ** -10, 0.0625, -0.0625, 2.0 ** -20,
                                     -2.0 ** -20, -7.5, -12.0, -17.0, -30.0]), dtype=dt)
        for key in ("elu", "selu", "celu", "celu 0.5", "log_sigmoid", "softplus", "gelu", "gelu exact", "silu",
                    "sigmoid", "tanh_shrink"):
            modes(tf, out, key + " near", cases[key], near, traced=False, grad=True)
        return out
    return run


for _dt in FLOATS:
    program(f"o-nn-act-{_dt}", _acts(_dt))


# -- 5. softmaxes, normalizations, psnr, moments, losses --------------------------------------------------------------
def _norms(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        n = tf.keras.ops.nn
        r = rng(f"o-nn-norm-{dt}")
        out: dict[str, Any] = {}
        x = tf.constant(image(r, (2, 3, 4), -6.0, 6.0, 0.125), dtype=dt)
        s = np.array(image(r, (2, 3, 4), -6.0, 6.0, 0.125))
        s[0, 0] = [0.0, -0.0, 0.0, -0.0]
        s[0, 1] = [np.inf, 1.0, 2.0, 3.0]
        s[0, 2] = [-np.inf, -np.inf, 1.0, 1.0]
        s[1, 0] = [np.nan, 1.0, 2.0, 3.0]
        s[1, 1] = [60.0, 60.0, -60.0, 59.0]
        xs = tf.constant(s, dtype=dt)
        for fn in ("softmax", "log_softmax", "sparsemax"):
            f = getattr(n, fn)
            for ax in (-1, 0, 1, (1, 2), None):
                if ax is None:
                    out[f"{fn} omitted"] = res(lambda: f(x))
                    continue
                modes(tf, out, f"{fn} {ax}", (lambda a: lambda v: f(v, axis=a))(ax), x, traced=(ax == 1),
                      grad=(ax in (0, -1)))
            modes(tf, out, f"{fn} specials", f, xs, traced=False, grad=False)
        for ax in (-1, 0, 1):
            modes(tf, out, f"glu {ax}", (lambda a: lambda v: n.glu(v, axis=a))(ax), x, traced=False, grad=True)
        out["glu odd"] = res(lambda: n.glu(x[..., :3]))
        out["glu specials"] = res(lambda: n.glu(xs))
        # psnr × max_val
        a = tf.constant(image(r, (2, 4, 4, 3), 0.0, 255.0, 0.5), dtype=dt)
        b = tf.constant(image(r, (2, 4, 4, 3), 0.0, 255.0, 0.5), dtype=dt)
        for mv in (1.0, 255.0, 0.5):
            modes(tf, out, f"psnr {mv}", (lambda m: lambda v: n.psnr(v, b, m))(mv), a, traced=(mv == 255.0), grad=True)
        out["psnr same"] = res(lambda: n.psnr(a, a, 255.0))
        out["psnr unit"] = res(lambda: n.psnr(a / 255.0, b / 255.0, 1.0))
        out["psnr shapes"] = res(lambda: n.psnr(a, b[0], 255.0))
        # moments over data far from zero
        m = tf.constant(1000.0 + image(r, (3, 4, 5), -0.5, 0.5, 1.0 / 32), dtype=dt)
        for axes, kd in (([0], False), ([1, 2], True), ([-1], False), ([0, 1, 2], False), ((0, 2), True)):
            modes(tf, out, f"moments {axes} {kd}", (lambda ax, k_: lambda v: n.moments(v, ax, keepdims=k_))(axes, kd),
                  m, traced=(axes == [0]), grad=(axes in ([0], [-1])))
        out["moments plain"] = res(lambda: n.moments(x, [0, 1]))
        out["moments specials"] = res(lambda: n.moments(xs, [-1]))
        # normalize × order × axis × epsilon
        for order in (2, 1, 3):
            for ax in (-1, 0, (1, 2)):
                modes(tf, out, f"normalize {order} {ax}", (lambda o, a_: lambda v: n.normalize(v, axis=a_, order=o))(
                    order, ax), xs, traced=False, grad=(ax == -1))
        out["normalize eps"] = res(lambda: n.normalize(x, epsilon=0.5))
        out["normalize zero eps"] = res(lambda: n.normalize(xs * 0, epsilon=1e-3))
        out["normalize omitted"] = res(lambda: n.normalize(x))
        out["normalize order 0"] = res(lambda: n.normalize(x, order=0))
        out["normalize order -1"] = res(lambda: n.normalize(x, order=-1))
        # rms / layer / batch normalization
        sc = tf.constant([1.5, -0.5, 2.0, 0.25], dtype=dt)
        bt = tf.constant([0.0, 1.0, -1.0, 0.5], dtype=dt)
        for key, f in {
            "rms": lambda v: n.rms_normalization(v),
            "rms scale eps": lambda v: n.rms_normalization(v, scale=sc, epsilon=0.25),
            "rms axis 1": lambda v: n.rms_normalization(v, axis=1),
            "layer": lambda v: n.layer_normalization(v),
            "layer gamma beta": lambda v: n.layer_normalization(v, gamma=sc, beta=bt, epsilon=0.5),
            "layer axis 1": lambda v: n.layer_normalization(v, axis=1),
            "layer axes": lambda v: n.layer_normalization(v, axis=(1, 2)),
            "layer rms_scaling": lambda v: n.layer_normalization(v, gamma=sc, rms_scaling=True),
            "batch": lambda v: n.batch_normalization(v, bt, sc * sc, axis=-1),
            "batch offset scale": lambda v: n.batch_normalization(v, bt, sc * sc, axis=-1, offset=bt, scale=sc,
                                                                  epsilon=0.125),
            "batch axis 1": lambda v: n.batch_normalization(v, bt[:3], sc[:3] * sc[:3], axis=1),
        }.items():
            modes(tf, out, key, f, x, traced=(key in ("rms", "layer", "batch")), grad=True)
            out[key + " specials"] = res(lambda: f(xs))
        # crossentropies × from_logits × axis
        lg = tf.constant(image(r, (3, 4), -5.0, 5.0, 0.25), dtype=dt)
        pr = tf.nn.softmax(lg)
        lab = tf.constant(np.eye(4)[[1, 3, 0]], dtype=dt)
        sl = tf.constant([1, 3, 0])
        bl = tf.constant(image(r, (3, 4), 0.0, 1.0, 0.25), dtype=dt)
        bp = tf.constant(np.array([[0.0, 1.0, 0.5, 1e-9], [0.25, 0.75, 1.0, 0.0], [0.125, 0.5, 0.999, 0.001]]), dtype=dt)
        for fl in (False, True):
            inp = lg if fl else pr
            modes(tf, out, f"cce {fl}", lambda v: n.categorical_crossentropy(lab, v, from_logits=fl), inp,
                  traced=False)
            out[f"cce {fl} axis 0"] = res(lambda: n.categorical_crossentropy(tf.transpose(lab), tf.transpose(inp),
                                                                             from_logits=fl, axis=0))
            modes(tf, out, f"scce {fl}", lambda v: n.sparse_categorical_crossentropy(sl, v, from_logits=fl), inp,
                  traced=False)
            binp = lg if fl else bp
            modes(tf, out, f"bce {fl}", lambda v: n.binary_crossentropy(bl, v, from_logits=fl), binp, traced=False)
        out["cce unnormalised"] = res(lambda: n.categorical_crossentropy(lab, pr * 3.0))
        # certain predictions: probabilities of exactly 1 and 0 (the clip to [eps, 1 - eps] at both ends)
        certain = tf.constant(np.array([[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0], [0.5, 0.0, 0.5, 0.0]]), dtype=dt)
        modes(tf, out, "cce certain", lambda v: n.categorical_crossentropy(lab, v), certain, traced=False)
        out["cce certain axis 0"] = res(lambda: n.categorical_crossentropy(tf.transpose(lab), tf.transpose(certain),
                                                                           axis=0))
        modes(tf, out, "bce certain", lambda v: n.binary_crossentropy(lab, v), certain, traced=False)
        # the softmax/sigmoid outputs that carry their logits (Keras's `_keras_logits`), eagerly and traced (the
        # graph's Softmax/Sigmoid op), at logits where the probabilities saturate
        wide = lg * 12.0
        out["cce keras softmax"] = res(lambda: n.categorical_crossentropy(lab, n.softmax(wide)))
        out["cce keras softmax logits"] = res(lambda: n.categorical_crossentropy(lab, n.softmax(wide),
                                                                                 from_logits=True))
        out["scce keras softmax"] = res(lambda: n.sparse_categorical_crossentropy(sl, n.softmax(wide)))
        out["bce keras sigmoid"] = res(lambda: n.binary_crossentropy(bl, n.sigmoid(wide)))
        modes(tf, out, "cce softmax traced", lambda v: n.categorical_crossentropy(lab, tf.nn.softmax(v)), wide)
        modes(tf, out, "bce sigmoid traced", lambda v: n.binary_crossentropy(bl, tf.nn.sigmoid(v)), wide)
        modes(tf, out, "scce softmax traced", lambda v: n.sparse_categorical_crossentropy(sl, tf.nn.softmax(v)), wide)
        return out
    return run


for _dt in ("float32", "float16", "float64", "bfloat16"):
    program(f"o-nn-norm-{_dt}", _norms(_dt))


# -- 6. keras.ops math and numpy reductions ---------------------------------------------------------------------------
def _math(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        r = rng(f"o-math-{dt}")
        out: dict[str, Any] = {}
        floating = dt.startswith("float") or dt == "bfloat16"
        sp = np.array(specials(dt) if floating else [0, 1, -1, 7, -7, 2 ** 31 - 1, -2 ** 31, 3, 3, 100, -100, 5])
        xs = tf.constant(sp, dtype=dt)
        if floating:
            for fn in ("erf", "erfinv", "rsqrt", "log1p", "expm1", "sinc"):
                modes(tf, out, fn, getattr(k, fn), xs, traced=(fn in ("rsqrt", "erfinv")), grad=True)
            u = tf.constant(np.array([0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.0, -1.0, 1.5, 1e-4, 0.25, 0.875]), dtype=dt)
            modes(tf, out, "erfinv unit", k.erfinv, u, traced=False, grad=True)
            # logaddexp of distant and equal operands, infinities
            a = tf.constant(np.array([0.0, 30.0, -30.0, 100.0, 1.0, -np.inf, np.inf, -np.inf, np.nan, 5.0, -0.0,
                                      20.0]), dtype=dt)
            b = tf.constant(np.array([0.0, -30.0, 30.0, 100.0, 1.0, -np.inf, 1.0, 3.0, 1.0, 5.0 + 2 ** -8, -0.0,
                                      -20.0]), dtype=dt)
            modes(tf, out, "logaddexp", lambda v: k.logaddexp(v, b), a, traced=True, grad=True)
            modes(tf, out, "hypot", lambda v: k.hypot(v, b), a, traced=False, grad=True)
            # the larger operand at or near zero, the other 3 ... 50 below (the log1p term is the whole result)
            a0 = tf.constant(np.array([0.0, 0.0, 0.0, 0.0, -0.0, 0.0, 0.125, 1.0, -1.0, 0.0, 0.5, 0.0]), dtype=dt)
            b0 = tf.constant(np.array([-3.0, -10.0, -17.0, -30.0, -20.0, -50.0, -12.0, -9.0, -8.0, -1.0, -0.5, -6.0]),
                             dtype=dt)
            modes(tf, out, "logaddexp near zero", lambda v: k.logaddexp(v, b0), a0, traced=True, grad=True)
            out["logaddexp near zero swapped"] = res(lambda: k.logaddexp(b0, a0))
        m = np.array(image(r, (3, 4, 5), -8.0, 8.0, 0.125))
        if floating:
            m[0, 0, :] = [1000.0, 1000.0, 1000.0, 1000.0, 1000.0]
            m[1, 1, :] = [0.0, -0.0, 0.0, -0.0, 0.0]
            m[2, 2, 0] = 30.0
        else:
            m = np.round(m * 8)
        x = tf.constant(m, dtype=dt)
        xs2 = tf.constant(np.array(specials(dt)[:30]).reshape(5, 6), dtype=dt) if floating else None
        for fn in ("logsumexp", "mean", "sum", "var", "std", "max", "min", "prod", "median", "ptp", "nanmean"):
            if fn == "logsumexp" and not floating:
                continue
            f = getattr(k, fn)
            for ax, kd in ((None, False), (0, False), (-1, True), ((0, 2), False), (1, True), ((-1, -2), True)):
                key = f"{fn} {ax} {kd}"
                modes(tf, out, key, (lambda a_, kd_: lambda v: f(v, axis=a_, keepdims=kd_))(ax, kd), x,
                      traced=(ax == 0), grad=(floating and ax in (None, -1) and fn not in ("median", "ptp")))
            out[f"{fn} omitted"] = res(lambda: f(x))
            if floating:
                out[f"{fn} specials 0"] = res(lambda: f(xs2, axis=0))
                out[f"{fn} specials 1"] = res(lambda: f(xs2, axis=1))
        if floating:
            big = tf.constant(1000.0 + image(r, (4, 6), -0.5, 0.5, 1.0 / 64), dtype=dt)
            for fn in ("var", "std", "logsumexp", "mean"):
                out[f"{fn} offset"] = res(lambda: getattr(k, fn)(big, axis=0))
        w = tf.constant(image(r, (4,), 0.0, 2.0, 0.25) + 0.25, dtype=dt if floating else "float32")
        w5 = tf.constant(image(r, (5,), 0.0, 2.0, 0.25) + 0.25, dtype=dt if floating else "float32")
        wx = tf.constant(image(r, (3, 4, 5), 0.0, 2.0, 0.25), dtype=dt if floating else "float32")
        out["average None"] = res(lambda: k.average(x))
        out["average 1 w"] = res(lambda: k.average(x, axis=1, weights=w))
        out["average -1 w"] = res(lambda: k.average(x, axis=-1, weights=w5))
        out["average full w"] = res(lambda: k.average(x, weights=wx))
        out["average full w 0"] = res(lambda: k.average(x, axis=0, weights=wx))
        if floating:
            modes(tf, out, "average grad", lambda v: k.average(v, axis=1, weights=w), x, traced=True, grad=True)
        for q in (0.5, 0.25, 0.9):
            for method in ("linear", "lower", "higher", "midpoint", "nearest"):
                out[f"quantile {q} {method}"] = res(lambda: k.quantile(x, q, axis=1, method=method))
        out["quantile vec"] = res(lambda: k.quantile(x, tf.constant([0.0, 0.5, 1.0], "float64"), keepdims=True))
        out["cumsum None"] = res(lambda: k.cumsum(x))
        out["cumsum -1"] = res(lambda: k.cumsum(x, axis=-1))
        out["cumprod 1"] = res(lambda: k.cumprod(x / 4 if floating else x, axis=1))
        # top_k, in_top_k, segments, extract_sequences
        tk = tf.constant(np.array([[3.0, 1.0, 3.0, 2.0, 0.0, 3.0], [-0.0, 0.0, -1.0, 5.0, 5.0, 4.0]]), dtype=dt)
        out["top_k 3"] = res(lambda: k.top_k(tk, 3))
        out["top_k 3 unsorted"] = res(lambda: k.top_k(tk, 3, sorted=False))
        out["top_k 6"] = res(lambda: k.top_k(tk, 6))
        out["top_k 7"] = res(lambda: k.top_k(tk, 7))
        out["in_top_k"] = res(lambda: k.in_top_k(tf.constant([0, 3]), tk, 1))
        out["in_top_k ties"] = res(lambda: k.in_top_k(tf.constant([2, 4]), tk, 2))
        data = tf.constant(image(r, (6, 3), -4.0, 4.0, 0.25), dtype=dt)
        ids = tf.constant([0, 0, 2, 2, 2, 3])
        uids = tf.constant([3, 0, 2, 0, 2, 1])
        for fn in ("segment_sum", "segment_max"):
            f = getattr(k, fn)
            out[f"{fn}"] = res(lambda: f(data, ids))
            out[f"{fn} n=5"] = res(lambda: f(data, ids, num_segments=5))
            out[f"{fn} sorted"] = res(lambda: f(data, ids, sorted=True))
            out[f"{fn} unsorted ids"] = res(lambda: f(data, uids, num_segments=4))
            out[f"{fn} n=3 drops"] = res(lambda: f(data, ids, num_segments=3))
        seq = tf.constant(image(r, (2, 11), -3.0, 3.0, 0.25), dtype=dt)
        for ln, st in ((4, 2), (3, 3), (5, 1), (11, 4), (2, 5)):
            out[f"extract_sequences {ln} {st}"] = res(lambda: k.extract_sequences(seq, ln, st))
        return out
    return run


for _dt in ("float32", "float64", "float16", "bfloat16", "int32"):
    program(f"o-math-{_dt}", _math(_dt))


# -- 7. symbolic inputs: each op's inferred output spec (shape and dtype) ---------------------------------------------
def _spec(tf: Any) -> Any:
    k = tf.keras.ops
    KT = tf.keras.KerasTensor
    out: dict[str, Any] = {}

    def spec(v: Any) -> Any:
        if isinstance(v, (list, tuple)):
            return [spec(t) for t in v]
        return [list(v.shape), str(v.dtype)]

    def add(key: str, fn: Callable[[], Any]) -> None:
        try:
            out[key] = spec(fn())
        except Exception as e:  # noqa: BLE001 - the class is the observation
            out[key] = f"raised {type(e).__name__}"
    img = KT((2, 9, 8, 3), dtype="float16")
    imgn = KT((None, 9, 8, 3), dtype="float32")
    imgcf = KT((2, 3, 9, 8), dtype="float32")
    add("crop offsets", lambda: k.image.crop_images(img, top_cropping=1, left_cropping=2, bottom_cropping=3,
                                                    right_cropping=1))
    add("crop targets", lambda: k.image.crop_images(imgn, top_cropping=2, left_cropping=1, target_height=4,
                                                    target_width=3))
    add("crop right", lambda: k.image.crop_images(img, bottom_cropping=2, right_cropping=3, target_height=5,
                                                  target_width=4))
    add("crop cf", lambda: k.image.crop_images(imgcf, top_cropping=1, bottom_cropping=2, left_cropping=3,
                                               right_cropping=1, data_format="channels_first"))
    add("pad offsets", lambda: k.image.pad_images(img, top_padding=1, left_padding=2, bottom_padding=3,
                                                  right_padding=1))
    add("pad targets", lambda: k.image.pad_images(imgn, top_padding=1, left_padding=2, target_height=12,
                                                  target_width=11))
    add("pad cf", lambda: k.image.pad_images(imgcf, bottom_padding=2, right_padding=1, target_height=12,
                                             target_width=10, data_format="channels_first"))
    for interp in ("bilinear", "nearest", "area"):
        add(f"resize {interp}", lambda: k.image.resize(img, (4, 5), interpolation=interp))
    add("resize cf", lambda: k.image.resize(imgcf, (4, 5), data_format="channels_first"))
    add("resize crop", lambda: k.image.resize(imgn, (4, 6), crop_to_aspect_ratio=True))
    add("patches", lambda: k.image.extract_patches(img, (2, 3), strides=(2, 2)))
    add("patches same", lambda: k.image.extract_patches(img, 3, padding="same"))
    add("patches dil", lambda: k.image.extract_patches(img, 2, strides=1, dilation_rate=2))
    add("patches3d", lambda: k.image.extract_patches_3d(KT((1, 5, 6, 4, 2)), (2, 3, 2), strides=(1, 2, 2)))
    for fn in ("rgb_to_grayscale", "rgb_to_hsv", "hsv_to_rgb", "sobel_edges"):
        add(fn, lambda: getattr(k.image, fn)(img))
        add(fn + " cf", lambda: getattr(k.image, fn)(imgcf, data_format="channels_first"))
    add("gaussian_blur", lambda: k.image.gaussian_blur(img, (5, 3), (1.0, 2.0)))
    add("affine", lambda: k.image.affine_transform(img, KT((2, 8), dtype="float16")))
    add("ssim", lambda: k.image.ssim(imgn, imgn))
    add("map", lambda: k.image.map_coordinates(KT((5, 6)), KT((2, 3, 4)), 1))
    for dt in ("float16", "float32", "bfloat16", "int32"):
        x = KT((3, 7, 11), dtype=dt)
        add(f"top_k {dt}", lambda: k.top_k(x, 4))
        add(f"top_k unsorted {dt}", lambda: k.top_k(x, 2, sorted=False))
        add(f"digitize {dt}", lambda: k.digitize(x, np.array([0.0, 1.0, 2.5])))
        add(f"rearrange {dt}", lambda: k.rearrange(x, "a b c -> c (a b)"))
        add(f"rearrange split {dt}", lambda: k.rearrange(KT((6, 4), dtype=dt), "(h w) c -> h w c", h=2))
        add(f"unstack 1 {dt}", lambda: k.unstack(x, axis=1))
        add(f"unstack -1 {dt}", lambda: k.unstack(x, axis=-1))
        add(f"unstack 0 {dt}", lambda: k.unstack(x))
        add(f"unstack num {dt}", lambda: k.unstack(x, num=7, axis=1))
        if dt != "int32":
            add(f"var {dt}", lambda: k.var(x, axis=(0, 2), keepdims=True))
            add(f"logsumexp {dt}", lambda: k.logsumexp(x, axis=1))
            add(f"moments {dt}", lambda: k.moments(x, axes=[0, 1]))
            add(f"psnr {dt}", lambda: k.psnr(x, x, 1.0))
            add(f"normalize {dt}", lambda: k.normalize(x, axis=1))
    for ln, st, n in ((4, 2, 11), (3, 3, 11), (11, 1, 11), (5, 3, 12), (2, 5, 3)):
        add(f"extract_sequences {ln} {st} {n}", lambda: k.extract_sequences(KT((2, n)), ln, st))
    add("extract_sequences none", lambda: k.extract_sequences(KT((None, 10)), 4, 3))
    for r_, c_, full in ((5, 3, False), (3, 5, False), (4, 4, False), (5, 3, True), (3, 5, True)):
        add(f"svd {r_}x{c_} full={full}", lambda: k.svd(KT((2, r_, c_)), full_matrices=full))
        add(f"svd {r_}x{c_} uv={full}", lambda: k.svd(KT((r_, c_)), full_matrices=full, compute_uv=False))
        add(f"qr {r_}x{c_}", lambda: k.qr(KT((r_, c_)), mode="complete" if full else "reduced"))
    for pad in ("same", "valid"):
        for st in (1, 2, 3):
            add(f"conv_transpose {pad} {st}", lambda: k.conv_transpose(KT((2, 5, 4, 3)), KT((3, 3, 6, 3)), st,
                                                                          padding=pad))
            add(f"conv_transpose 1d {pad} {st}", lambda: k.conv_transpose(KT((2, 7, 3)), KT((2, 6, 3)), st,
                                                                             padding=pad))
            add(f"conv {pad} {st}", lambda: k.conv(KT((2, 7, 6, 3)), KT((3, 2, 3, 4)), st, padding=pad))
    add("conv_transpose output_padding", lambda: k.conv_transpose(KT((2, 5, 4, 3)), KT((3, 3, 6, 3)), 2,
                                                                     padding="same", output_padding=1))
    add("adaptive avg", lambda: k.adaptive_average_pool(KT((2, 10, 7, 3)), (3, 4)))
    add("adaptive max cf", lambda: k.adaptive_max_pool(KT((2, 3, 10, 7)), 4, data_format="channels_first"))
    add("stft", lambda: k.stft(KT((2, 40)), 12, 5, 16))
    add("stft nocenter", lambda: k.stft(KT((2, 40)), 12, 5, 16, center=False))
    add("scce (b,t,1)", lambda: k.sparse_categorical_crossentropy(KT((2, 5, 1), dtype="int32"), KT((2, 5, 4))))
    add("cce unit dim", lambda: k.categorical_crossentropy(KT((2, 1)), KT((2, 4))))
    add("bce unit dim", lambda: k.binary_crossentropy(KT((2, 1)), KT((2, 4))))
    return out


program("o-spec", _spec)


# -- 8. the rest of keras.ops' options: adaptive pools, stft, fori_loop, norm's ords, conv_transpose, loss shapes ---
def _misc(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        k = tf.keras.ops
        r = rng(f"o-misc-{dt}")
        out: dict[str, Any] = {}
        x = tf.constant(image(r, (2, 10, 7, 3), -6.0, 6.0, 0.125), dtype=dt)
        xcf = tf.transpose(x, [0, 3, 1, 2])
        for osz in ((3, 4), (5, 7), (4, 3), 1, (10, 7), (6, 5), (2, 2)):
            for fn in ("adaptive_average_pool", "adaptive_max_pool"):
                if osz == 1 and fn == "adaptive_max_pool":
                    continue   # TF 2.21 dies of SIGFPE (MaxPool's eager fallback, osweep61_logs)
                f = getattr(k, fn)
                modes(tf, out, f"{fn} {osz}", (lambda g, o: lambda v: g(v, o))(f, osz), x, traced=(osz == (3, 4)),
                      grad=(osz == (3, 4)))
        out["adaptive avg cf"] = res(lambda: k.adaptive_average_pool(xcf, (4, 3), data_format="channels_first"))
        out["adaptive max cf"] = res(lambda: k.adaptive_max_pool(xcf, (3, 5), data_format="channels_first"))
        out["adaptive avg 1d"] = res(lambda: k.adaptive_average_pool(x[:, :, 0, :], 3))
        out["adaptive max 1d"] = res(lambda: k.adaptive_max_pool(x[:, :, 0, :], 4))
        sig = tf.constant(image(r, (2, 40), -1.0, 1.0, 1.0 / 64), dtype=dt)
        for ln, st, fl, win, center in ((12, 5, 16, "hann", True), (13, 4, 16, "hann", False),
                                        (8, 8, 8, "hamming", True), (11, 3, 16, None, True),
                                        (9, 4, 16, "hamming", False)):
            key = f"stft {ln} {st} {fl} {win} {center}"
            out[key] = res(lambda: k.stft(sig, ln, st, fl, window=win, center=center))
            st_ = out[key]
            if not isinstance(st_, str):
                out[f"istft {ln} {st} {fl} {win} {center}"] = res(lambda: k.istft(
                    k.stft(sig, ln, st, fl, window=win, center=center), ln, st, fl, window=win, center=center))
        out["fori_loop"] = res(lambda: k.fori_loop(1, 5, lambda i, v: v * 2 + tf.cast(i, v.dtype),
                                                   tf.constant(0.5, dt)))
        out["fori_loop empty"] = res(lambda: k.fori_loop(3, 3, lambda i, v: v + 1, tf.constant(0.5, dt)))
        out["fori_loop fn"] = res(lambda: tf.function(lambda v: k.fori_loop(0, 4, lambda i, u: u * 3 - 1, v))(
            tf.constant(0.25, dt)))
        out["fori_loop tensor bounds"] = res(lambda: k.fori_loop(tf.constant(2), tf.constant(6),
                                                                 lambda i, v: v + tf.cast(i, v.dtype),
                                                                 tf.constant(1.0, dt)))
        vec = tf.constant(np.array([3.0, -4.0, 0.5, -0.25, 12.0, 0.0]), dtype=dt)
        mat = tf.constant(image(r, (3, 4), -5.0, 5.0, 0.25), dtype=dt)
        for ord_ in (None, 1, 2, 3, -1, -2, 0, 0.5, float("inf"), float("-inf")):
            out[f"norm vec {ord_}"] = res(lambda: k.norm(vec, ord=ord_))
        for ord_ in (None, "fro", "nuc", 1, -1, 2, -2, float("inf"), float("-inf")):
            out[f"norm mat {ord_}"] = res(lambda: k.norm(mat, ord=ord_))
        out["norm axis 0 keep"] = res(lambda: k.norm(mat, axis=0, keepdims=True))
        out["norm axis -1 inf"] = res(lambda: k.norm(mat, ord=float("-inf"), axis=-1))
        out["norm axes"] = res(lambda: k.norm(tf.reshape(mat, (1, 3, 4)), ord="fro", axis=(1, 2)))
        modes(tf, out, "norm grad", lambda v: k.norm(v, ord=float("-inf")), vec, traced=True, grad=True)
        img = tf.constant(image(r, (2, 5, 4, 3), -2.0, 2.0, 0.25), dtype=dt)
        ker = tf.constant(image(r, (3, 3, 6, 3), -1.0, 1.0, 0.125), dtype=dt)
        for pad in ("same", "valid"):
            for st in (1, 2, 3):
                out[f"conv_transpose {pad} {st}"] = res(lambda: k.conv_transpose(img, ker, st, padding=pad))
        out["conv_transpose output_padding"] = res(lambda: k.conv_transpose(img, ker, 2, padding="same",
                                                                            output_padding=1))
        out["conv_transpose fn"] = res(lambda: tf.function(lambda v: k.conv_transpose(v, ker, 2, padding="same"))(
            img))
        lg = tf.constant(image(r, (2, 5, 4), -4.0, 4.0, 0.25), dtype=dt)
        lab3 = tf.constant(r.randint(0, 4, size=(2, 5, 1)))
        out["scce (b,t,1)"] = res(lambda: k.sparse_categorical_crossentropy(lab3, lg, from_logits=True))
        out["scce (b,t)"] = res(lambda: k.sparse_categorical_crossentropy(lab3[..., 0], lg, from_logits=True))
        out["scce (b,1)"] = res(lambda: k.sparse_categorical_crossentropy(lab3[:, 0], lg[:, 0], from_logits=True))
        p2 = tf.constant(np.array([[0.25, 0.25, 0.25, 0.25], [0.5, 0.125, 0.125, 0.25]]), dtype=dt)
        out["cce unit dim"] = res(lambda: k.categorical_crossentropy(tf.constant([[1.0], [0.0]], dt), p2))
        out["bce unit dim"] = res(lambda: k.binary_crossentropy(tf.constant([[1.0], [0.0]], dt), p2))
        out["bce unit dim output"] = res(lambda: k.binary_crossentropy(p2, tf.constant([[0.5], [0.25]], dt)))
        out["cce rank mismatch"] = res(lambda: k.categorical_crossentropy(p2[0], p2))
        seq = tf.constant(image(r, (2, 3, 11), -1.0, 1.0, 0.125), dtype=dt)
        out["unstack 1"] = res(lambda: k.unstack(seq, axis=1))
        out["unstack -1 fn"] = res(lambda: tf.function(lambda v: k.unstack(v, axis=-1))(seq))
        out["digitize"] = res(lambda: k.digitize(seq, [-0.5, 0.0, 0.5]))
        out["rearrange"] = res(lambda: k.rearrange(seq, "a b c -> c (a b)"))
        out["svd reduced"] = res(lambda: [t.shape.as_list() for t in k.svd(mat, full_matrices=False)])
        out["svd reduced fn"] = res(lambda: [t.shape.as_list() for t in tf.function(
            lambda v: k.svd(v, full_matrices=False))(tf.transpose(mat))])
        out["top_k fn"] = res(lambda: tf.function(lambda v: k.top_k(v, 2))(mat))
        out["extract_sequences fn"] = res(lambda: tf.function(lambda v: k.extract_sequences(v, 4, 3))(seq))
        out["crop fn"] = res(lambda: tf.function(lambda v: k.image.crop_images(
            v, top_cropping=1, left_cropping=2, bottom_cropping=1, right_cropping=0))(img))
        return out
    return run


for _dt in ("float32", "float64"):
    program(f"o-misc-{_dt}", _misc(_dt))
