"""tether-compute's share client (tether.compute.share_client) against a
real Manila (the session's ``manila`` fixture: CephFS and the dummy NFS
backend), built from the ``[share]`` options as tether-compute builds it:
noauth, the endpoint in ``endpoint_override``, the service's own token
in ``noauth_token``.

The shares belong to a user of a project of their own; the access rules
are the service's, as a compute host's are.
"""

import logging
import os
import signal
import time
import uuid

import openstack
from oslo_config import cfg
import pytest

from tests.functional.share import manila_helpers as mh

from tether.compute import share_exception
from tether.compute import share_client
from tether import conf  # noqa: F401 - registers [share]
from tether import context as t_context

pytestmark = pytest.mark.slow

CONF = cfg.CONF
LOCK_REASON = 'attached by tether-compute (test)'
# What openstacksdk raises for a share that is gone (Manila answers 400
# for the rules of a share it does not know).
SHARE_GONE = (openstack.exceptions.NotFoundException,
              openstack.exceptions.BadRequestException)


_wait = mh.wait


_token = mh.token


@pytest.fixture
def share_conf(manila):
    CONF([], project='tether')
    overrides = [('auth_strategy', 'noauth', None),
                 ('endpoint_override', manila.endpoint, 'share'),
                 ('noauth_token', _token(), 'share'),
                 ('share_apply_policy_timeout',
                  CONF.share.share_apply_policy_timeout, 'share')]
    with mh.overridden(CONF, overrides):
        share_client.PEER.reset()
        yield
    share_client.PEER.reset()


@pytest.fixture
def context(share_conf):
    """The owner's request, as the compute API receives it."""
    token = _token()
    user, project = token.split(':')
    return t_context.RequestContext(
        user_id=user, project_id=project, auth_token=token,
        global_request_id='req-%s' % uuid.uuid4())


@pytest.fixture
def service(context):
    """The compute manager's client."""
    return share_client.as_service(context)


@pytest.fixture
def shares(context, sdk):
    """make(proto, share_type) -> an available share of the owner, made
    with openstacksdk (``make.owner``; ``make.locker``: the proxy of the
    compute service's token, which placed the locks and sees them);
    whatever a test leaves is released (the service's rules with their
    locks, then the share)."""
    owner = sdk(context.auth_token)
    locker = sdk(CONF.share.noauth_token)
    made = []

    def make(proto, share_type):
        share = owner.create_share(share_proto=proto, size=1,
                                   share_type=share_type)
        made.append(share.id)
        share = _wait(lambda: (s if (s := owner.get_share(share.id)).status
                               in ('available', 'error') else None),
                      120, 'share %s to be available' % share.id)
        assert share.status == 'available'
        return share

    make.owner, make.locker = owner, locker
    yield make
    for share_id in made:
        try:
            for rule in locker.access_rules(share_id):
                locker.delete_access_rule(rule.id, share_id, unrestrict=True)
            _wait(lambda: not list(locker.access_rules(share_id)), 60,
                  'the rules of share %s to go' % share_id)
        except SHARE_GONE:
            continue
        owner.delete_share(share_id)


class Watched:
    """A share client whose calls keep the log records they emit (at any
    level, keystoneauth's requests and answers included) in
    ``records``; the test's own openstacksdk calls are not watched."""

    def __init__(self, client, caplog):
        self.client = client
        self.caplog = caplog
        self.records = []
        caplog.set_level(logging.DEBUG)
        for name in ('keystoneauth', 'openstack', 'tether'):
            caplog.set_level(logging.DEBUG, logger=name)

    def __getattr__(self, name):
        method = getattr(self.client, name)

        def call(*args, **kwargs):
            self.caplog.clear()
            try:
                return method(*args, **kwargs)
            finally:
                self.records.extend(self.caplog.records)
        return call


def test_a_share_manila_does_not_know(context, service):
    client = share_client.for_user(context)
    unknown = str(uuid.uuid4())
    for share_id in (unknown, 'not-a-share-id', 'x' * 300):
        with pytest.raises(share_exception.ShareNotFound) as caught:
            client.get(share_id)
        assert caught.value.kwargs['share_id'] == share_id
    # Manila answers 400 for the rules of a share it does not know.
    with pytest.raises(share_exception.ShareNotFound):
        service.find_access(unknown, 'cephx', 'tether')
    with pytest.raises(share_exception.ShareNotFound):
        service.allow(unknown, 'cephx', 'tether', LOCK_REASON)


