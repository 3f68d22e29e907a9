"""A third differential generator (fz61), other op mixes than fz54b/fz55b: Keras layers' call paths (weights set from
seeded arrays), tf.linalg, tf.signal, tf.image, ragged tensors and string ops, as a person chains them. TF and simdist
each run the programs in their own process (fz45_gen's harness: worker_of / run_backend), outcomes compared bitwise
(fz45_gen._outcome: a tensor's dtype, shape and bytes, NaNs by position; errors by class).

Two modes: eager (every statement's outcome) and tf.function (the statements that do not build Keras layers, traced
once over the inputs as arguments, skipping those that raised eagerly; every value).

    python tests/fuzz61/fz61_gen.py SEED N [--show 20] [--calls 24] [--print]

Not a test by itself: tests/fuzz61/test_fz61_slice_tf.py runs a bounded slice under the slow marker. Deterministic:
random.Random(SEED * 100003 + k); inputs from np.random.RandomState arithmetic only.
"""
from __future__ import annotations

import argparse
import os
import random
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "fuzz45"))

import fz45_gen as G  # noqa: E402 - the harness only

_ACTS = ["relu", "tanh", "gelu", "silu", "elu", "softplus", "sigmoid", "selu", "softsign", None]
_WORDS = ["alpha", "Beta", "gamma", "DELTA", "e", "zeta-eta", "th eta", "12", "3.5", "-7", "", "naïve", "ß", "x_y"]


def _arr(rng: random.Random, shape: list, lo: float = -2.0, hi: float = 2.0, step: int = 64) -> str:
    """A float32 array's text: seeded RandomState values rounded to 1/step (exact in float32)."""
    seed = rng.randrange(10 ** 6)
    return f"np.round(np.random.RandomState({seed}).uniform({lo}, {hi}, {shape}) * {step}) / {float(step)}"


def _inputs(rng: random.Random) -> tuple[list, int]:
    b, t, f = rng.choice([1, 2, 3]), rng.choice([3, 5, 8]), rng.choice([2, 4, 6])
    m = rng.choice([3, 4, 5])
    n = rng.choice([32, 48, 64])
    h = rng.choice([6, 8, 10])
    lens = [rng.randrange(0, 4) for _ in range(rng.choice([2, 3, 4]))]
    words = [rng.choice(_WORDS) + (" " + rng.choice(_WORDS) if rng.random() < 0.5 else "") for _ in range(rng.choice([3, 4, 5]))]
    return [
        ("x3", f"tf.constant(({_arr(rng, [b, t, f])}).astype(np.float32))"),
        ("x2", f"tf.constant(({_arr(rng, [m, m])}).astype(np.float32))"),
        ("v", f"tf.constant(({_arr(rng, [m])}).astype(np.float32))"),
        ("d2", f"tf.constant(({_arr(rng, [m, m])}).astype(np.float64))"),
        ("sig", f"tf.constant(({_arr(rng, [b, n], -1.0, 1.0, 256)}).astype(np.float32))"),
        ("img", f"tf.constant(({_arr(rng, [b, h, h, 3], 0.0, 1.0, 256)}).astype(np.float32))"),
        ("rt", f"tf.RaggedTensor.from_row_lengths(tf.constant(({_arr(rng, [sum(lens)])}).astype(np.float32)), "
               f"tf.constant({lens}, tf.int64))"),
        ("s", f"tf.constant({words!r})"),
    ], f


def _w(rng: random.Random, shape: list) -> str:
    return f"({_arr(rng, shape, -1.0, 1.0, 32)}).astype(np.float32)"


