"""ULTRA (arXiv 2505.20671): an LLM names the critical states of a sub-optimal policy's trajectories and suggests, for
each, a better action and an implicit reward rating that action; a lookup table on the device then guides PPO at
matching states (matched under the table's own fixed normalisation; the reward paid by the closeness of the action
taken to the suggestion).

Modules, in the order of the method: `trajectory` (the recorded steps), `interpret` (steps as text, windows),
`queries` (the identification and improvement prompts), `schema` (JSON extraction and checks), `providers`
(who answers: `llm`, `recorded`, and the stand-ins in `standins`), `stages` (asking with retries, counting what was
skipped), `results` (critical steps and suggestions as files, each with its `source`), `table` (the device lookup
table, its `match` and `bonus`), `ablation` (random state selection).
The glue: `collect` (a finished PPO run's trajectories and critic values), `work` (the work directory and the stages
over it), `refine` (PPO continued with the tables: modes A, R, RA, none), `cli` (`camel-jax ultra ...`).
"""
