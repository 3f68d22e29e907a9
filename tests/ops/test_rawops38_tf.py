"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-eighth (clause ops.raw-ops): the
media summary kernels ImageSummary (a PNG per image; its tensor attr bad_color: every eager call TF 2.21's runtime
refuses, the kernel in a tf.function) and AudioSummaryV2 (a 16-bit PCM WAV per entry), AudioSummary (V1, removed
from TF 2.21's GraphDef) and EncodeJpegVariableQuality, each against real TensorFlow 2.21: the same raw call on both
backends gives the same dtype and bytes, or raises the same exception class; eagerly, inside a tf.function (the shape
functions' trace-time refusals) and under a GradientTape (TF declares the summaries not differentiable). Needs the
`tf` extra.

Host independence: the floating-point work compared here is ImageSummary's normalization (float min/max, one float
division, then a product and a sum per value in the image's dtype, each correctly rounded: TF's build has no FMA)
and AudioSummaryV2's sample scaling (a float product, roundf), so the recorded answers hold on any host.
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

_TAPE_CASES: list[tuple[str, str, Any]] = [
    ('AudioSummaryV2 under a tape (not differentiable: None)', _RO, _tape("tf.reshape(R.AudioSummaryV2(tag=tf.constant('a'), tensor=x, sample_rate=tf.constant(8.0)), [-1])", "tf.constant([[0.5, -0.25]])")),
    ('EncodeJpegVariableQuality under a tape (a uint8 image: None)', _RO, _tape("tf.reshape(R.EncodeJpegVariableQuality(images=x, quality=tf.constant(50)), [-1])", "tf.zeros([2, 2, 3], tf.uint8)")),
]

CASES: list[tuple[str, str, Any]] = _IMAGE_CASES + _AUDIO_CASES + _AUDIO_V1_CASES + _JPEG_CASES + _TAPE_CASES

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


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
