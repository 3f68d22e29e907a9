"""`tf.image`: resize (every method; simdist/runtime/ops/resize_images.py) and the basic image functions
(runtime/ops/image_basic.py: flips, rotations, crops, pads, dtype conversion, brightness,
contrast, gamma, standardization, colour spaces, gradients, quality measures, stateless random
augmentations; clause ops.image), the stateful random augmentations and YIQ (image_random.py,
ops.image-random), ssim_multiscale (image_msssim.py) and the box ops (image_nms*.py,
image_crop_resize.py, image_draw_boxes.py: ops.image-boxes), and the image codecs TF also
exports here (image_codecs.py: io.image-codecs)."""

from simdist.runtime.ops.resize_images import ResizeMethod, resize  # noqa: F401
from simdist.runtime.ops.image_basic import (adjust_brightness, adjust_contrast, adjust_gamma,  # noqa: F401
                                             central_crop, convert_image_dtype, crop_to_bounding_box,
                                             flip_left_right, flip_up_down, grayscale_to_rgb, image_gradients,
                                             pad_to_bounding_box, per_image_standardization, psnr,
                                             resize_with_crop_or_pad, rgb_to_grayscale, rgb_to_yuv, rot90,
                                             sobel_edges, stateless_random_brightness, stateless_random_contrast,
                                             stateless_random_crop, stateless_random_flip_left_right,
                                             stateless_random_flip_up_down, total_variation, transpose, yuv_to_rgb,
                                             resize_with_pad, ssim, stateless_random_hue, stateless_random_saturation)
from simdist.runtime.ops.image_color import adjust_hue, adjust_saturation, hsv_to_rgb, rgb_to_hsv  # noqa: F401,E402
from simdist.runtime.ops.image_patches import extract_patches  # noqa: F401,E402
from simdist.runtime.ops.image_glimpse import extract_glimpse  # noqa: F401,E402
from simdist.runtime.ops.image_box_proposals import generate_bounding_box_proposals  # noqa: F401,E402
from simdist.runtime.ops.image_distorted_box import (sample_distorted_bounding_box,  # noqa: F401,E402
                                                      stateless_sample_distorted_bounding_box)
from simdist.runtime.ops.image_random import (random_brightness, random_contrast, random_crop,  # noqa: F401,E402
                                              random_flip_left_right, random_flip_up_down, random_hue,
                                              random_saturation, rgb_to_yiq, yiq_to_rgb)
from simdist.runtime.ops.image_nms import (non_max_suppression, non_max_suppression_overlaps,  # noqa: F401,E402
                                           non_max_suppression_with_scores)
from simdist.runtime.ops.image_crop_resize import crop_and_resize  # noqa: F401,E402
from simdist.runtime.ops.image_draw_boxes import draw_bounding_boxes  # noqa: F401,E402
from simdist.runtime.ops.image_nms_padded import non_max_suppression_padded  # noqa: F401,E402
from simdist.runtime.ops.image_nms_combined import combined_non_max_suppression  # noqa: F401,E402
from simdist.runtime.ops.image_msssim import ssim_multiscale  # noqa: F401,E402
from simdist.runtime.ops.image_codecs import (adjust_jpeg_quality, decode_and_crop_jpeg, decode_bmp, decode_gif,  # noqa: F401,E402
                                              decode_image, decode_jpeg, decode_jxl, decode_png, decode_webp,
                                              encode_jpeg, encode_png, extract_jpeg_shape,
                                              is_jpeg, random_jpeg_quality, stateless_random_jpeg_quality)

from simdist.runtime.ops import ragged_dispatch as _ragged_dispatch  # noqa: E402
_ragged_dispatch.install(globals(), "image.")   # (RaggedTensor arguments: TF's ragged dispatch, clause ops.ragged)
