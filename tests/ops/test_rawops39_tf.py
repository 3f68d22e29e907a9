"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-ninth (clause ops.raw-ops): the
function-calling ops PartitionedCall, StatefulPartitionedCall, If, StatelessIf, Case, StatelessCase, While,
StatelessWhile and For (runtime/ops/raw_functional.py), and DecodeGif with the GIF branch of the other decoders
(runtime/ops/gif_codec.py: hand-written streams and Pillow's, tests/ops/gif_fixtures.py), each against real
TensorFlow 2.21: the same raw call, its
func attrs concrete functions made outside the call (`tf.function(...).get_concrete_function(...)`), on both
backends gives the same dtypes and values, or raises the same exception class; eagerly and inside a tf.function.
Needs the `tf` extra.

Host independence: the functions compute float32 sums and products of small integers and halves, exact on any
host, so the recorded answers hold everywhere.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import edge_compare
import gif_fixtures
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RO = "ops.raw-ops"

# The concrete functions the cases name (made outside the call, eagerly, on each backend)
_FUNCS = {
    "INC": ("lambda x: x + 1.0", [([], "float32")]),
    "DBL": ("lambda x: x * 2.0", [([], "float32")]),
    "VINC": ("lambda x: x + 1.0", [([None], "float32")]),
    "PAIR": ("lambda x, y: (x + y, x * y)", [([], "float32"), ([], "float32")]),
    "MIXED": ("lambda x, n: (x * tf.cast(n, tf.float32), n + 1)", [([], "float32"), ([], "int32")]),
    "TWOOUT": ("lambda x: (x + 1.0, x)", [([], "float32")]),
    "NONE": ("lambda x: None", [([], "float32")]),
    "TOINT": ("lambda x: tf.cast(x, tf.int32)", [([], "float32")]),
    "LT10": ("lambda x: x < 10.0", [([], "float32")]),
    "LT10I": ("lambda x: tf.cast(x < 10.0, tf.int32)", [([], "float32")]),
    "LT10F": ("lambda x: tf.cast(x < 10.0, tf.float32) * 0.5", [([], "float32")]),
    "LT10S": ("lambda x: tf.where(x < 10.0, 'go', '')", [([], "float32")]),
    "LT10V": ("lambda x: tf.fill([tf.cast(x < 10.0, tf.int32)], 1)", [([], "float32")]),
    "TWO": ("lambda x: (x < 10.0, x < 5.0)", [([], "float32")]),
    "NLT": ("lambda n, x: n < 100", [([], "int32"), ([], "float32")]),
    "NSTEP": ("lambda n, x: (n * 3, x + 0.5)", [([], "int32"), ([], "float32")]),
    "FB": ("lambda i, x: x * 2.0 + tf.cast(i, tf.float32)", [([], "int32"), ([], "float32")]),
    "FB2": ("lambda i, x, y: (x + tf.cast(i, tf.float32), y * 2)", [([], "int32"), ([], "float32"), ([], "int64")]),
    "FBI": ("lambda i, x: x + tf.cast(i, tf.float32)", [([], "int32"), ([], "float32")]),
}


def _funcs(tf: Any) -> dict[str, Any]:
    out = {}
    for name, (src, specs) in _FUNCS.items():
        fn = eval(src, {"tf": tf})  # noqa: S307 - our own text
        out[name] = tf.function(fn, autograph=False).get_concrete_function(
            *[tf.TensorSpec(shape, getattr(tf, dt)) for shape, dt in specs])
    return out


def _program(expr: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0   # (a first op: TF's very first call in a process takes the slow path)
        scope = {"tf": tf, "np": np, "R": tf.raw_ops, **_funcs(tf)}
        call = lambda: eval(expr, scope)  # noqa: E731,S307 - our own text
        return tf.function(call, autograph=False)() if traced else call()
    return run


def _with_args(expr: str, signature: bool) -> Callable[[Any], Any]:
    """`lambda x: expr` as a tf.function called on 1.0, then 30.0 (with an input_signature: through
    get_concrete_function, whose trace runs on placeholders)."""
    def run(tf: Any) -> Any:
        scope = {"tf": tf, "np": np, "R": tf.raw_ops, **_funcs(tf)}
        fn = eval(f"lambda x: {expr}", scope)  # noqa: S307 - our own text
        if signature:
            f = tf.function(fn, input_signature=[tf.TensorSpec([], tf.float32)], autograph=False).get_concrete_function()
        else:
            f = tf.function(fn, autograph=False)
        return [f(tf.constant(1.0)), f(tf.constant(30.0))]
    return run


def _taped(expr: str, traced: bool) -> Callable[[Any], Any]:
    """`expr` of a watched x = 3.0 under a GradientTape (eagerly, or inside a tf.function), and the gradient."""
    def run(tf: Any) -> Any:
        scope = {"tf": tf, "np": np, "R": tf.raw_ops, **_funcs(tf)}
        fn = eval(f"lambda x: {expr}", scope)  # noqa: S307 - our own text
        x = tf.constant(3.0)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = (tf.function(fn, autograph=False) if traced else fn)(x)
        return [y, tape.gradient(y, x)]
    return run


def _both(label: str, expr: str) -> list[tuple[str, str, Any]]:
    return [(label, _RO, _program(expr, False)), (f"{label} in a tf.function", _RO, _program(expr, True))]


_CALLS = [
    ("PartitionedCall: f=INC, args=[c(3.0)]", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32], f=INC)"),
    ("PartitionedCall: f=VINC, args=[c([1.5, -2.0])]", "R.PartitionedCall(args=[tf.constant([1.5, -2.0])], Tout=[tf.float32], f=VINC)"),
    ("PartitionedCall: a [] function given a [2] tensor (shapes not checked)", "R.PartitionedCall(args=[tf.constant([3.0, 4.0])], Tout=[tf.float32], f=INC)"),
    ("PartitionedCall: f=PAIR, two results", "R.PartitionedCall(args=[tf.constant(3.0), 2.0], Tout=[tf.float32, tf.float32], f=PAIR)"),
    ("PartitionedCall: f=MIXED, float and int results", "R.PartitionedCall(args=[tf.constant(1.5), tf.constant(4)], Tout=[tf.float32, tf.int32], f=MIXED)"),
    ("PartitionedCall: f=NONE, no results", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[], f=NONE)"),
    ("PartitionedCall: Tout=[int32] for a float result", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.int32], f=INC)"),
    ("PartitionedCall: Tout of two for one result", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32, tf.float32], f=INC)"),
    ("PartitionedCall: Tout of three for one result (float32, int32, string)", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32, tf.int32, tf.string], f=INC)"),
    ("PartitionedCall: Tout=[float32, int32] for two float results", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32, tf.int32], f=TWOOUT)"),
    ("StatefulPartitionedCall: Tout of two for one result", "R.StatefulPartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32, tf.float32], f=INC)"),
    ("StatefulPartitionedCall: Tout=[int32] for a float result", "R.StatefulPartitionedCall(args=[tf.constant(3.0)], Tout=[tf.int32], f=INC)"),
    ("PartitionedCall: an int32 argument for a float one", "R.PartitionedCall(args=[tf.constant(3)], Tout=[tf.float32], f=INC)"),
    ("PartitionedCall: two arguments for one", "R.PartitionedCall(args=[tf.constant(3.0), tf.constant(1.0)], Tout=[tf.float32], f=INC)"),
    ("PartitionedCall: f a string", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32], f='nope')"),
    ("PartitionedCall: f a lambda", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32], f=lambda x: x)"),
    ("PartitionedCall: f an int", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32], f=3)"),
    ("PartitionedCall: f None", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32], f=None)"),
    ("PartitionedCall: an unknown executor_type", "R.PartitionedCall(args=[tf.constant(3.0)], Tout=[tf.float32], f=INC, executor_type='bad')"),
    ("StatefulPartitionedCall: f=DBL, args=[3.0]", "R.StatefulPartitionedCall(args=[3.0], Tout=[tf.float32], f=DBL)"),
    ("StatefulPartitionedCall: f=TOINT", "R.StatefulPartitionedCall(args=[tf.constant(7.9)], Tout=[tf.int32], f=TOINT)"),
]

