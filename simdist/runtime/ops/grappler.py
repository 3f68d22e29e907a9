"""Grappler's value-changing rewrites, as rules on the ops they rewrite (clause
function.grappler-rewrites).

TF 2.21 runs every tf.function graph through Grappler before the first call, so its values can
differ from the same Python run eagerly: `x / sqrt(y)` becomes `x * rsqrt(y)`, a division by a
constant becomes a multiplication by its reciprocal, `pow(x, 2)` becomes `square(x)`, and so on
(tensorflow/core/grappler/optimizers/arithmetic_optimizer.cc and constant_folding.cc). simdist
records a tf.function's ops as its first call runs them (simdist.runtime.graph), so a rule here
is asked, while a call is recorded, whether it rewrites the op about to run; when it does, the
rewritten ops run instead and are what the recording holds, so the first call and every replay
compute what TF's optimized graph computes. Eager ops (no recorder) never ask.

"Constant" is the recorder's: a value that is the same in every replay (a literal, a captured
tensor, or computed from those), which is what TF's constant folding turns into a Const node
before these rewrites look.

Two moments (graph50, fz51). A rule that looks only at the op's own inputs (constants, the op that made an input),
which the rest of the graph cannot change, runs at record time (`OpDef.graph_rule`), costing no second pass:
ReduceDivToReciprocalMul and `ones / y` (`_div_rule`), Xdivy by a constant, ConvertPow, ConvertLog1p/Expm1,
SimplifyArithmeticOperations (`_simplified`: `x + zeros`, `zeros - y`, `x * ones`), ReplaceMulWithBroadcastByTile,
SimplifyAggregation of one input repeated, RemoveInvolution, ReplacePackWithTileReshape, PartialAssocOpConstFolding
and AddN's name order, MaterializeConstantValuedNode, RemoveRedundantReshape, the folded Softmax and SimplifyReduction.
A rule whose condition is that an intermediate has no other consumer runs on the finished graph instead
(`finished_phases`, simdist/runtime/graph/rewrite.py: every consumer, the outputs and tf.gradients' ops included, as
Grappler counts them; tf.gradients walked the graph as written), in Grappler's order: constant folding's
ConstantPushDown (`_push_down_rule`, nodes first to last), then the arithmetic optimizer's stages, last to first:
SqrtDivToRsqrtMul (`_sqrt_div`), MinimizeBroadcasts with the ConstantPushDown of a product past a Y that is not
constant (`_min_broadcasts`), AddOpsRewrite (`_add_ops_rule`), RemoveLogicalNot, OptimizeMaxOrMinOfMonotonic and
FuseSquaredDiff. Such a rule asks `_sole` about the intermediate and `_absorb`s what the rewrite leaves unread.
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import trace_errors
from simdist.runtime.tensor import Tensor

__all__ = ["install", "enabled", "set_enabled", "pad_removed", "finished_phases"]

# SIMDIST_GRAPPLER=0 records tf.function calls without these rewrites: traced calls then compute
# exactly what their Python computes eagerly (the replay machinery's own tests compare the two).
enabled = os.environ.get("SIMDIST_GRAPPLER", "1") != "0"

_FLOATS = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
_COMPLEX = (dtypes.complex64, dtypes.complex128)   # (canonical operand order: `x * 2` of complex x is 2 * x traced)


def _options() -> dict:
    from simdist.runtime import execution
    return execution.current().client.config.optimizer   # type: ignore[no-any-return]


def _on(owner: str) -> bool:
    """Whether the Grappler optimizer `owner` ("constant_folding", "arithmetic_optimization") runs under
    tf.config.optimizer.set_experimental_options: unless set to a false value or disable_meta_optimizer
    is set (observed on TF 2.21; "both" is ConstantPushDown, which stops only when both are off)."""
    opts = _options()
    if not opts:
        return True
    if opts.get("disable_meta_optimizer"):
        return False
    if owner == "both":
        return _on("constant_folding") or _on("arithmetic_optimization")
    v = opts.get(owner)
    return v is None or bool(v)


def _owned(owner: str, rule: Any) -> Any:
    """A rule that runs only while its optimizer does."""
    def gated(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
        return rule(rec, tensors, attrs) if _on(owner) else None
    gated.__name__ = getattr(rule, "__name__", "rule")
    gated.__doc__ = getattr(rule, "__doc__", None)
    gated.inner = rule   # type: ignore[attr-defined]   (the rule itself, for _folded_first's checks)
    return gated


def _is_float(t: Tensor) -> bool:
    return t.dtype in _FLOATS


def _const_value(rec: Any, t: Tensor) -> np.ndarray | None:
    """t's value when TF's constant folding would have made it a Const node, else None. A tensor
    captured from outside the call is a placeholder input of TF's graph, never folded (`x / c` of a
    captured c divides; fz25b, seed 1420262502 #12)."""
    if not rec.is_constant(t) or rec.is_capture(t):
        return None
    from simdist.runtime.ops import dispatch
    return np.asarray(dispatch.raw(t))


def _uniform(v: np.ndarray) -> float | None:
    """The one value every element of a constant holds (ConvertPowStage's check), else None."""
    if v.size == 0:
        return None
    flat = v.reshape(-1).astype(np.float64)
    first = flat[0]
    return float(first) if bool(np.all(flat == first)) else None


# --- arithmetic_optimizer.cc SqrtDivToRsqrtMulStage, constant_folding.cc ReduceDivToReciprocalMul
def _div_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """RealDiv/Div(x, y) of floats (and complex numbers): y a constant -> Mul(x, Reciprocal(y)) (the reciprocal folded
    in y's dtype); x a constant of ones -> Reciprocal(y). (y = Sqrt(z) with no other consumer -> Mul(x, Rsqrt(z)):
    `_sqrt_div`, on the finished graph, where every consumer is known.)"""
    from simdist.runtime.ops import dispatch, math, unary
    x, y = tensors
    simple = _simplified(rec, "RealDiv", x, y)   # (x / 1 -> x first)
    if simple is not None:
        return simple
    folding = _on("constant_folding")
    if folding and _const_value(rec, x) is not None and _const_value(rec, y) is not None:
        # (both operands Const nodes: constant_folding.cc's FoldGraph evaluates the division by its kernel before
        # any strength reduction, so the folded value is x / y; a traced strategy.reduce MEAN of a value made in
        # the function, vsweep58's v-reduce-* programs)
        return None
    if folding and x.dtype.is_complex and y.dtype == x.dtype and _const_value(rec, y) is not None:
        # (ReduceDivToReciprocalMul takes complex T too: `x / tf.constant(0.25 - 3j)` made in the
        # function is x * (1 / c), another last bit; fz25b, seed 1420262502 #12)
        return _recip_mul(x, dispatch.execute(unary.RECIPROCAL, (y,)))
    if folding and x.dtype.is_complex and y.dtype == x.dtype and _ones(_const_value(rec, x)) and \
            y.shape.as_list() == list(np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list()))):
        # (ones / y is Reciprocal(y) for complex T too, which RemoveInvolution then pairs: inside tf.function
        # `1 / reciprocal(z)` of complex64 is z; observed on TF 2.21, blind63b)
        return dispatch.execute(unary.RECIPROCAL, (y,))
    if not (_is_float(x) and _is_float(y)):
        return None
    if folding and _const_value(rec, y) is not None:
        r = dispatch.execute(unary.RECIPROCAL, (y,))
        if y.dtype is not dtypes.float16:
            r = _daz(r)
        return dispatch.execute(math.MUL, (x, r))
    if folding and _ones(_const_value(rec, x)) and y.shape.as_list() == list(np.broadcast_shapes(
            tuple(x.shape.as_list()), tuple(y.shape.as_list()))):
        return dispatch.execute(unary.RECIPROCAL, (y,))   # ones / y (SimplifyArithmeticOperations)
    return None   # (y = Sqrt(z): `_sqrt_div`, on the finished graph)


def _recip_mul(x: Tensor, r: Tensor) -> Tensor:
    """The Mul ReduceDivToReciprocalMul leaves of complex x and the folded reciprocal r: its node is named
    `ConstantFolding/<div>_recip`, and the second iteration's canonical order (`_sorted_operands`) puts it before
    every input whose name sorts after that (an argument's, lowercase), so inside tf.function complex `x / 2` is
    0.5 · x: (NaN_a + NaN_b j) / 2 keeps NaN_a + NaN_b j where x · 0.5 gives NaN_a + NaN_a j (observed on TF 2.21,
    /work/wt/fix66n_logs/p_mul3.py). x first where its name sorts before, or is unknown."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import dispatch, math
    nx = symbolic.optimized_name(x)
    first = nx is not None and nx > "ConstantFolding/~" and _on("arithmetic_optimization")
    return dispatch.execute(math.MUL, (r, x) if first else (x, r))   # type: ignore[no-any-return]


def _sqrt_div(view: Any, i: int) -> Tensor | None:
    """SqrtDivToRsqrtMul on the finished graph: RealDiv/Div(x, Sqrt(z)) of floats or complex numbers whose Sqrt has no
    other consumer (not returned, not read by another op nor by tf.gradients' ops) -> Mul(Rsqrt(z), x) (arithmetic_optimizer.cc: the
    stage requires the Sqrt's one consumer; TF 2.21 keeps `x / r` where `r = tf.sqrt(y)` is also returned or added
    on, graph50). A division the record-time rule (`_div_rule`) rewrote is no RealDiv by now."""
    from simdist.runtime.ops import dispatch, math, unary
    if not _on("arithmetic_optimization"):
        return None
    rec = view.rec
    n = rec.nodes[i]
    j = n.ins[1]
    y = rec.nodes[j]
    if y.kind != 1 or y.op is None or y.op.name != "Sqrt" or view.consumers(j) != 1:
        return None
    x, z = view.tensor(n.ins[0]), view.tensor(y.ins[0])
    if x is None or z is None or rec.is_constant(view.tensor(j)) or not (
            (_is_float(x) and _is_float(z)) or (x.dtype.is_complex and z.dtype == x.dtype)):
        return None
    view.absorbed.add(j)
    # (the stage swaps the inputs: Mul(Rsqrt(z), x), which for complex T is another product than x * rsqrt(z):
    # Eigen's complex pmul is not symmetric in its last bits and NaNs; observed on TF 2.21, fix64c)
    return dispatch.execute(math.MUL, (dispatch.execute(unary.RSQRT, (z,)), x))


def _xdivy_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Xdivy(x, y) of a constant y: constant_folding.cc ReduceDivToReciprocalMul takes Xdivy beside Div and
    RealDiv, as MulNoNan(Reciprocal(y), x) (zero where x is, x / y in another last bit: `tf.math.xdivy(v, -1.5)`
    of float64 -2.5 is 1.6666666666666665 in a tf.function, 1.6666666666666667 eagerly; TF 2.21 observed, fz47b,
    fz45_gen seed 45005 #14)."""
    from simdist.runtime.ops import dispatch, unary, xfunctions
    x, y = tensors
    if not _on("constant_folding") or _const_value(rec, y) is None or y.dtype != x.dtype:
        return None
    if not (_is_float(x) or x.dtype.is_complex):
        return None
    if _is_ones(rec, y):
        # (MulNoNan(1, x) is then simplified as a Mul by ones: x forwarded, or broadcast, its subnormals kept where
        # the kernel would flush them: `xdivy(-1e-310, 1.0)` of float64 is -1e-310 in a tf.function, 0 eagerly;
        # TF 2.21 observed, fz57, fz54b seed 57104 #4)
        r = _simplified(rec, "Mul", y, x)
        if r is not None:
            return r
    r = dispatch.execute(unary.RECIPROCAL, (y,))
    if y.dtype is not dtypes.float16 and not y.dtype.is_complex:
        r = _daz(r)
    return dispatch.execute(xfunctions.MUL_NO_NAN, (r, x))


def _daz(r: Tensor) -> Tensor:
    """The folded reciprocal as the runtime multiplication reads it: TF's CPU kernels run with
    denormals-are-zero, so a subnormal reciprocal (of a constant beyond 1/FLT_MIN: `x / -3e38`)
    counts as a zero of its sign (fuzz2 seed 20261130 #1728). float16 is exempt: Eigen computes
    half products in float32, where half subnormals are normal."""
    from simdist.runtime.ops import array
    v = np.asarray(r.numpy())
    tiny = float(dtypes.finfo(v.dtype).tiny)
    wide = v.astype(np.float64)
    sub = (wide != 0) & (np.abs(wide) < tiny)
    if not sub.any():
        return r
    return array.constant(np.where(sub, np.copysign(0.0, wide), wide).astype(v.dtype), dtype=r.dtype)


# --- arithmetic_optimizer.cc ConvertPowStage
def _pow_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Pow(x, c) with every element of the constant c equal: 2 -> Square(x); 3 -> Mul(x,
    Square(x)) (on CPU); 0.5 -> Sqrt(x); -0.5 -> Rsqrt(x); -1 -> Reciprocal(x); 1 -> Identity(x) where
    the shapes allow (`_identity_shaped`). (0 becomes ones where the shapes allow: the same values, not
    modelled.) The rewritten ops
    take x alone, so the result has x's shape even where c would broadcast it (TF 2.21 observed:
    `x ** np.full([2], 2.0)` of a scalar x is a scalar in a tf.function; fourth fuzzer seed 2401
    #130)."""
    from simdist.runtime import graph_names
    from simdist.runtime.ops import dispatch, math, unary
    x, y = tensors
    if x.dtype.is_complex:
        return _complex_pow(rec, x, y)
    v = _const_value(rec, y)
    if v is None or x.dtype not in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64,
                                    dtypes.int32, dtypes.int64):
        return None
    c = _uniform(v)
    if c is None:
        return None
    if c == 1.0 and _identity_shaped(x, y):
        # (Identity(x): the input's bits, a subnormal kept where Pow's kernel flushes it; TF 2.21 observed:
        # `x ** 1` and tf.image.adjust_gamma(x, 1) of 1e-40 are 1e-40 in a tf.function, 0 eagerly; fz55b seed 55209
        # #75)
        return x
    if c == 2.0:
        return dispatch.execute(unary.SQUARE, (x,))
    if c == 3.0:
        # (the Square named `<scope>/ArithmeticOptimizer/ConvertPow__inner_<Pow>`, the Mul keeping the Pow's name: a
        # product `c * pow(x, 3)` is then one MinimizeBroadcasts group, (c * Square(x)) * x, half types too; fz62)
        square = dispatch.execute(unary.SQUARE, (x,))
        graph_names.name_rewritten_inner(square, "ArithmeticOptimizer/ConvertPow__inner_", "Square", (x,))
        return dispatch.execute(math.MUL, (x, square))
    if c == -1.0 and not _is_float(x):
        # (the stage rewrites integers too: Reciprocal has no integer CPU kernel, so the rewritten
        # graph fails when it runs with NotFoundError "No registered 'Reciprocal' OpKernel for 'CPU'
        # devices compatible with node {{node pow}}", where Pow's kernel would refuse the negative
        # power; fourth fuzzer seed 2401 #130)
        raise errors.NotFoundError(None, None, "No registered 'Reciprocal' OpKernel for 'CPU' devices compatible "
                                               "with node {{node pow}}")
    if not _is_float(x):
        return None
    op = {0.5: unary.SQRT, -0.5: unary.RSQRT, -1.0: unary.RECIPROCAL}.get(c)
    return None if op is None else dispatch.execute(op, (x,))


def _identity_shaped(x: Tensor, y: Tensor) -> bool:
    """ConvertPowStage's condition for Identity(x): x's shape is the output's (ShapesSymbolicallyEqual, an unknown
    dimension of x the output's own), a known rank."""
    from simdist.runtime.ops import static_shapes
    known = static_shapes.graph_known_shape(x)
    if known is None:
        return False
    try:
        out = list(np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list())))
    except ValueError:
        return False
    ys = y.shape.as_list()
    return (None not in known and list(known) == out) or (len(ys) <= len(known) and all(d == 1 for d in ys))


def _complex_pow(rec: Any, x: Tensor, y: Tensor) -> Tensor | None:
    """ConvertPowStage of a complex Pow(x, c): c = 0 where x's shape is the output's and fully
    known is a Const of ones, c = 1 where it is the output's is Identity(x) (TF 2.21, observed: `x **
    -0.0` of a [2, 3, 3, 4] complex128 spec is 1 at x = 0, whose Pow kernel gives NaN + NaNj; `x ** 1.0`
    of a [None] spec is x; an unknown rank, or a c that broadcasts x, runs the kernel; fz38b, fz14 seed 1420383003 #241). c = 2, 3, 0.5, -0.5,
    -1: Square, Mul(x, Square(x)), Sqrt, Rsqrt, Reciprocal of x alone, as for real x (gsweep59)."""
    from simdist.runtime.ops import array, static_shapes
    v = _const_value(rec, y)
    if v is None or v.size == 0:
        return None
    flat = v.reshape(-1).astype(np.complex128)
    c = complex(flat[0])
    if not bool(np.all(flat == c)):
        return None
    if c in (2, 3, 0.5, -0.5, -1):
        # (the stage's other exponents take complex x as real x: Square, Mul(x, Square(x)), Sqrt, Rsqrt, Reciprocal
        # of x alone; TF 2.21 observed: `x ** 2` of complex64 1.5-2j is Square's exact -1.75-6j in a tf.function,
        # the Pow kernel's -1.75-6.0000005j eagerly; gsweep59's g-pow-*-complex* programs)
        from simdist.runtime.ops import dispatch, math, unary
        if c == 3:
            return dispatch.execute(math.MUL, (x, dispatch.execute(unary.SQUARE, (x,))))
        op = {2: unary.SQUARE, 0.5: unary.SQRT, -0.5: unary.RSQRT, -1: unary.RECIPROCAL}[c.real]
        return dispatch.execute(op, (x,))
    if c not in (0, 1):
        return None
    known = static_shapes.graph_known_shape(x)
    try:
        out = list(np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list())))
    except ValueError:
        return None
    if known is None:
        return None
    ys = y.shape.as_list()
    same = (None not in known and list(known) == out) or (len(ys) <= len(known) and all(d == 1 for d in ys))
    if c == 1 and same:   # (ShapesSymbolicallyEqual: an unknown dimension of x is the output's own)
        return x
    if c == 0 and same and None not in known:   # (and the output fully defined)
        return array.constant(np.ones(out, x.dtype._np), dtype=x.dtype)
    return None


