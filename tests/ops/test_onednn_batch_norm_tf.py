"""oneDNN's float32 batch normalization (clause ops.fused-batch-norm, its paragraph "oneDNN"): where oneDNN is on
(an AVX-512 CPU with AVX512_VNNI or AMX: the reference model and the fifty-fifth session's Xeon), TF 2.21 runs
FusedBatchNormV3 and its backprop of float32 NHWC inputs through oneDNN, whose statistics are summed in two threads
(images, or the spatial rows of one image, per thread) and whose normalisation is one of two kernels by the
channel count: the jit kernel (channels a multiple of 4: the variance's fused multiply-adds, y = fma((x - mean) ·
(1 / sqrt(var + eps)), scale, offset)) or the C++ kernel (other counts: y = (scale / sqrt(var + eps)) · (x - mean)
+ offset, one channel in one thread); bfloat16 x computed so in float32 and rounded once.
simdist/runtime/ops/onednn_batch_norm.py. Each case runs
tf.compat.v1.nn.fused_batch_norm of seeded inputs on TF 2.21 and on simdist (the golden's host model): y, the
batch mean and variance, and the gradients the model reproduces bit for bit (scale_backprop of the jit kernel,
and the training x_backprop that uses it, are not modelled: those cases leave them out). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

# (N, H, W): one image (the jit kernel splits its rows between the threads), two, three and five (balance211)
_BATCHES = ((1, 3, 5), (2, 2, 3), (3, 4, 1), (5, 2, 2))
_SIMPLE = (1, 3, 7, 9, 17)
_JIT = (4, 8, 12, 16, 40)


def _batch_norm(c: int, nhw: tuple[int, int, int], training: bool, seed: int, dtype: str = "float32"
                ) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        r = np.random.default_rng(seed)
        x = (r.standard_normal((*nhw, c)) * 3 + 1).astype(np.float32)
        scale, offset = r.uniform(0.5, 1.5, c).astype(np.float32), r.standard_normal(c).astype(np.float32)
        mean, var = r.standard_normal(c).astype(np.float32), r.uniform(0.5, 1.5, c).astype(np.float32)
        up = r.standard_normal(x.shape).astype(np.float32)
        xs, ss, os_ = tf.cast(tf.constant(x), dtype), tf.constant(scale), tf.constant(offset)
        with tf.GradientTape() as tape:
            tape.watch([xs, ss, os_])
            y = tf.compat.v1.nn.fused_batch_norm(
                xs, ss, os_, mean=None if training else tf.constant(mean),
                variance=None if training else tf.constant(var), epsilon=0.001, is_training=training)
        dx, dscale, doffset = tape.gradient(y[0], [xs, ss, os_], output_gradients=tf.cast(tf.constant(up), dtype))
        out = [y[0], y[1], y[2], doffset]
        if c % 4 or dtype != "float32":   # (the C++ kernel)
            out += [dx, dscale]
        elif not training:
            out += [dx]
        return out
    return run


CASES = [(f"{'jit' if c % 4 == 0 else 'c++'} C={c} NHW={nhw} {'training' if t else 'inference'}",
          "ops.fused-batch-norm", _batch_norm(c, nhw, t, 100 * c + 10 * i + t))
         for c in _SIMPLE + _JIT for i, nhw in enumerate(_BATCHES) for t in (True, False)] + [
    (f"bfloat16 C={c} NHW={nhw} {'training' if t else 'inference'} (float32 inside, rounded once)",
     "ops.fused-batch-norm", _batch_norm(c, nhw, t, 7 * c + t, "bfloat16"))
    for c in (3, 8, 17) for nhw in _BATCHES[:2] for t in (True, False)]

EDGES = edge_compare.EdgeModule(__file__, CASES)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.fused-batch-norm")
@EDGES.parametrize("ops.fused-batch-norm")
def test_onednn_batch_norm_bit_for_bit(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_onednn_batch_norm_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
