"""Serialize backups for the microversion of the request."""

from tether.api import microversion
from tether.api.volume import versions
from tether.policies.volume import backups as policy


def _links(req, backup_id):
    base = req.application_url
    project = req.urlvars.get('project_id')
    prefix = '%s/v3/%s' % (base, project) if project else '%s/v3' % base
    path = 'backups/%s' % backup_id
    return [{'rel': 'self', 'href': '%s/%s' % (prefix, path)},
            {'rel': 'bookmark',
             'href': '%s/%s' % (prefix.replace('/v3', '', 1), path)}]


class BackupView:
    """One serializer per request: the policy is checked once."""

    def __init__(self, req):
        self.req = req
        self.version = microversion.get(req)
        self.show_owner = req.context.can(policy.PROJECT_ATTRIBUTE,
                                          fatal=False)

    def _at(self, version_string):
        return self.version >= microversion.parse(version_string)

    def summary(self, backup):
        """A create, an update, an import and a list without details."""
        return {'id': backup.id, 'name': backup.name,
                'links': _links(self.req, backup.id)}

    def detail(self, backup):
        """A show and a list with details: Cinder's keys of the
        request's microversion, and its owners for whoever the policy
        lets see them."""
        d = {
            'id': backup.id,
            'status': backup.status,
            'size': backup.size,
            'object_count': backup.object_count,
            'availability_zone': backup.availability_zone,
            'container': backup.container,
            'created_at': backup.created_at,
            'updated_at': backup.updated_at,
            'name': backup.name,
            'description': backup.description,
            'fail_reason': backup.fail_reason,
            'volume_id': backup.volume_id,
            'links': _links(self.req, backup.id),
            'is_incremental': backup.is_incremental,
            'has_dependent_backups': backup.has_dependent_backups,
            'snapshot_id': backup.snapshot_id,
            'data_timestamp': backup.data_timestamp,
        }
        if self._at(versions.BACKUP_PROJECT) and self.show_owner:
            d['os-backup-project-attr:project_id'] = backup.project_id
        if self._at(versions.BACKUP_METADATA):
            d['metadata'] = dict(backup.metadata)
        if self._at(versions.BACKUP_USER_ID) and self.show_owner:
            d['user_id'] = backup.user_id
        return d

    @staticmethod
    def restore(backup_id, volume):
        return {'backup_id': backup_id, 'volume_id': volume.id,
                'volume_name': volume.name}
