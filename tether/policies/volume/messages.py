"""Policy rules of user messages (Cinder's names and defaults)."""

from tether.policies import base

GET_ALL = 'message:get_all'
GET = 'message:get'
DELETE = 'message:delete'

rules = [
    base.rule(GET_ALL, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'List the project\'s user messages.', [('GET', '/messages')]),
    base.rule(GET, base.SYSTEM_ADMIN_OR_PROJECT_READER,
              'Show one user message.', [('GET', '/messages/{message_id}')]),
    base.rule(DELETE, base.SYSTEM_ADMIN_OR_PROJECT_MEMBER,
              'Delete one user message.',
              [('DELETE', '/messages/{message_id}')]),
]


def list_rules():
    return rules
