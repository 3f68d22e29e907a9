"""The op registry: one OpDef per TensorFlow op type simdist computes.

An OpDef holds what TF keeps in its op registry and gradient registry for one op type: the
forward computation (pure NumPy on arrays), the rule that gives the output dtype (and rejects
bad input dtypes), the FLOP formula the cost model charges, and the gradient function (or an
explicit "not differentiable"); and, as a JAX primitive carries its rules for every
transformation, what each consumer of a recorded graph needs to know about the op: its kind,
how it runs over stacked replica lanes (`Stacking`, for simdist.runtime.lanes) or why it runs
lane by lane, whether its cross-replica sum is one contraction over all lanes' rows, whether it
is one exactly rounded operation per element (simdist.runtime.uniform), and its cost in FLOPs
and bytes. The registration helpers (`unary`, `binary`, `reduction`) set them from the op's
kind, so a new elementwise op gets all of them by being declared one.

Every op runs through `dispatch.execute`, the only place that makes a Tensor from an op; the tape
and the graph recorder are observers of that one place. Ops whose outputs are computed elsewhere
(a collective, by the replicas' merge; a tf.custom_gradient call, by its function's own ops) are
registered the same way and reach the same observers through `dispatch.bind` (`OpDef.bound`).

Gradient functions are registered as TF registers them (`@RegisterGradient("MatMul")`), next to
the op they differentiate, and written with the public ops, so the backward pass is itself made
of dispatched ops: it is counted by the FLOP tally, recorded by an outer tape (higher-order
gradients) and by the graph recorder (a scheduled train step replays its backward pass too).
"""

from __future__ import annotations

import contextvars
from typing import Any, Callable

from simdist.runtime import subnormals as _subnormals

__all__ = ["OpDef", "OpCall", "register", "unary", "binary", "reduction", "get", "RegisterGradient",
           "NotDifferentiable", "gradient_function", "NO_GRADIENT", "registered_ops", "KINDS", "Stacking", "lanes",
           "rows", "selected_bytes", "BROADCAST", "SAME_SHAPES", "LAST_AXIS", "RESHAPED", "PERMUTED", "OVER_AXIS",
           "MATMUL_ROWS", "BATCH_MATMUL_ROWS", "CONV_INPUT_ROWS", "SHAPE_ONLY"]

# What an op computes, as its consumers group ops (fusion, rewrites, the cost model):
# elementwise (each output element from the same elements of its inputs, NumPy broadcasting),
# reduction (over axes), scan (cumulative along an axis), contraction (matmul, einsum, convolution),
# shape (moves or copies elements: reshape, transpose, slice, pad, concat), shape-query (a value
# of its input's shape only: Shape, Size, Rank), generator (an array from attributes: ones,
# eye, one_hot), gather/scatter (indexed reads and writes, segments), sort, window (pooling), nn
# (fused neural-network kernels: softmax, cross-entropy, bias add), random (draws numbers), and
# collective (a cross-replica communication: runtime/ops/collective.py), custom (a function with
# its own gradient, tf.custom_gradient: runtime/ops/custom.py), io (an effect outside the tensors:
# tf.print's write, runtime/ops/printing.py).
KINDS = ("elementwise", "reduction", "scan", "contraction", "shape", "shape-query", "generator", "gather/scatter",
         "sort", "window", "nn", "random", "collective", "custom", "io")


class Stacking:
    """How an op runs once for R replica lanes, on their values stacked along a new leading axis,
    giving each lane exactly what its own op gives (simdist.runtime.lanes.forms implements each
    form); or, as form "lanes", the reason it runs lane by lane.

    Forms: broadcast (elementwise with NumPy broadcasting: lower-rank stacked operands get
    their lane axis padded), same-shapes (elementwise over operands that must all be stacked and
    of one shape: AddN), last-axis (over the last axis only: a stacked lane keeps it last),
    reshape (the output is the input's elements reshaped), permute (Transpose: perm shifted by
    one), axis (over the `axis` attribute: shifted by one; None means every lane axis), matmul
    (stacked rows times shared weights is one matmul over all rows; stacked operands use NumPy's
    batched matmul), batch-matmul (the rows form only), rows (output rows are computed from the
    same rows of the inputs `rows`, the others shared: all lanes' rows are one batch),
    conv-backprop-input (the lanes' output gradients as one batch), shape (a value of the input's
    shape only: computed once for every lane)."""

    __slots__ = ("form", "rows", "reason")

    def __init__(self, form: str, rows: tuple[int, ...] = (), reason: str = "") -> None:
        self.form = form
        self.rows = rows
        self.reason = reason

    def __repr__(self) -> str:
        if self.form == "lanes":
            return f"lanes({self.reason!r})"
        return f"Stacking({self.form!r}{', ' + repr(self.rows) if self.rows else ''})"


