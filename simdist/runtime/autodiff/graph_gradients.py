"""`tf.gradients`: symbolic gradients of a tf.function's graph, as TF 2.21's gradients_util walks it
(tensorflow/python/ops/gradients_impl.py, gradients_util.py; clause function.graph-gradients).

Executing eagerly there is no graph: RuntimeError "tf.gradients is not supported when eager
execution is enabled. Use tf.GradientTape instead.". Inside a tf.function, the gradients of
sum(ys) with respect to each of xs are computed over the ops between xs and ys (those reached
from xs), each op's registered gradient applied from ys back: grad_ys weight ys (ones by
default), a tensor of stop_gradients is a constant (nothing flows through it), and an x that
ys do not reach gets None (UnconnectedGradients.NONE) or zeros (ZERO). A Python value among xs
is converted to a tensor (so it gets None); a variable among xs is differentiated through its
reads.

simdist runs a tf.function's Python on values while its recorder notes every op (simdist/runtime/
graph/recording.py), so that record is the graph: tf.gradients builds a tape of the recorded ops
reached from xs (the tape's entries, as a GradientTape would have recorded them) and walks it
with the tape's own backward pass (backprop.imperative_grad). The gradient ops it dispatches are
recorded in turn, as TF adds them to the graph, so calls that replay compute them too.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import context, execution, name_scopes, nest, symbolic
from simdist.runtime.autodiff import backprop
from simdist.runtime.autodiff.tape import UnconnectedGradients, _Entry, _densify_slices, _SLICES_THROUGH, \
    _unconnected, trainable, variable_key
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["gradients", "hessians"]


class _GraphTape:
    """A tape read from a recording: tensor_tape (key -> the op that made it) and op_tape."""

    def __init__(self) -> None:
        self.tensor_tape: dict[int, int] = {}
        self.op_tape: dict[int, _Entry] = {}
        self.next_id = 0

    def new_id(self) -> int:
        """The next entry's id (entries numbered in the order the call made them)."""
        self.next_id += 1
        return self.next_id


def _backward(op: Any, inputs: tuple, outs: tuple, attrs: Any) -> Any:
    from simdist.runtime.ops.registry import NO_GRADIENT, OpCall, gradient_function
    skip = tuple(i for i, t in enumerate(inputs) if not trainable(t.dtype))
    call = OpCall(op, inputs, outs, attrs, skip)

    def backward(*out_grads: Any) -> Any:
        fn = gradient_function(op)
        if fn is NO_GRADIENT:
            return [None] * len(call.inputs)
        if op.name not in _SLICES_THROUGH:
            out_grads = _densify_slices(out_grads)
        return fn(call, *out_grads)
    return backward


def _tape_of(rec: Any, source_keys: set[int], stops: set[int], top_only: bool = False) -> _GraphTape:
    """The recorded ops reached from the sources (not through a stopped tensor) as tape entries:
    those of the call's recording, then of each tf.cond branch or loop body being recorded inside
    it, down to `rec` (simdist/runtime/graph/branches.py)."""
    chain = [rec]
    while not top_only and getattr(chain[0], "parent", None) is not None:
        chain.insert(0, chain[0].parent)
    tape = _GraphTape()
    reached = set(source_keys)
    for r in chain:
        _add_entries(tape, r, reached, stops)
    return tape


