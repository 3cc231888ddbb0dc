"""/os-volumes_boot over HTTP: Nova's old name of /servers (served to
2.102 by Nova, at every version by tether)."""

import pytest

from tests.functional.compute import server_helpers as sh


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def test_os_volumes_boot_is_servers(cloud):
    user = cloud.project()
    for version in ('2.1', sh.LATEST):
        http = user.compute(version)
        body = sh.server_body(user.volume()['id'])
        resp = http.post('/os-volumes_boot', json=body)
        assert resp.status_code == 202, resp.text
        server_id = resp.json()['server']['id']
        user.track(server_id)
        user.wait_server(server_id)
        shown = http.get('/os-volumes_boot/%s' % server_id)
        assert shown.status_code == 200, shown.text
        assert shown.json() == http.get('/servers/%s' % server_id).json()
        listed = http.get('/os-volumes_boot').json()['servers']
        assert server_id in [s['id'] for s in listed]
        detail = http.get('/os-volumes_boot/detail').json()['servers']
        assert server_id in [s['id'] for s in detail]
        resp = http.post('/os-volumes_boot/%s/action' % server_id,
                         json={'os-stop': None})
        assert resp.status_code == 202, resp.text
        resp = http.delete('/os-volumes_boot/%s' % server_id)
        assert resp.status_code == 204, resp.text
