"""Instance actions and their events as JSON, per microversion."""

from tether.api.compute import versions
from tether.api.compute.views import servers
from tether.api import microversion

ACTION_KEYS = ('action', 'instance_uuid', 'request_id', 'user_id',
               'project_id', 'start_time', 'message')


def action(req, row):
    out = {key: getattr(row, key) for key in ACTION_KEYS}
    if microversion.at_least(req, versions.INSTANCE_ACTION_PAGING):
        out['updated_at'] = row.updated_at
    return out


def event(row, project_id, traceback, host, host_id, details):
    out = {'event': row.event, 'start_time': row.start_time,
           'finish_time': row.finish_time, 'result': row.result}
    if traceback:
        out['traceback'] = row.traceback
    if host:
        out['host'] = row.host
    if host_id:
        out['hostId'] = servers.host_id(project_id, row.host)
    if details:
        out['details'] = row.details
    return out
