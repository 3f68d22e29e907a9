"""The scaffolding of the TF differential modules whose cases are programs writing files
(tests/keras/test_backup_and_restore_tf, test_callbacks_tf, test_tensorboard_tf,
tests/strategies/test_preemption_handler_tf): a module keeps a dict CASES of named cases (each
with a "strategy") and one `program(tf, case, workdir, *extra)` that runs on both backends in a
fresh directory. This module runs TF's side in worker processes (tf_workers.spawn), one per
MirroredStrategy size, and simdist's side on a fresh simulated machine; `close` compares numbers.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any, Callable

import numpy as np

import tf_workers


def four_cpus(tf: Any) -> None:
    """Split the host CPU into 4 logical devices (MirroredStrategy(2/4), CentralStorage)."""
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)


def worker(cases: dict[str, dict], program: Callable[..., Any], *extra: Any,
           after: Callable[[Any], Any] | None = None) -> Callable[[list[int]], dict[int, Any]]:
    """The TF worker of a module (`tf_workers.serve(worker(CASES, program))`): each case in a
    cleared Keras session and a temporary directory; `after` may adjust an answer in place."""
    def answers(indices: list[int]) -> dict[int, Any]:
        import tensorflow as tf
        four_cpus(tf)
        names = list(cases)
        out = {}
        for i in indices:
            tf.keras.backend.clear_session()
            with tempfile.TemporaryDirectory() as wd:
                out[i] = program(tf, cases[names[i]], wd, *extra)
            if after is not None:
                after(out[i])
        return out
    return answers


def on_simdist(program: Callable[..., Any], case: dict, workdir: str, *extra: Any) -> Any:
    """simdist's answer to a case, on a fresh simulated machine with 4 CPUs."""
    import simdist
    from simdist import tf
    simdist.reset()
    tf.keras.backend.clear_session()
    four_cpus(tf)
    return program(tf, case, workdir, *extra)


def spawn(module_file: str, cases: dict[str, dict], indices: list[int] | None = None) -> dict[int, Any]:
    """TF's answers to the cases `indices` (default all): one TF process per MirroredStrategy
    size (TF reuses its collective keys across MirroredStrategies in a process, and one of
    another size then aborts) and one for ParameterServerStrategy (a TF context connected to
    a cluster is not a local one any more)."""
    names = list(cases)
    groups: dict[str, list[int]] = {}
    for i in range(len(names)) if indices is None else indices:
        kind = cases[names[i]]["strategy"]
        groups.setdefault(kind if kind.startswith(("mirrored", "pss")) else "other", []).append(i)
    out: dict[int, Any] = {}
    for group in groups.values():
        out.update(tf_workers.spawn(module_file, group))
    return out


def selected(request: Any, module_file: str) -> list[int]:
    """The `index` params of the module's tests this session runs (slow ones left out by -m)."""
    here = os.path.abspath(module_file)
    return sorted({item.callspec.params["index"] for item in request.session.items
                   if os.path.abspath(str(item.fspath)) == here and hasattr(item, "callspec")})


def close(got: Any, want: Any, where: str, rtol: float, atol: float) -> None:
    g, w = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert g.shape == w.shape and np.allclose(g, w, rtol=rtol, atol=atol, equal_nan=True), \
        f"{where}: simdist {g.tolist()}, TF 2.21 {w.tolist()}"
