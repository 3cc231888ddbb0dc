"""The clouds.yaml tether-aio writes: each service it serves at its own
endpoint, every other service declared absent, so that clients
(openstacksdk's cloud layer and proxies, python-openstackclient) ask
only what is there.

openstacksdk reads, per service type (``-`` written ``_``):
``<type>_endpoint_override`` and ``<type>_api_version`` for a service
that is there, and ``has_<type>: false`` (with ``<type>_disabled_reason``)
for one that is not: ``conn.has_service(type)`` is then False and its
proxy raises ServiceDisabledException with the reason, with no request
sent. The noauth clouds' ``admin_token`` auth must name an endpoint
(keystoneauth's plugin takes no other), which every service type without
an override of its own resolves to: each official service type has
either one or ``has_<type>: false``, so no client takes the API of one
service for another's.
"""

import os

import os_service_types
import yaml

from tether.api import noauth_identity

REGION = 'RegionOne'

# Cloud name: (user, project), in the order clouds.yaml lists them.
CLOUDS = (('tether', 'demo', 'demo'),
          ('tether-alt', 'alt', 'alt'),
          ('tether-admin', 'admin', 'admin'))

# The major API version clients speak to each service tether-aio can
# serve, by its official service type.
API_VERSIONS = {
    'block-storage': '3',
    'compute': '2',
    'image': '2',
    'shared-file-system': '2',
    'identity': '3',
}


def _key(service_type):
    return service_type.replace('-', '_')


def absent_services(served):
    """The official service types (the Service Types Authority's, as
    openstacksdk knows them) not in ``served``, sorted."""
    official = os_service_types.ServiceTypes().services
    return sorted(s['service_type'] for s in official
                  if s['service_type'] not in served)


def _service_keys(endpoints, overrides=True):
    """The per-service keys of one cloud: ``endpoints`` maps each served
    service type to its URL (its root, or its versioned URL where
    clients take it as it is); ``overrides`` False leaves the URLs to the
    catalog (a Keystone's)."""
    keys = {}
    for service_type, url in sorted(endpoints.items()):
        if overrides:
            keys[_key(service_type) + '_endpoint_override'] = url
        keys[_key(service_type) + '_api_version'] = \
            API_VERSIONS[service_type]
    # openstacksdk takes block-storage's aliases' keys too; the CLI's
    # volume commands read volume_api_version. The cloud layer asks
    # has_service('volume') before it lists a server's volumes, which an
    # alias answers False unless told.
    keys['volume_api_version'] = API_VERSIONS['block-storage']
    keys['has_volume'] = True
    for service_type in absent_services(endpoints):
        keys['has_' + _key(service_type)] = False
        keys[_key(service_type) + '_disabled_reason'] = (
            'tether-aio serves no %s service' % service_type)
    return keys


def endpoints(volume_url, compute_url, image_url, share_url=None,
              identity_url=None):
    """The served service types and their URLs.

    Identity is always there. Without ``identity_url`` (a Keystone's), it
    is the compute API's ``/identity/v3``, which refuses every identity
    request saying why (tether.api.noauth_identity): declared absent, it
    would fail python-openstackclient's volume and compute commands
    (``volume list``, ``flavor set``...), which read the identity API's
    version before they send anything.
    """
    served = {'block-storage': volume_url, 'compute': compute_url,
              # Glance's root: clients find /v2 by version discovery.
              'image': image_url}
    if share_url:
        served['shared-file-system'] = share_url
    served['identity'] = identity_url or '%s%s/v3' % (
        compute_url.rsplit('/v2.1', 1)[0], noauth_identity.PREFIX)
    return served


def noauth_cloud(token, served):
    """A cloud of the noauth token ``token`` (``<user>:<project>[:
    <role>,...]``) on the ``served`` endpoints."""
    # The compute API: a request no override covers meets Nova's 404s.
    cloud = {'auth_type': 'admin_token',
             'auth': {'token': token, 'endpoint': served['compute']},
             'region_name': REGION}
    cloud.update(_service_keys(served))
    return cloud


def password_cloud(auth_url, user, password, project, served):
    """A cloud of a Keystone user: the endpoints come from its catalog."""
    cloud = {'auth_type': 'password',
             'auth': {'auth_url': auth_url, 'username': user,
                      'password': password, 'project_name': project,
                      'user_domain_name': 'Default',
                      'project_domain_name': 'Default'},
             'interface': 'public',
             'region_name': REGION}
    cloud.update(_service_keys(served, overrides=False))
    return cloud


def clouds_yaml(served, keystone=None):
    """The clouds of the demo, alt and admin users: noauth tokens, or,
    with ``keystone`` (its URL and a password per user), Keystone's
    users."""
    clouds = {}
    for name, user, project in CLOUDS:
        if keystone is None:
            clouds[name] = noauth_cloud('%s:%s' % (user, project), served)
        else:
            clouds[name] = password_cloud(
                keystone['url'], user, keystone['passwords'][user], project,
                served)
    return {'clouds': clouds}


def write(state_dir, served, keystone=None):
    """Write ``clouds.yaml`` into ``state_dir`` (readable by its owner
    only when it holds passwords); its path."""
    path = os.path.join(state_dir, 'clouds.yaml')
    tmp = path + '.tmp'
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, 'w') as f:
        yaml.safe_dump(clouds_yaml(served, keystone), f,
                       default_flow_style=False)
    os.replace(tmp, path)
    return path
