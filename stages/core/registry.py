"""One registry of named parts (kinds, importers, leaderboards): a part registers itself by decorator where it is
defined and is looked up by name; no second list names it. The modules that hold a sort of part are imported on the
first lookup that needs them, so a run imports only the parts it uses."""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable
from typing import Generic, TypeVar

from .errors import UsageError

Part = TypeVar("Part")


class Registry(Generic[Part]):
    """Parts of one sort by name. `package` holds them: each of its modules — or, with `module`, each subpackage's
    module of that name (stages.kinds.<name>.kind) — registers its parts when imported."""

    def __init__(self, sort: str, package: str, module: str | None = None) -> None:
        self.sort, self.package, self.module = sort, package, module
        self._parts: dict[str, Part] = {}
        self._all_imported = False

    def register(self, name: str) -> Callable[[Part], Part]:
        """Decorator: make the decorated part available as `name`."""

        def add(part: Part) -> Part:
            if self._parts.get(name, part) is not part:
                raise ValueError(f"{self.sort} {name!r} is registered twice")
            self._parts[name] = part
            return part

        return add

    def get(self, name: str) -> Part:
        """The part registered as `name`; an unknown name is one line naming the known ones."""
        if name not in self._parts:
            self._import_named(name)
        if name not in self._parts:
            self._import_all()
        try:
            return self._parts[name]
        except KeyError:
            raise UsageError(f"unknown {self.sort} {name!r} (known: {', '.join(self.names())})") from None

    def names(self) -> list[str]:
        """Every registered name, sorted."""
        self._import_all()
        return sorted(self._parts)

    def items(self) -> list[tuple[str, Part]]:
        """Every (name, part), by name."""
        return [(name, self._parts[name]) for name in self.names()]

    def _import_named(self, name: str) -> None:
        """The module a name points to by convention (package.<name>[.module]), when there is one."""
        if self.module is None or not name.isidentifier():
            return
        spec = importlib.util.find_spec(f"{self.package}.{name}")
        if spec is not None and spec.submodule_search_locations is not None:
            if importlib.util.find_spec(f"{self.package}.{name}.{self.module}") is not None:
                importlib.import_module(f"{self.package}.{name}.{self.module}")

    def _import_all(self) -> None:
        if self._all_imported:
            return
        package = importlib.import_module(self.package)
        for found in pkgutil.iter_modules(package.__path__):
            if self.module is None and not found.ispkg:
                importlib.import_module(f"{self.package}.{found.name}")
            elif self.module is not None and found.ispkg:
                candidate = f"{self.package}.{found.name}.{self.module}"
                if importlib.util.find_spec(candidate) is not None:
                    importlib.import_module(candidate)
        self._all_imported = True
