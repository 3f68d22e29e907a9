"""harden16's config enumeration covers every Keras class simdist ships: each public class of
simdist's tf.keras namespaces is recorded (under its own name or as an alias of a recorded class),
or listed in harden16_configs.SKIP with the reason, or named here as absent from TF 2.21's tf.keras.
A class added to simdist without a recording fails here (re-run harden16_record)."""

from __future__ import annotations

from simdist import tf
from simdist.conformance.suite import harden16_configs as configs
from simdist.conformance.suite import harden16_reference as reference

#: simdist classes TF 2.21's tf.keras does not have (the recorder logs them as "not in TF 2.21").
NOT_IN_TF = {"initializers.RandomInitializer"}


def test_every_shipped_class_is_recorded_or_skipped_with_a_reason():
    recorded = {(c["namespace"], c["class"]) for c in reference.load()["configs"]}
    missing = []
    for ns in configs.NAMESPACES:
        module = configs.resolve(tf.keras, *ns.rsplit(".", 1)) if "." in ns else getattr(tf.keras, ns)
        for name in configs.class_names(tf.keras, ns):
            key = f"{ns}.{name}"
            if (ns, name) in recorded or key in configs.SKIP or key in NOT_IN_TF:
                continue
            own = getattr(module, name).__name__
            if (ns, own) in recorded:
                continue   # an alias (AvgPool1D of AveragePooling1D, glorot_uniform of GlorotUniform)
            missing.append(key)
    assert not missing, f"classes without a recorded config case: {missing}, but should be none " \
                        f"(re-run `{reference.RECORD_COMMAND}` or add them to SKIP with the reason)"


def test_the_recording_covers_every_namespace_and_sets_arguments():
    data = reference.load()["configs"]
    for ns in configs.NAMESPACES:
        cases = [c for c in data if c["namespace"] == ns]
        assert cases, f"no recorded case of tf.keras.{ns}, but should be some"
        bare = [c["class"] for c in cases if len(c["kwargs"]) == 0]
        assert len(bare) < len(cases), f"tf.keras.{ns}: no case sets any argument, but should ({bare})"
