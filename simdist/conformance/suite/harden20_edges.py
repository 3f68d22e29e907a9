"""harden20: edge inputs derived from the constants in a class's or function's own source.

Blind batches' last survivors sit at EDGE values (an input equal to a threshold, magnitudes where
one epsilon dominates another, fractions that round differently), which inputs of magnitude ~1 and
~1e-3 do not reach. This module reads the numbers a class or function's source states -- its
signature defaults and the numeric literals of its body (one level of the keras/TF functions it
calls, where most layers' rules live), `epsilon()` calls (keras.config.epsilon(), 1e-7), the
rounding functions it names (floor, ceil, round, int) and its comparison operators -- and derives
edge inputs from them:

- every number c is a threshold: c itself and one float32 ulp either side (and -c, for rules
  symmetric in x);
- every small positive number eps (below 1e-2) is an epsilon: magnitudes sqrt(eps) * {0.3, 1, 3}
  and eps * {0.3, 1, 3}, where eps is 10-100% of a variance, a norm or a denominator built from
  them (a variance eps versus a norm eps: both are covered);
- a rounding function is an edge of sizes: fractions whose product with a length is a half (x.5,
  where round, floor and ceil all differ, and Python's round goes to the even side) and one tenth
  either side of it.

Derive from the REFERENCE's source (TF 2.21's tf.keras = Keras 3.15, and TF's tf.nn), never from
the backend under test, so a mutated constant in the backend still gets the reference's edges:
:mod:`harden20_record` runs this on real TF and stores the edges in the recording, which the tests
read on every backend. ``python -m simdist.conformance.suite.harden20_edges [TARGET ...]`` prints
the constants of TF's and (for comparison) simdist's source side by side.
"""

from __future__ import annotations

import ast
import inspect
import math
import sys
import textwrap
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

#: keras.config.epsilon()'s value (Keras 3.15 backend/common/global_state: _EPSILON = 1e-7); a source calling
#: `epsilon()` (backend.epsilon, config.epsilon) states it.
KERAS_EPSILON = 1e-7
#: Numbers below this (and above 0) are epsilons.
EPSILON_BELOW = 1e-2
#: Numbers of this size or more are not thresholds an input is put at (sizes, seeds, 1e6 caps).
THRESHOLD_BELOW = 1e3
_ROUNDING = ("floor", "ceil", "round", "int", "rint", "trunc")
#: Packages whose functions a source's rules are followed into (Keras's backend calls TF's Python ops), besides
#: the target's own (simdist's, when the tool reads simdist's source for comparison).
FOLLOWED_PACKAGES = ("keras", "tensorflow")
#: At most this many functions' sources are read per target (the follow stays near the target).
MAX_FOLLOWED = 40
_COMPARE = {ast.Gt: ">", ast.GtE: ">=", ast.Lt: "<", ast.LtE: "<="}
#: Helpers a source calls that state no rule of the caller's (decorators, dispatch, conversions).
_NOT_FOLLOWED = ("keras_export", "any_symbolic_tensors", "convert_to_tensor", "cast", "standardize_dtype",
                 "result_type", "symbolic_call", "dispatch", "add_dispatch_support", "deprecated", "tf_export",
                 "is_tensor", "shape", "dtype")
_COMPARE_CALLS = ("greater", "greater_equal", "less", "less_equal", "where", "maximum", "minimum", "clip")


@dataclass
class Constants:
    """What one source states: numbers (defaults and literals), epsilons, rounding functions and
    comparisons (operators and comparing calls), each sorted and unique."""
    numbers: list[float] = field(default_factory=list)
    epsilons: list[float] = field(default_factory=list)
    rounding: list[str] = field(default_factory=list)
    comparisons: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, list[Any]]:
        return {"numbers": self.numbers, "epsilons": self.epsilons, "rounding": self.rounding,
                "comparisons": self.comparisons}


def _source(obj: Any) -> str | None:
    try:
        return textwrap.dedent(inspect.getsource(obj))
    except (OSError, TypeError):
        return None


def _signature_numbers(obj: Any) -> list[float]:
    try:
        sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
    except (TypeError, ValueError):
        return []
    return [float(p.default) for p in sig.parameters.values()
            if isinstance(p.default, (int, float)) and not isinstance(p.default, bool)]


