"""`--prior none` is CleanRL's TD3, seeds mean what they say, and the review's correctness items (issue #15).

- One update of ours equals a hand-written update in the shape of CleanRL's `td3_continuous_action_jax.py` (its
  `Actor`, `QNetwork`, two critic TrainStates with their own Adam, `update_critic` then `update_actor`) from the same
  initial parameters, on the same batch and noise key.
- On the gymnasium backend a member's env seed is its own seed, whatever the other members are.
- A non-finite gymnasium step is terminated, zeroed, counted and reset; evaluation never turns NaN rewards of dead
  envs into a NaN return; a run resumed without its buffer waits for `learning_starts` fresh rows; `--grid` values
  are range-checked like the base values.
"""

import csv
import dataclasses
import json

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np
import optax
import pytest
from flax.training.train_state import TrainState
from toy_env import PointGoal

from camel_jax import cli, envs
from camel_jax.algos.td3 import buffer as replay
from camel_jax.algos.td3 import loop
from camel_jax.algos.td3 import update as td3
from camel_jax.algos.td3.config import HYPER_RANGES, Config
from camel_jax.algos.td3.trainer import make_train
from camel_jax.algos.td3.update import Hyper
from camel_jax.core import evaluate
from camel_jax.core.run import gym_env_seeds

OBS, ACT = 11, 3  # Hopper's sizes


# --- CleanRL's networks and update, written out the way td3_continuous_action_jax.py writes them ---------------
class CleanRLActor(nn.Module):
    action_dim: int

    @nn.compact
    def __call__(self, x):
        x = nn.relu(nn.Dense(256)(x))
        x = nn.relu(nn.Dense(256)(x))
        return nn.tanh(nn.Dense(self.action_dim)(x))  # action_scale 1, action_bias 0 on [-1, 1] action spaces


class CleanRLQ(nn.Module):
    @nn.compact
    def __call__(self, x, a):
        x = jnp.concatenate([x, a], -1)
        x = nn.relu(nn.Dense(256)(x))
        x = nn.relu(nn.Dense(256)(x))
        return nn.Dense(1)(x)


class TS(TrainState):
    target_params: dict = None


def cleanrl_update(actor_state, qf1_state, qf2_state, data, key, policy_update, gamma=0.99, tau=0.005,
                   policy_noise=0.2, noise_clip=0.5):
    actor, qf = CleanRLActor(ACT), CleanRLQ()
    noise = jnp.clip(jax.random.normal(key, data["actions"].shape) * policy_noise, -noise_clip, noise_clip)
    next_actions = jnp.clip(actor.apply(actor_state.target_params, data["next_obs"]) + noise, -1.0, 1.0)
    q1_next = qf.apply(qf1_state.target_params, data["next_obs"], next_actions).reshape(-1)
    q2_next = qf.apply(qf2_state.target_params, data["next_obs"], next_actions).reshape(-1)
    next_q = (data["rewards"] + (1 - data["terminations"]) * gamma * jnp.minimum(q1_next, q2_next)).reshape(-1)

    def mse_loss(params):
        q = qf.apply(params, data["obs"], data["actions"]).squeeze()
        return ((q - next_q) ** 2).mean(), q.mean()

    (l1, _), g1 = jax.value_and_grad(mse_loss, has_aux=True)(qf1_state.params)
    (l2, _), g2 = jax.value_and_grad(mse_loss, has_aux=True)(qf2_state.params)
    qf1_state, qf2_state = qf1_state.apply_gradients(grads=g1), qf2_state.apply_gradients(grads=g2)
    if policy_update:
        def actor_loss(params):
            return -qf.apply(qf1_state.params, data["obs"], actor.apply(params, data["obs"])).mean()

        grads = jax.grad(actor_loss)(actor_state.params)
        actor_state = actor_state.apply_gradients(grads=grads)
        actor_state = actor_state.replace(
            target_params=optax.incremental_update(actor_state.params, actor_state.target_params, tau))
        qf1_state = qf1_state.replace(
            target_params=optax.incremental_update(qf1_state.params, qf1_state.target_params, tau))
        qf2_state = qf2_state.replace(
            target_params=optax.incremental_update(qf2_state.params, qf2_state.target_params, tau))
    return actor_state, qf1_state, qf2_state, l1 + l2


