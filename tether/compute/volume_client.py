"""The compute service's calls to the volume API, through openstacksdk.

As Nova calls Cinder: the API process acts with the user's token (so the
volume service's own policies and tenancy apply), the compute manager
with the service's credentials (``[volume]``, a keystoneauth section like
Nova's ``[cinder]``; with noauth, ``[volume] noauth_token``). Every call
carries the request id of the request that caused it
(``X-OpenStack-Request-ID``), so one boot can be followed in the logs of
both services.
"""

import threading

from keystoneauth1 import exceptions as ks_exc
from keystoneauth1 import loading as ks_loading
from keystoneauth1 import token_endpoint
import openstack
from openstack import exceptions as sdk_exc
from oslo_config import cfg
from oslo_log import log as logging

from tether import exception

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

# Every call names its microversion: 3.44 is what Nova uses for the
# attachments API (create, update, complete, delete).
ATTACH_VERSION = '3.44'
EXTEND_COMPLETION_VERSION = '3.71'


def register_opts(conf=CONF):
    ks_loading.register_session_conf_options(conf, 'volume')
    ks_loading.register_auth_conf_options(conf, 'volume')


def list_opts():
    return (ks_loading.get_session_conf_options() +
            ks_loading.get_auth_common_conf_options() +
            ks_loading.get_auth_plugin_conf_options('password'))


_service_lock = threading.Lock()
_service_session = None


def _connection(session=None, **kwargs):
    kwargs.setdefault('region_name', CONF.volume.os_region_name)
    if CONF.volume.endpoint_override:
        kwargs['block_storage_endpoint_override'] = \
            CONF.volume.endpoint_override
    return openstack.connection.Connection(
        session=session, block_storage_api_version='3',
        connect_retries=CONF.volume.http_retries, **kwargs)


def _keystone_session():
    global _service_session
    with _service_lock:
        if _service_session is None:
            auth = ks_loading.load_auth_from_conf_options(CONF, 'volume')
            _service_session = ks_loading.load_session_from_conf_options(
                CONF, 'volume', auth=auth)
        return _service_session


def _endpoint():
    if CONF.volume.endpoint_override:
        return CONF.volume.endpoint_override
    return _keystone_session().get_endpoint(
        service_type=CONF.volume.catalog_info, interface='public',
        region_name=CONF.volume.os_region_name)


def _token_connection(token, request_id):
    endpoint = _endpoint()
    if CONF.auth_strategy == 'noauth':
        return _connection(auth_type='admin_token',
                           auth={'token': token, 'endpoint': endpoint},
                           block_storage_endpoint_override=endpoint,
                           global_request_id=request_id)
    from keystoneauth1 import session as ks_session
    session = ks_session.Session(
        auth=token_endpoint.Token(endpoint, token))
    return _connection(session=session,
                       block_storage_endpoint_override=endpoint,
                       global_request_id=request_id)


def _request_id(context):
    return context.global_request_id or context.request_id


def for_user(context):
    """A client acting with the token of the caller of ``context``."""
    return VolumeClient(_token_connection(context.auth_token,
                                          _request_id(context)))


def as_service(context):
    """A client acting with the compute service's own credentials."""
    if CONF.auth_strategy == 'noauth':
        conn = _token_connection(CONF.volume.noauth_token,
                                 _request_id(context))
    else:
        conn = _connection(session=_keystone_session(),
                           global_request_id=_request_id(context))
    return VolumeClient(conn)


def _translate(exc, what):
    status = getattr(exc, 'status_code', None)
    message = getattr(exc, 'details', None) or str(exc)
    if status == 404:
        return exception.VolumeNotFound(volume_id=what)
    return exception.VolumeAPIError(reason='%s: %s' % (what, message),
                                    status=status)


class VolumeClient:
    """The calls compute makes, with the volume API's errors translated:
    VolumeNotFound for 404, VolumeAPIError (with ``status``) otherwise."""

    def __init__(self, conn):
        self.conn = conn
        self.proxy = conn.block_storage

    def _call(self, what, fn, *args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except sdk_exc.HttpException as exc:
            raise _translate(exc, what)
        except (sdk_exc.SDKException, ks_exc.ClientException) as exc:
            raise exception.VolumeAPIError(
                reason='%s: %s' % (what, exc), status=None)

    def _json(self, what, method, url, body=None, version=ATTACH_VERSION):
        def call():
            resp = self.proxy.request(url, method, json=body,
                                      microversion=version,
                                      raise_exc=False)
            sdk_exc.raise_from_response(resp)
            return resp.json() if resp.content else None
        return self._call(what, call)

    def get_volume(self, volume_id):
        return self._json(volume_id, 'GET',
                          '/volumes/%s' % volume_id)['volume']

    def create_attachment(self, volume_id, instance_uuid, connector=None,
                          mode=None):
        body = {'volume_uuid': volume_id, 'instance_uuid': instance_uuid}
        if connector is not None:
            body['connector'] = connector
        version = ATTACH_VERSION
        if mode:
            body['mode'] = mode
            version = '3.54'
        return self._json(volume_id, 'POST', '/attachments',
                          {'attachment': body}, version)['attachment']

    def update_attachment(self, attachment_id, connector):
        return self._json(attachment_id, 'PUT',
                          '/attachments/%s' % attachment_id,
                          {'attachment': {'connector': connector}}
                          )['attachment']

    def complete_attachment(self, attachment_id):
        self._json(attachment_id, 'POST',
                   '/attachments/%s/action' % attachment_id,
                   {'os-complete': attachment_id})

    def delete_attachment(self, attachment_id):
        """Delete; an attachment already gone is not an error."""
        try:
            self._json(attachment_id, 'DELETE',
                       '/attachments/%s' % attachment_id)
        except exception.VolumeNotFound:
            LOG.info('Attachment %s was already deleted', attachment_id)

    def delete_volume(self, volume_id):
        self._json(volume_id, 'DELETE', '/volumes/%s' % volume_id)

    def complete_extend(self, volume_id, error):
        self._json(volume_id, 'POST', '/volumes/%s/action' % volume_id,
                   {'os-extend_volume_completion': {'error': bool(error)}},
                   EXTEND_COMPLETION_VERSION)
