"""`tf.distribute.experimental.PreemptionCheckpointHandler` and `TerminationConfig`, as TF 2.21's
failure_handling.py runs them on a non-GCP, non-TPU machine (its INTERNAL_CPU/GPU platform, so
Borg's defaults: exit_fn `sys.exit(42)`, grace period 0).

The handler counts `run` calls, restores the newest checkpoint of `checkpoint_dir` when it is
made (with its run count, the `checkpointed_runs` variable it adds to the checkpoint), and once a
termination notice reaches any worker, makes every worker save at the same run count and exit.
Where the notice comes from is simdist's (clauses pch.*):

- with `termination_watcher_fn`: the function, called once at the start of every `run` (TF
  polls it from a thread once a second);
- otherwise the simulator: a `Preemption(worker, at_time, notice=...)` of the session's fault
  plan delivers the worker's SIGTERM at simulated time `at_time - notice` (TF: a real SIGTERM
  handler; simdist installs none). A `run` called at or after `at_time` raises
  `WorkerPreempted`: the process was killed before it saved.

Times (the grace period, the notice's time, the run-time estimate) are simulated seconds.
Agreeing on the step (TF: the coordination service's keys, a watcher thread, acknowledgements):
the first worker to get a notice claims the TERMINATED_WORKER key; at its next `run` it sets
RUN_TO_CHECKPOINT = its run count + 1; every handler reads the key at the start of each `run`
and saves when its own run count reaches it. TF's preempted worker waits for every worker's
acknowledgement before it goes on; simdist does not block: under MultiWorkerMirroredStrategy
the collectives keep the workers within one step of each other, which is what makes TF's
protocol save at one step, and reading the key at each `run` then gives the same step.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
from typing import Any, Callable, Iterator

import numpy as np

from simdist import session
from simdist.runtime import errors
from simdist.semantics import cluster as cluster_rules
from simdist.strategies import coordination
from simdist.strategies.checkpoint import Checkpoint, CheckpointManager

__all__ = ["PreemptionCheckpointHandler", "TerminationConfig", "WorkerPreempted"]

_INITIAL_RUN_COUNT_KEY = "RUN_TO_CHECKPOINT"
_FINAL_RUN_COUNT_KEY = "LAST_RUN_TO_CHECKPOINT"
_PREEMPTION_WORKER_KEY = "TERMINATED_WORKER"
_ITERATION_VARIABLE = "checkpointed_runs"


class WorkerPreempted(SystemExit):
    """The simulated preemption killed this worker's process (a `run` at or after the planned
    `at_time`): what was not saved is lost. Exit status 137, a SIGKILLed process's."""

    def __init__(self, task: str, at_time: float, now: float) -> None:
        super().__init__(137)
        self.task, self.at_time, self.now = task, at_time, now

    def __str__(self) -> str:
        return (f"worker {self.task} was preempted at simulated time {self.at_time:g} s (the fault plan's "
                f"Preemption.at_time); the program reached PreemptionCheckpointHandler.run at {self.now:g} s, "
                "after the process was killed")


class TerminationConfig:
    """`tf.distribute.experimental.TerminationConfig`: how to detect a termination notice
    (`termination_watcher_fn`), how to exit (`exit_fn`), the time from notice to termination
    (`grace_period`, seconds) and how to save (`save_fn`)."""

    def __init__(self, termination_watcher_fn: Callable[[], bool] | None = None,
                 exit_fn: Callable[[], Any] | None = None, grace_period: float | None = None,
                 save_fn: Callable[..., Any] | None = None) -> None:
        self.termination_watcher_fn = termination_watcher_fn
        self.exit_fn = exit_fn
        self.grace_period = grace_period
        self.save_fn = save_fn


def _default_exit_fn() -> None:
    sys.exit(42)   # BorgTerminationConfig's: the platform's restart code


