"""Shape functions of the Ragged* raw ops (tensorflow/core/ops/ragged_array_ops.cc, ragged_conversion_ops.cc,
TF 2.21) on infer_ctx's InferenceContext (clause ops.ragged): the checks a tf.function makes as it adds the node,
a ValueError at trace where the kernel's InvalidArgumentError comes only when the graph runs."""

from __future__ import annotations

from simdist.runtime.ops.infer_ctx import Ctx, register

__all__: list[str] = []


@register("RaggedGather")
def _ragged_gather(c: Ctx) -> None:
    """RaggedGatherShapeFn: indices of rank OUTPUT_RAGGED_RANK - PARAMS_RAGGED_RANK + 1, each params splits a
    vector, params_dense_values of rank >= 1."""
    splits = c.input("params_nested_splits")
    c.with_rank(c.input("indices"), int(c.attr("OUTPUT_RAGGED_RANK")) - len(splits) + 1)
    for s in splits:
        c.with_rank(s, 1)
    c.with_rank_at_least(c.input("params_dense_values"), 1)


@register("RaggedTensorToSparse")
def _ragged_tensor_to_sparse(c: Ctx) -> None:
    """RaggedTensorToSparseShapeFn: rt_dense_values of rank >= 1, then each splits a vector."""
    c.with_rank_at_least(c.input("rt_dense_values"), 1)
    for s in c.input("rt_nested_splits"):
        c.with_rank(s, 1)


@register("RaggedTensorToTensor")
def _ragged_tensor_to_tensor(c: Ctx) -> None:
    """RaggedTensorToTensorShapeFn: the shape tensor of rank <= 1 (its value where the graph knows it), the
    partition types (ValidateRowPartitionTypesAndShapes: known names, FIRST_DIM_SIZE only first and followed by
    VALUE_ROWIDS, VALUE_ROWIDS not first, a scalar FIRST_DIM_SIZE and vector partitions), the default value's
    shape against the values', then the shape against the values' (CombineRaggedTensorToTensorShapes)."""
    from simdist.runtime.ops import raw_ragged
    shape = c.with_rank_at_most(c.input("shape"), 1)
    given = None
    v = c.value("shape")
    if v is not None and shape is not None:
        if len(shape) == 0:
            if int(v) != -1:
                c.fail("Input tensor must be rank 1, or if its rank 0 it must have value -1 to represent an unknown "
                       f"shape.  Saw value: {int(v)}")
        else:
            given = [int(d) for d in v.tolist()]
            for d in given:
                if d < -1:
                    c.fail(f"Dimension {d} must be >= -1")
    elif shape is not None and len(shape) == 1 and shape[0] is not None:
        given = [-1] * shape[0]
    try:
        types = raw_ragged.partition_types("RaggedTensorToTensor", c.attr("row_partition_types") or [])
    except Exception as e:  # noqa: BLE001 - the kernel's text, the shape function's too
        c.fail(str(e).split(" [Op:")[0].split("} ")[-1])
    for t in types:
        if t not in ("FIRST_DIM_SIZE", "VALUE_ROWIDS", "ROW_SPLITS"):
            c.fail(f"Unsupported partition type: {t}")
    if not types:
        c.fail("Partition info types should not be empty")
    if "FIRST_DIM_SIZE" in types[1:]:
        c.fail("FIRST_DIM_SIZE must be first")
    if types[0] == "FIRST_DIM_SIZE" and (len(types) < 2 or types[1] != "VALUE_ROWIDS"):
        c.fail("FIRST_DIM_SIZE must be followed by VALUE_ROWIDS")
    if types[0] == "VALUE_ROWIDS":
        c.fail("VALUE_ROWIDS cannot be first")
    parts = c.input("row_partition_tensors")
    if len(parts) != len(types):
        c.fail(f"Number of row partition tensors ({len(parts)}) does not equal the number of row partition "
               f"types({len(types)}).")
    for t, s in zip(types, parts):
        if s is None:
            continue
        if t == "FIRST_DIM_SIZE" and len(s) != 0:
            c.fail("FIRST_DIM_SIZE must be a scalar.")
        if t != "FIRST_DIM_SIZE" and len(s) != 1:
            c.fail("Row partition must be a vector.")
    values = c.input("values")
    bad = raw_ragged.default_value_error(c.input("default_value"), values)
    if bad is not None:
        c.fail(bad)
    _, bad = raw_ragged.combine_shapes(raw_ragged.ragged_rank_of(types), given, values)
    if bad is not None:
        c.fail(bad)


@register("RaggedFillEmptyRows")
def _ragged_fill_empty_rows(c: Ctx) -> None:
    """value_rowids and values vectors, nrows and default_value scalars, then the two vectors' lengths merged."""
    rowids = c.with_rank(c.input("value_rowids"), 1)
    values = c.with_rank(c.input("values"), 1)
    c.with_rank(c.input("nrows"), 0)
    c.with_rank(c.input("default_value"), 0)
    c.merge_dim(c.dim(rowids, 0), c.dim(values, 0))


@register("RaggedFillEmptyRowsGrad")
def _ragged_fill_empty_rows_grad(c: Ctx) -> None:
    """reverse_index_map and grad_values vectors."""
    c.with_rank(c.input("reverse_index_map"), 1)
    c.with_rank(c.input("grad_values"), 1)


@register("RaggedCross")
def _ragged_cross(c: Ctx) -> None:
    """The row splits of the ragged inputs merged into one vector (any other shape: "inputs must all have the
    same batch dimension size."), each dense input of rank 2 (an unknown rank passes) whose known batch size + 1
    merges into it too."""
    splits: list | None = [None]
    bad = "inputs must all have the same batch dimension size."
    for s in c.input("ragged_row_splits") or []:
        if s is None:
            continue
        if len(s) != 1 or (splits[0] is not None and s[0] is not None and s[0] != splits[0]):
            c.fail(bad)
        splits = [s[0] if s[0] is not None else splits[0]]
    for d in c.input("dense_inputs") or []:
        if d is None:
            continue
        if len(d) != 2:
            c.fail("tf.ragged.cross only supports inputs with rank=2")
        if d[0] is not None:
            if splits[0] is not None and splits[0] != d[0] + 1:
                c.fail(bad)
            splits = [d[0] + 1]
