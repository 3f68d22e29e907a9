"""harden19a's defaults enumeration covers every class harden16 enumerates: each has a recorded
default-config case; each layer is run (harden19_layers.LAYER_CASES), a wrapper-only cell container
or a structural layer listed with the reason (STRUCTURAL); each loss, metric, optimizer, schedule,
initializer, regularizer and constraint has a values case. A class added to harden16's recording
without a harden19 case fails here."""

from __future__ import annotations

from simdist.conformance.suite import harden16_reference, harden19_layers, harden19_reference
from simdist.conformance.suite import harden19_training as training

#: classes whose values another suite module runs on both backends (session 21's klayers21), by namespace
ELSEWHERE = {
    "layers": {n: "simdist/conformance/suite/test_klayers21.py" for n in (
        "AugMix", "ContrastLimitedAdaptiveHistogramEqualization", "Equalization", "MelSpectrogram", "RandAugment",
        "RandomColorDegeneration", "RandomColorJitter", "RandomElasticTransform", "RandomErasing",
        "RandomGaussianBlur", "RandomPerspective", "RandomPosterization", "RandomSharpness", "STFTSpectrogram")}
    | {"MaxNumBoundingBoxes": "simdist/conformance/suite/test_kargs.py"},
    "initializers": {"STFT": "test_klayers21.py::test_klayers21_stft_spectrogram_and_initializer"},
}

#: namespace -> the classes harden19 runs for values.
RUN = {
    "layers": set(harden19_layers.LAYER_CASES) | set(harden19_layers.STRUCTURAL) | set(ELSEWHERE["layers"]),
    "losses": set(training.LOSS_CASES), "metrics": set(training.METRIC_CASES),
    "optimizers": set(training.OPTIMIZERS), "optimizers.schedules": set(training.SCHEDULES),
    "initializers": set(training.INITIALIZERS) | set(ELSEWHERE["initializers"]),
    "regularizers": set(training.REGULARIZERS),
    "constraints": set(training.CONSTRAINTS),
}


def _harden16_classes() -> list[tuple[str, str]]:
    return sorted({(c["namespace"], c["class"]) for c in harden16_reference.load()["configs"]})


def test_every_harden16_class_has_a_default_config_case():
    recorded = {(c["namespace"], c["class"]) for c in harden19_reference.load()["configs"]}
    missing = [f"{ns}.{name}" for ns, name in _harden16_classes() if (ns, name) not in recorded]
    assert not missing, f"classes without a default-config case: {missing}, but should be none " \
                        f"(re-run `{harden19_reference.RECORD_COMMAND}`)"


def test_every_harden16_class_is_run_at_its_defaults_or_listed_with_a_reason():
    missing = [f"{ns}.{name}" for ns, name in _harden16_classes() if name not in RUN[ns]]
    assert not missing, f"classes neither run for values nor listed in STRUCTURAL: {missing}, but should be none"


def test_every_case_is_recorded():
    data = harden19_reference.load()
    for area, names in (("layers", harden19_layers.LAYER_CASES), ("losses", training.LOSS_CASES),
                        ("metrics", training.METRIC_CASES), ("optimizers", training.OPTIMIZERS),
                        ("initializers", training.INITIALIZERS)):
        missing = sorted(set(names) - set(data[area]))
        assert not missing, f"{area} cases without a recording: {missing}, but should be none"
