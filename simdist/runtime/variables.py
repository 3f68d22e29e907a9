"""Variables: `tf.Variable` dispatches creation to the current strategy, like TF's creator scopes."""

from __future__ import annotations

import contextlib
import enum
import itertools
import sys
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from simdist.runtime import context, dtypes, execution
from simdist.runtime import subnormals as _subnormals
from simdist.runtime import symbolic as _symbolic
from simdist.runtime import variable_creation as _creation
from simdist.runtime.ops import dispatch as _dispatch
from simdist.runtime.tensor import Tensor, TensorShape, _Traced, convert_to_tensor, eager_undefined
from simdist.runtime.variable_inplace import InPlaceRefusals


class VariableAggregationV2(enum.Enum):
    """`tf.VariableAggregation` (TF 2.21's class is VariableAggregationV2: `str` of a member is
    "VariableAggregationV2.MEAN"). Equal to the v1 enum's member of the same value."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3

    def __hash__(self) -> int:
        return hash(self.value)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, VariableAggregationV1):
            return int(self.value) == int(other.value)
        return False


class VariableAggregationV1(enum.Enum):
    """`tf.compat.v1.VariableAggregation`, TF's class named VariableAggregation: what a variable
    created without an aggregation reports (`v.aggregation` is "VariableAggregation.NONE"; an
    explicit one keeps the V2 member given; fz51d). It has no __eq__ of its own: `v1 == v2`
    falls back on VariableAggregationV2.__eq__, as TF's does."""
    NONE = 0
    SUM = 1
    MEAN = 2
    ONLY_FIRST_REPLICA = 3
    ONLY_FIRST_TOWER = 3  # DEPRECATED (an alias of ONLY_FIRST_REPLICA)

    def __hash__(self) -> int:
        return hash(self.value)


VariableAggregationV1.__name__ = VariableAggregationV1.__qualname__ = "VariableAggregation"
VariableAggregation = VariableAggregationV2   # (simdist's name for tf.VariableAggregation)


class VariableSynchronization(enum.Enum):
    AUTO = 0
    NONE = 1
    ON_WRITE = 2
    ON_READ = 3


# Observers of variable traffic (the coordinator charges ps reads/writes through this).
# Each is an object with read(var) and write(var, new_value) methods; empty in plain runs.
observers: list[Any] = []

# The value each variable had before the first write of a running tf.function trace, one dict per
# nested trace (innermost last): a trace that raises is undone (clause function.trace-time-errors).
_journals: list[dict[int, tuple[Any, np.ndarray, int]]] = []


@contextlib.contextmanager
def trace_writes() -> Iterator[dict]:
    """Note the variables the enclosed trace writes; `undo_trace_writes` restores them."""
    j: dict[int, tuple[Any, np.ndarray, int]] = {}
    _journals.append(j)
    try:
        yield j
    finally:
        _journals.pop()
        if _journals:   # (a trace that returned hands its writes to the trace around it)
            outer = _journals[-1]
            for k, entry in j.items():
                outer.setdefault(k, entry)


def undo_trace_writes(j: dict) -> None:
    """Give each variable of journal j its value from before the trace: TF's trace builds the
    writes into a graph that never runs when the trace raises."""
    for var, value, version in j.values():
        var._value = value
        var._version = version + 1
    j.clear()


class Transaction:
    """Writes made while a transaction is open are buffered (reads see them) and applied by
    `commit()`. The coordinator runs each scheduled function in one, so a function's updates
    reach the parameter servers when its simulated writes arrive, and a preempted function
    leaves no partial writes. assign_add/assign_sub commit as deltas onto the value current at
    commit time, as a parameter server applies them. The value a read inside the transaction
    sees is folded from the buffered writes only when such a read happens."""

    pinned: dict[int, np.ndarray] | None = None   # (a Reread's: reads of variables it has not written)

    def __init__(self) -> None:
        self.ops: list[tuple[Any, str, np.ndarray]] = []
        # id(var) -> [its value after the writes folded so far (None: none yet), ops folded, var],
        # in the order of the variables' first writes
        self.overlay: dict[int, list[Any]] = {}
        self.read_own = False    # whether a read saw this transaction's own writes (see Reread)

    def value(self, var: Any) -> np.ndarray | None:
        """`var` as this transaction sees it, or None when it wrote nothing to it."""
        entry = self.overlay.get(id(var))
        if entry is None:
            return None
        self.read_own = True
        arr, upto = entry[0], entry[1]
        if upto < len(self.ops):
            for v, kind, operand in self.ops[upto:]:
                if v is var:   # (an assign needs no base: it must not read a lost value)
                    arr = _updated(self._base(var) if arr is None and kind != "assign" else arr, kind, operand)
            entry[0], entry[1] = arr, len(self.ops)
        return arr

    def _base(self, var: Any) -> np.ndarray:
        return var._current()

    def commit(self) -> None:
        for var, kind, operand in self.ops:
            var._apply_op(kind, operand)
        self.ops = []
        self.overlay = {}

    def split(self, indices: tuple[int, ...]) -> list[tuple[Any, str, Any]]:
        """Take the ops numbered `indices` (ascending) out: they commit on their own, earlier
        (`apply`: a ClusterCoordinator closure's early writes, clause optim.pss-updates); the
        rest commit with `commit()`. For a transaction whose function has returned."""
        ops = self.ops
        if len(indices) == len(ops):   # (all of them)
            self.ops, taken = [], ops
        elif len(indices) == 1:
            i = indices[0]
            self.ops, taken = ops[:i] + ops[i + 1:], [ops[i]]
        else:
            taken = [ops[i] for i in indices]
            out = set(indices)
            self.ops = [op for i, op in enumerate(ops) if i not in out]
        self.overlay = {}   # (its folded values included the ops taken: nothing reads them any more)
        return taken

    def written(self) -> list[Any]:
        """The variables written, each once, in the order of their first writes."""
        return [entry[2] for entry in self.overlay.values()]

    def written_bytes(self) -> list[tuple[Any, int]]:
        """(variable, bytes sent to it) for each variable written, in the order of first writes:
        the whole variable if any write was dense, else the rows (and indices) of its scatters."""
        sizes: dict[int, int] = {}
        for var, kind, operand in self.ops:
            k = id(var)
            if sizes.get(k, 0) < 0:
                continue
            sizes[k] = sizes.get(k, 0) + scatter_bytes(operand) if kind in SCATTER_KINDS else -1
        out = []
        for entry in self.overlay.values():
            var = entry[2]
            b = sizes.get(id(var), -1)
            out.append((var, int(var.nbytes) if b < 0 else min(b, int(var.nbytes))))
        return out


class Reread(Transaction):
    """A ClusterCoordinator closure's function evaluated again where its parameter servers ran its
    reads (clause optim.pss-updates): TF runs a read of a ps variable that the function's automatic
    control dependencies order after its own write of that variable on the ps, right after that
    write, so it sees the write and every other closure's write that reached the ps before it
    (Adam's `m` read after its own `assign_add`; `v.assign_add(x); v.read_value()`). A read of a
    variable the function has not written sees the value `pinned` when the closure started; after
    its own writes, a read sees them folded onto the ps's value when they arrived: `after` (the
    value right after its early writes were applied, those ops at `early` positions not folded
    again), else the value now (its writes that commit at the closure's end, this instant)."""

    def __init__(self, pinned: dict[int, np.ndarray], after: dict[int, np.ndarray], early: frozenset[int]) -> None:
        super().__init__()
        self.pinned = pinned
        self.after = after
        self.early = early

    def value(self, var: Any) -> np.ndarray | None:
        entry = self.overlay.get(id(var))
        if entry is None:
            return None
        if entry[1] < len(self.ops):
            arr = self.after.get(id(var))
            for i, (v, kind, operand) in enumerate(self.ops):
                if v is var and i not in self.early:   # (an assign needs no base: it must not read a lost value)
                    arr = _updated(var._current() if arr is None and kind != "assign" else arr, kind, operand)
            entry[0], entry[1] = arr, len(self.ops)
        return entry[0]

    def late_ops(self) -> list[tuple[Any, str, Any]]:
        """The ops that commit now: those not applied early."""
        return [op for i, op in enumerate(self.ops) if i not in self.early]


def apply(ops: list[tuple[Any, str, Any]]) -> None:
    """Commit ops taken out of a transaction (`Transaction.split`), in order."""
    for var, kind, operand in ops:
        var._apply_op(kind, operand)


# Sparse writes: `var.<kind>(...)` applies `operand` = (indices, updates) to rows (or, for the
# scatter_nd_* kinds, to elements) of the variable; the ps applies them to its current value.
SCATTER_KINDS = frozenset(["scatter_add", "scatter_sub", "scatter_update", "scatter_mul", "scatter_div",
                           "scatter_max", "scatter_min", "scatter_nd_add", "scatter_nd_sub", "scatter_nd_update",
                           "scatter_nd_max", "scatter_nd_min"])
