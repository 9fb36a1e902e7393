"""The scan's folded shapes: where a block's lines never repeat their shapes (an allocator's
dump, object reprs, hashes), hexadecimal tokens are read as zeros too. The evidence must be
what the scan finds without folding and without its counting shortcut: hits, counts,
citations, events and every reader's answer.

Over lines that never repeat, literals with digits are looked for in the block's text itself,
and the progress readers ask the block's shapes before searching it: the evidence must be
what the scan finds with neither."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

import pytest

from tests.explaining import SIGNATURES
from tfdoctor.evidence import tflog
from tfdoctor.explain import scanning
from tfdoctor.explain.reader import split_text

_EXAMPLES = [
    line
    for sig in SIGNATURES.signatures
    for example in sig.examples
    for line in example.split("\n")
]
_BFC = "tensorflow/core/common_runtime/bfc_allocator.cc"


def _hex_line(rng: random.Random) -> str:
    """A line with a hexadecimal token of its own: a chunk of a dump, a repr, a hash."""
    address = rng.getrandbits(48)
    return rng.choice(
        (
            f"2023-05-01 12:00:17.{rng.randrange(10**6):06d}: I {_BFC}:1084] "
            f"{rng.choice(('InUse', 'Free'))} at {address:x} of size 256 next "
            f"{rng.randrange(9999)}",
            f"<tensorflow.python.framework.ops.EagerTensor object at 0x{address:x}>",
            f"sha256:{rng.getrandbits(256):064x}",
            f"I0501 12:00:17.{rng.randrange(10**6):06d} 123 gpu_util.cc:42] buffer 0x{address:x}",
            f"W {_BFC}:474] {'*' * 60}{'_' * 3}{'*' * 36}x {address:x}",
        )
    )


def _log(
    rng: random.Random,
    count: int = 0,
    line_of: Callable[[random.Random], str] = _hex_line,
    pool: Sequence[str] = _EXAMPLES,
    shares: tuple[float, float] = (0.3, 0.4),
) -> str:
    """Signatures' example lines (of ``pool``) among many hexadecimal ones (``line_of``), some
    said again (up to the ``shares``' two marks): enough of the latter that the block's shapes
    are folded. ``count`` lines, a random number where 0."""
    lines: list[str] = []
    for _ in range(count or rng.randrange(150, 400)):
        pick = rng.random()
        if pick < shares[0]:
            lines.append(rng.choice(pool))
        elif pick < shares[1] and lines:
            lines.append(rng.choice(lines))
        else:
            lines.append(line_of(rng))
    return "\n".join(lines) + "\n"


def _scan(text: str) -> scanning.Evidence:
    return scanning.scan([split_text(text, "log")], SIGNATURES)


def _spied(monkeypatch: pytest.MonkeyPatch, name: str) -> list[str]:
    """The text given to each later call of the scan's function ``name``, in order."""
    given: list[str] = []
    function = getattr(scanning, name)

    def spy(text: str) -> str:
        given.append(text)
        return function(text)  # type: ignore[no-any-return]

    monkeypatch.setattr(scanning, name, spy)
    return given


@pytest.mark.parametrize("seed", range(12))
def test_folded_shapes_find_what_unfolded_ones_do(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    logs = [_log(rng) for _ in range(4)]
    folds = _spied(monkeypatch, "_fold_hex")
    found = [_scan(text) for text in logs]
    assert folds  # the shapes were folded
    # Neither folded nor counted by shape: each line that could hold a literal is visited.
    monkeypatch.setattr(scanning, "_hex_safe", lambda word: False)
    monkeypatch.setattr(scanning, "_shape_blind", lambda sig: False)
    del folds[:]
    for text, evidence in zip(logs, found):
        assert _scan(text) == evidence
    assert not folds


def test_a_folded_block_answers_in_exactly_as_its_text_does() -> None:
    rng = random.Random(3)
    raw = _log(rng)
    text = scanning._Shaped(raw)
    _, text.shapes, _, text.folded = scanning._block_shapes(raw, foldable=True)
    assert text.folded
    assert len(text.shapes) * 2 < len(raw)  # the shapes are asked
    words = ["InUse at ", "object at 0x", "0x7f", "deadbeef", "sha256:", "at 1", "\nW "]
    for _ in range(300):
        start = rng.randrange(len(raw) - 12)
        words.append(raw[start : start + rng.randint(1, 12)])
    for word in words:
        assert (word in text) == (word in raw), word


@pytest.mark.parametrize(
    "word, safe",
    [
        ("ailed", True),
        ("bfc_allocator.cc:", True),
        ("support both 1.x and 2.x", True),  # "x" ends it: no token starts with an x
        ("metal", True),
        ("dead", False),  # a piece of a token
        ("0x", False),  # a token's start
        ("at 0x", False),
        ("be", False),
        ("a 12345678ab c", False),  # a whole token between
        ("go cafe go", True),  # too short to be a token between
        ("12345678", True),  # digits alone read as zeros either way
    ],
)
def test_a_word_a_token_could_hide_is_not_asked_of_folded_shapes(word: str, safe: bool) -> None:
    assert scanning._hex_safe(word) is safe


def test_folding_keeps_each_shape_as_long_as_its_line() -> None:
    shape = "at 000f0c0e000000 of 0x0fab00cd00 deadbeef cafe0000 abcdef00zz 0xdeadbeef00"
    folded = scanning._fold_hex(shape)
    assert len(folded) == len(shape)
    assert folded == ("at 00000000000000 of 000000000000 deadbeef 00000000 abcdef00zz 000000000000")


#: Lines whose digits a signature or a reader asks for, among lines that hold them by chance.
_DIGITS = (
    "Process finished with exit code 132 (interrupted by signal 4: SIGILL)",
    "Process finished with exit code 137 (interrupted by signal 9: SIGKILL)",
    "Epoch 3/10",
    "Killed",
    "pip install tensorflow==1.15",
    "Python 3.8.10 (default) [MSC v.1928 32 bit (Intel)] on win32",
)


_DIGITS_AMONG = (*_EXAMPLES, *_DIGITS)

#: How long a block's distinct shapes are searched as long ones here: a shorter log then
#: takes the paths a long one does.
_LONG = 1 << 12


def _distinct_line(rng: random.Random) -> str:
    """A line of its own: a repr at an address, a hash, a VLOG line with a pointer, a chunk
    of an allocator's dump."""
    value = rng.getrandbits(64)
    return rng.choice(
        (
            f"<tensorflow.python.framework.ops.EagerTensor object at 0x{value >> 16:012x}>",
            f"checkpoint {value:016x}{value ^ 0xDEADBEEF:016x} saved",
            f"I0501 12:00:{rng.randrange(60):02d}.{rng.randrange(10**6):06d} "
            f"{rng.randrange(65536)} gpu_util.cc:{rng.randrange(900)}] buffer "
            f"0x{value >> 20:x} stream {value & 0xFFFFF:x}",
            f"2023-05-01 12:00:17.{rng.randrange(10**6):06d}: I {_BFC}:1084] "
            f"{rng.choice(('InUse', 'Free'))} at {value >> 16:x} of size 256 next "
            f"{rng.randrange(9999)}",
        )
    )


@pytest.mark.parametrize("seed", range(6))
def test_distinct_lines_find_what_the_plain_search_does(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    # About eight times :data:`_LONG` each, the examples a tenth of the lines.
    logs = [_log(rng, 600, _distinct_line, _DIGITS_AMONG, (0.1, 0.12)) for _ in range(2)]
    raw_asked: list[str] = []
    holding = scanning._RawShapes.holding

    def counted_holding(self: scanning._RawShapes, literal: str) -> object:
        raw_asked.append(literal)
        return holding(self, literal)

    monkeypatch.setattr(scanning._RawShapes, "holding", counted_holding)
    monkeypatch.setattr(scanning, "_LONG_DISTINCT", _LONG)
    found = [_scan(text) for text in logs]
    assert raw_asked  # literals with digits were looked for in the text
    # Every shortcut off: no literal looked for in the text, no pattern first, no shape asked
    # before a reader's search.
    monkeypatch.setattr(scanning, "_RAW_RATIO", 0)
    monkeypatch.setattr(scanning, "_LONG_DISTINCT", 1 << 62)
    monkeypatch.setattr(scanning._Shaped, "__contains__", str.__contains__)
    del raw_asked[:]
    for text, evidence in zip(logs, found):
        assert _scan(text) == evidence
    assert not raw_asked


def _dump_line(rng: random.Random) -> str:
    """A chunk line of an allocator's dump: its address, its size and its neighbour's."""
    return (
        f"2023-05-01 12:00:17.{rng.randrange(10**6):06d}: I {_BFC}:1084] "
        f"{rng.choice(('InUse', 'Free'))} at {rng.getrandbits(44) | 1 << 44:x} of size "
        f"{256 << rng.randrange(9)} next {rng.randrange(2048)}"
    )


def _uncached_lines(self: scanning._RawShapes, literal: str) -> set[int]:
    return scanning._lines_holding(self.text, (literal,))


@pytest.mark.parametrize("seed", range(8))
def test_a_block_folded_whole_finds_what_its_shapes_folded_do(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where a block's lines have shapes of their own, its text is folded whole (the ASCII
    pattern where it is ASCII) and each literal's lines are found once for its shapes and its
    visits: shapes, counts and evidence must be what folding shape by shape gives, with the
    Unicode pattern and a search each time."""
    rng = random.Random(seed)
    lines = (_distinct_line, _dump_line, _hex_line)
    logs = [
        _log(rng, 700, line_of, _DIGITS_AMONG, (0.1, 0.12))
        for line_of in (*lines, lambda rng: rng.choice(lines)(rng))
    ]
    logs.append(logs[0].replace("saved", "sauvé"))  # not ASCII: the Unicode pattern
    monkeypatch.setattr(scanning, "_LONG_DISTINCT", _LONG)
    pieces = _spied(monkeypatch, "_fold_pieces")
    blocks = [scanning._block_shapes(text, foldable=True) for text in logs]
    found = [_scan(text) for text in logs]
    assert all(folded for *_, folded in blocks)
    whole = len(pieces)
    # Shape by shape, by the Unicode pattern, each literal's lines searched for each time.
    monkeypatch.setattr(scanning, "_pieces_repeat", lambda text: True)
    monkeypatch.setattr(scanning, "_HEX_ASCII", scanning._HEX)
    monkeypatch.setattr(scanning._RawShapes, "lines", _uncached_lines)
    del pieces[:]
    for text, block, evidence in zip(logs, blocks, found):
        assert scanning._block_shapes(text, foldable=True) == block
        assert _scan(text) == evidence
    assert whole < len(pieces)  # some blocks were folded whole, none shape by shape now


def test_no_keyword_can_be_hidden_by_a_hexadecimal_token() -> None:
    # One such keyword turns folding off for every log (explain.scan's `foldable`): name it.
    keywords = scanning._folded_keywords(SIGNATURES)
    hidden = [
        literal
        for literal in dict.fromkeys((*keywords, *tflog.KEYWORDS))
        if not scanning._hex_safe(literal)
    ]
    assert hidden == []


@pytest.mark.parametrize("seed", range(3))
def test_a_block_whose_sample_misleads_is_folded_once(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A block whose first lines differ in shape and piece (the sample) but whose many later
    lines share a shape once folded (an allocator's dump after a traceback): folded whole
    once, its folded shapes short enough to keep; the shapes are those the block gets where
    the sample is not asked, and the text is not folded again to find them."""
    rng = random.Random(seed)
    monkeypatch.setattr(scanning, "_PIECES_SAMPLE", 1 << 12)
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = [
        " ".join("".join(rng.choices(letters, k=rng.randrange(4, 9))) for _ in range(8))
        for _ in range(120)
    ]
    chunks = [f"Chunk at 0x{rng.getrandbits(44) | 1 << 44:x} of size 256" for _ in range(3000)]
    text = "\n".join((*words, *chunks)) + "\n"
    folds = _spied(monkeypatch, "_fold_hex")
    block = scanning._block_shapes(text, foldable=True)
    _, distinct, counts, folded = block
    assert folded and len(distinct) * 8 <= len(text)  # the sample said "distinct"; it was not
    assert folds == [text.translate(scanning._SHAPE)]  # folded whole, once
    assert counts[f"Chunk at {'0' * 14} of size 000"] == len(chunks)  # one shape
    monkeypatch.setattr(scanning, "_lines_differ", lambda shaped: False)
    assert scanning._block_shapes(text, foldable=True) == block
