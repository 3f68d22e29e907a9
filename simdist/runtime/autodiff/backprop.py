"""The reverse walk over a tape's recorded ops (TF's tape.h ComputeGradient, in Python).

1. From the targets, find the recorded ops they depend on, and count how many times each
   tensor is used by them (PrepareBackprop).
2. Seed each target with its output gradient (ones of its shape by default: a non-scalar
   target is differentiated as its sum; several targets add up).
3. Process an op once every op using its outputs has been processed: aggregate its outputs'
   gradients (AddN; IndexedSlices concatenated, or densified when mixed with dense ones), fill
   outputs nobody differentiated with zeros (None for the few ops that accept it), call its
   gradient, and pass the input gradients on.
4. A source's gradient is the aggregate of what reached it; None (or zeros, with
   unconnected_gradients="zero") when nothing did.
The walk is deterministic: ops are taken from the back of a list and an op that becomes ready
is put at its front, as TF's tape.h does (`op_stack.insert(op_stack.begin(), op_id)`), so the
gradients of one tensor aggregate in TF's order (which orders the rows of summed IndexedSlices).
"""

from __future__ import annotations

from typing import Any, Sequence

from simdist.runtime import name_scopes, symbolic
from simdist.runtime.indexed_slices import IndexedSlices
from simdist.runtime.ops import grad_controls
from simdist.runtime.tensor import Tensor

__all__ = ["imperative_grad", "aggregate"]


def _key(x: Any) -> int:
    from simdist.runtime.autodiff.tape import _is_variable, variable_key
    if isinstance(x, Tensor):
        return id(x)
    resolve = getattr(x, "_simdist_variable", None)
    inner = resolve() if resolve is not None else x
    if hasattr(inner, "_gather_rows"):
        # a ShardedVariable, bare or wrapped (a Keras variable over one: TF 2.21's tape asks the
        # Keras variable for `.handle`, which is `value.handle`): differentiate its `.variables`
        # (clauses pss.sharded-variable, keras.variable.sharded)
        raise AttributeError(f"'{type(inner).__name__}' object has no attribute 'handle'")
    if _is_variable(x):
        return id(variable_key(x))
    from simdist.runtime.autodiff.gradient_args import not_a_tensor
    raise not_a_tensor(x)


def aggregate(grads: list[Any]) -> Any:
    """The sum of several gradients of one tensor, as TF's _aggregate_grads."""
    from simdist.runtime.ops import array, math
    if len(grads) == 1:
        return grads[0]
    if all(isinstance(g, Tensor) for g in grads):
        return math.add_n(grads)
    if any(isinstance(g, Tensor) for g in grads):
        return math.add_n([g if isinstance(g, Tensor) else g._as_tensor() for g in grads])
    idx = [g.indices for g in grads]
    if any(i.dtype.name == "int64" for i in idx):
        idx = [i if i.dtype.name == "int64" else math.cast(i, "int64") for i in idx]
    return IndexedSlices(array.concat([g.values for g in grads], 0), array.concat(idx, 0), grads[0].dense_shape)


def _zeros_for(x: Any) -> Any:
    from simdist.runtime.ops import array
    return array.zeros(x.shape.as_list(), x.dtype)


def _ones_for(x: Any) -> Any:
    from simdist.runtime.ops import array
    if x.dtype.name == "string":   # (the seed of a string target: the Ones kernel, not tf.ones, which refuses
        from simdist.runtime.ops import dispatch   # a string dtype; TF's backprop._ones gives None there)
        return dispatch.execute(array.ONES, (), {"shape": tuple(x.shape.as_list()), "dtype": x.dtype})
    return array.ones(x.shape.as_list(), x.dtype)


