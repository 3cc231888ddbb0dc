"""Policy rules of Cinder's legacy attach actions on a volume
(os-reserve, os-unreserve, os-begin_detaching, os-roll_detaching,
os-attach, os-detach, os-initialize_connection, os-terminate_connection,
os-force_detach); Cinder's names and defaults."""

from tether.policies import base

RESERVE = 'volume_extension:volume_actions:reserve'
UNRESERVE = 'volume_extension:volume_actions:unreserve'
BEGIN_DETACHING = 'volume_extension:volume_actions:begin_detaching'
ROLL_DETACHING = 'volume_extension:volume_actions:roll_detaching'
ATTACH = 'volume_extension:volume_actions:attach'
DETACH = 'volume_extension:volume_actions:detach'
INITIALIZE = 'volume_extension:volume_actions:initialize_connection'
TERMINATE = 'volume_extension:volume_actions:terminate_connection'
FORCE_DETACH = 'volume_extension:volume_admin_actions:force_detach'

_A = '/volumes/{volume_id}/action'

rules = [
    base.rule(RESERVE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Mark a volume as reserved for an attachment (os-reserve).',
              [('POST', _A)]),
    base.rule(UNRESERVE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Remove the reservation of os-reserve (os-unreserve).',
              [('POST', _A)]),
    base.rule(BEGIN_DETACHING, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Mark an attached volume as detaching (os-begin_detaching).',
              [('POST', _A)]),
    base.rule(ROLL_DETACHING, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Roll a detaching volume back to in-use (os-roll_detaching).',
              [('POST', _A)]),
    base.rule(ATTACH, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Mark a volume attached to an instance or host (os-attach).',
              [('POST', _A)]),
    base.rule(DETACH, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Detach a volume: delete one of its attachments (os-detach).',
              [('POST', _A)]),
    base.rule(INITIALIZE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Connect a reserved volume for a host and return its '
              'connection info (os-initialize_connection).',
              [('POST', _A)]),
    base.rule(TERMINATE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Disconnect a volume from a host (os-terminate_connection).',
              [('POST', _A)]),
    base.rule(FORCE_DETACH, base.RULE_ADMIN_API,
              'Detach a volume without asking the compute service whether '
              'a guest uses it (os-force_detach).', [('POST', _A)]),
]


def list_rules():
    return rules
