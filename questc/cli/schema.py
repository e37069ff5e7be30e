"""`questc schema`: print the JSON Schema of the engine JSON (`<id>.json`) to stdout."""

from __future__ import annotations

import sys

import click


@click.command()
def schema() -> None:
    """Print the JSON Schema (draft 2020-12) that every built <id>.json is valid against."""
    from questc.emit.engine_json import schema_text

    # Printed byte for byte as shipped, so `questc schema > quest.schema.json` is the file itself.
    sys.stdout.write(schema_text())
