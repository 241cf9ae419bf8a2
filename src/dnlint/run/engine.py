"""The run: command-line paths in, one finished :class:`FileResult` at a time out.

A run plans first from paths alone (which weights file goes with which cfg), then handles one
job at a time: lint the cfg, check its weights files, apply the policy, hand the results to
the caller, and keep nothing. Reports stream and memory stays flat in the number of files.

Nothing stops a run but a bad configuration: a path that cannot be read is a diagnostic of
that path (DN029), a weights file without a cfg is one too (DN519), and a bug in dnlint while
handling one file is a DN000 for that file; every other file is still checked.
"""

from __future__ import annotations

import os

from dnlint.collector import cycle_gc_paused
from dnlint.diagnostics import Diagnostic, new_diagnostic
from dnlint.pipeline import (
    Choices,
    DataJob,
    DocumentSettings,
    UnreadableWeights,
    analyse,
    check_weights_file,
    complete,
    failed,
    finish,
    lint_data_document,
    path_result,
    resolve,
    unreadable,
)
from dnlint.result import FileResult
from dnlint.run.inputs import (
    Input,
    InputError,
    collect_inputs,
    display_name,
    file_identity,
    path_error,
    read_cfg,
    require_regular_file,
)
from dnlint.run.options import RunOptions
from dnlint.settings.config import (
    CWD_CONFIGURATION,
    Config,
    ConfigError,
    ConfigFinder,
    unreadable_config,
)
from dnlint.settings.policy import Policy

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from dnlint.checks.training_facts import TrainingFacts
    from dnlint.settings.machine_card import MachineCardOnce

__all__ = ["Input", "InputError", "Run", "RunOptions", "lint_input"]

# Findings about a path rather than its content (exit status 2), and dnlint's own failure (3):
# counted before the policy could hide them.
PATH_PROBLEMS = frozenset({"DN029", "DN519"})
INTERNAL_ERROR = "DN000"


class Unpaired:
    """Why a weights file has no cfg to be checked against. (A plain class: a frozen dataclass
    costs about 1 ms of every run's start-up to create, for a value only weights runs make.)"""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


class Job:
    """One cfg (or one path that cannot be handled) and the weights files checked against it."""

    __slots__ = ("companion", "item", "linted_elsewhere", "weights")

    def __init__(self, item: Input, companion: bool = False) -> None:
        self.item = item
        self.weights: list[str] = []
        self.companion = companion  # a cfg not asked for, linted only for its weights files
        # --weights-only: a cfg given, whose own findings another run (the cfg hook) reports
        self.linted_elsewhere = False


