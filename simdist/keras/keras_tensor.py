"""Symbolic tensors and the graph of layer calls (keras/src/backend/common/keras_tensor.py,
ops/node.py): what `keras.Input` returns and what calling a layer on one returns.

A `KerasTensor` records a shape (a tuple, None for unknown dimensions), a dtype and where it came
from (`_keras_history`: the operation, which of its calls (`node_index`) and which output).
Calling a layer on KerasTensors builds the layer, infers the output specs and adds a `Node` to
the layer's `_inbound_nodes`; a functional model walks these nodes.

Output specs: a layer with `compute_output_shape` gives them directly; otherwise simdist runs
the layer's `call` on zero-valued tensors in which every unknown dimension is given two different
sizes, one after the other, and an output dimension that changes between the two runs is unknown
(Keras traces the call symbolically in a scratch TF graph instead: the probes run as that trace, the call's
Python meeting graph tensors and None for unknown dimensions, runtime/scratch_trace.py, clause
keras.reg.scratch-graph-trace; an output dimension the graph does not know is None too). As in
Keras's `backend.compute_output_spec`, the probes run in a StatelessScope: their variable writes
(a SeedGenerator's counter, a layer's statistics) are dropped, and they write no tf.summary
(TF's scratch graph never runs).
"""

from __future__ import annotations

import collections
from typing import Any, Callable

from simdist import tf
from simdist.keras import dtype_policies as dtypes
from simdist.keras.naming import auto_name
from simdist.keras.scratch_graph import scratch_graph

__all__ = ["KerasTensor", "KerasHistory", "Node", "any_symbolic_tensors", "is_keras_tensor", "compute_output_spec",
           "flatten", "map_structure", "pack_sequence_as"]

flatten = tf.nest.flatten
map_structure = tf.nest.map_structure
pack_sequence_as = tf.nest.pack_sequence_as

_PROBE_SIZES = (2, 3)

# (Keras 3.15's texts, keras/src/backend/common/keras_tensor.py, "an a dtype" included)
_SYMBOLIC = ("A KerasTensor is symbolic: it's a placeholder for a shape an a dtype. It doesn't have any actual "
             "numerical value. ")
_TF_FUNCTION_REFUSAL = (
    "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a symbolic placeholder for a "
    "shape and dtype, used when constructing Keras Functional models or Keras Functions. You can only use it as input "
    "to a Keras layer or a Keras operation (from the namespaces `keras.layers` and `keras.ops`). You are likely doing "
    "something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n```\n\nWhat you should do instead is wrap "
    "`tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n    def call(self, x):\n        return tf_fn(x)\n\n"
    "x = MyLayer()(x)\n```\n")


class KerasHistory(collections.namedtuple("KerasHistory", ["operation", "node_index", "tensor_index"])):
    __slots__ = ()


