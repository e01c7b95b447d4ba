"""The task specs against gymnasium itself (issue #26): HalfCheetah and Humanoid, gymnasium v5 beside v4, gym:ID.

- Every spec'd task and version: its spaces, action bounds, frame skip, time limit and reset noise are gymnasium's.
- Every new task and every v5 version: the MJX env's task terms (observation, reward, terminated: `LocomotionEnv.terms`)
  computed on C MuJoCo's own states equal what gymnasium returns for them, step by step. This checks each v5
  difference (Hopper/Walker2d/Ant/Humanoid's healthy bonus only while healthy, Ant's and Humanoid's contact cost and
  contact forces in the observation, Humanoid's observation without the world body) apart from the physics, which
  diverges at contacts (tests/test_env_parity.py). Contact forces (cfrc_ext) are recomputed by MJX's own
  rne_postconstraint from C MuJoCo's constraint state, as `LocomotionEnv.step` computes them.
- gym:ID: the spec built from the env, and the one-line errors for ids camel-jax cannot train on.
"""

import contextlib
import functools
import io
import warnings
from pathlib import Path

import gymnasium as gym
import jax
import mujoco
import numpy as np
import pytest
from mujoco import mjx

from camel_jax import envs, specs
from camel_jax.envs.mjx_env import POST_RNE

MUJOCO_TASKS = specs.available()
# every spec'd task but the three whose MJX step is checked against gymnasium step by step (tests/test_env_parity.py):
# HalfCheetah, Humanoid and all v5 versions, and any task added later
NEW_TASKS = tuple(t for t in MUJOCO_TASKS if t not in ("hopper", "walker2d", "ant"))
OBS_TOL = 1e-5  # relative to the largest |entry| of the observation (float32 against float64); measured 6e-8
REW_TOL = 5e-5  # measured 4e-6 (HalfCheetah)


def _gym(spec):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "v4 is out of date"
        return spec.gym_make()


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_spec_is_gymnasiums_task(task):
    spec = specs.load(task)
    env = _gym(spec)
    u = env.unwrapped
    assert spec.gym_id == env.spec.id and spec.gym_id.endswith(spec.version)
    assert env.observation_space.shape == (spec.obs_dim,) and len(set(spec.obs_names)) == spec.obs_dim
    raw = u.action_space  # the env's own bounds, which the trainer's [-1, 1] is rescaled onto
    np.testing.assert_allclose(raw.low, spec.act_low, rtol=1e-7)  # float32 there
    np.testing.assert_allclose(raw.high, spec.act_high, rtol=1e-7)
    assert env.action_space.shape == (spec.act_dim,) and np.all(env.action_space.low == -1)
    assert u.frame_skip == spec.frame_skip and env.spec.max_episode_steps == spec.episode_length
    assert Path(u.fullpath).resolve() == spec.xml_path.resolve()  # the MJX port loads this version's model (v5 Walker2d's)
    assert all(u.model.actuator(i).trntype == mujoco.mjtTrn.mjTRN_JOINT for i in range(spec.act_dim))
    joints = [u.model.joint(u.model.actuator_trnid[i, 0]).name for i in range(spec.act_dim)]
    assert [r["joint"] for r in spec.act_table] == joints  # the action table names each actuator's joint, in order
    env.close()


def _check_noise(dev: np.ndarray, kind: str, scale: float, what: str) -> None:
    """`dev` (draws x dims) is uniform in [-scale, scale] or normal with std `scale`."""
    if kind == "uniform":
        assert np.abs(dev).max() <= scale * (1 + 1e-6) and np.abs(dev).max() > 0.95 * scale, what
        assert abs(dev.std() / (scale / np.sqrt(3)) - 1) < 0.1, what
    else:
        assert abs(dev.std() / scale - 1) < 0.1 and np.abs(dev).max() > 2 * scale, what


@pytest.mark.parametrize("task", MUJOCO_TASKS)
def test_reset_noise_is_gymnasiums_and_the_mjx_draws_follow_it(task):
    from camel_jax.envs.mjx_env import _noise

    spec = specs.load(task)
    env = _gym(spec)
    u = env.unwrapped
    draws = 100
    qpos, qvel = [], []
    for seed in range(draws):
        env.reset(seed=seed)
        qpos.append(u.data.qpos - u.init_qpos)
        qvel.append(u.data.qvel - u.init_qvel)
    for name, dev, (kind, scale) in (("qpos", qpos, spec.reset_qpos), ("qvel", qvel, spec.reset_qvel)):
        _check_noise(np.array(dev), kind, scale, f"{task}: gymnasium's {name} reset noise is not {kind} {scale}")
        draw = functools.partial(_noise, kind_scale=(kind, scale), n=len(dev[0]))
        ours = jax.vmap(draw)(jax.random.split(jax.random.PRNGKey(0), draws))
        _check_noise(np.asarray(ours), kind, scale, f"{task}: the MJX env's {name} reset noise")
    env.close()


