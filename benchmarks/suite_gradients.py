"""Which registered gradients does the conformance suite never run, and in which forms?

    python benchmarks/suite_gradients.py [-k EXPR] [--profile default|ci|thorough] [--json out.json]
                                         [--list missing|forms|all|none] [-- pytest args]

Runs the conformance suite against simdist (in this process, through pytest) with a recording
hook on `registry.gradient_function`, the one place a tape walk (runtime/autodiff/tape.py) and a
graph gradient walk (graph_gradients.py) look an op's gradient up: every gradient function the
walks then call is recorded with the op call it differentiates. Gradient functions that call
each other directly are not counted; only the walks' calls are.

The universe: every op type in `registry.registered_ops()` with a gradient function (not
`NotDifferentiable`), split into the differentiable ones and those whose registered gradient is
TF's LookupError (`counting.no_tf_gradient`, fft's `_none`): for those, reaching it at all is the
check (the walk raises what TF raises).

For each differentiated op the forms its calls took (docs/conformance.md, "Gradient coverage"):

- `upstream`: some call got a non-uniform upstream gradient (not all elements equal; a
  `reduce_sum` loss gives ones, which hides a transposed or permuted rule; for a scalar output,
  an upstream gradient other than 0 and 1);
- `negative`: some floating input held a negative element (a complex one: a negative real or
  imaginary part);
- `broadcast`: (elementwise ops of two or more inputs, not a `*Grad` kernel, which takes equal
  shapes) some input's shape differed from the output's (a scalar counts);
- `float64`: some call ran in float64 (the dtype of central differences);
- each option attribute (a bool or string: transpose_a, adjoint, keepdims, exclusive, padding,
  align_corners, ...) with the set of values the calls gave it: one value only is listed as
  "attr never varied" (the JSON report keeps every attribute's values, shapes and axes too).

Which suite module ran each gradient is kept in the JSON report. The hook calls the gradient
functions unchanged: the suite's results are the same with or without it. The report is sorted.

Exit status: 0 (a report), 2 when the suite itself failed (the report is printed and marked).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: the qualified names of gradient functions that raise TF's LookupError (no gradient in TF 2.21)
_LOOKUP_GRADS = ("no_tf_gradient.<locals>.grad", "_none.<locals>.grad_fn")
FORMS = ("upstream", "negative", "broadcast", "float64")


def universe() -> tuple[list[str], list[str]]:
    """(differentiable op types, op types whose registered gradient is TF's LookupError), sorted."""
    import simdist.tf  # noqa: F401 - registers every op
    from simdist.runtime.ops import registry
    diff, lookup = [], []
    for op in registry.registered_ops():
        g = op.grad
        if g is None or g is registry.NO_GRADIENT:
            continue
        (lookup if getattr(g, "__qualname__", "") in _LOOKUP_GRADS else diff).append(op.name)
    return sorted(diff), sorted(lookup)


def _attr_key(v: Any) -> str:
    """A short, stable text of an attribute value (arrays and tensors by their values)."""
    if hasattr(v, "numpy") and callable(v.numpy):
        try:
            v = v.numpy()
        except Exception:  # noqa: BLE001 - a symbolic tensor: its repr
            return type(v).__name__
    if isinstance(v, np.ndarray):
        return f"array{v.tolist()!r}" if v.size <= 16 else f"array{v.shape}"
    if isinstance(v, (list, tuple)) and len(v) > 16:
        return f"{type(v).__name__}[{len(v)}]"
    text = repr(v)
    return text if len(text) <= 60 else text[:57] + "..."


def _array(t: Any) -> np.ndarray | None:
    """t's value as an array, or None (a symbolic tensor, IndexedSlices, None)."""
    if t is None:
        return None
    try:
        return np.asarray(t.numpy()) if hasattr(t, "numpy") else None
    except Exception:  # noqa: BLE001 - graph tensors have no value
        return None


class Recorder:
    """The gradient calls the walks made: op type -> forms, attribute values, modules."""

    def __init__(self) -> None:
        self.calls: dict[str, int] = defaultdict(int)
        self.forms: dict[str, set[str]] = defaultdict(set)
        self.attrs: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        self.modules: dict[str, set[str]] = defaultdict(set)
        self.arity: dict[str, int] = defaultdict(int)
        self.lookup_raised: set[str] = set()
        self.module = "?"
        self._old: Any = None

    def record(self, opdef: Any, call: Any, grads: tuple) -> None:
        name = opdef.name
        self.calls[name] += 1
        self.modules[name].add(self.module)
        f = self.forms[name]
        outs = [_array(o) for o in call.outputs]
        self.arity[name] = max(self.arity[name], len(call.inputs))
        for g in grads:
            a = _array(g)
            if a is None or a.size == 0:
                continue
            first = a.reshape(-1)[0]
            if (a.size > 1 and not np.all(a == first)) or (a.size == 1 and first != 0 and first != 1):
                f.add("upstream")
        for t in call.inputs:
            a = _array(t)
            if a is None or a.dtype.kind not in "fc":
                continue
            if a.dtype == np.float64 or a.dtype == np.complex128:
                f.add("float64")
            if a.size and bool(np.any((a.real if a.dtype.kind == "c" else a) < 0)
                               or (a.dtype.kind == "c" and np.any(a.imag < 0))):
                f.add("negative")
        if opdef.kind == "elementwise" and len(call.inputs) > 1 and outs and outs[0] is not None:
            shape = outs[0].shape
            if any(getattr(t, "shape", None) is not None and tuple(t.shape) != shape for t in call.inputs):
                f.add("broadcast")
        for k, v in sorted(call.attrs.items()):
            self.attrs[name][k].add(_attr_key(v))

    def install(self) -> None:
        from simdist.runtime.ops import registry
        old = registry.gradient_function
        self._old = old
        rec = self

        def gradient_function(op: Any) -> Any:
            fn = old(op)
            if fn is registry.NO_GRADIENT:
                return fn

            def recorded(call: Any, *grads: Any) -> Any:
                rec.record(op, call, grads)
                try:
                    return fn(call, *grads)
                except LookupError:
                    rec.lookup_raised.add(op.name)
                    raise
            return recorded
        registry.gradient_function = gradient_function

    def restore(self) -> None:
        if self._old is not None:
            from simdist.runtime.ops import registry
            registry.gradient_function = self._old
            self._old = None

    # -- the report -------------------------------------------------------------------------------
    def report(self) -> dict[str, Any]:
        diff, lookup = universe()
        run = [n for n in diff if self.calls.get(n)]
        missing = [n for n in diff if not self.calls.get(n)]
        forms: dict[str, list[str]] = {}
        for n in run:
            lacks = [f for f in FORMS if f not in self.forms[n]]
            if "broadcast" in lacks and not self._broadcastable(n, self.arity[n]):
                lacks.remove("broadcast")
            lacks += [f"attr {k} never varied ({sorted(v)[0]})" for k, v in sorted(self.attrs[n].items())
                      if len(v) == 1 and _is_option(sorted(v)[0]) and k not in _NOT_OPTIONS]
            if lacks:
                forms[n] = lacks
        return {"differentiable": len(diff), "differentiated": len(run), "missing": missing,
                "lookup_ops": len(lookup), "lookup_reached": sorted(n for n in lookup if self.calls.get(n)),
                "lookup_missing": sorted(n for n in lookup if not self.calls.get(n)),
                "forms_missing": forms,
                "form_counts": {f: sum(1 for n in run if f in self.forms[n]) for f in FORMS},
                "calls": {n: self.calls[n] for n in sorted(self.calls)},
                "modules": {n: sorted(self.modules[n]) for n in sorted(self.modules)},
                "attrs": {n: {k: sorted(v) for k, v in sorted(a.items())} for n, a in sorted(self.attrs.items())}}

    @staticmethod
    def _broadcastable(name: str, arity: int) -> bool:
        """An elementwise op of two or more inputs that broadcasts them (a `*Grad` kernel does not)."""
        from simdist.runtime.ops import registry
        op = registry.get(name)
        return (arity > 1 and op.kind == "elementwise" and op.fusion is not None and op.fusion.form == "broadcast"
                and not name.endswith("Grad"))


#: attributes that are not options of the public call (dtypes, the tracing flag, the function itself)
_NOT_OPTIONS = frozenset({"T", "Tidx", "Tshape", "Tpaddings", "Tindices", "dtype", "traced", "grad_fn",
                          "op", "message"})


def _is_option(key: str) -> bool:
    """A bool or string attribute value (as _attr_key writes it)."""
    return key in ("True", "False") or key[:1] in ("'", '"')


# -- running the suite ----------------------------------------------------------------------------------
class _Plugin:
    def __init__(self, rec: Recorder) -> None:
        self.rec = rec

    def pytest_configure(self, config: Any) -> None:
        self.rec.install()

    def pytest_unconfigure(self, config: Any) -> None:
        self.rec.restore()

    def pytest_runtest_setup(self, item: Any) -> None:
        self.rec.module = Path(str(item.fspath)).name


def run_suite(keyword: str | None, profile: str, extra: list[str]) -> tuple[Recorder, int]:
    from simdist.conformance.cli import run_on_simdist
    rec = Recorder()
    return rec, run_on_simdist(_Plugin(rec), keyword, profile, extra)


def format_report(r: dict[str, Any], which: str, suite_code: int) -> str:
    lines = []
    if suite_code != 0:
        lines.append(f"WARNING: the suite exited {suite_code} (not green): the coverage below is of a failing run")
    fc = r["form_counts"]
    lines.append(f"op types with a gradient: {r['differentiable']} differentiable, differentiated by the suite: "
                 f"{r['differentiated']}, never: {len(r['missing'])}; with TF's LookupError: {r['lookup_ops']}, "
                 f"reached: {len(r['lookup_reached'])}")
    lines.append(f"of the differentiated: non-uniform upstream {fc['upstream']}, negative inputs {fc['negative']}, "
                 f"broadcast operand {fc['broadcast']}, float64 {fc['float64']}; "
                 f"some form or attribute value missing: {len(r['forms_missing'])}")
    if which in ("missing", "all"):
        lines.append("never differentiated:")
        lines += [f"  {n}" for n in r["missing"]]
        lines.append("LookupError never reached:")
        lines += [f"  {n}" for n in r["lookup_missing"]]
    if which in ("forms", "all"):
        lines.append("differentiated, but never with:")
        lines += [f"  {n}: {'; '.join(v)}" for n, v in sorted(r["forms_missing"].items())]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="keyword", help="only suite tests matching EXPR (pytest -k)")
    ap.add_argument("--profile", default="default", choices=("default", "ci", "thorough"))
    ap.add_argument("--json", help="write the report (with calls, modules and attribute values per op) here")
    ap.add_argument("--list", default="missing", choices=("missing", "forms", "all", "none"))
    ap.add_argument("pytest_args", nargs="*", help="further pytest arguments after --")
    args = ap.parse_args(argv)
    rec, code = run_suite(args.keyword, args.profile, args.pytest_args)
    r = rec.report()
    print(format_report(r, args.list, code))
    if args.json:
        r["suite_exit"] = code
        Path(args.json).write_text(json.dumps(r, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return 0 if code == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
