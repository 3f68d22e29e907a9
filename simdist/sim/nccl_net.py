"""NCCL's network plugin as NCCL's tuner sees it: the latency the plugin declares for its network and
the protocols it leaves NCCL.

NCCL asks its network transport for ``ncclNetProperties_t.latency`` (src/include/nccl_net.h "Network
latency", microseconds) and its search copies it into every graph that crosses the network
(src/graph/search.cc ``ncclTopoSearchRecNet``: ``graph->latencyInter = net->net.latency``; v2.19.3-1 to
v2.30.7-1). Its tuner adds it to each network hop's latency, twice for the Simple protocol ("Also add
the flush extra latency"): src/graph/tuning.cc ``ncclTopoTuneModel``, ``interLat = hwLat[NET][a][p] +
latencyInter; if (p == SIMPLE) interLat += latencyInter`` (v2.20.3-1 lines 228-230; v2.30.7-1 lines
389-391). NCCL's own InfiniBand/RoCE and socket transports declare 0 (src/transport/net_ib.cc,
net_socket.cc: ``props->latency = 0; // Not set``): on them the rule changes nothing.

AWS's plugin for EFA, aws-ofi-nccl, declares a latency per EC2 platform and, where the endpoint cannot
promise 128-byte in-order delivery, sets ``NCCL_PROTO=simple`` before NCCL reads it (LL and LL128 rely
on that ordering). At v1.8.1-aws (cf6f822, src/platform-aws.c): ``platform_data_map`` gives p4d, p4de
and p5 ``latency = 75.0`` (other EFA platforms 150, "for historical reasons"); ``configure_nccl_proto``
sets NCCL_PROTO=simple unless the endpoint accepts ``FI_OPT_EFA_{SENDRECV,WRITE}_IN_ORDER_ALIGNED_128
_BYTES``, a check skipped on p5.48xlarge with the RDMA protocol; src/nccl_ofi_net.c picks RDMA when
there are more EFA devices than GPUs (p5: 32 for 8), else SENDRECV (p4d/p4de: 4 for 8), and p4d's
SENDRECV endpoint does not accept the ordering option (aws/aws-ofi-nccl#889's p4d.24xlarge log:
"Setting FI_OPT_EFA_SENDRECV_IN_ORDER_ALIGNED_128_BYTES not supported", "Setting NCCL_PROTO to
"simple""). A user's own NCCL_PROTO wins (``setenv(..., 0)``); simdist's explicit protocol does too.

Not modelled, on purpose: the plugin's per-message rendezvous (with its RDMA protocol the receiver's "ctrl" message
crosses the network before each RDMA write over 8 KiB). NCCL keeps 8 steps in flight a connection, and at every size
of the AWS EFA sweeps that pipeline hides the ctrl (simdist.validation.net_steps; docs/validation.md "Nineteenth
session (2): the EFA step cost").
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NetPlugin", "PLUGINS", "DEFAULT", "plugin"]

_ALL = ("LL", "LL128", "Simple")


@dataclass(frozen=True)
class NetPlugin:
    """One network transport as NCCL's tuner sees it: ``latency``, the microseconds it declares
    (``ncclNetProperties_t.latency``), and ``protocols``, those it leaves enabled (NCCL_PROTO)."""

    name: str
    latency: float = 0.0
    protocols: tuple[str, ...] = _ALL


# NCCL's own transports declare no latency; aws-ofi-nccl v1.8.1-aws's platform table (see above).
PLUGINS: dict[str, NetPlugin] = {p.name: p for p in (
    NetPlugin("nccl"),   # NCCL's net_ib.cc (InfiniBand, RoCE) and net_socket.cc
    NetPlugin("aws-ofi-nccl-1.8.1/p4de", latency=75.0, protocols=("Simple",)),   # (p4d alike)
    NetPlugin("aws-ofi-nccl-1.8.1/p5", latency=75.0),
)}
DEFAULT = "nccl"


def plugin(name: str) -> NetPlugin:
    """The `NetPlugin` called ``name`` (a key of `PLUGINS`)."""
    try:
        return PLUGINS[name]
    except KeyError:
        raise ValueError(f"nccl_net: unknown network plugin {name!r}; known: {', '.join(PLUGINS)}") from None
