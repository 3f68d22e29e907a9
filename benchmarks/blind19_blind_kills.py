"""Run the nineteenth blind batch's fourteen first-contact survivors against a slice of the suite (by
default the modules written in the same session without seeing the batch), one mutant at a time in a
private copy of the committed package (suite_kills.py's plant-and-run):

    python benchmarks/blind19_blind_kills.py ["-k EXPRESSION"]

Prints the baseline (the unmutated copy must pass) and one line per mutant: killed (with the failing
test) or survived. docs/conformance.md ("Twenty-first session ... a nineteenth blind batch") has the
figure: 1 of 14 with the default slice.
"""

from __future__ import annotations

import sys

from suite_kills import find, run

SURVIVORS = ["cutmix-box-y-drawn-before-x", "random-hue-shift-not-halved", "random-zoom-offsets-height-width-swapped",
             "random-crop-equal-side-takes-random-offset", "random-saturation-factor-without-epsilon",
             "resizing-int-images-truncated", "adaptive-pool-channels-first-shape-last-axis",
             "hashed-crossing-one-hot-shape-keeps-unit-axis", "input-spec-max-ndim-inclusive",
             "set-image-data-format-case-sensitive", "sets-difference-flip-ignored", "ifftshift-same-as-fftshift",
             "window-periodic-odd-length-extended", "text-file-initializer-line-offset-ignored"]


def main(argv: list[str]) -> int:
    k = argv[0] if argv else "survey21 or klayers21 or codecs21"
    print("baseline", run(None, k), flush=True)
    for mid in SURVIVORS:
        print(mid, run(find(mid, {}), k), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
