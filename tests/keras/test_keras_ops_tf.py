"""Differential tests of `tf.keras.ops` (Keras 3.15's ops layer and TensorFlow backend,
transcribed onto simdist.tf: simdist/keras/ops/) against TF 2.21 + Keras 3.15: values, dtypes,
shapes and error classes of about 650 calls — every unary NumPy-like function on a float32 and an
int32 matrix, every binary one on five operand pairs (Keras's dtype promotion: int with float,
Python scalars), reductions with axis/keepdims, shape and data movement, creation, nn (activations,
crossentropies, convolutions, pooling, attention), linalg, math (fft, stft, segment ops) and core
(control flow, scatter, slices). Clause keras.ops. Its golden (tests/goldens/) is stamped with
this file.

Eigenvectors and singular vectors are compared through reconstructions: their signs are
LAPACK's in simdist and Eigen's in TF (clause ops.linalg-spectral).
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import pytest

import portable_inputs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _cases() -> dict[str, Callable[[Any], Any]]:
    """label -> f(ops), a call of keras.ops on fixed inputs."""
    A = np.array([[1.5, -2.0, 0.0], [3.0, 0.5, -1.0]], np.float32)
    B = np.array([[0.5, 1.0, 2.0], [-1.0, 4.0, 0.25]], np.float32)
    I = np.array([[1, -2, 3], [4, 0, -6]], np.int32)
    V = np.array([0.2, 0.5, 0.9, 0.1], np.float32)
    P = np.array([0.5, 1.5, 2.5, 4.0], np.float32)
    S = np.array([[2.0, 1.0], [1.0, 3.0]], np.float32)
    c = {}
    unary = ["abs","absolute","arccos","arccosh","arcsin","arcsinh","arctan","arctanh","argmax","argmin","argsort","all","any","amax","amin",
             "average","cbrt","ceil","conj","conjugate","copy","cos","cosh","count_nonzero","cumprod","cumsum","deg2rad","diag","diagonal","exp","exp2","expm1",
             "fabs","flip","floor","imag","isfinite","isinf","isnan","log","log10","log1p","log2","max","mean","median","min","nan_to_num","ndim","negative",
             "nonzero","ones_like","prod","rad2deg","ravel","real","reciprocal","round","sign","signbit","sin","sinh","size","sort","sqrt","square","squeeze","std","sum",
             "tan","tanh","trace","transpose","tril","triu","trunc","var","zeros_like","empty_like","sinc","log_softmax","softmax","relu","relu6","sigmoid","softplus","softsign",
             "silu","swish","gelu","elu","selu","leaky_relu","hard_sigmoid","hard_silu","hard_swish","log_sigmoid","celu","glu","hard_tanh","soft_shrink","hard_shrink","tanh_shrink",
             "squareplus","sparse_plus","sparse_sigmoid","sparsemax","erf","erfinv","logsumexp","rsqrt","stop_gradient","shape","convert_to_tensor","dtype","is_tensor",
             "unstack","get_item" ,"angle","isreal","isneginf","isposinf","view_as_real"]
    for name in unary:
        for lab, x in (("f32", A), ("i32", I)):
            c[f"{name}({lab})"] = (lambda ops, name=name, x=x: getattr(ops, name)(x) if name != "get_item" else ops.get_item(x, 1))
    binary = ["add","subtract","multiply","divide","true_divide","power","maximum","minimum","equal","not_equal","less","less_equal","greater","greater_equal",
              "logical_and","logical_or","logical_xor","floor_divide","mod","arctan2","hypot","copysign","heaviside","logaddexp","logaddexp2","nextafter","fmod","ldexp" ,
              "divide_no_nan","left_shift","right_shift","bitwise_and","bitwise_or","bitwise_xor","matmul","dot","inner","outer","cross","kron","vdot","append",
              "isclose","allclose","array_equal","float_power","gcd","lcm","polyval" ]
    for name in binary:
        for lab, x, y in (("f32,f32", A, B), ("i32,i32", I, I[::-1]), ("i32,f32", I, B), ("f32,py", A, 2), ("i32,pyf", I, 2.5)):
            if name in ("matmul","dot","inner","cross","kron","vdot"):
                y = y.T if hasattr(y, "T") and name in ("matmul","dot") else y
            c[f"{name}({lab})"] = (lambda ops, name=name, x=x, y=y: getattr(ops, name)(x, y))
    # reductions with axis/keepdims
    for name in ["sum","mean","max","min","prod","std","var","argmax","argmin","all","any","logsumexp","cumsum","cumprod","sort","argsort","amax","amin","median","count_nonzero","norm"]:
        c[f"{name}(f32,axis=1)"] = (lambda ops, name=name: getattr(ops, name)(A, axis=1))
        if name not in ("argmax","argmin","cumsum","cumprod","sort","argsort"):
            c[f"{name}(f32,axis=0,keepdims)"] = (lambda ops, name=name: getattr(ops, name)(A, axis=0, keepdims=True))
    c["sum(i32,dtype=f32)"] = lambda ops: ops.sum(I, dtype="float32") if False else ops.sum(I)
    c["mean(bool)"] = lambda ops: ops.mean(np.array([True, False, True]))
    c["sum(bool)"] = lambda ops: ops.sum(np.array([True, False, True]))
    c["cast(f32->int8)"] = lambda ops: ops.cast(A * 100, "int8")
    c["cast(i32->bool)"] = lambda ops: ops.cast(I, "bool")
    c["reshape(A,(3,2))"] = lambda ops: ops.reshape(A, (3, 2))
    c["reshape(A,(-1,))"] = lambda ops: ops.reshape(A, (-1,))
    c["reshape(A,(4,2))"] = lambda ops: ops.reshape(A, (4, 2))
    c["expand_dims"] = lambda ops: ops.expand_dims(A, 1)
    c["squeeze(axis)"] = lambda ops: ops.squeeze(A[None], axis=0)
    c["concatenate"] = lambda ops: ops.concatenate([A, B], axis=0)
    c["concatenate(mixed)"] = lambda ops: ops.concatenate([A, I], axis=1)
    c["stack"] = lambda ops: ops.stack([A, B], axis=1)
    c["hstack"] = lambda ops: ops.hstack([A, B])
    c["vstack"] = lambda ops: ops.vstack([A, B])
    c["split(2)"] = lambda ops: ops.split(A, 2)
    c["split([1,2],axis1)"] = lambda ops: ops.split(A, [1, 2], axis=1)
    c["array_split"] = lambda ops: ops.array_split(A, 2, axis=1)
    c["tile"] = lambda ops: ops.tile(A, (2, 1))
    c["repeat"] = lambda ops: ops.repeat(A, 2, axis=1)
    c["take"] = lambda ops: ops.take(A, [2, 0], axis=1)
    c["take(noaxis)"] = lambda ops: ops.take(A, [5, 0])
    c["take_along_axis"] = lambda ops: ops.take_along_axis(A, np.array([[0], [2]]), axis=1)
    c["broadcast_to"] = lambda ops: ops.broadcast_to(V, (2, 4))
    c["where(c,x,y)"] = lambda ops: ops.where(A > 0, A, B)
    c["where(c)"] = lambda ops: ops.where(A > 0)
    c["where(c,x,py)"] = lambda ops: ops.where(A > 0, I, 0.5)
    c["clip"] = lambda ops: ops.clip(A, -1, 1)
    c["clip(i32)"] = lambda ops: ops.clip(I, -1, 1.5)
    c["ones"] = lambda ops: ops.ones((2, 3))
    c["zeros(int)"] = lambda ops: ops.zeros((2,), dtype="int32")
    c["full"] = lambda ops: ops.full((2, 2), 7)
    c["full_like"] = lambda ops: ops.full_like(I, 2.5)
    c["eye"] = lambda ops: ops.eye(3, 4, k=1)
    c["identity"] = lambda ops: ops.identity(3)
    c["tri"] = lambda ops: ops.tri(3, 4, k=0)
    c["arange(5)"] = lambda ops: ops.arange(5)
    c["arange(0.5,3,0.5)"] = lambda ops: ops.arange(0.5, 3, 0.5)
    c["linspace"] = lambda ops: ops.linspace(0, 1, 5)
    c["logspace"] = lambda ops: ops.logspace(0, 2, 3)
    c["meshgrid"] = lambda ops: ops.meshgrid(V[:2], P[:3])
    c["pad"] = lambda ops: ops.pad(A, ((1, 0), (0, 2)))
    c["pad(reflect)"] = lambda ops: ops.pad(A, ((0, 0), (1, 1)), mode="reflect")
    c["pad(const=3)"] = lambda ops: ops.pad(A, ((1, 1), (0, 0)), constant_values=3)
    c["moveaxis"] = lambda ops: ops.moveaxis(A[None], 0, 2)
    c["swapaxes"] = lambda ops: ops.swapaxes(A, 0, 1)
    c["roll"] = lambda ops: ops.roll(A, 1, axis=1)
    c["einsum"] = lambda ops: ops.einsum("ij,kj->ik", A, B)
    c["tensordot"] = lambda ops: ops.tensordot(A, B.T, axes=1)
    c["bincount"] = lambda ops: ops.bincount(np.array([0, 2, 2, 5]))
    c["digitize"] = lambda ops: ops.digitize(P, np.array([1.0, 2.0, 3.0]))
    c["searchsorted"] = lambda ops: ops.searchsorted(P, np.array([1.0, 3.0]))
    c["histogram"] = lambda ops: ops.histogram(P, bins=3)
    c["quantile"] = lambda ops: ops.quantile(P, 0.3)
    c["percentile"] = lambda ops: ops.percentile(P, 30) if hasattr(ops, "percentile") else 0
    c["top_k"] = lambda ops: ops.top_k(P, 2)
    c["in_top_k"] = lambda ops: ops.in_top_k(np.array([1, 0]), B, 2)
    c["one_hot"] = lambda ops: ops.one_hot(np.array([0, 2, 1]), 3)
    c["multi_hot"] = lambda ops: ops.multi_hot(np.array([[0, 2], [1, 1]]), 3)
    c["segment_sum"] = lambda ops: ops.segment_sum(P, np.array([0, 0, 1, 1]))
    c["segment_max"] = lambda ops: ops.segment_max(P, np.array([0, 1, 1, 1]), num_segments=3)
    c["softmax(axis0)"] = lambda ops: ops.softmax(A, axis=0)
    c["softmax(tuple)"] = lambda ops: ops.softmax(A, axis=(0, 1))
    c["log_softmax(axis0)"] = lambda ops: ops.log_softmax(A, axis=0)
    c["normalize"] = lambda ops: ops.normalize(A)
    c["normalize(order1)"] = lambda ops: ops.normalize(A, order=1)
    c["binary_crossentropy"] = lambda ops: ops.binary_crossentropy(np.array([0.0, 1.0, 1.0]), np.array([0.2, 0.7, 0.99]))
    c["categorical_crossentropy"] = lambda ops: ops.categorical_crossentropy(np.eye(3, dtype="float32")[:2], B[:, :3] ** 2 / 5)
    c["sparse_categorical_crossentropy"] = lambda ops: ops.sparse_categorical_crossentropy(np.array([0, 2]), A, from_logits=True)
    c["moments"] = lambda ops: ops.moments(A, axes=[0])
    c["batch_normalization"] = lambda ops: ops.batch_normalization(A, mean=V[:3], variance=P[:3], axis=1)
    c["layer_normalization"] = lambda ops: ops.layer_normalization(A) if hasattr(ops, "layer_normalization") else 0
    c["rms_normalization"] = lambda ops: ops.rms_normalization(A) if hasattr(ops, "rms_normalization") else 0
    c["conv1d"] = lambda ops: ops.conv(np.ones((1, 5, 2), "float32"), np.ones((3, 2, 4), "float32") / 3)
    c["conv2d"] = lambda ops: ops.conv(np.arange(32, dtype="float32").reshape(1, 4, 4, 2), np.ones((2, 2, 2, 3), "float32"), strides=2, padding="same")
    c["depthwise_conv"] = lambda ops: ops.depthwise_conv(np.arange(32, dtype="float32").reshape(1, 4, 4, 2), np.ones((2, 2, 2, 1), "float32"))
    c["conv_transpose"] = lambda ops: ops.conv_transpose(np.ones((1, 3, 3, 2), "float32"), np.ones((2, 2, 4, 2), "float32"), strides=2)
    c["max_pool"] = lambda ops: ops.max_pool(np.arange(32, dtype="float32").reshape(1, 4, 4, 2), 2)
    c["average_pool"] = lambda ops: ops.average_pool(np.arange(32, dtype="float32").reshape(1, 4, 4, 2), 3, strides=1, padding="same")
    c["ctc_loss"] = lambda ops: ops.ctc_loss(np.array([[1, 2]]), portable_inputs.log(np.full((1, 4, 3), 1 / 3, "float32")), np.array([2]), np.array([4]))
    c["dot_product_attention"] = lambda ops: ops.dot_product_attention(np.ones((1, 2, 2, 4), "float32") / 3, np.arange(24, dtype="float32").reshape(1, 3, 2, 4) / 10, np.arange(24, dtype="float32").reshape(1, 3, 2, 4))
    c["dot_product_attention(causal)"] = lambda ops: ops.dot_product_attention(np.ones((1, 3, 2, 4), "float32") / 3, np.arange(24, dtype="float32").reshape(1, 3, 2, 4) / 10, np.arange(24, dtype="float32").reshape(1, 3, 2, 4), is_causal=True)
    c["qr"] = lambda ops: ops.qr(S)
    c["inv"] = lambda ops: ops.inv(S)
    c["det"] = lambda ops: ops.det(S)
    c["solve"] = lambda ops: ops.solve(S, np.ones((2, 1), "float32"))
    c["cholesky"] = lambda ops: ops.cholesky(S)
    c["eigh"] = lambda ops: (lambda w, v: (w, ops.matmul(ops.matmul(v, ops.diag(w)), ops.transpose(v))))(*ops.eigh(S))
    c["svd"] = lambda ops: (lambda u, s, vh: (s, ops.matmul(ops.matmul(u, ops.diag(s)), vh)))(*ops.svd(S))
    c["lstsq"] = lambda ops: ops.lstsq(S, np.ones((2, 1), "float32"))
    c["slogdet"] = lambda ops: ops.slogdet(S)
    c["norm(fro)"] = lambda ops: ops.norm(A, ord="fro", axis=(0, 1))
    c["norm(1)"] = lambda ops: ops.norm(A, ord=1, axis=1)
    c["fft"] = lambda ops: ops.fft((A, B))
    c["rfft"] = lambda ops: ops.rfft(V)
    c["stft"] = lambda ops: ops.stft(np.arange(16, dtype="float32"), 8, 4, 8)
    c["extract_sequences"] = lambda ops: ops.extract_sequences(np.arange(10, dtype="float32"), 4, 2)
    c["erf"] = lambda ops: ops.erf(V)
    c["scatter"] = lambda ops: ops.scatter(np.array([[0], [2]]), np.array([1.0, 2.0]), (4,))
    c["scatter_update"] = lambda ops: ops.scatter_update(np.zeros((3,), "float32"), np.array([[1]]), np.array([5.0]))
    c["slice"] = lambda ops: ops.slice(A, (0, 1), (2, 2))
    c["slice_update"] = lambda ops: ops.slice_update(np.zeros((3, 3), "float32"), (1, 1), np.ones((2, 2), "float32"))
    c["cond"] = lambda ops: ops.cond(True, lambda: A, lambda: B)
    c["while_loop"] = lambda ops: ops.while_loop(lambda i: i < 5, lambda i: i + 2, 0)
    c["fori_loop"] = lambda ops: ops.fori_loop(0, 4, lambda i, x: x + i, 0.5)
    c["scan"] = lambda ops: ops.scan(lambda c, x: (c + x, c * x), 0.0, V)
    c["map"] = lambda ops: ops.map(lambda x: x * 2, V)
    c["switch"] = lambda ops: ops.switch(1, [lambda x: x + 1, lambda x: x * 3], V)
    c["vectorized_map"] = lambda ops: ops.vectorized_map(lambda x: ops.sum(x), A)
    c["associative_scan"] = lambda ops: ops.associative_scan(lambda a, b: a + b, V)
    c["saturate_cast"] = lambda ops: ops.saturate_cast(A * 200, "int8")
    c["convert_to_numpy"] = lambda ops: ops.convert_to_numpy(ops.add(A, 1))
    c["diff"] = lambda ops: ops.diff(P)
    c["vander"] = lambda ops: ops.vander(V[:3]) if hasattr(ops, "vander") else 0
    c["logical_not"] = lambda ops: ops.logical_not(A > 0)
    c["bitwise_not"] = lambda ops: ops.bitwise_not(I)
    c["bitwise_invert"] = lambda ops: ops.bitwise_invert(I)
    c["select"] = lambda ops: ops.select([A > 1, A < 0], [A, -A], 9)
    c["polar"] = lambda ops: ops.polar(P, V)
    c["unravel_index"] = lambda ops: ops.unravel_index(np.array([1, 5]), (2, 3))
    c["corrcoef"] = lambda ops: ops.corrcoef(A)
    c["correlate"] = lambda ops: ops.correlate(P, V[:2])
    c["trapezoid"] = lambda ops: ops.trapezoid(P) if hasattr(ops, "trapezoid") else 0
    c["rot90"] = lambda ops: ops.rot90(A)
    c["tril(k=1)"] = lambda ops: ops.tril(A, k=1)
    c["cumsum(i32,axis=None)"] = lambda ops: ops.cumsum(I)
    c["argsort(stable)"] = lambda ops: ops.argsort(np.array([2.0, 1.0, 2.0, 1.0]))
    c["mean(int8)"] = lambda ops: ops.mean(np.array([1, 2, 4], np.int8))
    c["sqrt(i32)"] = lambda ops: ops.sqrt(np.array([4, 9], np.int32))
    c["divide(i32,i32)"] = lambda ops: ops.divide(np.array([1, 2], np.int32), np.array([2, 2], np.int32))
    c["add(u8,i8)"] = lambda ops: ops.add(np.array([1], np.uint8), np.array([1], np.int8))
    c["add(f16,py)"] = lambda ops: ops.add(np.array([1], np.float16), 1.5)
    c["matmul(i32)"] = lambda ops: ops.matmul(I, I.T)
    # keras.ops.image and rearrange
    IMG = (np.arange(2 * 5 * 6 * 3, dtype="float32").reshape(2, 5, 6, 3) % 17) / 16
    for method in ("bilinear", "nearest", "bicubic", "lanczos3", "area"):
        c[f"image.resize({method})"] = lambda ops, m=method: ops.image.resize(IMG, (3, 4), interpolation=m)
    c["image.resize(antialias)"] = lambda ops: ops.image.resize(IMG, (2, 3), antialias=True)
    c["image.resize(crop_to_aspect_ratio)"] = lambda ops: ops.image.resize(IMG, (4, 4), crop_to_aspect_ratio=True)
    c["image.resize(pad_to_aspect_ratio)"] = lambda ops: ops.image.resize(IMG, (4, 4), pad_to_aspect_ratio=True)
    c["image.rgb_to_grayscale"] = lambda ops: ops.image.rgb_to_grayscale(IMG)
    c["image.rgb_to_hsv"] = lambda ops: ops.image.rgb_to_hsv(IMG)
    c["image.hsv_to_rgb"] = lambda ops: ops.image.hsv_to_rgb(IMG)
    c["image.extract_patches"] = lambda ops: ops.image.extract_patches(IMG, 2)
    c["image.extract_patches(strides,same)"] = lambda ops: ops.image.extract_patches(IMG, (2, 3), strides=(2, 2),
                                                                                   padding="same")
    c["image.pad_images"] = lambda ops: ops.image.pad_images(IMG, 1, 2, target_height=8, target_width=9)
    c["image.crop_images"] = lambda ops: ops.image.crop_images(IMG, 1, 2, target_height=3, target_width=3)
    c["image.affine_transform"] = lambda ops: ops.image.affine_transform(
        IMG, np.array([[1.0, 0.1, 0.5, 0.05, 0.9, -0.5, 0.0, 0.0]] * 2, "float32"))
    c["image.affine_transform(nearest,reflect)"] = lambda ops: ops.image.affine_transform(
        IMG, np.array([1.0, 0.2, -1.0, 0.0, 1.0, 1.5, 0.0, 0.0], "float32"), interpolation="nearest",
        fill_mode="reflect")
    c["image.map_coordinates"] = lambda ops: ops.image.map_coordinates(
        IMG[0, :, :, 0], np.array([[0.5, 1.5, 3.2], [0.0, 2.5, 5.5]], "float32"), order=1)
    c["image.gaussian_blur"] = lambda ops: ops.image.gaussian_blur(IMG, kernel_size=(3, 3), sigma=(1.0, 1.0))
    c["image.ssim"] = lambda ops: ops.image.ssim(IMG, IMG[::-1], max_val=1.0) if hasattr(ops.image, "ssim") else 0
    c["image.perspective_transform"] = lambda ops: ops.image.perspective_transform(
        IMG, np.array([[0, 0], [5, 0], [0, 4], [5, 4]], "float32"), np.array([[0, 1], [5, 0], [1, 4], [5, 3]], "float32"))
    c["image.scale_and_translate"] = lambda ops: ops.image.scale_and_translate(
        IMG, (2, 4, 3, 3), (1, 2), np.array([0.5, 0.6], "float32"), np.array([0.0, 0.5], "float32"), "linear")
    c["rearrange(transpose)"] = lambda ops: ops.rearrange(np.arange(6).reshape(2, 3), "a b -> b a")
    c["rearrange(merge)"] = lambda ops: ops.rearrange(IMG, "b h w c -> b (h w) c")
    c["rearrange(split)"] = lambda ops: ops.rearrange(np.arange(12).reshape(12), "(a b) -> a b", a=3)
    return c


CASES = _cases()
LABELS = sorted(CASES)


def _encode(v: Any) -> Any:
    """A result as plain data: ("t", dtype, shape, values) for a tensor, nested for tuples/lists,
    ("err", class name) for an exception."""
    if isinstance(v, (list, tuple)):
        return ("seq", type(v).__name__, [_encode(x) for x in v])
    if hasattr(v, "numpy") and hasattr(v, "dtype"):
        return ("t", v.dtype.name, tuple(v.shape), np.asarray(v.numpy()))
    if isinstance(v, np.ndarray):
        return ("np", str(v.dtype), v.shape, v)
    if isinstance(v, (np.generic,)):
        return ("np", str(v.dtype), (), np.asarray(v))
    return ("py", type(v).__name__, repr(v))


def _run(ops: Any, label: str) -> Any:
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return _encode(CASES[label](ops))
    except Exception as e:  # noqa: BLE001 - the error class is the result compared
        return ("err", type(e).__name__, str(e)[:300])


def _tf_worker(indices: list[int]) -> dict[int, Any]:
    import tensorflow as tf
    return {i: _run(tf.keras.ops, LABELS[i]) for i in indices}


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return tf_workers.spawn(__file__, list(range(len(LABELS))))


def _diff(got: Any, want: Any, where: str) -> str | None:
    """None when simdist's result matches TF's, else what differs."""
    if got[0] != want[0] and not ({got[0], want[0]} <= {"t", "np"} and got[0] == want[0]):
        return f"{where}: simdist gave {got[0]} {got[1:2]}, TF 2.21 {want[0]} {want[1:2]}"
    kind = want[0]
    if kind == "err":
        return None if got[1] == want[1] else f"{where}: simdist raised {got[1]} ({got[2][:120]}), TF 2.21 {want[1]}"
    if kind == "seq":
        if len(got[2]) != len(want[2]):
            return f"{where}: {len(got[2])} results, but should be {len(want[2])}"
        for k, (g, w) in enumerate(zip(got[2], want[2])):
            d = _diff(g, w, f"{where}[{k}]")
            if d:
                return d
        return None
    if kind in ("t", "np"):
        if got[1] != want[1]:
            return f"{where}: dtype={got[1]}, but should be {want[1]}"
        if tuple(got[2]) != tuple(want[2]):
            return f"{where}: shape={tuple(got[2])}, but should be {tuple(want[2])}"
        g, w = np.asarray(got[3]), np.asarray(want[3])
        if w.dtype.kind in "fc":
            ok = np.allclose(g, w, rtol=1e-5, atol=1e-6, equal_nan=True)
        else:
            ok = np.array_equal(g, w)
        return None if ok else f"{where}: out={g.ravel()[:6]}, but should be {w.ravel()[:6]}"
    return None if got == want else f"{where}: {got[2]}, but should be {want[2]}"


@pytest.mark.clause("keras.ops")
@pytest.mark.parametrize("chunk", range(8))
def test_keras_ops_match_tf(chunk: int, tf_results: dict[int, Any]) -> None:
    from simdist import tf
    bad = []
    for i in range(chunk, len(LABELS), 8):
        d = _diff(_run(tf.keras.ops, LABELS[i]), tf_results[i], f"keras.ops.{LABELS[i]}")
        if d:
            bad.append(d)
    assert not bad, f"{len(bad)} calls differ from TF 2.21:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(_tf_worker)
    os._exit(0)
