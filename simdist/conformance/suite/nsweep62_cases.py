"""Random ops crossed by rule (sixty-second session, nsweep62; test_nsweep62.py): the stateless ops under every alg
form and seed form, at the sizes around Philox's four-word blocks and in every dtype; tf.random.Generator's
constructors, counters near their 32- and 64-bit wraps, split/skip/reset, eagerly and traced; stateful ops' seeds
(get_seed's rules) eagerly and in tf.functions called again, retraced and after set_seed; keras.random and Keras's
dropout layers with each seed form. Values bit for bit against TF 2.21's recorded results (a refusal by its
exception class).

What is crossed (blind81's random-alg-seeds takes split/fold_in/uniform/normal under five alg forms and signed seeds
of 2/3/0 elements; fn-random-per-trace one function over three signatures; test_random_bits the kernels at defaults):
- tf.random.stateless_{uniform, normal, truncated_normal, categorical, poisson, gamma, binomial,
  parameterized_truncated_normal}, stateless_uniform's full-range integers (minval=maxval=None), split and fold_in
  (and tf.random.experimental.stateless_split/fold_in) under alg 'philox', 'threefry', 'auto_select', 'PHILOX', 1, 2,
  3, 0, 4, the three Algorithm enums and None; seeds as Python lists, NumPy int32/int64/uint32/uint64 arrays and
  tensors of int32/int64/uint32/uint64 holding 0, -1, 2**31-1, 2**32-1, 2**63-1 and 2**64-1; a scalar and a
  one-element seed;
- each op at 0-9 elements (Philox gives four 32-bit words per counter: 64-bit dtypes take two per value) and two
  2-D shapes, in every output dtype it takes (float16, bfloat16, float32, float64; int32/int64 with minval/maxval;
  uint32/uint64 full range) and ones it does not;
- tf.raw_ops.StatelessRandom{Uniform,Normal,UniformFullInt}V2 with explicit key/counter, the counter's low word at
  2**32-1 and its low 64 bits at 2**64-1 (the carry into the high half);
- tf.random.Generator: from_seed under each alg form and seed value, from_key_counter with counters near 2**32 and
  2**64, from_state, the state after each draw, split, skip (small, 2**32), reset_from_seed, reset_from_key_counter;
  normal/uniform (float and int)/truncated_normal/binomial/uniform_full_int of each dtype, eagerly and in a
  tf.function called three times;
- stateful tf.random.uniform/normal/truncated_normal/shuffle/categorical/poisson/gamma and tf.nn.dropout under
  global seeds (none, 0, -1, 2**31-1, 2**63-1) x op seeds (none, 0, 1, -1, 2**31-1, 2**63-1), eager calls repeated;
  inside a tf.function called three times, retraced by new input shapes, two functions, the same function after
  set_seed, two ops of the same op seed;
- keras.random.{uniform, normal, truncated_normal, randint, dropout, shuffle, categorical, gamma, binomial, beta}
  with an int seed, a SeedGenerator and seed None after keras.utils.set_random_seed, eagerly and in a tf.function;
  Dropout, SpatialDropout1D/2D, GaussianDropout, GaussianNoise and AlphaDropout in training.

Every program is host-independent (integer Philox words and the distributions' glibc/Eigen scalar math; no value is a
sum or product whose order oneDNN or the CPU decides). `python -m simdist.conformance.suite.test_nsweep62 --record`
rewrites nsweep62_reference.json.gz. OPEN lists simdist's disagreements with TF 2.21 left out of the comparison."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.kpaths54_cases import packed, without_open
from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, bits, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "nsweep62_reference.json.gz")

REF = RecordedPrograms(PATH, host_dependent=("n-hd-",), recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

#: simdist's disagreements with TF 2.21 left out of the comparison: program -> case keys (docs/conformance.md,
#: "Sixty-second session ... nsweep62").
#: (1) a one-element seed under alg 'philox' (or 1): TF 2.21's Python Philox scramble hands the one-word counter to
#:     StatelessRandomUniformFullIntV2, which reads a second word past the vector: its draws change from call to call
#:     and run to run (observed: stateless_uniform([2], [5], alg='philox') three times in one process gave
#:     [0.0619, 0.832], [0.461, 0.437], [0.0619, 0.832]; in two processes [0.500, 0.0307] and [0.210, 0.730]);
#:     simdist raises. Not comparable.
#: (2) tf.random.Generator(state=<an int32 variable>, alg='philox'): TF 2.21 InvalidArgumentError, simdist ValueError
#:     (the variable's dtype check's class; not investigated).
OPEN: dict[str, tuple[str, ...]] = {
    **{f"n-sl-seeds-{op}": ("seed one philox", "seed one 1")
       for op in ("uniform", "normal", "truncated_normal", "full_int", "split", "fold_in")},
    "n-gen-shape-dtypes": ("state variable int32",)}


def program(name: str, fn: Callable[[Any], Any]) -> None:
    REF.add(name, lambda tf, mk: packed(without_open(name, json.loads(json.dumps(fn(tf))), OPEN)))


def err(fn: Callable[[], Any]) -> Any:
    """fn's result, or "raised <class>"."""
    try:
        return fn()
    except Exception as e:  # noqa: BLE001 - the class is the observation
        return f"raised {type(e).__name__}"


def tb(t: Any) -> Any:
    """A result's dtype, shape and bits (a list/tuple of tensors: each)."""
    if isinstance(t, (list, tuple)):
        return [tb(x) for x in t]
    return [t.dtype.name, list(t.shape)] + bits(t)


