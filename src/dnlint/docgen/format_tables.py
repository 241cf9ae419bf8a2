"""The option tables of ``docs/darknet-format.md``, generated from the option declarations.

    python -m dnlint.docgen.format_tables           # print the generated block
    python -m dnlint.docgen.format_tables --write   # replace it in docs/darknet-format.md
    python -m dnlint.docgen.format_tables --write PATH

``python -m dnlint.docgen --write`` does this too, with every other generated page.

The rest of that page is written by hand; only the text between :data:`BEGIN` and :data:`END` is
generated, so the tables cannot drift from what dnlint checks. ``tests/test_format_doc.py``
fails when the committed block is stale.
"""

from __future__ import annotations

import sys
from pathlib import Path

from dnlint.dialects import Dialect
from dnlint.network.layers import all_types
from dnlint.network.layers.base import LayerType
from dnlint.options.net_section import NET_OPTIONS
from dnlint.options.schema import GENERIC_LAYER_OPTIONS, Opt

BEGIN = "<!-- BEGIN GENERATED OPTIONS: python -m dnlint.docgen.format_tables --write -->"
END = "<!-- END GENERATED OPTIONS -->"
DEFAULT_PATH = Path("docs") / "darknet-format.md"
ORDER = (Dialect.PJ, Dialect.AB, Dialect.HANK)
SHORT = {Dialect.PJ: "pj", Dialect.AB: "ab", Dialect.HANK: "hank"}


def _dialects(dialects: frozenset[Dialect]) -> str:
    if dialects == frozenset(ORDER):
        return "all"
    return ", ".join(SHORT[d] for d in ORDER if d in dialects)


def _value(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _default(opt: Opt) -> str:
    values = {d: _value(opt.default_for(d)) for d in ORDER if d in opt.dialects}
    if len(set(values.values())) <= 1:
        return next(iter(values.values()), "—")
    return "; ".join(f"{SHORT[d]} {v}" for d, v in values.items())


def _limits(opt: Opt) -> str:
    parts = []
    if opt.required:
        parts.append("required")
    if opt.min is not None:
        parts.append(f"≥ {_value(opt.min)}")
    if opt.max is not None:
        parts.append(f"≤ {_value(opt.max)}")
    if opt.choices is not None:
        names = sorted({name for d in ORDER for name in opt.choices_for(d) or ()})
        parts.append(", ".join(names))
    if opt.stops_at_hash:
        parts.append("ab counts items up to the first '#'")
    return _cell("; ".join(parts))


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _table(options: tuple[Opt, ...] | list[Opt]) -> list[str]:
    lines = ["| option | type | default | dialects | limits | notes |",
             "|---|---|---|---|---|---|"]
    lines += [f"| `{o.name}` | {o.kind} | {_default(o)} | {_dialects(o.dialects)} | "
              f"{_limits(o)} | {_cell(o.doc)} |" for o in options]
    return lines


def _sections(layer_type: LayerType) -> str:
    names = sorted({n for d in ORDER for n in layer_type.sections.get(d, ())})
    return ", ".join(
        f"`[{n}]` ({_dialects(frozenset(d for d in ORDER if n in layer_type.sections.get(d, ())))})"
        for n in names)


def render() -> str:
    types = all_types()
    lines = [BEGIN, "", '<a id="options-net"></a>', "", "#### `[net]` / `[network]`", ""]
    lines += _table(NET_OPTIONS)
    lines += ["", '<a id="options-every-layer"></a>', "", "#### Every layer section", ""]
    lines += _table(GENERIC_LAYER_OPTIONS)
    for layer_type in sorted(types, key=lambda t: t.name):
        own = [o for o in layer_type.options if o not in GENERIC_LAYER_OPTIONS]
        lines += ["", f'<a id="options-{layer_type.name}"></a>', "",
                  f"#### {layer_type.name}: {layer_type.doc}", "",
                  f"Sections: {_sections(layer_type)}. "
                  f"Shape and weights: [{layer_type.name}](#layer-{layer_type.name}).", ""]
        lines += _table(own) if own else ["No options of its own."]
    lines += ["", END]
    return "\n".join(lines)


def replace_block(page: str) -> str:
    head, found, rest = page.partition(BEGIN)
    if not found:
        raise ValueError(f"{DEFAULT_PATH} has no line {BEGIN!r}")
    _, found, tail = rest.partition(END)
    if not found:
        raise ValueError(f"{DEFAULT_PATH} has no line {END!r}")
    return head + render() + tail


def main(argv: list[str]) -> int:
    if argv and argv[0] == "--write":
        target = Path(argv[1]) if len(argv) > 1 else DEFAULT_PATH
        target.write_text(replace_block(target.read_text(encoding="utf-8")), encoding="utf-8")
        return 0
    sys.stdout.write(render() + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
