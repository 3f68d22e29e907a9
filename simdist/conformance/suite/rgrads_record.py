"""Plan and record what ``test_rgrads.py`` expects, on real TF 2.21 (needs ``tensorflow``).

    nice -n 10 python -m simdist.conformance.suite.rgrads_record [--out PATH] [--ops A,B] [--stats]

The plan comes from TF's own tables: every op of TF's gradient registry (not NotDifferentiable) that tf.raw_ops
exposes and that takes a floating input. For each, calls are drawn from the op's OpDef alone (type attributes from
their allowed values, float32 or float64 where allowed; data inputs of rank 0-4 with dimensions 1-3, sharing one
shape or not; index-like integer inputs drawn from the first data input's shape; other attributes at their default or
a drawn value) until TF accepts `PER_OP` of them with a gradient for some input, or `ATTEMPTS` are spent. The
accepted calls are kept concrete: their inputs' values (ordinary, tied small integers with zeros, or with NaN and
infinities, one kind per kept call), attributes, watched inputs and upstream gradients (normal, one in five zero).
Each case is then observed twice in each mode (rgrads_cases.observe; a case whose observations differ is left out).
Writes rgrads_reference.PATH. Random streams: SeedSequence([SEED, crc32(op), attempt]).
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from simdist.conformance.suite import observations
from simdist.conformance.suite import reference_store
from simdist.conformance.suite import rgrads_cases as cases
from simdist.conformance.suite import rgrads_reference as reference

SEED = 29_33
#: (the planner's version: 2 gave complex parts and upstream gradients the kinds' edges)
VERSION = 2
PER_OP = 3
ATTEMPTS = 300
KINDS = ("ordinary", "ties", "edges")
_AXES = {"axis", "dimension", "dim", "reduction_indices", "split_dim", "seq_dim", "batch_dim", "concat_dim"}
_SIZES = {"size", "crop_size"}
_BLOCKS = {"block_shape"}
_PADS = {"paddings", "crops"}
_STRINGS = {"message": ["checked"], "equation": ["ij,jk->ik", "i,i->", "ij->ji", "bij,bjk->bik", "ij->", "ii->i", "...i,...i->..."]}
#: ops whose gradient is a composite that would re-enter a different op family, or whose calls crash TF's process
SKIP = frozenset({"EnsureShape"})


def registry_ops(tf: Any) -> list[str]:
    """TF's differentiable ops exposed by tf.raw_ops that take a floating input, sorted."""
    from tensorflow.python.framework import op_def_registry, ops  # noqa: PLC0415

    out = []
    for name in sorted(ops._gradient_registry._registry):
        od = op_def_registry.get(name)
        if od is None or ops._gradient_registry._registry[name]["type"] is None or not hasattr(tf.raw_ops, name) \
                or name in SKIP:
            continue
        attrs = {a.name: a for a in od.attr}

        def floats(arg: Any) -> bool:
            if arg.type_attr:
                allowed = attrs[arg.type_attr].allowed_values.list.type
                return not allowed or any(tf.dtypes.as_dtype(t).is_floating for t in allowed)
            return bool(arg.type) and tf.dtypes.as_dtype(arg.type).is_floating

        if any(floats(a) for a in od.input_arg) and not any(a.type_list_attr for a in od.input_arg):
            out.append(name)
    return out


