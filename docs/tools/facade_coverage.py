"""List the public functions of TF 2.21's `tf`, `tf.math`, `tf.nn`, `tf.linalg`, `tf.signal`,
`tf.debugging`, `tf.image` and `tf.io` namespaces, and of the top-level namespaces simdist lacks in
part or in full (`tf.quantization`, `tf.audio`, `tf.summary`, ... : NAMESPACES)
that simdist's facade (`from simdist import tf`) does not have, and every public name of its tf.keras
namespaces (classes included) that simdist's tf.keras does not have, as docs/ops-coverage.md shows:

    python docs/tools/facade_coverage.py            # print the Markdown table
    python docs/tools/facade_coverage.py --write    # rewrite docs/ops-coverage.md's table

Needs real TensorFlow (the `tf` extra). Classes and private names are left out.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[1] / "ops-coverage.md"
BEGIN, END = "<!-- coverage -->", "<!-- /coverage -->"


NAMESPACES = ("", "math", "nn", "linalg", "signal", "debugging", "image", "io", "quantization", "audio", "summary",
              "saved_model", "autograph", "autograph.experimental", "test", "version", "types.experimental",
              "sysconfig", "queue", "graph_util", "xla", "tpu", "lite", "profiler.experimental", "feature_column",
              "config", "config.experimental", "config.threading", "train", "experimental.numpy",
              "experimental.numpy.random")


def missing() -> list[tuple[str, int, list[str]]]:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    import tensorflow as real
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from simdist import tf as ours
    out = []
    for ns in NAMESPACES:
        t = real
        s = ours
        for part in [p for p in ns.split(".") if p]:
            t, s = getattr(t, part), getattr(s, part, None)
        names = sorted(n for n in dir(t) if not n.startswith("_") and callable(getattr(t, n))
                       and not isinstance(getattr(t, n), type))
        out.append((f"tf.{ns}" if ns else "tf", len(names), [n for n in names if s is None or not hasattr(s, n)]))
    return out


KERAS = ("", "ops", "activations", "losses", "metrics", "optimizers", "optimizers.schedules", "layers", "callbacks",
         "initializers", "regularizers", "constraints", "models", "utils", "backend", "random", "mixed_precision",
         # (every other tf.keras namespace, so that the table shows the ones simdist lacks in full)
         "config", "dtype_policies", "tree", "preprocessing", "preprocessing.image", "preprocessing.sequence",
         "preprocessing.text", "applications", "datasets", "distillation",
         "distribution", "export", "legacy", "quantizers", "visualization", "wrappers")


def keras_missing() -> list[tuple[str, int, list[str]]]:
    """Every public name (classes included: layers are classes) of TF 2.21's tf.keras namespaces
    that simdist's `tf.keras` lacks."""
    import tensorflow as real
    from simdist import tf as ours
    out = []
    for ns in KERAS:
        t, s = real.keras, ours.keras
        for part in [p for p in ns.split(".") if p]:
            t, s = getattr(t, part), getattr(s, part, None)
        names = sorted(n for n in dir(t) if not n.startswith("_"))
        out.append((f"tf.keras.{ns}" if ns else "tf.keras", len(names), [n for n in names if s is None or not hasattr(s, n)]))
    return out


def table() -> str:
    rows = ["| namespace | TF 2.21 functions | missing in simdist | missing |", "|---|---|---|---|"]
    for ns, total, miss in missing() + keras_missing():
        rows.append(f"| `{ns}` | {total} | {len(miss)} | {', '.join(f'`{m}`' for m in miss)} |")
    return "\n".join(rows)


if __name__ == "__main__":
    text = table()
    if sys.argv[1:] == ["--write"]:
        doc = DOC.read_text()
        a, b = doc.index(BEGIN) + len(BEGIN), doc.index(END)
        DOC.write_text(doc[:a] + "\n" + text + "\n" + doc[b:])
    else:
        print(text)
