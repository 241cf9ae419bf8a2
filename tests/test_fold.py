"""A rule of diagnostics.FOLDABLE lists its first FOLD_AFTER findings in a file and folds the
rest into one finding that counts them, unless the file holds a directive that could suppress
some (then every finding is listed, so suppression stays exact)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import SOURCES_ONLY
from dnlint.diagnostics import FOLD_AFTER, Severity, Sink
from dnlint.dialects import Dialect
from dnlint.lint import lint_cfg_bytes
from dnlint.network.build import Network
from dnlint.read.darknet_reader import CfgDocument, LexFinding, read_cfg
from dnlint.read.hank_reader import read_cfg_hank
from dnlint.result import FileResult
from dnlint.settings.policy import Policy, apply_policy, selection_for

NET = b"[net]\nwidth=8\nheight=8\nchannels=3\n"  # lines 1-4
UNKNOWN = 150  # unknown options x0..x149 on lines 7..156, in a [convolutional] at line 5


def _options_file(before: bytes = b"") -> bytes:
    return (NET + b"[convolutional]\nfilters=2\n"
            + b"".join(b"x%d=1\n" % i for i in range(UNKNOWN)) + before)


DEFAULT = Policy()


def _linted(data: bytes, policy: Policy = DEFAULT, fold: bool = True) -> FileResult:
    result = lint_cfg_bytes(data, "f.cfg", Dialect.AB, fold=fold)
    apply_policy(result, selection_for("f.cfg", policy, None))
    return result


def _remade(doc: CfgDocument) -> list[LexFinding]:
    """The structure pass's findings noted by line only, made again."""
    assert doc.remade is not None
    return list(doc.remade())


def _found(result: FileResult, code: str) -> list[tuple[int | None, str]]:
    return [(d.line, d.message) for d in result.diagnostics if d.code == code]


def _recorded_lints(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Dialect, Sink]]:
    """The dialect and the sink of every lint_document call from now on."""
    import dnlint.lint as lint

    lints: list[tuple[Dialect, Sink]] = []
    real = lint.lint_document

    def recording(doc: CfgDocument, dialect: Dialect, sink: Sink,
                  errors_only: bool = False) -> Network | None:
        lints.append((dialect, sink))
        return real(doc, dialect, sink, errors_only)

    monkeypatch.setattr(lint, "lint_document", recording)
    return lints


def test_unknown_options_past_the_first_hundred_are_counted() -> None:
    found = _found(_linted(_options_file()), "DN201")
    assert FOLD_AFTER == 100
    assert [line for line, _ in found] == [*range(7, 107), 107]
    assert found[0][1] == "unknown option 'x0' in [convolutional]; Darknet ignores it"
    assert found[-1][1] == ("50 more DN201 findings in this file (lines 107 to 156) are not "
                            "listed one by one: dnlint lists the first 100 of a rule per file")


def test_every_finding_is_listed_without_folding() -> None:
    found = _found(_linted(_options_file(), fold=False), "DN201")
    assert [line for line, _ in found] == list(range(7, 7 + UNKNOWN))


def test_a_file_that_mentions_dnlint_lists_every_finding() -> None:
    """A directive may suppress any of them: nothing is folded, suppression stays exact."""
    data = _options_file().replace(b"x3=1\n", b"# dnlint: disable-next-line=DN201\nx3=1\n")
    found = _found(_linted(data), "DN201")
    assert len(found) == UNKNOWN - 1  # all but the suppressed x3 (line 11)
    assert 11 not in [line for line, _ in found]
    assert all("more DN201" not in message for _, message in found)


def test_a_deselected_rule_lists_nothing_not_even_its_count() -> None:
    result = _linted(_options_file(), Policy(ignore=("DN201",)))
    assert _found(result, "DN201") == []


def test_the_count_takes_the_rules_severity_override() -> None:
    result = _linted(_options_file(), Policy(severity_override=(("DN201", Severity.ERROR),)))
    levels = {d.severity for d in result.diagnostics if d.code == "DN201"}
    assert levels == {Severity.ERROR} and len(_found(result, "DN201")) == FOLD_AFTER + 1


def test_unknown_sections_past_the_first_hundred_are_counted() -> None:
    result = _linted(NET + b"[x]\n" * 120)  # sections on lines 5..124
    found = _found(result, "DN020")
    assert [line for line, _ in found] == [*range(5, 105), 105]
    assert found[-1][1].startswith("20 more DN020 findings in this file (lines 105 to 124)")
    assert result.network is not None and len(result.network.layers) == 120


