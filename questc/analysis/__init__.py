"""The analysis stage: the reveal fixed point (waves, reached cells, unlocked colours)."""

from questc.analysis.reveal import Analysis, Scenario, analyse, named_reachable

__all__ = ["Analysis", "Scenario", "analyse", "named_reachable"]
