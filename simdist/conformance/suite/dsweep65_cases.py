"""tf.data transformations crossed by option value (sixty-fifth session, dsweep65; test_dsweep65.py).

What is crossed (batch 87's survivor: Dataset.map(num_parallel_calls=0), whose TF 2.21 answer differed from
simdist's default path; the suite fed every option at its common value): every Dataset transformation simdist
implements × every value its options take by kind — num_parallel_calls None, 0, 1, 2, AUTOTUNE (-1), -2 and a
tensor; deterministic None/True/False; buffer sizes 0, 1, AUTOTUNE, -2, larger than the data; counts -1, 0, 1,
None, past the end; drop_remainder True/False/a tensor; batch sizes 0, -1, a tensor; cycle and block lengths None,
0, AUTOTUNE, 1, large; shard edges; seeds None/int with reshuffle_each_iteration; name= — and, under a mirrored
strategy of two CPUs, experimental_distribute_dataset / distribute_datasets_from_function of the same pipelines.

Each case observes, in order: the construction (or its refusal's class, "construct raised <class>"), the element
spec (per component: spec class, shape, dtype), the cardinality, and the elements (each component's dtype, shape
and values; ragged components as lists) up to 40, ending in the iteration's refusal class if one comes. Where TF
2.21's iteration does not end (batch with num_parallel_calls 0 or -2; interleave with block_length 0; docs/spec.md
data.api-surface) the case observes construction, spec and cardinality only (`ITERATION_HANGS`).
`python -m simdist.conformance.suite.test_dsweep65 --record` rewrites dsweep65_reference.json.gz."""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import numpy as np

from simdist.conformance.suite.recorded_programs import RecordedPrograms, avx512_with_onednn, reference_cpu

PATH = os.path.join(os.path.dirname(__file__), "dsweep65_reference.json.gz")

REF = RecordedPrograms(PATH, recording_host=avx512_with_onednn, recording_cpu=reference_cpu)

CAP = 40   # elements read at most (an infinite repeat's first 40)

Case = Callable[[Any, Any], Any]
#: program -> [(case key, case(tf, mk) -> observation)]
CASES: dict[str, list[tuple[str, Case]]] = {}


def _cls(e: BaseException) -> str:
    return type(e).__name__


def _component(x: Any) -> Any:
    """One element component: ragged as ["ragged", dtype, lists]; a tensor as [dtype, shape, values] (floats as
    their hex)."""
    if hasattr(x, "to_list") and hasattr(x, "row_splits"):
        return ["ragged", x.dtype.name, x.to_list()]
    a = np.asarray(x.numpy() if hasattr(x, "numpy") else x)
    if a.dtype.kind == "f":
        vals: Any = [float(v).hex() for v in a.astype(np.float64).ravel()]
    elif a.dtype.kind in "SO":
        vals = [v.decode() if isinstance(v, bytes) else str(v) for v in a.ravel()]
    else:
        vals = a.ravel().tolist()
    return [str(a.dtype), list(a.shape), vals]


def spec_of(tf: Any, es: Any) -> Any:
    """An element spec as [spec class, shape (None: unknown rank), dtype] per component."""
    out = []
    for s in tf.nest.flatten(es, expand_composites=False):
        shape = getattr(s, "shape", None)
        dims = None if shape is None or shape.rank is None else shape.as_list()
        dt = getattr(s, "dtype", None)
        out.append([type(s).__name__, dims, getattr(dt, "name", None)])
    return out


def elements(tf: Any, ds: Any, cap: int = CAP, sort: bool = False) -> Any:
    """Up to `cap` elements (each a list of components), then "raised <class>" if the iteration refuses."""
    got: list[Any] = []
    try:
        for i, e in enumerate(ds):
            if i >= cap:
                break
            got.append([_component(c) for c in tf.nest.flatten(e)])
    except Exception as e:  # noqa: BLE001 - the class is the observation
        got = (sorted(got, key=json.dumps) if sort else got) + [f"raised {_cls(e)}"]
        return got
    return sorted(got, key=json.dumps) if sort else got


def observe(tf: Any, build: Callable[[], Any], iterate: bool = True, sort: bool = False, twice: bool = False) -> Any:
    """A pipeline's observation: construction, element spec, cardinality, elements (sorted when their order is not
    TF's promise; twice for reshuffles)."""
    try:
        ds = build()
    except Exception as e:  # noqa: BLE001
        return f"construct raised {_cls(e)}"
    out: dict[str, Any] = {"spec": spec_of(tf, ds.element_spec)}
    try:
        out["card"] = int(ds.cardinality())
    except Exception as e:  # noqa: BLE001
        out["card"] = f"raised {_cls(e)}"
    if iterate:
        out["elements"] = elements(tf, ds, sort=sort)
        if twice:
            out["again"] = elements(tf, ds, sort=sort)
    return out


def case(program: str, key: str, fn: Case) -> None:
    """Register one case of `program`."""
    CASES.setdefault(program, []).append((key, fn))


def run_program(name: str, tf: Any, mk: Any) -> dict[str, Any]:
    """Every case of program `name`, by key (the global seed set first: seeded shuffles and samplers pair it with
    their op seeds, so a program's answers do not depend on the programs run before it)."""
    tf.random.set_seed(65)
    return {key: fn(tf, mk) for key, fn in CASES[name]}


def _pipe(key: str, program: str, build: Callable[[Any], Any], **kw: Any) -> None:
    case(program, key, lambda tf, mk: observe(tf, lambda: build(tf), **kw))


def _t(tf: Any, v: Any, dt: Any = None) -> Any:
    """`v` as a tensor (int64 unless `dt`)."""
    return tf.constant(v, dtype=dt or (tf.bool if isinstance(v, bool) else tf.int64))


