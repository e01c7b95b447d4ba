"""bench/selector_vs_training.py on the committed Hopper runs: the table, Spearman per score and the pick's rank."""

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import selector_vs_training


def test_selector_check_reads_the_committed_runs(tmp_path):
    out = tmp_path / "sel"
    assert selector_vs_training.main(["--env", "hopper", "--candidates", str(ROOT / "priors/llm/hopper/imported"),
                                      "--runs", str(ROOT / "bench/results/selector_hopper_60k"), "--episodes", "2",
                                      "--out", str(out)]) == 0
    result = json.loads(out.with_suffix(".json").read_text())
    assert [Path(r["candidate"]).name for r in result["rows"]] == ["answer_3.py", "answer_4.py", "answer_1.py",
                                                                   "answer_5.py"]  # by unmasked-eval AUC
    assert result["rows"][0]["auc_unmasked"] > result["rows"][-1]["auc_unmasked"]
    assert set(result["spearman"]) == {"return", "forward", "progress", "speed"}
    assert result["pick"].endswith("answer_3.py") and result["pick_in_top_2"]
    assert "| 1 | `answer_3.py` | 1 |" in out.with_suffix(".md").read_text()
