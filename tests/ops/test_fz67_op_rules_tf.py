"""Fresh-seed fuzzer classes of single ops' rules (fz67; each test names its clause and seed). TopKV2's k = 1 is
Eigen's max reduction, and bfloat16's packets are Packet8bf (8 lanes) as float16's, so a row holding NaN keeps the
packet lanes' maximum (fz54b --rare seed 67501 #1: top_k of a bfloat16 row with NaN gave 49.25 for TF's inf). A
builtin's reflected operator given TF's graph tensor (`int32 scalar * [1.5, 2.0]` inside tf.function) finds no
__index__: Mul's TypeError, where eagerly the list repeats (fz62gen seed 67405 #3). A complex product with an operand
given transposed and k = 1 (einsum 'i,j->ij', whose EinsumOp passes trans_x) is Eigen's lazy product when m + k + n
< 20: the sum starts from x's first product when x is transposed, so a -0.0 part stays (fz54b --rare seed 67502 #0).
Ragged from_value_rowids counts its rows by DenseBincount of the int32 rowids: a negative one is InvalidArgumentError
where nothing validated it (stack_dynamic_partitions of a scalar partition -2; fz62gen seed 67407 #4); lu_solve's
batch shapes broadcast by BroadcastArgs (#0). A MatMul of constants inside tf.function is folded by Grappler with
Eigen's kernel, not oneDNN's (bfloat16/float16; fz62gen seed 67412 #2, yuv_to_rgb of a bfloat16 constant).
Compared: value (floats with their zeros' signs where the class is a sign), or error class and message."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import pytest

import case_classes
import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _topk(dt: str, n: int, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        pool = np.array([np.nan, np.inf, -np.inf, 1.0, -1.0, 0.0, 74.0, 49.25, 3e38, -2.0], np.float32)
        rows = np.random.default_rng(seed).choice(pool, size=(4, n))
        v, i = tf.nn.top_k(tf.cast(tf.constant(rows), getattr(tf, dt)), k=1)
        return tf.cast(v, tf.float32), i
    return run


def _reflected(expr: str, traced: bool) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        def f() -> Any:
            x = tf.reshape(tf.constant([-2], tf.int32), [])   # noqa: F841 - read by expr
            y = tf.constant(3, tf.int32)                        # noqa: F841
            return eval(expr)
        return tf.function(f, autograph=False)() if traced else f()
    return run


def _signs(v: Any) -> Any:
    import numpy as np
    a = v.numpy()
    return a, np.signbit(a.real), np.signbit(a.imag)


def _cmatmul(dt: str, m: int, k: int, n: int, ta: bool, tb: bool, adj: bool, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        rng = np.random.default_rng(seed)
        pool = np.array([-0.1, 0.0, -0.0, 0.5, -2.0])
        sa, sb = (k, m) if ta else (m, k), (n, k) if tb else (k, n)
        a = tf.constant(rng.choice(pool, sa) + 1j * rng.choice(pool, sa), getattr(tf, dt))
        b = tf.constant(rng.choice(pool, sb) + 1j * rng.choice(pool, sb), getattr(tf, dt))
        if adj:
            return _signs(tf.matmul(a, b, adjoint_a=ta, adjoint_b=tb))
        return _signs(tf.matmul(a, b, transpose_a=ta, transpose_b=tb))
    return run


def _einsum(dt: str, eq: str, sa: tuple, sb: tuple, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        rng = np.random.default_rng(seed)
        pool = np.array([-0.1, 0.0, -0.0, 0.5, -2.0])
        a = tf.constant(rng.choice(pool, sa) + 1j * rng.choice(pool, sa), getattr(tf, dt))
        b = tf.constant(rng.choice(pool, sb) + 1j * rng.choice(pool, sb), getattr(tf, dt))
        return _signs(tf.einsum(eq, a, b))
    return run


def _text(expr: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        return eval(expr)
    return run


def _folded(dt: str, m: int, k: int, n: int, tb: bool, batched: bool, seed: int) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        import numpy as np
        rng = np.random.default_rng(seed)
        a = rng.uniform(-3, 3, (m, k)).astype(np.float32)
        b = rng.uniform(-3, 3, (n, k) if tb else (k, n)).astype(np.float32)
        if batched:
            a, b = a[None], b[None]
        folded = tf.function(lambda: tf.matmul(tf.cast(tf.constant(a), dt), tf.cast(tf.constant(b), dt),
                                               transpose_b=tb))
        arg = tf.function(lambda x, y: tf.matmul(x, y, transpose_b=tb))
        return (tf.cast(folded(), tf.float32),
                tf.cast(arg(tf.cast(tf.constant(a), dt), tf.cast(tf.constant(b), dt)), tf.float32))
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _dt in ("bfloat16", "float16", "float32"):
    for _n in (1, 3, 7, 8, 9, 15, 16, 17, 24, 33):
        _CASES[f"topk1/{_dt}/{_n}"] = _topk(_dt, _n, 6700 + _n)
for _e in ("x * [1.5, 2.0, -1.0]", "x * (1.5, 2.0)", "x * 'ab'", "y * [0.5]", "x + [1.5, 2.0]"):
    _CASES[f"reflected/{_e}/eager"] = _reflected(_e, False)
    _CASES[f"reflected/{_e}/traced"] = _reflected(_e, True)
_s = 0
for _dt in ("complex64", "complex128"):
    for _m, _k, _n in ((1, 1, 4), (4, 1, 1), (3, 1, 5), (9, 1, 9), (12, 1, 4), (17, 1, 1), (2, 1, 17), (1, 2, 4),
                       (5, 2, 1), (3, 3, 2)):
        for _ta, _tb, _adj in ((False, False, False), (True, False, False), (False, True, False), (True, True, False),
                               (True, False, True), (False, True, True)):
            _s += 1
            _CASES[f"cmatmul/{_dt}/{_m}x{_k}x{_n}/ta{_ta:d}tb{_tb:d}adj{_adj:d}"] = \
                _cmatmul(_dt, _m, _k, _n, _ta, _tb, _adj, 67000 + _s)
    for _eq, _sa, _sb in (("i,j->ij", (4,), (4,)), ("i,j->ij", (2,), (17,)), ("i,j->ij", (9,), (8,)),
                          ("ij,jk->ik", (4, 1), (1, 4)), ("bi,bj->bij", (2, 3), (2, 4)), ("i,j->ji", (5,), (3,))):
        _s += 1
        _CASES[f"ceinsum/{_dt}/{_eq}/{_sa}{_sb}"] = _einsum(_dt, _eq, _sa, _sb, 67000 + _s)
_RAGGED = {f"sdp/{p}": f"tf.ragged.stack_dynamic_partitions(tf.reshape(tf.constant(['a'] * 12), [3, 2, 2]), {p}, 4)"
           for p in ("tf.constant(-2, tf.int64)", "tf.constant(-1)", "tf.constant(1, tf.int64)", "tf.constant(5)",
                     "tf.constant([0, 1, 2])")}
_RAGGED |= {f"rowids/{r}": f"tf.RaggedTensor.from_value_rowids([1, 2, 3], {r}, nrows=3, validate=False)"
            for r in ("[0, -1, 2]", "[-1, 0, 0]", "tf.constant([0, 0, 5], tf.int64)", "[0, 1, 1]")}
_LU = {f"lu/{f}/{p}": f"tf.linalg.{f}(tf.reshape(tf.constant([1.5, 0.5, 0.25, 3, 2.0, 1.0, 0.5, 4.0]), [2, 2, 2]), "
                       f"{p}{', tf.ones([2, 2, 1])' if f == 'lu_solve' else ''})"
       for f in ("lu_matrix_inverse", "lu_solve")
       for p in ("tf.zeros([3, 3], tf.int32)", "tf.constant([[0, 1], [1, 0]])", "tf.zeros([1, 2], tf.int32)",
                 "tf.zeros([2, 2, 2], tf.int32)")}
for _k, _t in (_RAGGED | _LU).items():
    _CASES[f"args/{_k}"] = _text(_t)
for _dt in ("bfloat16", "float16"):
    for _m, _k, _n in ((3, 3, 3), (2, 5, 4), (6, 9, 3), (1, 7, 5), (4, 1, 4)):
        for _tb in (False, True):
            for _b in (False, True):
                _s += 1
                _CASES[f"folded/{_dt}/{_m}x{_k}x{_n}/tb{_tb:d}/{'batched' if _b else 'plain'}"] = \
                    _folded(_dt, _m, _k, _n, _tb, _b, 67000 + _s)
_CASES["folded/yuv_to_rgb/bfloat16"] = _text(
    "tf.cast(tf.function(lambda: tf.image.yuv_to_rgb(tf.cast(tf.reshape(tf.constant([-0.0, -2.875, -1, -0.0, 0.5, "
    "0.0, 0.0, 1.0, -2.75, 2, 0.5, 0.0, -2.375, -0.0, -2, 0.0, -0.0, 1.0]), [2, 3, 3]), tf.bfloat16)))(), "
    "tf.float32)")
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz67_rules_auto_)\d+"))
# (TF's graph-build message names the list it could not convert; the class is the rule)
_CLASS_ONLY = re.compile(r"^reflected/.*/traced$")


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


def _check(tf_results: dict[int, Any], prefix: str) -> None:
    TABLE.check(tf_results, lambda lab: lab.startswith(prefix) and not _CLASS_ONLY.search(lab))
    traced = [lab for lab in TABLE.labels if lab.startswith(prefix) and _CLASS_ONLY.search(lab)]
    if traced:
        case_classes.check_classes(TABLE, tf_results, lambda lab: lab in traced)


@pytest.mark.clause("ops.sort")
def test_top_k_one_bfloat16_packet_lanes_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "topk1/")


@pytest.mark.clause("ops.reflected-retry")
def test_builtin_reflected_operator_of_a_graph_tensor_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "reflected/")


@pytest.mark.clause("ops.complex-gebp-order")
def test_complex_lazy_product_with_transposes_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "cmatmul/")
    _check(tf_results, "ceinsum/")


@pytest.mark.clause("ops.argument-errors")
def test_rowids_bincount_and_lu_batch_broadcast_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "args/")


@pytest.mark.clause("function.grappler-rewrites")
def test_folded_half_matmul_is_eigens_as_tf(tf_results: dict[int, Any]) -> None:
    _check(tf_results, "folded/")


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
