"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-eighth (clause ops.raw-ops): the
media summary kernels ImageSummary (a PNG per image; its tensor attr bad_color: every eager call TF 2.21's runtime
refuses, the kernel in a tf.function) and AudioSummaryV2 (a 16-bit PCM WAV per entry), AudioSummary (V1, removed
from TF 2.21's GraphDef) and EncodeJpegVariableQuality, each against real TensorFlow 2.21: the same raw call on both
backends gives the same dtype and bytes, or raises the same exception class; and the k-means helper kernels
KMC2ChainInitialization, KmeansPlusPlusInitialization and NearestNeighbors (clustering_ops.cc), the same values bit
for bit; and FusedPadConv2D and FusedResizeAndPadConv2D (conv_ops_fused_image_transform.cc: the later batch entries
computed from the first one's cached rows, as TF 2.21's kernel does), values within rounding; eagerly, inside a tf.function (the shape
functions' trace-time refusals) and under a GradientTape (TF declares the summaries not differentiable). Needs the
`tf` extra.

Host independence: the floating-point work compared here is ImageSummary's normalization (float min/max, one float
division, then a product and a sum per value in the image's dtype, each correctly rounded: TF's build has no FMA)
and AudioSummaryV2's sample scaling (a float product, roundf), and the clustering kernels' float sums of products
of at most three coordinates (Eigen's sequential order at those depths, whatever GEBP path a thread's shard of points
takes; six in KmeansPlusPlusInitialization's GEMV, below its 8-lane packets),
so the recorded answers hold on any host.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from edge_programs import eager as _e, tape as _t, traced as _tr
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RO = "ops.raw-ops"


def _eager(expr: str) -> Any:
    return _e(expr.replace("R.", "tf.raw_ops."))


def _traced(expr: str) -> Any:
    return _tr(expr.replace("R.", "tf.raw_ops."))


def _tape(expr: str, src: str) -> Any:
    return _t(expr.replace("R.", "tf.raw_ops."), src.replace("R.", "tf.raw_ops."))


_IMAGE_CASES: list[tuple[str, str, Any]] = [
    ("ImageSummary: tag=c('im'), tensor=tf.zeros([1,2,2,1])", _RO, _eager("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,1])), [-1])")),
    ("ImageSummary: tag=c('im'), tensor=tf.zeros([1,2,2,1]), bad_color=np.array([1,2,3],np.uint8)", _RO, _eager("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,1]), bad_color=np.array([1,2,3],np.uint8)), [-1])")),
    ('ImageSummary: tag=c(\'im\'), tensor=tf.zeros([1,2,2,1]), bad_color="garbage"', _RO, _eager('tf.reshape(R.ImageSummary(tag=tf.constant(\'im\'), tensor=tf.zeros([1,2,2,1]), bad_color="garbage"), [-1])')),
    ('ImageSummary: tag=c(\'im\'), tensor=tf.zeros([1,2,2,1]), bad_color="dtype: DT_UINT8 tensor_shape { dim { size: 3 } } int_val: 9"', _RO, _eager('tf.reshape(R.ImageSummary(tag=tf.constant(\'im\'), tensor=tf.zeros([1,2,2,1]), bad_color="dtype: DT_UINT8 tensor_shape { dim { size: 3 } } int_val: 9"), [-1])')),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(np.arange(2*2*3*3,dtype=np.float32).reshape(2,2,3,3)-5)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.arange(2*2*3*3,dtype=np.float32).reshape(2,2,3,3)-5)), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(np.arange(2*2*3*3,dtype=np.float32).reshape(2,2,3,3)-5), max_images=1", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.arange(2*2*3*3,dtype=np.float32).reshape(2,2,3,3)-5), max_images=1), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(np.arange(4*2*3*4,dtype=np.uint8).reshape(4,2,3,4)), max_images=5", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.arange(4*2*3*4,dtype=np.uint8).reshape(4,2,3,4)), max_images=5), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(rng(1).normal(size=(3,5,4,3)), tf.float64)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.random.default_rng(1).normal(size=(3,5,4,3)), tf.float64)), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(rng(2).normal(size=(3,5,4,1)), tf.float16)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.random.default_rng(2).normal(size=(3,5,4,1)), tf.float16)), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(rng(3).uniform(size=(2,7,6,3)), tf.float32)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.random.default_rng(3).uniform(size=(2,7,6,3)), tf.float32)), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c(rng(4).uniform(0, 1000, size=(2,7,6,4)), tf.float16)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant(np.random.default_rng(4).uniform(0, 1000, size=(2,7,6,4)), tf.float16)), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c([[[[1.0, float('nan'), 2.0], [3.0, 4.0, -1.0]]]])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant([[[[1.0, float('nan'), 2.0], [3.0, 4.0, -1.0]]]])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c([[[[1.0, float('inf'), 2.0], [3.0, 4.0, 1.0]]]]), bad_color=proto(np.array([7, 8, 9], np.uint8))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant([[[[1.0, float('inf'), 2.0], [3.0, 4.0, 1.0]]]]), bad_color=tf.make_tensor_proto(np.array([7, 8, 9], np.uint8))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c([[[[1e-7], [2e-7]]]])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant([[[[1e-7], [2e-7]]]])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c([[[[-1e-7], [2e-7]]]])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant([[[[-1e-7], [2e-7]]]])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=c([[[[float('nan')], [float('inf')]]]])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.constant([[[[float('nan')], [float('inf')]]]])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,2,3]), bad_color=proto(np.array([7, 8], np.uint8))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,3]), bad_color=tf.make_tensor_proto(np.array([7, 8], np.uint8))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,2,3], tf.uint8), bad_color=proto(np.array([7, 8], np.uint8))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,3], tf.uint8), bad_color=tf.make_tensor_proto(np.array([7, 8], np.uint8))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,2,3]), bad_color=proto(np.array([7, 8, 9], np.int32))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,3]), bad_color=tf.make_tensor_proto(np.array([7, 8, 9], np.int32))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,2,3]), bad_color=proto(np.uint8(7))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,3]), bad_color=tf.make_tensor_proto(np.uint8(7))), [-1])")),
    ("ImageSummary in a tf.function: tag=c(['im']), tensor=tf.zeros([1,2,2,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant(['im']), tensor=tf.zeros([1,2,2,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([2,2,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([2,2,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,2,2])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,2])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,0,2,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,0,2,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,0,2,3], tf.uint8)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,0,2,3], tf.uint8)), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([0,2,2,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([0,2,2,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,2,3], tf.int32)", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,2,3], tf.int32)), [-1])")),
    ("ImageSummary in a tf.function: tag=c(''), tensor=tf.zeros([1,2,2,3]), max_images=0", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant(''), tensor=tf.zeros([1,2,2,3]), max_images=0), [-1])")),
    ("ImageSummary in a tf.function: tag=c('x'), tensor=c([[[[-3.0], [0.0]], [[2.0], [-0.5]]]], tf.float64), max_images=2", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('x'), tensor=tf.constant([[[[-3.0], [0.0]], [[2.0], [-0.5]]]], tf.float64), max_images=2), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([0,0,2,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([0,0,2,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,0,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,0,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c(['im']), tensor=tf.zeros([1,2,0,3])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant(['im']), tensor=tf.zeros([1,2,0,3])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,0,2])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,0,2])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,2,0,3]), bad_color=proto(np.uint8(7))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,2,0,3]), bad_color=tf.make_tensor_proto(np.uint8(7))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,0,2,3]), bad_color=proto(np.array([1,2],np.uint8))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,0,2,3]), bad_color=tf.make_tensor_proto(np.array([1,2],np.uint8))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([0,0,2,3]), bad_color=proto(np.array([1,2],np.uint8))", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([0,0,2,3]), bad_color=tf.make_tensor_proto(np.array([1,2],np.uint8))), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([1,0,2**31,1])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([1,0,2**31,1])), [-1])")),
    ("ImageSummary in a tf.function: tag=c('im'), tensor=tf.zeros([0,2**15,2**15,1])", _RO, _traced("tf.reshape(R.ImageSummary(tag=tf.constant('im'), tensor=tf.zeros([0,2**15,2**15,1])), [-1])")),
]