def _keras(rng: random.Random, f: int) -> tuple[str, str]:
    """A Keras layer built and given seeded weights, called on x3 [b, t, f]: (layer text, call text)."""
    k = rng.randrange(9)
    u = rng.choice([1, 3, 4])
    if k == 0:
        act = rng.choice(_ACTS)
        return (f"keras.layers.Dense({u}, activation={act!r})", f"[{_w(rng, [f, u])}, {_w(rng, [u])}]")
    if k == 1:
        ks, pad, st = rng.choice([1, 2, 3]), rng.choice(["valid", "same", "causal"]), rng.choice([1, 1, 2])
        st = 1 if pad == "causal" else st
        return (f"keras.layers.Conv1D({u}, {ks}, strides={st}, padding={pad!r})",
                f"[{_w(rng, [ks, f, u])}, {_w(rng, [u])}]")
    if k == 2:
        return (f"keras.layers.LayerNormalization(epsilon={rng.choice([1e-3, 1e-6])})", f"[{_w(rng, [f])}, {_w(rng, [f])}]")
    if k == 3:
        return ("keras.layers.BatchNormalization()",
                f"[{_w(rng, [f])}, {_w(rng, [f])}, {_w(rng, [f])}, np.abs({_w(rng, [f])}) + 0.5]")
    if k == 4:
        return (f"keras.layers.GRU({u}, return_sequences={rng.random() < 0.5})",
                f"[{_w(rng, [f, 3 * u])}, {_w(rng, [u, 3 * u])}, {_w(rng, [2, 3 * u])}]")
    if k == 5:
        return (f"keras.layers.LSTM({u}, return_sequences={rng.random() < 0.5})",
                f"[{_w(rng, [f, 4 * u])}, {_w(rng, [u, 4 * u])}, {_w(rng, [4 * u])}]")
    if k == 6:
        return (f"keras.layers.SimpleRNN({u}, activation={rng.choice(['tanh', 'relu'])!r})",
                f"[{_w(rng, [f, u])}, {_w(rng, [u, u])}, {_w(rng, [u])}]")
    if k == 7:
        return (f"keras.layers.MultiHeadAttention(num_heads=2, key_dim=2)", "None")
    return (f"keras.layers.Activation({rng.choice(_ACTS[:-1])!r})", "None")


