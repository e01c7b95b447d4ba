#!/usr/bin/env bash
# The GPU checks a session runs when an NVIDIA GPU is lent, in the order asked (issue #19's benchmark, the preset's
# 1M-step CAMEL Hopper run, MuJoCo Warp's parity tests), each under its own time limit so that a short lease still
# brings back every finished part. Sized from the first H200 session (bench/results/gpu_h200_2026-11-28/README.md):
# each MJX program compiles in ~45-100 s there, so the 1M run's intervals are aligned (one chunk length: --log-every
# divides --eval-every and --checkpoint-every) and it evaluates once, at the end.
# Usage: bash bench/gpu_checks.sh OUT_DIR [CHECK...]   CHECK: bench, run, warp (default: all three, in that order);
# their time limits in seconds: BENCH_S (default 360), RUN_S (330), WARP_S (240). What the first session measured
# (Hopper's env rates) is not repeated: the bench covers Ant's env rates and the trainer items.
# Needs camel-jax with its GPU extra (pip install -c constraints.txt -e ".[cuda]"); without warp-lang the Warp
# tests skip with the reason. Writes OUT_DIR/{device.txt, gpu_throughput.{json,md,log}, hopper_fast_1m/, *.log}.
set -uo pipefail
out=${1:?usage: bash bench/gpu_checks.sh OUT_DIR [bench] [run] [warp]}
mkdir -p "$out" && out=$(cd "$out" && pwd)
shift
checks=${*:-bench run warp}
t_bench=${BENCH_S:-360} t_run=${RUN_S:-330} t_warp=${WARP_S:-240}
export PYTHONUNBUFFERED=1
cd "$(dirname "$0")/.."
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
  python3 -m pip list 2>/dev/null | grep -i -E "^(jax|jaxlib|jax-cuda[0-9]*-(plugin|pjrt)|flax|optax|mujoco|mujoco-mjx|warp-lang|brax|gymnasium) "
} > "$out/device.txt" 2>&1
cat "$out/device.txt"
stamp() { echo "[$(date -u +%T)] $*"; }

for check in $checks; do
case $check in
bench)  # (1) Ant's env rates (jax and warp), then the trainer with the preset at 1 and 8 vmapped seeds
stamp "gpu_throughput (limit ${t_bench}s)"
timeout "$t_bench" python3 bench/gpu_throughput.py --envs ant --num-envs 1024,16384 --seeds 1,8 --reps 2 \
    --rep-seconds 1.5 --out "$out/gpu_throughput.json" > "$out/gpu_throughput.log" 2>&1
stamp "gpu_throughput rc=$?"; tail -n 20 "$out/gpu_throughput.log" ;;

run)  # (2) CAMEL with the LLM prior and presets/fast.json, Hopper, 3 seeds, 1,024,000 steps (1,000 iterations of 1,024
# envs): log every 100 iterations, one evaluation and one checkpoint at the end; resumable (camel-jax resume)
stamp "1M-step CAMEL Hopper run (limit ${t_run}s)"
start=$(date +%s)
timeout "$t_run" python3 -m camel_jax.cli train --config presets/fast.json --env hopper --backend mjx --prior hopper \
    --seeds 0,1,2 --total-steps 1024000 --log-every 102400 --eval-every 1024000 --checkpoint-every 1024000 \
    --quiet --out "$out/hopper_fast_1m" > "$out/hopper_fast_1m.log" 2>&1
stamp "run rc=$? whole command $(( $(date +%s) - start )) s"; tail -n 5 "$out/hopper_fast_1m.log"
cat "$out/hopper_fast_1m/eval.csv" 2>/dev/null ;;

warp)  # (3) Warp: MJX-versus-C-MuJoCo parity and the Warp-specific tests (buffers, per-world state, the fused trainer)
stamp "Warp tests (limit ${t_warp}s)"
timeout "$t_warp" python3 -m pytest -q -p no:cacheprovider -rs tests/test_env_parity.py tests/test_mjx_impl.py \
    -k warp > "$out/warp_tests.log" 2>&1
stamp "warp tests rc=$?"; tail -n 15 "$out/warp_tests.log" ;;
*) echo "unknown check $check (bench, run, warp)" >&2; exit 2 ;;
esac
done
