"""Raw ops the thirty-fourth session's survey found missing, added in the thirty-seventh (clause ops.raw-ops): the
serialized SparseTensors (SerializeSparse, SerializeManySparse, DeserializeSparse, DeserializeManySparse; string
form), SparseCrossHashed, DecodeJSONExample and the stateless summary kernels (ScalarSummary, HistogramSummary,
MergeSummary, TensorSummaryV2) and the tfdbg kernels that publish nothing (DebugIdentity, DebugNanCount,
DebugGradientIdentity, DebugNumericSummary, DebugNumericSummaryV2), the eager fast path's list inputs, and
SdcaFprint, and ops TF 2.21's CPU build has no kernel for (BoostedTrees*, TPU*, Xla*ND, SparseCore COO, XlaSparseDenseMatmul*), each against real TensorFlow 2.21: the same raw call on both
backends gives the same dtype and values bit for bit (the serialized protos byte for byte), or raises the same
exception class; eagerly, inside a tf.function (the shape functions' trace-time refusals) and under a
GradientTape (TF registers no gradient for any of them). Needs the `tf` extra.

Host independence: the floating-point work compared here is correctly rounded conversions (JSON numbers and
summary values to float32) and HistogramSummary's sequential double sums (no FMA in TF's build, none in Python's),
so the recorded answers hold on any host.
"""

from __future__ import annotations

from typing import Any

import pytest

import edge_compare
from raw_programs import eager as _eager, tape as _tape, traced as _traced
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]
clause = pytest.mark.clause

_RO = "ops.raw-ops"


def _i(v: str) -> str:
    return f"tf.constant({v}, tf.int64)"


def _ss(ind: str, vals: str, shape: str, op: str = "SerializeSparse", extra: str = "") -> str:
    return f"R.{op}(sparse_indices={ind}, sparse_values={vals}, sparse_shape={shape}{extra})"


def _sm(ind: str, vals: str, shape: str, extra: str = "") -> str:
    return _ss(ind, vals, shape, "SerializeManySparse", extra)


_A = _ss(_i("[[2, 3], [0, 1]]"), "tf.constant([1.5, 2.5])", _i("[3, 4]"))
_B = _ss(_i("[[1, 0]]"), "tf.constant([7.0])", _i("[2, 5]"))
_C = _ss(_i("[[1, 0]]"), "tf.constant([7])", _i("[2, 5]"))
_D = _ss(_i("[[1]]"), "tf.constant([7.0])", _i("[2]"))
_M = _sm(_i("[[0, 1, 1], [2, 0, 0], [2, 3, 1], [3, 0, 0]]"), "tf.constant([1, 2, 3, 4])", _i("[4, 4, 2]"))


def _ds(s: str, dt: str = "tf.float32", op: str = "DeserializeSparse") -> str:
    return f"R.{op}(serialized_sparse={s}, dtype={dt})"


def _dm(s: str, dt: str = "tf.float32") -> str:
    return _ds(s, dt, "DeserializeManySparse")


def _ser(t: str) -> str:
    """A TensorProto's bytes (SerializeTensor: strings as string_val, others as content)."""
    return f"R.SerializeTensor(tensor={t}).numpy()"


def _rows(*protos: str) -> str:
    return f"tf.constant([{', '.join(protos)}])"