#: alg forms: the names, numbers, enums and None TF's convert_alg_to_int takes (and 0/4, which it refuses)
def algs(tf: Any) -> dict[str, Any]:
    return {"philox": "philox", "threefry": "threefry", "auto_select": "auto_select", "PHILOX": "PHILOX",
            "1": 1, "2": 2, "3": 3, "0": 0, "4": 4, "enum PHILOX": tf.random.Algorithm.PHILOX,
            "enum THREEFRY": tf.random.Algorithm.THREEFRY, "enum AUTO_SELECT": tf.random.Algorithm.AUTO_SELECT,
            "None": None}


#: seed values (pairs) at the integer types' ends
SEED_VALUES = {"0 0": [0, 0], "-1 -1": [-1, -1], "int32max 1": [2**31 - 1, 1], "uint32max 0": [2**32 - 1, 0],
               "int64max 2": [2**63 - 1, 2], "uint64max 3": [2**64 - 1, 3], "7 -3": [7, -3]}


def seed_forms(tf: Any) -> dict[str, Callable[[list[int]], Any]]:
    """The containers a seed comes in (built inside err: a form that cannot hold a value raises)."""
    return {"py": lambda v: list(v), "tuple": lambda v: tuple(v),
            "np int32": lambda v: np.array(v, np.int32), "np int64": lambda v: np.array(v, np.int64),
            "np uint32": lambda v: np.array(v, np.uint32), "np uint64": lambda v: np.array(v, np.uint64),
            "tf int32": lambda v: tf.constant(v, tf.int32), "tf int64": lambda v: tf.constant(v, tf.int64),
            "tf uint32": lambda v: tf.constant(v, tf.uint32), "tf uint64": lambda v: tf.constant(v, tf.uint64)}


