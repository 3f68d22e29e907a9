"""The matrix's "Changes between TensorFlow versions" explains each change by a version note
(simdist/conformance/version_notes.py) and lists the ones no note covers apart."""

from __future__ import annotations

from simdist.conformance import matrix
from simdist.conformance.report import TestResult, build_report
from simdist.conformance.version_notes import NOTES, explain


def _report(version: str, outcomes: dict[str, tuple[str, str, str]]) -> dict:
    results = [TestResult(nodeid, [(cid, "tf221")], outcome, message=msg)
               for nodeid, (cid, outcome, msg) in outcomes.items()]
    return build_report(results, backend={"name": "tensorflow", "version": version, "capabilities": [],
                                          "details": {"logical_cpus": 4, "keras": "2.15.0"}},
                        hypothesis={"seed": 1, "max_examples": 8}, suite_version="0", started="now", duration=1.0,
                        unused_xfails=[], xfail_file=None)


def test_a_keras_change_on_2_15_is_explained_and_an_other_change_is_not():
    keras2 = next(n for n in NOTES if n.title.startswith("TF 2.15's tf.keras is Keras 2"))
    assert explain(["keras.variable"], "test_keras_core.py::t", ["2.15.1"]) is keras2
    assert explain(["keras.variable"], "test_keras_core.py::t", ["2.17.1"]) is None, \
        "the Keras 2 note must not explain a change on a Keras 3 release"
    assert explain(["reduce.dtypes"], "test_reduce.py::t", ["2.15.1"]) is None
    old = _report("2.15.1", {"test_keras_core.py::test_var": ("keras.variable", "failed", "no keras.Variable"),
                             "test_reduce.py::test_dtype": ("reduce.dtypes", "failed", "out.dtype=int32")})
    new = _report("2.21.0", {"test_keras_core.py::test_var": ("keras.variable", "passed", ""),
                             "test_reduce.py::test_dtype": ("reduce.dtypes", "passed", "")})
    text = matrix.render([old, new], None, "simdist conformance-matrix --run")
    changes = text[text.find("## Changes"):text.find("## Where")]
    explained = changes.find("### TF 2.15's tf.keras is Keras 2 (1 test(s))")
    unexplained = changes.find("### Not explained (1 test(s))")
    assert 0 < explained < unexplained, changes
    assert changes.find("test_keras_core.py::test_var") in range(explained, unexplained), changes
    assert changes.find("test_reduce.py::test_dtype") > unexplained, changes
    assert "(`--backend tensorflow`, Keras 2.15.0, 4 logical CPUs" in text, text[:600]
