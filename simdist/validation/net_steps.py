"""NCCL's network pipeline step by step on the two AWS EFA sweeps: what must cross the network for each step of a
channel, and whether the pipeline hides it (docs/validation.md "Nineteenth session (2): the EFA step cost"; the
analysis found no rule, simdist's model is unchanged).

What the sources say (NVIDIA/nccl v2.20.3-1, the AWS rows' release; aws/aws-ofi-nccl v1.8.1-aws, cf6f822):

- *Steps and chunks.* Every network connection of a channel holds ``NCCL_STEPS`` = 8 buffer slots of
  ``buffSize / NCCL_STEPS`` (src/include/device.h line 22; src/transport/net.cc ``maxDepth = min(NCCL_STEPS,
  NCCL_SHARED_STEPS / nsubs)``, lines 1048 and 1228, nsubs = 1 for a collective's own connections: src/proxy.cc
  ``ProxyAppend`` groups subs only on shared (p2p) connections). The buffers (src/init.cc lines 541-543): LL 512 KiB,
  LL128 4,915,200 B, Simple 4 MiB or ``NCCL_BUFFSIZE`` (8 MiB in the AWS runs' Dockerfile). The chunk a step carries
  is src/enqueue.cc ``computeCollChunkInfo`` (lines 1683-1734; `chunk_bytes`).
- *The receiver's side.* ``recvProxyProgress`` posts ``irecv`` for step ``posted`` while ``posted < done +
  maxDepth`` (net.cc 1239) and a slot is done only after the GPU consumed it (``*sendHead``, 1407): a slot is
  re-posted one full cycle after it was last posted.
- *The sender's side.* ``sendProxyProgress`` hands a slot to the GPU while ``posted < done + maxDepth`` (1057) and
  frees it when the network reports the send complete (``test``, 1133).
- *The rendezvous.* aws-ofi-nccl's RDMA protocol (p5: more EFA devices than GPUs) answers every ``irecv`` with a
  "ctrl" message to the sender carrying the buffer's address and keys (src/nccl_ofi_rdma.c ``recv``: ``receive_
  progress(recv_data->send_ctrl_req)``, line 3148; ``post_rdma_ctrl``, 4384-4419); ``send`` writes a message of more
  than ``eager_max_size`` (8 KiB, include/nccl_ofi_param.h line 204) with ``fi_writedata`` only once that ctrl is
  there (``send``: ``eager = (!have_ctrl && size <= eager_max_size) || size == 0``, 4682; without it the request
  waits in the message buffer, 4666-4673 and 4721). A message above ``ROUND_ROBIN_THRESHOLD`` (256 KiB, nccl_ofi_param.h
  line 178) is striped over the device's rails (at most 4, include/nccl_ofi_rdma.h ``MAX_NUM_RAILS``), a smaller one
  goes whole to one rail, round robin (src/nccl_ofi_scheduler.c ``set_schedule_by_threshold``). NCCL's own
  InfiniBand transport does the same for every message, with no eager path: ``ncclIbIsend`` returns no request
  until the receiver's ``ncclIbPostFifo`` RDMA-wrote the slot ("Wait for the receiver to have posted the
  corresponding receive", src/transport/net_ib.cc v2.20.3-1 lines 1413-1421).

So one slot's cycle holds at least a ctrl crossing, the data crossing and its transfer: ``2 L + t`` (`cycle_us`),
and a connection completes at most ``NCCL_STEPS`` steps a cycle: a step costs at least ``(2 L + t) / 8``
(`bound_us`). It costs time only where that exceeds the period simdist's bandwidth already gives a step
(`period_us`). The first step of a call also waits for its ctrl, ``max(0, L - chain)`` with ``chain`` the
intra-node hops before the first crossing (`first_wait_us`), unless the previous call's receive finished early
enough: in a back-to-back loop (nccl-tests' ``-n 100``) the receiving proxy starts the next call's operation (and
posts its ctrls) when it finishes the previous one (proxy.cc ``ProxyAppend``: the next op is the ``nextPeer`` of the
running one, lines 412 and 661-665), which on the up crossing is a down crossing before the sender's kernel ends.

``python -m simdist.validation.net_steps`` prints the doc's table.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

from simdist.sim import nccl, nccl_release, presets
from simdist.sim import collectives as sim_collectives

from . import net_latency

__all__ = ["NCCL_STEPS", "EAGER_MAX", "ROUND_ROBIN", "MAX_RAILS", "BUFFSIZE", "AWS_BUFFSIZE", "chunk_bytes",
           "wire_bytes", "Step", "steps", "report"]

NCCL_STEPS = 8
EAGER_MAX = 8192              # aws-ofi-nccl OFI_NCCL_EAGER_MAX_SIZE default
ROUND_ROBIN = 256 * 1024      # aws-ofi-nccl OFI_NCCL_ROUND_ROBIN_THRESHOLD default
MAX_RAILS = 4                 # aws-ofi-nccl MAX_NUM_RAILS
# NCCL's default buffer per protocol (init.cc DEFAULT_LL_BUFFSIZE, DEFAULT_LL128_BUFFSIZE, DEFAULT_BUFFSIZE)
BUFFSIZE = {"LL": 8 * 512 * NCCL_STEPS * 16, "LL128": 120 * 640 * NCCL_STEPS * 8, "Simple": 1 << 22}
AWS_BUFFSIZE = 8 << 20        # the AWS sweeps' NCCL_BUFFSIZE (nccl-tests.Dockerfile)


def chunk_bytes(algorithm: str, protocol: str, nbytes: int, channels: int, nranks: int, nodes: int,
                simple_buffsize: int = BUFFSIZE["Simple"]) -> int:
    """The data bytes one step of one connection carries for an all-reduce of ``nbytes`` (NCCL 2.20.3 enqueue.cc
    ``computeCollChunkInfo``): the step (buffer / 8; x4 chunk steps for ring/Simple), halved for LL, 120/128 of it
    for LL128, then tree/LL128 and NVLS-tree halve it for smaller messages as NCCL does."""
    if algorithm not in ("tree", "nvls_tree", "ring") or protocol not in BUFFSIZE:
        raise ValueError(f"net_steps.chunk_bytes: no chunk rule for {algorithm}/{protocol}")
    buff = simple_buffsize if protocol == "Simple" else BUFFSIZE[protocol]
    step = buff // NCCL_STEPS
    chunk = step * (4 if (protocol == "Simple" and algorithm == "ring") else 1)
    if protocol == "LL":
        chunk //= 2
    if protocol == "LL128":
        chunk = chunk // 16 * 15
    ppn = nranks // nodes
    if algorithm == "tree" and protocol == "LL128":
        n_ll128 = 1 + (nodes.bit_length() - 1) + 0.1 * ppn
        while nbytes // (channels * chunk) < n_ll128 * 64 / ppn and chunk > 131072:
            chunk //= 2
        while nbytes // (channels * chunk) < n_ll128 * 16 / ppn and chunk > 32768:
            chunk //= 2
    if algorithm == "nvls_tree":
        ops = channels * ppn
        chunk = min(chunk, 65536 if nodes >= 4 else chunk)
        for mult, limit in ((32, 262144), (16, 131072), (4, 65536), (1, 32768)):
            if nbytes < mult * ops * chunk and chunk > limit:
                chunk = limit
    return chunk


def wire_bytes(protocol: str, data: float) -> float:
    """Bytes on the wire for ``data`` bytes: LL's 16-byte lines carry 8 (prims_ll.h), LL128's 128-byte lines 120."""
    return data * 2 if protocol == "LL" else data * 128 / 120 if protocol == "LL128" else data


@dataclass(frozen=True)
class Step:
    """One size of one sweep: NCCL's choice, one network connection's steps, and what a step must wait for.

    ``connections``: network connections a node drives at once (channels, x the node's GPUs for NVLS-tree: every
    GPU heads its share); ``messages``: steps each connection sends; ``wire``: bytes of the first message;
    ``path``: "eager" (one crossing), "rendezvous" (ctrl first) or "send/recv" (p4de's SENDRECV protocol: no ctrl
    in the plugin); ``rail_gbs``: the rate one message moves at (one EFA device below 256 KiB, else striped);
    ``transfer_us``: its transfer; ``cycle_us``: 2 L + transfer; ``bound_us``: cycle / 8, the least a step costs;
    ``period_us``: a step's share of simdist's time (data / the connection's share of simdist's bandwidth);
    ``first_wait_us``: a lone call's wait for its first ctrl; ``simdist_us``: simdist's time with ``L`` on every
    crossing (net_latency's ``measured`` reading); ``published_us``: the sweep."""

    which: str
    nbytes: int
    choice: str
    connections: int
    chunk: int
    messages: int
    wire: float
    path: str
    rail_gbs: float
    transfer_us: float
    cycle_us: float
    bound_us: float
    period_us: float
    first_wait_us: float
    simdist_us: float
    published_us: float

    @property
    def binding(self) -> bool:
        """The credit cycle costs time: a connection has more than 8 steps and each needs longer than simdist gives."""
        return self.messages > NCCL_STEPS and self.bound_us > self.period_us


def _system(which: str) -> nccl.System:
    setup = net_latency._setup(which)
    cluster = presets.gpu_cluster(hosts=setup.hosts, gpus_per_host=setup.gpus, gpu=setup.gpu, network=setup.network,
                                  nics=setup.nics, nvls=setup.nvls, nccl_release=setup.release, net_plugin=setup.net)
    return sim_collectives.nccl_system([d for d in cluster.devices() if d.kind == "GPU"])


def latency_us(which: str) -> float:
    """L, the one-way latency of an EFA message: p5.48xlarge's published osu_latency (net_latency.MEASURED); p4de
    has none, so c5n.18xlarge's (net_latency.NEAREST, another instance type) stands in, for this bound only."""
    plugin = net_latency._setup(which).net or ""
    return net_latency.MEASURED.get(plugin, net_latency.NEAREST.get(plugin, 0.0))


def steps(which: str) -> list[Step]:
    """Every size of sweep ``which`` ("p4de" or "p5", `net_latency.SWEEPS`) step by step."""
    system = _system(which)
    lat = latency_us(which)
    rdma = which == "p5"   # aws-ofi-nccl's RDMA protocol: more EFA devices than GPUs (nccl_ofi_net.c)
    nic = system.net_bw / system.nics * nccl.FACTORS.net_efficiency
    rails = min(MAX_RAILS, system.nics // system.ppn) if rdma else 1
    tuner = nccl_release.tuner(nccl_release.DEFAULT)
    out = []
    for n, published in net_latency.SWEEPS[which].items():
        c = nccl.choose("all_reduce", n, system)
        heads = system.ppn if c.algorithm == "nvls_tree" else 1
        conns = c.channels * heads
        chunk = chunk_bytes(c.algorithm, c.protocol, n, c.channels, system.nranks, system.nodes, AWS_BUFFSIZE)
        per_conn = n / conns
        messages = max(1, math.ceil(per_conn / chunk))
        data = min(chunk, per_conn)
        wire = wire_bytes(c.protocol, data)
        path = ("eager" if wire <= EAGER_MAX else "rendezvous") if rdma else "send/recv"
        rate = nic * (rails if wire > ROUND_ROBIN else 1)
        transfer = wire / rate * 1e6
        cycle = 2 * lat + transfer
        period = data / (c.bandwidth / conns) * 1e6
        p = nccl.PROTOCOLS.index(c.protocol)
        chain = tuner.hw_lat["nvlink"][c.algorithm][p] * (system.ppn - 1 if c.algorithm == "tree" else 1)
        wait = max(0.0, lat - chain) if path == "rendezvous" else 0.0
        with net_latency.applied("measured" if rdma else "measured_nearest"):
            simdist = net_latency.per_call_us(which, n)
        out.append(Step(which, n, f"{c.algorithm}/{c.protocol}, {c.channels} ch.", conns, chunk, messages, wire,
                        path, rate / 1e9, transfer, cycle, cycle / NCCL_STEPS, period, wait, simdist, published))
    return out


def report(rows: list[Step] | None = None) -> str:
    """The doc's table: both AWS sweeps step by step."""
    rows = steps("p4de") + steps("p5") if rows is None else rows
    out = ["| sweep | size | NCCL's choice | conn. | chunk, B | steps a conn. | message, B | path | t, us "
           "| 2L + t, us | (2L + t)/8, us | simdist's step, us | binds | first ctrl wait, us | simdist (L), us "
           "| published, us |",
           "|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---:|---:|---:|"]
    for s in rows:
        out.append(f"| {s.which} | {net_latency._size(s.nbytes)} | {s.choice} | {s.connections} | {s.chunk} "
                   f"| {s.messages} | {s.wire:.0f} | {s.path} | {s.transfer_us:.1f} | {s.cycle_us:.1f} "
                   f"| {s.bound_us:.1f} | {s.period_us:.1f} | {'yes' if s.binding else 'no'} | {s.first_wait_us:.1f} "
                   f"| {s.simdist_us:.1f} | {s.published_us:g} |")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(report() + "\n")
