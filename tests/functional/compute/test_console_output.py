"""os-getConsoleOutput over HTTP, openstacksdk and the openstack CLI.

These guests have no OS and print nothing: the test writes into the
console log what a guest would have printed (a guest's own lines are in
test_real_guest.py). The log is the file libvirt's virtlogd writes,
``<instances_path>/<server id>/console.log`` on the compute host.
"""

import os
import uuid
import xml.etree.ElementTree as ET

from oslo_config import cfg
import pytest
from tests.functional import cli
from tests.functional.compute import server_helpers as sh
from tests.functional import helpers

from tether.compute import rpcapi as compute_rpcapi
from tether.db.compute import instance as db_instances

CONF = cfg.CONF
# What a guest printed: a serial console ends its lines with \r\n and
# may send escape sequences, NULs and bytes that are not UTF-8.
PRINTED = (b'Booting\r\n'
           b'\x1b[1mtether\x1b[0m guest\x00\r\n'
           b'caf\xc3\xa9 \xff\r\n'
           b'last\tline\r\n')
# Nova strips the control characters (the escape character, not the rest
# of its sequence).
SHOWN = 'Booting\n[1mtether[0m guest\ncaf\u00e9 \ufffd\nlast\tline\n'


@pytest.fixture
def cloud(aio, wait):
    yield from sh.cloud_fixture(aio, wait)


def _console_log(server_id):
    return os.path.join(CONF.instances_path, server_id, 'console.log')


def _print(server_id, data):
    """Append ``data`` to the guest's console log, as the guest would."""
    with open(_console_log(server_id), 'ab') as f:
        f.write(data)


def _output(project, server_id, **body):
    resp = project.action(server_id, {'os-getConsoleOutput': body})
    assert resp.status_code == 200, resp.text
    assert list(resp.json()) == ['output']
    return resp.json()['output']


def test_the_console_of_a_running_server(cloud):
    user = cloud.project()
    server = user.boot()
    # Its log is there, empty: a guest without an OS prints nothing.
    assert os.path.isfile(_console_log(server.id))
    assert user.conn.compute.get_server_console_output(server) == {
        'output': ''}

    _print(server.id, PRINTED)
    # All of it, as openstacksdk asks; control characters but tab and
    # newline are gone (as Nova strips them), bad UTF-8 is replaced.
    assert user.conn.compute.get_server_console_output(server) == {
        'output': SHOWN}
    # The last N pieces between newlines, as Nova counts them (and
    # Tempest checks: N pieces when split at newlines).
    last2 = user.conn.compute.get_server_console_output(server, length=2)
    assert last2['output'] == 'last\tline\n'
    assert len(last2['output'].split('\n')) == 2
    assert _output(user, server.id, length=3) == (
        'caf\u00e9 \ufffd\nlast\tline\n')
    assert _output(user, server.id, length='3') == (
        'caf\u00e9 \ufffd\nlast\tline\n')
    assert _output(user, server.id, length=0) == ''
    for everything in (-1, '-1', None, 100, 2 ** 40):
        assert _output(user, server.id, length=everything) == SHOWN
    assert _output(user, server.id) == SHOWN
    # An administrator reads it too.
    assert _output(cloud.admin(), server.id, length=1) == ''


def test_the_openstack_cli_shows_the_console_log(cloud, tmp_path):
    user = cloud.project()
    server = user.boot()
    _print(server.id, PRINTED)
    openstack = cli.CLI(user.aio, tmp_path, user.user, user.project)
    # (One run: the CLI takes seconds to start. Without --lines it sends
    # no length, as openstacksdk does above.)
    assert openstack.run('console', 'log', 'show', '--lines', '3',
                         server.name) == 'caf\u00e9 \ufffd\nlast\tline\n'


def test_bad_lengths_are_400_naming_the_field(cloud):
    user = cloud.project()
    server = user.boot(wait=False, availability_zone='nowhere')
    for body in ({'length': -2}, {'length': '-2'}, {'length': 'ten'},
                 {'length': 1.5}, {'length': True}, {'length': []},
                 {'lines': 3}):
        resp = user.action(server.id, {'os-getConsoleOutput': body})
        assert resp.status_code == 400, (body, resp.text)
        assert resp.json()['badRequest']['error_code'] == (
            'api.validation.failed')
        assert 'os-getConsoleOutput' in sh.message(resp), resp.text
    resp = user.action(server.id, {'os-getConsoleOutput': None})
    assert resp.status_code == 400, resp.text


