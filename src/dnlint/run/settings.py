"""``--show-settings PATH`` and what ``-v`` says about a run's configuration: the settings a
path is linted with, resolved as the run resolves them (command line over the nearest
configuration file over the defaults), and whether a walk or ``--force-exclude`` passes it over.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from dnlint.clean import shown_path

if TYPE_CHECKING:
    from dnlint.run.engine import Run


def configuration_lines(run: Run) -> list[str]:
    """``-v``: the configuration files the run used, or that none was."""
    finder = run.finder
    if finder.disabled:
        return ["configuration: none (--no-config)"]
    used = finder.used()
    if not used:
        return ["configuration: none found (defaults; searched from each file's directory up)"]
    return [f"configuration: {shown_path(str(path))}" for path in used]


def settings_lines(path: str, run: Run) -> list[str]:
    """The resolved settings for ``path``, one ``key = value`` line each."""
    from dnlint.run.inputs import DATA_SUFFIX, is_weights_path, looks_like_data_file, not_darknet
    from dnlint.settings.policy import selection_for

    config = run.finder.for_path(path)
    options = run.options
    dialect = (options.dialect.value if run.dialect_given and options.dialect is not None
               else config.dialect if config is not None and config.dialect
               else "auto")
    selection = selection_for(path, run.policy, config)
    rules = options.excludes.rules(run.finder.for_path(os.path.join(os.curdir, ".")))
    source = (str(config.path) if config is not None and config.path is not None else
              "none (--no-config)" if run.finder.disabled else "none found (defaults)")
    lines = [
        f"path = {shown_path(path)}",
        f"configuration = {shown_path(source)}",
        f"dialect = {dialect}",
        f"select = {_listed(selection.select)}",
        f"ignore = {_listed(selection.ignore)}",
        "severity-override = " + _listed(tuple(f"{code}={level.value}"
                                               for code, level in selection.overrides)),
        f"directives = {'yes' if selection.directives else 'no (--disable-directives)'}",
        "target = " + _listed(options.targets + (config.target if config else ())),
        f"exclude = {_listed(rules.exclude)}",
        f"extend-exclude = {_listed(rules.extend_exclude)}",
        f"respect-gitignore = {'yes' if rules.respect_gitignore else 'no'}",
        f"force-exclude = {'yes' if rules.force_exclude else 'no'}",
    ]
    pattern = rules.pattern_match(path)
    parent = os.path.dirname(os.path.normpath(path))
    while pattern is None and parent and parent not in (os.curdir, os.sep):
        pattern = rules.pattern_match(parent)
        parent = os.path.dirname(parent)
    if pattern is not None:
        verdict = f"passed over by a walk (excluded by {pattern!r})"
    elif is_weights_path(path):
        verdict = "checked (a weights file)"
    elif path.endswith(DATA_SUFFIX) and os.path.isfile(path):
        # a walk lints a Darknet .data file as a training job, and passes over another
        verdict = ("checked (a training-job .data file)" if looks_like_data_file(path) else
                   "passed over by a walk (not a Darknet .data file); linted when named")
    elif not os.path.isdir(path) and not path.endswith(".cfg") and path != "-":
        verdict = "passed over by a walk (not a *.cfg name); linted when named"
    elif os.path.isfile(path) and (why := not_darknet(path)) is not None:
        verdict = f"passed over by a walk ({why}); linted when named"
    else:
        verdict = "checked"
    lines.append(f"verdict = {verdict}")
    return lines


def _listed(values: tuple[str, ...]) -> str:
    return "[" + ", ".join(values) + "]"
