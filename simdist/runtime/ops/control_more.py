"""tf.case, tf.inside_function, tf.grad_pass_through and tf.recompute_grad, as TF 2.21 builds them
in Python (control_flow_case.py, ops.py, custom_gradient.py).

tf.case is a chain of tf.cond calls (control_flow.py): the first pair whose predicate holds runs;
with no default the last pair's function is the default, guarded by TF's Assert ("Input error:
None of conditions evaluated as True"). Observed on TF 2.21: executing eagerly, `exclusive=True`
does not raise when several predicates hold (the first one's function runs); a Python bool
predicate is a TypeError, a dict of pairs fails on Tensor hashing (TypeError). tf.inside_function
is True while a tf.function's Python runs (also under tf.init_scope in TF, observed).
"""

from __future__ import annotations

import functools
from typing import Any, Callable

from simdist.runtime import dtypes
from simdist.runtime.tensor import Tensor

__all__ = ["case", "inside_function", "grad_pass_through", "recompute_grad"]


def _pairs(pred_fn_pairs: Any) -> list[tuple[Tensor, Callable[[], Any]]]:
    if isinstance(pred_fn_pairs, dict):
        for k in pred_fn_pairs:
            if isinstance(k, Tensor):
                raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not isinstance(pred_fn_pairs, (list, tuple)):
        raise TypeError(f"'pred_fn_pairs' must be a list, tuple, or dict. Received: {type(pred_fn_pairs)}")
    out = []
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if isinstance(pred, Tensor):
            if pred.dtype != dtypes.bool_:
                # (TF's message reads pred.name, which an eager tensor does not have: observed on TF 2.21)
                raise AttributeError("Tensor.name is undefined when eager execution is enabled.")
        else:
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if not callable(fn):
            raise TypeError(f"fn for pred {pred} must be callable.")
        out.append((pred, fn))
    return out


def case(pred_fn_pairs: Any, default: Callable[[], Any] | None = None, exclusive: bool = False, strict: bool = False,
         name: str = "case") -> Any:
    """`tf.case`: the function of the first (predicate, function) pair whose predicate is true,
    else default(); without a default the last pair's function, asserting its predicate."""
    from simdist.runtime.ops.array import stack
    from simdist.runtime.ops.control_flow import Assert, cond
    pairs = _pairs(pred_fn_pairs)
    if not pairs:
        # control_flow_case._case_verify_and_canonicalize_args: `predicates, actions = zip(*pred_fn_pairs)` of no
        # pair, a default given or not (TF 2.21; fz51b)
        raise ValueError("not enough values to unpack (expected 2, got 0)")
    preds = [p for p, _ in pairs]
    if default is None:
        last_pred, last_fn = pairs[-1]
        pairs = pairs[:-1]

        def default_action() -> Any:
            Assert(last_pred, ["Input error: None of conditions evaluated as True:", stack(preds)])
            return last_fn()
        default = default_action
    if exclusive and len(pairs) > 1:
        # control_flow_case._assert_at_most_n_true over the pairs left once the default is made (without a default
        # the last pair's predicate is not counted), eagerly and in a graph alike (fz51b seed 51103 #38)
        from simdist.runtime.ops.math import cast, less_equal, reduce_sum
        from simdist.runtime import context
        others = [p for p, _ in pairs]
        stacked = stack(others)
        # (an eager tensor has no name: TF's getattr(p, "name", "?"))
        names = ", ".join(f"pred_fn_pairs[{i}][0]" if context.in_function() else "?" for i in range(len(others)))
        Assert(less_equal(reduce_sum(cast(stacked, "int32")), 1),
               [f"Input error: exclusive=True: more than 1 conditions ({names}) evaluated as True:", stacked],
               summarize=len(others))
    # (each level is v1 cond.cond with `strict`: eagerly its result unpacked from a singleton list unless strict,
    # at every level; in a tf.function cond_v2, which keeps the structure: tsweep65)
    from simdist.runtime import context as _ctx
    unpack = not strict and not _ctx.in_function()

    def level(pred: Any, action: Callable[[], Any], rest: Callable[[], Any]) -> Any:
        out = cond(pred, action, rest)
        if unpack and isinstance(out, (list, tuple)) and len(out) == 1:
            return out[0]
        return out
    fn = default
    for pred, action in reversed(pairs):
        fn = functools.partial(level, pred, action, fn)
    return fn()


