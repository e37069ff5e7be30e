"""The language server: pygls glue between LSP messages and the features in questc.server.

Checking runs in one worker thread, so requests (hover, completion) are answered
while a large quest is checked; a check of an older version is never published. A
change starts a check at once when none is under way (a client may ask for a pause,
`debounce`); changes that arrive while a check runs are taken together by the next one.
A failure inside any handler is logged to the client (window/logMessage, with the
traceback) and answered as an internal error: the server carries on.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import traceback
from concurrent.futures import ThreadPoolExecutor

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

from questc import __version__
from questc.server import diagnostics, tokens
from questc.server.document import OptionsCache, QuestDocument, check, uri_path

log = logging.getLogger("questc.server")

# No pause before a check by default: a check that starts at once is published sooner, and the
# keystrokes that arrive while it runs are still taken together by the next one.
DEBOUNCE_SECONDS = 0.0
REQUEST_FAILED = -32803  # LSP's RequestFailed: the request was valid but could not be carried out


class QuestProtocol(LanguageServerProtocol):
    """pygls's protocol, with questc's own wire (questc.server.wire) and text synchronisation.

    - Messages come in through `handle_raw`: parameters that do not fit their method's type
      get an Invalid params error (a request) or one log line (a notification), never a
      traceback; a request before `initialize` gets ServerNotInitialized, one after
      `shutdown` InvalidRequest: every request is answered.
    - `exit` ends the server with 0 after `shutdown` and 1 without (LSP), as `serve` returns it.
    - The text of open documents is questc's (QuestDocument, questc.server.text): pygls's own
      didOpen/didChange/didClose handlers are replaced, since its line model breaks lines at
      U+2028, form feeds and NEL and its position clamping rewrote the client's ranges.
    - A leak less: pygls 2.1 files the future of every notification handled by a generator
      among the requests', and only a response takes it out again (2 kB an edit, for ever).
    """

    initialized = False

    def handle_raw(self, data: dict) -> None:
        from questc.server.wire import INVALID_PARAMS, INVALID_REQUEST, BadMessage

        method = data.get("method")
        msg_id = data.get("id") if "id" in data else None
        request = method is not None and "id" in data
        if method is not None and self._shutdown and method != types.EXIT:
            if request:
                self.answer_error(
                    msg_id,
                    INVALID_REQUEST,
                    f"the server is shut down: {method} is refused (only `exit` is accepted now)",
                )
            return
        if request and not self.initialized and method != types.INITIALIZE:
            self.answer_error(msg_id, -32002, f"{method} before `initialize`")  # ServerNotInitialized
            return
        try:
            message = self.structure(data)
        except Exception as error:  # noqa: BLE001 - cattrs says why in many ways: one line for all
            raise BadMessage(
                INVALID_PARAMS,
                f"the parameters of {method or 'a response'} do not fit: {_why(error)}",
                msg_id if request else None,
            ) from None
        self.handle_message(message)

    def structure(self, data: dict):
        """pygls's `structure_message`, without its traceback in the log on a mistake."""
        from pygls.protocol.json_rpc import (
            JsonRPCNotification,
            JsonRPCRequestMessage,
            JsonRPCResponseMessage,
            ResponseErrorMessage,
        )

        converter = self._converter
        if "id" in data:
            if "error" in data:
                return converter.structure(data, ResponseErrorMessage)
            if "method" in data:
                return converter.structure(data, self.get_message_type(data["method"]) or JsonRPCRequestMessage)
            response_type = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
            return converter.structure(data, response_type)
        return converter.structure(data, self.get_message_type(data.get("method", "")) or JsonRPCNotification)

    def answer_error(self, msg_id, code: int, message: str) -> None:
        from pygls.protocol.json_rpc import ResponseErrorMessage

        self._send_data(ResponseErrorMessage(id=msg_id, error=types.ResponseError(code=code, message=message)))

    @lsp_method(types.EXIT)
    def lsp_exit(self, *args) -> None:  # type: ignore[override]  # pygls's is a generator; this needs no yield
        server: QuestServer = self._server  # type: ignore[assignment]  # pygls types it as its base class
        server.stop(0 if self._shutdown else 1)

    @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
    def lsp_text_document__did_open(self, params):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
    def lsp_text_document__did_close(self, params):
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
            yield handler, (params,), None

    def _handle_notification(self, method_name, params):
        before = set(self._request_futures)
        super()._handle_notification(method_name, params)
        for key in set(self._request_futures) - before:
            future = self._request_futures[key]
            if future.done():
                del self._request_futures[key]
            else:

                def forget(_done: object, key: str | int = key) -> None:  # (an LSP message id)
                    self._request_futures.pop(key, None)

                future.add_done_callback(forget)


