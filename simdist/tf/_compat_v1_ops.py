"""`tf.compat.v1`'s functions whose TF 1 signatures or semantics differ from their TF 2 names
(TF 2.21's v1 API, read and run): they are what v1-era code and Keras's legacy backend
(`tf.keras.backend`, simdist/keras/legacy_backend.py) call.

- `where(c, x, y)` is the Select op (no broadcasting: a scalar condition picks x or y, a vector
  one picks rows, anything else must have x's shape), `where(c)` the indices;
- `cond(..., strict=False)` unpacks a singleton list or tuple result; `while_loop(...,
  return_same_structure=False)` over one loop variable packs a body's bare result and returns it
  bare;
- `math.in_top_k(predictions, targets, k)` (arguments in v1 order), `nn.convolution(input,
  filter, padding, strides, dilation_rate, ...)`, `nn.max_pool`/`avg_pool(value, ksize, strides,
  padding, data_format)`, `nn.conv2d_transpose(value, filter, output_shape, strides, ...)`;
- `gather`, `gather_nd`, `boolean_mask`, `pad`, `map_fn`, `foldl`, `foldr`, `scan`,
  `gradients`, `sparse_concat`: the v2 functions under the v1 argument order;
- `assign`, `assign_add`, `assign_sub` of a variable; `random_normal_initializer` and
  `random_uniform_initializer` (v1 initializer classes: `init(shape, dtype=None)`)."""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import errors

__all__ = ["where", "cond", "while_loop", "in_top_k", "convolution", "max_pool", "avg_pool", "conv2d_transpose",
           "gather", "gather_nd", "boolean_mask", "pad", "map_fn", "foldl", "foldr", "scan", "gradients",
           "sparse_concat", "assign", "assign_add", "assign_sub", "random_normal_initializer",
           "random_uniform_initializer"]


def _tf() -> Any:
    from simdist import tf
    return tf


def _dims(t: Any) -> str:
    return "[" + ",".join(str(d) for d in t.shape.as_list()) + "]"


def where(condition: Any, x: Any = None, y: Any = None, name: str | None = None) -> Any:
    """v1 `where`: the Select op (select_op.cc) when x and y are given, else the indices."""
    tf = _tf()
    if x is None and y is None:
        return tf.where(condition)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    c = tf.convert_to_tensor(condition)
    t = tf.convert_to_tensor(x)
    e = tf.convert_to_tensor(y, dtype=t.dtype)
    if c.shape.rank == 0:
        if t.shape.as_list() != e.shape.as_list():
            raise errors.InvalidArgumentError(None, None, "'then' and 'else' must have the same size.  but received: "
                                              f"{_dims(t)} vs. {_dims(e)} [Op:Select]")
        return tf.where(c, t, e)
    if c.shape.rank == 1 and t.shape.rank != 1:
        if t.shape.rank == 0:
            raise errors.InvalidArgumentError(None, None, f"'then' must be at least a vector, but saw shape: {_dims(t)} "
                                              "[Op:Select]")
        if t.shape.as_list()[0] != c.shape.as_list()[0]:
            raise errors.InvalidArgumentError(None, None, "Number of batches of 'then' must match size of 'cond', but "
                                              f"saw: {t.shape.as_list()[0]} vs. {c.shape.as_list()[0]} [Op:Select]")
        if t.shape.as_list() != e.shape.as_list():
            raise errors.InvalidArgumentError(None, None, "'then' and 'else' must have the same size.  but received: "
                                              f"{_dims(t)} vs. {_dims(e)} [Op:Select]")
        return tf.where(tf.reshape(c, [-1] + [1] * (t.shape.rank - 1)), t, e)
    for i, other in ((1, t), (2, e)):
        if other.shape.as_list() != c.shape.as_list():
            raise errors.InvalidArgumentError(None, None, "Inputs to operation Select of type Select must have the same "
                                              f"size and shape.  Input 0: {_dims(c)} != input {i}: {_dims(other)} "
                                              "[Op:Select]")
    return tf.where(c, t, e)


def _unpack_singleton(value: Any) -> Any:
    if isinstance(value, (list, tuple)) and len(value) == 1:
        return value[0]
    return value


def cond(pred: Any, true_fn: Callable[[], Any] | None = None, false_fn: Callable[[], Any] | None = None,
         strict: bool = False, name: str | None = None, fn1: Any = None, fn2: Any = None) -> Any:
    """v1 `cond`: v2's, a singleton list/tuple result unpacked unless strict — eagerly only (cond.py
    `_eager_cond_implementation`); inside a tf.function TF 2.21 calls cond_v2, which keeps the structure."""
    from simdist.runtime import context
    out = _tf().cond(pred, true_fn if true_fn is not None else fn1, false_fn if false_fn is not None else fn2)
    return out if strict or context.in_function() else _unpack_singleton(out)


