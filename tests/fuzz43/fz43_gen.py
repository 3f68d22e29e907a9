"""A small throwaway differential generator (fz43): calls of public tf.math / tf.nn / tf.linalg / tf.signal /
tf.image / tf.strings functions on ordinary and edge inputs (NaN, +-inf, -0.0, subnormals, int extremes, empty
shapes), eagerly and inside a tf.function, run on TF 2.21 and on simdist in two subprocesses; each call's outcome
(dtype, shape and bits of every output, or the exception class) compared.

    python tests/fuzz43/fz43_gen.py SEED N [--show 40]

Prints each disagreeing call and the counts. Not a test (no known list): a probe for classes the project's
generators do not draw. Deterministic: the calls come from random.Random(SEED).
"""
from __future__ import annotations

import argparse
import os
import pickle
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# inputs: (text, kind) with kind f (float), i (int), b (bool), s (string), c (complex)
_FLOATS = ["[1.0, -2.5, 0.5]", "[[0.0, -0.0], [float('nan'), float('inf')]]", "[-float('inf'), 1e-40, 3e38]",
           "[[1.5, 2.0, -3.0], [4.0, 0.25, 7.0]]", "[]", "[[]]", "2.5", "-0.0", "float('nan')",
           "np.array([1.0, 2.0], np.float64)", "np.array([[1.0, 0.5], [0.25, 2.0]], np.float16)",
           "tf.constant([1.0, -1.0], tf.bfloat16)", "tf.constant([[2.0, 1.0], [1.0, 3.0]])",
           "tf.constant([5e-324, -1e308, 1.0], tf.float64)", "tf.zeros([2, 0])", "tf.ones([1, 2, 2, 1])",
           "tf.constant([[[[1.0], [2.0]], [[3.0], [4.0]]]])", "tf.Variable([0.5, -0.5])"]
_INTS = ["[1, -2, 3]", "[[0, 1], [2, 3]]", "2", "-1", "0", "[2147483647, -2147483648]",
         "np.array([9223372036854775807, -1], np.int64)", "np.array([255, 0], np.uint8)", "tf.constant([3, 1, 2])",
         "np.array([1, 2], np.int16)", "tf.constant([[1, 2], [3, 4]], tf.int64)", "[]", "True", "[True, False]"]
_STRS = ["['a', 'bc', '']", "'hello'", "[['x', 'y'], ['z', '']]", "tf.constant(['1.5', 'nan', '-3'])", "b'\\xc3\\xa9t'",
         "['AbC', ' x y ']"]
_CPLX = ["[1+2j, -0.5j]", "tf.constant([1+1j, float('nan')], tf.complex64)", "np.array([[1j, 2], [3, -1j]])"]
_ANY = _FLOATS + _INTS + _CPLX

# functions: (call template, argument pools); {0}, {1} ... are the arguments
_FNS = [
    ("tf.math.{f}({0})", ["abs", "negative", "sign", "square", "sqrt", "rsqrt", "exp", "expm1", "log", "log1p",
                          "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "asinh", "acosh",
                          "atanh", "floor", "ceil", "round", "rint", "reciprocal", "sigmoid", "softplus", "erf",
                          "erfc", "erfinv", "lgamma", "digamma", "is_nan", "is_inf", "is_finite", "logical_not",
                          "reduce_sum", "reduce_prod", "reduce_max", "reduce_min", "reduce_mean", "reduce_std",
                          "reduce_variance", "reduce_logsumexp", "reduce_any", "reduce_all", "reduce_euclidean_norm",
                          "cumsum", "cumprod", "argmax", "argmin", "count_nonzero", "bessel_i0e", "bessel_i1e",
                          "log_sigmoid", "softsign", "ndtri", "invert_permutation", "top_k", "bincount",
                          "real", "imag", "angle", "conj", "l2_normalize", "xlog1py", "cumulative_logsumexp"], [_ANY]),
    ("tf.math.{f}({0}, {1})", ["add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "pow",
                               "maximum", "minimum", "squared_difference", "atan2", "xlogy", "xdivy", "divide_no_nan",
                               "multiply_no_nan", "equal", "not_equal", "less", "greater_equal", "logical_and",
                               "igamma", "igammac", "zeta", "polygamma", "nextafter",
                               "truncatediv", "truncatemod", "unsorted_segment_sum", "segment_sum", "in_top_k",
                               "scalar_mul"], [_ANY, _ANY]),
    ("tf.nn.{f}({0})", ["relu", "relu6", "elu", "selu", "gelu", "silu", "leaky_relu", "softmax", "log_softmax",
                        "crelu", "l2_loss", "l2_normalize", "zero_fraction",
                        "sigmoid", "tanh", "softplus", "softsign"], [_ANY]),
    ("tf.nn.{f}({0}, {1})", ["bias_add", "softmax_cross_entropy_with_logits", "sigmoid_cross_entropy_with_logits",
                             "moments", "l2_normalize",
                             "log_poisson_loss"], [_ANY, _ANY]),
    ("tf.linalg.{f}({0})", ["det", "inv", "trace", "diag", "diag_part", "matrix_transpose", "adjoint", "cholesky",
                            "eigvalsh", "svd", "qr", "logdet", "slogdet", "pinv", "matrix_rank", "norm", "expm",
                            "lu", "tensor_diag_part"],
     [_ANY]),
    ("tf.linalg.{f}({0}, {1})", ["matmul", "matvec", "solve", "cross", "lstsq",
                                 "triangular_solve", "cholesky_solve", "set_diag", "cross"], [_ANY, _ANY]),
    ("tf.signal.{f}({0})", ["fft", "ifft", "rfft", "irfft", "fft2d", "rfft2d", "fftshift", "ifftshift", "dct", "idct",
                            "hann_window", "hamming_window", "vorbis_window", "kaiser_window"], [_ANY]),
    ("tf.signal.{f}({0}, {1}, {2})", ["frame", "frame"], [_ANY, _INTS, _INTS]),
    ("tf.image.{f}({0})", ["flip_left_right", "flip_up_down", "rot90", "transpose", "rgb_to_grayscale",
                           "grayscale_to_rgb", "rgb_to_hsv", "hsv_to_rgb", "rgb_to_yiq", "per_image_standardization",
                           "image_gradients", "sobel_edges", "total_variation", "adjust_gamma", "flip_left_right"], [_ANY]),
    ("tf.image.{f}({0}, {1})", ["adjust_brightness", "adjust_contrast", "adjust_saturation", "adjust_hue",
                                "adjust_gamma", "central_crop", "resize", "convert_image_dtype", "rot90"],
     [_ANY, _ANY]),
    ("tf.strings.{f}({0})", ["length", "upper", "lower", "strip", "to_number", "reduce_join", "bytes_split", "strip"], [_ANY + _STRS]),
    ("tf.strings.{f}({0}, {1})", ["join", "split", "regex_full_match", "to_hash_bucket_fast",
                                  "reduce_join", "length"], [_STRS + _ANY, _STRS + _INTS]),
    ("tf.strings.as_string({0})", [""], [_ANY]),
    ("tf.{f}({0}, {1})", ["reshape", "tile", "reverse", "transpose", "expand_dims", "squeeze", "gather", "concat",
                          "stack", "split", "fill", "one_hot", "broadcast_to", "pad", "repeat",
                          "where", "searchsorted"], [_ANY, _INTS + _FLOATS[:9]]),
    ("tf.{f}({0})", ["constant", "convert_to_tensor", "zeros_like", "ones_like", "shape", "size", "rank", "unique",
                     "sort", "argsort", "zeros", "ones", "range", "identity", "stop_gradient", "unstack",
                     "stack", "meshgrid", "norm", "unique_with_counts"], [_ANY + _STRS]),
]