def _why(error: BaseException) -> str:
    """A structuring error in one line: where in the message, and what was wrong."""
    try:
        from cattrs import transform_error

        lines = transform_error(error, path="message") if hasattr(error, "exceptions") else [str(error)]
    except Exception:  # noqa: BLE001 - the reason is a courtesy; the error answer goes out anyway
        lines = [type(error).__name__]
    text = "; ".join(lines[:3])
    return text[:300]


class QuestServer(LanguageServer):
    """questc's language server."""

    def __init__(self):
        super().__init__(
            "questc",
            __version__,
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=QuestProtocol,
        )
        self.documents: dict[str, QuestDocument] = {}
        self.options = OptionsCache()
        self.debounce = DEBOUNCE_SECONDS
        self.checker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="questc-check")
        self.tasks: dict[str, asyncio.Task] = {}
        self.exit_code: int | None = None  # set by `exit` (0 after `shutdown`, else 1)
        self._stopped: asyncio.Future | None = None
        self._collect_handle: asyncio.TimerHandle | None = None
        self._frozen = False
        self.collected = 0.0  # seconds of garbage collection, while tracing
        self._collect_began: float | None = None
        from questc.server.preview import Previews

        self.previews = Previews(self)
        self.last_uri: str | None = None  # the document the client touched last (the preview's default)
        self.can_show_document = False

    # ---- the wire ----------------------------------------------------------------------
    def start_io(self, stdin=None, stdout=None) -> None:
        """Talk over standard input and output (questc.server.wire reads the frames) until `exit`
        or the end of the input."""
        import sys
        import threading

        from pygls.io_ import StdoutWriter

        from questc.server.wire import serve_frames

        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))

        async def run() -> None:
            self._stopped = asyncio.get_running_loop().create_future()
            await serve_frames(stdin or sys.stdin.buffer, self.protocol, self._stopped, self.log_warning)

        try:
            asyncio.run(run())
        except (BrokenPipeError, ConnectionResetError):  # the client went away: nothing to tell it
            pass
        finally:
            self.shutdown()

    def stop(self, code: int) -> None:
        """End the server with this exit status (the `exit` notification)."""
        self.exit_code = code
        if self._stopped is not None and not self._stopped.done():
            self._stopped.set_result(None)

    def log_warning(self, text: str) -> None:
        log.warning("%s", text)
        try:
            self.window_log_message(types.LogMessageParams(types.MessageType.Warning, text))
        except Exception:  # noqa: BLE001 - a client gone: the log line above is enough
            pass

    # ---- errors ----------------------------------------------------------------------
    def log_error(self, what: str, error: BaseException) -> None:
        trace = "".join(traceback.format_exception(type(error), error, error.__traceback__))
        log.error("%s failed: %s", what, trace)
        try:
            self.window_log_message(
                types.LogMessageParams(types.MessageType.Error, f"questc: {what} failed: {error!r}\n{trace}")
            )
        except Exception:  # noqa: BLE001 - the log itself must not take the server down
            pass

    def report_server_error(self, error, source):
        from pygls.exceptions import FeatureRequestError

        if source is FeatureRequestError:
            return  # a failed request: `guarded` logged it already, the client has the error response
        self.log_error(getattr(source, "__name__", "a message"), error)

    # ---- documents -------------------------------------------------------------------
    @property
    def encoding(self) -> str:
        value = getattr(self.workspace, "position_encoding", None) or "utf-16"
        return str(getattr(value, "value", value))

    def open(self, uri: str, text: str, version: int) -> QuestDocument:
        document = QuestDocument(uri, text, version or 0, self.encoding, changed_at=time.perf_counter())
        self.documents[uri] = document
        self.schedule(document, delay=0.0)
        return document

    def document(self, uri: str) -> QuestDocument:
        document = self.documents.get(uri)
        if document is None:  # asked about a file never opened: read it from disk, within the quest limits
            from questc.api import MAX_QUEST_BYTES, read_input

            path = uri_path(uri)
            text = ""
            if path is not None and path.exists():
                try:
                    text = read_input(path, MAX_QUEST_BYTES).decode("utf-8")
                except (OSError, UnicodeDecodeError) as error:
                    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
                    raise JsonRpcException(f"questc cannot read {path.name}: {reason}", code=REQUEST_FAILED) from None
            document = QuestDocument(uri, text, 0, self.encoding)
        return document

    def schedule(self, document: QuestDocument, delay: float | None = None) -> None:
        """Check the document's newest text soon; one check loop per document at a time."""
        task = self.tasks.get(document.uri)
        if task is not None and not task.done():
            document.again = True  # the running loop checks again (the text, or what it reads, moved on)
            return
        self.tasks[document.uri] = asyncio.ensure_future(
            self._check_loop(document, self.debounce if delay is None else delay)
        )

    async def _check_loop(self, document: QuestDocument, delay: float) -> None:
        loop = asyncio.get_running_loop()
        if delay:
            await asyncio.sleep(delay)
        while not document.closed:
            text, version = document.text, document.version
            document.again = False
            began = time.perf_counter()
            try:
                checked = await loop.run_in_executor(self.checker, check, document, text, version, self.options)
            except Exception as error:  # noqa: BLE001 - a crash in a check must not silence the server
                self.log_error(f"checking {document.uri}", error)
                self._publish_failure(document, version, error)
                return
            if document.closed:
                return
            document.checked = checked
            if checked.result.model is not None:
                document.resolved = checked
            if document.version == version and document.text is text and not document.again:
                checked_at = time.perf_counter()
                self.text_document_publish_diagnostics(
                    types.PublishDiagnosticsParams(
                        uri=document.uri, version=version, diagnostics=diagnostics.published(document, checked)
                    )
                )
                published_at = time.perf_counter()
                self.previews.publish(document, checked)  # the same check, never a second one
                self.collect_when_idle()
                if self.protocol.trace == types.TraceValue.Verbose:
                    self._trace(document, checked, began, checked_at, published_at)
                return
            # Edited meanwhile: check the newest text (every change that came during this check at once).
            await asyncio.sleep(self.debounce)

    def _trace(self, document: QuestDocument, checked, began: float, checked_at: float, published_at: float) -> None:
        """Where a published check's time went, for a client that asked for a verbose trace
        (`$/logTrace`; bench/bench_server.py --trace): milliseconds from the change's arrival."""
        import json

        def ms(seconds: float) -> float:
            return round(seconds * 1000, 2)

        collected = self.collected
        self.collected = 0.0
        details = {
            "version": checked.version,
            "waited": ms(began - document.changed_at),  # for the check before it, or the loop
            "parse": ms(checked.parse_seconds),
            "in_part": checked.parsed_in_part,
            "check": ms(checked.seconds),  # the parse included
            "check_cpu": ms(checked.cpu_seconds),
            "handed_back": ms(checked_at - began - checked.seconds),  # thread to event loop
            "publish": ms(published_at - checked_at),
            "collected": ms(collected),  # garbage collections since the last trace
        }
        self.log_trace(
            types.LogTraceParams(f"questc checked version {checked.version}", json.dumps(details, sort_keys=True))
        )

    def _collecting(self, phase: str, info: dict) -> None:
        """gc.callbacks, while tracing: the time spent collecting."""
        if phase == "start":
            self._collect_began = time.perf_counter()
        elif self._collect_began is not None:
            self.collected += time.perf_counter() - self._collect_began
            self._collect_began = None

    # ---- garbage collection -----------------------------------------------------------------
    # A check of a large map leaves hundreds of thousands of objects alive (the boards kept
    # between edits, their sight tables); Python's collector, run on its own, walked them all
    # every few keystrokes (80-140 ms on the 2,000-cell map, every fourth edit). The server
    # turns the automatic collector off, collects when the writer pauses (IDLE_COLLECT seconds
    # after the last diagnostics; the first time it also freezes what start-up made, never
    # walked again), or during a long burst of typing once many objects have been made.
    IDLE_COLLECT = 1.0
    BURST_COLLECT = 2_000_000  # objects made since the last collection

    def collect_when_idle(self) -> None:
        import gc

        handle = self._collect_handle
        if handle is not None:
            handle.cancel()
        if gc.isenabled():
            return  # (serve() turns it off; a server in a test keeps Python's own)
        if gc.get_count()[0] > self.BURST_COLLECT:
            gc.collect()
            return
        self._collect_handle = asyncio.get_running_loop().call_later(self.IDLE_COLLECT, self._collect)

    def _collect(self) -> None:
        import gc

        self._collect_handle = None
        if any(not task.done() for task in self.tasks.values()):
            self.collect_when_idle()  # a check is running: later
            return
        gc.collect()
        if not self._frozen:
            gc.freeze()
            self._frozen = True

    # ---- the preview ---------------------------------------------------------------------
    def show_source(self, uri: str, span, focus: bool) -> None:
        """The page asked to see a statement: `window/showDocument` with its range selected."""
        from questc.server.preview import show_range

        document = self.documents.get(uri)
        if document is None or not self.can_show_document:
            return
        selection = show_range(document, span)

        async def ask() -> None:
            try:
                await self.window_show_document_async(
                    types.ShowDocumentParams(uri=uri, selection=selection, take_focus=focus)
                )
            except Exception as error:  # noqa: BLE001 - an editor that refuses: nothing more to do
                log.warning("questc: the editor did not show %s: %s", uri, error)

        asyncio.ensure_future(ask())

    def _publish_failure(self, document: QuestDocument, version: int, error: BaseException) -> None:
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(
                uri=document.uri,
                version=version,
                diagnostics=[
                    types.Diagnostic(
                        range=types.Range(types.Position(0, 0), types.Position(0, 0)),
                        severity=types.DiagnosticSeverity.Error,
                        source=diagnostics.SOURCE,
                        message=f"questc could not check this quest (internal error: {type(error).__name__}: {error}); "
                        "the server log has the details",
                    )
                ],
            )
        )


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
            except Exception as error:  # noqa: BLE001 - one failed request must not stop the server
                ls.log_error(what, error)
                if notification:
                    return None
                raise JsonRpcException(
                    f"questc: {what} failed: {type(error).__name__}: {error}", code=REQUEST_FAILED
                ) from None

        return run

    return wrap


