"""Losses (TF's nn_ops / nn_impl / nn_impl_distribute): the fused cross-entropy kernels
SoftmaxCrossEntropyWithLogits and SparseSoftmaxCrossEntropyWithLogits (two outputs: the loss
and its backprop, whose upstream gradient may be None), L2Loss, DivNoNan, and the Python-level
losses TF composes from ops: sigmoid and weighted cross entropy, compute_average_loss,
scale_regularization_loss.

FLOPs: the cross-entropy kernels charge six per logit (max, subtract, exp, sum, log, the
backprop's divide and subtract folded in), L2Loss two per input element, DivNoNan one per output.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import context, dtypes, errors, graph_names
from simdist.runtime import symbolic as _symbolic
from simdist.runtime.ops import (activations, array, dispatch, graph_constants, graph_inputs, math, packet_math,
                                 softmax_eigen, static_shapes, trace_errors, unary)
from simdist.runtime.ops.args import t as _t
from simdist.runtime.ops.nn_rules import FLOATS, FLOATS_COMPLEX, attr_error, typed
from simdist.runtime.ops.registry import RegisterGradient, lanes, register, rows
from simdist.runtime.ops.sum_order import eigen_order_sum
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["softmax_cross_entropy_with_logits", "sparse_softmax_cross_entropy_with_logits",
           "sigmoid_cross_entropy_with_logits", "weighted_cross_entropy_with_logits", "l2_loss", "div_no_nan",
           "compute_average_loss", "scale_regularization_loss"]


# --- the fused cross-entropy kernels -----------------------------------------------------------------
def _xent(features: np.ndarray, labels: np.ndarray, lanes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """TF's XentFunctor: loss = sum(labels * (log(sum(exp(shifted))) - shifted)), backprop =
    softmax - labels, with shifted = logits - max. xent_op.cc's order: logits and labels of two
    shapes broadcast (BCast) first, then the shape they make must be a matrix (a raw call's scalar or
    vector labels against [4,3] logits, vector logits against [4,1] labels: rawfz21, seed 2020261201 #201)."""
    try:
        shape = np.broadcast_shapes(features.shape, labels.shape)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, None, f"logits and labels must be broadcastable: logits_size={_dims(features.shape)} "
            f"labels_size={_dims(labels.shape)} [Op:SoftmaxCrossEntropyWithLogits]") from None
    if len(shape) != 2:
        raise errors.InvalidArgumentError(
            None, None, "logits and labels must be either 2-dimensional, or broadcasted to be 2-dimensional "
            "[Op:SoftmaxCrossEntropyWithLogits]")
    if 0 in shape:
        return np.zeros(shape[:1], features.dtype), np.zeros(shape, features.dtype)
    features, labels = np.broadcast_to(features, shape), np.broadcast_to(labels, shape)   # (a scalar logit
    # broadcast to [4, 2] labels, half types included: fuzz20 tape seed 3020261204 #26)
    if features.dtype.name in softmax_eigen.DTYPES:   # Eigen's kernel, bit for bit (nn.softmax-eigen)
        return softmax_eigen.xent(np.broadcast_to(features, shape), np.broadcast_to(labels, shape), lanes)
    shifted = features - np.max(features, axis=1, keepdims=True)
    e = packet_math.exp(shifted)   # (half types: Eigen's half exp and log, not NumPy's CPU-dispatched loops)
    s = _class_sums(e)
    loss = _class_sums(labels * (packet_math.log(s) - shifted))[:, 0]   # (SumReducer's order in the half type too)
    return loss, e / s - labels


