"""Resource handles and the raw ops over them in the suite (issue 29, res40): a variable's handle and the
resource-variable raw ops (clause ops.resource-handles) and the dense training kernels (clause
ops.training-kernels), each on fixed inputs (multiples of 1/8 and 1/4, and learning rates of one bit, so the
answers hold on any host) and with a refused input, observed as values or the error class. The same programs run
on the backend under test and, by ``python -m simdist.conformance.suite.res40_record``, on TF 2.21, whose answers are
the expected ones. Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np


def _grid(n: int, seed: int) -> np.ndarray:
    """Fixed float32 values in [-1, 1) that are multiples of 1/8."""
    return (((np.arange(n) * 5 + seed * 3) % 16 - 8) / 8.0).astype(np.float32)


def _handle(tf: Any) -> Any:
    v = tf.Variable(_grid(3, 1))
    h = v.handle
    return [h.dtype.name, str(h.shape), tf.resource.as_datatype_enum, tf.resource.is_numpy_compatible]


def _read_assign(tf: Any) -> Any:
    v = tf.Variable(_grid(4, 2))
    tf.raw_ops.AssignAddVariableOp(resource=v.handle, value=_grid(4, 3))
    tf.raw_ops.ResourceScatterUpdate(resource=v.handle, indices=[1], updates=np.float32([0.5]))
    return [tf.raw_ops.ReadVariableOp(resource=v.handle, dtype=tf.float32),
            tf.raw_ops.ResourceGather(resource=v.handle, indices=[3, 0], dtype=tf.float32),
            tf.raw_ops.VariableShape(input=v.handle)]


def _read_wrong_dtype(tf: Any) -> Any:
    return tf.raw_ops.ReadVariableOp(resource=tf.Variable(_grid(2, 1)).handle, dtype=tf.int32)


def _var_handle_op(tf: Any) -> Any:
    h = tf.raw_ops.VarHandleOp(dtype=tf.float32, shape=[2], shared_name="suite_res40")
    tf.raw_ops.AssignVariableOp(resource=h, value=_grid(2, 4))
    return [tf.raw_ops.VarIsInitializedOp(resource=h), tf.raw_ops.ReadVariableOp(resource=h, dtype=tf.float32)]


def _apply(tf: Any, op: str, slots: tuple[str, ...], **scalars: Any) -> Any:
    vs = [tf.Variable(_grid(5, 5)) for _ in ("var",) + slots]
    for v in vs[1:]:
        v.assign(np.abs(_grid(5, 6)) + np.float32(0.25))
    getattr(tf.raw_ops, op)(**{n: v.handle for n, v in zip(("var",) + slots, vs)}, grad=_grid(5, 7),
                            **{k: np.float32(x) for k, x in scalars.items()})
    return [v.read_value() for v in vs]


def _gd(tf: Any, delta: Any = None) -> Any:
    v = tf.Variable(_grid(3, 1))
    tf.raw_ops.ResourceApplyGradientDescent(var=v.handle, alpha=np.float32(0.5),
                                            delta=_grid(3, 2) if delta is None else delta)
    return v.read_value()


CASES: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("a variable's handle", "ops.resource-handles", _handle),
    ("handle numpy refused", "ops.resource-handles", lambda tf: tf.Variable(1.0).handle.numpy()),
    ("AssignAdd, ScatterUpdate, Read, Gather, VariableShape", "ops.resource-handles", _read_assign),
    ("ReadVariableOp of another dtype", "ops.resource-handles", _read_wrong_dtype),
    ("VarHandleOp assigned and read", "ops.resource-handles", _var_handle_op),
    ("ResourceApplyGradientDescent", "ops.training-kernels", lambda tf: _gd(tf)),
    ("ResourceApplyGradientDescent delta refused", "ops.training-kernels", lambda tf: _gd(tf, _grid(2, 2))),
    ("ResourceApplyMomentum nesterov", "ops.training-kernels", lambda tf: _momentum(tf)),
    ("ResourceApplyAdagradV2", "ops.training-kernels",
     lambda tf: _apply(tf, "ResourceApplyAdagradV2", ("accum",), lr=0.125, epsilon=0.25)),
    ("ResourceApplyRMSProp", "ops.training-kernels",
     lambda tf: _apply(tf, "ResourceApplyRMSProp", ("ms", "mom"), lr=0.125, rho=0.5, momentum=0.5, epsilon=0.25)),
    ("ResourceApplyAdam", "ops.training-kernels",
     lambda tf: _apply(tf, "ResourceApplyAdam", ("m", "v"), beta1_power=0.5, beta2_power=0.25, lr=0.125, beta1=0.5,
                       beta2=0.75, epsilon=0.25)),
]


def _momentum(tf: Any) -> Any:
    v, a = tf.Variable(_grid(4, 1)), tf.Variable(_grid(4, 2))
    tf.raw_ops.ResourceApplyMomentum(var=v.handle, accum=a.handle, lr=np.float32(0.125), grad=_grid(4, 3),
                                     momentum=np.float32(0.5), use_nesterov=True)
    return [v.read_value(), a.read_value()]


def observe(tf: Any, name: str) -> Any:
    """Case `name` run: each output's shape, dtype and values (a Python value as itself), or the error class."""
    fn = dict((n, f) for n, _, f in CASES)[name]
    try:
        out = fn(tf)
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"error": type(e).__name__}
    res: list[Any] = []
    for t in (out if isinstance(out, (tuple, list)) else [out]):
        if isinstance(t, (str, int, bool)):
            res.append({"value": t})
            continue
        a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
        res.append({"shape": list(a.shape), "dtype": a.dtype.name, "values": a.astype(np.float64).ravel().tolist()})
    return {"out": res}
