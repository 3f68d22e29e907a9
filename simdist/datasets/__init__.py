"""Small real data sets shipped with simdist, and the checks a user's ``.npz`` file must pass.

    x, y = load("digits")          # uint8 (1797, 8, 8) pixels 0..16, uint8 (1797,) labels 0..9

``digits``: scikit-learn's bundled copy of the UCI ML "Optical Recognition of Handwritten Digits"
test set (E. Alpaydin, C. Kaynak, 1998; CC BY 4.0; scikit-learn's copy BSD 3-Clause), converted
once by ``scripts/make_digits.py`` (which records the source and reproduces the file byte for
byte). simdist does not depend on scikit-learn.

A user's file (`read_npz`) holds an array ``x`` (features: numbers, one row per example, any
trailing shape) and ``y`` (integer class labels 0..K-1, one per example); `check_arrays` says
what is wrong with them, every problem, each naming the array.
"""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["DATASETS", "load", "read_npz", "check_arrays", "content_digest", "DatasetError"]

_HERE = Path(__file__).resolve().parent

#: name -> (file in this package, sha256 of x.tobytes() + y.tobytes(), x shape, y shape)
DATASETS: dict[str, tuple[str, str, tuple[int, ...], tuple[int, ...]]] = {
    "digits": ("digits.npz", "87ff0c9e40dc7e2c0e34e7257799c2e3f3aec1a016363bb11cad869ec428a826",
               (1797, 8, 8), (1797,)),
}

MAX_EXAMPLES = 10_000_000
MAX_CLASSES = 100_000


class DatasetError(ValueError):
    """A data file that cannot be used; the message says what and why."""


def content_digest(x: np.ndarray, y: np.ndarray) -> str:
    """sha256 of the arrays' bytes (x then y): what identifies a shipped data set's content."""
    return hashlib.sha256(np.ascontiguousarray(x).tobytes() + np.ascontiguousarray(y).tobytes()).hexdigest()


def load(name: str) -> tuple[np.ndarray, np.ndarray]:
    """A shipped data set's (x, y) arrays, as stored."""
    if name not in DATASETS:
        raise DatasetError(f"no shipped data set {name!r} (known: {', '.join(sorted(DATASETS))})")
    return read_npz(_HERE / DATASETS[name][0])


def read_npz(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """(x, y) of an .npz file, checked by `check_arrays`; DatasetError says what is wrong."""
    p = Path(path)
    _check_npz_file(p)
    try:
        with np.load(p, allow_pickle=False) as f:
            keys = list(f.files)
            missing = [k for k in ("x", "y") if k not in keys]
            if missing:
                raise DatasetError(f"{p}: no array {' or '.join(repr(k) for k in missing)} (rule: the file holds "
                                   f"arrays x (features) and y (labels); it has {', '.join(map(repr, keys)) or 'none'})")
            x, y = f["x"], f["y"]
    except FileNotFoundError:
        raise DatasetError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise DatasetError(f"{p}: is a directory, expected an .npz file") from None
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise DatasetError(f"{p}: not a readable .npz file ({e})") from None
    except ValueError as e:   # object arrays (allow_pickle=False), a bad member
        raise DatasetError(f"{p}: cannot read its arrays ({e}) (rule: numeric arrays, no pickled objects)") from None
    problems = check_arrays(x, y)
    if problems:
        raise DatasetError(f"{p}: " + "; ".join(problems))
    return x, y


def _check_npz_file(p: Path) -> None:
    """Refuse, without opening it for long, what is not an .npz file: a FIFO or device (whose
    read would block), an .npy file (one array, not x and y), anything that is not a zip."""
    import stat
    try:
        mode = p.stat().st_mode
    except FileNotFoundError:
        raise DatasetError(f"{p}: no such file") from None
    except OSError as e:
        raise DatasetError(f"{p}: cannot be read ({e.strerror or e})") from None
    if stat.S_ISDIR(mode):
        raise DatasetError(f"{p}: is a directory, expected an .npz file")
    if not stat.S_ISREG(mode):
        raise DatasetError(f"{p}: not a regular file (a FIFO, socket or device; rule: an .npz file)")
    try:
        with open(p, "rb") as f:
            head = f.read(6)
    except OSError as e:
        raise DatasetError(f"{p}: cannot be read ({e.strerror or e})") from None
    if head == b"\x93NUMPY":
        raise DatasetError(f"{p}: an .npy file (one array), not an .npz (rule: arrays x and y in one file: "
                           "np.savez(path, x=features, y=labels))")
    if not head.startswith(b"PK"):
        raise DatasetError(f"{p}: not an .npz file (rule: a zip of arrays x and y, as np.savez writes)")


def check_arrays(x: Any, y: Any) -> list[str]:
    """Every problem of (x, y) as training data: x numeric with one row per example, y integer
    labels >= 0 of shape (examples,), at least 2 examples."""
    out: list[str] = []
    if not isinstance(x, np.ndarray) or x.dtype.kind not in "biuf":
        out.append(f"x has dtype {getattr(x, 'dtype', type(x).__name__)} (rule: x holds numbers: bool, int, uint "
                   "or float)")
    elif x.ndim < 1:
        out.append("x is a scalar (rule: x has one row per example: shape (examples, ...))")
    elif 0 in x.shape[1:]:
        out.append(f"x has shape {x.shape}: an example without features (rule: at least one feature per example)")
    elif x.dtype.kind == "f" and not np.all(np.isfinite(x)):
        out.append("x holds NaN or infinite values (rule: finite features)")
    if not isinstance(y, np.ndarray) or y.dtype.kind not in "iu":
        out.append(f"y has dtype {getattr(y, 'dtype', type(y).__name__)} (rule: y holds integer class labels)")
    elif y.ndim != 1:
        out.append(f"y has shape {y.shape} (rule: one label per example: shape (examples,))")
    elif y.size and (int(y.min()) < 0 or int(y.max()) >= MAX_CLASSES):
        out.append(f"y holds labels from {int(y.min())} to {int(y.max())} (rule: class labels 0 <= y < "
                   f"{MAX_CLASSES})")
    if out:
        return out
    if x.shape[0] != y.shape[0]:
        out.append(f"x has {x.shape[0]} examples but y has {y.shape[0]} labels (rule: x.shape[0] == y.shape[0])")
    elif x.shape[0] < 2:
        out.append(f"{x.shape[0]} example(s) (rule: at least 2, to split into training and test examples)")
    elif x.shape[0] > MAX_EXAMPLES:
        out.append(f"{x.shape[0]} examples (rule: at most {MAX_EXAMPLES:,}: the data is held in memory)")
    return out
