"""Random functions' arguments at their edges (issue 29, rargs): every public sampling function of tf.random,
tf.random.experimental, tf.image's random ops, tf.random.Generator's methods, dropout, tf.experimental.numpy.random
and keras.random, each argument set to values that pick another branch of its algorithm, one at a time, eagerly
and inside a tf.function, called once and twice.

A planted bug in a sampler hides in the regime only some parameters reach: the binomial above p = 1/2 or with
count · p past BTRS's threshold, the gamma below alpha = 1, the Poisson's large-rate algorithm, a truncated normal's
one-sided or narrow interval, a candidate sampler with num_sampled == range_max, an index shuffle's small or large
max_index, a seed of another dtype, an algorithm named by number. TF's random streams are deterministic given the
seeds (stateless ops; the stateful ones after tf.random.set_seed, which the case sets first), so TF 2.21's values
are recorded (rargs_reference) and compared; a case whose two observations on TF differ is left out.

Arguments are JSON: {"dtype": NAME} is tf.NAME, {"t": VALUE, "dtype": NAME} is tf.constant(VALUE, tf.NAME),
{"seedgen": N} is keras.random.SeedGenerator(N). Nothing here imports TensorFlow.
"""

from __future__ import annotations

from typing import Any

import numpy as np

GLOBAL_SEED = 1234
SEED = [1, 2]
#: Edges every function taking the argument tries (beside its own list in FUNCS).
COMMON: dict[str, list[Any]] = {
    "shape": [[2, 3], [0], [], {"t": [3], "dtype": "int64"}, [-1]],
    "seed": [[0, 0], {"t": [7, -3], "dtype": "int64"}, {"t": [5, 6], "dtype": "int32"}, [1, 2, 3], 5],
    "alg": ["philox", "threefry", 1, 2, 3, "bogus"],
}
#: Edges for stateful ops' op-level seed (an int or None).
OP_SEED = [None, 0, 99, -5]
F = ["float16", "bfloat16", "float64"]