@pytest.mark.parametrize("task", NEW_TASKS)
def test_task_terms_equal_gymnasiums_on_its_own_states(task):
    """Random actions on gymnasium's C MuJoCo task; each step's state goes through the MJX env's own functions."""
    spec = specs.load(task)
    env = envs.make_single(task)  # builds the MJX model only; nothing here compiles the physics
    g = _gym(spec)
    u = g.unwrapped
    post_rne = jax.jit(lambda d: mjx.rne_postconstraint(env.mjx_model, d))

    def mjx_data():
        d = mjx.put_data(u.model, u.data)
        if env._post_rne:  # MJX's own contact forces from C MuJoCo's constraint state, as step() computes them
            zeros = {f: np.zeros_like(getattr(d._impl, f)) for f in POST_RNE}
            d = post_rne(d.replace(_impl=d._impl.replace(**zeros)))
        return d

    terms, obs_fn = jax.jit(env.terms), jax.jit(env._obs)
    rng = np.random.default_rng(0)
    obs, _ = g.reset(seed=0)
    before = mjx_data()
    np.testing.assert_allclose(obs_fn(before), obs, atol=OBS_TOL * max(1.0, np.abs(obs).max()))
    terminated_steps, contact_cost, contact_obs = 0, 0.0, 0.0
    contact_part = [p for p in spec.obs_parts if p.field == "cfrc_ext"]
    for t in range(400):
        obs, reward, terminated, truncated, info = g.step(rng.uniform(-1, 1, spec.act_dim))
        after = mjx_data()
        o, r, te = terms(before, after)
        np.testing.assert_allclose(o, obs, atol=OBS_TOL * max(1.0, np.abs(obs).max()), err_msg=f"obs at step {t}")
        assert abs(float(r) - reward) < REW_TOL, f"reward at step {t}: {float(r)} vs {reward}"
        assert bool(te) == terminated, f"terminated at step {t}"
        terminated_steps += terminated
        contact_cost = max(contact_cost, -info.get("reward_contact", 0.0))
        if contact_part:
            contact_obs = max(contact_obs, float(np.abs(obs[-int(np.prod(u.data.cfrc_ext[contact_part[0].start:].shape)):]).max()))
        if terminated or truncated:
            g.reset(seed=t)
            after = mjx_data()
        before = after
        if t >= 60 and (terminated_steps >= 2 or spec.z_index is None):
            break
    if spec.z_index is not None:  # the steps that end an episode are where v4 and v5 pay the healthy bonus differently
        assert terminated_steps >= 2, f"{task}: random actions should end some episodes within 400 steps"
    if spec.contact_cost_weight:
        assert contact_cost > 100 * REW_TOL, f"{task}: the contact cost never mattered ({contact_cost})"
    if contact_part:
        assert contact_obs > 0.1, f"{task}: the observed contact forces stayed 0"
    g.close()


# How each task's v5 differs from its v4, field by field of the spec (its [v5] table); any other field is v4's. What
# the MJX env computes from these fields is gymnasium v5's: test_task_terms_equal_gymnasiums_on_its_own_states runs
# every v5 version (the healthy bonus on the steps that end episodes, Ant's and Humanoid's contact cost and observed
# contact forces, Humanoid's observation without the world body), test_spec_is_gymnasiums_task checks the model file
# (Walker2d-v5's feet) and test_reset_noise_is_gymnasiums_and_the_mjx_draws_follow_it the reset noise (unchanged).
V5_DIFFERENCES = {
    "hopper": {"healthy_bonus": ("every_step", "while_healthy")},
    "walker2d": {"healthy_bonus": ("every_step", "while_healthy"), "xml": ("walker2d.xml", "walker2d_v5.xml")},
    "ant": {"healthy_bonus": ("every_step", "while_healthy"), "obs_dim": (27, 105),
            "contact_cost_weight": (0.0, 5e-4), "contact_force_range": (None, (-1.0, 1.0))},
    "halfcheetah": {},  # only info keys and constructor options differ
    "humanoid": {"healthy_bonus": ("every_step", "while_healthy"), "obs_dim": (376, 348),
                 "contact_cost_weight": (0.0, 5e-7), "contact_cost_max": (None, 10.0)},
}
SAME_ALWAYS = ("frame_skip", "episode_length", "act_table", "act_low", "act_high", "forward_source", "forward_weight",
               "healthy_reward", "ctrl_cost_weight", "z_index", "z_range", "angle_index", "angle_range", "state_range",
               "reset_qpos", "reset_qvel", "mjx_options", "mjx_variant")