# -- option values by kind ------------------------------------------------------------------------------------------
#: num_parallel_calls forms: (label, value maker)
NPC: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("None", lambda tf: None), ("0", lambda tf: 0), ("1", lambda tf: 1), ("2", lambda tf: 2),
    ("AUTOTUNE", lambda tf: tf.data.AUTOTUNE), ("-2", lambda tf: -2), ("-3", lambda tf: -3),
    ("t2", lambda tf: _t(tf, 2)), ("t0", lambda tf: _t(tf, 0)), ("np2", lambda tf: np.int64(2)),
)
DET = (None, True, False)


# -- d-map: map and its parallel options ----------------------------------------------------------------------------
for _lbl, _n in NPC:
    for _d in DET:
        _pipe(f"map npc={_lbl} det={_d}", "d-map",
              lambda tf, n=_n, d=_d: tf.data.Dataset.range(7).map(lambda x: x * 3 - 1, num_parallel_calls=n(tf),
                                                                   deterministic=d),
              sort=_d is False)
    _pipe(f"map npc={_lbl} tuple name", "d-map",
          lambda tf, n=_n: tf.data.Dataset.from_tensor_slices(([1.5, 2.5, -0.5], [1, 2, 3])).map(
              lambda a, b: (a * 2, tf.cast(b, tf.float32) + a), num_parallel_calls=n(tf), name="m"))
    _pipe(f"map npc={_lbl} then batch 3", "d-map",
          lambda tf, n=_n: tf.data.Dataset.range(7).map(lambda x: x + 1, num_parallel_calls=n(tf)).batch(3))
    _pipe(f"map npc={_lbl} then batch 3 drop", "d-map",
          lambda tf, n=_n: tf.data.Dataset.range(7).map(lambda x: x + 1, num_parallel_calls=n(tf)).batch(
              3, drop_remainder=True))
    _pipe(f"map npc={_lbl} error element", "d-map",
          lambda tf, n=_n: tf.data.Dataset.from_tensor_slices([1.0, 0.0, 2.0]).map(
              lambda x: tf.debugging.check_numerics(1.0 / x, "inf"), num_parallel_calls=n(tf)))
_pipe("map deterministic='yes'", "d-map",
      lambda tf: tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=2, deterministic="yes"))
_pipe("map npc=float 2.0", "d-map", lambda tf: tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=2.0))
_pipe("map npc=int32 tensor", "d-map",
      lambda tf: tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=tf.constant(2, tf.int32)))

# -- d-batch: batch, padded_batch, unbatch, rebatch, ragged_batch -----------------------------------------------------
_BS = (("0", lambda tf: 0), ("-1", lambda tf: -1), ("1", lambda tf: 1), ("3", lambda tf: 3), ("9", lambda tf: 9),
       ("t3", lambda tf: _t(tf, 3)), ("t0", lambda tf: _t(tf, 0)), ("int32 t3", lambda tf: _t(tf, 3, tf.int32)))
_DROP = (("False", lambda tf: False), ("True", lambda tf: True), ("tTrue", lambda tf: _t(tf, True)),
         ("tFalse", lambda tf: _t(tf, False)))
for _bl, _b in _BS:
    for _dl, _dr in _DROP:
        _pipe(f"batch size={_bl} drop={_dl}", "d-batch",
              lambda tf, b=_b, dr=_dr: tf.data.Dataset.range(7).batch(b(tf), drop_remainder=dr(tf)))
        _pipe(f"padded_batch size={_bl} drop={_dl}", "d-batch",
              lambda tf, b=_b, dr=_dr: tf.data.Dataset.range(1, 6).map(lambda x: tf.range(x)).padded_batch(
                  b(tf), drop_remainder=dr(tf)))
    _pipe(f"rebatch size={_bl}", "d-batch", lambda tf, b=_b: tf.data.Dataset.range(7).batch(4).rebatch(b(tf)),
          iterate=_bl != "-1")   # (rebatch(-1)'s iteration ends TF 2.21's process: SIGSEGV)
    _pipe(f"rebatch size={_bl} drop", "d-batch",
          lambda tf, b=_b: tf.data.Dataset.range(7).batch(4).rebatch(b(tf), drop_remainder=True))
    _pipe(f"ragged_batch size={_bl}", "d-batch",
          lambda tf, b=_b: tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).ragged_batch(b(tf)))
for _lbl, _n in NPC:
    for _d in DET:
        _pipe(f"batch 3 npc={_lbl} det={_d}", "d-batch",
              lambda tf, n=_n, d=_d: tf.data.Dataset.range(7).batch(3, num_parallel_calls=n(tf), deterministic=d),
              iterate=_lbl not in ("0", "-2", "-3", "t0"), sort=_d is False)
for _pl, _ps in (("None", None), ("[6]", [6]), ("[-1]", [-1]), ("[2]", [2]), ("[None]", [None]), ("[]", [])):
    _pipe(f"padded_batch 2 shapes={_pl}", "d-batch",
          lambda tf, ps=_ps: tf.data.Dataset.range(1, 6).map(lambda x: tf.range(x)).padded_batch(2, padded_shapes=ps))
_pipe("padded_batch 2 value 7", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).padded_batch(2, padding_values=_t(tf, 7)))
_pipe("padded_batch 2 value int32", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).padded_batch(
          2, padding_values=tf.constant(7, tf.int32)))
_pipe("rebatch list [2, 1]", "d-batch", lambda tf: tf.data.Dataset.range(7).batch(4).rebatch([2, 1]))
_pipe("rebatch list [0, 2]", "d-batch", lambda tf: tf.data.Dataset.range(7).batch(4).rebatch([0, 2]))
_pipe("rebatch unbatched", "d-batch", lambda tf: tf.data.Dataset.range(7).rebatch(2))
_pipe("unbatch", "d-batch", lambda tf: tf.data.Dataset.range(7).batch(3).unbatch())
_pipe("unbatch drop", "d-batch", lambda tf: tf.data.Dataset.range(7).batch(3, drop_remainder=True).unbatch())
_pipe("unbatch scalars", "d-batch", lambda tf: tf.data.Dataset.range(7).unbatch())
_pipe("unbatch empty rows", "d-batch",
      lambda tf: tf.data.Dataset.from_tensor_slices(np.zeros((3, 0), np.int64)).unbatch())
