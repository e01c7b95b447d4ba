"""The algorithm registry (issue #25): every config states its `algo`, `train --config RUN/config.json` replays the
algorithm the file states, the shell dispatches through the registry, the notebook API trains PPO too and returns
curves per member, and `camel_jax` lists its public names."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import camel_jax
from camel_jax import algos, api, cli
from camel_jax.algos.ppo.config import PPOConfig
from camel_jax.algos.td3.config import Config


def test_each_registered_algorithm_provides_the_interface():
    for name in algos.names():
        plugin = algos.get(name)
        assert plugin.NAME == name and plugin.Config().algo == name
        assert plugin.METRIC_FIELDS[:2] == ("step", "seed") and "unmasked" in plugin.EVAL_MODES
        for fn in ("train", "resume", "load_policy"):
            assert callable(getattr(plugin, fn))
    with pytest.raises(ValueError, match="unknown algorithm 'sac'; use --algo with one of: td3, ppo"):
        algos.get("sac")
    with pytest.raises(ValueError, match="already registered"):
        algos.register("td3", "again", "camel_jax.algos.td3.algorithm")


def test_a_run_states_its_algorithm_and_a_legacy_td3_config_is_td3(tmp_path):
    assert json.loads(Config().to_json())["algo"] == "td3" and json.loads(PPOConfig().to_json())["algo"] == "ppo"
    (tmp_path / "config.json").write_text(json.dumps({"env": "hopper"}))  # before #25: TD3's had no `algo`
    assert algos.name_of_run(tmp_path) == "td3" and algos.of_run(tmp_path).NAME == "td3"
    with pytest.raises(ValueError, match="Config.algo must be 'td3'"):
        Config(algo="ppo").check()


@pytest.mark.parametrize("cls", [Config, PPOConfig])
def test_train_config_replays_the_algorithm_its_file_states(cls, tmp_path, monkeypatch):
    seen = []
    monkeypatch.setattr(algos.get(cls().algo), "train", lambda config: seen.append(config) or tmp_path)
    path = tmp_path / "config.json"
    path.write_text(cls(env="walker2d", seeds=(3, 4), out="old").to_json())
    assert cli.main(["train", "--config", str(path), "--total-steps", "5000", "--out", str(tmp_path / "new")]) == 0
    assert type(seen[0]) is cls and (seen[0].env, seen[0].seeds, seen[0].total_steps) == ("walker2d", (3, 4), 5000)


def test_train_config_with_another_algo_is_one_line(tmp_path, capsys):
    path = tmp_path / "config.json"
    path.write_text(PPOConfig().to_json())
    assert cli.main(["train", "--algo", "td3", "--config", str(path)]) == 2
    assert capsys.readouterr().err.strip() == (
        f"camel-jax train: --config {path} is a ppo run's config, not td3's; drop --algo (the file states its "
        "algorithm) or give a config of the other algorithm")


def test_public_names():
    assert {"Config", "PPOConfig", "train", "Result", "Curves", "evaluate_run", "load_prior"} <= set(dir(camel_jax))
    assert camel_jax.PPOConfig is PPOConfig and camel_jax.Config is Config
    assert camel_jax.algorithms() == ("td3", "ppo")


def test_curves_unflatten_the_rows_by_member():
    members = [{"seed": 0, "delta": 0.1}, {"seed": 1, "delta": 0.1}, {"seed": 0, "delta": 0.3}]
    table = {"step": np.array([10, 10, 10, 20, 20, 20]), "seed": np.array([0, 1, 0, 0, 1, 0]),
             "delta": np.array([0.1, 0.1, 0.3, 0.1, 0.1, 0.3]), "r": np.arange(6.0)}
    c = api.member_curves(table, "r", members)
    assert c.steps.tolist() == [10, 20] and c.seeds.tolist() == [0, 1, 0]
    np.testing.assert_array_equal(c.values, [[0, 3], [1, 4], [2, 5]])


def test_notebook_api_trains_ppo_and_returns_curves_per_member(tmp_path):
    logged = []
    config = PPOConfig(env="hopper", seeds=(0, 1), num_envs=2, num_steps=64, num_minibatches=4, update_epochs=2,
                       total_steps=384, log_every=128, checkpoint_every=256, eval_every=384, eval_episodes=1,
                       backend="gymnasium", quiet=True, out=str(tmp_path / "ppo"))  # test_ppo's TINY: its programs
    result = camel_jax.train(config, callback=lambda step, row: logged.append(step))
    assert logged == [128, 256, 384] and result.config == dataclasses.replace(config, out=str(tmp_path / "ppo"))
    curves = result.curves("episode_return")
    assert curves.values.shape == (2, 3) and curves.steps.tolist() == [128, 256, 384]
    assert curves.seeds.tolist() == [0, 1]
    np.testing.assert_array_equal(curves.values[1], result.metrics["episode_return"][1::2])
    assert result.curves("return_unmasked", csv="eval").values.shape == (2, 1)
    with pytest.raises(ValueError, match="ppo takes no prior"):
        camel_jax.train(config, prior="hopper")
