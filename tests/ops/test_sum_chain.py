"""sum_chain (simdist/runtime/ops/sum_chain.py): the blocked, threaded sum of AddN and the
cross-replica SUM/MEAN is bit-identical to the sequential np.add chain (TF's AddN order: one chain
up to 9 inputs, groups of 8 after), whatever the dtype, values, size and layout; errors reach the
caller; the helper threads are daemons made once. TF 2.21's order itself:
tests/strategies/test_addn_order_tf.py."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import threading
import warnings

import numpy as np
import pytest

from simdist.runtime import dtypes
from simdist.runtime.ops import sum_chain as sc

BF16 = np.dtype(dtypes.bfloat16.np)
DTYPES = [np.dtype(n) for n in ("float16", "float32", "float64", "int8", "uint8", "int16", "int32", "int64",
                                "uint32", "uint64", "complex64", "complex128")] + [BF16]


def plain(arrays: list[np.ndarray]) -> np.ndarray:
    out = np.asarray(np.add(arrays[0], arrays[1]))
    for a in arrays[2:]:
        np.add(out, a, out=out)
    return out


def chain(arrays: list[np.ndarray]) -> np.ndarray:
    """What sum_chain must give bit for bit: the sequential np.add chain up to 9 arrays; beyond,
    TF's AddN: the first k % 8 (8 if 0, 9 if 1) chained, then each next 8 chained and added."""
    k = len(arrays)
    r = {0: 8, 1: 9}.get(k % 8, k % 8) if k > 9 else k
    out = plain(arrays[:r])
    for i in range(r, k, 8):
        np.add(out, plain(arrays[i:i + 8]), out=out)
    return out


def test_addn_groups_are_tfs() -> None:
    want = {2: [(0, 2)], 7: [(0, 7)], 8: [(0, 8)], 9: [(0, 9)], 10: [(0, 2), (2, 10)], 16: [(0, 8), (8, 16)],
            17: [(0, 9), (9, 17)], 26: [(0, 2), (2, 10), (10, 18), (18, 26)]}
    for k, groups in want.items():
        assert sc.addn_groups(k) == groups, f"addn_groups({k})={sc.addn_groups(k)}, but should be {groups}"


def values(rng: np.random.Generator, n: int, dt: np.dtype) -> np.ndarray:
    """n values of dt with the awkward ones: NaN, +-inf, +-0, subnormals, near-overflow, wrap-around."""
    if dt.kind in "iu":
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, n, dtype=dt, endpoint=True)
    if dt.kind == "c":
        part = np.dtype(f"float{dt.itemsize * 4}")
        re, im = values(rng, n, part), values(rng, n, part)
        out = np.empty(n, dt)
        out.real, out.imag = re, im
        return out
    base = np.float32 if dt == BF16 else dt
    big = float(np.finfo(np.float16).max if dt == np.float16 else np.finfo(np.float32).max if dt == BF16
                else np.finfo(base).max)
    x = rng.standard_normal(n) * 10.0 ** rng.integers(-6, 6, n)
    special = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, big, -big, big / 3, 1e-40, -1e-45, 6e-8])
    pick = rng.random(n) < 0.05
    x[pick] = rng.choice(special, int(pick.sum()))
    with np.errstate(all="ignore"):
        return x.astype(base).astype(dt)