def inside_function() -> bool:
    """`tf.inside_function`: whether a tf.function's Python is running."""
    from simdist.runtime import context
    return context.in_function()


def grad_pass_through(f: Callable[..., Any]) -> Callable[..., Any]:
    """`tf.grad_pass_through(f)`: f's value, with the upstream gradient passed to f's inputs as
    if f were the identity (a custom gradient, as TF's)."""
    from simdist.runtime.autodiff import custom_gradient

    @custom_gradient
    def _grad_pass_through_op(*args: Any, **kwargs: Any) -> Any:
        def grad(*dys: Any, **kw: Any) -> Any:
            variables = kw.get("variables")
            if variables is not None:
                return dys, [None] * len(variables)
            return dys
        return f(*args, **kwargs), grad

    return functools.wraps(f)(_grad_pass_through_op)


def recompute_grad(f: Callable[..., Any]) -> Callable[..., Any]:
    """`tf.recompute_grad(f)`, built as TF 2.21's (custom_gradient.py): a custom gradient whose backward
    function recomputes f on identities of the inputs under a tape and differentiates it with
    `unconnected_gradients=ZERO` (an input f does not use gets zeros, not None). That backward function is
    itself a custom gradient whose own gradient raises NotImplementedError ("recompute_grad tried to
    transpose grad of f"): a tape recording the first gradient cannot take a second one. In a
    tf.function the recomputation's inputs carry a data dependency on the upstream gradient (`x + 0.`,
    so a -0.0 input is recomputed as +0.0), as TF's XLA guard."""
    from simdist.runtime import context, nest
    from simdist.runtime.autodiff.custom_gradient import custom_gradient
    from simdist.runtime.autodiff.tape import GradientTape, UnconnectedGradients
    from simdist.runtime import ops as O
    name = getattr(f, "__name__", "f")

    @custom_gradient
    def inner(*args: Any, **kwargs: Any) -> Any:
        result = f(*args, **kwargs)

        def grad_wrapper(*wrapper_args: Any, variables: Any = None) -> Any:
            @custom_gradient
            def inner_recompute_grad(*dresult: Any) -> Any:
                with GradientTape() as t:
                    id_args = nest.map_structure(O.identity, args)
                    if context.in_function():
                        elem = O.reduce_max(O.reshape(dresult[0], [-1])[:1])
                        elem_bool = O.cast(elem, dtypes.bool_)
                        dep = O.where(O.equal(elem_bool, elem_bool), 0., float("nan"))
                        id_args = nest.map_structure(lambda x: O.add(x, O.cast(dep, x.dtype)), id_args)
                    t.watch(id_args)
                    if variables is not None:
                        t.watch(variables)
                    recomputed = f(*id_args, **kwargs)
                kw_vars = list(variables) if variables is not None else []
                grads = t.gradient(recomputed, list(id_args) + kw_vars, output_gradients=dresult,
                                   unconnected_gradients=UnconnectedGradients.ZERO)

                def transpose(*t_args: Any, **t_kwargs: Any) -> Any:
                    raise NotImplementedError(f"recompute_grad tried to transpose grad of {name}. Consider not "
                                              "using recompute_grad in forward modeautodiff")
                return (grads[:len(id_args)], grads[len(id_args):]), transpose
            return inner_recompute_grad(*wrapper_args)
        return result, grad_wrapper
    return functools.wraps(f)(inner)