def _sparse_xent(features: np.ndarray, labels: np.ndarray, lanes: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """TF's SparseXentOp: loss = log(sum(exp(shifted))) - shifted[label], backprop = softmax -
    one_hot(label); a label outside [0, classes) raises InvalidArgumentError (as TF on CPU)."""
    op = "SparseSoftmaxCrossEntropyWithLogits"
    if features.ndim != 2:
        raise errors.InvalidArgumentError(None, None, f"logits must be 2-D, but got shape {_dims(features.shape)} "
                                          f"[Op:{op}]")
    if labels.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"labels must be 1-D, but got shape {_dims(labels.shape)} "
                                          f"[Op:{op}]")
    if features.shape[0] != labels.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"logits and labels must have the same first dimension, got logits shape "
            f"{_dims(features.shape)} and labels shape {_dims(labels.shape)} [Op:{op}]")
    n, classes = features.shape
    if classes == 0:
        raise errors.InvalidArgumentError(None, None, f"Must have at least one class, but got logits shape "
                                          f"{_dims(features.shape)} [Op:{op}]")
    if labels.size:
        lo, hi = int(labels.min()), int(labels.max())
        if lo < 0 or hi >= classes:
            bad = lo if lo < 0 else hi
            raise errors.InvalidArgumentError(
                None, None, f"Received a label value of {bad} which is outside the valid range of [0, {classes}).  "
                f"Label values: {' '.join(str(int(v)) for v in labels)} [Op:{op}]")
    if features.dtype.name in softmax_eigen.DTYPES:   # Eigen's kernel, bit for bit (nn.softmax-eigen)
        return softmax_eigen.sparse_xent(features, labels, lanes)
    shifted = features - np.max(features, axis=1, keepdims=True)
    e = packet_math.exp(shifted)
    s = _class_sums(e)
    rows = np.arange(n)
    loss = packet_math.log(np.ascontiguousarray(s[:, 0])) - shifted[rows, labels]
    backprop = e / s
    backprop[rows, labels] -= 1
    return loss, backprop


def _class_sums(e: np.ndarray) -> np.ndarray:
    """exp(shifted).sum(along_class) of the half-type kernels [rows, 1]: Eigen's SumReducer order, each addition
    rounded to the half type (bfloat16 sparse cross entropy: 22 of 60 seeded gradients were a bfloat16 ulp off with
    NumPy's sum, /work/wt/lead58_logs/p_sxent.py)."""
    s = eigen_order_sum(e, (1,), True)
    return np.sum(e, axis=1, keepdims=True) if s is None else s


def _dims(shape: tuple[int, ...]) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _xent_flops(arrays: Any, outs: Any, attrs: Any) -> float:
    return 6.0 * outs[1].size


def _xent_dtype(dts: Any, attrs: Any) -> tuple:
    d = typed("SoftmaxCrossEntropyWithLogits", FLOATS)(dts, attrs)
    return (d, d)


def _sparse_xent_dtype(dts: Any, attrs: Any) -> tuple:
    op = "SparseSoftmaxCrossEntropyWithLogits"
    d, lab = dts
    if lab.name not in ("int32", "int64"):
        raise attr_error(op, lab, "int32, int64", attr="Tlabels")
    d = typed(op, FLOATS)((d,), attrs)
    return (d, d)


XENT = register("SoftmaxCrossEntropyWithLogits", _xent, _xent_dtype, _xent_flops, num_outputs=2,
                none_grad_ok=(1,), kind="nn", fusion=rows(0, 1))
SPARSE_XENT = register("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent, _sparse_xent_dtype, _xent_flops,
                       num_outputs=2, none_grad_ok=(1,), kind="nn", fusion=rows(0, 1))
# the op's shape function at trace (shape_fns_nn.py): TF's graph refuses [3, 2] logits beside [6, 4] labels there,
# ValueError "Dimensions must be equal, but are 3 and 6", before the kernel's InvalidArgumentError (fz47b, fz44_gen
# seed 44012)
from simdist.runtime.ops import infer_ctx as _infer_ctx  # noqa: E402
XENT.trace_shape = _infer_ctx.trace_shape("SoftmaxCrossEntropyWithLogits")
# Eigen's flat steps (softmax_eigen.py) see the whole tensor: stacked replica lanes are computed
# each as its own tensor (lanes/forms.py passes lanes=R)
XENT.lane_forward = _xent
SPARSE_XENT.lane_forward = _sparse_xent
def _l2_loss(a: np.ndarray) -> np.ndarray:
    """L2Loss: l2loss_op.cc's `(input.flat<T>().square() * T(0.5)).sum()`, each half square summed in Eigen's
    SumReducer order for a full reduction (sum_order.py; NumPy's pairwise sum where the order is not modelled),
    not NumPy's sum of squares halved (fz47b, fz45_gen seed 45002 #7: a float32 loss in the last bit)."""
    from simdist.runtime.subnormals import flushed
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        h = np.square(a)
        h = flushed(h) * a.dtype.type(0.5) if a.dtype.kind == "f" else h * a.dtype.type(0.5)
        if a.dtype.kind == "f":
            h = flushed(h)
        s = eigen_order_sum(h, None, False) if h.size else None
        return np.asarray(np.sum(h) if s is None else s, dtype=a.dtype)


