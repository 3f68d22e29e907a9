"""The padding oneDNN's forward 2-D convolutions read (clause ops.fuzz-raw).

TF 2.21's _MklNativeConv2D and _MklNativeDepthwiseConv2dNative (mkl_conv_ops.cc MklConvOp, the kernels
a raw Conv2D or DepthwiseConv2dNative runs eagerly where oneDNN takes its dtype) never call
CheckValidPadding: Compute looks for a nonzero value in explicit_paddings and, finding one, reads the
rows' and columns' pads from it (PadWithConvFusion: places 2-5 in NHWC, 4-7 in NCHW) whatever the
`padding` attr says; otherwise the `padding` attr alone decides (EXPLICIT as zero pads). A negative pad
passes to the window sizes ("Computed output size would be negative" where they go below 0; an output
of no elements is returned unwritten, conv.py) and then fails the primitive's creation (AbortedError).
In a graph the op's shape function runs CheckValidPadding first, so only eager calls read this way.
"""

from __future__ import annotations

from typing import Any

from simdist.runtime import context, dtypes, host_cpu

__all__ = ["FORWARD_OPS", "reads_padding", "unchecked", "as_read"]

FORWARD_OPS = ("Conv2D", "DepthwiseConv2dNative")


def reads_padding(name: str, vals: dict[str, Any]) -> bool:
    """Whether the eager raw call runs oneDNN's forward convolution, which reads its padding as
    `as_read` says (the modelled CPU takes the dtype; not inside a tf.function)."""
    t = vals.get("T")
    return (name in FORWARD_OPS and not context.in_function() and isinstance(t, dtypes.DType)
            and host_cpu.current().onednn_supports(t.name))


def _too_short(vals: dict[str, Any]) -> bool:
    """A list with a nonzero value too short for the places the kernel reads (undefined there)."""
    ex = list(vals.get("explicit_paddings") or ())
    return any(ex) and len(ex) < (8 if vals.get("data_format") == "NCHW" else 6)


def unchecked(name: str, vals: dict[str, Any]) -> bool:
    """Whether no CheckValidPadding runs on the call (`reads_padding`), unless its list is too short for
    the kernel's reads, which simdist leaves to the check."""
    return reads_padding(name, vals) and not _too_short(vals)


def as_read(name: str, vals: dict[str, Any]) -> dict[str, Any]:
    """The call's attrs with `padding` and `explicit_paddings` as oneDNN's kernel reads them: a list
    holding a nonzero value is EXPLICIT padding of its spatial places (the batch and depth places
    unread); a list of zeros, or none, leaves the `padding` attr (EXPLICIT: zero pads). A list too short
    for the places read (the kernel reads past it: undefined) is left as given, to simdist's checks."""
    if not reads_padding(name, vals):
        return vals
    ex = list(vals.get("explicit_paddings") or ())
    first = vals.get("data_format") == "NCHW"
    at = 4 if first else 2
    if any(ex):
        if _too_short(vals):
            return vals
        pads = ex[at:at + 4]
        out = [0, 0, 0, 0, *pads] if first else [0, 0, *pads, 0, 0]
        return dict(vals, padding="EXPLICIT", explicit_paddings=out)
    if vals.get("padding") == "EXPLICIT":
        return dict(vals, explicit_paddings=[0] * 8)
    return dict(vals, explicit_paddings=[])
