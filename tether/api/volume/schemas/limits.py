"""Schemas of /limits: the query string, and the answer."""

from tether.api import response_types as rt

_PROJECT = {'type': 'string', 'minLength': 1, 'maxLength': 255}

# project_id (and the older tenant_id) is honoured for admins from 3.39;
# below that, or for anyone else, it is ignored as Cinder ignores it.
LIST_QUERY = {
    'type': 'object',
    'properties': {'project_id': _PROJECT, 'tenant_id': _PROJECT},
    'additionalProperties': False,
}


# Responses ------------------------------------------------------------------

_count = {'type': 'integer', 'minimum': -1}
# What is in use, for whoever policy lets see it (limits_extension:
# used_limits, by default whoever may read the project).
_USED = ('totalVolumesUsed', 'totalGigabytesUsed', 'totalSnapshotsUsed',
         'totalBackupsUsed', 'totalBackupGigabytesUsed')
_MAX = ('maxTotalVolumes', 'maxTotalVolumeGigabytes', 'maxTotalSnapshots',
        'maxTotalBackups', 'maxTotalBackupGigabytes')

SHOW_RESPONSE = rt.wrapped('limits', rt.obj({
    # Cinder's rate limits (of a middleware tether does not have).
    'rate': {'type': 'array', 'maxItems': 0},
    'absolute': rt.obj(dict.fromkeys(_MAX + _USED, _count), required=_MAX),
}))
