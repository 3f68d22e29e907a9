"""The stacked forms of ops: one op run once for all replica lanes, on their values stacked
along a new leading axis, giving each lane exactly what the lane's own op gives; and the
contractions over the batch rows whose cross-replica sum is one contraction over all rows.

Which form an op has is declared on its OpDef (`fusion`, a registry.Stacking, and `sums`):
this module implements each form; it names no op."""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from simdist.runtime.graph.ir import Node

def shapes(value: Any) -> Any:
    if type(value) is tuple:
        return tuple(np.shape(v) for v in value)
    return np.shape(value)


def same(a: Any, b: Any) -> bool:
    """Bit-for-bit equal arrays (or tuples of them), NaNs included."""
    if type(a) is tuple:
        return type(b) is tuple and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    return a.tobytes() == b.tobytes()


def typed(fwd: Callable[..., Any], kw: dict, npd: Any) -> Callable[..., np.ndarray]:
    """fwd(*arrays, **kw) made an array of dtype npd, as the graph's op impls make it."""
    def run(*arrays: np.ndarray) -> np.ndarray:
        r = np.asarray(fwd(*arrays, **kw))
        return r if r.dtype == npd else r.astype(npd, copy=False)
    return run


def lane_loop(impl: Callable[..., Any], stacked: tuple[bool, ...], R: int, multi: bool) -> Callable[..., Any]:
    """The op lane by lane (each lane's own computation, bit for bit), its results stacked."""
    def run(*arrays: np.ndarray) -> Any:
        outs = [impl(*[a[r, ...] if s else a for a, s in zip(arrays, stacked)]) for r in range(R)]
        if multi:
            return tuple(np.stack([o[j] for o in outs]) for j in range(len(outs[0])))
        return np.stack(outs)
    return run


def stack_args(*arrays: np.ndarray) -> np.ndarray:
    """The lanes' arguments stacked. Consecutive equal blocks of one buffer (a batch split among
    the replicas, as a distributed dataset makes them) are viewed as one array, without a copy."""
    a0 = arrays[0]
    base = a0.base
    if type(base) is np.ndarray and a0.flags.c_contiguous and base.flags.c_contiguous and a0.size:
        p0 = a0.__array_interface__["data"][0]
        step = a0.nbytes
        for r in range(1, len(arrays)):
            a = arrays[r]
            if a.base is not base or a.shape != a0.shape or a.dtype != a0.dtype or not a.flags.c_contiguous \
                    or a.__array_interface__["data"][0] != p0 + r * step:
                break
        else:
            out = np.ndarray((len(arrays),) + a0.shape, a0.dtype, base, p0 - base.__array_interface__["data"][0])
            out.flags.writeable = False
            return out
    return np.stack(arrays)


def rule(n: Node) -> Any:
    """The Stacking declared by the op of node n (None: n is not an op node of the registry)."""
    return n.op.fusion if type(n.key) is tuple and n.key[0] == "op" and n.op is not None else None


def form(n: Node) -> str | None:
    """The name of the stacked form n's op declares (None: n is not an op node of the registry)."""
    r = rule(n)
    return None if r is None else r.form


