"""The rules every registered op carries on its OpDef (registry.py): its kind, how it runs over
stacked replica lanes or why not, whether the uniform rewrite may compute it on one element,
and its cost. A new op without a fusion rule or a stated reason fails here."""

from __future__ import annotations

import numpy as np
import pytest

import simdist.tf  # noqa: F401  (registers every op)
from simdist.runtime.ops import registry
from simdist.runtime.ops.registry import KINDS, OpDef, Stacking

OPS = registry.registered_ops()
# The stacked forms simdist.runtime.lanes.forms implements, and "lanes" (run lane by lane).
FORMS = {"broadcast", "same-shapes", "last-axis", "reshape", "permute", "axis", "matmul", "batch-matmul", "rows",
         "conv-backprop-input", "shape", "lanes"}


def missing_rules(ops: list[OpDef]) -> list[str]:
    """What each op lacks: a kind of KINDS, a Stacking of a known form, a reason to run lane by lane."""
    out = []
    for op in ops:
        if op.kind not in KINDS:
            out.append(f"{op.name}: kind {op.kind!r} is not one of {KINDS}")
        f = op.fusion
        if not isinstance(f, Stacking):
            out.append(f"{op.name}: no fusion rule (declare fusion=<a Stacking> or fusion=lanes(<reason>))")
        elif f.form not in FORMS:
            out.append(f"{op.name}: fusion form {f.form!r} is not one lanes/forms.py implements")
        elif f.form == "lanes" and not f.reason.strip():
            out.append(f"{op.name}: runs lane by lane with no stated reason")
        elif f.form == "rows" and not f.rows:
            out.append(f"{op.name}: the rows form names no row inputs")
        if op.exact and op.kind != "elementwise":
            out.append(f"{op.name}: exact but not elementwise")
    return out


def test_every_registered_op_declares_its_rules() -> None:
    missing = missing_rules(OPS)
    assert not missing, "ops without their rules on the OpDef:\n" + "\n".join(missing)


def test_an_op_declared_without_a_fusion_rule_is_caught() -> None:
    """A shape op has no default stacking: declaring one without fusion= fails the coverage test."""
    op = OpDef("MadeUpGather", lambda a: a, lambda dts, attrs: dts[0], kind="gather/scatter")
    assert op.fusion is None
    assert missing_rules([op]) == ["MadeUpGather: no fusion rule (declare fusion=<a Stacking> or "
                                   "fusion=lanes(<reason>))"]


def test_a_unary_declaration_gets_every_rule() -> None:
    """Declared elementwise (registry.unary's kind), an op stacks over lanes by broadcasting,
    is not exact unless it says so, costs one FLOP per element and its operands' bytes."""
    op = OpDef("MadeUpSin", np.sin, lambda dts, attrs: dts[0], kind="elementwise")
    assert op.fusion is registry.BROADCAST and not op.exact and op.sums is None
    x = np.arange(6, dtype=np.float32)
    assert op.cost([x], np.sin(x), None) == (6, 24, 24)
    assert missing_rules([op]) == []


def test_lane_by_lane_needs_a_reason() -> None:
    with pytest.raises(ValueError, match="stated reason"):
        registry.lanes("")


def test_unknown_kind_and_exact_non_elementwise_are_refused() -> None:
    with pytest.raises(ValueError, match="kind 'blend'"):
        OpDef("X", np.sin, lambda dts, attrs: dts[0], kind="blend")
    with pytest.raises(ValueError, match="only an elementwise op"):
        OpDef("X", np.sum, lambda dts, attrs: dts[0], kind="reduction", exact=True)


@pytest.mark.parametrize("op", [op for op in OPS if op.exact], ids=lambda op: op.name)
@pytest.mark.parametrize("dt", [np.float16, np.float32, np.float64])
def test_exact_ops_give_each_element_computed_alone(op: OpDef, dt: type) -> None:
    """The uniform rewrite computes an exact op on one element of each operand: that must be
    bit for bit what the whole-array computation gives every element (NumPy's vector loops
    included), here on values with NaN, infinities, signed zeros and subnormals."""
    rng = np.random.default_rng(7)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, np.finfo(dt).tiny / 4, 1.0, -3.5], dtype=dt)
    a = np.concatenate([special, rng.standard_normal(4096).astype(dt) * dt(100)])
    b = np.concatenate([special[::-1], rng.standard_normal(4096).astype(dt)])
    with np.errstate(all="ignore"):
        whole = np.asarray(op.forward(a, b))
        alone = np.array([np.asarray(op.forward(a[i:i + 1].reshape(()), b[i:i + 1].reshape(()))) for i in range(a.size)])
    assert whole.dtype == alone.dtype, f"{op.name}: {whole.dtype} as arrays, {alone.dtype} per element"
    differ = np.flatnonzero(whole.view(f"u{whole.itemsize}") != alone.view(f"u{alone.itemsize}"))
    assert differ.size == 0, (f"{op.name} is declared exact but element {differ[0]}: {a[differ[0]]!r} op "
                              f"{b[differ[0]]!r} is {whole[differ[0]]!r} in the array, {alone[differ[0]]!r} alone")


def test_default_cost_counts_operand_and_result_bytes() -> None:
    add = registry.get("AddV2")
    a = np.ones((4, 8), np.float32)
    b = np.ones((8,), np.float32)
    assert add.cost([a, b], a + b, None) == (32, 128 + 32, 128)
    shape = registry.get("Shape")
    from simdist.runtime import dtypes
    assert shape.cost([a], np.array([4, 8], np.int32), {"dtype": dtypes.int32})[1:] == (0, 8), \
        "Shape reads only its input's metadata: 0 bytes read, its 2 int32 written"
