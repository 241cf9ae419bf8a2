"""The language server: the message loop, open documents, diagnostics and code actions.

One thread reads frames from stdin into a queue; the main thread handles messages in order.
Diagnostics are pushed only when the queue is empty, so a burst of keystrokes is linted once,
at its newest version (an older version's result is never computed, let alone sent). A
client that can pull diagnostics (``textDocument/diagnostic``) is never pushed to: showing
both channels doubles every finding.
"""

from __future__ import annotations

import contextlib
import os
import queue
import sys
import threading
import traceback
from collections.abc import Callable
from typing import Any, BinaryIO
from urllib.parse import unquote, urlparse
from urllib.request import url2pathname

from dnlint.lsp import rpc
from dnlint.lsp.text import ENCODINGS, UTF16, TextDocument

Handler = Callable[[Any], Any]
_NO_RESULT: Any = object()  # a handler's answer to a notification
FIX_ALL_KIND = "source.fixAll.dnlint"
QUICKFIX = "quickfix"
PARENT_POLL_SECONDS = 10.0


def uri_to_path(uri: str) -> str | None:
    """The local path of a ``file:`` URI; None for any other scheme (``untitled:``)."""
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return None
    path = url2pathname(unquote(parsed.path))
    if parsed.netloc and parsed.netloc != "localhost":
        path = f"//{parsed.netloc}{path}"
    return path


def path_to_uri(path: str) -> str:
    from pathlib import Path

    return Path(os.path.abspath(path)).as_uri()


class OpenDocument:
    """An open document and its newest analysis (for one version and configuration)."""

    def __init__(self, text: TextDocument, path: str, display: str) -> None:
        self.text = text
        self.path = path  # where its configuration is looked for
        self.display = display  # the path its findings carry
        self.analysis: Any = None
        self.analysed: tuple[int | None, int, int] | None = None  # (version, generation, id)