class Run:
    """One invocation's files. Iterate :meth:`results` once; ``notes`` and ``inputs_read`` fill
    as it goes (``inputs_read`` only when ``track_inputs``, for the safe-output check).

    ``inputs_read`` is the one set of every path the run reads (by identity), fed by every
    reader: it starts with the paths named (files and directories, ``--stdin-filename``'s file,
    ``--config``), and gains each cfg and weights file, the ``--data`` file and its names file,
    each configuration file and ignore file looked at."""

    def __init__(self, paths: tuple[str, ...], options: RunOptions,
                 finder: ConfigFinder | None = None, policy: Policy | None = None,
                 dialect_given: bool = True, track_inputs: bool = False) -> None:
        self.paths = paths
        self.options = options
        self.finder = finder if finder is not None else ConfigFinder(disabled=True)
        self.policy = policy if policy is not None else Policy()
        self.dialect_given = dialect_given
        self.notes: list[str] = []
        self.inputs_read: set[tuple[int, int]] | None = set() if track_inputs else None
        if track_inputs:
            self.finder.on_read = self._remember
            explicit = self.finder.explicit.path if self.finder.explicit else None
            for named in (*paths, *options.weights, options.cfg, options.data,
                          options.stdin_filename, explicit):
                if named:
                    self._remember(str(named))
        self.unreadable = 0  # paths that could not be read or paired (exit status 2)
        self.internal_errors = 0  # files dnlint failed on (exit status 3)
        self.current = ""  # the path being handled, for a message if dnlint fails
        self._data_ok = True
        # the .data file the cfgs are checked against: --data, else the one .data file named
        # (``dnlint obj.data model.cfg``, as darknet is given them); set by plan()
        self._data: str | None = options.data
        self._data_check: DataJob | None = None
        self._training_cfg: str | None = None  # the one cfg given: what --check-labels reads
        self._facts: tuple[TrainingFacts | None] | None = None  # (facts,) once read
        self.messages: list[str] = []  # said once to the user (standard error), not findings
        # this machine's card by nvidia-smi, asked once per run (when "auto" or a job asks)
        self._machine_card: MachineCardOnce | None = None
        # the settings resolved, by the identity of their configuration (Run._settings)
        self._resolved: dict[int, tuple[Config | None, Choices, DocumentSettings]] = {}
        # the settings asked for within one job (a cfg's, then its result's): its choices
        # and configurations cannot change while it runs
        self._job_settings: dict[str, DocumentSettings] = {}

    def plan(self) -> list[Job]:
        """The jobs of this run, planned from paths alone: walks, excludes and pairing, no
        cfg or weights file read (``--watch`` polls the files they name)."""
        try:
            config = self.finder.for_path(os.path.join(os.curdir, "."))
        except OSError as exc:  # no file to hang a DN029 on: the working directory's
            raise unreadable_config(exc, CWD_CONFIGURATION) from None
        rules = (self.options.excludes.rules(config, self._reader())
                 if self._excludes_apply(config) else None)
        inputs = collect_inputs(self.paths, self.notes, rules, self.options.stdin_filename)
        for item in inputs:
            if item.kind not in ("data", "names"):
                # a configuration that cannot be used stops the run (exit status 2) before
                # its report starts, not in the middle of a JSON document; one that cannot be
                # read is the DN029 of the files it covers, said when each is handled
                try:  # noqa: SIM105 - contextlib is not imported by a run (start-up)
                    self.finder.for_path(item.display or item.path)
                except OSError:
                    pass
        named = [i.path for i in inputs if i.kind == "data" and i.explicit]
        if self.options.data:
            # --data is linted as a data file once, before the cfgs, even when also named
            inputs = [i for i in inputs if not (i.kind == "data" and _same_file(
                i.path, self.options.data))]
        elif len(named) == 1:
            self._data = named[0]
        cfgs = [i.path for i in inputs if i.kind == "cfg" and i.explicit]
        self._training_cfg = self.options.cfg or (cfgs[0] if len(cfgs) == 1 else None)
        jobs = plan_jobs(inputs, self.options)
        return _weights_jobs(jobs, self.notes) if self.options.weights_only else jobs

    def results(self) -> Iterator[FileResult]:
        """Every file's result, policy applied, in command-line order (walks sorted). The run
        is planned at this call, not at the first result: a configuration that stops it does
        so before a caller starts its report."""
        return self._results(self.plan())

    def _results(self, jobs: list[Job]) -> Iterator[FileResult]:
        with cycle_gc_paused() as collect_garbage:
            if self.options.data:
                yield from self._check_data_path(self.options.data)
            for job in jobs:
                yield from self._finished(job)
                # the caller has reported this file and dropped it (reference counting freed
                # it): what is young now is what the report left, cycles included
                collect_garbage()

    def _excludes_apply(self, config: Config | None) -> bool:
        """Whether any exclusion can matter: a directory to walk, or --force-exclude."""
        forced = self.options.excludes.force_exclude or (config is not None
                                                         and config.force_exclude)
        return bool(forced) or any(p != "-" and os.path.isdir(p) for p in self.paths)

    def _finished(self, job: Job) -> list[FileResult]:
        """The job's results, policy applied. An OSError that escapes the stages (the
        configuration search of a path longer than PATH_MAX) is a DN029 for the job's path,
        whatever raised it; a bug is a DN000. Either replaces the job's results."""
        self.current = job.item.path
        self._job_settings.clear()
        counts = self.unreadable, self.internal_errors
        try:
            results = self._handle(job)
            for result in results:
                self._count(result)
                finish(result, self._settings(result.path))
            return results
        except ConfigError:
            raise  # a bad configuration stops the run (exit status 2)
        except InputError as exc:
            results = [unreadable(job.item.path, exc.reason)]
        except OSError as exc:
            results = [unreadable(job.item.path, path_error(exc, job.item.path).reason)]
        except RecursionError:
            results = [failed(job.item.path, "the file nests too deeply to analyse")]
        except Exception as exc:  # a bug in dnlint must not hide the other files' results
            results = [failed(job.item.path, f"dnlint failed on this file "
                                             f"({type(exc).__name__}: {exc})")]
        self.unreadable, self.internal_errors = counts  # what the job counted is replaced
        self._count(results[0])
        return results

    def _count(self, result: FileResult) -> None:
        """Count what decides the exit status before the policy can hide it."""
        for diagnostic in result.diagnostics:
            if diagnostic.code in PATH_PROBLEMS:
                self.unreadable += 1
            elif diagnostic.code == INTERNAL_ERROR:
                self.internal_errors += 1

    def _handle(self, job: Job) -> list[FileResult]:
        item = job.item
        if item.kind == "problem":
            return [unreadable(item.path, item.reason)]
        if item.kind == "unpaired":
            return [path_result(item.path, "DN519", item.reason)]
        if item.kind in ("data", "names"):
            return [self._lint_data(item.path, item.kind)]
        cfg_result = self._lint_cfg(item, fix=not job.companion)
        results = [cfg_result]
        for weights_path in job.weights:
            entry = _entry_for(results, cfg_result, weights_path)
            entry.add(self._check_weights(entry, weights_path, cfg_result.path))
        if job.companion:
            _weights_findings_only(cfg_result, strict=job.linted_elsewhere)
        return results

    def _lint_cfg(self, item: Input, fix: bool = True) -> FileResult:
        """One cfg with the settings of its nearest configuration, and --data; with --fix,
        fixed unless it was linted only for its weights files (``fix`` False)."""
        settings = self._settings(item.display or item.path)
        self._remember(item.path)
        if self.options.fix and fix and item.kind in ("cfg", "stdin"):
            from dnlint.run.fixing import fix_input, suppress_input

            fixer = suppress_input if self.options.fix == "suppress" else fix_input
            result = fixer(item, self.options, settings)
            if "fix_error" in result.extra:
                self.unreadable += 1  # a refused write: a path that could not be handled
            complete(result, settings)
        else:
            result = lint_input(item, self.options, settings)
        return result

    def choices(self) -> Choices:
        """What the command line (or the API's arguments) chose, for :func:`resolve`."""
        # every field by position: a keyword makes the record bind its arguments in Python
        return Choices(self.options.dialect, self.policy, self.options.targets,
                       self.options.gpu_memory, self._data_job(), self.dialect_given,
                       self._data is not None and self._data_ok, self._card_of_machine)

    def _settings(self, path: str) -> DocumentSettings:
        """The settings of ``path``. Without per-file-ignores they depend on its configuration
        alone, so they are resolved once per configuration and choices, not twice per file."""
        memo = self._job_settings.get(path)
        if memo is not None:  # the cfg's, asked again for its result: nothing changed since
            return memo
        settings = self._resolve(path)
        self._job_settings[path] = settings
        return settings

    def _resolve(self, path: str) -> DocumentSettings:
        config = self.finder.for_path(path)
        choices = self.choices()
        if self.policy.per_file_ignores or (config is not None and config.per_file_ignores):
            return resolve(choices, config, path)
        cached = self._resolved.get(id(config))
        if cached is not None and cached[0] is config and cached[1] == choices:
            return cached[2]
        settings = resolve(choices, config, path)
        self._resolved[id(config)] = (config, choices, settings)
        return settings

    def _data_job(self) -> DataJob | None:
        """The .data file every cfg is checked against, once it is known to be readable."""
        if not self._data or not self._data_ok:
            return None
        if self._data_check is None or self._data_check.path != self._data:
            try:
                root = self._data_root(self._data)
            except InputError:  # its folder's configuration: the .data file's own result says
                return None
            self._data_check = DataJob(self._data, root, self._reader())
        return self._data_check

    def _check_weights(self, entry: FileResult, path: str, cfg_path: str) -> list[Diagnostic]:
        try:
            require_regular_file(path)
            self._remember(path)
            try:
                return check_weights_file(entry, path, self.options.scan, cfg_path)
            except UnreadableWeights as exc:
                raise path_error(exc.error, path) from None
        except InputError as exc:
            return [new_diagnostic("DN029", None, None, exc.reason, None, path)]

    def _check_data_path(self, path: str) -> Iterator[FileResult]:
        try:
            require_regular_file(path)
            self._remember(path)
            result = self._lint_data(path, "data")
        except InputError as exc:  # unreadable, or its folder's configuration is
            self._data_ok = False
            self.unreadable += 1
            yield unreadable(path, f"{exc.reason} (--data)")
            return
        self._count(result)
        finish(result, self._data_settings(result.path))
        yield result

    def _lint_data(self, path: str, kind: str) -> FileResult:
        """A .data file (or a names file) as a training job reads it (checks.data_file), with
        --data-root (else the data-root of the file's configuration), the dialect and
        --check-images."""
        require_regular_file(path)  # InputError: a DN029 of this path
        self._remember(path)
        dialect = self._data_settings(path).dialect
        labels = self.options.check_labels
        facts = self._training_facts() if labels and kind != "names" else None
        return lint_data_document(path, kind, dialect, self._data_root(path),
                                  self.options.check_images or labels, labels, facts,
                                  self._cfg_kind)

    def _cfg_kind(self) -> str | None:
        """What the run's one cfg trains ("detector", "classifier"), or None (read once)."""
        facts = self._training_facts()
        return facts.kind if facts is not None else None

    def _training_facts(self) -> TrainingFacts | None:
        """What the run's one cfg tells the loader (--check-labels), read once per run."""
        if self._facts is None:
            facts = None
            if self._training_cfg is not None:
                from dnlint.checks.training_facts import training_facts

                try:
                    dialect = self._settings(self._training_cfg).dialect
                except OSError:  # the cfg's own result says why (DN029)
                    linted = None
                else:
                    linted = lint_input(Input(self._training_cfg, "cfg"),
                                        self.options._replace(dialect=dialect))
                if linted is not None and linted.network is not None \
                        and linted.dialect is not None:
                    facts = training_facts(linted.network, linted.dialect, linted.path)
            self._facts = (facts,)
        return self._facts[0]

    def _data_root(self, path: str) -> Path | None:
        """--data-root, else the data-root of the configuration of the .data file ``path``."""
        from pathlib import Path

        root: Path | None = Path(self.options.data_root) if self.options.data_root else None
        config = self._data_config(path)
        if root is None and config is not None and config.data_root is not None:
            root = config.root / config.data_root
        return root.absolute() if root else None

    def _data_settings(self, path: str) -> DocumentSettings:
        """The settings of a .data (or names) file: those of its folder's configuration."""
        return resolve(self.choices(), self._data_config(path), path)

    def _card_of_machine(self, asked: bool) -> tuple[int, str] | None:
        """(bytes, what it is) of this machine's card, asked once per run; why there is none
        goes to the run's messages (dnlint.settings.machine_card)."""
        if self._machine_card is None:
            # here, not at the top: a run that needs no card does not load it (start-up)
            from dnlint.settings.machine_card import MachineCardOnce

            self._machine_card = MachineCardOnce(self.messages.append)
        return self._machine_card(asked)

    def _data_config(self, path: str) -> Config | None:
        """The configuration of a .data (or names) file's folder (where darknet runs, the
        dialect). One that cannot be read or used is an InputError of that file, a DN029
        naming the configuration: never the error of a cfg checked against the .data file,
        nor, mid-report, of the whole run."""
        try:
            return self.finder.for_path(path)
        except OSError as exc:
            raise path_error(exc, path) from None
        except ConfigError as exc:
            raise InputError(path, f"cannot use {exc}") from None

    def _reader(self) -> Callable[[str], None] | None:
        """What a reader below the run calls with each file it reads (None: not tracked)."""
        return self._remember if self.inputs_read is not None else None

    def _remember(self, path: str) -> None:
        if self.inputs_read is not None and path != "-":
            identity = file_identity(path)
            if identity is not None:
                self.inputs_read.add(identity)


