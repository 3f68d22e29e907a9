"""`tf.io.write_graph` and `tf.io.match_filenames_once` (TF 2.21: python/framework/graph_io.py write_graph,
python/training/input.py match_filenames_once; clause io.file-ops).

- write_graph(graph_or_graph_def, logdir, name, as_text=True): the graph's GraphDef (`as_graph_def()` of an object
  that has it, else the message itself) written to os.path.join(logdir, name), logdir's directories made first:
  text_format.MessageToString as text, SerializeToString(deterministic=True) as binary; returns the path. simdist
  has no tf.Graph, so the argument is a protobuf message (a GraphDef built with TF's protos, or any message).
- match_filenames_once(pattern, name=None): a non-trainable variable holding matching_files(pattern) (sorted
  paths), validate_shape=False.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["write_graph", "match_filenames_once"]


def write_graph(graph_or_graph_def: Any, logdir: Any, name: Any, as_text: bool = True) -> str:
    """`tf.io.write_graph`: the GraphDef written under logdir (text or binary); its path."""
    graph_def = graph_or_graph_def.as_graph_def() if hasattr(graph_or_graph_def, "as_graph_def") \
        else graph_or_graph_def
    if not logdir.startswith("gs:"):
        os.makedirs(logdir, exist_ok=True)
    path = os.path.join(logdir, name)
    if as_text:
        from google.protobuf import text_format
        data = text_format.MessageToString(graph_def).encode()
    else:
        data = graph_def.SerializeToString(deterministic=True)
    tmp = path + ".tmp"   # (file_io.atomic_write_string_to_file: a temporary file renamed)
    with open(tmp, "wb") as fh:
        fh.write(data)
    os.replace(tmp, path)
    return path


def match_filenames_once(pattern: Any, name: str | None = None) -> Any:
    """`tf.io.match_filenames_once`: a variable initialised to the files matching `pattern` (non-trainable,
    validate_shape=False; TF's VariableV1 in the local-variables collection)."""
    from simdist.runtime import variables
    from simdist.runtime.ops.file_io import matching_files
    return variables.Variable(matching_files(pattern), trainable=False, validate_shape=False)
