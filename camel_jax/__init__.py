"""camel-jax: CAMEL (continuous action masking from LLM-written priors) as a vectorized, jitted TD3 trainer, with PPO
and ULTRA beside it.

The notebook API (camel_jax/api.py): `train`, `evaluate_run`, `make_env`, `load_prior`, `load_actor`, `Config`
(TD3's), `PPOConfig`, `Result` and `Curves` (a run's curves per member), and `algorithms()` (the registered names).
They are imported on first use, so `import camel_jax` stays light.
"""

__version__ = "0.1.0"
__all__ = ["Config", "Curves", "PPOConfig", "Result", "algorithms", "evaluate_run", "load_actor", "load_prior",
           "make_env", "train"]
_API = ("Curves", "Result", "evaluate_run", "load_actor", "load_prior", "make_env", "train")


def __getattr__(name: str):
    if name in ("Config", "PPOConfig"):
        from camel_jax import algos

        return algos.get({"Config": "td3", "PPOConfig": "ppo"}[name]).Config
    if name == "algorithms":
        from camel_jax.algos import names

        return names
    if name in _API:
        from camel_jax import api

        return getattr(api, name)
    raise AttributeError(f"module 'camel_jax' has no attribute '{name}'")


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
