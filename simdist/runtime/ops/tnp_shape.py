"""tnp's shape manipulation (TF 2.21's np_array_ops.py: reshape, transpose, swapaxes, moveaxis,
stack/concatenate and the h/v/d variants, split, atleast_nd, broadcast, flip, roll, rot90, tile,
repeat, pad, append, shape/ndim/size). Joined operands are promoted to their common NumPy
result type first.
"""

from __future__ import annotations

import builtins
from typing import Any

import numpy as np

from simdist.runtime import dtypes
from simdist.runtime.ops import tnp_arrays as _arr
from simdist.runtime.ops import tnp_dtypes as _dt
from simdist.runtime.ops.array import (broadcast_to as _broadcast_to, concat, rank, reshape as _reshape, shape as _shape,
                                       size as _size, split as _split, stack as _stack, transpose as _transpose)
from simdist.runtime.tensor import Tensor


def tf_broadcast(*args: Tensor) -> list:
    """np_utils.tf_broadcast: every tensor broadcast to their common shape."""
    from simdist.runtime.ops.array_more import broadcast_dynamic_shape
    if len(args) <= 1:
        return list(args)
    sh = _shape(args[0])
    for arg in args[1:]:
        sh = broadcast_dynamic_shape(sh, _shape(arg))
    return [_broadcast_to(arg, sh) for arg in args]


def reshape(a: Any, newshape: Any, order: str = "C") -> Tensor:
    """`tnp.reshape` (order 'F' reverses the axes around the reshape)."""
    if order not in {"C", "F"}:
        raise ValueError(f"Unsupported order argument {order}")
    a = _arr.asarray(a)
    if isinstance(newshape, int):
        newshape = [newshape]
    if order == "F":
        return _transpose(_reshape(_transpose(a), newshape[::-1]))
    return _reshape(a, newshape)


def ravel(a: Any) -> Tensor:
    """`tnp.ravel`: reshape to [-1]."""
    return _reshape(_arr.asarray(a), [-1])


def flatten(a: Any, order: str = "C") -> Tensor:
    """`tnp.flatten`: row major ('C', 'A', 'K') or column major ('F')."""
    a = _arr.asarray(a)
    if order in ("C", "A", "K"):
        return _reshape(a, [-1])
    if order == "F":
        return _reshape(_transpose(a), [-1])
    raise ValueError("order can only be C, A, K (all row major) or F (column major).")


def expand_dims(a: Any, axis: Any) -> Tensor:
    """`tnp.expand_dims`: tf.expand_dims."""
    from simdist.runtime.ops.array import expand_dims as _expand_dims
    return _expand_dims(_arr.asarray(a), axis=axis)


def squeeze(a: Any, axis: Any = None) -> Tensor:
    """`tnp.squeeze`: tf.squeeze."""
    from simdist.runtime.ops.array import squeeze as _squeeze
    return _squeeze(_arr.asarray(a), axis)


def transpose(a: Any, axes: Any = None) -> Tensor:
    """`tnp.transpose`: tf.transpose (axes asarray'd)."""
    a = _arr.asarray(a)
    if axes is not None:
        axes = _arr.asarray(axes)
    return _transpose(a=a, perm=axes)


def swapaxes(a: Any, axis1: int, axis2: int) -> Tensor:
    """`tnp.swapaxes`: the transpose exchanging two axes (negative axes count from the end)."""
    a = _arr.asarray(a)
    r = a.shape.rank
    axis1 = axis1 + r if axis1 < 0 else axis1
    axis2 = axis2 + r if axis2 < 0 else axis2
    perm = list(range(r))
    perm[axis1] = axis2
    perm[axis2] = axis1
    return _transpose(a, perm)


def moveaxis(a: Any, source: Any, destination: Any) -> Tensor:
    """`tnp.moveaxis`: axes moved from `source` to `destination`, the others in order."""
    if not source and not destination:
        return a
    a = _arr.asarray(a)
    if isinstance(source, int):
        source = (source,)
    if isinstance(destination, int):
        destination = (destination,)
    if len(source) != len(destination):
        raise ValueError("The lengths of source and destination must equal")
    r = a.shape.rank
    source = tuple(ax + r if ax < 0 else ax for ax in source)
    destination = tuple(ax + r if ax < 0 else ax for ax in destination)
    perm = [i for i in range(r) if i not in source]
    for dest, src in sorted(zip(destination, source)):
        assert dest <= len(perm)
        perm.insert(dest, src)
    return _transpose(a, perm)


def concatenate(arys: Any, axis: int = 0) -> Tensor:
    """`tnp.concatenate`: tf.concat at the common result type."""
    if not isinstance(arys, (list, tuple)):
        arys = [arys]
    if not arys:
        raise ValueError(f"Need at least one array to concatenate. Received empty input: arys={arys}")
    dtype = _dt.result_type(*arys)
    return concat([_arr.array(x, dtype=dtype) for x in arys], axis)


def append(arr: Any, values: Any, axis: Any = None) -> Tensor:
    """`tnp.append`: concatenate of both raveled, or along `axis`."""
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis=axis)


