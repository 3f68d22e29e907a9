"""TF's shape functions of raw ops at trace time (issue 29's shapefn21; clause function.trace-time-errors),
against real TensorFlow 2.21: each raw-op call inside a tf.function whose graph knows every input
(`traced`: constants), inside one with an input_signature whose TensorSpecs leave dimensions or the rank
unknown (`sig`: get_concrete_function only: traced or its ValueError), and eagerly (the kernel, not the shape function: the same
error class or output shape). A trace-time ValueError is compared by its message's key phrase (the text
before " for '{{node"), an OK outcome by the outputs' static shapes; values are not compared (shapes
only: no oneDNN or host dependence). Needs the `tf` extra.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause


class P:
    """An argument bound to an input_signature's TensorSpec(spec) in `sig` cases (its value elsewhere)."""

    def __init__(self, spec: list[int | None] | None, value: Any) -> None:
        self.spec, self.value = spec, value


def _kwargs(kw: str) -> dict[str, Any]:
    return eval(f"dict({kw})", {"np": np, "P": P})  # noqa: S307 - our own text


def _plain(v: Any) -> Any:
    return v.value if isinstance(v, P) else v


def _phrase(e: BaseException) -> str:
    """A shape function's message without the node and input shapes TF appends (and without the
    traceback lines a traced error carries)."""
    text = str(e)
    if "in user code" in text:   # (simdist's traced error: its lines indented under the frame)
        text = text.rsplit("Error: ", 1)[-1].replace("\n    ", "\n")
    return text.split(" for '{{node")[0].strip()


def _shapes(out: Any) -> np.ndarray:
    """The static shapes of a raw op's outputs, as an object array of lists (None: unknown)."""
    if isinstance(out, str):
        return np.array([out], dtype=object)
    flat = list(out) if isinstance(out, (tuple, list)) else [out]
    return np.array([repr(getattr(o, "shape", None).as_list() if getattr(o, "shape", None) is not None and
                          o.shape.rank is not None else None) for o in flat], dtype=object)


def _graph(run: Callable[[], Any]) -> Any:
    """run()'s output shapes, or its ValueError's key phrase (both as object arrays); other errors raise."""
    try:
        out = run()
    except ValueError as e:
        return np.array(["ValueError: " + _phrase(e)], dtype=object)
    return _shapes(out)