_AUDIO_CASES: list[tuple[str, str, Any]] = [
    ("AudioSummaryV2: tag=c('a'), tensor=c([[[0.5,-0.25],[1.0,-1.0],[0.1,0.2]]]), sample_rate=c(8000.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.constant([[[0.5,-0.25],[1.0,-1.0],[0.1,0.2]]]), sample_rate=tf.constant(8000.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=c(rng(5).uniform(-1.2, 1.2, size=(4, 9, 3)), tf.float32), sample_rate=c(8000.5), max_outputs=2", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.constant(np.random.default_rng(5).uniform(-1.2, 1.2, size=(4, 9, 3)), tf.float32), sample_rate=tf.constant(8000.5), max_outputs=2), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=c(rng(6).uniform(-1, 1, size=(2, 5)), tf.float32), sample_rate=c(0.4), max_outputs=1", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.constant(np.random.default_rng(6).uniform(-1, 1, size=(2, 5)), tf.float32), sample_rate=tf.constant(0.4), max_outputs=1), [-1])")),
    ("AudioSummaryV2: tag=c(''), tensor=c([[0.5 / 32768, 1.5 / 32768, -0.5 / 32768, 2.5 / 32768]]), sample_rate=c(2.5)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant(''), tensor=tf.constant([[0.5 / 32768, 1.5 / 32768, -0.5 / 32768, 2.5 / 32768]]), sample_rate=tf.constant(2.5)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(3.5)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(3.5)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(4294967040.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(4294967040.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(4294967295.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(4294967295.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(float('nan'))", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(float('nan'))), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(-1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(-1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c([16000.0])", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant([16000.0])), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([3]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([3]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1,1,1]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1,1,1]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c(['a']), tensor=tf.zeros([1,1]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant(['a']), tensor=tf.zeros([1,1]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([0,3]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([0,3]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,0,2]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,0,2]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,2,0]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,2,0]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,0,0]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,0,0]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1,70000]), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1,70000]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1,65535]), sample_rate=c(70000.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1,65535]), sample_rate=tf.constant(70000.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,2,0]), sample_rate=c(1e10)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,2,0]), sample_rate=tf.constant(1e10)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,0,0]), sample_rate=c(1e10)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,0,0]), sample_rate=tf.constant(1e10)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(1.0), max_outputs=0", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(1.0), max_outputs=0), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1], tf.float64), sample_rate=c(1.0)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1], tf.float64), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=c(1, tf.int32)", _RO, _eager("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=tf.constant(1, tf.int32)), [-1])")),
    ('AudioSummaryV2: tag=c(1), tensor=tf.zeros([1,1]), sample_rate=c(1.0)', _RO, _eager('tf.reshape(R.AudioSummaryV2(tag=tf.constant(1), tensor=tf.zeros([1,1]), sample_rate=tf.constant(1.0)), [-1])')),
    ("AudioSummaryV2 in a tf.function: tag=c('a'), tensor=c([[0.25, -0.75]]), sample_rate=c(44100.0)", _RO, _traced("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.constant([[0.25, -0.75]]), sample_rate=tf.constant(44100.0)), [-1])")),
    ("AudioSummaryV2 in a tf.function: tag=c('a'), tensor=tf.zeros([3]), sample_rate=c(1.0)", _RO, _traced("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([3]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2 in a tf.function: tag=c(['a']), tensor=tf.zeros([1,1]), sample_rate=c(1.0)", _RO, _traced("tf.reshape(R.AudioSummaryV2(tag=tf.constant(['a']), tensor=tf.zeros([1,1]), sample_rate=tf.constant(1.0)), [-1])")),
    ("AudioSummaryV2 in a tf.function: tag=c('a'), tensor=tf.zeros([1,1], tf.float64), sample_rate=c(1.0)", _RO, _traced("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=tf.zeros([1,1], tf.float64), sample_rate=tf.constant(1.0)), [-1])")),
]