def test_a_rule_outside_the_foldable_ones_is_listed_whole() -> None:
    """DN024 (blanks inside a section header) is not folded: 120 of them are 120 findings."""
    data = (NET + b"[convolutional]\nfilters=2\n"
            + b"[ convolutional ]\nsize=1\nfilters=2\n" * 120)
    found = _found(_linted(data), "DN024")
    assert [line for line, _ in found] == [7 + 3 * i for i in range(120)]


def test_glued_numbers_past_the_first_hundred_are_counted_and_still_known_by_line() -> None:
    """DN028 folds, and the checks that compute with a glued value still see it on the lines
    it counts: no [yolo] of 110 says its mask '0,1 2' (read as 0,12) is out of range."""
    head = b"[net]\nwidth=32\nheight=32\nchannels=3\n[convolutional]\nfilters=18\n"
    yolo = b"[yolo]\nmask=0,1 2\nnum=3\nanchors=1,2,3,4,5,6\nclasses=1\n[route]\nlayers=0\n"
    result = _linted(head + yolo * 110)  # the masks on lines 8, 15, ..., 771
    found = _found(result, "DN028")
    assert [line for line, _ in found] == [*range(8, 708, 7), 708]
    assert found[-1][1].startswith("10 more DN028 findings in this file (lines 708 to 771)")
    assert _found(result, "DN402") == []


def test_repeated_net_sections_past_the_first_hundred_are_counted() -> None:
    """A second [net] (DN022) is an all-zero layer like an unknown section: a flood folds."""
    result = _linted(NET + b"[net]\n" * 130)  # sections on lines 5..134
    found = _found(result, "DN022")
    assert [line for line, _ in found] == [*range(5, 105), 105]
    assert found[-1][1].startswith("30 more DN022 findings in this file (lines 105 to 134)")


def test_sections_of_another_dialect_past_the_first_hundred_are_counted() -> None:
    """[scale_channels] exists only in AlexeyAB's fork (DN021 in the original)."""
    data = NET + b"[scale_channels]\nfrom=-1\n" * 110  # sections on lines 5, 7, ..., 223
    result = lint_cfg_bytes(data, "f.cfg", Dialect.PJ)
    found = _found(result, "DN021")
    assert [line for line, _ in found] == [*range(5, 205, 2), 205]
    assert found[-1][1].startswith("10 more DN021 findings in this file (lines 205 to 223)")


@pytest.mark.parametrize(("line", "code"), [
    (b"pad", "DN006"),  # no '=': a bare key
    (b"pad=", "DN007"),  # an empty value
    (b"=1", "DN008"),  # no key
    (b"//c", "DN035"),  # a '//' line
    (b"filters=2", "DN009"),  # a repeated key
])
def test_lines_darknet_ignores_past_the_first_hundred_are_counted(line: bytes, code: str) -> None:
    data = NET + b"[convolutional]\nfilters=2\n" + (line + b"\n") * 150  # lines 7..156
    found = _found(_linted(data), code)
    assert [at for at, _ in found] == [*range(7, 107), 107]
    assert found[-1][1].startswith(f"50 more {code} findings in this file (lines 107 to 156)")
    assert len(_found(_linted(data, fold=False), code)) == 150


def _malformed_headers() -> bytes:
    """150 malformed headers on lines 5..154, of each kind DN019 names in turn: '[' alone,
    '[]', text after ']', and no ']' after blanks (its '[' at column 3)."""
    kinds = (b"[", b"[]", b"[conv]x", b"  [maxpool")
    return NET + b"".join(kinds[i % 4] + b"\n" for i in range(150))


def test_malformed_headers_past_the_first_hundred_are_counted() -> None:
    result = _linted(_malformed_headers())
    found = _found(result, "DN019")
    assert [line for line, _ in found] == [*range(5, 105), 105]
    assert found[-1][1].startswith("50 more DN019 findings in this file (lines 105 to 154)")
    assert result.network is not None and len(result.network.layers) == 150


