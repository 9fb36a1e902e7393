"""Records behave as frozen dataclasses do, with only ``__init__`` generated per class."""

from __future__ import annotations

import dataclasses
import functools
import pickle
from typing import Optional

import pytest

from tfdoctor.records import Record, record


@record
class Point(Record):
    """A record."""

    x: int
    y: int = 0
    label: Optional[str] = dataclasses.field(default=None, repr=False)
    seen: int = dataclasses.field(default=0, compare=False)

    @functools.cached_property
    def norm1(self) -> int:
        return abs(self.x) + abs(self.y)


@dataclasses.dataclass(frozen=True)
class FrozenPoint:
    """The frozen dataclass a record stands in for."""

    x: int
    y: int = 0
    label: Optional[str] = dataclasses.field(default=None, repr=False)
    seen: int = dataclasses.field(default=0, compare=False)


@record
class Other(Record):
    """Another record with the same fields."""

    x: int
    y: int = 0


def test_only_init_is_generated_per_class() -> None:
    generated = {"__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__"}
    assert generated & set(vars(Point)) == {"__init__"}
    assert generated <= set(vars(FrozenPoint))


def test_equality_and_hash_follow_the_compared_fields() -> None:
    assert Point(1, 2) == Point(1, 2, seen=5)
    assert hash(Point(1, 2)) == hash(Point(1, 2, seen=5))
    assert Point(1, 2) != Point(2, 1)
    assert Point(1, 2, "a") != Point(1, 2, "b")
    assert Point(1) != Other(1)  # another class is never equal, as for dataclasses
    assert len({Point(1), Point(1), Point(2)}) == 2


def test_repr_is_the_dataclass_repr() -> None:
    assert repr(Point(1, 2, "a", 3)) == repr(FrozenPoint(1, 2, "a", 3)).replace(
        "FrozenPoint", "Point"
    )


@pytest.mark.parametrize(
    "change",
    [
        lambda p: setattr(p, "x", 5),
        lambda p: setattr(p, "extra", 1),
        lambda p: delattr(p, "x"),
    ],
    ids=["assign-field", "new-attribute", "delete"],
)
def test_a_record_is_frozen(change: object) -> None:
    point = Point(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        change(point)  # type: ignore[operator]
    assert point == Point(1, 2)


def test_dataclass_functions_pickling_and_cached_properties_work() -> None:
    point = Point(1, -2, "a")
    assert [f.name for f in dataclasses.fields(point)] == ["x", "y", "label", "seen"]
    assert dataclasses.replace(point, y=3) == Point(1, 3, "a")
    assert dataclasses.asdict(point) == {"x": 1, "y": -2, "label": "a", "seen": 0}
    assert pickle.loads(pickle.dumps(point)) == point
    assert point.norm1 == 3
    assert point.norm1 == 3  # cached in the instance, which a frozen record allows


def test_only_a_record_class_can_be_a_record() -> None:
    class Plain:
        x: int

    with pytest.raises(TypeError, match="must derive from Record"):
        record(Plain)
