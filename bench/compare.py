"""`python bench/compare.py`: the statistics of camel_jax/compare.py (its docstring is this script's --help), kept here
for the benchmarks' command lines; `camel-jax compare` trains the arms and calls the same code."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout's camel_jax, installed or not

from camel_jax.compare import *
from camel_jax.compare import main

if __name__ == "__main__":
    raise SystemExit(main())
