"""The language server: pygls glue between LSP messages and the features in questc.server.

Checking runs in one worker thread, so requests (hover, completion) are answered
while a large quest is checked; a check of an older version is never published. A
change starts a check after a short pause (`debounce`); changes that arrive while a
check runs are taken together by the next one. A failure inside any handler is
logged to the client (window/logMessage, with the traceback) and answered as an
internal error: the server carries on.
"""
from __future__ import annotations

import asyncio
import functools
import logging
import traceback
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

from questc import __version__
from questc.server import completion, diagnostics, hover, navigation, outline, tokens
from questc.server.document import OptionsCache, QuestDocument, check, uri_path

log = logging.getLogger("questc.server")

DEBOUNCE_SECONDS = 0.02
REQUEST_FAILED = -32803   # LSP's RequestFailed: the request was valid but could not be carried out


class QuestProtocol(LanguageServerProtocol):
    """pygls's protocol, less a leak: pygls 2.1 files the future of every notification handled by a
    generator (its own didOpen/didChange/didSave/didClose handlers are) among the requests', and only
    a response takes it out again. Every edit kept one (2 kB); a thousand edits, 2 MB, for ever."""

    def _handle_notification(self, method_name, params):
        before = set(self._request_futures)
        super()._handle_notification(method_name, params)
        for key in set(self._request_futures) - before:
            future = self._request_futures[key]
            if future.done():
                del self._request_futures[key]
            else:
                def forget(_done: object, key: str | int = key) -> None:   # (an LSP message id)
                    self._request_futures.pop(key, None)

                future.add_done_callback(forget)


class QuestServer(LanguageServer):
    def __init__(self):
        super().__init__("questc", __version__, text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
                         protocol_cls=QuestProtocol)
        self.documents: dict[str, QuestDocument] = {}
        self.options = OptionsCache()
        self.debounce = DEBOUNCE_SECONDS
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="questc-check")
        self.tasks: dict[str, asyncio.Task] = {}

    # ---- errors ----------------------------------------------------------------------
    def log_error(self, what: str, error: BaseException) -> None:
        trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        log.error("%s failed: %s", what, trace)
        try:
            self.window_log_message(types.LogMessageParams(types.MessageType.Error,
                                                           f"questc: {what} failed: {error!r}\n{trace}"))
        except Exception:   # noqa: BLE001 - the log itself must not take the server down
            pass

    def report_server_error(self, error, source):
        from pygls.exceptions import FeatureRequestError
        if source is FeatureRequestError:
            return   # a failed request: `guarded` logged it already, the client has the error response
        self.log_error(getattr(source, "__name__", "a message"), error)

    # ---- documents -------------------------------------------------------------------
    @property
    def encoding(self) -> str:
        value = getattr(self.workspace, "position_encoding", None) or "utf-16"
        return str(getattr(value, "value", value))

    def open(self, uri: str, text: str, version: int) -> QuestDocument:
        document = QuestDocument(uri, text, version or 0, self.encoding)
        self.documents[uri] = document
        self.schedule(document, delay=0.0)
        return document

    def document(self, uri: str) -> QuestDocument:
        document = self.documents.get(uri)
        if document is None:   # asked about a file never opened: read it from disk
            path = uri_path(uri)
            text = path.read_text(encoding="utf-8") if path is not None and path.is_file() else ""
            document = QuestDocument(uri, text, 0, self.encoding)
        return document

    def schedule(self, document: QuestDocument, delay: float | None = None) -> None:
        """Check the document's newest text soon; one check loop per document at a time."""
        task = self.tasks.get(document.uri)
        if task is not None and not task.done():
            return   # the running loop checks again if the text moved on meanwhile
        self.tasks[document.uri] = asyncio.ensure_future(
            self._check_loop(document, self.debounce if delay is None else delay))

    async def _check_loop(self, document: QuestDocument, delay: float) -> None:
        loop = asyncio.get_running_loop()
        if delay:
            await asyncio.sleep(delay)
        while not document.closed:
            text, version = document.text, document.version
            try:
                checked = await loop.run_in_executor(self.checker, check, document, text, version, self.options)
            except Exception as error:   # noqa: BLE001 - a crash in a check must not silence the server
                self.log_error(f"checking {document.uri}", error)
                self._publish_failure(document, version, error)
                return
            if document.closed:
                return
            document.checked = checked
            if checked.result.model is not None:
                document.resolved = checked
            if document.version == version and document.text is text:
                self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
                    uri=document.uri, version=version, diagnostics=diagnostics.published(document, checked)))
                return
            await asyncio.sleep(self.debounce)   # edited meanwhile: check the newest text

    def _publish_failure(self, document: QuestDocument, version: int, error: BaseException) -> None:
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(
            uri=document.uri, version=version, diagnostics=[types.Diagnostic(
                range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                severity=types.DiagnosticSeverity.Error, source=diagnostics.SOURCE,
                message=f"questc could not check this quest (internal error: {type(error).__name__}: {error}); "
                        "the server log has the details")]))


server = QuestServer()


def guarded(what: str, notification: bool = False):
    """Run a handler; log any failure to the client. A request answers with an internal error,
    a notification is dropped; either way the server goes on."""
    def wrap(function):
        @functools.wraps(function)
        def run(ls: QuestServer, params):
            try:
                return function(ls, params)
            except JsonRpcException:
                raise
            except Exception as error:   # noqa: BLE001 - one failed request must not stop the server
                ls.log_error(what, error)
                if notification:
                    return None
                raise JsonRpcException(f"questc: {what} failed: {type(error).__name__}: {error}",
                                       code=REQUEST_FAILED) from None
        return run
    return wrap


