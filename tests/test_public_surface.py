"""The public surface, derived (httpx's test): every package's ``__all__`` is exactly the
names it exposes, each documented, and every module states its public names.

A package's namespace holds what it re-exports from its modules; a helper imported there
for its own use would be public by accident, so the package's code lives in a module of
its own and the package only re-exports. Nothing here lists the names a second time: a
name added to a module and re-exported is checked as soon as it exists.
"""

from __future__ import annotations
import __future__

import ast
import importlib
import inspect
import pkgutil
import sys
from pathlib import Path
from types import ModuleType

import click
import pytest

import pipeline

#: Dunder names a package may publish (httpx publishes the same kind).
PUBLIC_DUNDERS = {"__version__"}


def _modules() -> list[str]:
    names = ["pipeline", *(m.name for m in pkgutil.walk_packages(pipeline.__path__,
                                                                "pipeline."))]
    for name in names:
        importlib.import_module(name)  # a package's submodules become its attributes
    return names


MODULES = _modules()
PACKAGES = [name for name in MODULES if hasattr(sys.modules[name], "__path__")]


def exposed(package: ModuleType) -> set[str]:
    """The names a package's namespace offers: not private, not its own submodules, not
    the ``from __future__`` flags. A package that imports its names when first asked for
    (PEP 562: ``pipeline.model``) is asked for each of them first."""
    for name in getattr(package, "__all__", []):
        getattr(package, name, None)
    prefix = f"{package.__name__}."
    return {name for name, value in vars(package).items()
            if (not name.startswith("_") or name in PUBLIC_DUNDERS)
            and not (isinstance(value, ModuleType) and value.__name__.startswith(prefix))
            and not isinstance(value, __future__._Feature)}


def _value_docs(module: ModuleType) -> tuple[set[str], dict[str, str]]:
    """The names ``module`` documents where it assigns them (a string right after the
    assignment, or a ``#:`` comment before it), and where it imports other names from."""
    tree = ast.parse(Path(inspect.getfile(module)).read_text(encoding="utf-8"))
    lines = Path(inspect.getfile(module)).read_text(encoding="utf-8").splitlines()
    documented: set[str] = set()
    imported: dict[str, str] = {}
    # Imports anywhere in the module: a package that loads its names lazily lists where
    # they come from under ``if TYPE_CHECKING:``.
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.update({a.asname or a.name: node.module for a in node.names})
    for i, node in enumerate(tree.body):
        targets = ([t.id for t in node.targets if isinstance(t, ast.Name)]
                   if isinstance(node, ast.Assign) else
                   [node.target.id] if isinstance(node, ast.AnnAssign)
                   and isinstance(node.target, ast.Name) else
                   [node.name.id] if isinstance(node, ast.TypeAlias) else [])
        after = tree.body[i + 1] if i + 1 < len(tree.body) else None
        string_after = (isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
                        and isinstance(after.value.value, str))
        comment_before = node.lineno > 1 and lines[node.lineno - 2].lstrip().startswith("#:")
        if targets and (string_after or comment_before):
            documented.update(targets)
    return documented, imported


def documentation(module: ModuleType, name: str) -> str:
    """What documents ``module.name``: its own docstring (a class's, not one it inherits or
    a dataclass's generated signature), a click command's help, or, for a value, the
    docstring where it is assigned (followed through the imports that re-export it)."""
    value = getattr(module, name)
    if isinstance(value, click.Command):
        return (value.help or "").strip()
    if isinstance(value, type):
        doc = value.__dict__.get("__doc__") or ""
        return "" if doc.startswith(f"{value.__name__}(") else doc.strip()
    if inspect.isroutine(value) or isinstance(value, ModuleType):
        return (value.__doc__ or "").strip()
    where = module
    for _ in range(8):  # package -> module -> the module it re-exports from
        documented, imported = _value_docs(where)
        if name in documented:
            return f"(documented where {where.__name__} assigns it)"
        if name not in imported:
            return ""
        where = importlib.import_module(imported[name])
    return ""


@pytest.mark.parametrize("name", PACKAGES)
def test_a_package_exports_exactly_what_it_exposes(name):
    package = sys.modules[name]
    assert len(package.__all__) == len(set(package.__all__)), "a name listed twice"
    assert sorted(package.__all__) == sorted(exposed(package))


@pytest.mark.parametrize("name", PACKAGES)
def test_every_name_a_package_exports_is_documented(name):
    package = sys.modules[name]
    assert [n for n in package.__all__ if not documentation(package, n)] == []


@pytest.mark.parametrize("name", MODULES)
def test_every_module_says_what_it_is_and_states_its_public_names(name):
    module = sys.modules[name]
    assert (module.__doc__ or "").strip(), "no module docstring"
    assert isinstance(getattr(module, "__all__", None), list), "no __all__"
    assert len(module.__all__) == len(set(module.__all__)), "a name listed twice"
    assert [n for n in module.__all__ if not hasattr(module, n)] == []


def test_the_derived_check_sees_an_accidental_export_and_an_undocumented_name(tmp_path,
                                                                             monkeypatch):
    # A package whose namespace leaks a helper import, and exports an undocumented value.
    package = tmp_path / "leaky"
    package.mkdir()
    (package / "__init__.py").write_text('"""A package."""\nimport json\nfrom leaky.part import'
                                         ' LIMIT, told\n__all__ = ["LIMIT", "told"]\n')
    (package / "part.py").write_text('"""A part."""\nLIMIT = 3\n\n\ndef told() -> int:\n'
                                     '    """Told."""\n    return LIMIT\n')
    monkeypatch.syspath_prepend(str(tmp_path))
    leaky = importlib.import_module("leaky")
    assert exposed(leaky) - set(leaky.__all__) == {"json"}
    assert documentation(leaky, "told") == "Told."
    assert documentation(leaky, "LIMIT") == ""
    (package / "part.py").write_text('"""A part."""\nLIMIT = 3\n"""At most three."""\n')
    assert documentation(leaky, "LIMIT") == "(documented where leaky.part assigns it)"


LAZY = [name for name in PACKAGES if hasattr(sys.modules[name], "_SOURCES")]


@pytest.mark.parametrize("name", LAZY)
def test_a_lazy_package_names_each_module_as_its_type_checkers_see_it(name):
    # A package that imports each name from its module when first asked for (pipeline.lazy):
    # its table and the imports it shows type checkers must agree, and cover __all__.
    package = sys.modules[name]
    tree = ast.parse(Path(inspect.getfile(package)).read_text(encoding="utf-8"))
    shown = {a.asname or a.name: node.module for node in ast.walk(tree)
             if isinstance(node, ast.ImportFrom) and node.module
             and node.module.startswith(f"{name}.") for a in node.names}
    table = {n: module for module, names in package._SOURCES.items() for n in names}
    assert table == shown
    assert sorted(table) == sorted(package.__all__)
    with pytest.raises(AttributeError, match="no attribute 'Nope'"):
        package.Nope  # noqa: B018


def test_the_lazy_packages_are_the_ones_meant():
    assert LAZY == ["pipeline.counters", "pipeline.model", "pipeline.rules"]


def test_every_error_is_a_bocage_error():
    import pipeline.errors as e

    for name in ("DataError", "GridError", "ImageError", "ManifestError", "ModuleError"):
        assert issubclass(getattr(e, name), e.BocageError)
