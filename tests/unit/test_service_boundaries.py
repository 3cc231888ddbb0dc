"""The volume and compute services never import each other's code.

They talk over their REST APIs (DESIGN.md); shared layers (tether.api's
framework, tether.db.session, tether.objects, tether.clients, ...) are
fine.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2] / 'tether'

VOLUME = ('tether.volume', 'tether.api.volume', 'tether.db.volume',
          'tether.drivers.volume')
COMPUTE = ('tether.compute', 'tether.api.compute', 'tether.db.compute',
           'tether.drivers.virt')


def _modules(packages):
    for package in packages:
        path = ROOT.parent.joinpath(*package.split('.'))
        files = ([path.with_suffix('.py')] if path.with_suffix('.py')
                 .exists() else sorted(path.rglob('*.py')))
        for f in files:
            yield f


def _imports(path):
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.module:
            yield node.module
            for alias in node.names:
                yield '%s.%s' % (node.module, alias.name)


def _offending(own, other):
    found = []
    for path in _modules(own):
        for name in _imports(path):
            if any(name == o or name.startswith(o + '.') for o in other):
                found.append('%s imports %s'
                             % (path.relative_to(ROOT.parent), name))
    return found


@pytest.mark.parametrize('own,other', [(VOLUME, COMPUTE),
                                       (COMPUTE, VOLUME)])
def test_no_imports_across_services(own, other):
    assert _offending(own, other) == []
