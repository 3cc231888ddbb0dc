"""Serialize groups and group snapshots for the microversion of the
request."""

from oslo_utils import strutils

from tether.api import microversion
from tether.api.volume import versions
from tether.policies.volume import group_snapshots as snapshot_policy
from tether.policies.volume import groups as policy
from tether.volume.api import groups as groups_api


class GroupView:
    """One serializer per request: the policy is checked once."""

    def __init__(self, req):
        self.req = req
        self.version = microversion.get(req)
        self.show_project = (
            self._at(versions.GROUP_PROJECT_ID) and
            req.context.can(policy.PROJECT_ATTRIBUTE, fatal=False))
        self.list_volumes = (
            self._at(versions.GROUP_VOLUMES) and strutils.bool_from_string(
                (getattr(req, 'validated_query', None) or {}).get(
                    'list_volume', False)))

    def _at(self, version_string):
        return self.version >= microversion.parse(version_string)

    @staticmethod
    def summary(group):
        return {'id': group.id, 'name': group.name}

    def detail(self, group):
        d = {
            'id': group.id, 'name': group.name,
            'description': group.description, 'status': group.status,
            'availability_zone': group.availability_zone,
            'created_at': group.created_at,
            'group_type': group.group_type_id,
            'volume_types': list(group.volume_type_ids),
        }
        if self._at(versions.GROUP_SNAPSHOT_ID):
            d['group_snapshot_id'] = group.group_snapshot_id
            d['source_group_id'] = group.source_group_id
        if self.list_volumes:
            d['volumes'] = groups_api.volume_ids(
                self.req.context, [group.id])[group.id]
        if self._at(versions.GROUP_REPLICATION):
            # tether replicates no group.
            d['replication_status'] = 'disabled'
        if self.show_project:
            d['project_id'] = group.project_id
        return d


class GroupSnapshotView:
    def __init__(self, req):
        self.show_project = (
            microversion.at_least(req, versions.GROUP_PROJECT_ID) and
            req.context.can(snapshot_policy.PROJECT_ATTRIBUTE, fatal=False))

    @staticmethod
    def created(group_snapshot):
        return {'id': group_snapshot.id, 'name': group_snapshot.name,
                'group_type_id': group_snapshot.group_type_id}

    @staticmethod
    def summary(group_snapshot):
        return {'id': group_snapshot.id, 'name': group_snapshot.name}

    def detail(self, group_snapshot):
        d = {'id': group_snapshot.id, 'group_id': group_snapshot.group_id,
             'group_type_id': group_snapshot.group_type_id,
             'status': group_snapshot.status,
             'created_at': group_snapshot.created_at,
             'name': group_snapshot.name,
             'description': group_snapshot.description}
        if self.show_project:
            d['project_id'] = group_snapshot.project_id
        return d
