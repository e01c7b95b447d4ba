"""What a run reports at each log step and evaluation: the CSV rows, the console and the logging sinks.

- CSV rows: one per member (seed and swept values) in RUN_DIR/metrics.csv and RUN_DIR/eval.csv (with the backend).
- Console: a tqdm bar (steps/s, ETA, epsilon, latest training and evaluation returns; with `show_matched`, the
  steps a guide matched so far, all members) when stderr is a terminal; otherwise (logs redirected to files, CI) one
  plain line per log step (with `show_matched`: the steps matched in that log period) and evaluation on stdout;
  nothing if quiet.
- TensorBoard and W&B: camel_jax/core/logs.py, opened at the first log step (when the run directory is known).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

from camel_jax import algos
from camel_jax.core import logs, runs


class Progress:
    """Built by loop.train as `Progress(config, t0, start_step)`; `log` per log step, `log_eval` per evaluation,
    `done` at the end (`close` releases the bar and the sinks without the final line)."""

    def __init__(self, config, t0: float, start_step: int = 0, stream=None,
                 metric_fields: tuple[str, ...] | None = None, eval_fields: tuple[str, ...] = runs.EVAL_FIELDS,
                 show_matched: bool = False):
        self.config, self.t0, self.last_t, self.last_step = config, t0, time.time() if start_step else t0, start_step
        # the CSV columns: metrics.csv's are the config's algorithm's (its plug-in's METRIC_FIELDS) unless given
        self.metric_fields = metric_fields or algos.of_config(config).METRIC_FIELDS
        self.eval_fields = eval_fields
        # CAMEL (TD3 with a prior): epsilon and a masked evaluation too; PPO has no mask, and plain TD3 (--prior none)
        # masks nothing (its box is [-1, 1]): neither prints them
        self.masked = "masked_frac" in self.metric_fields and getattr(config, "prior", "none") != "none"
        self.start_step = start_step
        self.members = config.members()  # one CSV row per member (seed, swept values) per log step
        self.sinks: list | None = None
        self.status = {"eps": float("nan"), "ret": float("nan"), "unmasked": float("nan"), "masked": float("nan")}
        self.show_matched, self.matched = show_matched, 0  # a guide's matched steps since this process started
        stream = sys.stderr if stream is None else stream
        self.bar = None
        if not config.quiet and _isatty(stream):
            from tqdm import tqdm

            self.bar = tqdm(total=config.total_steps, initial=start_step, unit="step", file=stream, dynamic_ncols=True,
                            unit_scale=True, desc=f"{config.env} x{len(self.members)}")

    def note(self, text: str) -> None:
        """A status line (e.g. "compiling ..."): above the bar, or printed; nothing when quiet."""
        if self.bar is not None:
            self.bar.write(text)
        elif not self.config.quiet:
            print(text, flush=True)

    def log(self, run_dir: Path, step: int, row: dict) -> None:
        now = time.time()
        sps = (step - self.last_step) * len(self.members) / max(now - self.last_t, 1e-9)
        self.last_t, self.last_step = now, step
        rows = []
        for s, member in enumerate(self.members):
            rows.append({"step": step, **member, "steps_per_s": float(sps), "wall_s": float(now - self.t0),
                         **{k: _item(v[s]) for k, v in row.items()}})
        runs.append(run_dir, "metrics.csv", runs.fields(self.metric_fields, self.config), rows)
        self._sink_log(run_dir, step, "train", rows)
        ret = _mean_return(rows)
        matched = sum(int(r.get("matched", 0)) for r in rows)
        self.matched += matched
        if self.bar is not None:
            self.status.update(eps=rows[0].get("epsilon", np.nan), ret=ret if np.isfinite(ret) else self.status["ret"])
            self._refresh(step)
        elif not self.config.quiet:
            eps = f"  eps {rows[0]['epsilon']:.3f}" if self.masked and "epsilon" in rows[0] else ""
            eps += f"  matched {matched:6,d}" if self.show_matched else ""
            print(f"step {step:>9,d}/{self.config.total_steps:,d}  return {ret:9.1f}{eps}  "
                  f"{sps:7.0f} steps/s  {now - self.t0:6.0f}s", flush=True)

    def log_eval(self, run_dir: Path, step: int, out: dict) -> None:
        rows = [{"step": step, **member, "wall_s": float(time.time() - self.t0), "backend": self.config.backend,
                 **{k: float(v[s]) for k, v in out.items()}} for s, member in enumerate(self.members)]
        runs.append(run_dir, "eval.csv", runs.fields(self.eval_fields, self.config), rows)
        self._sink_log(run_dir, step, "eval", rows)
        shown = self.masked and "return_masked" in out  # PPO and plain TD3: no masked column (eval.csv keeps it)
        masked = float(np.mean(out["return_masked"])) if shown else np.nan
        line = f"eval {step:>9,d}  unmasked {np.mean(out['return_unmasked']):9.1f}" + (
            f"  masked {masked:9.1f}" if shown else "")
        if self.bar is not None:
            self.status.update(unmasked=float(np.mean(out["return_unmasked"])), masked=masked)
            self._refresh(step)
            self.bar.write(line, file=sys.stdout)  # above the bar: the evaluations stay readable as a history
        elif not self.config.quiet:
            print(line, flush=True)

    def done(self, run_dir: Path) -> None:
        self.close()
        if not self.config.quiet:
            print(f"done in {time.time() - self.t0:.0f}s: {run_dir}", flush=True)

    def close(self) -> None:
        """Close the bar and flush and close the TensorBoard / W&B sinks (idempotent)."""
        if self.bar is not None:
            self.bar.close()
            self.bar = None
        for sink in self.sinks or ():
            sink.close()
        self.sinks = []

    def _sink_log(self, run_dir: Path, step: int, section: str, rows: list[dict]) -> None:
        if self.sinks is None:
            self.sinks = logs.open_sinks(self.config, Path(run_dir), self.start_step)
        for sink in self.sinks:
            sink.log(step, section, rows)

    def _refresh(self, step: int) -> None:
        s = self.status
        self.bar.update(step - self.bar.n)  # tqdm's rate (steps/s per member) and ETA
        f = lambda v: f"{v:.1f}" if np.isfinite(v) else "-"
        matched = f"  matched {self.matched:,d}" if self.show_matched else ""
        eps = f"eps {s['eps']:.3f}  " if self.masked else ""  # CAMEL's exploration of the mask only
        self.bar.set_postfix_str(f"{eps}return {f(s['ret'])}  "
                                 f"eval {f(s['unmasked'])} unmasked"
                                 + (f" / {f(s['masked'])} masked" if self.masked else "")
                                 + matched)  # redraws


def _mean_return(rows: list[dict]) -> float:
    """Mean episode return over the members where an episode ended in this window (NaN if none)."""
    done = [r["episode_return"] for r in rows if r["episodes"] and np.isfinite(r["episode_return"])]
    return float(np.mean(done)) if done else float("nan")


def _isatty(stream) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # no isatty, or a closed stream
        return False


def _item(v):
    v = np.asarray(v).item()
    return float(v) if isinstance(v, float) else v
