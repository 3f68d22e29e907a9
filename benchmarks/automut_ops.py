"""Mutation operators of benchmarks/auto_mutants.py over a Python file's AST.

`sites(path, source)` lists every place an operator applies, as a byte span of the source and
its replacement; `apply(source, site)` replaces that span only, so the rest of the file stays
byte-identical. Operators (the `op` names):

    arith        + <-> -, * <-> /, // -> /   (binary operators and augmented assignments)
    compare      < <-> <=, > <-> >=, == <-> !=
    constant     0 -> 1, 1 -> 0, c -> c + 1 (int and float literals); -1 -> 1 (axes)
    neg-dropped  -x -> x (unary minus of a non-literal)
    bool         True <-> False
    boolop       and <-> or
    kwarg        a keyword argument of a call dropped (its default then applies)
    swap         two adjacent positional arguments of a call swapped
    not-dropped  not x -> x

Left alone: annotations, docstrings and other strings, f-strings, `raise` and `assert` statements
(messages and internal checks), and `if TYPE_CHECKING:` blocks. `sample` picks sites with a
seeded generator over the sites in source order, so a seed names the same mutants on every run.
"""

from __future__ import annotations

import ast
import random
from dataclasses import dataclass

OPERATORS = ("arith", "compare", "constant", "neg-dropped", "bool", "boolop", "kwarg", "swap", "not-dropped")

_ARITH = {ast.Add: ("+", "-"), ast.Sub: ("-", "+"), ast.Mult: ("*", "/"), ast.Div: ("/", "*"),
          ast.FloorDiv: ("//", "/")}
_COMPARE = {ast.Lt: ("<", "<="), ast.LtE: ("<=", "<"), ast.Gt: (">", ">="), ast.GtE: (">=", ">"),
            ast.Eq: ("==", "!="), ast.NotEq: ("!=", "==")}


@dataclass(frozen=True, order=True)
class Site:
    """One mutant: bytes [start, end) of `path`'s source become `new`."""
    path: str
    start: int
    end: int
    op: str
    old: str
    new: str
    line: int          # the line of the mutated text
    cover_from: int    # the lines whose tests may reach the mutant: cover_from..cover_to
    cover_to: int
    scope: str = ""    # the innermost enclosing function ("" at module or class level)
    grad: bool = False   # inside a gradient function (decorated @RegisterGradient or named *grad*)

    @property
    def id(self) -> str:
        return f"{self.path}:{self.line}:{self.op}:{self.start}"

    def describe(self) -> str:
        return f"{self.path}:{self.line} [{self.op}] {self.old!r} -> {self.new!r}"


def apply(source: bytes, site: Site) -> bytes:
    """`source` with `site` planted; ValueError if the span no longer holds the expected text."""
    seg = source[site.start:site.end].decode("utf-8")
    if seg != site.old:
        raise ValueError(f"{site.id}: expected {site.old!r} at bytes {site.start}..{site.end}, found {seg!r}")
    return source[:site.start] + site.new.encode("utf-8") + source[site.end:]


class _Spans:
    def __init__(self, source: bytes):
        self.src = source
        self.starts = [0]
        for i, b in enumerate(source):
            if b == 0x0A:
                self.starts.append(i + 1)

    def start(self, node) -> int:
        return self.starts[node.lineno - 1] + node.col_offset

    def end(self, node) -> int:
        return self.starts[node.end_lineno - 1] + node.end_col_offset

    def text(self, a: int, b: int) -> str:
        return self.src[a:b].decode("utf-8")

    def line_of(self, offset: int) -> int:
        lo, hi = 0, len(self.starts) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self.starts[mid] <= offset:
                lo = mid
            else:
                hi = mid - 1
        return lo + 1


def _find_token(spans: _Spans, a: int, b: int, token: str) -> int | None:
    """Offset of `token` between a and b outside comments and brackets' whitespace; None if absent."""
    seg = spans.text(a, b)
    i = 0
    while i < len(seg):
        c = seg[i]
        if c == "#":
            nl = seg.find("\n", i)
            if nl < 0:
                return None
            i = nl + 1
            continue
        if seg.startswith(token, i):
            after = seg[i + len(token):i + len(token) + 1]
            if token in ("*", "/", "<", ">", "+", "-") and after in ("*", "/", "=", "<", ">"):
                i += 2
                continue
            if token.isalpha() and (after.isalnum() or after == "_" or (i > 0 and (seg[i - 1].isalnum() or seg[i - 1] == "_"))):
                i += 1
                continue
            return a + len(seg[:i].encode("utf-8"))
        i += 1
    return None


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _skipped_children(node: ast.AST) -> set[int]:
    """ids of subtrees no operator enters."""
    out: set[int] = set()
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        if node.returns is not None:
            out.add(id(node.returns))
        for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs, node.args.vararg, node.args.kwarg]:
            if a is not None and a.annotation is not None:
                out.add(id(a.annotation))
    if isinstance(node, ast.AnnAssign):
        out.add(id(node.annotation))
    if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
        out.update(id(s) for s in node.body)
    return out


_HEADER = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.If, ast.While, ast.For, ast.AsyncFor,
           ast.With, ast.AsyncWith, ast.Try)


