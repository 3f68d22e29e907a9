"""The dtypes of tf.image's box arguments (offsets and targets of crop_to_bounding_box, pad_to_bounding_box,
resize_with_crop_or_pad and resize_with_pad), as image_ops_impl's Python arithmetic and stacks give them.

TF never converts these arguments to int32: it computes `target - offset - size`, `max_(...)`/`min_(...)` and the
Slice/Pad index stacks from whatever it is given, Python numbers by Python's rules and tensors by TF's. So a Python
float reaching a tensor of int32 is that conversion's TypeError ("Cannot convert 8.0 to EagerTensor of dtype
int32"), tensors of two dtypes meeting in an op or a stack are InvalidArgumentError ("cannot compute Sub as input
#1(zero-based) was expected to be a int32 tensor but is a int64 tensor"), and float indices reaching Slice or Pad
are their attr's InvalidArgumentError (clause ops.image; TF 2.21 observed, isweep66). A value's kind is
("i", int) or ("f", float) for a Python number (NumPy scalars too) and ("t", dtype) for a tensor or variable."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime import dtypes, errors

Kind = tuple

#: the image's shape read as a tensor (array_ops.shape(image)[i]) and a height or width the graph does not know
INT32: Kind = ("t", dtypes.int32)

_CPP = {"float32": "float", "float64": "double", "float16": "half"}


def _cpp(dt: Any) -> str:
    return _CPP.get(dt.name, dt.name)


def kind(v: Any) -> Kind:
    """The kind of one argument."""
    if hasattr(v, "dtype") and (hasattr(v, "shape") and not isinstance(v, (np.generic, np.ndarray))):
        return ("t", dtypes.as_dtype(v.dtype))
    if isinstance(v, (float, np.floating)):
        return ("f", float(v))
    return ("i", int(v))


def size_kind(dim: int | None) -> Kind:
    """_ImageDimensions' entry: a static dimension is a Python int, an unknown one a tensor of int32."""
    return INT32 if dim is None else ("i", int(dim))


def _into(k: Kind, dt: Any) -> None:
    """A Python number converted to a tensor of dt: a float into an integer dtype is TypeError."""
    if k[0] == "f" and not dt.is_floating:
        raise TypeError(f"Cannot convert {k[1]!r} to EagerTensor of dtype {dt.name}")


def binary(a: Kind, b: Kind, op: str, py: Callable[[Any, Any], Any]) -> Kind:
    """a op b: Python numbers by `py`, a tensor with a Python number in the tensor's dtype, two tensors of one
    dtype (else the kernel's InvalidArgumentError)."""
    if a[0] != "t" and b[0] != "t":
        return kind(py(a[1], b[1]))
    if a[0] == "t" and b[0] == "t":
        if a[1] != b[1]:
            raise errors.InvalidArgumentError(None, None, f"cannot compute {op} as input #1(zero-based) was expected "
                                              f"to be a {_cpp(a[1])} tensor but is a {_cpp(b[1])} tensor [Op:{op}]")
        return a
    t, p = (a, b) if a[0] == "t" else (b, a)
    _into(p, t[1])
    return t


def sub(a: Kind, b: Kind) -> Kind:
    return binary(a, b, "Sub", lambda x, y: x - y)


def stack(kinds: list[Kind]) -> Any:
    """The dtype of ops.convert_to_tensor of a list of them (auto-packing): the first tensor's dtype, the others
    converted into it (another tensor dtype: Pack's InvalidArgumentError; a Python float into an integer dtype:
    TypeError); without a tensor int32, or float32 if a Python float is among them."""
    tensors = [k[1] for k in kinds if k[0] == "t"]
    if not tensors:
        return dtypes.float32 if any(k[0] == "f" for k in kinds) else dtypes.int32
    dt = tensors[0]
    for i, k in enumerate(kinds):
        if k[0] == "t" and k[1] != dt:
            raise errors.InvalidArgumentError(None, None, f"cannot compute Pack as input #{i}(zero-based) was "
                                              f"expected to be a {_cpp(dt)} tensor but is a {_cpp(k[1])} tensor "
                                              "[Op:Pack] name: stack")
        if k[0] != "t":
            _into(k, dt)
    return dt


def check_slice(oh: Kind, ow: Kind, th: Kind, tw: Kind) -> None:
    """crop_to_bounding_box's Slice(image, stack([0, oh, ow, 0]), stack([shape[0], th, tw, shape[3]]))."""
    begin = stack([("i", 0), oh, ow, ("i", 0)])
    size = stack([INT32, th, tw, INT32])
    if begin not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Index' of {_cpp(begin)} is not in the list "
                                          "of allowed values: int32, int64 [Op:Slice]")
    if begin != size:
        raise errors.InvalidArgumentError(None, None, "cannot compute Slice as input #2(zero-based) was expected to "
                                          f"be a {_cpp(begin)} tensor but is a {_cpp(size)} tensor [Op:Slice]")


def pad_afters(oh: Kind, ow: Kind, th: Kind, tw: Kind, height: Kind, width: Kind) -> tuple[Kind, Kind]:
    """pad_to_bounding_box's `target_width - offset_width - width`, then the height's (before its checks): (after
    height, after width)."""
    after_w = sub(sub(tw, ow), width)
    return sub(sub(th, oh), height), after_w


def check_pad(oh: Kind, ow: Kind, after_h: Kind, after_w: Kind) -> None:
    """pad_to_bounding_box's Pad(image, reshape(stack([0, 0, oh, after_h, ow, after_w, 0, 0]), [4, 2]))."""
    z = ("i", 0)
    dt = stack([z, z, oh, after_h, ow, after_w, z, z])
    if dt not in (dtypes.int32, dtypes.int64):
        raise errors.InvalidArgumentError(None, None, f"Value for attr 'Tpaddings' of {_cpp(dt)} is not in the list "
                                          "of allowed values: int32, int64 [Op:Pad]")


def crop_or_pad(th: Kind, tw: Kind, height: Kind, width: Kind) -> None:
    """resize_with_crop_or_pad's arithmetic on the kinds (max_/min_ as TF's: a tensor among them is Maximum/Minimum,
    else Python's), then its crop_to_bounding_box's and pad_to_bounding_box's stacks."""
    def mx(a: Kind, b: Kind) -> Kind:
        return binary(a, b, "Maximum", max)

    def mn(a: Kind, b: Kind) -> Kind:
        return binary(a, b, "Minimum", min)

    def neg_half(k: Kind) -> Kind:   # -diff // 2
        return k if k[0] == "t" else kind(-k[1] // 2)

    def half(k: Kind) -> Kind:       # diff // 2
        return k if k[0] == "t" else kind(k[1] // 2)
    zero = ("i", 0)
    wd, hd = sub(tw, width), sub(th, height)
    crop_w, pad_w = mx(neg_half(wd), zero), mx(half(wd), zero)
    crop_h, pad_h = mx(neg_half(hd), zero), mx(half(hd), zero)
    ch, cw = mn(th, height), mn(tw, width)
    check_slice(crop_h, crop_w, ch, cw)
    # (the cropped image's height and width: the crop's size where Python knows it, else unknown to the graph)
    after_h, after_w = pad_afters(pad_h, pad_w, th, tw, ch if ch[0] != "t" else INT32, cw if cw[0] != "t" else INT32)
    check_pad(pad_h, pad_w, after_h, after_w)