def _complete(config: TerminationConfig | None) -> TerminationConfig:
    """TF's `_complete_config_for_environment` on a non-GCP CPU/GPU machine (BorgTerminationConfig)."""
    config = config or TerminationConfig()
    grace = config.grace_period or 0
    if isinstance(grace, bool) or not isinstance(grace, (int, float, np.integer, np.floating)) or grace != grace:
        # (TF 2.21 fails at the first comparison with 0; a grace period <= 0 means none, as on TF)
        raise TypeError(f"TerminationConfig(grace_period={config.grace_period!r}): expected a number of seconds "
                        "(or None)")
    return TerminationConfig(config.termination_watcher_fn, config.exit_fn or _default_exit_fn, float(grace),
                             config.save_fn)


class PreemptionCheckpointHandler:
    """Saves a checkpoint on every worker at one step when any worker gets a termination notice,
    then calls `exit_fn`; restores the newest checkpoint when created."""

    def __init__(self, cluster_resolver: Any, checkpoint_or_checkpoint_manager: Any,
                 checkpoint_dir: str | None = None, termination_config: TerminationConfig | None = None) -> None:
        if isinstance(checkpoint_or_checkpoint_manager, Checkpoint) and not checkpoint_dir:
            # TF 2.21 means to raise InvalidArgumentError here, but calls its constructor with the
            # message only, which raises this TypeError instead (clause pch.checkpoint-dir)
            raise TypeError("InvalidArgumentError.__init__() missing 2 required positional arguments: 'op' and "
                            "'message' [TF 2.21's PreemptionCheckpointHandler: 'When a checkpoint is passed, a "
                            "checkpoint_dir must be passed as well.']")
        if not isinstance(checkpoint_or_checkpoint_manager, (Checkpoint, CheckpointManager)):
            raise TypeError("PreemptionCheckpointHandler(checkpoint_or_checkpoint_manager=...): expected a "
                            f"tf.train.Checkpoint or tf.train.CheckpointManager, got {checkpoint_or_checkpoint_manager!r}")
        self._cluster_resolver = cluster_resolver
        self._termination_config = termination_config
        self._checkpoint_or_checkpoint_manager = checkpoint_or_checkpoint_manager
        self._checkpoint_dir = checkpoint_dir
        config = _complete(termination_config)
        self._termination_watcher_fn = config.termination_watcher_fn
        self._exit_fn = config.exit_fn
        self._grace_period = float(config.grace_period or 0)
        self._save_fn = config.save_fn
        jobs = cluster_resolver.cluster_spec().as_dict() if cluster_resolver is not None else {}
        if "ps" in jobs:
            raise NotImplementedError("PreemptionCheckpointHandler does not supportusage with "
                                      "tf.distribute.experimental.ParameterServerStrategy.")
        self._jobs = jobs
        self._initialize()

    # -- setup (TF: _initialize_for_mirrored_and_multi_worker_mirrored) --------------------------
    def _initialize(self) -> None:
        from simdist.runtime import dtypes
        from simdist.runtime.variables import Variable
        if not self._jobs:
            self._local_mode = True
            self._id_in_cluster = "single_worker"
            self._is_chief = True
            self._store: coordination.KeyValueStore | None = None
            spec = session.local_spec()
            self._worker = spec.task if spec.job == "worker" else 0
            self._task = f"/job:{spec.job}/replica:0/task:{spec.task}"
        else:
            self._local_mode = False
            task_type, task_id = self._cluster_resolver.task_type, self._cluster_resolver.task_id
            self._id_in_cluster = str(cluster_rules.id_in_cluster(self._jobs, task_type, task_id))
            self._is_chief = cluster_rules.is_chief(self._jobs, task_type, task_id)
            self._store = coordination.store_for(self._jobs)
            self._worker = task_id if task_type == "worker" else None   # the fault plan names worker tasks
            self._task = f"/job:{task_type}/replica:0/task:{task_id}"
        self._checkpointed_runs = Variable(initial_value=np.int64(0), trainable=False, name=_ITERATION_VARIABLE,
                                           dtype=dtypes.int64)
        self._maybe_create_checkpoint_manager()
        for manager in (self._write_checkpoint_manager, self._read_checkpoint_manager):
            if not hasattr(manager.checkpoint, _ITERATION_VARIABLE):
                setattr(manager.checkpoint, _ITERATION_VARIABLE, self._checkpointed_runs)
        self._read_checkpoint_manager.restore_or_initialize()
        self._final_checkpoint_countdown = False
        self._estimated_run_time = 0.0
        self._run_counter = self._checkpointed_runs.numpy()
        self._received_own_sigterm = False
        self._received_own_sigterm_time = 0.0
        self._received_checkpoint_step = False
        self._step_to_checkpoint: str | None = None
        self._seen_keys: set[str] = set()
        self._target_time_for_termination = 0.0
        self._notice, self._kill_at = self._planned_notice()

    def _maybe_create_checkpoint_manager(self) -> None:
        if isinstance(self._checkpoint_or_checkpoint_manager, CheckpointManager):
            self._read_checkpoint_manager = self._checkpoint_or_checkpoint_manager
            self._write_checkpoint_manager = self._checkpoint_or_checkpoint_manager
            self._api_made_checkpoint_manager = False
            return
        self._api_made_checkpoint_manager = True
        assert self._checkpoint_dir is not None
        self._read_checkpoint_manager = CheckpointManager(self._checkpoint_or_checkpoint_manager,
                                                          directory=self._checkpoint_dir, max_to_keep=1)
        if self._is_chief:
            self._write_checkpoint_manager = self._read_checkpoint_manager
        else:   # a non-chief worker writes to a temporary directory beside it (TF's _non_chief_checkpoint_dir)
            base = os.path.basename(self._checkpoint_dir)
            dirpath = os.path.join(os.path.dirname(self._checkpoint_dir),
                                   "workertemp_" + str(self._cluster_resolver.task_id))
            os.makedirs(dirpath, exist_ok=True)
            self._write_checkpoint_manager = CheckpointManager(self._checkpoint_or_checkpoint_manager,
                                                               os.path.join(dirpath, base), max_to_keep=1)

    def _planned_notice(self) -> tuple[float | None, float | None]:
        """(notice time, kill time) of this worker's first preemption after now in the session's
        fault plan, or (None, None). A notice delivered before this handler was made went to the
        process before it (a restarted job does not get it again): the kill still comes."""
        plan = session.faults()
        if plan is None or self._worker is None:
            return None, None
        now = session.now()
        due = sorted((p.at_time, p.notice) for p in plan.preemptions
                     if p.worker == self._worker and p.at_time is not None and p.at_time > now)
        if not due:
            return None, None
        at, notice = due[0]
        return (at - notice if notice and at - notice >= now else None), at

    # -- the notice -------------------------------------------------------------------------------
    def _poll_termination_signal(self) -> None:
        """What TF's watcher thread or SIGTERM handler would have seen by now."""
        now = session.now()
        if self._kill_at is not None and now >= self._kill_at:
            raise WorkerPreempted(self._task, self._kill_at, now)
        if self._received_own_sigterm or self._final_checkpoint_countdown:
            return
        if self._termination_watcher_fn is not None:
            if self._termination_watcher_fn():
                self._maybe_set_received_own_sigterm(now)
        elif self._notice is not None and now >= self._notice:
            self._maybe_set_received_own_sigterm(self._notice)

    def _maybe_set_received_own_sigterm(self, at: float) -> None:
        """Claim the earliest preemption unless another worker already did."""
        if self._store is not None:
            try:
                self._store.set(_PREEMPTION_WORKER_KEY, self._id_in_cluster)
            except errors.AlreadyExistsError:
                return   # another worker got a notice first: it decides when everyone saves
        self._received_own_sigterm_time = at
        self._received_own_sigterm = True

    def _watch_step_to_save_key(self) -> None:
        """The cluster's step keys (TF: the PeerTerminationWatcher thread)."""
        if self._store is None or self._received_checkpoint_step:
            return
        key = _FINAL_RUN_COUNT_KEY if self._final_checkpoint_countdown else _INITIAL_RUN_COUNT_KEY
        if key == _FINAL_RUN_COUNT_KEY and self._grace_period <= 0:
            return
        value = self._store.get(key)
        if value is not None and key not in self._seen_keys:
            self._seen_keys.add(key)
            self._step_to_checkpoint = value
            self._received_checkpoint_step = True

    # -- the API ----------------------------------------------------------------------------------
    @property
    def total_run_calls(self) -> Any:
        """The number of `run` calls, those before the restore included (deprecated in TF)."""
        return self._run_counter

    def run(self, distributed_train_function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """`distributed_train_function(*args, **kwargs)`, saving and exiting first if a notice
        says this is the step to save at."""
        self._check_preemption_and_maybe_checkpoint()
        begin = session.now()
        result = distributed_train_function(*args, **kwargs)
        new_run_time = session.now() - begin
        self._run_counter += 1
        self._estimated_run_time = self._estimated_run_time + (
            new_run_time - self._estimated_run_time) / self._run_counter
        return result

    def save_checkpoint_if_preempted(self, *args: Any, **kwargs: Any) -> None:
        """Save (passing the arguments to CheckpointManager.save) and exit if this is the step."""
        self._check_preemption_and_maybe_checkpoint(*args, **kwargs)
        self._run_counter += 1
        self._estimated_run_time = 0.0

    @contextlib.contextmanager
    def watch_preemption_scope(self) -> Iterator[None]:
        """For TPUStrategy in TF; with other strategies the body runs as is, errors propagate."""
        yield

    # -- saving -----------------------------------------------------------------------------------
    def _save_checkpoint(self, *args: Any, **kwargs: Any) -> None:
        self._checkpointed_runs.assign(np.int64(self.total_run_calls))
        if self._save_fn is not None:
            self._save_fn(*args, **kwargs)
        else:
            self._write_checkpoint_manager.save(*args, **kwargs)

    def _check_preemption_and_maybe_checkpoint(self, *args: Any, **kwargs: Any) -> None:
        self._poll_termination_signal()
        self._watch_step_to_save_key()
        run_count_key = _FINAL_RUN_COUNT_KEY if self._final_checkpoint_countdown else _INITIAL_RUN_COUNT_KEY
        if self._received_checkpoint_step:
            if self._step_to_checkpoint == str(self._run_counter):
                self._save_checkpoint(*args, **kwargs)
                if self._time_to_exit():
                    if self._store is not None:
                        self._store.ended = True
                    if self._api_made_checkpoint_manager and not self._is_chief:
                        shutil.rmtree(os.path.dirname(self._write_checkpoint_manager.directory), ignore_errors=True)
                    self._exit_fn()
                else:   # train on through the grace period; the final save comes later
                    self._final_checkpoint_countdown = True
                    self._received_checkpoint_step = False
        elif self._received_own_sigterm:
            if self._final_checkpoint_countdown and not self._target_time_for_termination < session.now():
                return
            step_to_save_at = str(self._run_counter + 1)
            if self._store is not None:
                self._store.set(run_count_key, step_to_save_at)
                self._seen_keys.add(run_count_key)
            self._step_to_checkpoint = step_to_save_at
            self._received_checkpoint_step = True
            self._setup_countdown_if_has_grace_period_and_not_already_counting_down()

    def _time_to_exit(self) -> bool:
        return self._grace_period <= 0 or self._final_checkpoint_countdown

    def _setup_countdown_if_has_grace_period_and_not_already_counting_down(self) -> None:
        if self._grace_period > 0 and not self._final_checkpoint_countdown:
            buffer_factor = 3   # TF's margin: the final call leaves 6 estimated steps before the grace ends
            self._target_time_for_termination = (self._received_own_sigterm_time + self._grace_period
                                                 - buffer_factor * self._estimated_run_time * 2)