@pytest.mark.parametrize("family", sorted(V5_DIFFERENCES))
def test_v5_differs_from_v4_exactly_as_its_spec_states(family):
    import dataclasses

    v4, v5 = specs.load(family), specs.load(f"{family}-v5")
    assert (v4.version, v5.version, v4.gym_id.replace("-v4", "-v5")) == ("v4", "v5", v5.gym_id)
    assert v5.family == family and v5.changes and not v4.changes  # the docs of the difference
    expected = V5_DIFFERENCES[family]
    for field, (old, new) in expected.items():
        assert (getattr(v4, field), getattr(v5, field)) == (old, new), field
    for field in SAME_ALWAYS:
        assert getattr(v4, field) == getattr(v5, field), field
    same_obs = "obs_dim" not in expected
    assert (v4.obs_table == v5.obs_table) == same_obs and (v4.obs_parts == v5.obs_parts) == same_obs
    assert specs.compatible(family, f"{family}-v5") == same_obs  # a v4 prior serves v5 where both observe alike
    changed = {f.name for f in dataclasses.fields(v4) if getattr(v4, f.name) != getattr(v5, f.name)}
    bookkeeping = {"name", "gym_id", "version", "changes", "reward_text", "xml_sha256", "obs_names", "obs_table",
                   "obs_rows", "obs_parts"}
    assert changed - bookkeeping == set(expected) - {"obs_dim"}, changed


def test_humanoid_steps_with_newton_on_mjx_because_mjx_has_no_pgs():
    spec = specs.load("humanoid")
    model = mujoco.MjModel.from_xml_path(str(spec.xml_path))
    assert model.opt.solver == mujoco.mjtSolver.mjSOL_PGS  # gymnasium's XML
    with pytest.raises(NotImplementedError, match="PGS"):  # why the spec's [mjx] table swaps the solver
        mjx.put_model(model)
    env = envs.make_single("humanoid")
    assert dict(spec.mjx_options) == {"solver": "newton"}
    assert env.mj_model.opt.solver == mujoco.mjtSolver.mjSOL_NEWTON
    assert env.mj_model.opt.iterations == model.opt.iterations == 50  # nothing else changed


def test_gymnasium_backend_rescales_actions_onto_the_tasks_bounds():
    venv = envs.make("humanoid", "gymnasium", 1)
    venv.reset(0)
    for a, ctrl in ((1.0, 0.4), (-1.0, -0.4), (0.0, 0.0), (0.5, 0.2)):
        venv.step(None, np.full((1, 17), a))
        np.testing.assert_allclose(venv.envs[0].unwrapped.data.ctrl, ctrl, atol=1e-7)
    venv.close()
    assert specs.load("hopper").gym_make().action_space == gym.make("Hopper-v4").action_space  # [-1, 1]: as is


# ------------------------------------------------------------------------------------------------------- gym:ID
def test_a_gym_task_is_built_from_the_env_itself():
    spec = specs.load("gym:Pendulum-v1")
    assert spec.is_gym and spec.gym_id == "Pendulum-v1" and spec.name == "gym:Pendulum-v1"
    assert (spec.obs_dim, spec.act_dim, spec.act_low, spec.act_high) == (3, 1, (-2.0,), (2.0,))
    assert spec.episode_length == 200 and spec.forward_source is None and spec.z_index is None
    assert "inverted pendulum swingup" in spec.description and "## Rewards" in spec.description  # its docstring
    assert "| 2 | obs_2 |  | observation 2, in [-8, 8] |" in spec.markdown_tables()
    assert "-1 ... 1 is applied as -2 ... 2" in spec.markdown_tables()
    venv = envs.make("gym:Pendulum-v1", "gymnasium", 2)
    state = venv.reset(0)
    assert state.obs.shape == (2, 3) and state.obs.dtype == np.float32
    venv.step(state, np.ones((2, 1)))
    assert venv.envs[0].unwrapped.last_u == pytest.approx(2.0)  # +1 is the top of the torque range
    with pytest.raises(ValueError, match="runs on the gymnasium backend only .* use --backend gymnasium"):
        envs.make("gym:Pendulum-v1", "mjx", 1)


class _DictObs(gym.Env):
    observation_space = gym.spaces.Dict({"x": gym.spaces.Box(-1, 1, (2,))})
    action_space = gym.spaces.Box(-1, 1, (1,))


class _Unbounded(gym.Env):
    observation_space = gym.spaces.Box(-1, 1, (2,))
    action_space = gym.spaces.Box(-np.inf, np.inf, (1,))