L2LOSS = register("L2Loss", _l2_loss,
                  typed("L2Loss", FLOATS), lambda arrays, out, attrs: 2.0 * arrays[0].size, kind="reduction",
                  fusion=lanes("it reduces every axis and has no axis attribute to shift: no stacked form written"))


def _cast(x: Tensor, dt: dtypes.DType) -> Tensor:
    """math_ops.cast: the tensor itself when it already has the dtype (no op), as TF."""
    return x if x.dtype == dt else math.cast(x, dt)


def _ensure_xent_args(name: str, labels: Any, logits: Any) -> None:
    if labels is None or logits is None:
        raise ValueError(f"Both `labels` and `logits` must be provided for {name}Received: labels={labels} and "
                         f"logits={logits}")


def _range_error(start: int, limit: int) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"Requires start <= limit when delta > 0: {start}/{limit} "
                                       "[Op:Range]")


def _flatten_outer_dims(x: Tensor) -> Tensor:
    """nn_ops._flatten_outer_dims: reshape(x, [-1, last]), Reshape's -1 inferred as its kernel infers it: with a
    last dimension 0 the input's zero dimensions are not counted, so [0, 0] is [1, 0] and [0, 2, 0] is [2, 0] (the
    cost's reshape to the outer shape then fails as TF's: "Input to reshape is a tensor with 1 values, but the
    requested shape has 0"; fz57, fz54b seed 57103 #4)."""
    shp = x.shape.as_list()
    if shp[-1] == 0:
        outer = int(np.prod([d for d in shp[:-1] if d > 0], dtype=np.int64))
    else:
        outer = int(np.prod(shp[:-1], dtype=np.int64))
    if len(shp) == 2 and shp[0] == outer:
        return x
    return array.reshape(x, [outer, shp[-1]])


def softmax_cross_entropy_with_logits(labels: Any, logits: Any, axis: int = -1, name: str | None = None) -> Tensor:
    """`tf.nn.softmax_cross_entropy_with_logits` (v2): -sum(labels * log_softmax(logits), axis);
    gradients flow into both logits and labels. float16 and bfloat16 are computed in float32, as TF (nn_ops'
    `convert_to_float32`; the sparse form converts float16 only)."""
    logits_t = convert_to_tensor(logits)
    labels_t = convert_to_tensor(labels)
    half = logits_t.dtype in (dtypes.float16, dtypes.bfloat16)
    precise = math.cast(logits_t, dtypes.float32) if half else logits_t
    labels_t = _cast(labels_t, precise.dtype)
    rank = precise.ndim
    shape = precise.shape.as_list()
    if axis is None:
        axis = -1
    if isinstance(axis, Tensor):
        # (nn_ops' `if axis != -1:` takes the truth of a tensor comparison, after the conversions and the
        # labels' cast: in a tf.function OperatorNotAllowedInGraphError, tf.constant(0) too; fz39b, fz14
        # seed 1420393001 #295)
        _symbolic.check_truth_taken(axis)
    if axis != -1:
        # nn_ops._move_dim_to_end, before the outer dimensions are flattened: transpose(x,
        # concat([range(axis), range(axis + 1, rank), [axis]])) of logits, then of labels; the rank
        # is static, so a traced graph's shape functions see the Range and Transpose errors
        # (ValueError); fz5 seed 63 #3
        known = not static_shapes.rank_unknown(logits_t)
        if isinstance(axis, (list, tuple, np.ndarray, Tensor)):
            # (range(dim_index) comes first: Range's check of a non-scalar limit, then Python's
            # `dim_index + 1` TypeError for a list or tuple; fz14 seed 1420261218 #32)
            array.range_(axis)
        for start, limit in ((0, axis), (axis + 1, rank)):
            if start > limit:
                err = _range_error(start, limit)
                raise trace_errors.mark_shape(err, f"Requires start <= limit when delta > 0: {start}/{limit}",
                                              "Range", ((), (), ())) if known else err
        perm = tuple(range(axis)) + tuple(range(axis + 1, rank)) + (axis,)
        if labels_t.ndim != rank:
            err = errors.InvalidArgumentError(None, None, f"transpose expects a vector of size {labels_t.ndim}. But "
                                                          f"input(1) is a vector of size {rank} [Op:Transpose]")
            raise trace_errors.mark_shape(err, f"Dimension must be {labels_t.ndim} but is {rank}", "Transpose",
                                          (labels_t.shape.as_list(), [rank])) if known else err
        if perm != tuple(range(rank)):
            precise = array.transpose(precise, perm)
            labels_t = array.transpose(labels_t, perm)
            shape = precise.shape.as_list()
    if rank == 0:   # (traced: nn_ops._flatten_outer_dims' IndexError, as for scalar labels below)
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, "Expected begin[0] == 0 (got -1) and size[0] == 0 (got 1) when input.dim_size(0) == 0 "
                        "[Op:Slice]"), IndexError, "list index out of range")
    if labels_t.ndim == 0 and rank > 0:
        # TF flattens the labels' outer dimensions with a Slice of their shape: eagerly Slice's error,
        # traced an IndexError of nn_ops._flatten_outer_dims (ops.xent-scalar-labels)
        raise trace_errors.static(errors.InvalidArgumentError(
            None, None, "Expected begin[0] == 0 (got -1) and size[0] == 0 (got 1) when input.dim_size(0) == 0 "
                        "[Op:Slice]"), IndexError, "list index out of range")
    cost, _ = dispatch.execute(XENT, (_flatten_outer_dims(precise), _flatten_outer_dims(labels_t)))
    out_shape = shape[:-1]
    if cost.shape.as_list() != out_shape:
        if int(np.prod(cost.shape.as_list())) != int(np.prod(out_shape)) and context.in_function() and \
                _xent_unknown(precise, labels_t) is not None:
            # (a dry run's probe sizes the graph does not know: the kernel's refusal when the graph runs)
            cost = dispatch.refused(errors.InvalidArgumentError(
                None, None, f"Input to reshape is a tensor with {int(np.prod(cost.shape.as_list()))} values, but the "
                            f"requested shape has {int(np.prod(out_shape))} [Op:Reshape]"), cost.dtype,
                cost.shape.as_list() if len(out_shape) == 1 else out_shape, pruned=True)   # (Reshape's inferred one)
        else:
            cost = array.reshape(cost, out_shape)
    flags = _xent_unknown(precise, labels_t)
    if flags is not None:
        cost = static_shapes.mark_rank_unknown(cost) if flags is True else static_shapes.mark(cost, flags)
    return math.cast(cost, logits_t.dtype) if half else cost


