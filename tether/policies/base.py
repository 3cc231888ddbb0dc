"""Policy personas shared by every rule (upstream's check strings)."""

from oslo_policy import policy

RULE_ADMIN_API = 'rule:admin_api'
RULE_SERVICE_OR_ADMIN = 'rule:service_or_admin'
RULE_SERVICE_API = 'rule:service_api'

# The persona rules of Cinder since Xena ("system" scope is not used).
ADMIN = 'role:admin'
PROJECT_MEMBER = 'role:member and project_id:%(project_id)s'
PROJECT_READER = 'role:reader and project_id:%(project_id)s'
SYSTEM_ADMIN_OR_PROJECT_MEMBER = 'rule:xena_system_admin_or_project_member'
SYSTEM_ADMIN_OR_PROJECT_READER = 'rule:xena_system_admin_or_project_reader'
# Reads where Cinder checks no rule at all (any authenticated caller, in
# its own project): tether asks for a reader, an administrator or the
# service role, which the other services' users have.
READER_OR_SERVICE = '%s or %s' % (SYSTEM_ADMIN_OR_PROJECT_READER,
                                  RULE_SERVICE_API)

rules = [
    policy.RuleDefault('context_is_admin', 'role:admin',
                       description='Decides who is an administrator.'),
    policy.RuleDefault('admin_api',
                       'is_admin:True or (role:admin and '
                       'is_admin_project:True)',
                       description='Administrator-only APIs.'),
    policy.RuleDefault('service_api', 'role:service',
                       description='Calls from other OpenStack services.'),
    policy.RuleDefault('service_or_admin',
                       'rule:service_api or rule:admin_api',
                       description='Other services, or an administrator.'),
    policy.RuleDefault('xena_system_admin_or_project_member',
                       '(%s) or (%s)' % (ADMIN, PROJECT_MEMBER),
                       description='An administrator, or a member of the '
                                   'owning project.'),
    policy.RuleDefault('xena_system_admin_or_project_reader',
                       '(%s) or (%s)' % (ADMIN, PROJECT_READER),
                       description='An administrator, or a reader of the '
                                   'owning project (members and admins '
                                   'imply reader).'),
]


def rule(name, check_str, description, operations):
    """One documented API rule."""
    return policy.DocumentedRuleDefault(
        name=name, check_str=check_str, description=description,
        operations=[{'method': m, 'path': p} for m, p in operations])


def list_rules():
    return rules
