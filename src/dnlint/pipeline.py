"""The one pipeline: one document's bytes, the path they stand for and its settings in, the
complete result out.

Every face calls this module and nothing below it: the command's run loop
(:mod:`dnlint.run.engine`), the Python API (:mod:`dnlint.api`, through the run) and the
language server (:mod:`dnlint.lsp.pipeline`).

1. :func:`resolve` turns what a face was told (:class:`Choices`: the command line's flags, the
   API's arguments, the editor's settings) and the configuration file that applies to the path
   into the :class:`DocumentSettings` of that document: one place, so that a setting cannot
   be honoured by one face and not by another.
2. :func:`analyse` runs the stages (:func:`dnlint.lint.lint_cfg_bytes`: read, type, build,
   check), hangs each finding's fix on it, and adds the checks the settings turn on
   (:func:`complete`: deployment targets, the training recipe, the ``.data`` job, the GPU
   memory budget).
3. :func:`finish` applies the policy: suppression directives, select/ignore, severity
   overrides. :func:`lint_document` is the three in one.

The result is a :class:`~dnlint.result.FileResult`: the findings with their fixes and ranges,
the dialect and why, the network, the weights layout (``result.weights``, predicted on first
use), and the document. Weights files are checked against it with :func:`check_weights_file`,
before :func:`finish`, so that their findings get the same policy.
"""

from __future__ import annotations

from dnlint.collector import cycle_gc_paused
from dnlint.diagnostics import Diagnostic, Sink, new_diagnostic
from dnlint.dialects import Dialect, parse_dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.read import MAX_CFG_BYTES
from dnlint.records import NamedTuple
from dnlint.result import FileResult
from dnlint.settings.policy import Policy, Selection, apply_policy, selection_for

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any, TypeAlias

    from dnlint.checks.training_facts import TrainingFacts
    from dnlint.fixes.run import Fixed
    from dnlint.fixes.suppress import Suppressed
    from dnlint.settings.config import Config

__all__ = [
    "MAX_CFG_BYTES",
    "Choices",
    "DataJob",
    "DocumentSettings",
    "UnreadableWeights",
    "analyse",
    "check_data",
    "check_recipe",
    "check_weights_file",
    "complete",
    "diff",
    "failed",
    "finish",
    "fix_document",
    "kept",
    "lint_data_document",
    "lint_document",
    "mark_fixes",
    "path_result",
    "resolve",
    "suppress_document",
    "too_large",
    "unreadable",
]


MachineCard: TypeAlias = "Callable[[bool], tuple[int, str] | None]"


class DataJob:
    """The ``.data`` file a run checks its cfgs against (``--data``, or the one ``.data`` file
    named with them), the folder darknet runs from (``root``), and the length of its train list
    (the recipe's ``max_batches`` floor), counted once. A plain class: start-up."""

    __slots__ = ("_train", "on_read", "path", "root")

    def __init__(self, path: str, root: Path | None = None,
                 on_read: Callable[[str], None] | None = None) -> None:
        self.path = path
        self.root = root
        self.on_read = on_read  # told the names file the check reads
        self._train: tuple[int | None] | None = None

    def train_images(self) -> int | None:
        if self._train is None:
            from pathlib import Path

            from dnlint.checks.data_file import count_train_images

            self._train = (count_train_images(Path(self.path), self.root),)
        return self._train[0]


class Choices(NamedTuple):  # not a dataclass: start-up
    """What a face was told before any configuration file is read: the command line's flags,
    the API's arguments or the editor's settings (None: the configuration's, else the
    default)."""

    dialect: Dialect | None = None  # None: the configuration's, else detected
    policy: Policy = Policy()
    targets: tuple[str, ...] = ()
    gpu_memory: int | str | None = None  # bytes, or "auto": the machine's card
    data: DataJob | None = None
    dialect_chosen: bool = False  # a dialect was named (auto too): the configuration's is not used
    training: bool = False  # a training job (a .data file with the cfg): DN124, the machine's card
    # this machine's card, (bytes, what it is) or None, asked once (dnlint.settings.gpu); the
    # argument says whether it was asked for ("auto") rather than read for a training job
    machine_card: MachineCard | None = None


