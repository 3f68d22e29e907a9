"""check_determinism: run a simulation twice (and optionally in a fresh process with another
PYTHONHASHSEED) and compare the sha256 of its results.

``fn(*args, **kwargs)`` returns a `Simulator` (its canonical metrics JSON and its trace bytes are
compared; the simulator is closed first), a metrics ``dict`` (canonical JSON), or ``bytes``/``str``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pickle
import subprocess
import sys
from typing import Any, Callable

from .metrics import canonical_json

__all__ = ["DeterminismError", "check_determinism", "fingerprint", "digest"]


class DeterminismError(AssertionError):
    """Two runs that should be identical were not; the message says which part differed and where."""


def fingerprint(result: Any) -> tuple[dict[str, bytes], Any]:
    """The parts of a run's result that must be byte-identical, and its metrics (or None)."""
    from .engine import Simulator  # local: engine imports nothing from here

    if isinstance(result, Simulator):
        result.close()
        metrics = result.metrics()
        parts = {"metrics": canonical_json(metrics).encode("utf-8")}
        if result.trace is not None:
            tb = result.trace.getvalue()
            if tb is not None:
                parts["trace"] = tb
        return parts, metrics
    if isinstance(result, dict):
        return {"metrics": canonical_json(result).encode("utf-8")}, result
    if isinstance(result, str):
        return {"bytes": result.encode("utf-8")}, None
    if isinstance(result, (bytes, bytearray)):
        return {"bytes": bytes(result)}, None
    raise TypeError(f"check_determinism: fn must return a Simulator, a metrics dict, bytes or str; "
                    f"got {type(result).__name__}")


def _part_hashes(parts: dict[str, bytes]) -> dict[str, str]:
    return {k: hashlib.sha256(parts[k]).hexdigest() for k in sorted(parts)}


def digest(part_hashes: dict[str, str]) -> str:
    h = hashlib.sha256()
    for k in sorted(part_hashes):
        h.update(f"{k}\0{part_hashes[k]}\n".encode())
    return h.hexdigest()


def _json_diff(a: Any, b: Any, path: str = "$") -> str | None:
    if type(a) is not type(b):
        return f"{path}: {a!r} vs {b!r}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b), key=str):
            if k not in a or k not in b:
                return f"{path}[{k!r}]: {'missing' if k not in a else 'present'} vs {'missing' if k not in b else 'present'}"
            d = _json_diff(a[k], b[k], f"{path}[{k!r}]")
            if d:
                return d
        return None
    if isinstance(a, list):
        if len(a) != len(b):
            return f"{path}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            d = _json_diff(x, y, f"{path}[{i}]")
            if d:
                return d
        return None
    return None if a == b else f"{path}: {a!r} vs {b!r}"


def _bytes_diff(a: bytes, b: bytes) -> str:
    n = min(len(a), len(b))
    i = next((k for k in range(n) if a[k] != b[k]), n)
    line = a[:i].count(b"\n") + 1
    la = a[a.rfind(b"\n", 0, i) + 1:].split(b"\n", 1)[0][:200]
    lb = b[b.rfind(b"\n", 0, i) + 1:].split(b"\n", 1)[0][:200]
    return (f"first difference at byte {i} (line {line}; sizes {len(a)} vs {len(b)}):\n"
            f"    {la.decode('utf-8', 'replace')}\n    {lb.decode('utf-8', 'replace')}")


def _explain(what: str, pa: dict[str, bytes], ma: Any, pb: dict[str, bytes], mb: Any) -> str:
    lines = [f"{what}:"]
    for k in sorted(set(pa) | set(pb)):
        if k not in pa or k not in pb:
            lines.append(f"  {k}: present in only one run")
        elif pa[k] != pb[k]:
            if k == "metrics" and ma is not None and mb is not None:
                lines.append(f"  metrics differ at {_json_diff(ma, mb)}")
            else:
                lines.append(f"  {k} differs, {_bytes_diff(pa[k], pb[k])}")
    return "\n".join(lines)


def _reference(fn: Callable[..., Any] | str) -> str:
    if isinstance(fn, str):
        return fn
    mod = getattr(fn, "__module__", None)
    qual = getattr(fn, "__qualname__", None)
    if not mod or not qual or "<" in qual or mod == "__main__":
        raise ValueError(f"check_determinism(fresh_process=True): {fn!r} must be a module-level function "
                         "importable as 'module:function' (not a lambda, a local function or __main__)")
    return f"{mod}:{qual}"