def test_malformed_headers_past_the_first_hundred_are_kept_by_line_and_said_alike() -> None:
    """The reader lists the first hundred and keeps only the line of the others; said again
    from their lines, they are the findings it would have listed."""
    data = _malformed_headers()
    doc = read_cfg(data)
    assert [f.line for f in doc.findings if f.code == "DN019"] == list(range(5, 105))
    assert doc.unlisted is not None
    assert {code: list(lines) for code, lines in doc.unlisted.items()} == {
        "DN019": list(range(105, 155))}
    found = [(d.line, d.column, d.message, d.hint)
             for d in _linted(data, fold=False).diagnostics if d.code == "DN019"]
    assert [line for line, *_ in found] == list(range(5, 155))
    assert found[100:104] == [
        (105, 1, "section header '[' has no closing ']'", None),
        (106, 1, "section header '[]' names no section", None),
        (107, 1, "text 'x' after ']': Darknet takes the whole line '[conv]x' as the section "
                 "name, which matches no layer type (hank-ai's Darknet ignores the text)",
         "put comments on a line of their own above [conv]"),
        (108, 3, "section header '[maxpool' has no closing ']'", None)]
    # the first (line 5) says AlexeyAB's SIGFPE too: every layer is zeroed
    assert all(found[i][1:] == found[i - 100][1:] for i in range(101, 150))


@pytest.mark.parametrize("tail", [b"x\0\n", b"x=1\r\n"])
def test_malformed_headers_of_a_file_with_a_nul_or_a_cr_are_all_listed_by_the_reader(
        tail: bytes) -> None:
    """A NUL glues lines (fgetl), and CRs are cut from the lines the document keeps: a line's
    text is not what the reader read, so none is left to be said again from its line."""
    doc = read_cfg(_malformed_headers() + tail)
    assert doc.unlisted is None
    assert [f.line for f in doc.findings if f.code == "DN019"] == list(range(5, 155))


@pytest.mark.parametrize(("line", "code"), [(b"=", "DN008"), (b"[", "DN019"), (b"//", "DN035"),
                                          (b"[a]b", "DN019")])
def test_hanks_reader_notes_a_flood_of_one_lines_finding_by_line_too(line: bytes,
                                                                      code: str) -> None:
    data = NET + b"[convolutional]\nfilters=2\n" + (b"  " + line + b"\n") * 150
    doc = read_cfg_hank(data)
    assert [f.line for f in doc.findings if f.code == code] == list(range(7, 107))
    assert doc.unlisted is not None and list(doc.unlisted[code]) == list(range(107, 157))
    found = [(d.line, d.column, d.message, d.hint)
             for d in lint_cfg_bytes(data, "f.cfg", Dialect.HANK, fold=False).diagnostics
             if d.code == code]
    assert [at for at, *_ in found] == list(range(7, 157))
    assert found[0][1] == 3
    assert all(finding[1:] == found[0][1:] for finding in found)


# one line of each rule the lexer says again from the line alone, and its finding in full
REREAD = [
    (b"pad=", ("DN007", 1, "option 'pad' has an empty value; Darknet drops the line "
               "('Config file error') and uses the default")),
    (b"  =", ("DN007", 3, "option '' has an empty value; Darknet drops the line "
              "('Config file error') and uses the default")),
    (b"ac tivation=leaky", ("DN010", 3, "whitespace inside 'ac tivation': Darknet deletes it "
                            "and reads 'activation' (hank-ai's Darknet keeps it)")),
    (b"mask=0,1 2", ("DN028", 9, "'1 2': Darknet deletes the space and reads the single "
                     "number '12' (a missing comma?)")),
    (b"  //c", ("DN035", 3, "a line that starts with '//': Darknet has no '//' comments and "
                "keeps the line as an option no layer reads (Darknet prints 'Unused field'); "
                "'#' is a comment")),
    (b"[a]b", ("DN019", 1, "text 'b' after ']': Darknet takes the whole line '[a]b' as the "
               "section name, which matches no layer type (hank-ai's Darknet ignores the "
               "text)")),
]


@pytest.mark.parametrize(("line", "expected"), REREAD)
def test_a_lines_finding_past_the_first_hundred_is_made_again_from_the_line(
        line: bytes, expected: tuple[str, int, str]) -> None:
    """150 such lines under a [yolo] (lines 7..156): the reader lists 100 and notes the
    lines of the rest; every finding of the rule, listed or made again, is the same."""
    data = NET + b"[yolo]\nclasses=1\n" + (line + b"\n") * 150
    code = expected[0]
    doc = read_cfg(data)
    assert [f.line for f in doc.findings if f.code == code] == list(range(7, 107))
    assert doc.unlisted is not None and list(doc.unlisted[code]) == list(range(107, 157))
    found = [(d.code, d.line, d.column, d.message, d.hint)
             for d in lint_cfg_bytes(data, "f.cfg", Dialect.PJ, fold=False).diagnostics
             if d.code == code]
    assert [at for _, at, *_ in found] == list(range(7, 157))
    assert found[0][2:4] == expected[1:]
    assert all(finding[2:] == found[0][2:] for finding in found)


