"""The two services never import each other, and the shared layer imports
neither (DESIGN.md: they talk over their REST APIs).

Every module of the tree belongs to one of four groups, by its path:

* the volume service: ``tether/volume/`` and the ``volume/`` package of
  each layer (``api/volume``, ``db/volume``, ``objects/volume``,
  ``policies/volume``, ``drivers/volume``, ``migrations/volume``);
* the compute service: the same with ``compute``, and
  ``drivers/virt`` (the hypervisor drivers, Nova's name);
* the assembly: ``tether/cmd/`` (the commands, tether-aio runs both
  services) and ``tether/policies/registry.py`` (every rule, for
  oslo.policy's tools); nothing but the assembly imports it;
* the shared layer: everything else.

The contracts: volume never imports compute, compute never imports
volume, the shared layer imports neither (nor the assembly). And within
them the layers (STYLE.md): no module outside tether/db (and its
migrations) imports the models, so no row leaves the database layer; the
HTTP layer (tether/api) never imports tether/db; a driver imports
neither tether/db, tether/objects nor tether/api. Each is checked on
the tree, and the check is shown to find planted violations; importing
each service's entry points in a fresh interpreter loads nothing of the
other.
"""

import ast
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

SERVICES = ('volume', 'compute')
# The layers that hold a package per service.
LAYERS = ('api', 'db', 'objects', 'policies', 'drivers', 'migrations')
# Packages of a layer that belong to a service under another name.
OTHER_NAMES = {('drivers', 'virt'): 'compute'}
ASSEMBLY = ('tether.cmd', 'tether.policies.registry')
# Who may name the ORM models.
DATABASE = ('tether.db', 'tether.migrations')
# Layers and what they never import.
NEVER = {'tether.api': ('tether.db',),
         'tether.drivers': ('tether.db', 'tether.objects', 'tether.api')}


def _within(name, packages):
    return any(name == p or name.startswith(p + '.') for p in packages)


def owner(module):
    """volume, compute, assembly or shared."""
    if any(module == a or module.startswith(a + '.') for a in ASSEMBLY):
        return 'assembly'
    parts = module.split('.')[1:]
    if parts and parts[0] in SERVICES:
        return parts[0]
    if len(parts) > 1 and parts[0] in LAYERS:
        if parts[1] in SERVICES:
            return parts[1]
        return OTHER_NAMES.get((parts[0], parts[1]), 'shared')
    return 'shared'


def modules(root):
    """{dotted name: path} of every module under ``root``/tether."""
    found = {}
    for path in sorted((root / 'tether').rglob('*.py')):
        parts = list(path.relative_to(root).with_suffix('').parts)
        if parts[-1] == '__init__':
            parts.pop()
        found['.'.join(parts)] = path
    return found


def imports(module, path):
    """The tether modules (or names in them) that ``module`` imports,
    anywhere in it (functions too)."""
    package = module if path.name == '__init__.py' else \
        module.rpartition('.')[0]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ''
            if node.level:
                parent = package.split('.')
                parent = parent[:len(parent) - node.level + 1]
                base = '.'.join(parent + ([base] if base else []))
            yield base
            for alias in node.names:
                yield '%s.%s' % (base, alias.name)


def violations(root):
    found = []
    for module, path in modules(root).items():
        mine = owner(module)
        for name in imports(module, path):
            if name != 'tether' and not name.startswith('tether.'):
                continue
            theirs = owner(name)
            if {mine, theirs} == {'volume', 'compute'}:
                reason = 'the %s service imports the %s service' % (
                    mine, theirs)
            elif theirs == 'assembly' and mine != 'assembly':
                reason = 'only the assembly imports the assembly'
            elif mine == 'shared' and theirs in SERVICES:
                reason = 'the shared layer imports the %s service' % theirs
            elif ('models' in name.split('.') and
                  not _within(module, DATABASE)):
                reason = 'rows leave the database layer'
            elif any(_within(module, [layer]) and _within(name, never)
                     for layer, never in NEVER.items()):
                reason = '%s never imports %s' % (
                    module.split('.')[1], '.'.join(name.split('.')[:2]))
            else:
                continue
            found.append('%s imports %s: %s' % (module, name, reason))
    return sorted(set(found))


def test_the_tree_keeps_the_contracts():
    assert violations(ROOT) == []


