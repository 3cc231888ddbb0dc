"""Serialize attachments (Cinder's shapes; connection info where allowed)."""

from tether.api import wsgi
from tether.policies.volume import attachments as policy


def _time(value):
    # Cinder shows an unset time as an empty string.
    return wsgi.isotime(value) if value is not None else ''


class AttachmentView:
    """One serializer per request."""

    def __init__(self, req):
        self.ctx = req.context

    def summary(self, attachment):
        return {'id': attachment.id,
                'status': attachment.attach_status,
                'instance': attachment.instance_uuid,
                'volume_id': attachment.volume_id}

    def detail(self, attachment, shared_connections=None):
        d = self.summary(attachment)
        d.update({
            'attached_at': _time(attachment.attach_time),
            'detached_at': _time(attachment.detach_time),
            # Cinder's wire value for "no mode chosen yet" is this string.
            'attach_mode': attachment.attach_mode or 'null',
        })
        if self.ctx.can(policy.CONNECTION_INFO,
                        {'project_id': attachment.project_id}, fatal=False):
            d['connection_info'] = attachment.connection_info or {}
            d['connector'] = attachment.connector
        if shared_connections is not None:
            d['shared_connections_by_attachment'] = shared_connections
        return d


def volume_attachment(volume, attachment, host_name=False):
    """One entry of a volume's ``attachments`` (an attached attachment);
    ``host_name`` null unless the caller may see it."""
    return {'id': volume.id,
            'attachment_id': attachment.id,
            'volume_id': volume.id,
            'server_id': attachment.instance_uuid,
            'host_name': attachment.attached_host if host_name else None,
            'device': attachment.mountpoint,
            'attached_at': wsgi.isotime(attachment.attach_time)}
