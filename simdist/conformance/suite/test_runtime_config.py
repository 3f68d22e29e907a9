"""Runtime settings — clauses config.runtime-initialization and config.runtime-settings: what a
program sets through tf.config before and after TF's runtime initialises (threads, memory growth,
logical devices, TF32, op determinism), and tf.errors' status codes."""

from __future__ import annotations

import pytest

from simdist.conformance.assertions import assert_equal, raises

clause = pytest.mark.clause

# Run in a fresh client (a new process on TF), since op determinism cannot be switched off and
# the runtime initialises once per process. `result`: (label, outcome) per probe, in order.
_PROBE = '''
def probe(label, fn):
    try:
        fn()
        return [label, "ok"]
    except Exception as e:
        return [label, type(e).__name__]
'''

_INIT_PROGRAM = _PROBE + '''th = tf.config.threading
cpu = tf.config.list_physical_devices("CPU")[0]
L = tf.config.LogicalDeviceConfiguration
result = [
    probe("set intra threads to 2.5", lambda: th.set_intra_op_parallelism_threads(2.5)),
    probe("read intra threads 2.5", th.get_intra_op_parallelism_threads),
    probe("make a tensor with threads 2.5", lambda: tf.constant(1.0)),
    probe("set intra threads to 1", lambda: th.set_intra_op_parallelism_threads(1)),
    probe("set inter threads to True", lambda: th.set_inter_op_parallelism_threads(True)),
    probe("read inter threads True", th.get_inter_op_parallelism_threads),
    probe("set inter threads to 2**40", lambda: th.set_inter_op_parallelism_threads(2**40)),
    probe("read inter threads 2**40", th.get_inter_op_parallelism_threads),
    probe("set threads before any tensor", lambda: th.set_inter_op_parallelism_threads(3)),
    probe("split the CPU before any tensor", lambda: tf.config.set_logical_device_configuration(cpu, [L(), L()])),
    probe("build a Dense layer", lambda: tf.keras.layers.Dense(2)),
    probe("set threads after a layer object", lambda: th.set_intra_op_parallelism_threads(2)),
    probe("make a tensor", lambda: tf.constant(1.0)),
    probe("set threads again, same value", lambda: th.set_inter_op_parallelism_threads(3)),
    probe("set threads again, another value", lambda: th.set_inter_op_parallelism_threads(4)),
    probe("split the CPU again, same split", lambda: tf.config.set_logical_device_configuration(cpu, [L(), L()])),
    probe("split the CPU again, another split", lambda: tf.config.set_logical_device_configuration(cpu, [L()] * 3)),
    ["threads read back", [th.get_inter_op_parallelism_threads(), th.get_intra_op_parallelism_threads()]],
    ["logical CPUs", len(tf.config.list_logical_devices("CPU"))],
]
'''

_DETERMINISM_PROGRAM = _PROBE + '''tf.config.experimental.enable_op_determinism()
R = tf.raw_ops
result = [
    probe("normal without seeds", lambda: tf.random.normal([2])),
    probe("uniform without seeds", lambda: tf.random.uniform([2])),
    probe("dropout without seeds", lambda: tf.nn.dropout(tf.ones([4]), 0.5)),
    probe("shuffle a dataset without seeds", lambda: tf.data.Dataset.range(4).shuffle(4)),
    probe("a variable's random initial value", lambda: tf.Variable(tf.random.truncated_normal([2]))),
    probe("normal with an op seed", lambda: tf.random.normal([2], seed=3)),
    probe("stateless normal", lambda: tf.random.stateless_normal([2], seed=[1, 2])),
    probe("Generator.from_seed", lambda: tf.random.Generator.from_seed(1).normal([2])),
    probe("Generator.from_non_deterministic_state", lambda: tf.random.Generator.from_non_deterministic_state()),
    probe("get_global_generator before set_global_generator", lambda: tf.random.get_global_generator()),
    probe("raw RandomUniform, seed attrs 0 and 0", lambda: R.RandomUniform(shape=[2], dtype=tf.float32)),
    probe("raw RandomUniform, seed2 1", lambda: R.RandomUniform(shape=[2], dtype=tf.float32, seed2=1)),
    probe("raw FractionalMaxPool, seed attrs 0 and 0",
          lambda: R.FractionalMaxPool(value=tf.ones([1, 4, 4, 1]), pooling_ratio=[1, 1.5, 1.5, 1])),
    probe("sample_distorted_bounding_box with seed 0",
          lambda: tf.image.sample_distorted_bounding_box([4, 4, 3], tf.zeros([1, 0, 4]),
                                                        use_image_if_no_bounding_boxes=True)),
    probe("tf.random.set_seed", lambda: tf.random.set_seed(1)),
    probe("normal after set_seed", lambda: tf.random.normal([2])),
]
'''


