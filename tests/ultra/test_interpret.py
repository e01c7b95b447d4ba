"""State interpretation: known states read as what they are, and windows respect their budget."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from camel_jax import specs
from camel_jax.ultra import interpret, trajectory

HOPPER, WALKER, ANT = specs.load("hopper"), specs.load("walker2d"), specs.load("ant")


def _hopper_traj(length: int, falls_at: tuple[int, ...] = ()) -> trajectory.Trajectory:
    obs = np.zeros((length, 11), np.float32)
    obs[:, 0] = 1.25
    obs[:, 1] = np.linspace(0.0, 0.3, length)
    terminated = np.isin(np.arange(length), falls_at)
    return trajectory.make(obs, np.full((length, 3), 0.5), np.ones(length), terminated, np.zeros(length, bool))


def test_hopper_torso_pitch_and_height_read_with_units_degrees_and_health():
    obs = np.zeros(11)
    obs[0], obs[1], obs[5] = 0.65, 0.3, 1.5
    lines = interpret.describe_observation(HOPPER, obs)
    assert len(lines) == 11  # one sentence per dimension
    assert lines[0].startswith("torso_z = +0.650 m: height of the torso") and \
        lines[0].endswith("healthy range (0.7, inf), OUTSIDE (unhealthy).")
    assert lines[1].startswith("torso_pitch = +0.300 rad (+17.2 deg): angle of the torso from upright") and \
        lines[1].endswith("healthy range (-0.2, 0.2), OUTSIDE (unhealthy).")
    assert lines[5] == "torso_vx = +1.500 m/s: forward velocity of the torso, clipped to +-10."
    obs[0], obs[1] = 1.2, -0.1
    lines = interpret.describe_observation(HOPPER, obs)
    assert lines[0].endswith("(0.7, inf), inside.") and "(-5.7 deg)" in lines[1] and lines[1].endswith("inside.")


def test_walker_reads_every_dimension_with_its_own_health_ranges():
    obs = np.zeros(17)
    obs[0], obs[1] = 2.1, 0.5
    lines = interpret.describe_observation(WALKER, obs)
    assert [line.split(" = ")[0] for line in lines] == list(WALKER.obs_names)
    assert lines[0].endswith("healthy range (0.8, 2), OUTSIDE (unhealthy).")
    assert lines[1].endswith("healthy range (-1, 1), inside.")


@pytest.mark.parametrize("axis, degrees, lean", [("y", 30.0, "+0"), ("x", 30.0, "-90"), ("y", -45.0, "+180")])
def test_ant_quaternion_reads_as_its_tilt_in_degrees(axis, degrees, lean):
    obs = np.zeros(27)
    obs[0] = 0.55
    obs[1:5] = Rotation.from_euler(axis, degrees, degrees=True).as_quat(scalar_first=True)
    lines = interpret.describe_observation(ANT, obs)
    assert len(lines) == 27 - 3  # the quaternion's four dimensions are one sentence
    assert lines[0].endswith("healthy range [0.2, 1], inside.")
    assert lines[1].startswith("torso orientation quaternion (w, x, y, z) = (")
    assert f"tilted {abs(degrees):.1f} deg from upright, leaning toward azimuth {lean} deg" in lines[1]
    assert "upside down" not in lines[1] and lines[2].startswith("hip_1_angle = ")


def test_ant_upright_and_upside_down():
    obs = np.zeros(27)
    obs[1] = 1.0
    assert "tilted 0.0 deg from upright; it faces azimuth +0 deg." in interpret.describe_observation(ANT, obs)[1]
    obs[1:5] = Rotation.from_euler("z", 90, degrees=True).as_quat(scalar_first=True)
    assert "it faces azimuth +90 deg" in interpret.describe_observation(ANT, obs)[1]
    obs[1:5] = [0.0, 1.0, 0.0, 0.0]
    assert "tilted 180.0 deg from upright" in interpret.describe_observation(ANT, obs)[1]
    assert "(upside down)" in interpret.describe_observation(ANT, obs)[1]


def test_a_step_names_the_actuators_reward_and_ending():
    traj = _hopper_traj(5, falls_at=(4,))
    text = interpret.describe_step(HOPPER, traj, 4, episode=0, first=0)
    assert text.startswith("Step 4 (episode 0, its step 4):\n- torso_z = +1.250 m")
    assert "- action: thigh_torque = +0.500, leg_torque = +0.500, foot_torque = +0.500." in text
    assert "- reward: +1.000." in text and text.endswith("the robot became unhealthy (see Episode end).")
    assert "terminates" not in interpret.describe_step(HOPPER, traj, 3, episode=0, first=0)


def test_windows_are_the_ends_of_episodes_falls_first_within_the_budget():
    traj = trajectory.concatenate([_hopper_traj(30), _hopper_traj(20, falls_at=(19,))])  # a cut, then a fall
    found = interpret.windows(HOPPER, traj, max_steps=8, time_limits=True)
    assert [(w.name, w.ending) for w in found] == [("ep1_t42-49", "terminated"), ("ep0_t22-29", "truncated")]
    assert found[0].text.startswith("Step 42 (episode 1, its step 12):")
    one_step = len(interpret.describe_step(HOPPER, traj, 49, 1, 30))
    small = interpret.windows(HOPPER, traj, max_steps=8, max_chars=3 * one_step + 10, max_windows=1)
    assert len(small) == 1 and small[0].steps == (47, 48, 49) and len(small[0].text) <= 3 * one_step + 10
    with pytest.raises(ValueError, match="raise max_chars"):
        interpret.windows(HOPPER, traj, max_chars=100)


def test_time_limit_windows_are_no_candidates_unless_asked_for():
    """An episode cut off by the time limit did not fail at its end: by default it gives no window (so nothing in it
    is named critical), the falls do; `time_limits` takes it too."""
    traj = trajectory.concatenate([_hopper_traj(30), _hopper_traj(20, falls_at=(19,)), _hopper_traj(25)])
    assert [w.name for w in interpret.windows(HOPPER, traj, max_steps=8)] == ["ep1_t42-49"]
    assert [w.name for w in interpret.windows(HOPPER, traj, max_steps=8, time_limits=True)] == [
        "ep1_t42-49", "ep0_t22-29", "ep2_t67-74"]
    assert interpret.windows(HOPPER, trajectory.concatenate([_hopper_traj(30)]), max_steps=8) == []  # no fall


def test_window_around_a_step_shows_what_followed_within_its_episode():
    traj = _hopper_traj(60, falls_at=(29,))
    w = interpret.window_around(HOPPER, traj, 10, max_steps=8)
    assert w.steps == tuple(range(7, 15)) and w.ending == "continues"
    assert interpret.window_around(HOPPER, traj, 27, max_steps=8).steps == tuple(range(22, 30))


def test_mismatched_shapes_and_unknown_families_are_errors():
    with pytest.raises(ValueError, match="observation has 5 dimensions, the spec 11"):
        interpret.describe_observation(HOPPER, np.zeros(5))
    with pytest.raises(ValueError, match="actions have 2 dimensions, the spec 3"):
        interpret.describe_step(HOPPER, trajectory.make(np.zeros((2, 11)), np.zeros((2, 2)), np.zeros(2),
                                                        np.zeros(2), np.zeros(2)), 0, 0, 0)
    with pytest.raises(ValueError, match="rewards has 1 steps, obs has 2"):
        trajectory.make(np.zeros((2, 11)), np.zeros((2, 3)), np.zeros(1), np.zeros(2), np.zeros(2))


def test_batched_rollouts_split_per_env_and_never_merge_episodes(tmp_path):
    T, n = 6, 2
    terminated = np.zeros((T, n), bool)
    terminated[2, 0] = True
    traj = trajectory.from_batched(np.zeros((T, n, 11)), np.zeros((T, n, 3)), np.zeros((T, n)), terminated,
                                   np.zeros((T, n), bool))
    assert traj.episodes() == [(0, 2), (3, 5), (6, 11)] and traj.truncated[[5, 11]].all()
    trajectory.save(tmp_path / "t.npz", traj)
    again = trajectory.load(tmp_path / "t.npz")
    assert all(np.array_equal(getattr(again, f), getattr(traj, f)) for f in trajectory.FIELDS)
