"""PPO (camel_jax/algos/ppo/loss.py, normalize.py, ppo_trainer.py, ppo_loop.py): the pieces against independent computations
(GAE against a numpy loop in CleanRL's indexing, the normalisation against gymnasium's own wrappers, the loss against
a hand computation), the guide hook (overrides, bonus, both override-loss modes), seeds vmapped, learning on a toy
task, and short runs of both backends writing the run directory, with resume."""

import csv
import functools
import os
import shutil
import subprocess
import sys

import gymnasium as gym
import jax
import jax.numpy as jnp
import numpy as np
import pytest
from flax import serialization
from toy_env import PointGoal

from camel_jax.algos.ppo import loss as ppo
from camel_jax.algos.ppo import normalize
from camel_jax.algos.ppo.config import PPOConfig, is_ppo_run
from camel_jax.algos.ppo.trainer import Guide, chunk_row, make_train
from camel_jax.core import evaluate
from camel_jax.envs.autoreset import AutoResetVecEnv


def _rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


# --- GAE -----------------------------------------------------------------------------------------------------------
def test_gae_matches_cleanrl_loop():
    """CleanRL's loop stores `dones[t]` = the episode ended *before* step t and bootstraps from `next_done`; ours
    stores done after step t. The same rollout must give the same advantages and returns."""
    rng = np.random.default_rng(0)
    steps, envs, gamma, lam = 9, 3, 0.99, 0.95
    reward, value = rng.normal(size=(steps, envs)), rng.normal(size=(steps, envs))
    done_after = (rng.random((steps, envs)) < 0.25).astype(np.float64)
    last_value = rng.normal(size=envs)
    dones_before = np.concatenate([np.zeros((1, envs)), done_after[:-1]])  # CleanRL's `dones`
    next_done = done_after[-1]
    expected = np.zeros((steps, envs))
    lastgaelam = 0.0
    for t in reversed(range(steps)):
        if t == steps - 1:
            nonterminal, next_values = 1.0 - next_done, last_value
        else:
            nonterminal, next_values = 1.0 - dones_before[t + 1], value[t + 1]
        delta = reward[t] + gamma * next_values * nonterminal - value[t]
        expected[t] = lastgaelam = delta + gamma * lam * nonterminal * lastgaelam
    adv, ret = ppo.gae(*(jnp.asarray(x, jnp.float32) for x in (reward, value, done_after, last_value)), gamma, lam)
    np.testing.assert_allclose(adv, expected, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(ret, expected + value, rtol=1e-5, atol=1e-5)
    assert done_after.sum() > 0


# --- normalisation -------------------------------------------------------------------------------------------------
class _Sequence(gym.Env):
    """Replays fixed observations, rewards and termination flags (no physics), for gymnasium's wrappers."""

    def __init__(self, obs, rewards, terminated):
        self.obs, self.rewards, self.terminated, self.t = obs, rewards, terminated, 0
        self.observation_space = gym.spaces.Box(-np.inf, np.inf, obs.shape[1:], np.float64)
        self.action_space = gym.spaces.Box(-1, 1, (1,))

    def reset(self, *, seed=None, options=None):
        self.t = 0
        return self.obs[0], {}

    def step(self, action):
        self.t += 1
        return self.obs[self.t], self.rewards[self.t - 1], bool(self.terminated[self.t - 1]), False, {}


def test_normalisation_matches_gymnasium_wrappers():
    rng = np.random.default_rng(1)
    steps = 60
    obs = rng.normal([3.0, -1.0, 0.0], [2.0, 0.5, 30.0], size=(steps + 1, 3))
    rewards = rng.normal(1.0, 2.0, size=steps)
    terminated = rng.random(steps) < 0.1
    env = gym.wrappers.NormalizeReward(gym.wrappers.NormalizeObservation(_Sequence(obs, rewards, terminated)),
                                       gamma=0.99)
    want_obs, want_rew = [env.reset()[0]], []
    for _ in range(steps):
        o, r, *_ = env.step(np.zeros(1))
        want_obs.append(o)
        want_rew.append(r)
    stats, scaler, got_obs, got_rew = normalize.init_stats((3,)), normalize.init_reward(1), [], []
    for t in range(steps + 1):
        stats, o = normalize.observe(stats, jnp.asarray(obs[t : t + 1], jnp.float32), clip=1e9)
        got_obs.append(o[0])
        if t < steps:
            scaler, r = normalize.reward(scaler, jnp.asarray([rewards[t]], jnp.float32),
                                         jnp.asarray([float(terminated[t])]), 0.99, clip=1e9)
            got_rew.append(r[0])
    np.testing.assert_allclose(np.array(got_obs), np.array(want_obs), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.array(got_rew), np.array(want_rew), rtol=1e-4, atol=1e-6)
    assert terminated.sum() > 0 and np.abs(np.array(want_obs)).max() > 1.5  # resets of the return, real scaling
    # the clip (CleanRL's TransformObservation / TransformReward at 10) bounds both
    clipped = normalize.scale(normalize.init_stats((1,)), jnp.asarray([[1e6], [-50.0], [3.0]]), clip=10.0)
    np.testing.assert_allclose(clipped, [[10.0], [-10.0], [3.0]], rtol=1e-6)  # mean 0, var 1: only the clip acts
    _, r = normalize.reward(normalize.init_reward(1), jnp.asarray([1e6]), jnp.zeros(1), 0.99, clip=10.0)
    assert float(r[0]) == 10.0


# --- the clipped loss ----------------------------------------------------------------------------------------------
NET = ppo.ActorCritic(act_dim=2, hidden=(8, 8))
PARAMS = NET.init(jax.random.PRNGKey(0), jnp.zeros((1, 3)))
HYPER = PPOConfig().hyper()


def _batch(n=6, seed=0, ratios=None, in_policy=None):
    rng = np.random.default_rng(seed)
    obs = jnp.asarray(rng.normal(size=(n, 3)), jnp.float32)
    action = jnp.asarray(rng.normal(size=(n, 2)), jnp.float32)
    mean, log_std, value = NET.apply(PARAMS, obs)
    ratios = np.linspace(0.5, 1.6, n) if ratios is None else ratios  # some inside, some outside [0.8, 1.2]
    logp_old = ppo.log_prob(mean, log_std, action) - jnp.log(jnp.asarray(ratios, jnp.float32))
    old_value = value + jnp.asarray(rng.choice([-0.5, 0.05, 0.5], n), jnp.float32)  # some value clips bind
    return ppo.Batch(obs=obs, action=action, logp=logp_old, value=old_value,
                     advantage=jnp.asarray(rng.normal(size=n), jnp.float32),
                     returns=jnp.asarray(rng.normal(size=n), jnp.float32),
                     in_policy_loss=jnp.ones(n) if in_policy is None else jnp.asarray(in_policy, jnp.float32))


def test_vmapped_init_draws_each_seed_alone_with_flax_bits():
    """Vmapped over seeds, the init must compile to unbatched QRs (jaxlib 0.10.2's batched CPU QR deadlocks its
    thread pool when several run at once: `ppo.orthogonal`), and draw what flax's orthogonal init draws per seed."""
    import flax.linen as nn

    net = ppo.ActorCritic(3)
    keys = jax.random.split(jax.random.PRNGKey(3), 3)
    init = jax.vmap(lambda k: net.init(k, jnp.zeros((1, 11))))
    text = jax.jit(init).lower(keys).as_text()
    qr = [line for line in text.splitlines() if "lapack_sgeqrf_ffi" in line]
    assert qr and all('num_batch_dims = "0"' in line for line in qr)  # one function per shape
    batched = init(keys)
    for i, key in enumerate(keys):
        alone = net.init(key, jnp.zeros((1, 11)))
        assert all(np.array_equal(a[i], b) for a, b in zip(jax.tree.leaves(batched), jax.tree.leaves(alone)))
    flax_kernel = jax.vmap(lambda k: nn.initializers.orthogonal(0.01)(k, (64, 3)))(keys)
    ours = jax.vmap(lambda k: ppo.orthogonal(0.01)(k, (64, 3)))(keys)
    assert np.array_equal(flax_kernel, ours)
    assert np.allclose(ours[0].T @ ours[0], 1e-4 * np.eye(3), atol=1e-9)


def test_clipped_loss_matches_hand_computation():
    batch = _batch()
    total, stats = ppo.loss(NET, PARAMS, batch, HYPER, ppo.Settings())
    mean, log_std, value = (np.asarray(x, np.float64) for x in NET.apply(PARAMS, batch.obs))
    std = np.exp(log_std)
    a = np.asarray(batch.action, np.float64)
    logp = np.sum(-0.5 * ((a - mean) / std) ** 2 - log_std - 0.5 * np.log(2 * np.pi), axis=1)
    ratio = np.exp(logp - np.asarray(batch.logp, np.float64))
    adv = np.asarray(batch.advantage, np.float64)
    adv = (adv - adv.mean()) / (adv.std(ddof=1) + 1e-8)
    pg = np.mean(np.maximum(-adv * ratio, -adv * np.clip(ratio, 0.8, 1.2)))
    old_v, ret = np.asarray(batch.value, np.float64), np.asarray(batch.returns, np.float64)
    v_clipped = old_v + np.clip(value - old_v, -0.2, 0.2)
    v_loss = 0.5 * np.mean(np.maximum((value - ret) ** 2, (v_clipped - ret) ** 2))
    ent = np.mean(np.sum(0.5 + 0.5 * np.log(2 * np.pi) + log_std, axis=1))
    np.testing.assert_allclose(stats["pg_loss"], pg, rtol=1e-5)
    np.testing.assert_allclose(stats["v_loss"], v_loss, rtol=1e-5)
    np.testing.assert_allclose(stats["entropy"], ent, rtol=1e-5)
    np.testing.assert_allclose(total, pg + 0.5 * v_loss, rtol=1e-5)  # ent_coef 0, vf_coef 0.5
    np.testing.assert_allclose(stats["clipfrac"], np.mean(np.abs(ratio - 1) > 0.2), rtol=1e-6)
    assert 0 < float(stats["clipfrac"]) < 1
    assert np.any((value - ret) ** 2 < (v_clipped - ret) ** 2)  # the value clip binds somewhere


# --- the guide: override-loss modes ---------------------------------------------------------------------------------
def _actor_grad(batch, mode):
    settings = ppo.Settings(override_loss=mode)
    grads = jax.grad(lambda p: ppo.loss(NET, p, batch, HYPER, settings)[0])(PARAMS)["params"]
    return {"actor": grads["actor"], "log_std": grads["log_std"]}, grads["critic"]


def _perturb_overridden(batch, overridden):
    """The same batch with the overridden steps' actions, old log-probs, advantages and returns changed."""
    idx = np.flatnonzero(overridden)
    return batch.replace(action=batch.action.at[idx].add(0.7), logp=batch.logp.at[idx].add(-0.3),
                         advantage=batch.advantage.at[idx].mul(-3.0), returns=batch.returns.at[idx].add(1.0))


def test_value_only_overrides_give_no_policy_gradient():
    overridden = np.array([1, 0, 0, 1, 0, 1], bool)
    batch = _batch(in_policy=~overridden)  # what ppo.learn builds for value_only
    other = _perturb_overridden(batch, overridden)
    g1, c1 = _actor_grad(batch, "value_only")
    g2, c2 = _actor_grad(other, "value_only")
    for x, y in zip(jax.tree.leaves(g1), jax.tree.leaves(g2)):
        np.testing.assert_array_equal(x, y)  # exactly: overridden steps do not reach the policy
    assert not all(np.array_equal(x, y) for x, y in zip(jax.tree.leaves(c1), jax.tree.leaves(c2)))  # value: yes
    all_overridden = _batch(in_policy=np.zeros(6))
    g, c = _actor_grad(all_overridden, "value_only")
    assert all(np.all(np.asarray(x) == 0) for x in jax.tree.leaves(g))
    assert any(np.any(np.asarray(x) != 0) for x in jax.tree.leaves(c))


def test_sampled_overrides_enter_the_policy_gradient():
    overridden = np.array([1, 0, 0, 1, 0, 1], bool)
    batch = _batch()  # sampled: every step is in the policy loss
    g1, _ = _actor_grad(batch, "sampled")
    g2, _ = _actor_grad(_perturb_overridden(batch, overridden), "sampled")
    assert not all(np.array_equal(x, y) for x, y in zip(jax.tree.leaves(g1), jax.tree.leaves(g2)))


def test_learn_builds_the_policy_mask_from_override_flags():
    """ppo.learn: with value_only an all-overridden rollout leaves the actor exactly where it was; with sampled it
    moves it (the same rollout, the same keys)."""
    steps, envs = 8, 2
    rng = np.random.default_rng(3)
    obs = jnp.asarray(rng.normal(size=(steps, envs, 3)), jnp.float32)
    mean, log_std, value = NET.apply(PARAMS, obs)
    action = mean + 0.5
    traj = ppo.Transition(obs=obs, action=action, logp=ppo.log_prob(mean, log_std, action), value=value,
                          override=jnp.ones((steps, envs), bool), reward=jnp.asarray(rng.normal(size=(steps, envs))),
                          done=jnp.zeros((steps, envs)))
    tx = ppo.optimizer(ppo.step_size(1e-3, False, 1, 1), 0.5)
    moved = {}
    for mode in ppo.OVERRIDE_LOSSES:
        settings = ppo.Settings(update_epochs=2, num_minibatches=2, override_loss=mode)
        params, _, _ = ppo.learn(NET, tx, PARAMS, tx.init(PARAMS), traj, value[-1], jax.random.PRNGKey(0), HYPER,
                                 settings)
        moved[mode] = [not np.array_equal(params["params"][k], PARAMS["params"][k]) for k in ("log_std",)] + [
            not np.array_equal(x, y) for x, y in zip(jax.tree.leaves(params["params"]["actor"]),
                                                     jax.tree.leaves(PARAMS["params"]["actor"]))]
        critic_moved = not np.array_equal(params["params"]["critic"]["Dense_0"]["kernel"],
                                          PARAMS["params"]["critic"]["Dense_0"]["kernel"])
        assert critic_moved, mode
    assert not any(moved["value_only"]) and all(moved["sampled"])


def test_guide_overrides_the_action_and_adds_the_bonus():
    """A guide that overrides where the point's raw x > 0 and pays the first entry of the action taken as its bonus:
    the env gets the suggestion, the rollout stores it with its flag, the bonus is that of the action the env got,
    and the reward learnt from is r_env + alpha * bonus."""
    config = PPOConfig(num_envs=16, num_steps=4, num_minibatches=4, total_steps=64, normalize_reward=False,
                       alpha=0.5)
    env = AutoResetVecEnv(PointGoal(), config.num_envs)
    suggestion = jnp.asarray([0.3, -0.2])
    guide = Guide(act=lambda state, raw_obs: (raw_obs[0] > 0, suggestion * state, raw_obs[0] > 0),
                  reward=lambda state, raw_obs, taken: taken[0])
    tr = make_train(config, env, guide)
    learner = tr.init_learner(jax.random.PRNGKey(0), config.hyper(), guide_state=jnp.float32(2.0))
    env_state = env.reset(jax.random.PRNGKey(1))
    learner, obs = tr.see(learner, env_state.obs)
    learner, step, env_action = tr.act(learner, obs, env_state.obs)
    override = np.asarray(env_state.obs[:, 0] > 0)
    assert 0 < override.sum() < 16
    np.testing.assert_array_equal(step.override, override)
    np.testing.assert_allclose(env_action[override], np.broadcast_to([0.6, -0.4], (override.sum(), 2)))
    assert not np.allclose(env_action[~override], [0.6, -0.4])
    after = env.step(env_state, env_action)
    _, transition, _, metrics = tr.observe(learner, step, after)
    np.testing.assert_allclose(transition.reward, after.reward + 0.5 * env_action[:, 0], rtol=1e-6)
    assert float(metrics["override_frac"]) == pytest.approx(override.mean())


# --- training on the toy task ---------------------------------------------------------------------------------------
@functools.lru_cache
def _toy_programs(members):
    """The trainer and its jitted init and chunk for `members` seeds, made once: runs of other seeds (of as many
    members) reuse them (a second make_train would trace and compile the same programs again)."""
    config = PPOConfig(num_envs=8, num_steps=128, num_minibatches=8, update_epochs=4, learning_rate=1e-3,
                       total_steps=60 * 8 * 128, seeds=tuple(range(members)))
    tr = make_train(config, AutoResetVecEnv(PointGoal(), config.num_envs))
    return config, tr, jax.jit(jax.vmap(tr.init)), jax.jit(tr.run_chunk, static_argnums=2)


def _toy_run(seeds, iterations=2):
    config, tr, init, run = _toy_programs(len(seeds))  # the seeds enter through the keys alone
    keys = jnp.stack([jax.random.PRNGKey(s) for s in seeds])
    state, rows = run(init(keys, config.member_hypers()), 0, iterations)
    return state, jax.device_get(rows), tr


def test_vmapped_seeds_equal_single_seed_runs():
    """Keys and env states agree bit for bit; parameters to float rounding (batched matmuls sum in another order)."""
    both, _, _ = _toy_run((0, 1))
    for i, seed in enumerate((0, 1)):
        alone, _, _ = _toy_run((seed,))
        pick = lambda tree, k: jax.tree.map(lambda x: np.asarray(x[k]), tree)  # noqa: B023
        a, b = pick(alone, 0), pick(both, i)
        np.testing.assert_array_equal(a.learner.key, b.learner.key)
        for x, y in zip(jax.tree.leaves(a), jax.tree.leaves(b)):
            np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)
    k0 = both.learner.params["params"]["actor"]["Dense_0"]["kernel"]
    assert not np.allclose(k0[0], k0[1])  # the seeds differ