_SCATTER_UFUNCS = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "div": np.divide, "max": np.maximum,
                   "min": np.minimum}


_SCATTER_OPS = {k: "Resource" + "".join(w.capitalize() for w in k.split("_")) for k in SCATTER_KINDS}   # TF op names


def scatter_bytes(operand: tuple[np.ndarray, np.ndarray]) -> int:
    return int(operand[0].nbytes) + int(operand[1].nbytes)


def _scatter_into(arr: np.ndarray, kind: str, operand: tuple[np.ndarray, np.ndarray]) -> None:
    """Apply one scatter write to arr in place (repeated rows accumulate, in order, as TF's CPU kernels)."""
    idx, upd = operand
    if kind.startswith("scatter_nd_"):
        op = kind[len("scatter_nd_"):]
        key: Any = tuple(np.moveaxis(idx, -1, 0)) if idx.shape[-1] else ()
    else:
        op = kind[len("scatter_"):]
        key = idx
    if op == "update":
        arr[key] = upd
    elif op == "sub" and arr.dtype.kind == "b":
        np.not_equal.at(arr, key, upd)   # (bool a - b in TF's ScatterNd kernel: (a - b) != 0, a xor b)
    elif op == "div" and arr.dtype.kind in "iuc":
        _div_rows_at(arr, key, upd, idx.ndim - (1 if kind.startswith("scatter_nd_") else 0))
    else:
        _SCATTER_UFUNCS[op].at(arr, key, upd)


def _div_rows_at(arr: np.ndarray, key: Any, upd: np.ndarray, lead: int) -> None:
    """arr[key] /= upd as TF's scatter-div kernels divide, a row at a time in order (a repeated row divides
    again; `lead`: the index dimensions of `key`): integers as C++ divides (toward zero, -3 / 2 is -1), complex as
    Eigen's `row /= update` (complex_div.divide: packets of the row, its tail by Smith's method; vsweep66)."""
    from simdist.runtime.ops import complex_div
    target = arr[key]
    rows = np.broadcast_to(upd, target.shape).reshape((-1,) + target.shape[lead:])
    keys = (list(zip(*[np.asarray(k).reshape(-1).tolist() for k in key])) if isinstance(key, tuple)
            else np.asarray(key).reshape(-1).tolist())
    for k, b in zip(keys, rows):
        a = arr[k]
        if arr.dtype.kind == "c":
            arr[k] = complex_div.divide(np.asarray(a), np.asarray(b))
            continue
        q = np.abs(a) // np.abs(b)
        arr[k] = np.where((a < 0) != (b < 0), -q, q)


def _updated(base: np.ndarray, kind: str, operand: Any) -> np.ndarray:
    """A new array: base after one write of `kind`."""
    if kind == "assign":
        return np.array(operand, copy=True)
    if kind in SCATTER_KINDS:
        out = np.array(base, copy=True)
        _scatter_into(out, kind, operand)
        return out
    if base.dtype.kind in "bOSU":
        # (AssignAdd/AssignSubVariableOp have no bool or string kernel: only a tf.function's dry run gets here, whose
        # graph TF builds without running the op (the call fails: _update_kernel); the read after it sees the value
        # unchanged, as no kernel wrote it)
        return np.array(base, copy=True)
    if kind == "assign_add":
        return np.asarray(base + operand, dtype=base.dtype)
    return np.asarray(base - operand, dtype=base.dtype)


class _Probe:
    _value: Any = None


def _unshared_refcount() -> int:
    """sys.getrefcount of an array held only by one attribute, read as _apply_op reads it."""
    p = _Probe()
    p._value = np.zeros(1)
    v = p._value
    return sys.getrefcount(v)


_UNSHARED = _unshared_refcount()
_cur = execution._current


def transactions() -> list[Transaction]:
    """The open transactions of the current client, innermost last (the list itself)."""
    return _cur.ctx.transactions


class transaction:
    """`with transaction() as t:` buffers variable writes into t."""

    def __init__(self) -> None:
        self.t = Transaction()

    def __enter__(self) -> Transaction:
        _cur.ctx.transactions.append(self.t)
        return self.t

    def __exit__(self, *exc: object) -> None:
        _cur.ctx.transactions.remove(self.t)


def resolve_initial_value(initial_value: Any, dtype: Any = None) -> Tensor:
    """The initial value as a tensor: calls an initializer callable, casts to `dtype`."""
    if initial_value is None:
        raise ValueError("initial_value must be specified.")
    if callable(initial_value):
        initial_value = initial_value()
    if dtype is not None:
        dt = dtypes.as_dtype(dtype)
        if isinstance(initial_value, Tensor) and initial_value.dtype != dt:
            raise ValueError(f"Tensor conversion requested dtype {dt.name} for Tensor with dtype "
                             f"{initial_value.dtype.name}: {initial_value!r}")
        return convert_to_tensor(initial_value, dtype=dt)
    return convert_to_tensor(initial_value)


def _create_through_strategy(**kwargs: Any) -> Any:
    return context.get_strategy().extended._create_variable(**kwargs)


def _creator_defaults() -> dict[str, Any]:
    """The arguments `tf.Variable` hands the creators of `tf.variable_creator_scope`, as TF 2.21's
    VariableMetaclass._variable_v2_call passes them (every one, defaults filled; observed)."""
    return {"initial_value": None, "trainable": None, "validate_shape": True, "caching_device": None, "name": None,
            "variable_def": None, "dtype": None, "import_scope": None, "constraint": None,
            "synchronization": VariableSynchronization.AUTO, "aggregation": VariableAggregationV1.NONE, "shape": None,
            "experimental_enable_variable_lifting": None}


def _default_creator(**kwargs: Any) -> Any:
    """The innermost `next_creator`: the strategy's creation (TF's default_variable_creator_v2 under the
    strategy's own creator), given the arguments that differ from tf.Variable's defaults; one it does not
    know is ignored, as TF's reads only its own from **kwargs."""
    defaults = _creator_defaults()
    kw = {k: v for k, v in kwargs.items() if k in defaults and not (v is defaults[k] or
                                                                     (k == "validate_shape" and v is True))}
    return _create_through_strategy(**kw)


def _chain(creator: Any, previous: Any) -> Any:
    return lambda **kwargs: creator(previous, **kwargs)


class _VariableMeta(type):
    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is Variable:
            kw = _bind_args(args, kwargs)
            chain = context.creators()
            if not chain:
                return _create_through_strategy(**kw)
            getter = _default_creator   # the innermost scope's creator is called first (TF's _make_getter)
            for creator in chain:
                getter = _chain(creator, getter)
            return getter(**{**_creator_defaults(), **kw})
        return super().__call__(*args, **kwargs)


