"""Narrow and unusual dtypes through the ops that take labels, ids, indices, segment ids, counts and shapes (sixty-third
session, lsweep63; lsweep63_cases.py): the cross-entropies' labels and logits, in_top_k's targets and k, the segment
ops' ids, the sparse segment ops' data/indices/ids/num_segments, bincount and confusion_matrix, embedding lookups and
one_hot's output dtypes, the random ops' and zeros/ones/fill/broadcast_to's shape arguments, Keras's sparse losses and
metrics — every integer dtype, bool, the half types, float64 and complex, NumPy scalars and Python floats/bools, eagerly
and inside a tf.function, compared bit for bit with TF 2.21's recorded results (a refusal by its exception class;
`python -m simdist.conformance.suite.test_lsweep63 --record` rewrites lsweep63_reference.json.gz). Recorded on this
session's AVX-512 Xeon with oneDNN on: simdist runs the programs under its reference model on any CPU."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.lsweep63_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("nn.xent-labels-range")
@pytest.mark.parametrize("name", _ids("l63-sxent"))
def test_lsweep63_cross_entropies_by_label_and_logit_dtype(backend: Any, name: str) -> None:
    """sparse_softmax_cross_entropy_with_logits (and the raw op) × labels of every integer dtype, float and bool ×
    logits float16/bfloat16/float32/float64/int32/complex64, with gradients; softmax_cross_entropy × equal and mixed
    dtypes × axis; sigmoid/weighted cross-entropy (pos_weight forms), log_poisson_loss, l2_loss of every dtype."""
    _check(backend, name)


@pytest.mark.clause("ops.index-dtypes")
@pytest.mark.parametrize("name", _ids("l63-topk") + _ids("l63-segids") + _ids("l63-spseg") + _ids("l63-count"))
def test_lsweep63_ids_targets_and_counts_by_dtype(backend: Any, name: str) -> None:
    """in_top_k × targets/predictions/k dtypes, top_k's index_type; segment ids of every integer dtype through each
    segment op; sparse segment data/indices/segment_ids/num_segments dtypes; bincount and confusion_matrix × arr,
    labels, predictions, weights, num_classes, minlength/maxlength and dtype: TF 2.21's values or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("ops.one-hot")
@pytest.mark.parametrize("name", _ids("l63-embed"))
def test_lsweep63_embedding_lookups_and_one_hot_dtypes(backend: Any, name: str) -> None:
    """embedding_lookup × ids and params dtypes × max_norm; embedding_lookup_sparse/safe_… × ids dtypes × combiner ×
    weights dtypes; one_hot × index dtypes × output dtypes × on/off values: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.random-arguments")
@pytest.mark.parametrize("name", _ids("l63-rshape") + _ids("l63-rdtype"))
def test_lsweep63_shape_arguments_in_every_form(backend: Any, name: str) -> None:
    """The random ops' (stateful and stateless) and zeros/ones/fill/broadcast_to's shape as Python floats and bools,
    NumPy scalars and arrays, tensors of every integer dtype, bool and float32, scalars; stateless seeds' dtypes;
    categorical's num_samples forms; each sampler's dtype argument (omitted and every dtype) and its logits/lam/alpha
    dtypes: TF 2.21's values or refusal classes."""
    _check(backend, name)


@pytest.mark.clause("keras.loss.ignore-class")
@pytest.mark.parametrize("name", _ids("l63-kloss"))
def test_lsweep63_keras_sparse_losses_and_metrics_by_label_dtype(backend: Any, name: str) -> None:
    """SparseCategoricalCrossentropy (class and function) × labels int8/uint8/int16/int32/int64/float16/float32 ×
    from_logits × ignore_class × y_pred dtype; SparseCategoricalAccuracy, SparseTopKCategoricalAccuracy (from_sorted_ids)
    and MeanIoU (ignore_class, sparse_y_pred) with those labels: TF 2.21's bits."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