def _literal(node: ast.AST) -> float | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        v = _literal(node.operand)
        return None if v is None else -v
    return None


def _dotted(node: ast.AST) -> tuple[str, ...] | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return tuple(reversed(parts))
    return None


def _called_names(tree: ast.AST) -> list[tuple[str, ...]]:
    """Dotted names called in `tree` (`ops.normalize(...)` -> ("ops", "normalize"))."""
    return [d for node in ast.walk(tree) if isinstance(node, ast.Call) and (d := _dotted(node.func))]


def _referenced_names(tree: ast.AST) -> list[tuple[str, ...]]:
    """Dotted names a source calls or passes on (a loss class handing its function to a wrapper), once
    each in order of appearance."""
    out: list[tuple[str, ...]] = []
    for node in ast.walk(tree):
        d = _dotted(node) if isinstance(node, (ast.Name, ast.Attribute)) else None
        if d and d not in out:
            out.append(d)
    return out


def _local_imports(tree: ast.AST) -> dict[str, Any]:
    """Names a source imports inside itself (`from keras.src import ops` in a function body), already loaded."""
    out: dict[str, Any] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            mod = sys.modules.get(node.module)
            for alias in node.names:
                value = getattr(mod, alias.name, None) if mod is not None else None
                if value is None:
                    value = sys.modules.get(f"{node.module}.{alias.name}")
                if value is not None:
                    out[alias.asname or alias.name] = value
    return out


def _resolve(obj: Any, dotted: tuple[str, ...], local: dict[str, Any] | None = None) -> Any:
    """A name called in `obj`'s source, looked up among its own imports, then its module's globals (None if
    not found)."""
    mod = sys.modules.get(getattr(obj, "__module__", "") or "")
    value: Any = (local or {}).get(dotted[0])
    if value is None:
        value = getattr(mod, dotted[0], None) if mod is not None else None
    for part in dotted[1:]:
        value = getattr(value, part, None)
    return value


def _scan(src: str, c: Constants, numbers: set[float]) -> ast.AST:
    tree = ast.parse(src)
    for node in ast.walk(tree):
        v = _literal(node)
        if v is not None:
            numbers.add(v)
        if isinstance(node, ast.Compare):
            c.comparisons += [_COMPARE[type(op)] for op in node.ops if type(op) in _COMPARE]
    for name in _called_names(tree):
        if name[-1] in _ROUNDING:
            c.rounding.append(name[-1])
        if name[-1] in _COMPARE_CALLS:
            c.comparisons.append(name[-1])
        if name[-1] == "epsilon":
            numbers.add(KERAS_EPSILON)
    return tree


def _origin(obj: Any) -> str:
    return getattr(obj, "__module__", "") or ""


def source_constants(obj: Any, follow: int = 5, extra: tuple[float, ...] = ()) -> Constants:
    """The constants `obj`'s source states (a class: its whole body; a function: its body), plus those of
    the functions it calls from its own package, `follow` levels deep, plus `extra` (a case's own
    non-default arguments, which are thresholds too)."""
    c = Constants()
    numbers: set[float] = set(_signature_numbers(obj)) | {float(x) for x in extra}
    seen: set[int] = set()
    packages = FOLLOWED_PACKAGES + (_origin(obj).split(".")[0],)
    frontier = [obj]
    for level in range(follow + 1):
        nxt = []
        for o in frontier:
            if id(o) in seen:
                continue
            seen.add(id(o))
            src = _source(o)
            if src is None:
                continue
            numbers |= set(_signature_numbers(o)) if level else set()
            tree = _scan(src, c, numbers)
            if level < follow:
                local = _local_imports(tree)
                for name in _referenced_names(tree):
                    target = _resolve(o, name, local)
                    if (inspect.isfunction(target) and _origin(target).split(".")[0] in packages
                            and name[-1] not in _NOT_FOLLOWED and len(seen) + len(nxt) < MAX_FOLLOWED):
                        nxt.append(target)
        frontier = nxt
    finite = sorted(v for v in numbers if math.isfinite(v))
    c.numbers = finite
    c.epsilons = sorted({v for v in finite if 0 < v < EPSILON_BELOW})
    c.rounding = sorted(set(c.rounding))
    c.comparisons = sorted(set(c.comparisons))
    return c