_pipe("ragged_batch then rebatch [2, 1]", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 7).map(lambda x: tf.range(x)).ragged_batch(4).rebatch([2, 1]))
_pipe("ragged_batch then rebatch [0, 3] drop", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 7).map(lambda x: tf.range(x)).ragged_batch(4).rebatch([0, 3], True))
_pipe("ragged and dense then rebatch 3", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 7).map(lambda x: (tf.range(x), x)).ragged_batch(4).rebatch(3))
_pipe("ragged_batch drop", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 6).map(lambda x: tf.range(x)).ragged_batch(2, drop_remainder=True))
_pipe("ragged_batch int32 splits", "d-batch",
      lambda tf: tf.data.Dataset.range(1, 5).map(lambda x: tf.range(x)).ragged_batch(2, row_splits_dtype=tf.int32))

# -- d-interleave: interleave's cycle, block and parallel options ---------------------------------------------------
_CB = (("None", lambda tf: None), ("0", lambda tf: 0), ("AUTOTUNE", lambda tf: tf.data.AUTOTUNE),
       ("-2", lambda tf: -2), ("1", lambda tf: 1), ("2", lambda tf: 2), ("50", lambda tf: 50),
       ("t2", lambda tf: _t(tf, 2)))
for _cl, _c in _CB:
    for _kl, _k in _CB:
        _pipe(f"interleave cycle={_cl} block={_kl}", "d-interleave",
              lambda tf, c=_c, k=_k: tf.data.Dataset.range(1, 5).interleave(
                  lambda x: tf.data.Dataset.range(10 * x, 10 * x + x), cycle_length=c(tf), block_length=k(tf)),
              iterate=_kl not in ("0", "-2", "AUTOTUNE"))
for _lbl, _n in NPC:
    for _d in DET:
        _pipe(f"interleave cycle=2 block=1 npc={_lbl} det={_d}", "d-interleave",
              lambda tf, n=_n, d=_d: tf.data.Dataset.range(1, 5).interleave(
                  lambda x: tf.data.Dataset.range(10 * x, 10 * x + x), cycle_length=2, block_length=1,
                  num_parallel_calls=n(tf), deterministic=d),
              sort=_d is False)
    _pipe(f"interleave cycle=AUTOTUNE npc={_lbl}", "d-interleave",
          lambda tf, n=_n: tf.data.Dataset.range(1, 5).interleave(
              lambda x: tf.data.Dataset.range(10 * x, 10 * x + x), cycle_length=tf.data.AUTOTUNE,
              num_parallel_calls=n(tf), deterministic=True))
_pipe("flat_map", "d-interleave",
      lambda tf: tf.data.Dataset.range(1, 4).flat_map(lambda x: tf.data.Dataset.range(x)))
_pipe("flat_map empty inner", "d-interleave",
      lambda tf: tf.data.Dataset.range(3).flat_map(lambda x: tf.data.Dataset.range(x).skip(5)))
_pipe("flat_map not a dataset", "d-interleave", lambda tf: tf.data.Dataset.range(3).flat_map(lambda x: x))
_pipe("interleave not a dataset", "d-interleave", lambda tf: tf.data.Dataset.range(3).interleave(lambda x: x))

# -- d-shuffle: shuffle's buffer, seed and reshuffle ----------------------------------------------------------------
_BUF = (("0", lambda tf: 0), ("1", lambda tf: 1), ("AUTOTUNE", lambda tf: tf.data.AUTOTUNE), ("-2", lambda tf: -2),
        ("3", lambda tf: 3), ("100", lambda tf: 100), ("t4", lambda tf: _t(tf, 4)))


def _shuffled(tf: Any, buf: Any, seed: Any, re: Any) -> Any:
    if seed is None:
        tf.random.set_seed(11)
    return tf.data.Dataset.range(9).shuffle(buf(tf), seed=seed, reshuffle_each_iteration=re)


for _ul, _u in _BUF:
    for _s in (None, 7):
        for _r in (None, True, False):
            _pipe(f"shuffle buffer={_ul} seed={_s} reshuffle={_r}", "d-shuffle",
                  lambda tf, u=_u, s=_s, r=_r: _shuffled(tf, u, s, r), twice=True)
_pipe("shuffle seed=tensor 7", "d-shuffle",
      lambda tf: tf.data.Dataset.range(9).shuffle(4, seed=_t(tf, 7)), twice=True)
_pipe("shuffle then repeat 2 seed=7", "d-shuffle",
      lambda tf: tf.data.Dataset.range(5).shuffle(5, seed=7).repeat(2))
_pipe("shuffle then repeat 2 seed=7 no reshuffle", "d-shuffle",
      lambda tf: tf.data.Dataset.range(5).shuffle(5, seed=7, reshuffle_each_iteration=False).repeat(2))
_pipe("shuffle then batch then repeat 2 seed=3", "d-shuffle",
      lambda tf: tf.data.Dataset.range(6).shuffle(100, seed=3).batch(4).repeat(2))

# -- d-counts: repeat, take, skip, shard, enumerate, range, window ---------------------------------------------------
_CNT = (("-1", lambda tf: -1), ("0", lambda tf: 0), ("1", lambda tf: 1), ("3", lambda tf: 3), ("100", lambda tf: 100),
        ("-2", lambda tf: -2), ("t3", lambda tf: _t(tf, 3)), ("t-1", lambda tf: _t(tf, -1)), ("None", lambda tf: None))
