"""Every route of the volume and compute APIs validates what a client
sends: a body schema on POST and PUT, a query schema on the others, for
every microversion the handler serves."""

import microversion_parse
import pytest

from tether.api import actions
from tether.api.compute import routes as compute_routes
from tether.api.compute import versions as compute_versions
from tether.api.volume import routes as volume_routes
from tether.api.volume import versions as volume_versions

BODY_METHODS = ('POST', 'PUT')

APIS = {'volume': (volume_routes, volume_versions),
        'compute': (compute_routes, compute_versions)}


def _handlers(api):
    routes, _versions = APIS[api]
    for path, methods in routes.RESOURCES:
        for method, handler in methods.items():
            yield path, method, handler


def _dispatchers(api):
    """{dispatcher: its actions} of an API's action routes: they take no
    body schema themselves, they parse and dispatch to handlers that do
    (checked below)."""
    return {handler: handler.actions for _path, _method, handler
            in _handlers(api) if isinstance(handler, actions.Dispatcher)}


def _routes():
    for api in APIS:
        for path, method, handler in _handlers(api):
            yield pytest.param(api, path, method, handler,
                               id='%s %s %s' % (api, method, path))


@pytest.mark.parametrize('api,path,method,handler', list(_routes()))
def test_route_declares_schemas(api, path, method, handler):
    if isinstance(handler, actions.Dispatcher):
        assert handler.actions, '%s %s dispatches no action' % (
            method, path)
        return
    if method in BODY_METHODS:
        assert getattr(handler, 'body_schemas', None), (
            '%s %s (%s) has no body schema' % (method, path,
                                               handler.__name__))
    else:
        assert getattr(handler, 'query_schemas', None), (
            '%s %s (%s) has no query schema' % (method, path,
                                                handler.__name__))


def _actions():
    for api in APIS:
        for served in _dispatchers(api).values():
            for name in sorted(served):
                yield pytest.param(served[name], id='%s %s' % (api, name))


@pytest.mark.parametrize('handler', list(_actions()))
def test_action_declares_body_schema(handler):
    assert getattr(handler, 'body_schemas', None), handler.__name__


@pytest.mark.parametrize('api', sorted(APIS))
def test_schemas_cover_every_version(api):
    """No microversion falls between two schema windows of one handler,
    nor in two of them."""
    _routes, versions = APIS[api]
    all_versions = [microversion_parse.parse_version_string(v)
                    for v in versions.SERVICE.versions]
    handlers = [(path, method, handler)
                for path, method, handler in _handlers(api)]
    handlers += [('(action %s)' % name, 'POST', handler)
                 for served in _dispatchers(api).values()
                 for name, handler in served.items()]
    for path, method, handler in handlers:
        for attr in ('body_schemas', 'query_schemas'):
            windows = getattr(handler, attr, None)
            if not windows:
                continue
            lo_handler = getattr(handler, 'min_version', None)
            hi_handler = getattr(handler, 'max_version', None)
            for version in all_versions:
                if lo_handler is not None and version < lo_handler:
                    continue
                if hi_handler is not None and version > hi_handler:
                    continue
                covered = [w for w in windows
                           if (w[0] is None or version >= w[0]) and
                           (w[1] is None or version <= w[1])]
                assert len(covered) == 1, (
                    '%s %s: %d %s windows at %s' % (method, path,
                                                    len(covered), attr,
                                                    version))