def _statement(rng: random.Random) -> tuple[str, bool]:
    """One call's text (an expression) and whether it runs inside tf.function too."""
    k = rng.randrange(6)
    if k == 0:
        return "", False   # (Keras: built by the caller)
    if k == 1:   # tf.linalg
        spd = "(tf.matmul(x2, x2, transpose_b=True) + 3.0 * tf.eye(tf.shape(x2)[0]))"
        return rng.choice([
            "tf.linalg.matmul(x2, x2, transpose_a=True)", "tf.linalg.matvec(x2, v)", f"tf.linalg.cholesky({spd})",
            f"tf.linalg.solve({spd}, x2)", f"tf.linalg.inv({spd})", f"tf.linalg.logdet({spd})",
            "tf.linalg.triangular_solve(tf.linalg.band_part(x2, -1, 0) + 4.0 * tf.eye(tf.shape(x2)[0]), x2, lower=True)",
            "tf.linalg.band_part(x2, 1, 0)", "tf.linalg.diag_part(x2)", "tf.linalg.trace(x2)",
            "tf.linalg.norm(x2, ord='fro', axis=[-2, -1])", "tf.linalg.norm(v, ord=1)", "tf.linalg.l2_normalize(x2, axis=1)",
            "tf.linalg.det(d2)", "tf.linalg.cross(x2[:, :3], x2[:, -3:])",
            "tf.linalg.matmul(d2, d2)", "tf.linalg.set_diag(x2, v)", "tf.linalg.tensor_diag_part(x2)",
            "tf.linalg.lu_solve(*tf.linalg.lu(" + spd + "), x2)", "tf.linalg.global_norm([x2, v])",
            "tf.linalg.expm(x2 * 0.25)", "tf.linalg.normalize(v)[0]", "tf.einsum('ij,jk->ik', x2, x2)",
        ]), True
    if k == 2:   # tf.signal
        return rng.choice([
            "tf.signal.rfft(sig)", "tf.math.real(tf.signal.irfft(tf.signal.rfft(sig)))",
            "tf.abs(tf.signal.stft(sig, frame_length=16, frame_step=8))",
            "tf.signal.stft(sig, frame_length=16, frame_step=4, fft_length=32, pad_end=True)",
            "tf.signal.frame(sig, 8, 4)", "tf.signal.frame(sig, 10, 3, pad_end=True, pad_value=0.5)",
            "tf.signal.hann_window(12)", "tf.signal.hamming_window(9, periodic=False)",
            "tf.signal.dct(sig, type=2)", "tf.signal.dct(sig, type=2, norm='ortho')", "tf.signal.idct(sig, type=2)",
            "tf.signal.fft(tf.complex(sig, sig * 0.5))", "tf.signal.ifft(tf.complex(sig, -sig))",
            "tf.signal.overlap_and_add(tf.signal.frame(sig, 8, 4), 4)",
            "tf.signal.linear_to_mel_weight_matrix(8, 17, 16000, 20.0, 4000.0)",
            "tf.signal.mfccs_from_log_mel_spectrograms(tf.math.log(tf.abs(tf.signal.stft(sig, 16, 8)) + 1e-3))",
            "tf.signal.inverse_stft(tf.signal.stft(sig, 16, 8), 16, 8)",
        ]), True
    if k == 3:   # tf.image
        sz = rng.choice(["[5, 7]", "[12, 12]", "[3, 9]"])
        return rng.choice([
            f"tf.image.resize(img, {sz})", f"tf.image.resize(img, {sz}, method='nearest')",
            f"tf.image.resize(img, {sz}, method='bicubic')", f"tf.image.resize(img, {sz}, method='area')",
            f"tf.image.resize(img, {sz}, method='lanczos3', antialias=True)",
            f"tf.image.resize(img, {sz}, antialias=True)",
            "tf.image.flip_left_right(img)", "tf.image.rot90(img, k=3)", "tf.image.transpose(img)",
            "tf.image.adjust_brightness(img, 0.2)", "tf.image.adjust_contrast(img, 1.7)",
            "tf.image.adjust_saturation(img, 0.4)", "tf.image.adjust_hue(img, 0.15)", "tf.image.adjust_gamma(img, 1.8)",
            "tf.image.rgb_to_hsv(img)", "tf.image.hsv_to_rgb(img)", "tf.image.rgb_to_grayscale(img)",
            "tf.image.rgb_to_yuv(img)", "tf.image.sobel_edges(img)", "tf.image.central_crop(img, 0.5)",
            "tf.image.per_image_standardization(img)", "tf.image.total_variation(img)",
            "tf.image.psnr(img, tf.image.flip_up_down(img), 1.0)", "tf.image.image_gradients(img)[0]",
            "tf.image.crop_and_resize(img, [[0.1, 0.2, 0.8, 0.9]], [0], [4, 5])",
            "tf.image.pad_to_bounding_box(img, 1, 2, 12, 13)", "tf.image.resize_with_crop_or_pad(img, 5, 11)",
            "tf.image.extract_patches(img, [1, 3, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1], 'VALID')",
            "tf.image.ssim(img, tf.image.adjust_brightness(img, 0.1), 1.0, filter_size=3)",
        ]), True
    if k == 4:   # ragged
        return rng.choice([
            "tf.reduce_sum(rt, axis=1)", "tf.reduce_mean(rt, axis=1)", "tf.reduce_max(rt, axis=1)",
            "tf.ragged.map_flat_values(tf.math.sin, rt).to_tensor(default_value=-1.0)", "rt.to_tensor()",
            "rt.row_splits", "rt.nested_row_lengths()[0]", "tf.concat([rt, rt * 2.0], axis=1).to_tensor()",
            "tf.ragged.boolean_mask(rt, rt > 0.0).to_tensor()", "tf.ragged.range(tf.constant([0, 2, 1]), 5).to_tensor()",
            "tf.math.cumsum(rt.to_tensor(), axis=1)", "(rt + 1.0).flat_values", "tf.reduce_min(rt, axis=1)",
            "rt.bounding_shape()", "tf.gather(rt, [1, 0]).to_tensor()", "tf.stack([rt, rt], axis=1).to_tensor()",
        ]), True
    return rng.choice([   # strings
        "tf.strings.split(s).to_tensor()", "tf.strings.lower(s)", "tf.strings.upper(s)", "tf.strings.length(s)",
        "tf.strings.length(s, unit='UTF8_CHAR')", "tf.strings.regex_replace(s, '[aeiou]', '#')",
        "tf.strings.join([s, s], separator='|')", "tf.strings.reduce_join(s, separator=',')",
        "tf.strings.substr(s, 1, 3)", "tf.strings.to_hash_bucket_fast(s, 7)", "tf.strings.strip(s)",
        "tf.strings.unicode_decode(s, 'UTF-8').to_tensor()", "tf.strings.to_number(tf.constant(['1.5', '-2', '3e2']))",
        "tf.strings.as_string(v, precision=3)", "tf.strings.regex_full_match(s, '[a-z]+')",
        "tf.strings.split(s, sep='e').to_tensor(default_value='?')", "tf.strings.bytes_split(s).to_tensor()",
        "tf.strings.format('{} and {}', [tf.strings.length(s), v])", "tf.strings.unicode_script(tf.constant([65, 945]))",
        "tf.strings.ngrams(tf.strings.split(s), 2).to_tensor()",
    ]), True


