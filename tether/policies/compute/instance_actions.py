"""Policy rules of /servers/{server_id}/os-instance-actions."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:os-instance-actions:%s'
LIST = PREFIX % 'list'
SHOW = PREFIX % 'show'
EVENTS = PREFIX % 'events'
EVENTS_DETAILS = PREFIX % 'events:details'

_PATH = '/servers/{server_id}/os-instance-actions'

rules = [
    base.rule(LIST, base.PROJECT_READER_OR_ADMIN,
              'List the actions of a server.', [('GET', _PATH)]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show an action of a server.',
              [('GET', _PATH + '/{request_id}')]),
    base.rule(EVENTS, base.ADMIN,
              'Show the events of an action with their traceback (and '
              'from 2.62 their host). Before 2.51 whoever fails this rule '
              'sees no events at all; from 2.51 they see the events '
              'without traceback and host.',
              [('GET', _PATH + '/{request_id}')]),
    base.rule(EVENTS_DETAILS, base.ADMIN,
              'Show the details of the events of an action (2.84), as Nova '
              'does to administrators only: a failure\'s details can name '
              'the hypervisor and other facts of the deployment.',
              [('GET', _PATH + '/{request_id}')]),
]


def list_rules():
    return rules
