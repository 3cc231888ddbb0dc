"""Cinder's volume actions that tether does not serve (os-attach,
os-reserve ... which the attachments API replaces): as Cinder, which
looks the volume up for each, one on a volume the caller cannot see is a
404; on the caller's own volume, a 400 that says tether does not serve
it; an action Cinder does not have either is a 400 whatever the volume."""

import uuid

import pytest

from tests.functional import helpers
from tether.api.volume.handlers import volume_actions

UNKNOWN = str(uuid.UUID(int=7))
LEGACY = sorted(volume_actions.CINDER_ONLY)


def _action(http, volume_id, name):
    return http.post('/volumes/%s/action' % volume_id, json={name: {}})


def _code(resp):
    return next(iter(resp.json().values()))['error_code']


@pytest.mark.parametrize('name', LEGACY)
def test_on_an_unknown_volume_is_404(aio, name):
    resp = _action(aio.http(), UNKNOWN, name)
    assert resp.status_code == 404, resp.text
    assert _code(resp) == 'volume.volume.not_found'


def test_on_a_volume_tether_has(aio, wait):
    owner = aio.http()
    volume = helpers.create_volume(owner, wait_for=wait)
    for name in ('os-attach', 'os-initialize_connection', 'os-unmanage'):
        resp = _action(owner, volume['id'], name)
        assert resp.status_code == 400, resp.text
        assert _code(resp) == 'api.action.unknown'
        # Another project's volume is not found, as in Cinder.
        resp = _action(aio.http(), volume['id'], name)
        assert resp.status_code == 404, resp.text


def test_an_action_cinder_does_not_have_is_400_whatever_the_volume(aio):
    resp = _action(aio.http(), UNKNOWN, 'os-frobnicate')
    assert resp.status_code == 400, resp.text
    assert _code(resp) == 'api.action.unknown'


def test_os_unmanage_of_an_unknown_snapshot_is_404(aio):
    http = aio.http()
    resp = http.post('/snapshots/%s/action' % UNKNOWN,
                     json={'os-unmanage': {}})
    assert resp.status_code == 404, resp.text
    resp = http.post('/snapshots/%s/action' % UNKNOWN,
                     json={'os-frobnicate': {}})
    assert resp.status_code == 400, resp.text