def test_every_module_belongs_to_a_group():
    groups = {}
    for module in modules(ROOT):
        groups.setdefault(owner(module), []).append(module)
    # Both services and the shared layer exist and are not empty: a
    # rename that moved a service out of its packages shows here.
    assert set(groups) == {'volume', 'compute', 'shared', 'assembly'}
    assert 'tether.volume.manager' in groups['volume']
    assert 'tether.db.volume.volume' in groups['volume']
    assert 'tether.drivers.virt.libvirt.driver' in groups['compute']
    assert 'tether.api.compute.handlers.servers' in groups['compute']
    assert 'tether.db.session' in groups['shared']
    assert 'tether.api.wsgi' in groups['shared']
    assert 'tether.cmd.aio' in groups['assembly']


def _plant(root, files):
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_the_check_finds_planted_violations(tmp_path):
    _plant(tmp_path, {
        'tether/__init__.py': '',
        'tether/volume/__init__.py': '',
        'tether/volume/manager.py': 'from tether.compute import api\n',
        'tether/compute/__init__.py': '',
        'tether/compute/api.py': 'def f():\n    import tether.volume.x\n',
        'tether/db/__init__.py': '',
        'tether/db/session.py': 'from tether.db.volume import models\n',
        'tether/db/volume/__init__.py': '',
        'tether/db/volume/models.py': '',
        'tether/drivers/virt/driver.py': (
            'from tether.volume import y\n'
            'from tether.objects.compute import x\n'),
        'tether/api/volume/handlers/a.py': (
            'from tether.cmd import aio\n'
            'from tether.db.volume import models as m\n'),
        'tether/context.py': 'from tether.policies.compute import base\n',
        'tether/cmd/aio.py': ('from tether.volume import manager\n'
                              'from tether.compute import api\n'),
    })
    assert set(violations(tmp_path)) == {
        'tether.api.volume.handlers.a imports tether.cmd: only the '
        'assembly imports the assembly',
        'tether.api.volume.handlers.a imports tether.cmd.aio: only the '
        'assembly imports the assembly',
        'tether.api.volume.handlers.a imports tether.db.volume: api never '
        'imports tether.db',
        'tether.api.volume.handlers.a imports tether.db.volume.models: '
        'rows leave the database layer',
        'tether.compute.api imports tether.volume.x: the compute service '
        'imports the volume service',
        'tether.context imports tether.policies.compute: the shared layer '
        'imports the compute service',
        'tether.context imports tether.policies.compute.base: the shared '
        'layer imports the compute service',
        'tether.db.session imports tether.db.volume: the shared layer '
        'imports the volume service',
        'tether.db.session imports tether.db.volume.models: the shared '
        'layer imports the volume service',
        'tether.drivers.virt.driver imports tether.objects.compute: '
        'drivers never imports tether.objects',
        'tether.drivers.virt.driver imports tether.objects.compute.x: '
        'drivers never imports tether.objects',
        'tether.drivers.virt.driver imports tether.volume: the compute '
        'service imports the volume service',
        'tether.drivers.virt.driver imports tether.volume.y: the compute '
        'service imports the volume service',
        'tether.volume.manager imports tether.compute: the volume service '
        'imports the compute service',
        'tether.volume.manager imports tether.compute.api: the volume '
        'service imports the compute service',
    }


# What a process of one service loads: nothing of the other, even
# through a shared module.
ENTRY_POINTS = {
    'volume': ['tether.volume.service', 'tether.api.volume.app',
               'tether.api.volume.wsgi_app'],
    'compute': ['tether.compute.service', 'tether.api.compute.app',
                'tether.api.compute.wsgi_app'],
}


@pytest.mark.parametrize('service', SERVICES)
def test_a_service_process_loads_nothing_of_the_other(service):
    other = 'compute' if service == 'volume' else 'volume'
    code = ('import sys\n' +
            ''.join('import %s\n' % m for m in ENTRY_POINTS[service]) +
            'print("\\n".join(sorted(sys.modules)))')
    result = subprocess.run([sys.executable, '-c', code],
                            capture_output=True, text=True, timeout=120,
                            cwd=ROOT)
    assert result.returncode == 0, result.stderr
    loaded = [m for m in result.stdout.split()
              if m.startswith('tether') and owner(m) == other]
    assert loaded == []
