"""TF's Example protocol messages (`tf.train.Example`, `Features`, `Feature`, `BytesList`,
`FloatList`, `Int64List`, `FeatureList`, `FeatureLists`, `SequenceExample`) as real protobuf
message classes, so that `SerializeToString()` gives TF's bytes and `FromString` reads TF's.

The classes come from the descriptors of TF 2.21's tensorflow/core/example/feature.proto and
example.proto, written out below field by field (names, numbers, types, `packed`, the `kind`
oneof, the two maps), built into a private descriptor pool (so they never clash with TF's own
classes when both are imported) by protobuf's message_factory. protobuf costs ~20 ms to import,
so the classes are built on first use (`message_class`). Clause io.example-proto.
"""

from __future__ import annotations

import functools
from typing import Any

__all__ = ["message_class", "MESSAGES"]

MESSAGES = ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList", "FeatureLists", "Example",
            "SequenceExample")

# (name, number, label, type, type_name, options): descriptor.proto's FieldDescriptorProto codes
_OPTIONAL, _REPEATED = 1, 3
_FLOAT, _INT64, _STRING, _MESSAGE, _BYTES = 2, 3, 9, 11, 12


def _file(fd: Any, name: str, messages: list[tuple[str, list[tuple], list[tuple]]], deps: tuple = ()) -> None:
    """Fill FileDescriptorProto `fd` (proto3, package tensorflow) with `messages`: (name, fields,
    map entries (entry name, field name, value type)); a field: (name, number, label, type,
    type_name, packed, oneof index)."""
    fd.name = name
    fd.package = "tensorflow"
    fd.syntax = "proto3"
    fd.dependency.extend(deps)
    for msg_name, fields, maps in messages:
        m = fd.message_type.add(name=msg_name)
        for entry, field, value_type in maps:
            e = m.nested_type.add(name=entry)
            e.options.map_entry = True
            e.field.add(name="key", number=1, label=_OPTIONAL, type=_STRING)
            e.field.add(name="value", number=2, label=_OPTIONAL, type=_MESSAGE, type_name=value_type)
            m.field.add(name=field, number=1, label=_REPEATED, type=_MESSAGE,
                        type_name=f".tensorflow.{msg_name}.{entry}")
        oneofs: list[str] = []
        for fname, number, label, ftype, type_name, packed, oneof in fields:
            f = m.field.add(name=fname, number=number, label=label, type=ftype)
            if type_name:
                f.type_name = type_name
            if packed:
                f.options.packed = True
            if oneof:
                if oneof not in oneofs:
                    oneofs.append(oneof)
                    m.oneof_decl.add(name=oneof)
                f.oneof_index = oneofs.index(oneof)


@functools.lru_cache(maxsize=None)
def _classes() -> dict[str, type]:
    from google.protobuf import descriptor_pb2, descriptor_pool, message_factory

    pool = descriptor_pool.DescriptorPool()
    feature = descriptor_pb2.FileDescriptorProto()
    _file(feature, "tensorflow/core/example/feature.proto", [
        ("BytesList", [("value", 1, _REPEATED, _BYTES, "", False, "")], []),
        ("FloatList", [("value", 1, _REPEATED, _FLOAT, "", True, "")], []),
        ("Int64List", [("value", 1, _REPEATED, _INT64, "", True, "")], []),
        ("Feature", [("bytes_list", 1, _OPTIONAL, _MESSAGE, ".tensorflow.BytesList", False, "kind"),
                     ("float_list", 2, _OPTIONAL, _MESSAGE, ".tensorflow.FloatList", False, "kind"),
                     ("int64_list", 3, _OPTIONAL, _MESSAGE, ".tensorflow.Int64List", False, "kind")], []),
        ("Features", [], [("FeatureEntry", "feature", ".tensorflow.Feature")]),
        ("FeatureList", [("feature", 1, _REPEATED, _MESSAGE, ".tensorflow.Feature", False, "")], []),
        ("FeatureLists", [], [("FeatureListEntry", "feature_list", ".tensorflow.FeatureList")]),
    ])
    example = descriptor_pb2.FileDescriptorProto()
    _file(example, "tensorflow/core/example/example.proto", [
        ("Example", [("features", 1, _OPTIONAL, _MESSAGE, ".tensorflow.Features", False, "")], []),
        ("SequenceExample", [("context", 1, _OPTIONAL, _MESSAGE, ".tensorflow.Features", False, ""),
                             ("feature_lists", 2, _OPTIONAL, _MESSAGE, ".tensorflow.FeatureLists", False, "")], []),
    ], deps=("tensorflow/core/example/feature.proto",))
    pool.Add(feature)
    pool.Add(example)
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"tensorflow.{name}"))
            for name in MESSAGES}


def message_class(name: str) -> type:
    """The protobuf message class `tensorflow.<name>` (one of MESSAGES)."""
    return _classes()[name]
