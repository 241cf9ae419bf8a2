"""One version of one document, linted: its findings in LSP terms and the look-ups the editor
features share (the section and layer at a line, the layer a reference resolves to)."""

from __future__ import annotations

from bisect import bisect_right
from typing import TYPE_CHECKING, Any, Protocol

from dnlint.diagnostics import Diagnostic
from dnlint.lsp.convert import ByteMap, to_lsp
from dnlint.lsp.pipeline import Linted, Settings, lint_text
from dnlint.lsp.text import TextDocument

if TYPE_CHECKING:
    from dnlint.network.layers.base import Layer
    from dnlint.read.darknet_reader import Section
    from dnlint.settings.config import ConfigFinder

class OpenDocument(Protocol):
    """What an analysis reads of an open document (:class:`dnlint.lsp.server.OpenDocument`;
    a protocol, so that this module does not import the server, which imports it)."""

    text: TextDocument
    path: str  # where its configuration is looked for
    display: str  # the path its findings carry


# where a finding is reported on one line but fixed on another: the note of the line to edit
_FIXED_ELSEWHERE = "change this line"


class Analysis:
    def __init__(self, doc: TextDocument, linted: Linted, encoding: str, path: str,
                 display: str, settings: Settings) -> None:
        self.doc = doc
        self.linted = linted
        self.encoding = encoding
        self.path = path  # where its configuration is found
        self.display = display  # the path its findings carry
        self.settings = settings
        self._diagnostics: list[dict[str, Any]] | None = None
        self._bytemap: ByteMap | None = None
        self._sections: list[Section] | None = None
        self._section_lines: list[int] | None = None
        self._layers: dict[int, Layer] | None = None

    @classmethod
    def of(cls, opened: OpenDocument, finder: ConfigFinder, settings: Settings,
           encoding: str) -> Analysis:
        # a snapshot: the open document's text changes under later edits, this one never
        text = opened.text
        doc = TextDocument(text.uri, text.text, text.version, text.language_id)
        return cls(doc, lint_text(doc.text, opened.path, finder, settings, opened.display),
                   encoding, opened.path, opened.display, settings)

    @property
    def version(self) -> int | None:
        return self.doc.version

    @property
    def result(self) -> Any:
        return self.linted.result

    @property
    def bytemap(self) -> ByteMap:
        if self._bytemap is None:
            self._bytemap = ByteMap(self.doc.text, self.linted.data)
        return self._bytemap

    def _get_bytemap(self) -> ByteMap:
        return self.bytemap

    def findings(self) -> list[Diagnostic]:
        """The findings about this document (a --target or weights finding about another
        file has no place in it)."""
        path = self.result.path
        return [d for d in self.result.diagnostics if d.path in ("", path)]

    def diagnostics(self) -> list[dict[str, Any]]:
        if self._diagnostics is None:
            self._diagnostics = [to_lsp(self.doc, d, self.encoding, self._get_bytemap,
                                        self.related(d)) for d in self.findings()]
        return self._diagnostics

    # --- where a finding is fixed -------------------------------------------------------
    def related(self, diagnostic: Diagnostic) -> tuple[int, int, str] | None:
        """The span of the line to edit, when that is not the finding's own line: the first
        edit of its fix, or for a head whose input has the wrong depth (DN401) the
        ``filters=`` of the convolution before it."""
        if diagnostic.line is None:
            return None
        own = self.doc.lf_line_span(diagnostic.line)
        where: tuple[int, int] | None = None
        if diagnostic.fix is not None and diagnostic.fix.edits:
            first = min(diagnostic.fix.edits)
            start = self.bytemap.offset(first.start)
            where = self._line_of(start)
        elif diagnostic.code == "DN401":
            where = self._filters_before(diagnostic.line)
        if where is None or where == own or own[0] <= where[0] <= own[1]:
            return None
        return where[0], where[1], _FIXED_ELSEWHERE

    def _line_of(self, offset: int) -> tuple[int, int]:
        line, _ = self.doc.lf_line_column(offset)
        return self.doc.lf_line_span(line)

    def _filters_before(self, line: int) -> tuple[int, int] | None:
        section = self.section_at(line)
        layer = self.layer_of(section) if section is not None else None
        if layer is None or layer.index == 0:
            return None
        before = self.layer(layer.index - 1)
        if before is None or before.values is None:
            return None
        option = before.values.option("filters")
        return self.doc.lf_line_span(option.line if option is not None else before.line)

    # --- sections and layers ------------------------------------------------------------
    def sections(self) -> list[Section]:
        """The document's sections, as one list of objects (a section without options is
        built anew each time the document is asked for it: these stay the same)."""
        if self._sections is None:
            document = self.result.document
            self._sections = list(document.sections) if document is not None else []
            self._section_lines = [s.line for s in self._sections]
        return self._sections

    def section_at(self, line: int) -> Section | None:
        """The section holding dnlint line ``line``."""
        sections = self.sections()
        assert self._section_lines is not None
        at = bisect_right(self._section_lines, line) - 1
        return sections[at] if at >= 0 else None

    def layers(self) -> list[Layer]:
        network = self.result.network
        return list(network.layers) if network is not None else []

    def layer(self, index: int) -> Layer | None:
        if self._layers is None:
            self._layers = {layer.line: layer for layer in self.layers()}
        network = self.result.network
        if network is None or not 0 <= index < len(network.layers):
            return None
        found: Layer = network.layers[index]
        return found

    def layer_of(self, section: Section) -> Layer | None:
        """The layer built from ``section`` (None for [net] and sections not built)."""
        if self._layers is None:
            self._layers = {layer.line: layer for layer in self.layers()}
        return self._layers.get(section.line)