BROADCAST = Stacking("broadcast")
SAME_SHAPES = Stacking("same-shapes")
LAST_AXIS = Stacking("last-axis")
RESHAPED = Stacking("reshape")
PERMUTED = Stacking("permute")
OVER_AXIS = Stacking("axis")
MATMUL_ROWS = Stacking("matmul")
BATCH_MATMUL_ROWS = Stacking("batch-matmul")
CONV_INPUT_ROWS = Stacking("conv-backprop-input")
SHAPE_ONLY = Stacking("shape")


def rows(*inputs: int) -> Stacking:
    """The rows form: the op's output rows come from the same rows of `inputs` (the others shared)."""
    return Stacking("rows", tuple(inputs))


def selected_bytes(arrays: Any, out: Any, attrs: Any) -> tuple[int, int]:
    """The bytes of an op that reads only the elements it outputs from its first input (a gather,
    a slice), and its other inputs (indices) whole: (read, written)."""
    return int(out.nbytes) + sum(int(a.nbytes) for a in arrays[1:]), int(out.nbytes)


def lanes(reason: str) -> Stacking:
    """No stacked form: the op runs lane by lane, for `reason` (shown by the coverage test)."""
    if not reason:
        raise ValueError("an op that runs lane by lane needs a stated reason")
    return Stacking("lanes", reason=reason)


class _NoGradient:
    """The gradient of an op registered as not differentiable: None for every input."""

    def __repr__(self) -> str:
        return "NO_GRADIENT"


NO_GRADIENT: Any = _NoGradient()


