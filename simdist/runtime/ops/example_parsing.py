"""`tf.io.parse_example` and `tf.io.parse_single_example` (TF 2.21's python/ops/parsing_ops.py) over
the ParseExampleV2 kernel (core/util/example_proto_fast_parsing.cc: FastParseExample for a vector
of serialized Examples, FastParseSingleExample for a scalar).

The kernel reads each Example's feature map (a repeated key wins by its last entry, as protobuf's
merge; a Feature with no list set counts as missing). Only float32 (FloatList), int64 (Int64List)
and string (BytesList) features; a feature's list type must be the configured one.
- FixedLenFeature(shape): exactly prod(shape) values, output shape `shape` (batched: [B] + shape);
  missing: the default_value, else InvalidArgumentError "... Feature: k (data type: float) is
  required but could not be found.";
- FixedLenSequenceFeature(shape): any multiple of prod(shape) values, output [n] + shape (batched:
  [B, max n] + shape padded with default_value, "" or 0); parse_example needs allow_missing=True;
- VarLenFeature: a SparseTensor of the values (indices [[j]], dense_shape [n]; batched [[b, j]],
  dense_shape [B, max n]);
- RaggedFeature (no partitions): the values as a 1-D tensor (batched: a RaggedTensor, row_splits of
  row_splits_dtype); parsed as the kernel's ragged keys, with the sparse keys' checks;
- SparseFeature: the VarLen value and index features merged (sparse_merge: the index values are
  the last index column, dense_shape size, reordered unless already_sorted).
The errors are TF's InvalidArgumentErrors word for word (a scalar input's and a batch's differ:
the batch's name the example and its index). Not differentiable (TF: no gradient). Clause
io.parse-example.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, symbolic
from simdist.runtime.ops import dispatch, static_shapes
from simdist.runtime.ops.parsing_config import (FixedLenFeature, FixedLenSequenceFeature, ParseParams, RaggedFeature,
                                                SparseFeature, VarLenFeature)
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, bytes_array, string_tensor
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["parse_example", "parse_single_example", "PARSE_EXAMPLE"]

_C_NAME = {"float32": "float", "int64": "int64", "string": "string"}   # DataTypeString
_LIST = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_KIND_DTYPE = {"float_list": "float32", "int64_list": "int64", "bytes_list": "string"}
_ALLOWED = "float, int64, string"
# the op's signature as TF's attr error prints it (its OpDef, core/ops/parsing_ops.cc)
_OPDEF = ("Op<name=ParseExampleV2; signature=serialized:string, names:string, sparse_keys:string, dense_keys:string, "
          "ragged_keys:string, dense_defaults: -> sparse_indices:num_sparse*int64, sparse_values:, "
          "sparse_shapes:num_sparse*int64, dense_values:, ragged_values:, ragged_row_splits:; "
          "attr=Tdense:list(type),min=0,allowed=[DT_FLOAT, DT_INT64, DT_STRING]; attr=num_sparse:int,min=0; "
          "attr=sparse_types:list(type),min=0,allowed=[DT_FLOAT, DT_INT64, DT_STRING]; "
          "attr=ragged_value_types:list(type),min=0,allowed=[DT_FLOAT, DT_INT64, DT_STRING]; "
          "attr=ragged_split_types:list(type),min=0,allowed=[DT_INT32, DT_INT64]; attr=dense_shapes:list(shape),min=0>")


def _shape_text(shape: tuple) -> str:
    """TensorShape::DebugString of a PartialTensorShape: [3], [], [?,2]."""
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _error(prefix: str, text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{prefix}{text} [Op:ParseExampleV2]")


def _features(serialized: bytes, prefix: str) -> Any:
    """The Example's feature map (key -> Feature message)."""
    from google.protobuf.message import DecodeError

    from simdist.runtime.example_proto import message_class
    try:
        example = message_class("Example").FromString(serialized)
    except DecodeError:
        raise _error(prefix, "Could not parse example input, value: '"
                     + serialized.decode("utf-8", "replace") + "'") from None
    return example.features.feature


def _values(feature: Any, kind: str, dtype: str) -> Any:
    values = getattr(feature, kind).value
    if dtype == "string":
        return list(values)
    return np.asarray(values, dtype=np.dtype(dtype))


