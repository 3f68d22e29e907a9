"""simdist/keras/applications/ and simdist/keras/utils/file_utils.py are what
docs/tools/transcribe_keras_applications.py writes from the installed Keras 3.15 (clause keras.applications):
a hand edit of a generated file, or a generator change not re-run, fails here with the file to regenerate."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

import tf_workers

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.tf, pytest.mark.skipif(not tf_workers.HAS_TF, reason="needs Keras 3.15 (the `tf` extra)")]


def _tool():
    spec = importlib.util.spec_from_file_location("transcribe_keras_applications",
                                                  ROOT / "docs" / "tools" / "transcribe_keras_applications.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.clause("keras.applications")
def test_generated_files_are_the_transcription_of_the_installed_keras() -> None:
    import keras
    tool = _tool()
    keras_root = Path(keras.__file__).resolve().parent
    expected = {tool.OUT / "builders" / f"{n}.py": tool.builder(n, keras_root / "src") for n in tool.BUILDERS}
    expected.update({tool.OUT / name: text for name, text in tool.api_modules(keras_root).items()})
    expected[ROOT / "simdist" / "keras" / "utils" / "file_utils.py"] = tool.file_utils(keras_root / "src")
    stale = [str(p.relative_to(ROOT)) for p, text in expected.items() if not p.exists() or p.read_text() != text]
    assert not stale, (f"{stale} differ from what docs/tools/transcribe_keras_applications.py writes from Keras "
                       f"{keras.__version__}: run it (change its FIXES, not the files), but should be identical")