class Variable(metaclass=_VariableMeta):
    """`tf.Variable`: constructing one asks the current strategy to create it (plain, mirrored,
    aggregating or partitioned), so the same program places variables as TF does."""
    _simdist_trackable = True   # a TF Trackable: tf.train.Checkpoint takes it (runtime/trackable.py)

    # as TF's BaseResourceVariable: a NumPy scalar or array on the left of an operator defers to
    # the variable's reflected operator (`np.float32(0) >= v` is a Tensor, not an ndarray)
    __array_priority__ = 100

    # Subclasses implement these -------------------------------------------------------
    def _as_tensor(self) -> Tensor:
        raise NotImplementedError

    def _assign_np(self, arr: np.ndarray) -> None:
        raise NotImplementedError

    # Shared read API ------------------------------------------------------------------
    def value(self) -> Tensor:
        return self._as_tensor()

    def read_value(self) -> Tensor:
        """ReadVariableOp then an Identity (TF's read_value): the tape records the read of a watched
        variable of any dtype but not an Identity of integers, so the gradient of an integer
        variable's read_value() is zeros where its convert_to_tensor's is ones (fuzz2 seed 41 #145).
        Only non-trainable dtypes take the Identity (for floats it passes the gradient through)."""
        from simdist.runtime import graph_names
        if graph_names.current() is not None:   # (inside a tf.function: TF's nodes `Read/ReadVariableOp` and
            # `Identity`, whose names order an AddN's inputs and show as `.name`; fz53)
            from simdist.runtime import name_scopes
            from simdist.runtime.ops import array
            with name_scopes.name_scope("Read"):
                t = self._as_tensor()
            return array.identity(t)
        t = self._as_tensor()
        if (t.dtype.is_floating or t.dtype.is_complex) and not _read_elsewhere(t):
            return t
        from simdist.runtime.ops import array
        return array.identity(t)   # (TF's Identity runs under the caller's device scope: dsweep55)

    def numpy(self) -> Any:
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("numpy")
        return self._as_tensor().numpy()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("array")
        arr = np.array(self._as_tensor()._v)   # (TF: np.asarray(self.numpy(), dtype), a copy)
        return arr if dtype is None else arr.astype(dtype)

    def get_shape(self) -> TensorShape:
        return self.shape

    # TF 2.x's eager answers of the graph-era API (BaseResourceVariable, resource_variable_ops.py) ------
    @property
    def constraint(self) -> Any:
        """The `constraint` the variable was made with (None by default); TF applies none itself."""
        return getattr(self, "_constraint", None)

    @property
    def initial_value(self) -> Any:
        raise RuntimeError("This property is not supported when eager execution is enabled.")

    def initialized_value(self) -> Any:
        raise NotImplementedError()   # (TF's eager BaseResourceVariable: the bare NotImplementedError)

    def is_initialized(self, name: Any = None) -> Tensor:
        from simdist.runtime.ops.array import constant
        return constant(True)

    def read_value_no_copy(self) -> Tensor:
        return self._as_tensor()

    def set_shape(self, shape: Any) -> None:
        """The variable's static shape merged with `shape` (TF's BaseResourceVariable.set_shape: a variable made
        with shape [None] or TensorShape(None) takes the known dimensions), else TF's ValueError."""
        other = TensorShape(shape)
        if not self.shape.is_compatible_with(other):
            raise ValueError(f"Shapes {self.shape} and {other} are not compatible")
        if hasattr(self, "_shape"):
            self._shape = self._shape.merge_with(other)

    def gather_nd(self, indices: Any, name: Any = None) -> Tensor:
        from simdist.runtime.ops.scatter import gather_nd
        return gather_nd(self._as_tensor(), indices)

    def load(self, value: Any, session: Any = None) -> None:
        """TF's deprecated `load`: an assign that returns None."""
        self.assign(value)

    op = eager_undefined("op")
    graph = eager_undefined("graph")

    @property
    def initializer(self) -> None:
        return None   # (eager: no initializer op)

    def eval(self, session: Any = None) -> Any:
        raise RuntimeError("This operation is not supported when eager execution is enabled.")

    def __complex__(self) -> complex:
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("complex")
        return complex(self._as_tensor())

    def __copy__(self) -> "Variable":
        return self   # (TF's copy.copy of a variable is the variable)

    # Operators read the variable -------------------------------------------------------
    def __add__(self, o: Any) -> Tensor:
        return self._as_tensor() + o

    def __radd__(self, o: Any) -> Tensor:
        return self._as_tensor().__radd__(o)

    def __sub__(self, o: Any) -> Tensor:
        return self._as_tensor() - o

    def __rsub__(self, o: Any) -> Tensor:
        return self._as_tensor().__rsub__(o)

    def __mul__(self, o: Any) -> Tensor:
        return self._as_tensor() * o

    def __rmul__(self, o: Any) -> Tensor:
        return self._as_tensor().__rmul__(o)

    def __truediv__(self, o: Any) -> Tensor:
        return self._as_tensor() / o

    def __rtruediv__(self, o: Any) -> Tensor:
        return self._as_tensor().__rtruediv__(o)

    def __matmul__(self, o: Any) -> Tensor:
        return self._as_tensor() @ o

    def __rmatmul__(self, o: Any) -> Tensor:
        return self._as_tensor().__rmatmul__(o)

    def __neg__(self) -> Tensor:
        return -self._as_tensor()

    def __pow__(self, o: Any) -> Tensor:
        return self._as_tensor() ** o

    def __rpow__(self, o: Any) -> Tensor:
        return self._as_tensor().__rpow__(o)

    def __floordiv__(self, o: Any) -> Tensor:
        return self._as_tensor() // o

    def __rfloordiv__(self, o: Any) -> Tensor:
        return self._as_tensor().__rfloordiv__(o)

    def __mod__(self, o: Any) -> Tensor:
        return self._as_tensor() % o

    def __rmod__(self, o: Any) -> Tensor:
        return self._as_tensor().__rmod__(o)

    def __abs__(self) -> Tensor:
        return abs(self._as_tensor())

    def __and__(self, o: Any) -> Tensor:
        return self._as_tensor() & o

    def __rand__(self, o: Any) -> Tensor:
        return self._as_tensor().__rand__(o)

    def __or__(self, o: Any) -> Tensor:
        return self._as_tensor() | o

    def __ror__(self, o: Any) -> Tensor:
        return self._as_tensor().__ror__(o)

    def __xor__(self, o: Any) -> Tensor:
        return self._as_tensor() ^ o

    def __rxor__(self, o: Any) -> Tensor:
        return self._as_tensor().__rxor__(o)

    def __invert__(self) -> Tensor:
        return ~self._as_tensor()

    def __eq__(self, o: Any) -> Any:   # type: ignore[override]
        # TF's BaseResourceVariable.__eq__: elementwise Equal (incompatible_shape_error=False);
        # unlike a tensor's, None is converted, and refused (clause ops.tensor-equality)
        from simdist.runtime.ops import math
        return math.equality(math.EQUAL, *_equality_operands(self, _not_none(o)))

    def __ne__(self, o: Any) -> Any:   # type: ignore[override]
        from simdist.runtime.ops import math
        return math.equality(math.NOT_EQUAL, *_equality_operands(self, _not_none(o)))

    def __getitem__(self, key: Any) -> Tensor:
        t = self._as_tensor()[key]
        if isinstance(t, Tensor):
            t._slice_of = (self, key)
        return t

    def __iter__(self) -> Any:
        # (TF iterates a variable as its value: a scalar is TypeError "Cannot iterate over a
        # scalar tensor."; without this Python's fallback ran __getitem__ to an op error)
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("iter")
        return iter(self._as_tensor())

    def _slice_assign(self, key: Any, value: Any, name: Any = None) -> Any:
        """`self[key].assign(value)` (TF's ResourceStridedSliceAssign): value converted to the
        variable's dtype and broadcast to the slice's shape (InvalidArgumentError "Cannot
        broadcast input shape [3] into final shape [2]" when it does not), written into the
        elements the slice selects; the variable is returned (ops.variable-slices)."""
        from simdist.runtime import errors
        from simdist.runtime.ops import trace_errors
        cur = self._as_tensor()
        shape = tuple(cur.shape.as_list())
        pos = Tensor(np.arange(int(np.prod(shape)), dtype=np.int64).reshape(shape), dtypes.int64)[key]
        v = value._as_tensor() if hasattr(value, "_as_tensor") else value
        v = convert_to_tensor(v, dtype=self._dtype) if not isinstance(v, Tensor) else v
        if v.dtype != self._dtype:
            raise ValueError(f"Tensor conversion requested dtype {self._dtype.name} for Tensor with dtype "
                             f"{v.dtype.name}: {v!r}")
        arr = _dispatch.static_value(v)
        target = tuple(pos.shape.as_list())
        if not pos._v.size:   # (the kernel returns before it looks at the value: an empty slice takes any;
            return self       # fz4 seed 34 #32)
        from simdist.runtime.ops.slice_assign_bcast import fitted_shape
        fitted = fitted_shape(np.shape(arr), target)   # (StridedSliceAssignBCast: extra leading ones dropped; fz39a)
        try:
            if fitted is None:
                raise ValueError
            arr = np.broadcast_to(np.reshape(arr, fitted), target)
        except ValueError:
            raise errors.InvalidArgumentError(    # (the kernel's, also in a graph)
                None, None, f"Cannot broadcast input shape {trace_errors.shapes_text([arr.shape])} into final "
                f"shape {trace_errors.shapes_text([target])} [Op:ResourceStridedSliceAssign]") from None
        new = np.array(_dispatch.static_value(cur), copy=True).reshape(-1)
        new[np.asarray(pos._v).reshape(-1)] = arr.reshape(-1)
        self.assign(Tensor(new.reshape(shape), self._dtype, cur._device))
        return self._lazy_read()

    def __lt__(self, o: Any) -> Tensor:
        return self._as_tensor() < o

    def __gt__(self, o: Any) -> Tensor:
        return self._as_tensor() > o

    def __le__(self, o: Any) -> Tensor:
        return self._as_tensor() <= o

    def __ge__(self, o: Any) -> Tensor:
        return self._as_tensor() >= o

    def __float__(self) -> float:
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("float")
        return float(self._as_tensor())

    def __int__(self) -> int:
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("int")
        return int(self._as_tensor())

    def __bool__(self) -> bool:
        if _symbolic.DEPTH[0]:
            _symbolic.check_variable("bool")
        return bool(self._as_tensor())

    __hash__ = object.__hash__

    def _lazy_read(self) -> Any:
        """What an update with read_value=True returns: the variable itself here; a resource variable's
        is a fresh `_UnreadVariable` (TF's `_lazy_read`)."""
        return self

    def ref(self) -> Any:
        """A hashable reference to this variable (TF's `Reference`: `.deref()` gives it back, equal
        and hashed by identity), the key TF tells a program to use for a variable."""
        from simdist.runtime.tensor import TensorRef
        return TensorRef(self)

    experimental_ref = ref