class OpDef:
    """One op type.

    forward(*arrays, **attrs) -> array (or a tuple of arrays when `num_outputs != 1`);
    dtype(in_dtypes, attrs) -> the output DType (or a tuple); it raises TF's error for bad inputs;
    flops(arrays, out, attrs) -> FLOPs charged (None: one per output element; the old default);
    grad: the gradient function, NO_GRADIENT, or None (not registered yet: LookupError at backprop);
    stateful: the op has effects beyond its output (random draws): never folded, merged or dropped
      by the graph recorder's optimisations;
    none_grad_ok: indices of outputs whose missing upstream gradient is passed as None (not zeros),
      as TF's backprop does for a few ops (the second output of the cross-entropy ops);
    kind: one of KINDS;
    fusion: its Stacking over replica lanes, or lanes(reason) (None: not declared, which the
      coverage test refuses);
    sums(attrs, lane_shapes) -> bool: the op contracts over the batch rows: when every input is
      stacked and sums(...) holds, the lanes' results summed are the op on all lanes' rows at once
      (each input's lanes flattened into one batch); None: not such an op;
    exact: one exactly rounded IEEE operation (or a selection) per element, so that applied to
      one element of uniform operands it gives every element of the whole computation bit for
      bit (the uniform rewrite's condition, simdist.runtime.uniform);
    bare: a NumPy function computing the op without attributes whose result already has the
      output's dtype when every input has it (the replay calls it without a wrapper); a ufunc
      forward is found bare by itself;
    bytes(arrays, outs, attrs) -> (bytes read, bytes written), for a roofline cost (None: every
      input's and output's nbytes; a shape-query reads none, a reshape-like op neither reads nor
      writes, as TF's kernels forward the buffer; see `cost` and `selected_bytes`);
    bound: "" for an op dispatch.execute computes; for an op whose outputs are computed outside it
      and then bound (dispatch.bind: a collective's merge across replicas, a custom-gradient
      function's own ops), where those values come from: the graph recorder keeps them there,
      not as a node of this op (its forward is never called);
    tape_replay: "" when a recorded tf.function call holding the op can replay op by op under a
      gradient tape (runtime/interpret.py); else why such a call runs its Python again there
      (graph.explain says it);
    subnormals: how TF's kernel treats subnormal floats (runtime/ops/subnormals.py, clause
      ops.subnormals): "flush" (inputs read as zeros, results flushed: the default of computing
      kinds), "check" (the same, with the output checked in full: NumPy kernels that compute a
      subnormal result without raising the underflow flag), "keep" (bits moved as they are: the
      default of data-movement kinds), or a function (arrays, attrs) -> one of them.
    """

    __slots__ = ("name", "forward", "dtype", "flops", "grad", "num_outputs", "stateful", "none_grad_ok", "kind",
                 "fusion", "sums", "exact", "bare", "bytes", "bound", "tape_replay", "subnormals", "graph_rule",
                 "shape_fn", "trace_shape", "lane_forward", "raw_args", "standin",
                 "standin_static", "standin_known", "taped_form")

    def __init__(self, name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
                 flops: Callable[..., float] | None = None, num_outputs: int = 1, stateful: bool = False,
                 none_grad_ok: tuple[int, ...] = (), *, kind: str, fusion: Stacking | None = None,
                 sums: Callable[[dict, list[Any]], bool] | None = None, exact: bool = False,
                 bare: Callable[..., Any] | None = None,
                 bytes: Callable[..., tuple[int, int]] | None = None,  # noqa: A002 - the cost's name
                 bound: str = "", tape_replay: str = "", subnormals: Any = None) -> None:
        if kind not in KINDS:
            raise ValueError(f"op {name!r}: kind {kind!r} is not one of {KINDS}")
        if exact and kind != "elementwise":
            raise ValueError(f"op {name!r}: only an elementwise op can be exactly rounded per element")
        self.name = name
        self.forward = forward
        self.dtype = dtype
        self.flops = flops
        self.grad: Any = None
        self.num_outputs = num_outputs
        self.stateful = stateful
        self.none_grad_ok = none_grad_ok
        self.kind = kind
        self.fusion = fusion if fusion is not None else _DEFAULT_FUSION.get(kind)
        self.sums = sums
        self.exact = exact
        self.bare = bare
        self.bytes = bytes
        self.bound = bound
        self.tape_replay = tape_replay
        self.subnormals: Any = subnormals if subnormals is not None else _subnormals.rule_for(name, kind)
        # graph_rule(recorder, tensors, attrs) -> Tensor or None: Grappler's rewrite of this op in
        # a recorded tf.function call (simdist.runtime.ops.grappler), None when it does not apply
        self.graph_rule: Callable[..., Any] | None = None
        # shape_fn(shapes, attrs) -> bool: whether TF's shape function (tensorflow/core/ops/*.cc)
        # finds the shape error the op raised, its inputs' shapes as a traced graph knows them (a
        # dimension None where unknown, a shape None where the rank is): False leaves it to the
        # kernel at run time (static_shapes.unseen). None: the shape function finds every shape
        # error the op raises (the dimensions it checks are always known).
        self.shape_fn: Callable[[list[Any], dict | None], bool] | None = None
        # trace_shape(shapes, attrs) -> str | None: TF's shape function as a traced graph runs it
        # when it adds the op, on the inputs' shapes as the graph knows them (a dimension None where
        # unknown, a shape None where the rank is): the message of the first check it fails, or
        # None. dispatch checks it before the forward inside a tf.function: a failure is TF's
        # ValueError at trace time whatever the kernel would raise (shape_checks.py). None: not
        # modelled (the kernel's own marked errors stand in).
        self.trace_shape: Callable[[list[Any], dict | None], str | None] | None = None
        # lane_forward(stacked, **attrs): for an "axis"-stacked op whose result depends on the
        # reduced tensor's layout (sums in Eigen's order: sum_order.py), the forward of replica
        # lanes stacked on axis 0, each computed as its own tensor; for a "last-axis" or "rows"
        # op whose kernel's steps see the whole tensor (Eigen's flat packets: softmax_eigen.py),
        # forward(*arrays, lanes=R, **attrs) on the lanes' rows stacked as R equal blocks, each
        # computed as its own tensor; None: `forward` serves
        self.lane_forward: Callable[..., Any] | None = None
        # raw_args: how `tf.raw_ops.<name>`'s arguments (TF's OpDef inputs and attrs) become this op's
        # tensors and attrs (a RawArgs, runtime/ops/raw_args.py), where they differ from TF's by more
        # than the default (the OpDef's inputs in order, its non-type attrs by their own names); or
        # a str: why the op has no raw form (clause ops.raw-ops). None: the default.
        self.raw_args: Any = None
        # standin(arrays, attrs) -> the output shapes (a tuple per output) TF's shape function gives
        # when the kernel refuses these inputs at run time: a dry run of a tf.function's Python goes
        # on with zeros of them past the kernel's error, as TF's trace adds the node without running
        # it (dispatch `_past_kernel_error`; an elementwise op needs none: its operands' broadcast).
        # None: the dry run stops at the kernel's error.
        self.standin: Callable[[Any, dict], tuple] | None = None
        # standin_static: whether `standin` is the shape function on the inputs' shapes alone (and its
        # zeros so the graph's static shape, which a tf.function call's retry past the kernel's error
        # lets `.shape` read: runtime/ops/pruning.py), not a guess of a value-dependent dimension
        self.standin_static: bool = False
        # standin_known(known, arrays, attrs) -> the output shapes as `standin`, from the inputs' shapes as the graph
        # knows them too (`known`: static_shapes.known_shape of each input; None entries unknown), so that a
        # dimension the graph knows is its size, not the dry run's probe's (Pack, ConcatV2 of probes that differ
        # where the graph knows one side: ssweep64); tried before `standin`
        self.standin_known: Callable[[Any, Any, dict], tuple] | None = None
        # taped_form(inputs, attrs) -> outputs: what a recorded call replayed under a gradient tape runs instead of
        # this op, for an op Grappler makes only where no gradient reads the ops it replaces (the remapper's
        # _MklSwish: under a tape TF's forward graph keeps Sigmoid and Mul, whose backward reads the Sigmoid;
        # runtime/interpret.py). None: the op itself.
        self.taped_form: Callable[[Any, dict], Any] | None = None

    def cost(self, arrays: Any, out: Any, attrs: dict | None) -> tuple[float, int, int]:
        """(FLOPs, bytes read, bytes written) of one run on `arrays` giving `out` (an array, or a
        tuple of them for a multi-output op), as dispatch charges the FLOPs."""
        outs = out if type(out) in (tuple, list) else (out,)
        fl = self.flops
        flops = sum(o.size for o in outs) if fl is None else fl(arrays, out, attrs)
        if self.bytes is not None:
            read, written = self.bytes(arrays, out, attrs)
        elif self.kind == "shape-query":
            read, written = 0, sum(int(o.nbytes) for o in outs)      # its input's metadata only
        elif self.fusion is not None and self.fusion.form == "reshape":
            read, written = 0, 0                                      # the input's buffer, re-viewed
        else:
            read = sum(int(a.nbytes) for a in arrays)
            written = sum(int(o.nbytes) for o in outs)
        return flops, int(read), int(written)

    def __repr__(self) -> str:
        return f"<OpDef {self.name}>"


