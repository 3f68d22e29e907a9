"""Rewrite tests/fuzz20/fz20_seen.py from campaign logs (`fz20_campaign.py ... > LOG`): one entry per
(label, kind, TF's sign) a log reports (run it on the current code: a fixed class is gone), with where it
was found and both outcomes (shortened), as tests/fuzz14/fz14_seen_refresh.py does for the fourteenth
fuzzer. A class whose TF outcome is a ValueError while the graph is built and simdist's an
InvalidArgumentError when it runs is marked as TF's shape function (the pattern every such class
analysed showed: tensorflow/core/ops/*.cc run when a tf.function adds the op, which simdist models for a
raw op only where the op has an OpDef.trace_shape or the error is one of raw_rules' marked ones).

    python tests/fuzz20/fz20_seen_refresh.py LOG [LOG ...]
"""

from __future__ import annotations

import os
import pprint
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fuzz14"))
from fz14_seen_refresh import _sign  # noqa: E402


def _note(kind: str, tf: str, sd: str) -> str:
    if "'ValueError'" in tf and "'InvalidArgumentError'" in sd and kind in ("error-class", "accepts"):
        return "TF's shape function (ValueError at trace), simdist's kernel error when the graph runs: "
    return ""


def main(paths: list[str]) -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    seen: dict[tuple[str, str, str], str] = {}
    for path in paths:
        text = open(path).read()
        for block in text.split("DISAGREE ")[1:]:
            head = block.split("\n")[0]
            m = re.match(r"\('(.*)', '([\w-]+)', '(\w+)'\) seed=(\d+) index=(\d+)", head)
            if not m:
                continue
            label, kind, mode, seed, index = m.groups()
            sd = re.search(r"simdist: (.*)", block).group(1)
            tf = re.search(r"TF 2.21: (.*)", block).group(1)
            key = (label, kind, _sign(tf))
            seen.setdefault(key, f"{_note(kind, tf, sd)}seed {seed} #{index} ({mode}): TF 2.21 {tf[:90]}; "
                                 f"simdist {sd[:90]}")
    with open(os.path.join(here, "fz20_seen.py"), "w") as fh:
        fh.write('"""Classes the twentieth fuzzer\'s campaigns found and nobody has analysed one by one yet (generated\n'
                 'by fz20_seen_refresh.py from campaign logs; see fz20_known.py): (label, kind, TF\'s sign) -> where\n'
                 'and what each side did."""\n\nSEEN: dict[tuple[str, str, str], str] = ' +
                 pprint.pformat(dict(sorted(seen.items())), width=118) + "\n")
    print(f"{len(seen)} classes")


if __name__ == "__main__":
    main(sys.argv[1:])
