"""camel-jax: CAMEL (continuous action masking from LLM-written priors) as a vectorized, jitted TD3 trainer.

The notebook API (camel_jax/api.py): `train`, `evaluate_run`, `make_env`, `load_prior`, `load_actor`, `Config`,
`Result`. They are imported on first use, so `import camel_jax` stays light.
"""

__version__ = "0.1.0"
__all__ = ["Config", "Result", "evaluate_run", "load_actor", "load_prior", "make_env", "train"]


def __getattr__(name: str):
    if name == "Config":
        from camel_jax.config import Config

        return Config
    if name in ("Result", "evaluate_run", "load_actor", "load_prior", "make_env", "train"):
        from camel_jax import api

        return getattr(api, name)
    raise AttributeError(f"module 'camel_jax' has no attribute '{name}'")