class DocumentSettings(NamedTuple):  # not a dataclass: start-up
    """The settings one document is linted with: its :class:`Choices` merged with the
    configuration file that applies to its path (:func:`resolve`)."""

    dialect: Dialect | None  # None: detected
    dialect_reason: str | None  # why, when the configuration named it
    selection: Selection
    targets: tuple[str, ...]
    gpu_memory: int | str | None
    data: DataJob | None = None
    training: bool = False
    machine_card: MachineCard | None = None


def resolve(choices: Choices, config: Config | None, path: str) -> DocumentSettings:
    """The settings of the document at ``path``: a choice beats the configuration, which beats
    the default; targets and selectors add up (:func:`dnlint.settings.policy.selection_for`)."""
    dialect, reason = choices.dialect, None
    if not choices.dialect_chosen and config is not None and config.dialect is not None:
        dialect, reason = parse_dialect(config.dialect), f"set in {config.path}"
    targets = choices.targets + tuple(t for t in (config.target if config else ())
                                      if t not in choices.targets)
    budget = choices.gpu_memory
    if budget is None and config is not None:
        budget = config.gpu_memory
    return DocumentSettings(dialect, reason, selection_for(path, choices.policy, config),
                            targets, budget, choices.data, choices.training,
                            choices.machine_card)


def lint_document(data: bytes, path: str, settings: DocumentSettings) -> FileResult:
    """The complete result for the cfg ``data`` standing for ``path``: :func:`analyse`, then
    :func:`finish`."""
    result = analyse(data, path, settings)
    finish(result, settings)
    return result


def analyse(data: bytes, path: str, settings: DocumentSettings,
            fixes: bool = True) -> FileResult:
    """Every finding the settings ask for, with fixes (unless ``fixes`` is False) and ranges,
    before the policy. dnlint's own failure on the file is its finding (DN000), never an
    exception."""
    try:
        if len(data) > MAX_CFG_BYTES:
            result = too_large(path)
        else:
            with cycle_gc_paused():
                result = lint_cfg_bytes(data, path, settings.dialect)
            if fixes:
                mark_fixes(result, data)
    except RecursionError:
        result = failed(path, "the file nests too deeply to analyse")
    except Exception as exc:  # a bug in dnlint must not hide the other files' results
        result = failed(path, f"dnlint failed on this file ({type(exc).__name__}: {exc})")
    complete(result, settings)
    return result


def complete(result: FileResult, settings: DocumentSettings) -> None:
    """Add the checks the settings turn on to a lint: deployment targets, the training recipe,
    the ``.data`` job and the GPU memory budget (a training job: DN124 and the machine's
    card); and say where the dialect was set."""
    if settings.targets:
        from dnlint.targets import check_targets

        check_targets(result, settings.targets)
    data = settings.data
    if settings.selection.recipe:
        check_recipe(result, data.train_images() if data is not None else None)
    if data is not None and result.network is not None:
        check_data(result, data.path, data.on_read, data.root)
    _check_card(result, settings)
    if settings.dialect_reason is not None and result.dialect is not None:
        result.dialect_reason = settings.dialect_reason


def finish(result: FileResult, settings: DocumentSettings) -> None:
    """Apply the policy to ``result``: suppressed, re-levelled, selected, sorted."""
    apply_policy(result, settings.selection)


def kept(settings: DocumentSettings) -> Callable[[FileResult], list[Diagnostic]]:
    """What the policy keeps of a result, leaving the result whole (the fixers judge a pass by
    the errors the policy keeps)."""
    import copy

    def keep(result: FileResult) -> list[Diagnostic]:
        probe = copy.copy(result)  # apply_policy replaces the list: the result stays whole
        apply_policy(probe, settings.selection)
        return probe.diagnostics

    return keep


def fix_document(data: bytes, path: str, settings: DocumentSettings,
                 unsafe: bool = False) -> Fixed:
    """What ``--fix`` makes of ``data``: fixes of the findings the policy keeps, applied over
    passes until none is left (:func:`dnlint.fixes.run.fix_bytes`). The run writes the bytes;
    :func:`complete` and :func:`finish` are for the result it reports."""
    from dnlint.fixes.run import fix_bytes

    return fix_bytes(data, path, settings.dialect, unsafe, kept(settings))