def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any, shape_invariants: Any = None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               name: str | None = None, maximum_iterations: Any = None, return_same_structure: bool = False) -> Any:
    """v1 `while_loop` (while_loop.py's eager loop): with one loop variable and not
    return_same_structure, a body returning a bare value is packed, and the result is that
    value bare; otherwise v2's. With maximum_iterations TF loops over (counter, loop_vars[0])
    and returns the second element, so one loop variable comes back bare even when the body
    never ran (`maximum_iterations=0`; without it, a loop that never runs returns the list)."""
    try_to_pack = isinstance(loop_vars, (list, tuple)) and len(loop_vars) == 1 and not return_same_structure
    packed = [False]
    ran = [False]

    def v1_body(*args: Any) -> Any:
        ran[0] = True
        out = body(*args)
        if try_to_pack and not isinstance(out, (list, tuple)):
            packed[0] = True
            return (out,) if isinstance(loop_vars, tuple) else [out]
        return out

    out = _tf().while_loop(cond, v1_body, loop_vars, shape_invariants=shape_invariants,
                           parallel_iterations=parallel_iterations, maximum_iterations=maximum_iterations)
    bare_unrun = maximum_iterations is not None and try_to_pack and not ran[0]
    return out[0] if packed[0] or bare_unrun else out


def in_top_k(predictions: Any, targets: Any, k: int, name: str | None = None) -> Any:
    return _tf().math.in_top_k(targets, predictions, k)


def convolution(input: Any, filter: Any = None, padding: Any = None, strides: Any = None,  # noqa: A002
                dilation_rate: Any = None, name: str | None = None, data_format: Any = None, filters: Any = None,
                dilations: Any = None) -> Any:
    return _tf().nn.convolution(input, filter if filter is not None else filters, strides=strides, padding=padding,
                                data_format=data_format,
                                dilations=dilation_rate if dilation_rate is not None else dilations)


def max_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC", name: str | None = None,
             input: Any = None) -> Any:  # noqa: A002
    from simdist.runtime.ops import pooling   # (v1 max_pool: no rank read, an unknown one pooled in 2-D)
    return pooling.max_pool_any_rank(value if value is not None else input, ksize, strides, padding,
                                     data_format=data_format)


def avg_pool(value: Any, ksize: Any, strides: Any, padding: Any, data_format: str = "NHWC", name: str | None = None,
             input: Any = None) -> Any:  # noqa: A002
    from simdist.runtime.ops import pooling   # (v1 avg_pool: no rank read, an unknown one pooled in 2-D)
    return pooling.avg_pool_any_rank(value if value is not None else input, ksize, strides, padding,
                                     data_format=data_format)


def conv2d_transpose(value: Any = None, filter: Any = None, output_shape: Any = None, strides: Any = None,  # noqa: A002
                     padding: str = "SAME", data_format: str = "NHWC", name: str | None = None, input: Any = None,
                     filters: Any = None, dilations: Any = None) -> Any:  # noqa: A002
    return _tf().nn.conv2d_transpose(value if value is not None else input, filter if filter is not None else filters,
                                     output_shape, strides, padding=padding, data_format=data_format,
                                     dilations=dilations)


def gather(params: Any, indices: Any, validate_indices: Any = None, name: str | None = None, axis: Any = None,
           batch_dims: int = 0) -> Any:
    return _tf().gather(params, indices, axis=axis, batch_dims=batch_dims)


def gather_nd(params: Any, indices: Any, name: str | None = None, batch_dims: int = 0) -> Any:
    return _tf().gather_nd(params, indices, batch_dims=batch_dims)


def boolean_mask(tensor: Any, mask: Any, name: str = "boolean_mask", axis: Any = None) -> Any:
    return _tf().boolean_mask(tensor, mask, axis=axis)


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", name: str | None = None, constant_values: Any = 0) -> Any:
    return _tf().pad(tensor, paddings, mode=mode, constant_values=constant_values)


def map_fn(fn: Callable[..., Any], elems: Any, dtype: Any = None, parallel_iterations: Any = None,
           back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, name: str | None = None,
           fn_output_signature: Any = None) -> Any:
    return _tf().map_fn(fn, elems, dtype=dtype, fn_output_signature=fn_output_signature)