def _equality_operands(v: Any, o: Any) -> tuple[Any, Any]:
    """The operands of Variable.__eq__/__ne__ (gen_math_ops.equal(self, other)): eagerly a
    distributed variable, which the fast path does not take as a resource variable, sends the call
    to the op's fallback, args_to_matching_eager: an EagerTensor's dtype, else the first operand's
    own, is T and the other converts to it, so a float32 MirroredVariable != a bool one (or a bool
    tensor) is the conversion's ValueError "Incompatible type conversion requested to type float32
    for `tf.Variable of type bool." in a replica and outside (fz29b, fz14 seed 1420292901 #162)."""
    from simdist.runtime import context
    from simdist.runtime.ops import attr_rules
    from simdist.runtime.ops.math import _distributed_variable
    if not context.in_function() and (_distributed_variable(v) or _distributed_variable(o)):
        a, b = attr_rules.eager_group([v, o], fast=False)
        return a, b
    return v._as_tensor(), o


def _not_none(o: Any) -> Any:
    if o is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class 'NoneType'>) to a Tensor.")
    return o


def _bind_args(args: tuple, kwargs: dict) -> dict:
    names = ("initial_value", "trainable", "validate_shape", "caching_device", "name", "variable_def", "dtype",
             "import_scope", "constraint", "synchronization", "aggregation", "shape")
    if len(args) > len(names):
        raise TypeError(f"Variable() takes at most {len(names)} positional arguments ({len(args)} given)")
    kw = dict(zip(names, args))
    for k in kwargs:
        if k in kw:
            raise TypeError(f"Variable() got multiple values for argument '{k}'")
        if k not in names and k not in ("experimental_enable_variable_lifting",):
            raise TypeError(f"Variable() got an unexpected keyword argument '{k}'")
    kw.update(kwargs)
    return kw


# Whether any variable of the process has held subnormal floats: until one has, a recorded
# tf.function's replay need not look at its variables' marks (simdist/tf/_function.py). It is set
# whenever a mark is, so the replay's decision depends only on the marks of the variables it reads,
# never on what ran earlier in the process.
subnormal_seen = [False]


def _marked(value: Any) -> bool:
    """Whether an assigned value may hold subnormals: a marked tensor or variable, or a value
    made outside the ops (a Python or NumPy value)."""
    if isinstance(value, Tensor):
        return value._sub
    sub = getattr(value, "_sub", None)
    return True if sub is None else bool(sub)


_SERIALS = itertools.count()


def creation_key(v: Any) -> float:
    """Where `v` stands in the order variables were made: TF 2.21's tapes and VariableWatcher keep
    the variables they watch in a set ordered by the handle's id (pywrap_tfe_src.cc), which grows
    with every tensor made, so `watched_variables()` lists them in creation order; a distributed
    variable stands where its primary copy does (values.py `_unique_id`)."""
    for _ in range(4):
        serial = getattr(v, "_serial", None)
        if serial is not None:
            return serial
        v = getattr(v, "_primary", None)
        if v is None:
            break
    return float("inf")


def in_creation_order(variables: Sequence[Any]) -> list[Any]:
    """`variables` sorted by creation_key (stable: those without one keep their order, last)."""
    return sorted(variables, key=creation_key)


def _read_elsewhere(t: Any) -> bool:
    """Whether an eager read_value's Identity moves the read: TF 2.21 runs it on the caller's device (the innermost
    device scope, else the default device), so a variable on another device reads onto the caller's (observed: a
    OneDevice/CentralStorage variable's read_value() under tf.device("/cpu:1") is on CPU:1, dsweep55; a variable
    made under tf.device("/cpu:1") read under no scope is on CPU:0 while its value() stays on CPU:1, fifty-sixth
    session; clauses mirrored.aggregation and function.output-device)."""
    from simdist.runtime import context
    return context.current_device() != t.device   # (names canonical: runtime/context.py device_scope)


def _no_read(name: Any, op: str) -> Any:
    """What an assignment with read_value=False returns: None eagerly, the assign Operation in a
    tf.function (returning it from the function is TF's TypeError "found return value of type
    Operation"; fz25b, fourth generator seed 2501 #102)."""
    from simdist.runtime.graph_op import op_result
    return op_result(name or op, op)


