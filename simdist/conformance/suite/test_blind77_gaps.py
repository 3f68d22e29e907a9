"""The classes around the seventy-seventh blind batch's mutants (tests/mutants.py TRAINING_BATCH77) that the suite did
not catch on first contact, each checked as a class rather than as the one mutant: FusedBatchNorm's statistics in
training (the corrected batch variance, the running mean and variance an exponential_avg_factor below 1 blends), the
signs of Python zero operands that TF's eager scalar cache hands on and Python subnormal operands that TF's kernels
read as zero, and the NaNs of oneDNN's float32 products (whose NaN operand's sign comes back).

Each program runs on the backend under test; its expected result is TF 2.21's, observed by running the same program
on TF (`python -m simdist.conformance.suite.test_blind77_gaps --record`, which rewrites blind77_reference.json.gz).
Recorded on this session's host, an Intel Xeon with AVX-512 and oneDNN on (recorded_programs.avx512_with_onednn): the
programs whose bits follow the CPU's kernels (prefix `kernel-`) run on simdist elsewhere under its reference model of
such a host. Floats are compared by their bits (hex of the IEEE value; a NaN by its raw bits where its sign is the
observation)."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

from simdist.conformance.suite.recorded_programs import (RecordedPrograms, avx512_with_onednn, bits as _bits,
                                                         error as _error, reference_cpu, rng as _rng)

PATH = os.path.join(os.path.dirname(__file__), "blind77_reference.json.gz")

#: programs whose TF 2.21 bits follow the CPU's kernels (clause ops.host-cpu)
HOST_DEPENDENT = ("kernel-",)

REF = RecordedPrograms(PATH, HOST_DEPENDENT, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)
_program, _ids, _check = REF.add, REF.ids, REF.check


def _raw(t: Any) -> list[int]:
    """A float tensor's raw bits (a NaN's sign and payload included)."""
    a = np.asarray(t.numpy() if hasattr(t, "numpy") else t)
    return a.view(f"u{a.dtype.itemsize}").ravel().tolist()


# -- 1. kernels: FusedBatchNorm's statistics in training (bits follow oneDNN's kernels) --------------------------------
def _fused_batch_norm_statistics(tf: Any, mk: Any) -> Any:
    """FusedBatchNormV3 (raw, and tf.compat.v1.nn.fused_batch_norm) in training with exponential_avg_factor 1, 0.3
    and 0.7 (the running mean and variance blended with the estimates: (1 - f) * old + f * batch, the variance's
    batch term corrected by n / (n - 1) before the factor), and in inference; float32 inputs, NHWC, batches of 1 to
    30 rows per channel (n = 1: no correction): the output, the batch mean and variance and the reserve spaces.
    (float16 inputs' statistics and the float32 gradient are left out: simdist is an ulp off TF 2.21 there, an open
    disagreement of the fifty-ninth session, docs/conformance.md.)"""
    r = _rng("fbnstats")
    out = {}
    for shape in ((2, 3, 3, 4), (1, 5, 6, 3), (3, 2, 5, 5), (1, 1, 1, 2)):
        c = shape[-1]
        x = r.randn(*shape).astype("float32")
        scale, offset = r.uniform(0.5, 2.0, c).astype("float32"), r.randn(c).astype("float32")
        mean, var = r.randn(c).astype("float32"), r.uniform(0.5, 2.0, c).astype("float32")
        for dt in ("float32",):
            xt = tf.cast(tf.constant(x), dt)
            for f in (1.0, 0.3, 0.7):
                key = f"{shape} {dt} factor {f}"
                y = _error(lambda: tf.raw_ops.FusedBatchNormV3(
                    x=xt, scale=scale, offset=offset, mean=mean, variance=var, epsilon=0.001,
                    exponential_avg_factor=f, data_format="NHWC", is_training=True))
                out[key] = y if isinstance(y, str) else [_bits(y[0]), _bits(y[1]), _bits(y[2]), _bits(y[3]),
                                                         _bits(y[4])]
            y = tf.raw_ops.FusedBatchNormV3(x=xt, scale=scale, offset=offset, mean=mean, variance=var, epsilon=0.01,
                                            exponential_avg_factor=1.0, data_format="NHWC", is_training=False)
            out[f"{shape} {dt} inference"] = [_bits(y[0]), _bits(y[1]), _bits(y[2])]
        v1 = tf.compat.v1.nn.fused_batch_norm(tf.constant(x), scale, offset, mean=mean, variance=var, epsilon=0.001,
                                              is_training=True, exponential_avg_factor=0.3)
        out[f"{shape} compat.v1 factor 0.3"] = [_bits(v) for v in v1]
    return out


_program("kernel-fused-batch-norm-statistics", _fused_batch_norm_statistics)


# -- 2. ops: Python operands, the zeros' signs and the subnormals -----------------------------------------------------
def _python_zero_and_subnormal_operands(tf: Any, mk: Any) -> Any:
    """Binary operators and tf.math functions of a tensor and a Python float that is a zero of either sign, in both
    orders of first use (TF's eager scalar cache keys 0.0 and -0.0 alike: the first one converted is handed to the
    later ones), in float32, float64, float16 and bfloat16; and Python subnormal operands (float32's subnormals, the
    smallest normal, float64's subnormals) in products, sums, quotients and maximum, which TF's CPU kernels read as
    zero where they are subnormal in the operation's dtype."""
    out = {}
    for dt in ("float32", "float64", "float16", "bfloat16"):
        t = tf.cast(tf.constant([1.5, -2.0, 0.0, -0.0]), dt)
        out[f"{dt} zeros +0 first"] = [_bits(v) for v in (t * 0.0, t * -0.0, t + -0.0, -0.0 - t, 0.0 * t,
                                                          tf.multiply(t, -0.0), tf.add(t, -0.0))]
        out[f"{dt} zeros -0 first"] = [_bits(v) for v in (t * -0.0, t * 0.0, t - 0.0, t + 0.0, tf.maximum(t, -0.0),
                                                          tf.minimum(t, 0.0))]
    t32 = tf.constant([1.0, 3.0, -2.0, 1e-3])
    t64 = tf.constant([1.0, 3.0, -2.0, 1e-3], tf.float64)
    for lit in (1e-40, -1e-45, 5e-39, 1.1e-38, 1.2e-38, 1.17549435e-38, 2e-38):
        out[f"float32 {lit!r}"] = [_bits(v) for v in (t32 * lit, lit * t32, t32 + lit, t32 / (lit * 1e30),
                                                      tf.maximum(t32 * 0.0, lit), tf.multiply(t32, lit))]
    for lit in (1e-310, -5e-324, 2.2250738585072014e-308, 1e-40):
        out[f"float64 {lit!r}"] = [_bits(v) for v in (t64 * lit, t64 + lit, tf.multiply(t64, lit))]
    out["traced float32 1e-40"] = _bits(tf.function(lambda a: a * 1e-40)(t32))
    return out


_program("op-python-zero-and-subnormal-operands", _python_zero_and_subnormal_operands)


# -- 3. kernels: NaNs through oneDNN's float32 products (bits follow oneDNN's kernels) --------------------------------
def _nan_products(tf: Any, mk: Any) -> Any:
    """float32 MatMul with transpose_b of one row (oneDNN's one-row kernel: 16-wide lane sums by fused multiply-adds,
    then pieces of 8, 4, 2, 1) where a lane's running sum is a NaN of either sign and a later product is invalid
    (inf times 0: the default NaN), or a NaN meets another NaN: which NaN comes back, by its raw bits."""
    r = _rng("nanproducts")
    out = {}
    for k in (16, 17, 24, 32, 40):
        for case in range(4):
            x = r.uniform(-2, 2, (1, k)).astype("float32")
            b = r.uniform(-2, 2, (3, k)).astype("float32")
            lane = case % 8
            x[0, lane] = np.float32("nan") * (1 if case % 2 else -1)
            x[0, lane + 8] = np.inf
            b[:, lane + 8] = 0.0
            if case >= 2:
                b[1, lane] = -np.float32("nan")
            out[f"k {k} case {case}"] = _raw(tf.matmul(x, b, transpose_b=True))
    return out


_program("kernel-nan-products", _nan_products)


# -- 4. ops: squeeze's axes, repeated in both spellings ---------------------------------------------------------------
def _squeeze_axes(tf: Any, mk: Any) -> Any:
    """tf.squeeze of tensors of rank 2 to 4 with size-1 dimensions, over axes given once, twice in the same spelling,
    twice as a negative and a positive index of one dimension, out of range, and of a dimension larger than 1;
    eagerly and inside a tf.function: the result's shape or the error's class."""
    out = {}
    shapes = ((1, 1), (1, 3, 1), (2, 1, 1, 4), (1, 1, 1))
    axes_list = ([0], [-1], [0, 0], [-1, 1], [1, -1], [0, -2], [-3, 0], [0, 1, -1], [-1, -1], [2], [-4], [1, 2, -2])
    for shape in shapes:
        x = tf.zeros(shape)
        for axes in axes_list:
            key = f"{shape} {axes}"
            out[f"{key} eager"] = _error(lambda: list(tf.squeeze(x, axes).shape))
            out[f"{key} traced"] = _error(lambda: list(tf.function(lambda t: tf.squeeze(t, axes))(x).shape))
    return out


_program("op-squeeze-axes", _squeeze_axes)


# -- 5. kernels: oneDNN's float32 products of k from 385 to 768 (bits follow oneDNN's kernels) -------------------------
def _split_products(tf: Any, mk: Any) -> Any:
    """float32 MatMul (plain) of m rows (2 to 16), k from 385 to 768 (odd and even: oneDNN sums the first ceil(k / 2)
    and the rest apart, then adds them) and the multiples of 384 up to 1,152, n columns 3 and 17."""
    r = _rng("splitproducts")
    out = {}
    for m, k, n in ((2, 385, 3), (4, 401, 17), (3, 511, 3), (5, 512, 17), (2, 577, 3), (16, 767, 3), (2, 768, 17),
                    (2, 1152, 3), (6, 431, 5)):   # (769 and more, split in three: not modelled)
        x = r.randn(m, k).astype("float32")
        y = r.randn(k, n).astype("float32")
        out[f"{m}x{k}x{n}"] = _bits(tf.matmul(x, y))
    return out


_program("kernel-split-products", _split_products)


# -- 6. random: Generators whose state words sit at int64's ends --------------------------------------------------------
def _generator_state_edges(tf: Any, mk: Any) -> Any:
    """tf.random.Generator from_state / from_key_counter / reset_from_key_counter with a counter or key word at
    int64's ends (2^63 - 1, 2^63 - 2, -2^63, -1, 0), philox and threefry where TF takes it: the state read back, a
    uniform and a normal draw, the state after them, skip(1) across the carry, and the state after a reset."""
    top = 2 ** 63 - 1
    out = {}
    for words in ([top, 5, 7], [9, top, 7], [top - 1, top, 0], [-(2 ** 63), -1, 3], [-1, -1, -1], [top, top, top]):
        key = str(words)

        def run(w: Any = words) -> Any:
            g = tf.random.Generator.from_state(tf.constant(w, tf.int64), alg="philox")
            first = _bits(g.state)
            u = _bits(g.uniform([3]))
            n = _bits(g.normal([2], dtype=tf.float64))
            after = _bits(g.state)
            g.skip(1)
            return [first, u, n, after, _bits(g.state)]
        out[f"from_state {key}"] = _error(run)
        out[f"from_key_counter {key}"] = _error(lambda w=words: _bits(tf.random.Generator.from_key_counter(
            key=w[2], counter=w[:2], alg="philox").uniform([2])))

        def reset(w: Any = words) -> Any:
            g = tf.random.Generator.from_seed(1)
            g.reset_from_key_counter(key=w[2], counter=w[:2])
            return [_bits(g.state), _bits(g.uniform_full_int([2], tf.int64))]
        out[f"reset_from_key_counter {key}"] = _error(reset)
    return out


_program("random-generator-state-edges", _generator_state_edges)


# -- 7. tf.data: the bytes of TFRecord files (CRC-32C checksums) --------------------------------------------------------
def _tfrecord_bytes(tf: Any, mk: Any) -> Any:
    """TFRecord files written by tf.io.TFRecordWriter (records empty, short, 300 bytes, of every byte value) and by
    tf.data.experimental.TFRecordWriter from a dataset: every byte of the file (each record's length, its masked
    CRC-32C, the data and the data's masked CRC-32C); tf.io.TFRecordDataset reading them back; a copy with one data
    byte changed, one with a length's CRC changed: the error's class when read; the dataset writer's return, its
    overwriting, and its errors for a list and for datasets of int64s and of string vectors."""
    import tempfile
    d = tempfile.mkdtemp(prefix="blind77_tfrecord_")
    records = [b"", b"a", b"simdist blind batch 77", bytes(range(256)), b"\x00" * 300]
    p1 = os.path.join(d, "one.tfrecord")
    with tf.io.TFRecordWriter(p1) as w:
        for rec in records:
            w.write(rec)
    raw = open(p1, "rb").read()
    out = {"tf.io.TFRecordWriter bytes": list(raw)}
    out["read back"] = [list(t.numpy()) for t in tf.data.TFRecordDataset(p1)]
    p2 = os.path.join(d, "two.tfrecord")
    tf.data.experimental.TFRecordWriter(p2).write(tf.data.Dataset.from_tensor_slices([b"x", b"yz", b"\xff" * 17]))
    out["experimental writer bytes"] = list(open(p2, "rb").read())
    out["experimental writer returns"] = repr(tf.data.experimental.TFRecordWriter(p2).write(
        tf.data.Dataset.from_tensor_slices([b"again"])))
    out["experimental writer rewrote"] = list(open(p2, "rb").read())
    out["experimental writer of a list"] = _error(lambda: tf.data.experimental.TFRecordWriter(p2).write([b"x"]))
    out["experimental writer of int64s"] = _error(lambda: tf.data.experimental.TFRecordWriter(p2).write(
        tf.data.Dataset.range(3)))
    out["experimental writer of vectors"] = _error(lambda: tf.data.experimental.TFRecordWriter(p2).write(
        tf.data.Dataset.from_tensors([b"a", b"b"])))
    for what, pos in (("a data byte", 12 + 1 + 4 + 12), ("a length's crc", 8)):
        bad = bytearray(raw)
        bad[pos] ^= 0x20
        p3 = os.path.join(d, f"bad{pos}.tfrecord")
        open(p3, "wb").write(bytes(bad))
        out[f"{what} changed"] = _error(lambda p=p3: [list(t.numpy()) for t in tf.data.TFRecordDataset(p)])
    return out


_program("data-tfrecord-bytes", _tfrecord_bytes)


# -- 8. distribution: where colocated variables go; compute_average_loss's global batch sizes -------------------------
def _colocated_variables(tf: Any, mk: Any) -> Any:
    """Variables made under strategy.extended.colocate_vars_with(v): under the default strategy with v on another
    device than the current device scope, and under MirroredStrategy (each component's device): their devices. (A
    device scope entered inside the colocation, and a Keras optimizer's slots' devices, are left out: simdist
    differs from TF 2.21 there, open items of the fifty-ninth session.)"""
    s = mk()
    st = tf.distribute.get_strategy()
    out = {}
    with tf.device("/cpu:1"):
        v = tf.Variable([1.0, 2.0])
    with tf.device("/cpu:0"):
        with st.extended.colocate_vars_with(v):
            w = tf.Variable(2.0)
        after = tf.Variable(4.0)
    out["default strategy"] = [v.device, w.device, after.device]
    with s.scope():
        a = tf.Variable([1.0, 2.0])
        with s.extended.colocate_vars_with(a):
            b = tf.Variable([0.0, 0.0])
    out["mirrored"] = [[c.device for c in s.experimental_local_results(x)] for x in (a, b)]
    return out


_program("dist-colocated-variables", _colocated_variables)


def _average_loss_batch_sizes(tf: Any, mk: Any) -> Any:
    """tf.nn.compute_average_loss with global_batch_size 0, 1, 4 and -1, as a Python int, an int32 and an int64
    tensor, a float, a vector; with sample_weight; inside a tf.function; and in a replica of MirroredStrategy without
    a global batch size: the value or the error's class."""
    losses = tf.constant([1.0, 2.0, 4.0])
    out = {}
    for gbs in (0, 1, 4, -1):
        out[f"python {gbs}"] = _error(lambda g=gbs: _bits(tf.nn.compute_average_loss(losses, global_batch_size=g)))
        for dt in ("int32", "int64"):
            out[f"{dt} {gbs}"] = _error(lambda g=gbs, d=dt: _bits(tf.nn.compute_average_loss(
                losses, global_batch_size=tf.constant(g, d))))
        out[f"traced {gbs}"] = _error(lambda g=gbs: _bits(tf.function(
            lambda x: tf.nn.compute_average_loss(x, global_batch_size=tf.constant(g)))(losses)))
    out["float 4.0"] = _error(lambda: _bits(tf.nn.compute_average_loss(losses, global_batch_size=4.0)))
    out["vector"] = _error(lambda: _bits(tf.nn.compute_average_loss(losses, global_batch_size=tf.constant([4]))))
    out["sample_weight, 0"] = _error(lambda: _bits(tf.nn.compute_average_loss(
        losses, sample_weight=tf.constant([1.0, 0.0, 2.0]), global_batch_size=0)))
    out["no batch size"] = _bits(tf.nn.compute_average_loss(losses))
    s = mk()
    per = s.run(lambda: tf.nn.compute_average_loss(losses))
    out["replicas"] = [_bits(c) for c in s.experimental_local_results(per)]
    per0 = s.run(lambda: tf.nn.compute_average_loss(losses, global_batch_size=0))
    out["replicas, 0"] = [_bits(c) for c in s.experimental_local_results(per0)]
    return out


_program("dist-average-loss-batch-sizes", _average_loss_batch_sizes)


@pytest.mark.clause("ops.eigen-kernels")
@pytest.mark.parametrize("name", _ids("kernel-"))
def test_blind77_kernels_bit_for_bit(backend: Any, name: str) -> None:
    """FusedBatchNorm's training statistics and oneDNN's NaN products, bit for bit against TF 2.21 on an AVX-512
    oneDNN host."""
    _check(backend, name)


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("name", _ids("op-"))
def test_blind77_ops_values(backend: Any, name: str) -> None:
    """Python operands' zeros and subnormals as TF's eager conversion and kernels take them; squeeze's axes."""
    _check(backend, name)


@pytest.mark.clause("ops.random-generator")
@pytest.mark.parametrize("name", _ids("random-"))
def test_blind77_random_generators(backend: Any, name: str) -> None:
    """Generators whose state words sit at int64's ends: the state read back and the draws."""
    _check(backend, name)


@pytest.mark.clause("dataset.readers")
@pytest.mark.parametrize("name", _ids("data-"))
def test_blind77_data_files(backend: Any, name: str) -> None:
    """TFRecord files byte for byte (their CRC-32C checksums) and their corruption errors."""
    _check(backend, name)


@pytest.mark.clause("nn.compute-average-loss")
@pytest.mark.parametrize("name", _ids("dist-"))
def test_blind77_distribution(backend: Any, name: str) -> None:
    """Where variables made under colocate_vars_with go, and compute_average_loss's global batch sizes."""
    _check(backend, name)


if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
