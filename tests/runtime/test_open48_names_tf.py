"""Public names of TF 2.21 the facade lacked, added where simdist can honour them (the forty-eighth session, helper
open48; clause api.namespaces): tf.test.is_cpu_target_available (simdist/tf/_testing.py), a constant of TF's CPU
build: True for the targets whose LLVM code generators the build has, AssertionError for another name. Each case:
a list of [label, value or [error class, first line]].
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, fn()])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared (AssertionError too)
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    if case["name"] == "is_cpu_target_available":
        for t in ["x86", "x86_64", "aarch64", "arm", "armv7", "ppc", "ppc64le", "powerpc", "s390x", "X86", "AARCH64",
                  "riscv64", "nvptx", "", "mips"]:
            _try(out, repr(t), lambda t=t: tf.test.is_cpu_target_available(t))
        _try(out, "an int", lambda: tf.test.is_cpu_target_available(3))
        _try(out, "bytes", lambda: tf.test.is_cpu_target_available(b"x86"))
    return out


NAMES = ["is_cpu_target_available"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("api.namespaces")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_names_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
