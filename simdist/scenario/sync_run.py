"""The synchronous engine for FLOP-only models (one_device, mirrored, central_storage): TF's
training step replayed on the simulator directly, timing only (see `simdist.scenario.runner`)."""

from __future__ import annotations

from typing import Any

from simdist.sim.roofline import Kernel

from .run_context import _Ctx, expand_variables, fault_windows, replica_devices, sync_checkpoint

__all__ = ["run_sync"]


def _jitter(ctx: _Ctx, n: int) -> list[float]:
    sigma = ctx.sc.config["training"]["compute_jitter"]
    if not sigma:
        return [1.0] * n
    return [float(x) for x in ctx.sim.rng("scenario/jitter").lognormal(0.0, sigma, size=n)]


def _run_sync(ctx: _Ctx) -> None:
    sc, sim = ctx.sc, ctx.sim
    cfg, plan, kind = sc.config, sc.plan, sc.strategy
    host = plan["host"]

    def full(d: str) -> str:
        return f"{host}/device:{d}"

    devs = replica_devices(sc)
    n = len(devs)
    cpu = full("CPU:0")
    model, tr = cfg["model"], cfg["training"]
    variables = expand_variables(model)
    var_bytes = sum(v.nbytes for v in variables)
    grad_bytes = sum(v.nbytes for v in variables if v.trainable)
    n_train = sum(v.params for v in variables if v.trainable)
    slots = model["optimizer_slots"]
    per_replica = model["global_batch"] // n
    fwd_bwd = model["flops_per_example"] * per_replica
    update = model["update_flops_per_param"] * n_train
    in_flops = model["input_flops_per_example"] * model["global_batch"]
    in_bytes = model["example_bytes"] * per_replica
    algorithm = plan.get("all_reduce", "ring")
    pd = full(plan["parameter_device"]) if kind != "mirrored" else None
    steps = tr["steps"]
    every = tr["checkpoint_every"]
    state_bytes = var_bytes * (1 + slots)
    # Under the roofline cost model: the forward+backward pass is matmul work at the trainable
    # variables' widest-held dtype (no byte figure: FLOP-only models give none), the update an
    # elementwise pass reading gradients, variables and slots and writing variables and slots.
    train_bytes = sum(v.nbytes for v in variables if v.trainable)
    mm_dtype = max(((v.nbytes, v.dtype) for v in variables if v.trainable), default=(0, "float32"))[1]
    roofline = sim.cost_model == "roofline"
    update_kernel = Kernel(update, grad_bytes + 2 * train_bytes * (1 + slots), "float32", "elementwise")

    def work(d: str, flops: float) -> float:
        """FLOPs to charge on d for forward+backward work of ``flops`` FLOPs."""
        return sim.kernel_flops(d, Kernel(flops, 0.0, mm_dtype, "matmul")) if roofline else flops

    def update_work(d: str) -> float:
        return sim.kernel_flops(d, update_kernel) if roofline else update

    fault_windows(ctx, devs)   # (the simulator applies them: see _fault_plan)

    # memory: variables (+ optimizer slots) where they live, gradients (and variable copies) on replicas
    if kind == "mirrored":
        for d in devs:
            sim.allocate(d, state_bytes + grad_bytes, "variables, optimizer slots and gradients")
    else:
        assert pd is not None
        sim.allocate(pd, state_bytes, "variables and optimizer slots")
        for d in devs:
            sim.allocate(d, grad_bytes + (var_bytes if d != pd else 0), "gradients and variable copies")

    feeders = plan.get("input_cpus")
    if feeders is None:
        def input_proc() -> Any:
            if in_flops:
                yield sim.compute(cpu, in_flops, "input pipeline")
            moves = [sim.transfer(cpu, d, in_bytes, "input", replica=i) for i, d in enumerate(devs)
                     if d != cpu and in_bytes]
            if moves:
                yield sim.all_of(moves)
    else:   # several hosts: each host's CPU makes its replicas' share, in parallel, and feeds them
        hosts = list(dict.fromkeys(feeders))
        share = {h: in_flops * feeders.count(h) / n for h in hosts}

        def feed(h: str) -> Any:
            if in_flops:
                yield sim.compute(h, share[h], "input pipeline")
            moves = [sim.transfer(h, d, in_bytes, "input", replica=i) for i, d in enumerate(devs)
                     if feeders[i] == h and in_bytes]
            if moves:
                yield sim.all_of(moves)

        def input_proc() -> Any:
            yield sim.all_of([sim.process(feed(h)) for h in hosts])

    pending = [sim.process(input_proc())]

    def step_proc(k: int) -> Any:
        yield pending[0]
        pending[0] = sim.process(input_proc()) if k + 1 < steps else None
        factors = _jitter(ctx, n)   # (a straggler's slowdown is the simulator's)
        if kind == "mirrored":
            yield sim.all_of([sim.compute(d, work(d, fwd_bwd * factors[i]), "forward+backward", replica=i)
                              for i, d in enumerate(devs)])
            if n > 1 and grad_bytes:
                yield sim.all_reduce(devs, grad_bytes, algorithm=algorithm, name="all-reduce gradients")
            yield sim.all_of([sim.compute(d, update_work(d), "apply gradients", replica=i) for i, d in enumerate(devs)])
        else:
            reads = [sim.transfer(pd, d, var_bytes, "read variables", replica=i) for i, d in enumerate(devs)
                     if d != pd and var_bytes]
            if reads:
                yield sim.all_of(reads)
            yield sim.all_of([sim.compute(d, work(d, fwd_bwd * factors[i]), "forward+backward", replica=i)
                              for i, d in enumerate(devs)])
            grads = [sim.transfer(d, pd, grad_bytes, "gradients", replica=i) for i, d in enumerate(devs)
                     if d != pd and grad_bytes]
            if grads:
                yield sim.all_of(grads)
            yield sim.compute(pd, (n - 1) * n_train + update, "aggregate and apply gradients")

    ckpts = 0
    ckpt_time = 0.0
    for k in range(steps):
        with sim.step(f"step {k}"):
            sim.drive(step_proc(k), progress=ctx.detail)
        ctx.tick()
        if every and (k + 1) % every == 0:
            t0 = sim.now
            sim.drive(sync_checkpoint(ctx, devs[0] if kind == "mirrored" else pd, cpu, state_bytes, k + 1))
            ckpts += 1
            ckpt_time += sim.now - t0
    ctx.parts["summary"].update({"checkpoints": ckpts, "checkpoint_time_s": ckpt_time})
    ctx.parts["completed"] = steps
    ctx.parts["examples_per_step"] = model["global_batch"]
    ctx.parts["compute_devices"] = devs


run_sync = _run_sync