def stateless_ops(tf: Any) -> dict[str, Callable[..., Any]]:
    """name -> f(shape, seed, alg, dtype or None): one stateless draw (dtype None: the op's default)."""
    r = tf.random

    def kw(dtype: Any, **k: Any) -> dict[str, Any]:
        if dtype is not None:
            k["dtype"] = dtype
        return k

    def uniform(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        if dtype is not None and dtype.is_integer:
            return r.stateless_uniform(shape, seed, minval=-5, maxval=9, dtype=dtype, alg=alg)
        return r.stateless_uniform(shape, seed, alg=alg, **kw(dtype))

    def full_int(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        return r.stateless_uniform(shape, seed, minval=None, maxval=None, dtype=dtype or tf.uint32, alg=alg)

    def categorical(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        n = int(np.prod(shape)) if len(shape) else 1
        logits = tf.constant([[0.1, -0.5, 1.25, 0.0], [2.0, 0.0, -1.0, 0.5]])
        return r.stateless_categorical(logits, n, seed, **kw(dtype))

    def poisson(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        return r.stateless_poisson(shape, seed, lam=3.0, **kw(dtype))

    def gamma(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        return r.stateless_gamma(shape, seed, alpha=1.5, **kw(dtype))

    def binomial(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        return r.stateless_binomial(shape, seed, counts=20.0, probs=0.25, output_dtype=dtype or tf.int32)

    def ptn(shape: Any, seed: Any, alg: Any, dtype: Any = None) -> Any:
        d = dtype or tf.float32
        return r.stateless_parameterized_truncated_normal(shape, seed, means=tf.constant(0.5, d),
                                                          stddevs=tf.constant(1.5, d), minvals=tf.constant(-1.0, d),
                                                          maxvals=tf.constant(2.0, d))

    return {"uniform": uniform, "normal": lambda s, sd, a, d=None: r.stateless_normal(s, sd, alg=a, **kw(d)),
            "truncated_normal": lambda s, sd, a, d=None: r.stateless_truncated_normal(s, sd, alg=a, **kw(d)),
            "full_int": full_int, "categorical": categorical, "poisson": poisson, "gamma": gamma,
            "binomial": binomial, "ptn": ptn,
            "split": lambda s, sd, a, d=None: r.split(sd, 3, alg=a),
            "fold_in": lambda s, sd, a, d=None: r.fold_in(sd, 11, alg=a),
            "exp_split": lambda s, sd, a, d=None: r.experimental.stateless_split(sd, 2),
            "exp_fold_in": lambda s, sd, a, d=None: r.experimental.stateless_fold_in(sd, -4)}


#: the ops whose alg argument TF passes on (the others take the seed only)
ALG_OPS = ("uniform", "normal", "truncated_normal", "full_int", "split", "fold_in")


def _alg_by_seed(op: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        f = stateless_ops(tf)[op]
        out = {}
        alg_list = algs(tf) if op in ALG_OPS else {"None": None}
        for aname, alg in alg_list.items():
            out[f"alg {aname}"] = err(lambda a=alg: tb(f([5], [3, 4], a)))
        for fname, form in seed_forms(tf).items():
            for vname, v in SEED_VALUES.items():
                for aname in (("None", "philox", "threefry") if op in ALG_OPS else ("None",)):
                    alg = alg_list[aname]
                    out[f"{fname} {vname} {aname}"] = err(lambda fo=form, v=v, a=alg: tb(f([5], fo(v), a)))
        for sname, s in {"scalar": lambda: 5, "one": lambda: [5], "three": lambda: [1, 2, 3],
                         "2x2": lambda: [[1, 2], [3, 4]], "float": lambda: [1.0, 2.0],
                         "tf int16": lambda: tf.constant([1, 2], tf.int16), "np float": lambda: np.array([1.5, -2.5]),
                         "four": lambda: np.array([9, 8, 7, 6], np.int64), "empty": lambda: np.zeros([0], np.int32),
                         "tf int32 three": lambda: tf.constant([4, 5, 6])}.items():
            for aname in (("None", "philox", "threefry", "1") if op in ALG_OPS else ("None",)):
                out[f"seed {sname} {aname}"] = err(lambda s=s, a=alg_list[aname]: tb(f([5], s(), a)))
        return out
    return run


for _op in ("uniform", "normal", "truncated_normal", "full_int", "categorical", "poisson", "gamma", "binomial", "ptn",
            "split", "fold_in", "exp_split", "exp_fold_in"):
    program(f"n-sl-seeds-{_op}", _alg_by_seed(_op))


SIZES = [[0], [1], [2], [3], [4], [5], [7], [8], [9], [2, 3], [3, 3], [1, 0]]

OP_DTYPES = {"uniform": ("float16", "bfloat16", "float32", "float64", "int32", "int64", "uint32", "int8"),
             "normal": ("float16", "bfloat16", "float32", "float64", "int32"),
             "truncated_normal": ("float16", "bfloat16", "float32", "float64", "int64"),
             "full_int": ("int32", "int64", "uint32", "uint64", "float32", "int16"),
             "categorical": ("int32", "int64", "float32"),
             "poisson": ("float16", "float32", "float64", "int32", "int64", "bfloat16"),
             "gamma": ("float16", "float32", "float64", "bfloat16", "int32"),
             "binomial": ("float16", "float32", "float64", "int32", "int64"),
             "ptn": ("float16", "float32", "float64", "bfloat16")}


def _sizes_dtypes(op: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        f = stateless_ops(tf)[op]
        out = {}
        for dname in OP_DTYPES[op]:
            d = getattr(tf, dname)
            for shape in SIZES:
                for aname, alg in ((("philox", "philox"), ("auto_select", "auto_select")) if op in ALG_OPS
                                   else (("None", None),)):
                    for sname, seed in (("7 -3", [7, -3]), ("big", [2**31 - 1, -2**31])):
                        key = f"{dname} {'x'.join(map(str, shape))} {aname} {sname}"
                        out[key] = err(lambda s=shape, sd=seed, a=alg, d=d: tb(f(s, sd, a, d)))
        return out
    return run


for _op in OP_DTYPES:
    program(f"n-sl-sizes-{_op}", _sizes_dtypes(_op))


def _params(tf: Any) -> Any:
    """The distribution parameters of the stateless gamma/poisson/binomial: beta given (scalar, broadcast), float64
    parameters, Python counts beside float64 probs (their dtype hint), shapes that do and do not end with the
    parameters' broadcast shape."""
    r = tf.random
    f64 = tf.float64
    cases = {
        "gamma beta": lambda: r.stateless_gamma([4], [1, 2], alpha=1.5, beta=2.5),
        "gamma beta broadcast": lambda: r.stateless_gamma([3, 2, 2], [1, 2], alpha=[0.5, 3.0], beta=[[1.0], [4.0]]),
        "gamma f64": lambda: r.stateless_gamma([2, 2], [1, 2], alpha=tf.constant([0.25, 7.0], f64),
                                               beta=tf.constant(0.5, f64), dtype=f64),
        "gamma shape mismatch": lambda: r.stateless_gamma([2, 3], [1, 2], alpha=[0.5, 3.0]),
        "poisson lam array": lambda: r.stateless_poisson([2, 2], [1, 2], lam=[1.0, 30.0]),
        "poisson lam f64 int64": lambda: r.stateless_poisson([3], [1, 2], lam=tf.constant(4.5, f64), dtype=tf.int64),
        "poisson shape mismatch": lambda: r.stateless_poisson([2, 3], [1, 2], lam=[1.0, 30.0]),
        "binomial f64 probs": lambda: r.stateless_binomial([3], [1, 2], counts=[10.0, 20.0, 5.0],
                                                           probs=tf.constant([0.3, 0.6, 0.9], f64)),
        "binomial py counts f64": lambda: r.stateless_binomial([2, 3], [1, 2], counts=[10, 20, 5],
                                                               probs=tf.constant([0.3, 0.6, 0.9], f64),
                                                               output_dtype=f64),
        "binomial np counts": lambda: r.stateless_binomial([3], [1, 2], counts=np.array([7, 8, 9]), probs=[0.5, 0.2, 0.1]),
        "binomial shape mismatch": lambda: r.stateless_binomial([3, 2], [1, 2], counts=[10.0, 20.0, 5.0],
                                                                probs=[0.3, 0.6, 0.9]),
        "binomial shape short": lambda: r.stateless_binomial([2], [1, 2], counts=[10.0, 20.0, 5.0], probs=0.5),
        "uniform range f32": lambda: r.stateless_uniform([5], [1, 2], -2.0, 3.0),
        "uniform range f64": lambda: r.stateless_uniform([3], [1, 2], 0.25, 1.75, dtype=f64),
        "uniform range f16": lambda: r.stateless_uniform([5], [1, 2], -3.0, -1.0, dtype=tf.float16),
        "normal tensor moments": lambda: r.stateless_normal([3], [1, 2], mean=tf.constant(2.0), stddev=tf.constant(0.5)),
        "truncated tensor moments": lambda: r.stateless_truncated_normal([3], [1, 2], mean=tf.constant([1.0, 2.0, 3.0]),
                                                                         stddev=tf.constant(0.25)),
        "normal 4000": lambda: r.stateless_normal([4000], [5, 6]),
        "normal f64 1000": lambda: r.stateless_normal([1000], [5, 6], dtype=f64),
        "gamma empty": lambda: tf.random.gamma([0], [1.0, 2.0], seed=1),
        "gamma empty 2": lambda: tf.random.gamma([2, 0], [[1.0], [2.0]], seed=1),
        "poisson empty": lambda: tf.random.poisson([0], [1.0, 2.0], seed=1),
        "stateless gamma empty": lambda: r.stateless_gamma([0, 2], [1, 2], alpha=[1.0, 2.0]),
        "ptn arrays": lambda: r.stateless_parameterized_truncated_normal([2, 3], [1, 2], means=[0.0, 1.0, -1.0],
                                                                         stddevs=[1.0, 0.5, 2.0], minvals=-1.0,
                                                                         maxvals=[1.0, 2.0, 3.0]),
    }
    return {k: err(lambda f=f: tb(f())) for k, f in cases.items()}


program("n-sl-sizes-params", _params)


def _key_counter(tf: Any) -> Any:
    """The V2 stateless kernels with explicit key/counter (philox: counter of two uint64 words; threefry/auto_select
    too): counters whose low 32 bits, low 64 bits and both words are at their ends, at 1-9 elements and float32,
    float64, int64 and uint64 draws."""
    ro = tf.raw_ops
    out = {}
    counters = {"0 0": [0, 0], "u32max": [2**32 - 1, 0], "u32max-1": [2**32 - 2, 7], "u64max": [-1, 0],
                "u64max-1": [-2, 5], "u64max u64max": [-1, -1], "hi only": [0, -1]}
    for cname, c in counters.items():
        for alg in (1, 2, 3):
            for n in (1, 3, 4, 5, 8, 9):
                def draw(kind: str, dt: Any, c: Any = c, alg: Any = alg, n: Any = n) -> Any:
                    key = tf.constant([0x1234ABCD], tf.uint64)
                    ctr = tf.constant(np.array(c, np.int64).view(np.uint64))
                    a = tf.constant(alg)
                    if kind == "u":
                        return tb(ro.StatelessRandomUniformV2(shape=[n], key=key, counter=ctr, alg=a, dtype=dt))
                    if kind == "n":
                        return tb(ro.StatelessRandomNormalV2(shape=[n], key=key, counter=ctr, alg=a, dtype=dt))
                    if kind == "t":
                        return tb(ro.StatelessTruncatedNormalV2(shape=[n], key=key, counter=ctr, alg=a, dtype=dt))
                    if kind == "i":
                        return tb(ro.StatelessRandomUniformIntV2(shape=[n], key=key, counter=ctr, alg=a,
                                                                 minval=tf.constant(-3, dt), maxval=tf.constant(1000, dt)))
                    return tb(ro.StatelessRandomUniformFullIntV2(shape=[n], key=key, counter=ctr, alg=a, dtype=dt))
                for kind, dname in (("u", "float32"), ("u", "float64"), ("n", "float32"), ("n", "float64"),
                                    ("t", "float32"), ("i", "int64"), ("f", "uint64"), ("f", "int32")):
                    out[f"{cname} alg{alg} {kind} {dname} {n}"] = err(lambda k=kind, d=getattr(tf, dname): draw(k, d))
    for _ in (0,):
        for s in ([3, 4], [-1, -1], [2**31 - 1, 0]):
            out[f"get_key_counter {s}"] = err(lambda s=s: tb(list(ro.StatelessRandomGetKeyCounter(seed=tf.constant(s)))))
    out["get_alg"] = err(lambda: tb(ro.StatelessRandomGetAlg()))
    return out


program("n-key-counter", _key_counter)


def _categorical_shards(tf: Any) -> Any:
    """Multinomial draws of rows enough for TF's Shard to split them over the recording host's two intra-op threads
    (cost 50 (samples log2(classes) + classes) per row): each later shard skips its generator by
    start (samples + 3) / 4 — samples 1, 2, 3, 5, 7 (not multiples of 4) — stateless and seeded stateful
    (host-dependent: the split follows the CPU's thread count)."""
    r = np.random.RandomState(62)
    out = {}
    for rows, classes, samples in ((600, 4, 2), (600, 4, 3), (400, 4, 5), (300, 8, 7), (2200, 2, 1)):
        logits = tf.constant((r.randint(-8, 9, (rows, classes)) / 4.0).astype(np.float32))
        key = f"{rows}x{classes} n{samples}"
        out[f"stateless {key}"] = err(lambda lg=logits, n=samples: tb(tf.random.stateless_categorical(lg, n, [3, 9])))
        tf.random.set_seed(4)
        out[f"stateful {key}"] = err(lambda lg=logits, n=samples: tb(tf.random.categorical(lg, n, seed=2)))
    return out


program("n-hd-categorical-shards", _categorical_shards)


# -- tf.random.Generator --------------------------------------------------------------------------------------------
def _gen_draws(tf: Any, g: Any) -> dict[str, Any]:
    """One of each Generator draw (float dtypes, int range, full int, binomial), the state after each."""
    out: dict[str, Any] = {}
    steps = {"normal 5": lambda: g.normal([5]), "normal f64 3": lambda: g.normal([3], dtype=tf.float64),
             "normal f16 5": lambda: g.normal([5], dtype=tf.float16),
             "normal bf16 4": lambda: g.normal([4], dtype=tf.bfloat16),
             "uniform 7": lambda: g.uniform([7]), "uniform f64 1": lambda: g.uniform([1], dtype=tf.float64),
             "uniform int32 9": lambda: g.uniform([9], -7, 100, dtype=tf.int32),
             "uniform int64 2": lambda: g.uniform([2], -7, 2**40, dtype=tf.int64),
             "uniform int no max": lambda: g.uniform([2], 0, None, dtype=tf.int32),
             "truncated 3": lambda: g.truncated_normal([3], 1.0, 2.0),
             "full int32 3": lambda: g.uniform_full_int([3], tf.int32),
             "full uint64 3": lambda: g.uniform_full_int([3], tf.uint64),
             "full int64 1": lambda: g.uniform_full_int([1], tf.int64),
             "binomial 4": lambda: g.binomial([4], counts=[10.0, 5.0, 100.0, 1.0], probs=[0.5, 0.1, 0.9, 0.3]),
             "normal 0": lambda: g.normal([0])}
    for k, fn in steps.items():
        out[k] = err(lambda fn=fn: tb(fn()))
        out[f"{k} state"] = err(lambda: bits(g.state))
    return out


def _gen_from_seed(tf: Any) -> Any:
    """Generator.from_seed under each alg form and seed value: state, every draw, split(2) and its children's draws,
    skip(5), skip(2**32), reset_from_seed."""
    out = {}
    alg_list = {k: v for k, v in algs(tf).items() if k not in ("None",)}
    for aname, alg in alg_list.items():
        def make(alg: Any = alg) -> Any:
            g = tf.random.Generator.from_seed(1234, alg=alg)
            return [g.algorithm, bits(g.state), tb(g.normal([5]))]
        out[f"alg {aname}"] = err(make)
    for sname, s in {"0": 0, "-1": -1, "int32max": 2**31 - 1, "uint32max": 2**32 - 1, "int64max": 2**63 - 1,
                     "uint64max": 2**64 - 1, "np uint64": np.uint64(2**63 + 5), "list": [1, 2, 3],
                     "tensor": "tensor", "np int32": np.int32(-9), "np int64": np.int64(2**40), "bool": True,
                     "np array": np.array([3, 4], np.uint32), "float": 2.5}.items():
        def make2(s: Any = s) -> Any:
            sd = tf.constant(77, tf.int64) if isinstance(s, str) else s
            g = tf.random.Generator.from_seed(sd)
            return [bits(g.state), tb(g.uniform([5]))]
        out[f"seed {sname}"] = err(make2)
    g = tf.random.Generator.from_seed(42)
    out.update({f"g {k}": v for k, v in _gen_draws(tf, g).items()})
    kids = g.split(2)
    out["after split state"] = bits(g.state)
    for i, kgen in enumerate(kids):
        out[f"kid {i} state"] = bits(kgen.state)
        out[f"kid {i} normal"] = tb(kgen.normal([3]))
    g.skip(5)
    out["skip 5"] = bits(g.state)
    g.skip(2**32)
    out["skip 2**32"] = bits(g.state)
    out["after skip normal"] = tb(g.normal([2]))
    g.reset_from_seed(9)
    out["reset_from_seed 9"] = [bits(g.state), tb(g.uniform([4]))]
    g.reset_from_key_counter(5, [2**32 - 1, 0])
    out["reset_from_key_counter"] = [bits(g.state), tb(g.uniform([5])), bits(g.state)]
    out["make_seeds"] = err(lambda: tb(g.make_seeds(3)))
    return out


program("n-gen-from-seed", _gen_from_seed)


def _gen_counters(tf: Any) -> Any:
    """Generator.from_key_counter with counters near the 2**32 and 2**64 wraps: consecutive draws of 1-9 elements of
    float32/float64/int64 (the state after each), skip across the wrap, and from_state of the same."""
    out = {}
    counters = {"u32max-3": [2**32 - 4, 0], "u32max": [2**32 - 1, 3], "u64max-5": [-6, 0], "u64max-1": [-2, 9],
                "u64max u64max": [-1, -1], "int64max": [2**63 - 1, 0]}
    for cname, c in counters.items():
        for aname in ("philox", "threefry"):
            def run(c: Any = c, aname: str = aname) -> Any:
                g = tf.random.Generator.from_key_counter(0xBEEF, c if aname == "philox" else c[:1], aname)
                res = [bits(g.state)]
                for n, dt in ((1, tf.float32), (3, tf.float32), (2, tf.float64), (4, tf.float32), (5, tf.int64),
                              (7, tf.float32), (9, tf.float64)):
                    v = g.uniform([n], dtype=dt) if dt != tf.int64 else g.uniform_full_int([n], dt)
                    res += [tb(v), bits(g.state)]
                res.append(tb(g.normal([3])))
                return res
            out[f"{cname} {aname}"] = err(run)
        def skip(c: Any = c) -> Any:
            g = tf.random.Generator.from_key_counter(1, c, "philox")
            g.skip(7)
            s1 = bits(g.state)
            g.skip(2**33 + 1)
            return [s1, bits(g.state), tb(g.normal([2]))]
        out[f"{cname} skip"] = err(skip)
        out[f"{cname} from_state"] = err(lambda c=c: tb(tf.random.Generator.from_state(
            tf.constant([c[0], c[1], 77], tf.int64), "philox").uniform([5])))
    out["from_state wrong size"] = err(lambda: tb(tf.random.Generator.from_state([1, 2], "philox").uniform([2])))
    out["from_state variable"] = err(lambda: tb(tf.random.Generator.from_state(
        tf.Variable([5, 6, 7], dtype=tf.int64), "philox").uniform([2])))
    return out


program("n-gen-counters", _gen_counters)


def _gen_shape_dtypes(tf: Any) -> Any:
    """A Generator's draws with the shape as an int32/int64 tensor, a NumPy int64 array, a tuple and a scalar tensor:
    the values (or refusal) and the state after each."""
    g = tf.random.Generator.from_seed(31)
    out = {}
    shapes = {"int32": lambda: tf.constant([3], tf.int32), "int64": lambda: tf.constant([3], tf.int64),
              "int64 2x2": lambda: tf.constant([2, 2], tf.int64), "np int64": lambda: np.array([3], np.int64),
              "tuple": lambda: (3,), "float": lambda: tf.constant([3.0])}
    draws = {"normal": lambda sh: g.normal(sh), "uniform": lambda sh: g.uniform(sh),
             "uniform int": lambda sh: g.uniform(sh, 0, 9, dtype=tf.int64),
             "truncated": lambda sh: g.truncated_normal(sh), "full": lambda sh: g.uniform_full_int(sh, tf.int32),
             "binomial": lambda sh: g.binomial(sh, counts=5.0, probs=0.5)}
    for vname, v in {"variable short": lambda: tf.Variable([1, 2], dtype=tf.int64),
                     "variable long": lambda: tf.Variable([1, 2, 3, 4], dtype=tf.int64),
                     "variable int32": lambda: tf.Variable([1, 2, 3], dtype=tf.int32),
                     "variable ok": lambda: tf.Variable([1, 2, 3], dtype=tf.int64),
                     "tensor short": lambda: tf.constant([1, 2], tf.int64)}.items():
        out[f"state {vname}"] = err(lambda v=v: tb(tf.random.Generator(state=v(), alg="philox").normal([2])))
    for sname, sh in shapes.items():
        for dname, d in draws.items():
            if dname == "binomial" and "int64" in sname:
                continue   # (TF 2.21 aborts the process: StatefulRandomBinomial's int64 shape, "Check failed: dtype()
                # == expected_dtype (9 vs. 3) int32 expected, got int64" in tensor.cc)
            out[f"{dname} {sname}"] = [err(lambda d=d, sh=sh: tb(d(sh()))), bits(g.state)]
    return out


program("n-gen-shape-dtypes", _gen_shape_dtypes)


def _gen_traced(tf: Any) -> Any:
    """A Generator's draws inside a tf.function called three times (one trace; the state advances per call), a
    second tf.function on the same generator, a generator split and skipped inside the function, the state after."""
    out = {}
    for aname in ("philox", "threefry"):
        g = tf.random.Generator.from_seed(2024, alg=aname)

        @tf.function
        def f() -> Any:
            return [g.normal([5]), g.uniform([3], dtype=tf.float64), g.uniform([4], 0, 10, dtype=tf.int64),
                    g.truncated_normal([2]), g.uniform_full_int([3], tf.uint32)]

        @tf.function
        def h(x: Any) -> Any:
            g.skip(3)
            return g.uniform(tf.shape(x)) + x

        res = []
        for _ in range(3):
            res.append(err(lambda: tb(f())))
            res.append(bits(g.state))
        res.append(err(lambda: tb(h(tf.zeros([3])))))
        res.append(err(lambda: tb(h(tf.zeros([5])))))
        res.append(bits(g.state))
        res.append(err(lambda: tb(f())))
        out[aname] = res
    g = tf.random.Generator.from_seed(7)

    @tf.function
    def b() -> Any:
        return g.binomial([3], counts=[4.0, 8.0, 12.0], probs=[0.5, 0.25, 0.75])
    out["binomial traced"] = [err(lambda: tb(b())) for _ in range(2)] + [bits(g.state)]
    return out


program("n-gen-traced", _gen_traced)


# -- stateful ops and get_seed ------------------------------------------------------------------------------------
def _stateful_draws(tf: Any) -> dict[str, Callable[[Any], Any]]:
    return {"uniform": lambda s: tf.random.uniform([5], seed=s),
            "uniform f64": lambda s: tf.random.uniform([3], dtype=tf.float64, seed=s),
            "uniform int": lambda s: tf.random.uniform([3], 0, 9, dtype=tf.int64, seed=s),
            "normal": lambda s: tf.random.normal([3], seed=s),
            "truncated": lambda s: tf.random.truncated_normal([3], seed=s),
            "shuffle": lambda s: tf.random.shuffle(tf.range(6), seed=s),
            "categorical": lambda s: tf.random.categorical([[0.0, 1.0, -1.0]], 4, seed=s),
            "poisson": lambda s: tf.random.poisson([3], [2.5], seed=s),
            "gamma": lambda s: tf.random.gamma([2], [0.5, 3.0], seed=s),
            "dropout": lambda s: tf.nn.dropout(tf.ones([6]), 0.5, seed=s)}


def _get_seed(tf: Any) -> Any:
    """get_seed's rules: global seeds none/0/-1/2**31-1/2**31/2**63-1 x op seeds none/0/1/-1/2**31-1/2**63-1; each draw
    twice (the eager kernel cache), tf.random.uniform's value; the global seed's counter after an unseeded op."""
    out = {}
    ops = _stateful_draws(tf)
    for gname, gs in (("none", None), ("0", 0), ("-1", -1), ("int32max", 2**31 - 1), ("2**31", 2**31),
                      ("int64max", 2**63 - 1)):
        for oname, os_ in (("none", None), ("0", 0), ("1", 1), ("-1", -1), ("int32max", 2**31 - 1),
                           ("int64max", 2**63 - 1)):
            if gs is None and os_ is None:
                continue   # (TF's non-deterministic default)
            tf.random.set_seed(gs)
            out[f"g {gname} op {oname}"] = [err(lambda: tb(ops["uniform"](os_))), err(lambda: tb(ops["uniform"](os_)))]
    tf.random.set_seed(5)
    for oname, op in ops.items():
        out[f"g 5 {oname} seeded"] = [err(lambda op=op: tb(op(3))), err(lambda op=op: tb(op(3)))]
        out[f"g 5 {oname} unseeded"] = err(lambda op=op: tb(op(None)))
    tf.random.set_seed(5)
    out["g 5 reset"] = [err(lambda: tb(ops["uniform"](3))), err(lambda: tb(ops["uniform"](None)))]
    # a shape of int32 and then int64 (and a tensor dtype's kernels: an eager kernel per attrs)
    for oname, draw in (("uniform", tf.random.uniform), ("normal", tf.random.normal),
                        ("truncated", tf.random.truncated_normal)):
        tf.random.set_seed(6)
        res = []
        for shape in ([4], tf.constant([4], tf.int64), tf.constant([4], tf.int32), tf.constant([4], tf.int64), (4,)):
            res.append(err(lambda sh=shape: tb(draw(sh, seed=8))))
        out[f"shape dtypes {oname}"] = res
    tf.random.set_seed(6)
    out["shape dtypes uniform int"] = [err(lambda sh=sh: tb(tf.random.uniform(sh, 0, 50, dtype=tf.int32, seed=8)))
                                       for sh in ([3], tf.constant([3], tf.int64), [3])]
    return out


program("n-get-seed", _get_seed)


def _fn_stateful(tf: Any) -> Any:
    """Stateful ops in tf.functions: one called three times, retraced by new input shapes (and back), a second
    function of the same ops, the first after set_seed again, two ops of the same op seed in one function, dropout
    and shuffle; eager draws between calls."""
    out = {}
    tf.random.set_seed(321)
    ops = _stateful_draws(tf)

    @tf.function
    def f(x: Any) -> Any:
        return [ops["uniform"](None) + tf.reduce_sum(x), ops["normal"](7), ops["shuffle"](None),
                ops["categorical"](4), ops["dropout"](None), ops["uniform int"](2), ops["poisson"](9)]

    @tf.function
    def g(x: Any) -> Any:
        return [ops["uniform"](None) + tf.reduce_sum(x), ops["normal"](7)]

    @tf.function
    def same(x: Any) -> Any:
        return [tf.random.uniform([3], seed=4) + x, tf.random.uniform([3], seed=4) + x, tf.random.normal([2], seed=4)]

    calls = [("f", f, [0.0]), ("f", f, [0.0]), ("f", f, [0.0, 0.0]), ("f", f, [0.0]), ("g", g, [0.0]),
             ("same", same, 0.0), ("same", same, 0.0), ("f", f, [[0.0]])]
    for i, (n, fn, a) in enumerate(calls):
        out[f"call {i} {n}"] = err(lambda fn=fn, a=a: tb(fn(tf.constant(a))))
    out["eager between"] = tb(ops["uniform"](7))
    tf.random.set_seed(321)
    out["f after set_seed"] = [err(lambda: tb(f(tf.constant([0.0])))) for _ in range(2)]
    out["g after set_seed"] = err(lambda: tb(g(tf.constant([0.0]))))

    @tf.function
    def fresh(x: Any) -> Any:
        return [ops["uniform"](None) + x, ops["dropout"](1)]
    out["fresh after set_seed"] = [err(lambda: tb(fresh(tf.constant(0.0)))) for _ in range(2)]
    out["tracing counts"] = [f.experimental_get_tracing_count(), g.experimental_get_tracing_count()]
    return out


program("n-fn-stateful", _fn_stateful)


def _fn_global_only(tf: Any) -> Any:
    """Op seeds drawn from the graph in a tf.function under each global seed (no op seed: the graph's op counter),
    two functions defined in turn; and tf.function(reduce_retracing=True) called over three shapes."""
    out = {}
    for gs in (0, 1, 2**31 - 1, -7):
        tf.random.set_seed(gs)

        @tf.function
        def a() -> Any:
            return [tf.random.uniform([2]), tf.random.normal([2]), tf.random.uniform([2])]

        @tf.function
        def b() -> Any:
            return [tf.random.uniform([2])]
        out[f"g {gs}"] = [err(lambda: tb(a())), err(lambda: tb(a())), err(lambda: tb(b()))]
    tf.random.set_seed(8)

    @tf.function(reduce_retracing=True)
    def rr(x: Any) -> Any:
        return tf.random.uniform(tf.shape(x), seed=3) + x
    out["reduce_retracing"] = [err(lambda n=n: tb(rr(tf.zeros([n])))) for n in (2, 3, 4, 3)]
    tf.random.set_seed(8)

    @tf.function(input_signature=[tf.TensorSpec([None])])
    def sig(x: Any) -> Any:
        return [tf.random.uniform(tf.shape(x), seed=3) + x, tf.random.normal([2])]
    out["input_signature"] = [err(lambda n=n: tb(sig(tf.zeros([n])))) for n in (2, 3, 4, 3)]
    tf.random.set_seed(8)

    @tf.function
    def plain(x: Any) -> Any:
        return tf.random.uniform(tf.shape(x), seed=3) + x
    out["per shape"] = [err(lambda n=n: tb(plain(tf.zeros([n])))) for n in (2, 3, 2, 4)]
    out["tracing counts"] = [rr.experimental_get_tracing_count(), sig.experimental_get_tracing_count(),
                             plain.experimental_get_tracing_count()]
    return out


program("n-fn-global-only", _fn_global_only)


# -- Keras ----------------------------------------------------------------------------------------------------------
def _keras_random(tf: Any) -> Any:
    """keras.random's functions with an int seed, a SeedGenerator (drawn twice) and seed None after
    keras.utils.set_random_seed, eagerly and in a tf.function."""
    kr = tf.keras.random
    fns = {"uniform": lambda s: kr.uniform([5], seed=s), "uniform f64": lambda s: kr.uniform([3], -2.0, 3.0,
                                                                                             dtype="float64", seed=s),
           "normal": lambda s: kr.normal([5], seed=s), "normal f16": lambda s: kr.normal([3], dtype="float16", seed=s),
           "truncated": lambda s: kr.truncated_normal([4], 0.5, 2.0, seed=s),
           "randint": lambda s: kr.randint([5], -3, 40, seed=s),
           "randint int64": lambda s: kr.randint([3], 0, 2**40, dtype="int64", seed=s),
           "dropout": lambda s: kr.dropout(tf.ones([8]), 0.5, seed=s),
           "dropout noise": lambda s: kr.dropout(tf.ones([2, 4]), 0.25, noise_shape=[1, 4], seed=s),
           "shuffle": lambda s: kr.shuffle(tf.range(6), seed=s),
           "categorical": lambda s: kr.categorical(tf.constant([[0.0, 1.0, 2.0]]), 5, seed=s),
           "gamma": lambda s: kr.gamma([3], 2.0, seed=s), "binomial": lambda s: kr.binomial([3], 10, 0.3, seed=s),
           "beta": lambda s: kr.beta([3], 2.0, 3.0, seed=s),
           "uniform f64 inexact": lambda s: kr.uniform([4], 0.1, 0.7, dtype="float64", seed=s),
           "uniform f16 inexact": lambda s: kr.uniform([4], 0.1, 0.7, dtype="float16", seed=s),
           "normal f64 inexact": lambda s: kr.normal([4], 0.1, 0.3, dtype="float64", seed=s),
           "normal f16 inexact": lambda s: kr.normal([4], 0.1, 0.3, dtype="float16", seed=s),
           "truncated f64 inexact": lambda s: kr.truncated_normal([4], 0.1, 0.3, dtype="float64", seed=s),
           "truncated bf16 inexact": lambda s: kr.truncated_normal([4], 0.1, 0.3, dtype="bfloat16", seed=s)}
    out = {}
    for fname, fn in fns.items():
        for sname, s in (("int 0", 0), ("int 42", 42), ("int 2**31", 2**31)):
            out[f"{fname} {sname}"] = err(lambda fn=fn, s=s: tb(fn(s)))
        tf.keras.utils.set_random_seed(11)
        sg = tf.keras.random.SeedGenerator(99)
        out[f"{fname} sg"] = [err(lambda fn=fn: tb(fn(sg))) for _ in range(2)]
        out[f"{fname} sg state"] = err(lambda: bits(sg.state))
        sgn = tf.keras.random.SeedGenerator()
        out[f"{fname} sg none"] = err(lambda fn=fn: tb(fn(sgn)))
        tf.keras.utils.set_random_seed(11)
        out[f"{fname} none"] = [err(lambda fn=fn: tb(fn(None))) for _ in range(2)]
        sgt = tf.keras.random.SeedGenerator(5)
        tfn = tf.function(lambda fn=fn: fn(sgt))
        out[f"{fname} traced sg"] = [err(lambda: tb(tfn())) for _ in range(2)]
        out[f"{fname} traced int"] = err(lambda fn=fn: tb(tf.function(lambda: fn(3))()))
    return out


program("n-keras-random", _keras_random)


def _keras_dropout_layers(tf: Any) -> Any:
    """Dropout (with and without seed, noise_shape, rate 0 and near 1), SpatialDropout1D/2D, GaussianDropout,
    GaussianNoise and AlphaDropout in training, eagerly twice and in a tf.function twice."""
    L = tf.keras.layers
    x2 = tf.constant(np.arange(1, 17, dtype=np.float32).reshape(2, 8) / 4.0)
    x3 = tf.constant(np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4) / 8.0)
    x4 = tf.constant(np.arange(1, 33, dtype=np.float32).reshape(2, 2, 2, 4) / 8.0)
    layers = {"dropout seed": (lambda: L.Dropout(0.4, seed=17, name="d1"), x2),
              "dropout noise": (lambda: L.Dropout(0.5, noise_shape=(None, 1), seed=3, name="d2"), x2),
              "dropout rate 0": (lambda: L.Dropout(0.0, seed=3, name="d3"), x2),
              "dropout rate 0.99": (lambda: L.Dropout(0.99, seed=3, name="d4"), x2),
              "dropout noseed": (lambda: L.Dropout(0.3, name="d5"), x2),
              "spatial1d": (lambda: L.SpatialDropout1D(0.5, seed=5, name="s1"), x3),
              "spatial2d": (lambda: L.SpatialDropout2D(0.5, seed=5, name="s2"), x4),
              "gaussian dropout": (lambda: L.GaussianDropout(0.3, seed=6, name="gd"), x2),
              "gaussian noise": (lambda: L.GaussianNoise(0.2, seed=6, name="gn"), x2),
              "alpha dropout": (lambda: L.AlphaDropout(0.3, seed=6, name="ad"), x2)}
    out = {}
    for lname, (mk, x) in layers.items():
        tf.keras.utils.set_random_seed(23)
        def run(mk: Any = mk, x: Any = x) -> Any:
            layer = mk()
            res = [tb(layer(x, training=True)), tb(layer(x, training=True)), tb(layer(x, training=False))]
            fn = tf.function(lambda v: layer(v, training=True))
            res += [tb(fn(x)), tb(fn(x))]
            return res
        out[lname] = err(run)
    return out


program("n-keras-dropout-layers", _keras_dropout_layers)