def _batch(key, n=256):
    k = jax.random.split(key, 5)
    return replay.Transition(obs=jax.random.normal(k[0], (n, OBS)), action=jax.random.uniform(k[1], (n, ACT), minval=-1),
                             reward=jax.random.normal(k[2], (n,)), next_obs=jax.random.normal(k[3], (n, OBS)),
                             terminated=(jax.random.uniform(k[4], (n,)) < 0.1).astype(jnp.float32),
                             masked=jnp.zeros((n,)))


class _Dims:
    obs_dim, act_dim = OBS, ACT


def test_plain_td3_is_cleanrls_actor_and_update():
    config = Config(prior="none", total_steps=1000, learning_starts=10)
    tr = make_train(config, _Dims(), None)
    learner = tr.init_learner(jax.random.PRNGKey(3), config.hyper())
    agent = learner.agent
    # CleanRL's actor sees obs alone: fan-in 11 on Hopper, not 11 + 2 x 3 box inputs
    mlp = agent.actor["params"]["MLP_0"]
    assert mlp["Dense_0"]["kernel"].shape == (OBS, 256)
    # flax's default initializers, as CleanRL's (lecun normal kernels, zero biases)
    assert all(np.all(np.asarray(mlp[d]["bias"]) == 0) for d in mlp)
    actor_params = {"params": mlp}
    q_params = [{"params": agent.critic["params"][q]} for q in ("q1", "q2")]
    adam = lambda: optax.adam(config.learning_rate)
    actor_state = TS.create(apply_fn=None, params=actor_params, target_params=actor_params, tx=adam())
    qf1 = TS.create(apply_fn=None, params=q_params[0], target_params=q_params[0], tx=adam())
    qf2 = TS.create(apply_fn=None, params=q_params[1], target_params=q_params[1], tx=adam())

    # acting: the deterministic actor is CleanRL's actor, bit for bit (the full box maps u to u exactly)
    obs = jax.random.normal(jax.random.PRNGKey(9), (5, OBS))
    np.testing.assert_array_equal(tr.greedy(learner, obs, jnp.zeros(5)), CleanRLActor(ACT).apply(actor_params, obs))

    update = jax.jit(lambda a, b, k, up: td3.update(tr.nets, a, b, k, config.hyper(), tr.box, up))
    for step, policy_update in enumerate((False, True, False, True)):  # CleanRL: actor every 2nd step
        batch, key = _batch(jax.random.PRNGKey(100 + step)), jax.random.PRNGKey(200 + step)
        agent, stats = update(agent, batch, key, jnp.asarray(policy_update))
        data = {"obs": batch.obs, "actions": batch.action, "next_obs": batch.next_obs, "rewards": batch.reward,
                "terminations": batch.terminated}
        actor_state, qf1, qf2, loss = cleanrl_update(actor_state, qf1, qf2, data, key, policy_update)
        np.testing.assert_allclose(stats["critic_loss"], loss, rtol=1e-5)
        ours = {"actor": agent.actor["params"]["MLP_0"], "q1": agent.critic["params"]["q1"],
                "q2": agent.critic["params"]["q2"], "target_actor": agent.target_actor["params"]["MLP_0"],
                "target_q1": agent.target_critic["params"]["q1"], "target_q2": agent.target_critic["params"]["q2"]}
        theirs = {"actor": actor_state.params["params"], "q1": qf1.params["params"], "q2": qf2.params["params"],
                  "target_actor": actor_state.target_params["params"], "target_q1": qf1.target_params["params"],
                  "target_q2": qf2.target_params["params"]}
        for name, params in ours.items():
            jax.tree.map(lambda a, b, name=name: np.testing.assert_allclose(a, b, rtol=2e-5, atol=1e-7,
                                                                             err_msg=name), params, theirs[name])


