"""keras.Variable on the code paths the suite had not run (a coverage run of the whole suite on simdist, forty-sixth
session: variables.py 83%, mostly its operators and argument checks): every Python operator of a float, integer and
bool Variable (Keras 3.15's KerasVariable: `&`, `|`, `^` are logical and give bool even of integers, `~` is bitwise,
round() rounds half to even), conversions to Python scalars and NumPy, the constructor's checks (name, aggregation,
synchronization, an initializer without a shape) and initializer forms (a callable returning float64 for a float32
variable), assign of another shape, the regularizer/constraint/overwrite_with_gradient setters, and StatelessScope's
checks and casts (clause keras.variable).

Every expected value, class and message fragment was observed on TF 2.21 + Keras 3.15 (forty-seventh session,
/work/wt/lead47_logs/probe/var_probe.py run beside simdist).
"""

from __future__ import annotations

import numpy as np
import pytest

from simdist.conformance.assertions import to_numpy as _np
from simdist.conformance.suite.outcomes import check

clause = pytest.mark.clause

INF, NAN = float("inf"), float("nan")


def _val(x):
    a = np.asarray(_np(x))
    return [str(a.dtype), a.tolist()]


def _same(got, want) -> bool:
    """Equal values, NaN equal to NaN and the sign of zero compared."""
    g, w = np.asarray(got[1], dtype=object), np.asarray(want[1], dtype=object)
    if got[0] != want[0] or g.shape != w.shape:
        return False
    for a, b in zip(g.ravel().tolist(), w.ravel().tolist()):
        if isinstance(b, float) and b != b:
            if not (isinstance(a, float) and a != a):
                return False
        elif a != b or (isinstance(b, float) and b == 0 and np.copysign(1, a) != np.copysign(1, b)):
            return False
    return True