class ResourceVariable(InPlaceRefusals, Variable):
    """A plain variable: one buffer on one device (its in-place operators: runtime/variable_inplace.py)."""

    _version = 0     # counts the writes of its buffer (a fused replay's guard, runtime/lanes/)
    _sub = False     # its value may hold subnormal floats: reads are marked (runtime/subnormals.py)
    _mirrors: tuple | None = None   # the copies of a MirroredVariable it is one of (kept identical)

    def __init__(self, initial_value: Any = None, trainable: bool | None = None, name: str | None = None,
                 dtype: Any = None, shape: Any = None, device: str | None = None,
                 aggregation: Any = None, synchronization: Any = VariableSynchronization.AUTO,
                 **unused: Any) -> None:
        _creation.note(self)
        rec = _cur.ctx.recorder
        if rec is not None:   # (a recorded call would create it once: it stays eager, see runtime/graph)
            rec.invalidate(f"it creates a variable ({name or 'Variable'})")
        name = _scoped_name(name)
        init = resolve_initial_value(initial_value, dtype)
        if shape is not None and not init.shape.is_compatible_with(TensorShape(shape)):
            raise ValueError(f"In this `tf.Variable` creation, the initial value's shape ({init.shape}) is not "
                             f"compatible with the explicitly supplied `shape` argument ({TensorShape(shape)}).")
        if init.dtype.kind == "n":   # (a narrow dtype without TF 2.21's AssignVariableOp kernel; runtime/narrow.py)
            from simdist.runtime import narrow
            narrow.check_assign(init.dtype)
        self._serial = next(_SERIALS)   # (TF makes the handle after converting the initial value)
        self._value = np.array(init._v, copy=True)
        self._dtype = init.dtype
        if init._sub:
            self._sub = True
            subnormal_seen[0] = True
        self._name = name if name is not None else "Variable"
        constraint = unused.get("constraint")
        if constraint is not None:
            if not callable(constraint):
                raise ValueError(f"Argument `constraint` must be None or a callable. a callable. Got a "
                                 f"{type(constraint)}:  {constraint}")   # (TF's text, doubled words and all)
            self._constraint = constraint
        self._device = device if device is not None else context.current_device()
        self._shape = TensorShape(self._value.shape) if shape is None else TensorShape(shape)
        self.synchronization = _as_synchronization(synchronization)
        # TF: trainable defaults to False for ON_READ variables, True otherwise; a value given is kept as it is
        # (TF's validate_synchronization_aggregation_trainable: `trainable=0` reads back 0)
        self.trainable = (self.synchronization is not VariableSynchronization.ON_READ) if trainable is None \
            else trainable
        self.aggregation = _as_aggregation(aggregation)
        self._fault: Any = None   # set while its parameter server is down or has lost the value
        self._on_allocate(self)

    # set by the session so variables charge device memory in the simulator
    _on_allocate: Callable[[Any], None] = staticmethod(lambda v: None)

    _name_str: tuple | None = None   # (_name, its "<name>:0") as last given out

    @property
    def name(self) -> str:
        """`<name>:0`, the same str object on every read while the name stands (TF caches its
        handle's name, so `strategy.run(lambda: v.name)` regroups equal objects to one str)."""
        cached = self._name_str
        if cached is None or cached[0] is not self._name:
            cached = self._name_str = (self._name, self._name + ":0")
        return cached[1]

    @property
    def dtype(self) -> dtypes.DType:
        return self._dtype

    @property
    def handle(self) -> Tensor:
        """The variable's resource handle: a scalar tensor of dtype resource naming this variable
        (runtime/resource_handle.py; clause ops.resource-handles)."""
        from simdist.runtime import resource_handle
        return resource_handle.handle_of(self)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def device(self) -> str:
        return self._device

    @property
    def nbytes(self) -> int:
        if self._dtype is not dtypes.string:
            return self._value.nbytes   # (ndarray.nbytes is an int)
        return 16 * int(self._value.size)

    def _as_tensor(self, observed: bool = True) -> Tensor:
        """The variable's value as a tensor (ReadVariableOp). `observed=False`: a read the simulator's variable
        observers do not see (a copy read on its own device as part of an update, which moves no data)."""
        if context._xla_depth[0] and observed:   # (an XLA call reads only its own device's resources)
            context.check_xla_resource(self.name.split(":")[0], self._device)
        t = Tensor(self._read_array(observed=observed), self._dtype, self._device)
        if self._sub:
            t._sub = True
        if _cur.ctx.observers or _dispatch._NUMERICS[0] is not None:
            t = _dispatch.variable_read(self, t)
        if context._function_depth:   # (a read is unknown to the graph being built: ops/graph_constants.py)
            from simdist.runtime import graph_names
            from simdist.runtime.ops import graph_constants
            graph_constants.vary(t)
            graph_names.name_read(t)   # (its ReadVariableOp node's name: function.grappler-rewrites)
            graph_names.capture_variable(self, t)   # (its handle's placeholder: a concrete function's inputs)
            if context._variable_reads:   # (a concrete function's captured variables: tf/_concrete.py)
                context._variable_reads[-1].append(self)
        if context._data_traces:   # (a captured variable read by a tf.data function: dataset.iterator-checkpoint)
            context.note_stateful_op("ReadVariableOp")
        return t

    def _read_array(self, nbytes: int | None = None, observed: bool = True) -> np.ndarray:
        """What a read sees now: the open transaction's writes folded in, else the value (a
        recorded graph's replay reads this way, without making a tensor). `nbytes`: the bytes
        the read moves when it is not the whole variable (a row lookup); `observed=False`: not told to
        the observers (see _as_tensor)."""
        if observers and observed:
            for o in observers:
                if nbytes is None:
                    o.read(self)
                else:
                    o.read(self, nbytes)
        txn = _cur.ctx.transactions
        if txn:
            t = txn[-1]
            if id(self) in t.overlay:   # (Transaction.value is None for a variable it never wrote)
                pending = t.value(self)
                if pending is not None:
                    return pending
            elif t.pinned is not None:   # (a Reread: the value the closure's start read)
                pinned = t.pinned.get(id(self))
                if pinned is not None:
                    return pinned
        return self._current()

    def sparse_read(self, indices: Any, name: Any = None) -> Tensor:
        """Rows `indices` of the variable (TF's ResourceGather): reads only those rows (a
        parameter server sends only them), and its gradient is IndexedSlices."""
        from simdist.runtime import errors
        from simdist.runtime.ops import args, trace_errors
        idx_t = indices if isinstance(indices, Tensor) else convert_to_tensor(indices)
        if idx_t.dtype.name not in ("int32", "int64"):
            # eagerly ResourceGather's attr check (int16, uint8 and int8 indices too: its Tindices are int32 and
            # int64 only; ixsweep67) (InvalidArgumentError, as TF 2.21 raises it for
            # `tf.gather(variable, [])`); a traced function gets op_def_library's TypeError
            raise trace_errors.static(
                errors.InvalidArgumentError(None, None, f"Value for attr 'Tindices' of {args.tf_name(idx_t.dtype)} is "
                                            "not in the list of allowed values: int32, int64 [Op:ResourceGather]"),
                TypeError, f"Value passed to parameter 'indices' has DataType {idx_t.dtype.name} not in list of "
                "allowed values: int32, int64")
        if self._shape.rank == 0:
            # (the kernel's IsVectorOrHigher check before any index; a graph's shape function,
            # WithRankAtLeast(params, batch_dims + 1), refuses it at trace: fz33b, fourth generator seed
            # 3301 #105; measured on TF 2.21)
            raise trace_errors.shape_error("params must be at least 1 dimensional [Op:ResourceGather]",
                                           "Shape must be at least rank 1 but is rank 0", "ResourceGather",
                                           [[], list(idx_t.shape.as_list() if idx_t.shape.rank is not None else [])])
        idx = _dispatch.raw(idx_t)
        n = self._shape[0] if self._shape.rank else 0
        bad = (idx < 0) | (idx >= n)
        if bad.any():
            pos = np.unravel_index(int(np.argmax(bad)), idx.shape) if idx.ndim else ()
            # (the kernel's run-time check: a dry run of a tf.function goes on past it, so a later op's
            # trace-time error comes first, embedding_lookup's max_norm Sum of a bool variable: fz35b,
            # fourteenth generator seed 1420353003 #87)
            return _dispatch.refused(errors.InvalidArgumentError(
                None, None, f"indices[{','.join(str(int(i)) for i in pos)}] = {int(idx[bad].flat[0])} is not in "
                f"[0, {n}) [Op:ResourceGather]"), self._dtype, list(idx.shape) + list(self._shape.as_list()[1:]))
        row_bytes = self.nbytes // max(int(n), 1)
        value = self._read_array(row_bytes * int(np.unique(idx).size))
        from simdist.runtime.cost import tally
        tally.flops += idx.size
        t = Tensor(np.take(value, idx, axis=0), self._dtype, self._device)   # (gathered where it lives)
        if _cur.ctx.observers:
            return _dispatch.variable_gathered(self, idx_t, t)
        return t

    def _current(self) -> np.ndarray:
        if self._fault is not None:
            self._fault.check_read(self)
        return self._value

    def _assign_np(self, arr: np.ndarray) -> None:
        if observers:
            for o in observers:
                o.write(self, arr)
        self._value = arr
        self._version += 1

    def _share(self, twin: "ResourceVariable") -> None:
        """Take the buffer of `twin`, a mirrored copy that has just received the very write this
        copy is receiving from equal values (a fused replay, runtime/lanes/): the same bytes,
        not computed again. The buffer is shared from then on, so the next write of either copy
        makes a new one (in-place updates need an unshared buffer)."""
        self._value = twin._value
        self._version += 1

    def _apply_op(self, kind: str, operand: Any) -> None:
        """Apply a write: kind is "assign", "assign_add", "assign_sub" or one of SCATTER_KINDS."""
        if self._fault is not None:
            self._fault.check_write(self, kind)
        v = self._value
        if _journals and id(self) not in _journals[-1]:
            _journals[-1][id(self)] = (self, v.copy(), self._version)
        if kind in SCATTER_KINDS:
            if sys.getrefcount(v) == _UNSHARED and v.base is None and v.flags.writeable:
                _scatter_into(v, kind, operand)   # (as assign_add: nobody else holds the buffer)
                self._assign_np(v)
            else:
                self._assign_np(_updated(self._current(), kind, operand))
            return
        if (kind != "assign" and sys.getrefcount(v) == _UNSHARED and v.base is None and v.flags.writeable
                and v.dtype.kind in "fiuc" and operand.dtype == v.dtype and operand.shape == v.shape):
            # Nothing else holds this buffer (no tensor read from it is alive): update in place,
            # as the allocation of a new one would be observable by no one.
            (np.add if kind == "assign_add" else np.subtract)(v, operand, v)   # (positional out: no kwargs parsing)
            self._version += 1
            if observers:   # (`_assign_np(v)` inlined: v already is the value)
                for o in observers:
                    o.write(self, v)
        else:
            self._assign_np(_updated(self._current(), kind, operand))

    def _write(self, kind: str, operand: np.ndarray) -> None:
        txn = _cur.ctx.transactions
        if txn:
            t = txn[-1]
            if id(self) not in t.overlay:
                if kind != "assign" and self._fault is not None:
                    self._fault.check_read(self)   # a read-modify-write of a failed ps fails here, as eagerly
                t.overlay[id(self)] = [None, len(t.ops), self]
            t.ops.append((self, kind, operand))
            if observers:
                for o in observers:
                    o.write(self, operand)
            return
        self._apply_op(kind, operand)

    def _coerce(self, value: Any, op: str) -> np.ndarray:
        """The array a write of `value` writes (converted, dtype and shape checked)."""
        if type(value) is Tensor or type(value) is _Traced:
            t = value
        else:
            t = value._as_tensor() if hasattr(value, "_as_tensor") else value
            t = convert_to_tensor(t, dtype=self._dtype) if not isinstance(t, Tensor) else t
        if t.dtype is not self._dtype and t.dtype != self._dtype:
            # (TF converts the value with the variable's dtype first: convert_to_tensor's ValueError)
            raise ValueError(f"Tensor conversion requested dtype {self._dtype.name} for Tensor with dtype "
                             f"{t.dtype.name}: {t!r}")
        graph = context.in_function()
        if op != "AssignVariableOp" and not graph:
            self._update_kernel(op)   # (after the conversion, before the kernel's shape check)
        arr = _dispatch.raw(t)   # (the write is recorded with the tensor as its operand)
        if arr.shape != self._shape._dims and not self._shape.is_compatible_with(t.shape) and op != "AssignVariableOp":
            # assign_add/assign_sub have no Python check: the kernel's error eagerly, the shape
            # function's ValueError in a graph (docs/spec.md ops.variable-slices)
            from simdist.runtime.ops import trace_errors
            want, got = self._shape.as_list(), list(arr.shape)
            text = (f"Shapes must be equal rank, but are {len(want)} and {len(got)}" if len(want) != len(got) else
                    "Dimension mismatch: shapes " + trace_errors.shapes_text([want, got]) + " must be equal")
            raise trace_errors.shape_error(
                f"Cannot update variable with shape {trace_errors.shapes_text([want])} using a Tensor with shape "
                f"{trace_errors.shapes_text([got])}, shapes must be equal. [Op:{op}]", text, op, [[], got])
        if op != "AssignVariableOp" and graph:
            # (a graph builds the node first, its shape function's ValueError at trace, and looks the kernel up when it
            # runs: `bool_variable.assign_add(True)` in a tf.function is "Shapes must be equal rank, but are 2 and 0";
            # fz43, fz4 seed 4301 #115, observed on TF 2.21)
            self._update_kernel(op)
        if arr.shape != self._shape._dims and not self._shape.is_compatible_with(t.shape):
            raise ValueError(f"Cannot assign value to variable ' {self.name}': Shape mismatch.The variable shape "
                             f"{self._shape}, and the assigned value shape {t.shape} are incompatible.")
        return arr

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        arr = self._coerce(value, "AssignVariableOp")
        self._write("assign", arr)
        # AssignVariableOp copies bits: a subnormal assigned is kept, and reads see it marked
        if arr.dtype in _subnormals.FLUSHED_TYPES and _marked(value):
            self._sub = _subnormals.holds(arr)
            if self._sub:
                subnormal_seen[0] = True
        elif self._sub:
            self._sub = False
        if _cur.ctx.observers:
            _dispatch.variable_written(self, "assign", value, arr)
        return _UnreadVariable(self) if read_value else _no_read(name, "AssignVariableOp")

    def _update_kernel(self, op: str) -> None:
        """AssignAdd/AssignSubVariableOp have CPU kernels for number types only: a bool or string
        variable is InvalidArgumentError once its operand converted to the variable's dtype (a
        Python 0.5 for a bool variable is the conversion's TypeError; fz4 seeds 21 #55, #62,
        22 #47, #77, 23 #40)."""
        if self._dtype.is_bool or self._dtype.name == "string":
            from simdist.runtime import errors
            if context._placeholder_depth[0]:
                return   # (a dry run builds the graph: TF looks the kernel up only when the function runs)
            err = errors.InvalidArgumentError(None, None, f"No OpKernel was registered to support Op '{op}' used by "
                                              f"{{{{node {op}}}}} with these attrs: [dtype=DT_{self._dtype.name.upper()}]")
            err._simdist_no_kernel = True   # type: ignore[attr-defined]   (a tf.function's call runs no op: _function)
            raise err

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        arr = self._coerce(delta, "AssignAddVariableOp")
        self._write("assign_add", arr)
        if _cur.ctx.observers:
            _dispatch.variable_written(self, "assign_add", delta, arr)
        return _UnreadVariable(self) if read_value else _no_read(name, "AssignAddVariableOp")

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        arr = self._coerce(delta, "AssignSubVariableOp")
        self._write("assign_sub", arr)
        if _cur.ctx.observers:
            _dispatch.variable_written(self, "assign_sub", delta, arr)
        return _UnreadVariable(self) if read_value else _no_read(name, "AssignSubVariableOp")

    def _lazy_read(self) -> "ResourceVariable":
        return _UnreadVariable(self)   # (TF's _lazy_read: the result of an update with read_value=True)

    # Sparse updates ----------------------------------------------------------------------------
    def _scatter(self, kind: str, indices: Any, updates: Any, op: str) -> "ResourceVariable":
        """A scatter write of `updates` at `indices` (checked as TF's kernels check them), through
        the open transaction and the observers like assign_add, and recorded for replays."""
        idx_t = indices if isinstance(indices, Tensor) else convert_to_tensor(indices)
        if not idx_t.dtype.is_integer:
            raise TypeError(f"Value passed to parameter 'indices' has DataType {idx_t.dtype.name} not in list of "
                            "allowed values: int32, int64")
        if idx_t.dtype.name not in ("int32", "int64"):
            # (the scatter ops' Tindices are int32 and int64: eagerly the attr check's InvalidArgumentError, in a
            # graph op_def_library's TypeError; TF 2.21 observed, ixsweep67)
            from simdist.runtime import errors
            from simdist.runtime.ops import args, trace_errors
            raise trace_errors.static(
                errors.InvalidArgumentError(None, None, f"Value for attr 'Tindices' of {args.tf_name(idx_t.dtype)} is "
                                            f"not in the list of allowed values: int32, int64 [Op:{op}]"),
                TypeError, f"Value passed to parameter 'indices' has DataType {idx_t.dtype.name} not in list of "
                "allowed values: int32, int64")
        upd_t = updates if isinstance(updates, Tensor) else convert_to_tensor(updates, dtype=self._dtype)
        if upd_t.dtype != self._dtype:
            raise ValueError(f"Tensor conversion requested dtype {self._dtype.name} for Tensor with dtype "
                             f"{upd_t.dtype.name}: {upd_t!r}")
        if not kind.endswith("_update"):
            # (ResourceScatter{Add,Sub,Mul,Div,Min,Max} and their Nd forms have number kernels only: a bool
            # variable's scatter_add is InvalidArgumentError as its assign_add; vsweep58's v-var-*-bool programs;
            # but ResourceScatterNdAdd/Sub have bool kernels too, and the Min/Max kernels are real types only:
            # vsweep66)
            # ResourceScatter{Add,...,Max}'s dtype attr lists its types, so inside a tf.function their refusal is
            # op_def_library's TypeError as the graph is built (the Nd forms' `T: type` builds: the kernel refuses)
            real = kind.endswith(("_min", "_max"))
            if not (kind in ("scatter_nd_add", "scatter_nd_sub") and self._dtype.is_bool) and \
                    (self._dtype.is_bool or self._dtype.name == "string" or (real and self._dtype.is_complex)):
                from simdist.runtime import errors
                from simdist.runtime.ops import trace_errors
                err = errors.InvalidArgumentError(None, None, f"No OpKernel was registered to support Op '{op}' "
                                                  f"used by {{{{node {op}}}}} with these attrs: "
                                                  f"[dtype=DT_{self._dtype.name.upper()}]")
                if kind.startswith("scatter_nd_"):
                    raise err
                raise trace_errors.static(err, TypeError, f"Value passed to parameter 'updates' has DataType "
                                          f"{self._dtype.name} not in list of allowed values")
        idx, upd = _dispatch.raw(idx_t), _dispatch.raw(upd_t)
        self._checked_scatter(kind, idx, upd, op)
        operand = (idx, upd)
        self._write(kind, operand)
        if _cur.ctx.observers:
            _dispatch.variable_scattered(self, kind, idx_t, upd_t, operand)
        return self._lazy_read()

    def _write_scatter(self, kind: str, operand: tuple) -> None:
        """A replayed scatter write: its indices checked as the eager call checked them."""
        self._checked_scatter(kind, operand[0], operand[1], _SCATTER_OPS[kind])
        self._write(kind, operand)

    def _checked_scatter(self, kind: str, idx: np.ndarray, upd: np.ndarray, op: str) -> None:
        """_check_scatter of a write to this variable; an index error comes after the rows the kernel wrote."""
        from simdist.runtime import errors
        try:
            _check_scatter(kind, idx, upd, tuple(self._shape.as_list()), op)
        except errors.InvalidArgumentError as e:
            partial = partial_scatter(e)
            if partial is not None:
                self._write(kind, partial)
            raise

    def _sparse(self, kind: str, sparse_delta: Any, op: str) -> "ResourceVariable":
        if not hasattr(sparse_delta, "indices") or not hasattr(sparse_delta, "values"):
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {sparse_delta}")
        return self._scatter(kind, sparse_delta.indices, sparse_delta.values, op)

    def scatter_add(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        """Add `IndexedSlices` rows into the variable (repeated rows add up)."""
        return self._sparse("scatter_add", sparse_delta, "ResourceScatterAdd")

    def scatter_sub(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        return self._sparse("scatter_sub", sparse_delta, "ResourceScatterSub")

    def scatter_update(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        return self._sparse("scatter_update", sparse_delta, "ResourceScatterUpdate")

    def scatter_mul(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        return self._sparse("scatter_mul", sparse_delta, "ResourceScatterMul")

    def scatter_div(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        return self._sparse("scatter_div", sparse_delta, "ResourceScatterDiv")

    def scatter_max(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        return self._sparse("scatter_max", sparse_delta, "ResourceScatterMax")

    def scatter_min(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> "ResourceVariable":
        return self._sparse("scatter_min", sparse_delta, "ResourceScatterMin")

    def batch_scatter_update(self, sparse_delta: Any, use_locking: bool = False, name: Any = None) -> Any:
        """TF's state_ops.batch_scatter_update: `sparse_delta.indices` index the last of its dimensions, the
        leading ones are the batch (a range each), written by one scatter_nd_update."""
        if not hasattr(sparse_delta, "indices") or not hasattr(sparse_delta, "values"):
            raise TypeError(f"Argument `sparse_delta` must be a `tf.IndexedSlices`. Received arg: {sparse_delta}")
        idx_t = sparse_delta.indices
        idx_t = idx_t if isinstance(idx_t, Tensor) else convert_to_tensor(idx_t)
        idx = _dispatch.raw(idx_t)
        lead = [np.broadcast_to(np.arange(n, dtype=idx.dtype).reshape([n if j == d else 1 for j in range(idx.ndim)]),
                                idx.shape) for d, n in enumerate(idx.shape[:-1])]
        nd = np.stack(lead + [idx], axis=-1)
        return self._scatter("scatter_nd_update", Tensor(nd, idx_t.dtype), sparse_delta.values,
                             "ResourceScatterNdUpdate")

    def scatter_nd_add(self, indices: Any, updates: Any, name: Any = None) -> "ResourceVariable":
        return self._scatter("scatter_nd_add", indices, updates, "ResourceScatterNdAdd")

    def scatter_nd_sub(self, indices: Any, updates: Any, name: Any = None) -> "ResourceVariable":
        return self._scatter("scatter_nd_sub", indices, updates, "ResourceScatterNdSub")

    def scatter_nd_update(self, indices: Any, updates: Any, name: Any = None) -> "ResourceVariable":
        return self._scatter("scatter_nd_update", indices, updates, "ResourceScatterNdUpdate")

    def scatter_nd_max(self, indices: Any, updates: Any, name: Any = None) -> "ResourceVariable":
        return self._scatter("scatter_nd_max", indices, updates, "ResourceScatterNdMax")

    def scatter_nd_min(self, indices: Any, updates: Any, name: Any = None) -> "ResourceVariable":
        return self._scatter("scatter_nd_min", indices, updates, "ResourceScatterNdMin")

    def count_up_to(self, limit: int) -> Tensor:
        """TF's deprecated `count_up_to`: the value before an increment by one; OutOfRangeError
        "Reached limit of N" once the value has reached `limit`."""
        from simdist.runtime import errors
        if self._dtype.name not in ("int32", "int64"):   # (ResourceCountUpTo's kernels: int32 and int64 only)
            raise errors.InvalidArgumentError(None, None, "No OpKernel was registered to support Op "
                                              "'ResourceCountUpTo' used by {{node ResourceCountUpTo}} with these "
                                              f"attrs: [T=DT_{self._dtype.name.upper()}, limit={int(limit)}]")
        if self._shape.rank != 0:   # (the kernel's scalar check)
            raise errors.InvalidArgumentError(None, None, f"input is not a scalar: {self._shape} [Op:ResourceCountUpTo]")
        old = self._as_tensor()
        if int(old._v) >= int(limit):
            raise errors.OutOfRangeError(None, None, f"Reached limit of {int(limit)} [Op:ResourceCountUpTo]")
        self.assign_add(np.asarray(1, dtype=self._dtype.np))
        return old

    def __deepcopy__(self, memo: Any) -> "ResourceVariable":
        """TF's deepcopy (BaseResourceVariable.__deepcopy__): a new variable of the value, on the
        same device, with the same name, trainability and aggregation."""
        copied = ResourceVariable(np.array(self._as_tensor()._v, copy=True), trainable=self.trainable,
                                  name=self._name, dtype=self._dtype, device=self._device,
                                  aggregation=self.aggregation, synchronization=self.synchronization)
        memo[id(self)] = copied
        return copied

    def _numpy_text(self) -> str:
        txn = _cur.ctx.transactions
        pending = txn[-1].value(self) if txn else None
        value = self._current() if pending is None else pending
        return Tensor(value, self._dtype, self._device)._numpy_text(True)

    def __repr__(self) -> str:
        return f"<tf.Variable '{self.name}' shape={self._shape} dtype={self._dtype.name}, numpy={self._numpy_text()}>"

    def __reduce__(self):
        return (_rebuild_resource_variable, (self._value, self._dtype.name, self._name, self._device, self.trainable))


def _forward(name: str, checked: bool = False) -> Any:
    if checked:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            if self._eager and context._function_depth:
                self._in_graph()
            return getattr(self._parent, name)(*args, **kwargs)
    else:
        def method(self: Any, *args: Any, **kwargs: Any) -> Any:
            return getattr(self._parent, name)(*args, **kwargs)
    method.__name__ = name
    return method


def _forward_attr(name: str) -> property:
    return property(lambda self: getattr(self._parent, name),
                    lambda self, value: setattr(self._parent, name, value))


class _UnreadVariable(ResourceVariable):
    """TF's `_UnreadVariable` (resource_variable_ops.py): what `assign`, `assign_add`, `assign_sub`,
    the `scatter_*` methods and a slice's `assign` of a resource variable return (read_value=True).
    A new object each call sharing the variable's handle: it reads the variable when used (a later
    write shows), its updates write the variable and return another one, its name is
    "UnreadVariable", its `ref()` is its own; `strategy.run` regroups the replicas' ones into a
    PerReplica. Every read and write goes to the variable it came from (`_parent`), so tapes,
    transactions and recorded graphs see that variable. Clause run.per-replica (fz52d)."""

    __slots__ = ("_parent", "_eager")

    def __init__(self, parent: ResourceVariable) -> None:   # (not a new variable: no buffer, no creation)
        self._parent = parent
        # (made by an eager update: TF's parent_op is None, so a read or write of it inside a tf.function's
        # graph, `control_dependencies([None])`, is TypeError; `_in_graph`)
        self._eager = not context._function_depth

    # (a constructor call through _VariableMeta is only for tf.Variable itself: this one is direct)
    name = property(lambda self: "UnreadVariable")
    handle = property(lambda self: self._parent.handle)

    def _lazy_read(self) -> "_UnreadVariable":
        return _UnreadVariable(self._parent)

    def _in_graph(self) -> None:
        """TF 2.21: an eager update's UnreadVariable read or written while a tf.function traces (a captured one,
        or an argument of a new trace, whose placeholder is the object itself) runs its op under
        `control_dependencies([parent_op])` with parent_op None: TypeError. Its shape, dtype and name answer.
        Clause run.per-replica (dist54; /work/wt/dist54_logs/p_unread3.py, p_unread_cap.py)."""
        if self._eager and context._function_depth:
            raise TypeError("Can not convert a NoneType into a Tensor or Operation.")

    def assign(self, value: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        self._in_graph()
        return self._parent.assign(value, use_locking, name, read_value)

    def assign_add(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        self._in_graph()
        return self._parent.assign_add(delta, use_locking, name, read_value)

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Any = None, read_value: bool = True) -> Any:
        self._in_graph()
        return self._parent.assign_sub(delta, use_locking, name, read_value)

    def read_value(self) -> Tensor:
        """TF's _UnreadVariable.read_value: the read alone (`_read_variable_op`, no Identity), so it stays on the
        variable's device whatever the caller's is (observed on TF 2.21: an update's result on CPU:1 read under no
        scope is on CPU:1; clause function.output-device)."""
        self._in_graph()
        return self._parent.value()

    def __getattr__(self, name: str) -> Any:
        if name == "_distributed_container":   # (TF's regroup wraps UnreadVariables, never their container)
            raise AttributeError(name)
        return getattr(self._parent, name)


for _n in ("_value", "_version", "_sub", "_fault", "_device", "_shape", "_dtype", "_mirrors", "_name", "_serial",
           "_constraint", "_name_str", "trainable", "synchronization", "aggregation"):
    setattr(_UnreadVariable, _n, _forward_attr(_n))
for _n in ("_read_array", "_current", "_write", "_apply_op", "_assign_np", "_share", "_write_scatter", "_numpy_text"):
    setattr(_UnreadVariable, _n, _forward(_n))
for _n in ("_as_tensor", "_scatter", "sparse_read", "value", "numpy", "count_up_to",
           "read_value_no_copy"):   # (reads and writes: refused for an eager one inside a trace, `_in_graph`)
    setattr(_UnreadVariable, _n, _forward(_n, checked=True))
del _n


def unread_as_variables(args: tuple, kwargs: dict) -> tuple[tuple, dict]:
    """The call's `_UnreadVariable`s (also inside lists, tuples and dicts) as the variables they read: what a
    tf.function's existing trace receives for them (their handle); the call itself when it has none."""
    if not any(_has_unread(a) for a in args) and not any(_has_unread(v) for v in kwargs.values()):
        return args, kwargs
    return tuple(_unread_read(a) for a in args), {k: _unread_read(v) for k, v in kwargs.items()}


# (module functions, not closures: a recursive closure holds itself through its cell, a reference cycle per call that
# only the cyclic collector frees: tests/runtime/test_reference_cycles.py)
def _has_unread(x: Any) -> bool:
    if type(x) is _UnreadVariable:
        return True
    if type(x) in (list, tuple):
        return any(_has_unread(v) for v in x)
    if type(x) is dict:
        return any(_has_unread(v) for v in x.values())
    return False


def _unread_read(x: Any) -> Any:
    if type(x) is _UnreadVariable:
        return x._parent
    if type(x) in (list, tuple):
        return type(x)(_unread_read(v) for v in x)
    if type(x) is dict:
        return {k: _unread_read(v) for k, v in x.items()}
    return x


def _check_scatter(kind: str, idx: np.ndarray, upd: np.ndarray, shape: tuple, op: str) -> None:
    """TF's checks of a scatter's indices and updates shapes, with its kernels' messages."""
    from simdist.runtime import errors
    if kind.startswith("scatter_nd_"):
        k = idx.shape[-1] if idx.ndim else 0
        if upd.ndim == 0 and context.in_function():
            # (the op's shape function, ScatterNdShapeHelper: WithRankAtLeast(updates, 1) as the graph is built;
            # eagerly the kernel's InvalidArgumentError below; ixsweep67)
            raise ValueError(f"Shape must be at least rank 1 but is rank 0 for '{{{{node {op}}}}}' with input shapes: "
                             f"[], {_dims(idx.shape)}, [].")
        if idx.ndim == 1 and (upd.ndim == 0 or upd.shape[0] != idx.shape[0]):
            # (ValidateUpdateShape: rank-1 indices are a batch of one dimension, each index of depth 1, so the
            # updates' first dimension is their length: [2] with updates [3] into a [5, 3] variable is refused, as
            # the tensor scatters refuse it, scatter._check_vector_indices; ixsweep67)
            raise errors.InvalidArgumentError(
                None, None, f"Dimensions [0,1) of indices[shape={_dims(idx.shape)}] = {idx.shape[0]} must match "
                f"dimensions [0,1) of updates[shape={_dims(upd.shape)}] = {upd.shape[0] if upd.ndim else 0} [Op:{op}]")
        if idx.ndim == 0 or k > len(shape) or upd.shape != idx.shape[:-1] + tuple(shape[k:]):
            raise errors.InvalidArgumentError(
                None, None, f"updates.shape {list(upd.shape)} must equal indices.shape[:-1] {list(idx.shape[:-1])} + "
                f"params.shape[indices.shape[-1]:] {list(shape[k:])} [Op:{op}]")
        # (DoScatterNd's switch on the depth, cases 1 to 7, after its shape checks and before any index is read,
        # as the tensor scatters' (scatter.scatters_nothing); gsweep63 g-scatter-variables)
        from simdist.runtime.ops.scatter import scatters_nothing
        try:
            if scatters_nothing(idx.shape, shape, op):
                return
        except errors.InvalidArgumentError as e:
            raise errors.InvalidArgumentError(None, None, e.message.split(" [Op:")[0] + f" [Op:{op}]") from None
        bad = (idx < 0) | (idx >= np.asarray(shape[:k], dtype=np.int64))
        if bad.any():
            # (DoScatterNd's CPU functor skips each index row outside the shape and writes every other one, then
            # reports the last bad row: the error comes after those writes, `_simdist_partial`; ixsweep67)
            rows_bad = bad.reshape(-1, k).any(axis=1)
            row = int(len(rows_bad) - 1 - np.argmax(rows_bad[::-1]))
            flat = idx.reshape(-1, k)[row]
            err = errors.InvalidArgumentError(
                None, None, f"indices[{row}] = [{', '.join(str(int(i)) for i in flat)}] does not index into shape "
                f"[{','.join(str(d) for d in shape)}] [Op:{op}]")
            good = ~rows_bad
            if good.any():
                err._simdist_partial = (np.array(idx.reshape(-1, k)[good]),
                                        np.array(upd.reshape((-1,) + tuple(shape[k:]))[good]))
            raise err
        return
    # (the kernel checks the updates' rank only, rank(indices) + rank(params) - 1 or 0, and then writes nothing when
    # there are no indices: [0] indices with [0, 1] updates of a [4, 2] variable are a no-op; TF 2.21 observed, blind90.
    # With indices it reads `updates` as [N, row]: a shorter row than params' is read past its end in TF, undefined
    # values simdist does not model, so any other shape than indices.shape + params.shape[1:] is refused here)
    rank_ok = upd.shape == () or upd.ndim == idx.ndim + len(shape) - 1
    merged = upd.shape == () or upd.shape == idx.shape + tuple(shape[1:])
    if shape and not merged and context.in_function():
        # (in a graph the op's shape function merges updates with indices.shape + params.shape[1:] unless updates is a
        # scalar: ValueError at trace for any other shape, no indices too; TF 2.21 observed, blind90)
        raise ValueError(f"Shapes {_dims(upd.shape)} and {_dims(idx.shape + tuple(shape[1:]))} are incompatible for "
                         f"'{{{{node {op}}}}}' (updates against indices.shape + params.shape[1:])")
    if not shape or not rank_ok or idx.size and not merged:
        raise errors.InvalidArgumentError(
            None, None, "Must have updates.shape = indices.shape + params.shape[1:] or updates.shape = [], got "
            f"updates.shape {_dims(upd.shape)}, indices.shape {_dims(idx.shape)}, params.shape {_dims(shape)} [Op:{op}]")
    bad = (idx < 0) | (idx >= shape[0])
    if bad.any():
        # (ScatterFunctor's CPU loop writes the rows in order and stops at the first index outside [0, n): the rows
        # before it are written when the error comes, `_simdist_partial`; TF 2.21 observed, ixsweep67)
        pos = int(np.argmax(bad.ravel()))
        err = errors.InvalidArgumentError(
            None, None, f"indices[{pos}] = {int(idx.ravel()[pos])} is not in [0, {shape[0]}) [Op:{op}]")
        if pos:
            err._simdist_partial = (np.array(idx.ravel()[:pos]), np.array(upd if upd.ndim == 0 else
                                                                    upd.reshape((-1,) + tuple(shape[1:]))[:pos]))
        raise err


def partial_scatter(err: BaseException) -> Any:
    """The write a scatter's kernel made before its index error `err` (TF's CPU scatter kernels write in place as
    they go: ScatterFunctor the rows before the first bad index, DoScatterNd every good row), or None."""
    return getattr(err, "_simdist_partial", None)


def _dims(shape: Any) -> str:
    """A shape as TF's kernels print it (TensorShape::DebugString): [2,3], no spaces."""
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _rebuild_resource_variable(value: np.ndarray, dtype: str, name: str, device: str, trainable: bool) -> ResourceVariable:
    return ResourceVariable(value, trainable=trainable, name=name, dtype=dtype, device=device)


def _scoped_name(name: Any) -> str:
    """A new variable's name as TF's `ops.name_scope(name, "Variable")` makes it: below the current name scope, a
    name ending in "/" taken as absolute (its "/" dropped), None the default "Variable"; a name that is not a
    string is name_scope's ValueError; "" stays "" (observed: ":0")."""
    from simdist.runtime import name_scopes
    if name is None:
        name = "Variable"
    if name == "":
        return name
    if not isinstance(name, str):
        raise ValueError("name for name_scope must be a string.")
    if name.endswith("/"):
        return name[:-1]
    return name_scopes._current() + name


def _as_synchronization(s: Any) -> VariableSynchronization:
    """A VariableSynchronization from the enum, None (AUTO), a name or TF's integer value."""
    if isinstance(s, VariableSynchronization):
        return s
    if s is None:
        return VariableSynchronization.AUTO
    try:   # (TF's VariableSynchronization(s): a name such as "on_read" is ValueError, an int is its value)
        return VariableSynchronization(int(s))   # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise ValueError(f"Invalid variable synchronization mode: {s}") from None


def _as_aggregation(a: Any) -> Any:
    """A variable's aggregation: the enum member given (V2 or v1), the v1 NONE when None (TF's
    validate_synchronization_aggregation_trainable), else VariableAggregationV2 of a name or value."""
    if isinstance(a, (VariableAggregationV2, VariableAggregationV1)):
        return a
    if a is None:
        return VariableAggregationV1.NONE
    try:   # (TF's VariableAggregationV2(a): a name such as "sum" is ValueError, an int is its value)
        return VariableAggregation(int(a))
    except (TypeError, ValueError):
        raise ValueError(f"Invalid variable aggregation mode: {a}") from None
