"""What the fuzzing job makes before it fuzzes and checks after: the
resources whose IDs the fuzzer is given (project A's), the resources no
persona may touch (project B's), and the books that must balance after
(every project's volume and compute quota usage against what it
owns)."""

import time

import requests

PROJECT_A = 'fuzz-project-a'        # the members' and readers' project
PROJECT_B = 'fuzz-project-b'        # nobody fuzzes as B: nothing may change
PROJECT_C = 'fuzz-project-c'        # the other project's persona
PROJECT_ADMIN = 'fuzz-admin-project'
PROJECTS = (PROJECT_A, PROJECT_B, PROJECT_C, PROJECT_ADMIN)
# Statuses a volume or snapshot passes through on its own; the books are
# read once none is left in one. (A volume the attachments API reserved,
# or left attaching, stays so until its client goes on; so does one
# os-begin_detaching left detaching: see busy().)
BUSY = ('creating', 'deleting', 'extending', 'detaching', 'downloading',
        'uploading', 'reimaging', 'backing-up', 'restoring-backup')


class Client:
    """HTTP as one noauth persona (``X-Auth-Token: user:project[:roles]``)
    at the latest microversion of each API."""

    def __init__(self, volume_url, compute_url, token):
        self.volume_url = volume_url
        self.compute_url = compute_url
        self.session = requests.Session()
        self.session.headers['X-Auth-Token'] = token

    def volume(self, method, path, json=None, expect=(200, 201, 202)):
        return self._call(self.volume_url, 'volume 3.71', method, path,
                          json, expect)

    def compute(self, method, path, json=None, expect=(200, 201, 202)):
        return self._call(self.compute_url, 'compute 2.97', method, path,
                          json, expect)

    def _call(self, root, version, method, path, json, expect):
        resp = self.session.request(
            method, root + path, json=json, timeout=60,
            headers={'OpenStack-API-Version': version})
        if resp.status_code not in expect:
            raise RuntimeError('%s %s answered %d: %s' % (
                method, path, resp.status_code, resp.text[:500]))
        return resp.json() if resp.content else None


def wait_for(check, what, timeout=120):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise RuntimeError('timed out waiting for %s' % what)
        time.sleep(0.2)


def _volume_ready(client, volume_id, status='available'):
    return wait_for(
        lambda: client.volume('GET', '/volumes/%s' % volume_id)[
            'volume']['status'] == status,
        'volume %s %s' % (volume_id, status))


def _make_volume(client, name, size=1, **more):
    body = {'volume': dict({'size': size, 'name': name,
                            'metadata': {'made-by': 'fuzz'}}, **more)}
    volume = client.volume('POST', '/volumes', body)['volume']
    _volume_ready(client, volume['id'])
    return volume['id']


def _make_snapshot(client, volume_id, name):
    snapshot = client.volume('POST', '/snapshots', {'snapshot': {
        'volume_id': volume_id, 'name': name}})['snapshot']
    wait_for(lambda: client.volume('GET', '/snapshots/%s' % snapshot['id'])[
        'snapshot']['status'] == 'available', 'snapshot %s' % snapshot['id'])
    return snapshot['id']


def seed(clients):
    """Make project A's resources (their IDs are what the fuzzer's path
    parameters take) and project B's (which must not change); return
    ``(parameters, untouchable)``."""
    a, b, admin = clients['member'], clients['b'], clients['admin']
    volume_id = _make_volume(a, 'fuzz-volume')
    snapshot_id = _make_snapshot(a, volume_id, 'fuzz-snapshot')
    # A volume reserved for a server by an attachment of the attachments
    # API (the compute service is not asked: no instance of that ID).
    attached_id = _make_volume(a, 'fuzz-attached')
    attachment = a.volume('POST', '/attachments', {'attachment': {
        'volume_uuid': attached_id,
        'instance_uuid': '7b1e59c8-9b0e-4c7c-9a52-1f0e7c1b2d3e'}})
    flavors = admin.compute('GET', '/flavors')['flavors']
    flavor_id = sorted(flavors, key=lambda f: f['name'])[0]['id']
    boot_id = _make_volume(a, 'fuzz-boot')
    server = a.compute('POST', '/servers', {'server': {
        'name': 'fuzz-server', 'flavorRef': flavor_id,
        'networks': 'none',
        'block_device_mapping_v2': [{
            'uuid': boot_id, 'source_type': 'volume',
            'destination_type': 'volume', 'boot_index': 0}]}})['server']
    wait_for(lambda: a.compute('GET', '/servers/%s' % server['id'])[
        'server']['status'] in ('ACTIVE', 'ERROR'), 'the seeded server')
    type_id = admin.volume('POST', '/types', {'volume_type': {
        'name': 'fuzz-type', 'extra_specs': {'fuzz': 'yes'}}})[
            'volume_type']['id']
    keypair = a.compute('POST', '/os-keypairs', {'keypair': {
        'name': 'fuzz-key', 'public_key': _PUBLIC_KEY}})['keypair']
    parameters = {
        'project_id': PROJECT_A, 'target_project_id': PROJECT_A,
        'volume_id': volume_id, 'snapshot_id': snapshot_id,
        'attachment_id': attachment['attachment']['id'],
        'server_id': server['id'], 'flavor_id': flavor_id,
        'type_id': type_id, 'keypair_name': keypair['name'],
        'key': 'made-by',
    }
    b_volume = _make_volume(b, 'untouchable')
    b_snapshot = _make_snapshot(b, b_volume, 'untouchable')
    return parameters, {'volume': b_volume, 'snapshot': b_snapshot}


