"""Volumes of the volume API as the compute API's /os-volumes shows them:
Nova's legacy keys."""


def attachments(volume):
    """Nova's ``attachments`` of a volume: its first attachment to a
    server (Nova shows one, of a multiattach volume too), or ``[{}]`` when
    it has none. An attachment to a host only (os-attach with host_name)
    is no server's: Nova would show its serverId as null."""
    for attachment in volume.get('attachments') or []:
        if not attachment.get('server_id'):
            continue
        out = {'id': volume['id'], 'volumeId': volume['id'],
               'serverId': attachment['server_id']}
        if attachment.get('device'):
            out['device'] = attachment['device']
        return [out]
    return [{}]


def volume(vol):
    """One volume, as the volume API's detail gave it (list, detail, show
    and create answer the same keys)."""
    return {
        'id': vol['id'],
        'status': vol['status'],
        'size': vol['size'],
        'availabilityZone': vol.get('availability_zone'),
        'createdAt': vol.get('created_at'),
        'attachments': attachments(vol),
        'displayName': vol.get('name'),
        'displayDescription': vol.get('description'),
        'volumeType': vol.get('volume_type'),
        'snapshotId': vol.get('snapshot_id'),
        'metadata': vol.get('metadata') or {},
    }