def ulps(c: float, dtype: Any = np.float32) -> list[float]:
    """c rounded to `dtype` and its neighbours one ulp below and above."""
    x = dtype(c)
    return [float(np.nextafter(x, dtype(-np.inf))), float(x), float(np.nextafter(x, dtype(np.inf)))]


def threshold_groups(numbers: list[float], symmetric: bool = True) -> dict[float, list[float]]:
    """One group per threshold c (|c| below THRESHOLD_BELOW): c and one ulp either side, and the same
    for -c when `symmetric` (then keyed by |c|); each group compared on its own magnitude."""
    groups = {}
    for c in sorted({abs(v) if symmetric else v for v in numbers if abs(v) < THRESHOLD_BELOW}):
        g = ulps(c) + (ulps(-c) if symmetric and c != 0 else [])
        groups[c] = sorted(set(g))
    return groups


def threshold_edges(numbers: list[float], symmetric: bool = True) -> list[list[float]]:
    """threshold_groups' groups, in the order of their thresholds."""
    return list(threshold_groups(numbers, symmetric).values())


def epsilon_magnitudes(epsilons: list[float]) -> list[float]:
    """Magnitudes where each epsilon is 10-100% of the result: sqrt(eps) and eps, times 0.3, 1 and 3."""
    out = set()
    for e in epsilons:
        for f in (0.3, 1.0, 3.0):
            out.add(float(np.float32(math.sqrt(e) * f)))
            out.add(float(np.float32(e * f)))
    return sorted(out)


def rounding_fractions(n: int) -> list[float]:
    """Fractions of a length n whose product with n is a half (k + 0.5, k = 0 .. n-1: floor, round and
    ceil all differ; Python's round goes to the even side) and k + 0.4, k + 0.6 beside it."""
    out = []
    for k in range(n - 1):
        for d in (0.4, 0.5, 0.6):
            out.append(round((k + d) / n, 12))
    return out


def elementwise_edges(c: Constants) -> dict[str, list[float]]:
    """Input groups for an elementwise rule: each threshold with its ulps, and the epsilon magnitudes
    (both signs); named by the constant they come from."""
    groups = {f"at ±{k!r}": g for k, g in threshold_groups(c.numbers).items()}
    mags = epsilon_magnitudes(c.epsilons)
    if mags:
        groups["epsilon magnitudes"] = sorted(set(mags) | {-m for m in mags})
    if c.rounding:
        groups["halves"] = sorted({float(k) + 0.5 for k in range(-3, 3)}
                                  | {float(np.nextafter(np.float32(k + 0.5), np.float32(np.inf))) for k in range(-3, 3)})
    return groups


def resolve(root: Any, path: str) -> Any:
    """`tf.keras.layers.Dense` style path on a tf module (its first part is the module itself)."""
    obj = root
    for part in path.split(".")[1:]:
        obj = getattr(obj, part)
    return obj


def main(argv: list[str] | None = None) -> int:
    """Print the constants of TF's and simdist's source for each target path (default: every case
    target of harden20_cases), the edges derived from TF's, and the numbers one side states alone."""
    from simdist.conformance.suite import harden20_cases as cases  # noqa: PLC0415

    targets = (argv if argv else sys.argv[1:]) or [t.path for t in cases.TARGETS]
    import tensorflow as real  # noqa: PLC0415

    from simdist import tf as sim  # noqa: PLC0415
    show: Callable[[Any], str] = lambda v: ", ".join(map(repr, v))  # noqa: E731
    for path in targets:
        ref, own = source_constants(resolve(real, path)), source_constants(resolve(sim, path))
        print(f"{path}\n  TF/Keras: numbers [{show(ref.numbers)}] eps [{show(ref.epsilons)}] "
              f"rounding {ref.rounding} compare {ref.comparisons}")
        print(f"  simdist:  numbers [{show(own.numbers)}] eps [{show(own.epsilons)}] rounding {own.rounding}")
        only = sorted(set(ref.epsilons) ^ set(own.epsilons))
        if only:
            print(f"  epsilons on one side only: {only}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
