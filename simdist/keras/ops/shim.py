"""What Keras 3.15's TensorFlow backend modules import from the rest of Keras, on simdist: the
transcribed modules (tf_numpy.py, tf_math.py, tf_nn.py, tf_linalg.py) import these names
instead of keras.src's, so their bodies stay Keras's text.

- `convert_to_tensor`, `cast`, `shape_op`: keras/src/backend/tensorflow/core.py's;
- `standardize_dtype`, `dtypes.result_type`: Keras's dtype names and promotion
  (simdist/keras/dtype_promotion.py);
- `sparse`: Keras's sparse decorators; simdist's keras.ops take dense tensors, so each
  decorator returns the function unchanged (a tf.SparseTensor argument is not supported);
- `tree`: map_structure/flatten over nested structures (tf.nest)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, Callable

from simdist import tf as _simdist_tf
from simdist.keras import config
from simdist.keras import dtype_policies as _dtype_policies
from simdist.keras import dtype_promotion
from simdist.keras.losses._ops import cast as _dense_cast
from simdist.keras.losses._ops import convert_to_tensor as _convert_to_tensor


def cast(x: Any, dtype: Any) -> Any:
    """Keras's backend `cast` (core.py): a tf.SparseTensor (bincount(sparse=True)'s output) cast as a whole, its
    shape kept; anything else as a dense tensor."""
    if isinstance(x, _simdist_tf.SparseTensor):
        return _simdist_tf.cast(x, dtype)
    if isinstance(x, _simdist_tf.Variable):
        # tf.cast gives a tf.Variable of the asked dtype back itself: `keras.ops.norm(variable, ord=2)` then reaches
        # moveaxis's `x.ndim` (TF's AttributeError; fz51b seed 51103 #56)
        return _simdist_tf.cast(x, standardize_dtype(dtype))
    return _dense_cast(x, dtype)


class _RaggedTensor:
    """simdist has no ragged tensors: nothing is an instance of this (Keras's isinstance tests)."""


def _smart_cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any], name: str | None = None) -> Any:
    """TF's smart_cond: a Python/static predicate picks its branch now, else tf.cond."""
    static = pred if isinstance(pred, bool) else None
    if static is None and isinstance(pred, _simdist_tf.Tensor) and pred.shape.rank == 0:
        return _simdist_tf.cond(pred, true_fn, false_fn)
    if static is None:
        static = bool(pred)
    return true_fn() if static else false_fn()


def _finfo(dtype: Any) -> Any:
    import ml_dtypes
    return ml_dtypes.finfo(_simdist_tf.as_dtype(dtype).as_numpy_dtype)


def _select(condlist: Any, choicelist: Any, default: Any = 0) -> Any:
    """tf.experimental.numpy.select itself (np_array_ops.select): its choices and default promoted by tnp's
    NumPy-style result_type, not Keras's lattice (int64 with float32 is float64, int32 with float16 float64;
    TF 2.21 observed, esweep67)."""
    return _simdist_tf.experimental.numpy.select(condlist, choicelist, default=default)


def bucketize_operands(x: Any, boundaries: Any) -> tuple[Any, Any]:
    """The two sides of TF's Bucketize comparison (bucketize_op.cc: `std::upper_bound` of each input
    over a `std::vector<float>` of boundaries): the boundaries rounded to float32, and `x` flattened
    in the type C++ compares in — float64 for a float64 input (the float boundaries widened), float32
    otherwise (an int32/int64 input converted to float, as `int < float` does). Boundaries out of order
    are InvalidArgumentError, as TF's."""
    import numpy as np
    wide = x.dtype == _simdist_tf.float64
    edges = np.asarray([float(b) for b in boundaries], dtype=np.float32)
    if np.any(edges[1:] < edges[:-1]):     # BucketizeOp's constructor: std::is_sorted
        raise _simdist_tf.errors.InvalidArgumentError(None, None, "Expected sorted boundaries [Op:Bucketize]")
    edges = edges.astype(np.float64 if wide else np.float32)
    flat = _simdist_tf.reshape(_simdist_tf.cast(x, "float64" if wide else "float32"), [-1])
    return _simdist_tf.constant(edges), flat


