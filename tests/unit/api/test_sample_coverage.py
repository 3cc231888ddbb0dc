"""Every operation of both APIs has a sample in the API reference (a
recorded exchange under doc/api_samples/ that a functional test
replays); the operations without one yet are listed in
samples_todo.txt, which may only shrink. An alias of another route
(/os-volumes_boot of /servers) needs none of its own."""

import importlib.util
import pathlib

from tether.api.compute import description as compute_description
from tether.api import openapi
from tether.api.volume import description as volume_description

ROOT = pathlib.Path(__file__).resolve().parents[3]
TODO = pathlib.Path(__file__).with_name('samples_todo.txt')
DESCRIPTIONS = {'volume': volume_description, 'compute': compute_description}


def _api_ref():
    spec = importlib.util.spec_from_file_location(
        'api_ref', ROOT / 'tools' / 'api_ref.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _todo():
    return {line.strip() for line in TODO.read_text().splitlines()
            if line.strip() and not line.startswith('#')}


def uncovered(api, samples):
    """The operations of ``api`` (by name) that none of ``samples``
    (sample dicts) is of, aliases left out."""
    description = DESCRIPTIONS[api]
    document = openapi.document(description.api())
    prefix = description.api().prefix
    api_ref = _api_ref()
    have = set()
    for sample in samples:
        path, method, action = api_ref._operation_of(sample, document)
        have.add((path, method, action))
        have.add((path, method, None))
    found, handlers = [], set()
    for op in description.operations():
        key = (op.handler, op.method, op.action)
        if key in handlers:
            continue   # an alias of a route seen already
        handlers.add(key)
        if (prefix + op.path, op.method.lower(), op.action) not in have:
            found.append('%s %s' % (api, op.name))
    return found


def problems(todo, samples_by_api):
    found = []
    missing = set()
    for api, samples in samples_by_api.items():
        missing |= set(uncovered(api, samples))
    found += ['%s has no sample' % name for name in sorted(missing - todo)]
    found += ['%s has a sample: take it off %s' % (name, TODO.name)
              for name in sorted(todo - missing)]
    return found


def test_every_operation_has_a_sample_or_is_listed():
    api_ref = _api_ref()
    samples = {api: [s for _n, s in api_ref._samples(api)]
               for api in DESCRIPTIONS}
    assert problems(_todo(), samples) == []


def test_the_guard_sees_a_sample_gone_and_a_stale_line():
    api_ref = _api_ref()
    samples = {api: [s for _n, s in api_ref._samples(api)]
               for api in DESCRIPTIONS}
    samples['volume'] = [
        s for s in samples['volume']
        if s['request']['path'] != '/v3/%(project_id)s/limits']
    todo = _todo() | {'volume POST /volumes/{volume_id}/action os-extend'}
    assert problems(todo, samples) == [
        'volume GET /limits has no sample',
        'volume POST /volumes/{volume_id}/action os-extend has a sample: '
        'take it off samples_todo.txt']
