"""`tf.io.decode_csv` (TF 2.21's DecodeCSV kernel, core/kernels/decode_csv_op.cc; python/ops/
parsing_ops.py decode_csv_v2): each record split into fields, one output per record_defaults entry
(each of the records' shape).

Fields split at field_delim (one character, else InvalidArgumentError "field_delim should be only
1 char"); "\\n" and "\\r" between fields are skipped; with use_quote_delim a field starting with '"'
runs to a '"' followed by the delimiter or the record's end, '""' inside it one quote (a lone quote
"Quote inside a string has to be escaped by another quote", no closing quote "Quoted field has to
end with quote followed by delim or end"); an unquoted field may not hold a quote, "\\n" or "\\r"
("Unquoted fields cannot have quotes/CRLFs inside"); a record ending with the delimiter has an
empty last field; an empty record has none. select_cols keeps only those columns (strictly
increasing, as many as the defaults: ValueError). The field count must equal the outputs' ("Expect
3 fields but have 2 in record 0"). An empty field or na_value takes the column's default (an empty
default: "Field 0 is required but missing in record 0!"); another is parsed as the default's type,
int32/int64 by safe_strto32/64 and float32/float64 by safe_strtof/d (string_to_number.py's
parsers: the same functions StringToNumber calls), else "Field 1 in record 0 is not a valid
float: y"; strings kept as they are. Defaults hold at most one value ("There should only be 1
default per field but field 0 has 2"); types float32, float64, int32, int64, string. Not
differentiable. Clause io.tensor-codec.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simdist.runtime import dtypes, errors
from simdist.runtime.ops import dispatch
from simdist.runtime.ops.registry import NotDifferentiable, lanes, register
from simdist.runtime.ops.string_args import STRING_COST, as_bytes, string_tensor, want_string
from simdist.runtime.ops.string_to_number import _parse_int, parse_float
from simdist.runtime.tensor import Tensor, convert_to_tensor

__all__ = ["decode_csv"]

_C_NAME = {"float32": "float", "float64": "double", "int32": "int32", "int64": "int64", "string": "string"}
_OPDEF = ("Op<name=DecodeCSV; signature=records:string, record_defaults: -> output:; attr=OUT_TYPE:list(type),min=1,"
          "allowed=[DT_FLOAT, DT_DOUBLE, DT_INT32, DT_INT64, DT_STRING]; attr=field_delim:string,default=\",\"; "
          "attr=use_quote_delim:bool,default=true; attr=na_value:string,default=\"\"; "
          "attr=select_cols:list(int),default=[]>")


def _error(text: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"{text} [Op:DecodeCSV]")


def _fields(record: bytes, delim: int, quotes: bool, select: tuple) -> list[bytes]:
    """ExtractFields: the record's (selected) fields."""
    out: list[bytes] = []
    i, parsed, selector, n = 0, 0, 0, len(record)
    if not record:
        return out
    while i < n:
        if record[i] in (10, 13):
            i += 1
            continue
        include = not select or select[selector] == parsed
        field = bytearray()
        if quotes and record[i] == 34:
            i += 1
            while i < n - 1 and (record[i] != 34 or record[i + 1] != delim):
                if record[i] != 34:
                    field.append(record[i])
                    i += 1
                else:
                    if record[i + 1] != 34:
                        raise _error("Quote inside a string has to be escaped by another quote")
                    field.append(34)
                    i += 2
            if not (i < n and record[i] == 34 and (i == n - 1 or record[i + 1] == delim)):
                raise _error("Quoted field has to end with quote followed by delim or end")
            i += 2
        else:
            while i < n and record[i] != delim:
                if (quotes and record[i] == 34) or record[i] in (10, 13):
                    raise _error("Unquoted fields cannot have quotes/CRLFs inside")
                field.append(record[i])
                i += 1
            i += 1
        parsed += 1
        if include:
            out.append(bytes(field))
            selector += 1
            if select and selector == len(select):
                return out
    include = not select or (selector < len(select) and select[selector] == parsed)
    if include and record[-1] == delim:
        out.append(b"")
    return out


def _decode(records: np.ndarray, *defaults: np.ndarray, out_types: tuple, field_delim: str = ",",
            use_quote_delim: bool = True, na_value: str = "", select_cols: tuple = ()) -> tuple:
    delim = field_delim.encode()
    if len(delim) != 1:
        raise _error("field_delim should be only 1 char")
    for i, d in enumerate(defaults):   # (each field's rank, then its count: fz31a, function seed 3120261205 #28)
        if d.ndim > 1:
            raise _error("Each record default should be at most rank 1")
        if d.size > 1:
            raise _error(f"There should only be 1 default per field but field {i} has {d.size}")
    na = na_value.encode()
    flat = records.reshape(-1)
    outs = [np.empty(flat.shape, dtype=object if t == "string" else np.dtype(t)) for t in out_types]
    for r, raw in enumerate(flat):
        fields = _fields(as_bytes(raw), delim[0], use_quote_delim, select_cols)
        if len(fields) != len(out_types):
            raise _error(f"Expect {len(out_types)} fields but have {len(fields)} in record {r}")
        for f, (text, t) in enumerate(zip(fields, out_types)):
            if not text or text == na:
                if defaults[f].size != 1:
                    raise _error(f"Field {f} is required but missing in record {r}!")
                outs[f][r] = defaults[f].reshape(-1)[0]
                continue
            if t == "string":
                outs[f][r] = text
                continue
            got = _parse_int(text, t) if t.startswith("int") else parse_float(text, t)
            if got is None:
                raise _error(f"Field {f} in record {r} is not a valid {_C_NAME[t]}: "
                             + text.decode("utf-8", "replace"))
            outs[f][r] = got
    return tuple(o.reshape(records.shape) for o in outs)


def _rule(dts: Any, attrs: Any) -> tuple:
    want_string("DecodeCSV", dts, 0, "records")
    return tuple(dtypes.as_dtype(t) for t in attrs["out_types"])


DECODE_CSV = register("DecodeCSV", _decode, _rule, num_outputs=-1, kind="gather/scatter",
                      fusion=lanes("splits and parses each record in Python: no stacked form written"), **STRING_COST)
NotDifferentiable("DecodeCSV")


def decode_csv(records: Any, record_defaults: Any, field_delim: str = ",", use_quote_delim: bool = True,
               na_value: str = "", select_cols: Any = None, name: str | None = None) -> list[Tensor]:
    """`tf.io.decode_csv`: CSV records to one tensor per column (record_defaults give types and defaults)."""
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1] for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    defaults = [d if isinstance(d, Tensor) else convert_to_tensor(d) for d in record_defaults]
    types = tuple(d.dtype.name for d in defaults)
    for t in types:
        if t not in _C_NAME:
            c_name = {"float16": "half"}.get(t, t)
            raise errors.InvalidArgumentError(
                None, None, f"Value for attr 'OUT_TYPE' of {c_name} is not in the list of allowed values: float, "
                f"double, int32, int64, string\n\t; NodeDef: {{{{node DecodeCSV}}}}; {_OPDEF} [Op:DecodeCSV]")
    attrs = {"out_types": types, "field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
             "na_value": na_value, "select_cols": tuple(int(c) for c in select_cols or ())}
    outs = dispatch.execute(DECODE_CSV, (string_tensor(records, "DecodeCSV", "records"), *defaults), attrs)
    return list(outs) if isinstance(outs, tuple) else [outs]