def _bucketize(input: Any, boundaries: Any, name: str | None = None) -> Any:   # noqa: A002
    """TF's Bucketize: for each x the number of boundaries <= x (int32), compared as
    `bucketize_operands` says."""
    x = _simdist_tf.convert_to_tensor(input)
    edges, flat = bucketize_operands(x, boundaries)
    out = _simdist_tf.searchsorted(edges, flat, side="right", out_type=_simdist_tf.int32)
    return _simdist_tf.reshape(out, _simdist_tf.shape(x))


def _unique_v2(x: Any, axis: Any, counts: bool) -> Any:
    """TF's UniqueV2 / UniqueWithCountsV2 along one axis: the distinct slices in order of first
    appearance, each slice's index among them, and (with counts) how often each appears."""
    import numpy as np
    x = _simdist_tf.convert_to_tensor(x)
    a = int(axis[0])
    arr = np.moveaxis(x.numpy(), a, 0)
    keys: dict[bytes, int] = {}
    first: list[int] = []
    idx = np.empty(arr.shape[0], np.int32)
    for i in range(arr.shape[0]):
        k = np.ascontiguousarray(arr[i]).tobytes()
        if k not in keys:
            keys[k] = len(first)
            first.append(i)
        idx[i] = keys[k]
    y = _simdist_tf.gather(x, first, axis=a)
    inv = _simdist_tf.constant(idx)
    if counts:
        return y, inv, _simdist_tf.constant(np.bincount(idx, minlength=len(first)).astype(np.int32))
    return y, inv


class _EagerTensorType(type):
    def __instancecheck__(cls, x: Any) -> bool:
        return isinstance(x, _simdist_tf.Tensor) and not _simdist_tf.is_symbolic_tensor(x)


class _EagerTensor(metaclass=_EagerTensorType):
    """TF's EagerTensor for isinstance tests: a tensor with a value, not a graph tensor of the running
    tf.function (Keras's crossentropies look at a graph tensor's producing op: clause
    keras.loss.logits-shortcut)."""


class _TF:
    """simdist.tf with the few names Keras's TF backend reads that simdist's facade does not have:
    `RaggedTensor` (for isinstance tests), `__internal__.EagerTensor`/`smart_cond`/`tf2.enabled`
    (TF 2 behaviour: True)/`eager_context.eager_mode`,
    `experimental.numpy.finfo`/`select` and `raw_ops.Bucketize`/`UniqueV2`/`UniqueWithCountsV2`."""

    RaggedTensor = _RaggedTensor
    __internal__ = SimpleNamespace(EagerTensor=_EagerTensor,
                                   smart_cond=SimpleNamespace(smart_cond=_smart_cond),
                                   tf2=SimpleNamespace(enabled=lambda: True),
                                   eager_context=SimpleNamespace(eager_mode=_simdist_tf.init_scope))
    experimental = SimpleNamespace(numpy=SimpleNamespace(finfo=_finfo, select=_select))
    raw_ops = SimpleNamespace(ImageProjectiveTransformV3=_simdist_tf.raw_ops.ImageProjectiveTransformV3,
                              Bucketize=_bucketize,
                              UniqueV2=lambda x, axis, out_idx=None: _unique_v2(x, axis, False),
                              UniqueWithCountsV2=lambda x, axis, out_idx=None: _unique_v2(x, axis, True))

    def __getattr__(self, name: str) -> Any:
        return getattr(_simdist_tf, name)


tf = _TF()