def _weights_findings_only(result: FileResult, strict: bool = False) -> None:
    """A cfg linted only for its weights files reports what concerns them: their own findings
    and the cfg's weights rules (DN5xx). Its other findings belong to a run that names it (the
    cfg hook of pre-commit), not to every weights file's. ``strict`` (--weights-only, where
    the cfg hook lints the same cfg): the weights files' own findings only."""
    result.given = False
    result.diagnostics = [d for d in result.diagnostics if d.path != result.path
                          or (not strict and (d.code.startswith("DN5")
                                              or d.code in _ALWAYS_SHOWN))]


def _weights_jobs(jobs: list[Job], notes: list[str]) -> list[Job]:
    """--weights-only: each cfg is read for its weights files alone (a companion); one with
    none to check is passed over, with a note."""
    kept = []
    for job in jobs:
        if job.item.kind in ("cfg", "stdin"):
            if not job.weights:
                notes.append(f"{job.item.path}: skipped, no weights file to check against it "
                             "(--weights-only)")
                continue
            job.companion = job.linted_elsewhere = True
        kept.append(job)
    return kept


# what a companion cfg still reports: it cannot be read (--cfg nope.cfg), or dnlint failed on it
_ALWAYS_SHOWN = PATH_PROBLEMS | {INTERNAL_ERROR}


