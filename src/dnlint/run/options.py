"""What a command line asks of a run: :class:`RunOptions` (the flags, as :func:`dnlint.api.new_run`
builds them) and :class:`ExcludeOptions` (the flags that decide what a walk passes over)."""

from __future__ import annotations

from dnlint.dialects import Dialect
from dnlint.records import NamedTuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from dnlint.run.excludes import ExcludeRules
    from dnlint.settings.config import Config

__all__ = ["ExcludeOptions", "RunOptions"]


class ExcludeOptions(NamedTuple):  # not a frozen dataclass: start-up
    """The command line's share of :class:`~dnlint.run.excludes.ExcludeRules` (None: ask the
    configuration, then the default)."""

    exclude: tuple[str, ...] | None = None
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool | None = None
    force_exclude: bool | None = None

    def rules(self, config: Config | None,
              on_read: Callable[[str], None] | None = None) -> ExcludeRules:
        from dnlint.run.excludes import DEFAULT_EXCLUDES, ExcludeRules

        exclude = self.exclude
        if exclude is None:
            exclude = config.exclude if config and config.exclude is not None else None
        return ExcludeRules(
            exclude=DEFAULT_EXCLUDES if exclude is None else exclude,
            extend_exclude=(config.extend_exclude if config else ()) + self.extend_exclude,
            respect_gitignore=_first(self.respect_gitignore,
                                     config.respect_gitignore if config else None, True),
            force_exclude=_first(self.force_exclude, config.force_exclude if config else None,
                                 False),
            root=str(config.root) if config and config.path else "",
            on_read=on_read,
        )


class RunOptions(NamedTuple):  # not a dataclass: start-up (each costs ~1 ms)
    dialect: Dialect | None = None
    weights: tuple[str, ...] = ()
    cfg: str | None = None
    scan: bool = False
    data: str | None = None
    verbose: bool = False
    targets: tuple[str, ...] = ()  # --target: deployment targets checked (dnlint.targets)
    excludes: ExcludeOptions = ExcludeOptions()
    weights_beside: bool = False  # also check each given cfg against the weights files beside it
    stdin_filename: str | None = None  # --stdin-filename: standard input is linted as this path
    # "fix": rewrite the cfgs (--fix, --fix-only); "diff": show the fixes; "suppress":
    # --add-suppressions
    fix: str | None = None
    unsafe_fixes: bool = False  # --unsafe-fixes: apply the fixes whose rule says "unsafe" too
    data_root: str | None = None  # --data-root: the folder darknet runs from (.data paths)
    check_images: bool = False  # --check-images: look for every image a train/valid list names
    check_labels: bool = False  # --check-labels: also read each image's label file (dataset)
    # --gpu-memory: the card's bytes (DN121), or "auto": nvidia-smi's (dnlint.settings.gpu)
    gpu_memory: int | str | None = None
    weights_only: bool = False  # --weights-only: report the weights files' findings, no cfg's
    text: bytes | None = None  # what "-" reads instead of standard input (dnlint.lint_text)
    # each finding's fix found (pipeline.mark_fixes); False for a report that shows none
    # (SARIF, GitHub, JUnit): the fixers cost more than the rest of the run for a file
    fixes: bool = True


def _first(*values: bool | None) -> bool:
    return next(v for v in values if v is not None)
