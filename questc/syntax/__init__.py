"""The front end: quest source -> typed syntax tree with spans, and syntax diagnostics."""

from questc.syntax.parser import ParseResult, parse_source

__all__ = ["ParseResult", "parse_source"]
