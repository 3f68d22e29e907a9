"""`tf.autograph`: `experimental.do_not_convert`, the decorator that keeps AutoGraph from converting a function
tf.function traces (TF 2.21's autograph/impl/api.py `do_not_convert`): the function runs as written, so an exception
it raises keeps its class where a converted function's would be re-created by AutoGraph (an IndexError becomes a
StagingError: simdist/tf/_autograph_errors.py, clause function.trace-time-errors). The rest of tf.autograph (to_code,
to_graph, set_verbosity, trace, experimental.set_loop_options) is not shipped: simdist converts no source."""

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
        return func(*args, **kwargs)
    setattr(wrapper, _MARK, True)
    return wrapper


experimental = _NS(do_not_convert=_do_not_convert)
