"""Captured steps: a training step's forward and backward recorded once and replayed.

``minigrad.capture`` (``step.py``) is the decorator; ``recording.py`` writes one eager run
down, ``program.py`` compares two runs and replays them; :func:`replayed` marks a function a
step calls for its effect or its random draws, so that replay calls it again."""

from ..host_calls import cannot_replay, replayed
from .step import CapturedStep, capture

__all__ = ["CapturedStep", "cannot_replay", "capture", "replayed"]