_IFS = [
    ("StatelessIf: cond=True", "R.StatelessIf(cond=tf.constant(True), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=False", "R.StatelessIf(cond=tf.constant(False), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=0 (int32)", "R.StatelessIf(cond=tf.constant(0), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=-3 (int64)", "R.StatelessIf(cond=tf.constant(-3, tf.int64), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=0.0", "R.StatelessIf(cond=0.0, input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=-0.0 (false)", "R.StatelessIf(cond=tf.constant(-0.0, tf.float64), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=nan (true)", "R.StatelessIf(cond=float('nan'), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=0 (uint8)", "R.StatelessIf(cond=tf.constant(0, tf.uint8), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=2 (int8)", "R.StatelessIf(cond=tf.constant(2, tf.int8), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond='' (false)", "R.StatelessIf(cond=tf.constant(''), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond='x' (true)", "R.StatelessIf(cond=tf.constant('x'), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=[0] (a non-scalar with elements: true)", "R.StatelessIf(cond=tf.constant([0]), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=zeros([0]) (empty: false)", "R.StatelessIf(cond=tf.zeros([0]), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: cond=[[False]] (true)", "R.StatelessIf(cond=tf.constant([[False]]), input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: two inputs, two results", "R.StatelessIf(cond=False, input=[tf.constant(3.0), tf.constant(0.5)], Tout=[tf.float32, tf.float32], then_branch=INC, else_branch=PAIR)"),
    ("StatelessIf: the taken branch's Tout wrong", "R.StatelessIf(cond=True, input=[tf.constant(3.0)], Tout=[tf.int32], then_branch=INC, else_branch=TOINT)"),
    ("StatelessIf: the other branch's type differs (not checked)", "R.StatelessIf(cond=False, input=[tf.constant(3.0)], Tout=[tf.int32], then_branch=INC, else_branch=TOINT)"),
    ("StatelessIf: an int32 input for a float argument", "R.StatelessIf(cond=True, input=[tf.constant(3)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: two inputs for one argument", "R.StatelessIf(cond=True, input=[tf.constant(3.0), 1.0], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessIf: then_branch a string", "R.StatelessIf(cond=True, input=[tf.constant(3.0)], Tout=[tf.float32], then_branch='zz', else_branch=DBL)"),
    ("StatelessIf: else_branch a lambda", "R.StatelessIf(cond=True, input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=lambda x: x)"),
    ("If: cond=True", "R.If(cond=True, input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("If: cond=0 with output_shapes", "R.If(cond=0, input=[tf.constant(3.0)], Tout=[tf.float32], then_branch=INC, else_branch=DBL, output_shapes=[[]])"),
    ("If: Tout of two for one result", "R.If(cond=True, input=[tf.constant(3.0)], Tout=[tf.float32, tf.float32], then_branch=INC, else_branch=DBL)"),
]

_CASES_OP = [
    ("StatelessCase: branch_index=0", "R.StatelessCase(branch_index=0, input=[tf.constant(3.0)], Tout=[tf.float32], branches=[INC, DBL])"),
    ("StatelessCase: branch_index=1", "R.StatelessCase(branch_index=tf.constant(1), input=[tf.constant(3.0)], Tout=[tf.float32], branches=[INC, DBL])"),
    ("StatelessCase: branch_index=5 (the last branch)", "R.StatelessCase(branch_index=5, input=[tf.constant(3.0)], Tout=[tf.float32], branches=[INC, DBL])"),
    ("StatelessCase: branch_index=-1 (the last branch)", "R.StatelessCase(branch_index=-1, input=[tf.constant(3.0)], Tout=[tf.float32], branches=[DBL, INC])"),
    ("StatelessCase: one branch", "R.StatelessCase(branch_index=0, input=[tf.constant(3.0)], Tout=[tf.float32], branches=[DBL])"),
    ("StatelessCase: no branches", "R.StatelessCase(branch_index=0, input=[tf.constant(3.0)], Tout=[tf.float32], branches=[])"),
    ("StatelessCase: branch_index=[0]", "R.StatelessCase(branch_index=[0], input=[tf.constant(3.0)], Tout=[tf.float32], branches=[INC])"),
    ("StatelessCase: branch_index int64", "R.StatelessCase(branch_index=tf.constant(0, tf.int64), input=[tf.constant(3.0)], Tout=[tf.float32], branches=[INC])"),
    ("StatelessCase: branches not a list", "R.StatelessCase(branch_index=0, input=[tf.constant(3.0)], Tout=[tf.float32], branches=INC)"),
    ("Case: branch_index=2 of three", "R.Case(branch_index=2, input=[tf.constant(3.0)], Tout=[tf.float32], branches=[INC, DBL, INC])"),
    ("Case: the taken branch's Tout wrong", "R.Case(branch_index=0, input=[tf.constant(3.0)], Tout=[tf.float64], branches=[INC, DBL])"),
]

_LOOPS = [
    ("StatelessWhile: x < 10, x * 2 from 1", "R.StatelessWhile(input=[tf.constant(1.0)], cond=LT10, body=DBL)"),
    ("StatelessWhile: no iteration (20)", "R.StatelessWhile(input=[tf.constant(20.0)], cond=LT10, body=DBL)"),
    ("StatelessWhile: an int32 cond result", "R.StatelessWhile(input=[tf.constant(1.0)], cond=LT10I, body=DBL)"),
    ("StatelessWhile: a float cond result (0.5 or 0)", "R.StatelessWhile(input=[tf.constant(1.0)], cond=LT10F, body=INC)"),
    ("StatelessWhile: a string cond result", "R.StatelessWhile(input=[tf.constant(1.0)], cond=LT10S, body=INC)"),
    ("StatelessWhile: a vector cond result (its size)", "R.StatelessWhile(input=[tf.constant(1.0)], cond=LT10V, body=INC)"),
    ("StatelessWhile: two cond results", "R.StatelessWhile(input=[tf.constant(1.0)], cond=TWO, body=INC)"),
    ("StatelessWhile: two loop values of two dtypes", "R.StatelessWhile(input=[tf.constant(1), tf.constant(0.0)], cond=NLT, body=NSTEP)"),
    ("StatelessWhile: the body's result of another dtype", "R.StatelessWhile(input=[tf.constant(1.0)], cond=LT10, body=TOINT)"),
    ("StatelessWhile: an int32 loop value for a float argument", "R.StatelessWhile(input=[tf.constant(1)], cond=LT10, body=DBL)"),
    ("StatelessWhile: cond a string", "R.StatelessWhile(input=[tf.constant(1.0)], cond='nope', body=DBL)"),
    ("While: x < 10, x + 1 from 0.5, parallel_iterations=3", "R.While(input=[tf.constant(0.5)], cond=LT10, body=INC, output_shapes=[[]], parallel_iterations=3)"),
    ("While: no iteration", "R.While(input=[tf.constant(11.0)], cond=LT10, body=TOINT)"),
    ("For: 0 to 4 by 1", "R.For(start=0, limit=4, delta=1, input=[tf.constant(1.0)], body=FB)"),
    ("For: 5 to 0 by -2", "R.For(start=5, limit=0, delta=-2, input=[tf.constant(1.0)], body=FB)"),
    ("For: 3 to 3 by 0 (no iteration)", "R.For(start=3, limit=3, delta=0, input=[tf.constant(1.0)], body=FB)"),
    ("For: 2 to 9 by 3", "R.For(start=2, limit=9, delta=3, input=[tf.constant(0.0)], body=FBI)"),
    ("For: 0 to 3 by 0", "R.For(start=0, limit=3, delta=0, input=[tf.constant(1.0)], body=FB)"),
    ("For: 0 to 5 by -2", "R.For(start=0, limit=5, delta=-2, input=[tf.constant(1.0)], body=FB)"),
    ("For: 5 to 0 by 2", "R.For(start=5, limit=0, delta=2, input=[tf.constant(1.0)], body=FB)"),
    ("For: start=[0]", "R.For(start=[0], limit=5, delta=1, input=[tf.constant(1.0)], body=FB)"),
    ("For: delta=[[1]]", "R.For(start=0, limit=5, delta=[[1]], input=[tf.constant(1.0)], body=FB)"),
    ("For: two loop values", "R.For(start=0, limit=3, delta=1, input=[tf.constant(1.0), tf.constant(3, tf.int64)], body=FB2)"),
    ("For: start int64", "R.For(start=tf.constant(0, tf.int64), limit=3, delta=1, input=[tf.constant(1.0)], body=FB)"),
    ("For: a body of the wrong arity", "R.For(start=0, limit=3, delta=1, input=[tf.constant(1.0)], body=INC)"),
    ("For: body a string", "R.For(start=0, limit=3, delta=1, input=[tf.constant(1.0)], body='nope')"),
]

_ARGS = [
    ("StatelessIf of x > 5", "R.StatelessIf(cond=x > 5.0, input=[x], Tout=[tf.float32], then_branch=INC, else_branch=DBL)"),
    ("StatelessWhile from x", "R.StatelessWhile(input=[x], cond=LT10, body=DBL)"),
    ("While from x, then times 3", "R.While(input=[x], cond=LT10, body=INC)[0] * 3.0"),
    ("For 0 to 3 from x", "R.For(start=0, limit=3, delta=1, input=[x], body=FB)"),
    ("StatelessCase of int(x > 5)", "R.StatelessCase(branch_index=tf.cast(x > 5.0, tf.int32), input=[x], Tout=[tf.float32], branches=[INC, DBL])"),
    ("PartitionedCall of x, then plus 1", "R.PartitionedCall(args=[x], Tout=[tf.float32], f=DBL)[0] + 1.0"),
]
_ARG_CASES: list[tuple[str, str, Any]] = [
    (f"{label}: a tf.function of x{' with an input_signature' if sig else ''}, at 1.0 and 30.0", _RO, _with_args(expr, sig))
    for label, expr in _ARGS for sig in (False, True)]

_TAPES = [
    ("PartitionedCall", "R.PartitionedCall(args=[x], Tout=[tf.float32], f=DBL)[0]"),
    ("StatefulPartitionedCall", "R.StatefulPartitionedCall(args=[x], Tout=[tf.float32], f=DBL)[0]"),
    ("StatelessIf", "R.StatelessIf(cond=True, input=[x], Tout=[tf.float32], then_branch=DBL, else_branch=INC)[0]"),
    ("If", "R.If(cond=False, input=[x], Tout=[tf.float32], then_branch=DBL, else_branch=INC)[0]"),
    ("StatelessCase", "R.StatelessCase(branch_index=1, input=[x], Tout=[tf.float32], branches=[INC, DBL])[0]"),
    ("Case", "R.Case(branch_index=0, input=[x], Tout=[tf.float32], branches=[INC, DBL])[0]"),
    ("StatelessWhile", "R.StatelessWhile(input=[x], cond=LT10, body=DBL)[0]"),
    ("While", "R.While(input=[x], cond=LT10, body=DBL)[0]"),
    ("For", "R.For(start=0, limit=2, delta=1, input=[x], body=FB)[0]"),
    ("StatelessIf of an unwatched constant", "R.StatelessIf(cond=True, input=[tf.constant(2.0)], Tout=[tf.float32], then_branch=DBL, else_branch=INC)[0] + x"),
]
_TAPE_CASES: list[tuple[str, str, Any]] = [
    (f"{label} under a tape{' in a tf.function' if traced else ''}", _RO, _taped(expr, traced))
    for label, expr in _TAPES for traced in (False, True)]

_IC = "io.image-codecs"
_P4 = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]
_P2 = [(10, 20, 30), (200, 100, 50)]
_Q4 = [(1, 2, 3), (4, 5, 6), (7, 8, 9), (250, 251, 252)]


