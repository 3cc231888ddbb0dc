"""Serialize volume transfers for the microversion of the request."""

from tether.api import microversion
from tether.api.volume import versions

# Cinder links every transfer under its first path, whichever path the
# request took.
_COLLECTION = 'os-volume-transfer'


def _links(req, transfer_id):
    base = req.application_url
    project = req.urlvars.get('project_id')
    prefix = '%s/v3/%s' % (base, project) if project else '%s/v3' % base
    path = '%s/%s' % (_COLLECTION, transfer_id)
    return [{'rel': 'self', 'href': '%s/%s' % (prefix, path)},
            {'rel': 'bookmark',
             'href': '%s/%s' % (prefix.replace('/v3', '', 1), path)}]


class TransferView:
    def __init__(self, req):
        self.req = req
        self.version = microversion.get(req)

    def _at(self, version_string):
        return self.version >= microversion.parse(version_string)

    def summary(self, transfer):
        """A list without details, and an accept."""
        return {'id': transfer.id, 'name': transfer.name,
                'volume_id': transfer.volume_id,
                'links': _links(self.req, transfer.id)}

    def detail(self, transfer):
        """A show and a list with details: the keys of the request's
        microversion."""
        d = self.summary(transfer)
        d['created_at'] = transfer.created_at
        if self._at(versions.TRANSFER_WITH_SNAPSHOTS):
            d['no_snapshots'] = transfer.no_snapshots
        if self._at(versions.TRANSFER_WITH_HISTORY):
            # A transfer is shown until it is accepted (then it is gone,
            # as in Cinder, whose accepted rows no call shows).
            d['source_project_id'] = transfer.source_project_id
            d['destination_project_id'] = None
            d['accepted'] = False
        return d

    def create(self, transfer, auth_key):
        """A create: the details and the key, shown this once."""
        return dict(self.detail(transfer), auth_key=auth_key)