@pytest.mark.requires("multi_client")
@clause("config.runtime-initialization", ref="tf221")
def test_runtime_initialises_at_its_first_tensor(backend):
    """TF's runtime initialises at the first tensor a program makes (not at building a layer
    object); before it, thread counts and logical device splits may change (a thread count is kept
    as given and converted when read or when the runtime starts: a float TypeError, a bool TypeError,
    2**40 ValueError); after it, setting the value a setting has is accepted and another is
    RuntimeError, and the settings made before hold."""
    got = dict(backend.run_multi_worker(_INIT_PROGRAM, 1, make_strategy=False)[0])
    want = {
        "set intra threads to 2.5": "ok", "read intra threads 2.5": "TypeError",
        "make a tensor with threads 2.5": "TypeError", "set intra threads to 1": "ok", "set inter threads to True": "ok",
        "read inter threads True": "TypeError", "set inter threads to 2**40": "ok",
        "read inter threads 2**40": "ValueError", "set threads before any tensor": "ok", "split the CPU before any tensor": "ok",
        "build a Dense layer": "ok", "set threads after a layer object": "ok", "make a tensor": "ok",
        "set threads again, same value": "ok", "set threads again, another value": "RuntimeError",
        "split the CPU again, same split": "ok", "split the CPU again, another split": "RuntimeError",
        "threads read back": [3, 2], "logical CPUs": 2,
    }
    for label, outcome in want.items():
        assert_equal(got.get(label), outcome, call=f"a fresh client: {label}", what="the outcome")


@pytest.mark.requires("multi_client")
@clause("config.runtime-settings", ref="tf221")
def test_op_determinism_requires_seeded_random_ops(backend):
    """Under tf.config.experimental.enable_op_determinism a stateful random op with neither a
    global nor an op seed is RuntimeError (random_seed.get_seed), a raw kernel whose seed attrs are
    both 0 is InvalidArgumentError (GuardedPhiloxRandom::Init; FractionalMaxPool seeds itself and
    does not check), the nondeterministic generators are RuntimeError, sample_distorted_bounding_box
    with seed 0 is ValueError; seeded, stateless and Generator.from_seed draws work."""
    got = dict(backend.run_multi_worker(_DETERMINISM_PROGRAM, 1, make_strategy=False)[0])
    refused = "RuntimeError"
    want = {
        "normal without seeds": refused, "uniform without seeds": refused, "dropout without seeds": refused,
        "shuffle a dataset without seeds": refused, "a variable's random initial value": refused,
        "normal with an op seed": "ok", "stateless normal": "ok", "Generator.from_seed": "ok",
        "Generator.from_non_deterministic_state": refused,
        "get_global_generator before set_global_generator": refused,
        "raw RandomUniform, seed attrs 0 and 0": "InvalidArgumentError", "raw RandomUniform, seed2 1": "ok",
        "raw FractionalMaxPool, seed attrs 0 and 0": "ok",
        "sample_distorted_bounding_box with seed 0": "ValueError",
        "tf.random.set_seed": "ok", "normal after set_seed": "ok",
    }
    for label, outcome in want.items():
        assert_equal(got.get(label), outcome, call=f"after enable_op_determinism(): {label}", what="the outcome")