def plan_jobs(inputs: list[Input], options: RunOptions) -> list[Job]:
    """One job per cfg (or unreadable path), each weights file attached to its cfg's job.

    Pairing reads no file. A weights file named on the command line goes with ``--cfg``, else
    with the only cfg given, else with the given cfg of the same stem, else with the cfg beside
    it (:func:`dnlint.weights.pairing.find_cfg`); one found by a walk goes with the cfg beside
    it, else with the only walked cfg of its stem. When none fits, it becomes a DN519 job.
    With ``weights_beside``, each given cfg also takes the weights files named after it beside
    it (:func:`dnlint.weights.pairing.weights_beside`).
    """
    jobs = [Job(item) for item in inputs if item.kind != "weights"]
    given = [job for job in jobs if job.item.kind in ("cfg", "stdin")]
    explicit = dict.fromkeys([*options.weights,
                              *(i.path for i in inputs if i.kind == "weights" and i.explicit)])
    walked = dict.fromkeys(i.path for i in inputs if i.kind == "weights" and not i.explicit)
    if options.weights_beside:
        from dnlint.weights.pairing import weights_beside

        for job in given:
            if job.item.explicit and job.item.kind == "cfg":
                job.weights += [w for w in weights_beside(job.item.path)
                                if w not in explicit and w not in walked]
    if not explicit and not walked:
        return jobs
    by_path: dict[str, Job] = {}
    for job in given:
        by_path.setdefault(_real(job.item.path), job)
    extra: list[Job] = []
    pairings = [(path, _paired(path, given, options.cfg)) for path in explicit]
    pairings += [(path, _paired(path, given, None, walked=True))
                 for path in walked if path not in explicit]
    for path, target in pairings:
        if isinstance(target, Job):
            target.weights.append(path)
        elif isinstance(target, Unpaired):
            extra.append(Job(Input(path, "unpaired", reason=target.reason)))
        elif isinstance(target, InputError):
            extra.append(Job(Input(path, "problem", reason=target.reason)))
        else:
            found = by_path.get(_real(target))
            if found is None:
                found = by_path[_real(target)] = Job(Input(target, "cfg"), companion=True)
                extra.append(found)
            found.weights.append(path)
    return jobs + extra