def seed_admin(clients, parameters):
    """The path parameters of the administrator's run: project A's,
    except a volume and a snapshot of the administrator's own. Its
    ``os-reset_status`` may leave them in any status, ``creating`` or
    ``deleting`` too, where nothing moves them on (as in Cinder); the
    books do not wait for those two (:func:`books`), and what the members
    did to project A's must still settle."""
    admin = clients['admin']
    volume_id = _make_volume(admin, 'fuzz-admin-volume')
    snapshot_id = _make_snapshot(admin, volume_id, 'fuzz-admin-snapshot')
    return dict(parameters, volume_id=volume_id, snapshot_id=snapshot_id)


def untouched(clients, untouchable):
    """Project B's resources as its owner sees them: compared before and
    after the fuzzing."""
    b = clients['b']
    return {
        'volume': b.volume('GET', '/volumes/%s' % untouchable['volume']),
        'snapshot': b.volume('GET',
                             '/snapshots/%s' % untouchable['snapshot']),
        'metadata': b.volume('GET', '/volumes/%s/metadata'
                             % untouchable['volume']),
    }


def project_a(clients, parameters):
    """Project A's resources as its member sees them: a reader of A and a
    member of another project must leave them as they were."""
    a = clients['member']
    return {
        'volume': a.volume('GET', '/volumes/%s' % parameters['volume_id']),
        'metadata': a.volume('GET', '/volumes/%s/metadata'
                             % parameters['volume_id']),
        'snapshot': a.volume('GET', '/snapshots/%s'
                             % parameters['snapshot_id']),
        'attachment': a.volume('GET', '/attachments/%s'
                               % parameters['attachment_id']),
        'server': a.compute('GET', '/servers/%s' % parameters['server_id']),
        'keypair': a.compute('GET', '/os-keypairs/%s'
                             % parameters['keypair_name']),
        'quota': clients['admin'].volume(
            'GET', '/os-quota-sets/%s' % PROJECT_A),
    }


def busy(volumes, snapshots, reset=(), attachments=()):
    """'<id> <status>' of each volume and snapshot in a status it leaves
    on its own, except those of ``reset`` (IDs an administrator's reset
    may have put in one).

    A volume is ``detaching`` on its own while one of its ``attachments``
    (as an administrator lists them in detail) is being deleted: shown
    ``detached`` until its row goes. One ``detaching`` without such an
    attachment is held by its client, as Cinder's is: os-begin_detaching
    put it there, and os-detach or os-roll_detaching moves it on."""
    deleting = {a['volume_id'] for a in attachments
                if a['status'] == 'detached'}
    return ['%s %s' % (v['id'], v['status']) for v in volumes + snapshots
            if v['status'] in BUSY and v['id'] not in reset and
            (v['status'] != 'detaching' or v['id'] in deleting)]


def books(admin, reset=()):
    """What does not balance in each project's volume quota usage, read
    once no volume or snapshot is busy (but those of ``reset``)."""
    seen = {'busy': [], 'attachments': []}

    def settled():
        volumes = admin.volume('GET', '/volumes/detail?all_tenants=1'
                               '&limit=1000')['volumes']
        snapshots = admin.volume('GET', '/snapshots/detail?all_tenants=1'
                                 '&limit=1000')['snapshots']
        seen['attachments'] = admin.volume(
            'GET', '/attachments/detail?all_tenants=1&limit=1000')[
                'attachments']
        seen['busy'] = busy(volumes, snapshots, reset, seen['attachments'])
        return None if seen['busy'] else (volumes, snapshots)
    try:
        volumes, snapshots = wait_for(settled, 'every volume and snapshot '
                                      'to settle', timeout=300)
    except RuntimeError as error:
        # Which ones, in which status, with which attachments: the aio's
        # log says why.
        ids = {entry.split()[0] for entry in seen['busy']}
        held = ['attachment %s of %s: %s'
                % (a['id'], a['volume_id'], a['status'])
                for a in seen['attachments'] if a['volume_id'] in ids]
        raise RuntimeError('%s; still busy: %s%s' % (
            error, ', '.join(seen['busy']),
            ''.join('; ' + h for h in held)))
    usages = {project: admin.volume(
        'GET', '/os-quota-sets/%s?usage=true' % project)['quota_set']
        for project in PROJECTS}
    return imbalances(volumes, snapshots, usages) + compute_books(admin)


