"""The compute service's calls to the share API (Manila), through
openstacksdk.

As Nova calls Manila for the shares of its servers: the API process
reads a share with the user's token (so Manila's policies and tenancy
decide whether the user may use it), the compute manager grants and
revokes the host's access with the service's credentials (``[share]``,
a keystoneauth section like Nova's ``[manila]``; with noauth,
``[share] noauth_token``); see tether.clients. Every call names
microversion 2.82, the first with locked access rules, and carries the
request id of the request that caused it.

The access rules tether makes are locked, as Nova's are: hidden from
other users (``lock_visibility``: Manila shows them ``access_to`` and
``access_key`` as asterisks) and not deletable by them
(``lock_deletion``, which also locks the share against deletion while
the rule is there). Only the user who placed the locks (the compute
service) may remove the rule, and only by saying so (``unrestrict``).

A cephx rule's ``access_key`` is the secret a compute host mounts a
CEPHFS share with, and an export location names where the data is:
neither is ever logged. The answers that carry them are not logged by
keystoneauth either (``log=False``), and the dataclasses leave them out
of their repr.
"""

import dataclasses
import time
import typing

from keystoneauth1 import exceptions as ks_exc
from oslo_config import cfg
from oslo_log import log as logging

from tether import clients
from tether.compute import share_exception

CONF = cfg.CONF
LOG = logging.getLogger(__name__)

# Locked access rules (lock_visibility, lock_deletion, lock_reason on
# allow_access; unrestrict on deny_access): what Nova needs too.
API_VERSION = '2.82'

PEER = clients.Peer('share', 'shared_file_system', '2')

# The states of an access rule (Manila's manila/common/constants.py).
ACTIVE = 'active'
ERROR = 'error'
# A rule on its way out: Manila still lists it, and refuses a new rule
# for the same client ("exists") until it is gone.
LEAVING = ('queued_to_deny', 'denying')

# How often a rule that is being applied or removed is looked at.
POLL_INTERVAL = 1.0


@dataclasses.dataclass(frozen=True)
class Share:
    """A share as the compute service needs it. ``export_location`` is
    the path a host mounts: the preferred one of the share's export
    locations (see :func:`choose_export`); None if it has none yet."""
    id: str
    status: str
    protocol: str
    export_location: typing.Optional[str] = dataclasses.field(
        default=None, repr=False)


@dataclasses.dataclass(frozen=True)
class Access:
    """One access rule of a share. ``access_key`` is the cephx secret of
    a CEPHFS rule (None for other rules, and until Manila has made it)."""
    id: str
    state: str
    access_type: str
    access_to: str
    access_key: typing.Optional[str] = dataclasses.field(
        default=None, repr=False)

    @classmethod
    def from_manila(cls, rule):
        return cls(id=rule['id'], state=rule['state'],
                   access_type=rule['access_type'],
                   access_to=rule['access_to'],
                   access_key=rule.get('access_key'))


def _unavailable(reason):
    return share_exception.ShareAPIUnavailable(reason=reason, status=None)


def _proxy(token=None, catalog=None):
    """The share API's proxy (the caller's with a ``token``, else the
    service's); ShareAPIUnavailable (503) when this service has no share
    API configured, or cannot find it."""
    if not PEER.configured():
        raise _unavailable('no share API (Manila) is configured: set '
                           '[share] endpoint_override, or its Keystone '
                           'credentials')
    return PEER.reach(_unavailable, token, catalog)


def for_user(context):
    """A client acting with the token of the caller of ``context``."""
    return ShareClient(_proxy(context.auth_token, context.service_catalog),
                       clients.request_id(context))


def as_service(context):
    """A client acting with the compute service's own credentials."""
    return ShareClient(_proxy(), clients.request_id(context))


def choose_export(locations):
    """The path to mount of a share's ``export_locations`` (as Manila
    lists them at 2.82): the first preferred one, as Nova chooses; else
    the first an administrator alone may use is passed over (Manila lists
    those too when the caller is an administrator, and they are paths of
    its own networks, not the hosts'); else the first; None if there is
    none."""
    for location in locations:
        if location.get('preferred'):
            return location['path']
    for location in locations:
        if not location.get('is_admin_only'):
            return location['path']
    return locations[0]['path'] if locations else None


