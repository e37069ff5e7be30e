"""The component catalog: cards/*.yaml and content packs in, a read-only Catalog of pieces, monsters, props, cards and sets out."""
from questc.catalog.load import CatalogError, builtin_catalog, load_catalog
from questc.catalog.model import (
    CARD_TYPES,
    PIECE_KINDS,
    TREACHERY_COLOURS,
    TREACHERY_KINDS,
    CardType,
    Catalog,
    ChestCard,
    Count,
    DarkGlyph,
    MarkerKind,
    MonsterType,
    ObstacleKind,
    Opening,
    PieceType,
    PlacedShape,
    SetInfo,
    TreasureKind,
)

__all__ = [
    "CARD_TYPES", "PIECE_KINDS", "TREACHERY_COLOURS", "TREACHERY_KINDS", "CardType", "Catalog", "ChestCard",
    "CatalogError", "Count", "DarkGlyph", "MarkerKind", "MonsterType", "ObstacleKind", "Opening",
    "PieceType", "PlacedShape", "SetInfo", "TreasureKind", "builtin_catalog", "load_catalog",
]
