"""Does the suite kill bugs planted at the image area's degenerate points (session 22, degen22a)?
Plant each (one of OWN below, not in the catalogue) in a private copy of the committed package and run
chosen suite files against it (simdist backend), every failing test listed (suite_kills.py's plant-and-run).

    python benchmarks/degen22a_kills.py ID [ID ...]     # own:NAME, own (all OWN), baseline
    python benchmarks/degen22a_kills.py --before own    # against the image area's modules before session 22
                                                        # (benchmarks/degen22a_audit.py's DEFAULT_FILES)

OWN was written from the degeneracy audit (benchmarks/degen22a_audit.py, docs/conformance.md "Twenty-second
session: degeneracy audit (image layers and tf.image)") before any test of the degen22a family existed: each
bug is invisible at the point where the suite's programs sit (square images, channels_last only, float
images only, an option at its default, even differences, a non-constant image) and visible off it.
Prints one line per mutant: killed (with every failing test) or survived.
"""

from __future__ import annotations

import sys

from degen22a_audit import DEFAULT_FILES
from suite_kills import expand as _expand, find as _find, mutants, run as _run

_L = "simdist/keras/layers/preprocessing/image/"
_IB = "simdist/runtime/ops/image_basic.py"


def _m(mid: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, "degenerate", path, old, new, why, layer="training")


#: Ten bugs, one degenerate point each (the point named in `why`).
OWN = {m.id: m for m in [
    _m("rotation-height-width-swapped", _L + "random_rotation.py",
       "        image_height, image_width = shape[first], shape[first + 1]",
       "        image_height, image_width = shape[first + 1], shape[first]",
       "RandomRotation rotates about (cx, cy) from a swapped (height, width): invisible on square images"),
    _m("translation-height-width-swapped", _L + "random_translation.py",
       "else (shape[-3], shape[-2])",
       "else (shape[-2], shape[-3])",
       "RandomTranslation scales the vertical shift by the width and the horizontal by the height "
       "(channels_last): invisible on square images"),
    _m("flip-channels-first-axes-swapped", _L + "random_flip.py",
       'horizontal_axis, vertical_axis = (-2, -3) if self.data_format == "channels_last" else (-1, -2)',
       'horizontal_axis, vertical_axis = (-2, -3) if self.data_format == "channels_last" else (-2, -1)',
       "RandomFlip('horizontal') flips the rows of a channels_first image: invisible channels_last only"),
    _m("resizing-crop-aspect-wstart-from-height", "simdist/keras/ops/tf_image.py",
       "        crop_box_wstart = tf.cast(\n            tf.cast(width - crop_width, \"float32\") / 2, \"int32\"",
       "        crop_box_wstart = tf.cast(\n            tf.cast(height - crop_height, \"float32\") / 2, \"int32\"",
       "Resizing(crop_to_aspect_ratio=True) takes the crop's column start from the height: invisible with the "
       "option at its default (False)"),
    _m("gaussian-blur-kernel-transposed", "simdist/keras/ops/tf_image.py",
       "            return tf.tensordot(kernel1d_y, kernel1d_x, axes=0)",
       "            return tf.tensordot(kernel1d_x, kernel1d_y, axes=0)",
       "keras.ops.image.gaussian_blur (RandomGaussianBlur) applies sigma[0] along the height: invisible with "
       "equal sigmas (a collapsed sigma range) and a square kernel"),
    _m("shear-y-upper-bound-dropped", _L + "random_shear.py",
       "        shear_y = uniform(minval=self.y_factor[0], maxval=self.y_factor[1], shape=[batch_size, 1], seed=seed,",
       "        shear_y = uniform(minval=self.y_factor[0], maxval=self.y_factor[0], shape=[batch_size, 1], seed=seed,",
       "RandomShear draws shear_y in [lo, lo]: invisible with y_factor at its default 0"),
    _m("to-float-casts-integers", _IB,
       "    return image if image.dtype in (dtypes.float16, dtypes.float32) else convert_image_dtype(image, "
       "dtypes.float32)",
       "    return image if image.dtype in (dtypes.float16, dtypes.float32) else _ops().cast(image, dtypes.float32)",
       "tf.image.adjust_brightness/contrast/gamma take an integer image to float by Cast, not by 1/max: "
       "invisible on float images"),
    _m("resize-crop-or-pad-offset-rounded-up", _IB,
       "    cropped = crop_to_bounding_box(img, max(-hd // 2, 0), max(-wd // 2, 0), min(th, height), min(tw, width))",
       "    cropped = crop_to_bounding_box(img, max(-(hd // 2), 0), max(-(wd // 2), 0), min(th, height), "
       "min(tw, width))",
       "tf.image.resize_with_crop_or_pad crops at ceil(excess / 2): invisible at even differences"),
    _m("pad-to-bounding-box-after-h-from-width", _IB,
       "    after_w, after_h = tw - ow - width, th - oh - height",
       "    after_w, after_h = tw - ow - width, th - oh - width",
       "tf.image.pad_to_bounding_box pads the bottom by the target height less the width: invisible on square "
       "images"),
    _m("per-image-standardization-min-stddev-dropped", _IB,
       "    adjusted = ops.maximum(std, min_std)\n",
       "    adjusted = std\n",
       "tf.image.per_image_standardization divides by the stddev without its 1/sqrt(N) floor: invisible on "
       "non-constant images"),
]}


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None, before: bool = False) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the degen22a family
    (or, `before`, the image area's modules that existed before it)."""
    if before:
        return _run(m, " or ".join(f.removesuffix(".py") for f in DEFAULT_FILES), every_failure=True)
    return _run(m, "degen22a", every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in OWN]})


if __name__ == "__main__":
    args = sys.argv[1:]
    before = "--before" in args
    for mid in expand([a for a in args if a != "--before"]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid), before)}", flush=True)
