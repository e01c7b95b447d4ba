"""TD3, and CAMEL with a prior as its plug-in (camel_jax/priors): config, networks, buffer, masking, update, trainer, loop, algorithm."""