def program(seed: int, k: int, calls: int = 24) -> dict:
    rng = random.Random(seed * 100003 + k)
    inputs, f = _inputs(rng)
    lines: list = []
    for i in range(calls):
        text, traced = _statement(rng)
        if not text:
            layer, weights = _keras(rng, f)
            if "MultiHeadAttention" in layer:
                text = f"_k(keras, {layer}, None, x3, x3)"
            else:
                text = f"_k(keras, {layer}, {weights}, x3)"
            traced = False
        lines.append((f"v{i} = _c(lambda: {text})", [f"v{i}"], traced))
    return {"inputs": inputs, "lines": lines}


def text_of(prog: dict) -> str:
    return "\n".join([f"{n} = {t}" for n, t in prog["inputs"]] + [st for st, _, _ in prog["lines"]])


class Err:
    def __init__(self, cls: str) -> None:
        self.cls = cls


def _helpers(tf: Any, np: Any) -> dict:
    def _c(f: Any) -> Any:
        try:
            return f()
        except Exception as e:  # noqa: BLE001 - the class is the answer
            return Err(type(e).__name__)

    def _k(keras: Any, layer: Any, weights: Any, *xs: Any) -> Any:
        if weights is None and not isinstance(layer, keras.layers.MultiHeadAttention):
            return layer(*xs)
        layer(*xs)   # (built on the input)
        if weights is not None:
            layer.set_weights(weights)
        else:   # (MultiHeadAttention: its weights from a seeded RandomState, in its own order)
            r = np.random.RandomState(7)
            layer.set_weights([np.round(r.uniform(-1, 1, w.shape) * 32).astype(np.float32) / 32
                               for w in layer.get_weights()])
        return layer(*xs)
    return {"_c": _c, "_k": _k}


def _outcome(tf: Any, np: Any, v: Any) -> Any:
    if isinstance(v, Err):
        return ("err", v.cls, "-")   # (compared by class: fz45_gen._same)
    if type(v).__name__ == "RaggedTensor":
        return ("ragged", _outcome(tf, np, v.flat_values), _outcome(tf, np, v.row_splits))
    if hasattr(v, "dtype") and getattr(v.dtype, "name", "") == "string":   # (the bytes, not object pointers)
        return ("S", tuple(v.shape), repr(np.asarray(v.numpy()).tolist()))
    return G._outcome(tf, np, v)


