"""`tf.autograph`: `experimental.do_not_convert`, the decorator that keeps AutoGraph from converting a function
tf.function traces (TF 2.21's autograph/impl/api.py `do_not_convert`): the function runs as written, so an exception
it raises keeps its class where a converted function's would be re-created by AutoGraph (an IndexError becomes a
StagingError: simdist/tf/_autograph_errors.py, clause function.trace-time-errors); set_verbosity, trace,
experimental.Feature and experimental.set_loop_options as TF 2.21's (autograph/utils/ag_logging.py, core/config's
Feature, lang/directives.py; names41); to_graph, AutoGraph's conversion of a function (simdist/tf/_autograph_convert.py,
clause function.autograph). to_code is not shipped: simdist's generated source is not TF's."""

import enum as _enum
import functools as _functools
from types import SimpleNamespace as _NS
from typing import Any as _Any, Callable as _Callable

_MARK = "_simdist_do_not_convert"


def _do_not_convert(func: "_Callable[..., _Any] | None" = None) -> _Any:
    """`tf.autograph.experimental.do_not_convert(func=None)`: func wrapped and marked unconverted (its name and
    docstring kept); without func, the decorator."""
    if func is None:
        return _do_not_convert

    @_functools.wraps(func)
    def wrapper(*args: _Any, **kwargs: _Any) -> _Any:
        from simdist.runtime import symbolic
        if not symbolic.DEPTH[0]:
            return func(*args, **kwargs)
        # (inside a tf.function its code, and what it calls, is not converted: a graph tensor's bool(),
        # iteration, len() ... refuse there as with autograph=False; runtime/symbolic.py)
        with symbolic.strictness(True):
            return func(*args, **kwargs)
    setattr(wrapper, _MARK, True)
    return wrapper


_VERBOSITY: list = [None]


def set_verbosity(level: _Any, alsologtostdout: bool = False) -> None:
    """`tf.autograph.set_verbosity`: AutoGraph's log level, any value kept as given (ag_logging.py; the
    AUTOGRAPH_VERBOSITY environment variable wins when set); simdist logs nothing from it."""
    _VERBOSITY[0] = (level, alsologtostdout)


def trace(*args: _Any) -> None:
    """`tf.autograph.trace`: print the arguments (ag_logging.trace, called at trace time)."""
    print(*args)


class Feature(_enum.Enum):
    """`tf.autograph.experimental.Feature`: the AutoGraph conversion features (core/converter.py), each
    value its name."""
    ALL = "ALL"
    AUTO_CONTROL_DEPS = "AUTO_CONTROL_DEPS"
    ASSERT_STATEMENTS = "ASSERT_STATEMENTS"
    BUILTIN_FUNCTIONS = "BUILTIN_FUNCTIONS"
    EQUALITY_OPERATORS = "EQUALITY_OPERATORS"
    LISTS = "LISTS"
    NAME_SCOPES = "NAME_SCOPES"


_UNSPECIFIED = object()


def _set_loop_options(parallel_iterations: _Any = _UNSPECIFIED, swap_memory: _Any = _UNSPECIFIED,
                      maximum_iterations: _Any = _UNSPECIFIED, shape_invariants: _Any = _UNSPECIFIED) -> None:
    """`tf.autograph.experimental.set_loop_options`: a directive AutoGraph reads from a converted loop's
    source (simdist/tf/_autograph_convert.py removes it there and passes its options to the loop); a call
    does nothing (lang/directives.py), so it is a no-op here too."""
    del parallel_iterations, swap_memory, maximum_iterations, shape_invariants


def to_graph(entity: _Any, recursive: bool = True, experimental_optional_features: _Any = None) -> _Any:
    """`tf.autograph.to_graph`: entity (a function or method) as AutoGraph converts it; its tensor conditions are
    staged inside a tf.function, plain Python outside one (simdist/tf/_autograph_convert.py)."""
    from simdist.tf import _autograph_convert
    return _autograph_convert.converted(entity)


_Feature = Feature   # (TF has it under tf.autograph.experimental only)
del Feature
experimental = _NS(do_not_convert=_do_not_convert, Feature=_Feature, set_loop_options=_set_loop_options)
