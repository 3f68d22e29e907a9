"""A raw op's attr of type "tensor" (an OpDef AttrValue holding a TensorProto: ImageSummary's bad_color), as TF
2.21's wrappers and eager runtime take it (clause ops.raw-ops).

The wrapper converts it with execute.make_tensor: a TensorProto as it is (simdist's, from tf.make_tensor_proto), a
str parsed as the text format of tensorflow.TensorProto (protobuf's text_format, whose ParseError a malformed text
raises: '1:1 : Message type "tensorflow.TensorProto" has no field named "garbage".'), anything else TypeError
"Don't know how to convert array([1, 2, 3], dtype=uint8) to a TensorProto for argument 'bad_color'.". Eagerly, TF's
runtime then sets no tensor attr on an op: every call that gets so far is UnimplementedError "Attr bad_color has
unhandled type 6" (the fast path's and the fallback's TFE_OpSetAttr alike; observed), before the inputs' dtypes and
the other attrs' checks. In a tf.function the attr reaches the kernel, here as the NumPy array make_ndarray reads."""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from simdist.runtime import errors

__all__ = ["make_tensor", "eager_refusal"]

# types.proto's DataType names the text format may give the dtype field (tensor_proto_wire's class holds it as int32)
_ENUMS = {"DT_INVALID": 0, "DT_FLOAT": 1, "DT_DOUBLE": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 5, "DT_INT8": 6,
          "DT_STRING": 7, "DT_COMPLEX64": 8, "DT_INT64": 9, "DT_BOOL": 10, "DT_BFLOAT16": 14, "DT_UINT16": 17,
          "DT_COMPLEX128": 18, "DT_HALF": 19, "DT_UINT32": 22, "DT_UINT64": 23}


def _parse(text: str) -> Any:
    from google.protobuf import text_format
    from simdist.runtime.tensor_proto_wire import tensor_proto_class
    msg = tensor_proto_class()()
    numbered = re.sub(r"\b(dtype\s*:\s*)(DT_[A-Z0-9]+)\b", lambda m: f"{m.group(1)}{_ENUMS.get(m.group(2), m.group(2))}",
                      text)
    text_format.Merge(numbered, msg)
    return msg


def make_tensor(v: Any, arg: str) -> np.ndarray:
    """execute.make_tensor, then the tensor the attr holds."""
    from simdist.runtime.tensor_proto_message import TensorProto, make_ndarray
    if isinstance(v, TensorProto):
        return make_ndarray(v)
    if isinstance(v, str):
        return make_ndarray(_parse(v))
    raise TypeError(f"Don't know how to convert {v!r} to a TensorProto for argument '{arg}'.")


def eager_refusal(op: str, attr: str) -> errors.UnimplementedError:
    """TF's eager runtime's refusal of a tensor attr (attr type 6, TF_ATTR_TENSOR)."""
    return errors.UnimplementedError(None, None, f"Attr {attr} has unhandled type 6 [Op:{op}]")
