"""The resolved quest model: syntax tree + catalog -> QuestModel (names looked up, points absolute)."""

from questc.model.quest import (
    AreaModel,
    DoorModel,
    EncounterModel,
    Figure,
    Marker,
    NamedModel,
    ObstacleModel,
    PlacedPieceModel,
    QuestModel,
    StairsModel,
)
from questc.model.resolve import default_id, resolve

__all__ = [
    "AreaModel",
    "DoorModel",
    "EncounterModel",
    "Figure",
    "Marker",
    "NamedModel",
    "ObstacleModel",
    "PlacedPieceModel",
    "QuestModel",
    "StairsModel",
    "default_id",
    "resolve",
]
