"""Resource handles and the raw ops over them (clauses ops.resource-handles, ops.training-kernels), against real
TensorFlow 2.21: `tf.resource` and `tf.variant`, `v.handle` of a tf.Variable, a Keras variable and a MirroredVariable
(printed: the anonymous-handle counter, TF's process-wide count, is replaced by N), the resource-variable raw ops
(VarHandleOp, ReadVariableOp, AssignVariableOp, AssignAdd/SubVariableOp, VariableShape, VarIsInitializedOp,
DestroyResourceOp, ResourceGather(Nd), ResourceScatter*, ResourceScatterNd*, ResourceStridedSliceAssign) and the 18
dense ResourceApply* training kernels: the same program on both backends gives the same dtypes and values (the
op's result and every variable after it), or raises the same exception class; eagerly and inside a tf.function.
Gradients: ReadVariableOp and ResourceGather under a tape that watches the variable, and one that does not.
Needs the `tf` extra.

Host independence: the values are float32/float64/float16/bfloat16 sums, products, quotients and square roots of
fixed inputs, IEEE-exact on any host; the training cases of 16 elements (Eigen's vectorized rsqrt and pow) are
compared to rounding, the others bit for bit.
"""

from __future__ import annotations

import re
from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RH = "ops.resource-handles"
_TK = "ops.training-kernels"


def _text(x: Any) -> str:
    """A printed handle with TF's process-wide anonymous-resource count replaced by N."""
    return re.sub(r'name="([^"]*)/\d+"', r'name="\1/N"', x)


def _program(body: str, traced: bool) -> Callable[[Any], Any]:
    """`body` (statements; `out` is the result) run on `tf`, eagerly or as a tf.function's Python (the variables
    made outside it, as a tf.function needs)."""
    setup, _, call = body.partition("|")

    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        scope: dict[str, Any] = {"tf": tf, "np": np, "R": tf.raw_ops, "T": _text}
        exec(setup, scope)  # noqa: S102 - our own text
        fn = eval(f"lambda: ({call})", scope)  # noqa: S307 - our own text
        if not traced:
            return fn()
        # (an output-less op's result is a graph Operation in a tf.function, which it cannot return: "op" instead)
        kept = lambda out: [kept(x) for x in out] if isinstance(out, list) else \
            out if hasattr(out, "dtype") or isinstance(out, str) else "op"  # noqa: E731
        return tf.function(lambda: kept(fn()), autograph=False)()
    return run


def _both(label: str, clause_name: str, body: str, traced_too: bool = True) -> list[tuple[str, str, Any]]:
    out = [(label, clause_name, _program(body, False))]
    if traced_too:
        out.append((f"{label} in a tf.function", clause_name, _program(body.replace("shared_name='@", "shared_name='f@"), True)))
    return out