def test_camel_actor_still_sees_the_box():
    config = Config(prior="priors/tuned/hopper.py", total_steps=1000, learning_starts=10)
    tr = make_train(config, _Dims(), lambda o: jnp.zeros(ACT))
    learner = tr.init_learner(jax.random.PRNGKey(0), config.hyper())
    assert learner.agent.actor["params"]["MLP_0"]["Dense_0"]["kernel"].shape == (OBS + 2 * ACT, 256)
    control = dataclasses.replace(config, masking_aware=False)  # the paper's w/o MA control: obs alone
    learner = make_train(control, _Dims(), lambda o: jnp.zeros(ACT)).init_learner(jax.random.PRNGKey(0),
                                                                                     control.hyper())
    assert learner.agent.actor["params"]["MLP_0"]["Dense_0"]["kernel"].shape == (OBS, 256)


# --- seeds ---------------------------------------------------------------------------------------------------
def _gym_run(tmp_path, name, seeds, *extra):
    out = tmp_path / name
    argv = ["train", "--env", "hopper", "--backend", "gymnasium", "--prior", "none", "--seeds", seeds,
            "--total-steps", "400", "--learning-starts", "399", "--log-every", "100", "--eval-episodes", "0",
            "--hidden", "16,16", "--batch-size", "8", "--quiet", "--out", str(out), *extra]
    assert cli.main(argv) == 0
    with open(out / "metrics.csv") as f:
        return list(csv.DictReader(f))


def test_gym_member_seed_is_its_own_env_seed(tmp_path):
    assert gym_env_seeds(Config(seeds=(0, 5), num_envs=1)) == [0, 5]
    assert gym_env_seeds(Config(seeds=(5,), num_envs=2)) == [10, 11]
    pair = [r for r in _gym_run(tmp_path, "pair", "0,5") if r["seed"] == "5"]
    alone = _gym_run(tmp_path, "alone", "5")
    # uniform random actions from the member's own key and its own env seed: the same episodes, step for step
    for key in ("episodes", "episode_return", "episode_length"):
        assert [r[key] for r in pair] == [r[key] for r in alone], key
    assert float(alone[0]["episodes"]) > 0  # the rows compare finished episodes, not empty windows


# --- non-finite gymnasium steps --------------------------------------------------------------------------------
def test_gym_nonfinite_step_is_terminated_zeroed_counted_and_reset():
    venv = envs.make("ant", "gymnasium", num_envs=2)  # Ant's health check looks at z only: NaN velocities pass it
    try:
        state = venv.reset(0)
        inner = venv.envs[1].unwrapped
        real_obs = inner._get_obs

        def nan_once():  # the step's observation gets a NaN velocity; the reset after it is left alone
            inner._get_obs = real_obs
            obs = real_obs()
            obs[13] = np.nan
            return obs

        inner._get_obs = nan_once
        state = venv.step(state, np.zeros((2, 8)))
        assert inner._get_obs is real_obs  # the NaN was injected
        assert state.info["terminated"].tolist() == [0.0, 1.0] and state.done.tolist() == [0.0, 1.0]
        assert state.reward[1] == 0.0 and np.all(state.info["final_obs"][1] == 0.0)
        assert state.metrics["nonfinite"].tolist() == [0, 1]
        assert np.isfinite(state.obs).all()  # the instance was reset: no NaN goes on to the next transition
        assert 0.4 < state.obs[1][0] < 0.9  # a fresh Ant: torso height at its initial 0.75 (+ reset noise)
        state = venv.step(state, np.zeros((2, 8)))
        assert np.isfinite(state.obs).all() and state.done.tolist() == [0.0, 0.0]
    finally:
        venv.close()


# --- evaluation: NaN rewards of finished episodes ----------------------------------------------------------------
class DiesThenNaN(PointGoal):
    """Terminates at step 3; every reward after that is NaN (a physics blow-up after death)."""

    def step(self, state, action):
        state = super().step(state, action)
        steps = state.info["steps"]
        dead = (steps >= 3).astype(jnp.float32)
        reward = jnp.where(steps > 3, jnp.nan, state.reward)
        return state.replace(reward=reward, done=dead, info={**state.info, "terminated": dead})


