"""Source newer than the Python that compiles it.

Python prints a ``SyntaxError`` (and its subclasses ``IndentationError``, ``TabError``) at
the place it could not compile: a location line without the ``, in <function>`` every frame
of a run has (``File "x.py", line 70``), the source line under it, a caret. Where that
source line uses syntax a later Python added (variable annotations and f-strings in 3.6,
assignment expressions and positional-only parameters in 3.8, the match statement in 3.10,
except* in 3.11, type parameters and type aliases in 3.12: the "What's New" pages of each
release) and the log's paths or words show an older Python, the code was written for a
newer Python than the one running it: the package's release needs that Python, or an older
release of the package still supports this one. The other way round, a line written for an
older Python than the one compiling it (a name a later Python made a keyword, Python 2's
statements and literals) is a release of the code that predates this Python: the compile
error itself shows the Python is at least the release that took the syntax away.
"""

from __future__ import annotations

import re
from typing import Optional

from tfdoctor.matrix import version_key

#: Python's location line of a compile error, and the source line it prints under it.
_LOCATION = re.compile(
    r'^[ \t]*File "(?P<path>[^"\n]{1,400})", line \d+[ \t]*\r?\n(?P<code>[^\n]{1,400})$',
    re.MULTILINE,
)
#: A package's own file: the directory under site-packages (or dist-packages).
_PACKAGE = re.compile(r"[/\\](?:site|dist)-packages[/\\](?P<package>[A-Za-z_][\w.-]*)")
#: Statements that take a colon, which an annotation's pattern must not read as a name.
_KEYWORD = r"(?:else|try|finally|lambda|class|def|if|elif|while|for|with|except|return|yield)\b"
#: A comment, or a string literal on one line with its prefix (``rf"..."``): what the syntax
#: patterns must not read inside (``"-rf"``, ``"a := b"``). Each alternative takes distinct
#: characters, so one pass is linear in the line.
_LITERAL = re.compile(
    r"""(?P<comment>#[^\n]*)"""
    r"""|(?P<prefix>(?<![\w])[A-Za-z]{1,2})?(?P<quote>['"])"""
    r"""(?:[^'"\\\n]|\\.|(?!(?P=quote))['"])*(?:(?P=quote)|$)"""
)
#: Syntax a Python release added: its pattern over one source line (string literals emptied,
#: comments dropped: :func:`_code_only`), the release, its name.
NEWER_SYNTAX: tuple[tuple[re.Pattern[str], str, str], ...] = (
    # PEP 695 (3.12): `def f[T](x: T)`, `class Box[T]:`, `type Pairs = list[tuple[int, int]]`.
    (re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+\w+\s*\["), "3.12", "a type parameter list"),
    (re.compile(r"^\s*type\s+[A-Za-z_]\w*\s*(?:\[[^\]]*\])?\s*=(?!=)"), "3.12",
     "a type alias statement"),
    # PEP 654 (3.11): `except* ValueError:`.
    (re.compile(r"^\s*except\s*\*"), "3.11", "an except* clause"),
    # PEP 634 (3.10): `match command.split():`. `match` is a soft keyword: a name assigned,
    # called or annotated (`match = ...`, `match(x)`, `match: str`) is no statement.
    (re.compile(r"^\s*match\s+(?![\s=(:.,)\]])[^=]*:\s*$"), "3.10", "a match statement"),
    # PEP 572 (3.8): `(n := len(a))`.
    (re.compile(r"[\w)\]]\s*:=\s*\S"), "3.8", "an assignment expression (:=)"),
    # PEP 570 (3.8): `def f(a, /, b)`.
    (re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\([^)]*,\s*/\s*[,)]"), "3.8",
     "a positional-only parameter (/)"),
    # PEP 498 (3.6): f"..." (and rf, fr).
    (re.compile(r"(?<![\w'\"])(?:[fF][rR]?|[rR][fF])(?:'|\")"), "3.6", "an f-string"),
    # PEP 526 (3.6): `self.x: Dict[str, int] = None`, `count: int`.
    # A comma only inside brackets: `key: value,` is a dict's entry, never an annotation.
    (re.compile(
        rf"^\s*(?!{_KEYWORD})[A-Za-z_][\w.]*\s*:\s*[A-Za-z_][\w.]*(?:\[[\w.\[\], ]*\])?\s*"
        r"(?:=(?!=)|$)"
     ),
     "3.6", "a variable annotation"),
)  # fmt: skip


#: Syntax a Python release took away, as a compile error shows it: its pattern over one source
#: line (string literals emptied, comments dropped), the release, what the line uses, what
#: replaces it, and the release that compiles the line again (None: none does). Only forms
#: no Python from that release up to that one compiles, so the compile error proves the
#: Python is in that range.
_PY2_FORM = (
    "its Python 3 form (the print() and exec() functions, `except E as e`, `raise E(message)`, "
    "0o777; the 2to3 tool rewrites a whole file)"
)
OLDER_SYNTAX: tuple[tuple[re.Pattern[str], str, str, str, Optional[str]], ...] = (
    # 3.7 made async and await reserved keywords ("What's New In Python 3.7"): a parameter,
    # keyword argument, attribute or variable of that name no longer compiles. `async def`,
    # `async with`, `await x` are followed by a name and stay.
    (re.compile(
        r"\.\s*(?:async|await)\b|(?<![\w.])(?:async|await)\s*(?:[,)=\]]|:(?!=)|$)"
     ),
     "3.7", "`async` or `await` as a name, which Python 3.7 made reserved keywords",
     "another name (the libraries that used it renamed theirs, e.g. to async_ or is_async)",
     None),
    # Python 3.0 ("What's New In Python 3.0"): print and exec became functions, `except E, e`
    # and `raise E, msg` went, as did backquotes, `<>`, octal literals without 0o, long
    # literals' L and the ur'' prefix.
    # The statement form: a name, number, string or display after the word. An operator after
    # it is an expression of the function Python 3 compiles (`print >>f, x`, `print -1`,
    # `print [0]`, `print += 1`), and so are the keyword operators (`print if a else b`,
    # `print in x`, `print not in x`, `print is None`, `print and x`, `print or x`).
    (re.compile(
        r"^\s*(?:print|exec)\s+(?=[\w\"'{])(?!(?:if|else|and|or|in|is|not\s+in)\b)"
     ),
     "3.0", "Python 2's print or exec statement", _PY2_FORM, None),
    # `except E, e:` compiles again from 3.14 (PEP 758: `except A, B:` without `as` catches
    # both), with another meaning: a compile error there under 3.14 is not this syntax.
    (re.compile(r"^\s*except\s+[\w.]+\s*,\s*[A-Za-z_]\w*\s*:"), "3.0",
     "Python 2's `except E, e:`", _PY2_FORM, "3.14"),
    (re.compile(r"^\s*raise\s+[\w.]+\s*,"), "3.0", "Python 2's `raise E, message`", _PY2_FORM,
     None),
    (re.compile(r"`|<>"), "3.0", "Python 2's backquotes or `<>`", _PY2_FORM, None),
    # A float's signed exponent may have leading zeros (1e-07, Keras' epsilon): not an octal.
    (re.compile(
        r"(?<![\w.])(?<![\d.][eE][+-])(?:0[0-7]*[1-7][0-7]*|\d+[lL])(?![\w.])"
        r"|(?<![\w])[uU][rR]['\"]"
     ),
     "3.0", "a Python 2 literal (an octal 0777, a long 10L or ur'')", _PY2_FORM, None),
)  # fmt: skip


def newer_syntax(code: str) -> Optional[tuple[str, str]]:
    """The release that added syntax ``code`` uses, and the syntax's name; None where it uses
    none of :data:`NEWER_SYNTAX`."""
    code = _code_only(code)
    for pattern, release, name in NEWER_SYNTAX:
        if pattern.search(code):
            return release, name
    return None


def _code_only(code: str) -> str:
    """``code`` with each string literal's contents emptied (its prefix and quotes kept) and
    its comment dropped: ``print("-rf")`` is ``print("")``, ``rf'{x}'`` stays ``rf''``."""

    def keep(match: re.Match[str]) -> str:
        if match.group("comment") is not None:
            return ""
        quote = match.group("quote")
        return f"{match.group('prefix') or ''}{quote}{quote}"

    return _LITERAL.sub(keep, code)


def compile_error_at_newer_syntax(
    text: str, python: Optional[str]
) -> Optional[tuple[str, str, str, Optional[str]]]:
    """Where ``text`` shows Python failing to compile a line of syntax a release newer than
    ``python`` added: (the location and source line as cited, the release, the syntax's name,
    the package whose file it is or None). None where ``python`` is not known, no location
    line is shown, or the line's syntax is this Python's."""
    if not python or 'File "' not in text:
        return None
    for match in reversed(list(_LOCATION.finditer(text))):
        code = match.group("code").strip()
        found = newer_syntax(code)
        if found is None:
            continue
        release, name = found
        if version_key(python)[:2] >= version_key(release)[:2]:
            return None
        package = _PACKAGE.search(match.group("path"))
        cited = f'File "{match.group("path")}" ... {code}'
        return cited, release, name, package.group("package") if package else None
    return None


def compile_error_at_older_syntax(
    text: str, python: Optional[str] = None
) -> Optional[tuple[str, str, str, str, str]]:
    """Where ``text`` shows Python failing to compile a line of syntax a release took away
    (:data:`OLDER_SYNTAX`): (the location and source line as cited, the release, what the line
    uses, what replaces it, the file's path). None where no compile error's location line
    shows such a line, or where the log's ``python`` (where known) compiles it: older than the
    release that took it away, or as new as one that compiles it again."""
    if 'File "' not in text:
        return None
    shown = version_key(python)[:2] if python else None
    for match in reversed(list(_LOCATION.finditer(text))):
        code = _code_only(match.group("code").strip())
        for pattern, release, name, replacement, again in OLDER_SYNTAX:
            if shown is not None and (
                shown < version_key(release)[:2]
                or (again is not None and shown >= version_key(again)[:2])
            ):
                continue
            if pattern.search(code):
                cited = f'File "{match.group("path")}" ... {match.group("code").strip()}'
                return cited, release, name, replacement, match.group("path")
    return None


#: CPython's words for subscripting a class without ``__class_getitem__``: the built-in
#: collections have one from 3.9 (PEP 585), so before it ``list[int]`` in an annotation,
#: evaluated when its ``def`` runs, raises a TypeError with this message.
NOT_SUBSCRIPTABLE = "'type' object is not subscriptable"
#: A built-in collection subscripted as a generic type (``list[int]``, ``dict[str, int]``):
#: a name of its own, not an attribute (``self.list[0]``) nor part of another name.
_BUILTIN_GENERIC = re.compile(r"(?<![\w.])(?:list|dict|tuple|set|frozenset|type)\[")
#: The release that gave the built-in collections their subscripting (PEP 585).
BUILTIN_GENERICS_RELEASE = "3.9"


#: CPython's words for ``X | Y`` of two classes (or typing's aliases) before 3.10, which gave
#: ``type`` its ``__or__`` (PEP 604): an annotation ``str | None``, evaluated when its ``def``
#: runs, raises them there.
_UNION_REFUSED = re.compile(
    r"unsupported operand type\(s\) for \|: '(?P<left>\w+)' and '(?P<right>\w+)'"
)
#: The operands' types only a class or a typing construct has: ``type`` (a class),
#: ``NoneType``, a metaclass (ABCMeta, EnumMeta) or typing's alias classes.
_UNION_OPERANDS = frozenset(
    {
        "type",
        "NoneType",
        "ABCMeta",
        "EnumMeta",
        "_GenericAlias",
        "_SpecialForm",
        "_UnionGenericAlias",
    }
)
#: An annotation that takes ``|``: after a parameter's or a name's colon, or the return arrow.
_UNION_ANNOTATION = re.compile(r"(?::|->)\s*[\w.\[\], ]+\|")
#: The release that gave classes their ``|`` (PEP 604).
UNION_RELEASE = "3.10"


def union_before_release(
    message: str, code: str, path: str, python: Optional[str]
) -> Optional[str]:
    """Where a frame's source line ``code`` (in the file ``path``) annotates with ``X | Y``
    and raised CPython's refusal of ``|`` between two classes (``message``): only a Python
    before 3.10 refuses it, so ``python`` (where the log shows it) only rules it out. The
    package whose file it is, empty for code outside site-packages; else None."""
    refused = _UNION_REFUSED.fullmatch(message.strip())
    if refused is None or not {refused["left"], refused["right"]} <= _UNION_OPERANDS:
        return None
    if python and version_key(python)[:2] >= version_key(UNION_RELEASE)[:2]:
        return None
    if not _UNION_ANNOTATION.search(_code_only(code)):
        return None
    package = _PACKAGE.search(path)
    return package.group("package") if package else ""


def builtin_generic_before_release(
    message: str, code: str, path: str, python: Optional[str]
) -> Optional[str]:
    """Where a frame's source line ``code`` (in the file ``path``) subscripts a built-in
    collection and raised :data:`NOT_SUBSCRIPTABLE` (``message``): only a Python before 3.9
    raises it there, so ``python`` (where the log shows it) only rules it out. The package
    whose file it is, empty for code outside site-packages; else None (the message, the line
    or the Python does not fit)."""
    if message.strip() != NOT_SUBSCRIPTABLE:
        return None
    if python and version_key(python)[:2] >= version_key(BUILTIN_GENERICS_RELEASE)[:2]:
        return None
    if not _BUILTIN_GENERIC.search(_code_only(code)):
        return None
    package = _PACKAGE.search(path)
    return package.group("package") if package else ""
