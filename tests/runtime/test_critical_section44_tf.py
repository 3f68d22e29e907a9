"""tf.CriticalSection against TF 2.21 (the forty-fourth session, helper names44, clause api.namespaces;
simdist/tf/_critical_section.py).

execute's results (values through identity, None kept, nested structures), the lock held across threads (two
threads each adding 1 to a variable 50 times under it), re-entry refused, a failing fn releasing the lock, inside a
tf.function, and the constructor's refusals. One program, the same on both backends; messages compared with the
signature's number reduced (TF's is an address). TF runs it in a worker process (live or from the golden).
"""

from __future__ import annotations

import re
import threading
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def plain(v: Any) -> Any:
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [type(v).__name__] + [plain(x) for x in v]
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return ["tensor", v.dtype.name, np.asarray(v.numpy()).tolist()]
    return repr(v)


def attempt(f: Callable[[], Any]) -> Any:
    try:
        return ["ok", plain(f())]
    except Exception as e:  # noqa: BLE001 - the class and message are the observable
        return ["error", type(e).__name__, re.sub(r", \d+, '", ", N, '", str(e).split("\n")[0])]


def critical_section(tf: Any) -> Any:
    out: dict[str, Any] = {}
    cs = tf.CriticalSection(name="cs")
    v = tf.Variable(1.0)

    def bump() -> Any:
        v.assign_add(1.0)
        return v.read_value()
    out["execute"] = attempt(lambda: cs.execute(bump))
    out["python values"] = attempt(lambda: cs.execute(lambda: (1.5, [2, None], "abc")))
    out["dict"] = attempt(lambda: cs.execute(lambda: {"a": tf.constant([1, 2]), "b": 3}))
    out["none"] = attempt(lambda: cs.execute(lambda: None))
    out["re-entry"] = attempt(lambda: cs.execute(lambda: cs.execute(lambda: 1)))
    other = tf.CriticalSection(shared_name="other")
    out["two sections"] = attempt(lambda: cs.execute(lambda: other.execute(lambda: tf.constant(7))))
    out["re-entry shared name"] = attempt(lambda: other.execute(lambda: other.execute(lambda: 1)))

    def fails() -> Any:
        raise KeyError("inside")
    out["fn fails"] = attempt(lambda: cs.execute(fails))
    out["after failure"] = attempt(lambda: cs.execute(lambda: tf.constant(5)))
    out["not callable"] = attempt(lambda: cs.execute(3))
    out["in a function"] = attempt(lambda: tf.function(lambda: cs.execute(bump))())
    out["name"] = attempt(lambda: cs.name)
    out["def"] = attempt(lambda: tf.CriticalSection(critical_section_def=1))
    out["def and name"] = attempt(lambda: tf.CriticalSection(name="a", critical_section_def=1))
    counter = tf.Variable(0)

    def work() -> None:
        for _ in range(50):
            cs.execute(lambda: counter.assign_add(1))
    threads = [threading.Thread(target=work) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out["threads"] = int(counter.numpy())
    out["variable"] = float(v.numpy())
    return out


CASES: dict[str, dict] = {"critical-section": {"strategy": "default"}}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return critical_section(tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", [0], ids=list(CASES))
def test_critical_section_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["critical-section"], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
