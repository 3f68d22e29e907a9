"""Top-level tf functions that are TF 2.21's generated op wrappers (gen_*_ops.py, exported as tf.<name>): the op
called with its inputs by position or keyword, as tf.raw_ops.<Op> with keywords (the same eager fast path and graph
rules: clause ops.raw-ops), and TF's AggregationMethod constants of tf.gradients."""

from __future__ import annotations

from typing import Any

__all__ = ["ragged_fill_empty_rows", "ragged_fill_empty_rows_grad", "AggregationMethod"]


def ragged_fill_empty_rows(value_rowids: Any, values: Any, nrows: Any, default_value: Any,
                           name: str | None = None) -> Any:
    """`tf.ragged_fill_empty_rows` (gen_ragged_array_ops): RaggedFillEmptyRows' four outputs as its namedtuple."""
    from simdist.tf import raw_ops
    return raw_ops.RaggedFillEmptyRows(value_rowids=value_rowids, values=values, nrows=nrows,
                                       default_value=default_value, name=name)


def ragged_fill_empty_rows_grad(reverse_index_map: Any, grad_values: Any, name: str | None = None) -> Any:
    """`tf.ragged_fill_empty_rows_grad` (gen_ragged_array_ops): RaggedFillEmptyRowsGrad's (d_values,
    d_default_value)."""
    from simdist.tf import raw_ops
    return raw_ops.RaggedFillEmptyRowsGrad(reverse_index_map=reverse_index_map, grad_values=grad_values, name=name)


class AggregationMethod:
    """`tf.AggregationMethod`: how tf.gradients sums the gradients of a tensor used several times (its
    `aggregation_method`); TF's constants."""

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2
