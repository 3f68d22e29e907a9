"""Property tests of distributed input over random sizes, batch sizes, replicas (1..8), workers, policies.

Expectations are computed here from the documented rules (tf-2.21-semantics.md §3), independently
of simdist.semantics: the legacy split rows [min(k*m, b), min((k+1)*m, b)) with m = ceil(b/R), and
RebatchV2's "batch sizes cycle per replica" with rows kept in order.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simdist.runtime import data
from simdist.runtime.values import PerReplica
from simdist.strategies import input as dinput

D = data.Dataset
P = data.experimental.AutoShardPolicy


def layout(num_replicas: int, num_workers: int) -> dinput.InputLayout:
    r = num_replicas // num_workers
    devs = tuple(tuple(f"/job:worker/replica:0/task:{w}/device:CPU:{j}" for j in range(r)) for w in range(num_workers))
    hosts = tuple(f"/job:worker/replica:0/task:{w}/device:CPU:0" for w in range(num_workers))
    return dinput.InputLayout(devs, hosts)


@st.composite
def setups(draw: Any) -> dict[str, Any]:
    num_replicas = draw(st.integers(1, 8))
    num_workers = draw(st.sampled_from([w for w in (1, 2, 4) if num_replicas % w == 0]))
    return {
        "n": draw(st.integers(0, 40)),
        "b": draw(st.integers(1, 12)),
        "R": num_replicas,
        "W": num_workers,
        "drop": draw(st.booleans()),
        "policy": draw(st.sampled_from([P.AUTO, P.DATA, P.OFF])),
        "pair": draw(st.booleans()),
    }


def build(s: dict[str, Any]) -> Any:
    ds = D.range(s["n"])
    if s["pair"]:
        ds = ds.map(lambda x: (x, x * 10))
    ds = ds.batch(s["b"], drop_remainder=s["drop"])
    o = data.Options()
    o.experimental_distribute.auto_shard_policy = s["policy"]
    return dinput.distribute_dataset(ds.with_options(o), layout(s["R"], s["W"]))


def run(s: dict[str, Any]) -> list[list[list[int]]]:
    """Per step, per replica (global replica order), the rows; also checks tuple components agree."""
    out = []
    for step in build(s):
        if s["pair"]:
            first, second = step
            comps = list(zip(_values(first, s["R"]), _values(second, s["R"])))
            for a, b in comps:
                assert [10 * x for x in a] == b, f"tuple components disagree: {a} vs {b}"
            out.append([a for a, _ in comps])
        else:
            out.append(_values(step, s["R"]))
    return out


def _values(v: Any, num_replicas: int) -> list[list[int]]:
    vals = v.values if isinstance(v, PerReplica) else (v,)
    assert len(vals) == num_replicas, f"{len(vals)} components, but there are {num_replicas} replicas"
    for t in vals:
        assert t.dtype.name == "int64" and t.ndim == 1, f"replica value {t!r} should be an int64 vector"
    return [t.numpy().tolist() for t in vals]


def kept_rows(s: dict[str, Any]) -> list[int]:
    n, b = s["n"], s["b"]
    return list(range((n // b) * b if s["drop"] else n))


def global_batches(s: dict[str, Any]) -> list[list[int]]:
    rows = kept_rows(s)
    return [rows[i:i + s["b"]] for i in range(0, len(rows), s["b"])]


def legacy_pieces(batch: list[int], num_replicas: int) -> list[list[int]]:
    m = math.ceil(len(batch) / num_replicas) if batch else 0
    return [batch[min(k * m, len(batch)):min((k + 1) * m, len(batch))] for k in range(num_replicas)]


def v2_sizes(b: int, num_replicas: int) -> list[int]:
    f, c = divmod(b, num_replicas)
    return [f + 1] * c + [f] * (num_replicas - c)


@settings(max_examples=60)
@given(setups())
def test_every_row_once_in_order(s: dict[str, Any]) -> None:
    got = run(s)
    rows = kept_rows(s)
    if s["policy"] == P.OFF and s["W"] > 1:
        # OFF: no sharding, every worker reads the whole dataset.
        r = s["R"] // s["W"]
        for w in range(s["W"]):
            mine = [x for step in got for rep in step[w * r:(w + 1) * r] for x in rep]
            assert mine == rows, f"worker {w} under OFF should read every row once in order; {s}: {mine}"
        return
    flat = sorted(x for step in got for rep in step for x in rep)
    assert flat == rows, f"rows seen {flat}, but every kept row should appear exactly once {rows}; {s}"
    if s["W"] == 1:
        in_order = [x for step in got for rep in step for x in rep]
        assert in_order == rows, f"replica order must follow the data order; {s}: {in_order}"


@settings(max_examples=60)
@given(setups())
def test_per_replica_batches_follow_the_rule(s: dict[str, Any]) -> None:
    got = run(s)
    R, W = s["R"], s["W"]
    batches = global_batches(s)
    if R == 1:
        assert got == [[b] for b in batches], f"one replica gets the batches unchanged; {s}: {got}"
        return
    if s["policy"] in (P.AUTO, P.DATA):
        # Legacy split of every global batch into R pieces; worker w's replica j gets piece w + j*W.
        r = R // W
        expected = []
        for batch in batches:
            pieces = legacy_pieces(batch, R)
            expected.append([pieces[w + j * W] for w in range(W) for j in range(r)])
        assert got == expected, f"legacy split expected {expected}, got {got}; {s}"
        return
    if W == 1:
        # RebatchV2: replica j's batch has sizes[j] rows in every step but the last.
        sizes = v2_sizes(s["b"], R)
        for i, step in enumerate(got[:-1]):
            assert [len(rep) for rep in step] == sizes, f"step {i} sizes {[len(x) for x in step]} != {sizes}; {s}"
        if got:
            last = [len(rep) for rep in got[-1]]
            assert all(a <= e for a, e in zip(last, sizes)) and sum(last) > 0, f"last step {last} vs {sizes}; {s}"


@settings(max_examples=40)
@given(n=st.integers(0, 30), b=st.integers(1, 6), R=st.integers(1, 8))
def test_dataset_fn_deals_round_robin(n: int, b: int, R: int) -> None:
    dff = dinput.distribute_datasets_from_function(lambda ctx: D.range(n).batch(b), layout(R, 1))
    batches = [list(range(i, min(i + b, n))) for i in range(0, n, b)]
    got = [_values(step, R) for step in dff]
    expected = [[batches[s * R + j] if s * R + j < len(batches) else [] for j in range(R)]
                for s in range(math.ceil(len(batches) / R))]
    assert got == expected, f"round-robin dealing expected {expected}, got {got} (n={n}, b={b}, R={R})"


def _require_slow(request: Any) -> None:
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("long property run: select it with -m slow")


@pytest.mark.slow
def test_properties_long(request: Any) -> None:
    _require_slow(request)

    @settings(max_examples=1500, deadline=None)
    @given(setups())
    def check(s: dict[str, Any]) -> None:
        test_every_row_once_in_order.hypothesis.inner_test(s)
        test_per_replica_batches_follow_the_rule.hypothesis.inner_test(s)

    check()
