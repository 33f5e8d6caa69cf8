"""What a source file imports, for the tests of which code may import what (the layer tests
of sessions_app and minigames)."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def imported_names(path: Path) -> set[str]:
    """Every module a file imports, and every name it imports from one, as dotted names, at
    any level of the file (function bodies included)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def importers(paths, module: str) -> list[str]:
    """The files among ``paths`` that import ``module`` or anything in it, from the root."""
    return [
        str(path.relative_to(ROOT))
        for path in sorted(paths)
        if any(name == module or name.startswith(f"{module}.") for name in imported_names(path))
    ]