_AUDIO_V1_CASES: list[tuple[str, str, Any]] = [
    ("AudioSummary: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=8000.0", _RO, _eager("tf.reshape(R.AudioSummary(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=8000.0), [-1])")),
    ("AudioSummary: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=8000.0, max_outputs=0", _RO, _eager("tf.reshape(R.AudioSummary(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=8000.0, max_outputs=0), [-1])")),
    ("AudioSummary in a tf.function: tag=c('a'), tensor=tf.zeros([1,1]), sample_rate=8000.0", _RO, _traced("tf.reshape(R.AudioSummary(tag=tf.constant('a'), tensor=tf.zeros([1,1]), sample_rate=8000.0), [-1])")),
]

_JPEG_CASES: list[tuple[str, str, Any]] = [
    ('EncodeJpegVariableQuality: images=c(np.arange(2*3*3,dtype=np.uint8).reshape(2,3,3)), quality=c(50)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.constant(np.arange(2*3*3,dtype=np.uint8).reshape(2,3,3)), quality=tf.constant(50)), [-1])')),
    ('EncodeJpegVariableQuality: images=c(rng(8).integers(0, 256, size=(17, 23, 3), dtype=np.uint8)), quality=c(0)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.constant(np.random.default_rng(8).integers(0, 256, size=(17, 23, 3), dtype=np.uint8)), quality=tf.constant(0)), [-1])')),
    ('EncodeJpegVariableQuality: images=c(rng(9).integers(0, 256, size=(9, 33, 1), dtype=np.uint8)), quality=c(100)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.constant(np.random.default_rng(9).integers(0, 256, size=(9, 33, 1), dtype=np.uint8)), quality=tf.constant(100)), [-1])')),
    ('EncodeJpegVariableQuality: images=c(rng(8).integers(0, 256, size=(17, 23, 3), dtype=np.uint8)), quality=73', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.constant(np.random.default_rng(8).integers(0, 256, size=(17, 23, 3), dtype=np.uint8)), quality=73), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,3], tf.uint8), quality=c(101)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3], tf.uint8), quality=tf.constant(101)), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,3], tf.uint8), quality=c(-1)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3], tf.uint8), quality=tf.constant(-1)), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,3], tf.uint8), quality=c([1])', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3], tf.uint8), quality=tf.constant([1])), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,2], tf.uint8), quality=c(1)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,2], tf.uint8), quality=tf.constant(1)), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,2], tf.uint8), quality=c(101)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,2], tf.uint8), quality=tf.constant(101)), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2], tf.uint8), quality=c([1])', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2], tf.uint8), quality=tf.constant([1])), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([0,2,3], tf.uint8), quality=c(1)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([0,2,3], tf.uint8), quality=tf.constant(1)), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,3]), quality=c(1)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3]), quality=tf.constant(1)), [-1])')),
    ('EncodeJpegVariableQuality: images=tf.zeros([2,2,3], tf.uint8), quality=c(1, tf.int64)', _RO, _eager('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3], tf.uint8), quality=tf.constant(1, tf.int64)), [-1])')),
    ('EncodeJpegVariableQuality in a tf.function: images=tf.zeros([2,2], tf.uint8), quality=c(1)', _RO, _traced('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2], tf.uint8), quality=tf.constant(1)), [-1])')),
    ('EncodeJpegVariableQuality in a tf.function: images=tf.zeros([2,2,3], tf.uint8), quality=c([1])', _RO, _traced('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3], tf.uint8), quality=tf.constant([1])), [-1])')),
    ('EncodeJpegVariableQuality in a tf.function: images=c(np.arange(2*3*3,dtype=np.uint8).reshape(2,3,3)), quality=c(35)', _RO, _traced('tf.reshape(R.EncodeJpegVariableQuality(images=tf.constant(np.arange(2*3*3,dtype=np.uint8).reshape(2,3,3)), quality=tf.constant(35)), [-1])')),
    ('EncodeJpegVariableQuality in a tf.function: images=tf.zeros([2,2,3]), quality=c(1)', _RO, _traced('tf.reshape(R.EncodeJpegVariableQuality(images=tf.zeros([2,2,3]), quality=tf.constant(1)), [-1])')),
]

