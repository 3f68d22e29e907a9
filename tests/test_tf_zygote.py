"""The TF zygote (simdist/conformance/backends/tf_zygote.py) stands in for a fresh `python module.py i,j` process:
the same answers, exit codes, stdout and stderr, argv, working directory, environment and
sys.path; a failing worker's stderr still reaches the test's error; a worker past its timeout is
killed and the zygote serves the next request; another environment than the zygote's gets a
fresh process."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import tf_workers
from simdist.conformance.backends import tf_zygote

pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="real TensorFlow is not installed"),
              pytest.mark.skipif(not tf_zygote.FORK_OK, reason="the zygote forks (Linux only)")]

HERE = Path(__file__).resolve().parent


def _env() -> dict[str, str]:
    return dict(os.environ, TF_CPP_MIN_LOG_LEVEL="3", PYTHONPATH=os.pathsep.join(sys.path))


@pytest.fixture(scope="module")
def zygote():
    z = tf_zygote.Zygote(_env())
    yield z
    z.close()


def _run(zygote: tf_zygote.Zygote, argv: list[str], cwd: str, env: dict[str, str],
         timeout: float) -> tuple[int, bytes, bytes]:
    return zygote.run(argv, cwd, env, timeout)[:3]


def _fresh(argv: list[str], cwd: str, env: dict[str, str], timeout: float = 300) -> tuple[int, bytes, bytes]:
    p = subprocess.run([sys.executable, *argv], capture_output=True, env=env, cwd=cwd, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def test_zygote_answers_equal_a_fresh_process_for_a_golden_module(zygote):
    """A recorded differential module's live slice: byte-identical pickled answers."""
    module = str(HERE / "ops" / "test_dtype_text_tf.py")
    argv = [module, "0,1,2"]
    want = _fresh(argv, os.path.dirname(module), zygote.env)
    got = _run(zygote, argv, os.path.dirname(module), zygote.env, 300)
    assert want[0] == 0, f"the fresh worker failed (exit {want[0]}): {want[2][-2000:].decode()}"
    assert got[0] == 0, f"the zygote's child failed (exit {got[0]}): {got[2][-2000:].decode()}"
    assert got[1] == want[1], (f"zygote answers ({len(got[1])} bytes) differ from a fresh process' "
                               f"({len(want[1])} bytes) [{os.path.basename(module)} 0,1,2]")


SCRIPTS = {
    "prints": "import sys\nsys.stdout.write('out ' + sys.argv[1])\nsys.stderr.write('err')\n",
    "exit-3": "import sys\nprint('before')\nsys.exit(3)\n",
    "exit-message": "import sys\nsys.exit('a message')\n",
    "raises": "print('partial', flush=True)\nraise ValueError('bad case 3')\n",
    "os-exit": "import os, sys\nsys.stdout.write('done')\nsys.stdout.flush()\nos._exit(0)\n",
    "killed": "import os, signal\nos.kill(os.getpid(), signal.SIGTERM)\n",
    "process": ("import json, os, sys\nprint(json.dumps({'argv': sys.argv, 'cwd': os.getcwd(), 'path': sys.path,\n"
                "'main': __name__, 'file': __file__, 'env': sorted(os.environ.items())}))\n"),
}


@pytest.mark.parametrize("name", sorted(SCRIPTS))
def test_child_behaves_as_a_fresh_interpreter(zygote, tmp_path, name):
    script = tmp_path / "sub" / f"{name.replace('-', '_')}.py"
    script.parent.mkdir()
    script.write_text(SCRIPTS[name])
    argv = [str(script), "0,7"]
    want = _fresh(argv, str(tmp_path), zygote.env)
    got = _run(zygote, argv, str(tmp_path), zygote.env, 60)
    assert got[0] == want[0], f"exit {got[0]}, but a fresh interpreter exits {want[0]} [{name}]"
    if name == "process":
        g, w = json.loads(got[1]), json.loads(want[1])
        for key in w:
            assert g[key] == w[key], f"{key}={g[key]!r}, but a fresh interpreter has {w[key]!r}"
    assert got[1] == want[1], f"stdout {got[1][-500:]!r}, but should be {want[1][-500:]!r} [{name}]"
    assert got[2] == want[2], f"stderr {got[2][-800:]!r}, but should be {want[2][-800:]!r} [{name}]"


