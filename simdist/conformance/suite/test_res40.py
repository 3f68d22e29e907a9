"""Resource handles and the raw ops over them (issue 29, res40_cases): a variable's handle, ReadVariableOp,
AssignAddVariableOp, ResourceScatterUpdate, ResourceGather, VariableShape and VarHandleOp (clause
ops.resource-handles), and the training kernels ResourceApplyGradientDescent, ResourceApplyMomentum,
ResourceApplyAdagradV2, ResourceApplyRMSProp and ResourceApplyAdam (clause ops.training-kernels) on fixed inputs and
with a refused input. Expected: TF 2.21's recorded answers (res40_reference): values within 1e-5 relative plus 1e-6
of the largest magnitude, shapes, dtypes, Python values and error classes exactly.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden19_reference
from simdist.conformance.suite import res40_cases as cases
from simdist.conformance.suite import res40_reference as reference

clause = pytest.mark.clause


def test_res40_recording_is_current() -> None:
    """The recording was made from these programs."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"res40_reference.json.gz was made by other programs (tables {meta['tables'][:12]}, but should "
                f"be {reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="res40 recording")


def _check(tf, clause_id: str) -> None:
    want = reference.load()["observed"]
    found = []
    for name, cid, _ in cases.CASES:
        if cid == clause_id:
            found += [f"{name}: {d}" for d in harden19_reference.differences(cases.observe(tf, name), want[name])]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be):\n  " + "\n  ".join(found[:12]),
                call=clause_id)


@clause("ops.resource-handles", ref="tf221")
def test_resource_handles_and_variable_ops(tf) -> None:
    """v.handle is a resource scalar TF's NumPy conversion refuses; the resource-variable raw ops read and write the
    variable it names, and a VarHandleOp's, as TF 2.21's."""
    _check(tf, "ops.resource-handles")


@clause("ops.training-kernels", ref="tf221")
def test_dense_training_kernels(tf) -> None:
    """ResourceApplyGradientDescent, Momentum (Nesterov), AdagradV2, RMSProp and Adam update their variables as TF
    2.21's CPU kernels; a gradient of another shape refused as TF refuses it."""
    _check(tf, "ops.training-kernels")