_KMC2_CASES: list[tuple[str, str, Any]] = [
    ('KMC2ChainInitialization: distances=c([1.0, 2.0, 0.5, 3.0, 0.1]), seed=c(7)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([1.0, 2.0, 0.5, 3.0, 0.1]), seed=tf.constant(7, tf.int64))')),
    ('KMC2ChainInitialization: distances=c(rng(1).uniform(size=50)), seed=c(-3)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant(np.random.default_rng(1).uniform(size=50), tf.float32), seed=tf.constant(-3, tf.int64))')),
    ('KMC2ChainInitialization: distances=c(rng(2).uniform(size=300)), seed=c(2**40 + 5)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant(np.random.default_rng(2).uniform(size=300), tf.float32), seed=tf.constant(2**40 + 5, tf.int64))')),
    ('KMC2ChainInitialization: distances=c([0.0, 0.0, 1.0]), seed=c(0)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([0.0, 0.0, 1.0]), seed=tf.constant(0, tf.int64))')),
    ('KMC2ChainInitialization: distances=c([2.0]), seed=c(0)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([2.0]), seed=tf.constant(0, tf.int64))')),
    ("KMC2ChainInitialization: distances=c([1.0, float('nan'), 2.0]), seed=c(1)", _RO, _eager("R.KMC2ChainInitialization(distances=tf.constant([1.0, float('nan'), 2.0]), seed=tf.constant(1, tf.int64))")),
    ('KMC2ChainInitialization: distances=c([]), seed=c(1)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([], tf.float32), seed=tf.constant(1, tf.int64))')),
    ('KMC2ChainInitialization: distances=c([[1.0]]), seed=c(1)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([[1.0]]), seed=tf.constant(1, tf.int64))')),
    ('KMC2ChainInitialization: distances=c([1.0]), seed=c([1])', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([1.0]), seed=tf.constant([1], tf.int64))')),
    ('KMC2ChainInitialization: distances=c([1.0]), seed=c(1)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([1.0]), seed=tf.constant(1))')),
    ('KMC2ChainInitialization: distances=c([1.0], tf.float64), seed=c(1)', _RO, _eager('R.KMC2ChainInitialization(distances=tf.constant([1.0], tf.float64), seed=tf.constant(1, tf.int64))')),
    ('KMC2ChainInitialization in a tf.function: distances=c([1.0, 2.0, 0.5, 3.0, 0.1]), seed=c(7)', _RO, _traced('R.KMC2ChainInitialization(distances=tf.constant([1.0, 2.0, 0.5, 3.0, 0.1]), seed=tf.constant(7, tf.int64))')),
    ('KMC2ChainInitialization in a tf.function: distances=c([[1.0]]), seed=c(1)', _RO, _traced('R.KMC2ChainInitialization(distances=tf.constant([[1.0]]), seed=tf.constant(1, tf.int64))')),
    ('KMC2ChainInitialization in a tf.function: distances=c([1.0]), seed=c([1])', _RO, _traced('R.KMC2ChainInitialization(distances=tf.constant([1.0]), seed=tf.constant([1], tf.int64))')),
]