# --- the dtypes and handles ---------------------------------------------------------------------------------------
_DTYPES = [
    ("tf.resource's properties", "|[tf.resource.name, tf.resource.as_datatype_enum, tf.resource.is_numpy_compatible, "
     "repr(tf.resource), str(tf.resource), tf.as_dtype('resource') is tf.resource, tf.resource.size, "
     "tf.resource.is_floating, tf.resource.is_integer, tf.as_dtype(20).name, tf.resource.base_dtype.name]"),
    ("tf.variant's properties", "|[tf.variant.name, tf.variant.as_datatype_enum, tf.variant.is_numpy_compatible, "
     "repr(tf.variant), tf.as_dtype('variant') is tf.variant, tf.as_dtype(21).name]"),
    ("tf.resource.min", "|tf.resource.min"),
    ("tf.resource.max", "|tf.resource.max"),
    ("tf.resource.as_numpy_dtype", "|tf.resource.as_numpy_dtype"),
    ("tf.resource.limits", "|tf.resource.limits"),
    ("tf.constant(1, tf.resource)", "|tf.constant(1, tf.resource)"),
]
_HANDLES = [
    ("repr and str of v.handle", "v = tf.Variable([1.0, 2.0]); w = tf.Variable(tf.zeros([2, 3], tf.float64), name='w')"
     "|[T(repr(v.handle)), T(str(v.handle)), T(repr(w.handle)), v.handle.dtype.name, str(v.handle.shape), "
     "v.handle is v.handle]"),
    ("v.handle.numpy()", "v = tf.Variable(1.0)|v.handle.numpy()"),
    ("bool(v.handle)", "v = tf.Variable(1.0)|bool(v.handle)"),
    ("float(v.handle)", "v = tf.Variable(1.0)|float(v.handle)"),
    ("np.asarray(v.handle)", "v = tf.Variable(1.0)|np.asarray(v.handle)"),
    ("tf.identity(v.handle)", "v = tf.Variable([1, 2])|T(repr(tf.identity(v.handle)))"),
    ("a Keras variable's handle", "import keras; k = keras.Variable([1.0, 2.0], name='kv')"
     "|[T(repr(k.handle)), T(repr(k.value.handle))]"),
    ("a MirroredVariable's handle", "s = tf.distribute.MirroredStrategy(['/cpu:0'])\nwith s.scope(): m = tf.Variable([1.0])"
     "|T(repr(m.handle))"),
    ("a variable for a handle input", "v = tf.Variable(1.0)|R.ReadVariableOp(resource=v, dtype=tf.float32)"),
    ("a float tensor for a handle input", "|R.ReadVariableOp(resource=tf.constant(1.0), dtype=tf.float32)"),
    ("a list of one handle for a handle input", "v = tf.Variable([1.0, 2.0])|R.ReadVariableOp(resource=[v.handle], "
     "dtype=tf.float32)"),
    ("a Python float for a handle input", "|R.ReadVariableOp(resource=1.0, dtype=tf.float32)"),
    ("v.handle * v.handle", "v = tf.Variable(1.0)|v.handle * v.handle"),
    ("tf.cast(v.handle, tf.float32)", "v = tf.Variable(1.0)|tf.cast(v.handle, tf.float32)"),
    ("tf.reduce_sum(v.handle)", "v = tf.Variable(1.0)|tf.reduce_sum(v.handle)"),
    ("ZerosLike of a handle", "v = tf.Variable(1.0)|R.ZerosLike(x=v.handle)"),
    ("Shape, Size and Rank of a handle", "v = tf.Variable([1.0])|[R.Shape(input=v.handle), R.Size(input=v.handle), "
     "R.Rank(input=v.handle), tf.shape(v.handle)]"),
    ("tf.stack of handles", "v = tf.Variable([1.0])|[T(str(tf.stack([v.handle, v.handle]).shape)), "
     "tf.stack([v.handle, v.handle]).dtype.name]"),
    ("tf.zeros and tf.ones of dtype resource", "|[tf.zeros([2], tf.resource), tf.ones([2], tf.resource)]"),
]
_HANDLES_TRACED = [
    ("v.handle + 1 in a tf.function", "v = tf.Variable(1.0)|v.handle + 1"),
    ("v.handle + 1 eagerly", "v = tf.Variable(1.0)|v.handle + 1"),
    ("tf.identity(v.handle) printed in a tf.function", "v = tf.Variable([1.0])|repr(tf.identity(v.handle))"),
]


def _returned_handle(tf: Any) -> Any:
    """A tf.function's returned handle (the captured eager tensor), printed."""
    v = tf.Variable([1.0])
    return [_text(repr(tf.function(lambda: v.handle, autograph=False)())),
            _text(repr(tf.function(lambda: tf.identity(v.handle), autograph=False)()))]