# ---- life cycle and text synchronisation ---------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: QuestServer, params: types.InitializeParams) -> None:
    """`initializationOptions`: {"debounce": milliseconds} (the pause before a change is checked)."""
    options = params.initialization_options
    if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
        ls.debounce = max(0.0, float(options["debounce"]) / 1000)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@guarded("opening a document", notification=True)
def did_open(ls: QuestServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.open(item.uri, item.text, item.version)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
@guarded("applying an edit", notification=True)
def did_change(ls: QuestServer, params: types.DidChangeTextDocumentParams) -> None:
    from questc.server.text import apply_change

    uri = params.text_document.uri
    document = ls.documents.get(uri)
    if document is None:
        return
    text = document.text
    for change in params.content_changes:
        text = apply_change(text, change, document.encoding)
    document.text, document.version = text, params.text_document.version
    ls.schedule(document)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@guarded("saving a document", notification=True)
def did_save(ls: QuestServer, params: types.DidSaveTextDocumentParams) -> None:
    document = ls.documents.get(params.text_document.uri)
    if document is not None:
        ls.schedule(document, delay=0.0)   # configuration or packs may have changed on disk


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@guarded("closing a document", notification=True)
def did_close(ls: QuestServer, params: types.DidCloseTextDocumentParams) -> None:
    document = ls.documents.pop(params.text_document.uri, None)
    if document is not None:
        document.closed = True
    task = ls.tasks.pop(params.text_document.uri, None)
    if task is not None:
        task.cancel()
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri,
                                                                        diagnostics=[]))


# ---- features ------------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_HOVER)
@guarded("hover")
def on_hover(ls: QuestServer, params: types.HoverParams) -> types.Hover | None:
    document = ls.document(params.text_document.uri)
    line, column = document.lines().cursor(params.position)
    text = hover.hover_markdown(document, line, column)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(types.MarkupKind.Markdown, text))


@server.feature(types.TEXT_DOCUMENT_COMPLETION,
                types.CompletionOptions(trigger_characters=[" ", ",", '"']))
@guarded("completion")
def on_completion(ls: QuestServer, params: types.CompletionParams) -> types.CompletionList:
    document = ls.document(params.text_document.uri)
    return types.CompletionList(is_incomplete=False, items=completion.complete(document, params.position))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@guarded("go to definition")
def on_definition(ls: QuestServer, params: types.DefinitionParams):
    return navigation.definition(ls.document(params.text_document.uri), params.position) or None


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@guarded("find references")
def on_references(ls: QuestServer, params: types.ReferenceParams):
    return navigation.references(ls.document(params.text_document.uri), params.position,
                                 params.context.include_declaration) or None


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded("prepare rename")
def on_prepare_rename(ls: QuestServer, params: types.PrepareRenameParams):
    return navigation.prepare_rename(ls.document(params.text_document.uri), params.position)


@server.feature(types.TEXT_DOCUMENT_RENAME)
@guarded("rename")
def on_rename(ls: QuestServer, params: types.RenameParams):
    try:
        return navigation.rename(ls.document(params.text_document.uri), params.position, params.new_name)
    except navigation.RenameRefused as refused:
        raise JsonRpcException(str(refused), code=REQUEST_FAILED) from None


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded("document symbols")
def on_symbols(ls: QuestServer, params: types.DocumentSymbolParams):
    return outline.document_symbols(ls.document(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
@guarded("folding ranges")
def on_folding(ls: QuestServer, params: types.FoldingRangeParams):
    return outline.folding_ranges(ls.document(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, tokens.LEGEND)
@guarded("semantic tokens")
def on_semantic_tokens(ls: QuestServer, params: types.SemanticTokensParams):
    return tokens.semantic_tokens(ls.document(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@guarded("formatting")
def on_formatting(ls: QuestServer, params: types.DocumentFormattingParams):
    from questc.api import FormatterError
    from questc.api import format_source
    from questc.server.text import BOM

    document = ls.document(params.text_document.uri)
    text = document.text
    bom = BOM if text.startswith(BOM) else ""
    try:
        formatted = format_source(text[len(bom):], document.file)
    except FormatterError as error:   # the formatter refused to change the quest's meaning: leave it
        ls.window_log_message(types.LogMessageParams(types.MessageType.Warning, f"questc fmt: {error}"))
        return None
    if formatted.output is None or formatted.output == text[len(bom):]:
        return []   # syntax errors (shown as diagnostics) or already formatted
    return [types.TextEdit(document.lines().whole(), bom + formatted.output)]


@server.feature(types.TEXT_DOCUMENT_CODE_ACTION,
                types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, "source.fixAll.questc"]))
@guarded("code actions")
def on_code_action(ls: QuestServer, params: types.CodeActionParams):
    document = ls.document(params.text_document.uri)
    return diagnostics.code_actions(document, params.range, params.context.only) or None


def serve() -> None:
    """Talk LSP over standard input and output until the client says exit."""
    logging.basicConfig(level=logging.WARNING, format="questc server: %(message)s")
    import sys
    # A check runs in the worker thread holding the GIL; the event loop and pygls's stdin
    # reader get it back after the switch interval. At the default 5 ms, each message that
    # arrives during a long check waits that long (a burst of 50 edits took twice as long).
    sys.setswitchinterval(0.0005)
    # Most edits leave the map as it was: keep the boards (and their sight tables) of the
    # last few maps checked, so such an edit skips building the board and casting sight.
    from questc.api import remember_boards
    remember_boards(4)
    server.start_io()