def _paired(weights_path: str, given: list[Job], cfg_option: str | None,
            walked: bool = False) -> Job | str | Unpaired | InputError:
    """:func:`_pair` (or :func:`_pair_walked`); an OSError while looking beside the weights
    file (a name longer than PATH_MAX) is the DN029 of that file."""
    try:
        return _pair_walked(weights_path, given) if walked else _pair(weights_path, given,
                                                                       cfg_option)
    except OSError as exc:
        return path_error(exc, weights_path)


def _pair(weights_path: str, given: list[Job], cfg_option: str | None) -> Job | str | Unpaired:
    """The job of the cfg ``weights_path`` belongs to, else the path of its cfg, else why not."""
    if cfg_option:
        return cfg_option
    if len(given) == 1:
        return given[0]
    same = _same_stem(weights_path, given)
    if len(same) == 1:
        return same[0]
    if given:
        return Unpaired("several cfgs were given and none has its name; check one pair at a time, "
                        "or name the cfg with --cfg")
    return _beside(weights_path)


def _pair_walked(weights_path: str, walked: list[Job]) -> Job | str | Unpaired:
    """A weights file a walk found: the cfg beside it, else the only walked cfg of its stem."""
    beside = _beside(weights_path)
    if not isinstance(beside, Unpaired):
        return beside
    same = _same_stem(weights_path, walked)
    return same[0] if len(same) == 1 else beside


