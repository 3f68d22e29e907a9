"""Pipeline utilities tf.distribute's input pipeline uses: copy a pipeline, its component shapes,
`tf.data.experimental.cardinality`."""

from __future__ import annotations

from simdist.runtime.data.elements import _shape_list
from simdist.runtime.spec import flatten
from simdist.runtime.tensor import Tensor


def replicate(dataset: DatasetV2) -> DatasetV2:
    """A structural copy of the whole pipeline with fresh iteration state (TF's `distribute.replicate`)."""
    return dataset._with_inputs(tuple(replicate(i) for i in dataset._inputs))


def component_shapes(dataset: DatasetV2) -> list[list[int | None] | None]:
    """Static shapes of the flattened components (None = unknown rank)."""
    return [_shape_list(s.shape) for s in flatten(dataset.element_spec)]


def cardinality(dataset: DatasetV2) -> Tensor:
    """`tf.data.experimental.cardinality(dataset)`."""
    return dataset.cardinality()
