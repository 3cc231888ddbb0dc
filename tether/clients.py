"""openstacksdk connections from one service to the other's REST API.

A configuration group per peer (``[volume]`` in the compute service, like
Nova's ``[cinder]``; ``[compute]`` in the volume service, like Cinder's
``[nova]``) holds the keystoneauth session and auth options, an optional
``endpoint_override`` and, for noauth deployments, the ``noauth_token``
the service sends as itself. Every call carries the request id of the
request that caused it (``X-OpenStack-Request-ID``): pass it to each
request as ``global_request_id``.

Proxies are kept and shared between threads, one per token: making one
costs a version discovery request to the peer. A proxy is made whole by
one thread before any other can see it: openstacksdk makes a
connection's proxy on its first use without a lock, and two threads
that use a new connection at once can make it twice, the second from
what the first has half set (it then looks for a version document under
the versioned URL, which the image API does not serve, and fails).

openstacksdk (540 modules, about 11 MiB: its cloud layer, dogpile.cache,
prometheus_client) is imported where a connection is made, and
its exceptions where a call made on one is caught: an API process that
never calls a peer (a volume API answering its own requests) does not
load it. A client that sends its own requests and needs none of
openstacksdk's resources (the volume service's calls to the compute API)
takes a keystoneauth adapter instead (``Peer.adapter_as_service``): the
same ``request`` (microversion, global_request_id, raise_exc) on the
same session, with none of openstacksdk loaded.
"""

import collections
import threading

from keystoneauth1.access import service_catalog as ks_catalog
from keystoneauth1 import adapter as ks_adapter
from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import loading as ks_loading
from keystoneauth1 import service_token
from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint
from oslo_config import cfg

CONF = cfg.CONF


def peer_opts(catalog_type, noauth_token, what):
    return [
        cfg.StrOpt('endpoint_override',
                   help='URL of the %s; by default it is found in the '
                        'Keystone catalog.' % what),
        cfg.StrOpt('catalog_info', default=catalog_type,
                   help='Service type of the %s in the catalog.' % what),
        cfg.StrOpt('os_region_name', help='Region of the %s.' % what),
        cfg.StrOpt('noauth_token', default=noauth_token,
                   help='With auth_strategy = noauth, the token this '
                        'service sends as itself to the %s.' % what),
        cfg.IntOpt('http_retries', default=3, min=0,
                   help='Retries of a call to the %s that failed to '
                        'connect.' % what),
    ]


def register_keystoneauth_opts(conf, group):
    ks_loading.register_session_conf_options(conf, group)
    ks_loading.register_auth_conf_options(conf, group)


def keystoneauth_opts():
    return (ks_loading.get_session_conf_options() +
            ks_loading.get_auth_common_conf_options() +
            ks_loading.get_auth_plugin_conf_options('password'))