def convert_to_tensor(x: Any, dtype: Any = None, sparse: Any = None, ragged: Any = None) -> Any:
    """Keras's TF-backend convert_to_tensor: a SparseTensor or RaggedTensor stays one (cast to `dtype`) unless
    `sparse` / `ragged` is False, which densifies it, as Keras's backend/tensorflow/core.py does."""
    if isinstance(x, _simdist_tf.SparseTensor):
        if sparse is not None and not sparse:
            x = _simdist_tf.sparse.to_dense(x)
        elif dtype is not None and _simdist_tf.as_dtype(dtype) != x.dtype:
            return _simdist_tf.cast(x, dtype)
        else:
            return x
    if isinstance(x, _simdist_tf.RaggedTensor):
        if ragged is not None and not ragged:
            x = x.to_tensor()
        elif dtype is not None and _simdist_tf.as_dtype(dtype) != x.dtype:
            return _simdist_tf.cast(x, dtype)
        else:
            return x
    if isinstance(x, _simdist_tf.Variable) and (dtype is None or standardize_dtype(dtype) == x.dtype.name):
        # tf.is_tensor(tf.Variable) is True, so Keras's backend returns a tf.Variable itself (no read): the
        # backend's next `x.ndim` is then TF's AttributeError "'ResourceVariable' object has no attribute 'ndim'"
        # (keras.ops.swapaxes / argmax / diag / diff of a tf.Variable on TF 2.21; fz51b).
        return x
    return _convert_to_tensor(x, dtype=dtype)


def dynamic_update_slice(inputs: Any, updates: Any, start_indices: Any) -> Any:
    """XLA's DynamicUpdateSlice: `updates` written into `inputs` at `start_indices`, each start
    clamped to [0, dim - update dim]."""
    import numpy as np
    inputs = _simdist_tf.convert_to_tensor(inputs)
    updates = _simdist_tf.cast(_simdist_tf.convert_to_tensor(updates), inputs.dtype)
    dims, upd = inputs.shape.as_list(), updates.shape.as_list()
    starts = [int(s.numpy()) if isinstance(s, _simdist_tf.Tensor) else int(s) for s in start_indices]
    starts = [min(max(s, 0), d - u) for s, d, u in zip(starts, dims, upd)]
    grid = np.stack(np.meshgrid(*[np.arange(s, s + u) for s, u in zip(starts, upd)], indexing="ij"), axis=-1)

    @_simdist_tf.custom_gradient
    def xla_op(x: Any, u: Any) -> Any:
        def grad(dy: Any) -> Any:
            # (TF registers no gradient for XlaDynamicUpdateSlice: a tape or tf.gradients reaching it is LookupError;
            # fz52, fz51b_gen seed 52001 #0: keras.ops.slice_update under a GradientTape)
            raise LookupError("gradient registry has no entry for: XlaDynamicUpdateSlice")
        return _simdist_tf.tensor_scatter_nd_update(x, grid.reshape(-1, len(dims)), _simdist_tf.reshape(u, [-1])), grad
    return xla_op(inputs, updates)


__all__ = ["tf", "config", "backend", "standardize_dtype", "dtypes", "sparse", "tree",
           "cast", "convert_to_tensor", "shape_op", "is_nan", "is_int_dtype", "is_float_dtype"]

FLOAT_TYPES = ("bfloat16", "float16", "float32", "float64")
INT_TYPES = ("uint8", "uint16", "uint32", "uint64", "int8", "int16", "int32", "int64")


def standardize_dtype(dtype: Any) -> str:
    """Keras's dtype name (keras/src/backend/common/variables.py standardize_dtype): None -> floatx; Python
    int/float/bool -> int64/float32/bool; a name outside Keras's ALLOWED_DTYPES ("floaty", and TF-only aliases such
    as "float" or "double") is Keras's ValueError "Invalid dtype: ...", as `ops.cast(x, "floaty")` raises on TF 2.21
    (cov48; it was tf.as_dtype's TypeError)."""
    return _dtype_policies.standardize_dtype(dtype)


def is_int_dtype(dtype: Any) -> bool:
    return standardize_dtype(dtype) in INT_TYPES


def is_float_dtype(dtype: Any) -> bool:
    return standardize_dtype(dtype) in FLOAT_TYPES


