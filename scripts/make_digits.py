"""Reproduce simdist/datasets/digits.npz from scikit-learn's bundled copy of the digits data.

    python scripts/make_digits.py                       # with scikit-learn importable
    python scripts/make_digits.py --csv digits.csv.gz   # or the file itself, e.g. taken from a
                                                        # scikit-learn wheel: sklearn/datasets/data/digits.csv.gz

Source: scikit-learn (BSD 3-Clause licence, (c) the scikit-learn developers) ships
sklearn/datasets/data/digits.csv.gz, its copy of the test set of the UCI ML "Optical Recognition
of Handwritten Digits" data set (E. Alpaydin, C. Kaynak, 1998; UCI Machine Learning Repository,
https://archive.ics.uci.edu/dataset/80, CC BY 4.0): 1797 images of 8x8 pixels with values 0..16
(counts of on pixels in 4x4 blocks of 32x32 bitmaps), 10 classes (the digits 0-9). The CSV has
one image per row, 64 pixel columns then the label.

Output: an .npz with ``x`` (uint8, 1797x8x8, values 0..16) and ``y`` (uint8, 1797, values 0..9),
in the CSV's row order, written byte for byte reproducibly (the zip entries carry a fixed
timestamp), so rerunning this script gives the same file. simdist needs no scikit-learn: the
file ships in the package (simdist.datasets.load("digits")).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import zipfile
from pathlib import Path

import numpy as np

OUT = Path(__file__).resolve().parents[1] / "simdist" / "datasets" / "digits.npz"


def read_csv(path: str | None) -> np.ndarray:
    if path is None:
        try:
            import sklearn.datasets as skd   # only where it is installed: simdist never needs it
        except ImportError:
            raise SystemExit("scikit-learn is not installed: pass --csv path/to/digits.csv.gz (the file "
                             "sklearn/datasets/data/digits.csv.gz of a scikit-learn wheel)") from None
        from importlib import resources
        path = str(resources.files(skd) / "data" / "digits.csv.gz")
    return np.loadtxt(path, delimiter=",")


def write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """np.savez_compressed's layout, with fixed zip timestamps (reproducible bytes)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name, a in arrays.items():
            member = io.BytesIO()
            np.lib.format.write_array(member, np.ascontiguousarray(a), allow_pickle=False)
            info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, member.getvalue(), compresslevel=9)
    path.write_bytes(buf.getvalue())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--csv", default=None, help="scikit-learn's digits.csv.gz (default: from an installed sklearn)")
    ap.add_argument("--out", default=str(OUT), help=f"output file (default: {OUT})")
    args = ap.parse_args()
    raw = read_csv(args.csv)
    if raw.shape != (1797, 65):
        raise SystemExit(f"{args.csv}: expected 1797 rows of 65 columns, got {raw.shape}")
    x = raw[:, :64].reshape(-1, 8, 8)
    y = raw[:, 64]
    if not (np.all(x == np.round(x)) and x.min() >= 0 and x.max() <= 16 and set(np.unique(y)) == set(range(10))):
        raise SystemExit("unexpected values: pixels must be integers 0..16 and labels 0..9")
    x8, y8 = x.astype(np.uint8), y.astype(np.uint8)
    write_npz(Path(args.out), {"x": x8, "y": y8})
    content = hashlib.sha256(x8.tobytes() + y8.tobytes()).hexdigest()
    print(f"wrote {args.out}: x {x8.shape} uint8, y {y8.shape} uint8; "
          f"file sha256 {hashlib.sha256(Path(args.out).read_bytes()).hexdigest()}, content sha256 {content}")


if __name__ == "__main__":
    main()