def _gif_program(data: bytes, expr: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        tf.constant(1.0) + 1.0
        call = lambda: eval(expr, {"tf": tf, "np": np, "g": tf.constant(data)})  # noqa: E731,S307 - our own text
        return tf.function(call, autograph=False)() if traced else call()
    return run


_G = gif_fixtures
_GIFS: list[tuple[str, bytes]] = [
    ("3x2, a global palette of 4", _G.gif(3, 2, [_G.image(3, 2, [0, 1, 2, 3, 2, 1])], palette=_P4)),
    ("3x2, a local palette overriding the global one", _G.gif(3, 2, [_G.image(3, 2, [0, 1, 2, 3, 2, 1], palette=_Q4)], palette=_P4)),
    ("2x2, code size 1 (two colors)", _G.gif(2, 2, [_G.image(2, 2, [1, 0, 0, 1], bits=1)], palette=_P2)),
    ("4x3, code size 8 (256 entries, 4 colors)", _G.gif(4, 3, [_G.image(4, 3, [3, 2, 1, 0] * 3, bits=8)], palette=_P4)),
    ("a screen of 9x9 holding a 3x2 image", _G.gif(9, 9, [_G.image(3, 2, [0, 1, 2, 3, 2, 1])], palette=_P4)),
    ("interlaced 2x9", _G.gif(2, 9, [_G.image(2, 9, [i % 4 for i in range(18)], interlace=True)], palette=_P4)),
    ("without a trailer", _G.gif(3, 2, [_G.image(3, 2, [0, 1, 2, 3, 2, 1])], palette=_P4, trailer=False)),
    ("GIF87a", _G.gif(3, 2, [_G.image(3, 2, [3, 3, 0, 0, 1, 1])], palette=_P4, version=b"87a")),
    ("a comment extension before the image", _G.gif(2, 1, [b"\x21\xfe\x03abc\x00", _G.image(2, 1, [1, 2])], palette=_P4)),
    ("transparent index 1 in frame 0 (black)", _G.gif(3, 2, [_G.gce(1), _G.image(3, 2, [0, 1, 2, 3, 2, 1])], palette=_P4)),
    ("two frames, frame 1 transparent 2 (frame 0 shows)", _G.gif(3, 2, [_G.image(3, 2, [0, 1, 2, 3, 2, 1]), _G.gce(2), _G.image(3, 2, [2, 2, 3, 3, 2, 0])], palette=_P4)),
    ("two frames, frame 1 a 2x1 at (1, 1)", _G.gif(3, 2, [_G.image(3, 2, [0, 0, 0, 0, 0, 0]), _G.image(2, 1, [3, 1], left=1, top=1)], palette=_P4)),
    ("frame 0 a 1x1 at (1, 0), frame 1 3x2 (the canvas its size; frame 0 black around)", _G.gif(3, 2, [_G.image(1, 1, [3], left=1), _G.image(3, 2, [1, 1, 1, 2, 2, 2])], palette=_P4)),
    ("frame 1 2x2 at (2, 1) over a 3x2 canvas (clipped)", _G.gif(3, 2, [_G.image(3, 2, [0] * 6), _G.image(2, 2, [1, 2, 3, 1], left=2, top=1)], palette=_P4)),
    ("frame 1 at (5, 5): outside the canvas", _G.gif(3, 2, [_G.image(3, 2, [1] * 6), _G.image(2, 2, [2] * 4, left=5, top=5)], palette=_P4)),
    ("three frames, disposal 2 in frame 1 (not read)", _G.gif(2, 2, [_G.image(2, 2, [0, 1, 2, 3]), _G.gce(None, 2), _G.image(1, 1, [3]), _G.image(1, 1, [2], left=1, top=1)], palette=_P4)),
    ("a GCE of 5 bytes (not read: no transparency)", _G.gif(2, 1, [_G.gce(1, size=5), _G.image(2, 1, [1, 0])], palette=_P4)),
    ("index 3 beyond a palette of 2", _G.gif(2, 1, [_G.image(2, 1, [1, 3])], palette=_P2)),
    ("index 3 beyond a palette of 2 but transparent", _G.gif(2, 1, [_G.gce(3), _G.image(2, 1, [1, 3])], palette=_P2)),
    ("no color map", _G.gif(2, 1, [_G.image(2, 1, [1, 0])])),
    ("no color map, frame 1 has a local one", _G.gif(2, 1, [_G.image(2, 1, [1, 0], palette=_P4), _G.image(2, 1, [0, 1])])),
    ("an end code before the last pixel", _G.gif(3, 2, [_G.image(3, 2, [], data=_G.lzw([0, 1, 2], 2))], palette=_P4)),
    ("a wrong record type before any image", _G.gif(2, 1, [b"\x99"], palette=_P4)),
    ("a wrong record type after an image (the image decodes)", _G.gif(2, 1, [_G.image(2, 1, [1, 2]), b"\x99"], palette=_P4)),
    ("no image", _G.gif(2, 1, [], palette=_P4)),
    ("cut in the image descriptor", _G.gif(2, 1, [_G.image(2, 1, [1, 2])[:6]], palette=_P4, trailer=False)),
    ("cut after the image descriptor (no code size)", _G.gif(2, 1, [_G.image(2, 1, [1, 2])[:10]], palette=_P4, trailer=False)),
    ("a code size of 9", _G.gif(2, 1, [_G.image(2, 1, [], data=b"\x09\x01\x00\x00")], palette=_P4)),
    ("a 0x1 image", _G.gif(2, 1, [_G.image(0, 1, [], data=_G.lzw([], 2))], palette=_P4)),
    ("a second image cut in its descriptor (the first decodes)", _G.gif(2, 1, [_G.image(2, 1, [1, 2]), _G.image(2, 1, [3, 3])[:7]], palette=_P4, trailer=False)),
    ("only the header", b"GIF89a"),
    ("GIF8 and 3 bytes", b"GIF8xyz"),
    ("a header cut in the screen descriptor", b"GIF89a\x02\x00"),
    ("a global palette cut short", _G.gif(2, 1, [], palette=_P4)[:15]),
] + [(f"Pillow: {name}", data) for name, data in _G.PILLOW.items()]

_GIF_CALLS = [
    ("tf.io.decode_gif", "tf.io.decode_gif(g)"),
    ("decode_image", "tf.io.decode_image(g)"),
]
_GIF_MORE = [
    ("R.DecodeGif, 2 frames", _GIFS[10][1], "tf.raw_ops.DecodeGif(contents=g)"),
    ("decode_image(expand_animations=False), 3 frames", _G.PILLOW["optimized 3 frames 5x6"], "tf.io.decode_image(g, expand_animations=False)"),
    ("decode_image(dtype=uint16), 2 frames", _GIFS[10][1], "tf.io.decode_image(g, dtype=tf.uint16)"),
    ("decode_image(dtype=float32)", _G.PILLOW["rgb 7x5 noise"], "tf.io.decode_image(g, dtype=tf.float32)"),
    ("decode_image(dtype=float16) (uint16 then converted)", _GIFS[0][1], "tf.io.decode_image(g, dtype=tf.float16)"),
    ("decode_image(channels=3)", _GIFS[0][1], "tf.io.decode_image(g, channels=3)"),
    ("decode_image(channels=1)", _GIFS[0][1], "tf.io.decode_image(g, channels=1)"),
    ("decode_image(channels=4)", _GIFS[0][1], "tf.io.decode_image(g, channels=4)"),
    ("decode_png of one frame", _GIFS[0][1], "tf.io.decode_png(g)"),
    ("decode_png(dtype=uint16) of one frame", _GIFS[0][1], "tf.io.decode_png(g, dtype=tf.uint16)"),
    ("decode_jpeg of one frame", _GIFS[1][1], "tf.io.decode_jpeg(g)"),
    ("decode_jpeg of two frames", _GIFS[10][1], "tf.io.decode_jpeg(g)"),
    ("decode_png of three frames", _G.PILLOW["optimized 3 frames 5x6"], "tf.io.decode_png(g)"),
    ("decode_bmp", _GIFS[0][1], "tf.io.decode_bmp(g)"),
    ("decode_and_crop_jpeg", _GIFS[0][1], "tf.io.decode_and_crop_jpeg(g, [0, 0, 1, 1])"),
    ("R.DecodeImage(channels=2)", _GIFS[0][1], "tf.raw_ops.DecodeImage(contents=g, channels=2)"),
    ("tf.image.decode_gif of a PNG", b"", "tf.image.decode_gif(tf.io.encode_png(tf.zeros([2, 3, 3], tf.uint8)))"),
    ("decode_gif of a vector", _GIFS[0][1], "tf.io.decode_gif(tf.stack([g, g]))"),
    ("decode_png of a vector", _GIFS[0][1], "tf.io.decode_png(tf.stack([g, g]))"),
    ("decode_jpeg of a vector", _GIFS[0][1], "tf.io.decode_jpeg(tf.stack([g]))"),
    ("decode_bmp of a vector", _GIFS[0][1], "tf.io.decode_bmp(tf.stack([g]))"),
    ("decode_image of a vector", _GIFS[0][1], "tf.io.decode_image(tf.stack([g]))"),
    ("extract_jpeg_shape of a vector", _GIFS[0][1], "tf.io.extract_jpeg_shape(tf.stack([g]))"),
    ("decode_gif of ''", b"", "tf.io.decode_gif(g)"),
    ("decode_gif of bytes of no format", b"GIF7", "tf.io.decode_gif(g)"),
]

_GIF_CASES: list[tuple[str, str, Any]] = (
    [(f"{call} of {label}{' in a tf.function' if traced else ''}", _IC, _gif_program(data, expr, traced))
     for label, data in _GIFS for call, expr in _GIF_CALLS for traced in (False, True)]
    + [(f"{label}{' in a tf.function' if traced else ''}", _IC, _gif_program(data, expr, traced))
       for label, data, expr in _GIF_MORE for traced in (False, True)])

CASES: list[tuple[str, str, Any]] = ([c for label, expr in _CALLS + _IFS + _CASES_OP + _LOOPS for c in _both(label, expr)]
                                     + _ARG_CASES + _TAPE_CASES + _GIF_CASES)

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_raw_ops_added_in_session_39(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


@clause("io.image-codecs")
@EDGES.parametrize("io.image-codecs")
def test_decode_gif(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops39_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
