"""Small pieces every view needs: callback lists for ``on_x(callback, remove=False)`` hooks,
and a guard so a view's own widget updates do not re-trigger it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Generic, TypeVar

C = TypeVar("C", bound=Callable[..., Any])


class Callbacks(Generic[C]):
    """Registered callbacks, each once, called in order."""

    def __init__(self) -> None:
        self._callbacks: list[C] = []

    def register(self, callback: C, remove: bool = False) -> None:
        if remove:
            if callback in self._callbacks:
                self._callbacks.remove(callback)
        elif callback not in self._callbacks:
            self._callbacks.append(callback)

    def fire(self, *args: Any) -> None:
        for callback in list(self._callbacks):
            callback(*args)


@contextmanager
def quietly(view: Any) -> Iterator[None]:
    """Within this block ``view._busy`` is True: its observers ignore the changes it makes."""
    before, view._busy = view._busy, True
    try:
        yield
    finally:
        view._busy = before