def run_program(tf: Any, np: Any, prog: dict, strategy: Any) -> dict:  # noqa: ARG001 - the harness's signature
    if tf.__name__.startswith("simdist"):
        from simdist import keras
    else:
        import keras
    base = {"tf": tf, "np": np, "keras": keras, **_helpers(tf, np)}
    env = dict(base)
    for n, t in prog["inputs"]:
        env[n] = eval(t, env)  # noqa: S307 - our own text
    out: dict = {}
    rec = []
    for st, names, _ in prog["lines"]:
        exec(st, env)  # noqa: S102 - our own text
        rec.append((st, tuple(_outcome(tf, np, env[n]) for n in names)))
    out["eager"] = rec
    traced = [(st, names) for (st, names, t), (_, o) in zip(prog["lines"], rec) if t and o[0][0] != "err"]
    names_in = [n for n, _ in prog["inputs"]]

    def f(d: dict) -> dict:
        e = dict(base, **d)
        for st, _ in traced:
            exec(st, e)  # noqa: S102 - our own text
        return {n: e[n] for _, ns in traced for n in ns if not isinstance(e[n], Err)}
    try:
        r = tf.function(f, autograph=False)({n: env[n] for n in names_in})
        out["function"] = sorted((k, _outcome(tf, np, v)) for k, v in r.items())
    except Exception as e:  # noqa: BLE001
        out["function"] = ("err", type(e).__name__)
    return out


G.run_program = run_program   # the harness's worker runs this generator's modes


def _diffs(prog: dict, w: dict, g: dict) -> list:
    out = []
    if "all" in w or "all" in g:
        return [("all", "", f"TF {w.get('all')!r:.200} sd {g.get('all')!r:.200}")] if w != g else []
    for (st, a), (_, b) in zip(w["eager"], g["eager"]):
        if not G._same(a, b):
            out.append(("eager", st, f"TF {a!r:.300}\n      sd {b!r:.300}"))
    if w["function"] != g["function"]:
        wf = dict(w["function"]) if isinstance(w["function"], list) else {}
        gf = dict(g["function"]) if isinstance(g["function"], list) else {}
        if not wf or not gf:
            out.append(("function", "", f"TF {w['function']!r:.300} sd {g['function']!r:.300}"))
        for k in sorted(set(wf) | set(gf)):
            if wf.get(k) != gf.get(k):
                st = next((s for s, ns, _ in prog["lines"] if k in ns), k)
                out.append(("function", st, f"TF {wf.get(k)!r:.300}\n      sd {gf.get(k)!r:.300}"))
    return out


def compare(seed: int, n: int, calls: int, show: int = 20, log: Any = print) -> tuple[int, int]:
    """Programs 0..n-1 of `seed` on TF and on simdist: (disagreeing programs, calls), each printed."""
    want = G.run_backend(__file__, "tf", seed, n, calls)
    got = G.run_backend(__file__, "simdist", seed, n, calls)
    bad = 0
    for k, (w, g) in enumerate(zip(want, got)):
        if "crash" in w:
            continue
        ds = _diffs(program(seed, k, calls), w, g)
        if ds:
            bad += 1
            log(f"=== program {k}: {len(ds)} differing outcomes")
            for m, st, detail in ds[:show]:
                log(f"  [{m}] {st}\n      {detail}")
    return bad, n * calls


def main() -> int:
    if sys.argv[1] == "--worker":
        G.worker_of(program, sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]),
                    sys.argv[7])
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("seed", type=int)
    ap.add_argument("n", type=int)
    ap.add_argument("--show", type=int, default=20)
    ap.add_argument("--calls", type=int, default=24)
    ap.add_argument("--print", action="store_true")
    a = ap.parse_args()
    if a.print:
        for k in range(a.n):
            print(f"# program {k}\n{text_of(program(a.seed, k, a.calls))}\n")
        return 0
    bad, calls = compare(a.seed, a.n, a.calls, a.show)
    print(f"PROGRAMS {a.n} CALLS {calls} DISAGREEING PROGRAMS {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
