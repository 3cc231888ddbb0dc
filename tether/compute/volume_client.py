"""The compute service's calls to the volume API, through openstacksdk.

As Nova calls Cinder: the API process acts with the user's token (so the
volume service's own policies and tenancy apply), the compute manager
with the service's credentials (``[volume]``, a keystoneauth section like
Nova's ``[cinder]``; with noauth, ``[volume] noauth_token``); see
tether.clients. Every call carries the request id of the request that
caused it, so one boot can be followed in the logs of both services.
"""

from keystoneauth1 import discover
from keystoneauth1 import exceptions as ks_exc
from oslo_log import log as logging

from tether import clients
from tether.compute import exception

LOG = logging.getLogger(__name__)

# Every call names its microversion of the volume API (named here, not
# imported: the services never import each other; tests/unit/api/
# test_versions.py checks them against the volume API's names).
# 3.44 is what Nova uses for the attachments API (create, update,
# complete, delete).
ATTACH_VERSION = '3.44'
# An attachment created with a mode (rw or ro).
ATTACHMENT_MODE_VERSION = '3.54'
# os-extend_volume_completion, served from 3.71.
EXTEND_COMPLETION_VERSION = '3.71'
# os-reimage, served from 3.68.
REIMAGE_VERSION = '3.68'

PEER = clients.Peer('volume', 'block_storage', '3')


def for_user(context):
    """A client acting with the token of the caller of ``context``."""
    return VolumeClient(PEER.with_token(context.auth_token,
                                        context.service_catalog),
                        clients.request_id(context))


def as_service(context):
    """A client acting with the compute service's own credentials."""
    return VolumeClient(PEER.as_service(), clients.request_id(context))


def for_context(context):
    """The caller's client where the context carries a token (a request,
    or a message a request sent: the compute host makes a volume for the
    user who asked for it), else the service's."""
    if context.auth_token:
        return for_user(context)
    return as_service(context)


def _translate(exc, what):
    status = getattr(exc, 'status_code', None)
    message = getattr(exc, 'details', None) or str(exc)
    if status == 404:
        return exception.VolumeNotFound(volume_id=what)
    if status == 403:
        kind = exception.VolumeAPIForbidden
    elif status is not None and 400 <= status < 500:
        kind = exception.VolumeAPIRefused
    else:
        kind = exception.VolumeAPIUnavailable
    return kind(reason='%s: %s' % (what, message), status=status)


class VolumeClient:
    """The calls compute makes, with the volume API's errors translated:
    VolumeNotFound for 404, VolumeAPIError (with ``status``) otherwise."""

    def __init__(self, proxy, request_id):
        self.proxy = proxy
        self.request_id = request_id

    def _call(self, what, fn, *args, **kwargs):
        from openstack import exceptions as sdk_exc  # see tether.clients

        try:
            return fn(*args, **kwargs)
        except sdk_exc.HttpException as exc:
            raise _translate(exc, what)
        except (sdk_exc.SDKException, ks_exc.ClientException) as exc:
            raise exception.VolumeAPIUnavailable(
                reason='%s: %s' % (what, exc), status=None)

    def _json(self, what, method, url, body=None, version=ATTACH_VERSION):
        from openstack import exceptions as sdk_exc  # see tether.clients

        def call():
            resp = self.proxy.request(url, method, json=body,
                                      microversion=version,
                                      global_request_id=self.request_id,
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
            version = ATTACHMENT_MODE_VERSION
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

    def create_volume(self, size, image_id=None, name=None,
                      availability_zone=None):
        """A new volume of ``size`` GiB (made of ``image_id``), as Nova
        makes the volume of a block device mapping; the volume as the
        volume API answered (``creating``)."""
        # Nova names the volumes it makes '' (of a snapshot or an image).
        body = {'size': size, 'name': name or ''}
        if image_id:
            body['imageRef'] = image_id
        if availability_zone:
            body['availability_zone'] = availability_zone
        return self._json(image_id or 'volume', 'POST', '/volumes',
                          {'volume': body})['volume']

    def max_version(self):
        """The newest microversion the volume API serves (its version
        discovery, which keystoneauth caches)."""
        def call():
            data = self.proxy.get_endpoint_data()
            found = getattr(data, 'max_microversion', None)
            return discover.version_to_string(found) if found else None
        return self._call('version discovery', call)

    def reimage(self, volume_id, image_id, reimage_reserved=True):
        """Ask the volume service to write ``image_id`` over the volume;
        it answers with the volume-reimaged event when it is done."""
        self._json(volume_id, 'POST', '/volumes/%s/action' % volume_id,
                   {'os-reimage': {'image_id': image_id,
                                   'reimage_reserved': reimage_reserved}},
                   REIMAGE_VERSION)

    def delete_volume(self, volume_id):
        self._json(volume_id, 'DELETE', '/volumes/%s' % volume_id)

    def complete_extend(self, volume_id, error):
        self._json(volume_id, 'POST', '/volumes/%s/action' % volume_id,
                   {'os-extend_volume_completion': {'error': bool(error)}},
                   EXTEND_COMPLETION_VERSION)