def _load(ref: str) -> Callable[..., Any]:
    mod, sep, qual = ref.partition(":")
    if not sep or not mod or not qual:
        raise ValueError(f"check_determinism: expected 'module:function', got {ref!r}")
    obj: Any = importlib.import_module(mod)
    for part in qual.split("."):
        obj = getattr(obj, part)
    return obj


def _other_hash_seed() -> str:
    cur = os.environ.get("PYTHONHASHSEED")
    return "2" if cur == "1" else "1"


def _run_fresh(ref: str, args: tuple[Any, ...], kwargs: dict[str, Any], hash_seed: str) -> dict[str, Any]:
    env = dict(os.environ)
    env["PYTHONHASHSEED"] = hash_seed
    paths = [p for p in sys.path if p and os.path.isdir(p)]
    if os.getcwd() not in paths:
        paths.insert(0, os.getcwd())
    env["PYTHONPATH"] = os.pathsep.join(paths)
    payload = pickle.dumps((ref, args, kwargs))
    proc = subprocess.run([sys.executable, "-c", "from simdist.sim.determinism import _child; _child()"],
                          input=payload, capture_output=True, env=env, cwd=os.getcwd())
    if proc.returncode != 0:
        raise DeterminismError(f"fresh-process run of {ref} (PYTHONHASHSEED={hash_seed}) failed with exit code "
                               f"{proc.returncode}:\n{proc.stderr.decode('utf-8', 'replace')[-4000:]}")
    return json.loads(proc.stdout.decode("utf-8").strip().splitlines()[-1])


def _child() -> None:
    ref, args, kwargs = pickle.loads(sys.stdin.buffer.read())
    parts, metrics = fingerprint(_load(ref)(*args, **kwargs))
    hashes = _part_hashes(parts)
    sys.stdout.write("\n" + json.dumps({"digest": digest(hashes), "parts": hashes, "metrics": metrics,
                                        "hash_seed": os.environ.get("PYTHONHASHSEED")}) + "\n")


_NOT_GIVEN: Any = object()


def check_determinism(fn: Callable[..., Any] | str, *args: Any, fresh_process: bool = False,
                      runs: int = 2, first: Any = _NOT_GIVEN, **kwargs: Any) -> str:
    """Run ``fn(*args, **kwargs)`` ``runs`` times (>= 2) in this process and, if ``fresh_process``,
    once more in a new interpreter with a different PYTHONHASHSEED (``fn`` must then be importable
    as "module:function"; args are pickled). Raise `DeterminismError` naming what differed; return
    the sha256 hex digest of the result. ``first``: the result of a run the caller already made with
    the same arguments (it counts as run 1, so a caller that inspects one result pays no extra run)."""
    if isinstance(runs, bool) or not isinstance(runs, int) or runs < 2:
        raise ValueError(f"check_determinism.runs: expected an int >= 2, got {runs!r}")
    ref = _reference(fn) if fresh_process else None
    call = _load(fn) if isinstance(fn, str) else fn
    first_parts, first_metrics = fingerprint(call(*args, **kwargs) if first is _NOT_GIVEN else first)
    for r in range(2, runs + 1):
        parts, metrics = fingerprint(call(*args, **kwargs))
        if parts != first_parts:
            raise DeterminismError(_explain(f"run {r} differs from run 1 of {getattr(call, '__qualname__', call)!r}",
                                            first_parts, first_metrics, parts, metrics))
    hashes = _part_hashes(first_parts)
    result = digest(hashes)
    if ref is not None:
        seed = _other_hash_seed()
        child = _run_fresh(ref, args, kwargs, seed)
        if child["digest"] != result:
            diff = [k for k in sorted(set(hashes) | set(child["parts"])) if hashes.get(k) != child["parts"].get(k)]
            msg = (f"a fresh process (PYTHONHASHSEED={seed}) gave a different result for {ref}: "
                   f"{', '.join(diff)} differ (sha256 {result[:12]} here vs {child['digest'][:12]} there)")
            if "metrics" in diff and first_metrics is not None and child.get("metrics") is not None:
                msg += f"; metrics differ at {_json_diff(first_metrics, child['metrics'])}"
            raise DeterminismError(msg)
    return result