def stack(arrays: Any, axis: int = 0) -> Tensor:
    """`tnp.stack`: tf.stack at the common result type (a single tensor: its axis 0 moved)."""
    if isinstance(arrays, Tensor):
        arrays = _arr.asarray(arrays)
        return arrays if axis == 0 else swapaxes(arrays, 0, axis)
    arrays = _arr.promote_dtype(*arrays)
    return _arr.asarray(_stack(arrays, axis))


def hstack(tup: Any) -> Tensor:
    """`tnp.hstack`: concat along axis 1 (axis 0 for 1-D) of atleast_1d's."""
    arrays = _arr.promote_dtype(*[atleast_1d(a) for a in tup])
    return concat(arrays, axis=0 if arrays[0].shape.rank == 1 else 1)


def vstack(tup: Any) -> Tensor:
    """`tnp.vstack`: concat along axis 0 of atleast_2d's."""
    return concat(_arr.promote_dtype(*[atleast_2d(a) for a in tup]), axis=0)


def dstack(tup: Any) -> Tensor:
    """`tnp.dstack`: concat along axis 2 of atleast_3d's."""
    return concat(_arr.promote_dtype(*[atleast_3d(a) for a in tup]), axis=2)


def _pad_left_to(n: int, old_shape: Any) -> Tensor:
    """np_array_ops._pad_left_to: a shape padded on the left with ones to length n."""
    from simdist.runtime.ops.math import maximum
    from simdist.runtime.ops.slicing import pad
    old_shape = _arr.asarray(old_shape, dtype=np.int32)
    return _arr.asarray(pad(old_shape, [[maximum(n - _size(old_shape), 0), 0]], constant_values=1))


def _atleast_nd(n: int, new_shape: Any, *arys: Any) -> Any:
    def f(x: Any) -> Tensor:
        x = _arr.asarray(x)
        if n > x.shape.rank:
            return _arr.asarray(reshape(x, new_shape(n, _shape(x))))
        return _arr.asarray(x)
    out = [f(x) for x in arys]
    return out[0] if len(out) == 1 else out


def atleast_1d(*arys: Any) -> Any:
    """`tnp.atleast_1d`: scalars reshaped to [1]."""
    return _atleast_nd(1, _pad_left_to, *arys)


def atleast_2d(*arys: Any) -> Any:
    """`tnp.atleast_2d`: ones prepended to the shape up to rank 2."""
    return _atleast_nd(2, _pad_left_to, *arys)


def atleast_3d(*arys: Any) -> Any:
    """`tnp.atleast_3d`: () -> [1, 1, 1], [n] -> [1, n, 1], [m, n] -> [m, n, 1]."""
    from simdist.runtime.ops.slicing import pad

    def new_shape(_: int, old_shape: Tensor) -> Any:
        nd = old_shape.shape[0]
        if nd == 0:
            return [1, 1, 1]
        return pad(old_shape, [[1, 1]] if nd == 1 else [[0, 1]], constant_values=1)
    return _atleast_nd(3, new_shape, *arys)


def _boundaries_to_sizes(a: Tensor, boundaries: Any, axis: int) -> list:
    a_shape = _arr.graph_shape(a)
    if axis >= len(a_shape):
        raise ValueError(f"axis {axis} is out of bound for shape {a_shape}")
    total_size = a_shape[axis]
    sizes, sizes_sum, prev = [], 0, 0
    for i, b in enumerate(boundaries):
        size = b - prev
        if size < 0:
            raise ValueError(f"The {i}-th boundary {b} is smaller than the previous boundary {prev}")
        size = builtins.min(size, builtins.max(0, total_size - sizes_sum))
        sizes.append(size)
        sizes_sum += size
        prev = b
    sizes.append(builtins.max(0, total_size - sizes_sum))
    return sizes


def split(ary: Any, indices_or_sections: Any, axis: int = 0) -> list:
    """`tnp.split`: tf.split into equal sections, or at the boundaries given."""
    ary = _arr.asarray(ary)
    if not isinstance(indices_or_sections, int):
        indices_or_sections = _boundaries_to_sizes(ary, indices_or_sections, axis)
    return _split(ary, indices_or_sections, axis=axis)


def _split_on_axis(name: str, axis: int) -> Any:
    def f(ary: Any, indices_or_sections: Any) -> list:
        new_axis = 0 if axis == 1 and _arr.asarray(ary).shape.rank == 1 else axis
        if isinstance(indices_or_sections, int):
            ary_shape = ary.shape[new_axis] if not isinstance(ary, Tensor) else _arr.graph_shape(ary)[new_axis]
            if ary_shape is not None and ary_shape % indices_or_sections:
                raise ValueError("array split does not result in an equal division")
        return split(ary, indices_or_sections, axis=new_axis)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"`tnp.{name}`: split along axis {axis} (reads `ary.shape`: a tensor's)."
    return f


vsplit = _split_on_axis("vsplit", 0)
hsplit = _split_on_axis("hsplit", 1)
dsplit = _split_on_axis("dsplit", 2)


