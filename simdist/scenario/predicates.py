"""Metric predicates of `[explore] invariants`: ``"retries <= 50"``, ``"simulated_time_s <= 1.2 * baseline"``.

A predicate is a Python comparison over summary metrics (``docs/scenarios.md``, metrics.json),
numbers, ``+ - * /``, parentheses, ``and``/``or``/``not``; ``baseline`` is the predicate's
metric in the fault-free run (``baseline.METRIC`` names another one). It is parsed with `ast`
and evaluated by walking the tree (no `eval`).

A predicate that names a metric the registry does not know is an error (with a did-you-mean),
and so is one that cannot fail or cannot hold: every summary metric is >= 0 and the fractions
are <= 1 (the metrics schema), so ``retries >= 0`` or ``device_busy_mean <= 1`` are rejected by
interval arithmetic over those ranges, as are comparisons of constants and ``x <= x``.
"""

from __future__ import annotations

import ast
import difflib
import math
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping

__all__ = ["Predicate", "PredicateError", "parse", "metric_range"]

_CMP = {ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=", ast.Eq: "==", ast.NotEq: "!="}
_ARITH = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/"}


class PredicateError(ValueError):
    """A predicate that cannot be used: bad syntax, an unknown metric, or one that cannot fail."""


def metric_range(name: str) -> tuple[float, float]:
    """The values a summary metric can take: every one is >= 0 (metrics schema), fractions <= 1."""
    if name.endswith("_fraction") or name.startswith("device_busy") or name == "link_busy_max":
        return (0.0, 1.0)
    return (0.0, math.inf)


@dataclass(frozen=True)
class Predicate:
    text: str
    tree: ast.expr = field(compare=False, repr=False)
    metrics: tuple[str, ...] = ()          # metrics of the run it reads
    baseline_metrics: tuple[str, ...] = () # metrics of the baseline run it reads

    @property
    def id(self) -> str:
        return f"predicate: {self.text}"

    def evaluate(self, summary: Mapping[str, Any], baseline: Mapping[str, Any] | None) -> tuple[bool, str]:
        """(holds, what the values were), e.g. (False, "redone_closures = 176")."""
        missing = [m for m in self.metrics if m not in summary]
        if missing:
            return False, f"the run has no metric {', '.join(missing)}"
        shown = [f"{m} = {_num(summary[m])}" for m in self.metrics]
        if self.baseline_metrics:
            base = baseline or {}
            gone = [m for m in self.baseline_metrics if m not in base]
            if gone:
                return False, f"the baseline run has no metric {', '.join(gone)}"
            shown += [f"baseline {m} = {_num(base[m])}" for m in self.baseline_metrics]
        try:
            ok = bool(_Eval(summary, baseline or {}, self._subject()).visit(self.tree))
        except ZeroDivisionError:
            return False, "division by zero; " + ", ".join(shown)
        return ok, ", ".join(shown)

    def _subject(self) -> str | None:
        return self.metrics[0] if len(self.metrics) == 1 else None


def _num(v: Any) -> str:
    if isinstance(v, float) and not v.is_integer():
        return f"{v:.6g}"
    return str(int(v)) if isinstance(v, float) else str(v)


def parse(text: str, known: Iterable[str]) -> Predicate:
    """Parse and check one predicate against the known metric names; PredicateError says what is wrong."""
    known = list(known)
    if not isinstance(text, str) or not text.strip():
        raise PredicateError("empty predicate (rule: a comparison such as \"retries <= 50\")")
    try:
        tree = ast.parse(text.strip(), mode="eval").body
    except SyntaxError as e:
        raise PredicateError(f"{text!r} is not an expression: {e.msg} (rule: a comparison such as "
                             "\"retries <= 50\")") from None
    names: list[str] = []
    base_names: list[str] = []
    plain_baseline = [False]

    def check(node: ast.AST, boolean: bool) -> None:
        if isinstance(node, ast.BoolOp):
            if not boolean:
                raise PredicateError(f"{text!r}: and/or inside arithmetic (rule: combine comparisons)")
            for v in node.values:
                check(v, True)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            if not boolean:
                raise PredicateError(f"{text!r}: 'not' inside arithmetic (rule: negate a comparison)")
            check(node.operand, True)
        elif isinstance(node, ast.Compare):
            if not boolean:
                raise PredicateError(f"{text!r}: a comparison inside arithmetic")
            for op in node.ops:
                if type(op) not in _CMP:
                    raise PredicateError(f"{text!r}: operator {type(op).__name__} is not allowed (rule: "
                                         "<, <=, >, >=, ==, !=)")
            for v in [node.left, *node.comparators]:
                check(v, False)
        elif boolean:
            raise PredicateError(f"{text!r} is not a comparison (rule: e.g. \"retries <= 50\" or "
                                 "\"simulated_time_s <= 1.2 * baseline\")")
        elif isinstance(node, ast.BinOp):
            if type(node.op) not in _ARITH:
                raise PredicateError(f"{text!r}: operator {type(node.op).__name__} is not allowed (rule: + - * /)")
            check(node.left, False)
            check(node.right, False)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            check(node.operand, False)
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise PredicateError(f"{text!r}: {node.value!r} is not a number (rule: numbers in SI units, "
                                     "e.g. 300 for 300 s)")
        elif isinstance(node, ast.Name):
            if node.id == "baseline":
                plain_baseline[0] = True
            else:
                names.append(_known(node.id, known, text))
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "baseline":
            base_names.append(_known(node.attr, known, text))
        else:
            raise PredicateError(f"{text!r}: {ast.unparse(node)!r} is not allowed (rule: metrics, numbers, "
                                 "baseline, baseline.METRIC, + - * /, comparisons, and/or/not)")

    check(tree, True)
    metrics = tuple(dict.fromkeys(names))
    if plain_baseline[0]:
        if len(metrics) != 1:
            raise PredicateError(f"{text!r}: 'baseline' is ambiguous with {len(metrics)} metrics (rule: write "
                                 "baseline.METRIC)")
        base_names.append(metrics[0])
    pred = Predicate(text.strip(), tree, metrics, tuple(dict.fromkeys(base_names)))
    verdict = _Range(pred._subject()).visit(tree)
    if verdict is True:
        raise PredicateError(f"{text!r} cannot fail: it holds for every value the metrics can take "
                             f"({_ranges(pred)}) (rule: an invariant must be able to fail)")
    if verdict is False:
        raise PredicateError(f"{text!r} can never hold: it is false for every value the metrics can take "
                             f"({_ranges(pred)}) (rule: an invariant must be able to hold)")
    return pred


def _known(name: str, known: list[str], text: str) -> str:
    if name in known:
        return name
    close = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    hint = f"; did you mean '{close[0]}'?" if close else ""
    raise PredicateError(f"{text!r}: no metric {name!r} (rule: a summary metric of metrics.json, see "
                         f"docs/scenarios.md){hint}")


def _ranges(p: Predicate) -> str:
    out = []
    for m in dict.fromkeys(p.metrics + p.baseline_metrics):
        lo, hi = metric_range(m)
        out.append(f"{m} in [{lo:g}, {'inf' if math.isinf(hi) else f'{hi:g}'}]")
    return "; ".join(out) or "no metric at all"


class _Eval(ast.NodeVisitor):
    def __init__(self, summary: Mapping[str, Any], baseline: Mapping[str, Any], subject: str | None) -> None:
        self.s, self.b, self.subject = summary, baseline, subject

    def visit_BoolOp(self, n: ast.BoolOp) -> bool:
        vals = (bool(self.visit(v)) for v in n.values)
        return all(vals) if isinstance(n.op, ast.And) else any(vals)

    def visit_UnaryOp(self, n: ast.UnaryOp) -> Any:
        v = self.visit(n.operand)
        return (not v) if isinstance(n.op, ast.Not) else (-v if isinstance(n.op, ast.USub) else v)

    def visit_Compare(self, n: ast.Compare) -> bool:
        left = self.visit(n.left)
        for op, c in zip(n.ops, n.comparators):
            right = self.visit(c)
            if not _compare(type(op), left, right):
                return False
            left = right
        return True

    def visit_BinOp(self, n: ast.BinOp) -> float:
        a, b = self.visit(n.left), self.visit(n.right)
        op = type(n.op)
        if op is ast.Add:
            return a + b
        if op is ast.Sub:
            return a - b
        if op is ast.Mult:
            return a * b
        return a / b

    def visit_Constant(self, n: ast.Constant) -> float:
        return n.value

    def visit_Name(self, n: ast.Name) -> float:
        if n.id == "baseline":
            return float(self.b[self.subject])  # type: ignore[index]
        return float(self.s[n.id])

    def visit_Attribute(self, n: ast.Attribute) -> float:
        return float(self.b[n.attr])


def _compare(op: type, a: float, b: float) -> bool:
    return {ast.Lt: a < b, ast.LtE: a <= b, ast.Gt: a > b, ast.GtE: a >= b, ast.Eq: a == b,
            ast.NotEq: a != b}[op]


# --------------------------------------------------------------------------------------------- ranges
_Iv = tuple  # (lo, hi)


def _mul(a: float, b: float) -> float:
    return 0.0 if a == 0 or b == 0 else a * b


class _Range(ast.NodeVisitor):
    """Interval arithmetic over the metrics' ranges: True/False when the predicate's value is the
    same for every possible input, None when it depends on the run (sound: never claims more)."""

    def __init__(self, subject: str | None) -> None:
        self.subject = subject

    def visit_BoolOp(self, n: ast.BoolOp) -> bool | None:
        vals = [self.visit(v) for v in n.values]
        if isinstance(n.op, ast.And):
            return False if False in vals else (True if all(v is True for v in vals) else None)
        return True if True in vals else (False if all(v is False for v in vals) else None)

    def visit_UnaryOp(self, n: ast.UnaryOp) -> Any:
        v = self.visit(n.operand)
        if isinstance(n.op, ast.Not):
            return None if v is None else not v
        return (-v[1], -v[0]) if isinstance(n.op, ast.USub) else v

    def visit_Compare(self, n: ast.Compare) -> bool | None:
        out: list[bool | None] = []
        left_node, left = n.left, self.visit(n.left)
        for op, c in zip(n.ops, n.comparators):
            right = self.visit(c)
            out.append(_cmp_range(type(op), left, right, ast.dump(left_node) == ast.dump(c)))
            left_node, left = c, right
        return False if False in out else (True if all(v is True for v in out) else None)

    def visit_BinOp(self, n: ast.BinOp) -> _Iv:
        (a0, a1), (b0, b1) = self.visit(n.left), self.visit(n.right)
        op = type(n.op)
        if op is ast.Add:
            return (a0 + b0, a1 + b1)
        if op is ast.Sub:
            return (a0 - b1, a1 - b0)
        if op is ast.Div:
            if b0 <= 0 <= b1:
                return (-math.inf, math.inf)
            b0, b1 = 1.0 / b1, 1.0 / b0
        ps = [_mul(x, y) for x in (a0, a1) for y in (b0, b1)]
        return (min(ps), max(ps))

    def visit_Constant(self, n: ast.Constant) -> _Iv:
        return (float(n.value), float(n.value))

    def visit_Name(self, n: ast.Name) -> _Iv:
        return metric_range(self.subject if n.id == "baseline" and self.subject else n.id)

    def visit_Attribute(self, n: ast.Attribute) -> _Iv:
        return metric_range(n.attr)


def _cmp_range(op: type, a: _Iv, b: _Iv, same: bool) -> bool | None:
    if same:   # x <= x, x == x, x < x, ...
        return op in (ast.LtE, ast.GtE, ast.Eq)
    if op is ast.Gt:
        op, a, b = ast.Lt, b, a
    elif op is ast.GtE:
        op, a, b = ast.LtE, b, a
    if op is ast.Lt:
        return True if a[1] < b[0] else (False if a[0] >= b[1] else None)
    if op is ast.LtE:
        return True if a[1] <= b[0] else (False if a[0] > b[1] else None)
    eq = True if a[0] == a[1] == b[0] == b[1] else (False if a[1] < b[0] or a[0] > b[1] else None)
    if op is ast.Eq:
        return eq
    return None if eq is None else not eq
