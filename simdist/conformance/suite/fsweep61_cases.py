"""tf.nn's data formats and window arguments crossed by rule (sixty-first session, fsweep61; test_fsweep61.py): every
windowed op of tf.nn under each data_format it names, with its ksize/strides/dilations in every form TF's
_get_sequence takes or refuses, and the other argument checks of that area, values and gradients bit for bit against
TF 2.21's recorded results, eager and inside a tf.function.

What is crossed (earlier sweeps take tf.nn mostly at NHWC defaults: esweep57's shapes and paddings, asweep58's pool
attributes, blind79's bias_add formats and NHWC window lists):
- tf.nn.bias_add of ranks 2-5 under data_format None, NHWC, NCHW, the literal 'N...C' and 'NC...', NWC/NCW/NDHWC/NCDHW
  and a string of neither form, with a bias of the right length, one too long, one too short and of rank 2: value and
  both gradients, eager and traced;
- conv1d (NWC/NCW), conv2d (NHWC/NCHW), conv3d (NDHWC/NCDHW), convolution (no format, channels first): strides and
  dilations as an int, a length-1 list, a spatial list, the full list (batch/channel entries 1, and not 1) and lists
  of wrong lengths; padding SAME, VALID, explicit lists (and lower-case, and a padded batch); grouped depth (the input
  depth a multiple of the filter's in-depth, and not);
- conv2d_transpose/conv1d_transpose/conv3d_transpose under both formats, output_shape as a list and a tensor (and
  inconsistent), strides forms; depthwise_conv2d, separable_conv2d (strides and rate forms, NCHW), atrous_conv2d;
- avg_pool/max_pool (generic, rank from the input), avg_pool1d/2d/3d, max_pool1d/2d/3d, pool (window_shape,
  dilations, pooling_type), max_pool_with_argmax: ksize/strides as int, lengths 1, 2/3, 4/5 (batch/channel entries
  non-1: TF's refusal) under each format;
- depth_to_space/space_to_depth NHWC/NCHW with block sizes 2, 3 and 1 (refused); local_response_normalization's
  depth_radius/bias/alpha/beta; in_top_k and top_k's k as a tensor; reverse with the axis as a 0-d/1-element tensor
  and a wrong rank, cumsum/cumprod with the axis as a tensor of rank 0 and 1.

Every program is host-dependent (float32 convolutions and pools run through oneDNN on the recording host, and a
channels-first format's CPU support is oneDNN's): simdist runs them under its reference model. `python -m
simdist.conformance.suite.test_fsweep61 --record` rewrites fsweep61_reference.json.gz. OPEN lists simdist's
disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, upstream, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu, rng

PATH = os.path.join(os.path.dirname(__file__), "fsweep61_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("f-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-first session ... fsweep61"; /work/wt/fsweep61_logs/cmp.py over the recording). Classes:
#: (1) float32 conv2d/conv2d_transpose NCHW with explicit paddings: TF 2.21 (oneDNN) InvalidArgumentError, simdist
#:     computes;
#: (2) the eager gradient of a Conv3D op made with data_format=None (tf.nn.convolution of rank 3 without dilation and
#:     without a format, tf.nn.conv3d(data_format=None)) is TF 2.21's AttributeError (nn_grad._Conv3DGrad decodes
#:     the None attr; traced it computes): simdist computes;
#: (3) conv3d_transpose with an output_shape the input does not fit: TF 2.21's AbortedError (simdist
#:     InvalidArgumentError);
#: (4) 1-D avg pools with full strides [2, 2, 2] (a channel stride of 2 after avg_pool1d's expand): TF 2.21 computes
#:     (float32 and float64), simdist refuses pooling across the depth (UnimplementedError);
#: (5) tf.nn.pool channels-first with dilations 2: float32 AVG computes on TF, the others InvalidArgumentError or
#:     NotFoundError, simdist UnimplementedError;
#: (6) tf.nn.pool AVG of a 3-wide window (NCW, and 3-D both formats): the input gradient 1 ulp off where a window
#:     counts 3;
#: (7) float32 local_response_normalization on the oneDNN host: values and gradients 1 ulp off (oneDNN's LRN).
OPEN: dict[str, tuple[str, ...]] = {
    'f-conv2d-float32': (
        'NCHW padding explicit s1', 'NCHW padding explicit s2',
    ),
    'f-convolution-float32': (
        'r3 None [2] d1', 'r3 None full d1', 'r3 None s1 d1', 'r3 None s2 d1', 'r3 None spatial d1',
    ),
    'f-convolution-float64': (
        'r3 None [2] d1', 'r3 None full d1', 'r3 None s1 d1', 'r3 None s2 d1', 'r3 None spatial d1',
    ),
    'f-transpose-float32': (
        'explicit NCHW s1', 'explicit NCHW s2', 'r3 NCDHW bad full', 'r3 NCDHW bad int',
        'r3 NCDHW bad tensor shape', 'r3 NDHWC bad full', 'r3 NDHWC bad int', 'r3 NDHWC bad tensor shape',
    ),
    'f-pool1d-float32': (
        'avg NCW strides full outer 2', 'avg NWC strides full outer 2', 'avg_pool NCW strides full outer 2',
        'avg_pool NWC strides full outer 2', 'pool AVG NCW w2 s1 d2 VALID', 'pool AVG NCW w3 s1 d1 SAME',
        'pool AVG NCW w3 s1 d1 VALID', 'pool MAX NCW w2 s1 d2 VALID',
    ),
    'f-pool1d-float64': (
        'avg NWC strides full outer 2', 'avg_pool NWC strides full outer 2', 'pool AVG NCW w2 s1 d2 VALID',
        'pool MAX NCW w2 s1 d2 VALID',
    ),
    'f-pool2d-float32': (
        'pool AVG NCHW w2 s1 d2 VALID', 'pool MAX NCHW w2 s1 d2 VALID',
    ),
    'f-pool2d-float64': (
        'pool AVG NCHW w2 s1 d2 VALID', 'pool MAX NCHW w2 s1 d2 VALID',
    ),
    'f-pool3d-float32': (
        'pool AVG NCDHW w2 s1 d2 VALID', 'pool AVG NCDHW w3 s1 d1 SAME', 'pool AVG NDHWC w3 s1 d1 SAME',
        'pool MAX NCDHW w2 s1 d2 VALID',
    ),
    'f-pool3d-float64': (
        'pool AVG NCDHW w2 s1 d2 VALID', 'pool MAX NCDHW w2 s1 d2 VALID',
    ),
    'f-lrn': (
        'defaults', 'r0 0.5 0.0001 1.0', 'r0 1.0 1.0 0.5', 'r0 1.0 2.0 0.3', 'r0 2.0 0.5 0.75', 'r1 0.5 0.0001 1.0',
        'r1 1.0 1.0 0.5', 'r1 1.0 2.0 0.3', 'r1 2.0 0.5 0.75', 'r2 0.5 0.0001 1.0', 'r2 1.0 1.0 0.5',
        'r2 1.0 2.0 0.3', 'r2 2.0 0.5 0.75', 'r7 0.5 0.0001 1.0', 'r7 1.0 1.0 0.5', 'r7 1.0 2.0 0.3',
        'r7 2.0 0.5 0.75',
    ),
}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def cls(e: BaseException) -> str:
    return f"raised {type(e).__name__}"


def arr(name: str, shape: tuple[int, ...], dt: str, lo: float = -2.0, hi: float = 2.0) -> np.ndarray:
    """Seeded values of a case's operand: quarters in [lo, hi] (zeros and ties among them), so every product and
    sum of this sweep's sizes is exact and its bits follow the arguments' rules, not a kernel's summation order
    (which onednn55/conv59/conv60's tests take)."""
    return (rng(f"{name}/{shape}/{dt}").randint(int(lo * 4), int(hi * 4) + 1, shape) / 4.0).astype(dt)


def up_dyadic(tf: Any, name: str, shape: tuple[int, ...], dt: str) -> Any:
    """A non-uniform upstream gradient of eighths in [-2, 2] (exact products and sums, as `arr`)."""
    return tf.constant((rng(f"up/{name}/{shape}").randint(-16, 17, shape) / 8.0).astype(dt))


def case(tf: Any, name: str, fn: Callable[..., Any], xs: list[np.ndarray], grad: bool = True,
         traced: bool = True, exact: bool = True) -> Any:
    """fn(*xs) eagerly and inside a tf.function: its bits and (grad) the gradients of every operand with a seeded
    upstream, or the refusal's class. The traced run is left out where the eager one raised (a kernel's refusal
    in a graph fails the call; its class at trace time is taken by `trace_only` programs)."""
    out: dict[str, Any] = {}
    ts = [tf.constant(x) for x in xs]
    try:
        with tf.GradientTape() as t:
            for v in ts:
                t.watch(v)
            y = fn(*ts)
        out["y"] = [y.dtype.name, list(y.shape)] + bits(y)
        if grad:
            up = (up_dyadic if exact else upstream)(tf, name, tuple(y.shape), y.dtype.name)
            gs = t.gradient(y, ts, output_gradients=up)
            out["g"] = [None if g is None else bits(tf.convert_to_tensor(g)) for g in gs]
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return cls(e)
    if not traced:
        return out

    @tf.function
    def f(*a: Any) -> Any:
        with tf.GradientTape() as t2:
            for v in a:
                t2.watch(v)
            y2 = fn(*a)
        if not grad:
            return y2, []
        return y2, [g for g in t2.gradient(y2, list(a), output_gradients=up) if g is not None]
    try:
        y2, gs2 = f(*ts)
        out["traced"] = bits(y2) + [bits(g) for g in gs2]
    except Exception as e:  # noqa: BLE001
        out["traced"] = cls(e)
    return out


def trace_only(tf: Any, fn: Callable[..., Any], xs: list[np.ndarray]) -> Any:
    """fn traced: the output's bits or the refusal's class (raised at trace or at run time)."""
    try:
        return bits(tf.function(fn)(*[tf.constant(x) for x in xs]))
    except Exception as e:  # noqa: BLE001
        return cls(e)


def fmt_shape(spatial: tuple[int, ...], n: int, c: int, first: bool) -> tuple[int, ...]:
    return (n, c) + spatial if first else (n,) + spatial + (c,)


def full(s: int, rank: int, first: bool, outer: int = 1) -> list[int]:
    """A full-length stride/ksize list: `s` at the spatial places, `outer` at batch and channel."""
    sp = [s] * rank
    return [outer, outer] + sp if first else [outer] + sp + [outer]


# -- bias_add ---------------------------------------------------------------------------------------------------------
def _bias_add(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        out = {}
        formats = (None, "NHWC", "NCHW", "N...C", "NC...", "NWC", "NCW", "NDHWC", "NCDHW", "NC", "CN", "HWC")
        for rank in (2, 3, 4, 5):
            shape = (2, 3) + (4,) * (rank - 2) if rank < 5 else (2, 3, 2, 3, 4)
            for f in formats:
                first = f is not None and f.startswith("NC")
                c = shape[1] if first else shape[-1]
                for bl, bshape in (("ok", (c,)), ("long", (c + 1,)), ("short", (c - 1,)), ("rank2", (1, c))):
                    if bl != "ok" and f not in (None, "NCHW", "NC...", "NCW"):
                        continue
                    key = f"r{rank} {f} {bl}"
                    out[key] = case(tf, f"f-bias {key} {dt}", lambda x, b, f=f: tf.nn.bias_add(x, b, data_format=f),
                                    [arr("bx", shape, dt), arr("bb", bshape, dt)], traced=bl == "ok" or rank == 4)
        return out
    return run


for _dt in ("float32", "float64"):
    program(f"f-bias-{_dt}", _bias_add(_dt))


# -- convolutions -----------------------------------------------------------------------------------------------------
def _conv_family(dt: str, rank: int) -> Callable[[Any], Any]:
    """convN (tf.nn.conv1d/conv2d/conv3d) under both formats: strides, dilations and padding forms, groups."""
    fn_name = {1: "conv1d", 2: "conv2d", 3: "conv3d"}[rank]
    formats = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[rank]
    spatial = {1: (7,), 2: (5, 6), 3: (4, 4, 5)}[rank]

    def run(tf: Any) -> Any:
        conv = getattr(tf.nn, fn_name)
        out = {}
        for f in formats:
            first = f.startswith("NC")
            xs = fmt_shape(spatial, 2, 4, first)
            ws = (2,) * rank + (4, 3)
            x, w = arr(f"cx{rank}{f}", xs, dt), arr(f"cw{rank}{f}", ws, dt)

            def call(xx: Any, ww: Any, strides: Any = 1, padding: Any = "SAME", dil: Any = None, f: str = f) -> Any:
                if rank == 1:
                    return conv(xx, ww, stride=strides, padding=padding, data_format=f, dilations=dil)
                return conv(xx, ww, strides=strides, padding=padding, data_format=f, dilations=dil)
            sforms = {"int 2": 2, "[2]": [2], "spatial": [2] * rank, "mixed": [2, 1, 1][:rank],
                      "full": full(2, rank, first), "full outer 2": full(2, rank, first, 2),
                      "rank+1": [1] * (rank + 1), "rank+3": [1] * (rank + 3)}
            if rank > 1:
                sforms["spatial-1"] = [2] * (rank - 1)
            for k, s in sforms.items():
                out[f"{f} strides {k}"] = case(tf, f"f-{fn_name} {f} s {k} {dt}",
                                               lambda a, b, s=s: call(a, b, strides=s), [x, w])
            dforms = {"int 2": 2, "[2]": [2], "spatial": [2] * rank, "full": full(2, rank, first),
                      "full outer 2": full(2, rank, first, 2), "rank+3": [1] * (rank + 3)}
            for k, d in dforms.items():
                out[f"{f} dilations {k}"] = case(tf, f"f-{fn_name} {f} d {k} {dt}",
                                                 lambda a, b, d=d: call(a, b, dil=d), [x, w])
            pads = [[0, 0]] * 2 + [[1, 0], [0, 2], [1, 1]][:rank]
            if not first:
                pads = [[0, 0]] + [[1, 0], [0, 2], [1, 1]][:rank] + [[0, 0]]
            pforms = {"VALID": "VALID", "same": "same", "explicit": pads,
                      "explicit batch": [[1, 0]] + pads[1:], "explicit short": pads[1:]}
            for k, p in pforms.items():
                for s in (1, 2):
                    out[f"{f} padding {k} s{s}"] = case(tf, f"f-{fn_name} {f} p {k} {s} {dt}",
                                                        lambda a, b, p=p, s=s: call(a, b, strides=s, padding=p), [x, w])
            for fin, cout in ((2, 4), (2, 3), (3, 3), (1, 4)):
                wg = arr(f"cg{rank}{f}{fin}{cout}", (2,) * rank + (fin, cout), dt)
                out[f"{f} groups in {fin} out {cout}"] = case(tf, f"f-{fn_name} {f} g {fin} {cout} {dt}",
                                                              lambda a, b: call(a, b, padding="VALID"), [x, wg],
                                                              grad=False)
        return out
    return run


for _r in (1, 2, 3):
    for _dt in ("float32", "float64"):
        program(f"f-conv{_r}d-{_dt}", _conv_family(_dt, _r))


def _convolution(dt: str) -> Callable[[Any], Any]:
    """tf.nn.convolution (rank from the input) with data_format None, channels last and first spelled each way."""
    def run(tf: Any) -> Any:
        out = {}
        for rank, spatial in ((1, (7,)), (2, (5, 4)), (3, (3, 4, 3))):
            for f in (None, {1: "NWC", 2: "NHWC", 3: "NDHWC"}[rank], {1: "NCW", 2: "NCHW", 3: "NCDHW"}[rank],
                      "NCHW" if rank != 2 else "NCW", "channels_last"):
                first = f is not None and f.startswith("NC")
                x = arr(f"cvx{rank}{f}", fmt_shape(spatial, 1, 2, first), dt)
                w = arr(f"cvw{rank}{f}", (2,) * rank + (2, 3), dt)
                for sk, s in (("s1", None), ("s2", 2), ("[2]", [2]), ("spatial", [2] * rank),
                              ("full", full(2, rank, first))):
                    for dk, d in (("d1", None), ("d2", 2)):
                        if s is not None and d is not None:
                            continue
                        out[f"r{rank} {f} {sk} {dk}"] = case(
                            tf, f"f-conv {rank} {f} {sk} {dk} {dt}",
                            lambda a, b, s=s, d=d, f=f: tf.nn.convolution(a, b, strides=s, padding="VALID",
                                                                          dilations=d, data_format=f), [x, w])
        return out
    return run


for _dt in ("float32", "float64"):
    program(f"f-convolution-{_dt}", _convolution(_dt))


def _transposed(dt: str) -> Callable[[Any], Any]:
    """conv1d/2d/3d_transpose under both formats: output_shape as a list, a tensor and inconsistent, strides forms,
    SAME/VALID/explicit padding."""
    def run(tf: Any) -> Any:
        out = {}
        for rank, fn, formats in ((1, tf.nn.conv1d_transpose, ("NWC", "NCW")),
                                  (2, tf.nn.conv2d_transpose, ("NHWC", "NCHW")),
                                  (3, tf.nn.conv3d_transpose, ("NDHWC", "NCDHW"))):
            insp = (3,) * rank
            for f in formats:
                first = f.startswith("NC")
                x = arr(f"tx{rank}{f}", fmt_shape(insp, 2, 3, first), dt)
                w = arr(f"tw{rank}{f}", (2,) * rank + (4, 3), dt)
                for pk, pad, osp in (("SAME", "SAME", (6,) * rank), ("VALID", "VALID", (6,) * rank),
                                     ("VALID+1", "VALID", (7,) * rank), ("SAME odd", "SAME", (5,) * rank),
                                     ("bad", "SAME", (9,) * rank)):
                    oshape = list(fmt_shape(osp, 2, 4, first))
                    for sk, s in (("int", 2), ("[2]", [2]), ("spatial", [2] * rank), ("full", full(2, rank, first)),
                                  ("full outer 2", full(2, rank, first, 2))):
                        if pk != "SAME" and sk not in ("int", "full"):
                            continue
                        out[f"r{rank} {f} {pk} {sk}"] = case(
                            tf, f"f-tconv {rank} {f} {pk} {sk} {dt}",
                            lambda a, b, o=oshape, s=s, p=pad, f=f, fn=fn: fn(a, b, o, s, padding=p, data_format=f),
                            [x, w])
                    out[f"r{rank} {f} {pk} tensor shape"] = case(
                        tf, f"f-tconv {rank} {f} {pk} t {dt}",
                        lambda a, b, o=oshape, p=pad, f=f, fn=fn: fn(a, b, tf.constant(o), 2, padding=p,
                                                                     data_format=f), [x, w])
            if rank == 2:
                for f in formats:
                    first = f.startswith("NC")
                    x = arr(f"tex{f}", fmt_shape((3, 3), 1, 3, first), dt)
                    w = arr(f"tew{f}", (2, 2, 2, 3), dt)
                    pads = [[0, 0], [0, 0], [1, 0], [0, 1]] if first else [[0, 0], [1, 0], [0, 1], [0, 0]]
                    for s in (1, 2):
                        o = list(fmt_shape((3 * s, 3 * s), 1, 2, first))
                        out[f"explicit {f} s{s}"] = case(
                            tf, f"f-tconv explicit {f} {s} {dt}",
                            lambda a, b, o=o, s=s, p=pads, f=f: tf.nn.conv2d_transpose(a, b, o, s, padding=p,
                                                                                       data_format=f), [x, w])
        return out
    return run


for _dt in ("float32", "float64"):
    program(f"f-transpose-{_dt}", _transposed(_dt))


def _depthwise(dt: str) -> Callable[[Any], Any]:
    """depthwise_conv2d and separable_conv2d (strides/rate forms, NHWC/NCHW, paddings), atrous_conv2d (rates)."""
    def run(tf: Any) -> Any:
        out = {}
        for f in ("NHWC", "NCHW"):
            first = f == "NCHW"
            x = arr(f"dx{f}", fmt_shape((5, 6), 2, 3, first), dt)
            dw = arr(f"dw{f}", (2, 2, 3, 2), dt)
            pw = arr(f"pw{f}", (1, 1, 6, 4), dt)
            for sk, s in (("full", full(2, 2, first)), ("full outer 2", full(2, 2, first, 2)), ("ones", [1, 1, 1, 1]),
                          ("spatial", [2, 2]), ("short", [1, 2, 2])):
                for pk, p in (("SAME", "SAME"), ("VALID", "VALID")):
                    out[f"depthwise {f} {sk} {pk}"] = case(
                        tf, f"f-dw {f} {sk} {pk} {dt}",
                        lambda a, b, s=s, p=p, f=f: tf.nn.depthwise_conv2d(a, b, s, p, data_format=f), [x, dw])
                    out[f"separable {f} {sk} {pk}"] = case(
                        tf, f"f-sep {f} {sk} {pk} {dt}",
                        lambda a, b, c, s=s, p=p, f=f: tf.nn.separable_conv2d(a, b, c, s, p, data_format=f),
                        [x, dw, pw])
            for rk, r in (("2", 2), ("[2, 1]", [2, 1]), ("[1, 2]", (1, 2)), ("[2]", [2])):
                ones = [1, 1, 1, 1]
                out[f"depthwise {f} rate {rk}"] = case(
                    tf, f"f-dw {f} rate {rk} {dt}",
                    lambda a, b, r=r, f=f: tf.nn.depthwise_conv2d(a, b, ones, "VALID", dilations=r, data_format=f),
                    [x, dw])
                out[f"separable {f} rate {rk}"] = case(
                    tf, f"f-sep {f} rate {rk} {dt}",
                    lambda a, b, c, r=r, f=f: tf.nn.separable_conv2d(a, b, c, ones, "SAME", dilations=r,
                                                                     data_format=f), [x, dw, pw])
        xa = arr("ax", (1, 6, 7, 2), dt)
        wa = arr("aw", (2, 3, 2, 3), dt)
        for r in (1, 2, 3):
            for p in ("SAME", "VALID"):
                out[f"atrous {r} {p}"] = case(tf, f"f-atrous {r} {p} {dt}",
                                              lambda a, b, r=r, p=p: tf.nn.atrous_conv2d(a, b, r, p), [xa, wa])
        return out
    return run


for _dt in ("float32", "float64"):
    program(f"f-depthwise-{_dt}", _depthwise(_dt))


# -- pools ------------------------------------------------------------------------------------------------------------
def _pools(dt: str, rank: int) -> Callable[[Any], Any]:
    """avg/max pool of one rank (the rank's own function, the generic avg_pool/max_pool and tf.nn.pool) under both
    formats: ksize/strides as int, length 1, spatial, full (batch/channel entries 1 and 2), wrong lengths;
    SAME/VALID and explicit padding lists (in the format's order, a padded batch, one entry short, flat) at
    strides 1 and 2; max_pool_with_argmax for rank 2."""
    formats = {1: ("NWC", "NCW"), 2: ("NHWC", "NCHW"), 3: ("NDHWC", "NCDHW")}[rank]
    spatial = {1: (7,), 2: (5, 6), 3: (3, 4, 5)}[rank]

    def run(tf: Any) -> Any:
        fns = {"avg": getattr(tf.nn, f"avg_pool{rank}d"), "max": getattr(tf.nn, f"max_pool{rank}d"),
               "avg_pool": tf.nn.avg_pool, "max_pool": tf.nn.max_pool}
        out = {}
        for f in formats:
            first = f.startswith("NC")
            x = arr(f"px{rank}{f}", fmt_shape(spatial, 2, 3, first), dt)
            forms = {"int": 2, "[2]": [2], "spatial": [2] * rank, "mixed": [3, 2, 1][:rank],
                     "full": full(2, rank, first), "full outer 2": full(2, rank, first, 2),
                     "rank+1": [2] * (rank + 1), "rank+3": [1] * (rank + 3)}
            for fk, fn in fns.items():
                for k, v in forms.items():
                    for p in ("SAME", "VALID"):
                        out[f"{fk} {f} ksize {k} {p}"] = case(
                            tf, f"f-pool {fk} {f} k {k} {p} {dt}",
                            lambda a, fn=fn, v=v, p=p, f=f: fn(a, v, 2, p, data_format=f), [x])
                    out[f"{fk} {f} strides {k}"] = case(
                        tf, f"f-pool {fk} {f} s {k} {dt}",
                        lambda a, fn=fn, v=v, f=f: fn(a, 2, v, "VALID", data_format=f), [x])
                sp = [[1, 0], [0, 1], [1, 1]][:rank]
                pads = [[0, 0], [0, 0]] + sp if first else [[0, 0]] + sp + [[0, 0]]
                for pk, pv in (("explicit", pads), ("explicit batch", [[1, 0]] + pads[1:]),
                               ("explicit short", pads[1:]), ("explicit flat", [x for q in pads for x in q])):
                    for s in (1, 2):
                        out[f"{fk} {f} {pk} s{s}"] = case(
                            tf, f"f-pool {fk} {f} {pk} {s} {dt}",
                            lambda a, fn=fn, pv=pv, s=s, f=f: fn(a, 2, s, pv, data_format=f), [x])
            for pt in ("AVG", "MAX"):
                for wk, ws, sk, s, dk, d in (("2", [2] * rank, "s1", None, "d1", None),
                                             ("2", [2] * rank, "s2", [2] * rank, "d1", None),
                                             ("2", [2] * rank, "s1", None, "d2", [2] * rank),
                                             ("3", [3] * rank, "s1", None, "d1", [1] * rank),
                                             ("int", 2, "s1", None, "d1", None)):
                    for p in ("SAME", "VALID"):
                        out[f"pool {pt} {f} w{wk} {sk} {dk} {p}"] = case(
                            tf, f"f-npool {pt} {f} {wk} {sk} {dk} {p} {dt}",
                            lambda a, ws=ws, pt=pt, s=s, d=d, p=p, f=f: tf.nn.pool(
                                a, ws, pt, strides=s, padding=p, dilations=d, data_format=f), [x])
        if rank == 2:
            x = arr("argx", (2, 5, 6, 3), dt)
            for k, v in (("int", 2), ("[2]", [2]), ("spatial", [2, 2]), ("full", [1, 2, 2, 1]),
                         ("full depth 2", [1, 2, 2, 3])):
                for b in (False, True):
                    out[f"argmax ksize {k} {b}"] = case(
                        tf, f"f-argmax {k} {b} {dt}",
                        lambda a, v=v, b=b: tf.nn.max_pool_with_argmax(a, v, 2, "SAME", include_batch_in_index=b)[0],
                        [x])
                    out[f"argmax ksize {k} {b} index"] = case(
                        tf, f"f-argmax {k} {b} i {dt}",
                        lambda a, v=v, b=b: tf.nn.max_pool_with_argmax(a, v, 2, "SAME", include_batch_in_index=b)[1],
                        [x], grad=False)
            out["argmax NCHW"] = case(tf, f"f-argmax nchw {dt}", lambda a: tf.nn.max_pool_with_argmax(
                a, 2, 2, "SAME", data_format="NCHW")[0], [x])
        return out
    return run


for _r in (1, 2, 3):
    for _dt in ("float32", "float64"):
        program(f"f-pool{_r}d-{_dt}", _pools(_dt, _r))


# -- depth/space, LRN, top_k, axes ------------------------------------------------------------------------------------
def _depth_space(dt: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        out = {}
        for f in ("NHWC", "NCHW", "nhwc"):
            first = f.startswith("NCHW")
            for b in (1, 2, 3):
                xd = arr(f"d2s{f}{b}", fmt_shape((2, 3), 2, 2 * b * b if b > 1 else 4, first), dt)
                xs = arr(f"s2d{f}{b}", fmt_shape((6, 6), 2, 2, first), dt)
                out[f"d2s {f} {b}"] = case(tf, f"f-d2s {f} {b} {dt}",
                                           lambda a, b=b, f=f: tf.nn.depth_to_space(a, b, data_format=f), [xd])
                out[f"s2d {f} {b}"] = case(tf, f"f-s2d {f} {b} {dt}",
                                           lambda a, b=b, f=f: tf.nn.space_to_depth(a, b, data_format=f), [xs])
            out[f"d2s {f} indivisible"] = case(tf, f"f-d2s {f} x {dt}",
                                               lambda a, f=f: tf.nn.depth_to_space(a, 2, data_format=f),
                                               [arr("d2sx", fmt_shape((2, 2), 1, 6, first), dt)])
            out[f"s2d {f} indivisible"] = case(tf, f"f-s2d {f} x {dt}",
                                               lambda a, f=f: tf.nn.space_to_depth(a, 2, data_format=f),
                                               [arr("s2dx", fmt_shape((5, 4), 1, 2, first), dt)])
        xi = np.arange(2 * 2 * 2 * 8).reshape(2, 2, 2, 8).astype("int32")
        out["d2s int32 NHWC"] = case(tf, "f-d2s int", lambda a: tf.nn.depth_to_space(a, 2), [xi], grad=False)
        out["s2d int32 NCHW"] = case(tf, "f-s2d int", lambda a: tf.nn.space_to_depth(a, 2, data_format="NCHW"),
                                     [xi.reshape(2, 2, 4, 4)], grad=False)
        return out
    return run


for _dt in ("float32", "float64"):
    program(f"f-depth-space-{_dt}", _depth_space(_dt))


def _lrn(tf: Any) -> Any:
    """local_response_normalization of float32 (float64 has no kernel: its class) over depth_radius 0, 1, 2 and
    past the depth, bias, alpha and beta off their defaults, NHWC rank 4 (other ranks refused)."""
    out = {}
    x = arr("lrnx", (2, 2, 3, 5), "float32")
    for r in (0, 1, 2, 7):
        for bias, alpha, beta in ((1.0, 1.0, 0.5), (2.0, 0.5, 0.75), (0.5, 1e-4, 1.0), (1.0, 2.0, 0.3)):
            out[f"r{r} {bias} {alpha} {beta}"] = case(
                tf, f"f-lrn {r} {bias} {alpha} {beta}",
                lambda a, r=r, bias=bias, alpha=alpha, beta=beta: tf.nn.local_response_normalization(
                    a, r, bias, alpha, beta), [x])
    out["defaults"] = case(tf, "f-lrn defaults", lambda a: tf.nn.local_response_normalization(a), [x])
    out["float64"] = case(tf, "f-lrn f64", lambda a: tf.nn.local_response_normalization(a), [x.astype("float64")])
    out["rank 3"] = case(tf, "f-lrn rank3", lambda a: tf.nn.local_response_normalization(a), [x[0]])
    out["radius -1"] = case(tf, "f-lrn neg", lambda a: tf.nn.local_response_normalization(a, -1), [x])
    return out


program("f-lrn", _lrn)


def _topk_axes(tf: Any) -> Any:
    """in_top_k (k 0, 1, past the classes, a tensor; ties, NaN and inf predictions, targets out of range, int64
    targets), top_k's k as a 0-d/1-element tensor; reverse and cumsum/cumprod with the axis as tensors of rank 0,
    1 and 2, int32 and int64, negative, repeated."""
    out: dict[str, Any] = {}

    def res(fn: Callable[[], Any]) -> Any:
        try:
            return bits(fn())
        except Exception as e:  # noqa: BLE001
            return cls(e)
    p = np.array([[0.1, 0.5, 0.5, 0.2], [np.nan, 1.0, 0.0, 2.0], [np.inf, 1.0, np.inf, -np.inf]], "float32")
    for tk, tgt in (("int32", np.array([1, 0, 2], "int32")), ("int64", np.array([2, 3, 0], "int64")),
                    ("out of range", np.array([4, 1, -1], "int32"))):
        for k in (0, 1, 2, 4, 5):
            out[f"in_top_k {tk} k{k}"] = res(lambda t=tgt, k=k: tf.math.in_top_k(t, tf.constant(p), k))
            out[f"in_top_k {tk} k{k} traced"] = res(lambda t=tgt, k=k: tf.function(
                lambda a, b: tf.math.in_top_k(a, b, k))(tf.constant(t), tf.constant(p)))
        out[f"in_top_k {tk} k tensor"] = res(lambda t=tgt: tf.math.in_top_k(t, tf.constant(p), tf.constant(2)))
    x = arr("topkx", (2, 6), "float32")
    for kk, k in (("t0d", "0d"), ("t1d", "1d"), ("int64", "64")):
        def kt(k: str = k) -> Any:
            return {"0d": tf.constant(3), "1d": tf.constant([3]), "64": tf.constant(3, tf.int64)}[k]
        out[f"top_k {kk}"] = case(tf, f"f-topk {kk}", lambda a, kt=kt: tf.math.top_k(a, kt())[0], [x])
    y = arr("revx", (2, 3, 4), "float64")
    for ak, a in (("t0d", ("s", 1)), ("t1d", ("v", [1])), ("t1d int64", ("v64", [-1])), ("t2d", ("m", [[1]])),
                  ("two", ("v", [0, 2])), ("repeated", ("v", [1, 1])), ("repeated neg", ("v", [2, -1])),
                  ("out of range", ("v", [3])), ("empty", ("v", []))):
        def ax(a: Any = a) -> Any:
            kind, v = a
            return tf.constant(v, tf.int64) if kind == "v64" else tf.constant(v, tf.int32)
        out[f"reverse {ak}"] = case(tf, f"f-rev {ak}", lambda t, ax=ax: tf.reverse(t, ax()), [y])
        out[f"reverse {ak} list"] = case(tf, f"f-revl {ak}", lambda t, a=a: tf.reverse(t, a[1] if isinstance(
            a[1], list) else [a[1]]), [y], traced=False)
    for fk, fn in (("cumsum", tf.math.cumsum), ("cumprod", tf.math.cumprod)):
        for ak, a in (("t0d", tf.constant(1)), ("t0d int64", tf.constant(-1, tf.int64)), ("t1d", tf.constant([1])),
                      ("t2d", tf.constant([[1]])), ("t1d two", tf.constant([0, 1])), ("t0d 3", tf.constant(3))):
            out[f"{fk} {ak}"] = case(tf, f"f-scan {fk} {ak}", lambda t, fn=fn, a=a: fn(t, axis=a), [y],
                                     traced=False)
            out[f"{fk} {ak} traced"] = trace_only(tf, lambda t, fn=fn, a=a: fn(t, axis=a), [y])
    return out


program("f-topk-axes", _topk_axes)
