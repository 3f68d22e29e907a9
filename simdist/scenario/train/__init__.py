"""Training scenarios: a real model trained on real data under the scenario's strategy, cluster and
fault plan (issue 14). `data` prepares the arrays, `zoo` builds the models, `step` the loss,
optimizer and train step, `record` keeps what a run learned (loss, accuracy, staleness against
simulated time), `sync` and `ps` are the runs for the synchronous strategies and for
ParameterServerStrategy with its ClusterCoordinator.
"""