class RecordedAttrs(dict):
    """An op call's attrs (what its kernel reads) with `given`: the values TF's eager fast path records
    for the gradient where they differ from the kernel's. TFE_Py_FastPathExecute keeps each attr as the
    call passed it, so a raw op's attr given as None is None to its gradient function (backprop's
    _MockOp.get_attr, make_attr), while the kernel took the default: `SelfAdjointEigV2(input=x,
    compute_v=None)` computes v, and its gradient takes the `not compute_v` branch (observed on TF 2.21;
    fz38a, tape seed 3820261207 #146)."""

    def __init__(self, attrs: dict, given: dict) -> None:
        super().__init__(attrs)
        self.given = dict(given)


class OpCall:
    """One executed op, as a gradient function sees it (TF's `op` argument): `.type`, `.inputs`,
    `.outputs`, `.get_attr(name)`, and `.skip_input_indices`: the inputs no tape needs a gradient
    for (not watched, or not of a trainable dtype), which gradient functions may skip as TF's
    do (a dense layer's input x gets no gradient: one matmul saved)."""

    __slots__ = ("opdef", "inputs", "outputs", "attrs", "skip_input_indices")

    def __init__(self, opdef: OpDef, inputs: tuple, outputs: tuple, attrs: dict | None,
                 skip_input_indices: tuple[int, ...] | None = None) -> None:
        self.opdef = opdef
        self.inputs = inputs
        self.outputs = outputs
        self.attrs = attrs or {}
        self.skip_input_indices = skip_input_indices

    @property
    def type(self) -> str:
        return self.opdef.name

    @property
    def name(self) -> str:
        return self.opdef.name

    def get_attr(self, name: str) -> Any:
        given = getattr(self.attrs, "given", None)
        if given is not None and name in given:
            return given[name]
        try:
            return self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self.opdef.name!r} has no attr named {name!r}.") from None


_OPS: dict[str, OpDef] = {}
_PENDING_GRADS: dict[str, Any] = {}
# raw-op forms declared (raw_forms.declare) before the module registering their op was imported
_PENDING_RAW: dict[str, Any] = {}


# The stacking an op of a kind has unless it states another.
_DEFAULT_FUSION: dict[str, Stacking] = {
    "elementwise": BROADCAST,
    "reduction": OVER_AXIS,
    "shape-query": SHAPE_ONLY,
    "random": Stacking("lanes", reason="each lane draws its own numbers, from its own seed or generator state"),
}


