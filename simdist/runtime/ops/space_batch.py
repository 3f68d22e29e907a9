"""Moving spatial blocks into the batch or the depth and back: tf.space_to_batch(_nd) and
tf.batch_to_space (SpaceToBatchND, BatchToSpaceND), tf.nn.space_to_depth and depth_to_space
(SpaceToDepth, DepthToSpace), as TF 2.21's array_ops.cc documents them; each op's gradient is
the other (array_grad.py). Shape ops: no FLOPs; each runs lane by lane in a fused replay (its
batch axis is the one that moves).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors
from simdist.runtime.ops import args, attr_rules, cpu_kernels, dispatch, shape_checks, static_shapes, trace_errors
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.registry import RegisterGradient, lanes, register
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["space_to_batch_nd", "space_to_batch", "batch_to_space", "space_to_depth", "depth_to_space"]

_BATCH_MOVES = lanes("it moves elements between the batch axis and others: no stacked form written")


def _s2b(a: np.ndarray, block: tuple[int, ...], pads: tuple[tuple[int, int], ...]) -> np.ndarray:
    m = len(block)
    width = [(0, 0)] + list(pads) + [(0, 0)] * (a.ndim - 1 - m)
    p = np.pad(a, width)
    b = p.shape[0]
    spatial = p.shape[1:1 + m]
    rest = p.shape[1 + m:]
    shape = [b]
    for s, k in zip(spatial, block):
        shape += [s // k, k]
    r = p.reshape(shape + list(rest))
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + list(range(1 + 2 * m, r.ndim))
    r = r.transpose(perm)
    return r.reshape([b * int(np.prod(block))] + [s // k for s, k in zip(spatial, block)] + list(rest))


def _b2s(a: np.ndarray, block: tuple[int, ...], crops: tuple[tuple[int, int], ...]) -> np.ndarray:
    m = len(block)
    prod = int(np.prod(block))
    b = a.shape[0] // prod
    spatial = a.shape[1:1 + m]
    rest = a.shape[1 + m:]
    r = a.reshape(list(block) + [b] + list(spatial) + list(rest))
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(2 * m + 1, r.ndim))
    r = r.transpose(perm).reshape([b] + [s * k for s, k in zip(spatial, block)] + list(rest))
    key = (slice(None),) + tuple(slice(c0, r.shape[1 + i] - c1) for i, (c0, c1) in enumerate(crops))
    return r[key]


def _numeric_kernels(name: str) -> Any:
    """SpaceToBatchND and BatchToSpaceND have CPU kernels for the numeric types: bool is NotFoundError."""
    def rule(dts: Any, attrs: Any) -> Any:
        if dts[0].name == "bool":
            raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {name}}}}} = "
                                       f"{name}[T=DT_BOOL] [Op:{name}]")
        return dts[0]
    return rule


SPACE_TO_BATCH_ND = register("SpaceToBatchND", _s2b, _numeric_kernels("SpaceToBatchND"), args.zero_flops, kind="shape",
                             fusion=_BATCH_MOVES)
BATCH_TO_SPACE_ND = register("BatchToSpaceND", _b2s, _numeric_kernels("BatchToSpaceND"), args.zero_flops, kind="shape",
                             fusion=_BATCH_MOVES)


def _block_and_pairs(block_shape: Any, pairs: Any, what: str, op: str, rank: int) -> tuple[tuple[int, ...], tuple]:
    from simdist.runtime.tensor import TensorShape
    if isinstance(block_shape, TensorShape):   # (converted as an int32 vector: TensorShape([]) is [])
        block_shape = np.asarray(block_shape.as_list(), np.int32)
    bs = np.asarray(dispatch.static_value(_t(block_shape)) if isinstance(block_shape, Tensor) else block_shape)
    pr = np.asarray(dispatch.static_value(_t(pairs)) if isinstance(pairs, Tensor) else pairs)
    for attr, v in (("Tblock_shape", block_shape), (f"T{what}", pairs)):
        if isinstance(v, (Tensor, np.ndarray)) and v.dtype.name not in ("int32", "int64"):
            # (the op's index type attrs, an empty float tensor too: `crops=tf.constant([])` is
            # InvalidArgumentError "Value for attr 'Tcrops' of float is not in the list of allowed values:
            # int32, int64"; fz31b, fz14 seed 1420313007 #189)
            name = v.dtype.name if isinstance(v, Tensor) else dtypes.as_dtype(v.dtype).name
            raise errors.InvalidArgumentError(None, None, f"Value for attr '{attr}' of "
                                              f"{args.tf_name(dtypes.as_dtype(name))} is not in the list of allowed "
                                              f"values: int32, int64 [Op:{op}]")
    if bs.dtype.kind not in "iu" or (pr.size and pr.dtype.kind not in "iu"):
        raise errors.InvalidArgumentError(None, None, f"block_shape and {what} must be integer tensors [Op:{op}]")
    if bs.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"block_shape must be one-dimensional, got shape "
                                          f"{args.dims(bs.shape)} [Op:{op}]")
    m = bs.shape[0]
    if rank < 1 + m:   # (the kernels check the input's rank before the crops'/paddings' shape)
        raise errors.InvalidArgumentError(None, None, f"input rank should be >= {1 + m} instead of {rank} [Op:{op}]")
    pr = pr.reshape(-1, 2) if pr.size else np.zeros((0, 2), np.int64)
    if pr.shape != (m, 2):
        raise errors.InvalidArgumentError(None, None, f"{what} should have shape [{m}, 2] instead of "
                                          f"{args.dims(pr.shape)} [Op:{op}]")
    if (bs < 1).any():
        raise errors.InvalidArgumentError(None, None, f"All values in block_shape must be positive, got value, "
                                          f"{int(bs.min())} [Op:{op}]")
    if (pr < 0).any():
        raise errors.InvalidArgumentError(None, None, f"All values in {what} must be non-negative, got "
                                          f"{args.dims(pr.reshape(-1))} [Op:{op}]")
    return tuple(int(v) for v in bs), tuple((int(p), int(q)) for p, q in pr)


def _index_attrs(op: str, block_shape: Any, pairs: Any, what: str) -> None:
    """The check of Tblock_shape and Tpaddings/Tcrops (int32 or int64): inside a tf.function
    op_def_library's when the op is built, before its shape function (a float32 paddings tensor is
    TypeError; fz14 seed 1420261218 #130), eagerly the NodeDef's InvalidArgumentError, before the
    kernel lookup."""
    from simdist.runtime.tensor import TensorShape
    for name, v in (("block_shape", block_shape), (what, pairs)):
        if isinstance(v, TensorShape):
            continue
        try:   # (a value converts with the attr's default int32 preferred: `paddings=[]` is int32, fz14 seed
            # 1420261219 #217; a float list stays float32, refused)
            dt = v.dtype if isinstance(v, Tensor) else convert_to_tensor(v, dtype_hint=dtypes.int32).dtype
        except (TypeError, ValueError):
            continue
        if dt.name not in ("int32", "int64"):
            if not context.in_function():
                # (eagerly the NodeDef's attr check, before the kernel lookup: a complex64 input with
                # float32 paddings is Tpaddings' InvalidArgumentError, not T's missing kernel; fz35b,
                # fourteenth generator seed 1420353002 #204)
                raise trace_errors.attr_not_allowed(op, "T" + name, dt, "int32, int64")
            raise TypeError(f"Value passed to parameter '{name}' has DataType {dt.name} not in list of allowed "
                            "values: int32, int64")


def _static(v: Any) -> list | None:
    return static_shapes.known_shape(v) if isinstance(v, Tensor) else list(np.shape(v))


def _s2b_shape(shapes: list, attrs: dict | None) -> str | None:
    """array_ops.cc SpaceToBatchShapeHelper's checks of the shapes (the value checks, when
    block_shape and paddings are constants, are the kernel's here)."""
    inp, bs, pd = shapes
    if bs is None or len(bs) != 1:
        return "block_shape must have rank 1."
    if bs[0] is None:
        return "block_shape must have known size."
    m = bs[0]
    if inp is not None and len(inp) < m + 1:
        return f"Shape must be at least rank {m + 1} but is rank {len(inp)}"
    return shape_checks.merge_matrix(pd, m, 2)