def imperative_grad(tape: Any, targets: Sequence[Any], sources: Sequence[Any], output_gradients: Any,
                    unconnected: str, taped_sources: bool = False) -> list[Any]:
    """The gradient of the targets (summed) with respect to each source, from `tape` (a _Tape).
    `taped_sources` (GradientTape's rule, not tf.gradients'): a source must be on the tape or a target."""
    tensor_tape = tape.tensor_tape
    op_tape = tape.op_tape
    target_ids = [_key(t) for t in targets]
    source_ids = [_key(s) for s in sources]
    source_set = set(source_ids)

    # 1. the ops the targets depend on, and how often each tensor is used by them
    usage: dict[int, int] = {}
    ops: dict[int, Any] = {}
    stack = [k for k in target_ids]
    while stack:
        k = stack.pop()
        op_id = tensor_tape.get(k)
        if op_id is None or op_id == -1 or op_id in ops:
            continue
        entry = op_tape.get(op_id)
        if entry is None:
            continue
        ops[op_id] = entry
        for i in entry.input_ids:
            if i in usage:
                usage[i] += 1
            else:
                usage[i] = 1
                if i in tensor_tape:
                    stack.append(i)
    missing: dict[int, int] = {}
    for k in usage:
        op_id = tensor_tape.get(k)
        if op_id is not None and op_id != -1:
            missing[op_id] = missing.get(op_id, 0) + 1

    # 2. the targets' seeds
    gradients: dict[int, list[Any]] = {}
    for n, (t, k) in enumerate(zip(targets, target_ids)):
        g = None if output_gradients is None or n >= len(output_gradients) else output_gradients[n]
        if g is None:
            op_id = tensor_tape.get(k)
            if (op_id is not None and op_id != -1 and op_id in ops) or k in source_set:
                g = _ones_for(t)
            else:
                continue
        gradients.setdefault(k, []).append(g)

    # 3. the ops, each once all users of its outputs are done
    ready = sorted((op_id for op_id in ops if missing.get(op_id, 0) == 0), reverse=True)
    while ready:
        op_id = ready.pop()
        entry = ops[op_id]
        out_grads: list[Any] = []
        any_grad = False
        for j, k in enumerate(entry.output_ids):
            gs = gradients.get(k)
            if gs:
                any_grad = True
                out_grads.append(aggregate(gs) if len(gs) > 1 else gs[0])
                if k not in source_set:
                    del gradients[k]
                else:   # (a source's sum is kept for step 4, not summed again: TF's imperative_grad keeps the
                    gradients[k] = [out_grads[-1]]   # aggregate, one AddN node; conc58)
            else:
                out_grads.append(None)
        if any_grad:
            for j, g in enumerate(out_grads):
                if g is None and j not in entry.none_ok:
                    out_grads[j] = _zeros_for(entry.outputs[j])
            if entry.grad_scope is None:
                in_grads = list(entry.backward(*out_grads))
            else:   # (inside a tf.function: the scope its gradient's nodes are named in, runtime/graph_names.py)
                if len(out_grads) == 1 and isinstance(out_grads[0], Tensor) and \
                        grad_controls.drives_control(entry.op_type, out_grads[0].dtype):
                    symbolic.drive_control(out_grads[0])   # (`with ops.control_dependencies([grad])`)
                with name_scopes.name_scope(entry.grad_scope):
                    in_grads = list(entry.backward(*out_grads))
            if len(in_grads) != len(entry.input_ids):
                raise ValueError(f"the gradient of {entry.op_type} returned {len(in_grads)} gradients for "
                                 f"{len(entry.input_ids)} inputs")
        else:
            in_grads = [None] * len(entry.input_ids)
        for k, g in zip(entry.input_ids, in_grads):
            if g is not None:
                gradients.setdefault(k, []).append(g)
            c = usage.get(k)
            if c:
                usage[k] = c - 1
                if c == 1:
                    producer = tensor_tape.get(k)
                    if producer is not None and producer != -1 and producer in ops:
                        missing[producer] -= 1
                        if missing[producer] == 0:
                            ready.insert(0, producer)

    # 4. the sources' gradients. Under a GradientTape a source the tape never saw (not watched, not
    # made by a recorded op) and that is not a target gets none, although an op of a watched tensor
    # took it as an input: TF 2.21's `tape.gradient(sum(x * v), [v, x])` with x an unwatched
    # constant is [grad, None]. (tf.gradients in a graph differentiates any tensor.)
    target_set = set(target_ids)
    out: list[Any] = []
    for s, k in zip(sources, source_ids):
        seen = not taped_sources or k in tensor_tape or k in target_set
        gs = gradients.get(k) if seen else None
        if gs:
            out.append(aggregate(gs))
        elif getattr(unconnected, "value", unconnected) == "zero":
            out.append(_zeros_for(s))
        else:
            out.append(None)
    return out