def test_ppo_learns_the_toy_task():
    """Random actions score -30.7 per episode, moving straight to the goal -1.9 (tests/toy_env.py). With the
    advantages' sign flipped in the loss the same run ends at -58.7 (checked by hand). Then the deterministic policy
    through evaluate.py's MJX evaluation."""
    state, rows, tr = _toy_run((0,), iterations=60)
    first = chunk_row(jax.tree.map(lambda x: x[:5], rows))["episode_return"][0]
    last = chunk_row(jax.tree.map(lambda x: x[-10:], rows))["episode_return"][0]
    assert first < -15 and last > -10, (first, last)
    greedy_return, _ = evaluate.make_mjx_eval(tr, PointGoal(), 64)(state.learner, jax.random.PRNGKey(5)[None], 0.0)
    assert float(greedy_return[0]) > -4.0  # the mean action, observation statistics frozen (measured: -2.1)


# --- whole runs on both backends ------------------------------------------------------------------------------------
TINY = {"env": "hopper", "seeds": (0, 1), "num_envs": 2, "num_steps": 64, "num_minibatches": 4, "update_epochs": 2,
        "total_steps": 3 * 128, "log_every": 128, "checkpoint_every": 256, "keep_checkpoints": 3, "quiet": True}


def _check_run_dir(run_dir, config, evaluated):
    from camel_jax.algos.ppo.loop import METRIC_FIELDS

    assert is_ppo_run(run_dir)
    assert PPOConfig.from_json(run_dir / "config.json") == config
    rows = _rows(run_dir / "metrics.csv")
    assert tuple(rows[0]) == METRIC_FIELDS
    assert [(int(r["step"]), int(r["seed"])) for r in rows] == [(s, k) for s in (128, 256, 384) for k in (0, 1)]
    assert all(np.isfinite(float(r["v_loss"])) and float(r["learning_rate"]) > 0 for r in rows)
    assert sum(int(r["episodes"]) for r in rows) > 0  # a fresh hopper falls within 64 steps
    assert all(np.isfinite(float(r["episode_return"])) for r in rows if int(r["episodes"]))
    evals = _rows(run_dir / "eval.csv")
    if evaluated:
        assert [(int(r["step"]), int(r["seed"])) for r in evals] == [(384, 0), (384, 1)]
        assert all(np.isfinite(float(r["return_unmasked"])) and r["return_masked"] == "" for r in evals)
    assert sorted(int(p.name) for p in (run_dir / "checkpoints").iterdir() if p.name.isdigit()) == [256, 384]
    return rows


