"""The fuzzing job: schemathesis, driven by tether's own OpenAPI
descriptions, against a real tether-aio (real qemu-img, libvirt and
Glance), as four personas, seeded and bounded in time.

It fails on any 5xx (tether answers one, api.response.invalid, for an
answer its handler does not declare: the aio runs with
``[api] response_validation = error``), any status, content type or body
the description does not allow, any answer slower than
``--max-response-time``; and afterwards unless project B's resources
(no persona is of B) are as they were and every project's volume quota
usage is what it owns, with nothing reserved.

    python3 tools/fuzz/fuzz.py [--seed 1] [--examples 10]

(tox -e fuzz; .ci/run runs it). Its reports (JUnit, and schemathesis's
own output per run) are left in --workdir.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [ROOT, HERE, os.path.join(ROOT, 'tools', 'bench')]

import aio_process  # noqa: E402  (tools/bench)
import world  # noqa: E402

from tether.cmd import venvs  # noqa: E402

REQUIREMENTS = os.path.join(HERE, 'requirements.txt')
CONFIG = """\
[api]
response_validation = error
"""
# persona: (noauth token, examples per operation relative to --examples)
PERSONAS = {
    'reader': ('fuzz-reader:%s:reader' % world.PROJECT_A, 0.5),
    'other': ('fuzz-other:%s' % world.PROJECT_C, 0.5),
    'member': ('fuzz-member:%s' % world.PROJECT_A, 1.0),
    'admin': ('admin:%s' % world.PROJECT_ADMIN, 0.5),
}
# api: (service type, first microversion, last microversion)
APIS = {'volume': ('volume', '3.0', '3.71'),
        'compute': ('compute', '2.1', '2.97')}
# Who fuzzes at which end of the microversions, in order (the
# administrator last: what it deletes, the others no longer find).
RUNS = [('reader', 'last'), ('other', 'last'), ('member', 'first'),
        ('member', 'last'), ('admin', 'last')]
CHECKS = ('not_a_server_error,status_code_conformance,'
          'content_type_conformance,response_schema_conformance')


def _root(url):
    return url.rsplit('/v', 1)[0]


def _toml(parameters):
    lines = ['[parameters]']
    lines += ['"path.%s" = %s' % (name, json.dumps(value))
              for name, value in sorted(parameters.items())]
    return '\n'.join(lines) + '\n'


def fuzz(st, workdir, root, api, persona, end, parameters, args):
    """One schemathesis run; (passed, test cases, seconds, output tail)."""
    token, share = PERSONAS[persona]
    service_type, first, last = APIS[api]
    version = first if end == 'first' else last
    name = '%s-%s-%s' % (api, persona, version)
    config = os.path.join(workdir, name + '.toml')
    with open(config, 'w') as f:
        f.write(_toml(parameters))
    argv = [st, '--config-file', config, 'run',
            '%s/openapi.json?microversion=%s' % (root, version),
            '--url', root,
            '-H', 'X-Auth-Token: %s' % token,
            '-H', 'OpenStack-API-Version: %s %s' % (service_type, version),
            '--checks', CHECKS,
            '--max-response-time', str(args.max_response_time),
            '--request-timeout', str(args.request_timeout),
            '--max-examples', str(max(1, int(args.examples * share))),
            '--seed', str(args.seed),
            '--phases', 'examples,coverage,fuzzing',
            '--no-shrink', '--workers', '1', '--continue-on-failure',
            '--max-time', str(args.max_time),
            '--generation-database', 'none',
            '--report', 'junit', '--report-junit-path',
            os.path.join(workdir, name + '.junit.xml')]
    began = time.monotonic()
    # In the workdir: schemathesis keeps a cache where it runs.
    proc = subprocess.run(argv, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True,
                          stdin=subprocess.DEVNULL, cwd=workdir)
    seconds = time.monotonic() - began
    with open(os.path.join(workdir, name + '.out'), 'w') as f:
        f.write(proc.stdout)
    match = re.search(r'(\d+) generated', proc.stdout)
    cases = int(match.group(1)) if match else 0
    return proc.returncode == 0, cases, seconds, _failures(proc.stdout)


def _failures(output, limit=12000):
    """What to print of a failed run: schemathesis's FAILURES section
    (each failing case with its curl line) and its closing summary; the
    warnings between them can run to several pages."""
    sections = re.split(r'^=+ (.+?) =+$', output, flags=re.M)
    # [preamble, title, body, title, body, ...]
    found = dict(zip(sections[1::2], sections[2::2]))
    failures = found.get('FAILURES')
    if failures is None:
        return output[-6000:]
    summary = found.get('SUMMARY', '')
    return ('FAILURES' + failures[:limit] + '\nSUMMARY' + summary)[
        :limit + 4000]


def server_errors(log_path, limit=60):
    """The lines of the aio's log about the 5xx it answered
    (tether.api.fault logs each, a traceback's lines with the same
    prefix), at most ``limit`` of them."""
    try:
        with open(log_path) as f:
            lines = [line for line in f if ' tether.api.fault ' in line]
    except OSError:
        return ''
    return ''.join(lines[:limit])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--seed', type=int, default=1)
    parser.add_argument('--examples', type=int, default=10,
                        help='Test cases per operation for the member '
                             'persona (the others get half).')
    parser.add_argument('--max-response-time', type=float, default=5.0,
                        help='Seconds; a slower answer is a failure.')
    parser.add_argument('--request-timeout', type=float, default=30.0)
    parser.add_argument('--max-time', type=int, default=15,
                        help='Seconds of one persona on one API: '
                             'schemathesis fuzzes until they are spent.')
    parser.add_argument('--workdir', default=None)
    parser.add_argument('--runs', default=None,
                        help='Only these runs, as persona:end pairs '
                             '(member:last,admin:last); all by default. '
                             'The books are still checked at the end.')
    parser.add_argument('--apis', default=','.join(APIS),
                        help='Only these APIs (volume,compute).')
    parser.add_argument('--venv', default=os.path.join(
        os.path.expanduser('~'), '.cache', 'tether-fuzz', 'venv'))
    args = parser.parse_args(argv)
    runs = RUNS if args.runs is None else [
        tuple(run.partition(':')[::2]) for run in args.runs.split(',')]
    for persona, end in runs:
        if persona not in PERSONAS or end not in ('first', 'last'):
            parser.error('--runs: %r is not persona:first or persona:last '
                         '(personas: %s)' % ('%s:%s' % (persona, end),
                                             ', '.join(PERSONAS)))
    apis = args.apis.split(',')
    for api in apis:
        if api not in APIS:
            parser.error('--apis: %r is not one of %s'
                         % (api, ', '.join(APIS)))
    workdir = args.workdir or tempfile.mkdtemp(prefix='tether-fuzz-',
                                               dir='/var/tmp')
    os.makedirs(workdir, exist_ok=True)
    venvs.ensure(args.venv, REQUIREMENTS, 'schemathesis')
    st = os.path.join(args.venv, 'bin', 'st')
    config = os.path.join(workdir, 'tether-fuzz.conf')
    with open(config, 'w') as f:
        f.write(CONFIG)
    began = time.monotonic()
    # A fresh cloud each run: the same seed then makes the same requests.
    state = os.path.join(workdir, 'state')
    shutil.rmtree(state, ignore_errors=True)
    aio = aio_process.Aio(state,
                          extra_args=['--config-file', config])
    failed = []
    try:
        roots = {'volume': _root(aio.volume_url),
                 'compute': _root(aio.compute_url)}
        clients = {persona: world.Client(aio.volume_url, aio.compute_url,
                                         token)
                   for persona, (token, _share) in PERSONAS.items()}
        clients['b'] = world.Client(aio.volume_url, aio.compute_url,
                                    'fuzz-b:%s' % world.PROJECT_B)
        parameters, untouchable = world.seed(clients)
        # The administrator's reset may strand its own volume and
        # snapshot in any status: those are not project A's.
        of_persona = dict.fromkeys(PERSONAS, parameters)
        of_persona['admin'] = world.seed_admin(clients, parameters)
        before = world.untouched(clients, untouchable)
        a_before = world.project_a(clients, parameters)
        total = 0
        for persona, end in runs:
            if persona == 'member' and a_before is not None:
                # The reader and the other project have had their turns.
                a_after = world.project_a(clients, parameters)
                if a_after != a_before:
                    failed.append('a reader of project A or a member of '
                                  'another changed A: before %s, after %s'
                                  % (a_before, a_after))
                a_before = None
            for api in apis:
                passed, cases, seconds, tail = fuzz(
                    st, workdir, roots[api], api, persona, end,
                    of_persona[persona], args)
                total += cases
                print('%-8s %-7s %-5s %5d test cases %6.1f s  %s' % (
                    api, persona, end, cases, seconds,
                    'passed' if passed else 'FAILED'), flush=True)
                if not passed:
                    failed.append('%s as %s at its %s microversion:\n%s'
                                  % (api, persona, end, tail))
        after = world.untouched(clients, untouchable)
        if after != before:
            failed.append('project B changed: before %s, after %s'
                          % (before, after))
        failed += world.books(clients['admin'], reset=(
            of_persona['admin']['volume_id'],
            of_persona['admin']['snapshot_id']))
        world.remove_servers(clients['admin'])
    finally:
        aio.stop()
    if failed:
        errors = server_errors(aio.log_path)
        if errors:
            failed.append('the aio logged these server errors:\n' + errors)
    print('%d test cases in %.0f s (seed %d); reports in %s' % (
        total, time.monotonic() - began, args.seed, workdir))
    for failure in failed:
        print('\n' + failure)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
