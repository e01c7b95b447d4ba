#!/usr/bin/env bash
# ULTRA's experiment on Hopper-v4 within a 2-core CPU budget (issues #17 and #23): a base PPO stopped while still
# sub-optimal (5 seeds, 200k env steps each, gymnasium backend, CleanRL's PPO settings), its trajectories collected,
# then refinement for 100k env steps per seed in each arm:
#   ppo_continued   PPO continued from the base policy, no guidance (the "no LLM at all" ablation)
#   value-drop_A/R/RA  critical states by the stand-in identifier value-drop (the base critic's largest drops),
#                   suggestions by the stand-in policy suggester (the tuned CAMEL prior priors/tuned/hopper.py,
#                   found by random search in simulation, about 0.35M env steps; not an LLM's), which rates its own
#                   action +1
#   random_RA       the same number of states per seed drawn at random (the random-selection ablation), same suggester
#   llm_RA          a real LLM's answers (recorded under --answers DIR) on one window per seed
# Usage: bash bench/ultra_hopper.sh [OPTIONS] RUNS_DIR [STAGE...]
#   stages: base collect value-drop random refine llm-prompts llm (default: base collect value-drop random refine,
#   in that order). A finished stage is skipped when the script runs again.
#   options (defaults: the experiment's sizes):
#     --seeds LIST          the base run's seeds, comma-separated (0,1,2,3,4); every refinement uses the same
#     --base-steps N        env steps per seed of the base PPO (200000)
#     --refine-steps N      env steps per seed of each refinement (100000)
#     --episodes N          episodes per seed collected from the base policy (10)
#     --improve-prompt V    the improvement prompt the LLM answers (v2: its reward rates the suggested action)
#     --answers DIR         the recorded LLM answers, seed k's in DIR/seed_<k>/ (bench/results/ultra_hopper/llm_answers_v2)
# The real-LLM arm, in three steps (the LLM sees only the printed prompts; no API is called):
#   1. bash bench/ultra_hopper.sh RUNS llm-prompts   prints the identification prompt of each seed (one window per seed:
#      the 40 steps before the first fall); save each answer as DIR/seed_<k>/<query>.1.md (<query>: the prompt's name)
#   2. bash bench/ultra_hopper.sh RUNS llm-prompts   identifies from those answers and prints the improvement prompts;
#      save the answers the same way
#   3. bash bench/ultra_hopper.sh RUNS llm           identifies, improves, builds the tables and refines (llm_RA)
set -euo pipefail
seeds=0,1,2,3,4 base_steps=200000 refine_steps=100000 episodes=10 prompt=v2
answers=bench/results/ultra_hopper/llm_answers_v2
while [ $# -gt 0 ]; do
  case $1 in
    --seeds) seeds=${2:?--seeds needs a comma-separated list}; shift 2 ;;
    --base-steps) base_steps=${2:?--base-steps needs a number}; shift 2 ;;
    --refine-steps) refine_steps=${2:?--refine-steps needs a number}; shift 2 ;;
    --episodes) episodes=${2:?--episodes needs a number}; shift 2 ;;
    --improve-prompt) prompt=${2:?--improve-prompt needs v1 or v2}; shift 2 ;;
    --answers) answers=${2:?--answers needs a folder}; shift 2 ;;
    --*) echo "unknown option $1 (see the usage at the top of $0)" >&2; exit 2 ;;
    *) break ;;
  esac
done
out=${1:?usage: bash bench/ultra_hopper.sh [OPTIONS] RUNS_DIR [STAGE...]}
shift
stages=${*:-base collect value-drop random refine}
refine() {  # ARM MODE WORK: the run RUNS_DIR/ARM_MODE (ARM none: PPO continued, RUNS_DIR/ppo_continued)
  local dir="$out/${1}_$2" arm=(--arm "$1")
  [ "$1" = none ] && dir="$out/ppo_continued" arm=()
  if [ -f "$dir/actor.msgpack" ]; then echo "$dir: done already"; return; fi
  camel-jax ultra refine "$3" "${arm[@]}" --mode "$2" --steps "$refine_steps" --out "$dir" --quiet --overwrite
  camel-jax eval "$dir" --episodes 10
}
collect_llm() {
  [ -d "$out/work_llm" ] || camel-jax ultra collect "$out/base" --out "$out/work_llm" --episodes "$episodes" \
    --max-windows 1
}
for s in $stages; do
  case $s in
    base)
      [ -f "$out/base/actor.msgpack" ] || camel-jax train --algo ppo --env hopper --backend gymnasium \
        --seeds "$seeds" --total-steps "$base_steps" --out "$out/base" --quiet
      camel-jax eval "$out/base" --episodes 10 ;;
    collect)
      [ -d "$out/work" ] || camel-jax ultra collect "$out/base" --out "$out/work" --episodes "$episodes" ;;
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
    llm-prompts)
      collect_llm
      if compgen -G "$answers/seed_0/identify_*.1.*" > /dev/null; then
        camel-jax ultra identify "$out/work_llm" --provider recorded --arm llm --answers "$answers" --overwrite
      fi
      camel-jax ultra prompts "$out/work_llm" --arm llm --improve-prompt "$prompt" --show ;;
    llm)
      collect_llm
      camel-jax ultra identify "$out/work_llm" --provider recorded --arm llm --answers "$answers" --overwrite
      camel-jax ultra improve "$out/work_llm" --provider recorded --arm llm --answers "$answers" \
        --improve-prompt "$prompt" --overwrite
      camel-jax ultra table "$out/work_llm" --arm llm
      refine llm RA "$out/work_llm" ;;
    *) echo "unknown stage $s (base collect value-drop random refine llm-prompts llm)" >&2; exit 2 ;;
  esac
  echo "$s: finished $(date -u +%FT%TZ)"
done