def _xent_unknown(logits: Tensor, labels: Tensor) -> Any:
    """nn_ops.softmax_cross_entropy_with_logits_v2's static shape, as flags of the cost's unknown dimensions (the
    class axis moved last): the cost, reshaped to Slice(Shape(logits)) (a Reshape of every dimension unknown, which
    infers the one dimension of a rank-1 cost from the raw op's batch, merged from both operands' flattened outer
    dimensions), then set_shape of logits' static shape without the class axis; True for an unknown rank (logits'),
    None where the graph knows every dimension (ssweep64)."""
    kg, kl = static_shapes.known_shape(logits), static_shapes.known_shape(labels)
    if kg is None:
        return True
    if None not in kg:
        return None
    flags = [d is None for d in kg[:-1]]
    if len(flags) == 1 and flags[0]:
        # (the raw op's batch: the flattened outer dimensions' product where all are known, from either operand)
        flags[0] = not (kl is not None and len(kl) >= 1 and None not in kl[:-1])
    return tuple(flags)


def sparse_softmax_cross_entropy_with_logits(labels: Any, logits: Any, name: str | None = None) -> Tensor:
    """`tf.nn.sparse_softmax_cross_entropy_with_logits` (v2): -log_softmax(logits)[label]; labels
    outside [0, num_classes) raise InvalidArgumentError, as TF on CPU."""
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", labels, logits)
    labels_t = convert_to_tensor(labels)
    logits_t = convert_to_tensor(logits)
    precise = math.cast(logits_t, dtypes.float32) if logits_t.dtype == dtypes.float16 else logits_t
    lshape, gshape = labels_t.shape.as_list(), logits_t.shape.as_list()
    # (nn_ops' checks read the static shapes: inside a tf.function an input_signature's unknown rank
    # or dimension skips them, and a dynamic assert_equal and the kernel raise InvalidArgumentError)
    klab, klog = static_shapes.known_shape(labels_t), static_shapes.known_shape(logits_t)
    if klog is not None and len(klog) == 0:
        raise ValueError(f"`logits` cannot be a scalar. Received logits={_np_str(logits_t)}`")
    if klog is not None and klab is not None and len(klab) != len(klog) - 1:
        raise ValueError("`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                         f"labels.shape={_shape_str(lshape)} of rank {len(lshape)} and "
                         f"logits.shape={_shape_str(gshape)} of rank {len(gshape)}")
    fully = klab is not None and None not in klab and klog is not None and None not in klog[:-1]
    if fully and lshape != gshape[:-1]:
        raise ValueError("`labels.shape` must equal `logits.shape` except for the last dimension. Received: "
                         f"labels.shape={_shape_str(lshape)} and logits.shape={_shape_str(gshape)}")
    # (a graph builds the op, whose op_def_library refuses the features' and the labels' types, before its
    # assert_equal runs: an unknown-rank int16 logits is TypeError at trace; fz38b, fz14 seed 1420383001 #84)
    graph_inputs.check("SparseSoftmaxCrossEntropyWithLogits", (precise, labels_t))
    if not fully:   # check_ops.assert_equal(shape(labels), shape(logits)[:-1]): broadcast, then all()
        a, b = np.asarray(lshape, np.int64), np.asarray(gshape[:-1], np.int64)
        try:
            same = bool(np.all(a == b))
        except ValueError:   # (NumPy: shapes that do not broadcast, TF's Equal: InvalidArgumentError)
            same = False
        if not same or len(gshape) == 0:
            raise errors.InvalidArgumentError(None, None, "Condition x == y did not hold.")
    if klog is not None and len(gshape) == 2:
        cost, _ = dispatch.execute(SPARSE_XENT, (precise, labels_t))
    else:
        outer = int(np.prod(gshape[:-1], dtype=np.int64))
        flat_logits, flat_labels = array.reshape(precise, [outer, gshape[-1]]), array.reshape(labels_t, [-1])
        cost, _ = dispatch.execute(SPARSE_XENT, (flat_logits, flat_labels))
        cost = array.reshape(cost, lshape)
    return math.cast(cost, dtypes.float16) if logits_t.dtype == dtypes.float16 else cost


