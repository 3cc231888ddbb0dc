"""The rows scale.py grows the cloud with: volumes, attachments and
servers inserted straight into the SQLite databases of a running
tether-aio with SQLAlchemy core bulk inserts (tether's own tables), in
transactions of a few thousand rows so that the aio's own writers (its
heartbeats) wait for at most one of them.

The rows are in states that the aio leaves alone (see scale.py's
docstring): volumes ``available`` (or ``in-use`` with an ``attached``
attachment) on the aio's volume backend, copied from a volume the aio
made itself; servers ``active`` on the aio's compute host, inserted after
the compute service's start-up recovery ran.
"""

import datetime
import json
import uuid

import sqlalchemy as sa

from tether.db.compute import models as compute_models
from tether.db.volume import models as volume_models

CHUNK = 5000
NAMESPACE = uuid.UUID('6f1c1a52-5a9e-4d57-9a55-7b1c0f3e0b7e')


def seeded_uuid(kind, index):
    """The id of the ``index``-th seeded row of a kind (the same in every
    run, so attachments can name the servers seeded after them)."""
    return str(uuid.uuid5(NAMESPACE, '%s-%d' % (kind, index)))


def engine(path):
    """An engine on one of the aio's SQLite files (WAL, as the aio's)."""
    eng = sa.create_engine('sqlite:///' + path)

    @sa.event.listens_for(eng, 'connect')
    def _on_connect(dbapi_con, record):
        dbapi_con.execute('PRAGMA busy_timeout = 60000')
        dbapi_con.execute('PRAGMA foreign_keys = ON')
    return eng


def _insert(eng, table, rows):
    for start in range(0, len(rows), CHUNK):
        with eng.begin() as conn:
            conn.execute(table.insert(), rows[start:start + CHUNK])


def _clock(start, index):
    # Distinct, growing creation times: newer rows sort first.
    return start + datetime.timedelta(milliseconds=index)


class VolumeSeeder:
    """Volumes in ``main`` and in ``others`` (as many in all as in
    ``main``), and attachments, copied from the template volume."""

    def __init__(self, path, template_id, main, others):
        self.eng = engine(path)
        self.main, self.others = main, others
        table = volume_models.Volume.__table__
        with self.eng.connect() as conn:
            row = conn.execute(table.select().where(
                table.c.id == template_id)).mappings().one()
        self.template = {k: row[k] for k in (
            'user_id', 'host', 'size', 'availability_zone',
            'volume_type_id', 'provider_location')}
        self.in_main = 0      # seeded volumes of main
        self.index = 0        # seeded volumes of every project
        self.attachments = 0
        self.start = datetime.datetime.utcnow()

    def _volume(self, project, status='available', attach='detached'):
        i = self.index
        self.index += 1
        return dict(self.template, id=seeded_uuid('volume', i),
                    project_id=project, name='scale-%d' % i,
                    status=status, attach_status=attach, bootable=False,
                    multiattach=False, use_quota=True,
                    created_at=_clock(self.start, i),
                    launched_at=_clock(self.start, i))

    def grow_to(self, size):
        """``main`` holds ``size`` seeded volumes, the others as many in
        all (interleaved, so a page across projects mixes them); the ids
        of main's new volumes."""
        rows, ids = [], []
        while self.in_main < size:
            row = self._volume(self.main)
            rows.append(row)
            ids.append(row['id'])
            other = self.others[self.in_main % len(self.others)]
            rows.append(self._volume(other))
            self.in_main += 1
        _insert(self.eng, volume_models.Volume.__table__, rows)
        return ids

    def attach_to(self, size, project, host):
        """``size`` attachments in all, each of an ``in-use`` volume of
        ``project`` of its own, ``attached`` to seeded server i."""
        volumes, attachments = [], []
        now = datetime.datetime.utcnow()
        while self.attachments < size:
            i = self.attachments
            volume = self._volume(project, 'in-use', 'attached')
            volume['id'] = seeded_uuid('attached-volume', i)
            volumes.append(volume)
            attachments.append({
                'id': seeded_uuid('attachment', i),
                'volume_id': volume['id'], 'project_id': project,
                'instance_uuid': seeded_uuid('server', i),
                'attached_host': host, 'mountpoint': '/dev/vda',
                'attach_time': now, 'attach_status': 'attached',
                'attach_mode': 'rw', 'connection_info': json.dumps(
                    {'driver_volume_type': 'nfs', 'data': {}}),
                'connector': json.dumps({'host': host}),
                'created_at': _clock(self.start, self.index)})
            self.attachments += 1
        _insert(self.eng, volume_models.Volume.__table__, volumes)
        _insert(self.eng, volume_models.VolumeAttachment.__table__,
                attachments)


class ServerSeeder:
    """Servers of one project on the aio's compute host, each booted from
    the volume of seeded attachment i (one block device row)."""

    def __init__(self, path, project, user):
        self.eng = engine(path)
        self.project, self.user = project, user
        services = compute_models.ComputeService.__table__
        flavors = compute_models.Flavor.__table__
        with self.eng.connect() as conn:
            service = conn.execute(services.select().where(
                services.c.binary == 'tether-compute')).mappings().one()
            flavor = conn.execute(flavors.select().order_by(
                flavors.c.memory_mb)).mappings().first()
        self.host = service['host']
        self.node = service['hypervisor_hostname']
        self.zone = service['availability_zone']
        self.flavor = flavor
        self.count = 0
        self.start = datetime.datetime.utcnow()

    def grow_to(self, size):
        """``size`` seeded servers in all; the ids of the new ones."""
        f = self.flavor
        flavor = json.dumps({
            'id': f['flavorid'], 'name': f['name'],
            'memory_mb': f['memory_mb'], 'vcpus': f['vcpus'],
            'root_gb': f['root_gb'], 'ephemeral_gb': f['ephemeral_gb'],
            'swap': f['swap'], 'extra_specs': {}})
        instances, bdms = [], []
        while self.count < size:
            i = self.count
            server = seeded_uuid('server', i)
            created = _clock(self.start, i)
            instances.append({
                'uuid': server, 'project_id': self.project,
                'user_id': self.user, 'display_name': 'scale-%d' % i,
                'hostname': 'scale-%d' % i, 'host': self.host,
                'node': self.node, 'availability_zone': self.zone,
                'flavor': flavor, 'image_ref': '',
                'memory_mb': f['memory_mb'], 'vcpus': f['vcpus'],
                'vm_state': 'active', 'power_state': 1, 'locked': False,
                'deleted': False, 'launched_at': created,
                'created_at': created})
            bdms.append({
                'uuid': seeded_uuid('bdm', i), 'instance_uuid': server,
                'source_type': 'volume', 'destination_type': 'volume',
                'volume_id': seeded_uuid('attached-volume', i),
                'attachment_id': seeded_uuid('attachment', i),
                'device_name': '/dev/vda', 'boot_index': 0,
                'delete_on_termination': False, 'status': 'attached',
                'created_at': created})
            self.count += 1
        _insert(self.eng, compute_models.Instance.__table__, instances)
        _insert(self.eng, compute_models.BlockDeviceMapping.__table__, bdms)
        return [row['uuid'] for row in instances]
