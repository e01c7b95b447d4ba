"""What every algorithm's config shares with the run shell: the fields a run records beside its settings, and the
choice of backend for `--backend auto`."""

from __future__ import annotations

# Written into config.json beside the settings (runs.create), never read back as settings: what the prior was and
# what it cost (camel_jax/priors/kinds.py), and the task as results name it (specs.task_label).
RECORDED = ("prior_kind", "prior_label", "prior_search_env_steps", "task_label")


def auto_backend(mjx_impl: str = "jax", mesh: str = "", env: str = "") -> tuple[str, str]:
    """(backend, why) of `--backend auto` in this process for task `env`: gymnasium for a gym:ID task (it has no MJX
    port), else mjx on an accelerator or where only MJX can do what was asked, gymnasium on a CPU."""
    import jax

    from camel_jax import specs

    if env and specs.is_gym(env):
        return "gymnasium", f"auto: --env {env} is a gymnasium task, which runs on the gymnasium backend only"

    device = jax.default_backend()
    if device != "cpu":
        return "mjx", f"auto: JAX's default device is {device}, an accelerator, where MJX runs every env in one program"
    if mjx_impl == "warp":
        return "mjx", "auto: --mjx-impl warp is an MJX implementation"
    if mesh:
        return "mjx", "auto: --mesh spreads MJX's envs over devices"
    if jax.process_count() > 1:
        return "mjx", "auto: several processes shard MJX's envs"
    return "gymnasium", ("auto: JAX's default device is the CPU, where gymnasium's C MuJoCo is the faster backend and "
                         "runs the paper's v4 tasks")