def programs(seed: int, n: int) -> list[tuple[str, str]]:
    """n (call text, mode) pairs, mode "eager" or "function"."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        tmpl, names, pools = rng.choice(_FNS)
        f = rng.choice(names)
        args = [rng.choice(p) for p in pools]
        out.append((tmpl.format(*args, f=f), rng.choice(("eager", "eager", "function"))))
    return out


def _outcome(tf, np, value):  # noqa: ANN001
    if isinstance(value, (list, tuple)):
        return ("seq", tuple(_outcome(tf, np, v) for v in value))
    if hasattr(value, "_fields") and isinstance(value, tuple):
        return ("seq", tuple(_outcome(tf, np, v) for v in value))
    if hasattr(value, "numpy") and hasattr(value, "dtype"):
        a = np.asarray(value.numpy())
        raw = a.tobytes() if a.dtype != object else repr(a.tolist()).encode()
        if a.dtype.kind in "fc":
            nan = np.isnan(a)
            a2 = np.where(nan, np.zeros_like(a), a)
            raw = a2.tobytes() + nan.tobytes()
        return ("T", value.dtype.name, tuple(a.shape), raw)
    return ("py", type(value).__name__, repr(value)[:200])


def worker(backend: str, calls: list[tuple[str, str]]) -> list:
    import numpy as np
    if backend == "tf":
        import tensorflow as tf
    else:
        from simdist import tf
    tf.constant(1.0) + 1.0
    results = []
    for text, mode in calls:
        try:
            if mode == "eager":
                v = eval(text, {"tf": tf, "np": np})  # noqa: S307 - our own text
            else:
                v = tf.function(lambda: eval(text, {"tf": tf, "np": np}), autograph=False)()  # noqa: S307
            results.append(("ok", _outcome(tf, np, v)))
        except Exception as e:  # noqa: BLE001 - the class is the answer
            results.append(("err", type(e).__name__, str(e)[:160]))
    return results


def _run(backend: str, seed: int, n: int) -> list:
    env = dict(os.environ, PYTHONPATH=ROOT, TF_CPP_MIN_LOG_LEVEL="3")
    out = subprocess.run([sys.executable, __file__, "--worker", backend, str(seed), str(n)], capture_output=True,
                         env=env, timeout=3000)
    if out.returncode:
        raise RuntimeError(out.stderr.decode()[-3000:])
    return pickle.loads(out.stdout)


def main() -> int:
    if sys.argv[1] == "--worker":
        backend, seed, n = sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
        res = worker(backend, programs(seed, n))
        sys.stdout.flush()
        os.write(1, pickle.dumps(res))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=40)
    a = ap.parse_args()
    calls = programs(a.seed, a.n)
    want = _run("tf", a.seed, a.n)
    got = _run("simdist", a.seed, a.n)
    bad = []
    for (text, mode), w, g in zip(calls, want, got):
        same = (w[0] == g[0] == "err" and w[1] == g[1]) or (w[0] == g[0] == "ok" and w[1] == g[1])
        if not same:
            bad.append((text, mode, w, g))
    for text, mode, w, g in bad[:a.show]:
        print(f"DISAGREE [{mode}] {text}\n  TF 2.21: {str(w)[:300]}\n  simdist: {str(g)[:300]}")
    print(f"CALLS {a.n} DISAGREEMENTS {len(bad)}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
