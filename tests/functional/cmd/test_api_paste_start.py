"""Every way an API starts loads it through api-paste.ini: the commands,
the WSGI entry points that gunicorn calls (as the systemd units run them),
and their refusal to start on a bad api_paste_config."""

import os
import pathlib
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time

import pytest
import requests

from tests.unit.api import test_api_paste

from tether.cmd.glance import child as glance_child

ROOT = pathlib.Path(__file__).resolve().parents[3]
UNIT = ROOT / 'etc' / 'systemd' / 'tether-volume-api.service'


def write_config(directory, *lines):
    path = directory / 'tether.conf'
    path.write_text('\n'.join([
        '[DEFAULT]', 'auth_strategy = noauth', 'transport_url = fake://',
        'state_path = %s' % directory, *lines]) + '\n')
    return path


def run_python(code, *args, env=None, timeout=120):
    return subprocess.run([sys.executable, '-c', code, *map(str, args)],
                          capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=dict(os.environ, **(env or {})))


@pytest.mark.parametrize('command', ['volume_api', 'compute_api'])
def test_api_command_refuses_a_missing_paste_file(tmp_path, command):
    config = write_config(tmp_path, 'api_paste_config = missing-paste.ini')
    result = run_python(
        'import sys; from tether.cmd import %s as cmd; '
        'sys.exit(cmd.main())' % command, '--config-file', config)
    assert result.returncode == 1, result.stderr
    assert ('[DEFAULT]api_paste_config = missing-paste.ini: not found '
            'beside the configuration files') in result.stderr
    assert 'Traceback' not in result.stderr


def test_compute_api_command_refuses_a_file_without_its_app(tmp_path):
    (tmp_path / 'api-paste.ini').write_text(test_api_paste.custom_paste())
    config = write_config(tmp_path)
    result = run_python(
        'import sys; from tether.cmd import compute_api as cmd; '
        'sys.exit(cmd.main())', '--config-file', config)
    assert result.returncode == 1, result.stderr
    assert ("Cannot load the WSGI app osapi_compute from %s: LookupError: "
            "No section 'osapi_compute'" % (tmp_path / 'api-paste.ini')
            in result.stderr)


WSGI_PROBE = '''
import json, sys, webob
from tether.api.{api} import wsgi_app
app = wsgi_app.init_application()
resp = webob.Request.blank(sys.argv[1], headers={{
    'X-Forwarded-Proto': 'https'}}).get_response(app)
print(json.dumps({{'status': resp.status_int, 'headers': dict(resp.headers),
                  'body': resp.json}}))
'''


def test_wsgi_entry_point_reads_the_paste_file_beside_its_config(tmp_path):
    # TETHER_CONFIG_FILE, as the systemd units set it; api-paste.ini
    # beside it is an operator's own (behind a TLS proxy).
    (tmp_path / 'api-paste.ini').write_text(test_api_paste.custom_paste())
    config = write_config(tmp_path)
    result = run_python(WSGI_PROBE.format(api='volume'), '/v3',
                        env={'TETHER_CONFIG_FILE': str(config)})
    assert result.returncode == 0, result.stderr
    answer = result.stdout.strip().splitlines()[-1]
    assert '"https://localhost' in answer


def test_compute_wsgi_entry_point_loads_the_sample(tmp_path):
    shutil.copy(test_api_paste.SAMPLE, tmp_path / 'api-paste.ini')
    config = write_config(tmp_path)
    result = run_python(WSGI_PROBE.format(api='compute'), '/v2.1/p/servers',
                        env={'TETHER_CONFIG_FILE': str(config)})
    assert result.returncode == 0, result.stderr
    answer = result.stdout.strip().splitlines()[-1]
    assert '"status": 401' in answer
    assert '"X-Compute-Request-ID": "req-' in answer


def unit_gunicorn_args(unit, port):
    """gunicorn's arguments in a unit's ExecStart, bound to ``port`` on
    127.0.0.1 with 2 workers."""
    text = unit.read_text().replace('\\\n', ' ')
    exec_start = re.search(r'^ExecStart=(.*)$', text, re.M).group(1)
    args = shlex.split(exec_start)[1:]  # without the virtualenv's gunicorn
    args[args.index('--bind') + 1] = '127.0.0.1:%d' % port
    args[args.index('--workers') + 1] = '2'
    return args


def test_gunicorn_as_the_unit_runs_it(tmp_path):
    pytest.importorskip('gunicorn')
    config = write_config(tmp_path)
    port = glance_child.free_port()
    env = dict(os.environ, TETHER_CONFIG_FILE=str(config))
    log = tmp_path / 'gunicorn.log'
    with open(log, 'w') as stderr:
        proc = subprocess.Popen(
            [sys.executable, '-m', 'gunicorn',
             *unit_gunicorn_args(UNIT, port)],
            cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=stderr)
    url = 'http://127.0.0.1:%d' % port
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                resp = requests.get(url + '/v3/', timeout=10)
                break
            except requests.ConnectionError:
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, log.read_text()
                time.sleep(0.2)
        assert resp.status_code == 200
        assert resp.json()['versions'][0]['version']
        resp = requests.get(url + '/v3/p/volumes', timeout=10)
        assert resp.status_code == 401
        assert 'X-Auth-Token' in resp.json()['unauthorized']['message']
        assert resp.headers['X-OpenStack-Request-ID'].startswith('req-')
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(30)
