#!/usr/bin/env bash
# The paper's experiment on one gymnasium v4 task within a 2-core CPU budget (issue #24's protocol): 150k env steps
# per seed, CleanRL's TD3 settings (learning starts 25k, 1 update per step), gymnasium (C MuJoCo) backend; td3 and
# camel on seeds 1-10 (CleanRL's seed numbers), the other methods on seeds 1-5. Each method is a `camel-jax sweep`
# (two processes of half the seeds each on a 2-core CPU: bench/results/sweep_modes_cpu.md), so RUNS_DIR/METHOD/ holds
# seeds=1-5/ and seeds=6-10/ (pool them with bench/compare.py --run "LABEL=DIR/seeds=1-5+DIR/seeds=6-10").
# Usage: bash bench/paper.sh TASK RUNS_DIR [METHOD...]
#   TASK: hopper | walker2d | ant; methods, in the default order:
#     td3      no prior
#     camel    CAMEL with the task's LLM-written prior (priors/llm/TASK/selected.py), or PRIOR=...
#     tuned    CAMEL with the controller searched for in simulation (tuned:TASK): a tuned prior, not an LLM's
#     random   random masking
#     control  the camel prior without the masking-aware actor and epsilon (the paper's "w/o MA EM")
#     expert   masking around EXPERT (default RUNS_DIR/expert_1m, made by the method expert_1m)
#     expert_1m  (not in the default list) TD3 seed 0 for 1M steps, CleanRL's budget: the expert that earns the name
#   SEEDS overrides the seeds of every method (e.g. SEEDS=0-2); PRIOR the camel prior (e.g. a file).
# Re-running skips finished methods and resumes an interrupted one from its last checkpoints (camel-jax resume).
set -euo pipefail
usage="usage: bash bench/paper.sh TASK RUNS_DIR [METHOD...] (methods: td3 camel tuned random control expert expert_1m)"
task=${1:?$usage}
out=${2:?$usage}
shift 2
methods=${*:-td3 camel tuned random control expert}
prior=${PRIOR:-$task}
expert=${EXPERT:-$out/expert_1m}
common=(--env "$task" --backend gymnasium --total-steps 150000 --learning-starts 25000 --eval-every 10000
        --eval-episodes 5 --log-every 2000 --checkpoint-every 25000 --quiet)
for m in $methods; do
  seeds=1-5
  case $m in
    td3) args=(--prior none); seeds=1-10 ;;
    camel) args=(--prior "$prior"); seeds=1-10 ;;
    tuned) args=(--prior "tuned:$task") ;;
    random) args=(--prior random) ;;
    control) args=(--prior "$prior" --no-masking-aware) ;;
    expert)
      if [ ! -f "$expert/actor.msgpack" ]; then
        echo "expert: $expert has no finished actor; make it first (bash bench/paper.sh $task $out expert_1m) or set EXPERT=RUN_DIR" >&2
        exit 2
      fi
      args=(--prior "expert:$expert") ;;
    expert_1m)
      if [ -f "$out/$m/actor.msgpack" ]; then echo "$m: done already"; continue; fi
      if [ -f "$out/$m/config.json" ]; then camel-jax resume "$out/$m" --quiet --truncate
      else camel-jax train --env "$task" --backend gymnasium --prior none --seeds 0 --total-steps 1000000 \
        --learning-starts 25000 --eval-every 50000 --eval-episodes 10 --log-every 5000 --checkpoint-every 50000 \
        --quiet --out "$out/$m"; fi
      echo "$m: finished $(date -u +%FT%TZ)"
      continue ;;
    *) echo "unknown method $m (td3 camel tuned random control expert expert_1m)" >&2; exit 2 ;;
  esac
  seeds=${SEEDS:-$seeds}
  if [ -f "$out/$m/sweep.json" ]; then
    if python3 -c 'import json, os, sys; d = sys.argv[1]; runs = json.load(open(f"{d}/sweep.json"))["runs"]
sys.exit(not all(os.path.isfile(f"{d}/{r}/actor.msgpack") for r in runs))' "$out/$m"; then
      echo "$m: done already"; continue
    fi
    camel-jax resume "$out/$m" --quiet --truncate  # an interrupted sweep: its finished runs are kept
  else
    camel-jax sweep "${common[@]}" "${args[@]}" --seeds "$seeds" --out "$out/$m"
  fi
  echo "$m: finished $(date -u +%FT%TZ)"
done