def test_failing_worker_reports_its_stderr(tmp_path, monkeypatch):
    """What a test shows when TF's side fails: the exit code and the worker's traceback."""
    module = tmp_path / "test_failing_tf.py"
    module.write_text("import sys\nprint('worker note', file=sys.stderr)\nraise ValueError('bad case 3')\n")
    for use in (True, False):
        monkeypatch.setattr(tf_workers, "use_zygote", use)
        with pytest.raises(RuntimeError) as e:
            tf_workers._run_live(str(module), [0, 3], 60)
        text = str(e.value)
        for part in ("TF worker for test_failing_tf.py failed (exit 1)", "worker note", "ValueError: bad case 3",
                     'test_failing_tf.py", line 3'):
            assert part in text, f"the error should contain {part!r} (zygote={use}), but reads:\n{text}"


def test_timeout_kills_the_child_and_the_zygote_serves_on(zygote, tmp_path):
    slow = tmp_path / "slow.py"
    slow.write_text("import time\ntime.sleep(600)\n")
    with pytest.raises(subprocess.TimeoutExpired):
        _run(zygote, [str(slow)], str(tmp_path), zygote.env, 1)
    quick = tmp_path / "quick.py"
    quick.write_text("print('still here')\n")
    got = _run(zygote, [str(quick)], str(tmp_path), zygote.env, 60)
    assert got[:2] == (0, b"still here\n"), f"after a timeout the zygote answered {got}, but should run the next request"


@pytest.mark.slow   # fresh TF processes beside zygote children: 24 s of the default run (2026-12-06)
def test_other_environment_gets_its_own_zygote(tmp_path, monkeypatch):
    """A zygote imported TF with its own environment: a request with another one (TF reads some
    variables at import) gets a zygote started with that one, and later requests stay on it."""
    script = tmp_path / "env.py"
    script.write_text("import os\nprint(os.environ.get('SIMDIST_ZYGOTE_PROBE'))\n")
    monkeypatch.setattr(tf_workers, "_zygote", None)
    monkeypatch.setattr(tf_workers, "use_zygote", True)
    before = dict(tf_workers.stats)
    answers = []
    for probe in (None, "1", "1"):
        env = _env() if probe is None else dict(_env(), SIMDIST_ZYGOTE_PROBE=probe)
        answers.append(tf_workers.run_worker([str(script)], str(tmp_path), env, 60)[:2])
        if probe is not None:
            assert tf_workers._zygote.env.get("SIMDIST_ZYGOTE_PROBE") == probe, "the zygote should carry the variable"
    tf_workers.close_zygote()
    assert answers == [(0, b"None\n"), (0, b"1\n"), (0, b"1\n")], f"answers {answers}"
    assert (tf_workers.stats["restarts"], tf_workers.stats["forked"]) == (before["restarts"] + 1, before["forked"] + 3), \
        f"stats {tf_workers.stats}, but should count one restart and three forks after {before}"


def test_children_draw_their_own_unseeded_random_state(zygote, tmp_path):
    """A fresh interpreter seeds `random` and NumPy's global generator from OS entropy; forked
    children must not all replay the zygote's state."""
    script = tmp_path / "draw.py"
    script.write_text("import random, numpy\nprint(random.random(), numpy.random.random())\n")
    draws = [_run(zygote, [str(script)], str(tmp_path), zygote.env, 60) for _ in range(2)]
    assert all(d[0] == 0 for d in draws), f"the draws failed: {draws}"
    assert draws[0][1] != draws[1][1], f"two children drew the same values {draws[0][1]!r}, but each should seed its own"