class Peer:
    """How this service reaches one peer API (``group`` names its
    options; ``service`` is the openstacksdk service attribute)."""

    # Proxies kept for callers' tokens (the least recently used goes).
    MAX_TOKEN_PROXIES = 128

    def __init__(self, group, service, api_version):
        self.group = group
        self.service = service
        self.api_version = api_version
        self._lock = threading.Lock()
        self._session = None
        self._service_proxy = None
        self._service_adapter = None
        self._token_proxies = collections.OrderedDict()

    @property
    def conf(self):
        return CONF[self.group]

    def _keystone_session(self):
        with self._lock:
            if self._session is None:
                auth = ks_loading.load_auth_from_conf_options(CONF,
                                                              self.group)
                # The service's own calls carry its token also as
                # X-Service-Token, as Nova sends a service token with its
                # calls to Cinder: the peer's keystonemiddleware reports
                # that token's roles (X-Service-Roles), which the peer
                # checks before it lets a caller do what only another
                # service may (deleting an attachment a server still uses,
                # OSSA-2023-003).
                auth = service_token.ServiceTokenAuthWrapper(
                    user_auth=auth, service_auth=auth)
                self._session = ks_loading.load_session_from_conf_options(
                    CONF, self.group, auth=auth)
            return self._session

    def endpoint(self):
        if self.conf.endpoint_override:
            return self.conf.endpoint_override
        return self._keystone_session().get_endpoint(
            service_type=self.conf.catalog_info, interface='public',
            region_name=self.conf.os_region_name)

    def configured(self):
        """Whether this service knows how to reach the peer at all."""
        if self.conf.endpoint_override:
            return True
        if CONF.auth_strategy == 'noauth':
            return False
        return bool(getattr(self.conf, 'auth_type', None))

    def _connection(self, session=None, **kwargs):
        import openstack.connection

        kwargs['%s_api_version' % self.service] = self.api_version
        if self.conf.endpoint_override:
            kwargs['%s_endpoint_override' % self.service] = \
                self.conf.endpoint_override
        return openstack.connection.Connection(
            session=session, region_name=self.conf.os_region_name,
            connect_retries=self.conf.http_retries, **kwargs)

    def _user_endpoint(self, catalog):
        """The peer's endpoint in a caller's catalog (the v2 format of
        X-Service-Catalog), as Nova finds Cinder for a user: an endpoint
        with the project in its URL names the caller's project there, not
        this service's."""
        if self.conf.endpoint_override or not catalog:
            return self.endpoint()
        try:
            return ks_catalog.ServiceCatalogV2(catalog).url_for(
                service_type=self.conf.catalog_info, interface='public',
                region_name=self.conf.os_region_name)
        except ks_exc.EndpointNotFound:
            return self.endpoint()

    def _new_token_connection(self, token, catalog=None):
        endpoint = self._user_endpoint(catalog)
        if CONF.auth_strategy == 'noauth':
            return self._connection(
                auth_type='admin_token',
                auth={'token': token, 'endpoint': endpoint},
                **{'%s_endpoint_override' % self.service: endpoint})
        session = ks_session.Session(
            auth=token_endpoint.Token(endpoint, token))
        return self._connection(
            session=session,
            **{'%s_endpoint_override' % self.service: endpoint})

    def with_token(self, token, catalog=None):
        """The proxy of a connection acting with ``token`` (a caller's),
        at the endpoint of the caller's ``catalog`` if one is given."""
        with self._lock:
            proxy = self._token_proxies.pop(token, None)
        if proxy is None:
            proxy = getattr(self._new_token_connection(token, catalog),
                            self.service)
        with self._lock:
            self._token_proxies[token] = proxy
            while len(self._token_proxies) > self.MAX_TOKEN_PROXIES:
                self._token_proxies.popitem(last=False)
        return proxy

    def as_service(self):
        """The proxy of a connection acting with this service's own
        credentials."""
        if CONF.auth_strategy == 'noauth':
            return self.with_token(self.conf.noauth_token)
        if self._service_proxy is None:
            conn = self._connection(session=self._keystone_session())
            proxy = getattr(conn, self.service)
            with self._lock:
                if self._service_proxy is None:
                    self._service_proxy = proxy
        return self._service_proxy

    def reach(self, unavailable, token=None, catalog=None):
        """:meth:`with_token`'s proxy (a token given) or
        :meth:`as_service`'s; ``unavailable(reason)`` is raised when the
        peer cannot be found (not in the catalog, no answer to its
        version discovery)."""
        from openstack import exceptions as sdk_exc  # see the docstring

        try:
            if token:
                return self.with_token(token, catalog)
            return self.as_service()
        except (ks_exc.ClientException, sdk_exc.SDKException) as exc:
            raise unavailable(str(exc)) from exc

    def adapter_as_service(self):
        """A keystoneauth adapter acting with this service's own
        credentials (in noauth, its ``noauth_token``), kept and shared
        between threads as a connection is."""
        if self._service_adapter is None:
            if CONF.auth_strategy == 'noauth':
                endpoint = self.endpoint()
                session = ks_session.Session(auth=token_endpoint.Token(
                    endpoint, self.conf.noauth_token))
            else:
                endpoint = self.conf.endpoint_override
                session = self._keystone_session()
            made = ks_adapter.Adapter(
                session, service_type=self.conf.catalog_info,
                interface='public', region_name=self.conf.os_region_name,
                endpoint_override=endpoint or None,
                connect_retries=self.conf.http_retries)
            with self._lock:
                if self._service_adapter is None:
                    self._service_adapter = made
        return self._service_adapter

    def reset(self):
        """Forget every connection (the configuration changed)."""
        with self._lock:
            self._session = None
            self._service_proxy = None
            self._service_adapter = None
            self._token_proxies.clear()


def request_id(context):
    return context.global_request_id or context.request_id
