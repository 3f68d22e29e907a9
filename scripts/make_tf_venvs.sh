#!/usr/bin/env bash
# Create one virtual environment per TensorFlow release for the conformance matrix
# (docs/conformance.md, "TensorFlow versions side by side"). Not run by CI.
#
#   bash scripts/make_tf_venvs.sh [VENV_ROOT] [VERSION ...]
#   defaults: VENV_ROOT=/work/venvs, versions 2.15 2.17 2.19 2.21
#
# Each venv gets tensorflow-cpu==X.Y.* and simdist's core dependencies as pyproject.toml lists
# them (pytest, hypothesis, simpy, threadpoolctl, ...), except numpy and ml_dtypes, which come
# with TensorFlow (so TF 2.15 gets the numpy 1.x it needs, and TF 2.15/2.17 the ml_dtypes < 0.5
# they pin: simdist's own ml_dtypes>=0.5 is for its facade's bfloat16, which the TensorFlow
# columns do not use). simdist itself is NOT installed there:
# `simdist conformance-matrix --python PATH` runs the suite of the checkout it is started from
# (it puts that checkout first on the interpreter's PYTHONPATH).
set -euo pipefail
ROOT=${1:-/work/venvs}
shift || true
VERSIONS=("$@")
if [ ${#VERSIONS[@]} -eq 0 ]; then VERSIONS=(2.15 2.17 2.19 2.21); fi
PY=${PYTHON:-python3}
REPO=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$ROOT"
for v in "${VERSIONS[@]}"; do
  dir="$ROOT/tf${v/./}"
  if [ ! -x "$dir/bin/python" ]; then
    "$PY" -m venv "$dir"
  fi
  "$dir/bin/python" -m pip install -q --progress-bar off --upgrade pip
  mapfile -t deps < <("$dir/bin/python" - "$REPO/pyproject.toml" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    for dep in tomllib.load(f)["project"]["dependencies"]:
        if not dep.startswith(("numpy", "ml_dtypes")) and ";" not in dep:   # TensorFlow's pins win
            print(dep)
PY
)
  # the same pytest as the interpreter that runs simdist's column: pytest releases name some
  # parametrized tests differently (9.0.3 and 9.2.0 do), which the matrix would show as changes
  pin=$("$PY" -c "import pytest; print('pytest==' + pytest.__version__)" 2>/dev/null || echo pytest)
  "$dir/bin/python" -m pip install -q --progress-bar off "tensorflow-cpu==$v.*" "${deps[@]}" "$pin"
  "$dir/bin/python" -c "import tensorflow as tf, numpy; print('$dir: TensorFlow', tf.__version__, 'numpy', numpy.__version__)"
done
