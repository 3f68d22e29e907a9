"""TF's ShardedFilename and ShardedFilespec (raw ops only; tensorflow/core/kernels/save_op.cc; clause ops.raw-ops):
each input a scalar ("basename must be a scalar, got shape [2]", in input order), then C's printf
"%s-%05d-of-%05d" of the basename (read up to a NUL, as .c_str() is), the shard and the shard count, or
"%s-?????-of-%05d". In a tf.function their shape function refuses a non-scalar input first (ValueError; observed;
shape_fns_misc.py). Not differentiable (string outputs; TF registers no gradient)."""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.counting import no_tf_gradient
from simdist.runtime.ops.registry import lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array

__all__ = ["SHARDED_FILENAME", "SHARDED_FILESPEC"]

_TYPES = {"basename": dtypes.string, "shard": dtypes.int32, "num_shards": dtypes.int32}


def _scalars(op: str, named: list[tuple[str, np.ndarray]]) -> None:
    for name, a in named:
        if np.ndim(a):
            dims = "[" + ",".join(str(d) for d in np.shape(a)) + "]"
            raise errors.InvalidArgumentError(None, None, f"{{{{function_node __wrapped__{op}_device_/job:localhost/"
                                              f"replica:0/task:0/device:CPU:0}}}} {name} must be a scalar, got shape "
                                              f"{dims} [Op:{op}]")


def _base(basename: np.ndarray) -> bytes:
    return as_bytes(np.asarray(basename, dtype=object).reshape(()).item()).split(b"\0", 1)[0]


def _filename(basename: np.ndarray, shard: np.ndarray, num_shards: np.ndarray) -> np.ndarray:
    _scalars("ShardedFilename", [("basename", basename), ("shard", shard), ("num_shards", num_shards)])
    text = _base(basename) + b"-%05d-of-%05d" % (int(shard), int(num_shards))
    return bytes_array((), [text])


def _filespec(basename: np.ndarray, num_shards: np.ndarray) -> np.ndarray:
    _scalars("ShardedFilespec", [("basename", basename), ("num_shards", num_shards)])
    return bytes_array((), [_base(basename) + b"-?????-of-%05d" % int(num_shards)])


def _rule(op: str, names: tuple[str, ...]) -> Any:
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        from simdist.runtime.ops.args import dtype_error
        for i, n in enumerate(names):
            if dts[i] != _TYPES[n]:
                raise dtype_error(op, i, _TYPES[n], dts[i])
        return dtypes.string
    return rule


_WHY = lanes("formats one file name: no stacked form written")
SHARDED_FILENAME = register("ShardedFilename", _filename, _rule("ShardedFilename", ("basename", "shard", "num_shards")),
                            kind="io", fusion=_WHY, **STRING_COST)
SHARDED_FILESPEC = register("ShardedFilespec", _filespec, _rule("ShardedFilespec", ("basename", "num_shards")),
                            kind="io", fusion=_WHY, **STRING_COST)
no_tf_gradient("ShardedFilename")
no_tf_gradient("ShardedFilespec")