class Server:
    def __init__(self, writer: rpc.Writer) -> None:
        from dnlint.lsp.pipeline import Settings
        from dnlint.settings.config import ConfigFinder

        self.writer = writer
        self.encoding = UTF16
        self.pull = False  # the client pulls diagnostics: never push
        self.refresh = False  # the client takes workspace/diagnostic/refresh
        self.document_changes = False  # the client takes versioned workspace edits
        self.watch_dynamic = False
        self.roots: list[str] = []
        self.documents: dict[str, OpenDocument] = {}
        self.finder = ConfigFinder()
        self.settings = Settings()
        self.fix_all = True
        self.disable_comment = True
        self.generation = 0  # bumped when a configuration or setting changes
        self.initialized = False
        self.shutdown_requested = False
        self.exit_code: int | None = None
        self.parent_pid: int | None = None
        self.dirty: set[str] = set()
        self.inbox: queue.Queue[Any] | None = None
        self._next_id = 0
        self._reported_config: set[str] = set()
        self.requests: dict[str, Handler] = {
            "initialize": self.initialize,
            "shutdown": self.shutdown,
            "textDocument/diagnostic": self.pull_diagnostics,
            "textDocument/codeAction": self.code_actions,
            "textDocument/hover": self.feature("hover"),
            "textDocument/inlayHint": self.feature("inlay_hints"),
            "textDocument/documentSymbol": self.feature("symbols"),
            "textDocument/definition": self.feature("definition"),
            "textDocument/foldingRange": self.feature("folding"),
            "textDocument/completion": self.feature("completion"),
        }
        self.notifications: dict[str, Handler] = {
            "initialized": self.on_initialized,
            "exit": self.on_exit,
            "textDocument/didOpen": self.did_open,
            "textDocument/didChange": self.did_change,
            "textDocument/didClose": self.did_close,
            "textDocument/didSave": self.did_save,
            "workspace/didChangeWatchedFiles": self.did_change_watched_files,
            "workspace/didChangeConfiguration": self.did_change_configuration,
            "workspace/didChangeWorkspaceFolders": self.did_change_folders,
        }

    # --- the loop -------------------------------------------------------------------------
    def serve(self, inbox: queue.Queue[Any]) -> int:
        """Handle messages until exit or the end of input; the process's exit status."""
        self.inbox = inbox
        while self.exit_code is None:
            try:
                message = inbox.get(timeout=PARENT_POLL_SECONDS)
            except queue.Empty:
                if self.parent_gone():
                    return 1
                continue
            if message is None:  # stdin closed: the client is gone
                return 0 if self.shutdown_requested else 1
            if isinstance(message, rpc.FramingError):  # nothing later can be read in step
                # said on stderr, which clients log (the protocol allows no notification
                # before initialize, and this can come first)
                return _say(f"dnlint-lsp: {message}: the connection is closed\n", 1)
            try:
                self.handle(message)
                if inbox.empty():
                    self.publish_dirty()
            except OSError:
                raise  # stdout is gone: nobody is listening
            except Exception:  # a bug: said in the client's log, and the loop goes on
                self.log(f"dnlint-lsp failed: {traceback.format_exc()}")
        return self.exit_code

    def parent_gone(self) -> bool:
        pid = self.parent_pid
        if pid is None or pid <= 0:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except (OSError, OverflowError):
            return False
        return False

    def handle(self, message: Any) -> None:
        if not isinstance(message, dict):
            self.writer.send(rpc.error(None, rpc.INVALID_REQUEST, "not a JSON-RPC message"))
            return
        if "__parse_error__" in message:
            self.writer.send(rpc.error(None, rpc.PARSE_ERROR, str(message["__parse_error__"])))
            return
        method = message.get("method")
        if not isinstance(method, str):
            return  # a response to one of our requests (registerCapability, refresh)
        params = message.get("params")
        if "id" in message:
            if not rpc.valid_id(message["id"]):  # not an id a response could carry back
                self.writer.send(rpc.error(None, rpc.INVALID_REQUEST,
                                           "a request id must be a string or an integer "
                                           f"within {rpc.INTEGER_MIN}..{rpc.INTEGER_MAX}"))
                return
            self.answer(message["id"], method, params)
        else:
            self.notify(method, params)

    def answer(self, request_id: Any, method: str, params: Any) -> None:
        if not self.initialized and method != "initialize":
            self.writer.send(rpc.error(request_id, rpc.SERVER_NOT_INITIALIZED,
                                       "the server is not initialized"))
            return
        if self.shutdown_requested and method != "shutdown":
            self.writer.send(rpc.error(request_id, rpc.INVALID_REQUEST, "the server shut down"))
            return
        handler = self.requests.get(method)
        if handler is None:
            self.writer.send(rpc.error(request_id, rpc.METHOD_NOT_FOUND,
                                       f"unsupported method {method}"))
            return
        try:
            result = handler(params if params is not None else {})
        except Exception as exc:  # a bug answers this request with an error, nothing more
            self.log(f"{method} failed: {traceback.format_exc()}")
            self.writer.send(rpc.error(request_id, rpc.INTERNAL_ERROR,
                                       f"{type(exc).__name__}: {exc}"))
            return
        self.writer.send(rpc.response(request_id, result))

    def notify(self, method: str, params: Any) -> None:
        handler = self.notifications.get(method)
        if handler is None:
            return  # $/cancelRequest, $/setTrace, ...: nothing to do
        if not self.initialized and method != "exit":
            return
        try:
            handler(params if params is not None else {})
        except Exception:
            self.log(f"{method} failed: {traceback.format_exc()}")

    def log(self, message: str, kind: int = 4) -> None:
        """To the client's log (never a pop-up: that would be spam on every keystroke)."""
        self.writer.send(rpc.notification("window/logMessage", {"type": kind,
                                                                "message": message}))

    def send_request(self, method: str, params: Any) -> None:
        self._next_id += 1
        self.writer.send(rpc.request(f"dnlint-{self._next_id}", method, params))

    # --- lifecycle ------------------------------------------------------------------------
    def initialize(self, params: Any) -> Any:
        from dnlint import __version__

        params = params if isinstance(params, dict) else {}
        capabilities = _dict(params.get("capabilities"))
        general = _dict(capabilities.get("general"))
        offered = general.get("positionEncodings")
        if isinstance(offered, list):
            self.encoding = next((e for e in offered if e in ENCODINGS), UTF16)
        text_caps = _dict(capabilities.get("textDocument"))
        self.pull = "diagnostic" in text_caps and isinstance(text_caps["diagnostic"], dict)
        workspace = _dict(capabilities.get("workspace"))
        # a capability is a JSON true, nothing else that Python finds true (1, "no", {})
        self.refresh = _dict(workspace.get("diagnostics")).get("refreshSupport") is True
        self.document_changes = _dict(workspace.get("workspaceEdit")).get(
            "documentChanges") is True
        self.watch_dynamic = _dict(workspace.get("didChangeWatchedFiles")).get(
            "dynamicRegistration") is True
        self.parent_pid = rpc.integer(params.get("processId"), 1)
        self.roots = _roots(params)
        self.apply_settings(params.get("initializationOptions"))
        self.initialized = True
        result: dict[str, Any] = {
            "capabilities": {
                "positionEncoding": self.encoding,
                "textDocumentSync": {"openClose": True, "change": 2,
                                     "save": {"includeText": False}},
                "codeActionProvider": {"codeActionKinds": [QUICKFIX, FIX_ALL_KIND],
                                       "resolveProvider": False},
                "hoverProvider": True,
                "inlayHintProvider": True,
                "documentSymbolProvider": True,
                "definitionProvider": True,
                "foldingRangeProvider": True,
                "completionProvider": {"triggerCharacters": ["[", "="],
                                       "resolveProvider": False},
                "workspace": {"workspaceFolders": {"supported": True,
                                                   "changeNotifications": True}},
            },
            "serverInfo": {"name": "dnlint-lsp", "version": __version__},
        }
        if self.pull:
            result["capabilities"]["diagnosticProvider"] = {
                "identifier": "dnlint", "interFileDependencies": False,
                "workspaceDiagnostics": False}
        return result

    def on_initialized(self, params: Any) -> None:
        if self.watch_dynamic:
            from dnlint.lsp.pipeline import config_names

            self.send_request("client/registerCapability", {"registrations": [{
                "id": "dnlint-config-files",
                "method": "workspace/didChangeWatchedFiles",
                "registerOptions": {"watchers": [{"globPattern": f"**/{name}"}
                                                 for name in config_names()]},
            }]})

    def shutdown(self, params: Any) -> Any:
        self.shutdown_requested = True
        return None

    def on_exit(self, params: Any) -> None:
        self.exit_code = 0 if self.shutdown_requested else 1

    # --- settings and configuration ---------------------------------------------------------
    def apply_settings(self, options: Any) -> None:
        """``initializationOptions`` or ``settings.dnlint``: dialect, select, extendSelect,
        ignore, target, gpuMemory, fixAll, disableRuleComment (the first six as the flags of
        the same names; gpuMemory "auto" asks nvidia-smi once per settings, at the first lint
        that needs it). A bad value, or no card for "auto", is logged as a warning."""
        from dnlint.dialects import parse_dialect
        from dnlint.lsp.pipeline import Settings, card_of_machine, say_wrong_types
        from dnlint.settings.config import ConfigError, gpu_memory_size, selectors
        from dnlint.settings.policy import Policy

        options = _dict(options)
        if isinstance(options.get("dnlint"), dict):
            options = options["dnlint"]
        say_wrong_types(options, lambda message: self.log(message, 2))
        dialect, dialect_chosen = None, False
        if isinstance(options.get("dialect"), str):
            try:
                dialect, dialect_chosen = parse_dialect(options["dialect"]), True
            except ValueError as exc:
                self.log(f"settings: {exc}", 2)
        lists: dict[str, tuple[str, ...] | None] = {}
        for key in ("select", "extendSelect", "ignore"):
            value = options.get(key)
            if value is None:
                lists[key] = None
                continue
            try:
                lists[key] = selectors(value, "settings", key)
            except ConfigError as exc:
                self.log(str(exc), 2)
                lists[key] = None
        policy = Policy(select=lists["select"], extend_select=lists["extendSelect"] or (),
                        ignore=lists["ignore"] or ())
        targets: tuple[str, ...] = ()
        if options.get("target") is not None:
            from dnlint.targets import parse_targets

            try:
                targets = parse_targets(options["target"], "settings")
            except ValueError as exc:
                self.log(str(exc), 2)
        gpu_memory = None
        if options.get("gpuMemory") is not None:
            try:
                gpu_memory = gpu_memory_size(options["gpuMemory"], "settings")
            except ConfigError as exc:
                self.log(str(exc), 2)
        card = card_of_machine(lambda message: self.log(message, 2), gpu_memory == "auto")
        self.settings = Settings(dialect, policy, targets, gpu_memory,
                                 dialect_chosen=dialect_chosen, machine_card=card)
        self.fix_all = options.get("fixAll", True) is not False
        self.disable_comment = options.get("disableRuleComment", True) is not False

    def did_change_configuration(self, params: Any) -> None:
        settings = _dict(params).get("settings")
        # only a payload that names dnlint: an empty one (sent by clients with no settings
        # for it) must not undo the initializationOptions
        if isinstance(settings, dict) and isinstance(settings.get("dnlint"), dict):
            self.apply_settings(settings)
            self.configuration_changed()

    def did_change_watched_files(self, params: Any) -> None:
        from dnlint.lsp.pipeline import is_config_file

        changes = _dict(params).get("changes")
        for change in changes if isinstance(changes, list) else []:
            path = uri_to_path(str(_dict(change).get("uri", "")))
            if path is not None and is_config_file(path):
                self.configuration_changed()
                return

    def did_change_folders(self, params: Any) -> None:
        event = _dict(_dict(params).get("event"))
        removed = {uri_to_path(str(_dict(f).get("uri", ""))) for f in
                   event.get("removed", []) if isinstance(f, dict)}
        added = [uri_to_path(str(_dict(f).get("uri", ""))) for f in
                 event.get("added", []) if isinstance(f, dict)]
        self.roots = [r for r in self.roots if r not in removed] + [a for a in added if a]

    def configuration_changed(self) -> None:
        """A configuration file or a setting changed: forget what was found, lint again."""
        from dnlint.settings.config import ConfigFinder

        self.finder = ConfigFinder()
        self.generation += 1
        self._reported_config.clear()
        if self.pull:
            if self.refresh:
                self.send_request("workspace/diagnostic/refresh", None)
        else:
            self.dirty.update(self.documents)

    # --- documents --------------------------------------------------------------------------
    def did_open(self, params: Any) -> None:
        item = _dict(_dict(params).get("textDocument"))
        uri, text = item.get("uri"), item.get("text")
        if not isinstance(uri, str) or not isinstance(text, str):
            return
        version = item.get("version")
        path, display = self.locate(uri)
        document = TextDocument(uri, text, rpc.integer(version),
                                str(item.get("languageId", "")))
        self.documents[uri] = OpenDocument(document, path, display)
        self.dirty.add(uri)
        if not self.watch_dynamic:
            from dnlint.settings.config import ConfigFinder

            self.finder = ConfigFinder()  # no watcher: a file opened sees the files as they are

    def did_change(self, params: Any) -> None:
        params = _dict(params)
        identifier = _dict(params.get("textDocument"))
        opened = self.documents.get(str(identifier.get("uri")))
        if opened is None:
            return
        changes = params.get("contentChanges")
        opened.text.apply_changes(changes if isinstance(changes, list) else [], self.encoding)
        version = identifier.get("version")
        opened.text.version = rpc.integer(version)
        self.dirty.add(opened.text.uri)

    def did_close(self, params: Any) -> None:
        uri = str(_dict(_dict(params).get("textDocument")).get("uri"))
        if self.documents.pop(uri, None) is None:
            return
        self.dirty.discard(uri)
        if not self.pull:
            self.writer.send(rpc.notification("textDocument/publishDiagnostics",
                                              {"uri": uri, "diagnostics": []}))

    def did_save(self, params: Any) -> None:
        from dnlint.lsp.pipeline import is_config_file

        uri = str(_dict(_dict(params).get("textDocument")).get("uri"))
        path = uri_to_path(uri)
        # a client that cannot watch the configuration files: any save may follow an edit of
        # one made elsewhere, so it is read again
        if (path is not None and is_config_file(path)) or not self.watch_dynamic:
            self.configuration_changed()

    def locate(self, uri: str) -> tuple[str, str]:
        """Where a document's configuration is looked for, and the path its findings carry:
        its own path; for an unsaved buffer (``untitled:``), a name in the first workspace
        folder (its configuration is the folder's)."""
        path = uri_to_path(uri)
        if path is not None:
            return path, path
        name = os.path.basename(urlparse(uri).path) or "untitled.cfg"
        folder = self.roots[0] if self.roots else os.getcwd()
        return os.path.join(folder, name), name

    # --- analysis and diagnostics ---------------------------------------------------------
    def analysis(self, uri: str) -> Any:
        """The analysis of the document's current text (None when it is not open)."""
        from dnlint.lsp.analysis import Analysis

        opened = self.documents.get(uri)
        if opened is None:
            return None
        key = (opened.text.version, self.generation, id(opened.text.text))
        if opened.analysed != key or opened.analysis is None:
            opened.analysis = Analysis.of(opened, self.finder, self.settings, self.encoding)
            opened.analysed = key
            problem = opened.analysis.linted.config_problem
            if problem and problem not in self._reported_config:
                self._reported_config.add(problem)
                self.writer.send(rpc.notification("window/showMessage", {
                    "type": 2, "message": f"dnlint: configuration not used: {problem}"}))
        return opened.analysis

    def publish_dirty(self) -> None:
        dirty, self.dirty = self.dirty, set()
        if self.pull:
            return
        for uri in sorted(dirty):
            found = self.analysis(uri)
            if found is None:
                continue
            try:
                items = found.diagnostics()
            except Exception:
                self.log(f"diagnostics failed: {traceback.format_exc()}")
                continue
            if self.superseded(uri):
                self.dirty.add(uri)  # a newer version is waiting: this result is dropped
                continue
            message: dict[str, Any] = {"uri": uri, "diagnostics": items}
            if found.version is not None:
                message["version"] = found.version
            self.writer.send(rpc.notification("textDocument/publishDiagnostics", message))

    def superseded(self, uri: str) -> bool:
        """Whether a change or close of ``uri`` arrived while it was linted (a look at the
        messages waiting, without taking them)."""
        inbox = self.inbox
        if inbox is None:
            return False
        with inbox.mutex:
            waiting = list(inbox.queue)
        for message in waiting:
            if isinstance(message, dict) and message.get("method") in (
                    "textDocument/didChange", "textDocument/didClose"):
                document = _dict(_dict(message.get("params")).get("textDocument"))
                if document.get("uri") == uri:
                    return True
        return False

    def pull_diagnostics(self, params: Any) -> Any:
        uri = str(_dict(_dict(params).get("textDocument")).get("uri"))
        found = self.analysis(uri)
        if found is None:
            return {"kind": "full", "items": []}
        result_id = f"{self.generation}:{found.version}:{id(found)}"
        if _dict(params).get("previousResultId") == result_id:
            return {"kind": "unchanged", "resultId": result_id}
        return {"kind": "full", "resultId": result_id, "items": found.diagnostics()}

    # --- code actions ---------------------------------------------------------------------
    def code_actions(self, params: Any) -> Any:
        from dnlint.lsp.actions import code_actions

        params = _dict(params)
        uri = str(_dict(params.get("textDocument")).get("uri"))
        found = self.analysis(uri)
        if found is None:
            return []
        return code_actions(self, found, params)

    def feature(self, name: str) -> Handler:
        def run(params: Any) -> Any:
            from dnlint.lsp import features

            params = _dict(params)
            uri = str(_dict(params.get("textDocument")).get("uri"))
            found = self.analysis(uri)
            if found is None:
                return None
            function: Callable[[Any, dict[str, Any]], Any] = getattr(features, name)
            return function(found, params)

        return run


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _roots(params: dict[str, Any]) -> list[str]:
    roots: list[str] = []
    folders = params.get("workspaceFolders")
    for folder in folders if isinstance(folders, list) else []:
        path = uri_to_path(str(_dict(folder).get("uri", "")))
        if path:
            roots.append(path)
    if not roots and isinstance(params.get("rootUri"), str):
        path = uri_to_path(params["rootUri"])
        if path:
            roots.append(path)
    if not roots and isinstance(params.get("rootPath"), str):
        roots.append(params["rootPath"])
    return roots


