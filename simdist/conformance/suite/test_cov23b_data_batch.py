"""Batching elements of different shapes and unbatching mismatched components, which the whole suite never
did before session 23 (simdist/runtime/data/batching.py's error paths; cov23b; docs/conformance.md,
"Twenty-third session: suite coverage of autodiff, gradients and tf.function"): the first error a
user meets batching variable-length sequences without padding.

TF 2.21: a batch right after a map runs as one MapAndBatchDataset (the default map_and_batch_fusion
rewrite), whose kernel copies each element flat into a batch of the first element's shape
(batch_util::CopyElementToSlice): an element with another number of elements is InvalidArgumentError
"Cannot add tensor to the batch: number of elements does not match. Shapes are: [tensor]: [2],
[batch]: [1]", one with the same number is reshaped silently. Any other batch (a generator's
elements, or the fusion turned off) is BatchDataset's CopyBatch: "Cannot batch tensors with
different shapes in component 0. First element had shape [3] and element 1 had shape [2]."
Unbatch (UnbatchDataset): "Input element must have the same batch size in each component. Component
0 had size 2 but component 1 had size, 3." and "Input element must have a non-scalar value in each
component." All observed on TF 2.21; values computed here.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from simdist.conformance.assertions import assert_equal, raises, to_numpy

clause = pytest.mark.clause


def _all(ds) -> list:
    return [to_numpy(e).tolist() for e in ds]


@clause("dataset.batching", ref="tf221")
def test_cov23b_batch_of_a_map_copies_by_element_count(backend, tf):
    """map then batch (fused): lengths 1 and 2 fail with the copy's message; shapes [2, 3] and [3, 2]
    (six elements each) batch silently, each element's values in row-major order. (The fused kernel
    runs its map calls in parallel: the batch takes the shape of the element copied first, so TF names
    either length as the batch's and gives either shape: both are accepted.)"""
    ds = tf.data.Dataset.range(1, 3).map(lambda i: tf.range(i)).batch(2)
    with raises(tf.errors.InvalidArgumentError, match=r"Cannot add tensor to the batch: number of elements does not "
                r"match\. Shapes are: \[tensor\]: \[(1\], \[batch\]: \[2|2\], \[batch\]: \[1)\]",
                call="Dataset.range(1, 3).map(range).batch(2)"):
        _all(ds)
    ds = tf.data.Dataset.range(2).map(lambda i: tf.reshape(tf.range(6), tf.cond(
        i > 0, lambda: tf.constant([3, 2]), lambda: tf.constant([2, 3])))).batch(2)
    got = [to_numpy(e) for e in ds]
    assert_equal([len(got), got[0].shape in ((2, 2, 3), (2, 3, 2)), got[0].reshape(2, 6).tolist()],
                 [1, True, [list(range(6))] * 2], call="map to shapes [2, 3] then [3, 2], batch(2): "
                 "(batches, shape one of the two, values)")


@clause("dataset.batching", ref="tf221")
def test_cov23b_batch_without_fusion_refuses_other_shapes(backend, tf):
    """A batch that is not fused with a map (a generator's elements; a map with map_and_batch_fusion
    off) refuses any element whose shape differs from the first's, with CopyBatch's message."""
    gen = tf.data.Dataset.from_generator(lambda: iter([[1, 2, 3], [1, 2]]),
                                         output_signature=tf.TensorSpec([None], tf.int32)).batch(2)
    with raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Cannot batch tensors with different shapes in component 0. First element had shape [3] and element 1 "
            "had shape [2]."), call="from_generator([[1, 2, 3], [1, 2]]).batch(2)"):
        _all(gen)
    options = tf.data.Options()
    options.experimental_optimization.map_and_batch_fusion = False
    ds = tf.data.Dataset.range(2).map(lambda i: tf.reshape(tf.range(6), tf.cond(
        i > 0, lambda: tf.constant([3, 2]), lambda: tf.constant([2, 3])))).batch(2).with_options(options)
    with raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Cannot batch tensors with different shapes in component 0. First element had shape [2,3] and element 1 "
            "had shape [3,2]."), call="map to [2, 3] then [3, 2], batch(2), map_and_batch_fusion=False"):
        _all(ds)


@clause("dataset.batching", ref="tf221")
def test_cov23b_unbatch_mismatched_components(backend, tf):
    """unbatch of a zip of batches of different sizes, and of an element whose component is a scalar
    at run time (its static shape unknown)."""
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(5).batch(2), tf.data.Dataset.range(6).batch(3))).unbatch()
    with raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Input element must have the same batch size in each component. Component 0 had size 2 but component 1 "
            "had size, 3."), call="zip(range(5).batch(2), range(6).batch(3)).unbatch()"):
        _all(ds)
    ds = tf.data.Dataset.range(3).map(lambda i: tf.reshape(i, tf.ones([i % 2], tf.int32))).unbatch()
    with raises(tf.errors.InvalidArgumentError, match=re.escape(
            "Input element must have a non-scalar value in each component."),
            call="range(3).map(reshape(i, ones([i % 2]))).unbatch()"):
        _all(ds)
