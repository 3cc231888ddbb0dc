"""The tests' way of running the ``openstack`` CLI (tests/openstack_cli.py):
a child forked from a server that has imported the CLI gives what the
console script gives, exit status, output and errors alike; it takes the
environment it is given; a command past its timeout is killed."""

import os
import socket
import subprocess
import threading

import pytest

from tests import openstack_cli


@pytest.fixture
def clouds(tmp_path):
    path = tmp_path / 'clouds.yaml'
    path.write_text('clouds:\n'
                    '  down:\n'
                    '    auth_type: admin_token\n'
                    '    auth: {token: "u:p",\n'
                    '           endpoint: "http://127.0.0.1:9"}\n'
                    '    block_storage_endpoint_override: '
                    '"http://127.0.0.1:9/v3"\n')
    return dict(os.environ, OS_CLIENT_CONFIG_FILE=str(path))


@pytest.mark.parametrize('args', [
    ['--version'],
    ['help', 'volume', 'create'],
    ['--os-cloud', 'down', 'volume', 'list'],        # cannot connect: 1
    ['--os-cloud', 'absent', 'volume', 'list'],      # no such cloud
    ['volume', 'frobnicate'],                        # no such command: 2
])
def test_a_forked_command_gives_what_the_console_script_gives(clouds, args):
    forked = openstack_cli.openstack_run(args, env=clouds, timeout=120)
    executed = openstack_cli.exec_openstack(args, env=clouds, timeout=120)
    assert (forked.returncode, forked.stdout, forked.stderr) == (
        executed.returncode, executed.stdout, executed.stderr)
    assert forked.args == [openstack_cli.OPENSTACK] + args


def test_each_command_takes_its_own_environment(clouds):
    other = dict(clouds, OS_CLOUD='absent')
    failed = openstack_cli.openstack_run(['volume', 'list'], env=other)
    assert failed.returncode != 0
    assert 'absent' in failed.stderr
    # Nothing of one command's environment stays for the next.
    again = openstack_cli.openstack_run(['--version'], env=clouds)
    assert again.returncode == 0 and again.stdout.startswith('openstack ')


def test_commands_at_once_each_get_their_own_output(clouds):
    results = {}

    def run(name):
        results[name] = openstack_cli.openstack_run(
            ['help', name, 'list'], env=clouds, timeout=120)
    threads = [threading.Thread(target=run, args=(n,))
               for n in ('volume', 'server', 'flavor')]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    for name in ('volume', 'server', 'flavor'):
        assert results[name].returncode == 0, results[name].stderr
        assert 'usage: openstack %s list' % name in results[name].stdout


def test_a_command_past_its_timeout_is_killed(tmp_path):
    # An API that takes the connection and never answers.
    with socket.socket() as listener:
        listener.bind(('127.0.0.1', 0))
        listener.listen(8)
        port = listener.getsockname()[1]
        path = tmp_path / 'clouds.yaml'
        path.write_text(
            'clouds:\n  mute:\n    auth_type: admin_token\n'
            '    auth: {token: "u:p", endpoint: "http://127.0.0.1:%d"}\n'
            '    block_storage_endpoint_override: '
            '"http://127.0.0.1:%d/v3"\n' % (port, port))
        env = dict(os.environ, OS_CLIENT_CONFIG_FILE=str(path))
        before = _children_of_servers()
        with pytest.raises(subprocess.TimeoutExpired):
            openstack_cli.openstack_run(
                ['--os-cloud', 'mute', 'volume', 'list'], env=env,
                timeout=3)
    assert _children_of_servers() <= before


def _children_of_servers():
    """The pids of the fork servers' children still running."""
    server = openstack_cli._FORK_SERVER._proc
    if server is None:
        return set()
    children = '/proc/%d/task/%d/children' % (server.pid, server.pid)
    try:
        with open(children) as f:
            return set(f.read().split())
    except FileNotFoundError:
        return set()
