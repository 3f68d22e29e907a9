"""`tf.autodiff.ForwardAccumulator`: Jacobian-vector products in forward mode, as TF 2.21 computes
them (tensorflow/python/eager/forwardprop.py, read at v2.21).

An accumulator watches primals (tensors or variables) with their tangents; while it is entered, every
op whose inputs carry tangents gets its outputs' tangents at once, from the op's registered gradient
by TF's `_jvp_helper` rule (the "double backward" transpose): the op's gradient function is applied
to aids (`ones_like` of its trainable outputs) under a tape watching the aids, and the gradient of
the input gradients with respect to the aids, weighted by the input tangents, is the output
tangent. `jvp(x)` only looks the tangent up (None, or zeros with unconnected_gradients="zero").

It is one of the context's interpreters of dispatch (runtime/execution.py), after the tapes and
accumulators entered before it. While it computes a JVP, the interpreters entered after it are set
aside (TF's push_forwardprop_state: "inner accumulators will not see JVP computation from outer
accumulators", and more deeply nested tapes ignore them), and those entered before it see the
computation as any op: an outer accumulator takes higher-order JVPs of an inner one's, and an outer
tape differentiates them.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Iterator

from simdist.runtime import execution, nest
from simdist.runtime.autodiff.tape import GradientTape, UnconnectedGradients, trainable, variable_key
from simdist.runtime.ops.registry import OpCall
from simdist.runtime.tensor import Tensor

__all__ = ["ForwardAccumulator"]

_log = logging.getLogger("simdist")


def _is_variable(x: Any) -> bool:
    from simdist.runtime.variables import Variable
    return isinstance(x, Variable)


class _Accumulator(execution.Interpreter):
    """The tangents one accumulator holds: key -> (the primal kept alive, its tangent)."""

    __slots__ = ("tangents", "busy")

    def __init__(self) -> None:
        self.tangents: dict[int, tuple[Any, Any]] = {}
        self.busy = False

    def tangent(self, x: Any) -> Any:
        key = id(variable_key(x)) if _is_variable(x) else id(x)
        got = self.tangents.get(key)
        return None if got is None or got[0] is not (variable_key(x) if _is_variable(x) else x) else got[1]

    def set(self, x: Any, tangent: Any) -> None:
        k = variable_key(x) if _is_variable(x) else x
        self.tangents[id(k)] = (k, tangent)

    # --- interpreter of dispatch ----------------------------------------------------------------
    def read(self, var: Any, t: Tensor) -> Tensor:
        tan = None if self.busy else self.tangent(var)
        if tan is not None:
            self.set(t, tan)
        return t

    def gathered(self, var: Any, indices: Any, t: Tensor) -> Tensor:
        tan = None if self.busy else self.tangent(var)
        if tan is not None:   # (ResourceGather: its JVP is the same rows of the variable's tangent)
            from simdist.runtime.ops import array
            with self._computing():
                self.set(t, array.gather(tan, indices))
        return t

    @contextlib.contextmanager
    def _computing(self) -> Iterator[None]:
        """While this accumulator computes a JVP: it ignores the ops, and the interpreters entered
        after it are set aside (TF's push_forwardprop_state); those entered before see them."""
        ctx = execution.current()
        mine = next((i for i in range(len(ctx.observers) - 1, -1, -1) if ctx.observers[i] is self), None)
        aside = ctx.observers[mine + 1:] if mine is not None else []
        tapes_aside = [t for t in ctx.tapes if any(t is a for a in aside)]
        del ctx.observers[len(ctx.observers) - len(aside):]
        ctx.tapes[:] = [t for t in ctx.tapes if not any(t is a for a in tapes_aside)]
        self.busy = True
        try:
            yield
        finally:
            self.busy = False
            ctx.observers.extend(aside)
            ctx.tapes.extend(tapes_aside)

    def op(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None) -> tuple:
        if self.busy or opdef.name == "StopGradient":
            return outs
        tans = [self.tangent(t) if trainable(t.dtype) else None for t in tensors]
        if all(x is None for x in tans):
            return outs
        for o, tan in zip(outs, self._jvp(opdef, tensors, outs, attrs, tans)):
            if tan is not None:
                self.set(o, tan)
        return outs

    def _jvp(self, opdef: Any, tensors: Any, outs: tuple, attrs: dict | None, tans: list) -> list:
        """TF's _jvp_helper for one op: the transpose of its gradient function at the aids (an op
        with no trainable output has none; one without a registered gradient is LookupError)."""
        from simdist.runtime.indexed_slices import IndexedSlices
        from simdist.runtime.ops import array
        from simdist.runtime.ops.registry import NO_GRADIENT, gradient_function
        live = [i for i, o in enumerate(outs) if trainable(o.dtype)]
        if not live:
            return [None] * len(outs)
        fn = gradient_function(opdef)
        if fn is NO_GRADIENT:
            return [None] * len(outs)
        with self._computing():
            skip = tuple(i for i, t in enumerate(tensors) if not trainable(t.dtype))
            call = OpCall(opdef, tuple(tensors), outs, attrs, skip)
            with GradientTape(persistent=True) as transpose:
                aids = {i: array.ones_like(outs[i]) for i in live}
                for a in aids.values():
                    transpose.watch(a)
                ups = [aids[i] if i in aids else (None if i in opdef.none_grad_ok else array.zeros_like(o))
                       for i, o in enumerate(outs)]
                grads = fn(call, *ups)
                grads = list(grads) if isinstance(grads, (list, tuple)) else [grads]
                grads = [array.convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g in grads]
            # (every trainable input takes part, one without a tangent with zeros: TF's accumulator gives
            # _jvp_helper zeros for it, so `c - x` of a constant c has the JVP 0 + -t, +0.0 where t is 0,
            # and a zero tangent times an inf primal is NaN; fz53b seed 53105 #3)
            used = [(g, tans[i] if tans[i] is not None else array.zeros_like(tensors[i]))
                    for i, g in enumerate(grads) if g is not None and trainable(tensors[i].dtype)]
            if all(tans[i] is None for i, g in enumerate(grads) if g is not None and trainable(tensors[i].dtype)):
                used = []
            if not used:
                return [None] * len(outs)
            got = transpose.gradient([g for g, _ in used], [aids[i] for i in live],
                                     output_gradients=[t for _, t in used],
                                     unconnected_gradients=UnconnectedGradients.NONE)
        out: list = [None] * len(outs)
        for i, g in zip(live, got):
            out[i] = g
        return out


class ForwardAccumulator:
    """`tf.autodiff.ForwardAccumulator(primals, tangents)`: a context in which the JVPs of the ops
    run from `primals` in the direction `tangents` are computed as they run (module docstring)."""

    def __init__(self, primals: Any, tangents: Any) -> None:
        self._acc = _Accumulator()
        self._recording = False
        seen: set[int] = set()
        for p in nest.flatten(primals):
            if id(p) in seen:   # (TF's text is never formatted)
                raise ValueError("Tensor {} was specified as a primal multiple times. This may indicate an error. "
                                 "If it was intended, please sum the corresponding tangents.")
            seen.add(id(p))
        self._watch(primals, tangents)

    def __enter__(self) -> "ForwardAccumulator":
        if self._recording:
            raise ValueError("Accumulator is already recording.")
        execution.current().push_tape(self._acc)
        self._recording = True
        return self

    def __exit__(self, *exc: object) -> None:
        if self._recording:
            execution.current().pop_tape(self._acc)
            self._recording = False

    def _watch(self, primals: Any, tangents: Any) -> None:
        from simdist.runtime.tensor import convert_to_tensor

        def watch(primal: Any, tangent: Any) -> None:
            if not primal.dtype.is_floating:
                _log.warning("The dtype of the watched primal must be floating (e.g. tf.float32), got %r", primal.dtype)
            tan = convert_to_tensor(tangent, dtype=primal.dtype)
            old = self._acc.tangent(primal)
            self._acc.set(primal, tan if old is None else old + tan)   # (watching twice sums the tangents)
        nest.map_structure(watch, primals, tangents)

    def jvp(self, primals: Any, unconnected_gradients: Any = UnconnectedGradients.NONE) -> Any:
        """The JVPs computed for `primals` (tensors or variables): no computation, a look-up."""
        zero = str(getattr(unconnected_gradients, "value", unconnected_gradients)).lower() == "zero"

        def fetch(x: Any) -> Any:
            got = self._acc.tangent(x)
            if got is None and zero:
                from simdist.runtime.ops import array
                return array.zeros_like(x)
            return got
        return nest.map_structure(fetch, primals)