_S2B_SHAPE = shape_checks.shape_fn(("fn", _s2b_shape))   # (of input, block_shape, paddings: the wrapper runs it)


def space_to_batch_nd(input: Any, block_shape: Any, paddings: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.space_to_batch_nd` (and `tf.space_to_batch`, `tf.nn.space_to_batch`): the spatial axes
    zero-padded, cut into blocks of block_shape, the blocks moved into the batch axis."""
    t = _t(input)
    _index_attrs("SpaceToBatchND", block_shape, paddings, "paddings")
    # (inside a tf.function the shape function runs when the op is built, before a kernel is looked up)
    shape_checks.check("SpaceToBatchND", _S2B_SHAPE,
                       [static_shapes.known_shape(t), _static(block_shape), _static(paddings)])
    if context.in_function():   # (the divisibility the shape function checks on constant block_shape/paddings)
        _s2b_shape_fn(t, block_shape, paddings)
    cpu_kernels.lookup("SpaceToBatchND", t.dtype, eager_only=False)    # (before the kernel's checks)
    block, pads = _block_and_pairs(block_shape, paddings, "paddings", "SpaceToBatchND", t.ndim)
    shp = t.shape.as_list()
    for i, (k, (p0, p1)) in enumerate(zip(block, pads)):
        if (shp[1 + i] + p0 + p1) % k:
            raise errors.InvalidArgumentError(None, None, f"padded_shape[{i}]={shp[1 + i] + p0 + p1} is not divisible "
                                              f"by block_shape[{i}]={k} [Op:SpaceToBatchND]")
    return dispatch.execute(SPACE_TO_BATCH_ND, (t,), {"block": block, "pads": pads})


def _s2b_shape_fn(t: Tensor, block_shape: Any, paddings: Any) -> None:
    """SpaceToBatchND's shape function on what the graph knows (fz16d; fz14 seed 14 #537, #674,
    seed 1420261202 #435): the input of rank above block_shape's length, then, with block_shape
    and paddings known, each padded spatial dimension the graph knows divisible by its block
    ("Dimension size must be evenly divisible by 2 but is 5"). Its ValueError, or nothing."""
    from simdist.runtime.ops import array_shape_fns, graph_constants
    from simdist.runtime.tensor import TensorShape
    try:
        bs = np.asarray(block_shape.as_list() if isinstance(block_shape, TensorShape) else
                        _t(block_shape)._v).reshape(-1)
        pr = np.asarray(_t(paddings)._v)
    except (TypeError, ValueError):
        return
    text = array_shape_fns.rank_at_least(t, bs.size + 1)
    known = static_shapes.known_shape(t)
    if text is None and known is not None and graph_constants.known(block_shape, paddings) and \
            bs.dtype.kind in "iu" and pr.shape == (bs.size, 2) and pr.dtype.kind in "iu":
        for i, k in enumerate(bs.tolist()):
            d = known[1 + i]
            if d is not None and k > 0 and (d + int(pr[i].sum())) % k:
                text = f"Dimension size must be evenly divisible by {k} but is {d + int(pr[i].sum())}"
                break
    if text is not None:
        raise array_shape_fns.marked(errors.InvalidArgumentError(None, None, f"{text} [Op:SpaceToBatchND]"), text,
                                     "SpaceToBatchND", [t, block_shape, paddings])


def space_to_batch(input: Any, block_shape: Any, paddings: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.space_to_batch`: TF 2's is space_to_batch_nd (space_to_batch_v2)."""
    return space_to_batch_nd(input, block_shape, paddings)


def batch_to_space(input: Any, block_shape: Any, crops: Any, name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.batch_to_space`: the inverse of space_to_batch_nd: the batch split into blocks put
    back along the spatial axes, then cropped (an int block_shape means [k, k])."""
    if isinstance(block_shape, int):
        block_shape = np.array([block_shape, block_shape], dtype=np.int64)
    t = _t(input)
    # (inside a tf.function BatchToSpaceND's shape function (BatchToSpaceShapeHelper, the checks of
    # SpaceToBatchND's on crops) runs when the op is built: an input of rank 1 for a block of 3 is
    # ValueError "Shape must be at least rank 4 but is rank 1"; fz14 seed 1420261218 #42)
    _index_attrs("BatchToSpaceND", block_shape, crops, "crops")
    shape_checks.check("BatchToSpaceND", _S2B_SHAPE, [static_shapes.known_shape(t), _static(block_shape),
                                                      _static(crops)])
    if context.in_function():   # (the batch's divisibility the shape function checks on a constant block_shape)
        _b2s_shape_fn(t, block_shape, crops)
    cpu_kernels.lookup("BatchToSpaceND", t.dtype, eager_only=False)
    block, crop = _block_and_pairs(block_shape, crops, "crops", "BatchToSpaceND", t.ndim)
    shp = t.shape.as_list()
    prod = int(np.prod(block))
    if shp[0] % prod:
        raise errors.InvalidArgumentError(None, None, f"Input batch dimension ({shp[0]}) is not divisible by product "
                                          f"of block sizes ({prod}) [Op:BatchToSpaceND]")
    for i, (k, (c0, c1)) in enumerate(zip(block, crop)):
        if c0 + c1 > shp[1 + i] * k:
            raise errors.InvalidArgumentError(None, None, f"crops must be non-negative and not exceed the size of "
                                              f"the output, got crop_start={c0}, crop_end={c1}, output size "
                                              f"{shp[1 + i] * k} [Op:BatchToSpaceND]")
    return dispatch.execute(BATCH_TO_SPACE_ND, (t,), {"block": block, "crops": crop})


def _b2s_shape_fn(t: Tensor, block_shape: Any, crops: Any) -> None:
    """BatchToSpaceND's shape function (BatchToSpaceShapeHelper) on what the graph knows: with
    block_shape known, a known batch dimension divisible by the block's product ("Dimension size must
    be evenly divisible by 4 but is 1"; fz14 seed 1420282804 #99). Its ValueError, or nothing."""
    from simdist.runtime.ops import array_shape_fns, graph_constants
    try:
        bs = np.asarray(_t(block_shape)._v).reshape(-1)
    except (TypeError, ValueError):
        return
    if graph_constants.known(block_shape) and bs.dtype.kind in "iu" and (bs < 1).any():
        # (a constant block_shape's values are the shape function's: ValueError "block_shape must be positive"
        # at trace, where eagerly the kernel's InvalidArgumentError; fz31b, fz14 seed 1420313007 #99)
        text = "block_shape must be positive"
        raise array_shape_fns.marked(errors.InvalidArgumentError(
            None, None, f"Product of block sizes must be positive, got {int(np.prod(bs))} [Op:BatchToSpaceND]"), text,
            "BatchToSpaceND", [t, block_shape, crops])
    known = static_shapes.known_shape(t)
    if known is None or not known or known[0] is None or not graph_constants.known(block_shape) or \
            bs.dtype.kind not in "iu" or bs.size == 0 or (bs <= 0).any():
        return
    prod = int(np.prod(bs))
    if known[0] % prod:
        text = f"Dimension size must be evenly divisible by {prod} but is {known[0]}"
        raise array_shape_fns.marked(errors.InvalidArgumentError(None, None, f"{text} [Op:BatchToSpaceND]"), text,
                                     "BatchToSpaceND", [t, block_shape, crops])


@RegisterGradient("SpaceToBatchND")
def _s2b_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(BATCH_TO_SPACE_ND, (grad,), {"block": op.get_attr("block"), "crops": op.get_attr("pads")})]


@RegisterGradient("BatchToSpaceND")
def _b2s_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(SPACE_TO_BATCH_ND, (grad,), {"block": op.get_attr("block"), "pads": op.get_attr("crops")})]


# --- SpaceToDepth / DepthToSpace (NHWC) ----------------------------------------------------------------------------
def _s2d(a: np.ndarray, block_size: int) -> np.ndarray:
    b, h, w, c = a.shape
    k = block_size
    return a.reshape(b, h // k, k, w // k, k, c).transpose(0, 1, 3, 2, 4, 5).reshape(b, h // k, w // k, k * k * c)


def _d2s(a: np.ndarray, block_size: int) -> np.ndarray:
    b, h, w, c = a.shape
    k = block_size
    return a.reshape(b, h, w, k, k, c // (k * k)).transpose(0, 1, 3, 2, 4, 5).reshape(b, h * k, w * k, c // (k * k))


SPACE_TO_DEPTH = register("SpaceToDepth", _s2d, args.first, args.zero_flops, kind="shape",
                          fusion=lanes("a fused replay stacks lanes on the batch axis, which this op keeps, but no "
                                       "stacked form is written"))
DEPTH_TO_SPACE = register("DepthToSpace", _d2s, args.first, args.zero_flops, kind="shape",
                          fusion=lanes("a fused replay stacks lanes on the batch axis, which this op keeps, but no "
                                       "stacked form is written"))


_DEPTH_FORMATS = ("NHWC", "NCHW", "NCHW_VECT_C")   # (the op def's list for data_format)


def _depth_args(t: Tensor, block_size: Any, data_format: str, op: str) -> int:
    """SpaceToDepth's and DepthToSpace's checks in TF's order: block_size's minimum, then data_format
    in the op def's list (op_def_library while a graph is built: ValueError; eagerly
    InvalidArgumentError, whose order for both varies from process to process: ValidateNodeDef
    walks the NodeDef's attr map, observed on TF 2.21), then eagerly the kernel's
    lookup (NHWC only: NotFoundError), rank and divisibility (InvalidArgumentError), which a
    traced graph's shape function finds first where it knows the dimensions (ValueError:
    `_depth_shape_text`). Clause function.trace-time-errors."""
    # (the wrapper's make_int: a graph tensor is TypeError "Expected int for argument 'block_size' not
    # <tf.Tensor 'Const:0' ...>" at trace, an eager tensor converts; fz31b, fz14 seed 1420313004 #158)
    k = attr_rules.make_int(block_size, "block_size")
    if k < 2:
        raise trace_errors.attr_minimum(op, "block_size", k, 2)
    if data_format not in _DEPTH_FORMATS:   # (before the kernel's lookup; fz28b, fz14 seed 1420282801 #4)
        allowed = ", ".join(f'"{f}"' for f in _DEPTH_FORMATS)
        raise trace_errors.bad_attr(errors.InvalidArgumentError(
            None, None, f"Value for attr 'data_format' of \"{data_format}\" is not in the list of allowed values: "
                        f"{allowed} [Op:{op}]"), op, "data_format", data_format, allowed)
    try:
        _depth_kernel_checks(t, k, data_format, op)
    except errors.OpError as e:
        text = _depth_shape_text(static_shapes.known_shape(t), k, data_format, op)
        if text is not None:
            raise trace_errors.mark_shape(e, text, op, [t.shape.as_list()]) from None
        raise
    return k


def _depth_kernel_checks(t: Tensor, k: int, data_format: str, op: str) -> None:
    if data_format != "NHWC":
        # TF 2.21's CPU kernels are NHWC only (registered with that data_format): no kernel is found
        # eagerly (NotFoundError; InvalidArgumentError "No OpKernel ..." in a tf.function)
        dt = f"DT_{t.dtype.name.upper()}".replace("FLOAT32", "FLOAT").replace("FLOAT64", "DOUBLE")
        raise errors.NotFoundError(None, None, f"Could not find device for node: {{{{node {op}}}}} = {op}[T={dt}, "
                                   f'block_size={k}, data_format="{data_format}"] [Op:{op}]')
    if t.ndim != 4:
        # (spacetodepth_op.cc's message has no colons, depthtospace_op.cc's has)
        text = "Input rank should be 4 instead of" if op == "SpaceToDepth" else "Input rank should be: 4 instead of:"
        raise errors.InvalidArgumentError(None, None, f"{text} {t.ndim} [Op:{op}]")
    _, h, w, c = t.shape.as_list()
    if op == "SpaceToDepth" and (h % k or w % k):
        raise errors.InvalidArgumentError(None, None, f"Image width {w} and height {h} should be divisible by "
                                          f"block_size: {k} [Op:SpaceToDepth]")
    if op == "DepthToSpace" and c % (k * k):
        raise errors.InvalidArgumentError(None, None, f"Input depth dimension {c} should be divisible by: {k * k} "
                                          "[Op:DepthToSpace]")


def _depth_shape_text(shape: Any, k: int, data_format: str, op: str) -> str | None:
    """The shape function's error (depth_space_ops.cc SpaceToDepthShapeFn/DepthToSpaceShapeFn) on
    the shape the graph knows, or None: rank 4 (NCHW_VECT_C: 5), then for SpaceToDepth the height
    and the width divisible by block_size, for DepthToSpace the depth by block_size²."""
    if shape is None:
        return None
    rank = 5 if data_format == "NCHW_VECT_C" else 4
    if len(shape) != rank:
        return f"Shape must be rank {rank} but is rank {len(shape)}"
    if data_format == "NCHW_VECT_C":
        return None
    h, w, c = (shape[1], shape[2], shape[3]) if data_format == "NHWC" else (shape[2], shape[3], shape[1])
    for d, n in (((h, k), (w, k)) if op == "SpaceToDepth" else ((c, k * k),)):
        if d is not None and d % n:
            return f"Dimension size must be evenly divisible by {n} but is {d}"
    return None


def space_to_depth(input: Any, block_size: Any, data_format: str = "NHWC", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.nn.space_to_depth`: each k x k spatial block moved into the depth axis (NHWC)."""
    t = _t(input)
    k = _depth_args(t, block_size, data_format, "SpaceToDepth")
    return dispatch.execute(SPACE_TO_DEPTH, (t,), {"block_size": k})


def depth_to_space(input: Any, block_size: Any, data_format: str = "NHWC", name: str | None = None) -> Tensor:  # noqa: A002
    """`tf.nn.depth_to_space`: the depth split into k x k spatial blocks (NHWC)."""
    t = _t(input)
    k = _depth_args(t, block_size, data_format, "DepthToSpace")
    return dispatch.execute(DEPTH_TO_SPACE, (t,), {"block_size": k})


@RegisterGradient("SpaceToDepth")
def _s2d_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(DEPTH_TO_SPACE, (grad,), {"block_size": op.get_attr("block_size")})]


@RegisterGradient("DepthToSpace")
def _d2s_grad(op: Any, grad: Any) -> list:
    return [dispatch.execute(SPACE_TO_DEPTH, (grad,), {"block_size": op.get_attr("block_size")})]