_X = {"t": [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]], "dtype": "float32"}
_V4 = {"t": [0.5, 1.0, 2.0, 4.0], "dtype": "float32"}
#: Seeds keras.random reduces (modulo the int32 maximum minus one) or refuses.
_KSEEDS = [{"seedgen": 3}, 0, 2 ** 31 - 1, 2 ** 31 - 2, 2 ** 40, -1, None]
#: function path -> (base keyword arguments, {argument: edge values}). Paths: attributes of tf ("random.NAME",
#: "image.NAME", "nn.NAME", "experimental.numpy.random.NAME"), "keras.random.NAME" (of tf.keras), "Generator.METHOD"
#: (a tf.random.Generator made by from_seed(GLOBAL_SEED)), "Generator:ALG.METHOD" (made with that algorithm),
#: "Generator.STEP.METHOD" (after split, skip(10), skip(-3) or a refused draw of shape [2, -3]).
FUNCS: dict[str, tuple[dict[str, Any], dict[str, list[Any]]]] = {
    # -- stateless samplers ------------------------------------------------------------------------------------
    "random.stateless_uniform": ({"shape": [4], "seed": SEED}, {
        "minval": [-3.0, 2.0, {"t": [0.0, 10.0, 100.0, 1000.0], "dtype": "float32"}],
        "maxval": [0.5, -1.0, 1e30],
        "dtype": [{"dtype": d} for d in F + ["int32", "int64", "uint32", "uint64", "int8"]]}),
    "random.stateless_uniform:int": ({"shape": [5], "seed": SEED, "minval": -7, "maxval": 9, "dtype": {"dtype": "int32"}}, {
        "minval": [9, 10, -2 ** 31], "maxval": [None, -7, 2 ** 31 - 1],
        "dtype": [{"dtype": "int64"}, {"dtype": "uint32"}, {"dtype": "uint64"}]}),
    "random.stateless_uniform:full": ({"shape": [3], "seed": SEED, "minval": None, "maxval": None,
                                       "dtype": {"dtype": "int64"}},
                                      {"dtype": [{"dtype": d} for d in ("int32", "uint32", "uint64", "float32")]}),
    "random.stateless_normal": ({"shape": [4], "seed": SEED}, {
        "mean": [3.0, {"t": [0.0, 1.0, 2.0, 3.0], "dtype": "float32"}], "stddev": [0.0, -2.0, 1e-20],
        "dtype": [{"dtype": d} for d in F + ["int32"]]}),
    "random.stateless_truncated_normal": ({"shape": [6], "seed": SEED}, {
        "mean": [-5.0], "stddev": [0.0, 3.0], "dtype": [{"dtype": d} for d in F + ["int32"]]}),
    "random.stateless_parameterized_truncated_normal": ({"shape": [5], "seed": SEED}, {
        "means": [1.0, {"t": [0.0, 1.0, 2.0, 3.0, 4.0], "dtype": "float32"}],
        "stddevs": [0.1, 5.0, 0.0, -1.0],
        "minvals": [1.5, 3.0, 10.0, -1e30, 1.9, 2.0, 2.5], "maxvals": [-1.5, -2.0, 1e30, 0.01, float("inf")]}),
    "random.stateless_gamma": ({"shape": [5], "seed": SEED, "alpha": 2.0}, {
        "alpha": [0.5, 1.0, 0.01, 30.0, 0.0, -1.0, {"t": [0.5, 3.0], "dtype": "float32"}],
        "beta": [2.0, 0.5, {"t": [1.0, 4.0], "dtype": "float32"}],
        "dtype": [{"dtype": d} for d in ("float16", "float64", "int32")],
        "shape": [[3, 2], [2, 5], [0]]}),
    "random.stateless_poisson": ({"shape": [6], "seed": SEED, "lam": 3.0}, {
        "lam": [0.5, 9.0, 10.0, 15.0, 200.0, 0.0, -1.0, {"t": [0.5, 40.0], "dtype": "float32"}],
        "dtype": [{"dtype": d} for d in ("int64", "float16", "float32", "float64", "uint8")],
        "shape": [[3, 2], [2, 6]]}),
    "random.stateless_binomial": ({"shape": [6], "seed": SEED, "counts": 10.0, "probs": 0.3}, {
        "counts": [0.0, 100.0, 1000.0, 40.0, -3.0, {"t": [[5.0], [500.0]], "dtype": "float32"}],
        "probs": [0.0, 1.0, 0.5, 0.7, 0.95, 0.05, 1.5, {"t": [0.2, 0.8], "dtype": "float32"}],
        "output_dtype": [{"dtype": d} for d in ("int64", "float32", "float64", "float16")],
        "shape": [[2, 3], [2, 6]]}),
    "random.stateless_binomial:large": ({"shape": [6], "seed": SEED, "counts": 200.0, "probs": 0.8}, {
        "probs": [0.3, 0.6, 0.999], "counts": [12.0, 25.0]}),
    "random.stateless_categorical": ({"logits": [[0.0, 1.0, 2.0], [-1.0, 0.0, 5.0]], "num_samples": 6,
                                      "seed": SEED}, {
        "num_samples": [0, 1, -1],
        "logits": [[[0.0, float("-inf"), 1.0]], [[1.0, 1.0, 1.0]], [[0.0]], [[float("-inf"), float("-inf")]],
                   [[1e30, 0.0, 1e30]]],
        "dtype": [{"dtype": "int32"}, {"dtype": "float32"}]}),
    "random.experimental.stateless_shuffle": ({"value": list(range(8)), "seed": SEED}, {
        "value": [[], [[1, 2], [3, 4], [5, 6]], {"t": [1.5, 2.5, 3.5], "dtype": "float64"}, 3]}),
    "random.experimental.index_shuffle": ({"index": 3, "seed": [1, 2, 3], "max_index": 9}, {
        "index": [0, 9, 10, {"t": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], "dtype": "int64"},
                  {"t": [0, 1, 2, 3], "dtype": "int32"}],
        "max_index": [0, 1, 2, 3, 4, 100, 2 ** 20, 2 ** 32],
        "seed": [[0, 0, 0], {"t": [4, 5, 6], "dtype": "int32"}, [1, 2]]}),
    "random.experimental.stateless_fold_in": ({"seed": SEED, "data": 7}, {"data": [0, -1, 2 ** 31 - 1, 2 ** 40]}),
    "random.experimental.stateless_split": ({"seed": SEED}, {"num": [0, 1, 3]}),
    "random.create_rng_state": ({"seed": 5, "alg": "philox"}, {
        "seed": [0, -1, 2 ** 40, [1, 2], [1, 2, 3, 4]], "alg": ["threefry", 1, 2]}),
    # -- stateful samplers (after tf.random.set_seed(GLOBAL_SEED)) ---------------------------------------------
    "random.uniform": ({"shape": [4]}, {
        "seed": OP_SEED, "minval": [-1.0], "maxval": [5.0],
        "dtype": [{"dtype": d} for d in F + ["int32", "int64"]]}),
    "random.uniform:int": ({"shape": [5], "minval": 2, "maxval": 12, "dtype": {"dtype": "int64"}}, {
        "seed": OP_SEED, "maxval": [None, 2, 3]}),
    # (an op seed in the base: after_base's second call has the same seeds, so only the kernel's attrs tell them apart)
    "random.uniform:seeded": ({"shape": [4], "seed": 99}, {"dtype": [{"dtype": d} for d in F + ["int32", "int64"]],
                                                          "maxval": [5.0], "shape": [[2, 2], [5]]}),
    # (a tensor mean and stddev together: TF's rnd * stddev + mean, in that order)
    "random.normal:moments": ({"shape": [4], "mean": _V4, "stddev": _V4, "seed": 99}, {
        "dtype": [{"dtype": "float64"}]}),
    "random.truncated_normal:moments": ({"shape": [4], "mean": _V4, "stddev": _V4, "seed": 99}, {}),
    "random.normal:seeded": ({"shape": [4], "seed": 99}, {"dtype": [{"dtype": d} for d in F], "mean": [1.0]}),
    "random.normal": ({"shape": [4]}, {"seed": OP_SEED, "mean": [2.0, _V4], "stddev": [0.0, 3.0, _V4],
                                       "dtype": [{"dtype": d} for d in F]}),
    "random.truncated_normal": ({"shape": [4]}, {"seed": OP_SEED, "mean": [-3.0, _V4], "stddev": [2.0, _V4],
                                                 "dtype": [{"dtype": d} for d in F]}),
    "random.gamma": ({"shape": [4], "alpha": 2.0}, {
        "seed": OP_SEED, "alpha": [0.3, 1.0, {"t": [0.5, 5.0], "dtype": "float32"}], "beta": [3.0],
        "dtype": [{"dtype": d} for d in ("float16", "float64")]}),
    "random.poisson": ({"shape": [4], "lam": 4.0}, {
        "seed": OP_SEED, "lam": [0.5, 12.0, {"t": [1.0, 50.0], "dtype": "float32"}],
        "dtype": [{"dtype": d} for d in ("int32", "int64", "float64")]}),
    "random.categorical": ({"logits": [[0.0, 1.0, 2.0]], "num_samples": 5}, {
        "seed": OP_SEED, "num_samples": [0], "dtype": [{"dtype": "int32"}]}),
    "random.shuffle": ({"value": list(range(6))}, {"seed": OP_SEED, "value": [[[1, 2], [3, 4], [5, 6]]]}),
    "random.uniform_candidate_sampler": ({"true_classes": {"t": [[1, 2], [3, 4]], "dtype": "int64"}, "num_true": 2,
                                          "num_sampled": 4, "unique": True, "range_max": 10}, {
        "seed": OP_SEED, "unique": [False], "num_sampled": [10, 11, 0, 1], "range_max": [4, 1]}),
    "random.log_uniform_candidate_sampler": ({"true_classes": {"t": [[1, 2], [3, 4]], "dtype": "int64"},
                                              "num_true": 2, "num_sampled": 4, "unique": True, "range_max": 10}, {
        "seed": OP_SEED, "unique": [False], "num_sampled": [10, 0], "range_max": [5, 1000]}),
    "random.learned_unigram_candidate_sampler": ({"true_classes": {"t": [[1, 2], [3, 4]], "dtype": "int64"},
                                                  "num_true": 2, "num_sampled": 4, "unique": True, "range_max": 10}, {
        "seed": OP_SEED, "unique": [False], "num_sampled": [10]}),
    "random.fixed_unigram_candidate_sampler": ({"true_classes": {"t": [[1, 2], [3, 4]], "dtype": "int64"},
                                                "num_true": 2, "num_sampled": 4, "unique": True, "range_max": 5,
                                                "unigrams": [1.0, 2.0, 3.0, 4.0, 5.0]}, {
        "seed": OP_SEED, "unique": [False], "distortion": [0.5, 0.0], "num_reserved_ids": [1],
        "num_shards": [2], "shard": [1]}),
    "random.all_candidate_sampler": ({"true_classes": {"t": [[1, 2], [3, 4]], "dtype": "int64"}, "num_true": 2,
                                      "num_sampled": 4, "unique": True}, {"seed": OP_SEED, "num_sampled": [1, 0]}),
    # -- tf.image's random ops ---------------------------------------------------------------------------------
    "image.stateless_random_brightness": ({"image": "IMAGE", "max_delta": 0.3, "seed": SEED}, {
        "max_delta": [0.0, -0.1, 2.0], "image": ["IMAGE_U8"]}),
    "image.stateless_random_contrast": ({"image": "IMAGE", "lower": 0.2, "upper": 1.8, "seed": SEED}, {
        "lower": [1.8, -0.5, 2.0], "upper": [0.2], "image": ["IMAGE_U8"]}),
    "image.stateless_random_hue": ({"image": "IMAGE", "max_delta": 0.3, "seed": SEED}, {
        "max_delta": [0.0, 0.5, 0.6, -0.1], "image": ["IMAGE_U8"]}),
    "image.stateless_random_saturation": ({"image": "IMAGE", "lower": 0.2, "upper": 1.8, "seed": SEED}, {
        "lower": [1.8, -0.5, 2.0], "upper": [0.2], "image": ["IMAGE_U8"]}),
    "image.stateless_random_flip_left_right": ({"image": "BATCH", "seed": SEED}, {"image": ["IMAGE", "BATCH5"]}),
    "image.stateless_random_flip_up_down": ({"image": "BATCH", "seed": SEED}, {"image": ["IMAGE", "BATCH5"]}),
    "image.stateless_random_crop": ({"value": "IMAGE", "size": [2, 2, 3], "seed": SEED}, {
        "size": [[4, 4, 3], [1, 1, 1], [5, 4, 3], [4, 1, 3]]}),
    "image.stateless_random_jpeg_quality": ({"image": "IMAGE", "min_jpeg_quality": 40, "max_jpeg_quality": 90,
                                             "seed": SEED}, {"min_jpeg_quality": [90, -1], "max_jpeg_quality": [101]}),
    "image.stateless_sample_distorted_bounding_box": ({"image_size": [10, 12, 3],
                                                       "bounding_boxes": [[[0.1, 0.2, 0.6, 0.9]]], "seed": SEED}, {
        "min_object_covered": [0.0, 1.0, 0.9], "aspect_ratio_range": [[0.5, 0.5], [2.0, 3.0]],
        "area_range": [[0.9, 1.0], [0.01, 0.05]], "max_attempts": [1],
        "use_image_if_no_bounding_boxes": [True]}),
    "image.random_brightness": ({"image": "IMAGE", "max_delta": 0.3}, {"seed": OP_SEED}),
    "image.random_hue": ({"image": "IMAGE", "max_delta": 0.3}, {"seed": OP_SEED, "max_delta": [0.5, 0.51]}),
    "image.random_crop": ({"value": "IMAGE", "size": [2, 3, 3]}, {"seed": OP_SEED, "size": [[4, 4, 3]]}),
    "image.random_flip_left_right": ({"image": "BATCH"}, {"seed": OP_SEED}),
    "image.random_saturation": ({"image": "IMAGE", "lower": 0.2, "upper": 1.8}, {"seed": OP_SEED}),
    # (seed None or 0 is (0, 0) to its kernel: seeded from the OS, not determined; image_ops_impl "if seed else")
    "image.sample_distorted_bounding_box": ({"image_size": [10, 12, 3], "bounding_boxes": [[[0.1, 0.2, 0.6, 0.9]]],
                                             "seed": 99}, {
        "seed": [-5, 7], "min_object_covered": [0.0, 1.0], "area_range": [[0.9, 1.0]],
        "aspect_ratio_range": [[0.5, 0.5]]}),
    # -- dropout and tf.experimental.numpy.random -------------------------------------------------------------
    "nn.experimental.stateless_dropout": ({"x": _X, "rate": 0.5, "seed": SEED}, {
        "rate": [0.0, 0.99, 1.0, -0.1], "noise_shape": [[1, 4], [2, 1]], "rng_alg": ["philox", "threefry", 1, 3, "bogus"]}),
    "nn.dropout": ({"x": _X, "rate": 0.5}, {"seed": OP_SEED, "rate": [0.0, 0.99, 1.0], "noise_shape": [[1, 4], [2, 1]]}),
    "experimental.numpy.random.randint": ({"low": 0, "high": 5, "size": [6]}, {
        "low": [4, 5, -3], "high": [None, 1000], "dtype": ["int32", "int16"], "size": [None, [2, 3], 4]}),
    "experimental.numpy.random.uniform": ({"low": 0.0, "high": 1.0, "size": [4]}, {
        "low": [-2.0, 1.0], "high": [10.0], "size": [None, [2, 2]]}),
    "experimental.numpy.random.standard_normal": ({"size": [4]}, {"size": [None, [2, 2], 3]}),
    "experimental.numpy.random.random": ({"size": [3]}, {"size": [None, [2, 2]]}),
    "experimental.numpy.random.poisson": ({"lam": 3.0, "size": [4]}, {"lam": [0.5, 30.0], "size": [None]}),
    # -- tf.random.Generator ---------------------------------------------------------------------------------
    "Generator.uniform": ({"shape": [4]}, {
        "minval": [-2.0], "maxval": [3.0], "dtype": [{"dtype": d} for d in F + ["int32", "int64"]]}),
    "Generator.uniform:int": ({"shape": [5], "minval": -4, "maxval": 7, "dtype": {"dtype": "int32"}},
                              {"maxval": [None, -4], "dtype": [{"dtype": "int64"}]}),
    "Generator.normal": ({"shape": [4]}, {"mean": [1.0], "stddev": [0.0, 2.5], "dtype": [{"dtype": d} for d in F]}),
    "Generator.truncated_normal": ({"shape": [5]}, {"mean": [-3.0], "stddev": [2.0],
                                                    "dtype": [{"dtype": d} for d in F]}),
    "Generator.binomial": ({"shape": [5], "counts": 10.0, "probs": 0.3}, {
        "counts": [100.0, 0.0], "probs": [0.8, 0.5], "dtype": [{"dtype": "int64"}]}),
    "Generator.uniform_full_int": ({"shape": [3]}, {"dtype": [{"dtype": d} for d in ("int32", "uint32", "uint64")]}),
    "Generator.make_seeds": ({}, {"count": [0, 1, 3]}),
    "Generator:threefry.normal": ({"shape": [4]}, {"dtype": [{"dtype": "float64"}, {"dtype": "float16"}]}),
    "Generator:threefry.uniform_full_int": ({"shape": [3]}, {"dtype": [{"dtype": "int32"}]}),
    "Generator.split.normal": ({"shape": [3]}, {}),
    "Generator.skip.normal": ({"shape": [3]}, {}),
    "GeneratorKC.normal": ({"shape": [3]}, {}),
    "GeneratorKC.uniform_full_int": ({"shape": [2]}, {"dtype": [{"dtype": "uint64"}]}),
    "Generator.skipback.normal": ({"shape": [3]}, {}),
    "Generator.failed.normal": ({"shape": [3]}, {}),
    "Generator.failed.uniform_full_int": ({"shape": [2]}, {"dtype": [{"dtype": "uint64"}]}),
    # -- keras.random ----------------------------------------------------------------------------------------
    "keras.random.uniform": ({"shape": [4], "seed": 3}, {
        "seed": _KSEEDS, "minval": [-2.0], "maxval": [0.5], "dtype": ["float64", "float16"]}),
    "keras.random.normal": ({"shape": [4], "seed": 3}, {"seed": _KSEEDS, "mean": [2.0], "stddev": [0.0],
                                                        "dtype": ["float64"]}),
    "keras.random.truncated_normal": ({"shape": [5], "seed": 3}, {"seed": _KSEEDS, "stddev": [3.0]}),
    "keras.random.randint": ({"shape": [6], "minval": 0, "maxval": 5, "seed": 3}, {
        "seed": _KSEEDS, "minval": [4, 5], "maxval": [6, 1000], "dtype": ["int64", "uint8"]}),
    "keras.random.gamma": ({"shape": [4], "alpha": 2.0, "seed": 3}, {
        "seed": _KSEEDS, "alpha": [0.3, 1.0, 20.0], "dtype": ["float64"]}),
    "keras.random.binomial": ({"shape": [5], "counts": 10.0, "probabilities": 0.3, "seed": 3}, {
        "seed": _KSEEDS, "counts": [200.0, 0.0], "probabilities": [0.8, 0.5, 1.0], "dtype": ["float64"]}),
    "keras.random.beta": ({"shape": [4], "alpha": 2.0, "beta": 3.0, "seed": 3}, {
        "seed": _KSEEDS, "alpha": [0.4], "beta": [0.2], "dtype": ["float64"]}),
    "keras.random.categorical": ({"logits": [[0.0, 1.0, 2.0], [3.0, 0.0, 0.0]], "num_samples": 5, "seed": 3}, {
        "seed": _KSEEDS, "num_samples": [1], "dtype": ["int64"]}),
    "keras.random.dropout": ({"inputs": _X, "rate": 0.5, "seed": 3}, {
        "seed": _KSEEDS, "rate": [0.0, 0.99, 1.0],
        "noise_shape": [[1, 4], [2, 1], [None, 1], [2, None], [None, None]]}),
    "keras.random.shuffle": ({"x": {"t": [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]], "dtype": "int32"},
                              "seed": 3}, {"seed": _KSEEDS, "axis": [1, -1]}),
}
#: eager: one call; function: one call of a tf.function; eager2 and function2: two calls (a stateful sampler
#: draws anew, a stateless one repeats; a Generator's state moves on); pair: one tf.function making the call twice
#: (two ops of one graph: their own kernels and op seeds); after_base: eagerly the entry's base call, then the
#: case's (a kernel another dtype or seed left behind must not continue its stream).
MODES = ("eager", "function", "eager2", "function2", "pair", "after_base")
#: (function, argument, value) cases that abort TF 2.21's process (a CHECK failure in its kernel), so that nothing
#: is recorded for them: Generator.binomial with an int64 shape tensor ("Check failed: dtype() == expected_dtype
#: ... int32 expected, got int64", tensor.cc).
ABORTS: list[tuple[str, str, Any]] = [("Generator.binomial", "shape", {"t": [3], "dtype": "int64"})]
_IMAGES = {
    "IMAGE": lambda: (np.arange(4 * 4 * 3, dtype=np.float32).reshape(4, 4, 3) * 7 % 11) / 11.0,
    "IMAGE_U8": lambda: (np.arange(4 * 4 * 3).reshape(4, 4, 3) * 37 % 256).astype(np.uint8),
    "BATCH": lambda: np.arange(2 * 3 * 3 * 1, dtype=np.float32).reshape(2, 3, 3, 1),
    "BATCH5": lambda: np.arange(5 * 2 * 2 * 1, dtype=np.float32).reshape(5, 2, 2, 1),
}


