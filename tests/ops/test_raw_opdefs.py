"""The raw-op namespace's own consistency (clause ops.raw-ops): the recorded signatures are
current with the installed TF, each default binding takes the tensors and attrs the op's public
function gives the op, unimplemented raw ops are absent, and `import simdist` does not load them."""

from __future__ import annotations

import collections
import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tf_workers

ROOT = Path(__file__).resolve().parents[2]
clause = pytest.mark.clause


@pytest.mark.tf
@pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs real TensorFlow 2.21")
@clause("ops.raw-ops")
def test_recorded_signatures_are_current() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_raw_opdefs.py"), "--check"],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, f"raw_opdefs.json is not what TF gives: {r.stderr[-500:]}"


def _public_calls() -> dict[str, set[tuple[int, tuple[str, ...]]]]:
    """Each op's (number of tensors, attr names) as the spec matrix's public functions execute it."""
    from simdist import tf
    from simdist.runtime.ops import dispatch
    seen: dict[str, set[tuple[int, tuple[str, ...]]]] = collections.defaultdict(set)
    original = dispatch.run

    def run(op: Any, tensors: Any, arrays: Any, dt: Any, attrs: Any = None) -> Any:
        seen[op.name].add((len(tensors), tuple(sorted(attrs or ()))))
        return original(op, tensors, arrays, dt, attrs)

    dispatch.run = run
    try:
        for p in sorted(Path(__file__).parent.glob("specs_*.py")):
            for spec in getattr(importlib.import_module(p.stem), "SPECS", []):
                rng = np.random.default_rng(0)
                try:
                    args = [tf.constant(x) for x in spec.make(rng, spec.dtypes[0] if spec.dtypes else np.float32)]
                    with tf.GradientTape(persistent=True) as tape:
                        for i in spec.diff:
                            if i < len(args) and args[i].dtype.is_floating:
                                tape.watch(args[i])
                        out = spec.fn(tf, *args)
                    if spec.grad and spec.diff:
                        tape.gradient(out, [args[i] for i in spec.diff if i < len(args)])
                except Exception:  # noqa: BLE001, S112 - a spec that raises (its error cases) still noted its ops
                    continue
    finally:
        dispatch.run = original
    return seen


@clause("ops.raw-ops")
def test_default_bindings_take_what_the_public_functions_give() -> None:
    """A raw op bound by default (no `via`) gives its op as many tensors as the public function
    does (list inputs aside) and only attrs the public function gives it: an OpDef input that
    simdist holds as an attr (Sum's axes) would otherwise reach the forward as a tensor."""
    from simdist.runtime.ops import raw_ops
    from simdist.runtime.ops.raw_args import NO_EFFECT
    data = raw_ops.opdefs()["ops"]
    wrong = []
    for name, calls in sorted(_public_calls().items()):
        if name not in raw_ops.bound_names():
            continue
        b = raw_ops.binding(name)
        if b.via is not None:
            continue
        ins = [a for a in data[name]["args"] if "input" in a]
        order = b.inputs if b.inputs is not None else [a["input"] for a in ins]
        listed = any("number_attr" in a or "type_list_attr" in a for a in ins if a["input"] in order)
        keys = set(b.attrs) if b.attrs is not None else {
            a["attr"] for a in data[name]["args"] if "attr" in a and a["attr"] not in NO_EFFECT | set(raw_ops.LAYOUT)}
        for n, attrs in sorted(calls):
            if (not listed and n != len(order)) or not set(attrs) <= keys:
                wrong.append(f"{name}: the public function gives {n} tensors and attrs {list(attrs)}, the raw "
                             f"binding {len(order)} tensors and attrs {sorted(keys)}")
                break
    assert not wrong, "raw bindings that differ from the public calls:\n" + "\n".join(wrong)


@clause("ops.raw-ops")
def test_unimplemented_raw_ops_are_absent() -> None:
    from simdist import tf
    from simdist.runtime.ops import raw_ops
    names = raw_ops.opdefs()["names"]
    assert raw_ops.opdefs()["count"] == len(names) == 1462, f"{len(names)} raw ops recorded, but TF 2.21 has 1462"
    missing = next(n for n in names if n not in raw_ops.bound_names())
    with pytest.raises(AttributeError, match=f"simdist does not implement the raw op {missing}"):
        getattr(tf.raw_ops, missing)
    assert not hasattr(tf.raw_ops, "NoSuchOp"), "tf.raw_ops.NoSuchOp exists, but should be AttributeError"
    assert set(raw_ops.bound_names()) <= set(dir(tf.raw_ops)), "dir(tf.raw_ops) lacks raw ops simdist implements"


@clause("ops.raw-ops")
def test_import_simdist_does_not_load_raw_ops() -> None:
    code = ("import sys, simdist\nfrom simdist import tf\n"
            "print('simdist.runtime.ops.raw_ops' in sys.modules, 'simdist.runtime.ops.raw_forms' in sys.modules)")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, cwd="/")
    assert r.stdout.split() == ["False", "False"], f"import simdist loaded the raw-op machinery: {r.stdout} {r.stderr[-300:]}"


@clause("ops.raw-ops")
def test_bound_names_do_not_depend_on_what_was_imported_first() -> None:
    """`raw_ops.bound_names()` asked before `from simdist import tf` (a tool, a test) gave the ops of
    the modules imported so far (200 of 399) and kept that answer for the process."""
    code = ("from simdist.runtime.ops import raw_ops\n"
            "early = raw_ops.bound_names(); early_unbound = sorted(raw_ops.unbound())\n"
            "from simdist import tf\n"
            "raw_ops.bound_names.cache_clear()\n"
            "print(len(early), len(raw_ops.bound_names()), early == raw_ops.bound_names(),\n"
            "      early_unbound == sorted(raw_ops.unbound()))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300, cwd="/")
    got = r.stdout.split()
    assert got[2:] == ["True", "True"], (
        f"bound_names() before `from simdist import tf` had {got[:1]} ops, after {got[1:2]}; both should be the "
        f"same list (and unbound() too): {r.stdout} {r.stderr[-300:]}")
