"""`questc preview QUEST [--port N] [--open] [--host H] [--export page.html]`: a live page of the quest.

Serves the map (the printed sheet's drawing), the diagnostics pinned on it, sight from
any square and the reveal waves on http://127.0.0.1:PORT/, re-checking the quest
whenever it or one of its packs is saved (questc.preview). With --export, writes the
same page as one self-contained HTML file instead and exits.
Exit status: 0 stopped with Ctrl-C or exported; 1 nothing to export (the quest has
syntax or name errors); 2 a usage problem (port taken, unreadable configuration).
"""

from __future__ import annotations

import sys

import click

from questc.cli.common import checking_options, fail, guarded, refuse, run_options


@click.command()
@click.argument("quest", type=click.Path(dir_okay=False))
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8765,
    show_default=True,
    help="Port to serve on (0: any free port).",
)
@click.option(
    "--host",
    default=None,
    help="Interface to serve on (default 127.0.0.1). Any other exposes the quest to the network.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
@click.option(
    "--export",
    "export_to",
    type=click.Path(),
    help="Write the page as one self-contained HTML file and exit (no server).",
)
@checking_options
@guarded
def preview(
    quest: str,
    port: int,
    host: str | None,
    open_browser: bool,
    export_to: str | None,
    strict: bool | None,
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    verbose: bool,
    config_file: str | None,
    expansions: str | None,
) -> None:
    """Show a quest live in the browser: its map, diagnostics, line of sight and reveal waves."""
    from pathlib import Path

    from questc.preview.session import Preview

    path = Path(quest)
    if not path.is_file():
        fail(f"no such quest file: {quest}")

    context = click.get_current_context()

    def options():
        # Read again on every save (the configuration may have changed), from the watcher's
        # thread too: with this command's context current, as the options' values live there.
        with context:
            return run_options(strict, select, ignore, verbose, config_file, expansions)

    options()  # a bad configuration is a usage problem now, not a page later
    session = Preview(path, options)
    session.refresh()
    if export_to:
        from questc.api import refuse_inputs

        # The page never replaces the quest, a pack it uses or the configuration.
        refuse_inputs(
            export_to,
            [],
            options(),
            option="--export",
            more=[(path, "source"), *((p, "content pack") for p in session.watched)],
        )
        _export(session, export_to)
        return
    _serve(session, host, port, open_browser)


def _export(session, target: str) -> None:
    from questc.api import QuestcError
    from questc.emit.atomic import write_atomic
    from questc.preview.export import export_html

    try:
        html = export_html(session)
    except QuestcError as error:
        click.echo(f"questc: {error}", err=True)
        for d in session.diagnostics:
            if d["severity"] == "error":
                click.echo(f"  {d['file']}:{d['line']}:{d['column']}: {d['code']} {d['message']}", err=True)
        sys.exit(1)
    from pathlib import Path

    try:
        Path(target).parent.mkdir(parents=True, exist_ok=True)
        write_atomic(target, html.encode("utf-8"))
    except OSError as error:  # a read-only folder, a full disk
        refuse(f"cannot write {target}: {error.strerror or error}")
    click.echo(f"wrote {target}")


def _serve(session, host: str | None, port: int, open_browser: bool) -> None:
    from questc.preview.server import serve
    from questc.preview.watch import Watcher

    bind = host or "127.0.0.1"
    if host is not None and host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(
            f"questc: warning: serving on {host}: anyone who can reach this machine there can read the quest", err=True
        )
    try:
        server = serve(session, bind, port, extra_host=host)
    except OSError as error:
        fail(f"cannot serve on {bind}:{port}: {error.strerror or error}")
    shown = "127.0.0.1" if bind in ("127.0.0.1", "localhost") else bind
    url = f"http://{'[' + shown + ']' if ':' in shown else shown}:{server.server_address[1]}/"
    watcher = Watcher(session)
    watcher.start()
    state = "stale: the quest has errors" if session.stale else "ok"
    click.echo(f"questc preview: {session.path} on {url} ({state}); Ctrl-C stops")
    sys.stdout.flush()
    if open_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever(poll_interval=0.2)
    except KeyboardInterrupt:
        pass
    finally:
        session.close()
        watcher.stop()
        server.server_close()
        click.echo("questc preview: stopped", err=True)
