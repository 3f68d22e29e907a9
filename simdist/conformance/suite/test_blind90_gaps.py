"""The classes around the ninetieth blind batch's mutants (tests/mutants.py TRAINING_BATCH90: tf.Variable's surface,
shape functions on what a traced graph knows, concrete functions, tf.image, op kernels and random image ops) that the
suite did not catch on first contact, each checked as a class rather than as the one mutant.

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind90_gaps --record`, which rewrites blind90_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits may follow the CPU's kernels (prefix `kernel-`: Eigen's packets, its sums' order) run on simdist
elsewhere under its reference model of such a host. Floats are compared by their bits."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.raw_bits import raw_bits as _raw
from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, error as _error,
                                                         reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind90_reference.json.gz")

#: programs whose TF 2.21 bits may follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _check = REF.add, REF.check


def _shape(s: Any) -> Any:
    """A TensorShape as a list (None: unknown rank)."""
    return None if s.rank is None else s.as_list()


# -- 1. the enum objects a variable's aggregation and synchronization are --------------------------------------------
def _enum_attributes(tf: Any, mk: Any) -> Any:
    """tf.Variable made with each aggregation (none given, None, each tf.VariableAggregation and v1 member) and each
    synchronization, with trainable None/True/False, eagerly and in a MirroredStrategy's scope: the aggregation's and
    synchronization's type name, repr, str, name and value, their == and != against every member of both enums (the
    V2 and the v1 aggregation enums compare by value), and trainable; or the creation's error class."""
    out = {}
    A, A1, S = tf.VariableAggregation, tf.compat.v1.VariableAggregation, tf.VariableSynchronization
    members = [("A." + m.name, m) for m in A] + [("A1." + m.name, m) for m in A1] + [("S." + m.name, m) for m in S]

    def enum(e: Any) -> Any:
        return {"type": type(e).__name__, "repr": repr(e), "str": str(e), "name": e.name, "value": int(e.value),
                "eq": [name for name, m in members if e == m], "ne": [name for name, m in members if not e != m],
                "req": [name for name, m in members if m == e]}

    def made(**kw: Any) -> Any:
        v = tf.Variable([1.0, 2.0], **kw)
        return {"aggregation": enum(v.aggregation), "synchronization": enum(v.synchronization),
                "trainable": v.trainable}

    aggs = [("omitted", {}), ("None", {"aggregation": None})] + \
        [("A." + m.name, {"aggregation": m}) for m in A] + [("A1." + m.name, {"aggregation": m}) for m in A1]
    syncs = [("omitted", {})] + [("S." + m.name, {"synchronization": m}) for m in S]
    for an, akw in aggs:
        for sn, skw in syncs:
            for tn, tkw in (("omitted", {}), ("True", {"trainable": True}), ("False", {"trainable": False})):
                if tn != "omitted" and an not in ("omitted", "A.SUM"):
                    continue
                out[f"eager agg={an} sync={sn} trainable={tn}"] = _error(lambda: made(**akw, **skw, **tkw))
    s = mk()
    with s.scope():
        for an, akw in aggs:
            for sn, skw in syncs[:1] + syncs[3:]:
                out[f"mirrored agg={an} sync={sn}"] = _error(lambda: made(**akw, **skw))
    return out


_program("var-enum-attributes-by-creation", _enum_attributes)


@pytest.mark.clause("mirrored.aggregation")
def test_blind90_variable_aggregation_and_synchronization_enums(backend: Any) -> None:
    """A variable's aggregation and synchronization as the enum objects TF makes them (the v1 NONE by default; V2
    and v1 members equal by value), and trainable by synchronization, for each way of making it."""
    _check(backend, "var-enum-attributes-by-creation")


# -- 2. row indices of variable reads and scatters at and past their bounds ------------------------------------------
_INDICES = {"in range": [2, 0], "last": [3], "negative": [-1], "negative first": [-4, 1], "equal": [4],
            "past": [0, 7], "empty": np.zeros([0], np.int32), "int64": np.array([1, 3], np.int64),
            "matrix": [[0, 1], [3, 2]]}


