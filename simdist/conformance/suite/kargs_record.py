"""Plan and record what ``test_kargs.py`` expects, on real TF 2.21 + Keras 3.15 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.kargs_record [--out PATH]

The plan comes from TF's own layer classes (kargs_cases): every public layer of tf.keras.layers not in SKIP
whose required arguments REQUIRED covers; its default configuration called on the first input of INPUT_SHAPES
it accepts (float32, then int32, then a pair of float32 inputs), twice (a layer whose two calls differ is left out: TF's output is not
determined, e.g. unwritten memory); then each simple argument's variants. Writes kargs_reference.PATH.
"""

from __future__ import annotations

import argparse
import inspect
import sys
from typing import Any

from simdist.conformance.suite import kargs_cases as cases
from simdist.conformance.suite import kargs_reference as reference
from simdist.conformance.suite import reference_store


def plan(tf: Any) -> tuple[list[dict[str, Any]], dict[str, str]]:
    """(the variants, the layers left out with why), from TF's layer classes."""
    keras = tf.keras
    names = sorted(n for n in dir(keras.layers) if inspect.isclass(getattr(keras.layers, n)) and n not in cases.SKIP
                   and issubclass(getattr(keras.layers, n), keras.layers.Layer))
    out: list[dict[str, Any]] = []
    skipped: dict[str, str] = {}
    for n in names:
        params = list(inspect.signature(getattr(keras.layers, n).__init__).parameters.values())[1:]
        base: dict[str, Any] = {}
        simple: list[tuple[str, Any]] = []
        missing = [p.name for p in params if p.default is inspect.Parameter.empty
                   and p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and cases.REQUIRED.get(p.name) is None]
        if missing:
            skipped[n] = f"required argument {missing[0]!r} has no value in REQUIRED"
            continue
        for p in params:
            if p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            if p.default is inspect.Parameter.empty:
                base[p.name] = cases.REQUIRED[p.name]
            elif cases.variants(p.default):
                simple.append((p.name, p.default))
        found = None
        for kind in cases.KINDS:
            for shape in cases.INPUT_SHAPES:
                first = cases.observe(tf, n, base, shape, kind)
                if "out" in first:
                    found = (shape, kind, first)
                    break
            if found:
                break
        if not found:
            skipped[n] = "no input of INPUT_SHAPES is accepted"
            continue
        shape, kind, first = found
        if cases.observe(tf, n, base, shape, kind) != first:
            skipped[n] = "two calls differ on TF (not determined)"
            continue
        out.append({"layer": n, "kwargs": base, "shape": list(shape), "kind": kind})
        for name, default in simple:
            for v in cases.variants(default):
                out.append({"layer": n, "kwargs": {**base, name: v}, "shape": list(shape), "kind": kind})
    return out, skipped


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    args = ap.parse_args(argv)

    def observe(tf: Any) -> dict[str, Any]:
        variants, skipped = plan(tf)
        observed = [cases.observe(tf, v["layer"], cases.as_kwargs(v["kwargs"]), tuple(v["shape"]), v["kind"])
                    for v in variants]
        return {"plan": variants, "skipped": skipped, "observed": observed}

    data = reference_store.record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    variants, skipped = data["plan"], data["skipped"]
    print(f"wrote {args.out}: {len(variants)} variants of {len({v['layer'] for v in variants})} layers "
          f"({len(skipped)} left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
