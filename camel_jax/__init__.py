"""camel-jax: CAMEL (continuous action masking from LLM-written priors) as a vectorized, jitted TD3 trainer."""

__version__ = "0.1.0"
