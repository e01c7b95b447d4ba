#!/usr/bin/env bash
# ULTRA's experiment on Hopper-v4 within a 2-core CPU budget (issue #17, item 9): a base PPO stopped while still
# sub-optimal (3 seeds, 200k env steps each, gymnasium backend, CleanRL's PPO settings), its trajectories collected,
# then refinement for 100k env steps per seed in each arm:
#   ppo_continued   PPO continued from the base policy, no guidance (the "no LLM at all" ablation)
#   value-drop_A/R/RA  critical states by the stand-in identifier value-drop (the base critic's largest drops),
#                   suggestions by the stand-in policy suggester (the tuned CAMEL prior priors/tuned/hopper.py,
#                   found by random search in simulation, about 0.35M env steps; not an LLM's)
#   random_RA       the same number of states per seed drawn at random (the random-selection ablation), same suggester
#   llm_RA          a real LLM's answers (recorded; bench/results/ultra_hopper/llm_answers/) on one window per seed
# Usage: bash bench/ultra_hopper.sh RUNS_DIR [STAGE...]
#   stages: base collect value-drop random refine llm (default: all but llm, in that order); `llm` needs the answers
#   committed under bench/results/ultra_hopper/llm_answers (camel-jax ultra prompts RUNS_DIR/work_llm --arm llm
#   prints what to answer). A finished stage is skipped when the script runs again.
set -euo pipefail
out=${1:?usage: bash bench/ultra_hopper.sh RUNS_DIR [STAGE...]}
shift
stages=${*:-base collect value-drop random refine}
answers=bench/results/ultra_hopper/llm_answers
refine() {  # ARM MODE WORK: the run RUNS_DIR/ARM_MODE (ARM none: PPO continued, RUNS_DIR/ppo_continued)
  local dir="$out/${1}_$2" arm=(--arm "$1")
  [ "$1" = none ] && dir="$out/ppo_continued" arm=()
  if [ -f "$dir/actor.msgpack" ]; then echo "$dir: done already"; return; fi
  camel-jax ultra refine "$3" "${arm[@]}" --mode "$2" --steps 100000 --out "$dir" --quiet --overwrite
  camel-jax eval "$dir" --episodes 10
}
for s in $stages; do
  case $s in
    base)
      [ -f "$out/base/actor.msgpack" ] || camel-jax train --algo ppo --env hopper --backend gymnasium --seeds 0,1,2 \
        --total-steps 200000 --out "$out/base" --quiet
      camel-jax eval "$out/base" --episodes 10 ;;
    collect)
      [ -d "$out/work" ] || camel-jax ultra collect "$out/base" --out "$out/work" --episodes 10 ;;
    value-drop)
      [ -d "$out/work/value-drop" ] || camel-jax ultra identify "$out/work" --provider value-drop
      camel-jax ultra improve "$out/work" --arm value-drop --provider policy --policy tuned:hopper --overwrite
      camel-jax ultra table "$out/work" --arm value-drop ;;
    random)
      [ -d "$out/work/random" ] || camel-jax ultra identify "$out/work" --provider random --like value-drop
      camel-jax ultra improve "$out/work" --arm random --provider policy --policy tuned:hopper --overwrite
      camel-jax ultra table "$out/work" --arm random ;;
    refine)
      refine none none "$out/work"
      for m in A R RA; do refine value-drop "$m" "$out/work"; done
      refine random RA "$out/work" ;;
    llm)
      [ -d "$out/work_llm" ] || camel-jax ultra collect "$out/base" --out "$out/work_llm" --episodes 10 --max-windows 1
      camel-jax ultra identify "$out/work_llm" --provider recorded --arm llm --answers "$answers" --overwrite
      camel-jax ultra improve "$out/work_llm" --provider recorded --arm llm --answers "$answers" --overwrite
      camel-jax ultra table "$out/work_llm" --arm llm
      refine llm RA "$out/work_llm" ;;
    *) echo "unknown stage $s (base collect value-drop random refine llm)" >&2; exit 2 ;;
  esac
  echo "$s: finished $(date -u +%FT%TZ)"
done
