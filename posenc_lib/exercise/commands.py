"""The exercise's starter: a tiny command language that combines your pieces.

One command per line; blank lines and lines starting with ``#`` are ignored;
keywords are case-insensitive; numbers are separated by whitespace::

    TABLE <vocab_size> <d>   followed by vocab_size lines of d numbers
    TOKENS <id> <id> ...     the token sequence; the n-th token sits at position n
    LOOKUP <token_id>        prints row token_id of the table
    POSENC <pos>             prints PE[pos] for width d
    ADD <pos>                prints lookup(tokens[pos]) + PE[pos]
    SIM <p> <q>              prints PE[p] . PE[q]

Numbers are ASCII: an integer is the digits 0-9 with an optional sign (``+007``);
a table's number may have a decimal point and an exponent (``-.25``, ``2.5E+2``);
anything else (``1_0``, ``٣``, ``３``, ``0x10``, ``nan``) is refused by line and
column. A later TABLE or TOKENS replaces the earlier one. Each query prints one
line of numbers with 4 decimals. Lines end at ``\n``, ``\r\n`` or ``\r``.
"""

import math
import re

import numpy as np

from .. import embedding, positional
from ..formatting import format_number, format_numbers
from ..validation import (
    MAX_ARRAY_BYTES,
    check_callable,
    check_d_model,
    check_index,
    check_integer,
    check_seconds,
    check_token_ids,
    describe,
)
from ._checking import close, dtype_problem, imported, rounding_problem, type_problem
from .guard import Guard
from .reports import describe as describe_value
from .reports import read_report, serve_calls, why

__all__ = ["MAX_OUTPUT_LINES", "MAX_SCRIPT_CHARS", "CommandError", "run_commands"]

_INTEGER = re.compile(r"[+-]?[0-9]+")  # the grammar's two number forms, ASCII only
_NUMBER = re.compile(r"[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?")
_FORMS = {
    _INTEGER: "an integer, in the digits 0-9",
    _NUMBER: "a number, in the digits 0-9 (like 0.5, -2 or 1e-3)",
}
MAX_SCRIPT_CHARS = 8 * 2**20  # 8 MiB: 1000 rows of 512 numbers take about 5 MB
MAX_OUTPUT_LINES = 10**6  # and 256 MiB (MAX_ARRAY_BYTES): what run_commands returns
_USAGE = {u.split()[0]: u for u in [
    "TABLE <vocab_size> <d>", "TOKENS <id> <id> ...", "LOOKUP <token_id>",
    "POSENC <pos>", "ADD <pos>", "SIM <p> <q>",
]}  # fmt: skip
_SAID = {  # how a call that did not answer is told
    "error": "raised {}", "ended": "ended the process running it ({})",
    "timeout": "gave {}", "answer": "returned {}",
}  # fmt: skip
_LIBRARY = {"lookup": embedding.lookup, "pos_encoding": positional.pos_encoding}


class CommandError(ValueError):
    """A bad line in a command script; the message starts with ``line N:``.

    ``line`` is its 1-based number; ``output``, the lines printed before it.
    """

    def __init__(self, line, message, column=None):
        where = f"line {line}" + ("" if column is None else f", column {column}")
        super().__init__(f"{where}: {message}")
        self.line, self.column, self.output = line, column, []


def _excerpt(text, limit=20):
    """``repr(text)``, or its first ``limit`` characters and its length."""
    long = len(text) > limit
    return f"{text[:limit]!r}... ({len(text)} characters)" if long else repr(text)


def _meaningful_lines(text):
    """``(number, line)`` of each line not blank nor a comment (trailing spaces
    dropped); lines end at ``\n``, ``\r\n`` or ``\r`` only (not at form feeds)."""
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.rstrip()
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line


