"""The training reference grid — clause train.reference-grid (TF 2.21 + Keras 3.15).

A pairwise grid of small training programs (simdist/conformance/grid/programs.py: models of
every layer family, every loss and optimizer with their options and the base options, fit's
feeding options, value-changing callbacks, custom loops eager and in tf.function, weight files
and checkpoints, mixed_float16, one to three replicas) runs on the backend, and every observable
(losses and weights after each step, History, predict, evaluate, optimizer variables, tape
gradients, restored values) is compared with the values real TF 2.21 + Keras 3 gave, recorded
in simdist/conformance/grid/train_grid_reference.json.gz (re-record: `python -m
simdist.conformance.grid.record`). Programs TF rejects must be rejected with the same error class.

The default run takes every other program; ``SIMDIST_GRID=full`` takes all of them.
"""

from __future__ import annotations

import os

import pytest

from simdist.conformance.assertions import fail
from simdist.conformance.grid import programs, reference, runner

clause = pytest.mark.clause

_CASES = programs.cases()
_FULL = os.environ.get("SIMDIST_GRID", "") == "full"
SELECTED = [c.index for c in _CASES if _FULL or c.index % 2 == 0]

#: simdist's known disagreements with TF 2.21 found by the grid (case name -> the bug); the test
#: xfails while the program still disagrees and fails once it agrees (then drop the entry).
KNOWN_SIMDIST_BUGS: dict[str, str] = {}


def _check(backend, case: programs.Case) -> None:
    ref = reference.load()
    rec = ref["cases"].get(case.name)
    rerun = f"re-run `{reference.RECORD_COMMAND} --only {case.index}` (or without --only for the whole grid)"
    if rec is None:
        pytest.skip(f"grid program {case.name} has no TF 2.21 reference yet (an interrupted recording): {rerun}")
    if rec["hash"] != programs.case_hash(case):
        fail(f"reference data is stale: grid program {case.name} changed since TF 2.21 was recorded: {rerun}")
    what = f"grid program {case.name} ({case.describe()})"
    if "error" in rec:
        want = rec["error"]
        try:
            runner.run_case(backend, case)
        except Exception as e:  # noqa: BLE001 - the error class is the observable
            if type(e).__name__ != want["type"]:
                fail(f"{what}: raised {type(e).__name__}: {str(e)[:200]}, but TF 2.21 raises {want['type']}: "
                     f"{want['message'][:200]}")
            return
        fail(f"{what}: ran, but TF 2.21 raises {want['type']}: {want['message'][:200]}")
    problems = reference.compare(case, runner.run_case(backend, case), rec)
    if problems:
        fail(f"{what}: {len(problems)} observable(s) differ from TF 2.21:\n  " + "\n  ".join(problems[:8]))


@clause("train.reference-grid", ref="tf221")
@pytest.mark.parametrize("index", SELECTED, ids=[_CASES[i].name for i in SELECTED])
def test_grid_program_matches_tf(backend, index):
    """The program's every observable equals TF 2.21's recorded value (tolerances per observable
    in grid/reference.py), or it raises the error class TF raised."""
    case = _CASES[index]
    bug = KNOWN_SIMDIST_BUGS.get(case.name) if backend.name == "simdist" else None
    if bug is None:
        _check(backend, case)
        return
    try:
        _check(backend, case)
    except AssertionError as e:
        pytest.xfail(f"known simdist bug: {bug} ({str(e)[:300]})")
    fail(f"grid program {case.name} now agrees with TF 2.21: drop it from KNOWN_SIMDIST_BUGS ({bug})")


@clause("train.reference-grid", ref="tf221")
def test_grid_reference_is_current():
    """The shipped reference was recorded from this generator (same programs, same data) on
    TF 2.21 and Keras 3."""
    ref = reference.load()
    meta = ref["meta"]
    got = reference.generator_hash(_CASES)
    if meta["generator_hash"] != got:
        stale = [c.name for c in _CASES if ref["cases"].get(c.name, {}).get("hash") != programs.case_hash(c)]
        fail(f"reference data is stale: generator hash {got[:12]}, but the data was recorded for "
             f"{meta['generator_hash'][:12]}; {len(stale)} program(s) changed (first: {stale[:3]}): re-run "
             f"`{reference.RECORD_COMMAND}`")
    if not meta["tensorflow"].startswith("2.21") or not meta["keras"].startswith("3."):
        fail(f"reference recorded on TF {meta['tensorflow']} / Keras {meta['keras']}, but should be TF 2.21 / Keras 3")


