"""tf.TypeSpec, tf.TensorArraySpec, tf.IndexedSlicesSpec, tf.OptionalSpec and tf.NoneTensorSpec against TF 2.21
(the forty-third session, helper names43b, clause api.namespaces).

Construction and its argument checks, repr, equality and hashing, value_type, is_compatible_with (specs and
values), is_subtype_of, most_specific_common_supertype (TF 2.21's TensorArraySpec keeps its own element shape:
its generator argument is consumed by TensorShape's first check), tf.type_spec_from_value of the composite values,
TypeSpec's abstractness and isinstance of the older specs, and the specs in tf.function's input_signature.

Each case is one program, the same on both backends, returning plain Python values (a raised error is its
class and message); TF runs it in a worker process (live or from the golden).
"""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", f()]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, str(e)]


def r(f: Callable[[], Any]) -> Any:
    """The repr of what f returns (or its error)."""
    return attempt(lambda: repr(f()))


def tensor_array_spec(tf: Any) -> Any:
    T = tf.TensorArraySpec
    a, b, c = T([2], tf.int32), T([None], tf.int32), T(None, tf.int32, infer_shape=False)
    out: dict[str, Any] = {}
    out["construct"] = [r(lambda: T()), r(lambda: T([2], tf.int32, dynamic_size=True, infer_shape=False)),
                        r(lambda: T(3)), r(lambda: T([2], "x")), r(lambda: T([2], tf.int32, dynamic_size=3)),
                        r(lambda: T([1.5])), r(lambda: T(tf.TensorShape([None, 4]), "int64"))]
    out["equality"] = [a == T([2], tf.int32), a == b, a != b, hash(a) == hash(T([2], tf.int32)),
                       a == T([2], tf.int32, infer_shape=False), len({a, T([2], tf.int32), b})]
    out["value_type"] = a.value_type is tf.TensorArray
    out["no shape or dtype"] = [attempt(lambda: a.shape), attempt(lambda: a.dtype)]
    out["compatible"] = [a.is_compatible_with(b), b.is_compatible_with(a), a.is_compatible_with(c),
                         a.is_compatible_with(T([3], tf.int32)), a.is_compatible_with(T([2], tf.float32)),
                         a.is_compatible_with(T([2], tf.int32, dynamic_size=True)), a.is_compatible_with(1),
                         a.is_compatible_with(tf.TensorSpec([2], tf.int32)),
                         tf.TensorSpec([2], tf.int32).is_compatible_with(a)]
    out["subtype"] = [a.is_subtype_of(b), b.is_subtype_of(a), a.is_subtype_of(T([5], tf.int32)),
                      a.is_subtype_of(T([2], tf.float32))]
    out["supertype"] = [r(lambda: a.most_specific_common_supertype([b])),
                        r(lambda: b.most_specific_common_supertype([a])),
                        r(lambda: a.most_specific_common_supertype([c])),
                        r(lambda: c.most_specific_common_supertype([a])),
                        r(lambda: a.most_specific_common_supertype([])),
                        r(lambda: a.most_specific_common_supertype([T([2], tf.float32)])),
                        r(lambda: a.most_specific_common_supertype([T([2], tf.int32, True)])),
                        r(lambda: a.most_specific_common_supertype([tf.TensorSpec([2], tf.int32)]))]
    ta = tf.TensorArray(tf.int32, size=3, element_shape=[2])
    out["from_value"] = [r(lambda: T.from_value(ta)), r(lambda: T.from_value(tf.TensorArray(tf.float32, size=2))),
                         r(lambda: T.from_value(tf.TensorArray(tf.float32, size=2, dynamic_size=True))),
                         r(lambda: T.from_value(1)), r(lambda: tf.type_spec_from_value(ta)),
                         a.is_compatible_with(ta), T([3], tf.int32).is_compatible_with(ta)]
    return out