def _dims(shape: Any) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def _check_defaults(defaults: tuple, dense_shapes: tuple, prefix: str) -> None:
    """The kernel's dense default checks before it parses (example_parsing_ops.cc): a variable-length feature's
    default one padding element; a fixed one's, when given, of a shape compatible with dense_shapes[d] (TF 2.21's
    texts, observed: "def_value[0].shape() == [2] is not compatible with dense_shapes_[0] == [3]")."""
    for d, (default, shape) in enumerate(zip(defaults, dense_shapes)):
        shape = tuple(shape)
        if shape and shape[0] is None:
            if default.size != 1:
                raise _error(prefix, f"dense_shape[{d}] is a variable length shape: {_dims(shape)}, therefore "
                             f"def_value[{d}] must contain a single element (the padding element).  But "
                             f"def_value[{d}].shape() == {_dims(default.shape)}")
        elif default.size and (len(shape) != default.ndim or any(a is not None and a != b
                                                                  for a, b in zip(shape, default.shape))):
            raise _error(prefix, f"def_value[{d}].shape() == {_dims(default.shape)} is not compatible with "
                         f"dense_shapes_[{d}] == {_dims(shape)}")


def _parse(serialized: np.ndarray, names: np.ndarray, *defaults: np.ndarray, sparse_keys: tuple,
           sparse_types: tuple, dense_keys: tuple, dense_types: tuple, dense_shapes: tuple,
           prefix: str = "") -> tuple:
    """The kernel: (sparse indices..., sparse values..., sparse shapes..., dense values...)."""
    _check_defaults(defaults, dense_shapes, prefix)
    scalar = serialized.ndim == 0
    flat = serialized.reshape(-1)
    batch = len(flat)
    sparse: list[list] = [[] for _ in sparse_keys]       # per key: each example's values
    dense: list[list] = [[] for _ in dense_keys]
    for b, raw in enumerate(flat):
        fmap = _features(raw if isinstance(raw, bytes) else bytes(raw), prefix)
        name = (names.reshape(-1)[b].decode("utf-8", "replace") if names.size else "<unknown>")
        where = "" if scalar else f"Name: {name}, "

        def key_error(key: str, text: str) -> errors.InvalidArgumentError:
            if scalar:
                return _error(prefix, f"Key: {key}.  {text}")
            return _error(prefix, f"Name: {name}, Key: {key}, Index: {b}.  {text}")

        for d, key in enumerate(dense_keys):
            dt, shape = dense_types[d], dense_shapes[d]
            varlen = len(shape) > 0 and shape[0] is None
            stride = int(np.prod(shape[1:] if varlen else shape, dtype=np.int64))
            feature = fmap[key] if key in fmap else None
            kind = feature.WhichOneof("kind") if feature is not None else None
            if kind is None:
                if varlen:
                    dense[d].append(np.zeros((0,) + tuple(shape[1:]), dtype=object if dt == "string" else dt))
                    continue
                if defaults[d].size == 0:
                    raise _error(prefix, f"{where}Feature: {key} (data type: {_C_NAME[dt]}) is required but could "
                                 "not be found.")
                dense[d].append(defaults[d].reshape(shape))
                continue
            if _KIND_DTYPE[kind] != dt:
                raise key_error(key, f"Data types don't match. Data type: {_C_NAME[_KIND_DTYPE[kind]]} but expected "
                                f"type: {_C_NAME[dt]}")
            vals = _values(feature, kind, dt)
            n = len(vals)
            if varlen:
                if n % stride:
                    if scalar:
                        raise _error(prefix, f"Error while parsing feature with key {key}: number of elements should be "
                                     f"divisible by {stride}, found {n} instead")
                    word = "bytes" if dt == "string" else _C_NAME[dt]
                    raise key_error(key, f"Number of {word} values is not a multiple of stride length. Saw {n} values "
                                    f"but output shape is: {_shape_text(shape)}")
                dense[d].append(_array(vals, dt).reshape((n // stride,) + tuple(shape[1:])))
                continue
            if n != stride:
                word = "bytes" if dt == "string" else _C_NAME[dt]
                if scalar:
                    raise key_error(key, f"Can't parse serialized Example: Some {_LIST[dt]} slice was not parsed.")
                raise key_error(key, f"Number of {word} values != expected.  Values size: {n} but output shape: "
                                f"{_shape_text(shape)}")
            dense[d].append(_array(vals, dt).reshape(shape))
        for s, key in enumerate(sparse_keys):
            dt = sparse_types[s]
            feature = fmap[key] if key in fmap else None
            kind = feature.WhichOneof("kind") if feature is not None else None
            if kind is None:
                sparse[s].append(_array([], dt))
                continue
            if _KIND_DTYPE[kind] != dt:
                raise key_error(key, f"Data types don't match. Expected type: {_C_NAME[dt]}, Actual type: "
                                f"{_C_NAME[_KIND_DTYPE[kind]]}")
            sparse[s].append(_array(_values(feature, kind, dt), dt))
    indices, values, shapes = [], [], []
    for s, per in enumerate(sparse):
        lengths = [len(v) for v in per]
        if scalar:
            indices.append(np.arange(lengths[0], dtype=np.int64).reshape(-1, 1))
            shapes.append(np.asarray(lengths, np.int64))
        else:
            rows = [np.stack([np.full(n, b, np.int64), np.arange(n, dtype=np.int64)], axis=1)
                    for b, n in enumerate(lengths)]
            indices.append(np.concatenate(rows).reshape(-1, 2) if rows else np.zeros((0, 2), np.int64))
            shapes.append(np.asarray([batch, max(lengths, default=0)], np.int64))
        values.append(np.concatenate(per) if per else _array([], sparse_types[s]))
    outs = []
    for d, per in enumerate(dense):
        shape, dt = dense_shapes[d], dense_types[d]
        if scalar:
            outs.append(per[0])
        elif len(shape) > 0 and shape[0] is None:
            longest = max((len(v) for v in per), default=0)
            full = np.empty((batch, longest) + tuple(shape[1:]), dtype=object if dt == "string" else dt)
            full[...] = defaults[d].reshape(())
            for b, v in enumerate(per):
                full[b, :len(v)] = v
            outs.append(full)
        else:
            outs.append(np.stack(per) if per else np.zeros((0,) + tuple(shape), dtype=object if dt == "string" else dt))
    return tuple(indices) + tuple(values) + tuple(shapes) + tuple(outs)


def _array(vals: Any, dt: str) -> np.ndarray:
    if dt == "string":
        return bytes_array((len(vals),), list(vals))
    return np.asarray(vals, dtype=np.dtype(dt))


def _rule(dts: Any, attrs: Any) -> tuple:
    ns = len(attrs["sparse_keys"])
    return ((dtypes.int64,) * ns + tuple(dtypes.as_dtype(t) for t in attrs["sparse_types"]) + (dtypes.int64,) * ns
            + tuple(dtypes.as_dtype(t) for t in attrs["dense_types"]))


PARSE_EXAMPLE = register("ParseExampleV2", _parse, _rule, num_outputs=-1, kind="gather/scatter",
                         fusion=lanes("decodes each serialized Example in Python: no stacked form written"),
                         **STRING_COST)
NotDifferentiable("ParseExampleV2")


def _check_types(params: ParseParams) -> None:
    """The op's attr check: every type float32, int64 or string (InvalidArgumentError)."""
    for attr, types in (("sparse_types", params.sparse_types), ("Tdense", params.dense_types)):
        for t in types:
            if t.name not in _C_NAME:
                c_name = {"float64": "double", "float16": "half"}.get(t.name, t.name)
                raise errors.InvalidArgumentError(
                    None, None, f"Value for attr '{attr}' of {c_name} is not in the list of allowed values: "
                    f"{_ALLOWED}\n\t; NodeDef: {{{{node ParseExampleV2}}}}; {_OPDEF} [Op:ParseExampleV2]")


def _parse_raw(serialized: Tensor, names: Any, params: ParseParams) -> dict:
    if params.num_features == 0:
        raise ValueError("Must provide at least one feature key.")
    _check_types(params)
    names_t = string_tensor([] if names is None else names, "ParseExampleV2", "names")
    defaults = [params.dense_default(i) for i in range(len(params.dense_keys))]
    ragged = params.ragged_keys
    sparse_keys, sparse_types = params.sparse_keys + ragged, params.sparse_types + params.ragged_types
    ns, nd = len(params.sparse_keys), len(params.dense_keys)
    attrs = {"sparse_keys": tuple(sparse_keys), "sparse_types": tuple(t.name for t in sparse_types),
             "dense_keys": tuple(params.dense_keys), "dense_types": tuple(t.name for t in params.dense_types),
             "dense_shapes": tuple(tuple(s.as_list()) for s in params.dense_shapes),
             "prefix": (f"{{{{function_node __wrapped__ParseExampleV2_Tdense_{nd}_num_sparse_{ns}_ragged_split_types_0"
                        f"_ragged_value_types_0_sparse_types_{ns}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}} ")}
    outs = dispatch.execute(PARSE_EXAMPLE, (serialized, names_t, *defaults), attrs)
    outs = outs if isinstance(outs, tuple) else (outs,)
    batch = [] if serialized.shape.rank == 0 else [_graph_dim0(serialized)]
    result: dict = {}
    nall = ns + len(ragged)
    for s, key in enumerate(sparse_keys):
        indices = static_shapes.declare(outs[s], [None, len(batch) + 1])
        values = static_shapes.declare(outs[nall + s], [None])
        parts = SparseTensor(indices, values, static_shapes.declare(outs[2 * nall + s], [len(batch) + 1]))
        result[key] = parts if s < ns else _ragged(parts, params.ragged_split_types[s - ns], not batch)
    for d, key in enumerate(params.dense_keys):   # (the op's shape function: batch + the feature's shape)
        result[key] = static_shapes.declare(outs[3 * nall + d], batch + params.dense_shapes[d].as_list())
    return result


def _graph_dim0(t: Tensor) -> int | None:
    """The first dimension of t as TF's graph knows it (a tf.data function's argument: its element spec's)."""
    noted = symbolic.noted_shape(t)
    if noted is not None and noted.rank:
        return noted.as_list()[0]
    return static_shapes.known_dim(t, 0)


def _merge(features: dict, parsed: dict) -> dict:
    """parsing_config._construct_tensors_for_composite_features: each SparseFeature's index and
    value SparseTensors merged (sparse_ops.sparse_merge), each RaggedFeature its value key's
    result, the parts dropped."""
    out = dict(parsed)
    updates = {}
    for key in sorted(features.keys()):
        feature = features[key]
        if isinstance(feature, SparseFeature):
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) else list(feature.index_key)
            sizes = [feature.size] if isinstance(feature.index_key, str) else list(feature.size)
            updates[key] = _sparse_merge([parsed[k] for k in index_keys], parsed[feature.value_key], sizes,
                                         feature.already_sorted)
        elif isinstance(feature, RaggedFeature):
            updates[key] = parsed[key if feature.value_key is None else feature.value_key]
    out.update(updates)
    for key in [k for k in out if k not in features]:
        del out[key]
    return out


def _sparse_merge(ids: list, values: SparseTensor, sizes: list, already_sorted: bool) -> SparseTensor:
    from simdist.runtime.ops import sparse_api
    rows = ids[0].indices.numpy()[:, :-1]
    index = np.concatenate([rows] + [i.values.numpy().reshape(-1, 1).astype(np.int64) for i in ids], axis=1)
    shape = np.concatenate([ids[0].dense_shape.numpy()[:-1], np.asarray(sizes, np.int64)])
    merged = SparseTensor(index, values.values, shape)
    return merged if already_sorted else sparse_api.reorder(merged)


def parse_example(serialized: Any, features: dict, example_names: Any = None, name: str | None = None) -> dict:
    """`tf.io.parse_example`: a batch (vector) of serialized Examples parsed by `features`."""
    if not features:
        raise ValueError(f"Argument `features` cannot be None or falsy. Got {features}")
    features = _prepend_none_dimension(features)
    params = ParseParams.from_features(features, (VarLenFeature, SparseFeature, FixedLenFeature,
                                                  FixedLenSequenceFeature, RaggedFeature))
    parsed = _parse_raw(string_tensor(serialized, "ParseExampleV2", "serialized"), example_names, params)
    return _merge(features, parsed)


def _ragged(parts: SparseTensor, split_dtype: dtypes.DType, scalar: bool) -> Any:
    """A ragged key's result (parsing_config._build_ragged_tensors): one Example's values as a 1-D
    tensor; a batch's as a RaggedTensor whose row_splits (split_dtype) count each Example's values."""
    if scalar:
        return parts.values
    from simdist.runtime.ragged_tensor import RaggedTensor
    rows = parts.indices.numpy()[:, 0]
    batch = int(parts.dense_shape.numpy()[0])
    splits = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=batch))]).astype(split_dtype.np)
    return RaggedTensor.from_row_splits(parts.values, convert_to_tensor(splits, dtype=split_dtype))


def parse_single_example(serialized: Any, features: dict, example_names: Any = None,
                         name: str | None = None) -> dict:
    """`tf.io.parse_single_example`: one serialized Example (a scalar) parsed by `features`."""
    if features is None:
        raise ValueError("Invalid argument: features cannot be None.")
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    serialized = string_tensor(serialized, "ParseExampleV2", "serialized")
    if serialized.shape.rank != 0:
        raise ValueError("Input serialized must be a scalar")
    return parse_example(serialized, features, example_names, name)


def _prepend_none_dimension(features: dict) -> dict:
    out = dict(features)
    for key, feature in features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to be True.")
            out[key] = FixedLenSequenceFeature([None] + list(feature.shape), feature.dtype, feature.allow_missing,
                                               feature.default_value)
    return out