class _Draw:
    """One candidate call of an op, drawn from its OpDef."""

    def __init__(self, tf: Any, od: Any, rng: np.random.Generator, kind: str) -> None:
        self.tf, self.od, self.rng, self.kind = tf, od, rng, kind
        self.attrs_def = {a.name: a for a in od.attr}

    def pick(self, xs: list[Any]) -> Any:
        return xs[int(self.rng.integers(len(xs)))]

    def shape(self) -> tuple[int, ...]:
        rank = int(self.pick([0, 1, 1, 2, 2, 3, 4, 4]))
        return tuple(int(self.rng.integers(1, 4)) for _ in range(rank))

    def values(self, dtype: str, shape: tuple[int, ...]) -> np.ndarray:
        n = int(np.prod(shape, dtype=np.int64))
        if self.kind == "ties":
            v = self.rng.integers(-2, 3, n).astype(np.float64)
        elif self.kind == "edges":
            v = np.round(self.rng.normal(0, 2, n), 2)
            pool = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0])
            mask = self.rng.random(n) < 0.3
            v[mask] = pool[self.rng.integers(0, len(pool), int(mask.sum()))]
        else:
            v = np.round(self.rng.normal(0, 1.5, n), 3)
        if np.dtype(dtype).kind == "c":   # (the imaginary parts of the same kind: 0 + 0j among ties, inf among edges)
            im = self.rng.integers(-2, 3, n).astype(np.float64) if self.kind == "ties" else \
                np.round(self.rng.normal(0, 1.5, n), 3)
            if self.kind == "edges":
                mask = self.rng.random(n) < 0.3
                im[mask] = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0])[self.rng.integers(0, 5, int(mask.sum()))]
            return (v + 1j * im).astype(dtype).reshape(shape)
        return v.astype(dtype).reshape(shape)

    def dtype_of(self, attr: str) -> str:
        a = self.attrs_def[attr]
        allowed = [self.tf.dtypes.as_dtype(t).name for t in a.allowed_values.list.type]
        floats = [t for t in ("float32", "float64") if not allowed or t in allowed]
        if floats:
            return floats[0] if self.rng.random() < 0.7 or len(floats) == 1 else floats[1]
        if a.HasField("default_value") and a.default_value.type:
            return self.tf.dtypes.as_dtype(a.default_value.type).name
        ints = [t for t in ("int32", "int64") if t in allowed]
        return self.pick(ints or allowed)

    def index(self, name: str, dtype: str, base: tuple[int, ...]) -> np.ndarray:
        rank = len(base)
        if name in _AXES:
            return np.array(int(self.rng.integers(-rank, rank)) if rank else 0, dtype)
        if name in _SIZES:
            return self.rng.integers(1, 5, 2).astype(dtype)
        if name in _BLOCKS:
            return self.rng.integers(1, 3, int(self.rng.integers(1, 3))).astype(dtype)
        if name in _PADS:
            return self.rng.integers(0, 2, (int(self.rng.integers(1, 3)) if self.rng.random() < 0.5 else rank, 2)
                                     ).astype(dtype)
        if name == "indices" and rank and self.rng.random() < 0.5:   # gather_nd/scatter_nd style: [k, depth]
            depth = int(self.rng.integers(1, rank + 1))
            k = int(self.rng.integers(1, 4))
            return np.stack([self.rng.integers(0, base[j], k) for j in range(depth)], axis=1).astype(dtype)
        choice = self.rng.random()
        if choice < 0.35:
            return np.array(base, dtype)
        if choice < 0.6 and rank:
            return self.rng.integers(0, base[0], base[:1]).astype(dtype)
        if choice < 0.8:
            return np.array(int(self.rng.integers(0, 4)), dtype)
        return self.rng.integers(0, max(base or (1,)), (rank, 2) if rank else (1,)).astype(dtype)

    def attr(self, a: Any, rank: int) -> Any:
        keep_default = a.HasField("default_value") and self.rng.random() < 0.5
        if a.type == "bool":
            return bool(self.rng.random() < 0.5) if not keep_default else a.default_value.b
        if a.type == "string":
            allowed = [s.decode() for s in a.allowed_values.list.s]
            if allowed:
                return self.pick(allowed) if not keep_default else a.default_value.s.decode()
            if a.HasField("default_value"):
                return a.default_value.s.decode()
            return self.pick(_STRINGS[a.name]) if a.name in _STRINGS else None
        if a.type == "int":
            lo = a.minimum if a.has_minimum else -1
            v = int(a.default_value.i) if keep_default else \
                int(self.pick([v for v in (-1, 0, 1, 2, 3) if v >= lo] or [lo]))
            # (seed = seed2 = 0 draws from the OS: a case must be fixed by its seeds)
            return v if a.name not in ("seed", "seed2") or v > 0 else 7
        if a.type == "float":
            return float(a.default_value.f) if keep_default else float(self.pick([0.0, 0.5, 1.0, 2.0, 0.2]))
        if a.type == "list(int)":
            if a.name in ("strides", "ksize", "dilations", "ksizes", "rates"):
                n = rank if rank in (4, 5) else 4
                inner = [int(self.pick([1, 1, 2])) for _ in range(n - 2)]
                return [1, *inner, 1]
            if keep_default:
                return [int(i) for i in a.default_value.list.i]
            return [int(self.rng.integers(0, 3)) for _ in range(int(self.rng.integers(0, 4)))]
        if a.type == "list(float)":
            if a.name == "pooling_ratio":
                n = rank if rank in (4, 5) else 4
                return [1.0, *[float(self.pick([1.0, 1.44, 2.0])) for _ in range(n - 2)], 1.0]
            return [float(f) for f in a.default_value.list.f] if a.HasField("default_value") else [1.0]
        if a.type == "shape":
            return None
        return None

    def call(self) -> dict[str, Any] | None:
        """A candidate: {"op", "inputs", "attrs", "watch", "upstream": []} (upstream set after TF's run)."""
        types = {a.name: self.dtype_of(a.name) for a in self.od.attr if a.type == "type"}
        numbers = {a.name: int(self.rng.integers(1, 4)) for a in self.od.attr if a.type == "int" and
                   any(arg.number_attr == a.name for arg in self.od.input_arg)}
        shared = self.shape()
        inputs: dict[str, Any] = {}
        watch: list[str] = []
        base: tuple[int, ...] | None = None
        # tf.raw_ops' Python names of the inputs, in the OpDef's order (Sum's reduction_indices is `axis`)
        python = list(inspect.signature(getattr(self.tf.raw_ops, self.od.name)).parameters)
        for arg, pname in zip(self.od.input_arg, python):
            dt = types[arg.type_attr] if arg.type_attr else self.tf.dtypes.as_dtype(arg.type).name
            if dt in ("resource", "variant", "string"):
                return None
            floating = np.dtype(dt).kind in "fc" if dt != "bfloat16" else True
            if floating:
                shape = shared if self.rng.random() < 0.6 else self.shape()
                base = base if base is not None else shape
                make = lambda: self.values(dt, shape)  # noqa: E731
            else:
                ref = base if base is not None else shared
                make = lambda: self.index(arg.name, dt, ref)  # noqa: E731
            if arg.number_attr:
                inputs[pname] = [cases.stored(make()) for _ in range(numbers[arg.number_attr])]
            else:
                inputs[pname] = cases.stored(make())
            if floating:
                watch.append(pname)
        rank = len(base) if base is not None else len(shared)
        attrs: dict[str, Any] = {}
        # the attrs' Python names: the OpDef's, but where tf.raw_ops renamed one (Squeeze's squeeze_dims is `axis`),
        # the unmatched OpDef attrs take the unmatched parameters in order
        params = python[len(self.od.input_arg):]
        own = [a.name for a in self.od.attr if a.name in params]
        spare = iter([p for p in params if p not in own and p != "name"])
        renamed = {a.name: next(spare, a.name) for a in self.od.attr if a.name not in params and a.type != "type"
                   and a.name not in numbers}
        for a in self.od.attr:
            if a.type == "type" or a.name in numbers:
                if a.type == "type" and not any(arg.type_attr == a.name for arg in self.od.input_arg):
                    attrs[renamed.get(a.name, a.name)] = {"dtype": types[a.name]}
                continue
            v = self.attr(a, rank)
            if v is not None:
                attrs[renamed.get(a.name, a.name)] = v
            elif not a.HasField("default_value"):
                return None
        return {"op": self.od.name, "inputs": inputs, "attrs": attrs, "watch": watch, "upstream": []}