for _nl, _c in _CNT:
    _pipe(f"repeat {_nl}", "d-counts", lambda tf, c=_c: tf.data.Dataset.range(3).repeat(c(tf)))
    _pipe(f"take {_nl}", "d-counts", lambda tf, c=_c: tf.data.Dataset.range(5).take(c(tf)))
    _pipe(f"skip {_nl}", "d-counts", lambda tf, c=_c: tf.data.Dataset.range(5).skip(c(tf)))
    _pipe(f"repeat {_nl} of empty", "d-counts", lambda tf, c=_c: tf.data.Dataset.range(0).repeat(c(tf)))
    _pipe(f"take {_nl} of infinite", "d-counts", lambda tf, c=_c: tf.data.Dataset.range(4).repeat().take(c(tf)))
    _pipe(f"skip {_nl} of infinite", "d-counts", lambda tf, c=_c: tf.data.Dataset.range(4).repeat().skip(c(tf)))
    _pipe(f"take {_nl} of filtered", "d-counts",
          lambda tf, c=_c: tf.data.Dataset.range(8).filter(lambda x: x % 2 == 0).take(c(tf)))
    _pipe(f"skip {_nl} of filtered", "d-counts",
          lambda tf, c=_c: tf.data.Dataset.range(8).filter(lambda x: x % 2 == 0).skip(c(tf)))
for _sh in ((2, 0), (2, 1), (2, 2), (2, -1), (0, 0), (1, 0), (-1, 0), (3, 5), (4, 3), (9, 8), (3, -3)):
    _pipe(f"shard {_sh}", "d-counts", lambda tf, sh=_sh: tf.data.Dataset.range(7).shard(*sh))
_pipe("shard tensors (3, 1)", "d-counts", lambda tf: tf.data.Dataset.range(7).shard(_t(tf, 3), _t(tf, 1)))
_pipe("shard tensors (3, 3)", "d-counts", lambda tf: tf.data.Dataset.range(7).shard(_t(tf, 3), _t(tf, 3)))
_pipe("shard of infinite (2, 1)", "d-counts", lambda tf: tf.data.Dataset.range(3).repeat().shard(2, 1))
_pipe("shard of filtered (2, 1)", "d-counts",
      lambda tf: tf.data.Dataset.range(9).filter(lambda x: x > 2).shard(2, 1))
for _st in (0, -3, 5, "t2", 2**62):
    _pipe(f"enumerate start={_st}", "d-counts",
          lambda tf, st=_st: tf.data.Dataset.range(3).enumerate(_t(tf, 2) if st == "t2" else st))
for _rg in ((5,), (2, 5), (5, 2), (5, 2, -1), (0, 10, 3), (2, 2), (0, 5, 0), (-3,), (1, 8, -2)):
    _pipe(f"range {_rg}", "d-counts", lambda tf, rg=_rg: tf.data.Dataset.range(*rg))
_pipe("range int32", "d-counts", lambda tf: tf.data.Dataset.range(4, output_type=tf.int32))
_pipe("range float32", "d-counts", lambda tf: tf.data.Dataset.range(4, output_type=tf.float32))
_pipe("range tensor args", "d-counts", lambda tf: tf.data.Dataset.range(_t(tf, 1), _t(tf, 6), _t(tf, 2)))
_pipe("range name", "d-counts", lambda tf: tf.data.Dataset.range(3, name="r"))
for _w in ((3, None, 1, False), (3, None, 1, True), (3, 2, 1, False), (3, 1, 2, True), (2, 5, 1, False),
           (0, None, 1, False), (3, 0, 1, False), (3, 1, 0, False), (-1, None, 1, False), (3, -1, 1, False),
           (10, None, 1, False), (10, None, 1, True)):
    _pipe(f"window {_w}", "d-counts",
          lambda tf, w=_w: tf.data.Dataset.range(7).window(w[0], shift=w[1], stride=w[2], drop_remainder=w[3])
          .flat_map(lambda d: d.batch(100)))
_pipe("window tensor size", "d-counts",
      lambda tf: tf.data.Dataset.range(7).window(_t(tf, 3), shift=_t(tf, 2), drop_remainder=_t(tf, True))
      .flat_map(lambda d: d.batch(100)))

# -- d-buffers: prefetch, cache, with_options ------------------------------------------------------------------------
for _ul, _u in _BUF + (("None", lambda tf: None),):
    _pipe(f"prefetch {_ul}", "d-buffers", lambda tf, u=_u: tf.data.Dataset.range(5).prefetch(u(tf)))
    _pipe(f"prefetch {_ul} name", "d-buffers", lambda tf, u=_u: tf.data.Dataset.range(5).prefetch(u(tf), name="p"))
_pipe("cache memory twice", "d-buffers", lambda tf: tf.data.Dataset.range(5).map(lambda x: x * x).cache(), twice=True)
_pipe("cache then take then repeat", "d-buffers", lambda tf: tf.data.Dataset.range(5).cache().take(2).repeat(2))
_pipe("cache of shuffled seed 5", "d-buffers",
      lambda tf: tf.data.Dataset.range(6).shuffle(6, seed=5).cache().repeat(2))


def _opts(tf: Any, **kw: Any) -> Any:
    o = tf.data.Options()
    for k, v in kw.items():
        obj = o
        *path, last = k.split("__")
        for p in path:
            obj = getattr(obj, p)
        setattr(obj, last, v)
    return o


for _ok, _ov in (("deterministic", True), ("deterministic", False), ("experimental_slack", True),
                 ("experimental_optimization__map_and_batch_fusion", False),
                 ("experimental_optimization__map_parallelization", True),
                 ("experimental_optimization__parallel_batch", True),
                 ("threading__private_threadpool_size", 1), ("threading__max_intra_op_parallelism", 1),
                 ("autotune__enabled", False), ("experimental_warm_start", True)):
    _pipe(f"with_options {_ok}={_ov} map npc=0 batch", "d-buffers",
          lambda tf, k=_ok, v=_ov: tf.data.Dataset.range(7).map(lambda x: x + 1, num_parallel_calls=0).batch(3)
          .with_options(_opts(tf, **{k: v})))
    _pipe(f"with_options {_ok}={_ov} parallel map", "d-buffers",
          lambda tf, k=_ok, v=_ov: tf.data.Dataset.range(7).map(lambda x: x + 1, num_parallel_calls=2).batch(3)
          .with_options(_opts(tf, **{k: v})), sort=_ok == "deterministic" and _ov is False)
