"""Record what ``test_grad_edges.py`` expects, on real TF 2.21 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.grad_edges_record [--out PATH] [--list]

Every op of grad_edges_cases in each of its dtypes: TF's forward value and gradients on the edge grid, or the
class of the error it raised; every op of grad_edges_axes the same on its edge rows. ``--list`` prints instead the ops of TF's gradient registry whose inputs and output
all share the type attr T and that take float32 (the table's source; the ops left out, and why, are named in
grad_edges_cases). Writes :data:`grad_edges_reference.PATH` (gzip'd JSON, the same bytes for the same data).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from simdist.conformance.suite import grad_edges_axes as axes
from simdist.conformance.suite import grad_edges_cases as cases
from simdist.conformance.suite import grad_edges_reference as reference


def record(tf: Any) -> dict[str, Any]:
    """Every op's observation per dtype, on the given (real) tf module."""
    return {cases.op_id(op): {dt: cases.observe(tf, op, dt) for dt in op.dtypes} for op in cases.OPS}


def record_axes(tf: Any) -> dict[str, Any]:
    """Every reduction, scan and segment op's observation per dtype, on the given (real) tf module."""
    return {axes.op_id(op): {dt: axes.observe(tf, op, dt) for dt in axes.DTYPES} for op in axes.OPS}


def registry_ops() -> list[str]:
    """TF's differentiable ops whose inputs and output share T and that take float32 (needs TensorFlow)."""
    from tensorflow.python.framework import op_def_registry, ops  # noqa: PLC0415

    out = []
    for name in sorted(ops._gradient_registry._registry):
        od = op_def_registry.get(name)
        if od is None or ops._gradient_registry._registry[name]["type"] is None:
            continue
        ins, outs = list(od.input_arg), list(od.output_arg)
        if len(outs) != 1 or not 1 <= len(ins) <= 3 or outs[0].type_attr != "T" or \
                any(a.type_attr != "T" or a.number_attr for a in ins):
            continue
        t = [a for a in od.attr if a.name == "T"][0]
        if 1 in t.allowed_values.list.type:   # DT_FLOAT
            out.append(name)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    tf = backend.tf
    if args.list:
        print("\n".join(registry_ops()))
        return 0
    from simdist.runtime import host_cpu  # noqa: PLC0415

    data = {"meta": {"tensorflow": tf.__version__, "tables": reference.tables_hash(),
                     "host_float16_onednn": host_cpu.detect().onednn_supports("float16"),
                     "host_onednn": {dt: host_cpu.detect().onednn_supports(dt)
                                     for dt in ("float32", "bfloat16", "float16")}}, "ops": record(tf),
            "axes": record_axes(tf)}
    reference.save(data, args.out)
    print(f"wrote {args.out}: {len(data['ops'])} ops", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
