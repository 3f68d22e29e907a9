"""tf.data.IteratorSpec against TF 2.21 (the forty-fourth session, helper names44, clause api.namespaces;
simdist/runtime/type_specs.py).

Construction, repr, equality and hashing, value_type, is_compatible_with (specs and iterators), is_subtype_of,
most_specific_common_supertype, from_value and tf.type_spec_from_value of an iterator. One program, the same on
both backends, returning plain Python values (a raised error is its class and message); TF runs it in a worker
process (live or from the golden).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e).split("\n")[0]]


def r(f: Callable[[], Any]) -> Any:
    return attempt(lambda: repr(f()))


def iterator_spec(tf: Any) -> Any:
    S = tf.data.IteratorSpec
    ds = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3]}, [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
    it = iter(ds)
    a, b = S(tf.TensorSpec([2])), S(tf.TensorSpec([None]))
    out: dict[str, Any] = {}
    out["repr"] = [r(lambda: a), r(lambda: S((tf.TensorSpec([], tf.int64), {"x": tf.TensorSpec([3], tf.string)}))),
                   r(lambda: S(None)), r(lambda: S(3))]
    out["from iterator"] = [r(lambda: tf.type_spec_from_value(it)), r(lambda: S.from_value(it)),
                            tf.type_spec_from_value(it) == S(ds.element_spec)]
    out["equality"] = [a == S(tf.TensorSpec([2])), a == b, a != b, hash(a) == hash(S(tf.TensorSpec([2]))),
                       len({a, b, S(tf.TensorSpec([2]))}), a == tf.OptionalSpec(tf.TensorSpec([2]))]
    out["value_type"] = S(None).value_type.__name__
    out["no element_spec"] = attempt(lambda: a.element_spec)
    out["is TypeSpec"] = isinstance(a, tf.TypeSpec)
    out["compatible"] = [a.is_compatible_with(b), b.is_compatible_with(a), a.is_compatible_with(S(tf.TensorSpec([3]))),
                         a.is_compatible_with(S(tf.TensorSpec([2], tf.int32))), a.is_compatible_with(tf.TensorSpec([2])),
                         S(ds.element_spec).is_compatible_with(it), a.is_compatible_with(it)]
    out["subtype"] = [a.is_subtype_of(b), b.is_subtype_of(a)]
    out["supertype"] = [r(lambda: a.most_specific_common_supertype([b])),
                        r(lambda: a.most_specific_common_supertype([S(tf.TensorSpec([3]))])),
                        r(lambda: a.most_specific_common_supertype([S(tf.TensorSpec([2, 1]))])),
                        r(lambda: a.most_specific_common_supertype([tf.OptionalSpec(tf.TensorSpec([2]))]))]
    out["from_value non-iterator"] = attempt(lambda: repr(S.from_value(3)))
    return out


CASES: dict[str, dict] = {"iterator-spec": {"strategy": "default"}}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return iterator_spec(tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", [0], ids=list(CASES))
def test_iterator_spec_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["iterator-spec"], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