_pipe("with_options name", "d-buffers",
      lambda tf: tf.data.Dataset.range(3).with_options(_opts(tf, deterministic=False), name="o"))
_pipe("with_options threadpool 0", "d-buffers",
      lambda tf: tf.data.Dataset.range(3).with_options(_opts(tf, threading__private_threadpool_size=0)))
_pipe("with_options intra_op -1", "d-buffers",
      lambda tf: tf.data.Dataset.range(3).with_options(_opts(tf, threading__max_intra_op_parallelism=-1)))


def _options_read(tf: Any, mk: Any) -> Any:
    def read() -> Any:
        o = tf.data.Dataset.range(3).map(lambda x: x, num_parallel_calls=2, deterministic=False).options()
        return [o.deterministic, o.experimental_optimization.map_and_batch_fusion, o.autotune.enabled,
                o.threading.private_threadpool_size]
    try:
        return read()
    except Exception as e:  # noqa: BLE001
        return f"raised {_cls(e)}"


case("d-buffers", "options() of a default pipeline", _options_read)

# -- d-functions: filter, scan, reduce, take_while, unique, group_by_window, bucketing, apply ------------------------
_pipe("filter int predicate", "d-functions", lambda tf: tf.data.Dataset.range(5).filter(lambda x: x))
_pipe("filter vector predicate", "d-functions", lambda tf: tf.data.Dataset.range(5).filter(lambda x: tf.stack([x > 1])))
_pipe("filter name", "d-functions", lambda tf: tf.data.Dataset.range(5).filter(lambda x: x > 1, name="f"))
_pipe("scan running sum", "d-functions",
      lambda tf: tf.data.Dataset.range(5).scan(_t(tf, 0), lambda s, x: (s + x, s * 10 + x)))
_pipe("scan state dtype changes", "d-functions",
      lambda tf: tf.data.Dataset.range(5).scan(tf.constant(0, tf.int32), lambda s, x: (x, x)))
_pipe("scan state shape grows", "d-functions",
      lambda tf: tf.data.Dataset.range(3).scan(tf.constant([0], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), s)))
_pipe("take_while", "d-functions", lambda tf: tf.data.Dataset.range(9).take_while(lambda x: x < 4))
_pipe("take_while int predicate", "d-functions", lambda tf: tf.data.Dataset.range(9).take_while(lambda x: x))
_pipe("unique int64", "d-functions",
      lambda tf: tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5], np.int64)).unique())
_pipe("unique float refused", "d-functions", lambda tf: tf.data.Dataset.from_tensor_slices([1.0, 1.0]).unique())
_pipe("unique string", "d-functions", lambda tf: tf.data.Dataset.from_tensor_slices(["a", "b", "a"]).unique())
for _ws in (1, 2, 5, 0, -1, "t2"):
    _pipe(f"group_by_window size={_ws}", "d-functions",
          lambda tf, ws=_ws: tf.data.Dataset.range(11).group_by_window(
              lambda x: x % 3, lambda k, d: d.batch(10), window_size=_t(tf, 2) if ws == "t2" else ws))
_pipe("group_by_window size_func", "d-functions",
      lambda tf: tf.data.Dataset.range(11).group_by_window(lambda x: x % 2, lambda k, d: d.batch(10),
                                                          window_size_func=lambda k: k + 2))
_pipe("group_by_window both sizes", "d-functions",
      lambda tf: tf.data.Dataset.range(11).group_by_window(lambda x: x % 2, lambda k, d: d.batch(10), window_size=2,
                                                          window_size_func=lambda k: k + 2))
_pipe("group_by_window no size", "d-functions",
      lambda tf: tf.data.Dataset.range(11).group_by_window(lambda x: x % 2, lambda k, d: d.batch(10)))
_pipe("group_by_window int32 key", "d-functions",
      lambda tf: tf.data.Dataset.range(11).group_by_window(lambda x: tf.cast(x % 2, tf.int32),
                                                          lambda k, d: d.batch(10), window_size=3))
for _bb, _bs, _kw in (([3, 5], [2, 2, 2], {}), ([3, 5], [2, 2, 2], {"pad_to_bucket_boundary": True}),
                      ([3, 5], [2, 2, 2], {"drop_remainder": True}), ([3, 5], [2, 2], {}),
                      ([5, 3], [2, 2, 2], {}), ([], [3], {}), ([3], [1, 4], {"no_padding": True}),
                      ([3, 5], [2, 2, 2], {"padding_values": np.int64(-1)}),
                      ([2, 7], [2, 2, 2], {"pad_to_bucket_boundary": True})):
    _pipe(f"bucket_by_sequence_length {_bb} {_bs} {sorted(_kw)}", "d-functions",
          lambda tf, bb=_bb, bs=_bs, kw=_kw: tf.data.Dataset.range(1, 9).map(lambda x: tf.range(x % 6 + 1))
          .bucket_by_sequence_length(lambda e: tf.shape(e)[0], bb, bs, **kw))
def _value(key: str, program: str, make: Callable[[Any], Any]) -> None:
    """A case whose result is a value (a nest of tensors): its components, or the refusal's class."""
    def run(tf: Any, mk: Any) -> Any:
        try:
            return [_component(c) for c in tf.nest.flatten(make(tf))]
        except Exception as e:  # noqa: BLE001
            return f"raised {_cls(e)}"
    case(program, key, run)


_value("reduce sum", "d-functions", lambda tf: tf.data.Dataset.range(5).reduce(_t(tf, 0), lambda s, x: s + x))
_value("reduce of empty", "d-functions", lambda tf: tf.data.Dataset.range(0).reduce(_t(tf, 4), lambda s, x: s + x))
_value("reduce dtype changes", "d-functions",
       lambda tf: tf.data.Dataset.range(5).reduce(tf.constant(0, tf.int32), lambda s, x: x))