# --- the resource-variable ops --------------------------------------------------------------------------------------
_V = "v = tf.Variable([1.0, 2.0, 3.0]); i = tf.Variable([[1, 2], [3, 4]]); d = tf.Variable(tf.zeros([2, 3], tf.float64))"
_OPS = [
    ("ReadVariableOp", f"{_V}|[R.ReadVariableOp(resource=v.handle, dtype=tf.float32), v]"),
    ("ReadVariableOp of another dtype", f"{_V}|R.ReadVariableOp(resource=v.handle, dtype=tf.int32)"),
    ("AssignVariableOp", f"{_V}|[R.AssignVariableOp(resource=v.handle, value=[5.0, 6.0, 7.0]), v.read_value()]"),
    ("AssignVariableOp of another shape", f"{_V}|[R.AssignVariableOp(resource=v.handle, value=[5.0, 6.0]), "
     "R.ReadVariableOp(resource=v.handle, dtype=tf.float32)]"),
    ("AssignVariableOp validate_shape", f"{_V}|R.AssignVariableOp(resource=v.handle, value=[5.0, 6.0], "
     "validate_shape=True)"),
    ("AssignVariableOp of another dtype", f"{_V}|R.AssignVariableOp(resource=v.handle, value=[5, 6, 7])"),
    ("AssignAddVariableOp", f"{_V}|[R.AssignAddVariableOp(resource=v.handle, value=[0.5, 0.25, 1.0]), v.read_value()]"),
    ("AssignSubVariableOp of ints", f"{_V}|[R.AssignSubVariableOp(resource=i.handle, value=[[1, 1], [5, 5]]), "
     "i.read_value()]"),
    ("AssignAddVariableOp of another shape", f"{_V}|R.AssignAddVariableOp(resource=v.handle, value=[1.0])"),
    ("AssignAddVariableOp of another dtype", f"{_V}|R.AssignAddVariableOp(resource=v.handle, value=[1, 2, 3])"),
    ("AssignAddVariableOp of a bool", "b = tf.Variable([True])|R.AssignAddVariableOp(resource=b.handle, value=[True])"),
    ("VariableShape", f"{_V}|[R.VariableShape(input=d.handle), R.VariableShape(input=i.handle, out_type=tf.int64)]"),
    ("VarIsInitializedOp", f"{_V}|R.VarIsInitializedOp(resource=v.handle)"),
    ("ResourceGather", f"{_V}|R.ResourceGather(resource=i.handle, indices=[1, 0, 1], dtype=tf.int32)"),
    ("ResourceGather batch_dims", f"{_V}|R.ResourceGather(resource=i.handle, indices=[[1], [0]], batch_dims=1, "
     "dtype=tf.int32)"),
    ("ResourceGather out of range", f"{_V}|R.ResourceGather(resource=i.handle, indices=[2], dtype=tf.int32)"),
    ("ResourceGather of a scalar", "s = tf.Variable(1.0)|R.ResourceGather(resource=s.handle, indices=[0], "
     "dtype=tf.float32)"),
    ("ResourceGather float indices", f"{_V}|R.ResourceGather(resource=i.handle, indices=[0.0], dtype=tf.int32)"),
    ("ResourceGatherNd", f"{_V}|R.ResourceGatherNd(resource=i.handle, indices=[[1, 0], [0, 1]], dtype=tf.int32)"),
    ("ResourceGatherNd out of range", f"{_V}|R.ResourceGatherNd(resource=i.handle, indices=[[5]], dtype=tf.int32)"),
    ("ResourceStridedSliceAssign", f"{_V}|[R.ResourceStridedSliceAssign(ref=d.handle, begin=[0, 1], end=[2, 3], "
     "strides=[1, 1], value=tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)), d.read_value()]"),
    ("ResourceStridedSliceAssign broadcast", f"{_V}|[R.ResourceStridedSliceAssign(ref=d.handle, begin=[0, 0], "
     "end=[1, 2], strides=[1, 1], value=tf.constant([9.0, 8.0], tf.float64)), d.read_value()]"),
    ("ResourceStridedSliceAssign shrink", f"{_V}|[R.ResourceStridedSliceAssign(ref=d.handle, begin=[1, 0], "
     "end=[2, 3], strides=[1, 2], value=tf.constant(7.0, tf.float64), shrink_axis_mask=1), d.read_value()]"),
    ("ResourceStridedSliceAssign of another dtype", f"{_V}|R.ResourceStridedSliceAssign(ref=d.handle, begin=[0], "
     "end=[1], strides=[1], value=[[1.0, 2.0, 3.0]])"),
    ("ResourceStridedSliceAssign zero stride", f"{_V}|R.ResourceStridedSliceAssign(ref=v.handle, begin=[0], end=[1], "
     "strides=[0], value=[1.0])"),
    ("ResourceScatterUpdate of a scalar", f"{_V}|[R.ResourceScatterUpdate(resource=d.handle, indices=[1], "
     "updates=tf.constant(7.0, tf.float64)), d.read_value()]"),
    ("ResourceScatter of another dtype", f"{_V}|R.ResourceScatterAdd(resource=d.handle, indices=[1], "
     "updates=[[1.0, 2.0, 3.0]])"),
    ("ResourceScatterAdd out of range", f"{_V}|R.ResourceScatterAdd(resource=v.handle, indices=[3], updates=[1.0])"),
    ("ResourceScatterAdd of another shape", f"{_V}|R.ResourceScatterAdd(resource=d.handle, indices=[0], "
     "updates=tf.constant([1.0, 2.0], tf.float64))"),
    ("ResourceScatterDiv by an int zero", f"{_V}|R.ResourceScatterDiv(resource=i.handle, indices=[0], "
     "updates=[[1, 0]])"),
    ("ResourceScatterNdUpdate", f"{_V}|[R.ResourceScatterNdUpdate(ref=i.handle, indices=[[0, 1], [1, 0]], "
     "updates=[10, 20]), i.read_value()]"),
    ("ResourceScatterNdAdd of rows", f"{_V}|[R.ResourceScatterNdAdd(ref=d.handle, indices=[[1]], "
     "updates=tf.constant([[1.0, 2.0, 3.0]], tf.float64)), d.read_value()]"),
    ("ResourceScatterNdSub out of range", f"{_V}|R.ResourceScatterNdSub(ref=i.handle, indices=[[2, 0]], updates=[1])"),
    ("ResourceScatterNdMax of another shape", f"{_V}|R.ResourceScatterNdMax(ref=i.handle, indices=[[0]], "
     "updates=[1, 2, 3])"),
    ("VarHandleOp's handle", "|T(repr(R.VarHandleOp(dtype=tf.float32, shape=[2, None], container='c', "
     "shared_name='@h')))"),
    ("VarHandleOp read before an assign", "|R.ReadVariableOp(resource=R.VarHandleOp(dtype=tf.float32, shape=[2], "
     "shared_name='@r'), dtype=tf.float32)"),
    ("VarHandleOp assign and read", "h = None|[R.VarIsInitializedOp(resource=R.VarHandleOp(dtype=tf.float32, "
     "shape=[2], shared_name='@a')), R.AssignVariableOp(resource=R.VarHandleOp(dtype=tf.float32, shape=[2], "
     "shared_name='@a'), value=[1.0, 2.0]), R.AssignAddVariableOp(resource=R.VarHandleOp(dtype=tf.float32, "
     "shape=[2], shared_name='@a'), value=[1.0, 1.0]), R.ReadVariableOp(resource=R.VarHandleOp(dtype=tf.float32, "
     "shape=[2], shared_name='@a'), dtype=tf.float32), R.VariableShape(input=R.VarHandleOp(dtype=tf.float32, "
     "shape=[2], shared_name='@a')), R.VarIsInitializedOp(resource=R.VarHandleOp(dtype=tf.float32, shape=[2], "
     "shared_name='@a'))]"),
    ("VarHandleOp assign of another dtype, read", "h = None|[R.AssignVariableOp(resource=R.VarHandleOp(dtype=tf.float32,"
     " shape=[2], shared_name='@i'), value=[1, 2]), R.ReadVariableOp(resource=R.VarHandleOp(dtype=tf.int32, "
     "shape=[2], shared_name='@i'), dtype=tf.int32)]"),
    ("AssignAddVariableOp of a missing variable", "|R.AssignAddVariableOp(resource=R.VarHandleOp(dtype=tf.float32, "
     "shape=[1], shared_name='@m'), value=[1.0])"),
    ("VariableShape of a missing variable", "|R.VariableShape(input=R.VarHandleOp(dtype=tf.float32, shape=[1], "
     "shared_name='@s'))"),
    ("DestroyResourceOp", "h = None|[R.AssignVariableOp(resource=R.VarHandleOp(dtype=tf.float32, shape=[], "
     "shared_name='@d'), value=1.0), R.DestroyResourceOp(resource=R.VarHandleOp(dtype=tf.float32, shape=[], "
     "shared_name='@d')), R.VarIsInitializedOp(resource=R.VarHandleOp(dtype=tf.float32, shape=[], "
     "shared_name='@d'))]"),
    ("DestroyResourceOp of a missing variable", "|R.DestroyResourceOp(resource=R.VarHandleOp(dtype=tf.float32, "
     "shape=[], container='nowhere', shared_name='@x'), ignore_lookup_error=False)"),
    ("DestroyResourceOp of a variable's handle", "v = tf.Variable(2.0)|[R.DestroyResourceOp(resource=v.handle), "
     "R.ReadVariableOp(resource=v.handle, dtype=tf.float32), R.VarIsInitializedOp(resource=v.handle)]"),
]

