"""The boundary around user code (issue 28 item 2): every way a scenario's ``model.function`` can
be wrong is a clear error at model.function with the user code's file:line (exit 2, before any
run), never an internal error, a traceback or a silent exit; user modules are imported from the
same places whichever entry point runs simdist."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scenario_helpers import ROOT, cli, write

SCENARIO = """
[scenario]
name = "user-model"
seed = 0

[cluster]
preset = "gpu_host"
gpus = 2

[strategy]
kind = "mirrored"

[model]
function = "{module}:{function}"

[data]
dataset = "digits"
batch_size = 64

[training]
steps = 4
"""

MODULE = '''
from simdist import tf


def good(input_shape, num_classes):
    return tf.keras.Sequential([tf.keras.Input(shape=input_shape), tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(num_classes)])


def returns_none(input_shape, num_classes):
    return None


def returns_layer(input_shape, num_classes):
    return tf.keras.layers.Dense(num_classes)


def wrong_width(input_shape, num_classes):
    return tf.keras.Sequential([tf.keras.Input(shape=input_shape), tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(num_classes + 1)])


def one_argument(input_shape):
    return None


def raises(input_shape, num_classes):
    raise ValueError("no model today")


def exits(input_shape, num_classes):
    import sys
    sys.exit(0)


def interrupts(input_shape, num_classes):
    raise KeyboardInterrupt


NOT_CALLABLE = 3
'''


def _scenario(tmp: Path, module: str, function: str, source: str = MODULE) -> Path:
    (tmp / f"{module}.py").write_text(source, encoding="utf-8")
    return write(tmp, SCENARIO.format(module=module, function=function))


@pytest.mark.parametrize("function, says, line", [
    ("returns_none", "returned None, not a tf.keras Model", 10),
    ("returns_layer", "a layer: wrap it", 14),
    ("wrong_width", "not logits of shape (2, 10)", None),
    ("one_argument", "cannot be called as function(input_shape, num_classes)", 23),
    ("raises", "raised ValueError: no model today", 28),
    ("exits", "called sys.exit(0)", 33),
    ("interrupts", "raised KeyboardInterrupt", 37),
    ("NOT_CALLABLE", "is a int, not a function", None),
    ("missing", "has no 'missing'", None),
])
def test_a_wrong_model_function_is_a_scenario_error_with_its_file_and_line(tmp_path: Path, function: str, says: str,
                                                                             line: int | None) -> None:
    module = f"usermod_{function.lower()}"
    path = _scenario(tmp_path, module, function)
    code, out, err = cli("run", str(path), "--out", str(tmp_path / "out"), "--no-progress")
    assert code == 2, f"{function}: expected exit 2 (a bad scenario), got {code}\nstdout:\n{out}\nstderr:\n{err}"
    assert "model.function: " in err and says in err, f"{function}: expected an error at model.function saying " \
                                                        f"{says!r}, got:\n{err}"
    if line is not None:
        assert f"{module}.py:{line}" in err, f"{function}: expected the file:line {module}.py:{line} in:\n{err}"
    assert "Traceback" not in err and "internal error" not in err, err
    assert not (tmp_path / "out").exists(), "nothing is written before the scenario is valid"


@pytest.mark.parametrize("source, says", [
    ("def build(a, b):\n    return (\n", "has a syntax error at"),
    ("import no_such_dependency_xyz\n", "No module named 'no_such_dependency_xyz'"),
    ("raise RuntimeError('broken at import')\n", "raised RuntimeError: broken at import"),
    ("import sys\nsys.exit(0)\n", "called sys.exit(0)"),
])
def test_a_module_that_cannot_be_imported_is_a_scenario_error(tmp_path: Path, source: str, says: str) -> None:
    module = f"usermod_import_{abs(hash(source)) % 10 ** 8}"
    path = _scenario(tmp_path, module, "build", source)
    code, out, err = cli("run", str(path), "--out", str(tmp_path / "out"), "--no-progress")
    assert code == 2 and "model.function: " in err and says in err, \
        f"expected exit 2 at model.function saying {says!r}; got {code}:\n{out}\n{err}"
    assert f"{module}.py:" in err, f"the error names the module's file and line:\n{err}"


def test_a_good_model_function_trains(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "usermod_good", "good")
    code, out, err = cli("run", str(path), "--out", str(tmp_path / "out"), "--no-progress", "--quiet")
    assert code == 0, f"{code}\n{out}\n{err}"
    assert (tmp_path / "out" / "metrics.json").is_file()


_CONSOLE_SCRIPT = """import sys
from simdist.cli import main
sys.exit(main())
"""


@pytest.mark.parametrize("entry", ["console_script", "module"])
@pytest.mark.parametrize("where", ["scenario_dir", "working_dir"])
def test_user_modules_are_found_the_same_way_from_every_entry_point(tmp_path: Path, entry: str, where: str) -> None:
    """The rule (docs/scenarios.md): the scenario file's directory, then the working directory,
    then PYTHONPATH. The console script's sys.path[0] is its own directory, not the working
    directory; `python -m simdist`'s is the working directory: the same modules are found."""
    scen_dir, work_dir, bin_dir = tmp_path / "scen", tmp_path / "work", tmp_path / "bin"
    for d in (scen_dir, work_dir, bin_dir):
        d.mkdir()
    module = f"entrymod_{entry}_{where}"
    (scen_dir if where == "scenario_dir" else work_dir).joinpath(f"{module}.py").write_text(MODULE, encoding="utf-8")
    path = write(scen_dir, SCENARIO.format(module=module, function="good"))
    (bin_dir / "simdist").write_text(_CONSOLE_SCRIPT, encoding="utf-8")
    cmd = [sys.executable, str(bin_dir / "simdist")] if entry == "console_script" else [sys.executable, "-m", "simdist"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run(cmd + ["run", str(path), "--dry-run"], cwd=work_dir, env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, f"{entry}, module in the {where}: exit {proc.returncode}\n{proc.stderr}"
    assert "valid" in proc.stdout, proc.stdout


RUNTIME_MODULE = '''
from simdist import tf


class Fragile(tf.keras.layers.Layer):
    def call(self, x, training=None):
        if training:
            raise FloatingPointError("the layer gave up while training")
        return x


def build(input_shape, num_classes):
    return tf.keras.Sequential([tf.keras.Input(shape=input_shape), tf.keras.layers.Flatten(),
                                tf.keras.layers.Dense(num_classes), Fragile()])
'''


def test_user_code_failing_during_the_run_is_a_failed_run_with_its_file_and_line(tmp_path: Path) -> None:
    path = _scenario(tmp_path, "usermod_fragile", "build", RUNTIME_MODULE)
    code, out, err = cli("run", str(path), "--out", str(tmp_path / "out"), "--no-progress", "--quiet")
    assert code == 1, f"a documented run failure (exit 1), got {code}\n{out}\n{err}"
    assert "FloatingPointError: the layer gave up while training" in err and "usermod_fragile.py:8" in err, err
    assert "internal error" not in err and "Traceback" not in err, err
    import json
    m = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert m["status"] == "failed" and m["error"].startswith("UserCodeError: model.function: "), m["error"]
