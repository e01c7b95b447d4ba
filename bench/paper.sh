#!/usr/bin/env bash
# The paper's experiment on one gymnasium v4 task within a 2-core CPU budget: 3 vmapped seeds, 150k env steps per
# seed, CleanRL's TD3 settings (learning starts 25k, 1 update per step), gymnasium (C MuJoCo) backend.
# Usage: bash bench/paper.sh TASK RUNS_DIR [METHOD...]
#   TASK: hopper | walker2d | ant; methods: td3 camel random control expert (default: all, in that order)
#   PRIOR overrides the CAMEL prior (default TASK: the task's LLM-written prior, priors/llm/TASK/selected.py), e.g.
#   PRIOR=tuned:TASK for the controller searched for in simulation (the committed camel/control runs used it),
#   PRIOR=tuned:walker2d_stand for the deliberately poor one, or a prior file.
# `expert` masks around the best-evaluated seed of RUNS_DIR/td3 (a TD3 actor of the same budget), so run td3 first.
# Re-running skips finished methods and resumes an interrupted one from its last checkpoint.
set -euo pipefail
task=${1:?usage: bash bench/paper.sh TASK RUNS_DIR [METHOD...]}
out=${2:?usage: bash bench/paper.sh TASK RUNS_DIR [METHOD...]}
shift 2
methods=${*:-td3 camel random control expert}
prior=${PRIOR:-$task}
common=(--env "$task" --backend gymnasium --seeds 0,1,2 --total-steps 150000 --learning-starts 25000
        --eval-every 10000 --eval-episodes 5 --log-every 2000 --checkpoint-every 50000 --quiet)
for m in $methods; do
  case $m in
    td3) args=(--prior none) ;;
    camel) args=(--prior "$prior") ;;
    random) args=(--prior random) ;;
    control) args=(--prior "$prior" --no-masking-aware) ;;
    expert) args=(--prior "expert:$out/td3") ;;
    *) echo "unknown method $m (td3 camel random control expert)" >&2; exit 2 ;;
  esac
  if [ -f "$out/$m/actor.msgpack" ]; then echo "$m: done already"; continue; fi
  if [ -f "$out/$m/config.json" ]; then camel-jax resume "$out/$m" --quiet --truncate  # an interrupted run
  else camel-jax train "${common[@]}" "${args[@]}" --out "$out/$m"; fi
  echo "$m: finished $(date -u +%FT%TZ)"
done
