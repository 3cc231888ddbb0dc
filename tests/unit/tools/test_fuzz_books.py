"""The fuzzing job's last check (tools/fuzz/world.py): each project's
volume quota usage is what it owns, nothing reserved, and its compute
quota usage what its servers have; shown to catch the books that do not
balance."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
_SPEC = importlib.util.spec_from_file_location(
    'fuzz_world', ROOT / 'tools' / 'fuzz' / 'world.py')
world = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(world)

VOLUMES = [
    {'id': 'v1', 'os-vol-tenant-attr:tenant_id': 'a', 'size': 1,
     'consumes_quota': True, 'volume_type': 'gold'},
    {'id': 'v2', 'os-vol-tenant-attr:tenant_id': 'a', 'size': 3,
     'consumes_quota': True, 'volume_type': '__DEFAULT__'},
    {'id': 'v3', 'os-vol-tenant-attr:tenant_id': 'b', 'size': 2,
     'consumes_quota': True, 'volume_type': 'gold'},
    # A create that failed: its quota was given back.
    {'id': 'v4', 'os-vol-tenant-attr:tenant_id': 'b', 'size': 900,
     'consumes_quota': False, 'volume_type': 'gold'},
]
SNAPSHOTS = [{'os-extended-snapshot-attributes:project_id': 'a', 'size': 1,
              'consumes_quota': True, 'volume_id': 'v1'}]


def _usage(volumes, snapshots, gigabytes, reserved=0):
    return {'volumes': {'in_use': volumes, 'reserved': reserved},
            'snapshots': {'in_use': snapshots, 'reserved': 0},
            'gigabytes': {'in_use': gigabytes, 'reserved': 0}}


def test_books_that_balance():
    assert world.imbalances(VOLUMES, SNAPSHOTS, {
        'a': _usage(2, 1, 5), 'b': _usage(1, 0, 2),
        'c': _usage(0, 0, 0)}) == []


def _typed(usage, **per_type):
    usage = dict(usage)
    for resource, in_use in per_type.items():
        usage[resource] = {'in_use': in_use, 'reserved': 0}
    return usage


def test_the_books_of_each_volume_type():
    a = _typed(_usage(2, 1, 5), volumes_gold=1, gigabytes_gold=2,
               snapshots_gold=1, volumes___DEFAULT__=1,
               gigabytes___DEFAULT__=3, snapshots___DEFAULT__=0)
    b = _typed(_usage(1, 0, 2), volumes_gold=1, gigabytes_gold=2)
    assert world.imbalances(VOLUMES, SNAPSHOTS, {'a': a, 'b': b}) == []
    a['gigabytes_gold'] = {'in_use': 1, 'reserved': 0}
    b['volumes_gold'] = {'in_use': 2, 'reserved': 0}
    assert world.imbalances(VOLUMES, SNAPSHOTS, {'a': a, 'b': b}) == [
        'a gigabytes_gold: in_use 1, reserved 0; it has 2',
        'b volumes_gold: in_use 2, reserved 0; it has 1']


def test_books_that_do_not():
    assert world.imbalances(VOLUMES, SNAPSHOTS, {
        'a': _usage(2, 1, 4), 'b': _usage(1, 0, 2, reserved=1),
        'c': _usage(0, 1, 0)}) == [
        'a gigabytes: in_use 4, reserved 0; it has 5',
        'b volumes: in_use 1, reserved 1; it has 1',
        'c snapshots: in_use 1, reserved 0; it has 0']


SERVERS = [
    {'tenant_id': 'a', 'flavor': {'vcpus': 1, 'ram': 64}},
    {'tenant_id': 'a', 'flavor': {'vcpus': 2, 'ram': 128}},
    {'tenant_id': 'b', 'flavor': {'vcpus': 1, 'ram': 64}},
]


def _compute(instances, cores, ram):
    return {'instances': {'in_use': instances}, 'cores': {'in_use': cores},
            'ram': {'in_use': ram}}


def test_compute_books_that_balance():
    assert world.compute_imbalances(SERVERS, {
        'a': _compute(2, 3, 192), 'b': _compute(1, 1, 64),
        'c': _compute(0, 0, 0)}) == []


def test_compute_books_that_do_not():
    assert world.compute_imbalances(SERVERS, {
        'a': _compute(3, 3, 192), 'b': _compute(1, 1, 0),
        'c': _compute(0, 1, 0)}) == [
        'a instances: in_use 3; its servers have 2',
        'b ram: in_use 0; its servers have 64',
        'c cores: in_use 1; its servers have 0']


def test_busy_names_what_has_not_settled():
    volumes = [{'id': 'v1', 'status': 'available'},
               {'id': 'v2', 'status': 'deleting'},
               {'id': 'v3', 'status': 'creating'}]
    snapshots = [{'id': 's1', 'status': 'creating'},
                 {'id': 's2', 'status': 'error'}]
    assert world.busy(volumes, snapshots) == [
        'v2 deleting', 'v3 creating', 's1 creating']
    # Those an administrator's reset may have left so are not waited for.
    assert world.busy(volumes, snapshots, reset=('v3', 's1')) == [
        'v2 deleting']


def test_a_volume_detaching_on_its_own_is_busy_one_held_by_its_client_not():
    volumes = [{'id': 'v1', 'status': 'detaching'},
               {'id': 'v2', 'status': 'detaching'}]
    attachments = [
        # v1's attachment is being deleted: the volume service finishes.
        {'id': 'a1', 'volume_id': 'v1', 'status': 'detached'},
        # v2's is attached: os-begin_detaching put v2 in detaching, and
        # only its client moves it on (os-detach, os-roll_detaching).
        {'id': 'a2', 'volume_id': 'v2', 'status': 'attached'}]
    assert world.busy(volumes, [], attachments=attachments) == [
        'v1 detaching']
    attachments[1]['status'] = 'detached'
    assert world.busy(volumes, [], attachments=attachments) == [
        'v1 detaching', 'v2 detaching']