def test_module_mode_behaves_as_python_dash_m(zygote, tmp_path):
    """`-m package.module` (the tensorflow backend's MultiWorkerMirrored clients): argv, sys.path
    (the working directory first), __name__ and output as `python -m` gives them."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "probe.py").write_text(SCRIPTS["process"])
    argv = ["-m", "pkg.probe", "a", "1"]
    want = _fresh(argv, str(tmp_path), zygote.env)
    got = _run(zygote, argv, str(tmp_path), zygote.env, 60)
    assert got[0] == want[0] == 0, f"exit {got[0]}, fresh {want[0]}: {got[2][-800:]!r} {want[2][-800:]!r}"
    g, w = json.loads(got[1]), json.loads(want[1])
    for key in w:
        assert g[key] == w[key], f"{key}={g[key]!r}, but `python -m` has {w[key]!r}"


def test_children_run_concurrently(zygote, tmp_path):
    """Clients of one cluster run at the same time: the first waits for a file only the second writes."""
    flag = tmp_path / "flag"
    a = tmp_path / "a.py"
    a.write_text(f"import os, time\nfor _ in range(600):\n    if os.path.exists({str(flag)!r}): break\n"
                 f"    time.sleep(0.1)\nprint(os.path.exists({str(flag)!r}))\n")
    b = tmp_path / "b.py"
    b.write_text(f"open({str(flag)!r}, 'w').close()\n")
    outs = [str(tmp_path / f"{n}.{s}") for n in "ab" for s in ("out", "err")]
    pa = zygote.spawn([str(a)], str(tmp_path), zygote.env, outs[0], outs[1])
    pb = zygote.spawn([str(b)], str(tmp_path), zygote.env, outs[2], outs[3])
    assert zygote.wait(pa, 120)[0] == 0 and zygote.wait(pb, 60)[0] == 0, Path(outs[1]).read_text()
    assert Path(outs[0]).read_text() == "True\n", f"the first child printed {Path(outs[0]).read_text()!r}, " \
                                                   f"but should have seen the second's file"


@pytest.mark.slow   # fresh TF processes beside zygote children: 29 s of the default run (2026-12-06)
def test_backend_multi_worker_clients_from_the_zygote_equal_fresh_ones(monkeypatch):
    """The tensorflow backend's run_multi_worker forks its clients from a zygote: the same results
    as fresh interpreters (SIMDIST_TF_ZYGOTE=0), and a client's failure still names its traceback."""
    from simdist.conformance.backends.tf_backend import TensorFlowBackend
    program = ("v = strategy.experimental_distribute_values_from_function(lambda c: float(c.replica_id_in_sync_group))\n"
               "result = [strategy.num_replicas_in_sync, strategy.cluster_resolver.task_type,\n"
               "          float(strategy.reduce('SUM', v, axis=None))]")
    got = {}
    for flag in ("1", "0"):
        monkeypatch.setenv("SIMDIST_TF_ZYGOTE", flag)
        b = TensorFlowBackend()
        try:
            got[flag] = b.run_multi_worker(program, 2, chief=True)
            if flag == "1":   # (the fresh path's failure report is the suite's own, unchanged)
                with pytest.raises(RuntimeError) as e:
                    b.run_multi_worker("result = 1 / 0", 2)
                assert "worker 0 failed (exit 1)" in str(e.value) and "ZeroDivisionError" in str(e.value), \
                    f"a failing client should report its exit and traceback, but: {e.value}"
            assert (b._zygote is not None) == (flag == "1"), f"zygote {b._zygote} with SIMDIST_TF_ZYGOTE={flag}"
        finally:
            b.teardown()
    assert got["1"] == got["0"], f"zygote clients gave {got['1']}, fresh ones {got['0']}"
