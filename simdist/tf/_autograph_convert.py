"""AutoGraph's source conversion of a function tf.function traces (TF 2.21's autograph/converters:
control_flow.py, return_statements.py, break_statements.py, continue_statements.py, logical_expressions.py,
conditional_expressions.py, directives.py; clause function.autograph).

TF rewrites the Python source of the user's function before it traces it: an `if`, `while` or `for`
becomes a call of an operator (`ag__.if_stmt`, `while_stmt`, `for_stmt`) given the statement's blocks as
nested functions that write the variables they modify through `nonlocal`, with `get_state` and `set_state`
functions over those variables; `and`, `or`, `not` and `x if c else y` become `ag__.and_`, `or_`, `not_`,
`if_exp` of lambdas; `return` inside a conditional becomes `do_return`/`retval_` assignments, the rest of
the function moved into the other branch or guarded by `if not do_return`; `break` and `continue` become
flags that guard the rest of the loop body and end the loop; `tf.autograph.experimental.set_loop_options`
in a loop body becomes the loop's options. The operators (simdist/tf/_autograph_ops.py) run a statement
as plain Python when its condition is not a tensor, so a program without a tensor condition runs as it
is written, and as tf.cond / tf.while_loop otherwise.

simdist converts the same way, with Python's `ast`, once per code object (a cache). A function it cannot
convert (no readable source, a lambda, a generator, `global`/`nonlocal` declarations, private names a
class would mangle) runs unconverted, as before; a statement it does not convert (a loop with an `else`
or a `return` inside it, `yield`, a `try` around a `return`) stays Python. Calls of other user functions
are converted when called from converted code, as TF's converted_call converts them (`ag__.converted_call(f)`
gives f converted when it is a user function AutoGraph converts, f itself otherwise).
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import types
import weakref
from typing import Any, Callable

__all__ = ["converted"]

_CACHE: dict[Any, Any] = {}          # code object -> converted code object, or None (not converted)
_FUNCS: "weakref.WeakKeyDictionary[Any, Any]" = weakref.WeakKeyDictionary()   # function -> converted function
_AG = "ag__"
_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))   # (called as they are: a builtin is never converted)


def converted(fn: Callable[..., Any]) -> Callable[..., Any]:
    """fn as AutoGraph converts it (fn itself where it does not: see the module's docstring)."""
    if isinstance(fn, types.MethodType):
        inner = converted(fn.__func__)
        return fn if inner is fn.__func__ else types.MethodType(inner, fn.__self__)
    if not isinstance(fn, types.FunctionType):
        return fn
    try:
        got = _FUNCS.get(fn)
    except TypeError:
        got = None
    if got is not None:
        return got
    code = fn.__code__
    new_code = _CACHE.get(code, False)
    if new_code is False:
        try:
            new_code = _convert_code(fn)
        except Exception:   # (what the converter does not handle runs unconverted, as TF's fallback)
            new_code = None
        _CACHE[code] = new_code
    if new_code is None:
        out = fn
    else:
        from simdist.tf import _autograph_ops
        cells = dict(zip(code.co_freevars, fn.__closure__ or ()))
        closure = tuple(cells[n] if n in cells else types.CellType(_autograph_ops) for n in new_code.co_freevars)
        out = types.FunctionType(new_code, fn.__globals__, fn.__name__, fn.__defaults__, closure)
        out.__kwdefaults__ = fn.__kwdefaults__
        out.__qualname__ = fn.__qualname__
        out.__module__ = fn.__module__
        out.__doc__ = fn.__doc__
        out.__dict__.update(fn.__dict__)
        out.__wrapped__ = fn
    try:
        _FUNCS[fn] = out
    except TypeError:
        pass
    return out


# --- the conversion ---------------------------------------------------------------------------------------


def _convert_code(fn: types.FunctionType) -> Any:
    code = fn.__code__
    if code.co_name == "<lambda>" or code.co_flags & (inspect.CO_GENERATOR | inspect.CO_COROUTINE
                                                      | inspect.CO_ASYNC_GENERATOR):
        return None
    src = textwrap.dedent(inspect.getsource(fn))
    tree = ast.parse(src)
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef) or tree.body[0].name != code.co_name:
        return None
    fdef = tree.body[0]
    for node in ast.walk(fdef):
        if isinstance(node, (ast.Global, ast.Nonlocal, ast.Yield, ast.YieldFrom, ast.Await)):
            return None
        name = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if name and name.startswith("__") and not name.endswith("__"):
            return None   # (a private name the class body would mangle)
        if isinstance(node, ast.Name) and node.id in (_AG, "super"):
            return None   # (super() reads the class cell its own compilation makes)
    fdef.decorator_list = []
    conv = _Converter()
    body = conv.function_body(fdef)
    if not conv.changed:
        return None
    fdef.body = body
    free = list(code.co_freevars)
    factory = ast.FunctionDef(
        name="__ag_factory", args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=n) for n in free + [_AG]],
                                                kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[fdef, ast.Return(value=ast.Name(id=fdef.name, ctx=ast.Load()))], decorator_list=[], returns=None,
        type_comment=None)
    mod = ast.Module(body=[factory], type_ignores=[])
    ast.fix_missing_locations(mod)
    ast.increment_lineno(mod, code.co_firstlineno - 1)
    compiled = compile(mod, code.co_filename, "exec", dont_inherit=True)
    fcode = next(c for c in compiled.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in fcode.co_consts if isinstance(c, types.CodeType) and c.co_name == code.co_name)
    if any(n not in code.co_freevars and n != _AG for n in inner.co_freevars):
        return None
    if _header_unbound(fn, fdef):
        # (TF's transpiler runs the converted `def` inside its factory, whose scope holds the function's free
        # variables, the module's globals and the builtins only: an annotation (evaluated unless the module has
        # `from __future__ import annotations`) naming another variable of the enclosing function, `def mi(x: T)`
        # with T unused in the body, is the factory's NameError, and AutoGraph runs the function
        # unconverted, its graph tensors' truth refused there; fix65a's probe12.py, fix66t)
        from simdist.runtime import symbolic
        symbolic.not_converted(code)
        return None
    if any(n not in inner.co_freevars for n in code.co_freevars):
        # (TF's transpiler instantiates the converted code with the source's closure by the names the converted
        # code still reads: a closure variable only a removed directive read, `tf` of an inner function's
        # `tf.autograph.experimental.set_loop_options(...)`, is its ValueError "closure mismatch", and the function
        # runs unconverted, its graph tensors' truth refused there; pyct/transpiler.py `instantiate`, tsweep65)
        from simdist.runtime import symbolic
        symbolic.not_converted(code)
        return None
    return inner