def suppress_document(data: bytes, path: str, settings: DocumentSettings) -> Suppressed:
    """What ``--add-suppressions`` makes of ``data``: a directive above each line with a
    finding the policy keeps (:mod:`dnlint.fixes.suppress`)."""
    from dnlint.fixes.suppress import add_suppressions

    return add_suppressions(data, path, settings.dialect, kept(settings))


def diff(fixed: Fixed, path: str) -> str:
    """``--diff``: what :func:`fix_document` changed, as a unified diff."""
    from dnlint.fixes.run import unified_diff

    return unified_diff(fixed, path)


def mark_fixes(result: FileResult, data: bytes) -> None:
    """Hang on each diagnostic the fix its rule has here, so that reports can mark it (the
    fixers load only when a finding has one; a clean file loads not even the rule registry)."""
    if not result.diagnostics:
        return
    from dnlint.rules import get_rule

    if any(get_rule(d.code).fix for d in result.diagnostics):
        from dnlint.fixes import attach_fixes

        attach_fixes(result, data)


def check_data(result: FileResult, data_path: str,
               on_read: Callable[[str], None] | None = None, root: Path | None = None) -> None:
    """``--data obj.data``: its classes and names file against every detection head
    (``on_read`` is told the names file it reads; ``root``: the folder darknet runs from)."""
    if result.network is None:
        return
    from pathlib import Path

    from dnlint.checks.data import check_data_file

    sink = Sink(result.path)
    check_data_file(result.network, Path(data_path), sink, on_read, root)
    result.add(sink.items)


def _check_card(result: FileResult, settings: DocumentSettings) -> None:
    """DN121 against the card when one is known (--gpu-memory, the configuration's
    gpu-memory, or the machine's: when asked with "auto", or for a training job), in place of
    the lint's DN123; and for a training job, DN124 for batch=1 left under '# Testing'."""
    if settings.training:
        _check_testing_batch(result)
    size = settings.gpu_memory
    if isinstance(size, int):
        _check_budget(result, size)
    elif (size is not None or settings.training) and settings.machine_card is not None:
        card = settings.machine_card(size is not None)  # a process, once per run
        if card is not None:
            _check_budget(result, card[0], card[1])


def _check_budget(result: FileResult, budget: int, card: str | None = None) -> None:
    """A known card: DN121 when training needs more than it (dnlint.checks.memory), and the
    lint's DN123 (more than the largest common card) dropped: the card is known now. Nothing
    when DN124 found the cause (a training batch under '# Testing')."""
    result.diagnostics = [d for d in result.diagnostics if d.code != "DN123"]
    if result.network is None or result.dialect is None or any(
            d.code == "DN124" for d in result.diagnostics):
        return
    from dnlint.checks.memory import check_budget
    from dnlint.network.memory import memory_report

    sink = Sink(result.path)
    check_budget(memory_report(result.network, result.dialect), budget, sink, card)
    result.add(sink.items)


def _check_testing_batch(result: FileResult) -> None:
    """A training job: DN124 when batch=1, the '# Testing' value, is the active one."""
    if result.network is None or result.dialect is None or result.document is None:
        return
    from dnlint.checks.memory import check_testing_block

    sink = Sink(result.path)
    check_testing_block(result.network, result.document, result.dialect, sink,
                        training_job=True)
    result.add(sink.items)


def check_recipe(result: FileResult, train_images: int | None = None) -> None:
    """The training recipe (DN7xx), for a document whose selection turns it on; the module
    loads only then. ``train_images``: the length of the train list of the .data file."""
    if result.network is None or result.document is None or result.dialect is None:
        return
    from dnlint.checks.recipe import check_recipe as check

    sink = Sink(result.path)
    check(result.network, result.document, result.dialect, sink, train_images)
    result.add(sink.items)


