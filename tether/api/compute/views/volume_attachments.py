"""A server's volume attachments as JSON, per microversion."""

from tether.api.compute import versions
from tether.api import microversion


class VolumeAttachmentView:
    def __init__(self, req):
        self.version = microversion.get(req)

    def _at(self, version):
        return self.version >= microversion.parse(version)

    def item(self, instance, row):
        out = {'volumeId': row.volume_id, 'serverId': instance.uuid,
               'device': row.device_name}
        if not self._at(versions.ATTACHMENT_IDS):
            out['id'] = row.volume_id
        if self._at(versions.ATTACHMENT_TAG):
            out['tag'] = row.tag
        if self._at(versions.DELETE_ON_TERMINATION):
            out['delete_on_termination'] = bool(row.delete_on_termination)
        if self._at(versions.ATTACHMENT_IDS):
            out['attachment_id'] = row.attachment_id
            out['bdm_uuid'] = row.uuid
        return out