def _np_str(x: Tensor) -> str:
    return str(x.numpy())


def _shape_str(shape: list[int]) -> str:
    return "(" + ", ".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def _same_shape_check(labels: Tensor, logits: Tensor) -> None:
    """TF's `labels.get_shape().assert_is_compatible_with(logits.get_shape())`: shapes as a traced
    graph knows them (an unknown rank or dimension is compatible, static_shapes.py)."""
    from simdist.runtime.ops import static_shapes
    if static_shapes.static_shape(labels).is_compatible_with(static_shapes.static_shape(logits)):
        return
    ls, gs = labels.shape.as_list(), logits.shape.as_list()
    if ls != gs:
        raise ValueError(f"`logits` and `labels` must have the same shape, received ({_shape_str(gs)} vs "
                         f"{_shape_str(ls)}).")


def _exp_dtype_check(x: Tensor) -> None:
    """The first kernel of these composites that rejects non-floats is TF's Exp."""
    if not x.dtype.is_floating:
        raise attr_error("Exp", x.dtype, FLOATS_COMPLEX)


def sigmoid_cross_entropy_with_logits(labels: Any = None, logits: Any = None, name: str | None = None) -> Tensor:
    """`tf.nn.sigmoid_cross_entropy_with_logits`, composed as TF 2.21 does:
    max(x, 0) - x * z + log(1 + exp(-|x|)), with TF's where-based max and abs (so the gradient
    at x = 0 is TF's). The last term is Log1p(Exp(.)), two ops as in TF (a Softplus op gives other values: its
    threshold's exp and its gradient g / (1 + exp(-x)), where TF's chain is g · 1/(1 + e) · e; fz48b)."""
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", labels, logits)
    logits_t = convert_to_tensor(logits)
    labels_t = convert_to_tensor(labels)
    _same_shape_check(labels_t, logits_t)
    zeros = array.zeros_like(logits_t)
    cond = math.greater_equal(logits_t, zeros)
    relu_logits = math.where(cond, logits_t, zeros)
    neg_abs_logits = math.where(cond, -logits_t, logits_t)
    _exp_dtype_check(logits_t)
    return math.add(relu_logits - logits_t * labels_t, unary.log1p(unary.exp(neg_abs_logits)))


