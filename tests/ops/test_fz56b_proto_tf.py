"""tf.io.decode_proto, encode_proto, write_graph and match_filenames_once (clause io.tensor-codec; fz55b's missing
functions), observed on TF 2.21.

Messages of protobuf's own descriptor.proto (linked into both processes: TF's "local://" pool has it, and
"bytes://" + its FileDescriptorSet names it explicitly): UninterpretedOption (string, uint64, int64, double,
bytes, a repeated submessage), FieldDescriptorProto (string, int32, enums with defaults, a submessage with bools),
FileDescriptorProto (repeated strings, ints and messages). decode_proto: sizes [batch..., fields], values
[batch..., max(1, count)] padded with the field's default, the output types each wire type converts to, binary and
text messages, its errors; encode_proto: the serialized messages and its errors. write_graph: a message written
as text and binary under a new directory; match_filenames_once: a non-trainable variable of the sorted matches.
Each case: a list of [label, outcome] (sizes and values, or the error class and message).
"""

from __future__ import annotations

import os
from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _inputs() -> dict:
    from google.protobuf import descriptor_pb2
    fds = descriptor_pb2.FileDescriptorSet()
    descriptor_pb2.DESCRIPTOR.CopyToProto(fds.file.add())
    U = descriptor_pb2.UninterpretedOption
    u = U(identifier_value="id", positive_int_value=2**64 - 5, negative_int_value=-7, double_value=2.5,
          string_value=b"\x00\xff", aggregate_value="agg")
    u.name.add(name_part="a", is_extension=True)
    u.name.add(name_part="b", is_extension=False)
    F = descriptor_pb2.FieldDescriptorProto
    f = F(name="x", number=3, label=F.LABEL_REPEATED, type=F.TYPE_INT32, json_name="x")
    f.options.packed = True
    FD = descriptor_pb2.FileDescriptorProto
    fd = FD(name="f.proto", dependency=["a", "b", "c"], public_dependency=[0, 2], weak_dependency=[1])
    fd.message_type.add(name="M")
    fd.message_type.add(name="N")
    return {"BYTES": b"bytes://" + fds.SerializeToString(),
            "msgs": [u.SerializeToString(), U(double_value=-0.0).SerializeToString(), b""],
            "fmsgs": [f.SerializeToString(), F(name="y", number=-1).SerializeToString(), b""],
            "fdmsgs": [fd.SerializeToString(), FD(name="g").SerializeToString()], "fd": fd}


def _outcome(r: Any) -> Any:
    sizes, vals = r
    return [sizes.numpy().tolist(), [[v.dtype.name, v.shape.as_list(),
                                      [x.hex() if isinstance(x, bytes) else repr(x)
                                       for x in np.asarray(v.numpy()).ravel().tolist()]] for v in vals]]