def test_a_cephfs_share_from_grant_to_removal(context, service, shares,
                                              caplog):
    """The one CephFS share of this module. The session's Manila schedules
    two 1 GiB CephFS shares in its life, deleted or not (the scheduler's
    stats of the 2 GiB pool keep the time manila-share started, so the
    space of deleted shares never comes back: the third fails with
    NoValidHost); test_manila_ceph.py takes the other."""
    made = shares('CEPHFS', 'cephfs')
    owner, locks = shares.owner, shares.locker
    user = Watched(share_client.for_user(context), caplog)
    service = Watched(service, caplog)
    share = user.get(made.id)
    assert (share.id, share.status, share.protocol) == (
        made.id, 'available', 'CEPHFS')
    # <monitors>:/volumes/_nogroup/<subvolume>/<uuid>: what ceph-fuse mounts.
    export = share.export_location
    assert ':/volumes/_nogroup/' in export
    access_to = CONF.share.cephfs_access_to

    began = time.monotonic()
    rule = service.allow(made.id, 'cephx', access_to, LOCK_REASON)
    granted_in = time.monotonic() - began
    assert (rule.state, rule.access_type, rule.access_to) == (
        'active', 'cephx', access_to)
    assert rule.access_key
    assert granted_in < CONF.share.share_apply_policy_timeout

    # Again: the same rule, not a second one (Manila would refuse it).
    assert service.allow(made.id, 'cephx', access_to, LOCK_REASON) == rule
    assert [r.id for r in owner.access_rules(made.id)] == [rule.id]
    assert service.find_access(made.id, 'cephx', access_to) == rule
    assert service.find_access(made.id, 'cephx', 'someone-else') is None

    # Locked: the rule against deletion and showing, the share against
    # deletion, all with tether's reason.
    rule_locks = list(locks.resource_locks(resource_id=rule.id))
    assert {lk.resource_action for lk in rule_locks} == {'delete', 'show'}
    assert {lk.lock_reason for lk in rule_locks} == {LOCK_REASON}
    share_locks = list(locks.resource_locks(resource_id=made.id))
    assert [lk.resource_action for lk in share_locks] == ['delete']
    with pytest.raises(openstack.exceptions.ForbiddenException):
        owner.delete_share(made.id)

    assert service.deny(made.id, 'cephx', access_to) is True
    assert list(owner.access_rules(made.id)) == []
    assert list(locks.resource_locks(resource_id=rule.id)) == []
    assert list(locks.resource_locks(resource_id=made.id)) == []
    assert service.deny(made.id, 'cephx', access_to) is False

    owner.delete_share(made.id)
    owner.wait_for_delete(owner.get_share(made.id), wait=120)
    assert service.deny(made.id, 'cephx', access_to) is False

    # Logged at DEBUG (keystoneauth's requests and answers included),
    # but never the key nor the export path.
    records = user.records + service.records
    assert any(r.name == 'keystoneauth.session' and 'RESP BODY' in
               r.getMessage() for r in records)
    secrets = (rule.access_key, export.split(':/', 1)[1])
    leaks = [r.getMessage() for r in records
             if any(s in r.getMessage() for s in secrets)]
    assert leaks == []
    # The calls carry the request id of the request that caused them
    # (Manila's noauth context drops it, so its log cannot show it: the
    # requests keystoneauth logged do; those whose answers are secret go
    # through the same call and are not logged).
    sent = [r.getMessage() for r in records
            if r.getMessage().startswith('REQ: curl') and
            '/v2/' in r.getMessage()]
    assert sent
    header = '-h "x-openstack-request-id: %s"' % context.global_request_id
    assert [m for m in sent if header not in m.lower()] == []


def test_an_nfs_share_is_granted_to_the_storage_ip(context, service,
                                                   shares):
    made = shares('NFS', 'default')
    share = share_client.for_user(context).get(made.id)
    assert share.protocol == 'NFS'
    # The dummy lists an administrators' path first, then the preferred
    # one (10.0.0.10), then another.
    assert share.export_location.startswith('10.0.0.10:/')
    ip = CONF.my_shared_fs_storage_ip
    rule = service.allow(made.id, 'ip', ip, LOCK_REASON)
    assert (rule.state, rule.access_type, rule.access_to, rule.access_key) \
        == ('active', 'ip', ip, None)
    assert service.deny(made.id, 'ip', ip) is True
    assert service.find_access(made.id, 'ip', ip) is None


def test_a_rule_the_backend_cannot_apply(service, shares):
    """The API takes a cephx rule on the dummy's NFS share; its backend
    puts it in error."""
    made = shares('NFS', 'default')
    with pytest.raises(share_exception.ShareAccessGrantError) as caught:
        service.allow(made.id, 'cephx', 'tether', LOCK_REASON)
    assert 'in state error' in str(caught.value)
    assert made.id in str(caught.value)
    # The rule in error is left; deny removes it.
    assert service.find_access(made.id, 'cephx', 'tether').state == 'error'
    assert service.deny(made.id, 'cephx', 'tether') is True


def test_a_rule_the_share_service_does_not_apply_in_time(manila, service,
                                                         shares, caplog):
    """manila-share stalls (stopped with SIGSTOP, then let go): the rule
    stays queued_to_apply; allow looks at it about once a second and
    gives up after share_apply_policy_timeout seconds."""
    caplog.set_level(logging.DEBUG, logger='tether.compute.share_client')
    made = shares('NFS', 'default')
    CONF.set_override('share_apply_policy_timeout', 2, group='share')
    ip = CONF.my_shared_fs_storage_ip
    share_service = next(p for p in manila.processes
                         if p.name == 'manila-share')
    os.killpg(share_service.pid, signal.SIGSTOP)
    try:
        began = time.monotonic()
        with pytest.raises(share_exception.ShareAccessGrantError) as caught:
            service.allow(made.id, 'ip', ip, LOCK_REASON)
        took = time.monotonic() - began
    finally:
        os.killpg(share_service.pid, signal.SIGCONT)
    assert 'still queued_to_apply after 2 seconds' in str(caught.value)
    assert 2 <= took < 3.5
    looks = [r for r in caplog.records
             if 'GET /share-access-rules' in r.getMessage()]
    # One look before the rule is made, then one a second.
    assert 3 <= len(looks) <= 4
    # Once manila-share works again, allow takes up the same rule.
    pending = service.find_access(made.id, 'ip', ip)
    CONF.set_override('share_apply_policy_timeout', 60, group='share')
    rule = service.allow(made.id, 'ip', ip, LOCK_REASON)
    assert (rule.id, rule.state) == (pending.id, 'active')
    assert service.deny(made.id, 'ip', ip) is True
