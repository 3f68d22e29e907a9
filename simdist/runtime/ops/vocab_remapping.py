"""GenerateVocabRemapping (raw op only; tensorflow/core/kernels/generate_vocab_remapping_op.cc,
lookup_util.cc's TextFileLineIterator; clause ops.raw-ops): for the new vocabulary's lines new_vocab_offset ..
new_vocab_offset + num_new_vocab - 1, each token's line in the old vocabulary (-1 if absent), int64, and how many
were found, int32.

As TF 2.21 runs it (observed): new_vocab_file a scalar ("new_vocab_file should be a single string, but got [1]";
rank 0 at trace), not empty ("new vocab filename cannot be empty."), its lines read whole into a line -> token
table, then "lookup table size must be larger than last new vocab entry's line" unless offset + count <= lines;
then old_vocab_file likewise ("old_vocab_file should be a single string, ..."; an empty name is the same "new vocab
filename cannot be empty."), its first old_vocab_size lines (-1: all) into a token -> line table, a token met again
FailedPreconditionError "HashTable has different value for same key. Key c has 0 and trying to add value 2".
Reading a file (TextFileLineIterator): lines split at "\\n", one trailing "\\r" dropped, a last line without its
newline read; an empty line is InvalidArgumentError "Invalid content in F: empty line found at position 3." (the bytes
read so far); an empty file OutOfRangeError "Read less bytes than requested"; old_vocab_size 0 OutOfRangeError
"Finished reading 0 of lines from F"; fewer lines than old_vocab_size InvalidArgumentError "Invalid vocab_size in F:
expected 9 but got 4"; a missing file NotFoundError "F; No such file or directory", a directory
FailedPreconditionError "F; Is a directory". TF declares it not differentiable (training/checkpoint_ops.py)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops.args import dims_text
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, want_string

__all__ = ["GENERATE_VOCAB_REMAPPING"]

_OP = "GenerateVocabRemapping"


def _err(cls: type, text: str) -> Exception:
    return cls(None, None, f"{{{{function_node __wrapped__{_OP}_device_/job:localhost/replica:0/task:0/device:CPU:0}}}}"
                           f" {text} [Op:{_OP}]")


def _lines(path: str, vocab_size: int) -> list[bytes]:
    """TextFileLineIterator's lines of `path`, at most vocab_size (-1: all)."""
    if os.path.isdir(path):
        raise _err(errors.FailedPreconditionError, f"{path}; Is a directory")
    if not os.path.exists(path):
        raise _err(errors.NotFoundError, f"{path}; No such file or directory")
    with open(path, "rb") as f:
        data = f.read()
    out: list[bytes] = []
    pos = 0
    while True:
        if vocab_size != -1 and len(out) >= vocab_size:
            if not out:
                raise _err(errors.OutOfRangeError, f"Finished reading {vocab_size} of lines from {path}")
            return out
        if pos >= len(data):
            if vocab_size != -1 and len(out) != vocab_size:
                raise _err(errors.InvalidArgumentError,
                           f"Invalid vocab_size in {path}: expected {vocab_size} but got {len(out)}")
            if not out:
                raise _err(errors.OutOfRangeError, "Read less bytes than requested")
            return out
        end = data.find(b"\n", pos)
        line, pos = (data[pos:], len(data)) if end < 0 else (data[pos:end], end + 1)
        if line.endswith(b"\r"):
            line = line[:-1]
        if not line:
            raise _err(errors.InvalidArgumentError, f"Invalid content in {path}: empty line found at position {pos}.")
        out.append(line)


def _name(x: np.ndarray, what: str) -> str:
    if x.ndim != 0:
        raise _err(errors.InvalidArgumentError, f"{what} should be a single string, but got {dims_text(x.shape)}")
    name = as_bytes(x[()]).decode("utf-8", "surrogateescape")
    if not name:
        raise _err(errors.InvalidArgumentError, "new vocab filename cannot be empty.")
    return name


def _remap(new_vocab_file: np.ndarray, old_vocab_file: np.ndarray, new_vocab_offset: int, num_new_vocab: int,
           old_vocab_size: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """GenerateVocabRemappingOp::Compute."""
    new = _lines(_name(new_vocab_file, "new_vocab_file"), -1)
    if new_vocab_offset + num_new_vocab > len(new):
        raise _err(errors.InvalidArgumentError, "lookup table size must be larger than last new vocab entry's line")
    old_path = _name(old_vocab_file, "old_vocab_file")
    table: dict[bytes, int] = {}
    for i, token in enumerate(_lines(old_path, old_vocab_size)):
        if token in table:
            raise _err(errors.FailedPreconditionError, f"HashTable has different value for same key. Key "
                       f"{token.decode('utf-8', 'replace')} has {table[token]} and trying to add value {i}")
        table[token] = i
    remap = np.array([table.get(new[new_vocab_offset + i], -1) for i in range(num_new_vocab)], np.int64)
    return remap, np.array(int((remap != -1).sum()), np.int32)


def _rule(dts: Any, attrs: Any) -> tuple:
    want_string(_OP, dts, 0, "new_vocab_file")
    want_string(_OP, dts, 1, "old_vocab_file")
    return dtypes.int64, dtypes.int32


GENERATE_VOCAB_REMAPPING = register(_OP, _remap, _rule, num_outputs=2, kind="io", fusion=lanes(
    "reads two vocabulary files in Python: no stacked form"), **STRING_COST)
NotDifferentiable(_OP)   # (training/checkpoint_ops.py: ops.NotDifferentiable("GenerateVocabRemapping"))