_value("reduce tuple state", "d-functions",
       lambda tf: tf.data.Dataset.range(5).reduce((_t(tf, 0), _t(tf, 1)), lambda s, x: (s[0] + x, s[1] * (x + 1))))
_value("get_single_element", "d-functions", lambda tf: tf.data.Dataset.range(3).take(1).get_single_element())
_value("get_single_element of two", "d-functions", lambda tf: tf.data.Dataset.range(3).get_single_element())
_value("get_single_element of none", "d-functions", lambda tf: tf.data.Dataset.range(0).get_single_element())
_pipe("apply", "d-functions", lambda tf: tf.data.Dataset.range(5).apply(lambda d: d.skip(2)))
_pipe("apply not a dataset", "d-functions", lambda tf: tf.data.Dataset.range(5).apply(lambda d: 3))

# -- d-combine: zip, concatenate, sample/choose, from_tensor_slices/from_tensors ------------------------------------
_pipe("zip two", "d-combine", lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(3), tf.data.Dataset.range(5, 9)))
_pipe("zip tuple", "d-combine", lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(2))))
_pipe("zip dict", "d-combine",
      lambda tf: tf.data.Dataset.zip({"b": tf.data.Dataset.range(3), "a": tf.data.Dataset.range(4).repeat()}))
_pipe("zip one", "d-combine", lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(3)))
_pipe("zip none", "d-combine", lambda tf: tf.data.Dataset.zip())
_pipe("zip not a dataset", "d-combine", lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(3), 4)))
_pipe("zip name", "d-combine", lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(3),), name="z"))
_pipe("concatenate", "d-combine", lambda tf: tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(7, 9)))
_pipe("concatenate dtype mismatch", "d-combine",
      lambda tf: tf.data.Dataset.range(3).concatenate(tf.data.Dataset.range(2, output_type=tf.int32)))
_pipe("concatenate shapes differ", "d-combine",
      lambda tf: tf.data.Dataset.from_tensors([1, 2]).concatenate(tf.data.Dataset.from_tensors([1, 2, 3])))
_pipe("concatenate structure differs", "d-combine",
      lambda tf: tf.data.Dataset.range(3).concatenate(tf.data.Dataset.zip((tf.data.Dataset.range(2),) * 2)))
_pipe("concatenate infinite", "d-combine",
      lambda tf: tf.data.Dataset.range(3).repeat().concatenate(tf.data.Dataset.range(2)))
for _sw, _ss, _se in ((None, 3, False), ([0.7, 0.3], 3, False), ([1.0, 0.0], 3, False), ([0.5, 0.5], 3, True),
                      ([0.2, 0.2, 0.6], 3, False), ([2.0, 6.0], 4, False), ([-1.0, 1.0], 3, False)):
    _pipe(f"sample_from_datasets w={_sw} seed={_ss} stop={_se}", "d-combine",
          lambda tf, w=_sw, s=_ss, e=_se: tf.data.Dataset.sample_from_datasets(
              [tf.data.Dataset.range(4), tf.data.Dataset.range(100, 110)], weights=w, seed=s, stop_on_empty_dataset=e))
_pipe("sample_from_datasets one", "d-combine",
      lambda tf: tf.data.Dataset.sample_from_datasets([tf.data.Dataset.range(3)], seed=1))
_pipe("sample_from_datasets none", "d-combine", lambda tf: tf.data.Dataset.sample_from_datasets([], seed=1))
for _cc, _ce in (([0, 1, 1, 0, 2], True), ([0, 1, 1, 0, 2], False), ([0, 0, 0, 0, 1], True), ([0, 0, 0, 0, 1], False),
                 ([3, 0], True), ([-1, 0], False)):
    _pipe(f"choose_from_datasets {_cc} stop={_ce}", "d-combine",
          lambda tf, cc=_cc, ce=_ce: tf.data.Dataset.choose_from_datasets(
              [tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12), tf.data.Dataset.range(20, 21)],
              tf.data.Dataset.from_tensor_slices(np.array(cc, np.int64)), stop_on_empty_dataset=ce))
_pipe("choose_from_datasets int32 choices", "d-combine",
      lambda tf: tf.data.Dataset.choose_from_datasets(
          [tf.data.Dataset.range(3)], tf.data.Dataset.from_tensor_slices(np.array([0, 0], np.int32))))
_pipe("from_tensor_slices empty", "d-combine", lambda tf: tf.data.Dataset.from_tensor_slices(np.zeros((0, 2))))
_pipe("from_tensor_slices scalar", "d-combine", lambda tf: tf.data.Dataset.from_tensor_slices(3))
_pipe("from_tensor_slices mismatched", "d-combine",
      lambda tf: tf.data.Dataset.from_tensor_slices(([1, 2], [1, 2, 3])))
_pipe("from_tensor_slices dict name", "d-combine",
      lambda tf: tf.data.Dataset.from_tensor_slices({"x": [1.5, 2.0], "y": [[1], [2]]}, name="s"))
_pipe("from_tensors nested", "d-combine",
      lambda tf: tf.data.Dataset.from_tensors(([1, 2], {"k": 3.5}), name="t").repeat(2))


# -- d-dist: experimental_distribute_dataset / distribute_datasets_from_function under Mirrored(2 CPUs) -------------
def _per_replica(tf: Any, strategy: Any, v: Any) -> Any:
    return [[_component(c) for c in tf.nest.flatten(r)] for r in strategy.experimental_local_results(v)]


def _distributed(tf: Any, mk: Any, make: Callable[[Any, Any], Any], cap: int = 8) -> Any:
    """Each step's per-replica values of a distributed dataset (up to `cap` steps), or the refusal's class (at
    distribution or at iteration)."""
    s = mk()
    try:
        dist = make(tf, s)
    except Exception as e:  # noqa: BLE001
        return f"distribute raised {_cls(e)}"
    got: list[Any] = []
    try:
        for i, v in enumerate(dist):
            if i >= cap:
                break
            got.append(_per_replica(tf, s, v))
    except Exception as e:  # noqa: BLE001
        got.append(f"raised {_cls(e)}")
    return got


