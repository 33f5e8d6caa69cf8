"""The complexity bound: no function of the app branches more than MAX_COMPLEXITY ways.

The most complex functions are where the next bug hides: one that grows past the bound is
split along its own seams (a table of checks, a function per step) before it lands.
Measured as radon measures cyclomatic complexity (boolean operators and comprehensions
count), over the app's code, migrations aside.
"""

from pathlib import Path

from radon.complexity import cc_visit
from radon.visitors import Class

PROJECT = Path(__file__).resolve().parent.parent
PACKAGES = ("config", "sessions_app", "minigames")
MAX_COMPLEXITY = 25


def _functions(blocks):
    for block in blocks:
        if isinstance(block, Class):
            yield from _functions(block.methods)
            yield from _functions(block.inner_classes)
        else:
            yield block
            yield from _functions(block.closures)


def _sources():
    for package in PACKAGES:
        for path in sorted((PROJECT / package).rglob("*.py")):
            if "migrations" not in path.parts:
                yield path


def test_the_app_has_sources_to_measure():
    assert sum(1 for _ in _sources()) > 50


def test_no_function_branches_more_than_the_bound():
    too_complex = [
        f"{path.relative_to(PROJECT)}:{function.lineno} {function.fullname} ({function.complexity})"
        for path in _sources()
        for function in _functions(cc_visit(path.read_text(encoding="utf-8")))
        if function.complexity > MAX_COMPLEXITY
    ]
    assert not too_complex, "Split these functions along their seams:\n" + "\n".join(too_complex)
