"""The default-config cases of ``test_harden19_defaults_configs.py``: every class harden16 enumerates
(its namespaces, its SKIP, aliases once), built with only its REQUIRED arguments, right after
``keras.backend.clear_session()`` so that the automatic name is the first one ("dense", not
"dense_3"). Expected: TF 2.21's ``get_config()`` of the same construction, floats bit-exact.
Nothing here imports TensorFlow.
"""

from __future__ import annotations

import inspect
from typing import Any, Callable

from simdist.conformance.suite import harden16_configs


#: Config fields drawn at random when not given (Keras's make_default_seed: python_random.randint(1, 1e9),
#: unseeded): checked to be such a draw, not compared with TF's.
RANDOM_FIELDS: dict[str, tuple[str, ...]] = {"layers.RandomCrop": ("seed",)}


def random_field_problems(case: dict[str, Any], config: dict[str, Any]) -> list[str]:
    """For each drawn field of the case's class: a problem unless it is an int in [1, 1e9]; the
    field is then set to the recorded value, so that the rest of the config compares exactly."""
    problems = []
    for field in RANDOM_FIELDS.get(f"{case['namespace']}.{case['class']}", ()):
        value = config.get(field)
        if not (isinstance(value, int) and 1 <= value <= 10**9):
            problems.append(f"/{field}: {value!r}, but should be a default seed drawn in [1, 1e9]")
        config[field] = case["config"].get(field)
    return problems


def required_kwargs(keras: Any, namespace: str, name: str) -> dict[str, Any] | None:
    """The encoded required arguments of one class (harden16's values for them; None: none known)."""
    cls = harden16_configs.resolve(keras, namespace, name)
    own = harden16_configs.REQUIRED_BY_CLASS.get(f"{namespace}.{name}", {})
    kwargs: dict[str, Any] = {}
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == "self" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) or p.default is not p.empty:
            continue
        if p.name in own:
            kwargs[p.name] = own[p.name]
        elif p.name in harden16_configs.REQUIRED:
            kwargs[p.name] = harden16_configs.REQUIRED[p.name]
        else:
            return None
    return kwargs


def config_at_defaults(keras: Any, case: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(object, its config as plain JSON) of one case, built right after clear_session()."""
    keras.backend.clear_session()
    obj = harden16_configs.build(keras, case)
    return obj, harden16_configs.normalize(obj.get_config())


def generate(keras: Any, namespace: str, name: str, log: Callable[[str], None] = print) -> dict[str, Any] | None:
    """Record one class on TF: its required kwargs and TF's config (None, logged, if TF refuses)."""
    kwargs = required_kwargs(keras, namespace, name)
    if kwargs is None:
        log(f"{namespace}.{name}: a required argument without a value")
        return None
    case = {"namespace": namespace, "class": name, "kwargs": kwargs}
    try:
        case["config"] = config_at_defaults(keras, case)[1]
        return case
    except Exception as e:  # noqa: BLE001 - refused: retried with harden16's minimal set-up of the class
        own = harden16_configs.REQUIRED_BY_CLASS.get(f"{namespace}.{name}")
        log(f"{namespace}.{name}: refused at its defaults ({type(e).__name__}: {e}); "
            f"{'with ' + str(own) if own else 'dropped'}")
    if not own:
        return None
    case["kwargs"] = {**kwargs, **own}   # (CategoryEncoding's num_tokens, Discretization's boundaries)
    try:
        case["config"] = config_at_defaults(keras, case)[1]
    except Exception as e:  # noqa: BLE001 - TF refusing it again drops the class
        log(f"{namespace}.{name}: refused again: {type(e).__name__}: {e}")
        return None
    return case
