"""The error a tf.function's trace raises for an exception of the user's converted code (clause
function.trace-time-errors): AutoGraph re-creates it from its message (autograph/impl/api.py
`_ErrorMetadata.create_exception`, pyct/error_utils.py): TF's OpErrors and its own AutoGraph
errors keep their class, as do the classes whose constructor takes the message alone
(KNOWN_STRING_CONSTRUCTOR_ERRORS: AssertionError, AttributeError, NameError, NotImplementedError,
RuntimeError, StopIteration, TypeError, UnboundLocalError, ValueError; KeyError as a KeyError),
and any class whose `__init__` is Exception's; every other class (IndexError, ZeroDivisionError,
OverflowError, LookupError, ...) becomes a StagingError. Code AutoGraph does not convert
(autograph=False, no source, simdist's own step functions, which Keras marks do_not_convert) keeps
its exceptions."""

from __future__ import annotations

import inspect
from typing import Any

from simdist.runtime import errors
from simdist.runtime import symbolic


class StagingError(Exception):
    """AutoGraph's StagingError (tensorflow.python.autograph.impl.api)."""


_KEPT = (AssertionError, AttributeError, NameError, NotImplementedError, RuntimeError, StopIteration, TypeError,
         UnboundLocalError, ValueError, KeyError, StagingError, errors.OperatorNotAllowedInGraphError)


def _converted(fn: Any, autograph: bool) -> bool:
    """Whether AutoGraph converts fn: autograph on, user code (not simdist's), source readable."""
    if not autograph or getattr(fn, "_simdist_do_not_convert", False):   # (tf.autograph.experimental.do_not_convert)
        return False
    target = fn if inspect.isfunction(fn) or inspect.ismethod(fn) else getattr(type(fn), "__call__", None)
    code = getattr(inspect.unwrap(target), "__code__", None) if target is not None else None
    if code is None:
        return False
    module = getattr(target, "__module__", "") or ""
    if (module == "simdist" or module.startswith("simdist.")) and not module.startswith("simdist.conformance.suite"):
        return False
    if not symbolic.has_source(code.co_filename):
        return False
    return code.co_name != "<lambda>" or _one_lambda_like(code)


def _one_lambda_like(code: Any) -> bool:
    """AutoGraph finds a lambda by its line: another lambda there with the same arguments makes
    the source ambiguous ("found multiple definitions with identical signatures at the
    location"), and the function runs unconverted."""
    import ast
    import linecache
    line = linecache.getline(code.co_filename, code.co_firstlineno).strip()
    try:
        tree = ast.parse(line)
    except SyntaxError:
        return True
    arity = code.co_argcount + code.co_kwonlyargcount

    def names(node: ast.Lambda) -> tuple:
        a = node.args
        return tuple(x.arg for x in a.posonlyargs + a.args + a.kwonlyargs) + (
            ("*" + a.vararg.arg,) if a.vararg else ()) + (("**" + a.kwarg.arg,) if a.kwarg else ())
    mine = tuple(code.co_varnames[:arity]) + (("*" + code.co_varnames[arity],) if code.co_flags & 4 else ())
    same = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda) and names(n)[:len(mine)] == mine
            and len(names(n)) == len(mine) + (1 if code.co_flags & 8 else 0)]
    return len(same) <= 1


def unframe(err: BaseException, fn: Any, autograph: bool) -> None:
    """err without the "in user code:" frame of a trace-time op error (runtime/ops/trace_errors.py
    `at_trace`) when it leaves the outermost tf.function and AutoGraph does not convert that function: the
    frame is AutoGraph's, so a function it leaves alone (Keras's step functions, marked do_not_convert)
    raises op_def_library's message as it is (TF 2.21: fit's traced step raises TypeError "Input 'y' of
    'AddV2' Op has type float64 that does not match type float32 of argument 'x'."; kfuzz42)."""
    from simdist.runtime import context
    text = getattr(err, "_simdist_unframed", None)
    if text is None or context.in_function() or _converted(fn, autograph):
        return
    err.args = (text,)
    del err._simdist_unframed


def staged(err: BaseException, fn: Any, autograph: bool) -> BaseException | None:
    """The StagingError TF raises instead of err from fn's trace, or None when err keeps its class."""
    t = type(err)
    if isinstance(err, errors.OpError) or t in _KEPT or t.__init__ is Exception.__init__:
        return None
    if not isinstance(err, Exception) or not _converted(fn, autograph):
        return None
    return StagingError(f"in user code:\n\n    {t.__name__}: {err}\n")