# ---- life cycle and text synchronisation ---------------------------------------------


@server.feature(types.INITIALIZE)
def initialize(ls: QuestServer, params: types.InitializeParams) -> None:
    """`initializationOptions`: {"debounce": milliseconds} (a pause before a change is checked; none by default)."""
    ls.protocol.initialized = True  # type: ignore[attr-defined]  # ls.protocol is our QuestProtocol (pygls types the base)
    window = params.capabilities.window if params.capabilities is not None else None
    ls.can_show_document = bool(window and window.show_document and window.show_document.support)
    options = params.initialization_options
    if isinstance(options, dict) and isinstance(options.get("debounce"), (int, float)):
        ls.debounce = max(0.0, float(options["debounce"]) / 1000)
    if params.trace is not None:  # pygls keeps only `$/setTrace`'s
        ls.protocol.trace = params.trace
    if params.trace == types.TraceValue.Verbose:
        import gc

        gc.callbacks.append(ls._collecting)


@server.feature(types.INITIALIZED)
def initialized(ls: QuestServer, params: types.InitializedParams) -> None:
    """Ask the client to tell of changes to the files a check reads besides the quest: content packs
    and configuration (and quests, which other quests' `part_of` may name)."""
    capabilities = ls.client_capabilities
    watched = capabilities.workspace.did_change_watched_files if capabilities and capabilities.workspace else None
    if not (watched and watched.dynamic_registration):
        return
    watchers = [
        types.FileSystemWatcher(glob_pattern=pattern)
        for pattern in ("**/*.yaml", "**/*.yml", "**/questc.toml", "**/pyproject.toml", "**/*.quest")
    ]
    registration = types.Registration(
        id="questc-watched-files",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=types.DidChangeWatchedFilesRegistrationOptions(watchers),
    )

    async def register() -> None:
        try:
            await ls.client_register_capability_async(types.RegistrationParams([registration]))
        except Exception as error:  # noqa: BLE001 - without it, a save of the quest re-checks
            log.warning("questc: the client did not watch packs and configuration: %s", error)

    asyncio.ensure_future(register())


