"""Keras's process-wide state is each launched worker's own, as each TF worker is a process.

Two workers of a `simdist.launch` run `program`, meeting at a cross-worker collective between
every step (so each step of one runs between steps of the other): worker 0 sets the global
policy "mixed_float16" and seeds 1, worker 1 "mixed_bfloat16", floatx float64 and seed 2;
they create layers in different orders, worker 1 clears its session halfway, and both draw
random values. Each worker must see what a TF process running its program alone sees:
- layer names, dtypes and the global policy: compared with real TF 2.21 + Keras 3.15, one TF
  process per worker (tf_workers.spawn; this module is the worker; golden in tests/goldens/);
- random values (simdist's streams are not TF's Philox values: clause keras.init.seeding): the
  same program run alone by simdist in a process of its own (`python this_module.py --simdist i`).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest

import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def program(tf, i: int, sync) -> dict:
    """Worker ``i``'s program; ``sync()`` is a cross-worker collective under the launch."""
    keras = tf.keras
    out: dict = {}
    if i == 0:
        keras.mixed_precision.set_global_policy("mixed_float16")
        keras.utils.set_random_seed(1)
    else:
        keras.mixed_precision.set_global_policy("mixed_bfloat16")
        keras.backend.set_floatx("float64")
        keras.utils.set_random_seed(2)
    sync()
    kinds = ["dense", "dense", "conv", "none", "dense"] if i == 0 else ["conv", "dense", "clear", "dense", "conv"]
    layers = []
    for k in kinds:
        if k == "clear":
            keras.backend.clear_session()    # names start again; the policy is forgotten
        elif k == "none":
            pass
        elif k == "dense":
            layers.append(keras.layers.Dense(2))
        else:
            layers.append(keras.layers.Conv2D(2, 1))
        sync()
    out["names"] = [layer.name for layer in layers]
    out["dtypes"] = [[layer.compute_dtype, layer.variable_dtype] for layer in layers]
    out["policy"] = keras.mixed_precision.global_policy().name
    out["floatx"] = keras.backend.floatx()
    import random
    import numpy as np
    keras.utils.set_random_seed(100 + i)
    out["py_np"] = [random.random(), float(np.random.rand())]   # set_random_seed seeds Python and NumPy
    dense = keras.layers.Dense(3)
    dense.build((None, 2))
    sync()
    out["kernel_dtype"] = str(dense.kernel.dtype)
    out["built_name"] = dense.name
    sync()
    out["keras_normal"] = [float(x) for x in keras.random.normal((3,)).numpy()]   # the global seed generator
    sync()
    out["tf_uniform"] = [float(x) for x in tf.random.uniform((3,)).numpy()]      # tf.random's global stream
    out["kernel"] = [float(x) for x in dense.kernel.numpy().ravel()]
    return out


STRUCTURAL = ("names", "dtypes", "policy", "floatx", "kernel_dtype", "built_name", "py_np")
VALUES = ("keras_normal", "tf_uniform", "kernel")


def _launched() -> dict:
    from simdist import tf
    from simdist.launch import launch

    def main():
        import json
        i = json.loads(os.environ["TF_CONFIG"])["task"]["index"]
        strategy = tf.distribute.MultiWorkerMirroredStrategy()
        return program(tf, i, lambda: strategy.reduce("SUM", tf.constant(1.0), axis=None))

    r = launch(main, workers=2)
    assert not r.errors, f"launch errors: {r.errors}"
    return {i: r.results[("worker", i)] for i in (0, 1)}


def _alone_on_simdist(i: int) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env.pop("TF_CONFIG", None)
    p = subprocess.run([sys.executable, __file__, "--simdist", str(i)], capture_output=True, env=env,
                       cwd=os.path.dirname(__file__), timeout=600)
    assert p.returncode == 0, p.stderr.decode()[-3000:]
    return pickle.loads(p.stdout)


@pytest.fixture(scope="module")
def launched() -> dict:
    return _launched()


@pytest.mark.clause("mwms.process-state")
@pytest.mark.parametrize("i", [0, 1])
def test_each_worker_sees_what_its_own_tf_process_sees(launched, i):
    want = tf_workers.spawn(__file__, [i])[i]    # a TF process of its own per worker
    for key in STRUCTURAL:
        assert launched[i][key] == want[key], \
            f"worker {i}: {key}={launched[i][key]!r}, but TF 2.21 running the program alone gives {want[key]!r}"


@pytest.mark.clause("mwms.process-state")
@pytest.mark.parametrize("i", [0, 1])
def test_each_workers_random_values_are_those_of_its_program_alone(launched, i):
    alone = _alone_on_simdist(i)
    for key in VALUES + STRUCTURAL:
        assert launched[i][key] == alone[key], \
            f"worker {i}: {key}={launched[i][key]!r} under the launch, but {alone[key]!r} running alone"
    assert launched[0]["keras_normal"] != launched[1]["keras_normal"], "the two seeds should draw differently"


def test_the_launch_leaves_the_launchers_keras_state_alone():
    from simdist import tf
    keras = tf.keras
    keras.backend.clear_session()
    before = (keras.mixed_precision.global_policy().name, keras.backend.floatx(), keras.layers.Dense(1).name)
    _launched()
    after = (keras.mixed_precision.global_policy().name, keras.backend.floatx(), keras.layers.Dense(1).name)
    assert before == ("float32", "float32", "dense") and after == ("float32", "float32", "dense_1"), \
        f"before the launch {before}, after {after}: the workers' policies, floatx and names must stay theirs"


def _tf_worker(indices: list[int]) -> dict:
    import tensorflow as tf
    return {i: program(tf, i, lambda: None) for i in indices}


if __name__ == "__main__":
    if sys.argv[1] == "--simdist":   # the program alone on simdist, in this process
        from simdist import tf as simtf
        k = int(sys.argv[2])
        sys.stdout.buffer.write(pickle.dumps(program(simtf, k, lambda: None)))
        sys.stdout.flush()
    else:
        tf_workers.serve(_tf_worker)
