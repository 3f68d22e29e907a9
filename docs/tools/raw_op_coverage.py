"""The raw-op coverage of docs/ops-coverage.md (clause ops.raw-ops): how many of TF 2.21's raw ops
`tf.raw_ops` of simdist's facade has, and how many of the target list (the raw ops TF executes for
the public functions simdist implements, recorded by docs/tools/raw_op_targets.py into
raw_op_targets.json), with the target ops it lacks, most executed first, each with its number of
calls and why simdist has no raw form of it:

    python docs/tools/raw_op_coverage.py            # print the Markdown section
    python docs/tools/raw_op_coverage.py --write    # rewrite it in docs/ops-coverage.md

Reads the recorded JSON: no TensorFlow needed (raw_op_targets.py --record needs it).
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "ops-coverage.md"
BEGIN, END = "<!-- raw-ops -->", "<!-- /raw-ops -->"
TOP = 100   # (every lacking op of the target list, while it is this short)


def section() -> str:
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "docs" / "tools"))
    from simdist.runtime.ops import raw_ops
    import simdist.tf  # noqa: F401
    import raw_op_targets
    data = raw_ops.opdefs()
    bound = set(raw_ops.bound_names())
    done, lacking = raw_op_targets.targets()
    unbound = raw_ops.unbound()
    n = len(done) + len(lacking)
    lines = [BEGIN, "", f"`tf.raw_ops` has **{len(bound)} of {data['count']:,}** raw ops of TF {data['tensorflow']}. "
             f"Registered ops without a raw form: {len(unbound)} (`raw_ops.unbound()` says why).", "",
             f"Target list (`docs/tools/raw_op_targets.py`: the raw ops TF executes while the per-op test matrix and "
             f"the differential modules run the public functions simdist implements): **{len(done)} of {n}** bound; "
             f"the ones lacking, most executed first (calls):", "",
             "| Raw op | Calls | simdist |", "|---|---|---|"]
    for name, c in lacking[:TOP]:
        why = unbound.get(name, "not registered (a composition of other ops, or not implemented)")
        lines.append(f"| `{name}` | {c} | {why} |")
    lines += ["", END]
    return "\n".join(lines)


def main() -> None:
    text = section()
    if "--write" not in sys.argv:
        print(text)
        return
    doc = DOC.read_text()
    if BEGIN in doc:
        head, rest = doc.split(BEGIN, 1)
        doc = head + text + rest.split(END, 1)[1]
    else:
        doc = doc.rstrip("\n") + "\n\n## Raw ops (`tf.raw_ops`, clause `ops.raw-ops`)\n\n" \
            "Computed by `python docs/tools/raw_op_coverage.py --write` against the installed TF 2.21.\n\n" + text + "\n"
    DOC.write_text(doc)


if __name__ == "__main__":
    main()