def _translate(exc, share_id):
    """The exception for the share API's answer ``exc`` to a call about
    ``share_id``."""
    status = getattr(exc, 'status_code', None)
    message = getattr(exc, 'details', None) or str(exc)
    reason = 'share %s: %s' % (share_id, message)
    if status == 404:
        return share_exception.ShareNotFound(share_id=share_id, reason=reason)
    if status == 403:
        kind = share_exception.ShareAPIForbidden
    elif status is not None and 400 <= status < 500:
        kind = share_exception.ShareAPIRefused
    else:
        kind = share_exception.ShareAPIUnavailable
    return kind(reason=reason, status=status)


class ShareClient:
    """The calls the compute service makes, with the share API's errors
    translated: ShareNotFound for a share Manila does not know (404, or
    400 where Manila answers so for it), ShareAPIError (with ``status``)
    otherwise; allow and deny raise ShareAccessGrantError and
    ShareAccessRemovalError for the rule itself."""

    def __init__(self, proxy, request_id):
        self.proxy = proxy
        self.request_id = request_id

    def _json(self, share_id, method, url, body=None, not_found_400=False,
              secret=False):
        """The JSON answer of one call. ``not_found_400``: Manila's 400
        means it does not know the share. ``secret``: the answer carries
        a key or an export location, which keystoneauth must not log."""
        if secret:
            LOG.debug('%s %s (share %s; the answer is not logged)',
                      method, url.split('?')[0], share_id)
        from openstack import exceptions as sdk_exc  # see tether.clients

        try:
            resp = self.proxy.request(url, method, json=body,
                                      microversion=API_VERSION,
                                      global_request_id=self.request_id,
                                      raise_exc=False, log=not secret)
            sdk_exc.raise_from_response(resp)
        except sdk_exc.HttpException as exc:
            if not_found_400 and exc.status_code == 400:
                raise share_exception.ShareNotFound(
                    share_id=share_id, reason='share %s: %s' % (
                        share_id, exc.details or exc)) from exc
            raise _translate(exc, share_id) from exc
        except (sdk_exc.SDKException, ks_exc.ClientException) as exc:
            raise share_exception.ShareAPIUnavailable(
                reason='share %s: %s' % (share_id, exc), status=None
            ) from exc
        return resp.json() if resp.content else None

    def get(self, share_id):
        """The share and the path a host mounts (with the user's token:
        Manila says whether the user may see it)."""
        share = self._json(share_id, 'GET', '/shares/%s' % share_id,
                           not_found_400=True)['share']
        locations = self._json(share_id, 'GET',
                               '/shares/%s/export_locations' % share_id,
                               not_found_400=True,
                               secret=True)['export_locations']
        return Share(id=share['id'], status=share['status'],
                     protocol=share['share_proto'],
                     export_location=choose_export(locations))

    def find_access(self, share_id, access_type, access_to):
        """The share's access rule for (``access_type``, ``access_to``),
        or None. Call it as the service: the rules it locked show other
        users no ``access_to``."""
        rules = self._json(share_id, 'GET',
                           '/share-access-rules?share_id=%s' % share_id,
                           not_found_400=True, secret=True)['access_list']
        for rule in rules:
            if (rule['access_type'] == access_type and
                    rule['access_to'] == access_to):
                return Access.from_manila(rule)
        return None

    def _create_access(self, share_id, access_type, access_to, lock_reason):
        body = {'allow_access': {
            'access_type': access_type, 'access_to': access_to,
            'access_level': 'rw', 'lock_visibility': True,
            'lock_deletion': True, 'lock_reason': lock_reason}}
        try:
            rule = self._json(share_id, 'POST', '/shares/%s/action' % share_id,
                              body, secret=True)['access']
        except share_exception.ShareAPIRefused as exc:
            if exc.status != 400:
                raise
            # Manila refuses the rule itself (an access_to it cannot
            # read, an access type the share's protocol has not).
            raise share_exception.ShareAccessGrantError(
                share_id=share_id, reason=exc.kwargs['reason']) from exc
        LOG.info('Asked for access rule %s to share %s', rule['id'],
                 share_id)
        return Access.from_manila(rule)

    def allow(self, share_id, access_type, access_to, lock_reason):
        """Let ``access_to`` in to the share, read-write, with a locked
        rule; the rule once active (with its key, for cephx).

        A rule the share already has for the same client is used as it
        is (Manila refuses a second one); one being removed is waited
        out first. The rule is looked at about once a second for at most
        ``[share] share_apply_policy_timeout`` seconds in all; a rule in
        ``error``, or not active by then, raises ShareAccessGrantError
        (the rule is left for :meth:`deny` to remove)."""
        timeout = CONF.share.share_apply_policy_timeout
        deadline = time.monotonic() + timeout
        created = False
        while True:
            rule = self.find_access(share_id, access_type, access_to)
            if rule is None:
                if created:
                    raise share_exception.ShareAccessGrantError(
                        share_id=share_id,
                        reason='its access rule was removed while it was '
                               'being applied')
                rule = self._create_access(share_id, access_type, access_to,
                                           lock_reason)
                created = True
            if rule.state == ACTIVE and (rule.access_type != 'cephx' or
                                         rule.access_key):
                LOG.info('Access rule %s to share %s is active', rule.id,
                         share_id)
                return rule
            if rule.state == ERROR:
                raise share_exception.ShareAccessGrantError(
                    share_id=share_id,
                    reason='its access rule %s is in state error' % rule.id)
            left = deadline - time.monotonic()
            if left <= 0:
                state = rule.state
                if rule.state == ACTIVE:
                    state = 'active without a cephx key'
                raise share_exception.ShareAccessGrantError(
                    share_id=share_id,
                    reason='its access rule %s is still %s after %s '
                           'seconds' % (rule.id, state, timeout))
            time.sleep(min(POLL_INTERVAL, left))

    def deny(self, share_id, access_type, access_to):
        """Remove the share's rule for (``access_type``, ``access_to``)
        and its locks (``unrestrict``: the service placed them), and wait
        until Manila no longer lists it (at most ``[share]
        share_apply_policy_timeout`` seconds). True if a rule was
        removed; False if the share or the rule was already gone, which
        is as good. Anything else raises ShareAccessRemovalError."""
        try:
            return self._deny(share_id, access_type, access_to)
        except share_exception.ShareNotFound:
            LOG.info('Share %s is gone: no access to remove', share_id)
            return False
        except share_exception.ShareAPIError as exc:
            raise share_exception.ShareAccessRemovalError(
                share_id=share_id, reason=str(exc)) from exc

    def _deny(self, share_id, access_type, access_to):
        rule = self.find_access(share_id, access_type, access_to)
        if rule is None:
            LOG.info('Share %s has no access rule of this host to remove',
                     share_id)
            return False
        if rule.state not in LEAVING:
            try:
                self._json(share_id, 'POST', '/shares/%s/action' % share_id,
                           {'deny_access': {'access_id': rule.id,
                                            'unrestrict': True}})
            except share_exception.ShareNotFound:
                # The rule (Manila's 404 does not say which) went first.
                LOG.info('Access rule %s to share %s was already removed',
                         rule.id, share_id)
                return False
        LOG.info('Removing access rule %s to share %s', rule.id, share_id)
        timeout = CONF.share.share_apply_policy_timeout
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            time.sleep(max(0.0, min(POLL_INTERVAL, left)))
            rule = self.find_access(share_id, access_type, access_to)
            if rule is None:
                LOG.info('Access to share %s removed', share_id)
                return True
            if rule.state == ERROR:
                raise share_exception.ShareAccessRemovalError(
                    share_id=share_id,
                    reason='its access rule %s went to state error' % rule.id)
            if left <= 0:
                raise share_exception.ShareAccessRemovalError(
                    share_id=share_id,
                    reason='its access rule %s is still %s after %s '
                           'seconds' % (rule.id, rule.state, timeout))
