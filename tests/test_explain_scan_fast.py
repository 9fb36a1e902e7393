"""The scan's shortcuts for lines that do not repeat: an allocator's dump (a gate such as
``bfc_allocator.cc:`` on every line of it) and distinct lines (reprs, hashes, pointers). A
signature is not asked on a shape that lacks the literals its pattern requires, a keyword with
a digit is looked for in the text even where shapes are folded, and a long distinct text is
not searched for a literal with two characters in a row it lacks. The evidence must be what the
scan finds with none of these, nor folding, nor counting by shape: hits, counts, citations,
events and every reader's answer."""

from __future__ import annotations

import random
import string

import pytest

from tests.explaining import SIGNATURES
from tests.test_explain_scan_folded import _BFC, _EXAMPLES, _scan
from tfdoctor.explain import scanning
from tfdoctor.signatures import Signature


def _dump_line(rng: random.Random) -> str:
    """A line of TensorFlow's BFC allocator dump, its numbers and address its own."""
    stamp = (
        f"2023-05-01 12:{rng.randrange(60):02d}:{rng.randrange(60):02d}.{rng.randrange(10**6):06d}"
    )
    number = rng.choice((1084, 1027, 1034, 1041, 1045, 1053, 271))
    return rng.choice(
        (
            f"{stamp}: I {_BFC}:{number}] {rng.choice(('InUse', 'Free'))} at "
            f"{rng.getrandbits(44):x} of size {256 << rng.randrange(12)} next "
            f"{rng.randrange(4096)}",
            f"{stamp}: I {_BFC}:{number}] Bin ({256 << rng.randrange(12)}): \tTotal Chunks: "
            f"{rng.randrange(99)}, Chunks in use: {rng.randrange(99)}. 4.0KiB allocated for "
            "chunks.",
            f"{stamp}: I {_BFC}:{number}] {rng.randrange(50)} Chunks of size "
            f"{256 << rng.randrange(12)} totalling {rng.randrange(999)}.0KiB",
            f"{stamp}: W {_BFC}:{number}] "
            + "".join(rng.choice("*_x") for _ in range(99))
            + rng.choice("*_x"),
            f"{stamp}: I {_BFC}:{number}] Sum Total of in-use chunks: {rng.randrange(9)}.12GiB",
        )
    )


def _distinct_line(rng: random.Random) -> str:
    """A line no other repeats: an object at its address, a hash, a pointer, a number that
    may hold a signature's digits ("132", "-4", "0000:")."""
    value = rng.getrandbits(64)
    word = "".join(rng.choice(string.ascii_letters) for _ in range(rng.randrange(3, 9)))
    return rng.choice(
        (
            f"<tensorflow.python.framework.ops.EagerTensor object at 0x{value >> 16:012x}>",
            f"checkpoint {value:016x}{value ^ 0xDEADBEEF:016x} saved",
            f"I0501 12:00:{rng.randrange(60):02d}.{rng.randrange(10**6):06d} "
            f"{rng.randrange(65536)} gpu_util.cc:{rng.randrange(900)}] buffer 0x{value >> 20:x} "
            f"stream {value & 0xFFFFF:x}",
            f"{word} {rng.choice(('exit code', 'returncode', 'step'))} "
            f"{rng.choice(('132', '-4', '1320', str(value % 10**6)))} {value % 7919}",
            f"| {rng.randrange(8)}  {word} 0000:{rng.randrange(256):02X}:00.0 Off | {value:x}",
        )
    )


def _log(rng: random.Random) -> str:
    """Signatures' example lines among many dump and distinct ones, some said again."""
    lines: list[str] = []
    for _ in range(rng.randrange(300, 700)):
        pick = rng.random()
        if pick < 0.2:
            lines.append(rng.choice(_EXAMPLES))
        elif pick < 0.25 and lines:
            lines.append(rng.choice(lines))
        elif pick < 0.6:
            lines.append(_dump_line(rng))
        else:
            lines.append(_distinct_line(rng))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("seed", range(16))