def indexed_slices_spec(tf: Any) -> Any:
    I = tf.IndexedSlicesSpec
    a = I([None, 3])
    out: dict[str, Any] = {}
    out["construct"] = [r(lambda: I()), r(lambda: I([None, 3], tf.int32, tf.int32, tf.int64, [2])),
                        r(lambda: I([2], indices_dtype=tf.float32)), r(lambda: I(dense_shape_dtype=tf.int32)),
                        r(lambda: I(indices_shape=[1, 2])), r(lambda: I(indices_shape=4)),
                        r(lambda: I(dtype="nope")), r(lambda: I(dense_shape_dtype="bad"))]
    out["equality"] = [a == I([None, 3]), a == I([4, 3]), hash(a) == hash(I([None, 3])),
                       a == I([None, 3], dense_shape_dtype=tf.int64), len({a, I([None, 3]), I()})]
    out["value_type"] = a.value_type is tf.IndexedSlices
    out["no shape or dtype"] = [attempt(lambda: a.shape), attempt(lambda: a.dtype)]
    out["compatible"] = [a.is_compatible_with(I([4, 3])), I([4, 3]).is_compatible_with(a),
                         a.is_compatible_with(I([4, 2])), a.is_compatible_with(I([4, 3], tf.float64)),
                         a.is_compatible_with(I([4, 3], indices_dtype=tf.int32)),
                         a.is_compatible_with(I([4, 3], dense_shape_dtype=tf.int64)),
                         a.is_compatible_with(I(None)), I(None).is_compatible_with(a),
                         a.is_compatible_with(tf.TensorSpec([4, 3])), a.is_compatible_with(1.0)]
    out["subtype"] = [I([4, 3]).is_subtype_of(a), a.is_subtype_of(I([4, 3])), I([4, 3]).is_subtype_of(I()),
                      I([4, 3]).is_subtype_of(I([4, 3], tf.int32))]
    out["supertype"] = [r(lambda: a.most_specific_common_supertype([I([4, 3])])),
                        r(lambda: I([5, 3]).most_specific_common_supertype([I([4, 3]), I([5, 3])])),
                        r(lambda: a.most_specific_common_supertype([I([4, 3, 1])])),
                        r(lambda: a.most_specific_common_supertype([I([4, 3], tf.int32)])),
                        r(lambda: I([2], indices_shape=[3]).most_specific_common_supertype([I([2], indices_shape=[4])])),
                        r(lambda: a.most_specific_common_supertype([tf.TensorSpec([4, 3])])),
                        r(lambda: a.most_specific_common_supertype([]))]
    v = tf.IndexedSlices(tf.constant([[1.0, 2.0]]), tf.constant([0]), tf.constant([3, 2]))
    w = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([0, 2], tf.int64))
    out["from a value"] = [r(lambda: tf.type_spec_from_value(v)), r(lambda: tf.type_spec_from_value(w)),
                           I([3, 2], indices_dtype=tf.int32, dense_shape_dtype=tf.int32).is_compatible_with(v),
                           I([3, 2]).is_compatible_with(v), I([None, 2]).is_compatible_with(w)]
    return out


def optional_and_none_spec(tf: Any) -> Any:
    O, N = tf.OptionalSpec, tf.NoneTensorSpec
    e = tf.TensorSpec([2])
    a, b = O(e), O(tf.TensorSpec([None]))
    nested = O((e, {"b": tf.TensorSpec([], tf.int32), "a": tf.TensorSpec([3], tf.int64)}))
    out: dict[str, Any] = {}
    out["construct"] = [repr(a), repr(nested), r(lambda: O(None)), r(lambda: O()), repr(a._element_spec)]
    out["equality"] = [a == O(tf.TensorSpec([2])), a == b, hash(a) == hash(O(tf.TensorSpec([2]))),
                       hash(nested) == hash(O((e, {"a": tf.TensorSpec([3], tf.int64),
                                                   "b": tf.TensorSpec([], tf.int32)}))),
                       len({a, O(tf.TensorSpec([2])), b})]
    out["value_type"] = a.value_type.__name__ in ("_OptionalImpl", "Optional")
    out["compatible"] = [a.is_compatible_with(b), b.is_compatible_with(a), a.is_compatible_with(O(tf.TensorSpec([3]))),
                         a.is_compatible_with(O(tf.TensorSpec([2], tf.int32))), a.is_compatible_with(e),
                         nested.is_compatible_with(O((tf.TensorSpec(None), {"a": tf.TensorSpec([3], tf.int64),
                                                                            "b": tf.TensorSpec([], tf.int32)}))),
                         nested.is_compatible_with(O((e, {"a": tf.TensorSpec([3], tf.int64)})))]
    out["supertype"] = [r(lambda: a.most_specific_common_supertype([b])),
                        r(lambda: a.most_specific_common_supertype([O(tf.TensorSpec([3]))])),
                        r(lambda: a.most_specific_common_supertype([O(tf.TensorSpec([2], tf.int32))])),
                        r(lambda: a.most_specific_common_supertype([e]))]
    some = tf.experimental.Optional.from_value((tf.constant([1.0, 2.0]), tf.constant(3)))
    none = tf.experimental.Optional.empty(e)
    out["from a value"] = [r(lambda: tf.type_spec_from_value(some)), r(lambda: tf.type_spec_from_value(none)),
                           r(lambda: O.from_value(none)), a.is_compatible_with(none),
                           O((tf.TensorSpec([2]), tf.TensorSpec([], tf.int32))).is_compatible_with(some)]
    n = N()
    out["NoneTensorSpec"] = [repr(n), n == N(), n != N(), hash(n) == hash(N()), n.value_type.__name__,
                             n.is_compatible_with(N()), n.is_compatible_with(None), n.is_compatible_with(e),
                             r(lambda: n.most_specific_common_supertype([N()])),
                             r(lambda: n.most_specific_common_supertype([e])), r(lambda: N(1)),
                             r(lambda: tf.type_spec_from_value(None)), r(lambda: N.from_value(None)),
                             n.is_subtype_of(N()), n == e]
    return out


