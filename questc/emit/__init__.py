"""Emitters: diagnostics in every format, the engine JSON, the printed sheets."""
