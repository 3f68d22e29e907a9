"""The public functions of the families fz54b's table left out (tf.signal, tf.image, tf.strings, tf.sparse,
tf.ragged, tf.bitwise, tf.sets, tf.experimental.numpy, tf.random stateless, tf.audio/io-free array ops), each one's
signature on TF 2.21 compared with simdist.tf's.

    python tests/fuzz55b/fz55b_sigs.py dump tf|simdist OUT.json
    python tests/fuzz55b/fz55b_sigs.py compare TF.json SIMDIST.json

A probe: prints the functions simdist lacks and those whose parameter lists differ (names, order, defaults)."""
from __future__ import annotations

import inspect
import json
import re
import sys

FAMILIES = ["signal", "image", "strings", "sparse", "ragged", "bitwise", "sets", "experimental.numpy",
            "random", "nn", "math", "linalg", "dtypes", "debugging", "io"]


def _get(root, path):  # noqa: ANN001, ANN202
    for part in path.split("."):
        root = getattr(root, part)
    return root


def dump(backend: str, out: str) -> None:
    if backend == "tf":
        import tensorflow as tf
    else:
        from simdist import tf
    res: dict = {}
    for fam in FAMILIES:
        try:
            mod = _get(tf, fam)
        except AttributeError:
            res[f"tf.{fam}"] = "MISSING-MODULE"
            continue
        names = sorted(n for n in dir(mod) if not n.startswith("_")) if backend == "tf" else None
        res[f"tf.{fam}"] = {"names": names, "sigs": {}}
    if backend != "tf":
        with open(sys.argv[4]) as fh:
            ref = json.load(fh)
    for fam in FAMILIES:
        ent = res[f"tf.{fam}"]
        if ent == "MISSING-MODULE":
            continue
        mod = _get(tf, fam)
        names = ent["names"] if backend == "tf" else (ref[f"tf.{fam}"]["names"] or [])
        for n in names:
            try:
                obj = getattr(mod, n)
            except AttributeError:
                ent["sigs"][n] = "MISSING"
                continue
            if inspect.ismodule(obj) or inspect.isclass(obj) or not callable(obj):
                ent["sigs"][n] = "other"
                continue
            try:
                sig = inspect.signature(obj)
                ent["sigs"][n] = [[p.name, str(p.kind), repr(p.default) if p.default is not p.empty else None]
                                  for p in sig.parameters.values()]
            except (TypeError, ValueError):
                ent["sigs"][n] = "nosig"
    with open(out, "w") as fh:
        json.dump(res, fh, indent=0, sort_keys=True)


def normal(default: str | None) -> str | None:
    """A default's repr without addresses (`<function hann_window at 0x7f...>`: the same function in both)."""
    if default is None:
        return None
    return re.sub(r" at 0x[0-9a-f]+>", ">", default)


def compare(a: str, b: str) -> None:
    with open(a) as fh:
        t = json.load(fh)
    with open(b) as fh:
        s = json.load(fh)
    missing, differ, n = [], [], 0
    for fam, ent in t.items():
        if ent == "MISSING-MODULE":
            continue
        if s.get(fam) == "MISSING-MODULE":
            missing.append(f"{fam} (module)")
            continue
        for name, sig in ent["sigs"].items():
            if sig in ("other",):
                continue
            n += 1
            got = s[fam]["sigs"].get(name, "MISSING")
            if got == "MISSING":
                missing.append(f"{fam}.{name}")
            elif isinstance(sig, list) and isinstance(got, list):
                tn = [p[0] for p in sig if not p[1].startswith("VAR")]
                gn = [p[0] for p in got if not p[1].startswith("VAR")]
                if tn != gn or any(p[1].startswith("VAR") for p in got) and not any(p[1].startswith("VAR") for p in sig):
                    differ.append(f"{fam}.{name}: TF {tn} simdist {gn}")
                else:
                    dd = [(p[0], p[2], q[2]) for p, q in zip(sig, got) if normal(p[2]) != normal(q[2])]
                    if dd:
                        differ.append(f"{fam}.{name}: defaults {dd}")
    print(f"{n} functions; {len(missing)} missing; {len(differ)} signatures differ")
    print("MISSING:\n  " + "\n  ".join(missing))
    print("DIFFER:\n  " + "\n  ".join(differ))


if __name__ == "__main__":
    if sys.argv[1] == "dump":
        dump(sys.argv[2], sys.argv[3])
    else:
        compare(sys.argv[2], sys.argv[3])