class UnreadableWeights(Exception):
    """The weights file could not be read: ``error`` says why (a DN029 of the file)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def check_weights_file(result: FileResult, path: str, scan: bool = False,
                       cfg_path: str | None = None) -> list[Diagnostic]:
    """Check the weights file ``path`` against ``result``'s prediction (and scan it); the new
    diagnostics. ``cfg_path``: the cfg's name, where a finding about a cfg line goes
    (``result.path`` unless ``result`` is the entry of a further weights file).

    Raises :class:`UnreadableWeights` when the file cannot be read."""
    from dnlint.clean import shown_path
    from dnlint.weights import alternatives
    from dnlint.weights.check import check_file, diagnostic

    report = result.weights
    if report is None:
        if any(d.code == "DN029" and d.path == result.path for d in result.diagnostics):
            return [diagnostic("DN518", f"not checked: its cfg {shown_path(result.path)} cannot "
                               "be read", path)]
        if result.network is not None and result.network.overflowed:
            return [diagnostic("DN518", "not checked: a size in the cfg overflows Darknet's int "
                               "(DN312), so the layout of the file cannot be predicted", path)]
        return [diagnostic("DN518", "not checked: the cfg does not build a network, so there is "
                           "nothing to compare the file with", path)]
    try:
        others = (alternatives(result.document, result.dialect, report)
                  if result.document is not None and result.dialect is not None else [])
        found = check_file(report, path, others)
    except OSError as exc:
        raise UnreadableWeights(exc) from None
    if report.header is not None and result.network is not None:
        from dnlint.weights.resume import check_resume

        found += check_resume(result.network, report.header, cfg_path or result.path, path)
    if scan and report.header is not None and not any(d.code in _UNREADABLE for d in found):
        from dnlint.weights.scan import scan_weights

        found += scan_weights(report)
    return found


# a file the scan cannot walk: not weights, or no usable header
_UNREADABLE = frozenset({"DN510", "DN511", "DN513"})


def lint_data_document(path: str, kind: str, dialect: Dialect | None, root: Path | None,
                       check_images: bool = False, check_labels: bool = False,
                       facts: TrainingFacts | None = None,
                       cfg_kind: Callable[[], str | None] | None = None) -> FileResult:
    """A ``.data`` file (``kind`` "data") or a names file ("names") as a training job reads
    it (:mod:`dnlint.checks.data_file`); with ``check_labels``, every listed image's label file
    too (:mod:`dnlint.dataset`, told what the training cfg says in ``facts``), its counts in
    ``result.extra["dataset"]``; ``cfg_kind`` says, when asked, what the cfg given with it
    trains (``DataSettings.cfg_kind``)."""
    from pathlib import Path

    from dnlint.checks.data_file import DataSettings, check_names_file, lint_data_file

    sink = Sink(path)
    extra: dict[str, Any] = {}
    if kind == "names":
        check_names_file(Path(path), dialect, sink)
    else:
        settings = DataSettings(root, dialect, check_images, check_labels, facts, cfg_kind)
        checked = lint_data_file(Path(path), settings, sink)
        if check_labels and checked is not None and checked[1]:
            from dnlint.dataset.check import check_dataset

            data, lists = checked
            summaries = check_dataset(data, settings, lists, sink)
            if summaries:
                extra["dataset"] = summaries
    return FileResult(path, dialect, "", sink.sorted(), extra=extra)


def path_result(path: str, code: str, message: str) -> FileResult:
    """A result that is one file-level finding about ``path`` itself."""
    return FileResult(path, None, "", [new_diagnostic(code, None, None, message, None, path)])


def unreadable(path: str, reason: str) -> FileResult:
    """DN029: ``path`` cannot be read, for ``reason``."""
    return path_result(path, "DN029", reason)


def failed(path: str, message: str) -> FileResult:
    """DN000: dnlint failed on the file."""
    diagnostic = new_diagnostic("DN000", 1, 1, message + "; please report it with the file",
                                None, path)
    return FileResult(path, None, "", [diagnostic])


def too_large(path: str) -> FileResult:
    """DN023: larger than any cfg."""
    message = (
        f"file is larger than {MAX_CFG_BYTES // (1024 * 1024)} MiB: not a cfg (a weights file "
        "passed as the cfg?)"
    )
    return FileResult(path, None, "", [new_diagnostic("DN023", 1, 1, message, None, path)])