_KMEANSPP_CASES: list[tuple[str, str, Any]] = [
    ('KmeansPlusPlusInitialization: points=c(rng(3).normal(size=(20, 2))), num_to_sample=c(5), seed=c(11), num_retries_per_sample=c(-1)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.constant(np.random.default_rng(3).normal(size=(20, 2)), tf.float32), num_to_sample=tf.constant(5, tf.int64), seed=tf.constant(11, tf.int64), num_retries_per_sample=tf.constant(-1, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=c(rng(4).normal(size=(50, 3))), num_to_sample=c(10), seed=c(12), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.constant(np.random.default_rng(4).normal(size=(50, 3)), tf.float32), num_to_sample=tf.constant(10, tf.int64), seed=tf.constant(12, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=c(rng(5).normal(size=(37, 1))), num_to_sample=c(37), seed=c(13), num_retries_per_sample=c(3)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.constant(np.random.default_rng(5).normal(size=(37, 1)), tf.float32), num_to_sample=tf.constant(37, tf.int64), seed=tf.constant(13, tf.int64), num_retries_per_sample=tf.constant(3, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=c(rng(6).normal(size=(100, 2))), num_to_sample=c(8), seed=c(-14), num_retries_per_sample=c(-1)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.constant(np.random.default_rng(6).normal(size=(100, 2)), tf.float32), num_to_sample=tf.constant(8, tf.int64), seed=tf.constant(-14, tf.int64), num_retries_per_sample=tf.constant(-1, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=c(rng(9).normal(size=(60, 6))), num_to_sample=c(8), seed=c(4), num_retries_per_sample=c(-1)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.constant(np.random.default_rng(9).normal(size=(60, 6)), tf.float32), num_to_sample=tf.constant(8, tf.int64), seed=tf.constant(4, tf.int64), num_retries_per_sample=tf.constant(-1, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(3), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(3, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(4), seed=c(2), num_retries_per_sample=c(-1)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(4, tf.int64), seed=tf.constant(2, tf.int64), num_retries_per_sample=tf.constant(-1, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(5), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(5, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(0), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(0, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([0, 2]), num_to_sample=c(1), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([0, 2]), num_to_sample=tf.constant(1, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4]), num_to_sample=c(1), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4]), num_to_sample=tf.constant(1, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c([1]), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant([1], tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(1), seed=c([1]), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(1, tf.int64), seed=tf.constant([1], tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(1), seed=c(1), num_retries_per_sample=c([0])', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(1, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant([0], tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 2]), num_to_sample=c(1), seed=c(1), num_retries_per_sample=c(0)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant(1), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization: points=tf.ones([4, 0]), num_to_sample=c(2), seed=c(1), num_retries_per_sample=c(1)', _RO, _eager('R.KmeansPlusPlusInitialization(points=tf.ones([4, 0]), num_to_sample=tf.constant(2, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(1, tf.int64))')),
    ('KmeansPlusPlusInitialization in a tf.function: points=c(rng(3).normal(size=(20, 2))), num_to_sample=c(5), seed=c(11), num_retries_per_sample=c(-1)', _RO, _traced('R.KmeansPlusPlusInitialization(points=tf.constant(np.random.default_rng(3).normal(size=(20, 2)), tf.float32), num_to_sample=tf.constant(5, tf.int64), seed=tf.constant(11, tf.int64), num_retries_per_sample=tf.constant(-1, tf.int64))')),
    ('KmeansPlusPlusInitialization in a tf.function: points=tf.ones([4]), num_to_sample=c(1), seed=c(1), num_retries_per_sample=c(0)', _RO, _traced('R.KmeansPlusPlusInitialization(points=tf.ones([4]), num_to_sample=tf.constant(1, tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
    ('KmeansPlusPlusInitialization in a tf.function: points=tf.ones([4, 2]), num_to_sample=c([1]), seed=c(1), num_retries_per_sample=c(0)', _RO, _traced('R.KmeansPlusPlusInitialization(points=tf.ones([4, 2]), num_to_sample=tf.constant([1], tf.int64), seed=tf.constant(1, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64))')),
]

_NEAREST_CASES: list[tuple[str, str, Any]] = [
    ('NearestNeighbors: points=c(rng(7).normal(size=(10, 2))), centers=c(rng(8).normal(size=(6, 2))), k=c(3)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(7).normal(size=(10, 2)), tf.float32), centers=tf.constant(np.random.default_rng(8).normal(size=(6, 2)), tf.float32), k=tf.constant(3, tf.int64))')),
    ('NearestNeighbors: points=c(rng(7).normal(size=(10, 3))), centers=c(rng(8).normal(size=(6, 3))), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(7).normal(size=(10, 3)), tf.float32), centers=tf.constant(np.random.default_rng(8).normal(size=(6, 3)), tf.float32), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=c(rng(7).normal(size=(10, 3))), centers=c(rng(8).normal(size=(6, 3))), k=c(10)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(7).normal(size=(10, 3)), tf.float32), centers=tf.constant(np.random.default_rng(8).normal(size=(6, 3)), tf.float32), k=tf.constant(10, tf.int64))')),
    ('NearestNeighbors: points=c([[0.0, 0.0], [1.0, 1.0]]), centers=c([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]]), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.constant([[0.0, 0.0], [1.0, 1.0]]), centers=tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=c([[0.0, 0.0], [1.0, 1.0]]), centers=c([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]]), k=c(3)', _RO, _eager('R.NearestNeighbors(points=tf.constant([[0.0, 0.0], [1.0, 1.0]]), centers=tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [-1.0, 0.0]]), k=tf.constant(3, tf.int64))')),
    ("NearestNeighbors: points=c([[0.0, 0.0]]), centers=c([[float('nan'), 0.0], [1.0, 0.0], [2.0, 0.0]]), k=c(1)", _RO, _eager("R.NearestNeighbors(points=tf.constant([[0.0, 0.0]]), centers=tf.constant([[float('nan'), 0.0], [1.0, 0.0], [2.0, 0.0]]), k=tf.constant(1, tf.int64))")),
    ("NearestNeighbors: points=c([[0.0, 0.0]]), centers=c([[1.0, 0.0], [float('nan'), 0.0], [2.0, 0.0]]), k=c(2)", _RO, _eager("R.NearestNeighbors(points=tf.constant([[0.0, 0.0]]), centers=tf.constant([[1.0, 0.0], [float('nan'), 0.0], [2.0, 0.0]]), k=tf.constant(2, tf.int64))")),
    ('NearestNeighbors: points=c([[0.0, 0.0]]), centers=tf.zeros([0, 2]), k=c(2)', _RO, _eager('R.NearestNeighbors(points=tf.constant([[0.0, 0.0]]), centers=tf.zeros([0, 2]), k=tf.constant(2, tf.int64))')),
    ('NearestNeighbors: points=c([[0.0, 0.0]]), centers=tf.ones([3, 2]), k=c(0)', _RO, _eager('R.NearestNeighbors(points=tf.constant([[0.0, 0.0]]), centers=tf.ones([3, 2]), k=tf.constant(0, tf.int64))')),
    ('NearestNeighbors: points=tf.zeros([0, 2]), centers=tf.ones([3, 2]), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.zeros([0, 2]), centers=tf.ones([3, 2]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=tf.zeros([2, 2]), centers=tf.ones([3, 3]), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.zeros([2, 2]), centers=tf.ones([3, 3]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=tf.zeros([2]), centers=tf.ones([3, 2]), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.zeros([2]), centers=tf.ones([3, 2]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=tf.zeros([2, 2]), centers=tf.ones([3]), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.zeros([2, 2]), centers=tf.ones([3]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=tf.zeros([2, 2]), centers=tf.ones([3, 2]), k=c([1])', _RO, _eager('R.NearestNeighbors(points=tf.zeros([2, 2]), centers=tf.ones([3, 2]), k=tf.constant([1], tf.int64))')),
    ('NearestNeighbors: points=tf.zeros([2, 2]), centers=tf.ones([3, 2]), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.zeros([2, 2]), centers=tf.ones([3, 2]), k=tf.constant(1))')),
    ('NearestNeighbors: points=c(rng(21).normal(size=(3, 2))), centers=c(rng(22).normal(size=(2500, 2))), k=c(5)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(21).normal(size=(3, 2)), tf.float32), centers=tf.constant(np.random.default_rng(22).normal(size=(2500, 2)), tf.float32), k=tf.constant(5, tf.int64))')),
    ('NearestNeighbors: points=c(rng(21).normal(size=(3, 2))), centers=c(rng(22).normal(size=(2500, 2))), k=c(1)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(21).normal(size=(3, 2)), tf.float32), centers=tf.constant(np.random.default_rng(22).normal(size=(2500, 2)), tf.float32), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=c(rng(21).normal(size=(2, 1))), centers=c(rng(22).normal(size=(1100, 1))), k=c(1050)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(21).normal(size=(2, 1)), tf.float32), centers=tf.constant(np.random.default_rng(22).normal(size=(1100, 1)), tf.float32), k=tf.constant(1050, tf.int64))')),
    ('NearestNeighbors in a tf.function: points=c(rng(7).normal(size=(10, 2))), centers=c(rng(8).normal(size=(6, 2))), k=c(3)', _RO, _traced('R.NearestNeighbors(points=tf.constant(np.random.default_rng(7).normal(size=(10, 2)), tf.float32), centers=tf.constant(np.random.default_rng(8).normal(size=(6, 2)), tf.float32), k=tf.constant(3, tf.int64))')),
    ('NearestNeighbors in a tf.function: points=tf.zeros([2]), centers=tf.ones([3, 2]), k=c(1)', _RO, _traced('R.NearestNeighbors(points=tf.zeros([2]), centers=tf.ones([3, 2]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors in a tf.function: points=tf.zeros([2, 2]), centers=tf.ones([3, 2]), k=c([1])', _RO, _traced('R.NearestNeighbors(points=tf.zeros([2, 2]), centers=tf.ones([3, 2]), k=tf.constant([1], tf.int64))')),
    ('NearestNeighbors in a tf.function: points=tf.zeros([2, 2]), centers=tf.ones([3, 3]), k=c(1)', _RO, _traced('R.NearestNeighbors(points=tf.zeros([2, 2]), centers=tf.ones([3, 3]), k=tf.constant(1, tf.int64))')),
    ('NearestNeighbors: points=c(rng(17).normal(size=(40, 2))), centers=c(rng(18).normal(size=(30, 2))), k=c(30)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(17).normal(size=(40, 2)), tf.float32), centers=tf.constant(np.random.default_rng(18).normal(size=(30, 2)), tf.float32), k=tf.constant(30, tf.int64))')),
    ('NearestNeighbors: points=c(rng(17).normal(size=(40, 3))), centers=c(rng(18).normal(size=(30, 3))), k=c(30)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(17).normal(size=(40, 3)), tf.float32), centers=tf.constant(np.random.default_rng(18).normal(size=(30, 3)), tf.float32), k=tf.constant(30, tf.int64))')),
    ('NearestNeighbors: points=c(rng(17).normal(size=(40, 3))), centers=c(rng(18).normal(size=(3, 3))), k=c(3)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(17).normal(size=(40, 3)), tf.float32), centers=tf.constant(np.random.default_rng(18).normal(size=(3, 3)), tf.float32), k=tf.constant(3, tf.int64))')),
    ('NearestNeighbors: points=c(rng(17).normal(size=(5, 3))), centers=c(rng(18).normal(size=(3, 3))), k=c(3)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(17).normal(size=(5, 3)), tf.float32), centers=tf.constant(np.random.default_rng(18).normal(size=(3, 3)), tf.float32), k=tf.constant(3, tf.int64))')),
    ('NearestNeighbors: points=c(rng(17).normal(size=(100, 3))), centers=c(rng(18).normal(size=(61, 3))), k=c(61)', _RO, _eager('R.NearestNeighbors(points=tf.constant(np.random.default_rng(17).normal(size=(100, 3)), tf.float32), centers=tf.constant(np.random.default_rng(18).normal(size=(61, 3)), tf.float32), k=tf.constant(61, tf.int64))')),
]