def sites(path: str, source: bytes) -> list[Site]:
    """Every mutant of every operator in `source` (the file at repository-relative `path`), in source order."""
    tree = ast.parse(source)
    spans = _Spans(source)
    found: list[Site] = []
    where: list[tuple[str, bool]] = [("", False)]

    def cover(stmt: ast.stmt, node: ast.AST) -> tuple[int, int]:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # a default value or decorator runs at import: the tests that call the function reach it
            body = [s for s in stmt.body if not _is_docstring(s)] or stmt.body
            return body[0].lineno, stmt.end_lineno or body[0].lineno
        return stmt.lineno, node.end_lineno or node.lineno

    def add(stmt: ast.stmt, node: ast.AST, op: str, a: int, b: int, new: str) -> None:
        old = spans.text(a, b)
        if old == new:
            return
        lo, hi = cover(stmt, node)
        found.append(Site(path, a, b, op, old, new, spans.line_of(a), lo, hi, *where[-1]))

    def visit_expr(node: ast.AST, stmt: ast.stmt) -> None:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
            tok, rep = _ARITH[type(node.op)]
            at = _find_token(spans, spans.end(node.left), spans.start(node.right), tok)
            if at is not None:
                add(stmt, node, "arith", at, at + len(tok), rep)
        if isinstance(node, ast.Compare):
            prev = node.left
            for op, right in zip(node.ops, node.comparators):
                if type(op) in _COMPARE:
                    tok, rep = _COMPARE[type(op)]
                    at = _find_token(spans, spans.end(prev), spans.start(right), tok)
                    if at is not None:
                        add(stmt, node, "compare", at, at + len(tok), rep)
                prev = right
        if isinstance(node, ast.BoolOp):
            tok, rep = ("and", "or") if isinstance(node.op, ast.And) else ("or", "and")
            for a, b in zip(node.values, node.values[1:]):
                at = _find_token(spans, spans.end(a), spans.start(b), tok)
                if at is not None:
                    add(stmt, node, "boolop", at, at + len(tok), rep)
        if isinstance(node, ast.UnaryOp):
            if isinstance(node.op, ast.USub):
                if isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float):
                    if node.operand.value == 1:
                        add(stmt, node, "constant", spans.start(node), spans.end(node), "1")
                    return   # -c: the constant itself is mutated below only through this rule
                add(stmt, node, "neg-dropped", spans.start(node), spans.start(node.operand), "")
            if isinstance(node.op, ast.Not):
                add(stmt, node, "not-dropped", spans.start(node), spans.start(node.operand), "")
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, bool):
                add(stmt, node, "bool", spans.start(node), spans.end(node), "False" if v else "True")
            elif type(v) is int:
                add(stmt, node, "constant", spans.start(node), spans.end(node), "1" if v == 0 else "0" if v == 1 else str(v + 1))
            elif type(v) is float:
                new = "1.0" if v == 0.0 else "0.0" if v == 1.0 else repr(v + 1.0)
                add(stmt, node, "constant", spans.start(node), spans.end(node), new)
        if isinstance(node, ast.Call):
            elems = sorted([*node.args, *node.keywords], key=lambda e: (e.lineno, e.col_offset))
            for i, e in enumerate(elems):
                if isinstance(e, ast.keyword) and e.arg is not None:
                    if i > 0:
                        a, b = spans.end(elems[i - 1]), spans.end(e)
                    elif len(elems) > 1:
                        a, b = spans.start(e), spans.start(elems[1])
                    else:
                        a, b = spans.start(e), spans.end(e)
                    add(stmt, node, "kwarg", a, b, "")
            pos = node.args
            if not any(isinstance(x, ast.Starred) for x in pos):
                for x, y in zip(pos, pos[1:]):
                    xa, xb, ya, yb = spans.start(x), spans.end(x), spans.start(y), spans.end(y)
                    tx, ty = spans.text(xa, xb), spans.text(ya, yb)
                    if tx != ty:
                        add(stmt, node, "swap", xa, yb, ty + spans.text(xb, ya) + tx)
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.stmt, ast.excepthandler)):
                visit_expr(child, stmt)

    def visit_stmt(stmt: ast.AST) -> None:
        if isinstance(stmt, (ast.Raise, ast.Assert, ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            return
        if _is_docstring(stmt):   # type: ignore[arg-type]
            return
        if isinstance(stmt, ast.AugAssign) and type(stmt.op) in _ARITH:
            tok, rep = _ARITH[type(stmt.op)]
            at = _find_token(spans, spans.end(stmt.target), spans.start(stmt.value), tok + "=")
            if at is not None:
                add(stmt, stmt, "arith", at, at + len(tok) + 1, rep + "=")
        skip = _skipped_children(stmt)
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            deco = any("Gradient" in ast.unparse(d) for d in stmt.decorator_list)
            where.append((stmt.name, where[-1][1] or deco or "grad" in stmt.name.lower()))
        for child in ast.iter_child_nodes(stmt):
            if id(child) in skip:
                continue
            if isinstance(child, ast.excepthandler):
                for s in child.body:
                    visit_stmt(s)
            elif isinstance(child, ast.stmt):
                visit_stmt(child)
            elif isinstance(child, (ast.expr, ast.keyword, ast.arguments, ast.withitem, ast.comprehension)):
                if isinstance(child, ast.arguments):
                    for d in [*child.defaults, *[k for k in child.kw_defaults if k is not None]]:
                        visit_expr(d, stmt)   # type: ignore[arg-type]
                else:
                    visit_expr(child, stmt)   # type: ignore[arg-type]
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            where.pop()

    for s in tree.body:
        visit_stmt(s)
    return sorted(set(found))


def sample(candidates: list[Site], n: int, seed: int, path: str) -> list[Site]:
    """`n` of `candidates` (all if fewer), chosen by a generator seeded with (seed, path); sorted."""
    pool = sorted(candidates)
    if n >= len(pool):
        return pool
    rng = random.Random(f"{seed}:{path}")
    return sorted(rng.sample(pool, n))