def _add_entries(tape: _GraphTape, rec: Any, reached: set[int], stops: set[int]) -> None:
    """The entries of one recording's ops, bound ops and cond nodes, in the order it made them."""
    from simdist.runtime.graph.ir import PURE, READ
    items: dict[int, list[int]] = {}
    for i, n in enumerate(rec.nodes):
        if n.kind == PURE and n.op is None and type(n.key) is tuple and n.key[0] == "item":
            items.setdefault(n.ins[0], []).append(i)
    at = rec.tensor_at
    bound = rec.bound_ops
    b = 0
    for i, n in enumerate(rec.nodes + [None]):
        while b < len(bound) and bound[b][0] <= i:
            _add_op(tape, tape.new_id(), bound[b][1], bound[b][2], bound[b][3], bound[b][4], reached, stops)
            b += 1
        if n is None:
            break
        if n.kind == READ:
            t = at.get(i)
            key = id(variable_key(n.var))
            if t is None or key not in reached or id(t) in stops:
                continue
            k = tape.new_id()
            tape.op_tape[k] = _Entry("ReadVariableOp", (key,), (id(t),), _identity_grad, (t,))
            tape.tensor_tape[id(t)] = k
            reached.add(id(t))
            continue
        if n.kind == PURE and n.body is not None:
            _add_control_flow(tape, rec, tape.new_id(), n, [at[j] for j in items.get(i, ())], reached, stops)
            continue
        if n.kind != PURE or n.op is None:
            continue
        ins = tuple(at.get(j) for j in n.ins)
        if any(t is None for t in ins) or not any(id(t) in reached for t in ins):
            continue
        outs = tuple(at[j] for j in items.get(i, ())) if n.op.num_outputs != 1 else (at.get(i),)
        if not outs or any(t is None for t in outs):
            continue
        _add_op(tape, tape.new_id(), n.op, ins, outs, n.attrs, reached, stops)


def _add_control_flow(tape: _GraphTape, rec: Any, op_id: int, n: Any, outs: list, reached: set[int],
                      stops: set[int]) -> None:
    """A tf.cond recorded as one node (graph/branches.py): its gradient is another cond on the
    same predicate (TF's gradient of If), each branch the gradient of one forward branch walked
    over that branch's own recording, from its outputs to the tensors it captured (None made
    zeros, so that the branches agree). A while_loop's node on the path is refused: its
    iterations after the first are not recorded op by op."""
    ins = [rec.tensor_at.get(j) for j in n.ins]
    var_keys = [id(variable_key(v)) for v in n.body[-1]]
    if not any(t is not None and id(t) in reached for t in ins) and not any(k in reached for k in var_keys):
        return
    if n.body[0] == "while":
        _add_loop(tape, op_id, n, ins, outs, reached, stops)
        return
    _, pred, select, subs, flat_outs, variables = n.body
    targets = [t for t in ins[1:] if t is not None]

    def backward(*out_grads: Any) -> list:
        from simdist.runtime.ops import array, branches

        def branch_grad(k: int) -> Any:
            def grad() -> list:
                sub = subs[k]
                sources = list(sub.captured_t) + list(variables)
                keys = [id(t) for t in sub.captured_t] + [id(variable_key(v)) for v in variables]
                sub_tape = _tape_of(sub, set(keys), stops, top_only=True)
                grads = backprop.imperative_grad(sub_tape, flat_outs[k], sources, list(out_grads),
                                                 UnconnectedGradients.NONE)
                got = dict(zip(keys, grads))
                out = []
                for key, like in [(id(t), t) for t in targets] + [(id(variable_key(v)), v) for v in variables]:
                    g = got.get(key)
                    if g is not None and not isinstance(g, Tensor):
                        g = g._as_tensor() if hasattr(g, "_as_tensor") else convert_to_tensor(g)
                    out.append(array.zeros(like.shape.as_list(), like.dtype) if g is None else g)
                return out
            return grad
        grads = branches.run(branches.CASE, [branch_grad(k) for k in range(len(subs))], pred, select)
        it = iter(grads)
        return [None] + [None if t is None else next(it) for t in ins[1:]] + [next(it) for _ in variables]
    tape.op_tape[op_id] = _Entry("If", tuple(id(t) if t is not None else -1 for t in ins) + tuple(var_keys),
                                 tuple(id(t) for t in outs), backward, tuple(outs))
    for t in outs:
        if id(t) not in stops:
            tape.tensor_tape[id(t)] = op_id
            reached.add(id(t))