def broadcast_to(array: Any, shape: Any) -> Tensor:  # noqa: A002
    """`tnp.broadcast_to`: full(shape, array)."""
    from simdist.runtime.ops.tnp_creation import full
    return full(shape, array)


def broadcast_arrays(*args: Any, **kwargs: Any) -> list:
    """`tnp.broadcast_arrays`: asarray'd and broadcast to their common shape."""
    subok = kwargs.pop("subok", False)
    if subok:
        raise ValueError("subok=True is not supported.")
    if kwargs:
        raise ValueError(f"Received unsupported arguments {kwargs.keys()}")
    return tf_broadcast(*[_arr.asarray(a) for a in args])


def flip(m: Any, axis: Any = None) -> Tensor:
    """`tnp.flip`: tf.reverse along `axis` (all axes when None)."""
    from simdist.runtime.ops.array import range_
    from simdist.runtime.ops.slicing import reverse
    m = _arr.asarray(m)
    if axis is None:
        return reverse(m, range_(rank(m)))
    r = m.shape.rank
    return reverse(m, [axis + r if axis < 0 else axis])


def flipud(m: Any) -> Tensor:
    """`tnp.flipud`: flip(m, 0)."""
    return flip(m, 0)


def fliplr(m: Any) -> Tensor:
    """`tnp.fliplr`: flip(m, 1)."""
    return flip(m, 1)


def roll(a: Any, shift: Any, axis: Any = None) -> Tensor:
    """`tnp.roll`: tf.roll, of a flattened unless `axis`."""
    from simdist.runtime.ops.array_more import roll as _roll
    a = _arr.asarray(a)
    if axis is not None:
        return _roll(a, shift, axis)
    original = _shape(a)
    return _reshape(_roll(_reshape(a, [-1]), shift, 0), original)


def rot90(m: Any, k: int = 1, axes: Any = (0, 1)) -> Any:
    """`tnp.rot90`: k quarter turns in the plane of `axes` (k % 4 == 0: m as it is)."""
    r = rank(m)
    rv = int(r)
    ax1, ax2 = (ax + rv if ax < 0 else ax for ax in axes)
    k = k % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, ax1), ax2)
    perm = list(range(rv))
    perm[ax1], perm[ax2] = ax2, ax1
    if k == 1:
        return transpose(flip(m, ax2), perm)
    return flip(transpose(m, perm), ax2)


def tile(a: Any, reps: Any) -> Tensor:
    """`tnp.tile`: a and reps padded with ones on the left to one length, then tf.tile."""
    from simdist.runtime.ops.slicing import pad, tile as _tile
    from simdist.runtime.ops.math import maximum
    a = _arr.array(a)
    reps = _reshape(_arr.array(reps, dtype=dtypes.int32), [-1])
    a_rank = rank(a)
    reps_size = _size(reps)
    reps = pad(reps, [[maximum(a_rank - reps_size, 0), 0]], constant_values=1)
    a_shape = pad(_shape(a), [[maximum(reps_size - a_rank, 0), 0]], constant_values=1)
    return _tile(_reshape(a, a_shape), reps)


def repeat(a: Any, repeats: Any, axis: Any = None) -> Tensor:
    """`tnp.repeat`: tf.repeat (flattened when axis is None)."""
    from simdist.runtime.ops.repeat import repeat as _repeat
    a = _arr.asarray(a)
    return _repeat(a, _arr.asarray(repeats), axis)


def pad(array: Any, pad_width: Any, mode: str, **kwargs: Any) -> Tensor:  # noqa: A002
    """`tnp.pad`: tf.pad in mode constant, reflect or symmetric (others refused)."""
    from simdist.runtime.ops.slicing import pad as _pad
    constant_values = kwargs.get("constant_values", 0)
    if not (mode == "constant" or mode == "reflect" or mode == "symmetric"):
        raise ValueError("Unsupported padding mode: " + mode)
    array = _arr.asarray(array)
    pad_width = _arr.asarray(pad_width, dtype=dtypes.int32)
    return _pad(tensor=array, paddings=pad_width, mode=mode.upper(), constant_values=constant_values)


def shape(a: Any) -> Any:
    """`tnp.shape`: the (static) TensorShape of asarray(a)."""
    return _arr.graph_shape(_arr.asarray(a))


def ndim(a: Any) -> int:
    """`tnp.ndim`: the (static) rank of asarray(a)."""
    return _arr.graph_shape(_arr.asarray(a)).rank


def isscalar(num: Any) -> bool:
    """`tnp.isscalar`: ndim(num) == 0."""
    return ndim(num) == 0


def size(x: Any, axis: Any = None) -> Any:
    """`tnp.size`: 1 for a Python or NumPy scalar, else the number of elements (a NumPy int)."""
    if axis is not None:
        raise NotImplementedError("axis argument is not supported in the current `np.size` implementation")
    if isinstance(x, (int, float, np.int32, np.int64, np.float32, np.float64)):
        return 1
    x = _arr.asarray(x)
    if _arr.graph_shape(x).is_fully_defined():
        return np.prod(x.shape.as_list(), dtype=int)
    return _size(x)
