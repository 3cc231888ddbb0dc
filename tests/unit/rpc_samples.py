"""Objects and service rows the RPC version tests send and read."""

import uuid

from tether.objects.compute import instance as instance_obj
from tether.objects.volume import attachment as attachment_obj
from tether.objects.volume import volume as volume_obj


class Row:
    def __init__(self, host, rpc_current_version=None, version=None):
        self.host = host
        self.rpc_current_version = rpc_current_version
        self.version = version


def sample_volume(attachments=1):
    volume_id = str(uuid.uuid4())
    return volume_obj.Volume.from_trusted_values({
        'id': volume_id, 'project_id': 'p', 'host': 'h@b#pool', 'size': 1,
        'status': 'in-use', 'attach_status': 'attached',
        'volume_type_id': str(uuid.uuid4()), 'bootable': False,
        'multiattach': False, 'metadata': {}, 'admin_metadata': {},
        'attachments': [attachment_obj.Attachment.from_trusted_values({
            'id': str(uuid.uuid4()), 'volume_id': volume_id,
            'attach_status': 'attached', 'connector': {'host': 'h'},
            'connection_info': {'export': '/srv/x'}})
            for _ in range(attachments)]})


def sample_instance(host='h1'):
    return instance_obj.Instance(uuid=str(uuid.uuid4()), project_id='p',
                                 user_id='u', vm_state='active', host=host)
