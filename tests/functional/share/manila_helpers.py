"""What the share tests do with the real Manila of the ``manila``
fixture: a user's openstacksdk proxy, shares made and waited for, and
their cleanup."""

import contextlib
import uuid

from keystoneauth1 import session as ks_session
from keystoneauth1 import token_endpoint
import openstack

from tests.functional import conftest


def wait(predicate, timeout, what, interval=0.3):
    """The first true value of ``predicate()``, asked every ``interval``
    seconds for at most ``timeout`` seconds."""
    return conftest.wait_for(predicate, timeout, interval, what)


def token():
    """A noauthv2 token ``<user>:<project>``; resource locks want both
    UUID-shaped (their response schemas say so)."""
    return '%s:%s' % (uuid.uuid4().hex, uuid.uuid4().hex)


def proxy(manila, user_token=None):
    """openstacksdk's shared file system proxy at 2.82 with the token
    ``user_token`` (a new user of a new project by default)."""
    user_token = user_token or token()
    # The root, not /v2, and the token a header of the session: the
    # version discovery GET carries no token otherwise, and noauth
    # answers a request without one with an empty 204, which leaves
    # openstacksdk without the microversions the server serves.
    sess = ks_session.Session(
        auth=token_endpoint.Token(manila.endpoint, user_token),
        additional_headers={'X-Auth-Token': user_token})
    # Retries, as tether's own clients make ([share] http_retries):
    # gunicorn closes a kept-alive connection idle for 2 s, and a request
    # sent on it as it closes fails with RemoteDisconnected.
    conn = openstack.connection.Connection(
        session=sess, shared_file_system_api_version='2.82',
        shared_file_system_endpoint_override=manila.endpoint,
        connect_retries=3)
    return conn.shared_file_system


class Shares:
    """The shares one test makes, deleted after it."""

    def __init__(self, sfs):
        self.sfs = sfs
        self.made = []

    def create(self, protocol='CEPHFS', share_type=None, name=None):
        """A new share, available: (share, its preferred export)."""
        share_type = share_type or (
            'cephfs' if protocol == 'CEPHFS' else 'default')
        share = self.sfs.create_share(
            name=name or 'tether-' + uuid.uuid4().hex[:6],
            share_proto=protocol, size=1, share_type=share_type)
        self.made.append(share.id)
        share = wait(lambda: (s if (s := self.sfs.get_share(share.id)).status
                              in ('available', 'error') else None),
                     120, 'share %s to be available' % share.id)
        assert share.status == 'available', share
        exports = list(self.sfs.export_locations(share.id))
        export = next((e for e in exports if e.is_preferred),
                      exports[0]).path if exports else None
        return share, export

    def rules(self, share_id):
        return list(self.sfs.access_rules(self.sfs.get_share(share_id)))

    def delete_all(self):
        for share_id in self.made:
            try:
                for rule in self.rules(share_id):
                    self.sfs.delete_access_rule(rule.id, share_id,
                                                unrestrict=True)
                wait(lambda: not self.rules(share_id), 60,
                     'the rules of share %s to go' % share_id)
                self.sfs.delete_share(share_id)
                self.sfs.wait_for_delete(self.sfs.get_share(share_id),
                                         wait=120)
            except openstack.exceptions.NotFoundException:
                pass


@contextlib.contextmanager
def overridden(conf, overrides):
    """Set the options of ``overrides`` ([(name, value, group)]) for the
    block, then put back the values they had: clearing an override would
    also clear one the aio made (its ``auth_strategy = noauth``)."""
    before = [(name, (conf[group] if group else conf)[name], group)
              for name, _value, group in overrides]
    for name, value, group in overrides:
        conf.set_override(name, value, group=group)
    try:
        yield
    finally:
        for name, value, group in before:
            conf.set_override(name, value, group=group)
