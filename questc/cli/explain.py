"""`questc explain CODE`: the documentation page of one diagnostic code."""
from __future__ import annotations

import sys

import click


@click.command()
@click.argument("code")
def explain(code):
    """Print the page of a diagnostic code (Q303), or list every code with `all`."""
    from questc.diagnostics.registry import all_descriptors, descriptor

    if code.lower() == "all":
        for entry in all_descriptors().values():
            click.echo(f"{entry.code}  {entry.severity.value:<7}  {entry.name}: {entry.summary}")
        return
    entry = descriptor(code)
    if entry is None:
        click.echo(f"questc: no diagnostic code {code!r}; `questc explain all` lists them", err=True)
        sys.exit(2)
    click.echo(entry.page(), nl=False)
