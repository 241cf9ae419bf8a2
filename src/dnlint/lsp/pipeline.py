"""The one door between the language server and dnlint's pipeline (:mod:`dnlint.pipeline`).

Everything the server learns about a document goes through here: the lint of its unsaved text
with the settings the CLI would resolve for its path (the editor's settings in the place of
the flags, and the configuration file the CLI would find: :func:`dnlint.pipeline.resolve`),
so the opt-in checks a configuration turns on (targets, the recipe, a GPU memory budget) are
the CLI's; the policy; the ``--fix`` edits on each finding, and ``--fix``'s whole-file result
for fix-all.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from dnlint.pipeline import (
    MAX_CFG_BYTES,
    Choices,
    analyse,
    failed,
    finish,
    fix_document,
    resolve,
)
from dnlint.records import NamedTuple
from dnlint.result import FileResult
from dnlint.settings.config import Config, ConfigError, ConfigFinder
from dnlint.settings.machine_card import MachineCardOnce

# What the editor's settings say: the command line's share, as the same record the CLI's
# flags make (``dialect`` as --dialect, select/ignore/target/gpuMemory as the flags).
Settings = Choices


def card_of_machine(tell: Callable[[str], None], setting_auto: bool) -> MachineCardOnce:
    """This machine's card for gpu-memory "auto" (the editor's gpuMemory, else the
    configuration's), asked of nvidia-smi once for these settings: at the first lint that
    needs it, not at each keystroke. Why there is none goes to ``tell`` in the words the
    command prints, naming the setting that asked."""
    return MachineCardOnce(tell, 'gpuMemory "auto"' if setting_auto
                           else 'gpu-memory = "auto" (the configuration)')



def say_wrong_types(options: dict[str, object], tell: Callable[[str], None]) -> None:
    """Tell what the editor's settings hold of a type their flag cannot take (``dialect`` not
    a name, ``fixAll`` or ``disableRuleComment`` not a boolean), as a bad value is told: the
    setting is left at its default either way, but never silently."""
    dialect = options.get("dialect")
    if dialect is not None and not isinstance(dialect, str):
        tell(f"settings: dialect must be a name, not {dialect!r}")
    for key in ("fixAll", "disableRuleComment"):
        value = options.get(key)
        if value is not None and not isinstance(value, bool):
            tell(f"settings: {key} must be true or false, not {value!r}")

class Linted(NamedTuple):
    """One lint of one version of a document."""

    data: bytes  # the text as linted (UTF-8; a lone surrogate stays an invalid sequence)
    result: FileResult  # policy applied, fixes attached
    config: Config | None
    config_problem: str | None  # why the configuration could not be used, if it could not


def encode(text: str) -> bytes:
    """The bytes dnlint reads for an editor's text: UTF-8, and a lone surrogate (text that
    was not UTF-8 on disk, as the editor decoded it) as the invalid bytes it stands for."""
    return text.encode("utf-8", "surrogatepass")


_SNIFF_CHARACTERS = 65536


def not_darknet(text: str) -> bool:
    """Whether ``text`` is another tool's INI file (``setup.cfg``, ``tox.ini``): the same test
    the CLI's walk and ``--force-exclude`` use (:func:`dnlint.read.sniff.foreign_sections`:
    sections, none of them Darknet's nor a typo of one). An editor that sends every ``*.cfg``
    gets no findings for such a file; a buffer without any section yet (being typed) is
    linted."""
    from dnlint.read.sniff import foreign_sections

    return foreign_sections(encode(text[:_SNIFF_CHARACTERS])) is not None


def find_config(finder: ConfigFinder, path: str) -> tuple[Config | None, str | None]:
    """The configuration the CLI would use for ``path``; a broken one is reported, not used
    (the CLI stops with exit status 2; an editor keeps linting)."""
    try:
        return finder.for_path(path), None
    except ConfigError as exc:
        return None, str(exc)
    except (OSError, ValueError) as exc:
        return None, f"{path}: cannot look for a configuration: {exc}"


def lint_text(text: str, path: str, finder: ConfigFinder, settings: Settings,
              display: str | None = None) -> Linted:
    """Lint ``text`` as the CLI lints the file ``path`` holding it (its findings carry
    ``display`` when given: an unsaved buffer's name)."""
    data = encode(text)
    shown = path if display is None else display
    config, problem = find_config(finder, path)
    try:
        resolved = resolve(settings, config, path)
        if not_darknet(text):
            result = FileResult(shown, None, "not a Darknet cfg", [])
        elif len(data) > MAX_CFG_BYTES:
            result = failed(shown, "too large to lint in the editor")
        else:
            result = analyse(data, shown, resolved)
        finish(result, resolved)
    except RecursionError:
        result = failed(shown, "the file nests too deeply to analyse")
    except Exception as exc:  # a bug in dnlint must not take the server down
        result = failed(shown, f"dnlint failed on this file ({type(exc).__name__}: {exc})")
    return Linted(data, result, config, problem)


def fixed_text(text: str, path: str, finder: ConfigFinder, settings: Settings,
               display: str | None = None) -> str | None:
    """The text ``dnlint --fix`` (safe fixes only) makes of ``text``, or None when it changes
    nothing or cannot be fixed."""
    data = encode(text)
    if len(data) > MAX_CFG_BYTES or b"\0" in data:
        return None
    config, _ = find_config(finder, path)
    try:
        resolved = resolve(settings, config, path)
        fixed = fix_document(data, path if display is None else display, resolved)
    except Exception:  # a fix that fails is no fix: the document stays as it is
        return None
    if not fixed.changed:
        return None
    try:
        return fixed.data.decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        return None


def config_names() -> tuple[str, ...]:
    from dnlint.settings.config import CONFIG_NAMES

    return CONFIG_NAMES


def is_config_file(path: str) -> bool:
    return os.path.basename(path) in config_names()