# (a graph's VarHandleOp prints as a graph tensor, which simdist's does not; separate VarHandleOp nodes of one
# shared_name are separate resources to automatic control dependencies, so TF 2.21 runs their ops in no fixed order)
_EAGER_ONLY = {"VarHandleOp's handle", "VarHandleOp assign and read", "DestroyResourceOp"}

# --- gradients ------------------------------------------------------------------------------------------------------


def _taped(expr: str, watch: bool, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
        fn = eval(f"lambda v: {expr}", {"tf": tf, "R": tf.raw_ops})  # noqa: S307 - our own text
        with tf.GradientTape() as tape:
            if watch:
                tape.watch(v)
            y = (tf.function(fn, autograph=False) if traced else fn)(v)
        g = tape.gradient(y, v)
        if g is None:
            return [y, "no gradient"]
        if hasattr(g, "indices"):
            return [y, g.values, g.indices, g.dense_shape]
        return [y, g]
    return run


_TAPES = [
    ("ReadVariableOp", "tf.reduce_sum(R.ReadVariableOp(resource=v.handle, dtype=tf.float32) * 2.0)"),
    ("ResourceGather", "tf.reduce_sum(R.ResourceGather(resource=v.handle, indices=[1, 1], dtype=tf.float32))"),
]
_TAPE_CASES = [(f"{label} under a tape{' watching v' if watch else ''}{' in a tf.function' if traced else ''}", _RH,
                _taped(expr, watch, traced))
               for label, expr in _TAPES for watch in (False, True) for traced in (False, True)]

# --- the training kernels -------------------------------------------------------------------------------------------
_SC = {"alpha": 0.3, "lr": 0.1, "momentum": 0.9, "beta1_power": 0.81, "beta2_power": 0.998, "beta1": 0.9,
       "beta2": 0.999, "epsilon": 1e-7, "rho": 0.95, "l1": 0.01, "l2": 0.02, "l2_shrinkage": 0.05, "lr_power": -0.5,
       "logbase": 0.7, "sign_decay": 0.9, "beta": 0.9}
_TRAIN = {
    "ResourceApplyGradientDescent": (["var"], "delta", ["alpha"]),
    "ResourceApplyMomentum": (["var", "accum"], "grad", ["lr", "momentum"]),
    "ResourceApplyKerasMomentum": (["var", "accum"], "grad", ["lr", "momentum"]),
    "ResourceApplyAdam": (["var", "m", "v"], "grad", ["beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"]),
    "ResourceApplyAdamWithAmsgrad": (["var", "m", "v", "vhat"], "grad",
                                     ["beta1_power", "beta2_power", "lr", "beta1", "beta2", "epsilon"]),
    "ResourceApplyAdaMax": (["var", "m", "v"], "grad", ["beta1_power", "lr", "beta1", "beta2", "epsilon"]),
    "ResourceApplyAdagrad": (["var", "accum"], "grad", ["lr"]),
    "ResourceApplyAdagradV2": (["var", "accum"], "grad", ["lr", "epsilon"]),
    "ResourceApplyRMSProp": (["var", "ms", "mom"], "grad", ["lr", "rho", "momentum", "epsilon"]),
    "ResourceApplyCenteredRMSProp": (["var", "mg", "ms", "mom"], "grad", ["lr", "rho", "momentum", "epsilon"]),
    "ResourceApplyAdadelta": (["var", "accum", "accum_update"], "grad", ["lr", "rho", "epsilon"]),
    "ResourceApplyFtrl": (["var", "accum", "linear"], "grad", ["lr", "l1", "l2", "lr_power"]),
    "ResourceApplyFtrlV2": (["var", "accum", "linear"], "grad", ["lr", "l1", "l2", "l2_shrinkage", "lr_power"]),
    "ResourceApplyProximalGradientDescent": (["var"], "delta", ["alpha", "l1", "l2"]),
    "ResourceApplyProximalAdagrad": (["var", "accum"], "grad", ["lr", "l1", "l2"]),
    "ResourceApplyAddSign": (["var", "m"], "grad", ["lr", "alpha", "sign_decay", "beta"]),
    "ResourceApplyPowerSign": (["var", "m"], "grad", ["lr", "logbase", "sign_decay", "beta"]),
    "ResourceApplyAdagradDA": (["var", "gradient_accumulator", "gradient_squared_accumulator"], "grad",
                               ["lr", "l1", "l2"]),
}
_VARIANTS = {
    "ResourceApplyMomentum": [{"use_nesterov": True}], "ResourceApplyKerasMomentum": [{"use_nesterov": True}],
    "ResourceApplyAdam": [{"use_nesterov": True}], "ResourceApplyAdagrad": [{"update_slots": False}],
    "ResourceApplyFtrl": [{"multiply_linear_by_lr": True}, {"lr_power": -0.7}],
    "ResourceApplyFtrlV2": [{"multiply_linear_by_lr": True}, {"lr_power": -0.7}],
    "ResourceApplyProximalGradientDescent": [{"l1": 0.0}], "ResourceApplyProximalAdagrad": [{"l1": 0.0}],
    "ResourceApplyAdagradDA": [{"l1": 0.0}],
}
_FLAGS = ("use_nesterov", "update_slots", "multiply_linear_by_lr")


def _training(op: str, dt: str, n: int, extra: dict, traced: bool) -> Callable[[Any], Any]:
    handles, grad, scalars = _TRAIN[op]

    def run(tf: Any) -> Any:
        rng = np.random.RandomState(n * 7 + len(op))
        vs = [tf.Variable(tf.cast(tf.constant(rng.uniform(-2, 2, n) if h == "var" else rng.uniform(0.1, 2.0, n)),
                                  getattr(tf, dt))) for h in handles]
        g = tf.cast(tf.constant(rng.uniform(-1, 1, n)), getattr(tf, dt))
        kw: dict[str, Any] = {h: v.handle for h, v in zip(handles, vs)}
        kw[grad] = g
        for k in scalars:
            kw[k] = tf.cast(tf.constant(extra.get(k, _SC[k])), getattr(tf, dt))
        if op == "ResourceApplyAdagradDA":
            kw["global_step"] = tf.constant(3, tf.int64)
        kw.update({k: v for k, v in extra.items() if k in _FLAGS})
        if traced:   # (the op's result, a graph Operation, cannot be returned)
            tf.function(lambda: [getattr(tf.raw_ops, op)(**kw), tf.constant(0)][1], autograph=False)()
            out = "op"
        else:
            out = getattr(tf.raw_ops, op)(**kw)
            out = "none" if out is None else out
        return [out] + [v.read_value() for v in vs]
    return run


def _vectorized(op: str, extra: dict) -> bool:
    """Whether Eigen's vectorized rsqrt or pow (not libm's bits) reaches the result on a 16-element variable."""
    return op in ("ResourceApplyAdagrad", "ResourceApplyAdadelta", "ResourceApplyProximalAdagrad") or \
        extra.get("lr_power", -0.5) != -0.5


_TRAIN_CASES: list[tuple] = []
for _op in _TRAIN:
    for _extra in [{}] + _VARIANTS.get(_op, []):
        for _dt in ("float32", "float64", "float16", "bfloat16"):
            _TRAIN_CASES.append((f"{_op} {_extra or ''} {_dt}[3]", _TK, _training(_op, _dt, 3, _extra, False)))
        _TRAIN_CASES.append((f"{_op} {_extra or ''} float32[3] in a tf.function", _TK,
                             _training(_op, "float32", 3, _extra, True)))
        _tol = 1e-5 if _vectorized(_op, _extra) else 0.0
        _TRAIN_CASES.append((f"{_op} {_extra or ''} float32[16]", _TK, _training(_op, "float32", 16, _extra, False),
                             _tol))

_H = "a = tf.Variable(tf.ones([3, 2])); b = tf.Variable(tf.ones([3, 2])); c = tf.Variable(tf.ones([3, 3]))"
_TRAIN_ERRORS = [
    ("ResourceApplyGradientDescent alpha not a scalar", f"{_H}|R.ResourceApplyGradientDescent(var=a.handle, "
     "alpha=[0.5], delta=tf.ones([3, 2]))"),
    ("ResourceApplyGradientDescent delta of another shape", f"{_H}|R.ResourceApplyGradientDescent(var=a.handle, "
     "alpha=0.5, delta=tf.ones([2]))"),
    ("ResourceApplyGradientDescent of an int variable", "i = tf.Variable([1, 2])|R.ResourceApplyGradientDescent("
     "var=i.handle, alpha=1, delta=[1, 2])"),
    ("ResourceApplyGradientDescent of a missing variable", "|R.ResourceApplyGradientDescent(var=R.VarHandleOp("
     "dtype=tf.float32, shape=[2], shared_name='@g'), alpha=0.5, delta=[1.0, 1.0])"),
    ("ResourceApplyMomentum accum of another shape", f"{_H}|R.ResourceApplyMomentum(var=a.handle, accum=c.handle, "
     "lr=0.1, grad=tf.ones([3, 2]), momentum=0.9)"),
    ("ResourceApplyRMSProp lr not a scalar", f"{_H}|R.ResourceApplyRMSProp(var=a.handle, ms=b.handle, mom=b.handle, "
     "lr=[0.1], rho=0.9, momentum=0.9, epsilon=1e-7, grad=tf.ones([3, 2]))"),
    ("ResourceApplyFtrl shapes before scalars", f"{_H}|R.ResourceApplyFtrl(var=a.handle, accum=c.handle, "
     "linear=b.handle, grad=tf.ones([3, 2]), lr=[0.1], l1=0.0, l2=0.0, lr_power=-0.5)"),
    ("ResourceApplyProximalAdagrad lr zero", f"{_H}|R.ResourceApplyProximalAdagrad(var=a.handle, accum=b.handle, "
     "lr=0.0, l1=0.0, l2=0.0, grad=tf.ones([3, 2]))"),
    ("ResourceApplyProximalAdagrad l1 negative", f"{_H}|R.ResourceApplyProximalAdagrad(var=a.handle, accum=b.handle, "
     "lr=0.1, l1=-0.1, l2=0.0, grad=tf.ones([3, 2]))"),
    ("ResourceApplyAdagradDA global_step not a scalar", f"{_H}|R.ResourceApplyAdagradDA(var=a.handle, "
     "gradient_accumulator=b.handle, gradient_squared_accumulator=b.handle, grad=tf.ones([3, 2]), lr=0.1, l1=0.0, "
     "l2=0.0, global_step=tf.constant([1], tf.int64))"),
    ("ResourceApplyAdam epsilon not a scalar", f"{_H}|R.ResourceApplyAdam(var=a.handle, m=b.handle, v=b.handle, "
     "beta1_power=0.5, beta2_power=0.5, lr=0.1, beta1=0.9, beta2=0.99, epsilon=[1e-7], grad=tf.ones([3, 2]))"),
]

CASES: list[tuple] = (
    [c for label, body in _DTYPES for c in _both(label, _RH, body, traced_too=False)]
    + [c for label, body in _HANDLES for c in _both(label, _RH, body)]
    + [(label, _RH, _program(body, "eagerly" not in label)) for label, body in _HANDLES_TRACED]
    + [("v.handle returned by a tf.function", _RH, _returned_handle)]
    + [c for label, body in _OPS for c in _both(label, _RH, body, label not in _EAGER_ONLY)]
    + _TAPE_CASES
    + _TRAIN_CASES
    + [c for label, body in _TRAIN_ERRORS for c in _both(label, _TK, body)]
)


def _agree(case: tuple) -> Any:
    return edge_compare.within(case[3]) if len(case) > 3 else edge_compare.bits_agree


EDGES = edge_compare.EdgeModule(__file__, CASES, agree=_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.resource-handles")
@EDGES.parametrize("ops.resource-handles")
def test_resource_handles_and_variable_ops(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("ops.training-kernels")
@EDGES.parametrize("ops.training-kernels")
def test_training_kernels(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_res40_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
