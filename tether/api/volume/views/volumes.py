"""Serialize volumes for the microversion of the request."""


from tether.api import microversion
from tether.api.volume import versions
from tether.api.volume.views import attachments as attachment_views
from tether.policies.volume import volume_metadata as metadata_policy
from tether.policies.volume import volumes as policy


def _prefixes(req):
    """The roots of a volume's self and bookmark links."""
    base = req.application_url
    project = req.urlvars.get('project_id')
    prefix = '%s/v3/%s' % (base, project) if project else '%s/v3' % base
    return prefix + '/volumes/', prefix.replace('/v3', '', 1) + '/volumes/'


def _link(prefixes, volume_id):
    self_root, bookmark_root = prefixes
    return [{'rel': 'self', 'href': self_root + volume_id},
            {'rel': 'bookmark', 'href': bookmark_root + volume_id}]


class VolumeView:
    """One serializer per request: policy checks are made once, not per row."""

    def __init__(self, req):
        self.req = req
        ctx = req.context
        self.version = microversion.get(req)
        self.is_admin = ctx.is_admin
        self.show_host = ctx.can(policy.HOST_ATTRIBUTE, fatal=False)
        self.show_mig = ctx.can(policy.MIG_STATUS_ATTRIBUTE, fatal=False)
        self.show_tenant = ctx.can(policy.TENANT_ATTRIBUTE, fatal=False)
        self.show_image = ctx.can(metadata_policy.IMAGE_METADATA_SHOW,
                                  fatal=False)
        self.show_attached_host = ctx.can(policy.ATTACHMENT_HOST_NAME,
                                          fatal=False)
        self._versions = {}
        # Worked out once: a page of volumes links each of them.
        self._prefixes = _prefixes(req)
        # What the microversion and the policies add to a detail, decided
        # once for the page rather than for each of its volumes.
        at = self._at
        self._group_id = at(versions.GROUP_ID)
        self._provider_id = at(versions.PROVIDER_ID) and self.show_host
        self._shared_targets = at(versions.SHARED_TARGETS)
        self._cluster_name = at(versions.CLUSTER_NAME) and self.show_host
        self._volume_type_id = at(versions.VOLUME_TYPE_ID)
        self._consumes_quota = at(versions.CONSUMES_QUOTA)

    def _at(self, version_string):
        """Is the request at ``version_string`` or later (parsed once)?"""
        at = self._versions.get(version_string)
        if at is None:
            at = self._versions[version_string] = (
                self.version >= microversion.parse(version_string))
        return at

    def summary(self, volume):
        return {'id': volume.id, 'name': volume.name,
                'links': _link(self._prefixes, volume.id)}

    def detail(self, volume, extended=True):
        """The volume's detail; ``extended``: with the attributes Cinder's
        API extensions add to what a GET shows (the project, the host,
        the image metadata, the migration status), which the answers to
        a create and an update do not carry."""
        metadata = volume.visible_metadata()
        d = {
            'id': volume.id,
            'name': volume.name,
            'description': volume.description,
            'status': volume.status,
            'size': volume.size,
            'availability_zone': volume.availability_zone,
            'created_at': volume.created_at,
            'updated_at': volume.updated_at,
            'attachments': [attachment_views.volume_attachment(
                volume, a, host_name=self.show_attached_host)
                for a in volume.attachments],
            'links': _link(self._prefixes, volume.id),
            'user_id': volume.user_id,
            'bootable': 'true' if volume.bootable else 'false',
            'encrypted': False,
            # Cinder's value for a volume whose type asks for no
            # replication (tether replicates none).
            'replication_status': 'disabled',
            'consistencygroup_id': None,
            'multiattach': volume.multiattach,
            'snapshot_id': volume.snapshot_id,
            'source_volid': volume.source_volid,
            'volume_type': volume.volume_type_name,
            'metadata': metadata,
        }
        if self.is_admin:
            # As Cinder: to administrators alone (it decides by is_admin,
            # with no rule).
            d['migration_status'] = None
        if extended:
            self._extend(d, volume)
        if self._group_id:
            d['group_id'] = volume.group_id
        if self._provider_id:
            d['provider_id'] = None
        if self._shared_targets:
            d['service_uuid'] = None
            d['shared_targets'] = False
        if self._cluster_name:
            d['cluster_name'] = None
        if self._volume_type_id:
            d['volume_type_id'] = volume.volume_type_id
        if self._consumes_quota:
            d['consumes_quota'] = volume.use_quota
        return d

    def _extend(self, d, volume):
        if self.show_tenant:
            d['os-vol-tenant-attr:tenant_id'] = volume.project_id
        if self.show_host:
            d['os-vol-host-attr:host'] = volume.host
        if self.show_image and volume.image_metadata:
            d['volume_image_metadata'] = dict(volume.image_metadata)
        if self.show_mig:
            d['os-vol-mig-status-attr:migstat'] = None
            d['os-vol-mig-status-attr:name_id'] = None
