"""A small LSP client for the tests: runs ``python -m dnlint.lsp --stdio`` as an editor does
and speaks to it in frames written here (not with the server's own framing code)."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

TIMEOUT = 30.0

PUSH_CAPABILITIES: dict[str, Any] = {
    "textDocument": {"publishDiagnostics": {"versionSupport": True, "relatedInformation": True},
                     "codeAction": {"codeActionLiteralSupport": {}}},
    "workspace": {"workspaceEdit": {"documentChanges": True}},
}
PULL_CAPABILITIES: dict[str, Any] = {
    "textDocument": {"diagnostic": {"dynamicRegistration": False},
                     "publishDiagnostics": {"versionSupport": True}},
    "workspace": {"diagnostics": {"refreshSupport": True},
                  "didChangeWatchedFiles": {"dynamicRegistration": True}},
}


def server_command() -> list[str]:
    return [sys.executable, "-m", "dnlint.lsp", "--stdio"]


class Client:
    def __init__(self, cwd: Path | None = None) -> None:
        # the copy of dnlint the suite runs (PYTHONPATH's, or the installed one): the
        # environment is inherited, as for the CLI's tests
        self.process = subprocess.Popen(server_command(), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                        cwd=cwd)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.notifications: list[dict[str, Any]] = []
        self.server_requests: list[dict[str, Any]] = []
        self.responses: dict[Any, dict[str, Any]] = {}
        self._next = 0
        threading.Thread(target=self._read, daemon=True).start()

    # --- frames ----------------------------------------------------------------------------
    def _read(self) -> None:
        stream = self.process.stdout
        assert stream is not None
        while True:
            headers = {}
            while True:
                line = stream.readline()
                if not line:
                    self.messages.put(None)
                    return
                if line == b"\r\n":
                    break
                name, _, value = line.decode("ascii").partition(":")
                headers[name.strip().lower()] = value.strip()
            body = stream.read(int(headers["content-length"]))
            self.messages.put(json.loads(body))

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode("utf-8")
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.process.stdin.flush()

    def _pump(self, deadline: float) -> dict[str, Any] | None:
        message = self.messages.get(timeout=max(deadline - time.monotonic(), 0.01))
        if message is None:
            raise EOFError("the server closed its output")
        if "method" in message and "id" in message:
            self.server_requests.append(message)
            self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})
        elif "method" in message:
            self.notifications.append(message)
        else:
            self.responses[message.get("id")] = message
        return message

    # --- requests and notifications ------------------------------------------------------
    def request_raw(self, method: str, params: Any = None) -> dict[str, Any]:
        self._next += 1
        request_id = self._next
        self.send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
        deadline = time.monotonic() + TIMEOUT
        while request_id not in self.responses:
            self._pump(deadline)
        return self.responses.pop(request_id)

    def request(self, method: str, params: Any = None) -> Any:
        answer = self.request_raw(method, params)
        assert "error" not in answer, answer
        return answer["result"]

    def notify(self, method: str, params: Any = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, method: str, match: Any = None, timeout: float = TIMEOUT,
                 ) -> dict[str, Any]:
        """The first notification of ``method`` (for which ``match(params)`` holds) not yet
        taken; it is taken."""
        deadline = time.monotonic() + timeout
        while True:
            for index, message in enumerate(self.notifications):
                if message["method"] == method and (match is None or match(message["params"])):
                    return self.notifications.pop(index)["params"]  # type: ignore[no-any-return]
            self._pump(deadline)

    def drain(self, seconds: float) -> None:
        """Read whatever arrives for ``seconds``."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self._pump(deadline)
            except queue.Empty:
                return

    # --- the usual conversation ------------------------------------------------------------
    def initialize(self, capabilities: dict[str, Any] | None = None, root: Path | None = None,
                   options: Any = None, encodings: list[str] | None = None) -> dict[str, Any]:
        caps = dict(PUSH_CAPABILITIES if capabilities is None else capabilities)
        if encodings is not None:
            caps["general"] = {"positionEncodings": encodings}
        params: dict[str, Any] = {"processId": os.getpid(), "capabilities": caps,
                                  "rootUri": root.as_uri() if root else None}
        if root is not None:
            params["workspaceFolders"] = [{"uri": root.as_uri(), "name": root.name}]
        if options is not None:
            params["initializationOptions"] = options
        result = self.request("initialize", params)
        self.notify("initialized", {})
        return result  # type: ignore[no-any-return]

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {
            "uri": uri, "languageId": "darknet", "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version},
                                               "contentChanges": changes})

    def published(self, uri: str, version: int | None = None) -> dict[str, Any]:
        return self.wait_for("textDocument/publishDiagnostics",
                             lambda p: p["uri"] == uri
                             and (version is None or p.get("version") == version))

    def close(self) -> int:
        """shutdown + exit; the server's exit status."""
        if self.process.poll() is None:
            try:
                self.request("shutdown")
                self.notify("exit")
            except (EOFError, BrokenPipeError, queue.Empty):
                pass
        try:
            return self.process.wait(timeout=TIMEOUT)
        finally:
            for stream in (self.process.stdin, self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


# a small detector both LSP test files open: DN401 on line 21 (LSP line 20)
YOLO_HEAD = """\
[net]
width=64
height=64
channels=3

[convolutional]
filters=16
size=3
stride=1
pad=1
activation=leaky

[convolutional]
filters=20
size=1
activation=linear

[yolo]
mask=0,1,2
anchors=10,13, 16,30, 33,23
classes=1
num=3
"""