def _upstream(rng: np.random.Generator, outputs: list[Any], kind: str) -> list[dict[str, Any]]:
    """Upstream gradients for the floating outputs: normal, one in five zero; for the edges kind one in ten
    NaN or an infinity (a gradient that checks or masks its upstream gradient shows it)."""
    out = []
    for o in outputs:
        if o is None or np.dtype(o["dtype"] if o["dtype"] != "bfloat16" else "float32").kind not in "fc":
            continue
        n = int(np.prod(o["shape"], dtype=np.int64))
        v = np.round(rng.normal(0, 1, n), 3)
        v[rng.random(n) < 0.2] = 0.0
        if kind == "edges":
            mask = rng.random(n) < 0.1
            v[mask] = np.array([np.nan, np.inf, -np.inf])[rng.integers(0, 3, int(mask.sum()))]
        dt = o["dtype"]
        arr = (v + 1j * np.round(rng.normal(0, 1, n), 3)) if np.dtype(dt).kind == "c" else v
        out.append(cases.stored(np.asarray(arr).astype(dt).reshape(o["shape"])))
    return out


def _accepted(tf: Any, case: dict[str, Any], kind: str) -> dict[str, Any] | None:
    """The case with its upstream gradients if TF runs it eagerly and gives some input a gradient, else None."""
    first = cases.observe(tf, case, "eager")
    if "error" in first:
        return None
    rng = np.random.default_rng(np.random.SeedSequence([SEED, zlib.crc32(case["op"].encode()), 1 << 20]))
    case = {**case, "upstream": _upstream(rng, first["outputs"], kind)}
    got = cases.observe(tf, case, "eager")
    if "error" in got or all(g is None or (isinstance(g, list) and all(x is None for x in g))
                             for g in got["gradients"]):
        return None
    return case