_FUSED_CASES: list[tuple[str, str, Any]] = [
    ('FusedPadConv2D: input=c(rng(0).normal(size=(1,5,6,3)), tf.float32), paddings=c([[0,0],[1,2],[2,1],[0,0]]), filter=c(rng(1).normal(size=(3,3,3,4)), ...', _RO, _eager("R.FusedPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(1,5,6,3)), tf.float32), paddings=tf.constant([[0,0],[1,2],[2,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(3,3,3,4)), tf.float32), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedPadConv2D: input=c(rng(0).normal(size=(3,7,5,2)), tf.float32), paddings=c([[0,0],[2,0],[1,3],[0,0]]), filter=c(rng(1).normal(size=(2,3,2,5)), ...', _RO, _eager("R.FusedPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(3,7,5,2)), tf.float32), paddings=tf.constant([[0,0],[2,0],[1,3],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(2,3,2,5)), tf.float32), mode='SYMMETRIC', strides=[1,2,2,1], padding='VALID')")),
    ('FusedPadConv2D: input=c(rng(0).normal(size=(2,8,8,4)), tf.float32), paddings=c([[0,0],[1,1],[1,1],[0,0]]), filter=c(rng(1).normal(size=(3,3,4,8)), ...', _RO, _eager("R.FusedPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(2,8,8,4)), tf.float32), paddings=tf.constant([[0,0],[1,1],[1,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(3,3,4,8)), tf.float32), mode='REFLECT', strides=[1,1,1,1], padding='SAME')")),
    ('FusedPadConv2D: input=c(rng(0).normal(size=(2,9,11,3)), tf.float64), paddings=c([[0,0],[3,2],[0,4],[0,0]]), filter=c(rng(1).normal(size=(5,5,3,6)),...', _RO, _eager("R.FusedPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(2,9,11,3)), tf.float64), paddings=tf.constant([[0,0],[3,2],[0,4],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(5,5,3,6)), tf.float64), mode='SYMMETRIC', strides=[1,2,3,1], padding='SAME')")),
    ('FusedPadConv2D: input=c(rng(0).normal(size=(2,4,4,1)), tf.float16), paddings=c([[0,0],[1,1],[1,1],[0,0]]), filter=c(rng(1).normal(size=(2,2,1,2)), ...', _RO, _eager("R.FusedPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(2,4,4,1)), tf.float16), paddings=tf.constant([[0,0],[1,1],[1,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(2,2,1,2)), tf.float16), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedResizeAndPadConv2D: input=c(rng(0).normal(size=(1,5,6,3)), tf.float32), size=c([8,9]), paddings=c([[0,0],[1,2],[2,1],[0,0]]), filter=c(rng(1)....', _RO, _eager("R.FusedResizeAndPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(1,5,6,3)), tf.float32), size=tf.constant([8,9]), paddings=tf.constant([[0,0],[1,2],[2,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(3,3,3,4)), tf.float32), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedResizeAndPadConv2D: input=c(rng(0).normal(size=(2,5,6,3)), tf.float32), size=c([3,11]), paddings=c([[0,0],[1,2],[2,1],[0,0]]), filter=c(rng(1)...', _RO, _eager("R.FusedResizeAndPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(2,5,6,3)), tf.float32), size=tf.constant([3,11]), paddings=tf.constant([[0,0],[1,2],[2,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(3,3,3,4)), tf.float32), mode='SYMMETRIC', strides=[1,2,1,1], padding='SAME', resize_align_corners=True)")),
    ('FusedResizeAndPadConv2D: input=c(rng(0).normal(size=(3,4,4,2)), tf.float64), size=c([7,5]), paddings=c([[0,0],[0,3],[4,0],[0,0]]), filter=c(rng(1)....', _RO, _eager("R.FusedResizeAndPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(3,4,4,2)), tf.float64), size=tf.constant([7,5]), paddings=tf.constant([[0,0],[0,3],[4,0],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(2,2,2,3)), tf.float64), mode='REFLECT', strides=[1,1,2,1], padding='SAME')")),
    ("FusedPadConv2D: input=tf.zeros([0,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], paddin...", _RO, _eager("R.FusedPadConv2D(input=tf.zeros([0,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1], padding='...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[2,1,1,1], padding...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[2,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([3,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([3,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=c([[0,0],[-1,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], pad...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.constant([[0,0],[-1,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=c([[0,0],[4,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padd...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.constant([[0,0],[4,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=c([[0,0],[5,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='SYMMETRIC', strides=[1,1,1,1], pa...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.constant([[0,0],[5,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='SYMMETRIC', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([2,4,4,1]), paddings=c([[1,0],[1,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='SYMMETRIC', strides=[1,1,1,1], pa...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([2,4,4,1]), paddings=tf.constant([[1,0],[1,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='SYMMETRIC', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,2]), paddings=c([[0,0],[1,0],[0,0],[0,1]]), filter=tf.ones([2,2,2,1]), mode='SYMMETRIC', strides=[1,1,1,1], pa...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,2]), paddings=tf.constant([[0,0],[1,0],[0,0],[0,1]]), filter=tf.ones([2,2,2,1]), mode='SYMMETRIC', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1]), mode='REFLECT', strides=[1,1,1,1], padding='...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,2,1]), mode='REFLECT', strides=[1,1,1,1], padding...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,2,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([5,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([5,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,0]), mode='REFLECT', strides=[1,1,1,1], padding...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,0]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='CONSTANT', strides=[1,1,1,1], paddin...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='CONSTANT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1], tf.int32), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1], tf.int32), mode='REFLECT', stride...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1], tf.int32), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1], tf.int32), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int64), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int64), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1], tf.float64), mode='REFLECT', strides=[1,1,1...", _RO, _eager("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1], tf.float64), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedResizeAndPadConv2D: input=tf.ones([1,4,4,1]), size=c([0,3]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', st...", _RO, _eager("R.FusedResizeAndPadConv2D(input=tf.ones([1,4,4,1]), size=tf.constant([0,3]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedResizeAndPadConv2D: input=tf.ones([1,4,4,1]), size=c([3]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', stri...", _RO, _eager("R.FusedResizeAndPadConv2D(input=tf.ones([1,4,4,1]), size=tf.constant([3]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedResizeAndPadConv2D: input=tf.ones([1,4,4,1]), size=c([3, 3]), paddings=c([[0,0],[3,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT'...", _RO, _eager("R.FusedResizeAndPadConv2D(input=tf.ones([1,4,4,1]), size=tf.constant([3, 3]), paddings=tf.constant([[0,0],[3,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedPadConv2D in a tf.function: input=c(rng(0).normal(size=(2,8,8,4)), tf.float32), paddings=c([[0,0],[1,1],[1,1],[0,0]]), filter=c(rng(1).normal(...', _RO, _traced("R.FusedPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(2,8,8,4)), tf.float32), paddings=tf.constant([[0,0],[1,1],[1,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(3,3,4,8)), tf.float32), mode='REFLECT', strides=[1,1,1,1], padding='SAME')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1]), mode='REFLECT', strides=[1,...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedResizeAndPadConv2D in a tf.function: input=c(rng(0).normal(size=(2,5,6,3)), tf.float32), size=c([3,11]), paddings=c([[0,0],[1,2],[2,1],[0,0]])...', _RO, _traced("R.FusedResizeAndPadConv2D(input=tf.constant(np.random.default_rng(0).normal(size=(2,5,6,3)), tf.float32), size=tf.constant([3,11]), paddings=tf.constant([[0,0],[1,2],[2,1],[0,0]]), filter=tf.constant(np.random.default_rng(1).normal(size=(3,3,3,4)), tf.float32), mode='SYMMETRIC', strides=[1,2,1,1], padding='SAME', resize_align_corners=True)")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,3], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,3], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([3,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([3,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,2,1]), mode='REFLECT', strides=[...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,2,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([5,2,1,1]), mode='REFLECT', strides=[...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([5,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedResizeAndPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), size=c([3]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mod...', _RO, _traced("R.FusedResizeAndPadConv2D(input=tf.ones([1,4,4,1]), size=tf.constant([3]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ('FusedResizeAndPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), size=c([[3, 3]]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1])...', _RO, _traced("R.FusedResizeAndPadConv2D(input=tf.ones([1,4,4,1]), size=tf.constant([[3, 3]]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=c([[0,0],[4,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', stride...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.constant([[0,0],[4,0],[0,0],[0,0]]), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[1,1,1,1], padding='VALID')")),
    ("FusedPadConv2D in a tf.function: input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[...", _RO, _traced("R.FusedPadConv2D(input=tf.ones([1,4,4,1]), paddings=tf.zeros([4,2], tf.int32), filter=tf.ones([2,2,1,1]), mode='REFLECT', strides=[2,1,1,1], padding='VALID')")),
    ('FusedPadConv2D under a tape (no gradient)', _RO, _tape("R.FusedPadConv2D(input=x, paddings=tf.constant([[0, 0], [1, 1], [1, 1], [0, 0]]), filter=tf.ones([2, 2, 1, 1]), mode='REFLECT', strides=[1, 1, 1, 1], padding='VALID')", "tf.ones([1, 3, 3, 1])")),
]

_CLUSTER_TAPE_CASES: list[tuple[str, str, Any]] = [
    ('NearestNeighbors under a tape (no gradient)', _RO, _tape("R.NearestNeighbors(points=x, centers=tf.constant([[1.0, 0.0], [0.0, 2.0]]), k=tf.constant(1, tf.int64))[1] * 2.0", "tf.constant([[0.5, 0.5]])")),
    ('KmeansPlusPlusInitialization under a tape (no gradient)', _RO, _tape("R.KmeansPlusPlusInitialization(points=x, num_to_sample=tf.constant(1, tf.int64), seed=tf.constant(3, tf.int64), num_retries_per_sample=tf.constant(0, tf.int64)) * 2.0", "tf.constant([[0.5, 0.5], [1.0, 2.0]])")),
    ('KMC2ChainInitialization under a tape (no gradient)', _RO, _tape("R.KMC2ChainInitialization(distances=x, seed=tf.constant(3, tf.int64))", "tf.constant([0.5, 1.5])")),
]

_TAPE_CASES: list[tuple[str, str, Any]] = [
    ('AudioSummaryV2 under a tape (not differentiable: None)', _RO, _tape("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=x, sample_rate=tf.constant(8.0)), [-1])", "tf.constant([[0.5, -0.25]])")),
    ('EncodeJpegVariableQuality under a tape (a uint8 image: None)', _RO, _tape("tf.reshape(R.EncodeJpegVariableQuality(images=x, quality=tf.constant(50)), [-1])", "tf.zeros([2, 2, 3], tf.uint8)")),
]

CASES: list[tuple[str, str, Any]] = (_IMAGE_CASES + _AUDIO_CASES + _AUDIO_V1_CASES + _JPEG_CASES + _TAPE_CASES + _KMC2_CASES
                                     + _KMEANSPP_CASES + _NEAREST_CASES + _CLUSTER_TAPE_CASES + _FUSED_CASES)

# (the fused convolutions' products are simdist's float32 matmul, BLAS's order where TF's cannot show: within rounding)
_CONV_AGREE = edge_compare.within(1e-5, {"float16": 1e-2})
EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _CONV_AGREE if case[0].startswith("Fused")
                                else edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_raw_ops_added_in_session_38(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops38_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