class _Interpreter:
    """Runs the lines of one script, holding the table and the tokens;
    ``ask(name, args)`` reports a call of ``lookup`` or ``pos_encoding``."""

    def __init__(self, ask):
        self.ask = ask
        self.table = self.tokens = self.number = self.command = None

    def fail(self, message, number=None, column=None):
        raise CommandError(number or self.number, message, column)

    def refuse(self, word, index, what, form, line=None, tail=""):
        """Fail, by line and column, unless ``word`` (word ``index`` of this line,
        or of ``line``: (number, text)) is of ``form``, a regex of _FORMS."""
        if form.fullmatch(word) is None:
            number, text = line or (None, self.line)
            column = [m.start() + 1 for m in re.finditer(r"\S+", text)][index]
            message = f"{what} == {_excerpt(word)}, must be {_FORMS[form]}{tail}."
            self.fail(message, number, column)

    def check(self, helper, *args, **kwargs):
        """Run a validation helper; its error becomes this line's CommandError."""
        try:
            return helper(*args, **kwargs)
        except (TypeError, ValueError) as exc:
            self.fail(f"{self.command}: {exc}")

    def run(self, text, bounded=False):
        """Yield each printed line; raise CommandError at the first bad line (and,
        if ``bounded``, past MAX_OUTPUT_LINES lines or MAX_ARRAY_BYTES characters)."""
        lines, printed, chars = _meaningful_lines(text), 0, 0
        for self.number, self.line in lines:
            keyword, *args = self.line.split()
            self.command = keyword.upper()
            if self.command not in _USAGE:
                self.fail(self._unknown(keyword))
            if self.command == "TABLE":
                self._table(args, lines)
            elif self.command == "TOKENS":
                self._tokens(args)
            else:
                line = self._query(args)
                printed, chars = printed + 1, chars + len(line) + 1
                if bounded and (printed > MAX_OUTPUT_LINES or chars > MAX_ARRAY_BYTES):
                    self.fail(
                        f"the output passes {MAX_OUTPUT_LINES} lines or "
                        f"{MAX_ARRAY_BYTES} characters (256 MiB), the most "
                        "run_commands returns; `posenc run` prints any length."
                    )
                yield line

    def _unknown(self, keyword):
        if not _NUMBER.fullmatch(keyword):
            commands = ", ".join(_USAGE)
            return f"unknown command {_excerpt(keyword)}; expected one of {commands}."
        if self.table is None:
            return "a row of numbers outside a table; rows follow a TABLE line."
        vocab_size, d = self.table.shape
        return (
            f"a row of numbers after the table is complete; TABLE {vocab_size} {d} "
            f"on line {self.table_line} takes exactly {vocab_size} rows."
        )

    def _int_args(self, args, min_value, names=None):
        """The arguments as integers, each >= min_value, named as in the usage."""
        usage = _USAGE[self.command]
        names = re.findall(r"<(\w+)>", usage) if names is None else names
        if len(args) != len(names):
            plural = "s" * (len(names) > 1)
            got = f"got {len(args)} (usage: {usage})."
            self.fail(f"{self.command} takes {len(names)} argument{plural}, {got}")
        return [
            self._int_arg(index, text, name, min_value, f"(usage: {usage})")
            for index, (name, text) in enumerate(zip(names, args, strict=True), 1)
        ]

    def _int_arg(self, index, text, name, min_value, usage):
        self.refuse(text, index, f"{self.command}: {name}", _INTEGER, tail=f" {usage}")
        sign, body = (text[0], text[1:]) if text[:1] in ("+", "-") else ("", text)
        body = body.lstrip("0") or body[:1]  # zero padding is not magnitude
        value = int(sign + body) if len(body) <= 40 else None
        if value is None or not -(2**63) <= value < 2**63:
            self.fail(
                f"{self.command}: {name} == {_excerpt(text)}, must be an integer "
                f"below 2**63 {usage}."
            )
        return self.check(check_integer, value, name, min_value=min_value)

    def _table(self, args, lines):
        vocab_size, d = self._int_args(args, 1)
        rows = [self._row(vocab_size, d, row, lines) for row in range(vocab_size)]
        self.table = np.array(rows, dtype=np.float64)  # (vocab_size, d)
        self.table.setflags(write=False)
        self.table_line = self.number

    def _row(self, vocab_size, d, row, lines):
        """Read table row ``row`` (0-based) from the line iterator."""
        header = f"TABLE {vocab_size} {d} on line {self.number}"
        expects = f"{header} expects {vocab_size} rows of {d} numbers"
        got = f"{row} row{'' if row == 1 else 's'}"
        number, line = next(lines, (None, None))
        if number is None:
            self.fail(f"{expects}, but the input ends after {got}.")
        words = line.split()
        if words[0].upper() in _USAGE:
            self.fail(f"{expects}, but got {got} before {words[0]}.", number)
        if len(words) != d:
            expected = f"expected d == {d} (from {header})"
            self.fail(f"table row {row} has {len(words)} numbers, {expected}.", number)
        for column, word in enumerate(words):
            what = f"table row {row}, number {column}"
            self.refuse(word, column, what, _NUMBER, (number, line))
            if not math.isfinite(float(word)):
                self.fail(
                    f"{what} == {_excerpt(word)}, must be a finite number.", number
                )
        return [float(word) for word in words]

    def _tokens(self, args):
        if not args:
            self.fail(
                f"TOKENS needs at least one token id (usage: {_USAGE['TOKENS']})."
            )
        if all(a.isascii() and a.isdigit() and len(a) < 19 for a in args):
            ids = [int(a) for a in args]  # plain ids, fast: millions of them
        else:  # TOKENS <id> <id> ...: id[0], id[1], ...
            ids = self._int_args(args, 0, [f"id[{n}]" for n in range(len(args))])
        if self.table is not None:
            self.check(check_token_ids, ids, self.table.shape[0], name="id")
        self.tokens, self.tokens_line = ids, self.number

    @np.errstate(all="ignore")  # a learner's 1e308: no warning from here
    def _query(self, args):
        """The line a LOOKUP, POSENC, ADD or SIM prints, once there is a table."""
        values = self._int_args(args, None if self.command == "LOOKUP" else 0)
        if self.table is None:
            before = f"expected a TABLE command before it ({_USAGE['TABLE']})"
            self.fail(f"{self.command} needs a table; {before}.")
        if self.command == "LOOKUP":
            return format_numbers(self._row_of(values[0], "token_id"))
        if self.command == "SIM":
            return format_number(
                float(self._encoding(values[0]) @ self._encoding(values[1]))
            )
        (pos,) = values
        if self.command == "POSENC":
            return format_numbers(self._encoding(pos))
        if self.tokens is None:
            self.fail("ADD needs the tokens; expected a TOKENS command before it.")
        n = len(self.tokens)
        what = f"the number of tokens ({n}, TOKENS on line {self.tokens_line})"
        self.check(check_index, pos, "pos", n, what=what)
        row = self._row_of(self.tokens[pos], f"id[{pos}]")  # (d,), TOKENS' id[pos]
        return format_numbers(row + self._encoding(pos))  # (d,)

    def _row_of(self, token_id, name):
        """``lookup(table, token_id)`` after checking the id against the table."""
        vocab_size, d = self.table.shape
        what = f"vocab_size ({vocab_size}, TABLE on line {self.table_line})"
        token_id = self.check(check_index, token_id, name, vocab_size, what=what)
        return self._call("lookup", (self.table, token_id), d)

    def _encoding(self, pos):
        """``pos_encoding(pos, d)`` after checking that the width is even."""
        d = self.table.shape[1]
        try:
            check_d_model(d, name="d")
        except ValueError as exc:
            where = f"The width d comes from TABLE on line {self.table_line}"
            even = "positional encodings need an even width"
            self.fail(f"{self.command}: {exc} {where}; {even}.")
        return self._call("pos_encoding", (pos, d), d)

    def _call(self, name, args, d):
        """``name(*args)``, checked to return d finite numbers in time, and by the
        checkers' rules, in their order."""
        report = self.ask(name, args)
        print(report.get("printed", ""), end="", flush=True)  # what the call printed
        array, failed = read_report(report, (d,))
        call = f"{name}({'table' if name == 'lookup' else args[0]}, {args[1]})"
        if failed is None:
            right, desc = _LIBRARY[name](*args), report["value"]  # right: (d,)
            rule = dtype_problem(desc) or rounding_problem([array], [right])
            rule = rule or (type_problem(desc) if close(array, right) else None)
            if rule is not None:
                self.fail(f"{self.command}: {call}: {rule[0]}. {rule[1]}")
            return array  # (d,)
        kind, detail = failed
        if kind == "error":
            text = why(detail)
            if "NotImplementedError" in detail.get("classes", ()):
                text += " (implement it first)"
            elif "read-only" in text:
                text += " (the table is read-only: lookup must not change it)"
            detail = text
        said = f"{call} {_SAID[kind].format(detail)}"
        self.fail(f"{self.command}: {said}; expected {d} numbers, shape ({d},).")