class _Fine(gym.Env):
    observation_space = gym.spaces.Box(-1, 1, (2,))
    action_space = gym.spaces.Box(-1, 1, (1,))


@pytest.fixture(scope="module")
def unsuitable_envs():
    gym.register("CamelTestDictObs-v0", entry_point=_DictObs, max_episode_steps=10)
    gym.register("CamelTestUnbounded-v0", entry_point=_Unbounded, max_episode_steps=10)
    gym.register("CamelTestNoLimit-v0", entry_point=_Fine)
    yield
    for name in ("CamelTestDictObs-v0", "CamelTestUnbounded-v0", "CamelTestNoLimit-v0"):
        gym.registry.pop(name)


@pytest.mark.parametrize("name,message", [
    ("gym:NoSuchTask-v0", "--env gym:NoSuchTask-v0: Environment `NoSuchTask` doesn't exist"),
    ("gym:CartPole-v1", "has Discrete actions Discrete(2); camel-jax trains on continuous actions"),
    ("gym:CamelTestDictObs-v0", "has Dict observations; camel-jax needs a flat vector"),
    ("gym:CamelTestUnbounded-v0", "has unbounded actions"),
    ("gym:CamelTestNoLimit-v0", "has no time limit"),
    ("cheetah", "unknown task 'cheetah'; use --env with one of: ant, ant-v5, halfcheetah"),
    ("hopper-v3", "unknown task 'hopper-v3'"),
])
def test_unknown_or_unsuitable_tasks_are_one_line_errors(unsuitable_envs, name, message):
    with pytest.raises(ValueError, match=None) as e:
        specs.load(name)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_image_observations_are_refused():
    pytest.importorskip("Box2D", reason="CarRacing needs gymnasium[box2d]")
    with pytest.raises(ValueError, match=r"has image-like Box\(0, 255, \(96, 96, 3\), uint8\) observations"):
        specs.load("gym:CarRacing-v3")


# ------------------------------------------------------------------------------------------- prompts and priors
def _cli(*argv) -> tuple[int, str, str]:
    from camel_jax.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_new_tasks_have_complete_prompts_from_their_specs():
    code, text, err = _cli("priors", "prompt", "--env", "halfcheetah", "--style", "paper")
    assert code == 0 and "priors/prompts/paper_numpy_v2.md" in err
    assert "`HalfCheetah-v4` environment" in text and '<mujoco model="cheetah">' in text
    assert "| 16 | ffoot_velocity | rad/s |" in text and "| 5 | ffoot_torque | ffoot |" in text
    assert "reward = forward_velocity - 0.1 * sum(action**2)" in text and "never terminates" in text
    assert "$" not in text and text.rstrip().endswith("Let's think step by step.")
    code, text, _ = _cli("priors", "prompt", "--env", "humanoid-v5", "--style", "paper")
    assert code == 0 and "`Humanoid-v5` environment" in text and "shape (348,)" in text
    assert "| 45-174 | cinert |" in text and "| 270-347 | cfrc_ext |" in text  # v5: the world body left out
    assert "scaled to gymnasium's action range [-0.4, 0.4]" in text and "min(5e-7 * sum(cfrc_ext**2), 10)" in text
    code, text, err = _cli("priors", "prompt", "--env", "hopper-v5", "--style", "jnp")
    assert code == 0 and "locomotion_v2.md" in err and "(MuJoCo, gymnasium v5)" in text
    assert "healthy bonus, only while healthy" in text
    code, text, err = _cli("priors", "prompt", "--env", "hopper", "--style", "jnp")  # v4: the paper's prompt as it was
    assert code == 0 and "locomotion_v1.md" in err and "(MuJoCo, gymnasium v4)" in text


def test_prior_by_name_of_a_task_without_one_is_a_one_line_error_saying_how_to_make_one(tmp_path):
    code, _, err = _cli("train", "--env", "humanoid-v5", "--prior", "humanoid-v5", "--out", str(tmp_path / "run"))
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and not (tmp_path / "run").exists(), err
    assert "no LLM prior is selected yet for task 'humanoid-v5'" in lines[0]
    assert "camel-jax priors prompt --env humanoid-v5 --style paper" in lines[0] and "--prior FILE" in lines[0]


def test_a_v4_prior_serves_a_v5_task_that_observes_and_acts_alike():
    from camel_jax.priors.baselines import resolve

    prior = resolve("hopper", "hopper-v5")  # Hopper-v5 changes only the reward
    assert prior.kind == "file" and "task: hopper" in prior.source
    assert prior.fn(np.zeros(11, np.float32)).shape == (3,)
    with pytest.raises(ValueError, match="is the LLM-written prior of ant, not of ant-v5"):
        resolve("ant", "ant-v5")  # Ant-v5 observes 78 contact forces more
