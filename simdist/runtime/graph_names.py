"""The names TF gives the nodes of a tf.function's graph (docs/spec.md `function.symbolic-tensors`, node names).

TF 2.21 names every node its Python builds in a FuncGraph (ops.py `Graph.unique_name`, observed):
an op is named by its `name`, else its type, below the current name scope; a name already in use,
compared without case, takes the first free suffix `_1`, `_2`, ... (so after `mul`, tf.multiply's
node is `Mul_1`). A public function that opens a name scope (`x * y`: binary_op_wrapper's "mul")
names its main op by that scope (`mul`, `mul_1`, `blk/mul`); other ops made inside it are named
below it (`mul/y`). A gradient function a tape runs inside a tf.function runs in the absolute scope
`gradient_tape/<the forward op's scope>/` (backprop._gradient_function); tf.gradients runs each in
`<its name scope>/<the op's node name>_grad/` (gradients_util). A tensor's name is its node's with
the output index (`mul:0`).

simdist runs the function's Python eagerly: each running tf.function call has its own GraphNames
(begun and ended with the call), the op dispatch names the outputs of the ops the Python makes
(ops a Grappler rewrite runs instead take no name: TF names the graph before optimizing it), and
the names are marked on the graph tensors (runtime/symbolic.py). The names order an AddN's inputs
as Grappler's canonical form does (runtime/ops/grappler.py `_by_name`).
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import re
from typing import Any, Callable

__all__ = ["GraphNames", "begin", "end", "current", "state", "set_state", "scope_name", "op_scope",
           "given_name", "first_op_named", "reserve", "identity_n", "scoped", "inner_name", "name_outputs",
           "name_read", "capture_variable", "captures", "name_constant", "named_constant", "quiet", "capture_name", "name_captures",
           "name_rewritten_inner", "inner_mark", "name_inner_nodes", "name_literal",
           "generated_op_scope"]

# ops.py's patterns: a scope at the root must be a valid op name; below it, a valid scope name
_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class GraphNames:
    """The names in use in one function graph (TF's Graph._names_in_use) and the exact name the
    next op of a given type takes (a public function's scope, `pending`)."""

    __slots__ = ("in_use", "pending", "quiet", "captures")

    def __init__(self) -> None:
        self.in_use: dict[str, int] = {}
        # (the op types, the exact node name) of open op scopes; (None, a name not yet reserved) for a public
        # function's `name=` whose first node of any type takes it (first_op_named)
        self.pending: list[tuple[tuple | None, str]] = []
        self.quiet = 0   # > 0 while a Grappler rewrite runs its ops: they take no names
        # id of a tensor made outside the call -> (the tensor, kept alive while the call runs; its capture's name)
        self.captures: dict[int, tuple[Any, str]] = {}

    def unique(self, name: str) -> str:
        """TF's Graph.unique_name(name) with the name stack already prefixed: the first of `name`,
        `name_1`, `name_2`, ... not in use (without case), marked as used."""
        key = name.lower()
        i = self.in_use.get(key, 0)
        self.in_use[key] = i + 1
        if i > 0:
            base = key
            while key in self.in_use:
                key = f"{base}_{i}"
                i += 1
            self.in_use[key] = 1
            name = f"{name}_{i - 1}"
        return name

    def mark(self, name: str) -> None:
        """A node named outside unique() (a placeholder): its name is in use."""
        key = name.lower()
        if key not in self.in_use:
            self.in_use[key] = 1


_STACK: list[GraphNames] = []   # one per running tf.function call, the innermost last


def begin() -> None:
    """A tf.function call's Python starts: a graph with no names in use."""
    _STACK.append(GraphNames())


def end() -> None:
    _STACK.pop()


def current() -> GraphNames | None:
    """The innermost running call's names (None outside a tf.function)."""
    return _STACK[-1] if _STACK else None


def state() -> list[GraphNames]:
    """This program's stack of graphs' names (the clients of simdist.launch keep their own)."""
    return _STACK


def set_state(stack: list[GraphNames] | None) -> None:
    global _STACK
    _STACK = [] if stack is None else stack


def scope_name(prefix: str, name: str) -> str:
    """The name stack `tf.name_scope(name)` enters below `prefix` (with its "/", or "") in a graph:
    the name validated as ops.py's Graph.name_scope does (ValueError), then made unique."""
    names = current()
    if names is None:
        return prefix + name
    _cancel_first_op(names)
    text = None
    if prefix:
        if not _VALID_SCOPE_NAME.match(name):
            text = (f"'{name}' is not a valid scope name. A scope name has to match the following pattern: "
                    f"{_VALID_SCOPE_NAME.pattern}")
    elif not _VALID_OP_NAME.match(name):
        text = (f"'{name}' is not a valid root scope name. A root scope name has to match the following pattern: "
                f"{_VALID_OP_NAME.pattern}")
    if text is not None:   # (raised as the trace raises it: AutoGraph's "in user code:" frame)
        from simdist.runtime.ops import trace_errors
        raise trace_errors.static(ValueError(text), ValueError, text)
    return names.unique(prefix + name)


class op_scope:  # noqa: N801 - a context manager, named as TF's ops.name_scope
    """`with op_scope("mul", "Mul"):` what TF's `with ops.name_scope(None, "mul", ...) as name:
    gen_math_ops.mul(x, y, name=name)` does inside a tf.function: a unique scope below the current
    one, whose first node of one of the op types given takes the scope's own name. Outside a
    tf.function it does nothing."""

    __slots__ = ("default", "ops", "_scope", "_entry")

    def __init__(self, default: str, *ops: str) -> None:
        self.default = default
        self.ops = ops
        self._scope: Any = None
        self._entry: Any = None

    def __enter__(self) -> None:
        names = current()
        if names is None:
            return
        from simdist.runtime import name_scopes
        _cancel_first_op(names)
        self._scope = name_scopes.name_scope(self.default)
        full = self._scope.__enter__()
        self._entry = (self.ops, full[:-1])
        names.pending.append(self._entry)

    def __exit__(self, *exc: object) -> None:
        if self._scope is None:
            return
        _close(self._entry)
        self._scope.__exit__(*exc)

    def names_last(self, *ops: str) -> "_named_by_scope":
        """`with scope.names_last("Neg"):` around the function's last op, where TF's Python names that op by the scope
        (`gen_math_ops.neg(softplus(-x), name=name)` in log_sigmoid's scope: the inner ops below it, the last op
        the scope's own name); nothing outside a tf.function."""
        return _named_by_scope(None if self._entry is None else (ops, self._entry[1]))

    def claim(self, result: Any) -> Any:
        """The function's result, named by the scope when no op of its types took the name (simdist
        made it without one: `tf.range(3)`'s constant, TF's Range node `range`); a named result keeps
        its name (symbolic.name_output)."""
        names = current()
        if self._entry is not None and names is not None and not names.quiet and self._entry not in names.pending:
            from simdist.runtime import symbolic
            symbolic.name_output(result, self._entry[1], 0)
        return result


class _named_by_scope:  # noqa: N801
    __slots__ = ("_entry",)

    def __init__(self, entry: Any) -> None:
        self._entry = entry

    def __enter__(self) -> None:
        names = current()
        if names is None or self._entry is None:
            self._entry = None
            return
        names.pending.append(self._entry)

    def __exit__(self, *exc: object) -> None:
        _close(self._entry)


def _close(entry: Any) -> None:
    """The scope of `entry` ends: its exact name is no longer waiting for an op (if none took it)."""
    names = current()
    if entry is not None and names is not None and names.pending and names.pending[-1] is entry:
        names.pending.pop()


class given_name:  # noqa: N801
    """`with given_name(name, "Identity"):` a public function's `name=` argument (`tf.identity(x,
    name="mine")`): its op's node is `name` below the current scope, made unique. Nothing outside a
    tf.function or for name None."""

    __slots__ = ("name", "ops", "_entry")

    def __init__(self, name: str | None, *ops: str) -> None:
        self.name = name
        self.ops = ops
        self._entry: Any = None

    def __enter__(self) -> None:
        names = current()
        if names is None or not self.name:
            return
        from simdist.runtime import name_scopes
        _cancel_first_op(names)
        self._entry = (self.ops, names.unique(name_scopes._current() + self.name))
        names.pending.append(self._entry)

    def __exit__(self, *exc: object) -> None:
        _close(self._entry)


class first_op_named:  # noqa: N801
    """`with first_op_named(name):` the `name=` argument of a public function whose TF Python hands it to its one
    generated op (`gen_math_ops._sum(..., name=name)`: `tf.reduce_sum(x, name="loss")` is the node `loss`, or
    `loss_1` when that name is in use) and whose simdist implementation names nothing itself: the first node the
    call makes, of any type, is `name` below the scope current at the call, made unique when that node is made. A
    function that names its own nodes (it opens a scope or gives a name: op_scope, given_name, a name scope) cancels
    it; nested calls keep the outermost. Nothing outside a tf.function or for name None."""

    __slots__ = ("name", "_entry")

    def __init__(self, name: Any) -> None:
        self.name = name
        self._entry: Any = None

    def __enter__(self) -> None:
        names = current()
        if names is None or not isinstance(self.name, str) or not self.name:
            return
        if names.pending and names.pending[-1][0] is None:
            return   # (an outer public function's name is waiting for the same first node)
        from simdist.runtime import name_scopes
        self._entry = (None, name_scopes._current() + self.name)
        names.pending.append(self._entry)

    def __exit__(self, *exc: object) -> None:
        _close(self._entry)


def reserve(*nodes: str) -> None:
    """Nodes TF's Python makes at this point that simdist computes without one (a reduction's `Const` of axes):
    their names, below the current scope, are in use from here on, so the next node of that name counts on as in
    TF's graph. Nothing outside a tf.function or while a rewrite runs."""
    names = current()
    if names is None or names.quiet:
        return
    from simdist.runtime import name_scopes
    prefix = name_scopes._current()
    for node in nodes:
        names.unique(prefix + node)


def identity_n(outs: list) -> None:
    """TF's graph-mode custom_gradient (custom_gradient.py `_graph_mode_decorator`) passes its results' Identity ops,
    its arguments and variables through one IdentityN, whose first outputs it returns: outs, named by their Identity
    ops, become `IdentityN:k` (a unique IdentityN node below the current scope). Nothing outside a tf.function."""
    names = current()
    if names is None or names.quiet:
        return
    from simdist.runtime import name_scopes, symbolic
    node = names.unique(name_scopes._current() + "IdentityN")
    ins = tuple(outs)
    for k, t in enumerate(outs):
        symbolic.rename_output(t, node, k, "IdentityN", ins)


def _cancel_first_op(names: GraphNames) -> None:
    """A scope or a given name opens: a waiting first_op_named entry is not the function's naming (it names its
    own nodes)."""
    if names.pending and names.pending[-1][0] is None:
        names.pending.pop()


def scoped(default: str, *ops: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorate a public function whose TF Python opens `with ops.name_scope(name, default, ...)` (or
    names its one op `name`, default `default`): inside a tf.function its first op of the types given
    is the node `name` or `default` made unique (`transpose`, `concat_1`, `Cast`), its other ops are
    named below it (`transpose/perm`). The function's `name` parameter is read by keyword or position."""
    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        params = list(inspect.signature(fn).parameters)
        at = params.index("name") if "name" in params else None

        @functools.wraps(fn)
        def in_scope(*args: Any, **kwargs: Any) -> Any:
            if not _STACK:
                return fn(*args, **kwargs)
            name = kwargs.get("name") if at is None or len(args) <= at else args[at]
            scope = op_scope(name if isinstance(name, str) and name else default, *ops)
            with scope:
                result = fn(*args, **kwargs)
            return scope.claim(result)
        return in_scope
    return decorate


def inner_name() -> str | None:
    """The current scope as an absolute name (`ones_like/`), for a public function that hands its own
    scope to another as TF's Python does (`ones(shape, name=name)` inside ones_like's scope: the inner
    function's node takes the outer's name); None outside a tf.function."""
    if current() is None:
        return None
    from simdist.runtime import name_scopes
    return name_scopes._current() or None


class quiet:  # noqa: N801
    """`with quiet():` ops a Grappler rewrite runs in place of the op the Python asked for: not
    nodes of TF's Python graph, so they take no name."""

    __slots__ = ("names",)

    def __enter__(self) -> None:
        self.names = current()
        if self.names is not None:
            self.names.quiet += 1

    def __exit__(self, *exc: object) -> None:
        if self.names is not None:
            self.names.quiet -= 1


# (tensor, prefix, op type, inputs) of the extra nodes a Grappler rewrite made, named once the rewritten node is
_INNER: list[tuple[Any, str, str, tuple]] = []


def name_rewritten_inner(t: Any, prefix: str, op_type: str, inputs: tuple = ()) -> None:
    """A node a Grappler rewrite adds beside the node it rewrites (ConvertPowStage's `Square` of `Pow(x, 3)`, which
    becomes Mul(x, that Square)): named `<scope>/<prefix><base>` after the rewritten node `<scope>/<base>` once the
    op dispatch has named it (`name_inner_nodes`), as arithmetic_optimizer.cc's OptimizedNodeName does (observed on TF
    2.21: `Gelu/ArithmeticOptimizer/ConvertPow__inner_Pow`). Its name places it in the canonical order of a product
    tree (grappler.py `_min_broadcasts`)."""
    _INNER.append((t, prefix, op_type, tuple(inputs)))


def inner_mark() -> int:
    """The count of nodes `name_rewritten_inner` holds now (the op dispatch's mark before it runs a rewrite)."""
    return len(_INNER)


def name_inner_nodes(rewritten: Any, mark: int) -> None:
    """Name the nodes `name_rewritten_inner` held since the held list had `mark` entries (the rewrite of one op: a
    rewrite's own ops may be rewritten inside it) after the rewritten node whose output is `rewritten` (none when
    that has no name); those entries are dropped."""
    from simdist.runtime import symbolic
    held = _INNER[mark:]
    del _INNER[mark:]
    node = symbolic.node_name(rewritten) if rewritten is not None else None
    if node is None:
        return
    scope, _, base = node.rpartition("/")
    for t, prefix, op_type, inputs in held:
        symbolic.name_output(t, (scope + "/" if scope else "") + prefix + base, 0, op_type, inputs)


def name_outputs(op: Any, outs: tuple, inputs: Any = ()) -> None:
    """Name the node op makes (inside a tf.function's Python) and mark its outputs `node:k` (with the
    op's type and `inputs`, the tensors it read: symbolic.producer); an output that already has a
    name (one a rewrite forwarded) keeps it."""
    names = current()
    if names is None or names.quiet:
        return
    from simdist.runtime import name_scopes, symbolic
    pending = names.pending
    if pending and pending[-1][0] is None:
        node = names.unique(pending.pop()[1])   # (a public function's name=, reserved by its first node)
    elif pending and op.name in pending[-1][0]:
        node = pending.pop()[1]   # (the op the scope was opened for: the scope's name, already in use)
    else:
        node = names.unique(name_scopes._current() + op.name)
    ins = tuple(inputs)
    for k, t in enumerate(outs):
        symbolic.name_output(t, node, k, op.name, ins)
    name_captures(op, ins, node)


def name_captures(op: Any, inputs: Any, node: str | None = None) -> None:
    """Name the tensors made outside the call that op (its node `node`; None: before the node is named, as a
    Grappler rule asks) takes first: `capture_name`."""
    names = current()
    if names is None or names.quiet:   # (a rewrite's own ops name nothing)
        return
    for k, t in enumerate(inputs):
        if id(t) not in names.captures and _capturable(t):
            if op.name in _CONVERTED_BY_UID and _CONVERTED_BY_UID[op.name] in (k, None):
                # (converted before the op by a call that names the capture `str(ops.uid())`: no letter, so at run
                # time it is an argument `unknown`, `unknown_0`, `unknown_1`, ... in capture order: NodeNameMapping's
                # Normalize, then UniquifyHelper's suffixes from _0)
                n = sum(1 for _, c in names.captures.values() if c.startswith("unknown"))
                names.captures[id(t)] = (t, "unknown" if n == 0 else f"unknown_{n - 1}")
                continue
            arg = _input_name(op.name, k) if node is not None else None
            if arg is not None:
                names.captures[id(t)] = (t, names.unique(f"{node}/{arg}"))


# ops whose TF Python converts a closed-over input (this index; None: every input) without a name, before the op
# (add_n's convert_n_to_tensor_or_indexed_slices, a slice's _slice_helper: FuncGraph names the capture by a uid)
_CONVERTED_BY_UID: dict[str, int | None] = {"AddN": None, "StridedSlice": 0}


def _capturable(t: Any) -> bool:
    """A tensor made outside the running call (an eager tensor it closes over), which TF's graph captures."""
    from simdist.runtime import symbolic
    from simdist.runtime.tensor import Tensor
    return isinstance(t, Tensor) and not symbolic.is_graph(t)


@functools.lru_cache(maxsize=None)
def _input_name(op_type: str, k: int) -> str | None:
    """The name of input k of TF's op `op_type` (its OpDef's input arg), where the inputs before it are single
    tensors; None for a list input or an op simdist has no signature of."""
    from simdist.runtime.ops import raw_ops
    sig = raw_ops.opdefs()["ops"].get(op_type)
    if sig is None:
        return None
    inputs = [a for a in sig["args"] if "input" in a]
    if k >= len(inputs) or any("number_attr" in a or "type_list_attr" in a for a in inputs[:k + 1]):
        return None
    return inputs[k]["input"]   # type: ignore[no-any-return]


def name_literal(t: Any, op_type: str, k: int) -> None:
    """t, a Const simdist made of a Python value for input k of the op `op_type` whose scope is open and waiting for
    it (an operator's `mul`, math_ops.pow's `Pow`): TF converts that value under the op's scope with the input's name
    (op_def_library's _apply_op_helper, binary_op_wrapper's maybe_promote_tensors, math_ops.add's and truediv's
    `name="y"`), so `x * 2` reads the Const `mul/y` and `2 * x` reads `mul/x` (observed on TF 2.21). Grappler's
    canonical order sorts a commutative op's inputs by those names (runtime/ops/grappler.py `_sorted_operands`). Nothing
    where no such scope waits (the node's name is not known yet) or outside a tf.function."""
    names = current()
    if names is None or names.quiet or not names.pending:
        return
    ops, node = names.pending[-1]
    if ops is None or op_type not in ops:
        return
    arg = _input_name(op_type, k)
    if arg is None:
        return
    from simdist.runtime import symbolic
    if symbolic.node_name(t) is not None or not symbolic.is_graph(t):
        return
    symbolic.name_output(t, names.unique(f"{node}/{arg}"), 0, "Const")


def generated_op_scope(op_type: str) -> Any:
    """The scope TF's generated op function opens when it is called without a name (op_def_library's
    _apply_op_helper: `ops.name_scope(op_type)`, whose name its node takes), around a call whose Python value simdist
    converts (`tf.multiply(x, 2)` reads the Const `Mul/y`: name_literal). A no-op outside a tf.function, or where a
    scope already waits for op_type or a public function's `name=` waits for the first node."""
    names = current()
    if names is None or names.quiet or (names.pending and (names.pending[-1][0] is None
                                                           or op_type in names.pending[-1][0])):
        return contextlib.nullcontext()
    return op_scope(op_type, op_type)


def capture_name(t: Any) -> str | None:
    """The name of the capture of t, a tensor made outside the running call, in its graph: TF 2.21's func_graph
    captures a closed-over tensor when an op first takes it, converting it under the op's scope with the op's input
    name (`mul/y` for `x * w`, `MatMul/b`, `Square/x`; observed); None where simdist does not know it (not taken yet,
    a list input, a conversion TF names by a uid: add_n's, a slice's)."""
    names = current()
    if names is None:
        return None
    entry = names.captures.get(id(t))
    return entry[1] if entry is not None and entry[0] is t else None


def capture_variable(var: Any, t: Any) -> None:
    """A variable read inside a tf.function's Python (t the value its read gave, named by `name_read`): the first read
    captures its resource handle as a placeholder input of the graph named `<the read's node>/resource` (TF 2.21's
    FuncGraph captures the handle where its ReadVariableOp is built: `MatMul/ReadVariableOp/resource:0` for
    `tf.matmul(x, w)`, after the arguments' placeholders in ConcreteFunction.inputs, in capture order with the eager
    tensors the Python closes over; fsweep66's f-methods, fix67t). Kept in the graph's `captures` beside those."""
    names = current()
    if names is None or id(var) in names.captures:
        return
    from simdist.runtime import symbolic
    node = symbolic.node_name(t)
    if node is not None:
        names.captures[id(var)] = (var, f"{node}/resource")


def captures() -> list[tuple[Any, str]]:
    """The running call's captures in capture order: (an eager tensor or a variable, its placeholder's name)."""
    names = current()
    return [] if names is None else list(names.captures.values())


def name_read(t: Any) -> None:
    """A variable's read inside a tf.function's Python (t its value): the ReadVariableOp node below the current scope,
    made unique (TF 2.21, observed: `w * y` of a Variable w reads it before the operator's scope opens, `ReadVariableOp`,
    `ReadVariableOp_1`; `y * w` and `tf.multiply(w, y)` inside it, `mul_2/ReadVariableOp`, `Mul_3/ReadVariableOp`).
    Its name places the read in Grappler's canonical order (a product tree's leaf: grappler.py `_min_broadcasts`)."""
    names = current()
    if names is None or names.quiet:
        return
    from simdist.runtime import name_scopes, symbolic
    if symbolic.node_name(t) is not None or not symbolic.is_graph(t):
        return
    symbolic.name_output(t, names.unique(name_scopes._current() + "ReadVariableOp"), 0, "ReadVariableOp")


def named_constant(t: Any) -> Any:
    """t, a constant simdist's own code made as TF's internals make one with `constant_op.constant` (a gradient
    function's coefficient), named as that Const node: `Const` below the current scope. Grappler's canonical order
    sorts the leaves of a product by such names (runtime/ops/grappler.py)."""
    name_constant(t, None)
    return t


def name_constant(t: Any, name: str | None) -> None:
    """A user's tf.constant inside a tf.function: the Const node `name` or `Const` below the current
    scope, made unique (t made by no op simdist names; a tensor tf.constant returned as it is keeps
    its own name)."""
    names = current()
    if names is None or names.quiet:
        return
    from simdist.runtime import name_scopes, symbolic
    if symbolic.node_name(t) is not None or not symbolic.is_graph(t):
        return
    symbolic.name_output(t, names.unique(name_scopes._current() + (name or "Const")), 0)
