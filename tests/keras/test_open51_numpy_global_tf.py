"""Keras's legacy augmentation draws from NumPy's global generator (the fifty-first session, helper open51;
clause keras.preprocessing.image-generator): a program's own `np.random.seed(s)` before an unseeded
ImageDataGenerator call, a flow without a seed, or a seeded flow (which re-seeds the global generator with
seed + total_batches_seen) must give Keras 3.15's draws bit for bit, and leave the global stream where Keras
leaves it (the draws after it are compared too). simdist's own determinism without any seed (`simdist launch`
seeding each client's generators from the root seed) is tests/cli/test_launch_cli.py's. Each case: a list of
[label, value or [error class, first line]]; an array is [dtype, shape, values rounded to 4 decimals].
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np
import pytest

import tf_programs
import tf_workers

pytestmark = [pytest.mark.tf, tf_workers.tf_or_golden(__file__)]


def _val(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        return [str(x.dtype), list(x.shape), np.round(x.astype(np.float64), 4).tolist()]
    if isinstance(x, (list, tuple)):
        return [_val(v) for v in x]
    if isinstance(x, dict):
        return {k: _val(v) for k, v in sorted(x.items())}
    if isinstance(x, np.generic):
        return x.item()
    return x


def _try(out: list, label: str, fn: Callable[[], Any]) -> None:
    try:
        out.append([label, _val(fn())])
    except BaseException as e:  # noqa: BLE001 - the class and text are what is compared
        out.append([label, [type(e).__name__, str(e).split("\n")[0][:120]]])


def _images(n: int, seed: int) -> np.ndarray:
    return (np.random.RandomState(seed).uniform(0, 1, (n, 5, 6, 3)) * 255.0).astype(np.float32)


def program(tf: Any, case: dict, workdir: str) -> Any:
    out: list[Any] = []
    im = tf.keras.preprocessing.image
    x, y = _images(6, 1), np.arange(6)
    after = lambda: np.random.rand(3)   # noqa: E731 - where the global stream stands afterwards
    if case["name"] == "transforms_after_np_seed":
        gen = im.ImageDataGenerator(rotation_range=30, width_shift_range=[1, 2, 3], height_shift_range=0.2,
                                    shear_range=10, zoom_range=0.3, horizontal_flip=True, vertical_flip=True,
                                    channel_shift_range=20.0, brightness_range=(0.5, 1.5))
        np.random.seed(5)
        _try(out, "get_random_transform", lambda: gen.get_random_transform((5, 6, 3)))
        _try(out, "random_transform", lambda: gen.random_transform(x[0]))
        _try(out, "global stream after", after)
        np.random.seed(5)
        _try(out, "get_random_transform again", lambda: gen.get_random_transform((5, 6, 3)))
        _try(out, "random_rotation then stream", lambda: [im.random_rotation(x[1], 40, 0, 1, 2), after()])
    elif case["name"] == "flows":
        gen = im.ImageDataGenerator(rotation_range=20, horizontal_flip=True)
        np.random.seed(11)
        it = gen.flow(x, y, batch_size=4, shuffle=True)
        _try(out, "unseeded flow epoch 1", lambda: [it.next()[1], it.next()[1]])
        _try(out, "unseeded flow epoch 2", lambda: [it.next()[1], it.next()[1]])
        _try(out, "global stream after", after)
        seeded = gen.flow(x, y, batch_size=3, shuffle=True, seed=3)
        _try(out, "seeded flow batch", lambda: seeded.next())
        _try(out, "global stream after seeded batch", after)   # (seed + total_batches_seen re-seeds it)
        np.random.seed(2)
        _try(out, "indexed batch", lambda: gen.flow(x, y, batch_size=2, shuffle=True)[1])
        _try(out, "global stream after indexed batch", after)
    return out


NAMES = ["transforms_after_np_seed", "flows"]
CASES: dict[str, dict] = {n: {"strategy": "default", "name": n} for n in NAMES}


@pytest.fixture(scope="module")
def tf_results(request: Any) -> dict[int, Any]:
    return tf_programs.spawn(__file__, CASES, tf_programs.selected(request, __file__))


@pytest.mark.clause("keras.preprocessing.image-generator")
@pytest.mark.parametrize("index", range(len(NAMES)), ids=NAMES)
def test_numpy_global_draws_as_tf(index: int, tf_results: dict[int, Any], tmp_path: Any) -> None:
    name = NAMES[index]
    got, want = tf_programs.on_simdist(program, CASES[name], str(tmp_path)), tf_results[index]
    assert [g[0] for g in got] == [w[0] for w in want], f"{name}: labels differ"
    for g, w in zip(got, want):
        assert g == w, f"{name}: {w[0]}: simdist gives {g[1]}, TF 2.21 gives {w[1]}"


if __name__ == "__main__":  # TF worker
    tf_workers.serve(tf_programs.worker(CASES, program))
