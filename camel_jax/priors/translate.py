"""Translation of a NumPy policy (the paper's format) into a jnp prior, certified equivalent on rollouts.

First the mechanical rewrite (`convert`); when it fails or is not equivalent, the LLM with the translation prompt.
Certification checks the translation's logic, not float32 rounding:
- the jnp version must pass validation (float32, as it runs in training);
- in float64 (64-bit floats enabled in the certifying child, for the jnp module and its trace alike), its actions
  must agree with the NumPy answer's, also computed in float64, within `TOLERANCE` on every certification
  observation: `SAMPLES` rollout observations of random and zero actions, and those of the answer's own episodes
  (`observations.policy_observations`: the answer acting, so the branches of its gait are reached);
- its float32 run (as in training) must be finite there and stay within `FLOAT32_TOLERANCE` of its float64 run on
  at least `FLOAT32_AGREEMENT` of them: float32 rounding may flip a threshold on a few observations, but a version
  whose float32 run does something else (an untrusted translation could branch on the precision) is refused.
The original and the jnp version run only in sandbox children.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from camel_jax import llm, specs
from camel_jax.errors import PriorError
from camel_jax.priors import answers, convert, prompt, sandbox
from camel_jax.priors.observations import rollout_observations

TOLERANCE = 1e-5
FLOAT32_TOLERANCE = 1e-3
FLOAT32_AGREEMENT = 0.99
SAMPLES = 10_000


@dataclasses.dataclass(frozen=True)
class Translation:
    source: str  # the jnp prior
    method: str  # "mechanical" or the model that wrote it
    prompt: str  # "<prompt file> sha256:<hex>" for the LLM path, "" for the mechanical one
    validation: str  # the validation summary of the jnp prior
    max_abs_diff: float  # largest |jnp - numpy| over the certification observations, in float64
    samples: int  # rollout observations of random and zero actions
    own_samples: int = 0  # observations of the answer's own episodes

    @property
    def certified(self) -> str:
        """How close to the answer, on what: for headers and messages."""
        return (f"within {self.max_abs_diff:.1e} in float64 on {self.samples} rollout observations and "
                f"{self.own_samples} of the answer's own episodes")


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
    obs, reference, own = reference_actions(numpy_source, spec, samples, limits)
    try:
        jnp_source = convert.numpy_to_jnp(numpy_source)
        return Translation(jnp_source, "mechanical", "", *certify(jnp_source, spec, obs, reference, limits, own),
                           samples, own)
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
        summary, diff = certify(code, spec, obs, reference, limits, own)
    except PriorError as e:
        raise PriorError(f"the LLM translation failed: {e} (mechanical conversion: {mechanical})") from None
    return Translation(code, answered_by, prompt.provenance(path, sha), summary, diff, samples, own)


def reference_actions(numpy_source: str, spec: specs.TaskSpec, samples: int = SAMPLES,
                      limits: sandbox.Limits = sandbox.DEFAULT_LIMITS) -> tuple[np.ndarray, np.ndarray, int]:
    """(certification observations (n, obs_dim) float64, the answer's actions on them in float64, how many of them
    come from its own episodes: the last ones). Raises PriorError when the answer fails on any of them."""
    random = rollout_observations(spec.name, samples)
    actions, own = sandbox.run_numpy_policy(numpy_source, random, spec.act_dim, limits, episodes_of=spec.name)
    return np.concatenate([random.astype(np.float64), own]), actions, len(own)


def certify(jnp_source: str, spec: specs.TaskSpec, obs: np.ndarray, reference: np.ndarray,
            limits: sandbox.Limits = sandbox.DEFAULT_LIMITS, own: int = 0) -> tuple[str, float]:
    """(validation summary, max |diff| in float64) when `jnp_source` is valid and certified against `reference` on
    `obs` (see the module docstring; the last `own` observations are the answer's own); else PriorError."""
    try:
        summary, a64, a32 = sandbox.run_jnp_certify(jnp_source, spec.name, obs, limits=limits)
    except PriorError as e:
        raise PriorError(f"the jnp version is invalid: {e}") from None
    n = len(obs)
    where = lambda i: "of the answer's own episodes" if i >= n - own else "of random or zero actions"
    errors = np.abs(a64 - reference).max(axis=1)
    worst = int(np.argmax(np.nan_to_num(errors, nan=np.inf)))
    if not errors[worst] <= TOLERANCE:
        raise PriorError(f"not equivalent: max |jnp - numpy| = {errors[worst]:.2e} > {TOLERANCE:g} (float64) on "
                         f"{int((~(errors <= TOLERANCE)).sum())} of {n} certification observations (worst: #{worst}, "
                         f"{where(worst)})")
    bad = ~np.isfinite(a32).all(axis=1)
    if bad.any():
        raise PriorError(f"non-finite actions in float32, as in training, on {int(bad.sum())} of {n} certification "
                         f"observations (first: #{int(np.argmax(bad))}, {where(int(np.argmax(bad)))}), though finite "
                         "in float64")
    far = np.abs(a32 - a64).max(axis=1) > FLOAT32_TOLERANCE
    if far.mean() > 1 - FLOAT32_AGREEMENT:
        raise PriorError(f"its float32 run, as in training, differs from its float64 run by more than "
                         f"{FLOAT32_TOLERANCE:g} on {int(far.sum())} of {n} certification observations (more than "
                         f"{1 - FLOAT32_AGREEMENT:.0%}): it does not act in training as certified")
    return summary, float(errors[worst])
