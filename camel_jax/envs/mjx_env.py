"""gymnasium v4 locomotion tasks (Hopper, Walker2d, Ant) on MJX, faithful to gymnasium's C MuJoCo versions.

One class serves every task: everything task-specific (XML, frame skip, observation slice, reward weights, health
rules, reset noise) comes from the task's spec in `envs/`. The env follows brax's `Env` conventions:
`reset(key) -> State`, `step(state, action) -> State`, `State.pipeline_state` is the `mjx.Data` (with `qpos`/`qvel`),
and terminated and truncated are kept apart (`State.done = terminated or truncated`, `State.info["truncation"]`).
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import mujoco
from brax.envs.base import Env, State
from mujoco import mjx

from camel_jax.specs import TaskSpec


class LocomotionEnv(Env):
    """One (unbatched) instance of a spec'd locomotion task. Pure functions of explicit state; jit/vmap from outside."""

    def __init__(self, spec: TaskSpec):
        self.spec = spec
        self.mj_model = mujoco.MjModel.from_xml_path(str(spec.xml_path))
        # This process's first device: MJX's default, jax.devices()[0], belongs to process 0 under jax.distributed.
        self.mjx_model = mjx.put_model(self.mj_model, device=jax.local_devices()[0])
        self.dt = float(self.mj_model.opt.timestep) * spec.frame_skip
        self._init_qpos = jnp.asarray(self.mj_model.qpos0, jnp.float32)
        self._init_qvel = jnp.zeros(self.mj_model.nv, jnp.float32)
        self._torso_id = mujoco.mj_name2id(self.mj_model, mujoco.mjtObj.mjOBJ_BODY, "torso")

    # --- brax Env interface -------------------------------------------------------------------------------------
    @property
    def episode_length(self) -> int:
        return self.spec.episode_length

    @property
    def observation_size(self) -> int:
        return self.spec.obs_dim

    @property
    def action_size(self) -> int:
        return self.spec.act_dim

    @property
    def backend(self) -> str:
        return "mjx"

    def reset(self, rng: jax.Array) -> State:
        """A fresh random initial state (gymnasium v4 reset noise)."""
        k_pos, k_vel = jax.random.split(rng)
        qpos = self._init_qpos + _noise(k_pos, self.spec.reset_qpos, self.mj_model.nq)
        qvel = self._init_qvel + _noise(k_vel, self.spec.reset_qvel, self.mj_model.nv)
        return self.reset_to(qpos, qvel)

    def reset_to(self, qpos: jax.Array, qvel: jax.Array) -> State:
        """Start from given qpos/qvel (gymnasium's `set_state`): used by resets and by the parity tests."""
        data = mjx.make_data(self.mjx_model, device=jax.local_devices()[0]).replace(qpos=qpos, qvel=qvel)
        data = mjx.forward(self.mjx_model, data)
        zero = jnp.zeros((), jnp.float32)
        info = {"steps": jnp.zeros((), jnp.int32), "truncation": zero, "terminated": zero}
        return State(pipeline_state=data, obs=self._obs(data), reward=zero, done=zero, metrics={}, info=info)

    def step(self, state: State, action: jax.Array) -> State:
        data0 = state.pipeline_state
        data = data0.replace(ctrl=action)
        data = jax.lax.fori_loop(0, self.spec.frame_skip, lambda _, d: mjx.step(self.mjx_model, d), data)

        x_velocity = (self._x(data) - self._x(data0)) / self.dt
        ctrl_cost = self.spec.ctrl_cost_weight * jnp.sum(jnp.square(action))
        # gymnasium v4: the healthy bonus is paid every step when terminate_when_unhealthy (the default).
        reward = self.spec.forward_weight * x_velocity + self.spec.healthy_reward - ctrl_cost
        terminated = 1.0 - self._is_healthy(data)
        steps = state.info["steps"] + 1
        truncation = jnp.where(steps >= self.spec.episode_length, 1.0 - terminated, 0.0)
        info = {**state.info, "steps": steps, "truncation": truncation, "terminated": terminated}
        return state.replace(
            pipeline_state=data,
            obs=self._obs(data),
            reward=reward.astype(jnp.float32),
            done=jnp.maximum(terminated, truncation).astype(jnp.float32),
            info=info,
        )

    # --- task terms, all driven by the spec ------------------------------------------------------------------------
    def _obs(self, data: mjx.Data) -> jax.Array:
        qvel = data.qvel
        if self.spec.qvel_clip is not None:
            qvel = jnp.clip(qvel, -self.spec.qvel_clip, self.spec.qvel_clip)
        return jnp.concatenate([data.qpos[self.spec.qpos_start :], qvel]).astype(jnp.float32)

    def _x(self, data: mjx.Data) -> jax.Array:
        if self.spec.forward_source == "torso_xpos":  # gymnasium's get_body_com("torso"), as Ant-v4 uses
            return data.xpos[self._torso_id, 0]
        return data.qpos[0]

    def _is_healthy(self, data: mjx.Data) -> jax.Array:
        s = self.spec
        qpos, qvel = data.qpos, data.qvel
        z_lo, z_hi = s.z_range
        z = qpos[s.z_index]
        healthy = ((z_lo <= z) & (z <= z_hi)) if s.z_inclusive else ((z_lo < z) & (z < z_hi))
        if s.angle_index is not None:
            a_lo, a_hi = s.angle_range
            angle = qpos[s.angle_index]
            healthy &= (a_lo < angle) & (angle < a_hi)
        state_vector = jnp.concatenate([qpos, qvel])
        if s.state_range is not None:
            lo, hi = s.state_range
            healthy &= jnp.all((lo < state_vector[2:]) & (state_vector[2:] < hi))
        healthy &= jnp.all(jnp.isfinite(state_vector))
        return healthy.astype(jnp.float32)


def _noise(key: jax.Array, kind_scale: tuple[str, float], n: int) -> jax.Array:
    kind, scale = kind_scale
    if kind == "uniform":
        return jax.random.uniform(key, (n,), jnp.float32, -scale, scale)
    if kind == "normal":
        return scale * jax.random.normal(key, (n,), jnp.float32)
    raise ValueError(f"unknown reset noise kind '{kind}' in the task spec; use 'uniform' or 'normal'")