def value(tf: Any, v: Any) -> Any:
    """The argument a JSON plan value stands for."""
    if isinstance(v, str) and v in _IMAGES:
        return tf.constant(_IMAGES[v]())
    if isinstance(v, dict):
        if "t" in v:
            return tf.constant(v["t"], getattr(tf, v["dtype"]))
        if "seedgen" in v:
            return tf.keras.random.SeedGenerator(v["seedgen"])
        return getattr(tf, v["dtype"])
    return v


def _resolve(tf: Any, path: str) -> Any:
    """The callable a FUNCS path names (a fresh Generator for the Generator.* paths)."""
    name = path.split(":")[0] if not path.startswith("Generator:") else path
    if name.startswith("Generator"):
        head, *methods = name.split(".")
        alg = head.split(":")[1] if ":" in head else "philox"
        g = tf.random.Generator.from_key_counter(GLOBAL_SEED, [7, 9], alg=alg) if head == "GeneratorKC" else \
            tf.random.Generator.from_seed(GLOBAL_SEED, alg=alg)
        if methods[0] == "split":
            g = g.split(2)[1]
        elif methods[0] == "skip":
            g.skip(10)
        elif methods[0] == "skipback":
            g.skip(-3)
        elif methods[0] == "failed":   # (a draw of a negative dimension: TF skips before its kernel refuses)
            try:
                g.normal([2, -3])
            except Exception:  # noqa: BLE001, S110 - the refusal itself is another case's observation
                pass
        return getattr(g, methods[-1])
    root, *rest = name.split(".")
    obj = tf.keras if root == "keras" else getattr(tf, root)
    for part in rest:
        obj = getattr(obj, part)
    return obj


