"""Python and NumPy operands at their range ends beside tensors (sixtieth session, nsweep60; nsweep60_cases.py): the
binary ops and operators (+ - * / // % ** and their reflected forms, tf.add ... div_no_nan, the comparisons), tf.where's
scalar branches, clip_by_value's bounds, tf.fill and assign_add/assign_sub, crossed by rule with the operand's form
(Python float, int, bool, NumPy float16/32/64 and int32/64 scalars, a 0-d tensor, a one-element list; left and right),
its value (zeros of either sign in sequences, through TF's eager scalar cache; subnormals of float64, float32 and the
half types; values that round to a subnormal or overflow in the tensor's dtype; int extremes; +-inf and NaN), the
tensor's dtype (float16, bfloat16, float32, float64, int8 ... uint64) and the mode (eager, traced — Grappler's folds
of constant operands —, the gradient w.r.t. the tensor), compared bit for bit with TF 2.21's recorded results (a
refusal's exception class included; `python -m simdist.conformance.suite.test_nsweep60 --record` rewrites
nsweep60_reference.json.gz). Recorded on this session's AVX-512 Xeon with oneDNN on: simdist runs the programs under
its reference model on any CPU. OPEN (nsweep60_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.nsweep60_cases import FLOATS, INTS, REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("ops.scalar-cache")
@pytest.mark.parametrize("name", _ids("n-zeros-"))
def test_nsweep60_zero_operands_in_sequences(backend: Any, name: str) -> None:
    """0.0 and -0.0 in every operand form beside float tensors, one sign first then the other then the first again
    (TF's eager scalar cache hands the first Python zero on), through every binary op and operator on either side;
    int 0 and False; tf.constant/convert_to_tensor/fill after an op took a zero; the ops traced: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("function.grappler-rewrites")
@pytest.mark.parametrize("name", _ids("n-folds-"))
def test_nsweep60_constant_operand_folds_and_gradients(backend: Any, name: str) -> None:
    """x * 1, x + 0, x - (-0.0), x * 0, x / 1, x ** 1, x ** 0, x ** +-0.5, 2, 3 and mirrors (Python float, int,
    tensor constants) over +-0, +-inf and NaN, eager and inside a tf.function (Grappler's folds and ConvertPow), and
    their gradients: TF 2.21's bits."""
    _check(backend, name)


@pytest.mark.clause("ops.subnormals")
@pytest.mark.parametrize("name", _ids("n-small-") + _ids("n-large-"))
def test_nsweep60_subnormal_overflowing_and_nonfinite_operands(backend: Any, name: str) -> None:
    """Subnormals of float64, float32 and the half types, values rounding to a subnormal or overflowing in the
    tensor's dtype, +-inf and NaN, in every operand form, through every op, eager, traced and in gradients: TF 2.21's
    bits."""
    _check(backend, name)


@pytest.mark.clause("ops.conversion")
@pytest.mark.parametrize("name", _ids("n-ints-"))
def test_nsweep60_int_extremes_beside_every_dtype(backend: Any, name: str) -> None:
    """Python ints at int32/int64/uint64's and the narrow types' ends, big ints into the half types, True, NumPy int
    scalars and lists, beside tensors of every float and int dtype, eager and traced: values or refusal classes, TF
    2.21's."""
    _check(backend, name)


@pytest.mark.clause("ops.conversion")
@pytest.mark.parametrize("name", _ids("n-others-"))
def test_nsweep60_where_clip_fill_and_assign(backend: Any, name: str) -> None:
    """tf.where's scalar branches, clip_by_value's bounds, tf.fill's value and Variable.assign_add/assign_sub of
    Python and NumPy numbers at range ends, every dtype: TF 2.21's values or refusal classes."""
    _check(backend, name)


assert len(REF.programs) == 4 * len(FLOATS) + 2 * (len(FLOATS) + len(INTS))

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
