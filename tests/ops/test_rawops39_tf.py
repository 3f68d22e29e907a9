"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-ninth (clause ops.raw-ops): the
function-calling ops PartitionedCall, StatefulPartitionedCall, If, StatelessIf, Case, StatelessCase, While,
StatelessWhile and For (runtime/ops/raw_functional.py), each against real TensorFlow 2.21: the same raw call, its
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

CASES: list[tuple[str, str, Any]] = [c for label, expr in _CALLS + _IFS + _CASES_OP + _LOOPS for c in _both(label, expr)]

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_raw_ops_added_in_session_39(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops39_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