def _drop_rows_after(run_dir, step):
    for name in ("metrics.csv", "eval.csv"):
        lines = (run_dir / name).read_text().splitlines(keepends=True)
        (run_dir / name).write_text("".join(lines[:1] + [x for x in lines[1:] if int(x.split(",")[0]) <= step]))


def _final_policy(run_dir):
    return serialization.msgpack_restore((run_dir / "actor.msgpack").read_bytes())


@pytest.fixture(scope="module")
def gym_run(tmp_path_factory):
    from camel_jax.algos.ppo.loop import train

    config = PPOConfig(**TINY, backend="gymnasium", eval_episodes=1, eval_every=384,
                       out=str(tmp_path_factory.mktemp("ppo") / "run"))
    return config, train(config)


def test_gymnasium_run_writes_the_run_directory_and_resumes(gym_run):
    from camel_jax.algos.ppo.loop import resume

    config, run_dir = gym_run
    _check_run_dir(run_dir, config, evaluated=True)
    policy = _final_policy(run_dir)
    assert policy["params"]["params"]["log_std"].shape == (2, 3)  # (seeds, act_dim)
    assert policy["obs_stats"]["count"][0] > 3 * 128  # every step's observation (and the resets) was counted
    shutil.rmtree(run_dir / "checkpoints" / "384")  # as if killed after logging step 384, before its checkpoint
    with pytest.raises(ValueError, match="finished"):
        resume(run_dir)  # every step is logged: nothing to resume
    (run_dir / "actor.msgpack").unlink()
    _drop_rows_after(run_dir, 256)  # as if killed right after the checkpoint at 256
    # the cumulative non-finite count logged at the checkpoint (set by hand: Hopper has none to count this early)
    _set_nonfinite(run_dir, 256, ["3", "5"])
    from camel_jax.cli import main

    assert main(["resume", str(run_dir), "--quiet"]) == 0  # the CLI sends a PPO run to PPO's loop
    rows = _check_run_dir(run_dir, config, evaluated=True)  # the envs restart their episodes: rows after 256 are new
    # the recreated envs count on from the checkpoint's count, per seed (MJX restores it with its envs)
    assert [(r["step"], r["nonfinite"]) for r in rows[-2:]] == [("384", "3"), ("384", "5")]


