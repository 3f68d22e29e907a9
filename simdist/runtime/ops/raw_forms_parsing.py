"""The raw forms of ParseExampleV2 and ParseSequenceExampleV2 (clause ops.raw-ops).

TF's raw op takes the feature keys as string tensors (sparse_keys, dense_keys, ragged_keys), the
dense defaults as a list input and the types and shapes as attrs; simdist's op (example_parsing.py)
takes the keys and types as attrs and parses a ragged key as a sparse one (its values per
Example). The raw form reads the keys, runs the op as tf.io.parse_example does, and returns TF's
six output lists: sparse indices, values and shapes, dense values, ragged values and row splits
(of ragged_split_types; a scalar `serialized` has empty row splits, observed on TF 2.21). A key
named twice (TF 2.21 then parses nothing for it, observed) is UnimplementedError.
ParseSequenceExampleV2 likewise runs sequence_parsing's op, whose outputs are TF's fourteen lists
flat in TF's order when no key is ragged; ragged context or feature-list keys (which simdist's op
does not parse) are UnimplementedError (session 28).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import registry
from simdist.runtime.ops.raw_args import RawArgs

__all__ = ["declare", "parse_example_v2", "parse_sequence_example_v2"]

_OP = "ParseExampleV2"


def _keys(t: Any) -> list[str]:
    """A keys input's strings (any shape: TF 2.21 reads it flat, observed)."""
    from simdist.runtime.ops import dispatch
    from simdist.runtime.ops.string_args import as_bytes
    a = np.asarray(dispatch.static_value(t), dtype=object)
    return [as_bytes(k).decode("utf-8", "surrogateescape") for k in a.reshape(-1)]


def parse_example_v2(serialized: Any, names: Any, sparse_keys: Any, dense_keys: Any, ragged_keys: Any,
                     dense_defaults: list, num_sparse: int, sparse_types: Any, ragged_value_types: Any,
                     ragged_split_types: Any, dense_shapes: Any) -> list[Any]:
    """ParseExampleV2: the op on the keys' values; the outputs flat in TF's order."""
    from simdist.runtime.ops import dispatch, example_parsing
    from simdist.runtime.tensor import convert_to_tensor
    from simdist.runtime.ops.args import dims
    sk, dk, rk = _keys(sparse_keys), _keys(dense_keys), _keys(ragged_keys)
    ns, nr = len(sk), len(rk)
    shapes = tuple(tuple(s) if s is not None else () for s in dense_shapes)
    prefix = (f"{{{{function_node __wrapped__{_OP}_Tdense_{len(dense_defaults)}_num_sparse_{num_sparse}"
              f"_ragged_split_types_{len(ragged_split_types)}_ragged_value_types_{len(ragged_value_types)}"
              f"_sparse_types_{len(sparse_types)}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} ")

    def invalid(text: str) -> errors.InvalidArgumentError:   # (TF's text, its function-node prefix first)
        return errors.InvalidArgumentError(None, None, f"{prefix}{text} [Op:{_OP}]")
    # the kernel's constructor (ParseExampleAttrs), then Compute's counts (observed on TF 2.21)
    if len(dense_shapes) != len(dense_defaults):
        raise invalid("len(dense_keys) != len(dense_shapes)")
    if len(ragged_value_types) != len(ragged_split_types):
        raise invalid("len(ragged_keys) != len(ragged_split_types)")
    for what, got, want in (("len(sparse_keys) == num_sparse", len(sk), num_sparse),
                            ("len(ragged_keys) == len(ragged_value_types)", len(rk), len(ragged_value_types)),
                            ("len(dense_keys) == len(dense_types)", len(dk), len(dense_defaults))):
        if got != want:
            raise invalid(f"Expected {what} but got: {got} vs. {want}")
    if serialized.ndim > 1:
        raise invalid(f"Expected serialized to be a scalar or vector, got shape: {dims(serialized.shape.as_list())}")
    if names.shape.num_elements() and names.shape.as_list() != serialized.shape.as_list():
        raise invalid(f"Expected names have the same shape as serialized: name.shape={dims(names.shape.as_list())}, "
                      f"serialized.shape={dims(serialized.shape.as_list())}")
    every = sk + dk + rk
    if len(set(every)) != len(every):
        raise errors.UnimplementedError(None, None, f"simdist computes {_OP} with distinct feature keys only, not "
                                        f"{every} [Op:{_OP}]")
    attrs = {"sparse_keys": tuple(sk + rk), "sparse_types": tuple(t.name for t in list(sparse_types) +
                                                                  list(ragged_value_types)),
             "dense_keys": tuple(dk), "dense_types": tuple(d.dtype.name for d in dense_defaults),
             "dense_shapes": shapes, "prefix": prefix}
    outs = dispatch.execute(example_parsing.PARSE_EXAMPLE, (serialized, names, *dense_defaults), attrs)
    outs = list(outs) if isinstance(outs, (tuple, list)) else [outs]
    n = ns + nr
    indices, values, dshapes, dense = outs[:n], outs[n:2 * n], outs[2 * n:3 * n], outs[3 * n:]
    splits = []
    for r in range(nr):
        dt = dtypes.as_dtype(ragged_split_types[r])
        if serialized.ndim == 0:
            splits.append(convert_to_tensor(np.zeros((0,), dt.np), dtype=dt))
            continue
        rows = np.asarray(dispatch.static_value(indices[ns + r]))[:, 0]
        batch = int(np.asarray(dispatch.static_value(dshapes[ns + r]))[0])
        counts = np.bincount(rows, minlength=batch)
        splits.append(convert_to_tensor(np.concatenate([[0], np.cumsum(counts)]).astype(dt.np), dtype=dt))
    return (indices[:ns] + values[:ns] + dshapes[:ns] + dense + values[ns:] + splits)


