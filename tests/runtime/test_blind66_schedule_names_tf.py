"""A learning-rate schedule's name (blind54a, the sixty-sixth blind batch's gap programs; clause optim.schedules):
Keras's built-in schedules compute their value inside `ops.name_scope(self.name)`, so a name that is not a string or
contains '/' is accepted by the constructor and raises ValueError when the schedule is called (TF 2.21, every
built-in schedule); simdist called them without the check. Each case: [label, value or [error class, first line]].
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
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    S = tf.keras.optimizers.schedules
    make = {"cosine": lambda **k: S.CosineDecay(0.1, 7, **k),
            "cosine-restarts": lambda **k: S.CosineDecayRestarts(0.1, 7, **k),
            "exponential": lambda **k: S.ExponentialDecay(0.1, 7, 0.9, **k),
            "inverse-time": lambda **k: S.InverseTimeDecay(0.1, 7, 0.5, **k),
            "polynomial": lambda **k: S.PolynomialDecay(0.1, 7, **k),
            "piecewise": lambda **k: S.PiecewiseConstantDecay([2], [0.1, 0.05], **k)}[case["name"]]
    out: list[Any] = []
    for label, kw in (("default", {}), ("named", {"name": "my_schedule"}), ("None", {"name": None}),
                      ("slash", {"name": "a/b"}), ("int", {"name": 3})):
        _try(out, label + " constructed", lambda kw=kw: type(make(**kw)).__name__)
        _try(out, label + " called", lambda kw=kw: round(float(make(**kw)(3)), 6))
    return out


NAMES = ["cosine", "cosine-restarts", "exponential", "inverse-time", "polynomial", "piecewise"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("optim.schedules")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_schedule_names_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