def assert_same(got: np.ndarray, want: np.ndarray, what: str) -> None:
    assert got.dtype == want.dtype, f"out.dtype={got.dtype}, but should be {want.dtype} [{what}]"
    assert got.shape == want.shape, f"out.shape={got.shape}, but should be {want.shape} [{what}]"
    assert got.flags.c_contiguous == want.flags.c_contiguous, (
        f"out C-contiguous={got.flags.c_contiguous}, but should be {want.flags.c_contiguous} [{what}]")
    g, w = got.reshape(-1).view(np.uint8), want.reshape(-1).view(np.uint8)
    if not np.array_equal(g, w):
        i = int(np.flatnonzero((g != w).reshape(-1, got.itemsize).any(axis=1))[0])
        raise AssertionError(f"out.flat[{i}]={got.reshape(-1)[i]!r}, but should be {want.reshape(-1)[i]!r} "
                             f"(bits differ) [{what}]")


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocked path from 4 KiB, 1 KiB blocks: small arrays with many blocks and a partial last one."""
    monkeypatch.setattr(sc, "PARALLEL_BYTES", 4096)
    monkeypatch.setattr(sc, "BLOCK_BYTES", 1024)


@pytest.mark.parametrize("dt", DTYPES, ids=str)
@pytest.mark.parametrize("k", [2, 3, 4, 5, 9, 10, 17])
def test_blocked_sum_is_the_chain_bit_for_bit(small_blocks: None, dt: np.dtype, k: int) -> None:
    rng = np.random.default_rng([k, dt.num, dt.itemsize])
    n = 4097 // dt.itemsize * 7 + 3   # odd, several blocks, a partial last block
    arrays = [values(rng, n, dt) for _ in range(k)]
    assert sc._blocks(arrays) is not None, f"{k} x {n} {dt} should take the blocked path"
    with np.errstate(all="ignore"):
        want = chain(arrays)
    assert_same(sc.sum_chain(arrays), want, f"sum_chain of {k} x {n} {dt}")


@pytest.mark.parametrize("dt", [np.dtype(np.float32), np.dtype(np.float16), BF16, np.dtype(np.int32)], ids=str)
def test_non_contiguous_inputs(small_blocks: None, dt: np.dtype) -> None:
    rng = np.random.default_rng([7, dt.num])
    shape = (67, 41)
    c = [values(rng, shape[0] * shape[1], dt).reshape(shape) for _ in range(3)]
    strided = values(rng, shape[0] * shape[1] * 2, dt).reshape(shape[0], shape[1] * 2)[:, ::2]
    fortran = np.asfortranarray(values(rng, shape[0] * shape[1], dt).reshape(shape))
    transposed = values(rng, shape[0] * shape[1], dt).reshape(shape[::-1]).T
    cases = {
        "later inputs strided, Fortran, transposed (row blocks)": [c[0], c[1], strided, fortran, transposed],
        "first input Fortran (plain chain)": [fortran, c[0], c[1]],
        "second input strided (plain chain)": [c[0], strided, c[1], transposed],
        "a 1-row array with a strided later input (plain chain)": [c[0][:1], c[1][:1], strided[:1]],
    }
    for what, arrays in cases.items():
        with np.errstate(all="ignore"):   # (the plain chain's warnings: pytest drops simdist's filter)
            want, got = chain(arrays), sc.sum_chain(arrays)
        assert_same(got, want, f"{what}, {dt}")
    plan = sc._blocks(cases["later inputs strided, Fortran, transposed (row blocks)"])
    assert plan is not None and plan[0] is False, f"plan={plan}, but should be row blocks (False, rows, count)"


def test_real_threshold_4_x_1m_float32_and_small_arrays() -> None:
    """The defaults: 4 x 1,000,000 float32 (the benchmark's case) blocked, 4 x 1,000 plain."""
    rng = np.random.default_rng(25)
    for n, blocked in ((1_000_000, True), (1_000, False)):
        arrays = [values(rng, n, np.dtype(np.float32)) for _ in range(4)]
        assert (sc._blocks(arrays) is not None) is blocked, f"4 x {n} float32: blocked should be {blocked}"
        with np.errstate(all="ignore"):
            want, got = chain(arrays), sc.sum_chain(arrays)
        assert_same(got, want, f"sum_chain of 4 x {n} float32")


def test_helpers_sum_blocks_and_errors_reach_the_caller(small_blocks: None, monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    jobs, helpers = sc._ensure_pool()
    if helpers == 0:
        pytest.skip(f"os.cpu_count()={os.cpu_count()}: no helper threads")
    threads = [t for t in threading.enumerate() if t.name.startswith("simdist-sum-")]
    assert len(threads) == helpers and all(t.daemon for t in threads), (
        f"helper threads {[(t.name, t.daemon) for t in threads]}, but should be {helpers} daemons")
    assert sc._ensure_pool() == (jobs, helpers), "a second call made a new pool"
    caller = threading.get_ident()
    helper_took, caller_took = threading.Event(), threading.Event()
    seen: list[int] = []
    block = sc._Job._block

    def watched(self: sc._Job, i: int) -> None:
        # Each side waits (bounded) until the other has taken a block, so both sum some blocks:
        # without the helper's wait, a helper holding the GIL could sum every block before the
        # caller took one (a flake seen on a loaded machine).
        seen.append(threading.get_ident())
        if threading.get_ident() == caller:
            caller_took.set()
            helper_took.wait(60)
        else:
            helper_took.set()
            caller_took.wait(60)
        block(self, i)

    monkeypatch.setattr(sc._Job, "_block", watched)
    monkeypatch.setattr(sc, "_cores_free", lambda: True)   # (helpers are not asked on a loaded machine)
    rng = np.random.default_rng(3)
    arrays = [values(rng, 5000, np.dtype(np.float32)) for _ in range(4)]
    with np.errstate(all="ignore"):
        want = chain(arrays)
    assert_same(sc.sum_chain(arrays), want, "sum_chain with a helper summing blocks")
    assert caller in seen and any(t != caller for t in seen), (
        f"blocks summed by {sorted(set(seen))}, but should be the caller {caller} and a helper")

    def failing(self: sc._Job, i: int) -> None:
        if i == 2:
            raise MemoryError("block 2")
        block(self, i)

    monkeypatch.setattr(sc._Job, "_block", failing)
    with pytest.raises(MemoryError, match="block 2"):
        sc.sum_chain(arrays)
    monkeypatch.setattr(sc._Job, "_block", block)
    assert_same(sc.sum_chain(arrays), want, "sum_chain after a failed call")


def test_no_helper_is_asked_on_an_oversubscribed_machine(small_blocks: None, monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    monkeypatch.setattr(sc.os, "getloadavg", lambda: (float((os.cpu_count() or 1) + 1), 0.0, 0.0))
    assert not sc._cores_free(), "load average cpu_count + 1 should keep the helpers idle"
    monkeypatch.setattr(sc.os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    assert sc._cores_free(), "load average 0.5 should ask the helpers"
    monkeypatch.setattr(sc, "_cores_free", lambda: False)
    caller = threading.get_ident()
    seen: set[int] = set()
    block = sc._Job._block

    def watched(self: sc._Job, i: int) -> None:
        seen.add(threading.get_ident())
        block(self, i)

    monkeypatch.setattr(sc._Job, "_block", watched)
    rng = np.random.default_rng(5)
    arrays = [values(rng, 5000, np.dtype(np.float32)) for _ in range(3)]
    with np.errstate(all="ignore"):
        want = chain(arrays)
    assert_same(sc.sum_chain(arrays), want, "sum_chain with the helpers idle")
    assert seen == {caller}, f"blocks summed by {sorted(seen)}, but should be the caller {caller} alone"


def test_blocked_path_is_silent_on_non_finite_results(small_blocks: None) -> None:
    """inf - inf and overflow give nan/inf without a RuntimeWarning, as TF (ops.nonfinite-silent)."""
    a = np.full(3000, np.inf, np.float32)
    b = np.full(3000, -np.inf, np.float32)
    big = np.full(3000, 3e38, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = sc.sum_chain([a, b, big])
        over = sc.sum_chain([big, big])
    assert np.isnan(out).all() and np.isposinf(over).all(), (
        f"out={out[:2]}, {over[:2]}, but should be nan and inf [sum_chain of inf, -inf / 3e38 + 3e38]")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork")
def test_a_forked_child_starts_its_own_helpers(small_blocks: None) -> None:
    rng = np.random.default_rng(4)
    arrays = [values(rng, 5000, np.dtype(np.float64)) for _ in range(3)]
    with np.errstate(all="ignore"):
        want = chain(arrays)
    sc.sum_chain(arrays)   # the parent's pool exists before the fork
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:   # the child: its helpers must be new threads, or sum_chain would wait forever
        try:
            ok = sc._pool is None and np.array_equal(sc.sum_chain(arrays).view(np.uint64), want.view(np.uint64))
            os.write(w, b"1" if ok else b"0")
        finally:
            os._exit(0)
    os.close(w)
    ready, _, _ = select.select([r], [], [], 300)   # a hang guard: the child answers at once
    answer = os.read(r, 1) if ready else b"(no answer: the child hangs)"
    os.close(r)
    if not ready:
        os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    assert answer == b"1", f"the forked child answered {answer!r}, but should be b'1' (pool reset, same sum)"


@pytest.mark.parametrize("k", [4, 10, 12, 17])
def test_plain_path_follows_addn_groups(k: int) -> None:
    rng = np.random.default_rng([11, k])
    arrays = [values(rng, 999, np.dtype(np.float32)) for _ in range(k)]
    assert sc._blocks(arrays) is None, f"{k} x 999 float32 should take the plain chain"
    with np.errstate(all="ignore"):
        want, got = chain(arrays), sc.sum_chain(arrays)
    assert_same(got, want, f"sum_chain of {k} x 999 float32 (plain)")


_SILENT = r"""
import numpy as np
from simdist import tf
cpu = tf.config.list_physical_devices("CPU")[0]
tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 3)
s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1", "/cpu:2"])
for n in (4, 400_000):   # the plain chain and the blocked path
    parts = [np.full(n, np.inf, np.float32), np.full(n, -np.inf, np.float32), np.full(n, 3e38, np.float32)]
    v = s.experimental_distribute_values_from_function(lambda ctx: tf.constant(parts[ctx.replica_id_in_sync_group]))
    for op in ("SUM", "MEAN"):
        out = s.reduce(op, v, axis=None).numpy()
        assert np.isnan(out).all(), (op, n, out[:4])
    assert np.isposinf(tf.add_n([tf.constant(parts[2])] * 2).numpy()).all()
    ring = s.run(lambda x: tf.distribute.get_replica_context().all_reduce("SUM", x), args=(v,))   # the ring order
    assert np.isnan(s.experimental_local_results(ring)[0].numpy()).all(), ("all_reduce", n)
print("silent")
"""


@pytest.mark.clause("ops.nonfinite-silent")
def test_reduce_and_add_n_of_non_finite_values_are_silent() -> None:
    """In a fresh process (simdist imported outside pytest's warning capture) where any other
    RuntimeWarning is an error: inf - inf and overflow in Strategy.reduce, all_reduce and tf.add_n, as TF."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", _SILENT], capture_output=True,
                         text=True, env=env, timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "silent", (
        f"exit {out.returncode}, stdout {out.stdout[-300:]!r}, stderr {out.stderr[-1500:]}, but should print "
        f"'silent' without a RuntimeWarning [reduce/add_n of inf, -inf, 3e38]")