# --- arithmetic_optimizer.cc ConvertLog1pStage and ConvertExpm1Stage
def _ones(v: np.ndarray | None) -> bool:
    if v is not None and v.dtype.kind == "c":   # (IsOnes of a complex Const: 1 + 0j)
        return v.size > 0 and bool(np.all(v == 1.0))
    return v is not None and v.size > 0 and v.dtype.kind in "fV" and bool(np.all(v.astype(np.float64) == 1.0))


def _is_ones(rec: Any, t: Tensor) -> bool:
    """IsOnes: a Const of ones or a OnesLike node."""
    node = rec.producer(t)
    return (node is not None and node.op.name == "OnesLike") or _ones(_const_value(rec, t))


# --- constant_folding.cc SimplifyArithmeticOperations: operations with ones or zeros forward an input
def _simplified(rec: Any, kind: str, x: Tensor, y: Tensor) -> Tensor | None:
    """Mul, RealDiv, AddV2 or Sub (`kind`) of floats or complex numbers with a constant of ones
    or zeros, as constant folding simplifies it before any other rewrite: 1 * y, 0 + y -> y and
    0 - y -> Neg(y) when y has the output's shape; x * 1, x / 1, x + 0, x - 0 -> x when x has it;
    else, when the constant itself has the output's shape, the other input broadcast to it
    (BroadcastTo); otherwise the op runs. The forwarded input keeps its bits: a subnormal that the
    op's kernel (denormals-are-zero) would flush survives, and complex operands are simplified as
    real ones (fz33b: third generator --ext8 seed 3302 #279, `x - 0j` of a [4, 3] complex128 spec;
    measured on TF 2.21 for float64 and complex128: `[4, 1] - zeros([1, 3])` runs the kernel,
    `[4] * ones([2, 4])` is BroadcastTo)."""
    from simdist.runtime.ops import array, dispatch, unary
    if not _on("constant_folding") or not all(_is_float(t) or t.dtype.is_complex for t in (x, y)):
        return None
    out = list(np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list())))
    x_zero = kind in ("AddV2", "Sub") and _zeros(rec, x)
    y_zero = kind in ("AddV2", "Sub") and _zeros(rec, y)
    x_one = kind == "Mul" and _is_ones(rec, x)
    y_one = kind in ("Mul", "RealDiv") and _is_ones(rec, y)
    if y.shape.as_list() == out and ((x_one or (x_zero and kind == "AddV2"))):
        return _forward(y, folded=True)
    if y.shape.as_list() == out and x_zero and kind == "Sub":
        return dispatch.execute(unary.NEG, (y,))
    if x.shape.as_list() == out and (y_one or y_zero):
        return _forward(x, folded=True)
    if x.shape.as_list() == out and (x_one or (x_zero and kind == "AddV2")):
        return array.broadcast_to(y, out)
    if y.shape.as_list() == out and (y_one or y_zero):
        return array.broadcast_to(x, out)
    return None


def _forward(x: Tensor, folded: bool = False) -> Tensor:
    """x as the simplified op's output: an Identity, which the dependency optimizer then removes, so
    the op's consumers read x's node (its name orders an AddN: `_by_name`). `folded`: constant folding's (an Add
    tree behind it is AddOpsRewrite's in the second iteration: `_add_ops_rule`)."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import array
    out = array.identity(x)
    symbolic.forwarded(out, x, folded)
    return out


def _mul_no_nan_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """MulNoNan of a constant of ones, either side: constant folding simplifies it as a Mul (`_simplified`; IsAnyMul
    takes MulNoNan): `multiply_no_nan(x, ones)` and `multiply_no_nan(ones, x)` of float64 -1e-310 are -1e-310 in a
    tf.function, 0 eagerly (TF 2.21 observed; fz57)."""
    return _simplified(rec, "Mul", *tensors)


def _mul_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Mul of floats or complex numbers: `_simplified` (the tapes still see the Mul: dispatch._rewritten)."""
    return _simplified(rec, "Mul", *tensors)


