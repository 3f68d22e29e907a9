"""tf.print (logging_ops.print_v2) on TF's PrintV2 op (logging_ops.cc). Clause ops.print.

The Python builds one template from the inputs as TF's does: each input's structure (lists,
tuples, dicts in sorted key order, OrderedDicts in their own order) pretty-printed by
`pprint.pformat` with a placeholder where each tensor goes (a SparseTensor as
"SparseTensor(indices=…, values=…, shape=…)", quoted as pformat quotes a string), a string input
as it is, the inputs joined by `sep`; the placeholder is "{}", lengthened by seeded random digits
(`random.Random(5)`) while it occurs in the tensor-free template. StringFormat
(simdist/runtime/ops/string_format.py) puts each tensor's summary in, and PrintV2 writes the
result and `end`. A single scalar string tensor is printed as it is (no quotes, no formatting).

PrintV2 is stateful: inside a tf.function it runs at every call (a recorded call replays it in
program order with the other ops), where the Python's own `print` runs only when the function
traces; in a trace TF never runs (the untaken branch of a tf.cond, which simdist traces
effect-free) it writes nothing. "stdout" and "stderr" are written to file descriptors 1 and 2 as TF's C++ std::cout and
std::cerr are (not through Python's sys.stdout/sys.stderr: pytest's capfd sees them, capsys does
not), "file://<path>" appends to the file; the log levels (TF's LOG(INFO) & co., to fd 2 with
glog's time-stamped prefix) are written to Python's "tensorflow" logger (tf.get_logger) at
that level.
"""

from __future__ import annotations

import collections
import logging
import os
import pprint
import random
import sys
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors, execution, nest
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_format import format_tensors
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["print_v2", "PRINT_V2"]

_FILE = "file://"
_STREAMS = ("stdout", "stderr", "log(info)", "log(warning)", "log(error)")
_LEVELS = {"log(info)": logging.INFO, "log(warning)": logging.WARNING, "log(error)": logging.ERROR}


def _write_fd(fd: int, data: bytes) -> None:
    while data:
        n = os.write(fd, data)
        data = data[n:]


def _print(message: np.ndarray, output_stream: str, end: str) -> np.ndarray:
    if execution.effect_free(execution.current()):
        return message    # (a trace TF never runs: a tf.cond branch not taken, a concrete function's)
    raw = message.reshape(()).item()
    text = (raw if isinstance(raw, bytes) else str(raw).encode()) + end.encode("utf-8", errors="surrogateescape")
    if output_stream.startswith(_FILE):
        path = output_stream[len(_FILE):]
        if not path:    # (the kernel takes "file://" as the empty stream's name)
            raise errors.InvalidArgumentError(None, None, "Unknown output stream: , Valid streams are: "
                                              + " ".join(_STREAMS) + " [Op:PrintV2]")
        try:
            with open(path, "ab") as f:
                f.write(text)
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"{path}; No such file or directory [Op:PrintV2]") from None
    elif output_stream == "stdout":
        _write_fd(1, text)
    elif output_stream == "stderr":
        _write_fd(2, text)
    else:
        logging.getLogger("tensorflow").log(_LEVELS[output_stream], "%s",
                                            text.decode("utf-8", errors="surrogateescape"))
    return message


def _rule(dts: Any, attrs: Any) -> dtypes.DType:
    if dts[0] != dtypes.string:
        raise errors.InvalidArgumentError(None, None, f"cannot compute PrintV2 as input #0(zero-based) was expected "
                                          f"to be a string tensor but is a {dts[0].name} tensor [Op:PrintV2]")
    return dtypes.string


PRINT_V2 = register("PrintV2", _print, _rule, lambda arrays, out, attrs: 0.0, kind="io", stateful=True,
                    fusion=lanes("writes each lane's message in turn, in replica order"), subnormals="keep")
NotDifferentiable("PrintV2")


