"""`tf.io.read_file`, `tf.io.write_file` and `tf.io.matching_files` on the local disk (TF 2.21's
ReadFile, WriteFile, MatchingFiles kernels; core/platform/file_system_helper.cc GetMatchingPaths).

- read_file(filename): the file's bytes (a string scalar); a filename that is no scalar is
  InvalidArgumentError "Input filename tensor must be scalar, but had shape: [2]" (write_file's
  filename too, its contents "Contents tensor must be scalar, ..."; simdist read the first element
  before session 28); a missing file is NotFoundError "<name>;
  No such file or directory", a directory FailedPreconditionError "<name>; Is a directory".
- write_file(filename, contents): writes the bytes, creating the missing parent directories
  (WriteFileOp: RecursivelyCreateDir of the dirname); a stateful op.
- matching_files(pattern): the paths matching a glob pattern or a vector of them ("*", "?",
  "[...]" within a path component), all sorted together, as a 1-D string tensor; a pattern
  without a directory matches in "." and its results start with "./" (JoinPath("." , name)), a
  pattern without a wildcard is itself if the path exists; no
  match is an empty vector; patterns of rank > 1 are InvalidArgumentError "Input patterns tensor
  must be scalar or vector, but had shape: [1,1]".
Not differentiable. Clause io.tensor-codec.
"""

from __future__ import annotations

import glob as _glob
import os
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, bytes_array, string_tensor, want_string
from simdist.runtime.tensor import Tensor

__all__ = ["read_file", "write_file", "matching_files"]

_WHY = lanes("reads or writes the file system once: no stacked form")


def _scalar(x: np.ndarray, what: str, op: str) -> None:
    """The kernels' first check: a string scalar (ReadFileOp, WriteFileOp; observed on TF 2.21)."""
    if x.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"{what} must be scalar, but had shape: "
                                          f"[{','.join(str(d) for d in x.shape)}] [Op:{op}]")


def _name(x: np.ndarray) -> str:
    return as_bytes(x.reshape(-1)[0] if x.size else b"").decode("utf-8", "surrogateescape")


def _read(filename: np.ndarray) -> np.ndarray:
    _scalar(filename, "Input filename tensor", "ReadFile")
    path = _name(filename)
    if os.path.isdir(path):
        raise errors.FailedPreconditionError(None, None, f"{path}; Is a directory [Op:ReadFile]")
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, f"{path}; No such file or directory [Op:ReadFile]")
    with open(path, "rb") as f:
        data = f.read()
    out = np.empty((), dtype=object)
    out[()] = data
    return out


def _write(filename: np.ndarray, contents: np.ndarray) -> np.ndarray:
    _scalar(filename, "Input filename tensor", "WriteFile")
    _scalar(contents, "Contents tensor", "WriteFile")
    path = _name(filename)
    parent = os.path.dirname(path)
    if parent:
        os.makedirs(parent, exist_ok=True)
    with open(path, "wb") as f:
        f.write(as_bytes(contents.reshape(-1)[0]))
    return np.zeros((0,), np.int32)   # (no output: an empty marker the dispatcher can carry)


def _match_one(pattern: str) -> list[str]:
    if not any(c in pattern for c in "*?["):   # (no wildcard: the path itself, if it exists)
        return [pattern] if os.path.exists(pattern) else []
    if not os.path.dirname(pattern):
        return [os.path.join(".", p) for p in _glob.glob(pattern)]
    return _glob.glob(pattern)


def _matching(patterns: np.ndarray) -> np.ndarray:
    if patterns.ndim > 1:
        raise errors.InvalidArgumentError(None, None, "Input patterns tensor must be scalar or vector, but had shape: "
                                          f"[{','.join(str(d) for d in patterns.shape)}] [Op:MatchingFiles]")
    names: list[str] = []
    for p in patterns.reshape(-1):
        names.extend(_match_one(as_bytes(p).decode("utf-8", "surrogateescape")))
    names.sort()
    return bytes_array((len(names),), [n.encode("utf-8", "surrogateescape") for n in names])


def _rule(op: str, args: tuple[str, ...], out: dtypes.DType) -> Any:
    """The op's dtype rule: each input (named `args`, its op_def's names) a string tensor."""
    def rule(dts: Any, attrs: Any) -> dtypes.DType:
        for i, arg in enumerate(args):
            want_string(op, dts, i, arg)
        return out
    return rule


READ_FILE = register("ReadFile", _read, _rule("ReadFile", ("filename",), dtypes.string), kind="io", fusion=_WHY, **STRING_COST)
WRITE_FILE = register("WriteFile", _write, _rule("WriteFile", ("filename", "contents"), dtypes.int32), kind="io", fusion=_WHY,
                      stateful=True, **STRING_COST)
MATCHING_FILES = register("MatchingFiles", _matching, _rule("MatchingFiles", ("pattern",), dtypes.string), kind="io",
                          fusion=_WHY, **STRING_COST)
for _op in ("ReadFile", "WriteFile", "MatchingFiles"):
    NotDifferentiable(_op)


def read_file(filename: Any, name: str | None = None) -> Tensor:
    """`tf.io.read_file`: the contents of the file `filename` (a string scalar)."""
    return dispatch.execute(READ_FILE, (string_tensor(filename, "ReadFile", "filename"),))


def write_file(filename: Any, contents: Any, name: str | None = None) -> None:
    """`tf.io.write_file`: write `contents` to `filename`, creating its directory (returns None, as TF eagerly)."""
    dispatch.execute(WRITE_FILE, (string_tensor(filename, "WriteFile", "filename"),
                                  string_tensor(contents, "WriteFile", "contents")))


def matching_files(pattern: Any, name: str | None = None) -> Tensor:
    """`tf.io.matching_files`: the sorted paths matching a glob pattern (or a vector of them)."""
    return dispatch.execute(MATCHING_FILES, (string_tensor(pattern, "MatchingFiles", "pattern"),))