@clause("config.runtime-initialization", ref="tf221")
def test_thread_counts_and_memory_growth_once_initialised(tf):
    """In a running program: a thread count set to another value than it holds is RuntimeError
    and leaves the value read back; memory growth is for GPUs only (ValueError on a CPU; get_memory_growth of
    a CPU is KeyError; a device split into logical devices is refused first) and takes only the machine's PhysicalDevices."""
    tf.constant(1.0)   # (the runtime is initialised from here on)
    th = tf.config.threading
    for what, get, put in (("inter", th.get_inter_op_parallelism_threads, th.set_inter_op_parallelism_threads),
                           ("intra", th.get_intra_op_parallelism_threads, th.set_intra_op_parallelism_threads)):
        n = get()
        with raises(RuntimeError, match=f"{what.capitalize()} op parallelism cannot be modified after initialization",
                    call=f"set_{what}_op_parallelism_threads({n + 1}) in a running program"):
            put(n + 1)
        assert_equal(get(), n, call=f"get_{what}_op_parallelism_threads() after the refused call", what="threads")
    cpu = tf.config.list_physical_devices("CPU")[0]
    # (a CPU split into logical devices fails the check before: "... when virtual devices configured")
    with raises(ValueError, match="Cannot set memory growth on (non-GPU|device when virtual)",
                call="set_memory_growth(<the CPU>, True)"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with raises(ValueError, match="Unrecognized device", call="set_memory_growth('CPU:0', True)"):
        tf.config.experimental.set_memory_growth("CPU:0", True)
    with raises(KeyError, call="get_memory_growth(<the CPU>)"):
        tf.config.experimental.get_memory_growth(cpu)


@clause("config.runtime-settings", ref="tf221")
def test_tf32_switch_and_error_codes(tf):
    """enable_tensor_float_32_execution(x) makes tensor_float_32_execution_enabled() return bool(x);
    each tf.errors status code names its exception class's error_code."""
    before = tf.config.experimental.tensor_float_32_execution_enabled()
    try:
        for value, want in ((False, False), (1, True), (0, False), (True, True)):
            tf.config.experimental.enable_tensor_float_32_execution(value)
            got = tf.config.experimental.tensor_float_32_execution_enabled()
            assert_equal((type(got).__name__, got), ("bool", want),
                         call=f"enable_tensor_float_32_execution({value!r})", what="tensor_float_32_execution_enabled()")
    finally:
        tf.config.experimental.enable_tensor_float_32_execution(before)
    codes = {"CANCELLED": "CancelledError", "UNKNOWN": "UnknownError", "INVALID_ARGUMENT": "InvalidArgumentError",
             "DEADLINE_EXCEEDED": "DeadlineExceededError", "NOT_FOUND": "NotFoundError",
             "ALREADY_EXISTS": "AlreadyExistsError", "PERMISSION_DENIED": "PermissionDeniedError",
             "RESOURCE_EXHAUSTED": "ResourceExhaustedError", "FAILED_PRECONDITION": "FailedPreconditionError",
             "ABORTED": "AbortedError", "OUT_OF_RANGE": "OutOfRangeError", "UNIMPLEMENTED": "UnimplementedError",
             "INTERNAL": "InternalError", "UNAVAILABLE": "UnavailableError", "DATA_LOSS": "DataLossError",
             "UNAUTHENTICATED": "UnauthenticatedError"}
    got = {name: getattr(tf.errors, name) for name in codes}
    want = {name: getattr(tf.errors, cls)(None, None, "m").error_code for name, cls in codes.items()}
    assert_equal(got, want, call="tf.errors.<CODE>", what="the status codes")
    assert_equal(sorted(got.values()), list(range(1, 17)), call="tf.errors.<CODE>", what="the codes 1..16")
