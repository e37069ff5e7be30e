"""`questc server`: a Language Server Protocol server for quest files, over stdio.

Diagnostics as `questc lint` gives them (checked as you type, from the unsaved
text), hover, completion, go to definition, references, rename, outline, folding,
formatting and quick fixes. The features are plain functions over a QuestDocument
(questc.server.document); questc.server.server is the pygls glue.
"""


def serve() -> None:
    from questc.server.server import serve as run

    run()


__all__ = ["serve"]
