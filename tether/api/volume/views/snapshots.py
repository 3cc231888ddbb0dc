"""Serialize snapshots for the microversion of the request."""

from tether.api import microversion
from tether.api.volume import versions
from tether.policies.volume import snapshots as policy


class SnapshotView:
    """One serializer per request: the policy is checked once."""

    def __init__(self, req):
        self.req = req
        self.version = microversion.get(req)
        self.show_extended = req.context.can(policy.EXTENDED_ATTRIBUTES,
                                             fatal=False)

    def _at(self, version_string):
        return self.version >= microversion.parse(version_string)

    def summary(self, snapshot):
        """What a list without details answers: Cinder's keys of 3.0
        alone, at every microversion."""
        return {
            'id': snapshot.id,
            'created_at': snapshot.created_at,
            'updated_at': snapshot.updated_at,
            'name': snapshot.name,
            'description': snapshot.description,
            'volume_id': snapshot.volume_id,
            'status': snapshot.status,
            'size': snapshot.volume_size,
            'metadata': dict(snapshot.metadata),
        }

    def detail(self, snapshot, extended=True):
        """A create and an update (``extended`` false), a show and a list
        with details: the keys of the request's microversion, and the
        extended attributes (of a show and a list) for whoever the policy
        lets see them."""
        d = self.summary(snapshot)
        if self._at(versions.GROUP_SNAPSHOT_ID):
            d['group_snapshot_id'] = snapshot.group_snapshot_id
        if self._at(versions.SNAPSHOT_USER_ID):
            d['user_id'] = snapshot.user_id
        if self._at(versions.CONSUMES_QUOTA):
            d['consumes_quota'] = snapshot.use_quota
        if extended and self.show_extended:
            d['os-extended-snapshot-attributes:project_id'] = \
                snapshot.project_id
            d['os-extended-snapshot-attributes:progress'] = \
                snapshot.progress or '0%'
        return d