def _dd(key: str, build: Callable[[Any], Any], **kw: Any) -> None:
    case("d-dist", f"distribute {key}", lambda tf, mk: _distributed(
        tf, mk, lambda tf_, s: s.experimental_distribute_dataset(build(tf_), **kw)))


for _bl, _b in (("1", 1), ("2", 2), ("3", 3), ("4", 4), ("5", 5), ("8", 8)):
    for _dr in (False, True):
        _dd(f"batch {_bl} drop={_dr}", lambda tf, b=_b, dr=_dr: tf.data.Dataset.range(11).batch(b, drop_remainder=dr))
    _dd(f"map npc=0 batch {_bl}", lambda tf, b=_b: tf.data.Dataset.range(9).map(
        lambda x: x * 2, num_parallel_calls=0).batch(b))
_dd("batch tensor 4", lambda tf: tf.data.Dataset.range(10).batch(_t(tf, 4)))
_dd("batch tensor drop", lambda tf: tf.data.Dataset.range(10).batch(4, drop_remainder=_t(tf, True)))
_dd("padded_batch 4", lambda tf: tf.data.Dataset.range(1, 7).map(lambda x: tf.range(x)).padded_batch(4))
_dd("batch 4 parallel 2", lambda tf: tf.data.Dataset.range(10).batch(4, num_parallel_calls=2, deterministic=True))
_dd("batch 4 then rebatch 2", lambda tf: tf.data.Dataset.range(10).batch(4).rebatch(2))
_dd("batch 4 then prefetch AUTOTUNE", lambda tf: tf.data.Dataset.range(10).batch(4).prefetch(tf.data.AUTOTUNE))
def _seeded(tf: Any, make: Callable[[], Any]) -> Any:
    tf.random.set_seed(65)   # (the global seed this case's shuffle pairs with its op seed: set here, after the
    return make()            # strategy is made, so the case does not depend on what ran before it)


_dd("batch 4 then shuffle seed 2", lambda tf: _seeded(tf, lambda: tf.data.Dataset.range(12).batch(4).shuffle(3, seed=2)))
_dd("batch 4 then repeat 2", lambda tf: tf.data.Dataset.range(6).batch(4).repeat(2))
_dd("batch 4 then take 2", lambda tf: tf.data.Dataset.range(20).batch(4).take(2))
_dd("batch 4 then shard 2 0", lambda tf: tf.data.Dataset.range(20).batch(4).shard(2, 0))
_dd("interleave then batch 4", lambda tf: tf.data.Dataset.range(1, 4).interleave(
    lambda x: tf.data.Dataset.range(x), cycle_length=2, block_length=1).batch(4))
_dd("unbatched", lambda tf: tf.data.Dataset.range(6))
_dd("batch 4 unbatch batch 4", lambda tf: tf.data.Dataset.range(10).batch(4).unbatch().batch(4))
for _rb in (2, 3, 4):
    _dd(f"ragged_batch {_rb}", lambda tf, rb=_rb: tf.data.Dataset.range(1, 8).map(lambda x: tf.range(x)).ragged_batch(rb))
_dd("ragged and dense ragged_batch 3", lambda tf: tf.data.Dataset.range(1, 8).map(
    lambda x: {"r": tf.range(x), "d": x * 2}).ragged_batch(3))


def _dff(key: str, fn: Callable[[Any, Any], Any]) -> None:
    case("d-dist", f"from_function {key}", lambda tf, mk: _distributed(
        tf, mk, lambda tf_, s: s.distribute_datasets_from_function(lambda ctx: fn(tf_, ctx))))


_dff("per-replica batch 2", lambda tf, ctx: tf.data.Dataset.range(8).batch(ctx.get_per_replica_batch_size(4)))
_dff("per-replica batch 3 of 4", lambda tf, ctx: tf.data.Dataset.range(8).batch(ctx.get_per_replica_batch_size(3)))
_dff("shard by pipeline", lambda tf, ctx: tf.data.Dataset.range(8).shard(
    ctx.num_input_pipelines, ctx.input_pipeline_id).batch(2))
_dff("map npc=0 batch 2", lambda tf, ctx: tf.data.Dataset.range(8).map(lambda x: x + 1, num_parallel_calls=0)
     .batch(2, drop_remainder=True))
_dff("replica id in elements", lambda tf, ctx: tf.data.Dataset.range(4).map(
    lambda x: x * 10 + ctx.input_pipeline_id).batch(2))
_dff("unbatched", lambda tf, ctx: tf.data.Dataset.range(4))
_dff("ragged_batch per replica 2", lambda tf, ctx: tf.data.Dataset.range(1, 6).map(lambda x: tf.range(x)).ragged_batch(2))


def _ctx(tf: Any, mk: Any) -> Any:
    s = mk()
    seen: list[Any] = []

    def fn(ctx: Any) -> Any:
        seen.append([ctx.num_input_pipelines, ctx.input_pipeline_id, ctx.num_replicas_in_sync])
        return tf.data.Dataset.range(4).batch(2)
    iter(s.distribute_datasets_from_function(fn))
    return seen


case("d-dist", "from_function contexts", _ctx)


# -- d-slices: slice sources' fast paths, structures kept (the element spec and elements as nests) -------------------
def _leaf(s: Any) -> Any:
    shape = getattr(s, "shape", None)
    return [type(s).__name__, None if shape is None or shape.rank is None else shape.as_list(),
            getattr(getattr(s, "dtype", None), "name", None)]


