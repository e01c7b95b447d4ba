"""`--mjx-impl jax|warp`: the one-line error where MuJoCo Warp cannot run, Warp's buffer sizes, and (where warp-lang
is installed: Warp's CPU path here) the fused trainer end to end on Warp. Parity with gymnasium on both
implementations: tests/test_env_parity.py."""

import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import jax
import numpy as np
import pytest

from camel_jax import envs
from camel_jax.algos.td3.config import Config
from camel_jax.envs.mjx_env import warp_limits

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--total-steps", "64", "--learning-starts", "32", "--num-envs", "4", "--log-every", "32", "--eval-every",
        "64", "--eval-episodes", "1", "--batch-size", "16", "--hidden", "8,8", "--quiet"]


def _camel_without_warp(*args):
    """The CLI in a process where `import warp` finds nothing (as without warp-lang), whatever is installed here."""
    code = "import sys; sys.modules['warp'] = None; from camel_jax.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], cwd=ROOT, capture_output=True, text=True, timeout=600,
                          check=False)


def test_warp_without_warp_lang_is_a_one_line_error_before_any_run_dir(tmp_path):
    out = tmp_path / "run"
    r = _camel_without_warp("train", "--mjx-impl", "warp", "--out", str(out), *TINY)
    assert r.returncode == 2, r.stderr[-2000:]
    lines = [x for x in r.stderr.splitlines() if x.startswith("camel-jax train:")]
    assert len(lines) == 1 and "warp-lang" in lines[0] and "pip install 'camel-jax[cuda]'" in lines[0]
    assert "Traceback" not in r.stderr
    assert not out.exists()


def test_warp_with_the_gymnasium_backend_is_refused():
    with pytest.raises(ValueError, match="--mjx-impl warp needs --backend mjx"):
        Config(backend="gymnasium", mjx_impl="warp").check()
    Config(backend="gymnasium").check()  # jax (the default) is fine with either backend
    assert "jax" in envs.available_mjx_impls()


@pytest.mark.parametrize("name", ["hopper", "walker2d", "ant"])
def test_warp_buffers_hold_every_contact_and_constraint_c_mujoco_makes(name):
    """naconmax / njmax come from MJX-JAX's static per-world bounds; over a random rollout of gymnasium's C MuJoCo
    task (the same model), no world ever has more contacts or constraint rows than that."""
    env = envs.make_single(name)  # jax: builds the model only
    limits = warp_limits(env.mj_model, worlds=8)
    per_world = limits["naconmax"] // 8
    assert limits["naconmax"] == 8 * per_world and per_world >= 1 and limits["njmax"] >= 1
    g = gym.make(env.spec.gym_id).unwrapped
    g.reset(seed=0)
    rng = np.random.default_rng(0)
    most_con = most_efc = 0
    for t in range(600):
        g.do_simulation(rng.uniform(-1, 1, env.action_size), g.frame_skip)
        most_con, most_efc = max(most_con, g.data.ncon), max(most_efc, g.data.nefc)
        if t % 100 == 99:
            g.reset(seed=t)
    assert most_con > 0, "the rollout should touch the floor"
    assert most_con <= per_world and most_efc <= limits["njmax"], (most_con, per_world, most_efc, limits)


# ------------------------------------------------------------------------------- on Warp itself, where it can run
def _warp_or_skip():
    try:
        envs.check_mjx_impl("warp")
    except ValueError as e:
        pytest.skip(str(e))


def test_warp_states_keep_only_per_world_arrays_and_resets_work():
    """Warp's contact buffers (shared by all worlds of a call) are not carried in states: every leaf of a batched
    state has the env axis, so the autoreset's where, the member vmap and the trainer's flat reshape all apply."""
    _warp_or_skip()
    n = 4
    venv = envs.make("hopper", "mjx", n, impl="warp")
    state = jax.jit(venv.reset)(jax.random.PRNGKey(0))
    step = jax.jit(venv.step)
    assert all(x.shape[0] == n for x in jax.tree.leaves(state))
    ended = False
    for _ in range(200):
        state = step(state, np.ones((n, venv.act_dim), np.float32))
        ended |= bool(state.done.any())
        if ended:
            break
    assert ended and all(x.shape[0] == n for x in jax.tree.leaves(state))
    done = np.asarray(state.done) > 0
    assert np.all(np.abs(np.asarray(state.obs)[done, 0] - 1.25) < 0.01)  # reset to the initial pose
    full = venv.env._full(state.pipeline_state)  # the buffers put back: as many contacts as Warp may write
    assert full._impl.contact__dist.shape[0] == venv.env.limits["naconmax"]


def test_fused_trainer_runs_on_warp(tmp_path):
    _warp_or_skip()
    from camel_jax.cli import main

    out = tmp_path / "warp_run"
    assert main(["train", "--mjx-impl", "warp", "--seeds", "0,1", "--out", str(out), *TINY]) == 0
    config = Config.from_json(out / "config.json")
    assert config.mjx_impl == "warp"
    rows = (out / "metrics.csv").read_text().splitlines()
    assert len(rows) == 1 + 2 * 2  # header + 2 log steps x 2 seeds
    assert (out / "eval.csv").exists() and (out / "actor.msgpack").stat().st_size > 100