def _mul_tile(rec: Any, x: Tensor, y: Tensor) -> Tensor | None:
    """arithmetic_optimizer.cc ReplaceMulWithBroadcastByTile: float32 Mul(x, ones) with x not a constant, the
    ones a Const node of 1.0f as the second operand (IsOnes of DT_FLOAT only), all three of one rank and x's
    shape not the output's -> Tile(x, output / x per dimension): so x's subnormals survive (`[6, 1] * ones([1, 3])`
    inside a tf.function keeps 5e-42 in float32, where float64's Mul kernel flushes it; observed on TF 2.21).
    Runs after constant folding's simplifications and push-down, as the arithmetic optimizer follows them.
    Limit: Grappler first sorts a commutative op's inputs by node name, so which operand is "second" depends
    on the names; simdist, which keeps none, tries both orders (`ones * x` tiles too: observed for a Reshape x,
    "Reshape" < "ones"; `reshape(x) * tf.fill(shape, 1.0)` keeps the Mul in TF, its "Fill" sorting first)."""
    from simdist.runtime.ops import slicing
    if x.dtype != dtypes.float32 or y.dtype != dtypes.float32 or rec.is_constant(x):
        return None
    v = _const_value(rec, y)   # (a literal, tf.ones, tf.fill: constant folding has made each a Const node)
    if v is None or not v.size or not bool(np.all(v == np.float32(1.0))):
        return None
    xs, ys = x.shape.as_list(), y.shape.as_list()
    if any(d is None for d in xs + ys) or len(xs) != len(ys):
        return None
    try:
        out = list(np.broadcast_shapes(tuple(xs), tuple(ys)))
    except ValueError:
        return None
    if xs == out or 0 in xs:
        return None
    return slicing.tile(x, [o // i for o, i in zip(out, xs)])


# --- arithmetic_optimizer.cc MinimizeBroadcasts (Mul), after constant_folding.cc's ConstantPushDown of a product
def _mul_input(view: Any, t: Tensor, dtype: Any) -> tuple | None:
    """The inputs of t's node when a Mul group absorbs it (IsAbsorbableByOptimizedNodeGroup): a Mul of `dtype` that
    is not folded, every dimension known, with one consumer in the finished graph (the group's: not returned, not
    read by another op nor by tf.gradients' ops), its name known, or such a Mul behind the Identity of a simplified
    op (`_forward`) with one consumer; then (left, right, the absorbed nodes), else None (t is a leaf of the
    group)."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import static_shapes
    rec = view.rec
    j = view.node_of(t)
    if j is None or t.dtype != dtype or _folds(rec, t) or symbolic.optimized_name(t) is None \
            or symbolic.drives_control(t):   # (DrivesControlDependency: a gradient's `grad`, grad_controls.py)
        return None
    n = rec.nodes[j]
    if n.kind == 1 and n.op is not None and n.op.name == "Identity" and len(n.ins) == 1 and view.consumers(j) == 1:
        # (an op constant folding simplified to its input, `zeros + p` or `p * ones`: the dependency optimizer
        # removes its Identity and the meta optimizer's second iteration groups the product behind it, so
        # polyval's `zeros + p * x` then `c + that * x` multiplies p by x * x; fz58, observed on TF 2.21)
        src = view.tensor(n.ins[0])
        if src is None or symbolic.optimized_name(src) is None or symbolic.optimized_name(src) != symbolic.optimized_name(t):
            return None
        got = _mul_input(view, src, dtype)
        return None if got is None else (got[0], got[1], (j,) + got[2])
    if n.kind != 1 or n.op is None or n.op.name != "Mul" or len(n.ins) != 2 or view.consumers(j) != 1:
        return None
    shape = static_shapes.graph_known_shape(t)
    ins = (view.tensor(n.ins[0]), view.tensor(n.ins[1]))
    if shape is None or None in shape or ins[0] is None or ins[1] is None:
        return None
    return ins[0], ins[1], (j,)


def _min_broadcasts(view: Any, i: int) -> Tensor | None:
    """A tree of float (or complex) Muls rooted at node i, on the finished graph (kfuzz49, graph50): constant folding
    first pushes a constant C down past a product whose second input Y is not constant (ConstantPushDown: `(x * y) *
    c` is x * (c * y), C no larger than Y: `_no_larger`; not the half types), then the arithmetic optimizer's
    MinimizeBroadcasts takes the tree's leaves in the order of its canonical form (every commutative node's inputs
    sorted by their nodes' names), each absorbed Mul having one consumer in the whole graph (`_mul_input`), sorts
    them by element count (stable), keeps an odd count's last (largest) for the root, and multiplies the rest
    pairwise from the front, a product going back in front when the next two leaves grow (arithmetic_optimizer.cc).
    So inside tf.function `(a * b) * s` of float32 vectors a, b and a scalar s is (s * a) * b, `a * (b * s)` is
    (s * b) * a, `(a * c) * b` with a Python float c is (c * b) * a, `((x * y) * z) * s` is (s * x) * (y * z), `(a
    * b) * c` with c a full constant vector is a * (c * b) (observed on TF 2.21, bit for bit on 4,000 elements;
    1,400-2,200 apart as written); `p = a * b; p * s + p` keeps p out of the group (it has two consumers), and so
    does a tf.gradients or tape gradient that reads p. A group of one shape keeps its order; a dimension the graph
    does not know stops it (ShapeIsSymbolicallyDefined: then only the push-down applies); a leaf whose name simdist
    does not know leaves the product as written."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import dispatch, math, static_shapes
    rec = view.rec
    node = rec.nodes[i]
    if len(node.ins) != 2:
        return None
    a, b = view.tensor(node.ins[0]), view.tensor(node.ins[1])
    if a is None or b is None:
        return None
    dt = a.dtype
    if b.dtype != dt or not (_is_float(a) or dt.is_complex) or _folds(rec, view.tensor(i)):
        return None
    name = symbolic.optimized_name
    sa, sb = static_shapes.graph_known_shape(a), static_shapes.graph_known_shape(b)
    known = _on("arithmetic_optimization") and sa is not None and sb is not None and None not in sa and None not in sb
    # a tree: (tensor, 1) for a leaf or an input the group has yet to judge, (("node", name, index), [left, right])
    # for a Mul node the push-down rewrote (its inputs in the order the push-down gives them)
    root: list = [(a, 0), (b, 0)]
    pushed = False
    rewritten: list[int] = []   # (the Mul nodes the push-down rewrote)
    if _on("both") and dt not in (dtypes.float16, dtypes.bfloat16):
        lc, rc = _really_constant(rec, a), _really_constant(rec, b)
        if lc != rc:
            c, child = (a, b) if lc else (b, a)
            down = _pushed_down(view, c, child, dt, rewritten, True)
            if down is not None:
                root = down
                pushed = True
    if not known and not pushed:
        return None
    leaves: list[Tensor] = []
    absorbed: list[int] = list(rewritten)

    def node_name(item: Any) -> str:
        t = item[0]
        return t[1] if isinstance(t, tuple) else (name(t) or "")

    def walk(items: list, canonical: bool = True) -> None:
        if canonical:   # (the canonical form: a commutative node's inputs by name; the push-down's nodes keep the
            items = sorted(items, key=node_name)   # order it gives them, X then C * Y)
        for t, rest in items:
            if isinstance(t, tuple):   # (a Mul the push-down rewrote: it feeds only its parent)
                walk(rest, False)
                continue
            got = _mul_input(view, t, dt) if known else None
            if got is None:
                leaves.append(t)
            else:
                absorbed.extend(got[2])
                walk([(u, 1) for u in got[:2]])
    walk(root, not pushed)
    shapes = [static_shapes.graph_known_shape(t) for t in leaves]
    sizes = [None if sh is None or None in sh else int(np.prod(sh)) for sh in shapes]
    unnamed = [k for k, t in enumerate(leaves) if name(t) is None]
    # (a leaf whose name simdist does not know: only where it is the one strictly smallest, which the sort puts
    # first wherever the canonical form had it)
    # (or one of the two leaves of the smallest size, the others all larger: the sort puts the two first in either
    # order and the pairing multiplies them together, which commutes: `0.3 * ((v * 1.7) * w)`'s two Python-float
    # constants, `0.3 * ((v * tf.constant(1.7)) * w)`; fz63, fz62's open E)
    ordered = not unnamed
    if unnamed and None not in sizes:
        smallest = [k for k, z in enumerate(sizes) if z == min(sizes)]
        ordered = set(unnamed) <= set(smallest) and len(smallest) <= 2
    if not known or not absorbed or None in sizes or not ordered or len({tuple(sh) for sh in shapes}) <= 1:
        if not pushed:
            return None
        view.absorbed.update(rewritten)   # (the push-down alone: x * (c * y), as constant folding leaves it)
        return _product(root)
    view.absorbed.update(absorbed)
    order = sorted(range(len(leaves)), key=lambda k: sizes[k])   # (stable)
    ops = [(leaves[k], sizes[k]) for k in order]
    leftover = ops.pop() if len(ops) % 2 else None
    while len(ops) > 1:
        (left, _), (right, _) = ops[0], ops[1]
        del ops[:2]
        made = (dispatch.execute(math.MUL, (left, right)), 1)   # (a made node's shape is left empty: a scalar's size)
        if len(ops) >= 2 and ops[0][1] < ops[1][1]:
            ops.insert(0, made)
        else:
            ops.append(made)
    if leftover is None and len(leaves) == 4 and dt not in (dtypes.float16, dtypes.bfloat16) and _on("both"):
        pushed_again = _second_push_down(view, [leaves[k] for k in order])
        if pushed_again is not None:
            return pushed_again
    out = ops[0][0]
    if leftover is not None:
        out = dispatch.execute(math.MUL, (out, leftover[0]))
    return out


def _second_push_down(view: Any, leaves: list) -> Tensor | None:
    """The meta optimizer's second iteration over the product MinimizeBroadcasts made of four leaves, two constants
    and two that are not (sorted by size: C1, C2, X, Y): (C1 * C2) * (X * Y), whose constant factor constant folding
    folds and then pushes down (ConstantPushDown, not the half types): X * ((C1 * C2) * Y), X and Y in the canonical
    order of their node names. So inside tf.function `0.3 * ((v * 1.7) * w)`, `(v * 1.7) * (w * 0.3)` and `(0.3 * v)
    * (1.7 * w)` of float32/float64 vectors v, w are v * (c' * w), c' = 0.3 * 1.7 rounded (float16/bfloat16: c' * (v
    * w)); observed on TF 2.21 bit for bit on 4,096 elements (fz63, fz62's open E; tests/ops/test_fz63_product_constants
    _tf.py). None when the leaves are not so."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import dispatch, math
    rec = view.rec
    c1, c2, x, y = leaves
    if not (_really_constant(rec, c1) and _really_constant(rec, c2)) or _really_constant(rec, x) \
            or _really_constant(rec, y):
        return None
    nx, ny = symbolic.optimized_name(x), symbolic.optimized_name(y)
    if nx is None or ny is None:
        return None
    if ny < nx:
        x, y = y, x
    c = dispatch.execute(math.MUL, (c1, c2))
    if not _no_larger(c.shape, y.shape):
        return None
    return dispatch.execute(math.MUL, (x, dispatch.execute(math.MUL, (c, y))))


def _pushed_down(view: Any, c: Tensor, child: Tensor, dt: Any, made: list[int], top: bool) -> list | None:
    """ConstantPushDown of the constant C into the product `child` (constant_folding.cc, which repeats its pass
    until nothing changes, so the pushed-down C * Y is asked again): child = X * Y (its inputs in the canonical
    order, X the first) with one consumer becomes X * (C * Y) when C is no larger than Y; C * Y is then pushed
    further when Y is itself such a product, and when Y is a constant, C * Y folds into one constant (so `x * ((r
    * k) * c)` is x * (r * (c * k)): hsilu2, `hard_silu(x) * 2.0`). Gives the inputs of the node `C * child`
    becomes, as the tree `_min_broadcasts` walks: [X, (("node", name), [...])] (a rewritten node's inputs in the
    push-down's order) or [X, C * Y folded], each rewritten node's index added to `made`; None when C is not pushed
    (at the top, `top`, Y constant is left to the first phase's `_push_down_rule`)."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import dispatch, math
    rec, name = view.rec, symbolic.optimized_name
    k = view.node_of(child)
    cn = rec.nodes[k] if k is not None else None
    if cn is None or cn.kind != 1 or cn.op is None or cn.op.name != "Mul" or len(cn.ins) != 2 \
            or view.consumers(k) != 1 or _folds(rec, child) or name(child) is None or child.dtype != dt \
            or view.tensor(cn.ins[0]) is None or view.tensor(cn.ins[1]) is None:
        return None
    x, y = view.tensor(cn.ins[0]), view.tensor(cn.ins[1])
    if name(x) is not None and name(y) is not None and name(y) < name(x):
        x, y = y, x   # (the child's inputs as the canonical form sorts them: X is the first)
    xc, yc = _really_constant(rec, x), _really_constant(rec, y)
    if (xc and yc) or (top and (xc or yc)):
        return None
    if xc:
        x, y, yc = y, x, True   # (the constant leaf is Y: the push-down folds C * Y)
    elif not yc and (_really_constant(rec, y) or not _no_larger(c.shape, y.shape)):
        return None
    made.append(k)
    if yc:
        return [(x, 1), (dispatch.execute(math.MUL, (c, y)), 1)]   # (C * Y folded: one constant)
    deeper = _pushed_down(view, c, y, dt, made, False)
    return [(x, 1), (("node", name(child)), deeper if deeper is not None else [(c, 1), (y, 1)])]


def _product(items: list) -> Tensor:
    """The product a `_pushed_down` tree computes, each node's inputs in its order."""
    from simdist.runtime.ops import dispatch, math

    def value(item: Any) -> Tensor:
        t, rest = item
        return _product(rest) if isinstance(t, tuple) else t
    if len(items) == 1:
        return value(items[0])
    return dispatch.execute(math.MUL, (value(items[0]), value(items[1])))


_VIEWS: list = []   # the finished graph (graph/rewrite.py View) a finished rule is judging, innermost last
_PARENT: list = []   # the output of the node a finished rule is judging, innermost last


def _sole(t: Tensor) -> bool:
    """Whether t's node has one consumer in the finished graph (the op a finished rule judges): not returned, not
    read by another op nor by tf.gradients' ops (Grappler's NumNonControlOutputs == 1 and not in the preserve set:
    a function's outputs are read by its output nodes)."""
    view = _VIEWS[-1]
    j = view.node_of(t)
    return j is not None and view.consumers(j) == 1


def _absorb(t: Tensor) -> None:
    """Note t's node as absorbed by the rewrite a finished rule is making (read by nothing once it is made)."""
    view = _VIEWS[-1]
    j = view.node_of(t)
    if j is not None:
        view.absorbed.add(j)


def _finishing(owner: str, rule: Any) -> Any:
    """A record-time-style rule `rule(rec, tensors, attrs)` asked on the finished graph about node i (`_sole` and
    `_absorb` reading that graph), while its optimizer runs; not for an op whose inputs are all constants (TF's
    constant folding has evaluated it first)."""
    def run(view: Any, i: int) -> Tensor | None:
        if not _on(owner):
            return None
        rec = view.rec
        n = rec.nodes[i]
        tensors = tuple(view.tensor(j) for j in n.ins)
        if not tensors or any(t is None for t in tensors) or \
                all(rec.is_constant(t) and not rec.is_capture(t) for t in tensors):
            return None
        _VIEWS.append(view)
        _PARENT.append(view.tensor(i))
        try:
            return rule(rec, tensors, n.attrs)   # type: ignore[no-any-return]
        finally:
            _VIEWS.pop()
            _PARENT.pop()
    run.__name__ = getattr(rule, "__name__", "rule")
    run.__doc__ = getattr(rule, "__doc__", None)
    return run


def finished_phases() -> list[tuple[bool, dict[str, Any]]]:
    """The rules that run on the finished graph (graph/rewrite.py), in phases as Grappler's optimizers run:
    (forward, {op name: rule}); each `rule(view, i)` gives the tensor node i becomes (its ops run through dispatch)
    or None. Constant folding's ConstantPushDown first (its nodes from the first to the last), then the arithmetic
    optimizer's stages (from the last to the first). Empty while the rewrites are off."""
    if not enabled:
        return []
    ao = "arithmetic_optimization"
    push = {name: _finishing("both", lambda rec, tensors, attrs, name=name: _push_down_rule(rec, tensors, attrs, name))
            for name in ("AddV2", "Add", "Sub", "Mul")}
    arith = {"RealDiv": _sqrt_div, "Mul": _finished_mul, "AddV2": _finishing(ao, _add_ops_then_negation),
             "Add": _finishing(ao, _add_ops_then_negation), "Sub": _finishing(ao, _remove_negation),
             "LogicalNot": _finishing(ao, _logical_not_rule),
             "Square": _finishing(ao, _square_rule), "AddN": _finishing(ao, _add_n_by_merged_names)}
    for name in ("Max", "Min", "ArgMax", "ArgMin"):
        arith[name] = _finishing(ao, _monotonic_rule(name))
    # (then the remapper's fusions; then the kernels' own order: AddN's buffer forwarding, in every graph the
    # rewrites apply to)
    remap = {"Mul": _swish_fusion}
    remap.update({name: _contraction_fusion for name in _FUSED_ACTIVATIONS + ("LeakyRelu",)})
    remap.update({name: _bias_fusion for name in ("BiasAdd", "AddV2", "Add")})
    remap["BiasAddGrad"] = _conv_bias_grad_fusion
    phases = [(True, push), (False, arith), (False, remap), (True, {"AddN": _add_n_forwarding})]
    return [(forward, {name: _unsorted(rule) for name, rule in rules.items()}) for forward, rules in phases]


_FINISHING = [0]   # > 0 while a rule on the finished graph runs: the nodes it makes are not sorted (`_sorted_operands`)


def _unsorted(rule: Any) -> Any:
    """A finished-graph rule during which `_sorted_operands` leaves the ops it makes as it makes them."""
    def run(view: Any, i: int) -> Tensor | None:
        _FINISHING[0] += 1
        try:
            return rule(view, i)   # type: ignore[no-any-return]
        finally:
            _FINISHING[0] -= 1
    run.__name__ = getattr(rule, "__name__", "rule")
    run.__doc__ = getattr(rule, "__doc__", None)
    return run


def _unforwarded(view: Any, j: int) -> int:
    """Node j as the remapper's second pass sees it: past Identity nodes, which the dependency optimizer removes
    before it (a simplified `x * ones` is an Identity of x: tf.nn.silu's `beta * features`)."""
    nodes = view.rec.nodes
    j = view.alias[j]
    while nodes[j].kind == _PURE and nodes[j].op is not None and nodes[j].op.name == "Identity" and \
            len(nodes[j].ins) == 1:
        j = view.alias[nodes[j].ins[0]]
    return j


# --- remapper.cc FindSigmoidAndMul: Mul(x, Sigmoid(x)) -> _MklSwish(x) on a oneDNN CPU --------------------------
def _swish_fusion(view: Any, i: int) -> Tensor | None:
    """Mul of x and Sigmoid(x), in either order, whose Sigmoid has no other consumer (not returned, not read by
    another op nor by tf.gradients' ops; one Sigmoid of x read twice after TF's common subexpression elimination
    counts twice) -> _MklSwish(x) (simdist/runtime/ops/onednn_swish.py), where oneDNN is on and takes the dtype
    (host_cpu: float32; bfloat16 and float16 on the reference host), and the remapper runs
    (tf.config.optimizer's "remapping"). TF 2.21 observed on the Xeon host (run metadata's optimized graphs):
    tf.nn.silu, keras's silu, `x * tf.sigmoid(x)` and `tf.sigmoid(x) * x` of float32, bfloat16 and float16 become
    one _MklSwish; float64, `swish(x, 2.0)`, `x * sigmoid(y)`, a Sigmoid also returned or added on stay
    (clause function.onednn-swish)."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import dispatch, onednn_swish
    if not _on("remapping"):
        return None
    rec = view.rec
    n = rec.nodes[i]
    if len(n.ins) != 2:
        return None
    for s_at, x_at in ((0, 1), (1, 0)):
        j = n.ins[s_at]
        s = rec.nodes[j]
        if s.kind != _PURE or s.op is None or s.op.name != "Sigmoid" or len(s.ins) != 1:
            continue
        if _unforwarded(view, s.ins[0]) != _unforwarded(view, n.ins[x_at]) or view.consumers(j) != 1:
            continue
        if view.alias[s.ins[0]] != view.alias[n.ins[x_at]] and _first_pass_rank_unknown(view, n.ins[x_at], 0):
            return None   # (silu's `beta * x`, simplified only in the second iteration: Sigmoid and Mul stay)
        x = view.tensor(n.ins[x_at])
        if x is None or not host_cpu.current().onednn_supports(x.dtype.name):
            return None
        if _folded_const(rec, x):
            # (x a Const once constant folding has run — computed from literals and a materialized ZerosLike/OnesLike
            # of a known shape: the Sigmoid and the Mul fold too, by their CPU kernels, before the remapper; TF 2.21
            # observed: `silu(tanh(log_softmax(zeros_like(v))))` traced is the eager value; fz65, fz54b seed 65106 #4)
            return None
        if view.alias[s.ins[0]] != view.alias[n.ins[x_at]] and \
                _late_sigmoid_twin(view, view.alias[j], n.ins[x_at], x.dtype.name):
            return None   # (the second iteration's CSE merges the silu's Sigmoid into another Sigmoid of x)
        view.absorbed.add(j)
        return dispatch.execute(onednn_swish.MKL_SWISH, (x,))
    return None


# the unary ops the arithmetic optimizer's UnaryOpsComposition stage chains after a Sigmoid, by dtype (TF 2.21
# observed on the Xeon host: `op(sigmoid(x))` beside `silu(x)` leaves no Sigmoid of x, /work/wt/fz60_logs/q_silu4.py;
# none for bfloat16)
_COMPOSED_HALF = frozenset({"Abs", "Ceil", "Cos", "Elu", "Exp", "Expm1", "Floor", "Log", "Log1p", "Neg", "Reciprocal",
                            "Relu", "Relu6", "Round", "Rsqrt", "Selu", "Sigmoid", "Sin", "Sqrt", "Square", "Tanh"})
_COMPOSED_AFTER_SIGMOID = {
    "float16": _COMPOSED_HALF,
    "float32": _COMPOSED_HALF | {"Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cosh", "Rint", "Sinh", "Tan"}}


def _late_sigmoid_twin(view: Any, j: int, x_node: int, dtype: str) -> bool:
    """Whether the finished graph holds another Sigmoid of x (node x_node, read directly or through Identity nodes)
    that Grappler's first iteration leaves standing, beside silu's Sigmoid j that reads x through its simplified
    `beta * x`: the dependency optimizer's removal of that Identity makes the two equal, the second iteration's common
    subgraph elimination merges them, and the merged Sigmoid's two consumers keep the remapper from fusing (TF 2.21
    observed, fz60: `[tf.sigmoid(x), tf.nn.silu(x)]` in either order, `sigmoid(x * 1.0)` or `sigmoid(x + 0.0)`
    beside silu keep Sigmoid and Mul). A twin the first iteration absorbs does not count: one whose sole consumer is
    a unary op UnaryOpsComposition chains it into (`exp(sigmoid(x))`), or a hand-written `x * sigmoid(x)` the first
    remapper pass fuses (/work/wt/fz60_logs/q_silu3.py)."""
    rec = view.rec
    nodes = rec.nodes
    target = _unforwarded(view, x_node)
    composed = _COMPOSED_AFTER_SIGMOID.get(dtype, frozenset())
    for k, m in enumerate(nodes[:len(view.alias)]):   # (the graph as the phase found it: not the rewrites' nodes)
        if k == j or view.alias[k] != k or k in view.absorbed or m.kind != _PURE or m.op is None or \
                m.op.name != "Sigmoid" or len(m.ins) != 1 or view.consumers(k) == 0:
            continue
        if _unforwarded(view, m.ins[0]) != target or m.lane != nodes[j].lane:
            continue
        if view.consumers(k) == 1:
            readers = [c for c, r in enumerate(nodes[:len(view.alias)])
                       if view.alias[c] == c and k in (view.alias[i] for i in r.ins)]
            if len(readers) == 1:
                r = nodes[readers[0]]
                if r.kind == _PURE and r.op is not None and r.op.name in composed and len(r.ins) == 1:
                    continue   # (composed away in the first iteration)
                if r.kind == _PURE and r.op is not None and r.op.name == "Mul" and len(r.ins) == 2 and \
                        view.alias[m.ins[0]] in (view.alias[i] for i in r.ins):
                    continue   # (a hand-written swish, fused in the first iteration)
        return True
    return False


# ops whose output rank is unknown where an input's is (their shape functions: the elementwise ops' broadcast, the
# reductions', UnsortedSegmentReductionShapeFn's data dimensions, UnchangedShape's, StridedSlice's, ExpandDims',
# Squeeze's, GatherV2's); any other op's output counts as of a known rank (Pad, Tile and Transpose know theirs from
# their paddings, multiples and perm: silu of them fuses, TF 2.21 observed, /work/wt/fz59_logs/q_swish5.py)
_RANK_CARRIERS = frozenset({"Identity", "UnsortedSegmentSum", "UnsortedSegmentProd", "UnsortedSegmentMax",
                            "UnsortedSegmentMin", "Cumsum", "Cumprod", "CumulativeLogsumexp", "Softmax", "LogSoftmax",
                            "ReverseV2", "Roll", "StridedSlice", "ExpandDims", "Squeeze", "GatherV2", "Unpack"})


def _first_pass_rank_unknown(view: Any, j: int, depth: int) -> bool:
    """Whether Grappler's shape inference before constant folding does not know the rank of node j's output: a
    Reshape static_shapes marks (`mark_first_pass_rank_unknown`: unsorted_segment_mean's and sqrt_n's count), or
    an elementwise op, a reduction or an unsorted segment reduction of such an input (fz59; TF 2.21 observed,
    /work/wt/fz59_logs/q_swish3.py: `silu(2.0 * unsorted_segment_mean(x, ids, 2))` and silu of its reduce_sum or
    unsorted_segment_prod keep Sigmoid and Mul; of its MatMul, ConcatV2 or constant-shape Reshape fuse)."""
    from simdist.runtime.ops import static_shapes
    from simdist.runtime.ops.registry import BROADCAST, SAME_SHAPES
    j = view.alias[j]
    if static_shapes.first_pass_rank_unknown(view.tensor(j)):
        return True
    n = view.rec.nodes[j]
    if depth > 64 or n.kind != _PURE:
        return False
    if n.op is None and isinstance(n.key, tuple) and n.key[:1] == ("item",) and len(n.ins) == 1:
        # (an output of a multi-output op: the op's rule, Unpack's outputs of an input of unknown rank unknown too;
        # fz66, fz54b --alias seed 66606 #2: silu(unstack(selu(unsorted_segment_sqrt_n(x, ids, 4)))[0]) of bfloat16
        # keeps Sigmoid and Mul)
        return _first_pass_rank_unknown(view, n.ins[0], depth + 1)
    if n.op is None:
        return False
    op = n.op
    if op.name in _RANK_CARRIERS:
        return any(_first_pass_rank_unknown(view, k, depth + 1) for k in n.ins)
    if op.kind == "reduction" and n.ins:
        return _first_pass_rank_unknown(view, n.ins[0], depth + 1)
    if op.kind == "elementwise" or op.fusion is SAME_SHAPES or op.fusion is BROADCAST:
        return any(_first_pass_rank_unknown(view, k, depth + 1) for k in n.ins)
    return False


# --- remapper.cc FindContractionWithBiasAndActivation: act(MatMul + bias) -> _MklNativeFusedMatMul on oneDNN ---
# the activations the oneDNN fused contraction takes, per contraction (TF 2.21 observed on the Xeon host, run
# metadata's optimized graphs: Conv2D and DepthwiseConv2dNative keep a Tanh or Sigmoid apart; LeakyRelu fuses
# too but its post-op is Eigen's bits, and the Gelu patterns, BiasAdd only, are not modelled)
_FUSED_ACTIVATIONS = ("Tanh", "Sigmoid", "Elu", "Relu", "Relu6")
_CONTRACTION_ACTIVATIONS = {"MatMul": frozenset(_FUSED_ACTIVATIONS + ("LeakyRelu",)),
                            "Conv2D": frozenset({"Elu", "Relu", "Relu6", "LeakyRelu"}),
                            "DepthwiseConv2dNative": frozenset({"Elu", "Relu", "Relu6"})}


def _read_once_op(view: Any, j: int, ops: Any) -> bool:
    """Whether node j is a pure op named in `ops`, read once (not returned, read by no other op)."""
    n = view.rec.nodes[j]
    return n.kind == _PURE and n.op is not None and n.op.name in ops and view.consumers(j) == 1


def _contraction_of(view: Any, j: int, act: str) -> bool:
    """Whether node j is a contraction (`_CONTRACTION_ACTIVATIONS`) taking activation `act`, read once."""
    return _read_once_op(view, j, [op for op, acts in _CONTRACTION_ACTIVATIONS.items() if act in acts])


def _nhwc(node: Any) -> bool:
    """Whether a BiasAdd node adds along the last dimension (data_format NHWC, its default): the fusions'."""
    return (node.attrs or {}).get("data_format", "NHWC") in ("NHWC", b"NHWC", None)


def _bias_semantic(view: Any, bias: int, out: int) -> bool:
    """IsBiasSemanticAdd's bias: a vector of the output's last (channel) dimension, or of shape [1, ..., 1, C]
    (observed: `matmul(x, w) + b[None, :]` fuses)."""
    b, o = view.tensor(bias), view.tensor(out)
    if b is None or o is None or b.shape.rank is None or o.shape.rank is None or b.shape.rank > o.shape.rank:
        return False
    bs, os_ = b.shape.as_list(), o.shape.as_list()
    if not bs or bs[-1] is None or bs[-1] != os_[-1] or any(d != 1 for d in bs[:-1]):
        return False
    return True


def _contraction_fusion(view: Any, i: int) -> Tensor | None:
    """Activation(BiasAdd(C, b)) or Activation(C + b) (either operand order, b bias-semantic), C a MatMul,
    Conv2D or DepthwiseConv2dNative, where the bias add and C are read once (not returned, not read by another
    op) -> the fused contraction's activation, oneDNN's eltwise post-op (onednn_fused_activation.py) on the
    bias add's bits, where oneDNN is on and the remapper runs. float32 only (bfloat16 and float16 fuse too:
    not modelled). MatMul takes Tanh, Sigmoid, Elu, Relu, Relu6; the convolutions Elu, Relu, Relu6 (TF 2.21
    observed; clause function.onednn-fused-contraction)."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import dispatch, onednn_fused_activation
    if not _on("remapping"):
        return None
    rec = view.rec
    n = rec.nodes[i]
    act = n.op.name
    if len(n.ins) != 1:
        return None
    j = n.ins[0]
    add = rec.nodes[j]
    if add.kind != _PURE or add.op is None or view.consumers(j) != 1 or len(add.ins) != 2:
        return None
    if add.op.name == "BiasAdd":
        if not _nhwc(add) or not _contraction_of(view, add.ins[0], act):
            return None
    elif add.op.name in ("AddV2", "Add"):
        if not any(_contraction_of(view, add.ins[c], act) and _bias_semantic(view, add.ins[1 - c], j)
                   for c in (0, 1)):
            return None
    else:
        return None
    pre = view.tensor(j)
    if pre is None or not host_cpu.current().onednn_supports(pre.dtype.name):
        return None
    if pre.dtype.name == "float32":
        if act not in onednn_fused_activation.FUSED:
            return None   # (LeakyRelu: the post-op gives Eigen's bits)
        return dispatch.execute(onednn_fused_activation.FUSED[act], (pre,))
    return _low_precision_fusion(view, j, n)


def _low_precision_fusion(view: Any, j: int, act_node: Any = None) -> Tensor | None:
    """A bfloat16 or float16 MatMul plus bias (node j), and its activation `act_node` if any: oneDNN computes the
    product, the bias add and the activation in float32 from the inputs widened and rounds once to the dtype (TF
    2.21 observed: `act(matmul(x, w) + b)` of float16 and bfloat16 is the float32 fused value of the widened
    inputs cast, for no activation, tanh, sigmoid, elu and relu, 64x16x33; the eager ops round the product
    first). The product and the bias add it replaces are absorbed."""
    from simdist.runtime.ops import dispatch, linalg, math, onednn_fused_activation
    rec = view.rec
    add = rec.nodes[j]
    pre = view.tensor(j)
    if pre is None or pre.dtype.name not in ("bfloat16", "float16"):
        return None
    c_at = next((c for c in (0, 1) if _is_matmul(view, add.ins[c])), None)
    if c_at is None and add.op.name == "BiasAdd" and act_node is not None and \
            _read_once_op(view, add.ins[0], ("Conv2D",)) and _nhwc(rec.nodes[add.ins[0]]):
        # (a Conv2D's BiasAdd and activation too: TF 2.21 observed, `relu(bias_add(conv2d(x, k), b))` of float16
        # and bfloat16 in a tf.function is the float32 fused value rounded once; gsweep59's g-bias-* conv programs)
        c_at = 0
    if c_at is None or (add.op.name == "BiasAdd" and c_at != 0):
        return None
    m = rec.nodes[add.ins[c_at]]
    a, b, bias = view.tensor(m.ins[0]), view.tensor(m.ins[1]), view.tensor(add.ins[1 - c_at])
    if a is None or b is None or bias is None:
        return None
    f32 = {"DstT": dtypes.float32}
    wide = [dispatch.execute(math.CAST, (t,), f32) for t in (a, b, bias)]
    y = dispatch.execute(linalg.MATMUL if m.op.name == "MatMul" else m.op, (wide[0], wide[1]), m.attrs)
    y = dispatch.execute(math.ADD, (y, wide[2]) if c_at == 0 else (wide[2], y))
    if act_node is not None:
        name = act_node.op.name
        op = onednn_fused_activation.FUSED.get(name)
        if name == "Relu" and pre.dtype.name == "float16" and m.op.name == "MatMul":   # (Conv2D's: +0.0)
            op = onednn_fused_activation.RELU_ALPHA0
        y = dispatch.execute(op, (y,)) if op is not None else dispatch.execute(act_node.op, (y,), act_node.attrs)
        view.absorbed.add(j)
    view.absorbed.add(add.ins[c_at])
    return dispatch.execute(math.CAST, (y,), {"DstT": pre.dtype})


def _is_matmul(view: Any, j: int) -> bool:
    return _read_once_op(view, j, ("MatMul",))


def _bias_fusion(view: Any, i: int) -> Tensor | None:
    """BiasAdd or a bias-semantic Add of a bfloat16 or float16 MatMul read once, no activation fused after it:
    `_low_precision_fusion` (the float32 fused value, rounded once), where oneDNN takes the dtype and the
    remapper runs."""
    from simdist.runtime import host_cpu
    if not _on("remapping"):
        return None
    rec = view.rec
    n = rec.nodes[i]
    t = view.tensor(i)
    if t is None or t.dtype.name not in ("bfloat16", "float16") or len(n.ins) != 2 or \
            not host_cpu.current().onednn_supports(t.dtype.name):
        return None
    if n.op.name != "BiasAdd" and not any(_is_matmul(view, n.ins[c]) and _bias_semantic(view, n.ins[1 - c], i)
                                          for c in (0, 1)):
        return None
    if n.op.name == "BiasAdd" and not _nhwc(n):
        return None
    return _low_precision_fusion(view, i)


# --- mkl_layout_pass.cc: Conv2DBackpropFilter + BiasAddGrad of one out_backprop -> _MklConv2DBackpropFilterWithBias -
def _conv_bias_grad_fusion(view: Any, i: int) -> Tensor | None:
    """A float32 NHWC BiasAddGrad whose input is also a Conv2DBackpropFilter's out_backprop (a Conv2D layer's bias
    and kernel gradients): oneDNN's fused backward weights computes the bias (onednn_conv_bias.py), where oneDNN
    takes float32. TF's oneDNN layout pass, not a Grappler optimizer: no tf.config.optimizer option turns it off."""
    from simdist.runtime import host_cpu
    from simdist.runtime.ops import dispatch, onednn_conv_bias
    rec = view.rec
    n = rec.nodes[i]
    if len(n.ins) != 1 or not _nhwc(n):
        return None
    dy = view.tensor(n.ins[0])
    if dy is None or dy.dtype.name != "float32" or dy.shape.rank != 4 or \
            not host_cpu.current().onednn_supports("float32"):
        return None
    src = view.alias[n.ins[0]]
    for m in rec.nodes:
        # (the recorded Conv2DBackpropFilter reads the input and out_backprop, its filter_sizes an attr)
        if m.kind == _PURE and m.op is not None and m.op.name == "Conv2DBackpropFilter" and len(m.ins) >= 2 and \
                view.alias[m.ins[-1]] == src and _nhwc(m):
            return dispatch.execute(onednn_conv_bias.CONV_BIAS_GRAD, (dy,))
    return None


# --- aggregate_ops.cc AddNOp: the kernel accumulates into the first input whose buffer it may take over ---------
# Ops whose output is their input's buffer (the same TensorBuffer: `set_output(0, input)`, `CopyFrom` with another
# shape): the buffer is free only when the input was free and read by nothing else.
_SHARES_INPUT = frozenset({"Identity", "Reshape", "Squeeze", "ExpandDims", "StopGradient", "EnsureShape", "Snapshot",
                           "PreventGradient"})
_REDUCERS = frozenset({"Sum", "Mean", "Prod", "Max", "Min"})
_PURE = 1   # (simdist.runtime.graph.ir.PURE: an op node)


def _shares_input(n: Any, src: Tensor, out: Tensor) -> bool:
    """Whether node n's kernel returns its input's buffer itself: the view ops, a reduction over axes of size 1
    only (ReductionHelper's "nothing to reduce": a reshape), Tile by ones, Transpose by the identity or of rank
    at most 1, BroadcastTo of the input's own shape."""
    name = n.op.name
    if name in _SHARES_INPUT:
        return True
    shape = tuple(src.shape.as_list())
    if name in _REDUCERS:
        return _trivial_reduce(n, shape)
    if name == "BroadcastTo":
        return tuple(out.shape.as_list()) == shape
    if name == "Tile":
        m = (n.attrs or {}).get("multiples")
        return m is not None and all(int(k) == 1 for k in np.asarray(m).reshape(-1))
    if name == "Transpose":
        perm = (n.attrs or {}).get("perm")
        return len(shape) <= 1 or (perm is not None and list(np.asarray(perm).reshape(-1)) == list(range(len(shape))))
    return False


def _trivial_reduce(n: Any, shape: tuple) -> bool:
    ax = (n.attrs or {}).get("axis")
    ax = range(len(shape)) if ax is None else (ax if isinstance(ax, (list, tuple)) else np.asarray(ax).reshape(-1))
    return all(-len(shape) <= int(a) < len(shape) and shape[int(a)] == 1 for a in ax)


def _free_buffer(view: Any, t: Tensor) -> bool:
    """Whether the buffer of t is one a kernel reading t may take over (OpKernelContext::forward_input: the buffer's
    reference count one): t made by an op of this graph (not an argument, a captured tensor, a constant, a
    variable's read) for no other consumer (not returned, not read twice) and not its input's buffer while that is
    still held."""
    rec = view.rec
    j = view.node_of(t)
    if j is None or rec.is_constant(t) or view.consumers(j) != 1:
        return False
    n = rec.nodes[j]
    if n.kind != _PURE or n.op is None or n.op.num_outputs != 1 or not n.ins:
        return False
    if n.op.name in _SHARES_INPUT or n.op.name in _REDUCERS or n.op.name in ("Tile", "Transpose", "BroadcastTo"):
        src = view.tensor(n.ins[0])
        if src is None:
            return False
        if _shares_input(n, src, t):
            return _free_buffer(view, src)
    return True


def _add_n_forwarding(view: Any, i: int) -> Tensor | None:
    """AddN of three or more float (or complex) inputs in a graph: AddNOp::Compute forwards the first input whose
    buffer it may take over (`_free_buffer`) to its output and, when that is input r > 0, swaps inputs 0 and r
    before summing left to right (Add2..Add9 functors). Eagerly every input is held by its Python object, so no
    input is taken over and the order is the written one. Inside tf.function `add_n([a, b, z * 2.0])` of arguments
    a = 1e8, b = -1e8, z = 0.5 sums as (z * 2 + b) + a = 0, eagerly 1; a returned or twice-read z * 2 keeps the
    order (observed on TF 2.21; fz53: g51b seed 53001 #50, a loss one ulp apart in a tf.function returning every
    intermediate). Runs after Grappler's rewrites (the sorted order is the kernel's input order)."""
    from simdist.runtime.ops import dispatch, math
    rec = view.rec
    n = rec.nodes[i]
    ts = [view.tensor(j) for j in n.ins]
    if len(ts) < 3 or any(t is None for t in ts) or not (_is_float(ts[0]) or ts[0].dtype.is_complex) or \
            rec.is_constant(view.tensor(i)):
        return None
    r = next((k for k, (j, t) in enumerate(zip(n.ins, ts)) if n.ins.count(j) == 1 and _free_buffer(view, t)), None)
    if r is None or r < 2:   # (swapping inputs 0 and 1 leaves the sum as it is)
        return None
    order = list(ts)
    order[0], order[r] = ts[r], ts[0]
    was = rec.rewrites
    rec.rewrites = False   # (the kernel's order, not a node Grappler sorts again)
    try:
        return dispatch.execute(math.ADD_N, tuple(order))   # type: ignore[no-any-return]
    finally:
        rec.rewrites = was


def _finished_mul(view: Any, i: int) -> Tensor | None:
    if not (_on("arithmetic_optimization") or _on("both")):
        return None
    ins = view.rec.nodes[i].ins
    if len(ins) == 2 and view.alias[ins[0]] == view.alias[ins[1]]:
        # ReplaceMulWithSquare: Mul(d, d) is Square(d) (on a CPU for complex too), which FuseSquaredDiff then meets:
        # `(x - y) * (x - y)` of a Sub read by nothing else is SquaredDifference, without a kernel for the narrow and
        # unsigned integers (InvalidArgumentError); its values are the product's (esweep63, e-gr-square-diff)
        _finishing("arithmetic_optimization", lambda rec, tensors, attrs: _square_rule(rec, tensors[:1], attrs))(
            view, i)
        sq = _finishing("arithmetic_optimization", _complex_square)(view, i)
        if sq is not None:
            return sq
    with np.errstate(all="ignore"):
        return _min_broadcasts(view, i)


def _complex_square(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """ReplaceMulWithSquare's values for complex d: Mul(d, d) runs Square's kernel, whose packets' imaginary NaN is
    the imaginary part's where Mul's is the real part's (complex_mul `square`; TF 2.21, fix65c: `x * x` of
    NaN_a + NaN_b j in a tf.function is NaN_a + NaN_b j, eagerly NaN_a + NaN_a j)."""
    from simdist.runtime.ops import dispatch, unary
    if not tensors[0].dtype.is_complex:
        return None
    return dispatch.execute(unary.SQUARE, tensors[:1])   # type: ignore[no-any-return]


def _mul_rules(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Mul: constant folding's simplifications (`_mul_rule`), then the Tile stage (`_mul_tile`). (ConstantPushDown
    and MinimizeBroadcasts, which read consumers, run on the finished graph: `finished_phases`.)"""
    from simdist.runtime.ops import math
    swapped = _sorted_operands(rec, math.MUL, tensors, attrs)
    if swapped is not None:
        return swapped
    r = _mul_rule(rec, tensors, attrs)
    if r is None and _on("arithmetic_optimization"):
        # (Grappler sorts a commutative op's inputs by their nodes' names first, bytewise, and tiles only with the
        # ones second: `x * ones` keeps the Mul ("ones" < "x"), `a * ones` tiles; both orders where a name is unknown)
        from simdist.runtime import symbolic
        x, y = tensors
        nx, ny = symbolic.optimized_name(x), symbolic.optimized_name(y)
        if nx is not None and ny is not None:
            return _mul_tile(rec, x, y) if nx <= ny else _mul_tile(rec, y, x)
        r = _mul_tile(rec, x, y)
        if r is None:
            r = _mul_tile(rec, y, x)
    return r


def _log_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Log(Add(x, 1)) or Log(Add(1, x)) of floats or complex numbers, the constant of ones broadcasting to x's shape
    -> Log1p(x)."""
    from simdist.runtime.ops import dispatch, unary
    (a,) = tensors
    node = rec.producer(a)
    if node is None or node.op.name not in ("AddV2", "Add") or not (_is_float(a) or a.dtype.is_complex):
        # (complex T too: GetElementUnexhaustive reads complex64/complex128 ones; `log(1 + x)` of complex64 is
        # Log1p's value inside tf.function, observed on TF 2.21, fix64c)
        return None
    for i, j in ((0, 1), (1, 0)):
        t, c = rec.input_tensor(node, i), rec.input_tensor(node, j)
        if t.shape.as_list() == a.shape.as_list() and _ones(_const_value(rec, c)):
            return dispatch.execute(unary.LOG1P, (t,))
    return None


# constant_folding.cc IsZeros' Const types besides the floats (_FLOATS)
_IS_ZEROS_TYPES = frozenset(dtypes.as_dtype(n) for n in ("complex64", "complex128", "uint8", "int8", "uint16", "int16",
                                                         "int32", "int64"))


def _sub_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Sub of floats and complex numbers: Sub(x, zeros) -> x and Sub(zeros, y) -> Neg(y)
    (`_simplified`: `0.0 - 0.0` is -0.0 inside tf.function); Sub(Exp(x), 1), the constant of ones
    broadcasting to Exp(x)'s shape -> Expm1(x) (ConvertExpm1Stage; complex T too: `exp(x) - 1` of complex64 is
    Expm1's value inside tf.function, observed on TF 2.21, fix64c)."""
    from simdist.runtime.ops import dispatch, special, unary
    e, c = tensors
    simple = _simplified(rec, "Sub", e, c)
    if simple is not None:
        return simple
    if e.dtype.is_complex and _pruned_op(rec, c) == "Neg" and _on("arithmetic_optimization"):
        # (RemoveNegationStage: `a - (-b)` is AddV2(a, b), an aggregate where a and b are one node: Mul(2, a);
        # fz61, TF 2.21 observed)
        neg = rec.nodes[rec.pruned(rec.slot_of[id(c)])]
        inner = rec.tensor_at.get(neg.ins[0])
        if inner is not None and rec.same_node(e, inner):
            return _aggregation((e, e))
    if not _is_float(e):
        # (IsZeros reads a Const of the integer and complex types too, not uint32/uint64: 0 - y is
        # Neg(y) for them, whose kernel refuses uint8/uint16 when the graph runs ("Value for attr 'T'
        # of uint8 is not in the list of allowed values") and gives complex -0.0 parts; fz26b, fz14
        # seed 1420262602 #46)
        if _on("constant_folding") and e.dtype in _IS_ZEROS_TYPES and _zeros(rec, e) and c.shape.as_list() == list(
                np.broadcast_shapes(tuple(e.shape.as_list()), tuple(c.shape.as_list()))):
            if c.dtype.kind == "u":   # (the rewritten graph's Neg kernel, as it runs: no trace-time mark)
                err = errors.InvalidArgumentError(None, None, f"Value for attr 'T' of {c.dtype.name} is not in the "
                                                  "list of allowed values: bfloat16, half, float, double, int8, int16, "
                                                  "int32, int64, complex64, complex128")
                trace_errors.unmark(err)
                raise err
            return dispatch.execute(unary.NEG, (c,))
        if not e.dtype.is_complex:
            return None
    out = list(np.broadcast_shapes(tuple(e.shape.as_list()), tuple(c.shape.as_list())))
    node = rec.producer(e)
    if _on("arithmetic_optimization") and node is not None and node.op.name == "Exp" and e.shape.as_list() == out \
            and _ones(_const_value(rec, c)):
        return dispatch.execute(special.EXPM1, (rec.input_tensor(node, 0),))
    return None


# --- constant_folding.cc SimplifyArithmeticOperations: an addition of zeros forwards the other input
def _add_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """AddV2(x, zeros) or AddV2(zeros, x) of floats or complex numbers, zeros a constant or a
    ZerosLike (whose shape TF knows) -> x itself (`_simplified`: broadcast only when the zeros have
    the output's shape): so -0.0 + 0.0 is -0.0 inside tf.function, +0.0 eagerly."""
    from simdist.runtime.ops import math
    swapped = _sorted_operands(rec, math.ADD, tensors, attrs)
    if swapped is not None:
        return swapped
    a, b = tensors
    if a.dtype.is_complex and (_pruned_op(rec, a) == "Neg" or _pruned_op(rec, b) == "Neg"):
        # (RemoveNegationStage before SimplifyAggregation: `a + (-b)` is Sub(a, b), `(-a) + b` Sub(b, a), of one
        # value as the sum for every part but a NaN's sign, and no aggregate: `y + y` of y = -x keeps inf + nan j
        # parts that Mul(2, y) makes NaN; fz61, TF 2.21 observed)
        return _simplified(rec, "AddV2", a, b)
    if a is b or (a.dtype.is_complex and rec.same_node(a, b)):   # (DedupComputations first: one node)
        return _aggregation((a, a)) if _on("arithmetic_optimization") else None
    return _simplified(rec, "AddV2", a, b)


def _pruned_op(rec: Any, t: Tensor) -> str | None:
    """The op of t's node past Identity and StopGradient nodes (the model pruner's), or None."""
    i = rec.slot_of.get(id(t))
    if i is None:
        return None
    n = rec.nodes[rec.pruned(i)]
    return None if n.op is None else n.op.name  # type: ignore[no-any-return]


def _zeros(rec: Any, t: Tensor) -> bool:
    node = rec.producer(t)
    if node is not None and node.op.name == "ZerosLike":
        return True
    v = _const_value(rec, t)
    if v is not None and (v.dtype in (np.float32, np.float64) or v.dtype.name == "bfloat16"):
        # (IsZeros compares on the CPU under DAZ: a float32/float64 subnormal is a zero, so
        # `[0.0, -0.0, 1e-40] - x` is Neg(x); a float16 one converts to a normal float and is not;
        # fz27b, fz14 seed 1420272703 #21; a bfloat16 one widens to a float32 subnormal and is a zero:
        # `x + bfloat16(1e-40)` is x in a tf.function, gsweep59's g-ones-bfloat16)
        from simdist.runtime import subnormals
        v = subnormals.flushed(v)
    elif v is not None and v.dtype in (np.complex64, np.complex128):
        # (and a complex one part by part: `x - 1e-320j` is x; fz33b, measured on TF 2.21)
        from simdist.runtime import subnormals
        v = subnormals.flushed(v.real) + 1j * subnormals.flushed(v.imag)
    return v is not None and v.size > 0 and bool(np.all(v.astype(np.complex128 if v.dtype.kind == "c" else np.float64) == 0))


# --- arithmetic_optimizer.cc RemoveInvolution: Reciprocal(Reciprocal(x)) -> x, of complex numbers too (inside
# tf.function `reciprocal(reciprocal(z))` of complex64 is z bit for bit where eagerly it is a last bit off; observed on
# TF 2.21, blind63b)
def _reciprocal_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    (a,) = tensors
    node = rec.producer(a)
    if node is None or node.op.name != "Reciprocal" or not (_is_float(a) or a.dtype.is_complex):
        return None
    from simdist.runtime.ops import array
    return array.identity(rec.input_tensor(node, 0))


# --- arithmetic_optimizer.cc RemoveInvolution: Neg(Neg(x)), LogicalNot(LogicalNot(x)) -> x (esweep63)
def _involution_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """An involution of the same involution is its input, whatever else reads the inner one: `-(-x)` keeps x's NaN
    (its sign too), so `-(-x) + y` is `x + y` before RemoveNegation looks, and `not(not(a < b))` is `a < b` (False
    for NaN), not the double negation of RemoveLogicalNot's `a >= b` (test_esweep63.py e-gr-negations, e-gr-overflow:
    TF 2.21's bits)."""
    (a,) = tensors
    node = rec.producer(a)
    outer = _PARENT_OP[-1] if _PARENT_OP else None
    if node is None or outer is None or node.op.name != outer:
        return None
    from simdist.runtime.ops import array
    return array.identity(rec.input_tensor(node, 0))


_PARENT_OP: list = []


def _involution(name: str) -> Any:
    def rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
        _PARENT_OP.append(name)
        try:
            return _involution_rule(rec, tensors, attrs)
        finally:
            _PARENT_OP.pop()
    rule.__name__ = f"_involution_{name}"
    rule.__doc__ = _involution_rule.__doc__
    return rule


# --- arithmetic_optimizer.cc OptimizeMaxOrMinOfMonotonicStage (op_types.cc IsElementWiseMonotonic)
_NON_DECREASING = frozenset(("Acosh", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Elu", "Erf", "Exp", "Expm1", "Floor",
                             "Log", "Log1p", "Relu", "Relu6", "Rint", "Selu", "Sigmoid", "Sign", "Sinh", "Softsign",
                             "Softplus", "Sqrt", "Tanh"))
_NON_INCREASING = frozenset(("Acos", "Erfc", "Neg", "Rsqrt"))
_FLIP = {"Max": "Min", "Min": "Max", "ArgMax": "ArgMin", "ArgMin": "ArgMax"}


def _monotonic_rule(name: str) -> Any:
    """Max/Min/ArgMax/ArgMin(f(x)) with f elementwise monotonic and f(x) used by nothing else ->
    f(Max/Min(x)) (Min/Max for a non-increasing f), ArgMax/ArgMin(x) (ArgMin/ArgMax): ties, NaN
    positions and empty reductions follow x, not f(x) (`reduce_min(sign(empty))` is sign(+inf)
    = 1 inside tf.function; fuzz2 seed 20261130 #1591). Relu/Relu6 of a BiasAdd are left for
    the remapper's fusion, as TF does."""
    def rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
        from simdist.runtime.ops import dispatch, math, reductions
        (a,) = tensors[:1]
        node = rec.producer(a)
        if node is None or len(node.ins) != 1 or not _sole(a):
            return None
        inner = node.op.name
        if inner not in _NON_DECREASING and inner not in _NON_INCREASING:
            return None
        if inner in ("Relu", "Relu6"):
            below = rec.producer(rec.input_tensor(node, 0))
            if below is not None and below.op.name in ("BiasAdd", "FusedBatchNorm", "FusedBatchNormV3"):
                return None
        ops = {"Max": math.MAX, "Min": math.MIN, "ArgMax": reductions.ARGMAX, "ArgMin": reductions.ARGMIN}
        outer = ops[name if inner in _NON_DECREASING else _FLIP[name]]
        _absorb(a)
        r = dispatch.execute(outer, (rec.input_tensor(node, 0),) + tuple(tensors[1:]), attrs)
        if name.startswith("Arg"):
            return r
        return dispatch.execute(node.op, (r,), node.attrs)
    rule.__name__ = f"_monotonic_{name.lower()}"
    return rule


# --- arithmetic_optimizer.cc ReplacePackWithTileReshape ------------------------------------------------------
def _pack_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Pack of N > 1 copies of one tensor (AllRegularInputsEqual, after common-subexpression
    elimination has merged identical ops: `stack([argsort(x), argsort(x)])` is a Pack of copies)
    -> Reshape(Tile(x, multiples)), multiples N at the axis: the same values, but Tile's kernel,
    which has no uint16 case (UnimplementedError "TileOp : The input data type is not supported").
    Only for 0 <= axis < rank(x): CalculateMultiplesFromChain refuses a larger axis and, compared
    unsigned, a negative one; x made by such a refused Pack of copies belongs to the chain, which
    is then refused whole. A Pack whose input TF's constant folding made a Const is folded instead
    (a captured tensor is a placeholder there, not a Const).

    The stage takes the input's node, not its output: for output k > 0 of a multi-output op
    (TopKV2's indices, Split's second part) it tiles output 0, when that has the Pack's dtype and a
    fully known shape (its properties are the ones read) and the Pack's shape is known: inside
    tf.function `stack([top_k(x).indices] * 2)` of int32 x holds the values (fz31b, second
    generator seed 3104 #19: `argsort` of int32, whose indices are TopKV2's second output; measured
    on TF 2.21). Another dtype at output 0 leaves the graph as it is."""
    from simdist.runtime.ops import array, slicing, static_shapes
    x = tensors[0]
    if len(tensors) < 2 or any(t is not x and not _merged(rec, t, x) for t in tensors[1:]):
        return None
    i = rec.slot_of.get(id(x))
    if i is not None and rec.static[i]:
        return None
    own = static_shapes.graph_known_shape(x)
    if own is None or None in own:
        # (the Pack's shape must be fully known for its Reshape: of an input_signature [None, 2] the Pack stays, so
        # a uint16 `stack([x, x], axis=1)` has its values where [3, 2] is Tile's UnimplementedError; open47)
        return None
    source = _output_zero(rec, x)
    if source is not x:
        known = static_shapes.graph_known_shape(source)
        out = static_shapes.graph_known_shape(x)
        if source.dtype != x.dtype or known is None or None in known or out is None or None in out:
            return None
    axis, rank = int(attrs["axis"]), source.ndim
    if not 0 <= axis < rank:
        return None
    inner = rec.producer(x)
    if inner is not None and inner.op.name == "Pack" and len(inner.ins) > 1 and len(set(inner.ins)) == 1:
        return None
    multiples = [1] * rank
    multiples[axis] = len(tensors)
    shape = x.shape.as_list()
    return array.reshape(slicing.tile(source, multiples), shape[:axis] + [len(tensors)] + shape[axis:])


def _output_zero(rec: Any, x: Tensor) -> Tensor:
    """Output 0 of the multi-output op whose output k > 0 x is, else x."""
    i = rec.slot_of.get(id(x))
    if i is None:
        return x
    key = rec.nodes[i].key
    if not (isinstance(key, tuple) and key[:1] == ("item",) and key[1] > 0):
        return x
    parent = rec.nodes[i].ins[0]
    for j in range(parent + 1, i):
        n = rec.nodes[j]
        if n.key == ("item", 0) and n.ins == (parent,) and j in rec.tensor_at:
            return rec.tensor_at[j]   # type: ignore[no-any-return]
    return x


#: the ops whose OpDef is_commutative (TF 2.21's registry; Maximum, Minimum and the string-capable Add are not):
#: Grappler's CanonicalizeNode sorts their regular inputs by name before DedupComputations, so `Mul(a, b)` and
#: `Mul(b, a)` are one node (utils/canonicalizer.cc; common_subgraph_elimination.cc)
_COMMUTATIVE = frozenset({"AccumulateNV2", "AddN", "AddV2", "ApproximateEqual", "BitwiseAnd", "BitwiseOr", "BitwiseXor",
                          "Equal", "LogicalAnd", "LogicalOr", "Mul", "NotEqual", "SquaredDifference"})


def _merged(rec: Any, a: Tensor, b: Tensor) -> bool:
    """Whether Grappler's common-subexpression elimination makes a and b one tensor: the outputs of
    stateless ops of one kind and attributes on merged inputs, constants of one value."""
    ia, ib = rec.slot_of.get(id(a)), rec.slot_of.get(id(b))
    if ia is None or ib is None:
        return False
    canon = _canonical(rec, max(ia, ib))
    return canon[ia] == canon[ib]


def _canonical(rec: Any, upto: int, bypass_identity: bool = False, commutative: bool = False) -> list[int]:
    """For nodes 0..upto, the first node each merges with (see _merged); `bypass_identity`: an Identity is its input
    (DedupComputations after the model pruner: `_deduped`); `commutative`: a commutative op's inputs in either order
    are one node (CanonicalizeNode; only `_canonical_add_n` asks: with it the finished graph's AddN rules, whose
    order TF 2.21 confirms, gave hs-ord-matmul-bfloat16's traced second order one bfloat16 ulp off)."""
    from simdist.runtime.graph.ir import CONST, PURE
    canon: list[int] = []
    seen: dict[Any, int] = {}
    for j in range(upto + 1):
        n = rec.nodes[j]
        key: Any = None
        if bypass_identity and n.kind == PURE and n.op is not None and n.op.name == "Identity" and len(n.ins) == 1:
            canon.append(canon[n.ins[0]])
            continue
        if n.kind == CONST and n.key != "capture" and isinstance(n.value, np.ndarray):
            key = ("const", str(n.dtype), n.value.shape, n.value.dtype.str, n.value.tobytes())
        elif n.kind == PURE and not n.stateful and n.key is not None and n.key[0] != "unique":
            ins = tuple(canon[k] for k in n.ins)
            key = (n.key, tuple(sorted(ins)) if commutative and n.op is not None and n.op.name in _COMMUTATIVE
                   else ins, getattr(n, "lane", None))   # (replicas' ops: other devices, not merged)
        if key is None:
            canon.append(j)
            continue
        try:
            canon.append(seen.setdefault(key, j))
        except TypeError:   # (an unhashable key: the node stands alone)
            canon.append(j)
    return canon


# --- arithmetic_optimizer.cc RemoveLogicalNotStage ------------------------------------------------------------
_NEGATED = {"Equal": "NOT_EQUAL", "NotEqual": "EQUAL", "Less": "GREATER_EQUAL", "LessEqual": "GREATER",
            "Greater": "LESS_EQUAL", "GreaterEqual": "LESS"}


def _logical_not_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """LogicalNot(comparison) with the comparison used by nothing else -> the negated comparison
    (Equal <-> NotEqual, Less -> GreaterEqual, LessEqual -> Greater, ...): with NaN operands
    `logical_not(less_equal(x, nan))` is True eagerly and False inside tf.function (second fuzzer,
    seed 32 #51)."""
    from simdist.runtime.ops import dispatch, math
    (a,) = tensors
    node = rec.producer(a)
    if node is None or node.op.name not in _NEGATED or not _sole(a):
        return None
    op = getattr(math, _NEGATED[node.op.name])
    _absorb(a)
    return dispatch.execute(op, (rec.input_tensor(node, 0), rec.input_tensor(node, 1)), node.attrs)


# --- arithmetic_optimizer.cc SimplifyAggregation: AddN(x, x, ..., x) -> Mul(Const(N), x)
def _aggregation(tensors: Any) -> Tensor | None:
    """An AddV2 or AddN whose inputs are all one tensor is N times it: Mul(N, x). Only a complex x
    shows it (x + x and 2·x agree for every real value): Eigen's complex product gives NaN parts
    the sum does not, so `x + x` of nan+0j is nan+nanj inside tf.function, nan+0j eagerly (fz27b,
    fz3 seed 2702 #40; measured on TF 2.21 for AddV2 and AddN, arguments and captured constants)."""
    from simdist.runtime.ops import dispatch, math
    from simdist.runtime.tensor import convert_to_tensor
    x = tensors[0]
    if not x.dtype.is_complex or len(tensors) < 2:
        return None
    return dispatch.execute(math.MUL, (convert_to_tensor(len(tensors), dtype=x.dtype), x))


# --- canonicalizer.cc CanonicalizeNode: a commutative op's two inputs sorted by their nodes' names
def _sorted_operands(rec: Any, op: Any, tensors: Any, attrs: Any, finished: bool = False) -> Tensor | None:
    """A commutative binary op (AddV2, Mul, SquaredDifference, AddN of two) of real floats whose second input's node
    name sorts before its first's, run with its inputs swapped; None where they are in order, a name is unknown or
    the arithmetic optimizer is off. ArithmeticOptimizer's DedupComputations canonicalizes every node first
    (utils/canonicalizer.cc: std::sort of the input strings), so the kernel's first operand is the one whose name
    sorts first, and of two NaNs at one element the x86 instruction returns that one's: inside tf.function
    `lambda y, p: y * p` keeps p's NaN, `lambda a, b: a * b` a's (TF 2.21 observed, /work/wt/fix64n_logs/p_opts.py;
    the sort goes with arithmetic_optimization off, with CSE, constant folding or dependency optimization off it
    stays; Maximum and Minimum, not is_commutative, keep the written order: nsweep64's p11.py). Not the nodes a rule on
    the finished graph makes (MinimizeBroadcasts, ConstantPushDown: TF's rewritten nodes keep the names of the nodes
    they replace, which simdist does not give them), unless that rule asks (`finished`: FuseSquaredDiff's node, whose
    inputs are the Python's)."""
    from simdist.runtime import execution, symbolic
    from simdist.runtime.ops import dispatch
    if len(tensors) != 2 or not _on("arithmetic_optimization") or (_FINISHING[0] and not finished):
        return None
    runner = execution.current().runner
    if runner is not None and runner.n > 1:
        # (not modelled in a replica of a multi-replica strategy.run: a replica's nodes are named replica_<i>/...,
        # so the sort may order one replica's inputs otherwise than another's, and the replayed step fuses its
        # replicas only where every replica's ops take their inputs alike: tests/runtime/test_replica_fusion.py)
        return None
    x, y = tensors
    if x is y or x.dtype not in _FLOATS + _COMPLEX or y.dtype not in _FLOATS + _COMPLEX:
        return None
    nx, ny = symbolic.optimized_name(x), symbolic.optimized_name(y)
    if nx is None or ny is None or not ny < nx:
        return None
    return dispatch.execute(op, (y, x), attrs)   # type: ignore[no-any-return]


def _squared_difference_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """SquaredDifference: its inputs in Grappler's canonical order (`_sorted_operands`)."""
    from simdist.runtime.ops import math
    return _sorted_operands(rec, math.SQUARED_DIFFERENCE, tensors, attrs)


# --- the inputs of an aggregate sorted by node name (ArithmeticOptimizer's canonical input order)
def _by_name(ts: Any, rec: Any = None, canon: list[int] | None = None) -> list[Tensor] | None:
    """An AddN's inputs in the order TF's optimized graph holds them, sorted by their nodes' names
    (measured on TF 2.21: inside tf.function `tf.add_n([x, y, z, w])` and `((x + y) + z) + w` of float32
    arguments named x, y, z, w sum as add_n([w, x, y, z]); renamed b, a, d, c they follow the new names;
    `(x + y) + x` is AddN(x, x, y); a tape's gradient terms sum in their nodes' names' order, `mul_10`
    before `mul_2`, after the rewrites that forward a node's input: `ones * c` is c, runtime/graph_names.py),
    where every input has a name simdist knows (symbolic.node_name); None where one does not (the order
    stays as written) or the order does not change. With `rec`, on the finished graph, an input that Grappler's
    DedupComputations merges with an earlier node (two `reduce_sum`s of one tensor) sorts by that node's name, so
    the merged inputs sit together (`_merged_names`; TF 2.21: add_n of Sum nodes Sum_2 .. Sum_6, Sum_6 a duplicate
    of Sum_3 and none returned, sums Sum_2, Sum_3, Sum_3, Sum_4, Sum_5; fz57, fz54b seed 57102 #3). `canon`: the
    caller's `_deduped` of the graph, where it has one."""
    from simdist.runtime import symbolic
    names = [symbolic.optimized_name(t) for t in ts]
    if rec is not None:
        names = _merged_names(rec, ts, names, canon)
    if any(n is None for n in names):
        return None
    order = sorted(range(len(ts)), key=lambda i: names[i])   # (stable: one tensor twice keeps its place)
    if order == list(range(len(ts))):
        return None
    return [ts[i] for i in order]


def _merged_names(rec: Any, ts: Any, names: list, canon: list[int] | None = None) -> list:
    """On the finished graph (a finished rule's view), each input's name, or that of the first node DedupComputations
    merges it with (it runs before the stages that sort an aggregate's inputs by name): `_deduped`."""
    view = _VIEWS[-1] if _VIEWS else None
    slots = [rec.slot_of.get(id(t)) for t in ts]
    known = [i for i in slots if i is not None]
    if view is None or len(known) < 2:
        return names
    if canon is None or len(canon) <= max(known):
        canon = _deduped(rec, max(known))
    from simdist.runtime import symbolic
    out = list(names)
    for k, i in enumerate(slots):
        if i is None or canon[i] == i:
            continue
        first = rec.tensor_at.get(canon[i])
        name = None if first is None else symbolic.optimized_name(first)
        if name is not None:
            out[k] = name
    return out


def _deduped(rec: Any, upto: int) -> list[int]:
    """For nodes 0..upto, the node Grappler's DedupComputations keeps in each one's place: the first earlier node of
    the same stateless op and attributes on the same inputs (`_canonical`'s key), constants of one value, where an
    Identity is its input (the model pruner bypasses it first: `reduce_sum(identity(x))` and `reduce_sum(x)`
    merge; observed on TF 2.21, fz57, returned or not)."""
    return _canonical(rec, upto, bypass_identity=True)


def _add_n_by_merged_names(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """AddN on the finished graph after DedupComputations: an input merged with an earlier input is that input (one
    node read twice, whose buffer the kernel does not take over: `_add_n_forwarding`), and the inputs sort again by
    name (`_merged_names`): add_n([sum(x), sum(y), sum(z), sum(identity(x))]) of nodes Sum .. Sum_3 is
    AddN(Sum, Sum, Sum_1, Sum_2) (TF 2.21 observed; fz57, fz54b seed 57102 #3's loss). Only where at most one input
    is constant (as `_add_n_rule`'s sort) and an input merges."""
    from simdist.runtime.ops import dispatch, math
    if len(tensors) < 3 or not (_is_float(tensors[0]) or tensors[0].dtype.is_complex) or \
            sum(_folds(rec, t) for t in tensors) > 1:
        return None
    slots = [rec.slot_of.get(id(t)) for t in tensors]
    known = [i for i in slots if i is not None]
    if len(known) < 2:
        return None
    canon = _deduped(rec, max(known))
    first: dict[int, Tensor] = {}
    merged = []
    for t, i in zip(tensors, slots):
        merged.append(t if i is None else first.setdefault(canon[i], t))
    if all(a is b for a, b in zip(merged, tensors)):
        return None
    named = _by_name(merged, rec, canon) or merged
    was = rec.rewrites
    rec.rewrites = False   # (already in Grappler's order: not sorted again by the record-time rule)
    try:
        return dispatch.execute(math.ADD_N, tuple(named))   # type: ignore[no-any-return]
    finally:
        rec.rewrites = was


# --- arithmetic_optimizer.cc AddOpsRewriteStage
_ADD_OPS = ("AddV2", "Add", "AddN")


def _add_ops_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """A tree of Add/AddV2/AddN of floats (or complex numbers) rooted at this AddV2, each absorbed
    node feeding only the tree (its one consumer in the finished graph: `_sole`), every shape fully known: the leaves,
    in the tree's left-to-right order, summed as one AddN per shape (AddN(x, ..., x) of one tensor
    is Mul(N, x): SimplifyAggregation), then the groups added from the fewest elements up
    (AddOpsRewriteStage; AddN sums left to right): inside tf.function `(x + 2.5) + x` of float16
    is (x + x) + 2.5 (fz35b, fourth generator seed 3502 #57: 2.501953125 where eagerly 2.50390625
    for x = 0.0010004). Shapes of equal size that differ leave the order to TF's hash map: not
    rewritten then. Only a tree that absorbed a node is rewritten (a single Add keeps its
    operands' order, which decides a NaN's payload); a sum of constants is a folded leaf."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import dispatch, math, static_shapes
    from simdist.runtime.tensor import convert_to_tensor
    a, b = tensors
    if b.dtype != a.dtype or not (_is_float(a) or a.dtype.is_complex):
        return None
    leaves: list[Tensor] = []
    absorbed: list[Tensor] = []
    late = [False]   # (an Add reached past a node constant folding removed: the second iteration's tree)

    def absorb(t: Tensor) -> None:
        inner, passed = _past_sole_identities(rec, t)
        node = rec.producer(inner)
        # (a sum of constants is a Const node by then, folded: a leaf, as ConstantPushDown's `C + Y`)
        if node is not None and node.op.name in _ADD_OPS and inner.dtype == a.dtype and _sole(inner) \
                and not _folds(rec, inner):
            absorbed.extend(passed + [inner])
            late[0] = late[0] or any(rec.producer(p).op.name not in ("Identity", "StopGradient") or
                                     symbolic.folded_forward(p) for p in passed)
            for k in range(len(node.ins)):
                absorb(rec.input_tensor(node, k))
        else:
            leaves.append(t)
    absorb(a)
    absorb(b)
    if not absorbed:
        return None
    if late[0]:
        # (AddOpsRewriteStage of the second iteration: the tree's leaves in its order once common_subgraph_elimination
        # has sorted each Add's inputs by name, the removed node's consumers reading the Add behind it; the AddN it
        # makes is not sorted again, no canonicalization running after it)
        named = _canonical_tree_leaves(rec, a, b, a.dtype)
        if named is None:
            return None
        leaves = named
    shapes = [static_shapes.graph_known_shape(t) for t in leaves]
    if any(shp is None or None in shp for shp in shapes):
        return None   # (ShapeIsSymbolicallyDefined: not modelled for dimensions the graph does not know)
    groups: dict[tuple, list[Tensor]] = {}
    for t, shp in zip(leaves, shapes):
        groups.setdefault(tuple(shp), []).append(t)
    sizes = [int(np.prod(k)) for k in groups]
    if len(set(sizes)) != len(sizes):
        return None
    for t in absorbed:
        _absorb(t)
    sums = []
    for key in sorted(groups, key=lambda k: int(np.prod(k))):
        g = groups[key]
        g = g if late[0] else (_by_name(g, rec) or g)
        if len(g) == 1:
            sums.append(g[0])
        elif all(t is g[0] for t in g):
            sums.append(dispatch.execute(math.MUL, (convert_to_tensor(len(g), dtype=a.dtype), g[0])))
        elif late[0]:
            was = rec.rewrites
            rec.rewrites = False   # (the second iteration's AddN, in the tree's order: not sorted again)
            try:
                sums.append(dispatch.execute(math.ADD_N, tuple(g)))
            finally:
                rec.rewrites = was
        else:
            sums.append(dispatch.execute(math.ADD_N, tuple(g)))
    out = sums[0]
    for g_sum in sums[1:]:
        out = dispatch.execute(math.ADD, (out, g_sum))
    return out


def _past_sole_identities(rec: Any, t: Tensor) -> tuple[Tensor, list[Tensor]]:
    """t read past the nodes that feed only the next op and that the first iteration removes: Identity and
    StopGradient (the model pruner's), and a Mul/RealDiv/AddV2/Sub that constant folding simplifies to an Identity of
    one operand (`_simplified`: `ones * (a + b)`), which the dependency optimizer then removes; with the tensors
    passed. So the second iteration's AddOpsRewriteStage absorbs the Add behind them: inside tf.function
    `x + (1 + 0 * zeros_like(x)) * (log1p(e) + relu(-x))` — weighted_cross_entropy_with_logits of zero labels — is
    AddN(x, Log1p, Relu) sorted by name (TF 2.21 observed: (x + L) + R in bfloat16 for an argument named `lg`,
    (L + R) + x for `zz`; fz64, the rare-shape fz54b seed 64502 #0)."""
    passed: list[Tensor] = []
    while True:
        node = rec.producer(t)
        if node is None or node.op is None or not _sole(t):
            return t, passed
        if node.op.name in ("Identity", "StopGradient") and len(node.ins) == 1:
            inner = rec.input_tensor(node, 0)
        elif node.op.name in ("Mul", "RealDiv", "AddV2", "Sub") and len(node.ins) == 2:
            inner = _simplified_operand(rec, node.op.name, rec.input_tensor(node, 0), rec.input_tensor(node, 1))
        else:
            inner = None
        if inner is None:
            return t, passed
        passed.append(t)
        t = inner


def _simplified_operand(rec: Any, kind: str, x: Tensor | None, y: Tensor | None) -> Tensor | None:
    """The operand `_simplified` forwards as it is (an Identity of it, not a Neg or a BroadcastTo), else None."""
    if x is None or y is None or not _on("constant_folding") or \
            not all(_is_float(v) or v.dtype.is_complex for v in (x, y)):
        return None
    out = list(np.broadcast_shapes(tuple(x.shape.as_list()), tuple(y.shape.as_list())))
    x_zero = kind == "AddV2" and _zeros_folded(rec, x)
    y_zero = kind in ("AddV2", "Sub") and _zeros_folded(rec, y)
    x_one = kind == "Mul" and _ones_folded(rec, x)
    y_one = kind in ("Mul", "RealDiv") and _ones_folded(rec, y)
    if y.shape.as_list() == out and (x_one or x_zero):
        return y
    if x.shape.as_list() == out and (y_one or y_zero):
        return x
    return None


def _canonical_tree_leaves(rec: Any, a: Tensor, b: Tensor, dtype: Any) -> list[Tensor] | None:
    """The leaves of the Add tree at Add(a, b) in its order after CanonicalizeNode sorted every Add's inputs by their
    nodes' names, each input named as the node it reads once the removable nodes are gone (`_past_sole_identities`).
    TF 2.21 observed: `x + (1 + 0 * zeros_like(x)) * (log1p(e) + relu(-x))` of float64 sums (x + L) + R for an
    argument named `a`, whose name sorts before the inner Add's `add`, and (L + R) + x for `lg` (fz64). None where a
    name is unknown."""
    from simdist.runtime import symbolic
    out: list[Tensor] = []

    def visit(ts: list) -> bool:
        keyed = []
        for t in ts:
            inner, _ = _past_sole_identities(rec, t)
            name = symbolic.optimized_name(inner)
            if name is None:
                return False
            keyed.append((name, t, inner))
        for _, t, inner in sorted(keyed, key=lambda e: e[0]):   # (stable: one input twice keeps its place)
            node = rec.producer(inner)
            if node is not None and node.op.name in _ADD_OPS and inner.dtype == dtype and _sole(inner) \
                    and not _folds(rec, inner):
                if not visit([rec.input_tensor(node, k) for k in range(len(node.ins))]):
                    return False
            else:
                out.append(t)
        return True
    return out if visit([a, b]) else None


def _ones_folded(rec: Any, t: Tensor) -> bool:
    """IsOnes of t once constant folding has run: a Const of ones or OnesLike (`_is_ones`), or a value computed from
    literals and a materialized ZerosLike/OnesLike (`_materialized`: `1 + 0 * zeros_like(x)`)."""
    from simdist.runtime.ops import dispatch
    return _is_ones(rec, t) or (_materialized(rec, t) and _ones(np.asarray(dispatch.raw(t))))


def _zeros_folded(rec: Any, t: Tensor) -> bool:
    """IsZeros of t once constant folding has run (`_zeros`, or a materialized value of zeros)."""
    from simdist.runtime.ops import dispatch
    if _zeros(rec, t):
        return True
    if not _materialized(rec, t):
        return False
    v = np.asarray(dispatch.raw(t))
    return v.size > 0 and v.dtype.kind in "fcV" and bool(np.all(v == 0))


# --- arithmetic_optimizer.cc RemoveNegationStage
def _add_ops_then_negation(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """An Add/AddV2 of the finished graph: AddOpsRewriteStage's tree first (it runs before RemoveNegationStage in the
    stage pipeline, and a node it absorbs is not visited again), else RemoveNegationStage."""
    out = _add_ops_rule(rec, tensors, attrs)
    return _remove_negation(rec, tensors, attrs, add=True) if out is None else out


def _remove_negation(rec: Any, tensors: Any, attrs: Any, add: bool = False) -> Tensor | None:
    """RemoveNegationStage of floats and complex numbers: `a + (-b)` is Sub(a, b), `(-a) + b` Sub(b, a), `a - (-b)`
    AddV2(a, b), the Neg read past Identity nodes (the model pruner's). Of one value but a NaN's sign: the kernel
    returns b's NaN where a + (-b) returned -b's, so inside tf.function `x + (-exp(x))` of complex128 inf + 1j keeps
    +NaN parts where eagerly they are -NaN (fz61, TF 2.21 observed). Integers are left alone (no value changes)."""
    from simdist.runtime.ops import dispatch, math
    a, b = tensors
    if not (_is_float(a) or a.dtype.is_complex) or a.dtype != b.dtype:
        return None
    if _pruned_op(rec, b) == "Neg":
        inner = _neg_input(rec, b)
        if inner is None or list(inner.shape.as_list()) != list(b.shape.as_list()):
            return None
        return dispatch.execute(math.SUB if add else math.ADD, (a, inner))
    if add and _pruned_op(rec, a) == "Neg":
        inner = _neg_input(rec, a)
        if inner is None or list(inner.shape.as_list()) != list(a.shape.as_list()):
            return None
        return dispatch.execute(math.SUB, (b, inner))
    return None


def _neg_input(rec: Any, t: Tensor) -> Tensor | None:
    """The input of the Neg node t is (past Identity nodes), as the recording holds it."""
    neg = rec.nodes[rec.pruned(rec.slot_of[id(t)])]
    return rec.tensor_at.get(neg.ins[0])   # type: ignore[no-any-return]


def _add_n_rules(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """AddN: one input repeated is SimplifyAggregation's (arithmetic_optimization: `add_n([x, x, x])` of complex64 is
    3·x inside tf.function with constant_folding off and the AddN kernel's sum with arithmetic_optimization off;
    observed on TF 2.21, fix64c), two inputs sorted by their nodes' names (arithmetic_optimization's canonical
    form, fix64n), else constant folding's split (`_add_n_rule`)."""
    if all(t is tensors[0] or (t.dtype.is_complex and rec.same_node(t, tensors[0])) for t in tensors):
        return _aggregation(tensors) if _on("arithmetic_optimization") else None
    if len(tensors) == 2:   # (CanonicalizeNode's sorted inputs: arithmetic_optimization's alone; fix64n)
        from simdist.runtime.ops import math
        return _sorted_operands(rec, math.ADD_N, tensors, attrs) if _on("arithmetic_optimization") else None
    return _add_n_rule(rec, tensors, attrs) if _on("constant_folding") else None


# --- constant_folding.cc PartialAssocOpConstFolding: AddN's constant inputs summed first
def _add_n_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """AddN of more than two float (or complex) inputs, at least two but not all of them constant:
    TF splits the constants into their own AddN (folded: its kernel over them, in their order), which
    takes the first constant's place among the remaining inputs (their order kept), so
    add_n([x, 65504, -65504]) in float16 is x inside tf.function and 0 eagerly for x = -1."""
    from simdist.runtime.ops import dispatch, math
    if len(tensors) <= 2 or not (_is_float(tensors[0]) or tensors[0].dtype.is_complex):
        return None
    const = [_folded_const(rec, t) for t in tensors]
    k = sum(const)
    if k == len(tensors) and not all(rec.is_constant(t) for t in tensors):
        # (constants only once materialized: folded as `_folded_first` folds an all-constant AddN)
        return _canonical_add_n(rec, tensors) if _on("common_subgraph_elimination") else None
    if k < 2 or k == len(tensors):
        named = _by_name(tensors) if k <= 1 else None   # (Grappler's canonical order: their nodes' names)
        return None if named is None else dispatch.execute(math.ADD_N, tuple(named))
    named = _by_name_merged(tensors, const)
    if named is not None:   # (Grappler's canonical form has sorted the inputs by name before constant folding: the
        tensors = named     # split takes the first constant's place in that order; fz54b seed 59103 #3, TF 2.21)
        const = [_folded_const(rec, t) for t in tensors]
    first = const.index(True)
    was = rec.rewrites
    rec.rewrites = False   # (the split's AddN, folded over its constants in the sorted order: not sorted again)
    try:
        folded = dispatch.execute(math.ADD_N, tuple(t for t, c in zip(tensors, const) if c))
    finally:
        rec.rewrites = was
    kept = [folded if i == first else t for i, (t, c) in enumerate(zip(tensors, const)) if not c or i == first]
    resorted = _split_resorted(kept, folded, k)
    if resorted is None:
        return dispatch.execute(math.ADD_N, tuple(kept))
    rec.rewrites = False   # (in the second iteration's canonical order already: not sorted again)
    try:
        return dispatch.execute(math.ADD_N, tuple(resorted))   # type: ignore[no-any-return]
    finally:
        rec.rewrites = was


def _folds(rec: Any, t: Tensor) -> bool:
    """Whether constant folding makes t a Const node: a constant of the recording not computed from a tensor the call
    closes over (TF 2.21 runs a tf.function with every captured tensor, small ones too, as an argument of the graph
    it optimizes: `one + big` of two captures is an Add, not a Const; tests/ops/test_grappler_captures_tf.py)."""
    return rec.is_constant(t) and not rec.is_capture(t)


def _folded_const(rec: Any, t: Tensor) -> bool:
    """Whether t is a Const node when constant folding splits an AddN: a constant of the recording, or a value
    computed from literals and ZerosLike/OnesLike of a fully known shape (`_materialized`: tf.zeros_like of a known
    shape is a Const in TF's graph, whatever its input; so `reduce_sum(exp(imag(x)))` of a real argument x is one;
    fz61, fz54b seed 59206 #7). Not a tensor captured from outside the call, even one that `_materialized` reads: TF's
    function runtime passes every capture in as an argument (`_Arg` nodes of the optimized graph, small eager
    constants too), so `add_n([x, b, c])` of captured b, c adds them in order (observed on TF 2.21; fz62, fz54b seed
    62101 #6)."""
    return _really_constant(rec, t) or _materialized(rec, t)


def _split_resorted(kept: list, folded: Tensor, k: int) -> list | None:
    """The AddN left by PartialAssocOpConstFolding, its inputs sorted again by name in the meta optimizer's second
    iteration (common_subgraph_elimination's CanonicalizeNode), the split's node named
    `ConstantFolding/<AddN>_partial_split_<k>` (OptimizedNodeName) and forwarded inputs under their sources' names
    (`_reduction_identity`, `_forward`): add_n([k1, Abs, Sqrt, k2, mul]) of constants named k1 and k2 runs as
    AddN(Abs, ConstantFolding/AddN_partial_split_2, Sqrt, mul) (TF 2.21's optimized graph; fz61). None where the
    order does not change or a name is unknown."""
    from simdist.runtime import symbolic
    names = [f"ConstantFolding/AddN_partial_split_{k}" if t is folded else symbolic.optimized_name(t) for t in kept]
    if any(n is None for n in names):
        return None
    order = sorted(range(len(kept)), key=lambda i: names[i])   # (stable: one tensor twice keeps its place)
    return None if order == list(range(len(kept))) else [kept[i] for i in order]


def _canonical_add_n(rec: Any, tensors: Any) -> Tensor | None:
    """AddN of three or more float constants (Const nodes of TF's graph: `_folded_first`), in the order TF's constant
    folding evaluates it: the meta optimizer runs common_subgraph_elimination before constant_folding, and its
    CanonicalizeNode sorts a commutative node's inputs by name, merging identical nodes (`Mul(g, v)` and `Mul(v, g)`
    are one node, read twice, sorted under the first one's name: `_deduped`). The traced gradient of
    `v = w * 1.0; (v * v) * 2 + v` of a constant bfloat16 w, AddN(ones, gradient_tape/mul_2/Mul,
    gradient_tape/mul_2/Mul_1), folds as AddN(Mul, Mul, ones): (2v + 2v) + 1 (TF 2.21, lead60 gd60; cse60). None
    where the order does not change or a name is unknown."""
    from simdist.runtime import symbolic
    from simdist.runtime.ops import dispatch, math
    if len(tensors) < 3 or not _is_float(tensors[0]):
        return None
    names = [symbolic.optimized_name(t) for t in tensors]
    slots = [rec.slot_of.get(id(t)) for t in tensors]
    known = [i for i in slots if i is not None]
    if known:
        canon = _canonical(rec, max(known), bypass_identity=True, commutative=True)
        for k, i in enumerate(slots):
            if i is not None and canon[i] != i:
                first = rec.tensor_at.get(canon[i])
                name = None if first is None else symbolic.optimized_name(first)
                if name is not None:
                    names[k] = name
    if any(n is None for n in names):
        return None
    order = sorted(range(len(tensors)), key=lambda i: names[i])   # (stable: merged inputs keep their order)
    if order == list(range(len(tensors))):
        return None
    was = rec.rewrites
    rec.rewrites = False   # (folded as it stands: its kernel over the sorted constants)
    try:
        return dispatch.execute(math.ADD_N, tuple(tensors[i] for i in order))   # type: ignore[no-any-return]
    finally:
        rec.rewrites = was


def _by_name_merged(ts: Any, const: list[bool]) -> list[Tensor] | None:
    """`_by_name` at record time where DedupComputations has merged equal constants (same dtype, shape and bits) into
    the first of them: a later one sorts under the first's name, beside it (observed on TF 2.21: add_n of two equal
    literal constants `Const` and `Const_4` sums them next to each other). Equal non-constant terms, which TF merges
    the same way, are not modelled here (tests/ops/test_addn_partial59_tf.py, seed 18)."""
    from simdist.runtime import symbolic
    names = [symbolic.optimized_name(t) for t in ts]
    if any(n is None for n in names):
        return None
    from simdist.runtime.ops import dispatch
    raw = [np.asarray(dispatch.raw(t)) if c else None for t, c in zip(ts, const)]
    for i in range(len(ts)):   # (equal constants: one Const node)
        j = next((j for j in range(i) if const[i] and const[j] and ts[i].dtype == ts[j].dtype
                  and raw[i].shape == raw[j].shape and raw[i].tobytes() == raw[j].tobytes()), None)
        if j is not None:
            names[i] = names[j]
    order = sorted(range(len(ts)), key=lambda i: names[i])   # (stable: merged inputs keep their order)
    return None if order == list(range(len(ts))) else [ts[i] for i in order]


# --- arithmetic_optimizer.cc FuseSquaredDiffStage ------------------------------------------------------------
_SQUARED_DIFFERENCE_TYPES = (dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64, dtypes.int32,
                             dtypes.int64)


def _square_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Square(Sub(x, y)) with the Sub used by nothing else -> SquaredDifference(x, y), except for
    complex types. Its values are Square(Sub)'s ((x - y) * (x - y)); the rewrite shows where
    SquaredDifference has no kernel: uint8/16/32/64, int8 and int16 (InvalidArgumentError "Value
    for attr 'T' of uint32 is not in the list of allowed values", on every call; fz11, fuzz2
    seed 71 #123)."""
    from simdist.runtime import errors
    (a,) = tensors
    node = rec.producer(a)
    if node is None or node.op.name != "Sub" or not _sole(a):
        return None
    if a.dtype in _FLOATS:
        # (the fused SquaredDifference(x, y) is canonicalized in the next iteration: its inputs by their nodes' names,
        # so `tf.square(y - p)` keeps p's NaN of two, `tf.square(a - b)` a's; `_sorted_operands`)
        from simdist.runtime.ops import dispatch, math
        x, y = rec.input_tensor(node, 0), rec.input_tensor(node, 1)
        swapped = _sorted_operands(rec, math.SQUARED_DIFFERENCE, (x, y), attrs, finished=True)
        if swapped is not None:
            _absorb(a)
        return swapped
    if a.dtype.is_complex or a.dtype in _SQUARED_DIFFERENCE_TYPES:
        return None
    raise errors.InvalidArgumentError(
        None, None, f"Value for attr 'T' of {a.dtype.name} is not in the list of allowed values: bfloat16, half, "
        "float, double, int32, int64, complex64, complex128\n\t; NodeDef: {{node Sub}}; Op<name=SquaredDifference; "
        "signature=x:T, y:T -> z:T; attr=T:type,allowed=[DT_BFLOAT16, DT_HALF, DT_FLOAT, DT_DOUBLE, DT_INT32, "
        "DT_INT64, DT_COMPLEX64, DT_COMPLEX128]; is_commutative=true>")


# --- constant_folding.cc ConstantPushDown -------------------------------------------------------------------
_PUSH_TYPES = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128)
_ADD_SUB, _MUL = ("AddV2", "Add", "Sub"), ("Mul",)


def _really_constant(rec: Any, t: Tensor) -> bool:
    """Whether t is a Const node of TF's graph once folded: a literal made in the call or computed
    from literals only (a tensor captured from outside is a placeholder there, not a Const)."""
    i = rec.slot_of.get(id(t))
    if i is None:
        parent = getattr(rec, "parent", None)
        return parent is not None and _really_constant(parent, t)
    return _back_to_literals(rec, i, lambda j, n: None if rec.static[j] and rec.folds[j] else False)


def _back_to_literals(rec: Any, i: int, visit: Any) -> bool:
    """Walk node i's inputs back to the call's literals: False at a captured tensor (a placeholder in TF's graph) or
    where `visit(j, node)` of a computed node says False; True says stop there, None go on into its inputs."""
    from simdist.runtime.graph.ir import CONST
    seen: set[int] = set()
    todo = [i]
    while todo:
        j = todo.pop()
        if j in seen:
            continue
        seen.add(j)
        n = rec.nodes[j]
        if n.kind == CONST:
            if n.key == "capture":
                return False
            continue
        v = visit(j, n)
        if v is False:
            return False
        if v is None:
            todo.extend(n.ins)
    return True


def _no_larger(c_shape: Any, x_shape: Any) -> bool:
    """ConstantPushDown's check before pushing C past a Y that is not constant (constant_folding.cc): C has no
    more elements than X, and no dimension of C larger than X's at the same index (from the front)."""
    c_dims, x_dims = tuple(c_shape), tuple(x_shape)
    if None not in c_dims and None not in x_dims and int(np.prod(c_dims)) > int(np.prod(x_dims)):
        return False
    return not any(cd is not None and xd is not None and cd > xd for cd, xd in zip(c_dims, x_dims))


def _child_leaves(rec: Any, node: Any) -> tuple[Tensor, Tensor]:
    """The two inputs of a push-down's child in the order ConstantPushDown reads them (its X is the first that is
    not constant): an Add child's sorted by their nodes' names while the arithmetic optimizer runs (its canonical
    form, made before the push-down sees the node: `(a + b) - C` with nodes sub and Softplus is Softplus + (sub - C),
    Keras's log_cosh `x + softplus(-2x) - log 2`; with arithmetic_optimization off, x + (softplus - C): observed on
    TF 2.21, kopen57, tests/test_push_down_order_tf.py), as written otherwise (a Sub, or a name simdist does not
    know)."""
    from simdist.runtime import symbolic
    l0, l1 = rec.input_tensor(node, 0), rec.input_tensor(node, 1)
    if node.op.name in ("AddV2", "Add") and _on("arithmetic_optimization"):
        n0, n1 = symbolic.optimized_name(l0), symbolic.optimized_name(l1)
        if n0 is not None and n1 is not None and n1 < n0:
            return l1, l0
    return l0, l1


def _push_down_rule(rec: Any, tensors: Any, attrs: Any, name: str) -> Tensor | None:
    """`C op (X op' Y)` (either side), C and Y constants and op' an Add/Sub under Add/Sub or a
    Mul under Mul whose output nothing else uses -> `X op (C op' Y)` with the signs carried,
    C op' Y folded (ConstantPushDown): (x + c1) + c2 is x + (c2 + c1); c - (x - c1) is
    (c + c1) - x; (x * c1) * c2 is x * (c2 * c1). Floats and complex only (integer sums do not
    change); float16/bfloat16 only for Add under Add and Mul under Mul (TF excludes the half types
    from the push-down, but a chain's constants are combined first all the same: measured for sums
    (AddOpsRewrite) and, fz32b, for products: inside tf.function `(x * c1) * c2`, `(x / c1) * c2` and
    `(x * c1) / c2` of float16 or bfloat16 x are x times the constants' product rounded to the half
    type, fourth generator seed 3201 #5; the stage that does it is not identified). TF also pushes a constant down when Y is not one
    (kfuzz48, `_no_larger`): with a Sub parent or child the result stays ((x - y) + c is x + (c - y),
    c - (x - y) is (c + y) - x: Keras's centered RMSprop `velocity - square(average_grad) + epsilon`);
    a sum of sums or a product of products its arithmetic optimizer re-associates again (AddOpsRewrite,
    MinimizeBroadcasts: not modelled, left as written; TF's (x * y) * c is (x * c) * y). TF 2.21: `image.random_brightness(img, d,
    seed=)` inside tf.function adds its uniform draw's minval to the image first (fuzz14 seed
    1420261202 #787)."""
    from simdist.runtime.ops import dispatch, math
    a, b = tensors
    if a.dtype not in _PUSH_TYPES:
        return None
    left_const = _really_constant(rec, a)
    if not left_const and not _really_constant(rec, b):
        return None
    c, child = (a, b) if left_const else (b, a)
    node = rec.producer(child)
    family = _ADD_SUB if name in _ADD_SUB else _MUL
    if node is None or node.op.name not in family or len(node.ins) != 2 or not _sole(child):
        return None
    l0, l1 = _child_leaves(rec, node)
    ll_const, rl_const = _really_constant(rec, l0), _really_constant(rec, l1)
    if ll_const and rl_const:
        return None
    x, y = (l1, l0) if ll_const else (l0, l1)
    sym, child_sym = name != "Sub", node.op.name != "Sub"
    if not _really_constant(rec, y):
        # (kfuzz48) TF pushes C down past a Y that is not constant too, when C is no larger than the child's
        # input (0 if its left leaf is constant, else 1: constant_folding.cc compares with that one); a sum of
        # sums or a product of products is re-associated again by the arithmetic optimizer (AddOpsRewrite,
        # MinimizeBroadcasts: not modelled, left as written), a Sub parent or child stays pushed
        if (sym and child_sym) or family is _MUL or a.dtype in (dtypes.float16, dtypes.bfloat16) \
                or not _no_larger(c.shape, (l0 if ll_const else l1).shape):
            return None
    if a.dtype in (dtypes.float16, dtypes.bfloat16) and not (sym and child_sym):
        return None   # (halves: no push-down, only the regrouping of a sum's or a product's constants)
    plus, minus = (math.ADD, math.SUB) if family is _ADD_SUB else (math.MUL, None)
    _absorb(child)
    if sym and child_sym:
        return _kept_names(dispatch.execute(plus, (c, y)), child,
                           lambda inner: dispatch.execute(plus, _pushed_parent_order(x, inner)))

    def negated(right_leaf: bool) -> bool:
        return (not child_sym and right_leaf) != (not sym and left_const)
    neg_c = not sym and not left_const
    neg_x, neg_y = negated(ll_const), negated(not ll_const)
    outer = minus if neg_x or (neg_c and neg_y) else plus
    return _kept_names(dispatch.execute(minus if neg_c != neg_y else plus, (y, c) if neg_c else (c, y)), child,
                       lambda inner: dispatch.execute(outer, (inner, x) if neg_x else (x, inner)))


def _pushed_parent_order(x: Tensor, inner: Tensor) -> tuple[Tensor, Tensor]:
    """The commutative parent `X op inner` of a push-down with its inputs in the arithmetic optimizer's canonical order
    (`_sorted_operands`: by node name, the folded `inner` under the child's name, which `_kept_names` gave it): traced
    complex `x * 2 * 3` is Mul(mul, x), 6 · x by the scalar_left functor, whose packets take x's NaN parts (TF 2.21,
    fix66c p_mul3.py); an argument `a` sorts first, a · 6."""
    from simdist.runtime import symbolic
    if not _on("arithmetic_optimization"):
        return x, inner
    nx, ni = symbolic.optimized_name(x), symbolic.optimized_name(inner)
    return (inner, x) if nx is not None and ni is not None and ni < nx else (x, inner)


def _kept_names(inner: Tensor, child: Tensor, make_outer: Any) -> Tensor:
    """The push-down's two nodes under the names they had: constant_folding.cc rewrites the child in place (`C op Y`,
    a Const of that name once folded) and the parent (`X op child`), so the arithmetic optimizer's canonical order
    after it sorts them by those names (gelu's gradient: `((c * g) * 3) * square(x)` is (3c * square(x)) * g)."""
    from simdist.runtime import symbolic

    def rename(t: Tensor, was: Any) -> None:
        name, op = symbolic.node_name(was) if was is not None else None, symbolic.producer(t)
        if name is not None and op is not None:
            symbolic.rename_output(t, name, 0, op.type, tuple(op.inputs))
    rename(inner, child)
    outer = make_outer(inner)
    rename(outer, _PARENT[-1] if _PARENT else None)
    return outer  # type: ignore[no-any-return]


# --- constant_folding.cc SimplifyPad: Pad/PadV2 of constant zero paddings
def pad_removed(paddings: Any, rows: tuple) -> bool:
    """Whether a Pad/PadV2 about to be added to a tf.function's graph is one Grappler replaces with
    Identity (SimplifyPad: its paddings input a Const node of zeros), so that its kernel never runs:
    PadV2's constant_values of shape [3] is no error there, nor a paddings/rank mismatch the graph
    did not see (observed on TF 2.21; fuzz20 sig seed 2620261203 #94). Paddings captured from outside
    the call are a placeholder, not a Const (the kernel runs; observed)."""
    from simdist.runtime import context
    from simdist.runtime.ops import dispatch, graph_constants
    if not enabled or not context.in_function() or any(lo or hi for lo, hi in rows):
        return False
    if not isinstance(paddings, Tensor):
        return True
    rec = dispatch.recorder()
    if rec is not None:
        return rec.is_constant(paddings) and not rec.is_capture(paddings)
    return graph_constants.known(paddings)


# --- constant_folding.cc MaterializeConstantValuedNode: OnesLike of a fully known shape
def _ones_like_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """OnesLike(x) whose shape the graph knows fully (x an argument, a captured tensor or a constant:
    materialized before any folding) -> the Const that ReplaceOperationWithConstant builds, CreateConstantTensorAttrValue
    writing 1 into the TensorProto field of its SET_TENSOR_VAL_CASE: uint32 and uint64 are not
    among its cases' fields, so their constant is all zeros (observed on TF 2.21: OnesLike of a uint64
    argument with input_signature [3] is [0, 0, 0], of a constant too, with [None] ones, eagerly ones;
    fuzz20 sig seed 2620261203 #81). Other dtypes materialize ones, which is what OnesLike computes
    anyway; tf.ones_like builds Fill there, not OnesLike (array.ones_like)."""
    from simdist.runtime.ops import array, dispatch, static_shapes
    (x,) = tensors
    dt = attrs.get("dtype") if attrs else None
    if dt not in (dtypes.uint32, dtypes.uint64):
        return None
    shape = static_shapes.graph_known_shape(x)
    if shape is None or any(d is None for d in shape):
        return None
    return dispatch.execute(array.ZEROS_LIKE, (x,), {"dtype": dt})


# --- arithmetic_optimizer.cc RemoveRedundantReshapeOrBroadcastTo ------------------------------------------
def _reshape_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """A Reshape whose input shape and output shape Grappler's shape inference finds symbolically
    equal (InputMatchesTargetShape) is replaced by its input. The inference runs Reshape's shape
    function (array_ops.cc SetOutputShapeForReshape), which, for an input of one unknown dimension
    (the others known, their product non-zero) and a fully known target of the same rank, MERGES
    the input's unknown dimension with the size it infers (the target's elements over the input's
    known ones): the input's shape then equals the target whenever the other dimensions agree
    position by position, whatever the input holds when the graph runs. So inside a tf.function
    with input_signature [None], `reshape(x, [0])` or `reshape(x, [3])` of a 2-element x returns x
    itself (shape [2]) where eagerly it is InvalidArgumentError; [None, 3] -> [5, 3] likewise;
    [None, None] (two unknown), [3, None] -> [5, 3] (another position) and [None] -> [1, 0] (another
    rank) keep the Reshape and its error (fz32b: fourteenth generator seed 1420323001 #219; measured
    on TF 2.21). The other equal cases (a known input, or the unknown dimension carried to a -1 at
    its own position) reshape to the input's own shape, so only this one changes values. BroadcastTo's
    shape function merges nothing (a [None] input broadcast to [3] keeps its error). Limit: a target
    computed when the graph runs (a function argument) is read as a constant here."""
    from simdist.runtime.ops import array, static_shapes
    (x,) = tensors
    target = tuple(int(d) for d in attrs["shape"])
    shape = static_shapes.graph_known_shape(x)
    if shape is not None and None not in shape and _reshaped(shape, target) == tuple(shape):
        # (a known shape reshaped to itself: the same values, but the consumers read x's node, which names the
        # place it sorts to among an AddN's inputs: `add_n([a, b, reshape(mul, [])])` of a scalar sorts `mul`
        # after `b`; fz53)
        return _forward(x)
    if shape is not None and None not in shape and 0 in shape and len(shape) == len(target) and \
            all(t == -1 or t == d for d, t in zip(shape, target)):
        # (constant_folding.cc IsSimplifiableReshape: a fully known input shape compatible with the constant target,
        # each -1 a wildcard, is forwarded (SimplifyReshape's Identity); only an empty input can differ from the
        # kernel's -1: traced `reshape(x, [0, -1])` of a [0, 0] x is x, [0, 0], where the kernel gives [0, 1];
        # usweep66's OPEN, fix66s, observed on TF 2.21)
        return _forward(x)
    if shape is None or len(shape) != len(target) or -1 in target or shape.count(None) != 1:
        return None
    known_in = 1
    for d in shape:
        known_in *= d if d is not None else 1
    if known_in == 0 or any(d is not None and d != t for d, t in zip(shape, target)):
        return None
    out = array.identity(x)
    if tuple(x._a.shape) != target:   # (the concrete shape, not a value read: `_v` invalidates the recording)
        # (a recording on stand-ins of the unknown dimension (get_concrete_function's dry run, kept as the trace's
        # recording): the Python sees the Reshape's static shape, the target's, as TF's shape function gives it
        # before Grappler rewrites the graph, not the stand-in's: `reshape(x, [2, 3])` of a [2, None] x is [2, 3];
        # fix67t, ssweep64. Where the value has the target's shape x's marks stay: simdist's own code computes such
        # targets from concrete shapes, whose dimensions TF's graph may not know)
        from simdist.runtime.tensor import TensorShape
        return static_shapes.contradict(static_shapes.forget(out), TensorShape(list(target)))
    return out


def _reshaped(shape: list, target: tuple) -> tuple | None:
    """The shape Reshape gives a known `shape` for `target` (its one -1 filled in), None when it does not fit."""
    n = int(np.prod(shape, dtype=np.int64))
    if target.count(-1) > 1:
        return None
    if -1 in target:
        rest = int(np.prod([d for d in target if d != -1], dtype=np.int64))
        if rest == 0 or n % rest:
            return None
        target = tuple(n // rest if d == -1 else d for d in target)
    return target if int(np.prod(target, dtype=np.int64)) == n else None


# --- dependency_optimizer.cc: an Identity read by other ops is removed (SafeToRemoveIdentity) ------------------
def _squeeze_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """constant_folding.cc SimplifySqueeze: a Squeeze whose input's rank is known and every dimension known and
    larger than 1 (a scalar too) squeezes nothing: an Identity, which the dependency optimizer removes, so its
    consumers read the input's node, whose name orders an AddN's inputs (`_by_name`): inside tf.function
    `add_n([squeeze(x), sin(y) * 1000, y * 3.7, x])` of [4, 64] arguments sums x's two terms as its own (fz58,
    fz54b seed 58203 #7, one ulp apart before; observed on TF 2.21)."""
    from simdist.runtime.ops import static_shapes
    (x,) = tensors[:1]
    shape = static_shapes.known_shape(x)
    if shape is None or any(d is None or d <= 1 for d in shape):
        return None
    return _forward(x)


def _identity_rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Identity of a tensor this graph names: the dependency optimizer removes the node, so its consumers read the
    input's node, whose name orders an AddN's inputs (`_by_name`): inside tf.function `add_n([a, b,
    tf.identity(z)])` of arguments sums as a + b + z, and `v.read_value()` sorts as `Read/ReadVariableOp`
    (observed on TF 2.21; fz53). Limit: TF keeps an Identity that is also a function output (a fetch node);
    here the name is forwarded all the same (the outputs are not known while the call records)."""
    from simdist.runtime import symbolic
    (x,) = tensors[:1]
    if symbolic.optimized_name(x) is None:
        return None
    was = rec.rewrites
    rec.rewrites = False   # (the Identity the forward makes is not asked again)
    try:
        return _forward(x)
    finally:
        rec.rewrites = was


# --- constant_folding.cc: a Softmax of a constant is evaluated by Grappler with the CPU kernel ------------
def _softmax_folded(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Softmax of a constant that TF's constant folding makes a Const: Grappler evaluates it with
    the kernel registered for the CPU, Eigen's SoftmaxEigenImpl, not the oneDNN kernel the graph's
    run would place (a row holding NaN or +inf is NaN throughout; bfloat16 rounds each step): inside
    tf.function `softmax(tf.constant(bfloat16 rows))` is [nan, nan, nan, nan] where eagerly only the
    NaN is (fz31b, third generator --ext8 seed 3102 #212; measured on TF 2.21 for float32 and
    bfloat16, an argument of the function runs oneDNN's kernel)."""
    from simdist.runtime.ops import activations, dispatch
    (x,) = tensors
    if (attrs or {}).get("eigen") or x.dtype.name not in ("float32", "bfloat16", "float16") or \
            (_const_value(rec, x) is None and not _materialized(rec, x)):
        return None
    return dispatch.execute(activations.SOFTMAX, (x,), {"eigen": True})   # type: ignore[no-any-return]


def _materialized(rec: Any, t: Tensor) -> bool:
    """Whether constant folding makes t a Const though the recorder does not call it constant: t is computed by pure
    ops from literals and from ZerosLike/OnesLike of a fully known shape, which constant folding materializes
    whatever their input's value (so inside tf.function `softmax(zeros_like(x), axis=0)` of an argument x is folded
    with Eigen's kernel: 1/3 is 0x3eaaaaaa where oneDNN's, eagerly, is 0x3eaaaaab; fz58, fz54b seed 58205 #4,
    observed on TF 2.21)."""
    from simdist.runtime.graph.ir import PURE
    from simdist.runtime.ops import static_shapes
    i = rec.slot_of.get(id(t))
    if i is None:
        return False
    materialized: list[int] = []

    def visit(j: int, n: Any) -> bool | None:
        if n.kind != PURE or n.stateful or n.op is None:
            return False
        if n.op.name not in ("ZerosLike", "OnesLike"):
            return None
        out = rec.tensor_at.get(j)
        shape = static_shapes.known_shape(out) if out is not None else None
        if shape is None or None in shape:
            return False
        materialized.append(j)
        return True
    return _back_to_literals(rec, i, visit) and bool(materialized)


# --- constant_folding.cc SimplifyReduction: a reduction over no axes (or, keeping dims, over dims of size 1) is an
# Identity of its input
def _reduction_identity(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
    """Sum/Prod/Mean/Max/Min whose constant reduction indices are empty (`reduce_sum` of a scalar: math_ops' axis
    range(0, 0); `axis=[]`), or with keep_dims every index naming a dimension of size 1: ReplaceReductionWithIdentity
    makes the node an Identity, which the dependency optimizer removes, so its consumers read the input's node. The
    values are the same as the reduction's (TF's reduction kernels forward such an input too); what changes is the
    name an AddN orders its inputs by (`_by_name`): inside tf.function `add_n([reduce_sum(a), reduce_sum(s),
    reduce_sum(c)])` of a scalar argument s sums as a + c + s, the forwarded `s` sorting after `Sum_2` (fz45_gen seed
    45005 #78 and #37: the loss one ulp apart from the eager sum; observed on TF 2.21)."""
    from simdist.runtime.ops import static_shapes
    (x,) = tensors[:1]
    if not (_is_float(x) or x.dtype.is_complex):
        return None
    # (a rank the graph does not know: math_ops' indices are Range(0, Rank(x)), no constant when the AddN's inputs
    # are sorted; the Sum keeps its own name there, forwarded only in a later pass: `add_n([..., reduce_sum(
    # keras.ops.inner(c, y))])` sorts as `Sum_3` where the inner's cond hides y's rank; fz53, g51b seed 53001 #50)
    shape = static_shapes.graph_known_shape(x)
    if shape is None:
        return None
    ax = (attrs or {}).get("axis")   # (None: every axis, math_ops' constant range(0, rank))
    ax = tuple(range(len(shape))) if ax is None else \
        tuple(int(a) for a in (ax if isinstance(ax, (list, tuple)) else [ax]))
    if ax:
        if not (attrs or {}).get("keepdims") or \
                any(not -len(shape) <= a < len(shape) or shape[a] != 1 for a in ax):
            return None
    return _forward(x, folded=True)   # (constant folding's SimplifyReduction)


# --- arithmetic_optimizer.cc FoldTransposeIntoMatMul (usweep66)
def _fold_transpose(op_name: str) -> Any:
    """MatMul/BatchMatMulV2(a, b) of an operand made by a Transpose of its two inner dimensions (perm [.., r-1, r-2]
    with the outer ones in place) reads the Transpose's input and flips transpose_a/transpose_b (adj_x/adj_y): inside
    a tf.function `matmul(x, matrix_transpose(y), transpose_b=True)` is the plain product x @ y's bits, eagerly the
    transposed operand's kernel path (a last bit apart on 1 x 3 @ 3 x 1 float32; TF 2.21 observed, usweep66). Not for
    complex operands (the stage folds ConjugateTranspose into a complex BatchMatMul, which simdist makes as
    Transpose then Conj), a Transpose of a constant (constant folding made it a Const first), or under a tape (the
    gradient graph is built from the unfolded ops: tensordot's fold, `_tensordot_matmul`, leaves it too)."""
    def rule(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
        from simdist.runtime import execution
        from simdist.runtime.ops import dispatch, linalg
        if execution.current().tapes or any(t.dtype.is_complex for t in tensors):
            return None
        new, flags, folded = list(tensors), dict(attrs or {}), False
        for k, flag in ((0, "transpose_a"), (1, "transpose_b")):
            node = rec.producer(tensors[k])
            if node is None or node.op.name != "Transpose" or rec.is_constant(tensors[k]):
                continue
            perm = [int(p) for p in (node.attrs or {}).get("perm", ())]
            r = len(perm)
            if r < 2 or perm != list(range(r - 2)) + [r - 1, r - 2]:
                continue
            new[k], flags[flag], folded = rec.input_tensor(node, 0), not flags.get(flag, False), True
        if not folded:
            return None
        op = linalg.MATMUL if op_name == "MatMul" else linalg.BATCH_MATMUL
        return dispatch.execute(op, tuple(new), {k: v for k, v in flags.items() if v} or None)
    rule.__name__ = f"_fold_transpose_{op_name}"
    return rule


def _folded_contraction(op_name: str) -> Any:
    """MatMul/BatchMatMulV2 of constants, which TF's constant folding makes a Const: Grappler evaluates the node with
    the kernel registered for the CPU, Eigen's, not the oneDNN kernel the graph's run (and eager code) would take on a
    oneDNN host, as the folded Softmax (`_softmax_folded`): inside tf.function `yuv_to_rgb` of a bfloat16 constant
    (tensordot's MatMul) is Eigen's bfloat16 product, 1.71094 where oneDNN's, eagerly and of an argument, is 1.71875
    (fz67, fz62gen seed 67412 #2; TF 2.21 observed). bfloat16 and float16 (simdist's float32 Eigen product is BLAS's,
    whose order is the CPU's). Otherwise FoldTransposeIntoMatMul (`_fold_transpose`)."""
    fold_transpose = _fold_transpose(op_name)

    def folded_contraction(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
        import dataclasses
        from simdist.runtime import host_cpu
        from simdist.runtime.ops import dispatch, linalg
        dt = tensors[0].dtype.name
        if dt in ("bfloat16", "float16") and host_cpu.current().onednn_supports(dt) and _on("constant_folding") and \
                all(_const_value(rec, t) is not None for t in tensors):
            op = linalg.MATMUL if op_name == "MatMul" else linalg.BATCH_MATMUL
            with host_cpu.using(dataclasses.replace(host_cpu.current(), onednn_opts=False)):
                return dispatch.execute(op, tuple(tensors), attrs)   # type: ignore[no-any-return]
        if all(rec.is_constant(t) and not rec.is_capture(t) for t in tensors):
            return None   # (folded as it is: `_folded_first`)
        return fold_transpose(rec, tensors, attrs) if _on("arithmetic_optimization") else None
    folded_contraction.__name__ = f"folded_contraction_{op_name}"
    return folded_contraction


def _rules() -> dict[Any, Any]:
    from simdist.runtime.ops import activations, array, linalg, math, pool_graph_kernels as pk, pooling, pooling3d, \
        reductions, unary, xfunctions
    ao, cf = "arithmetic_optimization", "constant_folding"
    folded = {pooling.AVG_POOL_GRAD: _owned(cf, pk.folded_avg_rule(pk.FOLDED_AVG_POOL_GRAD)),
              pooling3d.AVG_POOL3D_GRAD: _owned(cf, pk.folded_avg_rule(pk.FOLDED_AVG_POOL3D_GRAD)),
              pooling3d.MAX_POOL3D_GRAD: pk.onednn_max_pool3d_rule}   # (clause function.pool-graph-kernels)
    return folded | {array.PACK: _owned(ao, _pack_rule), math.MAX: _owned(cf, _reduction_identity),
            math.MIN: _owned(cf, _reduction_identity),
            math.SUM: _owned(cf, _reduction_identity), math.MEAN: _owned(cf, _reduction_identity),
            reductions.PROD: _owned(cf, _reduction_identity),
            math.REALDIV: _div_rule, xfunctions.XDIVY: _xdivy_rule, xfunctions.MUL_NO_NAN: _owned(cf, _mul_no_nan_rule), math.POW: _owned(ao, _pow_rule), unary.LOG: _owned(ao, _log_rule),
            math.SUB: _sub_rule, math.ADD: _add_rule, unary.RECIPROCAL: _owned(ao, _reciprocal_rule),
            math.ADD_N: _add_n_rules, math.MUL: _mul_rules,
            math.SQUARED_DIFFERENCE: _owned(ao, _squared_difference_rule), array.ONES_LIKE: _owned(cf, _ones_like_rule),
            array.RESHAPE: _owned(ao, _reshape_rule), array.SQUEEZE: _owned(cf, _squeeze_rule),
            array.IDENTITY: _owned("dependency_optimization", _identity_rule),
            activations.SOFTMAX: _owned(cf, _softmax_folded), unary.NEG: _owned(ao, _involution("Neg")),
            math.LOGICAL_NOT: _owned(ao, _involution("LogicalNot")),
            linalg.MATMUL: _folded_contraction("MatMul"),
            linalg.BATCH_MATMUL: _folded_contraction("BatchMatMulV2")}


def install() -> None:
    """Attach the rules to their ops (called once, when the op modules are loaded), unless
    SIMDIST_GRAPPLER=0."""
    set_enabled(enabled)


def _folding_fails(rule: Any, tensors: Any) -> bool:
    """Constant folding leaves an op whose kernel fails on its constants for the later stages:
    Pow of integers with a negative power (its kernel's "Integers to negative integer powers are not
    allowed") still meets ConvertPowStage."""
    if getattr(rule, "inner", rule) is not _pow_rule:
        return False
    from simdist.runtime.ops import dispatch
    x, y = tensors
    return not _is_float(x) and x.dtype.is_integer and bool(np.any(np.asarray(dispatch.raw(y)) < 0))


_add_n_rules.inner = _add_n_rule   # type: ignore[attr-defined]   (for _folded_first's all-constant case)


def _folded_first(rule: Any) -> Any:
    """The rule, except where every input is constant: TF's constant folding evaluates such an
    op as it is (its kernel) before the rewrites look at it (the Pack rule judges for itself). A
    tensor captured from outside the call is a placeholder of TF's graph, not a constant: an op of
    one runs rewritten (`x / tf.constant(3.0)` of a captured x is x * (1 / 3), as of an argument)."""
    def guarded(rec: Any, tensors: Any, attrs: Any) -> Tensor | None:
        if getattr(rule, "inner", rule) not in (_pack_rule, _ones_like_rule, _softmax_folded) and \
                not getattr(getattr(rule, "inner", rule), "__name__", "").startswith("folded_") and \
                all(rec.is_constant(t) and not rec.is_capture(t) for t in tensors) and not _folding_fails(rule, tensors):
            if getattr(rule, "inner", rule) is _add_n_rule and _on("common_subgraph_elimination"):
                with np.errstate(all="ignore"):   # (CSE's canonical order first: `_canonical_add_n`)
                    return _canonical_add_n(rec, tensors)
            return None
        with np.errstate(all="ignore"):   # (as the ops' own eager paths: inf * 0 is NaN, quietly)
            return rule(rec, tensors, attrs)
    guarded.__name__ = rule.__name__
    guarded.__doc__ = rule.__doc__
    return guarded


def set_enabled(flag: bool) -> bool:
    """Attach (True) or detach (False) every rule; returns the previous setting."""
    global enabled
    old, enabled = enabled, bool(flag)
    for op, rule in _rules().items():
        op.graph_rule = _folded_first(rule) if enabled else None
    return old
