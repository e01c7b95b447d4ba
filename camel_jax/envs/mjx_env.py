"""gymnasium v4 locomotion tasks (Hopper, Walker2d, Ant) on MJX, faithful to gymnasium's C MuJoCo versions.

One class serves every task: everything task-specific (XML, frame skip, observation slice, reward weights, health
rules, reset noise) comes from the task's spec in `envs/`. The env follows brax's `Env` conventions:
`reset(key) -> State`, `step(state, action) -> State`, `State.pipeline_state` is the `mjx.Data` (with `qpos`/`qvel`),
and terminated and truncated are kept apart (`State.done = terminated or truncated`, `State.info["truncation"]`).

`impl` picks MJX's physics: "jax" (MJX-JAX, any device) or "warp" (MuJoCo Warp through MJX's FFI: an NVIDIA GPU, or
Warp's CPU path, slow, for debugging). Warp keeps contacts in buffers shared by every world of one call (`naconmax`
rows for all worlds together) besides the per-world constraint rows (`njmax`); both are sized here from `worlds`, the
number of instances stepped in one call (members x envs), with MJX-JAX's own static per-world bounds (its contact
and constraint counts for this model), so no contact is ever dropped. The shared buffers are scratch that every step
rewrites, so states carry None in their place (only per-world arrays remain: `jax.tree.map(jnp.where, ...)` resets,
`vmap` and reshapes then see the same leaves on both implementations) and `step` puts fresh ones back in.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import mujoco

from camel_jax.console import import_mjx

import_mjx()  # before brax: mujoco.mjx's warp notices stay off the console (camel_jax/console.py)
from brax.envs.base import Env, State
from mujoco import mjx

from camel_jax.specs import TaskSpec

IMPLS = ("jax", "warp")


class LocomotionEnv(Env):
    """One (unbatched) instance of a spec'd locomotion task. Pure functions of explicit state; jit/vmap from outside."""

    def __init__(self, spec: TaskSpec, impl: str = "jax", worlds: int = 1):
        """`worlds`: instances stepped together in one call (members x envs); sizes Warp's shared contact buffer."""
        self.spec, self.impl = spec, impl
        self.mj_model = mujoco.MjModel.from_xml_path(str(spec.xml_path))
        # This process's first device: MJX's default, jax.devices()[0], belongs to process 0 under jax.distributed.
        device = jax.local_devices()[0]
        self.mjx_model = mjx.put_model(self.mj_model, device=device, impl=impl)
        self.limits = warp_limits(self.mj_model, worlds) if impl == "warp" else {}
        self._data0 = mjx.make_data(self.mj_model, device=device, impl=impl, **self.limits)
        self._shared = _shared_leaves(self) if impl == "warp" else None
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
        data = mjx.forward(self.mjx_model, self._full(self._data0.replace(qpos=qpos, qvel=qvel)))
        data = self._slim(data)
        zero = jnp.zeros((), jnp.float32)
        info = {"steps": jnp.zeros((), jnp.int32), "truncation": zero, "terminated": zero}
        return State(pipeline_state=data, obs=self._obs(data), reward=zero, done=zero, metrics={}, info=info)

    def step(self, state: State, action: jax.Array) -> State:
        data0 = state.pipeline_state
        data = self._full(data0.replace(ctrl=action))
        data = jax.lax.fori_loop(0, self.spec.frame_skip, lambda _, d: mjx.step(self.mjx_model, d), data)
        data = self._slim(data)

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

    # --- Warp's buffers shared by all worlds: None in states, fresh ones put back for the physics ------------------
    def _slim(self, data: mjx.Data) -> mjx.Data:
        if self._shared is None:
            return data
        return jax.tree.map(lambda x, shared: None if shared else x, data, self._shared)

    def _full(self, data: mjx.Data) -> mjx.Data:
        if self._shared is None:
            return data
        return jax.tree.map(lambda d0, x: d0 if x is None else x, self._data0, data, is_leaf=lambda x: x is None)

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


def warp_limits(mj_model: mujoco.MjModel, worlds: int) -> dict[str, int]:
    """MuJoCo Warp's buffer sizes for `worlds` instances stepped in one call: `naconmax` contacts for all worlds
    together and `njmax` constraint rows per world, each the static per-world bound that MJX-JAX derives for this
    model (it allocates exactly that many contacts and constraint rows), so nothing overflows."""
    bound = mjx.make_data(mj_model, impl="jax")._impl  # MJX's own advice: contacts via data._impl.contact
    return {"naconmax": worlds * max(int(bound.contact.dist.shape[0]), 1), "njmax": max(int(bound.efc_J.shape[0]), 1)}


def _shared_leaves(env: LocomotionEnv):
    """True for each leaf of a state's mjx.Data that is not per world (Warp's contact buffers): the leaves whose
    rank does not grow when two instances are reset under vmap."""
    one = jax.eval_shape(lambda: mjx.forward(env.mjx_model, env._data0))
    two = jax.eval_shape(jax.vmap(lambda q: mjx.forward(env.mjx_model, env._data0.replace(qpos=q))),
                         jnp.zeros((2, env.mj_model.nq), jnp.float32))
    return jax.tree.map(lambda a, b: a.ndim == b.ndim, one, two)


def _noise(key: jax.Array, kind_scale: tuple[str, float], n: int) -> jax.Array:
    kind, scale = kind_scale
    if kind == "uniform":
        return jax.random.uniform(key, (n,), jnp.float32, -scale, scale)
    if kind == "normal":
        return scale * jax.random.normal(key, (n,), jnp.float32)
    raise ValueError(f"unknown reset noise kind '{kind}' in the task spec; use 'uniform' or 'normal'")