@server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
@guarded("watched files", notification=True)
def did_change_watched_files(ls: QuestServer, params: types.DidChangeWatchedFilesParams) -> None:
    """A pack, a configuration or another quest changed on disk: check every open quest again."""
    for document in list(ls.documents.values()):
        ls.schedule(document, delay=0.0)


@server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
@guarded("configuration", notification=True)
def did_change_configuration(ls: QuestServer, params: types.DidChangeConfigurationParams) -> None:
    for document in list(ls.documents.values()):
        ls.schedule(document, delay=0.0)


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
@guarded("opening a document", notification=True)
def did_open(ls: QuestServer, params: types.DidOpenTextDocumentParams) -> None:
    item = params.text_document
    ls.open(item.uri, item.text, item.version)
    ls.last_uri = item.uri


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
    document.changed_at = time.perf_counter()
    ls.last_uri = uri
    ls.schedule(document)


@server.feature(types.TEXT_DOCUMENT_DID_SAVE)
@guarded("saving a document", notification=True)
def did_save(ls: QuestServer, params: types.DidSaveTextDocumentParams) -> None:
    document = ls.documents.get(params.text_document.uri)
    if document is not None:
        ls.schedule(document, delay=0.0)  # configuration or packs may have changed on disk


@server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
@guarded("closing a document", notification=True)
def did_close(ls: QuestServer, params: types.DidCloseTextDocumentParams) -> None:
    document = ls.documents.pop(params.text_document.uri, None)
    if document is not None:
        document.closed = True
    task = ls.tasks.pop(params.text_document.uri, None)
    if task is not None:
        task.cancel()
    ls.previews.close(params.text_document.uri)
    ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[]))