def _set_nonfinite(run_dir, step, values):
    """Rewrite the nonfinite column of metrics.csv's rows at `step` (seed order)."""
    rows, mine = _rows(run_dir / "metrics.csv"), iter(values)
    rows = [{**r, "nonfinite": next(mine)} if int(r["step"]) == step else r for r in rows]
    with open(run_dir / "metrics.csv", "w", newline="") as f:
        writer = csv.DictWriter(f, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


def test_plot_draws_a_ppo_run_as_one_curve_with_its_overrides(gym_run, tmp_path):
    from camel_jax import plots

    _, run_dir = gym_run
    run = plots.load_run(run_dir)
    assert run.swept == ()  # PPO's columns are not mistaken for --grid settings (one curve, not one per row)
    assert plots.groups(run) == [("", {})]
    fig = plots.plot_runs([run], tmp_path / "p.png")
    assert (tmp_path / "p.png").stat().st_size > 0
    assert len(fig.axes) == 2  # plain PPO: no masking and no guide, so no panel (c)
    assert [ln.get_linestyle() for ln in fig.axes[1].lines] == ["-"]  # unmasked evaluation only
    (run_dir / "ultra.json").write_text("{}")  # as a refined run: its overridden fraction gets panel (c)
    try:
        fig = plots.plot_runs([plots.load_run(run_dir)])
    finally:
        (run_dir / "ultra.json").unlink()
    assert fig.axes[2].get_title() == "(c) ULTRA's overrides (PPO)"


def test_init_from_starts_each_seed_from_a_finished_run(gym_run, tmp_path, capsys):
    """With a vanishing step size the refined run ends where the base run ended (parameters), and its observation
    and reward statistics go on counting from the base run's. Not quiet, it says it compiles before it does."""
    from camel_jax.algos.ppo.loop import train

    _, base_dir = gym_run
    base = _final_policy(base_dir)
    config = PPOConfig(**{**TINY, "total_steps": 128, "quiet": False}, backend="gymnasium", eval_episodes=0,
                       learning_rate=1e-12, init_from=str(base_dir), out=str(tmp_path / "refined"))
    capsys.readouterr()
    refined = _final_policy(train(config))
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("compiling PPO's update (XLA; the first log line waits for it")
    for x, y in zip(jax.tree.leaves(refined["params"]), jax.tree.leaves(base["params"])):
        np.testing.assert_allclose(x, y, atol=1e-8)
    np.testing.assert_allclose(refined["obs_stats"]["count"], base["obs_stats"]["count"] + 2 + 128, rtol=1e-6)
    # the reward normaliser carries on too: its return statistics go on counting from the base run's (one return
    # per env step), so the first updates are not scaled by a fresh variance of 1
    np.testing.assert_allclose(refined["reward_stats"]["count"], base["reward_stats"]["count"] + 128, rtol=1e-6)
    np.testing.assert_allclose(base["reward_stats"]["count"], 1e-4 + 384, rtol=1e-6)
    with pytest.raises(ValueError, match="seeds"):
        PPOConfig(**{**TINY, "seeds": (0,)}, init_from=str(base_dir)).check()
    with pytest.raises(ValueError, match="not a finished PPO run"):
        PPOConfig(**TINY, init_from=str(tmp_path)).check()


def test_mjx_run_writes_the_run_directory_and_resumes_exactly(golden_run, tmp_path):
    """tests/test_golden.py's ppo_mjx arm (TINY on MJX through `camel-jax train`, evaluated at 384; trained once per
    session, conftest.py's golden_run), copied: its run directory, then killed after the checkpoint at 256 and
    resumed (its evaluation at 384 again, on the MJX evaluator). The resume is a process of its own, as a user's is:
    a second MJX training in this process would lower another module (docs/contributing.md, Tests) and compile it
    again (about 2 minutes of this CPU), where a fresh process loads the golden run's programs from the cache."""
    run_dir = tmp_path / "run"
    shutil.copytree(golden_run("ppo_mjx"), run_dir)
    config = PPOConfig.from_json(run_dir / "config.json")
    assert config == PPOConfig(**{**TINY, "quiet": config.quiet}, backend="mjx", eval_every=384, eval_episodes=2,
                               out=config.out, overwrite=config.overwrite)  # the TINY run, as the CLI recorded it
    rows = _check_run_dir(run_dir, config, evaluated=True)
    evals = _rows(run_dir / "eval.csv")
    whole = (run_dir / "actor.msgpack").read_bytes()
    # `eval --step` reads the policy from an MJX checkpoint (a TrainState: learner, envs, observation): the last one
    # holds the final policy and observation statistics bit for bit
    from camel_jax.algos.ppo import eval as ppo_eval

    final, last = ppo_eval.load_run(run_dir)[2], ppo_eval.load_run(run_dir, step=384)[2]
    for a, b in zip(jax.tree.leaves((final.params, final.obs_stats)), jax.tree.leaves((last.params, last.obs_stats)),
                    strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    shutil.rmtree(run_dir / "checkpoints" / "384")
    (run_dir / "actor.msgpack").unlink()
    _drop_rows_after(run_dir, 256)  # as if killed right after the checkpoint at 256
    r = subprocess.run([sys.executable, "-m", "camel_jax.cli", "resume", str(run_dir), "--quiet"], capture_output=True,
                       text=True, timeout=900, check=False,
                       env={**os.environ, "JAX_LOG_COMPILES": "1", "CAMEL_JAX_VERBOSE": "1"})  # JAX says what it loads
    assert r.returncode == 0, r.stderr[-3000:]
    for program in ("jit_run_chunk", "jit_one_seed"):  # the golden run's training chunk and MJX evaluator: no compile
        assert f"Persistent compilation cache hit for '{program}'" in r.stderr, (program, r.stderr[-3000:])
    assert (run_dir / "actor.msgpack").read_bytes() == whole  # bit for bit: the env states were checkpointed
    resumed = _check_run_dir(run_dir, config, evaluated=True)
    strip = lambda rows: [{k: v for k, v in r.items() if k not in ("steps_per_s", "wall_s")} for r in rows]
    assert strip(resumed) == strip(rows)
    assert strip(_rows(run_dir / "eval.csv")) == strip(evals)  # the MJX evaluator again, after the resume


def test_bad_settings_are_one_line_errors_before_a_run_directory(tmp_path):
    from camel_jax.algos.ppo.loop import train

    out = tmp_path / "never"
    cases = [({"num_minibatches": 5}, "multiple of --num-minibatches"), ({"override_loss": "both"}, "override-loss"),
             ({"total_steps": 64}, "less than one rollout")]
    for change, message in cases:
        with pytest.raises(ValueError, match=message):
            train(PPOConfig(**{**TINY, **change}, out=str(out)))
    guide = Guide(act=lambda state, obs: (jnp.zeros((), bool), jnp.zeros(3), jnp.zeros((), bool)),
                  reward=lambda state, obs, taken: jnp.zeros(()))
    with pytest.raises(ValueError, match="leading member axis of 2"):
        train(PPOConfig(**TINY, out=str(out)), guide=guide, guide_state=jnp.zeros(5))
    assert not out.exists()
