"""tf.data.experimental.CsvDataset — clause dataset.csv (TF 2.21's CSVDatasetV2).

Each record is a tuple of scalars typed by record_defaults (a dtype: required; a value: its default),
quoted fields per RFC 4180 ("" escapes, delimiters and newlines inside) with use_quote_delim, empty
or na_value fields taking the default; the kernel's errors while iterating. Expected values and
messages were observed with TF 2.21.
"""

from __future__ import annotations

import gzip
import os
import tempfile

import numpy as np
import pytest

from simdist.conformance.assertions import assert_same, raises

clause = pytest.mark.clause


def _rows(ds) -> list:
    return [tuple(np.asarray(v).tolist() for v in x) for x in ds]


@clause("dataset.csv", ref="tf221")
def test_csv_dataset_parses_records(tf):
    C = tf.data.experimental.CsvDataset
    with tempfile.TemporaryDirectory() as d:
        def w(name, text):
            p = os.path.join(d, name)
            with open(p, "wb") as f:
                f.write(text)
            return p
        a = w("a.csv", b'1,2.5,x\n3,,"y,z"\n5,6,"q""r"\n')
        h = w("h.csv", b"c1,c2\n1,2\n3,4")
        gz = os.path.join(d, "g.csv.gz")
        with open(gz, "wb") as f:
            f.write(gzip.compress(b"1,2\r\n3,4\r\n"))
        cases = [
            ("CsvDataset(a, [int32, 0.0, 'z'])", lambda: C(a, [tf.int32, 0.0, "z"]),
             [(1, 2.5, b"x"), (3, 0.0, b"y,z"), (5, 6.0, b'q"r')]),
            ("CsvDataset(a, [int32, string], select_cols=[0, 2])", lambda: C(a, [tf.int32, tf.string], select_cols=[0, 2]),
             [(1, b"x"), (3, b"y,z"), (5, b'q"r')]),
            ("CsvDataset(a, [int32], exclude_cols=[1, 2])", lambda: C(a, [tf.int32], exclude_cols=[1, 2]),
             [(1,), (3,), (5,)]),
            ("CsvDataset(h, [int32, int32], header=True)", lambda: C(h, [tf.int32, tf.int32], header=True),
             [(1, 2), (3, 4)]),
            ("CsvDataset(gzip of CRLF lines, compression_type='GZIP')", lambda: C(gz, [0, 0], compression_type="GZIP"),
             [(1, 2), (3, 4)]),
            ("CsvDataset(tab-separated, field_delim='\\t')",
             lambda: C(w("t.csv", b"1\t2\n3\t4\n"), [tf.int32, tf.int32], field_delim="\t"), [(1, 2), (3, 4)]),
            ("CsvDataset(na_value='NA')", lambda: C(w("n.csv", b"1,NA\nNA,4\n"), [0, 5], na_value="NA"),
             [(1, 5), (0, 4)]),
            ("CsvDataset(use_quote_delim=False)",
             lambda: C(w("q.csv", b'"a",b\n'), [tf.string, tf.string], use_quote_delim=False), [(b'"a"', b"b")]),
            ("CsvDataset(' 1 , 2.5', [0, 0.0]) (spaces around numbers)",
             lambda: C(w("sp.csv", b" 1 , 2.5\n"), [0, 0.0]), [(1, 2.5)]),
            ("CsvDataset(a newline inside quotes)", lambda: C(w("nl.csv", b'"a\nb",c\n'), ["", ""]), [(b"a\nb", b"c")]),
            ("CsvDataset([a, a], ...) (two files)", lambda: C([a, a], [tf.int32, 0.0, "z"]).skip(2).take(2),
             [(5, 6.0, b'q"r'), (1, 2.5, b"x")]),
            ("CsvDataset(3000000000,1e40 as int64, float32)",
             lambda: C(w("big.csv", b"3000000000,1e40\n"), [tf.int64, tf.float32]), [(3000000000, float("inf"))]),
        ]
        for call, make, want in cases:
            ds = make()
            assert_same(_rows(ds), want, call=call)
            assert_same(int(ds.cardinality()), -2, call=f"{call}.cardinality() (UNKNOWN)")
        spec = C(a, [tf.int32, 0.0, "z"]).element_spec
        assert_same([(s.dtype.name, s.shape.as_list()) for s in spec], [("int32", []), ("float32", []), ("string", [])],
                    call="CsvDataset(a, [int32, 0.0, 'z']).element_spec")