def _header_unbound(fn: types.FunctionType, fdef: ast.FunctionDef) -> bool:
    """Whether evaluating `fdef`'s annotations (unless the module defers them) in TF's factory scope - `fn`'s free
    variables, its globals, the builtins - meets a name none of them binds (defaults are not evaluated there: a
    default naming a variable of the enclosing function converts; probe12f.py)."""
    import __future__
    a = fdef.args
    exprs: list[ast.expr] = []
    if not fn.__code__.co_flags & __future__.annotations.compiler_flag:
        params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]
        exprs += [p.annotation for p in params if p.annotation is not None]
        if fdef.returns is not None:
            exprs.append(fdef.returns)
    bound = set(fn.__code__.co_freevars) | set(fn.__globals__) | _BUILTIN_NAMES
    for e in exprs:
        nodes = list(ast.walk(e))
        if any(isinstance(n, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.NamedExpr))
               for n in nodes):
            continue   # (names it binds itself: not asked)
        if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in bound for n in nodes):
            return True
    return False


def _ag(attr: str) -> ast.expr:
    return ast.Attribute(value=ast.Name(id=_AG, ctx=ast.Load()), attr=attr, ctx=ast.Load())


def _call(attr: str, *args: ast.expr, keywords: list | None = None) -> ast.Call:
    return ast.Call(func=_ag(attr), args=list(args), keywords=keywords or [])


