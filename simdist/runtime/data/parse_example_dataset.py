"""`tf.data.experimental.parse_example_dataset` (clause dataset.sparse-elements): batches of serialized
Examples parsed into feature dicts (SparseTensors for VarLenFeatures), TF's ParseExampleDataset
(data/experimental/ops/parsing_ops.py), whose elements are those of `map(tf.io.parse_example)`."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import dtypes
from simdist.runtime.spec import TensorSpec

__all__ = ["parse_example_dataset"]


def parse_example_dataset(features: Any, num_parallel_calls: Any = 1, deterministic: Any = None) -> Callable[[Any], Any]:
    """A transformation parsing a dataset of string vectors with `features` (ValueError when None)."""
    if features is None:
        raise ValueError("Argument `features` is required, but not specified.")

    def apply(dataset: Any) -> Any:
        from simdist.runtime.ops.example_parsing import parse_example
        spec = dataset.element_spec
        if not (type(spec) is TensorSpec and spec.dtype is dtypes.string and spec.shape.is_compatible_with([None])):
            raise TypeError(f"Input dataset should be a dataset of vectors of strings. Instead it is `{spec!r}`.")
        return dataset.map(lambda serialized: parse_example(serialized, features))
    return apply
