"""The front end: quest source -> typed syntax tree with spans, and syntax diagnostics."""
from questc.syntax.parser import ParseResult, parse_source, quest_parser

__all__ = ["ParseResult", "parse_source", "quest_parser"]
