"""The JSON of servers and their volume attachments, per microversion."""

import hashlib

from tether.api.compute import versions
from tether.api import microversion
from tether.api import wsgi
from tether.objects import fields
from tether.policies.compute import servers as policy


def _time(value):
    return wsgi.isoformat_seconds(value) if value else None


def _usage_time(value):
    return wsgi.isoformat(value) if value else None


def host_id(project_id, host):
    """Nova's hostId: the same for one project's servers on one host."""
    if not host:
        return ''
    return hashlib.sha224((project_id + host).encode()).hexdigest()


# What an update or a rebuild leaves out of its answer before 2.75.
_NOT_CHANGED = frozenset((
    'OS-EXT-AZ:availability_zone', 'config_drive', 'key_name',
    'OS-SRV-USG:launched_at', 'OS-SRV-USG:terminated_at',
    'OS-EXT-STS:task_state', 'OS-EXT-STS:vm_state', 'OS-EXT-STS:power_state',
    'os-extended-volumes:volumes_attached', 'host_status'))

# The statuses Nova shows a server's progress in (of those tether has).
_PROGRESS_STATUSES = ('ACTIVE', 'BUILD', 'REBUILD')


class ServerView:
    """Servers as JSON at the request's microversion.

    ``host_statuses`` returns {host: status} of the compute hosts; it is
    called once, and only if a server's ``host_status`` is shown (2.16,
    by policy). ``server_groups(instance_uuid)`` returns the UUIDs of the
    groups a server is in (2.71, of one server shown).
    """

    def __init__(self, req, host_statuses=None, server_groups=None):
        self.req = req
        self.ctx = req.context
        self.base = versions.endpoint(req)
        # Read once: webob builds it anew at each access, and a page of
        # servers has three links each.
        self.root = req.application_url
        self.version = microversion.get(req)
        self._checks = {}
        # Worked out once a page, not for each server: the microversion
        # checks and the hostIds (a SHA-224 each).
        self._versions = {}
        self._host_ids = {}
        self._read_host_statuses = host_statuses
        self._server_groups = server_groups
        self._host_statuses = None

    def _allowed(self, rule, instance):
        key = (rule, instance.project_id)
        if key not in self._checks:
            self._checks[key] = self.ctx.can(
                rule, {'project_id': instance.project_id}, fatal=False)
        return self._checks[key]

    def _at(self, version):
        at = self._versions.get(version)
        if at is None:
            at = self._versions[version] = (
                self.version >= microversion.parse(version))
        return at

    def _host_id(self, project_id, host):
        key = (project_id, host)
        found = self._host_ids.get(key)
        if found is None:
            found = self._host_ids[key] = host_id(project_id, host)
        return found

    def links(self, kind, item_id, project_id):
        return [
            {'rel': 'self', 'href': '%s/%s/%s/%s' % (
                self.base, project_id, kind, item_id)},
            {'rel': 'bookmark', 'href': '%s/%s/%s/%s' % (
                self.root, project_id, kind, item_id)},
        ]

    def basic(self, instance):
        return {'id': instance.uuid, 'name': instance.display_name,
                'links': self.links('servers', instance.uuid,
                                    instance.project_id)}

    def _flavor(self, instance):
        flavor = instance.flavor
        if not self._at(versions.EMBEDDED_FLAVOR):
            return {'id': flavor['id'],
                    'links': [{'rel': 'bookmark', 'href': '%s/%s/flavors/%s'
                               % (self.root,
                                  instance.project_id, flavor['id'])}]}
        return {'vcpus': flavor['vcpus'], 'ram': flavor['memory_mb'],
                'disk': flavor['root_gb'],
                'ephemeral': flavor['ephemeral_gb'],
                'swap': flavor['swap'], 'original_name': flavor['name'],
                'extra_specs': flavor.get('extra_specs') or {}}

    def _fault(self, instance):
        fault = instance.fault
        if not fault or instance.vm_state not in (fields.VmState.ERROR,
                                                  fields.VmState.DELETED):
            return None
        out = {'code': fault['code'], 'message': fault['message'],
               'created': fault['created']}
        # Details (a traceback in Nova), if any, only for admins, or when
        # the fault is not a server error.
        if fault.get('details') and (self.ctx.is_admin or
                                     fault['code'] != 500):
            out['details'] = fault['details']
        return out

    def _image(self, instance):
        """The image of a server booted from one, as Nova shows it; ''
        for a server that boots from a volume."""
        if not instance.image_ref:
            return ''
        return {'id': instance.image_ref,
                'links': [{'rel': 'bookmark', 'href': '%s/%s/images/%s' % (
                    self.root, instance.project_id,
                    instance.image_ref)}]}

    def detail(self, instance, devices):
        """``devices``: the block device rows of the server (its volumes
        and its local root disk)."""
        # A volume the compute host has not made yet is not shown.
        volumes = [row for row in devices if row.is_volume and row.volume_id]
        out = self.basic(instance)
        status = instance.status
        out.update({
            'status': status,
            'tenant_id': instance.project_id,
            'user_id': instance.user_id,
            'metadata': instance.metadata or {},
            'hostId': self._host_id(instance.project_id, instance.host),
            'image': self._image(instance),
            'flavor': self._flavor(instance),
            'created': _time(instance.created_at),
            'updated': _time(instance.updated_at or instance.created_at),
            'addresses': {},
            'accessIPv4': instance.access_ip_v4 or '',
            'accessIPv6': instance.access_ip_v6 or '',
            'OS-DCF:diskConfig': 'MANUAL',
            'OS-EXT-AZ:availability_zone': instance.availability_zone or '',
            # "True" or "", as Nova shows it.
            'config_drive': instance.config_drive or '',
            'key_name': instance.key_name,
            'OS-SRV-USG:launched_at': _usage_time(instance.launched_at),
            'OS-SRV-USG:terminated_at': _usage_time(
                instance.terminated_at),
            'OS-EXT-STS:task_state': instance.task_state,
            'OS-EXT-STS:vm_state': instance.vm_state,
            'OS-EXT-STS:power_state': instance.power_state,
            'os-extended-volumes:volumes_attached': [
                self._volume_attached(row) for row in volumes],
        })
        if status in _PROGRESS_STATUSES:
            out['progress'] = 100 if status == 'ACTIVE' else 0
        fault = self._fault(instance)
        if fault:
            out['fault'] = fault
        if self._allowed(policy.EXTENDED_ATTRIBUTES, instance):
            out['OS-EXT-SRV-ATTR:host'] = instance.host
            out['OS-EXT-SRV-ATTR:instance_name'] = instance.name
            out['OS-EXT-SRV-ATTR:hypervisor_hostname'] = instance.node
            if self._at(versions.EXTENDED_ATTRIBUTES):
                root = next((r for r in devices if r.boot_index == 0), None)
                out.update({
                    'OS-EXT-SRV-ATTR:reservation_id': 'r-' +
                    instance.uuid[:8],
                    'OS-EXT-SRV-ATTR:launch_index': 0,
                    'OS-EXT-SRV-ATTR:hostname': instance.hostname,
                    'OS-EXT-SRV-ATTR:kernel_id': '',
                    'OS-EXT-SRV-ATTR:ramdisk_id': '',
                    'OS-EXT-SRV-ATTR:root_device_name':
                        root.device_name if root else None,
                    'OS-EXT-SRV-ATTR:user_data': instance.user_data,
                })
        elif self._at(versions.SERVER_HOSTNAME):
            out['OS-EXT-SRV-ATTR:hostname'] = instance.hostname
        if self._at(versions.LOCKED):
            out['locked'] = bool(instance.locked)
        if self._at(versions.HOST_STATUS) and self._allowed(
                policy.SHOW_HOST_STATUS, instance):
            out['host_status'] = self.host_status(instance)
        if self._at(versions.SERVER_DESCRIPTION):
            out['description'] = instance.display_description
        if self._at(versions.SERVER_TAGS):
            out['tags'] = []
        if self._at(versions.TRUSTED_CERTS):
            out['trusted_image_certificates'] = None
        if self._at(versions.LOCKED_REASON):
            out['locked_reason'] = instance.locked_reason
        if self._at(versions.PINNED_AVAILABILITY_ZONE):
            out['pinned_availability_zone'] = (
                instance.pinned_availability_zone)
        return out

    def host_status(self, instance):
        if not instance.host:
            return ''
        if self._host_statuses is None:
            self._host_statuses = self._read_host_statuses()
        return self._host_statuses.get(instance.host, 'UNKNOWN')

    def _volume_attached(self, row):
        item = {'id': row.volume_id}
        if self._at(versions.EXTENDED_ATTRIBUTES):
            item['delete_on_termination'] = bool(row.delete_on_termination)
        return item

    def show(self, instance, devices):
        out = self.detail(instance, devices)
        if self._at(versions.SERVER_GROUPS):
            out['server_groups'] = (
                self._server_groups(instance.uuid)
                if self._server_groups is not None else [])
        return out

    def changed(self, instance, devices, rebuilt=False):
        """The answer to an update or a rebuild: before 2.75 the core of
        the server only (Nova's update view: no zone, key pair, usage,
        states, volumes, host attributes or host status), from 2.75 all
        of :meth:`show`; a rebuild's has ``key_name`` from 2.54 and
        ``user_data`` from 2.57 (and so never the attribute
        ``OS-EXT-SRV-ATTR:user_data``)."""
        out = self.show(instance, devices)
        if not self._at(versions.STRICT_QUERY):
            keep = ({'key_name'} if rebuilt and
                    self._at(versions.KEYPAIR_ON_REBUILD) else set())
            for key in list(out):
                if key not in keep and (key in _NOT_CHANGED or
                                        key.startswith('OS-EXT-SRV-ATTR:')):
                    del out[key]
        if rebuilt:
            out.pop('OS-EXT-SRV-ATTR:user_data', None)
            if self._at(versions.USER_DATA_ON_REBUILD):
                out['user_data'] = instance.user_data
        return out
