"""`tf.custom_gradient`: a function that returns its value and its own gradient function.

As TF's eager decorator: the function runs (its ops may be recorded too), its results pass
through Identity ops, and one op, CustomGradient (runtime/ops/custom.py), is bound through
dispatch from its inputs (and the trainable variables it read, which `grad_fn` then
differentiates through its `variables=` keyword) to those results: the tapes record it with
`grad_fn` as its gradient.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any, Callable

from simdist.runtime import nest
from simdist.runtime.autodiff.tape import VariableWatcher, keyed
from simdist.runtime.ops import custom
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["custom_gradient"]


def custom_gradient(f: Callable[..., Any] | None = None) -> Any:
    """Decorator: `f(*args)` returns `(result, grad_fn)`; `grad_fn(*upstream)` returns the
    gradients of the positional tensor arguments (and, with `variables=`, of the variables it used
    that are not arguments); keyword arguments get no gradient, as in TF's eager decorator."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        from simdist.runtime import context
        from simdist.runtime.ops import array
        if kwargs and context.in_function():   # (TF's _graph_mode_decorator, before f runs)
            raise ValueError("The custom_gradient decorator currently supports keywords arguments only when eager "
                             "execution is enabled.")
        with VariableWatcher() as watcher:
            result, grad_fn = f(*args, **kwargs)
        # TF's _eager_mode_decorator: the positional arguments are the op's inputs (one gradient each);
        # keyword arguments are neither inputs nor variables (no gradient flows to them)
        flat_args = nest.flatten(args)
        all_inputs = flat_args + nest.flatten(kwargs)
        variables = [v for v in watcher.watched_variables() if all(v is not a for a in all_inputs)]
        spec = inspect.getfullargspec(grad_fn)
        if variables and "variables" not in spec.args and "variables" not in spec.kwonlyargs and not spec.varkw:
            raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument 'variables', since function "
                            f"uses variables: {variables}")
        flat_result = [array.identity(x) for x in nest.flatten(result)]
        if context.in_function():
            from simdist.runtime import graph_names
            graph_names.identity_n(flat_result)   # (TF's graph-mode decorator: the results are an IdentityN's)
        inputs = [x if isinstance(x, Tensor) or hasattr(x, "_read_array") or hasattr(x, "_local")
                  else convert_to_tensor(x) for x in flat_args] + variables
        arg_count = len(flat_args)

        def backward(*result_grads: Any) -> list[Any]:
            grads = nest.pack_sequence_as(result, list(result_grads))
            grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
            if variables:
                input_grads, variable_grads = grad_fn(*grads, variables=variables)
                if len(variable_grads) != len(variables):
                    raise ValueError("Must return gradient for each variable from @custom_gradient grad_fn.")
            else:
                input_grads = grad_fn(*grads)
                variable_grads = []
            flat = nest.flatten(input_grads)
            if len(flat) != arg_count:
                raise ValueError(f"custom_gradient function expected to return {arg_count} gradients, but returned "
                                 f"{len(flat)} instead.")
            return [None if g is None else (g if not isinstance(g, (int, float)) else convert_to_tensor(g))
                    for g in flat] + list(variable_grads)

        custom.bind(getattr(f, "__name__", "CustomGradient"), keyed(inputs), flat_result, backward)
        return nest.pack_sequence_as(result, flat_result)
    return decorated
