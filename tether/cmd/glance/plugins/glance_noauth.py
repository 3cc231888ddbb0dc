"""tether's noauth, as a paste filter inside Glance's own process.

tether-aio's clients authenticate with ``X-Auth-Token: <user>:<project>``
(optionally ``:<role>,<role>``): the ``openstack`` CLI and openstacksdk
with ``auth_type: admin_token``, and tether's services acting with a
caller's token. Glance knows no such token. Its ``context`` middleware
(the one of the ``keystone`` flavor, behind keystonemiddleware) builds
the request context from the headers auth_token sets after it validated
a token: ``X-Identity-Status: Confirmed``, ``X-User-Id``,
``X-Project-Id``, ``X-Roles``. This filter stands where auth_token
stands and sets those headers from the noauth token instead, so that
images get the caller's project as their owner and Glance's default
policies (the new, role-based defaults) apply as they would with
Keystone: user ``admin`` has the admin role, anyone else the member
role, unless the token names roles; as with Keystone's default implied
roles, admin implies member implies reader.

The ``unauthenticated-context`` of Glance's default flavor is no
alternative: it makes every caller an admin of no project (images get
no owner and everyone sees everything).

This module runs in Glance's virtualenv (tether.cmd.glance.runner.start
puts its directory on gunicorn's pythonpath): the standard library only.
Only for development and tests, on 127.0.0.1: it trusts whatever token it
gets.
"""

import json

# What auth_token would set (or remove) for a validated token: a client
# must not be able to pass any of them through.
_IDENTITY_HEADERS = (
    'X_IDENTITY_STATUS', 'X_SERVICE_IDENTITY_STATUS',
    'X_DOMAIN_ID', 'X_DOMAIN_NAME',
    'X_PROJECT_ID', 'X_PROJECT_NAME', 'X_PROJECT_DOMAIN_ID',
    'X_PROJECT_DOMAIN_NAME', 'X_USER_ID', 'X_USER_NAME', 'X_USER_DOMAIN_ID',
    'X_USER_DOMAIN_NAME', 'X_ROLES', 'X_ROLE', 'X_SERVICE_CATALOG',
    'X_IS_ADMIN_PROJECT', 'X_SYSTEM_SCOPE', 'X_TENANT_ID', 'X_TENANT_NAME',
    'X_TENANT', 'X_USER', 'X_SERVICE_ROLES', 'X_SERVICE_USER_ID',
    'X_SERVICE_USER_NAME', 'X_SERVICE_PROJECT_ID', 'X_SERVICE_PROJECT_NAME',
    'X_SERVICE_USER_DOMAIN_ID', 'X_SERVICE_USER_DOMAIN_NAME',
    'X_SERVICE_PROJECT_DOMAIN_ID', 'X_SERVICE_PROJECT_DOMAIN_NAME',
    'X_AUTH_TOKEN_EXPIRES')


def roles_for(user, named=''):
    """The roles of a noauth token: the ``named`` ones (comma separated),
    else admin for the user ``admin`` and member for anyone else; with
    the roles they imply (admin -> member -> reader)."""
    if named:
        roles = [r for r in named.split(',') if r]
    elif user == 'admin':
        roles = ['admin']
    else:
        roles = ['member']
    if 'admin' in roles and 'member' not in roles:
        roles.append('member')
    if 'member' in roles and 'reader' not in roles:
        roles.append('reader')
    return roles


def parse_token(token):
    """(user, project, roles) of a noauth token, or None."""
    parts = (token or '').split(':')
    if len(parts) < 2 or len(parts) > 3 or not parts[0] or not parts[1]:
        return None
    return parts[0], parts[1], roles_for(parts[0],
                                         parts[2] if len(parts) > 2 else '')


class NoAuth:
    """WSGI middleware: the noauth token becomes auth_token's headers."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        for name in _IDENTITY_HEADERS:
            environ.pop('HTTP_' + name, None)
        identity = parse_token(environ.get('HTTP_X_AUTH_TOKEN'))
        if identity is None:
            return self._unauthorized(start_response)
        user, project, roles = identity
        environ.update({
            'HTTP_X_IDENTITY_STATUS': 'Confirmed',
            'HTTP_X_USER_ID': user,
            'HTTP_X_USER_NAME': user,
            'HTTP_X_USER_DOMAIN_ID': 'default',
            'HTTP_X_PROJECT_ID': project,
            'HTTP_X_PROJECT_NAME': project,
            'HTTP_X_PROJECT_DOMAIN_ID': 'default',
            'HTTP_X_ROLES': ','.join(roles),
        })
        if 'service' in roles:
            # As auth_token reports a valid X-Service-Token's roles.
            environ['HTTP_X_SERVICE_ROLES'] = 'service'
        return self.application(environ, start_response)

    @staticmethod
    def _unauthorized(start_response):
        body = json.dumps({'error': {
            'code': 401, 'title': 'Unauthorized',
            'message': 'noauth needs the header X-Auth-Token: '
                       '<user>:<project>[:<role>,...]'}}).encode()
        start_response('401 Unauthorized', [
            ('Content-Type', 'application/json'),
            ('Content-Length', str(len(body)))])
        return [body]


def filter_factory(global_conf, **local_conf):
    """paste.filter_factory of the ``tether-noauth`` flavor."""
    return NoAuth