def _stream_table() -> dict[Any, str]:
    """print_v2's output_stream_to_constant, its keys read at each call (sys.stdout as it is then):
    the streams, the log levels (Python's and absl's numbers) and absl's logging functions."""
    table: dict[Any, str] = {sys.stdout: "stdout", sys.stderr: "stderr", logging.INFO: "log(info)",
                             logging.WARNING: "log(warning)", logging.ERROR: "log(error)"}
    try:
        from absl import logging as absl_logging
    except ImportError:     # (absl comes with TF; a base install may lack it)
        return table
    table.update({absl_logging.INFO: "log(info)", absl_logging.info: "log(info)",
                  absl_logging.WARNING: "log(warning)", absl_logging.warning: "log(warning)",
                  absl_logging.warn: "log(warning)", absl_logging.ERROR: "log(error)",
                  absl_logging.error: "log(error)"})
    return table


def _stream(output_stream: Any) -> str:
    if isinstance(output_stream, str) and output_stream.startswith(_FILE):
        return output_stream
    found = _stream_table().get(output_stream)
    if not found:
        raise ValueError("Unsupported output stream, logging level, or file." + str(output_stream) +
                         ". Supported streams are sys.stdout, sys.stderr, tf.logging.info, tf.logging.warning, "
                         "tf.logging.error. File needs to be in the form of 'file://<filepath>'.")
    return found


def _is_tf_type(x: Any) -> bool:
    """tensor_util.is_tf_type: tensors, variables and composite tensors."""
    from simdist.runtime.indexed_slices import IndexedSlices
    from simdist.runtime.sparse_tensor import SparseTensor
    from simdist.runtime.variables import Variable
    return isinstance(x, (Tensor, Variable, SparseTensor, IndexedSlices))


def _placeholder(template: str) -> str:
    """logging_ops._generate_placeholder_string: "{}" and digits of random.Random(5) until unique."""
    placeholder = "{}"
    rng = random.Random(5)
    while placeholder in template:
        placeholder = placeholder + str(rng.randint(0, 9))
    return placeholder


def _template(inputs: tuple, sep: str) -> tuple[str, str, list[Tensor]]:
    """(template, placeholder, tensors) as print_v2 builds them."""
    from simdist.runtime.sparse_tensor import SparseTensor
    sorted_inputs = [collections.OrderedDict(sorted(x.items())) if isinstance(x, collections.OrderedDict) else x
                     for x in inputs]
    free = nest.map_structure(lambda x: "" if _is_tf_type(x) else x, tuple(sorted_inputs))
    placeholder = _placeholder(" ".join(pprint.pformat(x) for x in free))
    templates, tensors = [], []
    for input_ in inputs:
        slots = []
        for x in nest.flatten(input_):
            if isinstance(x, SparseTensor):
                tensors.extend([x.indices, x.values, x.dense_shape])
                slots.append(f"SparseTensor(indices={placeholder}, values={placeholder}, shape={placeholder})")
            elif _is_tf_type(x):
                tensors.append(x)
                slots.append(placeholder)
            else:
                slots.append(x)
        if isinstance(input_, str):
            templates.append(input_)
        else:
            templates.append(pprint.pformat(nest.pack_sequence_as(input_, slots)))
    template = sep.join(templates).replace("'" + placeholder + "'", placeholder)
    return template, placeholder, [t if isinstance(t, Tensor) else convert_to_tensor(t) for t in tensors]


def print_v2(*inputs: Any, **kwargs: Any) -> None:
    """`tf.print`: the inputs formatted as TF formats them, written to `output_stream` (default
    sys.stderr) at every run, eager or traced. Returns None."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    kwargs.pop("name", None)
    summarize = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", os.linesep)
    if kwargs:
        raise ValueError("Unrecognized keyword arguments for tf.print: %s" % kwargs)
    stream = _stream(output_stream)
    only = inputs[0] if len(inputs) == 1 else None
    if only is not None and _is_tf_type(only) and type(only).__name__ not in ("SparseTensor", "IndexedSlices") \
            and only.dtype == dtypes.string and len(only.shape) == 0:
        message = only if isinstance(only, Tensor) else convert_to_tensor(only)
    else:
        template, placeholder, tensors = _template(inputs, sep)
        message = format_tensors(tensors, template, placeholder, summarize)
    dispatch.execute(PRINT_V2, (message,), {"output_stream": stream, "end": end})
    return None
