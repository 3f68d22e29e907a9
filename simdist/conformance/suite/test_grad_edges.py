"""Gradient edges (issue 29): every elementwise op of TF 2.21's gradient registry, at the edge values —
clause autodiff.op-gradients (TF 2.21's math_grad.py, nn_grad.py, array_grad.py, clip_ops.py and the
*Grad kernels).

Each op of grad_edges_cases, through tf.raw_ops, on a grid of signed zeros, kinks and thresholds, halves, huge
values, infinities and NaN crossed over its inputs, in float32 and float64: the forward value, the gradient of
every input under a finite upstream gradient with zeros in it and under a non-finite one (or the class of the
error raised) must be TF 2.21's as recorded (grad_edges_reference: NaN and infinities exactly, finite values
within 2e-5 / 1e-9 relative). A gradient rule taken at the wrong side of an edge, a guard that multiplies where
TF selects, a bound that gets no gradient, a check that is skipped: each changes one of these values. The
reductions, scans and segment reductions of grad_edges_axes run the same way on edge rows (a product with one
zero or two, a tied maximum, NaN and infinities among finite values, signed zeros), along each axis they take.
"""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import grad_edges_axes as axes
from simdist.conformance.suite import grad_edges_cases as cases
from simdist.conformance.suite import grad_edges_reference as reference
from simdist.conformance.suite.host_model import backend_cpu

clause = pytest.mark.clause


def test_grad_edges_recording_is_current() -> None:
    """The recording was made from this table (its op list, edge values and upstream gradients)."""
    meta = reference.load()["meta"]
    assert_true(meta["tables"] == reference.tables_hash(),
                f"grad_edges_reference.json.gz was recorded from another table (tables {meta['tables'][:12]}, but "
                f"should be {reference.tables_hash()[:12]}): re-record it with `{reference.RECORD_COMMAND}`",
                call="grad_edges recording")


_CASES = [(op, dt) for op in cases.OPS for dt in op.dtypes]
#: (op, dtype) whose TF 2.21 values depend on whether the CPU runs the dtype through oneDNN (clause ops.host-cpu:
#: oneDNN's softmax against Eigen's, which gives NaN for a row holding inf; the recording host's answer is in its meta):
#: compared only on a CPU (or a simdist CPU model) that matches the recording host in that respect.
HOST_DEPENDENT = {("Softmax", "float16"), ("Softmax", "float32"), ("Softmax", "bfloat16")}
#: where the recording predates its meta's `host_onednn` (2026-12-02, an AMD EPYC with AVX-512: oneDNN on, so
#: float32 and bfloat16 ran through oneDNN's softmax, float16 through Eigen's; simdist's CPU model of that host
#: matched the recording on it, and an AVX2-only host's TF 2.21 gives NaN for a row holding inf where it has 0)
_LEGACY_ONEDNN = {"float32": True, "bfloat16": True}


def _recorded_onednn(meta: dict, dtype: str) -> bool:
    """Whether the recording host ran `dtype` through oneDNN."""
    if "host_onednn" in meta:
        return bool(meta["host_onednn"][dtype])
    return meta["host_float16_onednn"] if dtype == "float16" else _LEGACY_ONEDNN[dtype]


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("op,dtype", _CASES, ids=[f"{cases.op_id(op)}-{dt}" for op, dt in _CASES])
def test_op_at_its_edges(tf, op: cases.Op, dtype: str) -> None:
    """The op's value and gradients on its edge grid in one dtype, as TF 2.21's."""
    data = reference.load()
    if (op.name, dtype) in HOST_DEPENDENT:
        recorded_host = _recorded_onednn(data["meta"], dtype)
        if backend_cpu(tf).onednn_supports(dtype) != recorded_host:
            pytest.skip(f"{op.name} {dtype} depends on the CPU (ops.host-cpu): recorded where {dtype} "
                        f"{'runs' if recorded_host else 'does not run'} through oneDNN, and here it "
                        f"{'does not' if recorded_host else 'does'}")
    recorded = data["ops"][cases.op_id(op)][dtype]
    found = [f"{dtype}{d}" for d in reference.differences(cases.observe(tf, op, dtype), recorded, op, dtype)]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be) "
                f"[tf.raw_ops.{cases.op_id(op)}]:\n  " + "\n  ".join(found[:20]), call=f"raw_ops.{op.name} edges")


@clause("autodiff.op-gradients", ref="tf221")
@pytest.mark.parametrize("op", axes.OPS, ids=axes.op_id)
def test_reduction_at_its_edge_rows(tf, op: axes.AxisOp) -> None:
    """A reduction, scan or segment reduction on rows with zeros, ties, NaN, infinities and signed zeros, in
    float32 and float64: its value and the data's gradient as TF 2.21's (products with one zero or two, a
    shared maximum, keep_dims, exclusive and reverse scans, empty segments and dropped ids)."""
    recorded = reference.load()["axes"][axes.op_id(op)]
    found: list[str] = []
    for dt in axes.DTYPES:
        got = axes.observe(tf, op, dt)
        found += [f"{dt}{d}" for d in reference.differences(got, recorded[dt], op, dt, locate=lambda i: axes.where(op, i))]
    assert_true(not found, f"{len(found)} differences from TF 2.21 (got, but should be) "
                f"[tf.raw_ops.{axes.op_id(op)}]:\n  " + "\n  ".join(found[:20]), call=f"raw_ops.{op.name} edge rows")
