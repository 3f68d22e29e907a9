"""Builds fz54b_aliases.json, the public spellings of each fz54b function, from TF 2.21 itself (run once on TF;
the JSON is committed so that both backends' workers draw the same programs without importing TF).

A function's aliases are the other public names that reach the same Python object: `tf.math.add` is also `tf.add`,
`tf.linalg.matmul` also `tf.matmul`; the spellings searched are tf.<name>, tf.math.<name>, tf.nn.<name>,
tf.linalg.<name> and tf.compat.v2... of the function's last name only (no renamed aliases). The generator's
`--alias` mode calls a function through one of them now and then.

    python tests/fuzz54b/fz54b_aliases.py      # (with TF 2.21 installed) rewrites tests/fuzz54b/fz54b_aliases.json
"""
from __future__ import annotations

import json
import os

import tensorflow as tf

HERE = os.path.dirname(os.path.abspath(__file__))
SPACES = ["tf", "tf.math", "tf.nn", "tf.linalg"]


def _get(path: str):  # noqa: ANN202
    obj = tf
    for part in path.split(".")[1:]:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def main() -> None:
    with open(os.path.join(HERE, "fz54b_ops.json")) as fh:
        table = json.load(fh)
    out = {}
    for fn in sorted(table):
        f = _get(fn)
        last = fn.split(".")[-1]
        al = [f"{s}.{last}" for s in SPACES if f"{s}.{last}" != fn and _get(f"{s}.{last}") is f]
        if al:
            out[fn] = al
    with open(os.path.join(HERE, "fz54b_aliases.json"), "w") as fh:
        json.dump(out, fh, indent=1, sort_keys=True)
        fh.write("\n")
    print(f"{len(out)} functions with aliases, {sum(map(len, out.values()))} aliases")


if __name__ == "__main__":
    main()
