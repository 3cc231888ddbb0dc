"""JSON schemas of the compute API's /limits (Nova's): the query, and
the absolute limits it answers per microversion (network limits leave
at 2.36, maxImageMeta at 2.39, the personality limits at 2.57)."""

from tether.api.compute import versions
from tether.api import response_types as rt

_project = {'type': 'string', 'minLength': 1, 'maxLength': 255}
# A query parameter given twice is a list; Nova takes the first.
_project_query = {'anyOf': [_project,
                            {'type': 'array', 'items': _project,
                             'minItems': 1}],
                  'description': 'a project ID'}

# tenant_id: another project's limits (administrators). Before 2.75
# Nova ignores what it does not know (``reserved`` of the old
# os-used-limits among them); from 2.75 it refuses it.
QUERY = {
    'type': 'object',
    'properties': {'tenant_id': _project_query},
    'additionalProperties': True,
}
QUERY_V2_75 = dict(QUERY, additionalProperties=False)

# Nova's names of the limits of each resource, and of what is in use.
MAX = {
    'cores': ('maxTotalCores',),
    'floating_ips': ('maxTotalFloatingIps',),
    'injected_file_content_bytes': ('maxPersonalitySize',),
    'injected_files': ('maxPersonality',),
    'instances': ('maxTotalInstances',),
    'key_pairs': ('maxTotalKeypairs',),
    'metadata_items': ('maxServerMeta', 'maxImageMeta'),
    'ram': ('maxTotalRAMSize',),
    'security_group_rules': ('maxSecurityGroupRules',),
    'security_groups': ('maxSecurityGroups',),
    'server_group_members': ('maxServerGroupMembers',),
    'server_groups': ('maxServerGroups',),
}
USED = {
    'cores': 'totalCoresUsed',
    'floating_ips': 'totalFloatingIpsUsed',
    'instances': 'totalInstancesUsed',
    'ram': 'totalRAMUsed',
    'security_groups': 'totalSecurityGroupsUsed',
    'server_groups': 'totalServerGroupsUsed',
}
# What each microversion window leaves out.
GONE_V2_36 = ('maxSecurityGroups', 'maxSecurityGroupRules',
              'maxTotalFloatingIps', 'totalFloatingIpsUsed',
              'totalSecurityGroupsUsed')
GONE_V2_39 = GONE_V2_36 + ('maxImageMeta',)
GONE_V2_57 = GONE_V2_39 + ('maxPersonality', 'maxPersonalitySize')

_ALL = sorted([n for names in MAX.values() for n in names] +
              list(USED.values()))
_count = {'type': 'integer', 'minimum': -1}


def _response(gone):
    names = [n for n in _ALL if n not in gone]
    return rt.wrapped('limits', rt.obj({
        # Nova's rate limits are gone: always an empty list.
        'rate': {'type': 'array', 'items': {}, 'maxItems': 0},
        'absolute': rt.obj(dict.fromkeys(names, _count)),
    }))


RESPONSES = rt.by_version(
    _response(()),
    (versions.NETWORK_QUOTAS_REMOVED, _response(GONE_V2_36)),
    (versions.IMAGE_META_PROXY_REMOVED, _response(GONE_V2_39)),
    (versions.PERSONALITY_QUOTAS_REMOVED, _response(GONE_V2_57)))
