"""Keras's dtype promotion, weak Python numbers, keras.Variable's operators and attention by rule (sixty-second
session, ysweep62; ysweep62_cases.py): keras.ops.add over every pair of operand kinds (tensors of twelve dtypes, Python
int/float/bool/complex, NumPy scalars and arrays) in both orders, 22 more binary functions over tensor dtypes × Python
numbers, a keras.Variable of nine dtypes under its Python operators against numbers, tensors and another variable
(and read inside a layer's call under mixed_float16/mixed_bfloat16, autocast on and off), keras.ops.
dot_product_attention over its options in four dtypes, MultiHeadAttention/Attention/AdditiveAttention/
GroupQueryAttention over theirs, and summaries of models with thousands to millions of parameters: result dtypes and
values bit for bit against TF 2.21's recorded results (`python -m simdist.conformance.suite.test_ysweep62 --record`
rewrites ysweep62_reference.json.gz; the `yk-` attention programs are host-dependent, recorded on this session's
AVX-512 Xeon with oneDNN on). OPEN (ysweep62_cases.py) lists the cases left out, with the evidence."""

from __future__ import annotations

from typing import Any

import pytest

from simdist.conformance.suite.ysweep62_cases import REF

_check, _ids = REF.check, REF.ids


@pytest.mark.clause("keras.ops.dtype-promotion")
@pytest.mark.parametrize("name", _ids("y-promo-") + _ids("yk-promo-"))
def test_ysweep62_promotion_of_operand_kinds(backend: Any, name: str) -> None:
    """keras.ops binary functions over tensors of every dtype, Python numbers (weak), NumPy scalars and arrays, both
    operand orders, and unary functions over the same kinds: the result dtype and its bits, or the refusal's
    class."""
    _check(backend, name)


@pytest.mark.clause("keras.variable")
@pytest.mark.parametrize("name", _ids("y-var-"))
def test_ysweep62_variable_operators(backend: Any, name: str) -> None:
    """A keras.Variable's Python operators, conversions and autocast reads against numbers, tensors and variables:
    the result dtype and its bits, or the refusal's class."""
    _check(backend, name)


@pytest.mark.clause("keras.mha.values")
@pytest.mark.parametrize("name", _ids("yk-attn-") + ["y-attn-args"])
def test_ysweep62_attention_by_option(backend: Any, name: str) -> None:
    """dot_product_attention (scale, is_causal, masks, bias, flash_attention, dtypes) and the attention layers
    (MultiHeadAttention's dims, bias, output_shape, attention_axes, dropout, masks, policies; Attention,
    AdditiveAttention, GroupQueryAttention): outputs and scores bit for bit."""
    _check(backend, name)


@pytest.mark.clause("keras.model.summary")
def test_ysweep62_summaries_of_large_models(backend: Any) -> None:
    """Summaries of models whose layers hold 996 to 12,345,000 parameters: the separators and byte sizes, line for
    line."""
    _check(backend, "y-summary")


assert sorted(_ids("y-promo-") + _ids("yk-promo-") + _ids("y-var-") + _ids("yk-attn-") + ["y-attn-args", "y-summary"]) == sorted(REF.programs)

if __name__ == "__main__":
    import sys
    if "--record" in sys.argv:
        REF.record()