# ---- features ------------------------------------------------------------------------


@server.feature(types.TEXT_DOCUMENT_HOVER)
@guarded("hover")
def on_hover(ls: QuestServer, params: types.HoverParams) -> types.Hover | None:
    from questc.server import hover

    document = ls.document(params.text_document.uri)
    _cursor_moved(ls, document, params.position)
    line, column = document.lines().cursor(params.position)
    text = hover.hover_markdown(document, line, column)
    if text is None:
        return None
    return types.Hover(contents=types.MarkupContent(types.MarkupKind.Markdown, text))


def _cursor_moved(ls: QuestServer, document: QuestDocument, position: types.Position) -> None:
    """Editors ask for hover and highlights where the cursor is: the preview follows it."""
    if document.uri in ls.documents:
        ls.last_uri = document.uri
        ls.previews.cursor(document, document.lines().offset(position))


@server.feature(
    types.TEXT_DOCUMENT_SIGNATURE_HELP, types.SignatureHelpOptions(trigger_characters=[" "], retrigger_characters=[","])
)
@guarded("signature help")
def on_signature_help(ls: QuestServer, params: types.SignatureHelpParams):
    from questc.server.signature import signature_help

    return signature_help(ls.document(params.text_document.uri), params.position)


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_HIGHLIGHT)
@guarded("document highlight")
def on_highlight(ls: QuestServer, params: types.DocumentHighlightParams):
    from questc.server import navigation

    document = ls.document(params.text_document.uri)
    _cursor_moved(ls, document, params.position)
    return navigation.highlights(document, params.position) or None


@server.command("questc.preview")
def on_preview(ls: QuestServer, *arguments) -> dict:
    """Open the preview of a document (its URI, else the one touched last): its address out, and
    the page opened in the browser where the client can (`window/showDocument`, external)."""
    first = arguments[0] if arguments else None
    if isinstance(first, dict):  # {"uri": ...}, as some clients pass a document
        first = first.get("uri")
    uri = (first if isinstance(first, str) else None) or ls.last_uri
    document = ls.documents.get(uri) if uri else None
    if document is None:
        raise JsonRpcException("questc.preview: open a quest first (or pass its URI)", code=REQUEST_FAILED)
    try:
        url = ls.previews.open(document)
    except (RuntimeError, OSError) as error:
        raise JsonRpcException(f"questc.preview: {error}", code=REQUEST_FAILED) from None
    if ls.can_show_document:

        async def open_page() -> None:
            try:
                await ls.window_show_document_async(types.ShowDocumentParams(uri=url, external=True))
            except Exception as error:  # noqa: BLE001 - the address is in the answer anyway
                log.warning("questc: the editor did not open %s: %s", url, error)

        asyncio.ensure_future(open_page())
    ls.window_log_message(types.LogMessageParams(types.MessageType.Info, f"questc preview of {uri}: {url}"))
    return {"url": url, "uri": uri}


