"""Check a payload against its declared shape: a TypedDict, or a union of TypedDicts.

Payloads stay plain JSON in the database; the shape is only a declaration, checked when an
event is appended. A shape may use str, int, bool, None, ``Literal[...]``, ``X | Y``,
``list[X]`` and nested TypedDicts; ``NotRequired[...]`` marks a key that may be absent.
Keys the shape does not declare are refused.
"""

import types
from functools import cache
from typing import Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict


class PayloadError(TypeError):
    """A payload that does not have its kind's shape."""


def shape_check(shape: Any, value: Any, where: str = "payload") -> None:
    """Raise PayloadError, naming the first wrong place, unless `value` has the shape."""
    if is_typeddict(shape):
        _typed_dict_check(shape, value, where)
        return
    origin = get_origin(shape)
    if origin in (Union, types.UnionType):
        _union_check(get_args(shape), value, where)
    elif origin is Literal:
        if not any(_same_literal(value, option) for option in get_args(shape)):
            raise PayloadError(f"{where} is {value!r}, not one of {get_args(shape)!r}")
    elif origin is list:
        if not isinstance(value, list):
            raise PayloadError(f"{where} is {type(value).__name__}, not a list")
        (item,) = get_args(shape)
        for index, element in enumerate(value):
            shape_check(item, element, f"{where}[{index}]")
    elif shape is None or shape is types.NoneType:
        if value is not None:
            raise PayloadError(f"{where} is {value!r}, not None")
    elif shape in (str, int, bool):
        # True is an int to Python, but JSON tells true from 1: a payload must too.
        if not isinstance(value, shape) or (shape is int and isinstance(value, bool)):
            raise PayloadError(f"{where} is {value!r}, not {shape.__name__}")
    else:
        raise TypeError(f"{where}: a payload shape cannot use {shape!r}")


def _typed_dict_check(shape, value, where: str) -> None:
    if not isinstance(value, dict):
        raise PayloadError(f"{where} is {type(value).__name__}, not an object")
    fields = _declared_fields(shape)
    missing = sorted(shape.__required_keys__ - value.keys())
    if missing:
        raise PayloadError(f"{where} lacks {', '.join(missing)}")
    extra = sorted(key for key in value if key not in fields)
    if extra:
        raise PayloadError(f"{where} has keys its kind does not declare: {', '.join(extra)}")
    for key, item in value.items():
        shape_check(fields[key], item, f"{where}.{key}")


@cache
def _declared_fields(shape) -> dict[str, Any]:
    """A TypedDict's keys and their shapes. Resolving the annotations is most of what a
    check costs (a roll's payload has nested shapes in unions), and a class's never
    change: each is resolved once."""
    return get_type_hints(shape)


def _union_check(options, value, where: str) -> None:
    errors = []
    for option in options:
        try:
            shape_check(option, value, where)
        except PayloadError as error:
            errors.append(str(error))
        else:
            return
    raise PayloadError(" / ".join(errors))


def _same_literal(value, option) -> bool:
    # 1 == True in Python, but not in a payload's JSON.
    return value == option and isinstance(value, bool) == isinstance(option, bool)
