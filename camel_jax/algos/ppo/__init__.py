"""PPO, with ULTRA's guide as its plug-in (camel_jax/ultra): config, loss (networks and losses), normalize, trainer, loop, eval, algorithm."""
