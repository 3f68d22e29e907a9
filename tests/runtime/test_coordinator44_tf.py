"""tf.train.Coordinator against TF 2.21 (the forty-fourth session, helper names44, clause api.namespaces;
simdist/tf/_coordinator.py).

Threads that loop until should_stop, one requesting the stop; an exception caught by stop_on_exception and
re-raised by join; OutOfRangeError as a clean stop; request_stop after join; clear_stop; wait_for_stop; joined;
raise_requested_exception; a straggler thread reported by join (and ignored with ignore_live_threads). One program,
the same on both backends; TF runs it in a worker process (live or from the golden).
"""

from __future__ import annotations

import threading
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


def coordinator(tf: Any) -> Any:
    out: dict[str, Any] = {}
    coord = tf.train.Coordinator()
    counts = [0, 0, 0]

    def worker(i: int) -> None:
        while not coord.should_stop():
            counts[i] += 1
            if i == 0 and counts[0] >= 5:
                coord.request_stop()
            coord.wait_for_stop(0.001)
    threads = [threading.Thread(target=worker, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    out["join"] = attempt(lambda: coord.join(threads))
    out["stopped"] = [coord.should_stop(), coord.joined, counts[0] == 5, all(t.is_alive() is False for t in threads)]
    out["wait_for_stop"] = coord.wait_for_stop(0.0)
    coord.clear_stop()
    out["cleared"] = [coord.should_stop(), coord.joined, coord.wait_for_stop(0.0)]

    def failing() -> None:
        with coord.stop_on_exception():
            raise ValueError("bad thing")
    t = threading.Thread(target=failing)
    t.start()
    out["join raises"] = attempt(lambda: coord.join([t]))
    out["after"] = [coord.should_stop(), coord.joined]
    out["request after join"] = attempt(lambda: coord.request_stop(KeyError("late")))
    out["raise_requested_exception"] = attempt(coord.raise_requested_exception)
    coord.clear_stop()
    out["clear"] = attempt(coord.raise_requested_exception)

    def clean() -> None:
        with coord.stop_on_exception():
            raise tf.errors.OutOfRangeError(None, None, "end of sequence")
    t = threading.Thread(target=clean)
    t.start()
    out["clean stop"] = attempt(lambda: coord.join([t]))
    out["clean stop flags"] = [coord.should_stop(), coord.joined]
    custom = tf.train.Coordinator(clean_stop_exception_types=(KeyError,))
    with custom.stop_on_exception():
        raise KeyError("fine")
    out["custom clean"] = [custom.should_stop(), attempt(custom.raise_requested_exception)]
    with custom.stop_on_exception():
        raise tf.errors.OutOfRangeError(None, None, "now an error")
    out["custom not clean"] = attempt(custom.raise_requested_exception)

    release = threading.Event()
    straggler = threading.Thread(target=release.wait, name="straggler-1")
    c2 = tf.train.Coordinator()
    c2.register_thread(straggler)
    straggler.start()
    c2.request_stop()
    out["straggler"] = attempt(lambda: c2.join(stop_grace_period_secs=0.01))
    c2.clear_stop()
    c2.request_stop()
    out["straggler ignored"] = attempt(lambda: c2.join([straggler], stop_grace_period_secs=0.01,
                                                       ignore_live_threads=True))
    release.set()
    straggler.join()
    out["request with exc_info"] = attempt(lambda: tf.train.Coordinator().request_stop(ex=(None, None, None)))
    return out


CASES: dict[str, dict] = {"coordinator": {"strategy": "default"}}


def program(tf: Any, case: dict, workdir: str) -> Any:
    return coordinator(tf)


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", [0], ids=list(CASES))
def test_coordinator_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    got, want = tf_programs.on_simdist(program, CASES["coordinator"], str(tmp_path)), tf_results[index]
    assert sorted(got) == sorted(want), f"simdist's keys {sorted(got)}, TF 2.21's {sorted(want)}"
    bad = [k for k in want if got[k] != want[k]]
    assert not bad, "; ".join(f"{k}: simdist gives {got[k]!r}, but TF 2.21 gives {want[k]!r}" for k in bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