@server.feature(types.SHUTDOWN)
def on_shutdown(ls: QuestServer, params) -> None:
    ls.previews.close()


@server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ",", '"']))
@guarded("completion")
def on_completion(ls: QuestServer, params: types.CompletionParams) -> types.CompletionList:
    from questc.server import completion

    document = ls.document(params.text_document.uri)
    return types.CompletionList(is_incomplete=False, items=completion.complete(document, params.position))


@server.feature(types.TEXT_DOCUMENT_DEFINITION)
@guarded("go to definition")
def on_definition(ls: QuestServer, params: types.DefinitionParams):
    from questc.server import navigation

    return navigation.definition(ls.document(params.text_document.uri), params.position) or None


@server.feature(types.TEXT_DOCUMENT_REFERENCES)
@guarded("find references")
def on_references(ls: QuestServer, params: types.ReferenceParams):
    from questc.server import navigation

    return (
        navigation.references(
            ls.document(params.text_document.uri), params.position, params.context.include_declaration
        )
        or None
    )


@server.feature(types.TEXT_DOCUMENT_PREPARE_RENAME)
@guarded("prepare rename")
def on_prepare_rename(ls: QuestServer, params: types.PrepareRenameParams):
    from questc.server import navigation

    return navigation.prepare_rename(ls.document(params.text_document.uri), params.position)


@server.feature(types.TEXT_DOCUMENT_RENAME)
@guarded("rename")
def on_rename(ls: QuestServer, params: types.RenameParams):
    from questc.server import navigation

    try:
        return navigation.rename(ls.document(params.text_document.uri), params.position, params.new_name)
    except navigation.RenameRefused as refused:
        raise JsonRpcException(str(refused), code=REQUEST_FAILED) from None


@server.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
@guarded("document symbols")
def on_symbols(ls: QuestServer, params: types.DocumentSymbolParams):
    from questc.server import outline

    return outline.document_symbols(ls.document(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)
@guarded("folding ranges")
def on_folding(ls: QuestServer, params: types.FoldingRangeParams):
    from questc.server import outline

    return outline.folding_ranges(ls.document(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, tokens.LEGEND)
@guarded("semantic tokens")
def on_semantic_tokens(ls: QuestServer, params: types.SemanticTokensParams):
    return tokens.semantic_tokens(ls.document(params.text_document.uri))


@server.feature(types.TEXT_DOCUMENT_FORMATTING)
@guarded("formatting")
def on_formatting(ls: QuestServer, params: types.DocumentFormattingParams):
    from questc.api import FormatterError, format_source
    from questc.server.text import BOM

    document = ls.document(params.text_document.uri)
    text = document.text
    bom = BOM if text.startswith(BOM) else ""
    try:
        formatted = format_source(text[len(bom) :], document.file)
    except FormatterError as error:  # the formatter refused to change the quest's meaning: say why
        raise JsonRpcException(f"questc fmt: {error}", code=REQUEST_FAILED) from None
    if formatted.output is None:
        errors = formatted.diagnostics
        where = f" (line {errors[0].span.line}: {errors[0].message})" if errors else ""
        raise JsonRpcException(
            f"questc fmt: the quest has syntax errors{where}; fix them to format it", code=REQUEST_FAILED
        )
    if formatted.output == text[len(bom) :]:
        return []  # already formatted
    return [types.TextEdit(document.lines().whole(), bom + formatted.output)]


@server.feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, "source.fixAll.questc"]),
)
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
    # pygls logs a traceback for every error it answers (a rename refused, parameters that do
    # not fit): the writer's bad input is answered, never logged as a fault. questc's own
    # faults are logged by `guarded`, with their tracebacks.
    logging.getLogger("pygls").setLevel(logging.CRITICAL)
    # The server collects when the writer pauses (collect_when_idle); the first time, it also
    # freezes what start-up and the first check made (the parser, the catalog, the modules),
    # which live as long as the server: the collector never walks them again.
    import gc

    gc.disable()
    server.start_io()
    code = server.exit_code
    if code is None:  # the input ended without `exit`
        code = 0 if server.protocol._shutdown else 1
    sys.exit(code)