@clause("keras.metric.top-k", ref="tf221")
@pytest.mark.parametrize("metric", ["SparseTopKCategoricalAccuracy", "TopKCategoricalAccuracy"])
def test_top_k_metric_of_float16_predictions_raises(backend, metric):
    """Found by the grid (mixed_float16 + a TopK metric): in_top_k takes float32 predictions only,
    so an eager update_state of float16 predictions raises InvalidArgumentError and fit (the
    metric in the traced train step) raises op_def_library's TypeError."""
    from simdist.conformance.repro import Program

    ns = Program(backend, """
        labels = np.array([0, 2]) if metric.startswith("Sparse") else np.eye(3, dtype=np.float32)[[0, 2]]
        m = getattr(tf.keras.metrics, metric)(k=2)
        try:
            m.update_state(labels, tf.constant([[1.0, 2.0, 0.5], [3.0, 1.0, 0.0]], tf.float16))
            eager = "no error"
        except Exception as e:
            eager = type(e).__name__
        tf.keras.mixed_precision.set_global_policy("mixed_float16")
        try:
            inp = tf.keras.Input((3,))
            model = tf.keras.Model(inp, tf.keras.layers.Dense(3)(inp))
            loss = "sparse_categorical_crossentropy" if metric.startswith("Sparse") else "categorical_crossentropy"
            model.compile("sgd", loss, metrics=[getattr(tf.keras.metrics, metric)(k=2)])
            try:
                model.fit(np.ones((4, 3), np.float32), np.concatenate([labels, labels]), verbose=0)
                fitted = "no error"
            except Exception as e:
                fitted = type(e).__name__
        finally:
            tf.keras.mixed_precision.set_global_policy("float32")
    """, metric=metric).run()
    call = f"{metric}(k=2) of float16 predictions"
    if (ns["eager"], ns["fitted"]) != ("InvalidArgumentError", "TypeError"):
        fail(f"eager update_state raised {ns['eager']}, fit raised {ns['fitted']}, but should be "
             f"InvalidArgumentError and TypeError (TF 2.21: InTopKV2 takes float32 predictions) [{call}]")


@clause("optim.option-coverage", ref="tf221")
@pytest.mark.parametrize("option", [{"gradient_accumulation_steps": 2},
                                    {"use_ema": True, "ema_overwrite_frequency": 1}], ids=["accumulation", "ema_overwrite"])
@pytest.mark.parametrize("traced", [False, True], ids=["eager", "tf_function"])
def test_optimizer_conds_under_mirrored_refuse_tracing(backend, option, traced):
    """Found by the grid: Keras's gradient-accumulation and EMA-overwrite `ops.cond`s merge_call in
    their branches; TF 2.21 traces both branches as new graphs, where MirroredStrategy's replica
    context refuses a merge_call (RuntimeError), so apply_gradients in strategy.run inside a
    tf.function raises on the first call; eagerly the step runs."""
    from simdist.conformance.repro import Program

    ns = Program(backend, """
        strategy = backend.make_strategy("mirrored", 2)
        with strategy.scope():
            v = tf.Variable([1.0, 2.0])
            opt = tf.keras.optimizers.SGD(0.5, **option)
            opt.build([v])
        def step():
            opt.apply_gradients([(tf.constant([1.0, -1.0]), v)])
        run = (tf.function(lambda: strategy.run(step)) if traced else (lambda: strategy.run(step)))
        try:
            run()
            outcome = "ran"
        except Exception as e:
            outcome = type(e).__name__
        value = backend.to_numpy(v).tolist()
    """, option=option, traced=traced).run()
    want = "RuntimeError" if traced else "ran"
    if ns["outcome"] != want:
        fail(f"strategy.run(apply_gradients) {'in' if traced else 'outside'} tf.function with SGD({option}) under "
             f"MirroredStrategy(2): {ns['outcome']}, but should be {want} (TF 2.21) [value {ns['value']}]")