@clause("dataset.csv", ref="tf221")
def test_csv_dataset_errors(tf):
    C = tf.data.experimental.CsvDataset
    with tempfile.TemporaryDirectory() as d:
        def w(name, text):
            p = os.path.join(d, name)
            with open(p, "wb") as f:
                f.write(text)
            return p
        a = w("a.csv", b'1,2.5,x\n3,,"y,z"\n')
        f = w("f.csv", b"1,2,3\n4,5\n")
        bad = [
            ("a required field left empty", "Field 1 is required but missing in record!",
             lambda: C(a, [tf.int32, tf.float32, tf.string])),
            ("9.0 as a default (DataType 9: int64, required)", "Field 1 in record is not a valid int64: 2.5",
             lambda: C(a, [0, 9.0, "d"])),
            ("3 defaults, a record of 2 fields", "Expect 3 fields but have 2 in record", lambda: C(f, [0, 0, 0])),
            ("2 defaults, a record of 3 fields", "Expect 2 fields but have more in record", lambda: C(f, [0, 0])),
            ("'x' as an int32", "Field 1 in record is not a valid int32: x", lambda: C(w("b.csv", b"1,x\n"), [0, 0])),
            ("'x' as a float", "Field 1 in record is not a valid float: x", lambda: C(w("b2.csv", b"1,x\n"), [0, 0.0])),
            ("an empty line", "Expect 2 fields but have 1 in record", lambda: C(w("e.csv", b"1,2\n\n3,4\n"), [0, 0])),
            ("an unterminated quote", "Reached end of file without closing quoted field",
             lambda: C(w("u.csv", b'"ab\n'), [""])),
            ("a quote inside an unquoted field", "Unquoted fields cannot have quotes inside",
             lambda: C(w("m.csv", b'a"b",c\n'), ["", ""])),
            ("3000000000 as an int32", "Field 0 in record is not a valid int32: 3000000000",
             lambda: C(w("o.csv", b"3000000000\n"), [tf.int32])),
        ]
        for call, match, make in bad:
            with raises(tf.errors.InvalidArgumentError, call=f"CsvDataset with {call}", match=match):
                _rows(make())
        for call, match, make in [
            ("select_cols and exclude_cols", "Either select_cols or exclude_cols should be empty",
             lambda: C(a, [0], select_cols=[0], exclude_cols=[1])),
            ("select_cols=[1, 0]", "select_cols should be strictly increasing indices",
             lambda: C(a, [0, 0], select_cols=[1, 0])),
            ("2 defaults, select_cols=[0]", "select_cols should match output size", lambda: C(a, [0, 0], select_cols=[0])),
        ]:
            with raises(tf.errors.InvalidArgumentError, call=f"CsvDataset with {call}", match=match):
                make()
        with raises(ValueError, call="CsvDataset with a tf.bool default", match="with an unsupported type"):
            C(a, [tf.bool, 0.0, ""])
        mid = w("mid.csv", b"1,2\n3,x\n5,6\n")
        assert_same(_rows(C(mid, [0, 0]).ignore_errors()), [(1, 2), (5, 6)],
                    call="CsvDataset(a bad record in the middle).ignore_errors(): the next record follows")


def _batches(ds) -> list:
    out = []
    for x in ds:
        if isinstance(x, tuple):
            f, label = x
            out.append(({k: np.asarray(v).tolist() for k, v in sorted(f.items())}, np.asarray(label).tolist()))
        else:
            out.append({k: np.asarray(v).tolist() for k, v in sorted(x.items())})
    return out


@clause("dataset.csv", ref="tf221")
def test_make_csv_dataset_infers_columns_and_batches(tf):
    E = tf.data.experimental
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "a.csv"), "w") as f:
            f.write('survived,sex,age,fare,town\n0,male,22,7.25,Southampton\n1,female,38,71.2833,Cherbourg\n'
                    '1,female,,7.925,"Queens, town"\n0,male,35,3000000000,x\n')
        with open(os.path.join(d, "b.csv"), "w") as f:
            f.write("survived,sex,age,fare,town\n1,male,2,1.5,y\n")
        ds = E.make_csv_dataset(os.path.join(d, "*.csv"), batch_size=2, label_name="survived", shuffle=False,
                                num_epochs=1)
        spec = ({k: (v.dtype.name, v.shape.as_list()) for k, v in sorted(ds.element_spec[0].items())},
                (ds.element_spec[1].dtype.name, ds.element_spec[1].shape.as_list()))
        assert_same(spec, ({"age": ("int32", [None]), "fare": ("float32", [None]), "sex": ("string", [None]),
                            "town": ("string", [None])}, ("int32", [None])),
                    call="make_csv_dataset(label_name='survived'): inferred column types")
        assert_same(_batches(ds), [
            ({"age": [22, 38], "fare": [7.25, 71.2833023071289], "sex": [b"male", b"female"],
              "town": [b"Southampton", b"Cherbourg"]}, [0, 1]),
            ({"age": [0, 35], "fare": [7.925000190734863, 3000000000.0], "sex": [b"female", b"male"],
              "town": [b"Queens, town", b"x"]}, [1, 0]),
            ({"age": [2], "fare": [1.5], "sex": [b"male"], "town": [b"y"]}, [1])],
            call="make_csv_dataset(*.csv, batch_size=2, label_name='survived', shuffle=False, num_epochs=1)")
        ds = E.make_csv_dataset(os.path.join(d, "a.csv"), batch_size=3, shuffle=False).take(2)
        assert_same([b["age"] for b in _batches(ds)], [[22, 38, 0], [35, 22, 38]],
                    call="make_csv_dataset(num_epochs=None): repeated, full batches only")
        ds = E.make_csv_dataset(os.path.join(d, "a.csv"), batch_size=4, shuffle=False, num_epochs=1,
                                select_columns=["age", "sex"])
        assert_same(_batches(ds), [{"age": [22, 38, 0, 35], "sex": [b"male", b"female", b"female", b"male"]}],
                    call="make_csv_dataset(select_columns=['age', 'sex'])")
        shuffled = _batches(E.make_csv_dataset(os.path.join(d, "a.csv"), batch_size=4, num_epochs=1, shuffle_seed=3))
        assert_same(sorted(shuffled[0]["age"]), [0, 22, 35, 38], call="make_csv_dataset(shuffle=True): the same rows")
        with raises(ValueError, call="make_csv_dataset(label_name='zz')", match="`label_name` provided must be one of"):
            E.make_csv_dataset(os.path.join(d, "a.csv"), batch_size=4, label_name="zz")
        with raises(ValueError, call="make_csv_dataset(no matching file)", match="No files match `file_pattern`"):
            E.make_csv_dataset(os.path.join(d, "*.nope"), batch_size=4)
