"""Record the training grid on real TensorFlow 2.21 + Keras 3 (needs ``tensorflow`` installed).

    python -m simdist.conformance.grid.record [--only 3,17] [--out PATH]

Runs every grid program through the suite's tensorflow backend (in this process, 4 logical
CPUs) and writes :data:`simdist.conformance.grid.reference.PATH`: per case its program hash and
observables (bit-exact), or the error TF raised. Cases already in the file with an unchanged program hash are kept
(``--fresh`` re-records all); the file is rewritten after each case, so an interrupted run resumes. Takes a few minutes of CPU; run it under ``nice``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from simdist.conformance.grid import programs, reference, runner


def record_case(backend: Any, case: programs.Case) -> dict[str, Any]:
    entry: dict[str, Any] = {"hash": programs.case_hash(case), "config": case.config}
    try:
        obs = runner.run_case(backend, case)
    except Exception as e:  # noqa: BLE001 - TF's error is the reference
        text = str(e)   # TF's graph errors put the cause last
        entry["error"] = {"type": type(e).__name__, "message": text if len(text) < 900 else text[:300] + " ... " + text[-600:]}
        return entry
    entry["obs"] = {k: reference.encode(v) for k, v in obs.items()}
    return entry


def _merge(out: str, others: list[str]) -> int:
    """Merge shard files into ``out``: a case's entry from any file whose program hash is current."""
    by_name = {c.name: c for c in programs.cases()}
    files = [out] + list(others)
    merged: dict[str, Any] = {}
    meta: dict[str, Any] = {}
    for path in files:
        if not os.path.exists(path):
            continue
        data = reference.load(path)
        meta = meta or data["meta"]
        for name, entry in data["cases"].items():
            case = by_name.get(name)
            if case is not None and entry["hash"] == programs.case_hash(case):
                merged[name] = entry
    meta["generator_hash"] = reference.generator_hash(programs.cases())
    reference.save(meta, dict(sorted(merged.items())), out)
    print(f"merged {len(files)} files into {out}: {len(merged)} of {len(by_name)} cases", file=sys.stderr)
    return 0


def _interleaved(cases: list[programs.Case]) -> list[programs.Case]:
    """The cases round-robin over strategies, so a partial recording spans all of them."""
    by: dict[str, list[programs.Case]] = {}
    for c in cases:
        by.setdefault(c.config["strategy"], []).append(c)
    out: list[programs.Case] = []
    for i in range(max((len(v) for v in by.values()), default=0)):
        out += [v[i] for v in by.values() if i < len(v)]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated case indices to (re)record")
    ap.add_argument("--fresh", action="store_true", help="re-record every case (default: keep the cases of the "
                    "existing file whose program hash is unchanged)")
    ap.add_argument("--out", default=reference.PATH)
    ap.add_argument("--shard", default="0/1", help="I/N: record only the cases whose index %% N == I (run N "
                    "processes with different --out files, then --merge them)")
    ap.add_argument("--merge", nargs="*", default=[], help="files of other shards to merge into --out (no recording)")
    args = ap.parse_args(argv)
    if args.merge:
        return _merge(args.out, args.merge)
    from simdist.conformance.backends.tf_backend import TensorFlowBackend  # noqa: PLC0415

    backend = TensorFlowBackend()
    backend.setup()
    import keras  # noqa: PLC0415

    all_cases = programs.cases()
    names = {c.name for c in all_cases}
    results: dict[str, Any] = {}
    if not args.fresh and os.path.exists(args.out):
        old = reference.load(args.out)["cases"]
        results = {c.name: old[c.name] for c in all_cases
                   if c.name in old and old[c.name]["hash"] == programs.case_hash(c)}
    part, parts = (int(v) for v in args.shard.split("/"))
    todo = [c for c in all_cases if c.name not in results and c.index % parts == part]
    if args.only:
        wanted = {int(i) for i in args.only.split(",")}
        todo = [c for c in all_cases if c.index in wanted]
    meta = {"tensorflow": backend.tf.__version__, "keras": keras.__version__,
            "generator_hash": reference.generator_hash(all_cases),
            "template_version": programs.TEMPLATE_VERSION, "cases": len(all_cases)}
    for case in _interleaved(todo):
        t = time.process_time()
        results[case.name] = record_case(backend, case)
        status = results[case.name].get("error", {}).get("type", "ok")
        print(f"{case.name}: {status} ({time.process_time() - t:.1f} s CPU)", file=sys.stderr, flush=True)
        reference.save(meta, {k: v for k, v in results.items() if k in names}, args.out)   # progress survives
    reference.save(meta, {k: v for k, v in results.items() if k in names}, args.out)
    print(f"wrote {args.out}: {len(results)} of {len(all_cases)} cases", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