dtypes = SimpleNamespace(result_type=dtype_promotion.result_type, INT_TYPES=INT_TYPES, FLOAT_TYPES=FLOAT_TYPES,
                         ALLOWED_DTYPES=FLOAT_TYPES + INT_TYPES + ("bool", "string", "complex64", "complex128"))


def _same(func: Callable[..., Any]) -> Callable[..., Any]:
    return func


def _same_factory(*args: Any, **kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return _same


class _Sparse:
    """A stand-in for Keras's sparse module while tf_sparse.py (its transcription, which imports this module) loads;
    `sparse` is rebound to tf_sparse at the end of this module, so the transcribed functions' decorators keep a
    SparseTensor or IndexedSlices sparse as Keras's TF backend does."""

    elementwise_unary = staticmethod(_same)
    densifying_unary = staticmethod(_same_factory)
    elementwise_binary_union = staticmethod(_same_factory)
    elementwise_binary_intersection = staticmethod(_same)
    elementwise_division = staticmethod(_same)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise NotImplementedError(f"simdist's keras.ops take dense tensors: sparse.{name} is not modelled")
        return refuse


sparse = _Sparse()


def _map_structure(fn: Callable[..., Any], *structures: Any, **kwargs: Any) -> Any:
    return tf.nest.map_structure(fn, *structures)


def _assert_same_structure(a: Any, b: Any, check_types: Any = None) -> None:
    """keras.tree.assert_same_structure (optree's: list and tuple differ; check_types has no effect)."""
    tf.nest.assert_same_structure(a, b, check_types=True)


tree = SimpleNamespace(map_structure=_map_structure, flatten=tf.nest.flatten, is_nested=tf.nest.is_nested,
                       pack_sequence_as=tf.nest.pack_sequence_as, assert_same_structure=_assert_same_structure)


def shape_op(x: Any) -> tuple:
    """Keras's `ops.shape` for the TF backend: a tuple of ints (a tensor where a dimension is unknown)."""
    if not isinstance(x, tf.Tensor):
        x = tf.convert_to_tensor(x)
    if x.shape.rank is None:
        raise ValueError("All tensors passed to `ops.shape` must have a statically known rank. "
                         f"Received: x={x} with unknown rank.")
    dims = x.shape.as_list()
    if any(d is None for d in dims):
        dynamic = tf.shape(x)
        dims = [dynamic[i] if d is None else d for i, d in enumerate(dims)]
    return tuple(dims)


is_nan = _simdist_tf.math.is_nan


def sparse_to_dense(x: Any, default_value: Any = None) -> Any:
    """Keras's TF-backend sparse_to_dense (tf_sparse.py; looked up on call, as that module imports this one)."""
    return sparse.sparse_to_dense(x, default_value)


def _standardize_data_format(data_format: Any) -> str:
    from simdist.keras.layers.argument_validation import standardize_data_format
    return standardize_data_format(data_format)


class _Backend:
    """keras.src.backend as the transcribed tf_*.py modules read it (its numpy/nn/... modules
    looked up when used: they import this module)."""

    is_int_dtype = staticmethod(lambda d: standardize_dtype(d) in INT_TYPES)
    is_float_dtype = staticmethod(lambda d: standardize_dtype(d) in FLOAT_TYPES)
    epsilon = staticmethod(config.epsilon)
    image_data_format = staticmethod(config.image_data_format)
    result_type = staticmethod(dtype_promotion.result_type)
    standardize_dtype = staticmethod(standardize_dtype)
    standardize_data_format = staticmethod(_standardize_data_format)
    floatx = staticmethod(config.floatx)

    def __getattr__(self, name: str) -> Any:
        if name in ("numpy", "nn", "math", "linalg", "core"):
            import importlib
            return importlib.import_module(f"simdist.keras.ops.tf_{name}")
        raise AttributeError(name)


backend = _Backend()


from simdist.keras.ops import tf_sparse as sparse  # noqa: E402 - tf_sparse imports this module's names
