"""Every route of the volume API validates what a client sends."""

import microversion_parse
import pytest

from tether.api.volume import routes
from tether.api.volume import versions
from tether.api.volume.handlers import volume_actions

BODY_METHODS = ('POST', 'PUT')
# Handlers that take no body on a body method: they parse and dispatch to
# handlers that do (checked below).
DISPATCHERS = {volume_actions.dispatch}


def _handlers():
    for path, methods in routes.RESOURCES:
        for method, handler in methods.items():
            yield path, method, handler


@pytest.mark.parametrize('path,method,handler', list(_handlers()),
                         ids=lambda v: v if isinstance(v, str) else '')
def test_route_declares_schemas(path, method, handler):
    if handler in DISPATCHERS:
        return
    if method in BODY_METHODS:
        assert getattr(handler, 'body_schemas', None), (
            '%s %s (%s) has no body schema' % (method, path,
                                               handler.__name__))
    else:
        assert getattr(handler, 'query_schemas', None), (
            '%s %s (%s) has no query schema' % (method, path,
                                                handler.__name__))


@pytest.mark.parametrize('name', sorted(volume_actions.ACTIONS))
def test_action_declares_body_schema(name):
    assert getattr(volume_actions.ACTIONS[name], 'body_schemas', None), name


def test_schemas_cover_every_version():
    """No microversion falls between two schema windows of one handler."""
    all_versions = [microversion_parse.parse_version_string(v)
                    for v in versions.SERVICE.versions]
    for path, method, handler in _handlers():
        for attr in ('body_schemas', 'query_schemas'):
            windows = getattr(handler, attr, None)
            if not windows:
                continue
            lo_handler = getattr(handler, 'min_version', None)
            for version in all_versions:
                if lo_handler is not None and version < lo_handler:
                    continue
                covered = [w for w in windows
                           if (w[0] is None or version >= w[0]) and
                           (w[1] is None or version <= w[1])]
                assert len(covered) == 1, (
                    '%s %s: %d %s windows at %s' % (method, path,
                                                    len(covered), attr,
                                                    version))
