"""The run shell: run directory, logs, checkpoints, progress, provenance, sharding, evaluation, sweeps. It knows the algorithm interface (camel_jax.algos) and imports no algorithm."""
