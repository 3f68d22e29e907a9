"""Error classes of the fourth generator's fresh seeds (clause ops.argument-errors, fz63: fz62gen seeds 63401 #7 and
63404 #7). (1) tf.nn.embedding_lookup_sparse with weights checks, before any op, that the static shapes of sp_ids'
and sp_weights' values, indices and dense_shape are compatible (embedding_ops.py: ValueError "Shapes (3,) and (1,)
are incompatible"); simdist went on to a kernel's InvalidArgumentError. (2) tf.image.non_max_suppression_padded's
inner non_max_suppression_padded_v2 is a @def_function.function(experimental_implements=...), which converts every
argument to a tensor (Python floats, bools and ints too), so autograph turns its `if score_threshold != -inf`, `if
not canonicalized_coordinates` and `if not sorted_input` into tf.conds whose branches are both built: boxes and
scores of float16/float64/bfloat16 are TypeError at Greater (the default threshold is a float32 tensor), a non-bool
canonicalized_coordinates or sorted_input TypeError at LogicalNot; simdist computed a value or raised a ValueError.
Compared: values, or the exception class and (for embedding_lookup_sparse) its message."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _outcome(f: Callable[[], Any], message: bool) -> Any:
    try:
        r = f()
    except Exception as e:  # noqa: BLE001 - the class (and message) is the result compared
        text = " ".join(str(e).split()).split(" [Op:")[0].split(" ;")[0]   # (an op's suffix: eager or NodeDef)
        return ["error", type(e).__name__, text[:120] if message else ""]
    rs = r if isinstance(r, (list, tuple)) else [r]
    return [[x.dtype.name, list(x.shape), np.asarray(x.numpy()).ravel().tolist()] for x in rs]


def _embedding(form: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        ids_f = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 1]], tf.constant([1.0, 1.0, 2.0]), [3, 2])
        ids_i = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 1]], tf.constant([1, 1, 2], tf.int64), [3, 2])
        w1 = tf.sparse.SparseTensor([[1, 0]], tf.constant([1.0]), [2, 2])
        w3 = tf.sparse.SparseTensor([[0, 1], [1, 0], [1, 1]], tf.constant([1.0, 0.5, 2.0]), [3, 2])
        params = tf.reshape(tf.range(8, dtype=tf.float32), [4, 2])
        calls = {"ids_f_w1": lambda: tf.nn.embedding_lookup_sparse(params, ids_f, w1),
                 "ids_i_w1": lambda: tf.nn.embedding_lookup_sparse(params, ids_i, w1),
                 "ids_i_w1_sum": lambda: tf.nn.embedding_lookup_sparse(params, ids_i, w1, combiner="sum"),
                 "ids_i_w3": lambda: tf.nn.embedding_lookup_sparse(params, ids_i, w3),
                 "ids_i_w3_sqrtn": lambda: tf.nn.embedding_lookup_sparse(params, ids_i, w3, combiner="sqrtn"),
                 "ids_i_w4": lambda: tf.nn.embedding_lookup_sparse(params, ids_i, tf.sparse.SparseTensor(
                     [[0, 1], [1, 0], [1, 1], [2, 0]], tf.constant([1.0, 0.5, 2.0, 1.0]), [3, 2])),
                 "ids_i_none": lambda: tf.nn.embedding_lookup_sparse(params, ids_i, None),
                 "ids_f_w3": lambda: tf.nn.embedding_lookup_sparse(params, ids_f, w3),
                 "uint_params_w1": lambda: tf.nn.embedding_lookup_sparse(tf.constant([1, 5, 1, 2], tf.uint32), ids_f,
                                                                         w1, allow_fast_lookup=True)}
        return _outcome(calls[form], True)
    return run


_BOXES = [[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, 2, 1, 3]]
_SCORES = [0.9, 0.8, 0.7]


def _nms(form: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        b, s = np.array(_BOXES, np.float32), np.array(_SCORES, np.float32)
        nms = tf.image.non_max_suppression_padded
        calls = {"float32": lambda: nms(tf.constant(b), tf.constant(s), 2, pad_to_max_output_size=True),
                 "float64": lambda: nms(tf.constant(b, tf.float64), tf.constant(s, tf.float64), 2,
                                        pad_to_max_output_size=True),
                 "float16": lambda: nms(tf.constant(b, tf.float16), tf.constant(s, tf.float16), 2,
                                        pad_to_max_output_size=True),
                 "bf16_scores": lambda: nms(tf.constant(b), tf.cast(tf.constant(s), tf.bfloat16), 2,
                                            pad_to_max_output_size=True),
                 "threshold": lambda: nms(b, s, 2, score_threshold=0.75, pad_to_max_output_size=True),
                 "canon_int": lambda: nms(b, s, 2, canonicalized_coordinates=1, pad_to_max_output_size=True),
                 "canon_true": lambda: nms(b, s, 2, canonicalized_coordinates=True, pad_to_max_output_size=True),
                 "canon_string": lambda: nms(b, s, 2, canonicalized_coordinates=tf.constant(["1.5", "ZZ"]),
                                             pad_to_max_output_size=True),
                 "sorted_int": lambda: nms(b, s, 2, sorted_input=1, pad_to_max_output_size=True),
                 "sorted_true": lambda: nms(b, s, 2, sorted_input=True, pad_to_max_output_size=True),
                 "tile_float": lambda: nms(b, s, 2, tile_size=2.0, pad_to_max_output_size=True),
                 "tile_uint8": lambda: nms(b, s, 2, tile_size=tf.constant(2, tf.uint8), pad_to_max_output_size=True),
                 "tile_2": lambda: nms(b, s, 2, tile_size=2, pad_to_max_output_size=True),
                 "unpadded": lambda: nms(b, s, 2)}
        return _outcome(calls[form], False)
    return run


def _cases() -> dict[str, Callable[[Any], Any]]:
    out: dict[str, Callable[[Any], Any]] = {}
    for form in ("ids_f_w1", "ids_i_w1", "ids_i_w1_sum", "ids_i_w3", "ids_i_w3_sqrtn", "ids_i_w4", "ids_i_none",
                 "ids_f_w3", "uint_params_w1"):
        out[f"embedding/{form}"] = _embedding(form)
    for form in ("float32", "float64", "float16", "bf16_scores", "threshold", "canon_int", "canon_true",
                 "canon_string", "sorted_int", "sorted_true", "tile_float", "tile_uint8", "tile_2", "unpadded"):
        out[f"nms_padded/{form}"] = _nms(form)
    return out


TABLE = case_results.Table(__file__, _cases(), re.compile(r"(fz63_g4_auto_)\d+"))   # (no auto-named objects)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("ops.argument-errors")
def test_fourth_generator_error_classes_as_tf(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