USAGE = """usage: dnlint-lsp [--stdio]

dnlint's language server: speaks the Language Server Protocol over standard input and output
(the default; --stdio, which editors add, says the same). See docs/editors.md.
"""


def _say(text: str, status: int) -> int:
    """``text`` on standard error (the server's own output is the protocol's), when it is
    open and writable; ``status`` either way."""
    if sys.stderr is not None:
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write(text)
            sys.stderr.flush()
    return status


def run_stdio(argv: list[str] | None = None, stdin: BinaryIO | None = None,
              stdout: BinaryIO | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    for arg in args:
        if arg in ("-h", "--help"):
            return _say(USAGE, 0)
        if arg in ("-V", "--version"):
            from dnlint import __version__

            return _say(f"dnlint-lsp {__version__}\n", 0)
        if arg != "--stdio":
            return _say(f"dnlint-lsp: unknown argument {arg!r}\n{USAGE}", 2)
    # closed when the server started (``<&-``, ``>&-``: Python has None for it)
    if stdin is None and sys.stdin is None:
        return _say("dnlint-lsp: cannot read standard input: it is closed\n", 2)
    if stdout is None and sys.stdout is None:
        return _say("dnlint-lsp: cannot write to standard output: it is closed\n", 2)
    source = stdin if stdin is not None else sys.stdin.buffer
    sink = stdout if stdout is not None else sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print() must not corrupt the protocol stream
    writer = rpc.Writer(sink)
    inbox: queue.Queue[Any] = queue.Queue()

    def read() -> None:
        try:
            while True:
                message = rpc.read_message(source)
                inbox.put(message)
                if message is None:
                    return
        except rpc.FramingError as exc:
            inbox.put(exc)  # said to the client, then the end of the session
        except (OSError, ValueError, MemoryError):
            inbox.put(None)  # the stream cannot be trusted past this point: stop

    threading.Thread(target=read, name="dnlint-lsp-reader", daemon=True).start()
    try:
        return Server(writer).serve(inbox)
    except (BrokenPipeError, OSError):
        return 1  # the client closed our stdout: nobody is listening