def stacked_form(n: Node, stacked: tuple[bool, ...], lane_shapes: list[Any], out_shape: Any, R: int,
                  multi: bool) -> Callable[..., Any] | None:
    """The op of lane node n run once on stacked inputs (`stacked[j]`: input j is stacked, of lane
    shape lane_shapes[j]; else shared), or None when its op declares no such form for them."""
    impl = n.impl
    if type(n.key) is tuple and n.key[0] == "item":
        return impl
    r = rule(n)
    if r is None:
        return None
    form = r.form
    attrs = n.attrs or {}
    npd = None if multi else n.dtype._np
    if form == "broadcast" or (form == "same-shapes" and all(stacked) and len(set(lane_shapes)) == 1):
        rank = max(len(s) for s in lane_shapes)
        pads = [(R,) + (1,) * (rank - len(s)) + tuple(s) if st and len(s) < rank else None
                for s, st in zip(lane_shapes, stacked)]
        if not any(p is not None for p in pads):
            return impl
        return lambda *a: impl(*[x if p is None else x.reshape(p) for x, p in zip(a, pads)])
    lane_fwd = n.op.lane_forward
    if form == "last-axis" and all(stacked) and len(lane_shapes[0]) >= 1:
        # (a kernel whose steps see the whole tensor: told the lanes, it computes each as its own)
        return impl if lane_fwd is None else typed(lane_fwd, dict(attrs, lanes=R), npd)
    if form == "reshape" and stacked[0]:
        shape = (R,) + tuple(out_shape)
        return lambda a, *rest: np.reshape(a, shape)
    if form == "permute" and stacked[0]:
        perm = (0,) + tuple(int(p) + 1 for p in attrs["perm"])
        return typed(n.op.forward, {"perm": perm}, npd)
    if form == "axis" and stacked[0] and len(lane_shapes[0]) >= 1:
        k = len(lane_shapes[0])
        axis = attrs.get("axis")
        if axis is None:
            ax: Any = tuple(range(1, k + 1))
        elif isinstance(axis, (tuple, list)):
            ax = tuple(int(a) % k + 1 for a in axis)
        else:
            ax = int(axis) % k + 1
        return typed(n.op.lane_forward or n.op.forward, dict(attrs, axis=ax), npd)
    if form == "conv-backprop-input" and stacked == (False, True):
        sizes = tuple(attrs["input_sizes"])
        flat = (R * lane_shapes[1][0],) + tuple(lane_shapes[1][1:])
        back = typed(n.op.forward, dict(attrs, input_sizes=(R * sizes[0],) + sizes[1:]), npd)
        outs = (R,) + tuple(out_shape)
        return lambda f, dy: back(f, dy.reshape(flat)).reshape(outs)
    if form in ("matmul", "batch-matmul"):
        if stacked[0] and not stacked[1] and not attrs.get("transpose_a") and len(lane_shapes[0]) == 2:
            rows, k = lane_shapes[0]
            flat = (R * rows, k)
            outs = (R,) + tuple(out_shape)
            return lambda a, b: impl(a.reshape(flat), b).reshape(outs)
        if form == "matmul":
            return impl        # stacked operands: NumPy's batched matmul, lane by lane
        return None
    rows_in = r.rows
    if form == "rows" and lane_fwd is not None:   # (as last-axis: each lane's rows as their own tensor)
        impl = (lambda *a: lane_fwd(*a, lanes=R, **attrs)) if multi else typed(lane_fwd, dict(attrs, lanes=R), npd)
    if form == "rows" and all(stacked[j] == (j in rows_in) for j in range(len(stacked))):
        if any(len(lane_shapes[j]) < 1 for j in rows_in) or len({lane_shapes[j][0] for j in rows_in}) != 1:
            return None
        flats = [(R * lane_shapes[j][0],) + tuple(lane_shapes[j][1:]) if j in rows_in else None
                 for j in range(len(stacked))]
        if multi:
            outs_m = [(R,) + tuple(s) for s in out_shape]
            return lambda *a: tuple(o.reshape(s) for o, s in zip(
                impl(*[x if f is None else x.reshape(f) for x, f in zip(a, flats)]), outs_m))
        outs = (R,) + tuple(out_shape)
        return lambda *a: impl(*[x if f is None else x.reshape(f) for x, f in zip(a, flats)]).reshape(outs)
    return None


def contraction(n: Node, stacked: tuple[bool, ...], lane_shapes: list[Any], R: int) -> Callable[..., Any] | None:
    """For a lane op contracting over its batch rows (summed over the lanes next; its OpDef's
    `sums`): the same op on all lanes' rows at once, which is that sum. None when n is not such
    an op for these inputs."""
    if type(n.key) is not tuple or n.key[0] != "op" or n.op is None or n.op.sums is None:
        return None
    if not all(stacked) or any(len(s) < 1 for s in lane_shapes) or not n.op.sums(n.attrs or {}, lane_shapes):
        return None
    if n.op.lane_forward is not None and len(lane_shapes) == 1 and R <= 9:
        # a sum in Eigen's order: not the op on all rows at once (its accumulators would run over
        # every lane's rows) but each lane's own sum, the lanes then added in AddN's order (one
        # left-to-right chain up to 9 inputs), as TF's cross-replica SUM adds the replicas' sums
        per_lane = stacked_form(n, stacked, lane_shapes, None, R, False)
        if per_lane is None:
            return None

        def chain(a: np.ndarray) -> np.ndarray:
            s = per_lane(a)
            acc = s[0] + s[1] if R > 1 else s[0]
            for r in range(2, R):
                acc = acc + s[r]
            return acc
        return chain
    impl = n.impl
    flats = [(R * s[0],) + tuple(s[1:]) for s in lane_shapes]
    return lambda *a: impl(*[x.reshape(f) for x, f in zip(a, flats)])


def close(fused: np.ndarray, want: np.ndarray) -> bool:
    """A fused cross-replica sum against the recorded one: equal up to float rounding."""
    fused, want = np.asarray(fused), np.asarray(want)
    if fused.shape != want.shape or fused.dtype != want.dtype:
        return False
    if want.dtype.kind != "f":
        return bool(np.array_equal(fused, want))
    scale = float(np.max(np.abs(want))) if want.size else 0.0
    return bool(np.all(np.abs(fused.astype(np.float64) - want) <= 1e-4 * scale + 1e-30))


def reproduces(rule: Callable[..., Any], inputs: list[Any], ns: list[Node], multi: bool) -> bool:
    """Whether the stacked form reproduces the recorded lanes' values bit for bit."""
    try:
        got = rule(*inputs)
    except Exception:  # noqa: BLE001 - a form that does not apply is not used
        return False
    if multi:
        want = tuple(np.stack([n.value[j] for n in ns]) for j in range(len(ns[0].value)))
    else:
        want = np.stack([n.value for n in ns])
    if multi and (type(got) is not tuple or len(got) != len(want)):
        return False
    return same(tuple(got) if multi else got, want)
