"""Degeneracy audit (session 22, area degen22b): at which degenerate points do the suite's calls of
the non-preprocessing Keras layers, the losses and metrics, tf.nn and tf.signal sit?

    python benchmarks/degen22b_audit.py [-k EXPR] [--json out.json]

Runs the conformance suite on simdist with suite_options.py's recording hook (the set-only rule, no
re-runs) and, for every call the suite itself makes of an API of the area, reads its tensor
arguments: shape, dtype, and whether the call sits on a degenerate point —

- `square`: a spatial input whose spatial sides are all equal (H == W, D == H == W), channels_last
  and channels_first read alike (the data_format option of the call or of the layer decides);
- `equal-dims`: two non-batch axes of the same size (seq_len == features, key_dim == value_dim as
  seen through the inputs), where a swapped axis passes;
- `even`: every non-batch axis of even length (windows, strides, shifts, paddings look alike);
- `float`: a float input (integer and uint8 inputs take other casts);
- `ones-weight`: a sample_weight of all ones; `no-ties`: a y_true/labels argument without repeats;
- `off-threshold`: a threshold metric's update where no prediction equals one of its thresholds
  (`>` and `>=` agree); `mask-trivial`: a layer call whose mask is absent or all True;
- `step-divides`: a tf.signal framing call (frame, stft, overlap_and_add) whose frame step divides
  the signal's length minus the frame length (pad_end and ceil/floor of the frame count agree).

Besides suite_options' families, the hook wraps tf.signal's functions and Loss.__call__ (a loss
object's y_true, y_pred and sample_weight).

An API is reported with the flags that held in EVERY call the suite made (a flag that held always is
a point the suite never leaves), with its options never set to a non-default value among the ones
the brief names (data_format, strides, dilation_rate, padding, axis, mask, return_sequences, ...).
The report is the raw material of docs/conformance.md's "Twenty-second session: degeneracy audit
(layers, losses, metrics, tf.nn, tf.signal)" table.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE))

import suite_options as so  # noqa: E402  (a sibling script module)

AREA = ("keras.layers.", "keras.losses.", "keras.metrics.", "tf.nn.", "tf.signal.")
_NOT_AREA = ("Random", "Resizing", "Rescaling", "CenterCrop", "Solarization", "MixUp", "CutMix", "AutoContrast",
             "Equalization", "Lookup", "Hashing", "HashedCrossing", "TextVectorization", "Discretization",
             "CategoryEncoding", "Normalization.", "Mel", "STFT", "Pipeline", "AugMix", "Grayscale")
#: options whose default is a degenerate point of the area (the brief's list)
WATCH = ("data_format", "strides", "dilation_rate", "dilations", "padding", "axis", "mask", "return_sequences",
         "return_state", "go_backwards", "stateful", "sample_weight", "from_logits", "label_smoothing",
         "thresholds", "class_id", "top_k", "num_thresholds", "pad_end", "periodic", "output_padding",
         "use_causal_mask", "return_attention_scores", "key_dim", "value_dim", "reduction", "type", "norm",
         "fft_length", "frame_step", "keepdims", "center", "scale", "epsilon", "merge_mode", "unroll",
         "depth_multiplier", "groups", "output_size", "pool_size", "ignore_class", "multi_label", "curve",
         "summation_method", "num_sampled", "remove_accidental_hits", "blank_index", "logits_time_major",
         "pad_value", "size_splits", "output_mode")


def _in_area(api: str) -> bool:
    return api.startswith(AREA) and not any(s in api for s in _NOT_AREA)


class _Sym:
    """A symbolic input (KerasTensor): its shape (None for unknown sides) and dtype, no values."""

    def __init__(self, shape: tuple, dtype: str) -> None:
        self.shape = tuple(-1 if d is None else int(d) for d in shape)
        self.ndim = len(self.shape)
        self.size = 0
        self.dtype = np.dtype(dtype if dtype != "bfloat16" else "float32")


def _array(v: Any) -> Any:
    if isinstance(v, np.ndarray):
        return v
    if so._is_tensor(v):
        try:
            return np.asarray(v.numpy())
        except Exception:                      # noqa: BLE001 - a symbolic or resource value
            return None
    if type(v).__name__ == "KerasTensor":
        try:
            return _Sym(tuple(v.shape), str(v.dtype))
        except (TypeError, ValueError):
            return None
    return None


def _flags(name: str, a: Any, channels_first: bool) -> set[str]:
    out = {f"rank{a.ndim}"}
    shp = a.shape
    body = shp[1:] if a.ndim >= 2 else shp
    if a.dtype.kind == "f":
        out.add("float")
    if a.ndim >= 4:
        spatial = shp[2:] if channels_first else shp[1:-1]
        if len(set(spatial)) == 1:
            out.add("square")
    big = [d for d in body if d > 1]
    if len(big) != len(set(big)):
        out.add("equal-dims")
    if big and all(d % 2 == 0 for d in big):
        out.add("even")
    if name == "sample_weight" and a.size and np.all(a == 1):
        out.add("ones-weight")
    if name in ("y_true", "labels") and a.size and len(np.unique(a)) == a.size:
        out.add("no-ties")
    return out


def _call_flags(api: str, bound: dict, owner: Any) -> set[str]:
    """The flags of a call as a whole (not of one tensor argument)."""
    out: set[str] = set()
    if api.endswith(".update_state") and owner is not None:
        ths = getattr(owner, "thresholds", None)
        th = getattr(owner, "threshold", None)
        cut = list(np.ravel(ths)) if ths is not None else ([th] if isinstance(th, (int, float)) else [])
        pred = _array(bound.get("y_pred"))
        if cut and isinstance(pred, np.ndarray):
            if not np.isin(pred.astype(np.float64), np.asarray(cut, np.float64)).any():
                out.add("off-threshold")
    if api.endswith(".call") and "mask" in bound or api.endswith(".call") and owner is not None and \
            getattr(owner, "supports_masking", False):
        m = _array(bound.get("mask"))
        if bound.get("mask") is None or (isinstance(m, np.ndarray) and m.size and np.all(m)):
            out.add("mask-trivial")
    if api in ("tf.signal.frame", "tf.signal.stft", "tf.signal.overlap_and_add"):
        sig = _array(bound.get("signal"))
        length, step = bound.get("frame_length"), bound.get("frame_step")
        try:
            n, length_i, step_i = int(sig.shape[-1]), int(length if length is not None else 0), int(step)
            if api == "tf.signal.overlap_and_add" or (n - length_i) % step_i == 0:
                out.add("step-divides")
        except (TypeError, ValueError, AttributeError):
            pass
    return out


class AuditRecorder(so.Recorder):
    """suite_options' recorder, set-only, reading each area call's tensor arguments."""

    def __init__(self) -> None:
        super().__init__()
        self.strict = False
        self.always: dict[str, set[str]] = {}
        self.shapes: dict[str, set[str]] = defaultdict(set)

    def record(self, api: str, sig: Any, args: tuple, kwargs: dict) -> list[str]:
        out = super().record(api, sig, args, kwargs)
        if _in_area(api) and not api.endswith(".__init__"):
            try:
                self._read(api, sig.bind_partial(*args, **kwargs).arguments, args)
            except TypeError:
                pass
        return out

    def _read(self, api: str, bound: dict, args: tuple) -> None:
        owner = args[0] if args and not so._is_tensor(args[0]) else None
        fmt = bound.get("data_format") or getattr(owner, "data_format", None) or "channels_last"
        cf = str(fmt).lower() in ("channels_first", "ncw", "nchw", "ncdhw")
        seen: set[str] = set()
        for name, v in bound.items():
            for x in (v if isinstance(v, (list, tuple)) else [v]):
                a = _array(x)
                if a is None or a.ndim == 0:
                    continue
                seen |= {f"{name}:{f}" if f in ("ones-weight", "no-ties") else f for f in _flags(name, a, cf)}
                self.shapes[api].add(f"{name}{list(a.shape)}{a.dtype.name}")
        seen |= _call_flags(api, bound, owner)
        if not seen:
            return
        self.always[api] = seen if api not in self.always else self.always[api] & seen


def install_signal(rec: so.Recorder) -> None:
    """tf.signal's public functions (not in suite_options' families) and Loss.__call__."""
    import functools

    from simdist import tf
    from simdist.keras.losses.loss import Loss
    from suite_options_families import _wrap_functions
    _wrap_functions(rec, "tf.signal", tf.signal)
    orig = Loss.__call__
    sig = so._signature(orig)

    @functools.wraps(orig)
    def __call__(self_: Any, *args: Any, **kwargs: Any) -> Any:
        if rec._from_suite(1) and sig is not None:
            cls = type(self_)
            name = f"keras.losses.{cls.__name__}.call"
            rec.register(name, sig)
            rec.record(name, sig, (self_,) + args, kwargs)
        return orig(self_, *args, **kwargs)
    rec._set(Loss, "__call__", __call__)


class _Plugin(so._Plugin):
    def pytest_configure(self, config: Any) -> None:
        so.install(self.rec)
        install_signal(self.rec)


def _owner_api(api: str) -> str:
    return api.rsplit(".", 1)[0] if api.endswith((".call", ".update_state", ".__init__")) else api


def report(rec: AuditRecorder) -> dict[str, Any]:
    apis = sorted({_owner_api(a) for a in rec.calls if _in_area(a) and rec.calls[a]})
    rows = {}
    for base in apis:
        members = [a for a in rec.calls if _owner_api(a) == base]
        always: set[str] | None = None
        for a in members:
            if a in rec.always:
                always = rec.always[a] if always is None else always & rec.always[a]
        params = [p for a in members for p in rec.params.get(a, [])]
        never = sorted({p for p in params if p in WATCH}
                       - {p for a in members for p in rec.nondefault.get(a, set())})
        rows[base] = {"calls": sum(rec.calls[a] for a in members),
                      "always": sorted(always or ()),
                      "never_set": never,
                      "shapes": sorted({s for a in members for s in rec.shapes.get(a, ())})[:8]}
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-k", dest="keyword", help="only suite tests matching EXPR (pytest -k)")
    ap.add_argument("--json", help="write the per-API rows here")
    ap.add_argument("pytest_args", nargs="*")
    args = ap.parse_args(argv)
    from simdist.conformance.cli import run_on_simdist
    rec = AuditRecorder()
    code = run_on_simdist(_Plugin(rec), args.keyword, "default", args.pytest_args)
    rows = report(rec)
    for api, r in rows.items():
        flags = ",".join(f for f in r["always"] if not f.startswith("rank")) or "-"
        print(f"{api:55s} calls {r['calls']:5d}  always: {flags:40s} never set: {','.join(r['never_set']) or '-'}")
    if args.json:
        Path(args.json).write_text(json.dumps({"suite_exit": code, "rows": rows}, indent=1, sort_keys=True) + "\n")
    return 0 if code == 0 else 2


if __name__ == "__main__":
    sys.exit(main())
