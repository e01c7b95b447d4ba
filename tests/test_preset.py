"""presets/fast.json (the high-throughput preset, documented in presets/fast.md) loads into Config, passes its checks,
and runs end to end on CPU at a tiny scale (num_envs and total_steps overridden; batch, updates per step and
policy frequency as the preset sets them): on the gymnasium backend in the default tier, on MJX in the heavy tier."""

import csv
import dataclasses
import json
import math
from pathlib import Path

import pytest

from camel_jax.algos.td3.config import Config
from camel_jax.algos.td3.memory import buffer_bytes_per_member, replay_capacity

ROOT = Path(__file__).resolve().parents[1]
PRESET = ROOT / "presets" / "fast.json"


def _preset(**overrides) -> Config:
    defaults = dataclasses.asdict(Config())
    return Config(**{**defaults, **json.loads(PRESET.read_text()), **overrides})


def test_preset_loads_and_sets_only_config_fields():
    raw = json.loads(PRESET.read_text())
    assert set(raw) <= {f.name for f in dataclasses.fields(Config)}
    config = _preset()
    config.check()
    assert config.num_envs >= 1024 and config.batch_size == 32768 and config.updates_per_step == 2
    assert config.buffer_size == 10_240 * config.num_envs  # FastTD3's buffer per env
    # CAMEL's own settings are untouched by the preset
    for name in ("delta", "min_width", "eps0", "mask_fraction", "masking_aware", "prior"):
        assert getattr(config, name) == getattr(Config(), name)
    for name in raw:  # every field it sets is documented beside it
        assert f"`{name}`" in (ROOT / "presets" / "fast.md").read_text()


def test_buffer_bytes_per_member_follow_the_config():
    config = _preset(env="hopper")
    rows = replay_capacity(config)
    assert rows == min(config.buffer_size, config.total_steps)
    floats_per_row = 2 * 11 + 3 + 3  # obs, next_obs (11), action (3), reward, terminated, masked
    assert buffer_bytes_per_member(config) == 4 * floats_per_row * rows + 8  # + the int32 pointer and size
    ant = _preset(env="ant")
    assert buffer_bytes_per_member(ant) > buffer_bytes_per_member(config)
    small = _preset(env="hopper", total_steps=4096)  # a short run stores at most total_steps rows
    assert replay_capacity(small) == 4096 and buffer_bytes_per_member(small) == 4 * floats_per_row * 4096 + 8


@pytest.mark.parametrize("backend", [
    "gymnasium",
    # the preset's own backend: its training chunk is one more MJX program, ~130 s of a cold compile on this 2-core
    # CPU, for what the gymnasium case checks of the preset and the golden MJX arm of the chunk (issue #27's 20 min)
    pytest.param("mjx", marks=pytest.mark.heavy),
])
def test_preset_trains_end_to_end_at_a_tiny_scale(tmp_path, backend):
    from camel_jax.algos.td3.loop import train

    config = _preset(backend=backend, num_envs=8, total_steps=64, learning_starts=32, log_every=32, eval_episodes=0,
                     out=str(tmp_path / "fast"), quiet=True)
    run = train(config)
    saved = Config.from_json(run / "config.json")
    assert saved.batch_size == 32768 and saved.updates_per_step == 2 and saved.num_envs == 8
    assert saved.backend == backend
    with open(run / "metrics.csv") as f:
        rows = list(csv.DictReader(f))
    assert [int(r["step"]) for r in rows] == [32, 64]
    assert math.isfinite(float(rows[1]["critic_loss"]))  # updates (batch 32,768, 2 per step) ran after learning_starts
    assert (run / "actor.msgpack").stat().st_size > 1000