def foldl(fn: Callable[..., Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None) -> Any:
    return _tf().foldl(fn, elems, initializer=initializer)


def foldr(fn: Callable[..., Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
          back_prop: bool = True, swap_memory: bool = False, name: str | None = None) -> Any:
    return _tf().foldr(fn, elems, initializer=initializer)


def scan(fn: Callable[..., Any], elems: Any, initializer: Any = None, parallel_iterations: int = 10,
         back_prop: bool = True, swap_memory: bool = False, infer_shape: bool = True, reverse: bool = False,
         name: str | None = None) -> Any:
    return _tf().scan(fn, elems, initializer=initializer, reverse=reverse)


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients", colocate_gradients_with_ops: bool = False,
              gate_gradients: bool = False, aggregation_method: Any = None, stop_gradients: Any = None,
              unconnected_gradients: Any = "none") -> Any:
    return _tf().gradients(ys, xs, grad_ys=grad_ys, stop_gradients=stop_gradients,
                           unconnected_gradients=unconnected_gradients)


def sparse_concat(axis: Any, sp_inputs: Any, name: str | None = None, expand_nonconcat_dim: bool = False,
                  concat_dim: Any = None, expand_nonconcat_dims: Any = None) -> Any:
    expand = expand_nonconcat_dim if expand_nonconcat_dims is None else expand_nonconcat_dims
    return _tf().sparse.concat(axis if concat_dim is None else concat_dim, sp_inputs, expand_nonconcat_dims=expand)


def assign(ref: Any, value: Any, validate_shape: Any = None, use_locking: Any = None, name: str | None = None) -> Any:
    return ref.assign(value)


def assign_add(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    return ref.assign_add(value)


def assign_sub(ref: Any, value: Any, use_locking: Any = None, name: str | None = None) -> Any:
    return ref.assign_sub(value)


def _v1_scatter(kind: str, op: str) -> Any:
    """tf.compat.v1.scatter_* / scatter_nd_* (TF 2.21 state_ops): on a resource variable the Resource* kernel of
    `ref.handle` with `updates` converted to the variable's dtype, then `ref._lazy_read` — the variable's own
    scatter write taking bare indices and updates (no IndexedSlices); use_locking is ignored (clause
    ops.compat-v1; gsweep63 g-scatter-variables)."""
    def fn(ref: Any, indices: Any, updates: Any, use_locking: Any = None, name: str | None = None) -> Any:
        return ref._scatter(kind, indices, updates, op)
    fn.__name__ = fn.__qualname__ = kind
    return fn


scatter_update = _v1_scatter("scatter_update", "ResourceScatterUpdate")
scatter_add = _v1_scatter("scatter_add", "ResourceScatterAdd")
scatter_sub = _v1_scatter("scatter_sub", "ResourceScatterSub")
scatter_mul = _v1_scatter("scatter_mul", "ResourceScatterMul")
scatter_div = _v1_scatter("scatter_div", "ResourceScatterDiv")
scatter_max = _v1_scatter("scatter_max", "ResourceScatterMax")
scatter_min = _v1_scatter("scatter_min", "ResourceScatterMin")
scatter_nd_update = _v1_scatter("scatter_nd_update", "ResourceScatterNdUpdate")
scatter_nd_add = _v1_scatter("scatter_nd_add", "ResourceScatterNdAdd")
scatter_nd_sub = _v1_scatter("scatter_nd_sub", "ResourceScatterNdSub")


class random_normal_initializer:  # noqa: N801 - TF's v1 name
    """v1 RandomNormal: `init(shape, dtype=None)` is `tf.random.normal(shape, mean, stddev, dtype, seed)`."""

    def __init__(self, mean: float = 0.0, stddev: float = 1.0, seed: Any = None, dtype: Any = None) -> None:
        tf = _tf()
        self.mean, self.stddev, self.seed = mean, stddev, seed
        self.dtype = tf.as_dtype(dtype if dtype is not None else tf.float32)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        tf = _tf()
        return tf.random.normal(shape, self.mean, self.stddev, tf.as_dtype(dtype or self.dtype), seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed, "dtype": self.dtype.name}


class random_uniform_initializer:  # noqa: N801 - TF's v1 name
    """v1 RandomUniform: `init(shape, dtype=None)` is `tf.random.uniform(shape, minval, maxval, dtype, seed)`."""

    def __init__(self, minval: float = 0.0, maxval: Any = None, seed: Any = None, dtype: Any = None) -> None:
        tf = _tf()
        self.minval, self.maxval, self.seed = minval, maxval, seed
        self.dtype = tf.as_dtype(dtype if dtype is not None else tf.float32)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
        tf = _tf()
        return tf.random.uniform(shape, self.minval, self.maxval, tf.as_dtype(dtype or self.dtype), seed=self.seed)

    def get_config(self) -> dict[str, Any]:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed, "dtype": self.dtype.name}
