"""`questc server`: the language server, for editors (LSP over standard input and output)."""

from __future__ import annotations

import click


@click.command()
@click.option(
    "--stdio", is_flag=True, help="Talk over standard input and output (the default; accepted because editors pass it)."
)
def server(stdio: bool) -> None:
    """Run the quest language server (LSP) over standard input and output, for editors."""
    from questc.server import serve

    serve()
