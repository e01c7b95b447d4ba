"""Translation of a NumPy policy (the paper's format) into a jnp prior, certified equivalent on rollouts.

First the mechanical rewrite (`convert`); when it fails or is not equivalent, the LLM with the translation prompt.
Certification: the jnp version must pass validation, and its actions must agree with the original's within
`TOLERANCE` on `SAMPLES` rollout observations. The original runs only in the sandbox child; the jnp version runs
in-process after it has passed validation.
"""

from __future__ import annotations

import dataclasses

import jax
import numpy as np

from camel_jax import specs
from camel_jax.priors import allowlist, answers, convert, llm, prompt, sandbox
from camel_jax.priors.errors import PriorError
from camel_jax.priors.observations import rollout_observations

TOLERANCE = 1e-5
SAMPLES = 10_000


@dataclasses.dataclass(frozen=True)
class Translation:
    source: str  # the jnp prior
    method: str  # "mechanical" or the model that wrote it
    prompt: str  # "<prompt file> sha256:<hex>" for the LLM path, "" for the mechanical one
    validation: str  # the validation summary of the jnp prior
    max_abs_diff: float  # largest |jnp - numpy| over the certification observations
    samples: int


def translate(
    numpy_source: str,
    spec: specs.TaskSpec,
    client=None,
    model: str = llm.DEFAULT_MODEL,
    use_llm: bool = True,
    samples: int = SAMPLES,
    limits: sandbox.Limits = sandbox.DEFAULT_LIMITS,
) -> Translation:
    """A certified jnp version of `numpy_source` for `spec`; raises PriorError when no certified version is found.

    `client`: an SDK client, or a function returning one (called only when the LLM is needed); default
    `llm.make_client`, which needs ANTHROPIC_API_KEY."""
    obs = rollout_observations(spec.name, samples)
    reference = sandbox.run_numpy_policy(numpy_source, obs, spec.act_dim, limits)
    try:
        jnp_source = convert.numpy_to_jnp(numpy_source)
        return Translation(jnp_source, "mechanical", "", *certify(jnp_source, spec, obs, reference, limits), samples)
    except PriorError as e:
        mechanical = str(e)
    if not use_llm:
        raise PriorError(f"mechanical conversion failed: {mechanical}; the LLM path can translate it (`priors "
                         "translate` without --no-llm, `priors import --llm`; needs ANTHROPIC_API_KEY)")
    if client is None or callable(client):
        client = (client or llm.make_client)()
    text, path, sha = prompt.build_translation_prompt(spec, numpy_source)
    reply, answered_by = llm.ask(client, model, text)
    code = answers.extract_code(reply)
    if code is None:
        raise PriorError("the LLM reply has no ```python code block defining policy(obs)")
    try:
        summary, diff = certify(code, spec, obs, reference, limits)
    except PriorError as e:
        raise PriorError(f"the LLM translation failed: {e} (mechanical conversion: {mechanical})") from None
    return Translation(code, answered_by, prompt.provenance(path, sha), summary, diff, samples)


def certify(jnp_source: str, spec: specs.TaskSpec, obs: np.ndarray, reference: np.ndarray,
            limits: sandbox.Limits = sandbox.DEFAULT_LIMITS) -> tuple[str, float]:
    """(validation summary, max |diff|) when `jnp_source` is valid and matches `reference` on `obs`; else PriorError."""
    result = sandbox.validate_source(jnp_source, spec.name, limits=limits)
    if not result.ok:
        raise PriorError(f"the jnp version is invalid: {result.reason}")
    policy = allowlist.exec_policy(jnp_source)
    actions = np.asarray(jax.jit(jax.vmap(policy))(obs), np.float64)
    errors = np.abs(actions - reference).max(axis=1)
    worst = int(np.argmax(errors))
    if not errors[worst] <= TOLERANCE:
        raise PriorError(f"not equivalent: max |jnp - numpy| = {errors[worst]:.2e} > {TOLERANCE:g} on "
                         f"{int((errors > TOLERANCE).sum())} of {len(obs)} rollout observations (worst: #{worst})")
    return result.summary, float(errors[worst])
