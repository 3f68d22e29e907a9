"""FLOP tally of eager tensor ops: the default estimate of a function's compute cost.

Every tensor op adds the number of elements it produces (matmul adds 2*m*n*k). Strategies
read the tally around a replica's function call; a user annotation (`simdist.sim.flops`)
overrides it.

The tally also keeps the FLOPs of two sections of a training step: `backward` (what a gradient
tape's `gradient` computes) and `update` (what an optimizer applies); the forward pass is the
rest. A section counts its own FLOPs only (a section inside another is not counted twice), so
the simulator can charge forward, backward and update as separate kernels (and trace spans).
Sections are per replica (they live in the execution context, runtime/execution.py), the
tally is shared: replicas run one at a time, so a replica's FLOPs are the tally's growth
between their turns.
"""

from __future__ import annotations

from typing import Any, Callable

from simdist.runtime import execution

SECTIONS = ("backward", "update")

# The roofline cost model's per-op charge (installed by `simdist.session.configure` when the cost
# model is "roofline", else None): roofline(op, flops, input arrays, output arrays, output dtype,
# device name) -> the FLOPs to tally, i.e. the op's roofline time on its device x the device's
# nominal FLOP/s, so that the sections, phases and recorded graphs built on the tally charge that
# time unchanged (sim/roofline.py).
roofline: Callable[..., float] | None = None

# Ops that run on tensor cores (matmul/conv), by TF op name; every other op is elementwise work.
MATMUL_OPS = frozenset({"MatMul", "BatchMatMulV2", "Einsum", "Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter",
                        "DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                        "DepthwiseConv2dNativeBackpropFilter"})


def op_kind(op: Any) -> str:
    """The roofline kind of an OpDef: its own ``kind`` when it declares a matmul/conv one, else by name."""
    kind = getattr(op, "kind", None)
    if kind in ("matmul", "conv", "convolution", "contraction") or op.name in MATMUL_OPS:
        return "matmul"
    return "elementwise"


class _Tally:
    __slots__ = ("flops", "backward", "update")

    def __init__(self) -> None:
        self.flops = 0.0
        self.backward = 0.0
        self.update = 0.0

    def snapshot(self) -> tuple[float, float, float]:
        return (self.flops, self.backward, self.update)


tally = _Tally()


class measure:
    """Context manager: `with measure() as m: ...; m.flops` is the FLOPs counted inside."""

    __slots__ = ("start", "flops")

    def __enter__(self) -> "measure":
        self.start = tally.flops
        self.flops = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.flops = tally.flops - self.start


_current = execution._current


class section:
    """`with section("backward"):` counts the FLOPs inside (minus those of inner sections)
    into `tally.backward` (or `tally.update`)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        if name not in SECTIONS:
            raise ValueError(f"unknown cost section {name!r}: one of {SECTIONS}")
        self.name = name

    def __enter__(self) -> "section":
        _current.ctx.sections.append([self.name, tally.flops, 0.0])
        return self

    def __exit__(self, *exc: object) -> None:
        stack = _current.ctx.sections
        name, start, inner = stack.pop()
        spent = tally.flops - start
        setattr(tally, name, getattr(tally, name) + spent - inner)
        if stack:
            stack[-1][2] += spent


def flush_open_sections() -> None:
    """Count the FLOPs of the open sections so far into the tally and restart them from now.
    A replica calls it where it parks at a collective, so the phase that ends there gets its
    sections' FLOPs (an all-reduce inside a backward pass), and `restart_open_sections` where it
    resumes, so the other replicas' FLOPs meanwhile are not charged to its sections."""
    now = tally.flops
    child_spent = 0.0
    for entry in reversed(_current.ctx.sections):
        name, start, inner = entry
        spent = now - start
        setattr(tally, name, getattr(tally, name) + spent - inner - child_spent)
        child_spent = spent
        entry[1], entry[2] = now, 0.0


def restart_open_sections() -> None:
    """Restart the open sections from now without counting what happened since they were
    flushed (the other replicas' FLOPs while this one was parked)."""
    now = tally.flops
    for entry in _current.ctx.sections:
        entry[1], entry[2] = now, 0.0


def open_sections() -> list[list[Any]]:
    """The current context's open sections, innermost last."""
    return _current.ctx.sections


def hold(nbytes: int) -> None:
    """A tape keeps nbytes more (an op's inputs and outputs it will need for the gradient), in
    the current context's count (ExecutionContext.held_bytes, held_peak)."""
    c = _current.ctx
    c.held_bytes += nbytes
    if c.held_bytes > c.held_peak:
        c.held_peak = c.held_bytes


def release(nbytes: int) -> None:
    """A tape let go of nbytes (its gradient was taken, it was reset or collected)."""
    c = _current.ctx
    c.held_bytes = max(0, c.held_bytes - nbytes)


def peak_held_since_reset() -> int:
    return _current.ctx.held_peak


def reset_peak() -> None:
    c = _current.ctx
    c.held_peak = c.held_bytes