def observed(x: Any) -> Any:
    """A result in JSON: a tensor's dtype, shape and values (floats: NaN/inf kept), tuples element-wise."""
    if isinstance(x, (tuple, list)):
        return [observed(e) for e in x]
    a = x.numpy() if hasattr(x, "numpy") else np.asarray(x)
    a = np.asarray(a)
    vals = a.astype(np.float64).reshape(-1).tolist() if a.dtype.kind in "fiub" else [str(e) for e in a.reshape(-1)]
    return {"dtype": a.dtype.name, "shape": list(a.shape), "values": vals}


def observe(tf: Any, path: str, kwargs: dict[str, Any], mode: str) -> dict[str, Any]:
    """`path` called with the plan's `kwargs` (eagerly or in a tf.function), after tf.random.set_seed."""
    tf.keras.utils.set_random_seed(GLOBAL_SEED)   # (tf.random.set_seed too)
    try:
        fn = _resolve(tf, path)
        calls = 2 if mode.endswith("2") else 1
        if mode == "after_base":
            base = FUNCS[path][0]
            first = fn(**{k: value(tf, v) for k, v in base.items()})
            return {"out": observed([first, fn(**{k: value(tf, v) for k, v in kwargs.items()})])}
        if mode.startswith("function") or mode == "pair":
            # tensors made inside (TF converts a captured eager tensor to another dtype without a check), seed
            # generators outside (their variable, made inside, is refused on TF's second trace of the first call)
            outside = {k: value(tf, v) for k, v in kwargs.items() if isinstance(v, dict) and "seedgen" in v}

            def call() -> Any:
                return fn(**{k: outside[k] if k in outside else value(tf, v) for k, v in kwargs.items()})
            if mode == "pair":
                return {"out": observed(tf.function(lambda: [call(), call()])())}
            f = tf.function(call)
            got = [f() for _ in range(calls)]
        else:
            args = {k: value(tf, v) for k, v in kwargs.items()}
            got = [fn(**args) for _ in range(calls)]
        return {"out": observed(got[0] if calls == 1 else got)}
    except Exception as e:  # noqa: BLE001 - a refusal is what is observed
        return {"error": type(e).__name__}

