"""A suggested fix must itself be a valid scenario (issue 28 item 8: the did-you-mean for
`gpus_per_host = 64` proposed a cluster that did not fit): each suggestion of the "too many GPUs
on one host" error is applied and the result must load with the same number of GPUs."""

from __future__ import annotations

import re

import pytest

from simdist.scenario.loader import ScenarioError, loads

BASE = """
[scenario]
name = "t"
[cluster]
{cluster}
[strategy]
{strategy}
[model]
flops_per_example = "1GFLOP"
global_batch = 512
example_bytes = "4KiB"
[[model.variables]]
name = "w"
shape = [16]
[training]
steps = 2
"""

CASES = {
    "gpu_cluster 2x64 mirrored": ('preset = "gpu_cluster"\nhosts = 2\ngpus_per_host = 64', 'kind = "mirrored"', 128),
    "gpu_host 64 mirrored": ('preset = "gpu_host"\ngpus = 64', 'kind = "mirrored"', 64),
    "gpu_host 32 central_storage": ('preset = "gpu_host"\ngpus = 32', 'kind = "central_storage"', 32),
}


def _gpus(sc) -> int:
    from simdist.scenario.build import build_cluster
    return sum(1 for d in build_cluster(sc).devices() if "GPU" in str(d))


@pytest.mark.parametrize("case", sorted(CASES))
def test_every_suggestion_for_too_many_gpus_fits(case: str) -> None:
    cluster, strategy, total = CASES[case]
    with pytest.raises(ScenarioError) as ei:
        loads(BASE.format(cluster=cluster, strategy=strategy), "t.toml", [])
    msg = str(ei.value)
    # the suggestions as override lists: "cluster.preset = "gpu_cluster" with hosts = H and gpus_per_host = G",
    # "cluster.max_gpus_per_host = N"
    spread = re.search(r'cluster\.preset = "gpu_cluster" with hosts = (\d+) and gpus_per_host = (\d+)', msg)
    raise_ = re.search(r"cluster\.max_gpus_per_host = (\d+)", msg)
    assert spread or raise_, f"no suggestion in: {msg}"
    tried = []
    if spread:
        h, g = int(spread.group(1)), int(spread.group(2))
        text = BASE.format(cluster=f'preset = "gpu_cluster"\nhosts = {h}\ngpus_per_host = {g}', strategy=strategy)
        tried.append(("spread over hosts", text))
    if raise_:
        text = BASE.format(cluster=cluster + f"\nmax_gpus_per_host = {raise_.group(1)}", strategy=strategy)
        tried.append(("max_gpus_per_host", text))
    for what, text in tried:
        try:
            sc = loads(text, "t.toml", [])
        except ScenarioError as e:
            raise AssertionError(f"{case}: the suggestion '{what}' of\n  {msg}\ndoes not fit:\n  {e}") from None
        assert _gpus(sc) == total, f"{case}: the suggestion '{what}' gives {_gpus(sc)} GPUs, the file asked for {total}"