def _add_op(tape: _GraphTape, op_id: int, op: Any, ins: tuple, outs: tuple, attrs: Any, reached: set[int],
            stops: set[int]) -> None:
    """An op whose inputs a source reaches, as the tape entry a GradientTape would have made (its
    outputs mapped to it: a bound op after the ops that computed its outputs, so the walk takes
    its registered gradient, a custom gradient's own)."""
    if not any(id(t) in reached for t in ins):
        return
    entry = _Entry(op.name, tuple(id(t) for t in ins), tuple(id(t) for t in outs), _backward(op, ins, outs, attrs),
                   outs, op.none_grad_ok)
    # (gradients_util: each op's gradient in `<op's name>_grad` below the call's scope, `gradients/mul_grad/Mul`)
    node = symbolic.node_name(outs[0]) if outs else None
    entry.grad_scope = None if node is None else node + "_grad"
    tape.op_tape[op_id] = entry
    for t in outs:
        if id(t) not in stops:
            tape.tensor_tape[id(t)] = op_id
            reached.add(id(t))


def _add_loop(tape: _GraphTape, op_id: int, n: Any, ins: list, outs: list, reached: set[int],
              stops: set[int]) -> None:
    """A tf.while_loop recorded as one node: its gradient runs the loop again op by op (its cond's
    and body's recordings replayed through dispatch, without effect: ops.branches.untaken) from
    the node's inputs, and walks those ops from the final loop variables back to the inputs. The
    call's recording is abandoned (its iteration count is this call's): the function then runs
    its Python under a recorder on every call (tf/_function.py), with the right gradients."""
    _, progs, nvars, cpos, bpos, limit, variables = n.body
    if any(type(p) is str for p in progs):
        raise LookupError("simdist cannot differentiate this tf.while_loop inside a tf.function with tf.gradients: "
                          f"its cond or body cannot be replayed op by op ({next(p for p in progs if type(p) is str)})")

    def backward(*out_grads: Any) -> list:
        import numpy as np

        from simdist.runtime import interpret
        from simdist.runtime.ops import dispatch
        from simdist.runtime.ops.branches import _FAILED, untaken
        rec = execution.current().recorder
        rec.invalidate("tf.gradients through a tf.while_loop runs the loop again op by op (its iteration count is "
                       "this call's)")
        cc = [ins[j] for j in cpos]
        bc = [ins[j] for j in bpos]

        def unroll() -> list:
            vs = list(ins[:nvars])
            k = 0
            while limit is None or k < limit:
                if not bool(np.asarray(dispatch.static_value(interpret.run(progs[0], vs + cc)[0]))):
                    break
                vs = list(interpret.run(progs[1], vs + bc))
                k += 1
            return vs
        final = untaken(unroll, keep_recorder=True)
        if final is _FAILED:
            raise LookupError("simdist cannot differentiate this tf.while_loop: its ops failed when it ran again")
        inner = _tape_of(rec, {id(t) for t in ins} | {id(variable_key(v)) for v in variables}, stops)
        got = backprop.imperative_grad(inner, final, list(ins) + list(variables), list(out_grads),
                                       UnconnectedGradients.NONE)
        seen: set[int] = set()
        out = []
        from simdist.runtime.ops.array import zeros_like
        for t, g in zip(ins, got):   # (a tensor both a loop variable and captured: its gradient once)
            if g is None and trainable(t.dtype):
                # (while_v2's gradient loop gives every trainable input of the While a gradient: its body's
                # gradients are taken with unconnected zero and its loop starts from zeros, so a loop that ran no
                # iteration, or a body that does not use the input, gives zeros, not None: function.graph-gradients)
                g = zeros_like(t)
            out.append(None if id(t) in seen else g)
            seen.add(id(t))
        return out + [zeros_like(v) if g is None and trainable(v.dtype) else g
                      for v, g in zip(variables, got[len(ins):])]
    tape.op_tape[op_id] = _Entry("While", tuple(id(t) for t in ins) + tuple(id(variable_key(v)) for v in variables),
                                 tuple(id(t) for t in outs), backward, tuple(outs))
    for t in outs:
        if id(t) not in stops:
            tape.tensor_tape[id(t)] = op_id
            reached.add(id(t))


