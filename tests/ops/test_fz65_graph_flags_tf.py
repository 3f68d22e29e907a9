"""The truth TF's own Python takes of a flag argument (clause function.symbolic-tensors, fz65: fz62gen seed 65401 #6,
`tf.nn.batch_norm_with_global_normalization(..., scale_after_normalization=<float16 scalar tensor>)` inside a
tf.function, TF's OperatorNotAllowedInGraphError where simdist computed). TF's library functions read their flags with
Python's truth (reduce_sum's `bool(keepdims)`, moments' `if not keepdims`, matmul's `if transpose_a and adjoint_a`,
gelu's `if approximate`, frame's `if pad_end` ...): a graph tensor there is OperatorNotAllowedInGraphError at trace,
AutoGraph on or off; an eager tensor, captured by the function or not, is its value's truth; eagerly a tensor of
several elements NumPy's ValueError. simdist's library read the values (symbolic.flag now takes TF's truth). Compared:
each call's value (within the harness's tolerance) or error class (TF's message names the caller's frames)."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _calls(tf: Any) -> dict[str, Callable[[Any], Any]]:
    """Each function with its flag given by the case: f(flag) -> a result (random results reduced to their shape)."""
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4) / 7)
    img = tf.constant(np.arange(48, dtype=np.float32).reshape(1, 4, 4, 3) / 50)
    return {
        "reduce_sum": lambda f: tf.reduce_sum(x, 0, keepdims=f),
        "reduce_mean": lambda f: tf.reduce_mean(x, 0, keepdims=f),
        "reduce_prod": lambda f: tf.math.reduce_prod(x, 1, keepdims=f),
        "reduce_std": lambda f: tf.math.reduce_std(x, 0, keepdims=f),
        "reduce_logsumexp": lambda f: tf.math.reduce_logsumexp(x, 0, keepdims=f),
        "reduce_euclidean_norm": lambda f: tf.math.reduce_euclidean_norm(x, 0, keepdims=f),
        "count_nonzero": lambda f: tf.math.count_nonzero(x, 0, keepdims=f),
        "norm": lambda f: tf.norm(x, keepdims=f),
        "norm_matrix_2": lambda f: tf.norm(x, ord=2, axis=[0, 1], keepdims=f),
        "moments": lambda f: tf.nn.moments(x, [0], keepdims=f),
        "sufficient_statistics": lambda f: tf.nn.sufficient_statistics(x, [0], keepdims=f),
        "weighted_moments": lambda f: tf.nn.weighted_moments(x, [0], x, keepdims=f),
        "matmul_transpose_a": lambda f: tf.linalg.matmul(x, x, transpose_a=f),
        "matmul_adjoint_b": lambda f: tf.linalg.matmul(x, x, adjoint_b=f),
        "matmul_batch_transpose_b": lambda f: tf.linalg.matmul(x[None], x[None], transpose_b=f),
        "matvec_adjoint_a": lambda f: tf.linalg.matvec(x, tf.ones([3]), adjoint_a=f),
        "gelu": lambda f: tf.nn.gelu(x, approximate=f),
        "log_poisson_loss": lambda f: tf.nn.log_poisson_loss(x, x, compute_full_loss=f),
        "batch_norm_global": lambda f: tf.nn.batch_norm_with_global_normalization(
            x, tf.zeros([4]), tf.ones([4]), tf.zeros([4]), tf.fill([4], 2.0), 0.001, f),
        "fused_batch_norm": lambda f: tf.compat.v1.nn.fused_batch_norm(
            tf.reshape(x, [1, 1, 3, 4]), tf.ones([4]), tf.zeros([4]), is_training=f),
        "nce_loss": lambda f: tf.shape(tf.nn.nce_loss(tf.ones([5, 4]), tf.zeros([5]), tf.constant([[0]], tf.int64),
                                                      x[:1], 2, 5, remove_accidental_hits=f)),
        "sampled_softmax_loss": lambda f: tf.shape(tf.nn.sampled_softmax_loss(
            tf.ones([5, 4]), tf.zeros([5]), tf.constant([[0]], tf.int64), x[:1], 2, 5, remove_accidental_hits=f)),
        "resize_preserve_aspect": lambda f: tf.image.resize(img, [2, 3], preserve_aspect_ratio=f),
        "resize_antialias": lambda f: tf.image.resize(img, [2, 2], antialias=f),
        "resize_with_pad": lambda f: tf.image.resize_with_pad(img, 2, 2, antialias=f),
        "convert_image_dtype": lambda f: tf.image.convert_image_dtype(img, tf.uint8, saturate=f),
        "frame": lambda f: tf.signal.frame(x, 3, 2, pad_end=f),
        "stft": lambda f: tf.shape(tf.signal.stft(x, 2, 1, pad_end=f)),
        "ctc_loss": lambda f: tf.nn.ctc_loss(tf.constant([[1, 2]]), tf.ones([3, 1, 4]) / 3, [2], [3],
                                             logits_time_major=f, blank_index=0),
    }


_FUNCS = ["batch_norm_global", "convert_image_dtype", "count_nonzero", "ctc_loss", "frame", "fused_batch_norm", "gelu",
          "log_poisson_loss", "matmul_adjoint_b", "matmul_batch_transpose_b", "matmul_transpose_a", "matvec_adjoint_a",
          "moments", "nce_loss", "norm", "norm_matrix_2", "reduce_euclidean_norm", "reduce_logsumexp", "reduce_mean",
          "reduce_prod", "reduce_std", "reduce_sum", "resize_antialias", "resize_preserve_aspect", "resize_with_pad",
          "sampled_softmax_loss", "stft", "sufficient_statistics", "weighted_moments"]
# how the flag is given: a graph tensor (the function's argument; AutoGraph off, on), an eager tensor the function
# closes over, a Python bool in a function, an eager scalar tensor, an eager tensor of two elements
_FORMS = ("graph-arg", "graph-arg-autograph", "captured-eager", "python-in-function", "eager-tensor", "eager-two")


def _case(fn: str, form: str, value: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        try:
            return call_it(tf)
        except Exception as e:  # noqa: BLE001 - the class is compared (TF's message names the caller's frames)
            return f"error {type(e).__name__}"

    def call_it(tf: Any) -> Any:
        tf.random.set_seed(65)
        call = _calls(tf)[fn]
        flag = tf.constant(value)
        if form == "graph-arg":
            return tf.function(call, autograph=False)(flag)
        if form == "graph-arg-autograph":
            return tf.function(lambda f: call(f))(flag)
        if form == "captured-eager":
            return tf.function(lambda: call(flag), autograph=False)()
        if form == "python-in-function":
            return tf.function(lambda: call(value), autograph=False)()
        if form == "eager-tensor":
            return call(flag)
        return call(tf.constant([value, value]))
    return run


_CASES = {f"{fn}/{form}/{v}": _case(fn, form, v) for fn in _FUNCS for form in _FORMS
          for v in ((True, False) if form in ("eager-tensor", "captured-eager") else (True,))}
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz65_flag_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.symbolic-tensors")
def test_library_flags_take_pythons_truth_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