@SOURCES_ONLY
def test_a_repeated_line_with_blanks_is_looked_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """blank_finding runs once per text: 150 'mask=0,1 2' lines and 150 'ac tivation=leaky'
    lines, interleaved, make two calls; the 101st and later of each rule are noted by line
    only, never made, and the lint says what it said when each line was looked at."""
    import dnlint.read.darknet_reader as reader

    data = NET + b"[yolo]\nclasses=1\n" + b"mask=0,1 2\nac tivation=leaky\n" * 150
    texts = ["mask=0,1 2", "ac tivation=leaky"] * 150
    afresh = [(f.code, f.line, f.column, f.message) for f in (
        reader.blank_finding(text, text.find("="), number)
        for number, text in enumerate(texts, start=7)) if f is not None]
    calls: list[int] = []
    made: list[int] = []
    blank_finding, finding = reader.blank_finding, reader.LexFinding

    def counted(text: str, raw_eq: int, number: int) -> LexFinding | None:
        calls.append(number)
        return blank_finding(text, raw_eq, number)

    def making(*args: object, **kwargs: object) -> LexFinding:
        made.append(1)
        return finding(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(reader, "blank_finding", counted)
    monkeypatch.setattr("dnlint.read.notes.LexFinding", making)
    doc = read_cfg(data)
    assert calls == [7, 8]
    assert len(made) == 2 * (FOLD_AFTER - 1) + 2  # the listed copies and each first noted
    assert doc.unlisted is not None
    assert list(doc.unlisted["DN028"]) == list(range(7 + 2 * FOLD_AFTER, 307, 2))
    assert list(doc.unlisted["DN010"]) == list(range(8 + 2 * FOLD_AFTER, 307, 2))
    monkeypatch.undo()
    assert [(d.code, d.line, d.column, d.message) for d in
            lint_cfg_bytes(data, "f.cfg", Dialect.PJ, fold=False).diagnostics
            if d.code in ("DN010", "DN028")] == afresh


@pytest.mark.parametrize("end", [b"\n", b"\r\n"])
def test_bare_keys_past_the_first_hundred_are_noted_and_made_again_from_their_options(
        end: bytes) -> None:
    """A bare key's DN006 is the structure pass's: the first bare 'pad' (line 7) is kept whole,
    as it names the line it hides (157); of the repeats, 99 are listed and the rest noted by
    line, made again from the option on the line (CRs or not: the option says where it is)."""
    data = NET + b"[yolo]\nclasses=1\n" + (b"  pad" + end) * 150 + b"pad=1\n"
    doc = read_cfg(data)
    assert [f.line for f in doc.findings if f.code == "DN006"] == list(range(7, 107))
    assert [f.line for f in _remade(doc)] == list(range(107, 157))
    found = [(d.line, d.column, d.message, d.hint)
             for d in lint_cfg_bytes(data, "f.cfg", Dialect.PJ, fold=False).diagnostics
             if d.code == "DN006"]
    assert [line for line, *_ in found] == list(range(7, 157))
    message = ("line 'pad' has no '='; Darknet stores it as a key with no value, ignores it "
               "and lets it hide any later line with the same key")
    assert found[0][1:] == (3, message + "; here it hides line 157 ('pad=1')", "write key=value")
    assert all(finding[1:] == (3, message, "write key=value") for finding in found[1:])
    folded = _found(_linted(data), "DN006")
    assert [line for line, _ in folded] == [*range(7, 107), 107]
    assert folded[-1][1].startswith("50 more DN006 findings in this file (lines 107 to 156)")


def test_the_first_bare_line_of_a_later_key_is_kept_whole_and_counted_in_place() -> None:
    """150 bare 'a' lines, then 150 bare 'b' (lines 7..306): 'b's first line is kept whole
    after 'a's repeats were noted; the count still spans the lines in file order."""
    data = NET + b"[yolo]\nclasses=1\n" + b"a\n" * 150 + b"b\n" * 150
    doc = read_cfg(data)
    assert [f.line for f in doc.findings if f.code == "DN006"] == [*range(7, 107), 157]
    assert [f.line for f in _remade(doc)] == [*range(107, 157), *range(158, 307)]
    whole = _found(_linted(data, fold=False), "DN006")
    assert [line for line, _ in whole] == list(range(7, 307))
    folded = _found(_linted(data), "DN006")
    assert [line for line, _ in folded] == [*range(7, 107), 107]
    assert folded[-1][1].startswith("200 more DN006 findings in this file (lines 107 to 306)")


def test_repeated_keys_past_the_first_hundred_are_noted_and_made_again_alike() -> None:
    """'filters=2' then 'filters=3', 75 times each, after a first 'filters=2' (line 6): the
    structure pass lists 100 DN009 and notes the other 50 by line. Made again, each is what it
    would have been: a warning for the same value, an error for another. The sink folds per
    rule and severity, so 75 of each is listed whole."""
    data = NET + b"[convolutional]\nfilters=2\n" + b"filters=2\nfilters=3\n" * 75
    doc = read_cfg(data)
    assert [f.line for f in doc.findings if f.code == "DN009"] == list(range(7, 107))
    assert [f.line for f in _remade(doc)] == list(range(107, 157))
    for fold in (True, False):
        found = [(d.line, d.column, d.severity, d.message, d.hint)
                 for d in lint_cfg_bytes(data, "f.cfg", Dialect.PJ, fold=fold).diagnostics
                 if d.code == "DN009"]
        assert [line for line, *_ in found] == list(range(7, 157))
        assert all(found[i][1:] == found[i - 100][1:] for i in range(100, 150))
    assert found[0][1:] == (
        1, Severity.WARNING, "'filters=2' is repeated in [convolutional] with the same value "
        "(first at line 6); Darknet reads the first, which says the same, but an edit to one "
        "of the two will be silently ignored", "delete the repeated line")
    assert found[1][1:] == (
        1, Severity.ERROR, "'filters' is repeated in [convolutional] (first at line 6); "
        "Darknet uses the first one and ignores this", "delete one of the two lines")


@SOURCES_ONLY
def test_a_folded_finding_is_counted_without_being_made(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Past the first hundred, a folded rule's finding is not built and thrown away: a file of
    a million unknown sections made a million Diagnostic objects for one counted line."""
    import dnlint.diagnostics as diagnostics

    made: list[str] = []
    real = diagnostics.new_diagnostic

    def counting(code: str, *args: object, **kwargs: object) -> diagnostics.Diagnostic:
        made.append(code)
        return real(code, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(diagnostics, "new_diagnostic", counting)
    result = _linted(NET + b"[x]\n" * 300)
    assert made.count("DN020") == FOLD_AFTER + 1  # the listed ones and the one that counts
    assert _found(result, "DN020")[-1][1].startswith("200 more DN020 findings")


@SOURCES_ONLY
def test_unknown_sections_alone_need_no_lint_in_the_other_fork(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """DN020 and DN022 hold in both forks by construction (no fork knows the section; a second
    [net] is an all-zero layer in both), so a guessed dialect does not lint the file again to
    find out: that second lint was half of a file of unknown sections."""
    lints = _recorded_lints(monkeypatch)
    result = lint_cfg_bytes(NET + b"[x]\n[net]\n", "f.cfg")  # dialect guessed
    assert [dialect for dialect, _ in lints] == [Dialect.AB]
    assert [(d.code, d.line, d.message) for d in result.diagnostics
            if d.severity is Severity.ERROR] == [
        ("DN020", 5, "unknown section [x]: Darknet prints 'Type not recognized' and builds an "
                     "all-zero layer in its place; that layer is 0x0 and no other is wider and "
                     "taller than 1, so AlexeyAB's Darknet then divides by zero at the end of "
                     "parse_network_cfg (avg_outputs / avg_counter) and dies of SIGFPE"),
        ("DN022", 6, "a second [net] section: Darknet builds it as an unknown, all-zero layer"),
    ]
    lints.clear()
    lint_cfg_bytes(NET + b"[x]\n[route]\nlayers=9\n", "f.cfg")
    assert [dialect for dialect, _ in lints] == [Dialect.AB, Dialect.PJ]  # the other is asked


@SOURCES_ONLY
def test_a_suggestion_is_worked_out_only_for_a_listed_finding(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """difflib per unknown option made a file of 600,000 of them take over a minute: past the
    first hundred (counted, not listed) and in the other fork's lint (which only asks which
    lines fail) no suggestion is looked for."""
    import dnlint.options.value_checks as value_checks

    asked: list[str] = []
    real = value_checks.suggest

    def counting(word: str, candidates: object) -> str | None:
        asked.append(word)
        return real(word, candidates)  # type: ignore[arg-type]

    monkeypatch.setattr(value_checks, "suggest", counting)
    # a route out of range: an error that may hold in one fork only, so both forks lint it
    data = _options_file() + b"[route]\nlayers=9\n"
    result = lint_cfg_bytes(data, "f.cfg")  # dialect guessed
    assert asked == [f"x{i}" for i in range(FOLD_AFTER)]
    assert len(_found(result, "DN201")) == FOLD_AFTER + 1
    asked.clear()
    lint_cfg_bytes(data, "f.cfg", Dialect.AB, fold=False)  # --fix: every finding in full
    assert asked == [f"x{i}" for i in range(UNKNOWN)]


@SOURCES_ONLY
def test_the_other_forks_lint_keeps_a_flood_as_lines(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The other fork's lint only answers which lines fail: it folds like any lint but keeps
    the line of each counted finding, so that no finding the first lint lists (nor its count)
    is said to hold in one fork only when both report it."""
    lints = _recorded_lints(monkeypatch)
    data = _options_file() + b"[route]\nlayers=9\n"
    result = lint_cfg_bytes(data, "f.cfg")  # dialect guessed: both forks lint it
    assert len(lints) == 2
    other = lints[1][1]
    assert sum(d.code == "DN201" for d in other.items) == FOLD_AFTER
    assert other.counted_error_at("DN201", 156) and not other.counted_error_at("DN201", 157)
    found = _found(result, "DN201")
    assert len(found) == FOLD_AFTER + 1
    assert not any("only in" in message for _, message in found)  # both forks report them all
    route = next(d for d in result.diagnostics if d.code == "DN302")
    assert "only in" not in route.message


def test_a_sink_without_detail_keeps_the_lines_it_counts() -> None:
    """What the other fork's lint is asked, without watching it: the lines that fail there."""
    sink = Sink(fold=True, detail=False)
    for line in range(1, 151):
        assert not sink.detailed("DN201")
        sink.report("DN201", line, 1, "unknown option", severity=Severity.ERROR)
    assert [d.line for d in sink.items] == list(range(1, FOLD_AFTER + 1))
    assert sink.counted_errors()
    assert all(sink.counted_error_at("DN201", line) for line in range(FOLD_AFTER + 1, 151))
    assert not sink.counted_error_at("DN201", 151) and not sink.counted_error_at("DN201", 50)
    assert not sink.counted_error_at("DN020", 120)


@pytest.mark.parametrize("detail", [True, False])
def test_lines_counted_at_once_count_as_one_at_a_time(detail: bool) -> None:
    """Sink.count_more counts a packed array of lines (the lexer's, type code 'L', or any
    sequence) as report() would one finding at a time: the count, the span, the first
    line's place and each line (kept for DN028 by any sink), also after an earlier one."""
    from array import array

    def sink_with(more: Callable[[Sink], None]) -> Sink:
        sink = Sink(fold=True, detail=detail)
        for line in range(1, FOLD_AFTER + 2):
            sink.report("DN028", line, 3, "glued numbers", severity=Severity.ERROR)
        more(sink)
        return sink

    def one_at_a_time(sink: Sink) -> None:
        for line in [*range(200, 300), *range(400, 410), 150]:
            sink.report("DN028", line, None, "glued numbers", severity=Severity.ERROR)

    def at_once(sink: Sink) -> None:
        assert sink.count_more("DN028", Severity.ERROR, array("L", range(200, 300)))
        assert sink.count_more("DN028", Severity.ERROR, list(range(400, 410)))
        assert sink.count_more("DN028", Severity.ERROR, array("L", [150]))

    counted, made = sink_with(at_once), sink_with(one_at_a_time)
    summary = [(d.line, d.column, d.message) for d in counted.sorted()]
    assert summary == [(d.line, d.column, d.message) for d in made.sorted()]
    assert "112 more DN028 findings in this file (lines 101 to 409)" in summary[-1][2]
    asked = [150, 151, 250, 300, 405, 410]
    assert ([counted.counted_at("DN028", [line]) for line in asked]
            == [made.counted_at("DN028", [line]) for line in asked]
            == [True, False, True, False, True, False])  # DN028 keeps its lines (MISREAD_CODES)
    assert counted.made == made.made


# floods of the structure pass's noted findings: bare keys, repeats of one value (a warning
# in pjreddie's and AlexeyAB's forks) and of another (an error), keys a bare line hides
STRUCTURE_FLOODS = [
    NET + b"[yolo]\nclasses=1\n" + b"  pad\n" * 150 + b"pad=1\n",
    NET + b"[convolutional]\nsize=1\n" + b"size=1\nsize=3\nsize=1\n" * 100,
    NET + b"[convolutional]\n" + b"".join(b"k%d\n" % i for i in range(150))
    + b"".join(b"k%d=1\n" % i for i in range(150)) + b"size=3\n" * 120,
    (NET + b"[convolutional]\nstride=1\n" + b"stride=1\n" * 150 + b"[maxpool]\nsize=2\n"
     + b"size = 2\n" * 150),
]


@SOURCES_ONLY
@pytest.mark.parametrize("data", STRUCTURE_FLOODS)
@pytest.mark.parametrize("dialect", [None, Dialect.PJ, Dialect.AB])  # hank-ai's reader has
def test_noted_structure_findings_are_counted_as_made(  # no structure pass of this kind
        data: bytes, dialect: Dialect | None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folding lint counts the structure pass's noted findings (DN006, DN009) where their
    rule already counts, without making them: the report is what making each gave, and
    each rule's noted findings are made at most once per severity and lint."""
    import dnlint.lint as lint
    import dnlint.read.structure as structure

    def report(result: FileResult) -> list[tuple[object, ...]]:
        return [(d.code, d.line, d.column, d.message, d.hint, d.severity)
                for d in result.diagnostics]

    with monkeypatch.context() as patch:
        patch.setattr(lint, "_counter", lambda dialect, sink: None)  # each one made
        made = report(lint_cfg_bytes(data, "f.cfg", dialect, fold=True))
    calls: list[int] = []
    linting: list[bool] = []  # made in a lint, not by the structure pass for its list
    for name in ("bare_key_finding", "repeated_key_finding"):
        real = getattr(structure, name)
        monkeypatch.setattr(structure, name, lambda *args, real=real: (
            linting and calls.append(args[0].line), real(*args))[1])
    real_lint = lint.lint_document

    def in_lint(doc: CfgDocument, dialect: Dialect, sink: Sink,
                errors_only: bool = False) -> Network | None:
        linting.append(True)
        try:
            return real_lint(doc, dialect, sink, errors_only)
        finally:
            linting.pop()

    monkeypatch.setattr(lint, "lint_document", in_lint)
    result = lint_cfg_bytes(data, "f.cfg", dialect, fold=True)
    assert report(result) == made
    noted = {finding.line for finding in _remade(read_cfg(data))}  # outside a lint
    assert noted
    # a noted finding is made where the lint lists it, and the first of each rule and
    # severity it counts (two lints when the dialect is guessed); the others are counted
    listed = {d.line for d in result.diagnostics
              if d.code in ("DN006", "DN009") and "not listed" not in d.message}
    made_to_count = [line for line in calls if line not in listed]
    assert len(made_to_count) <= 2 * 2 * (2 if dialect is None else 1)
    assert len(made_to_count) < len(noted - listed)


def test_counted_findings_out_of_file_order_are_still_found_and_spanned() -> None:
    """A later stage may report a rule's finding above those already counted (the reader's
    DN028 and a build-time one): the lines asked about are found, and the summary spans them."""
    sink = Sink(fold=True, detail=False)
    order = [*range(1, FOLD_AFTER + 1), 500, 400, 600, 300]
    for line in order:
        sink.report("DN028", line, 3, "glued numbers", severity=Severity.ERROR)
    assert [sink.counted_at("DN028", [line]) for line in (300, 400, 500, 600)] == [True] * 4
    assert not sink.counted_at("DN028", [450]) and not sink.counted_at("DN028", [FOLD_AFTER])
    sink.report("DN028", 200, 3, "glued numbers", severity=Severity.ERROR)  # after a question
    assert sink.counted_error_at("DN028", 200) and not sink.counted_error_at("DN028", 201)
    (summary,) = [d for d in sink.sorted() if "not listed" in d.message]
    assert (summary.line, summary.column) == (200, 3)  # the first line it counts
    assert "5 more DN028 findings in this file (lines 200 to 600)" in summary.message


def test_a_sink_with_detail_asks_for_it_up_to_the_fold() -> None:
    folding, whole = Sink(fold=True), Sink()
    for line in range(1, 131):
        assert folding.detailed("DN201") == (line <= FOLD_AFTER) and whole.detailed("DN201")
        folding.report("DN201", line, 1, "unknown option")
        whole.report("DN201", line, 1, "unknown option")
    assert folding.detailed("DN006")  # not a folded rule
    assert len(folding.items) == FOLD_AFTER and len(whole.items) == 130
    assert not folding.counted_error_at("DN201", 120)  # counted, but its lines not kept


def test_a_count_of_findings_both_forks_report_is_not_said_to_hold_in_one() -> None:
    """The folded DN201 count of a guessed dialect, whose errors are checked in the other fork
    too, is not annotated 'only in AlexeyAB's': the other fork counts the same lines."""
    result = lint_cfg_bytes(_options_file() + b"[route]\nlayers=9\n", "f.cfg")
    found = _found(result, "DN201")
    assert len(found) == FOLD_AFTER + 1 and found[-1][1].startswith("50 more DN201 findings")
    assert not any("only in" in message for _, message in found)


# --- counted without being read again --------------------------------------------------------

NOTED_FLOODS = {
    "DN019": NET + b"[\n" * 300,
    "DN028": NET + b"[convolutional]\n" + b"a=1 2\n" * 300,
    "DN010": NET + b"[convolutional]\n" + b"".join(b"k%d=a b\n" % i for i in range(300)),
    "DN035": NET + b"[convolutional]\n" + b"//x=1\n" * 300,
}


def _lint_counting_rereads(data: bytes, dialect: Dialect,
                           templates: bool) -> tuple[list[tuple[object, ...]], int]:
    """The folded findings of one lint of ``data``, and how many lines were read again;
    ``templates=False`` reads every noted line again, as before the first noted ones were
    kept."""
    from dnlint.lint import lint_document

    doc = read_cfg(data)
    if not templates:
        doc.first_noted = None
    reader = doc.reread
    assert reader is not None
    lines_read = 0

    def counting() -> Callable[[str, int], list[LexFinding]]:
        read = reader()

        def one(text: str, number: int) -> list[LexFinding]:
            nonlocal lines_read
            lines_read += 1
            return read(text, number)
        return one

    doc.reread = counting
    sink = Sink("f.cfg", fold=True)
    lint_document(doc, dialect, sink)
    return [(d.code, d.line, d.column, d.severity, d.message) for d in sink.sorted()], lines_read


@pytest.mark.parametrize("code", sorted(NOTED_FLOODS))
@pytest.mark.parametrize("dialect", list(Dialect))
def test_noted_findings_are_counted_without_reading_their_lines_again(
        code: str, dialect: Dialect) -> None:
    """Past a rule's first hundred, a folding lint reports the first noted finding as it was
    made and counts the others by their lines: the same findings as reading each line again
    (DN010 is an error for hank-ai's), and no line read again."""
    data = NOTED_FLOODS[code]
    noted = read_cfg(data).unlisted
    assert noted is not None and len(noted[code]) == 200
    first, last = noted[code][0], noted[code][-1]
    fast, read_fast = _lint_counting_rereads(data, dialect, templates=True)
    slow, read_slow = _lint_counting_rereads(data, dialect, templates=False)
    assert (read_fast, read_slow) == (0, 200)
    assert fast == slow
    summary = [found for found in fast if found[0] == code][-1]
    assert summary[1] == first
    assert str(summary[4]).startswith(
        f"200 more {code} findings in this file (lines {first} to {last})")


def test_noted_findings_that_hold_differently_are_read_again() -> None:
    """A rule whose noted findings differ in where or how they hold keeps no first one: each
    line is read again to learn its own."""
    from dnlint.read.document import LexFinding
    from dnlint.read.notes import FindingNotes

    notes = FindingNotes([])
    for line in range(1, FOLD_AFTER + 1):
        notes.add(LexFinding("DN010", line, 1, "m"))
    assert notes.first_noted is None  # nothing noted yet: no table either
    for line in range(FOLD_AFTER + 1, FOLD_AFTER + 3):
        notes.add(LexFinding("DN010", line, 1, "m"))
    assert notes.first_noted is not None and notes.first_noted["DN010"] is not None
    notes.add(LexFinding("DN010", FOLD_AFTER + 3, 1, "m", by_dialect={Dialect.HANK:
                                                                      Severity.ERROR}))
    assert notes.first_noted["DN010"] is None
    notes.add(LexFinding("DN010", FOLD_AFTER + 4, 1, "m"))
    assert notes.first_noted["DN010"] is None  # once mixed, always read again