_SEQ = "ParseSequenceExampleV2"


def parse_sequence_example_v2(serialized: Any, debug_name: Any, context_sparse_keys: Any, context_dense_keys: Any,
                              context_ragged_keys: Any, feature_list_sparse_keys: Any, feature_list_dense_keys: Any,
                              feature_list_ragged_keys: Any, feature_list_dense_missing_assumed_empty: Any,
                              context_dense_defaults: list, Ncontext_sparse: int, context_sparse_types: Any,  # noqa: N803
                              context_ragged_value_types: Any, context_ragged_split_types: Any,
                              context_dense_shapes: Any, Nfeature_list_sparse: int,  # noqa: N803 - TF's names
                              Nfeature_list_dense: int, feature_list_dense_types: Any,  # noqa: N803
                              feature_list_sparse_types: Any, feature_list_ragged_value_types: Any,
                              feature_list_ragged_split_types: Any, feature_list_dense_shapes: Any) -> list[Any]:
    """ParseSequenceExampleV2: the kernel's count and shape checks (TF's texts, observed), then
    sequence_parsing's op on the keys' values."""
    from simdist.runtime.ops import dispatch, sequence_parsing
    from simdist.runtime.ops.args import dims
    cs, cd, cr = _keys(context_sparse_keys), _keys(context_dense_keys), _keys(context_ragged_keys)
    fs, fd, fr = _keys(feature_list_sparse_keys), _keys(feature_list_dense_keys), _keys(feature_list_ragged_keys)
    missing = [bool(v) for v in np.asarray(dispatch.static_value(feature_list_dense_missing_assumed_empty)).reshape(-1)]

    def invalid(text: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, f"{text} [Op:{_SEQ}]")
    for what, got, want in (("len(context_sparse_keys) to match Ncontext_sparse", len(cs), Ncontext_sparse),
                            ("len(context_dense_keys) to match len(Tcontext_dense)", len(cd),
                             len(context_dense_defaults)),
                            ("len(feature_list_sparse_keys) to match Nfeature_list_sparse", len(fs),
                             Nfeature_list_sparse),
                            ("len(feature_list_dense_keys) to match Nfeature_list_dense", len(fd), Nfeature_list_dense),
                            ("len(feature_list_dense_missing_assumed_empty to match Nfeature_list_dense", len(missing),
                             Nfeature_list_dense)):
        if got != want:
            raise invalid(f"Expected {what}")
    if serialized.ndim > 1:
        raise invalid(f"Expected serialized to be a scalar or vector, got shape: {dims(serialized.shape.as_list())}")
    if cr or fr or context_ragged_value_types or feature_list_ragged_value_types:
        raise errors.UnimplementedError(None, None, f"simdist computes {_SEQ} without ragged keys only [Op:{_SEQ}]")

    def shapes(given: Any) -> tuple:
        return tuple(tuple(s) if s is not None else () for s in given)
    attrs = {"ctx_sparse": tuple(cs), "ctx_sparse_types": tuple(t.name for t in context_sparse_types),
             "ctx_dense": tuple(cd), "ctx_dense_types": tuple(d.dtype.name for d in context_dense_defaults),
             "ctx_dense_shapes": shapes(context_dense_shapes), "fl_sparse": tuple(fs),
             "fl_sparse_types": tuple(t.name for t in feature_list_sparse_types), "fl_dense": tuple(fd),
             "fl_dense_types": tuple(t.name for t in feature_list_dense_types),
             "fl_dense_shapes": shapes(feature_list_dense_shapes), "fl_missing_ok": tuple(missing)}
    outs = dispatch.execute(sequence_parsing.PARSE_SEQUENCE_EXAMPLE, (serialized, debug_name, *context_dense_defaults),
                            attrs)
    return list(outs) if isinstance(outs, (tuple, list)) else [outs]


def declare() -> None:
    """Set the raw forms above on their ops (idempotent)."""
    registry.set_raw_args(_OP, RawArgs(via=parse_example_v2))
    registry.set_raw_args(_SEQ, RawArgs(via=parse_sequence_example_v2))
