"""The shared check of ``test_harden20b_trained_*.py``: run every case of a kind's grids (under
``--profile ci`` the first case of each class) and compare with the TF 2.21 recording."""

from __future__ import annotations

from typing import Any, Callable

from simdist.conformance.assertions import assert_true
from simdist.conformance.suite import harden20b_programs as programs
from simdist.conformance.suite import harden20b_reference as reference
from simdist.conformance.suite import harden20b_tables as tables

_CASES = {"optimizers": tables.optimizer_cases, "layers": tables.layer_cases, "metrics": tables.metric_cases,
          "losses": tables.loss_cases}
_NAMES = {"optimizers": tables.OPTIMIZERS, "layers": tables.LAYERS, "metrics": tables.METRICS, "losses": tables.LOSSES}


def check(kind: str, names: list[str], run: Callable[[str, dict[str, Any]], Any], budget: Any) -> None:
    """Every case of the classes `names` of `kind` observed by `run(name, case)` as TF's."""
    recorded = reference.load()[kind]
    problems: list[str] = []
    count = 0
    for name in names:
        cases = tables.all_cases()[kind][name]
        for i in range(len(budget(cases))):
            case = cases[i]
            count += 1
            call = f"tf.keras.{kind}.{name}({programs.case_label(case)}) [case {i}]"
            try:
                got = run(name, case)
            except Exception as e:  # noqa: BLE001 - reported with the call, as a failure
                problems.append(f"{call}: raised {type(e).__name__}: {str(e)[:200]}")
                continue
            problems += [f"{call}: {d}" for d in reference.differences(got, recorded[name][i])[:3]]
    assert_true(count > 0, f"no cases of {kind} {names}", call="harden20b_tables")
    assert_true(not problems, f"{len(problems)} differences from TF 2.21 over {count} cases (got, but should "
                f"be):\n  " + "\n  ".join(problems[:25]),
                call=f"{tables.STEPS} trained steps of the pairwise option grids of {kind} {', '.join(names)}")


def names_of(kind: str) -> list[str]:
    return list(_NAMES[kind])