class KerasTensor:
    """A symbolic tensor: `shape` (tuple with None), `dtype` (string), `name`."""

    _keras_symbolic = True

    def __init__(self, shape: Any, dtype: Any = "float32", sparse: bool = False, ragged: bool = False,
                 record_history: bool = True, name: str | None = None) -> None:
        from simdist.keras.variables import standardize_shape
        self._shape = standardize_shape(shape)
        self._dtype = dtypes.standardize_dtype(dtype)
        self._sparse = bool(sparse)
        self._ragged = bool(ragged)
        self.name = name or auto_name(type(self).__name__)
        self.record_history = record_history

    @property
    def shape(self) -> tuple:
        return self._shape

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def sparse(self) -> bool:
        return self._sparse

    @property
    def ragged(self) -> bool:
        return self._ragged

    @property
    def ndim(self) -> int:
        return len(self._shape)

    def _cast(self, dtype: str) -> "KerasTensor":
        from simdist.keras.layers.op_layer import symbolic_op
        return symbolic_op("cast", lambda x: tf.cast(x, dtype), self)

    def __array__(self, *args: Any, **kwargs: Any) -> Any:
        raise ValueError(_SYMBOLIC + "You cannot convert it to a NumPy array.")

    def __bool__(self) -> bool:
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __iter__(self) -> Any:
        raise NotImplementedError("Iterating over a symbolic KerasTensor is not supported.")

    # (no __len__, as Keras's: len() is Python's TypeError "object of type 'KerasTensor' has no len()", and
    # `hasattr(t, "__len__")` is False, which ops.slice's spec reads to accept tensor start indices: cov48)

    def __int__(self) -> int:
        raise ValueError(_SYMBOLIC + "You cannot convert it to an int.")

    def __float__(self) -> float:
        raise ValueError(_SYMBOLIC + "You cannot convert it to a float.")

    def __tf_tensor__(self, dtype: Any = None, name: Any = None) -> Any:
        """TF's conversion protocol: Keras's refusal (a tf op or tf.convert_to_tensor on a KerasTensor; cov48)."""
        raise ValueError(_TF_FUNCTION_REFUSAL)

    # (Keras 3.15's KerasTensor maps every operator to its keras.ops function (ops.Add().symbolic_call(...) and so
    # on): +, -, *, /, @, **, unary -, abs, //, %, the comparisons (not ==), &, |, ^, ~, [] and round(); their
    # symbolic specs are those ops' compute_output_spec and a functional model runs those ops: `x * np.float64(2)` of
    # a float16 x is float64 (a NumPy scalar is not weakly typed), `x * 2.0` is flagged sparse as Keras's Multiply
    # spec flags it (getattr(2.0, "sparse", True)); cov48: +, -, *, /, @, ** and [] had their own TF-op forms)
    def _keras_op(fname: str, reverse: bool = False) -> Callable[..., Any]:  # noqa: N805
        def method(self: "KerasTensor", *other: Any) -> Any:
            from simdist.keras import ops
            fn = getattr(ops, fname)
            if not other:
                return fn(self)
            return fn(other[0], self) if reverse else fn(self, other[0])
        return method

    __add__ = _keras_op("add")
    __radd__ = _keras_op("add", reverse=True)
    __sub__ = _keras_op("subtract")
    __rsub__ = _keras_op("subtract", reverse=True)
    __mul__ = _keras_op("multiply")
    __rmul__ = _keras_op("multiply", reverse=True)
    __truediv__ = _keras_op("true_divide")
    __rtruediv__ = _keras_op("true_divide", reverse=True)
    __matmul__ = _keras_op("matmul")
    __rmatmul__ = _keras_op("matmul", reverse=True)
    __pow__ = _keras_op("power")
    __neg__ = _keras_op("negative")
    __abs__ = _keras_op("absolute")
    __rpow__ = _keras_op("power", reverse=True)
    __floordiv__ = _keras_op("floor_divide")
    __rfloordiv__ = _keras_op("floor_divide", reverse=True)
    __mod__ = _keras_op("mod")
    __rmod__ = _keras_op("mod", reverse=True)
    __lt__ = _keras_op("less")
    __le__ = _keras_op("less_equal")
    __gt__ = _keras_op("greater")
    __ge__ = _keras_op("greater_equal")
    __ne__ = _keras_op("not_equal")  # type: ignore[assignment]
    __and__ = _keras_op("logical_and")
    __rand__ = _keras_op("logical_and", reverse=True)
    __or__ = _keras_op("logical_or")
    __ror__ = _keras_op("logical_or", reverse=True)
    __xor__ = _keras_op("logical_xor")
    __rxor__ = _keras_op("logical_xor", reverse=True)
    __invert__ = _keras_op("logical_not")
    del _keras_op

    def __round__(self, ndigits: int | None = None) -> Any:
        from simdist.keras import ops
        return ops.round(self, decimals=ndigits or 0)

    def __getitem__(self, key: Any) -> Any:
        from simdist.keras import ops
        return ops.get_item(self, key)

    def reshape(self, newshape: Any) -> Any:
        """Keras's KerasTensor.reshape: ops.reshape (cov48)."""
        from simdist.keras import ops
        return ops.reshape(self, newshape)

    def squeeze(self, axis: Any = None) -> Any:
        """Keras's KerasTensor.squeeze: ops.squeeze (cov48)."""
        from simdist.keras import ops
        return ops.squeeze(self, axis)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return (f"<KerasTensor shape={self._shape}, dtype={self._dtype}, sparse={self._sparse}, "
                f"ragged={self._ragged}, name={self.name}>")


def is_keras_tensor(x: Any) -> bool:
    return isinstance(x, KerasTensor)


def any_symbolic_tensors(args: Any = None, kwargs: Any = None) -> bool:
    return any(isinstance(x, KerasTensor) for x in flatten((args or (), kwargs or {})))


class Node:
    """One call of an operation on symbolic arguments: its inputs, outputs and parents."""

    def __init__(self, operation: Any, call_args: Any = (), call_kwargs: Any = None, outputs: Any = None) -> None:
        self.operation = operation
        self.call_args = tuple(call_args or ())
        self.call_kwargs = dict(call_kwargs or {})
        self.outputs = [] if outputs is None else flatten(outputs)
        for x in self.outputs:
            if not isinstance(x, KerasTensor):
                raise ValueError(f"All operation outputs must be tensors. Operation {operation} returned a non-tensor. "
                                 f"Non-tensor received: {x}")
        self.input_tensors = [x for x in flatten((self.call_args, self.call_kwargs)) if isinstance(x, KerasTensor)]
        zero_history = any(not x.record_history for x in self.input_tensors)
        if not zero_history:
            for t in self.input_tensors:
                if not hasattr(t, "_keras_history"):
                    t._keras_history = KerasHistory(None, 0, 0)
        operation._inbound_nodes.append(self)
        for kt in self.input_tensors:
            inbound = kt._keras_history.operation if hasattr(kt, "_keras_history") else None
            if inbound is not None:
                inbound._outbound_nodes.append(self)
        if not zero_history:
            node_index = len(operation._inbound_nodes) - 1
            for i, t in enumerate(self.outputs):
                t._keras_history = KerasHistory(operation, node_index, i)
        self.is_input = not self.input_tensors

    @property
    def output_tensors(self) -> list:
        return self.outputs

    @property
    def parent_nodes(self) -> list:
        deps = []
        for kt in self.input_tensors:
            op, index = kt._keras_history.operation, kt._keras_history.node_index
            if op is not None:
                deps.append(op._inbound_nodes[index])
        return deps

    def __repr__(self) -> str:
        return f"<Node operation={self.operation.name}, id={id(self)}>"


