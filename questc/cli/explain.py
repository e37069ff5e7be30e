"""`questc explain CODE`: the documentation page of one diagnostic code."""

from __future__ import annotations

import sys

import click


@click.command()
@click.argument("code")
def explain(code: str) -> None:
    """Print the page of a diagnostic code, by number (Q303) or name (rune-door-guards-own-key),
    or list every code with `all`."""
    from questc.api import descriptors, find_rule

    if code.lower() == "all":
        for entry in descriptors().values():
            click.echo(f"{entry.code}  {entry.severity.value:<7}  {entry.name}: {entry.summary}")
        return
    rule = find_rule(code)
    if rule is None:
        import difflib

        names = {entry.name: entry.code for entry in descriptors().values()}
        close = difflib.get_close_matches(code.lower().replace("_", "-"), names, n=1)
        hint = f"did you mean `{close[0]}` ({names[close[0]]})? " if close else ""
        click.echo(f"questc: no diagnostic code {code!r}; {hint}`questc explain all` lists them", err=True)
        sys.exit(2)
    click.echo(rule.descriptor.page(), nl=False)