def test_who_may_read_a_console(cloud):
    owner = cloud.project()
    server = owner.boot(wait=False, availability_zone='nowhere')
    other = cloud.project()
    resp = other.action(server.id, {'os-getConsoleOutput': {}})
    assert resp.status_code == 404, resp.text
    resp = owner.action(str(uuid.uuid4()), {'os-getConsoleOutput': {}})
    assert resp.status_code == 404, resp.text
    # os_compute_api:os-console-output: a member or an administrator,
    # not a reader.
    reader = owner.aio.compute_http(owner.user, owner.project, ['reader'])
    resp = reader.post('/servers/%s/action' % server.id,
                       json={'os-getConsoleOutput': {}})
    assert resp.status_code == 403, resp.text
    assert 'os_compute_api:os-console-output' in sh.message(resp)


def _conflict(resp, code, *words):
    assert resp.status_code == 409, resp.text
    assert resp.json()['conflictingRequest']['error_code'] == code
    for word in words:
        assert word in sh.message(resp), (word, resp.text)


def test_a_server_without_a_host_is_409(cloud):
    user = cloud.project()
    lost = user.boot(wait=False, availability_zone='nowhere')
    user.wait_server(lost.id, 'ERROR')
    _conflict(user.action(lost.id, {'os-getConsoleOutput': {}}),
              'compute.server.not_ready', 'no compute host')


def test_a_server_that_is_off_shows_its_last_run(cloud):
    # As Nova (Tempest's test_get_console_output_server_id_in_shutoff_
    # status): the host keeps the log of the last run, and serves it.
    user = cloud.project()
    server = user.boot()
    user.conn.compute.stop_server(server)
    user.wait_server(server.id, 'SHUTOFF')
    _print(server.id, PRINTED)
    resp = user.action(server.id, {'os-getConsoleOutput': {}})
    assert resp.status_code == 200, resp.text
    assert resp.json()['output'] == SHOWN


def test_a_server_being_deleted_is_409(cloud):
    user = cloud.project()
    server = user.boot()
    db_instances.update(helpers.admin_context(), server.id,
                        {'task_state': 'deleting'})
    _conflict(user.action(server.id, {'os-getConsoleOutput': {}}),
              'compute.server.invalid_state', 'get_console_output',
              'task_state deleting')
    db_instances.update(helpers.admin_context(), server.id,
                        {'task_state': None})


def test_a_host_too_old_for_console_output_is_409(aio, compute_hosts,
                                                  servers):
    old = compute_hosts.add()          # service version 1
    instance, _ = servers.add('project-' + uuid.uuid4().hex[:8],
                              host=old.host)
    http = aio.compute_http('user-a', instance.project_id)
    _conflict(http.post('/servers/%s/action' % instance.uuid,
                        json={'os-getConsoleOutput': {'length': 5}}),
              'compute.host.too_old', old.host, 'service version 1',
              'Upgrade')


def test_an_api_pinned_below_rpc_1_1_is_409(aio, servers, levels,
                                            monkeypatch):
    levels('compute', '1.0')
    monkeypatch.setattr(compute_rpcapi, '_client', None)
    instance, _ = servers.add('project-' + uuid.uuid4().hex[:8],
                              host=CONF.host)
    http = aio.compute_http('user-a', instance.project_id)
    _conflict(http.post('/servers/%s/action' % instance.uuid,
                        json={'os-getConsoleOutput': {}}),
              'tether.rpc.version_pinned',
              'console output needs tether-compute RPC version 1.1',
              '[upgrade_levels] compute holds the API at 1.0')


def test_a_server_whose_guest_is_gone_is_404(aio, servers):
    # The host has no guest of it (as after a failed cleanup).
    instance, _ = servers.add('project-' + uuid.uuid4().hex[:8],
                              host=CONF.host)
    http = aio.compute_http('user-a', instance.project_id)
    resp = http.post('/servers/%s/action' % instance.uuid,
                     json={'os-getConsoleOutput': {}})
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['error_code'] == (
        'compute.server.not_found')


def test_a_guest_defined_without_a_logged_console_is_404(cloud, tmp_path):
    # As a guest defined by a release before consoles were logged: its
    # definition has no <serial>, also after a hard reboot.
    user = cloud.project()
    server = user.boot()
    root = ET.fromstring(sh.virsh('dumpxml', '--inactive',
                                  sh.domain(server.id)).stdout)
    devices = root.find('devices')
    for tag in ('serial', 'console'):
        for el in devices.findall(tag):
            devices.remove(el)
    (tmp_path / 'domain.xml').write_text(ET.tostring(root,
                                                     encoding='unicode'))
    sh.virsh('define', str(tmp_path / 'domain.xml'))
    user.conn.compute.reboot_server(server, 'HARD')
    user.wait_server(server.id)
    resp = user.action(server.id, {'os-getConsoleOutput': {}})
    assert resp.status_code == 404, resp.text
    assert resp.json()['itemNotFound']['error_code'] == (
        'compute.console.not_available')
    assert 'does not have a console available' in sh.message(resp)