def plan_op(tf: Any, name: str) -> tuple[list[dict[str, Any]], int]:
    """Up to PER_OP accepted cases of op `name` (one of each kind in KINDS) and the attempts spent."""
    from tensorflow.python.framework import op_def_registry  # noqa: PLC0415

    od = op_def_registry.get(name)
    kept: list[dict[str, Any]] = []
    seen: set[str] = set()
    attempt = 0
    while len(kept) < PER_OP and attempt < ATTEMPTS:
        rng = np.random.default_rng(np.random.SeedSequence([SEED, zlib.crc32(name.encode()), attempt]))
        attempt += 1
        case = _Draw(tf, od, rng, KINDS[len(kept)]).call()
        if case is None:
            continue
        key = json.dumps([{k: (v["shape"], v["dtype"]) if isinstance(v, dict) else len(v)
                           for k, v in case["inputs"].items()}, case["attrs"]], sort_keys=True)
        if key in seen:
            continue
        case = _accepted(tf, case, KINDS[len(kept)])
        if case is not None:
            seen.add(key)
            kept.append(case)
    return kept, attempt


def _plan_worker(ops: list[str], out: str) -> None:
    """Plan `ops` in this process, appending one JSON line per op to `out` (its name first, in `out`.current, so
    a parent whose worker TF aborted knows which op did it)."""
    tf, _ = reference_store.reference_tf(reference.tables_hash())
    for name in ops:
        with open(out + ".current", "w") as f:
            f.write(name)
        kept, attempts = plan_op(tf, name)
        with open(out, "a") as f:
            f.write(json.dumps({"op": name, "cases": kept, "attempts": attempts}, sort_keys=True) + "\n")


def plan(tf: Any, ops: list[str] | None = None, stats: bool = False) -> list[dict[str, Any]]:
    """The cases, op by op, each in every mode: {"case", "mode"}. Ops are planned in child processes: a call that
    makes TF's process abort (a CHECK failure in a kernel) leaves that op out, named on stderr."""
    import subprocess  # noqa: PLC0415
    import tempfile  # noqa: PLC0415

    names = ops or registry_ops(tf)
    done: dict[str, dict[str, Any]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "plan.jsonl")
        while len(done) < len(names):
            todo = [n for n in names if n not in done]
            subprocess.run([sys.executable, "-m", "simdist.conformance.suite.rgrads_record", "--worker", ",".join(todo), "--out", out],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            if os.path.exists(out):
                with open(out) as f:
                    for line in f:
                        row = json.loads(line)
                        done[row["op"]] = row
            marker = out + ".current"
            current = Path(marker).read_text() if os.path.exists(marker) else todo[0]
            if current not in done:
                print(f"{current}: left out (a call aborted TF's process)", file=sys.stderr)
                done[current] = {"op": current, "cases": [], "attempts": -1}
    cases_out: list[dict[str, Any]] = []
    for name in names:
        row = done[name]
        if stats and row["attempts"] >= 0:
            print(f"{name}: {len(row['cases'])} cases in {row['attempts']} attempts", file=sys.stderr)
        cases_out += [{"case": c, "mode": mode} for c in row["cases"] for mode in cases.MODES]
    return cases_out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=reference.PATH)
    ap.add_argument("--ops", default="")
    ap.add_argument("--stats", action="store_true")
    ap.add_argument("--worker", default="", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        _plan_worker(args.worker.split(","), args.out)
        return 0
    ops = [o for o in args.ops.split(",") if o] or None

    def observe(tf: Any) -> dict[str, Any]:
        return observations.observed_twice(plan(tf, ops, args.stats), lambda c: cases.observe(tf, c["case"], c["mode"]))

    data = reference_store.record(lambda d: reference.save(d, args.out), reference.tables_hash(), observe)
    print(f"wrote {args.out}: {len(data['plan'])} cases ({len(data['skipped'])} left out)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