def observe_nested(tf: Any, build: Callable[[], Any]) -> Any:
    """As `observe`, the element spec and each element kept as their nests (tuples as lists, dicts by key)."""
    try:
        ds = build()
    except Exception as e:  # noqa: BLE001
        return f"construct raised {_cls(e)}"
    out: dict[str, Any] = {"spec": tf.nest.map_structure(_leaf, ds.element_spec), "card": int(ds.cardinality())}
    got: list[Any] = []
    try:
        for i, e in enumerate(ds):
            if i >= CAP:
                break
            got.append(tf.nest.map_structure(_component, e))
    except Exception as e:  # noqa: BLE001
        got.append(f"raised {_cls(e)}")
    out["elements"] = got
    return out


def _nested(key: str, build: Callable[[Any], Any]) -> None:
    case("d-slices", key, lambda tf, mk: observe_nested(tf, lambda: build(tf)))


_ROWS = np.arange(14, dtype=np.int64).reshape(7, 2)
for _bs in (1, 2, 3, 7, 9):
    for _dr in (False, True):
        _nested(f"slices batch {_bs} drop={_dr}", lambda tf, b=_bs, d=_dr: tf.data.Dataset.from_tensor_slices(
            (_ROWS, np.arange(7.0))).batch(b, drop_remainder=d))
        _nested(f"slices padded_batch {_bs} drop={_dr}", lambda tf, b=_bs, d=_dr: tf.data.Dataset.from_tensor_slices(
            _ROWS).padded_batch(b, drop_remainder=d))
        _nested(f"slices padded_batch {_bs} to [3] drop={_dr}", lambda tf, b=_bs, d=_dr: tf.data.Dataset
                .from_tensor_slices(_ROWS).padded_batch(b, padded_shapes=[3], drop_remainder=d))
_nested("six slices batch 2 drop", lambda tf: tf.data.Dataset.from_tensor_slices(_ROWS[:6]).batch(2, True))
_nested("six slices padded_batch 3 drop", lambda tf: tf.data.Dataset.from_tensor_slices(_ROWS[:6]).padded_batch(3, drop_remainder=True))
for _ps in ([2], [1], -1, 3, [None], [-1]):
    _nested(f"slices padded_batch 2 shapes={_ps}", lambda tf, ps=_ps: tf.data.Dataset.from_tensor_slices(_ROWS)
            .padded_batch(2, padded_shapes=ps))
_nested("unbatch later component longer", lambda tf: tf.data.Dataset.range(1).map(
    lambda i: (tf.range(i + 2), tf.range(i + 3))).unbatch())
_nested("unbatch later component shorter", lambda tf: tf.data.Dataset.range(1).map(
    lambda i: (tf.range(i + 3), tf.range(i + 2))).unbatch())
_nested("zip of a tuple", lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(3), tf.data.Dataset.range(4, 6))))
_nested("zip of two", lambda tf: tf.data.Dataset.zip(tf.data.Dataset.range(3), tf.data.Dataset.range(4, 6)))
_nested("zip of a dict and a tuple", lambda tf: tf.data.Dataset.zip(
    {"a": tf.data.Dataset.range(2), "b": (tf.data.Dataset.range(3), tf.data.Dataset.range(5, 8))}))
_nested("zip nested tuple", lambda tf: tf.data.Dataset.zip(((tf.data.Dataset.range(2), tf.data.Dataset.range(2)),
                                                            tf.data.Dataset.range(7, 9))))
_nested("enumerate of a zip", lambda tf: tf.data.Dataset.zip((tf.data.Dataset.range(2), tf.data.Dataset.range(2)))
        .enumerate(3))
# (not observed: the same map then batch fused — TF 2.21's MapAndBatch took the batch shape [2, 2, 2] in one run and
# [2, 4, 1] in another: the shape of whichever element its parallel calls finish first)
_nested("map to shapes of one count then batch unfused", lambda tf: tf.data.Dataset.range(4).map(
    lambda x: tf.reshape(tf.range(4), tf.where(x % 2 == 0, [2, 2], [4, 1]))).batch(2).with_options(
    _opts(tf, experimental_optimization__map_and_batch_fusion=False)))
_nested("map error then batch ignore_errors", lambda tf: tf.data.Dataset.range(6).map(
    lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 2, tf.float32), "e")).batch(2).ignore_errors())
_nested("map error then batch ignore_errors unfused", lambda tf: tf.data.Dataset.range(6).map(
    lambda x: tf.debugging.check_numerics(1.0 / tf.cast(x - 2, tf.float32), "e")).batch(2).ignore_errors()
    .with_options(_opts(tf, experimental_optimization__map_and_batch_fusion=False)))


def _merged_options(tf: Any, mk: Any) -> Any:
    a = tf.data.Dataset.range(2).with_options(_opts(tf, deterministic=False))
    b = tf.data.Dataset.range(2).with_options(_opts(tf, experimental_slack=True,
                                                     threading__private_threadpool_size=3))
    out = {}
    for how, ds in (("zip", tf.data.Dataset.zip(a, b)), ("concatenate", a.concatenate(b)),
                    ("concatenate reversed", b.concatenate(a))):
        o = ds.options()
        out[how] = [o.deterministic, o.experimental_slack, o.threading.private_threadpool_size]
    return out


def _lengths(tf: Any, mk: Any) -> Any:
    out = {}
    for how, make in (("range 5", lambda: tf.data.Dataset.range(5)), ("filtered", lambda: tf.data.Dataset.range(5)
                      .filter(lambda x: x > 1)), ("infinite", lambda: tf.data.Dataset.range(5).repeat()),
                      ("batched", lambda: tf.data.Dataset.range(5).batch(2))):
        try:
            out[how] = len(make())
        except Exception as e:  # noqa: BLE001
            out[how] = f"raised {_cls(e)}"
    return out


case("d-slices", "options merged by zip and concatenate", _merged_options)
case("d-slices", "len", _lengths)


for _name in CASES:
    REF.add(_name, lambda tf, mk, name=_name: json.loads(json.dumps(run_program(name, tf, mk))))