def _identity_grad(g: Any) -> list:
    return [g]


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients", gate_gradients: bool = False,
              aggregation_method: Any = None, stop_gradients: Any = None,
              unconnected_gradients: Any = UnconnectedGradients.NONE) -> list[Any]:
    """`tf.gradients`: the gradients of sum(ys) with respect to each of xs, inside a tf.function
    (see the module's docstring); a list, one entry per x."""
    if not context.in_function():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. Use tf.GradientTape "
                           "instead.")
    unconnected = _unconnected(unconnected_gradients)
    rec = execution.current().recorder
    if rec is None:
        raise RuntimeError("simdist computes tf.gradients from the graph a tf.function records, and this call "
                           "runs without a recording (SIMDIST_TRACE_FUNCTIONS=0, or a call inside a ClusterCoordinator "
                           "closure or an open cost section)")
    flat_ys = nest.flatten(ys)
    for y in flat_ys:
        if y is None:
            raise AttributeError("'NoneType' object has no attribute 'op'")
    flat_ys = [y if isinstance(y, Tensor) else _to_tensor(y) for y in flat_ys]
    flat_xs = [x if isinstance(x, Tensor) or _is_variable(x) else convert_to_tensor(x) for x in nest.flatten(xs)]
    flat_grad_ys = None if grad_ys is None else [None if g is None else g if isinstance(g, Tensor)
                                                 else convert_to_tensor(g) for g in nest.flatten(grad_ys)]
    stops = {id(t) for t in nest.flatten(stop_gradients)} if stop_gradients is not None else set()
    keys = {id(variable_key(x)) if _is_variable(x) else id(x) for x in flat_xs}
    top = rec
    while getattr(top, "parent", None) is not None:
        top = top.parent
    top.graph_gradients = True   # (a call that cannot be recorded keeps a recorder: tf/_function.py)
    tape = _tape_of(rec, keys, stops)
    from simdist.runtime.ops.registry import SYMBOLIC_GRADIENTS
    token = SYMBOLIC_GRADIENTS.set(True)
    try:
        with name_scopes.name_scope(name or "gradients"):   # (its nodes' names: `gradients/AddN`, runtime/graph_names.py)
            return backprop.imperative_grad(tape, flat_ys, flat_xs, flat_grad_ys, unconnected)
    finally:
        SYMBOLIC_GRADIENTS.reset(token)


def _is_variable(x: Any) -> bool:
    from simdist.runtime.autodiff.tape import _is_variable as is_var
    return not isinstance(x, Tensor) and is_var(x)


def _to_tensor(y: Any) -> Tensor:
    from simdist.runtime.variables import Variable
    return y.read_value() if isinstance(y, Variable) else convert_to_tensor(y)


def hessians(ys: Any, xs: Any, name: str = "hessians", colocate_gradients_with_ops: bool = False,
             gate_gradients: bool = False, aggregation_method: Any = None) -> list[Any]:
    """`tf.hessians` (gradients_impl.hessians): per x, the Hessian of sum(ys) with respect to x,
    of shape x.shape + x.shape: the first gradient flattened, then the gradient of each of its
    elements (TF loops over them in a while_loop; simdist's trace runs the same gradients as a
    Python loop, giving the same graph values)."""
    from simdist.runtime.ops import array
    flat_xs = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in nest.flatten(xs)]
    out = []
    for g, x in zip(gradients(ys, flat_xs, gate_gradients=gate_gradients, aggregation_method=aggregation_method),
                    flat_xs):
        flat = array.reshape(g, [-1])
        n = int(x.shape.num_elements())
        rows = [gradients(flat[j], x)[0] for j in range(n)]
        dims = list(x.shape.as_list())
        out.append(array.reshape(array.stack(rows) if rows else array.zeros([0] + dims, x.dtype), dims + dims))
    return out
