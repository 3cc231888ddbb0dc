"""Policy rules of /servers and their actions (Nova's names and defaults)."""

from tether.policies.compute import base

PREFIX = 'os_compute_api:servers:%s'
INDEX = PREFIX % 'index'
DETAIL = PREFIX % 'detail'
INDEX_ALL_PROJECTS = PREFIX % 'index:get_all_tenants'
DETAIL_ALL_PROJECTS = PREFIX % 'detail:get_all_tenants'
SHOW = PREFIX % 'show'
SHOW_HOST_STATUS = PREFIX % 'show:host_status'
CREATE = PREFIX % 'create'
CREATE_VOLUME = PREFIX % 'create:attach_volume'
CREATE_FORCED_HOST = PREFIX % 'create:forced_host'
CREATE_ZERO_DISK_FLAVOR = PREFIX % 'create:zero_disk_flavor'
UPDATE = PREFIX % 'update'
DELETE = PREFIX % 'delete'
EXTENDED_ATTRIBUTES = 'os_compute_api:os-extended-server-attributes'

rules = [
    base.rule(INDEX, base.PROJECT_READER_OR_ADMIN, 'List servers.',
              [('GET', '/servers')]),
    base.rule(DETAIL, base.PROJECT_READER_OR_ADMIN,
              'List servers with details.', [('GET', '/servers/detail')]),
    base.rule(INDEX_ALL_PROJECTS, base.ADMIN,
              'List the servers of every project.',
              [('GET', '/servers')]),
    base.rule(DETAIL_ALL_PROJECTS, base.ADMIN,
              'List the servers of every project with details.',
              [('GET', '/servers/detail')]),
    base.rule(SHOW, base.PROJECT_READER_OR_ADMIN, 'Show a server.',
              [('GET', '/servers/{server_id}')]),
    base.rule(SHOW_HOST_STATUS, base.ADMIN,
              'Show the host_status of a server (2.16).',
              [('GET', '/servers/{server_id}'),
               ('GET', '/servers/detail')]),
    base.rule(CREATE, base.PROJECT_MEMBER_OR_ADMIN, 'Create a server.',
              [('POST', '/servers')]),
    base.rule(CREATE_VOLUME, base.PROJECT_MEMBER_OR_ADMIN,
              'Create a server with block devices (block_device_mapping_'
              'v2): volumes, or volumes made of images.',
              [('POST', '/servers')]),
    base.rule(CREATE_ZERO_DISK_FLAVOR, base.ADMIN,
              'Create a server from an image with a flavor whose root '
              'disk is 0 GB: the local root disk then takes the size of '
              'the image, so a large image can take a large part of the '
              'disk of the compute host. Others boot such flavors from '
              'volumes.', [('POST', '/servers')]),
    base.rule(CREATE_FORCED_HOST, base.ADMIN,
              'Create a server on a named host (availability_zone '
              '"zone:host").', [('POST', '/servers')]),
    base.rule(UPDATE, base.PROJECT_MEMBER_OR_ADMIN,
              'Change the name or description of a server.',
              [('PUT', '/servers/{server_id}')]),
    base.rule(DELETE, base.PROJECT_MEMBER_OR_ADMIN, 'Delete a server.',
              [('DELETE', '/servers/{server_id}')]),
    base.rule(EXTENDED_ATTRIBUTES, base.ADMIN,
              'Show the OS-EXT-SRV-ATTR attributes of servers (host, '
              'instance name, hypervisor).',
              [('GET', '/servers/{server_id}'),
               ('GET', '/servers/detail')]),
]


def list_rules():
    return rules
