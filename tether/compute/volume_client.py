"""The compute service's calls to the volume API, through openstacksdk.

As Nova calls Cinder: the API process acts with the user's token (so the
volume service's own policies and tenancy apply), the compute manager
with the service's credentials (``[volume]``, a keystoneauth section like
Nova's ``[cinder]``; with noauth, ``[volume] noauth_token``); see
tether.clients. Every call carries the request id of the request that
caused it, so one boot can be followed in the logs of both services.
"""

from urllib import parse

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


def _unavailable(reason):
    return exception.VolumeAPIUnavailable(
        reason='the volume API cannot be reached: %s' % reason, status=None)


def for_user(context):
    """A client acting with the token of the caller of ``context``."""
    return VolumeClient(PEER.reach(_unavailable, context.auth_token,
                                   context.service_catalog),
                        clients.request_id(context))


def as_service(context):
    """A client acting with the compute service's own credentials."""
    return VolumeClient(PEER.reach(_unavailable),
                        clients.request_id(context))


def for_context(context):
    """The caller's client where the context carries a token (a request,
    or a message a request sent: the compute host makes a volume for the
    user who asked for it), else the service's."""
    if context.auth_token:
        return for_user(context)
    return as_service(context)


def _translate(exc, what, not_found=None):
    status = getattr(exc, 'status_code', None)
    message = getattr(exc, 'details', None) or str(exc)
    if status == 404:
        if not_found is not None:
            return not_found(what, message)
        return exception.VolumeNotFound(volume_id=what)
    if status == 403:
        kind = exception.VolumeAPIForbidden
    elif status is not None and 400 <= status < 500:
        kind = exception.VolumeAPIRefused
    else:
        kind = exception.VolumeAPIUnavailable
    return kind(reason='%s: %s' % (what, message), status=status)


def _segment(resource_id):
    """An id as one segment of a volume API path: the proxies pass on ids
    their caller typed (``/os-volumes/{id}``), which may hold ``/`` or
    ``?``."""
    return parse.quote(resource_id, safe='')


def _page(url, limit, offset):
    """``url`` with the ``limit`` and ``offset`` given (not None)."""
    query = [(k, v) for k, v in (('limit', limit), ('offset', offset))
             if v is not None]
    return url + ('?' + parse.urlencode(query) if query else '')


def _snapshot_not_found(snapshot_id, message):
    return exception.SnapshotNotFound(snapshot_id=snapshot_id)


def refused(what, message):
    """A 404 for a create: something the body names (a volume type) is
    not found; the client's error, in the volume API's words."""
    return exception.VolumeAPIRefused(reason='%s: %s' % (what, message),
                                      status=404)


def _snapshots_not_served(volume_id, message):
    """A 404 for a snapshot create of a volume the caller has just been
    shown: the volume API serves no snapshots (tether's before its
    snapshots)."""
    return exception.SnapshotsNotServed(volume_id=volume_id)


