"""The OpenAPI descriptions (tether.api.openapi): valid OpenAPI 3.1, of
every operation of the route tables, per microversion, and the copies in
doc/source/openapi/ what the code describes now."""

import importlib.util
import pathlib

from openapi_spec_validator import validate
import pytest
import webob

from tether.api.compute import description as compute_description
from tether.api import microversion
from tether.api import openapi
from tether.api.volume import description as volume_description
from tether.cmd import openapi as openapi_cmd

ROOT = pathlib.Path(__file__).resolve().parents[3]
DOC = ROOT / 'doc' / 'source' / 'openapi'
APIS = {'volume': (volume_description.api, volume_description.operations),
        'compute': (compute_description.api,
                    compute_description.operations)}


@pytest.fixture(params=sorted(APIS))
def api(request):
    return request.param


def _ops(document):
    return {(path, method) for path, methods in document['paths'].items()
            for method in methods}


def test_every_description_is_valid_openapi(api):
    make, _ops_of = APIS[api]
    service = make().service
    for version in (None, service.min, service.max):
        validate(openapi.document(make(), version))


def test_every_operation_is_described_once(api):
    make, ops_of = APIS[api]
    document = openapi.document(make())
    prefix = make().prefix
    assert _ops(document) == {(prefix + op.path, op.method.lower())
                              for op in ops_of()}
    ids = [operation['operationId'] for methods in document['paths'].values()
           for operation in methods.values()]
    assert len(ids) == len(set(ids))


def test_actions_are_one_operation_whose_body_names_each():
    document = openapi.document(volume_description.api())
    action = document['paths']['/v3/volumes/{volume_id}/action']['post']
    bodies = action['requestBody']['content']['application/json']['schema']
    assert bodies['x-openstack'] == {'discriminator': 'action'}
    names = {body['x-openstack']['action-name'] for body in bodies['anyOf']}
    assert {'os-extend', 'os-reimage', 'os-extend_volume_completion',
            'os-reset_status', 'os-volume_upload_image'} <= names


def test_a_microversion_has_its_own_schemas_and_operations():
    api = volume_description.api()
    every = openapi.document(api)
    at_3_0 = openapi.document(api, microversion.parse('3.0'))
    at_3_27 = openapi.document(api, microversion.parse('3.27'))
    # The attachments API is served from 3.27.
    assert '/v3/attachments' in every['paths']
    assert '/v3/attachments' not in at_3_0['paths']
    assert '/v3/attachments' in at_3_27['paths']
    assert at_3_0['info']['version'] == '3.0'
    # A schema that changes with the microversion: an anyOf of windows in
    # the whole description, the one that applies in a version's.
    compute = compute_description.api()
    show = openapi.document(compute)['paths'][
        '/v2.1/os-keypairs/{keypair_name}']['get']
    schema = show['responses']['200']['content']['application/json'][
        'schema']
    assert [v['x-openstack'] for v in schema['anyOf']] == [
        {'min-ver': '2.1', 'max-ver': '2.1'},
        {'min-ver': '2.2', 'max-ver': '2.97'}]
    at_2_1 = openapi.document(compute, microversion.parse('2.1'))['paths'][
        '/v2.1/os-keypairs/{keypair_name}']['get']
    one = at_2_1['responses']['200']['content']['application/json'][
        'schema']
    assert 'type' not in one['properties']['keypair']['properties']
    # The status of a delete: 202 at 2.1, 204 from 2.2.
    delete = openapi.document(compute, microversion.parse('2.1'))['paths'][
        '/v2.1/os-keypairs/{keypair_name}']['delete']
    assert sorted(delete['responses']) == ['202', 'default']


def test_the_description_is_served_and_a_bad_microversion_refused():
    from tether.api.volume import app
    server = openapi.Server(volume_description.api)
    req = webob.Request.blank('/openapi.json?microversion=3.27')
    req.environ[microversion.VERSION_KEY] = microversion.parse('3.0')
    assert server(req).json['info']['version'] == '3.27'
    for bad in ('3.999', 'x', '2.1'):
        req = webob.Request.blank('/openapi.json?microversion=' + bad)
        with pytest.raises(Exception) as caught:
            server(req)
        assert caught.value.status == 400, bad
        assert 'microversion' in caught.value.message
    assert app  # the app module names the same description


def drift(directory):
    """The files of ``directory`` that differ from the descriptions the
    code makes now."""
    found = []
    for name in sorted(APIS):
        path = pathlib.Path(directory) / ('%s.json' % name)
        if not path.exists() or path.read_text() != openapi_cmd.text(name):
            found.append(path.name)
    return found


def test_the_copies_in_doc_are_what_the_code_describes():
    assert drift(DOC) == [], (
        'doc/source/openapi/ is out of date: run "tox -e openapi" (or '
        'python -m tether.cmd.openapi doc/source/openapi) and commit it')


def test_the_drift_check_sees_a_changed_copy(tmp_path):
    openapi_cmd.write(tmp_path)
    assert drift(tmp_path) == []
    path = tmp_path / 'volume.json'
    path.write_text(path.read_text().replace('"3.71"', '"3.70"', 1))
    assert drift(tmp_path) == ['volume.json']


def _api_ref():
    spec = importlib.util.spec_from_file_location(
        'api_ref', ROOT / 'tools' / 'api_ref.py')
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_api_reference_is_what_the_code_and_samples_make():
    api_ref = _api_ref()
    for api in api_ref.APIS:
        committed = ROOT / 'doc' / 'source' / 'api-ref' / ('%s.rst' % api)
        assert committed.read_text() == api_ref.page(api), (
            'doc/source/api-ref/%s.rst is out of date: run "tox -e '
            'openapi" (or python3 tools/api_ref.py) and commit it' % api)


def test_every_sample_is_of_an_operation_and_shown():
    api_ref = _api_ref()
    text = api_ref.page('volume')
    for name, _sample in api_ref._samples('volume'):
        assert 'Sample ``%s``' % name in text
    stray = {'request': {'method': 'GET', 'path': '/v3/%(project_id)s/nope',
                         'version': None}, 'response': {'status': 200}}
    document = openapi.document(volume_description.api())
    assert api_ref._operation_of(stray, document) is None
    assert api_ref._operation_of(
        {'request': {'method': 'POST', 'path': '/v3/%(project_id)s/volumes/'
                     '%(volume_id)s/action', 'body': {'os-extend': {}}}},
        document) == ('/v3/volumes/{volume_id}/action', 'post', 'os-extend')


def test_actions_with_and_without_a_body_at_one_status():
    """lock answers 202 without a body, rebuild 202 with one: the
    description may not promise a body at 202."""
    document = openapi.document(compute_description.api(),
                                microversion.parse('2.97'))
    action = document['paths']['/v2.1/servers/{server_id}/action']['post']
    accepted = action['responses']['202']
    assert 'content' not in accepted
    assert {body['x-openstack']['action-name']
            for body in accepted['x-openstack']['bodies']} >= {'rebuild'}


def test_the_server_keeps_few_descriptions():
    server = openapi.Server(volume_description.api)
    for minor in range(0, 10):
        req = webob.Request.blank('/openapi.json?microversion=3.%d' % minor)
        assert server(req).json['info']['version'] == '3.%d' % minor
    assert list(server.cache) == ['3.6', '3.7', '3.8', '3.9']
