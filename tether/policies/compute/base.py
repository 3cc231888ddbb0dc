"""Policy personas of the compute API (Nova's base rules).

``context_is_admin``, ``service_api`` and ``service_or_admin`` are shared
with the volume API (tether.policies.base) and not defined again here.
"""

from oslo_policy import policy

from tether.policies import base

ADMIN = 'rule:context_is_admin'
PROJECT_MEMBER = 'rule:project_member_api'
PROJECT_READER = 'rule:project_reader_api'
PROJECT_MEMBER_OR_ADMIN = 'rule:project_member_or_admin'
PROJECT_READER_OR_ADMIN = 'rule:project_reader_or_admin'
SERVICE_ROLE = base.RULE_SERVICE_OR_ADMIN

rules = [
    policy.RuleDefault('project_member_api',
                       'role:member and project_id:%(project_id)s',
                       description='A member of the owning project.'),
    policy.RuleDefault('project_reader_api',
                       'role:reader and project_id:%(project_id)s',
                       description='A reader of the owning project.'),
    policy.RuleDefault('project_member_or_admin',
                       'rule:project_member_api or rule:context_is_admin',
                       description='A member of the owning project, or an '
                                   'administrator.'),
    policy.RuleDefault('project_reader_or_admin',
                       'rule:project_reader_api or rule:context_is_admin',
                       description='A reader of the owning project, or an '
                                   'administrator.'),
]

rule = base.rule


def list_rules():
    return rules
