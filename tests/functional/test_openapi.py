"""GET /openapi.json of both APIs of a running tether-aio, as a client
generator or a fuzzer fetches it: without a token, of every microversion
or of one."""

import requests


def test_both_apis_serve_their_description_without_a_token(aio):
    for root, path in ((aio.root_url, '/v3/volumes/{volume_id}'),
                       (aio.compute_root_url, '/v2.1/servers/{server_id}')):
        resp = requests.get(root + '/openapi.json', timeout=30)
        assert resp.status_code == 200, resp.text
        assert resp.headers['Content-Type'].startswith('application/json')
        document = resp.json()
        assert document['openapi'] == '3.1.0'
        assert set(document['paths'][path]) == {'get', 'put', 'delete'}


def test_the_description_of_one_microversion(aio):
    resp = requests.get(aio.root_url + '/openapi.json',
                        params={'microversion': '3.26'}, timeout=30)
    assert resp.status_code == 200
    assert resp.json()['info']['version'] == '3.26'
    assert '/v3/attachments' not in resp.json()['paths']
    resp = requests.get(aio.compute_root_url + '/openapi.json',
                        params={'microversion': '3.0'}, timeout=30)
    assert resp.status_code == 400
    fault = resp.json()['badRequest']
    assert fault['error_code'] == 'api.validation.failed'
    assert 'It must be a microversion from 2.1 to 2.97' in fault['message']
