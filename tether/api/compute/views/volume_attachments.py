"""A server's volume attachments as JSON, per microversion."""

from tether.api.compute import versions
from tether.api import microversion


class VolumeAttachmentView:
    def __init__(self, req):
        self.version = microversion.get(req)

    def _at(self, version):
        return self.version >= microversion.parse(version)

    def created(self, instance, row):
        """What an attach answers: "id" (the volume's ID again) at every
        version, and never the IDs of 2.89 (Nova's)."""
        out = {'id': row.volume_id, 'volumeId': row.volume_id,
               'serverId': instance.uuid, 'device': row.device_name}
        if self._at(versions.ATTACHMENT_TAG):
            out['tag'] = row.tag
        if self._at(versions.DELETE_ON_TERMINATION):
            out['delete_on_termination'] = bool(row.delete_on_termination)
        return out

    def item(self, instance, row):
        """An attachment listed or shown: from 2.89 with the IDs of the
        volume API's attachment and of the block device mapping, instead
        of "id"."""
        out = self.created(instance, row)
        if self._at(versions.ATTACHMENT_IDS):
            del out['id']
            out['attachment_id'] = row.attachment_id
            out['bdm_uuid'] = row.uuid
        return out