def _name(n: str, store: bool = False) -> ast.Name:
    return ast.Name(id=n, ctx=ast.Store() if store else ast.Load())


def _assign(n: str, value: ast.expr) -> ast.Assign:
    return ast.Assign(targets=[_name(n, True)], value=value, lineno=0)


def _lambda(body: ast.expr) -> ast.Lambda:
    return ast.Lambda(args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
                      body=body)


def _def(name: str, params: list[str], body: list[ast.stmt], nonlocals: list[str]) -> ast.FunctionDef:
    stmts: list[ast.stmt] = [ast.Nonlocal(names=list(nonlocals))] if nonlocals else []
    stmts += body or [ast.Pass()]
    return ast.FunctionDef(name=name, args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=p) for p in params],
                                                         kwonlyargs=[], kw_defaults=[], defaults=[]),
                           body=stmts, decorator_list=[], returns=None, type_comment=None)


def _scoped_walk(node: ast.AST):
    """The nodes of node, not descending into nested functions, lambdas, classes or comprehensions (their
    own scopes), whose headers (default values, decorators) are still walked."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        for c in ast.iter_child_nodes(n):
            if isinstance(c, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield c
                todo.extend(c.decorator_list + c.args.defaults + [d for d in c.args.kw_defaults if d is not None])
            elif isinstance(c, (ast.Lambda, ast.ClassDef, ast.ListComp, ast.SetComp, ast.DictComp,
                                ast.GeneratorExp)):
                yield c
            else:
                todo.append(c)


def _modified(stmts: list[ast.stmt]) -> list[str]:
    """The names a block binds in its own scope, in order of appearance."""
    out: list[str] = []
    for s in stmts:
        for n in _scoped_walk(s):
            names: list[str] = []
            if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del)):
                names = [n.id]
            elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names = [n.name]
            elif isinstance(n, ast.alias):
                names = [(n.asname or n.name).split(".")[0]]
            elif isinstance(n, ast.ExceptHandler) and n.name:
                names = [n.name]
            elif isinstance(n, ast.NamedExpr):
                names = [n.target.id]
            for x in names:
                if x not in out:
                    out.append(x)
    return out


def _loads(node: Any) -> set[str]:
    """Every name node reads, nested scopes included (a free variable of a nested function is read)."""
    nodes = node if isinstance(node, list) else [node]
    out: set[str] = set()
    for top in nodes:
        for n in ast.walk(top):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
                out.add(n.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                out.add(n.target.id)
    return out


def _kills(s: ast.stmt) -> set[str]:
    """The names a statement surely binds (a plain assignment)."""
    if isinstance(s, ast.Assign):
        return {n.id for t in s.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
    if isinstance(s, ast.AnnAssign) and s.value is not None and isinstance(s.target, ast.Name):
        return {s.target.id}
    return set()


def _live_before(stmts: list[ast.stmt], live_after: set[str]) -> set[str]:
    live = set(live_after)
    for s in reversed(stmts):
        live = (live - _kills(s)) | _loads(s)
    return live


def _contains(stmts: list[ast.stmt], kinds: tuple, loops: bool = True) -> bool:
    """Whether the block holds a statement of kinds (not in nested scopes; not in nested loops unless loops)."""
    todo: list[ast.AST] = list(stmts)
    while todo:
        n = todo.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if not loops and isinstance(n, (ast.For, ast.While, ast.AsyncFor)):
            todo.extend(n.orelse)
            continue
        todo.extend(ast.iter_child_nodes(n))
    return False


def _is_directive(s: ast.stmt) -> bool:
    return isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and (
        (isinstance(s.value.func, ast.Attribute) and s.value.func.attr == "set_loop_options")
        or (isinstance(s.value.func, ast.Name) and s.value.func.id == "set_loop_options"))


class _Converter:
    def __init__(self) -> None:
        self.n = 0
        self.changed = False

    def fresh(self, base: str) -> str:
        self.n += 1
        return f"{base}_{self.n}"

    # --- the function --------------------------------------------------------------------------------------
    def function_body(self, fdef: ast.FunctionDef) -> list[ast.stmt]:
        body = fdef.body
        if _needs_return_lowering(body):
            lowered = _lower_returns(body)
            self.changed = True
            body = [_assign("do_return", ast.Constant(False)),
                    _assign("retval_", _call("UndefinedReturnValue"))] + lowered[0] + \
                [ast.Return(value=_call("retval", _name("retval_")))]
        return self.block(body, set())

    # --- blocks and statements -----------------------------------------------------------------------------
    def block(self, stmts: list[ast.stmt], live_after: set[str]) -> list[ast.stmt]:
        out: list[ast.stmt] = []
        for i, s in enumerate(stmts):
            after = _live_before(stmts[i + 1:], live_after)
            out.extend(self.stmt(s, after))
        return out

    def stmt(self, s: ast.stmt, live_after: set[str]) -> list[ast.stmt]:
        if isinstance(s, ast.If):
            return self.if_(s, live_after)
        if isinstance(s, ast.While):
            return self.while_(s, live_after)
        if isinstance(s, ast.For):
            return self.for_(s, live_after)
        if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return [s]   # (nested scopes: converted when called, by TF; simdist leaves them)
        if isinstance(s, (ast.With, ast.AsyncWith)):
            s.items = [ast.withitem(context_expr=self.expr(i.context_expr), optional_vars=i.optional_vars)
                       for i in s.items]
            s.body = self.block(s.body, live_after)
            return [s]
        if isinstance(s, ast.Try):
            s.body = self.block(s.body, live_after | _loads(s.handlers + s.finalbody + s.orelse))
            for h in s.handlers:
                h.body = self.block(h.body, live_after | _loads(s.finalbody))
            s.orelse = self.block(s.orelse, live_after | _loads(s.finalbody))
            s.finalbody = self.block(s.finalbody, live_after)
            return [s]
        if isinstance(s, ast.Assert):
            # (AutoGraph leaves `assert` Python without Feature.ASSERT_STATEMENTS: a graph tensor's truth is refused)
            self.changed = True
            s = self.exprs_in(s)
            s.test = ast.copy_location(_call("truth", s.test), s.test)
            return [s]
        return [self.exprs_in(s)]

    def exprs_in(self, s: ast.stmt) -> ast.stmt:
        return _Exprs(self).visit(s)

    def expr(self, e: ast.expr) -> ast.expr:
        return _Exprs(self).visit(e)

    def _state_fns(self, names: list[str], k: str) -> tuple[list[ast.stmt], str, str]:
        get, set_ = f"get_state_{k}", f"set_state_{k}"
        tup = ast.Tuple(elts=[_name(n) for n in names], ctx=ast.Load())
        get_fn = _def(get, [], [ast.Return(value=tup)], [])
        if names:
            set_fn = _def(set_, ["vars_"], [ast.Assign(targets=[ast.Tuple(elts=[_name(n, True) for n in names],
                                                                          ctx=ast.Store())],
                                                       value=_name("vars_"), lineno=0)], names)
        else:
            set_fn = _def(set_, ["vars_"], [ast.Pass()], [])
        return [get_fn, set_fn], get, set_

    @staticmethod
    def _undefined(names: list[str]) -> list[ast.stmt]:
        """`try: n` / `except NameError: n = ag__.Undefined('n')` for each name: a name not bound yet
        is AutoGraph's Undefined (the nested functions' `nonlocal` needs it bound here)."""
        out: list[ast.stmt] = []
        for n in names:
            out.append(ast.Try(body=[ast.Expr(value=_name(n))],
                               handlers=[ast.ExceptHandler(type=_name("NameError"), name=None,
                                                           body=[_assign(n, _call("Undefined", ast.Constant(n)))])],
                               orelse=[], finalbody=[]))
        return out

    def if_(self, s: ast.If, live_after: set[str]) -> list[ast.stmt]:
        if _contains(s.body + s.orelse, (ast.Return, ast.Break, ast.Continue), loops=False) or \
                _contains(s.body + s.orelse, (ast.Return,)):
            s.test = self.expr(s.test)
            s.body = self.block(s.body, live_after)
            s.orelse = self.block(s.orelse, live_after)
            return [s]
        self.changed = True
        k = str(self.fresh("if"))[3:]
        mods = _modified(s.body + s.orelse)
        outs = [n for n in mods if n in live_after]
        reads = _loads(s.body + s.orelse)
        state = outs + [n for n in mods if n not in outs and n in reads]
        body = self.block(s.body, live_after)
        orelse = self.block(s.orelse, live_after)
        fns, get, set_ = self._state_fns(state, k)
        b, e = f"if_body_{k}", f"else_body_{k}"
        call = _call("if_stmt", self.expr(s.test), _name(b), _name(e), _name(get), _name(set_),
                     ast.Tuple(elts=[ast.Constant(n) for n in state], ctx=ast.Load()), ast.Constant(len(outs)))
        return fns + [_def(b, [], body, state), _def(e, [], orelse, state)] + self._undefined(state) + \
            [ast.Expr(value=call)]

    def _loop_parts(self, s: ast.stmt) -> tuple[list[ast.stmt], list[ast.keyword], bool]:
        """The loop body without its set_loop_options directives, their keywords, and whether break/continue
        were lowered (the body then sets `break_`)."""
        body = [x for x in s.body if not _is_directive(x)]
        kws = [kw for x in s.body if _is_directive(x) for kw in x.value.keywords]
        has_break = _contains(body, (ast.Break,), loops=False)
        if _contains(body, (ast.Break, ast.Continue), loops=False):
            body = _lower_jumps(body, has_break, _contains(body, (ast.Continue,), loops=False))
        return body, kws, has_break

    def _opts(self, kws: list[ast.keyword], extra: dict[str, ast.expr]) -> ast.Dict:
        keys = [ast.Constant(kw.arg) for kw in kws if kw.arg] + [ast.Constant(k) for k in extra]
        vals = [self.expr(kw.value) for kw in kws if kw.arg] + list(extra.values())
        return ast.Dict(keys=keys, values=vals)

    def while_(self, s: ast.While, live_after: set[str]) -> list[ast.stmt]:
        if s.orelse or _contains(s.body, (ast.Return,)):
            s.test = self.expr(s.test)
            s.body = self.block(s.body, live_after | _loads(s))
            return [s]
        self.changed = True
        k = str(self.fresh("w"))[2:]
        body, kws, has_break = self._loop_parts(s)
        test = s.test
        if has_break:
            test = ast.BoolOp(op=ast.And(), values=[ast.UnaryOp(op=ast.Not(), operand=_name("break_")), test])
        end = live_after | _loads(test)
        live_in = _live_before(body, end)
        live_in = _live_before(body, end | live_in)
        mods = _modified(body)
        state = [n for n in mods if n in live_after or n in live_in or n in _loads(test)]
        conv_body = self.block(body, end | live_in)
        fns, get, set_ = self._state_fns(state, k)
        b, t = f"loop_body_{k}", f"loop_test_{k}"
        pre = [_assign("break_", ast.Constant(False))] if has_break else []
        call = _call("while_stmt", _name(t), _name(b), _name(get), _name(set_),
                     ast.Tuple(elts=[ast.Constant(n) for n in state], ctx=ast.Load()), self._opts(kws, {}))
        return pre + fns + [_def(b, [], conv_body, state), _def(t, [], [ast.Return(value=self.expr(test))], [])] + \
            self._undefined(state) + [ast.Expr(value=call)]

    def for_(self, s: ast.For, live_after: set[str]) -> list[ast.stmt]:
        if s.orelse or _contains(s.body, (ast.Return,)) or getattr(s, "type_comment", None):
            s.iter = self.expr(s.iter)
            s.body = self.block(s.body, live_after | _loads(s))
            return [s]
        self.changed = True
        k = str(self.fresh("f"))[2:]
        body, kws, has_break = self._loop_parts(s)
        body = [ast.Assign(targets=[s.target], value=_name("itr"), lineno=0)] + body
        tests = ([getattr(s, "_ag_extra")] if hasattr(s, "_ag_extra") else []) + \
            ([ast.UnaryOp(op=ast.Not(), operand=_name("break_"))] if has_break else [])
        end = set(live_after) | _loads(tests)
        live_in = _live_before(body, end)
        live_in = _live_before(body, end | live_in)
        mods = _modified(body)
        state = [n for n in mods if n in live_after or n in live_in]
        conv_body = self.block(body, end | live_in)
        fns, get, set_ = self._state_fns(state, k)
        b = f"loop_body_{k}"
        pre = [_assign("break_", ast.Constant(False))] if has_break else []
        extra: list[ast.stmt] = []
        test: ast.expr = ast.Constant(None)
        if tests:
            x = f"extra_test_{k}"
            cond = tests[0] if len(tests) == 1 else ast.BoolOp(op=ast.And(), values=tests)
            extra = [_def(x, [], [ast.Return(value=self.expr(cond))], [])]
            test = _name(x)
        it = s.iter
        if isinstance(it, ast.Call) and ((isinstance(it.func, ast.Name) and it.func.id == "range") or
                                         (isinstance(it.func, ast.Attribute) and it.func.attr == "range")):
            it = _call("range_call", self.expr(it.func), *[self.expr(a) for a in it.args],
                       keywords=[ast.keyword(arg=kw.arg, value=self.expr(kw.value)) for kw in it.keywords])
        else:
            it = self.expr(it)
        targets = [n.id for n in ast.walk(s.target) if isinstance(n, ast.Name)]
        opts = self._opts(kws, {"iterate_names": ast.Constant(", ".join(targets))})
        call = _call("for_stmt", it, test, _name(b), _name(get), _name(set_),
                     ast.Tuple(elts=[ast.Constant(n) for n in state], ctx=ast.Load()), opts)
        return pre + fns + [_def(b, ["itr"], conv_body, state)] + extra + self._undefined(state) + \
            [ast.Expr(value=call)]


class _Exprs(ast.NodeTransformer):
    """`and`/`or`/`not` and conditional expressions as AutoGraph's operators (not in nested scopes)."""

    def __init__(self, conv: _Converter) -> None:
        self.conv = conv

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        return node

    def _comp(self, node: ast.AST) -> ast.AST:
        # (AutoGraph leaves comprehensions Python: the truth of an `if` clause of a graph tensor is refused)
        for gen in node.generators:
            if gen.ifs:
                self.conv.changed = True
                gen.ifs = [ast.copy_location(_call("truth", c), c) for c in gen.ifs]
        return node
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comp

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        f = node.func
        if isinstance(f, ast.Name) and f.id == "len" and len(node.args) == 1 and not node.keywords:
            self.conv.changed = True   # (py_builtins.len_: a tensor's first dimension, a tensor where unknown)
            return ast.copy_location(_call("len_", node.args[0]), node)
        if isinstance(f, ast.Name) and f.id == "bool":
            self.conv.changed = True   # (Python's truth, refused for a graph tensor: _autograph_ops.bool_)
            return ast.copy_location(ast.Call(func=_ag("bool_"), args=[f] + node.args, keywords=node.keywords), node)
        if isinstance(f, ast.Name) and f.id in _BUILTIN_NAMES:
            return node
        node.func = ast.copy_location(_call("converted_call", f), f)   # (converted_call: a user function converted)
        self.conv.changed = True
        return node

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.AST:
        self.generic_visit(node)
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
            return node
        self.conv.changed = True
        op = "and_" if isinstance(node.op, ast.And) else "or_"
        out = node.values[-1]
        for v in reversed(node.values[:-1]):
            out = _call(op, _lambda(v), _lambda(out))
        return ast.copy_location(out, node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.AST:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Not):
            return node
        self.conv.changed = True
        return ast.copy_location(_call("not_", node.operand), node)

    def visit_IfExp(self, node: ast.IfExp) -> ast.AST:
        self.generic_visit(node)
        if any(isinstance(n, ast.NamedExpr) for n in ast.walk(node)):
            return node
        self.conv.changed = True
        return ast.copy_location(_call("if_exp", node.test, _lambda(node.body), _lambda(node.orelse),
                                       ast.Constant(ast.unparse(node.test))), node)


