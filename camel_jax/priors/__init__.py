"""Priors: LLM-written jnp policies, sandboxed validation, NumPy-to-jnp translation, automatic selection.

Modules: `prompt` (versioned prompt files, the paper's and the jnp style), `llm` (Anthropic SDK calls), `answers`
(answer files, the code in an answer), `importer` (answer -> validated candidate file; `priors import`), `generate`
(candidates from the API, through `importer`), `allowlist` (static checks, restricted namespace) + `purity` (helpers,
constants, no recursion, no state between calls) + `arraylike` (the jax.numpy a prior sees: lists and tuples where
NumPy takes them), `sandbox` (validation in a child process), `observations` (rollout samples, and those of a
policy's own episodes), `loader` (load a prior, provenance header; `--prior TASK` and `tuned:NAME`), `kinds` (what
kind of prior a run used and what finding it cost, recorded with every run), `convert` + `translate` (NumPy -> jnp,
certified in float64), `select` (rollouts, ranking, report), `cli` (`camel-jax priors ...`).

For training: `load_prior(shipped_prior(env_name), env_name)` returns the validated, jittable `policy(obs) -> act`.
"""

from camel_jax.errors import PriorError, SetupError
from camel_jax.priors.loader import load_prior, parse_header, shipped_prior, write_prior
from camel_jax.priors.sandbox import ValidationResult, validate_file, validate_source

__all__ = ["PriorError", "SetupError", "ValidationResult", "load_prior", "parse_header", "shipped_prior",
           "validate_file", "validate_source", "write_prior"]
