"""Ops an XLA-compiled tf.function call (jit_compile=True) cannot hold (clause function.xla-compile).

TF 2.21 compiles the whole graph of a jit_compile=True call for XLA_CPU_JIT before it runs anything; an op with no
XLA kernel fails the compilation, the call's InvalidArgumentError "Detected unsupported operations when trying to
compile graph ... on XLA_CPU_JIT: AsString (No registered 'AsString' OpKernel for XLA_CPU_JIT devices compatible
with node {{node AsString}})" (the trace made and counted: get_concrete_function does not compile). Two rules cover
the kernels simdist runs: XLA has no string type, so every op with a string input or output (AsString,
StringLength, StringFormat, ...; an unused string constant is pruned and never compiled), and the Python
callbacks (EagerPyFunc, PyFunc), which run Python, not XLA.
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import context, dtypes, errors

__all__ = ["unsupported", "check_python_callback", "check_strings"]


def unsupported(op: str) -> errors.InvalidArgumentError:
    """The compile error of an XLA-compiled call whose graph holds `op`."""
    return errors.InvalidArgumentError(
        None, None, f"Detected unsupported operations when trying to compile graph __inference_fn[_XlaMustCompile=true] "
                    f"on XLA_CPU_JIT: {op} (No registered '{op}' OpKernel for XLA_CPU_JIT devices compatible with node "
                    f"{{{{node {op}}}}}){{{{node {op}}}}}")


def check_python_callback(op: str) -> None:
    """tf.py_function (EagerPyFunc) and tf.numpy_function (PyFunc) in an XLA-compiled call: its compile error."""
    if context.in_xla():
        raise unsupported(op)


def check_strings(op: str, inputs: Sequence[dtypes.DType], output: Any) -> None:
    """An op with a string input or output (`output`: its dtype, or a tuple of them) in an XLA-compiled call: its
    compile error (XLA has no string type)."""
    s = dtypes.string
    if s in inputs or output is s or (isinstance(output, tuple) and s in output):
        raise unsupported(op)