# --- return, break and continue -------------------------------------------------------------------------------


def _needs_return_lowering(body: list[ast.stmt]) -> bool:
    """A return inside a compound statement (return_statements.py lowers every function; one whose returns are
    all at its top level is the same lowered or not, so it is left alone)."""
    return any(not isinstance(s, (ast.Return, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and
               _contains([s], (ast.Return,)) for s in body)


def _lower_returns(body: list[ast.stmt]) -> tuple[list[ast.stmt], bool]:
    """The function body with its returns lowered as TF 2.21 lowers them, in its two passes:
    ConditionalReturnRewriter (the statements after an `if` whose body surely returns move into its `else`,
    and the other way round; moved after the `if`'s own blocks were rewritten) then ReturnStatementsTransformer
    (`return v` as `do_return = True; retval_ = v`, the statements after one that returns somewhere guarded by
    `if not do_return`, a loop that returns ended by `not do_return`)."""
    body, _ = _cr_block(body)
    return _rs_block(body, []), False


def _cr_block(stmts: list[ast.stmt]) -> tuple[list[ast.stmt], bool]:
    state = {"returns": False}
    results: list[ast.stmt] = []
    dest = results
    for node in stmts:
        flags = _cr_stmt(node, state)
        dest.append(node)
        if isinstance(node, ast.If) and flags[0]:
            dest = node.orelse
        elif isinstance(node, ast.If) and flags[1]:
            dest = node.body
    return results, state["returns"]


def _cr_stmt(node: ast.stmt, state: dict) -> tuple[bool, bool]:
    if isinstance(node, ast.Return):
        state["returns"] = True
    elif isinstance(node, ast.If):
        node.body, b = _cr_block(node.body)
        node.orelse, o = _cr_block(node.orelse)
        if b and o:
            state["returns"] = True
        return b, o
    elif isinstance(node, (ast.While, ast.For)):
        node.body, _ = _cr_block(node.body)
        node.orelse, _ = _cr_block(node.orelse)
    elif isinstance(node, ast.With):
        node.body, d = _cr_block(node.body)
        if d:
            state["returns"] = True
    elif isinstance(node, ast.Try):
        node.body, _ = _cr_block(node.body)
        node.orelse, _ = _cr_block(node.orelse)
        node.finalbody, _ = _cr_block(node.finalbody)
        for h in node.handlers:
            h.body, _ = _cr_block(h.body)
    return False, False


class _RBlock:
    __slots__ = ("used", "guard_next", "guard_now")

    def __init__(self) -> None:
        self.used = self.guard_next = self.guard_now = False


def _rs_block(stmts: list[ast.stmt], stack: list[_RBlock]) -> list[ast.stmt]:
    blk = _RBlock()
    stack.append(blk)
    results: list[ast.stmt] = []
    dest = results
    for node in stmts:
        new = _rs_stmt(node, stack)
        if not blk.used:
            dest.extend(new)
            continue
        if blk.guard_now:
            guard = ast.If(test=ast.UnaryOp(op=ast.Not(), operand=_name("do_return")), body=new, orelse=[])
            dest.append(guard)
            dest = guard.body
        else:
            dest.extend(new)
        blk.guard_now, blk.guard_next = blk.guard_next, False
    stack.pop()
    return results


def _rs_stmt(node: ast.stmt, stack: list[_RBlock]) -> list[ast.stmt]:
    if isinstance(node, ast.Return):
        for blk in stack:
            blk.used = blk.guard_next = True
        return _ret(node)
    if isinstance(node, ast.If):
        node.body = _rs_block(node.body, stack) or [ast.Pass()]
        node.orelse = _rs_block(node.orelse, stack)
    elif isinstance(node, ast.While):
        node.body = _rs_block(node.body, stack) or [ast.Pass()]
        if stack[-1].used:
            node.test = ast.BoolOp(op=ast.And(), values=[ast.UnaryOp(op=ast.Not(), operand=_name("do_return")),
                                                         node.test])
        node.orelse = _rs_block(node.orelse, stack)
    elif isinstance(node, ast.For):
        node.body = _rs_block(node.body, stack) or [ast.Pass()]
        if stack[-1].used:
            node._ag_extra = ast.UnaryOp(op=ast.Not(), operand=_name("do_return"))   # (for_'s extra test)
        node.orelse = _rs_block(node.orelse, stack)
    elif isinstance(node, (ast.With, ast.AsyncWith)):
        node.body = _rs_block(node.body, stack) or [ast.Pass()]
    elif isinstance(node, ast.Try):
        node.body = _rs_block(node.body, stack) or [ast.Pass()]
        node.orelse = _rs_block(node.orelse, stack)
        node.finalbody = _rs_block(node.finalbody, stack)
        for h in node.handlers:
            h.body = _rs_block(h.body, stack) or [ast.Pass()]
    return [node]


def _ret(s: ast.Return) -> list[ast.stmt]:
    return [_assign("do_return", ast.Constant(True)),
            _assign("retval_", s.value if s.value is not None else ast.Constant(None))]


def _lower_jumps(stmts: list[ast.stmt], brk: bool, cont: bool) -> list[ast.stmt]:
    """A loop body with `break` as `break_ = True` and `continue` as `continue_ = True`, the statements after
    one guarded by `if not (break_ or continue_)` (break_statements.py, continue_statements.py)."""
    pre = [_assign("continue_", ast.Constant(False))] if cont else []
    return pre + _jumps(stmts, brk, cont)


def _guard(brk: bool, cont: bool) -> ast.expr:
    flags = ([_name("break_")] if brk else []) + ([_name("continue_")] if cont else [])
    inner = flags[0] if len(flags) == 1 else ast.BoolOp(op=ast.Or(), values=flags)
    return ast.UnaryOp(op=ast.Not(), operand=inner)


def _jumps(stmts: list[ast.stmt], brk: bool, cont: bool) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for i, s in enumerate(stmts):
        if isinstance(s, ast.Break):
            return out + [_assign("break_", ast.Constant(True))]
        if isinstance(s, ast.Continue):
            return out + [_assign("continue_", ast.Constant(True))]
        if not _contains([s], (ast.Break, ast.Continue), loops=False):
            out.append(s)
            continue
        if isinstance(s, ast.If):
            out.append(ast.If(test=s.test, body=_jumps(s.body, brk, cont) or [ast.Pass()],
                              orelse=_jumps(s.orelse, brk, cont)))
        elif isinstance(s, (ast.With, ast.AsyncWith)):
            s.body = _jumps(s.body, brk, cont)
            out.append(s)
        elif isinstance(s, ast.Try):
            s.body = _jumps(s.body, brk, cont)
            for h in s.handlers:
                h.body = _jumps(h.body, brk, cont) or [ast.Pass()]
            s.orelse = _jumps(s.orelse, brk, cont)
            out.append(s)
        else:
            out.append(s)
        tail = _jumps(stmts[i + 1:], brk, cont)
        if tail:
            out.append(ast.If(test=_guard(brk, cont), body=tail, orelse=[]))
        return out
    return out