def test_the_shortcuts_find_what_the_plain_scan_does(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    logs = [_log(rng) for _ in range(3)]
    pruned: list[bool] = []
    may_match = scanning._may_match

    def counted_may_match(sig: Signature, shape: str, folded: bool) -> bool:
        pruned.append(not may_match(sig, shape, folded))
        return pruned[-1] is False

    monkeypatch.setattr(scanning, "_may_match", counted_may_match)
    # Every distinct text is long enough here for the pairs' test to be asked.
    monkeypatch.setattr(scanning, "_LONG_DISTINCT", 0)
    found = [_scan(text) for text in logs]
    assert any(pruned)  # some signature was not asked on some shape
    monkeypatch.setattr(scanning, "_may_match", lambda sig, shape, folded: True)
    monkeypatch.setattr(scanning, "_LONG_DISTINCT", 1 << 62)
    monkeypatch.setattr(scanning, "_hex_safe", lambda word: False)
    monkeypatch.setattr(scanning, "_shape_blind", lambda sig: False)
    for text, evidence in zip(logs, found):
        assert _scan(text) == evidence


def test_a_shape_without_the_memory_maps_stars_is_not_asked_for_it() -> None:
    (occupancy,) = [sig for sig in SIGNATURES.signatures if sig.id == "bfc-dump-occupancy"]
    assert "*" in scanning._required_runs(occupancy)
    chunk = f"0000-00-00 00:00:00.000000: I {_BFC}:0000] InUse at 000000000000 of size 000"
    assert not scanning._may_match(occupancy, chunk, folded=True)
    assert scanning._may_match(occupancy, f"W {_BFC}:000] {'*' * 99}_", folded=True)


def test_a_pattern_that_ignores_case_requires_no_literal() -> None:
    ignoring = [sig for sig in SIGNATURES.signatures if sig.pattern.flags & 2]  # re.IGNORECASE
    assert ignoring
    assert all(scanning._required_runs(sig) == () for sig in ignoring)


def test_the_pairs_of_a_text_are_among_those_of_its_pieces() -> None:
    rng = random.Random(5)
    for _ in range(300):
        text = "".join(rng.choice("ab 0\n x") for _ in range(rng.randrange(0, 40)))
        assert scanning._pairs_of(text) <= scanning._pairs_in(text), repr(text)


def _plain_fold(shape: str) -> str:
    """Each token the plain pattern finds, read as zeros."""
    return scanning._HEX_PLAIN.sub(lambda m: m.group().translate(scanning._HEX_ZERO), shape)


def test_the_token_pattern_folds_as_the_plain_one_does() -> None:
    rng = random.Random(11)
    alphabet = "0abcdefx0000 _.:gZé\n"
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 40)))
        assert scanning._fold_hex(text) == _plain_fold(text), repr(text)


def test_folding_piece_by_piece_folds_as_the_whole_text_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scanning, "_PIECES_SAMPLE", 0)  # pieces always, however few repeat
    rng = random.Random(13)
    alphabet = "0abcdefx0000  _.:gZé\n"
    for _ in range(5000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        assert scanning._fold_pieces(text) == scanning._fold_hex(text), repr(text)


def test_a_block_of_long_shapes_answers_in_exactly_as_its_text_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(scanning, "_LONG_DISTINCT", 0)  # the pairs are asked first
    rng = random.Random(17)
    raw = _log(rng) * 3  # said again: the shapes are a third of the text
    text = scanning._Shaped(raw)
    _, text.shapes, _, text.folded = scanning._block_shapes(raw, foldable=True)
    assert len(text.shapes) * 2 < len(raw)  # the shapes are asked
    words = ["bfc_allocator.cc:", "InUse at ", "i386", "CUDA_VISIBLE_DEVICES", "zq", "exit code"]
    for _ in range(400):
        start = rng.randrange(len(raw) - 12)
        words.append(raw[start : start + rng.randint(1, 12)])
        words.append("".join(rng.choice("abcxyz0123 :.") for _ in range(rng.randint(2, 6))))
    for word in words:
        assert (word in text) == (word in raw), word
