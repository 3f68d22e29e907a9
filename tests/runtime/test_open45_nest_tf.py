"""tf.nest.assert_same_structure's error classes and an eager tf.while_loop's structure check with
maximum_iterations against TF 2.21 (the forty-fifth session, helper open45; clause function.traced-while-loop;
simdist/runtime/nest.py `_mismatch`, simdist/runtime/ops/control_flow.py `while_loop`).

TF 2.21's AssertSameStructureHelper (util.cc) reports the first difference met depth first: a value nested and the
other not, dictionaries with other keys (compared only with check_types) or sequences of other lengths are
ValueError; with check_types, sequences of other types (a list and a tuple, two namedtuple classes of other names
or fields; two mappings of any kinds match) are TypeError, checked before the lengths. An eager while_loop with
maximum_iterations packs (counter, loop_vars) and checks the body's result against the loop variables as given
(a tuple returned for a list is TypeError, a single tensor for a list of one ValueError); without it the check is
of list(result). Each call: ok with its value, or the error's class.
"""

from __future__ import annotations

import collections
from typing import Any

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

P = collections.namedtuple("P", "a b")
Q = collections.namedtuple("Q", "a b")
P2 = collections.namedtuple("P", "a b")


def _attempt(f: Any) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class is the observable
        return ["error", type(e).__name__]


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: dict[str, Any] = {}
    if case["part"] == "nest":
        O = collections.OrderedDict
        pairs = [([1, [2]], [1, (2,)]), ([1, 2], (1, 2)), ([1, [2]], [1, 2]), ([1], [1, 2]), ({"a": 1}, {"b": 1}),
                 (P(1, 2), (1, 2)), ([1, P(1, 2)], [1, (1, 2)]), ([1], (1, 2)), ({"a": 1}, O(a=1)), ({"a": 1}, O(b=1)),
                 ({"a": 1, "b": 2}, {"a": 1}), (P(1, 2), Q(1, 2)), (P(1, 2), P2(1, 2)), ([[1], (2,)], [(1,), [2]]),
                 ([1, (2, 3)], [1, [2]]), ({"a": [1]}, {"a": (1,)}), ({"a": 1}, [1]), ((1,), {"a": 1}), ([], ()),
                 ([1, None], [1, 2])]
        for i, (a, b) in enumerate(pairs):
            for ct in (True, False):
                out[f"{i} {a!r} {b!r} check_types={ct}"] = _attempt(
                    lambda: tf.nest.assert_same_structure(a, b, check_types=ct))
        return out
    x = tf.constant(2.0)

    def value(r: Any) -> Any:
        return repr(tf.nest.map_structure(lambda t: t.numpy().tolist() if hasattr(t, "numpy") else t, r))
    for m in (None, 3, 0):
        loops = {"list->tuple": lambda: tf.while_loop(lambda i, v: i < 2, lambda i, v: (i + 1, v * x), [0, x],
                                                      maximum_iterations=m),
                 "tuple->list": lambda: tf.while_loop(lambda i, v: i < 2, lambda i, v: [i + 1, v * x], (0, x),
                                                      maximum_iterations=m),
                 "list->list": lambda: tf.while_loop(lambda i, v: i < 2, lambda i, v: [i + 1, v * x], [0, x],
                                                     maximum_iterations=m),
                 "one->tensor": lambda: tf.while_loop(lambda v: v < 10, lambda v: v * 2, [x], maximum_iterations=m),
                 "one tuple->tensor": lambda: tf.while_loop(lambda v: v < 10, lambda v: v * 2, (x,),
                                                            maximum_iterations=m),
                 "nested list->tuple": lambda: tf.while_loop(lambda i, v: i < 2, lambda i, v: (i + 1, (v[0] * x,)),
                                                             [0, [x]], maximum_iterations=m),
                 "a scalar tensor as loop_vars": lambda: tf.while_loop(lambda v: v < 10, lambda v: v * 2, x,
                                                                       maximum_iterations=m)}
        for name, f in loops.items():
            out[f"maximum_iterations={m} {name}"] = _attempt(lambda: value(f()))
    return out


NAMES = ["nest", "while_loop"]
CASES: dict[str, dict] = {n: {"strategy": "default", "part": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("function.traced-while-loop")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_structure_checks_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's calls {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, f"{name}: " + "; ".join(f"{k}: simdist gives {got[k]}, TF 2.21 gives {want[k]}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
