"""The volume service's calls to the compute API, through a keystoneauth
adapter (not openstacksdk: every call here is a request of its own, and
a volume API worker that deletes an attachment naming a server need not
load openstacksdk's 540 modules to ask the compute API about it).

With the service's own credentials (``[compute]``, a keystoneauth
section like Cinder's ``[nova]``; see tether.clients).
"""

from urllib import parse

from keystoneauth1 import exceptions as ks_exc
from oslo_log import log as logging
from oslo_serialization import jsonutils

from tether import clients

LOG = logging.getLogger(__name__)

PEER = clients.Peer('compute', 'compute', '2')
# The service type that names the microversion headers (OpenStack-API-
# Version: compute 2.89, and Nova's own X-OpenStack-Nova-API-Version),
# whatever the catalog type ([compute] catalog_info) is.
MICROVERSION_SERVICE_TYPE = 'compute'

# The microversions of the compute API this client sends (named here, not
# imported: the services never import each other; tests/unit/api/
# test_versions.py checks them against the compute API's names).
# GET /servers/{id}/os-volume_attachments/{volume_id} names the
# attachment from 2.89 (what Cinder uses for the same question).
ATTACHMENT_ID_VERSION = '2.89'
# volume-extended is an event from 2.51.
EXTEND_EVENT_VERSION = '2.51'
# volume-reimaged is an event from 2.93 (Nova's volume-backed rebuild),
# as Cinder sends it.
REIMAGE_EVENT_VERSION = '2.93'
# os-assisted-volume-snapshots has no microversion of its own (Cinder
# sends none).
ASSISTED_SNAPSHOT_VERSION = '2.1'
# With volume-extended of an extend that waits for the server's host:
# "<volume id>=<GiB>", the size it waits for, which tether's compute API
# passes on to the host (it then need not read the volume); Nova ignores
# it (named here, not imported: tests/unit/api/test_versions.py checks it
# against the compute API's name).
EXTEND_SIZE_HEADER = 'OpenStack-Tether-Extend-New-Size'


class ComputeUnavailable(Exception):
    """The compute API could not answer."""


class EventRefused(Exception):
    """The compute API refused an external event."""


class AssistRefused(Exception):
    """The compute API refused an assisted snapshot's create or delete."""


class ComputeClient:
    def __init__(self, proxy, request_id):
        self.proxy = proxy
        self.request_id = request_id

    def _request(self, method, url, version, body=None, headers=None):
        try:
            return self.proxy.request(
                url, method, json=body, microversion=version,
                microversion_service_type=MICROVERSION_SERVICE_TYPE,
                global_request_id=self.request_id, headers=headers,
                raise_exc=False)
        except ks_exc.ClientException as exc:
            raise ComputeUnavailable(str(exc))

    def uses_attachment(self, context, instance_uuid, attachment_id,
                        volume_id):
        """Whether the server still uses this attachment of the volume.

        A server that does not exist, or has the volume through another
        attachment (or not at all), does not use it.
        """
        resp = self._request(
            'GET', '/servers/%s/os-volume_attachments/%s'
            % (instance_uuid, volume_id), ATTACHMENT_ID_VERSION)
        if resp.status_code == 404:
            return False
        if resp.status_code != 200:
            raise ComputeUnavailable('GET %s answered %s: %s'
                                     % (resp.url, resp.status_code,
                                        resp.text[:200]))
        found = resp.json()['volumeAttachment'].get('attachment_id')
        return found == attachment_id

    def volume_extended(self, instance_uuid, volume_id, new_size=None):
        """Tell the server's compute host that the volume grew (or must
        grow: an extend waiting for the hypervisor, to ``new_size`` GiB,
        sent in EXTEND_SIZE_HEADER beside Nova's event).

        Raises EventRefused unless the compute API accepted the event
        (its code 200), ComputeUnavailable if it could not answer.
        """
        headers = None
        if new_size is not None:
            headers = {EXTEND_SIZE_HEADER: '%s=%d' % (volume_id, new_size)}
        self._post_event(EXTEND_EVENT_VERSION, {
            'name': 'volume-extended', 'server_uuid': instance_uuid,
            'tag': volume_id}, headers=headers)

    def volume_reimaged(self, instance_uuid, volume_id, status):
        """Tell the server's compute host that the re-image of its volume
        it waits for is over: ``status`` ``completed`` or ``failed``.

        Raises EventRefused unless the compute API accepted the event,
        ComputeUnavailable if it could not answer.
        """
        self._post_event(REIMAGE_EVENT_VERSION, {
            'name': 'volume-reimaged', 'server_uuid': instance_uuid,
            'tag': volume_id, 'status': status})

    def create_volume_snapshot(self, volume_id, create_info):
        """Ask the hypervisor of the server the volume is attached to to
        switch its disk to ``create_info``'s new_file; it answers with
        os-update_snapshot_status. AssistRefused, ComputeUnavailable."""
        self._check(self._request(
            'POST', '/os-assisted-volume-snapshots',
            ASSISTED_SNAPSHOT_VERSION,
            body={'snapshot': {'volume_id': volume_id,
                               'create_info': create_info}}))

    def delete_volume_snapshot(self, snapshot_id, delete_info):
        """Ask the hypervisor of the volume's server to merge the files
        ``delete_info`` names; it answers with os-update_snapshot_status.
        AssistRefused, ComputeUnavailable."""
        query = parse.urlencode({'delete_info': jsonutils.dumps(delete_info)})
        self._check(self._request(
            'DELETE', '/os-assisted-volume-snapshots/%s?%s'
            % (parse.quote(snapshot_id, safe=''), query),
            ASSISTED_SNAPSHOT_VERSION))

    @staticmethod
    def _check(resp):
        if resp.status_code >= 500:
            raise ComputeUnavailable('%s %s answered %s: %s'
                                     % (resp.request.method, resp.url,
                                        resp.status_code, resp.text[:200]))
        if resp.status_code >= 300:
            raise AssistRefused('the compute API answered %s: %s'
                                % (resp.status_code, resp.text[:300]))

    def _post_event(self, version, event, headers=None):
        resp = self._request('POST', '/os-server-external-events', version,
                             body={'events': [event]}, headers=headers)
        if resp.status_code >= 500:
            raise ComputeUnavailable('POST %s answered %s: %s'
                                     % (resp.url, resp.status_code,
                                        resp.text[:200]))
        if resp.status_code not in (200, 207):
            raise EventRefused('the compute API answered %s: %s'
                               % (resp.status_code, resp.text[:200]))
        [answer] = resp.json()['events']
        if answer.get('code') != 200:
            raise EventRefused('the compute API refused the event of '
                               'server %s: code %s'
                               % (event['server_uuid'], answer.get('code')))


def as_service(context):
    """A client of the compute API, or None if none is configured."""
    if not PEER.configured():
        return None
    return ComputeClient(PEER.adapter_as_service(),
                         clients.request_id(context))
