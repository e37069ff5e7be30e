"""`questc schema`: print the JSON Schema of the engine JSON (`<id>.json`) to stdout."""
from __future__ import annotations

import sys

import click


@click.command()
def schema():
    """Print the JSON Schema (draft 2020-12) that every built <id>.json is valid against."""
    from questc.paths import data_dir

    # Printed byte for byte as shipped, so `questc schema > quest.schema.json` is the file itself.
    text = (data_dir("schemas") / "quest.schema.json").read_text(encoding="utf-8")
    sys.stdout.write(text)
