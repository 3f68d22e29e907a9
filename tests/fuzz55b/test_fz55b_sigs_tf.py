"""The signatures of the public functions of fz55b's families (tests/fuzz55b/fz55b_sigs.py: tf.signal, image,
strings, sparse, ragged, bitwise, sets, experimental.numpy, random, nn, math, linalg, dtypes, debugging, io; 742 on
TF 2.21) on simdist's facade against TF 2.21's: every function TF has exists, with TF's parameter names, order,
kinds and defaults (a default's repr without addresses). fz55b found 8 missing and 15 differing (extra parameters
simdist accepted: tf.cast's truncate, diag/diag_part's raw, matmul's _batched, sparse.add's name; defaults:
the depthwise backprops' dilations, batch_norm_with_global_normalization's, lrn's 1 vs 1.0); fz56b made them TF's.
"""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import fz55b_sigs as S
import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf: Any, case: dict, workdir: str) -> Any:
    """{family: {name: [[param, kind, default repr]] | "other" | "nosig"}} of every public name the backend has."""
    out: dict = {}
    for fam in S.FAMILIES:
        try:
            mod = S._get(tf, fam)
        except AttributeError:
            out[fam] = None
            continue
        ent: dict = {}
        for n in sorted(x for x in dir(mod) if not x.startswith("_")):
            try:
                obj = getattr(mod, n)
            except AttributeError:
                continue
            if inspect.ismodule(obj) or inspect.isclass(obj) or not callable(obj):
                ent[n] = "other"
                continue
            try:
                ent[n] = [[p.name, str(p.kind), S.normal(repr(p.default)) if p.default is not p.empty else None]
                          for p in inspect.signature(obj).parameters.values()]
            except (TypeError, ValueError):
                ent[n] = "nosig"
        out[fam] = ent
    return out


CASES: dict[str, dict] = {"signatures": {"strategy": "default", "name": "signatures"}}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", [0], ids=list(CASES))
def test_public_signatures_are_tfs(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    want = tf_results[index]
    got = tf_programs.on_simdist(program, CASES["signatures"], str(tmp_path))
    missing, differ, n = [], [], 0
    for fam, ent in want.items():
        if ent is None:
            continue
        have = got.get(fam) or {}
        for name, sig in ent.items():
            if sig == "other":
                continue
            n += 1
            mine = have.get(name)
            if mine is None:
                missing.append(f"tf.{fam}.{name}")
            elif isinstance(sig, list) and mine != sig:
                differ.append(f"tf.{fam}.{name}: TF 2.21 {sig}, simdist {mine}")
    assert n > 700, f"only {n} functions compared"
    assert not missing and not differ, (f"{len(missing)} of {n} functions missing: {missing}; {len(differ)} "
                                        "signatures differ:\n" + "\n".join(differ))


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
