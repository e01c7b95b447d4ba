"""Priors: LLM-written jnp policies, sandboxed validation, NumPy-to-jnp translation, automatic selection.

Modules: `prompt` (versioned prompt files), `llm` (Anthropic SDK calls), `generate` (candidates), `allowlist`
(static checks, restricted namespace), `sandbox` (validation in a child process), `observations` (rollout samples),
`loader` (load a prior, provenance header), `convert` + `translate` (NumPy -> jnp, certified), `select` (rollouts,
ranking, report), `cli` (`camel-jax priors ...`).

For training: `load_prior(shipped_prior(env_name), env_name)` returns the validated, jittable `policy(obs) -> act`.
"""

from camel_jax.priors.errors import PriorError, SetupError
from camel_jax.priors.loader import load_prior, parse_header, shipped_prior, write_prior
from camel_jax.priors.sandbox import ValidationResult, validate_file, validate_source

__all__ = ["PriorError", "SetupError", "ValidationResult", "load_prior", "parse_header", "shipped_prior",
           "validate_file", "validate_source", "write_prior"]