def _row_bounds(tf: Any, mk: Any) -> Any:
    """A [4, 2] variable (float32, int32, float64) read by sparse_read and tf.gather, and written by each scatter
    method (update, add, sub, mul, div, min, max) and scatter_nd_update/add/sub, with indices in range, at the first
    dimension, negative, past it, empty, int64 and of rank 2; updates of the rows' shape, scalars, a single row and
    shorter rows (the kernel checks the rank only: no indices write nothing; a graph's shape function merges the
    shapes); eagerly and in a tf.function: the values read, the variable after the write, or the error's class."""
    out = {}
    init = {"float32": [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]}
    init["float64"] = init["float32"]
    init["int32"] = [[1, 2], [3, 4], [5, 6], [7, 8]]
    for dt in ("float32", "int32", "float64"):
        for iname, idx in _INDICES.items():
            def reads(v: Any, idx: Any = idx) -> Any:
                return {"sparse_read": _error(lambda: _raw(v.sparse_read(idx))),
                        "gather": _error(lambda: _raw(tf.gather(v, idx))),
                        "gather axis 1": _error(lambda: _raw(tf.gather(v, idx, axis=1)))}
            v = tf.Variable(tf.constant(init[dt], dt))
            out[f"{dt} read {iname}"] = reads(v)

            def traced_reads(v: Any = v, idx: Any = idx) -> Any:
                @tf.function
                def reads_in_graph() -> Any:
                    return {"sparse_read": v.sparse_read(idx), "gather": tf.gather(v, idx)}
                return {k: _raw(t) for k, t in reads_in_graph().items()}
            out[f"{dt} read {iname} traced"] = _error(traced_reads)
            ishape = list(np.shape(idx))
            updates = {"rows": np.full(ishape + [2], 3, dt), "scalar": np.array(3, dt),
                       "row": np.full([2], 3, dt), "short": np.full(ishape + [1], 3, dt)}
            for method in ("scatter_update", "scatter_add", "scatter_sub", "scatter_mul", "scatter_div",
                           "scatter_min", "scatter_max"):
                for uname, upd in updates.items():
                    if iname not in ("in range", "negative", "equal", "empty") and uname != "scalar":
                        continue
                    def write(method: str = method, upd: Any = upd, idx: Any = idx, traced: bool = False) -> Any:
                        w = tf.Variable(tf.constant(init[dt], dt))
                        run = lambda: getattr(w, method)(tf.IndexedSlices(tf.constant(upd), tf.constant(idx)))  # noqa: E731
                        tf.function(run)() if traced else run()
                        return _raw(w)
                    if uname != "short" or iname == "empty":
                        # (eagerly a shorter row with indices is read past its end by TF's kernel: undefined values,
                        # left out; see docs/conformance.md, blind90)
                        out[f"{dt} {method} {iname} {uname}"] = _error(write)
                    if iname in ("in range", "empty"):
                        out[f"{dt} {method} {iname} {uname} traced"] = _error(lambda: write(traced=True))
        for method in ("scatter_nd_update", "scatter_nd_add", "scatter_nd_sub"):
            for iname, idx, upd in (("rows", [[1], [3]], np.full([2, 2], 3, dt)), ("elements", [[0, 1], [3, 0]],
                                    np.full([2], 3, dt)), ("negative", [[-1]], np.full([1, 2], 3, dt)),
                                    ("equal", [[4]], np.full([1, 2], 3, dt)), ("scalar", [[1, 1]], np.array(3, dt))):
                def write_nd(method: str = method, idx: Any = idx, upd: Any = upd) -> Any:
                    w = tf.Variable(tf.constant(init[dt], dt))
                    getattr(w, method)(idx, upd)
                    return _raw(w)
                out[f"{dt} {method} {iname}"] = _error(write_nd)
    return out


_program("var-row-indices-at-bounds", _row_bounds)


@pytest.mark.clause("ops.variable-slices")
def test_blind90_variable_row_indices_at_and_past_bounds(backend: Any) -> None:
    """Variable reads and scatters by row: negative and out-of-range indices refused (never wrapped), scalar updates
    broadcast, other update shapes refused by class, in each dtype, eagerly and traced."""
    _check(backend, "var-row-indices-at-bounds")