def _probe(x: Any, size: int) -> Any:
    if isinstance(x, KerasTensor):
        shape = [size if d is None else d for d in x.shape]
        return tf.zeros(shape, dtype=x.dtype) if x.dtype != "string" else tf.fill(shape, "")
    return x


def _trace_probes(args: Any, kwargs: Any, size: int) -> tuple[Any, Any, list]:
    """The probes of (args, kwargs) for one size, each KerasTensor's an alias whose unknown dimensions the graph does
    not know (static_shapes.argument), and the list of those probes."""
    probes: list = []

    def one(x: Any) -> Any:
        if not isinstance(x, KerasTensor):
            return x
        t = tf._simdist_scratch_trace.argument(_probe(x, size), x.shape)
        probes.append(t)
        return t
    return map_structure(one, args), map_structure(one, kwargs), probes


def run_on_probe(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`fn` run once, as `compute_output_spec`'s first probe (zeros, each unknown dimension its first size, in a
    StatelessScope with summaries off), its result returned as it is: for a caller that wants the computation's
    errors and not its output spec (trainer.py `_symbolic_compute_loss`: one run, half compute_output_spec's cost)."""
    from simdist.keras.variables import StatelessScope
    a = map_structure(lambda x: _probe(x, _PROBE_SIZES[0]), args)
    k = map_structure(lambda x: _probe(x, _PROBE_SIZES[0]), kwargs)
    with StatelessScope(), tf.summary.record_if(False), scratch_graph():
        return fn(*a, **k)


def compute_output_spec(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """The KerasTensors `fn` returns for these symbolic arguments (by running it on zeros with
    each unknown dimension given two sizes in turn; see the module docstring)."""
    from simdist.keras.variables import StatelessScope
    runs = []
    unknowns: list = []
    # (every dimension known: one run gives the spec, as Keras's one trace; a second would repeat the call's Python
    # side effects, a print's included)
    known = all(d is not None for x in flatten((args, kwargs)) if isinstance(x, KerasTensor) for d in x.shape)
    for size in _PROBE_SIZES[:1] if known else _PROBE_SIZES:
        a, k, probes = _trace_probes(args, kwargs, size)
        # (Keras traces in a StatelessScope: no variable write, a SeedGenerator's included, persists; and in a
        # scratch graph that never runs, so a tf.summary in the call writes nothing: record_if(False) here)
        with StatelessScope(), tf.summary.record_if(False), scratch_graph(), \
                tf._simdist_scratch_trace.trace(probes):
            out = tf._simdist_scratch_trace.run(fn, a, k)
            unknowns.append([tf._simdist_scratch_trace.unknown(t) for t in flatten(out)])
        runs.append(out)
    first, second = runs if len(runs) == 2 else runs * 2
    unknowns *= 3 - len(unknowns)

    def spec(t1: Any, t2: Any, u1: Any, u2: Any) -> Any:
        if t1 is None:
            return None
        if not hasattr(t1, "shape") or not hasattr(t1, "dtype"):
            return t1
        s1 = list(tf.TensorShape(t1.shape).as_list())
        s2 = list(tf.TensorShape(t2.shape).as_list())
        shape = tuple(a if a == b else None for a, b in zip(s1, s2)) if len(s1) == len(s2) else None
        if shape is None:
            raise ValueError(f"The output rank of {fn} depends on the input's unknown dimensions: {s1} vs {s2}")
        # (a dimension the graph does not know in either run: a data-dependent one, boolean_mask's, unique's)
        flags = [bool((u1 and i < len(u1) and u1[i]) or (u2 and i < len(u2) and u2[i])) for i in range(len(shape))]
        shape = tuple(None if f else d for d, f in zip(shape, flags))
        return KerasTensor(shape, dtype=dtypes.standardize_dtype(t1.dtype))

    return pack_sequence_as(first, [spec(a, b, u, v) for a, b, u, v in
                                    zip(flatten(first), flatten(second), unknowns[0], unknowns[1])])