def interpret(text, guard=None, names=(), bounded=False):
    """Yield the lines ``text`` prints: ``guard`` answers the calls of ``names``
    (its child holds the learner's functions), the library all others."""

    def ask(name, args):
        if name in names:
            return guard.ask((name, args))
        return {"value": describe_value(_LIBRARY[name](*args))}

    return _Interpreter(ask).run(text, bounded)


def run_commands(text, *, lookup=None, pos_encoding=None, time_limit=None):
    """Run a command script and return what it prints.

    Parameters
    ----------
    text : str
        The script (see the module docstring), at most 8 MiB.
    lookup, pos_encoding : callable, optional
        ``lookup(table, token_id)`` (``table`` read-only, (vocab_size, d)) and
        ``pos_encoding(pos, d)``, each returning d numbers; default the library's.
        They run in a child process (:mod:`.guard`), each call timed.
    time_limit : float, optional
        Seconds each call of yours may take, default 5.

    Returns
    -------
    str
        One line per query, joined by newlines (no trailing newline); at most
        :data:`MAX_OUTPUT_LINES` lines and 256 MiB.

    Raises
    ------
    TypeError, ValueError
        For a bad argument; a :class:`CommandError` (``line N: ...``, ``.output``
        the lines printed before) at the first bad line, a failing call of yours
        or output past the limits.

    Examples
    --------
    >>> print(run_commands("TABLE 1 4\\n0.5 -0.5 1 0\\nTOKENS 0 0 0 0\\nADD 3"))
    0.6411 -1.4900 1.0300 0.9996
    """
    if not isinstance(text, str):
        raise TypeError(f"text == {describe(text)}, must be a str: the script.")
    if len(text) > MAX_SCRIPT_CHARS:
        most = f"more than the {MAX_SCRIPT_CHARS} (8 MiB) a script may hold"
        raise ValueError(f"text has {len(text)} characters, {most}.")
    yours = {"lookup": lookup, "pos_encoding": pos_encoding}
    yours = {name: check_callable(f, name) for name, f in yours.items() if f}
    time_limit = None if time_limit is None else check_seconds(time_limit)
    for name, f in yours.items():
        own = imported(name, *(getattr(f, k, None) for k in ("__module__", "__name__")))
        if own is not None:
            raise ValueError(f"{name}: {own}.")
    output = []
    # the child starts at the first call; the table reaches it read-only
    with Guard(serve_calls(yours, read_only=True), time_limit) as guard:
        try:
            for line in interpret(text, guard, yours, bounded=True):
                output.append(line)
        except CommandError as exc:
            exc.output = output
            raise
    return "\n".join(output)