def compute_books(admin):
    """What does not balance in each project's compute quota usage
    (instances, cores, ram), read once no server is being deleted (a
    delete gives the quota back as the server leaves the list)."""
    def settled():
        servers = admin.compute('GET', '/servers/detail?all_tenants=1'
                                '&limit=1000')['servers']
        busy = [s['id'] for s in servers
                if s.get('OS-EXT-STS:task_state') == 'deleting']
        # (A list in a tuple: no server at all is settled too.)
        return None if busy else (servers,)
    [servers] = wait_for(settled, 'every server to settle', timeout=300)
    usages = {project: admin.compute(
        'GET', '/os-quota-sets/%s/detail' % project)['quota_set']
        for project in PROJECTS}
    return compute_imbalances(servers, usages)


def compute_imbalances(servers, usages):
    """For each project of ``usages`` (project -> its compute quota set
    detail), each of instances, cores and ram whose usage is not what
    the project's ``servers`` (as an administrator lists them in detail,
    their flavors embedded: 2.47 or later) have."""
    problems = []
    for project, usage in sorted(usages.items()):
        owned = [s for s in servers if s['tenant_id'] == project]
        expected = {
            'instances': len(owned),
            'cores': sum(s['flavor']['vcpus'] for s in owned),
            'ram': sum(s['flavor']['ram'] for s in owned),
        }
        for resource, count in expected.items():
            got = usage[resource]['in_use']
            if got != count:
                problems.append('%s %s: in_use %s; its servers have %d'
                                % (project, resource, got, count))
    return problems


def imbalances(volumes, snapshots, usages):
    """For each project of ``usages`` (project -> its quota set with
    usage), each resource whose usage is not what the project owns among
    ``volumes`` and ``snapshots`` (as an administrator lists them at 3.65
    or later), or has something reserved. What does not consume quota
    (``consumes_quota`` false: a create that failed gave it back) is not
    counted."""
    problems = []
    for project, usage in sorted(usages.items()):
        owned = [v for v in volumes
                 if v['os-vol-tenant-attr:tenant_id'] == project and
                 v['consumes_quota']]
        snaps = [s for s in snapshots
                 if s['os-extended-snapshot-attributes:project_id'] ==
                 project and s['consumes_quota']]
        expected = {
            'volumes': len(owned),
            'snapshots': len(snaps),
            'gigabytes': sum(v['size'] for v in owned) +
            sum(s['size'] for s in snaps),
        }
        expected.update(_per_type(usage, volumes, owned, snaps))
        for resource, count in expected.items():
            got = usage[resource]
            if got['in_use'] != count or got['reserved'] != 0:
                problems.append(
                    '%s %s: in_use %s, reserved %s; it has %d' % (
                        project, resource, got['in_use'], got['reserved'],
                        count))
    return problems


_KINDS = ('volumes_', 'gigabytes_', 'snapshots_')


def _per_type(usage, volumes, owned, snaps):
    """What each volume type's resources of ``usage`` (volumes_<type>,
    gigabytes_<type>, snapshots_<type>) must be: the project's volumes
    of the type, and its snapshots of volumes of the type."""
    type_of = {v['id']: v['volume_type'] for v in volumes}
    expected = {}
    for resource in usage:
        kind = next((k for k in _KINDS if resource.startswith(k)), None)
        if kind is None:
            continue
        name = resource[len(kind):]
        mine = [v for v in owned if v['volume_type'] == name]
        its = [s for s in snaps if type_of.get(s['volume_id']) == name]
        expected[resource] = {
            'volumes_': len(mine),
            'snapshots_': len(its),
            'gigabytes_': sum(v['size'] for v in mine) +
            sum(s['size'] for s in its),
        }[kind]
    return expected


_PUBLIC_KEY = (
    'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGc7S0dK1h1qoH9kqkJ3u1r2mXK6C0'
    'vLr2C0l5v0W9xQ fuzz@tether')


def remove_servers(admin):
    """Delete every server (the seeded one, and any a persona made), so
    that no guest outlives the job's tether-aio."""
    servers = admin.compute('GET', '/servers?all_tenants=1')['servers']
    for server in servers:
        admin.compute('DELETE', '/servers/%s' % server['id'],
                      expect=(204, 404))
    wait_for(lambda: not admin.compute('GET', '/servers?all_tenants=1')[
        'servers'], 'every server to be deleted', timeout=180)