def type_spec_base(tf: Any) -> Any:
    out: dict[str, Any] = {}
    out["abstract"] = attempt(lambda: tf.TypeSpec())
    out["isinstance"] = [isinstance(s, tf.TypeSpec) for s in
                         (tf.TensorSpec([1]), tf.SparseTensorSpec([1]), tf.RaggedTensorSpec([1, None]),
                          tf.TensorArraySpec(), tf.IndexedSlicesSpec(), tf.OptionalSpec(tf.TensorSpec([])),
                          tf.NoneTensorSpec(), tf.TensorShape([1]), 1)]
    out["subclass"] = [issubclass(c, tf.TypeSpec) for c in (tf.TensorArraySpec, tf.IndexedSlicesSpec,
                                                             tf.OptionalSpec, tf.NoneTensorSpec)]
    out["different kinds"] = [tf.TensorArraySpec() == tf.IndexedSlicesSpec(), tf.NoneTensorSpec() == None,  # noqa: E711
                              tf.TensorArraySpec([2]) == tf.TensorSpec([2])]
    return out


def input_signature(tf: Any) -> Any:
    """The composite specs simdist's input_signature passes through as TF binds them (an IndexedSlices, an
    Optional, None); a TensorSpec entry refusing a TensorArray (class and the message up to its arguments,
    which name TF's own classes)."""
    out: dict[str, Any] = {}

    def f(x: Any) -> Any:
        if x is None:
            return tf.constant(1)
        if isinstance(x, tf.IndexedSlices):
            return [tf.reduce_sum(x.values), x.indices.dtype.name]
        if isinstance(x, tf.experimental.Optional):
            return [x.has_value(), x.get_value()]
        return x

    def call(spec: Any, arg: Any) -> Any:
        got = attempt(lambda: tf.nest.map_structure(lambda t: t.numpy().item() if hasattr(t, "numpy") else t,
                                                    tf.function(f, input_signature=[spec])(arg)))
        if got[0] == "ok":
            return got
        # (the text up to the arguments, with a value's class name reduced to "X": TF names its own classes)
        # (a graph error: its last paragraph, without TF's node line)
        text = got[2].split("\n\n")[-1].split("\n\t")[0].split(" Received args")[0].split("(<")[0].split(" Expected inputs")[0]
        return got[:2] + [re.sub(r"<class '[\w.]+'>", "<class X>", re.sub(r"'[\w.]+' object", "'X' object", text))]
    i = tf.IndexedSlices(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([0, 2], tf.int64))
    out["IndexedSlicesSpec"] = call(tf.IndexedSlicesSpec([None, 2]), i)
    out["OptionalSpec"] = call(tf.OptionalSpec(tf.TensorSpec([])), tf.experimental.Optional.from_value(2.5))
    out["NoneTensorSpec with None"] = call(tf.NoneTensorSpec(), None)
    out["TensorSpec given a TensorArray"] = call(tf.TensorSpec([2]), tf.TensorArray(tf.float32, size=2))
    out["NoneTensorSpec given values"] = [call(tf.NoneTensorSpec(), tf.constant(1.0)), call(tf.NoneTensorSpec(), 3)]
    out["IndexedSlicesSpec given others"] = [call(tf.IndexedSlicesSpec([None, 3]), i),
                                             call(tf.IndexedSlicesSpec([None, 2], tf.float64), i),
                                             call(tf.IndexedSlicesSpec([None, 2], indices_dtype=tf.int32), i),
                                             call(tf.IndexedSlicesSpec([None, 2]), 5),
                                             call(tf.IndexedSlicesSpec([None, 2]), tf.constant([[1.0, 2.0]]))]
    out["OptionalSpec given others"] = [call(tf.OptionalSpec(tf.TensorSpec([])), tf.constant(1.0)),
                                        call(tf.OptionalSpec(tf.TensorSpec([], tf.int32)),
                                             tf.experimental.Optional.from_value(1.0))]
    out["TensorArraySpec"] = [call(tf.TensorArraySpec([2]), tf.constant([1.0, 2.0])),
                              call(tf.TensorArraySpec([2]), tf.TensorArray(tf.float32, size=3, element_shape=[2]))]
    return out


PROGRAMS: dict[str, Callable[[Any], Any]] = {"tensor-array-spec": tensor_array_spec,
                                             "indexed-slices-spec": indexed_slices_spec,
                                             "optional-and-none-spec": optional_and_none_spec,
                                             "type-spec-base": type_spec_base, "input-signature": input_signature}
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in PROGRAMS}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return PROGRAMS[case["name"]](tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(PROGRAMS)), ids=list(PROGRAMS))
def test_type_specs_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = list(CASES)[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"{name}: simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{name}: {k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
    os._exit(0)