class VolumeClient:
    """The calls compute makes, with the volume API's errors translated:
    VolumeNotFound for 404, VolumeAPIError (with ``status``) otherwise."""

    def __init__(self, proxy, request_id):
        self.proxy = proxy
        self.request_id = request_id

    def _call(self, what, fn, *args, not_found=None, **kwargs):
        from openstack import exceptions as sdk_exc  # see tether.clients

        try:
            return fn(*args, **kwargs)
        except sdk_exc.HttpException as exc:
            raise _translate(exc, what, not_found)
        except (sdk_exc.SDKException, ks_exc.ClientException) as exc:
            raise exception.VolumeAPIUnavailable(
                reason='%s: %s' % (what, exc), status=None)

    def _json(self, what, method, url, body=None, version=ATTACH_VERSION,
              not_found=None):
        from openstack import exceptions as sdk_exc  # see tether.clients

        def call():
            resp = self.proxy.request(url, method, json=body,
                                      microversion=version,
                                      global_request_id=self.request_id,
                                      raise_exc=False)
            sdk_exc.raise_from_response(resp)
            return resp.json() if resp.content else None
        return self._call(what, call, not_found=not_found)

    def get_volume(self, volume_id):
        return self._json(volume_id, 'GET',
                          '/volumes/%s' % _segment(volume_id))['volume']

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
                          '/attachments/%s' % _segment(attachment_id),
                          {'attachment': {'connector': connector}}
                          )['attachment']

    def complete_attachment(self, attachment_id):
        self._json(attachment_id, 'POST',
                   '/attachments/%s/action' % _segment(attachment_id),
                   {'os-complete': attachment_id})

    def delete_attachment(self, attachment_id):
        """Delete; an attachment already gone is not an error."""
        try:
            self._json(attachment_id, 'DELETE',
                       '/attachments/%s' % _segment(attachment_id))
        except exception.VolumeNotFound:
            LOG.info('Attachment %s was already deleted', attachment_id)

    def create_volume(self, size, image_id=None, name=None,
                      availability_zone=None, not_found=None, **more):
        """A new volume of ``size`` GiB (made of ``image_id``), as Nova
        makes the volume of a block device mapping; the volume as the
        volume API answered (``creating``). ``more``: other keys of the
        volume API's create (``description``, ``volume_type``,
        ``metadata``, ``snapshot_id``), those that are not None;
        ``not_found``: what a 404 becomes (VolumeNotFound of the image
        unless said)."""
        # Nova names the volumes it makes '' (of a snapshot or an image).
        body = {'size': size, 'name': name or ''}
        if image_id:
            body['imageRef'] = image_id
        if availability_zone:
            body['availability_zone'] = availability_zone
        body.update((k, v) for k, v in more.items() if v is not None)
        return self._json(image_id or 'volume', 'POST', '/volumes',
                          {'volume': body}, not_found=not_found)['volume']

    def list_volumes(self, limit=None, offset=None):
        """The caller's volumes, in detail (the volume API's first page,
        of at most its ``osapi_max_limit``)."""
        return self._json('volumes', 'GET', _page('/volumes/detail', limit,
                                                  offset))['volumes']

    def get_snapshot(self, snapshot_id):
        return self._json(snapshot_id, 'GET',
                          '/snapshots/%s' % _segment(snapshot_id),
                          not_found=_snapshot_not_found)['snapshot']

    def list_snapshots(self, limit=None, offset=None):
        """The caller's snapshots, in detail; none where the volume API
        serves no snapshots (a 404 for the path)."""
        url = _page('/snapshots/detail', limit, offset)
        try:
            return self._json('snapshots', 'GET', url,
                              not_found=_snapshot_not_found)['snapshots']
        except exception.SnapshotNotFound:
            return []

    def create_snapshot(self, volume_id, name=None, description=None,
                        force=False):
        body = {'volume_id': volume_id, 'force': force}
        if name is not None:
            body['name'] = name
        if description is not None:
            body['description'] = description
        return self._json(volume_id, 'POST', '/snapshots',
                          {'snapshot': body},
                          not_found=_snapshots_not_served)['snapshot']

    def delete_snapshot(self, snapshot_id):
        self._json(snapshot_id, 'DELETE',
                   '/snapshots/%s' % _segment(snapshot_id),
                   not_found=_snapshot_not_found)

    def limits(self):
        """The caller's project's limits and usage (GET /limits)."""
        return self._json('limits', 'GET', '/limits')['limits']

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
        self._json(volume_id, 'POST',
                   '/volumes/%s/action' % _segment(volume_id),
                   {'os-reimage': {'image_id': image_id,
                                   'reimage_reserved': reimage_reserved}},
                   REIMAGE_VERSION)

    def delete_volume(self, volume_id):
        self._json(volume_id, 'DELETE', '/volumes/%s' % _segment(volume_id))

    def complete_extend(self, volume_id, error):
        self._json(volume_id, 'POST',
                   '/volumes/%s/action' % _segment(volume_id),
                   {'os-extend_volume_completion': {'error': bool(error)}},
                   EXTEND_COMPLETION_VERSION)

    def update_snapshot_status(self, snapshot_id, status, progress):
        """Tell the volume service how an assisted snapshot's create
        (``creating``: done, or ``error``) or delete (``deleting``: done,
        or ``error_deleting``) went on this host; ``progress`` ``90%``,
        as Nova sends it, is what the volume service waits for."""
        self._json(snapshot_id, 'POST',
                   '/snapshots/%s/action' % _segment(snapshot_id),
                   {'os-update_snapshot_status': {'status': status,
                                                  'progress': progress}},
                   not_found=_snapshot_not_found)