def register(name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
             flops: Callable[..., float] | None = None, **kw: Any) -> OpDef:
    """Define op type `name` (once); `kind=` is required, the other rules as OpDef takes them."""
    if name in _OPS:
        raise KeyError(f"op type {name!r} is registered twice")
    op = OpDef(name, forward, dtype, flops, **kw)
    if name in _PENDING_GRADS:
        op.grad = _PENDING_GRADS.pop(name)
    if name in _PENDING_RAW:
        op.raw_args = _PENDING_RAW.pop(name)
    _OPS[name] = op
    return op


def unary(name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
          flops: Callable[..., float] | None = None, **kw: Any) -> OpDef:
    """An elementwise op of one tensor: stacked over lanes as is, one FLOP per output element
    unless `flops` says otherwise, bytes read and written its input's and output's."""
    return register(name, forward, dtype, flops, kind="elementwise", **kw)


def binary(name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
           flops: Callable[..., float] | None = None, **kw: Any) -> OpDef:
    """An elementwise op of several tensors with NumPy broadcasting (`exact=True` when it is
    one correctly rounded operation per element)."""
    return register(name, forward, dtype, flops, kind="elementwise", **kw)


def reduction(name: str, forward: Callable[..., Any], dtype: Callable[..., Any],
              flops: Callable[..., float] | None = None, **kw: Any) -> OpDef:
    """A reduction over its `axis` attribute (None: every axis): stacked over lanes with the
    axis shifted past the lane axis."""
    return register(name, forward, dtype, flops, kind="reduction", **kw)


def get(name: str) -> OpDef:
    try:
        return _OPS[name]
    except KeyError:
        raise LookupError(f"simdist has no op type {name!r}") from None


def set_raw_args(name: str, args: Any) -> None:
    """Op type `name`'s raw-op form (tf.raw_ops), kept until the op is registered if it is not yet."""
    op = _OPS.get(name)
    if op is None:
        _PENDING_RAW[name] = args
    else:
        op.raw_args = args


def registered_ops() -> list[OpDef]:
    """Every registered op, in registration order (for the per-op test matrix)."""
    return list(_OPS.values())


class RegisterGradient:
    """`@RegisterGradient("OpType")`: the decorated `fn(op, *grads) -> input grads` is the gradient
    of OpType, as `tf.RegisterGradient` does. `op` has `.inputs`, `.outputs`, `.type` and
    `.get_attr(name)`; it returns one gradient (or None) per input."""

    def __init__(self, op_type: str) -> None:
        if not isinstance(op_type, str):
            raise TypeError(f"op_type must be a string, got {op_type!r}")
        self._op_type = op_type

    def __call__(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        op = _OPS.get(self._op_type)
        current = op.grad if op is not None else _PENDING_GRADS.get(self._op_type)
        if current is not None:
            raise KeyError(f"Registering two gradient with name '{self._op_type}'! (Previous registration "
                           f"was {current!r})")
        if op is None:
            _PENDING_GRADS[self._op_type] = fn
        else:
            op.grad = fn
        return fn


def NotDifferentiable(op_type: str) -> None:  # noqa: N802 - TF's name
    """Mark op_type as having no gradient (its inputs get None), as `tf.no_gradient` does."""
    op = _OPS.get(op_type)
    if op is None:
        _PENDING_GRADS[op_type] = NO_GRADIENT
    else:
        op.grad = NO_GRADIENT


#: set while tf.gradients walks a function's graph (autodiff/graph_gradients.py): TF's gradients_util
#: words a missing gradient its own way; a GradientTape's backprop asks the gradient registry
SYMBOLIC_GRADIENTS = contextvars.ContextVar("simdist_symbolic_gradients", default=False)


def gradient_function(op: OpDef) -> Any:
    """The registered gradient of `op`, NO_GRADIENT, or LookupError as TF raises it: a tape's
    backprop (eager or in a tf.function) gets the registry's "gradient registry has no entry for:
    Op", tf.gradients gradients_util's "No gradient defined for operation'<node>' ..." (TF's text,
    without a space before the node's name, which simdist gives as the op type; clause
    autodiff.op-gradients)."""
    g = op.grad
    if g is None:
        if not SYMBOLIC_GRADIENTS.get():
            raise LookupError(f"gradient registry has no entry for: {op.name}")
        raise LookupError(f"No gradient defined for operation'{op.name}' (op type: {op.name}). In general every "
                          "operation must have an associated `@tf.RegisterGradient` for correct autodiff, which "
                          "this op is lacking. If you want to pretend this operation is a constant in your "
                          "program, you may insert `tf.stop_gradient`. This can be useful to silence the error in "
                          "cases where you know gradients are not needed, e.g. the forward pass of "
                          "tf.custom_gradient. Please see more details in "
                          "https://www.tensorflow.org/api_docs/python/tf/custom_gradient.")
    return g
