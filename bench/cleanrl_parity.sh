#!/usr/bin/env bash
# Issue #24: TD3 on Hopper-v4, camel-jax against CleanRL's own td3_continuous_action_jax.py, 10 seeds, 150k steps,
# each side on MuJoCo 3.1.6 (CleanRL's pinned set) and on MuJoCo 4.0.0 (ours), everything else held fixed.
# Usage: bash bench/cleanrl_parity.sh RUNS_DIR TARGET...   (from the repository root; see bench/README.md, CleanRL)
#   cleanrl        CleanRL in its own venv (gymnasium 0.29.1, mujoco 3.1.6, jax 0.4.30)  -> $REF_DIR/cleanrl_td3_jax_hopper_10seeds.csv
#   cleanrl_mj400  the same venv with mujoco 4.0.0 instead of 3.1.6                     -> $REF_DIR/cleanrl_td3_jax_hopper_mj400_10seeds.csv
#   ours           camel-jax --prior none, the project's venv (gymnasium 1.4.0, mujoco 4.0.0)  -> RUNS_DIR/ours
#   ours_mj316     the same with the project's venv's set but mujoco 3.1.6 ($VENVS/ours_mj316) -> RUNS_DIR/ours_mj316
# Every target is resumable: run the same command again after an interruption. CleanRL's skips its finished seeds
# and restarts the interrupted one from its start; ours skips a finished run and resumes an interrupted one from its
# last checkpoint (the C MuJoCo envs restart from a reset there, so a resumed run is not bit for bit an uninterrupted
# one). Settings: CLEANRL_DIR (checkout at fe8d8a03), VENVS, PYTHON (the project's interpreter), SEEDS, STEPS,
# LEARNING_STARTS, REF_DIR; the defaults are the experiment's.
set -euo pipefail
out=${1:?usage: bash bench/cleanrl_parity.sh RUNS_DIR TARGET...}
shift
targets=${*:?name one or more targets: cleanrl cleanrl_mj400 ours ours_mj316}
root=$(cd "$(dirname "$0")/.." && pwd)
cleanrl=${CLEANRL_DIR:-/work/cleanrl}
venvs=${VENVS:-/work/venvs}
python=${PYTHON:-python}
seeds=${SEEDS:-1 2 3 4 5 6 7 8 9 10}
steps=${STEPS:-150000}
starts=${LEARNING_STARTS:-25000}
ref=${REF_DIR:-$root/bench/reference}
export PYTHONPATH=$root  # ours: this checkout's camel_jax, whatever an interpreter has installed

reference() {  # $1: venv, $2: CSV
  "$python" "$root/bench/cleanrl_reference.py" --cleanrl "$cleanrl" --python "$venvs/$1/bin/python" \
    --env-id Hopper-v4 --seeds $seeds --total-timesteps "$steps" --learning-starts "$starts" --out "$2"
}

ours() {  # $1: interpreter, $2: run directory
  if [ -f "$2/actor.msgpack" ]; then echo "$2: done already"; return; fi
  if [ -f "$2/config.json" ]; then "$1" -m camel_jax.cli resume "$2" --quiet --truncate; return; fi
  "$1" -m camel_jax.cli train --env hopper --backend gymnasium --prior none --seeds "$(echo $seeds | tr ' ' ,)" \
    --total-steps "$steps" --learning-starts "$starts" --eval-every 10000 --eval-episodes 5 --log-every 2000 \
    --checkpoint-every 25000 --quiet --out "$2"
}

for t in $targets; do
  case $t in
    cleanrl) reference cleanrl "$ref/cleanrl_td3_jax_hopper_10seeds.csv" ;;
    cleanrl_mj400) reference cleanrl_mj400 "$ref/cleanrl_td3_jax_hopper_mj400_10seeds.csv" ;;
    ours) ours "$python" "$out/ours" ;;
    ours_mj316) ours "$venvs/ours_mj316/bin/python" "$out/ours_mj316" ;;
    *) echo "unknown target $t (cleanrl cleanrl_mj400 ours ours_mj316)" >&2; exit 2 ;;
  esac
  echo "$t: finished $(date -u +%FT%TZ)"
done
