"""`tf.io.parse_single_sequence_example` and `tf.io.parse_sequence_example` (TF 2.21's
python/ops/parsing_ops.py over the ParseSequenceExampleV2 kernel, core/util/
example_proto_fast_parsing.cc FastParseSequenceExample).

Context features (FixedLenFeature, VarLenFeature) and feature lists (FixedLenSequenceFeature,
VarLenFeature) of serialized SequenceExamples, with the kernel's rules and messages:
- a context FixedLenFeature's element count is the largest over the examples (at least its
  default's); it must equal prod(shape) ("Inconsistent max number of elements for feature n:
  expected 1, but found 0": a single example without it and no default), each example must have it
  ("Unexpected number of elements in example <name>"), a missing one takes the default ("Feature:
  n (data type: int64) is required but could not be found."); a list of another type is "Name:
  <name>, Context feature: c.  Data types don't match. Expected type: int64";
- a context VarLenFeature is a SparseTensor ([[i]] / [[e, i]], dense_shape [longest] / [B, longest]);
- a FixedLenSequenceFeature(shape) needs prod(shape) values in every frame ("Name: <name>, Key: f,
  Index: 0.  Number of values != expected.  values size: 2 but output shape: [3]"), output [frames]
  + shape (batched [B, most frames] + shape, zero-padded; the frame counts are parse_sequence_example's
  third result); a missing feature list is "... Feature list 'q' is required but could not be found.
  ..." unless allow_missing (then no frames); default_value is refused (ValueError "Value
  feature_list.dense_defaults[f] must be None");
- a sequence VarLenFeature is a SparseTensor indexed [frame, j] (batched [e, frame, j]), dense_shape
  [frames, longest frame] (batched [B, most frames, longest frame]);
- a frame's list of another type is "Name: <name>, Feature list: f, Index: 0.  Data types don't
  match. Expected type: int64"; bytes that are no SequenceExample "Invalid protocol message input,
  example id: <name>".
Not differentiable. Clause io.parse-example.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.example_parsing import _C_NAME, _KIND_DTYPE, _array, _check_types, _shape_text
from simdist.runtime.ops.parsing_config import FixedLenFeature, FixedLenSequenceFeature, ParseParams, VarLenFeature
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor
from simdist.runtime.sparse_tensor import SparseTensor
from simdist.runtime.tensor import Tensor

__all__ = ["parse_single_sequence_example", "parse_sequence_example"]


def _error(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:ParseSequenceExampleV2]")


def _kind_values(feature: Any) -> tuple[str | None, list]:
    kind = feature.WhichOneof("kind")
    return (None, []) if kind is None else (_KIND_DTYPE[kind], list(getattr(feature, kind).value))


def _parse(serialized: np.ndarray, names: np.ndarray, *defaults: np.ndarray, ctx_sparse: tuple, ctx_sparse_types: tuple,
           ctx_dense: tuple, ctx_dense_types: tuple, ctx_dense_shapes: tuple, fl_sparse: tuple, fl_sparse_types: tuple,
           fl_dense: tuple, fl_dense_types: tuple, fl_dense_shapes: tuple, fl_missing_ok: tuple) -> tuple:
    from google.protobuf.message import DecodeError

    from simdist.runtime.example_proto import message_class
    batch = serialized.ndim != 0
    flat = serialized.reshape(-1)
    n_ex = len(flat)
    label = [names.reshape(-1)[e].decode("utf-8", "replace") if names.size else "<unknown>" for e in range(n_ex)]
    examples = []
    for e, raw in enumerate(flat):
        try:
            examples.append(message_class("SequenceExample").FromString(as_bytes(raw)))
        except DecodeError:
            raise _error(f"Invalid protocol message input, example id: {label[e]}") from None
    # context lengths (GetContextFeatureLengths): the type check on every present feature
    ctx_vals: dict[str, list] = {}
    for key, dt in list(zip(ctx_dense, ctx_dense_types)) + list(zip(ctx_sparse, ctx_sparse_types)):
        per = []
        for e, ex in enumerate(examples):
            fmap = ex.context.feature
            if key not in fmap:
                per.append(None)
                continue
            kind, vals = _kind_values(fmap[key])
            if kind is not None and kind != dt:
                raise _error(f"Name: {label[e]}, Context feature: {key}.  Data types don't match. Expected type: "
                             f"{_C_NAME[dt]}")
            per.append(vals)
        ctx_vals[key] = per
    fl_vals: dict[str, list] = {}
    for key, dt in list(zip(fl_dense, fl_dense_types)) + list(zip(fl_sparse, fl_sparse_types)):
        per = []
        for e, ex in enumerate(examples):
            lists = ex.feature_lists.feature_list
            if key not in lists:
                per.append(None)
                continue
            frames = []
            for row, frame in enumerate(lists[key].feature):
                kind, vals = _kind_values(frame)
                if kind is not None and kind != dt and vals:
                    raise _error(f"Name: {label[e]}, Feature list: {key}, Index: {row}.  Data types don't match. "
                                 f"Expected type: {_C_NAME[dt]}")
                frames.append(vals if kind == dt else [])
            per.append(frames)
        fl_vals[key] = per
    outs: list[np.ndarray] = []
    c_ind, c_val, c_shp = _sparse(ctx_sparse, ctx_sparse_types, ctx_vals, batch, n_ex, frames=False)
    c_dense = []
    for d, key in enumerate(ctx_dense):
        dt, shape = ctx_dense_types[d], tuple(ctx_dense_shapes[d])
        want = int(np.prod(shape, dtype=np.int64))
        longest = max([len(v) for v in ctx_vals[key] if v is not None] + [defaults[d].size])
        if longest != want:
            raise _error(f"Inconsistent max number of elements for feature {key}: expected {want}, but found {longest}")
        rows = []
        for e, v in enumerate(ctx_vals[key]):
            if v is None:
                if defaults[d].size == 0:
                    raise _error(f"Feature: {key} (data type: {_C_NAME[dt]}) is required but could not be found.")
                rows.append(defaults[d].reshape(shape))
                continue
            if len(v) != want:
                raise _error(f"Unexpected number of elements in example {label[e]}")
            rows.append(_array(v, dt).reshape(shape))
        c_dense.append(np.stack(rows) if batch else rows[0])
    f_ind, f_val, f_shp = _sparse(fl_sparse, fl_sparse_types, fl_vals, batch, n_ex, frames=True)
    f_dense, f_lengths = [], []
    for d, key in enumerate(fl_dense):
        dt, shape = fl_dense_types[d], tuple(fl_dense_shapes[d])
        stride = int(np.prod(shape, dtype=np.int64))
        blocks = []
        for e, frames in enumerate(fl_vals[key]):
            if frames is None:
                if not fl_missing_ok[d]:
                    raise _error(f"Name: {label[e]}, Feature list '{key}' is required but could not be found.  Did you "
                                 "mean to include it in feature_list_dense_missing_assumed_empty or "
                                 "feature_list_dense_defaults?")
                frames = []
            for row, vals in enumerate(frames):
                if len(vals) != stride:
                    raise _error(f"Name: {label[e]}, Key: {key}, Index: {row}.  Number of values != expected.  values "
                                 f"size: {len(vals)} but output shape: {_shape_text(shape)}")
            blocks.append([_array(v, dt).reshape(shape) for v in frames])
        most = max((len(b) for b in blocks), default=0)
        full = np.zeros((n_ex, most) + shape, dtype=object if dt == "string" else np.dtype(dt))
        if dt == "string":
            full[...] = b""
        for e, b in enumerate(blocks):
            if b:
                full[e, :len(b)] = np.stack(b)
        f_dense.append(full if batch else full[0])
        lengths = np.asarray([len(b) for b in blocks], np.int64)
        f_lengths.append(lengths if batch else lengths.reshape(()))
    outs = c_ind + c_val + c_shp + c_dense + f_ind + f_val + f_shp + f_dense + f_lengths
    return tuple(outs)


def _sparse(keys: tuple, types: tuple, vals: dict, batch: bool, n_ex: int, frames: bool) -> tuple[list, list, list]:
    """SparseTensor parts of context (frames=False) or sequence (frames=True) VarLenFeatures."""
    inds, values, shapes = [], [], []
    for key, dt in zip(keys, types):
        rows, flat_vals, most_rows, most_cols = [], [], 0, 0
        for e, v in enumerate(vals[key]):
            if v is None:
                continue
            groups = v if frames else [v]
            most_rows = max(most_rows, len(groups))
            for r, g in enumerate(groups):
                most_cols = max(most_cols, len(g))
                for j in range(len(g)):
                    rows.append(([e] if batch else []) + ([r] if frames else []) + [j])
                flat_vals.extend(g)
        width = int(batch) + int(frames) + 1
        inds.append(np.asarray(rows, np.int64).reshape(-1, width))
        values.append(_array(flat_vals, dt))
        shape = ([n_ex] if batch else []) + ([most_rows] if frames else []) + [most_cols]
        shapes.append(np.asarray(shape, np.int64))
    return inds, values, shapes


def _rule(dts: Any, attrs: Any) -> tuple:
    def t(names: tuple) -> tuple:
        return tuple(dtypes.as_dtype(x) for x in names)
    cs, fs = len(attrs["ctx_sparse"]), len(attrs["fl_sparse"])
    return ((dtypes.int64,) * cs + t(attrs["ctx_sparse_types"]) + (dtypes.int64,) * cs + t(attrs["ctx_dense_types"])
            + (dtypes.int64,) * fs + t(attrs["fl_sparse_types"]) + (dtypes.int64,) * fs + t(attrs["fl_dense_types"])
            + (dtypes.int64,) * len(attrs["fl_dense"]))


PARSE_SEQUENCE_EXAMPLE = register("ParseSequenceExampleV2", _parse, _rule, num_outputs=-1, kind="gather/scatter",
                                  fusion=lanes("decodes each serialized SequenceExample in Python: no stacked form "
                                               "written"), **STRING_COST)
NotDifferentiable("ParseSequenceExampleV2")


def _parse_raw(serialized: Tensor, names: Any, context: ParseParams, feature_list: ParseParams) -> tuple:
    for key in feature_list.dense_keys:
        if feature_list.dense_defaults.get(key) is not None:
            raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
    _check_types(context)
    _check_types(feature_list)
    names_t = string_tensor([] if names is None else names, "ParseSequenceExampleV2", "debug_name")
    defaults = [context.dense_default(i) for i in range(len(context.dense_keys))]
    attrs = {"ctx_sparse": tuple(context.sparse_keys), "ctx_sparse_types": tuple(t.name for t in context.sparse_types),
             "ctx_dense": tuple(context.dense_keys), "ctx_dense_types": tuple(t.name for t in context.dense_types),
             "ctx_dense_shapes": tuple(tuple(s.as_list()) for s in context.dense_shapes),
             "fl_sparse": tuple(feature_list.sparse_keys),
             "fl_sparse_types": tuple(t.name for t in feature_list.sparse_types),
             "fl_dense": tuple(feature_list.dense_keys), "fl_dense_types": tuple(t.name for t in feature_list.dense_types),
             "fl_dense_shapes": tuple(tuple(s.as_list()) for s in feature_list.dense_shapes),
             "fl_missing_ok": tuple(k in feature_list.dense_defaults for k in feature_list.dense_keys)}
    outs = dispatch.execute(PARSE_SEQUENCE_EXAMPLE, (serialized, names_t, *defaults), attrs)
    outs = list(outs) if isinstance(outs, tuple) else [outs]
    cs, cd = len(context.sparse_keys), len(context.dense_keys)
    fs, fd = len(feature_list.sparse_keys), len(feature_list.dense_keys)
    ctx = {k: SparseTensor(outs[i], outs[cs + i], outs[2 * cs + i]) for i, k in enumerate(context.sparse_keys)}
    ctx.update({k: outs[3 * cs + i] for i, k in enumerate(context.dense_keys)})
    base = 3 * cs + cd
    fl = {k: SparseTensor(outs[base + i], outs[base + fs + i], outs[base + 2 * fs + i])
          for i, k in enumerate(feature_list.sparse_keys)}
    fl.update({k: outs[base + 3 * fs + i] for i, k in enumerate(feature_list.dense_keys)})
    lengths = {k: outs[base + 3 * fs + fd + i] for i, k in enumerate(feature_list.dense_keys)}
    return ctx, fl, lengths


def _params(context_features: Any, sequence_features: Any) -> tuple[ParseParams, ParseParams]:
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, but at least one "
                         "should have values.")
    return (ParseParams.from_features(context_features or {}, (VarLenFeature, FixedLenFeature)),
            ParseParams.from_features(sequence_features or {}, (VarLenFeature, FixedLenSequenceFeature)))


def parse_single_sequence_example(serialized: Any, context_features: Any = None, sequence_features: Any = None,
                                  example_name: Any = None, name: str | None = None) -> tuple[dict, dict]:
    """`tf.io.parse_single_sequence_example`: (context dict, feature_list dict) of one SequenceExample."""
    if context_features is None and sequence_features is None:
        raise ValueError("Both context_features and sequence_features are None, but at least one should have values.")
    context, feature_list = _params(context_features, sequence_features)
    serialized = string_tensor(serialized, "ParseSequenceExampleV2", "serialized")
    if serialized.shape.rank != 0:
        raise ValueError("Input serialized must be a scalar")
    ctx, fl, _ = _parse_raw(serialized, example_name, context, feature_list)
    return ctx, fl


def parse_sequence_example(serialized: Any, context_features: Any = None, sequence_features: Any = None,
                           example_names: Any = None, name: str | None = None) -> tuple[dict, dict, dict]:
    """`tf.io.parse_sequence_example`: (context, feature_lists, feature list lengths) of a batch of SequenceExamples."""
    context, feature_list = _params(context_features, sequence_features)
    return _parse_raw(string_tensor(serialized, "ParseSequenceExampleV2", "serialized"), example_names, context,
                      feature_list)
