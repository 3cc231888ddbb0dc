"""Authentication middleware: keystonemiddleware, or noauth for development."""

from oslo_serialization import jsonutils

from tether.api import fault
from tether.api import pipeline
from tether import context as t_context

CONTEXT_KEY = 'tether.context'


def _roles_for(user, extra):
    if extra:
        roles = [r for r in extra.split(',') if r]
    elif user == 'admin':
        roles = ['admin']
    else:
        roles = ['member']
    # Keystone's implied roles: admin implies member implies reader.
    if 'admin' in roles and 'member' not in roles:
        roles.append('member')
    if 'member' in roles and 'reader' not in roles:
        roles.append('reader')
    return roles


def _service_roles(token, roles):
    """The roles of a noauth service token (``X-Service-Token``, the same
    form as the user's), as keystonemiddleware reports a service token's
    roles in X-Service-Roles. A user token with the service role counts
    as its own service token (the services' noauth tokens). Service roles
    never join the caller's roles: policy rules read only those."""
    parts = (token or '').split(':')
    service = (_roles_for(parts[0], parts[2] if len(parts) > 2 else '')
               if len(parts) >= 2 and parts[0] and parts[1] else [])
    if 'service' in roles:
        service.append('service')
    return sorted(set(service))


class NoAuth:
    """Trust ``X-Auth-Token: <user>:<project>[:<role>,<role>]``.

    User ``admin`` gets the admin role, anyone else the member role, unless
    roles are named. An ``X-Service-Token`` of the same form gives the
    request service roles (see _service_roles). Only for development and
    tests: bind to 127.0.0.1.
    """

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        token = environ.get('HTTP_X_AUTH_TOKEN', '')
        parts = token.split(':')
        if len(parts) < 2 or not parts[0] or not parts[1]:
            return fault.error_response(
                401, 'noauth needs the header X-Auth-Token: '
                     '<user>:<project>')(environ, start_response)
        user, project = parts[0], parts[1]
        roles = _roles_for(user, parts[2] if len(parts) > 2 else '')
        environ[CONTEXT_KEY] = t_context.RequestContext(
            user_id=user, project_id=project, roles=roles,
            service_roles=_service_roles(
                environ.get('HTTP_X_SERVICE_TOKEN'), roles),
            request_id=environ.get('openstack.request_id'),
            global_request_id=environ.get('openstack.global_request_id'),
            auth_token=token)
        return self.application(environ, start_response)


def _service_catalog(environ):
    """The caller's catalog, as auth_token passes it (X-Service-Catalog,
    in the v2 format), or [] if there is none or it cannot be read."""
    try:
        catalog = jsonutils.loads(environ.get('HTTP_X_SERVICE_CATALOG')
                                  or '[]')
    except ValueError:
        return []
    return catalog if isinstance(catalog, list) else []


class KeystoneContext:
    """Build the request context from the headers auth_token validated."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        if environ.get('HTTP_X_IDENTITY_STATUS') != 'Confirmed':
            return fault.error_response(
                401, 'Authentication required.')(environ, start_response)
        ctx = t_context.RequestContext.from_environ(environ)
        service_roles = environ.get('HTTP_X_SERVICE_ROLES', '')
        ctx.service_roles = [r.strip() for r in service_roles.split(',')
                             if r.strip()]
        ctx.service_catalog = _service_catalog(environ)
        environ[CONTEXT_KEY] = ctx
        return self.application(environ, start_response)


# Raised when auth_strategy = keystone lacks its settings (and by the
# pipeline loader): the name tests and callers know.
ConfigurationError = pipeline.ConfigurationError


def _check_keystone_config(conf):
    """Refuse to start with settings that would turn each 401 into a 500."""
    group = conf.keystone_authtoken
    if not (group.www_authenticate_uri or
            getattr(group, 'auth_type', None)):
        raise ConfigurationError(
            'auth_strategy = keystone needs [keystone_authtoken] '
            'www_authenticate_uri and the service credentials (auth_type, '
            'auth_url, ...) of this service.')


def noauth_factory(global_conf, **local_conf):
    """paste filter: the noauth context (see NoAuth)."""
    return NoAuth


def authtoken_factory(global_conf, **local_conf):
    """paste filter: keystonemiddleware's auth_token, on tether's options.

    As ``keystonemiddleware.auth_token:filter_factory``, with the options
    of the section as overrides of ``[keystone_authtoken]``, but it reads
    the configuration the app is loaded with and refuses to start without
    the settings that keystone needs.
    """
    # Imported here, where a keystone pipeline is loaded: keystonemiddleware
    # (keystoneclient, oslo.cache, pycadf: 140 modules, 2-3 MiB) is of no
    # use to a noauth API process. Its import registers
    # [keystone_authtoken].
    from keystonemiddleware import auth_token

    conf = pipeline.current_conf()
    overrides = dict(local_conf)

    def _filter(app):
        auth_app = auth_token.AuthProtocol(
            app, dict(overrides, oslo_config_config=conf))
        _check_keystone_config(conf)
        return auth_app
    return _filter


def keystone_context_factory(global_conf, **local_conf):
    """paste filter: the context from what auth_token validated."""
    return KeystoneContext


def context_of(req):
    return req.environ[CONTEXT_KEY]
