"""tf.math.divide's node named by its `name` (clause function.grappler-rewrites, fz64: fz54b seed 64101 #6, a
traced `add_n([divide(v27, v28, name='n28'), v103, v104, v104])` of int32 v27, v28 one ulp off in float64). TF 2.21's
math_ops.divide with a name is `DivideDelegateWithName(x, name) / y`, whose _truediv_python3 opens
`name_scope(name, "truediv")` and names the RealDiv by it: inside tf.function the node is `n28` (its casts `n28/Cast`,
`n28/Cast_1`), and Grappler sorts an AddN's inputs by their nodes' names before the kernel forwards the first free
buffer, so the sum's order follows the name. simdist named an integer division's RealDiv `RealDiv` (upper case, sorting
before every argument). Compared: the traced sums' bits, against arguments whose names sort before and after."""

from __future__ import annotations

import os
import re
from typing import Any, Callable

import numpy as np
import pytest

import case_results
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]

_DTYPES = ("int32", "int64", "int8", "uint16", "float64", "float32")
_NAMES = ("n28", "a0", "zz", "Q", "none")
_FORMS = ("q_x_y_y", "q_x_y", "x_q_y_y", "q_x_y_y_returned", "pyscalar")


def _case(dt: str, name: str, form: str, keys: str) -> Callable[[Any], Any]:
    def run(tf: Any) -> Any:
        rs = np.random.RandomState(64)
        n = 48
        a = tf.constant(rs.randint(-1000, 1000, n).astype(dt) if dt.startswith("int") or dt.startswith("uint")
                        else (rs.standard_normal(n) * 100).astype(dt))
        if dt.startswith("uint"):
            a = tf.constant(rs.randint(0, 1000, n).astype(dt))
        b = tf.constant(np.array(7, dt))
        fdt = np.float32 if dt in ("int8", "uint16", "float32") else np.float64
        x = tf.constant((rs.standard_normal(n) * 10.0 ** rs.randint(-3, 4, n)).astype(fdt))
        y = tf.constant((rs.standard_normal(n) * 10.0 ** rs.randint(-3, 4, n)).astype(fdt))
        nm = None if name == "none" else name
        k = ("v27", "v28", "v103", "v104") if keys == "v" else ("p", "b", "c", "d")

        def body(d: dict) -> Any:
            q = tf.math.divide(3, d[k[1]], name=nm) if form == "pyscalar" else tf.math.divide(d[k[0]], d[k[1]], name=nm)
            xs = {"q_x_y_y": [q, d[k[2]], d[k[3]], d[k[3]]], "q_x_y": [q, d[k[2]], d[k[3]]],
                  "x_q_y_y": [d[k[2]], q, d[k[3]], d[k[3]]], "q_x_y_y_returned": [q, d[k[2]], d[k[3]], d[k[3]]],
                  "pyscalar": [q, d[k[2]], d[k[3]], d[k[2]]]}[form]
            if form == "pyscalar":
                xs = [tf.cast(q, fdt) * tf.ones_like(d[k[2]]) + 0.0] + xs[1:]
            s = tf.math.add_n(xs)
            return (s, q) if form == "q_x_y_y_returned" else s
        r = tf.function(body, autograph=False)(dict(zip(k, (a, b, x, y))))
        s = r[0] if isinstance(r, tuple) else r
        return [s.dtype.name, np.asarray(s.numpy()).view(np.uint64 if s.dtype.name == "float64" else np.uint32).tolist()]
    return run


_CASES: dict[str, Callable[[Any], Any]] = {}
for _d in _DTYPES:
    for _n in _NAMES:
        for _f in _FORMS:
            for _k in ("v", "p"):
                _CASES[f"{_d}/{_n}/{_f}/{_k}"] = _case(_d, _n, _f, _k)
TABLE = case_results.Table(__file__, _CASES, re.compile(r"(fz64_divide_auto_)\d+"))


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return TABLE.tf_results()


@pytest.mark.clause("function.grappler-rewrites")
def test_named_divide_orders_a_traced_add_n_by_its_name(tf_results: dict[int, Any]) -> None:
    TABLE.check(tf_results, lambda lab: True)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(TABLE.tf_worker)
    os._exit(0)
