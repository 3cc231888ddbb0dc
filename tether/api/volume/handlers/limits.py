"""Handler of /limits: a project's absolute limits and what it uses."""

from tether.api import microversion
from tether.api import responses
from tether.api import validation
from tether.api.volume.schemas import limits as schema
from tether.api.volume import versions
from tether.api import wsgi
from tether.policies.volume import limits as policy
from tether.volume.api import limits as limits_api

# Cinder's names of the absolute limits (groups have none).
_MAX = {'volumes': 'maxTotalVolumes', 'gigabytes': 'maxTotalVolumeGigabytes',
        'snapshots': 'maxTotalSnapshots', 'backups': 'maxTotalBackups',
        'backup_gigabytes': 'maxTotalBackupGigabytes'}
_USED = {'volumes': 'totalVolumesUsed', 'gigabytes': 'totalGigabytesUsed',
         'snapshots': 'totalSnapshotsUsed', 'backups': 'totalBackupsUsed',
         'backup_gigabytes': 'totalBackupGigabytesUsed'}


def _project(req):
    ctx = req.context
    params = req.validated_query
    if ctx.is_admin and microversion.at_least(req, versions.LIMITS_PROJECT_ID):
        return params.get('project_id') or params.get('tenant_id') or \
            ctx.project_id
    return ctx.project_id


@responses.declare(schema.SHOW_RESPONSE)
@validation.query(schema.LIST_QUERY)
def show_limits(req):
    ctx = req.context
    project_id = _project(req)
    usages = limits_api.get(ctx, project_id)
    absolute = {name: usages[r]['limit'] for r, name in _MAX.items()}
    if ctx.can(policy.USED_LIMITS, {'project_id': project_id}, fatal=False):
        absolute.update({name: usages[r]['in_use']
                         for r, name in _USED.items()})
    return wsgi.json_response({'limits': {'rate': [],
                                          'absolute': absolute}})
