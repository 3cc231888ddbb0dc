"""Key pairs as JSON, per microversion (Nova's fields)."""

from tether.api.compute import versions
from tether.api import microversion

_INDEX = ('name', 'public_key', 'fingerprint')
_CREATE = _INDEX + ('user_id',)


class KeypairView:
    """Key pairs at the request's microversion: ``type`` from 2.2."""

    def __init__(self, req):
        self.with_type = microversion.at_least(req, versions.KEYPAIR_TYPE)

    def _fields(self, keypair, names):
        out = {name: getattr(keypair, name) for name in names}
        if self.with_type:
            out['type'] = keypair.type
        return out

    def index(self, keypair):
        return {'keypair': self._fields(keypair, _INDEX)}

    def create(self, keypair, private_key=None):
        out = self._fields(keypair, _CREATE)
        if private_key is not None:
            out['private_key'] = private_key
        return out

    def show(self, keypair):
        out = self._fields(keypair, _CREATE)
        # Nova's soft-delete and update fields: a key pair shown is never
        # deleted, and a key pair never changes.
        out.update({'id': keypair.id, 'created_at': keypair.created_at,
                    'deleted': False, 'deleted_at': None,
                    'updated_at': None})
        return out