_SERIAL_CASES: list[tuple[str, str, Any]] = [
    ('SerializeSparse float32', _RO, _eager(_A)),
    ('SerializeSparse strings (content as EncodeStringList)', _RO, _eager(_ss(_i("[[0, 1], [2, 3]]"), "tf.constant(['ab', ''])", _i("[3, 4]")))),
    ('SerializeSparse long strings (varint lengths)', _RO, _eager(_ss(_i("[[0], [2]]"), "tf.constant(['q' * 130, ''])", _i("[3]")))),
    ('SerializeSparse empty int32', _RO, _eager(_ss("tf.zeros([0, 2], tf.int64)", "tf.constant([], tf.int32)", _i("[3, 4]")))),
    ('SerializeSparse bool', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([True, False])", _i("[2]")))),
    ('SerializeSparse bfloat16', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([1.5, -2.0], tf.bfloat16)", _i("[2]")))),
    ('SerializeSparse float16', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([1.5, -2.0], tf.float16)", _i("[2]")))),
    ('SerializeSparse complex128', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([1 + 2j, -3j], tf.complex128)", _i("[2]")))),
    ('SerializeSparse uint64, int8', _RO, _eager(f"[{_ss(_i('[[0], [1]]'), 'tf.constant([1, 2 ** 63], tf.uint64)', _i('[2]'))}, {_ss(_i('[[0]]'), 'tf.constant([-5], tf.int8)', _i('[2]'))}]")),
    ('SerializeSparse a scalar SparseTensor', _RO, _eager(_ss("tf.zeros([1, 0], tf.int64)", "tf.constant([37])", "tf.zeros([0], tf.int64)"))),
    ('SerializeSparse counts and bounds unchecked', _RO, _eager(_ss(_i("[[0], [7]]"), "tf.constant([1.0, 2.0, 3.0])", _i("[3, -4]")))),
    ('SerializeSparse indices a vector', _RO, _eager(_ss(_i("[0, 1]"), "tf.constant([1.5, 2.5])", _i("[3]")))),
    ('SerializeSparse values a matrix', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([[1.5, 2.5]])", _i("[3]")))),
    ('SerializeSparse shape a scalar', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([1.5, 2.5])", _i("3")))),
    ('SerializeSparse int32 indices', _RO, _eager(_ss("tf.constant([[0], [1]])", "tf.constant([1.5, 2.5])", _i("[3]")))),
    ('SerializeSparse out_type int32', _RO, _eager(_ss(_i("[[0], [1]]"), "tf.constant([1.5, 2.5])", _i("[3]"), extra=", out_type=tf.int32"))),
    ('SerializeSparse in a tf.function', _RO, _traced(_A)),
    ('SerializeSparse indices a vector in a tf.function', _RO, _traced(_ss(_i("[0, 1]"), "tf.constant([1.5, 2.5])", _i("[3]")))),
    ('SerializeSparse shape a scalar in a tf.function', _RO, _traced(_ss(_i("[[0], [1]]"), "tf.constant([1.5, 2.5])", _i("3")))),
    ('SerializeSparse under a tape (no gradient)', _RO, _tape(_ss(_i("[[0], [1]]"), "x", _i("[3]")), "tf.constant([1.5, 2.5])")),
    ('SerializeManySparse float32 (empty rows)', _RO, _eager(_sm(_i("[[0, 1], [2, 0], [2, 3]]"), "tf.constant([1.5, 2.5, 3.5])", _i("[4, 4]")))),
    ('SerializeManySparse strings rank 3', _RO, _eager(_sm(_i("[[0, 1, 1], [2, 0, 0], [2, 3, 1]]"), "tf.constant(['a', 'bb', ''])", _i("[3, 4, 2]")))),
    ('SerializeManySparse no entries', _RO, _eager(_sm("tf.zeros([0, 3], tf.int64)", "tf.constant([], tf.float64)", _i("[2, 4, 1]")))),
    ('SerializeManySparse no rows', _RO, _eager(_sm("tf.zeros([0, 2], tf.int64)", "tf.constant([], tf.float32)", _i("[0, 4]")))),
    ('SerializeManySparse rank 1', _RO, _eager(_sm(_i("[[0], [2]]"), "tf.constant([1.5, 2.5])", _i("[4]")))),
    ('SerializeManySparse negative dim', _RO, _eager(_sm(_i("[[0, 1]]"), "tf.constant([1.5])", _i("[4, -4]")))),
    ('SerializeManySparse counts', _RO, _eager(_sm(_i("[[0, 1], [2, 3]]"), "tf.constant([1.5, 2.5, 3.0])", _i("[4, 4]")))),
    ('SerializeManySparse index and shape ranks', _RO, _eager(_sm(_i("[[0, 1], [2, 3]]"), "tf.constant([1.5, 2.5])", _i("[4, 4, 4]")))),
    ('SerializeManySparse out of bounds', _RO, _eager(_sm(_i("[[0, 1], [5, 0]]"), "tf.constant([1.5, 2.5])", _i("[4, 4]")))),
    ('SerializeManySparse out of order', _RO, _eager(_sm(_i("[[0, 1], [0, 0]]"), "tf.constant([1.5, 2.5])", _i("[4, 4]")))),
    ('SerializeManySparse repeated', _RO, _eager(_sm(_i("[[0, 1], [0, 1]]"), "tf.constant([1.5, 2.5])", _i("[4, 4]")))),
    ('SerializeManySparse in a tf.function', _RO, _traced(_sm(_i("[[0, 1], [2, 0], [2, 3]]"), "tf.constant([1.5, 2.5, 3.5])", _i("[4, 4]")))),
    ('SerializeManySparse values a matrix in a tf.function', _RO, _traced(_sm(_i("[[0, 1]]"), "tf.constant([[1.5]])", _i("[4, 4]")))),
    ('SerializeManySparse rank 1 in a tf.function', _RO, _traced(_sm(_i("[[0], [2]]"), "tf.constant([1.5, 2.5])", _i("[4]")))),
    ('DeserializeSparse one (returned as is, unordered)', _RO, _eager(_ds(_A))),
    ('DeserializeSparse strings', _RO, _eager(_ds(_ss(_i("[[0, 1], [2, 3]]"), "tf.constant(['x', 'yz'])", _i("[3, 4]")), "tf.string"))),
    ('DeserializeSparse two (concatenated in order, largest dims)', _RO, _eager(_ds(f"tf.stack([{_A}, {_B}])"))),
    ('DeserializeSparse of SerializeManySparse reshaped [2, 2, 3]', _RO, _eager(_ds(f"tf.reshape({_M}, [2, 2, 3])", "tf.int32"))),
    ('DeserializeSparse indices out of bounds kept, reshaped', _RO, _eager(_ds(f"tf.reshape(tf.stack([{_ss(_i('[[0, 9]]'), 'tf.constant([1.5])', _i('[3, 4]'))}] * 4), [2, 2, 3])"))),
    ('DeserializeSparse of string_val protos', _RO, _eager(_ds(_rows(_ser(_i("[[0]]")), _ser("tf.constant(['q'])"), _ser(_i("[2]"))), "tf.string"))),
    ('DeserializeSparse typed-list values padded', _RO, _eager(_ds("tf.constant([b'\\x08\\t\\x12\\x08\\x12\\x02\\x08\\x01\\x12\\x02\\x08\\x01', b'\\x08\\x01\\x12\\x04\\x12\\x02\\x08\\x01', b'\\x08\\t\\x12\\x04\\x12\\x02\\x08\\x01'])"))),
    ('DeserializeSparse dtype mismatch', _RO, _eager(_ds(f"tf.stack([{_A}, {_C}])"))),
    ('DeserializeSparse ranks differ', _RO, _eager(_ds(f"tf.stack([{_A}, {_D}])"))),
    ('DeserializeSparse scalar', _RO, _eager(_ds("tf.constant('x')"))),
    ('DeserializeSparse last dim 2', _RO, _eager(_ds("tf.constant([['a', 'b']])"))),
    ('DeserializeSparse no rows', _RO, _eager(_ds("tf.zeros([0, 3], tf.string)"))),
    ('DeserializeSparse not a proto', _RO, _eager(_ds("tf.constant(['a', 'b', 'c'])"))),
    ('DeserializeSparse empty protos (no tensor)', _RO, _eager(_ds("tf.constant(['', '', ''])"))),
    ('DeserializeSparse content of the wrong size', _RO, _eager(_ds("tf.constant([b'\\x08\\t\\x12\\x08\\x12\\x02\\x08\\x01\\x12\\x02\\x08\\x01\"\\x08\\x01\\x00\\x00', b'', b''])"))),
    ('DeserializeSparse bad string list', _RO, _eager(_ds("tf.constant([b'\\x08\\t\\x12\\x08\\x12\\x02\\x08\\x01\\x12\\x02\\x08\\x01', b'\\x08\\x07\\x12\\x04\\x12\\x02\\x08\\x01\"\\x03\\x05ab', b'\\x08\\t\\x12\\x04\\x12\\x02\\x08\\x01'])", "tf.string"))),
    ('DeserializeSparse indices a vector', _RO, _eager(_ds(_rows(_ser(_i("[0]")), _ser("tf.constant(['q'])"), _ser(_i("[2]"))), "tf.string"))),
    ('DeserializeSparse values a matrix', _RO, _eager(_ds(_rows(_ser(_i("[[0]]")), _ser("tf.constant([['q']])"), _ser(_i("[2]"))), "tf.string"))),
    ('DeserializeSparse shape a scalar', _RO, _eager(_ds(_rows(_ser(_i("[[0]]")), _ser("tf.constant(['q'])"), _ser(_i("2"))), "tf.string"))),
    ('DeserializeSparse counts', _RO, _eager(_ds(f"tf.stack([{_ss(_i('[[0, 1]]'), 'tf.constant([1.5, 3.0])', _i('[3, 4]'))}])"))),
    ('DeserializeSparse columns and shape size', _RO, _eager(_ds(f"tf.stack([{_ss(_i('[[0, 1]]'), 'tf.constant([1.5])', _i('[3, 4, 5]'))}])"))),
    ('DeserializeSparse int32 input', _RO, _eager(_ds("tf.constant([1, 2, 3])"))),
    ('DeserializeSparse in a tf.function', _RO, _traced(_ds(f"tf.reshape({_M}, [2, 2, 3])", "tf.int32"))),
    ('DeserializeSparse scalar in a tf.function', _RO, _traced(_ds("tf.constant('x')"))),
    ('DeserializeSparse last dim 2 in a tf.function', _RO, _traced(_ds("tf.constant([['a', 'b']])"))),
    ('DeserializeManySparse', _RO, _eager(_dm(_M, "tf.int32"))),
    ('DeserializeManySparse of a vector (the same kernel)', _RO, _eager(_dm(_A))),
    ('DeserializeManySparse rank 3 input', _RO, _eager(_dm(f"tf.reshape({_M}, [2, 2, 3])", "tf.int32"))),
    ('DeserializeManySparse dtype mismatch', _RO, _eager(_dm(_M))),
    ('DeserializeManySparse int32 input', _RO, _eager(_dm("tf.constant([[1, 2, 3]])"))),
    ('DeserializeManySparse in a tf.function', _RO, _traced(_dm(_M, "tf.int32"))),
    ('DeserializeManySparse a vector in a tf.function', _RO, _traced(_dm(_A))),
    ('DeserializeManySparse last dim 2 in a tf.function', _RO, _traced(_dm("tf.constant([['a', 'b']])"))),
    ('DeserializeSparse under a tape (no gradient)', _RO, _tape(f"{_ds('x')}[1] * 2.0", f"tf.stack([{_A}, {_B}])")),
]


def _sch(sparse: list[tuple[str, str, str]], dense: list[str], buckets: str = "0", strong: str = "False",
         salt: str = "[1, 2]") -> str:
    ind = ", ".join(_i(s[0]) for s in sparse)
    vals = ", ".join(s[1] for s in sparse)
    shapes = ", ".join(_i(s[2]) for s in sparse)
    return (f"R.SparseCrossHashed(indices=[{ind}], values=[{vals}], shapes=[{shapes}], dense_inputs=[{', '.join(dense)}], "
            f"num_buckets=tf.constant({buckets}, tf.int64), strong_hash=tf.constant({strong}), "
            f"salt=tf.constant({salt}, tf.int64))")


_S1 = ("[[0, 0], [1, 0], [1, 1]]", "tf.constant(['a', 'b', 'c'])", "[2, 2]")
_S2 = ("[[0, 0], [1, 0], [1, 1]]", "tf.constant([5, 6, -7], tf.int64)", "[2, 2]")
_S3 = ("[[0, 0], [1, 0]]", "tf.constant(['d', 'e'])", "[2, 1]")
_DI = "tf.constant([[3], [4]], tf.int64)"
_DS = "tf.constant([['x'], ['y']])"

_CROSS_CASES: list[tuple[str, str, Any]] = [
    ('SparseCrossHashed strings and dense int64', _RO, _eager(_sch([_S1], [_DI]))),
    ('SparseCrossHashed int64 (Fingerprint64 of four bytes) and dense strings', _RO, _eager(_sch([_S2], [_DS]))),
    ('SparseCrossHashed one sparse int64 column', _RO, _eager(_sch([_S2], []))),
    ('SparseCrossHashed dense int64 only, negative buckets', _RO, _eager(_sch([], ["tf.constant([[3, 9], [-4, 2 ** 40]], tf.int64)"], "-5"))),
    ('SparseCrossHashed 100 buckets', _RO, _eager(_sch([_S2], [_DI], "100", salt="[137, 173]"))),
    ('SparseCrossHashed a row without features', _RO, _eager(_sch([_S1, ("[[1, 0]]", "tf.constant(['z'])", "[2, 1]")], [_DS]))),
    ('SparseCrossHashed strong hash, two string columns', _RO, _eager(_sch([_S1, _S3], [], strong="True"))),
    ('SparseCrossHashed strong hash, int64 (SipHash of four bytes)', _RO, _eager(_sch([_S2], [], strong="True"))),
    ('SparseCrossHashed strong hash, dense strings', _RO, _eager(_sch([], [_DS], "7", "True", "[-1, 2 ** 62]"))),
    ('SparseCrossHashed strong hash, 10 buckets', _RO, _eager(_sch([_S1], [], "10", "True", "[-1, 2 ** 62]"))),
    ('SparseCrossHashed salt of 3', _RO, _eager(_sch([_S1], [], salt="[1, 2, 3]"))),
    ('SparseCrossHashed batch sizes', _RO, _eager(_sch([("[[0, 0]]", "tf.constant(['a'])", "[3, 2]")], [_DI]))),
    ('SparseCrossHashed float values', _RO, _eager(_sch([("[[0, 0]]", "tf.constant([1.0])", "[2, 2]")], []))),
    ('SparseCrossHashed indices of 3 columns', _RO, _eager(_sch([("[[0, 0, 0]]", "tf.constant(['a'])", "[2, 2]")], []))),
    ('SparseCrossHashed in a tf.function', _RO, _traced(_sch([_S1, _S3], [_DS], "0", "True"))),
    ('SparseCrossHashed salt a matrix in a tf.function', _RO, _traced(_sch([_S1], [], strong="True", salt="[[1, 2]]"))),
    ('SparseCrossHashed indices a vector in a tf.function', _RO, _traced(_sch([("[0, 0]", "tf.constant(['a', 'b'])", "[2, 2]")], []))),
]


def _dj(text: str) -> str:
    return f"R.DecodeJSONExample(json_examples=tf.constant({text!r}))"


_FEAT = '{"features": {"feature": {"a": {"int64List": {"value": ["1", 2]}}, "b": {"bytesList": {"value": ["eHk="]}}, "c": {"floatList": {"value": [1.5, -2]}}}}}'
_JSON_CASES: list[tuple[str, str, Any]] = [
    ('DecodeJSONExample three kinds', _RO, _eager(_dj([_FEAT]))),
    ('DecodeJSONExample map order as given', _RO, _eager(_dj('{"features": {"feature": {"b": {"bytesList": {"value": ["eHk="]}}, "a": {"int64List": {"value": ["1", 2]}}}}}'))),
    ('DecodeJSONExample empties', _RO, _eager(_dj(['{}', '{"features": {}}', '{"features": {"feature": {}}}', '{"features": {"feature": {"a": {}}}}', '{"features": {"feature": {"a": {"floatList": {}}}}}', '{"features": {"feature": {"a": {"floatList": {"value": []}}}}}']))),
    ('DecodeJSONExample nulls', _RO, _eager(_dj(['{"features": null}', '{"features": {"feature": {"a": null}}}']))),
    ('DecodeJSONExample a matrix, snake_case names, lone value, whitespace', _RO, _eager(_dj([['{}', '{"features": {"feature": {"z": {"int64_list": {"value": [-1, 1e2, "-3"]}}}}}'], [' {"features": {"feature": {"a": {"int64List": {"value": 5}}}}} ', '{"features": {"feature": {"": {"bytes_list": {"value": "eHk"}}}}}']]))),
    ('DecodeJSONExample floats', _RO, _eager(_dj('{"features": {"feature": {"a": {"floatList": {"value": ["1.5", "NaN", "Infinity", "-Infinity", 3.4028235e38, 1e-50, 16777217, 0.1, -0.0]}}}}}'))),
    ('DecodeJSONExample int64 extremes', _RO, _eager(_dj('{"features": {"feature": {"a": {"int64List": {"value": [-9223372036854775808, "9223372036854775807", 4294967296]}}}}}'))),
    ('DecodeJSONExample base64 web-safe, unpadded, empty', _RO, _eager(_dj('{"features": {"feature": {"a": {"bytesList": {"value": ["eHk", "-_8=", ""]}}}}}'))),
    ('DecodeJSONExample features twice', _RO, _eager(_dj('{"features":{"feature":{"a":{"int64List":{"value":[]}}}},"features":{}}'))),
    ('DecodeJSONExample not JSON', _RO, _eager(_dj('not json'))),
    ('DecodeJSONExample unknown field', _RO, _eager(_dj('{"bogus": 1}'))),
    ('DecodeJSONExample fractional int64', _RO, _eager(_dj('{"features": {"feature": {"a": {"int64List": {"value": [1.5]}}}}}'))),
    ('DecodeJSONExample int64 out of range', _RO, _eager(_dj('{"features": {"feature": {"a": {"int64List": {"value": ["9223372036854775808"]}}}}}'))),
    ('DecodeJSONExample bool for int64', _RO, _eager(_dj('{"features": {"feature": {"a": {"int64List": {"value": [true]}}}}}'))),
    ('DecodeJSONExample float out of range', _RO, _eager(_dj('{"features": {"feature": {"a": {"floatList": {"value": [1e40]}}}}}'))),
    ('DecodeJSONExample bare NaN', _RO, _eager(_dj('{"features": {"feature": {"a": {"floatList": {"value": [NaN]}}}}}'))),
    ('DecodeJSONExample corrupt base64', _RO, _eager(_dj('{"features": {"feature": {"a": {"bytesList": {"value": ["not base64!"]}}}}}'))),
    ('DecodeJSONExample two kinds', _RO, _eager(_dj('{"features": {"feature": {"a": {"int64List": {"value": [1]}, "floatList": {"value": [2]}}}}}'))),
    ('DecodeJSONExample repeated key', _RO, _eager(_dj('{"features": {"feature": {"a": {"int64List": {"value": [1]}}, "a": {"floatList": {"value": [2]}}}}}'))),
    ('DecodeJSONExample feature a list', _RO, _eager(_dj('{"features": {"feature": []}}'))),
    ('DecodeJSONExample trailing characters', _RO, _eager(_dj('{"features": {}} x'))),
    ('DecodeJSONExample second element bad', _RO, _eager(_dj(['{"features": {}}', 'bad']))),
    ('DecodeJSONExample int32 input', _RO, _eager("R.DecodeJSONExample(json_examples=tf.constant(3))")),
    ('DecodeJSONExample in a tf.function', _RO, _traced(_dj([_FEAT, '{}']))),
]



def _v(expr: str) -> str:
    """A scalar string result as a vector (object values: trailing NUL bytes compared too)."""
    return f"tf.reshape({expr}, [-1])"


def _scs(tags: str, values: str) -> str:
    return _v(f"R.ScalarSummary(tags=tf.constant({tags}), values={values})")


def _hs(values: str, tag: str = "'h'") -> str:
    return _v(f"R.HistogramSummary(tag=tf.constant({tag}), values={values})")


def _ts(tensor: str, meta: str = "''", tag: str = "'t'") -> str:
    return _v(f"R.TensorSummaryV2(tag=tf.constant({tag}), tensor={tensor}, serialized_summary_metadata=tf.constant({meta}))")


def _ms(*inputs: str) -> str:
    return _v(f"R.MergeSummary(inputs=[{', '.join(inputs)}])")


_SC = "R.ScalarSummary(tags=tf.constant(['a', 'bb']), values=tf.constant([1.5, 0.0]))"
_HI = "R.HistogramSummary(tag=tf.constant('h'), values=tf.constant([1.0, -2.5]))"
_SUMMARY_CASES: list[tuple[str, str, Any]] = [
    ('ScalarSummary float32 (a zero value written)', _RO, _eager(_scs("['a', 'bb']", "tf.constant([1.5, 0.0])"))),
    ('ScalarSummary scalar int64', _RO, _eager(_scs("'a'", "tf.constant(3, tf.int64)"))),
    ('ScalarSummary empty tag, int64 rounded to float', _RO, _eager(_scs("['', 'x']", "tf.constant([2 ** 40 + 1, -1], tf.int64)"))),
    ('ScalarSummary matrix float64, bfloat16, uint64', _RO, _eager("[" + ", ".join([_scs("[['a'], ['b']]", "tf.constant([[1.0], [1e300]], tf.float64)"), _scs("['a']", "tf.constant([1.5], tf.bfloat16)"), _scs("['a']", "tf.constant([2 ** 64 - 1], tf.uint64)")]) + "]")),
    ('ScalarSummary one tag, two values', _RO, _eager(_scs("['a']", "tf.constant([1.0, 2.0])"))),
    ('ScalarSummary two tags, one value', _RO, _eager(_scs("['a', 'b']", "tf.constant([1.0])"))),
    ('ScalarSummary scalar tag, vector value', _RO, _eager(_scs("'a'", "tf.constant([1.0])"))),
    ('ScalarSummary bool values', _RO, _eager(_scs("['a', 'b']", "tf.constant([True, False])"))),
    ('ScalarSummary in a tf.function', _RO, _traced(_scs("['a', 'bb']", "tf.constant([1.5, -0.0])"))),
    ('ScalarSummary shapes in a tf.function', _RO, _traced(_scs("['a', 'b']", "tf.constant([1.0])"))),
    ('ScalarSummary under a tape (not differentiable: None)', _RO, _tape("R.ScalarSummary(tags=tf.constant('a'), values=x)", "tf.constant(1.5)")),
    ('HistogramSummary float32', _RO, _eager(_hs("tf.constant([1.0, 2.0, 2.5, -3.0, 0.0, 1e-13])"))),
    ('HistogramSummary empty', _RO, _eager(_hs("tf.constant([], tf.float32)"))),
    ('HistogramSummary int32 matrix', _RO, _eager(_hs("tf.constant([[1, 5], [7, 1000000]], tf.int32)"))),
    ('HistogramSummary float64 wide range', _RO, _eager(_hs("tf.constant([1e30, -1e25, 0.1, 0.3, 1e-300, -0.0], tf.float64)"))),
    ('HistogramSummary seeded normal values', _RO, _eager(_hs("tf.constant(np.random.default_rng(7).normal(size=200), tf.float64)"))),
    ('HistogramSummary tag a vector', _RO, _eager(_hs("tf.constant([1.0])", "['h']"))),
    ('HistogramSummary NaN', _RO, _eager(_hs("tf.constant([1.0, float('nan')])"))),
    ('HistogramSummary infinity', _RO, _eager(_hs("tf.constant([1.0, -float('inf')])"))),
    ('HistogramSummary in a tf.function', _RO, _traced(_hs("tf.constant([0.5, 0.25, 4.0], tf.float16)"))),
    ('MergeSummary of two', _RO, _eager(_ms(_SC, _HI))),
    ('MergeSummary of a vector', _RO, _eager(_ms("tf.stack([R.ScalarSummary(tags=tf.constant('a'), values=tf.constant(1.5)), R.ScalarSummary(tags=tf.constant('b'), values=tf.constant(2.5))])"))),
    ('MergeSummary duplicate tag', _RO, _eager(_ms(_SC, "R.ScalarSummary(tags=tf.constant('bb'), values=tf.constant(2.5))"))),
    ('MergeSummary empty tags repeat', _RO, _eager(_ms("R.ScalarSummary(tags=tf.constant(''), values=tf.constant(1.5))", "R.ScalarSummary(tags=tf.constant(''), values=tf.constant(0.0))"))),
    ('MergeSummary not a proto', _RO, _eager(_ms("tf.constant('garbage')"))),
    ('MergeSummary bad UTF-8 tag', _RO, _eager(_ms("tf.constant(b'\\x0a\\x03\\x0a\\x01\\xff')"))),
    ('MergeSummary empty strings, unknown field kept', _RO, _eager(_ms("tf.constant([['', '']])", "tf.constant(b'\\x0a\\x05\\x0a\\x01a\\x18\\x05')"))),
    ('MergeSummary a TensorSummaryV2', _RO, _eager(_ms(_SC, "R.TensorSummaryV2(tag=tf.constant('t'), tensor=tf.constant([1, 2]), serialized_summary_metadata=tf.constant(''))"))),
    ('MergeSummary in a tf.function', _RO, _traced(_ms(_SC, _HI))),
    ('TensorSummary (V1: node name and tensor only)', _RO, _eager("[" + ", ".join(_v(f"R.TensorSummary(tensor={t})") for t in ("tf.constant([1.0])", "tf.constant(['a']), description='d', labels=['x'], display_name='dn'", "tf.constant([[1, 2]], tf.int64), name='foo'")) + "]")),
    ('TensorSummary in a tf.function', _RO, _traced(_v("R.TensorSummary(tensor=tf.constant([1.0]))"))),
    ('MergeSummary of TensorSummary (no tag: repeats allowed)', _RO, _eager(_ms("R.TensorSummary(tensor=tf.constant([1.0]))", "R.TensorSummary(tensor=tf.constant([2.0]))"))),
    ('TensorSummaryV2 float32 matrix, empty metadata', _RO, _eager(_ts("tf.constant([[1.5, 2.0]])"))),
    ('TensorSummaryV2 strings (string_val), metadata', _RO, _eager(_ts("tf.constant(['x', 'yz'])", "b'\\n\\x08\\n\\x06scalar\\x12\\x02dn'"))),
    ('TensorSummaryV2 metadata not a proto', _RO, _eager(_ts("tf.constant(3)", "b'garbage'"))),
    ('TensorSummaryV2 metadata re-serialized', _RO, _eager(_ts("tf.constant(3)", "b'\\x22\\x01\\x01\\x1a\\x03abc\\x12\\x01z\\x20\\x00'"))),
    ('TensorSummaryV2 metadata parsed up to a bad field', _RO, _eager(_ts("tf.constant(True)", "b'\\x12\\x01z\\x0f\\x1a\\x01a'"))),
    ('TensorSummaryV2 tag a vector', _RO, _eager(_ts("tf.constant(3)", tag="['t']"))),
    ('TensorSummaryV2 metadata a vector', _RO, _eager(_ts("tf.constant(3)", "['', '']"))),
    ('TensorSummaryV2 in a tf.function', _RO, _traced(_ts("tf.constant([1.0, 2.0], tf.float64)", "b'\\x12\\x01z'"))),
]



def _dn(x: str, mode: int, extra: str = "") -> str:
    return f"R.DebugNumericSummaryV2(input={x}, tensor_debug_mode={mode}{extra})"


_X6 = "tf.constant([1.0, -2.0, 0.0, float('nan'), float('inf'), 3.0])"
_DEBUG_CASES: list[tuple[str, str, Any]] = [
    ('DebugIdentity default tensor name', _RO, _eager("R.DebugIdentity(input=tf.constant([1.0, 2.0]))")),
    ('DebugIdentity strings', _RO, _eager("R.DebugIdentity(input=tf.constant(['a']), device_name='x', tensor_name='t')")),
    ('DebugIdentity node:slot', _RO, _eager("R.DebugIdentity(input=tf.constant([1, 2]), tensor_name='n:-1')")),
    ('DebugIdentity bad slot', _RO, _eager("R.DebugIdentity(input=tf.constant([1.0]), tensor_name='n:x')")),
    ('DebugIdentity three items', _RO, _eager("R.DebugIdentity(input=tf.constant([1.0]), tensor_name='n:0:1')")),
    ('DebugIdentity empty slot', _RO, _eager("R.DebugIdentity(input=tf.constant([1.0]), tensor_name='n:')")),
    ('DebugIdentity gated (empty output)', _RO, _eager("R.DebugIdentity(input=tf.constant([[1.0, 2.0]]), tensor_name='n:0', gated_grpc=True)")),
    ('DebugIdentity in a tf.function', _RO, _traced("R.DebugIdentity(input=tf.constant([1.0, 2.0]), tensor_name='n')")),
    ('DebugIdentity under a tape (no gradient)', _RO, _tape("R.DebugIdentity(input=x, tensor_name='n') * 2.0", "tf.constant([1.0, 2.0])")),
    ('DebugNanCount float32', _RO, _eager("R.DebugNanCount(input=tf.constant([1.0, float('nan'), float('nan')]), tensor_name='n')")),
    ('DebugNanCount int32, bfloat16, float16', _RO, _eager("[R.DebugNanCount(input=tf.constant([1, 2]), tensor_name='n'), R.DebugNanCount(input=tf.constant([[float('nan')]], tf.bfloat16), tensor_name='n'), R.DebugNanCount(input=tf.constant([float('nan'), 1.0], tf.float16), tensor_name='n')]")),
    ('DebugNanCount gated', _RO, _eager("R.DebugNanCount(input=tf.constant([float('nan')]), tensor_name='n', gated_grpc=True)")),
    ('DebugNanCount default tensor name', _RO, _eager("R.DebugNanCount(input=tf.constant([1.0]))")),
    ('DebugNanCount bool (no kernel)', _RO, _eager("R.DebugNanCount(input=tf.constant([True]), tensor_name='n')")),
    ('DebugNanCount in a tf.function', _RO, _traced("R.DebugNanCount(input=tf.constant([1.0, float('nan')]), tensor_name='n')")),
    ('DebugGradientIdentity', _RO, _eager("[R.DebugGradientIdentity(input=tf.constant(['a'])), R.DebugGradientIdentity(input=tf.constant([1 + 1j]))]")),
    ('DebugGradientIdentity under a tape (its gradient needs a debugger: AttributeError)', _RO, _tape("R.DebugGradientIdentity(input=x) * x", "tf.constant([1.5, -2.0])")),
    ('DebugNumericSummary float32', _RO, _eager(f"R.DebugNumericSummary(input={_X6}, tensor_name='n')")),
    ('DebugNumericSummary int32 matrix, bool, uint8, scalar', _RO, _eager("[R.DebugNumericSummary(input=tf.constant([[1, 2], [3, 4]]), tensor_name='n'), R.DebugNumericSummary(input=tf.constant([True, False]), tensor_name='n'), R.DebugNumericSummary(input=tf.constant([1, 2], tf.uint8), tensor_name='n'), R.DebugNumericSummary(input=tf.constant(3.0), tensor_name='n')]")),
    ('DebugNumericSummary empty, signed zeros', _RO, _eager("[R.DebugNumericSummary(input=tf.constant([], tf.float32), tensor_name='n'), R.DebugNumericSummary(input=tf.constant([-0.0, 0.0]), tensor_name='n')]")),
    ('DebugNumericSummary bounds (inclusive), muted', _RO, _eager("[R.DebugNumericSummary(input=tf.constant([1.0, -2.0, 5.0]), lower_bound=-1.0, upper_bound=2.0, mute_if_healthy=True, tensor_name='n'), R.DebugNumericSummary(input=tf.constant([1.0, 2.0, 3.0]), lower_bound=1.0, upper_bound=3.0, tensor_name='n'), R.DebugNumericSummary(input=tf.constant([1.0]), lower_bound=3.0, upper_bound=1.0, tensor_name='n')]")),
    ('DebugNumericSummary float64 moments', _RO, _eager("R.DebugNumericSummary(input=tf.constant(np.random.default_rng(3).normal(size=50)), tensor_name='n')")),
    ('DebugNumericSummary float16 (no kernel)', _RO, _eager("R.DebugNumericSummary(input=tf.constant([0.5], tf.float16), tensor_name='n')")),
    ('DebugNumericSummary gated', _RO, _eager("R.DebugNumericSummary(input=tf.constant([1.0]), tensor_name='n', gated_grpc=True)")),
    ('DebugNumericSummary default tensor name', _RO, _eager("R.DebugNumericSummary(input=tf.constant([1.0]))")),
    ('DebugNumericSummary in a tf.function', _RO, _traced("R.DebugNumericSummary(input=tf.constant([1.0, float('nan')]), tensor_name='n:0')")),
    ('DebugNumericSummaryV2 CURT_HEALTH', _RO, _eager(_dn(_X6, 2))),
    ('DebugNumericSummaryV2 CONCISE_HEALTH', _RO, _eager(_dn(_X6, 3))),
    ('DebugNumericSummaryV2 FULL_HEALTH float64 out, id 7', _RO, _eager(_dn("tf.constant([[1.0, -2.0, 0.0], [float('nan'), -float('inf'), 3.0]], tf.float64)", 4, ", tensor_id=7, output_dtype=tf.float64"))),
    ('DebugNumericSummaryV2 FULL_HEALTH int32, empty', _RO, _eager(f"[{_dn('tf.constant([1, -2, 0])', 4)}, {_dn('tf.constant([], tf.float32)', 4)}]")),
    ('DebugNumericSummaryV2 SHAPE rank 8, scalar, bool', _RO, _eager(f"[{_dn('tf.zeros([1, 2, 1, 2, 1, 2, 3, 1])', 5)}, {_dn('tf.constant(5.0)', 5)}, {_dn('tf.constant([True])', 5)}]")),
    ('DebugNumericSummaryV2 REDUCE_INF_NAN_THREE_SLOTS', _RO, _eager(f"[{_dn(_X6, 8)}, {_dn('tf.constant([], tf.float16)', 8)}, {_dn('tf.constant([-float(1e999), float(1e999)])', 8, ', output_dtype=tf.float64')}]")),
    ('DebugNumericSummaryV2 unimplemented modes', _RO, _eager(_dn("tf.constant([1.0])", 6))),
    ('DebugNumericSummaryV2 default mode', _RO, _eager("R.DebugNumericSummaryV2(input=tf.constant([1.0]))")),
    ('DebugNumericSummaryV2 tensor_id above 2**24', _RO, _eager(_dn("tf.constant([1.0])", 2, ", tensor_id=2 ** 24 + 1"))),
    ('DebugNumericSummaryV2 tensor_id large, float64', _RO, _eager(_dn("tf.constant([1.0])", 2, ", tensor_id=2 ** 30 + 1, output_dtype=tf.float64"))),
    ('DebugNumericSummaryV2 output_dtype half', _RO, _eager(_dn("tf.constant([1.0])", 2, ", output_dtype=tf.float16"))),
    ('DebugNumericSummaryV2 strings (no kernel)', _RO, _eager(_dn("tf.constant(['a'])", 5))),
    ('DebugNumericSummaryV2 in a tf.function', _RO, _traced(_dn("tf.constant([1.0, float('inf')])", 3))),
    ('DebugNumericSummaryV2 under a tape (no gradient)', _RO, _tape(_dn("x", 3) + " * 2.0", "tf.constant([1.0, 2.0])")),
]

_SC64 = "shapes=[tf.constant([2], tf.int64), tf.constant([2], tf.int64)]"
_SCV = "values=[tf.constant([1.0]), tf.constant([2.0])]"
_SCH = ("indices=[tf.constant([[0, 0]], tf.int64)], values=[tf.constant(['a'])], shapes=[tf.constant([1, 1], tf.int64)], "
        "dense_inputs=[], strong_hash=tf.constant(False), salt=tf.constant([1, 2], tf.int64)")
# (TF's eager fast path takes a list input's Python list when each item is a tensor, an ndarray or a number:
# a fixed-dtype input given another dtype is then EagerExecute's InvalidArgumentError; a list holding a list or a
# string, or a list for a single input, sends the call to the fallback's convert_to_tensor ValueError)
_FAST_CASES: list[tuple[str, str, Any]] = [
    ('list input of tensors, one int32 for int64 (fast path)', _RO, _eager(f"R.SparseConcat(indices=[tf.constant([[0]], tf.int32), tf.constant([[1]], tf.int64)], {_SCV}, {_SC64}, concat_dim=0)")),
    ('list input holding a Python list (fallback)', _RO, _eager(f"R.SparseConcat(indices=[tf.constant([[0]], tf.int64), tf.constant([[1]], tf.int64)], {_SCV}, shapes=[[2], tf.constant([2], tf.int32)], concat_dim=0)")),
    ('fixed int64 input given int32 beside lists of tensors (fast path)', _RO, _eager(f"R.SparseCrossHashed({_SCH}, num_buckets=tf.constant(0, tf.int32))")),
    ('fixed int64 input given int32 beside a list of Python lists (fallback)', _RO, _eager(f"R.SparseCrossHashed({_SCH.replace('shapes=[tf.constant([1, 1], tf.int64)]', 'shapes=[[1, 1]]')}, num_buckets=tf.constant(0, tf.int32))")),
    ('fixed int64 input given int32 beside a list of arrays (fast path)', _RO, _eager(f"R.SparseCrossHashed({_SCH.replace('indices=[tf.constant([[0, 0]], tf.int64)]', 'indices=[np.array([[0, 0]])]')}, num_buckets=tf.constant(0, tf.int32))")),
]

_BTB = "R.BoostedTreesBucketize(float_values=[tf.constant({v})], bucket_boundaries=[tf.constant([1.0, 2.0])])"
# (TF 2.21's CPU build registers no kernel for these: NotFoundError eagerly, InvalidArgumentError "No OpKernel was
# registered" in a tf.function, after the shape function's checks)
_NO_KERNEL_CASES: list[tuple[str, str, Any]] = [
    ('BoostedTreesBucketize no kernel', _RO, _eager(_BTB.format(v="[0.5, 1.0]"))),
    ('BoostedTreesBucketize no kernel in a tf.function', _RO, _traced(_BTB.format(v="[0.5, 1.0]"))),
    ('BoostedTreesBucketize a matrix in a tf.function (shape function)', _RO, _traced(_BTB.format(v="[[0.5, 1.0]]"))),
    ('BoostedTreesMakeStatsSummary no kernel', _RO, _eager("R.BoostedTreesMakeStatsSummary(node_ids=tf.constant([0]), gradients=tf.constant([[1.0]]), hessians=tf.constant([[1.0]]), bucketized_features_list=[tf.constant([0])], max_splits=1, num_buckets=2)")),
    ('XlaSplitND no kernel', _RO, _eager("R.XlaSplitND(input=tf.ones([2, 2]), num_splits=[1, 1], N=1)")),
    ('XlaConcatND no kernel', _RO, _eager("R.XlaConcatND(inputs=[tf.ones([2, 2])], num_concats=[1, 1])")),
    ('TPUReplicatedInput no kernel', _RO, _eager("R.TPUReplicatedInput(inputs=[tf.ones([2])])")),
    ('TPUReplicatedOutput no kernel', _RO, _eager("R.TPUReplicatedOutput(input=tf.ones([2]), num_replicas=1)")),
    ('TPUCompilationResult no kernel', _RO, _eager("R.TPUCompilationResult()")),
    ('TPUReplicateMetadata no kernel', _RO, _eager("R.TPUReplicateMetadata(num_replicas=1)")),
    ('TPUPartitionedInput no kernel', _RO, _eager("R.TPUPartitionedInput(inputs=[tf.ones([2])])")),
    ('TPUPartitionedOutput no kernel in a tf.function', _RO, _traced("R.TPUPartitionedOutput(inputs=tf.ones([2]), num_splits=1)")),
    ('SortListOfSparseCoreCooTensors no kernel', _RO, _eager("R.SortListOfSparseCoreCooTensors(row_ids_list=[tf.constant([0])], col_ids_list=[tf.constant([0])], gains_list=[tf.constant([1.0])], sample_count_list=[1], col_offset_list=[0], num_replica=1, table_vocab_size=2, feature_width=1, num_sc_per_chip=1, max_ids_per_sparse_core=1, max_unique_ids_per_sparse_core=1, table_name='t')")),
]

_SDCA_CASES: list[tuple[str, str, Any]] = [
    ('SdcaFprint of seeded strings of 0 to 399 bytes', _RO, _eager("R.SdcaFprint(input=tf.constant([bytes(np.random.default_rng(n).integers(0, 256, size=n, dtype=np.uint8)) for n in range(400)]))")),
    ('SdcaFprint around the 128-byte loop', _RO, _eager("R.SdcaFprint(input=tf.constant([b'q' * n for n in (127, 128, 129, 143, 144, 145, 255, 256, 257, 1000)]))")),
    ('SdcaFprint empty', _RO, _eager("R.SdcaFprint(input=tf.constant([], tf.string))")),
    ('SdcaFprint a scalar', _RO, _eager("R.SdcaFprint(input=tf.constant('x'))")),
    ('SdcaFprint a matrix', _RO, _eager("R.SdcaFprint(input=tf.constant([['x']]))")),
    ('SdcaFprint int32', _RO, _eager("R.SdcaFprint(input=tf.constant([1]))")),
    ('SdcaFprint in a tf.function', _RO, _traced("R.SdcaFprint(input=tf.constant(['x', 'yy']))")),
    ('SdcaFprint a scalar in a tf.function', _RO, _traced("R.SdcaFprint(input=tf.constant('x'))")),
]

CASES: list[tuple[str, str, Any]] = (_SDCA_CASES + _NO_KERNEL_CASES + _SERIAL_CASES + _CROSS_CASES + _JSON_CASES + _SUMMARY_CASES + _DEBUG_CASES
                                     + _FAST_CASES)

EDGES = edge_compare.EdgeModule(__file__, CASES, agree=lambda case: edge_compare.parts_agree)


@pytest.fixture(scope="module")
def tf_results() -> dict[int, Any]:
    return EDGES.tf_answers()


@clause("ops.raw-ops")
@EDGES.parametrize("ops.raw-ops")
def test_raw_ops_added_in_session_37(k: int, tf_results: dict[int, Any]) -> None:
    EDGES.check(k, tf_results)


def test_every_case_has_a_test() -> None:
    untested = EDGES.untested()
    assert not untested, f"cases of groups {untested} have no test function above"


if __name__ == "__main__":  # TF worker: python test_rawops37_tf.py 0,1,2 -> pickled results on stdout
    tf_workers.serve(EDGES.tf_worker)
