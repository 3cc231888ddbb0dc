"""Policy rules of /servers/{server_id}/ips and
/servers/{server_id}/os-server-password (Nova's names and defaults)."""

from tether.policies.compute import base

IPS_INDEX = 'os_compute_api:ips:index'
IPS_SHOW = 'os_compute_api:ips:show'
PASSWORD_SHOW = 'os_compute_api:os-server-password:show'
PASSWORD_CLEAR = 'os_compute_api:os-server-password:clear'

rules = [
    base.rule(IPS_INDEX, base.PROJECT_READER_OR_ADMIN,
              'List the addresses of a server, by network.',
              [('GET', '/servers/{server_id}/ips')]),
    base.rule(IPS_SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show the addresses of a server on one network.',
              [('GET', '/servers/{server_id}/ips/{network_label}')]),
    base.rule(PASSWORD_SHOW, base.PROJECT_READER_OR_ADMIN,
              'Show the encrypted administrative password a server\'s '
              'guest posted to the metadata service.',
              [('GET', '/servers/{server_id}/os-server-password')]),
    base.rule(PASSWORD_CLEAR, base.PROJECT_MEMBER_OR_ADMIN,
              'Clear the encrypted administrative password of a server.',
              [('DELETE', '/servers/{server_id}/os-server-password')]),
]


def list_rules():
    return rules
