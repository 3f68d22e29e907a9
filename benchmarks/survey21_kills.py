"""Does the survey21 suite family kill bugs planted in options the option survey found uncovered?
Plant each (one of OWN below, not in the catalogue; or a catalogue id) in a private copy of the
committed package and run only ``-k survey21`` of the conformance suite against it (simdist backend),
every failing test listed (suite_kills.py's plant-and-run).

    python benchmarks/survey21_kills.py ID [ID ...]     # own:NAME, own (all OWN), blind18 (the eighteenth
                                                        # batch's 10 survivors), catalogue ids, baseline

OWN was written from the survey's list of (API, parameter) pairs the suite never set (benchmarks/
suite_options.py --set-only, 2026-12-01, docs/survey21_options.json "before"), most-used APIs first,
before any of them was run against the survey21 modules. Prints one line per mutant: killed (with every
failing test) or survived.
"""

from __future__ import annotations

import sys

from suite_kills import expand as _expand, find as _find, mutants, run as _run

_R = "simdist/runtime/"


def _m(mid: str, path: str, old: str, new: str, why: str) -> mutants.Mutant:
    return mutants.Mutant(mid, "option", path, old, new, why, layer="training")


#: Ten bugs, one option each, from the survey's never-set list (the pair named first).
OWN = {m.id: m for m in [
    _m("random-normal-ignores-mean", _R + "ops/random.py",
       '    return dispatch.execute(NORMAL, (), {"shape": shp, "mean": float(mean), "stddev": float(stddev),',
       '    return dispatch.execute(NORMAL, (), {"shape": shp, "mean": 0.0, "stddev": float(stddev),',
       "tf.random.normal(mean): a scalar mean is dropped (draws centred on 0)"),
    _m("random-categorical-dtype-ignored", _R + "ops/random.py",
       '    return dispatch.execute(MULTINOMIAL, (lt,), {"num_samples": n, "dtype": dt, **_seed_attrs(seed)})',
       '    return dispatch.execute(MULTINOMIAL, (lt,), {"num_samples": n, "dtype": dtypes.int64, **_seed_attrs(seed)})',
       "tf.random.categorical(dtype): always int64"),
    _m("image-rot90-k-clockwise", _R + "ops/image_basic.py",
       "    kk = int(dispatch.static_value(kt)) % 4",
       "    kk = (-int(dispatch.static_value(kt))) % 4",
       "tf.image.rot90(k): k quarter turns clockwise instead of counter-clockwise (k=2 unchanged)"),
    _m("convert-image-dtype-float-saturate-ignored", _R + "ops/image_basic.py",
       "    scaled = ops.multiply(img, dt.max + 0.5)\n    return saturate_cast(scaled, dt) if saturate else ops.cast(scaled, dt)",
       "    scaled = ops.multiply(img, dt.max + 0.5)\n    return ops.cast(scaled, dt)",
       "tf.image.convert_image_dtype(saturate=True) float -> int casts without saturating"),
    _m("nms-score-threshold-inclusive", _R + "ops/image_nms.py",
       "        if s > score_threshold:\n            heap.append",
       "        if s >= score_threshold:\n            heap.append",
       "tf.image.non_max_suppression(score_threshold): a score equal to the threshold is a candidate"),
    _m("ssim-k1-k2-swapped", _R + "ops/image_basic.py",
       "    c1 = ops.pow_(ops.multiply(k1, mv), 2)\n    c2 = ops.pow_(ops.multiply(k2, mv), 2)",
       "    c1 = ops.pow_(ops.multiply(k2, mv), 2)\n    c2 = ops.pow_(ops.multiply(k1, mv), 2)",
       "tf.image.ssim(k1, k2): the two stabilising constants swapped"),
    _m("rebatch-drop-remainder-ignored", _R + "data/dataset.py",
       "        return _RebatchDataset(self, sizes, bool(drop_remainder))",
       "        return _RebatchDataset(self, sizes, False)",
       "Dataset.rebatch(drop_remainder=True) keeps the partial last batch"),
    _m("decode-csv-use-quote-delim-ignored", _R + "ops/decode_csv.py",
       "        fields = _fields(as_bytes(raw), delim[0], use_quote_delim, select_cols)",
       "        fields = _fields(as_bytes(raw), delim[0], True, select_cols)",
       "tf.io.decode_csv(use_quote_delim=False) still treats quotes as field quoting"),
    _m("tf-random-normal-initializer-mean-ignored", "simdist/tf/_initializers.py",
       "        return self._random_generator.random_normal(kwargs.get(_PARTITION_SHAPE, shape), self.mean, self.stddev, d)",
       "        return self._random_generator.random_normal(kwargs.get(_PARTITION_SHAPE, shape), 0.0, self.stddev, d)",
       "tf.random_normal_initializer(mean): the mean is dropped"),
    _m("sample-from-datasets-ignores-stop-on-empty", _R + "data/sampling.py",
       "    selector = random(seed, rerandomize_each_iteration).batch(2).map(constant)\n"
       "    return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)",
       "    selector = random(seed, rerandomize_each_iteration).batch(2).map(constant)\n"
       "    return _DirectedInterleaveDataset(selector, datasets, False)",
       "sample_from_datasets(stop_on_empty_dataset=True) with constant weights goes on past an empty input"),
]}
BLIND18 = ["solarization-threshold-lower-scaled", "mixup-labels-weight-swapped", "random-invert-reflects-range",
           "tf-random-normal-initializer-stddev-one", "csv-dataset-header-only-first-file",
           "parse-example-ragged-trailing-empty-rows", "parse-fixed-len-zero-default-dropped",
           "parse-example-sequence-feature-padded-with-zeros", "raw-ops-group-dtype-ignores-tensor",
           "pythonify-logs-unsorted"]


def find(mid: str) -> mutants.Mutant:
    return _find(mid, OWN)


def run(m: mutants.Mutant | None) -> str:
    """Plant `m` (None: nothing, the baseline, which must pass) in a copy and run the family."""
    return _run(m, "survey21", every_failure=True)


def expand(ids: list[str]) -> list[str]:
    return _expand(ids, {"own": [f"own:{k}" for k in OWN], "blind18": BLIND18})


if __name__ == "__main__":
    for mid in expand(sys.argv[1:]):
        print(f"{mid}: {run(None if mid == 'baseline' else find(mid))}", flush=True)