# -- 3. the specs get_concrete_function takes from values -------------------------------------------------------------
def _concrete_specs(tf: Any, mk: Any) -> Any:
    """get_concrete_function of NumPy arrays and scalars of every numeric dtype, Python numbers and lists, tensors,
    and nests of them: structured_input_signature's specs (dtype, shape, name) or literals, the inputs' and outputs'
    dtypes, and the concrete function called on the same values; or the error's class."""
    out = {}

    def show(v: Any) -> Any:
        if hasattr(v, "dtype") and hasattr(v, "shape") and not isinstance(v, (np.ndarray, np.generic)):
            return [type(v).__name__, v.dtype.name, _shape(v.shape), getattr(v, "name", None)]
        if isinstance(v, dict):
            return {str(k): show(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [show(x) for x in v]
        return [type(v).__name__, repr(v)]

    def run(value: Any) -> Any:
        f = tf.function(lambda x: tf.nest.map_structure(lambda t: t + t, x))
        cf = f.get_concrete_function(value)
        return {"signature": show(cf.structured_input_signature),
                "inputs": [[t.dtype.name, _shape(t.shape)] for t in cf.inputs],
                "outputs": [[t.dtype.name, _shape(t.shape)] for t in cf.outputs],
                "called": _error(lambda: tf.nest.map_structure(_raw, cf(value)))}

    values = {}
    for dt in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "complex64", "bool"):
        values[f"array {dt}"] = (np.arange(3) % 2).astype(dt)
        values[f"scalar array {dt}"] = np.array(1, dt)
        values[f"numpy scalar {dt}"] = np.ones([], dt)[()]
    values["python float"] = 1.5
    values["python list"] = [1.0, 2.0]
    values["tensor float64"] = tf.constant([1.0, 2.0], tf.float64)
    values["nest"] = {"b": np.ones([2], np.float64), "a": [np.zeros([1], np.int32), tf.constant(2.0)]}
    for name, value in values.items():
        out[name] = _error(lambda: run(value))
    return out


_program("fn-concrete-specs-from-values", _concrete_specs)


@pytest.mark.clause("function.input-signature")
def test_blind90_concrete_function_specs_from_values(backend: Any) -> None:
    """The TensorSpecs (dtype, shape, name) a concrete function takes from NumPy values of each dtype, Python values,
    tensors and nests of them, and the call on them."""
    _check(backend, "fn-concrete-specs-from-values")


# -- 4. tf.image's float arithmetic: conversions, standardization, PSNR and adjustments ------------------------------
def _image_float_bits(tf: Any, mk: Any) -> Any:
    """convert_image_dtype between every integer type and float16/32/64 (and back, saturate both ways) over each
    type's range; per_image_standardization, psnr (max_val 1, 255 and of integer images), adjust_brightness, gamma,
    contrast, hue and saturation, rgb_to_yuv/yiq and their inverses of images of odd sizes: the results' bits."""
    r = _rng("image-float-bits")
    out = {}
    for it in ("uint8", "int8", "uint16", "int16", "int32"):
        info = np.iinfo(it)
        ints = np.unique(np.concatenate([np.linspace(info.min, info.max, 97).astype(np.int64),
                                         [info.min, info.min + 1, -1, 0, 1, info.max - 1, info.max]]))
        ints = ints[(ints >= info.min) & (ints <= info.max)].astype(it)
        for ft in ("float16", "float32", "float64"):
            out[f"convert {it}->{ft}"] = _error(lambda: _raw(tf.image.convert_image_dtype(tf.constant(ints), ft)))
            fl = np.concatenate([np.linspace(-0.1, 1.1, 61), [0.5 / info.max, 1 - 1e-7, 1.0, 0.999, 0.0]]).astype(ft)
            for sat in (False, True):
                out[f"convert {ft}->{it} saturate={sat}"] = _error(
                    lambda: _raw(tf.image.convert_image_dtype(tf.constant(fl), it, saturate=sat)))
        for it2 in ("uint8", "int16", "int32"):
            if it2 != it:
                out[f"convert {it}->{it2}"] = _error(lambda: _raw(tf.image.convert_image_dtype(tf.constant(ints), it2)))
    shapes = ((5, 6, 3), (2, 7, 3, 3), (1, 1, 3), (3, 9, 3))
    for shape in shapes:
        img = r.uniform(0, 1, shape).astype(np.float32)
        noisy = np.clip(img + r.normal(0, 0.07, shape), 0, 1).astype(np.float32)
        u8 = (img * 255).astype(np.uint8)
        flat = np.full(shape, 0.25, np.float32)
        flat.reshape(-1)[0] += np.float32(1e-4)
        key = "x".join(map(str, shape))
        for name, x in (("float32", img), ("uint8", u8), ("float64", img.astype(np.float64)), ("near-flat", flat)):
            out[f"standardize {key} {name}"] = _error(lambda: _raw(tf.image.per_image_standardization(x)))
        out[f"psnr {key} 1"] = _error(lambda: _raw(tf.image.psnr(img, noisy, 1.0)))
        out[f"psnr {key} 255"] = _error(lambda: _raw(tf.image.psnr(img * 255, noisy * 255, 255.0)))
        out[f"psnr {key} uint8"] = _error(lambda: _raw(tf.image.psnr(u8, (noisy * 255).astype(np.uint8), 255)))
        out[f"psnr {key} float64"] = _error(lambda: _raw(tf.image.psnr(img.astype(np.float64),
                                                                       noisy.astype(np.float64), 1.0)))
        out[f"brightness {key}"] = _error(lambda: _raw(tf.image.adjust_brightness(u8, 0.1)))
        out[f"gamma {key}"] = _error(lambda: _raw(tf.image.adjust_gamma(img, 0.7, 1.3)))
        out[f"gamma {key} uint8"] = _error(lambda: _raw(tf.image.adjust_gamma(u8, 1.7)))
        out[f"contrast {key}"] = _error(lambda: _raw(tf.image.adjust_contrast(img, 1.3)))
        out[f"contrast {key} uint8"] = _error(lambda: _raw(tf.image.adjust_contrast(u8, 0.6)))
        out[f"hue {key}"] = _error(lambda: _raw(tf.image.adjust_hue(img, 0.3)))
        out[f"saturation {key}"] = _error(lambda: _raw(tf.image.adjust_saturation(img, 1.4)))
        out[f"yuv {key}"] = _error(lambda: _raw(tf.image.yuv_to_rgb(tf.image.rgb_to_yuv(img))))
        out[f"yiq {key}"] = _error(lambda: _raw(tf.image.yiq_to_rgb(tf.image.rgb_to_yiq(img))))
        out[f"hsv {key}"] = _error(lambda: _raw(tf.image.hsv_to_rgb(tf.image.rgb_to_hsv(img))))
    return out


_program("kernel-image-float-arithmetic", _image_float_bits)


@pytest.mark.clause("ops.image")
def test_blind90_image_conversions_standardization_and_psnr(backend: Any) -> None:
    """tf.image's float arithmetic bit for bit: integer/float conversions (scaled by 1/max, by max + 0.5), per-image
    standardization, PSNR and the colour adjustments."""
    _check(backend, "kernel-image-float-arithmetic")


# -- 5. image shapes: traced rot90 and friends, central_crop's offsets ------------------------------------------------
def _image_shapes(tf: Any, mk: Any) -> Any:
    """rot90 (k 0-3), flips, transpose, rot90 of rank-4 batches in tf.functions whose specs know height and width
    (equal, unequal), one of them or neither: the static shapes; central_crop of images of every height and width up
    to 41 at fractions whose offsets fall near integers: the result's shape and its first row of values."""
    out = {}
    S = tf.TensorSpec
    specs = {"5x3x3": [5, 3, 3], "4x4x1": [4, 4, 1], "Nx3x2": [None, 3, 2], "3xNx2": [3, None, 2],
             "NxNx1": [None, None, 1], "2x5x3x1": [2, 5, 3, 1], "Nx4x4x2": [None, 4, 4, 2], "2x3xNx1": [2, 3, None, 1]}
    ops = {f"rot90 k={k}": (lambda x, k=k: tf.image.rot90(x, k)) for k in range(4)}
    ops.update({"flip_left_right": tf.image.flip_left_right, "flip_up_down": tf.image.flip_up_down,
                "transpose": tf.image.transpose, "rot90 tensor k": lambda x: tf.image.rot90(x, tf.constant(3))})
    for sname, shape in specs.items():
        for oname, op in ops.items():
            out[f"traced {oname} {sname}"] = _error(
                lambda: _shape(tf.function(op).get_concrete_function(S(shape)).structured_outputs.shape))
    fracs = (0.05, 0.1, 0.15, 0.2, 0.3, 0.35, 0.4, 0.45, 0.55, 0.6, 0.65, 0.7, 0.8, 0.85, 0.9, 0.95, 1 / 3, 2 / 3)
    for h in range(1, 42):
        img = tf.reshape(tf.range(h * 3, dtype=tf.float32), [h, 3, 1])
        wide = tf.reshape(tf.range(2 * h, dtype=tf.float32), [1, 2, h, 1])
        for f in fracs:
            out[f"central_crop {h} {f:.4f}"] = _error(lambda: _raw(tf.image.central_crop(img, f)[:, 0]))
            out[f"central_crop wide {h} {f:.4f}"] = _error(lambda: _raw(tf.image.central_crop(wide, f)[0, 0]))
    return out


_program("image-traced-shapes-and-central-crops", _image_shapes)


@pytest.mark.clause("function.static-shapes")
def test_blind90_image_traced_shapes_and_central_crop_offsets(backend: Any) -> None:
    """The static shapes of traced rot90/flip/transpose by what the spec knows of height and width, and central_crop's
    offsets ((h - h * f) / 2 truncated) over sizes and fractions."""
    _check(backend, "image-traced-shapes-and-central-crops")


# -- 6. NaN payloads of several operands: AddN and friends ------------------------------------------------------------
def _nan_operands(tf: Any, mk: Any) -> Any:
    """add_n of two, three and five inputs (eagerly and traced), tf.add and a sum by `+`, where several inputs hold
    NaNs of distinct payloads (and signs) at the same elements, in float32 and float64, over lengths with a packet body
    and a scalar tail: the results' bits."""
    out = {}
    # (float16 and bfloat16 left out: TF 2.21's half-type AddN of three or more inputs keeps another NaN than the
    # first, not modelled; docs/conformance.md, blind90)
    for dt, bits_t, quiet in (("float32", np.uint32, 0x7FC00000), ("float64", np.uint64, 0x7FF8000000000000)):
        for n in (3, 17, 37):
            ins = []
            for k in range(5):
                a = (np.arange(n) * (k + 1) % 7).astype(dt)
                raw = a.view(bits_t)
                for j in range(n):
                    if (j + k) % 3 != 2:
                        raw[j] = bits_t(quiet | (k * 16 + j % 16 + 1)) | (bits_t(1) << bits_t(8 * a.itemsize - 1)
                                                                          if (j + k) % 4 == 0 else bits_t(0))
                ins.append(raw.view(dt))
            for m in (2, 3, 5):
                out[f"add_n {dt} n={n} m={m}"] = _error(lambda: _raw(tf.math.add_n([tf.constant(x) for x in ins[:m]])))
            out[f"add {dt} n={n}"] = _error(lambda: _raw(tf.add(ins[0], ins[1])))
            out[f"plus {dt} n={n}"] = _error(lambda: _raw(tf.constant(ins[2]) + ins[0] + ins[1]))
            out[f"add_n traced {dt} n={n}"] = _error(
                lambda: _raw(tf.function(lambda a, b, c: tf.math.add_n([a, b, c]))(ins[0], ins[1], ins[2])))
    return out


_program("kernel-nan-operands-of-sums", _nan_operands)


@pytest.mark.clause("ops.packet-paths", "ops.host-cpu")
def test_blind90_nan_payloads_of_multi_input_sums(backend: Any) -> None:
    """Which NaN an n-ary sum returns where several inputs are NaN: AddN's functors return the first input's (x86's
    add keeps its first NaN operand), in each float dtype, packet body and tail."""
    _check(backend, "kernel-nan-operands-of-sums")


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