def weighted_cross_entropy_with_logits(labels: Any, logits: Any, pos_weight: Any, name: str | None = None) -> Tensor:
    """`tf.nn.weighted_cross_entropy_with_logits` (v2), composed as TF 2.21 does:
    (1 - z) x + (1 + (q - 1) z) (log1p(exp(-|x|)) + relu(-x)), Log1p(Exp(.)) as two ops (not a Softplus: its
    gradient rounds otherwise; fz48b_gen seed 48001 #24, the gradient one ulp apart)."""
    logits_t = convert_to_tensor(logits)
    labels_t = convert_to_tensor(labels)
    _same_shape_check(labels_t, logits_t)
    log_weight = 1 + (pos_weight - 1) * labels_t
    _exp_dtype_check(logits_t)
    return math.add((1 - labels_t) * logits_t,
                    log_weight * (unary.log1p(unary.exp(-unary.abs_(logits_t))) + activations.relu(-logits_t)))


def l2_loss(t: Any, name: str | None = None) -> Tensor:
    """`tf.nn.l2_loss`: sum(t ** 2) / 2."""
    return dispatch.execute(L2LOSS, (_t(t),))


def div_no_nan(x: Any, y: Any, name: str | None = None) -> Tensor:
    """`tf.math.divide_no_nan` (one implementation: ops.math.divide_no_nan)."""
    return math.divide_no_nan(x, y)


# --- losses under a distribution strategy -------------------------------------------------------------
def _num_replicas() -> int:
    s = context.get_strategy()
    return 1 if s is None else int(s.num_replicas_in_sync)


def _scale_by_sample_weight(losses: Tensor, sample_weight: Any) -> Tensor:
    """TF's losses_util.scale_losses_by_sample_weight: both cast to float32, the weights'
    rank matched to the losses' (squeeze or expand the last axis), multiplied."""
    losses = _cast(losses, dtypes.float32)
    if isinstance(sample_weight, (int, float, list, tuple, np.ndarray, np.generic)):
        graph_names.reserve("Const")   # (TF converts a Python or NumPy weight to a Const node first)
    w = _cast(convert_to_tensor(sample_weight), dtypes.float32)
    lr, wr = losses.ndim, w.ndim
    if wr != 0:
        if wr - lr == 1:
            if w.shape.as_list()[-1] != 1:
                raise errors.InvalidArgumentError(
                    None, None, f"Can not squeeze dim[{wr - 1}], expected a dimension of 1, got "
                    f"{w.shape.as_list()[-1]} [Op:Squeeze]")
            w = array.squeeze(w, [-1])
        elif lr - wr == 1:
            w = array.expand_dims(w, -1)
    return math.multiply(losses, w)


def compute_average_loss(per_example_loss: Any, sample_weight: Any = None, global_batch_size: Any = None) -> Tensor:
    """`tf.nn.compute_average_loss`: sum(per_example_loss * sample_weight) / global_batch_size.

    Without `global_batch_size` it is the per-replica batch (the loss's first dimension) times
    `num_replicas_in_sync`, which needs replica context when a strategy is active (RuntimeError in
    cross-replica context, as TF). 0 when the global batch size is 0."""
    loss = convert_to_tensor(per_example_loss)
    input_dtype = loss.dtype
    if loss.ndim == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with at least rank 1. "
                         f"Received per_example_loss={_np_str(loss)} with rank 0")
    if sample_weight is not None:
        loss = _cast(_scale_by_sample_weight(loss, sample_weight), input_dtype)
    # (inside a tf.function, the nodes TF's Python makes that simdist computes without: their names count,
    # graph_names.reserve; observed on TF 2.21: tests/runtime/test_given_names57_tf.py)
    if global_batch_size is None:
        if context.has_strategy() and context.in_cross_replica_context():
            raise RuntimeError("You are calling `compute_average_loss` in cross replica context, while it was "
                               "expected to be called in replica context.")
        global_batch_size = loss.shape.as_list()[0] * _num_replicas()
        # (shape_v2(loss)[0] * num_replicas_in_sync, a scalar tensor: assert_scalar makes no node)
        graph_names.reserve("Shape", "strided_slice", "mul", "assert_integer", "assert_non_negative")
    elif not isinstance(global_batch_size, Tensor):
        graph_names.reserve("assert_scalar", "assert_integer", "assert_non_negative")
    else:
        graph_names.reserve("assert_integer", "assert_non_negative")
    if isinstance(global_batch_size, (int, np.integer)) and not isinstance(global_batch_size, bool) and \
            global_batch_size >= 0:
        total = math.reduce_sum(loss)   # (TF sums before it casts the batch size: a bool loss fails here)
        # a Python int cast to the loss's dtype is that constant (no Cast op to record; TF's Cast node)
        graph_names.reserve("Cast")
        gbs = array.constant(global_batch_size, dtype=input_dtype)
    else:
        gbs = global_batch_size if isinstance(global_batch_size, Tensor) else convert_to_tensor(global_batch_size)
        _check_global_batch_size(gbs)
        total = math.reduce_sum(loss)
        gbs = _cast(gbs, input_dtype)
    with graph_names.op_scope("div_no_nan", "DivNoNan"):   # (math_ops.div_no_nan's scope names its op)
        return div_no_nan(total, gbs)


