"""Middleware of the noauth pipelines: ``/identity/v3`` says that there is
no identity service, in the identity API's own terms.

Without Keystone there are no projects or users to look up. Clients
still build an identity client first: python-openstackclient's volume
and compute commands read the identity API's version before they send
anything (``volume list``, ``flavor set --project``), and fail if none
answers. So the noauth clouds of tether-aio's clouds.yaml name this
endpoint: it answers version discovery (identity v3) and refuses every
identity request with a 403 that says why. A client that resolves a
project or user name to its ID takes such a refusal as "the name is the
ID", which is what noauth's tokens (``<user>:<project>``) make them.
"""

import webob

from oslo_serialization import jsonutils

PREFIX = '/identity'
VERSION = 'v3.14'
MESSAGE = ('This cloud runs without Keystone (auth_strategy = noauth): '
           'there are no projects or users to list or find; a token '
           'names its own (<user>:<project>). tether-aio --keystone runs '
           'a Keystone.')


def _json(status, body):
    resp = webob.Response(status=status, content_type='application/json',
                          charset='utf-8')
    resp.body = jsonutils.dump_as_bytes(body)
    return resp


def _version(request):
    href = request.host_url + PREFIX + '/v3/'
    return _json(200, {'version': {
        'id': VERSION, 'status': 'stable',
        'updated': '2020-04-07T00:00:00Z',
        'links': [{'rel': 'self', 'href': href}],
        'media-types': [{
            'base': 'application/json',
            'type': 'application/vnd.openstack.identity-v3+json'}]}})


def _refusal():
    # Keystone's error body.
    return _json(403, {'error': {'code': 403, 'title': 'Forbidden',
                                 'message': MESSAGE}})


class NoauthIdentity:
    """Answer below ``/identity``; pass anything else on."""

    def __init__(self, application):
        self.application = application

    def __call__(self, environ, start_response):
        path = environ.get('PATH_INFO', '')
        if path != PREFIX and not path.startswith(PREFIX + '/'):
            return self.application(environ, start_response)
        request = webob.Request(environ)
        rest = path[len(PREFIX):].strip('/')
        if rest in ('', 'v3') and request.method in ('GET', 'HEAD'):
            return _version(request)(environ, start_response)
        return _refusal()(environ, start_response)


def factory(global_conf, **local_conf):
    """paste filter (the noauth pipelines): see NoauthIdentity."""
    return NoauthIdentity
