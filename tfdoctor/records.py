"""Immutable records: frozen dataclasses whose methods are written once, not per class.

``dataclasses.dataclass(frozen=True)`` compiles six methods for every class it decorates
(``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``, ``__delattr__``): about
2 ms a class with Python 3.11 on a 2-core machine, and the facts, the matrix and the findings,
which every command loads, are some 40 classes. A :func:`record` is a dataclass whose
``__init__`` alone is generated; :class:`Record` gives the rest once, with a frozen
dataclass's behaviour:

- equal when of the same class with equal fields, in order; hashed on the fields;
- shown as ``Name(field=value, ...)``, fields declared ``repr=False`` left out;
- a field cannot be assigned after ``__init__`` (nor any other attribute set), and nothing can
  be deleted: :class:`dataclasses.FrozenInstanceError`, as for a frozen dataclass.

``dataclasses.fields``, ``replace``, ``asdict`` and pickling work as on any dataclass, and
type checkers see a frozen dataclass (PEP 681's ``dataclass_transform``).
"""

from __future__ import annotations

import dataclasses
import operator
import sys
from typing import Any, Callable, TypeVar

T = TypeVar("T")

if sys.version_info >= (3, 11):
    from typing import dataclass_transform
else:
    # Only type checkers read the marker (PEP 681); before 3.11 typing lacks it, and a
    # runtime dependency on typing_extensions is not worth a no-op decorator.
    def dataclass_transform(**_kwargs: Any) -> Callable[[T], T]:
        def keep(obj: T) -> T:
            return obj

        return keep


class Record:
    """The shared methods of every :func:`record` class (see the module's docstring)."""

    # No annotations here: typing.get_type_hints reads a subclass's bases with the
    # subclass's module globals (the report schema generator does), where ours do not resolve.
    __slots__ = ()

    @staticmethod
    def _record_values(obj: Any) -> tuple[Any, ...]:
        """The compared fields' values; record() replaces it per class with a getter made
        once (C speed, for records used as dict keys in hot loops)."""
        return ()

    def _values(self) -> tuple[Any, ...]:
        return self._record_values(self)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        assert isinstance(other, Record)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{name}={getattr(self, name)!r}" for name, f in _fields(self).items() if f.repr
        )
        return f"{self.__class__.__qualname__}({shown})"

    def __setattr__(self, name: str, value: Any) -> None:
        # The generated __init__ assigns each field once; anything after that is refused.
        if name in _fields(self) and name not in self.__dict__:
            object.__setattr__(self, name, value)
            return
        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


def _fields(obj: Record) -> dict[str, dataclasses.Field[Any]]:
    found: dict[str, dataclasses.Field[Any]] = getattr(obj, "__dataclass_fields__", {})
    return found


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` (a :class:`Record` subclass) an immutable dataclass record."""
    if not issubclass(cls, Record):
        raise TypeError(f"{cls.__qualname__} must derive from Record")
    made = dataclasses.dataclass(eq=False, repr=False)(cls)
    fields: dict[str, dataclasses.Field[Any]] = getattr(made, "__dataclass_fields__")  # noqa: B009 - untyped on T
    compared = tuple(name for name, f in fields.items() if f.compare)
    made._record_values = staticmethod(_getter(compared))  # type: ignore[assignment]
    return made


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function giving the tuple of ``names``' values of an object."""
    if not names:
        return lambda _obj: ()
    get = operator.attrgetter(*names)
    if len(names) == 1:
        return lambda obj: (get(obj),)
    return get
