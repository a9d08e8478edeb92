"""Argument checks and conversions of the public functions: Python values to what the extension
module takes, each mistake one line (TypeError for a wrong type, ValueError for a bad value; the
simulator's own checks, the CLI's messages, come from the extension as ValueError)."""

from __future__ import annotations

import functools
import operator
from typing import Any, Iterable, List, Optional, Sequence, Tuple, Union

from . import _lastwave

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
SHAPE_FIELDS = ("m", "n", "k")


def _describe(value: Any) -> str:
    text = repr(value)
    limit = 60
    text = text if len(text) <= limit else text[: limit - 3] + "..."
    return f"{text} ({type(value).__name__})".replace("\n", " ")


def integer(value: Any, what: str) -> int:
    """`value` as a 64-bit int (bool refused); TypeError/ValueError naming `what` otherwise."""
    if isinstance(value, bool):
        raise TypeError(f"{what}: expected an integer, got {_describe(value)}")
    try:
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{what}: expected an integer, got {_describe(value)}") from None
    if not INT64_MIN <= number <= INT64_MAX:
        raise ValueError(f"{what}: {number} does not fit in 64 bits")
    return number


def optional_integer(value: Any, what: str) -> Optional[int]:
    return None if value is None else integer(value, what)


def _is_integer(value: Any) -> bool:
    try:
        operator.index(value)
        return True
    except TypeError:
        return False


def shape(value: Any, what: str = "shape") -> Tuple[int, int, int]:
    """(m, n, k) from a tuple, list or array of three integers."""
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__"):
        raise TypeError(f"{what}: expected (m, n, k), got {_describe(value)}")
    if len(value) != 3:
        raise ValueError(f"{what}: expected 3 sizes (m, n, k), got {len(value)}: {_describe(value)}")
    m, n, k = (integer(v, f"{what} {f}") for v, f in zip(value, SHAPE_FIELDS))
    return (m, n, k)


def shapes(value: Any) -> List[Tuple[int, int, int]]:
    """One shape (m, n, k) or an iterable of them (a NumPy array of shape (N, 3) too)."""
    if isinstance(value, (str, bytes, dict)) or value is None:
        raise TypeError(f"shapes: expected (m, n, k) or a list of them, got {_describe(value)}")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(
            f"shapes: expected (m, n, k) or a list of them, got {_describe(value)}"
        ) from None
    if items and (_is_integer(items[0]) or not hasattr(items[0], "__len__")):
        return [shape(items, "shapes")]  # one shape: its items are sizes, not shapes
    return [shape(item, f"shapes[{i}]") for i, item in enumerate(items)]


def _names(value: Any, what: str) -> str:
    """A comma list from "a,b" or an iterable of names."""
    if isinstance(value, str):
        return value
    if isinstance(value, bytes) or not isinstance(value, Iterable):
        raise TypeError(f"{what}: expected a name or a list of names, got {_describe(value)}")
    items = list(value)
    for item in items:
        if not isinstance(item, str):
            raise TypeError(f"{what}: expected names (str), got {_describe(item)}")
    return ",".join(items)


def schedules(value: Any) -> str:
    return _names(value, "schedules")


def optional_names(value: Any, what: str) -> Optional[str]:
    return None if value is None else _names(value, what)


def text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what}: expected a str, got {_describe(value)}")
    return value


def flag(value: Any, what: str) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"{what}: expected True or False, got {_describe(value)}")
    return value


def params(value: Any) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"params: expected a dict name -> number, got {_describe(value)}")
    out = {}
    for name, number in value.items():
        if not isinstance(name, str):
            raise TypeError(f"params: expected parameter names (str), got {_describe(name)}")
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise TypeError(f"params['{name}']: expected a number, got {_describe(number)}")
        out[name] = float(number)
    return out


def model(value: Any) -> "_lastwave.Model":
    """A Model as is; a str is loaded (a built-in name or a fitted *.json file)."""
    if isinstance(value, _lastwave.Model):
        return value
    if isinstance(value, str):
        return _lastwave.load_model(value, {})
    if hasattr(value, "__fspath__"):
        return _lastwave.load_model(str(value.__fspath__()), {})
    raise TypeError(f"model: expected a name, a path or a Model, got {_describe(value)}")


def gpu(value: Any, sms: Any, model_: "_lastwave.Model") -> "_lastwave.GpuSpec":
    """The GPU: a preset name or a GpuSpec, optionally partitioned to `sms` SMs; None with `sms`:
    the model file's GPU partitioned, else an `sms`-SM chip (as the CLI's --sms alone)."""
    count = optional_integer(sms, "sms")
    if isinstance(value, _lastwave.GpuSpec):
        return value if count is None else value.with_sms(count)
    if value is None:
        return _lastwave.resolve_gpu(None, count, model_)
    if not isinstance(value, str):
        raise TypeError(f"gpu: expected a preset name or a GpuSpec, got {_describe(value)}")
    return _preset(value, count)


@functools.lru_cache(maxsize=64)
def _preset(name: str, sms: Optional[int]) -> "_lastwave.GpuSpec":
    """A named preset (a partition of it): independent of the model, and immutable."""
    return _lastwave.GpuSpec.preset(name, sms)


Shape = Tuple[int, int, int]
ShapeLike = Union[Sequence[int], Shape]