def _try(out: list, label: str, fn: Callable[[], Any], how: Callable[[Any], Any] = _outcome) -> None:
    try:
        out.append([label, how(fn())])
    except Exception as e:  # noqa: BLE001 - the class and message are what is compared
        out.append([label, [type(e).__name__, str(e).split(" [Op:")[0].split("}} ")[-1].split("\n")[0]]])


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    d = _inputs()
    BYTES, msgs, fmsgs, fdmsgs = d["BYTES"], d["msgs"], d["fmsgs"], d["fdmsgs"]
    show = (lambda label, fn: _try(out, label, fn))
    if case["name"] in ("local", "bytes"):
        src = "local://" if case["name"] == "local" else BYTES
        s = case["name"]

        s = "local" if src == "local://" else "bytes"
        show(f"{s} uninterpreted", lambda: tf.io.decode_proto(msgs, "google.protobuf.UninterpretedOption", ["identifier_value", "positive_int_value", "negative_int_value", "double_value", "string_value", "aggregate_value", "name"], [tf.string, tf.int64, tf.int64, tf.float64, tf.string, tf.string, tf.string], descriptor_source=src))
        show(f"{s} field", lambda: tf.io.decode_proto(fmsgs, "google.protobuf.FieldDescriptorProto", ["name", "number", "label", "type", "options", "json_name", "oneof_index"], [tf.string, tf.int32, tf.int32, tf.int32, tf.string, tf.string, tf.int32], descriptor_source=src))
        show(f"{s} file 2-D", lambda: tf.io.decode_proto(tf.reshape(fdmsgs, [2, 1]), "google.protobuf.FileDescriptorProto", ["name", "dependency", "public_dependency", "weak_dependency", "message_type", "package"], [tf.string, tf.string, tf.int32, tf.int32, tf.string, tf.string], descriptor_source=src))
        show(f"{s} scalar", lambda: tf.io.decode_proto(fdmsgs[0], "google.protobuf.FileDescriptorProto", ["dependency"], [tf.string], descriptor_source=src))
        show(f"{s} number as int64", lambda: tf.io.decode_proto(fmsgs, "google.protobuf.FieldDescriptorProto", ["number"], [tf.int64], descriptor_source=src))
        show(f"{s} number as float", lambda: tf.io.decode_proto(fmsgs, "google.protobuf.FieldDescriptorProto", ["number"], [tf.float32], descriptor_source=src))
        show(f"{s} name as int", lambda: tf.io.decode_proto(fmsgs, "google.protobuf.FieldDescriptorProto", ["name"], [tf.int32], descriptor_source=src))
        show(f"{s} double as float32", lambda: tf.io.decode_proto(msgs, "google.protobuf.UninterpretedOption", ["double_value"], [tf.float32], descriptor_source=src))
        show(f"{s} uint64 as uint64", lambda: tf.io.decode_proto(msgs, "google.protobuf.UninterpretedOption", ["positive_int_value"], [tf.uint64], descriptor_source=src))
        show(f"{s} missing field", lambda: tf.io.decode_proto(msgs, "google.protobuf.UninterpretedOption", ["nope"], [tf.string], descriptor_source=src))
        show(f"{s} missing type", lambda: tf.io.decode_proto(msgs, "google.protobuf.Nope", ["nope"], [tf.string], descriptor_source=src))
        show(f"{s} count mismatch", lambda: tf.io.decode_proto(msgs, "google.protobuf.UninterpretedOption", ["double_value"], [tf.float32, tf.int32], descriptor_source=src))
        show(f"{s} bad bytes", lambda: tf.io.decode_proto([b"\xff\xff\xff"], "google.protobuf.UninterpretedOption", ["double_value"], [tf.float64], descriptor_source=src))
        show(f"{s} text", lambda: tf.io.decode_proto(["identifier_value: 'q' double_value: 1.5", "name { name_part: 'z' is_extension: false }"], "google.protobuf.UninterpretedOption", ["identifier_value", "double_value", "name"], [tf.string, tf.float64, tf.string], descriptor_source=src, message_format="text"))
        show(f"{s} bool", lambda: tf.io.decode_proto([tf.io.decode_proto(fmsgs[:1], "google.protobuf.FieldDescriptorProto", ["options"], [tf.string], descriptor_source=src)[1][0][0, 0]], "google.protobuf.FieldOptions", ["packed", "deprecated"], [tf.bool, tf.bool], descriptor_source=src))
        show(f"{s} encode", lambda: (tf.constant([[1, 2]], tf.int32), [tf.io.encode_proto(tf.constant([[1, 3], [0, 2]], tf.int32), [tf.constant([["n"], ["m"]]), tf.constant([[0, 0, 0], [4, 5, 0]], tf.int32)], ["name", "public_dependency"], "google.protobuf.FileDescriptorProto", descriptor_source=src)]))
        show(f"{s} encode uninterpreted", lambda: (tf.constant([1]), [tf.io.encode_proto(tf.constant([[1, 1, 1]], tf.int32), [tf.constant([[2.5]], tf.float64), tf.constant([[-3]], tf.int64), tf.constant([[b"\x00"]])], ["double_value", "negative_int_value", "string_value"], "google.protobuf.UninterpretedOption", descriptor_source=src)]))
        show(f"{s} encode size too big", lambda: (tf.constant([1]), [tf.io.encode_proto(tf.constant([[2]], tf.int32), [tf.constant([["n"]])], ["name"], "google.protobuf.FileDescriptorProto", descriptor_source=src)]))
        show(f"{s} encode wrong dtype", lambda: (tf.constant([1]), [tf.io.encode_proto(tf.constant([[1]], tf.int32), [tf.constant([[1.0]])], ["name"], "google.protobuf.FileDescriptorProto", descriptor_source=src)]))
    elif case["name"] == "type_table":
        # (a message of one field of each wire type, by bytes://: the dtypes decode_proto converts each to, and the
        # values of a message setting every field)
        from google.protobuf import descriptor_pb2 as D
        fds = D.FileDescriptorSet()
        f = fds.file.add(name="t.proto", package="t", syntax="proto2")
        m = f.message_type.add(name="All")
        kinds = {1: "double", 2: "float", 3: "int64", 4: "uint64", 5: "int32", 6: "fixed64", 7: "fixed32", 8: "bool",
                 9: "string", 12: "bytes", 13: "uint32", 15: "sfixed32", 16: "sfixed64", 17: "sint32", 18: "sint64"}
        for i, (t, n) in enumerate(kinds.items()):
            m.field.add(name="f_" + n, number=i + 1, label=1, type=t)
        tsrc = b"bytes://" + fds.SerializeToString()
        for n in kinds.values():
            for dt in (tf.float32, tf.float64, tf.int32, tf.int64, tf.uint32, tf.uint64, tf.bool, tf.string):
                _try(out, f"f_{n} as {dt.name}", lambda n=n, dt=dt: tf.io.decode_proto(
                    [b""], "t.All", ["f_" + n], [dt], descriptor_source=tsrc))
        vals = {"double": [[-1.5]], "float": [[0.25]], "int64": [[-2**40]], "uint64": [[2**63 + 3]], "int32": [[-9]],
                "fixed64": [[2**64 - 1]], "fixed32": [[2**32 - 1]], "bool": [[True]], "string": [["s"]],
                "bytes": [[b"\x01"]], "uint32": [[7]], "sfixed32": [[-3]], "sfixed64": [[-4]], "sint32": [[-5]],
                "sint64": [[-6]]}
        types = {"double": tf.float64, "float": tf.float32, "int64": tf.int64, "uint64": tf.uint64, "int32": tf.int32,
                 "fixed64": tf.uint64, "fixed32": tf.uint32, "bool": tf.bool, "string": tf.string, "bytes": tf.string,
                 "uint32": tf.uint32, "sfixed32": tf.int32, "sfixed64": tf.int64, "sint32": tf.int32, "sint64": tf.int64}
        fields = ["f_" + n for n in kinds.values()]
        enc = []
        _try(out, "encode every type", lambda: (tf.ones([1, len(fields)], tf.int32), enc.append(tf.io.encode_proto(
            tf.ones([1, len(fields)], tf.int32), [tf.constant(vals[n], types[n]) for n in kinds.values()], fields,
            "t.All", descriptor_source=tsrc)) or enc))
        if enc:
            _try(out, "decode every type", lambda: tf.io.decode_proto(enc[0], "t.All", fields,
                                                                      [types[n] for n in kinds.values()],
                                                                      descriptor_source=tsrc))
    elif case["name"] == "files":
        for n in ("b.txt", "a.txt", "c.dat"):
            with open(os.path.join(workdir, n), "w") as fh:
                fh.write("x")
        for pat in ("*.txt", "*", "*.none"):
            _try(out, f"match_filenames_once {pat}", lambda pat=pat: tf.io.match_filenames_once(
                os.path.join(workdir, pat)), lambda v: [type(v).__name__, v.dtype.name, v.shape.as_list(), v.trainable,
                                                        [os.path.basename(x) for x in v.numpy().tolist()]])
        for as_text in (True, False):
            _try(out, f"write_graph as_text={as_text}", lambda as_text=as_text: tf.io.write_graph(
                d["fd"], os.path.join(workdir, "g", "h"), "graph.pb", as_text=as_text),
                lambda p: [os.path.relpath(p, workdir), open(p, "rb").read().hex()])
    return out


NAMES = ["local", "bytes", "type_table", "files"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("io.tensor-codec")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_proto_and_graph_io(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    bad = [f"{w[0]}: simdist gives {g[1]!r:.300}, TF 2.21 gives {w[1]!r:.300}" for g, w in zip(got, want) if g != w]
    assert not bad, f"{name}: {len(bad)} of {len(want)} differ:\n" + "\n".join(bad)


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
