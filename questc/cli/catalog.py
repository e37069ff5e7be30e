"""`questc catalog [pieces|monsters|props|cards] [--json]`: the components questc knows."""

from __future__ import annotations

import click


@click.command()
@click.argument("what", required=False, type=click.Choice(["pieces", "monsters", "props", "cards"]))
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def catalog(what: str | None, as_json: bool) -> None:
    """List the known components with their sets (pieces drawn with their openings)."""
    from questc.api import builtin_catalog, catalog_listing

    click.echo(catalog_listing(builtin_catalog(), what, as_json), nl=False)