def _traced(op: str, kw: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        args = {k: _plain(v) for k, v in _kwargs(kw).items()}
        return _graph(lambda: tf.function(lambda: getattr(tf.raw_ops, op)(**args), autograph=False)())
    return run


def _sig(op: str, kw: str) -> Callable[[Any], Any]:
    """get_concrete_function with the P arguments as TensorSpecs: its trace-time outcome."""
    def run(tf: Any) -> Any:
        args = _kwargs(kw)
        names = [k for k, v in args.items() if isinstance(v, P)]

        def f(*xs: Any) -> Any:
            d = {k: _plain(v) for k, v in args.items()}
            d.update(zip(names, xs))
            return getattr(tf.raw_ops, op)(**d)
        specs = [tf.TensorSpec(args[k].spec, tf.constant(args[k].value).dtype) for k in names]
        g = tf.function(f, input_signature=specs, autograph=False)
        # (the outputs' static shapes are not compared: simdist does not infer them from the shape function)
        return _graph(lambda: (g.get_concrete_function(), "traced")[1])
    return run


def _eager(op: str, kw: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        return _shapes(getattr(tf.raw_ops, op)(**{k: _plain(v) for k, v in _kwargs(kw).items()}))
    return run


_T = "function.trace-time-errors"
_E = "ops.fuzz-raw"
_EO = "ops.fuzz-raw (open)"

# (op, keyword arguments): each is a `traced` case, a `sig` case when an argument is P(spec, value), and an
# eager case. The shapes come from shapefn21's classes (tests/fuzz20) and the checks of each shape function.
CALLS: list[tuple[str, str]] = [
    ("AvgPool", "value=np.zeros((1,4,3),np.float32), ksize=[1,1,3,1], strides=[1,2,1,1], padding='SAME'"),
    ("AvgPool", "value=P([None,4,3],np.zeros((1,4,3),np.float32)), ksize=[1,1,3,1], strides=[1,2,1,1], padding='SAME'"),
    ("AvgPool", "value=P([None,None,3,1],np.zeros((1,4,3,1),np.float32)), ksize=[1,1,5,1], strides=[1,2,1,1], "
                "padding='VALID'"),
    ("AvgPool", "value=P(None,np.zeros((1,4,3,1),np.float32)), ksize=[1,1,3,1], strides=[1,2,1,1], padding='SAME'"),
    ("AvgPool", "value=np.zeros((1,4,3,1),np.float32), ksize=[1,1,3,1], strides=[1,0,1,1], padding='VALID'"),
    ("AvgPool", "value=np.zeros((1,4,3,1),np.float32), ksize=[1,6,3,1], strides=[1,1,1,1], padding='SAME'"),
    ("BatchMatMulV2", "x=np.zeros((2,3),np.float32), y=np.zeros((4,3),np.float32)"),
    ("BatchMatMulV2", "x=P([None,3],np.zeros((2,3),np.float32)), y=P([None,3],np.zeros((4,3),np.float32)), adj_y=True"),
    ("BatchMatMulV2", "x=np.zeros((3,),np.float32), y=np.zeros((4,3),np.float32)"),
    ("BatchMatMulV2", "x=np.zeros((2,2,3),np.float32), y=np.zeros((3,3,4),np.float32)"),
    ("BatchMatMulV2", "x=P([None,2,3],np.zeros((2,2,3),np.float32)), y=np.zeros((3,3,4),np.float32)"),
    ("BatchMatMulV2", "x=P(None,np.zeros((2,2,3),np.float32)), y=np.zeros((3,),np.float32)"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([2,1],np.int64), "
                       "crops=np.array([[1,0]],np.int32)"),
    ("BatchToSpaceND", "input=np.zeros((3,2,2),np.float32), block_shape=np.array([2,1]), crops=np.array([[0,0],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([3,2]), crops=np.array([[0,0],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([2,2]), crops=np.array([[5,0],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([2,2]), crops=np.array([[3,2],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([2,2]), crops=np.array([[-1,0],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([0,2]), crops=np.array([[0,0],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2),np.float32), block_shape=np.array([2,2]), crops=np.array([[0,0],[0,0]])"),
    ("BatchToSpaceND", "input=np.zeros((4,2,2),np.float32), block_shape=np.array([[2,2]]), crops=np.array([[0,0],[0,0]])"),
    ("SpaceToBatchND", "input=np.zeros((1,3,2),np.float32), block_shape=np.array([2,1]), paddings=np.array([[0,0],[0,0]])"),
    ("SpaceToBatchND", "input=np.zeros((1,3,2),np.float32), block_shape=np.array([2]), paddings=np.array([[0,0],[0,0]])"),
    ("SpaceToBatchND", "input=np.zeros((1,3,2),np.float32), block_shape=np.array([2]), paddings=np.array([[0,-1]])"),
    ("SpaceToBatchND", "input=np.zeros((1,3,2),np.float32), block_shape=np.array([2]), paddings=np.array([[0,1,1]])"),
    ("SpaceToBatchND", "input=P([1,None,2],np.zeros((1,3,2),np.float32)), block_shape=np.array([2]), "
                       "paddings=np.array([[0,0]])"),
    ("SpaceToBatchND", "input=np.zeros((2,3,2),np.float32), block_shape=P([None],np.array([2])), "
                       "paddings=np.array([[0,1]])"),
    ("SpaceToBatchND", "input=np.zeros((2,3,2),np.float32), block_shape=P(None,np.array([2])), paddings=np.array([[0,1]])"),
    ("ComputeAccidentalHits", "num_true=2, sampled_candidates=[0], seed2=0, true_classes=np.array([1,1,2,2],np.int64)"),
    ("ComputeAccidentalHits", "num_true=3, sampled_candidates=[[0]], true_classes=np.array([[1,1,2]],np.int64)"),
    ("Conv2DBackpropFilter", "input=np.zeros((1,3,3,1),np.float32), filter_sizes=np.array([2,2,1],np.int32), "
                             "out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ("Conv2DBackpropFilter", "input=np.zeros((1,3,3,1),np.float32), filter_sizes=P([None],np.array([2,2,1],np.int32)), "
                             "out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ("Conv2DBackpropFilter", "input=np.zeros((1,3,3,1),np.float32), filter_sizes=P([3],np.array([2,2,1],np.int32)), "
                             "out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ("Conv2DBackpropFilter", "input=np.zeros((1,3,3,1),np.float32), filter_sizes=np.array(4,np.int32), "
                             "out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ("Conv3D", "input=np.zeros((1,3,3,3,2),np.float32), filter=np.zeros((2,2,2,2),np.float32), strides=[1,1,1,1,1], "
               "padding='VALID'"),
    ("Conv3D", "input=np.zeros((1,3,3,3,2),np.float32), filter=np.zeros((4,2,2,2,1),np.float32), strides=[1,1,1,1,1], "
               "padding='VALID'"),
    ("Conv3D", "input=np.zeros((1,3,3,3,4),np.float32), filter=np.zeros((2,2,2,3,1),np.float32), strides=[1,1,1,1,1], "
               "padding='VALID'"),
    ("Conv3D", "input=np.zeros((1,3,3,3,2),np.float32), filter=np.zeros((2,2,2,2,1),np.float32), strides=[1,1,1,1,1], "
               "padding='VALID', dilations=[1,3,1,1,1]"),
    ("Conv3D", "input=np.zeros((1,3,3,3,2),np.float32), filter=np.zeros((2,2,2,2,1),np.float32), strides=[1,1,0,1,1], "
               "padding='SAME'"),
    ("Conv3DBackpropInputV2", "input_sizes=np.array([1,3,3,3],np.int32), filter=np.zeros((2,2,2,1,1),np.float32), "
                              "out_backprop=np.zeros((1,2,2,2,1),np.float32), strides=[1,1,1,1,1], padding='VALID'"),
    ("DepthToSpace", "input=np.zeros((1,2,2,3),np.float32), block_size=2"),
    ("DepthToSpace", "input=np.zeros((1,2,3),np.float32), block_size=2"),
    ("DepthToSpace", "input=P([1,2,2,None],np.zeros((1,2,2,3),np.float32)), block_size=2"),
    ("SpaceToDepth", "input=np.zeros((1,3,2,3),np.float32), block_size=2"),
    ("Dilation2D", "input=np.zeros((1,3,3,2),np.float32), filter=np.zeros((2,2,3),np.float32), strides=[1,1,1,1], "
                   "rates=[1,1,1,1], padding='VALID'"),
    ("Dilation2D", "input=np.zeros((1,3,3,2),np.float32), filter=np.zeros((4,2,2),np.float32), strides=[1,1,1,1], "
                   "rates=[1,1,1,1], padding='VALID'"),
    ("Dilation2D", "input=P([None,3,3,2],np.zeros((1,3,3,2),np.float32)), filter=np.zeros((2,2,2,1),np.float32), "
                   "strides=[1,1,1,1], rates=[1,1,1,1], padding='VALID'"),
    ("DynamicPartition", "data=np.zeros((3,2),np.float32), partitions=np.array([0,1,0,1],np.int32), num_partitions=2"),
    ("DynamicPartition", "data=np.zeros((3,),np.float32), partitions=np.array([[0,1,0]],np.int32), num_partitions=2"),
    ("DynamicPartition", "data=P([None,2],np.zeros((4,2),np.float32)), partitions=np.array([[0,1],[0,1]],np.int32), "
                         "num_partitions=2"),
    ("DynamicStitch", "indices=[np.array([0,1],np.int32), np.array([2],np.int32)], data=[np.zeros((2,3),np.float32), "
                      "np.zeros((1,4),np.float32)]"),
    ("DynamicStitch", "indices=[np.array([0,1],np.int32)], data=[np.zeros((3,3),np.float32)]"),
    ("GatherNd", "params=np.zeros((2,3),np.float32), indices=np.array([[0,1,1]],np.int32)"),
    ("GatherNd", "params=np.zeros((2,3),np.float32), indices=np.array(0,np.int32)"),
    ("GatherNd", "params=np.float32(1), indices=np.array([0],np.int32)"),
    ("ImageProjectiveTransformV3", "images=np.zeros((1,2,2,1),np.float32), transforms=np.zeros((1,8),np.float32), "
                                   "output_shape=np.array([2,2,2],np.int32), fill_value=np.float32(0), "
                                   "interpolation='NEAREST'"),
    ("ImageProjectiveTransformV3", "images=np.zeros((2,2,1),np.float32), transforms=np.zeros((1,8),np.float32), "
                                   "output_shape=np.array([2,2],np.int32), fill_value=np.float32(0), "
                                   "interpolation='NEAREST'"),
    ("ImageProjectiveTransformV3", "images=np.zeros((1,2,2,1),np.float32), transforms=np.zeros((1,8),np.float32), "
                                   "output_shape=np.array([-2,2],np.int32), fill_value=np.float32(0), "
                                   "interpolation='NEAREST'"),
    ("LogUniformCandidateSampler", "true_classes=np.array([1,2],np.int64), num_true=2, num_sampled=2, unique=True, "
                                   "range_max=5"),
    ("MaxPoolGradGrad", "orig_input=np.zeros((1,4,4,1),np.float32), orig_output=np.zeros((1,3,2,1),np.float32), "
                        "grad=np.zeros((1,4,4,1),np.float32), ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'"),
    ("MaxPoolGradGrad", "orig_input=np.zeros((1,4,4,1),np.float32), orig_output=np.zeros((1,2,2,1),np.float32), "
                        "grad=np.zeros((1,4,3,1),np.float32), ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'"),
    ("MaxPoolGradGrad", "orig_input=np.zeros((1,4,4),np.float32), orig_output=np.zeros((1,2,2,1),np.float32), "
                        "grad=np.zeros((1,4,4,1),np.float32), ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'"),
    ("MaxPool3DGradGrad", "orig_input=np.zeros((1,4,4,4,1),np.float32), orig_output=np.zeros((1,2,2,3,1),np.float32), "
                          "grad=np.zeros((1,4,4,4,1),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], "
                          "padding='VALID'"),
    ("MaxPool3DGradGrad", "orig_input=np.zeros((1,4,4,4),np.float32), orig_output=np.zeros((1,2,2,2,1),np.float32), "
                          "grad=np.zeros((1,4,4,4,1),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], "
                          "padding='VALID'"),
    ("OneHot", "indices=np.array([0,1],np.int32), depth=np.array([3],np.int32), on_value=1.0, off_value=0.0"),
    ("OneHot", "indices=np.array([0,1],np.int32), depth=np.int32(-1), on_value=1.0, off_value=0.0"),
    ("OneHot", "indices=np.array([0,1],np.int32), depth=np.int32(3), on_value=1.0, off_value=0.0, axis=-2"),
    ("OneHot", "indices=np.array([0,1],np.int32), depth=P([1],np.array([3],np.int32)), on_value=1.0, off_value=0.0"),
    ("RandomGammaGrad", "alpha=np.ones((2,),np.float32), sample=np.ones((3,),np.float32)"),
    ("RandomGammaGrad", "alpha=np.ones((2,1),np.float32), sample=np.ones((3,),np.float32)"),
    ("ResizeNearestNeighborGrad", "grads=np.zeros((1,2,2,1),np.float32), size=np.array([2,2,2],np.int32)"),
    ("ResizeNearestNeighborGrad", "grads=np.zeros((2,2,1),np.float32), size=np.array([2,2],np.int32)"),
    ("ResizeNearestNeighborGrad", "grads=np.zeros((1,2,2,1),np.float32), size=np.array([-2,2],np.int32)"),
    ("ResizeNearestNeighborGrad", "grads=np.zeros((1,2,2,1),np.float32), size=np.array([-1,2],np.int32)"),
    ("ReverseSequence", "input=np.zeros((2,3),np.float32), seq_lengths=np.array([1,1,1],np.int64), seq_dim=1, batch_dim=0"),
    ("ReverseSequence", "input=np.zeros((2,3),np.float32), seq_lengths=np.array([1,1],np.int64), seq_dim=2, batch_dim=0"),
    ("ReverseSequence", "input=np.zeros((2,3),np.float32), seq_lengths=np.array([[1,1]],np.int64), seq_dim=1, "
                        "batch_dim=0"),
    ("ScatterNd", "indices=np.array([[0],[1]],np.int32), updates=np.ones((3,),np.float32), shape=np.array([4],np.int32)"),
    ("ScatterNd", "indices=np.array([[0],[1]],np.int32), updates=np.ones((2,3),np.float32), "
                  "shape=np.array([4,2],np.int32)"),
    ("ScatterNd", "indices=np.array([[0],[1]],np.int32), updates=np.ones((2,),np.float32), shape=np.array([0],np.int32)"),
    ("ScatterNd", "indices=np.array([[0],[1]],np.int32), updates=np.ones((2,),np.float32), shape=np.array(4,np.int32)"),
    ("SegmentMean", "data=np.ones((3,2),np.float32), segment_ids=np.array([[0,0,1]],np.int32)"),
    ("SegmentMean", "data=np.float32(1), segment_ids=np.array([0],np.int32)"),
    ("UnsortedSegmentSum", "data=np.ones((3,2),np.float32), segment_ids=np.array([0,0],np.int32), num_segments=2"),
    ("UnsortedSegmentSum", "data=np.ones((3,2),np.float32), segment_ids=np.array([0,0,1],np.int32), num_segments=[2]"),
    ("UnsortedSegmentSum", "data=np.ones((3,2),np.float32), segment_ids=np.array([0,0,1],np.int32), num_segments=-1"),
    ("Slice", "input=np.zeros((2,3),np.float32), begin=np.array([0,0]), size=np.array([1])"),
    ("Slice", "input=np.zeros((2,3),np.float32), begin=np.array([0]), size=np.array([1])"),
    ("Slice", "input=np.zeros((2,3),np.float32), begin=np.array([[0,0]]), size=np.array([1,1])"),
    ("Slice", "input=np.zeros((2,3),np.float32), begin=np.array([0,0]), size=np.array([1,-2])"),
    ("Slice", "input=np.zeros((2,3),np.float32), begin=np.array([0,4]), size=np.array([1,-1])"),
    ("Slice", "input=P([None,3],np.zeros((2,3),np.float32)), begin=np.array([0,0,0]), size=P([3],np.array([1,1,1]))"),
    ("SobolSample", "dim=[3], num_results=2, skip=0"),
    ("SobolSample", "dim=3, num_results=-2, skip=0"),
    ("SobolSample", "dim=-1, num_results=2, skip=0"),
    ("SoftmaxCrossEntropyWithLogits", "features=np.zeros((2,3),np.float32), labels=np.zeros((2,4),np.float32)"),
    ("SoftmaxCrossEntropyWithLogits", "features=np.zeros((3,),np.float32), labels=np.zeros((3,),np.float32)"),
    ("SoftmaxCrossEntropyWithLogits", "features=np.zeros((2,1,3),np.float32), labels=np.zeros((3,),np.float32)"),
    ("SparseFillEmptyRows", "indices=np.array([[0,0]],np.int64), values=np.array([1.0,2.0],np.float32), "
                            "dense_shape=np.array([2,2],np.int64), default_value=np.float32(0)"),
    ("SparseFillEmptyRows", "indices=np.array([0,0],np.int64), values=np.array([1.0],np.float32), "
                            "dense_shape=np.array([2,2],np.int64), default_value=np.float32(0)"),
    ("SparseSparseMinimum", "a_indices=np.array([[0,0]],np.int64), a_values=np.array([1.0],np.float32), "
                            "a_shape=np.array([2,2],np.int64), b_indices=np.array([0,0],np.int64), "
                            "b_values=np.array([1.0],np.float32), b_shape=np.array([2,2],np.int64)"),
    ("SparseToDense", "sparse_indices=np.array([0],np.int32), output_shape=np.array([[3]],np.int32), "
                      "sparse_values=np.float32(1), default_value=np.float32(0)"),
    ("SparseToDense", "sparse_indices=np.array([0],np.int32), output_shape=np.array([-3],np.int32), "
                      "sparse_values=np.float32(1), default_value=np.float32(0)"),
    ("SparseToDense", "sparse_indices=np.array([0],np.int32), output_shape=np.array([3],np.int32), "
                      "sparse_values=np.float32(1), default_value=np.zeros(1,np.float32)"),
    ("TensorScatterMax", "tensor=np.zeros((4,),np.float32), indices=np.array([[0],[1]],np.int32), "
                         "updates=np.ones((3,),np.float32)"),
    ("TensorScatterUpdate", "tensor=np.zeros((4,2),np.float32), indices=np.array([[0],[1]],np.int32), "
                            "updates=np.ones((2,3),np.float32)"),
    ("TensorScatterUpdate", "tensor=np.float32(0), indices=np.array([[0],[1]],np.int32), updates=np.ones((2,),np.float32)"),
    ("TridiagonalMatMul", "superdiag=np.ones((1,3),np.float32), maindiag=np.ones((1,4),np.float32), "
                          "subdiag=np.ones((1,3),np.float32), rhs=np.ones((4,2),np.float32)"),
    ("TridiagonalMatMul", "superdiag=np.ones((2,3),np.float32), maindiag=np.ones((2,3),np.float32), "
                          "subdiag=np.ones((2,3),np.float32), rhs=np.ones((3,2),np.float32)"),
    ("TridiagonalMatMul", "superdiag=np.ones((2,1,3),np.float32), maindiag=np.ones((3,1,3),np.float32), "
                          "subdiag=np.ones((1,3),np.float32), rhs=np.ones((3,2),np.float32)"),
    ("TridiagonalSolve", "diagonals=np.ones((3,3),np.float32), rhs=np.ones((4,2),np.float32)"),
    ("TridiagonalSolve", "diagonals=np.ones((2,3),np.float32), rhs=np.ones((3,2),np.float32)"),
    ("TridiagonalSolve", "diagonals=np.ones((2,3,3),np.float32), rhs=np.ones((3,3,2),np.float32)"),
    ("Unpack", "value=np.zeros((2,3),np.float32), num=3"),
    ("Unpack", "value=np.zeros((2,3),np.float32), num=2, axis=2"),
    ("Unpack", "value=np.float32(1), num=1"),
    ("Unpack", "value=P([None,3],np.zeros((2,3),np.float32)), num=2"),
    # the fresh sig campaign's ops (fuzz20 seed 2120261201)
    ('MaxPool3DGrad', "orig_input=np.zeros((1,4,4,4),np.float32), orig_output=np.zeros((1,2,2,2,1),np.float32), grad=np.zeros((1,2,2,2,1),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], padding='VALID'"),
    ('MaxPool3DGrad', "orig_input=np.zeros((1,4,4,4,1),np.float32), orig_output=np.zeros((1,2,2,1),np.float32), grad=np.zeros((1,2,2,2,1),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], padding='VALID'"),
    ('MaxPoolGradWithArgmax', "input=np.zeros((1,4,4),np.float32), grad=np.zeros((1,2,2,1),np.float32), argmax=np.zeros((1,2,2,1),np.int64), ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'"),
    ('MaxPoolGradWithArgmax', "input=np.zeros((1,4,4,1),np.float32), grad=np.zeros((1,2,2),np.float32), argmax=np.zeros((1,2,2,1),np.int64), ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'"),
    ('MaxPoolWithArgmax', "input=np.zeros((1,4,4),np.float32), ksize=[1,2,2,1], strides=[1,2,2,1], padding='VALID'"),
    ('MaxPoolWithArgmax', "input=np.zeros((1,4,4,1),np.float32), ksize=[1,5,2,1], strides=[1,2,2,1], padding='VALID'"),
    ('FractionalMaxPoolGrad', 'orig_input=np.zeros((1,4,4),np.float32), orig_output=np.zeros((1,2,2,1),np.float32), out_backprop=np.zeros((1,2,2,1),np.float32), row_pooling_sequence=np.array([0,2,4],np.int64), col_pooling_sequence=np.array([0,2,4],np.int64)'),
    ('AvgPool3DGrad', "orig_input_shape=np.array([1,4,4,4],np.int32), grad=np.zeros((1,2,2,2,1),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], padding='VALID'"),
    ('AvgPool3DGrad', "orig_input_shape=np.array([1,4,4,4,1],np.int32), grad=np.zeros((1,2,2,2),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], padding='VALID'"),
    ('AvgPool3DGrad', "orig_input_shape=P([None],np.array([1,4,4,4],np.int32)), grad=np.zeros((1,2,2,2,1),np.float32), ksize=[1,2,2,2,1], strides=[1,2,2,2,1], padding='VALID'"),
    ('DepthwiseConv2dNativeBackpropFilter', "input=np.zeros((1,3,3,1),np.float32), filter_sizes=np.array([2,2,1],np.int32), out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('DepthwiseConv2dNativeBackpropFilter', "input=np.zeros((1,3,3),np.float32), filter_sizes=np.array([2,2,1,1],np.int32), out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('DepthwiseConv2dNativeBackpropInput', "input_sizes=np.array([1,3,3],np.int32), filter=np.zeros((2,2,1,1),np.float32), out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('DepthwiseConv2dNativeBackpropInput', "input_sizes=np.array([1,3,3,1],np.int32), filter=np.zeros((2,2,1),np.float32), out_backprop=np.zeros((1,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('CTCLoss', 'inputs=np.zeros((2,3),np.float32), labels_indices=np.array([[0,0]],np.int64), labels_values=np.array([1],np.int32), sequence_length=np.array([2,2,2],np.int32)'),
    ('CTCLoss', 'inputs=np.zeros((2,3,4),np.float32), labels_indices=np.array([[0,0]],np.int64), labels_values=np.array([1,1],np.int32), sequence_length=np.array([2,2,2],np.int32)'),
    ('CTCLoss', 'inputs=np.zeros((2,3,4),np.float32), labels_indices=np.array([[0,0]],np.int64), labels_values=np.array([1],np.int32), sequence_length=np.array([2,2],np.int32)'),
    ('BiasAddGrad', 'out_backprop=np.zeros((3,),np.float32)'),
    ('EditDistance', 'hypothesis_indices=np.array([[0,0]],np.int64), hypothesis_values=np.array([1,2],np.int32), hypothesis_shape=np.array([1,1],np.int64), truth_indices=np.array([[0,0]],np.int64), truth_values=np.array([1],np.int32), truth_shape=np.array([1,1],np.int64)'),
    ('EditDistance', 'hypothesis_indices=np.array([[0,0]],np.int64), hypothesis_values=np.array([1],np.int32), hypothesis_shape=np.array([1,1,1],np.int64), truth_indices=np.array([[0,0]],np.int64), truth_values=np.array([1],np.int32), truth_shape=np.array([1,1],np.int64)'),
    ('EditDistance', 'hypothesis_indices=np.array([[0,0]],np.int64), hypothesis_values=np.array([1],np.int32), hypothesis_shape=np.array([1,1],np.int64), truth_indices=np.array([[0,0,0]],np.int64), truth_values=np.array([1],np.int32), truth_shape=np.array([1,1,1],np.int64)'),
    ('EditDistance', 'hypothesis_indices=np.array([0,0],np.int64), hypothesis_values=np.array([1],np.int32), hypothesis_shape=np.array([1,1],np.int64), truth_indices=np.array([[0,0]],np.int64), truth_values=np.array([1],np.int32), truth_shape=np.array([1,1],np.int64)'),
    ('SparseReorder', 'input_indices=np.array([[0,0]],np.int64), input_values=np.array([1.0,2.0],np.float32), input_shape=np.array([2,2],np.int64)'),
    ('SparseReorder', 'input_indices=np.array([[0,0]],np.int64), input_values=np.array([1.0],np.float32), input_shape=np.array([2,2,2],np.int64)'),
    ('MatrixSolve', 'matrix=np.ones((2,3),np.float32), rhs=np.ones((2,1),np.float32)'),
    ('MatrixSolve', 'matrix=np.ones((2,2),np.float32), rhs=np.ones((3,1),np.float32)'),
    ('MatrixSolve', 'matrix=np.ones((2,2,2),np.float32), rhs=np.ones((3,2,1),np.float32)'),
    ('MatrixSolve', 'matrix=np.ones((2,2),np.float32), rhs=np.ones((2,),np.float32)'),
    ('UpperBound', 'sorted_inputs=np.array([1.0,2.0],np.float32), values=np.array([1.0],np.float32)'),
    ('UpperBound', 'sorted_inputs=np.float32(1), values=np.array([[1.0]],np.float32)'),
    ('LowerBound', 'sorted_inputs=np.array([[1.0,2.0]],np.float32), values=np.float32(1)'),
    ('UpperBound', 'sorted_inputs=np.array([[1.0,2.0]],np.float32), values=np.array([[1.0],[2.0]],np.float32)'),
    ('SparseSegmentMean', 'data=np.ones((3,2),np.float32), indices=np.array([0,1],np.int32), segment_ids=np.array([0],np.int32)'),
    ('SparseSegmentMean', 'data=np.float32(1), indices=np.array([0],np.int32), segment_ids=np.array([0],np.int32)'),
    ('SparseSegmentSum', 'data=np.ones((3,2),np.float32), indices=np.array([[0]],np.int32), segment_ids=np.array([0],np.int32)'),
    ('SparseSegmentSqrtN', 'data=np.ones((3,2),np.float32), indices=np.array([0],np.int32), segment_ids=np.array([[0]],np.int32)'),
    ('SparseSegmentSumWithNumSegments', 'data=np.ones((3,2),np.float32), indices=np.array([0],np.int32), segment_ids=np.array([0],np.int32), num_segments=[2]'),
    ('SparseSegmentSumWithNumSegments', 'data=np.ones((3,2),np.float32), indices=np.array([0,1],np.int32), segment_ids=np.array([0],np.int32), num_segments=[2]'),
    ('SparseSegmentMeanGrad', 'grad=np.ones((3,2),np.float32), indices=np.array([0,1],np.int32), segment_ids=np.array([0],np.int32), output_dim0=np.int32(3)'),
    ('SparseSegmentMeanGrad', 'grad=np.ones((3,2),np.float32), indices=np.array([0],np.int32), segment_ids=np.array([0],np.int32), output_dim0=np.array([3],np.int32)'),
    ('SparseSegmentSqrtNGrad', 'grad=np.float32(1), indices=np.array([0],np.int32), segment_ids=np.array([0],np.int32), output_dim0=np.int32(3)'),
    ('HistogramFixedWidth', 'values=np.array([1.0],np.float32), value_range=np.array([0.0,1.0,2.0],np.float32), nbins=3'),
    ('HistogramFixedWidth', 'values=np.array([1.0],np.float32), value_range=np.array([0.0,1.0],np.float32), nbins=[3]'),
    ('HistogramFixedWidth', 'values=np.array([1.0],np.float32), value_range=np.array([[0.0,1.0]],np.float32), nbins=3'),
    ('ResizeBilinear', 'images=np.zeros((2,2,1),np.float32), size=np.array([2,2],np.int32)'),
    ('ResizeBilinear', 'images=np.zeros((1,2,2,1),np.float32), size=np.array([2,2,2],np.int32)'),
    ('ResizeBilinear', 'images=np.zeros((1,2,2,1),np.float32), size=np.array([-2,2],np.int32)'),
    ('ResizeNearestNeighbor', 'images=np.zeros((1,2,2,1),np.float32), size=np.array([[2,2]],np.int32)'),
    ('ResizeBicubic', 'images=np.zeros((1,2,2,1),np.float32), size=np.array([2,-1],np.int32)'),
    ('ResizeArea', 'images=P(None,np.zeros((1,2,2,1),np.float32)), size=np.array([2],np.int32)'),
    # BroadcastBinaryOpShapeFn of the binary ops (math_ops.cc), an unknown dimension beside a known one
    ('AddV2', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Sub', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Mul', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('MulNoNan', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('DivNoNan', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('RealDiv', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('FloorDiv', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('FloorMod', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Maximum', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Minimum', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Pow', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Igamma', 'a=P([None,3],np.ones((2,3),np.float32)), x=np.ones((4,),np.float32)'),
    ('Igammac', 'a=P([None,3],np.ones((2,3),np.float32)), x=np.ones((4,),np.float32)'),
    ('Zeta', 'x=P([None,3],np.ones((2,3),np.float32)), q=np.ones((4,),np.float32)'),
    ('Polygamma', 'a=P([None,3],np.ones((2,3),np.float32)), x=np.ones((4,),np.float32)'),
    ('Atan2', 'y=P([None,3],np.ones((2,3),np.float32)), x=np.ones((4,),np.float32)'),
    ('SquaredDifference', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Xlogy', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Xlog1py', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Xdivy', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('NextAfter', 'x1=P([None,3],np.ones((2,3),np.float32)), x2=np.ones((4,),np.float32)'),
    ('Less', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('LessEqual', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Greater', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('GreaterEqual', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('Equal', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('NotEqual', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('IgammaGradA', 'a=P([None,3],np.ones((2,3),np.float32)), x=np.ones((4,),np.float32)'),
    ('Complex', 'real=P([None,3],np.ones((2,3),np.float32)), imag=np.ones((4,),np.float32)'),
    ('TruncateDiv', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32)'),
    ('TruncateMod', 'x=P([None,3],np.ones((2,3),np.int32)), y=np.ones((4,),np.int32)'),
    ('BitwiseAnd', 'x=P([None,3],np.ones((2,3),np.int32)), y=np.ones((4,),np.int32)'),
    ('BitwiseOr', 'x=P([None,3],np.ones((2,3),np.int32)), y=np.ones((4,),np.int32)'),
    ('BitwiseXor', 'x=P([None,3],np.ones((2,3),np.int32)), y=np.ones((4,),np.int32)'),
    ('LeftShift', 'x=P([None,3],np.ones((2,3),np.int32)), y=np.ones((4,),np.int32)'),
    ('RightShift', 'x=P([None,3],np.ones((2,3),np.int32)), y=np.ones((4,),np.int32)'),
    ('LogicalAnd', 'x=P([None,3],np.ones((2,3),bool)), y=np.ones((4,),bool)'),
    ('LogicalOr', 'x=P([None,3],np.ones((2,3),bool)), y=np.ones((4,),bool)'),
    ('Equal', 'x=P([None,3],np.ones((2,3),np.float32)), y=np.ones((4,),np.float32), incompatible_shape_error=False'),
    ('Mul', 'x=P([3,None],np.ones((3,2),np.float32)), y=np.ones((4,1),np.float32)'),
    ('Mul', 'x=P([None],np.ones((3,),np.float32)), y=np.ones((4,),np.float32)'),
    # the common ops' shape functions (conv, pool, gather, split, range, fill, select, pads, diag parts)
    ('ExtractVolumePatches', "input=P([None,4],np.zeros((3,4),np.float32)), strides=[1,3,1,2,1], padding='SAME', ksizes=[1,2,1,2,1]"),
    ('MatrixDiagPartV3', 'input=P([None,3],np.zeros((4,3),np.float32)), k=0, padding_value=np.zeros((2,),np.float32)'),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=np.array([[0]]), padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=np.zeros((3,),np.float32), k=0, padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=np.array([1,0]), padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=np.array([0,1,2]), padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=5, padding_value=np.float32(0)'),
    ('SparseDenseCwiseDiv', 'sp_indices=np.array([0],np.int64), sp_values=np.ones((1,),np.float32), sp_shape=np.array([1],np.int64), dense=np.ones((1,),np.float32)'),
    ('SparseDenseCwiseDiv', 'sp_indices=np.array([[0]],np.int64), sp_values=np.ones((1,1),np.float32), sp_shape=np.array([1],np.int64), dense=np.ones((1,),np.float32)'),
    ('SparseDenseCwiseMul', 'sp_indices=np.array([[0]],np.int64), sp_values=np.ones((1,),np.float32), sp_shape=np.array([[1]],np.int64), dense=np.ones((1,),np.float32)'),
    ('MirrorPadGrad', "input=P([None,2],np.zeros((4,2),np.float32)), paddings=np.array([[1,1],[0,0],[2,1]],np.int32), mode='SYMMETRIC'"),
    ('MirrorPadGrad', "input=np.zeros((4,2),np.float32), paddings=np.array([[1,1],[0,0]],np.int32), mode='SYMMETRIC'"),
    ('MirrorPadGrad', "input=np.zeros((4,2),np.float32), paddings=np.array([[3,3],[0,0]],np.int32), mode='SYMMETRIC'"),
    ('MirrorPadGrad', "input=np.zeros((4,2),np.float32), paddings=np.array([[1,1,1],[0,0,0]],np.int32), mode='SYMMETRIC'"),
    ('Conv2D', "input=P([None,4,4,2],np.zeros((1,4,4,2),np.float32)), filter=np.zeros((2,2,3,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('Conv2D', "input=np.zeros((1,4,4),np.float32), filter=np.zeros((2,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('Conv2D', "input=np.zeros((1,4,4,2),np.float32), filter=np.zeros((5,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('MaxPool', "input=P([None,4,3],np.zeros((1,4,3),np.float32)), ksize=[1,2,2,1], strides=[1,1,1,1], padding='VALID'"),
    ('MaxPool', "input=np.zeros((1,4,3,1),np.float32), ksize=[1,5,2,1], strides=[1,1,1,1], padding='VALID'"),
    ('Reshape', 'tensor=P([None,3],np.zeros((2,3),np.float32)), shape=np.array([4,-1])'),
    ('GatherV2', 'params=P([None,3],np.zeros((2,3),np.float32)), indices=np.array([0]), axis=np.array([1])'),
    ('GatherV2', 'params=np.zeros((2,3),np.float32), indices=np.array([0]), axis=2'),
    ('Transpose', 'x=P([None,3],np.zeros((2,3),np.float32)), perm=np.array([0,1,2])'),
    ('Tile', 'input=P([None,3],np.zeros((2,3),np.float32)), multiples=np.array([1,1,1])'),
    ('Pad', 'input=P([None,3],np.zeros((2,3),np.float32)), paddings=np.array([[1,1]])'),
    ('Split', 'split_dim=1, value=P([None,3],np.zeros((2,3),np.float32)), num_split=2'),
    ('SplitV', 'value=P([None,3],np.zeros((2,3),np.float32)), size_splits=np.array([1,1]), axis=1, num_split=2'),
    ('Squeeze', 'input=P([None,3],np.zeros((2,3),np.float32)), axis=[1]'),
    ('ExpandDims', 'input=P([None,3],np.zeros((2,3),np.float32)), axis=5'),
    ('Sum', 'input=P([None,3],np.zeros((2,3),np.float32)), axis=np.array([2])'),
    ('ArgMax', 'input=P([None,3],np.zeros((2,3),np.float32)), dimension=np.array([0,1])'),
    ('Conv2DBackpropInput', "input_sizes=np.array([1,4,4]), filter=np.zeros((2,2,2,1),np.float32), out_backprop=np.zeros((1,3,3,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('MatrixSetDiagV3', 'input=P([None,3],np.zeros((2,3),np.float32)), diagonal=np.zeros((3,),np.float32), k=0'),
    ('Cumsum', 'x=P([None,3],np.zeros((2,3),np.float32)), axis=np.array([1])'),
    ('Range', 'start=np.array([0]), limit=5, delta=1'),
    ('Fill', 'dims=np.array([[2]]), value=np.float32(1)'),
    ('Select', 'condition=P([None],np.array([True,False])), t=np.zeros((3,),np.float32), e=np.zeros((3,),np.float32)'),
    ('SelectV2', 'condition=P([None,2],np.ones((1,2),bool)), t=np.zeros((3,),np.float32), e=np.zeros((3,),np.float32)'),
    ('BiasAdd', 'value=P([None,3],np.zeros((2,3),np.float32)), bias=np.zeros((4,),np.float32)'),
    ('L2Loss', 't=P([None,3],np.zeros((2,3),np.float32))'),
    ('TopKV2', 'input=P([None,3],np.zeros((2,3),np.float32)), k=5'),
    ('InTopKV2', 'predictions=P([None,3],np.zeros((2,3),np.float32)), targets=np.array([0,1,1]), k=1'),
    ('Conv2D', "input=np.zeros((1,4,4,2),np.float32), filter=np.zeros((2,2,2,3),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('Conv2D', "input=np.zeros((1,4,4,4),np.float32), filter=np.zeros((2,2,2,3),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('Conv2D', "input=np.zeros((1,4,4,2),np.float32), filter=np.zeros((2,2,2,1),np.float32), strides=[1,1,1,1], padding='VALID', dilations=[1,4,1,1]"),
    ('Conv2D', "input=np.zeros((1,4,4,2),np.float32), filter=np.zeros((2,2,2,1),np.float32), strides=[1,1,1], padding='VALID'"),
    ('Conv2D', "input=P([None,None,None,2],np.zeros((1,4,4,2),np.float32)), filter=np.zeros((5,2,2,1),np.float32), strides=[1,1,1,1], padding='SAME'"),
    ('Conv2D', "input=np.zeros((1,4,4,2),np.float32), filter=np.zeros((2,2,2,1),np.float32), strides=[1,1,1,1], padding='EXPLICIT', explicit_paddings=[0,0,1,1,1,1,0,0]"),
    ('MaxPool', "input=np.zeros((1,4,3,1),np.float32), ksize=[1,2,2,1], strides=[1,1,1,1], padding='SAME'"),
    ('GatherV2', 'params=np.zeros((2,3),np.float32), indices=np.array([0]), axis=-1'),
    ('GatherV2', 'params=np.zeros((2,3),np.float32), indices=np.array([0]), axis=-3'),
    ('GatherV2', 'params=np.zeros((2,3),np.float32), indices=np.array([[0]]), axis=1, batch_dims=1'),
    ('SplitV', 'value=np.zeros((2,3),np.float32), size_splits=np.array([1,-1]), split_dim=1, num_split=2'),
    ('SplitV', 'value=np.zeros((2,3),np.float32), size_splits=np.array([1,2]), split_dim=-1, num_split=2'),
    ('SplitV', 'value=np.zeros((2,3),np.float32), size_splits=np.array([2,2]), split_dim=0, num_split=2'),
    ('SplitV', 'value=np.zeros((2,3),np.float32), size_splits=np.array([4,-1]), split_dim=1, num_split=2'),
    ('Range', 'start=0, limit=np.array([5]), delta=1'),
    ('Range', 'start=0, limit=5, delta=np.array([[1]])'),
    ('Fill', 'dims=np.array([2,-1]), value=np.float32(1)'),
    ('Fill', 'dims=np.array([2]), value=np.array([1.0],np.float32)'),
    ('SelectV2', 'condition=np.ones((2,1),bool), t=np.zeros((3,),np.float32), e=np.zeros((2,3),np.float32)'),
    ('SelectV2', 'condition=np.ones((2,),bool), t=np.zeros((3,),np.float32), e=np.zeros((3,),np.float32)'),
    ('SelectV2', 'condition=np.ones((3,),bool), t=np.zeros((2,),np.float32), e=np.zeros((3,),np.float32)'),
    ('MirrorPadGrad', "input=np.zeros((4,2),np.float32), paddings=np.array([[1,1],[0,0]],np.int32), mode='SYMMETRIC'"),
    ('MirrorPadGrad', "input=P([None,2],np.zeros((4,2),np.float32)), paddings=np.array([[1,1],[0,0]],np.int32), mode='REFLECT'"),
    ('MirrorPadGrad', "input=P(None,np.zeros((4,2),np.float32)), paddings=np.array([[1,1],[0,0],[1,1]],np.int32), mode='REFLECT'"),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=np.array([-3,2]), padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=-4, padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=np.zeros((4,3),np.float32), k=np.array([0,3]), padding_value=np.float32(0)'),
    ('MatrixDiagPartV3', 'input=P([None,3],np.zeros((4,3),np.float32)), k=5, padding_value=np.float32(0)'),
    ('Conv2DBackpropInput', "input_sizes=np.array([[1,4,4,1]]), filter=np.zeros((2,2,1,1),np.float32), out_backprop=np.zeros((1,3,3,1),np.float32), strides=[1,1,1,1], padding='VALID'"),
    ('ExtractVolumePatches', "input=np.zeros((1,4,4,4,1),np.float32), strides=[1,1,1,1,1], padding='VALID', ksizes=[1,2,2,2,1]"),
    ('SparseDenseCwiseMul', 'sp_indices=np.array([[0]],np.int64), sp_values=np.ones((1,),np.float32), sp_shape=np.array([1],np.int64), dense=np.ones((1,),np.float32)'),
    # a graph converts the inputs before it checks the given attrs (op_def_library: the dtype's TypeError first)
    ("Conv3DBackpropInputV2", "padding='VALID', input_sizes=[2, 3], out_backprop=np.array([[False, True, False]]), "
                              "strides=[2, 2, 1, 1], dilations=[1, 1, 1, 1, 1], filter=np.array(False)"),
    # ConcatV2's scalar axis, EinsumShape
    ('ConcatV2', 'values=[np.zeros((1,3,4),np.int16), np.zeros((1,3,4),np.int16)], axis=np.array([0],np.int64)'),
    ('ConcatV2', 'values=[np.zeros((1,3,4),np.int16), np.zeros((1,3),np.int16)], axis=np.array([[0]],np.int64)'),
    ('Einsum', "equation='ii->i', inputs=[np.zeros((3,1,1),np.int32), np.zeros((1,1,1),np.int32), np.zeros((3,1,1),np.int32)]"),
    ('Einsum', "equation='ii->i', inputs=[np.zeros((2,2,4),np.int32)]"),
    ('Einsum', "equation='ij,jk->ik', inputs=[np.zeros((2,3),np.float32), np.zeros((4,5),np.float32)]"),
    ('Einsum', "equation='ij,jk->ik', inputs=[np.zeros((2,3),np.float32)]"),
    ('Einsum', "equation='...ij,jk->...ik', inputs=[np.zeros((3,),np.float32), np.zeros((3,5),np.float32)]"),
    ('Einsum', "equation='ij,jk', inputs=[np.zeros((2,3),np.float32), np.zeros((3,5),np.float32)]"),
    ('Einsum', "equation='ii->i', inputs=[np.zeros((2,3),np.int32)]"),
    ('Einsum', "equation='ij,jk->ik', inputs=[np.zeros((2,3),np.float32), np.zeros((3,5),np.float32)]"),
]


# Eager calls whose kernel check simdist's kernel does not make (it returns where TF 2.21's kernel raises
# InvalidArgumentError): kernel checks, not shape functions, left to the raw-op kernels' owners (rawfz21).
# (Slice's begin and size of rank 2, "Expected begin and size arguments to be 1-D tensors", since fz36b)
EAGER_OPEN = {
    ("ImageProjectiveTransformV3", "output_shape=np.array([2,2,2],np.int32)"): "output shape must have two elements",
    ("ImageProjectiveTransformV3", "output_shape=np.array([-2,2],np.int32)"): "output_shape's elements must be positive",
    ("EditDistance", "hypothesis_values=np.array([1,2],np.int32)"): "Expected hypothesis_values.NumElements == #rows",
}
# (ResizeBilinear's non-positive size is the kernel's check since asweep58: simdist/runtime/ops/image_basic.py)


# Calls whose traced graph TF's kernel refuses when it runs and simdist's kernel runs (kernel checks too).
# (MaxPoolGradWithArgmax's grad shape and MatrixDiagPartV3's k of shape [1, 1] are the kernels' checks
# since fz26a: tests/ops/test_fz26a_edges_tf.py)
TRACED_OPEN: set[tuple[str, str]] = set()


def _eager_open(op: str, kw: str) -> str | None:
    return next((why for (o, part), why in EAGER_OPEN.items() if o == op and part in kw), None)


def _traced_open(op: str, kw: str) -> bool:
    return any(o == op and part in kw for o, part in TRACED_OPEN)


def _cases() -> list[tuple[str, str, Callable[[Any], Any]]]:
    out: list[tuple[str, str, Callable[[Any], Any]]] = []
    for op, kw in CALLS:
        label = f"{op}({kw[:70]})"
        out.append((f"{label}, traced", _EO if _traced_open(op, kw) else _T, _traced(op, kw)))
        if "P(" in kw:
            out.append((f"{label}, sig", _T, _sig(op, kw)))
        out.append((f"{label}, eager", _E if _eager_open(op, kw) is None else _EO, _eager(op, kw)))
    return out


CASES = _cases()


def _equal(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    return np.array([g == w for g, w in zip(got.ravel(), want.ravel())], bool).reshape(got.shape)


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: _equal)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("function.trace-time-errors")
@EDGES.parametrize(_T)
def test_shape_functions_at_trace(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fuzz-raw")
@EDGES.parametrize(_E)
def test_eager_calls_run_the_kernel(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.fuzz-raw")
@EDGES.parametrize(_EO)
def test_eager_kernel_checks_still_open(k: int, tf_results: dict[int, Any]) -> None:
    """TF 2.21's kernel raises InvalidArgumentError where simdist's returns (EAGER_OPEN, TRACED_OPEN): fails
    once one is fixed."""
    with pytest.raises(AssertionError, match="but TF 2.21 raises InvalidArgumentError"):
        EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_shapefn21_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