def test_mjx_eval_ignores_rewards_after_the_episode_ended():
    config = Config(seeds=(0, 1), total_steps=100, learning_starts=10, hidden=(8,))
    tr = make_train(config, _ToyDims(), None)
    learner = jax.vmap(tr.init_learner)(jax.random.split(jax.random.PRNGKey(0), 2), config.member_hypers())
    run = evaluate.make_mjx_eval(tr, DiesThenNaN(), episodes=3)
    mean, std = run(learner, jax.random.split(jax.random.PRNGKey(1), 2), 0.0)
    assert np.isfinite(np.asarray(mean)).all() and np.isfinite(np.asarray(std)).all()


class _ToyDims:
    obs_dim, act_dim = 4, 2


# --- resume without the buffer ---------------------------------------------------------------------------------
def test_resume_without_buffer_waits_for_learning_starts_fresh_rows(tmp_path):
    out = tmp_path / "run"
    config = Config(env="hopper", backend="gymnasium", prior="none", seeds=(0,), total_steps=300,
                    learning_starts=100, log_every=50, checkpoint_every=300, eval_episodes=0, hidden=(16, 16),
                    batch_size=8, buffer_size=300, buffer_in_checkpoint=False, quiet=True, out=str(out))
    loop.train(config)
    raw = json.loads((out / "config.json").read_text())
    (out / "config.json").write_text(json.dumps({**raw, "total_steps": 600}))  # train on from the 300-step checkpoint
    loop.resume(out)
    with open(out / "metrics.csv") as f:
        loss = {int(r["step"]): float(r["critic_loss"]) for r in csv.DictReader(f)}
    # before: updates from step 101 on; after the resume at 300 the empty buffer refills: none until 401
    assert np.isnan(loss[100]) and np.isfinite(loss[150]) and np.isfinite(loss[300])
    assert np.isnan(loss[350]) and np.isnan(loss[400])
    assert np.isfinite(loss[450]) and np.isfinite(loss[600])


# --- the gymnasium backend's two ways of stepping ------------------------------------------------------------------
def test_gymnasium_blocks_compute_what_single_steps_do(tmp_path, monkeypatch):
    """In a long run (loop.BLOCKS_FROM iterations, lowered here), chunks of a multiple of loop.BLOCK iterations run as
    scanned blocks whose env step calls back into C MuJoCo; other lengths one jitted call per step (loop.gym_step).
    The same run both ways (log every 100: blocks; every 50: steps; both seeds, masking and the policy delay in play)
    ends with the same actor, bit for bit, and the same training curve."""
    assert loop.BLOCK == 100
    monkeypatch.setattr(loop, "BLOCKS_FROM", 300)
    runs = {}
    for log_every in (100, 50):
        out = tmp_path / f"log{log_every}"
        loop.train(Config(env="hopper", backend="gymnasium", prior="random", seeds=(0, 1), total_steps=300,
                          learning_starts=100, log_every=log_every, eval_episodes=0, hidden=(16, 16), batch_size=8,
                          quiet=True, out=str(out)))
        with open(out / "metrics.csv") as f:
            runs[log_every] = (out / "actor.msgpack").read_bytes(), {(r["step"], r["seed"]): r for r in csv.DictReader(f)}
    assert runs[100][0] == runs[50][0]
    for key, row in runs[100][1].items():  # the rows both write; a row's means are over its own chunk
        assert row["epsilon"] == runs[50][1][key]["epsilon"] and row["nonfinite"] == runs[50][1][key]["nonfinite"]


# --- range checks ------------------------------------------------------------------------------------------------
def test_hyper_ranges_cover_every_hyper_field():
    assert set(HYPER_RANGES) == set(Hyper.__dataclass_fields__)


@pytest.mark.parametrize("flag", ["--grid delta=0.1,-0.2", "--grid eps0=0.5,1.5", "--grid mask_fraction=-0.1",
                                  "--eps0 1.2", "--mask-fraction -1", "--delta 0"])
def test_out_of_range_hyper_values_are_one_line_errors(tmp_path, capsys, flag):
    out = tmp_path / "run"
    code = cli.main(["train", "--env", "hopper", "--backend", "gymnasium", *flag.split(), "--out", str(out)])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1 and "must be" in err, err
    assert not out.exists()
