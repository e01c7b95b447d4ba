"""gymnasium's MuJoCo locomotion tasks (Hopper, Walker2d, Ant, HalfCheetah, Humanoid; v4 and v5) on MJX, faithful to
gymnasium's C MuJoCo versions.

One class serves every task: everything task-specific (XML, frame skip, the observation's parts, reward terms, health
rules, reset noise, action bounds, model options MJX needs changed) comes from the task's spec in `envs/`. Actions are
in [-1, 1] and rescaled onto the task's own bounds (Humanoid: [-0.4, 0.4]), as gymnasium's RescaleAction does on the
gymnasium backend. The env follows brax's `Env` conventions:
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
        for key, value in spec.mjx_options:  # e.g. Humanoid's PGS solver, which MJX lacks: Newton
            set_option(self.mj_model, key, value)
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
        self._mass = jnp.asarray(self.mj_model.body_mass, jnp.float32)
        low, high = jnp.asarray(spec.act_low, jnp.float32), jnp.asarray(spec.act_high, jnp.float32)
        self._ctrl = (lambda a: a) if spec.unit_actions else (lambda a: low + (a + 1.0) * 0.5 * (high - low))
        # cfrc_ext (contact forces) is computed only by the RNE after the constraint solve, as gymnasium calls it
        self._post_rne = spec.contact_cost_weight > 0 or any(p.field in POST_RNE for p in spec.obs_parts)
        sizes = sum(int(np_size(self._data0, p)) for p in spec.obs_parts)
        if sizes != spec.obs_dim:
            raise ValueError(f"task '{spec.name}': the observation parts of {spec.path.name} make {sizes} entries, its "
                             f"table {spec.obs_dim}; make them agree")

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
        data = self._full(data0.replace(ctrl=self._ctrl(action)))
        data = jax.lax.fori_loop(0, self.spec.frame_skip, lambda _, d: mjx.step(self.mjx_model, d), data)
        if self._post_rne:
            data = mjx.rne_postconstraint(self.mjx_model, data)
        data = self._slim(data)
        obs, reward, terminated = self.terms(data0, data)
        steps = state.info["steps"] + 1
        truncation = jnp.where(steps >= self.spec.episode_length, 1.0 - terminated, 0.0)
        info = {**state.info, "steps": steps, "truncation": truncation, "terminated": terminated}
        return state.replace(
            pipeline_state=data,
            obs=obs,
            reward=reward.astype(jnp.float32),
            done=jnp.maximum(terminated, truncation).astype(jnp.float32),
            info=info,
        )

    def terms(self, data0: mjx.Data, data: mjx.Data) -> tuple[jax.Array, jax.Array, jax.Array]:
        """(observation, reward, terminated) of the step from `data0` to `data` (whose `ctrl` is the applied control):
        the task's terms alone, no physics, so the parity tests can also feed them C MuJoCo's states."""
        s = self.spec
        x_velocity = (self._x(data) - self._x(data0)) / self.dt
        ctrl_cost = s.ctrl_cost_weight * jnp.sum(jnp.square(data.ctrl))
        healthy = self._is_healthy(data)
        # v4: the bonus is paid every step, even the one that ends the episode; v5: only while healthy
        bonus = s.healthy_reward * (healthy if s.healthy_bonus == "while_healthy" else 1.0)
        reward = s.forward_weight * x_velocity + bonus - ctrl_cost - self._contact_cost(data)
        terminated = 1.0 - healthy if s.z_index is not None else jnp.zeros((), jnp.float32)
        return self._obs(data), reward, terminated

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
        parts = []
        for p in self.spec.obs_parts:
            x = field(data, p.field)[p.start :]
            parts.append((jnp.clip(x, *p.clip) if p.clip else x).ravel())
        return jnp.concatenate(parts).astype(jnp.float32)

    def _x(self, data: mjx.Data) -> jax.Array:
        if self.spec.forward_source == "torso_xpos":  # gymnasium's get_body_com("torso"), as Ant-v4 uses
            return data.xpos[self._torso_id, 0]
        if self.spec.forward_source == "com":  # gymnasium's mass_center (Humanoid): mass-weighted xipos
            return jnp.sum(self._mass * data.xipos[:, 0]) / jnp.sum(self._mass)
        return data.qpos[0]

    def _contact_cost(self, data: mjx.Data) -> jax.Array:
        s = self.spec
        if s.contact_cost_weight == 0:
            return jnp.zeros((), jnp.float32)
        forces = field(data, "cfrc_ext")
        if s.contact_force_range is not None:  # Ant-v5: each entry clipped first
            forces = jnp.clip(forces, *s.contact_force_range)
        cost = s.contact_cost_weight * jnp.sum(jnp.square(forces))
        return jnp.minimum(cost, s.contact_cost_max) if s.contact_cost_max is not None else cost  # Humanoid-v5

    def _is_healthy(self, data: mjx.Data) -> jax.Array:
        s = self.spec
        if s.z_index is None:  # no health rule (HalfCheetah)
            return jnp.ones((), jnp.float32)
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


POST_RNE = ("cfrc_ext", "cfrc_int", "cacc")  # mjData fields only mj_rnePostConstraint computes


def field(data: mjx.Data, name: str) -> jax.Array:
    """mjData field `name` of an MJX state: public (qpos, cvel, qfrc_actuator) or implementation-specific (cinert,
    cfrc_ext on MJX-JAX)."""
    value = getattr(data, name, None)
    return value if value is not None else getattr(data._impl, name)


def np_size(data: mjx.Data, part) -> int:
    """How many observation entries part `part` (a specs.ObsPart) takes from `data`."""
    x = field(data, part.field)
    return int(x[part.start :].size)


def set_option(mj_model: mujoco.MjModel, key: str, value) -> None:
    """Set `mj_model.opt.<key>`; an enum option by its name (solver = "newton" -> mjSOL_NEWTON)."""
    enums = {"solver": mujoco.mjtSolver, "integrator": mujoco.mjtIntegrator, "cone": mujoco.mjtCone}
    if isinstance(value, str):
        members = {n.partition("_")[2].lower(): m for n, m in enums[key].__members__.items()}
        value = members[value.lower()]
    setattr(mj_model.opt, key, value)


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