def _check_global_batch_size(gbs: Tensor) -> None:
    """TF's assert_scalar_v2 / assert_integer_v2 / assert_non_negative_v2, with their messages."""
    if gbs.ndim != 0:
        raise ValueError(f"global_batch_size must be scalar..  Expected scalar shape, saw shape: "
                         f"{_shape_str(gbs.shape.as_list())}.")
    if not gbs.dtype.is_integer:
        raise TypeError(f'global_batch_size must be an integer..  Expected "x" to be integer type.  Found: tensor '
                        f"of dtype <dtype: '{gbs.dtype.name}'>")
    v = int(dispatch.static_value(gbs))
    if v < 0:
        err = errors.InvalidArgumentError(
            None, None, f"global_batch_size must be non-negative..  \nCondition x >= 0 did not hold element-wise:\n"
            f"x (shape=() dtype={gbs.dtype.name}) = \n{v}")
        if context.in_function() and graph_constants.python_constant(gbs):
            raise trace_errors.at_build(err)   # (check_ops' static assert on a constant: graph_constants.py)
        raise err


def scale_regularization_loss(regularization_loss: Any) -> Tensor:
    """`tf.nn.scale_regularization_loss`: sum(regularization_loss) / num_replicas_in_sync; in
    replica context only when a strategy is active (RuntimeError otherwise, as TF)."""
    if context.has_strategy() and context.in_cross_replica_context():
        raise RuntimeError("You are calling `scale_regularization_loss` in cross replica context, while it was "
                           "expected to be called in replica context.")
    total = math.reduce_sum(regularization_loss)
    with graph_names.op_scope("truediv", "RealDiv"):   # (math_ops.truediv's scope names its op)
        return math.truediv(total, _num_replicas())


# --- gradients (nn_grad.py, math_grad.py) -------------------------------------------------------------
def _broadcast_mul(vec: Any, mat: Any) -> Any:
    """TF's _BroadcastMul: vec[:, None] * mat (the column made by a reshape, the same as expand_dims)."""
    return array.reshape(vec, vec.shape.as_list() + [1]) * mat


def _softmax_second_order(logits: Any, grad_grad: Any) -> Any:
    from simdist.runtime.ops import linalg
    softmax = activations.softmax(logits)
    inner = array.squeeze(linalg.matmul(array.expand_dims(grad_grad, 1), array.expand_dims(softmax, 2)), axis=1)
    return (grad_grad - inner) * softmax


@RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op: Any, grad_loss: Any, grad_grad: Any) -> list:
    logits = op.inputs[0]
    grad = _broadcast_mul(grad_loss, op.outputs[1])
    if grad_grad is not None:
        grad = grad + _softmax_second_order(logits, grad_grad)
    # (nn_grad._SoftmaxCrossEntropyWithLogitsGrad: the labels' gradient has the logits' shape even where the raw
    # kernel broadcast smaller labels; rgrads SoftmaxCrossEntropyWithLogits)
    return [grad, _broadcast_mul(grad_loss, -activations.log_softmax(logits))]


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op: Any, grad_loss: Any, grad_grad: Any) -> list:
    grad = _broadcast_mul(grad_loss, op.outputs[1])
    if grad_grad is not None:
        grad = grad + _softmax_second_order(op.inputs[0], grad_grad)
    return [grad, None]


@RegisterGradient("L2Loss")
def _l2loss_grad(op: Any, grad: Any) -> list:
    return [op.inputs[0] * grad]