#: operator -> (function of the Variable [[1.5, -2.0], [3.0, 0.0]] float32, TF 2.21's (dtype, value))
_FLOAT_OPS = {
    "-v": (lambda a: -a, ["float32", [[-1.5, 2.0], [-3.0, -0.0]]]),
    "abs(v)": (lambda a: abs(a), ["float32", [[1.5, 2.0], [3.0, 0.0]]]),
    "+v": (lambda a: +a, ["float32", [[1.5, -2.0], [3.0, 0.0]]]),
    "v == 0.0": (lambda a: a == 0.0, ["bool", [[False, False], [False, True]]]),
    "v != 0.0": (lambda a: a != 0.0, ["bool", [[True, True], [True, False]]]),
    "v < 0.0": (lambda a: a < 0.0, ["bool", [[False, True], [False, False]]]),
    "v <= 0.0": (lambda a: a <= 0.0, ["bool", [[False, True], [False, True]]]),
    "v > 0.0": (lambda a: a > 0.0, ["bool", [[True, False], [True, False]]]),
    "v >= 0.0": (lambda a: a >= 0.0, ["bool", [[True, False], [True, True]]]),
    "v // 2.0": (lambda a: a // 2.0, ["float32", [[0.0, -1.0], [1.0, 0.0]]]),
    "7.0 // v": (lambda a: 7.0 // a, ["float32", [[4.0, -4.0], [2.0, INF]]]),
    "v % 2.0": (lambda a: a % 2.0, ["float32", [[1.5, -0.0], [1.0, 0.0]]]),
    "7.0 % v": (lambda a: 7.0 % a, ["float32", [[1.0, -1.0], [1.0, NAN]]]),
    "v ** 2": (lambda a: a ** 2, ["float32", [[2.25, 4.0], [9.0, 0.0]]]),
    "2.0 ** v": (lambda a: 2.0 ** a, ["float32", [[2.8284270763397217, 0.25], [8.0, 1.0]]]),
    "v / 2.0": (lambda a: a / 2.0, ["float32", [[0.75, -1.0], [1.5, 0.0]]]),
    "1.0 / v": (lambda a: 1.0 / a, ["float32", [[0.6666666865348816, -0.5], [0.3333333432674408, INF]]]),
    "v @ [[1], [2]]": (lambda a: a @ np.array([[1.0], [2.0]], "float32"), ["float32", [[-2.5], [3.0]]]),
    "[[1, 2]] @ v": (lambda a: np.array([[1.0, 2.0]], "float32") @ a, ["float32", [[7.5, -2.0]]]),
    "v[0]": (lambda a: a[0], ["float32", [1.5, -2.0]]),
    "v[:, 1]": (lambda a: a[:, 1], ["float32", [-2.0, 0.0]]),
    "v[1, 0]": (lambda a: a[1, 0], ["float32", 3.0]),
    "v - 1.0": (lambda a: a - 1.0, ["float32", [[0.5, -3.0], [2.0, -1.0]]]),
    "1.0 - v": (lambda a: 1.0 - a, ["float32", [[-0.5, 3.0], [-2.0, 1.0]]]),
    "v * 2": (lambda a: a * 2, ["float32", [[3.0, -4.0], [6.0, 0.0]]]),
    "2 * v": (lambda a: 2 * a, ["float32", [[3.0, -4.0], [6.0, 0.0]]]),
    "v + 1": (lambda a: a + 1, ["float32", [[2.5, -1.0], [4.0, 1.0]]]),
    "1 + v": (lambda a: 1 + a, ["float32", [[2.5, -1.0], [4.0, 1.0]]]),
    "np.array(v)": (lambda a: np.array(a), ["float32", [[1.5, -2.0], [3.0, 0.0]]]),
}

#: operator -> (function of the Variable [5, -3, 8] int32, TF 2.21's (dtype, value))
_INT_OPS = {
    "v // 2": (lambda a: a // 2, ["int32", [2, -2, 4]]),
    "v % 3": (lambda a: a % 3, ["int32", [2, 0, 2]]),
    "v & 6": (lambda a: a & 6, ["bool", [True, True, True]]),
    "v | 1": (lambda a: a | 1, ["bool", [True, True, True]]),
    "v ^ 3": (lambda a: a ^ 3, ["bool", [False, False, False]]),
    "~v": (lambda a: ~a, ["int32", [-6, 2, -9]]),
}

#: operator -> (function of the Variable [True, False, True] bool, TF 2.21's (dtype, value))
_BOOL_OPS = {
    "v & [T, T, F]": (lambda a: a & np.array([True, True, False]), ["bool", [True, False, False]]),
    "[T, T, F] & v": (lambda a: np.array([True, True, False]) & a, ["bool", [True, False, False]]),
    "v | False": (lambda a: a | False, ["bool", [True, False, True]]),
    "False | v": (lambda a: False | a, ["bool", [True, False, True]]),
    "v ^ True": (lambda a: a ^ True, ["bool", [False, True, False]]),
    "True ^ v": (lambda a: True ^ a, ["bool", [False, True, False]]),
    "~v": (lambda a: ~a, ["bool", [False, True, False]]),
}

#: operator -> (function of the Variable [1.25, -2.55, 0.0] float32, TF 2.21's (dtype, value))
_FLOAT_LOGIC = {
    "v & 0.0": (lambda a: a & 0.0, ["bool", [False, False, False]]),
    "v & 2.0": (lambda a: a & 2.0, ["bool", [True, True, False]]),
    "1 ^ v": (lambda a: 1 ^ a, ["bool", [False, False, True]]),
    "round(v)": (lambda a: round(a), ["float32", [1.0, -3.0, 0.0]]),
    "round(v, 1)": (lambda a: round(a, 1), ["float32", [1.2000000476837158, -2.5999999046325684, 0.0]]),
}


@clause("keras.variable", ref="tf221")
@pytest.mark.parametrize("table,values,dtype", [
    (_FLOAT_OPS, [[1.5, -2.0], [3.0, 0.0]], "float32"), (_INT_OPS, [5, -3, 8], "int32"),
    (_BOOL_OPS, [True, False, True], "bool"), (_FLOAT_LOGIC, [1.25, -2.55, 0.0], "float32")],
    ids=["float", "int", "bool", "float-logic"])
def test_keras_variable_operators(keras, table, values, dtype):
    """Each Python operator of a keras.Variable gives TF 2.21's dtype and value (NaN and the sign of zero
    compared)."""
    wrong = []
    for what, (fn, want) in table.items():
        v = keras.Variable(np.array(values, dtype), dtype=dtype)
        try:
            got = _val(fn(v))
        except Exception as e:  # noqa: BLE001 - the class is the observation
            got = [type(e).__name__, str(e)[:120]]
        if not _same(got, want):
            wrong.append(f"{what}: expected {want}, got {got}")
    assert not wrong, f"{len(wrong)} of {len(table)} operators of a {dtype} keras.Variable differ from TF 2.21:\n" + \
        "\n".join(wrong)


@clause("keras.variable", ref="tf221")
def test_keras_variable_conversions_and_refusals(keras):
    """Python conversions, the operators Keras does not define, and `~` of a float, as TF 2.21 + Keras 3.15."""
    V = keras.Variable
    iv = V(np.array([5, -3, 8], "int32"), dtype="int32")
    check("bool(Variable(1.0))", lambda: bool(V(1.0)), "TypeError", "A Keras Variable cannot be used as a boolean.")
    check("int(Variable(3.7))", lambda: int(V(3.7)), "ok", want_value=3)
    check("float(Variable(3))", lambda: float(V(3)), "ok", want_value=3.0)
    check("int(Variable([1.0, 2.0]))", lambda: int(V([1.0, 2.0])), "TypeError",
          "Only scalar arrays can be converted to Python scalars. Got: shape=(2,)")
    check("float(Variable([1.0, 2.0]))", lambda: float(V([1.0, 2.0])), "TypeError", "Only scalar arrays can be converted")
    check("int Variable << 1", lambda: iv << 1, "TypeError", "unsupported operand type(s) for <<")
    check("int Variable >> 1", lambda: iv >> 1, "TypeError", "unsupported operand type(s) for >>")
    check("~ of a float32 Variable", lambda: ~V(np.array([1.0], "float32")), "InvalidArgumentError",
          "Value for attr 'T' of float is not in the list of allowed values")


@clause("keras.variable", ref="tf221")
def test_keras_variable_construction_and_setters(keras):
    """The constructor's argument checks and initializer forms, assign of another shape, and the setters' checks."""
    V = keras.Variable
    check("Variable(1.0, name='a/b')", lambda: V(1.0, name="a/b"), "ValueError",
          "Argument `name` must be a string and cannot contain character `/`. Received: name=a/b")
    check("Variable(1.0, aggregation='avg')", lambda: V(1.0, aggregation="avg"), "ValueError",
          "Invalid value for argument `aggregation`. Expected one of `None`, `'none'`, `'mean'`, `'sum'`, "
          "`'only_first_replica'`. Received: aggregation=avg")
    check("Variable(1.0, synchronization='sometimes')", lambda: V(1.0, synchronization="sometimes"), "ValueError",
          "Invalid value for argument `synchronization`. Expected one of `None`, `'none'`, `'on_read'`, `'on_write'`, "
          "`'auto'`. Received: synchronization=sometimes")
    check("aggregation and synchronization, given and default",
          lambda: [V(1.0, aggregation="mean").aggregation, V(1.0).aggregation, V(1.0).synchronization,
                   V(1.0, synchronization="on_read").synchronization], "ok",
          want_value=["mean", "none", "auto", "on_read"])
    check("Variable(Ones())", lambda: V(keras.initializers.Ones()), "ValueError",
          "When creating a Variable from an initializer, the `shape` argument should be specified.")
    check("Variable(Ones(), shape=(2,))", lambda: _val(V(keras.initializers.Ones(), shape=(2,))), "ok",
          want_value=["float32", [1.0, 1.0]])
    check("Variable('zeros', shape=(2,))", lambda: _val(V("zeros", shape=(2,))), "ok",
          want_value=["float32", [0.0, 0.0]])
    check("Variable(a callable returning float64, shape=(2,), dtype='float32')",
          lambda: _val(V(lambda shape, dtype: np.full(shape, 2.0), shape=(2,), dtype="float32")), "ok",
          want_value=["float32", [2.0, 2.0]])

    def v():
        return V(np.array([[1.5, -2.0], [3.0, 0.0]], "float32"))

    def assign_other_shape():
        v().assign(np.ones((3, 2), "float32"))

    check("assign of a (3, 2) value to a (2, 2) Variable", assign_other_shape, "ValueError",
          "The shape of the target variable and the shape of the target value in `variable.assign(value)` must match.")

    def assign_sub():
        a = v()
        a.assign_sub(np.ones((2, 2), "float32"))
        return _val(a)

    check("assign_sub(ones)", assign_sub, "ok", want_value=["float32", [[0.5, -3.0], [2.0, -1.0]]])

    def set_attr(name, value):
        a = v()
        setattr(a, name, value)
        return getattr(a, name)

    check("overwrite_with_gradient = 1", lambda: set_attr("overwrite_with_gradient", 1), "TypeError",
          "`overwrite_with_gradient` must be a boolean. Received: 1")
    check("overwrite_with_gradient = True", lambda: set_attr("overwrite_with_gradient", True), "ok", want_value=True)
    check("regularizer = 3", lambda: set_attr("regularizer", 3), "ValueError",
          "Invalid value for attribute `regularizer`. Expected a callable")
    check("constraint = 'x'", lambda: set_attr("constraint", "x"), "ValueError",
          "Invalid value for attribute `constraint`. Expected a callable")
    check("regularizer = L2(0.1)", lambda: type(set_attr("regularizer", keras.regularizers.L2(0.1))).__name__, "ok",
          want_value="L2")
    check("constraint = NonNeg()", lambda: type(set_attr("constraint", keras.constraints.NonNeg())).__name__, "ok",
          want_value="NonNeg")

    def props():
        a = V(np.zeros((2, 3)), dtype="float16", name="w", trainable=False)
        return [a.name, a.path, str(a.dtype), list(a.shape), a.ndim, a.trainable]

    check("name, path, dtype, shape, ndim, trainable", props, "ok", want_value=["w", "w", "float16", [2, 3], 2, False])


@clause("keras.variable", ref="tf221")
def test_stateless_scope_checks_and_casts(keras):
    """StatelessScope reads a mapped variable's value (cast to its dtype) and refuses a key that is not a Variable
    and a value of another shape."""
    def v():
        return keras.Variable(np.array([[1.5, -2.0], [3.0, 0.0]], "float32"))

    def read(value, fn):
        a = v()
        with keras.StatelessScope(state_mapping=[(a, value)]):
            return _val(fn(a))

    check("a + 1.0 with a mapped to zeros", lambda: read(np.zeros((2, 2), "float32"), lambda a: a + 1.0), "ok",
          want_value=["float32", [[1.0, 1.0], [1.0, 1.0]]])
    check("a.value with a mapped to float64 ones", lambda: read(np.ones((2, 2), "float64"), lambda a: a.value), "ok",
          want_value=["float32", [[1.0, 1.0], [1.0, 1.0]]])
    check("a mapped to a (3,) value", lambda: read(np.zeros((3,), "float32"), lambda a: a), "ValueError",
          "Invalid variable value in StatelessScope: all values in argument `mapping` must be tensors with a shape "
          "that matches the corresponding variable")

    def bad_key():
        with keras.StatelessScope(state_mapping=[(np.zeros(2), np.zeros(2))]):
            pass

    check("an array as a StatelessScope key", bad_key, "ValueError",
          "Invalid reference variable in StatelessScope: all keys in argument `mapping` must be Variable instances.")