def _same_stem(weights_path: str, jobs: list[Job]) -> list[Job]:
    # the weights package is imported only by runs that have a weights file (start-up)
    from pathlib import Path

    from dnlint.weights.pairing import cfg_stems

    stems = cfg_stems(weights_path)
    return [job for job in jobs if Path(job.item.path).stem in stems]


def _beside(weights_path: str) -> str | Unpaired:
    from dnlint.weights.pairing import find_cfg

    match = find_cfg(weights_path)
    if match.cfg is None:
        listed = f" ({', '.join(match.candidates)})" if match.candidates else ""
        return Unpaired(f"which cfg does it belong to? {match.reason}{listed}; name it with "
                        "--cfg FILE (or give the cfg too)")
    return match.cfg


def _same_file(first: str, second: str) -> bool:
    return _real(first) == _real(second)


def _real(path: str) -> str:
    return path if path == "-" else os.path.realpath(path)


def _entry_for(results: list[FileResult], cfg_result: FileResult,
               weights_path: str) -> FileResult:
    """The entry a weights file's findings go to: its cfg's, or a new one for a further file
    (path = the weights file, with the same prediction)."""
    report = cfg_result.weights
    if report is None or report.path is None:  # the first weights file of this cfg
        return cfg_result
    extra = FileResult(weights_path, cfg_result.dialect, cfg_result.dialect_reason, [],
                       cfg_result.network, cfg_result.document, given=False)
    extra.weights = report.fresh()
    results.append(extra)
    return extra


def lint_input(item: Input, options: RunOptions,
               settings: DocumentSettings | None = None) -> FileResult:
    """Read and lint one cfg (:func:`dnlint.pipeline.analyse`, before the policy); a path that
    cannot be read gives a DN029 result. ``settings``: the cfg's (None: ``options``' alone,
    without a configuration)."""
    display = display_name(item)
    if settings is None:
        settings = resolve(Choices(options.dialect, dialect_chosen=True), None, display)
    data = read_cfg(item, display, options.text)
    if isinstance(data, FileResult):
        complete(data, settings)
        return data
    return analyse(data, display, settings, fixes=options.fixes)
